"""A Runde's statistics and balance plot (clubs.stats), against a small history computed
by hand, and its cost against a long one.

The history (tariff: Sauspiel 0,10, Solo and Wenz 0,50, Ramsch 0,10, Laufende from 3 at
0,10, Schneider and Schwarz 0,10 each, Bock after every Ramsch for 4 games, Jungfrau on):

A, 6 March 2025, Vroni, Hias, Resi, Sepp (all four play every game)
  1 Sauspiel Vroni + Resi won          Vroni +10, Resi +10, Hias -10, Sepp -10
  2 Sauspiel Hias + Sepp lost          Hias -10, Sepp -10, Vroni +10, Resi +10
  3 Farbsolo Sepp won                  Sepp +150, the others -50
  4 Wenz Vroni lost                    Vroni -150, the others +50
  5 Sauspiel Resi + Vroni won, struck  counts for nothing
  totals: Sepp +180, Vroni -180, Hias -20, Resi +20

B, 5 February 2026, Sepp, Vroni, Hias, Resi, Wastl (the dealer sits out)
  1 Ramsch (V H R W), Hias loses, Wastl Jungfrau: 10 x2 = 20   Hias -60, V R W +20
  2 Bock: Sauspiel (H R W S) Hias + Wastl won: 20              Hias, Wastl +20, Resi, Sepp -20
  3 Bock: Farbsolo Tout (R W S V) Resi won: 70 x2 x2 = 280     Resi +840, W S V -280
  4 Bock: Sauspiel (W S V H) Sepp + Vroni lost, corrected to
          Sepp + Hias won with 3 Laufende: 40 x2 = 80          Sepp, Hias +80, Wastl, Vroni -80
  5 Bock: Sauspiel (S V H R) Vroni + Resi won: 20              Vroni, Resi +20, Sepp, Hias -20
  6 Wenz (V H R W) Wastl won: 50                               Wastl +150, V H R -50
  totals: Sepp -240, Vroni -370, Hias -30, Resi +810, Wastl -170

C, 2 April 2026, Vroni, Hias, Resi, Sepp
  1 Sauspiel Hias + Sepp won           Hias +10, Sepp +10, Vroni -10, Resi -10
  Vroni pays Sepp 0,10                 payments: Vroni +10, Sepp -10

Balances after it all: Sepp -60, Vroni -550, Hias -40, Resi +820, Wastl -170.
"""

import re
import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clubs import periods
from clubs import services as clubs
from clubs.models import Player
from clubs.stats import cached_runde_stats, runde_stats
from evenings import services
from evenings.models import Evening, Game, Seat
from evenings.services import GameInput
from tests.clubs.conftest import bulk_ledger

BERLIN = ZoneInfo("Europe/Berlin")
NOW = datetime(2026, 6, 15, 20, 0, tzinfo=BERLIN)
THIS_YEAR, LAST_YEAR, EVERYTHING = periods.periods(NOW)
NAMES = ["Sepp", "Vroni", "Hias", "Resi", "Wastl"]
FOUR = NAMES[:4]


@pytest.fixture
def players(club):
    existing = {p.name: p for p in club.players.all()}  # Resi founded the club
    return {
        name: existing.get(name) or Player.objects.create(club=club, name=name) for name in NAMES
    }


@pytest.fixture
def bock_runde(runde):
    """The Runde with Bock after every Ramsch and Jungfrau, for evenings started from now."""
    tariff = runde.tariffs.latest()
    tariff.bock, tariff.jungfrau = "ramsch", True
    tariff.pk = None
    tariff.save()
    return runde


def start(runde, players, names, when, by):
    evening = services.start_evening(runde, [players[n] for n in names], 0, by)
    Evening.objects.filter(pk=evening.pk).update(started_at=when)
    return evening


def book(evening, data, by):
    game, created = services.book_game(evening.pk, uuid.uuid4(), data, by)
    assert created
    return game


def sauspiel(declarer, partner, won=True, **more):
    return GameInput("sauspiel", declarer=declarer.pk, partner=partner.pk, won=won, **more)


