"""The rules pages: seed 001 with a Runde's tariff (and with the default tariff, without
login), seed 000's ProHof points.

Every example on them carries its request in the contract's JSON (data-game) and its
payouts (data-payouts). The tests read the page as HTML, run the engine on each example's
own request, and compare: the payouts in the attribute, the amounts in the text, the
Spielwert, the multiplier and the Endwert.
"""

import json
import re
import subprocess
import sys
import uuid
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs import services as club_services
from clubs.models import Player, Tariff
from evenings import services as evening_services
from scoring import GameType, ProHofRules, TariffRules, parse_request, score_evening
from tests.conftest import page_text

ROOT = Path(__file__).resolve().parents[2]

# A tariff unlike the default in every value, with both regional rules on.
OTHER_TARIFF = {
    "sauspiel": 20,
    "farbsolo": 60,
    "wenz": 70,
    "ramsch": 20,
    "laufende": 20,
    "laufende_min": 2,
    "laufende_max": 14,
    "laufende_min_wenz": 2,
    "schneider": 15,
    "schwarz": 25,
    "bock": Tariff.Bock.RAMSCH_OR_LOST_SOLO,
    "jungfrau": True,
    "settle_unit": 50,
}


# -- reading the page --------------------------------------------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list["Node | str"] = field(default_factory=list)

    def text(self) -> str:
        """The visible text, whitespace collapsed (attributes are not text)."""
        parts = [c if isinstance(c, str) else c.text() for c in self.children]
        return re.sub(r"\s+", " ", " ".join(parts)).strip()

    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def find_all(self, tag: str | None = None, cls: str | None = None, attr: str | None = None):
        for child in self.children:
            if isinstance(child, str):
                continue
            if (
                (tag is None or child.tag == tag)
                and (cls is None or cls in child.classes())
                and (attr is None or attr in child.attrs)
            ):
                yield child
            yield from child.find_all(tag, cls, attr)

    def find(self, tag: str | None = None, cls: str | None = None) -> "Node":
        found = list(self.find_all(tag, cls))
        assert len(found) == 1, f"{len(found)} elements <{tag} class={cls}>"
        return found[0]


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {name: value or "" for name, value in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1].children.append(Node(tag, {name: value or "" for name, value in attrs}))

    def handle_endtag(self, tag):
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data):
        self.stack[-1].children.append(data)


def parse(html: str) -> Node:
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


def main_of(response) -> Node:
    assert response.status_code == 200
    return parse(response.text).find("main")


def cents(text: str) -> int:
    """German euros as the page shows them, read back without the app's formatter:
    "+1.234,50 €" -> 123450, "-0,80 €" -> -80."""
    match = re.fullmatch(r"([+-]?)(\d{1,3}(?:\.\d{3})*),(\d\d) €", text)
    assert match, f"not an amount in euros: {text!r}"
    sign, euros, rest = match.groups()
    value = int(euros.replace(".", "")) * 100 + int(rest)
    return -value if sign == "-" else value


@dataclass
class Shown:
    """One example element: its request, its payouts, and what its text says."""

    title: str
    request: dict
    payouts: dict[str, int]
    node: Node


def examples_of(page: Node) -> list[Shown]:
    return [
        Shown(
            node.find("h3").text(),
            json.loads(node.attrs["data-game"]),
            json.loads(node.attrs["data-payouts"]),
            node,
        )
        for node in page.find_all(attr="data-game")
    ]


# -- fixtures ----------------------------------------------------------------------------


def change_tariff(runde, admin, **values) -> Tariff:
    proposed = runde.tariffs.latest()
    for name, value in values.items():
        setattr(proposed, name, value)
    assert club_services.change_tariff(runde, proposed, admin) is not None
    return runde.tariffs.latest()


@pytest.fixture
def other_tariff(runde, admin) -> Tariff:
    return change_tariff(runde, admin, **OTHER_TARIFF)


def rules_url(club, runde) -> str:
    return reverse("clubs:rules", args=[club.pk, runde.pk])


def rules_page(client, user, club, runde) -> Node:
    client.force_login(user)
    return main_of(client.get(rules_url(club, runde)))


# -- the examples are the engine's -------------------------------------------------------


