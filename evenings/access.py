"""Access to an evening: through the caller's membership in the evening's club, or 404."""

import functools

from django.http import Http404

from clubs.models import Club, Membership, Runde, Tariff
from evenings import reads
from evenings.models import Evening

# What evening_of reads, in the order of its columns: the evening, its Runde, the club,
# the evening's tariff (what select_related("runde__club", "tariff") would read).
_READ = (Evening, Runde, Club, Tariff)


@functools.cache
def _evening_sql() -> reads.Prepared:
    """One statement for the evening, its Runde, club and tariff, and the caller's role.

    Written out rather than built by the ORM for each request: the ORM spent ten times
    as long building this query as the database took to answer it, and the phones at a
    table ask for their evening with every tap and every poll."""
    columns = reads.columns(*zip(_READ, ("e", "r", "c", "t"), strict=True))
    return reads.Prepared(
        "evening_read",
        f"SELECT {columns}, (SELECT m.role FROM clubs_membership m "
        "WHERE m.club_id = r.club_id AND m.user_id = %s) "
        "FROM evenings_evening e JOIN clubs_runde r ON r.id = e.runde_id "
        "JOIN clubs_club c ON c.id = r.club_id JOIN clubs_tariff t ON t.id = e.tariff_id "
        "WHERE e.id = %s",
    )


def evening_of(
    request, evening_id: int, state: int | None = None, key: str = ""
) -> tuple[Evening, Membership]:
    """The evening and the caller's membership in its club; anyone in the club may look.

    One round trip: the evening with its Runde, club and tariff and the caller's role in
    the club; the seats with their players (reads.seats_of answers them from then on);
    with `state`, the evening's state and its last `state` booked games, as a booking
    reads them (evening.state), and whether the form's `key` has booked a game.
    """
    if evening_id not in reads.BIGINT:  # a prepared statement's bigint would refuse it
        raise Http404
    statements = [
        (_evening_sql().sql(), [request.user.pk, evening_id]),
        reads.seats_statement(evening_id),
    ]
    if state is not None:
        statements.append(reads.state_statement(evening_id, state, key))
    found, seats, *more = reads.read_together(*statements)
    if not found or found[0][-1] is None:
        raise Http404
    row = found[0]
    evening, runde, club, tariff = reads.from_row(_READ, row[:-1])
    runde.club = club
    evening.runde, evening.tariff = runde, tariff
    reads.keep_seats(evening, seats)
    if more:
        evening.state = reads.state_from(more[0], evening_id, state)
    role = row[-1]
    if evening.scorekeeper_id == request.user.pk and role == Membership.Role.PLAYER:
        # A tournament table's named scorekeeper books at this table (and only here).
        role = Membership.Role.SCOREKEEPER
    membership = Membership(user=request.user, club=club, role=role)
    return evening, membership


# The answer to most polls: is the evening, which the caller may see, still at the version
# the phone shows? And may the caller still do there what the phone offers: follow without
# an entry form (`looks`), not book (made Schreiber, the phone gets the form); or, at a
# tournament's table, book with one (`books`: the director named another Schreiber for
# the table, the form goes; at a money evening the next tap says so instead).
_SCORES = (
    f"m.role IN ('{Membership.Role.ADMIN.value}', '{Membership.Role.SCOREKEEPER.value}') "
    "OR e.scorekeeper_id = m.user_id"
)
_UNCHANGED = reads.Prepared(
    "evening_unchanged",
    "SELECT 1 FROM evenings_evening e JOIN clubs_runde r ON r.id = e.runde_id "
    "JOIN clubs_membership m ON m.club_id = r.club_id AND m.user_id = %s "
    f"WHERE e.id = %s AND e.version = %s AND NOT (%s AND ({_SCORES})) "
    f"AND NOT (%s AND e.game_limit IS NOT NULL AND NOT ({_SCORES}))",
)


def unchanged(
    request, evening_id: int, version: int, looks: bool = False, books: bool = False
) -> bool:
    """Whether the evening is still at `version` and the caller is in its club (and, if
    the phone `looks` on without an entry form, may still not book games there; if it
    `books` at a tournament's table, may still book there)."""
    if evening_id not in reads.BIGINT or version not in reads.BIGINT:
        return False
    arguments = [request.user.pk, evening_id, version, looks, books]
    [rows] = reads.read_together((_UNCHANGED.sql(), arguments))
    return bool(rows)


def scored_evening_of(
    request, evening_id: int, state: int | None = None, key: str = ""
) -> tuple[Evening, Membership]:
    """The evening if the caller may book and correct games in it (admin or Schreiber)."""
    evening, membership = evening_of(request, evening_id, state, key)
    if not membership.can_score:
        raise Http404
    return evening, membership


def admin_evening_of(request, evening_id: int) -> tuple[Evening, Membership]:
    evening, membership = evening_of(request, evening_id)
    if not membership.is_admin:
        raise Http404
    return evening, membership
