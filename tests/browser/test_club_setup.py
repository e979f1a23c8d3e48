"""A club's first week on a phone: adding players and seating them, inviting "Hias" so
that the login becomes the Hias who holds the history, sharing the link, and typing a
tariff with its preview in view."""

import os
import re
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from clubs.models import Club, Invitation, Membership, Player, Runde
from evenings.models import Evening
from tests.browser.conftest import PHONE
from tests.browser.test_clubs import log_in_on, no_horizontal_scroll
from tests.conftest import make_user

NEW_PASSWORD = "Herz-Solo-mit-Schneider-77"
# Set to a folder to keep screenshots of the phone screens (for a human look).
SCREENSHOTS = os.environ.get("SCREENSHOTS")


def screenshot(page, name: str) -> None:
    if SCREENSHOTS:
        page.screenshot(path=f"{SCREENSHOTS}/{name}.png")


@pytest.fixture
def phone(browser, app_url):
    """Another phone-sized browser context (a second person, or one set up differently);
    its console errors fail the test, as the `page` fixture's do."""
    contexts, errors = [], []

    def open_phone(init_script: str | None = None, permissions: list[str] | None = None):
        context = browser.new_context(
            viewport=PHONE, is_mobile=True, has_touch=True, locale="de-DE", base_url=app_url
        )
        if permissions:
            context.grant_permissions(permissions, origin=app_url)
        if init_script:
            context.add_init_script(init_script)
        contexts.append(context)
        other = context.new_page()
        other.set_default_timeout(10_000)
        other.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        other.on("pageerror", lambda exc: errors.append(str(exc)))
        return other

    yield open_phone
    for context in contexts:
        context.close()
    assert not errors, f"the other phone reported errors: {errors}"


