"""Who may do what, for every URL of the app: one test per URL, role and HTTP method.

The matrix below is the app's access policy written down as data. A URL added to the
project without a row here fails `test_every_url_of_the_app_has_a_row_in_the_matrix`, so
nobody can add a page without deciding who may see it.

The rules: a person sees only clubs they belong to; an outsider (admin of another club)
gets 404 for anything of the club, so its existence is not revealed; anonymous visitors are
sent to the login page; players only look (club, Runden, players, evenings); Schreiber
also run evenings; only admins change tariffs, roles, players and invitations. A refused
request changes nothing.
"""

import dataclasses
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from clubs import services as club_services
from clubs.models import Club, Invitation, Membership, Player, Runde, Tariff
from evenings import services as evening_services
from evenings.models import Change, Evening, Game, LedgerEntry, Seat
from tournaments import services as tournament_services
from tournaments.models import Participant, Round, Season, Table, TableSeat, Tournament

User = get_user_model()

# The cast's password (tests/clubs/conftest.py) and a new one for the password change.
PASSWORD = "Geheim-123-Schafkopf"
NEW_PASSWORD = "Herz-Solo-mit-Schneider-77"

ROLES = ("anonymous", "outsider", "player", "scorekeeper", "admin")
LOGGED_IN = frozenset(ROLES) - {"anonymous"}
SCORERS = frozenset({"scorekeeper", "admin"})
ADMIN = frozenset({"admin"})
METHODS = ("GET", "POST", "PUT", "DELETE")
# PUT and DELETE share one expectation per URL and role, as nothing in the app answers
# them; a row names PUT on its own only where Django's class-based views differ.
OTHER = "other"

# Cells are status codes, or one of these: a 302 to the login (or sign-up) page that
# carries the requested path as ?next=, so the visitor comes back after logging in.
LOGIN = "login"
SIGNUP = "signup"


def every(expected):
    """The same answer for every role."""
    return (expected,) * len(ROLES)


def logged_in(allowed):
    """Anonymous to the login page, everyone with an account `allowed`."""
    return (LOGIN, allowed, allowed, allowed, allowed)


def members_only(allowed):
    """Anonymous to the login page, outsiders 404, every member of the club `allowed`."""
    return (LOGIN, 404, allowed, allowed, allowed)


def scorers_only(allowed):
    """Anonymous to the login page, outsiders and players 404, Schreiber and admin `allowed`."""
    return (LOGIN, 404, 404, allowed, allowed)


def admins_only(allowed):
    """Anonymous to the login page, everyone but the club's admin 404."""
    return (LOGIN, 404, 404, 404, allowed)


NO_OTHER = {OTHER: every(405)}

# The director's buttons and forms of a tournament: POST only, each one a change.
TOURNAMENT_POSTS = (
    "participants",
    "guest",
    "remove",
    "draw",
    "swap",
    "scorekeepers",
    "start",
    "finish",
    "reopen",
    "reinstate",
    "end_table",
    "display_link",
    "delete",
)

