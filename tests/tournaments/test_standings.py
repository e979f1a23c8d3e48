"""Standings of a ProHof tournament and of a season (tournaments/standings.py).

Every expected number is worked out by hand in the comments, from seed 000 and the
scoring contract: Rufspiel and Über-Kreuz credit each winner the value, a won Solo or Wenz
credits its declarer 3 x the value, a lost one each of the three opponents the value.
"""

import datetime
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from clubs import services as clubs
from clubs.models import Player
from evenings import services
from evenings.models import Evening, Game
from evenings.services import GameInput
from tournaments import services as tournament_services
from tournaments.models import Participant, Round, Season, Table, TableSeat, Tournament
from tournaments.standings import (
    SeasonStanding,
    Standing,
    season_standings,
    tournament_standings,
)

NAMES = ["Sepp", "Vroni", "Hias", "Resi", "Wastl", "Kathi", "Xaver", "Burgl", "Loisl"]


@pytest.fixture
def people(club) -> dict[str, Player]:
    """Nine players of the club by name (Resi is the admin's player already)."""
    existing = {p.name: p for p in club.players.all()}
    return {n: existing.get(n) or Player.objects.create(club=club, name=n) for n in NAMES}


def make_tournament(
    club,
    admin,
    name: str,
    players: list[Player],
    *,
    round_count: int = 3,
    season: Season | None = None,
    date: datetime.date | None = None,
) -> Tournament:
    """A tournament with `players` as participants, start numbers in the list's order."""
    tournament = Tournament.objects.create(
        club=club,
        season=season,
        runde=clubs.create_prohof_runde(club, name, admin),
        name=name,
        date=date or timezone.localdate(),
        round_count=round_count,
        created_by=admin,
    )
    Participant.objects.bulk_create(
        Participant(tournament=tournament, player=player, number=number)
        for number, player in enumerate(players, 1)
    )
    return tournament


def start_round(
    tournament: Tournament, number: int, tables: list[list[Player]], admin
) -> list[Evening]:
    """Round `number`, started: each table an evening of the tournament's Runde with its
    players in seat order, the first seat dealing first."""
    round_ = Round.objects.create(
        tournament=tournament, number=number, seed=number, started_at=timezone.now()
    )
    participant = {p.player_id: p for p in tournament.participants.all()}
    evenings = []
    for table_number, players in enumerate(tables, 1):
        evening = services.start_evening(
            tournament.runde,
            players,
            0,
            admin,
            label=f"Runde {number} · Tisch {table_number}",
            game_limit=tournament.games_per_round,
        )
        table = Table.objects.create(round=round_, number=table_number, evening=evening)
        TableSeat.objects.bulk_create(
            TableSeat(table=table, round=round_, participant=participant[p.pk], position=seat)
            for seat, p in enumerate(players)
        )
        evenings.append(evening)
    return evenings


def one_table(
    club, admin, name: str, players: list[Player], **fields
) -> tuple[Tournament, Evening]:
    """A tournament of `players` (make_tournament's `fields`) whose first round is started
    at one table, seated in the same order."""
    tournament = make_tournament(club, admin, name, players, **fields)
    (table,) = start_round(tournament, 1, [players], admin)
    return tournament, table


def book(evening: Evening, playing: list[Player], data: GameInput, by) -> Game:
    """Book the next game; `playing` is who the deal seats, from the dealer's left (at a
    table of five the dealer sits out), checked so that the comments' arithmetic holds."""
    deal = services.next_deal(evening)
    assert [p.name for p in deal.playing] == [p.name for p in playing]
    game, created = services.book_game(evening.pk, uuid.uuid4(), data, by, deal.token)
    assert created
    return game


def rufspiel(declarer: Player, partner: Player, **fields) -> GameInput:
    return GameInput(type="rufspiel", declarer=declarer.pk, partner=partner.pk, **fields)


def ueberkreuz(declarer: Player, partner: Player, **fields) -> GameInput:
    return GameInput(type="ueberkreuz", declarer=declarer.pk, partner=partner.pk, **fields)


def solo(declarer: Player, suit: str = "eichel", **fields) -> GameInput:
    return GameInput(type="solo", declarer=declarer.pk, suit=suit, **fields)


