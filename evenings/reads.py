"""Reads on the table's hot path, written out in SQL.

Every tap and every poll of the entry screen reads the evening and its seats; the ORM spent
several times as long building these queries as PostgreSQL took to answer them. The rows
become model instances as the ORM makes them (Model.from_db, with each field's
conversion), so the rest of the code cannot tell the difference.
"""

import functools

from django.db import connection

from clubs.models import Player
from evenings.models import Evening, Seat


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


@functools.cache
def _seats_sql() -> str:
    columns = ", ".join(
        f"{alias}.{connection.ops.quote_name(field.column)}"
        for model, alias in ((Seat, "s"), (Player, "p"))
        for field in model._meta.concrete_fields
    )
    return (
        f"SELECT {columns} FROM evenings_seat s JOIN clubs_player p ON p.id = s.player_id "
        "WHERE s.evening_id = %s ORDER BY s.position"
    )


def seats_of(evening: Evening) -> list[Seat]:
    """The evening's seats in order, each with its player (what
    evening.seats.select_related("player") reads)."""
    with connection.cursor() as cursor:
        cursor.execute(_seats_sql(), [evening.pk])
        rows = cursor.fetchall()
    seats = []
    for row in rows:
        seat, player = from_row((Seat, Player), row)
        seat.player = player
        seats.append(seat)
    return seats
