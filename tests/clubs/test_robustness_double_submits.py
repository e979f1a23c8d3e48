"""A double tap: the same player, Runde or sign-up sent twice at the same moment.

Both requests pass the form's check that the name is free before either has saved; the
database's unique constraint then lets one in, and the other answers with the form's
error at the field, never a 500. To make that moment certain rather than likely, each
request waits at a barrier between its validation and its save. Real commits are needed
(`transaction=True`): each request runs in its own thread with its own connection.
"""

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError
from django.test import Client
from django.urls import reverse

from clubs import services
from clubs.account_forms import SignupForm
from clubs.forms import PlayerEditForm, PlayerForm, save_unless_taken
from clubs.models import Player, Runde
from tests.evenings.test_concurrency import errors, run_at_once

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "Herz-Solo-mit-Schneider-77"


def meeting_before(monkeypatch, owner, name: str, count: int = 2) -> None:
    """Make `count` requests wait for each other right before `owner.name` saves."""
    barrier = threading.Barrier(count, timeout=20)
    original = getattr(owner, name)

    def save_together(*args, **kwargs):
        barrier.wait()
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, save_together)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def twice_at_once(clients: list[Client], url: str, data: dict) -> list:
    answers, raised = run_at_once(len(clients), lambda i: clients[i].post(url, data))
    assert errors(raised) == []
    return answers


def test_the_same_new_player_twice_at_once_is_one_player_and_one_form_error(
    admin, club, monkeypatch
):
    meeting_before(monkeypatch, PlayerForm, "save")
    url = reverse("clubs:players", args=[club.pk])

    answers = twice_at_once([logged_in(admin), logged_in(admin)], url, {"name": "Wastl"})

    assert sorted(answer.status_code for answer in answers) == [200, 302]
    (refused,) = [answer for answer in answers if answer.status_code == 200]
    assert refused.context["form"].errors["name"] == [
        "Einen Spieler mit diesem Namen gibt es im Verein schon."
    ]
    assert club.players.filter(name="Wastl").count() == 1


def test_the_same_new_runde_twice_at_once_is_one_runde_and_one_form_error(admin, club, monkeypatch):
    meeting_before(monkeypatch, services, "create_runde")
    url = reverse("clubs:runde_create", args=[club.pk])

    answers = twice_at_once([logged_in(admin), logged_in(admin)], url, {"name": "Freitagsrunde"})

    assert sorted(answer.status_code for answer in answers) == [200, 302]
    (refused,) = [answer for answer in answers if answer.status_code == 200]
    assert refused.context["form"].errors["name"] == ["Diese Runde gibt es im Verein schon."]
    runde = Runde.objects.get(club=club, name="Freitagsrunde")
    assert runde.tariffs.count() == 1  # the refused one left no tariff behind either


def test_the_same_new_club_twice_at_once_is_one_club_and_one_form_error(admin, monkeypatch):
    """Walk 62: founding twice made two clubs of one name. The founder's row is locked:
    the second request sees the first's club."""
    meeting_before(monkeypatch, services, "create_club")
    url = reverse("clubs:create")

    answers = twice_at_once([logged_in(admin), logged_in(admin)], url, {"name": "Gmoa"})

    assert sorted(answer.status_code for answer in answers) == [200, 302]
    (refused,) = [answer for answer in answers if answer.status_code == 200]
    assert refused.context["form"].errors["name"] == [
        "Du bist schon in einem Verein namens „Gmoa“. Bitte einen anderen Namen wählen, "
        "damit sich die beiden auseinanderhalten lassen."
    ]
    assert admin.memberships.filter(club__name="Gmoa").count() == 1


def test_the_same_signup_twice_at_once_is_one_account_and_one_form_error(db, monkeypatch):
    meeting_before(monkeypatch, SignupForm, "save")
    data = {
        "username": "vroni",
        "first_name": "Vroni",
        "email": "vroni@example.org",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }

    answers = twice_at_once([Client(), Client()], reverse("signup"), data)

    assert sorted(answer.status_code for answer in answers) == [200, 302]
    (refused,) = [answer for answer in answers if answer.status_code == 200]
    assert refused.context["form"].errors["username"] == [
        "Dieser Benutzername ist bereits vergeben."
    ]
    assert get_user_model().objects.filter(username="vroni").count() == 1


def test_two_signups_differing_only_in_case_at_once_are_one_account(db, monkeypatch):
    meeting_before(monkeypatch, SignupForm, "save")
    data = {"first_name": "Vroni", "email": "vroni@example.org", "password1": PASSWORD,
            "password2": PASSWORD}  # fmt: skip
    names = ["Vroni", "vroni"]
    clients = [Client(), Client()]

    answers, raised = run_at_once(
        2, lambda i: clients[i].post(reverse("signup"), data | {"username": names[i]})
    )

    assert errors(raised) == []
    assert sorted(answer.status_code for answer in answers) == [200, 302]
    assert get_user_model().objects.filter(username__iexact="vroni").count() == 1


def test_renaming_two_players_to_the_same_name_at_once_keeps_the_names_apart(
    admin, club, monkeypatch
):
    sepp = Player.objects.create(club=club, name="Sepp")
    vroni = Player.objects.create(club=club, name="Vroni")
    meeting_before(monkeypatch, PlayerEditForm, "save")
    clients = [logged_in(admin), logged_in(admin)]
    urls = [reverse("clubs:player", args=[club.pk, p.pk]) for p in (sepp, vroni)]

    answers, raised = run_at_once(
        2, lambda i: clients[i].post(urls[i], {"name": "Wastl", "active": "on"})
    )

    assert errors(raised) == []
    assert sorted(answer.status_code for answer in answers) == [200, 302]
    assert club.players.filter(name="Wastl").count() == 1


def test_an_integrity_error_on_another_constraint_is_not_taken_for_a_duplicate(club):
    form = PlayerForm({"name": "Resi"}, club=club)

    with pytest.raises(IntegrityError):
        save_unless_taken(
            form,
            lambda: Player.objects.create(club=club, name="Resi"),  # the admin's player
            "runde_name_unique_in_club",
            "name",
            "egal",
        )
