import os
import shutil
import sys

from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Migrate, create the demo on the very first start, then serve the app with gunicorn."

    def add_arguments(self, parser):
        parser.add_argument("--port", default=os.environ.get("PORT", "8000"))
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--workers", default=os.environ.get("WEB_CONCURRENCY", "2"))

    def handle(self, *args, port, host, workers, **options):
        call_command("migrate", interactive=False, verbosity=0)
        call_command("demo", "--if-empty", port=port, host=host)
        gunicorn = shutil.which("gunicorn", path=os.path.dirname(sys.executable)) or "gunicorn"
        self.stdout.write(f"Serving on http://{host}:{port}/ — Ctrl-C stops it.")
        self.stdout.flush()
        # Replace this process: gunicorn gets Ctrl-C itself and stops its workers.
        os.execv(
            gunicorn,
            [
                gunicorn,
                "config.wsgi",
                f"--bind={host}:{port}",
                f"--workers={workers}",
                "--access-logfile=-",
                "--graceful-timeout=5",
            ],
        )
