"""The director's pages of a ProHof tournament, the players' view of it, and the hall
display. Plain forms with POST-redirect-GET; a form with an error is shown again on the
tournament page with the message at its field. Only the hall display refreshes itself
(htmx polling of its board)."""

import copy
from dataclasses import dataclass, field

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Count, OuterRef, Subquery
from django.forms import BaseForm
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubs.access import admin_of, membership_of
from clubs.forms import save_unless_taken
from clubs.models import Membership, Player, german_key, one_line
from clubs.services import display_name, names_played_as
from evenings.views import qr_svg
from tournaments import export, services
from tournaments.access import (
    admin_round_of,
    admin_tournament_of,
    round_of,
    season_of,
    tournament_of,
)
from tournaments.draw import (
    BIG_TABLE,
    TABLE,
    DrawError,
    big_table_swaps,
    big_tables_beyond_need,
    repeated_pairs,
    table_sizes,
)
from tournaments.forms import (
    DrawForm,
    GuestForm,
    ParticipantsForm,
    ScorekeepersForm,
    SeasonForm,
    SwapForm,
    TournamentForm,
)
from tournaments.models import Participant, Round, Table, TableSeat, Tournament
from tournaments.standings import (
    TIE_BREAK,
    Standing,
    board_version,
    season_standings,
    standings_from,
    tournament_standings,
)

# The hall display asks for its board this often (seconds).
HALL_REFRESH = 10


