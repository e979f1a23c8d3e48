import os
import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from clubs import throttle
from clubs.management.commands.serve import login_names, login_url


class Command(BaseCommand):
    help = (
        "Give an account a new random password and print it (`make password`): the way "
        "back in when the admin's password is lost. The account's login failures are "
        "forgotten too."
    )

    def add_arguments(self, parser):
        parser.add_argument("username", nargs="?", default="admin")
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--port", default=os.environ.get("PORT", "8000"))

    def handle(self, *args, username, host, port, **options):
        User = get_user_model()
        # Usernames are unique regardless of case (sign-up checks), so any spelling finds it.
        user = User.objects.filter(username__iexact=username).first()
        if user is None:
            known = ", ".join(login_names()) or "none yet"
            raise CommandError(f"There is no account {username!r}. Accounts: {known}.")
        password = secrets.token_urlsafe(9)
        user.set_password(password)
        user.save(update_fields=["password"])
        throttle.clear_failures(user.get_username())
        self.stdout.write(
            self.style.SUCCESS(
                'New password set. Log in with it, then change it under "Profil" (your name '
                "at the top of every page):"
            )
        )
        # The port is make run's only if it was given the same PORT (walk 43).
        self.stdout.write(f"  {login_url(host, port)}  (served on another port: that port)")
        self.stdout.write(f"  user: {user.get_username()}   password: {password}")
