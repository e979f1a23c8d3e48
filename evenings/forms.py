import copy
import uuid
from html import escape

from django import forms
from django.core.exceptions import ValidationError
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from clubs.forms import EuroField
from clubs.models import Player, Tariff
from evenings.models import Game
from evenings.services import SEATS, Deal, GameInput
from scoring.model import MAX_LAUFENDE, MAX_LAUFENDE_WENZ

# One tap chooses the game and, for a Farbsolo, its suit.
SPIELE = [
    ("sauspiel", _("Sauspiel")),
    ("farbsolo:eichel", _("Eichel-Solo")),
    ("farbsolo:gras", _("Gras-Solo")),
    ("farbsolo:herz", _("Herz-Solo")),
    ("farbsolo:schellen", _("Schellen-Solo")),
    ("wenz", _("Wenz")),
    ("ramsch", _("Ramsch")),
]
# A ProHof tournament table (seed 000): no Sauspiel, Farbsolo or Ramsch; "Über Kreuz"
# when nobody played.
PROHOF_SPIELE = [
    ("rufspiel", _("Rufspiel")),
    ("solo:eichel", _("Eichel-Solo")),
    ("solo:gras", _("Gras-Solo")),
    ("solo:herz", _("Herz-Solo")),
    ("solo:schellen", _("Schellen-Solo")),
    ("wenz", _("Wenz")),
    ("ueberkreuz", _("Über Kreuz")),
]
# ProHof counts every Laufender from the first, Ober and Unter: at most 8, at the Wenz 4.
PROHOF_MAX_LAUFENDE = 8
KONTRA = [(0, _("ohne")), (1, _("Kontra")), (2, _("Re"))]
WON = [("1", _("gewonnen")), ("0", _("verloren"))]
NOT_AT_THE_TABLE = _("Dieser Spieler spielt dieses Spiel nicht mit.")
# The first Laufende chip: a word, not a dash, which a screen reader reads as "Strich".
NO_LAUFENDE = _("keine")
# The fields that name players of the game: a new deal may seat others.
PLAYER_FIELDS = ("declarer", "partner", "loser", "jungfrauen")
# What the preview waits for while a game lacks one of its players, the first first.
WAITING_FOR = {
    "declarer": _("Vorschau: Spieler wählen"),
    "partner": _("Vorschau: Mitspieler wählen"),
    "loser": _("Vorschau: Verlierer wählen"),
}


class ChipSelect(forms.RadioSelect):
    """Radio buttons drawn as thumb-sized chips (see app.css).

    Rendered here rather than through a template per option: the entry screen has some
    fifty chips, and templates made them the slowest part of answering a booking. The
    option a fresh form starts with carries `data-default`, so that the screen can set
    itself back after a booking without the server sending every chip again.
    """

    input_type = "radio"
    default: str | None = None  # set by the form: str(field.initial)

    def render(self, name, value, attrs=None, renderer=None):
        values = value if isinstance(value, list | tuple) else [value]
        chosen = {str(v) for v in values if v is not None}
        attrs = self.build_attrs(self.attrs, attrs)
        # Python's html.escape is Django's escape() without its lazy-string wrapper,
        # which cost more than the chips themselves.
        invalid = ' aria-invalid="true"' if attrs.get("aria-invalid") else ""
        start = (
            f'<label class="chip"><input type="{self.input_type}" name="{escape(name)}"'
            f'{invalid} value="'
        )
        chips = "".join(
            f"{start}{escape(str(option))}"
            f'"{" checked" if str(option) in chosen else ""}'
            f"{' data-default' if str(option) == self.default else ''}>"
            f"<span>{escape(str(label))}</span></label>"
            for option, label in self.choices
        )
        return mark_safe(f'<div class="chips" id="{escape(attrs.get("id", ""))}">{chips}</div>')


class ChipMultiple(ChipSelect, forms.CheckboxSelectMultiple):
    input_type = "checkbox"


