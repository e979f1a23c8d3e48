"""Hostile requests to every URL: never a 5xx, and refused input changes nothing.

The URL patterns come from the resolver, so a URL without a recipe here fails
`test_every_url_has_a_fuzz_recipe`. A recipe names the kinds of a URL's path parameters,
form fields and query parameters; hypothesis fills them with valid values of this club,
values of the other club (its ids and tokens) and hostile ones (NUL bytes, huge and
negative numbers, bigint overflow, very long strings, unicode, several values for one
field, missing fields), and sends them as the club's admin, Schreiber or player, the other
club's admin, or anonymously, with any method.

Random requests find combinations nobody thought of, but reach any one of them only now
and then; a sweep beside them sends each classic hostile value (a NUL byte, bigint
overflow) in each field and each path parameter of each URL in turn, the rest of the
request being what someone of the club would send.

Every answer is below 500. A GET never changes the database; neither does refused input
(a 4xx, a form shown again with an error, an error message, a redirect to the login page)
nor a preview. The comparison is a checksum of every row of the app's tables, except the
throttles' records and the sessions, which a refused login or reset rightly writes.
The clubs are made once for the module; each request runs in a savepoint that is rolled
back, so requests don't see each other.
"""

import dataclasses
import os
import re
import uuid
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from django.apps import apps
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.contrib.messages import constants as message_levels
from django.contrib.messages import get_messages
from django.db import connection, transaction
from django.forms import BaseForm
from django.shortcuts import resolve_url
from django.test import Client
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart
from django.test.utils import ContextList, override_settings
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs import services as clubs
from clubs.models import Invitation, LoginFailure, Membership, Player, ResetRequest, Session
from evenings import services
from evenings.models import Change, Game
from evenings.services import GameInput
from tests.conftest import PASSWORD, make_user
from tournaments import services as tournaments
from tournaments.models import Participant, Season

# A few hundred requests in all; FUZZ_EXAMPLES=200 for a long hunt.
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "8"))

# -- hostile values -----------------------------------------------------------------------

HOSTILE_TEXT = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "%00",
    "-1",
    "0",
    str(2**31),
    str(2**63 - 1),
    str(2**63),
    str(-(2**63) - 1),
    str(10**40),
    "1e309",
    "NaN",
    "-Infinity",
    "0x10",
    "1,5",
    "٣",
    "\U0001d7d9",  # a double-struck one: int() reads it as 1
    "x" * 10_000,
    "Ä" * 500,
    "😀",
    "\u202e",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "../../etc/passwd",
    "None",
    "true",
    # Near misses of the fields' own values.
    "10.000,01",
    "0,105",
    "-0,10",
    "farbsolo:blau",
    "chef",
    "15",
    "resi@",
]
# What broke before: NUL (PostgreSQL refuses it in text), beyond bigint, very long.
CLASSIC = ["\x00", "a\x00b", str(2**63), str(-(2**63) - 1), str(10**40), "x" * 10_000, "😀\u202e"]
hostile = st.one_of(
    st.sampled_from(CLASSIC),
    st.sampled_from(HOSTILE_TEXT),
    st.text(max_size=30),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
)
# Path values beyond what an int converter or a token may be: the resolver's 404, or a
# lookup that must not overflow.
HUGE_IDS = ["0", str(2**31), str(2**63 - 1), str(2**63), str(10**30)]

