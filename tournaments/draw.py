"""The table draw of a ProHof tournament round.

Plain Python, standard library only: no Django, no I/O, no clock. Participants are ints
(the app passes its participant ids); a round is a list of tables, a table a list of ids
in seat order (the first seat deals first), and the tables are numbered in list order.

The draw is random but repeatable: everything random comes from ``random.Random(seed)``,
so the stored seed together with the participants and the earlier rounds redoes the
draw exactly, and anyone can check that it was not arranged. ``random.Random`` seeded
with an int gives the same sequence on every CPython since 3.2; the app should store a
non-negative seed (``Random`` ignores the sign, so ``-7`` and ``7`` draw alike).

Tables seat 4; when the number of participants is not a multiple of 4, some tables seat
5 and their dealer sits out each game (``table_sizes``), so everyone there plays only
four games of five. First of all the draw seats at the tables of 5 those who have sat at
one least often, so that over the rounds nobody sits there more often than the field
requires and everyone plays as many games as can be (``repeated_big_tables``); then,
from round 2 on, it seats together as few players as possible who already sat together,
spreading the repeats that cannot be avoided rather than seating one pair together again
and again (``repeats``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise

TABLE = 4
"""Players at a table: a Schafkopf game has four."""

BIG_TABLE = TABLE + 1
"""A table with one player more, whose dealer sits out each game."""

RESTARTS = 32
"""Fresh shuffles the search tries at most before it keeps its best draw; it stops early
once a draw cannot be beaten. Measured (tests/tournaments/test_draw.py and by hand): in
the small cases one shuffle alone mostly finds the least cost, 8 found it for every seed
tried, and the rest are spare for late rounds. The slowest draw measured, 60 players in
round 20, takes under 0.1 s. Changing the search, this number included, changes the
tables a stored seed gives."""

Round = Sequence[Sequence[int]]
"""The tables of one round, each the ids at it."""


class DrawError(ValueError):
    """The participants cannot be drawn to tables.

    ``str(err)`` is an English line for logs; ``message_de`` is the German sentence the
    page shows to the tournament's organiser.
    """

    def __init__(self, message: str, message_de: str) -> None:
        super().__init__(message, message_de)
        self.message = message
        self.message_de = message_de

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, order=True)
class DrawCost:
    """What a draw costs; the lower the better, and ``<`` compares the fields in order.

    ``repeated_big_tables``: for each player at a table of 5, the square of the number
    of earlier rounds in which they already sat at one (``repeated_big_tables``). It is
    least exactly when the tables of 5 go to those who sat at one least often: two
    players there a second time rather than one a third time. It comes first because it
    decides how many games a player plays (32 of 40 at a table of 5): with 9 players
    over 3 rounds, a draw that put repeated partners first seated two players at the
    table of 5 a third time while another never sat there, 96 games against 120.
    ``repeats``: for each pair of players at the same table, the square of the number
    of earlier rounds in which they sat together (``repeats``). A pair meeting a second
    time costs 1, a third time 4, a fourth 9: the draw seats four pairs together a
    second time rather than one pair a third time, and with as many repeats either way
    it never seats a pair together a third time where it need not.
    One more unit of ``repeated_big_tables`` outweighs any number of repeated partners.
    """

    repeated_big_tables: int
    repeats: int


def table_sizes(n: int) -> list[int]:
    """The sizes of the tables for ``n`` participants, tables of 5 first.

    Tables of 4, with as few tables of 5 as possible: ``n = 4a + 5b`` with the least
    ``b``, which is ``n mod 4`` (every table of 5 adds one to the remainder). Raises
    ``DrawError`` when no such split exists, which is for fewer than 4 participants and
    for 6, 7 and 11.
    """
    big = n % TABLE
    if n < TABLE or big * BIG_TABLE > n:
        raise DrawError(f"{n} participants cannot sit at tables of 4 or 5", _impossible_de(n))
    return [BIG_TABLE] * big + [TABLE] * ((n - big * BIG_TABLE) // TABLE)


def draw(participants: Sequence[int], seed: int, earlier: Sequence[Round] = ()) -> list[list[int]]:
    """The tables of the next round.

    ``participants`` are the ids to seat (their order does not matter); ``earlier`` are
    the rounds before, oldest first. Ids in ``earlier`` that no longer take part are
    ignored, and participants who are not in ``earlier`` (late arrivals) have sat with
    nobody yet. Every participant gets exactly one seat; the table sizes are
    ``table_sizes(len(participants))``, in that order. The same arguments always give
    the same tables, seat for seat. The draw minimises ``cost`` (the tables of 5 for
    those who sat at one least often, first; then repeated table partners, spread out)
    by a seeded local search. Its first aim it always reaches (a swap of a player at a
    table of 5 with one who sat there less often lowers the cost, so no local minimum
    leaves one); the second it reaches in the measured small cases but does not promise
    in general.

    1. Sort the participants, so the draw depends on who plays and not on the order
       the app happened to list them in; refuse duplicates and impossible counts.
    2. Count from ``earlier`` how often each two participants sat at one table (their
       cost together is the square of that), and how often each sat at a table of 5
       (the square of that too).
    3. Shuffle the participants with the seeded generator and seat them in that order,
       table by table: this is the draw of round 1, where nobody has sat together yet.
    4. Swap two players of different tables whenever that lowers the cost, until no
       swap does (a local minimum). The swapped player takes the other's seat.
    5. Unless that reached the least cost there can be (no repeated pair, and the tables
       of 5 given to those who sat at one least often), repeat 3 and 4 with a new
       shuffle from the same generator, up to ``RESTARTS`` times, and keep the first of
       the cheapest draws.
    """
    # 1. Who plays, in a fixed order.
    ids = sorted(participants)
    for first, second in pairwise(ids):
        if first == second:
            raise DrawError(
                f"participant {first} is listed twice",
                f"Teilnehmer {first} ist doppelt gemeldet.",
            )
    sizes = table_sizes(len(ids))

    # 2. The history, as matrices over the positions in ``ids``.
    met, big_times = _history(ids, earlier)
    together = [[times * times for times in row] for row in met]
    big_before = [times * times for times in big_times]
    n = len(ids)
    big_seats = sum(size for size in sizes if size == BIG_TABLE)
    # The least the tables of 5 can cost; and a weight that makes one more unit of it
    # outweigh any arrangement of the pairs, so the search minimises lexically.
    least_big = sum(sorted(big_before)[:big_seats])
    weight = sum(map(sum, together)) // 2 + 1
    is_big = [size == BIG_TABLE for size in sizes]

    rng = random.Random(seed)
    best: list[list[int]] = []
    best_cost = 0
    for _ in range(RESTARTS):
        # 3. A shuffled seating.
        order = list(range(n))
        rng.shuffle(order)
        tables: list[list[int]] = []
        start = 0
        for size in sizes:
            tables.append(order[start : start + size])
            start += size
        # 4. Down to a local minimum.
        cost = _improve(tables, together, big_before, is_big, weight)
        if not best or cost < best_cost:
            best, best_cost = tables, cost
        # 5. Nothing can beat the least possible cost.
        if best_cost == weight * least_big:
            break
    return [[ids[player] for player in table] for table in best]


def pairs(tables: Round) -> Iterator[tuple[int, int]]:
    """Every two players who sit at one of ``tables``, the smaller id first."""
    for table in tables:
        for first, second in combinations(sorted(table), 2):
            if first != second:
                yield first, second


def repeated_pairs(tables: Round, earlier: Sequence[Round] = ()) -> int:
    """How many pairs at ``tables`` already sat together in ``earlier`` rounds, each
    pair once however often it did. 0 means everyone has new partners."""
    met = _met(earlier)
    return sum(1 for pair in pairs(tables) if met[pair])


def repeats(tables: Round, earlier: Sequence[Round] = ()) -> int:
    """What the draw minimises first: over the pairs at ``tables``, the square of the
    number of ``earlier`` rounds in which each sat together (``DrawCost.repeats``)."""
    met = _met(earlier)
    return sum(met[pair] ** 2 for pair in pairs(tables))


def _met(earlier: Sequence[Round]) -> Counter[tuple[int, int]]:
    """{pair: the earlier rounds in which it sat at one table}."""
    return Counter(pair for tables_before in earlier for pair in pairs(tables_before))


def repeated_big_tables(tables: Round, earlier: Sequence[Round] = ()) -> int:
    """For each player at a table of 5 in ``tables``, the square of the earlier rounds
    in which they also sat at a table of 5, summed. 0 means nobody sits out a second
    time; a third time costs 4, as two players there a second time do."""
    before = _big_before(earlier)
    return sum(
        before[player] ** 2 for table in tables if len(table) == BIG_TABLE for player in table
    )


def big_tables_beyond_need(tables: Round, earlier: Sequence[Round] = ()) -> dict[int, int]:
    """The players at a table of 5 in ``tables`` who sat at one in more ``earlier`` rounds
    than someone at a table of 4 in ``tables``: {player: their tables of 5, this one
    included}. Swapping the two would spread the tables of 5 more evenly, so ``draw``
    never leaves any; a swap by hand can."""
    before = _big_before(earlier)
    fewest = min(
        (before[player] for table in tables if len(table) != BIG_TABLE for player in table),
        default=None,
    )
    if fewest is None:
        return {}
    return {
        player: before[player] + 1
        for table in tables
        if len(table) == BIG_TABLE
        for player in table
        if before[player] > fewest
    }


def big_table_swaps(tables: Round, earlier: Sequence[Round] = ()) -> tuple[int, dict[int, int]]:
    """How many swaps of a player at a table of 5 with one at a table of 4 in ``tables``
    would spread the tables of 5 evenly again, and who at a table of 4 sat at one in
    fewer ``earlier`` rounds than someone at a table of 5: {player: those rounds}. Walk
    72: one seat too many read as eight, since everyone at a table of 5 beyond the
    fewest is named (``big_tables_beyond_need``), and the one to swap with was not."""
    before = _big_before(earlier)
    big = sorted((before[p] for t in tables if len(t) == BIG_TABLE for p in t), reverse=True)
    small = [player for table in tables if len(table) != BIG_TABLE for player in table]
    # The most at a table of 5 against the fewest at one of 4, pair by pair.
    swaps = sum(
        1 for five, four in zip(big, sorted(before[p] for p in small), strict=False) if five > four
    )
    if not swaps:
        return 0, {}
    return swaps, {player: before[player] for player in small if before[player] < big[0]}


def _big_before(earlier: Sequence[Round]) -> Counter[int]:
    """{player: the earlier rounds in which they sat at a table of 5}."""
    return Counter(
        player
        for tables_before in earlier
        for table in tables_before
        if len(table) == BIG_TABLE
        for player in table
    )


def cost(tables: Round, earlier: Sequence[Round] = ()) -> DrawCost:
    """What ``draw`` minimises, for any seating ``tables`` after the ``earlier`` rounds."""
    return DrawCost(repeated_big_tables(tables, earlier), repeats(tables, earlier))


def _history(ids: list[int], earlier: Sequence[Round]) -> tuple[list[list[int]], list[int]]:
    """``met[i][j]``: the earlier tables that ``ids[i]`` and ``ids[j]`` shared;
    ``big_before[i]``: the earlier tables of 5 of ``ids[i]``."""
    position = {player: i for i, player in enumerate(ids)}
    n = len(ids)
    met = [[0] * n for _ in range(n)]
    big_before = [0] * n
    for tables_before in earlier:
        for table in tables_before:
            present = [position[player] for player in table if player in position]
            for i, j in combinations(present, 2):
                if i != j:
                    met[i][j] += 1
                    met[j][i] += 1
            if len(table) == BIG_TABLE:
                for i in present:
                    big_before[i] += 1
    return met, big_before


def _improve(
    tables: list[list[int]],
    met: list[list[int]],
    big_before: list[int],
    is_big: list[bool],
    weight: int,
) -> int:
    """Swap players between ``tables`` (in place) while a swap lowers the cost; return
    the cost reached, ``weight * repeated tables of 5 + repeats``, where ``met[p][q]``
    is what seating ``p`` and ``q`` together costs (the square of their meetings), and
    ``big_before[p]`` what seating ``p`` at a table of 5 does (the square of theirs).

    ``at[p][t]`` keeps the sum of ``met[p][x]`` over the players ``x`` at table ``t``,
    so a swap is judged in constant time and applied in time linear in the players.
    """
    n = len(met)
    count = len(tables)
    at = [[0] * count for _ in range(n)]
    for t, table in enumerate(tables):
        for x in table:
            row = met[x]
            for p in range(n):
                at[p][t] += row[p]
    pair_cost = sum(at[p][t] for t, table in enumerate(tables) for p in table) // 2
    big_cost = sum(big_before[p] for t, table in enumerate(tables) if is_big[t] for p in table)
    total = pair_cost + weight * big_cost

    improved = True
    while improved:
        improved = False
        for a in range(count):
            table_a = tables[a]
            for b in range(a + 1, count):
                table_b = tables[b]
                # Moving a player from a table of 5 to a table of 4 and back changes
                # who sits at the table of 5; between equal tables it changes nothing.
                big_sign = int(is_big[b]) - int(is_big[a])
                for i in range(len(table_a)):
                    for j in range(len(table_b)):
                        p = table_a[i]
                        q = table_b[j]
                        at_p = at[p]
                        at_q = at[q]
                        delta = (
                            at_q[a] - at_p[a] + at_p[b] - at_q[b] - 2 * met[p][q]
                        ) + weight * big_sign * (big_before[p] - big_before[q])
                        if delta < 0:
                            table_a[i] = q
                            table_b[j] = p
                            met_p = met[p]
                            met_q = met[q]
                            for x in range(n):
                                shift = met_q[x] - met_p[x]
                                at[x][a] += shift
                                at[x][b] -= shift
                            total += delta
                            improved = True
    return total


def _impossible_de(n: int) -> str:
    """The German sentence for a count that cannot be seated, with the nearest counts
    that can."""
    if n < TABLE:
        return f"Für die Tische braucht es mindestens 4 Teilnehmer, gemeldet {_sind(n)}."
    more = next(m for m in range(n + 1, n + 5) if _possible(m)) - n
    fewer = n - next(m for m in range(n - 1, 0, -1) if _possible(m))
    if more == fewer:
        advice = f"{_word(more)} mehr oder weniger"
    elif more < fewer:
        advice = f"{_word(more)} mehr oder {_word(fewer)} weniger"
    else:
        advice = f"{_word(fewer)} weniger oder {_word(more)} mehr"
    return f"Mit {n} Teilnehmern lassen sich keine Tische zu 4 oder 5 bilden – bitte {advice}."


def _possible(n: int) -> bool:
    return n >= TABLE and (n % TABLE) * BIG_TABLE <= n


def _word(count: int) -> str:
    return {1: "einen", 2: "zwei", 3: "drei"}.get(count, str(count))


def _sind(n: int) -> str:
    return {0: "ist niemand", 1: "ist einer"}.get(n, f"sind {n}")