# Per URL name, per method, the expected answer for (anonymous, outsider, player,
# scorekeeper, admin), in that order.
MATRIX: dict[str, dict[str, tuple]] = {
    # The start page lists the user's clubs; healthz is for the load balancer.
    "start": {"GET": logged_in(200), "POST": every(405), **NO_OTHER},
    "healthz": {"GET": every(200), "POST": every(405), **NO_OTHER},
    # Anyone with an account may found a club.
    "clubs:create": {"GET": logged_in(200), "POST": logged_in(302), **NO_OTHER},
    # Members look at the club, its Runden and its players.
    "clubs:detail": {"GET": members_only(200), "POST": every(405), **NO_OTHER},
    "clubs:runde": {"GET": members_only(200), "POST": every(405), **NO_OTHER},
    # The rules with the Runde's tariff are for every member; the default tariff's and the
    # ProHof tournament's for anyone, without an account.
    "clubs:rules": {"GET": members_only(200), "POST": every(405), **NO_OTHER},
    "clubs:rules_default": {"GET": every(200), "POST": every(405), **NO_OTHER},
    "clubs:rules_prohof": {"GET": every(200), "POST": every(405), **NO_OTHER},
    "clubs:players": {"GET": members_only(200), "POST": admins_only(302), **NO_OTHER},
    # A player's overview and history: a Spieler sees their own (tests/clubs/
    # test_player_pages.py), Schreiber and admin anyone's; the cast's player has no account.
    "clubs:player_home": {"GET": scorers_only(200), "POST": every(405), **NO_OTHER},
    "clubs:player_history": {"GET": scorers_only(200), "POST": every(405), **NO_OTHER},
    # Only the admin changes anything of the club.
    "clubs:rename": {"GET": admins_only(200), "POST": admins_only(302), **NO_OTHER},
    "clubs:runde_create": {"GET": admins_only(200), "POST": admins_only(302), **NO_OTHER},
    "clubs:runde_rename": {"GET": admins_only(200), "POST": admins_only(302), **NO_OTHER},
    "clubs:tariff": {"GET": admins_only(200), "POST": admins_only(302), **NO_OTHER},
    "clubs:tariff_preview": {"GET": every(405), "POST": admins_only(200), **NO_OTHER},
    "clubs:player": {"GET": admins_only(200), "POST": admins_only(302), **NO_OTHER},
    "clubs:player_delete": {"GET": every(405), "POST": admins_only(302), **NO_OTHER},
    "clubs:members": {"GET": admins_only(200), "POST": every(405), **NO_OTHER},
    "clubs:backup": {"GET": admins_only(200), "POST": every(405), **NO_OTHER},
    # The cast's club has evenings: its admin's delete is refused (302 back, nothing
    # changed); a club without one goes (tests/clubs/test_club_views.py).
    "clubs:delete": {"GET": every(405), "POST": admins_only(302), **NO_OTHER},
    # Any member may leave; the club's only admin is refused (302 back, nothing changed).
    "clubs:leave": {"GET": every(405), "POST": members_only(302), **NO_OTHER},
    "clubs:member_role": {"GET": every(405), "POST": admins_only(302), **NO_OTHER},
    "clubs:member_remove": {"GET": every(405), "POST": admins_only(302), **NO_OTHER},
    "clubs:invitation_create": {"GET": every(405), "POST": admins_only(302), **NO_OTHER},
    "clubs:invitation_revoke": {"GET": every(405), "POST": admins_only(302), **NO_OTHER},
    # The invitation link is for people outside the club; strangers sign up first.
    "clubs:join": {
        "GET": (SIGNUP, 200, 200, 200, 200),
        "POST": (SIGNUP, 302, 302, 302, 302),
        **NO_OTHER,
    },
    # Evenings: every member follows them; Schreiber and admin run them.
    "evenings:runde_balances": {"GET": members_only(200), "POST": every(405), **NO_OTHER},
    # The cast's Runde has an open evening: the Ausgleich is refused (302 back, with why).
    "evenings:ausgleich": {"GET": every(405), "POST": scorers_only(302), **NO_OTHER},
    "evenings:detail": {"GET": members_only(200), "POST": every(405), **NO_OTHER},
    "evenings:sheet": {"GET": members_only(200), "POST": every(405), **NO_OTHER},
    "evenings:history": {"GET": members_only(200), "POST": every(405), **NO_OTHER},
    "evenings:print": {"GET": members_only(200), "POST": every(405), **NO_OTHER},
    "evenings:csv": {"GET": members_only(200), "POST": every(405), **NO_OTHER},
    "evenings:runde_csv": {"GET": members_only(200), "POST": every(405), **NO_OTHER},
    "evenings:runde_payments_csv": {"GET": members_only(200), "POST": every(405), **NO_OTHER},
    "evenings:settlement": {"GET": members_only(200), "POST": scorers_only(302), **NO_OTHER},
    "evenings:start": {"GET": scorers_only(200), "POST": scorers_only(302), **NO_OTHER},
    # An empty seating form shows its errors (the cast's evening would go on at a new table).
    "evenings:seats": {"GET": scorers_only(200), "POST": scorers_only(200), **NO_OTHER},
    "evenings:book": {"GET": every(405), "POST": scorers_only(302), **NO_OTHER},
    "evenings:preview": {"GET": every(405), "POST": scorers_only(200), **NO_OTHER},
    "evenings:game": {"GET": scorers_only(200), "POST": scorers_only(302), **NO_OTHER},
    "evenings:void": {"GET": every(405), "POST": scorers_only(302), **NO_OTHER},
    "evenings:restore": {"GET": every(405), "POST": scorers_only(302), **NO_OTHER},
    "evenings:uncorrect": {"GET": every(405), "POST": scorers_only(302), **NO_OTHER},
    "evenings:correction_preview": {"GET": every(405), "POST": scorers_only(200), **NO_OTHER},
    "evenings:undo": {"GET": every(405), "POST": scorers_only(302), **NO_OTHER},
    "evenings:payment": {"GET": every(405), "POST": scorers_only(302), **NO_OTHER},
    "evenings:payment_cancel": {"GET": every(405), "POST": scorers_only(302), **NO_OTHER},
    "evenings:share": {"GET": every(405), "POST": scorers_only(302), **NO_OTHER},
    # Reopening a closed evening changes what was settled: the admin's call.
    "evenings:reopen": {"GET": every(405), "POST": admins_only(302), **NO_OTHER},
    # So is playing an open evening with the Runde's newer tariff.
    "evenings:tariff": {"GET": admins_only(200), "POST": admins_only(302), **NO_OTHER},
    # The read-only link for the table's spectators needs no account.
    "evenings:live": {"GET": every(200), "POST": every(405), **NO_OTHER},
    "evenings:live_sheet": {"GET": every(200), "POST": every(405), **NO_OTHER},
    # Tournaments: members follow them (page, standings, table cards, print, CSV); only the
    # club's admin (the director) runs them. The hall display needs no account.
    "tournaments:list": {"GET": members_only(200), "POST": every(405), **NO_OTHER},
    "tournaments:detail": {"GET": members_only(200), "POST": every(405), **NO_OTHER},
    # Asked without the version the page showed: "something changed" (286, the bar).
    "tournaments:news": {"GET": members_only(286), "POST": every(405), **NO_OTHER},
    "tournaments:season": {"GET": members_only(200), "POST": admins_only(302), **NO_OTHER},
    "tournaments:cards": {"GET": members_only(200), "POST": every(405), **NO_OTHER},
    "tournaments:ranking": {"GET": members_only(200), "POST": every(405), **NO_OTHER},
    "tournaments:csv": {"GET": members_only(200), "POST": every(405), **NO_OTHER},
    "tournaments:create": {"GET": admins_only(200), "POST": admins_only(302), **NO_OTHER},
    "tournaments:settings": {"GET": admins_only(200), "POST": admins_only(302), **NO_OTHER},
    **{
        f"tournaments:{name}": {"GET": every(405), "POST": admins_only(302), **NO_OTHER}
        for name in TOURNAMENT_POSTS
    },
    "tournaments:hall": {"GET": every(200), "POST": every(405), **NO_OTHER},
    # Accounts. Someone logged in who opens sign-up or login is sent on to the start page.
    "signup": {"GET": (200, 302, 302, 302, 302), "POST": every(302), **NO_OTHER},
    "login": {
        "GET": (200, 302, 302, 302, 302),
        "POST": every(302),
        # LoginView redirects a logged-in user before it looks at the method, and Django's
        # FormView treats PUT as POST (an empty form: the page again, with its errors).
        "PUT": (200, 302, 302, 302, 302),
        OTHER: (405, 302, 302, 302, 302),
    },
    "logout": {"GET": every(405), "POST": every(302), **NO_OTHER},
    "profile": {"GET": logged_in(200), "POST": logged_in(302), **NO_OTHER},
    # The admin is the only admin of a club with other members: refused, the page again.
    # The outsider is the one member of theirs: it stays without members.
    "account_delete": {"GET": every(405), "POST": (LOGIN, 302, 302, 302, 200), **NO_OTHER},
    # Django's password views check the login before the method.
    "password_change": {
        "GET": logged_in(200),
        "POST": logged_in(302),
        "PUT": logged_in(200),  # FormView: PUT is POST, an empty form shows its errors
        OTHER: logged_in(405),
    },
    "password_change_done": {
        "GET": logged_in(200),
        "POST": logged_in(405),
        OTHER: logged_in(405),
    },
    "password_reset": {
        "GET": every(200),
        "POST": every(302),
        "PUT": every(200),  # FormView: PUT is POST, an empty form shows its errors
        **NO_OTHER,
    },
    "password_reset_done": {"GET": every(200), "POST": every(405), **NO_OTHER},
    # With a link that is not valid, Django's view renders "this link is invalid" for every
    # method before it dispatches on the method; fixed expectation for a fixed bad link.
    "password_reset_confirm": {"GET": every(200), "POST": every(200), OTHER: every(200)},
    "password_reset_complete": {"GET": every(200), "POST": every(405), **NO_OTHER},
}

