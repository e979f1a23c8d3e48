import dataclasses
import re
from collections.abc import Callable

from django import forms
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from clubs.models import (
    Club,
    Invitation,
    Membership,
    Player,
    Runde,
    Tariff,
    german_order,
    near_name,
    one_line,
    reads_alike,
)
from clubs.services import (
    former_member_s,
    kept_for_former_members,
    not_to_be_had,
    reserved,
)
from scoring import BockMode, ScoringError, TariffRules, format_cents, validate_rules
from scoring.validation import laufende_range_de

# The largest amount a tariff field takes: 10.000,00 € (and a PositiveIntegerField fits it).
MAX_CENTS = 1_000_000

# "1.234,56" / "1234,5" / "0,10" / "1" / "0.10" / "1.000.000" (German thousands), "1,-"
# (whole euros, as prices are written), "€" optional.
_EURO = re.compile(
    r"""^(?:€|EUR)?\s*(?P<sign>[-+−]?)\s*
        (?P<euros>\d{1,3}(?:\.\d{3})+|\d+)?
        (?:(?P<sep>[,.])(?P<cents>\d*|[-–]))?
        \s*(?:€|EUR|Euro)?$""",
    # Digits are 0-9 only: an Arabic-Indic or a full-width digit is no amount.
    re.VERBOSE | re.IGNORECASE | re.ASCII,
)


# "50ct", "20 Cent": said in cents, and taken as such.
_IN_CENTS = re.compile(r"^(?P<cents>\d{1,9})(?:ct|cent|cents)\.?$", re.IGNORECASE | re.ASCII)


def parse_euro(text: str) -> int:
    """Parse an amount as people type it ("0,10", "0,5", "1", "1,-", "1.000,00", "50ct")
    into cents.

    Exact: only integers are involved, so "0,105" is refused rather than rounded. A dot
    followed by one or two digits is read as a decimal point ("0.10"), which is what a
    phone's number pad often offers; dots before a comma ("1.000,50") or more than one
    ("1.000.000") separate thousands. A single dot followed by exactly three digits and no
    comma could be either ("1.000": one euro as "1.5" is, or a thousand?), so it is
    refused with both readings spelled out rather than guessed.
    """
    value = _spaced(text)
    if not value:
        raise ValidationError(_("Bitte einen Betrag eingeben, z. B. 0,10."), code="required")
    if (in_cents := _IN_CENTS.match(value)) is not None:
        return _at_most(int(in_cents["cents"]))
    match = _EURO.match(value)
    whole = match is not None and match["cents"] in ("-", "–")
    if not match or (match["euros"] is None and (whole or not match["cents"])):
        if re.search(r"ct|cent|pf|\dc\.?$", value, re.IGNORECASE):  # "0,50 ct", "50c", "10 Pf"
            raise ValidationError(
                _("Cent bitte als ganze Zahl (50 ct) oder in Euro (0,50) schreiben."),
                code="invalid",
            )
        raise ValidationError(
            _("Bitte einen Betrag in Euro eingeben, z. B. 0,10 oder 1,50."), code="invalid"
        )
    euros, sep, cents = match["euros"] or "0", match["sep"], "" if whole else match["cents"] or ""
    if sep is None and euros.count(".") == 1:
        # "1.000": the pattern took the dot for a thousands separator, but it may as well
        # be the decimal point.
        (euros, cents), sep = euros.split("."), "."
    if sep == "." and len(cents) == 3 and "." not in euros:
        raise _ambiguous(text.strip(), euros, cents)
    if sep == "." and "." in euros:
        raise ValidationError(
            _("Bitte ein Komma vor den Cent verwenden, z. B. 1.000,50."), code="invalid"
        )
    if len(cents) > 2:
        raise ValidationError(
            _("Höchstens zwei Stellen nach dem Komma: Beträge sind ganze Cent."), code="precision"
        )
    if match["sign"] in {"-", "−"}:
        raise ValidationError(_("Der Betrag darf nicht negativ sein."), code="negative")
    return _at_most(int(euros.replace(".", "")) * 100 + int(cents.ljust(2, "0")))


