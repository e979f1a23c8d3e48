"""Every main page at phone size, checked by axe-core: no serious or critical violation of
WCAG 2.1 A/AA or axe's best practices (tests/browser/axe.py).

Each page is its own test. A page is shown as a person meets it: with content (a club
with an inactive player, an open invitation, an evening with a Bock game, a correction),
logged in as the person who uses it.
"""

import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import pytest
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from playwright.sync_api import Page, expect

from clubs import services as club_services
from clubs.models import Club, Invitation, Membership, Player, Runde, Tariff
from evenings import services
from evenings.models import Evening, Game
from tests.browser.axe import assert_accessible, require_axe
from tests.browser.conftest import PHONE
from tests.browser.evening_screen import log_in_on
from tests.conftest import make_user

NAMES = ["Sepp", "Vroni", "Hias", "Resi"]


@dataclass
class World:
    """The club of tests/conftest.py (Resi admin, Hias Schreiber), filled in as far as
    the page under test needs: each part is made the first time a page asks for it."""

    admin: User
    scorekeeper: User
    outsider: User
    club: Club
    runde: Runde

    @cached_property
    def players(self) -> dict[str, Player]:
        existing = {p.name: p for p in self.club.players.all()}
        players = {
            name: existing.get(name) or Player.objects.create(club=self.club, name=name)
            for name in NAMES
        }
        # An inactive player, for the players list's contrast.
        Player.objects.create(club=self.club, name="Girgl", active=False)
        return players

    @cached_property
    def vroni(self) -> User:
        """A plain Spieler of the club, with an account, sitting as Vroni."""
        user = make_user("vroni", "Vroni")
        Membership.objects.create(user=user, club=self.club, role=Membership.Role.PLAYER)
        self.players["Vroni"].user = user
        self.players["Vroni"].save(update_fields=["user"])
        return user

    @cached_property
    def invitation(self) -> Invitation:
        return Invitation.objects.create(
            club=self.club, role=Membership.Role.PLAYER, created_by=self.admin
        )

    @cached_property
    def evening(self) -> Evening:
        """An open evening of four with a Sauspiel, a Ramsch, a Bock game after it, and a
        correction of the first game (Bock after every Ramsch in this Runde's tariff)."""
        proposed = self.runde.tariffs.latest()
        proposed.bock = Tariff.Bock.RAMSCH
        assert club_services.change_tariff(self.runde, proposed, self.admin) is not None
        p = {name: player.pk for name, player in self.players.items()}
        evening = services.start_evening(
            self.runde, [self.players[name] for name in NAMES], 0, self.scorekeeper
        )
        self.book(evening, type="sauspiel", declarer=p["Hias"], partner=p["Sepp"])
        self.book(evening, type="ramsch", won=False, loser=p["Resi"])
        self.book(evening, type="farbsolo", suit="herz", declarer=p["Vroni"])
        services.correct_game(
            evening.pk,
            self.first_game(evening).pk,
            services.GameInput(type="sauspiel", declarer=p["Hias"], partner=p["Sepp"], won=False),
            self.scorekeeper,
        )
        evening.refresh_from_db()
        return evening

    def book(self, evening: Evening, **fields) -> Game:
        key = uuid.uuid4()
        game, _ = services.book_game(
            evening.pk, key, services.GameInput(**fields), self.scorekeeper
        )
        return game

    @staticmethod
    def first_game(evening: Evening) -> Game:
        return Game.objects.get(evening=evening, number=1)

    @property
    def club_url(self) -> str:
        return f"/verein/{self.club.pk}"

    @property
    def runde_url(self) -> str:
        return f"{self.club_url}/runde/{self.runde.pk}"


@dataclass(frozen=True)
class Visit:
    """Who looks (a World attribute; None: nobody logged in), where, what of the World the
    page shows besides, and what the page must have done before it is checked."""

    user: str | None
    path: Callable[[World], str]
    shows: tuple[str, ...] = ()
    ready: Callable[[Page], None] = lambda page: None


def show_tariff_preview(page: Page) -> None:
    """Type a new Sauspiel amount and wait for the preview it asks for."""
    with page.expect_response(re.compile(r"/tarif/vorschau/$")):
        page.get_by_label("Sauspiel").fill("0,20")
    expect(page.locator("#preview .examples li").first).to_be_visible()
    expect(page.locator("#preview")).not_to_have_class(re.compile(r"\bhtmx-request\b"))