@require_GET
@login_required
def tournament_list(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = membership_of(request, club_id)
    club = membership.club
    return render(
        request,
        "tournaments/list.html",
        {
            "membership": membership,
            "club": club,
            "tournaments": club.tournaments.select_related("season").annotate(
                participant_count=Count("participants")
            ),
            "seasons": club.seasons.annotate(tournament_count=Count("tournaments")),
        },
    )


@require_http_methods(["GET", "POST"])
@login_required
def tournament_create(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = admin_of(request, club_id)
    form = TournamentForm(request.POST or None, club=membership.club)
    if form.is_valid():
        tournament = save_unless_taken(
            form,
            lambda: services.create_tournament(membership.club, request.user, **form.settings()),
            "runde_name_unique_in_club",
            "name",
            form.duplicate_message,
        )
        if tournament is not None:
            messages.success(request, _("Das Turnier ist angelegt. Melde jetzt die Teilnehmer."))
            return redirect("tournaments:detail", tournament_id=tournament.pk)
    return render(request, "tournaments/settings.html", {"membership": membership, "form": form})


@require_http_methods(["GET", "POST"])
@login_required
def tournament_settings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament, membership = admin_tournament_of(request, tournament_id)
    form = TournamentForm(request.POST or None, club=membership.club, tournament=tournament)
    if form.is_valid():
        try:
            saved = save_unless_taken(
                form,
                lambda: services.update_settings(tournament, **form.settings()),
                "runde_name_unique_in_club",
                "name",
                form.duplicate_message,
            )
        except services.TournamentError as error:
            _add_error(form, error)
        else:
            if saved is not None:
                messages.success(request, _("Gespeichert."))
                return redirect("tournaments:detail", tournament_id=tournament.pk)
    return render(
        request,
        "tournaments/settings.html",
        {"membership": membership, "tournament": tournament, "form": form},
    )


@require_POST
@login_required
def tournament_delete(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """ "Turnier löschen", on its settings page, while no round has started."""
    tournament, membership = admin_tournament_of(request, tournament_id)
    try:
        services.delete_tournament(tournament)
    except services.TournamentError as error:
        messages.error(request, str(error))
        return redirect("tournaments:settings", tournament_id=tournament.pk)
    messages.success(request, _("„%(name)s“ ist gelöscht.") % {"name": tournament.name})
    return redirect("tournaments:list", club_id=membership.club_id)


def _add_error(form, error: services.TournamentError) -> None:
    form.add_error(error.field if error.field in form.fields else None, str(error))


@dataclass
class RoundView:
    """What the tournament page shows of one drawn round."""

    progress: services.RoundProgress
    repeated: int | None  # repeated table partners, from round 2 on
    unseated: list[str]  # names of participants without a seat (joined after the draw)
    short_tables: list[int]  # tables with too few players (someone left after the draw)
    seating: str  # services.seating_token
    # (name, times) of those at a table of 5 more often than someone at a table of 4
    # (after a swap by hand): they play fewer games than the field needs them to.
    big_beyond_need: list[tuple[str, int]]
    # How many swaps spread them evenly again, and with whom: (name, earlier rounds at a
    # table of 5) of those at a table of 4 who sat at one less often.
    big_swaps: int = 0
    big_swap_with: list[tuple[str, int]] = field(default_factory=list)
    swap_form: SwapForm | None = None
    scorekeepers_form: ScorekeepersForm | None = None

    @property
    def folded(self) -> bool:
        """Played out: its tables fold up, one tap away, so that the round being played
        and the standings are not some screens down on a phone (walk 37)."""
        return self.progress.complete

    @property
    def round(self) -> Round:
        return self.progress.round

    @property
    def has_big_table(self) -> bool:
        return any(len(table) == BIG_TABLE for table in self.progress.seating)

    @property
    def outdated(self) -> bool:
        return bool(self.unseated or self.short_tables)


def _members(membership: Membership) -> tuple[dict[int, str], frozenset[int]]:
    """{user id: name} of the club's members, by the name they play under; and the user
    ids of those in the role Spieler."""
    club = membership.club
    played_as = Player.objects.filter(club=club, user=OuterRef("user_id")).values("name")
    rows = club.memberships.select_related("user").annotate(player_name=Subquery(played_as))
    members, spieler = {}, set()
    for m in rows:
        members[m.user_id] = m.player_name or display_name(m.user)
        if m.role == Membership.Role.PLAYER:
            spieler.add(m.user_id)
    return dict(sorted(members.items(), key=lambda item: german_key(item[1]))), frozenset(spieler)


def _name_scorekeepers(club, tables: list[Table], members: dict[int, str] | None) -> None:
    """Each table's scorekeeper by the name they play under in the club, as the
    scorekeepers' form offers them ("Vroni", who sits at the table, not her account's
    "Veronika"); else by their own name. `members`: _members(), if read already."""
    users = {table.scorekeeper_id for table in tables if table.scorekeeper_id is not None}
    if members is not None:
        played_as, still = members, set(members)
    elif users:
        played_as = names_played_as(club, users)
        still = set(club.memberships.filter(user__in=users).values_list("user_id", flat=True))
    else:
        played_as, still = {}, set()
    for table in tables:
        if table.scorekeeper is not None:
            table.scorekeeper_name = display_name(table.scorekeeper, played_as)
            # Removed from the club since: they can no longer enter the table's games.
            table.scorekeeper_gone = table.scorekeeper_id not in still


def _round_view(
    progress: services.RoundProgress,
    earlier: list[services.RoundProgress],
    participants: list[Participant],
    forms: dict,
    members: dict[int, str] | None,
    spieler: frozenset[int] = frozenset(),
) -> RoundView:
    """The round as the page shows it, beside the `earlier` rounds; with the director's
    forms while it has not started, if `members` (the scorekeepers to offer) are given."""
    round_ = progress.round
    names = {p.pk: p.player.name for p in participants}
    seats = [seat for t in progress.tables for seat in t.table.seats.all()]
    seated = {seat.participant_id for seat in seats}
    view = RoundView(
        progress=progress,
        repeated=(
            repeated_pairs(progress.seating, [e.seating for e in earlier])
            if round_.number > 1
            else None
        ),
        unseated=[
            p.player.name for p in participants if p.pk not in seated and p.withdrawn_at is None
        ],
        short_tables=[t.table.number for t in progress.tables if len(t.table.seats.all()) < TABLE],
        seating=progress.seating_token,
        big_beyond_need=[
            (names[participant], times)
            for participant, times in big_tables_beyond_need(
                progress.seating, [e.seating for e in earlier]
            ).items()
            if participant in names
        ],
    )
    if view.big_beyond_need:
        view.big_swaps, fewer = big_table_swaps(progress.seating, [e.seating for e in earlier])
        view.big_swap_with = [(names[p], times) for p, times in fewer.items() if p in names]
    if members is not None and not round_.is_started:
        view.swap_form = forms.get("swap") or SwapForm(seats=seats, seating=view.seating)
    if members is not None and not progress.complete:
        # Also while the round runs: a phone that gives up hands its table on.
        view.scorekeepers_form = forms.get("scorekeepers") or ScorekeepersForm(
            tables=[t.table for t in progress.tables], members=members, spieler=spieler
        )
    return view


def _page(request, tournament: Tournament, membership: Membership, **forms) -> HttpResponse:
    """The tournament page; `forms` are bound forms with errors to show again."""
    directing = membership.is_admin and tournament.status != Tournament.Status.FINISHED
    # Each is read once and handed on: the rounds' tables and seats, the participants.
    participants = list(tournament.participants.select_related("player"))
    rounds = list(tournament.rounds.all())
    for round_ in rounds:
        round_.tournament = tournament
    progresses = services.rounds_progress(rounds, participants)
    seats = _seats(progresses)
    played = {seat.participant_id for round_, _table, seat in seats if round_.is_started}
    playing_now = _playing_now(progresses)
    members, spieler = _members(membership) if directing else (None, frozenset[int]())
    _name_scorekeepers(membership.club, [t.table for p in progresses for t in p.tables], members)
    views = [
        _round_view(progress, progresses[:i], participants, forms, members, spieler)
        for i, progress in enumerate(progresses)
    ]
    last = views[-1] if views else None
    finished = tournament.status == Tournament.Status.FINISHED
    games = tournament.games_per_round
    context = {
        "membership": membership,
        "tournament": tournament,
        # Each with whether they may be removed (they played nowhere), and the table
        # still playing they sit at: withdrawing, it plays on with them (walk 37).
        "participants": [(p, p.pk not in played, playing_now.get(p.pk)) for p in participants],
        "rounds": views,
        "standings": (standings := _standings(tournament, participants, seats) if played else None),
        # What changed at the tables after it was played, and what it moved (walk 52).
        "late": (late := services.late_changes(tournament) if played else []),
        "late_after_finish": any(change.after_finish for change in late),
        # A change at a round before the last drawn: that round's draw stays as it was.
        "draw_kept": bool(rounds) and any(change.round < rounds[-1].number for change in late),
        # The viewer's own row, marked in the standings.
        "own": next((p.pk for p in participants if p.player.user_id == request.user.pk), None),
        "tie_break": TIE_BREAK,
        # Who is drawn next: a participant who withdrew sits at no table.
        "big_tables": _big_tables(active := sum(p.withdrawn_at is None for p in participants)),
        "active": active,
        # Only while a round is still to be drawn (walk 52: said after the last one too).
        "cannot_seat": _cannot_seat(active)
        if directing
        and (len(rounds) < tournament.round_count or (rounds and not rounds[-1].is_started))
        else "",
        # At a table of five the dealer sits out each game, so each sits out a fifth of
        # the round, rounded down or up: of 40 everyone plays 32, of 6 four play 5 and
        # one 4, of 2 three play 2 and two 1 (walk 41: "etwa 2 von 2").
        "big_table_games": _big_table_games(games),
        "finished": finished,
        # Who the standings call withdrawn: once finished, the list of participants too.
        "withdrawn": {line.participant.pk for line in standings or () if line.withdrawn},
        "directing": directing,
        # While the tournament runs, the page asks every HALL_REFRESH seconds whether it
        # changed (news).
        "version": board_version(tournament)
        if tournament.status == Tournament.Status.RUNNING
        else None,
        "refresh": HALL_REFRESH,
    }
    if directing:
        context |= _director_forms(tournament, last, forms)
    # A late correction: the director opens the finished tournament again.
    context["can_reopen"] = membership.is_admin and context["finished"]
    _unplaced_errors_as_messages(request, forms, context, views)
    if membership.is_admin and tournament.display_token:
        url = request.build_absolute_uri(
            reverse("tournaments:hall", args=[tournament.display_token])
        )
        context |= {"hall_url": url, "hall_qr": qr_svg(url)}
    return render(request, "tournaments/detail.html", context)


def _big_table_games(games: int) -> str:
    """How many of a round's `games` each plays at a table of five: "32", or "4 bis 5"."""
    sits_out_least, sits_out_most = games // BIG_TABLE, -(-games // BIG_TABLE)
    fewest, most = games - sits_out_most, games - sits_out_least
    return (
        str(most)
        if fewest == most
        else _("%(fewest)s bis %(most)s")
        % {
            "fewest": fewest,
            "most": most,
        }
    )


def _seats(progresses: list[services.RoundProgress]) -> list[tuple[Round, Table, TableSeat]]:
    """Every seat of the drawn rounds with its round and table, as the page read them."""
    return [
        (progress.round, t.table, seat)
        for progress in progresses
        for t in progress.tables
        for seat in t.table.seats.all()
    ]


def _standings(
    tournament: Tournament,
    participants: list[Participant],
    seats: list[tuple[Round, Table, TableSeat]],
) -> list[Standing]:
    return standings_from(
        tournament,
        participants,
        [(seat.participant_id, round_.number, table.evening_id) for round_, table, seat in seats],
    )


def _unplaced_errors_as_messages(request, forms: dict, context: dict, views: list) -> None:
    """A form sent with an error that the page no longer has a place for (the round
    started, the tournament closed meanwhile) says so above the page."""
    placed = {id(value) for value in context.values() if isinstance(value, BaseForm)}
    placed |= {id(v.swap_form) for v in views} | {id(v.scorekeepers_form) for v in views}
    for form in forms.values():
        if id(form) not in placed:
            for errors in form.errors.values():
                for error in errors:
                    messages.error(request, error)


def _director_forms(tournament: Tournament, last: RoundView | None, forms: dict) -> dict:
    """The forms for participants and the draw; a form sent with an error is shown
    again where it was sent from."""
    context = {
        "participants_form": forms.get("participants") or ParticipantsForm(tournament=tournament),
        "guest_form": forms.get("guest") or GuestForm(),
        "guest_names": tournament.club.players.filter(guest=True)
        .exclude(participations__tournament=tournament)
        .values_list("name", flat=True),
        "can_finish": bool(
            last and last.round.number >= tournament.round_count and last.progress.complete
        ),
    }
    # Once the last round has begun nobody new is drawn any more: no entering (walk 28).
    context["entering"] = not (
        last and last.round.number >= tournament.round_count and last.round.is_started
    )
    sent = forms.get("draw")
    if last is not None and not last.round.is_started:
        shown = {"number": last.round.number, "replacing": last.round.seed}
        return context | {"redraw_form": sent or DrawForm(initial=shown)}
    due = _due(tournament, last)
    return context | {
        "due": due,
        "draw_form": sent or (DrawForm(initial={"number": due}) if due else None),
    }


def _due(tournament: Tournament, last: RoundView | None) -> int | None:
    """The number of the round the director may draw next, if any."""
    if last is None:
        return 1
    if last.progress.complete and last.round.number < tournament.round_count:
        return last.round.number + 1
    return None


def _big_tables(count: int) -> bool:
    """Whether that many participants sit at tables of 5 too."""
    try:
        return BIG_TABLE in table_sizes(count)
    except DrawError:
        return False


def _cannot_seat(count: int) -> str:
    """Why that many participants cannot be drawn to tables (6, 7, 11), in German, said
    at the list while people are still coming in rather than at the draw; "" if they can,
    or while fewer than a table have come."""
    try:
        table_sizes(count)
    except DrawError as error:
        return error.message_de if count >= TABLE else ""
    return ""


@require_GET
@login_required
def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament, membership = tournament_of(request, tournament_id)
    return _page(request, tournament, membership)


@require_GET
@login_required
def news(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Whether the tournament changed since the page was loaded (`v`, its board_version):
    nothing (204), or a bar that offers to load it anew (walk 40: the director's page
    showed a finished table as playing until reloaded by hand). Not the page itself:
    a form half filled in on it (a swap, a guest's name) would be lost."""
    tournament, _membership = tournament_of(request, tournament_id)
    if request.GET.get("v") == board_version(tournament):
        return HttpResponse(status=204)
    # 286: the bar stays, and the page asks no more.
    return render(request, "tournaments/detail.html#news", {"tournament": tournament}, status=286)


@require_POST
@login_required
def participants_add(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament, membership = admin_tournament_of(request, tournament_id)
    form = ParticipantsForm(request.POST, tournament=tournament)
    if form.is_valid():
        try:
            joined = services.add_participants(tournament, list(form.cleaned_data["players"]))
        except services.TournamentError as error:
            _add_error(form, error)
        else:
            names = ", ".join(p.player.name for p in joined)
            if names:
                said = _("Dabei: %(names)s.") % {"names": names}
                messages.success(request, said + _redraw_due(tournament))
            return redirect("tournaments:detail", tournament_id=tournament.pk)
    return _page(request, tournament, membership, participants=form)


def _redraw_due(tournament: Tournament) -> str:
    """Said to whoever joins a round drawn and not started: its draw is out of date, and
    the page's note saying so is far above the list (walk 85)."""
    drawn = tournament.rounds.filter(started_at__isnull=True).order_by("number").first()
    if drawn is None:
        return ""
    return " " + _("Runde %(number)s ist schon ausgelost: bitte neu auslosen.") % {
        "number": drawn.number
    }


def _guest_added(participant: Participant, typed: str) -> str:
    """What the director is told of a guest entered at the door: recognised from an
    earlier tournament (under the name first written down, if typed otherwise now; the
    name in the list links to where it is mended), and whether a season counts them
    together."""
    name, number = participant.player.name, participant.number
    if not participant.player.participations.exclude(pk=participant.pk).exists():
        return _("%(name)s spielt als Gast mit (Startnummer %(number)s).") % {
            "name": name,
            "number": number,
        }
    said = _("%(name)s spielt als Gast mit (Startnummer %(number)s), wiedererkannt aus einem "
             "früheren Turnier.") % {"name": name, "number": number}  # fmt: skip
    if one_line(typed) != name:
        said += " " + _(
            "Eingegeben war „%(typed)s“; die Schreibweise ändert ein Tipp auf den Namen in "
            "der Liste."
        ) % {"typed": one_line(typed)}
    if participant.tournament.season_id is not None:
        said += " " + _("Die Punkte der Saison zählen zusammen.")
    return said


@require_POST
@login_required
def guest_add(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament, membership = admin_tournament_of(request, tournament_id)
    form = GuestForm(request.POST)
    if form.is_valid():
        try:
            participant = services.add_guest(tournament, form.cleaned_data["name"])
        except services.TournamentError as error:
            _add_error(form, error)
        else:
            said = _guest_added(participant, form.cleaned_data["name"])
            messages.success(request, said + _redraw_due(tournament))
            return redirect("tournaments:detail", tournament_id=tournament.pk)
    return _page(request, tournament, membership, guest=form)


@require_POST
@login_required
def participant_remove(request: HttpRequest, tournament_id: int, participant_id: int):
    tournament, _membership = admin_tournament_of(request, tournament_id)
    participant = get_object_or_404(
        tournament.participants.select_related("player"), pk=participant_id
    )
    try:
        withdrawn = services.remove_participant(participant)
    except services.TournamentError as error:
        messages.error(request, str(error))
    else:
        name = participant.player.name
        if not withdrawn:
            said = _("%(name)s ist nicht mehr dabei.") % {"name": name}
        else:
            said = _("%(name)s zieht zurück: die Punkte bleiben, ausgelost wird ohne %(name)s.") % {
                "name": name
            }
            if (table := _playing_at(participant)) is not None:
                # Named only while it plays (walk 40: said between rounds too).
                said += " " + _(
                    "Tisch %(table)s spielt diese Runde mit %(name)s weiter; kann %(name)s "
                    "nicht weiterspielen, dort „Tisch vorzeitig beenden …“ tippen."
                ) % {"table": table, "name": name}
        messages.success(request, said)
    # Back to the list the tap was in, not the top of the page.
    return redirect(reverse("tournaments:detail", args=[tournament.pk]) + "#teilnehmer")


def _playing_at(participant: Participant) -> int | None:
    """The number of the table still playing that the participant sits at, if any."""
    round_ = participant.tournament.rounds.filter(started_at__isnull=False).last()
    if round_ is None:
        return None
    return _playing_now([services.round_progress(round_)]).get(participant.pk)


def _playing_now(progresses: list[services.RoundProgress]) -> dict[int, int]:
    """{participant id: the number of the table still playing they sit at} over the
    started rounds among `progresses`."""
    return {
        seat.participant_id: t.table.number
        for progress in progresses
        if progress.round.is_started
        for t in progress.tables
        if not t.complete
        for seat in t.table.seats.all()
    }


@require_POST
@login_required
def participant_reinstate(request: HttpRequest, tournament_id: int, participant_id: int):
    """Take back a withdrawal ("Wieder aufnehmen"): drawn again from the next round."""
    tournament, _membership = admin_tournament_of(request, tournament_id)
    participant = get_object_or_404(tournament.participants, pk=participant_id)
    try:
        participant = services.reinstate_participant(participant)
    except services.TournamentError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("%(name)s ist wieder dabei und wird ab der nächsten Auslosung wieder gesetzt.")
            % {"name": participant.player.name},
        )
    return redirect(reverse("tournaments:detail", args=[tournament.pk]) + "#teilnehmer")


@require_POST
@login_required
def draw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """ "Runde n auslosen", "Neu auslosen", or a draw redone with a given seed."""
    tournament, membership = admin_tournament_of(request, tournament_id)
    form = DrawForm(request.POST)
    if form.is_valid():
        try:
            round_ = services.draw_round(
                tournament,
                form.cleaned_data["seed"],
                by=request.user,
                number=form.cleaned_data["number"],
                replacing=form.cleaned_data["replacing"],
            )
        except services.TournamentError as error:
            _add_error(form, error)
        else:
            if round_.is_started:
                # A page from before the start (or a crafted request) asked to draw it.
                messages.info(
                    request,
                    _("Runde %(number)s ist schon gestartet: die Tische stehen fest, "
                      "es wurde nichts ausgelost.") % {"number": round_.number},
                )  # fmt: skip
            else:
                messages.success(
                    request,
                    _("Runde %(number)s ist ausgelost (Seed %(seed)s).")
                    % {"number": round_.number, "seed": round_.seed},
                )
            return redirect(_round_anchor(tournament, round_.number))
    return _page(request, tournament, membership, draw=form)


def _round_anchor(tournament: Tournament, number: int) -> str:
    return reverse("tournaments:detail", args=[tournament.pk]) + f"#runde-{number}"


@require_POST
@login_required
def swap(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    round_, membership = admin_round_of(request, tournament_id, number)
    tournament = round_.tournament
    seats = list(
        TableSeat.objects.filter(round=round_)
        .select_related("participant__player", "table")
        .order_by("table__number", "position")
    )
    form = SwapForm(request.POST, seats=seats)
    if form.is_valid():
        a, b = form.chosen()
        try:
            services.swap(round_, a, b, seating=form.cleaned_data["seating"], by=request.user)
        except services.StaleSeating as error:
            messages.info(request, str(error))
        except services.TournamentError as error:
            _add_error(form, error)
            return _page(request, tournament, membership, swap=form)
        else:
            messages.success(
                request,
                _("Getauscht: %(a)s und %(b)s.") % {"a": a.player.name, "b": b.player.name},
            )
        return redirect(_round_anchor(tournament, number))
    return _page(request, tournament, membership, swap=form)


@require_POST
@login_required
def scorekeepers(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    round_, membership = admin_round_of(request, tournament_id, number)
    tournament = round_.tournament
    tables = list(round_.tables.prefetch_related("seats__participant__player"))
    members, spieler = _members(membership)
    form = ScorekeepersForm(request.POST, tables=tables, members=members, spieler=spieler)
    if form.is_valid():
        chosen = form.chosen()
        users = get_user_model().objects.in_bulk([user_id for _table, user_id in chosen])
        try:
            services.name_scorekeepers(
                [(table, users[user_id]) for table, user_id in chosen], by=request.user
            )
        except services.TournamentError as error:
            _add_error(form, error)
        else:
            messages.success(request, _("Die Schreiber sind eingetragen."))
            return redirect(_round_anchor(tournament, number))
    return _page(request, tournament, membership, scorekeepers=form)


@require_POST
@login_required
def start(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    round_, _membership = admin_round_of(request, tournament_id, number)
    try:
        services.start_round(round_, request.user)
    except services.TournamentError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("Runde %(number)s läuft: an jedem Tisch kann jetzt eingetragen werden.")
            % {"number": number},
        )
    return redirect(_round_anchor(round_.tournament, number))


@require_POST
@login_required
def end_table(request: HttpRequest, tournament_id: int, number: int, table: int):
    """ "Tisch vorzeitig beenden": the table's evening closes with the games played."""
    round_, _membership = admin_round_of(request, tournament_id, number)
    found = get_object_or_404(round_.tables, number=table)
    try:
        ended = services.end_table_early(found, request.user)
    except services.TournamentError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("Tisch %(table)s ist vorzeitig beendet: die Spiele bis dahin (%(played)s von "
              "%(games)s) zählen.")
            % {
                "table": ended.number,
                "played": ended.evening.counted_games if ended.evening else 0,
                "games": round_.tournament.games_per_round,
            },
        )  # fmt: skip
    return redirect(_round_anchor(round_.tournament, number))


@require_POST
@login_required
def finish(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament, _membership = admin_tournament_of(request, tournament_id)
    try:
        services.finish(tournament, request.user)
    except services.TournamentError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("Das Turnier ist abgeschlossen, die Tische sind zu: die Rangliste steht."),
        )
    return redirect("tournaments:detail", tournament_id=tournament.pk)


@require_POST
@login_required
def reopen(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """ "Turnier wieder öffnen" for a late correction."""
    tournament, _membership = admin_tournament_of(request, tournament_id)
    services.reopen(tournament)
    messages.success(
        request,
        _("Das Turnier ist wieder offen. Öffne den Tisch, der eine Korrektur braucht, "
          "und schließe danach das Turnier wieder ab."),
    )  # fmt: skip
    return redirect("tournaments:detail", tournament_id=tournament.pk)


@require_POST
@login_required
def display_link(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A new link for the hall display (the old one stops working), or none at all."""
    tournament, _membership = admin_tournament_of(request, tournament_id)
    revoke = request.POST.get("revoke") == "1"
    services.renew_display_link(tournament, revoke=revoke)
    messages.success(
        request,
        _("Der Link der Hallenanzeige ist gesperrt.")
        if revoke
        else _("Es gibt einen neuen Link für die Hallenanzeige."),
    )
    return redirect(reverse("tournaments:detail", args=[tournament.pk]) + "#halle")


@require_GET
@login_required
def cards(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """One card per table to print: the seats in order, who deals first, and a box for
    each game to tick."""
    round_, membership = round_of(request, tournament_id, number)
    tournament = round_.tournament
    progress = services.round_progress(round_)
    _name_scorekeepers(membership.club, [t.table for t in progress.tables], None)
    return render(
        request,
        "tournaments/cards.html",
        {
            "membership": membership,
            "tournament": tournament,
            "round": round_,
            "progress": progress,
            "games": range(1, tournament.games_per_round + 1),
        },
    )


@require_GET
@login_required
def ranking(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The ranking to print (final once the tournament is closed)."""
    tournament, membership = tournament_of(request, tournament_id)
    return render(
        request,
        "tournaments/ranking.html",
        {
            "membership": membership,
            "tournament": tournament,
            "standings": tournament_standings(tournament),
            # Printed again after a late correction: the Endstand says so (walk 52).
            "late_after_finish": services.corrected_after_finish(tournament),
            "own": tournament.participants.filter(player__user=request.user)
            .values_list("pk", flat=True)
            .first(),
            "tie_break": TIE_BREAK,
        },
    )


@require_GET
@login_required
def ranking_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament, _membership = tournament_of(request, tournament_id)
    return HttpResponse(
        export.ranking(tournament, tournament_standings(tournament)).encode(),
        content_type=export.CONTENT_TYPE,
        headers={"Content-Disposition": export.attachment(tournament)},
    )


def _current_round(tournament: Tournament) -> services.RoundProgress | None:
    round_ = tournament.rounds.order_by("-number").first()
    if round_ is None:
        return None
    round_.tournament = tournament
    return services.round_progress(round_)


@require_GET
def hall(request: HttpRequest, token: str) -> HttpResponse:
    """The hall display: no login, large type, the standings and the current round's
    tables with their game counters. Its board asks again every HALL_REFRESH seconds;
    once the link is revoked, the answer says so and (status 286) stops the polling."""
    tournament = Tournament.objects.select_related("club").filter(display_token=token).first()
    if tournament is None:
        if request.htmx:
            return render(request, "tournaments/hall.html#ended", status=286)
        raise Http404
    version = board_version(tournament)
    if request.htmx and request.GET.get("v") == version:
        return HttpResponse(status=204)  # the board on the screen is the board now
    context = {
        "version": version,
        "tournament": tournament,
        "token": token,
        "current": _current_round(tournament),
        "standings": tournament_standings(tournament),
        "tie_break": TIE_BREAK,
        "refresh": HALL_REFRESH,
        # The Endstand corrected after the first finish says so, as the print does (walk 64).
        "late_after_finish": tournament.status == Tournament.Status.FINISHED
        and services.corrected_after_finish(tournament),
    }
    if request.htmx:
        return render(request, "tournaments/hall.html#board", context)
    return render(request, "tournaments/hall.html", context)


@require_http_methods(["GET", "POST"])
@login_required
def season(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    """A season's tournaments and summed standings; its admin can rename it here."""
    season, membership = season_of(request, club_id, season_id)
    form = None
    if membership.is_admin:
        # On a copy: a refused name must not rename the page's heading.
        form = SeasonForm(request.POST or None, instance=copy.copy(season))
    elif request.method == "POST":
        raise Http404
    if form is not None and form.is_valid():
        saved = save_unless_taken(
            form, form.save, "season_name_unique_in_club", "name", form.duplicate_message
        )
        if saved is not None:
            messages.success(request, _("Gespeichert."))
            return redirect("tournaments:season", club_id=club_id, season_id=season.pk)
    tournaments, standings = season_standings(season)
    return render(
        request,
        "tournaments/season.html",
        {
            "membership": membership,
            "season": season,
            "form": form,
            "tournaments": tournaments,
            "standings": standings,
            "tie_break": TIE_BREAK,
        },
    )
