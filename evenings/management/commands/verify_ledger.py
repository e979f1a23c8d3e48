"""`manage.py verify_ledger`: everything the ledger and the audit trail claim, checked.

Per evening:
1. every game entry against the engine's rescoring of the evening's booked games, and
   each game's Bock mark;
2. every payment entry against its change (payer and payee, the amount);
3. each game as stored against what its changes say it is (booked, corrected, voided,
   undone, restored);
4. the evening totals against the sum of the ledger, its last game's number against
   the one its state keeps (Evening.last_number), and whether it is open against its
   latest closing or reopening.
Over all evenings:
5. entries that point at a game or a change of another evening, and game entries made by
   a payment or payment entries made by anything else;
6. the hash chain of each evening's changes (migration 0009).

Every finding is printed, named by evening, game or change, player and cents; the exit
status is non-zero if there is any. The whole run reads one snapshot of the database, so
a booking committed meanwhile is either wholly seen or not at all. Evenings are read in
batches (ten queries for each BATCH of them), not one by one.
"""

import contextlib
from collections import defaultdict
from collections.abc import Iterator

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.db.models import F, Sum

from evenings import services
from evenings.models import Change, Evening, EveningTotal, Game, LedgerEntry, Seat
from scoring import ScoringError

# A game is what its latest change says: `after` when it was booked, corrected or
# restored; `before` (and struck) when it was voided or undone.
_GAME_KINDS = {
    Change.Kind.BOOK: ("after", False),
    Change.Kind.CORRECT: ("after", False),
    Change.Kind.RESTORE: ("after", False),
    Change.Kind.VOID: ("before", True),
    Change.Kind.UNDO: ("before", True),
}


# The findings a failing run prints, in order (the first is where to start looking).
SHOWN = 50

# Evenings read together: a few hundred evenings' games and entries in memory at a time.
BATCH = 200


class Command(BaseCommand):
    help = (
        "Rescore every evening with the engine and check the ledger, the payments, the "
        "games against their changes and the changes' hash chain; print every finding "
        "and exit non-zero if there is one."
    )

    def handle(self, *args, **options):
        with snapshot():
            found = pointer_findings() + chain_findings()
            evenings = 0
            for batch in _batches(Evening.objects.select_related("tariff").order_by("pk")):
                for found_there in findings_of(batch).values():
                    found += found_there
                evenings += len(batch)
            games = Game.objects.booked().count()
        if found:
            shown = found[:SHOWN] + ([f"… and {len(found) - SHOWN} more"] if found[SHOWN:] else [])
            raise CommandError(
                "\n".join(shown) + f"\n{len(found)} findings in {evenings} evenings, {games} games"
            )
        self.stdout.write(f"ledger ok: {evenings} evenings, {games} games")


@contextlib.contextmanager
def snapshot() -> Iterator[None]:
    """Read everything from one snapshot of the database; inside a transaction that
    already began (a test's), its own isolation level decides."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def first_difference_in_snapshot(evening: Evening) -> str | None:
    with snapshot():
        return first_difference(evening)


def first_difference(evening: Evening) -> str | None:
    """The first finding of the evening, described; None if there is none."""
    found = findings(evening)
    return found[0] if found else None


def findings(evening: Evening) -> list[str]:
    """Everything wrong with one evening's games, ledger, payments and totals."""
    return findings_of([evening])[evening.pk]


def findings_of(evenings: list[Evening]) -> dict[int, list[str]]:
    """Everything wrong with these evenings' games, ledger, payments and totals, by
    evening id."""
    read = _Read([evening.pk for evening in evenings])
    out = {}
    for evening in evenings:
        pk, games = evening.pk, read.games[evening.pk]
        where = _Where(evening, games, dict(read.seats[pk]))
        out[pk] = (
            _game_findings(evening, games, read, where)
            + _payment_findings(evening, read.payment_entries[pk], read.payments[pk], where)
            + _change_findings(games, read.game_changes[pk], where)
            + _totals_findings(evening, read.sums[pk], read.totals[pk], where)
            + _state_findings(evening, games, read.last_numbers[pk])
            + _status_findings(evening, read.statuses[pk], read.closings.get(pk))
        )
    return out


