"""Site-wide behaviour in the browser: forms left open in one tab still save after logging
in again in another, and an outdated form without JavaScript gets a German page."""

import re

from playwright.sync_api import expect

from clubs.models import Tariff
from tests.browser.evening_screen import PASSWORD, PHONE


def log_in_with_the_form(page, username: str) -> None:
    page.goto("/konto/login/")
    page.get_by_label("Benutzername").fill(username)
    page.get_by_label("Passwort").fill(PASSWORD)
    page.get_by_role("button", name="Anmelden").click()
    expect(page).to_have_url(re.compile(r"/$"))


def edit_the_tariff_and_log_in_again_elsewhere(page, club, runde, admin) -> None:
    log_in_with_the_form(page, admin.username)
    page.goto(f"/verein/{club.pk}/runde/{runde.pk}/tarif/")
    page.get_by_label("Sauspiel", exact=True).fill("0,20")
    assert page.locator("#tariff-form [name=csrfmiddlewaretoken]").input_value()
    log_in_again_in_another_tab(page, admin.username)


def log_in_again_in_another_tab(page, username: str) -> None:
    """Logging out and in again rotates the CSRF token: every form rendered before holds
    an old one."""
    other = page.context.new_page()
    other.goto("/")
    other.get_by_role("button", name="Abmelden").click()
    expect(other).to_have_url(re.compile(r"/konto/login/"))
    log_in_with_the_form(other, username)
    other.close()


def test_a_form_left_open_saves_after_logging_in_again_elsewhere(page, club, runde, admin):
    edit_the_tariff_and_log_in_again_elsewhere(page, club, runde, admin)
    page.get_by_role("button", name="Tarif speichern").click()

    expect(page.get_by_text("Der neue Tarif gilt ab dem nächsten Spielabend.")).to_be_visible()
    assert runde.tariffs.latest().sauspiel == 20
    assert Tariff.objects.filter(runde=runde).count() == 2


def test_an_outdated_form_without_javascript_gets_a_german_page_and_saves_nothing(
    browser, app_url, club, runde, admin
):
    context = browser.new_context(
        viewport=PHONE, java_script_enabled=False, locale="de-DE", base_url=app_url
    )
    page = context.new_page()
    edit_the_tariff_and_log_in_again_elsewhere(page, club, runde, admin)
    page.get_by_role("button", name="Tarif speichern").click()

    expect(page.get_by_role("heading", name="Diese Seite war veraltet")).to_be_visible()
    expect(page.get_by_text("Es wurde nichts gespeichert.")).to_be_visible()
    assert runde.tariffs.count() == 1
    context.close()


def test_a_forty_letter_name_in_one_word_fits_every_page_of_a_small_phone(
    page, log_in, club, runde, admin, players
):
    """Names are up to forty letters, and some are one word: each page breaks it where it
    must instead of growing wider than the phone (taps then missed their buttons)."""
    import uuid

    from django.urls import reverse

    from clubs.models import Player
    from evenings import services as evenings
    from evenings.services import GameInput
    from tournaments import services as tournaments

    long = Player.objects.create(club=club, name="Großkopfhuberbauernhofmaximilianseppherr")
    seated = [long, players["Sepp"], players["Vroni"], players["Resi"]]
    evening = evenings.start_evening(runde, seated, 0, admin)
    deal = evenings.next_deal(evening)
    wenz = GameInput(type="wenz", declarer=long.pk, won=False)
    evenings.book_game(evening.pk, uuid.uuid4(), wenz, admin, deal.token)
    tournament = tournaments.create_tournament(club, admin, name="Adventsturnier", venue="Post")
    tournaments.add_participants(tournament, [*seated, players["Hias"]])
    tournaments.start_round(tournaments.draw_round(tournament, seed=1), admin)
    page.set_viewport_size({"width": 320, "height": 640})
    log_in(admin)

    for url in [
        reverse("clubs:players", args=[club.pk]),
        reverse("clubs:player", args=[club.pk, long.pk]),
        reverse("clubs:runde", args=[club.pk, runde.pk]),
        reverse("evenings:detail", args=[evening.pk]),
        reverse("evenings:settlement", args=[evening.pk]),
        reverse("evenings:runde_balances", args=[club.pk, runde.pk]),
        reverse("tournaments:detail", args=[tournament.pk]),
        reverse("tournaments:hall", args=[tournament.display_token]),
    ]:
        page.goto(url)
        expect(page.get_by_text("Großkopfhuber").first).to_be_attached()
        assert page.evaluate("document.documentElement.scrollWidth") <= 320, url


