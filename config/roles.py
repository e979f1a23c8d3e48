"""The two database roles: the owner of the tables, and the app, which is neither.

The app connects as DATABASE_URL's role. It may read and write what a club's work needs,
but on the ledger and the audit trail (evenings_ledgerentry, evenings_change) only read
and append, and the evening totals, kept by a trigger, only read. It owns nothing, so it
cannot drop or disable a trigger, and it is no superuser, so it cannot switch triggers
off for its session either.

Migrations run as the owner, DATABASE_OWNER_URL's role: `manage.py migrate` switches to
it by itself (evenings/management/commands/migrate.py) and grants the app its privileges
afterwards (grant_app_privileges, on post_migrate). Without DATABASE_OWNER_URL there is one
role for everything, as before.

The embedded server (config/localdb.py) sets both URLs up; for an external server the
README gives the SQL that creates the roles.
"""

import contextlib
import os
from collections.abc import Iterator

from django.db import connections, transaction

from config.env import database_from_url

# What the app may do beyond SELECT on the tables that keep the money's history. Every
# other table of the schema gets SELECT, INSERT, UPDATE, DELETE.
APPEND_ONLY = ("evenings_ledgerentry", "evenings_change")
READ_ONLY = ("evenings_eveningtotal", "django_migrations")

_CONNECTION_KEYS = ("USER", "PASSWORD", "HOST", "PORT", "OPTIONS")


def owner_url() -> str:
    return os.environ.get("DATABASE_OWNER_URL", "")


def separate_roles() -> bool:
    """Whether the owner and the app are different roles (else there is nothing to do)."""
    owner, app = owner_url(), os.environ.get("DATABASE_URL", "")
    return bool(owner) and database_from_url(owner)["USER"] != database_from_url(app)["USER"]


def connect_as(url: str, alias: str = "default") -> None:
    """Make the connection `alias` use url's role from its next query on (same database)."""
    connection = connections[alias]
    connection.close()
    wanted = database_from_url(url)
    for key in _CONNECTION_KEYS:
        connection.settings_dict[key] = wanted[key]


@contextlib.contextmanager
def as_owner(alias: str = "default") -> Iterator[None]:
    """Run the block as the owner of the tables, then go back to the app's role."""
    if not separate_roles():
        yield
        return
    connect_as(owner_url(), alias)
    try:
        yield
    finally:
        connect_as(os.environ["DATABASE_URL"], alias)


def grant_app_privileges(using: str = "default", **kwargs) -> None:
    """Give the app's role exactly its privileges on every table there is now.

    Run as the owner after every migration (post_migrate), so new tables are covered;
    re-running it changes nothing.
    """
    if not separate_roles():
        return
    app = database_from_url(os.environ["DATABASE_URL"])["USER"]
    connection = connections[using]
    quote = connection.ops.quote_name
    role = quote(app)
    # In one transaction: the app never meets its privileges half revoked.
    with transaction.atomic(using=using), connection.cursor() as cursor:
        cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        tables = {name for (name,) in cursor.fetchall()}
        everything = ", ".join(quote(t) for t in sorted(tables))
        cursor.execute(f"REVOKE ALL ON {everything} FROM {role}")
        for table in sorted(tables):
            if table in APPEND_ONLY:
                privileges = "SELECT, INSERT"
            elif table in READ_ONLY:
                privileges = "SELECT"
            else:
                privileges = "SELECT, INSERT, UPDATE, DELETE"
            cursor.execute(f"GRANT {privileges} ON {quote(table)} TO {role}")
        cursor.execute("SELECT current_schema()")
        (schema,) = cursor.fetchone()
        cursor.execute(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {quote(schema)} TO {role}")