def _at_most(amount: int) -> int:
    if amount > MAX_CENTS:
        raise ValidationError(_("Der Betrag darf höchstens 10.000,00 € sein."), code="max_value")
    return amount


# Spaces of any kind (a phone's keyboard may type a no-break space).
_SPACES = re.compile(r"\s+")
# A space between thousands, as in "1 000,50": a group of one to three digits that does
# not start with 0, then groups of exactly three.
_THOUSANDS = re.compile(r"(?<![\d.,])[1-9]\d{0,2}(?: \d{3})+(?!\d)")


def _spaced(text: str) -> str:
    """`text` without its spaces. A space between digits only separates thousands: "0 10"
    (a comma mistyped) is refused, not read as 10 €."""
    value = _THOUSANDS.sub(lambda m: m[0].replace(" ", ""), _SPACES.sub(" ", text.strip()))
    if re.search(r"\d \d", value):
        raise ValidationError(
            _(
                "„%(typed)s“: ein Leerzeichen trennt nur Tausender (1 000,00) – "
                "bitte die Cent mit Komma schreiben, z. B. 0,10."
            ),
            code="spaced",
            params={"typed": text.strip()},
        )
    return value.replace(" ", "")


def _ambiguous(typed: str, euros: str, cents: str) -> ValidationError:
    """ "1.500" could be 1,50 € or 1.500,00 €: the message spells out how to write either."""
    whole = str(int(euros + cents))
    if cents.endswith("0"):  # "1.500" reads as 1,50 €; "1.505" has no reading in cents
        message = _("„%(typed)s“ ist mehrdeutig – bitte so schreiben: %(decimal)s oder %(whole)s.")
    else:
        message = _("„%(typed)s“ ist mehrdeutig – bitte ohne Punkt schreiben: %(whole)s.")
    return ValidationError(
        message,
        code="ambiguous",
        params={"typed": typed, "decimal": f"{euros},{cents[:2]}", "whole": whole},
    )


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


class NameField(forms.CharField):
    """A name, as one line (clubs.models.one_line). One longer than its column takes is
    refused at the field, its length said; the browser does not cut it off unseen while
    it is pasted or typed (no maxlength attribute): "…von Großschönbrunn-" stays no name."""

    default_error_messages = {
        "required": _("Bitte einen Namen eingeben."),
        "max_length": _("Höchstens %(limit_value)d Zeichen, dieser Name hat %(show_value)d."),
    }

    def to_python(self, value):
        return one_line(super().to_python(value))

    def widget_attrs(self, widget):
        return {k: v for k, v in super().widget_attrs(widget).items() if k != "maxlength"}


# The form's only field: the cursor is in it when the page opens (walk 35).
ONLY_FIELD = {"name": forms.TextInput(attrs={"autofocus": True})}


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ["name"]
        field_classes = {"name": NameField}
        widgets = ONLY_FIELD


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
        field_classes = {"name": NameField}
        widgets = ONLY_FIELD