# Values of a kind that pass its field's validation, whatever the club's rows are.
FIXED = {
    "name": ["Wastl", "Sepp", "sEPP", "Neuer Name", "Donnerstagsrunde", "Montagsrunde"],
    "bool": ["on", "1", "0", "", "true", "false"],
    "role": ["admin", "schreiber", "spieler"],
    "small_int": ["0", "1", "2", "3", "4", "5", "6"],
    "euro": ["0,10", "1", "0,5", "1.000,00", "10.000,00"],
    "tariff_int": ["1", "3", "4", "8"],
    "bock": ["off", "ramsch", "ramsch_or_lost_solo"],
    "settle_unit": ["1", "10", "50", "100"],
    "spiel": [
        "sauspiel",
        "farbsolo:eichel",
        "farbsolo:herz",
        "wenz",
        "ramsch",
    ],
    "won": ["1", "0"],
    "kontra": ["0", "1", "2"],
    "doubled": ["0", "1", "4"],
    "laufende": ["0", "3", "4", "8"],
    "amount": ["10", "40", "80"],
    "page": ["1", "2", "99"],
    "zeitraum": ["dieses-jahr", "letztes-jahr", "alles"],
    "next": ["/", "/verein/neu/", "https://evil.example/", "//evil.example", "javascript:x"],
    "email": ["sepp@example.org", "SEPP@example.org", "neu@example.org"],
    "password": [PASSWORD, "Sauspiel-mit-der-Alten-42", "Herz-Solo-mit-Schneider-77", "kurz"],
    "username": ["sepp", "resi", "SEPP", "niemand", "neu"],
    "reset_token": ["set-password"],
    # The admin site's path parameters.
    "object_id": ["1", "2"],
    "id": ["1"],
    "content_type_id": ["1"],
    "app_label": ["auth", "clubs"],
    "url": ["", "clubs/"],
    # Tournaments
    "date": ["2026-03-14", "14.03.2026", "2026-02-30"],
    "rounds": ["1", "3", "10", "11"],
    "games": ["1", "40", "200", "201"],
    "number": ["1", "2", "3"],
    "seed": ["0", "1", "7", "2147483647"],
}

# The club's admin most often: most pages and forms are theirs.
ROLES = ["admin", "admin", "scorekeeper", "player", "outsider", "anonymous"]
METHODS = ["GET", "POST", "PUT", "DELETE"]


@dataclasses.dataclass
class World:
    """The cast's club with a second club beside it, a few evenings and every kind of row;
    `values` lists, per kind, the ids and tokens of both clubs, `own` those of the cast's
    club; a field of kind "seated" takes the players of the evening in the path."""

    users: dict[str, object]
    values: dict[str, list[str]]  # both clubs'
    own: dict[str, list[str]]  # the cast's club's only
    seated: dict[str, list[str]]  # evening id: its players' ids


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> Iterator[World]:
    """Built once for the module, in a transaction rolled back after its last test; each
    test runs in a savepoint inside it (the `db` fixture), each example in another."""
    fast = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    with django_db_blocker.unblock(), fast:
        try:
            with transaction.atomic():
                yield build_world()
                raise _Rollback
        except _Rollback:
            pass


