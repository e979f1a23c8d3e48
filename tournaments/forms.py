"""The director's forms. They only check what was typed; the state of the tournament
(started, finished, who sits where) is checked by tournaments.services under its lock,
and its German message lands at the field it names."""

from django import forms
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.forms import NameField
from clubs.models import Club, Player, german_order, one_line
from tournaments.models import Participant, Season, Table, TableSeat, Tournament
from tournaments.services import MAX_SEED

NUMBER = {"inputmode": "numeric"}
# Beyond any round a tournament has (at most 10): a number in a form is refused, not looked up.
MAX_ROUNDS = 99


def _number_errors(low: int, high: int) -> dict[str, str]:
    message = _("Bitte eine ganze Zahl von %(low)s bis %(high)s eingeben.") % {
        "low": low,
        "high": high,
    }
    return {key: message for key in ("required", "invalid", "min_value", "max_value")}


def _count_field(name: str, high: int) -> forms.IntegerField:
    """The model's count `name`, from 1 to `high` (its check constraint), by default the
    seed's (the model's default)."""
    field = Tournament._meta.get_field(name)
    return forms.IntegerField(
        label=field.verbose_name,
        initial=field.default,
        min_value=1,
        max_value=high,
        widget=forms.NumberInput(attrs=NUMBER),
        error_messages=_number_errors(1, high),
    )


