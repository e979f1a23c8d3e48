"""Account journeys on a phone: signing up, and getting back in after a forgotten password."""

import re
from urllib.parse import urlsplit

from django.contrib.auth import get_user_model
from django.core import mail
from playwright.sync_api import expect

NEW_PASSWORD = "Herz-Solo-mit-Schneider-77"


def test_a_newcomer_signs_up_on_a_phone_and_lands_on_the_start_page(page, db):
    page.goto("/")
    expect(page).to_have_url(re.compile(r"/konto/login/\?next=/$"))
    page.get_by_role("link", name="Konto anlegen").click()

    expect(page).to_have_url(re.compile(r"/konto/registrieren/\?next=/$"))
    page.get_by_label("Benutzername").fill("vroni")
    page.get_by_label("Vorname").fill("Vroni")
    page.get_by_label("E-Mail-Adresse").fill("vroni@example.org")
    page.get_by_label("Passwort", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("Passwort bestätigen").fill("vertippt")
    page.get_by_role("button", name="Konto anlegen").click()

    # A typo in the repetition: the form says so at the field and keeps the rest.
    expect(page.get_by_text("Die beiden Passwörter sind nicht identisch.")).to_be_visible()
    expect(page.get_by_label("Vorname")).to_have_value("Vroni")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.get_by_label("Passwort", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("Passwort bestätigen").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Konto anlegen").click()

    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.get_by_role("heading", name="Servus, Vroni!")).to_be_visible()
    vroni = get_user_model().objects.get(username="vroni")
    assert (vroni.first_name, vroni.email) == ("Vroni", "vroni@example.org")


def test_a_user_resets_a_forgotten_password_through_the_email_link(page, user, password):
    page.goto("/konto/login/")
    page.get_by_role("link", name="Passwort vergessen?").click()
    page.get_by_label("E-Mail-Adresse").fill("sepp@example.org")
    page.get_by_role("button", name="Link schicken").click()

    expect(page.get_by_role("heading", name="Schau in dein Postfach")).to_be_visible()
    (message,) = mail.outbox  # the live server runs in this process
    link = re.search(r"https?://\S+/konto/passwort-neu/\S+/", message.body).group(0)
    page.goto(urlsplit(link).path)
    page.get_by_label("Neues Passwort", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("Neues Passwort bestätigen").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Passwort speichern").click()

    expect(page.get_by_role("heading", name="Passwort gespeichert")).to_be_visible()
    page.get_by_role("link", name="Anmelden").click()
    page.get_by_label("Benutzername").fill("sepp")
    page.get_by_label("Passwort").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Anmelden").click()

    expect(page.get_by_role("heading", name="Servus, Sepp!")).to_be_visible()
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert not user.check_password(password)