def wenz(declarer: Player, **fields) -> GameInput:
    return GameInput(type="wenz", declarer=declarer.pk, **fields)


def lines(standings: list[Standing]) -> list[tuple]:
    """(rank, name, points per round, total, Soli won, games lost, games played)."""
    return [
        (
            s.rank,
            s.participant.player.name,
            s.rounds,
            s.total,
            s.solos_won,
            s.games_lost,
            s.games_played,
        )
        for s in standings
    ]


def season_lines(standings: list[SeasonStanding]) -> list[tuple]:
    """(rank, name, points per tournament, total, Soli won, games lost)."""
    return [
        (s.rank, s.player.name, s.tournaments, s.total, s.solos_won, s.games_lost)
        for s in standings
    ]


def test_a_small_tournament_is_ranked_as_worked_out_by_hand(club, admin, people):
    sepp, vroni, hias, resi, wastl, kathi, xaver, burgl, loisl = people.values()
    tournament = make_tournament(club, admin, "Stadtmeisterschaft", list(people.values()))

    # Round 1. Table 1 seats five: the dealer sits out, the deal moves one seat a game.
    five, four = start_round(
        tournament,
        1,
        [[sepp, vroni, hias, resi, wastl], [kathi, xaver, burgl, loisl]],
        admin,
    )
    # 1 (Sepp deals) "Rufspiel mit 2 laufenden Obern, Schneider: ... Die beiden Gewinner
    # erhalten je 40 Punkte": Vroni 40, Resi 40; Hias and Wastl lost.
    book(five, [vroni, hias, resi, wastl], rufspiel(vroni, resi, laufende=2, schneider=True), admin)
    # 2 (Vroni deals) "Schneiderwenz mit 3en schwarz: Wenz 20, angesagt 30, mit 3en 60,
    # Schneider 70, Schwarz 80 ... 240 Punkte": Hias 240, a Solo won; Resi, Wastl, Sepp lost.
    book(
        five,
        [hias, resi, wastl, sepp],
        wenz(hias, angesagt=True, laufende=3, schneider=True, schwarz=True),
        admin,
    )
    # 3 (Hias deals) "Verliert der Spieler [ein Solo schwarz mit Zweien], erhalten die drei
    # Gegenspieler jeweils 70 Punkte": Resi, Sepp, Vroni 70 each; Wastl lost.
    book(
        five,
        [resi, wastl, sepp, vroni],
        solo(wastl, "gras", won=False, laufende=2, schwarz=True),
        admin,
    )
    # 4 (Resi deals) Über Kreuz, Sepp (the Alte) and Hias opposite lose with one Laufender:
    # 10 + 10 = 20 for Wastl and Vroni; Sepp and Hias lost.
    book(five, [wastl, sepp, vroni, hias], ueberkreuz(sepp, hias, won=False, laufende=1), admin)
    # 5 (Wastl deals) Sepp's Solo for 150, struck below: it counts for nothing.
    struck = book(five, [sepp, vroni, hias, resi], solo(sepp, laufende=2), admin)
    # 6 (Sepp deals) "Wenz mit 61 Punkten, mit oder ohne Zweien 40 Punkte": Resi 3 x 40 =
    # 120, a Solo won; Vroni, Hias, Wastl lost.
    book(five, [vroni, hias, resi, wastl], wenz(resi, laufende=2), admin)
    services.void_game(five.pk, struck.pk, admin)
    # Sepp 70 (played 2, 3, 4; lost 2, 4), Vroni 40 + 70 + 20 = 130 (played 1, 3, 4, 6;
    # lost 6), Hias 240 (played 1, 2, 4, 6; lost 1, 4, 6), Resi 40 + 70 + 120 = 230
    # (played 1, 2, 3, 6; lost 2), Wastl 20 (played 1, 2, 3, 4, 6; lost 1, 2, 3, 6).

    # Table 2 seats four, who all play every game.
    # 1 "Herz tout mit 4en: Herz Solo 30, Tout angesagt 50, mit 4en 90, Schneider 100
    # Schwarz 110 ... 330 Punkte": Kathi 330, a Solo won; the other three lost.
    book(four, [xaver, burgl, loisl, kathi], solo(kathi, "herz", tout=True, laufende=4), admin)
    # 2 "... wird das Spiel [der Schneiderwenz mit 3en schwarz] verloren erhalten die 3
    # Mitspieler je 80 Punkte": Kathi, Burgl, Loisl 80 each; Xaver lost.
    book(
        four,
        [burgl, loisl, kathi, xaver],
        wenz(xaver, won=False, angesagt=True, laufende=3, schneider=True, schwarz=True),
        admin,
    )
    # 3 booked as lost (Kathi and Xaver would get 30 each), corrected to "Rufspiel mit 61
    # Punkten, mit oder ohne Zweien 30 Punkte" won: Burgl 30, Loisl 30; Kathi, Xaver lost.
    wrong = book(
        four, [loisl, kathi, xaver, burgl], rufspiel(burgl, loisl, won=False, laufende=2), admin
    )
    services.correct_game(four.pk, wrong.pk, rufspiel(burgl, loisl, laufende=2), admin)
    # 4 "Rufspiel mit oder ohne Zweien und Schwarz 50 Punkte": Xaver 50, Kathi 50; Burgl
    # and Loisl lost.
    book(
        four, [kathi, xaver, burgl, loisl], rufspiel(xaver, kathi, laufende=2, schwarz=True), admin
    )
    # 5 "Solo mit oder ohne Zweien, Schneider 60 Punkte": Loisl 3 x 60 = 180, a Solo won;
    # Kathi, Xaver, Burgl lost.
    book(
        four,
        [xaver, burgl, loisl, kathi],
        solo(loisl, "schellen", laufende=2, schneider=True),
        admin,
    )
    # Kathi 330 + 80 + 50 = 460 (lost 3, 5), Xaver 50 (lost 1, 2, 3, 5), Burgl 80 + 30 =
    # 110 (lost 1, 4, 5), Loisl 80 + 30 + 180 = 290 (lost 1, 4); each played 5.

    # Round 2.
    four, five = start_round(
        tournament,
        2,
        [[sepp, xaver, hias, burgl], [vroni, resi, wastl, kathi, loisl]],
        admin,
    )
    # Table 1, four players, four Soli won, so each of them lost the other three games.
    # "Solo mit 61 Punkten, mit oder ohne Zweien 50 Punkte": Sepp 150.
    book(four, [xaver, hias, burgl, sepp], solo(sepp, laufende=2), admin)
    # "Wenz mit oder ohne Zweien, Schneider 50 Punkte": Xaver 150.
    book(four, [hias, burgl, sepp, xaver], wenz(xaver, laufende=2, schneider=True), admin)
    # "Solo mit oder ohne Zweien und Schwarz, angesagt 90 Punkte" (a Tout): Burgl 270.
    book(four, [burgl, sepp, xaver, hias], solo(burgl, "gras", laufende=2, tout=True), admin)
    # "Wenz mit oder ohne Zweien und Schwarz 60 Punkte": Hias 180.
    book(four, [sepp, xaver, hias, burgl], wenz(hias, laufende=2, schwarz=True), admin)

    # Table 2, five players.
    # 1 (Vroni deals) "Gewinnt ein Spieler ein Solo schwarz ohne Ansage mit Zweien, werden
    # ihm 210 Punkte gutgeschrieben": Wastl 210; Resi, Kathi, Loisl lost.
    book(
        five, [resi, wastl, kathi, loisl], solo(wastl, "schellen", laufende=2, schwarz=True), admin
    )
    # 2 (Resi deals) "Solo mit sechs Laufenden ..., Schneider, Schwarz gewonnen 110
    # Punkte": Kathi 330; Wastl, Loisl, Vroni lost.
    book(
        five,
        [wastl, kathi, loisl, vroni],
        solo(kathi, laufende=6, schneider=True, schwarz=True),
        admin,
    )
    # 3 (Wastl deals) "Wenz mit oder ohne Zweien und Schwarz, angesagt 80 Punkte" (a
    # Tout): Vroni 240; Kathi, Loisl, Resi lost.
    book(five, [kathi, loisl, vroni, resi], wenz(vroni, laufende=2, tout=True), admin)
    # 4 (Kathi deals) "Wenz mit Vieren, Schneider angesagt, Schwarz gewonnen": the seed
    # says 100, its rule list (and the contract) 20 + 40 + 10 + 10 + 10 = 90: Resi 270;
    # Loisl, Vroni, Wastl lost.
    book(
        five,
        [loisl, vroni, resi, wastl],
        wenz(resi, laufende=4, angesagt=True, schneider=True, schwarz=True),
        admin,
    )
    # 5 (Loisl deals) Über Kreuz won by Vroni and Wastl opposite: 10 each; Resi, Kathi lost.
    book(five, [vroni, resi, wastl, kathi], ueberkreuz(vroni, wastl), admin)
    # Vroni 240 + 10 = 250 (played 2-5, lost 2, 4), Resi 270 (played 1, 3, 4, 5; lost 1,
    # 3, 5), Wastl 210 + 10 = 220 (played 1, 2, 4, 5; lost 2, 4), Kathi 330 (played 1, 2,
    # 3, 5; lost 1, 3, 5), Loisl 0 (played 1-4, lost all four).

    # Totals, round 3 not drawn yet:
    #   Kathi 460 + 330 = 790, Soli 2, lost 2 + 3 = 5, played 5 + 4
    #   Resi  230 + 270 = 500, Soli 2, lost 1 + 3 = 4, played 4 + 4
    #   Hias  240 + 180 = 420, Soli 2, lost 3 + 3 = 6, played 4 + 4
    #   Vroni 130 + 250 = 380, Soli 1, lost 1 + 2 = 3, played 4 + 4
    #   Burgl 110 + 270 = 380, Soli 1, lost 3 + 3 = 6: behind Vroni on lost games
    #   Loisl 290 +   0 = 290, Soli 1, lost 2 + 4 = 6, played 5 + 4
    #   Wastl  20 + 220 = 240, Soli 1, lost 4 + 2 = 6, played 5 + 4
    #   Sepp   70 + 150 = 220, Soli 1, lost 2 + 3 = 5, played 3 + 4 (the struck Solo
    #                          would have been his second)
    #   Xaver  50 + 150 = 200, Soli 1, lost 4 + 3 = 7, played 5 + 4
    assert lines(tournament_standings(tournament)) == [
        (1, "Kathi", (460, 330, None), 790, 2, 5, 9),
        (2, "Resi", (230, 270, None), 500, 2, 4, 8),
        (3, "Hias", (240, 180, None), 420, 2, 6, 8),
        (4, "Vroni", (130, 250, None), 380, 1, 3, 8),
        (5, "Burgl", (110, 270, None), 380, 1, 6, 9),
        (6, "Loisl", (290, 0, None), 290, 1, 6, 9),
        (7, "Wastl", (20, 220, None), 240, 1, 6, 9),
        (8, "Sepp", (70, 150, None), 220, 1, 5, 7),
        (9, "Xaver", (50, 150, None), 200, 1, 7, 9),
    ]
    # The struck game stays on record; the corrected one counts as corrected.
    assert Game.objects.get(pk=struck.pk).voided_at is not None
    assert Game.objects.get(pk=wrong.pk).won is True


