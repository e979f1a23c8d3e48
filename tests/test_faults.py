"""Faults at the table, proven against the real server: gunicorn with one sync worker on
PostgreSQL, booking over HTTP as a phone does.

1. A worker killed in the middle of a booking leaves the whole game or nothing. Killed
   inside the booking's transaction (waiting for the evening's lock, or halfway through
   writing the game), nothing of the game is stored and the same form, sent again, books
   it once. Killed right after the booking committed, the whole game is there and the
   same form books nothing twice.
2. PostgreSQL restarted during an evening: the next booking works at once. The worker
   keeps its connection between requests (CONN_MAX_AGE); the health check before its
   first use in a request (CONN_HEALTH_CHECKS) replaces the one the restart broke.

The test decides where the booking stops by holding a row lock the booking needs from its
own connection; it kills the worker once PostgreSQL shows the booking waiting for it.
"""

import contextlib
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote, urlencode, urlsplit

import pgserver
import psutil
import pytest
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Sum
from django.test import Client
from django.utils.crypto import get_random_string

from clubs.models import Player
from config import roles
from config.env import database_from_url
from evenings import services
from evenings.management.commands.verify_ledger import first_difference
from evenings.models import Change, Evening, Game, LedgerEntry

ROOT = Path(__file__).resolve().parents[1]
OWNER_KEYS = ("USER", "PASSWORD", "HOST", "PORT", "OPTIONS")
# Long enough for a slow shared machine, short enough that a hang fails the test quickly.
TIMEOUT = 20


def poll[T](check: Callable[[], T], failure: str, timeout: float = TIMEOUT) -> T:
    """check()'s first truthy answer, asked every few milliseconds."""
    deadline = time.monotonic() + timeout
    while not (answer := check()):
        if time.monotonic() > deadline:
            raise AssertionError(failure)
        time.sleep(0.002)
    return answer


# -- the server ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def app_env(database_url: str) -> dict[str, str]:
    """The environment of a server process: the test's own settings, on that database."""
    return os.environ | {
        "DATABASE_URL": database_url,
        "SECRET_KEY": settings.SECRET_KEY,
        "DEBUG": "off",
        "STATIC_MANIFEST": "off",
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "WARNING",
    }