class TournamentForm(forms.Form):
    """A new tournament, or its settings. The defaults are the seed's: 3 rounds of 40
    games. A season is chosen, or made by typing its name."""

    name = NameField(label=_("Name"), max_length=80)
    venue = NameField(label=_("Spielstätte"), max_length=80, required=False)
    date = forms.DateField(
        label=_("Datum"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={
            "required": _("Bitte das Datum eingeben."),
            "invalid": _("Bitte ein Datum eingeben, z. B. 14.03.2026."),
        },
    )
    season = forms.ModelChoiceField(
        label=_("Bestehende Saison"),
        queryset=Season.objects.none(),
        required=False,
        empty_label=_("keine Saison"),
        error_messages={"invalid_choice": _("Diese Saison gibt es im Verein nicht.")},
    )
    new_season = NameField(
        label=_("oder neue Saison"),
        max_length=80,
        required=False,
        help_text=_("Mehrere Turnierabende einer Saison ergeben eine gemeinsame Wertung."),
    )
    round_count = _count_field("round_count", 10)
    games_per_round = _count_field("games_per_round", 200)

    duplicate_message = _("Diesen Namen trägt im Verein schon eine Runde oder ein Turnier.")

    def __init__(self, data=None, *, club: Club, tournament: Tournament | None = None):
        initial = {}
        if tournament is not None:
            initial = {
                "name": tournament.name,
                "venue": tournament.venue,
                "date": tournament.date,
                "season": tournament.season_id,
                "round_count": tournament.round_count,
                "games_per_round": tournament.games_per_round,
            }
        super().__init__(data, initial=initial)
        self.club = club
        self.tournament = tournament
        self.fields["season"].queryset = club.seasons.all()
        if tournament is None:
            self.fields["date"].initial = timezone.localdate
        elif tournament.has_started:
            # Its tables' evenings have the games as their limit: fixed from round 1 on.
            for name in ("round_count", "games_per_round"):
                self.fields[name].disabled = True
                self.fields[name].help_text = _("Fest, seit Runde 1 begonnen hat.")

    def clean_name(self):
        name = one_line(self.cleaned_data["name"])
        taken = self.club.runden.filter(name__iexact=name)
        if self.tournament is not None:
            taken = taken.exclude(pk=self.tournament.runde_id)
        if taken.exists():
            raise forms.ValidationError(self.duplicate_message)
        return name

    def clean_new_season(self):
        return one_line(self.cleaned_data["new_season"])

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("season") and cleaned.get("new_season"):
            self.add_error(
                "new_season",
                _("Bitte entweder eine Saison wählen oder eine neue eintragen, nicht beides."),
            )
        return cleaned

    def settings(self) -> dict:
        """The cleaned values as tournaments.services takes them."""
        return dict(self.cleaned_data)


class SeasonForm(forms.ModelForm):
    """A season's name, corrected by the club's admin (it was typed in passing, as a new
    season in a tournament's settings)."""

    duplicate_message = _("Eine Saison dieses Namens gibt es im Verein schon.")

    class Meta:
        model = Season
        fields = ["name"]
        error_messages = {"name": {"required": _("Bitte einen Namen eingeben.")}}

    def clean_name(self):
        name = one_line(self.cleaned_data["name"])
        others = Season.objects.filter(club=self.instance.club_id).exclude(pk=self.instance.pk)
        if others.filter(name__iexact=name).exists():
            raise forms.ValidationError(self.duplicate_message)
        return name

    def validate_constraints(self, exclude=None):
        """clean_name has checked the name is free; a double tap's other request is
        answered by save_unless_taken."""


class _PlayerChoice(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Player) -> str:
        if obj.guest:
            return _("%(name)s (Gast)") % {"name": obj.name}
        if obj.gone:
            # Walk 74: offered as anyone, though gone from the club.
            return _("%(name)s (ausgeschieden)") % {"name": obj.name}
        return obj.name


class ParticipantsForm(forms.Form):
    """Tick the club's players who play, and the guests of its last tournament, who come
    again as a season goes on (walk 72: twelve names typed anew); other guests are
    entered by name."""

    players = _PlayerChoice(
        label=_("Spieler des Vereins"),
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "required": _("Bitte mindestens einen Spieler ankreuzen."),
            "invalid_choice": _("Diesen Spieler gibt es im Verein nicht, oder er spielt schon."),
            "invalid_pk_value": _("Diesen Spieler gibt es im Verein nicht."),
        },
    )

    def __init__(self, data=None, *, tournament: Tournament):
        super().__init__(data)
        club = tournament.club
        last = (
            club.tournaments.filter(date__lte=tournament.date)
            .exclude(pk=tournament.pk)
            .order_by("-date", "-pk")[:1]
        )
        guests = Participant.objects.filter(tournament__in=last, player__guest=True)
        self.fields["players"].queryset = (
            club.players.filter(active=True)
            .filter(Q(guest=False) | Q(pk__in=guests.values("player")))
            .exclude(participations__tournament=tournament)
            .with_departures()
            .order_by("guest", german_order("name"), "pk")
        )


class GuestForm(forms.Form):
    name = NameField(
        label=_("Gast (Name)"),
        max_length=40,
        # Guests of earlier tournaments are offered as the name is typed (no script).
        widget=forms.TextInput(attrs={"list": "guest-names", "autocomplete": "off"}),
        error_messages={"required": _("Bitte den Namen des Gasts eingeben.")},
        help_text=_(
            "Wer schon einmal als Gast dabei war, wird am Namen wiedererkannt "
            "(Groß- und Kleinschreibung, Akzente und Leerzeichen sind egal, „oe“ ist „ö“)."
        ),
    )


class DrawForm(forms.Form):
    """ "Runde n auslosen" or "Neu auslosen": the round meant and the seed the page showed
    for it (so a double tap draws once); a seed only to redo a published draw."""

    number = forms.IntegerField(min_value=1, max_value=MAX_ROUNDS, widget=forms.HiddenInput)
    replacing = forms.IntegerField(
        min_value=0, max_value=MAX_SEED, required=False, widget=forms.HiddenInput
    )
    seed = forms.IntegerField(
        label=_("Seed"),
        min_value=0,
        max_value=MAX_SEED,
        required=False,
        widget=forms.NumberInput(attrs=NUMBER),
        help_text=_("Nur um eine bekannte Auslosung zu wiederholen; sonst leer lassen."),
        error_messages=dict.fromkeys(
            ("invalid", "min_value", "max_value"), _("Der Seed ist eine ganze Zahl ab 0.")
        ),
    )