def test_equal_points_go_to_more_solos_won_then_to_fewer_games_lost(club, admin, people):
    sepp, vroni, hias, resi = people["Sepp"], people["Vroni"], people["Hias"], people["Resi"]
    tournament, table = one_table(club, admin, "Frühjahrsturnier", [sepp, vroni, hias, resi])

    # Rufspiel 10 + 2 Laufende + Schneider = 40: Hias and Sepp; Vroni and Resi lost.
    book(table, [vroni, hias, resi, sepp], rufspiel(hias, sepp, laufende=2, schneider=True), admin)
    # Rufspiel 10: Resi and Vroni; Hias and Sepp lost.
    book(table, [hias, resi, sepp, vroni], rufspiel(resi, vroni), admin)
    # Rufspiel 10 + 2 Laufende = 30: Resi and Sepp; Hias and Vroni lost.
    book(table, [resi, sepp, vroni, hias], rufspiel(resi, sepp, laufende=2), admin)
    # Wenz 20 + 1 Laufender = 30, won: Vroni 90; Sepp, Hias, Resi lost.
    book(table, [sepp, vroni, hias, resi], wenz(vroni, laufende=1), admin)
    # Herz-Solo 30, lost: Sepp, Hias, Resi 30 each; Vroni lost.
    book(table, [vroni, hias, resi, sepp], solo(vroni, "herz", won=False), admin)

    # Sepp 40 + 30 + 30 = 100, no Solo, lost 2 and 4.
    # Vroni 10 + 90 = 100, a Wenz won, lost 1, 3 and 5: the Solo counts before the lost
    # games, so Vroni is first although Sepp lost fewer and has the lower start number.
    # Hias 40 + 30 = 70, lost 2, 3 and 4; Resi 10 + 30 + 30 = 70, lost 1 and 4: Resi
    # (start number 4) before Hias (3) on fewer games lost.
    assert lines(tournament_standings(tournament)) == [
        (1, "Vroni", (100, None, None), 100, 1, 3, 5),
        (2, "Sepp", (100, None, None), 100, 0, 2, 5),
        (3, "Resi", (70, None, None), 70, 0, 2, 5),
        (4, "Hias", (70, None, None), 70, 0, 3, 5),
    ]


