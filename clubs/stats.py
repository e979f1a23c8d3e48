"""A Runde's statistics per player, and the plot of everyone's balance over time.

Read with a fixed handful of aggregate queries however long the history is: the games
counted per player (the seating and Jungfrauen arrays unnested in SQL), the players'
evening totals in the period (best and worst evening, and the plot's steps), their
balances before it (where the plot's lines start) and their names. Struck games don't
count; a corrected game counts as it stands now. Evenings belong to the period by the
time they started, as everywhere that filters by period (clubs.periods).

The plot is inline SVG built here, with every name escaped; no JavaScript, no library.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, QuerySet, Sum
from django.template.loader import render_to_string
from django.utils import dateformat, timezone
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from clubs import periods
from clubs.models import Player, Runde, german_key
from clubs.periods import Period
from clubs.templatetags.money import euro
from evenings.models import Evening, EveningTotal, Game

# -- the statistics ----------------------------------------------------------------------


@dataclass
class Declared:
    """Games a player announced of one kind, and how many of them their side won."""

    label: str
    games: int = 0
    won: int = 0

    @property
    def lost(self) -> int:
        return self.games - self.won

    @property
    def share_won(self) -> int | None:
        """Per cent won, rounded half up; None without a game (no share to show)."""
        if not self.games:
            return None
        return (200 * self.won + self.games) // (2 * self.games)


@dataclass(frozen=True)
class EveningResult:
    """A player's game total of one evening (payments left out)."""

    evening_id: int
    started_at: datetime
    amount: int
    # Another evening of the period began the same day (two tables at once, or a night
    # and its Ausgleich): the time too, or the two read alike (walk 61).
    shared_day: bool = False

    @property
    def when(self) -> str:
        started = timezone.localtime(self.started_at)
        return dateformat.format(started, "d.m.Y, H:i" if self.shared_day else "d.m.Y")


@dataclass
class PlayerStats:
    player: Player
    sauspiel: Declared
    farbsolo: Declared
    wenz: Declared
    tout: Declared
    played: int = 0
    bock: int = 0
    ramsch: int = 0
    ramsch_lost: int = 0
    jungfrauen: int = 0
    evenings: int = 0  # with a game of theirs
    best: EveningResult | None = None
    worst: EveningResult | None = None

    @classmethod
    def of(cls, player: Player, labels: list[str]) -> PlayerStats:
        return cls(player, *(Declared(label) for label in labels))

    @property
    def declared(self) -> list[Declared]:
        """The rows of the "announced" table, in the order the tariff lists them."""
        return [self.sauspiel, self.farbsolo, self.wenz, self.tout]


# One pass over the period's booked games of the Runde (the evenings come in as the
# subquery `{evenings}`, built by Period.filter), grouped three ways at once: by the table
# (who played), by the declarer's game and result, by the Ramsch's loser and Jungfrauen.
# The arrays are unnested after grouping: over a few tables per evening, not every game.
GAME_COUNTS_SQL = """
WITH grouped AS (
    SELECT GROUPING(seating) = 0 AS by_table,
           GROUPING(declarer_id) = 0 AS by_declarer,
           seating, declarer_id, type, won, tout, loser_id, jungfrauen,
           count(*) AS games,
           count(*) FILTER (WHERE bock) AS bock,
           count(*) FILTER (WHERE type = 'ramsch') AS ramsch
      FROM evenings_game
     WHERE voided_at IS NULL AND evening_id IN ({evenings})
     GROUP BY GROUPING SETS ((seating), (declarer_id, type, won, tout), (loser_id, jungfrauen))
)
SELECT 'played', player_id, '', false, false,
       sum(games)::bigint, sum(bock)::bigint, sum(ramsch)::bigint
  FROM grouped, unnest(seating) AS player_id
 WHERE by_table
 GROUP BY player_id
UNION ALL
SELECT 'declared', declarer_id, type, won, tout, games, 0, 0
  FROM grouped
 WHERE by_declarer AND declarer_id IS NOT NULL
UNION ALL
SELECT 'lost', loser_id, '', false, false, sum(games)::bigint, 0, 0
  FROM grouped
 WHERE NOT (by_table OR by_declarer) AND loser_id IS NOT NULL
 GROUP BY loser_id
UNION ALL
SELECT 'jungfrau', player_id, '', false, false, sum(games)::bigint, 0, 0
  FROM grouped, unnest(jungfrauen) AS player_id
 WHERE NOT (by_table OR by_declarer)
 GROUP BY player_id
"""


