"""A club with ten years of history for bench/web_bench.py, made fast.

30 players, 5 Runden, evenings of 60 games with 4 to 6 players, spread over ten years.
Every game is dealt as the app deals it and scored by the engine evening by evening; its
change and its ledger rows are then written with bulk inserts, batch by batch, so the
database's own checks (the zero-sum trigger, the totals trigger) run on every row, and
verify_ledger proves afterwards that the ledger is what the engine says.
"""

import random
import uuid
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from clubs import services as clubs
from clubs.models import Player, Tariff
from evenings import services
from evenings.models import Change, Evening, Game, LedgerEntry, Seat
from evenings.services import GameInput
from scoring import score_evening

PLAYERS = 30
RUNDEN = 5
GAMES_PER_EVENING = 60
BATCH = 40  # evenings per transaction


def game_for(deal, number: int) -> GameInput:
    """A plain table mix: Sauspiele, a Herz-Solo now and then, every seventh a Ramsch."""
    p = [player.pk for player in deal.playing]
    if number % 7 == 0:
        return GameInput("ramsch", won=False, loser=p[number % 4])
    if number % 5 == 0:
        return GameInput("farbsolo", declarer=p[1], suit="herz", won=False)
    return GameInput("sauspiel", declarer=p[0], partner=p[2], laufende=3 * (number % 3 == 0))


def make_history(games: int, seed: int = 10):
    """A club with about `games` games; returns (its admin, the club, its Runden)."""
    rng = random.Random(seed)
    admin = get_user_model().objects.create_user("chronist", password="x", first_name="Resi")
    club = clubs.create_club(admin, "Zehn Jahre Schafkopf")
    founder = club.players.get()
    others = Player.objects.bulk_create(
        Player(club=club, name=f"Spieler {i:02d}") for i in range(1, PLAYERS)
    )
    players = [founder, *others]
    runden = []
    for i in range(RUNDEN):
        runde = clubs.create_runde(club, f"Runde {i + 1}", admin)
        tariff = runde.tariffs.latest()
        tariff.bock, tariff.jungfrau = Tariff.Bock.RAMSCH, True
        clubs.change_tariff(runde, tariff, admin)
        runden.append(runde)
    evenings = games // GAMES_PER_EVENING
    start = timezone.now() - timedelta(days=3650)
    # Each Runde's evenings spread evenly over the ten years (every 11 days or so at
    # 100,000 games), and its tariff valid from before the first.
    every = timedelta(days=3650) / max(1, evenings // RUNDEN)
    plan = [
        (runden[n % RUNDEN], start + every * (n // RUNDEN) + timedelta(hours=n % RUNDEN))
        for n in range(evenings)
    ]
    for runde in runden:
        versions = list(runde.tariffs.order_by("valid_from", "pk"))
        for back, version in enumerate(reversed(versions), 1):
            Tariff.objects.filter(pk=version.pk).update(valid_from=start - timedelta(minutes=back))
    for at in range(0, evenings, BATCH):
        with transaction.atomic():
            _evenings(plan[at : at + BATCH], players, admin, rng)
    return admin, club, runden


def _evenings(plan, players, admin, rng: random.Random) -> None:
    tariffs = {runde.pk: runde.tariffs.latest() for runde, _at in plan}
    evenings = Evening.objects.bulk_create(
        Evening(
            runde=runde,
            tariff=tariffs[runde.pk],
            status=Evening.Status.CLOSED,
            started_at=at,
            closed_at=at + timedelta(hours=4),
            started_by=admin,
            version=GAMES_PER_EVENING,
            last_number=GAMES_PER_EVENING,
        )
        for runde, at in plan
    )
    seats, games, dealt = [], [], []
    for evening in evenings:
        seated = rng.sample(players, rng.choice([4, 5, 5, 6]))
        at_table = [Seat(evening=evening, player=p, position=i) for i, p in enumerate(seated)]
        seats += at_table
        for number in range(1, GAMES_PER_EVENING + 1):
            deal = services.deal_at(at_table, number - 1, number)
            game = Game(
                evening=evening,
                number=number,
                key=uuid.uuid4(),
                dealer=deal.dealer,
                seating=[p.pk for p in deal.playing],
                created_by=admin,
                created_at=evening.started_at + timedelta(minutes=4 * number),
            )
            game_for(deal, number).apply_to(game)
            games.append(game)
        dealt.append((evening, games[-GAMES_PER_EVENING:]))
    results = {}
    for evening, played in dealt:
        results[evening.pk] = score_evening(evening.tariff.rules, [g.for_engine() for g in played])
        for game, scored in zip(played, results[evening.pk].games, strict=True):
            game.bock = scored.bock
    Seat.objects.bulk_create(seats)
    Game.objects.bulk_create(games)
    changes = Change.objects.bulk_create(
        Change(
            evening=game.evening,
            game=game,
            kind=Change.Kind.BOOK,
            by=admin,
            at=game.created_at,
            after=GameInput.of(game).as_json(),
            version=game.number,
        )
        for game in games
    )
    # Each evening closed on its record, as close_evening leaves it.
    Change.objects.bulk_create(
        Change(evening=evening, kind=Change.Kind.CLOSE, by=admin, at=evening.closed_at)
        for evening in evenings
    )
    change_of = {change.game_id: change for change in changes}
    entries = []
    for evening, played in dealt:
        for game, scored in zip(played, results[evening.pk].games, strict=True):
            entries += [
                LedgerEntry(
                    evening=evening,
                    game=game,
                    change=change_of[game.pk],
                    player_id=int(player),
                    kind=LedgerEntry.Kind.GAME,
                    amount=amount,
                    created_at=game.created_at,
                )
                for player, amount in scored.payouts.items()
            ]
    LedgerEntry.objects.bulk_create(entries, batch_size=5000)
