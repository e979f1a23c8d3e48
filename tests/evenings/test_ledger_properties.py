"""Property tests: whatever is booked, corrected, voided, undone or paid, in any order, the
ledger equals the engine's scoring of the games as they stand.

Each example runs in a savepoint that is rolled back, so examples don't see each other.
The zero-sum trigger is deferred to the commit, which a rolled-back test never reaches:
after every operation the test forces the pending checks with SET CONSTRAINTS ALL
IMMEDIATE, so the trigger judges every operation as it would at a commit.
"""

import io
import uuid
from collections import defaultdict

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.db.models import Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evenings import services
from evenings.management.commands.verify_ledger import first_difference
from evenings.models import Evening, Game, LedgerEntry
from evenings.services import GameInput
from scoring import Game as EngineGame
from scoring import GameType, Suit, score_after, score_evening

PROPERTY = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
OPERATIONS = ("book", "book", "book", "correct", "void", "undo", "payment")
SUITS = [suit.value for suit in Suit]


class _Rollback(Exception):
    """Raised at the end of an example to roll its savepoint back."""


# -- strategies ------------------------------------------------------------------------


@st.composite
def tariffs(draw) -> dict[str, object]:
    laufende_min = draw(st.integers(1, 14))
    return {
        "sauspiel": draw(st.integers(0, 100)),
        "farbsolo": draw(st.integers(0, 200)),
        "wenz": draw(st.integers(0, 200)),
        "ramsch": draw(st.integers(0, 100)),
        "laufende": draw(st.integers(0, 50)),
        "laufende_min": laufende_min,
        "laufende_max": draw(st.integers(laufende_min, 14)),
        "laufende_min_wenz": draw(st.integers(1, 4)),
        "schneider": draw(st.integers(0, 50)),
        "schwarz": draw(st.integers(0, 50)),
        "bock": draw(st.sampled_from(["off", "ramsch", "ramsch_or_lost_solo"])),
        "jungfrau": draw(st.booleans()),
        "settle_unit": draw(st.sampled_from([1, 10, 50, 100])),
    }


def game_content(draw, at_table: list[int], jungfrau: bool) -> GameInput:
    """A valid game for the four Player ids at the table, per the scoring contract."""
    kind = draw(st.sampled_from(["sauspiel", "sauspiel", "farbsolo", "wenz", "ramsch"]))
    kontra = draw(st.integers(0, 2))
    doubled = draw(st.integers(0, 4))
    if kind == "ramsch":
        loser = draw(st.sampled_from(at_table))
        others = [p for p in at_table if p != loser]
        jungfrauen = (
            draw(st.lists(st.sampled_from(others), max_size=3, unique=True)) if jungfrau else []
        )
        return GameInput(
            type="ramsch",
            won=False,
            loser=loser,
            jungfrauen=tuple(jungfrauen),
            kontra=kontra,
            doubled=doubled,
        )
    declarer = draw(st.sampled_from(at_table))
    schwarz = draw(st.booleans())
    common = {
        "declarer": declarer,
        "won": draw(st.booleans()),
        "schneider": schwarz or draw(st.booleans()),  # Schwarz implies Schneider
        "schwarz": schwarz,
        "kontra": kontra,
        "doubled": doubled,
    }
    if kind == "sauspiel":
        partner = draw(st.sampled_from([p for p in at_table if p != declarer]))
        return GameInput(
            type="sauspiel", partner=partner, laufende=draw(st.integers(0, 14)), **common
        )
    tout = draw(st.booleans())
    if kind == "farbsolo":
        return GameInput(
            type="farbsolo",
            suit=draw(st.sampled_from(SUITS)),
            laufende=draw(st.integers(0, 14)),
            tout=tout,
            **common,
        )
    return GameInput(type="wenz", laufende=draw(st.integers(0, 4)), tout=tout, **common)


# -- the model the ledger must agree with ----------------------------------------------


