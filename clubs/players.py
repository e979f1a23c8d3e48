"""What players see of their own: their balance in each Runde, what the Runde's settlement
suggestion asks of them, their last evenings, every game they took part in; and the Runde
page's balances and evenings.

Balances are read from EveningTotal (a player's sum per evening and kind, kept by the
database), never by summing the ledger. A game's amount in a history is the sum of the
player's ledger entries for it (corrections included), read for the games of one page
only. So every page here makes the same queries however long the club's history is.

Who may look: a Spieler sees their own player; admins and Schreiber see any player of
their club. Anything else is a 404, as everywhere (clubs.access).
"""

import functools
import hashlib
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from html import escape
from typing import cast

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db.models import Count, Exists, Max, OuterRef, QuerySet, Sum
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from clubs import periods, stats
from clubs.access import membership_of
from clubs.models import Membership, Player, Runde, Tariff, german_key, german_order
from clubs.templatetags.money import euro
from evenings import wording
from evenings.models import Evening, EveningTotal, Game, LedgerEntry, Seat
from evenings.reads import Prepared, columns, from_row, read_together
from evenings.services import GameInput, open_ausgleiche, runde_plans
from tournaments.models import Tournament
from tournaments.standings import Standing, tournament_standings

LAST_EVENINGS = 5  # per Runde on a player's home
EVENING_GAMES = 20  # games a player surely plays at a usual evening (NewestGames)
GAMES_PER_PAGE = 50  # a player's history
EVENINGS_PER_PAGE = 20  # the Runde page
PAGE = "seite"  # the query parameter of a page number


def page_asked(request: HttpRequest) -> str:
    """The page number asked for, or "1" for anything that is not one: Django's get_page
    would give the last page for 0 (walk 86: "?seite=0" opened "Seite 2 von 2")."""
    number = request.GET.get(PAGE, "")
    return number if re.fullmatch(r"[1-9]\d{0,8}", number) else "1"


GAME = LedgerEntry.Kind.GAME
PAYMENT = LedgerEntry.Kind.PAYMENT


# -- a player's home -----------------------------------------------------------------------


@dataclass(frozen=True)
class EveningResult:
    """What one evening brought a player: the games' sum and the payments booked."""

    evening: Evening
    games: int
    payments: int
    # What they paid there and what they received, each in full (payments: the net),
    # without payments cancelled ("Storno") and their cancellations.
    paid: int = 0
    received: int = 0

    @property
    def total(self) -> int:
        return self.games + self.payments


@dataclass(frozen=True)
class Transfer:
    """A transfer of the Runde's settlement suggestion that involves the player."""

    other: str  # the other player's name
    amount: int  # cents
    pays: bool  # True: the player pays `other`; False: `other` pays the player


@dataclass
class Account:
    """A player's account in one Runde."""

    runde: Runde
    games: int = 0
    payments: int = 0
    transfers: list[Transfer] = field(default_factory=list)
    # What the suggestion's rounding leaves on the player's balance (0 with unit 1).
    left_open: int = 0
    last: list[EveningResult] = field(default_factory=list)
    # How many evenings of the Runde are being played: they count already, and settle
    # later.
    running: int = 0
    # The last Ausgleich, still open, played on since: the suggestion adds up both.
    earlier: Evening | None = None

    @property
    def balance(self) -> int:
        return self.games + self.payments

    @property
    def moved_money(self) -> bool:
        """Whether money changed hands at the evenings listed (their net may be 0)."""
        return any(result.paid or result.received for result in self.last)

    @property
    def left_over(self) -> int:
        """What rounding leaves open, without its sign (left_open's says who owes it)."""
        return abs(self.left_open)


@dataclass
class Home:
    player: Player
    accounts: list[Account]  # by the Runde's name
    yours: bool  # the player is the one looking: "Du zahlst …" rather than "Sepp zahlt …"

    @property
    def explained_at(self) -> int | None:
        """The Runde whose account says how its suggestion settles: the first with a
        payment to make. Walk 66: it was said beside "keine Zahlung steht an"."""
        return next((account.runde.pk for account in self.accounts if account.transfers), None)


