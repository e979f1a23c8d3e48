"""The tariff editor's answer to each keystroke: the preview, and out of band the compact
summary for phones and every field's error container."""

import re
from html import unescape
from html.parser import HTMLParser

from django.urls import reverse

TARIFF = {
    "sauspiel": "0,20",
    "farbsolo": "0,50",
    "wenz": "0,50",
    "ramsch": "0,10",
    "laufende": "0,10",
    "laufende_min": "3",
    "laufende_max": "8",
    "laufende_min_wenz": "3",
    "schneider": "0,10",
    "schwarz": "0,10",
    "bock": "off",
    "settle_unit": "1",
}


def preview(client, club, runde, **changes):
    return client.post(
        reverse("clubs:tariff_preview", args=[club.pk, runde.pk]),
        TARIFF | changes,
        headers={"HX-Request": "true"},
    )


class _Element(HTMLParser):
    """Collects the inner HTML of the first element with a given id (and its attributes)."""

    def __init__(self, element_id: str):
        super().__init__(convert_charrefs=False)
        self.element_id, self.depth, self.attrs, self.inner = element_id, 0, None, []

    def handle_starttag(self, tag, attrs):
        if self.depth:
            self.depth += 1
            self.inner.append(self.get_starttag_text())
        elif self.attrs is None and dict(attrs).get("id") == self.element_id:
            self.depth, self.attrs = 1, dict(attrs)

    def handle_endtag(self, tag):
        if self.depth:
            self.depth -= 1
            if self.depth:
                self.inner.append(f"</{tag}>")

    def handle_data(self, data):
        if self.depth:
            self.inner.append(data)


def oob(html: str, element_id: str) -> str:
    """The inner HTML of the out-of-band element `element_id` in an HTMX answer."""
    parser = _Element(element_id)
    parser.feed(html)
    assert parser.attrs is not None, f"no #{element_id}"
    assert parser.attrs.get("hx-swap-oob") in ("true", "innerHTML"), f"#{element_id} is not oob"
    return "".join(parser.inner).strip()


def summary(html: str) -> dict[str, str]:
    items = re.findall(
        r'<li><span class="label">([^<]*)</span> <span class="amount">([^<]*)</span></li>', html
    )
    return dict(items)


def test_an_invalid_value_is_named_at_its_field_while_typing(client, admin, club, runde):
    client.force_login(admin)

    response = preview(client, club, runde, wenz="viel")

    assert response.status_code == 200
    assert oob(response.text, "id_wenz_errors") == (
        '<div class="error" id="id_wenz_error">'
        "Bitte einen Betrag in Euro eingeben, z. B. 0,10 oder 1,50.</div>"
    )
    assert oob(response.text, "id_sauspiel_errors") == ""
    assert "Bitte prüfen: Wenz." in response.text
    assert "Noch keine Vorschau. Bitte prüfen: Wenz" in oob(response.text, "preview-summary")
    assert runde.tariffs.count() == 1


def test_the_engines_rule_check_is_named_at_its_field_while_typing(client, admin, club, runde):
    client.force_login(admin)

    response = preview(client, club, runde, laufende_min="5", laufende_max="4")

    assert 'id="id_laufende_max_error"' in oob(response.text, "id_laufende_max_errors")
    assert oob(response.text, "id_laufende_min_errors") == ""


def test_every_error_is_named_at_once_a_typo_not_hiding_the_rules_check(client, admin, club, runde):
    client.force_login(admin)

    response = preview(client, club, runde, sauspiel="0,2O", laufende_min="0", laufende_max="20")

    errors = {
        name: re.sub(r"<[^>]+>", "", oob(response.text, f"id_{name}_errors"))
        for name in ("sauspiel", "laufende_min", "laufende_max", "laufende_min_wenz", "wenz")
    }
    assert errors == {
        "sauspiel": "Bitte einen Betrag in Euro eingeben, z. B. 0,10 oder 1,50.",
        "laufende_min": "Die Schwelle für Laufende muss zwischen 1 und 14 liegen.",
        # the threshold typed (0) is wrong itself: the message names no number for it
        "laufende_max": "Die Obergrenze für Laufende muss zwischen der Schwelle und 14 liegen.",
        "laufende_min_wenz": "",
        "wenz": "",
    }
    assert runde.tariffs.count() == 1


