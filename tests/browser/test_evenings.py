"""Evening journeys on a phone: starting an evening, booking games in a few taps with the
engine's preview, Bock, correcting an early game, settling up and closing, a lost answer,
following along on a second phone, and the screen fitting a phone."""

import re

import pytest
from django.contrib.auth import (
    get_user_model,
)
from playwright.sync_api import Page, expect

from clubs.models import Membership, Tariff
from evenings import services
from evenings.models import Change, Evening, Game, LedgerEntry
from tests.browser.axe import assert_accessible
from tests.browser.evening_screen import (
    BOCK,
    MIN_TAP_HEIGHT,
    NAMES,
    PASSWORD,
    PHONE,
    Phone,
    Taps,
    amounts,
    book,
    book_sauspiel,
    change_kinds,
    chip,
    chip_labels,
    deltas,
    enter_sauspiel,
    flash,
    log_in_on,
    no_horizontal_scroll,
    open_share_section,
    preview,
    preview_settled,
    save_button,
    sheet_row,
    start,
    totals,
    two_sauspiele,
    verify_ledger,
)

# -- 1. start and a plain Sauspiel ------------------------------------------------------


def test_a_guest_in_the_pub_is_added_and_seated_by_the_schreiber(
    page, log_in, club, runde, schreiber, players
):
    """Four at the table, one of them new to the club: the Schreiber types the name,
    "Hinzufügen" (or Enter) seats them at the free place, the places chosen stay, and the
    evening begins; no admin needed."""
    log_in(schreiber).goto(f"/verein/{club.pk}/runde/{runde.pk}/abend/neu/")
    page.set_viewport_size({"width": 320, "height": 568})
    for seat, name in enumerate(["Sepp", "Vroni", "Hias"], 1):
        page.get_by_role("combobox", name=f"Platz {seat}", exact=True).select_option(label=name)
    newcomer = page.get_by_label("Neu am Tisch (noch nicht im Verein)")

    newcomer.fill("Ferdl Obermaier")
    newcomer.press("Enter")  # adds; it does not start the evening

    expect(page.get_by_text("Ferdl Obermaier ist jetzt Spieler im Verein.")).to_be_visible()
    expect(page.get_by_text("Ferdl Obermaier sitzt auf Platz 4.")).to_be_visible()
    expect(page.get_by_role("combobox", name="Platz 4", exact=True)).to_have_value(
        str(club.players.get(name="Ferdl Obermaier").pk)
    )
    expect(page.get_by_role("combobox", name="Platz 1", exact=True)).to_have_value(
        str(players["Sepp"].pk)
    )
    expect(newcomer).to_have_value("")
    # The word is read first, beside the field: the next name is one Tab away (walk 78:
    # twelve, from the top of the page).
    expect(page.locator("#neu #messages")).to_be_focused()
    page.keyboard.press("Tab")
    expect(newcomer).to_be_focused()
    no_horizontal_scroll(page)
    page.get_by_role("button", name="Los geht\u2019s").tap()

    expect(page).to_have_url(re.compile(r"/abend/\d+/$"))
    evening = Evening.objects.get()
    assert [seat.player.name for seat in evening.seats.all()] == [
        "Sepp", "Vroni", "Hias", "Ferdl Obermaier"
    ]  # fmt: skip
    expect(chip_labels(page, "declarer")).to_contain_text(["Ferdl Obermaier"])


def test_a_schreiber_starts_an_evening_of_five_and_books_a_sauspiel_in_three_taps(
    page, log_in, club, runde, schreiber, players
):
    log_in(schreiber).goto(f"/verein/{club.pk}/runde/{runde.pk}/")

    # 1. From the Runde: who sits where, and who deals first (Platz 2: Vroni).
    page.get_by_role("link", name="Abend beginnen").click()
    expect(page.get_by_role("heading", name="Abend beginnen: Donnerstagsrunde")).to_be_visible()
    dealer_chips = page.locator("#id_first_dealer label:visible")
    expect(dealer_chips).to_have_text([f"Platz {n}" for n in range(1, 7)])
    for seat, name in enumerate(["Sepp", "Vroni", "Hias", "Resi", "Wastl"], 1):
        page.get_by_role("combobox", name=f"Platz {seat}", exact=True).select_option(label=name)
    # The dealer's chips name who sits there; the empty sixth place offers none.
    expect(dealer_chips).to_have_text(["Sepp", "Vroni", "Hias", "Resi", "Wastl"])
    page.locator("#id_first_dealer").get_by_text("Vroni", exact=True).tap()
    no_horizontal_scroll(page)
    page.get_by_role("button", name="Los geht\u2019s").click()

    evening = Evening.objects.get()
    expect(page).to_have_url(re.compile(rf"/abend/{evening.pk}/$"))
    assert [seat.player.name for seat in evening.seats.all()] == [
        "Sepp",
        "Vroni",
        "Hias",
        "Resi",
        "Wastl",
    ]
    assert evening.first_dealer == 1
    assert evening.tariff == runde.tariffs.latest()
    assert change_kinds(evening) == ["start"]

    # 2. With five at the table the dealer sits out; the other four are the chips.
    expect(page.locator(".deal")).to_contain_text("Vroni gibt und setzt aus.")
    expect(chip_labels(page, "declarer")).to_have_text(["Sepp", "Hias", "Resi", "Wastl"])
    expect(page.locator(".f-spiel input[value='sauspiel']")).to_be_checked()
    expect(page.locator(".f-won input[value='1']")).to_be_checked()
    expect(page.get_by_text("Vorschau: Spieler wählen")).to_be_visible()

    # 3. Hias plays with Sepp's Ass and wins: declarer, partner, save.
    tap = Taps(page)
    tap(chip(page, "declarer", "Hias"))
    tap(chip(page, "partner", "Sepp"))
    expect(preview(page)).to_have_text(
        ["Sepp +0,10 €", "Hias +0,10 €", "Resi -0,10 €", "Wastl -0,10 €"]
    )
    assert not Game.objects.exists()  # the preview books nothing
    tap(save_button(page))
    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Sauspiel Hias")
    assert tap.count <= 4, f"a plain Sauspiel took {tap.count} taps"

    # 4. The running totals, in seating order; Vroni sat out.
    expect(totals(page)).to_have_text(["0,10", "0,00", "0,10", "-0,10", "-0,10"])
    expect(sheet_row(page, 1).locator("td.out")).to_have_count(1)
    expect(deltas(sheet_row(page, 1))).to_have_text(
        ["+0,10", "setzt aus", "+0,10", "-0,10", "-0,10"]
    )

    game = Game.objects.get()
    assert (game.number, game.type, game.won, game.kontra, game.laufende) == (
        1,
        "sauspiel",
        True,
        0,
        0,
    )
    assert (game.declarer.name, game.partner.name, game.dealer.name) == ("Hias", "Sepp", "Vroni")
    assert game.seating == [players[name].pk for name in ["Hias", "Resi", "Wastl", "Sepp"]]
    assert amounts(game) == {"Hias": 10, "Sepp": 10, "Resi": -10, "Wastl": -10}
    assert change_kinds(evening) == ["start", "book"]

    # 5. The deal moves on: Hias deals and sits out; a fresh form for the next four.
    expect(page.locator(".deal")).to_contain_text("Hias gibt und setzt aus.")
    expect(chip_labels(page, "declarer")).to_have_text(["Sepp", "Vroni", "Resi", "Wastl"])
    expect(chip_labels(page, "partner")).to_have_text(["Sepp", "Vroni", "Resi", "Wastl"])
    expect(page.locator(".f-declarer input:checked")).to_have_count(0)
    expect(save_button(page)).to_be_enabled()
    no_horizontal_scroll(page)


# -- 2. Solo, with and without Kontra ----------------------------------------------------


def test_a_solo_takes_three_taps_and_a_kontra_doubles_it(page, log_in, runde, schreiber, players):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    expect(page.locator(".deal")).to_contain_text("Sepp gibt.")
    expect(page.locator(".deal")).not_to_contain_text("setzt aus")

    # 1. A plain Gras-Solo by Vroni: game, declarer, save.
    tap = Taps(page)
    tap(chip(page, "spiel", "Gras-Solo"))
    expect(page.locator(".f-partner")).to_be_hidden()
    expect(page.locator(".f-tout")).to_be_visible()
    tap(chip(page, "declarer", "Vroni"))
    expect(preview(page)).to_have_text(
        ["Sepp -0,50 €", "Vroni +1,50 €", "Hias -0,50 €", "Resi -0,50 €"]
    )
    tap(save_button(page))
    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Gras-Solo Vroni")
    assert tap.count <= 4, f"a plain Solo took {tap.count} taps"
    solo = Game.objects.get(number=1)
    assert (solo.type, solo.suit, solo.partner, solo.kontra) == ("farbsolo", "gras", None, 0)
    assert amounts(solo) == {"Vroni": 150, "Hias": -50, "Resi": -50, "Sepp": -50}

    # 2. Resi's Herz-Solo, and Kontra is given: the unit doubles to 1,00 €, the declarer
    # gets three times that.
    expect(page.locator(".deal")).to_contain_text("Vroni gibt.")
    tap = Taps(page)
    tap(chip(page, "spiel", "Herz-Solo"))
    tap(chip(page, "declarer", "Resi"))
    tap(chip(page, "kontra", "Kontra"))
    expect(preview(page)).to_have_text(
        ["Sepp -1,00 €", "Vroni -1,00 €", "Hias -1,00 €", "Resi +3,00 €"]
    )
    tap(save_button(page))
    expect(flash(page)).to_contain_text("Gebucht: Spiel 2, Herz-Solo Resi")
    assert tap.count <= 4

    kontra = Game.objects.get(number=2)
    assert (kontra.type, kontra.suit, kontra.kontra, kontra.won) == ("farbsolo", "herz", 1, True)
    unit = 50 * 2
    assert amounts(kontra) == {"Resi": 3 * unit, "Hias": -unit, "Sepp": -unit, "Vroni": -unit}
    expect(sheet_row(page, 2)).to_contain_text("Herz-Solo")
    expect(deltas(sheet_row(page, 2))).to_have_text(["-1,00", "-1,00", "-1,00", "+3,00"])
    # Sepp, Vroni, Hias, Resi
    expect(totals(page)).to_have_text(["-1,50", "0,50", "-1,50", "2,50"])
    assert services.balances(evening) == {
        players["Sepp"].pk: -150,
        players["Vroni"].pk: 50,
        players["Hias"].pk: -150,
        players["Resi"].pk: 250,
    }
    assert change_kinds(evening) == ["start", "book", "book"]


# -- 3. Ramsch starts a Bockrunde --------------------------------------------------------