# Every player's totals per evening of the period, the games' apart (None: only a
# payment that evening), in the order the evenings were played.
TOTALS_SQL = """
SELECT t.evening_id, t.player_id,
       (sum(t.amount) FILTER (WHERE t.kind = 'game'))::bigint,
       sum(t.amount)::bigint
  FROM evenings_eveningtotal t
  JOIN evenings_evening e ON e.id = t.evening_id
 WHERE t.evening_id IN ({evenings})
 GROUP BY e.started_at, t.evening_id, t.player_id
 ORDER BY e.started_at, t.evening_id, t.player_id
"""


# (evening, player, the player's game total or None, their total with payments)
Totals = list[tuple[int, int, int | None, int]]


def _fetch(sql: str, evenings: QuerySet[Evening]) -> list[tuple[Any, ...]]:
    """Rows of one of the statements above for these evenings.

    Raw SQL for the two that read thousands of rows: the ORM's row handling would cost
    more than the statement (a decade of a Runde is 20,000 games, 1,700 evening totals).
    """
    evenings_sql, params = evenings.values("pk").query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql.format(evenings=evenings_sql), params)
        return cursor.fetchall()


def _count(stats: dict[int, PlayerStats], rows: list[tuple[Any, ...]]) -> None:
    for what, player_id, game_type, won, tout, games, bock, ramsch in rows:
        one = stats[player_id]
        if what == "played":
            one.played, one.bock, one.ramsch = games, bock, ramsch
        elif what == "declared":
            kinds = [getattr(one, game_type), one.tout] if tout else [getattr(one, game_type)]
            for kind in kinds:
                kind.games += games
                kind.won += games if won else 0
        elif what == "lost":
            one.ramsch_lost = games
        else:
            one.jungfrauen = games


def runde_states(runden) -> dict[int, str]:
    """The state of each Runde's evenings (of `runden`: ids, or a query of Runden) by
    Runde id: their count and the sum of their versions; a Runde without evenings has
    none.

    Every booking, correction or payment in one of the Runde's evenings bumps that
    evening's version, and a new evening adds one: what is kept of a Runde is kept under
    its state, and a change makes a new one. One light query for all of them."""
    return {
        runde_id: f"{n}:{v}"
        for runde_id, n, v in Evening.objects.filter(runde__in=runden)
        .values_list("runde_id")
        .annotate(n=Count("pk"), v=Sum("version"))
        .order_by()
    }


def runde_state(runde: Runde) -> str:
    """The state of the Runde's evenings (runde_states)."""
    return runde_states([runde.pk]).get(runde.pk, "0")


def named(names: dict[int, str]) -> str:
    """A short digest of {player id: name}, for the key of something kept that shows
    these names: a renamed player's new name is shown at once."""
    text = "\x1f".join(f"{pk}:{name}" for pk, name in names.items())
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def kept(key: str, html: Callable[[], str]) -> SafeString:
    """The HTML `html()` makes, kept (per process, Django's cache) under `key` for ten
    minutes at most: a key that names the state of what it shows (runde_state, a
    player's evenings) finds it again until that changes. Names are not in the state:
    ten minutes at most bring a renamed player's new name."""
    return mark_safe(cache.get_or_set(key, html, 600))


