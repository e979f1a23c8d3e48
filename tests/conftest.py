import pytest
from django.contrib.auth import get_user_model


@pytest.fixture
def password() -> str:
    return "Sauspiel-mit-der-Alten-42"


@pytest.fixture
def user(db, password):
    return get_user_model().objects.create_user(
        username="sepp", password=password, first_name="Sepp", email="sepp@example.org"
    )
