from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from clubs import backup, export_file
from clubs.account_forms import sends_mail
from config.roles import as_owner


class Command(BaseCommand):
    help = (
        "Restore a club from an `export_club` file into an empty database (run migrate "
        "first, nothing else): every row with its original key, in one transaction. The "
        "import checks that the database stored every value as exported and that every "
        "evening's ledger verifies, else it keeps nothing. Runs as the owner of the tables, "
        "as migrate does (config/roles.py): the app's role may not set the sequences. Users "
        'exported without password hashes set a new password by "Passwort vergessen" or '
        "`make password`."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="the JSON file export_club wrote")

    def handle(self, *args, file, **options):
        try:
            data = export_file.read(file)
        except export_file.UnreadableExport as error:
            raise CommandError(str(error)) from error
        try:
            with as_owner():
                club = backup.restore(data)
        except backup.BackupError as error:
            raise CommandError(str(error)) from error
        counts = ", ".join(
            f"{len(data['tables'].get(backup.label(model), []))} {backup.label(model)}"
            for model in backup.restored_models()
        )
        self.stdout.write(self.style.SUCCESS(f"{club.name} restored and verified: {counts}"))
        users = data["tables"].get(backup.label(get_user_model()), [])
        if without := sorted(user["username"] for user in users if "password" not in user):
            # "Passwort vergessen" only where this server sends the link by email.
            how = '"Passwort vergessen" or ' if sends_mail() else ""
            self.stdout.write(
                f"{len(without)} without a password (exported without hashes), each to set "
                f"one by {how}`make password user=NAME` (with DATA=... for a data directory "
                "of its own): " + ", ".join(without)
            )
