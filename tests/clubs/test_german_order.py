"""Names in German alphabetical order: "Ägidius" beside "Agnes", "Ödön" before "Zenzi",
"anna" among the A's (the database's own collation C put all three after "Z")."""

import pytest
from django.urls import reverse

from clubs.forms import InvitationForm
from clubs.models import Membership, Player, german_key
from tests.conftest import make_user

GERMAN = ["Ägidius", "Agnes", "anna", "Ödön", "Resi", "Straße", "Strasser", "Zenzi"]


@pytest.fixture
def names(club):
    """Resi (the admin's player) and seven more, made in an order that is no order."""
    for name in ("Zenzi", "Ödön", "Strasser", "anna", "Straße", "Ägidius", "Agnes"):
        Player.objects.create(club=club, name=name)


def test_the_key_sorts_umlauts_with_their_letter_and_ignores_case():
    shuffled = ["Zenzi", "Strasser", "Ödön", "Resi", "anna", "Straße", "Agnes", "Ägidius"]

    assert sorted(shuffled, key=german_key) == GERMAN


def test_the_players_page_lists_the_players_in_german_order(client, admin, club, names):
    client.force_login(admin)

    response = client.get(reverse("clubs:players", args=[club.pk]))

    assert [player.name for player in response.context["players"]] == GERMAN
    main = response.text.split('<main id="main">')[1]
    shown = [main.index(f">{name}<") for name in GERMAN]
    assert shown == sorted(shown)


def test_joining_offers_the_players_in_german_order(client, admin, club, names, user):
    invitation = club.invitations.create(role="spieler", created_by=admin)
    client.force_login(user)

    response = client.get(reverse("clubs:join", args=[invitation.token]))

    offered = [label for _, label in response.context["form"].fields["who"].choices]
    assert offered == [name for name in GERMAN if name != "Resi"] + ["neu im Verein"]


def test_the_invitation_form_offers_the_players_in_german_order(club, names):
    choices = [
        label for value, label in InvitationForm(club=club).fields["player"].choices if value
    ]

    assert choices == [name for name in GERMAN if name != "Resi"]


def test_abend_beginnen_offers_the_seats_in_german_order(client, admin, club, runde, names):
    client.force_login(admin)

    response = client.get(reverse("evenings:start", args=[club.pk, runde.pk]))

    assert [name for pk, name in response.context["form"].fields["seat0"].choices if pk] == GERMAN


def test_the_members_page_lists_the_members_in_german_order(client, admin, club):
    for username, first_name in (("z", "Zenzi"), ("oe", "Ödön"), ("ae", "Ägidius")):
        Membership.objects.create(user=make_user(username, first_name), club=club, role="spieler")
    client.force_login(admin)

    response = client.get(reverse("clubs:members", args=[club.pk]))

    members = [m.user.first_name for m in response.context["members"]]
    assert members == ["Ägidius", "Ödön", "Resi", "Zenzi"]