class _FreshFields(dict):
    """A form's declared fields, copied for each form as Django copies them, but sharing
    their choices: Django deep-copies every choice list and normalises it again, which
    was a tenth of answering a booking (two forms of some fifteen chip fields). Shared
    is safe here: the form replaces a field's choices, it never changes them in place."""

    def __deepcopy__(self, memo) -> dict:
        return {name: _fresh(field) for name, field in self.items()}


def _fresh(field: forms.Field) -> forms.Field:
    """What Field.__deepcopy__ makes, the choices shared rather than copied."""
    result = copy.copy(field)
    result.widget = copy.copy(field.widget)
    result.widget.attrs = field.widget.attrs.copy()
    result.error_messages = field.error_messages.copy()
    result.validators = field.validators[:]
    return result


class GameForm(forms.Form):
    """The entry screen: only what the Runde's tariff and the chosen game need.

    The common case is preselected (Sauspiel, won, no Laufende), so a plain Sauspiel is
    declarer, partner, save. Fields that do not apply to the chosen game are ignored, so
    a chip left checked from another game type never leaks into the booking.
    """

    key = forms.UUIDField(widget=forms.HiddenInput)
    # The deal this form was made for (Deal.token); the correction screen has none.
    deal = forms.CharField(widget=forms.HiddenInput, required=False)
    spiel = forms.ChoiceField(
        label=_("Spiel"), choices=SPIELE, widget=ChipSelect, initial="sauspiel"
    )
    declarer = forms.TypedChoiceField(
        label=_("Spieler"), coerce=int, required=False, empty_value=None, widget=ChipSelect
    )
    partner = forms.TypedChoiceField(
        label=_("Mitspieler (Ass)"), coerce=int, required=False, empty_value=None, widget=ChipSelect
    )
    won = forms.TypedChoiceField(
        label=_("Ergebnis"), choices=WON, coerce=lambda v: v == "1", initial="1", widget=ChipSelect
    )
    # What was played is recorded, up to all 14 trumps; the engine caps what is paid.
    laufende = forms.TypedChoiceField(
        label=_("Laufende"), coerce=int, initial=0, empty_value=0, widget=ChipSelect, required=False
    )
    # Beim Wenz sind nur die vier Unter Trumpf (seed 001): its own chips, 0 to 4.
    laufende_wenz = forms.TypedChoiceField(
        label=_("Laufende"), coerce=int, initial=0, empty_value=0, widget=ChipSelect, required=False
    )
    schneider = forms.BooleanField(label=_("Schneider"), required=False)
    schwarz = forms.BooleanField(label=_("Schwarz"), required=False)
    tout = forms.BooleanField(label=_("Tout"), required=False)
    angesagt = forms.BooleanField(label=_("Schneider angesagt"), required=False)
    # A Ramsch's own fields before Kontra: shown only for it, they come right after the
    # game (walk 68: at 320 px the loser's chips were below the fold, under Kontra).
    loser = forms.TypedChoiceField(
        label=_("Verlierer (meiste Augen)"),
        coerce=int,
        required=False,
        empty_value=None,
        widget=ChipSelect,
    )
    jungfrauen = forms.TypedMultipleChoiceField(
        label=_("Jungfrauen (kein Stich)"), coerce=int, required=False, widget=ChipMultiple
    )
    kontra = forms.TypedChoiceField(
        label=_("Kontra"), choices=KONTRA, coerce=int, initial=0, widget=ChipSelect
    )
    doubled = forms.TypedChoiceField(
        label=_("Gedoppelt"),
        choices=[(n, str(n)) for n in range(5)],
        coerce=int,
        initial=0,
        widget=ChipSelect,
    )

    # The evening's seats when the view has read them: the booking needs not read them again.
    seats: list | None = None
    # A carried-over form whose choices named a game another phone booked meanwhile (then
    # they were dropped): that game.
    repeated: Game | None = None
    # That game was booked with this form's key: this phone's own booking, whose answer
    # was lost on the way. The fresh form gets a new key.
    booked_here: bool = False
    # A carried-over form: the players the stale form had chosen who sit this deal out.
    left_out: tuple[int, ...] = ()

    def __init__(
        self, *args, tariff: Tariff, playing: list[Player], deal: Deal | None = None, **kwargs
    ):
        initial = kwargs.setdefault("initial", {})
        initial.setdefault("key", uuid.uuid4())
        if deal is not None:
            initial["deal"] = deal.token
        super().__init__(*args, **kwargs)
        self.tariff = tariff
        self.playing = playing
        people = [(p.pk, p.name) for p in playing]
        for name in PLAYER_FIELDS:
            self.fields[name].choices = people
            self.fields[name].error_messages["invalid_choice"] = NOT_AT_THE_TABLE
        self.fields["laufende"].choices = [(0, NO_LAUFENDE)] + [
            (n, str(n)) for n in range(tariff.laufende_min, MAX_LAUFENDE + 1)
        ]
        self.fields["laufende_wenz"].choices = [(0, NO_LAUFENDE)] + [
            (n, str(n)) for n in range(tariff.laufende_min_wenz, MAX_LAUFENDE_WENZ + 1)
        ]
        if tariff.is_prohof:
            self._for_prohof()
        else:
            del self.fields["angesagt"]
        for name in ("laufende", "laufende_wenz"):
            # A game's value for the Laufende it does not use (0) is no chip at a ProHof
            # table (from 1 there): its field's default, so the form is valid as shown.
            field = self.fields[name]
            if str(self.initial.get(name, field.initial)) not in {str(v) for v, _ in field.choices}:
                self.initial[name] = field.initial
        if not tariff.jungfrau and "jungfrauen" in self.fields:
            # Seed 001: who doesn't play it sees no control for it anywhere.
            del self.fields["jungfrauen"]
        for field in self.fields.values():
            if isinstance(field.widget, ChipSelect) and field.initial is not None:
                field.widget.default = str(field.initial)

    def _for_prohof(self) -> None:
        """Seed 000: only ProHof's games and announcements; no Kontra, no Doppeln, no
        Ramsch; Laufende from the first, at least one."""
        for name in ("kontra", "doubled", "loser", "jungfrauen"):
            del self.fields[name]
        self.fields["spiel"].choices = PROHOF_SPIELE
        self.fields["spiel"].initial = "rufspiel"
        self.fields["declarer"].label = _("Spieler (über Kreuz: wer den Alten hat)")
        self.fields["partner"].label = _("Mitspieler (gerufenes Ass)")
        self.fields["tout"].label = _("Tout angesagt")
        # "Mit oder ohne": the top trump is always with one side or the other, so every
        # game has at least one Laufender, and a game booked in three taps counts it.
        self.fields["laufende"].choices = [(n, str(n)) for n in range(1, PROHOF_MAX_LAUFENDE + 1)]
        self.fields["laufende_wenz"].choices = [
            (n, str(n)) for n in range(1, MAX_LAUFENDE_WENZ + 1)
        ]
        self.fields["laufende"].initial = self.fields["laufende_wenz"].initial = 1

    @classmethod
    def carried_over(cls, data, *, tariff: Tariff, deal: Deal) -> "GameForm":
        """A fresh form for `deal` that keeps every choice from the stale form `data`
        that still applies: the game, the result, Laufende, Kontra, ...; a player only
        if they play this deal too. The key stays: nothing was booked with it."""
        form = cls(tariff=tariff, playing=deal.seated, deal=deal)
        playing = {str(p.pk) for p in deal.seated}
        chosen = set()
        kept = {}
        for name, field in form.fields.items():
            raw = field.widget.value_from_datadict(data, None, form.add_prefix(name))
            if name in PLAYER_FIELDS:
                chosen.update(raw if isinstance(raw, list) else [raw or ""])
            if name == "jungfrauen":
                raw = [value for value in raw if value in playing]
            try:
                field.clean(raw)
            except ValidationError:
                continue
            kept[name] = raw
        kept.pop("deal", None)
        form.initial.update(kept)
        form.left_out = tuple(sorted(int(pk) for pk in chosen - playing if pk.isdigit()))
        return form

    @classmethod
    def names_game(cls, data, game: Game) -> bool:
        """Whether an entry form's posted `data` name `game`: the same kind of game, played
        by the same player(s), whatever else differs. Read as posted, before anything is
        dropped for the next deal (a player who sits that one out, say)."""
        theirs = cls.initial_for(game)
        who = {"ramsch": ["loser"], "ueberkreuz": ["declarer"]}.get(
            game.type, ["declarer", "partner"]
        )
        chosen = [str(data.get(name) or "") for name in who]
        return (
            str(data.get("spiel", "")) == theirs["spiel"]
            and any(chosen)
            and chosen == [str(theirs[name] or "") for name in who]
        )

    @property
    def player_fields(self) -> list[str]:
        """The fields whose chips are the players at the table."""
        return [name for name in PLAYER_FIELDS if name in self.fields]

    def has_choices(self) -> bool:
        """Whether anything differs from a fresh form (an unbound form's initial values)."""
        return any(
            value not in (None, "", [], False) and str(value) != str(self.fields[name].initial)
            for name, value in self.initial.items()
            if name not in ("key", "deal") and name in self.fields
        )

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        game_type = cleaned["spiel"].partition(":")[0]
        needs = {
            "sauspiel": ("declarer", "partner"),
            "rufspiel": ("declarer", "partner"),
            "farbsolo": ("declarer",),
            "solo": ("declarer",),
            "wenz": ("declarer",),
            "ueberkreuz": ("declarer",),
            "ramsch": ("loser",),
        }[game_type]
        missing = {
            "declarer": _("Bitte wählen, wer spielt."),
            "partner": _("Bitte den Mitspieler wählen."),
            "loser": _("Bitte wählen, wer den Ramsch verloren hat."),
        }
        for name in needs:
            if cleaned.get(name) is None:
                self.add_error(name, missing[name])
        return cleaned

    def chose_nobody(self) -> bool:
        """Whether the bound form names no player at all: sent as it was reset."""
        return not any(self.data.get(self.add_prefix(name)) for name in PLAYER_FIELDS)

    def waiting_for(self) -> str | None:
        """The preview's word for an invalid form: the first player the game lacks."""
        return next((WAITING_FOR[name] for name in WAITING_FOR if name in self.errors), None)

    def game_input(self) -> GameInput:
        """The booking as the engine will see it; only the fields the game type uses."""
        c = self.cleaned_data
        game_type, _sep, suit = c["spiel"].partition(":")
        common = {"kontra": c.get("kontra", 0), "doubled": c.get("doubled", 0)}
        if game_type == "ueberkreuz":
            # Nobody played: the holder of the Eichel Ober and the player opposite.
            return GameInput(
                type="ueberkreuz",
                declarer=c["declarer"],
                partner=self.opposite(c["declarer"]),
                won=c["won"],
                laufende=c["laufende"] or 0,
                schneider=c["schneider"] or c["schwarz"],
                schwarz=c["schwarz"],
            )
        if game_type == "ramsch":
            return GameInput(
                type="ramsch",
                won=False,
                loser=c["loser"],
                jungfrauen=tuple(sorted(c.get("jungfrauen") or ())),
                **common,
            )
        solo = game_type not in ("sauspiel", "rufspiel")
        laufende = c["laufende_wenz"] if game_type == "wenz" else c["laufende"]
        if "angesagt" in c:
            common["angesagt"] = c["angesagt"]
        return GameInput(
            type=game_type,
            declarer=c["declarer"],
            partner=None if solo else c["partner"],
            suit=suit,
            won=c["won"],
            laufende=laufende or 0,
            schneider=c["schneider"] or c["schwarz"] or (solo and c["tout"]),
            schwarz=c["schwarz"] or (solo and c["tout"]),
            tout=solo and c["tout"],
            **common,
        )

    def opposite(self, player_id: int) -> int | None:
        """Who sits opposite `player_id` among the four playing this game."""
        ids = [p.pk for p in self.playing]
        if len(ids) != 4 or player_id not in ids:
            return None
        return ids[(ids.index(player_id) + 2) % 4]

    @classmethod
    def initial_for(cls, game: Game) -> dict:
        """The form's values for an existing game (the correction screen)."""
        spiel = f"{game.type}:{game.suit}" if game.type in ("farbsolo", "solo") else game.type
        return {
            "key": game.key,
            "spiel": spiel,
            "declarer": game.declarer_id,
            "partner": game.partner_id,
            # A Ramsch is stored as lost; corrected into another game, that game starts
            # from "gewonnen", as a new booking does.
            "won": "1" if game.won or game.type == "ramsch" else "0",
            "laufende": 0 if game.type == "wenz" else game.laufende,
            "laufende_wenz": game.laufende if game.type == "wenz" else 0,
            # As the entry form sent them: a Tout counts as Schwarz, a Schwarz as
            # Schneider, without their boxes; ticked here, they would stay when the
            # correction takes the Tout or the Schwarz back.
            "schneider": game.schneider and not (game.schwarz or game.tout),
            "schwarz": game.schwarz and not game.tout,
            "tout": game.tout,
            "angesagt": game.angesagt,
            "kontra": game.kontra,
            "doubled": game.doubled,
            "loser": game.loser_id,
            "jungfrauen": list(game.jungfrauen),
        }


