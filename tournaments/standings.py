"""Standings of a ProHof tournament and of a season (seed 000): points, then the tie-breaks.

Points are what the ledger credited: the database keeps each player's sum per evening
(EveningTotal, kind "points"), and each table of a started round is an evening. The
tie-breaks count the booked games of those evenings. A call costs the same handful of
queries however many participants, tables and games there are.
"""

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Exists, OuterRef, QuerySet, Sum
from django.utils.translation import gettext_lazy

from clubs.models import Player, german_key
from evenings.models import EveningTotal, Game, LedgerEntry
from scoring.model import PAIR_GAMES, SOLO_GAMES
from tournaments.models import Participant, Round, Season, TableSeat, Tournament

TIE_BREAK = gettext_lazy(
    "Bei Punktgleichheit entscheiden die gewonnenen Soli (Solo und Wenz, Spalte „Soli“ "
    "rechts neben „Gesamt“), dann weniger verlorene Spiele („verl.“); wer noch kein Spiel "
    "gespielt hat, steht dabei hinter denen, die gespielt haben. Wer auch darin gleich "
    "ist, teilt sich den Platz."
)

# Evening -> its table -> the table's round -> the round's tournament.
_TOURNAMENT = "evening__table__round__tournament"


@dataclass(frozen=True)
class Standing:
    """One participant's line in a tournament's standings."""

    rank: int  # 1-based; shared by participants equal on every tie-break
    participant: Participant  # with .player loaded
    # Points per round, one for each of the tournament's round_count (or more, if more
    # rounds were drawn); None where the participant has played no seat (a round not
    # drawn or not started yet, or drawn without them).
    rounds: tuple[int | None, ...]
    total: int
    solos_won: int  # Solo and Wenz won as declarer
    games_lost: int  # games at the table on the losing side (sitting out is neither)
    games_played: int

    @property
    def withdrawn(self) -> bool:
        """Whether the standings say "zurückgezogen": the participant withdrew and misses
        a round for it. Who withdrew once seated in the last round played the whole
        tournament, and reads as everyone else does (walk 53)."""
        return self.participant.withdrawn_at is not None and None in self.rounds


@dataclass(frozen=True)
class SeasonStanding:
    """One player's line in a season's standings: the sums over its tournaments."""

    rank: int
    player: Player
    # Points per tournament of the season, by date; None where the player was not in it.
    tournaments: tuple[int | None, ...]
    total: int
    solos_won: int
    games_lost: int


@dataclass
class _Tally:
    """What a player's booked games count towards the tie-breaks (an accumulator)."""

    solos_won: int = 0
    games_lost: int = 0
    games_played: int = 0


def tournament_standings(tournament: Tournament) -> list[Standing]:
    """Every participant of `tournament`, best first, also those without a game.

    Ranked by total points, then Soli won (more is better), then games lost (fewer is
    better); participants equal in all three share a rank (1, 2, 2, 4) and are listed
    by start number. Four queries.
    """
    # The participants with their players, by start number; who sat where in which round.
    participants = list(tournament.participants.select_related("player").order_by("number"))
    seats = list(
        TableSeat.objects.filter(round__tournament=tournament)
        .order_by()
        .values_list("participant_id", "round__number", "table__evening_id")
    )
    return standings_from(tournament, participants, seats)


def standings_from(
    tournament: Tournament,
    participants: list[Participant],
    seats: list[tuple[int, int, int | None]],
) -> list[Standing]:
    """tournament_standings from what the caller has read already: the participants with
    their players, by start number, and who sat at which table's evening in which round
    (participant id, round number, evening id; None: round not started). Two queries.
    """
    round_count = max([tournament.round_count, *(number for _, number, _ in seats)])
    evenings = {evening for _, _, evening in seats if evening is not None}
    # 1. The points each player has at each of those evenings.
    points = {
        (evening, player): amount
        for evening, player, amount in EveningTotal.objects.filter(
            evening_id__in=evenings, kind=LedgerEntry.Kind.POINTS
        ).values_list("evening_id", "player_id", "amount")
    }
    # 2. The tie-breaks from the booked games of those evenings.
    tallies = _tally(Game.objects.booked().filter(evening_id__in=evenings))

    player_of = {p.pk: p.player_id for p in participants}
    rounds: dict[int, list[int | None]] = {p.pk: [None] * round_count for p in participants}
    for participant, number, evening in seats:
        if participant not in rounds or evening is None:
            # Joined after `participants` was read (in the standings next time), or a
            # round drawn but not started: nothing played there yet, "–" as not drawn.
            continue
        rounds[participant][number - 1] = points.get((evening, player_of[participant]), 0)

    lines = [(p, tuple(rounds[p.pk]), tallies.get(p.player_id, _Tally())) for p in participants]
    return [
        Standing(
            rank,
            participant,
            per_round,
            _sum(per_round),
            tally.solos_won,
            tally.games_lost,
            tally.games_played,
        )
        for rank, participant, per_round, tally in _ranked(lines, order=lambda p: p.number)
    ]


