"""Seating the table anew on a phone before the first game: Wastl came instead of Vroni,
and Hias dealt first. A typo is said at its place; a player following on a second phone
sees the table as it sits now, and so does the table's spectator link, which goes on to
the new evening when a fifth player comes after the first game."""

import re

from playwright.sync_api import expect

from clubs.models import Membership
from evenings.models import Change, Evening
from tests.browser.axe import assert_accessible
from tests.browser.evening_screen import (
    book_sauspiel,
    chip_labels,
    flash,
    no_horizontal_scroll,
    start,
    verify_ledger,
)
from tests.conftest import make_user


def test_the_schreiber_seats_the_table_anew_before_the_first_game(
    page, log_in, open_phone, club, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    vroni = make_user("vroni", "Vroni")
    Membership.objects.create(user=vroni, club=club, role=Membership.Role.PLAYER)
    follower = open_phone(vroni).page
    follower.goto(f"/abend/{evening.pk}/")
    expect(follower.locator("#sheet thead th")).to_have_text(["Sepp", "Vroni", "Hias", "Resi"])
    # The table's QR code, scanned by someone without an account.
    spectator = open_phone().page
    spectator.goto(f"/live/{evening.share_token}/")
    expect(spectator.locator("#sheet thead th")).to_have_text(["Sepp", "Vroni", "Hias", "Resi"])

    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    expect(page.locator(".deal")).to_contain_text("Sepp gibt.")
    page.get_by_role("link", name="Sitzordnung ändern").click()
    expect(page.get_by_role("heading", name=re.compile("^Sitzordnung ändern"))).to_be_visible()
    expect(page.get_by_role("combobox", name="Platz 2", exact=True)).to_have_value(
        str(players["Vroni"].pk)
    )
    dealer_chips = page.locator("#id_first_dealer label:visible")
    expect(dealer_chips).to_have_text(["Sepp", "Vroni", "Hias", "Resi"])
    no_horizontal_scroll(page)
    assert_accessible(page, "seating form")

    # A typo first: Sepp at Platz 2 as well. Said there; nothing changes.
    page.get_by_role("combobox", name="Platz 2", exact=True).select_option(label="Sepp")
    page.get_by_role("button", name="Sitzordnung speichern").click()
    expect(page.locator(".error")).to_contain_text(["Sepp sitzt schon auf Platz 1."])
    assert [s.player.name for s in evening.seats.order_by("position")] == [
        "Sepp",
        "Vroni",
        "Hias",
        "Resi",
    ]

    platz_2 = page.get_by_role("combobox", name="Platz 2", exact=True)
    expect(platz_2).to_have_attribute("aria-invalid", "true")
    platz_2.select_option(label="Wastl")
    # Put right, its word goes at once (walk 25: it stayed red until sent again).
    expect(page.locator(".error")).to_have_count(0)
    expect(platz_2).not_to_have_attribute("aria-invalid", "true")
    assert_accessible(page, "seating form, a typo put right")
    page.locator("#id_first_dealer").get_by_text("Hias", exact=True).tap()
    page.get_by_role("button", name="Sitzordnung speichern").click()

    expect(page).to_have_url(re.compile(rf"/abend/{evening.pk}/$"))
    expect(flash(page)).to_have_text("Die Sitzordnung ist geändert.")
    expect(page.locator(".deal")).to_contain_text("Hias gibt.")
    expect(chip_labels(page, "declarer")).to_have_text(["Sepp", "Wastl", "Hias", "Resi"])
    evening.refresh_from_db()
    assert [s.player.name for s in evening.seats.order_by("position")] == [
        "Sepp",
        "Wastl",
        "Hias",
        "Resi",
    ]
    assert evening.first_dealer == 2
    assert evening.changes.filter(kind=Change.Kind.SEATS).count() == 1

    # The second phone loads the table as it sits now.
    expect(follower.locator("#sheet thead th")).to_have_text(
        ["Sepp", "Wastl", "Hias", "Resi"], timeout=10_000
    )
    expect(follower.locator(".deal")).to_contain_text("Hias gibt.")

    # The first game is played at the new table.
    book_sauspiel(page, 1, "Wastl", "Resi")
    game = Evening.objects.get(pk=evening.pk).games.get()
    assert game.dealer == players["Hias"]
    assert sorted(game.seating) == sorted(players[n].pk for n in ["Sepp", "Wastl", "Hias", "Resi"])

    # Then Kathi comes: this evening closes as it stands, a new one begins with five.
    page.get_by_role("link", name="Sitzordnung ändern").click()
    expect(page.get_by_text("Am Abend ist schon gebucht. Kommt jemand dazu")).to_be_visible()
    expect(page.locator("#id_first_dealer input:checked")).to_have_value("3")  # Resi deals next
    page.get_by_role("combobox", name="Platz 5", exact=True).select_option(label="Kathi")
    no_horizontal_scroll(page)
    page.get_by_role("button", name="Abschließen und neu beginnen").click()

    expect(flash(page)).to_contain_text("Neuer Tisch: hier geht der Abend weiter.")
    expect(page.locator(".deal")).to_contain_text("Resi gibt und setzt aus.")
    expect(chip_labels(page, "declarer")).to_have_text(["Sepp", "Wastl", "Hias", "Kathi"])
    new = Evening.objects.exclude(pk=evening.pk).get()
    expect(page).to_have_url(re.compile(rf"/abend/{new.pk}/$"))
    assert new.is_open and not Evening.objects.get(pk=evening.pk).is_open
    # Its standing begins at 0: what each won or lost before it is said under it (walk
    # 92), a name with its amount on one line on a small phone (walk 94).
    before = page.locator("#tables-before")
    expect(before).to_contain_text("Vorher am Abend, bis zu diesem Tisch")
    expect(before).to_contain_text(re.compile(r"Wastl\s\+\d+,\d\d\s€"))
    expect(before).not_to_contain_text("Kathi")  # nothing won or lost before it
    page.set_viewport_size({"width": 320, "height": 568})
    on_one_line = page.evaluate(
        """() => [...document.querySelectorAll('#tables-before bdi')].map(name =>
            Math.abs(name.getBoundingClientRect().bottom
                     - name.nextElementSibling.getBoundingClientRect().bottom) < 4)"""
    )
    assert on_one_line == [True] * 4
    no_horizontal_scroll(page)
    # The second phone goes on to the new table by itself, as the spectator's link does
    # (it stayed on the closed evening until "Weiter am neuen Tisch" was tapped: walk 27).
    expect(follower).to_have_url(re.compile(rf"/abend/{new.pk}/$"), timeout=10_000)
    expect(follower.locator("#sheet thead th")).to_have_text(
        ["Sepp", "Wastl", "Hias", "Resi", "Kathi"]
    )
    expect(flash(follower)).to_contain_text("Neuer Tisch: das Blatt folgt")
    # The closed evening is still a tap away, with its final sheet.
    follower.goto(f"/abend/{evening.pk}/")
    expect(follower.locator(".closed-note")).to_contain_text("Dieser Abend ist abgeschlossen.")
    expect(follower.get_by_role("link", name="Weiter am neuen Tisch")).to_be_visible()
    # The QR code on the table shows the new table, without a tap.
    expect(spectator.locator("#sheet thead th")).to_have_text(
        ["Sepp", "Wastl", "Hias", "Resi", "Kathi"], timeout=10_000
    )
    expect(spectator.locator(".deal")).to_contain_text("Resi gibt und setzt aus.")
    assert "ledger ok" in verify_ledger()


def test_the_first_dealer_moves_with_the_player_as_the_seats_are_swapped(
    page, log_in, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/sitzordnung/")
    dealer = page.locator("#id_first_dealer")
    dealer.get_by_text("Vroni", exact=True).tap()

    # Vroni and Hias swap places: Platz 2 gets Hias (Vroni is seated nowhere for a moment),
    # then Platz 3 gets Vroni.
    page.get_by_role("combobox", name="Platz 2", exact=True).select_option(label="Hias")
    page.get_by_role("combobox", name="Platz 3", exact=True).select_option(label="Vroni")

    expect(dealer.locator("label:visible")).to_have_text(["Sepp", "Hias", "Vroni", "Resi"])
    expect(dealer.locator("input:checked")).to_have_value("2")  # Platz 3: Vroni still
    page.get_by_role("button", name="Sitzordnung speichern").click()
    expect(page.locator(".deal")).to_contain_text("Vroni gibt.")
    evening.refresh_from_db()
    assert evening.first_dealer == 2
    assert [s.player.name for s in evening.seats.order_by("position")] == [
        "Sepp", "Hias", "Vroni", "Resi"
    ]  # fmt: skip


def test_the_first_dealer_who_leaves_the_table_passes_the_deal_to_the_next_place(
    page, log_in, runde, schreiber, players
):
    """Vroni was to deal first and goes home: whoever sits next clockwise deals, shown
    chosen, rather than a chip nobody sees kept chosen and refused when sent (walk 27)."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi", "Wastl"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/sitzordnung/")
    dealer = page.locator("#id_first_dealer")
    dealer.get_by_text("Vroni", exact=True).tap()

    page.get_by_role("combobox", name="Platz 2", exact=True).select_option(index=0)

    expect(dealer.locator("label:visible")).to_have_text(["Sepp", "Hias", "Resi", "Wastl"])
    expect(dealer.locator("input:checked")).to_have_value("2")  # Platz 3: Hias
    expect(dealer.locator("label:visible").filter(has=page.locator("input:checked"))).to_have_text(
        "Hias"
    )
    page.get_by_role("button", name="Sitzordnung speichern").click()
    expect(page.locator(".deal")).to_contain_text("Hias gibt")
    evening.refresh_from_db()
    assert [s.player.name for s in evening.seats.order_by("position")] == [
        "Sepp", "Hias", "Resi", "Wastl"
    ]  # fmt: skip
    assert evening.seats.order_by("position")[evening.first_dealer].player.name == "Hias"


def test_the_first_dealer_s_place_taken_by_a_newcomer_passes_the_deal_to_them(
    page, log_in, runde, schreiber, players
):
    """Vroni was to deal and goes home, Wastl takes her chair: the deal goes by the
    chair, to Wastl (walk 75: it skipped him for the next one round)."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/sitzordnung/")
    dealer = page.locator("#id_first_dealer")
    dealer.get_by_text("Vroni", exact=True).tap()

    # Her chair emptied first, the chip goes on to Hias; then Wastl sits down in it.
    page.get_by_role("combobox", name="Platz 2", exact=True).select_option(index=0)
    checked = dealer.locator("label:visible").filter(has=page.locator("input:checked"))
    expect(checked).to_have_text("Hias")
    page.get_by_role("combobox", name="Platz 2", exact=True).select_option(label="Wastl")

    expect(checked).to_have_text("Wastl")
    page.get_by_role("button", name="Sitzordnung speichern").click()
    expect(page.locator(".deal")).to_contain_text("Wastl gibt")
    evening.refresh_from_db()
    assert evening.seats.order_by("position")[evening.first_dealer].player.name == "Wastl"


def test_platz_1_deals_first_unless_another_chip_is_tapped(
    page, log_in, club, runde, schreiber, players
):
    """The start form shows "Platz 1" chosen: seating four without a tap on a chip keeps
    it, rather than the chip following whoever was seated last (walk 33)."""
    log_in(schreiber).goto(f"/verein/{club.pk}/runde/{runde.pk}/abend/neu/")
    dealer = page.locator("#id_first_dealer")
    expect(dealer.locator("input:checked")).to_have_value("0")

    # Platz 3 first, then the others: the chip goes to Platz 1 once Sepp sits there.
    for seat, name in [(3, "Hias"), (1, "Sepp"), (2, "Vroni"), (4, "Resi")]:
        page.get_by_role("combobox", name=f"Platz {seat}", exact=True).select_option(label=name)
        if seat == 3:
            expect(dealer.locator("input:checked")).to_have_value("2")  # the only one seated
    expect(dealer.locator("input:checked")).to_have_value("0")
    expect(dealer.locator("label:visible").filter(has=page.locator("input:checked"))).to_have_text(
        "Sepp"
    )
    page.get_by_role("button", name="Los geht\u2019s").tap()

    expect(page.locator(".deal")).to_contain_text("Sepp gibt.")
    evening = Evening.objects.get()
    assert evening.first_dealer == 0
