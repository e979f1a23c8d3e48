"""Access to an evening: through the caller's membership in the evening's club, or 404."""

from django.db.models import OuterRef, Subquery
from django.http import Http404

from clubs.models import Membership
from evenings.models import Evening


def evening_of(request, evening_id: int) -> tuple[Evening, Membership]:
    """The evening and the caller's membership in its club; anyone in the club may look.

    One query: the evening and the caller's role in its club, read together (the table's
    phones ask many times a minute).
    """
    role = Membership.objects.filter(club=OuterRef("runde__club"), user=request.user.pk)
    evening = (
        Evening.objects.select_related("runde__club", "tariff")
        .annotate(caller_role=Subquery(role.values("role")[:1]))
        .filter(pk=evening_id)
        .first()
    )
    if evening is None or evening.caller_role is None:
        raise Http404
    role = evening.caller_role
    if evening.scorekeeper_id == request.user.pk and role == Membership.Role.PLAYER:
        # A tournament table's named scorekeeper books at this table (and only here).
        role = Membership.Role.SCOREKEEPER
    membership = Membership(user=request.user, club=evening.runde.club, role=role)
    return evening, membership


def scored_evening_of(request, evening_id: int) -> tuple[Evening, Membership]:
    """The evening if the caller may book and correct games in it (admin or Schreiber)."""
    evening, membership = evening_of(request, evening_id)
    if not membership.can_score:
        raise Http404
    return evening, membership


def admin_evening_of(request, evening_id: int) -> tuple[Evening, Membership]:
    evening, membership = evening_of(request, evening_id)
    if not membership.is_admin:
        raise Http404
    return evening, membership