# Allowed POSTs that write: per URL, the roles whose POST changes the database. Every
# other request, allowed or not, must leave it exactly as it was.
WRITES: dict[str, frozenset[str]] = {
    "clubs:create": LOGGED_IN,
    "clubs:players": ADMIN,
    "clubs:runde_create": ADMIN,
    "clubs:runde_rename": ADMIN,
    "clubs:tariff": ADMIN,
    "clubs:player": ADMIN,
    "clubs:rename": ADMIN,
    "clubs:player_delete": ADMIN,
    "clubs:member_role": ADMIN,
    "clubs:member_remove": ADMIN,
    "clubs:leave": frozenset({"player", "scorekeeper"}),
    "clubs:invitation_create": ADMIN,
    "clubs:invitation_revoke": ADMIN,
    # Members of the club already have a player and a role at least as high as the link's.
    "clubs:join": frozenset({"outsider"}),
    "evenings:start": SCORERS,
    "evenings:book": SCORERS,
    "evenings:game": SCORERS,
    "evenings:void": SCORERS,
    "evenings:uncorrect": SCORERS,
    "evenings:undo": SCORERS,
    "evenings:settlement": SCORERS,
    "evenings:payment": SCORERS,
    "evenings:payment_cancel": SCORERS,
    "evenings:share": SCORERS,
    "evenings:reopen": ADMIN,
    "evenings:tariff": ADMIN,
    **dict.fromkeys(
        (f"tournaments:{name}" for name in ("create", "settings", "season", *TOURNAMENT_POSTS)),
        ADMIN,
    ),
    "signup": frozenset({"anonymous"}),
    "profile": LOGGED_IN,
    "account_delete": frozenset({"outsider", "player", "scorekeeper"}),
    "password_change": LOGGED_IN,
}


