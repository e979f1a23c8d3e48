"""The web app measured as the table uses it, in one table: load, bytes, scale.

    make bench      (or: python -m config.localdb --throwaway -- python bench/web_bench.py)

A plain script, not a test; the figures go into the README.

1. Load: gunicorn with the production settings (2 workers, DEBUG off, hashed and
   compressed static files) on the embedded PostgreSQL, driven by wrk (Debian's `wrk`,
   an HTTP load tool in C): 4 clients at once, each a phone with its own session, for
   `/healthz` (the floor: one query), the sheet poll when nothing changed, the evening
   page of 60 games, a tap's preview, booking into 4 evenings of 60 games and more (one
   per phone), and 4 phones booking into one evening. p50 and p95 in milliseconds, and
   p95 as a multiple of the floor's p95, all measured in the same run.
2. Bytes on the wire (Brotli, as a phone asks): the evening page of 60 games, the cold entry
   screen with everything it loads, a booking's answer, a poll after a booking elsewhere,
   a correction's answer.
3. Scale: a club with ten years of history (30 players, 5 Runden, 100,000 games), made by
   bulk inserts of ledger rows that the engine computed and then proved by verify_ledger;
   server time (median) and the number of queries of its pages, beside the same pages of
   a club with one evening, and verify_ledger's time over all of it.
"""

import argparse
import gzip
import http.client
import io
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SECRET_KEY = "benchmark-only-" + "x" * 40
os.environ.update(
    DJANGO_SETTINGS_MODULE="config.settings",
    SECRET_KEY=SECRET_KEY,
    DEBUG="off",
    STATIC_MANIFEST="on",
    ALLOWED_HOSTS="127.0.0.1,localhost,testserver",
    LOG_LEVEL="WARNING",
)

import brotli  # noqa: E402
import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.middleware.csrf import _get_new_csrf_string  # noqa: E402
from django.test import Client  # noqa: E402

from bench.history import game_for, make_history  # noqa: E402
from clubs import services as clubs  # noqa: E402
from clubs.models import Player, Tariff  # noqa: E402
from clubs.sessions import SessionStore  # noqa: E402
from evenings import services  # noqa: E402
from evenings.models import Evening, Game  # noqa: E402

WRK_DIR = Path(__file__).parent / "wrk"
GAMES = 60
PHONES = 4


# -- the cast ----------------------------------------------------------------------------


def bench_runde(name: str, club_name: str):
    """A club with a Runde that plays Bock after every Ramsch, and Jungfrau."""
    admin = get_user_model().objects.create_user(f"admin-{uuid.uuid4().hex[:8]}", password="x")
    club = clubs.create_club(admin, club_name)
    runde = clubs.create_runde(club, name, admin)
    tariff = runde.tariffs.latest()
    tariff.bock, tariff.jungfrau = Tariff.Bock.RAMSCH, True
    clubs.change_tariff(runde, tariff, admin)
    return admin, club, runde


def play(evening: Evening, games: int, by) -> None:
    for number in range(1, games + 1):
        deal = services.next_deal(evening)
        services.book(evening.pk, uuid.uuid4(), game_for(deal, number), by, deal.token)


def session_for(user) -> tuple[str, str]:
    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.save()
    return session.session_key, _get_new_csrf_string()


def client_for(user, evening: Evening) -> dict:
    session, csrf = session_for(user)
    deal = services.next_deal(evening)
    evening.refresh_from_db()
    return {
        "session": session,
        "csrf": csrf,
        "evening": evening.pk,
        "version": evening.version,
        "deal": deal.token,
        "players": [str(p.pk) for p in deal.seated],
    }


# -- gunicorn and wrk --------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(port: int) -> subprocess.Popen:
    gunicorn = shutil.which("gunicorn", path=os.path.dirname(sys.executable)) or "gunicorn"
    server = subprocess.Popen(
        [gunicorn, "config.wsgi", f"--bind=127.0.0.1:{port}", "--workers=2", "--log-level=warning"],
        cwd=ROOT,
        env=os.environ,
    )
    for _ in range(100):
        try:
            if get(port, "/healthz")[0] == 200:
                return server
        except OSError:
            time.sleep(0.1)
    server.terminate()
    raise SystemExit("gunicorn did not come up")


