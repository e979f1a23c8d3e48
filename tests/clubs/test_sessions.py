"""Sessions that load their user in the same query (clubs/sessions.py, clubs/middleware.py),
and the migration that moves the sessions over (clubs migration 0005)."""

import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.conf import settings as django_settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth import get_user as django_get_user
from django.contrib.sessions.models import Session as DjangoSession
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clubs import sessions
from clubs.middleware import _user_loaded_with_session, get_user
from clubs.models import Session
from clubs.sessions import SessionStore
from tests.conftest import make_user

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
copy_sessions = importlib.import_module("clubs.migrations.0005_session").copy_sessions


def session_key(client) -> str:
    return client.cookies[django_settings.SESSION_COOKIE_NAME].value


def write_session(key: str, data: dict, user_id=None, expires_in=timedelta(days=1)) -> None:
    """A session row as it might be found in the table, column and data set separately."""
    Session.objects.create(
        session_key=key,
        session_data=SessionStore().encode(data),
        expire_date=timezone.now() + expires_in,
        user_id=user_id,
    )


def logged_in_data(user, hash_of=None) -> dict:
    return {
        SESSION_KEY: str(user.pk),
        BACKEND_SESSION_KEY: MODEL_BACKEND,
        HASH_SESSION_KEY: (hash_of or user).get_session_auth_hash(),
    }


def request_with(key: str):
    request = RequestFactory().get("/")
    request.session = SessionStore(key)
    return request


def fast_user(key: str):
    """The user the middleware takes from the session's own query, or None when it leaves
    the session to Django's get_user."""
    return _user_loaded_with_session(request_with(key))


def users_of(key: str):
    """What the middleware makes of the session `key`, and what Django's own get_user
    makes of it, each on a fresh request (both may flush the session)."""
    return get_user(request_with(key)), django_get_user(request_with(key))


def start_page_as_cookie(client, key: str):
    client.cookies[django_settings.SESSION_COOKIE_NAME] = key
    return client.get(reverse("start"))


def is_login_redirect(response) -> bool:
    return response.status_code == 302 and response.url.startswith(reverse("login"))


# One query


def test_a_logged_in_page_reads_the_session_and_its_user_in_one_query(client, admin, club):
    client.force_login(admin)

    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("start"))

    assert response.status_code == 200
    assert response.wsgi_request.user == admin
    sqls = [query["sql"] for query in queries.captured_queries]
    # The session's statement is prepared on the connection (evenings.reads.Prepared).
    session_reads = [sql for sql in sqls if "session_load" in sql]
    assert len(session_reads) == 1
    statement = sessions._load_sql()[0].prepare
    assert '"clubs_session"' in statement and '"auth_user"' in statement
    assert not [sql for sql in sqls if "auth_user" in sql or "clubs_session" in sql]


def test_the_user_comes_from_the_session_query_alone(admin):
    key = "k" * 32
    write_session(key, logged_in_data(admin), user_id=admin.pk)

    with CaptureQueriesContext(connection) as queries:
        user = fast_user(key)

    assert user == admin
    assert len(queries.captured_queries) == 1


# Writing the user beside the session


def test_logging_in_stores_the_user_beside_the_session(client, user, password):
    response = client.post(reverse("login"), {"username": "sepp", "password": password})

    assert response.status_code == 302
    assert Session.objects.get(pk=session_key(client)).user_id == user.pk


def test_an_anonymous_session_has_no_user(client, db):
    store = SessionStore()
    store["fresh"] = True
    store.save()

    assert Session.objects.get(pk=store.session_key).user_id is None


def test_logging_out_deletes_the_session_and_its_cookie_logs_in_no_more(client, user):
    client.force_login(user)
    key = session_key(client)

    client.post(reverse("logout"))

    assert not Session.objects.filter(pk=key).exists()
    assert is_login_redirect(start_page_as_cookie(client, key))


def test_deleting_a_user_deletes_their_sessions(client, user, admin):
    client.force_login(user)
    key = session_key(client)
    client.force_login(admin)

    user.delete()

    assert not Session.objects.filter(pk=key).exists()
    assert Session.objects.filter(pk=session_key(client)).exists()


# Refused as Django refuses


def test_a_password_changed_elsewhere_logs_the_old_session_out(client, user):
    client.force_login(user)
    key = session_key(client)
    user.set_password("Wenz-mit-Dreien-2025")
    user.save()

    assert fast_user(key) is None
    response = start_page_as_cookie(client, key)

    assert is_login_redirect(response)
    assert not Session.objects.filter(pk=key).exists()  # flushed by Django's get_user