@dataclass
class Cast:
    """tests/clubs/conftest.py's cast and the objects its URLs name."""

    users: dict[str, object]
    club: Club
    runde: Runde
    player: Player  # a player without an account
    membership: Membership  # the player's membership, for role changes and removal
    invitation: Invitation
    evening: Evening  # open, one Sauspiel booked
    game: Game
    closed_evening: Evening
    # The outsider's own club and evening, for reaching across clubs.
    other_club: Club
    other_evening: Evening

    def player_of(self, role: str) -> Player:
        return self.club.players.get(user=self.users[role])

    @cached_property
    def payment(self) -> Change:
        """A payment at the evening, to take back ("Storno"): the Schreiber's player pays
        Girgl 0,10 €, which leaves Vroni's 0,10 € to Resi open for evenings:payment."""
        return evening_services.record_payment(
            self.evening.pk,
            self.player_of("scorekeeper").pk,
            self.player.pk,
            10,
            self.users["admin"],
        )

    @cached_property
    def correction(self) -> Change:
        """The game corrected (Kontra added), to take back right after ("Rückgängig")."""
        game = evening_services.correct_game(
            self.evening.pk,
            self.game.pk,
            dataclasses.replace(evening_services.GameInput.of(self.game), kontra=1),
            self.users["admin"],
        )
        return game.changes.get(kind=Change.Kind.CORRECT)

    # Tournaments are made only for the URLs that name one (cached_property: on first use).

    @cached_property
    def tournament(self) -> Tournament:
        """In a season; the club's four players and four guests, round 1 drawn, not started;
        Wastl of the club does not take part yet."""
        tournament = tournament_services.create_tournament(
            self.club, self.users["admin"], name="Stadtmeisterschaft", new_season="ProHof 2026"
        )
        Player.objects.create(club=self.club, name="Wastl")
        tournament_services.add_participants(tournament, list(self.club.players.all()[:4]))
        for name in ("Ferdl", "Burgi", "Loisl", "Zenzi"):
            tournament_services.add_guest(tournament, name)
        tournament_services.draw_round(tournament, seed=1, by=self.users["admin"])
        return tournament

    @cached_property
    def played_tournament(self) -> Tournament:
        """One round of one game, played at its table: ready to be closed."""
        return self._one_game_played("Blitzturnier", games_per_round=1)

    def _one_game_played(self, name: str, games_per_round: int) -> Tournament:
        """A tournament of one round at one table, started, its first game booked."""
        admin = self.users["admin"]
        tournament = tournament_services.create_tournament(
            self.club, admin, name=name, round_count=1, games_per_round=games_per_round
        )
        tournament_services.add_participants(tournament, list(self.club.players.all()[:4]))
        round_ = tournament_services.start_round(tournament_services.draw_round(tournament), admin)
        evening = round_.tables.get().evening
        deal = evening_services.next_deal(evening)
        rufspiel = evening_services.GameInput(
            type="rufspiel", declarer=deal.playing[0].pk, partner=deal.playing[1].pk
        )
        evening_services.book_game(evening.pk, uuid.uuid4(), rufspiel, admin, deal.token)
        return tournament

    @cached_property
    def finished_tournament(self) -> Tournament:
        """The played one, closed: ready to be opened again."""
        return tournament_services.finish(self.played_tournament, self.users["admin"])

    @cached_property
    def running_tournament(self) -> Tournament:
        """One round of two games, started, one game played; its last participant has
        withdrawn: a table to end early, a withdrawal to take back."""
        tournament = self._one_game_played("Abendturnier", games_per_round=2)
        tournament_services.remove_participant(tournament.participants.last())
        return tournament

    @cached_property
    def other_tournament(self) -> Tournament:
        """The outsider's club's, nothing drawn yet."""
        return tournament_services.create_tournament(
            self.other_club, self.users["outsider"], name="Giesinger Turnier"
        )

    def seated(self, table: int, position: int) -> int:
        """The participant at a seat of the tournament's round 1."""
        seat = TableSeat.objects.get(
            round__tournament=self.tournament, table__number=table, position=position
        )
        return seat.participant_id


TARIFF = {
    "sauspiel": "0,20",
    "farbsolo": "0,50",
    "wenz": "0,50",
    "ramsch": "0,10",
    "laufende": "0,10",
    "laufende_min": "3",
    "laufende_max": "8",
    "laufende_min_wenz": "3",
    "schneider": "0,10",
    "schwarz": "0,10",
    "bock": "off",
    "settle_unit": "1",
}


def sauspiel(cast: Cast, **changes) -> dict[str, object]:
    """The entry form for a Sauspiel of the scorekeeper with the player, won."""
    return {
        "key": str(uuid.uuid4()),
        "deal": evening_services.next_deal(cast.evening).token,
        "spiel": "sauspiel",
        "declarer": cast.player_of("scorekeeper").pk,
        "partner": cast.player_of("player").pk,
        "won": "1",
        "laufende": "0",
        "kontra": "0",
        "doubled": "0",
        **changes,
    }


def shown(game: Game) -> str:
    """The fingerprint of the game as a correction panel shows it (its form's k-seen)."""
    return evening_services.GameInput.of(game).fingerprint()


def prefixed(body: dict[str, object]) -> dict[str, object]:
    return {f"k-{name}": value for name, value in body.items()}


# A plausible valid body for each URL that takes a POST.
def newer_tariff(cast: Cast) -> dict[str, object]:
    """A newer tariff of the cast's Runde, for its open evening to take (evenings:tariff)."""
    newer = cast.runde.tariffs.latest()
    newer.pk, newer.sauspiel = None, newer.sauspiel + 10
    newer.save()
    return {"tarif": newer.pk}


