"""Settling up on a phone: "bezahlt", a mis-tap taken back with "Storno", a part payment.

Hias won a Herz-Solo: Sepp, Vroni and Resi owe him 0,50 € each.
"""

import re

from playwright.sync_api import Page, expect

from evenings.models import Change, LedgerEntry
from tests.browser.evening_screen import (
    MIN_TAP_HEIGHT,
    book,
    change_kinds,
    no_horizontal_scroll,
    start,
    verify_ledger,
)


def balances(page: Page):
    """The balances of the evening, games and payments, in seating order."""
    return page.locator("dl.balances dd")


def transfer(page: Page, text: str):
    return page.locator("li.transfer").filter(has_text=text)


def paid(page: Page):
    return page.locator("li.payment > span")


def payment_entries(evening) -> list[tuple[str, int]]:
    entries = LedgerEntry.objects.filter(evening=evening, kind=LedgerEntry.Kind.PAYMENT)
    return list(entries.order_by("pk").values_list("player__name", "amount"))


def test_a_mis_tap_is_taken_back_and_a_part_payment_is_booked(
    page, log_in, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    book(evening, schreiber, type="farbsolo", suit="herz", declarer=players["Hias"].pk)
    log_in(schreiber).goto(f"/abend/{evening.pk}/abrechnung/")
    transfers = page.locator("li.transfer > span")
    expect(transfers).to_have_text(
        ["Sepp zahlt Hias 0,50 €", "Vroni zahlt Hias 0,50 €", "Resi zahlt Hias 0,50 €"]
    )

    # 1. "bezahlt" on Sepp's line, though Vroni was the one who paid: a mis-tap. (A screen
    #    reader names the line with the button.)
    paid_button = transfer(page, "Sepp zahlt Hias").get_by_role("button", name="bezahlt")
    expect(paid_button).to_have_accessible_description("Sepp zahlt Hias 0,50 €")
    paid_button.tap()
    expect(page.get_by_text("Zahlung eingetragen:")).to_be_visible()
    expect(paid(page)).to_have_text(["Sepp hat Hias 0,50 € gezahlt"])
    expect(balances(page)).to_have_text(["0,00 €", "-0,50 €", "+1,00 €", "-0,50 €"])
    mistake = Change.objects.get(evening=evening, kind=Change.Kind.PAYMENT)

    # 2. "Storno": the payment is taken back by one the other way, on the record.
    page.locator("li.payment summary").tap()  # "Storno …": two taps, as closing
    storno = page.locator("li.payment").get_by_role("button", name="Ja, stornieren")
    assert storno.bounding_box()["height"] >= MIN_TAP_HEIGHT
    storno.tap()
    expect(page.get_by_text("Zahlung storniert: Sepp an Hias, 0,50 €")).to_be_visible()
    expect(balances(page)).to_have_text(["-0,50 €", "-0,50 €", "+1,50 €", "-0,50 €"])
    # Nothing paid stands; the payment taken back is listed as such (walk 59).
    expect(paid(page)).to_have_count(0)
    expect(page.locator("li.cancelled-payment > span")).to_have_text(
        ["Sepp hat Hias 0,50 € gezahlt"]
    )
    expect(page.get_by_role("heading", name="Storniert")).to_be_visible()
    expect(transfers).to_have_text(
        ["Sepp zahlt Hias 0,50 €", "Vroni zahlt Hias 0,50 €", "Resi zahlt Hias 0,50 €"]
    )
    assert payment_entries(evening) == [("Sepp", 50), ("Hias", -50), ("Hias", 50), ("Sepp", -50)]
    cancellation = Change.objects.filter(evening=evening, kind=Change.Kind.PAYMENT).last()
    assert cancellation.after == {
        "payer": players["Hias"].pk,
        "payee": players["Sepp"].pk,
        "amount": 50,
        "cancels": mistake.pk,
    }

    # 3. Vroni pays 0,20 € of her 0,50 €: "Anderer Betrag", prefilled with what she owes.
    line = transfer(page, "Vroni zahlt Hias")
    other = line.locator("summary").filter(has_text="Anderer Betrag")
    expect(other).to_have_accessible_description(re.compile("^Vroni zahlt Hias 0,50"))
    line.get_by_text("Anderer Betrag").tap()
    typed = line.get_by_label("Vroni zahlt Hias (in Euro)")
    expect(typed).to_have_value("0,50")
    expect(typed).to_have_attribute("inputmode", "decimal")
    no_horizontal_scroll(page)
    # A typo first: named at the field, which keeps what was typed; nothing booked.
    typed.fill("0,2o")
    line.locator("details").get_by_role("button", name="Betrag eintragen").tap()
    line = transfer(page, "Vroni zahlt Hias")
    typed = line.get_by_label("Vroni zahlt Hias (in Euro)")
    expect(typed).to_have_value("0,2o")
    expect(typed).to_have_accessible_description(
        "Bitte einen Betrag in Euro eingeben, z. B. 0,10 oder 1,50."
    )
    expect(balances(page)).to_have_text(["-0,50 €", "-0,50 €", "+1,50 €", "-0,50 €"])
    assert len(payment_entries(evening)) == 4

    typed.fill("0,2")
    line.locator("details").get_by_role("button", name="Betrag eintragen").tap()
    expect(page.get_by_text("Zahlung eingetragen:")).to_be_visible()
    expect(balances(page)).to_have_text(["-0,50 €", "-0,30 €", "+1,30 €", "-0,50 €"])
    # Back: the Abrechnung as it is now, not the refused form's answer, nor the browser's
    # "send the form again?" (walks 68, 69); and forward again.
    page.go_back()
    expect(balances(page)).to_have_text(["-0,50 €", "-0,30 €", "+1,30 €", "-0,50 €"])
    expect(page.get_by_text("Bitte einen Betrag in Euro eingeben")).to_have_count(0)
    page.go_forward()
    expect(balances(page)).to_have_text(["-0,50 €", "-0,30 €", "+1,30 €", "-0,50 €"])
    # The rest of Vroni's transfer, where it was: the plan stays as proposed.
    expect(transfers).to_have_text(
        ["Sepp zahlt Hias 0,50 €", "Vroni zahlt Hias 0,30 €", "Resi zahlt Hias 0,50 €"]
    )
    expect(paid(page)).to_have_text(["Vroni hat Hias 0,20 € gezahlt"])
    assert payment_entries(evening)[4:] == [("Vroni", 20), ("Hias", -20)]
    assert change_kinds(evening) == ["start", "book", "payment", "payment", "payment"]
    no_horizontal_scroll(page)

    # 4. The Verlauf names the cancelled payment as it was made.
    page.goto(f"/abend/{evening.pk}/verlauf/")
    expect(page.locator("li.change.payment")).to_contain_text(
        [
            "Sepp zahlt Hias 0,50 €",
            "Zahlung storniert: Sepp an Hias, 0,50 €",
            "Vroni zahlt Hias 0,20 €",
        ]
    )
    assert "ledger ok" in verify_ledger()


def test_a_transfer_paid_on_another_phone_says_so(
    page, log_in, open_phone, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    book(evening, schreiber, type="farbsolo", suit="herz", declarer=players["Hias"].pk)
    log_in(schreiber).goto(f"/abend/{evening.pk}/abrechnung/")
    other = open_phone(schreiber).page
    other.goto(f"/abend/{evening.pk}/abrechnung/")

    transfer(other, "Resi zahlt Hias").get_by_role("button", name="bezahlt").tap()
    expect(other.get_by_text("Zahlung eingetragen:")).to_be_visible()
    transfer(page, "Resi zahlt Hias").get_by_role("button", name="bezahlt").tap()

    expect(
        page.get_by_text(
            "Schon bezahlt: Resi hat Hias 0,50 € gezahlt, eben von dir eingetragen. "
            "Hier steht, was jetzt noch offen ist."
        )
    ).to_be_visible()
    expect(balances(page)).to_have_text(["-0,50 €", "-0,50 €", "+1,00 €", "0,00 €"])
    assert payment_entries(evening) == [("Resi", 50), ("Hias", -50)]

    # Both phones take the payment back: the second one is told, and books nothing more.
    other.reload()
    page.locator("li.payment summary").tap()
    page.locator("li.payment").get_by_role("button", name="Ja, stornieren").tap()
    expect(page.get_by_text("Zahlung storniert: Resi an Hias, 0,50 €")).to_be_visible()
    other.locator("li.payment summary").tap()
    other.locator("li.payment").get_by_role("button", name="Ja, stornieren").tap()
    expect(
        other.get_by_text("Schon storniert: die Zahlung von Resi an Hias, 0,50 €.")
    ).to_be_visible()
    expect(balances(other)).to_have_text(["-0,50 €", "-0,50 €", "+1,50 €", "-0,50 €"])
    assert len(payment_entries(evening)) == 4
    assert "ledger ok" in verify_ledger()


def test_bezahlt_tapped_without_a_connection_stays_on_the_page_and_books_once_later(
    open_phone, runde, schreiber, players
):
    """Offline, a plain form went to the browser's error page ("no internet"), and what
    was on the page with it. Now the page stays, says so, and the next tap books it."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    book(evening, schreiber, type="farbsolo", suit="herz", declarer=players["Hias"].pk)
    phone = open_phone(schreiber)
    page = phone.page
    page.goto(f"/abend/{evening.pk}/abrechnung/")
    line = transfer(page, "Sepp zahlt Hias")
    word = page.get_by_role("alert").filter(has_text="Keine Verbindung – nichts gesendet.")

    page.context.set_offline(True)
    line.get_by_role("button", name="bezahlt").tap()

    expect(word).to_be_visible()
    assert page.url.endswith(f"/abend/{evening.pk}/abrechnung/")
    assert not Change.objects.filter(kind=Change.Kind.PAYMENT).exists()
    # The browser may have asked for the icon meanwhile, which failed offline.
    phone.errors[:] = [e for e in phone.errors if "ERR_INTERNET_DISCONNECTED" not in e]
    page.context.set_offline(False)
    expect(page.get_by_role("alert")).to_have_text("Wieder verbunden. Bitte nochmal tippen.")
    line.get_by_role("button", name="bezahlt").tap()
    expect(paid(page)).to_have_text(["Sepp hat Hias 0,50 € gezahlt"])
    assert payment_entries(evening) == [("Sepp", 50), ("Hias", -50)]


def test_a_correction_saved_offline_on_its_own_page_says_so_in_view(
    open_phone, runde, schreiber, players
):
    """The correction's own page (no panel, no htmx) is long: the word comes into view
    where the tap was, and the choices stay for the next tap."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    book(evening, schreiber, type="farbsolo", suit="herz", declarer=players["Hias"].pk)
    game = evening.games.get()
    phone = open_phone(schreiber)
    page = phone.page
    page.goto(f"/abend/{evening.pk}/spiel/{game.pk}/")
    page.locator("#correction-form label").filter(has_text="verloren").click()

    page.context.set_offline(True)
    page.get_by_role("button", name="Korrektur speichern").tap()

    word = page.get_by_role("alert").filter(has_text="Keine Verbindung – nichts gesendet.")
    expect(word).to_be_in_viewport()
    expect(page.locator("#correction-form input[name='k-won'][value='0']")).to_be_checked()
    phone.errors[:] = [e for e in phone.errors if "ERR_INTERNET_DISCONNECTED" not in e]
    page.context.set_offline(False)
    page.get_by_role("button", name="Korrektur speichern").tap()
    expect(page.locator("#restore-word")).to_contain_text("Korrigiert")
    game.refresh_from_db()
    assert not game.won


def test_money_handed_over_otherwise_than_proposed_is_booked_as_another_payment(
    page, log_in, runde, schreiber, players
):
    """Hias and Sepp are owed 1,00 € each, Vroni and Resi owe as much. The proposal pairs
    Vroni with Hias, but she hands her euro to Sepp: "Andere Zahlung …" takes it, Resi is
    then to pay Hias, and an amount beyond what is open is said at the field."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    book(evening, schreiber, type="farbsolo", suit="herz", declarer=players["Hias"].pk)
    book(evening, schreiber, type="wenz", declarer=players["Sepp"].pk)
    log_in(schreiber).goto(f"/abend/{evening.pk}/abrechnung/")
    page.set_viewport_size({"width": 320, "height": 568})
    expect(page.locator("li.transfer > span")).to_have_text(
        ["Vroni zahlt Hias 1,00 €", "Resi zahlt Sepp 1,00 €"]
    )

    page.get_by_text("Andere Zahlung …").tap()
    page.get_by_label("Wer zahlt").select_option(label="Vroni (-1,00 €)")
    page.get_by_label("Betrag (in Euro)").fill("1")
    # Forgot whom to: said in German at the form, not by the browser (walk 32).
    page.get_by_role("button", name="Zahlung eintragen").tap()
    expect(page.locator("#other-payment-error")).to_have_text(
        "Bitte wählen, wer zahlt und wer das Geld bekommt."
    )
    expect(page.get_by_label("Wer zahlt")).to_have_value(str(players["Vroni"].pk))
    # At the choice not made, not at the amount (walk 81).
    expect(page.get_by_label("An wen")).to_be_focused()
    expect(page.get_by_label("An wen")).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_label("Wer zahlt")).not_to_have_attribute("aria-invalid", "true")
    expect(page.get_by_label("Betrag (in Euro)")).not_to_have_attribute("aria-invalid", "true")
    page.get_by_label("An wen").select_option(label="Sepp (+1,00 €)")
    no_horizontal_scroll(page)
    page.get_by_role("button", name="Zahlung eintragen").tap()

    expect(page.get_by_text("Zahlung eingetragen: Vroni zahlt Sepp 1,00 €")).to_be_visible()
    expect(balances(page)).to_have_text(["0,00 €", "0,00 €", "+1,00 €", "-1,00 €"])
    expect(page.locator("li.transfer > span")).to_have_text(["Resi zahlt Hias 1,00 €"])
    # Only who owes and who is owed are offered; too much is said at the field.
    page.get_by_text("Andere Zahlung …").tap()
    expect(page.get_by_label("Wer zahlt").locator("option")).to_have_text(
        ["– bitte wählen –", "Resi (-1,00 €)"]
    )
    page.get_by_label("Wer zahlt").select_option(label="Resi (-1,00 €)")
    page.get_by_label("An wen").select_option(label="Hias (+1,00 €)")
    page.get_by_label("Betrag (in Euro)").fill("1,20")
    page.get_by_role("button", name="Zahlung eintragen").tap()

    error = page.locator("#other-payment-error")
    expect(error).to_have_text("So viel ist nicht offen: Resi kann Hias höchstens 1,00 € zahlen.")
    expect(page.get_by_label("Betrag (in Euro)")).to_be_focused()
    expect(page.get_by_label("Wer zahlt")).to_have_value(str(players["Resi"].pk))
    assert payment_entries(evening) == [("Vroni", 100), ("Sepp", -100)]
    verify_ledger()


def test_an_evening_started_by_mistake_is_closed_out_of_the_runde_list(
    page, log_in, runde, schreiber, players
):
    played = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    book(played, schreiber, type="farbsolo", suit="herz", declarer=players["Hias"].pk)
    mistake = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{mistake.pk}/")

    page.get_by_role("link", name="Abrechnung und Abschluss").tap()
    page.get_by_text("Abend abschließen …").tap()
    # Said before it is done: nothing counts here, so the lists will leave it out.
    expect(page.get_by_text("abgeschlossen erscheint der Abend in keiner Liste")).to_be_visible()
    page.get_by_role("button", name="Ja, Abend abschließen").tap()
    expect(page.get_by_text("Der Abend ist abgeschlossen.").first).to_be_visible()

    page.goto(f"/verein/{runde.club_id}/runde/{runde.pk}/")
    cards = page.locator("a.evening-card")
    expect(cards).to_have_count(1)
    expect(cards).to_have_attribute("href", f"/abend/{played.pk}/")
    # Still there, one tap away.
    page.get_by_text("1 Abend ohne Spiel, nicht aufgeführt").tap()
    expect(page.locator(".empty-evenings a")).to_have_attribute("href", f"/abend/{mistake.pk}/")
    no_horizontal_scroll(page)
    mistake.refresh_from_db()
    assert mistake.status == "empty"
    assert change_kinds(mistake)[-1] == "close"


def test_an_evening_s_abrechnung_prints_who_pays_whom(page, log_in, runde, schreiber, players):
    """Walk 45: the Ausgleich's Abrechnung could be printed, an evening's not."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    book(evening, schreiber, type="farbsolo", suit="herz", declarer=players["Hias"].pk)
    log_in(schreiber).goto(f"/abend/{evening.pk}/abrechnung/")
    page.evaluate("window.print = () => { window.printed = true; }")

    page.get_by_role("button", name="Drucken").tap()

    assert page.evaluate("window.printed") is True
    page.emulate_media(media="print")
    expect(page.locator("li.transfer > span").first).to_have_text("Sepp zahlt Hias 0,50 €")
    for control in page.locator("main :is(form, button, details, p.links)").all():
        expect(control).to_be_hidden()
