"""Club journeys on a phone: founding a club, setting up a Runde and its tariff with the
live preview, and inviting someone by link."""

import re
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import (
    get_user_model,
)
from playwright.sync_api import expect

from clubs import services
from clubs.models import Club, Invitation, Membership, Player, Runde, Tariff
from tests.browser.evening_screen import log_in_on

PHONE = {"width": 390, "height": 844}
NEW_PASSWORD = "Herz-Solo-mit-Schneider-77"


@pytest.fixture
def second_phone_errors() -> list[str]:
    """The console errors of `second_phone`; a test that expects one takes it out."""
    return []


@pytest.fixture
def second_phone(browser, app_url, second_phone_errors):
    """Another person's phone: a separate browser context, phone-sized, whose console
    errors fail the test just like the `page` fixture's."""
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, locale="de-DE", base_url=app_url
    )
    other = context.new_page()
    other.set_default_timeout(10_000)
    errors = second_phone_errors
    other.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    other.on("pageerror", lambda exc: errors.append(str(exc)))
    yield other
    context.close()
    assert not errors, f"the second browser reported errors: {errors}"


@pytest.fixture
def resi(db):
    return get_user_model().objects.create_user(
        username="resi", password="Geheim-123-Schafkopf", first_name="Resi"
    )


@pytest.fixture
def club(resi):
    return services.create_club(resi, "Schafkopffreunde Au")


def no_horizontal_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_an_admin_founds_a_club_and_sets_the_tariff_with_a_live_preview(page, log_in, user):
    log_in(user).goto("/")

    # 1. Found the club from the start page.
    page.get_by_role("link", name="Verein gründen").click()
    page.get_by_label("Name").fill("Stammtisch Haidhausen")
    page.get_by_role("button", name="Verein anlegen").click()
    expect(page.get_by_role("heading", name="Stammtisch Haidhausen")).to_be_visible()
    expect(page.get_by_text("Du bist hier Admin.")).to_be_visible()
    club = Club.objects.get(name="Stammtisch Haidhausen")
    assert Membership.objects.get(club=club, user=user).role == Membership.Role.ADMIN

    # 2. Create a Runde: it starts with the ordinary Zehner tariff.
    page.get_by_role("link", name="Runde anlegen").click()
    page.get_by_label("Name").fill("Donnerstagsrunde")
    page.get_by_role("button", name="Runde anlegen").click()
    expect(page.get_by_role("heading", name="Donnerstagsrunde")).to_be_visible()
    runde = Runde.objects.get(club=club)
    expect(page).to_have_url(re.compile(rf"/verein/{club.pk}/runde/{runde.pk}/$"))
    no_horizontal_scroll(page)

    # 3. Open the tariff: the preview prices typical games under the current values.
    page.get_by_role("link", name="Tarif ändern").click()
    sauspiel = page.get_by_label("Sauspiel", exact=True)
    expect(sauspiel).to_have_value("0,10")
    first_example = page.locator("#preview .examples li").first
    expect(first_example.locator("strong")).to_have_text("Sauspiel gewonnen")
    expect(first_example.locator(".amount")).to_have_text("0,10 €")
    no_horizontal_scroll(page)
    # A marker on the window survives HTMX swaps but not a page load.
    page.evaluate("window.stillTheSamePage = true")

    # 4. Typing a new value updates the preview in place.
    sauspiel.fill("0,20")
    expect(first_example.locator(".amount")).to_have_text("0,20 €")
    assert page.evaluate("window.stillTheSamePage") is True

    # 5. Nonsense in a field: the preview waits for valid values.
    page.get_by_label("Wenz", exact=True).fill("abc")
    expect(page.locator("#preview")).to_contain_text(
        "Die Vorschau erscheint, sobald alle Werte gültig sind."
    )
    expect(page.locator("#preview .examples")).to_have_count(0)
    page.get_by_label("Wenz", exact=True).fill("1,00")
    expect(first_example.locator(".amount")).to_have_text("0,20 €")
    assert page.evaluate("window.stillTheSamePage") is True

    # 6. Save: back on the Runde with the new tariff in force and the old one on record.
    page.get_by_role("button", name="Tarif speichern").click()
    expect(page).to_have_url(re.compile(rf"/verein/{club.pk}/runde/{runde.pk}/$"))
    expect(page.get_by_text("Der neue Tarif gilt ab dem nächsten Spielabend.")).to_be_visible()
    expect(page.locator("ol.history > li")).to_have_count(2)
    expect(page.locator("ol.history > li").first).to_contain_text("aktuell")
    no_horizontal_scroll(page)

    new, old = Tariff.objects.filter(runde=runde).order_by("-valid_from", "-pk")
    assert (new.sauspiel, new.wenz, new.farbsolo, new.ramsch) == (20, 100, 50, 10)
    assert new.created_by == user
    assert (old.sauspiel, old.wenz) == (10, 50)
    assert new.valid_from > old.valid_from


