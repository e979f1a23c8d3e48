"""Access to an evening: through the caller's membership in the evening's club, or 404."""

from django.http import Http404
from django.shortcuts import get_object_or_404

from clubs.access import membership_of
from clubs.models import Membership
from evenings.models import Evening


def evening_of(request, evening_id: int) -> tuple[Evening, Membership]:
    """The evening and the caller's membership in its club; anyone in the club may look."""
    evening = get_object_or_404(
        Evening.objects.select_related("runde__club", "tariff"), pk=evening_id
    )
    return evening, membership_of(request, evening.runde.club_id)


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
