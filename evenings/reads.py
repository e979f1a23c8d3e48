"""Reads on the table's hot path, written out in SQL.

Every tap and every poll of the entry screen reads the evening and its seats; the ORM spent
several times as long building these queries as PostgreSQL took to answer them. The rows
become model instances as the ORM makes them (Model.from_db, with each field's
conversion), so the rest of the code cannot tell the difference.
"""

import dataclasses
import functools
import re
import uuid
import weakref

from django.db import connection

from clubs.models import Player
from evenings.models import Evening, Game, Seat


def from_row(models: tuple, row: tuple) -> list:
    """The `models` made from their columns in `row`, one after the other, as the ORM
    makes them."""
    made, at = [], 0
    for model in models:
        fields = model._meta.concrete_fields
        values = [
            field.from_db_value(value, None, connection)
            if hasattr(field, "from_db_value")
            else value
            for field, value in zip(fields, row[at : at + len(fields)], strict=True)
        ]
        made.append(model.from_db(connection.alias, [f.attname for f in fields], values))
        at += len(fields)
    return made


def columns(*models_and_aliases) -> str:
    """The concrete columns of each (model, table alias), in from_row's order."""
    return ", ".join(
        f"{alias}.{connection.ops.quote_name(field.column)}"
        for model, alias in models_and_aliases
        for field in model._meta.concrete_fields
    )


# What a bigint parameter of a prepared statement takes (a number beyond it is an error,
# where a literal in the statement's text would merely match nothing).
BIGINT = range(-(2**63), 2**63)
_PLACEHOLDER = re.compile(r"%%|%(?:\((\w+)\))?s")
# The statements each open connection has prepared (by name); a new connection is a new key.
_prepared_on: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class Prepared:
    """A statement of the table's hot path, planned once per database connection.

    PostgreSQL spent longer planning these statements than running them (a booking's
    reads and write: about 1 ms of planning, 0.3 ms of work). Each is PREPAREd on a
    connection the first time it goes out there (the connection's setup, like its time
    zone: not in Django's query log) and from then on sent as EXECUTE, its parameters
    still bound on the client, so that read_together can send several in one round trip.
    PostgreSQL keeps a prepared statement through rollbacks, for the connection's life;
    after five runs it keeps one plan where that costs no more than planning anew, and it
    plans again by itself when a table the statement reads changes.

    `sql` has its parameters as cursor.execute takes them: all `%s`, or all `%(name)s`.
    """

    def __init__(self, name: str, sql: str):
        keys: list[str | None] = []

        def number(match: re.Match) -> str:
            if match[0] == "%%":
                return "%"
            key = match[1]
            if key is None or key not in keys:
                keys.append(key)
            return f"${len(keys) if key is None else keys.index(key) + 1}"

        self.name = name
        self.prepare = f"PREPARE {name} AS {_PLACEHOLDER.sub(number, sql)}"
        arguments = ", ".join("%s" if key is None else f"%({key})s" for key in keys)
        self.execute = f"EXECUTE {name}({arguments})"

    def sql(self) -> str:
        """The statement to send on the default connection: EXECUTE, prepared first."""
        # Connected, and a kept connection checked first as Django does before a query
        # (after a restart of PostgreSQL the new connection has nothing prepared).
        connection.cursor().close()
        prepared = _prepared_on.setdefault(connection.connection, set())
        if self.name not in prepared:
            with connection.wrap_database_errors:
                connection.connection.execute(self.prepare)
            prepared.add(self.name)
        return self.execute


def read_together(*statements: tuple[str, list]) -> list[list[tuple]]:
    """The rows of each (sql, params), the statements sent in one round trip.

    Django's PostgreSQL backend binds parameters on the client (psycopg's ClientCursor),
    which lets one query string carry several statements; psycopg answers a result for
    each (nextset). Each statement still reads its own snapshot."""
    with connection.cursor() as cursor:
        cursor.execute(
            ";\n".join(sql for sql, _params in statements),
            [param for _sql, params in statements for param in params],
        )
        results = [cursor.fetchall()]
        while cursor.nextset():
            results.append(cursor.fetchall())
    return results