def build_world() -> World:
    """Club A, the cast's (Resi admin, Hias Schreiber, Vroni player), and club B (Kathi's);
    Sepp has an account with an email address and no club."""
    admin = make_user("resi", "Resi")
    club = clubs.create_club(admin, "Schafkopffreunde Au")
    runde = clubs.create_runde(club, "Donnerstagsrunde", admin)
    scorekeeper = make_user("hias", "Hias")
    Membership.objects.create(user=scorekeeper, club=club, role=Membership.Role.SCOREKEEPER)
    user = get_user_model().objects.create_user(
        username="sepp", password=PASSWORD, first_name="Sepp", email="sepp@example.org"
    )
    vroni = make_user("vroni", "Vroni")
    Membership.objects.create(user=vroni, club=club, role=Membership.Role.PLAYER)
    kathi = make_user("kathi", "Kathi")
    other = clubs.create_club(kathi, "Kartler Giesing")
    other_runde = clubs.create_runde(other, "Montagsrunde", kathi)

    def seated(in_club, names):
        existing = {p.name: p for p in in_club.players.all()}
        return [existing.get(n) or Player.objects.create(club=in_club, name=n) for n in names]

    ours = seated(club, ["Sepp", "Vroni", "Hias", "Resi", "Wastl"])
    theirs = seated(other, ["Kathi", "Xaver", "Zenzi", "Loisl"])

    def evening_with(at, people, by, games: int, close: bool = False):
        evening = services.start_evening(at, people[:4], 0, by)
        for _ in range(games):
            playing = services.next_deal(evening).playing
            data = GameInput("sauspiel", declarer=playing[0].pk, partner=playing[2].pk, laufende=3)
            services.book_game(evening.pk, uuid.uuid4(), data, by)
        if close:
            services.close_evening(evening.pk, by)
        evening.refresh_from_db()
        return evening

    closed = evening_with(runde, ours, admin, 1, close=True)
    open_ = evening_with(runde, ours, admin, 3)
    # Not played yet: its seating can change (evenings:seats).
    fresh = evening_with(runde, ours[1:], admin, 0)
    services.void_game(open_.pk, open_.games.order_by("number").first().pk, admin)
    # A payment to take back ("Storno"), at the closed evening (one Sauspiel: two owe).
    balance = services.balances(closed)
    payer, payee = min(balance, key=balance.__getitem__), max(balance, key=balance.__getitem__)
    payment = services.record_payment(closed.pk, payer, payee, 10, admin)
    closed.refresh_from_db()
    other_evening = evening_with(other_runde, theirs, kathi, 1)
    invitations = [
        Invitation.objects.create(club=club, role="spieler", created_by=admin),
        Invitation.objects.create(club=other, role="admin", created_by=kathi),
    ]
    evenings = [open_, closed, other_evening, fresh]
    games = Game.objects.all()
    tournaments, seating = build_tournaments(admin, club, kathi, other)

    def deal_tokens():
        deals = [services.next_deal(e) for e in evenings]
        return [str(d.token) for d in deals if hasattr(d, "token")]

    players = [str(p.pk) for p in ours + theirs]
    values = {
        "club_id": [str(club.pk), str(other.pk)],
        "runde_id": [str(runde.pk), str(other_runde.pk)],
        "evening_id": [str(e.pk) for e in evenings],
        "game_id": [str(g.pk) for g in games],
        "change_id": [str(pk) for pk in Change.objects.values_list("pk", flat=True)],
        "player_id": players,
        "who": ["neu", *players],
        "membership_id": [str(pk) for pk in Membership.objects.values_list("pk", flat=True)],
        "invitation_id": [str(i.pk) for i in invitations],
        "token": [e.share_token for e in evenings] + [i.token for i in invitations],
        "user_id": [str(pk) for pk in get_user_model().objects.values_list("pk", flat=True)],
        "uuid": [str(uuid.uuid4()), *(str(g.key) for g in games)],
        "deal": deal_tokens(),
        "version": ["0", "1", *(str(e.version) for e in evenings)],
        "uidb64": [urlsafe_base64_encode(force_bytes(user.pk)), "MQ", "x"],
        "reset_token": [default_token_generator.make_token(user)],
        "tournament_id": [str(t.pk) for t in tournaments],
        "season_id": [str(pk) for pk in Season.objects.values_list("pk", flat=True)],
        "participant_id": [str(pk) for pk in Participant.objects.values_list("pk", flat=True)],
        "seating": [seating],
    }
    values["token"] += [t.display_token for t in tournaments]
    users = {"admin": admin, "scorekeeper": scorekeeper, "player": vroni, "outsider": kathi}
    seated = {str(e.pk): [str(pk) for pk in e.seats.values_list("player_id", flat=True)]
              for e in evenings}  # fmt: skip
    own = {
        "club_id": [str(club.pk)],
        "runde_id": [str(runde.pk)],
        "evening_id": [str(open_.pk), str(closed.pk), str(fresh.pk)],
        # The open evening's booked games first: those a correction may change.
        "game_id": [str(g.pk) for g in open_.games.booked()]
        + [str(g.pk) for g in games.filter(evening__runde=runde)],
        "change_id": [str(payment.pk)],
        "player_id": [str(p.pk) for p in ours],
        "membership_id": [str(pk) for pk in club.memberships.values_list("pk", flat=True)],
        "invitation_id": [str(invitations[0].pk)],
        "token": [open_.share_token, invitations[0].token, tournaments[0].display_token],
        # Round 1 drawn and not started first: the one the director's forms change.
        "tournament_id": [str(t.pk) for t in tournaments[:2]],
        "season_id": [str(tournaments[0].season_id)],
        "participant_id": [
            str(pk) for pk in tournaments[0].participants.values_list("pk", flat=True)
        ],
    }
    return World(users=users, values=values, own=own, seated=seated)


