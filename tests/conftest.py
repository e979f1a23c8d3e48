"""The fixed cast shared by every test module: a club ("Schafkopffreunde Au") whose admin
is Resi, with the Runde "Donnerstagsrunde" and Hias as its Schreiber; Sepp is a user of
no club. Modules add the people and evenings they need."""

import pytest
from django.contrib.auth import get_user_model

from clubs import services
from clubs.models import Membership

PASSWORD = "Geheim-123-Schafkopf"


@pytest.fixture(autouse=True)
def empty_cache():
    """Nothing one test computed and cached (the Runde statistics) is seen by the next."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    """Hashing a password the production way costs ~0.3 s; tests make many users."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_user(username: str, first_name: str, password: str = PASSWORD):
    return get_user_model().objects.create_user(
        username=username, password=password, first_name=first_name
    )


@pytest.fixture
def password() -> str:
    return "Sauspiel-mit-der-Alten-42"


@pytest.fixture
def user(db, password):
    """Sepp, who has an account but no club."""
    return get_user_model().objects.create_user(
        username="sepp", password=password, first_name="Sepp", email="sepp@example.org"
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


@pytest.fixture
def scorekeeper(club):
    user = make_user("hias", "Hias")
    Membership.objects.create(user=user, club=club, role=Membership.Role.SCOREKEEPER)
    return user
