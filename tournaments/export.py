"""A tournament's ranking as CSV for a German spreadsheet, as evenings.export writes an
evening: UTF-8 with a byte order mark, `;` between the fields, names that could be read
as formulas made text. Points are whole numbers, so they need no decimal comma."""

import csv
import io

from django.utils.translation import gettext as _

from evenings import export
from tournaments.models import Tournament
from tournaments.standings import Standing

CONTENT_TYPE = export.CONTENT_TYPE


def attachment(tournament: Tournament) -> str:
    """ "stadtmeisterschaft-2026-03-14-rangliste.csv" """
    return export.attachment(f"{tournament.name} {tournament.date.isoformat()} rangliste")


def ranking(tournament: Tournament, standings: list[Standing]) -> str:
    """Rank, start number, name, the points of each round, total, Soli won, games lost,
    games played, and "ja" under "zurückgezogen" for who withdrew (their points stay in
    the ranking)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=export.SEPARATOR, lineterminator="\r\n")
    rounds = len(standings[0].rounds) if standings else tournament.round_count
    writer.writerow(
        [
            _("Platz"),
            _("Startnummer"),
            _("Name"),
            *(_("Runde %(n)s") % {"n": n} for n in range(1, rounds + 1)),
            _("Gesamt"),
            _("Soli gewonnen"),
            _("Spiele verloren"),
            # Not all the same: at a table of five the dealer sits out (walk 28).
            _("Spiele gespielt"),
            _("zurückgezogen"),
        ]
    )
    for line in standings:
        writer.writerow(
            [
                line.rank,
                line.participant.number,
                export.as_text(line.participant.player.name),
                *("" if points is None else points for points in line.rounds),
                line.total,
                line.solos_won,
                line.games_lost,
                line.games_played,
                _("ja") if line.withdrawn else "",
            ]
        )
    return export.BOM + out.getvalue()
