"""One club's complete data as one JSON file, and back into an empty database.

`manage.py export_club` and the admin's download write the file, streamed table by table;
`manage.py import_club` restores it. The file:

    {"format": "schafkopf-club", "version": 1, "exported_at": "...",
     "club": {"id": 1, "name": "..."},
     "tables": {"clubs.club": [...], ..., "evenings.ledgerentry": [...], ...,
                "auth.user": [...]}}

Each row holds every concrete field of its model by attname (`club_id`, not `club`), the
primary key included, so a field added to a model later travels without a change here.
Datetimes are ISO strings with microseconds (DjangoJSONEncoder would cut them to
milliseconds), UUIDs strings, JSON fields JSON, cents ints.

Users are the exception: only who they are (USER_FIELDS), and their password hash only
when asked for (the command line's --with-passwords; never the browser download). A user
restored without one gets an unusable password and sets a new one by "Passwort
vergessen" or `make password`.

EveningTotal is not in the file: the database rebuilds it from the ledger rows as they
are inserted (evenings migration 0006).
"""

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime, time
from typing import Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.color import no_style
from django.db import DatabaseError, connection, models, transaction
from django.utils import timezone
from django.utils.http import content_disposition_header

from clubs.models import (
    Club,
    Departure,
    Invitation,
    Membership,
    Player,
    RoleChange,
    Runde,
    Tariff,
    german_slug,
)
from evenings.management.commands import verify_ledger
from evenings.models import Change, Evening, EveningTotal, Game, LedgerEntry, Seat
from tournaments.models import Participant, Round, Season, Table, TableSeat, Tournament

FORMAT = "schafkopf-club"
VERSION = 1
USER_FIELDS = ("id", "username", "first_name", "last_name", "email", "is_active", "date_joined")
BATCH_SIZE = 2000

# The club's tables in dependency order (a row refers only to rows above it, and to
# users), each with the lookup that finds the club's rows.
CLUB_TABLES: tuple[tuple[type[models.Model], str], ...] = (
    (Club, "pk"),
    (Membership, "club"),
    (Player, "club"),
    (Departure, "club"),
    (RoleChange, "club"),
    (Invitation, "club"),
    (Runde, "club"),
    (Tariff, "runde__club"),
    (Evening, "runde__club"),
    (Seat, "evening__runde__club"),
    (Game, "evening__runde__club"),
    (Change, "evening__runde__club"),
    (LedgerEntry, "evening__runde__club"),
    (Season, "club"),
    (Tournament, "club"),
    (Participant, "tournament__club"),
    (Round, "tournament__club"),
    (Table, "round__tournament__club"),
    (TableSeat, "round__tournament__club"),
)


class BackupError(Exception):
    """A file that cannot be restored, or a restore that did not come out equal to it.
    The message says why, in English, for the operator."""


def restored_models() -> list[type[models.Model]]:
    """Every model the import writes, users first, in the order it writes them."""
    return [get_user_model(), *(model for model, _lookup in CLUB_TABLES)]


def label(model: type[models.Model]) -> str:
    return model._meta.label_lower


# -- export ---------------------------------------------------------------------------


def chunks(club: Club, *, with_passwords: bool = False) -> Iterator[str]:
    """The file, piece by piece: each table read in batches of plain values and written
    as it comes, so a club of ten years (some 600,000 rows) goes out without being held
    in memory, and its first bytes leave at once. The users come last: they are the ones
    the rows above refer to, gathered on the way."""
    User = get_user_model()
    head = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _plain(timezone.now()),
        "club": {"id": club.pk, "name": club.name},
    }
    yield json.dumps(head, ensure_ascii=False)[:-1] + ', "tables": {'
    users: set[int] = set()
    with _snapshot():
        for model, lookup in CLUB_TABLES:
            fields = model._meta.concrete_fields
            rows = (
                model._base_manager.filter(**{lookup: club.pk})
                .order_by("pk")
                .values_list(*[f.attname for f in fields])
            )
            at_users = [
                i for i, f in enumerate(fields) if f.is_relation and f.related_model is User
            ]
            yield json.dumps(label(model)) + ": ["
            batch, separator = [], ""
            for values in rows.iterator(chunk_size=BATCH_SIZE):
                users.update(values[i] for i in at_users)
                batch.append(_json_row(fields, values))
                if len(batch) == BATCH_SIZE:
                    yield separator + ",".join(batch)
                    batch, separator = [], ","
            yield (separator + ",".join(batch) if batch else "") + "], "
        users.discard(None)
        names = (*USER_FIELDS, "password") if with_passwords else USER_FIELDS
        user_fields = [User._meta.get_field(name) for name in names]
        people = (
            User._base_manager.filter(pk__in=users)
            .order_by("pk")
            .values_list(*[f.attname for f in user_fields])
        )
        rows_of_users = ",".join(_json_row(user_fields, values) for values in people)
    yield f"{json.dumps(label(User))}: [{rows_of_users}]}}}}"


def dumps(club: Club, *, with_passwords: bool = False) -> str:
    return "".join(chunks(club, with_passwords=with_passwords))


def attachment(club: Club) -> str:
    """The download's Content-Disposition: "schafkopffreunde-grosshadern-2026-03-12.json"."""
    day = timezone.localdate().isoformat()
    name = german_slug(club.name) or "verein"
    return content_disposition_header(True, f"{name}-{day}.json")


