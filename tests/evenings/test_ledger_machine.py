"""A state machine over the evening services: a Runde with Bock and Jungfrau plays evenings
of 4 to 6 players; games are booked, retried, corrected, voided, undone, restored and paid,
evenings are closed, reopened and followed by the next one, and requests the state does not
allow are made in between. After every step the database is checked against the machine's
own record of what was done, scored by the engine.

Each example runs in a savepoint opened when the machine is made and rolled back in its
teardown, so every example starts from the fixtures' club and a fresh Runde. The zero-sum
trigger is deferred to the commit; check_ledger forces it after every step.
"""

import uuid
from dataclasses import dataclass, field

import pytest
from django.core.cache import cache
from django.db import transaction
from django.db.models import Sum
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from clubs import services as clubs
from clubs.models import Club, Player, Tariff
from clubs.players import runde_balances
from evenings import services
from evenings.models import Change, Evening, Game, LedgerEntry
from evenings.services import EveningError, GameInput
from scoring import score_evening
from tests.evenings.test_ledger_properties import check_ledger, engine_game, game_content

MACHINE = settings(
    max_examples=25,
    stateful_step_count=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
MAX_EVENINGS = 3


@dataclass
class Record:
    """The machine's own account of one evening: the games that stand, those taken back,
    the payments. The database must agree with it after every step."""

    evening: Evening
    seated: list[int]
    # the booked games in the order they were dealt: {game id: (seating, content)}
    booked: dict[int, tuple[list[int], GameInput]] = field(default_factory=dict)
    numbers: dict[int, int] = field(default_factory=dict)  # game id: number
    # voided or undone games: {game id: ("void" or "undo", seating, content)}
    taken_back: dict[int, tuple[str, list[int], GameInput]] = field(default_factory=dict)
    paid: dict[int, int] = field(default_factory=dict)  # player id: net payments
    is_open: bool = True
    rows: dict[int, int] = field(default_factory=dict)  # the ledger at the last check

    def put(self, game_id: int, seating: list[int], content: GameInput) -> None:
        self.booked[game_id] = (seating, content)
        self.booked = dict(sorted(self.booked.items(), key=lambda item: self.numbers[item[0]]))

    def content(self, game_id: int) -> GameInput:
        if game_id in self.booked:
            return self.booked[game_id][1]
        return self.taken_back[game_id][2]


def invalid_content(draw, at_table: list[int], outsider: int) -> GameInput:
    """A game the scoring contract refuses, for the four players at the table."""
    declarer, partner = draw(st.permutations(at_table))[:2]
    return draw(
        st.sampled_from(
            [
                GameInput(type="sauspiel", declarer=declarer, partner=declarer),
                GameInput(type="sauspiel", declarer=declarer, partner=partner, laufende=15),
                GameInput(type="sauspiel", declarer=declarer, partner=partner, tout=True),
                GameInput(type="wenz", declarer=declarer, laufende=5),
                GameInput(type="farbsolo", declarer=declarer),  # no suit
                GameInput(type="wenz", declarer=outsider),
                GameInput(type="ramsch", won=False, loser=declarer, jungfrauen=(declarer,)),
            ]
        )
    )


class LedgerMachine(RuleBasedStateMachine):
    def __init__(self, club: Club, players: list[Player], by, outsider: Player):
        super().__init__()
        self.club, self.players, self.by, self.outsider = club, players, by, outsider
        self.savepoint = transaction.atomic()
        self.savepoint.__enter__()
        # The Runde's kept sums are keyed by its state (how many evenings, the sum of their
        # versions), which a run after a rolled-back one can repeat with other amounts.
        cache.clear()
        self.evenings: list[Record] = []
        # the current evening's last booking: key, content, game id, deal token
        self.last_booking: tuple[uuid.UUID, GameInput, int, str] | None = None

    def teardown(self) -> None:
        transaction.set_rollback(True)
        self.savepoint.__exit__(None, None, None)

    @property
    def current(self) -> Record:
        return self.evenings[-1]

    def start(self, players: list[Player], first_dealer: int) -> None:
        evening = services.start_evening(self.runde, players, first_dealer, self.by)
        seated = [p.pk for p in players]
        self.evenings.append(Record(evening, seated, paid=dict.fromkeys(seated, 0)))
        self.last_booking = None

    def snapshot(self) -> tuple:
        """Everything of the Runde that a refused request must leave as it was."""
        games = Game.objects.filter(evening__runde=self.runde).order_by("pk")
        return (
            list(
                LedgerEntry.objects.filter(evening__runde=self.runde)
                .order_by("pk")
                .values_list("pk", "player_id", "amount")
            ),
            [(g.pk, g.number, g.voided_at, g.bock, GameInput.of(g)) for g in games],
            list(
                Evening.objects.filter(runde=self.runde)
                .order_by("pk")
                .values_list("pk", "status", "version", "last_number")
            ),
            Change.objects.filter(evening__runde=self.runde).count(),
        )

    def refused(self, request, *args) -> EveningError:
        """Make a request that must be refused with a message and change nothing."""
        before = self.snapshot()
        with pytest.raises(EveningError) as refusal:
            request(*args)
        assert str(refusal.value)
        assert self.snapshot() == before
        return refusal.value

    # -- the Runde and its evenings --------------------------------------------------

    @initialize(
        bock=st.sampled_from([Tariff.Bock.RAMSCH, Tariff.Bock.RAMSCH_OR_LOST_SOLO]),
        seats=st.sampled_from(services.SEATS),
        data=st.data(),
    )
    def runde_with_bock_and_jungfrau(self, bock, seats, data):
        self.runde = clubs.create_runde(self.club, f"Runde {uuid.uuid4().hex[:8]}", self.by)
        tariff = self.runde.tariffs.latest()
        tariff.bock, tariff.jungfrau = bock, True
        clubs.change_tariff(self.runde, tariff, self.by)
        players = data.draw(st.permutations(self.players))[:seats]
        self.start(players, data.draw(st.integers(0, seats - 1)))
        assert self.current.evening.tariff.rules.jungfrau

    @precondition(lambda self: self.current.is_open and self.current.booked)
    @rule(then=st.sampled_from(["stays closed", "reopen", "next"]), data=st.data())
    def close(self, then, data):
        """Close the evening; mostly the Runde goes on at once (reopened or with the next
        evening), so that most steps find an open evening."""
        services.close_evening(self.current.evening.pk, self.by)
        self.current.is_open = False
        if then != "stays closed":
            self.reopen_or_start_the_next_evening(then == "next", data)

    @precondition(lambda self: not self.current.is_open)
    @rule(next_one=st.booleans(), data=st.data())
    def reopen_or_start_the_next_evening(self, next_one, data):
        if next_one and len(self.evenings) < MAX_EVENINGS:
            seats = data.draw(st.sampled_from(services.SEATS))
            players = data.draw(st.permutations(self.players))[:seats]
            self.start(players, data.draw(st.integers(0, seats - 1)))
        else:
            services.reopen_evening(self.current.evening.pk, self.by)
            self.current.is_open = True

    # -- games -----------------------------------------------------------------------

    @precondition(lambda self: self.current.is_open)
    @rule(games=st.integers(1, 6), with_token=st.booleans(), data=st.data())
    def book(self, games, with_token, data):
        """Book a few games in a row, each for the deal the evening is at."""
        record = self.current
        for _ in range(games):
            deal = services.next_deal(record.evening)
            at_table = [p.pk for p in deal.playing]
            content = game_content(data.draw, at_table, jungfrau=True)
            key = uuid.uuid4()
            token = deal.token if with_token else None
            booking = services.book(record.evening.pk, key, content, self.by, token)
            assert booking.created
            assert (booking.game.number, booking.game.seating) == (deal.number, at_table)
            record.numbers[booking.game.pk] = booking.game.number
            record.put(booking.game.pk, at_table, content)
            self.last_booking = (key, content, booking.game.pk, deal.token)

    @precondition(lambda self: self.last_booking is not None)
    @rule()
    def retry_the_last_booking(self):
        """A double tap or a retried request finds its game booked and changes nothing;
        once the game was corrected, the retry no longer matches it and is refused."""
        key, content, game_id, token = self.last_booking
        record = self.current
        if record.content(game_id) != content:
            refusal = self.refused(services.book, record.evening.pk, key, content, self.by, token)
            assert isinstance(refusal, services.KeyReused)
            return
        before = self.snapshot()
        booking = services.book(record.evening.pk, key, content, self.by, token)
        assert (booking.game.pk, booking.created) == (game_id, False)
        assert self.snapshot() == before

    @precondition(lambda self: self.current.is_open and self.current.booked)
    @rule(data=st.data())
    def correct(self, data):
        record = self.current
        game_id = data.draw(st.sampled_from(list(record.booked)))
        seating = record.booked[game_id][0]
        content = game_content(data.draw, seating, jungfrau=True)
        services.correct_game(record.evening.pk, game_id, content, self.by)
        record.booked[game_id] = (seating, content)

    @precondition(lambda self: self.current.is_open and self.current.booked)
    @rule(data=st.data())
    def void(self, data):
        record = self.current
        game_id = data.draw(st.sampled_from(list(record.booked)))
        services.void_game(record.evening.pk, game_id, self.by)
        record.taken_back[game_id] = ("void", *record.booked.pop(game_id))

    @precondition(lambda self: self.current.is_open and self.current.booked)
    @rule()
    def undo(self):
        record = self.current
        undone = services.undo_last(record.evening.pk, self.by)
        assert undone.pk == list(record.booked)[-1]
        record.taken_back[undone.pk] = ("undo", *record.booked.pop(undone.pk))

    @precondition(lambda self: self.current.is_open and self.current.taken_back)
    @rule(data=st.data())
    def restore(self, data):
        """A voided game comes back; an undone one only while no later game is booked."""
        record = self.current
        game_id = data.draw(st.sampled_from(self.restorable(record) or list(record.taken_back)))
        if game_id not in self.restorable(record):
            self.refused(services.restore_game, record.evening.pk, game_id, self.by)
            return
        services.restore_game(record.evening.pk, game_id, self.by)
        _how, seating, content = record.taken_back.pop(game_id)
        record.put(game_id, seating, content)

    @staticmethod
    def restorable(record: Record) -> list[int]:
        last = max((record.numbers[g] for g in record.booked), default=0)
        return [
            game_id
            for game_id, (how, _seating, _content) in record.taken_back.items()
            if how == "void" or record.numbers[game_id] > last
        ]

    # -- payments --------------------------------------------------------------------

    @rule(data=st.data())
    def pay(self, data):
        """Someone who owes pays (part of) it to someone who is owed, at any evening of
        the Runde, also a closed one."""
        record = data.draw(st.sampled_from(self.evenings))
        balance = services.balances(record.evening)
        pairs = [
            (payer, payee, min(-balance[payer], balance[payee]))
            for payer in record.seated
            for payee in record.seated
            if balance[payer] < 0 < balance[payee]
        ]
        if not pairs:
            return
        payer, payee, still_open = data.draw(st.sampled_from(pairs))
        amount = data.draw(st.integers(1, still_open))
        services.record_payment(record.evening.pk, payer, payee, amount, self.by)
        record.paid[payer] += amount
        record.paid[payee] -= amount

    # -- requests the state does not allow -------------------------------------------

    @rule(data=st.data())
    def a_request_the_evening_does_not_allow(self, data):
        """Refused with a message, and nothing changes in the Runde."""
        refusals = [
            self.refuse_an_invalid_evening,
            self.refuse_to_close_or_reopen_twice,
            self.refuse_an_overpayment,
            self.refuse_a_payment_outside_the_evening,
        ]
        record = self.current
        if record.is_open:
            refusals.append(self.refuse_an_invalid_game)
            if record.booked:
                refusals.append(self.refuse_an_invalid_correction)
            else:
                refusals.append(self.refuse_to_undo_nothing)
            if self.last_booking is not None:
                refusals.append(self.refuse_a_stale_deal)
        if self.last_booking is not None:
            refusals.append(self.refuse_the_key_of_another_game)
        if record.booked:
            refusals.append(self.refuse_to_restore_a_game_that_counts)
        if record.is_open and set(record.taken_back) - set(self.restorable(record)):
            refusals.append(self.refuse_to_restore_a_game_undone_before_a_later_one)
        if any(not r.is_open for r in self.evenings):
            refusals.append(self.refuse_to_change_a_closed_evening)
        data.draw(st.sampled_from(refusals))(data)

    def refuse_an_invalid_evening(self, data):
        players = self.players[:4]
        request = data.draw(
            st.sampled_from(
                [
                    (self.players[:3], 0),  # three are not an evening
                    ([*players[:3], players[0]], 0),  # one player in two seats
                    ([*players[:3], self.outsider], 0),  # another club's player
                    (players, 4),  # the first dealer does not sit at the table
                ]
            )
        )
        self.refused(services.start_evening, self.runde, *request, self.by)

    def refuse_to_close_or_reopen_twice(self, data):
        again = services.reopen_evening if self.current.is_open else services.close_evening
        self.refused(again, self.current.evening.pk, self.by)

    def refuse_an_overpayment(self, data):
        """More than the payer owes or the payee is owed (possibly nothing at all)."""
        record = data.draw(st.sampled_from(self.evenings))
        payer, payee = data.draw(st.permutations(record.seated))[:2]
        balance = services.balances(record.evening)
        still_open = max(min(-balance[payer], balance[payee]), 0)
        amount = data.draw(st.integers(still_open + 1, still_open + 1000))
        self.refused(services.record_payment, record.evening.pk, payer, payee, amount, self.by)

    def refuse_a_payment_outside_the_evening(self, data):
        record = self.current
        player, other = data.draw(st.permutations(record.seated))[:2]
        payer, payee, amount = data.draw(
            st.sampled_from(
                [
                    (player, player, 10),  # to oneself
                    (player, self.outsider.pk, 10),  # to someone not at the evening
                    (self.outsider.pk, player, 10),
                    (player, other, 0),  # nothing
                    (player, other, -10),
                ]
            )
        )
        self.refused(services.record_payment, record.evening.pk, payer, payee, amount, self.by)

    def refuse_an_invalid_game(self, data):
        record = self.current
        at_table = [p.pk for p in services.next_deal(record.evening).playing]
        content = invalid_content(data.draw, at_table, self.outsider.pk)
        pk, key = record.evening.pk, uuid.uuid4()
        refusal = self.refused(services.book_game, pk, key, content, self.by)
        assert refusal.field  # the engine names the field at fault

    def refuse_an_invalid_correction(self, data):
        record = self.current
        game_id = data.draw(st.sampled_from(list(record.booked)))
        content = invalid_content(data.draw, record.booked[game_id][0], self.outsider.pk)
        self.refused(services.correct_game, record.evening.pk, game_id, content, self.by)

    def refuse_to_undo_nothing(self, data):
        self.refused(services.undo_last, self.current.evening.pk, self.by)

    def refuse_a_stale_deal(self, data):
        """A form made before the last booking: another phone has moved the deal on."""
        record = self.current
        *_, token = self.last_booking
        at_table = [p.pk for p in services.next_deal(record.evening).playing]
        content = game_content(data.draw, at_table, jungfrau=True)
        pk, key = record.evening.pk, uuid.uuid4()
        refusal = self.refused(services.book, pk, key, content, self.by, token)
        assert isinstance(refusal, services.StaleDeal)

    def refuse_the_key_of_another_game(self, data):
        """The key of a booked game on another game (valid for the next deal)."""
        key, content, _game_id, _token = self.last_booking
        at_table = [p.pk for p in services.next_deal(self.current.evening).playing]
        other = game_content(data.draw, at_table, jungfrau=True)
        if other != content:
            refusal = self.refused(services.book, self.current.evening.pk, key, other, self.by)
            assert isinstance(refusal, services.KeyReused)

    def refuse_to_restore_a_game_that_counts(self, data):
        record = self.current
        game_id = data.draw(st.sampled_from(list(record.booked)))
        self.refused(services.restore_game, record.evening.pk, game_id, self.by)

    def refuse_to_restore_a_game_undone_before_a_later_one(self, data):
        """The deal went back to its dealer, who has dealt the game booked since."""
        record = self.current
        stale = sorted(set(record.taken_back) - set(self.restorable(record)))
        game_id = data.draw(st.sampled_from(stale))
        self.refused(services.restore_game, record.evening.pk, game_id, self.by)

    def refuse_to_change_a_closed_evening(self, data):
        record = data.draw(st.sampled_from([r for r in self.evenings if not r.is_open]))
        pk = record.evening.pk
        at_table = [p.pk for p in services.next_deal(record.evening).playing]
        content = game_content(data.draw, at_table, jungfrau=True)
        requests = [
            (services.book_game, pk, uuid.uuid4(), content, self.by),
            (services.undo_last, pk, self.by),
            *((services.restore_game, pk, game_id, self.by) for game_id in record.taken_back),
        ]
        for game_id, (seating, _content) in record.booked.items():
            correction = game_content(data.draw, seating, jungfrau=True)
            requests += [
                (services.correct_game, pk, game_id, correction, self.by),
                (services.void_game, pk, game_id, self.by),
            ]
        self.refused(*data.draw(st.sampled_from(requests)))

    # -- what must hold after every step ---------------------------------------------

    @invariant()
    def every_evening_s_ledger_is_the_engine_s_scoring_of_the_record(self):
        """Per evening (check_ledger): verify_ledger's first_difference finds nothing, the
        rows are append-only, the games that stand are the record's, each game's and each
        change's entries (a payment's too) sum to zero, and the balances are the engine's
        totals plus the payments."""
        for record in self.evenings:
            check_ledger(record.evening, record.booked, record.paid, record.rows)
            record.rows = dict(
                LedgerEntry.objects.filter(evening=record.evening).values_list("pk", "amount")
            )

    @invariant()
    def the_runde_s_money_sums_to_zero_and_each_balance_is_the_record_s(self):
        entries = LedgerEntry.objects.filter(evening__runde=self.runde)
        assert entries.aggregate(total=Sum("amount"))["total"] in (None, 0)
        per_change = entries.values("change", "game").annotate(total=Sum("amount"))
        assert not per_change.exclude(total=0).exists()
        # Each player's balance over the Runde's evenings, as the Runde page shows it.
        expected: dict[int, int] = {}
        for record in self.evenings:
            result = score_evening(
                record.evening.tariff.rules,
                [engine_game(seating, content) for seating, content in record.booked.values()],
                [str(p) for p in record.seated],
            )
            for player in record.seated:
                cents = result.totals[str(player)] + record.paid[player]
                expected[player] = expected.get(player, 0) + cents
        shown = {row.player_id: row.total for row in runde_balances(self.runde, None)}
        assert sum(shown.values()) == 0
        assert set(shown) <= set(expected)
        assert {player: shown.get(player, 0) for player in expected} == expected


@pytest.mark.django_db
def test_any_run_of_an_evening_s_services_keeps_the_ledger_right(club, players, admin):
    # LedgerMachine.TestCase would be a unittest TestCase, which pytest-django gives no
    # database; the machine runs inside this test instead, in its transaction.
    outsider = Player.objects.create(club=Club.objects.create(name="Anderer Verein"), name="Fremd")
    run_state_machine_as_test(
        lambda: LedgerMachine(club, players, admin, outsider), settings=MACHINE
    )