def _seat_choices(seats: list[TableSeat]) -> list[tuple[str, list[tuple[str, str]]]]:
    """The seated participants grouped by table, in seat order: "Rosi (Nr. 17)", by the
    start number as the cards write it ("17. Rosi" read as a place, walk 72)."""
    tables: dict[int, list[tuple[str, str]]] = {}
    for seat in seats:
        label = _("%(name)s (Nr. %(n)s)") % {
            "name": seat.participant.player.name,
            "n": seat.participant.number,
        }
        tables.setdefault(seat.table.number, []).append((str(seat.participant_id), label))
    return [(_("Tisch %(n)s") % {"n": n}, choices) for n, choices in tables.items()]


class SwapForm(forms.Form):
    """Two participants of different tables change seats (the service checks the
    tables); `seating` is the fingerprint of the tables the page showed."""

    a = forms.TypedChoiceField(label=_("Spieler"), coerce=int)
    b = forms.TypedChoiceField(label=_("tauscht mit"), coerce=int)
    seating = forms.CharField(max_length=32, widget=forms.HiddenInput)

    def __init__(self, data=None, *, seats: list[TableSeat], seating: str = ""):
        super().__init__(data, initial={"seating": seating})
        self.participants = {seat.participant_id: seat.participant for seat in seats}
        for name in ("a", "b"):
            self.fields[name].choices = [("", "–"), *_seat_choices(seats)]
            self.fields[name].error_messages = {
                "required": _("Bitte einen Spieler wählen."),
                "invalid_choice": _("Dieser Spieler sitzt in der Runde an keinem Tisch."),
            }

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("a") and cleaned.get("a") == cleaned.get("b"):
            self.add_error("b", _("Bitte zwei verschiedene Spieler wählen."))
        return cleaned

    def chosen(self) -> tuple[Participant, Participant]:
        return self.participants[self.cleaned_data["a"]], self.participants[self.cleaned_data["b"]]


class ScorekeepersForm(forms.Form):
    """A scorekeeper for each table (field "tisch_<n>"): a member of the club, those who
    sit at the table offered first, a Spieler marked as one. Preselected: the first at the
    table who is a Schreiber or Admin of the club, else the director (services.draw_round)."""

    def __init__(
        self,
        data=None,
        *,
        tables: list[Table],
        members: dict[int, str],
        spieler: frozenset[int] = frozenset(),
    ):
        super().__init__(data)
        self.tables = tables
        self.members = members
        # A Spieler chosen here books at the table: the list says who is one.
        named = {
            u: _("%(name)s (Spieler)") % {"name": name} if u in spieler else name
            for u, name in members.items()
        }
        for table in tables:
            here = {seat.participant.player.user_id for seat in table.seats.all()}
            at_table = [(str(u), name) for u, name in named.items() if u in here]
            others = [(str(u), name) for u, name in named.items() if u not in here]
            groups = [(_("An diesem Tisch"), at_table), (_("Weitere Mitglieder"), others)]
            self.fields[self.field_name(table)] = forms.TypedChoiceField(
                label=_("Tisch %(n)s") % {"n": table.number},
                choices=[(group, options) for group, options in groups if options],
                coerce=int,
                initial=table.scorekeeper_id,
                error_messages={
                    "required": _("Bitte wählen, wer an diesem Tisch schreibt."),
                    "invalid_choice": _("Schreiber kann nur ein Mitglied des Vereins sein."),
                },
            )

    @staticmethod
    def field_name(table: Table) -> str:
        return f"tisch_{table.number}"

    def chosen(self) -> list[tuple[Table, int]]:
        """(table, user id) for each table."""
        return [(table, self.cleaned_data[self.field_name(table)]) for table in self.tables]