def engine_game(seating: list[int], data: GameInput) -> EngineGame:
    """The engine's game, built from the test's own record (not from the database)."""

    def name(pid: int | None) -> str | None:
        return None if pid is None else str(pid)

    return EngineGame(
        type=GameType(data.type),
        players=tuple(str(p) for p in seating),
        declarer=name(data.declarer),
        partner=name(data.partner),
        suit=Suit(data.suit) if data.suit else None,
        won=data.won,
        laufende=data.laufende,
        schneider=data.schneider,
        schwarz=data.schwarz,
        tout=data.tout,
        kontra=data.kontra,
        doubled=data.doubled,
        loser=name(data.loser),
        jungfrauen=tuple(str(p) for p in data.jungfrauen),
    )


def game_sums(evening) -> dict[int, dict[int, int]]:
    """{game id: {player id: net cents}} from the ledger."""
    sums: dict[int, dict[int, int]] = defaultdict(dict)
    rows = (
        LedgerEntry.objects.filter(evening=evening, kind="game")
        .values_list("game_id", "player_id")
        .annotate(total=Sum("amount"))
    )
    for game_id, player_id, total in rows:
        sums[game_id][player_id] = total
    return sums


def check_ledger(evening, record: dict[int, tuple[list[int], GameInput]], paid, before) -> None:
    """Every invariant of the ledger, against the test's own record of what was done.

    `record` holds the booked games in booking order ({game id: (seating, content)}),
    `paid` each player's net payments, `before` the ledger rows as they were before the
    operation ({entry id: amount}).
    """
    # The deferred zero-sum trigger judges this operation now, as a commit would.
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")

    assert first_difference(evening) is None

    # Append-only: every earlier row is still there with its amount.
    rows = dict(LedgerEntry.objects.filter(evening=evening).values_list("pk", "amount"))
    assert before.items() <= rows.items()

    # The database holds the games the test booked, in that order.
    booked = list(evening.games.booked())
    assert [g.pk for g in booked] == list(record)
    assert [(g.seating, GameInput.of(g)) for g in booked] == list(record.values())

    # Each game's entries and each change's entries for a game sum to zero.
    sums = game_sums(evening)
    assert all(sum(per_player.values()) == 0 for per_player in sums.values())
    per_change = (
        LedgerEntry.objects.filter(evening=evening)
        .values("change", "game")
        .annotate(total=Sum("amount"))
    )
    assert {row["total"] for row in per_change} <= {0}

    # The ledger per game is the engine's payout; voided games net to zero.
    seated = list(evening.seats.values_list("player_id", flat=True))
    result = score_evening(
        evening.tariff.rules,
        [engine_game(seating, data) for seating, data in record.values()],
        [str(p) for p in seated],
    )
    for game_id, scored in zip(record, result.games, strict=True):
        wanted = {int(p): amount for p, amount in scored.payouts.items()}
        assert sums.get(game_id, {}) == wanted
    for game in evening.games.exclude(pk__in=record):
        assert set(sums.get(game.pk, {}).values()) <= {0}

    # Balances: the engine's totals plus payments, summing to zero.
    balances = services.balances(evening)
    assert sum(balances.values()) == 0
    assert balances == {p: result.totals[str(p)] + paid[p] for p in seated}


# -- driving the services --------------------------------------------------------------


