"""The periods people look back over: this year, last year, all of it.

One definition for every page that filters by time (a player's history, a Runde's
statistics and plot), so that "dieses Jahr" means the same everywhere. A period is read
from the query string (`?zeitraum=…`); anything else there means all of it.
"""

import re
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Min
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

PARAMETER = "zeitraum"


@dataclass(frozen=True)
class Period:
    key: str  # as in the query string
    label: str
    start: datetime | None  # inclusive; None: from the beginning
    end: datetime | None  # exclusive; None: until now

    def filter(self, queryset, field: str):
        """`queryset` narrowed to rows whose `field` (a datetime) lies in the period."""
        if self.start is not None:
            queryset = queryset.filter(**{f"{field}__gte": self.start})
        if self.end is not None:
            queryset = queryset.filter(**{f"{field}__lt": self.end})
        return queryset


def periods(now: datetime | None = None, since: int | None = None) -> list[Period]:
    """The periods on offer, in the order a filter shows them (the default last); with
    `since`, a year, each year before last back to it too ("2019"), for a long history,
    and no "letztes Jahr" for one that began this year."""
    now = timezone.localtime(now)
    this_year = now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    last_year = this_year.replace(year=this_year.year - 1)
    earlier = range(now.year - 2, (since or now.year) - 1, -1)
    return [
        Period("dieses-jahr", str(_("dieses Jahr")), this_year, None),
        # Not for a history that began this year: it would only answer "keine Spiele".
        *(
            [Period("letztes-jahr", str(_("letztes Jahr")), last_year, this_year)]
            if since is None or since < now.year
            else []
        ),
        *(_year(this_year, year) for year in earlier),
        Period("alles", str(_("alles")), None, None),
    ]


def first_year(evenings, now: datetime | None = None) -> int:
    """The year of the first of `evenings` (a query of evenings), in the club's time, for
    `periods(since=…)`; this year if there is none: a history that has not begun is
    offered no "letztes Jahr" either (walk 54)."""
    first = evenings.aggregate(first=Min("started_at"))["first"]
    return timezone.localtime(first if first is not None else now).year


def _year(new_years_day: datetime, year: int) -> Period:
    start = new_years_day.replace(year=year)
    return Period(str(year), str(year), start, start.replace(year=year + 1))


def chosen(request, now: datetime | None = None, since: int | None = None) -> Period:
    """The period the request asks for (?zeitraum=…): this year, last year, a year
    before ("2019", from 1990 on); all of it if it names none.

    With `since` (the first year of the history filtered, first_year) only a period its
    filter offers: another (an old link's "1999", or "letztes-jahr" of a history begun
    this year) showed no games under a filter that read "dieses Jahr" (walk 61)."""
    key = request.GET.get(PARAMETER, "")
    if since is None:
        since = int(key) if re.fullmatch(r"(19[89]|20\d)\d", key) else None
    offered = periods(now, since)
    return next((p for p in offered if p.key == key), offered[-1])
