"""Forms for accounts: sign-up, profile, the throttled login and the throttled password
reset."""

import re

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm,
    PasswordResetForm,
    SetPasswordForm,
    UserCreationForm,
)
from django.contrib.auth.password_validation import UserAttributeSimilarityValidator
from django.core.exceptions import ValidationError
from django.core.mail import mailers
from django.core.mail.backends import console, dummy
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from clubs import throttle
from clubs.models import one_line

User = get_user_model()

# The fields a user keeps up to date themselves, shared by sign-up and profile.
PERSONAL_LABELS = {
    "first_name": _("Vorname"),
    "email": _("E-Mail-Adresse"),
}
PERSONAL_HELP_TEXTS = {
    "first_name": _(
        "So grüßt dich die App. Am Tisch und auf den Blättern steht der Name deines Spielers "
        "im Verein; den ändert ein Admin des Vereins."
    ),
    "email": _(
        "Wird gebraucht, falls du dein Passwort vergisst; sonst schreibt dir die App nicht."
    ),
}
PERSONAL_WIDGETS = {
    "first_name": forms.TextInput(attrs={"autocomplete": "given-name"}),
    "email": forms.EmailInput(attrs={"autocomplete": "email"}),
}


class SpaceAtTheEndsValidator:
    """A password that begins or ends with a space, as a paste from a password manager
    may: kept as typed, it failed at the next login typed without (walk 80)."""

    def validate(self, password, user=None) -> None:
        if password != password.strip():
            raise ValidationError(
                _(
                    "Das Passwort beginnt oder endet mit einem Leerzeichen, das beim Anmelden "
                    "leicht fehlt. Bitte ohne."
                ),
                code="password_space_at_the_ends",
            )

    def get_help_text(self) -> str:
        return _("Es beginnt und endet nicht mit einem Leerzeichen.")


class SimilarityValidator(UserAttributeSimilarityValidator):
    """Django's check that a password is not the user name (or first name, or email) over
    again, in German that reads (Django's: "zu ähnlich zu Benutzername")."""

    # Shorter names and parts of an email address are too common in words to refuse.
    CONTAINED = 4

    def validate(self, password, user=None) -> None:
        """Django's measure of similarity, and more: a password that contains the name,
        the user name or a part of the email address ("anna1234" for anna) is refused,
        where Django's ratio lets it pass."""
        super().validate(password, user)
        typed = password.casefold()
        for attribute in self.user_attributes if user is not None else ():
            value = getattr(user, attribute, None)
            if not isinstance(value, str):
                continue
            parts = {value, *re.split(r"\W+", value)}
            if any(len(part) >= self.CONTAINED and part.casefold() in typed for part in parts):
                raise ValidationError(
                    self.get_error_message(),
                    code="password_too_similar",
                    params={"verbose_name": user._meta.get_field(attribute).verbose_name},
                )

    def get_error_message(self) -> str:
        return _("Das Passwort ähnelt zu sehr dem Eintrag „%(verbose_name)s“.")

    def get_help_text(self) -> str:
        return _("Es darf nicht deinem Namen, Benutzernamen oder deiner E-Mail ähneln.")


def sends_mail() -> bool:
    """Whether an email can leave this server. Not with the console backend, which only
    prints it to the server's output (settings: no EMAIL_HOST, as with `make run`), nor
    with the file-based one (a console backend too) or the dummy."""
    return not isinstance(mailers.default, console.EmailBackend | dummy.EmailBackend)


def _require_personal_fields(form: forms.ModelForm) -> None:
    # Optional on Django's User model, required here: the name is shown at every table and
    # the email is the only way back into a forgotten account. On a server that sends no
    # email it is no way back (whoever runs it sets a new password): optional there.
    form.fields["first_name"].required = True
    form.fields["first_name"].error_messages["required"] = _("Bitte deinen Vornamen eingeben.")
    form.fields["email"].error_messages["required"] = _("Bitte deine E-Mail-Adresse eingeben.")
    if sends_mail():
        form.fields["email"].required = True
    else:
        form.fields["email"].help_text = _(
            "Freiwillig: dieser Server verschickt keine E-Mails. Ein vergessenes Passwort "
            "setzt dir die Person neu, die die App betreibt."
        )


