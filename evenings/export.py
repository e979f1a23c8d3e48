"""An evening, or a Runde's whole history, as CSV that a German spreadsheet opens right.

German Excel and LibreOffice read a file opened by double click correctly only if it is
UTF-8 with a byte order mark (else the umlauts break), with `;` between the fields (the
comma is the decimal sign), amounts with a decimal comma and no thousands separator
("1234,50", which they read as a number) and dates as dd.mm.yyyy. Each player also has a
column with the cents as an integer, for whoever computes with the file.

One row per game booked: its number in its evening, the evening ("Abend": the day and
hour it started, so two evenings of one day stay apart), the game in words ("· Bock" for
a Bock game, "· korrigiert" for one corrected since it was booked), each player's amount
(empty where they sat out), then the same amounts in cents. A game struck or taken back
keeps its row, as on the sheet ("· gestrichen", no amounts): the numbers run on without a
gap nobody can explain (walk 82). A player's amount is the sum of their ledger
entries for the game, corrections included. Last come the sums: of the games, and if
anything was paid, the payments and the balance after them. A Runde's history is read
fifty evenings at a time, so ten years stream out without being held in memory at once.
"""

import csv
from collections.abc import Iterable, Iterator

from django.db.models import Sum
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _

from clubs.models import Player, Runde, german_order, german_slug
from clubs.services import display_name, names_played_as
from evenings import wording
from evenings.models import Change, Evening, EveningTotal, Game, LedgerEntry
from evenings.reads import seats_of
from evenings.services import GameInput, settled_by
from evenings.sheet import TAKEN_BACK

CONTENT_TYPE = "text/csv; charset=utf-8"
BOM = "\ufeff"
SEPARATOR = ";"
EVENINGS_PER_QUERY = 50
# A text cell starting with one of these is a formula to a spreadsheet; names are typed
# by people, so such a cell gets a leading apostrophe (shown as text, not run).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def decimal_comma(cents: int) -> str:
    """120 -> "1,20", -5 -> "-0,05", 123450 -> "1234,50": a number to a German spreadsheet.

    Not the screen's "1,20 €" (clubs/templatetags/money.py): no currency sign and no
    thousands separator, which a spreadsheet would read as text."""
    sign = "-" if cents < 0 else ""
    euros, rest = divmod(abs(cents), 100)
    return f"{sign}{euros},{rest:02d}"


def as_text(value: str) -> str:
    return "'" + value if value.startswith(FORMULA_START) else value


def attachment(name: str) -> str:
    """The Content-Disposition of a download named after `name` ("donnerstagsrunde.csv")."""
    return content_disposition_header(True, f"{german_slug(name) or 'schafkopf'}.csv")


def evening_attachment(evening: Evening) -> str:
    """ "donnerstagsrunde-2026-03-12-1930.csv": the Runde, the day and the hour it started,
    sorting by date; two evenings of one day do not overwrite each other's file. A
    tournament's table adds its round and number: its round's tables start in one
    minute (walk 72: four files of one name)."""
    started = timezone.localtime(evening.started_at)
    name = f"{evening.runde.name} {started:%Y-%m-%d %H%M}"
    # (A points evening made without a tournament has none.)
    if evening.is_table and (table := getattr(evening, "table", None)) is not None:
        name += f" runde {table.round.number} tisch {table.number}"
    return attachment(name)


def evening_date(evening: Evening) -> str:
    """ "12.03.2026 19:30": when the evening started, where the club plays (two evenings
    of one day stay apart in the Runde's file)."""
    return timezone.localtime(evening.started_at).strftime("%d.%m.%Y %H:%M")


def evening_lines(evening: Evening) -> Iterator[str]:
    players = [seat.player for seat in seats_of(evening)]
    points = evening.tariff.is_prohof
    yield from lines(players, [[evening]], points=points)
    # Settled by a later Ausgleich der Runde, the evening's balance is what stood before it.
    settled = not points and settled_by(evening) is not None
    yield from total_lines(players, EveningTotal.objects.filter(evening=evening), points, settled)


def runde_lines(runde: Runde) -> Iterator[str]:
    """The whole history of the Runde, oldest game first; a column for everyone who ever
    sat at one of its evenings, by name in German order."""
    players = list(
        Player.objects.filter(seats__evening__in=runde.evenings.listed())
        .distinct()
        .order_by(german_order("name"), "pk")
    )
    evenings = list(runde.evenings.order_by("started_at", "pk").only("pk", "started_at"))
    chunks = (
        evenings[at : at + EVENINGS_PER_QUERY] for at in range(0, len(evenings), EVENINGS_PER_QUERY)
    )
    yield from lines(players, chunks)
    yield from total_lines(players, EveningTotal.objects.filter(evening__runde=runde))


# When a payment was entered, to the second: a Storno names the one it takes back by it,
# and several are often entered within one minute.
SECONDS = "%d.%m.%Y %H:%M:%S"