class PlayerForm(ClubScopedForm):
    """A new player: just the name. A new player is active (the model's default), so the
    next "Abend beginnen" offers them a seat."""

    duplicate_message = _("Einen Spieler mit diesem Namen gibt es im Verein schon.")
    # A new name one slip from a player's (near_name), asked about: sent again, it is meant.
    asked = ""

    class Meta:
        model = Player
        fields = ["name"]
        field_classes = {"name": NameField}

    def clean_name(self) -> str:
        """A name that reads as another player's on the chips ("Weiß" beside "Weiss") is
        refused like the same name (the unique constraint's, on lower(name))."""
        name = self.cleaned_data["name"]
        if name == self.instance.name:  # kept as it was (a retired player, say)
            return name
        alike = reads_alike(self.instance.club.players.exclude(pk=self.instance.pk), name)
        if alike is not None and alike.name.lower() != name.lower():
            raise ValidationError(
                _(
                    "%(name)s gibt es im Verein schon, und am Tisch wären die beiden kaum "
                    "auseinanderzuhalten. Bitte schreib den Namen anders, etwa mit dem "
                    "Anfangsbuchstaben des Vornamens."
                )
                % {"name": alike.name}
            )
        return name

    def asks_about_near_name(self, sure: str, question: str) -> bool:
        """Whether the name, valid, is one slip from a player's of the club (near_name)
        and not yet meant (`sure`: the name asked about, sent again): then asked once, at
        its field, with `question` ("%(near)s", "%(name)s"). Not an error: both may be
        meant (walk 79: "Tomi" beside the club's Toni became a player unasked)."""
        name = self.cleaned_data["name"]
        if sure == name or not (
            near := near_name(self.instance.club.players.filter(guest=False), name)
        ):
            return False
        self.asked = name
        self.add_error("name", question % {"near": near.name, "name": name})
        return True


class PlayerEditForm(PlayerForm):
    """The admin renames a player, retires them, or links them to a member's login."""

    class Meta(PlayerForm.Meta):
        fields = ["name", "active", "user"]
        labels = {"user": _("Konto")}
        help_texts = {
            "user": _(
                "Verknüpft den Spieler mit dem Konto eines Mitglieds, das noch keinen Spieler "
                "hat: dann sieht es dessen Spiele und Kontostand."
            )
        }

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, club=club, **kwargs)
        # Members of the club whose login is not yet any player's (or is this one's).
        taken = club.players.exclude(pk=self.instance.pk).exclude(user=None).values("user")
        users = self.fields["user"].queryset
        self.fields["user"].queryset = (
            users.filter(memberships__club=club)
            .exclude(pk__in=taken)
            .order_by(german_order("first_name"), "username")
        )
        self.fields["user"].label_from_instance = lambda u: u.get_short_name() or u.username
        self.fields["user"].empty_label = _("kein Konto")