@pytest.fixture
def history(bock_runde, players, admin):
    p = players
    sepp, vroni, hias, resi, wastl = (p[n] for n in NAMES)

    a = start(bock_runde, p, FOUR, datetime(2025, 3, 6, 19, tzinfo=BERLIN), admin)
    book(a, sauspiel(vroni, resi), admin)
    book(a, sauspiel(hias, sepp, won=False), admin)
    book(a, GameInput("farbsolo", declarer=sepp.pk, suit="eichel", won=True), admin)
    book(a, GameInput("wenz", declarer=vroni.pk, won=False), admin)
    struck = book(a, sauspiel(resi, vroni), admin)
    services.void_game(a.pk, struck.pk, admin)

    b = start(bock_runde, p, NAMES, datetime(2026, 2, 5, 19, tzinfo=BERLIN), admin)
    book(b, GameInput("ramsch", won=False, loser=hias.pk, jungfrauen=(wastl.pk,)), admin)
    book(b, sauspiel(hias, wastl), admin)
    book(b, GameInput("farbsolo", declarer=resi.pk, suit="herz", won=True, tout=True), admin)
    wrong = book(b, sauspiel(sepp, vroni, won=False), admin)
    book(b, sauspiel(vroni, resi), admin)
    book(b, GameInput("wenz", declarer=wastl.pk, won=True), admin)
    services.correct_game(b.pk, wrong.pk, sauspiel(sepp, hias, laufende=3), admin)

    c = start(bock_runde, p, FOUR, datetime(2026, 4, 2, 19, tzinfo=BERLIN), admin)
    book(c, sauspiel(hias, sepp), admin)
    services.record_payment(c.pk, vroni.pk, sepp.pk, 10, admin)

    # The hand computation above rests on these: B's games 2 to 5 are the Bock games.
    assert list(b.games.values_list("bock", flat=True)) == [False, True, True, True, True, False]
    assert services.standing(b) == {
        sepp.pk: -240,
        vroni.pk: -370,
        hias.pk: -30,
        resi.pk: 810,
        wastl.pk: -170,
    }
    return a, b, c


def by_name(stats):
    return {one.player.name: one for one in stats["players"]}


def declared(one):
    """{kind: (games, won, lost, per cent won)} of what a player announced."""
    return {k.label: (k.games, k.won, k.lost, k.share_won) for k in one.declared}


def finals(svg: str) -> dict[int, int]:
    return {
        int(player): int(final)
        for player, final in re.findall(r'data-player="(\d+)" data-final="(-?\d+)"', svg)
    }


def end_of(path: str) -> tuple[int, int]:
    """Where a line's path ends: it starts with an absolute move, then steps relatively."""
    x, y = map(int, re.match(r"M(-?\d+) (-?\d+)", path).groups())
    for move, delta in re.findall(r"([hv])(-?\d+)", path):
        x, y = (x + int(delta), y) if move == "h" else (x, y + int(delta))
    return x, y


# -- the statistics --------------------------------------------------------------------------


def test_every_player_is_counted_as_computed_by_hand(history, bock_runde):
    stats = runde_stats(bock_runde, EVERYTHING, NOW)

    players = by_name(stats)
    assert list(players) == ["Hias", "Resi", "Sepp", "Vroni", "Wastl"]
    assert (stats["games"], stats["evenings"]) == (11, 3)
    counted = {
        name: (one.evenings, one.played, one.bock, one.ramsch, one.ramsch_lost, one.jungfrauen)
        for name, one in players.items()
    }
    assert counted == {
        # evenings, games (the struck one not counted), Bock games, Ramsch, lost, Jungfrauen
        "Sepp": (3, 9, 4, 0, 0, 0),
        "Vroni": (3, 10, 3, 1, 0, 0),
        "Hias": (3, 10, 3, 1, 1, 0),
        "Resi": (3, 10, 3, 1, 0, 0),
        "Wastl": (1, 5, 3, 1, 0, 1),
    }