@contextmanager
def _snapshot() -> Iterator[None]:
    """Read every table from one snapshot: a game booked while the export runs is either
    wholly in the file or not at all. Inside a transaction already begun, its own
    isolation level decides."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def _json_row(fields: list[models.Field], values: tuple) -> str:
    return json.dumps(
        {field.attname: _plain(value) for field, value in zip(fields, values, strict=True)},
        ensure_ascii=False,
    )


def _plain(value: Any) -> Any:
    """A field's value as JSON can hold it without loss."""
    if isinstance(value, datetime):
        return value.isoformat(timespec="microseconds")
    if isinstance(value, date | time):
        return value.isoformat()
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


# -- import ---------------------------------------------------------------------------


def restore(data: dict[str, Any]) -> Club:
    """Insert the file's rows with their primary keys into an empty database, in one
    transaction, and check the result before it commits:

    1. every table the import writes must be empty;
    2. the rows go in table by table in dependency order (the database's triggers run:
       the ledger's zero-sum check, the evening totals, anything computed on insert);
    3. the sequences continue after the highest restored key;
    4. the deferred checks run now, not at commit, so a refusal becomes a BackupError;
    5. every value the file holds must be what the database stored: a column the
       database computes on insert (a digest, say) must come out as exported;
    6. everything must verify as verify_ledger checks it.

    Anything wrong raises BackupError and nothing is kept.
    """
    tables = _tables_of(data)
    try:
        with transaction.atomic():
            _require_empty()
            written = {
                model: _insert(model, tables.get(label(model), [])) for model in restored_models()
            }
            with connection.cursor() as cursor:
                for sql in connection.ops.sequence_reset_sql(no_style(), list(written)):
                    cursor.execute(sql)
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            for model in restored_models():
                _compare(model, tables.get(label(model), []), written[model])
            if finding := _first_finding([evening.pk for evening in written[Evening]]):
                raise BackupError(f"The restored ledger does not verify: {finding}")
    except DatabaseError as error:
        raise BackupError(f"The database refused the data: {error}") from error
    (club,) = written[Club]
    return club


def _tables_of(data: Any) -> dict[str, list[dict[str, Any]]]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(f'This is not a club export (no "format": "{FORMAT}").')
    if data.get("version") != VERSION:
        raise BackupError(
            f"The file has format version {data.get('version')!r}; this app reads {VERSION}."
        )
    tables = data.get("tables")
    if not isinstance(tables, dict):
        raise BackupError('The file has no "tables".')
    unknown = set(tables) - {label(model) for model in restored_models()}
    if unknown:
        raise BackupError(f"The file has tables this app does not know: {sorted(unknown)}.")
    if len(tables.get(label(Club), [])) != 1:
        raise BackupError("The file must hold exactly one club.")
    return tables


def _require_empty() -> None:
    """Restoring with the original keys needs a database without rows of its own."""
    held = {
        label(model): count
        for model in (*restored_models(), EveningTotal)
        if (count := model._base_manager.count())
    }
    if held:
        found = ", ".join(f"{count} {name}" for name, count in held.items())
        raise BackupError(
            f"import_club restores into an empty database only (after migrate), but this "
            f"one already holds rows: {found}. Create a new database and import there "
            "(on the embedded server, into a data directory not used yet: make restore "
            "file=club.json DATA=var/restored-2)."
        )


def _insert(model: type[models.Model], rows: list[dict[str, Any]]) -> list[models.Model]:
    fields = {field.attname: field for field in model._meta.concrete_fields}
    objs = [_instance(model, fields, row) for row in rows]
    if any(_stamped_on_save(field) for field in fields.values()):
        # bulk_create would stamp these fields with the present moment; a raw save keeps
        # the file's value, as loaddata does. Only the club's few own rows go this way.
        for obj in objs:
            obj.save_base(raw=True, force_insert=True)
    else:
        model._base_manager.bulk_create(objs, batch_size=BATCH_SIZE)
    return objs


def _stamped_on_save(field: models.Field) -> bool:
    return getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False)


def _instance(
    model: type[models.Model], fields: dict[str, models.Field], row: dict[str, Any]
) -> models.Model:
    unknown = row.keys() - fields.keys()
    if unknown:
        raise BackupError(
            f"{label(model)} {row.get('id')}: fields this database does not know: "
            f"{sorted(unknown)} (a file from a newer version of the app?)."
        )
    values = {name: fields[name].to_python(value) for name, value in row.items()}
    if model is get_user_model() and "password" not in values:
        values["password"] = make_password(None)
    return model(**values)


def _compare(
    model: type[models.Model], rows: list[dict[str, Any]], objs: list[models.Model]
) -> None:
    """Every value the file holds must be the one the database stored."""
    fields = model._meta.concrete_fields
    pk = model._meta.pk.attname
    stored = {
        values[pk]: values
        for values in model._base_manager.values(*[f.attname for f in fields]).order_by().iterator()
    }
    for row, obj in zip(rows, objs, strict=True):
        for field in fields:
            if field.attname not in row:
                continue
            wanted, has = field.value_from_object(obj), stored[obj.pk][field.attname]
            if wanted != has:
                raise BackupError(
                    f"{label(model)} {obj.pk}: {field.attname} is {wanted!r} in the file, "
                    f"but the database made it {has!r}."
                )


def _first_finding(evening_ids: list[int]) -> str | None:
    """The first thing verify_ledger would find: across evenings, the ledger's pointers
    and the changes' hash chain (the database holds only the restored club), then each
    evening's games, payments and totals."""
    across = verify_ledger.pointer_findings() + verify_ledger.chain_findings()
    if across:
        return across[0]
    evenings = Evening.objects.filter(pk__in=evening_ids).select_related("tariff")
    for evening in evenings.order_by("pk"):
        if difference := verify_ledger.first_difference(evening):
            return difference
    return None
