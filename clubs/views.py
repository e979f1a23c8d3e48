import copy
import itertools
from collections import defaultdict
from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.contrib.postgres.aggregates import ArrayAgg
from django.db import connection
from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q, QuerySet
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.defaults import page_not_found

from clubs import backup, periods, services, stats
from clubs.access import admin_of, login_required_keep_form, membership_of, money_runde_of
from clubs.accounts import safe_next
from clubs.forms import (
    ClubForm,
    InvitationForm,
    JoinForm,
    PlayerEditForm,
    PlayerForm,
    RoleForm,
    RundeForm,
    TariffForm,
    save_unless_taken,
)
from clubs.models import (
    Departure,
    Invitation,
    Membership,
    Player,
    Runde,
    Tariff,
    german_order,
)
from clubs.players import (
    empty_evenings,
    evenings_page,
    homes,
    kept_accounts,
    open_balances,
    page_asked,
    runde_balances,
)
from evenings import services as evening_services
from evenings.models import Evening, Seat
from scoring import worked_examples
from tournaments.models import Participant, Round, Tournament


@require_GET
@login_required
def start(request: HttpRequest) -> HttpResponse:
    memberships = list(
        request.user.memberships.select_related("club").order_by(german_order("club__name"))
    )
    # A Schreiber's or admin's way to the table: each money Runde of their clubs, one tap
    # to start its evening.
    scoring = [m.club_id for m in memberships if m.can_score]
    runden = (
        list(
            Runde.objects.money()
            .filter(club_id__in=scoring)
            .select_related("club")
            .order_by(german_order("club__name"), german_order("name"))
        )
        if scoring
        else []
    )
    # The user's players in the clubs they are a member of (a removed member's player
    # stays in the club, but its pages are no longer theirs to see).
    own = list(
        Player.objects.filter(user=request.user, club__memberships__user=request.user)
        .select_related("club")
        .order_by(german_order("club__name"))
    )
    accounts = kept_accounts(own, request.user)
    # The money evenings running in those clubs: one tap back to the table, also for a
    # Schreiber who writes without playing (a player finds theirs under their accounts).
    running = _told_apart(
        Evening.objects.playing_for_money()
        .filter(runde__club_id__in=scoring)
        .select_related("runde__club")
        .order_by("started_at")
        if scoring
        else Evening.objects.none()
    )
    # Those of the user's players who are in a tournament: a way to their places and points.
    in_tournaments = set(
        Participant.objects.filter(player__in=own).values_list("player_id", flat=True)
    )
    # Tournament tables running now that the user keeps the sheet of (named by the
    # director) or sits at, in clubs they are a member of: one tap to the table. (A money
    # evening they sit at is under "Letzte Abende" of their accounts.)
    sits = Q(seats__player__user=request.user, runde__kind=Runde.Kind.PROHOF)
    # Not a table whose play is over for good: ended early, or its round followed by one.
    later = Round.objects.filter(
        tournament=OuterRef("table__round__tournament"),
        number__gt=OuterRef("table__round__number"),
        started_at__isnull=False,
    )
    # Nor one that has played all its games (nothing left to do there until a game is
    # struck); it may be open still, for a correction.
    tables = (
        Evening.objects.open()
        .filter(runde__club__memberships__user=request.user)
        .filter(Q(scorekeeper=request.user) | sits)
        .exclude(Exists(later))
        .exclude(table__ended_early_at__isnull=False)
        .with_counted_games()
        .filter(Q(game_limit__isnull=True) | Q(counted_games__lt=F("game_limit")))
        .distinct()
    )
    # Clubs the user left or was removed from: since when, and what is still theirs there.
    gone = _departures(request.user, memberships)
    return render(
        request,
        "clubs/start.html",
        {
            "memberships": memberships,
            "departures": gone,
            "runden": runden,
            # A member of several clubs is told which club a Runde or evening is of (two
            # may have a "Donnerstag").
            "several_clubs": len(memberships) > 1,
            "running": running,
            "homes": [(player, accounts[player.pk]) for player in own],
            "in_tournaments": in_tournaments,
            "tables": tables.select_related("runde").order_by("started_at"),
        },
    )


def _departures(user, memberships: list[Membership]) -> list[Departure]:
    """The newest departure from each club the user is no longer a member of, with the
    accounts their player left open there (`open`), while nobody else has that player."""
    departures = sorted(
        Departure.objects.filter(user=user)
        .exclude(club_id__in=[m.club_id for m in memberships])
        .select_related("club", "player")
        .order_by("club_id", "-at", "-pk")
        .distinct("club_id"),
        key=lambda departure: departure.at,
        reverse=True,
    )
    for departure in departures:
        if departure.player is not None and departure.player.user_id is not None:
            departure.player = None  # someone else's now
    players = [departure.player for departure in departures if departure.player]
    # Each Runde's account with a balance, and the transfers the Runde's suggestion has
    # for it: whom to pay, or who pays them.
    accounts = {home.player.pk: home.accounts for home in homes(players)} if players else {}
    # Clubs left with nobody in them (their last member left): nobody books, settles or
    # invites there any more, so the page advises neither (walk 39).
    kept = set(
        Membership.objects.filter(club_id__in=[d.club_id for d in departures]).values_list(
            "club_id", flat=True
        )
    )
    # Running evenings they still sit at: games are booked for them there still (walk 70:
    # the page said their accounts were settled while one ran on).
    seated_at = defaultdict(list)
    for seat in Seat.objects.filter(
        player__in=players, evening__in=Evening.objects.playing_for_money()
    ).select_related("evening__runde"):
        seated_at[seat.player_id].append(seat.evening)
    for departure in departures:
        departure.open = [
            account for account in accounts.get(departure.player_id, []) if account.balance
        ]
        departure.abandoned = departure.club_id not in kept
        departure.running = seated_at[departure.player_id]
        # Rests below the Runde's unit only: no payment to ask a Schreiber for (walk 74).
        departure.due = any(account.transfers for account in departure.open)
    # One left with nothing open: nothing to tell, ever (a club founded to try the app).
    return [d for d in departures if not (d.abandoned and not d.open)]