@pytest.mark.parametrize("tariff", ["default", "other"])
def test_every_example_shows_what_the_engine_computes_for_its_own_request(
    client, admin, club, runde, player_user, tariff
):
    if tariff == "other":
        change_tariff(runde, admin, **OTHER_TARIFF)
    expected_rules = runde.tariffs.latest().rules

    shown = examples_of(rules_page(client, player_user, club, runde))

    assert len(shown) >= 8
    for example in shown:
        rules, games, settle_unit = parse_request(example.request)
        assert (rules, settle_unit) == (expected_rules, None), example.title
        result = score_evening(rules, games).games[-1]
        node = example.node
        assert example.payouts == dict(result.payouts), example.title
        amounts = {dd.attrs["data-player"]: cents(dd.text()) for dd in node.find_all(cls="payout")}
        assert amounts == dict(result.payouts), example.title
        names = node.find(cls="payouts").find_all("dt")
        assert [dt.text() for dt in names] == list(result.payouts)
        assert cents(node.find(cls="value").text()) == result.value, example.title
        assert node.find(cls="multiplier").text() == f"×{result.multiplier}", example.title
        assert cents(node.find(cls="unit").text()) == result.unit, example.title
        assert sum(amounts.values()) == 0


def test_the_examples_show_every_mechanism_under_the_runde_s_tariff(
    client, admin, club, runde, player_user, other_tariff
):
    shown = examples_of(rules_page(client, player_user, club, runde))
    scored = []
    for example in shown:
        rules, games, _ = parse_request(example.request)
        scored.append((games, score_evening(rules, games).games[-1]))
    played = [games[-1] for games, _ in scored]

    assert any(g.laufende == 2 and g.type is GameType.SAUSPIEL for g in played)  # threshold
    assert any(g.laufende == 1 for g in played)  # below it
    assert any(g.laufende == 14 for g in played)  # the cap, here all 14
    assert any(g.schneider for g in played) and any(g.schwarz for g in played)
    assert {g.kontra for g in played} == {0, 1, 2}
    assert any(g.doubled for g in played)
    assert {g.won for g in played if g.tout} == {True, False}
    assert any(g.type is GameType.WENZ for g in played)
    assert any(g.type is GameType.RAMSCH and g.jungfrauen for g in played)
    # The Bock examples are the game after the one that starts the Bockrunde.
    bock = [(games, result) for games, result in scored if result.bock]
    assert [(g[0].type, g[0].won) for g, _ in bock] == [
        (GameType.RAMSCH, False),
        (GameType.WENZ, False),
    ]
    assert all(len(games) == 2 for games, _ in bock)


def test_a_laufende_cap_below_14_shows_an_example_above_it(client, admin, club, runde, player_user):
    change_tariff(runde, admin, laufende_max=6)

    shown = {e.title: e for e in examples_of(rules_page(client, player_user, club, runde))}

    above = shown["Sauspiel gewonnen mit 7 Laufenden"]
    assert cents(above.node.find(cls="value").text()) == 10 + 6 * 10
    assert "gezahlt werden höchstens 6" in above.node.text()


def test_an_example_s_request_gets_its_payouts_from_python_m_scoring(
    client, admin, club, runde, player_user, other_tariff
):
    shown = {e.title: e for e in examples_of(rules_page(client, player_user, club, runde))}
    bock = shown["Sauspiel als Bockspiel gewonnen"]

    done = subprocess.run(
        [sys.executable, "-m", "scoring"],
        input=json.dumps(bock.request).encode(),
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )

    assert (done.returncode, done.stderr) == (0, b"")
    response = json.loads(done.stdout)
    assert [game["bock"] for game in response["games"]] == [False, True]
    assert (
        response["games"][-1]["payouts"]
        == bock.payouts
        == {
            "Sepp": 40,
            "Vroni": -40,
            "Hias": 40,
            "Resi": -40,
        }
    )


def test_changing_the_tariff_changes_the_page(client, admin, club, runde, player_user):
    before = {e.title: e.payouts for e in examples_of(rules_page(client, player_user, club, runde))}
    change_tariff(runde, admin, sauspiel=50)

    after = {e.title: e.payouts for e in examples_of(rules_page(client, player_user, club, runde))}

    assert before["Sauspiel gewonnen"]["Sepp"] == 10
    assert after["Sauspiel gewonnen"]["Sepp"] == 50
    assert before["Farbsolo verloren"] == after["Farbsolo verloren"]


