"""The browser's own text size doubled (Chrome's "Schriftgröße", what a phone's text
scaling sets): the root font and the media queries' em both grow, unlike a font size set
on the page. Found by a walk with large text (walk 21)."""

import pytest

from clubs.models import Player
from tests.browser.evening_screen import PHONE, book, start


def doubled(page, path: str) -> None:
    """Open `path` with the browser's standard font at 32 px instead of 16. Set again for
    every page: a page of another origin policy gets a renderer of its own."""
    page.goto("about:blank")
    page.context.new_cdp_session(page).send(
        "Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}}
    )
    page.goto(path)
    assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "32px"


def lines(locator) -> int:
    """On how many lines a piece of text lies."""
    return locator.evaluate(
        """el => { const range = document.createRange(); range.selectNodeContents(el);
        return new Set([...range.getClientRects()].filter(r => r.width).map(r => r.top)).size; }"""
    )


def amounts_in_view(page, table: str) -> bool:
    """Whether every row's first amount begins inside the table's scroll box, unswiped."""
    return page.evaluate(
        """table => { const box = document.querySelector(table).closest(".scroll-wrap")
            .getBoundingClientRect();
        return [...document.querySelectorAll(table + " tbody tr")].every(row => {
            const cell = [...row.querySelectorAll("td")].find(td => td.offsetParent);
            return cell.getBoundingClientRect().left < box.right; }); }""",
        table,
    )


@pytest.mark.parametrize("width", [320, 390])
def test_anmelden_stays_whole_in_the_top_bar(page, width):
    page.set_viewport_size({"width": width, "height": 640})
    doubled(page, "/konto/registrieren/")

    assert lines(page.locator(".topnav a")) == 1