def _told_apart(running: QuerySet[Evening]) -> list[Evening]:
    """The evenings running, each with how many of its games count (`counted_games`:
    not those struck or taken back); where several run, each with who sits there
    (`seated`), so that two tables started in the same minute are told apart. All read
    with them."""
    evenings = list(
        running.with_counted_games().annotate(
            names=ArrayAgg("seats__player__name", order_by="seats__position")
        )
    )
    for evening in evenings:
        evening.seated = ", ".join(evening.names) if len(evenings) > 1 else ""
    return evenings


@require_http_methods(["GET", "POST"])
@login_required
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    club = None
    if form.is_valid():
        try:
            club = services.create_club(request.user, form.cleaned_data["name"])
        except services.ClubError as error:
            form.add_error("name", str(error))
    if club is not None:
        messages.success(
            request,
            _(
                "Der Verein ist angelegt. Leg jetzt eine Runde an (um Geld) oder unter "
                "„Turniere“ ein Turnier (um Punkte)."
            ),
        )
        return redirect("clubs:detail", club_id=club.pk)
    return render(request, "clubs/club_create.html", {"form": form})


@require_http_methods(["GET", "POST"])
@login_required
def club_rename(request: HttpRequest, club_id: int) -> HttpResponse:
    """The admin puts a typo in the club's name right ("Moosbrug"): every page, invitation
    and backup names the club by it (walk 29)."""
    membership = admin_of(request, club_id)
    # The form works on a copy: a refused name must not rename the page's heading.
    form = ClubForm(request.POST or None, instance=copy.copy(membership.club))
    if form.is_valid() and form.cleaned_data["name"] == membership.club.name:
        messages.info(request, _("Nichts geändert: der Verein heißt schon so."))
        return redirect("clubs:detail", club_id=club_id)
    name = form.cleaned_data.get("name") if form.is_valid() else None
    if name and services.same_name(request.user, name).exclude(pk=club_id).exists():
        form.add_error("name", str(services.SAME_NAME % {"name": name}))
    if form.is_valid():
        club = form.save()
        messages.success(
            request, _("Gespeichert: der Verein heißt jetzt „%(name)s“.") % {"name": club}
        )
        return redirect("clubs:detail", club_id=club.pk)
    return render(
        request,
        "clubs/club_create.html",
        {"membership": membership, "form": form, "club": membership.club},
    )