def test_games_announced_count_by_type_with_the_share_won(history, bock_runde):
    players = by_name(runde_stats(bock_runde, EVERYTHING, NOW))

    #                   Sauspiel          Farbsolo         Wenz             Tout
    assert declared(players["Hias"]) == {
        "Sauspiel": (3, 2, 1, 67), "Farbsolo": (0, 0, 0, None), "Wenz": (0, 0, 0, None),
        "Tout (Solo oder Wenz)": (0, 0, 0, None),
    }  # fmt: skip
    assert declared(players["Vroni"]) == {
        "Sauspiel": (2, 2, 0, 100), "Farbsolo": (0, 0, 0, None), "Wenz": (1, 0, 1, 0),
        "Tout (Solo oder Wenz)": (0, 0, 0, None),
    }  # fmt: skip
    # The corrected game counts as corrected: Sepp's lost Sauspiel became a won one.
    assert declared(players["Sepp"]) == {
        "Sauspiel": (1, 1, 0, 100), "Farbsolo": (1, 1, 0, 100), "Wenz": (0, 0, 0, None),
        "Tout (Solo oder Wenz)": (0, 0, 0, None),
    }  # fmt: skip
    # The struck Sauspiel was Resi's: she has announced only her Tout.
    assert declared(players["Resi"]) == {
        "Sauspiel": (0, 0, 0, None), "Farbsolo": (1, 1, 0, 100), "Wenz": (0, 0, 0, None),
        "Tout (Solo oder Wenz)": (1, 1, 0, 100),
    }  # fmt: skip
    assert declared(players["Wastl"])["Wenz"] == (1, 1, 0, 100)


def test_best_and_worst_evening_are_the_game_totals_with_their_date(history, bock_runde):
    a, b, c = history

    players = by_name(runde_stats(bock_runde, EVERYTHING, NOW))

    def best_worst(name):
        one = players[name]
        return (one.best.evening_id, one.best.amount), (one.worst.evening_id, one.worst.amount)

    assert best_worst("Sepp") == ((a.pk, 180), (b.pk, -240))
    # Payments don't make an evening better: Vroni's C was -0,10 in games.
    assert best_worst("Vroni") == ((c.pk, -10), (b.pk, -370))
    assert best_worst("Hias") == ((c.pk, 10), (b.pk, -30))
    assert best_worst("Resi") == ((b.pk, 810), (c.pk, -10))
    assert best_worst("Wastl") == ((b.pk, -170), (b.pk, -170))
    assert timezone.localtime(players["Sepp"].best.started_at).date().isoformat() == "2025-03-06"


def test_the_period_counts_only_its_evenings(history, bock_runde):
    a, b, c = history

    last_year = by_name(runde_stats(bock_runde, LAST_YEAR, NOW))
    this_year = by_name(runde_stats(bock_runde, THIS_YEAR, NOW))

    assert {n: one.played for n, one in last_year.items()} == {
        "Hias": 4, "Resi": 4, "Sepp": 4, "Vroni": 4
    }  # fmt: skip
    assert declared(last_year["Hias"])["Sauspiel"] == (1, 0, 1, 0)
    assert (last_year["Resi"].best.amount, last_year["Resi"].worst.amount) == (20, 20)
    assert {n: one.played for n, one in this_year.items()} == {
        "Hias": 6, "Resi": 6, "Sepp": 5, "Vroni": 6, "Wastl": 5
    }  # fmt: skip
    assert declared(this_year["Hias"])["Sauspiel"] == (2, 2, 0, 100)
    assert (this_year["Sepp"].best.evening_id, this_year["Sepp"].best.amount) == (c.pk, 10)


def test_a_period_without_games_says_so(history, bock_runde):
    later = periods.periods(NOW + timedelta(days=365 * 2))[0]  # 2028

    stats = runde_stats(bock_runde, later, NOW)
    html = render_to_string("clubs/_runde_stats.html", {"stats": stats})

    assert stats["players"] == [] and stats["plot"] is None
    assert "In diesem Zeitraum hat die Runde keine Spiele." in html
    assert "<svg" not in html


# -- the plot --------------------------------------------------------------------------------


def test_the_plot_has_a_line_per_player_ending_at_their_balance(history, bock_runde, players):
    p = players

    plot = runde_stats(bock_runde, EVERYTHING, NOW)["plot"]

    assert finals(plot.svg) == {
        p["Sepp"].pk: -60, p["Vroni"].pk: -550, p["Hias"].pk: -40, p["Resi"].pk: 820,
        p["Wastl"].pk: -170,
    }  # fmt: skip
    # The legend's order: the highest balance first.
    assert [line.player.name for line in plot.series] == ["Resi", "Hias", "Sepp", "Wastl", "Vroni"]
    # Every line runs to the right edge; a higher balance ends higher up (a smaller y).
    ends = [end_of(line.path) for line in plot.series]
    assert {x for x, _y in ends} == {356}
    assert [y for _x, y in ends] == sorted(y for _x, y in ends) and len(set(ends)) == 5
    assert plot.svg.count("data-player=") == 5