def test_a_ramsch_starts_four_bock_games_that_double(page, log_in, bock_runde, schreiber, players):
    evening = start(bock_runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    assert evening.tariff.bock == Tariff.Bock.RAMSCH
    log_in(schreiber).goto(f"/abend/{evening.pk}/")

    # 1. Ramsch: only the loser is asked for (no Jungfrau in this tariff).
    tap = Taps(page)
    tap(chip(page, "spiel", "Ramsch"))
    expect(page.locator(".f-declarer")).to_be_hidden()
    expect(page.locator(".f-won")).to_be_hidden()
    expect(page.locator(".f-loser .label")).to_have_text("Verlierer (meiste Augen)")
    expect(page.locator(".f-jungfrauen")).to_have_count(0)
    tap(chip(page, "loser", "Hias"))
    expect(preview(page)).to_have_text(
        ["Sepp +0,10 €", "Vroni +0,10 €", "Hias -0,30 €", "Resi +0,10 €"]
    )
    expect(page.locator("#preview")).not_to_contain_text("Bockspiel")
    tap(save_button(page))
    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Ramsch: Hias verliert")
    assert tap.count <= 4

    ramsch = Game.objects.get()
    assert (ramsch.type, ramsch.loser.name, ramsch.declarer, ramsch.won) == (
        "ramsch",
        "Hias",
        None,
        False,
    )
    assert amounts(ramsch) == {"Hias": -30, "Vroni": 10, "Resi": 10, "Sepp": 10}
    expect(page.locator(".bock-banner")).to_have_text("Noch 4 Bockspiele")

    # 2. The next game is a Bock game: the preview says so and shows double amounts.
    tap(chip(page, "declarer", "Resi"))
    tap(chip(page, "partner", "Sepp"))
    expect(page.locator("#preview strong")).to_have_text("Bockspiel")
    expect(preview(page)).to_have_text(
        ["Sepp +0,20 €", "Vroni -0,20 €", "Hias -0,20 €", "Resi +0,20 €"]
    )
    tap(save_button(page))
    expect(flash(page)).to_contain_text("Gebucht: Spiel 2, Sauspiel Resi")
    expect(page.locator(".bock-banner")).to_have_text("Noch 3 Bockspiele")
    expect(sheet_row(page, 2)).to_have_class(BOCK)
    expect(sheet_row(page, 1)).not_to_have_class(BOCK)
    assert amounts(Game.objects.get(number=2)) == {
        "Resi": 20,
        "Sepp": 20,
        "Hias": -20,
        "Vroni": -20,
    }
    # Sepp, Vroni, Hias, Resi
    expect(totals(page)).to_have_text(["0,30", "-0,10", "-0,50", "0,30"])


# -- 4. correcting an early game --------------------------------------------------------


def test_correcting_the_first_game_into_a_ramsch_makes_the_later_games_bock(
    page, log_in, bock_runde, schreiber, players
):
    evening = start(bock_runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    book_sauspiel(page, 1, "Vroni", "Resi")
    book_sauspiel(page, 2, "Hias", "Sepp")
    book_sauspiel(page, 3, "Resi", "Vroni")
    # Sepp, Vroni, Hias, Resi
    expect(totals(page)).to_have_text(["-0,10", "0,10", "-0,10", "0,10"])
    expect(page.locator(".bock-banner")).to_have_count(0)
    first, second, third = Game.objects.order_by("number")
    assert amounts(second) == {"Hias": 10, "Sepp": 10, "Resi": -10, "Vroni": -10}

    # 1. Open game 1 from its row: the correction opens in place, the game as booked.
    sheet_row(page, 1).get_by_role("link").click()
    panel = page.locator("#correction")
    expect(panel.get_by_role("heading", name="Spiel 1 korrigieren")).to_be_visible()
    expect(page).to_have_url(re.compile(rf"/abend/{evening.pk}/$"))
    expect(panel.locator(".f-spiel input[value='sauspiel']")).to_be_checked()
    expect(panel.locator(".f-declarer input:checked + span")).to_have_text("Vroni")
    expect(panel.locator(".f-partner input:checked + span")).to_have_text("Resi")
    no_horizontal_scroll(page)
    assert_accessible(page, "the evening screen with a correction open")

    # 2. It was a Ramsch that Sepp lost.
    panel.locator(".f-spiel .chips").get_by_text("Ramsch", exact=True).tap()
    panel.locator(".f-loser .chips").get_by_text("Sepp", exact=True).tap()
    # Its preview first, as a person reads it before saving: the preview's answer moves
    # the button below it, and a tap sent in that instant would miss it.
    expect(panel.locator("#correction-preview")).to_contain_text("Sepp -0,30 €")
    preview_settled(page)
    with page.expect_response(re.compile(rf"/spiel/{first.pk}/$")) as answer:
        page.get_by_role("button", name="Korrektur speichern").tap()
    # The answer carries the rows that changed (1 to 3), not the page.
    assert b"<!doctype" not in answer.value.body()

    # 3. On the evening: games 2 and 3 are Bock games now, at twice the amounts.
    expect(panel).to_be_empty()
    expect(page).to_have_url(re.compile(rf"/abend/{evening.pk}/$"))
    expect(page.locator("#restore-word")).to_have_text(re.compile(r"^Korrigiert: Spiel 1, Ramsch"))
    expect(sheet_row(page, 1)).to_contain_text("Ramsch")
    expect(deltas(sheet_row(page, 1))).to_have_text(["-0,30", "+0,10", "+0,10", "+0,10"])
    expect(deltas(sheet_row(page, 2))).to_have_text(["+0,20", "-0,20", "+0,20", "-0,20"])
    expect(deltas(sheet_row(page, 3))).to_have_text(["-0,20", "+0,20", "-0,20", "+0,20"])
    expect(sheet_row(page, 2)).to_have_class(BOCK)
    expect(sheet_row(page, 3)).to_have_class(BOCK)
    expect(totals(page)).to_have_text(["-0,30", "0,10", "0,10", "0,10"])
    expect(page.locator(".bock-banner")).to_have_text("Noch 2 Bockspiele")

    first.refresh_from_db()
    assert (first.type, first.loser.name, first.declarer, first.partner) == (
        "ramsch",
        "Sepp",
        None,
        None,
    )
    assert amounts(first) == {"Sepp": -30, "Vroni": 10, "Hias": 10, "Resi": 10}
    assert amounts(second) == {"Hias": 20, "Sepp": 20, "Resi": -20, "Vroni": -20}
    assert amounts(third) == {"Resi": 20, "Vroni": 20, "Sepp": -20, "Hias": -20}
    correction = Change.objects.get(evening=evening, kind=Change.Kind.CORRECT)
    assert correction.game == first
    assert (correction.before["type"], correction.before["declarer"]) == (
        "sauspiel",
        players["Vroni"].pk,
    )
    assert (correction.after["type"], correction.after["loser"]) == ("ramsch", players["Sepp"].pk)
    # Nothing was edited: the correction reversed all three games and booked them anew.
    assert correction.ledger.count() == 3 * 4 * 2
    assert LedgerEntry.objects.filter(evening=evening).count() == 3 * 4 + 3 * 4 * 2
    assert change_kinds(evening) == ["start", "book", "book", "book", "correct"]

    # 4. The Verlauf shows the correction with before and after.
    page.get_by_role("link", name="Verlauf").click()
    expect(page.get_by_role("heading", name="Verlauf")).to_be_visible()
    entry = page.locator("li.change.correct")
    expect(entry).to_contain_text("Spiel korrigiert · Spiel 1")
    expect(entry).to_contain_text("Sauspiel Vroni mit Resi · gewonnen → Ramsch: Sepp verliert")
    # What the correction moved in money, game by game (walk 61: one sum read as game 1's):
    # game 1 itself, and games 2 and 3 as Bock games.
    expect(entry.locator(".moved")).to_have_text(
        [re.compile(r"^Spiel 1: Sepp -0,20 € "), re.compile("^Spiel 2: "), re.compile("^Spiel 3: ")]
    )
    expect(page.locator("li.change.book")).to_have_count(3)
    no_horizontal_scroll(page)

    assert "ledger ok" in verify_ledger()


# -- 5. settling up and closing ----------------------------------------------------------


def test_paying_at_the_table_and_closing_the_evening(page, log_in, runde, schreiber, players):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    book(evening, schreiber, type="farbsolo", suit="herz", declarer=players["Hias"].pk)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")

    # 1. Who pays whom: the three losers pay Hias 0,50 € each.
    page.get_by_role("link", name="Abrechnung und Abschluss").click()  # where it ends
    expect(page.get_by_role("heading", name="Abrechnung")).to_be_visible()
    transfers = page.locator("li.transfer > span")
    expect(transfers).to_have_text(
        ["Sepp zahlt Hias 0,50 €", "Vroni zahlt Hias 0,50 €", "Resi zahlt Hias 0,50 €"]
    )
    no_horizontal_scroll(page)

    # 2. Vroni pays: gone from the suggestion, listed under "Bezahlt".
    page.locator("li.transfer").filter(has_text="Vroni zahlt Hias").get_by_role(
        "button", name="bezahlt"
    ).tap()
    expect(page.get_by_text("Zahlung eingetragen:")).to_be_visible()
    expect(transfers).to_have_text(["Sepp zahlt Hias 0,50 €", "Resi zahlt Hias 0,50 €"])
    expect(page.get_by_role("heading", name="Bezahlt")).to_be_visible()
    expect(page.get_by_text("Vroni hat Hias 0,50 € gezahlt")).to_be_visible()
    expect(page.locator("dl.balances dd")).to_have_text(["-0,50 €", "0,00 €", "+1,00 €", "-0,50 €"])

    payments = LedgerEntry.objects.filter(evening=evening, kind=LedgerEntry.Kind.PAYMENT)
    assert sorted(payments.values_list("player__name", "amount")) == [
        ("Hias", -50),
        ("Vroni", 50),
    ]
    assert payments.values("change").distinct().count() == 1
    payment = Change.objects.get(evening=evening, kind=Change.Kind.PAYMENT)
    assert payment.after == {
        "payer": players["Vroni"].pk,
        "payee": players["Hias"].pk,
        "amount": 50,
        "key": payment.after["key"],  # the form's: sent again, it books nothing more
    }

    # 3. Close the evening: no more booking, on any screen.
    page.get_by_text("Abend abschließen …").tap()
    page.get_by_role("button", name="Ja, Abend abschließen").tap()
    expect(page.get_by_text("Der Abend ist abgeschlossen.")).to_be_visible()
    expect(page.get_by_text("Abend abschließen …")).to_have_count(0)
    evening.refresh_from_db()
    assert evening.status == Evening.Status.CLOSED
    assert evening.closed_at is not None
    assert change_kinds(evening) == ["start", "book", "payment", "close"]

    page.get_by_role("link", name="zurück zum Abend").click()
    expect(page.get_by_text("Dieser Abend ist abgeschlossen.")).to_be_visible()
    expect(page.locator("#entry-form")).to_have_count(0)
    expect(save_button(page)).to_have_count(0)
    expect(page.locator(".deal")).to_have_count(0)
    expect(page.locator("#undo")).to_have_count(0)
    expect(page.locator("#sheet")).not_to_have_attribute("hx-trigger", re.compile("."))
    # The sheet adds up the games; payments show on the Abrechnung only.
    expect(totals(page)).to_have_text(["-0,50", "-0,50", "1,50", "-0,50"])
    assert "ledger ok" in verify_ledger()


# -- an expired session ------------------------------------------------------------------


def test_an_expired_session_keeps_the_typed_game_until_the_schreiber_logs_in_again(
    page, log_in, app_url, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    chip(page, "declarer", "Vroni").tap()
    chip(page, "partner", "Resi").tap()
    preview_settled(page)

    # The session runs out while the game is on the screen (the CSRF cookie stays).
    page.context.clear_cookies(name="sessionid")
    save_button(page).tap()

    expect(page.locator("#entry-status [role=alert]")).to_contain_text(
        "Du bist nicht mehr angemeldet"
    )
    expect(page.locator(".f-declarer input:checked")).to_have_value(str(players["Vroni"].pk))
    expect(page.locator(".f-partner input:checked")).to_have_value(str(players["Resi"].pk))
    assert not Game.objects.exists()

    # Logging in again in another tab rotates the CSRF token; the old tab still saves.
    other = page.context.new_page()
    other.goto("/konto/login/")
    other.get_by_label("Benutzername").fill(schreiber.username)
    other.get_by_label("Passwort").fill(PASSWORD)
    other.get_by_role("button", name="Anmelden").click()
    expect(other).to_have_url(re.compile(r"/$"))
    other.close()
    save_button(page).tap()

    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Sauspiel Vroni")
    game = Game.objects.get()
    assert amounts(game) == {"Vroni": 10, "Resi": 10, "Hias": -10, "Sepp": -10}


def test_a_reload_keeps_a_half_entered_game_for_the_same_deal_only(
    page, log_in, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    tap = Taps(page)
    for name, label in [("spiel", "Herz-Solo"), ("declarer", "Vroni"), ("kontra", "Kontra")]:
        tap(chip(page, name, label))
    expect(preview(page)).to_have_count(4)

    page.reload()  # the pub's Wi-Fi, or a tap on the wrong spot

    chosen = page.locator("#entry-fields input:checked + span")
    # (Laufende "keine" twice: for the Wenz too, hidden.)
    expect(chosen).to_have_text(["Herz-Solo", "Vroni", "gewonnen", "keine", "keine", "Kontra", "0"])
    expect(preview(page)).to_have_text(
        ["Sepp -1,00 €", "Vroni +3,00 €", "Hias -1,00 €", "Resi -1,00 €"]
    )
    tap(save_button(page))
    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Herz-Solo Vroni")
    # Booked: the next reload starts the next game afresh.
    page.reload()
    expect(chosen).to_have_text(["Sauspiel", "gewonnen", "keine", "keine", "ohne", "0"])

    # Half entered, and another phone books a game meanwhile: the reloaded page says so,
    # as a phone that heard of it from the sheet would, and keeps what still applies.
    enter_sauspiel(page, "Hias", "Resi")
    book(evening, schreiber, type="wenz", declarer=players["Sepp"].pk)
    page.reload()
    notice = page.locator("#entry-status [role=alert]")
    expect(notice).to_contain_text("Inzwischen auf einem anderen Handy: Spiel 2 gebucht (Wenz")
    expect(notice).to_contain_text("Du hattest für Spiel 2 etwas anderes: Sauspiel Hias mit")
    expect(notice).to_contain_text("ist deine Auswahl übernommen, soweit sie noch passt")
    expect(page.locator(".deal")).to_contain_text("Spiel 3")
    expect(chosen).to_have_text(
        ["Sauspiel", "Hias", "Resi", "gewonnen", "keine", "keine", "ohne", "0"]
    )
    # ... and if it was this very game, nothing of it, so that it is not booked twice.
    book(evening, schreiber, type="sauspiel", declarer=players["Hias"].pk,
         partner=players["Resi"].pk)  # fmt: skip
    page.reload()
    expect(notice).to_contain_text("Das war das Spiel, das du eingegeben hast")
    expect(page.locator(".deal")).to_contain_text("Spiel 4")
    expect(chosen).to_have_text(["Sauspiel", "gewonnen", "keine", "keine", "ohne", "0"])
    # Told once: the next reload is quiet.
    page.reload()
    expect(page.locator(".deal")).to_contain_text("Spiel 4")
    expect(notice).to_have_count(0)
    assert Game.objects.filter(evening=evening).count() == 3


def test_back_after_another_phone_booked_brings_the_next_deal_and_says_so(
    page, log_in, runde, schreiber, players
):
    """The browser put a form's choices back on Back, also onto the page loaded anew,
    without a word: Re and Vroni's Solo, tapped for game 1, stood on game 2's form, and one
    tap on "Speichern" booked a game nobody played. Now the page says what was booked,
    as the poll does on a phone that shows the form."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    tap = Taps(page)
    for name, label in [("spiel", "Herz-Solo"), ("declarer", "Vroni"), ("kontra", "Re")]:
        tap(chip(page, name, label))
    expect(preview(page)).to_have_count(4)
    page.get_by_role("link", name="Verlauf").click()
    expect(page).to_have_url(re.compile(r"/verlauf/$"))
    book(evening, schreiber, type="sauspiel", declarer=players["Hias"].pk,
         partner=players["Resi"].pk)  # fmt: skip

    page.go_back()

    expect(page.locator(".deal")).to_contain_text("Spiel 2")
    notice = page.locator("#entry-status [role=alert]")
    expect(notice).to_contain_text("Spiel 1 gebucht (Sauspiel Hias mit Resi)")
    # Either game 1 had otherwise (to be corrected there) or already game 2 (walk 56).
    expect(notice).to_contain_text("War das Spiel 1, bitte hier nicht speichern, sondern")
    expect(notice.get_by_role("link", name="Spiel 1 korrigieren")).to_be_visible()
    expect(notice).to_contain_text("ist deine Auswahl übernommen, soweit sie noch passt")
    chosen = page.locator("#entry-fields input:checked + span")
    expect(chosen).to_have_text(["Herz-Solo", "Vroni", "gewonnen", "keine", "keine", "Re", "0"])
    assert Game.objects.filter(evening=evening).count() == 1


def test_logged_out_elsewhere_the_sheet_says_so_and_follows_on_after_logging_in(
    page, log_in, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")

    page.context.clear_cookies(name="sessionid")  # "Abmelden" in another tab
    word = page.locator("#flash .session-expired")
    expect(word).to_contain_text("das Blatt folgt nicht mehr", timeout=8000)
    expect(page.locator("#id_username")).to_have_count(0)  # no login page in the sheet

    log_in(schreiber)  # in another tab
    book(evening, schreiber, type="sauspiel", declarer=players["Vroni"].pk,
         partner=players["Resi"].pk)  # fmt: skip
    expect(sheet_row(page, 1)).to_contain_text("Sauspiel", timeout=8000)
    expect(word).to_have_count(0)


def schreiber_at(open_phone, schreiber, evening: Evening) -> tuple[Phone, Page]:
    """The Schreiber's own phone on the evening's screen. Not the harness's `page`: a test
    that causes console errors on purpose takes them out of `phone.errors`."""
    phone = open_phone(schreiber)
    phone.page.goto(f"/abend/{evening.pk}/")
    return phone, phone.page


def test_with_every_cookie_gone_the_first_tap_says_to_reload(open_phone, runde, schreiber, players):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    phone, page = schreiber_at(open_phone, schreiber, evening)
    enter_sauspiel(page, "Vroni", "Resi")

    page.context.clear_cookies()  # the session and the CSRF token
    save_button(page).tap()

    expect(page.locator("#entry-status [role=alert]")).to_have_text(
        "Nichts gebucht: die Anmeldung ist abgelaufen oder die Seite veraltet. Bitte die Seite "
        "neu laden (und wenn nötig neu anmelden)."
    )
    assert not Game.objects.exists()
    # The 403 shows in the console as a failed resource and htmx's response error.
    phone.caused(r"403|htmx:responseError")


def test_with_every_cookie_gone_after_the_sheet_said_so_the_tap_says_the_same(
    open_phone, app_url, runde, schreiber, players
):
    """The poll said "Neu anmelden – danach geht es hier von selbst weiter": the tap's word
    goes with it, not "Bitte die Seite neu laden" beside it; logged in again in another
    tab, the next tap books the game, once."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    phone, page = schreiber_at(open_phone, schreiber, evening)
    enter_sauspiel(page, "Vroni", "Resi")

    page.context.clear_cookies()  # the session and the CSRF token
    expect(page.locator("#flash .session-expired")).to_be_visible(timeout=8000)
    save_button(page).tap()

    expect(page.locator("#entry-status [role=alert]")).to_have_text(
        "Nichts gebucht: du bist nicht mehr angemeldet. Was du eingegeben hast, bleibt hier "
        "stehen: oben neu anmelden, dann nochmal tippen."
    )
    assert not Game.objects.exists()
    tab = log_in_on(page.context.new_page(), schreiber, app_url)
    tab.goto("/")
    save_button(page).tap()
    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Sauspiel Vroni")
    assert Game.objects.count() == 1
    phone.caused(r"403|htmx:responseError")


def test_a_slow_save_shows_that_it_is_on_its_way(open_phone, runde, schreiber, players):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    phone, page = schreiber_at(open_phone, schreiber, evening)
    enter_sauspiel(page, "Vroni", "Resi")
    held = []
    page.route("**/buchen/", lambda route: held.append(route))  # held until let through

    save_button(page).tap()

    page.wait_for_function("document.getElementById('entry-form').matches('.htmx-request')")
    button, after = save_button(page), "e => getComputedStyle(e, '::after').content"
    assert button.evaluate(after) == '"\u2009…" / ""'  # "Speichern …", the name unchanged
    held[0].continue_()
    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Sauspiel Vroni")
    assert button.evaluate(after) == "none"
    assert Game.objects.count() == 1


def test_a_schreiber_made_a_spieler_meanwhile_is_told_why_nothing_was_booked(
    open_phone, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    phone, page = schreiber_at(open_phone, schreiber, evening)
    enter_sauspiel(page, "Vroni", "Resi")

    Membership.objects.filter(user=schreiber).update(role=Membership.Role.PLAYER)
    save_button(page).tap()

    # Not "bitte nochmal tippen", which can never book: why, and the way on.
    expect(page.locator("#entry-status [role=alert]")).to_have_text(
        "Nicht mehr möglich: deine Rolle oder dein Zugang im Verein wurde geändert – nichts "
        "gespeichert. Seite neu laden"
    )
    assert not Game.objects.exists()
    # No preview of a game that cannot be booked (it showed Vroni's and Resi's win), and
    # no "Speichern" to tap again.
    expect(page.locator("#preview")).to_be_empty()
    expect(save_button(page)).to_be_hidden()
    page.get_by_role("link", name="Seite neu laden").tap()
    expect(page.locator("#entry-form")).to_have_count(0)
    expect(page.locator("#sheet")).to_be_visible()
    phone.caused(r"404|htmx:responseError")


def test_a_tap_after_a_demotion_leaves_no_preview_of_a_game_that_cannot_be_booked(
    open_phone, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    phone, page = schreiber_at(open_phone, schreiber, evening)
    enter_sauspiel(page, "Vroni", "Resi")
    expect(preview(page)).to_have_count(4)

    Membership.objects.filter(user=schreiber).update(role=Membership.Role.PLAYER)
    chip(page, "partner", "Hias").tap()  # its preview is refused

    expect(page.locator("#entry-status [role=alert]")).to_contain_text("nichts gespeichert")
    expect(page.locator("#preview")).to_be_empty()
    expect(save_button(page)).to_be_hidden()
    phone.caused(r"404|htmx:responseError")


def test_a_correction_refused_after_a_demotion_says_so_in_view(
    open_phone, runde, schreiber, players
):
    """The panel's word sits at its head, far above "Korrektur speichern" on a small
    phone: it comes into view."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    book(evening, schreiber, type="sauspiel", declarer=players["Vroni"].pk,
         partner=players["Resi"].pk)  # fmt: skip
    phone = open_phone(schreiber)
    page = phone.page
    page.set_viewport_size({"width": 320, "height": 568})
    page.goto(f"/abend/{evening.pk}/")
    sheet_row(page, 1).get_by_role("link").click()
    panel = page.locator("#correction")
    panel.locator(".f-kontra .chips").get_by_text("Kontra", exact=True).tap()
    preview_settled(page)

    Membership.objects.filter(user=schreiber).update(role=Membership.Role.PLAYER)
    page.get_by_role("button", name="Korrektur speichern").tap()

    word = panel.locator("#correction-status [role=alert]")
    expect(word).to_contain_text("Nicht mehr möglich: deine Rolle oder dein Zugang")
    expect(word).to_be_in_viewport()
    assert Game.objects.get(evening=evening).kontra == 0
    phone.caused(r"404|htmx:responseError")


def test_a_member_removed_meanwhile_is_told_and_the_sheet_stops_following(
    open_phone, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    phone, page = schreiber_at(open_phone, schreiber, evening)
    expect(page.locator("#poll")).to_have_count(1)

    Membership.objects.filter(user=schreiber).delete()

    expect(page.locator("#flash [role=alert]")).to_have_text(
        "Dieser Abend ist für dich nicht mehr zu sehen: dein Zugang zum Verein wurde geändert. "
        "Das Blatt folgt nicht mehr. Zur Startseite",
        timeout=8000,
    )
    expect(page.locator("#poll")).to_have_count(0)  # no request every 3 s, refused each
    phone.caused(r"404|htmx:responseError")


def test_a_member_removed_meanwhile_stops_following_a_closed_evening_too(
    open_phone, admin, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    services.close_evening(evening.pk, admin)
    phone = open_phone(schreiber)
    page = phone.page
    page.clock.install()  # a closed evening looks in every 30 s: the test's timer
    page.goto(f"/abend/{evening.pk}/")
    expect(page.get_by_text("Dieser Abend ist abgeschlossen.")).to_be_visible()
    asked = []
    page.on("request", lambda request: asked.append(request.url))

    Membership.objects.filter(user=schreiber).delete()
    page.clock.run_for(31_000)

    expect(page.locator("#flash [role=alert]")).to_contain_text(
        "Dieser Abend ist für dich nicht mehr zu sehen"
    )
    expect(page.locator("#poll")).to_have_count(0)
    page.clock.run_for(120_000)
    assert len([url for url in asked if "/blatt/" in url]) == 1, asked
    phone.caused(r"404|htmx:responseError")


# -- 6. a lost answer --------------------------------------------------------------------


def lose_the_first_answer(page: Page, pattern: str) -> list:
    """The first request to `pattern` reaches the server, which answers; the phone never
    hears. Later ones go through. Returns the requests' bodies, as they are sent."""
    sent = []

    def route_it(route):
        sent.append(route.request.post_data)
        if len(sent) == 1:
            route.fetch()
            route.abort()
        else:
            route.continue_()

    page.route(pattern, route_it)
    return sent


def booked_once_back_online(phone, page) -> None:
    """Back online, "Speichern" books the Sauspiel entered while offline, once. The
    preview's and the polls' requests failed while offline, on purpose."""
    assert Game.objects.count() == 0
    save_button(page).tap()
    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Sauspiel Vroni")
    assert Game.objects.count() == 1
    phone.caused(r"net::ERR_INTERNET_DISCONNECTED|htmx:sendError|htmx:afterRequest")


def test_without_a_connection_the_preview_says_so_and_saving_later_books_once(
    open_phone, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    phone, page = schreiber_at(open_phone, schreiber, evening)
    expect(page.locator("#preview")).to_contain_text("Vorschau: Spieler wählen")

    page.context.set_offline(True)
    chip(page, "declarer", "Vroni").tap()
    chip(page, "partner", "Resi").tap()
    expect(page.locator("#preview")).to_have_text(
        "Vorschau: keine Verbindung. Gespeichert wird, sobald wieder Netz ist und „Speichern“ "
        "getippt wird."
    )
    assert Game.objects.count() == 0

    page.context.set_offline(False)
    booked_once_back_online(phone, page)


def test_a_booking_without_a_connection_is_said_and_so_is_the_connection_s_return(
    open_phone, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    phone, page = schreiber_at(open_phone, schreiber, evening)
    enter_sauspiel(page, "Vroni", "Resi")
    page.locator("[name='kontra']").last.scroll_into_view_if_needed()  # down the long form
    status = page.locator("#entry-status")
    expect(status).not_to_be_in_viewport()

    page.context.set_offline(True)
    save_button(page).tap()
    expect(status).to_have_text(
        "Keine Verbindung. Bitte nochmal „Speichern“ tippen – gebucht wird nur einmal."
    )
    expect(status).to_be_in_viewport()  # above the form, not only where "Speichern" was
    page.context.set_offline(False)

    # The sheet's next poll gets through.
    expect(status).to_have_text(
        "Wieder verbunden. Bitte nochmal „Speichern“ tippen – gebucht wird nur einmal.",
        timeout=10_000,
    )
    booked_once_back_online(phone, page)


def test_saving_again_after_a_lost_answer_books_the_game_once(
    open_phone, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    phone, page = schreiber_at(open_phone, schreiber, evening)
    key = page.locator("#entry-form input[name='key']").input_value()

    # The first booking reaches the server, which books and commits; its answer is lost.
    requests = lose_the_first_answer(page, "**/abend/*/buchen/")

    enter_sauspiel(page, "Vroni", "Resi")
    save_button(page).tap()
    expect(save_button(page)).to_be_enabled()
    assert len(requests) == 1
    assert Game.objects.count() == 1  # booked, but the phone never heard
    expect(flash(page)).to_have_count(0)
    expect(page.locator("#entry-status [role=alert]")).to_have_text(
        "Keine Verbindung. Bitte nochmal „Speichern“ tippen – gebucht wird nur einmal."
    )
    # The abort shows up in the console as a failed resource and htmx's send error: both
    # are what this test does on purpose, so they are taken out; anything else still fails.
    phone.caused(r"net::ERR_FAILED|htmx:sendError|htmx:afterRequest")

    # Same form, same key: saving again finds the game instead of booking it twice.
    assert page.locator("#entry-form input[name='key']").input_value() == key
    save_button(page).tap()
    expect(flash(page)).to_contain_text("Schon gebucht: Spiel 1, Sauspiel Vroni")
    assert len(requests) == 2
    assert f"key={key}" in requests[1]

    game = Game.objects.get()
    assert str(game.key) == key
    assert amounts(game) == {"Vroni": 10, "Resi": 10, "Hias": -10, "Sepp": -10}
    assert LedgerEntry.objects.filter(evening=evening).count() == 4
    assert change_kinds(evening) == ["start", "book"]
    expect(totals(page)).to_have_text(["-0,10", "0,10", "-0,10", "0,10"])
    # The next game gets a fresh form with a new key.
    expect(page.locator("#entry-form input[name='key']")).not_to_have_value(key)
    expect(page.locator(".deal")).to_contain_text("Vroni gibt.")


def test_a_reload_after_a_lost_answer_says_this_phone_booked_the_game(
    open_phone, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    phone, page = schreiber_at(open_phone, schreiber, evening)
    lose_the_first_answer(page, "**/abend/*/buchen/")
    enter_sauspiel(page, "Vroni", "Resi")
    save_button(page).tap()
    expect(page.locator("#entry-status [role=alert]")).to_contain_text("Keine Verbindung")
    phone.caused(r"net::ERR_FAILED|htmx:sendError|htmx:afterRequest")

    page.reload()  # rather than "Speichern" again

    notice = page.locator("#entry-status [role=alert]")
    expect(notice).to_contain_text("Gebucht: Spiel 1, Sauspiel Vroni mit Resi – von diesem Handy")
    expect(notice).not_to_contain_text("anderen Handy")
    expect(page.locator(".f-declarer input:checked")).to_have_count(0)
    assert Game.objects.count() == 1


def test_this_phone_s_own_take_back_and_restore_are_not_news_from_another(
    page, log_in, runde, schreiber, players
):
    """A full page's round trip moves the deal as another phone's booking does: what the
    tab kept of the form was taken for a game half entered ("Inzwischen auf einem anderen
    Handy: Spiel 1 zurückgenommen")."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    book_sauspiel(page, 1, "Vroni", "Resi")
    notice = page.locator("#entry-status [role=alert]")

    # Game 2 half entered, then game 1 taken back after all.
    chip(page, "declarer", "Hias").tap()
    expect(page.locator("#preview")).to_have_text("Vorschau: Mitspieler wählen")
    page.get_by_role("button", name="Spiel 1 zurücknehmen").tap()
    expect(page.locator(".restore-bar")).to_contain_text("Zurückgenommen: Spiel 1")
    expect(page.locator(".deal")).to_contain_text("Spiel 2 · Sepp gibt")  # not Vroni now
    page.wait_for_timeout(300)  # the kept form would go to the preview at once
    expect(notice).to_have_count(0)

    chip(page, "declarer", "Sepp").tap()
    expect(page.locator("#preview")).to_have_text("Vorschau: Mitspieler wählen")
    page.locator(".restore-bar").get_by_role("button", name="Rückgängig").tap()
    expect(flash(page)).to_contain_text("Wiederhergestellt: Spiel 1")
    page.wait_for_timeout(300)
    expect(notice).to_have_count(0)

    # Struck on the game's own page (a link from a player's history), likewise.
    chip(page, "declarer", "Hias").tap()
    expect(page.locator("#preview")).to_have_text("Vorschau: Mitspieler wählen")
    page.goto(f"/abend/{evening.pk}/spiel/{Game.objects.get().pk}/")
    page.get_by_role("button", name="Spiel streichen").tap()
    expect(page.locator(".restore-bar")).to_contain_text("Gestrichen: Spiel 1")
    page.wait_for_timeout(300)
    expect(notice).to_have_count(0)


def test_a_game_half_entered_survives_correcting_and_striking_an_older_one_in_place(
    page, log_in, runde, schreiber, players
):
    evening = two_sauspiele(runde, players, schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    panel = page.locator("#correction")
    chosen = page.locator("#entry-fields .f-declarer input:checked + span, "
                          "#entry-fields .f-partner input:checked + span")  # fmt: skip

    # Game 3 half entered; then game 1 gets Kontra, in place.
    enter_sauspiel(page, "Sepp", "Hias")
    sheet_row(page, 1).get_by_role("link").click()
    panel.locator(".f-kontra .chips").get_by_text("Kontra", exact=True).tap()
    preview_settled(page)
    page.get_by_role("button", name="Korrektur speichern").tap()
    expect(page.locator("#restore-word")).to_contain_text("Korrigiert: Spiel 1")
    expect(chosen).to_have_text(["Sepp", "Hias"])
    expect(preview(page)).to_have_count(4)

    # ... and game 2 struck, in place: still game 3's choices.
    sheet_row(page, 2).get_by_role("link").click()
    panel.get_by_role("button", name="Spiel streichen").tap()
    expect(page.locator("#restore")).to_contain_text("Gestrichen: Spiel 2")
    expect(chosen).to_have_text(["Sepp", "Hias"])
    expect(preview(page)).to_have_count(4)
    page.reload()  # kept for the tab as it is now
    expect(chosen).to_have_text(["Sepp", "Hias"])
    assert Game.objects.get(number=1).kontra == 1


def test_back_closes_the_correction_panel_and_then_leaves_the_evening(
    page, log_in, runde, schreiber, players
):
    """Walk 69: Back with a game's panel open left the evening, the correction with it;
    as a phone's dialogs go, it closes the panel. Closed otherwise, no extra Back."""
    evening = two_sauspiele(runde, players, schreiber)
    log_in(schreiber).goto("/")
    page.goto(f"/abend/{evening.pk}/")
    panel = page.locator("#correction")
    title = page.get_by_role("heading", name="Spiel 1 korrigieren")

    sheet_row(page, 1).get_by_role("link").click()
    expect(title).to_be_visible()
    page.go_back()

    expect(panel).to_be_empty()
    assert page.url.endswith(f"/abend/{evening.pk}/")
    expect(page.locator("#entry-form")).to_be_visible()
    expect(sheet_row(page, 1)).to_be_in_viewport()  # where it was tapped (walk 74)
    # Abbrechen, or a correction saved: its entry goes too; Back then leaves.
    sheet_row(page, 1).get_by_role("link").click()
    page.get_by_role("button", name="Abbrechen").tap()
    expect(panel).to_be_empty()
    sheet_row(page, 2).get_by_role("link").click()
    panel.locator(".f-kontra .chips").get_by_text("Kontra", exact=True).tap()
    preview_settled(page)
    page.get_by_role("button", name="Korrektur speichern").tap()
    expect(page.locator("#restore-word")).to_contain_text("Korrigiert: Spiel 2")
    page.go_back()
    page.wait_for_url(lambda url: "/abend/" not in url)
    assert Game.objects.get(number=2).kontra == 1

    # A struck game counted again from its panel loads the page anew: one Back to the
    # evening as it was, one more leaves (walk 74: three).
    page.go_forward()
    sheet_row(page, 2).get_by_role("link").click()
    panel.get_by_role("button", name="Spiel streichen").tap()
    expect(page.locator("#restore")).to_contain_text("Gestrichen: Spiel 2")
    sheet_row(page, 2).get_by_role("link").click()
    panel.get_by_role("button", name="Wieder zählen").tap()
    expect(flash(page)).to_contain_text("Spiel 2")
    assert Game.objects.get(number=2).voided_at is None
    page.go_back()
    page.go_back()
    page.wait_for_url(lambda url: "/abend/" not in url)


def test_while_a_game_is_being_saved_its_choices_cannot_change(
    page, log_in, runde, schreiber, players
):
    """A tap on "verloren" after "Speichern" on a slow line would change nothing that is
    booked: the chips wait until the answer is there."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    held = []
    page.route("**/abend/*/buchen/", lambda route: held.append(route))  # the answer waits
    enter_sauspiel(page, "Vroni", "Resi")

    save_button(page).tap()
    expect(save_button(page)).to_be_disabled()
    lost = page.locator(".f-won .chip", has_text="verloren").locator("input")
    expect(lost).to_be_disabled()
    held[0].continue_()

    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Sauspiel Vroni")
    expect(lost).to_be_enabled()
    assert Game.objects.get().won


def test_a_strike_whose_answer_was_lost_says_so_and_striking_again_changes_nothing(
    open_phone, runde, schreiber, players
):
    evening = two_sauspiele(runde, players, schreiber)
    phone, page = schreiber_at(open_phone, schreiber, evening)
    sent = lose_the_first_answer(page, "**/streichen/")

    # 1. Struck, but the phone never hears: the panel says so, and stays open.
    sheet_row(page, 1).get_by_role("link").click()
    panel = page.locator("#correction")
    panel.get_by_role("button", name="Spiel streichen").tap()
    expect(panel.locator("#correction-status [role=alert]")).to_contain_text(
        "Keine Verbindung – vielleicht nicht gestrichen."
    )
    assert Game.objects.get(evening=evening, number=1).voided_at is not None
    phone.caused(r"net::ERR_FAILED|htmx:sendError|htmx:afterRequest")

    # 2. Tapped again: nothing more is struck; the phone's own strike is said as such, the
    # panel closes, the sheet shows it, and "Rückgängig" is offered.
    panel.get_by_role("button", name="Spiel streichen").tap()
    expect(flash(page)).to_contain_text("Schon gestrichen: Spiel 1, Sauspiel Vroni")
    expect(page.locator(".restore-bar")).to_contain_text("Gestrichen: Spiel 1, Sauspiel Vroni")
    expect(panel).to_be_empty()
    expect(sheet_row(page, 1)).to_contain_text("gestrichen")
    assert len(sent) == 2
    assert change_kinds(evening) == ["start", "book", "book", "void"]


# -- 7. following along ------------------------------------------------------------------


def test_a_spectator_follows_by_the_read_only_link_until_it_is_revoked(
    page, log_in, open_phone, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    open_share_section(page)
    expect(page.get_by_role("img", name="QR-Code des Zuschauer-Links")).to_be_visible()
    expect(page.locator(".qr svg")).to_be_visible()
    link = page.get_by_label("Zuschauer-Link", exact=True).input_value()
    assert link.endswith(f"/live/{evening.share_token}/")

    # 1. Someone at the next table opens the link without an account.
    spectator = open_phone()
    other = spectator.page
    other.goto(link)
    expect(other.get_by_text("neue Spiele erscheinen von selbst")).to_be_visible()
    expect(other.get_by_text("Noch kein Spiel gebucht.")).to_be_visible()
    expect(other.locator("#entry-form")).to_have_count(0)
    other.evaluate("window.stillTheSamePage = true")

    # 2. The Schreiber books; the spectator's sheet shows it without reloading.
    book_sauspiel(page, 1, "Vroni", "Resi")
    expect(sheet_row(other, 1)).to_contain_text("Sauspiel", timeout=10_000)
    expect(sheet_row(other, 1)).to_contain_text("Vroni")
    expect(other.get_by_role("status")).to_have_text(
        "Neu gebucht: Spiel 1, Sauspiel Vroni mit Resi"
    )
    expect(totals(other)).to_have_text(["-0,10", "0,10", "-0,10", "0,10"])
    expect(sheet_row(other, 1).get_by_role("link")).to_have_count(0)  # nothing to correct
    assert other.evaluate("window.stillTheSamePage") is True

    # 3. The link is revoked: it no longer opens anything. (The spectator leaves first, so
    # their open sheet does not poll the revoked link.)
    other.goto("about:blank")
    open_share_section(page)
    page.locator("details.share summary", has_text="Link sperren …").tap()  # two taps
    page.get_by_role("button", name="Ja, Link sperren").tap()
    expect(page.get_by_text("Der Zuschauer-Link ist gesperrt.")).to_be_visible()
    expect(page.get_by_label("Zuschauer-Link")).to_have_count(0)
    expect(page.get_by_role("button", name="Zuschauer-Link erzeugen")).to_be_visible()
    evening.refresh_from_db()
    assert evening.share_token is None
    assert Change.objects.get(evening=evening, kind=Change.Kind.SHARE).after == {"revoked": True}

    # Django's plain 404 page names no icon, so Chromium would ask for /favicon.ico on its
    # own, at a moment of its choosing; that request is not part of this journey.
    other.route("**/favicon.ico", lambda route: route.fulfill(status=204))
    response = other.goto(link)
    assert response.status == 404
    expect(other.locator("#sheet")).to_have_count(0)
    # The 404 page is what this step asks for; the browser reports it as a failed load.
    assert all("404" in error for error in spectator.errors), spectator.errors
    spectator.errors.clear()


def test_the_spectator_link_is_copied_and_its_script_comes_only_when_asked_for(
    open_phone, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    evening = services.renew_share_link(evening.pk, schreiber)
    # A phone without a share sheet, allowed to use the clipboard.
    page = open_phone(
        schreiber,
        init_script="delete Navigator.prototype.share;",
        permissions=("clipboard-read", "clipboard-write"),
    ).page
    page.goto(f"/abend/{evening.pk}/")
    fetched = "performance.getEntriesByType('resource').some(r => /share/.test(r.name))"

    assert page.evaluate(fetched) is False  # the table's screen stays small
    open_share_section(page)
    page.get_by_role("button", name="Kopieren").tap()

    expect(page.get_by_role("status").filter(has_text="Kopiert")).to_be_visible()
    link = page.get_by_label("Zuschauer-Link", exact=True).input_value()
    assert link.endswith(f"/live/{evening.share_token}/")
    assert page.evaluate("navigator.clipboard.readText()") == link


def test_a_spectator_sees_the_evening_closed_without_the_word_that_games_come(
    open_phone, admin, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    spectator = open_phone().page
    spectator.goto(f"/live/{evening.share_token}/")
    expect(spectator.get_by_text("neue Spiele erscheinen von selbst")).to_be_visible()

    book(evening, schreiber, type="sauspiel", declarer=players["Vroni"].pk,
         partner=players["Resi"].pk)  # fmt: skip
    services.close_evening(evening.pk, admin)

    expect(spectator.get_by_text("Dieser Abend ist abgeschlossen.")).to_be_visible(timeout=10_000)
    expect(spectator.get_by_text("neue Spiele erscheinen von selbst")).to_have_count(0)
    expect(sheet_row(spectator, 1)).to_contain_text("Vroni")


def test_a_closed_evening_opened_again_reloads_on_the_phones_that_show_it(
    page, log_in, open_phone, admin, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    book(evening, schreiber, type="sauspiel", declarer=players["Vroni"].pk,
         partner=players["Resi"].pk)  # fmt: skip
    services.close_evening(evening.pk, admin)
    # Both phones' timers are the test's: a closed evening looks in every 30 s.
    spectator = open_phone().page
    spectator.clock.install()
    spectator.goto(f"/live/{evening.share_token}/")
    page.clock.install()
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    for phone in (page, spectator):
        expect(phone.get_by_text("Dieser Abend ist abgeschlossen.")).to_be_visible()
    expect(page.locator("#entry-form")).to_have_count(0)

    services.reopen_evening(evening.pk, admin)
    for phone in (page, spectator):
        phone.clock.run_for(31_000)
        expect(phone.get_by_text("Dieser Abend ist abgeschlossen.")).to_have_count(0)
    expect(page.locator("#entry-form")).to_be_visible()  # the Schreiber books again

    # The spectator follows the evening again, every 3 s.
    book(evening, schreiber, type="sauspiel", declarer=players["Hias"].pk,
         partner=players["Sepp"].pk)  # fmt: skip
    spectator.clock.run_for(4_000)
    expect(sheet_row(spectator, 2)).to_contain_text("Sauspiel")


def test_last_weeks_evening_opened_again_takes_corrections_while_tonights_runs(
    page, log_in, admin, runde, schreiber, players
):
    last_week = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    book(last_week, schreiber, type="sauspiel", declarer=players["Vroni"].pk,
         partner=players["Resi"].pk)  # fmt: skip
    services.close_evening(last_week.pk, schreiber)
    tonight = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(admin).goto(f"/abend/{last_week.pk}/")

    page.get_by_text("Wieder öffnen …").tap()
    # Said before: tonight's games belong to tonight's evening (walk 32).
    expect(page.get_by_text("Neue Spiele nimmt er keine: die Runde spielt seit")).to_be_visible()
    page.get_by_role("button", name="Ja, wieder öffnen").tap()

    expect(page.get_by_text("Der Abend ist wieder offen, zum Korrigieren.")).to_be_visible()
    expect(page.get_by_text("Zum Korrigieren wieder offen: die Runde spielt")).to_be_visible()
    expect(page.locator("#entry-form")).to_have_count(0)
    expect(page.get_by_role("link", name=re.compile(r"^Zum neueren Abend"))).to_have_attribute(
        "href", f"/abend/{tonight.pk}/"
    )
    # A correction is one tap on the game's row, as at any open evening.
    sheet_row(page, 1).tap()
    expect(page.get_by_role("heading", name=re.compile("Spiel 1 korrigieren"))).to_be_visible()
    # The start page's "Läuft gerade" leads to tonight's evening only.
    page.goto("/")
    running = page.get_by_role("heading", name="Läuft gerade").locator("+ ul a")
    expect(running).to_have_attribute("href", f"/abend/{tonight.pk}/")
    no_horizontal_scroll(page)


def test_a_player_renamed_by_the_admin_shows_on_the_phones_that_follow_the_evening(
    page, log_in, open_phone, admin, club, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    book(evening, schreiber, type="sauspiel", declarer=players["Vroni"].pk,
         partner=players["Resi"].pk)  # fmt: skip
    spectator = open_phone().page
    spectator.goto(f"/live/{evening.share_token}/")
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    tap = Taps(page)
    tap(chip(page, "spiel", "Sauspiel"))
    tap(chip(page, "declarer", "Vroni"))  # half-way through the next game

    # The admin mends a typo in her name on the players' page.
    admin_phone = open_phone(admin).page
    admin_phone.goto(f"/verein/{club.pk}/spieler/{players['Vroni'].pk}/")
    admin_phone.get_by_label("Name").fill("Veronika")
    admin_phone.get_by_role("button", name="Speichern").click()
    expect(admin_phone.get_by_text("Gespeichert.")).to_be_visible()

    # Without a reload, both phones show the new name in the sheet's head and rows.
    for phone in (page, spectator):
        expect(phone.locator("#sheet thead")).to_contain_text("Veronika", timeout=10_000)
        expect(sheet_row(phone, 1)).to_contain_text("Veronika")
        expect(phone.locator("#sheet")).not_to_contain_text("Vroni")
    # The Schreiber's chips too, with the choice made before.
    expect(chip(page, "declarer", "Veronika")).to_be_visible()
    expect(page.locator(".f-declarer input:checked")).to_have_value(str(players["Vroni"].pk))
    tap(chip(page, "partner", "Hias"))
    tap(save_button(page))
    expect(flash(page)).to_contain_text("Gebucht: Spiel 2, Sauspiel Veronika")
    expect(sheet_row(spectator, 2)).to_contain_text("Veronika", timeout=10_000)
    game = Game.objects.get(number=2)
    assert (game.declarer, game.partner) == (players["Vroni"], players["Hias"])
    assert verify_ledger().startswith("ledger ok")


def test_a_player_follows_the_evening_on_their_own_phone(
    page, log_in, open_phone, club, runde, schreiber, players
):
    vroni = get_user_model().objects.create_user(
        username="vroni", password="Geheim-123-Schafkopf", first_name="Vroni"
    )
    Membership.objects.create(user=vroni, club=club, role=Membership.Role.PLAYER)
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi", "Wastl"], schreiber)

    follower = open_phone(vroni).page
    follower.goto(f"/abend/{evening.pk}/")
    expect(follower.get_by_text("Noch kein Spiel gebucht.")).to_be_visible()
    expect(follower.locator("#entry-form")).to_have_count(0)
    expect(follower.locator("#undo")).to_have_count(0)
    follower.evaluate("window.stillTheSamePage = true")

    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    tap = Taps(page)
    tap(chip(page, "spiel", "Wenz"))
    tap(chip(page, "declarer", "Resi"))
    tap(save_button(page))
    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Wenz Resi")

    expect(sheet_row(follower, 1)).to_contain_text("Wenz", timeout=10_000)
    # Said in the page's live region too, so that a screen reader reads it out.
    expect(follower.get_by_role("status").filter(has_text="Neu")).to_have_text(
        "Neu gebucht: Spiel 1, Wenz Resi"
    )
    # Sepp sat out as the dealer; Resi won 3 × 0,50 €.
    expect(totals(follower)).to_have_text(["0,00", "-0,50", "-0,50", "1,50", "-0,50"])
    assert follower.evaluate("window.stillTheSamePage") is True
    assert amounts(Game.objects.get()) == {"Resi": 150, "Vroni": -50, "Hias": -50, "Wastl": -50}


def test_a_player_made_schreiber_meanwhile_gets_the_entry_form_without_reloading(
    page, log_in, open_phone, club, admin, runde, schreiber, players
):
    vroni = get_user_model().objects.create_user(
        username="vroni", password="Geheim-123-Schafkopf", first_name="Vroni"
    )
    Membership.objects.create(user=vroni, club=club, role=Membership.Role.PLAYER)
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    follower = open_phone(vroni).page
    follower.goto(f"/abend/{evening.pk}/")
    expect(follower.locator("#entry-form")).to_have_count(0)

    log_in(admin).goto(f"/verein/{club.pk}/mitglieder/")
    page.get_by_role("combobox", name="Rolle von Vroni", exact=True).select_option("Schreiber")
    page.get_by_role("button", name="Ändern (Vroni)", exact=True).tap()

    expect(follower.locator("#entry-form")).to_be_visible(timeout=10_000)
    expect(flash(follower)).to_contain_text("du kannst hier jetzt Spiele eintragen")
    tap = Taps(follower)
    tap(chip(follower, "spiel", "Wenz"))
    tap(chip(follower, "declarer", "Resi"))
    tap(save_button(follower))
    expect(flash(follower)).to_contain_text("Gebucht: Spiel 1, Wenz Resi")
    assert Game.objects.get().created_by == vroni


# -- 8. fits a phone ---------------------------------------------------------------------


TAP_TARGETS = """() => [...document.querySelectorAll('.chip > span, button')]
  .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
  .map(el => ({text: el.textContent.trim(), height: el.getBoundingClientRect().height}))"""


def small_tap_targets(page: Page) -> list[dict]:
    targets = page.evaluate(TAP_TARGETS)
    assert targets, "no visible chips or buttons found"
    return [t for t in targets if t["height"] < MIN_TAP_HEIGHT]


@pytest.fixture
def six_at_the_table(runde, schreiber, players) -> Evening:
    """Six players and five games, one of them a doubled Wenz with Re: totals past 10 €."""
    evening = start(runde, players, NAMES, schreiber)
    p = {name: player.pk for name, player in players.items()}
    book(evening, schreiber, type="sauspiel", declarer=p["Vroni"], partner=p["Hias"])
    book(evening, schreiber, type="farbsolo", suit="eichel", declarer=p["Hias"], kontra=1)
    book(evening, schreiber, type="ramsch", won=False, loser=p["Resi"])
    book(
        evening,
        schreiber,
        type="wenz",
        declarer=p["Kathi"],
        laufende=4,
        schneider=True,
        kontra=2,
        doubled=1,
    )
    book(evening, schreiber, type="sauspiel", declarer=p["Sepp"], partner=p["Kathi"], won=False)
    return evening


def test_six_players_and_some_games_fit_a_phone_with_thumb_sized_targets(
    page, log_in, schreiber, players, six_at_the_table
):
    evening = six_at_the_table
    log_in(schreiber).goto(f"/abend/{evening.pk}/")

    expect(page.locator("#sheet tbody.game")).to_have_count(5)
    expect(page.locator("#sheet thead th")).to_have_count(6)
    no_horizontal_scroll(page)
    # The sheet itself fits: nothing is pushed past the right edge (the body hides any
    # horizontal overflow, which would otherwise cut the last column off unnoticed).
    sheet_box = page.locator("#sheet table").bounding_box()
    assert sheet_box["x"] + sheet_box["width"] <= PHONE["width"]
    # Sepp, Vroni, Hias, Resi, Wastl, Kathi
    expect(totals(page)).to_have_text(["-1,00", "-7,80", "-4,80", "-1,20", "-8,00", "22,80"])
    assert list(services.balances(evening).values()) == [-100, -780, -480, -120, -800, 2280]

    # Every chip and button is thumb-sized, for every kind of game the form shows.
    open_share_section(page)
    for game in ["Sauspiel", "Herz-Solo", "Wenz", "Ramsch"]:
        chip(page, "spiel", game).tap()
        preview_settled(page)
        assert small_tap_targets(page) == [], game
        no_horizontal_scroll(page)
    assert "ledger ok" in verify_ledger()


def test_a_lost_sauspiel_is_entered_without_scrolling(page, log_in, runde, schreiber, players):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    runde.club.name = "Schafkopffreunde Zum Goldenen Hirschen"
    runde.club.save()
    log_in(schreiber).goto(f"/abend/{evening.pk}/")

    # Who plays, with whom, and "verloren" are all above the sticky save bar.
    save_bar = page.locator("#entry-form .savebar").bounding_box()
    for field, label in [("declarer", "Resi"), ("partner", "Resi"), ("won", "verloren")]:
        box = chip(page, field, label).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= save_bar["y"], (field, box)
    # The way to the club is one line of links, not the club's navigation.
    expect(page.locator(".clubnav")).to_have_count(0)
    expect(page.locator("p.links").get_by_role("link", name=runde.club.name)).to_be_visible()
    assert page.locator("p.links").bounding_box()["height"] <= 48  # one line, cut short


@pytest.mark.parametrize(
    "name",
    [
        "Donnerstagsrunde im Wirtshaus zum Goldenen Hirschen",
        "Donnerstagsrunde-im-Wirtshaus-zum-Goldenen-Hirschen-an-der-Isar",
    ],
)
def test_a_long_runde_name_leaves_the_evening_screen_as_wide_as_the_phone(
    page, log_in, runde, schreiber, players, name
):
    runde.name = name
    runde.save()
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")

    for width, height in [(390, 844), (320, 568)]:
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # The line of links stays one line, the Runde's name cut short, the club's in view.
        assert page.locator("p.links").bounding_box()["height"] <= 48
        club = page.locator("p.links").get_by_role("link", name=runde.club.name)
        assert club.bounding_box()["x"] + club.bounding_box()["width"] <= width
    tap = Taps(page)
    tap(chip(page, "spiel", "Wenz"))
    tap(chip(page, "declarer", "Hias"))
    tap(save_button(page))
    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Wenz Hias")


def test_with_large_text_the_save_bar_leaves_the_chips_in_reach(
    page, log_in, runde, schreiber, players
):
    for player, name in zip(players.values(), ["Sepp Huber", "Veronika Obermaier",
            "Matthias Brandl", "Theresia Gruber", "Sebastian Wimmer", "Katharina Moser"],
            strict=True):  # fmt: skip
        player.name = name
        player.save()
    evening = start(runde, players, NAMES, schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    tap = Taps(page)
    tap(chip(page, "spiel", "Sauspiel"))
    tap(chip(page, "declarer", "Matthias Brandl"))
    tap(chip(page, "partner", "Sebastian Wimmer"))
    expect(preview(page)).to_have_count(4)

    bar = page.locator("#entry-form .savebar").bounding_box()
    assert bar["height"] <= 844 * 0.45, bar
    # A name breaks between its words, not inside one ("Se/pp").
    names = page.locator("#preview .who-gets").all()
    assert names and all(n.evaluate("el => el.getClientRects().length") <= 2 for n in names)
    save = save_button(page).bounding_box()
    assert save["y"] + save["height"] <= 844
    tap(save_button(page))
    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Sauspiel Matthias Brandl")

    # A Solo with Re and 14 Laufende: the declarer's amount has five digits and its "€",
    # each amount whole in view (none cut off at the bar's edge).
    for name, label in [("spiel", "Herz-Solo"), ("declarer", "Sepp Huber"),
            ("kontra", "Kontra"), ("kontra", "Re"), ("laufende", "14")]:  # fmt: skip
        tap(chip(page, name, label))
    expect(preview(page).first).to_contain_text("+")
    preview_settled(page)
    cut = page.evaluate(CUT_AMOUNTS)
    assert cut == [], cut


@pytest.mark.parametrize("text", ["100%", "200%"])
def test_a_chip_reached_by_tab_is_not_hidden_under_the_save_bar(
    page, log_in, runde, schreiber, players, text
):
    evening = start(runde, players, NAMES, schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    page.evaluate(f"document.documentElement.style.fontSize = '{text}'")
    tap = Taps(page)
    for name, label in [("spiel", "Sauspiel"), ("declarer", "Hias"), ("partner", "Wastl")]:
        tap(chip(page, name, label))
    expect(preview(page)).to_have_count(4)
    chip(page, "spiel", "Sauspiel").focus()

    covered = []
    for _ in range(40):  # through the chips and checkboxes below, by keyboard
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.closest('.savebar') !== null"):
            break
        covered += page.evaluate(COVERED_BY_THE_BAR)
    assert covered == [], covered


# The focused control's chip, if the sticky save bar covers any of it.
COVERED_BY_THE_BAR = """() => {
  const el = document.activeElement.closest('label') || document.activeElement;
  const bar = document.querySelector('#entry-form .savebar').getBoundingClientRect();
  const box = el.getBoundingClientRect();
  return box.bottom > bar.top + 1 ? [el.textContent.trim()] : []; }"""


def test_in_a_high_contrast_mode_a_chosen_chip_stands_out_by_more_than_bold_type(
    page, log_in, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    page.emulate_media(forced_colors="active")
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    chip(page, "spiel", "Sauspiel").tap()

    def background(label: str) -> str:
        return chip(page, "spiel", label).evaluate("el => getComputedStyle(el).backgroundColor")

    assert background("Sauspiel") != background("Wenz")


# An amount in the preview that reaches past the bar's visible edge (1 px leeway).
CUT_AMOUNTS = """() => { const line = document.querySelector('#preview');
  const edge = line.getBoundingClientRect().right + 1;
  return [...line.querySelectorAll('.amount')]
    .filter(el => el.getBoundingClientRect().right > edge).map(el => el.textContent); }"""


# An amount in the standing that reaches past its box (1 px leeway).
OVERFLOWING_STANDING = """() => [...document.querySelectorAll('#standing .standing-cell')]
  .filter(cell => { const amount = cell.querySelector('.amount').getBoundingClientRect();
    const box = cell.getBoundingClientRect();
    return amount.right > box.right + 1 || amount.left < box.left - 1; })
  .map(cell => cell.textContent.trim())"""


@pytest.mark.parametrize("seated", [4, 5, 6])
def test_with_large_text_each_amount_of_the_standing_and_the_sheet_stays_whole(
    page, log_in, runde, schreiber, players, seated
):
    evening = start(runde, players, NAMES[:seated], schreiber)
    for _ in range(3):  # amounts with a sign and two digits before the comma
        declarer = services.next_deal(evening).playing[0]
        book(evening, schreiber, type="farbsolo", suit="herz", declarer=declarer.pk,
             won=False, kontra=2, laufende=8)  # fmt: skip
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    rows = (
        "new Set([...document.querySelectorAll('#standing .standing-cell')]"
        ".map(cell => cell.offsetTop)).size"
    )
    for width in (390, 320):  # the phone's own text size: one row (six at 320 px: two
        page.set_viewport_size({"width": width, "height": 568})  # rows, not 9 px type)
        assert page.evaluate(rows) == (2 if seated == 6 and width == 320 else 1)
        assert page.evaluate(OVERFLOWING_STANDING) == []

    page.evaluate("document.documentElement.style.fontSize = '200%'")

    assert page.evaluate(rows) > 1
    assert page.evaluate(OVERFLOWING_STANDING) == []
    # The sheet below: every amount whole in its cell ("-0,50-0,50" ran together), the
    # page no wider than the phone.
    assert page.evaluate(CLIPPED_CELLS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 320


# A cell hides what does not fit (overflow: hidden); 1 px leeway for sub-pixel rounding.
CLIPPED_CELLS = """() => [...document.querySelectorAll('#sheet th, #sheet td')]
  .filter(el => el.scrollWidth > el.clientWidth + 1)
  .map(el => el.textContent.trim().replace(/\\s+/g, ' '))"""


def test_every_name_and_amount_on_a_six_player_sheet_can_be_read(
    page, log_in, schreiber, six_at_the_table
):
    log_in(schreiber).goto(f"/abend/{six_at_the_table.pk}/")
    expect(page.locator("#sheet tbody.game")).to_have_count(5)

    assert page.evaluate(CLIPPED_CELLS) == []


# The least space between two names in the sheet's head: from where one's text ends to
# where the next one's begins (a name cut short with "…" begins at its cell's padding).
NAME_GAP = """() => { const cells = [...document.querySelectorAll('#sheet thead th')];
  const text = cells.map(th => { const range = document.createRange();
    range.selectNodeContents(th); const box = range.getBoundingClientRect();
    const left = th.getBoundingClientRect().left + parseFloat(getComputedStyle(th).paddingLeft);
    return [Math.max(box.left, left), Math.min(box.right, th.getBoundingClientRect().right)]; });
  return Math.min(...text.slice(1).map((t, i) => t[0] - text[i][1])); }"""


@pytest.mark.parametrize(("seated", "least_gap"), [(5, 3), (6, 2)])
def test_names_in_the_sheet_s_head_do_not_run_together_on_a_narrow_phone(
    page, log_in, runde, schreiber, players, seated, least_gap
):
    """Right-aligned over their amounts, "Vroni" and "Schorsch" read "VroniSchorsch".
    (Six at 320 px leave "Schorsch" no more room than 2 px beside it, in letters 9 px
    high: a third of a letter's height between two names.)"""
    players["Resi"].name = "Schorsch"
    players["Resi"].save()
    names = ["Sepp", "Vroni", "Resi", "Kathi", "Hias", "Wastl"][:seated]
    evening = start(runde, players, names, schreiber)
    page.set_viewport_size({"width": 320, "height": 568})
    log_in(schreiber).goto(f"/abend/{evening.pk}/")

    expect(page.locator("#sheet thead th")).to_have_count(seated)
    gap = page.evaluate(NAME_GAP)
    assert gap >= least_gap, gap
    assert page.evaluate(CLIPPED_CELLS) == []


# -- the preview on a slow network -------------------------------------------------------


def test_the_preview_keeps_up_with_quick_taps_on_a_slow_network(
    page, log_in, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    tap = Taps(page)
    tap(chip(page, "declarer", "Vroni"))
    tap(chip(page, "partner", "Resi"))
    expect(preview(page)).to_have_text(
        ["Sepp -0,10 €", "Vroni +0,10 €", "Hias -0,10 €", "Resi +0,10 €"]
    )

    # A pub's mobile network: every answer takes half a second. The Schreiber taps
    # Kontra and, a moment later, Re, without waiting for the sticky bar.
    network = page.context.new_cdp_session(page)
    network.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 500, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    chip(page, "kontra", "Kontra").tap()
    chip(page, "kontra", "Re").tap()

    # What the screen says must be what "Speichern" would book: Re, 4 x 0,10 €.
    expect(preview(page)).to_have_text(
        ["Sepp -0,40 €", "Vroni +0,40 €", "Hias -0,40 €", "Resi +0,40 €"], timeout=5_000
    )


def test_a_booking_after_a_screenshot_breaks_no_content_security_policy(
    page, log_in, runde, schreiber, players
):
    """A screenshot (caret hidden, Playwright's default) leaves style="" on every input;
    the booking's answer replaces #id_key, #id_deal and #sheet-version, and htmx must not
    copy that empty style onto the new ones (style-src 'self' refuses it: the page
    fixture fails the test on the console error)."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    page.screenshot()
    expect(page.locator("#id_key")).to_have_attribute("style", "")
    book_sauspiel(page, 1, "Vroni", "Resi")
    page.screenshot()
    book_sauspiel(page, 2, "Hias", "Sepp")


@pytest.mark.parametrize(("size", "scrolled"), [((320, 568), True), ((390, 844), False)])
def test_the_first_tap_is_in_view_on_a_small_phone(
    page, log_in, runde, schreiber, players, size, scrolled
):
    """At 320 × 568 the Spieler's chips lay under the save bar: the first game took a
    swipe before its three taps."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi", "Wastl"], schreiber)
    page.set_viewport_size(dict(zip(("width", "height"), size, strict=True)))

    log_in(schreiber).goto(f"/abend/{evening.pk}/")

    bar = page.locator(".savebar").bounding_box()
    for name in ("Vroni", "Hias", "Resi", "Wastl"):
        box = chip(page, "declarer", name).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= bar["y"], name
    expect(page.locator("#deal")).to_be_in_viewport()
    assert (page.evaluate("scrollY") > 0) is scrolled

    # After a booking the word above grows: the next game's chips stay in view all the same.
    book_sauspiel(page, 1, "Vroni", "Hias")
    expect(page.locator("#deal")).to_contain_text("Spiel 2")
    bar = page.locator(".savebar").bounding_box()
    assert page.locator(".f-spiel").bounding_box()["y"] >= 0
    for name in ("Sepp", "Hias", "Resi", "Wastl"):  # Vroni deals game 2
        box = chip(page, "declarer", name).bounding_box()
        assert box["y"] + box["height"] <= bar["y"], name


def test_the_declarer_is_not_offered_as_their_own_partner(page, log_in, runde, schreiber, players):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    partner_chips = page.locator(".f-partner label.chip:visible")
    expect(partner_chips).to_have_text(["Sepp", "Vroni", "Hias", "Resi"])

    tap = Taps(page)
    tap(chip(page, "partner", "Resi"))
    tap(chip(page, "declarer", "Resi"))  # Resi's chip leaves the partners, unchosen

    expect(partner_chips).to_have_text(["Sepp", "Vroni", "Hias"])
    expect(page.locator(".f-partner input:checked")).to_have_count(0)
    expect(page.get_by_text("Vorschau: Mitspieler wählen")).to_be_visible()
    tap(chip(page, "partner", "Hias"))
    tap(save_button(page))
    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Sauspiel Resi")
    # The next game's form offers everyone again.
    expect(partner_chips).to_have_text(["Sepp", "Vroni", "Hias", "Resi"])
    game = Game.objects.get()
    assert (game.declarer, game.partner) == (players["Resi"], players["Hias"])


def test_a_booking_whose_answer_never_comes_frees_speichern_and_says_so(
    open_phone, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    phone, page = schreiber_at(open_phone, schreiber, evening)
    assert page.evaluate("htmx.config.timeout") == 20_000  # templates/base.html
    page.evaluate("htmx.config.timeout = 1500")  # so that the test waits 1.5 s, not 20
    held = []

    def hold_the_first(route):
        held.append(route)
        if len(held) > 1:
            route.continue_()

    page.route("**/abend/*/buchen/", hold_the_first)
    enter_sauspiel(page, "Vroni", "Resi")
    save_button(page).tap()

    # No answer: not "Speichern …" greyed out for good, but a word and the button again.
    expect(page.locator("#entry-status [role=alert]")).to_have_text(
        "Keine Verbindung. Bitte nochmal „Speichern“ tippen – gebucht wird nur einmal."
    )
    expect(save_button(page)).to_be_enabled()
    assert Game.objects.count() == 0
    phone.caused(r"htmx:timeout|htmx:afterRequest")
    save_button(page).tap()
    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Sauspiel Vroni")
    assert Game.objects.count() == 1
    held[0].abort()


def test_a_phone_following_the_sheet_says_when_its_poll_gets_no_answer(
    open_phone, runde, schreiber, admin, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    phone, page = schreiber_at(open_phone, schreiber, evening)
    word = page.locator("#poll-offline")
    expect(word).to_be_hidden()

    page.route("**/abend/*/blatt/**", lambda route: route.abort())
    expect(word).to_be_in_viewport(timeout=8000)  # above the standing it concerns
    expect(word).to_have_text(
        "Keine Verbindung: das Blatt ist vielleicht nicht aktuell. Es holt nach, sobald "
        "wieder Netz ist.",
        timeout=8000,
    )
    expect(word).to_be_visible()
    # A booking from this phone gets through: its answer brings the sheet up to date.
    enter_sauspiel(page, "Vroni", "Resi")
    save_button(page).tap()
    expect(flash(page)).to_contain_text("Gebucht: Spiel 1")
    expect(word).to_be_hidden(timeout=1000)
    expect(word).to_be_visible(timeout=8000)  # the next poll gets no answer again
    p = {name: player.pk for name, player in players.items()}
    book(evening, admin, type="sauspiel", declarer=p["Hias"], partner=p["Sepp"])
    page.unroute("**/abend/*/blatt/**")

    # The next poll gets through: the word goes, and the game booked meanwhile comes.
    expect(word).to_be_hidden(timeout=8000)
    expect(sheet_row(page, 2)).to_contain_text("Sauspiel Hias")
    phone.caused(r"net::ERR_FAILED|htmx:sendError|htmx:afterRequest")


def test_a_correction_without_a_connection_says_so_in_its_preview_and_after_saving(
    open_phone, runde, schreiber, players
):
    evening = two_sauspiele(runde, players, schreiber)
    phone, page = schreiber_at(open_phone, schreiber, evening)
    panel = page.locator("#correction")
    sheet_row(page, 1).get_by_role("link").click()
    expect(panel.locator("#correction-preview")).to_contain_text("Dieses Spiel:")

    page.context.set_offline(True)
    panel.locator(".f-kontra .chips").get_by_text("Kontra", exact=True).tap()
    # Not the amounts of before as if they were the new ones.
    expect(panel.locator("#correction-preview")).to_have_text("Vorschau: keine Verbindung.")
    page.get_by_role("button", name="Korrektur speichern").tap()
    status = panel.locator("#correction-status")
    expect(status).to_contain_text("Keine Verbindung – vielleicht nicht gespeichert.")
    page.context.set_offline(False)

    # The sheet's next poll gets through: the word says so; saving then saves once.
    expect(status).to_have_text("Wieder verbunden. Bitte nochmal tippen.", timeout=10_000)
    page.get_by_role("button", name="Korrektur speichern").tap()
    expect(page.locator("#restore-word")).to_contain_text("Korrigiert: Spiel 1")
    assert Game.objects.get(number=1).kontra == 1
    assert change_kinds(evening).count("correct") == 1
    phone.caused(r"net::ERR_INTERNET_DISCONNECTED|htmx:sendError|htmx:afterRequest")


def game_1_open_in_the_panel(page, log_in, runde, schreiber, players):
    """Two Sauspiele booked, and the Schreiber's phone with game 1 open in place."""
    evening = two_sauspiele(runde, players, schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    panel = page.locator("#correction")
    sheet_row(page, 1).get_by_role("link").click()
    expect(panel.get_by_role("button", name="Spiel streichen")).to_be_visible()
    return evening, panel


def test_the_panel_of_a_game_struck_elsewhere_gives_way_to_a_word_in_view(
    page, log_in, runde, schreiber, admin, players
):
    evening, panel = game_1_open_in_the_panel(page, log_in, runde, schreiber, players)

    services.void_game(evening.pk, Game.objects.get(number=1).pk, admin)

    # Said at the top, and in the bar with "Rückgängig" (walk 60).
    expect(flash(page)).to_contain_text("Gestrichen: Spiel 1", timeout=8000)
    expect(page.locator("#restore-word")).to_contain_text("Gestrichen: Spiel 1")
    expect(panel.get_by_role("button", name="Spiel streichen")).to_have_count(0)
    # Where the panel was, in view: the sheet's word is at the top (walk 38). Not "deine
    # Korrektur", of a panel only opened (walk 71).
    word = panel.get_by_role("alert")
    expect(word).to_have_text(
        "Spiel 1 ist inzwischen gestrichen; hier ist nichts gespeichert. Soll es doch "
        "zählen, die Zeile antippen und „Wieder zählen“."
    )
    expect(word).to_be_in_viewport()
    panel.get_by_role("button", name="Schließen").tap()
    expect(panel).to_be_empty()

    # The struck game's panel, and the game counts again elsewhere: it gives way too,
    # rather than offer "Wieder zählen" for a game that counts.
    sheet_row(page, 1).get_by_role("link").click()
    expect(panel.get_by_role("button", name="Wieder zählen")).to_be_visible()
    services.restore_game(evening.pk, Game.objects.get(number=1).pk, admin)
    expect(flash(page)).to_contain_text("Zählt wieder: Spiel 1", timeout=8000)
    expect(panel.get_by_role("alert")).to_have_text(
        "Spiel 1 zählt inzwischen wieder: zum Korrigieren die Zeile antippen."
    )
    expect(panel.get_by_role("button", name="Wieder zählen")).to_have_count(0)
    assert_accessible(page, "a struck game's panel")


def test_a_correction_is_taken_back_in_one_tap(page, log_in, runde, schreiber, admin, players):
    """Walk 38: a mistaken correction had to be typed back by hand from the Verlauf."""
    evening, panel = game_1_open_in_the_panel(page, log_in, runde, schreiber, players)
    first = Game.objects.get(number=1)
    panel.locator(".f-kontra .chips").get_by_text("Kontra", exact=True).tap()
    preview_settled(page)
    page.get_by_role("button", name="Korrektur speichern").tap()
    bar = page.locator(".restore-bar")
    expect(bar).to_contain_text("Korrigiert: Spiel 1, Sauspiel Vroni mit Resi · gewonnen · Kontra")
    # What it was, too (walk 52: a result corrected to "gewonnen" went unsaid).
    expect(bar).to_contain_text("(vorher: Sauspiel Vroni mit Resi · gewonnen)")
    expect(bar).to_be_in_viewport()
    first.refresh_from_db()
    assert first.kontra == 1

    bar.get_by_role("button", name="Rückgängig").tap()

    expect(flash(page)).to_contain_text("Korrektur zurückgenommen: Spiel 1, Sauspiel Vroni")
    expect(flash(page)).not_to_contain_text("Kontra")
    # Nothing offered to take the taking back back (walk 41: it flipped on each tap).
    expect(page.locator(".restore-bar")).to_have_count(0)
    first.refresh_from_db()
    assert first.kontra == 0
    assert amounts(first) == {"Vroni": 10, "Resi": 10, "Sepp": -10, "Hias": -10}
    # On the record: a correction back, as any other (nothing edited).
    assert change_kinds(evening) == ["start", "book", "book", "correct", "correct"]
    back = Change.objects.filter(kind=Change.Kind.CORRECT).order_by("pk").last()
    assert back.before["kontra"] == 1 and back.after["kontra"] == 0
    assert "ledger ok" in verify_ledger()


def test_a_row_opened_right_after_a_booking_says_what_striking_it_would_change(
    page, log_in, runde, schreiber, players
):
    """Walk 63: a booking's answer (swapped without a settle) left a mark that took the
    strike's preview off the next panel opened, as if the sheet had changed under it."""
    evening = two_sauspiele(runde, players, schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    book_sauspiel(page, 3, "Vroni", "Hias")
    panel = page.locator("#correction")

    sheet_row(page, 1).get_by_role("link").click()

    expect(panel.get_by_role("button", name="Spiel streichen")).to_be_visible()
    page.wait_for_timeout(300)  # past the panel's settle, which took the preview off
    expect(panel.locator(".strike-effects")).to_contain_text("(bisher")


def test_an_open_panel_s_previews_follow_a_change_elsewhere(
    page, log_in, runde, schreiber, admin, players
):
    evening, panel = game_1_open_in_the_panel(page, log_in, runde, schreiber, players)
    expect(panel.locator(".strike-effects")).to_contain_text("Sepp 0,10 € (bisher 0,00 €)")
    panel.locator(".f-kontra .chips").get_by_text("Kontra", exact=True).tap()
    moves = panel.locator("#correction-preview .moves")
    expect(moves).to_contain_text("Sepp -0,10 € (bisher 0,00 €)")

    # Another phone: game 2 was lost. What striking game 1 would leave is new: that
    # preview says it is old (walk 68: it went unsaid); the correction's is asked anew.
    p = {name: player.pk for name, player in players.items()}
    lost = services.GameInput("sauspiel", declarer=p["Hias"], partner=p["Sepp"], won=False)
    services.correct_game(evening.pk, Game.objects.get(number=2).pk, lost, admin)

    stale = panel.locator(".strike-effects")
    expect(stale).to_have_text(
        "Ohne dieses Spiel: am Abend hat sich inzwischen etwas geändert. Wirkt das Streichen "
        "jetzt anders als hier zuerst gezeigt, zeigt „Spiel streichen“ es, bevor es streicht.",
        timeout=8000,
    )
    expect(moves).to_contain_text("Sepp -0,30 € (bisher -0,20 €)", timeout=8000)
    expect(panel.locator(".f-kontra input:checked")).to_have_value("1")
    page.get_by_role("button", name="Korrektur speichern").tap()
    expect(page.locator("#restore-word")).to_contain_text("Korrigiert: Spiel 1, Sauspiel")
    assert Game.objects.get(number=1).kontra == 1


def test_a_late_second_tap_on_speichern_is_not_read_as_an_empty_game(
    page, log_in, runde, schreiber, players
):
    """Walk 68: the second of a double tap landed after the answer, on the fresh form,
    and "Bitte wählen, wer spielt." stood in red under "Gebucht: Spiel 1"."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    chip(page, "declarer", "Hias").tap()
    chip(page, "partner", "Sepp").tap()
    save_button(page).tap()
    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Sauspiel Hias")

    sent = []
    page.on("request", lambda request: sent.append(request.url))
    save_button(page).tap()  # the same thumb, a moment late
    page.wait_for_timeout(600)  # what its answer would have taken

    assert not [url for url in sent if "/buchen/" in url]
    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Sauspiel Hias")
    expect(page.get_by_text("Bitte wählen, wer spielt.")).to_have_count(0)
    assert evening.games.count() == 1
    # A while later, "Speichern" with nobody chosen says so, as before.
    page.wait_for_timeout(1600)
    save_button(page).tap()
    expect(page.get_by_text("Bitte wählen, wer spielt.")).to_be_visible()
    assert evening.games.count() == 1


def test_a_strike_whose_answer_is_slow_is_not_told_as_another_phones(
    page, log_in, runde, schreiber, players
):
    """Walk 69: while the strike's answer was on its way, a poll found the deal moved and
    said "Inzwischen auf einem anderen Handy: Spiel 2 gestrichen", and it stayed."""
    evening = two_sauspiele(runde, players, schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    sheet_row(page, 2).get_by_role("link").click()
    strike = page.locator("#correction").get_by_role("button", name="Spiel streichen")
    expect(strike).to_be_visible()
    polls = []
    page.on(
        "request", lambda request: polls.append(request.url) if "/blatt/" in request.url else None
    )

    held = []
    page.route("**/streichen/", lambda route: held.append(route))
    strike.tap()
    page.wait_for_timeout(4000)  # the answer on its way for more than a poll's 3 seconds
    assert held and not polls  # no poll meanwhile
    held[0].continue_()

    expect(page.locator("#restore-word")).to_contain_text("Gestrichen: Spiel 2")
    assert not evening.games.get(number=2).is_booked
    page.wait_for_timeout(4000)  # the polls go on afterwards, and say nothing of it
    assert polls
    expect(page.locator("#entry-status")).not_to_contain_text("anderen Handy")
    expect(page.locator(".deal")).to_contain_text("Vroni gibt")


def test_on_the_start_page_enter_ticks_a_dealer_and_a_refused_newcomer_keeps_the_focus(
    page, log_in, club, runde, schreiber, players
):
    """Walk 79: Enter on a first dealer's chip sent the form as "Hinzufügen" ("Bitte einen
    Namen eingeben."); a newcomer's name refused came back at #neu with the focus on
    nothing, and the field described by an error id that was not there."""
    log_in(schreiber).goto(f"/verein/{club.pk}/runde/{runde.pk}/abend/neu/")
    for seat, name in enumerate(["Sepp", "Vroni", "Hias", "Resi"], 1):
        page.get_by_role("combobox", name=f"Platz {seat}", exact=True).select_option(label=name)
    hias = page.locator("#id_first_dealer").get_by_role("radio", name="Hias")

    hias.focus()
    page.keyboard.press("Enter")

    expect(hias).to_be_checked()
    expect(page).to_have_url(re.compile(r"/abend/neu/$"))
    newcomer = page.get_by_label("Neu am Tisch (noch nicht im Verein)")
    newcomer.fill("Vróni")
    newcomer.press("Enter")
    expect(newcomer).to_have_attribute("aria-invalid", "true")
    expect(newcomer).to_be_focused()
    said = page.locator(f"#{newcomer.get_attribute('aria-describedby')}")
    expect(said).to_contain_text("Vroni")
    assert not Evening.objects.exists()
