from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.db.models import Sum

from evenings import services
from evenings.models import Evening, EveningTotal, LedgerEntry


class Command(BaseCommand):
    help = (
        "Rescore every evening from its stored games with the engine and compare with the "
        "ledger; exit non-zero and name the first difference."
    )

    def handle(self, *args, **options):
        evenings = Evening.objects.select_related("tariff").order_by("pk")
        checked = games = 0
        for evening in evenings.iterator():
            difference = first_difference_in_snapshot(evening)
            if difference:
                raise CommandError(difference)
            checked += 1
            games += evening.games.booked().count()
        self.stdout.write(f"ledger ok: {checked} evenings, {games} games")


def first_difference_in_snapshot(evening: Evening) -> str | None:
    """first_difference, with games and ledger read from one snapshot of the database, so
    a booking committed while we read is either wholly seen or not at all.

    Inside a transaction that already began, its own isolation level decides.
    """
    if connection.in_atomic_block:
        return first_difference(evening)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        return first_difference(evening)


def first_difference(evening: Evening) -> str | None:
    """The first place where the ledger and the engine disagree, described; else None."""
    booked = list(evening.games.booked())
    result = services.score(evening, booked)
    wanted: dict[tuple[int, int], int] = {}
    for game, game_result in zip(booked, result.games, strict=True):
        for player, amount in game_result.payouts.items():
            wanted[game.pk, int(player)] = amount
    numbers = dict(evening.games.values_list("pk", "number"))
    stored = {
        (game_id, player_id): total
        for game_id, player_id, total in LedgerEntry.objects.filter(evening=evening, kind="game")
        .values_list("game_id", "player_id")
        .annotate(total=Sum("amount"))
        .order_by("game__number", "player_id")
    }
    for game, game_result in zip(booked, result.games, strict=True):
        if game.bock != game_result.bock:
            return (
                f"evening {evening.pk}, game {game.number}: stored as "
                f"{'a' if game.bock else 'no'} Bock game, the engine says "
                f"{'it is' if game_result.bock else 'it is not'}"
            )
    keys = sorted(wanted.keys() | stored.keys(), key=lambda k: (numbers[k[0]], k[1]))
    for game_id, player_id in keys:
        should, has = wanted.get((game_id, player_id), 0), stored.get((game_id, player_id), 0)
        if should != has:
            return (
                f"evening {evening.pk}, game {numbers[game_id]}, player {player_id}: "
                f"ledger has {has} cents, the engine says {should}"
            )
    payments = LedgerEntry.objects.filter(evening=evening, kind="payment").aggregate(
        total=Sum("amount")
    )["total"]
    if payments:
        return f"evening {evening.pk}: payments sum to {payments} cents, not zero"
    return _totals_difference(evening)


def _totals_difference(evening: Evening) -> str | None:
    """The first EveningTotal that is not the sum of its ledger entries, described."""
    sums = {
        (player_id, kind): total
        for player_id, kind, total in LedgerEntry.objects.filter(evening=evening)
        .values_list("player_id", "kind")
        .annotate(total=Sum("amount"))
    }
    kept = {
        (player_id, kind): amount
        for player_id, kind, amount in EveningTotal.objects.filter(evening=evening).values_list(
            "player_id", "kind", "amount"
        )
    }
    for player_id, kind in sorted(sums.keys() | kept.keys()):
        if sums.get((player_id, kind), 0) != kept.get((player_id, kind), 0):
            return (
                f"evening {evening.pk}, player {player_id}: the {kind} total is "
                f"{kept.get((player_id, kind), 0)} cents, the ledger sums to "
                f"{sums.get((player_id, kind), 0)}"
            )
    return None