def test_the_history_s_cards_stay_within_the_screen_with_no_numbers(
    page, log_in, runde, schreiber, players
):
    """Its numbers were cut from "10." on at large text (walk 21), and ran one ahead of the
    games' (walk 58): the changes are unnumbered cards, each within the screen."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    for _ in range(10):
        book(evening, schreiber, type="ramsch", won=False, loser=players["Resi"].pk)
    log_in(schreiber)
    page.set_viewport_size({"width": 320, "height": 568})
    doubled(page, f"/abend/{evening.pk}/verlauf/")

    changes = page.locator("ol.changes > li")
    assert changes.count() == 11  # the start and ten games
    assert changes.first.evaluate("el => getComputedStyle(el).listStyleType") == "none"
    assert page.evaluate(
        """() => [...document.querySelectorAll("ol.changes > li")].every(li => {
            const box = li.getBoundingClientRect();
            return box.left >= 0 && box.right <= document.documentElement.clientWidth; })"""
    )


def test_a_long_name_in_the_balances_stays_whole_with_its_amount_below(
    page, log_in, club, runde, schreiber, players
):
    long_name = Player.objects.create(club=club, name="Bartholomäus")
    players = players | {"Bartholomäus": long_name}
    evening = start(runde, players, ["Sepp", "Vroni", "Bartholomäus", "Resi"], schreiber)
    book(evening, schreiber, type="farbsolo", suit="herz", declarer=long_name.pk)
    log_in(schreiber)
    for width in (320, 390):
        page.set_viewport_size({"width": width, "height": 640})
        doubled(page, f"/abend/{evening.pk}/abrechnung/")

        name = page.locator("dl.balances dt", has_text="Bartholomäus")
        assert lines(name) == 1
        assert name.evaluate("el => el.scrollWidth <= el.clientWidth")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    # The same with the page's own text at 200 % (the other way large text comes).
    page.context.new_cdp_session(page).send(
        "Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}}
    )
    page.reload()
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    name = page.locator("dl.balances dt", has_text="Bartholomäus")
    assert lines(name) == 1
    assert name.evaluate("el => el.scrollWidth <= el.clientWidth")
    page.evaluate("document.documentElement.style.fontSize = ''")
    # At the usual size, name and amount side by side as before.
    page.set_viewport_size(PHONE)
    page.context.new_cdp_session(page).send(
        "Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}}
    )
    page.reload()
    name = page.locator("dl.balances dt", has_text="Bartholomäus")
    amount = page.locator("dl.balances dd").nth(2)
    assert name.bounding_box()["y"] == pytest.approx(amount.bounding_box()["y"], abs=8)


def test_the_tariff_summary_stays_above_the_fields_instead_of_taking_half_the_screen(
    page, log_in, admin, club, runde
):
    log_in(admin)
    page.set_viewport_size(PHONE)
    doubled(page, f"/verein/{club.pk}/runde/{runde.pk}/tarif/")
    wenz = page.get_by_label("Wenz", exact=True)
    wenz.focus()

    summary = page.locator("#preview-summary")
    assert summary.evaluate("el => getComputedStyle(el).position") == "static"
    assert summary.evaluate("el => el.scrollHeight <= el.clientHeight")  # nothing to scroll
    box = wenz.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_the_tariff_switch_and_the_year_s_table_scroll_in_their_box_with_names_whole(
    page, log_in, club, runde, admin, players
):
    """At 320 px and doubled text the tariff switch's table took the page sideways with a
    name a letter a line, and the year's balances kept their amounts small (walk 35)."""
    from clubs import services as club_services
    from tests.browser.evening_screen import broken_words

    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], admin)
    book(evening, admin, type="farbsolo", suit="herz", declarer=players["Hias"].pk)
    # A word longer than the column may break: before, it pushed every amount out of the
    # box (walk 36).
    players["Vroni"].name = "Veronika Oberhuber-Schwarzenbacher"
    players["Vroni"].save()
    newer = runde.tariffs.latest()
    newer.farbsolo = 100
    club_services.change_tariff(runde, newer, admin)
    log_in(admin)
    page.set_viewport_size({"width": 320, "height": 568})

    doubled(page, f"/abend/{evening.pk}/tarif/")
    assert broken_words(page, ".tariff-compare th[scope=row]") == ["Oberhuber-Schwarzenbacher"]
    assert amounts_in_view(page, ".tariff-compare")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    assert page.get_by_role("region", name="Stand jetzt und mit dem neuen Tarif").is_visible()

    doubled(page, f"/verein/{club.pk}/runde/{runde.pk}/?zeitraum=dieses-jahr#statistik")
    page.get_by_text("Kontostände als Tabelle").click()
    amount = page.locator(".plot-table td.amount").first
    assert amount.evaluate("el => parseFloat(getComputedStyle(el).fontSize)") >= 30
    assert broken_words(page, ".plot-table th[scope=row]") == ["Oberhuber-Schwarzenbacher"]
    assert amounts_in_view(page, ".plot-table table")
    heading = page.locator(".plot-table thead th").first
    assert heading.evaluate("el => parseFloat(getComputedStyle(el).fontSize)") >= 20
    assert page.evaluate("document.documentElement.scrollWidth") <= 320


def test_the_evening_s_links_and_date_are_read_whole_at_large_text(
    page, log_in, runde, schreiber, players
):
    runde.name = "Donnerstagsrunde"
    runde.save()
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber)
    page.set_viewport_size({"width": 320, "height": 568})
    doubled(page, f"/abend/{evening.pk}/")

    links = page.locator(".links.one-line a")
    assert links.count() == 2
    for link in links.all():  # not "← Do…"
        assert link.evaluate("el => el.scrollWidth <= el.clientWidth")
    assert lines(page.locator("h1 .date")) == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    # At the usual text size the links keep to one line, so the chips fit above the save bar.
    page.context.new_cdp_session(page).send(
        "Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}}
    )
    page.reload()
    assert len({round(link.bounding_box()["y"]) for link in links.all()}) == 1
