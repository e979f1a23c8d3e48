"""The evening screen as the browser tests see it: seating an evening, phones, and the
locators of the entry form and the sheet. Shared by the evening journeys."""

import io
import re
import uuid
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.core.management import call_command
from django.db.models import Sum
from playwright.sync_api import Locator, Page, expect

from clubs.sessions import SessionStore
from evenings import services
from evenings.models import Evening, Game, LedgerEntry

PHONE = {"width": 390, "height": 844}
NAMES = ["Sepp", "Vroni", "Hias", "Resi", "Wastl", "Kathi"]
MIN_TAP_HEIGHT = 44


PASSWORD = "Geheim-123-Schafkopf"


def start(runde, players, names: list[str], by, dealer: int = 0) -> Evening:
    return services.start_evening(runde, [players[name] for name in names], dealer, by)


def book(evening: Evening, by, **fields) -> Game:
    """Book a game without the screen, for journeys that need games to exist already."""
    game, created = services.book_game(evening.pk, uuid.uuid4(), services.GameInput(**fields), by)
    assert created
    return game


def two_sauspiele(runde, players: dict, by) -> Evening:
    """Sepp, Vroni, Hias and Resi at the table, and two games booked, both won: Vroni's
    Sauspiel with Resi, then Hias's with Sepp."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], by)
    p = {name: player.pk for name, player in players.items()}
    book(evening, by, type="sauspiel", declarer=p["Vroni"], partner=p["Resi"])
    book(evening, by, type="sauspiel", declarer=p["Hias"], partner=p["Sepp"])
    return evening


# -- phones -----------------------------------------------------------------------------


def log_in_on(page: Page, user, app_url: str) -> Page:
    """The harness's `log_in`, for any page: a session cookie instead of the login form."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "url": app_url}]
    )
    return page


@dataclass
class Phone:
    page: Page
    errors: list[str] = field(default_factory=list)

    def caused(self, expected: str) -> None:
        """The console errors a step caused on purpose (a refused request, an aborted
        one): there are some, each matches `expected`, and they are taken out; any other
        still fails the test."""
        pattern = re.compile(expected)
        assert self.errors and all(pattern.search(e) for e in self.errors), self.errors
        self.errors.clear()


class Taps:
    """Counts what the scorekeeper does on the glass on the evening screen: every call is
    one tap.

    After each tap it waits until the preview has caught up, as a person glancing at the
    sticky bar does. A tap made while a preview is still on its way is lost to the preview
    (see test_the_preview_keeps_up_with_quick_taps_on_a_slow_network); these journeys are
    about booking, so they do not race it.
    """

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0

    def __call__(self, target: Locator) -> None:
        target.tap()
        self.count += 1
        preview_settled(self.page)


def preview_settled(page: Page) -> None:
    """Wait until no preview request is in flight (htmx marks the element meanwhile)."""
    expect(page.locator(".preview-line.htmx-request")).to_have_count(0)


# -- the screen -------------------------------------------------------------------------


def chip(page: Page, name: str, label: str) -> Locator:
    """The chip `label` of the entry form's field `name` ("spiel", "declarer", ...)."""
    return page.locator(f".f-{name} .chips").get_by_text(label, exact=True)


def chip_labels(page: Page, name: str) -> Locator:
    return page.locator(f".f-{name} .chip > span")


def save_button(page: Page) -> Locator:
    return page.get_by_role("button", name="Speichern", exact=True)


def preview(page: Page) -> Locator:
    """What each player gets in the sticky bar, e.g. "Vroni +0,10 €"."""
    return page.locator("#preview .who-gets")


def flash(page: Page) -> Locator:
    return page.locator("#live .inline-messages")


def totals(page: Page) -> Locator:
    """The sheet's running totals in seating order."""
    return page.locator("#sheet tfoot td")


def sheet_row(page: Page, number: int) -> Locator:
    """Game `number` on the sheet: its caption line and its line of amounts."""
    return page.locator("#sheet tbody.game").nth(number - 1)


BOCK = re.compile(r"\bbock\b")


def deltas(row: Locator) -> Locator:
    return row.locator("td .delta")


def amounts(game: Game) -> dict[str, int]:
    """What the ledger holds for `game` per player name, in cents."""
    rows = (
        LedgerEntry.objects.filter(game=game, kind=LedgerEntry.Kind.GAME)
        .values_list("player__name")
        .annotate(total=Sum("amount"))
        .values_list("player__name", "total")
    )
    return dict(rows)


def change_kinds(evening: Evening) -> list[str]:
    return list(evening.changes.values_list("kind", flat=True))


def no_horizontal_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def broken_words(page: Page, selector: str) -> list[str]:
    """The words in the elements matching `selector` that are split across two lines."""
    return page.evaluate(
        """selector => [...document.querySelectorAll(selector)].flatMap(el => {
            const words = [], walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            for (let node; (node = walker.nextNode());) {
                for (const word of node.data.matchAll(/\\S+/g)) {
                    const range = document.createRange();
                    range.setStart(node, word.index);
                    range.setEnd(node, word.index + word[0].length);
                    const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                    if (lines.size > 1) words.push(word[0]);
                }
            }
            return words;
        })""",
        selector,
    )


def open_share_section(page: Page) -> None:
    """Unfold "Zuschauen ohne Konto (QR-Code)" unless it is open already (it lies outside
    the region HTMX swaps, so it stays open across bookings)."""
    share = page.locator("details.share")
    if share.get_attribute("open") is None:
        share.get_by_text("Zuschauen ohne Konto (QR-Code)").tap()
    expect(share).to_have_attribute("open", "")


def verify_ledger() -> str:
    out = io.StringIO()
    call_command("verify_ledger", stdout=out)
    return out.getvalue()


def enter_sauspiel(page: Page, declarer: str, partner: str) -> None:
    """Two taps, and the preview shows the four amounts."""
    tap = Taps(page)
    tap(chip(page, "declarer", declarer))
    tap(chip(page, "partner", partner))
    expect(preview(page)).to_have_count(4)


def book_sauspiel(page: Page, number: int, declarer: str, partner: str) -> None:
    tap = Taps(page)
    tap(chip(page, "declarer", declarer))
    tap(chip(page, "partner", partner))
    tap(save_button(page))
    expect(flash(page)).to_contain_text(f"Gebucht: Spiel {number}, Sauspiel {declarer}")