POST_BODIES: dict[str, Callable[[Cast], dict[str, object]]] = {
    "evenings:tariff": newer_tariff,
    "clubs:create": lambda cast: {"name": "Kartlerverein Sendling"},
    "clubs:runde_create": lambda cast: {"name": "Freitagsrunde"},
    "clubs:runde_rename": lambda cast: {"name": "Mittwochsrunde"},
    "clubs:rename": lambda cast: {"name": "Schafkopffreunde Moosburg"},
    "clubs:tariff": lambda cast: TARIFF,
    "clubs:tariff_preview": lambda cast: TARIFF,
    "clubs:players": lambda cast: {"name": "Wastl"},
    "clubs:player": lambda cast: {"name": "Girgl vom Eck", "active": "on"},
    "clubs:member_role": lambda cast: {"role": "schreiber"},
    "clubs:invitation_create": lambda cast: {"role": "spieler"},
    "clubs:join": lambda cast: {"who": "neu", "name": "Ferdl"},
    "evenings:start": lambda cast: {
        **{f"seat{i}": p.pk for i, p in enumerate(cast.club.players.order_by("pk"))},
        "first_dealer": "0",
        "again": "on",  # the cast's evening has these players too
    },
    "evenings:book": sauspiel,
    "evenings:preview": sauspiel,
    # The correction form's fields carry the prefix k- (it opens beside the entry form).
    "evenings:game": lambda cast: (
        prefixed(sauspiel(cast, key=str(cast.game.key), won="0")) | {"k-seen": shown(cast.game)}
    ),
    # What the phone showed: the evening's version, and the game as the panel showed it.
    "evenings:void": lambda cast: {
        "v": Evening.objects.get(pk=cast.evening.pk).version,
        "seen": shown(cast.game),
    },
    "evenings:undo": lambda cast: {"v": Evening.objects.get(pk=cast.evening.pk).version},
    "evenings:correction_preview": lambda cast: prefixed(sauspiel(cast, won="0")),
    # What is open after the evening's Sauspiel: Vroni owes 0,10 €, Resi won 0,10 €.
    "evenings:payment": lambda cast: {
        "payer": cast.player_of("player").pk,
        "payee": cast.player_of("admin").pk,
        "amount": "10",
    },
    "signup": lambda cast: {
        "username": "neuling",
        "first_name": "Neuling",
        "email": "neuling@example.org",
        "password1": NEW_PASSWORD,
        "password2": NEW_PASSWORD,
    },
    "login": lambda cast: {"username": "resi", "password": PASSWORD},
    "profile": lambda cast: {"first_name": "Anderer Name", "email": "anders@example.org"},
    "account_delete": lambda cast: {"password": PASSWORD},
    "password_change": lambda cast: {
        "old_password": PASSWORD,
        "new_password1": NEW_PASSWORD,
        "new_password2": NEW_PASSWORD,
    },
    "password_reset": lambda cast: {"email": "resi@example.org"},
    "tournaments:create": lambda cast: {
        "name": "Hofer Stadtmeisterschaft",
        "date": "2026-03-14",
        "round_count": "3",
        "games_per_round": "40",
    },
    "tournaments:settings": lambda cast: {
        "name": "Stadtmeisterschaft Hof",
        "date": "2026-03-14",
        "round_count": "3",
        "games_per_round": "40",
    },
    "tournaments:participants": lambda cast: {"players": [cast.club.players.get(name="Wastl").pk]},
    "tournaments:guest": lambda cast: {"name": "Girgl aus Rehau"},
    "tournaments:season": lambda cast: {"name": "Saison 2027"},
    "tournaments:draw": lambda cast: {"number": "1", "replacing": "1", "seed": "2"},
    "tournaments:swap": lambda cast: {
        "a": cast.seated(1, 0),
        "b": cast.seated(2, 0),
        "seating": tournament_services.seating_token(cast.tournament.rounds.get()),
    },
    "tournaments:scorekeepers": lambda cast: dict.fromkeys(
        ("tisch_1", "tisch_2"), cast.users["scorekeeper"].pk
    ),
    "password_reset_confirm": lambda cast: {
        "new_password1": NEW_PASSWORD,
        "new_password2": NEW_PASSWORD,
    },
}


def body_for(name: str, cast: Cast) -> dict[str, object]:
    """The POST body for the URL; most POSTs (revoke, remove, undo, ...) take none."""
    return POST_BODIES[name](cast) if name in POST_BODIES else {}


