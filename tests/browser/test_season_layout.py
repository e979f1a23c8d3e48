"""The season's ranking on a phone: a long name wraps, and every column is in view."""

import uuid

from playwright.sync_api import expect

from clubs import services as club_services
from evenings import services as evenings
from evenings.services import GameInput
from tournaments import services as tournaments

from .evening_screen import book, start


def test_the_season_ranking_with_a_forty_letter_name_fits_a_phone(
    page, log_in, club, admin, players
):
    tournament = tournaments.create_tournament(
        club, admin, name="Adventsturnier", venue="Post", new_season="2026/27"
    )
    tournaments.add_participants(tournament, list(players.values())[:6])
    tournaments.add_guest(tournament, "Schorsch")
    tournaments.add_guest(tournament, "Hans-Peter Schmidt-Oberreuther von und z")
    first = tournaments.start_round(tournaments.draw_round(tournament, seed=3), admin)
    for table in first.tables.select_related("evening"):
        deal = evenings.next_deal(table.evening)
        solo = GameInput(type="solo", suit="herz", declarer=deal.playing[0].pk, laufende=2)
        evenings.book_game(table.evening_id, uuid.uuid4(), solo, admin, deal.token)
    log_in(admin)

    page.goto(f"/verein/{club.pk}/saison/{tournament.season_id}/")

    wrap = page.locator(".scroll-wrap")
    expect(wrap.locator("tbody tr")).to_have_count(8)
    assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth")


def test_the_runde_balances_with_a_player_who_left_fit_a_phone(
    page, log_in, runde, admin, scorekeeper, players
):
    """Walk 76: "Hias (ausgeschieden)" beside three amounts pushed the table 13 px past a
    390 px phone; the mark goes below the name in small type, at 320 px too."""
    players["Hias"].user = scorekeeper
    players["Hias"].save(update_fields=["user"])
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], admin)
    for _ in range(12):
        book(evening, admin, type="farbsolo", suit="herz", declarer=players["Sepp"].pk, laufende=4)
    evenings.close_evening(evening.pk, admin)
    club_services.remove_member(scorekeeper.memberships.get(), scorekeeper)
    log_in(admin)

    page.goto(f"/verein/{runde.club_id}/runde/{runde.pk}/")

    wrap = page.get_by_role("region", name="Kontostände", exact=True)
    expect(wrap.locator("tbody th").filter(has_text="Hias (ausgeschieden)")).to_have_count(1)
    assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth")
    page.set_viewport_size({"width": 320, "height": 568})
    assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth")
