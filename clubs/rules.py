"""The rules pages: seed 001 with a Runde's tariff filled in (and with the default tariff
for anyone), seed 000's tournament points.

Every amount on them comes from the engine: the examples are scored as a booking scores
them, and each carries its request in the contract's JSON, so `python -m scoring` can
check it without the app.
"""

import json
import re

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.views.decorators.http import require_GET

from clubs.access import membership_of, money_runde_of
from clubs.models import Tariff
from evenings.services import newest_ausgleich
from scoring import BockMode, ProHofRules, TariffRules, worked_examples
from scoring.examples import (
    Example,
    example_request,
    prohof_examples,
    prohof_least_rufspiel,
    rule_figures,
)
from scoring.model import MAX_LAUFENDE_WENZ
from scoring.settlement import settle

# The evening of the settlement example: two players, an amount no unit divides evenly.
SETTLEMENT_EXAMPLE = {"Sepp": 135, "Resi": -135}


def _as_json(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _unbroken(text: str) -> str:
    """The text with each amount's euro sign bound to its number, so that a narrow
    screen never wraps "0,10" and "€" onto two lines."""
    return text.replace(" €", "\N{NO-BREAK SPACE}€")


def _summands(text: str) -> SafeString:
    """A sum ("Grundwert 1,00 € + 2 Laufende 0,40 € = 1,40 €", maybe a note in brackets
    after it) as boxes a narrow screen wraps between: each summand whole, with its "+" or
    "=" before it, never "Laufende 0,40 € + Schneider" on a line and its amount on the
    next; inside one only where it is wider than the screen (static/css/app.css)."""
    summands, bracket, note = text.partition(" (")
    parts = re.split(r" (?=[+=] )", summands)
    boxes = format_html_join(" ", '<span class="summand">{}</span>', ((p,) for p in parts))
    return format_html("{}{}", boxes, _unbroken(bracket + note))


def _shown(rules: TariffRules, example: Example) -> dict[str, object]:
    """An example as the page shows it, with its request and payouts for data-*."""
    return {
        "example": example,
        "value_text": _summands(example.value_text),
        # "3 × 0,90 € = 2,70 €": the sum with what it comes to.
        "distribution": _unbroken(example.distribution).replace(" = ", " =\N{NO-BREAK SPACE}"),
        "payouts": list(example.result.payouts.items()),
        "request_json": _as_json(example_request(rules, example.games)),
        "payouts_json": _as_json(dict(example.result.payouts)),
    }


def _tariff_context(rules: TariffRules, settle_unit: int) -> dict[str, object]:
    return {
        "rules": rules,
        "figures": rule_figures(rules),
        "plays_bock": rules.bock is not BockMode.OFF,
        "bock_after_lost_solo": rules.bock is BockMode.RAMSCH_OR_LOST_SOLO,
        "settle_unit": settle_unit,
        "settle_label": Tariff.SettleUnit(settle_unit).label,
        "settlement_totals": SETTLEMENT_EXAMPLE,
        "settlement": settle(SETTLEMENT_EXAMPLE, settle_unit),
        "examples": [_shown(rules, example) for example in worked_examples(rules)],
    }


@require_GET
@login_required
def runde_rules(request: HttpRequest, club_id: int, runde_id: int) -> HttpResponse:
    """Seed 001 with the Runde's current tariff, or with the tariff one of its evenings is
    played with (`?abend=`: an evening keeps the tariff it started with, and its "Regeln"
    must show what it books): any member of the club."""
    membership = membership_of(request, club_id)
    runde = money_runde_of(membership, runde_id)
    current = tariff = runde.tariff
    evening = None
    if "abend" in request.GET:
        evening_id = request.GET["abend"]
        if not re.fullmatch(r"\d{1,18}", evening_id):
            raise Http404
        evening = get_object_or_404(runde.evenings.select_related("tariff"), pk=evening_id)
        tariff = evening.tariff
    context = _tariff_context(tariff.rules, tariff.settle_unit)
    # Evenings still running with a tariff from before the current one: tonight's table
    # reads its own rules there, not the new amounts.
    older = [] if evening else list(runde.evenings.open().exclude(tariff=current))
    # The newest evening played with another tariff, once over: the page says so, and
    # which rules that evening had (a player checks last week's Solo against this page).
    earlier = runde.evenings.filter(settles_runde=False).exclude(tariff=current)
    played_before = None if evening else earlier.order_by("-started_at", "-pk").first()
    # While an Ausgleich is the Runde's newest evening, the Runde's accounts propose its
    # plan, in the rounding it began with: said, or the page would promise the new one.
    ausgleich = newest_ausgleich(runde)
    if ausgleich and ausgleich.tariff.settle_unit == current.settle_unit:
        ausgleich = None
    return render(
        request,
        "clubs/rules.html",
        context
        | {
            "membership": membership,
            "runde": runde,
            "tariff": tariff,
            "evening": evening,
            # The evening plays an older tariff than new evenings do.
            "current": current if tariff.pk != current.pk else None,
            "older": older,
            "played_before": played_before if played_before not in older else None,
            "ausgleich": ausgleich,
            "ausgleich_label": ausgleich and Tariff.SettleUnit(ausgleich.tariff.settle_unit).label,
        },
    )


@require_GET
def default_rules(request: HttpRequest) -> HttpResponse:
    """Seed 001 with the default tariff, the ordinary Zehner-Schafkopf: no login."""
    context = _tariff_context(TariffRules(), Tariff.SettleUnit.CENT)
    return render(request, "clubs/rules.html", context)


@require_GET
def prohof_rules(request: HttpRequest) -> HttpResponse:
    """Seed 000, the ProHof tournament's points, with its worked examples: no login."""
    rules = ProHofRules()
    examples = [
        {
            "example": example,
            "payouts": list(example.result.payouts.items()),
            "request_json": _as_json(example_request(rules, [example.game])),
            "payouts_json": _as_json(dict(example.result.payouts)),
        }
        for example in prohof_examples()
    ]
    return render(
        request,
        "clubs/prohof.html",
        {
            "rules": rules,
            "wenz_cap": MAX_LAUFENDE_WENZ,
            "rufspiel_least": prohof_least_rufspiel(),
            "examples": examples,
        },
    )