def build_tournaments(admin, club, kathi, other) -> tuple[list, str]:
    """Club A's tournament in a season with eight participants and round 1 drawn, its
    played one (a round of one game each, started and played), and club B's; and the
    seating token of the drawn round."""
    drawn = tournaments.create_tournament(
        club, admin, name="Stadtmeisterschaft", new_season="ProHof 2026"
    )
    tournaments.add_participants(drawn, list(club.players.all()[:5]))
    for name in ("Ferdl", "Burgi", "Zenzi"):
        tournaments.add_guest(drawn, name)
    round_ = tournaments.draw_round(drawn, seed=1, by=admin)
    played = tournaments.create_tournament(club, admin, name="Blitzturnier", games_per_round=1)
    tournaments.add_participants(played, list(club.players.all()[:4]))
    started = tournaments.start_round(tournaments.draw_round(played), admin)
    evening = started.tables.get().evening
    deal = services.next_deal(evening)
    data = GameInput("rufspiel", declarer=deal.playing[0].pk, partner=deal.playing[1].pk)
    services.book_game(evening.pk, uuid.uuid4(), data, admin)
    theirs = tournaments.create_tournament(other, kathi, name="Giesinger Turnier")
    return [drawn, played, theirs], tournaments.seating_token(round_)


# -- recipes ------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Recipe:
    """How to fill one URL: kinds of its form fields and query parameters; path parameters
    are of the kind of their name unless `path` says otherwise. `methods` are the ones the
    view answers (others are sent too, less often). A recipe that never writes (a preview)
    must leave the database unchanged whatever it is sent."""

    fields: dict[str, str] = dataclasses.field(default_factory=dict)
    query: dict[str, str] = dataclasses.field(default_factory=dict)
    path: dict[str, str] = dataclasses.field(default_factory=dict)
    methods: tuple[str, ...] = ("GET", "POST")
    writes: bool = True
    # Who sends the sweep's requests: the club's admin, or nobody for the account pages.
    role: str = "admin"


TARIFF = {
    **dict.fromkeys(
        ["sauspiel", "farbsolo", "wenz", "ramsch", "laufende", "schneider", "schwarz"], "euro"
    ),
    **dict.fromkeys(["laufende_min", "laufende_max", "laufende_min_wenz"], "tariff_int"),
    "bock": "bock",
    "jungfrau": "bool",
    "settle_unit": "settle_unit",
}
SEATING = {**{f"seat{i}": "player_id" for i in range(6)}, "first_dealer": "small_int"}
GAME = {
    "key": "uuid",
    "deal": "deal",
    "spiel": "spiel",
    "declarer": "seated",
    "partner": "seated",
    "won": "won",
    "laufende": "laufende",
    "laufende_wenz": "laufende",
    "schneider": "bool",
    "schwarz": "bool",
    "tout": "bool",
    "kontra": "kontra",
    "doubled": "doubled",
    "loser": "seated",
    "jungfrauen": "seated",
}
# The correction form opens beside the entry form on the evening screen: prefix k-.
CORRECTION = {f"k-{name}": kind for name, kind in GAME.items()}
SIGNUP = {
    "username": "username",
    "first_name": "name",
    "email": "email",
    "password1": "password",
    "password2": "password",
    "next": "next",
}
NEW_PASSWORD = {"new_password1": "password", "new_password2": "password"}
TOURNAMENT = {
    "name": "name",
    "venue": "name",
    "date": "date",
    "season": "season_id",
    "new_season": "name",
    "round_count": "rounds",
    "games_per_round": "games",
}
PAGE = Recipe(methods=("GET",))
BUTTON = Recipe(methods=("POST",))
POST = ("POST",)

