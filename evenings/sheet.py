"""The evening sheet: one row per game like the paper Schafkopf-Block.

Amounts come from the ledger (the booked truth) and the standing from the totals the
database keeps; which games were Bock games and how many are still to come comes from the
engine's scoring of the same games. Games that were struck or taken back keep their row,
struck through, so the numbering has no gaps.

A sheet can start at any game: what a booking, a correction or a poll sends is the rows
from the first game that changed on, with the running totals counted back from the
standing, so its cost follows what changed, not the length of the evening.
"""

from dataclasses import dataclass, field

from django.db.models import Sum
from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from evenings import services, wording
from evenings.models import Change, Evening, Game, LedgerEntry
from scoring import score_after

TAKEN_BACK = {Change.Kind.VOID: _("gestrichen"), Change.Kind.UNDO: _("zurückgenommen")}


@dataclass
class Cell:
    amount: int | None  # None: sat out
    total: int


@dataclass
class Row:
    game: Game
    caption: str
    unit: int = 0
    bock: bool = False
    cells: list[Cell] = field(default_factory=list)
    # Why a game no longer counts: Change.Kind.VOID or UNDO; "" while it counts.
    taken_back: str = ""

    @property
    def taken_back_label(self) -> str:
        return TAKEN_BACK.get(self.taken_back, "")


@dataclass
class Sheet:
    evening: Evening
    players: list[Player]
    rows: list[Row]  # from game `first` on
    totals: list[int]
    bock_remaining: int
    plays_bock: bool
    first: int = 1

    @property
    def standing(self) -> list[tuple[Player, int]]:
        return list(zip(self.players, self.totals, strict=True))

    @property
    def shows_bock(self) -> bool:
        """Bock games still to come; a closed evening has none."""
        return self.plays_bock and self.evening.is_open and self.bock_remaining > 0


def build(evening: Evening, first: int = 1) -> Sheet:
    """The sheet from game `first` on (1: all of it)."""
    players = [seat.player for seat in evening.seats.select_related("player")]
    names = {p.pk: p.name for p in players}
    games = list(evening.games.filter(number__gte=first))
    booked = [g for g in games if g.is_booked]
    before = [g.for_engine() for g in services.games_before(evening, first)] if first > 1 else []
    result = score_after(evening.tariff.rules, before, [g.for_engine() for g in booked])
    scored = dict(zip((g.pk for g in booked), result.games, strict=True))
    amounts: dict[tuple[int, int], int] = {
        (game_id, player_id): total
        for game_id, player_id, total in LedgerEntry.objects.filter(
            evening=evening,
            kind=LedgerEntry.Kind.GAME,
            game__number__gte=first,
            game__voided_at__isnull=True,
        )
        .values_list("game_id", "player_id")
        .annotate(total=Sum("amount"))
    }
    taken_back = dict(
        evening.changes.filter(
            kind__in=[Change.Kind.VOID, Change.Kind.UNDO],
            game__voided_at__isnull=False,
            game__number__gte=first,
        )
        .order_by("pk")
        .values_list("game_id", "kind")
    )
    standing = services.standing(evening)
    # The standing is the running total after the last game: count back from it.
    running = dict(standing)
    rows = []
    for game in reversed(games):
        row = Row(game, wording.caption(services.GameInput.of(game), names))
        if not game.is_booked:
            row.taken_back = taken_back.get(game.pk, Change.Kind.VOID)
        else:
            row.unit, row.bock = scored[game.pk].unit, scored[game.pk].bock
            for player in players:
                at_table = player.pk in game.seating
                amount = amounts.get((game.pk, player.pk), 0) if at_table else None
                row.cells.append(Cell(amount, running[player.pk]))
                running[player.pk] -= amount or 0
        rows.append(row)
    rows.reverse()
    return Sheet(
        evening=evening,
        players=players,
        rows=rows,
        totals=[standing[p.pk] for p in players],
        bock_remaining=result.bock_remaining,
        plays_bock=evening.tariff.plays_bock,
        first=first,
    )