def url_kwargs(name: str, params: frozenset[str], cast: Cast) -> dict[str, object]:
    """The URL's parameters, naming the cast's objects."""
    if name == "password_reset_confirm":
        # A real account, a token that is not valid for it.
        return {
            "uidb64": urlsafe_base64_encode(force_bytes(cast.users["admin"].pk)),
            "token": "a-b",
        }
    evening = cast.closed_evening if name == "evenings:reopen" else cast.evening
    if name.startswith("tournaments:"):
        return _tournament_kwargs(name, params, cast)
    values = {
        "club_id": cast.club.pk,
        "runde_id": cast.runde.pk,
        "player_id": cast.player.pk,
        "membership_id": cast.membership.pk,
        "invitation_id": cast.invitation.pk,
        "evening_id": evening.pk,
        "game_id": cast.game.pk,
        "token": evening.share_token if name.startswith("evenings:") else cast.invitation.token,
    }
    if "change_id" in params:
        values["change_id"] = (
            cast.correction.pk if name == "evenings:uncorrect" else cast.payment.pk
        )
    if name == "clubs:player_delete":  # a name typed by mistake: never played, no login
        values["player_id"] = cast.club.players.get_or_create(name="Vertippt")[0].pk
    unknown = params - values.keys()
    assert not unknown, f"{name}: no value for the URL parameters {sorted(unknown)}"
    return {param: values[param] for param in params}


def _tournament_kwargs(name: str, params: frozenset[str], cast: Cast) -> dict[str, object]:
    """A tournament URL's parameters: the club's tournament with round 1 drawn (the
    played one for closing it), the hall display's token, the season."""
    values = {"club_id": lambda: cast.club.pk, "number": lambda: 1, "table": lambda: 1}
    tournament = {
        "tournaments:finish": lambda: cast.played_tournament,
        "tournaments:reopen": lambda: cast.finished_tournament,
        "tournaments:reinstate": lambda: cast.running_tournament,
        "tournaments:end_table": lambda: cast.running_tournament,
    }.get(name, lambda: cast.tournament)()
    values |= {
        "tournament_id": lambda: tournament.pk,
        "participant_id": lambda: tournament.participants.last().pk,
        "season_id": lambda: tournament.season_id,
        "token": lambda: tournament.display_token,
    }
    unknown = params - values.keys()
    assert not unknown, f"{name}: no value for the URL parameters {sorted(unknown)}"
    return {param: values[param]() for param in params}


# Not the app's pages: Django's admin site for the operator, static and media files.
SKIPPED_PREFIXES = ("betrieb/", "static/", "media/")


def app_routes() -> tuple[dict[str, tuple[str, frozenset[str]]], list[str]]:
    """Every URL pattern of the project outside SKIPPED_PREFIXES, walked recursively.

    Returns the named ones as {name: (route, parameter names)} and the routes of any
    unnamed ones (which could never get a row in the matrix).
    """
    named: dict[str, tuple[str, frozenset[str]]] = {}
    unnamed: list[str] = []

    def walk(resolver: URLResolver, prefix: str, namespace: str, params: frozenset[str]):
        for pattern in resolver.url_patterns:
            route = prefix + str(pattern.pattern)
            if route.lstrip("^").startswith(SKIPPED_PREFIXES):
                continue
            own = frozenset(getattr(pattern.pattern, "converters", {}))
            if isinstance(pattern, URLResolver):
                inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                walk(pattern, route, inner, params | own)
            elif isinstance(pattern, URLPattern):
                if pattern.name is None:
                    unnamed.append(route)
                else:
                    named[namespace + pattern.name] = (route, params | own)

    walk(get_resolver(), "", "", frozenset())
    return named, unnamed


ROUTES = app_routes()[0]


def cells():
    for name, row in MATRIX.items():
        for role_index, role in enumerate(ROLES):
            for method in METHODS:
                expected = row.get(method, row[OTHER])[role_index]
                yield pytest.param(name, role, method, expected, id=f"{name}-{role}-{method}")


WATCHED = (Club, Runde, Tariff, Player, Membership, Invitation)
WATCHED += (Evening, Seat, Game, Change, LedgerEntry)
WATCHED += (Season, Tournament, Participant, Round, Table, TableSeat)


def snapshot() -> dict[str, list[tuple]]:
    """Every row of every table a page could write, in a comparable form."""
    tables = {model.__name__: list(model.objects.order_by("pk").values_list()) for model in WATCHED}
    # Logging in stamps last_login; that is the session's business, not the page's.
    user_fields = [f.attname for f in User._meta.concrete_fields if f.name != "last_login"]
    tables["User"] = list(User.objects.order_by("pk").values_list(*user_fields))
    return tables


def send(client, method: str, url: str, data: dict[str, object]):
    if method == "GET":
        return client.get(url)
    if method == "POST":
        return client.post(url, data)
    return client.generic(method, url)


def _evening_of_four(runde: Runde, by) -> Evening:
    players = list(runde.club.players.order_by("pk")[:4])
    return evening_services.start_evening(runde, players, 0, by)


