import uuid

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubs.access import login_required_keep_form, membership_of, scorekeeper_of
from clubs.models import Player
from evenings import services, sheet
from evenings.access import admin_evening_of, evening_of, scored_evening_of
from evenings.forms import GameForm, PaymentForm, StartForm
from evenings.models import Evening, Game, LedgerEntry
from scoring import ScoringError, format_cents, score_evening


@require_http_methods(["GET", "POST"])
@login_required
def start(request: HttpRequest, club_id: int, runde_id: int) -> HttpResponse:
    membership = scorekeeper_of(request, club_id)
    runde = get_object_or_404(membership.club.runden, pk=runde_id)
    players = list(membership.club.players.filter(active=True))
    form = StartForm(request.POST or None, players=players)
    if form.is_valid():
        try:
            evening = services.start_evening(
                runde, form.cleaned_data["players"], form.cleaned_data["dealer_index"], request.user
            )
        except services.EveningError as error:
            form.add_error(None, str(error))
        else:
            return redirect("evenings:detail", evening_id=evening.pk)
    return render(
        request, "evenings/start.html", {"membership": membership, "runde": runde, "form": form}
    )


def _live_context(evening: Evening, membership, form: GameForm | None = None) -> dict:
    deal = services.next_deal(evening)
    can_score = membership is not None and membership.can_score and evening.is_open
    if can_score and form is None:
        form = GameForm(tariff=evening.tariff, playing=deal.playing)
    return {
        "evening": evening,
        "membership": membership,
        "sheet": sheet.build(evening),
        "deal": deal,
        "form": form if can_score else None,
        "can_score": can_score,
    }