def test_a_period_starts_each_line_at_the_balance_before_it(history, bock_runde, players):
    p = players

    plot = runde_stats(bock_runde, THIS_YEAR, NOW)["plot"]

    assert {line.player.name: line.opening for line in plot.series} == {
        "Sepp": 180, "Vroni": -180, "Hias": -20, "Resi": 20, "Wastl": 0
    }  # fmt: skip
    # The real balance at the end, as over everything.
    assert finals(plot.svg) == {
        p["Sepp"].pk: -60, p["Vroni"].pk: -550, p["Hias"].pk: -40, p["Resi"].pk: 820,
        p["Wastl"].pk: -170,
    }  # fmt: skip
    # Those with a balance start at the left edge; Wastl, new, at his first evening.
    starts = {line.player.name: line.path.split(" ")[0] for line in plot.series}
    assert starts["Sepp"] == starts["Vroni"] == "M4"
    assert starts["Wastl"] != "M4"


def test_last_year_ends_with_the_balance_at_its_end(history, bock_runde, players):
    plot = runde_stats(bock_runde, LAST_YEAR, NOW)["plot"]

    assert {line.player.name: line.final for line in plot.series} == {
        "Sepp": 180, "Resi": 20, "Hias": -20, "Vroni": -180
    }  # fmt: skip
    # From the Runde's first evening, not from January: nobody had a balance before it
    # (walk 54: the year's evenings were drawn in its last pixels).
    began = bock_runde.evenings.order_by("started_at").first().started_at
    first = timezone.localtime(began).strftime("%d.%m.%Y")
    assert plot.label.endswith(f"{first} bis 31.12.2025")
    assert all(line.path.startswith("M4 ") for line in plot.series)  # at the left edge


def test_one_evening_today_is_drawn_a_day_wide_but_dated_today(bock_runde, players, admin):
    evening = start(bock_runde, players, FOUR, NOW - timedelta(hours=2), admin)
    book(evening, sauspiel(players["Vroni"], players["Resi"]), admin)

    plot = runde_stats(bock_runde, EVERYTHING, NOW)["plot"]

    # The label, the table's column and the one date below say 15 June, not the 16th.
    assert plot.label.endswith("15.06.2026 bis 15.06.2026")
    assert timezone.localtime(plot.until).date() == NOW.date()
    assert re.findall(r'fill="#6b675e">([^<]*)</text>', str(plot.svg)) == ["15.06."]


def test_the_plot_is_labelled_for_screen_readers_and_has_axes_in_euros(history, bock_runde):
    stats = runde_stats(bock_runde, EVERYTHING, NOW)
    svg = str(stats["plot"].svg)

    assert re.match(r'<svg [^>]*role="img" aria-label="Verlauf der Kontostände von 5 Spielern', svg)
    assert "<title>Verlauf der Kontostände von 5 Spielern" in svg
    # Balances from -5,50 € to 8,30 €: round steps of 5 €, zero among them.
    labels = re.findall(r"<text x=\"\d+\" y=\"\d+\">([^<]*)</text>", svg)
    assert labels == ["-10,00 €", "-5,00 €", "0,00 €", "5,00 €", "10,00 €"]
    # From March 2025 to June 2026: the dates along the bottom are months, a year at January.
    assert re.findall(r'fill="#6b675e">([^<]*)</text>', svg)[:3] == ["Apr", "Jul", "Okt"]
    assert "2026" in svg