def kept_html(key: str, template: str, context: Callable[[], dict[str, Any]]) -> SafeString:
    """The template rendered with `context()`, kept as `kept` keeps it."""
    # A plain str in the cache: rendered (so escaped) by the template engine.
    return kept(key, lambda: str(render_to_string(template, context())))


def cached_runde_stats(runde: Runde, period: Period, state: str | None = None) -> SafeString:
    """The Runde's statistics section (templates/clubs/_runde_stats.html with
    runde_stats), kept as HTML (per process, Django's cache) until the Runde changes.

    The key names the Runde's state (runde_state, read here unless `state` is given) and
    the date, as "this year" moves at midnight. Ten years of a Runde take some 40 ms to
    count, and thirty players' cards longer to render than the rest of the page; the
    page then costs what it reads besides.
    """
    state = state or runde_state(runde)
    return kept_html(
        f"runde-stats-html:{runde.pk}:{period.key}:{state}:{timezone.localdate()}",
        "clubs/_runde_stats.html",
        lambda: {"stats": runde_stats(runde, period)},
    )


def runde_stats(runde: Runde, period: Period, now: datetime | None = None) -> dict[str, object]:
    """The Runde's statistics and balance plot for `period`: the context of
    templates/clubs/_runde_stats.html (under the key `stats`).

    Keys: `period` (the chosen Period), `periods` (the filter: dicts with `period` and
    `current`), `players` (a PlayerStats per player who played in the period, by name),
    `games` and `evenings` (how many in the period; a night at several tables is one,
    `split_nights` says how many were), `bock` and `jungfrauen` (whether
    there were any), `plot` (a BalancePlot, or None without an evening in the period).
    """
    now = timezone.localtime(now)
    evenings = period.filter(Evening.objects.listed().filter(runde=runde), "started_at").order_by()

    # 1. Games per player: one pass over the games, grouped three ways.
    counts = _fetch(GAME_COUNTS_SQL, evenings)

    # 2. The period's evenings, and every player's totals of each.
    rows = evenings.values_list("pk", "started_at", "continues_id")
    tables = {pk: (at, earlier) for pk, at, earlier in rows}
    dates = {pk: at for pk, (at, _earlier) in tables.items()}
    totals: Totals = _fetch(TOTALS_SQL, evenings)

    # 3. Where the plot's lines start: each player's balance before the period.
    opening: dict[int, int] = {}
    if period.start is not None:
        opening = dict(
            EveningTotal.objects.filter(evening__runde=runde, evening__started_at__lt=period.start)
            .values_list("player_id")
            .annotate(total=Sum("amount"))
            .values_list("player_id", "total")
        )

    # 4. The names of everyone who played or paid in the period.
    ids = {row[1] for row in counts} | {row[1] for row in totals}
    players = {p.pk: p for p in Player.objects.filter(pk__in=ids).only("pk", "name")}

    labels = [str(t.label) for t in (Game.Type.SAUSPIEL, Game.Type.FARBSOLO, Game.Type.WENZ)]
    # A Tout is a Farbsolo or a Wenz, counted there too: its row says so (walk 54: the
    # column added up to a game more than was declared), and not "davon Tout" under the
    # Wenz, which read as a Tout of the Wenz (walk 66).
    labels.append(_("Tout (Solo oder Wenz)"))
    stats = {pk: PlayerStats.of(player, labels) for pk, player in players.items()}
    _count(stats, counts)
    # A night at several tables (someone joined or left: a new evening went on from the
    # first) is one evening here, its tables' games added up (walk 86: "5 Abende" for four
    # nights, and one night's two tables as a player's best and worst evening).
    night = {pk: _first_table(pk, tables) for pk in tables}
    # (night, player): the first table of the night the player played at (the link goes
    # there: walk 88, a newcomer's was to a table without them) and the night's total.
    nights: dict[tuple[int, int], tuple[int, int]] = {}
    for evening_id, player_id, game, _total in totals:
        if game is not None:  # else only a payment that evening
            first, before = nights.get((night[evening_id], player_id), (evening_id, 0))
            nights[night[evening_id], player_id] = (first, before + game)
    days = Counter(timezone.localdate(dates[first]) for first in set(night.values()))
    for (_night, player_id), (evening_id, game) in nights.items():
        one = stats[player_id]
        one.evenings += 1
        started = dates[evening_id]
        shared = days[timezone.localdate(started)] > 1
        # Ties go to the earlier evening: the record stands from the first time.
        if one.best is None or game > one.best.amount:
            one.best = EveningResult(evening_id, started, game, shared)
        if one.worst is None or game < one.worst.amount:
            one.worst = EveningResult(evening_id, started, game, shared)

    # The evenings with games (an Ausgleich der Runde has payments only), a night at
    # several tables once; and how many such nights, said beside the count (walk 88: "2
    # Abende" over a list of three).
    played_nights = {night[row[0]] for row in totals if row[2] is not None}
    split_nights = {night[pk] for pk in tables if pk != night[pk]} & played_nights
    played = sorted(
        (s for s in stats.values() if s.played),
        key=lambda s: (german_key(s.player.name), s.player.pk),
    )
    return {
        "period": period,
        # Each year back to the Runde's first, as a player's history offers them (walk 33).
        "periods": [
            {"period": p, "current": p.key == period.key}
            for p in periods.periods(now, since=periods.first_year(runde.evenings, now))
        ],
        "players": played,
        "games": sum(s.played for s in played) // 4,
        "evenings": len(played_nights),
        "split_nights": len(split_nights),
        # Whether the period had Bock games and Jungfrauen at all: a Runde that plays
        # without them is not shown a row of zeros for each player.
        "bock": any(s.bock for s in played),
        "jungfrauen": any(s.jungfrauen for s in played),
        "plot": balance_plot(totals, dates, opening, players, period, now) if totals else None,
    }


