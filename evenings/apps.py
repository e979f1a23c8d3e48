from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EveningsConfig(AppConfig):
    name = "evenings"
    verbose_name = _("Spielabende")