RECIPES: dict[str, Recipe] = {
    "start": PAGE,
    "clubs:create": Recipe({"name": "name"}),
    "clubs:rename": Recipe({"name": "name"}),
    "clubs:detail": PAGE,
    "clubs:runde_create": Recipe({"name": "name"}),
    "clubs:runde_rename": Recipe({"name": "name"}),
    "clubs:runde": Recipe(query={"zeitraum": "zeitraum", "seite": "page"}, methods=("GET",)),
    "clubs:tariff": Recipe(TARIFF),
    "clubs:tariff_preview": Recipe(TARIFF, methods=POST, writes=False),
    "clubs:rules": PAGE,
    "clubs:rules_default": PAGE,
    "clubs:rules_prohof": PAGE,
    "clubs:players": Recipe({"name": "name", "active": "bool"}),
    "clubs:player_home": PAGE,
    "clubs:player_history": Recipe(
        query={"runde": "runde_id", "zeitraum": "zeitraum", "seite": "page"}, methods=("GET",)
    ),
    "clubs:player": Recipe({"name": "name", "active": "bool", "user": "user_id"}),
    "clubs:members": PAGE,
    "clubs:backup": PAGE,
    "clubs:leave": BUTTON,
    "clubs:delete": BUTTON,
    "clubs:member_role": Recipe({"role": "role"}, methods=POST),
    "clubs:member_remove": BUTTON,
    "clubs:player_delete": BUTTON,
    "clubs:invitation_create": Recipe({"role": "role", "player": "player_id"}, methods=POST),
    "clubs:invitation_revoke": BUTTON,
    "clubs:join": Recipe({"who": "who", "name": "name"}),
    "evenings:start": Recipe(SEATING),
    "evenings:seats": Recipe(SEATING | {"v": "version"}),
    "evenings:runde_balances": PAGE,
    "evenings:ausgleich": Recipe({"key": "uuid"}, methods=POST),
    "evenings:detail": PAGE,
    "evenings:book": Recipe(GAME, methods=POST),
    "evenings:preview": Recipe(GAME, methods=POST, writes=False),
    "evenings:sheet": Recipe(query={"v": "version", "deal": "deal"}, methods=("GET",)),
    "evenings:game": Recipe(CORRECTION),
    "evenings:correction_preview": Recipe(CORRECTION, methods=POST, writes=False),
    "evenings:void": BUTTON,
    "evenings:restore": BUTTON,
    "evenings:uncorrect": BUTTON,
    "evenings:undo": BUTTON,
    "evenings:history": PAGE,
    "evenings:print": PAGE,
    "evenings:csv": PAGE,
    "evenings:runde_csv": PAGE,
    "evenings:runde_payments_csv": PAGE,
    "evenings:settlement": Recipe(),
    "evenings:payment": Recipe(
        {"payer": "seated", "payee": "seated", "amount": "amount", "other_amount": "euro"},
        methods=POST,
    ),
    "evenings:payment_cancel": BUTTON,
    "evenings:reopen": BUTTON,
    "evenings:tariff": Recipe({"tarif": "version"}),
    "evenings:share": Recipe({"revoke": "bool"}, methods=POST),
    "evenings:live": Recipe(query={"v": "version"}, methods=("GET",)),
    "evenings:live_sheet": Recipe(query={"v": "version"}, methods=("GET",)),
    "healthz": PAGE,
    "tournaments:list": PAGE,
    "tournaments:create": Recipe(TOURNAMENT),
    "tournaments:season": Recipe({"name": "name"}),
    "tournaments:detail": PAGE,
    "tournaments:news": Recipe(query={"v": "version"}, methods=("GET",)),
    "tournaments:settings": Recipe(TOURNAMENT),
    "tournaments:delete": BUTTON,
    "tournaments:participants": Recipe({"players": "player_id"}, methods=POST),
    "tournaments:guest": Recipe({"name": "name"}, methods=POST),
    "tournaments:remove": BUTTON,
    "tournaments:draw": Recipe(
        {"number": "number", "replacing": "seed", "seed": "seed"}, methods=POST
    ),
    "tournaments:swap": Recipe(
        {"a": "participant_id", "b": "participant_id", "seating": "seating"}, methods=POST
    ),
    "tournaments:scorekeepers": Recipe({"tisch_1": "user_id", "tisch_2": "user_id"}, methods=POST),
    "tournaments:start": BUTTON,
    "tournaments:cards": PAGE,
    "tournaments:finish": BUTTON,
    "tournaments:reopen": BUTTON,
    "tournaments:reinstate": BUTTON,
    "tournaments:end_table": Recipe(path={"table": "number"}, methods=POST),
    "tournaments:ranking": PAGE,
    "tournaments:csv": PAGE,
    "tournaments:display_link": Recipe({"revoke": "bool"}, methods=POST),
    "tournaments:hall": PAGE,
    "signup": Recipe(SIGNUP, query={"next": "next"}, role="anonymous"),
    "profile": Recipe({"first_name": "name", "email": "email"}),
    "account_delete": Recipe({"password": "password"}, methods=POST),
    "login": Recipe(
        {"username": "username", "password": "password", "next": "next"},
        query={"next": "next"},
        role="anonymous",
    ),
    "logout": BUTTON,
    "password_change": Recipe({"old_password": "password", **NEW_PASSWORD}),
    "password_change_done": PAGE,
    "password_reset": Recipe({"email": "email"}, role="anonymous"),
    "password_reset_done": PAGE,
    "password_reset_confirm": Recipe(NEW_PASSWORD, path={"token": "reset_token"}, role="anonymous"),
    "password_reset_complete": PAGE,
    # Every page of the operator's admin site (Django's own), drawn one at a time.
    "admin": Recipe(
        {"username": "username", "password": "password", "q": "name"}, role="anonymous"
    ),
}
FIELD_NAMES = sorted({name for recipe in RECIPES.values() for name in recipe.fields})

