from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class EveningsConfig(AppConfig):
    name = "evenings"
    verbose_name = _("Spielabende")

    def ready(self) -> None:
        from config.roles import grant_app_privileges

        # Once per migrate (sender: this app), after every app's migrations ran.
        post_migrate.connect(grant_app_privileges, sender=self)