def play(data: st.DataObject, runde, players, admin, set_tariff):
    """Start an evening with a random tariff and apply random operations, checking the
    ledger after each; returns the evening and the record of its booked games."""
    tariff = set_tariff(runde, **data.draw(tariffs(), label="tariff"))
    seats = data.draw(st.sampled_from([4, 5, 6]), label="seats")
    first_dealer = data.draw(st.integers(0, seats - 1), label="first dealer")
    evening = services.start_evening(runde, players[:seats], first_dealer, admin)
    assert evening.tariff == tariff
    seated = [p.pk for p in players[:seats]]

    record: dict[int, tuple[list[int], GameInput]] = {}
    paid: dict[int, int] = dict.fromkeys(seated, 0)
    steps = data.draw(st.lists(st.sampled_from(OPERATIONS), max_size=15), label="operations")
    for step in steps:
        before = dict(LedgerEntry.objects.filter(evening=evening).values_list("pk", "amount"))
        if step == "book":
            deal = services.next_deal(evening)
            at_table = [p.pk for p in deal.playing]
            content = game_content(data.draw, at_table, tariff.jungfrau)
            game, created = services.book_game(evening.pk, uuid.uuid4(), content, admin)
            assert created and game.seating == at_table
            record[game.pk] = (at_table, content)
        elif step == "correct" and record:
            game_id = data.draw(st.sampled_from(list(record)), label="corrected")
            seating = record[game_id][0]
            content = game_content(data.draw, seating, tariff.jungfrau)
            services.correct_game(evening.pk, game_id, content, admin)
            record[game_id] = (seating, content)
        elif step == "void" and record:
            game_id = data.draw(st.sampled_from(list(record)), label="voided")
            services.void_game(evening.pk, game_id, admin)
            del record[game_id]
        elif step == "undo" and record:
            undone = services.undo_last(evening.pk, admin)
            assert undone.pk == list(record)[-1]
            del record[undone.pk]
        elif step == "payment":
            payer, payee = data.draw(
                st.lists(st.sampled_from(seated), min_size=2, max_size=2, unique=True),
                label="payer, payee",
            )
            balance = services.balances(evening)
            still_open = max(min(-balance[payer], balance[payee]), 0)
            amount = data.draw(st.integers(1, 2 * still_open + 1), label="amount")
            if amount > still_open:  # more than the payer owes or the payee is owed
                with pytest.raises(services.EveningError):
                    services.record_payment(evening.pk, payer, payee, amount, admin)
            else:
                services.record_payment(evening.pk, payer, payee, amount, admin)
                paid[payer] += amount
                paid[payee] -= amount
        check_ledger(evening, record, paid, before)
    return evening, record


def rolled_back(test):
    """Run `test` inside a savepoint that is always rolled back."""
    try:
        with transaction.atomic():
            test()
            raise _Rollback
    except _Rollback:
        pass


# -- properties ------------------------------------------------------------------------


@pytest.mark.django_db
@PROPERTY
@given(data=st.data())
def test_any_sequence_of_operations_leaves_the_ledger_equal_to_the_engines_rescoring(
    data, runde, players, admin, set_tariff
):
    def example():
        _, record = play(data, runde, players, admin, set_tariff)
        # The command that checks every evening agrees (this example's is the only one).
        out = io.StringIO()
        call_command("verify_ledger", stdout=out)
        assert out.getvalue() == f"ledger ok: 1 evenings, {len(record)} games\n"
        assert Evening.objects.count() == 1
        assert Game.objects.booked().count() == len(record)

    rolled_back(example)


@pytest.mark.django_db
@PROPERTY
@given(data=st.data())
def test_the_ledger_does_not_depend_on_the_history_only_on_the_games_that_stand(
    data, runde, players, admin, set_tariff
):
    """Booking the games that stand, in order, into a fresh evening gives the same amounts.

    With 5 or 6 players a fresh evening deals differently once games were voided; each game
    is then carried over by seat: whoever sits where the original player sat takes
    their part, and their amount is compared with the original player's.
    """

    def example():
        evening, record = play(data, runde, players, admin, set_tariff)
        sums = game_sums(evening)
        seats = evening.seats.count()
        fresh = services.start_evening(runde, players[:seats], evening.first_dealer, admin)
        assert fresh.tariff == evening.tariff
        for game_id, (seating, content) in record.items():
            at_table = [p.pk for p in services.next_deal(fresh).playing]
            to_fresh = (
                {p: p for p in seating}
                if set(at_table) == set(seating)
                else dict(zip(seating, at_table, strict=True))
            )
            moved = moved_content(content, to_fresh)
            game, created = services.book_game(fresh.pk, uuid.uuid4(), moved, admin)
            assert created
            fresh_sums = game_sums(fresh)[game.pk]
            assert {p: fresh_sums[to_fresh[p]] for p in seating} == sums[game_id]
        assert first_difference(fresh) is None

    rolled_back(example)


def moved_content(content: GameInput, to: dict[int, int]) -> GameInput:
    """The same game with its players replaced by the players at the same seats."""

    def move(pid: int | None) -> int | None:
        return None if pid is None else to[pid]

    return GameInput(
        **{
            **content.as_json(),
            "declarer": move(content.declarer),
            "partner": move(content.partner),
            "loser": move(content.loser),
            "jungfrauen": tuple(to[p] for p in content.jungfrauen),
        }
    )


