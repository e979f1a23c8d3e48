from datetime import datetime
from zoneinfo import ZoneInfo

from django.test import RequestFactory

from clubs import periods

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