@pytest.fixture
def cast(admin, club, runde, scorekeeper, player_user, other_admin) -> Cast:
    # Members usually play too: the Schreiber and the player get their own players.
    resi = club.players.get(user=admin)
    Player.objects.create(club=club, name="Hias", user=scorekeeper)
    Player.objects.create(club=club, name="Vroni", user=player_user)
    girgl = Player.objects.create(club=club, name="Girgl")

    evening = _evening_of_four(runde, admin)
    game, _ = evening_services.book_game(
        evening.pk,
        uuid.uuid4(),
        evening_services.GameInput(type="sauspiel", declarer=resi.pk, partner=girgl.pk),
        admin,
    )
    closed = evening_services.close_evening(_evening_of_four(runde, admin).pk, admin)

    other_club = Club.objects.get(memberships__user=other_admin)
    other_runde = club_services.create_runde(other_club, "Montagsrunde", other_admin)
    for name in ("Kathi", "Wastl", "Loisl"):
        Player.objects.create(club=other_club, name=name)

    return Cast(
        users={
            "anonymous": None,
            "outsider": other_admin,
            "player": player_user,
            "scorekeeper": scorekeeper,
            "admin": admin,
        },
        club=club,
        runde=runde,
        player=girgl,
        membership=Membership.objects.get(club=club, user=player_user),
        invitation=Invitation.objects.create(club=club, role="spieler", created_by=admin),
        evening=Evening.objects.get(pk=evening.pk),
        game=game,
        closed_evening=closed,
        other_club=other_club,
        other_evening=_evening_of_four(other_runde, other_admin),
    )


def test_every_url_of_the_app_has_a_row_in_the_matrix():
    named, unnamed = app_routes()

    assert not unnamed, f"URLs without a name cannot be in the matrix: {unnamed}"
    assert set(named) - MATRIX.keys() == set(), "add these URLs to MATRIX"
    assert MATRIX.keys() - set(named) == set(), "these rows name no URL any more"


def test_the_url_walk_finds_urls_in_every_part_of_the_project():
    # Guards the walk itself: an empty or partial walk would make the test above pass.
    named, _ = app_routes()

    assert named["clubs:tariff"][1] == {"club_id", "runde_id"}
    assert named["password_reset_confirm"][1] == {"uidb64", "token"}
    assert {"start", "healthz", "login", "clubs:join"} <= named.keys()
    assert not any(name.startswith("admin:") for name in named)


def test_the_matrix_and_its_helper_tables_agree():
    for name, row in MATRIX.items():
        assert {"GET", "POST", OTHER} <= set(row) <= {*METHODS, OTHER}, name
        assert all(len(expected) == len(ROLES) for expected in row.values()), name
    assert WRITES.keys() <= MATRIX.keys()
    assert POST_BODIES.keys() <= MATRIX.keys()


@pytest.mark.parametrize(("name", "role", "method", "expected"), list(cells()))
def test_permission(client, cast, name, role, method, expected):
    url = reverse(name, kwargs=url_kwargs(name, ROUTES[name][1], cast))
    body = body_for(name, cast)
    user = cast.users[role]
    if user is not None:
        client.force_login(user)
    before = snapshot()

    response = send(client, method, url, body)

    if expected in (LOGIN, SIGNUP):
        assert response.status_code == 302
        location = urlsplit(response["Location"])
        assert location.path == reverse(expected)
        assert parse_qs(location.query)["next"] == [url]
    else:
        assert response.status_code == expected
    if method == "POST" and role in WRITES.get(name, frozenset()):
        assert snapshot() != before, "an allowed POST with a valid body should have written"
    else:
        assert snapshot() == before


# URLs that name an object inside a club (or an evening): the admin of another club may
# do anything under their own club's URL, but must not reach this club's objects through it.
CONTAINERS = ("club_id", "evening_id", "tournament_id")
CROSS = sorted(
    name
    for name, (_route, params) in ROUTES.items()
    if params & set(CONTAINERS) and params - set(CONTAINERS)
)


@pytest.mark.parametrize("method", ["GET", "POST"])
@pytest.mark.parametrize("name", CROSS)
def test_an_admin_cannot_reach_another_clubs_objects_through_their_own_club(
    client, cast, name, method
):
    kwargs = url_kwargs(name, ROUTES[name][1], cast)
    container = next(param for param in CONTAINERS if param in kwargs)
    others = {"club_id": cast.other_club, "evening_id": cast.other_evening}
    if container == "tournament_id":
        others["tournament_id"] = cast.other_tournament
    kwargs[container] = others[container].pk
    client.force_login(cast.users["outsider"])
    before = snapshot()

    response = send(client, method, reverse(name, kwargs=kwargs), body_for(name, cast))

    method_allowed = MATRIX[name][method][ROLES.index("admin")] != 405
    assert response.status_code == (404 if method_allowed else 405)
    assert snapshot() == before


def test_an_outsider_learns_nothing_a_missing_club_would_not_tell(client, cast):
    client.force_login(cast.users["outsider"])
    missing = Club.objects.order_by("-pk").first().pk + 1000

    existing = client.get(reverse("clubs:detail", args=[cast.club.pk]))
    nonexistent = client.get(reverse("clubs:detail", args=[missing]))

    assert existing.status_code == nonexistent.status_code == 404
    assert _without_per_request_tokens(existing) == _without_per_request_tokens(nonexistent)


def _without_per_request_tokens(response) -> str:
    """The page with the CSRF token and the CSP nonce blanked: both change on every
    response, whatever was asked."""
    text = re.sub(r'"X-CSRFToken": "[^"]+"', '"X-CSRFToken": ""', response.text)
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", text)
    return re.sub(r'nonce="[^"]+"', 'nonce=""', text)


