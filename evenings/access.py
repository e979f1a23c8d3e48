"""Access to an evening: through the caller's membership in the evening's club, or 404."""

import functools

from django.db import connection
from django.http import Http404

from clubs.models import Club, Membership, Runde, Tariff
from evenings.models import Evening
from evenings.reads import from_row

# What evening_of reads, in the order of its columns: the evening, its Runde, the club,
# the evening's tariff (what select_related("runde__club", "tariff") would read).
_READ = (Evening, Runde, Club, Tariff)


@functools.cache
def _evening_sql() -> str:
    """One statement for the evening, its Runde, club and tariff, and the caller's role.

    Written out rather than built by the ORM for each request: the ORM spent ten times
    as long building this query as the database took to answer it, and the phones at a
    table ask for their evening with every tap and every poll."""
    columns = ", ".join(
        f"{alias}.{connection.ops.quote_name(field.column)}"
        for model, alias in zip(_READ, ("e", "r", "c", "t"), strict=True)
        for field in model._meta.concrete_fields
    )
    return (
        f"SELECT {columns}, (SELECT m.role FROM clubs_membership m "
        "WHERE m.club_id = r.club_id AND m.user_id = %s) "
        "FROM evenings_evening e JOIN clubs_runde r ON r.id = e.runde_id "
        "JOIN clubs_club c ON c.id = r.club_id JOIN clubs_tariff t ON t.id = e.tariff_id "
        "WHERE e.id = %s"
    )


def evening_of(request, evening_id: int) -> tuple[Evening, Membership]:
    """The evening and the caller's membership in its club; anyone in the club may look.

    One query: the evening with its Runde, club and tariff, and the caller's role in the
    club, read together.
    """
    with connection.cursor() as cursor:
        cursor.execute(_evening_sql(), [request.user.pk, evening_id])
        row = cursor.fetchone()
    if row is None or row[-1] is None:
        raise Http404
    evening, runde, club, tariff = from_row(_READ, row[:-1])
    runde.club = club
    evening.runde, evening.tariff = runde, tariff
    role = row[-1]
    if evening.scorekeeper_id == request.user.pk and role == Membership.Role.PLAYER:
        # A tournament table's named scorekeeper books at this table (and only here).
        role = Membership.Role.SCOREKEEPER
    membership = Membership(user=request.user, club=club, role=role)
    return evening, membership


def scored_evening_of(request, evening_id: int) -> tuple[Evening, Membership]:
    """The evening if the caller may book and correct games in it (admin or Schreiber)."""
    evening, membership = evening_of(request, evening_id)
    if not membership.can_score:
        raise Http404
    return evening, membership


def admin_evening_of(request, evening_id: int) -> tuple[Evening, Membership]:
    evening, membership = evening_of(request, evening_id)
    if not membership.is_admin:
        raise Http404
    return evening, membership
