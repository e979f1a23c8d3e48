"""Django's admin site, for whoever runs the app (staff accounts): at /betrieb/.

A club member who is logged in but not staff gets the app's 404 there, as everywhere
outside their role, instead of Django's login page saying they may not enter. Anyone
not logged in still finds the operator's login.
"""

from functools import wraps

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.http import Http404


class OperatorSite(admin.AdminSite):
    @property
    def login_form(self):
        """The login behind the app's throttle (imported late: this module is read
        while the apps load, before the models exist)."""
        from clubs.account_forms import ThrottledAdminAuthenticationForm

        return ThrottledAdminAuthenticationForm

    def _not_for_members(self, request) -> None:
        if request.user.is_authenticated and not self.has_permission(request):
            raise Http404

    def admin_view(self, view, cacheable=False):
        guarded = super().admin_view(view, cacheable)

        @wraps(guarded)
        def inner(request, *args, **kwargs):
            self._not_for_members(request)
            return guarded(request, *args, **kwargs)

        return inner

    def login(self, request, extra_context=None):
        self._not_for_members(request)
        return super().login(request, extra_context)


class OperatorAdminConfig(AdminConfig):
    default_site = "config.admin.OperatorSite"