# After the class: Django's form metaclass sets base_fields once the class is made.
GameForm.base_fields = _FreshFields(GameForm.base_fields)


def _seat_label(player) -> str:
    """A player offered for a seat; one who left the club marked (walk 76)."""
    if player.gone:
        return _("%(name)s (ausgeschieden)") % {"name": player.name}
    return player.name


class StartForm(forms.Form):
    """Who is present, in seating order, and who deals first."""

    # Sent again (a double tap, a retry), the form starts no second evening.
    key = forms.UUIDField(widget=forms.HiddenInput, required=False, initial=uuid.uuid4)
    # Asked for only when the same players already sit at an open evening of the Runde
    # (Back after "Los geht's", or a second phone at the table).
    again = forms.BooleanField(label=_("Ja, trotzdem einen neuen Abend beginnen"), required=False)
    first_dealer = forms.TypedChoiceField(
        label=_("Erster Geber"),
        coerce=int,
        choices=[(i, _("Platz %(n)s") % {"n": i + 1}) for i in range(max(SEATS))],
        initial=0,
        widget=ChipSelect,
    )

    def __init__(self, *args, players: list[Player], **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(p.pk, _seat_label(p)) for p in players]
        self.seat_names = []
        for i in range(max(SEATS)):
            name = f"seat{i}"
            self.fields[name] = forms.TypedChoiceField(
                label=_("Platz %(n)s") % {"n": i + 1},
                choices=choices,
                coerce=int,
                # An empty place between two taken ones is no mistake: the table closes
                # up (the players sit in the order of their places).
                required=False,
                empty_value=None,
                # Deleted by another admin while the form was open (walk 47: "21 ist
                # keine gültige Auswahl"); one retired is named (clean).
                error_messages={
                    "invalid_choice": _(
                        "Wer hier gewählt war, ist inzwischen gelöscht: bitte den Platz neu wählen."
                    )
                },
            )
            self.seat_names.append(name)
        self.players = {p.pk: p for p in players}

    def seats(self):
        return [self[name] for name in self.seat_names]

    def clean(self):
        cleaned = super().clean()
        self._name_the_retired()
        chosen = {}  # player: the first seat they were put on
        for name in self.seat_names:
            pk = cleaned.get(name)
            if pk in chosen:  # said at the second seat, where the choice is to put right
                message = _("%(player)s sitzt schon auf %(seat)s.")
                seat = self.fields[chosen[pk]].label
                self.add_error(name, message % {"player": self.players[pk].name, "seat": seat})
            elif pk:
                chosen[pk] = name
        if self.errors:
            return cleaned
        if len(chosen) < min(SEATS):  # said at the first empty place
            empty = next(name for name in self.seat_names if not cleaned.get(name))
            self.add_error(
                empty,
                _("Ein Abend braucht mindestens %(min)s Spieler.") % {"min": min(SEATS)},
            )
            return cleaned
        if len(chosen) not in SEATS:
            raise forms.ValidationError(_("Ein Abend braucht 4, 5 oder 6 Spieler."))
        taken = [i for i, name in enumerate(self.seat_names) if cleaned.get(name)]
        if cleaned.get("first_dealer") not in taken:
            self.add_error(
                "first_dealer", _("Der erste Geber muss auf einem besetzten Platz sitzen.")
            )
        cleaned["players"] = [self.players[pk] for pk in chosen]
        cleaned["dealer_index"] = (
            taken.index(cleaned["first_dealer"]) if cleaned.get("first_dealer") in taken else 0
        )
        return cleaned

    def _name_the_retired(self) -> None:
        """A place whose player another admin set inactive while the form was open says
        who (walk 49); one deleted cannot be named."""
        club = next(iter(self.players.values())).club_id if self.players else None
        for i, name in enumerate(self.seat_names):
            value = str(self.data.get(name, ""))
            if not (self.has_error(name, "invalid_choice") and value.isdigit()):
                continue
            if self.cleaned_data.get("first_dealer") == i:
                # Whoever is put there instead would deal first unasked (walk 49).
                message = _(
                    "Gewählt war Platz %(n)s, der neu zu besetzen ist: bitte den ersten "
                    "Geber neu wählen."
                )
                self.add_error("first_dealer", message % {"n": i + 1})
            retired = Player.objects.filter(club_id=club, pk=int(value), active=False).first()
            if retired is not None:
                self.errors[name] = self.error_class(
                    [
                        _(
                            "%(name)s ist inzwischen auf inaktiv gesetzt: bitte den Platz "
                            "neu wählen."
                        )
                        % {"name": retired.name}
                    ]
                )


