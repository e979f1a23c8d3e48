import re

from playwright.sync_api import expect


def test_a_user_logs_in_on_a_phone_and_sees_the_start_page(page, user, password):
    page.goto("/")

    expect(page).to_have_url(re.compile(r"/konto/login/\?next=/$"))
    page.get_by_label("Benutzername").fill("sepp")
    page.get_by_label("Passwort").fill(password)
    page.get_by_role("button", name="Anmelden").click()

    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.get_by_role("heading", name="Servus, Sepp!")).to_be_visible()
    assert page.evaluate("htmx.version").startswith("2.")
    # Nothing is wider than the phone: no horizontal scrolling.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_wrong_password_gets_a_german_message_and_no_session(page, user):
    page.goto("/konto/login/")
    page.get_by_label("Benutzername").fill("sepp")
    page.get_by_label("Passwort").fill("falsch")
    page.get_by_role("button", name="Anmelden").click()

    expect(page.get_by_role("alert")).to_have_text(
        "Benutzername oder Passwort stimmt nicht. Beim Passwort zählen Groß- und Kleinschreibung "
        "und jedes Leerzeichen."
    )
    # The page opens on the message, which a screen reader then reads (not on the name).
    expect(page.get_by_role("alert")).to_be_focused()
    assert not any(c["name"] == "sessionid" for c in page.context.cookies())


def test_the_harness_logs_a_user_in_directly(log_in, page, user):
    log_in(user).goto("/")

    expect(page.get_by_role("heading", name="Servus, Sepp!")).to_be_visible()