def in_viewport(locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_a_new_club_adds_its_players_and_seats_them_at_the_first_evening(page, log_in, user):
    log_in(user).goto("/verein/neu/")
    page.get_by_label("Name").fill("Stammtisch Au")
    page.get_by_role("button", name="Verein anlegen").click()
    club = Club.objects.get(name="Stammtisch Au")
    page.get_by_role("link", name="Runde anlegen").click()
    # The word met here first is said, and read with the field (walks 84, 88).
    expect(page.get_by_text("Eine Runde ist eine feste Spielgruppe des Vereins")).to_be_visible()
    expect(page.get_by_label("Name")).to_have_accessible_description(
        re.compile("^Eine Runde ist eine feste Spielgruppe des Vereins")
    )
    page.get_by_label("Name").fill("Freitagsrunde")
    page.get_by_role("button", name="Runde anlegen").click()
    runde = Runde.objects.get(club=club)

    # 1. Add the others: the page asks only for the name, and each one is active.
    #    After each, the name field is ready for the next (no tap on it).
    page.locator(".clubnav").get_by_role("link", name="Spieler", exact=True).click()
    page.get_by_label("Anzeigename").fill("Hias")
    for name, following in (("Hias", "Vroni"), ("Vroni", "Resi"), ("Resi", None)):
        page.get_by_role("button", name="Hinzufügen").click()
        expect(page.get_by_text(f"{name} ist jetzt Spieler im Verein.")).to_be_visible()
        expect(page.get_by_label("Anzeigename")).to_be_focused()
        # Read out with the field that has the focus.
        expect(page.get_by_label("Anzeigename")).to_have_accessible_description(
            re.compile(f"^{name} ist jetzt Spieler im Verein.")
        )
        if following:
            page.keyboard.type(following)
    expect(page.locator(".cards .card")).to_have_count(4)
    expect(page.get_by_text("inaktiv")).to_have_count(0)
    no_horizontal_scroll(page)
    assert list(club.players.order_by("name").values_list("name", "active")) == [
        ("Hias", True),
        ("Resi", True),
        ("Sepp", True),
        ("Vroni", True),
    ]

    # 2. "Abend beginnen" offers every one of them, once.
    page.goto(f"/verein/{club.pk}/runde/{runde.pk}/")
    page.get_by_role("link", name="Abend beginnen").click()
    seat = page.get_by_role("combobox", name="Platz 1", exact=True)
    expect(seat.locator("option")).to_have_text(["—", "Hias", "Resi", "Sepp", "Vroni"])
    for number, name in enumerate(["Sepp", "Hias", "Vroni", "Resi"], start=1):
        page.get_by_role("combobox", name=f"Platz {number}", exact=True).select_option(label=name)
    page.get_by_role("button", name="Los geht\u2019s").click()

    expect(page).to_have_url(re.compile(r"/abend/\d+/$"))
    evening = Evening.objects.get(runde=runde)
    seated = evening.seats.order_by("position").values_list("player__name", flat=True)
    assert list(seated) == ["Sepp", "Hias", "Vroni", "Resi"]


def test_an_invitation_for_hias_makes_the_newcomer_hias(page, log_in, phone, admin, club, runde):
    hias = Player.objects.create(club=club, name="Hias")
    Player.objects.create(club=club, name="Girgl")
    players_before = set(club.players.values_list("pk", flat=True))

    # 1. The admin makes a link for Hias on the members page.
    log_in(admin).goto(f"/verein/{club.pk}/mitglieder/")
    form = page.locator("form").filter(has=page.get_by_role("button", name="Einladungslink"))
    form.get_by_label("Für").select_option(label="Hias")
    form.get_by_role("button", name="Einladungslink erzeugen").click()
    expect(page.get_by_text("Die Einladung für Hias ist angelegt.")).to_be_visible()
    expect(page.get_by_text("für Hias, als Spieler")).to_be_visible()
    link = page.get_by_label("Einladungslink").input_value()
    invitation = Invitation.objects.get(club=club)
    assert (invitation.player, invitation.role) == (hias, "spieler")
    path = urlsplit(link).path

    # 2. The newcomer signs up on their own phone; the page says where they are invited.
    newcomer = phone()
    newcomer.goto(link)
    expect(newcomer).to_have_url(re.compile(rf"/konto/registrieren/\?next={re.escape(path)}$"))
    expect(newcomer.locator(".invited")).to_have_text(
        "Du bist in den Verein Schafkopffreunde Au eingeladen, als Hias (Spieler). "
        "Leg dir ein Konto an; danach trittst du mit „Beitreten“ bei."
    )
    screenshot(newcomer, "signup-invited")
    newcomer.get_by_label("Benutzername").fill("matthias")
    newcomer.get_by_label("Vorname").fill("Matthias")
    newcomer.get_by_label("E-Mail-Adresse").fill("matthias@example.org")
    newcomer.get_by_label("Passwort", exact=True).fill(NEW_PASSWORD)
    newcomer.get_by_label("Passwort bestätigen").fill(NEW_PASSWORD)
    newcomer.get_by_role("button", name="Konto anlegen").click()

    # 3. Back on the link: no question who they are, the link says it.
    expect(newcomer).to_have_url(re.compile(rf"{re.escape(path)}$"))
    expect(newcomer.get_by_text("Du trittst als Hias bei")).to_be_visible()
    expect(newcomer.get_by_text("Wer bist du?")).to_have_count(0)
    no_horizontal_scroll(newcomer)
    screenshot(newcomer, "join-as-hias")
    newcomer.get_by_role("button", name="Beitreten").click()
    expect(newcomer.get_by_text("Willkommen im Verein Schafkopffreunde Au!")).to_be_visible()

    matthias = get_user_model().objects.get(username="matthias")
    hias.refresh_from_db()
    assert hias.user == matthias
    assert set(club.players.values_list("pk", flat=True)) == players_before
    assert not club.players.filter(name__startswith="Matthias").exists()
    assert not club.players.filter(name__startswith="Hias ").exists()
    assert Membership.objects.get(club=club, user=matthias).role == "spieler"

    # 4. The admin sees who Matthias is, the used link is gone, and Hias is seated once.
    page.reload()
    member = page.locator(".card.member").filter(has_text="Matthias")
    expect(member).to_contain_text("spielt als Hias")
    expect(page.get_by_label("Einladungslink")).to_have_count(0)
    page.goto(f"/verein/{club.pk}/runde/{runde.pk}/abend/neu/")
    options = page.get_by_role("combobox", name="Platz 1", exact=True).locator("option")
    expect(options).to_have_text(["—", "Girgl", "Hias", "Resi"])


def test_a_link_for_anyone_asks_who_you_are_and_refuses_a_second_hias(phone, app_url, admin, club):
    hias = Player.objects.create(club=club, name="Hias")
    girgl = Player.objects.create(club=club, name="Girgl")
    invitation = Invitation.objects.create(club=club, role="spieler", created_by=admin)
    newcomer_user = make_user("matthias", "Hias")
    newcomer = phone()
    log_in_on(newcomer, newcomer_user, app_url)

    # 1. The player of the newcomer's name is preselected; the name field is for new people.
    newcomer.goto(f"/einladung/{invitation.token}/")
    expect(newcomer.get_by_role("radio", name="Hias")).to_be_checked()
    expect(newcomer.get_by_label("Dein Name im Verein")).to_be_hidden()
    no_horizontal_scroll(newcomer)
    screenshot(newcomer, "join-who-are-you")

    # 2. Someone new called Hias? That name is taken: the error says to pick Hias above.
    newcomer.get_by_role("radio", name="neu im Verein").check()
    name = newcomer.get_by_label("Dein Name im Verein")
    expect(name).to_have_value("Hias")
    newcomer.get_by_role("button", name="Beitreten").click()
    expect(newcomer.locator("#id_name_error")).to_have_text(
        "Hias gibt es im Verein schon. Bist du das? Dann wähle oben „Hias“, sonst einen "
        "anderen Namen."
    )
    expect(newcomer.get_by_label("Dein Name im Verein")).to_be_visible()
    assert not Membership.objects.filter(user=newcomer_user).exists()
    screenshot(newcomer, "join-name-taken")

    # 3. Picking Hias links Hias.
    newcomer.get_by_role("radio", name="Hias").check()
    newcomer.get_by_role("button", name="Beitreten").click()
    expect(newcomer.get_by_text("Willkommen im Verein Schafkopffreunde Au!")).to_be_visible()
    hias.refresh_from_db()
    girgl.refresh_from_db()
    assert (hias.user, girgl.user) == (newcomer_user, None)
    assert club.players.count() == 3  # Resi, Hias, Girgl


def test_the_invitation_role_is_preselected_and_the_link_is_copied(phone, app_url, admin, club):
    # A browser without a share sheet, allowed to use the clipboard.
    admin_phone = phone(
        init_script="delete Navigator.prototype.share;",
        permissions=["clipboard-read", "clipboard-write"],
    )
    log_in_on(admin_phone, admin, app_url)
    admin_phone.goto(f"/verein/{club.pk}/mitglieder/")

    role = admin_phone.get_by_label("Rolle", exact=True).last
    expect(role).to_have_value("spieler")
    expect(role.locator("option")).to_have_text(["Admin", "Schreiber", "Spieler"])
    admin_phone.get_by_role("button", name="Einladungslink erzeugen").click()
    link = admin_phone.get_by_label("Einladungslink").input_value()
    assert Invitation.objects.get(club=club).role == "spieler"

    admin_phone.get_by_role("button", name="Link kopieren").click()
    expect(admin_phone.get_by_role("status").filter(has_text="Kopiert")).to_be_visible()
    assert admin_phone.evaluate("navigator.clipboard.readText()") == link
    no_horizontal_scroll(admin_phone)
    screenshot(admin_phone, "members-copied")


def test_where_the_phone_has_a_share_sheet_the_link_is_shared(phone, app_url, admin, club):
    invitation = Invitation.objects.create(club=club, role="spieler", created_by=admin)
    # The share sheet, recorded instead of shown.
    admin_phone = phone(
        init_script=(
            "Navigator.prototype.share = function (data) {"
            " window.shared = data; return Promise.resolve(); };"
        )
    )
    log_in_on(admin_phone, admin, app_url)
    admin_phone.goto(f"/verein/{club.pk}/mitglieder/")

    admin_phone.get_by_role("button", name="Link teilen").click()

    admin_phone.wait_for_function("window.shared !== undefined")
    shared = admin_phone.evaluate("window.shared")
    assert shared["url"].endswith(f"/einladung/{invitation.token}/")
    assert shared["title"] == "Einladung in den Verein Schafkopffreunde Au"


def test_on_a_wide_screen_a_slip_in_the_tariff_is_heard_as_it_is_typed(
    page, log_in, admin, club, runde
):
    """Beside the whole preview the short one is not shown; it was not in the page's
    accessibility tree either, so a screen reader heard nothing of "„10“ sind 10,00 €"
    (walk 21). Its live region stays, out of sight."""
    page.set_viewport_size({"width": 1280, "height": 800})
    log_in(admin).goto(f"/verein/{club.pk}/runde/{runde.pk}/tarif/")
    sauspiel = page.get_by_label("Sauspiel", exact=True)
    sauspiel.focus()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type("10")

    heard = page.get_by_role("region", name="Vorschau, kurz")
    expect(heard).to_have_attribute("aria-live", "polite")
    expect(heard).to_contain_text("Sauspiel: „10“ sind 10,00 €.")
    assert heard.bounding_box()["width"] <= 1  # seen in the preview beside the form
    expect(page.locator(".tariff-editor .preview")).to_contain_text("„10“ sind 10,00 €")


def test_the_tariff_preview_stays_in_view_while_typing_on_a_phone(page, log_in, admin, club, runde):
    log_in(admin).goto(f"/verein/{club.pk}/runde/{runde.pk}/tarif/")
    summary = page.locator("#preview-summary")
    expect(summary.locator("li").filter(has_text="Sauspiel, schwarz")).to_contain_text("0,30 €")

    # 1. A field far down the form, typed with the keyboard: the summary is still in view,
    #    above the field, and shows the new amount.
    schwarz = page.get_by_label("Schwarz", exact=True)
    schwarz.focus()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type("0,25")
    expect(summary.locator("li").filter(has_text="Sauspiel, schwarz")).to_contain_text("0,45 €")
    assert in_viewport(summary)
    assert in_viewport(schwarz)
    assert (
        schwarz.bounding_box()["y"]
        >= summary.bounding_box()["y"] + summary.bounding_box()["height"]
    )
    assert page.evaluate("document.activeElement.id") == "id_schwarz"
    no_horizontal_scroll(page)
    screenshot(page, "tariff-typing")

    # 2. Nonsense in a field: the error is at that field, and the field keeps what was typed.
    wenz = page.get_by_label("Wenz", exact=True)
    wenz.focus()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type("viel")
    error = page.locator("#id_wenz_error")
    expect(error).to_have_text("Bitte einen Betrag in Euro eingeben, z. B. 0,10 oder 1,50.")
    assert in_viewport(error)
    expect(summary).to_contain_text("Bitte prüfen: Wenz")
    expect(wenz).to_have_value("viel")
    # ... and a screen reader hears it with the field.
    expect(wenz).to_have_attribute("aria-invalid", "true")
    expect(wenz).to_have_accessible_description(re.compile("Bitte einen Betrag in Euro"))
    assert page.evaluate("document.activeElement.id") == "id_wenz"
    screenshot(page, "tariff-invalid")

    # 3. Corrected: the error goes, the amounts come back.
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type("0,60")
    expect(error).to_have_count(0)
    expect(wenz).not_to_have_attribute("aria-invalid", "true")
    expect(wenz).not_to_have_attribute("aria-describedby", re.compile("id_wenz_error"))
    expect(summary.locator("li").filter(has_text="Wenz")).to_contain_text("0,90 €")

    # 4. A Wenz cheaper than a Sauspiel is asked about, at the field too, and no longer
    # once it is not.
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type("0,05")
    expect(summary).to_contain_text("Wenz: 0,05 €, weniger als ein Sauspiel")
    expect(wenz).to_have_accessible_description(re.compile("weniger als ein Sauspiel"))
    expect(wenz).not_to_have_attribute("aria-invalid", "true")
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type("0,60")
    expect(summary).not_to_contain_text("weniger als ein Sauspiel")
    expect(wenz).not_to_have_attribute("aria-describedby", re.compile("asked"))
    assert runde.tariffs.count() == 1  # typing saves nothing


def test_a_tariff_saved_unchanged_says_so_and_an_ambiguous_amount_is_named(
    page, log_in, admin, club, runde
):
    log_in(admin).goto(f"/verein/{club.pk}/runde/{runde.pk}/tarif/")

    # 1. "1.000": a euro or a thousand? The field says how to write either.
    sauspiel = page.get_by_label("Sauspiel", exact=True)
    sauspiel.fill("1.000")
    expect(page.locator("#id_sauspiel_error")).to_have_text(
        "„1.000“ ist mehrdeutig – bitte so schreiben: 1,00 oder 1000."
    )
    page.get_by_role("button", name="Tarif speichern").click()
    expect(page.locator("#id_sauspiel_error")).to_have_text(
        "„1.000“ ist mehrdeutig – bitte so schreiben: 1,00 oder 1000."
    )
    assert runde.tariffs.count() == 1

    # 2. Put back and saved as it was: no new version.
    page.get_by_label("Sauspiel", exact=True).fill("0,10")
    expect(page.get_by_label("Laufende ab", exact=True)).to_have_attribute("min", "1")
    expect(page.get_by_label("Laufende beim Wenz ab")).to_have_attribute("min", "1")
    page.get_by_role("button", name="Tarif speichern").click()
    expect(page.get_by_text("Nichts geändert: der Tarif ist schon so.")).to_be_visible()
    assert runde.tariffs.count() == 1


def test_a_member_opening_their_link_again_and_after_removal(
    page, log_in, phone, app_url, admin, club
):
    hias = Player.objects.create(club=club, name="Hias")
    invitation = Invitation.objects.create(club=club, role="spieler", created_by=admin, player=hias)
    Invitation.objects.create(club=club, role="spieler", created_by=admin)  # for anyone
    matthias = make_user("matthias", "Matthias")
    newcomer = phone()
    log_in_on(newcomer, matthias, app_url)
    newcomer.goto(f"/einladung/{invitation.token}/")
    newcomer.get_by_role("button", name="Beitreten").click()
    expect(newcomer.get_by_text("Willkommen im Verein Schafkopffreunde Au!")).to_be_visible()

    # 1. The link again: already a member, a way to the club, nothing to join.
    newcomer.goto(f"/einladung/{invitation.token}/")
    expect(
        newcomer.get_by_text("Du bist schon Mitglied in Schafkopffreunde Au, als Spieler.")
    ).to_be_visible()
    expect(newcomer.get_by_role("button", name="Beitreten")).to_have_count(0)
    no_horizontal_scroll(newcomer)
    newcomer.get_by_role("link", name="Zum Verein Schafkopffreunde Au").click()
    expect(newcomer).to_have_url(re.compile(rf"/verein/{club.pk}/$"))

    # 2. The admin removes Matthias, told that a link for anyone lets him in no more.
    log_in(admin).goto(f"/verein/{club.pk}/mitglieder/")
    card = page.locator(".card.member").filter(has_text="Matthias")
    card.get_by_text("Entfernen …").click()
    expect(card.get_by_text("nicht mit einem Link für alle")).to_be_visible()
    card.get_by_role("button", name="Zugang von Matthias entfernen").click()
    expect(page.get_by_text("Der Zugang ist entfernt; gebuchte Spiele bleiben.")).to_be_visible()
    expect(
        page.get_by_text("mit einem Link für alle kann Matthias nicht wieder beitreten")
    ).to_be_visible()
    no_horizontal_scroll(page)

    # 3. Matthias's own link lets him back in no more.
    newcomer.goto(f"/einladung/{invitation.token}/")
    expect(newcomer.get_by_text("Diese Einladung gilt nicht mehr")).to_be_visible()
    expect(newcomer.get_by_role("button", name="Beitreten")).to_have_count(0)
    hias.refresh_from_db()
    assert hias.user is None
    assert not Membership.objects.filter(club=club, user=matthias).exists()


def test_a_member_leaves_the_club_from_its_page(phone, app_url, admin, club):
    hias = Player.objects.create(club=club, name="Hias")
    matthias = make_user("matthias", "Matthias")
    Membership.objects.create(club=club, user=matthias, role="spieler")
    hias.user = matthias
    hias.save()
    member = phone()
    log_in_on(member, matthias, app_url)
    member.goto(f"/verein/{club.pk}/")

    member.get_by_text("Verein verlassen …").click()
    leave = member.get_by_role("button", name="Ja, Schafkopffreunde Au verlassen")
    expect(leave).to_be_in_viewport()
    no_horizontal_scroll(member)
    leave.click()

    expect(
        member.get_by_text(
            "Du hast Schafkopffreunde Au verlassen; deine Spiele bleiben dort gebucht."
        )
    ).to_be_visible()
    expect(member.get_by_text("Du bist derzeit in keinem Verein.")).to_be_visible()
    expect(member.get_by_role("heading", name="Früher dabei")).to_be_visible()
    assert not Membership.objects.filter(club=club, user=matthias).exists()
    hias.refresh_from_db()
    assert hias.user is None


def test_a_double_tap_on_a_plain_form_sends_it_once(page, log_in, admin, club, runde):
    url = f"/verein/{club.pk}/runde/{runde.pk}/tarif/"
    log_in(admin).goto(url)
    page.get_by_label("Sauspiel", exact=True).fill("0,20")
    sent = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    # A second tap while the first is on its way: its submit is refused on the page.
    second_refused = page.locator("#tariff-form").evaluate(
        """form => {
            form.requestSubmit();
            const again = new SubmitEvent("submit", {bubbles: true, cancelable: true});
            form.dispatchEvent(again);
            return again.defaultPrevented;
        }"""
    )

    assert second_refused

    expect(page.get_by_text("Der neue Tarif gilt ab dem nächsten Spielabend.")).to_be_visible()
    assert [u for u in sent if u.endswith(url)] == [page.url.split("/verein/")[0] + url]
    assert runde.tariffs.count() == 2
    assert runde.tariffs.latest().sauspiel == 20


@pytest.mark.parametrize("width", [320, 390])
def test_with_large_text_the_tariff_summary_leaves_room_for_the_fields(
    page, log_in, admin, club, runde, width
):
    """At 200 % text the summary stuck to the top took two thirds of a small phone, its
    amounts ran into the next column and the page scrolled sideways."""
    page.set_viewport_size({"width": width, "height": 568})
    log_in(admin).goto(f"/verein/{club.pk}/runde/{runde.pk}/tarif/")
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    wenz = page.get_by_label("Wenz", exact=True)
    wenz.focus()

    summary = page.locator("#preview-summary")
    assert summary.bounding_box()["height"] <= 0.41 * 568
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert in_viewport(wenz)
    for amount in summary.locator(".amount").all():  # each whole in its column
        assert amount.evaluate("e => e.scrollWidth <= e.parentElement.clientWidth")
    # The fields one to a row, their labels whole.
    ramsch = page.get_by_label("Ramsch", exact=True)
    assert ramsch.bounding_box()["x"] == wenz.bounding_box()["x"]
    screenshot(page, f"tariff-200-{width}")


def test_every_choice_of_the_tariff_form_reads_whole_on_a_small_phone(
    page, log_in, admin, club, runde
):
    page.set_viewport_size({"width": 320, "height": 568})
    log_in(admin).goto(f"/verein/{club.pk}/runde/{runde.pk}/tarif/")

    # A select is as wide as the field, and shows its chosen option cut ("…") when that
    # is wider: each option fits, such as "nach Ramsch und verlorenem Solo".
    bock = page.get_by_role("group", name="Bockrunde")
    expect(bock.get_by_role("radio")).to_have_count(3)
    bock.get_by_label("nach Ramsch und verlorenem Solo").check()
    assert bock.evaluate("el => el.scrollWidth <= el.clientWidth")
    no_horizontal_scroll(page)
    for select in page.locator("select").all():
        width = select.evaluate(
            """select => {
                const style = getComputedStyle(select);
                const context = document.createElement("canvas").getContext("2d");
                context.font = `${style.fontSize} ${style.fontFamily}`;
                return Math.max(...[...select.options].map(o => context.measureText(o.text).width));
            }"""
        )
        room = select.evaluate(
            """select => {
                const style = getComputedStyle(select);
                return select.clientWidth - parseFloat(style.paddingLeft)
                    - parseFloat(style.paddingRight);
            }"""
        )
        assert width <= room, (select.get_attribute("name"), width, room)


def test_at_a_laptop_what_can_be_clicked_shows_it_under_the_mouse(
    browser, app_url, admin, club, runde
):
    """Walk 45: with a mouse nothing changed under it, and the buttons made of a summary
    showed the arrow. A phone (no hover) keeps its plain look."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, locale="de-DE", base_url=app_url
    )
    try:
        page = log_in_on(context.new_page(), admin, app_url)
        page.goto(f"/verein/{club.pk}/")
        button = page.locator("a.button").first
        card = page.locator("a.card", has_text=runde.name)
        plain = [button.evaluate("e => getComputedStyle(e).filter")]
        plain.append(card.evaluate("e => getComputedStyle(e).borderColor"))

        button.hover()
        hovered = [button.evaluate("e => getComputedStyle(e).filter")]
        card.hover()
        hovered.append(card.evaluate("e => getComputedStyle(e).borderColor"))

        assert plain[0] == "none" and hovered[0] == "brightness(0.93)"
        assert hovered[1] != plain[1]
        summary = page.locator("summary", has_text="Verein löschen")  # before a first evening
        assert summary.evaluate("e => getComputedStyle(e).cursor") == "pointer"
    finally:
        context.close()


def test_a_tariff_a_hundred_times_too_dear_is_asked_about_before_it_is_saved(
    page, log_in, admin, club, runde
):
    """Walk 67: "10" for Schwarz was 10,00 € saved in one tap, the question only in the
    preview. The save asks it again, in view; the same save once more saves."""
    log_in(admin).goto(f"/verein/{club.pk}/runde/{runde.pk}/tarif/")
    page.set_viewport_size({"width": 320, "height": 568})
    page.get_by_label("Schwarz", exact=True).fill("10")
    page.get_by_role("button", name="Tarif speichern").click()

    # The question in the word at the top, in view at 320 px (walk 69: below the fold).
    word = page.locator(".message.warning")
    expect(word).to_contain_text("Noch nicht gespeichert: bitte die Fragen zur Vorschau prüfen.")
    expect(word).to_contain_text("Schwarz: „10“ sind 10,00 €.")
    expect(word).to_be_in_viewport()
    expect(page.locator("#preview-summary")).to_contain_text(
        "„10“ sind 10,00 €. Sind 10 Cent gemeint, bitte 0,10 schreiben."
    )
    assert runde.tariffs.count() == 1

    page.get_by_role("button", name="Tarif speichern").click()
    expect(page.get_by_text("Der neue Tarif gilt ab dem nächsten Spielabend.")).to_be_visible()
    assert runde.tariffs.latest().schwarz == 1000
