import pytest

from clubs.models import Player
from evenings import services

NAMES = ["Sepp", "Vroni", "Hias", "Resi", "Wastl", "Kathi"]


@pytest.fixture
def players(club):
    """Six players: Sepp, Vroni, Hias, Resi, Wastl, Kathi (Resi is the admin's player)."""
    existing = {p.name: p for p in club.players.all()}
    return [existing.get(name) or Player.objects.create(club=club, name=name) for name in NAMES]


@pytest.fixture
def set_tariff():
    """Give a Runde a new tariff version with some values changed."""
    return _set_tariff


def _set_tariff(runde, **values):
    tariff = runde.tariffs.latest()
    for name, value in values.items():
        setattr(tariff, name, value)
    tariff.pk = None
    tariff.save()
    return tariff


@pytest.fixture
def evening(runde, players, admin):
    """Four players, Sepp deals first: Vroni, Hias, Resi, Sepp play the first game."""
    return services.start_evening(runde, players[:4], 0, admin)


@pytest.fixture
def tariff_with_bock(runde):
    return _set_tariff(runde, bock="ramsch", jungfrau=True)
