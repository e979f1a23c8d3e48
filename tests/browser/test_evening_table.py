"""The evening screen at the table, as a new club found it: two phones booking into one
evening, a sheet that keeps its names in view, games taken back and brought back, only the
controls that apply, a correction that says what it will change, and the read-only link
after the evening is closed."""

import re

import pytest
from playwright.sync_api import Page, expect

from clubs import services as club_services
from clubs.models import Player
from evenings import services
from evenings.models import Change, Evening, Game, LedgerEntry
from tests.browser.evening_screen import (
    PHONE,
    Taps,
    amounts,
    book,
    book_sauspiel,
    change_kinds,
    chip,
    chip_labels,
    enter_sauspiel,
    flash,
    no_horizontal_scroll,
    preview,
    preview_settled,
    save_button,
    sheet_row,
    start,
    totals,
    two_sauspiele,
    verify_ledger,
)


def correction_preview(page: Page):
    """What each player gets, in the correction's preview."""
    return page.locator("#correction-preview .who-gets")


def deal_line(page: Page):
    return page.locator("#deal .deal")


def checked(page: Page, name: str):
    """The labels of the checked chips of the entry form's field `name`."""
    return page.locator(f".f-{name} input:checked + span")


# -- 3. two phones at one evening --------------------------------------------------------