def test_a_name_is_escaped_in_the_plot_and_the_statistics(bock_runde, club, admin):
    sepp = Player.objects.create(club=club, name="<b>Sepp</b>")
    others = [Player.objects.create(club=club, name=n) for n in ("Vroni", "Hias", "Kathi")]
    evening = services.start_evening(bock_runde, [sepp, *others], 0, admin)
    book(evening, sauspiel(sepp, others[1]), admin)

    stats = runde_stats(bock_runde, EVERYTHING)
    html = render_to_string("clubs/_runde_stats.html", {"stats": stats})

    assert "<b>Sepp</b>" not in html
    assert "<title>&lt;b&gt;Sepp&lt;/b&gt;: 0,10 €</title>" in stats["plot"].svg
    # plot, legend, table, statistics and the link to the evening: with one evening in
    # the period, one line for it ("Ergebnis des Abends"), not a best and a worst
    assert html.count("&lt;b&gt;Sepp&lt;/b&gt;") == 5
    assert html.count("<dt>Ergebnis des Abends</dt>") == 4
    assert "Bester Abend</dt>" not in html and "Schlechtester Abend</dt>" not in html


def test_the_filter_offers_every_year_back_to_the_runde_s_first(history, bock_runde):
    later = NOW.replace(year=2028)
    offered = periods.periods(later, since=2025)
    year_2025 = next(p for p in offered if p.key == "2025")

    stats = runde_stats(bock_runde, year_2025, later)

    # As a player's history offers them (walk 33): two years back and more, each its chip.
    chips = [(one["period"].key, one["current"]) for one in stats["periods"]]
    assert chips == [
        ("dieses-jahr", False),
        ("letztes-jahr", False),
        ("2026", False),
        ("2025", True),
        ("alles", False),
    ]
    assert stats["evenings"] == 1  # evening A, of 6 March 2025


def test_from_eight_players_on_each_card_is_opened_by_a_tap(runde, club, admin):
    """Thirty players' cards took sixteen phone screens (walk 33): from eight on, the
    Runde's page shows their names, each opening its card."""
    eight = [Player.objects.create(club=club, name=f"Spieler {n}") for n in range(1, 9)]
    for table in (eight[:4], eight[4:]):
        evening = services.start_evening(runde, table, 0, admin)
        p = services.next_deal(evening).playing
        book(evening, sauspiel(p[0], p[2]), admin)

    html = render_to_string("clubs/_runde_stats.html", {"stats": runde_stats(runde, EVERYTHING)})

    assert html.count('<li class="card"><details>') == 8
    assert "<details open>" not in html
    assert '<summary><h4>Spieler 1</h4> <span class="muted">1 Spiel</span></summary>' in html


# -- the template ----------------------------------------------------------------------------


def test_the_template_shows_the_filter_the_plot_and_the_numbers(history, bock_runde):
    stats = runde_stats(bock_runde, THIS_YEAR, NOW)

    html = render_to_string("clubs/_runde_stats.html", {"stats": stats})

    current = re.findall(r'<a href="\?zeitraum=([a-z-]+)#statistik" aria-current="page">', html)
    assert current == ["dieses-jahr"]
    assert 'href="?zeitraum=letztes-jahr#statistik">letztes Jahr</a>' in html
    assert html.count('<svg class="balance-plot"') == 1
    assert "2 Abende · 7 Spiele" in html
    # Resi's best evening this year: 8,10 € on 5 February, a link to that evening, named
    # for a screen reader's list of links (fourteen dates alone would tell nothing).
    b = history[1]
    assert re.search(rf'Bester Abend</dt><dd><span class="amount">8,10 €</span> '
                     rf'<a href="/abend/{b.pk}/"><span class="visually-hidden">Resi, '
                     rf"Bester Abend: </span>05.02.2026</a>", html)  # fmt: skip
    # Bock games and Jungfrauen were played: their rows are shown.
    assert html.count("<dt>davon Bockspiele</dt>") == html.count("<h4>") == 5
    # Five cards, each open, with how many games are behind it.
    assert html.count('<li class="card"><details open>') == 5
    assert re.findall(
        r"<summary><h4>Wastl</h4> <span class=\"muted\">(.*?)</span></summary>", html
    ) == ["5 Spiele"]
    last_year = runde_stats(bock_runde, LAST_YEAR, NOW)
    assert not last_year["bock"] and not last_year["jungfrauen"]
    quiet = render_to_string("clubs/_runde_stats.html", {"stats": last_year})
    assert "Bockspiele" not in quiet and "Jungfrau" not in quiet
    # The data table beside the plot: the balance at the start and at the end, and what
    # the year came to in between (walk 33: as a player's history sums it).
    assert re.search(r'<th scope="row">Vroni</th>'
                     r'\s*<td class="amount opening negative">-1,80 €</td>'
                     r'\s*<td class="amount negative">-5,50 €</td>'
                     r'\s*<td class="amount negative">-3,70 €</td>', html)  # fmt: skip
    assert '<th scope="col">Veränderung mit Zahlungen</th>' in html
    # The page's CSP allows no inline style and no script.
    assert "style=" not in html and "<script" not in html
    # Over everything every line starts at zero: the table shows only the end.
    everything = render_to_string(
        "clubs/_runde_stats.html", {"stats": runde_stats(bock_runde, EVERYTHING, NOW)}
    )
    assert everything.count('<th scope="col">am ') == 1


