"""Account URLs under /konto/. The names are Django's (login, password_reset, ...), so
{% url %}, LOGIN_URL and Django's own redirects find them; the paths are German."""

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.utils.translation import gettext as _

from clubs import accounts, throttle
from clubs.account_forms import (
    ChangePasswordForm,
    ResetPasswordForm,
    ThrottledAuthenticationForm,
    ThrottledPasswordResetForm,
    sends_mail,
)


class SendsMail:
    """Whether this server sends email, for the pages that would otherwise promise a link."""

    def get_context_data(self, **kwargs) -> dict:
        return {**super().get_context_data(**kwargs), "sends_mail": sends_mail()}


class PasswordResetView(SendsMail, auth_views.PasswordResetView):
    """Django's "forgot password" page with the throttled form, which needs the request
    for the client's address.

    On a server that sends no email the page says so instead of offering a link that
    would never arrive, and points to whoever runs the server (`make password`); a form
    sent anyway sends nothing and gets the same page."""

    form_class = ThrottledPasswordResetForm

    def get_form_kwargs(self) -> dict:
        return {**super().get_form_kwargs(), "request": self.request}

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not sends_mail():
            return self.get(request, *args, **kwargs)
        return super().post(request, *args, **kwargs)


class PasswordResetDoneView(SendsMail, auth_views.PasswordResetDoneView):
    """ "Schau in dein Postfach", unless the server sends no email (opened directly)."""


class PasswordResetConfirmView(SendsMail, auth_views.PasswordResetConfirmView):
    """Django's page for a reset link; one no longer valid offers a new link only where
    the server sends email."""

    form_class = ResetPasswordForm


class LoginView(auth_views.LoginView):
    """Django's login with the throttled form; after a login this browser is known to the
    account, and keeps its own budget of failures there (clubs.throttle)."""

    authentication_form = ThrottledAuthenticationForm
    redirect_authenticated_user = True

    def form_valid(self, form) -> HttpResponse:
        response = super().form_valid(form)
        throttle.remember_device(self.request, response, form.get_user().get_username())
        return response


class LogoutView(auth_views.LogoutView):
    """Django's logout, and the login page it leads to says so (its bare form did not)."""

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        messages.info(request, _("Du bist abgemeldet."))
        return response


urlpatterns = [
    path("registrieren/", accounts.signup, name="signup"),
    path("profil/", accounts.profile, name="profile"),
    path("loeschen/", accounts.account_delete, name="account_delete"),
    path("login/", LoginView.as_view(), name="login"),
    path("logout/", LogoutView.as_view(), name="logout"),
    path(
        "passwort/",
        auth_views.PasswordChangeView.as_view(form_class=ChangePasswordForm),
        name="password_change",
    ),
    path(
        "passwort/geaendert/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("passwort-vergessen/", PasswordResetView.as_view(), name="password_reset"),
    path(
        "passwort-vergessen/gesendet/",
        PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "passwort-neu/<uidb64>/<token>/",
        PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "passwort-neu/fertig/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
