"""The clubs cast on top of tests/conftest.py: Vroni plays in the club, and Sepp is the
admin of another club (an outsider to this one)."""

import pytest
from django.contrib.auth import get_user_model

from clubs import services
from clubs.models import Membership

PASSWORD = "Geheim-123-Schafkopf"


def make_user(username: str, first_name: str):
    return get_user_model().objects.create_user(
        username=username, password=PASSWORD, first_name=first_name
    )


@pytest.fixture
def player_user(club):
    user = make_user("vroni", "Vroni")
    Membership.objects.create(user=user, club=club, role=Membership.Role.PLAYER)
    return user


@pytest.fixture
def other_admin(db):
    """Admin of another club: an outsider to `club`."""
    user = make_user("sepp", "Sepp")
    services.create_club(user, "Kartler Giesing")
    return user