def test_participants_equal_on_every_tie_break_share_a_rank_and_the_next_is_skipped(
    club, admin, people
):
    sepp, vroni, hias, resi, wastl = (people[n] for n in NAMES[:5])
    # Start numbers against the alphabet, so the order within a rank shows which it follows.
    tournament = make_tournament(
        club, admin, "Herbstturnier", [vroni, sepp, resi, hias, wastl], round_count=2
    )
    # Wastl is registered but not at a table.
    (table,) = start_round(tournament, 1, [[sepp, vroni, hias, resi]], admin)
    # Rufspiel 10: Hias and Sepp; Vroni and Resi lost.
    book(table, [vroni, hias, resi, sepp], rufspiel(hias, sepp), admin)

    # Sepp and Hias: 10, no Solo, nothing lost: both 1st (Sepp has the lower number).
    # Vroni and Resi: 0, one game lost: both 3rd. Wastl: 0 and nothing lost, but no game
    # played: 5th, behind them (walk 40: not lost, he was ranked above who had played).
    assert lines(tournament_standings(tournament)) == [
        (1, "Sepp", (10, None), 10, 0, 0, 1),
        (1, "Hias", (10, None), 10, 0, 0, 1),
        (3, "Vroni", (0, None), 0, 0, 1, 1),
        (3, "Resi", (0, None), 0, 0, 1, 1),
        (5, "Wastl", (None, None), 0, 0, 0, 0),  # at no table: no points, nothing played
    ]