def payment_lines(runde: Runde) -> Iterator[str]:
    """Every payment of the Runde, oldest first, for the treasurer's cash box: when it was
    entered, at which evening (or Ausgleich), who paid whom how much, who entered it. A
    Storno is a line of its own, naming the payment it takes back, with its payer and
    payee and the amount negative: the column adds up to what changed hands."""
    writer = csv.writer(_Line(), delimiter=SEPARATOR, lineterminator="\r\n")
    yield BOM + writer.writerow(
        [
            _("Eingetragen"),
            _("Abend"),
            _("Art"),
            _("Zahlt"),
            _("Bekommt"),
            _("Betrag"),
            _("Cent"),
            _("Eingetragen von"),
        ]
    )
    changes = list(
        Change.objects.filter(evening__runde=runde, kind=Change.Kind.PAYMENT)
        .select_related("evening", "by")
        .order_by("at", "pk")
    )
    people = {pid for c in changes for pid in (c.after["payer"], c.after["payee"])}
    names = dict(Player.objects.filter(pk__in=people).values_list("pk", "name"))
    # Who entered it, as the evening's history names them.
    authors = names_played_as(runde.club, {change.by_id for change in changes})
    entered = {change.pk: change for change in changes}
    for change in changes:
        evening = change.evening
        where = evening_date(evening)
        if evening.settles_runde:
            where = _("%(when)s Ausgleich der Runde") % {"when": where}
        kind = _("Zahlung")
        payer, payee, amount = (change.after[k] for k in ("payer", "payee", "amount"))
        if "cancels" in change.after:
            # Booked as a payment the other way; listed as the payment, taken back.
            payer, payee, amount = payee, payer, -amount
            cancelled = entered.get(change.after["cancels"])
            kind = (
                _("Storno der Zahlung vom %(when)s")
                % {"when": timezone.localtime(cancelled.at).strftime(SECONDS)}
                if cancelled
                else _("Storno")
            )
        yield writer.writerow(
            [
                timezone.localtime(change.at).strftime(SECONDS),
                where,
                kind,
                as_text(names[payer]),
                as_text(names[payee]),
                decimal_comma(amount),
                amount,
                as_text(display_name(change.by, authors)),
            ]
        )


def total_lines(
    players: list[Player], totals, points: bool = False, settled: bool = False
) -> Iterator[str]:
    """The last lines, for whoever reconciles the file with the balances: each player's
    sum of the games; if anything was paid, the payments (+ paid, - received) and the
    balance after them, which an evening `settled` by a later Ausgleich der Runde had
    before it. From the totals the database keeps (EveningTotal, `totals`)."""
    writer = csv.writer(_Line(), delimiter=SEPARATOR, lineterminator="\r\n")
    sums: dict[str, dict[int, int]] = {}
    for kind, player_id, amount in (
        totals.values_list("kind", "player_id").annotate(total=Sum("amount")).order_by()
    ):
        sums.setdefault(kind, {})[player_id] = amount
    games = sums.get(LedgerEntry.Kind.POINTS if points else LedgerEntry.Kind.GAME, {})
    paid = sums.get(LedgerEntry.Kind.PAYMENT, {})

    def line(label: str, cents: dict[int, int]) -> str:
        amounts = [cents.get(player.pk, 0) for player in players]
        if points:
            return writer.writerow(["", "", label, *amounts])
        return writer.writerow(["", "", label, *map(decimal_comma, amounts), *amounts])

    yield line(_("Summe der Punkte") if points else _("Summe der Spiele"), games)
    if any(paid.values()):
        yield line(_("Zahlungen (+ gezahlt, - erhalten)"), paid)
        balance = {pk: games.get(pk, 0) + paid.get(pk, 0) for pk in games.keys() | paid.keys()}
        yield line(_("Stand vor dem Ausgleich der Runde") if settled else _("Stand"), balance)


class _Line:
    """What csv.writer writes to: writerow() then returns the line it made."""

    def write(self, line: str) -> str:
        return line


def lines(
    players: list[Player], chunks: Iterable[list[Evening]], points: bool = False
) -> Iterator[str]:
    """The header, then one line per booked game of the evenings, chunk by chunk (two
    queries a chunk). With `points` (a tournament table) one column of whole points per
    player instead of euros and cents."""
    writer = csv.writer(_Line(), delimiter=SEPARATOR, lineterminator="\r\n")
    names = {player.pk: player.name for player in players}
    yield BOM + writer.writerow(
        [
            _("Nr."),
            _("Abend"),
            _("Spiel"),
            *(as_text(player.name) for player in players),
            *(
                as_text(_("%(name)s (Cent)") % {"name": player.name})
                for player in ([] if points else players)
            ),
        ]
    )
    # A row of its own length in a struck game's row, for whoever reads it as a table.
    empty = [""] * len(players) * (1 if points else 2)
    for chunk in chunks:
        dates = {evening.pk: evening_date(evening) for evening in chunk}
        amounts = {
            (game_id, player_id): total
            for game_id, player_id, total in LedgerEntry.objects.filter(
                evening__in=chunk,
                kind=LedgerEntry.Kind.POINTS if points else LedgerEntry.Kind.GAME,
            )
            .values_list("game_id", "player_id")
            .annotate(total=Sum("amount"))
        }
        games = (
            Game.objects.filter(evening__in=chunk)
            .with_corrected()
            .with_taken_back()
            .order_by("evening__started_at", "evening_id", "number")
        )
        for game in games:
            data = GameInput.of(game)
            if not game.is_booked:
                kind = game.taken_back_kind or Change.Kind.VOID
                yield writer.writerow(
                    [
                        game.number,
                        dates[game.evening_id],
                        f"{wording.caption(data, names)} · {TAKEN_BACK[kind]}",
                        *empty,
                    ]
                )
                continue
            cents = [
                amounts.get((game.pk, player.pk), 0) if player.pk in game.seating else None
                for player in players
            ]
            yield writer.writerow(
                [
                    game.number,
                    dates[game.evening_id],
                    wording.line(data, names, bock=game.bock)
                    + (f" · {wording.CORRECTED}" if game.corrected else ""),
                    *(
                        "" if amount is None else amount if points else decimal_comma(amount)
                        for amount in cents
                    ),
                    *("" if amount is None else amount for amount in ([] if points else cents)),
                ]
            )
