from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from clubs import backup
from clubs.models import Club


class Command(BaseCommand):
    help = (
        "Write one club's complete data (people, Runden, tariff history, evenings, games, "
        "changes, payments, ledger) as one JSON file, for `import_club`. Password hashes "
        "are left out unless --with-passwords is given: without them, restored users set "
        'a new password by "Passwort vergessen" or `make password`. Keep a file with '
        "hashes as safe as the database itself."
    )

    def add_arguments(self, parser):
        parser.add_argument("club", type=int, help="the club's id")
        parser.add_argument(
            "--output", "-o", type=Path, help="the file to write (default: standard output)"
        )
        parser.add_argument(
            "--with-passwords",
            action="store_true",
            help="include the users' password hashes, so they log in as before",
        )

    def handle(self, *args, club, output, with_passwords, **options):
        found = Club.objects.filter(pk=club).first()
        if found is None:
            known = ", ".join(f"{c.pk} ({c.name})" for c in Club.objects.order_by("pk"))
            raise CommandError(f"There is no club {club}. Clubs: {known or 'none yet'}.")
        chunks = backup.chunks(found, with_passwords=with_passwords)
        if output is None:
            for chunk in chunks:
                self.stdout.write(chunk, ending="")
            self.stdout.write("")
            return
        with output.open("w", encoding="utf-8") as file:
            file.writelines(chunks)
            file.write("\n")
        self.stderr.write(f"{found.name}: written to {output}")
