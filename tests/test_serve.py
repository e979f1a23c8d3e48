"""`make run`, `make dev` and `make password`: what the commands do before the server starts
and what they print. The server itself is never started here (os.execv is replaced)."""

import io
import os
import sys

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from clubs.models import Club, LoginFailure
from evenings.models import Game
from tests.conftest import make_user


class Served(Exception):
    """Raised instead of replacing the test process with the server."""


@pytest.fixture
def execv(monkeypatch, transactional_db):
    """The command line the serve command would have replaced itself with. (Serving
    migrates as the owner of the tables, on a connection of its own: the test's data
    must be committed for it.)"""
    started: list[list[str]] = []

    def record(path, argv):
        started.append(list(argv))
        raise Served

    monkeypatch.setattr(os, "execv", record)
    return started


def serve(*args: str) -> str:
    out = io.StringIO()
    with pytest.raises(Served):
        call_command("serve", "--port=9000", *args, stdout=out)
    return out.getvalue()


def test_the_first_start_creates_the_demo_and_serves_with_gunicorn(db, execv):
    out = serve()

    assert (
        'Demo created. Log in with this password, then change it under "Profil" (your '
        "name at the top of every page):"
    ) in out
    assert "  http://127.0.0.1:9000/konto/login/\n" in out
    password = out.split("password: ")[1].split()[0]
    assert get_user_model().objects.get(username="admin").check_password(password)
    assert Club.objects.count() == 1
    # Every demo game is one the entry form makes: no Laufende below the threshold
    # (walk 75: "Wenz Sepp · 2 Laufende" beside chips "keine, 3, 4").
    tariff = Club.objects.get().runden.get().tariffs.latest()
    for game in Game.objects.filter(laufende__gt=0):
        least = tariff.laufende_min_wenz if game.type == "wenz" else tariff.laufende_min
        assert game.laufende >= least, game
    (command,) = execv
    assert command[0].endswith("gunicorn")
    assert command[1:3] == ["config.wsgi", "--bind=127.0.0.1:9000"]


def test_a_second_start_says_where_and_as_whom_to_log_in_and_how_to_get_back_in(db, execv):
    serve()

    out = serve()

    assert "password:" not in out
    assert "Log in at http://127.0.0.1:9000/konto/login/ as admin." in out
    assert "`make password`" in out
    assert Club.objects.count() == 1


def test_without_the_demo_admin_the_start_names_the_clubs_admins(admin, club, execv):
    out = serve("--host=0.0.0.0")

    assert "Log in at http://127.0.0.1:9000/konto/login/ as resi." in out


def test_dev_mode_runs_the_autoreloading_development_server(admin, execv):
    serve("--dev")

    (command,) = execv
    assert command[0] == sys.executable
    assert command[1].endswith("manage.py")
    assert command[2:] == ["runserver", "127.0.0.1:9000"]


def test_with_the_manifest_the_static_files_are_collected_before_serving(
    admin, execv, settings, tmp_path
):
    settings.STATIC_MANIFEST = True
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }

    serve()

    assert (tmp_path / "staticfiles.json").exists()
    assert list(tmp_path.glob("css/app.*.css.gz"))


def test_a_new_password_for_admin_works_once_printed_and_unlocks_the_account(db, capsys):
    make_user("admin", "Resi", password="vergessen-und-verloren")
    LoginFailure.objects.create(username="admin", address="203.0.113.7")

    call_command("new_password")

    out = capsys.readouterr().out
    assert (
        'New password set. Log in with it, then change it under "Profil" (your name at '
        "the top of every page):"
    ) in out
    password = out.split("password: ")[1].split()[0]
    assert get_user_model().objects.get(username="admin").check_password(password)
    assert not LoginFailure.objects.exists()


def test_a_new_password_for_another_account_by_any_spelling_of_its_name(admin, capsys):
    call_command("new_password", "RESI", port="8277")  # make password PORT=8277

    out = capsys.readouterr().out
    # The link names the port it was given, and says it is only that (walk 43: a restore
    # served on 8277 was sent to 8000).
    assert "  http://127.0.0.1:8277/konto/login/  (served on another port: that port)\n" in out
    password = out.split("password: ")[1].split()[0]
    admin.refresh_from_db()
    assert admin.check_password(password)


def test_a_new_password_for_an_unknown_account_names_the_ones_there_are(admin, club):
    with pytest.raises(CommandError, match=r"There is no account 'admin'\. Accounts: resi\."):
        call_command("new_password")


def test_a_worker_compiles_every_template_and_freezes_it_before_its_first_request():
    """config.wsgi, as gunicorn loads it in each worker: the project's templates compiled
    and kept, and what the worker holds frozen out of the garbage collector's sight."""
    import subprocess
    from pathlib import Path

    templates = Path(__file__).parents[1] / "templates"
    script = (
        "import gc, config.wsgi\n"
        "from django.template import engines\n"
        "(loader,) = engines['django'].engine.template_loaders\n"
        "print(gc.get_freeze_count(), len(loader.get_template_cache))\n"
    )
    env = os.environ | {"DEBUG": "off", "STATIC_MANIFEST": "off"}

    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    ).stdout

    frozen, compiled = map(int, out.split())
    assert compiled == len(list(templates.rglob("*.html")))
    assert frozen > 50_000  # Django, the app, the templates
