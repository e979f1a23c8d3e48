from datetime import datetime
from zoneinfo import ZoneInfo

from django.test import RequestFactory

from clubs import periods
from clubs.stats import runde_stats

BERLIN = ZoneInfo("Europe/Berlin")
NOW = datetime(2026, 11, 30, 22, 0, tzinfo=BERLIN)


def test_this_year_and_last_year_begin_at_midnight_in_berlin_on_new_years_day():
    this, last, everything = periods.periods(NOW)
    assert (this.start, this.end) == (datetime(2026, 1, 1, tzinfo=BERLIN), None)
    assert (last.start, last.end) == (
        datetime(2025, 1, 1, tzinfo=BERLIN),
        datetime(2026, 1, 1, tzinfo=BERLIN),
    )
    assert (everything.start, everything.end) == (None, None)


def test_the_query_string_chooses_a_period_and_anything_else_means_all():
    rf = RequestFactory()
    assert periods.chosen(rf.get("/", {"zeitraum": "letztes-jahr"}), NOW).key == "letztes-jahr"
    assert periods.chosen(rf.get("/", {"zeitraum": "1999\x00"}), NOW).key == "alles"
    assert periods.chosen(rf.get("/"), NOW).label == "alles"


def test_a_year_before_last_is_a_period_of_its_own():
    rf = RequestFactory()

    chosen = periods.chosen(rf.get("/", {"zeitraum": "2019"}), NOW)
    offered = periods.periods(NOW, since=2022)

    assert (chosen.key, chosen.label) == ("2019", "2019")
    assert (chosen.start, chosen.end) == (
        datetime(2019, 1, 1, tzinfo=BERLIN),
        datetime(2020, 1, 1, tzinfo=BERLIN),
    )
    assert [p.key for p in offered] == [
        "dieses-jahr",
        "letztes-jahr",
        "2024",
        "2023",
        "2022",
        "alles",
    ]
    # This year and last have their own names; a year to come or long gone is all of it.
    for key in ("2026", "2025", "2027", "1899", "20199"):
        assert periods.chosen(rf.get("/", {"zeitraum": key}), NOW).key == "alles", key


def test_a_history_that_began_this_year_is_offered_no_last_year():
    # A Runde founded in November offered "letztes Jahr", which only said "keine Spiele"
    # (walk 34); one that began last year is offered it.
    assert [p.key for p in periods.periods(NOW, since=2026)] == ["dieses-jahr", "alles"]
    assert [p.key for p in periods.periods(NOW, since=2025)] == [
        "dieses-jahr",
        "letztes-jahr",
        "alles",
    ]


def test_a_runde_without_games_is_offered_no_last_year(runde):
    # Walk 54: a new Runde's statistics offered "letztes Jahr", which only said "keine
    # Spiele", as a Runde that began this year no longer does.
    stats = runde_stats(runde, periods.periods(NOW)[-1], NOW)

    assert [choice["period"].key for choice in stats["periods"]] == ["dieses-jahr", "alles"]