# A base value above this many cents is asked about in the tariff's preview (unusual).
UNUSUAL_BASE = 1000


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
            "laufende_min": forms.NumberInput(attrs={"inputmode": "numeric", "max": 14}),
            "laufende_max": forms.NumberInput(attrs={"inputmode": "numeric", "max": 14}),
            "laufende_min_wenz": forms.NumberInput(attrs={"inputmode": "numeric", "max": 4}),
            # Each rule whole on a small phone, where a select cut "… verlorenem Solo".
            "bock": forms.RadioSelect,
        }
        help_texts = {
            # The Runde's accounts settle everything so far, so they take it at once.
            "settle_unit": _(
                "Für die Abrechnung der Abende mit diesem Tarif; die Konten der Runde "
                "rechnen schon beim Speichern so."
            ),
            "bock": _(
                "Nach einem Auslöser zählen die nächsten 4 Spiele doppelt. Ein Auslöser in "
                "einer Bockrunde beginnt die 4 von vorn, gestapelt wird nicht. Eine Bockrunde "
                "gilt nur am laufenden Abend, auch an einem neuen Tisch desselben Abends, "
                "solange er mit demselben Tarif spielt."
            ),
            "jungfrau": _(
                "Nur beim Ramsch: wer keinen Stich macht (eine Jungfrau), verdoppelt den "
                "Ramsch, höchstens zweimal."
            ),
        }
        error_messages = {
            name: {
                "required": _("Bitte eine Zahl eingeben."),
                "invalid": _("Bitte eine ganze Zahl eingeben."),
                # Below the model field's own minimum (0), the engine's words for 0
                # ("-1" was "größer oder gleich 0", and then 0 was not).
                "min_value": laufende_range_de(name),
            }
            for name in ("laufende_min", "laufende_max", "laufende_min_wenz")
        }

    LAUFENDE_FIELDS = ("laufende_min", "laufende_max", "laufende_min_wenz")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The model fields' own minimum is 0 (positive integers), and the form field writes
        # it into the input over the widget's attributes; the rules start at one Laufender.
        for name in self.LAUFENDE_FIELDS:
            self.fields[name].widget.attrs["min"] = 1

    def clean(self):
        """Every error at once: the engine checks the rules as typed, each field typed
        wrong standing in with a valid value. After each error the engine names, that
        field too stands in, and the rest are checked again (so "Laufende ab 0,
        höchstens 20" gets both its messages, and "0,2O" does not hide them)."""
        cleaned = super().clean()
        rules = TariffRules(
            **{
                name: self._rule(name, cleaned[name]) if name in cleaned else self._stand_in(name)
                for name in Tariff.RULE_FIELDS
            }
        )
        for _attempt in Tariff.RULE_FIELDS:
            try:
                validate_rules(rules)
            except ScoringError as error:
                field = error.key if error.key in self.fields else None
                message = error.message_de
                if field == "laufende_max" and self.has_error("laufende_min"):
                    # Not "der Schwelle (1)": that is the stand-in, not what was typed.
                    message = laufende_range_de(field)
                if field is None or not self.has_error(field):
                    self.add_error(field, message)
                if field is None:
                    break
                rules = dataclasses.replace(rules, **{field: self._stand_in(field)})
            else:
                break
        return cleaned

    @staticmethod
    def _stand_in(name: str):
        """A valid value for a field typed wrong: the default, but for the Laufende
        threshold 1, so that the cap is checked only against the bounds every threshold
        allows."""
        return 1 if name == "laufende_min" else getattr(TariffRules(), name)

    @staticmethod
    def _rule(name: str, value):
        return BockMode(value) if name == "bock" else value

    def validate_constraints(self):
        """The engine has checked the same ranges, with its messages at the fields."""

    AMOUNT_FIELDS = ("sauspiel", "farbsolo", "wenz", "ramsch", "laufende", "schneider", "schwarz")

    @property
    def asked_key(self) -> str:
        """The questions the preview asks, as one line: a save sent with it (the page
        that showed them, `bestaetigt`) confirms them; without it, they are asked first."""
        return " | ".join(str(question["text"]) for question in self.asked)

    @property
    def asked(self) -> list[dict]:
        """What the preview asks about (bound, valid forms), each question with its field's
        name and an id, so the field can be described by it:

        - an amount typed as a bare whole number of 5 or more ("10" for Schwarz): euros, as
          the form says, but perhaps meant as cents, as the seed counts;
        - what a slip of the thumb may have made of the tariff: a Solo or Wenz cheaper than
          a Sauspiel or dearer than ten, a base value of 0 or above 10 €, an extra
          (Laufende, Schneider, Schwarz) dearer than the dearest game.

        Not errors, as a club may mean them: the preview asks."""
        data = getattr(self, "cleaned_data", {})
        said: list[dict] = []

        def ask(name: str, question: str, **values) -> None:
            field = self[name]
            said.append(
                {
                    "field": field.auto_id,
                    "id": f"{field.auto_id}_asked{len(said)}",
                    "text": question % {"label": capfirst(field.label), **values},
                }
            )

        for name in self.AMOUNT_FIELDS:
            typed = str(self.data.get(self.add_prefix(name), "")).strip()
            cents = data.get(name)
            if re.fullmatch(r"\d{1,5}", typed) and int(typed) >= 5 and cents is not None:
                ask(
                    name,
                    _(
                        "%(label)s: „%(typed)s“ sind %(euros)s. Sind %(typed)s Cent gemeint, "
                        "bitte %(meant)s schreiben."
                    ),
                    typed=typed,
                    euros=format_cents(cents),
                    meant=euro_input(int(typed)),
                )
        as_cents = {question["field"] for question in said}
        sauspiel = data.get("sauspiel")
        for name in ("farbsolo", "wenz"):
            value = data.get(name)
            if sauspiel is not None and value is not None and value < sauspiel:
                ask(
                    name,
                    _(
                        "%(label)s: %(amount)s, weniger als ein Sauspiel (%(sauspiel)s). "
                        "So gewollt?"
                    ),
                    amount=format_cents(value),
                    sauspiel=format_cents(sauspiel),
                )
        for name in ("sauspiel", "farbsolo", "wenz", "ramsch"):
            value = data.get(name)
            if value is not None and value > UNUSUAL_BASE and self[name].auto_id not in as_cents:
                ask(
                    name,
                    _("%(label)s: %(amount)s je Gegenspieler. So gewollt?"),
                    amount=format_cents(value),
                )
            elif value == 0:
                ask(name, _("%(label)s: 0,00 €, so ein Spiel kostet nichts. So gewollt?"))
            elif (
                name in ("farbsolo", "wenz")
                and value is not None
                and sauspiel
                and value > 10 * sauspiel
                and self[name].auto_id not in as_cents
            ):
                # Walk 73: "5,0" typed for 0,50: a comma one place off.
                ask(
                    name,
                    _(
                        "%(label)s: %(amount)s, mehr als zehnmal ein Sauspiel (%(sauspiel)s). "
                        "So gewollt?"
                    ),
                    amount=format_cents(value),
                    sauspiel=format_cents(sauspiel),
                )
        # An extra dearer than the dearest game it comes with ("1,00" for Schneider, meant
        # 0,10; walk 73): a game itself asked about is no measure (walk 74: a Farbsolo of
        # "5,0" made a Schneider of 1,00 € look cheap).
        asked_about = {question["field"] for question in said}
        bases = [
            data.get(name)
            for name in ("sauspiel", "farbsolo", "wenz")
            if self[name].auto_id not in asked_about
        ]
        dearest = max((value for value in bases if value is not None), default=None)
        for name in ("laufende", "schneider", "schwarz"):
            value = data.get(name)
            if (
                dearest
                and value is not None
                and value > dearest
                and self[name].auto_id not in as_cents
            ):
                ask(
                    name,
                    _(
                        "%(label)s: %(amount)s, mehr als das teuerste Spiel (%(dearest)s). "
                        "So gewollt?"
                    ),
                    amount=format_cents(value),
                    dearest=format_cents(dearest),
                )
        return said

    @property
    def invalid_labels(self) -> list[str]:
        """The labels of the fields with an error, in the form's order (bound forms)."""
        return [str(field.label) for field in self if field.errors]

    def rules(self) -> TariffRules:
        """The engine's rules from the cleaned data (valid forms only)."""
        return TariffRules(
            **{name: self._rule(name, self.cleaned_data[name]) for name in Tariff.RULE_FIELDS}
        )