def season_standings(season: Season) -> tuple[list[Tournament], list[SeasonStanding]]:
    """The season's tournaments (by date, then as created) and every player who took part
    in one of them, best first: the sums over the tournaments, ranked as a tournament is
    (TIE_BREAK); players sharing a rank are listed by name. Four queries.

    A player is the same person in every tournament of the season (Participant.player),
    a guest entered at the door included.
    """
    # 1. The tournaments, in the order of the columns.
    tournaments = list(season.tournaments.order_by("date", "pk"))
    column = {t.pk: i for i, t in enumerate(tournaments)}
    # 2. Everyone who took part in one of them, with 0 points in those they were in; not
    # yet in one that has not begun (its column says "–" for all, as a table not played).
    players = {}
    points: dict[int, list[int | None]] = {}
    begun = Round.objects.filter(tournament=OuterRef("tournament"), started_at__isnull=False)
    taking_part = Participant.objects.filter(Exists(begun), tournament__season=season)
    for p in taking_part.select_related("player"):
        players[p.player_id] = p.player
        points.setdefault(p.player_id, [None] * len(tournaments))[column[p.tournament_id]] = 0
    # 3. Each player's points per tournament, summed over its tables by the database.
    for tournament, player, amount in (
        EveningTotal.objects.filter(
            kind=LedgerEntry.Kind.POINTS, **{f"{_TOURNAMENT}__season": season}
        )
        .values_list(f"{_TOURNAMENT}_id", "player_id")
        .annotate(points=Sum("amount"))
        .values_list(f"{_TOURNAMENT}_id", "player_id", "points")
    ):
        points[player][column[tournament]] = (points[player][column[tournament]] or 0) + amount
    # 4. The tie-breaks over every booked game of the season's tables.
    tallies = _tally(Game.objects.booked().filter(**{f"{_TOURNAMENT}__season": season}))

    lines = [
        (player, tuple(points[pk]), tallies.get(pk, _Tally())) for pk, player in players.items()
    ]
    ranked = _ranked(lines, order=lambda player: (german_key(player.name), player.pk))
    standings = [
        SeasonStanding(
            rank, player, per_tournament, _sum(per_tournament), tally.solos_won, tally.games_lost
        )
        for rank, player, per_tournament, tally in ranked
    ]
    return tournaments, standings


def _tally(games: QuerySet[Game]) -> dict[int, _Tally]:
    """{player id: tally} over `games` (booked ones), from the columns the count needs.

    Rufspiel and Über-Kreuz: the declarer's pair lost if the game was lost, else the
    other two did. Solo and Wenz: the declarer lost if the game was lost, else the
    three others did. The dealer at a table of five is not in the game's seating.
    """
    tallies: defaultdict[int, _Tally] = defaultdict(_Tally)
    for game_type, seating, declarer, partner, won in games.order_by().values_list(
        "type", "seating", "declarer_id", "partner_id", "won"
    ):
        if game_type in SOLO_GAMES:
            side = {declarer}
            if won:
                tallies[declarer].solos_won += 1
        elif game_type in PAIR_GAMES:
            side = {declarer, partner}
        else:
            side = None  # no other game is played at a ProHof table
        for player in seating:
            tally = tallies[player]
            tally.games_played += 1
            if side is not None and (player in side) != won:
                tally.games_lost += 1
    return tallies


def _sum(points: tuple[int | None, ...]) -> int:
    """The total of points per round or tournament, those not played (None) left out."""
    return sum(p for p in points if p is not None)


def _ranked[T](
    lines: Iterable[tuple[T, tuple[int | None, ...], _Tally]], order: Callable[[T], Any]
) -> list[tuple[int, T, tuple[int | None, ...], _Tally]]:
    """(rank, who, points, tally) for each line of (who, points, tally), best first: more
    points, then more Soli won, then fewer games lost, where who has played no game yet
    comes after who has (walk 40: none lost, they ranked above those who played and lost).
    Lines equal in all of it share the rank of the first of them (1, 2, 2, 4) and are
    sorted by `order` of who."""

    def key(line: tuple[T, tuple[int | None, ...], _Tally]) -> tuple[int, int, bool, int]:
        _, points, tally = line
        return (-_sum(points), -tally.solos_won, tally.games_played == 0, tally.games_lost)

    ranked: list[tuple[int, T, tuple[int | None, ...], _Tally]] = []
    previous: tuple[int, int, bool, int] | None = None
    rank = 0
    for position, line in enumerate(sorted(lines, key=lambda li: (key(li), order(li[0]))), 1):
        if key(line) != previous:
            rank, previous = position, key(line)
        who, points, tally = line
        ranked.append((rank, who, points, tally))
    return ranked


# Everything the hall display shows, as one short text that changes whenever it does: the
# tournament's own fields; its rounds (drawn, redrawn, started); its seats (a redraw or a
# swap makes new rows); its table evenings (every game booked, corrected or struck makes
# a new version); its participants with their names and withdrawals. As the text of one
# row: a row's and an array's text quote every field that holds a separator, so a ':'
# moved from the name to the venue is a new board too.
BOARD_VERSION_SQL = """
SELECT md5(ROW(t.status, t.round_count, t.games_per_round, t.name, t.venue, t.date,
    (SELECT ROW(count(*), max(r.id), max(r.drawn_at), count(r.started_at))
       FROM tournaments_round r WHERE r.tournament_id = t.id),
    (SELECT ROW(count(*), max(s.id))
       FROM tournaments_tableseat s JOIN tournaments_round r ON r.id = s.round_id
      WHERE r.tournament_id = t.id),
    (SELECT ROW(count(*), sum(e.version))
       FROM evenings_evening e WHERE e.runde_id = t.runde_id),
    (SELECT array_agg(ROW(p.id, p.number, p.withdrawn_at, pl.name) ORDER BY p.id)
       FROM tournaments_participant p JOIN clubs_player pl ON pl.id = p.player_id
      WHERE p.tournament_id = t.id))::text)
  FROM tournaments_tournament t WHERE t.id = %s
"""


def board_version(tournament: Tournament) -> str:
    """What the hall display shows, condensed: equal as long as the board would be, so a
    screen that polls gets "nothing new" from one query."""
    with connection.cursor() as cursor:
        cursor.execute(BOARD_VERSION_SQL, [tournament.pk])
        (version,) = cursor.fetchone()
    return version