def password_reset_link(world: World) -> str:
    user = world.outsider
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return f"/konto/passwort-neu/{uid}/{default_token_generator.make_token(user)}/"


PAGES = {
    "start": Visit("admin", lambda w: "/"),
    "club": Visit("admin", lambda w: f"{w.club_url}/"),
    "players": Visit("admin", lambda w: f"{w.club_url}/spieler/", shows=("players",)),
    "player-edit": Visit("admin", lambda w: f"{w.club_url}/spieler/{w.players['Sepp'].pk}/"),
    "members": Visit("admin", lambda w: f"{w.club_url}/mitglieder/", shows=("invitation",)),
    "runde": Visit("admin", lambda w: f"{w.runde_url}/", shows=("evening",)),
    "tariff-editor": Visit("admin", lambda w: f"{w.runde_url}/tarif/", ready=show_tariff_preview),
    "runde-balances": Visit("admin", lambda w: f"{w.runde_url}/konten/", shows=("evening",)),
    "runde-balances-empty": Visit("admin", lambda w: f"{w.runde_url}/konten/"),
    "evening-start": Visit(
        "scorekeeper", lambda w: f"{w.runde_url}/abend/neu/", shows=("players",)
    ),
    "evening-as-schreiber": Visit("scorekeeper", lambda w: f"/abend/{w.evening.pk}/"),
    "evening-as-spieler": Visit("vroni", lambda w: f"/abend/{w.evening.pk}/"),
    "game-correction": Visit(
        "scorekeeper", lambda w: f"/abend/{w.evening.pk}/spiel/{w.first_game(w.evening).pk}/"
    ),
    "evening-history": Visit("scorekeeper", lambda w: f"/abend/{w.evening.pk}/verlauf/"),
    "settlement": Visit("scorekeeper", lambda w: f"/abend/{w.evening.pk}/abrechnung/"),
    "live-view": Visit(None, lambda w: f"/live/{w.evening.share_token}/"),
    "login": Visit(None, lambda w: "/konto/login/"),
    "signup": Visit(None, lambda w: "/konto/registrieren/"),
    "profile": Visit("admin", lambda w: "/konto/profil/"),
    "password-change": Visit("admin", lambda w: "/konto/passwort/"),
    "password-reset": Visit(None, lambda w: "/konto/passwort-vergessen/"),
    "password-reset-new-password": Visit(None, password_reset_link),
    "join": Visit("outsider", lambda w: f"/einladung/{w.invitation.token}/"),
    "not-found": Visit("admin", lambda w: "/gibt-es-nicht/"),
}

# Pages whose violations lie in templates rewritten elsewhere (evenings/*, clubs/*): page
# name -> the failing axe rules, e.g. "evening-as-schreiber": "label-content-name-mismatch".
KNOWN: dict[str, str] = {}


def cases() -> list:
    return [
        pytest.param(name, id=name, marks=[pytest.mark.xfail(strict=False, reason=KNOWN[name])])
        if name in KNOWN
        else pytest.param(name, id=name)
        for name in PAGES
    ]


@pytest.fixture
def phone_errors() -> list[str]:
    """The console errors of `phone`; a test that expects one takes it out."""
    return []


@pytest.fixture
def phone(browser, app_url, phone_errors):
    """A phone-sized page like the harness's `page`, whose expected errors (the 404 page's
    own status) a test can take out of `phone_errors`."""
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, locale="de-DE", base_url=app_url
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.on("console", lambda msg: phone_errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: phone_errors.append(str(exc)))
    yield page
    context.close()
    assert not phone_errors, f"the browser reported errors: {phone_errors}"


@pytest.mark.parametrize("name", cases())
def test_the_page_has_no_serious_accessibility_violation(
    name, phone, phone_errors, app_url, admin, scorekeeper, user, club, runde
):
    require_axe()
    world = World(admin=admin, scorekeeper=scorekeeper, outsider=user, club=club, runde=runde)
    visit = PAGES[name]
    for part in visit.shows:
        getattr(world, part)
    path = visit.path(world)
    if visit.user is not None:
        log_in_on(phone, getattr(world, visit.user), app_url)

    response = phone.goto(path)

    if name == "not-found":
        assert response.status == 404
        phone_errors[:] = [e for e in phone_errors if "status of 404" not in e]
    else:
        assert response.status == 200, f"{path} answered {response.status}"
    visit.ready(phone)
    assert_accessible(phone, name)
