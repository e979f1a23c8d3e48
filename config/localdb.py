"""Run a command against PostgreSQL, starting the embedded one when DATABASE_URL is unset.

    python -m config.localdb --data var/pgdata -- gunicorn ...   # data kept between runs
    python -m config.localdb --throwaway -- python -m pytest     # data deleted afterwards

The embedded server is the PyPI package pgserver: a real PostgreSQL shipped inside the
virtualenv, listening on a Unix socket only. When DATABASE_URL is set, the command simply
runs against that server. Either way the server is stopped when the command ends, however
it ends (Ctrl-C included), so nothing is left running.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

# The embedded server's role for the app (config/roles.py); its superuser owns the tables.
APP_ROLE = "schafkopf_app"


def _forget_dead_handles(pgdata: Path) -> None:
    """Drop the pids of processes that died without cleaning up from pgserver's handle list.

    pgserver stops the server only when its last handle closes; a stale pid left by a
    killed run would keep the server running after ours ends.
    """
    handles = pgdata / ".handle_pids.json"
    if not handles.exists():
        return
    alive = []
    for pid in json.loads(handles.read_text() or "[]"):
        try:
            os.kill(pid, 0)
        except OSError:
            continue
        alive.append(pid)
    handles.write_text(json.dumps(alive))


def _run(command: list[str], env: dict[str, str]) -> int:
    """Run the command in the foreground; pass SIGTERM on, let Ctrl-C reach it directly."""
    child = subprocess.Popen(command, env=env)
    # Ctrl-C goes to the whole foreground process group: the child handles it and we wait
    # for it to finish before stopping the database underneath it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda signum, frame: child.send_signal(signum))
    return child.wait()


def _roles(server) -> dict[str, str]:
    """The two connection URLs of config/roles.py: the server's superuser owns the
    tables and migrates; the app connects as a plain role (made here, once)."""
    server.psql(
        f"DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{APP_ROLE}') "
        f"THEN CREATE ROLE {APP_ROLE} LOGIN; END IF; END $$;"
    )
    owner = server.get_uri()
    parts = urlsplit(owner)
    app = urlunsplit(parts._replace(netloc=f"{APP_ROLE}@{parts.hostname or ''}"))
    return {"DATABASE_URL": app, "DATABASE_OWNER_URL": owner}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m config.localdb", description=__doc__)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--data", type=Path, help="data folder, kept between runs")
    where.add_argument("--throwaway", action="store_true", help="a fresh server, deleted after")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given")

    env = dict(os.environ)
    if env.get("DATABASE_URL"):
        return _run(command, env)

    # pgserver asks platformdirs for a runtime folder and is told off when there is none.
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
    try:
        import pgserver
    except ImportError:
        sys.exit("DATABASE_URL is unset and pgserver is not installed: run `make run`.")

    if args.throwaway:
        pgdata = Path(tempfile.mkdtemp(prefix="schafkopf-pg-"))
        cleanup_mode = "delete"
    else:
        pgdata = args.data.resolve()
        pgdata.parent.mkdir(parents=True, exist_ok=True)
        if pgdata.exists():
            _forget_dead_handles(pgdata)
        cleanup_mode = "stop"

    server = pgserver.get_server(pgdata, cleanup_mode=cleanup_mode)
    try:
        env.update(_roles(server))
        return _run(command, env)
    finally:
        server.cleanup()


if __name__ == "__main__":
    sys.exit(main())