class InvitationForm(forms.ModelForm):
    """A link for anyone, or for one player of the club who has no login yet."""

    # Declared rather than generated: a model field's choices would start with a blank.
    role = forms.ChoiceField(
        label=_("Rolle"),
        choices=Membership.Role.choices,
        initial=Membership.Role.PLAYER,
        error_messages={"invalid_choice": _("Diese Rolle gibt es nicht.")},
        help_text=_(
            "Spieler sehen Abende, Konten und Statistik; Schreiber tragen auch Spiele und "
            "Zahlungen ein; Admins richten dazu Verein, Runden, Tarife und Mitglieder ein. "
            "Ein Link als Spieler oder Schreiber gilt für alle, die ihn bekommen; ein Link "
            "als Admin nur für den Ersten, der damit beitritt."
        ),
    )

    class Meta:
        model = Invitation
        fields = ["role", "player"]
        labels = {"player": _("Für")}
        error_messages = {
            "player": {
                "invalid_choice": _(
                    "Diesen Spieler gibt es im Verein nicht, oder er hat schon ein Konto."
                )
            }
        }

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.instance.club = club
        player = self.fields["player"]
        player.queryset = club.players.filter(user=None)
        player.empty_label = _("jeden, der den Link bekommt")
        player.help_text = _(
            "Für einen Spieler: wer beitritt, wird dieser Spieler, mit seinen Spielen."
        )


