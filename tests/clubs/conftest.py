"""The fixed cast: a club with an admin, a scorekeeper and a player, plus an outsider who
is admin of another club."""

import pytest
from django.contrib.auth import get_user_model

from clubs import services
from clubs.models import Membership


def make_user(username: str, first_name: str):
    return get_user_model().objects.create_user(
        username=username, password="Geheim-123-Schafkopf", first_name=first_name
    )


@pytest.fixture
def admin(db):
    return make_user("resi", "Resi")


@pytest.fixture
def club(admin):
    return services.create_club(admin, "Schafkopffreunde Au")


@pytest.fixture
def runde(club, admin):
    return services.create_runde(club, "Donnerstagsrunde", admin)


def _member(club, username, first_name, role):
    user = make_user(username, first_name)
    Membership.objects.create(user=user, club=club, role=role)
    return user


@pytest.fixture
def scorekeeper(club):
    return _member(club, "hias", "Hias", Membership.Role.SCOREKEEPER)


@pytest.fixture
def player_user(club):
    return _member(club, "vroni", "Vroni", Membership.Role.PLAYER)


@pytest.fixture
def other_admin(db):
    """Admin of another club: an outsider to `club`."""
    user = make_user("sepp", "Sepp")
    services.create_club(user, "Kartler Giesing")
    return user