def lua_table(value) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {lua_table(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "{" + ", ".join(lua_table(v) for v in value) + "}"
    if isinstance(value, int):
        return str(value)
    return json.dumps(str(value))


SCENARIOS = {
    "floor": 'function request() return wrk.format("GET", "/healthz") end',
    "poll": 'function request() return wrk.format("GET", "/abend/" .. client.evening'
    ' .. "/blatt/?v=" .. client.version, headers) end',
    "page": 'function request() return wrk.format("GET", "/abend/" .. client.evening'
    ' .. "/", headers) end',
    "book": "BOOKING = true\nrequest = booking\nresponse = follow",
    "preview": "request = previewing",
}


def wrk(port: int, scenario: str, clients: list[dict], seconds: int) -> dict:
    script = (
        f"CLIENTS = {lua_table(clients)}\n"
        + (WRK_DIR / "clients.lua").read_text()
        + SCENARIOS[scenario]
        + "\n"
    )
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(script)
    try:
        out = subprocess.run(
            [
                "wrk",
                f"-t{PHONES}",
                f"-c{PHONES}",
                f"-d{seconds}s",
                "-s",
                f.name,
                f"http://127.0.0.1:{port}",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    finally:
        os.unlink(f.name)
    result = json.loads(out.strip().splitlines()[-1])
    if result["errors"]:
        raise SystemExit(f"{scenario}: {result['errors']} failed requests\n{out}")
    return result


# -- bytes on the wire -------------------------------------------------------------------


def get(port: int, path: str, client: dict | None = None, method="GET", body=None):
    """(status, bytes as sent, bytes unpacked, headers) of one request, gzip and Brotli
    accepted as a phone's browser does."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Accept-Encoding": "gzip, br"}
    if client:
        headers["Cookie"] = f"sessionid={client['session']}; csrftoken={client['csrf']}"
        headers["X-CSRFToken"] = client["csrf"]
        headers["HX-Request"] = "true"
    if body is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    raw = response.read()
    conn.close()
    encoding = response.getheader("Content-Encoding")
    plain = (
        gzip.decompress(raw)
        if encoding == "gzip"
        else brotli.decompress(raw)
        if encoding == "br"
        else raw
    )
    return response.status, len(raw), plain, response


def wire(port: int, client: dict, evening: Evening, admin) -> list[tuple[str, str]]:
    from urllib.parse import urlencode

    rows = []
    status, sent, page, _ = get(port, f"/abend/{evening.pk}/", client)
    assert status == 200
    rows.append(("evening page, 60 games", kb(sent, len(page))))
    # Everything a phone loads for a cold entry screen: the page and its static files.
    total, unpacked = sent, len(page)
    html = page.decode()
    for marker in ('src="/static/', 'href="/static/'):
        for part in html.split(marker)[1:]:
            path = "/static/" + part.split('"', 1)[0]
            status, size, plain, response = get(port, path)
            assert status == 200, path
            assert "max-age=315360000" in (response.getheader("Cache-Control") or ""), path
            total, unpacked = total + size, unpacked + len(plain)
    rows.append(("cold entry screen in all (page, CSS, JS, icon)", kb(total, unpacked)))

    deal = services.next_deal(evening)
    data = game_for(deal, 1)
    form = {
        "key": str(uuid.uuid4()),
        "deal": deal.token,
        "spiel": "sauspiel",
        "won": "1",
        "kontra": "0",
        "doubled": "0",
        "laufende": "0",
        "declarer": data.declarer,
        "partner": data.partner,
    }
    status, sent, plain, _ = get(
        port, f"/abend/{evening.pk}/buchen/", client, "POST", urlencode(form)
    )
    assert status == 200 and b"Gebucht" in plain
    rows.append(("a booking's answer (5 at the table)", kb(sent, len(plain))))
    version = client["version"]
    evening.refresh_from_db()
    status, sent, plain, _ = get(port, f"/abend/{evening.pk}/blatt/?v={version}", client)
    assert status == 200
    rows.append(("a poll after a booking elsewhere", kb(sent, len(plain))))
    first = evening.games.booked().order_by("-number")[5]  # six games back
    evening.refresh_from_db()
    form = {
        "k-key": str(first.key),
        "k-spiel": "ramsch",
        "k-won": "0",
        "k-kontra": "0",
        "k-doubled": "0",
        "k-laufende": "0",
        # A Ramsch lost by someone else than before: the correction changes the game.
        "k-loser": next(pk for pk in first.seating if pk != first.loser_id),
        # The game as the correction panel showed it, and the evening's version.
        "k-seen": services.GameInput.of(first).fingerprint(),
        "v": evening.version,
    }
    status, sent, plain, _ = get(
        port, f"/abend/{evening.pk}/spiel/{first.pk}/", client, "POST", urlencode(form)
    )
    assert status == 200 and b"Korrigiert" in plain, (status, plain[:3000])
    rows.append(("a correction's answer (6 games back)", kb(sent, len(plain))))
    return rows


def kb(sent: int, unpacked: int) -> str:
    return f"{sent / 1024:.1f} KB ({unpacked / 1024:.1f} KB unpacked)"


# -- one request at a time, in this process --------------------------------------------


def wsgi_call(app, client: dict, method: str, path: str, body: str = "") -> bytes:
    """One request through Django's WSGI handler, as gunicorn makes it, without a socket."""
    data = body.encode()
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "HTTP_HOST": "127.0.0.1",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(data),
        "wsgi.errors": sys.stderr,
        "CONTENT_LENGTH": str(len(data)),
        "CONTENT_TYPE": "application/x-www-form-urlencoded",
        "HTTP_COOKIE": f"sessionid={client['session']}; csrftoken={client['csrf']}",
        "HTTP_X_CSRFTOKEN": client["csrf"],
        "HTTP_HX_REQUEST": "true",
    }
    status = []
    answer = b"".join(app(environ, lambda code, headers, exc_info=None: status.append(code)))
    assert status[0].startswith("200"), (status, answer[:500])
    return answer


def in_process_rows(client: dict) -> list[tuple[str, str]]:
    """The floor and a booking one at a time, without load or network: what the server
    does per request, and how much of a booking is its SQL (the commit included, which
    waits for the disk: a booking is durable once answered)."""
    from django.core.handlers.wsgi import WSGIHandler

    app = WSGIHandler()
    sql, commits = [], []
    commit = connection._commit

    def timed_commit():
        start = time.perf_counter()
        commit()
        commits.append(time.perf_counter() - start)

    def timed(execute, statement, params, many, context):
        start = time.perf_counter()
        try:
            return execute(statement, params, many, context)
        finally:
            sql.append(time.perf_counter() - start)

    def book():
        p = client["players"]
        # Every other game with 3 Laufende: two games in a row just alike are asked about.
        laufende = int(client["deal"].partition("-")[0]) % 2 * 3
        body = (
            f"key={uuid.uuid4()}&deal={client['deal']}&won=1&kontra=0&doubled=0"
            f"&laufende={laufende}&laufende_wenz=0&spiel=sauspiel&declarer={p[0]}&partner={p[2]}"
        )
        answer = wsgi_call(app, client, "POST", f"/abend/{client['evening']}/buchen/", body)
        assert b"Gebucht: " in answer, answer[:500]
        client["deal"] = re.search(rb'name="deal" value="([^"]+)"', answer)[1].decode()
        players = re.findall(rb'name="declarer" value="(\d+)"', answer)
        if len(players) == 4:
            client["players"] = [p.decode() for p in players]

    floor = median_ms(lambda: wsgi_call(app, client, "GET", "/healthz"), 300)
    for _ in range(30):
        book()
    connection._commit = timed_commit
    try:
        with connection.execute_wrapper(timed):
            booking = median_ms(book, 300)
    finally:
        del connection._commit
    queries = len(sql) / 300  # a query may carry several statements
    return [
        ("/healthz, in-process, one at a time", f"{floor:.2f} ms"),
        (
            "a booking, in-process, one at a time",
            f"{booking:.2f} ms = {booking / floor:.1f}× the floor; its SQL "
            f"({queries:.0f} queries; the write commits itself, in autocommit) "
            f"{(sum(sql) + sum(commits)) / 300 * 1000:.2f} ms"
            + (
                f", of which a commit {statistics.median(commits) * 1000:.2f} ms" if commits else ""
            ),
        ),
    ]


# -- scale ---------------------------------------------------------------------------------


def median_ms(action, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def measure(client: Client, url: str) -> tuple[float, int]:
    """Median server time of the page (in-process, no network) and its queries on a
    first visit, with nothing kept (an earlier page may have kept some of its parts)."""
    cache.clear()
    queries = []

    def count(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        assert client.get(url).status_code == 200, url
    return median_ms(lambda: client.get(url), 15), len(queries)


def scale_rows(history_games: int) -> list[tuple[str, str]]:
    small_admin, small_club, small_runde = bench_runde("Runde", "Kleiner Verein")
    seated = [small_club.players.get()] + [
        Player.objects.create(club=small_club, name=f"S{i}") for i in range(4)
    ]
    small_evening = services.start_evening(small_runde, seated, 0, small_admin)
    play(small_evening, GAMES, small_admin)

    start = time.perf_counter()
    admin, club, runden = make_history(history_games)
    made = time.perf_counter() - start
    start = time.perf_counter()
    with open(os.devnull, "w") as quiet:
        call_command("verify_ledger", stdout=quiet)
    verified = time.perf_counter() - start
    games = Game.objects.filter(evening__runde__club=club).count()

    runde = runden[0]
    evening = runde.evenings.order_by("-started_at").first()
    rows = [
        (f"made a club of {games:,} games (bulk, engine-computed)", f"{made:.0f} s"),
        (f"verify_ledger over {Game.objects.count():,} games", f"{verified:.1f} s"),
    ]
    big, small = Client(), Client()
    big.force_login(admin)
    small.force_login(small_admin)
    pages = [
        ("start page (a player of 5 Runden)", "/"),
        ("Runde page with statistics and plot", "/verein/{c}/runde/{r}/"),
        ("Runde balances", "/verein/{c}/runde/{r}/konten/"),
        ("a player's home", "/verein/{c}/spieler/{p}/uebersicht/"),
        ("a player's history, page 1", "/verein/{c}/spieler/{p}/verlauf/"),
        ("the rules page", "/verein/{c}/runde/{r}/regeln/"),
        ("evening page (60 games)", "/abend/{e}/"),
        ("evening history", "/abend/{e}/verlauf/"),
        ("evening print", "/abend/{e}/drucken/"),
        ("settlement", "/abend/{e}/abrechnung/"),
    ]
    me = club.players.get(user=admin)
    small_me = small_club.players.get(user=small_admin)
    for name, pattern in pages:
        url = pattern.format(c=club.pk, r=runde.pk, e=evening.pk, p=me.pk)
        big_ms, big_q = measure(big, url)
        _ms, small_q = measure(
            small,
            pattern.format(c=small_club.pk, r=small_runde.pk, e=small_evening.pk, p=small_me.pk),
        )
        rows.append(
            (f"{name}: 10 years / one evening", f"{big_ms:.1f} ms, {big_q} / {small_q} queries")
        )
    return rows


# -- the table -----------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=10, help="per load scenario")
    parser.add_argument("--games", type=int, default=100_000, help="the big club's history")
    parser.add_argument(
        "--load-only", action="store_true", help="only the load figures (quick, while tuning)"
    )
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk not found: apt-get install wrk (Debian/Ubuntu)")
    random.seed(7)
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)

    admin, club, runde = bench_runde("Donnerstagsrunde", "Bench")
    seated = [club.players.get()] + [
        Player.objects.create(club=club, name=n) for n in ("Sepp", "Vroni", "Hias", "Wastl")
    ]
    own = [services.start_evening(runde, seated, 0, admin) for _ in range(PHONES)]
    shared = services.start_evening(runde, seated, 0, admin)
    weighed = services.start_evening(runde, seated, 0, admin)  # for the bytes, untouched
    for evening in [*own, shared, weighed]:
        play(evening, GAMES, admin)
    phones = [
        get_user_model().objects.create_user(f"phone{i}", password="x") for i in range(PHONES)
    ]
    for phone in phones:
        clubs.Membership.objects.create(user=phone, club=club, role="schreiber")

    port = free_port()
    server = start_gunicorn(port)
    try:
        # Warm up the workers (templates compiled, connections open).
        warm = [client_for(phone, own[0]) for phone in phones]
        wrk(port, "page", warm, 2)
        results = {}
        for scenario, evenings in [
            ("floor", own),
            ("poll", own),
            ("page", own),
            ("preview", own),
            ("book", own),
            ("shared", [shared] * PHONES),
        ]:
            clients = [client_for(p, e) for p, e in zip(phones, evenings, strict=True)]
            results[scenario] = wrk(
                port, "book" if scenario == "shared" else scenario, clients, args.seconds
            )
        byte_rows = wire(port, client_for(phones[0], weighed), weighed, admin)
        games_after = max(e.games.count() for e in own)
    finally:
        server.terminate()
        server.wait()
    byte_rows += in_process_rows(client_for(phones[0], own[0]))

    floor = results["floor"]["p95"]
    names = {
        "floor": "/healthz (the floor: one query)",
        "poll": "sheet poll, nothing changed (204)",
        "page": "evening page, 60 games",
        "preview": "a tap's preview (htmx), 60 games",
        "book": f"booking (htmx), 4 evenings of 60 to {games_after} games",
        "shared": "booking, 4 phones into one evening",
    }
    rows = []
    for scenario, result in results.items():
        p50, p95 = result["p50"] / 1000, result["p95"] / 1000
        note = f"p50 {p50:.1f} ms, p95 {p95:.1f} ms = {result['p95'] / floor:.1f}× the floor"
        if scenario == "shared":
            share = result["booked"] / max(1, result["booked"] + result["refused"])
            note += f"; {share:.0%} booked, the rest refreshed by another phone's booking"
        rows.append((names[scenario], note))
    rows += byte_rows
    if not args.load_only:
        rows += scale_rows(args.games)

    width = max(len(name) for name, _ in rows)
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, wrk {PHONES} clients, "
          f"{args.seconds} s per scenario, gunicorn 2 workers, embedded PostgreSQL")  # fmt: skip
    print(f"| {'measure':<{width}} | result |")
    print(f"| {'-' * width} | --- |")
    for name, value in rows:
        print(f"| {name:<{width}} | {value} |")


if __name__ == "__main__":
    main()
