"""The payment proposal: exact and minimal on the cent, rounded down otherwise."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import ScoringError
from scoring.settlement import UNITS, Settlement, Transfer, settle, settle_after, settle_paid


@st.composite
def zero_sum_totals(draw: st.DrawFn, min_players: int = 2, max_players: int = 12) -> dict[str, int]:
    """An evening's totals: mostly multiples of 10 cents (with many coincidences, so that
    zero-sum groups occur), sometimes any cent amount, zeros included."""
    players = draw(st.integers(min_players, max_players))
    value = st.one_of(
        st.integers(-12, 12).map(lambda v: v * 10),
        st.integers(-400, 400).map(lambda v: v * 10),
        st.integers(-5000, 5000),
        st.just(0),
    )
    values = draw(st.lists(value, min_size=players - 1, max_size=players - 1))
    values.append(-sum(values))
    order = draw(st.permutations(range(players)))
    return {f"P{i}": values[i] for i in order}


@st.composite
def totals_made_of_zero_sum_groups(draw: st.DrawFn) -> dict[str, int]:
    """Up to 7 players who fall into several zero-sum groups, shuffled: the evenings where
    settling the biggest debtor against the biggest creditor would waste a transfer."""
    values: list[int] = []
    for _ in range(draw(st.integers(2, 3))):
        group = draw(st.lists(st.integers(-9, 9).map(lambda v: v * 10), min_size=1, max_size=2))
        values += [*group, -sum(group)]
    order = draw(st.permutations(range(len(values))))
    return {f"P{i}": values[i] for i in order}


def paid_and_received(result: Settlement) -> tuple[dict[str, int], dict[str, int]]:
    paid: dict[str, int] = {}
    received: dict[str, int] = {}
    for t in result.transfers:
        paid[t.payer] = paid.get(t.payer, 0) + t.amount
        received[t.payee] = received.get(t.payee, 0) + t.amount
    return paid, received


def set_partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1 :]]


def fewest_transfers_by_brute_force(totals: dict[str, int]) -> int:
    """Players minus the most zero-sum groups, trying every partition of the players."""
    amounts = [a for a in totals.values() if a != 0]
    most_groups = max(
        len(partition)
        for partition in set_partitions(amounts)
        if all(sum(block) == 0 for block in partition)
    )
    return len(amounts) - most_groups


def test_the_contract_example_is_settled_exactly_as_the_contract_shows() -> None:
    result = settle({"Sepp": 120, "Vroni": -80, "Hias": 120, "Resi": -160}, unit=10)

    assert result == Settlement(
        transfers=(
            Transfer("Resi", "Sepp", 120),
            Transfer("Resi", "Hias", 40),
            Transfer("Vroni", "Hias", 80),
        ),
        open={"Sepp": 0, "Vroni": 0, "Hias": 0, "Resi": 0},
    )
    assert list(result.open) == ["Sepp", "Vroni", "Hias", "Resi"]


def test_the_biggest_debtor_pays_the_biggest_creditor_ties_in_mapping_order() -> None:
    result = settle({"A": 10, "B": 10, "C": -10, "D": -10})

    assert result.transfers == (Transfer("C", "A", 10), Transfer("D", "B", 10))


def test_matching_amounts_settle_directly_instead_of_through_a_chain() -> None:
    result = settle({"A": 300, "B": -50, "C": 50, "D": -300})

    assert result.transfers == (Transfer("D", "A", 300), Transfer("B", "C", 50))


def test_rounding_down_leaves_the_rest_open_on_the_balance() -> None:
    result = settle({"A": -15, "B": -15, "C": 30}, unit=10)

    assert result.transfers == (Transfer("A", "C", 10), Transfer("B", "C", 10))
    assert result.open == {"A": -5, "B": -5, "C": 10}


def test_a_creditor_is_never_paid_more_than_is_owed_to_them_when_rounding_to_euros() -> None:
    result = settle({"A": 150, "B": 50, "C": -200}, unit=100)

    assert result.transfers == (Transfer("C", "A", 100),)
    assert result.open == {"A": 50, "B": 50, "C": -100}


def test_an_evening_without_balances_needs_no_transfers() -> None:
    assert settle({}) == Settlement(transfers=(), open={})
    assert settle({"A": 0, "B": 0}, unit=50) == Settlement(transfers=(), open={"A": 0, "B": 0})


def test_groups_that_sum_to_zero_are_settled_within_themselves() -> None:
    # {-50, 40, 10} and {60, -30, -30}: 4 transfers; biggest-against-biggest would need 5.
    totals = {"P0": -50, "P1": 40, "P2": 10, "P3": 60, "P4": -30, "P5": -30}

    result = settle(totals)

    assert len(result.transfers) == 4
    assert set(result.open.values()) == {0}


def test_matching_amounts_are_paired_off_first_so_big_evenings_stay_minimal() -> None:
    # 14 players, more than the exact search takes at once: after the 4 matching pairs the
    # 6 left are the groups {-50, 40, 10} and {60, -30, -30}.
    totals = {"P0": -50, "P1": 40, "P2": 10, "P3": 60, "P4": -30, "P5": -30}
    for i, amount in enumerate([35, 55, 45, 25]):
        totals[f"C{i}"] = amount
        totals[f"D{i}"] = -amount

    result = settle(totals)

    assert len(result.transfers) == 4 + 4
    assert set(result.open.values()) == {0}


def test_twelve_players_without_any_zero_sum_subgroup_need_eleven_transfers() -> None:
    totals = {f"P{i}": 2**i for i in range(11)}
    totals["P11"] = -sum(totals.values())

    result = settle(totals)

    assert len(result.transfers) == 11
    assert set(result.open.values()) == {0}


@given(zero_sum_totals())
def test_with_unit_one_every_balance_reaches_exactly_zero(totals: dict[str, int]) -> None:
    result = settle(totals)

    assert result.open == dict.fromkeys(totals, 0)
    assert len(result.transfers) <= max(len(totals) - 1, 0)


@settings(max_examples=300)
@given(st.one_of(zero_sum_totals(max_players=7), totals_made_of_zero_sum_groups()))
def test_with_unit_one_the_number_of_transfers_is_the_brute_force_minimum(
    totals: dict[str, int],
) -> None:
    assert len(settle(totals).transfers) == fewest_transfers_by_brute_force(totals)


@given(zero_sum_totals(min_players=13, max_players=24))
def test_more_players_than_the_exact_search_still_settle_in_at_most_players_minus_one(
    totals: dict[str, int],
) -> None:
    result = settle(totals)

    assert result.open == dict.fromkeys(totals, 0)
    assert len(result.transfers) <= len(totals) - 1


@given(zero_sum_totals(), st.sampled_from(UNITS))
def test_transfers_are_positive_multiples_of_the_unit_from_debtors_to_creditors(
    totals: dict[str, int], unit: int
) -> None:
    result = settle(totals, unit)

    for t in result.transfers:
        assert type(t.amount) is int
        assert t.amount > 0
        assert t.amount % unit == 0
        assert totals[t.payer] < 0
        assert totals[t.payee] > 0
    assert len(result.transfers) <= len(totals) - 1
    pairs = [(t.payer, t.payee) for t in result.transfers]
    assert len(pairs) == len(set(pairs))


@given(zero_sum_totals(), st.sampled_from(UNITS))
def test_nobody_pays_or_receives_more_than_they_are_owed(totals: dict[str, int], unit: int) -> None:
    result = settle(totals, unit)

    for name, total in totals.items():
        left = result.open[name]
        assert abs(left) <= abs(total)
        assert left * total >= 0  # the sign never flips


@given(zero_sum_totals(), st.sampled_from(UNITS))
def test_open_is_the_total_plus_what_was_paid_minus_what_was_received(
    totals: dict[str, int], unit: int
) -> None:
    result = settle(totals, unit)
    paid, received = paid_and_received(result)

    assert list(result.open) == list(totals)
    for name, total in totals.items():
        assert result.open[name] == total + paid.get(name, 0) - received.get(name, 0)
    assert sum(result.open.values()) == 0


@given(zero_sum_totals(), st.sampled_from(UNITS))
def test_no_further_transfer_of_one_unit_would_be_possible(
    totals: dict[str, int], unit: int
) -> None:
    result = settle(totals, unit)

    still_owes = [name for name, left in result.open.items() if left <= -unit]
    still_owed = [name for name, left in result.open.items() if left >= unit]
    assert not (still_owes and still_owed)


@given(zero_sum_totals(), st.sampled_from(UNITS))
def test_transfers_are_listed_biggest_debtor_first_then_biggest_creditor(
    totals: dict[str, int], unit: int
) -> None:
    names = list(totals)

    def preference(name: str) -> tuple[int, int]:
        return (-abs(totals[name]), names.index(name))

    transfers = settle(totals, unit).transfers

    keys = [(preference(t.payer), preference(t.payee)) for t in transfers]
    assert keys == sorted(keys)


@pytest.mark.parametrize("unit", [7, 0, -10, 1000, True])
def test_a_unit_other_than_1_10_50_or_100_is_refused(unit: int) -> None:
    with pytest.raises(ScoringError) as refused:
        settle({"A": 10, "B": -10}, unit)

    assert refused.value.key == "unit"
    assert refused.value.message == "must be one of 1, 10, 50, 100"
    assert refused.value.message_de == "Die Rundung muss 1, 10, 50 oder 100 Cent sein."


def test_totals_that_do_not_sum_to_zero_are_refused() -> None:
    with pytest.raises(ScoringError) as refused:
        settle({"A": 10, "B": -20})

    assert refused.value.key == "totals"
    assert "-10" in refused.value.message
    assert "-10" in refused.value.message_de


def test_a_total_that_is_not_whole_cents_is_refused() -> None:
    with pytest.raises(ScoringError) as refused:
        settle({"A": True, "B": -1})

    assert refused.value.key == "totals"


# -- settling up in steps -----------------------------------------------------------------


def test_a_part_payment_comes_off_its_transfer_and_the_others_stay() -> None:
    totals = {"Wastl": -1670, "Vroni": -1590, "Sepp": -1460, "Hias": 3260, "Resi": 1460}
    plan = settle(totals, 10)
    wastl = next(t for t in plan.transfers if t.payer == "Wastl")

    after = settle_after(totals, [("Wastl", wastl.payee, 60), ("Wastl", wastl.payee, 40)], 10)

    assert after.transfers == tuple(
        Transfer(t.payer, t.payee, t.amount - 100) if t == wastl else t for t in plan.transfers
    )
    assert after.open == plan.open


def test_a_part_payment_of_odd_cents_leaves_the_other_pairs_as_they_were() -> None:
    """Rounded to 50 cents, Hias pays Vroni 0,80 € of 2,50 €: his transfer is 1,50 € now
    and the 0,20 € rounding leaves of it stays open; Gerti still pays Sepp (a walkthrough
    found Gerti sent to Vroni instead, and Hias told to pay Vroni more than he owed her)."""
    totals = {"Gerti": -170, "Hias": -290, "Vroni": 270, "Sepp": 190}
    assert settle(totals, 50).transfers == (
        Transfer("Hias", "Vroni", 250),
        Transfer("Gerti", "Sepp", 150),
    )

    after = settle_after(totals, [("Hias", "Vroni", 80)], 50)

    assert after.transfers == (Transfer("Hias", "Vroni", 150), Transfer("Gerti", "Sepp", 150))
    assert after.open == {"Gerti": -20, "Hias": -60, "Vroni": 40, "Sepp": 40}


def test_a_payment_the_plan_did_not_propose_gets_a_fresh_plan() -> None:
    totals = {"Sepp": 120, "Vroni": -80, "Hias": 120, "Resi": -160}
    after = settle_after(totals, [("Vroni", "Sepp", 50)], 1)

    assert after == settle({"Sepp": 70, "Vroni": -30, "Hias": 120, "Resi": -160}, 1)


@st.composite
def part_payments(
    draw: st.DrawFn, in_cents: bool = False
) -> tuple[dict[str, int], int, dict[tuple[str, str], int]]:
    """Totals, a unit, and what was paid so far along some of the plan's transfers:
    whole units, up to each transfer's amount; `in_cents`, any number of cents, as cash
    is handed over (0,80 € of a transfer rounded to 50 cents)."""
    totals = draw(zero_sum_totals())
    unit = draw(st.sampled_from(UNITS))
    step = 1 if in_cents else unit
    paid = {}
    for t in settle(totals, unit).transfers:
        if steps := draw(st.integers(0, t.amount // step)):
            paid[(t.payer, t.payee)] = steps * step
    return totals, unit, paid


def in_payments(paid: dict[tuple[str, str], int]) -> list[tuple[str, str, int]]:
    """What was paid per pair as the table pays it: an even amount in two halves."""
    payments = []
    for (payer, payee), amount in paid.items():
        halves = [amount // 2, amount - amount // 2] if amount % 2 == 0 else [amount]
        payments += [(payer, payee, half) for half in halves]
    return payments


def balances_after(totals: dict[str, int], paid: dict[tuple[str, str], int]) -> dict[str, int]:
    """The balances once `paid` is paid: a payer owes less, a payee is owed less."""
    balances = dict(totals)
    for (payer, payee), amount in paid.items():
        balances[payer] += amount
        balances[payee] -= amount
    return balances


@given(part_payments())
def test_what_was_paid_along_the_plan_comes_off_it_and_nothing_else_changes(
    case: tuple[dict[str, int], int, dict[tuple[str, str], int]],
) -> None:
    totals, unit, paid = case
    plan = settle(totals, unit)

    after = settle_after(totals, in_payments(paid), unit)

    rest = {(t.payer, t.payee): t.amount - paid.get((t.payer, t.payee), 0) for t in plan.transfers}
    assert {(t.payer, t.payee): t.amount for t in after.transfers} == {
        pair: amount for pair, amount in rest.items() if amount
    }
    assert after.open == plan.open


@given(part_payments())
def test_the_rest_of_the_plan_settles_the_balances_after_the_payments(
    case: tuple[dict[str, int], int, dict[tuple[str, str], int]],
) -> None:
    totals, unit, paid = case
    balances = balances_after(totals, paid)

    after = settle_after(totals, in_payments(paid), unit)

    assert_settles_what_is_open(after, balances, unit)


def assert_settles_what_is_open(after: Settlement, balances: dict[str, int], unit: int) -> None:
    """`after` settles `balances` (those once the payments are paid): its open amounts
    are what its transfers leave, never more than was owed nor the other way; each
    transfer whole units from one who owes to one who is owed; and nothing is left that
    one more transfer of a unit could settle."""
    transferred, received = paid_and_received(after)
    for name, balance in balances.items():
        assert after.open[name] == balance + transferred.get(name, 0) - received.get(name, 0)
        assert abs(after.open[name]) <= abs(balance) and after.open[name] * balance >= 0
    for t in after.transfers:
        assert t.amount > 0 and t.amount % unit == 0
        assert balances[t.payer] < 0 < balances[t.payee]
    still_owes = [name for name, left in after.open.items() if left <= -unit]
    still_owed = [name for name, left in after.open.items() if left >= unit]
    assert not (still_owes and still_owed)


@given(part_payments(in_cents=True))
def test_any_part_payment_along_the_plan_keeps_its_pairs_and_settles_the_rest(
    case: tuple[dict[str, int], int, dict[tuple[str, str], int]],
) -> None:
    totals, unit, paid = case
    plan = settle(totals, unit)
    balances = balances_after(totals, paid)

    after = settle_after(totals, in_payments(paid), unit)

    proposed = {(t.payer, t.payee): t.amount for t in after.transfers}
    for t in plan.transfers:
        rest = t.amount - paid.get((t.payer, t.payee), 0)
        # Each pair keeps at least its rest rounded down (more where the rests allow).
        assert proposed.get((t.payer, t.payee), 0) >= rest - rest % unit
    assert_settles_what_is_open(after, balances, unit)
    assert settle_paid(balances, in_payments(paid), unit) == after


@given(part_payments())
def test_balances_that_include_the_payments_give_the_same_rest_of_the_plan(
    case: tuple[dict[str, int], int, dict[tuple[str, str], int]],
) -> None:
    # What the Runde's accounts have: the balances now, the payments in them.
    totals, unit, paid = case
    balances = balances_after(totals, paid)

    assert settle_paid(balances, in_payments(paid), unit) == settle_after(
        totals, in_payments(paid), unit
    )


@given(zero_sum_totals(), st.sampled_from(UNITS), st.data())
def test_any_other_payment_is_planned_afresh_from_the_balances_after_it(
    totals: dict[str, int], unit: int, data: st.DataObject
) -> None:
    names = list(totals)
    payer, payee = data.draw(st.permutations(names))[:2]
    amount = data.draw(st.integers(1, 5000))
    plan = {(t.payer, t.payee): t.amount for t in settle(totals, unit).transfers}
    if amount <= plan.get((payer, payee), 0):
        return  # along the plan: the tests above
    balances = dict(totals)
    balances[payer] += amount
    balances[payee] -= amount

    assert settle_after(totals, [(payer, payee, amount)], unit) == settle(balances, unit)


def test_a_tie_in_the_trim_is_broken_for_the_fewest_transfers() -> None:
    """Rounded to 50 cents, Resi (-6,80) and Vroni (-2,80) tie for the trim: trimming
    Resi took four transfers, trimming Vroni three (found in a walkthrough)."""
    totals = {"Resi": -680, "Sepp": 80, "Hias": 690, "Vroni": -280, "Wast": 190}

    plan = settle(totals, 50)

    assert [(t.payer, t.payee, t.amount) for t in plan.transfers] == [
        ("Resi", "Hias", 650),
        ("Vroni", "Wast", 150),
        ("Vroni", "Sepp", 50),
    ]
    assert plan.open == {"Resi": -30, "Sepp": 30, "Hias": 40, "Vroni": -80, "Wast": 40}


def test_a_debt_of_whole_units_is_paid_in_full_when_that_takes_fewer_transfers() -> None:
    """Rounded to 50 cents, Resi owes exactly 1,50 €. Trimming her (the least left open)
    had her pay 1,00 € and Anton pay Hias 0,50 € besides: four transfers. Trimming Anton
    instead settles in three, Resi square (found in a walkthrough)."""
    totals = {"Sepp": 310, "Vroni": 440, "Hias": 190, "Resi": -150, "Anton": -790}

    plan = settle(totals, 50)

    assert sorted((t.payer, t.payee, t.amount) for t in plan.transfers) == [
        ("Anton", "Sepp", 300),
        ("Anton", "Vroni", 400),
        ("Resi", "Hias", 150),
    ]
    assert plan.open == {"Sepp": 10, "Vroni": 40, "Hias": 40, "Resi": 0, "Anton": -90}