@require_GET
@login_required
def detail(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening, membership = evening_of(request, evening_id)
    context = _live_context(evening, membership)
    if membership.can_score and evening.share_token and evening.is_open:
        url = request.build_absolute_uri(reverse("evenings:live", args=[evening.share_token]))
        context["share_url"] = url
        context["share_qr"] = segno.make(url, error="m").svg_inline(scale=4, dark="#1d1d1b")
    return render(request, "evenings/evening.html", context)


def _form_for_post(request, evening: Evening) -> GameForm:
    """The bound entry form; a retried key is checked against the game it booked."""
    try:
        key = uuid.UUID(request.POST.get("key", ""))
    except ValueError:
        key = None
    booked = evening.games.filter(key=key).first() if key else None
    playing_ids = booked.seating if booked else [p.pk for p in services.next_deal(evening).playing]
    by_id = Player.objects.in_bulk(playing_ids)
    return GameForm(request.POST, tariff=evening.tariff, playing=[by_id[pk] for pk in playing_ids])


def _add_engine_error(form: GameForm, error: services.EveningError) -> None:
    field = error.field if error.field in form.fields else None
    form.add_error(field, str(error))


@require_POST
@login_required_keep_form("#entry-status")
def book(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening, membership = scored_evening_of(request, evening_id)
    form = _form_for_post(request, evening)
    if form.is_valid():
        try:
            game, created = services.book_game(
                evening.pk, form.cleaned_data["key"], form.game_input(), request.user
            )
        except services.KeyReused as error:
            # The form is stale: its key booked another game. A fresh form, a clear word.
            messages.error(request, str(error))
            form = None
        except services.EveningError as error:
            _add_engine_error(form, error)
        else:
            evening.refresh_from_db()
            if created:
                messages.success(request, _("Gebucht: %(game)s") % {"game": describe(game)})
            else:
                messages.info(request, _("Schon gebucht: %(game)s") % {"game": describe(game)})
            if not request.htmx:
                return redirect("evenings:detail", evening_id=evening.pk)
            form = None  # a fresh form with a new key for the next game
    context = _live_context(evening, membership, form)
    if request.htmx:
        return render(request, "evenings/evening.html#live", context)
    return render(request, "evenings/evening.html", context)


@require_POST
@login_required_keep_form("#entry-status")
def preview(request: HttpRequest, evening_id: int) -> HttpResponse:
    """What the game being entered will cost each player, from the engine."""
    evening, _membership = scored_evening_of(request, evening_id)
    form = _form_for_post(request, evening)
    lines, problem, bock = None, None, False
    if form.is_valid():
        candidate = Game(evening=evening, seating=[p.pk for p in form.playing])
        form.game_input().apply_to(candidate)
        games = [g.for_engine() for g in evening.games.booked()] + [candidate.for_engine()]
        players = [str(p.pk) for p in form.playing]
        try:
            result = score_evening(evening.tariff.rules, games).games[-1]
        except ScoringError as error:
            problem = error.message_de
        else:
            names = {str(p.pk): p.name for p in form.playing}
            lines = [(names[pid], result.payouts[pid]) for pid in players]
            bock = result.bock
    return render(
        request,
        "evenings/evening.html#preview",
        {"lines": lines, "bock": bock, "problem": problem, "form": form, "evening": evening},
    )


@require_GET
@login_required
def sheet_poll(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The sheet for phones following along; 204 when nothing changed since `v`."""
    evening, membership = evening_of(request, evening_id)
    return _sheet_or_unchanged(request, evening, membership)


def _sheet_or_unchanged(request, evening: Evening, membership, token=None) -> HttpResponse:
    if request.GET.get("v") == str(evening.version):
        return HttpResponse(status=204)
    return render(
        request,
        "evenings/evening.html#sheet",
        {
            "evening": evening,
            "membership": membership,
            "sheet": sheet.build(evening),
            "token": token,
        },
    )


@require_GET
def live(request: HttpRequest, token: str) -> HttpResponse:
    """The read-only sheet for whoever scanned the QR code: no account needed."""
    evening = get_object_or_404(Evening.objects.open(), share_token=token)
    return render(
        request,
        "evenings/live.html",
        {"evening": evening, "membership": None, "sheet": sheet.build(evening), "token": token},
    )


@require_GET
def live_poll(request: HttpRequest, token: str) -> HttpResponse:
    """Polling from the read-only page; once the link is revoked or the evening closed,
    the answer says so and its status 286 tells htmx to stop polling."""
    evening = Evening.objects.open().filter(share_token=token).first()
    if evening is None:
        return render(request, "evenings/live_ended.html", status=286)
    return _sheet_or_unchanged(request, evening, None, token=token)


@require_http_methods(["GET", "POST"])
@login_required
def game_edit(request: HttpRequest, evening_id: int, game_id: int) -> HttpResponse:
    """Correct an earlier game; later games are rescored."""
    evening, membership = scored_evening_of(request, evening_id)
    game = get_object_or_404(evening.games.booked(), pk=game_id)
    by_id = Player.objects.in_bulk(game.seating)
    playing = [by_id[pk] for pk in game.seating]
    initial = GameForm.initial_for(game)
    form = GameForm(request.POST or None, tariff=evening.tariff, playing=playing, initial=initial)
    if request.method == "POST" and evening.is_open and form.is_valid():
        try:
            services.correct_game(evening.pk, game.pk, form.game_input(), request.user)
        except services.EveningError as error:
            _add_engine_error(form, error)
        else:
            messages.success(request, _("Korrigiert; alle späteren Spiele sind neu berechnet."))
            return redirect("evenings:detail", evening_id=evening.pk)
    return render(
        request,
        "evenings/game_edit.html",
        {"evening": evening, "membership": membership, "game": game, "form": form},
    )


@require_POST
@login_required
def game_void(request: HttpRequest, evening_id: int, game_id: int) -> HttpResponse:
    evening, _membership = scored_evening_of(request, evening_id)
    game = get_object_or_404(evening.games.booked(), pk=game_id)
    try:
        services.void_game(evening.pk, game.pk, request.user)
    except services.EveningError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Gestrichen: %(game)s") % {"game": describe(game)})
    return redirect("evenings:detail", evening_id=evening.pk)


@require_POST
@login_required
def undo(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening, _membership = scored_evening_of(request, evening_id)
    try:
        game = services.undo_last(evening.pk, request.user)
    except services.EveningError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Zurückgenommen: %(game)s") % {"game": describe(game)})
    return redirect("evenings:detail", evening_id=evening.pk)


@require_GET
@login_required
def history(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening, membership = evening_of(request, evening_id)
    changes = evening.changes.select_related("by", "game")
    names = dict(Player.objects.filter(seats__evening=evening).values_list("pk", "name"))
    return render(
        request,
        "evenings/history.html",
        {
            "evening": evening,
            "membership": membership,
            "changes": [(change, summarize(change, names)) for change in changes],
        },
    )


@require_http_methods(["GET", "POST"])
@login_required
def settlement(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Balances, who pays whom (rounded as the Runde wants), paying and closing."""
    evening, membership = evening_of(request, evening_id)
    if request.method == "POST":
        evening, membership = scored_evening_of(request, evening_id)
        try:
            services.close_evening(evening.pk, request.user)
        except services.EveningError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Der Abend ist abgeschlossen."))
        return redirect("evenings:settlement", evening_id=evening.pk)
    names = dict(Player.objects.filter(seats__evening=evening).values_list("pk", "name"))
    suggestion = services.settlement(evening)
    paid = (
        LedgerEntry.objects.filter(evening=evening, kind=LedgerEntry.Kind.PAYMENT, amount__gt=0)
        .select_related("change")
        .order_by("pk")
    )
    return render(
        request,
        "evenings/settlement.html",
        {
            "evening": evening,
            "membership": membership,
            "balances": [(names[pid], cents) for pid, cents in services.balances(evening).items()],
            "transfers": [
                (names[int(t.payer)], names[int(t.payee)], t.amount, t.payer, t.payee)
                for t in suggestion.transfers
            ],
            "open": [(names[int(pid)], cents) for pid, cents in suggestion.open.items() if cents],
            "payments": [
                (names[e.player_id], names[e.change.after["payee"]], e.amount) for e in paid
            ],
            "can_score": membership.can_score,
        },
    )


@require_POST
@login_required
def payment(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Mark a suggested transfer as paid: two ledger entries, payer and payee."""
    evening, _membership = scored_evening_of(request, evening_id)
    form = PaymentForm(request.POST)
    if form.is_valid():
        try:
            services.record_payment(
                evening.pk,
                form.cleaned_data["payer"],
                form.cleaned_data["payee"],
                form.cleaned_data["amount"],
                request.user,
            )
        except services.EveningError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Zahlung eingetragen."))
    else:
        messages.error(request, _("Diese Zahlung ist ungültig."))
    return redirect("evenings:settlement", evening_id=evening.pk)


@require_POST
@login_required
def reopen(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening, _membership = admin_evening_of(request, evening_id)
    try:
        services.reopen_evening(evening.pk, request.user)
    except services.EveningError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Der Abend ist wieder offen."))
    return redirect("evenings:detail", evening_id=evening.pk)


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
def runde_balances(request: HttpRequest, club_id: int, runde_id: int) -> HttpResponse:
    """Everyone's balance in a Runde over all its evenings (games and payments)."""
    membership = membership_of(request, club_id)
    runde = get_object_or_404(membership.club.runden, pk=runde_id)
    rows = (
        LedgerEntry.objects.filter(evening__runde=runde)
        .values_list("player__name")
        .annotate(total=Sum("amount"))
        .order_by("-total", "player__name")
    )
    return render(
        request,
        "evenings/runde_balances.html",
        {
            "membership": membership,
            "runde": runde,
            "rows": rows,
            "evenings": runde.evenings.all(),
        },
    )


def describe(game: Game) -> str:
    """ "3. Sauspiel von Sepp" for messages."""
    who = game.declarer or game.loser
    kind = game.get_type_display()
    if game.type == Game.Type.FARBSOLO:
        kind = f"{game.get_suit_display()}-Solo"
    return f"{game.number}. {kind} ({who})" if who else f"{game.number}. {kind}"


GAME_NAMES = dict(Game.Type.choices)
SUIT_NAMES = dict(Game.SuitChoice.choices)


def summarize(change, names: dict[int, str]) -> str:
    """A short German line of what a change recorded."""

    def game_line(data):
        if not data:
            return ""
        who = names.get(data.get("declarer") or data.get("loser"), "")
        kind = str(GAME_NAMES.get(data["type"], data["type"]))
        if data.get("suit"):
            kind = f"{SUIT_NAMES.get(data['suit'], data['suit'])}-Solo"
        parts = [kind, who]
        if data.get("partner"):
            parts.append(_("mit %(partner)s") % {"partner": names.get(data["partner"], "")})
        if data.get("type") != "ramsch":
            parts.append(_("gewonnen") if data.get("won") else _("verloren"))
        if data.get("laufende"):
            parts.append(_("%(n)s Laufende") % {"n": data["laufende"]})
        for flag, label in (("schneider", _("Schneider")), ("schwarz", _("Schwarz")),
                            ("tout", _("Tout"))):  # fmt: skip
            if data.get(flag):
                parts.append(label)
        if data.get("kontra"):
            parts.append([_("Kontra"), _("Re")][data["kontra"] - 1])
        if data.get("doubled"):
            parts.append(_("%(n)s× gedoppelt") % {"n": data["doubled"]})
        return " · ".join(str(p) for p in parts if p)

    if change.kind == "payment":
        after = change.after
        return _("%(payer)s zahlt %(payee)s %(amount)s") % {
            "payer": names.get(after["payer"]),
            "payee": names.get(after["payee"]),
            "amount": format_cents(after["amount"]),
        }
    if change.kind == "correct":
        return f"{game_line(change.before)} → {game_line(change.after)}"
    if change.kind in ("void", "undo"):
        return game_line(change.before)
    if change.kind == "book":
        return game_line(change.after)
    return ""
