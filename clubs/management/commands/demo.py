import secrets
import uuid

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from clubs import services
from clubs.management.commands.serve import login_url
from clubs.models import Player
from evenings import services as evenings
from evenings.services import GameInput

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
        runde = services.create_runde(club, "Donnerstagsrunde", admin)
        Player.objects.bulk_create(
            Player(club=club, name=name) for name in DEMO_PLAYERS if name != "Resi"
        )
        players = {p.name: p for p in club.players.all()}
        self._play(runde, [players[n] for n in DEMO_PLAYERS[:4]], admin, close=True)
        self._play(runde, [players[n] for n in DEMO_PLAYERS], admin, close=False)
        self.stdout.write(
            self.style.SUCCESS(
                'Demo created. Log in with this password, then change it under "Profil" (your '
                "name at the top of every page):"
            )
        )
        self.stdout.write(f"  {login_url(host, port)}")
        self.stdout.write(f"  user: {admin.username}   password: {password}")

    def _play(self, runde, seated, admin, close: bool) -> None:
        """An evening with a few ordinary games, booked as the scorekeeper would."""
        evening = evenings.start_evening(runde, seated, 0, admin)
        for step in range(6 if close else 3):
            playing = evenings.next_deal(evening).playing
            first, second, third, _fourth = playing
            game = [
                GameInput("sauspiel", declarer=first.pk, partner=third.pk, laufende=3),
                GameInput("farbsolo", declarer=second.pk, suit="herz", won=False),
                GameInput("sauspiel", declarer=third.pk, partner=first.pk, schneider=True),
                GameInput("wenz", declarer=first.pk, laufende=3),
                GameInput("ramsch", won=False, loser=second.pk),
                GameInput("sauspiel", declarer=second.pk, partner=first.pk, kontra=1),
            ][step]
            evenings.book_game(evening.pk, uuid.uuid4(), game, admin)
        if close:
            evenings.close_evening(evening.pk, admin)
