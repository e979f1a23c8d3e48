"""The payment proposal at the end of an evening: who pays whom, and how much.

Balances are exact integer cents and stay exact. Only the proposal may round, and only
down, to a whole multiple of ``unit`` (1, 10, 50 or 100 cents) so that nobody has to
dig for small change; what rounding leaves stays on the balance as ``open``.

Algorithm:

1. Round every balance towards zero to a multiple of ``unit``: what each debtor can pay
   and what each creditor can receive. The two sides may now differ by a few units.
2. Trim the larger side one unit at a time until both sides are equal. The untrimmed side
   is then settled down to less than one unit each, so no further transfer would be
   possible. At a small table every way of trimming is tried (up to TRIM_WAYS of them) and
   the one that settles in the fewest transfers is kept: a debt that is a whole number
   of units may then be paid in full while another debtor is trimmed (Resi's 1,50 € to
   Hias in one transfer rather than 1,00 € and a transfer more). Where ways need as many
   transfers, each trim comes from the player who would be left with the least open, and
   equal ones in mapping order; beyond the small table only that way is taken.
3. Settle these amounts exactly, in as few transfers as possible: split the players into
   as many groups that sum to zero as possible (each group of k players needs k - 1
   transfers, and no fewer), then within each group the biggest debtor pays the biggest
   creditor until the group is even.

With ``unit`` 1 nothing is rounded or trimmed and every balance ends at exactly zero.

While the table settles up, ``settle_after`` keeps the plan: what was paid along a
proposed transfer comes off that transfer, and the others stay as they were.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from scoring.errors import ScoringError

UNITS = (1, 10, 50, 100)

# Largest number of players for the exact search over all subsets (2**n masks). Twelve
# players take a few milliseconds; beyond that a greedy settles the rest.
EXACT_LIMIT = 12

# The ways of trimming (step 2) are all tried at a table of up to TRIM_TABLE players with
# a balance, at most TRIM_WAYS of them: each way is one exact search of its groups.
TRIM_TABLE = 8
TRIM_WAYS = 16


@dataclass(frozen=True)
class Transfer:
    payer: str
    payee: str
    amount: int  # cents, > 0, a whole multiple of the settlement's unit


@dataclass(frozen=True)
class Settlement:
    transfers: tuple[Transfer, ...]
    # Per player, in the order of the totals: what remains after the transfers
    # (total + paid - received); zero everywhere when unit is 1.
    open: dict[str, int]


def settle(totals: Mapping[str, int], unit: int = 1) -> Settlement:
    """Propose transfers that settle the evening's ``totals`` (cents, summing to zero).

    Positive totals are owed money, negative ones owe. Every transfer is a whole multiple
    of ``unit``; nobody pays more than they owe or receives more than they are owed.
    Transfers are listed biggest debtor first, and for each payer biggest creditor first
    (ties in the order of ``totals``).
    """
    _check(totals, unit)
    names = list(totals)
    balances = [totals[name] for name in names]

    rank = _rank(balances)
    fewest: tuple[int, list[int], list[list[int]]] | None = None
    for targets in _rounded_targets(balances, unit):  # steps 1 and 2
        groups = _zero_sum_groups(targets, rank)
        needed = sum(1 for target in targets if target) - len(groups)
        if fewest is None or needed < fewest[0]:
            fewest = (needed, targets, groups)
    assert fewest is not None
    _needed, targets, groups = fewest
    transfers: list[tuple[int, int, int]] = []
    for group in groups:  # step 3
        transfers.extend(_settle_group(group, targets, rank))
    transfers.sort(key=lambda t: (rank[t[0]], rank[t[1]]))

    open_ = list(balances)
    for payer, payee, amount in transfers:
        open_[payer] += amount
        open_[payee] -= amount
    return Settlement(
        transfers=tuple(Transfer(names[p], names[q], amount) for p, q, amount in transfers),
        open=dict(zip(names, open_, strict=True)),
    )


def settle_after(
    totals: Mapping[str, int], payments: Iterable[tuple[str, str, int]], unit: int = 1
) -> Settlement:
    """The proposal for ``totals`` (before any payment) less what was paid so far
    (``payments``: payer, payee, cents, in any number): a table that has paid part of the
    plan is shown the rest of the same plan, not a new one with other pairs.

    Each payment must have gone along a proposed transfer, no further than it. Otherwise
    (a payment the plan did not propose) the proposal is made afresh from the balances
    after the payments, as ``settle`` makes it. A part payment that leaves its transfer
    a rest that is not a whole multiple of ``unit`` (0,80 € of 1,00 €, rounded to 50
    cents) leaves the transfer that rest rounded down; what that leaves is open, and
    whatever the open rests then allow in whole units is proposed on top. Either way it
    settles what is open after the payments: ``open`` is what remains once the transfers
    proposed are paid too.
    """
    _check(totals, unit)
    paid: dict[tuple[str, str], int] = {}
    for payer, payee, amount in payments:
        paid[payer, payee] = paid.get((payer, payee), 0) + amount
    plan = settle(totals, unit)
    left = {(t.payer, t.payee): t.amount for t in plan.transfers}
    for pair, amount in paid.items():
        if not 0 < amount <= left.get(pair, 0):
            return settle(_after(totals, paid), unit)
        left[pair] -= amount
    open_ = dict(plan.open)
    for (payer, payee), amount in left.items():
        rest = amount % unit
        left[payer, payee] -= rest
        open_[payer] -= rest  # still owes it,
        open_[payee] += rest  # and is still owed it
    if open_ != plan.open:
        more = settle(open_, unit)
        for t in more.transfers:
            left[t.payer, t.payee] = left.get((t.payer, t.payee), 0) + t.amount
        open_ = more.open
    return Settlement(
        transfers=tuple(Transfer(p, q, amount) for (p, q), amount in left.items() if amount),
        open=open_,
    )


def settle_paid(
    balances: Mapping[str, int], payments: Iterable[tuple[str, str, int]], unit: int = 1
) -> Settlement:
    """``settle_after`` for ``balances`` that include ``payments`` already: the proposal
    made before they were paid, less what was paid along it."""
    paid = list(payments)
    before = dict(balances)
    for payer, payee, amount in paid:
        before[payer] = before.get(payer, 0) - amount
        before[payee] = before.get(payee, 0) + amount
    return settle_after(before, paid, unit)


def _after(totals: Mapping[str, int], paid: Mapping[tuple[str, str], int]) -> dict[str, int]:
    """The balances once ``paid`` is paid: a payer owes less, a payee is owed less."""
    balances = dict(totals)
    for (payer, payee), amount in paid.items():
        balances[payer] += amount
        balances[payee] -= amount
    return balances


def _check(totals: Mapping[str, int], unit: int) -> None:
    if isinstance(unit, bool) or unit not in UNITS:
        raise ScoringError(
            "unit",
            "must be one of 1, 10, 50, 100",
            "Die Rundung muss 1, 10, 50 oder 100 Cent sein.",
        )
    for name, total in totals.items():
        if isinstance(total, bool) or not isinstance(total, int):
            raise ScoringError(
                "totals",
                f"{name}: must be a whole number of cents",
                f"{name}: Der Kontostand muss ein ganzer Cent-Betrag sein.",
            )
    imbalance = sum(totals.values())
    if imbalance != 0:
        raise ScoringError(
            "totals",
            f"must sum to zero, not {imbalance} cents",
            f"Die Kontostände müssen zusammen null ergeben, nicht {imbalance} Cent.",
        )


def _rank(balances: list[int]) -> list[int]:
    """Each player's place in the order of preference: biggest amount first, either side."""
    order = sorted(range(len(balances)), key=lambda i: (-abs(balances[i]), i))
    rank = [0] * len(balances)
    for place, i in enumerate(order):
        rank[i] = place
    return rank


