"""Account journeys on a phone: signing up, and getting back in after a forgotten password."""

import re
from urllib.parse import urlsplit

from django.contrib.auth import get_user_model
from django.core import mail
from playwright.sync_api import expect

from clubs import services
from clubs.models import Membership

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
    # On the screen, where the cursor is, not below it under the user name.
    # Both fields come back empty: the cursor in the first, which says to type both.
    expect(page.get_by_text("Die beiden Passwörter waren nicht gleich.")).to_be_in_viewport()
    expect(page.get_by_label("Passwort", exact=True)).to_be_focused()
    expect(page.get_by_label("Vorname")).to_have_value("Vroni")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.get_by_label("Passwort", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("Passwort bestätigen").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Konto anlegen").click()

    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.get_by_role("heading", name="Servus, Vroni!")).to_be_visible()
    vroni = get_user_model().objects.get(username="vroni")
    assert (vroni.first_name, vroni.email) == ("Vroni", "vroni@example.org")


def test_a_password_refused_on_a_small_phone_says_why_in_view(page, db):
    """Walk 81: at 320 px the word for a password with a space at its end was below the
    screen, under the password's rules."""
    page.set_viewport_size({"width": 320, "height": 568})
    page.goto("/konto/registrieren/")
    page.get_by_label("Benutzername").fill("vroni")
    page.get_by_label("Vorname").fill("Vroni")
    page.get_by_label("E-Mail-Adresse").fill("vroni@example.org")
    page.get_by_label("Passwort", exact=True).fill(NEW_PASSWORD + " ")
    page.get_by_label("Passwort bestätigen").fill(NEW_PASSWORD + " ")
    page.get_by_role("button", name="Konto anlegen").click()

    expect(page.get_by_label("Passwort", exact=True)).to_be_focused()
    expect(
        page.get_by_text("Das Passwort beginnt oder endet mit einem Leerzeichen")
    ).to_be_in_viewport(ratio=1)
    assert not get_user_model().objects.exists()


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
    page.locator("main").get_by_role("link", name="Anmelden").click()
    page.get_by_label("Benutzername").fill("sepp")
    page.get_by_label("Passwort").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Anmelden").click()

    expect(page.get_by_role("heading", name="Servus, Sepp!")).to_be_visible()
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert not user.check_password(password)


def test_without_a_mail_server_the_reset_page_says_whom_to_ask(page, db, settings):
    # As `make run` serves without EMAIL_HOST: the mail would only reach the console.
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
    page.goto("/konto/login/")
    page.get_by_role("link", name="Passwort vergessen?").click()

    expect(page.get_by_text("Dieser Server verschickt keine E-Mails.")).to_be_visible()
    expect(page.get_by_text("wende dich an die Person, die die App betreibt")).to_be_visible()
    expect(page.get_by_text("make password user=BENUTZERNAME")).to_be_visible()
    expect(page.get_by_role("button", name="Link schicken")).to_have_count(0)
    expect(page.get_by_text("Schau in dein Postfach")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert mail.outbox == []


def test_a_long_first_name_leaves_abmelden_on_a_small_phone(page, user, log_in):
    user.first_name = "Maximilian-Bartholomäus-Korbinian-Wolfgang"
    user.save()
    page.set_viewport_size({"width": 320, "height": 640})
    log_in(user)
    page.goto("/")

    # The name ends in "…" (the whole of it in the tooltip), the page does not scroll
    # sideways, and "Abmelden" is on the screen.
    who = page.get_by_role("link", name=user.first_name)
    expect(who).to_have_attribute("title", user.first_name)
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    logout = page.get_by_role("button", name="Abmelden")
    expect(logout).to_be_in_viewport()
    box = logout.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 320
    logout.click()
    expect(page).to_have_url(re.compile(r"/konto/login/"))


def test_a_member_deletes_their_account_on_a_phone_after_a_typo(page, user, password, log_in):
    club = services.create_club(get_user_model().objects.create_user("resi"), "Kartler Au")
    Membership.objects.create(club=club, user=user, role=Membership.Role.PLAYER)
    club.players.create(name="Sepp", user=user)
    log_in(user).goto("/konto/profil/")

    page.get_by_text("Konto löschen …").click()  # a slip of the thumb ends here
    expect(page.get_by_text("Das lässt sich nicht rückgängig machen.")).to_be_visible()
    # ... and read with the button, which Tab reaches past it (walk 88).
    expect(
        page.get_by_role("button", name="Konto endgültig löschen")
    ).to_have_accessible_description(re.compile("Das lässt sich nicht rückgängig machen."))
    page.get_by_label("Dein Passwort").fill("vertippt")
    page.get_by_role("button", name="Konto endgültig löschen").click()

    expect(page.get_by_text("Das Passwort stimmt nicht.")).to_be_visible()
    assert get_user_model().objects.get(pk=user.pk).is_active
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.get_by_label("Dein Passwort").fill(password)
    page.get_by_role("button", name="Konto endgültig löschen").click()

    expect(page).to_have_url(re.compile(r"/konto/login/$"))
    expect(page.get_by_text("Dein Konto ist gelöscht.")).to_be_visible()
    page.get_by_label("Benutzername").fill("sepp")
    page.get_by_label("Passwort").fill(password)
    page.get_by_role("button", name="Anmelden").click()
    expect(page.get_by_text("Benutzername oder Passwort stimmt nicht.")).to_be_visible()
    assert club.players.get(name="Sepp").user is None