@pytest.mark.parametrize("path", ["/betrieb/", "/betrieb/login/", "/betrieb/auth/user/"])
def test_the_operator_s_admin_site_is_a_404_to_a_club_member(client, admin, path):
    # A club's admin is no operator (staff): Django's admin site is not theirs to see.
    client.force_login(admin)

    response = client.get(path)

    assert response.status_code == 404
    assert "Diese Seite gibt es nicht" in response.text


def test_a_form_sent_after_a_demotion_is_told_nothing_was_saved(
    client, scorekeeper, admin, club, runde
):
    """ "bezahlt" or "Letztes Spiel zurücknehmen" on a page opened as a Schreiber, sent
    after the admin made them a Spieler: the 404 says nothing was saved, and why it may
    be; it says the same for a page that does not exist (nobody learns what exists)."""
    from evenings import services as evenings

    players = [club.players.get()] + [
        Player.objects.create(club=club, name=name) for name in ("Sepp", "Vroni", "Hias")
    ]
    evening = evenings.start_evening(runde, players, 0, admin)
    Membership.objects.filter(user=scorekeeper).update(role=Membership.Role.PLAYER)
    client.force_login(scorekeeper)

    undone = client.post(reverse("evenings:undo", args=[evening.pk]), {"v": evening.version})
    nowhere = client.post(reverse("evenings:undo", args=[evening.pk + 1000]), {"v": "1"})
    opened = client.get(reverse("evenings:seats", args=[evening.pk]))

    said = "Nichts gespeichert: das gibt es nicht mehr, oder es ist nicht mehr für dich. "
    assert undone.status_code == nowhere.status_code == opened.status_code == 404
    assert said in undone.text and said in nowhere.text
    assert "Diese Seite gibt es nicht, oder sie ist nicht für dich. Vielleicht" in opened.text
    assert "Zuschauer-Link" not in undone.text + opened.text


def test_the_evening_screen_s_script_gets_the_404_as_a_word_for_its_place(
    client, scorekeeper, admin, club, runde
):
    """A tap refused with a 404 shows the server's word where it was (evening.js): the
    same for an evening that exists and one that does not; a poll is told it follows no
    more."""
    from evenings import services as evenings

    players = [club.players.get()] + [
        Player.objects.create(club=club, name=name) for name in ("Sepp", "Vroni", "Hias")
    ]
    evening = evenings.start_evening(runde, players, 0, admin)
    Membership.objects.filter(user=scorekeeper).delete()
    client.force_login(scorekeeper)
    page = f"/abend/{evening.pk}/"
    script = {"HX-Request": "true", "HX-Current-URL": f"http://testserver{page}"}

    booked = client.post(reverse("evenings:book", args=[evening.pk]), {}, headers=script)
    nowhere = client.post(reverse("evenings:book", args=[evening.pk + 9]), {}, headers=script)
    polled = client.get(
        reverse("evenings:sheet", args=[evening.pk]), {"v": "1"},
        headers=script | {"HX-Trigger": "poll"},
    )  # fmt: skip

    assert booked.status_code == nowhere.status_code == polled.status_code == 404
    assert booked.text == nowhere.text
    assert booked.text.startswith('<div class="alert gone" role="alert">Nicht mehr möglich:')
    assert f'<a href="{page}">Seite neu laden</a>' in booked.text
    assert "<!doctype" not in booked.text.lower()
    assert "Das Blatt folgt nicht mehr." in polled.text


def test_the_operator_logs_in_to_the_admin_site_and_sees_it(client, admin):
    assert client.get("/betrieb/").status_code == 302  # to the operator's login
    assert client.get("/betrieb/login/").status_code == 200
    admin.is_staff = admin.is_superuser = True
    admin.save()
    client.force_login(admin)

    assert client.get("/betrieb/").status_code == 200
    assert client.get("/betrieb/auth/user/").status_code == 200


def test_a_form_refused_with_a_404_offers_the_way_back_to_the_page_it_came_from(
    client, scorekeeper, admin, club, runde
):
    """Made a Spieler with the evening open, a "Spiel 1 zurücknehmen" sent without script
    lands on the 404, which leads back to the evening (still theirs to follow); a Referer
    of another site, or "//elsewhere", is not offered."""
    from evenings import services as evenings

    players = [club.players.get()] + [
        Player.objects.create(club=club, name=name) for name in ("Sepp", "Vroni", "Hias")
    ]
    evening = evenings.start_evening(runde, players, 0, admin)
    Membership.objects.filter(user=scorekeeper).update(role=Membership.Role.PLAYER)
    client.force_login(scorekeeper)
    undo = reverse("evenings:undo", args=[evening.pk])
    page = f"/abend/{evening.pk}/"

    refused = client.post(undo, {"v": "0"}, headers={"referer": f"http://testserver{page}"})
    foreign = client.post(undo, {"v": "0"}, headers={"referer": f"http://evil.example{page}"})
    sneaky = client.post(undo, {"v": "0"}, headers={"referer": "http://testserver//evil.example/"})

    assert refused.status_code == foreign.status_code == sneaky.status_code == 404
    assert f'<a class="button" href="{page}">Zurück zur Seite</a>' in refused.text
    assert "Nichts gespeichert" in refused.text
    assert "Zurück zur Seite" not in foreign.text and "Zurück zur Seite" not in sneaky.text
