"""Writes that span several club models, each in one transaction."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, Invitation, Membership, Player, Runde, Tariff


class ClubError(Exception):
    """A request the club's state does not allow; the message is German, for the page."""


def display_name(user) -> str:
    return user.get_short_name() or user.get_username()


def _player_for(club: Club, user) -> Player:
    """The club's player linked to `user`, created under a free display name if needed."""
    player = club.players.filter(user=user).first()
    if player:
        return player
    base = display_name(user)
    name, n = base, 1
    while club.players.filter(name__iexact=name).exists():
        n += 1
        name = f"{base} {n}"
    return Player.objects.create(club=club, name=name, user=user)


@transaction.atomic
def create_club(user, name: str) -> Club:
    """Anyone can create a club; its creator becomes its admin and one of its players."""
    club = Club.objects.create(name=name)
    Membership.objects.create(user=user, club=club, role=Membership.Role.ADMIN)
    _player_for(club, user)
    return club


@transaction.atomic
def create_runde(club: Club, name: str, by) -> Runde:
    """A new Runde starts with the ordinary Zehner-Schafkopf tariff (the model defaults)."""
    runde = Runde.objects.create(club=club, name=name)
    Tariff.objects.create(runde=runde, created_by=by)
    return runde


@transaction.atomic
def change_tariff(runde: Runde, proposed: Tariff, by) -> Tariff | None:
    """Add `proposed` as the Runde's newest tariff version, valid from now on.

    Versions are never edited, so an evening that recorded an older version keeps
    its amounts. Returns None when nothing changed.
    """
    Runde.objects.select_for_update().get(pk=runde.pk)
    current = runde.tariffs.latest()
    if proposed.same_rules_as(current):
        return None
    proposed.pk = None
    proposed.runde = runde
    proposed.created_by = by
    proposed.valid_from = timezone.now()
    proposed.save()
    return proposed


@transaction.atomic
def accept_invitation(invitation: Invitation, user) -> Membership:
    """Join the invitation's club. A member keeps a higher role than the link offers."""
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if not invitation.is_usable:
        raise ClubError(_("Diese Einladung gilt nicht mehr."))
    membership, created = Membership.objects.get_or_create(
        user=user, club=invitation.club, defaults={"role": invitation.role}
    )
    ranks = [Membership.Role.PLAYER, Membership.Role.SCOREKEEPER, Membership.Role.ADMIN]
    if not created and ranks.index(invitation.role) > ranks.index(membership.role):
        membership.role = invitation.role
        membership.save(update_fields=["role"])
    _player_for(invitation.club, user)
    return membership


@transaction.atomic
def change_role(membership: Membership, role: str) -> Membership:
    """Give a member another role; a club never loses its last admin."""
    Club.objects.select_for_update().get(pk=membership.club_id)
    if membership.is_admin and role != Membership.Role.ADMIN:
        _keep_an_admin(membership)
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def remove_member(membership: Membership) -> None:
    """Take away a user's access; their player and everything booked for it stay."""
    Club.objects.select_for_update().get(pk=membership.club_id)
    if membership.is_admin:
        _keep_an_admin(membership)
    membership.delete()


def _keep_an_admin(membership: Membership) -> None:
    if not membership.club.memberships.admins().exclude(pk=membership.pk).exists():
        raise ClubError(_("Der Verein braucht mindestens einen Admin."))


def revoke_invitation(invitation: Invitation) -> None:
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
