"""`make run` and `make dev`: get the database ready, then serve the app.

`make run` is how a club runs the app on a laptop: gunicorn, DEBUG off, the app's own
error pages, static files hashed and compressed by whitenoise. `make dev` (--dev) is
Django's development server with DEBUG and autoreload, on the same data.
"""

import os
import shutil
import sys

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.urls import reverse


def login_url(host: str, port: str) -> str:
    """Where to log in, as a browser on this machine reaches it."""
    if host in {"0.0.0.0", "::", ""}:  # every interface, this machine among them
        host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}{reverse('login')}"


def login_names() -> list[str]:
    """Who can log in to look after things: the demo's admin if there is one, else the
    operators, else the clubs' admins (a few of them)."""
    users = get_user_model().objects.order_by("username")
    for candidates in (
        users.filter(username="admin"),
        users.filter(is_superuser=True),
        users.filter(memberships__role="admin").distinct(),
        users,
    ):
        names = list(candidates.values_list("username", flat=True)[:3])
        if names:
            return names
    return []


class Command(BaseCommand):
    help = (
        "Migrate, collect the static files, create the demo on the very first start (or say "
        "how to log in), then serve the app with gunicorn, or with --dev Django's "
        "autoreloading development server."
    )

    def add_arguments(self, parser):
        parser.add_argument("--port", default=os.environ.get("PORT", "8000"))
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--workers", default=os.environ.get("WEB_CONCURRENCY", "2"))
        parser.add_argument(
            "--dev", action="store_true", help="Django's development server, with autoreload"
        )

    def handle(self, *args, port, host, workers, dev, **options):
        self.prepare(host, port)
        if dev:
            # runserver's autoreloader restarts exactly this command line on every change.
            command = [sys.executable, str(settings.BASE_DIR / "manage.py")]
            command += ["runserver", f"{host}:{port}"]
        else:
            gunicorn = shutil.which("gunicorn", path=os.path.dirname(sys.executable))
            command = [
                gunicorn or "gunicorn",
                "config.wsgi",
                f"--bind={host}:{port}",
                f"--workers={workers}",
                "--access-logfile=-",
                "--graceful-timeout=5",
            ]
            self.stdout.write(f"Serving on http://{host}:{port}/ — Ctrl-C stops it.")
        self.stdout.flush()
        # Replace this process: the server gets Ctrl-C itself and stops its workers.
        os.execv(command[0], command)

    def prepare(self, host: str, port: str) -> None:
        """Everything before the server starts; the server itself reads what this wrote."""
        call_command("migrate", interactive=False, verbosity=0)
        if settings.STATIC_MANIFEST:
            # The hashed, compressed copies whitenoise serves; it indexes them at start-up.
            call_command("collectstatic", interactive=False, verbosity=0)
        url = login_url(host, port)
        if not get_user_model().objects.exists():
            call_command("demo", host=host, port=port, stdout=self.stdout)
            return
        names = " or ".join(login_names())
        self.stdout.write(f"Log in at {url} as {names}.")
        self.stdout.write(
            "Password lost? `make password` prints a new one for admin, "
            "`make password user=NAME` for another account."
        )