@pytest.mark.django_db
@PROPERTY
@given(data=st.data())
def test_a_night_at_several_tables_scores_as_one_evening(data, runde, players, admin, set_tariff):
    """Someone joins or leaves, and the night goes on at a new table, maybe more than once:
    whatever is booked at each table, and whatever is corrected or struck at one of them
    afterwards (the earlier ones opened again for it), or whichever table is given the
    Runde's newer tariff, every game's amounts and Bock mark are the engine's scoring of
    the night's games as one evening ("Eine Bockrunde gilt nur für den laufenden
    Abend"), the Bock going on from one table to the next while they play the same
    tariff version."""

    def example():
        bock = data.draw(st.sampled_from(["ramsch", "ramsch_or_lost_solo"]), label="bock")
        tariff = set_tariff(runde, **data.draw(tariffs(), label="tariff") | {"bock": bock})
        # Each table differs from the one before it.
        tables = [players[:4], players[:5], players[1:5], players[1:6]]
        count = data.draw(st.integers(1, len(tables)), label="tables")
        evening = services.start_evening(runde, tables[0], 0, admin)
        night = [evening]
        record: dict[int, tuple[Evening, list[int], GameInput]] = {}
        for index in range(count):
            # A table the night goes on from has a game booked: else it is seated anew.
            last = index == count - 1
            for _ in range(data.draw(st.integers(0 if last else 1, 6), label="games")):
                at_table = [p.pk for p in services.next_deal(evening).playing]
                content = game_content(data.draw, at_table, tariff.jungfrau)
                game, _ = services.book_game(evening.pk, uuid.uuid4(), content, admin)
                record[game.pk] = (evening, at_table, content)
            if not last:
                evening = services.continue_at_new_table(evening.pk, tables[index + 1], 0, admin)
                night.append(evening)
        for step in data.draw(st.lists(st.sampled_from(["correct", "strike", "tariff"]),
                                       max_size=3), label="afterwards"):  # fmt: skip
            if step == "tariff":
                table = data.draw(st.sampled_from(night), label="retariffed")
                newer = set_tariff(
                    runde,
                    sauspiel=tariff.sauspiel + 10,
                    bock=data.draw(
                        st.sampled_from(["off", "ramsch", "ramsch_or_lost_solo"]), label="bock"
                    ),
                )
            elif record:
                game_id = data.draw(st.sampled_from(list(record)), label="game")
                table, seating, _ = record[game_id]
            else:
                continue
            if not Evening.objects.get(pk=table.pk).is_open:
                services.reopen_evening(table.pk, admin)
            if step == "tariff":
                services.apply_tariff(table.pk, newer.pk, admin)  # fmt: skip
            elif step == "strike":
                services.void_game(table.pk, game_id, admin)
                del record[game_id]
            else:
                content = game_content(data.draw, seating, tariff.jungfrau)
                services.correct_game(table.pk, game_id, content, admin)
                record[game_id] = (table, seating, content)

        # The model: each table scored by its own tariff after the games before it, of
        # the tables before it as long as each played the same tariff version.
        scored, run, played = {}, [], None
        for table in night:
            table.refresh_from_db()
            games = [(pk, engine_game(s, c)) for pk, (t, s, c) in record.items() if t == table]
            if table.tariff_id != played:
                run, played = [], table.tariff_id
            result = score_after(table.tariff.rules, run, [game for _, game in games])
            scored |= dict(zip((pk for pk, _ in games), result.games, strict=True))
            run = [*run, *(game for _, game in games)]
        sums = {game: amounts for table in night for game, amounts in game_sums(table).items()}
        marks = dict(Game.objects.filter(pk__in=record).values_list("pk", "bock"))
        for game_id, result in scored.items():
            assert sums.get(game_id, {}) == {
                int(p): amount for p, amount in result.payouts.items()}  # fmt: skip
            assert marks[game_id] == result.bock
        out = io.StringIO()
        call_command("verify_ledger", stdout=out)
        assert out.getvalue() == f"ledger ok: {len(night)} evenings, {len(record)} games\n"

    rolled_back(example)