# -- the cost --------------------------------------------------------------------------------


def long_history(runde, players, admin, evenings: int) -> None:
    """`evenings` evenings of four, two games each (a Sauspiel and a Ramsch with a
    Jungfrau), with their evening totals, in bulk."""
    four = [players[n] for n in FOUR]
    seating = [p.pk for p in four]
    tariff = runde.tariffs.latest()
    first = NOW - timedelta(days=7 * evenings)
    made = Evening.objects.bulk_create(
        Evening(runde=runde, tariff=tariff, started_at=first + timedelta(days=7 * i),
                started_by=admin, status=Evening.Status.CLOSED, share_token=None)
        for i in range(evenings)
    )  # fmt: skip
    Seat.objects.bulk_create(
        Seat(evening=e, player=p, position=i) for e in made for i, p in enumerate(four)
    )
    games = Game.objects.bulk_create(
        game
        for e in made
        for game in (
            Game(evening=e, number=1, key=uuid.uuid4(), dealer=four[3], seating=seating,
                 type="sauspiel", declarer=four[0], partner=four[1], won=True, created_by=admin),
            Game(evening=e, number=2, key=uuid.uuid4(), dealer=four[0], seating=seating,
                 type="ramsch", loser=four[2], jungfrauen=[four[3].pk], created_by=admin),
        )
    )  # fmt: skip
    bulk_ledger(admin, games, {"sauspiel": (10, 10, -10, -10), "ramsch": (20, 20, -60, 20)})


@pytest.mark.parametrize("period", [EVERYTHING, THIS_YEAR], ids=lambda p: p.key)
def test_the_queries_do_not_grow_with_the_history(bock_runde, players, admin, period):
    def queries(runde):
        with CaptureQueriesContext(connection) as captured:
            stats = runde_stats(runde, period, NOW)
            render_to_string("clubs/_runde_stats.html", {"stats": stats})
        return len(captured), stats

    long_history(bock_runde, players, admin, 10)
    few, small = queries(bock_runde)
    other = clubs.create_runde(bock_runde.club, "Lange Runde", admin)
    long_history(other, players, admin, 1000)
    many, big = queries(other)

    assert few == many <= 6  # one of them: the first evening's year, for the filter
    assert big["games"] > small["games"] > 0
    sepp = by_name(big)["Sepp"]
    assert sepp.played == 2 * big["evenings"] and sepp.sauspiel.won == big["evenings"]
    assert by_name(big)["Resi"].jungfrauen == big["evenings"]


def test_the_statistics_are_kept_until_the_runde_changes(runde, admin, players, settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "stats-test"}}  # fmt: skip
    everything = periods.periods()[-1]
    seated = [players[name] for name in ("Sepp", "Vroni", "Hias", "Resi")]
    evening = services.start_evening(runde, seated, 0, admin)
    p = [x.pk for x in services.next_deal(evening).playing]
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=p[0], partner=p[2]), admin)  # fmt: skip

    first = cached_runde_stats(runde, everything)
    with CaptureQueriesContext(connection) as queries:
        again = cached_runde_stats(runde, everything)
    assert len(queries) == 1  # the Runde's state, nothing else
    assert (
        again
        == first
        == render_to_string("clubs/_runde_stats.html", {"stats": runde_stats(runde, everything)})
    )
    assert played(first) == [1, 1, 1, 1]

    p = [x.pk for x in services.next_deal(evening).playing]
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=p[0], partner=p[2]), admin)  # fmt: skip
    after = cached_runde_stats(runde, everything)
    assert played(after) == [2, 2, 2, 2]  # two games, four players each