def _first_table(evening_id: int, tables: dict[int, tuple[datetime, int | None]]) -> int:
    """The first table of the night `evening_id` belongs to, among `tables` (id: (started
    at, the evening it went on from)); a table before the period is not followed."""
    while (earlier := tables[evening_id][1]) in tables:
        evening_id = earlier
    return evening_id


# -- the plot ------------------------------------------------------------------------------

# The drawing's own units; the SVG scales to the width of the page (a phone: ~360 px).
WIDTH, HEIGHT = 360, 250
LEFT, RIGHT = 4, 356
TOP, BOTTOM = 16, 226  # the plot area; the y labels sit above their lines, the dates below
MAX_TICKS = 6
# Eight hues that keep 3:1 against the page's background, then the same with dashes:
# 32 distinguishable lines, enough for a club's biggest Runde.
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#762a83", "#b8860b", "#c51b7d", "#222222", "#8c564b")
DASHES = ("", "6 3", "2 2", "8 3 2 3")
MONTH_STEPS = (1, 2, 3, 6, 12, 24, 60)


@dataclass(frozen=True)
class Series:
    """One player's line: where it starts (the balance before the period) and ends."""

    player: Player
    colour: str
    dash: str
    opening: int
    final: int
    path: str  # the SVG path's `d`

    @property
    def brought(self) -> int:
        """How the player's balance changed in the period: their games and payments in
        it (their ledger entries, summed)."""
        return self.final - self.opening


@dataclass(frozen=True)
class BalancePlot:
    svg: SafeString
    series: list[Series]  # the legend's order: the highest balance first
    start: datetime | None  # the period's start, if it has one: the lines start there
    until: datetime  # the last moment shown (a period's end is exclusive)
    label: str  # what the plot shows, for screen readers