class JoinForm(forms.Form):
    """Who the newcomer is in the club: one of its players without a login, or someone new.

    Nobody becomes a second player silently: a new name that is already taken is an error
    at the name, pointing to the player of that name.
    """

    NEW = "neu"

    who = forms.ChoiceField(
        label=_("Wer bist du?"),
        widget=forms.RadioSelect,
        error_messages={
            "required": _("Bitte wähle, wer du bist."),
            "invalid_choice": _(
                "Diesen Spieler gibt es ohne Konto nicht mehr. Bitte wähle noch einmal."
            ),
        },
    )
    name = NameField(label=_("Dein Name im Verein"), max_length=40, required=False)
    # The new name asked about (near_name) and sent again: it is meant.
    sure = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, data=None, *, club: Club, name: str):
        self.club = club
        # Who plays now: a player set inactive (gone, or a name typed by mistake) is not
        # offered to everyone with the link; they come back with a link of their own.
        # Nor is a player with a link of their own still open: it is for them.
        # Nor the player of someone who left or was removed: a link for anyone brings
        # them back as that player (clubs.services.former_player), nobody else.
        candidates = list(
            club.players.filter(user=None, active=True)
            .exclude(pk__in=club.invitations.usable().filter(player__isnull=False).values("player"))
            .exclude(pk__in=kept_for_former_members(club))
        )
        # A guest of the club's tournaments, from anywhere, is offered only to someone of
        # their name (the account's, or the one typed): a club's link is not a list of
        # every stranger who once played at its door.
        same = reads_alike(candidates, name)
        typed = one_line((data or {}).get("name", ""))
        named = reads_alike(candidates, typed) if typed else None
        self.unlinked = [p for p in candidates if not p.guest or p in (same, named)]
        # Preselected: the player of the newcomer's name, if any; "neu im Verein" only if
        # there is nobody else to be. Otherwise nothing: someone the club knows as "Vroni"
        # who signed up as "Veronika" would tap "Beitreten" and become a second player.
        who = str(same.pk) if same else None if self.unlinked else self.NEW
        initial = {"who": who, "name": name[:40]}
        if data is not None and "who" not in data:
            # Sent without the page's form (an old page, a script): take what the page
            # would have preselected; a clash is still an error at the name.
            data = data.copy()
            for key, value in initial.items():
                if value is not None:
                    data.setdefault(key, value)
        super().__init__(data, initial=initial)
        self.fields["who"].choices = [
            *((str(p.pk), p.name) for p in self.unlinked),
            (self.NEW, _("neu im Verein")),
        ]

    def clean(self):
        cleaned = super().clean()
        if self.has_error("who", "invalid_choice"):
            # Picked on the page, gone since: said by name, and why.
            picked = str(self.data.get("who", ""))
            known = re.fullmatch(r"[0-9]{1,18}", picked)
            gone = self.club.players.filter(pk=picked).first() if known else None
            if gone is not None:
                self.errors["who"] = self.error_class([self._gone(gone)])
        if cleaned.get("who") != self.NEW:
            return cleaned
        name = cleaned.get("name", "")
        if "name" in self.errors:  # too long: said at the field already
            return cleaned
        if not name:
            self.add_error("name", _("Bitte gib den Namen ein, unter dem du spielst."))
        elif taken := reads_alike(self.club.players.all(), name):
            self.add_error("name", self._taken(taken))
        elif cleaned.get("sure") != name and (near := self._near(name)):
            self.asked = name
            self.add_error("name", near)
        return cleaned

    def _near(self, name: str) -> str | None:
        """The question about a new `name` one slip from a player's the newcomer may be,
        or None. Also of the club's players not offered here, each with what they would
        do instead (walks 71, 74: "Dieterr" joined beside an inactive "Dieter", "Karl"
        beside a "Carl" with an account, "Emill" beside an "Emil" who left, unasked)."""
        if near := near_name(self.unlinked, name):
            what = _("Dann wähle oben „%(near)s“.")
        elif near := near_name(
            self.club.players.filter(guest=False).exclude(pk__in=[p.pk for p in self.unlinked]),
            name,
        ):
            what = self._instead(near)
        else:
            return None
        question = _(
            "Bist du %(near)s? %(what)s Bist du neu im Verein, als %(name)s, dann nochmal "
            "„Beitreten“ tippen."
        )
        return question % {"near": near.name, "name": name, "what": what % {"near": near.name}}

    def _instead(self, near: Player) -> str:
        """What someone who is `near`, a player not offered on this page, does instead."""
        if near.user_id is not None:
            return _("%(near)s spielt schon mit eigenem Konto: dann melde dich damit an.")
        # Who left comes back as their player with any link, also set inactive since
        # (walk 76: told to ask the admin).
        if kept_for_former_members(self.club).filter(player=near).exists():
            if near.departures.filter(user__is_active=True).exists():
                return _("Dann tritt mit deinem früheren Konto bei.")
            return _("Dein früheres Konto ist gelöscht: dann frag den Admin nach einem Link.")
        if not near.active:
            return _(
                "%(near)s spielt gerade nicht mit: dann bitte den Admin um einen "
                "Einladungslink für %(near)s."
            )
        return _(
            "Für %(near)s gibt es einen eigenen Einladungslink: nimm bitte diesen (hast du "
            "ihn nicht, frag den Admin des Vereins danach)."
        )

    # The new name asked about, to be sent again as `sure`.
    asked = ""

    def _gone(self, player: Player) -> str:
        """Why a player picked on the page is not to be had any more."""
        return (
            not_to_be_had(self.club, player) or self.fields["who"].error_messages["invalid_choice"]
        )

    def _taken(self, taken: Player) -> str:
        """Why a new player cannot have the name of `taken`, and what to do instead."""
        if taken.user_id is not None:
            message = _(
                "%(name)s spielt im Verein schon, mit eigenem Konto. Bitte wähle einen "
                "anderen Namen."
            )
        elif not taken.active:
            message = _(
                "%(name)s gibt es im Verein schon, spielt aber gerade nicht mit. Bist du "
                "das? Dann bitte den Admin um einen Einladungslink für %(name)s, sonst "
                "wähle einen anderen Namen."
            )
        elif taken not in self.unlinked:
            if kept_for_former_members(self.club).filter(player=taken).exists():
                return former_member_s(taken)
            return reserved(taken)
        else:
            message = _(
                "%(name)s gibt es im Verein schon. Bist du das? Dann wähle oben "
                "„%(name)s“, sonst einen anderen Namen."
            )
        return message % {"name": taken.name}

    @property
    def player(self) -> Player | None:
        """The chosen existing player (valid forms only); None for someone new."""
        who = self.cleaned_data["who"]
        return None if who == self.NEW else next(p for p in self.unlinked if str(p.pk) == who)

    @property
    def new_name(self) -> str:
        return self.cleaned_data["name"] if self.player is None else ""


class RoleForm(forms.Form):
    """A plain form: binding must not change the membership before the service checks it."""

    role = forms.ChoiceField(label=_("Rolle"), choices=Membership.Role.choices)


def save_unless_taken[T](
    form: forms.BaseForm,
    save: Callable[[], T],
    constraint: str | tuple[str, ...],
    field: str,
    message: str,
) -> T | None:
    """`save()` what a valid form describes; None, with `message` at `field`, if the
    database's unique `constraint` (or one of several) refuses it.

    The form checked that the name is free, but the other request of a double tap may
    have saved the same name since: then this one answers as if it had come second.
    Any other IntegrityError is a bug and is raised.
    """
    try:
        with transaction.atomic():
            return save()
    except IntegrityError as error:
        diag = getattr(error.__cause__, "diag", None)
        names = (constraint,) if isinstance(constraint, str) else constraint
        if getattr(diag, "constraint_name", None) not in names:
            raise
    form.add_error(field, message)
    return None