def test_an_inactive_user_is_anonymous(client, user):
    client.force_login(user)
    key = session_key(client)
    user.is_active = False
    user.save()

    assert fast_user(key) is None
    assert is_login_redirect(start_page_as_cookie(client, key))


def test_a_session_whose_column_names_another_user_yields_the_user_of_its_data(admin, user):
    key = "t" * 32
    write_session(key, logged_in_data(user), user_id=admin.pk)

    assert fast_user(key) is None
    ours, django = users_of(key)
    assert ours == django == user


def test_a_session_whose_column_names_the_user_of_its_hash_is_anonymous(admin, user):
    # The data says Sepp with Resi's hash; the column says Resi, whose hash it is.
    key = "h" * 32
    write_session(key, logged_in_data(user, hash_of=admin), user_id=admin.pk)

    assert fast_user(key) is None
    assert get_user(request_with(key)).is_anonymous


def test_a_session_without_a_hash_is_anonymous(user):
    key = "n" * 32
    write_session(key, {**logged_in_data(user), HASH_SESSION_KEY: ""}, user_id=user.pk)

    assert fast_user(key) is None
    assert get_user(request_with(key)).is_anonymous


def test_a_session_of_an_unknown_backend_is_anonymous(user):
    key = "b" * 32
    data = {**logged_in_data(user), BACKEND_SESSION_KEY: "clubs.backends.Nope"}
    write_session(key, data, user_id=user.pk)

    assert fast_user(key) is None
    ours, django = users_of(key)
    assert ours.is_anonymous and django.is_anonymous


def test_an_expired_session_is_anonymous(client, user):
    client.force_login(user)
    key = session_key(client)
    Session.objects.filter(pk=key).update(expire_date=timezone.now() - timedelta(seconds=1))

    assert fast_user(key) is None
    assert is_login_redirect(start_page_as_cookie(client, key))


def test_a_session_whose_data_does_not_decode_is_empty_and_keeps_no_user(user):
    key = "c" * 32
    Session.objects.create(
        session_key=key,
        session_data="not signed",
        expire_date=timezone.now() + timedelta(days=1),
        user_id=user.pk,
    )
    store = SessionStore(key)

    assert store.load() == {}
    assert store.session_key == key  # as Django's store: the key stays, the data is empty
    assert fast_user(key) is None


def test_a_missing_session_loses_its_key(db):
    store = SessionStore("m" * 32)

    assert store.load() == {}
    assert store.session_key is None
    assert store.loaded_user is None


def test_a_session_signed_with_a_fallback_secret_is_renewed_by_django(client, user, settings):
    settings.SECRET_KEY = "the-old-secret-" * 4
    client.force_login(user)
    key = session_key(client)
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = (
        "the-new-secret-" * 4,
        [settings.SECRET_KEY],
    )

    response = client.get(reverse("start"))

    assert response.status_code == 200
    assert response.wsgi_request.user == user
    assert session_key(client) != key
    assert Session.objects.get(pk=session_key(client)).user_id == user.pk


# The migration


def test_the_migration_copies_the_unexpired_sessions_with_their_users(admin, user):
    def old_row(key: str, data, expires_in=timedelta(days=1)) -> None:
        encoded = SessionStore().encode(data) if isinstance(data, dict) else data
        DjangoSession.objects.create(
            session_key=key, session_data=encoded, expire_date=timezone.now() + expires_in
        )

    gone = make_user("gone", "Gone")
    old_row("a" * 32, logged_in_data(admin))
    old_row("s" * 32, logged_in_data(user))
    old_row("y" * 32, {"language": "de"})
    old_row("e" * 32, logged_in_data(admin), expires_in=timedelta(seconds=-1))
    old_row("g" * 32, logged_in_data(gone))
    old_row("x" * 32, "not signed")
    gone.delete()

    copy_sessions(apps, None)

    copied = dict(Session.objects.values_list("session_key", "user_id"))
    assert copied == {"a" * 32: admin.pk, "s" * 32: user.pk, "y" * 32: None}
    assert fast_user("a" * 32) == admin
    assert Session.objects.get(pk="a" * 32).session_data == (
        DjangoSession.objects.get(pk="a" * 32).session_data
    )


@pytest.mark.parametrize("privilege", ["SELECT", "INSERT", "UPDATE", "DELETE"])
def test_the_app_may_read_and_write_the_sessions(db, privilege):
    with connection.cursor() as cursor:
        cursor.execute("SELECT has_table_privilege('clubs_session', %s)", [privilege])
        assert cursor.fetchone() == (True,)
