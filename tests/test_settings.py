"""Settings come from the environment; each case runs in a fresh interpreter."""

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import database_from_url

ROOT = Path(__file__).resolve().parent.parent
SHOW = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "db = s.DATABASES['default']; "
    "print(json.dumps({'debug': s.DEBUG, 'secret': s.SECRET_KEY, 'hosts': s.ALLOWED_HOSTS, "
    "'csrf': s.CSRF_TRUSTED_ORIGINS, 'mailer': s.MAILERS['default'], "
    "'from': s.DEFAULT_FROM_EMAIL, 'db_name': db['NAME'], "
    "'db_host': db['HOST'], 'db_user': db['USER'], 'db_port': db['PORT'], "
    "'lang': s.LANGUAGE_CODE, 'tz': s.TIME_ZONE, 'ssl_redirect': s.SECURE_SSL_REDIRECT}))"
)


def settings_with(**env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG"}}
    base |= {"DJANGO_SETTINGS_MODULE": "config.settings", "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", SHOW],
        env=base | env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def read(**env: str) -> dict[str, object]:
    result = settings_with(**env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_every_deployment_value_is_read_from_the_environment():
    values = read(
        SECRET_KEY="k" * 60,
        DEBUG="off",
        ALLOWED_HOSTS="schafkopf.example.org, www.schafkopf.example.org",
        CSRF_TRUSTED_ORIGINS="https://schafkopf.example.org",
        DATABASE_URL="postgresql://wirt:geheim@db.internal:5433/schafkopf",
        EMAIL_HOST="smtp.example.org",
        EMAIL_PORT="2525",
        EMAIL_HOST_USER="verein",
        EMAIL_HOST_PASSWORD="post",
        DEFAULT_FROM_EMAIL="verein@example.org",
        HTTPS="on",
    )

    assert values == {
        "debug": False,
        "secret": "k" * 60,
        "hosts": ["schafkopf.example.org", "www.schafkopf.example.org"],
        "csrf": ["https://schafkopf.example.org"],
        "mailer": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": "smtp.example.org",
                "port": 2525,
                "username": "verein",
                "password": "post",
                "use_tls": True,
                "timeout": 10,
            },
        },
        "from": "verein@example.org",
        "db_name": "schafkopf",
        "db_host": "db.internal",
        "db_user": "wirt",
        "db_port": "5433",
        "lang": "de",
        "tz": "Europe/Berlin",
        "ssl_redirect": True,
    }


def test_without_configuration_email_goes_to_the_console_and_debug_is_off():
    values = read(SECRET_KEY="k" * 60, DATABASE_URL="postgresql:///schafkopf")

    assert values["debug"] is False
    assert values["mailer"] == {"BACKEND": "django.core.mail.backends.console.EmailBackend"}
    assert values["hosts"] == ["localhost", "127.0.0.1", "[::1]"]
    assert values["ssl_redirect"] is False


def test_a_missing_secret_key_stops_the_app_unless_debug_is_on():
    refused = settings_with(DATABASE_URL="postgresql:///schafkopf")
    assert refused.returncode != 0
    assert "SECRET_KEY is not set" in refused.stderr

    assert read(DEBUG="1", DATABASE_URL="postgresql:///schafkopf")["debug"] is True


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"SECRET_KEY": "k" * 60}, "DATABASE_URL is not set"),
        ({"SECRET_KEY": "k" * 60, "DATABASE_URL": "sqlite:///db.sqlite3"}, "PostgreSQL only"),
        ({"SECRET_KEY": "k" * 60, "DATABASE_URL": "postgresql:///x", "DEBUG": "maybe"}, "DEBUG"),
        (
            {
                "SECRET_KEY": "k" * 60,
                "DATABASE_URL": "postgresql:///x",
                "EMAIL_HOST": "smtp.example.org",
                "EMAIL_PORT": "x",
            },
            "EMAIL_PORT must be a whole number",
        ),
    ],
)
def test_a_bad_setting_stops_the_app_with_a_clear_message(env, message):
    result = settings_with(**env)

    assert result.returncode != 0
    assert message in result.stderr


def test_a_unix_socket_url_as_pgserver_gives_it_becomes_the_host():
    db = database_from_url("postgresql://postgres:@/postgres?host=/tmp/pg-abc&sslmode=disable")

    assert (db["NAME"], db["USER"], db["HOST"], db["PORT"]) == (
        "postgres",
        "postgres",
        "/tmp/pg-abc",
        "",
    )
    assert db["OPTIONS"] == {"sslmode": "disable"}


def test_escaped_characters_in_the_password_are_unescaped():
    db = database_from_url("postgres://wirt:p%40ss%2Fword@localhost/schafkopf")

    assert db["PASSWORD"] == "p@ss/word"


def test_sqlite_is_refused():
    with pytest.raises(ImproperlyConfigured, match="PostgreSQL only"):
        database_from_url("sqlite:///db.sqlite3")


def test_a_warning_from_django_is_printed_once_also_under_debug(settings):
    """`make dev` printed Django's warnings twice: Django's console handler (DEBUG only)
    and the root's."""
    settings.DEBUG = True
    record = logging.LogRecord(
        "django.request", logging.WARNING, __file__, 1, "Not Found: /x", None, None
    )
    printing, logger = [], logging.getLogger("django.request")
    while logger is not logging.root and logger.propagate:
        printing += [h for h in logger.handlers if record.levelno >= h.level and h.filter(record)]
        logger = logger.parent
    # Nothing on the way prints it; the root's handler does (pytest adds its own there).
    assert printing == [] and logger is logging.root
