"""A NUL byte, which PostgreSQL refuses in text, never reaches a query: in a link's token it
is a 404, in a form field the form's German error. Nothing is saved either way."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from clubs.models import Club, Player, Runde

NUL_REFUSED = "Nullzeichen sind nicht erlaubt."


@pytest.mark.parametrize(
    "path", ["/live/%00/", "/live/%00/blatt/", "/einladung/a%00b/", "/einladung/%00/"]
)
def test_a_token_with_a_nul_byte_is_not_found(client, admin, path):
    assert client.get(path).status_code == 404
    assert client.post(path).status_code == 404
    client.force_login(admin)
    assert client.get(path).status_code == 404


def counts() -> tuple[int, ...]:
    return (
        Club.objects.count(),
        Runde.objects.count(),
        Player.objects.count(),
        get_user_model().objects.count(),
    )


@pytest.mark.parametrize(
    ("name", "data", "field"),
    [
        ("clubs:create", {"name": "Kartler\x00"}, "name"),
        ("clubs:runde_create", {"name": "Freitags\x00runde"}, "name"),
        ("clubs:players", {"name": "\x00", "active": "on"}, "name"),
        ("profile", {"first_name": "Re\x00si", "email": "resi@example.org"}, "first_name"),
    ],
)
def test_a_nul_byte_in_a_name_is_the_forms_german_error(client, admin, club, name, data, field):
    client.force_login(admin)
    args = [] if name in {"clubs:create", "profile"} else [club.pk]
    before = counts()

    response = client.post(reverse(name, args=args), data)

    assert response.status_code == 200
    assert NUL_REFUSED in response.context["form"].errors[field]
    assert counts() == before
    admin.refresh_from_db()
    assert admin.first_name == "Resi"


@pytest.mark.parametrize(
    ("name", "data", "field"),
    [
        (
            "signup",
            {
                "username": "vro\x00ni",
                "first_name": "Vroni",
                "email": "vroni@example.org",
                "password1": "Herz-Solo-mit-Schneider-77",
                "password2": "Herz-Solo-mit-Schneider-77",
            },
            "username",
        ),
        ("login", {"username": "resi\x00", "password": "falsch"}, "username"),
        ("login", {"username": "resi", "password": "fal\x00sch"}, "password"),
        ("password_reset", {"email": "resi\x00@example.org"}, "email"),
    ],
)
def test_a_nul_byte_in_an_account_form_is_the_forms_german_error(client, admin, name, data, field):
    before = counts()

    response = client.post(reverse(name), data)

    assert response.status_code == 200
    assert NUL_REFUSED in response.context["form"].errors[field]
    assert counts() == before