def test_before_the_first_round_everybody_shares_the_first_place_with_nothing(club, admin, people):
    tournament = make_tournament(
        club, admin, "Sommerturnier", [people["Wastl"], people["Kathi"], people["Sepp"]]
    )

    assert lines(tournament_standings(tournament)) == [
        (1, "Wastl", (None, None, None), 0, 0, 0, 0),
        (1, "Kathi", (None, None, None), 0, 0, 0, 0),
        (1, "Sepp", (None, None, None), 0, 0, 0, 0),
    ]


def test_a_round_drawn_but_not_started_shows_nothing_played_yet(club, admin, people):
    four = [people[name] for name in NAMES[:4]]
    tournament = make_tournament(club, admin, "Herbstturnier", four)
    tournament_services.draw_round(tournament, seed=1)

    assert [line.rounds for line in tournament_standings(tournament)] == [(None,) * 3] * 4


def test_a_season_sums_each_player_s_tournaments_in_date_order(club, admin, people):
    sepp, vroni, hias, resi, wastl, kathi = (people[n] for n in NAMES[:6])
    franz = Player.objects.create(club=club, name="Franz", guest=True)
    season = Season.objects.create(club=club, name="Stadtmeisterschaft 2025")

    # With the guest Franz, entered at the door.
    march, table = one_table(
        club,
        admin,
        "Zur Post",
        [sepp, vroni, hias, franz],
        season=season,
        date=datetime.date(2025, 3, 1),
    )
    # Solo 30 + 2 Laufende = 50, won: Sepp 150; Vroni, Hias, Franz lost.
    book(table, [vroni, hias, franz, sepp], solo(sepp, laufende=2), admin)
    # Rufspiel 10: Franz and Vroni; Hias and Sepp lost.
    book(table, [hias, franz, sepp, vroni], rufspiel(franz, vroni), admin)

    # Made second, played first: the columns follow the date.
    february, table = one_table(
        club,
        admin,
        "Im Hirschen",
        [sepp, vroni, resi, wastl],
        season=season,
        date=datetime.date(2025, 2, 1),
    )
    # Rufspiel 10 + 2 Laufende = 30: Resi and Wastl; Vroni and Sepp lost.
    book(table, [vroni, resi, wastl, sepp], rufspiel(resi, wastl, laufende=2), admin)
    # Wenz 20 won: Vroni 60; Resi, Wastl, Sepp lost.
    book(table, [resi, wastl, sepp, vroni], wenz(vroni), admin)

    # Not begun yet: "–" for its participants, and who is in no other is not listed yet.
    april = make_tournament(
        club, admin, "Am Anger", [kathi, sepp], season=season, date=datetime.date(2025, 4, 1)
    )
    # In no season: Hias's Solo there counts for nothing here.
    _, table = one_table(
        club,
        admin,
        "Freundschaftsturnier",
        [sepp, vroni, hias, resi],
        date=datetime.date(2025, 2, 15),
    )
    book(table, [vroni, hias, resi, sepp], solo(hias, laufende=2), admin)

    tournaments, standings = season_standings(season)

    assert tournaments == [february, march, april]
    # Sepp 0 + 150 = 150, a Solo, lost 2 + 1; Vroni 60 + 10 = 70, a Wenz, lost 1 + 1;
    # Resi and Wastl 30, lost 1, equal on everything: both 3rd, by name; Franz 10, lost
    # 1; Hias 0, lost 2. "–" (None) where one was not in it, or it has not begun.
    assert season_lines(standings) == [
        (1, "Sepp", (0, 150, None), 150, 1, 3),
        (2, "Vroni", (60, 10, None), 70, 1, 2),
        (3, "Resi", (30, None, None), 30, 0, 1),
        (3, "Wastl", (30, None, None), 30, 0, 1),
        (5, "Franz", (None, 10, None), 10, 0, 1),
        (6, "Hias", (None, 0, None), 0, 0, 2),
    ]
    assert next(s.player for s in standings if s.player.name == "Franz").guest