def homes(players: list[Player], viewer=None) -> list[Home]:
    """Each player's accounts, one per Runde they sat in, in eight queries whatever the
    number of players, Runden, evenings and games (seven once the Runden's sums are kept;
    one more where a Runde's newest evening is its Ausgleich, two for each Runde played
    on after an Ausgleich).
    Their last evenings include the Runde's Ausgleiche where they paid or were paid.

    The settlement suggestion settles the Runde's balances of all its players (games and
    payments, over all evenings) with the unit of the Runde's current tariff, or is the
    plan of the Ausgleich that is the Runde's newest evening (evenings.services.
    runde_plans); each account shows the transfers of it that involve its player.
    """
    if not players:
        return []
    # 1. The players' last evenings per Runde, newest first, with what each brought them
    # in games and payments; and the Ausgleiche of those Runden where they paid or were
    # paid (no seat there). One round trip.
    ids = [player.pk for player in players]
    rows, settled_rows = read_together(
        (_last_evenings_sql().sql(), [ids, LAST_EVENINGS]),
        (_last_ausgleiche_sql().sql(), [ids, LAST_EVENINGS]),
    )
    last: list[tuple[int, EveningResult]] = []
    for row in rows:
        evening, runde = from_row((Evening, Runde), row[4:])
        evening.runde = runde
        paid, received = row[2:4]
        last.append((row[0], EveningResult(evening, row[1], paid - received, paid, received)))
    settled: list[tuple[int, EveningResult]] = []
    for row in settled_rows:
        evening, runde = from_row((Evening, Runde), row[2:])
        evening.runde = runde
        net = row[1]  # an Ausgleich's: one pays or is paid there
        settled.append((row[0], EveningResult(evening, 0, net, max(net, 0), max(-net, 0))))
    runde_ids = sorted({result.evening.runde_id for _player, result in last})
    # 2. Every player's totals per Runde and kind: the accounts and the suggestions.
    sums = runde_sums(runde_ids)
    # 3. The unit each Runde settles to.
    units = settle_units(runde_ids)

    by_kind: dict[tuple[int, int, str], int] = {}
    balances: dict[int, dict[str, int]] = defaultdict(dict)  # Runde: {player id: cents}
    for runde_id, totals in sums.items():
        # By player id, as the Ausgleich's Abrechnung has them: ties settle alike.
        for (player_id, kind), total in sorted(totals.items()):
            by_kind[runde_id, player_id, kind] = total
            balance = balances[runde_id]
            balance[str(player_id)] = balance.get(str(player_id), 0) + total
    # 5. The names of the players in the suggestions, marked as the Runde's accounts
    # mark them: "Hias (ausgeschieden) zahlt dir 0,80 €" (walk 71).
    seen = {player_id for totals in sums.values() for player_id, _kind in totals}
    names = marked_names(Player.objects.filter(pk__in=seen))
    suggestions = runde_plans(balances, units)
    # 6. Why a suggestion may differ from an evening's or an Ausgleich's Abrechnung.
    # Open ones, also one opened again for corrections only: the Ausgleich waits for it,
    # as the Runde's accounts say (walk 51).
    # Of those, the ones that went on at a new table: open again for corrections only, as
    # their page says (walk 90: "läuft" on a player's page).
    open_ones = list(
        Evening.objects.open()
        .filter(runde__in=runde_ids, settles_runde=False)
        .annotate(went_on=Exists(Evening.objects.filter(continues=OuterRef("pk"))))
        .values_list("pk", "runde_id", "went_on")
    )
    running = Counter(runde_id for _pk, runde_id, _went_on in open_ones)
    went_on = {pk for pk, _runde_id, went in open_ones if went}
    for _player_id, result in last:
        if result.evening.is_open:  # Evening.play_over without a query each
            evening = result.evening
            evening.__dict__["closed_for_play"] = evening.corrections_only or evening.pk in went_on
    earlier = open_ausgleiche(runde_ids)

    out = []
    for player in players:
        accounts: dict[int, Account] = {}
        for player_id, result in last:
            if player_id != player.pk:
                continue
            runde_id = result.evening.runde_id
            if runde_id not in accounts:
                accounts[runde_id] = _account(
                    result.evening.runde, player.pk, by_kind, suggestions.get(runde_id), names
                )
                accounts[runde_id].running = running[runde_id]
                accounts[runde_id].earlier = earlier.get(runde_id)
            accounts[runde_id].last.append(result)
        for player_id, result in settled:
            if player_id == player.pk and result.evening.runde_id in accounts:
                accounts[result.evening.runde_id].last.append(result)
        for account in accounts.values():
            account.last.sort(key=lambda r: (r.evening.started_at, r.evening.pk), reverse=True)
            del account.last[LAST_EVENINGS:]
        yours = viewer is not None and player.user_id == viewer.pk
        # By the Runde's name as Germans sort it (walk 69: "Stammtisch" before "abendrunde").
        by_name = sorted(accounts.values(), key=lambda a: (german_key(a.runde.name), a.runde.pk))
        out.append(Home(player, by_name, yours))
    return out


