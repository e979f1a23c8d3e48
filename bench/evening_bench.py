"""What a booking costs end to end: HTTP request, evening lock, engine rescoring, ledger
entries and the database's zero-sum check at commit, then the answer the phone shows.

    make bench        (or: python -m config.localdb --throwaway -- python bench/evening_bench.py)

A plain script, not a test. It books 60 games into one evening through the real views
(Django's test client: the full middleware stack, no network), then measures booking the
61st, correcting game 1 of 61 (every later game is rescored, the Bock chain shifts) and
the sheet poll with and without a change, each as the median of repeated runs.
"""

import os
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "benchmark-only")
os.environ.setdefault("STATIC_MANIFEST", "0")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402

from clubs import services as clubs  # noqa: E402
from clubs.models import Player  # noqa: E402
from evenings import services  # noqa: E402
from evenings.models import Game  # noqa: E402

GAMES = 60
RUNS = 30
HTMX = {"HX-Request": "true"}


def entry(evening, number: int) -> dict[str, str]:
    """The form data of a plain table mix; every seventh game is a Ramsch (Bock)."""
    deal = services.next_deal(evening)
    playing = deal.playing
    data = {
        "key": str(uuid.uuid4()),
        "deal": deal.token,
        "won": "1",
        "kontra": "0",
        "doubled": "0",
        "laufende": "0",
    }
    if number % 7 == 0:
        return data | {"spiel": "ramsch", "loser": str(playing[number % 4].pk)}
    if number % 5 == 0:
        return data | {"spiel": "farbsolo:herz", "declarer": str(playing[1].pk), "won": "0"}
    return data | {
        "spiel": "sauspiel",
        "declarer": str(playing[0].pk),
        "partner": str(playing[2].pk),
        "laufende": str(3 if number % 3 == 0 else 0),
    }


def median_ms(action, runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    setup_test_environment()
    settings.ALLOWED_HOSTS = ["testserver"]
    old_name = connection.creation.create_test_db(verbosity=0)
    try:
        admin = get_user_model().objects.create_user("resi", password="x", first_name="Resi")
        club = clubs.create_club(admin, "Bench")
        runde = clubs.create_runde(club, "Runde", admin)
        tariff = runde.tariffs.latest()
        tariff.pk, tariff.bock, tariff.jungfrau = None, "ramsch", True
        tariff.save()
        seated = [club.players.get()] + [
            Player.objects.create(club=club, name=n) for n in ("Sepp", "Vroni", "Hias", "Wastl")
        ]
        evening = services.start_evening(runde, seated, 0, admin)
        client = Client()
        client.force_login(admin)
        book = reverse("evenings:book", args=[evening.pk])

        for number in range(1, GAMES + 1):
            assert client.post(book, entry(evening, number), headers=HTMX).status_code == 200

        def book_one_and_undo():
            response = client.post(book, entry(evening, GAMES + 1), headers=HTMX)
            assert response.status_code == 200
            services.undo_last(evening.pk, admin)

        first = Game.objects.get(evening=evening, number=1)
        edit = reverse("evenings:game", args=[evening.pk, first.pk])
        sauspiel = entry(evening, 1) | {"key": str(first.key)}
        sauspiel |= {"declarer": str(first.seating[0]), "partner": str(first.seating[2])}
        ramsch = sauspiel | {"spiel": "ramsch", "loser": str(first.seating[1])}
        flip = iter(range(10**6))

        def correct_first():
            data = ramsch if next(flip) % 2 == 0 else sauspiel
            assert client.post(edit, data).status_code == 302

        sheet = reverse("evenings:sheet", args=[evening.pk])

        def poll_unchanged():
            evening.refresh_from_db()
            assert client.get(sheet, {"v": evening.version}).status_code == 204

        def poll_changed():
            assert client.get(sheet, {"v": -1}).status_code == 200

        rows = [
            ("book game 61 (answer: entry form and sheet)", median_ms(book_one_and_undo)),
            ("correct game 1 of 60, rescoring the rest", median_ms(correct_first)),
            ("sheet poll, nothing changed (204)", median_ms(poll_unchanged, 200)),
            ("sheet poll after a change (60 rows)", median_ms(poll_changed)),
        ]
        booked = evening.games.booked().count()
        print(f"Python {sys.version.split()[0]}; one evening of {booked} games, 5 players,")
        print("Bock and Jungfrau on; median milliseconds, including the undo after each booking")
        width = max(len(name) for name, _ in rows)
        for name, ms in rows:
            print(f"{name:<{width}}  {ms:8.1f} ms")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