def test_a_sum_is_shown_as_its_summands_each_with_its_sign(client, club, runde, player_user):
    client.force_login(player_user)
    page = client.get(rules_url(club, runde)).text

    sums = re.findall(r'<span class="build muted">(.*?)</span>\s*</dd>', page)

    # A narrow screen wraps between the boxes (static/css/app.css), never inside one.
    assert len(sums) >= 10
    assert (
        '<span class="summand">Grundwert 0,50 €</span> <span class="summand">+ 3 Laufende '
        '0,30 €</span> <span class="summand">+ Schneider 0,10 €</span>' in page
    )
    for text in sums:
        boxes = re.sub(r'<span class="summand">[^<]*</span>', "", text.partition(" (")[0])
        assert boxes.strip(" ") == "", text  # nothing outside a box but the spaces between
    assert "3 × 0,90\xa0€ =\xa02,70\xa0€" in page  # "=" with what it comes to


# -- the text ----------------------------------------------------------------------------


NEITHER = (
    "Eine Bockrunde spielt diese Runde nicht, und eine Jungfrau beim Ramsch verdoppelt hier nichts."
)


def test_bock_and_jungfrau_are_only_said_to_be_off_on_the_page_of_a_runde_that_plays_neither(
    client, club, runde, player_user
):
    """No section, example or step of the reckoning for them; one sentence that the Runde
    does not play them, which settles the question at the table (walk 23)."""
    text = rules_page(client, player_user, club, runde).text()

    assert text.count(NEITHER) == 1
    rest = text.replace(NEITHER, "")
    assert "bock" not in rest.lower()
    assert "jungfrau" not in rest.lower()
    assert "Sauspiel als Bockspiel gewonnen" not in text


def test_bock_and_jungfrau_are_explained_and_shown_when_the_runde_plays_them(
    client, club, runde, player_user, other_tariff
):
    page = rules_page(client, player_user, club, runde)
    text = page.text()
    titles = [e.title for e in examples_of(page)]

    assert "Nach einem auslösenden Spiel zählen die nächsten 4 Spiele des Abends doppelt" in text
    assert (
        "Eine Bockrunde endet mit dem Abend; kommt jemand dazu oder geht jemand und es geht an "
        "einem neuen Tisch weiter, geht sie dort weiter, solange er mit demselben Tarif spielt."
        in text
    )
    assert (
        "von jedem Ramsch und von jedem verlorenen Solo (Farbsolo oder Wenz); ein gewonnenes "
        "Solo löst nie aus." in text
    )
    assert "Wer keinen Stich macht, ist Jungfrau und verdoppelt den Ramsch (×2), höchstens 2" in (
        text
    )
    assert ", jede Jungfrau und ein Bockspiel – jedes einmal ×2" in text
    assert {"Ramsch mit Jungfrau", "Sauspiel als Bockspiel gewonnen"} <= set(titles)
    assert "Farbsolo als Bockspiel gewonnen" in titles


def test_a_runde_with_bock_after_a_ramsch_only_shows_no_jungfrau_and_no_lost_solo(
    client, admin, club, runde, player_user
):
    change_tariff(runde, admin, bock=Tariff.Bock.RAMSCH)

    page = rules_page(client, player_user, club, runde)
    text = page.text()

    # Not "a won Solo never starts it", which reads as if a lost one did.
    assert (
        "Ausgelöst wird sie nur von einem Ramsch; ein Solo löst sie hier nie aus, auch ein "
        "verlorenes nicht." in text
    )
    assert "verlorenen Solo" not in text and "gewonnenes Solo" not in text
    off = "Eine Jungfrau beim Ramsch verdoppelt in dieser Runde nichts."
    assert text.count(off) == 1 and "jungfrau" not in text.replace(off, "").lower()
    assert [e.title for e in examples_of(page) if "Bock" in e.title] == [
        "Sauspiel als Bockspiel gewonnen"
    ]


