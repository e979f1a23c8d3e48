from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from clubs.models import Invitation, Membership, Player, Tariff
from scoring import BockMode, TariffRules


def test_a_tariff_hands_the_engine_its_rules_in_cents(runde):
    tariff = runde.tariff
    tariff.sauspiel, tariff.bock, tariff.jungfrau, tariff.laufende_min_wenz = 20, "ramsch", True, 2

    assert tariff.rules == TariffRules(
        sauspiel=20, bock=BockMode.RAMSCH, jungfrau=True, laufende_min_wenz=2
    )
    assert tariff.plays_bock


def test_the_tariff_valid_at_a_moment_is_the_newest_made_before_it(runde, admin):
    first = runde.tariff
    later = Tariff.objects.create(
        runde=runde, sauspiel=20, valid_from=first.valid_from + timedelta(days=7)
    )

    tariffs = Tariff.objects.filter(runde=runde)
    assert tariffs.valid_at(first.valid_from + timedelta(days=1)) == first
    assert tariffs.valid_at(later.valid_from) == later
    assert runde.tariffs.latest() == later


def test_the_database_refuses_an_impossible_laufende_range(runde):
    tariff = runde.tariff
    tariff.pk, tariff.laufende_min, tariff.laufende_max = None, 5, 4

    with pytest.raises(IntegrityError), transaction.atomic():
        tariff.save()


@pytest.mark.parametrize(
    ("role", "is_admin", "can_score"),
    [("admin", True, True), ("schreiber", False, True), ("spieler", False, False)],
)
def test_roles_say_what_a_member_may_do(role, is_admin, can_score):
    membership = Membership(role=role)

    assert (membership.is_admin, membership.can_score) == (is_admin, can_score)


def test_one_membership_per_user_and_club(club, admin):
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.create(club=club, user=admin, role="spieler")


def test_player_names_are_unique_in_a_club_regardless_of_case(club):
    Player.objects.create(club=club, name="Wastl")

    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(club=club, name="WASTL")


def test_an_invitation_is_usable_until_it_expires_or_is_revoked(club, admin):
    invitation = Invitation.objects.create(club=club, role="spieler", created_by=admin)
    assert invitation.is_usable
    assert invitation.expires_at > timezone.now() + timedelta(days=13)

    invitation.expires_at = timezone.now() - timedelta(seconds=1)
    assert not invitation.is_usable
    invitation.expires_at, invitation.revoked_at = (
        timezone.now() + timedelta(days=1),
        timezone.now(),
    )
    assert not invitation.is_usable