# URLs known to answer 500 to some input, each with the request that shows it: xfail,
# not strict, until fixed, so the rest of the suite stays green meanwhile.
KNOWN_500S: dict[str, str] = {}


def url_patterns() -> Iterator[tuple[str, str]]:
    """(name, route) of every URL pattern; a pattern without a name is named by its route."""

    def walk(patterns, prefix: str, namespace: str | None):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = pattern.namespace or namespace
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
            elif isinstance(pattern, URLPattern):
                route = prefix + str(pattern.pattern)
                name = pattern.name or route
                yield (f"{namespace}:{name}" if namespace else name), route

    yield from walk(get_resolver().url_patterns, "", None)


def recipe_of(name: str) -> str:
    return "admin" if name.startswith("admin:") else name


def test_every_url_has_a_fuzz_recipe():
    names = {recipe_of(name) for name, _route in url_patterns()}

    assert names - RECIPES.keys() == set(), "URLs without a fuzz recipe"
    assert RECIPES.keys() - names == set(), "recipes for URLs that are gone"


# -- requests -----------------------------------------------------------------------------

PARAMETER = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>[^)]*\)")


@dataclasses.dataclass
class Request:
    role: str
    method: str
    path: str
    data: dict[str, object]
    htmx: bool
    writes: bool


def known(kind: str, world: World, path: dict[str, str], own: bool = False) -> list[str]:
    if kind == "seated":
        return world.seated.get(path.get("evening_id", ""), world.values["player_id"])
    if own and kind in world.own:
        return world.own[kind]
    return world.values.get(kind, []) + FIXED.get(kind, [])


def values_of(
    kind: str, world: World, path: dict[str, str], hostile_too: bool, own: bool = False
) -> st.SearchStrategy[str]:
    values = known(kind, world, path, own)
    if not values:
        return hostile
    return st.sampled_from(values) | hostile if hostile_too else st.sampled_from(values)


