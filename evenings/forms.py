import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Player, Tariff
from evenings.models import Game
from evenings.services import SEATS, GameInput

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
KONTRA = [(0, _("ohne")), (1, _("Kontra")), (2, _("Re"))]
WON = [("1", _("gewonnen")), ("0", _("verloren"))]


class ChipSelect(forms.RadioSelect):
    """Radio buttons drawn as thumb-sized chips (see app.css)."""

    template_name = "evenings/widgets/chips.html"
    option_template_name = "evenings/widgets/chip.html"


class ChipMultiple(forms.CheckboxSelectMultiple):
    template_name = "evenings/widgets/chips.html"
    option_template_name = "evenings/widgets/chip.html"


class GameForm(forms.Form):
    """The entry screen: only what the Runde's tariff and the chosen game need.

    The common case is preselected (Sauspiel, won, no Laufende), so a plain Sauspiel is
    declarer, partner, save. Fields that do not apply to the chosen game are ignored, so
    a chip left checked from another game type never leaks into the booking.
    """

    key = forms.UUIDField(widget=forms.HiddenInput)
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
    laufende = forms.TypedChoiceField(
        label=_("Laufende"), coerce=int, initial=0, empty_value=0, widget=ChipSelect, required=False
    )
    schneider = forms.BooleanField(label=_("Schneider"), required=False)
    schwarz = forms.BooleanField(label=_("Schwarz"), required=False)
    tout = forms.BooleanField(label=_("Tout"), required=False)
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

    def __init__(self, *args, tariff: Tariff, playing: list[Player], **kwargs):
        kwargs.setdefault("initial", {}).setdefault("key", uuid.uuid4())
        super().__init__(*args, **kwargs)
        self.tariff = tariff
        self.playing = playing
        people = [(p.pk, p.name) for p in playing]
        for name in ("declarer", "partner", "loser", "jungfrauen"):
            self.fields[name].choices = people
        low = min(tariff.laufende_min, tariff.laufende_min_wenz)
        self.fields["laufende"].choices = [(0, "–")] + [
            (n, str(n)) for n in range(low, tariff.laufende_max + 1)
        ]
        if not tariff.jungfrau:
            # Seed 001: who doesn't play it sees no control for it anywhere.
            del self.fields["jungfrauen"]

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        game_type = cleaned["spiel"].partition(":")[0]
        needs = {
            "sauspiel": ("declarer", "partner"),
            "farbsolo": ("declarer",),
            "wenz": ("declarer",),
            "ramsch": ("loser",),
        }[game_type]
        for name in needs:
            if cleaned.get(name) is None:
                self.add_error(name, _("Bitte auswählen."))
        return cleaned

    def game_input(self) -> GameInput:
        """The booking as the engine will see it; only the fields the game type uses."""
        c = self.cleaned_data
        game_type, _sep, suit = c["spiel"].partition(":")
        common = {"kontra": c["kontra"], "doubled": c["doubled"]}
        if game_type == "ramsch":
            return GameInput(
                type="ramsch",
                won=False,
                loser=c["loser"],
                jungfrauen=tuple(sorted(c.get("jungfrauen") or ())),
                **common,
            )
        solo = game_type != "sauspiel"
        return GameInput(
            type=game_type,
            declarer=c["declarer"],
            partner=None if solo else c["partner"],
            suit=suit,
            won=c["won"],
            laufende=c["laufende"] or 0,
            schneider=c["schneider"] or c["schwarz"] or (solo and c["tout"]),
            schwarz=c["schwarz"] or (solo and c["tout"]),
            tout=solo and c["tout"],
            **common,
        )

    @classmethod
    def initial_for(cls, game: Game) -> dict:
        """The form's values for an existing game (the correction screen)."""
        spiel = f"farbsolo:{game.suit}" if game.type == "farbsolo" else game.type
        return {
            "key": game.key,
            "spiel": spiel,
            "declarer": game.declarer_id,
            "partner": game.partner_id,
            "won": "1" if game.won else "0",
            "laufende": game.laufende,
            "schneider": game.schneider,
            "schwarz": game.schwarz,
            "tout": game.tout,
            "kontra": game.kontra,
            "doubled": game.doubled,
            "loser": game.loser_id,
            "jungfrauen": list(game.jungfrauen),
        }


class StartForm(forms.Form):
    """Who is present, in seating order, and who deals first."""

    first_dealer = forms.TypedChoiceField(
        label=_("Erster Geber"),
        coerce=int,
        choices=[(i, _("Platz %(n)s") % {"n": i + 1}) for i in range(max(SEATS))],
        initial=0,
        widget=ChipSelect,
    )

    def __init__(self, *args, players: list[Player], **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(p.pk, p.name) for p in players]
        self.seat_names = []
        for i in range(max(SEATS)):
            name = f"seat{i}"
            self.fields[name] = forms.TypedChoiceField(
                label=_("Platz %(n)s") % {"n": i + 1},
                choices=choices,
                coerce=int,
                required=i < min(SEATS),
                empty_value=None,
            )
            self.seat_names.append(name)
        self.players = {p.pk: p for p in players}

    def seats(self):
        return [self[name] for name in self.seat_names]

    def clean(self):
        cleaned = super().clean()
        chosen = [cleaned.get(name) for name in self.seat_names if cleaned.get(name)]
        if len(chosen) != len(set(chosen)):
            raise forms.ValidationError(_("Jeder Spieler kann nur einen Platz haben."))
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


class PaymentForm(forms.Form):
    payer = forms.IntegerField()
    payee = forms.IntegerField()
    amount = forms.IntegerField(min_value=1)