def test_the_runde_s_values_are_filled_in(client, club, runde, player_user, other_tariff):
    page = rules_page(client, player_user, club, runde)
    text = page.text()

    assert "Donnerstagsrunde" in page.find("h1").text()
    values = {
        div.find("dt").text().split(" ")[0]: div.find("dd").text()
        for section in page.find_all("section")
        if section.attrs["id"] in ("spielarten", "schneider")
        for div in section.find("dl").find_all("div")
    }
    assert values["Sauspiel"] == "0,20 €"
    assert values["Farbsolo"] == "0,60 €"
    assert values["Wenz"] == "0,70 €"
    assert values["Ramsch"] == "0,20 €"
    assert values["Schneider"] == "0,15 €"
    assert values["Schwarz"] == "0,25 €"
    assert page.find(cls="laufende-max").text() == "14"
    assert page.find(cls="laufende-min").text() == "2 Laufenden"
    assert page.find(cls="laufende-min-wenz").text() == "2 Laufenden"
    assert page.find(cls="laufende-max-wenz").text() == "4"
    assert "Diese Runde zählt alle 14 Trümpfe." in text
    # The sheet's "Wert" is the Endwert (walk 73: read as two things).
    assert "Auf dem Blatt eines Abends steht er bei jedem Spiel als „Wert“." in text
    # "3 zahlen für 3", with this Runde's threshold and amount: 2 x 0,20 €.
    assert "2 Laufende zahlen für 2 Laufende, nicht für einen." in text
    assert "Bei 0,20 € je Laufendem bringen 2 Laufende also 0,40 €." in text
    assert "zusammen 0,40 €" in text  # Schneider 0,15 € and Schwarz 0,25 €
    # The settlement rounds to 50 cents: of 1,35 € owed, 1,00 € is paid.
    assert page.find(cls="settle-unit").attrs["data-unit"] == "50"
    assert "Diese Runde rundet auf 50 Cent ab." in text
    assert "Vorschlag: Resi zahlt Sepp 1,00 €. 0,35 € bleiben offen" in text
    assert "Was beim Abrunden übrig bleibt, bleibt darauf stehen." in text


def test_the_default_tariff_s_page_says_the_seed_s_numbers(client, club, runde, player_user):
    text = rules_page(client, player_user, club, runde).text()

    for phrase in [
        "Geier, Farbwenz, Farbgeier, Bettel, Hochzeit und Sie gibt es hier nicht.",
        "Auch einen Durchmarsch beim Ramsch (einer macht alle Stiche) kennt die App nicht: Er "
        "zählt wie jeder Ramsch, wer die meisten Augen hat, verliert.",
        "3 Laufende zahlen für 3 Laufende, nicht für einen.",
        "Bei 0,10 € je Laufendem bringen 3 Laufende also 0,30 €.",
        "Mehr als 8 Laufende zählen wie 8.",
        "zusammen 0,20 €",
        "Jede dieser Ansagen verdoppelt den ganzen Spielwert",
        "Eine dritte Kontra-Stufe (Sup oder Hirsch) gibt es nicht.",
        "je 1 × Endwert",
        "Die Beträge eines Spiels ergeben zusammen genau null.",
        "verteilt wird durch Malnehmen mit drei, nie durch Teilen",
        "Ein Sauspiel ist als die ganze Zahl 10 gespeichert, in Cent",
        "Diese Runde rundet nicht ab: sie rechnet auf den Cent genau ab.",
        "in der Abrechnung eines Abends, in den Konten der Runde und beim Ausgleich der Runde",
        "Vorschlag: Resi zahlt Sepp 1,35 €.",
    ]:
        assert phrase in text
    assert "bleiben offen" not in text and "Was beim Abrunden übrig bleibt" not in text


# -- who sees it -------------------------------------------------------------------------


def test_every_member_sees_the_rules_of_their_runde(client, club, runde, player_user, admin):
    for user in (player_user, admin):
        client.force_login(user)
        assert client.get(rules_url(club, runde)).status_code == 200


def test_the_rules_of_a_runde_of_another_club_are_a_404(client, club, runde, other_admin):
    client.force_login(other_admin)
    own_club = other_admin.memberships.get().club

    assert client.get(rules_url(club, runde)).status_code == 404
    assert client.get(reverse("clubs:rules", args=[own_club.pk, runde.pk])).status_code == 404


