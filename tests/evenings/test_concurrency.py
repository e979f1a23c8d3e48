"""Several phones writing into one evening at the same moment.

Each thread books through the services on its own database connection, so these tests
need real commits (`transaction=True`): the row lock on the evening, the unique key and
the deferred zero-sum trigger only show what they are worth between transactions.
Every evening here has four players, so everybody plays every game and a game's content
is valid whatever the deal turns out to be when its thread gets the lock.
"""

import threading
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.db.models import Count, Sum

from evenings import services
from evenings.management.commands.verify_ledger import (
    first_difference,
    first_difference_in_snapshot,
)
from evenings.models import Change, Evening, Game, LedgerEntry
from evenings.services import GameInput, KeyReused, playing_positions

pytestmark = pytest.mark.django_db(transaction=True)

JOIN_TIMEOUT = 120


def sauspiel(declarer, partner, won=True, **kw) -> GameInput:
    return GameInput(type="sauspiel", declarer=declarer.pk, partner=partner.pk, won=won, **kw)


def ramsch(loser, jungfrauen=(), **kw) -> GameInput:
    return GameInput(
        type="ramsch", won=False, loser=loser.pk, jungfrauen=tuple(p.pk for p in jungfrauen), **kw
    )


def run_at_once(count: int, work: Callable[[int], Any]) -> tuple[list[Any], list[BaseException]]:
    """Run work(0..count-1) in as many threads, released together by a barrier.

    Returns each thread's answer (None where it raised) and the exceptions raised.
    Each thread uses its own database connection and closes it when done.
    """
    barrier = threading.Barrier(count, timeout=30)
    answers: list[Any] = [None] * count
    raised: list[BaseException | None] = [None] * count

    def run(index: int) -> None:
        try:
            barrier.wait()
            answers[index] = work(index)
        except BaseException as error:  # handed to the test thread
            raised[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(JOIN_TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a thread hangs"
    return answers, raised


def errors(raised: list[BaseException | None]) -> list[BaseException]:
    return [error for error in raised if error is not None]


def four_player_evening(runde, players, admin, first_dealer=0) -> Evening:
    return services.start_evening(runde, players[:4], first_dealer, admin)


def assert_game_sums_are_zero(evening) -> None:
    per_game = LedgerEntry.objects.filter(evening=evening, kind="game").values("game")
    assert set(per_game.annotate(total=Sum("amount")).values_list("total", flat=True)) <= {0}


def test_fifty_identical_bookings_at_once_book_one_game(evening, players, admin):
    sepp, vroni, hias, resi = players[:4]
    key = uuid.uuid4()
    data = sauspiel(vroni, resi, laufende=3)

    answers, raised = run_at_once(50, lambda i: services.book_game(evening.pk, key, data, admin))

    assert errors(raised) == []
    game = Game.objects.get()
    assert [answer.pk for answer, _ in answers] == [game.pk] * 50
    assert sorted(created for _, created in answers) == [False] * 49 + [True]
    assert game.key == key and GameInput.of(game) == data and game.number == 1
    assert LedgerEntry.objects.count() == 4
    assert dict(game.ledger.values_list("player_id", "amount")) == {
        vroni.pk: 40, resi.pk: 40, hias.pk: -40, sepp.pk: -40,
    }  # fmt: skip
    assert Change.objects.filter(kind="book").count() == 1
    evening.refresh_from_db()
    assert evening.version == 1


def thread_games(players, thread: int, count: int) -> list[GameInput]:
    """Ten different games of one thread: Sauspiele and every third a Ramsch (a Bock trigger).

    Any four players are valid for any deal, since all four play every game.
    """
    games = []
    for j in range(count):
        if j % 3 == 0:
            loser = players[(thread + j) % 4]
            jungfrau = [players[(thread + j + 1) % 4]] if j % 2 else []
            games.append(ramsch(loser, jungfrau))
        else:
            declarer = players[thread % 4]
            partner = players[(thread + 1 + j % 3) % 4]
            games.append(
                sauspiel(declarer, partner, won=j % 2 == 0, laufende=j % 5, kontra=int(j % 3 == 2))
            )
    return games


def test_four_phones_booking_forty_games_into_one_evening_keep_order_dealer_and_ledger(
    runde, players, admin, tariff_with_bock, capsys
):
    evening = four_player_evening(runde, players, admin, first_dealer=2)
    threads, per_thread = 4, 10
    keys = [[uuid.uuid4() for _ in range(per_thread)] for _ in range(threads)]
    contents = [thread_games(players[:4], t, per_thread) for t in range(threads)]

    def book_ten(t: int) -> list[int]:
        return [
            services.book_game(evening.pk, key, data, admin)[0].pk
            for key, data in zip(keys[t], contents[t], strict=True)
        ]

    answers, raised = run_at_once(threads, book_ten)

    assert errors(raised) == []
    games = list(Game.objects.filter(evening=evening).order_by("number"))
    assert [g.number for g in games] == list(range(1, threads * per_thread + 1))
    assert {g.pk for g in games} == {pk for answer in answers for pk in answer}
    # Each thread's games were booked in the order it sent them, with its content.
    by_key = {g.key: g for g in games}
    for t in range(threads):
        numbers = [by_key[key].number for key in keys[t]]
        assert numbers == sorted(numbers)
        assert [GameInput.of(by_key[key]) for key in keys[t]] == contents[t]
    # The deal goes round: each dealer sits after the previous one, the others play.
    seats = list(evening.seats.values_list("player_id", flat=True))
    for index, game in enumerate(games):
        dealer = (2 + index) % 4
        assert game.dealer_id == seats[dealer]
        assert game.seating == [seats[p] for p in playing_positions(4, dealer)]
    # Appending games never touches earlier ones: exactly four entries each, summing to 0.
    counts = LedgerEntry.objects.filter(evening=evening).values("game").annotate(n=Count("id"))
    assert {row["n"] for row in counts} == {4} and len(counts) == 40
    assert_game_sums_are_zero(evening)
    # Bock really was in play, and the ledger agrees with the engine game by game.
    assert any(result.bock for result in services.score(evening).games)
    assert first_difference(evening) is None
    call_command("verify_ledger")
    assert "ledger ok: 1 evenings, 40 games" in capsys.readouterr().out
    assert sum(services.balances(evening).values()) == 0
    evening.refresh_from_db()
    assert evening.version == 40
    assert Change.objects.filter(evening=evening, kind="book").count() == 40


def test_the_same_key_with_different_content_at_once_books_one_and_refuses_the_other(
    evening, players, admin
):
    _, vroni, hias, resi = players[:4]
    key = uuid.uuid4()
    contents = [sauspiel(vroni, resi), ramsch(hias)]

    answers, raised = run_at_once(
        10, lambda i: services.book_game(evening.pk, key, contents[i % 2], admin)
    )

    game = Game.objects.get()
    winner = contents.index(GameInput.of(game))
    for i in range(10):
        if i % 2 == winner:
            assert raised[i] is None
            assert answers[i][0].pk == game.pk
        else:
            assert isinstance(raised[i], KeyReused), raised[i]
    assert sorted(answer[1] for answer in answers if answer) == [False] * 4 + [True]
    assert LedgerEntry.objects.count() == 4
    assert first_difference(evening) is None


def test_the_same_key_sent_to_several_evenings_at_once_books_one_and_refuses_the_others(
    runde, players, admin, set_tariff
):
    # Each evening on its own tariff version: the evening's lock also locks its tariff
    # row (select_related), which would otherwise serialize these bookings.
    evenings = []
    for amount in range(8):
        set_tariff(runde, sauspiel=10 + amount)
        evenings.append(four_player_evening(runde, players, admin))
    key = uuid.uuid4()
    data = sauspiel(players[1], players[3])

    _, raised = run_at_once(8, lambda i: services.book_game(evenings[i].pk, key, data, admin))

    assert Game.objects.count() == 1
    assert [type(error) for error in errors(raised)] == [KeyReused] * 7
    assert LedgerEntry.objects.count() == 4


def test_undos_at_once_each_take_back_a_different_game(runde, players, admin, tariff_with_bock):
    evening = four_player_evening(runde, players, admin)
    vroni, hias = players[1:3]
    for j in range(8):
        data = ramsch(players[j % 4]) if j % 3 == 0 else sauspiel(vroni, hias, won=j % 2 == 0)
        services.book_game(evening.pk, uuid.uuid4(), data, admin)

    answers, raised = run_at_once(3, lambda i: services.undo_last(evening.pk, admin))

    assert errors(raised) == []
    assert sorted(game.number for game in answers) == [6, 7, 8]
    assert list(evening.games.booked().values_list("number", flat=True)) == [1, 2, 3, 4, 5]
    assert first_difference(evening) is None
    assert services.next_deal(evening).dealer == players[1]  # game 5 was dealt by Sepp


def test_corrections_payments_and_bookings_at_once_leave_the_ledger_equal_to_the_engine(
    runde, players, admin, tariff_with_bock
):
    """A correction of an early game shifts the Bock chain of games booked meanwhile."""
    evening = four_player_evening(runde, players, admin)
    sepp, vroni, hias, resi = players[:4]
    early = [
        services.book_game(evening.pk, uuid.uuid4(), sauspiel(vroni, hias), admin)[0]
        for _ in range(3)
    ]

    def work(t: int) -> None:
        for j in range(6):
            if t == 0:  # books, every other game a Ramsch
                data = ramsch(players[j % 4]) if j % 2 else sauspiel(resi, sepp, laufende=j)
                services.book_game(evening.pk, uuid.uuid4(), data, admin)
            elif t == 1:  # turns an early game into a Ramsch and back
                game = early[j % 3]
                data = ramsch(sepp, [vroni]) if j % 2 == 0 else sauspiel(hias, resi, won=False)
                services.correct_game(evening.pk, game.pk, data, admin)
            elif t == 2:  # pays at the table whatever is open between two players
                payer, payee = players[j % 4].pk, players[(j + 1) % 4].pk
                with transaction.atomic():
                    Evening.objects.select_for_update().get(pk=evening.pk)
                    balance = services.balances(evening)
                    amount = min(-balance[payer], balance[payee], 10 * (j + 1))
                    if amount > 0:
                        services.record_payment(evening.pk, payer, payee, amount, admin)
            else:  # checks the ledger between the others' writes, under the evening's lock
                with transaction.atomic():
                    locked = Evening.objects.select_for_update().get(pk=evening.pk)
                    assert first_difference(locked) is None

    _, raised = run_at_once(4, work)

    assert errors(raised) == []
    assert evening.games.booked().count() == 9
    assert first_difference(evening) is None
    assert_game_sums_are_zero(evening)
    totals = services.score(evening).totals
    payments = LedgerEntry.objects.filter(evening=evening, kind="payment").balances()
    assert services.balances(evening) == {
        pid: totals[str(pid)] + payments.get(pid, 0) for pid in services.balances(evening)
    }
    call_command("verify_ledger")


def test_verify_ledger_does_not_report_a_correction_committed_while_it_reads(
    evening, players, admin, monkeypatch
):
    vroni, resi = players[1], players[3]
    game, _ = services.book_game(evening.pk, uuid.uuid4(), sauspiel(vroni, resi), admin)
    score = services.score
    writers: list[threading.Thread] = []

    def correct() -> None:
        try:
            services.correct_game(evening.pk, game.pk, sauspiel(vroni, resi, won=False), admin)
        finally:
            connection.close()

    def score_after_a_correction(*args, **kwargs):
        # Between reading the games and reading the ledger, another phone corrects game 1.
        if not writers:
            writers.append(threading.Thread(target=correct, daemon=True))
            writers[0].start()
            writers[0].join(5)  # a checker holding a lock makes the writer wait: go on
        return score(*args, **kwargs)

    monkeypatch.setattr(services, "score", score_after_a_correction)
    try:
        difference = first_difference_in_snapshot(evening)
    finally:
        monkeypatch.undo()
        writers[0].join(JOIN_TIMEOUT)

    assert difference is None
    assert first_difference(evening) is None


def test_two_phones_starting_the_ausgleich_at_once_make_one(runde, players, admin):
    """Each with its own form (no shared key): the Runde's lock lets one make it, and the
    other finds it as the Runde's newest evening."""
    evening = services.start_evening(runde, players[:4], 0, admin)
    data = GameInput(type="sauspiel", declarer=players[1].pk, partner=players[3].pk)
    services.book_game(evening.pk, uuid.uuid4(), data, admin)
    services.close_evening(evening.pk, admin)

    answers, raised = run_at_once(2, lambda _: services.start_ausgleich(runde, admin).pk)

    assert errors(raised) == []
    made = list(Evening.objects.filter(settles_runde=True).values_list("pk", flat=True))
    assert answers == made * 2


def test_an_evening_started_while_the_ausgleich_is_made_is_not_left_before_it(
    runde, players, admin
):
    """An evening whose start has not committed yet when the Ausgleich is made would be
    older than the Ausgleich but unseen by it: counted neither in its plan nor, frozen
    before it, at its own Abrechnung. The Runde's lock orders the two: here the start
    comes first, so the Ausgleich waits for it and is refused while that evening runs."""
    old = services.start_evening(runde, players[:4], 0, admin)
    data = GameInput(type="sauspiel", declarer=players[1].pk, partner=players[3].pk)
    services.book_game(old.pk, uuid.uuid4(), data, admin)
    services.close_evening(old.pk, admin)
    started, made = threading.Event(), threading.Event()

    def work(index: int):
        if index == 0:
            with transaction.atomic():
                evening = services.start_evening(runde, players[:4], 0, admin)
                started.set()
                made.wait(timeout=1)  # the Ausgleich, if it does not wait for this commit
            return evening.pk
        started.wait(timeout=30)
        try:
            return services.start_ausgleich(runde, admin).pk
        finally:
            made.set()

    answers, raised = run_at_once(2, work)

    assert [str(error) for error in errors(raised)] == [
        f"Der Abend vom {services._day(old)} ist noch offen: ausgeglichen wird, wenn er "
        "abgeschlossen ist."
    ]
    assert not Evening.objects.filter(settles_runde=True).exists()
    assert Evening.objects.get(pk=answers[0]).is_open


def test_a_first_game_at_a_new_table_booked_during_a_correction_at_the_old_one_counts_it(
    runde, players, admin, tariff_with_bock
):
    """The new table's first games take their Bock from the old table's last ones
    (services.carried_in). A phone booking there while the old table's Ramsch is being
    corrected into a Sauspiel waits for the correction, and books no Bock game."""
    sepp, vroni, hias, resi, wastl = players[:5]
    old = four_player_evening(runde, players, admin)
    last, _ = services.book_game(old.pk, uuid.uuid4(), ramsch(vroni), admin)
    new = services.continue_at_new_table(old.pk, players[:5], 0, admin)
    services.reopen_evening(old.pk, admin)
    playing = services.next_deal(new).playing
    booked: list[Game] = []

    def book() -> None:
        try:
            booked.append(
                services.book_game(new.pk, uuid.uuid4(), sauspiel(*playing[:2]), admin)[0]
            )
        finally:
            connection.close()

    booking = threading.Thread(target=book, daemon=True)
    with transaction.atomic():
        services.correct_game(old.pk, last.pk, sauspiel(vroni, resi), admin)
        booking.start()
        booking.join(1)  # the booking reads the old table meanwhile, or waits to
        assert booking.is_alive()
    booking.join(JOIN_TIMEOUT)

    [game] = booked
    game.refresh_from_db()
    assert not game.bock
    single = tariff_with_bock.sauspiel
    assert set(game.ledger.values_list("amount", flat=True)) == {-single, single}
    assert first_difference(Evening.objects.get(pk=new.pk)) is None
    assert first_difference(Evening.objects.get(pk=old.pk)) is None