class Gunicorn:
    """gunicorn serving the app with one sync worker on 127.0.0.1; its output in `log`."""

    def __init__(self, env: dict[str, str], log: Path):
        self.port = free_port()
        self.log = log
        executable = shutil.which("gunicorn", path=os.path.dirname(sys.executable)) or "gunicorn"
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                [
                    executable,
                    "config.wsgi",
                    f"--bind=127.0.0.1:{self.port}",
                    "--workers=1",
                    "--worker-class=sync",
                    "--graceful-timeout=2",
                ],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        try:
            poll(self._healthy, f"gunicorn did not come up:\n{self._log_tail()}")
        except BaseException:
            self.stop()
            raise

    def _healthy(self) -> bool:
        if self.process.poll() is not None:
            raise AssertionError(f"gunicorn exited:\n{self._log_tail()}")
        try:
            return self.request("GET", "/healthz")[0] == 200
        except OSError:
            return False

    def _log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]

    def worker(self) -> psutil.Process:
        """The one worker (the master respawns it when it dies)."""
        return poll(
            lambda: next(iter(psutil.Process(self.process.pid).children()), None),
            "gunicorn has no worker",
        )

    def request(
        self, method: str, path: str, body: str | None = None, headers: dict | None = None
    ) -> tuple[int, str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            return response.status, response.read().decode()
        finally:
            conn.close()

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            for worker in psutil.Process(self.process.pid).children():
                worker.kill()
            self.process.kill()
            self.process.wait()


class Phone:
    """A logged-in phone booking through the entry form (htmx, as the screen sends it)."""

    def __init__(self, server: Gunicorn, session_key: str):
        self.server = server
        self.session_key = session_key
        self.csrf = get_random_string(32)

    def book(self, evening_id: int, form: dict[str, str]) -> tuple[int, str]:
        return self.server.request(
            "POST",
            f"/abend/{evening_id}/buchen/",
            urlencode(form),
            {
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": f"{settings.SESSION_COOKIE_NAME}={self.session_key}; "
                f"{settings.CSRF_COOKIE_NAME}={self.csrf}",
                "X-CSRFToken": self.csrf,
                "HX-Request": "true",
            },
        )


def sauspiel(key: uuid.UUID, deal_token: str, declarer: int, partner: int) -> dict[str, str]:
    """The entry form of a won Sauspiel, as the phone posts it."""
    return {
        "key": str(key),
        "deal": deal_token,
        "spiel": "sauspiel",
        "declarer": str(declarer),
        "partner": str(partner),
        "won": "1",
        "kontra": "0",
        "doubled": "0",
        "laufende": "0",
        "laufende_wenz": "0",
    }


# -- a server on the test database -------------------------------------------------------------


def on_test_database(url: str) -> str:
    """The same server and role as `url`, on the test database."""
    test_database = quote(connection.settings_dict["NAME"])
    return urlsplit(url)._replace(path=f"/{test_database}").geturl()


@pytest.fixture(scope="module")
def server(django_db_setup, tmp_path_factory) -> Iterator[Gunicorn]:
    """gunicorn on the test database, for the whole module: transactional tests commit, so
    it sees what a test wrote."""
    env = app_env(on_test_database(settings.DATABASE_URL))
    if roles.owner_url():
        env["DATABASE_OWNER_URL"] = on_test_database(roles.owner_url())
    server = Gunicorn(env, tmp_path_factory.mktemp("gunicorn") / "log")
    yield server
    server.stop()


@pytest.fixture
def evening(runde, club, admin) -> Evening:
    """Four players at the table, so everybody plays every game; one game booked."""
    seated = [club.players.get()] + [
        Player.objects.create(club=club, name=name) for name in ("Sepp", "Vroni", "Hias")
    ]
    evening = services.start_evening(runde, seated, 0, admin)
    deal = services.next_deal(evening)
    services.book(
        evening.pk, uuid.uuid4(), services.GameInput(**next_game(deal)), admin, deal.token
    )
    evening.refresh_from_db()
    return evening


def next_game(deal: services.Deal) -> dict:
    return {"type": "sauspiel", "declarer": deal.playing[0].pk, "partner": deal.playing[1].pk}


def form_for(evening: Evening, key: uuid.UUID) -> dict[str, str]:
    deal = services.next_deal(evening)
    game = next_game(deal)
    return sauspiel(key, deal.token, game["declarer"], game["partner"])


@pytest.fixture
def phone(server, admin) -> Phone:
    client = Client()
    client.force_login(admin)
    return Phone(server, client.cookies[settings.SESSION_COOKIE_NAME].value)


@pytest.fixture
def in_background() -> Iterator[Callable[..., Future]]:
    """Run a request in a thread, so the test can act while the server works on it."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        yield pool.submit


@contextlib.contextmanager
def holding(sql: str, *params) -> Iterator[int]:
    """Hold the row locks `sql` takes, from a connection of the test's own; yields its
    backend's pid. The locks go when the block ends.

    It connects as the owner of the tables: the app's role may only read the evening
    totals (config/roles.py), and a lock for update is a write.
    """
    owner = database_from_url(roles.owner_url() or settings.DATABASE_URL)
    ours = connections[DEFAULT_DB_ALIAS]
    holder = type(ours)({**ours.settings_dict, **{key: owner[key] for key in OWNER_KEYS}})
    try:
        holder.set_autocommit(False)
        with holder.cursor() as cursor:
            cursor.execute(sql, params)
            assert cursor.fetchall(), "no row to lock"
            cursor.execute("SELECT pg_backend_pid()")
            (pid,) = cursor.fetchone()
        yield pid
    finally:
        holder.close()  # its transaction ends with it


def one(sql: str, *params):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return row[0] if row else None


def waiting_behind(holder: int) -> int:
    """The backend (pid) of the booking once it waits for a lock that `holder` holds."""
    return poll(
        lambda: one(
            "SELECT pid FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))", holder
        ),
        "the booking never waited for the lock the test holds",
    )


def kill(worker: psutil.Process) -> None:
    worker.kill()
    worker.wait(TIMEOUT)


def stored(evening: Evening) -> dict[str, int]:
    """What the database holds of the evening, in numbers."""
    evening.refresh_from_db()
    return {
        "games": evening.games.count(),
        "changes": Change.objects.filter(evening=evening).count(),
        "ledger entries": LedgerEntry.objects.filter(evening=evening).count(),
        "version": evening.version,
        "last number": evening.last_number,
    }


# The booking's one statement (one transaction) locks the evening's row first thing; it
# inserts the game and its change, then the ledger entries, whose trigger adds them to the
# players' evening totals: a lock on those rows stops the booking with its game written.
LOCK_POINTS = {
    "waiting for the evening": "SELECT 1 FROM evenings_evening WHERE id = %s FOR UPDATE",
    "with its game half written": (
        "SELECT 1 FROM evenings_eveningtotal WHERE evening_id = %s FOR UPDATE"
    ),
}


def one_game_more(before: dict[str, int]) -> dict[str, int]:
    """What the evening holds after `before` and one booked Sauspiel of four players."""
    return before | {
        "games": 2,
        "changes": before["changes"] + 1,
        "ledger entries": before["ledger entries"] + 4,
        "version": before["version"] + 1,
        "last number": 2,
    }


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lock", LOCK_POINTS.values(), ids=LOCK_POINTS.keys())
def test_a_worker_killed_inside_the_booking_leaves_the_whole_game_or_nothing_and_books_once(
    server, phone, evening, in_background, lock
):
    before = stored(evening)
    key = uuid.uuid4()
    form = form_for(evening, key)
    worker = server.worker()

    with holding(lock, evening.pk) as holder:
        answer = in_background(phone.book, evening.pk, form)
        booking = waiting_behind(holder)
        if "eveningtotal" in lock:
            # The game's row is inserted, not yet committed: the kill lands mid-write.
            assert one(
                "SELECT granted FROM pg_locks WHERE pid = %s AND mode = 'RowExclusiveLock'"
                " AND relation = 'evenings_game'::regclass",
                booking,
            )
        kill(worker)
    # The statement goes on once the lock is free, and commits as one transaction or not
    # at all: PostgreSQL notices the worker gone when it answers, and ends its session.
    poll(lambda: not one("SELECT 1 FROM pg_stat_activity WHERE pid = %s", booking), "it lives")

    with pytest.raises(ConnectionError):
        answer.result(TIMEOUT)
    written = Game.objects.filter(key=key).exists()
    assert stored(evening) == (one_game_more(before) if written else before)
    assert first_difference(evening) is None

    # The phone sends the form again; the respawned worker books it, once.
    status, body = phone.book(evening.pk, form)

    said = "Schon gebucht: Spiel 2, Sauspiel" if written else "Gebucht: Spiel 2, Sauspiel"
    assert status == 200 and said in body
    assert server.worker().pid != worker.pid
    assert Game.objects.filter(key=key).count() == 1
    assert stored(evening) == one_game_more(before)
    assert first_difference(evening) is None


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_right_after_the_booking_committed_leaves_the_whole_game(
    server, phone, evening, in_background
):
    before = stored(evening)
    key = uuid.uuid4()
    form = form_for(evening, key)
    worker = server.worker()

    answer = in_background(phone.book, evening.pk, form)
    # Killed the moment the game is committed: mostly before its answer has gone out.
    poll(Game.objects.filter(key=key).exists, "the booking was never committed")
    kill(worker)

    # The answer went out, or not, or was cut off on the way.
    with contextlib.suppress(ConnectionError, http.client.HTTPException):
        answer.result(TIMEOUT)
    game = Game.objects.get(key=key)
    assert game.number == 2
    assert Change.objects.filter(game=game, kind=Change.Kind.BOOK).count() == 1
    entries = LedgerEntry.objects.filter(game=game)
    assert entries.count() == 4
    assert entries.aggregate(total=Sum("amount"))["total"] == 0
    assert stored(evening) == one_game_more(before)
    assert first_difference(evening) is None

    # The phone whose answer was lost sends the form again: booked already, not twice.
    status, body = phone.book(evening.pk, form)

    assert status == 200 and "Schon gebucht: Spiel 2, Sauspiel" in body
    assert Game.objects.filter(key=key).count() == 1
    assert stored(evening) == one_game_more(before)


# -- PostgreSQL restarted --------------------------------------------------------------------

# Run with `manage.py shell -c` on the fresh server: migrate, then a club with an evening of
# four (everybody plays), a session for its admin, and the first two deals' tokens.
SETUP = """
import json
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from clubs import services as clubs
from clubs.models import Player
from evenings import services

call_command("migrate", verbosity=0)
admin = get_user_model().objects.create_user("resi", first_name="Resi")
club = clubs.create_club(admin, "Schafkopffreunde Au")
runde = clubs.create_runde(club, "Donnerstagsrunde", admin)
seated = [club.players.get()] + [
    Player.objects.create(club=club, name=name) for name in ("Sepp", "Vroni", "Hias")
]
evening = services.start_evening(runde, seated, 0, admin)
seats = list(evening.seats.select_related("player"))
client = Client()
client.force_login(admin)
print(json.dumps({
    "evening": evening.pk,
    "session": client.cookies[settings.SESSION_COOKIE_NAME].value,
    "deals": [services.deal_at(seats, dealer, dealer + 1).token for dealer in (0, 1)],
    "players": [p.pk for p in seated],
}))
"""


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def own_postgresql() -> Iterator[pgserver.PostgresServer]:
    """A PostgreSQL of this test's own, to restart; deleted afterwards."""
    pgdata = Path(tempfile.mkdtemp(prefix="schafkopf-faults-pg-"))
    server = pgserver.get_server(pgdata, cleanup_mode="delete")
    try:
        yield server
    finally:
        # pgserver stops only the postmaster it started; after a restart that is another.
        with contextlib.suppress(subprocess.CalledProcessError):
            pgserver.pg_ctl(
                ["-w", "-m", "immediate", "stop"], pgdata=pgdata, user=server.system_user
            )
        # The first postmaster may be gone, not yet reaped, as pgserver's cleanup signals
        # it: a race of the teardown, not of what the test proves.
        with contextlib.suppress(psutil.NoSuchProcess):
            server.cleanup()
        shutil.rmtree(pgdata, ignore_errors=True)


def test_after_postgresql_restarts_during_an_evening_the_next_booking_works_at_once(
    own_postgresql, tmp_path
):
    # One role for everything on this server (no DATABASE_OWNER_URL: config/roles.py), and
    # the connection kept between requests, which is what a restart breaks.
    env = app_env(own_postgresql.get_uri()) | {"CONN_MAX_AGE": "60"}
    env.pop("DATABASE_OWNER_URL", None)
    setup = manage(env, "shell", "-c", SETUP)
    assert setup.returncode == 0, setup.stderr
    cast = json.loads(setup.stdout.splitlines()[-1])
    _, sepp, vroni, hias = cast["players"]
    server = Gunicorn(env, tmp_path / "gunicorn.log")
    try:
        phone = Phone(server, cast["session"])
        first = sauspiel(uuid.uuid4(), cast["deals"][0], sepp, vroni)
        status, body = phone.book(cast["evening"], first)
        assert status == 200 and "Gebucht: Spiel 1, Sauspiel" in body
        worker = server.worker()

        pgserver.pg_ctl(
            ["-w", "-m", "fast", "restart"],
            pgdata=own_postgresql.pgdata,
            user=own_postgresql.system_user,
            timeout=TIMEOUT,
        )
        # The first request after the restart, on the worker that kept its connection.
        status, body = phone.book(
            cast["evening"], sauspiel(uuid.uuid4(), cast["deals"][1], vroni, hias)
        )

        assert status == 200 and "Gebucht: Spiel 2, Sauspiel" in body, body[-2000:]
        assert server.worker().pid == worker.pid
    finally:
        server.stop()
    verify = manage(env, "verify_ledger")
    assert verify.returncode == 0, verify.stderr
    assert "ledger ok: 1 evenings, 2 games" in verify.stdout
