"""The rules pages on a phone: a Spieler opens the rules of their Runde from the evening's
entry screen and from the Runde page and finds the examples computed for the Runde's
tariff; anyone reads the default rules and the ProHof points without an account. axe finds
nothing serious on either page, and neither scrolls sideways."""

import re

import pytest
from playwright.sync_api import Page, expect

from clubs.models import Membership
from tests.browser.axe import assert_accessible
from tests.browser.evening_screen import book, no_horizontal_scroll, start
from tests.conftest import make_user


@pytest.fixture
def vroni(club, players):
    """A plain Spieler of the club, with an account, sitting as Vroni."""
    user = make_user("vroni", "Vroni")
    Membership.objects.create(user=user, club=club, role=Membership.Role.PLAYER)
    players["Vroni"].user = user
    players["Vroni"].save(update_fields=["user"])
    return user


def example(page: Page, title: str):
    return page.locator(".rule-example").filter(
        has=page.get_by_role("heading", name=title, exact=True)
    )


def test_a_spieler_opens_the_rules_from_the_evening_s_entry_screen(
    page, log_in, club, bock_runde, schreiber, players, vroni
):
    evening = start(bock_runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    book(
        evening, schreiber, type="sauspiel", declarer=players["Sepp"].pk, partner=players["Hias"].pk
    )
    log_in(vroni).goto(f"/abend/{evening.pk}/")

    page.locator(".evening-actions").get_by_role("link", name="Regeln", exact=True).tap()

    # The rules with the tariff this evening is played with.
    expect(page).to_have_url(
        re.compile(rf"/verein/{club.pk}/runde/{bock_runde.pk}/regeln/\?abend={evening.pk}$")
    )
    expect(page.get_by_role("heading", level=1)).to_have_text("Schafkopf-Regeln Donnerstagsrunde")
    expect(page.locator(".rule-example").first).to_be_visible()
    assert page.locator(".rule-example").count() >= 8
    # This Runde plays Bock after every Ramsch: its rule and its example are there.
    expect(page.get_by_role("heading", name="Bockrunde", exact=True)).to_be_visible()
    bock = example(page, "Sauspiel als Bockspiel gewonnen")
    bock.scroll_into_view_if_needed()
    expect(bock).to_be_visible()
    expect(bock.locator(".unit")).to_have_text("0,20 €")
    expect(bock.locator(".payouts dd")).to_have_text(["+0,20 €", "-0,20 €", "+0,20 €", "-0,20 €"])
    no_horizontal_scroll(page)
    assert_accessible(page, "rules page of a Runde with Bock")


def test_a_spieler_opens_the_rules_from_the_runde_page(page, log_in, club, runde, players, vroni):
    log_in(vroni).goto(f"/verein/{club.pk}/runde/{runde.pk}/")

    page.get_by_role("link", name="Schafkopf-Regeln mit diesem Tarif").tap()

    expect(page).to_have_url(re.compile(rf"/verein/{club.pk}/runde/{runde.pk}/regeln/$"))
    kontra = example(page, "Sauspiel verloren mit 3 Laufenden und Kontra")
    kontra.scroll_into_view_if_needed()
    expect(kontra).to_be_visible()
    expect(kontra.locator(".value")).to_have_text("0,40 €")
    expect(kontra.locator(".multiplier")).to_have_text("×2")
    expect(kontra.locator(".unit")).to_have_text("0,80 €")
    expect(page.get_by_role("heading", name="Bockrunde")).to_have_count(0)
    no_horizontal_scroll(page)


def test_anyone_reads_the_default_rules_and_the_prohof_points(page):
    page.goto("/regeln/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Schafkopf-Regeln")
    expect(example(page, "Sauspiel gewonnen").locator(".unit")).to_have_text("0,10 €")
    no_horizontal_scroll(page)
    assert_accessible(page, "default rules page")

    page.get_by_role("link", name="Die Punkte des ProHof-Turniers").tap()

    expect(page).to_have_url(re.compile(r"/regeln/prohof/$"))
    wenz = page.locator(".rule-example.contradicts")
    wenz.scroll_into_view_if_needed()
    expect(wenz.locator(".value")).to_have_text("90")
    expect(wenz.locator(".note")).to_have_text("Dort stehen 100 Punkte; die Punkteliste ergibt 90.")
    no_horizontal_scroll(page)
    assert_accessible(page, "ProHof page")


# Per example, the texts of its payouts that overlap another player's, run past the card,
# or are cut.
CLASHES = """() => [...document.querySelectorAll('.rule-example .payouts')].flatMap(list => {
  const card = list.getBoundingClientRect();
  const pairs = [...list.children].map(pair => [...pair.children]);
  const boxes = pairs.map(texts => texts.map(t => t.getBoundingClientRect()));
  const apart = (a, b) => a.right <= b.left + 0.5 || b.right <= a.left + 0.5
    || a.bottom <= b.top + 0.5 || b.bottom <= a.top + 0.5;
  return pairs.flatMap((texts, i) => texts.filter((text, k) => {
    const box = boxes[i][k];
    const clash = boxes.some((other, j) => j !== i && other.some(o => !apart(box, o)));
    return clash || box.left < card.left - 0.5 || box.right > card.right + 0.5
      || text.scrollWidth > text.clientWidth;
  }).map(text => text.textContent));
})"""


@pytest.mark.parametrize("path", ["/regeln/", "/regeln/prohof/"])
@pytest.mark.parametrize("text", ["100%", "200%"])
def test_every_payout_is_whole_and_apart_on_a_narrow_phone(page, path, text):
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(path)
    page.evaluate(f"document.documentElement.style.fontSize = '{text}'")

    expect(page.locator(".rule-example .payouts dd").first).to_be_visible()
    assert page.evaluate(CLASHES) == []
    no_horizontal_scroll(page)
    if path == "/regeln/":  # a loser's amount keeps its minus sign in view
        first = example(page, "Sauspiel gewonnen").locator(".payouts dd")
        expect(first).to_have_text(["+0,10 €", "-0,10 €", "+0,10 €", "-0,10 €"])
        tops = first.evaluate_all("amounts => amounts.map(a => a.getBoundingClientRect().top)")
        assert len(set(tops)) == (1 if text == "100%" else 2)  # one row, or two at 200 %


def test_a_runde_s_rules_with_bock_reflow_at_200_percent_on_a_narrow_phone(
    page, log_in, club, runde, admin
):
    """Each worked example's steps ("Spielwert", "Faktor", "Endwert") put the amount under
    its name at large text; beside it, it ran out of the card and the page scrolled."""
    from clubs import services as club_services

    tariff = runde.tariffs.latest()
    tariff.bock, tariff.jungfrau = "ramsch", True
    assert club_services.change_tariff(runde, tariff, admin) is not None
    log_in(admin)
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(f"/verein/{club.pk}/runde/{runde.pk}/regeln/")
    page.evaluate("document.documentElement.style.fontSize = '200%'")

    no_horizontal_scroll(page)
    value = page.locator(".rule-example .steps .value").first
    card = page.locator(".rule-example").first
    assert value.bounding_box()["x"] + value.bounding_box()["width"] <= (
        card.bounding_box()["x"] + card.bounding_box()["width"]
    )


def test_a_sum_wraps_between_its_summands_on_a_narrow_phone(page):
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto("/regeln/")

    summands = page.locator(".rule-example .build .summand")
    expect(summands.first).to_be_visible()
    broken = summands.evaluate_all(
        """boxes => boxes.filter(box => {
          const range = document.createRange();
          range.selectNodeContents(box);
          return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1;
        }).map(box => box.textContent)"""
    )

    assert broken == []
    assert summands.count() > 20
    # "+ 3 Laufende 0,30 €" went onto two lines at 320 px, its "€" alone on the second.
    expect(summands.filter(has_text="Laufende").first).to_contain_text("Laufende 0,")
