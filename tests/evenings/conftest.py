import pytest
from django.contrib.auth import get_user_model

from clubs import services as club_services
from clubs.models import Membership, Player
from evenings import services

NAMES = ["Sepp", "Vroni", "Hias", "Resi", "Wastl", "Kathi"]


@pytest.fixture
def admin(db):
    return get_user_model().objects.create_user(
        username="resi", password="Geheim-123-Schafkopf", first_name="Resi"
    )


@pytest.fixture
def club(admin):
    return club_services.create_club(admin, "Schafkopffreunde Au")


@pytest.fixture
def runde(club, admin):
    return club_services.create_runde(club, "Donnerstagsrunde", admin)


@pytest.fixture
def scorekeeper(club):
    user = get_user_model().objects.create_user(
        username="hias", password="Geheim-123-Schafkopf", first_name="Hias"
    )
    Membership.objects.create(user=user, club=club, role=Membership.Role.SCOREKEEPER)
    return user


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