class PaymentForm(forms.Form):
    """A transfer marked as paid: the suggested amount in cents ("bezahlt"), or another
    amount typed in euros ("Anderer Betrag", say part of it). Whichever the form sent is
    required; services.record_payment checks that it is open."""

    payer = forms.IntegerField()
    payee = forms.IntegerField()
    # The ledger's column is a bigint: nothing beyond it is an amount anybody owes.
    amount = forms.IntegerField(min_value=1, max_value=2**63 - 1, required=False)
    # Parsed exactly, as the tariff's amounts are ("1,5" is 150 cents, "1,5o" is refused).
    other_amount = EuroField(required=False)
    # Sent again (a double tap, a retry), the form books no second payment.
    key = forms.UUIDField(required=False)
    # The evening's version the page showed: another phone's payment since is not paid again.
    seen = forms.IntegerField(required=False, min_value=0, max_value=2**31 - 1)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Whether the amount was typed ("Anderer Betrag") rather than the one suggested.
        self.typed = "other_amount" in self.data
        self.fields["other_amount"].required = self.typed
        self.fields["amount"].required = not self.typed

    @property
    def cents(self) -> int:
        """The amount paid, of a valid form."""
        typed = self.cleaned_data.get("other_amount")
        return typed if typed is not None else self.cleaned_data["amount"]