@require_GET
@login_required
def club_detail(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = membership_of(request, club_id)
    club = membership.club
    player = club.players.filter(user=request.user).first()
    return render(
        request,
        "clubs/club_detail.html",
        {
            "membership": membership,
            "club": club,
            # Who they play as, one tap from their balances: where an invitation lands.
            "player": player,
            "runden": club.runden.money().order_by(german_order("name")),
            # A tournament on now is one tap from the club's page, for every member.
            "running": (
                running := list(
                    club.tournaments.filter(status=Tournament.Status.RUNNING).order_by("-date")
                )
            ),
            # Opened again after finishing: not "Turnier läuft" (walk 53).
            "running_for_corrections": bool(running) and all(t.reopened for t in running),
            "sole_admin": services.is_last_admin(membership),
            "only_member": services.is_only_member(membership),
            "unused": membership.is_admin and services.is_unused_club(club),
            # Said before leaving: afterwards the member sees none of it.
            "open_balances": open_balances([player])[player.pk] if player else [],
            # ... as is an evening they sit at, where games are still booked for them.
            "seated_at": (
                Evening.objects.playing_for_money()
                .filter(seats__player=player)
                .select_related("runde")
                if player
                else []
            ),
        },
    )


@require_POST
@login_required
def club_leave(request: HttpRequest, club_id: int) -> HttpResponse:
    """A member leaves the club, as if an admin had removed their access: their player
    and its games stay, and they can be invited again."""
    membership = membership_of(request, club_id)
    try:
        # Its only member may leave a club as deleting their account would: it stays,
        # with everything booked in it, seen by nobody.
        services.remove_member(membership, by=request.user, may_empty=True)
    except services.ClubError as error:
        messages.error(request, str(error))
        return redirect("clubs:detail", club_id=club_id)
    messages.success(
        request,
        _("Du hast %(club)s verlassen; deine Spiele bleiben dort gebucht.")
        % {"club": membership.club.name},
    )
    return redirect("start")


@require_POST
@login_required
def club_delete(request: HttpRequest, club_id: int) -> HttpResponse:
    """The admin deletes a club where no evening was ever begun (services.delete_club):
    one made to try the app, or founded twice."""
    club = admin_of(request, club_id).club
    try:
        services.delete_club(club)
    except services.ClubError as error:
        messages.error(request, str(error))
        return redirect("clubs:detail", club_id=club_id)
    messages.success(request, _("%(club)s ist gelöscht.") % {"club": club.name})
    return redirect("start")


@require_GET
@login_required
def club_backup(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club's complete data as one JSON file (clubs.backup), for its admin only; the
    download never holds password hashes."""
    club = admin_of(request, club_id).club
    return StreamingHttpResponse(
        backup.chunks(club),
        content_type="application/json",
        headers={"Content-Disposition": backup.attachment(club)},
    )


@require_http_methods(["GET", "POST"])
@login_required
def runde_create(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = admin_of(request, club_id)
    form = RundeForm(request.POST or None, club=membership.club)
    # What a Runde is, read with the field its focus lands on (walk 84: the form had only
    # "Name"; walk 88: a paragraph above it was skipped).
    form.fields["name"].help_text = _(
        "Eine Runde ist eine feste Spielgruppe des Vereins, die um Geld spielt, etwa "
        "„Donnerstagsrunde“: mit eigenem Tarif, eigenen Abenden, Konten und Statistik. Den "
        "Tarif stellst du danach ein. Turniere um Punkte stehen unter „Turniere“."
    )
    if form.is_valid():
        runde = save_unless_taken(
            form,
            lambda: services.create_runde(membership.club, form.cleaned_data["name"], request.user),
            "runde_name_unique_in_club",
            "name",
            form.duplicate_message,
        )
        if runde is not None:
            messages.success(
                request,
                _(
                    "Die Runde ist angelegt, mit dem üblichen Zehner-Tarif. Als Nächstes: den "
                    "Tarif prüfen („Tarif ändern“, unten) und den ersten Abend beginnen."
                ),
            )
            return redirect("clubs:runde", club_id=club_id, runde_id=runde.pk)
    return render(request, "clubs/runde_create.html", {"membership": membership, "form": form})


@require_http_methods(["GET", "POST"])
@login_required
def runde_rename(request: HttpRequest, club_id: int, runde_id: int) -> HttpResponse:
    """The admin renames a Runde (a typo, or the day moved: "Mittwochsrunde"); its evenings,
    tariffs and accounts stay as they are."""
    membership = admin_of(request, club_id)
    runde = money_runde_of(membership, runde_id)
    # The form works on a copy: a refused name must not rename the page's heading.
    form = RundeForm(request.POST or None, instance=copy.copy(runde), club=membership.club)

    def save() -> Runde:
        renamed = form.save()
        # The phones following an open evening of it show the new name at once.
        evening_services.record_runde_rename(renamed, runde.name, request.user)
        return renamed

    if form.is_valid() and save_unless_taken(
        form, save, "runde_name_unique_in_club", "name", form.duplicate_message
    ):
        messages.success(request, _("Gespeichert."))
        return redirect("clubs:runde", club_id=club_id, runde_id=runde.pk)
    return render(
        request, "clubs/runde_create.html", {"membership": membership, "form": form, "runde": runde}
    )


@require_GET
@login_required
def runde_detail(request: HttpRequest, club_id: int, runde_id: int) -> HttpResponse:
    membership = membership_of(request, club_id)
    runde = money_runde_of(membership, runde_id)
    own = membership.club.players.filter(user=request.user).values_list("pk", flat=True).first()
    period = periods.chosen(request, since=periods.first_year(runde.evenings))
    tariff = runde.tariff
    # The period as chosen, for the links to other pages of evenings.
    period_query = (
        f"&{periods.PARAMETER}={period.key}"
        if request.GET.get(periods.PARAMETER) == period.key
        else ""
    )
    page = page_asked(request)
    # The evenings and the tariff's versions are kept as HTML until the Runde changes (a
    # new tariff has a new current one): at ten years they took a third of the page.
    state = stats.runde_state(runde)
    kept = f"{runde.pk}:{state}:{tariff.pk}"
    template = "clubs/runde_detail.html"
    return render(
        request,
        template,
        {
            "membership": membership,
            "runde": runde,
            "tariff": tariff,
            "balances": runde_balances(runde, own),
            "evening_list": stats.kept_html(
                f"runde-evenings:{kept}:{page}{period_query}",
                f"{template}#evening_list",
                lambda: {
                    "evenings": evenings_page(runde, page),
                    "empty": empty_evenings(runde),
                    "tariff": tariff,
                    "period_query": period_query,
                },
            ),
            "tariff_history": stats.kept_html(
                f"runde-tariffs:{kept}",
                f"{template}#tariff_history",
                lambda: {
                    "history": _tariff_history(runde),
                    "tariff": tariff,
                },
            ),
            "running": _told_apart(runde.evenings.playing().order_by("started_at")),
            "period": period,
            "stats": stats.cached_runde_stats(runde, period, state),
            # The viewer's player, whose line the plot draws over the others (plot.js).
            "own": own,
        },
    )


def _tariff_history(runde) -> list:
    """The Runde's tariff versions, newest first, each with how many evenings play by it
    (an evening keeps the tariff it started with) and what it changed from the one before
    (`changes`), and who saved it (`author`): by the name the club plays them under, as
    an evening's history names who changed what, else by their account's. (A GROUP BY
    query: Django leaves Meta.ordering out of it, so it is named.)"""
    versions = list(
        runde.tariffs.select_related("created_by")
        .annotate(
            # (one closed with nothing that counts is in no list: Evening.Status.EMPTY)
            evening_count=Count(
                "evenings",
                filter=Q(evenings__settles_runde=False)
                & Q(evenings__status__in=[Evening.Status.OPEN, Evening.Status.CLOSED]),
            ),
            # Of those, begun before it and switched to it (Evening.retariffed, walk 48).
            switched_count=Count(
                "evenings",
                filter=Q(evenings__settles_runde=False)
                & Q(evenings__status__in=[Evening.Status.OPEN, Evening.Status.CLOSED])
                & Q(evenings__started_at__lt=F("valid_from")),
            ),
        )
        .order_by("-valid_from", "-pk")
    )
    for version, older in itertools.pairwise(versions):
        version.changes = version.changed_from(older)
    played_as = services.names_played_as(
        runde.club, {v.created_by_id for v in versions if v.created_by_id}
    )
    for version in versions:
        if (user := version.created_by) is not None:
            version.author = services.display_name(user, played_as)
    return versions


@require_http_methods(["GET", "POST"])
@login_required
def tariff_edit(request: HttpRequest, club_id: int, runde_id: int) -> HttpResponse:
    membership = admin_of(request, club_id)
    runde = money_runde_of(membership, runde_id)
    current = runde.tariff
    form = TariffForm(request.POST or None, instance=current)
    ausgleich = evening_services.newest_ausgleich(runde)
    if ausgleich:
        # The Runde's accounts keep proposing its plan, in its rounding, until it plays.
        began = timezone.localtime(ausgleich.started_at).strftime("%d.%m.%Y, %H:%M")
        unit = form.fields["settle_unit"]
        unit.help_text = f"{unit.help_text} " + _(
            "Nur solange der Ausgleich der Runde vom %(day)s Uhr ihr letzter Abend ist, "
            "zeigen sie seinen Vorschlag: nach dem Tarif, mit dem er begann."
        ) % {"day": began}
    # The version the form's values come from: kept while the admin corrects a typo.
    shown = int(request.POST["stand"]) if request.POST.get("stand", "").isdigit() else None
    asking = form.is_valid() and form.asked and request.POST.get("bestaetigt") != form.asked_key
    if asking:
        # "10" for Schwarz saved as 10,00 € in one tap, the question only in the preview
        # (walk 67): asked at the save, and the same save again confirms it.
        # The questions in the word itself: at 320 px the preview's were below the fold
        # (walk 69).
        messages.warning(
            request,
            _(
                "Noch nicht gespeichert: bitte die Fragen zur Vorschau prüfen. %(asked)s "
                "Stimmt alles so, nochmal „Tarif speichern“ tippen."
            )
            % {"asked": " ".join(str(question["text"]) for question in form.asked)},
        )
    elif form.is_valid():
        try:
            saved = services.change_tariff(runde, form.save(commit=False), request.user, shown)
        except services.NewerTariff as newer:
            return _tariff_again(request, membership, runde, form, shown, newer.current)
        if saved:
            said = _("Der neue Tarif gilt ab dem nächsten Spielabend.")
            for evening in runde.evenings.playing().order_by("started_at"):
                said += " " + _(
                    "Der laufende Abend vom %(day)s Uhr spielt mit dem bisherigen weiter, "
                    "außer er wird mit „Neuen Tarif für diesen Abend übernehmen …“ umgestellt."
                ) % {"day": timezone.localtime(evening.started_at).strftime("%d.%m.%Y, %H:%M")}
            if ausgleich and ausgleich.tariff.settle_unit != form.instance.settle_unit:
                said += " " + _(
                    "Die Konten der Runde zeigen noch den Vorschlag des Ausgleichs vom "
                    "%(day)s Uhr, nach dessen Tarif, bis wieder gespielt wird."
                ) % {"day": began}
            messages.success(request, said)
        else:
            messages.info(request, _("Nichts geändert: der Tarif ist schon so."))
        return redirect("clubs:runde", club_id=club_id, runde_id=runde.pk)
    if form.is_bound and not asking:
        messages.error(request, _("Nicht gespeichert: bitte die markierten Werte prüfen."))
    examples = (
        worked_examples(form.rules())
        if asking
        else worked_examples(current.rules)
        if request.method == "GET"
        else None
    )
    return render(
        request,
        "clubs/tariff_edit.html",
        {
            "membership": membership,
            "runde": runde,
            "form": form,
            "examples": examples,
            "stand": shown if form.is_bound and shown else current.pk,
            "asked_key": form.asked_key if asking else "",
        },
    )


def _tariff_again(request, membership, runde, form, shown, current: Tariff) -> HttpResponse:
    """The tariff form once more, nothing saved: the Runde saved a newer version since this
    admin's page was made from version `shown`. It shows the newer one with what this
    admin changed on top, and says who changed what since, and where both changed the
    same value (walk 47: a stale page saved undid another's change unseen, and the
    Tarifverlauf blamed this admin for it; walk 49: each change under its own name)."""
    base = runde.tariffs.filter(pk=shown).first() or current
    values = {
        name: value if value != getattr(base, name) else getattr(current, name)
        for name, value in form.cleaned_data.items()
    }
    since = [base, *runde.tariffs.filter(pk__gt=base.pk).select_related("created_by")]
    played_as = services.names_played_as(runde.club, {v.created_by_id for v in since})
    said = []
    for older, newer in itertools.pairwise(sorted(since, key=lambda version: version.pk)):
        who = newer.created_by
        author = (
            _("du")
            if newer.created_by_id == request.user.pk
            else services.display_name(who, played_as)
            if who
            else _("jemand")
        )
        changes = ", ".join(
            f"{label} {was} → {now}" for label, was, now in newer.changed_from(older)
        )
        said.append(f"{author}: {changes}")
    message = _(
        "Nicht gespeichert: der Tarif wurde inzwischen geändert (%(changes)s). Unten steht "
        "er so, mit deinen Änderungen darüber; bitte prüfen und noch einmal speichern."
    ) % {"changes": "; ".join(said)}
    # Where both changed a value: this admin's stands in the form, the saved one is said.
    both = {
        str(Tariff._meta.get_field(name).verbose_name)
        for name, value in values.items()
        if value != getattr(current, name) != getattr(base, name)
    }
    for label, saved, typed in Tariff(**values).changed_from(current):
        if label in both:
            message += " " + _(
                "Beide geändert – %(label)s: gespeichert ist %(saved)s, unten steht deine "
                "Eingabe %(typed)s."
            ) % {"label": label, "saved": saved, "typed": typed}
    messages.error(request, message)
    return render(
        request,
        "clubs/tariff_edit.html",
        {
            "membership": membership,
            "runde": runde,
            "form": TariffForm(instance=current, initial=values),
            "examples": worked_examples(Tariff(**values).rules),
            "stand": current.pk,
        },
    )


@require_POST
@login_required_keep_form("#preview")
def tariff_preview(request: HttpRequest, club_id: int, runde_id: int) -> HttpResponse:
    """What typical games cost under the tariff being typed (HTMX, as the admin types)."""
    membership = admin_of(request, club_id)
    runde = money_runde_of(membership, runde_id)
    form = TariffForm(request.POST, instance=runde.tariff)
    examples = worked_examples(form.rules()) if form.is_valid() else None
    return render(
        request,
        "clubs/tariff_edit.html#preview_answer",
        {"membership": membership, "runde": runde, "form": form, "examples": examples},
    )


@require_http_methods(["GET", "POST"])
@login_required
def players(request: HttpRequest, club_id: int) -> HttpResponse:
    """Everyone in the club sees its players; the admin adds new ones here."""
    access = admin_of if request.method == "POST" else membership_of
    membership = access(request, club_id)
    club = membership.club
    form = PlayerForm(request.POST or None, club=club) if membership.is_admin else None
    # One slip from a player of the club: asked once, as at the table's "Neu am Tisch"
    # (walk 92: "Sep" became a player beside "Sepp" unasked).
    question = _(
        "Meinst du %(near)s? %(near)s gibt es im Verein schon. Ist %(name)s jemand anderes, "
        "nochmal „Hinzufügen“ tippen."
    )
    if (
        request.method == "POST"
        and form.is_valid()
        and not form.asks_about_near_name(request.POST.get("sure", ""), question)
    ):
        player = save_unless_taken(
            form, form.save, "player_name_unique_in_club", "name", form.duplicate_message
        )
        if player is not None:
            messages.success(request, _("%(name)s ist jetzt Spieler im Verein.") % {"name": player})
            # Players come several at once, as a club starts: the name field is ready again.
            return redirect(reverse("clubs:players", args=[club_id]) + "?weiter=1")
    if form is not None and request.GET.get("weiter"):
        name = form.fields["name"]
        name.widget.attrs["autofocus"] = True
        if len(messages.get_messages(request)):
            # Read with the field that has the focus ("Sepp ist jetzt Spieler im Verein."):
            # a message there as the page loads is not read out by itself.
            help_text = [f"{form['name'].auto_id}_helptext"] if name.help_text else []
            name.widget.attrs["aria-describedby"] = " ".join(["messages", *help_text])
    return render(
        request,
        "clubs/players.html",
        {
            "membership": membership,
            "club": club,
            # Who left, was removed or deleted their account, and is not back: marked
            # (walk 70), as the Runde's accounts mark them.
            "players": club.players.select_related("user").with_departures(),
            "form": form,
        },
    )


@require_http_methods(["GET", "POST"])
@login_required
def player_edit(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    membership = admin_of(request, club_id)
    player = get_object_or_404(membership.club.players, pk=player_id)
    # The form works on a copy: a refused rename must not rename the page's heading.
    form = PlayerEditForm(request.POST or None, instance=copy.copy(player), club=membership.club)
    # Where the page was opened from, if not the players' list: a tournament's page, for
    # a guest's name typed wrong at the door.
    back = safe_next(request)

    def save() -> Player:
        renamed = form.save()
        # The phones following an open evening of theirs show the new name at once.
        evening_services.record_rename(renamed, player.name, request.user)
        return renamed

    now = _player_as(player.name, player.active, player.user_id)
    # As the page showed the player: kept while the admin corrects a typo.
    shown = _player_shown(request.POST) if form.is_bound else now
    if form.is_valid() and shown not in (None, now):
        # Another admin saved since this page was made: saved as it is, it would undo
        # their change unseen (walk 47). The form again, nothing saved.
        data = form.cleaned_data
        mine = _player_as(data["name"], data["active"], data["user"] and data["user"].pk)
        values = {key: mine[key] if mine[key] != shown[key] else now[key] for key in now}
        form = PlayerEditForm(instance=copy.copy(player), initial=values, club=membership.club)
        messages.error(
            request,
            _(
                "Nicht gespeichert: inzwischen wurde %(name)s geändert (%(changes)s). Unten "
                "steht, wie es jetzt ist, mit deinen Änderungen; bitte prüfen und noch einmal "
                "speichern."
            )
            % {"name": shown["name"], "changes": _player_changes(form, shown, now)},
        )
        shown = now
    elif form.is_valid() and save_unless_taken(
        form, save, "player_name_unique_in_club", "name", form.duplicate_message
    ):
        messages.success(request, _("Gespeichert."))
        return redirect(back or reverse("clubs:players", args=[club_id]))
    # Offered to delete: a player who never played and has no login (a typo); else why not.
    kept = services.kept_because(player)
    # Entered for a tournament, never seated: one tap to its list of participants.
    entered = (
        player.participations.select_related("tournament").first()
        if kept and not player.seats.exists()
        else None
    )
    return render(
        request,
        "clubs/player_edit.html",
        {
            "membership": membership,
            "player": player,
            "form": form,
            "kept": kept,
            "entered": entered,
            "back": back,
            "shown": shown or now,
            # Beside "Aktiv": set inactive, the player is offered at no table, and what is
            # open stays open (walk 67: not said, unlike leaving the club).
            "open_balances": open_balances([player])[player.pk],
            # ... nor does a running evening they sit at: booked for them still (walk 74).
            "seated_at": list(
                Evening.objects.playing_for_money()
                .filter(seats__player=player)
                .select_related("runde")
            ),
        },
    )


def _player_as(name: str, active: bool, user: int | None) -> dict:
    """A player's editable fields, as the edit page sends them back (`was_…`)."""
    return {"name": name, "active": active, "user": user}


def _player_shown(post) -> dict | None:
    """The player as the page showed them (its `was_…` fields); None if it sent none."""
    if not {"was_name", "was_active", "was_user"} <= post.keys():
        return None
    user = post["was_user"]
    return _player_as(
        post["was_name"], post["was_active"] == "1", int(user) if user.isdigit() else None
    )


def _player_changes(form, before: dict, after: dict) -> str:
    """What changed between `before` and `after`, as the form's labels say it."""
    users = dict(form.fields["user"].choices)

    def say(key: str, value) -> str:
        if key == "active":
            return _("ja") if value else _("nein")
        return str(users.get(value, _("kein Konto")) if key == "user" else value)

    return "; ".join(
        f"{form.fields[key].label}: {say(key, before[key])} → {say(key, after[key])}"
        for key in after
        if before[key] != after[key]
    )


@require_POST
@login_required
def player_delete(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    membership = admin_of(request, club_id)
    player = get_object_or_404(membership.club.players, pk=player_id)
    if services.delete_if_unused(player):
        messages.success(request, _("%(name)s gelöscht.") % {"name": player.name})
        return redirect("clubs:players", club_id=club_id)
    messages.error(
        request,
        _(
            "%(name)s hat schon gespielt, ein Konto oder eine Einladung und bleibt im "
            "Verein. Wer nicht mehr mitspielt, wird auf inaktiv gesetzt."
        )
        % {"name": player.name},
    )
    return redirect("clubs:player", club_id=club_id, player_id=player.pk)


@require_GET
@login_required
def members(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = admin_of(request, club_id)
    club = membership.club
    # Which player each member is: member.user.players_here is [] or [their player].
    members = (
        club.memberships.select_related("user")
        .prefetch_related(
            Prefetch("user__players", queryset=club.players.all(), to_attr="players_here")
        )
        .order_by(german_order("user__first_name"), "user__username")
    )
    # A link for a player who has a login by now is of no use to anyone.
    invitations = club.invitations.usable().filter(Q(player=None) | Q(player__user=None))
    # What each member's player has open, said where their access is removed.
    members = list(members)
    players = [p for member in members for p in member.user.players_here]
    balances = open_balances(players)
    # ... and each running evening they sit at, where games are still booked for them.
    seated_at = defaultdict(list)
    for seat in Seat.objects.filter(
        player__in=players, evening__in=Evening.objects.playing_for_money()
    ).select_related("evening__runde", "player"):
        seated_at[seat.player_id].append(seat)
    for member in members:
        member.open_balances = [
            line for p in member.user.players_here for line in balances.get(p.pk, [])
        ]
        member.seated_at = [seat for p in member.user.players_here for seat in seated_at[p.pk]]
    # Who left or was removed (and is not back): the newest twenty, each once.
    newest = (
        club.departures.exclude(user__in=club.memberships.values("user"))
        .order_by("user_id", "-at", "-pk")
        .distinct("user_id")
        .values("pk")
    )
    departures = club.departures.filter(pk__in=newest).select_related("user", "player", "by")[:20]
    role_changes = club.role_changes.select_related("user", "by", "player")[:20]
    return render(
        request,
        "clubs/members.html",
        {
            "membership": membership,
            "club": club,
            "members": members,
            "departures": departures,
            "role_changes": role_changes,
            # The club's one admin cannot give up the role nor leave: not offered.
            "only_admin": sum(m.role == Membership.Role.ADMIN for m in members) == 1,
            "roles": Membership.Role.choices,
            "invitations": invitations.select_related("player"),
            "invitation_form": InvitationForm(club=club),
        },
    )


@require_POST
@login_required
def member_role(request: HttpRequest, club_id: int, membership_id: int) -> HttpResponse:
    membership = admin_of(request, club_id)
    member = get_object_or_404(membership.club.memberships, pk=membership_id)
    form = RoleForm(request.POST)
    # as the members page shows them: the login's name, and who they play as
    name = services.display_name(member.user)
    player = membership.club.players.filter(user=member.user).first()
    if player is not None and player.name != name:
        name = _("%(name)s (spielt als %(player)s)") % {"name": name, "player": player}
    # The role the page showed: another admin may have changed it since (walk 47).
    shown = request.POST.get("was", member.role)
    if form.is_valid() and shown != member.role != form.cleaned_data["role"]:
        # By whom, as "Rollen geändert" says (walk 49).
        last = membership.club.role_changes.filter(user=member.user).select_related("by").first()
        by = (
            last
            and last.by
            and services.display_name(
                last.by, services.names_played_as(membership.club, {last.by_id})
            )
        )
        said = (
            _(
                "Nichts geändert: %(name)s ist inzwischen %(role)s (von %(by)s geändert). "
                "Bitte noch einmal wählen."
            )
            if by
            else _("Nichts geändert: %(name)s ist inzwischen %(role)s. Bitte noch einmal wählen.")
        )
        messages.error(request, said % {"name": name, "role": member.get_role_display(), "by": by})
    elif form.is_valid():
        was = member.role
        try:
            services.change_role(member, form.cleaned_data["role"], by=request.user)
        except services.ClubError as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                (
                    _("%(name)s ist jetzt %(role)s.")
                    if member.role != was
                    else _("%(name)s ist schon %(role)s; nichts geändert.")
                )
                % {"name": name, "role": member.get_role_display()},
            )
            if member.pk == membership.pk and member.role != Membership.Role.ADMIN:
                # This page is for admins: the club's page is where they are now.
                return redirect("clubs:detail", club_id=club_id)
    else:
        messages.error(request, _("Diese Rolle gibt es nicht."))
    return redirect("clubs:members", club_id=club_id)


@require_POST
@login_required
def member_remove(request: HttpRequest, club_id: int, membership_id: int) -> HttpResponse:
    membership = admin_of(request, club_id)
    member = get_object_or_404(membership.club.memberships, pk=membership_id)
    try:
        services.remove_member(member, by=request.user)
    except services.ClubError as error:
        messages.error(request, str(error))
    else:
        if member.user_id == request.user.pk:
            messages.success(request, _("Der Zugang ist entfernt; gebuchte Spiele bleiben."))
            return redirect("start")  # the club is no longer theirs to see
        # Links for anyone stay open for others, not for them (walk 92).
        said = _(
            "Der Zugang ist entfernt; gebuchte Spiele bleiben. Zurück kommt %(name)s nur mit "
            "einem Link, den ein Admin für %(name)s macht: mit einem Link für alle kann "
            "%(name)s nicht wieder beitreten."
        )
        messages.success(request, said % {"name": services.display_name(member.user)})
    return redirect("clubs:members", club_id=club_id)


@require_POST
@login_required
def invitation_create(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = admin_of(request, club_id)
    form = InvitationForm(request.POST, club=membership.club)
    if form.is_valid() and (player := form.cleaned_data.get("player")) is not None:
        # A player's own link is open already: that one, not a second alike (walk 30).
        open_link = membership.club.invitations.usable().filter(
            player=player, role=form.cleaned_data["role"]
        )
        if (invitation := open_link.order_by("-pk").first()) is not None:
            messages.info(
                request,
                _("Für %(name)s gibt es schon einen offenen Link: diesen teilen.")
                % {"name": player},
            )
            members = reverse("clubs:members", args=[club_id])
            return redirect(f"{members}#einladung-{invitation.pk}")
    if form.is_valid():
        form.instance.created_by = request.user
        invitation = form.save()
        if invitation.player:
            message = _("Die Einladung für %(name)s ist angelegt. Teile den Link mit %(name)s.")
            messages.success(request, message % {"name": invitation.player})
        else:
            messages.success(request, _("Die Einladung ist angelegt. Teile den Link."))
        # Straight to the new link, which is at the foot of the page, under the form.
        members = reverse("clubs:members", args=[club_id])
        return redirect(f"{members}#einladung-{invitation.pk}")
    for errors in form.errors.values():
        messages.error(request, " ".join(errors))
    return redirect("clubs:members", club_id=club_id)


@require_POST
@login_required
def invitation_revoke(request: HttpRequest, club_id: int, invitation_id: int) -> HttpResponse:
    membership = admin_of(request, club_id)
    invitation = get_object_or_404(membership.club.invitations, pk=invitation_id)
    services.revoke_invitation(invitation)
    messages.success(request, _("Die Einladung ist widerrufen; der Link gilt nicht mehr."))
    return redirect("clubs:members", club_id=club_id)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    """The invitation link. Strangers sign up (or log in) first and come back here.

    Who joins says which of the club's players they are, unless the link is for one
    player or they already are one: nobody becomes a second player silently.
    """
    invitation = Invitation.objects.select_related("club", "player").filter(token=token).first()
    if invitation is None:
        message = _(
            "Diese Einladung gibt es nicht: vielleicht ist der Link nicht ganz kopiert. "
            "Bitte den Admin des Vereins, ihn noch einmal zu schicken."
        )
        return render(request, "404.html", {"message": message}, status=404)
    refusal = services.invitation_refusal(invitation, request.user)
    # A member is told so, unless the link is for another player: then that is the news.
    member = _member_already(request, invitation)
    if member and not (refusal and invitation.is_usable):
        return _already_member(request, invitation, member)
    if refusal:
        # A member is told that too, with the way to the club.
        context = {"invitation": invitation, "refusal": refusal, "member": member}
        return render(request, "clubs/join.html", context)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), reverse("signup"))
    club = invitation.club
    own = club.players.filter(user=request.user).first()
    # Back after leaving (or being removed): the player they were, with its games.
    former = services.former_player(club, request.user) if own is None else None
    form = None
    if invitation.player is None and own is None and former is None:
        data = request.POST if request.method == "POST" else None
        form = JoinForm(data, club=club, name=services.display_name(request.user))
    if request.method == "POST" and (form is None or form.is_valid()):
        try:
            membership = services.accept_invitation(
                invitation,
                request.user,
                player=form.player if form else None,
                name=form.new_name if form else "",
            )
        except services.AlreadyMember:
            # A double tap's other request has made them a member meanwhile.
            return _already_member(request, invitation, _member_already(request, invitation))
        except services.ClubError as error:
            # Revoked, expired or taken between the page and the tap: the page says so.
            invitation = Invitation.objects.select_related("club", "player").get(pk=invitation.pk)
            refusal = services.invitation_refusal(invitation, request.user)
            if form and not refusal:
                form.add_error(None, str(error))
            else:
                refusal = refusal or str(error)
        else:
            messages.success(
                request, _("Willkommen im Verein %(club)s!") % {"club": membership.club}
            )
            return redirect("clubs:detail", club_id=membership.club_id)
    return render(
        request,
        "clubs/join.html",
        {
            "invitation": invitation,
            "player": own,
            "former": former,
            "form": form,
            "refusal": refusal,
        },
    )


def _member_already(request: HttpRequest, invitation: Invitation) -> Membership | None:
    if not request.user.is_authenticated:
        return None
    return invitation.club.memberships.filter(user=request.user).first()


def _already_member(
    request: HttpRequest, invitation: Invitation, member: Membership | None
) -> HttpResponse:
    """A member who opens a link of their club (the personal one they joined with, say):
    the page says so and links to the club; a tap on an old page's "Beitreten" changes
    nothing and lands there too."""
    club = invitation.club
    if request.method == "POST":
        messages.info(request, _("Du bist schon Mitglied in %(club)s.") % {"club": club})
        return redirect("clubs:detail", club_id=club.pk)
    return render(request, "clubs/join.html", {"invitation": invitation, "member": member})


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The 404 (handler404). To a request of the evening screen's script, only the word
    it shows where the tap was (evening.js): a Schreiber made a Spieler, or a member
    removed, while the page was open; a phone following the sheet (its poll) is told it
    follows no more. The same words whether or not the evening exists."""
    if getattr(request, "htmx", False) and request.user.is_authenticated:
        context = {
            "following": request.htmx.trigger == "poll",
            "page": request.htmx.current_url_abs_path,
        }
        return render(request, "404_htmx.html", context, status=404)
    if request.method == "POST" and (back := _sent_from(request)):
        # A form the caller may no longer send (made a Spieler with the page open): the
        # way back to the page it was sent from, which they may still see.
        return render(request, "404.html", {"back": back}, status=404)
    return page_not_found(request, exception)


def _sent_from(request: HttpRequest) -> str:
    """The path of the page of this site a form was sent from (its Referer), or ""."""
    referer = urlsplit(request.headers.get("referer", ""))
    path = referer.path + (f"?{referer.query}" if referer.query else "")
    # Only a path of this site ("//elsewhere" is another site's address).
    if (
        referer.netloc == request.get_host()
        and path.startswith("/")
        and url_has_allowed_host_and_scheme(path, allowed_hosts={request.get_host()})
    ):
        return path
    return ""


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent with an outdated security token (CSRF_FAILURE_VIEW): say so in German
    instead of Django's English 403 page. Nothing was saved."""
    return render(request, "403_csrf.html", status=403)


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """For load balancers and compose: the app answers and reaches its database."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return HttpResponse("ok", content_type="text/plain")