def _batches(evenings) -> Iterator[list[Evening]]:
    batch: list[Evening] = []
    for evening in evenings.iterator(chunk_size=BATCH):
        batch.append(evening)
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _by_evening(rows) -> defaultdict[int, list]:
    """Rows whose first column is an evening's id, grouped by it (the rest of each row)."""
    grouped: defaultdict[int, list] = defaultdict(list)
    for evening_id, *rest in rows:
        grouped[evening_id].append(rest[0] if len(rest) == 1 else tuple(rest))
    return grouped


class _Read:
    """What the checks read of some evenings, each by evening id, in ten queries."""

    def __init__(self, ids: list[int]):
        # as stored now, not as the caller's evening was read
        stored = Evening.objects.filter(pk__in=ids).values_list("pk", "last_number", "status")
        self.last_numbers = {pk: last for pk, last, _status in stored}
        self.statuses = {pk: status for pk, _last, status in stored}
        # the kind of each evening's latest closing or reopening, where it has one
        self.closings = dict(
            Change.objects.filter(evening_id__in=ids, kind__in=_CLOSINGS)
            .order_by("evening_id", "-pk")
            .distinct("evening_id")
            .values_list("evening_id", "kind")
        )
        games = Game.objects.filter(evening_id__in=ids).order_by("evening_id", "number")
        self.games = _by_evening((game.evening_id, game) for game in games)
        # (player id, name) in seating order
        self.seats = _by_evening(
            Seat.objects.filter(evening_id__in=ids)
            .order_by("evening_id", "position")
            .values_list("evening_id", "player_id", "player__name")
        )
        # (kind, game id, player id, sum): game entries of a game of the same evening
        self.game_entries = _by_evening(
            LedgerEntry.objects.filter(evening_id__in=ids, game__evening_id=F("evening_id"))
            .values_list("evening_id", "kind", "game_id", "player_id")
            .annotate(total=Sum("amount"))
        )
        # (change id, player id, amount)
        self.payment_entries = _by_evening(
            LedgerEntry.objects.filter(
                evening_id__in=ids, kind=LedgerEntry.Kind.PAYMENT
            ).values_list("evening_id", "change_id", "player_id", "amount")
        )
        # (change id, after)
        self.payments = _by_evening(
            Change.objects.filter(evening_id__in=ids, kind=Change.Kind.PAYMENT)
            .order_by("evening_id", "at", "pk")
            .values_list("evening_id", "pk", "after")
        )
        # (change id, game id, kind, before, after), oldest first
        self.game_changes = _by_evening(
            Change.objects.filter(
                evening_id__in=ids, game__isnull=False, kind__in=list(_GAME_KINDS)
            )
            .order_by("evening_id", "pk")
            .values_list("evening_id", "pk", "game_id", "kind", "before", "after")
        )
        # (player id, kind, sum)
        self.sums = _by_evening(
            LedgerEntry.objects.filter(evening_id__in=ids)
            .values_list("evening_id", "player_id", "kind")
            .annotate(total=Sum("amount"))
        )
        # (player id, kind, amount)
        self.totals = _by_evening(
            EveningTotal.objects.filter(evening_id__in=ids).values_list(
                "evening_id", "player_id", "kind", "amount"
            )
        )


class _Where:
    """Names the places of one evening in findings: evening, game number, player."""

    def __init__(self, evening: Evening, games: list[Game], names: dict[int, str]):
        self.evening = evening.pk
        self.numbers = {game.pk: game.number for game in games}
        self.names = names

    def game(self, game_id: int) -> str:
        return f"evening {self.evening}, game {self.numbers.get(game_id, f'id {game_id}')}"

    def player(self, player_id: int) -> str:
        return f"player {player_id} ({self.names.get(player_id, 'not seated')})"