@dataclass(frozen=True)
class OpenBalance:
    runde: str  # the Runde's name
    cents: int
    # Below the unit the Runde settles to: no payment is suggested for it, it stays
    # (walk 73: "-0,10 € (zu zahlen)" beside an Abrechnung that said nobody pays).
    rest: bool


def open_balances(players: list[Player]) -> dict[int, list[OpenBalance]]:
    """By player id, each money Runde of their club where the player's balance (games and
    payments) is not settled. What leaving the club, or being removed, leaves behind
    unseen. The Runden's kept sums (runde_sums) and their units: three light queries."""
    runden = sorted(
        Runde.objects.money().filter(club__in={player.club_id for player in players}),
        key=lambda runde: (german_key(runde.name), runde.pk),
    )
    sums = runde_sums([runde.pk for runde in runden])
    balances: dict[tuple[int, int], int] = defaultdict(int)  # (Runde, player): cents
    for runde_id, totals in sums.items():
        for (player_id, _kind), total in totals.items():
            balances[runde_id, player_id] += total
    units = settle_units(list(sums))
    return {
        player.pk: [
            OpenBalance(runde.name, balance, abs(balance) < units.get(runde.pk, 1))
            for runde in runden
            if runde.club_id == player.club_id and (balance := balances[runde.pk, player.pk])
        ]
        for player in players
    }


def settle_units(runde_ids: list[int]) -> dict[int, int]:
    """The unit each Runde settles to, in cents, from its current tariff (the newest
    version)."""
    return dict(
        Tariff.objects.filter(runde__in=runde_ids)
        .order_by("runde_id", "-valid_from", "-pk")
        .distinct("runde_id")
        .values_list("runde_id", "settle_unit")
    )


def kept_accounts(players: list[Player], viewer) -> dict[int, SafeString]:
    """Each player's accounts (templates/clubs/player_home.html#accounts, from homes())
    as HTML by player id, kept (per process, Django's cache) until something they show
    changes: an evening of a money Runde of the player's club (their count and the sum
    of their versions, which every booking, correction, strike, payment and close
    bumps), a Runde's name or its tariff (a new version: the unit its suggestion
    settles to), or the player's name. Two light queries for all the players instead of
    homes()'s four and the template's time; other players' new names come within ten
    minutes (stats.kept)."""
    runden = Runde.objects.money().filter(club__in={player.club_id for player in players})
    evenings = stats.runde_states(runden.values("pk"))
    state: dict[int, dict[int, str]] = defaultdict(dict)
    for club_id, runde_id, name, tariff in (
        runden.values_list("club_id", "pk", "name").annotate(tariff=Max("tariffs")).order_by("pk")
    ):
        state[club_id][runde_id] = f"{name}:{tariff}:{evenings.get(runde_id)}"
    keys = {
        player.pk: f"accounts:{player.pk}:{player.user_id == getattr(viewer, 'pk', None)}:"
        f"{stats.named(state[player.club_id] | {0: player.name})}"
        for player in players
    }
    found = cache.get_many(keys.values())
    missing = [player for player in players if keys[player.pk] not in found]
    made = {
        keys[home.player.pk]: str(
            render_to_string("clubs/player_home.html#accounts", {"home": home})
        )
        for home in homes(missing, viewer)
    }
    cache.set_many(made, 600)
    found |= made
    return {pk: mark_safe(found[key]) for pk, key in keys.items()}