def test_the_default_rules_and_the_prohof_page_need_no_login(client, db):
    default = client.get(reverse("clubs:rules_default"))
    prohof = client.get(reverse("clubs:rules_prohof"))

    assert (default.status_code, prohof.status_code) == (200, 200)
    shown = examples_of(main_of(default))
    for example in shown:
        rules, _games, _ = parse_request(example.request)
        assert rules == TariffRules()
    assert shown[0].payouts == {"Sepp": 10, "Vroni": -10, "Hias": 10, "Resi": -10}
    text = main_of(default).text()
    assert "voreingestellt ist auf den Cent" in text
    assert "bock" not in text.lower() and "jungfrau" not in text.lower()


def test_the_runde_page_the_evening_and_the_tariff_editor_link_to_the_rules(
    client, admin, club, runde
):
    players = [Player.objects.create(club=club, name=n) for n in ("Sepp", "Vroni", "Hias")]
    players.append(club.players.get(user=admin))
    evening = evening_services.start_evening(runde, players, 0, admin)
    client.force_login(admin)
    link = f'href="{rules_url(club, runde)}"'

    for url in (
        reverse("clubs:runde", args=[club.pk, runde.pk]),
        reverse("clubs:tariff", args=[club.pk, runde.pk]),
    ):
        assert link in client.get(url).text, url
    # The evening's: with the tariff it is played with.
    evening_page = client.get(reverse("evenings:detail", args=[evening.pk])).text
    assert f'href="{rules_url(club, runde)}?abend={evening.pk}"' in evening_page
    # ... which lead back to the evening, as the evening leads to its Runde.
    rules = client.get(f"{rules_url(club, runde)}?abend={evening.pk}").text
    back = reverse("evenings:detail", args=[evening.pk])
    assert f'<a href="{back}">Zurück zum Abend</a>' in rules
    runde_url = reverse("clubs:runde", args=[club.pk, runde.pk])
    assert f'<a href="{runde_url}">← <span id="runde-back">{runde.name}</span></a>' in evening_page


def test_an_evening_s_rules_show_its_tariff_after_the_runde_changed_it(
    client, admin, club, runde, player_user
):
    players = [Player.objects.create(club=club, name=n) for n in ("Sepp", "Vroni", "Hias")]
    players.append(club.players.get(user=admin))
    evening = evening_services.start_evening(runde, players, 0, admin)
    client.force_login(player_user)
    # Before the change, the evening's page does not promise to change with the Runde's.
    before = main_of(client.get(rules_url(club, runde), {"abend": evening.pk})).text()
    assert "ändert sich diese Seite mit" not in before
    assert "gilt der neue ab dem nächsten Abend; dieser Abend spielt mit diesem weiter" in before
    change_tariff(runde, admin, sauspiel=20)  # from the next evening on

    its = main_of(client.get(rules_url(club, runde), {"abend": evening.pk}))
    new = main_of(client.get(rules_url(club, runde)))

    assert examples_of(its)[0].payouts == {"Sepp": 10, "Vroni": -10, "Hias": 10, "Resi": -10}
    assert examples_of(new)[0].payouts == {"Sepp": 20, "Vroni": -20, "Hias": 20, "Resi": -20}
    began = timezone.localtime(evening.tariff.valid_from).strftime("%d.%m.%Y, %H:%M")
    assert f"mit dem Tarif vom {began} Uhr, mit dem dieser Abend spielt" in its.text()
    assert "mit dem dieser Abend spielt" not in new.text()
    # The Runde's rules point the table playing tonight to its own.
    day = timezone.localtime(evening.started_at).strftime("%d.%m.%Y")
    assert f"Der laufende Abend vom {day} spielt noch mit einem früheren Tarif" in new.text()
    page = client.get(rules_url(club, runde)).text
    assert f'?abend={evening.pk}">Regeln dieses Abends</a>' in page
    evening_services.close_evening(evening.pk, admin)
    closed = client.get(rules_url(club, runde)).text
    assert "Der laufende Abend" not in main_of(client.get(rules_url(club, runde))).text()
    # Closed, it still is an evening of another tariff: said, with its rules (walk 23).
    # To the minute: the tariff may change between two evenings of one day (walk 26).
    began = timezone.localtime(evening.started_at).strftime("%d.%m.%Y, %H:%M")
    assert f"Der Abend vom {began} Uhr und die davor spielten mit einem früheren Tarif" in closed
    assert f'?abend={evening.pk}">Regeln des Abends vom {began} Uhr</a>' in closed
    # Only an evening of this Runde, by its number.
    for wrong in ("x", "", "99999999", "1" * 30):
        assert client.get(rules_url(club, runde), {"abend": wrong}).status_code == 404, wrong


