"""The season's ranking on a phone: a long name wraps, and every column is in view."""

import uuid

from playwright.sync_api import expect

from evenings import services as evenings
from evenings.services import GameInput
from tournaments import services as tournaments


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
