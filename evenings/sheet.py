"""The evening sheet: one row per game like the paper Schafkopf-Block.

Amounts come from the ledger (the booked truth) and the standing from the totals the
database keeps; which games were Bock games and how many are still to come comes from the
engine's scoring of the same games. Games that were struck or taken back keep their row,
struck through, so the numbering has no gaps.

A sheet can start at any game: what a booking, a correction or a poll sends is the rows
from the first game that changed on, with the running totals counted back from the
standing, so its cost follows what changed, not the length of the evening.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape

from django.core.cache import cache
from django.db.models import Sum
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from clubs.stats import named
from clubs.templatetags.money import amount, amount_plain
from evenings import services, wording
from evenings.models import Change, Evening, Game, LedgerEntry
from evenings.reads import seats_of
from scoring import score_after

NBSP = "\xa0"

TAKEN_BACK = {Change.Kind.VOID: _("gestrichen"), Change.Kind.UNDO: _("zurückgenommen")}


@dataclass
class Cell:
    amount: int | None  # None: sat out
    total: int


@dataclass
class Row:
    game: Game
    caption: str
    # What else was booked, to check at a glance: "verloren · 3 Laufende · Kontra".
    details: str = ""
    unit: int = 0
    bock: bool = False
    cells: list[Cell] = field(default_factory=list)
    # Why a game no longer counts: Change.Kind.VOID or UNDO; "" while it counts.
    taken_back: str = ""
    corrected: bool = False  # ever, as the evening's history tells

    @property
    def taken_back_label(self) -> str:
        return TAKEN_BACK.get(self.taken_back, "")


@dataclass
class Sheet:
    evening: Evening
    players: list[Player]
    rows: list[Row]  # from game `first` on
    totals: list[int]
    bock_remaining: int
    plays_bock: bool
    first: int = 1

    @property
    def points(self) -> bool:
        """A ProHof table: points, not cents."""
        return self.evening.tariff.is_prohof

    @property
    def standing(self) -> list[tuple[Player, int]]:
        return list(zip(self.players, self.totals, strict=True))

    # The standing's cells and the foot's totals, for every answer that changes them;
    # written out like the rows (a template loop cost more than the rest of a booking's
    # answer).
    @property
    def standing_html(self) -> SafeString:
        return mark_safe(
            "".join(
                f'<div class="standing-cell"><bdi class="name">{escape(player.name)}</bdi> '
                f'<span class="amount{" negative" if total < 0 else ""}">'
                f"{amount_plain(total, self.points)}</span></div>"
                for player, total in self.standing
            )
        )

    @property
    def totals_html(self) -> SafeString:
        return mark_safe(
            "".join(
                f'<td class="grand{" negative" if total < 0 else ""}">'
                f"{amount_plain(total, self.points)}</td>"
                for total in self.totals
            )
        )

    @property
    def shows_bock(self) -> bool:
        """Bock games still to come; a closed evening has none."""
        return self.plays_bock and self.evening.is_open and self.bock_remaining > 0


def parts(sheet: Sheet, membership, known: int) -> dict:
    """The sheet's rows for a phone that has them up to game `known`: the rows it has (to
    replace) and the ones it has not (to add); whole() for all of them."""
    can_correct = membership is not None and membership.can_score
    old = [row for row in sheet.rows if row.game.number <= known]
    new = [row for row in sheet.rows if row.game.number > known]
    return {
        "sheet": sheet,
        "known": known,
        "replaced_rows": rows_html(sheet, can_correct, old, replace=True) if old else "",
        "added_rows": rows_html(sheet, can_correct, new) if new else "",
    }


def whole(evening: Evening, membership, seats: list | None = None) -> dict:
    """The whole sheet for a template: its rows as HTML (kept()), as links to correct
    them for who may."""
    can_correct = membership is not None and membership.can_score and evening.is_open
    lean, html = kept(
        evening,
        "links" if can_correct else "text",
        lambda built: rows_html(built, can_correct, built.rows),
        seats,
    )
    return {"sheet": lean, "rows_html": html}


def kept(
    evening: Evening, flavour: str, html: Callable[[Sheet], str], seats: list | None = None
) -> tuple[Sheet, SafeString]:
    """The whole sheet without its rows, and the rows as `html` writes them: kept (per
    process, Django's cache, ten minutes at most) under the evening's version, the
    `flavour` of the HTML and the players' names.

    Every change to an evening's games, amounts or state makes a new version
    (services._record and the booking's statement), so a visit finds the rows that a
    visit at the same version built: the evening screen, the spectator's page and the
    printed sheet of a long evening cost what their other parts cost.
    """
    seats = seats if seats is not None else seats_of(evening)
    key = f"sheet:{evening.pk}:{evening.version}:{flavour}:{seated_names(seats)}"
    rows = cache.get(key)
    if rows is None:
        built = build(evening, seats=seats)
        rows = (str(html(built)), built.totals, built.bock_remaining)
        cache.set(key, rows, 600)
    text, totals, bock_remaining = rows
    lean = Sheet(
        evening=evening,
        players=[seat.player for seat in seats],
        rows=[],  # in the HTML
        totals=totals,
        bock_remaining=bock_remaining,
        plays_bock=evening.tariff.plays_bock,
    )
    return lean, mark_safe(text)


def seated_names(seats: list) -> str:
    """A digest of the seated players' names: a sheet, a history or an entry form that
    shows them is out of date when it changes (a player renamed)."""
    return named({seat.player_id: seat.player.name for seat in seats})


def rows_html(
    sheet: Sheet, can_correct: bool, rows: list[Row], replace: bool = False
) -> SafeString:
    """The rows of the sheet as HTML: a tbody per game, its caption line (a link to
    correct it for who may) and its line of running totals and amounts.

    Built here, not in a template: a template cost about a millisecond per row, and the
    sheet of a long evening is most of what a phone loads. Only names and captions are
    text from people, and they are escaped; amounts are digits. `replace` marks each row
    to replace its old self out of band (htmx).
    """
    evening, points = sheet.evening, sheet.points
    columns = len(sheet.players)
    # One reverse() for every row's link: the game's id goes where the 0 is.
    link = reverse("evenings:game", args=[evening.pk, 0]).removesuffix("0/")
    correct = can_correct and evening.is_open
    oob = ' hx-swap-oob="true"' if replace else ""
    out = f'<span class="delta">{escape(gettext("setzt aus"))}</span></td>'
    bock = f" · <strong>{escape(gettext('Bock'))}</strong>"
    # The game's value, named as on the print (walk 61: a bare amount beside the game
    # read as someone's winnings).
    worth = escape(gettext("Wert %(unit)s")).replace(" ", NBSP)  # one line with its amount
    corrected = f' · <span class="corrected">{escape(str(wording.CORRECTED))}</span>'
    edit = (
        '<span class="edit"><span aria-hidden="true">✎</span>'
        f'<span class="visually-hidden">{escape(gettext("korrigieren"))}</span></span></a>'
    )
    bring_back = (
        '<span class="edit"><span aria-hidden="true">↺</span>'
        f'<span class="visually-hidden">{escape(gettext("wieder zählen"))}</span></span></a>'
    )
    html = []
    for row in rows:
        n, caption = row.game.number, escape(row.caption)
        head = f'<tr class="caption"><th colspan="{columns}" scope="rowgroup">'
        if row.taken_back:
            title = (
                f'<span class="num">{n}.</span> <s><bdi>{caption}</bdi></s> · '
                f"{escape(str(row.taken_back_label))}"
            )
            if correct and row.taken_back == Change.Kind.VOID:
                # A struck game can count again, whatever was booked since (a game taken
                # back by "Letztes Spiel zurücknehmen" only until the next one is).
                title = _link(f"{link}{row.game.pk}/", title + bring_back)
            html.append(
                f'<tbody id="game-{n}" class="game taken-back"{oob}>{head}{title}</th></tr></tbody>'
            )
            continue
        # One box for the words, so that where the caption is a row of boxes (the link to
        # correct it) "Bock" wraps with them rather than standing beside them.
        # "0,80 €" and "40 P." stay on one line (a no-break space) as the words wrap.
        # The caption in its own box for the direction of writing: a name written right to
        # left at its end would take the amount after it along (the names are isolated).
        value = worth % {"unit": amount(row.unit, points).replace(" ", NBSP)}
        what = f"<bdi>{caption}</bdi> · {value}"
        what += f" · {escape(row.details)}" if row.details else ""
        what += bock if row.bock else ""
        what += corrected if row.corrected else ""
        title = f'<span class="num">{n}.</span> <span class="what">{what}</span>'
        if correct:
            title = _link(f"{link}{row.game.pk}/", title + edit)
        cells = "".join(
            f'<td class="out"><span class="total">{amount_plain(cell.total, points)}</span>{out}'
            if cell.amount is None
            else (
                f'<td><span class="total{" negative" if cell.total < 0 else ""}">'
                f"{amount_plain(cell.total, points)}</span>"
                f'<span class="delta">{"+" if cell.amount > 0 else ""}'
                f"{amount_plain(cell.amount, points)}</span></td>"
            )
            for cell in row.cells
        )
        html.append(
            f'<tbody id="game-{n}" class="game{" bock" if row.bock else ""}"{oob}>\n'
            f'{head}{title}</th></tr>\n<tr class="amounts">{cells}</tr>\n</tbody>'
        )
    return mark_safe("".join(html))


def print_rows_html(sheet: Sheet) -> SafeString:
    """The rows of the printed Schafkopf-Block (templates/evenings/print.html): a table
    row per game, the running total and the amount per player. Built here, as the
    evening screen's rows are: sixty games of five players were most of the page's
    time as a template."""
    points, columns = sheet.points, len(sheet.players)
    if not sheet.rows:
        return format_html(
            '<tr><td colspan="{}" class="muted">{}</td></tr>',
            columns + 2,
            gettext("Noch kein Spiel gebucht."),
        )
    bock = f" <strong>{escape(gettext('Bock'))}</strong>"
    corrected = f" · {escape(str(wording.CORRECTED))}"
    html = []
    for row in sheet.rows:
        n, caption = row.game.number, escape(row.caption)
        if row.taken_back:
            html.append(
                f'<tr class="taken-back"><td class="nr">{n}</td><td class="game"><s>{caption}'
                f"</s> · {escape(str(row.taken_back_label))}</td>{'<td></td>' * columns}</tr>"
            )
            continue
        unit = escape(gettext("Wert %(unit)s") % {"unit": amount_plain(row.unit, points)})
        what = caption + (f" · {escape(row.details)}" if row.details else "")
        what += corrected if row.corrected else ""
        what += f' <span class="unit">{unit}</span>' + (bock if row.bock else "")
        cells = "".join(
            f'<td class="num"><span class="total">{amount_plain(cell.total, points)}</span> '
            + (
                '<span class="delta">–</span></td>'
                if cell.amount is None
                else f'<span class="delta">{"+" if cell.amount > 0 else ""}'
                f"{amount_plain(cell.amount, points)}</span></td>"
            )
            for cell in row.cells
        )
        css = ' class="bock"' if row.bock else ""
        html.append(f'<tr{css}><td class="nr">{n}</td><td class="game">{what}</td>{cells}</tr>')
    return mark_safe("\n".join(html))


def _link(url: str, inside: str) -> str:
    """A row's caption as the link that opens its game in place on the evening screen (to
    correct it, or to count it again); a page of its own without JavaScript. `inside`
    ends with the link's closing tag."""
    return (
        f'<a href="{url}" hx-get="{url}" hx-target="#correction" '
        f'hx-swap="innerHTML show:#correction:top">{inside}'
    )


def _row(game: Game, names: dict[int, str]) -> Row:
    """A game's row with its caption and details, before its amounts."""
    data = services.GameInput.of(game)
    details = wording.details(data, names, quiet_win=True)
    row = Row(game, wording.caption(data, names), " · ".join(details))
    row.corrected = getattr(game, "corrected", False)  # read with_corrected
    return row


def booked(evening: Evening, booking: services.Booking) -> Sheet:
    """The sheet's one new row after a booking, from what the booking knows: the game,
    its amounts from the engine and the standing after it."""
    players = [seat.player for seat in booking.seats]
    names = {p.pk: p.name for p in players}
    game, result, standing = booking.game, booking.result, booking.standing
    row = _row(game, names)
    row.unit, row.bock = result.unit, result.bock
    for player in players:
        amount = result.payouts.get(str(player.pk))
        row.cells.append(Cell(amount, standing[player.pk]))
    return Sheet(
        evening=evening,
        players=players,
        rows=[row],
        totals=[standing[p.pk] for p in players],
        bock_remaining=result.bock_remaining,
        plays_bock=evening.tariff.plays_bock,
        first=game.number,
    )


def build(evening: Evening, first: int = 1, seats: list | None = None) -> Sheet:
    """The sheet from game `first` on (1: all of it); `seats` if the caller has read them.

    It shows the games up to the last one booked when the evening was read (its
    `last_number`, read with its version): a game booked meanwhile, by another phone in
    the same instant, has no row, and the totals are the standing before it. A phone
    shown this sheet at the version read gets that game from its next poll, once.
    """
    players = [seat.player for seat in (seats if seats is not None else seats_of(evening))]
    names = {p.pk: p.name for p in players}
    games = list(evening.games.filter(number__gte=first).with_taken_back().with_corrected())
    later = {game.pk for game in games if game.number > evening.last_number}
    games = [game for game in games if game.pk not in later]
    booked = [g for g in games if g.is_booked]
    before = services.bock_window(
        evening, services.games_before(evening, first) if first > 1 else []
    )
    result = score_after(evening.tariff.rules, before, [g.for_engine() for g in booked])
    scored = dict(zip((g.pk for g in booked), result.games, strict=True))
    # A struck game's entries sum to zero; its row shows none of them anyway.
    entries = LedgerEntry.objects.filter(evening=evening, kind=evening.entry_kind)
    if first > 1:
        entries = entries.filter(game__number__gte=first)
    amounts: dict[tuple[int, int], int] = {
        (game_id, player_id): total
        for game_id, player_id, total in entries.values_list("game_id", "player_id").annotate(
            total=Sum("amount")
        )
    }
    standing = services.standing(evening, players)
    for (game_id, player_id), total in amounts.items():
        if game_id in later:
            standing[player_id] -= total
    # The standing is the running total after the last game: count back from it.
    running = dict(standing)
    rows = []
    for game in reversed(games):
        row = _row(game, names)
        if not game.is_booked:
            row.taken_back = game.taken_back_kind or Change.Kind.VOID
        else:
            row.unit, row.bock = scored[game.pk].unit, scored[game.pk].bock
            for player in players:
                at_table = player.pk in game.seating
                amount = amounts.get((game.pk, player.pk), 0) if at_table else None
                row.cells.append(Cell(amount, running[player.pk]))
                running[player.pk] -= amount or 0
        rows.append(row)
    rows.reverse()
    return Sheet(
        evening=evening,
        players=players,
        rows=rows,
        totals=[standing[p.pk] for p in players],
        bock_remaining=result.bock_remaining,
        plays_bock=evening.tariff.plays_bock,
        first=first,
    )