@functools.cache
def _last_evenings_sql() -> Prepared:
    """Per player (of the ids in $1) and money Runde of their club, the $2 newest
    evenings they sat at (but those closed with nothing that counts), each with their
    games' total there and what they paid and received. The Runde's evenings are walked
    newest first by its index, to the first $2 with their seat."""
    return Prepared(
        "last_evenings",
        "SELECT me.id, coalesce(g.amount, 0), coalesce(pay.paid, 0)::bigint, "
        "coalesce(pay.received, 0)::bigint, "
        f"{columns((Evening, 'e'), (Runde, 'r'))} "
        "FROM unnest(%s::bigint[]) AS me(id) "
        "JOIN clubs_player p ON p.id = me.id "
        f"JOIN clubs_runde r ON r.club_id = p.club_id AND r.kind = '{Runde.Kind.MONEY}' "
        "JOIN LATERAL (SELECT e.* FROM evenings_evening e WHERE e.runde_id = r.id "
        "AND EXISTS (SELECT 1 FROM evenings_seat s WHERE s.evening_id = e.id "
        f"AND s.player_id = me.id) AND e.status <> '{Evening.Status.EMPTY}' "
        "ORDER BY e.started_at DESC, e.id DESC LIMIT %s) e ON true "
        "LEFT JOIN evenings_eveningtotal g ON g.evening_id = e.id AND g.player_id = me.id "
        f"AND g.kind = '{GAME}' "
        # Paid (the payer's entry is positive) and received there, a payment cancelled
        # ("Storno": a payment back that names it) and its cancellation left out.
        "LEFT JOIN LATERAL (SELECT sum(l.amount) FILTER (WHERE l.amount > 0) AS paid, "
        "-sum(l.amount) FILTER (WHERE l.amount < 0) AS received "
        "FROM evenings_ledgerentry l JOIN evenings_change c ON c.id = l.change_id "
        f"WHERE l.evening_id = e.id AND l.player_id = me.id AND l.kind = '{PAYMENT}' "
        "AND NOT c.after ? 'cancels' AND NOT EXISTS (SELECT 1 FROM evenings_change x "
        f"WHERE x.evening_id = e.id AND x.kind = '{PAYMENT}' "
        "AND x.after @> jsonb_build_object('cancels', c.id))) pay ON true "
        "ORDER BY r.name, r.id, e.started_at DESC, e.id DESC",
    )


@functools.cache
def _last_ausgleiche_sql() -> Prepared:
    """Per player (of the ids in $1) and money Runde of their club, the $2 newest
    Ausgleiche der Runde where they paid or were paid, with the amount."""
    return Prepared(
        "last_ausgleiche",
        f"SELECT me.id, e.paid, {columns((Evening, 'e'), (Runde, 'r'))} "
        "FROM unnest(%s::bigint[]) AS me(id) "
        "JOIN clubs_player p ON p.id = me.id "
        f"JOIN clubs_runde r ON r.club_id = p.club_id AND r.kind = '{Runde.Kind.MONEY}' "
        "JOIN LATERAL (SELECT e.*, t.amount AS paid FROM evenings_evening e "
        "JOIN evenings_eveningtotal t ON t.evening_id = e.id AND t.player_id = me.id "
        f"AND t.kind = '{PAYMENT}' AND t.amount <> 0 "
        "WHERE e.runde_id = r.id AND e.settles_runde "
        "ORDER BY e.started_at DESC, e.id DESC LIMIT %s) e ON true",
    )


def _account(runde: Runde, player_id: int, by_kind, suggestion, names) -> Account:
    account = Account(
        runde,
        games=by_kind.get((runde.pk, player_id, GAME), 0),
        payments=by_kind.get((runde.pk, player_id, PAYMENT), 0),
    )
    if suggestion is None:  # nothing booked in the Runde yet
        return account
    me = str(player_id)
    for transfer in suggestion.transfers:
        if transfer.payer == me:
            account.transfers.append(Transfer(names[int(transfer.payee)], transfer.amount, True))
        elif transfer.payee == me:
            account.transfers.append(Transfer(names[int(transfer.payer)], transfer.amount, False))
    account.left_open = suggestion.open.get(me, 0)
    return account