def _rounded_targets(balances: list[int], unit: int) -> list[list[int]]:
    """What each player will actually pay (negative) or receive (positive), each list
    summing to zero: one per way of trimming, the first trimming whoever is left with the
    least open (ties in mapping order); only that first beyond TRIM_TABLE players, and at
    most TRIM_WAYS ways."""
    # `//` on a non-negative amount: the one place where rounding (down) is wanted.
    first = [(b // unit) * unit if b >= 0 else -((-b // unit) * unit) for b in balances]
    # Exact: every target is a multiple of unit. > 0: creditors would get more than is paid.
    excess = sum(first) // unit
    explore = sum(1 for b in balances if b) <= TRIM_TABLE
    ways = [first]
    while excess != 0:
        sign = 1 if excess > 0 else -1
        trimmed: list[list[int]] = []
        for targets in ways:
            # Trim whoever is left with the least open after the trim first; at a small
            # table every other choice too, as a way of its own (a debt paid in full by
            # one and a trim from another may settle in fewer transfers).
            opens = {i: abs(balances[i] - t) for i, t in enumerate(targets) if t * sign > 0}
            for i in sorted(opens, key=lambda i: opens[i]):
                way = list(targets)
                way[i] -= sign * unit
                if way not in trimmed:
                    trimmed.append(way)
                if not explore:
                    break
        ways = trimmed[:TRIM_WAYS]
        excess -= sign
    return ways


def _zero_sum_groups(amounts: list[int], rank: list[int]) -> list[list[int]]:
    """Split the players with a non-zero amount into as many zero-sum groups as possible.

    A group of k players can be evened in k - 1 transfers and never in fewer, so the
    fewest transfers overall are (players - groups).
    """
    remaining = sorted((i for i, a in enumerate(amounts) if a != 0), key=lambda i: rank[i])

    # 1. A debtor and a creditor with the same amount form a group of their own: some
    #    partition with the most groups always contains that pair, so nothing is lost.
    groups: list[list[int]] = []
    for i in list(remaining):
        if i not in remaining or amounts[i] > 0:
            continue
        match = next((j for j in remaining if amounts[j] == -amounts[i]), None)
        if match is not None:
            groups.append([i, match])
            remaining.remove(i)
            remaining.remove(match)

    if not remaining:
        return groups
    if len(remaining) > EXACT_LIMIT:
        # Too many for the exact search: one group, still at most len - 1 transfers.
        return [*groups, remaining]

    # 2. For every subset (bit i = remaining[i]) its sum and the most zero-sum groups it
    #    splits into: remove any one member, keep the best, add one if the subset itself
    #    sums to zero (it then closes a group).
    n = len(remaining)
    full = (1 << n) - 1
    sums = [0] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + amounts[remaining[low.bit_length() - 1]]
        most = 0
        rest = mask
        while rest:
            low = rest & -rest
            most = max(most, best[mask ^ low])
            rest ^= low
        best[mask] = most + (1 if sums[mask] == 0 else 0)

    # 3. Walk back from the full set along optimal removals (first in rank order); each
    #    stretch between two zero-sum subsets on the way is one group.
    group: list[int] = []
    mask = full
    while mask:
        closes = 1 if sums[mask] == 0 else 0
        k = next(
            k for k in range(n) if mask >> k & 1 and best[mask ^ (1 << k)] + closes == best[mask]
        )
        group.append(remaining[k])
        mask ^= 1 << k
        if sums[mask] == 0:
            groups.append(group)
            group = []
    return groups


def _settle_group(
    group: list[int], amounts: list[int], rank: list[int]
) -> list[tuple[int, int, int]]:
    """Even a zero-sum group: the biggest debtor pays the biggest creditor, until even.

    Each transfer evens at least one of the two and the last evens both, so a group of
    k players takes at most k - 1 transfers.
    """
    left = {i: amounts[i] for i in group}
    transfers: list[tuple[int, int, int]] = []
    while any(left.values()):
        payer = min((i for i in group if left[i] < 0), key=lambda i: (left[i], rank[i]))
        payee = min((i for i in group if left[i] > 0), key=lambda i: (-left[i], rank[i]))
        amount = min(-left[payer], left[payee])
        left[payer] += amount
        left[payee] -= amount
        transfers.append((payer, payee, amount))
    return transfers
