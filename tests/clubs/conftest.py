"""The clubs cast on top of tests/conftest.py: Vroni plays in the club, and Sepp is the
admin of another club (an outsider to this one)."""

import pytest
from django.contrib.auth import get_user_model

from clubs import services
from clubs.models import Membership
from evenings.models import Change, LedgerEntry

PASSWORD = "Geheim-123-Schafkopf"


def make_user(username: str, first_name: str):
    return get_user_model().objects.create_user(
        username=username, password=PASSWORD, first_name=first_name
    )


def bulk_ledger(by, games, amounts) -> None:
    """Long histories in bulk: for each game a booking change and its ledger entries,
    `amounts` per player in seat order; the database keeps the evening totals."""
    changes = Change.objects.bulk_create(
        Change(evening_id=g.evening_id, game=g, kind=Change.Kind.BOOK, by=by) for g in games
    )
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            evening_id=g.evening_id,
            game=g,
            change=change,
            player_id=player,
            kind=LedgerEntry.Kind.GAME,
            amount=amount,
        )
        for g, change in zip(games, changes, strict=True)
        for player, amount in zip(g.seating, amounts[g.type], strict=True)
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