def test_a_season_without_tournaments_has_no_standings(club):
    season = Season.objects.create(club=club, name="Stadtmeisterschaft 2026")

    assert season_standings(season) == ([], [])


def _tournament_of(club, admin, size: int, season: Season) -> Tournament:
    """`size` participants at tables of four, one round started, one game a table."""
    players = [Player.objects.create(club=club, name=f"Spieler {size}-{i}") for i in range(size)]
    tournament = make_tournament(club, admin, f"Turnier {size}", players, season=season)
    tables = [players[i : i + 4] for i in range(0, size, 4)]
    for evening, (a, b, c, d) in zip(
        start_round(tournament, 1, tables, admin), tables, strict=True
    ):
        book(evening, [b, c, d, a], solo(b, won=False), admin)
        book(evening, [c, d, a, b], rufspiel(c, a, laufende=1), admin)
    return tournament


def test_standings_cost_the_same_queries_for_8_and_16_participants(club, admin):
    small = _tournament_of(club, admin, 8, Season.objects.create(club=club, name="Klein"))
    big = _tournament_of(club, admin, 16, Season.objects.create(club=club, name="Groß"))

    counts = []
    for tournament in (small, big):
        with CaptureQueriesContext(connection) as tournament_queries:
            standings = tournament_standings(tournament)
        with CaptureQueriesContext(connection) as season_queries:
            season_standings(tournament.season)
        # Reading the players of the standings costs nothing more.
        with CaptureQueriesContext(connection) as more:
            assert len({s.participant.player.name for s in standings}) == len(standings)
        counts.append((len(tournament_queries), len(season_queries), len(more)))

    assert counts == [(4, 4, 0), (4, 4, 0)]
