"""The evening sheet: one row per game like the paper Schafkopf-Block.

Amounts come from the ledger (the booked truth); which games were Bock games and how many
Bock games are still to come comes from the engine's scoring of the same games. Games that
were struck or taken back keep their row, struck through, so the numbering has no gaps.
"""

from dataclasses import dataclass, field

from django.db.models import Sum
from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from evenings import services, wording
from evenings.models import Change, Evening, Game, LedgerEntry

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
    rows: list[Row]
    totals: list[int]
    bock_remaining: int
    plays_bock: bool

    @property
    def standing(self) -> list[tuple[Player, int]]:
        return list(zip(self.players, self.totals, strict=True))

    @property
    def shows_bock(self) -> bool:
        """Bock games still to come; a closed evening has none."""
        return self.plays_bock and self.evening.is_open and self.bock_remaining > 0


def build(evening: Evening) -> Sheet:
    players = [seat.player for seat in evening.seats.select_related("player")]
    names = {p.pk: p.name for p in players}
    games = list(evening.games.all())
    booked = [g for g in games if g.is_booked]
    result = services.score(evening, booked)
    scored = dict(zip((g.pk for g in booked), result.games, strict=True))
    amounts: dict[tuple[int, int], int] = {
        (game_id, player_id): total
        for game_id, player_id, total in LedgerEntry.objects.filter(
            evening=evening, kind=LedgerEntry.Kind.GAME, game__voided_at__isnull=True
        )
        .values_list("game_id", "player_id")
        .annotate(total=Sum("amount"))
    }
    taken_back = dict(
        evening.changes.filter(
            kind__in=[Change.Kind.VOID, Change.Kind.UNDO], game__voided_at__isnull=False
        )
        .order_by("pk")
        .values_list("game_id", "kind")
    )
    running = {p.pk: 0 for p in players}
    rows = []
    for game in games:
        row = Row(game, wording.caption(services.GameInput.of(game), names))
        if not game.is_booked:
            row.taken_back = taken_back.get(game.pk, Change.Kind.VOID)
            rows.append(row)
            continue
        row.unit, row.bock = scored[game.pk].unit, scored[game.pk].bock
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
