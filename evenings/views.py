import functools
import re
import uuid
from collections import defaultdict
from html import escape

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import F, Max, Min, Prefetch, Q, Sum
from django.http import Http404, HttpRequest, HttpResponse, QueryDict, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import dateformat, timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubs import players as player_pages
from clubs.access import login_required_keep_form, membership_of, money_runde_of, scorekeeper_of
from clubs.forms import PlayerForm, euro_input, save_unless_taken
from clubs.models import Player, Tariff, german_key, one_line
from clubs.services import display_name, names_played_as
from clubs.stats import kept, named
from clubs.templatetags.money import amount
from evenings import export, services, sheet, wording
from evenings.access import admin_evening_of, evening_of, scored_evening_of, unchanged
from evenings.forms import GameForm, PaymentForm, StartForm
from evenings.models import Change, Evening, Game, LedgerEntry, Seat
from evenings.reads import seats_of
from scoring import ScoringError
from scoring.model import MAX_JUNGFRAU_DOUBLINGS


@require_http_methods(["GET", "POST"])
@login_required
# never_cache: a page whose forms carry a key is loaded anew on Back and Forward, with a
# fresh key (from the browser's cache it would send a key that has booked already).
@never_cache
def start(request: HttpRequest, club_id: int, runde_id: int) -> HttpResponse:
    membership = scorekeeper_of(request, club_id)
    runde = money_runde_of(membership, runde_id)
    # Guests entered at a tournament's door play tournaments, not the club's Runden.
    # With who left the club, marked (walk 76).
    players = list(membership.club.players.filter(active=True, guest=False).with_departures())
    shown, newcomer = _with_newcomer(request, membership.club, players)
    if shown is not None:  # "Hinzufügen": the form again, the newcomer seated
        form = StartForm(initial=shown, players=players)
    else:
        form = StartForm(request.POST or None, players=players)
    # A second phone at the table wants the evening that runs, not a new one.
    # (Not one opened again for corrections only: it takes no game; walk 34.)
    running = runde.evenings.playing().order_by("-started_at")
    running = running.prefetch_related("seats__player")
    same: list[tuple[Evening, dict[int, str]]] = []
    if form.is_valid() and not form.cleaned_data["again"]:
        chosen = {p.pk for p in form.cleaned_data["players"]}
        # Nobody plays at two tables: the evenings running in the club's other Runden too.
        elsewhere = (
            Evening.objects.playing_for_money()
            .filter(runde__club=membership.club)
            .exclude(runde=runde)
            .select_related("runde")
            .prefetch_related("seats__player")
        )
        seated = [
            (e, {s.player_id: s.player.name for s in e.seats.all()}) for e in [*running, *elsewhere]
        ]
        # The same table, or someone who already sits at another (a slip of the finger
        # between two Sepps, or an evening left open): asked before it begins, naming
        # every such evening, the same table first.
        same = sorted(
            ((e, names) for e, names in seated if names.keys() & chosen),
            key=lambda seated_there: seated_there[1].keys() != chosen,
        )
        # Sent again (a double tap): the evening it started is the answer. Asked after
        # the running evenings are read, so that the first tap's evening, committed
        # between the two reads, is found by its key rather than taken for another's.
        key = form.cleaned_data["key"]
        if same and key is not None and runde.evenings.filter(key=key).exists():
            same = []
        for running_there, there in same:
            form.add_error(None, _already_seated(running_there, there, chosen, runde, len(same)))
        if len(same) > 1:  # said once for all of them (walk 30)
            form.add_error(
                None, _("Dort weiterschreiben, oder unten bestätigen, dass hier ein neuer beginnt.")
            )
    if form.is_valid():
        try:
            evening = services.start_evening(
                runde,
                form.cleaned_data["players"],
                form.cleaned_data["dealer_index"],
                request.user,
                key=form.cleaned_data["key"],
            )
        except services.EveningError as error:
            form.add_error(None, str(error))
        else:
            return redirect("evenings:detail", evening_id=evening.pk)
    context = {
        "membership": membership,
        "runde": runde,
        "form": form,
        "newcomer": newcomer or newcomer_form(membership.club),
        "running": running,
        "same": [running_there for running_there, _there in same],
    }
    return render(request, "evenings/start.html", context)


def _already_seated(
    evening: Evening, there: dict[int, str], chosen: set[int], runde, asked: int
) -> str:
    """What the start form asks when players chosen (`chosen`) sit at `evening` already
    (`there`: its players' names by id): carry on there, or confirm a new evening. Of
    several such evenings (`asked`), each is named, and what to do said once after."""
    when = dateformat.format(timezone.localtime(evening.started_at), "d.m.Y, H:i")
    both = [there[pk] for pk in there if pk in chosen]
    named = {"who": wording.enumeration(both), "runde": evening.runde.name, "when": when}
    if asked > 1 and evening.runde_id != runde.pk:
        return (
            ngettext(
                "%(who)s sitzt schon an einem laufenden Abend der Runde „%(runde)s“ (seit "
                "%(when)s).",
                "%(who)s sitzen schon an einem laufenden Abend der Runde „%(runde)s“ (seit "
                "%(when)s).",
                len(both),
            )
            % named
        )
    if asked > 1:
        return (
            ngettext(
                "%(who)s sitzt schon an einem laufenden Abend dieser Runde (seit %(when)s).",
                "%(who)s sitzen schon an einem laufenden Abend dieser Runde (seit %(when)s).",
                len(both),
            )
            % named
        )
    if evening.runde_id != runde.pk:
        return (
            ngettext(
                "%(who)s sitzt schon an einem laufenden Abend der Runde „%(runde)s“ "
                "(seit %(when)s): dort weiterschreiben, oder unten bestätigen, dass hier "
                "ein neuer beginnt.",
                "%(who)s sitzen schon an einem laufenden Abend der Runde „%(runde)s“ "
                "(seit %(when)s): dort weiterschreiben, oder unten bestätigen, dass hier "
                "ein neuer beginnt.",
                len(both),
            )
            % named
        )
    if there.keys() == chosen:
        return _(
            "Mit genau diesen Spielern läuft hier schon ein Abend (seit %(when)s): "
            "dort weiterschreiben, oder unten bestätigen, dass ein neuer beginnt."
        ) % {"when": when}
    return ngettext(
        "%(who)s sitzt schon an einem laufenden Abend (seit %(when)s): dort "
        "weiterschreiben, oder unten bestätigen, dass ein neuer beginnt.",
        "%(who)s sitzen schon an einem laufenden Abend (seit %(when)s): dort "
        "weiterschreiben, oder unten bestätigen, dass ein neuer beginnt.",
        len(both),
    ) % {"who": wording.enumeration(both), "when": when}


NEWCOMER = "neu"  # the prefix of the newcomer's name field on the seating forms


def newcomer_form(club, data=None) -> PlayerForm:
    """The name of someone new at the table: mostly left empty, so not announced as
    required."""
    return PlayerForm(data, club=club, prefix=NEWCOMER, use_required_attribute=False)


PLACES = [f"seat{i}" for i in range(max(services.SEATS))]


def _with_newcomer(request, club, players: list) -> tuple[dict | None, PlayerForm | None]:
    """Someone new to the club sits down: "Hinzufügen" on the seating form (to begin an
    evening, or to seat the table anew) makes them a player of the club, as the admin's
    players page does, and seats them at the first free place; the places chosen so far
    stay. Whoever keeps score may, so that a guest in the pub needs no admin. A name typed
    and the form sent with the other button adds them too, rather than losing them: the
    form comes back to be checked.

    A name the club has (any case) seats that player: one on offer (or "Hinzufügen"
    tapped twice, the second tap finding the first one's player), one no longer active
    (back at the table), a guest of a tournament's door (now at the club's evenings). A
    name that only reads like another's is refused at the field, as on the players' page.

    Answers the form's values to show again (the places as sent, the newcomer added to
    `players` and seated) and the newcomer's form (its error, if refused); (None, None)
    for any other request."""
    typed = one_line(request.POST.get(f"{NEWCOMER}-name", ""))
    if request.method != "POST" or ("add_player" not in request.POST and not typed):
        return None, None
    shown = {
        name: int(value)
        for name in [*PLACES, "first_dealer"]
        if re.fullmatch(r"\d{1,9}", value := request.POST.get(name, ""))
    }
    newcomer = newcomer_form(club, request.POST)
    # A name PostgreSQL cannot hold (a NUL) is not looked up: the form says why at the field.
    known = typed and "\x00" not in typed
    player = club.players.filter(name__iexact=typed).first() if known else None
    seated = next((name for name in PLACES if player and shown.get(name) == player.pk), None)
    free = next((name for name in PLACES if name not in shown), None)
    if seated is None and free is None:
        newcomer.is_valid()
        newcomer.add_error("name", _("Alle Plätze sind besetzt: erst einen Platz frei machen."))
        return shown, newcomer
    woken = None
    if player is not None and (not player.active or player.guest):
        # Said, so that an admin's "nicht aktiv" is not undone unnoticed (walk 62).
        woken = _("wieder aktiv") if not player.active else _("jetzt Spieler im Verein")
        player.active, player.guest = True, False
        player.save(update_fields=["active", "guest"])
    question = _(
        "Meinst du %(near)s? Dann „%(near)s“ eintragen. Ist %(name)s neu im Verein, "
        "nochmal „Hinzufügen“ tippen."
    )
    if (
        player is None
        and newcomer.is_valid()
        and newcomer.asks_about_near_name(request.POST.get(f"{NEWCOMER}-sure", ""), question)
    ):
        return shown, newcomer
    if player is None and newcomer.is_valid():
        message = newcomer.duplicate_message
        player = save_unless_taken(
            newcomer, newcomer.save, "player_name_unique_in_club", "name", message
        )
        if player is not None:
            messages.success(request, _("%(name)s ist jetzt Spieler im Verein.") % {"name": player})
    if player is None:
        return shown, newcomer
    if player.pk not in {p.pk for p in players}:
        players.append(player)
        players.sort(key=lambda p: (german_key(p.name), p.pk))  # as the club lists them
    if seated is None:
        shown[seated := free] = player.pk
    name = f"{player} ({woken})" if woken else player
    said = _("%(name)s sitzt auf Platz %(n)s.") % {"name": name, "n": int(seated[4:]) + 1}
    if "add_player" not in request.POST:  # typed, and the form sent to begin
        said += " " + _("Noch nicht begonnen: bitte die Plätze prüfen und nochmal tippen.")
    messages.info(request, said)
    return shown, newcomer_form(club)