def test_a_corrected_value_clears_its_error_and_updates_the_summary(client, admin, club, runde):
    client.force_login(admin)

    response = preview(client, club, runde, schwarz="0,25")

    assert oob(response.text, "id_wenz_errors") == ""
    assert oob(response.text, "tariff-errors") == ""
    assert summary(oob(response.text, "preview-summary")) == {
        "Sauspiel": "0,20 €",
        "Sauspiel, 3 Laufende": "0,50 €",
        "Sauspiel, schwarz": "0,55 €",  # 0,20 + Schneider 0,10 + Schwarz 0,25
        "Farbsolo": "0,50 €",
        "Wenz, 3 Laufende": "0,80 €",
        "Ramsch": "0,10 €",
    }


def test_the_page_itself_shows_the_summary_in_place(client, admin, club, runde):
    client.force_login(admin)

    response = client.get(reverse("clubs:tariff", args=[club.pk, runde.pk]))

    assert "hx-swap-oob" not in response.text
    assert response.text.index('id="preview-summary"') < response.text.index('id="tariff-form"')
    assert summary(response.text)["Sauspiel"] == "0,10 €"
    assert 'id="id_sauspiel_errors"' in response.text
    # What an amount is: per opponent, three times over for the one who plays alone.
    assert "Jeder Betrag gilt je Gegenspieler" in response.text


def test_the_full_list_names_every_part_of_each_example(client, admin, club, runde):
    client.force_login(admin)

    response = preview(client, club, runde)

    titles = re.findall(r"<strong>([^<]*)</strong>", response.text)
    assert "Sauspiel verloren mit 3 Laufenden und Kontra" in titles
    assert "Farbsolo gewonnen mit 3 Laufenden, Schneider" in titles


def test_a_solo_cheaper_than_a_sauspiel_or_a_base_above_ten_euro_is_asked_about(
    client, admin, club, runde
):
    client.force_login(admin)

    asked = preview(
        client, club, runde, sauspiel="0,20", farbsolo="0,10", wenz="1.000,00", ramsch="0"
    )
    saved = client.post(
        reverse("clubs:tariff", args=[club.pk, runde.pk]),
        TARIFF | {"sauspiel": "0,20", "farbsolo": "0,10"},
    )

    notes = re.findall(
        r'<p class="note maybe-cents"[^>]*>([^<]*)</p>', oob(asked.text, "preview-summary")
    )
    assert notes == [
        "Farbsolo: 0,10 €, weniger als ein Sauspiel (0,20 €). So gewollt?",
        "Wenz: 1.000,00 € je Gegenspieler. So gewollt?",
        "Ramsch: 0,00 €, so ein Spiel kostet nichts. So gewollt?",
    ]
    # Each names its field, which a screen reader then hears it with (site.js).
    assert re.findall(r'data-field="(\w+)"', oob(asked.text, "preview-summary")) == [
        "id_farbsolo",
        "id_wenz",
        "id_ramsch",
    ]
    # Asked, not refused: asked once more at the save (walk 67), then saved as typed.
    assert saved.status_code == 200 and runde.tariffs.count() == 1
    assert (
        "Noch nicht gespeichert: bitte die Fragen zur Vorschau prüfen. Farbsolo: 0,10 €, weniger "
        "als ein Sauspiel (0,20 €). So gewollt? Stimmt alles so, nochmal „Tarif speichern“ tippen."
    ) in unescape(saved.text)
    confirm = re.search(r'name="bestaetigt" value="([^"]*)"', saved.text)[1]
    again = client.post(
        reverse("clubs:tariff", args=[club.pk, runde.pk]),
        TARIFF | {"sauspiel": "0,20", "farbsolo": "0,10", "bestaetigt": unescape(confirm)},
    )
    assert again.status_code == 302 and runde.tariffs.latest().farbsolo == 10


