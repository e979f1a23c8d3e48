import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Invitation, Membership, Player, Runde, Tariff
from scoring import BockMode, ScoringError, TariffRules, validate_rules

# The largest amount a tariff field takes: 10.000,00 € (and a PositiveIntegerField fits it).
MAX_CENTS = 1_000_000

# "1.234,56" / "1234,5" / "0,10" / "1" / "0.10" / "1.000" (German thousands), "€" optional.
_EURO = re.compile(
    r"""^(?P<sign>[-+−]?)\s*
        (?P<euros>\d{1,3}(?:\.\d{3})+|\d+)?
        (?:(?P<sep>[,.])(?P<cents>\d*))?
        \s*(?:€|EUR|Euro)?$""",
    re.VERBOSE | re.IGNORECASE,
)


def parse_euro(text: str) -> int:
    """Parse an amount as people type it ("0,10", "0,5", "1", "1.000,00") into cents.

    Exact: only integers are involved, so "0,105" is refused rather than rounded. A dot
    followed by exactly three digits and no comma is a German thousands separator; a dot
    followed by one or two digits is read as a decimal point ("0.10"), which is what a
    phone's number pad often offers.
    """
    value = text.strip().replace(" ", "").replace("\u00a0", "")
    if not value:
        raise ValidationError(_("Bitte einen Betrag eingeben, z. B. 0,10."), code="required")
    match = _EURO.match(value)
    if not match or (match["euros"] is None and not match["cents"]):
        raise ValidationError(
            _("Bitte einen Betrag in Euro eingeben, z. B. 0,10 oder 1,50."), code="invalid"
        )
    euros, sep, cents = match["euros"] or "0", match["sep"], match["cents"] or ""
    if sep == "." and len(cents) == 3 and "." not in euros:
        # "1.000": a thousands separator, not a decimal point.
        euros, cents = euros + cents, ""
    elif sep == "." and "." in euros:
        raise ValidationError(
            _("Bitte ein Komma vor den Cent verwenden, z. B. 1.000,50."), code="invalid"
        )
    if len(cents) > 2:
        raise ValidationError(
            _("Höchstens zwei Stellen nach dem Komma: Beträge sind ganze Cent."), code="precision"
        )
    if match["sign"] in {"-", "−"}:
        raise ValidationError(_("Der Betrag darf nicht negativ sein."), code="negative")
    amount = int(euros.replace(".", "")) * 100 + int(cents.ljust(2, "0"))
    if amount > MAX_CENTS:
        raise ValidationError(_("Der Betrag darf höchstens 10.000,00 € sein."), code="max_value")
    return amount


def euro_input(cents: int) -> str:
    """Cents as people type them: 10 -> "0,10", 150 -> "1,50" (for form fields)."""
    euros, rest = divmod(cents, 100)  # display only: splitting a stored amount for a field
    return f"{euros},{rest:02d}"


class EuroField(forms.Field):
    """A money amount typed in euros, cleaned to integer cents."""

    widget = forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"})

    def prepare_value(self, value):
        return euro_input(value) if isinstance(value, int) else value

    def to_python(self, value):
        if value in self.empty_values:
            if self.required:
                raise ValidationError(
                    _("Bitte einen Betrag eingeben, z. B. 0,10."), code="required"
                )
            return None
        if isinstance(value, int):
            return value
        return parse_euro(str(value))

    def validate(self, value):
        """to_python has checked everything."""


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ["name"]


class ClubScopedForm(forms.ModelForm):
    """A form for an object of one club whose name is unique in the club.

    The club is not a form field, so Django would skip the constraints that name it;
    they are checked here, and a clash is reported at the name field.
    """

    duplicate_message = ""

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.instance.club = club

    def validate_constraints(self):
        exclude = self._get_validation_exclusions() - {"club"}
        try:
            self.instance.validate_constraints(exclude=exclude)
        except ValidationError:
            self.add_error("name", self.duplicate_message)


class RundeForm(ClubScopedForm):
    duplicate_message = _("Diese Runde gibt es im Verein schon.")

    class Meta:
        model = Runde
        fields = ["name"]


class PlayerForm(ClubScopedForm):
    duplicate_message = _("Einen Spieler mit diesem Namen gibt es im Verein schon.")

    class Meta:
        model = Player
        fields = ["name", "active"]


class PlayerEditForm(PlayerForm):
    """The admin renames a player, retires them, or links them to a member's login."""

    class Meta(PlayerForm.Meta):
        fields = ["name", "active", "user"]
        labels = {"user": _("Konto")}
        help_texts = {
            "user": _("Ein Mitglied, das noch keinen Spieler hat: so sieht es seine Spiele.")
        }

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, club=club, **kwargs)
        # Members of the club whose login is not yet any player's (or is this one's).
        taken = club.players.exclude(pk=self.instance.pk).exclude(user=None).values("user")
        users = self.fields["user"].queryset
        self.fields["user"].queryset = users.filter(memberships__club=club).exclude(pk__in=taken)
        self.fields["user"].label_from_instance = lambda u: u.get_short_name() or u.username
        self.fields["user"].empty_label = _("kein Konto")


class TariffForm(forms.ModelForm):
    """Every parameter of seed 001's tariff; amounts typed in euros, stored in cents.

    The engine's own validation (scoring.validate_rules) runs last, and its German
    message lands at the field it names.
    """

    sauspiel = EuroField(label=_("Sauspiel"))
    farbsolo = EuroField(label=_("Farbsolo"))
    wenz = EuroField(label=_("Wenz"))
    ramsch = EuroField(label=_("Ramsch"))
    laufende = EuroField(label=_("je Laufendem"))
    schneider = EuroField(label=_("Schneider"))
    schwarz = EuroField(label=_("Schwarz"))

    class Meta:
        model = Tariff
        fields = [*Tariff.RULE_FIELDS, "settle_unit"]
        widgets = {
            "laufende_min": forms.NumberInput(attrs={"inputmode": "numeric", "min": 1, "max": 14}),
            "laufende_max": forms.NumberInput(attrs={"inputmode": "numeric", "min": 1, "max": 14}),
            "laufende_min_wenz": forms.NumberInput(
                attrs={"inputmode": "numeric", "min": 1, "max": 4}
            ),
        }
        error_messages = {
            name: {
                "required": _("Bitte eine Zahl eingeben."),
                "invalid": _("Bitte eine ganze Zahl eingeben."),
            }
            for name in ("laufende_min", "laufende_max", "laufende_min_wenz")
        }

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        try:
            validate_rules(self.rules())
        except ScoringError as error:
            field = error.key if error.key in self.fields else None
            self.add_error(field, error.message_de)
        return cleaned

    def validate_constraints(self):
        """The engine has checked the same ranges, with its messages at the fields."""

    def rules(self) -> TariffRules:
        """The engine's rules from the cleaned data (valid forms only)."""
        values = {name: self.cleaned_data[name] for name in Tariff.RULE_FIELDS}
        values["bock"] = BockMode(values["bock"])
        return TariffRules(**values)


class InvitationForm(forms.ModelForm):
    class Meta:
        model = Invitation
        fields = ["role"]


class RoleForm(forms.Form):
    """A plain form: binding must not change the membership before the service checks it."""

    role = forms.ChoiceField(label=_("Rolle"), choices=Membership.Role.choices)