def test_an_evening_s_rules_say_its_rounding_and_the_runde_s_when_they_differ(
    client, admin, club, runde, player_user
):
    change_tariff(runde, admin, settle_unit=50)
    players = [Player.objects.create(club=club, name=n) for n in ("Sepp", "Vroni", "Hias")]
    players.append(club.players.get(user=admin))
    evening = evening_services.start_evening(runde, players, 0, admin)
    change_tariff(runde, admin, settle_unit=100)
    client.force_login(player_user)

    its = main_of(client.get(rules_url(club, runde), {"abend": evening.pk})).text()
    new = main_of(client.get(rules_url(club, runde))).text()

    assert "Die Abrechnung dieses Abends rundet auf 50 Cent ab." in its
    assert "Die Konten der Runde und ein neuer Ausgleich runden nach dem Tarif für neue" in its
    assert "Diese Runde rundet auf 1 Euro ab." in new and "Abrechnung dieses Abends" not in new


def test_while_an_older_ausgleich_is_the_newest_evening_the_pages_say_the_konten_show_its_plan(
    client, admin, club, runde, player_user
):
    """The Runde's accounts propose a running Ausgleich's plan in the rounding it began
    with; the tariff editor, its message and the rules pages say so (walk 26)."""
    players = [Player.objects.create(club=club, name=n) for n in ("Sepp", "Vroni", "Hias")]
    players.append(club.players.get(user=admin))
    evening = evening_services.start_evening(runde, players, 0, admin)
    evening_services.book_game(evening.pk, uuid.uuid4(), evening_services.GameInput(
        "farbsolo", suit="herz", declarer=players[2].pk), admin)  # fmt: skip
    evening_services.close_evening(evening.pk, admin)
    ausgleich = evening_services.start_ausgleich(runde, admin)
    began = timezone.localtime(ausgleich.started_at).strftime("%d.%m.%Y, %H:%M")
    tariff = reverse("clubs:tariff", args=[club.pk, runde.pk])
    client.force_login(admin)

    editor = page_text(client.get(tariff))
    form = {"sauspiel": "0,20", "farbsolo": "0,50", "wenz": "0,50", "ramsch": "0,20"}
    form |= {"laufende": "0,10", "laufende_min": "3", "laufende_max": "8"}
    form |= {"laufende_min_wenz": "2", "schneider": "0,10", "schwarz": "0,10", "bock": "off"}
    saved = page_text(client.post(tariff, form | {"settle_unit": "50"}, follow=True))
    client.force_login(player_user)
    new = main_of(client.get(rules_url(club, runde))).text()
    its = main_of(client.get(rules_url(club, runde), {"abend": ausgleich.pk})).text()

    assert f"Nur solange der Ausgleich der Runde vom {began} Uhr ihr letzter Abend ist" in editor
    assert (
        "Der neue Tarif gilt ab dem nächsten Spielabend. Die Konten der Runde zeigen noch den "
        f"Vorschlag des Ausgleichs vom {began} Uhr, nach dessen Tarif, bis wieder gespielt wird."
    ) in saved
    assert "Diese Runde rundet auf 50 Cent ab." in new
    assert (
        f"Solange der Ausgleich der Runde vom {began} Uhr ihr letzter Abend ist, zeigen ihre "
        "Konten aber seinen Vorschlag. Er rechnet nach dem Tarif, mit dem er begann, auf den "
        "Cent genau ab."
    ) in new
    assert "Die Abrechnung dieses Abends rundet nicht ab" in its
    assert "Die Konten der Runde und ein neuer Ausgleich runden nach dem Tarif für neue" in its
    assert "Solange dieser Ausgleich der letzte Abend der Runde ist, zeigen die Konten" in its
    # Played again, the Konten round by the new tariff, and nothing more is said.
    evening_services.start_evening(runde, players, 0, admin)
    assert "Solange" not in main_of(client.get(rules_url(club, runde))).text()