@st.composite
def requests(draw, name: str, world: World) -> Request:
    """A request to the URL `name`: mostly a method its view answers, path values of this
    club, the other one or beyond any id, and form fields in one of four ways: all with
    values that pass validation (to reach the writes), all but one (hostile or missing),
    each maybe missing, hostile or repeated, or one classic hostile value everywhere."""
    recipe = RECIPES[name]
    if name == "admin":
        routes = sorted(route for n, route in url_patterns() if n.startswith("admin:"))
        route = draw(st.sampled_from(routes))
    else:
        route = next(r for n, r in url_patterns() if n == name)
    mode = draw(st.sampled_from(["meaningful", "one bad", "mixed", "classic"]), label="mode")
    classic = draw(st.sampled_from(CLASSIC), label="classic") if mode == "classic" else None
    # As someone of the club would send it, so that the form's own checks are what's tested.
    insider = mode in {"meaningful", "one bad"}
    chosen: dict[str, str] = {}

    def fill(match: re.Match) -> str:
        parameter = match.group(1) or match.group(2)
        values = known(recipe.path.get(parameter, parameter), world, chosen, own=insider)
        strangeness = draw(st.integers(0, 9), label=f"{parameter}: 0-1 hostile, 2 huge")
        if classic is not None and strangeness < 4:
            value = classic
        elif insider and values:
            value = draw(st.sampled_from(values), label=parameter)
        elif strangeness < 2 or not values:
            value = draw(hostile, label=parameter)
        elif strangeness == 2:
            value = draw(st.sampled_from(HUGE_IDS), label=parameter)
        else:
            value = draw(st.sampled_from(values), label=parameter)
        chosen[parameter] = value
        return quote(value, safe="")

    path = "/" + PARAMETER.sub(fill, route).replace("^", "").replace("$", "")
    usual = draw(st.integers(0, 4), label="usual method?") > 0
    method = draw(st.sampled_from(recipe.methods if usual else METHODS), label="method")
    kinds = recipe.fields if method != "GET" else {**recipe.fields, **recipe.query}
    if mode == "classic":
        data = dict.fromkeys(kinds, classic)
    elif mode in {"meaningful", "one bad"}:
        meaningful = {
            field: values_of(kind, world, chosen, hostile_too=False, own=True)
            for field, kind in kinds.items()
        }
        data = draw(st.fixed_dictionaries(meaningful), label="data")
        if mode == "one bad" and kinds:
            bad = draw(st.sampled_from(sorted(kinds)), label="bad field")
            bad_value = st.sampled_from(CLASSIC) | hostile | st.just(None)
            data[bad] = draw(bad_value, label="bad value")
            if data[bad] is None:
                del data[bad]
    else:
        fields = {}
        for field, kind in kinds.items():
            one = values_of(kind, world, chosen, hostile_too=True)
            fields[field] = st.one_of(one, one, st.lists(one, min_size=2, max_size=3))
        data = draw(st.fixed_dictionaries({}, optional=fields), label="data")
        more = st.dictionaries(st.sampled_from(FIELD_NAMES), hostile, max_size=2)
        data |= draw(more, label="more data")
    roles = ["admin", "scorekeeper"] if insider else ROLES
    return Request(
        role=draw(st.sampled_from(roles)),
        method=method,
        path=path,
        data=data,
        htmx=draw(st.booleans()),
        writes=recipe.writes and method != "GET",
    )


# -- the database before and after ----------------------------------------------------------

UNCHECKED = {LoginFailure, ResetRequest, Session}


def app_tables() -> list[str]:
    models = [
        model
        for app in ("auth", "clubs", "evenings", "tournaments")
        for model in apps.get_app_config(app).get_models()
        if model not in UNCHECKED
    ]
    tables = {model._meta.db_table for model in models}
    tables |= {
        field.remote_field.through._meta.db_table
        for model in models
        for field in model._meta.local_many_to_many
    }
    return sorted(tables)


def checksum() -> dict[str, tuple[int, str]]:
    """Per table: its row count and an md5 of all its rows, in one query."""
    parts = [
        f"SELECT '{table}', count(*), "
        f"md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) FROM \"{table}\" t"
        for table in app_tables()
    ]
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts))
        return {table: (count, digest) for table, count, digest in cursor.fetchall()}


def forms_in(response) -> list[BaseForm]:
    context = response.context
    if context is None:
        return []
    contexts = context if isinstance(context, ContextList) else [context]
    return [
        value for c in contexts for value in c.flatten().values() if isinstance(value, BaseForm)
    ]