def create_invitation_link(page, club, role_label: str) -> str:
    """On the members page, make a link for `role_label` and read it from its field."""
    page.goto(f"/verein/{club.pk}/mitglieder/")
    form = page.locator("form").filter(
        has=page.get_by_role("button", name="Einladungslink erzeugen")
    )
    form.get_by_label("Rolle").select_option(label=role_label)
    form.get_by_role("button", name="Einladungslink erzeugen").click()
    expect(page.get_by_text("Die Einladung ist angelegt. Teile den Link.")).to_be_visible()
    link_field = page.get_by_label("Einladungslink")
    expect(link_field).to_have_attribute("readonly", "")
    no_horizontal_scroll(page)
    return link_field.input_value()


def test_an_invited_newcomer_signs_up_and_joins_as_schreiber(
    page, log_in, second_phone, club, resi
):
    log_in(resi)
    link = create_invitation_link(page, club, "Schreiber")
    invitation = Invitation.objects.get(club=club)
    assert link.endswith(f"/einladung/{invitation.token}/")
    path = urlsplit(link).path

    # The newcomer, on their own phone, has no account yet: sign up first, then back.
    second_phone.goto(link)
    expect(second_phone).to_have_url(re.compile(rf"/konto/registrieren/\?next={re.escape(path)}$"))
    second_phone.get_by_label("Benutzername").fill("hias")
    second_phone.get_by_label("Vorname").fill("Hias")
    second_phone.get_by_label("E-Mail-Adresse").fill("hias@example.org")
    second_phone.get_by_label("Passwort", exact=True).fill(NEW_PASSWORD)
    second_phone.get_by_label("Passwort bestätigen").fill(NEW_PASSWORD)
    second_phone.get_by_role("button", name="Konto anlegen").click()

    expect(second_phone).to_have_url(re.compile(rf"{re.escape(path)}$"))
    expect(second_phone.get_by_role("heading")).to_have_text(
        "Einladung in den Verein Schafkopffreunde Au"
    )
    expect(second_phone.get_by_text("Du wirst als Schreiber aufgenommen.")).to_be_visible()
    no_horizontal_scroll(second_phone)
    second_phone.get_by_role("button", name="Beitreten").click()

    expect(second_phone).to_have_url(re.compile(rf"/verein/{club.pk}/$"))
    expect(second_phone.get_by_text("Willkommen im Verein Schafkopffreunde Au!")).to_be_visible()
    expect(second_phone.get_by_role("heading", name="Schafkopffreunde Au")).to_be_visible()
    expect(second_phone.get_by_text("Du bist hier Schreiber.")).to_be_visible()

    hias = get_user_model().objects.get(username="hias")
    assert Membership.objects.get(club=club, user=hias).role == Membership.Role.SCOREKEEPER
    assert Player.objects.get(club=club, user=hias).name == "Hias"


def test_a_revoked_invitation_link_no_longer_lets_anyone_in(
    page, log_in, second_phone, second_phone_errors, app_url, club, resi, user
):
    log_in(resi)
    link = create_invitation_link(page, club, "Spieler")
    page.get_by_text("Widerrufen …").click()  # two taps: a slip does not kill a link
    page.get_by_role("button", name="Link widerrufen").click()
    expect(page.get_by_text("Die Einladung ist widerrufen")).to_be_visible()
    expect(page.get_by_label("Einladungslink")).to_have_count(0)

    log_in_on(second_phone, user, app_url)
    response = second_phone.goto(link)

    expect(second_phone.get_by_text("Diese Einladung gilt nicht mehr")).to_be_visible()
    assert response.status == 200
    expect(second_phone.get_by_role("button", name="Beitreten")).to_have_count(0)
    assert not Membership.objects.filter(club=club, user=user).exists()
    assert not Player.objects.filter(club=club, user=user).exists()


def test_removing_a_member_takes_a_second_tap_that_names_who_loses_access(
    page, log_in, app_url, club, resi, user
):
    Membership.objects.create(club=club, user=user, role=Membership.Role.PLAYER)
    log_in(resi)
    page.goto(f"/verein/{club.pk}/mitglieder/")
    card = page.locator(".card.member").filter(has_text=user.get_short_name())
    remove = card.get_by_role("button", name=f"Zugang von {user.get_short_name()} entfernen")
    expect(remove).to_be_hidden()
    # Each control says whose it is, for a screen reader going through the list.
    name = user.get_short_name()
    expect(page.get_by_role("combobox", name=f"Rolle von {name}", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name=f"Ändern ({name})", exact=True)).to_be_visible()
    expect(page.locator("summary").filter(has_text=f"Entfernen … ({name})")).to_have_count(1)

    card.get_by_text("Entfernen …").click()  # a slip of the thumb ends here
    assert Membership.objects.filter(club=club, user=user).exists()
    expect(remove).to_be_visible()
    no_horizontal_scroll(page)
    remove.click()

    expect(page.get_by_text("Der Zugang ist entfernt; gebuchte Spiele bleiben.")).to_be_visible()
    assert not Membership.objects.filter(club=club, user=user).exists()
    assert Membership.objects.filter(club=club, user=resi, role=Membership.Role.ADMIN).exists()


