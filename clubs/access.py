"""Who may see what: every club view starts with one of these.

Anything a person's role does not allow is a 404, so nobody learns that a club, a Runde
or an invitation exists unless they may see it.
"""

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, render

from clubs.models import Membership, Runde


def membership_of(request, club_id: int) -> Membership:
    """The caller's membership in the club, or 404."""
    return get_object_or_404(
        Membership.objects.select_related("club"), club_id=club_id, user=request.user
    )


def admin_of(request, club_id: int) -> Membership:
    """The caller's membership if they are the club's admin, or 404."""
    membership = membership_of(request, club_id)
    if not membership.is_admin:
        raise Http404
    return membership


def scorekeeper_of(request, club_id: int) -> Membership:
    """The caller's membership if they may score (admin or Schreiber), or 404."""
    membership = membership_of(request, club_id)
    if not membership.can_score:
        raise Http404
    return membership


def money_runde_of(membership: Membership, runde_id: int) -> Runde:
    """The member's club's money Runde (not a tournament's), or 404."""
    return get_object_or_404(membership.club.runden.money(), pk=runde_id)


def login_required_keep_form(target: str, on_get: str | None = None, following: bool = False):
    """login_required, but an HTMX request with an expired session is answered with a
    message swapped into `target` (a GET's into `on_get`, if given) instead of a redirect:
    what the user typed stays on the screen, and saving again after logging in (in
    another tab) goes through. (A redirect would put the login page where the answer goes.)
    `following`: a phone's poll, which typed nothing: the message says the sheet stopped
    following, and goes once a poll gets through again (evening.js)."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.user.is_authenticated or not request.htmx:
                return login_required(view)(request, *args, **kwargs)
            response = render(request, "_session_expired.html", {"following": following})
            response["HX-Retarget"] = on_get if on_get and request.method == "GET" else target
            response["HX-Reswap"] = "innerHTML"
            return response

        return wrapper

    return decorator
