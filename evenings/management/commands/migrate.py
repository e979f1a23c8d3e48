"""`manage.py migrate`, run as the owner of the tables (config/roles.py): the app's own
role may not change the schema, and after migrating the owner grants it its privileges."""

from django.core.management.commands import migrate

from config.roles import as_owner


class Command(migrate.Command):
    def handle(self, *args, **options):
        with as_owner(options["database"]):
            return super().handle(*args, **options)