def _game_findings(evening: Evening, games: list[Game], read: _Read, where: _Where) -> list[str]:
    booked = [game for game in games if game.is_booked]
    try:
        result = services.score(
            evening, booked, [player for player, _name in read.seats[evening.pk]]
        )
    except ScoringError as error:
        return [f"evening {evening.pk}: the engine refuses its games: {error}"]
    found = []
    wanted: dict[tuple[int, int], int] = {}
    for game, game_result in zip(booked, result.games, strict=True):
        if game.bock != game_result.bock:
            found.append(
                f"{where.game(game.pk)}: stored as {'a' if game.bock else 'no'} Bock game, "
                f"the engine says {'it is' if game_result.bock else 'it is not'}"
            )
        for player, amount in game_result.payouts.items():
            wanted[game.pk, int(player)] = amount
    stored = {
        (game_id, player_id): total
        for kind, game_id, player_id, total in read.game_entries[evening.pk]
        if kind == evening.entry_kind
    }
    keys = sorted(wanted.keys() | stored.keys(), key=lambda k: (where.numbers[k[0]], k[1]))
    for game_id, player_id in keys:
        should, has = wanted.get((game_id, player_id), 0), stored.get((game_id, player_id), 0)
        if should != has:
            found.append(
                f"{where.game(game_id)}, {where.player(player_id)}: ledger has {has} cents, "
                f"the engine says {should}"
            )
    return found


def _payment_findings(evening: Evening, rows: list, payments: list, where: _Where) -> list[str]:
    """Each payment change's entries are exactly: the payer +amount, the payee -amount."""
    entries: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for change_id, player_id, amount in rows:
        entries[change_id][player_id] += amount
    found = []
    for change_id, after in payments:
        try:
            wanted = {after["payer"]: after["amount"], after["payee"]: -after["amount"]}
        except (KeyError, TypeError):
            found.append(f"evening {evening.pk}, change {change_id}: not a payment: {after}")
            continue
        has = dict(entries.pop(change_id, {}))
        if has != wanted:
            found.append(
                f"evening {evening.pk}, change {change_id}: the payment of {after['amount']} "
                f"cents from {where.player(after['payer'])} to {where.player(after['payee'])} "
                f"is booked as {_cents(has, where)}"
            )
    for change_id, has in entries.items():
        found.append(
            f"evening {evening.pk}, change {change_id}: payment entries without a payment: "
            f"{_cents(has, where)}"
        )
    return found


def _cents(amounts: dict[int, int], where: _Where) -> str:
    if not amounts:
        return "nothing"
    return ", ".join(f"{where.player(p)} {cents} cents" for p, cents in sorted(amounts.items()))


def _state_findings(evening: Evening, games: list[Game], last_number: int) -> list[str]:
    """The evening's last game number (Evening.last_number), which its sheet, its next
    deal and its bookings go by, is its last game's (games: by number)."""
    last = games[-1].number if games else 0
    if last_number == last:
        return []
    return [f"evening {evening.pk}: its last game is {last}, its state says {last_number}"]


_CLOSINGS = (Change.Kind.CLOSE, Change.Kind.REOPEN)


def _status_findings(evening: Evening, status: str, closing: str | None) -> list[str]:
    """The evening is open or closed as its trail says: closed by its latest closing
    (CLOSE), open after a reopening (REOPEN) or without either, but a Runde's Ausgleich,
    which is made closed. An evening opened by hand would take games its trail says
    were never to come."""
    if closing is None:
        closing = Change.Kind.CLOSE if evening.settles_runde else Change.Kind.REOPEN
    is_open = status == Evening.Status.OPEN
    if is_open == (closing == Change.Kind.REOPEN):
        return []
    says = "closed" if closing == Change.Kind.CLOSE else "open"
    return [f"evening {evening.pk}: stored as {status}, its changes say it is {says}"]