@functools.cache
def _seats_sql() -> Prepared:
    return Prepared(
        "evening_seats",
        f"SELECT {columns((Seat, 's'), (Player, 'p'))} FROM evenings_seat s "
        "JOIN clubs_player p ON p.id = s.player_id WHERE s.evening_id = %s ORDER BY s.position",
    )


def seats_statement(evening_id: int) -> tuple[str, list]:
    return _seats_sql().sql(), [evening_id]


def seats_from(rows: list[tuple]) -> list[Seat]:
    seats = []
    for row in rows:
        seat, player = from_row((Seat, Player), row)
        seat.player = player
        seats.append(seat)
    return seats


def seats_of(evening: Evening) -> list[Seat]:
    """The evening's seats in order, each with its player (what
    evening.seats.select_related("player") reads). Seats change only before the first game
    (services.change_seats), so they are read once per evening instance (evening_of reads them
    with the evening)."""
    if "_seats" not in evening.__dict__:
        [rows] = read_together(seats_statement(evening.pk))
        keep_seats(evening, rows)
    return evening.__dict__["_seats"]


def keep_seats(evening: Evening, rows: list[tuple]) -> None:
    """Keep the seats in `rows` (of seats_statement) with the evening, for seats_of."""
    evening.__dict__["_seats"] = seats_from(rows)


@dataclasses.dataclass(frozen=True)
class State:
    """An evening's state as a booking reads it, in one snapshot: its status and version,
    the number of its last game, its last booked games (oldest first), and whether the
    key it was asked about has booked a game (in any evening)."""

    status: str
    version: int
    last_number: int
    recent: list[Game]
    key_booked: bool = False
    # Whether the evening went on at a new table (Evening.continues) or was opened again
    # for corrections only (Evening.corrections_only): it takes no new game
    # (Evening.play_over).
    went_on: bool = False


# A booking's read looks for the last booked games among the evening's last WINDOW
# numbers: an index range, whatever the evening's length and the table's statistics (with
# stale ones PostgreSQL read every game of the evening and sorted them). Should fewer be
# found there (games struck out), the evening is read again without the window.
WINDOW = 64


@functools.cache
def _state_sql(window: bool) -> str:
    return (
        "SELECT e.status, e.version, e.last_number, "
        "EXISTS (SELECT 1 FROM evenings_game WHERE key = %s::uuid), "
        "e.corrections_only OR EXISTS (SELECT 1 FROM evenings_evening n "
        "WHERE n.continues_id = e.id), "
        f"{columns((Game, 'g'))} FROM evenings_evening e "
        "LEFT JOIN LATERAL (SELECT * FROM evenings_game "
        "WHERE evening_id = e.id AND voided_at IS NULL "
        + ("AND number > e.last_number - %s " if window else "")
        + "ORDER BY number DESC LIMIT %s) g ON true WHERE e.id = %s"
    )


def state_statement(evening_id: int, games: int, key: str = "") -> tuple[str, list]:
    """The evening's state with its last `games` booked games (within the window), and
    whether `key` (a form's, as posted) has booked a game."""
    return _state_prepared().sql(), [_uuid_or_none(key), WINDOW, games, evening_id]


@functools.cache
def _state_prepared() -> Prepared:
    return Prepared("evening_state", _state_sql(True))


def _uuid_or_none(key: str) -> str | None:
    try:
        return str(uuid.UUID(key))
    except ValueError:
        return None


def state_from(rows: list[tuple], evening_id: int, games: int) -> State:
    """The state in the rows of state_statement(evening_id, games)."""
    status, version, last_number, key_booked, went_on = rows[0][:5]
    found = [from_row((Game,), row[5:])[0] for row in rows if row[5] is not None]
    if len(found) < games and last_number > WINDOW:
        # Games struck out in the window: the rest of the evening may hold more. (A key
        # that had booked a game still has.)
        [rows] = read_together((_state_sql(False), [None, games, evening_id]))
        return dataclasses.replace(state_from(rows, evening_id, 0), key_booked=key_booked)
    return State(status, version, last_number, found[::-1], key_booked, went_on)


def state_of(evening_id: int, games: int) -> State:
    [rows] = read_together(state_statement(evening_id, games))
    return state_from(rows, evening_id, games)