def refused(response) -> bool:
    """Whether the app said no: a 4xx, the login page, an error message or a form error."""
    if 400 <= response.status_code < 500:
        return True
    # Sent to log in first (with where to go next); a deleted account is sent to the
    # login page too, without: that one did what was asked.
    location = response.get("Location", "")
    if (
        response.status_code == 302
        and location.startswith(resolve_url(django_settings.LOGIN_URL))
        and "next=" in location
    ):
        return True
    if any(m.level >= message_levels.ERROR for m in get_messages(response.wsgi_request)):
        return True
    return any(form.is_bound and form.errors for form in forms_in(response))


class _Rollback(Exception):
    """Raised at the end of an example to roll its savepoint back."""


def send(world: World, request: Request) -> None:
    try:
        with transaction.atomic():
            client = Client()
            if request.role != "anonymous":
                client.force_login(world.users[request.role])
            before = checksum()
            if request.method == "GET":  # the fields as a query string, as a form would
                body, query = "", request.data
            else:
                body, query = encode_multipart(BOUNDARY, request.data), {}
            response = client.generic(
                request.method,
                request.path,
                body,
                content_type=MULTIPART_CONTENT,
                query_params=query,
                headers={"HX-Request": "true"} if request.htmx else {},
            )
            assert response.status_code < 500, response
            if not request.writes or refused(response):
                after = checksum()
                changed = sorted(table for table in before if before[table] != after[table])
                assert changed == [], f"{response.status_code}, changed: {changed}"
            raise _Rollback
    except _Rollback:
        pass


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=pytest.mark.xfail(reason=KNOWN_500S[name], strict=False))
        if name in KNOWN_500S
        else name
        for name in RECIPES
    ],
)
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_hostile_requests_never_fail_and_refused_ones_change_nothing(db, world, name, data):
    send(world, data.draw(requests(name, world), label="request"))


# -- one hostile value in one place, everywhere -----------------------------------------------

# Every field and every path parameter of every URL in turn gets each of these; the rest
# of the request is what the club's admin (on the account pages, a visitor) would send.
SWEEP = ["a\x00b", str(2**63)]


def usual_request(name: str, world: World, recipe: Recipe) -> tuple[str, dict[str, str], dict]:
    """The route, its path values and form fields as someone of the club sends them."""
    route = "betrieb/login/" if name == "admin" else next(r for n, r in url_patterns() if n == name)
    path: dict[str, str] = {}
    for match in PARAMETER.finditer(route):
        parameter = match.group(1) or match.group(2)
        path[parameter] = known(recipe.path.get(parameter, parameter), world, path, own=True)[0]
    method = "POST" if "POST" in recipe.methods else "GET"
    kinds = recipe.fields if method == "POST" else {**recipe.fields, **recipe.query}
    data, taken = {}, {}
    for field, kind in kinds.items():
        # Fields of one kind take different values: a payer and a payee, say.
        values = known(kind, world, path, own=True)
        data[field] = values[taken.get(kind, 0) % len(values)] if values else "1"
        taken[kind] = taken.get(kind, 0) + 1
    return route, path, {"method": method, "data": data}


def sweep(name: str, world: World) -> Iterator[Request]:
    recipe = RECIPES[name]
    route, path, usual = usual_request(name, world, recipe)

    def request(path_values: dict[str, str], data: dict[str, str]) -> Request:
        filled = PARAMETER.sub(
            lambda m: quote(path_values[m.group(1) or m.group(2)], safe=""), route
        )
        return Request(
            role=recipe.role,
            method=usual["method"],
            path="/" + filled,
            data=data,
            htmx=False,
            writes=recipe.writes and usual["method"] != "GET",
        )

    for value in SWEEP:
        for parameter in path:
            yield request(path | {parameter: value}, usual["data"])
        for field in usual["data"]:
            yield request(path, usual["data"] | {field: value})


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=pytest.mark.xfail(reason=KNOWN_500S[name], strict=False))
        if name in KNOWN_500S
        else name
        for name in RECIPES
    ],
)
def test_one_hostile_value_anywhere_never_fails_and_changes_nothing_when_refused(db, world, name):
    for request in sweep(name, world):
        send(world, request)
