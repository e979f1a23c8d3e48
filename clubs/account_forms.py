"""Forms for accounts: sign-up, profile, the throttled login and the password reset."""

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, SetPasswordForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from clubs import throttle

User = get_user_model()

# The fields a user keeps up to date themselves, shared by sign-up and profile.
PERSONAL_LABELS = {
    "first_name": _("Vorname"),
    "email": _("E-Mail-Adresse"),
}
PERSONAL_HELP_TEXTS = {
    "first_name": _("Unter diesem Namen sehen dich die anderen in deinen Runden."),
    "email": _("Nur für den Fall, dass du dein Passwort vergisst."),
}
PERSONAL_WIDGETS = {
    "first_name": forms.TextInput(attrs={"autocomplete": "given-name"}),
    "email": forms.EmailInput(attrs={"autocomplete": "email"}),
}


def _require_personal_fields(form: forms.ModelForm) -> None:
    # Optional on Django's User model, required here: the name is shown at every table and
    # the email is the only way back into a forgotten account.
    for name in PERSONAL_LABELS:
        form.fields[name].required = True


class SignupForm(UserCreationForm):
    """A new account. Usernames are unique regardless of case (UserCreationForm)."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "first_name", "email")
        labels = {"username": _("Benutzername"), **PERSONAL_LABELS}
        help_texts = {
            "username": _("Damit meldest du dich an. Buchstaben, Ziffern und @ . + - _"),
            **PERSONAL_HELP_TEXTS,
        }
        widgets = PERSONAL_WIDGETS

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        _require_personal_fields(self)
        self.fields["password1"].label = _("Passwort")
        self.fields["password2"].label = _("Passwort bestätigen")


class ProfileForm(forms.ModelForm):
    """What a user changes about themselves: display name and email, nothing else."""

    class Meta:
        model = User
        fields = ("first_name", "email")
        labels = PERSONAL_LABELS
        help_texts = PERSONAL_HELP_TEXTS
        widgets = PERSONAL_WIDGETS

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        _require_personal_fields(self)


class ThrottledAuthenticationForm(AuthenticationForm):
    """Django's login form behind clubs.throttle: too many recent failures for the account
    or from the address, and the password is not even checked."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "throttled": _(
            "Zu viele fehlgeschlagene Anmeldeversuche. "
            "Bitte in %(minutes)s Minuten erneut versuchen."
        ),
    }

    def clean(self) -> dict:
        username = self.cleaned_data.get("username")
        if username is None or not self.cleaned_data.get("password"):
            return super().clean()  # a missing field; its own error says so

        address = throttle.client_address(self.request)
        if throttle.is_throttled(username, address):
            raise ValidationError(
                self.error_messages["throttled"],
                code="throttled",
                params={"minutes": throttle.WINDOW_MINUTES},
            )
        try:
            cleaned_data = super().clean()
        except ValidationError:
            if self.user_cache is None:  # wrong credentials, not a policy refusal
                throttle.record_failure(username, address)
            raise
        throttle.clear_failures(username)
        return cleaned_data


class ThrottledAdminAuthenticationForm(ThrottledAuthenticationForm, AdminAuthenticationForm):
    """The operator's admin-site login, behind the same throttle."""


class ResetPasswordForm(SetPasswordForm):
    """The new password from an emailed reset link. Whoever holds the link has proven the
    account is theirs, so its login failures are forgotten: a user who locked themselves
    out by guessing can log in right after the reset."""

    def save(self, commit: bool = True):
        user = super().save(commit=commit)
        throttle.clear_failures(user.get_username())
        return user