def test_a_comma_one_place_off_is_asked_about(client, admin, club, runde):
    """Walk 73: "5,0" typed for a Farbsolo of 0,50 and "1,00" for Schneider were taken
    unasked: a Solo dearer than ten Sauspiele, an extra dearer than any game."""
    client.force_login(admin)

    def notes(**typed) -> list[str]:
        response = preview(client, club, runde, **typed)
        return re.findall(
            r'<p class="note maybe-cents"[^>]*>([^<]*)</p>', oob(response.text, "preview-summary")
        )

    assert notes(farbsolo="5,0") == [
        "Farbsolo: 5,00 €, mehr als zehnmal ein Sauspiel (0,20 €). So gewollt?"
    ]
    assert notes(laufende="0,60", schneider="1,00") == [
        "Je Laufendem: 0,60 €, mehr als das teuerste Spiel (0,50 €). So gewollt?",
        "Schneider: 1,00 €, mehr als das teuerste Spiel (0,50 €). So gewollt?",
    ]
    # A slip in a game does not hide one in an extra (walk 74).
    assert notes(farbsolo="5,0", schneider="1,00") == [
        "Farbsolo: 5,00 €, mehr als zehnmal ein Sauspiel (0,20 €). So gewollt?",
        "Schneider: 1,00 €, mehr als das teuerste Spiel (0,50 €). So gewollt?",
    ]
    # Ten Sauspiele, or an extra as dear as a Solo, are a club's to choose unasked.
    assert notes(farbsolo="2,00", schwarz="0,50") == []


def test_a_whole_number_that_may_mean_cents_is_asked_about_not_refused(client, admin, club, runde):
    client.force_login(admin)

    asked = preview(client, club, runde, schwarz="10", ramsch="5", farbsolo="1")
    plain = preview(client, club, runde)

    def notes(html: str, element_id: str) -> list[str]:
        inner = oob(html, element_id) if element_id == "preview-summary" else html
        return re.findall(r'<p class="note maybe-cents"[^>]*>([^<]*)</p>', inner)

    expected = [
        "Ramsch: „5“ sind 5,00 €. Sind 5 Cent gemeint, bitte 0,05 schreiben.",
        "Schwarz: „10“ sind 10,00 €. Sind 10 Cent gemeint, bitte 0,10 schreiben.",
    ]
    # In the summary that stays in view on a phone, and in the preview; "1" is no question.
    assert notes(asked.text, "preview-summary") == expected
    assert notes(asked.text.split('id="preview-summary"')[0], "preview") == expected
    assert notes(plain.text, "preview-summary") == []
    # Euros, as the form says, but a tariff 100 times too dear is one tap away (walk 67):
    # the save asks first, with the question in view, and saves once asked again.
    url = reverse("clubs:tariff", args=[club.pk, runde.pk])
    first = client.post(url, TARIFF | {"schwarz": "10"})
    assert first.status_code == 200 and runde.tariffs.count() == 1
    assert notes(first.text.split('id="preview"')[0], "preview") == [expected[1]]
    confirm = unescape(re.search(r'name="bestaetigt" value="([^"]*)"', first.text)[1])
    # Confirmed for another question ("5" for the Ramsch, say), it asks again.
    other = client.post(url, TARIFF | {"schwarz": "10", "ramsch": "5", "bestaetigt": confirm})
    assert other.status_code == 200 and runde.tariffs.count() == 1
    client.post(url, TARIFF | {"schwarz": "10", "bestaetigt": confirm})
    assert runde.tariffs.latest().schwarz == 1000


def test_bock_and_laufende_are_explained_at_their_fields(client, admin, club, runde):
    """Walk 48: only Jungfrau had a word of help; how long a Bock round lasts, that it
    restarts, and that at the threshold every Laufender counts were not said."""
    client.force_login(admin)

    page = client.get(reverse("clubs:tariff", args=[club.pk, runde.pk])).text

    assert '<fieldset class="choices" aria-describedby="id_bock_helptext">' in page
    assert "zählen die nächsten 4 Spiele doppelt. Ein Auslöser in einer Bockrunde" in page
    assert '<fieldset aria-describedby="laufende-help">' in page
    assert (
        "Ab der Schwelle zählt jeder Laufende (3 Laufende zahlen dreimal), darunter keiner." in page
    )
