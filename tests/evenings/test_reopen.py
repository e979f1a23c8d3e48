"""An evening opened again after its Runde began another takes corrections only: tonight's
games cannot land in last week's evening (walk 32)."""

import uuid
from html import unescape

import pytest
from django.urls import reverse
from django.utils import timezone

from evenings import services
from evenings.models import Change, Evening, Game
from evenings.services import EveningError, GameInput
from tests.conftest import page_text


def sauspiel(declarer, partner, won=True):
    return GameInput(type="sauspiel", declarer=declarer.pk, partner=partner.pk, won=won)


def book(evening, data, by):
    game, created = services.book_game(evening.pk, uuid.uuid4(), data, by)
    assert created
    return game


def test_last_weeks_evening_opened_again_takes_corrections_but_no_new_game(
    client, admin, club, runde, players, evening
):
    sepp, vroni, hias, resi = players[:4]
    first = book(evening, sauspiel(vroni, resi), admin)
    services.close_evening(evening.pk, admin)
    between = services.start_evening(runde, players[:4], 0, admin)
    book(between, sauspiel(vroni, resi), admin)
    services.close_evening(between.pk, admin)
    tonight = services.start_evening(runde, players[:4], 0, admin)
    book(tonight, sauspiel(vroni, resi), admin)
    client.force_login(admin)
    tonight_link = reverse("evenings:detail", args=[tonight.pk])
    when = timezone.localtime(tonight.started_at)

    asked = unescape(page_text(client.get(reverse("evenings:detail", args=[evening.pk]))))
    reopened = unescape(
        page_text(client.post(reverse("evenings:reopen", args=[evening.pk]), follow=True))
    )

    # Said before, naming tonight's evening (not the one between: walk 34), and after,
    # once, with the way there.
    assert (
        "Neue Spiele nimmt er keine: die Runde spielt seit dem Abend vom "
        f"{when:%d.%m.%Y, %H:%M} weiter" in asked
    )
    assert "Der Abend ist wieder offen, zum Korrigieren." in reopened
    assert reopened.count("neue Spiele gehören dorthin") == 1
    assert f'href="{tonight_link}">Zum neueren Abend ({when:%d.%m., %H:%M})</a>' in reopened
    assert 'id="entry-form"' not in reopened
    evening.refresh_from_db()
    assert evening.is_open and evening.corrections_only
    assert evening.changes.get(kind=Change.Kind.REOPEN).after == {"corrections_only": True}

    # No new game, from any form, said why; a correction is taken; the seats stay.
    with pytest.raises(EveningError, match="neue Spiele gehören dorthin"):
        book(evening, sauspiel(vroni, resi), admin)
    answer = client.post(
        reverse("evenings:book", args=[evening.pk]),
        {"key": uuid.uuid4(), "deal": "x", "spiel": "sauspiel", "won": "1",
         "declarer": vroni.pk, "partner": resi.pk},
        headers={"HX-Request": "true"},
    )  # fmt: skip
    assert answer["HX-Refresh"] == "true"  # the page again, saying why
    again = unescape(client.get(reverse("evenings:detail", args=[evening.pk])).text)
    assert "nur zum Korrigieren wieder offen: die Runde spielt inzwischen an einem neueren " in (
        again
    )
    assert evening.games.count() == 1
    seats = client.get(reverse("evenings:seats", args=[evening.pk]), follow=True)
    assert "die Sitzordnung lässt sich hier nicht ändern" in unescape(seats.text)
    services.correct_game(evening.pk, first.pk, sauspiel(vroni, resi, won=False), admin)
    assert evening.games.count() == 1 and Game.objects.get(pk=first.pk).won is False

    # Only tonight's evening is running: on the start page, the start form and the
    # Runde's page; the players' last evenings say what it is open for (walk 34).
    assert list(Evening.objects.playing()) == [tonight]
    start = client.get(reverse("start")).text
    running = start.partition("<h2>Läuft gerade</h2>")[2].partition("<h2")[0]
    assert tonight_link in running
    assert reverse("evenings:detail", args=[evening.pk]) not in running
    assert '<span class="pill">zum Korrigieren offen</span>' in start
    assert start.count('<span class="pill">läuft</span>') == 1
    form = client.get(reverse("evenings:start", args=[club.pk, runde.pk])).text
    assert tonight_link in form and reverse("evenings:detail", args=[evening.pk]) not in form
    assert (
        "zum Korrigieren offen" in client.get(reverse("clubs:runde", args=[club.pk, runde.pk])).text
    )


def test_two_tables_of_one_night_each_take_games_after_a_close_by_mistake(
    admin, runde, players, evening
):
    other_table = services.start_evening(runde, players[2:6], 0, admin)
    services.close_evening(evening.pk, admin)

    services.reopen_evening(evening.pk, admin)

    evening.refresh_from_db()
    assert not evening.corrections_only
    book(evening, sauspiel(players[1], players[3]), admin)
    assert set(Evening.objects.playing()) == {evening, other_table}


def test_an_evening_opened_again_once_more_is_judged_anew(admin, runde, players, evening):
    services.close_evening(evening.pk, admin)
    later = services.start_evening(runde, players[:4], 0, admin)
    services.reopen_evening(evening.pk, admin)
    services.close_evening(evening.pk, admin)
    services.close_evening(later.pk, admin)
    # Began before the evening's latest closing: the Runde played here last.
    Evening.objects.filter(pk=later.pk).update(started_at=evening.started_at)

    services.reopen_evening(evening.pk, admin)

    evening.refresh_from_db()
    assert not evening.corrections_only
    assert [c.after for c in evening.changes.filter(kind=Change.Kind.REOPEN)] == [
        {"corrections_only": True},
        None,
    ]


def test_an_evening_opened_for_corrections_takes_none_the_second_time_either(
    client, admin, runde, players, evening
):
    """Walk 54: opened again, closed, and opened again, last week's evening took games
    once more (its latest closing was later than the newer evening's start), and two
    evenings of the same players were running."""
    book(evening, sauspiel(players[1], players[3]), admin)
    services.close_evening(evening.pk, admin)
    later = services.start_evening(runde, players[:4], 0, admin)
    book(later, sauspiel(players[1], players[3]), admin)
    services.reopen_evening(evening.pk, admin)
    services.close_evening(evening.pk, admin)

    services.reopen_evening(evening.pk, admin)

    evening.refresh_from_db()
    assert evening.corrections_only
    assert services.newer_evening(evening) == later
    assert list(Evening.objects.playing()) == [later]
    with pytest.raises(EveningError):
        book(evening, sauspiel(players[1], players[3]), admin)
    client.force_login(admin)
    assert 'id="entry-form"' not in client.get(reverse("evenings:detail", args=[evening.pk])).text
    # The newer one closed too: new games go to a new evening, not "dorthin" (walk 55).
    services.close_evening(later.pk, admin)
    page = page_text(client.get(reverse("evenings:detail", args=[evening.pk])))
    assert "die Runde spielte danach an einem neueren Abend weiter, neue Spiele gehören an " in page
    assert "dorthin" not in page


def test_the_history_says_an_evening_was_opened_for_corrections_only(
    client, admin, runde, players, evening
):
    """Walk 54: the history said "Abend wieder geöffnet" either way."""
    book(evening, sauspiel(players[1], players[3]), admin)
    services.close_evening(evening.pk, admin)
    services.start_evening(runde, players[:4], 0, admin)
    services.reopen_evening(evening.pk, admin)
    client.force_login(admin)

    history = page_text(client.get(reverse("evenings:history", args=[evening.pk])))

    assert "nur zum Korrigieren: die Runde spielte schon an einem neueren Abend" in history