@require_http_methods(["GET", "POST"])
@login_required
@never_cache
def seats(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Seat the table anew: before the first game the evening's own seating changes
    (services.change_seats); once games are booked, someone joining or leaving closes the
    evening and starts a new one with the new table (services.continue_at_new_table)."""
    evening, membership = scored_evening_of(request, evening_id)
    if evening.is_table or evening.settles_runde:
        raise Http404
    if not evening.is_open and request.method == "GET":
        messages.error(request, _("Der Abend ist abgeschlossen."))
        return redirect("evenings:detail", evening_id=evening.pk)
    if evening.closed_for_play and request.method == "GET":
        messages.error(request, services.no_seats_because(evening))
        return redirect("evenings:detail", evening_id=evening.pk)
    seated = seats_of(evening)
    played = bool(evening.last_number)
    first_dealer = evening.first_dealer
    next_dealer = None
    if played:  # the new table's first dealer: who deals next here
        next_dealer = services.next_deal(evening, seated).dealer
        first_dealer = next(s.position for s in seated if s.player_id == next_dealer.pk)
    players = list(
        membership.club.players.with_departures().filter(
            Q(active=True, guest=False) | Q(pk__in=[s.player_id for s in seated])
        )
    )
    initial = {f"seat{s.position}": s.player_id for s in seated}
    shown, newcomer = _with_newcomer(request, membership.club, players)
    if shown is not None:  # "Hinzufügen": the form again, the newcomer seated
        # The one due to deal gone from the table and someone in their chair now: that
        # one deals, as at the table (walk 76: the chip stayed where the empty chair had
        # sent it, the newcomer skipped).
        due = next((s.player_id for s in seated if s.position == first_dealer), None)
        chair = f"seat{first_dealer}"
        if due not in {shown.get(place) for place in PLACES} and shown.get(chair):
            shown["first_dealer"] = first_dealer
        form = StartForm(players=players, initial=shown)
    else:
        form = StartForm(
            request.POST or None, players=players, initial=initial | {"first_dealer": first_dealer}
        )
    if played:  # not the evening's first dealer (walk 84: "Erster Geber" mid-evening)
        form.fields["first_dealer"].label = _("Gibt als Nächstes")
    if form.is_valid():
        seen = _version(request.POST.get("v", ""))
        table = (form.cleaned_data["players"], form.cleaned_data["dealer_index"], request.user)
        same = [p.pk for p in table[0]] == [s.player_id for s in seated]
        try:
            if played and same:
                # The same table, another dealer: the dealer was wrong from the start.
                now = services.redeal(evening.pk, table[1], request.user, seen=seen)
                messages.success(
                    request,
                    _(
                        "Der Geber ist berichtigt: alle Spiele sind mit ihm neu verteilt und "
                        "neu gewertet."
                    ),
                )
                return redirect("evenings:detail", evening_id=evening.pk)
            if played:
                key = form.cleaned_data["key"]
                now = services.continue_at_new_table(evening.pk, *table, seen=seen, key=key)
            else:
                now = services.change_seats(evening.pk, *table, seen=seen)
        except services.SeatsMoved as error:
            # Changed on another phone meanwhile: the form again, as the evening is now
            # (or the evening itself, if it was closed: its page says so).
            if services.reseatable(evening.pk):
                messages.error(request, str(error))
            return redirect("evenings:seats", evening_id=evening.pk)
        except services.EveningError as error:
            form.add_error(error.field if error.field in form.fields else None, str(error))
        else:
            if now.pk == evening.pk:
                messages.success(request, _("Die Sitzordnung ist geändert."))
            else:
                # The night goes on, its Bock with it (walk 90: "neuer Abend" read as if
                # the Bockrunde had ended with it).
                said = _(
                    "Neuer Tisch: hier geht der Abend weiter. Der Tisch bis hierher ist "
                    "abgeschlossen; seine Abrechnung nimmt weiter Zahlungen an."
                )
                if carried := services.carried_bock(now):
                    said += " " + ngettext(
                        "Das offene Bockspiel gilt hier weiter.",
                        "Die %(n)s offenen Bockspiele gelten hier weiter.",
                        carried,
                    ) % {"n": carried}
                messages.success(request, said)
            return redirect("evenings:detail", evening_id=now.pk)
    # The version the form was made at: sent back with it, also after a typo or a
    # newcomer added.
    seen = _version(request.POST.get("v", "")) if request.method == "POST" else None
    context = {
        "evening": evening,
        "membership": membership,
        "form": form,
        "newcomer": newcomer or newcomer_form(membership.club),
        "played": played,
        # Said, as the deal goes by the chair: whoever takes it deals (walk 75).
        "next_dealer": next_dealer,
        "next_place": first_dealer + 1,
        "seen": evening.version if seen is None else seen,
    }
    if played and (lean := sheet.whole(evening, membership, seated)["sheet"]).shows_bock:
        # Said before a new table begins: a Bock round counts only at its own evening.
        context["bock_remaining"] = lean.bock_remaining
    return render(request, "evenings/seats.html", context)


def _version(value: str) -> int | None:
    """The evening's version a phone says it shows (`v`), if it is one."""
    return int(value) if re.fullmatch(r"\d{1,9}", value) else None


# A form that takes something back says what it saw (the evening's version, the game as
# it showed it); one that does not (a hand-made request, a page older than the field)
# cannot be checked against what changed since, and changes nothing.
UNCHECKED = gettext_lazy(
    "Nichts geändert: die Seite sagt nicht, welchen Stand sie zeigt. Bitte neu laden und "
    "nochmal tippen."
)


def _names(evening: Evening, seats: list | None = None) -> dict[int, str]:
    """{player id: name} of everyone seated at the evening; at an Ausgleich, where nobody
    sat, of the club's players (a short list: no sum over the Runde's evenings for it)."""
    if evening.settles_runde:
        return player_pages.marked_names(evening.runde.club.players.all())
    return {s.player_id: s.player.name for s in (seats if seats is not None else seats_of(evening))}


def _live_context(
    evening: Evening, membership, form: GameForm | None = None, notice: str = ""
) -> dict:
    seats = seats_of(evening)
    deal = services.next_deal(evening, seats)
    can_score = membership is not None and membership.can_score and evening.is_open
    entry = can_score and not evening.play_over
    if entry and form is None:
        form = GameForm(tariff=evening.tariff, playing=deal.seated, deal=deal)
    context = sheet.whole(evening, membership, seats) | {
        "evening": evening,
        "membership": membership,
        "deal": deal,
        "form": form if entry else None,
        "names": sheet.seated_names(seats),
        "can_score": can_score,
        "notice": notice,
    }
    return context | _restore_bar(evening, seats) if can_score else context


def _restore_bar(evening: Evening, seats: list | None = None) -> dict:
    """The bar's "Rückgängig" (services.restorable), and the game it would set back."""
    restorable = services.restorable(evening)
    return {
        "restorable": restorable,
        "restorable_game": _restorable_word(restorable, _names(evening, seats))
        if restorable
        else "",
    }


@require_GET
@login_required
@never_cache
def detail(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening, membership = evening_of(request, evening_id)
    if evening.settles_runde:  # no games, no sheet: its payments are all it has
        return redirect("evenings:settlement", evening_id=evening.pk)
    context = _live_context(evening, membership) | {
        "continued_at": services.continued_at(evening),
        "taken_back": "zurueckgenommen" in request.GET,  # the answer to a take-back
        # A new table's standing begins at 0: what each won or lost before it (walk 92).
        "tables_before": _night_lines(evening, services.tables_before(evening), games=True),
    }
    # Settled by a later Ausgleich of the Runde: said instead of "Wieder öffnen".
    if (
        not evening.is_open
        and membership.is_admin
        and not evening.is_table
        and (ausgleich := services.settled_by(evening)) is not None
    ):
        context["settled_for_good"] = services.settled_for_good(ausgleich)
    elif (not evening.is_open and membership.is_admin) or (
        evening.is_open and evening.corrections_only
    ):
        # The reopen's confirmation says that it would take corrections only; open so,
        # the page leads to where the table plays now.
        context["newer_evening"] = services.newer_evening(evening)
        if not evening.is_open and not evening.is_table:
            # Said at closing to lapse: opened again for play, they count again (walk 50).
            context["bock_open"] = services.bock_open(evening)
    if membership.can_score and evening.share_token:
        url = request.build_absolute_uri(reverse("evenings:live", args=[evening.share_token]))
        context["share_url"] = url
        context["share_qr"] = qr_svg(url)
    return render(request, "evenings/evening.html", context)


@functools.lru_cache(maxsize=256)
def qr_svg(url: str) -> str:
    """The QR code of a read-only link as inline SVG; made once per link and process."""
    return segno.make(url, error="m").svg_inline(scale=4, dark="#1d1d1b")


def _posted_form(
    request, evening: Evening, current: services.Deal | None = None, seats: list | None = None
):
    """The entry form as posted, with "" for the notice.

    The chips of a form are the players of the deal its token names. If that deal is no
    longer the `current` one, another phone has moved on since the form was shown (booked,
    undone or restored a game): then a fresh form for the current deal that keeps every
    choice that still applies, and a German notice of what happened. Without `current`
    (a booking), the booking itself finds out under the evening's lock (StaleDeal).
    `seats`: the evening's seats, if the caller has read them.
    """
    seats = seats if seats is not None else seats_of(evening)
    named = _deal_named(request.POST.get("deal", ""), seats)
    if named is not None and (current is None or named.token == current.token):
        form = GameForm(request.POST, tariff=evening.tariff, playing=named.seated, deal=named)
        form.seats = seats
        return form, ""
    return _carried_over(request, evening, current or services.next_deal(evening, seats))


def _deal_named(token: str, seats: list) -> services.Deal | None:
    """The deal a form's token ("number-dealer") names, or None if it names none."""
    number, _sep, dealer = token.partition("-")
    if not (re.fullmatch(r"\d{1,9}", number) and re.fullmatch(r"\d{1,18}", dealer)):
        return None
    at = next((s.position for s in seats if s.player_id == int(dealer)), None)
    return None if at is None else services.deal_at(seats, at, int(number))


def _carried_over(request, evening: Evening, deal: services.Deal) -> tuple[GameForm, str]:
    """A stale form's choices on a form for `deal`, and the notice of what happened.

    If the choices name a game another phone has just booked (its kind and who played
    it), both phones were entering that one game: the choices go, so that a tap on
    "Speichern" does not book it a second time. If they had it otherwise (verloren, not
    gewonnen), the notice says how (`form.entered`): one of the two is wrong.

    If the other phone booked the very deal the choices were entered for as another game
    (`form.clash`), they are either that game, had otherwise (two phones entering it at
    once), or the next one, entered on a phone that did not hear of the booking: they
    stay, and the notice says both ways (walk 56: "bitte prüfen und speichern" alone read
    as "book it as the next game", a game nobody played); the first "Speichern" brings
    the notice into view (evening.js)."""
    token = request.POST.get("deal", "")
    form = GameForm.carried_over(request.POST, tariff=evening.tariff, deal=deal)
    since, named_from, games = _named_since(evening, token, deal)
    repeated = next(
        (game for game in games if game.is_booked and GameForm.names_game(request.POST, game)),
        None,
    )
    booked_here = repeated is not None and str(repeated.key) == request.POST.get("key")
    clash = None
    if repeated is not None:
        key = uuid.uuid4() if booked_here else form.initial["key"]
        form = GameForm(tariff=evening.tariff, playing=deal.seated, deal=deal, initial={"key": key})
    elif form.has_choices():
        clash = _booked_at(evening, token, named_from, games)
    form.repeated, form.booked_here, form.clash = repeated, booked_here, clash
    otherwise = clash if clash is not None else repeated if not booked_here else None
    form.entered = _entered_otherwise(request.POST, evening, token, otherwise) if otherwise else ""
    seen = _version(request.POST.get("v", ""))
    return form, _stale_notice(evening, since, named_from, games, deal, form, seen)


def _moved_otherwise(evening: Evening, seen: int | None, names: dict[int, str]) -> str:
    """What moved the deal since version `seen` where no game came or went after the
    form's: the newest older game struck or counted again (walk 69: "die Reihenfolge hat
    sich geändert" said of "Spiel 1 zählt wieder"), or the seats changed."""
    kinds = [Change.Kind.VOID, Change.Kind.RESTORE, Change.Kind.SEATS]
    change = (
        evening.changes.filter(version__gt=seen, kind__in=kinds)
        .select_related("game")
        .order_by("-version")
        .first()
        if seen is not None
        else None
    )
    if change is None:
        return _("die Reihenfolge hat sich geändert")
    if change.kind == Change.Kind.SEATS:
        return _("die Sitzordnung hat sich geändert")
    told = (
        _("Spiel %(n)s zählt wieder (%(game)s)")
        if change.kind == Change.Kind.RESTORE
        else _("Spiel %(n)s gestrichen (%(game)s)")
    )
    return told % {"n": change.game.number, "game": wording.summary(change.game, names)}


def _booked_at(evening: Evening, token: str, named_from: int, games: list[Game]) -> Game | None:
    """The game booked at the deal a stale form's `token` names (its number and dealer),
    if any. Among `games` (the last few, from number `named_from` on) if it is one of
    them, as it is but for a phone that slept through a round."""
    shown = _deal_named(token, seats_of(evening))
    if shown is None:
        return None
    if shown.number < named_from:
        games = list(evening.games.filter(number=shown.number))
    return next(
        (
            game
            for game in games
            if (game.number, game.dealer_id) == (shown.number, shown.dealer.pk) and game.is_booked
        ),
        None,
    )


def _entered_otherwise(data, evening: Evening, token: str, game: Game) -> str:
    """The game as a stale form for deal `token` had it ("Sauspiel Vroni mit Resi ·
    verloren · Schneider"), if not as `game` was booked; else ""."""
    shown = _deal_named(token, seats_of(evening))
    if shown is None:
        return ""
    posted = GameForm(data, tariff=evening.tariff, playing=shown.seated)
    if not posted.is_valid():
        return ""
    entered = posted.game_input()
    if entered.fingerprint() == services.GameInput.of(game).fingerprint():
        return ""
    return wording.line(entered, _names(evening))


# A stale form's notice names this many of the games since; the ones before are counted.
NAMED_SINCE = 3


def _named_since(evening: Evening, token: str, deal: services.Deal) -> tuple[int, int, list[Game]]:
    """The first game a form for `token` did not know, the first its notice names, and
    the games from that one on (the last few, struck ones too)."""
    number = token.partition("-")[0]
    since = int(number) if re.fullmatch(r"\d{1,9}", number) else deal.number
    named_from = max(since, evening.last_number - NAMED_SINCE + 1)
    games = _games_since(evening, named_from)
    if not games and 0 < evening.last_number < since:
        # The deal went back: the last game was taken back elsewhere (its number stays
        # taken, so the form's number is the next one's still). It is named.
        games = [g for g in _games_since(evening, evening.last_number) if not g.is_booked]
    return since, named_from, games


def _stale_notice(
    evening: Evening,
    since: int,
    named_from: int,
    games: list[Game],
    deal: services.Deal,
    form: GameForm,
    seen: int | None,
) -> str:
    """What another phone did since the form was shown (from game `since` on, at version
    `seen` of the evening), in German: the last few games booked or taken back, and how
    many there were in all if more (a phone that slept through a round), so the notice
    and its cost stay small; with none, what else moved the deal."""
    dealer = deal.dealer.name
    if form.booked_here:
        return _ends(
            _(
                "Gebucht: %(game)s – von diesem Handy; nur die Antwort kam nicht an. "
                "Jetzt gibt %(dealer)s."
            )
            % {"game": wording.told(form.repeated, _names(evening)), "dealer": dealer},
            dealer,
        )
    earlier = named_from - since + max(0, len(games) - NAMED_SINCE)
    names = _names(evening)
    # "Spiel 8 gebucht (Sauspiel Sepp mit Toni · 4 Laufende)": all of it, as the phones
    # that follow hear it, and no "8." that a screen reader reads as an ordinal.
    what = "; ".join(
        (
            _("Spiel %(n)s gebucht (%(game)s)")
            if game.is_booked
            else _("Spiel %(n)s gestrichen (%(game)s)")
            if getattr(game, "taken_back_kind", None) == Change.Kind.VOID
            else _("Spiel %(n)s zurückgenommen (%(game)s)")
        )
        % {"n": game.number, "game": wording.summary(game, names)}
        for game in games[-NAMED_SINCE:]
    )
    if earlier:
        # Walk 68: "8 Spiele, zuletzt Spiel 19 gebucht (…); Spiel 20 …" named 19 the last.
        named = min(len(games), NAMED_SINCE)
        what = ngettext(
            "%(count)s Spiele, das letzte: %(what)s",
            "%(count)s Spiele, die letzten %(named)s: %(what)s",
            named,
        ) % {"count": earlier + named, "named": named, "what": what}
    notice = _("Inzwischen auf einem anderen Handy: %(what)s. Jetzt gibt %(dealer)s.") % {
        "what": what or _moved_otherwise(evening, seen, names),
        "dealer": dealer,
    }
    notice = _ends(notice, dealer)
    # A player chosen who sits this deal out (the new dealer, with five at the table).
    who = [names[pk] for pk in form.left_out if pk in names]
    if form.repeated is not None and form.entered:
        # With the way to the game's correction, in one tap.
        otherwise = _(
            "Das war das Spiel, das du eingegeben hast, aber du hattest es anders: "
            "%(entered)s. Stimmt das, bitte"
        ) % {"entered": form.entered}
        return format_html(
            '{} {} <a href="{}">{}</a>. {}',
            notice,
            otherwise,
            reverse("evenings:game", args=[evening.pk, form.repeated.pk]),
            _("Spiel %(n)s korrigieren") % {"n": form.repeated.number},
            _("Deine Auswahl ist gelöscht, damit es nicht doppelt gebucht wird."),
        )
    elif form.repeated is not None:
        notice += " " + _(
            "Das war das Spiel, das du eingegeben hast: deine Auswahl ist gelöscht, "
            "damit es nicht doppelt gebucht wird."
        )
    elif form.clash is not None:
        number = form.clash.number
        if form.entered:
            had = _("Du hattest für Spiel %(n)s etwas anderes: %(entered)s. War das Spiel "
                    "%(n)s, bitte hier nicht speichern, sondern") % {
                "n": number, "entered": form.entered}  # fmt: skip
        else:
            had = _("Deine Auswahl war für Spiel %(n)s. War sie für Spiel %(n)s, bitte hier "
                    "nicht speichern, sondern") % {"n": number}  # fmt: skip
        # The game now to book by number (walk 58: "das nächste Spiel" two games on).
        next_game = _(
            "Ist es schon Spiel %(next)s, ist deine Auswahl übernommen, soweit sie noch "
            "passt – bitte prüfen und speichern."
        ) % {"next": deal.number}
        if who:
            next_game += " " + ngettext(
                "%(who)s spielt dieses Spiel nicht mit.",
                "%(who)s spielen dieses Spiel nicht mit.",
                len(who),
            ) % {"who": wording.enumeration(who)}
        return format_html(
            '{} {} <a href="{}">{}</a>. {}',
            notice,
            had,
            reverse("evenings:game", args=[evening.pk, form.clash.pk]),
            _("Spiel %(n)s korrigieren") % {"n": number},
            next_game,
        )
    elif who:
        notice += " " + ngettext(
            "Deine Auswahl ist übernommen, soweit sie noch passt: %(who)s spielt dieses Spiel "
            "nicht mit. Bitte prüfen und speichern.",
            "Deine Auswahl ist übernommen, soweit sie noch passt: %(who)s spielen dieses Spiel "
            "nicht mit. Bitte prüfen und speichern.",
            len(who),
        ) % {"who": wording.enumeration(who)}
    elif form.has_choices():
        notice += " " + _(
            "Deine Auswahl ist übernommen, soweit sie noch passt – bitte prüfen und speichern."
        )
    return notice


def _ends(sentence: str, name: str) -> str:
    """The sentence without a second full stop after a name that ends in one ("Jetzt gibt
    Sepp H.", not "Sepp H..")."""
    return sentence.replace(f"{name}.", name) if name.endswith(".") else sentence


def _games_since(evening: Evening, since: int) -> list[Game]:
    """The evening's games from number `since` on, struck ones too. The last booked games
    a booking read are enough when they are all of them (nothing struck out in between)."""
    state = evening.state
    if state is not None:
        recent = [game for game in state.recent if game.number >= since]
        if [game.number for game in recent] == list(range(since, state.last_number + 1)):
            return recent
    # With whether a game no longer counted was struck or taken back (the notice says).
    return list(evening.games.filter(number__gte=since).with_taken_back().order_by("number"))


def _add_engine_error(form: GameForm, error: services.EveningError) -> None:
    field = error.field if error.field in form.fields else None
    form.add_error(field, str(error))


LAST_GAME_ELSEWHERE = gettext_lazy(
    "Das letzte Spiel des Tisches ist inzwischen auf einem anderen Handy gebucht worden "
    "– dieses nicht."
)


@require_POST
@login_required_keep_form("#entry-status")
@never_cache  # without JavaScript, a refusal is the evening's page (Back: not the old one)
def book(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Book the game on the form. The answer to the screen is small, out of band: the new
    row, the standing, the next deal and a fresh key; the chips only when other players
    sit at the table now. Its size and its cost do not grow with the evening."""
    evening, membership = scored_evening_of(
        request, evening_id, state=services.BOCK_GAMES, key=request.POST.get("key", "")
    )
    state = evening.state
    # A key that has booked is a retry, which the booking answers with "Schon gebucht".
    if not state.key_booked:
        if not evening.is_open:
            return _closed_meanwhile(request, evening)
        if evening.play_over:  # a table that takes no new game (Evening.play_over)
            if evening.all_played:  # another phone booked its last game meanwhile
                message = LAST_GAME_ELSEWHERE
            elif evening.corrections_only:  # opened again after the Runde played on
                message = _("Dieser Abend ist nur zum Korrigieren wieder offen: die "
                            "Runde spielt inzwischen an einem neueren Abend – nichts "
                            "gebucht.")  # fmt: skip
            elif not evening.is_table:  # went on at a new table
                message = _("Dieser Abend ging an einem neuen Tisch weiter: hier lässt sich "
                            "nur noch korrigieren – nichts gebucht.")  # fmt: skip
            else:
                message = _("Dieser Tisch ist beendet: hier lässt sich nur noch korrigieren "
                            "– nichts gebucht.")  # fmt: skip
            return _closed_meanwhile(request, evening, message)
        if request.POST.get("deal") != services.next_deal(evening, state=state).token:
            # Another phone has booked, undone or restored a game since this form was
            # shown: nothing to check or book.
            return _moved_on(request, evening, membership)
        if _tariff_shown(request) not in (None, evening.tariff_id):
            # An admin gave the evening the Runde's newer tariff since: the form's preview
            # showed other amounts (walk 30).
            return _retariffed(request, evening)
    form, notice = _posted_form(request, evening)
    moved_amounts = False
    if not notice and not state.key_booked and form.is_valid():
        _ask_if_again(request, evening, form)
    if not notice and form.is_valid():
        try:
            booking = services.book(
                evening.pk,
                form.cleaned_data["key"],
                form.game_input(),
                request.user,
                deal_token=form.cleaned_data["deal"],
                seats=form.seats,
                evening=evening,
                tariff_id=_tariff_shown(request),
                shown=request.POST.get("shown") or None,
            )
        except services.StaleTariff:
            return _retariffed(request, evening)
        except services.MovedAmounts as error:
            # The choices stand; the preview and the sheet are asked anew (dealMoved).
            form.add_error(None, str(error))
            moved_amounts = True
        except services.StaleDeal:
            # Another phone has booked since the evening was read.
            return _moved_on(request, evening, membership)
        except services.KeyReused as error:
            # The form is stale: its key booked another game. A fresh form, a clear word.
            messages.error(request, str(error))
            form = None
        except services.EveningError as error:
            if not evening.is_open:  # closed since the evening was read (booking reads again)
                return _closed_meanwhile(request, evening)
            _add_engine_error(form, error)
        else:
            names = {seat.player_id: seat.player.name for seat in booking.seats}
            # All of it, as the phones that follow hear it: a blind Schreiber checks the
            # partner and the Laufende without going through the sheet.
            what = wording.told(booking.game, names)
            if not booking.created:
                messages.info(request, _("Schon gebucht: %(game)s") % {"game": what})
            else:
                told = _("Gebucht: %(game)s") % {"game": what}
                messages.success(request, told)
            if not request.htmx:
                return redirect("evenings:detail", evening_id=evening.pk)
            if booking.created:
                return _booked(request, evening, membership, booking, form, told)
            form = None
    if notice:
        return _moved_on(request, evening, membership)
    context = _live_context(evening, membership, form, notice)
    if request.htmx:
        # A form sent as it was reset, without a player, leaves the word above it: it may
        # say why it was reset ("Das war das Spiel, das du eingegeben hast …").
        kept = form is not None and form.is_bound and form.chose_nobody()
        response = render(
            request, "evenings/evening.html#live_answer", context | {"oob": True, "kept": kept}
        )
        if moved_amounts:
            response["HX-Trigger-After-Settle"] = "dealMoved"
        return response
    return render(request, "evenings/evening.html", context)


def _left_the_table(user, evening: Evening, new_table: Evening) -> bool:
    """Whether `user` played at `evening` and does not at the table that went on from it."""
    seated = {seat.player_id for seat in seats_of(evening)} - {
        seat.player_id for seat in seats_of(new_table)
    }
    return bool(seated) and Player.objects.filter(pk__in=seated, user=user).exists()


def _ask_if_again(request, evening: Evening, form: GameForm) -> None:
    """A game just as the one booked last is asked about before it is booked (walk 57: a
    second phone, its form already at the next deal, entered the game the first had
    booked, and it counted twice). Two such games in a row are rare at a table, so the
    tick and the second tap cost little; the form's "again" sends it anyway. Read from the
    booking's state: no query more."""
    state = evening.state
    last = state.recent[-1] if state.recent else None
    if request.POST.get("again") or last is None or last.number != state.last_number:
        return
    if form.game_input() != services.GameInput.of(last):
        return
    said = _("Spiel %(n)s war genau dieses Spiel: %(game)s. Wirklich noch einmal buchen?") % {
        "n": last.number,
        "game": wording.summary(last, _names(evening)),
    }
    # A box to tick, then "Speichern": a button here would be the form's default, which
    # Enter on a chip sends (walk 58's script took it for "Speichern").
    form.add_error(
        None,
        format_html(
            '<span data-again tabindex="-1">{}</span> <label class="check">'
            '<input type="checkbox" name="again" value="1"> {}</label> {}',
            said,
            _("Ja, noch einmal buchen"),
            # The way out (walk 84: "no" was not offered): a chip changed drops the question.
            _("Sonst das Spiel wählen, das es war."),
        ),
    )


def _closed_meanwhile(request, evening: Evening, message: str = "") -> HttpResponse:
    """The answer to a form for an evening that was closed since the form was shown: the
    page as it is now, without the form, and a word that nothing was booked."""
    if not message and evening.is_table:
        message = _("Der Tisch wurde inzwischen beendet – nichts gebucht.")
    elif not message and services.continued_at(evening) is not None:
        # Someone joined or left meanwhile: the page shows the way on (its link).
        message = _(
            "Neuer Tisch: der Abend bis hierher ist abgeschlossen – nichts gebucht. Das Spiel "
            "bitte am neuen Tisch eingeben („Weiter am neuen Tisch“)."
        )
    messages.error(
        request, message or _("Der Abend wurde inzwischen abgeschlossen – nichts gebucht.")
    )
    if request.htmx:
        return _reloaded()
    return redirect("evenings:detail", evening_id=evening.pk)


def _reloaded() -> HttpResponse:
    """An answer that has htmx load the page again."""
    response = HttpResponse()
    response["HX-Refresh"] = "true"
    return response


def _tariff_shown(request) -> int | None:
    """The tariff whose amounts the entry form showed (`t`), if it says."""
    return _version(request.POST.get("t", ""))


def _retariffed(request, evening: Evening) -> HttpResponse:
    """The answer to a form shown before the evening took the Runde's newer tariff: the
    page again, with the new amounts; what was tapped stays (evening.js keeps it)."""
    messages.info(request, str(services.RETARIFFED))
    if request.htmx:
        return _reloaded()
    return redirect("evenings:detail", evening_id=evening.pk)


def _moved_on(request, evening: Evening, membership) -> HttpResponse:
    """The answer to a form whose deal has moved on: the current deal, the choices that
    still apply and a word on what happened. To htmx only what changes on the form (the
    deal's token, the chips if other players sit at the table now, the deal line); the
    rest of the form stays as it is, and the sheet catches up at once (pollNow)."""
    # The deal in the state the booking read last (evening_of's, or its own when it read
    # again); nothing else was read since.
    deal = services.next_deal(evening, state=evening.state)
    form, notice = _carried_over(request, evening, deal)
    if not request.htmx:
        return render(
            request, "evenings/evening.html", _live_context(evening, membership, form, notice)
        )
    shown = _deal_named(request.POST.get("deal", ""), seats_of(evening))
    context = {
        "evening": evening,
        "form": form,
        "notice": notice,
        "deal": deal,
        "oob": True,
        "new_players": shown is None or shown.seated != deal.seated,
    }
    response = render(request, "evenings/evening.html#refreshed", context)
    # evening.js then asks the sheet at once (pollNow), so that what the word names is
    # on it, not a poll later (walk 37).
    response["HX-Trigger-After-Settle"] = "dealMoved"
    return response


def _renamed(request, seats: list) -> dict:
    """Whether a player at the table was renamed since the entry form was shown (the
    names it shows, `names`): then the answer brings its chips and the deal line with
    the new names, and the form's new `names`."""
    names = sheet.seated_names(seats)
    return {"renamed": request.POST.get("names", names) != names, "names": names}


def _booked(
    request, evening: Evening, membership, booking: services.Booking, form, told: str
) -> HttpResponse:
    """The answer to a booking: only what it changed on the screen; the page again when
    it was a tournament table's last game (the form goes). What was booked (`told`) is
    said at the top and stays in the save bar until the next tap: on a small phone
    scrolled down to the chips, the top is out of view."""
    if evening.is_table:
        evening.__dict__.pop("counted_games", None)  # counted again, with this game
        if evening.all_played:
            return _reloaded()
    evening.version, evening.last_number = booking.version, booking.game.number
    deal = booking.next
    rows = sheet.parts(sheet.booked(evening, booking), membership, booking.game.number - 1)
    seen = request.POST.get("v", "")
    shown = _version(seen)
    if shown is not None and shown < booking.version - 1:
        # Another phone's change came first, and this phone has not shown it (its polls
        # did not get through): the rows since the version it shows, not only its own.
        first, known, _rewritten = _first_changed(evening, seen)
        if first is None:  # a player renamed meanwhile: every row, the head
            rows = sheet.whole(evening, membership, booking.seats) | {"whole": True}
        else:
            rows = sheet.parts(sheet.build(evening, first=first), membership, known)
    renamed = _renamed(request, booking.seats)
    context = rows | {
        "evening": evening,
        "membership": membership,
        "deal": deal,
        "form": GameForm(tariff=evening.tariff, playing=deal.seated, deal=deal),
        "oob": True,
        "first_game": booking.game.number == 1,
        "told": told,
        # The chips change only when other players sit at the table for the next game,
        # or one of them was renamed.
        "new_players": [p.pk for p in deal.seated] != [p.pk for p in form.playing]
        or renamed["renamed"],
        **renamed,
    }
    response = render(request, "evenings/evening.html#booked", context)
    response["HX-Trigger"] = "entryBooked"
    return response


def _bound_again(form: GameForm) -> GameForm:
    """An unbound form (carried over, or a game to correct) bound to its own values, to
    preview them."""
    data = QueryDict(mutable=True)
    for name, value in form.initial.items():
        key = form.add_prefix(name)
        if value is None:
            continue
        if isinstance(value, list):
            data.setlist(key, [str(v) for v in value])
        elif isinstance(value, bool):
            if value:
                data[key] = "on"
        else:
            data[key] = str(value)
    data[form.add_prefix("deal")] = form.initial.get("deal", "")
    return GameForm(data, tariff=form.tariff, playing=form.playing, prefix=form.prefix)


def _preview_of(
    evening: Evening,
    form: GameForm,
    replacing: Game | None = None,
    around: services.Around | None = None,
) -> dict:
    """The engine's preview of a valid form, as template context; problems in German. A
    new game's preview needs no more than the evening's state, if it was read with it; a
    correction's, what was read `around` the game, if it was."""
    if not form.is_valid():
        return {"waiting": form.waiting_for()}
    seating = [p.pk for p in form.playing]
    game = form.game_input()
    try:
        result = services.preview(
            evening,
            game,
            seating,
            replacing=replacing,
            state=evening.state,
            around=around,
        )
    except services.EveningError as error:
        return {"problem": str(error)}
    names = {p.pk: p.name for p in form.playing}
    context = {
        "lines": [(names[pid], cents) for pid, cents in result.payouts],
        "bock": result.bock,
        "later": result.later,
    }
    # The game's Jungfrauen, not the form's: a Ramsch's ticks stay behind, hidden, when
    # the Schreiber taps another game.
    if len(game.jungfrauen or ()) > MAX_JUNGFRAU_DOUBLINGS:
        context["note"] = _("Höchstens zwei Jungfrauen zählen: es wird zweimal verdoppelt.")
    if replacing is not None:
        context["moves"] = _moves(evening, result)
    # Sent back with the save: booked only at what was shown (services.correct_game and
    # services.book).
    context["shown"] = services.shown_amounts(game, result.payouts, result.bock)
    return context


def _moves(evening: Evening, effects: services.Preview | services.Effects) -> list:
    """(name, total before, total after) of each seated player whose total changes."""
    every = _names(evening)
    return [
        (every[pid], effects.totals_before[pid], cents)
        for pid, cents in effects.totals_after.items()
        if cents != effects.totals_before[pid]
    ]


@require_POST
@login_required_keep_form("#entry-status")
def preview(request: HttpRequest, evening_id: int) -> HttpResponse:
    """What the game being entered will cost each player, from the engine.

    When the deal has moved on (the sheet's poll says so, or a tap comes late), the
    answer also brings the new deal: its token, the chips if other players sit at the
    table now (keeping the choices that apply), and what happened. The other choices
    stay as they are on the screen.
    """
    evening, _membership = scored_evening_of(request, evening_id, state=services.BOCK_GAMES)
    seats = seats_of(evening)
    deal = services.next_deal(evening, seats, evening.state)
    form, notice = _posted_form(request, evening, deal, seats)
    context = {
        "evening": evening,
        "form": form,
        "notice": notice,
        "oob": True,
        "deal": deal,
        **_renamed(request, seats),
    }
    if notice:
        shown = _deal_named(request.POST.get("deal", ""), seats)
        context["new_players"] = shown is None or shown.seated != deal.seated
        context.update(_preview_of(evening, _bound_again(form)))
    else:
        context.update(_preview_of(evening, form))
        if context["renamed"]:
            # The chips come again with the new names and the choices made, not with what
            # a half-entered game still lacks ("Bitte den Mitspieler wählen.").
            context["form"] = GameForm.carried_over(request.POST, tariff=evening.tariff, deal=deal)
    response = render(request, "evenings/evening.html#preview_answer", context)
    if notice:
        response["HX-Trigger-After-Settle"] = "dealMoved"
    return response


@require_GET
@login_required_keep_form("#flash", following=True)  # logged out: said; the phone polls on
def sheet_poll(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The sheet for phones following along; 204 when nothing changed since `v`."""
    seen = request.GET.get("v", "")
    looks = "looks" in request.GET  # a member's phone without an entry form
    books = "deal" in request.GET  # one with an entry form
    if (shown := _version(seen)) is not None and unchanged(
        request, evening_id, shown, looks, books
    ):
        return HttpResponse(status=204)
    evening, membership = evening_of(request, evening_id)
    return _changes_since(request, evening, membership)


def _changes_since(request, evening: Evening, membership, token=None) -> HttpResponse:
    """What changed on the sheet since version `v`: 204 if nothing did; else the rows from
    the first game that changed on, the standing, and the deal; the whole sheet when the
    evening was closed or reopened meanwhile, or `v` says nothing usable.

    A phone whose entry form was made for an older deal (`deal`) is told so
    (HX-Trigger: dealChanged), and its form asks for the current one.
    """
    seen = request.GET.get("v", "")
    if (
        "looks" in request.GET
        and membership
        and membership.can_score
        and evening.is_open
        and not evening.play_over
    ):
        # Made Schreiber or admin, or a table's Schreiber, while following without an
        # entry form: the page again, with the form and the links to correct. (Made
        # Spieler, a phone with a form at a money evening is told so by its next tap,
        # which shows why nothing was booked.)
        named = evening.is_table and evening.scorekeeper_id == request.user.pk
        messages.info(
            request,
            _(
                "Die Turnierleitung hat dich als Schreiber dieses Tisches eingetragen: du "
                "kannst hier jetzt Spiele eintragen."
            )
            if named
            else _("Deine Rolle im Verein wurde geändert: du kannst hier jetzt Spiele eintragen."),
        )
        return _reloaded()
    if "deal" in request.GET and membership and evening.is_table and not membership.can_score:
        # The director named another Schreiber for the table: the page again, without
        # the form ("deine Rolle im Verein", which the next tap would say, did not change).
        messages.info(
            request,
            _(
                "Die Turnierleitung hat einen anderen Schreiber für diesen Tisch eingetragen: "
                "hier trägst du keine Spiele mehr ein."
            ),
        )
        return _reloaded()
    if seen == str(evening.version):
        return HttpResponse(status=204)
    if not evening.is_open and "deal" in request.GET:
        # A phone with an entry form: closed meanwhile, the page without the form (and
        # the way on to the new table, where the game being entered is entered anew).
        if services.continued_at(evening) is not None:
            messages.info(
                request,
                _(
                    "Neuer Tisch: der Abend bis hierher ist abgeschlossen. Das Spiel bitte "
                    "am neuen Tisch eingeben („Weiter am neuen Tisch“)."
                ),
            )
        else:
            messages.info(
                request,
                _("Die Turnierleitung hat den Tisch beendet: hier wird nichts mehr gebucht.")
                if evening.is_table
                else _("Der Abend wurde abgeschlossen: hier wird nichts mehr gebucht."),
            )
        return _reloaded()
    if (
        not evening.is_open
        and "looks" in request.GET
        and membership is not None
        and (new_table := services.continued_at(evening)) is not None
        and not _left_the_table(request.user, evening, new_table)
    ):
        # A member's phone following without a form: on with the table, as a spectator's
        # link goes (it stayed on the closed evening until "Weiter am neuen Tisch"). Not
        # the phone of whoever left: it keeps their night's last sheet (walk 84).
        messages.info(request, _("Neuer Tisch: das Blatt folgt dem Abend an den neuen Tisch."))
        response = HttpResponse()
        response["HX-Redirect"] = reverse("evenings:detail", args=[new_table.pk])
        return response
    anew = _anew(evening, seen)
    if Change.Kind.TARIFF in anew:
        # An admin gave the evening the Runde's newer tariff: every game scored anew, and
        # the entry form's choices may differ (the Laufende from, the Jungfrau).
        messages.info(
            request,
            _(
                "Der Abend spielt jetzt mit dem neuen Tarif der Runde: alle Spiele sind neu "
                "gewertet."
            )
            + (
                " " + _("Was du gewählt hast, bleibt; die Vorschau zeigt die neuen Beträge.")
                if "deal" in request.GET
                else ""
            ),
        )
        return _reloaded()
    if Change.Kind.SEATS in anew:
        # Before the first game the table was seated anew, or later the games were dealt
        # anew from the right dealer (services.redeal): the page again, as it sits now.
        if "deal" in request.GET:  # and its form anew, without what was chosen on it
            messages.info(
                request,
                _("Die Sitzordnung wurde inzwischen geändert: bitte das Spiel neu eingeben.")
                if not evening.last_number
                else _(
                    "Der Geber wurde inzwischen berichtigt und die Spiele neu gewertet: bitte "
                    "das Spiel neu eingeben."
                ),
            )
        return _reloaded()
    if evening.is_open and "closed" in request.GET:
        # The phone shows the evening closed, and an admin opened it again: the page
        # again, with the entry form and the links to correct for who may, and why.
        messages.info(request, _reopened_word(evening))
        return _reloaded()
    if "full" in request.GET and not evening.play_over:
        # The phone shows a played-out table, without the entry form, and a game of it
        # was struck or taken back elsewhere: the page again, with the form.
        messages.info(
            request,
            _("Ein Spiel wurde gestrichen oder zurückgenommen: am Tisch ist wieder eines offen."),
        )
        return _reloaded()
    if "deal" in request.GET and evening.all_played:
        # The table's last game was booked elsewhere: the page again, without the form.
        messages.info(
            request,
            _("Alle Spiele des Tisches sind gebucht, das letzte auf einem anderen Handy."),
        )
        return _reloaded()
    deal = services.next_deal(evening)
    context = _changes_context(seen, evening, membership, deal) | {
        "token": token,
        # A member's phone is shown where the table went on; a spectator's link goes on
        # with the table by itself (services.continue_at_new_table).
        "continued_at": None if membership is None else services.continued_at(evening),
        # The phone has an entry form: its next polls send their deal again.
        "follows_form": "deal" in request.GET,
    }
    if membership is not None and membership.can_score:
        # Its "Rückgängig" offers the evening's latest change to its games: another
        # phone's now, or none (walk 60: it kept offering a take-back set back since).
        context |= _restore_bar(evening) | {"restore_bar": True}
        if (
            context["restorable"]
            and context["heard"]
            and request.GET.get("deal")
            not in (
                None,
                deal.token,
            )
        ):
            # The bar says it in view, and the form's notice says it as the deal moved
            # (a take-back): the word is for the screen reader (walk 63: three boxes said
            # the same). Else it stays in view: it names the games scored anew (walk 65).
            context["heard_quietly"] = True
    # The deal line ("Spiel 7 von 40 · 1 Spiel zählt nicht"): to a phone with a form only
    # where a game was struck, restored or corrected under the same deal (a deal moved on
    # comes with the form's preview, its chips with it).
    context["deal_line"] = "deal" not in request.GET or (
        bool(context["rewritten"]) and request.GET["deal"] == deal.token
    )
    response = render(request, "evenings/evening.html#follow", context)
    if request.GET.get("deal", deal.token) != deal.token or (
        (context["whole"] or context["rewritten"]) and "deal" in request.GET
    ):
        # The form's deal moved on, a player may be renamed, or an earlier game was
        # corrected, struck or restored (the next may be a Bock game now, or no longer
        # one): its preview asks again, so that it shows what "Speichern" books.
        response["HX-Trigger"] = "dealChanged"
    return response


def _anew(evening: Evening, seen: str) -> set[str]:
    """Which of the changes after which a phone loads the page again were made after
    version `seen`: the table seated anew (services.change_seats), a new tariff
    (services.apply_tariff)."""
    shown = _version(seen)
    since = evening.changes.filter(kind__in=[Change.Kind.SEATS, Change.Kind.TARIFF])
    if shown is not None:
        since = since.filter(version__gt=shown)
    return set(since.values_list("kind", flat=True).distinct())


def _changes_context(seen: str, evening: Evening, membership, deal) -> dict:
    """The sheet's rows that changed since version `seen` (all of them if that says
    nothing usable), for an answer that sends them out of band."""
    first, known, rewritten = _first_changed(evening, seen)
    heard, quiet = None, False
    if first is None:
        rows = sheet.whole(evening, membership)
        heard = _heard_closing(evening, rewritten)
        # The closed sheet says so where it stands: the word is for the screen reader
        # only (walk 44: it read twice on a small screen).
        quiet = heard is not None and not evening.is_open
    else:
        rows = sheet.parts(sheet.build(evening, first=first), membership, known)
        change = None
        if len(rewritten) == 1:
            change = (
                evening.changes.filter(kind__in=rewritten, version__gt=_version(seen))
                .order_by("-pk")
                .first()
            )
        heard = _heard(rows["sheet"], known, rewritten, change)
    return rows | {
        "heard": heard,
        "heard_quietly": quiet,
        "evening": evening,
        "membership": membership,
        "deal": deal,
        "oob": True,
        "whole": first is None,
        # A game was corrected, struck or restored elsewhere: a word on this phone about
        # a game ("Gebucht: 8. Sauspiel") may be out of date, so it goes.
        "rewritten": rewritten,
    }


# What a following phone says of a game changed elsewhere, by the one kind of change.
HEARD = {
    Change.Kind.CORRECT: gettext_lazy("Korrigiert: Spiel %(n)s, %(game)s"),
    Change.Kind.VOID: gettext_lazy("Gestrichen: Spiel %(n)s, %(game)s"),
    Change.Kind.UNDO: gettext_lazy("Zurückgenommen: Spiel %(n)s, %(game)s"),
    Change.Kind.RESTORE: gettext_lazy("Zählt wieder: Spiel %(n)s, %(game)s"),
}


def _heard(
    built: sheet.Sheet, known: int, rewritten: frozenset[str], change: Change | None = None
) -> str | None:
    """What a following phone is told, and its screen reader reads out, of what changed
    elsewhere: "Neu gebucht: Spiel 8, Sauspiel Sepp mit Hias" ("Neu gebucht: Spiele 7, 8,
    zuletzt …" where it missed one), "Gestrichen: Spiel 5, …", or "Geändert: Spiel 5, … ·
    gestrichen" after several kinds of change, then the games booked meanwhile. The one
    `change` since, if it was one, says which games it scored anew (their Bock moved),
    and a correction what the game was. None when no game changed (a payment)."""
    rows = built.rows
    new = [row for row in rows if row.game.number > known and not row.taken_back]
    said = []
    if rewritten and rows and rows[0].game.number <= known:
        row = rows[0]
        ours = change is not None and change.game_id == row.game.pk
        if ours and change.kind == Change.Kind.CORRECT and change.before:
            said.append(_heard_correction(built, row, change))
        else:
            details = []
            if len(rewritten) == 1:
                word = HEARD[next(iter(rewritten))]
            else:
                word, details = _("Geändert: Spiel %(n)s, %(game)s"), [str(row.taken_back_label)]
            game = " · ".join(filter(None, [_row_words(row), *details]))
            # A strike, say, that made a later game a Bock game (walk 65: untold).
            game += _rescored(change) if ours else ""
            said.append(word % {"n": row.game.number, "game": game})
    if len(new) > 1:
        said.append(
            _("Neu gebucht: Spiele %(games)s, zuletzt %(game)s")
            % {"games": _runs([r.game.number for r in new]), "game": _row_words(new[-1])}
        )
    elif new:
        said.append(
            _("Neu gebucht: Spiel %(n)s, %(game)s")
            % {"n": new[0].game.number, "game": _row_words(new[0])}
        )
    return ". ".join(said) or None


def _row_words(row: sheet.Row, bock: bool = True) -> str:
    """A sheet row as words: "Sauspiel Sepp mit Hias · verloren · Bock". A struck game's
    row is not scored: its Bock is the game's as it was struck (walk 65: left out)."""
    was_bock = row.bock or bool(row.taken_back and row.game.bock)
    return " · ".join(
        filter(None, [row.caption, row.details, _("Bock") if was_bock and bock else ""])
    )


def _rescored(change: Change) -> str:
    """ "; dazu neu gewertet: Spiele 5–8": the later games `change` scored anew, if any."""
    later = [n for _c, _g, n in _later_games(LedgerEntry.objects.filter(change=change))]
    if not later:
        return ""
    return "; " + ngettext(
        "dazu neu gewertet: Spiel %(games)s",
        "dazu neu gewertet: Spiele %(games)s",
        len(later),
    ) % {"games": _runs(later)}


def _restorable_word(change: Change, names: dict[int, str]) -> str:
    """The game "Rückgängig" would set back, as its bar says it; a correction with what
    the game was ("Spiel 4, Rufspiel Hias mit Resi · gewonnen (vorher: … · verloren)"):
    told as booked, a result corrected to "gewonnen" went unsaid (walk 52)."""
    game = change.game
    if change.kind != Change.Kind.CORRECT:
        return wording.told(game, names)
    return _("Spiel %(n)s, %(now)s (vorher: %(was)s)") % {
        "n": game.number,
        "now": wording.line(services.GameInput.of(game), names, bock=game.bock),
        "was": wording.line(services.GameInput.from_json(change.before), names),
    }


def _heard_correction(built: sheet.Sheet, row: sheet.Row, correction: Change) -> str:
    """ "Korrigiert: Spiel 4, Bockspiel: Sauspiel Sepp mit Hias → … · verloren; dazu neu
    gewertet: Spiele 5–8": the game before and after (a correction does not make the
    game itself a Bock game or none: its Bock stands first, as in the evening's history),
    or "Korrektur zurückgenommen: …" for its taking back."""
    names = {p.pk: p.name for p in built.players}

    def words(data: services.GameInput) -> str:
        # "gewonnen" said too: the result is often what was corrected (walk 46).
        return " · ".join([wording.caption(data, names), *wording.details(data, names)])

    before, after = services.GameInput.from_json(correction.before), services.GameInput.of(row.game)
    game = _("%(before)s → %(after)s") % {"before": words(before), "after": words(after)}
    if row.bock:
        game = f"{_('Bockspiel')}: {game}"
    game += _rescored(correction)
    word = (
        _("Korrektur zurückgenommen: Spiel %(n)s, %(game)s")
        if services.taken_back(correction)
        else HEARD[Change.Kind.CORRECT]
    )
    return word % {"n": row.game.number, "game": game}


def _heard_closing(evening: Evening, kinds: frozenset[str]) -> str | None:
    """A following phone's word when the evening was closed or opened again elsewhere:
    the word before (of the last game booked) would stand on above a closed sheet."""
    if Change.Kind.CLOSE in kinds and not evening.is_open:
        return (
            _("Der Tisch ist beendet.") if evening.is_table else _("Der Abend ist abgeschlossen.")
        )
    if Change.Kind.REOPEN in kinds and evening.is_open:
        return _reopened_word(evening)
    return None


def _reopened_word(evening: Evening) -> str:
    return (
        _("Der Tisch ist wieder offen.") if evening.is_table else _("Der Abend ist wieder offen.")
    )


REWRITING = {Change.Kind.CORRECT, Change.Kind.VOID, Change.Kind.UNDO, Change.Kind.RESTORE}
# Changes after which only the whole sheet will do: a new state, a new name in the
# sheet's head and in rows of every game, every game scored anew by another tariff, or
# the first games' Bock moved by a change at the table the evening went on from.
WHOLE = {
    Change.Kind.CLOSE,
    Change.Kind.REOPEN,
    Change.Kind.RENAME,
    Change.Kind.TARIFF,
    Change.Kind.BOCK,
}


def _first_changed(evening: Evening, seen: str) -> tuple[int | None, int, frozenset[str]]:
    """The first game whose row changed after version `seen`, the last game the phone
    had a row for then, and the kinds of change made to games after their booking
    (REWRITING; empty if none). (None, 0, kinds) when only the whole sheet will do: the
    kinds then are its closing or reopening, if it was (for the phone's word)."""
    shown = _version(seen)
    if shown is None or shown > evening.version:
        return None, 0, frozenset()
    since = evening.changes.filter(version__gt=shown)
    kinds = set(since.values_list("kind", flat=True))
    if since.count() != evening.version - shown:
        return None, 0, frozenset()  # versions from before they were recorded
    if kinds & WHOLE:  # a new state (said as such), a new name or tariff
        return None, 0, frozenset(kinds & {Change.Kind.CLOSE, Change.Kind.REOPEN})
    first = since.aggregate(n=Min("game__number"))["n"]
    known = (
        evening.changes.filter(kind=Change.Kind.BOOK, version__lte=shown).aggregate(
            n=Max("game__number")
        )["n"]
        or 0
    )
    # No game touched (a payment): the rows stay, the totals are sent all the same.
    return (first or known + 1), known, frozenset(kinds & REWRITING)


@require_GET
def live(request: HttpRequest, token: str) -> HttpResponse:
    """The read-only sheet for whoever scanned the QR code: no account needed. After the
    evening is closed the link shows the final sheet, until it is revoked."""
    evening = get_object_or_404(Evening.objects.select_related("tariff"), share_token=token)
    return render(
        request,
        "evenings/live.html",
        sheet.whole(evening, None)
        | {
            "evening": evening,
            "membership": None,
            "deal": services.next_deal(evening),
            "token": token,
            "before": _table_before(evening),
        },
    )


def _table_before(evening: Evening) -> list[tuple[str, int]]:
    """Where the link's table went on from an earlier evening (someone joined or left):
    how that one ended, (name, cents) in its seating order, so that a spectator's sheet
    does not just start again at 0,00 without a word."""
    if (earlier := evening.continues) is None:
        return []
    names = _names(earlier)
    return [(names[pid], cents) for pid, cents in services.standing(earlier).items()]


@require_GET
def live_poll(request: HttpRequest, token: str) -> HttpResponse:
    """Polling from the read-only page; once the link is revoked the answer says so, and
    its status 286 tells htmx to stop polling."""
    seen = request.GET.get("v", "")
    # The evening the page shows (`e`): the link may have gone on with its table to a new
    # evening since (services.continue_at_new_table).
    same = {"pk": shown_evening} if (shown_evening := _version(request.GET.get("e", ""))) else {}
    if (shown := _version(seen)) is not None and Evening.objects.filter(
        share_token=token, version=shown, **same
    ).exists():
        return HttpResponse(status=204)
    evening = Evening.objects.select_related("tariff").filter(share_token=token).first()
    if evening is None:
        return render(request, "evenings/live_ended.html", status=286)
    if same and evening.pk != shown_evening:
        return _reloaded()  # the new table, from its first row
    return _changes_since(request, evening, None, token=token)


def _correction_form(request, evening: Evening, game: Game) -> GameForm:
    """The correction form of `game`, as posted; unbound (the game as it is) for a GET
    or without a request."""
    # The players in the order they sit, as the entry form showed them for this game
    # (Deal.seated); the game's seating starts at the dealer's left.
    playing = [seat.player for seat in seats_of(evening) if seat.player_id in game.seating]
    initial = GameForm.initial_for(game)
    data = request.POST if request is not None and request.method == "POST" else None
    # Its own prefix: on the evening screen it opens beside the entry form.
    return GameForm(data, tariff=evening.tariff, playing=playing, initial=initial, prefix="k")


def _closed_for_corrections(evening: Evening) -> str:
    tournament = getattr(evening.runde, "tournament", None) if evening.is_table else None
    if tournament is not None and tournament.status == tournament.Status.FINISHED:
        # The table cannot be opened again (its page offers no "Wieder öffnen") until
        # the tournament is: say so, with the way to "Turnier wieder öffnen".
        return format_html(
            '{} <a href="{}">{}</a>',
            _(
                "Das Turnier ist abgeschlossen – nichts geändert. Für eine Korrektur öffnet die "
                "Turnierleitung erst das Turnier wieder, dann den Tisch:"
            ),
            reverse("tournaments:detail", args=[tournament.pk]),
            _("Zum Turnier"),
        )
    if evening.is_table:
        return _(
            "Dieser Tisch ist beendet – nichts geändert. Korrigieren lässt sich ein Spiel "
            "erst, wenn die Turnierleitung den Tisch wieder öffnet."
        )
    if (ausgleich := services.settled_by(evening)) is not None:
        # It cannot be opened again: not "erst, wenn ein Admin … wieder öffnet" (walk 50).
        return services.settled_for_good(ausgleich)
    return _(
        "Der Abend ist abgeschlossen – nichts geändert. Korrigieren lässt sich ein Spiel "
        "erst, wenn ein Admin den Abend wieder öffnet."
    )


@require_http_methods(["GET", "POST"])
@login_required_keep_form("#correction-status", on_get="#correction")
@never_cache
def game_edit(request: HttpRequest, evening_id: int, game_id: int) -> HttpResponse:
    """Correct an earlier game; later games are rescored.

    From the evening screen (htmx) the form opens in place, and a saved correction
    answers with the rows that changed; without JavaScript it is a page of its own.
    """
    evening, membership = scored_evening_of(request, evening_id)
    game = get_object_or_404(evening.games, pk=game_id)
    if not evening.is_open:
        return _closed_meanwhile(request, evening, _closed_for_corrections(evening))
    if not game.is_booked:
        if request.method == "POST":  # a correction form from before
            return _struck_meanwhile(request, evening, membership, game)
        return _taken_back(request, evening, game)
    form = _correction_form(request, evening, game)
    notice, moved = "", False
    if request.method == "POST" and form.is_valid():
        data = form.game_input()
        try:
            if not (seen := request.POST.get("k-seen")):
                raise services.StaleCorrection(UNCHECKED)
            if services.retariffed_since(evening, _version(request.POST.get("v", ""))):
                # The panel's preview was of the old amounts (walk 31).
                raise services.StaleCorrection(
                    _(
                        "Nichts gespeichert: der Abend spielt inzwischen mit dem neuen Tarif der "
                        "Runde. So steht das Spiel jetzt; bitte prüfen und nochmal speichern."
                    )
                )
            services.correct_game(
                evening.pk, game.pk, data, request.user, seen=seen, shown=request.POST.get("shown")
            )
        except services.MovedAmounts as error:
            # The choices stand; the preview anew, of what they would book now.
            notice, moved = str(error), True
        except services.StaleCorrection as error:
            # Another phone corrected (or struck) the game since this form was shown:
            # the game as it is now, to check and save again; or, struck, the sheet.
            game.refresh_from_db()
            if not game.is_booked:
                return _struck_meanwhile(request, evening, membership, game)
            form, notice = _correction_form(None, evening, game), str(error)
        except services.EveningError as error:
            _add_engine_error(form, error)
        else:
            if data == services.GameInput.of(game):  # sent again, or nothing changed
                messages.info(
                    request, _("Das Spiel steht schon so, wie eingegeben: nichts zu ändern.")
                )
            elif services.taken_back(game.changes.order_by("-pk").first()):
                # Set back as it was before its last correction: that is taking it back,
                # which the bar does not offer to take back in turn, so the word says it
                # (walk 46: nothing was said).
                _say_taken_back(request, evening, game.pk)
            # Else the bar at the top says which game, what it is now, and offers
            # "Rückgängig" (services.restorable).
            if request.htmx:
                return _corrected(request, evening, membership)
            return redirect("evenings:detail", evening_id=evening.pk)
    return _panel(request, evening, membership, game, form, notice=notice, moved=moved)


def _panel(
    request,
    evening: Evening,
    membership,
    game: Game,
    form,
    *,
    notice="",
    moved=False,
    strike_notice="",
) -> HttpResponse:
    """The correction panel of a booked game (a page of its own without JavaScript): the
    correction form with its preview, and "Spiel streichen" with what striking does.
    `notice`: above the correction; `strike_notice`: beside "Spiel streichen"."""
    context = {
        "evening": evening,
        "membership": membership,
        "game": game,
        "form": form,
        "notice": notice,
        "strike_notice": strike_notice,
        # The game as the form shows it; a form sent back with errors keeps what it saw.
        "seen": request.POST.get("k-seen", "")
        if form.is_bound
        else services.GameInput.of(game).fingerprint(),
    }
    around = services.around_game(evening, game)  # for both previews
    if not form.is_bound:
        context.update(_preview_of(evening, _bound_again(form), replacing=game, around=around))
    elif moved:
        context.update(_preview_of(evening, form, replacing=game, around=around))
    struck = services.strike_effects(evening, around)
    context["strike"] = {
        "later": struck.later,
        "moves": _moves(evening, struck),
        "deal": services.deal_after_strike(evening, around),
        "shown": services.strike_shown(around, struck),
    }
    if request.htmx:
        return render(request, "evenings/game_edit.html#panel", context | {"panel": True})
    return render(request, "evenings/game_edit.html", context)


def _struck_meanwhile(request, evening: Evening, membership, game: Game) -> HttpResponse:
    """The answer to a correction of a game another phone has struck (or taken back)
    since the form was shown: a word, and the sheet as it is."""
    messages.error(request, services.gone_word(game))
    if request.htmx:
        return _corrected(request, evening, membership)
    return redirect("evenings:detail", evening_id=evening.pk)


def _taken_back(request, evening: Evening, game: Game) -> HttpResponse:
    """A struck (or taken back) game opened from its row: what it was, and "Wieder
    zählen" (evenings:restore). It is not corrected as it is."""
    restored = services.restore_effects(evening, game)
    game.bock = restored.bock  # as it would count again (walk 65: as it was struck)
    context = {"evening": evening, "game": game, "what": wording.told(game, _names(evening))}
    context["restore"] = {
        "later": restored.later,
        "moves": _moves(evening, restored),
        "shown": services.restore_shown(restored),
    }
    if request.htmx:
        return render(request, "evenings/game_edit.html#taken_back", context | {"panel": True})
    return render(request, "evenings/game_edit.html", context)


def _corrected(request, evening: Evening, membership) -> HttpResponse:
    """The answer to a correction or a struck game from the evening screen: the panel
    closes, and the rows that changed since the version the phone shows (`v`) come out
    of band with the standing and the deal, as a poll's answer would."""
    evening = Evening.objects.select_related("tariff").get(pk=evening.pk)
    if "deal" not in request.POST and evening.is_table and not evening.play_over:
        # A played-out table's phone has no entry form, and a game is open again (one was
        # struck): the page again, with the form.
        return _reloaded()
    deal = services.next_deal(evening)
    context = _changes_context(request.POST.get("v", ""), evening, membership, deal)
    context |= {
        # None at a played-out table: its page has no entry form to set anew.
        "form": None
        if evening.play_over
        else GameForm(tariff=evening.tariff, playing=deal.seated, deal=deal),
    } | _restore_bar(evening)
    response = render(request, "evenings/evening.html#corrected", context)
    # Once the answer is in place (the panel closed, the rows swapped), the screen goes to
    # its word at the top, and "Rückgängig".
    response["HX-Trigger-After-Settle"] = "corrected"
    return response


@require_POST
@login_required_keep_form("#correction-status")
def correction_preview(request: HttpRequest, evening_id: int, game_id: int) -> HttpResponse:
    """The corrected game's amounts, and what changes for later games (the Bock chain)."""
    evening, _membership = scored_evening_of(request, evening_id)
    game = get_object_or_404(evening.games.booked(), pk=game_id)
    if not evening.is_open:
        return _closed_meanwhile(request, evening, _closed_for_corrections(evening))
    form = _correction_form(request, evening, game)
    context = {"evening": evening, "game": game, "form": form}
    context.update(_preview_of(evening, form, replacing=game))
    return render(request, "evenings/game_edit.html#preview", context)


@require_POST
@login_required_keep_form("#correction-status")
def game_void(request: HttpRequest, evening_id: int, game_id: int) -> HttpResponse:
    evening, membership = scored_evening_of(request, evening_id)
    game = get_object_or_404(evening.games, pk=game_id)
    if not game.is_booked:  # struck meanwhile: by another phone, or this tap sent twice
        last = game.changes.order_by("-pk").first()
        if last is None or last.kind != Change.Kind.VOID or last.by_id != request.user.pk:
            return _struck_meanwhile(request, evening, membership, game)
        # Struck by this user already (a second tap, or a retry after a lost answer).
        what = wording.told(game, _names(evening))
        messages.info(request, _("Schon gestrichen: %(game)s") % {"game": what})
    elif (seen := _version(request.POST.get("v", ""))) is None or not request.POST.get("seen"):
        messages.error(request, UNCHECKED)
    else:
        try:
            services.void_game(
                evening.pk,
                game.pk,
                request.user,
                seen=seen,
                shown=request.POST["seen"],
                effects=request.POST.get("struck") or None,
            )
        except services.StrikeMoved as error:
            # What striking does now, to be seen before it is done (walk 68).
            form = _correction_form(None, evening, game)
            return _panel(request, evening, membership, game, form, strike_notice=str(error))
        except services.EveningError as error:
            messages.error(request, str(error))
    if request.htmx:
        return _corrected(request, evening, membership)
    return redirect("evenings:detail", evening_id=evening.pk)


@require_POST
@login_required
def undo(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening, _membership = scored_evening_of(request, evening_id)
    try:
        if (seen := _version(request.POST.get("v", ""))) is None:
            raise services.EveningError(UNCHECKED)
        services.undo_last(evening.pk, request.user, seen)
    except services.AlreadyUndone as error:
        messages.info(request, str(error))
    except services.EveningError as error:
        messages.error(request, str(error))
    else:
        # The page opens on "Rückgängig", which a screen reader reads with what was taken back.
        return redirect(reverse("evenings:detail", args=[evening.pk]) + "?zurueckgenommen")
    return redirect("evenings:detail", evening_id=evening.pk)


@require_POST
@login_required
def uncorrect(request: HttpRequest, evening_id: int, change_id: int) -> HttpResponse:
    """ "Rückgängig" right after a correction: the game as it was (services.undo_correction).
    Sent twice (a double tap), the second finds its own undo the latest change and says so."""
    evening, _membership = scored_evening_of(request, evening_id)
    change = get_object_or_404(evening.changes, pk=change_id, kind=Change.Kind.CORRECT)
    latest = evening.changes.filter(game_id=change.game_id).select_related("game").last()
    if (
        latest is not None
        and latest.pk > change.pk
        and latest.by_id == request.user.pk
        and latest.kind == Change.Kind.CORRECT
        and (latest.before, latest.after) == (change.after, change.before)
    ):
        what = wording.told(latest.game, _names(evening))
        messages.info(request, _("Schon zurückgenommen: %(game)s") % {"game": what})
        return redirect("evenings:detail", evening_id=evening.pk)
    try:
        game = services.undo_correction(evening.pk, change.pk, request.user)
    except services.EveningError as error:
        messages.error(request, str(error))
    else:
        _say_taken_back(request, evening, game.pk)
    return redirect("evenings:detail", evening_id=evening.pk)


def _say_taken_back(request: HttpRequest, evening: Evening, game_id: int) -> None:
    """The word after a correction was taken back, by "Rückgängig" or by hand: the game
    as it counts again."""
    what = wording.told(evening.games.get(pk=game_id), _names(evening))
    messages.success(request, _("Korrektur zurückgenommen: %(game)s") % {"game": what})


@require_POST
@login_required
def restore(request: HttpRequest, evening_id: int, game_id: int) -> HttpResponse:
    """A struck or taken-back game counts again: "Rückgängig" right after, or "Wieder
    zählen" from a struck game's row later (services.restore_game says when it can)."""
    evening, _membership = scored_evening_of(request, evening_id)
    game = get_object_or_404(evening.games, pk=game_id)
    try:
        services.restore_game(
            evening.pk, game.pk, request.user, effects=request.POST.get("shown") or None
        )
    except services.RestoreMoved as error:
        # The game's page, with what counting it again does now (walk 71).
        messages.error(request, str(error))
        return redirect("evenings:game", evening_id=evening.pk, game_id=game.pk)
    except services.EveningError as error:
        messages.error(request, str(error))
    else:
        game.refresh_from_db()  # counted again, its Bock may be another (walk 63)
        what = wording.told(game, _names(evening))
        messages.success(request, _("Wiederhergestellt: %(game)s") % {"game": what})
    return redirect("evenings:detail", evening_id=evening.pk)


@require_GET
@login_required
def history(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Every change to the evening: who, when, what, and what it moved in money."""
    evening, membership = evening_of(request, evening_id)
    names = _names(evening)
    # Kept until the evening's next change (each is a new row), or a seated player's new
    # name; those who sat there no more and the changes' authors as clubs.stats.kept has it.
    last = evening.changes.aggregate(n=Max("pk"))["n"]
    key = f"history:{evening.pk}:{last}:{named(names)}"
    return render(
        request,
        "evenings/history.html",
        {
            "evening": evening,
            "membership": membership,
            "changes_html": kept(key, lambda: _history_html(evening, names)),
        },
    )


def _history_html(evening: Evening, names: dict[int, str]) -> SafeString:
    """The history's list items, with what each change moved and the later games it
    scored anew (_changes_html)."""
    changes = evening.changes.select_related("by", "game")
    # Who sat at the table before it was seated anew, and sits there no more.
    unseated = {
        pk for c in changes if c.kind == Change.Kind.SEATS for pk in c.before["players"]
    } - names.keys()
    if unseated:
        names = names | dict(
            evening.runde.club.players.filter(pk__in=unseated).values_list("pk", "name")
        )
    # Per change and game (walk 61: a correction's sum over its game and the later ones
    # it scored anew read as its game's amounts, naming who sat that game out).
    moved: dict[int, dict[int | None, list[tuple[str, int]]]] = defaultdict(dict)
    sums = (
        LedgerEntry.objects.filter(evening=evening, kind=evening.entry_kind)
        .values_list("change_id", "game__number", "player_id")
        .annotate(total=Sum("amount"))
    )
    seating = list(services.balances(evening))  # player ids in seating order
    for change_id, number, player_id, total in sorted(
        sums, key=lambda r: (r[0], r[1] or 0, seating.index(r[2]))
    ):
        if total:
            moved[change_id].setdefault(number, []).append((names[player_id], total))
    # The later games whose amounts a change moved besides its own game's: striking,
    # correcting or taking back a game shifts the Bock of the games after it.
    # (A new tariff scores every game anew, and its line says so.)
    rescored: dict[int, list[int]] = defaultdict(list)
    shifts: dict[int, list[int]] = defaultdict(list)  # per game: the changes that did so
    for change_id, game_id, number in _later_games(
        LedgerEntry.objects.filter(evening=evening, kind=evening.entry_kind).exclude(
            change__kind=Change.Kind.TARIFF
        )
    ):
        rescored[change_id].append(number)
        shifts[game_id].append(change_id)
    notes = {}
    retariffed = [change for change in changes if change.kind == Change.Kind.TARIFF]
    flipped = {game_id for change in retariffed for game_id in change.after["bock_flipped"]}
    flipped_games = {}
    if flipped:
        rows = evening.games.filter(pk__in=flipped).values_list("pk", "number", "bock")
        flipped_games = {pk: (number, bock) for pk, number, bock in rows}
    for change in changes:
        if change.kind == Change.Kind.RESTORE and change.after.get("bock_flipped"):
            shifts[change.game_id].append(change.pk)  # counted again, its Bock anew
    for change in retariffed:
        for game_id in change.after["bock_flipped"]:
            shifts[game_id].append(change.pk)
    for change in retariffed:
        # Which games the new Bock rule made Bock games or none (walk 48): one is a Bock
        # game since if it is now and its Bock flipped an even number of times after.
        now, gone = [], []
        for game_id in change.after["bock_flipped"]:
            number, bock = flipped_games[game_id]
            later = sum(c > change.pk for c in shifts[game_id])
            (now if bock != (later % 2 == 1) else gone).append(number)
        if said := wording.bock_flips(sorted(now), sorted(gone)):
            notes[change.pk] = _("Dabei %(games)s") % {"games": said}
    # A game's own changes (booked, corrected, struck, taken back, restored) moved its
    # amounts as a Bock game if it was one then: each later game scored anew flipped its
    # Bock, so it was one if it is now and flipped an even number of times since.
    bock_then = {
        change.pk
        for change in changes
        if change.game_id is not None
        and change.game.bock != (sum(c > change.pk for c in shifts[change.game_id]) % 2 == 1)
    }
    # Who made a change, by the name the club plays them under ("Resi", as on the sheet),
    # else by their account's.
    authors = names_played_as(evening.runde.club, changes.values("by"))
    # Closed because someone joined or left: that "Abend abgeschlossen" says so, the one
    # as the new table began (not a close after a correction since, walk 27).
    if (went_on := services.continued_at(evening)) is not None:
        closes = [change for change in changes if change.kind == Change.Kind.CLOSE]
        if closes:
            began = timezone.localtime(went_on.started_at).strftime("%H:%M")
            before = [change for change in closes if change.at <= went_on.started_at]
            notes[(before or closes)[-1].pk] = _(
                "Die Sitzordnung hat sich geändert: der Abend geht an einem neuen Tisch "
                "weiter (seit %(time)s)."
            ) % {"time": began} + _who_came_and_went(evening, went_on)
    # A change here that moved the Bock at a later table of the night says so (walk 89:
    # only the later table's history told).
    if evening.tariff.plays_bock and not evening.is_table:
        for source, started, after in Change.objects.filter(
            kind=Change.Kind.BOCK, before__evening=evening.pk
        ).values_list("before__change", "evening__started_at", "after"):
            said = _("Dazu am Tisch ab %(time)s: %(moved)s.") % {
                "time": f"{timezone.localtime(started):%H:%M}",
                "moved": wording.bock_moved(after, here=False),
            }
            notes[source] = f"{notes[source].rstrip('.')}. {said}" if source in notes else said
    # A correction that took back the one before is headed so (walk 50).
    back = services.taken_back_ids(changes)
    return _changes_html(evening, changes, names, moved, rescored, authors, bock_then, notes, back)


def _who_came_and_went(evening: Evening, went_on: Evening) -> str:
    """ " Gegangen: Hias; dazugekommen: Wastl.": who left the table when the evening went
    on at a new one, and who joined it (walk 75: the history said neither)."""
    before = [seat.player.name for seat in seats_of(evening)]
    after = [seat.player.name for seat in seats_of(went_on)]
    said = []
    if left := [name for name in before if name not in after]:
        said.append(_("gegangen: %(names)s") % {"names": ", ".join(left)})
    if came := [name for name in after if name not in before]:
        said.append(_("dazugekommen: %(names)s") % {"names": ", ".join(came)})
    return f" {capfirst('; '.join(said))}." if said else ""


def _later_games(entries):
    """(change id, game id, game number) of the games among the ledger `entries` that
    a change scored anew besides its own game (striking, correcting or taking back a
    game shifts the Bock of the games after it), by change and number."""
    return (
        entries.filter(game__isnull=False)
        .exclude(game=F("change__game"))
        .values_list("change_id", "game_id", "game__number")
        .distinct()
        .order_by("change_id", "game__number")
    )


def _changes_html(
    evening: Evening, changes, names, moved, rescored, authors, bock_then, notes, back
) -> SafeString:
    """The history's list items, built here as the sheet's rows are (an evening's sixty
    changes were most of the page's time as a template). Names, lines and authors are
    escaped; amounts and dates are digits.

    `moved`: per change and game number, what it moved (name, cents); `rescored`: per
    change, the later games it scored anew; `authors`: the club's names of the users who
    made changes; `bock_then`: the changes of a game that was a Bock game at the time;
    `notes`: a line more for a change (why the evening was closed); `back`: the
    corrections that took back the one before them."""
    points = evening.tariff.is_prohof
    game = _("Spiel %(n)s")
    html = []
    for change in changes:
        said = _("Korrektur zurückgenommen") if change.pk in back else None
        head = f"<strong>{escape(said or wording.heading(change, evening.is_table))}</strong>"
        if change.game_id is not None:
            head += f" · {escape(game % {'n': change.game.number})}"
        item = f'<li class="change {escape(change.kind)}">\n<div>{head}</div>'
        line = wording.summarize(change, names)
        # A game booked (corrected, struck ...) as a Bock game: its amounts are doubled.
        # A correction's line reads "before → after": a Bock game on both sides says so
        # first, not after the new version as if the correction had made it one.
        if change.pk in bock_then and change.kind == Change.Kind.CORRECT:
            line = f"{_('Bockspiel')}: {line}"
        elif change.pk in bock_then:
            line += f" · {_('Bock')}"
        if line:
            item += f"<div>{escape(line)}</div>"
        if change.pk in notes:
            item += f"<div>{escape(notes[change.pk])}</div>"
        games = moved.get(change.pk, {})
        for number, amounts in games.items():
            # Several games: each line says whose amounts it are.
            label = f"<strong>{escape(game % {'n': number})}:</strong> " if len(games) > 1 else ""
            item += (
                f'<div class="moved">{label}'
                + " ".join(
                    f'<span class="who-gets"><bdi>{escape(name)}</bdi> '
                    f'<span class="amount{" negative" if cents < 0 else ""}">'
                    f"{'+' if cents > 0 else ''}{amount(cents, points)}</span></span>"
                    for name, cents in amounts
                )
                + "</div>"
            )
        if change.pk in rescored and change.kind != Change.Kind.BOCK:  # its line says so
            said = ngettext(
                "Dazu neu gewertet (Bock): Spiel %(games)s",
                "Dazu neu gewertet (Bock): Spiele %(games)s",
                len(rescored[change.pk]),
            )
            games = ", ".join(str(number) for number in rescored[change.pk])
            item += f'<div class="rescored">{escape(said % {"games": games})}</div>'
        author = display_name(change.by, authors)
        when = timezone.localtime(change.at).strftime("%d.%m.%Y %H:%M:%S")
        html.append(f'{item}<div class="muted">{when} · {escape(author)}</div>\n</li>')
    return mark_safe("\n".join(html))


@require_http_methods(["GET", "POST"])
@login_required
@never_cache
def settlement(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Balances, who pays whom (rounded as the Runde wants), paying and closing."""
    evening, membership = evening_of(request, evening_id)
    if evening.tariff.is_prohof:
        raise Http404  # a tournament table's points are not settled
    if request.method == "POST":
        evening, membership = scored_evening_of(request, evening_id)
        try:
            seen = _version(request.POST.get("v", ""))
            services.close_evening(evening.pk, request.user, seen)
        except services.StaleClose as error:
            messages.error(request, f"{error} {_changed_since(evening, seen or 0)}")
        except services.EveningError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Der Abend ist abgeschlossen."))
        return redirect("evenings:settlement", evening_id=evening.pk)
    typed = request.session.pop(TYPED, None) if TYPED in request.session else None
    if typed is not None and typed.pop("evening") != evening.pk:
        typed = None  # refused at another evening, whose page was left
    return _settlement_page(request, evening, membership, typed)


# The session's key for an amount typed at an Abrechnung and refused (evenings:payment),
# shown at its field on the page it redirects to.
TYPED = "typed_payment"


def _changed_since(evening: Evening, seen: int) -> str:
    """ "Seitdem: Spiel gebucht (Spiel 21, Berta)": what a refused close had not seen
    (walk 65: the word did not say what), the last three, by the names the table knows."""
    since = list(evening.changes.filter(version__gt=seen).select_related("game", "by"))
    authors = names_played_as(evening.runde.club, {change.by_id for change in since})
    said = []
    for change in sorted(since, key=lambda change: change.version)[-3:]:
        who = [_("Spiel %(n)s") % {"n": change.game.number}] if change.game else []
        who.append(display_name(change.by, authors))
        said.append(f"{wording.heading(change)} ({', '.join(who)})")
    return _("Seitdem: %(what)s.") % {"what": "; ".join(said)}


def _settlement_page(request, evening: Evening, membership, typed: dict | None = None):
    """The settlement page; `typed`: an amount typed for one transfer ("Anderer Betrag")
    that was refused, shown again at its field with the reason (payer, payee, value,
    error)."""
    names = _names(evening)
    live, cancelled = services.payments_and_cancelled(evening)
    # Who entered (and cancelled) each, by the name the club plays them under, as the
    # history names them (walk 62: "von Veronika" here, "Vroni" there).
    entered = [*live, *(change for pair in cancelled for change in pair)]
    authors = names_played_as(evening.runde.club, {change.by_id for change in entered})
    for change in entered:
        change.author = display_name(change.by, authors)
    # What was open here is settled in a later Ausgleich of the Runde: nothing to pay here.
    settled_by = services.settled_by(evening)
    suggestion = services.settlement(evening, live)
    suggested = [] if settled_by else list(suggestion.transfers)
    if not evening.settles_runde:
        # Read around the table: by the payer's seat, then the payee's. (Who pays whom
        # is the engine's, with equal debts paired as the Runde's accounts pair them.)
        seat = {pid: at for at, pid in enumerate(names)}
        suggested.sort(key=lambda t: (seat[int(t.payer)], seat[int(t.payee)]))
    other = typed if typed and typed["other"] else {}  # typed in "Andere Zahlung"
    transfers = []
    for t in suggested:
        refused = {}
        if typed and not other and (typed["payer"], typed["payee"]) == (int(t.payer), int(t.payee)):
            refused = typed
        transfers.append(
            {
                "payer": names[int(t.payer)],
                "payee": names[int(t.payee)],
                "cents": t.amount,
                "payer_id": t.payer,
                "payee_id": t.payee,
                # "Anderer Betrag" starts from the amount ("1,50"), or what was typed.
                "typed": refused.get("value", euro_input(t.amount)),
                "error": refused.get("error", ""),
                # Each form's own key: a second tap on one books nothing new.
                "keys": (uuid.uuid4(), uuid.uuid4()),
            }
        )
    if typed and not other and not any(t["error"] for t in transfers):
        messages.error(request, typed["error"])  # no longer suggested (paid meanwhile)
    by_player = services.balances(evening)
    balances = _balance_lines(evening, names, by_player)
    # What rounding leaves open, in the order of the balances above it.
    left = {names[int(pid)]: cents for pid, cents in suggestion.open.items() if cents}
    order = {name: at for at, (name, _cents) in enumerate(balances)}
    # Also while open again for corrections: its Abrechnung is this table's (walk 90).
    # (Open, only one whose play is over can have gone on: closed_for_play, which the
    # "Abschließen" below asks too.)
    continued_at = (
        None
        if evening.settles_runde or (evening.is_open and not evening.closed_for_play)
        else services.went_on_at(evening)
    )
    night = []
    if not evening.settles_runde and (evening.continues_id is not None or continued_at):
        night = [*services.tables_before(evening)[::-1], evening.pk]
        night += services.tables_after(evening)
    return render(
        request,
        "evenings/settlement.html",
        {
            "evening": evening,
            "membership": membership,
            "balances": balances,
            "transfers": transfers,
            "settled_by": settled_by,
            "continued_at": continued_at,
            # One table of a night at several (someone joined or left).
            "split_night": not evening.settles_runde
            and (evening.continues_id is not None or continued_at is not None),
            # And what each stands at over the whole night, payments included (walk 92).
            "night": _night_lines(evening, night, games=False),
            # Closed so, it is left out of the lists: the confirmation says so.
            "counts_nothing": evening.is_open
            and membership.can_score
            and services.counts_nothing(evening),
            # A Bock round counts only at its own evening: closed, its games lapse (walk 48).
            "bock_open": evening.is_open
            and membership.can_score
            and not evening.settles_runde
            # Opened again for corrections only, they lapsed at its first close (walk 77).
            and not evening.closed_for_play
            and services.bock_open(evening),
            "open": []
            if settled_by
            else sorted(left.items(), key=lambda line: order.get(line[0], len(order))),
            # (change id, payer, payee, cents, the change) of the payments that stand,
            # for "Storno", and when and by whom each was entered.
            "payments": [
                (
                    change.pk,
                    names[change.after["payer"]],
                    names[change.after["payee"]],
                    change.after["amount"],
                    change,
                )
                for change in live
            ],
            # (payer, payee, cents, the payment, its Storno) of those taken back.
            "cancelled": [
                (
                    names[payment.after["payer"]],
                    names[payment.after["payee"]],
                    payment.after["amount"],
                    payment,
                    storno,
                )
                for payment, storno in cancelled
            ],
            "can_score": membership.can_score,
            # "Andere Zahlung": money that changed hands otherwise than proposed, or a
            # rest rounding leaves; who owes pays whom they owe, as far as is open.
            "other_payment": {
                "payers": [(pid, names[pid], c) for pid, c in by_player.items() if c < 0],
                "payees": [(pid, names[pid], c) for pid, c in by_player.items() if c > 0],
                "payer": other.get("payer"),
                "payee": other.get("payee"),
                "value": other.get("value", ""),
                "error": other.get("error", ""),
                "at": other.get("at", ""),
                "key": uuid.uuid4(),
            },
            "changed_after_paying": _changed_after_paying(evening, live),
            # An Ausgleich with evenings played after it: the Runde's accounts add those up
            # with what is open here, so their amounts differ (runde_balances says so too).
            "played_since": evening.settles_runde
            and not settled_by
            and services.played_since(evening),
            "open_ausgleich": None
            if evening.settles_runde or settled_by
            else _open_ausgleich(evening.runde, before=evening),
        },
    )


def _pending_messages(request: HttpRequest) -> set[str]:
    """The messages waiting to be shown, left waiting: a retry whose first answer was
    lost finds that answer's word here, and says no second one."""
    storage = messages.get_messages(request)
    pending = {str(message) for message in storage}
    storage.used = False
    return pending


# What a change after a payment did to a game, as the Abrechnung says it.
CHANGED = {
    Change.Kind.CORRECT: gettext_lazy("Spiel %(n)s korrigiert"),
    Change.Kind.VOID: gettext_lazy("Spiel %(n)s gestrichen"),
    Change.Kind.UNDO: gettext_lazy("Spiel %(n)s zurückgenommen"),
    Change.Kind.RESTORE: gettext_lazy("Spiel %(n)s wiederhergestellt"),
}
BACK = "back"  # a correction that took back the one before it (services.taken_back)
BACK_SAID = gettext_lazy("Korrektur von Spiel %(n)s zurückgenommen")
UNDONE = gettext_lazy("Spiel %(n)s korrigiert und die Korrektur zurückgenommen")


def _changed_after_paying(evening: Evening, live: list[Change]) -> list[str]:
    """The games booked, corrected, struck or restored after the first payment that
    stands: the Abrechnung says so, as what is open moved while what was paid stays
    ("Spiele 26–27 gebucht", "Spiel 6 korrigiert"; booked at an evening opened again, or
    played on after someone paid and left, walk 38), with the later games that change
    scored anew, their Bock moved ("Spiel 2 korrigiert (dazu neu gewertet: Spiel 3, 4)").
    Queries only where something was paid."""
    if not live:
        return []
    first = min(change.version or 0 for change in live)
    later = evening.changes.filter(
        kind__in=[Change.Kind.BOOK, Change.Kind.BOCK, *CHANGED], version__gt=first
    ).order_by("version")
    changes = list(later.values_list("pk", "kind", "game__number", "game_id", "before", "after"))
    booked = [change[2] for change in changes if change[1] == Change.Kind.BOOK]
    # Moved by a change at an earlier table of the night (walk 89: the note named none).
    elsewhere = [
        _("Bock neu gezählt (%(source)s)")
        % {"source": wording.bock_source(Change(kind=kind, before=before))}
        for _pk, kind, _number, _game, before, _after in changes
        if kind == Change.Kind.BOCK
    ]
    changes = [
        change for change in changes if change[1] not in (Change.Kind.BOOK, Change.Kind.BOCK)
    ]
    rescored: dict[int, set[int]] = defaultdict(set)
    for change_id, _game_id, number in _later_games(
        LedgerEntry.objects.filter(change_id__in=[change[0] for change in changes])
    ):
        rescored[change_id].add(number)
    # A correction taken back ("Rückgängig", or set back by hand) is said so (walk 50: the
    # note named the correction only); a game so back as it was, with its correction.
    corrected = {change[3] for change in changes if change[1] == Change.Kind.CORRECT}
    # Per game, its last correction before the first payment: (the state before, after).
    earlier = {
        game: (before, after)
        for game, before, after in evening.changes.filter(
            game_id__in=corrected, kind=Change.Kind.CORRECT, version__lte=first
        )
        .order_by("version")
        .values_list("game_id", "before", "after")
    }
    # Each once: a game corrected twice is "Spiel 16 korrigiert", not that twice; its
    # corrections said by what they came to: back as it was ("… und die Korrektur
    # zurückgenommen", nothing rescored), a correction from before taken back, or not.
    said: dict[tuple[str, int], set[int]] = {}
    # per game corrected: (the game, its state at the first payment, its state now)
    states: dict[int, tuple] = {}
    for pk, kind, number, game, before, after in changes:
        if number is None:
            continue
        if kind == Change.Kind.CORRECT:
            states[number] = (game, states.get(number, (game, before))[1], after)
        said.setdefault((kind, number), set()).update(rescored[pk])
    undone, back = set(), set()
    for number, (game, paid_at, now) in states.items():
        if paid_at == now:
            undone.add(number)
            said[Change.Kind.CORRECT, number] = set()  # its rescoring taken back with it
        elif earlier.get(game) == (now, paid_at):  # as before a correction made before
            back.add(number)
    # Said in the order they were made (walk 60: a correction taken back came last).
    said = {
        (BACK if kind == Change.Kind.CORRECT and number in back else kind, number): more
        for (kind, number), more in said.items()
    }
    return [
        *(
            [
                ngettext("Spiel %(games)s gebucht", "Spiele %(games)s gebucht", len(booked))
                % {"games": _runs(booked)}
            ]
            if booked
            else []
        ),
        *(
            str(
                (UNDONE if number in undone else BACK_SAID if kind == BACK else CHANGED[kind])
                % {"n": number}
            )
            + (
                _(" (dazu neu gewertet: Spiel %(games)s)")
                % {"games": ", ".join(str(n) for n in sorted(more))}
                if more
                else ""
            )
            for (kind, number), more in said.items()
        ),
        *elsewhere,
    ]


def _runs(numbers: list[int]) -> str:
    """Game numbers with their runs joined: [3, 4, 5, 9] -> "3–5, 9"."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(
        f"{run[0]}–{run[-1]}" if len(run) > 2 else ", ".join(map(str, run)) for run in runs
    )


def _open_ausgleich(runde, before: Evening) -> Evening | None:
    """The Runde's last Ausgleich before the evening `before`, if payments are still
    open in it: the evening's Abrechnung says so, and why their amounts differ (a
    Schreiber might enter a payment in the wrong one)."""
    ausgleiche = runde.evenings.filter(settles_runde=True, started_at__lt=before.started_at)
    last = ausgleiche.order_by("-started_at", "-pk").first()
    return last if last is not None and services.settlement(last).transfers else None


def _night_lines(evening: Evening, tables: list[int], games: bool) -> list[tuple[str, int]]:
    """(name, cents) of each player's sum at the `tables` of the night (games only, or
    with payments): this table's players in seating order first, then the others by
    name; nothing for none, or for a tournament's table."""
    if not tables or evening.is_table:
        return []
    kinds = [LedgerEntry.Kind.GAME] + ([] if games else [LedgerEntry.Kind.PAYMENT])
    sums = services.night_sums(tables, kinds)
    names = dict(Player.objects.filter(pk__in=sums).values_list("pk", "name"))
    seats = {pid: at for at, pid in enumerate(evening.seats.values_list("player_id", flat=True))}
    order = sorted(sums, key=lambda pid: (seats.get(pid, len(seats)), german_key(names[pid])))
    return [(names[pid], sums[pid]) for pid in order]


def _balance_lines(
    evening: Evening, names: dict[int, str], balances: dict[int, int]
) -> list[tuple[str, int]]:
    """(name, cents) of each player's balance: in seating order at an evening; at an
    Ausgleich (everyone of the Runde, nobody sat) highest first, as the Runde's accounts."""
    lines = [(names[pid], cents) for pid, cents in balances.items()]
    if evening.settles_runde:
        return sorted(lines, key=lambda line: (-line[1], german_key(line[0])))
    return lines


@require_POST
@login_required
def payment(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Mark a suggested transfer as paid, or part of it ("Anderer Betrag"), or another
    payment between two of the evening ("Andere Zahlung", `other`): two ledger entries,
    payer and payee."""
    evening, _membership = scored_evening_of(request, evening_id)
    form = PaymentForm(request.POST)
    other = "other" in request.POST
    refused = ""
    if form.is_valid():
        proposed = services.settlement(evening).transfers
        try:
            change = services.record_payment(
                evening.pk,
                form.cleaned_data["payer"],
                form.cleaned_data["payee"],
                form.cents,
                request.user,
                form.cleaned_data["key"],
                form.cleaned_data["seen"],
            )
        except services.EveningError as error:
            refused = str(error)
        else:
            names = _names(evening)
            what = wording.summarize(change, names)
            booked = _("Zahlung eingetragen: %(payment)s") % {"payment": what}
            seen = form.cleaned_data["seen"]
            if not change.replayed:
                messages.success(request, booked)
                paid = (form.cleaned_data["payer"], form.cleaned_data["payee"])
                now = services.settlement(evening).transfers
                if seen is not None and seen < change.version - 1:
                    # A game booked or corrected, or another payment, since the page was
                    # shown: its proposal is not the one compared here (walk 32).
                    messages.info(
                        request,
                        _(
                            "Seit die Seite geladen wurde, hat sich am Abend etwas geändert: "
                            "hier steht, was jetzt offen ist."
                        ),
                    )
                elif changed := wording.plan_changes(proposed, now, paid, names):
                    messages.info(request, changed)
            elif booked not in _pending_messages(request):
                # This form was sent before, and its answer was seen (or is gone).
                messages.info(request, _("Schon eingetragen: %(payment)s") % {"payment": what})
    elif other and ("payer" in form.errors or "payee" in form.errors):
        refused = _("Bitte wählen, wer zahlt und wer das Geld bekommt.")
    elif "other_amount" in form.errors:
        refused = form.errors["other_amount"][0]  # the parser's message names the problem
    else:
        refused = _("Diese Zahlung ist ungültig.")
    chosen = other or ("payer" in form.cleaned_data and "payee" in form.cleaned_data)
    if refused and form.typed and chosen:
        # A typed amount: shown again at its field, with the reason, to put right; on the
        # Abrechnung's own address (walk 69: as this POST's answer, Back after paying
        # then asked to send the refused form again).
        request.session[TYPED] = {
            "evening": evening.pk,
            "payer": form.cleaned_data.get("payer"),
            "payee": form.cleaned_data.get("payee"),
            "value": request.POST["other_amount"],
            "error": str(refused),
            "other": other,
            # Which field the word belongs to: nobody chosen is said at the choices (walk
            # 81: under the amount, which was marked).
            "at": "who" if "payer" in form.errors or "payee" in form.errors else "amount",
        }
    elif refused:
        messages.error(request, refused)
    return redirect("evenings:settlement", evening_id=evening.pk)


@require_POST
@login_required
def payment_cancel(request: HttpRequest, evening_id: int, change_id: int) -> HttpResponse:
    """Take back a payment marked by mistake ("Storno"): a payment the other way."""
    evening, _membership = scored_evening_of(request, evening_id)
    payment = get_object_or_404(evening.changes.filter(kind=Change.Kind.PAYMENT), pk=change_id)
    try:
        change = services.cancel_payment(evening.pk, payment.pk, request.user)
    except services.EveningError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, wording.summarize(change, _names(evening)))
    return redirect("evenings:settlement", evening_id=evening.pk)


@require_POST
@login_required
def reopen(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening, _membership = admin_evening_of(request, evening_id)
    try:
        evening = services.reopen_evening(evening.pk, request.user)
    except services.EveningError as error:
        messages.error(request, str(error))
    else:
        if evening.corrections_only:  # the page says where new games go (walk 34)
            messages.success(request, _("Der Abend ist wieder offen, zum Korrigieren."))
        elif evening.play_over and not evening.is_table:  # went on at a new table
            messages.success(
                request,
                _("Der Abend ist wieder offen, zum Korrigieren: neue Spiele nimmt er keine."),
            )
        elif evening.play_over:  # played out, ended early or of a round gone by
            messages.success(
                request,
                _("Der Tisch ist wieder offen, zum Korrigieren: neue Spiele nimmt er keine."),
            )
        elif evening.is_table:
            messages.success(request, _("Der Tisch ist wieder offen."))
        else:
            messages.success(request, _("Der Abend ist wieder offen."))
    return redirect("evenings:detail", evening_id=evening.pk)


@require_http_methods(["GET", "POST"])
@login_required
@never_cache
def evening_tariff(request: HttpRequest, evening_id: int) -> HttpResponse:
    """An admin gives an open evening the Runde's newer tariff from its first game: a
    wrong amount noticed after a few games (walk 29). What it changes, per player, is
    shown before anything changes; the history keeps what was played before."""
    evening, membership = admin_evening_of(request, evening_id)
    if evening.is_table or evening.settles_runde:
        raise Http404
    current = evening.runde.tariffs.latest()
    if request.method == "POST":
        shown = _version(request.POST.get("tarif", "")) or 0
        try:
            done = services.apply_tariff(evening.pk, shown, request.user)
        except services.EveningError as error:
            messages.error(request, str(error))
            return redirect("evenings:tariff", evening_id=evening.pk)
        if done.changed and not (counted := evening.games.booked().count()):
            messages.success(
                request,
                _("Der Abend spielt jetzt mit dem Tarif vom %(when)s Uhr.")
                % {"when": _minute(current.valid_from)},
            )
        elif done.changed:
            messages.success(
                request,
                ngettext(
                    "Der Abend spielt jetzt mit dem Tarif vom %(when)s Uhr: %(n)s Spiel neu "
                    "gewertet.",
                    "Der Abend spielt jetzt mit dem Tarif vom %(when)s Uhr: %(n)s Spiele neu "
                    "gewertet.",
                    counted,
                )
                % {"n": counted, "when": _minute(current.valid_from)},
            )
        else:
            messages.info(request, _("Der Abend spielt schon mit diesem Tarif."))
        return redirect("evenings:detail", evening_id=evening.pk)
    context = {"evening": evening, "membership": membership, "current": current}
    if evening.tariff_id != current.pk:
        # Scored as it would be: going on from the table before as this one does, whose
        # Bock it carries if that plays the same tariff (walk 91: not so, the preview
        # missed Bock games that the switch then booked).
        trial = Evening(
            pk=evening.pk,
            tariff=current,
            continues_id=evening.continues_id,
            carries_bock=evening.carries_bock,
        )
        # Bock games carried in from the table before, now and with the new tariff (walk
        # 89: they went unannounced); the table after this one, if its Bock goes on from
        # here now (its first games lose it) or would with the new tariff (it plays it).
        context["carried"] = services.carried_bock(evening)
        context["carried_after"] = services.carried_bock(trial)
        after_this = (
            Evening.objects.filter(continues=evening, carries_bock=True)
            .values_list("tariff_id", flat=True)
            .first()
        )
        context["hands_on"] = after_this == evening.tariff_id and evening.tariff.plays_bock
        context["would_hand_on"] = after_this == current.pk and current.plays_bock
        names = _names(evening)
        now = services.standing(evening)
        games = list(evening.games.booked())
        refusals = [services.tariff_refusal(evening), services.tariff_misfits(current, games)]
        if not refusals[1]:
            try:
                after = services.score(trial, games, list(now)).totals
            except ScoringError as error:
                refusals[1] = error.message_de
            else:
                context["lines"] = [
                    (names[pid], cents, after[str(pid)]) for pid, cents in now.items()
                ]
        context |= {
            "changes": current.changed_from(evening.tariff),
            "games": len(games),
            "refusals": [refusal for refusal in refusals if refusal],
            "misfits": bool(refusals[1]),
            # Only a payment's refusal is undone at the Abrechnung.
            "to_settlement": refusals[0] == str(services.PAID_BEFORE_TARIFF),
            "unrecorded": _laufende_unrecorded(evening.tariff, current) if games else [],
        }
    return render(request, "evenings/tariff.html", context)


def _laufende_unrecorded(before: Tariff, after: Tariff) -> list[str]:
    """What a lowered Laufende threshold does not score anew: a game's Laufende below the
    old one were booked as "keine" (the entry form offers no fewer), and stay so (walk 48)."""
    said = []
    for field, what in (
        ("laufende_min", _("Laufende zählen jetzt ab %(now)s statt ab %(was)s.")),
        ("laufende_min_wenz", _("Beim Wenz zählen Laufende jetzt ab %(now)s statt ab %(was)s.")),
    ):
        was, now = getattr(before, field), getattr(after, field)
        if now < was:
            fewer = (
                str(now)
                if now == was - 1
                else _("%(low)s bis %(high)s")
                % {
                    "low": now,
                    "high": was - 1,
                }
            )
            said.append(
                what % {"now": now, "was": was}
                + " "
                + _(
                    "Spiele mit %(fewer)s Laufenden sind mit „keine“ gebucht (sie zählten "
                    "bisher nicht) und bleiben so: nach dem Übernehmen bitte prüfen und "
                    "korrigieren."
                )
                % {"fewer": fewer}
            )
    return said


def _minute(moment) -> str:
    return timezone.localtime(moment).strftime("%d.%m.%Y, %H:%M")


@require_POST
@login_required
def share(request: HttpRequest, evening_id: int) -> HttpResponse:
    """A new read-only link (the old one stops working), or none at all."""
    evening, _membership = scored_evening_of(request, evening_id)
    revoke = request.POST.get("revoke") == "1"
    services.renew_share_link(evening.pk, request.user, revoke=revoke)
    messages.success(
        request,
        _("Der Zuschauer-Link ist gesperrt.")
        if revoke
        else _("Es gibt einen neuen Zuschauer-Link."),
    )
    return redirect("evenings:detail", evening_id=evening.pk)


@require_GET
@login_required
@never_cache  # the Ausgleich's form key: fresh on every visit
def runde_balances(request: HttpRequest, club_id: int, runde_id: int) -> HttpResponse:
    """Everyone's balance in a Runde over all its evenings (games and payments): the
    evenings' totals the database keeps, so ten years read as fast as one evening. And
    who pays whom to settle them all, which the Ausgleich der Runde records."""
    membership = membership_of(request, club_id)
    runde = money_runde_of(membership, runde_id)
    rows = player_pages.runde_balances(runde, None)
    names = {row.player_id: row.name for row in rows}
    # By player id, as the player pages and the Ausgleich settle them.
    balance = {str(row.player_id): row.total for row in sorted(rows, key=lambda r: r.player_id)}
    tariff = runde.tariffs.latest()
    plans = services.runde_plans({runde.pk: balance}, {runde.pk: tariff.settle_unit})
    suggestion = plans[runde.pk] if rows else None
    # Nothing played since the last Ausgleich: that one takes the payments still open.
    newest = runde.evenings.listed().order_by("-started_at", "-pk").first()
    ausgleich = newest if newest is not None and newest.settles_runde else None
    # While evenings run, the Ausgleich waits for them (start_ausgleich): a way to each
    # instead of two taps to a refusal.
    running = []
    if suggestion and suggestion.transfers and ausgleich is None and membership.can_score:
        # With who sits there: two tables of one night were two equal links (walk 38).
        running = list(
            runde.evenings.open()
            .order_by("started_at")
            .prefetch_related(Prefetch("seats", Seat.objects.select_related("player")))
        )
    # Played on after an Ausgleich that still has payments open: both plans are shown, and
    # why they differ (a new Ausgleich takes over what the old one left open).
    earlier = services.open_ausgleiche([runde.pk]).get(runde.pk) if ausgleich is None else None
    return render(
        request,
        "evenings/runde_balances.html",
        {
            "membership": membership,
            "runde": runde,
            "rows": rows,
            "transfers": [
                (names[int(t.payer)], names[int(t.payee)], t.amount)
                for t in (suggestion.transfers if suggestion else ())
            ],
            # What rounding leaves open, in the order of the balances above.
            "open": [
                (row.name, left)
                for row in rows
                if suggestion and (left := suggestion.open.get(str(row.player_id), 0))
            ],
            # The unit the proposal rounds to: an Ausgleich's own (runde_plans).
            "tariff": ausgleich.tariff if ausgleich is not None else tariff,
            "key": uuid.uuid4(),
            "ausgleich": ausgleich,
            "running": running,
            "earlier": earlier,
        },
    )


@require_POST
@login_required
def ausgleich(request: HttpRequest, club_id: int, runde_id: int) -> HttpResponse:
    """Settle the Runde as a whole: its Ausgleich, whose Abrechnung takes the payments."""
    membership = scorekeeper_of(request, club_id)
    runde = money_runde_of(membership, runde_id)
    try:
        key = uuid.UUID(request.POST.get("key", ""))
    except ValueError:
        key = None
    try:
        evening = services.start_ausgleich(runde, request.user, key)
    except services.EveningError as error:
        messages.error(request, str(error))
        return redirect("evenings:runde_balances", club_id=club_id, runde_id=runde.pk)
    # Said, as every other step is (and the focus goes to it, for a screen reader); once,
    # if a second tap's answer comes before the page of the first.
    if key is not None and evening.key != key:  # another phone's, begun just before
        said = _(
            "Der Ausgleich der Runde ist schon begonnen: hier wird eingetragen, wer wem zahlt."
        )
    else:
        said = _("Ausgleich der Runde begonnen: hier wird eingetragen, wer wem zahlt.")
    if said not in _pending_messages(request):
        messages.success(request, said)
    return redirect("evenings:settlement", evening_id=evening.pk)


@require_GET
@login_required
def evening_print(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The evening like the paper Schafkopf-Block, for the browser's print: a row per
    game, a column per player with the running totals, the payments, a line to sign."""
    evening, membership = evening_of(request, evening_id)
    if evening.settles_runde:  # no block to print: its payments are on its Abrechnung
        return redirect("evenings:settlement", evening_id=evening.pk)
    built, rows_html = sheet.kept(evening, "print", sheet.print_rows_html)
    balances = services.balances(evening)
    return render(
        request,
        "evenings/print.html",
        {
            "evening": evening,
            "membership": membership,
            "sheet": built,
            "rows_html": rows_html,
            # Per player in seating order: the games, the payments, the balance.
            "closing": [
                (total, balances[player.pk] - total, balances[player.pk])
                for player, total in built.standing
            ],
            "paid": any(balances[p.pk] != total for p, total in built.standing),
            # Why its first games are Bock games with no Ramsch before them (walk 89).
            "carried": services.carried_bock(evening),
            # A sheet in the club's file must not read as if that money were still owed.
            "settled_by": None if evening.tariff.is_prohof else services.settled_by(evening),
        },
    )


@require_GET
@login_required
def evening_csv(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The evening's games as CSV for a German spreadsheet (evenings.export). An Ausgleich
    has no games: its CSV is the Runde's payments', as its screen is its Abrechnung."""
    evening, _membership = evening_of(request, evening_id)
    if evening.settles_runde:
        runde = evening.runde
        return redirect("evenings:runde_payments_csv", club_id=runde.club_id, runde_id=runde.pk)
    return HttpResponse(
        "".join(export.evening_lines(evening)).encode(),
        content_type=export.CONTENT_TYPE,
        headers={"Content-Disposition": export.evening_attachment(evening)},
    )


@require_GET
@login_required
def runde_payments_csv(request: HttpRequest, club_id: int, runde_id: int) -> HttpResponse:
    """Every payment of the Runde and every Storno as CSV, for the treasurer's cash box."""
    membership = membership_of(request, club_id)
    runde = money_runde_of(membership, runde_id)
    return HttpResponse(
        "".join(export.payment_lines(runde)),
        content_type=export.CONTENT_TYPE,
        headers={"Content-Disposition": export.attachment(f"{runde.name} Zahlungen")},
    )


@require_GET
@login_required
def runde_csv(request: HttpRequest, club_id: int, runde_id: int) -> StreamingHttpResponse:
    """Every game of the Runde as CSV, streamed: ten years are never held at once."""
    membership = membership_of(request, club_id)
    runde = money_runde_of(membership, runde_id)
    return StreamingHttpResponse(
        (line.encode() for line in export.runde_lines(runde)),
        content_type=export.CONTENT_TYPE,
        headers={"Content-Disposition": export.attachment(runde.name)},
    )
