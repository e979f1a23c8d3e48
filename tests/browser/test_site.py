"""Site-wide behaviour in the browser: forms left open in one tab still save after logging
in again in another, and an outdated form without JavaScript gets a German page."""

import re

from playwright.sync_api import expect

from clubs.models import Tariff
from tests.browser.evening_screen import PASSWORD, PHONE


def log_in_with_the_form(page, username: str) -> None:
    page.goto("/konto/login/")
    page.get_by_label("Benutzername").fill(username)
    page.get_by_label("Passwort").fill(PASSWORD)
    page.get_by_role("button", name="Anmelden").click()
    expect(page).to_have_url(re.compile(r"/$"))


def edit_the_tariff_and_log_in_again_elsewhere(page, club, runde, admin) -> None:
    log_in_with_the_form(page, admin.username)
    page.goto(f"/verein/{club.pk}/runde/{runde.pk}/tarif/")
    page.get_by_label("Sauspiel", exact=True).fill("0,20")
    assert page.locator("#tariff-form [name=csrfmiddlewaretoken]").input_value()
    log_in_again_in_another_tab(page, admin.username)


def log_in_again_in_another_tab(page, username: str) -> None:
    """Logging out and in again rotates the CSRF token: every form rendered before holds
    an old one."""
    other = page.context.new_page()
    other.goto("/")
    other.get_by_role("button", name="Abmelden").click()
    expect(other).to_have_url(re.compile(r"/konto/login/"))
    log_in_with_the_form(other, username)
    other.close()


def test_a_form_left_open_saves_after_logging_in_again_elsewhere(page, club, runde, admin):
    edit_the_tariff_and_log_in_again_elsewhere(page, club, runde, admin)
    page.get_by_role("button", name="Tarif speichern").click()

    expect(page.get_by_text("Der neue Tarif gilt ab dem nächsten Spielabend.")).to_be_visible()
    assert runde.tariffs.latest().sauspiel == 20
    assert Tariff.objects.filter(runde=runde).count() == 2


def test_an_outdated_form_without_javascript_gets_a_german_page_and_saves_nothing(
    browser, app_url, club, runde, admin
):
    context = browser.new_context(
        viewport=PHONE, java_script_enabled=False, locale="de-DE", base_url=app_url
    )
    page = context.new_page()
    edit_the_tariff_and_log_in_again_elsewhere(page, club, runde, admin)
    page.get_by_role("button", name="Tarif speichern").click()

    expect(page.get_by_role("heading", name="Diese Seite war veraltet")).to_be_visible()
    expect(page.get_by_text("Es wurde nichts gespeichert.")).to_be_visible()
    assert runde.tariffs.count() == 1
    context.close()