# What an empty field of the password forms says.
EMPTY = {
    "username": _("Bitte einen Benutzernamen eingeben."),
    "old_password": _("Bitte dein bisheriges Passwort eingeben."),
    "password1": _("Bitte ein Passwort eingeben."),
    "new_password1": _("Bitte ein neues Passwort eingeben."),
    "password2": _("Bitte das Passwort noch einmal eingeben."),
    "new_password2": _("Bitte das neue Passwort noch einmal eingeben."),
}


class RulesBesideThePassword:
    """Django names what a new password breaks (too short, too common) under its
    confirmation; here it stands under the password itself, where it was typed. That the
    two differ stays with the confirmation."""

    TYPED = {"password2": "password1", "new_password2": "new_password1"}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Not Django's German ("nicht identisch"): as sign-up words it.
        self.error_messages = {
            **self.error_messages,
            "password_mismatch": _("Die beiden Passwörter waren nicht gleich. Bitte noch einmal."),
        }
        for name in self.TYPED:
            if name in self.fields:
                # Django's German says "das selbe"; it is "dasselbe".
                self.fields[name].help_text = _("Zur Bestätigung dasselbe Passwort noch einmal.")
        # Left empty: said in the app's words, not Django's "zwingend erforderlich".
        for name, said in EMPTY.items():
            if name in self.fields:
                self.fields[name].error_messages["required"] = said

    def validate_password_for_user(self, user, password_field_name="password2", **kwargs):
        field = self.TYPED.get(password_field_name, password_field_name)
        super().validate_password_for_user(user, password_field_name=field, **kwargs)


class SignupForm(RulesBesideThePassword, UserCreationForm):
    """A new account. Usernames are unique regardless of case (UserCreationForm)."""

    # What the form says about a taken name, also when a double tap's other request took
    # it after this one was validated (clubs.forms.save_unless_taken).
    username_taken = User._meta.get_field("username").error_messages["unique"]

    def clean_first_name(self) -> str:
        return _shown_name(self.cleaned_data["first_name"])

    def clean_username(self) -> str:
        """A space is the usual slip ("Gerti Huber"): said as such, not as Django's list of
        what is allowed ("@/./+/-/_"), which left the space to be guessed."""
        username = self.cleaned_data["username"]
        if any(character.isspace() for character in username):
            raise ValidationError(
                _(
                    "Bitte ohne Leerzeichen, z. B. gerti.huber: Buchstaben, Ziffern und "
                    "@ . + - _ gehen."
                ),
                code="invalid",
            )
        return super().clean_username()

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

    def clean_first_name(self) -> str:
        return _shown_name(self.cleaned_data["first_name"])