def _change_findings(games: list[Game], changes: list, where: _Where) -> list[str]:
    """Each game as stored is what its latest change says."""
    latest: dict[int, tuple[int, str, dict | None, dict | None]] = {}
    for change_id, game_id, kind, before, after in changes:
        latest[game_id] = (change_id, kind, before, after)
    found = []
    for game in games:
        if game.pk not in latest:
            found.append(f"{where.game(game.pk)}: no change records it")
            continue
        change_id, kind, before, after = latest[game.pk]
        side, struck = _GAME_KINDS[kind]
        recorded = before if side == "before" else after
        try:
            same = services.GameInput.from_json(recorded or {}) == services.GameInput.of(game)
        except TypeError:
            same = False
        if not same:
            found.append(
                f"{where.game(game.pk)}: stored as {services.GameInput.of(game).as_json()}, "
                f"change {change_id} ({kind}) says {recorded}"
            )
        if struck != (game.voided_at is not None):
            found.append(
                f"{where.game(game.pk)}: stored as {'struck' if game.voided_at else 'counting'}"
                f", change {change_id} ({kind}) says {'struck' if struck else 'counting'}"
            )
    return found


def _totals_findings(
    evening: Evening, sums_rows: list, kept_rows: list, where: _Where
) -> list[str]:
    """Each EveningTotal is the sum of its ledger entries."""
    sums = {(player_id, kind): total for player_id, kind, total in sums_rows}
    kept = {(player_id, kind): amount for player_id, kind, amount in kept_rows}
    return [
        f"evening {evening.pk}, {where.player(player_id)}: the {kind} total is "
        f"{kept.get((player_id, kind), 0)} cents, the ledger sums to "
        f"{sums.get((player_id, kind), 0)}"
        for player_id, kind in sorted(sums.keys() | kept.keys())
        if sums.get((player_id, kind), 0) != kept.get((player_id, kind), 0)
    ]


POINTERS_SQL = """
SELECT l.id, l.evening_id, l.player_id, l.amount, l.kind, g.evening_id, c.evening_id, c.kind
  FROM evenings_ledgerentry l
  JOIN evenings_change c ON c.id = l.change_id
  LEFT JOIN evenings_game g ON g.id = l.game_id
 WHERE g.evening_id <> l.evening_id
    OR c.evening_id <> l.evening_id
    OR (l.kind = 'payment') <> (c.kind = 'payment')
 ORDER BY l.id
"""


def pointer_findings() -> list[str]:
    """Ledger entries that point at another evening's game or change, or whose change is
    of the wrong kind (a game entry made by a payment, a payment entry by a game)."""
    with connection.cursor() as cursor:
        cursor.execute(POINTERS_SQL)
        rows = cursor.fetchall()
    return [
        f"evening {evening}, entry {entry} ({kind}), player {player}, {amount} cents: "
        + (
            f"its game belongs to evening {game_evening}"
            if game_evening not in (None, evening)
            else f"its change belongs to evening {change_evening}"
            if change_evening != evening
            else f"made by a change of kind {change_kind}"
        )
        for entry, evening, player, amount, kind, game_evening, change_evening, change_kind in rows
    ]


CHAIN_SQL = """
SELECT evening_id, id, kind, digest, expected FROM (
    SELECT c.evening_id, c.id, c.kind, c.digest,
           evenings_change_digest(
               coalesce(lag(c.digest) OVER (PARTITION BY c.evening_id ORDER BY c.id), ''), c
           ) AS expected
      FROM evenings_change c
) chain
 WHERE digest IS DISTINCT FROM expected
 ORDER BY evening_id, id
"""


def chain_findings() -> list[str]:
    """Changes whose digest is not the hash of their content and the previous digest:
    the first one of an evening is where its audit trail was edited."""
    with connection.cursor() as cursor:
        cursor.execute(CHAIN_SQL)
        rows = cursor.fetchall()
    return [
        f"evening {evening}, change {change} ({kind}): the audit trail was altered here "
        f"(digest {digest[:12]}…, its content and the chain give {expected[:12]}…)"
        for evening, change, kind, digest, expected in rows
    ]