def balance_plot(
    totals: Totals,
    dates: dict[int, datetime],
    opening: dict[int, int],
    players: dict[int, Player],
    period: Period,
    now: datetime,
) -> BalancePlot:
    """Every player's balance, evening by evening, as a step line per player.

    `totals`: (evening, player, game total, total) in the order of the evenings; `dates`:
    when each evening started; `opening`: balances before the period. A balance holds
    from one evening to the next, so the lines are steps: across to the evening, then up
    or down to the new balance. Evenings on the same x (a decade on a phone) make one step.
    """
    # 1. The balances after each of a player's evenings.
    balance = dict(opening)
    steps: dict[int, list[tuple[int, int]]] = {}
    for evening_id, player_id, _game, total in totals:
        balance[player_id] = balance.get(player_id, 0) + total
        steps.setdefault(player_id, []).append((evening_id, balance[player_id]))

    # 2. The axes: from the period's start (or the first evening) to its end (or now); from
    # the first evening also where nobody had a balance before it (walk 54: a Runde begun
    # in December drew "dieses Jahr" from January, its evenings in the last pixel).
    start = period.start if period.start and any(opening.values()) else dates[totals[0][0]]
    last = max(period.end or now, dates[totals[-1][0]])
    end = max(last, start + timedelta(days=1))  # the drawing: at least a day wide
    amounts = [0, *(cents for line in steps.values() for _e, cents in line)]
    amounts += [opening.get(pk, 0) for pk in steps]
    y_ticks = _amount_ticks(min(amounts), max(amounts))
    low, high = y_ticks[0], y_ticks[-1]

    def x(moment: datetime) -> int:
        return round(LEFT + (moment - start) / (end - start) * (RIGHT - LEFT))

    def y(cents: int) -> int:
        return round(BOTTOM - (cents - low) / (high - low) * (BOTTOM - TOP))

    at = {evening_id: x(moment) for evening_id, moment in dates.items()}

    # 3. A line per player, the highest balance first.
    order = sorted(steps, key=lambda pk: (-balance[pk], german_key(players[pk].name), pk))
    series = []
    for i, pk in enumerate(order):
        before = opening.get(pk, 0)
        # Someone new to the Runde starts at zero at their first evening.
        first_x = x(start) if before else at[steps[pk][0][0]]
        points: list[tuple[int, int]] = []
        for evening_id, cents in steps[pk]:
            px = at[evening_id]
            if points and points[-1][0] == px:
                points[-1] = (px, y(cents))
            else:
                points.append((px, y(cents)))
        points.append((x(end), points[-1][1]))
        path = _step_path(first_x, y(before), points)
        colour, dash = COLOURS[i % len(COLOURS)], DASHES[i // len(COLOURS) % len(DASHES)]
        series.append(Series(players[pk], colour, dash, before, balance[pk], path))

    until = last - timedelta(microseconds=1) if period.end else last
    label = _("Verlauf der Kontostände von %(count)d Spielern, %(start)s bis %(end)s") % {
        "count": len(series),
        "start": timezone.localtime(start).strftime("%d.%m.%Y"),
        "end": timezone.localtime(until).strftime("%d.%m.%Y"),
    }
    svg = _svg(series, y_ticks, y, _time_ticks(start, last), x, label)
    return BalancePlot(svg, series, period.start, until, label)


def _step_path(x0: int, y0: int, points: list[tuple[int, int]]) -> str:
    """The SVG path through the steps, in relative moves (shorter: most are small)."""
    d = [f"M{x0} {y0}"]
    cx, cy = x0, y0
    for px, py in points:
        if px != cx:
            d.append(f"h{px - cx}")
        if py != cy:
            d.append(f"v{py - cy}")
        cx, cy = px, py
    return "".join(d)


def _amount_ticks(low: int, high: int) -> list[int]:
    """Round amounts (1, 2 or 5 times a power of ten cents), about four steps apart,
    from below `low` to above `high` (zero lies between: it is among the amounts)."""
    span = max(high - low, 100)
    step = next(step for step in _round_steps() if 4 * step >= span)
    ticks = list(range(low // step * step, -(-high // step) * step + 1, step))
    return ticks if len(ticks) > 1 else [*ticks, ticks[0] + step]


def _round_steps() -> Iterator[int]:
    magnitude = 1
    while True:
        yield from (magnitude, 2 * magnitude, 5 * magnitude)
        magnitude *= 10


def _time_ticks(start: datetime, end: datetime) -> list[tuple[datetime, str]]:
    """Month or year boundaries between start and end, at most MAX_TICKS of them.

    Labelled with the year at a new year and the month's short name otherwise; a period
    shorter than a month is labelled at its two ends (a single day: once).
    """
    start, end = timezone.localtime(start), timezone.localtime(end)
    months = []
    moment = start.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    while moment <= end:
        if moment >= start:
            months.append(moment)
        moment = _next_month(moment)
    for step in MONTH_STEPS:
        ticks = [m for m in months if (m.year * 12 + m.month - 1) % step == 0]
        if len(ticks) <= MAX_TICKS:
            break
    if len(ticks) < 2 and step == 1:
        ends = [start, end] if end.date() > start.date() else [start]  # one day: one date
        return [(moment, moment.strftime("%d.%m.")) for moment in ends]
    return [
        (m, str(m.year) if step >= 12 or m.month == 1 else dateformat.format(m, "M")) for m in ticks
    ]


def _next_month(moment: datetime) -> datetime:
    """The first of the next month at midnight, local time (the offset can change)."""
    year, month = divmod(moment.year * 12 + moment.month, 12)
    naive = moment.replace(tzinfo=None, year=year, month=month + 1)
    return timezone.make_aware(naive)


def _svg(
    series: list[Series],
    y_ticks: list[int],
    y: Callable[[int], int],
    x_ticks: list[tuple[datetime, str]],
    x: Callable[[datetime], int],
    label: str,
) -> SafeString:
    parts = [
        format_html(
            '<svg class="balance-plot" viewBox="0 0 {} {}" role="img" aria-label="{}" '
            'xmlns="http://www.w3.org/2000/svg" font-size="11"><title>{}</title>',
            WIDTH,
            HEIGHT,
            label,
            label,
        )
    ]
    # The grid, the zero line a little stronger, and the dates below.
    for cents in y_ticks:
        stroke = '#6b675e" stroke-width="1.5' if cents == 0 else "#d9d4c7"
        parts.append(f'<path d="M{LEFT} {y(cents)}H{RIGHT}" stroke="{stroke}"/>')
    for moment, text in x_ticks:
        px = x(moment)
        anchor = "start" if px < 20 else "end" if px > WIDTH - 20 else "middle"
        parts.append(
            format_html(
                '<path d="M{} {}v4" stroke="#6b675e"/>'
                '<text x="{}" y="{}" text-anchor="{}" fill="#6b675e">{}</text>',
                px,
                BOTTOM,
                px,
                BOTTOM + 16,
                anchor,
                text,
            )
        )
    parts.append('<g fill="none" stroke-width="2" stroke-linejoin="round">')
    for line in series:
        dash = format_html(' stroke-dasharray="{}"', line.dash) if line.dash else ""
        parts.append(
            format_html(
                '<path d="{}" stroke="{}"{} data-player="{}" data-final="{}">'
                "<title>{}: {}</title></path>",
                line.path,
                line.colour,
                dash,
                line.player.pk,
                line.final,
                line.player.name,
                euro(line.final),
            )
        )
    parts.append("</g>")
    # The amounts last, over the lines, each with a halo of the background's colour.
    parts.append('<g fill="#1d1d1b" stroke="#faf8f3" stroke-width="3" paint-order="stroke">')
    for cents in y_ticks:
        parts.append(f'<text x="{LEFT}" y="{y(cents) - 3}">{escape(euro(cents))}</text>')
    parts.append("</g></svg>")
    # Every name and label went through format_html or escape above.
    return mark_safe("".join(parts))