# -- a player's history --------------------------------------------------------------------


@dataclass(frozen=True)
class HistoryRow:
    game: Game
    caption: str  # "Sauspiel Sepp mit Hias"
    details: str  # "gewonnen · 3 Laufende"
    amount: int  # the player's sum of the game's ledger entries, in cents
    corrected: bool = False  # ever: the evening's history says how


def games_of(player: Player) -> QuerySet[Game]:
    """The games the player took part in (at the table, not sitting out) in the club's
    money Runden, struck ones left out, newest first.

    The evenings come from the player's seats (an index on the player), the games from
    those evenings (an index on the evening): a few hundred evenings and their games, not
    a scan of every game of the club."""
    return (
        Game.objects.booked()
        .filter(
            evening__in=Seat.objects.filter(player=player).values("evening_id"),
            seating__contains=[player.pk],
            evening__runde__kind=Runde.Kind.MONEY,
        )
        .order_by("-evening__started_at", "-evening_id", "-number")
    )


class NewestGames:
    """The ids of `games` (games_of, filtered), as Paginator takes them: counted over all
    of them, a page read from the player's newest evenings.

    A page that ends at the n-th game lies within the newest evenings the player sat at
    as soon as those hold n games between them (each of those games is newer than any
    game of an older evening). So a page is read from the fewest newest evenings that
    usually hold it (n / EVENING_GAMES), else from n of them (an index range on the
    player's seats), and only where those hold fewer from all the player's games: page 1
    of ten years sorts two evenings' games instead of the player's thousands."""

    def __init__(self, games: QuerySet[Game], player: Player):
        self.games = games
        self.player = player

    def count(self) -> int:
        return self.kept(self.games, self.games.count)

    def kept(self, query: QuerySet, figure: Callable[[], int]) -> int:
        """`figure()`, a figure of `query` over the player's games, worked out once and then
        kept (per process, Django's cache) until one of the player's evenings changes.

        Ten years are thousands of games to count and hundreds of evening totals to add;
        the state of the player's evenings (how many, the sum of their versions, which
        every booking, correction, strike or payment bumps) a few hundred seats to read.
        The key holds the query itself, so each filter (a Runde, a period and its dates)
        and each figure is kept apart."""
        return cache.get_or_set(self._key(query), figure, 600)

    def kept_page(self, number: int, html: Callable[[], str]) -> SafeString:
        """The HTML of page `number` of the games, `html()`, kept (stats.kept) as the
        figures are: its fifty games read whole, with what each came to and the names in
        it, took half of the page's time at ten years."""
        return stats.kept(f"{self._key(self.games)}:{number}", html)

    def _key(self, query: QuerySet) -> str:
        digest = hashlib.sha256(str(query.query).encode()).hexdigest()
        return f"player-games:{self.player.pk}:{digest}:{self._state}"

    @cached_property
    def _state(self) -> str:
        state = Seat.objects.filter(player=self.player).aggregate(
            n=Count("pk"), v=Sum("evening__version")
        )
        return f"{state['n']}:{state['v']}"

    def __getitem__(self, page: slice) -> list[int]:
        # Read when the page's games are, not when Paginator takes the page: a page kept
        # as HTML (kept_page) needs no ids.
        return cast(list[int], SimpleLazyObject(lambda: self._ids(page)))

    def _ids(self, page: slice) -> list[int]:
        # First the fewest evenings that usually hold the page (a player plays some forty
        # games an evening), then as many evenings as the page has games.
        for evenings in sorted({max(1, page.stop // EVENING_GAMES), page.stop}):
            newest = (
                Seat.objects.filter(player=self.player)
                .order_by("-evening__started_at", "-evening_id")
                .values("evening_id")[:evenings]
            )
            ids = list(self.games.filter(evening__in=newest)[: page.stop])
            if len(ids) == page.stop:
                return ids[page]
        return list(self.games[: page.stop])[page]


def history_rows(player: Player, ids: list[int]) -> list[HistoryRow]:
    """The rows of one page of the history, the games `ids` in that order: three queries,
    whatever the page holds.

    The page is chosen by id alone (games_of(...).values_list("pk")), so the database
    sorts the player's thousands of games as narrow rows; only the page's games are read
    whole."""
    by_id = Game.objects.select_related("evening__runde").with_corrected().in_bulk(ids)
    games = [by_id[pk] for pk in ids if pk in by_id]
    amounts = dict(
        LedgerEntry.objects.filter(game__in=ids, player=player, kind=GAME)
        .values_list("game_id")
        .annotate(total=Sum("amount"))
        .values_list("game_id", "total")
    )
    named = {
        pk
        for game in games
        for pk in (game.declarer_id, game.partner_id, game.loser_id, *game.jungfrauen)
        if pk is not None
    }
    names = dict(Player.objects.filter(pk__in=named).values_list("pk", "name"))
    rows = []
    for game in games:
        data = GameInput.of(game)
        # An opponent's row tells the result as theirs, as the amount does; a Bock game
        # says so, as the sheet does (its amount is doubled).
        against = data.type != Game.Type.RAMSCH and player.pk not in (data.declarer, data.partner)
        details = wording.details(data, names, against, bock=game.bock)
        rows.append(
            HistoryRow(
                game,
                wording.caption(data, names),
                " · ".join(details),
                amounts.get(game.pk, 0),
                game.corrected,
            )
        )
    return rows


def history_html(rows: list[HistoryRow]) -> SafeString:
    """A page of the history as list items, each a link to its game on the evening's
    sheet. Built here, as the sheet's rows are: fifty rows were a third of the page's
    time as a template. Names and captions are escaped; amounts and dates are digits."""
    # One reverse() for every row's link: the evening's id goes where the 0 is.
    link = reverse("evenings:detail", args=[0]).removesuffix("0/")
    nth = gettext("%(n)s. Spiel").replace(" ", "\N{NO-BREAK SPACE}")  # never "10." / "Spiel"
    html = []
    for row in rows:
        game, evening = row.game, row.game.evening
        # With the time: two evenings of a day (after a change of tables) read apart.
        started = timezone.localtime(evening.started_at)
        when = (
            f"{started:%d.%m.%Y %H:%M} · {escape(evening.runde.name)}"
            f" · {escape(nth % {'n': game.number})}"
        )
        what = f"<strong>{escape(row.caption)}</strong>"
        details = [row.details] if row.details else []
        details += [str(wording.CORRECTED)] if row.corrected else []
        if details:
            what += f' <span class="muted">{escape(" · ".join(details))}</span>'
        cents = row.amount
        html.append(
            f'<li><a class="card game-line" href="{link}{game.evening_id}/#game-{game.number}">'
            f'\n<span class="when">{when}</span>\n<span class="what">{what}</span>\n'
            f'<span class="amount big{" negative" if cents < 0 else ""}">'
            f"{'+' if cents > 0 else ''}{euro(cents)}</span>\n</a></li>"
        )
    return mark_safe("\n".join(html))


# -- the Runde page ------------------------------------------------------------------------


@dataclass(frozen=True)
class Balance:
    player_id: int
    plain_name: str
    mark: str  # "ausgeschieden", "inaktiv" or "" (player_marks)
    games: int
    payments: int
    own: bool  # the row of the one looking

    @property
    def total(self) -> int:
        return self.games + self.payments

    @property
    def name(self) -> str:
        return marked(self.plain_name, self.mark)


def player_marks(players: QuerySet[Player]) -> dict[int, tuple[str, str]]:
    """{player id: (name, mark)} of `players`, the mark where a balance is settled with
    someone no longer met at the table: "ausgeschieden" who left the club, was removed or
    deleted their account, and has not come back; "inaktiv" a player set inactive; else
    "". Walk 67: the Ausgleich listed "Sepp zahlt Hias 0,50 €" for a Sepp gone from the
    club, as for anyone; walk 70: "ausgetreten" said of a member an admin removed."""
    return {
        pk: (
            name,
            gettext("ausgeschieden")
            if user_id is None and has_left
            else gettext("inaktiv")
            if not active
            else "",
        )
        for pk, name, active, user_id, has_left in players.with_departures().values_list(
            "pk", "name", "active", "user_id", "has_left"
        )
    }


def marked(name: str, mark: str) -> str:
    """ "Hias (ausgeschieden)", or the name alone."""
    return gettext("%(name)s (%(mark)s)") % {"name": name, "mark": mark} if mark else name


def marked_names(players: QuerySet[Player]) -> dict[int, str]:
    """{player id: name} of `players`, marked as `player_marks` says: "Hias
    (ausgeschieden)"."""
    return {pk: marked(name, mark) for pk, (name, mark) in player_marks(players).items()}


def runde_balances(runde: Runde, own_id: int | None) -> list[Balance]:
    """Every player's balance in the Runde (games and payments over all its evenings),
    highest first."""
    sums: dict[int, dict[str, int]] = defaultdict(dict)
    for (player_id, kind), total in runde_sums([runde.pk]).get(runde.pk, {}).items():
        sums[player_id][kind] = total
    marks = player_marks(Player.objects.filter(pk__in=sums))
    rows = [
        Balance(pid, *marks[pid], kinds.get(GAME, 0), kinds.get(PAYMENT, 0), pid == own_id)
        for pid, kinds in sums.items()
    ]
    return sorted(rows, key=lambda row: (-row.total, german_key(row.name), row.player_id))


def runde_sums(runde_ids: list[int]) -> dict[int, dict[tuple[int, str], int]]:
    """Each player's sum per kind over all evenings of each Runde, {Runde id: {(player id,
    kind): cents}}, for the Runden that have an evening: added up from the evenings'
    totals once, then kept (per process, Django's cache) until one of the Runde's
    evenings changes.

    Ten years of five Runden are some 8,000 evening totals to add on every visit of the
    start page; the state of a Runde's evenings (how many, the sum of their versions,
    which every booking, correction, strike and payment bumps) is one light query for
    all the Runden. The state is read before the totals: a change committed between the
    two can only leave newer sums under the older state's key, never older ones under
    the newer."""
    states = stats.runde_states(runde_ids)
    keys = {runde_id: f"runde-sums:{runde_id}:{state}" for runde_id, state in states.items()}
    kept = cache.get_many(keys.values())
    missing = [runde_id for runde_id, key in keys.items() if key not in kept]
    if missing:
        added: dict[int, dict[tuple[int, str], int]] = {runde_id: {} for runde_id in missing}
        for runde_id, player_id, kind, total in (
            # (An evening closed with nothing that counts nets zero for whoever sat
            # there: they are not listed at 0,00 € for it; walk 34.)
            EveningTotal.objects.filter(evening__runde__in=missing)
            .exclude(evening__status=Evening.Status.EMPTY)
            .values_list("evening__runde_id", "player_id", "kind")
            .annotate(total=Sum("amount"))
            .order_by()
        ):
            added[runde_id][player_id, kind] = total
        fresh = {keys[runde_id]: sums for runde_id, sums in added.items()}
        cache.set_many(fresh, 600)
        kept.update(fresh)
    return {runde_id: kept[key] for runde_id, key in keys.items()}


def evenings_page(runde: Runde, number) -> Page:
    """A page of the Runde's evenings, newest first, but those closed with nothing that
    counts (`empty_evenings`); each evening carries `results`, its
    players' game sums as (name, cents), winner first, and `went_on`: it went on at a new
    table (open again, it takes corrections only)."""
    went_on = Evening.objects.filter(continues=OuterRef("pk"))
    evenings = (
        runde.evenings.listed().annotate(went_on=Exists(went_on)).order_by("-started_at", "-pk")
    )
    page = Paginator(evenings, EVENINGS_PER_PAGE).get_page(number)
    shown = list(page.object_list)
    results: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for evening_id, name, amount in (
        EveningTotal.objects.filter(evening__in=shown, kind=GAME)
        .values_list("evening_id", "player__name", "amount")
        .order_by("evening_id", "-amount", "player__name")
    ):
        results[evening_id].append((name, amount))
    for evening in shown:
        evening.results = results.get(evening.pk, [])
    page.object_list = shown
    return page


def empty_evenings(runde: Runde) -> list[Evening]:
    """The Runde's evenings closed with nothing that counts (Evening.Status.EMPTY), newest
    first, with who sat there (two begun in one minute told apart): left out of its list,
    but not lost (walk 29)."""
    return list(
        runde.evenings.filter(status=Evening.Status.EMPTY)
        .order_by("-started_at", "-pk")
        .only("pk", "started_at")
        .prefetch_related("seats__player")
    )


# -- views ---------------------------------------------------------------------------------


def player_of(request: HttpRequest, club_id: int, player_id: int) -> tuple[Membership, Player]:
    """The caller's membership and a player of the club whose pages they may see: their
    own, or anyone's for admins and Schreiber; else 404."""
    membership = membership_of(request, club_id)
    player = get_object_or_404(membership.club.players, pk=player_id)
    if player.user_id != request.user.pk and not membership.can_score:
        raise Http404
    return membership, player


@require_GET
@login_required
def player_home(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    """One player's balances, settlement lines and last evenings, per Runde."""
    membership, player = player_of(request, club_id, player_id)
    return render(
        request,
        "clubs/player_home.html",
        {
            "membership": membership,
            "player": player,
            # "Übersicht: Dieter (inaktiv)", as the Runde's accounts name him (walk 74).
            "marked": marked_names(Player.objects.filter(pk=player.pk))[player.pk],
            "yours": player.user_id == request.user.pk,
            "accounts": kept_accounts([player], request.user)[player.pk],
            "tournaments": tournaments_of(player),
        },
    )


# A player's home names their newest tournaments; the club's list has them all.
TOURNAMENTS_SHOWN = 5


def tournaments_of(player: Player) -> list[tuple[Tournament, Standing]]:
    """The newest tournaments `player` is in, with their line in its standings (place,
    points): one query, and four for each tournament (tournament_standings)."""
    participations = player.participations.select_related("tournament").order_by(
        "-tournament__date", "-tournament__pk"
    )[:TOURNAMENTS_SHOWN]
    shown = []
    for participation in participations:
        standings = tournament_standings(participation.tournament)
        line = next(s for s in standings if s.participant.pk == participation.pk)
        shown.append((participation.tournament, line))
    return shown


@require_GET
@login_required
def player_history(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    """Every game the player took part in, newest first, fifty a page; filtered by Runde
    (?runde=) and by period (?zeitraum=)."""
    membership, player = player_of(request, club_id, player_id)
    runden = list(membership.club.runden.money().order_by(german_order("name")))
    # Compared as text with the club's own Runden: no value from outside reaches a query.
    runde = next((r for r in runden if str(r.pk) == request.GET.get("runde")), None)
    # Each year since the player's first evening, for a history of many pages.
    since = periods.first_year(Evening.objects.filter(seats__player=player))
    period = periods.chosen(request, since=since)
    games = games_of(player)
    if runde is not None:
        games = games.filter(evening__runde=runde)
    games = period.filter(games, "evening__started_at").values_list("pk", flat=True)
    # What the chosen games came to: the player's evening totals (a row per evening, not
    # per game), over the same evenings.
    totals = EveningTotal.objects.filter(
        player=player, kind=GAME, evening__runde__kind=Runde.Kind.MONEY
    )
    if runde is not None:
        totals = totals.filter(evening__runde=runde)
    totals = period.filter(totals, "evening__started_at")
    newest = NewestGames(games, player)
    result = newest.kept(totals, lambda: totals.aggregate(sum=Sum("amount"))["sum"] or 0)
    page = Paginator(newest, GAMES_PER_PAGE).get_page(page_asked(request))
    rows_html = newest.kept_page(
        page.number, lambda: str(history_html(history_rows(player, list(page.object_list))))
    )
    chosen = {}
    if runde is not None:
        chosen["runde"] = runde.pk
    if request.GET.get(periods.PARAMETER) == period.key:
        chosen[periods.PARAMETER] = period.key
    return render(
        request,
        "clubs/player_history.html",
        {
            "membership": membership,
            "player": player,
            "yours": player.user_id == request.user.pk,
            "runden": runden,
            "runde": runde,
            "periods": periods.periods(since=since),
            "period": period,
            "page": page,
            "result": result,
            "rows_html": rows_html,
            # The filter as chosen, for the links to other pages ("&" to add the page).
            "filter_query": urlencode(chosen),
        },
    )
