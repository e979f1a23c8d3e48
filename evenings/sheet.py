"""The evening sheet: one row per game like the paper Schafkopf-Block.

Amounts come from the ledger (the booked truth); which games were Bock games and how many
Bock games are still to come comes from the engine's scoring of the same games.
"""

from dataclasses import dataclass, field

from django.db.models import Sum

from clubs.models import Player
from evenings import services
from evenings.models import Evening, Game, LedgerEntry


@dataclass
class Cell:
    amount: int | None  # None: sat out
    total: int


@dataclass
class Row:
    game: Game
    unit: int
    bock: bool
    cells: list[Cell] = field(default_factory=list)


@dataclass
class Sheet:
    evening: Evening
    players: list[Player]
    rows: list[Row]
    totals: list[int]
    bock_remaining: int
    plays_bock: bool


def build(evening: Evening) -> Sheet:
    players = [seat.player for seat in evening.seats.select_related("player")]
    games = list(evening.games.booked().select_related("declarer", "partner", "loser"))
    result = services.score(evening, games)
    amounts: dict[tuple[int, int], int] = {
        (game_id, player_id): total
        for game_id, player_id, total in LedgerEntry.objects.filter(
            evening=evening, kind=LedgerEntry.Kind.GAME, game__voided_at__isnull=True
        )
        .values_list("game_id", "player_id")
        .annotate(total=Sum("amount"))
    }
    running = {p.pk: 0 for p in players}
    rows = []
    for game, game_result in zip(games, result.games, strict=True):
        row = Row(game, game_result.unit, game_result.bock)
        for player in players:
            if player.pk in game.seating:
                amount = amounts.get((game.pk, player.pk), 0)
                running[player.pk] += amount
                row.cells.append(Cell(amount, running[player.pk]))
            else:
                row.cells.append(Cell(None, running[player.pk]))
        rows.append(row)
    return Sheet(
        evening=evening,
        players=players,
        rows=rows,
        totals=[running[p.pk] for p in players],
        bock_remaining=result.bock_remaining,
        plays_bock=evening.tariff.plays_bock,
    )
