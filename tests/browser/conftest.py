"""The browser-test harness: the app served on a free local port, a phone-sized page.

Chromium is the system one (/usr/bin/chromium, or $CHROMIUM); Playwright's own browser
download is not used. Without Chromium the browser tests are skipped with a reason, except
in CI (CI=true), where a missing browser is an error: .ci/run installs it.
"""

import os
import shutil
from pathlib import Path

import pytest

from clubs import services as club_services
from clubs.models import Player, Tariff
from tests.browser.evening_screen import NAMES, PHONE, Phone, log_in_on

# Playwright's sync API runs an event loop in this thread; the ORM calls made by the test
# itself (fixtures, assertions on the database) are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _chromium() -> str | None:
    configured = os.environ.get("CHROMIUM")
    candidates = [configured] if configured else ["/usr/bin/chromium", shutil.which("chromium")]
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def pytest_collection_modifyitems(config, items):
    for item in items:
        if Path(str(item.fspath)).is_relative_to(Path(__file__).parent):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    executable = _chromium()
    if executable is None:
        reason = (
            "Chromium not found at /usr/bin/chromium (or $CHROMIUM); "
            "install it with `apt-get install chromium` (Debian/Ubuntu)"
        )
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def app_url(live_server) -> str:
    """The app, served over real HTTP on a free local port, on the test database."""
    return live_server.url


@pytest.fixture
def page(browser, app_url):
    """A fresh phone-sized page (390x844, touch) whose console errors fail the test.

    CSP violations and JavaScript errors show up as console errors, so a page that breaks
    the Content Security Policy cannot pass unnoticed.
    """
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, locale="de-DE", base_url=app_url
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, f"the browser reported errors: {errors}"


@pytest.fixture
def log_in(page, app_url):
    """Log a user in without the login form, by handing the browser a session cookie."""

    def log_in(user):
        return log_in_on(page, user, app_url)

    return log_in


# -- the evening journeys' cast and their second phones ---------------------------------


@pytest.fixture
def schreiber(scorekeeper):
    """Hias, the club's Schreiber (tests/conftest.py)."""
    return scorekeeper


@pytest.fixture
def players(club) -> dict[str, Player]:
    """Sepp, Vroni, Hias, Resi, Wastl, Kathi by name (Resi is the admin's player)."""
    existing = {p.name: p for p in club.players.all()}
    return {
        name: existing.get(name) or Player.objects.create(club=club, name=name) for name in NAMES
    }


@pytest.fixture
def bock_runde(runde, admin):
    """The Runde with a new tariff version that plays a Bockrunde after every Ramsch."""
    proposed = runde.tariffs.latest()
    proposed.bock = Tariff.Bock.RAMSCH
    assert club_services.change_tariff(runde, proposed, admin) is not None
    return runde


@pytest.fixture
def open_phone(browser, app_url):
    """Another phone: its own browser context, phone-sized. Its console errors fail the
    test like the `page` fixture's, except those a test takes out of `phone.errors`
    because it caused them on purpose."""
    opened: list[tuple[object, Phone]] = []

    def open_phone(user=None, *, init_script: str = "", permissions: tuple[str, ...] = ()):
        context = browser.new_context(
            viewport=PHONE, is_mobile=True, has_touch=True, locale="de-DE", base_url=app_url
        )
        context.grant_permissions(list(permissions), origin=app_url)
        if init_script:
            context.add_init_script(init_script)
        phone = Phone(context.new_page())
        phone.page.set_default_timeout(10_000)
        phone.page.on(
            "console", lambda msg: phone.errors.append(msg.text) if msg.type == "error" else None
        )
        phone.page.on("pageerror", lambda exc: phone.errors.append(str(exc)))
        if user is not None:
            log_in_on(phone.page, user, app_url)
        opened.append((context, phone))
        return phone

    yield open_phone
    for context, _phone in opened:
        context.close()
    errors = [error for _context, phone in opened for error in phone.errors]
    assert not errors, f"another phone reported errors: {errors}"