def test_a_long_first_name_leaves_the_header_whole(page, log_in, app_url, admin):
    """The header's name gives way ("…"); "Schafkopf" and "Abmelden" each stay one word
    on one line, at 390 and at 320 pixels."""
    admin.first_name = "Maximilian-Alexander von Großkopfhuberbauernhof"
    admin.save()
    log_in(admin)

    for width in (390, 320):
        page.set_viewport_size({"width": width, "height": 640})
        page.goto(app_url + "/")
        for element in (page.locator(".brand"), page.get_by_role("button", name="Abmelden")):
            lines = element.evaluate(
                "e => { const r = document.createRange(); r.selectNodeContents(e);"
                " return new Set([...r.getClientRects()].map(c => Math.round(c.top))).size; }"
            )
            assert lines == 1, (width, element)
        who = page.locator(".topnav .who")
        assert who.evaluate("e => e.scrollWidth > e.clientWidth")  # cut, with "…"
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    # A name of eight letters at 320 pixels: cut short rather than a second line.
    admin.first_name = "Theresia"
    admin.save()
    page.goto(app_url + "/")
    tops = [page.locator(".brand"), page.get_by_role("button", name="Abmelden")]
    assert len({round(e.bounding_box()["y"] + e.bounding_box()["height"] / 2) for e in tops}) == 1
    # With the text twice as large, "Abmelden" takes a line of its own, in view, below
    # "Schafkopf" rather than over it.
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    expect(page.get_by_role("button", name="Abmelden")).to_be_in_viewport(ratio=1)
    brand, log_out = (e.bounding_box() for e in tops)
    assert log_out["y"] >= brand["y"] + brand["height"] - 1, (brand, log_out)


def test_the_paper_block_of_six_scrolls_in_its_frame_on_a_small_phone(
    page, log_in, runde, admin, players
):
    """Six columns do not fit 320 pixels: the block scrolls sideways in its frame, and no
    name breaks letter by letter ("Vro/ni")."""
    import uuid

    from django.urls import reverse

    from evenings import services as evenings
    from evenings.services import GameInput

    seated = [players[name] for name in ("Sepp", "Vroni", "Hias", "Resi", "Wastl", "Kathi")]
    evening = evenings.start_evening(runde, seated, 0, admin)
    deal = evenings.next_deal(evening)
    playing = [p.pk for p in deal.playing]
    game = GameInput(type="sauspiel", declarer=playing[0], partner=playing[1], won=False)
    evenings.book_game(evening.pk, uuid.uuid4(), game, admin, deal.token)
    page.set_viewport_size({"width": 320, "height": 640})
    log_in(admin)

    page.goto(reverse("evenings:print", args=[evening.pk]))

    frame = page.get_by_role("region", name="Spiele des Abends")
    assert frame.evaluate("e => e.scrollWidth > e.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    for name in ("Sepp", "Vroni", "Wastl", "Kathi"):
        height = page.locator(".print-sheet thead th", has_text=name).evaluate(
            "e => { const r = document.createRange(); r.selectNodeContents(e);"
            " return new Set([...r.getClientRects()].map(c => Math.round(c.top))).size; }"
        )
        assert height == 1, name
    expect(page.locator(".print-sheet tbody td.game")).to_contain_text("verloren")


def test_the_paper_block_of_six_fits_a_common_phone_with_two_digit_totals(
    page, log_in, runde, admin, players
):
    """At 390 pixels six columns fit, also when a total runs to two euro digits: the last
    column is not cut (it read "-0,8" for "-0,80" in a walkthrough). Where they cannot fit
    (a smaller phone) a shadow at the frame's edge shows that there is more."""
    import uuid

    from django.urls import reverse

    from evenings import services as evenings
    from evenings.services import GameInput

    seated = [players[name] for name in ("Sepp", "Vroni", "Hias", "Resi", "Wastl", "Kathi")]
    evening = evenings.start_evening(runde, seated, 0, admin)
    for _ in range(24):  # Kathi loses solo after solo: -12,00 € and more for her
        deal = evenings.next_deal(evening)
        playing = [p.pk for p in deal.playing]
        declarer = players["Kathi"].pk if players["Kathi"].pk in playing else playing[0]
        game = GameInput(type="farbsolo", declarer=declarer, suit="herz", won=False)
        evenings.book_game(evening.pk, uuid.uuid4(), game, admin, deal.token)
    log_in(admin)

    page.goto(reverse("evenings:print", args=[evening.pk]))

    frame = page.get_by_role("region", name="Spiele des Abends")
    expect(page.locator(".print-sheet tfoot td").last).to_contain_text(",")
    assert page.locator(".print-sheet tfoot td").evaluate_all(
        "cells => cells.some(c => /-\\d\\d,\\d\\d/.test(c.textContent))"
    )
    assert frame.evaluate("e => e.scrollWidth <= e.clientWidth"), frame.evaluate(
        "e => [e.scrollWidth, e.clientWidth]"
    )
    page.set_viewport_size({"width": 320, "height": 640})
    assert frame.evaluate("e => e.scrollWidth > e.clientWidth")
    assert "gradient" in frame.evaluate("e => getComputedStyle(e).backgroundImage")