def test_two_phones_book_alternately_and_each_form_follows_the_deal(
    open_phone, runde, schreiber, admin, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi", "Wastl"], schreiber)
    hias = open_phone(schreiber).page
    resi = open_phone(admin).page
    for page in (hias, resi):
        page.goto(f"/abend/{evening.pk}/")
        expect(deal_line(page)).to_contain_text("Spiel 1 · Sepp gibt")

    # 1. Hias books game 1. Resi's phone, untouched, follows within a poll: the deal, the
    # players on the chips (Sepp sat out, now Vroni does) and the standing.
    book_sauspiel(hias, 1, "Vroni", "Resi")
    expect(deal_line(resi)).to_contain_text("Spiel 2 · Vroni gibt", timeout=10_000)
    expect(chip_labels(resi, "declarer")).to_have_text(["Sepp", "Hias", "Resi", "Wastl"])
    expect(resi.locator("#standing .amount")).to_have_text(
        ["0,00", "0,10", "-0,10", "0,10", "-0,10"]
    )

    # 2. Resi books game 2 on her phone, without a refusal; then Hias books game 3.
    book_sauspiel(resi, 2, "Hias", "Wastl")
    expect(deal_line(hias)).to_contain_text("Spiel 3 · Hias gibt", timeout=10_000)
    book_sauspiel(hias, 3, "Resi", "Sepp")
    expect(deal_line(resi)).to_contain_text("Spiel 4 · Resi gibt", timeout=10_000)
    book_sauspiel(resi, 4, "Wastl", "Vroni")

    games = list(Game.objects.order_by("number"))
    assert [g.dealer.name for g in games] == ["Sepp", "Vroni", "Hias", "Resi"]
    assert [g.declarer.name for g in games] == ["Vroni", "Hias", "Resi", "Wastl"]
    assert [g.created_by for g in games] == [schreiber, admin, schreiber, admin]
    assert change_kinds(evening) == ["start", "book", "book", "book", "book"]
    assert "ledger ok" in verify_ledger()


def deaf_phone(open_phone, user, evening: Evening) -> Page:
    """A phone at the evening that has no signal for the sheet's polling: it never hears
    of a game booked elsewhere."""
    phone = open_phone(user).page
    phone.route("**/blatt/**", lambda route: route.abort())
    phone.goto(f"/abend/{evening.pk}/")
    return phone


def booked_elsewhere_then_saved(phone: Page, evening: Evening, by, declarer, partner) -> None:
    """Another phone books a Sauspiel; then this one, its form now stale, taps "Speichern"
    (and hears nothing from its poll meanwhile)."""
    book(evening, by, type="sauspiel", declarer=declarer.pk, partner=partner.pk)
    phone.unroute("**/blatt/**")
    phone.route("**/blatt/**", lambda route: route.fulfill(status=204))
    save_button(phone).tap()


def test_a_stale_form_sent_anyway_is_refused_in_german_and_keeps_what_still_applies(
    open_phone, runde, schreiber, admin, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi", "Wastl"], schreiber)
    resi = deaf_phone(open_phone, admin, evening)  # it never hears of game 1

    # 1. Resi enters a Herz-Solo by Wastl with Kontra and 4 Laufende ...
    taps = Taps(resi)
    taps(chip(resi, "spiel", "Herz-Solo"))
    taps(chip(resi, "declarer", "Wastl"))
    taps(chip(resi, "kontra", "Kontra"))
    taps(chip(resi, "laufende", "4"))
    expect(preview(resi)).to_have_count(4)

    # ... while Hias books game 1 on his phone; the deal moves on to Vroni (who sits out).
    booked_elsewhere_then_saved(resi, evening, schreiber, players["Vroni"], players["Resi"])

    # 2. Nothing booked from the stale form; the answer says in German what happened and
    # gives the form for the current deal, with every choice that still applies.
    notice = resi.locator("#entry-status [role=alert]")
    expect(notice).to_contain_text(
        "Inzwischen auf einem anderen Handy: Spiel 1 gebucht (Sauspiel Vroni"
    )
    expect(notice).to_contain_text("Jetzt gibt Vroni.")
    expect(notice).to_be_in_viewport()  # she had scrolled down to the Laufende
    expect(notice).not_to_contain_text("keine gültige Auswahl")
    assert Game.objects.count() == 1
    expect(deal_line(resi)).to_contain_text("Spiel 2 · Vroni gibt")
    expect(chip_labels(resi, "declarer")).to_have_text(["Sepp", "Hias", "Resi", "Wastl"])
    expect(checked(resi, "spiel")).to_have_text("Herz-Solo")
    expect(checked(resi, "declarer")).to_have_text("Wastl")
    expect(checked(resi, "kontra")).to_have_text("Kontra")
    expect(checked(resi, "laufende")).to_have_text("4")

    # Game 1 was her form's deal: hers is game 1 had otherwise, or already game 2. The
    # word says both ways (walk 56), and the first "Speichern" brings it into view.
    expect(notice).to_contain_text(
        "Du hattest für Spiel 1 etwas anderes: Herz-Solo Wastl · gewonnen · 4 Laufende · Kontra."
    )
    save_button(resi).tap()
    expect(notice).to_be_focused()
    expect(notice).to_be_in_viewport()
    resi.wait_for_timeout(300)
    assert Game.objects.count() == 1

    # 3. Saving once more books it as game 2, dealt by Vroni.
    save_button(resi).tap()
    expect(flash(resi)).to_contain_text("Gebucht: Spiel 2, Herz-Solo Wastl")
    second = Game.objects.get(number=2)
    assert (second.type, second.suit, second.kontra, second.laufende) == ("farbsolo", "herz", 1, 4)
    assert second.dealer == players["Vroni"]
    # (0,50 € + 4 Laufende × 0,10 €) × 2 Kontra = 1,80 € a player.
    assert amounts(second) == {"Wastl": 540, "Hias": -180, "Resi": -180, "Sepp": -180}


def test_the_game_booked_last_entered_again_is_asked_about_before_it_counts_twice(
    page, log_in, runde, schreiber, admin, players
):
    """Walk 57: a second phone, its form already at the next deal, entered the game the
    first had just booked, and it counted twice. Now it is asked about first."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(admin).goto(f"/abend/{evening.pk}/")
    book(evening, schreiber, type="sauspiel", declarer=players["Hias"].pk,
         partner=players["Resi"].pk)  # fmt: skip
    expect(sheet_row(page, 1)).to_contain_text("Sauspiel", timeout=8000)  # the poll brought it

    enter_sauspiel(page, "Hias", "Resi")
    save_button(page).tap()

    word = page.locator("#entry-status [role=alert]")
    expect(word).to_contain_text(
        "Spiel 1 war genau dieses Spiel: Sauspiel Hias mit Resi. Wirklich noch einmal buchen?"
    )
    question = word.locator("[data-again]")
    expect(question).to_be_focused()
    expect(question).to_be_in_viewport()
    assert Game.objects.filter(evening=evening).count() == 1
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    save_button(page).tap()  # again: it only brings the question back into view
    expect(question).to_be_in_viewport()
    page.wait_for_timeout(300)
    assert Game.objects.filter(evening=evening).count() == 1
    word.get_by_text("Ja, noch einmal buchen").tap()
    save_button(page).tap()
    expect(flash(page)).to_contain_text("Gebucht: Spiel 2, Sauspiel Hias mit Resi")
    assert Game.objects.filter(evening=evening).count() == 2


def test_a_refused_form_s_sheet_shows_at_once_the_game_its_word_names(
    open_phone, runde, schreiber, admin, players
):
    """Walk 37: after "Inzwischen auf einem anderen Handy: Spiel 1 gebucht …" the sheet
    and the standing left game 1 out until the next poll, 3 s on: the poll asked for at
    once was held back while the booking's request was still being finished. With the
    page's clock stopped, no poll of every 3 s comes: only that one can bring the row."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi", "Wastl"], schreiber)
    resi = open_phone(admin).page
    resi.clock.install()
    resi.goto(f"/abend/{evening.pk}/")
    chip(resi, "spiel", "Herz-Solo").tap()
    chip(resi, "declarer", "Wastl").tap()
    expect(preview(resi)).to_have_count(4)
    resi.clock.pause_at(resi.evaluate("Date.now()") + 10)
    book(
        evening,
        schreiber,
        type="sauspiel",
        declarer=players["Vroni"].pk,
        partner=players["Resi"].pk,
    )

    save_button(resi).tap()
    for _ in range(10):  # half a second, for htmx's settling
        resi.clock.run_for(50)
        resi.wait_for_timeout(30)

    expect(resi.locator("#entry-status [role=alert]")).to_contain_text("Spiel 1 gebucht")
    expect(resi.locator("#no-games")).to_have_count(0, timeout=1000)
    expect(resi.locator("#standing .amount")).to_have_text(
        ["0,00", "0,10", "-0,10", "0,10", "-0,10"]
    )
    assert Game.objects.count() == 1


def test_the_word_on_another_phone_s_booking_goes_once_a_game_is_corrected_here(
    open_phone, runde, schreiber, admin, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    resi = deaf_phone(open_phone, admin, evening)
    enter_sauspiel(resi, "Hias", "Sepp")
    booked_elsewhere_then_saved(resi, evening, schreiber, players["Vroni"], players["Resi"])
    notice = resi.locator("#entry-status [role=alert]")
    expect(notice).to_contain_text(
        "Inzwischen auf einem anderen Handy: Spiel 1 gebucht (Sauspiel Vroni"
    )
    resi.unroute("**/blatt/**")  # her sheet catches up, the word stays
    expect(sheet_row(resi, 1)).to_contain_text("Vroni", timeout=8000)
    expect(notice).to_have_count(1)

    # She corrects game 1 (Kontra): the word on it is old news now.
    sheet_row(resi, 1).get_by_role("link").click()
    resi.locator("#correction .f-kontra .chips").get_by_text("Kontra", exact=True).tap()
    # Its preview answered first: a tap while it is asked for waits behind it (one CI run
    # found the panel still open five seconds on).
    preview_settled(resi)
    resi.get_by_role("button", name="Korrektur speichern").tap()

    expect(resi.locator("#restore-word")).to_contain_text("Korrigiert: Spiel 1", timeout=10_000)
    expect(notice).to_have_count(0)
    # The correction's answer sets the entry form's players anew, and what she had tapped
    # for game 2 again: its preview is asked for anew.
    expect(checked(resi, "declarer")).to_have_text("Hias")
    expect(checked(resi, "partner")).to_have_text("Sepp")
    expect(preview(resi)).to_have_text(
        ["Sepp +0,10 €", "Vroni -0,10 €", "Hias +0,10 €", "Resi -0,10 €"]
    )
    assert Game.objects.get(number=1).kontra == 1
    assert Game.objects.count() == 1


def test_a_stale_form_s_preview_is_asked_anew_without_the_player_who_sits_out(
    open_phone, runde, schreiber, admin, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi", "Wastl"], schreiber)
    resi = deaf_phone(open_phone, admin, evening)
    enter_sauspiel(resi, "Vroni", "Hias")
    expect(preview(resi)).to_have_count(4)
    expect(preview(resi).first).to_contain_text("Vroni")
    # Game 1 is booked elsewhere: Vroni deals game 2 and sits it out.
    booked_elsewhere_then_saved(resi, evening, schreiber, players["Hias"], players["Resi"])

    expect(resi.locator("#entry-status [role=alert]")).to_contain_text(
        "Vroni spielt dieses Spiel nicht mit."
    )
    # The preview of the game she had entered goes: without a Spieler there is none.
    expect(resi.locator("#preview")).to_have_text("Vorschau: Spieler wählen")
    expect(preview(resi)).to_have_count(0)
    assert Game.objects.count() == 1


def five_and_resi_s_phone(open_phone, runde, schreiber, admin, players) -> tuple[Evening, Page]:
    """Five at the table, and Resi's phone (the admin's) open at the evening."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi", "Wastl"], schreiber)
    resi = open_phone(admin).page
    resi.goto(f"/abend/{evening.pk}/")
    return evening, resi


def test_the_same_game_entered_on_two_phones_is_booked_once(
    open_phone, runde, schreiber, admin, players
):
    evening, resi = five_and_resi_s_phone(open_phone, runde, schreiber, admin, players)

    # 1. Resi enters Hias's Sauspiel with her, Schneider ...
    taps = Taps(resi)
    taps(chip(resi, "declarer", "Hias"))
    taps(chip(resi, "partner", "Resi"))
    taps(resi.locator(".f-schneider .chip"))
    expect(preview(resi)).to_have_count(4)

    # ... and Hias saves that very game on his phone first.
    book(evening, schreiber, type="sauspiel", declarer=players["Hias"].pk,
         partner=players["Resi"].pk, schneider=True)  # fmt: skip

    # 2. Resi's phone hears of it from the sheet's poll: her choices go, so that her
    # "Speichern" cannot book it again as game 2 (Hias and Resi play that one too).
    notice = resi.locator("#entry-status [role=alert]")
    expect(notice).to_contain_text("Spiel 1 gebucht (Sauspiel Hias", timeout=8000)
    expect(notice).to_contain_text("Das war das Spiel, das du eingegeben hast")
    expect(deal_line(resi)).to_contain_text("Spiel 2 · Vroni gibt")
    for name in ("declarer", "partner", "schneider"):
        expect(checked(resi, name)).to_have_count(0)
    expect(sheet_row(resi, 1)).to_contain_text("Sauspiel")
    # Scrolled down to "Speichern", she taps it anyway: the word on why the form was
    # reset comes back into view, not "Bitte wählen, wer spielt", which read as "not
    # saved" and had a first-timer enter the game a second time (walk 25).
    resi.mouse.wheel(0, 2000)
    sent = []
    resi.on(
        "request", lambda request: sent.append(request.url) if "buchen" in request.url else None
    )
    save_button(resi).tap()
    expect(notice).to_be_focused()
    expect(notice).to_be_in_viewport()
    expect(notice).to_contain_text("Das war das Spiel, das du eingegeben hast")
    errors = resi.locator("#entry-fields .error")
    expect(errors).to_have_count(0)
    assert sent == [] and Game.objects.count() == 1

    # 3. The fresh chips work, and the form's errors are said as always: she books game 2.
    Taps(resi)(chip(resi, "declarer", "Wastl"))
    save_button(resi).tap()
    expect(errors).to_have_text(["Bitte den Mitspieler wählen."])
    expect(resi.locator(".f-partner.invalid .error")).to_be_visible()
    book_sauspiel(resi, 2, "Wastl", "Sepp")
    expect(errors).to_have_count(0)
    assert Game.objects.get(number=2).dealer == players["Vroni"]


def test_back_and_forward_to_the_evening_show_it_as_it_is_and_book_the_next_game(
    open_phone, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    hias = open_phone(schreiber).page
    hias.goto(f"/abend/{evening.pk}/abrechnung/")
    hias.get_by_role("link", name="zurück zum Abend").tap()
    book_sauspiel(hias, 1, "Vroni", "Resi")

    # Back to the settlement and Forward to the evening again: the page is loaded anew,
    # not taken from the browser's cache (its form carried the key game 1 was booked with).
    hias.go_back()
    expect(hias.get_by_role("heading", name="Abrechnung", exact=True)).to_be_visible()
    hias.go_forward()
    expect(deal_line(hias)).to_contain_text("Spiel 2 · Vroni gibt")
    book_sauspiel(hias, 2, "Hias", "Sepp")

    assert Game.objects.filter(evening=evening).count() == 2


def test_a_phone_whose_evening_is_closed_elsewhere_loses_its_form_and_books_nothing(
    open_phone, runde, schreiber, admin, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    hias = open_phone(schreiber).page
    resi = open_phone(admin).page
    # Resi's phone hears nothing from the sheet's polling for now.
    resi.route("**/blatt/**", lambda route: route.fulfill(status=204))
    for page in (hias, resi):
        page.goto(f"/abend/{evening.pk}/")

    # 1. Resi has a game on her form when Hias's phone closes the evening; she saves.
    chip(resi, "declarer", "Vroni").tap()
    chip(resi, "partner", "Sepp").tap()
    services.close_evening(evening.pk, schreiber)
    save_button(resi).tap()

    # Nothing booked; her phone shows the closed evening, says so, and has no form.
    expect(flash(resi)).to_have_text("Der Abend wurde inzwischen abgeschlossen – nichts gebucht.")
    expect(resi.locator("#entry-form")).to_have_count(0)
    assert Game.objects.count() == 0

    # 2. Hias's phone, with its form open, follows within a poll.
    expect(flash(hias)).to_have_text(
        "Der Abend wurde abgeschlossen: hier wird nichts mehr gebucht.", timeout=8_000
    )
    expect(hias.locator("#entry-form")).to_have_count(0)


def test_a_form_whose_players_changed_drops_only_the_player_who_no_longer_plays(
    open_phone, runde, schreiber, admin, players
):
    evening, resi = five_and_resi_s_phone(open_phone, runde, schreiber, admin, players)
    # Vroni declares, Hias is the partner: then game 1 is booked elsewhere, and Vroni now
    # deals and sits out. The open form follows by itself.
    taps = Taps(resi)
    taps(chip(resi, "declarer", "Vroni"))
    taps(chip(resi, "partner", "Hias"))
    book(evening, schreiber, type="wenz", declarer=players["Resi"].pk)

    expect(deal_line(resi)).to_contain_text("Spiel 2 · Vroni gibt", timeout=10_000)
    expect(resi.locator("#entry-status [role=alert]")).to_contain_text("Spiel 1 gebucht (Wenz Resi")
    expect(checked(resi, "declarer")).to_have_count(0)
    expect(checked(resi, "partner")).to_have_text("Hias")
    assert Game.objects.count() == 1


# -- 5. the sheet keeps its names in view, the standing is on top ------------------------


def test_the_names_stay_in_view_while_the_sheet_scrolls_and_the_standing_is_on_top(
    page, log_in, open_phone, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi", "Wastl", "Kathi"],
                    schreiber)  # fmt: skip
    for _ in range(20):
        playing = services.next_deal(evening).playing
        book(evening, schreiber, type="sauspiel", declarer=playing[0].pk, partner=playing[2].pk)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")

    # 1. Without scrolling: the current standing is above the form, fully in view.
    standing = page.locator("#standing")
    box = standing.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    expect(standing.locator(".amount")).to_have_text(totals(page).all_inner_texts())
    assert standing.bounding_box()["y"] < page.locator("#entry-form").bounding_box()["y"]

    # 2. Scrolled to game 15: the row of names is pinned to the top of the screen.
    for screen in (page, open_phone().page):
        if screen is not page:
            screen.goto(f"/live/{evening.share_token}/")
        sheet_row(screen, 15).scroll_into_view_if_needed()
        screen.evaluate("window.scrollBy(0, 150)")
        head = screen.locator("#sheet thead th").first
        expect(head).to_have_text("Sepp")
        y = head.bounding_box()["y"]
        assert screen.locator("#sheet table").bounding_box()["y"] < -200  # scrolled into it
        screen.screenshot(path=f"/tmp/x/sticky-{screen is page}.png")
        assert 0 <= y < 40, y
        assert screen.evaluate(
            "([x, y]) => document.elementFromPoint(x, y).closest('thead') !== null",
            [20, y + 5],
        )


# -- 6. taken back, struck through, and brought back -------------------------------------


def test_undo_and_strike_keep_the_row_struck_through_and_can_be_taken_back(
    page, log_in, runde, schreiber, players
):
    evening = two_sauspiele(runde, players, schreiber)
    p = {name: player.pk for name, player in players.items()}
    book(evening, schreiber, type="farbsolo", suit="gras", declarer=p["Resi"])
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    expect(totals(page)).to_have_text(["-0,50", "-0,50", "-0,50", "1,50"])

    # 1. "Letztes Spiel zurücknehmen", named "Spiel 3 zurücknehmen": game 3 stays on the
    # sheet, struck through, and the deal goes back to its dealer. One tap brings it back.
    page.get_by_role("button", name="Spiel 3 zurücknehmen").tap()
    bar = page.locator(".restore-bar")
    expect(bar).to_contain_text("Zurückgenommen: Spiel 3, Gras-Solo Resi")
    # The page opens on "Rückgängig", described by what was taken back (a screen reader
    # reads both; the reload left the focus nowhere).
    undo_it = bar.get_by_role("button", name="Rückgängig")
    expect(undo_it).to_be_focused()
    expect(undo_it).to_have_accessible_description(
        re.compile("^Zurückgenommen: Spiel 3, Gras-Solo Resi")
    )
    expect(sheet_row(page, 3)).to_have_class(re.compile(r"\btaken-back\b"))
    expect(sheet_row(page, 3).locator("s")).to_have_text("Gras-Solo Resi")
    expect(sheet_row(page, 3)).to_contain_text("zurückgenommen")
    expect(totals(page)).to_have_text(["0,00", "0,00", "0,00", "0,00"])
    expect(deal_line(page)).to_contain_text("Spiel 4 · Hias gibt")
    expect(page.locator("#undo button")).to_have_text("Spiel 2 zurücknehmen")
    third = Game.objects.get(number=3)
    assert third.voided_at is not None and amounts(third) == {
        "Resi": 0, "Vroni": 0, "Hias": 0, "Sepp": 0
    }  # fmt: skip

    bar.get_by_role("button", name="Rückgängig").tap()
    expect(flash(page)).to_contain_text("Wiederhergestellt: Spiel 3, Gras-Solo Resi")
    expect(page.locator(".restore-bar")).to_have_count(0)
    expect(sheet_row(page, 3)).not_to_have_class(re.compile(r"\btaken-back\b"))
    expect(totals(page)).to_have_text(["-0,50", "-0,50", "-0,50", "1,50"])
    expect(deal_line(page)).to_contain_text("Spiel 4 · Resi gibt")
    third.refresh_from_db()
    assert third.voided_at is None
    assert amounts(third) == {"Resi": 150, "Vroni": -50, "Hias": -50, "Sepp": -50}

    # 2. "Spiel streichen" in the correction: struck, and "Rückgängig" too.
    sheet_row(page, 2).get_by_role("link").click()
    page.locator("#correction").get_by_role("button", name="Spiel streichen").tap()
    expect(page.locator("#correction")).to_be_empty()
    expect(page).to_have_url(re.compile(rf"/abend/{evening.pk}/$"))
    expect(page.locator(".restore-bar")).to_contain_text("Gestrichen: Spiel 2, Sauspiel Hias")
    # The word and its "Rückgängig" are in view, above where the panel was.
    expect(page.locator(".restore-bar")).to_be_in_viewport(ratio=1)
    expect(sheet_row(page, 2)).to_contain_text("gestrichen")
    expect(page.locator("#sheet tbody.game .num")).to_have_text(["1.", "2.", "3."])
    expect(totals(page)).to_have_text(["-0,60", "-0,40", "-0,60", "1,60"])
    expect(page.locator("#undo button")).to_have_text("Spiel 3 zurücknehmen")
    page.locator(".restore-bar").get_by_role("button", name="Rückgängig").tap()
    expect(totals(page)).to_have_text(["-0,50", "-0,50", "-0,50", "1,50"])

    assert change_kinds(evening) == [
        "start", "book", "book", "book", "undo", "restore", "void", "restore"
    ]  # fmt: skip
    assert "ledger ok" in verify_ledger()


def test_taking_back_is_offered_once_there_is_a_game_and_names_it(
    page, log_in, open_phone, runde, schreiber, admin, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    take_back = page.locator("#undo button")
    expect(take_back).to_be_hidden()
    other = open_phone(admin).page
    other.goto(f"/abend/{evening.pk}/")

    book_sauspiel(page, 1, "Vroni", "Resi")
    expect(take_back).to_have_text("Spiel 1 zurücknehmen")
    book_sauspiel(page, 2, "Hias", "Sepp")
    expect(take_back).to_have_text("Spiel 2 zurücknehmen")
    # The admin's phone at the table follows by its poll and names the same game.
    expect(other.locator("#undo button")).to_have_text("Spiel 2 zurücknehmen", timeout=10_000)
    expect(other.locator("#undo button")).to_be_visible()
    take_back.tap()

    # The form sent the version the sheet showed after the second booking's answer.
    expect(page.locator(".restore-bar")).to_contain_text("Zurückgenommen: Spiel 2, Sauspiel Hias")
    assert change_kinds(evening) == ["start", "book", "book", "undo"]


def test_a_game_struck_by_mistake_counts_again_after_later_games(
    page, log_in, runde, schreiber, players
):
    evening = two_sauspiele(runde, players, schreiber)
    services.void_game(evening.pk, Game.objects.get(number=1).pk, schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    book_sauspiel(page, 3, "Resi", "Hias")
    expect(totals(page)).to_have_text(["0,00", "-0,20", "0,20", "0,00"])

    # The struck row opens in place: what the game was, and "Wieder zählen".
    sheet_row(page, 1).get_by_role("link").click()
    panel = page.locator("#correction")
    expect(panel.get_by_role("heading")).to_have_text("Spiel 1 zählt nicht")
    expect(panel.locator("s")).to_have_text("Spiel 1, Sauspiel Vroni mit Resi")
    panel.get_by_role("button", name="Wieder zählen").tap()

    expect(flash(page)).to_contain_text("Wiederhergestellt: Spiel 1, Sauspiel Vroni")
    expect(sheet_row(page, 1)).not_to_have_class(re.compile(r"\btaken-back\b"))
    expect(totals(page)).to_have_text(["-0,10", "-0,10", "0,10", "0,10"])
    assert Game.objects.get(number=1).is_booked
    assert change_kinds(evening)[-2:] == ["book", "restore"]
    assert "ledger ok" in verify_ledger()


# -- 7. only what applies ----------------------------------------------------------------


def test_only_the_laufende_and_announcements_that_apply_are_offered(
    page, log_in, runde, admin, schreiber, players
):
    tariff = runde.tariffs.latest()
    tariff.laufende_min_wenz, tariff.jungfrau = 2, True
    assert club_services.change_tariff(runde, tariff, admin) is not None
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")

    # Sauspiel: Laufende from the threshold up to all 14; no Tout.
    expect(chip_labels(page, "laufende")).to_have_text(["keine", *map(str, range(3, 15))])
    expect(page.locator(".f-tout")).to_be_hidden()
    expect(page.locator(".f-laufende_wenz")).to_be_hidden()
    # Wenz: 0 to 4, from the Wenz threshold; Tout offered.
    chip(page, "spiel", "Wenz").tap()
    expect(page.locator(".f-laufende")).to_be_hidden()
    expect(page.locator(".f-laufende_wenz .chip > span")).to_have_text(["keine", "2", "3", "4"])
    expect(page.locator(".f-tout")).to_be_visible()
    chip(page, "spiel", "Schellen-Solo").tap()
    expect(page.locator(".f-tout")).to_be_visible()
    expect(page.locator(".f-laufende")).to_be_visible()
    # Ramsch: no Laufende, no Tout; a third Jungfrau is told that two count.
    chip(page, "spiel", "Ramsch").tap()
    expect(page.locator(".f-tout")).to_be_hidden()
    expect(page.locator(".f-laufende")).to_be_hidden()
    expect(page.locator(".f-laufende_wenz")).to_be_hidden()
    taps = Taps(page)
    taps(chip(page, "loser", "Vroni"))
    for name in ["Hias", "Resi", "Sepp"]:
        taps(chip(page, "jungfrauen", name))
    expect(page.locator("#preview .note")).to_have_text(
        "Höchstens zwei Jungfrauen zählen: es wird zweimal verdoppelt."
    )
    # 0,10 € × 2 × 2 (two Jungfrauen count) = 0,40 € a player.
    expect(preview(page)).to_have_text(
        ["Sepp +0,40 €", "Vroni -1,20 €", "Hias +0,40 €", "Resi +0,40 €"]
    )
    # Another game: the Ramsch's ticks stay behind, hidden, and say nothing about it.
    chip(page, "spiel", "Wenz").tap()
    taps(chip(page, "declarer", "Hias"))
    expect(preview(page)).to_have_text(
        ["Sepp -0,50 €", "Vroni -0,50 €", "Hias +1,50 €", "Resi -0,50 €"]
    )
    expect(page.locator("#preview .note")).to_have_count(0)


def test_eleven_laufende_are_recorded_and_the_cap_of_eight_is_paid(
    page, log_in, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    taps = Taps(page)
    taps(chip(page, "declarer", "Vroni"))
    taps(chip(page, "partner", "Resi"))
    taps(chip(page, "laufende", "11"))
    # 0,10 € + 8 × 0,10 € (the cap) = 0,90 €.
    expect(preview(page)).to_have_text(
        ["Sepp -0,90 €", "Vroni +0,90 €", "Hias -0,90 €", "Resi +0,90 €"]
    )
    taps(save_button(page))
    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Sauspiel Vroni")
    game = Game.objects.get()
    assert game.laufende == 11
    assert amounts(game) == {"Vroni": 90, "Resi": 90, "Hias": -90, "Sepp": -90}


# -- 8. a correction says what it will change --------------------------------------------


def test_the_correction_screen_previews_the_game_and_the_later_bock_games(
    page, log_in, bock_runde, schreiber, players
):
    evening = start(bock_runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    p = {name: player.pk for name, player in players.items()}
    first = book(evening, schreiber, type="sauspiel", declarer=p["Vroni"], partner=p["Resi"])
    book(evening, schreiber, type="sauspiel", declarer=p["Hias"], partner=p["Sepp"])
    book(evening, schreiber, type="sauspiel", declarer=p["Resi"], partner=p["Vroni"])
    log_in(schreiber).goto(f"/abend/{evening.pk}/spiel/{first.pk}/")

    # 1. As booked: the game's amounts (the players as they sit, as on the entry form),
    # and nothing else changes.
    preview = correction_preview
    expect(preview(page)).to_have_text(
        ["Sepp -0,10 €", "Vroni +0,10 €", "Hias -0,10 €", "Resi +0,10 €"]
    )
    expect(page.locator("#correction-preview .moves")).to_have_text("Am Stand ändert sich nichts.")

    # 2. It was a Ramsch that Sepp lost: its amounts, games 2 and 3 become Bock games, and
    # the standing after it; nothing is saved yet.
    taps = Taps(page)
    taps(chip(page, "spiel", "Ramsch"))
    taps(chip(page, "loser", "Sepp"))
    expect(preview(page)).to_have_text(
        ["Sepp -0,30 €", "Vroni +0,10 €", "Hias +0,10 €", "Resi +0,10 €"]
    )
    expect(page.locator("#correction-preview .later-game")).to_have_text(
        [
            "Spiel 2: 0,20 € statt 0,10 € (wird Bockspiel)",
            "Spiel 3: 0,20 € statt 0,10 € (wird Bockspiel)",
        ]
    )
    expect(page.locator("#correction-preview .move")).to_have_text(
        ["Sepp -0,30 € (bisher -0,10 €)", "Hias 0,10 € (bisher -0,10 €)"]
    )
    first.refresh_from_db()
    assert first.type == "sauspiel"
    assert change_kinds(evening) == ["start", "book", "book", "book"]

    page.get_by_role("button", name="Korrektur speichern").tap()
    expect(totals(page)).to_have_text(["-0,30", "0,10", "0,10", "0,10"])


def test_a_ticked_schwarz_shows_schneider_as_counted_in(page, log_in, runde, schreiber, players):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    schneider = page.locator(".f-schneider .chip > span")

    def outline() -> str:
        return schneider.evaluate("el => getComputedStyle(el).borderTopStyle")

    assert outline() == "solid"
    expect(page.get_by_role("checkbox", name="Schneider", exact=True)).to_have_count(1)
    taps = Taps(page)
    taps(chip(page, "declarer", "Vroni"))
    taps(chip(page, "partner", "Resi"))
    taps(page.locator(".f-schwarz .chip"))

    # Priced with Schneider (0,10 + 0,10 + 0,10 a player), and shown so, in outline.
    expect(preview(page)).to_have_text(
        ["Sepp -0,30 €", "Vroni +0,30 €", "Hias -0,30 €", "Resi +0,30 €"]
    )
    assert outline() == "dashed"
    expect(page.locator(".f-schneider input")).not_to_be_checked()
    # A screen reader hears it too: the box's name says it counts.
    counted = page.get_by_role("checkbox", name="Schneider (zählt mit)", exact=True)
    expect(counted).not_to_be_checked()
    expect(page.get_by_role("checkbox", name="Schwarz", exact=True)).to_be_checked()


def test_a_ramsch_corrected_into_a_sauspiel_starts_won_and_its_preview_fits_the_phone(
    page, log_in, bock_runde, schreiber, players
):
    evening = start(bock_runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    p = {name: player.pk for name, player in players.items()}
    for _ in range(8):
        book(evening, schreiber, type="sauspiel", declarer=p["Vroni"], partner=p["Resi"])
    ramsch = book(evening, schreiber, type="ramsch", won=False, loser=p["Hias"])
    for _ in range(3):
        book(evening, schreiber, type="sauspiel", declarer=p["Vroni"], partner=p["Resi"])
    log_in(schreiber).goto(f"/abend/{evening.pk}/spiel/{ramsch.pk}/")

    taps = Taps(page)
    taps(chip(page, "spiel", "Sauspiel"))
    taps(chip(page, "declarer", "Sepp"))
    taps(chip(page, "partner", "Hias"))

    # As a new booking: won, unless the Schreiber says otherwise.
    expect(page.locator(".f-won input[value='1']")).to_be_checked()
    expect(page.locator("#correction-preview .later-game")).to_have_text(
        [f"Spiel {n}: 0,10 € statt 0,20 € (kein Bockspiel mehr)" for n in (10, 11, 12)]
    )
    no_horizontal_scroll(page)


# -- 10. the read-only link after closing -------------------------------------------------


def test_the_read_only_link_shows_the_final_sheet_once_the_evening_is_closed(
    page, log_in, open_phone, bock_runde, schreiber, players
):
    evening = start(bock_runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    book(evening, schreiber, type="ramsch", won=False, loser=players["Hias"].pk)
    spectator = open_phone().page
    spectator.goto(f"/live/{evening.share_token}/")
    expect(spectator.locator(".bock-banner")).to_have_text("Noch 4 Bockspiele")

    # 1. The Schreiber closes the evening; the spectator's open page turns final by itself.
    log_in(schreiber).goto(f"/abend/{evening.pk}/abrechnung/")
    page.get_by_text("Abend abschließen …").tap()
    page.get_by_role("button", name="Ja, Abend abschließen").tap()
    expect(page.get_by_text("Der Abend ist abgeschlossen.")).to_be_visible()
    expect(spectator.locator(".closed-note")).to_contain_text(
        "Dieser Abend ist abgeschlossen.", timeout=10_000
    )
    expect(spectator.locator(".bock-banner")).to_have_count(0)
    expect(spectator.locator("#sheet")).not_to_have_attribute("hx-trigger", re.compile("."))

    # 2. Opened later, the link shows the final sheet, read-only.
    late = open_phone().page
    late.goto(f"/live/{evening.share_token}/")
    expect(late.locator(".closed-note")).to_contain_text("Dieser Abend ist abgeschlossen.")
    expect(sheet_row(late, 1)).to_contain_text("Ramsch: Hias verliert")
    expect(totals(late)).to_have_text(["0,10", "0,10", "-0,30", "0,10"])
    expect(late.locator(".bock-banner")).to_have_count(0)
    expect(late.locator("#entry-form, #sheet a")).to_have_count(0)
    assert Evening.objects.get().status == Evening.Status.CLOSED
    assert LedgerEntry.objects.filter(evening=evening).count() == 4
    assert Change.objects.filter(evening=evening, kind="close").count() == 1
    # (The closed evening's own page for the Schreiber shows no Bock banner either.)
    page.goto(f"/abend/{evening.pk}/")
    expect(page.locator(".bock-banner")).to_have_count(0)
    expect(page.locator(".closed-note")).to_be_visible()


def five_on_a_narrow_phone(page, log_in, runde, schreiber, players, **renamed) -> None:
    """Five at the table (players renamed first), Vroni's Sauspiel with Resi booked, the
    evening open on a 320 px phone."""
    for name, other in renamed.items():
        players[name].name = other
        players[name].save()
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi", "Wastl"], schreiber)
    book(evening, schreiber, type="sauspiel", declarer=players["Vroni"].pk,
         partner=players["Resi"].pk)  # fmt: skip
    log_in(schreiber)
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(f"/abend/{evening.pk}/")


def test_five_names_stay_whole_on_a_narrow_phone(page, log_in, runde, schreiber, players):
    five_on_a_narrow_phone(page, log_in, runde, schreiber, players, Wastl="Schorsch")

    # Each name on one line: in the standing's boxes and in the sheet's head.
    for cells in (page.locator(".standing-cell .name"), page.locator("table.block thead th")):
        expect(cells).to_have_count(5)
        heights = cells.evaluate_all("cells => cells.map(c => c.getBoundingClientRect().height)")
        assert len(set(heights)) == 1, heights


@pytest.mark.parametrize("width", [320, 390])
def test_four_names_stay_whole_in_the_sheet_s_head(page, log_in, runde, schreiber, width):
    names = ["Schorsch", "Veronika", "Xaver", "Korbinian"]
    four = [Player.objects.create(club=runde.club, name=name) for name in names]
    evening = services.start_evening(runde, four, 0, schreiber)
    log_in(schreiber)
    page.set_viewport_size({"width": width, "height": 640})
    page.goto(f"/abend/{evening.pk}/")

    head = page.locator("table.block thead th")
    expect(head).to_have_text(names)
    assert (
        head.evaluate_all("cells => cells.map(c => c.scrollWidth > c.clientWidth)") == [False] * 4
    )
    sizes = head.evaluate_all("cells => cells.map(c => parseFloat(getComputedStyle(c).fontSize))")
    assert min(sizes) >= 11
    no_horizontal_scroll(page)


@pytest.mark.parametrize("width", [320, 390])
def test_six_names_stay_whole_or_end_in_an_ellipsis(page, log_in, runde, schreiber, width):
    names = ["Schorsch", "Veronika", "Xaver", "Hias", "Vroni", "Maximilian-Alexander"]
    six = [Player.objects.create(club=runde.club, name=name) for name in names]
    evening = services.start_evening(runde, six, 0, schreiber)
    log_in(schreiber)
    page.set_viewport_size({"width": width, "height": 640})
    page.goto(f"/abend/{evening.pk}/")

    standing, head = page.locator(".standing-cell .name"), page.locator("table.block thead th")
    for cells in (standing, head):
        expect(cells).to_have_count(6)
        expect(cells).to_have_text(names)  # whole for a screen reader
        # No name breaks inside a word: each one-word name takes one line; the hyphenated
        # one wraps at its hyphen, and a part too long for its column ends in "…".
        heights = cells.evaluate_all("cells => cells.map(c => c.getBoundingClientRect().height)")
        assert len(set(heights[:5])) == 1, heights
    cut = "cells => cells.map(c => c.scrollWidth > c.clientWidth)"
    # The standing's boxes show the short names whole (at 320 px in two rows of three, at
    # the common type, with room for the long one too); so does the sheet's head, but for
    # "Schorsch" at 320 px ("Schors…" there, two pixels apart from "Veronika").
    assert standing.evaluate_all(cut) == [False] * 5 + [width == 390]
    assert head.evaluate_all(cut) == [width == 320] + [False] * 4 + [True]
    tops = standing.evaluate_all("cells => cells.map(c => c.getBoundingClientRect().top)")
    assert len(set(tops)) == (2 if width == 320 else 1)
    sizes = page.locator(".standing-cell .amount").evaluate_all(
        "cells => cells.map(c => parseFloat(getComputedStyle(c).fontSize))"
    )
    assert min(sizes) >= (16 if width == 320 else 11)
    no_horizontal_scroll(page)


def test_a_long_caption_wraps_but_keeps_the_game_s_number_whole(
    page, log_in, runde, schreiber, players
):
    five_on_a_narrow_phone(
        page, log_in, runde, schreiber, players, Vroni="Franziska Maria", Resi="Bartholomäus"
    )

    number = sheet_row(page, 1).locator("tr.caption .num")
    expect(number).to_have_text("1.")
    # The caption wraps; its number's text stays on one line ("1.", not "1" over ".").
    lines = number.evaluate(
        "el => { const r = document.createRange(); r.selectNodeContents(el);"
        " return r.getClientRects().length; }"
    )
    assert lines == 1


def test_a_forty_letter_name_in_the_preview_keeps_speichern_on_a_narrow_phone(
    page, log_in, runde, schreiber, players
):
    long = "Hans-Peter Schmidt-Oberreuther von und z"  # as long as a name may be: 40
    five_on_a_narrow_phone(page, log_in, runde, schreiber, players, Hias=long)

    tap = Taps(page)
    tap(chip(page, "declarer", long))
    tap(chip(page, "partner", "Sepp"))
    expect(preview(page)).to_have_count(4)

    box = save_button(page).bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 320
    no_horizontal_scroll(page)
    tap(save_button(page))
    expect(flash(page)).to_contain_text("Gebucht: Spiel 2, Sauspiel")


def test_six_at_the_table_keep_every_amount_whole_on_a_narrow_phone(
    page, log_in, runde, schreiber, players
):
    # A Farbsolo of 35,20 € won against three: +105,60 € and -35,20 € each (with 0,00 and
    # "setzt aus" beside them), then lost: "422,40" and "-140,80" in the columns.
    tariff = runde.tariffs.latest()
    tariff.farbsolo = 3520
    club_services.change_tariff(runde, tariff, schreiber)
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi", "Wastl", "Kathi"],
                    schreiber)  # fmt: skip
    for won in (False, True, True, True, True):
        deal = services.next_deal(evening)
        book(evening, schreiber, type="farbsolo", suit="eichel", won=won,
             declarer=deal.playing[0].pk)  # fmt: skip
    log_in(schreiber)
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(f"/abend/{evening.pk}/")

    figures = page.locator("table.block td .total, table.block td.grand, .standing .amount")
    expect(figures.first).to_be_visible()
    # Each figure on one line, inside its column.
    lines = figures.evaluate_all(
        "els => els.map(el => { const r = document.createRange(); r.selectNodeContents(el);"
        " const rects = [...r.getClientRects()]; const cell = el.closest('td, .standing-cell')"
        ".getBoundingClientRect(); return [el.textContent, new Set(rects.map(x => x.top)).size,"
        " rects.every(x => x.left >= cell.left - 1 && x.right <= cell.right + 1)]; })"
    )
    assert any(len(text) >= 7 for text, _lines, _inside in lines), lines  # "-140,80"
    assert [(text, n, inside) for text, n, inside in lines if n != 1 or not inside] == []
    no_horizontal_scroll(page)


def test_a_game_struck_at_a_played_out_table_brings_the_form_back_on_both_phones(
    page, log_in, open_phone, club, admin, schreiber, players
):
    """A tournament table of two games, both booked: no entry form. One is struck on the
    Schreiber's phone; that phone and the director's, which follows, take the open game."""
    runde = club_services.create_prohof_runde(club, "Stadtmeisterschaft", admin)
    seated = [players[name] for name in ("Sepp", "Vroni", "Hias", "Resi")]
    table = services.start_evening(runde, seated, 0, schreiber, label="Tisch 1", game_limit=2)
    for declarer in ("Vroni", "Hias"):
        book(table, schreiber, type="wenz", declarer=players[declarer].pk, won=True)
    director = open_phone(admin).page
    director.goto(f"/abend/{table.pk}/")
    log_in(schreiber).goto(f"/abend/{table.pk}/")
    for phone in (page, director):
        expect(phone.get_by_text("Alle 2 Spiele gespielt.")).to_be_visible()
        expect(phone.locator("#entry-form")).to_have_count(0)

    sheet_row(page, 2).get_by_role("link").click()
    page.locator("#correction").get_by_role("button", name="Spiel streichen").tap()

    for phone in (page, director):  # the director's within a poll or two
        expect(phone.locator("#entry-form")).to_be_visible(timeout=10_000)
        # Game 3 is dealt, the second that counts: numbered as the sheet's rows.
        expect(deal_line(phone)).to_contain_text("Spiel 3, das 2. von 2")
        expect(sheet_row(phone, 2)).to_contain_text("gestrichen")
    expect(director.get_by_text("am Tisch ist wieder eines offen")).to_be_visible()
    assert not Game.objects.get(evening=table, number=2).is_booked


def test_a_game_corrected_elsewhere_makes_the_half_entered_one_a_bock_game_in_its_preview(
    page, log_in, bock_runde, schreiber, admin, players
):
    evening = start(bock_runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    p = {name: player.pk for name, player in players.items()}
    first = book(evening, schreiber, type="sauspiel", declarer=p["Vroni"], partner=p["Resi"])
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    enter_sauspiel(page, "Hias", "Sepp")
    plain = ["Sepp +0,10 €", "Vroni -0,10 €", "Hias +0,10 €", "Resi -0,10 €"]
    expect(preview(page)).to_have_text(plain)

    # On another phone game 1 becomes a Ramsch that Vroni lost: game 2 is a Bock game.
    ramsch = services.GameInput("ramsch", won=False, loser=p["Vroni"])
    services.correct_game(evening.pk, first.pk, ramsch, admin)

    # The preview hears of it with the sheet (its poll), and shows what is booked.
    expect(page.locator("#preview strong")).to_have_text("Bockspiel", timeout=8000)
    doubled = ["Sepp +0,20 €", "Vroni -0,20 €", "Hias +0,20 €", "Resi -0,20 €"]
    expect(preview(page)).to_have_text(doubled)
    save_button(page).tap()
    expect(flash(page)).to_contain_text("Gebucht: Spiel 2, Sauspiel Hias")
    game = Game.objects.get(number=2, evening=evening)
    assert game.bock and amounts(game) == {"Sepp": 20, "Vroni": -20, "Hias": 20, "Resi": -20}
    # ... and back: game 1 a Sauspiel again, the next game's preview no Bock game.
    enter_sauspiel(page, "Hias", "Sepp")
    expect(page.locator("#preview strong")).to_have_text("Bockspiel")
    sauspiel = services.GameInput("sauspiel", declarer=p["Vroni"], partner=p["Resi"])
    services.correct_game(evening.pk, first.pk, sauspiel, admin)
    expect(page.locator("#preview")).not_to_contain_text("Bockspiel", timeout=8000)
