"""The invitation an account page was opened for, so sign-up and login can name the club."""

from urllib.parse import urlsplit

from django import template
from django.db.models import Q
from django.urls import Resolver404, resolve

from clubs.models import Invitation

register = template.Library()


@register.simple_tag
def invitation_in(next_url: str) -> Invitation | None:
    """The usable invitation that `next_url` (?next=/einladung/<token>/) leads to, or None.

    `next_url` is the page's already vetted `next`; anything that is not an invitation
    link of ours, or whose invitation no longer works, names no club.
    """
    if not next_url:
        return None
    try:
        match = resolve(urlsplit(next_url).path)
    except Resolver404:
        return None
    if match.view_name != "clubs:join":
        return None
    return (
        Invitation.objects.usable()
        .filter(Q(player=None) | Q(player__user=None), token=match.kwargs["token"])
        .select_related("club", "player")
        .first()
    )