def test_a_member_who_leaves_is_told_on_their_start_page_and_comes_back_as_their_player(
    page, log_in, second_phone, app_url, club, resi, user
):
    Membership.objects.create(club=club, user=user, role=Membership.Role.PLAYER)
    sepp = Player.objects.create(club=club, name="Seppi", user=user)
    log_in_on(second_phone, user, app_url).goto(f"/verein/{club.pk}/")

    second_phone.get_by_text("Verein verlassen …").click()
    second_phone.get_by_role("button", name="Ja, Schafkopffreunde Au verlassen").click()

    expect(second_phone).to_have_url(re.compile(r"/$"))
    expect(second_phone.get_by_role("heading", name="Früher dabei")).to_be_visible()
    departure = second_phone.get_by_role("region", name="Schafkopffreunde Au")
    expect(departure).to_contain_text("du hast den Verein am")
    expect(departure).to_contain_text("Deine Konten dort sind ausgeglichen.")
    expect(departure).to_contain_text("trittst du wieder als Seppi bei, mit deinen Spielen")
    no_horizontal_scroll(second_phone)
    # The admin sees who left, and sends a link for anyone.
    log_in(resi).goto(f"/verein/{club.pk}/mitglieder/")
    expect(page.locator(".departures")).to_contain_text("Sepp (spielte als Seppi): am ")
    link = create_invitation_link(page, club, "Spieler")

    second_phone.goto(link)
    expect(second_phone.get_by_text("Du hast im Verein als Seppi gespielt")).to_be_visible()
    expect(second_phone.get_by_label("Dein Name im Verein")).to_have_count(0)
    second_phone.get_by_role("button", name="Beitreten").click()

    expect(second_phone.get_by_text("Willkommen im Verein Schafkopffreunde Au!")).to_be_visible()
    sepp.refresh_from_db()
    assert sepp.user == user
    assert list(Player.objects.filter(club=club, user=user)) == [sepp]
    second_phone.goto("/")
    expect(second_phone.get_by_role("heading", name="Früher dabei")).to_have_count(0)


def test_a_club_founded_by_mistake_is_deleted_in_two_taps(page, log_in, user):
    log_in(user).goto("/")
    page.get_by_role("link", name="Verein gründen").click()
    page.get_by_label("Name").fill("Testverein")
    page.get_by_role("button", name="Verein anlegen").click()
    page.get_by_role("link", name="Runde anlegen").click()
    page.get_by_label("Name").fill("Probe")
    page.get_by_role("button", name="Runde anlegen").click()
    page.get_by_role("link", name="Testverein").first.click()

    page.get_by_text("Verein löschen …").click()
    expect(page.get_by_text("lässt sich der Verein ganz löschen")).to_be_visible()
    expect(page.get_by_text("Verein verlassen …")).to_have_count(0)  # its only member
    no_horizontal_scroll(page)
    page.get_by_role("button", name="Ja, Testverein löschen").click()

    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.get_by_text("Testverein ist gelöscht.")).to_be_visible()
    expect(page.get_by_role("link", name="Testverein")).to_have_count(0)
    assert not Club.objects.filter(name="Testverein").exists()
    assert not Runde.objects.filter(name="Probe").exists()


def test_a_player_s_whole_card_opens_the_player(page, log_in, resi, club):
    wastl = Player.objects.create(club=club, name="Wastl")
    log_in(resi).goto(f"/verein/{club.pk}/spieler/")
    card = page.locator("li.card", has_text="Wastl")
    box = card.bounding_box()
    assert box["height"] >= 44

    # A tap at the card's right edge, far from the name.
    page.touchscreen.tap(box["x"] + box["width"] - 8, box["y"] + box["height"] / 2)

    expect(page).to_have_url(re.compile(rf"/verein/{club.pk}/spieler/{wastl.pk}/$"))


def test_a_new_invitation_s_word_is_in_view_and_the_next_tab_reaches_its_link(
    page, log_in, club, resi
):
    """The page opens at the new invitation: its word ("Die Einladung ist angelegt") was
    at the top, out of view with the focus on it, and Tab went on from there (walk 21)."""
    for name in ("Sepp", "Vroni", "Hias", "Resi", "Wastl", "Kathi"):
        Player.objects.get_or_create(club=club, name=name)
    log_in(resi)
    page.set_viewport_size({"width": 390, "height": 500})
    page.goto(f"/verein/{club.pk}/mitglieder/")
    form = page.locator("form").filter(
        has=page.get_by_role("button", name="Einladungslink erzeugen")
    )
    form.get_by_label("Rolle").select_option(label="Spieler")
    form.get_by_role("button", name="Einladungslink erzeugen").focus()
    page.keyboard.press("Enter")

    invitation = page.locator("li.invitation")
    word = invitation.get_by_text("Die Einladung ist angelegt. Teile den Link.")
    expect(word).to_be_in_viewport()
    expect(page.locator("#messages")).to_be_focused()
    page.keyboard.press("Tab")
    expect(invitation.get_by_label("Einladungslink")).to_be_focused()
