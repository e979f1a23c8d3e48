import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from clubs import services
from clubs.models import Player

DEMO_PLAYERS = ["Sepp", "Vroni", "Hias", "Resi", "Wastl"]


class Command(BaseCommand):
    help = "Create the demo: an admin login, a club with a Runde and a few players."

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-empty", action="store_true", help="only when nobody has an account yet"
        )
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", default="8000")

    @transaction.atomic
    def handle(self, *args, if_empty, host, port, **options):
        User = get_user_model()
        if if_empty and User.objects.exists():
            return
        password = secrets.token_urlsafe(9)
        admin = User.objects.create_superuser(
            username="admin", email="admin@example.org", password=password, first_name="Resi"
        )
        club = services.create_club(admin, "Schafkopffreunde Demo")
        services.create_runde(club, "Donnerstagsrunde", admin)
        Player.objects.bulk_create(
            Player(club=club, name=name) for name in DEMO_PLAYERS if name != "Resi"
        )
        self.stdout.write(
            self.style.SUCCESS("Demo created. Log in once with this password, then change it:")
        )
        self.stdout.write(f"  http://{host}:{port}/konto/login/")
        self.stdout.write(f"  user: {admin.username}   password: {password}")
