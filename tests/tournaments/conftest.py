"""The tournament tests' cast on top of tests/conftest.py: the clubs cast's player and
outsider, eleven players of the club, and a tournament with the seed's settings."""

import pytest

from clubs.models import Player
from tests.clubs.conftest import other_admin, player_user  # noqa: F401 (fixtures)
from tournaments import services
from tournaments.models import Tournament

NAMES = ["Sepp", "Vroni", "Hias", "Wastl", "Kathi", "Loisl", "Zenzi", "Xaver", "Girgl", "Burgi"]


@pytest.fixture
def players(club) -> list[Player]:
    """Resi (the admin's player) and ten more of the club, in this order."""
    resi = club.players.get()
    return [resi, *(Player.objects.create(club=club, name=name) for name in NAMES)]


@pytest.fixture
def tournament(club, admin) -> Tournament:
    """Three rounds of forty games, nobody taking part yet; Resi directs."""
    return services.create_tournament(club, admin, name="Stadtmeisterschaft", venue="Hof")
