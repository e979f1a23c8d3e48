"""The session engine (settings.SESSION_ENGINE): Django's database sessions, read together
with the logged-in user in one query.

Every page a member opens read the session row and then, in a second query, the user. The
session row here carries its user's id (clubs.models.Session), so loading a session joins
the user's row as well and keeps it on the store as `loaded_user`. Whether that user may
be the request's user is clubs.middleware's decision, never this module's.

Loading behaves as Django's database store does: a missing or expired session is an empty
one and loses its key; data that does not decode is an empty session, logged by decode()
as a suspicious session.
"""

import functools

from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.sessions.backends import db
from django.core.exceptions import ValidationError
from django.db import connection
from django.utils import timezone

from evenings.reads import Prepared, from_row


@functools.cache
def _load_sql() -> tuple[Prepared, int]:
    """The query that loads a session with its user's columns, and where the user's
    primary key is among those columns (NULL when no user joined)."""
    from clubs.models import Session

    user_model = get_user_model()
    quote = connection.ops.quote_name
    fields = user_model._meta.concrete_fields
    columns = ", ".join(f"u.{quote(field.column)}" for field in fields)
    sql = Prepared(
        "session_load",
        f"SELECT s.session_data, {columns} FROM {quote(Session._meta.db_table)} s "
        f"LEFT JOIN {quote(user_model._meta.db_table)} u "
        f"ON u.{quote(user_model._meta.pk.column)} = s.user_id "
        "WHERE s.session_key = %s AND s.expire_date > %s",
    )
    return sql, fields.index(user_model._meta.pk)


def user_id_of(data: dict) -> object:
    """The primary key of the user the session data is logged in as, or None (also for
    a value that is no primary key, which Django's get_user would refuse as well)."""
    value = data.get(SESSION_KEY)
    if value is None:
        return None
    try:
        return get_user_model()._meta.pk.to_python(value)
    except ValidationError:
        return None


class SessionStore(db.SessionStore):
    # The user whose row the last load() joined to the session row; None when there was
    # no row, or no user to join.
    loaded_user: AbstractBaseUser | None = None

    @classmethod
    def get_model_class(cls):
        from clubs.models import Session

        return Session

    def create_model_instance(self, data: dict):
        session = super().create_model_instance(data)
        session.user_id = user_id_of(data)
        return session

    async def acreate_model_instance(self, data: dict):
        session = await super().acreate_model_instance(data)
        session.user_id = user_id_of(data)
        return session

    def load(self) -> dict:
        # Django's load() reads the row with Session.objects.get(); the ORM's
        # SuspiciousOperation handling there has nothing to catch in a written-out query.
        self.loaded_user = None
        sql, pk_at = _load_sql()
        with connection.cursor() as cursor:
            cursor.execute(sql.sql(), [self.session_key, timezone.now()])
            row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return {}
        session_data, *user_columns = row
        if user_columns[pk_at] is not None:
            (self.loaded_user,) = from_row((get_user_model(),), tuple(user_columns))
        return self.decode(session_data)