class DeleteAccountForm(forms.Form):
    """The password once more before the login is deleted: a phone left unlocked on the
    table does not lose its owner their account."""

    password = forms.CharField(
        label=_("Dein Passwort"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        error_messages={"required": _("Bitte dein Passwort eingeben.")},
    )

    def __init__(self, user, *args, **kwargs) -> None:
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise ValidationError(
                _(
                    "Das Passwort stimmt nicht. Beim Passwort zählen Groß- und Kleinschreibung "
                    "und jedes Leerzeichen."
                )
            )
        return password


def _shown_name(name: str) -> str:
    """The name as the app shows it (clubs.models.one_line); empty is required's error."""
    if name and not one_line(name):
        raise ValidationError(_("Bitte einen Namen mit sichtbaren Zeichen eingeben."))
    return one_line(name)


class ThrottledAuthenticationForm(AuthenticationForm):
    """Django's login form behind clubs.throttle: too many recent failures for the account
    or from the address, and the password is not even checked."""

    error_messages = {
        **AuthenticationForm.error_messages,
        # Django's German reads as if the fields had been left empty.
        "invalid_login": _(
            "Benutzername oder Passwort stimmt nicht. Beim Passwort zählen Groß- und "
            "Kleinschreibung und jedes Leerzeichen."
        ),
        "throttled": _(
            "Zu viele fehlgeschlagene Anmeldeversuche. "
            "Bitte in %(minutes)s Minuten erneut versuchen."
        ),
        # Failures from strangers' browsers do not lock out the user's own phone.
        "throttled_elsewhere": _(
            "Zu viele fehlgeschlagene Anmeldeversuche. Bitte in %(minutes)s Minuten "
            "erneut versuchen, oder gleich auf einem Gerät, auf dem du hier schon "
            "angemeldet warst."
        ),
    }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].error_messages["required"] = _(
            "Bitte deinen Benutzernamen eingeben."
        )
        self.fields["password"].error_messages["required"] = _("Bitte dein Passwort eingeben.")

    def clean(self) -> dict:
        username = self.cleaned_data.get("username")
        if username is None or not self.cleaned_data.get("password"):
            return super().clean()  # a missing field; its own error says so

        # The name as registered, however it is typed ("Sepp" for "sepp": a phone's
        # keyboard starts with a capital). No two names differ in case only (clubs
        # migration 0003), so this names one account or none.
        registered = get_user_model().objects.filter(username__iexact=username)
        username = registered.values_list("username", flat=True).first() or username
        self.cleaned_data["username"] = username

        address = throttle.client_address(self.request)
        with throttle.login_attempt(username, address):
            refusal = self._attempt(username, address)
        # Raised only now: inside, it would roll back the failure just recorded.
        if refusal is not None:
            raise refusal
        return self.cleaned_data

    def _attempt(self, username: str, address: str | None) -> ValidationError | None:
        """The throttle's check, the password's check and the recorded outcome."""
        known = throttle.is_known_device(self.request, username)
        if throttle.is_throttled(username, address, known):
            return ValidationError(
                self.error_messages["throttled" if known else "throttled_elsewhere"],
                code="throttled",
                params={"minutes": throttle.WINDOW_MINUTES},
            )
        try:
            super().clean()
        except ValidationError as error:
            if self.user_cache is None:  # wrong credentials, not a policy refusal
                throttle.record_failure(username, address, known)
            return error
        throttle.clear_failures(username)
        return None


class ThrottledAdminAuthenticationForm(ThrottledAuthenticationForm, AdminAuthenticationForm):
    """The operator's admin-site login, behind the same throttle."""


class ThrottledPasswordResetForm(PasswordResetForm):
    """Django's "forgot password" form behind clubs.throttle: while too many resets were
    asked for the email address or from the client, it says so and sends nothing."""

    error_messages = {
        "throttled": _(
            "Es wurden gerade zu viele neue Passwörter angefordert. "
            "Bitte in %(minutes)s Minuten erneut versuchen."
        ),
    }

    def __init__(self, *args, request: HttpRequest | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.request = request

    def clean(self) -> dict:
        cleaned_data = super().clean()
        email = cleaned_data.get("email")
        if email and not throttle.allow_reset(email, throttle.client_address(self.request)):
            raise ValidationError(
                self.error_messages["throttled"],
                code="throttled",
                params={"minutes": throttle.RESET_WINDOW_MINUTES},
            )
        return cleaned_data


class ChangePasswordForm(RulesBesideThePassword, PasswordChangeForm):
    """Django's password change, its rules' verdict beside the new password."""


class ResetPasswordForm(RulesBesideThePassword, SetPasswordForm):
    """The new password from an emailed reset link. Whoever holds the link has proven the
    account is theirs, so its login failures are forgotten: a user who locked themselves
    out by guessing can log in right after the reset."""

    def save(self, commit: bool = True):
        user = super().save(commit=commit)
        throttle.clear_failures(user.get_username())
        return user
