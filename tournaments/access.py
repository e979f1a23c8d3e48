"""Who may see what of a tournament: every tournament view starts with one of these.

Through the caller's membership in the organising club (clubs.access): members look,
the club's admin (the director) changes; anyone else gets a 404, as for the club.
"""

from django.shortcuts import get_object_or_404

from clubs.access import admin_of, membership_of
from clubs.models import Membership
from tournaments.models import Round, Season, Tournament


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(
        Tournament.objects.select_related("club", "season", "runde"), pk=tournament_id
    )


def tournament_of(request, tournament_id: int) -> tuple[Tournament, Membership]:
    """The tournament and the caller's membership in its club; any member may look."""
    tournament = _tournament(tournament_id)
    return tournament, membership_of(request, tournament.club_id)


def admin_tournament_of(request, tournament_id: int) -> tuple[Tournament, Membership]:
    """The tournament if the caller is its club's admin (the director), or 404."""
    tournament = _tournament(tournament_id)
    return tournament, admin_of(request, tournament.club_id)


def _round(tournament: Tournament, number: int) -> Round:
    round_ = get_object_or_404(tournament.rounds, number=number)
    round_.tournament = tournament
    return round_


def round_of(request, tournament_id: int, number: int) -> tuple[Round, Membership]:
    """The tournament's round `number` (drawn), for any member of its club; or 404."""
    tournament, membership = tournament_of(request, tournament_id)
    return _round(tournament, number), membership


def admin_round_of(request, tournament_id: int, number: int) -> tuple[Round, Membership]:
    """The tournament's round `number` if the caller directs (the club's admin); or 404."""
    tournament, membership = admin_tournament_of(request, tournament_id)
    return _round(tournament, number), membership


def season_of(request, club_id: int, season_id: int) -> tuple[Season, Membership]:
    membership = membership_of(request, club_id)
    return get_object_or_404(membership.club.seasons, pk=season_id), membership