def played(html: str) -> list[int]:
    """Each player card's "Spiele gespielt"."""
    return [int(n) for n in re.findall(r"<dt>Spiele gespielt</dt><dd>(\d+)</dd>", html)]


def test_the_runde_page_shows_a_period_its_filter_does_not_offer_as_all(
    client, runde, admin, players
):
    """Walk 61: "letztes-jahr" (an old link) of a Runde begun this year counted no games
    under a filter that offers no such period; it is all of it, and the filter says so."""
    seated = [players[name] for name in ("Sepp", "Vroni", "Hias", "Resi")]
    evening = services.start_evening(runde, seated, 0, admin)
    p = [x.pk for x in services.next_deal(evening).playing]
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=p[0], partner=p[2]), admin)  # fmt: skip
    client.force_login(admin)
    url = reverse("clubs:runde", args=[runde.club_id, runde.pk])

    for key in ("letztes-jahr", "1999"):
        page = client.get(url, {"zeitraum": key}).text
        current = re.findall(r'<a href="\?zeitraum=([a-z-]+)#statistik" aria-current="page">', page)
        assert current == ["alles"], key
        assert played(page) == [1, 1, 1, 1], key


def test_best_and_worst_evening_of_one_day_say_their_time(runde, admin, players):
    """Walk 61: after "Sitzordnung ändern" two evenings of one day read alike as a
    player's best and worst evening ("07.12.2026" twice); they say their time too."""
    seated = [players[name] for name in ("Sepp", "Vroni", "Hias", "Resi")]
    started = []
    for won in (True, False):
        evening = services.start_evening(runde, seated, 0, admin)
        p = [x.pk for x in services.next_deal(evening).playing]
        services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
            "sauspiel", declarer=p[0], partner=p[2], won=won), admin)  # fmt: skip
        services.close_evening(evening.pk, admin)
        started.append(timezone.localtime(Evening.objects.get(pk=evening.pk).started_at))

    html = render_to_string(
        "clubs/_runde_stats.html", {"stats": runde_stats(runde, periods.periods()[-1])}
    )

    assert started[0].date() == started[1].date()
    said = re.findall(r"</span>(\d\d\.\d\d\.\d{4}(?:, \d\d:\d\d)?)</a>", html)
    assert sorted(set(said)) == sorted({f"{t:%d.%m.%Y, %H:%M}" for t in started})
    assert len(said) == 8  # each player's best and worst


def test_a_night_at_two_tables_is_one_evening_with_its_tables_added_up(runde, admin, players):
    """Walk 86: Wastl sat down mid-evening; the statistics said "2 Abende" for one night,
    and its two tables were a player's best and worst evening."""
    four = [players[name] for name in FOUR]
    first = services.start_evening(runde, four, 0, admin)
    p = [x.pk for x in services.next_deal(first).playing]
    won = services.GameInput("sauspiel", declarer=p[0], partner=p[2])
    services.book_game(first.pk, uuid.uuid4(), won, admin)
    second = services.continue_at_new_table(first.pk, [*four, players["Wastl"]], 1, admin)
    q = [x.pk for x in services.next_deal(second).playing]
    lost = services.GameInput("sauspiel", declarer=q[0], partner=q[2], won=False)
    services.book_game(second.pk, uuid.uuid4(), lost, admin)

    stats = runde_stats(runde, periods.periods()[-1])

    assert (stats["evenings"], stats["split_nights"]) == (1, 1)
    night = {s.player.pk: s for s in stats["players"]}
    for pk in [player.pk for player in four] + [players["Wastl"].pk]:
        one = night[pk]
        # Each player's games of both tables, as one evening, linked to the first table
        # they played at (Wastl's: the second, walk 88).
        games = services.standing(first).get(pk, 0) + services.standing(second).get(pk, 0)
        assert one.evenings == 1
        assert one.best == one.worst
        at = second.pk if pk == players["Wastl"].pk else first.pk
        assert (one.best.evening_id, one.best.amount) == (at, games)
    assert {one.best.amount for one in night.values()} != {0}  # the tables did not cancel out
    html = render_to_string("clubs/_runde_stats.html", {"stats": stats})
    assert "1 Abend (einer an mehreren Tischen: jemand kam dazu oder ging) · 2 Spiele" in html
