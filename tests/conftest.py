"""The fixed cast shared by every test module: a club ("Schafkopffreunde Au") whose admin
is Resi, with the Runde "Donnerstagsrunde" and Hias as its Schreiber; Sepp is a user of
no club. Modules add the people and evenings they need."""

import os

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

from clubs import services
from clubs.models import Membership
from config import roles

PASSWORD = "Geheim-123-Schafkopf"


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """The owner of the tables makes the test database and migrates it; from then on the
    tests run as the app's role, as the app does (config/roles.py)."""
    roles.connect_as(roles.owner_url() or os.environ["DATABASE_URL"])


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    yield
    # The owner drops the test database at the end.
    roles.connect_as(roles.owner_url() or os.environ["DATABASE_URL"])


@pytest.fixture(scope="session", autouse=True)
def flush_as_owner():
    """Transactional tests empty the database afterwards with TRUNCATE, which the evening
    tables refuse (migration 0009): the owner switches that guard off for the flush."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    def execute_sql_flush(self, sql_list):
        alias = self.connection.alias
        with (
            roles.as_owner(alias),
            transaction.atomic(using=alias),
            self.connection.cursor() as cursor,
        ):
            cursor.execute(
                "SELECT tgrelid::regclass::text FROM pg_trigger "
                "WHERE tgname = 'evenings_no_truncate'"
            )
            guarded = [table for (table,) in cursor.fetchall()]
            for table in guarded:
                cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER evenings_no_truncate")
            for sql in sql_list:
                cursor.execute(sql)
            for table in guarded:
                cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER evenings_no_truncate")

    original = DatabaseOperations.execute_sql_flush
    DatabaseOperations.execute_sql_flush = execute_sql_flush
    yield
    DatabaseOperations.execute_sql_flush = original


@pytest.fixture(autouse=True)
def empty_cache():
    """Nothing one test computed and cached (the Runde statistics) is seen by the next."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    """Hashing a password the production way costs ~0.3 s; tests make many users."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_user(username: str, first_name: str, password: str = PASSWORD):
    return get_user_model().objects.create_user(
        username=username, password=password, first_name=first_name
    )


@pytest.fixture
def password() -> str:
    return "Sauspiel-mit-der-Alten-42"


@pytest.fixture
def user(db, password):
    """Sepp, who has an account but no club."""
    return get_user_model().objects.create_user(
        username="sepp", password=password, first_name="Sepp", email="sepp@example.org"
    )


@pytest.fixture
def admin(db):
    return make_user("resi", "Resi")


@pytest.fixture
def club(admin):
    return services.create_club(admin, "Schafkopffreunde Au")


@pytest.fixture
def runde(club, admin):
    return services.create_runde(club, "Donnerstagsrunde", admin)


@pytest.fixture
def scorekeeper(club):
    user = make_user("hias", "Hias")
    Membership.objects.create(user=user, club=club, role=Membership.Role.SCOREKEEPER)
    return user


def page_text(response) -> str:
    """A page's HTML without the <bdi> that isolates a name beside an amount (the `bdi`
    filter), so that a test reads "Hias zahlt Vroni 0,80 €" as a person does."""
    return response.content.decode().replace("<bdi>", "").replace("</bdi>", "")