def test_an_example_s_factor_reads_as_one_and_its_jungfrau_is_named(
    client, admin, club, runde, player_user
):
    change_tariff(runde, admin, jungfrau=True)
    page = rules_page(client, player_user, club, runde)
    by_title = {example.title: example.node for example in examples_of(page)}

    kontra = by_title["Sauspiel verloren mit 3 Laufenden und Kontra"].text()
    assert "×2 (×2 Kontra)" in kontra  # not "×2 ×2 Kontra", read as ×4
    [jungfrau] = [node for title, node in by_title.items() if "Jungfrau" in title]
    assert "(auch Vroni als Jungfrau) bekommen je" in jungfrau.text()


# -- ProHof (seed 000) -------------------------------------------------------------------


def test_the_prohof_page_says_what_the_entry_form_holds_the_table_to(client, db):
    """What players argue about and the form enforces, said on the page (walk 23)."""
    text = main_of(client.get(reverse("clubs:rules_prohof"))).text()

    assert "Wer Schneider ansagt und ihn nicht erreicht, hat das Spiel verloren" in text
    assert "„Schneider angesagt“ kommt bei einem Tout nicht noch dazu" in text
    assert "Klopfen, Legen oder Doppeln ändern sie nicht" in text
    # Every game has a Laufender: the engine's least for a Rufspiel, 10 + 10.
    assert "Ein Rufspiel bringt also mindestens 20 Punkte." in text


def test_the_prohof_page_shows_the_seed_s_examples_with_the_engine_s_points(client, db):
    page = main_of(client.get(reverse("clubs:rules_prohof")))
    shown = examples_of(page)

    assert len(shown) == 19
    for example in shown:
        rules, games, _ = parse_request(example.request)
        assert rules == ProHofRules()
        result = score_evening(rules, games).games[-1]
        assert example.payouts == dict(result.payouts)
        points = {
            dd.attrs["data-player"]: int(dd.text()) for dd in example.node.find_all(cls="payout")
        }
        assert points == dict(result.payouts)
        assert int(example.node.find(cls="value").text()) == result.value
        assert min(points.values()) == 0  # credited, never deducted
    seed_points = [
        int(re.findall(r"(\d+) Punkte", e.node.find(cls="seed").text())[-1]) for e in shown[4:17]
    ]
    # The seed's one-line examples, "Solo mit 61 Punkten ... 50 Punkte" to "Rufspiel ...
    # Schwarz 50 Punkte": all as the engine counts them but "Wenz mit Vieren".
    engine_points = [int(e.node.find(cls="value").text()) for e in shown[4:17]]
    assert [(s, p) for s, p in zip(seed_points, engine_points, strict=True) if s != p] == [
        (100, 90)
    ]


def test_the_prohof_page_says_which_seed_example_contradicts_its_rule_list(client, db):
    page = main_of(client.get(reverse("clubs:rules_prohof")))
    text = page.text()

    assert (
        "„Wenz gewonnen mit 4 Laufenden, Schneider angesagt und Schwarz“ soll dort 100 Punkte "
        "bringen. Nach der Liste sind es 90. Es gilt die Liste"
    ) in text
    wenz = next(e for e in examples_of(page) if "contradicts" in e.node.classes())
    assert "Wenz 20 + angesagt 10 + 4 Laufende 40 + Schneider 10 + Schwarz 10 = 90 Punkte" in (
        wenz.node.text()
    )
    assert wenz.payouts == {"Sepp": 0, "Vroni": 270, "Hias": 0, "Resi": 0}


def test_the_prohof_page_gives_the_points_of_the_rule_list(client, db):
    text = main_of(client.get(reverse("clubs:rules_prohof"))).text()

    for phrase in [
        "Rufspiel 10",
        "Über-Kreuz-Spiel 10",
        "Wenz 20",
        "Solo jede Farbe 30",
        "Schneider angesagt +10",
        "Tout Schwarz angesagt +20",
        "Es gibt kein Kontra und damit auch kein Re",
        "Abgezogen wird nie etwas",
    ]:
        assert phrase in text


def test_the_runde_page_leads_to_its_rules_before_its_evenings(client, club, runde, player_user):
    """A new member's first question is what the Runde plays for: the way to it sits by
    the balances, not only below the statistics."""
    client.force_login(player_user)

    html = client.get(reverse("clubs:runde", args=[club.pk, runde.pk])).text

    link = f'<a href="{rules_url(club, runde)}">Regeln und Tarif</a>'
    assert link in html
    assert html.index(link) < html.index('<h2 id="evenings">Spielabende</h2>')
