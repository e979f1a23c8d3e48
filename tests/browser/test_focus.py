"""The evening screen by keyboard, as a screen reader user works it: where the focus goes
after each answer, and which live regions say what happened (static/js/evening.js)."""

from playwright.sync_api import expect

from evenings.models import Game
from tests.browser.evening_screen import book, flash, start


def test_a_sauspiel_is_booked_by_keyboard_and_the_focus_follows_the_answers(
    page, log_in, club, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    sepp, vroni = players["Sepp"].pk, players["Vroni"].pk
    log_in(schreiber).goto(f"/abend/{evening.pk}/")

    # 1. "Speichern" with nobody chosen: the answer's errors are tied to their group, and
    #    the focus goes to the first one's chips.
    page.get_by_role("button", name="Speichern").focus()
    page.keyboard.press("Enter")
    declarer = page.get_by_role("radiogroup", name="Spieler", exact=True)
    expect(declarer).to_have_attribute("aria-describedby", "id_declarer_error")
    expect(page.locator("#id_declarer_error")).to_have_text("Bitte wählen, wer spielt.")
    expect(declarer.get_by_role("radio").first).to_have_attribute("aria-invalid", "true")
    expect(declarer.locator(f"input[value='{sepp}']")).to_be_focused()
    assert not Game.objects.exists()

    # 2. Arrow keys choose within a group, Tab goes on to the next; Enter saves.
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    partner = page.get_by_role("radiogroup", name="Mitspieler (Ass)")
    expect(partner.locator(f"input[value='{vroni}']")).to_be_focused()  # Sepp's is gone
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowUp")
    expect(partner.locator(f"input[value='{vroni}']")).to_be_focused()
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # down at the Laufende
    page.get_by_role("button", name="Speichern").focus()
    page.keyboard.press("Enter")

    # 3. Booked: the word is in the live region that was there all along, and the focus is
    #    on the next deal's line, which a screen reader then reads; up at the form's head,
    #    it comes into view with a ring around it for whoever sees the screen.
    # All of the game, as the phones that follow hear it (the partner, what went wrong).
    expect(flash(page)).to_have_text("Gebucht: Spiel 1, Sauspiel Sepp mit Vroni")
    expect(page.locator("#live > [role=status]#flash")).to_have_count(1)
    expect(page.locator("#deal")).to_be_focused()
    expect(page.locator("#deal")).to_be_in_viewport()
    assert page.locator("#deal").evaluate("el => getComputedStyle(el).outlineStyle") != "none"
    expect(page.locator("#deal")).to_have_text("Spiel 2 · Vroni gibt.")
    game = Game.objects.get()
    assert (game.declarer_id, game.partner_id) == (sepp, vroni)


def test_tab_reaches_the_partners_after_the_declarer_s_chip_left_their_group(
    page, log_in, club, runde, schreiber, players
):
    """Tab into "Mitspieler (Ass)", back, then choose its first player as declarer: his
    chip leaves the partners' group, and Tab still reaches the others (walk 35: it skipped
    the whole group, and the Sauspiel could not be entered by keyboard)."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    sepp, vroni = players["Sepp"].pk, players["Vroni"].pk
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    declarer = page.get_by_role("radiogroup", name="Spieler", exact=True)
    partner = page.get_by_role("radiogroup", name="Mitspieler (Ass)")
    declarer.locator(f"input[value='{sepp}']").focus()

    page.keyboard.press("Tab")
    expect(partner.locator(f"input[value='{sepp}']")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Space")  # Sepp plays
    expect(partner.locator(f"input[value='{sepp}']")).to_be_hidden()
    page.keyboard.press("Tab")

    expect(partner.locator(f"input[value='{vroni}']")).to_be_focused()
    page.keyboard.press("Space")
    page.get_by_role("button", name="Speichern").focus()
    page.keyboard.press("Enter")
    expect(flash(page)).to_have_text("Gebucht: Spiel 1, Sauspiel Sepp mit Vroni")
    game = Game.objects.get()
    assert (game.declarer_id, game.partner_id) == (sepp, vroni)


def test_an_error_goes_to_a_chip_that_can_be_chosen_and_a_booked_game_leaves_none(
    page, log_in, club, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    sepp, vroni = players["Sepp"].pk, players["Vroni"].pk
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    save = page.get_by_role("button", name="Speichern")

    # 1. Sepp, the first at the table, declares and nobody is named his partner: the
    #    error goes to the first partner who can be chosen (his own chip is not among them).
    page.locator(f"#entry-fields input[name='declarer'][value='{sepp}']").check()
    expect(page.locator("#preview")).to_have_text("Vorschau: Mitspieler wählen")
    save.focus()
    page.keyboard.press("Enter")
    partner = page.get_by_role("radiogroup", name="Mitspieler (Ass)")
    expect(page.locator("#id_partner_error")).to_have_text("Bitte den Mitspieler wählen.")
    expect(partner.locator(f"input[value='{vroni}']")).to_be_focused()
    # The preview still says what is missing (it said "Spieler wählen" after the error,
    # which a screen reader read out against the error).
    expect(page.locator("#preview")).to_have_text("Vorschau: Mitspieler wählen")

    # 2. A Herz-Solo booked instead: none of the Sauspiel's errors stay on the fresh form,
    #    and the focus goes to the next deal's line, as after any booking.
    page.locator("#entry-fields label").filter(has_text="Herz-Solo").click()
    save.focus()
    page.keyboard.press("Enter")
    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Herz-Solo Sepp")
    expect(page.locator("#entry-fields .error")).to_have_count(0)
    expect(page.locator("#entry-fields [aria-invalid]")).to_have_count(0)
    expect(page.locator("#deal")).to_be_focused()


def test_a_correction_opened_by_keyboard_takes_the_focus_and_gives_it_back(
    page, log_in, club, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    hias, resi = players["Hias"].pk, players["Resi"].pk
    for _ in range(2):
        book(evening, schreiber, type="sauspiel", declarer=hias, partner=resi)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    row = page.locator("#sheet a").filter(has_text="1. Sauspiel")

    # 1. Opened from its row: the focus is on the panel's heading, not left on the row
    #    far below; "Abbrechen" brings it back to the row.
    row.focus()
    page.keyboard.press("Enter")
    heading = page.get_by_role("heading", name="Spiel 1 korrigieren")
    expect(heading).to_be_focused()
    expect(page.locator("#correction")).not_to_have_attribute("aria-label", "Korrektur")
    # One form on the screen: the next game's steps aside while a game is corrected.
    expect(page.locator("#entry-form")).to_be_hidden()
    expect(page.get_by_role("button", name="Speichern", exact=True)).to_have_count(0)
    page.get_by_role("button", name="Abbrechen").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#correction")).to_be_empty()
    expect(row).to_be_focused()
    expect(page.locator("#entry-form")).to_be_visible()
    # Escape, anywhere in the panel, closes it the same way.
    page.keyboard.press("Enter")
    expect(heading).to_be_focused()
    page.keyboard.press("Tab")
    page.keyboard.press("Escape")
    expect(page.locator("#correction")).to_be_empty()
    expect(row).to_be_focused()

    # 2. Struck: the focus is on "Rückgängig", and the live region that stays on the page
    #    says which game was struck.
    page.keyboard.press("Enter")
    expect(heading).to_be_focused()
    page.get_by_role("button", name="Spiel streichen").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#restore[role=status]")).to_contain_text("Gestrichen: Spiel 1, Sauspiel")
    expect(page.get_by_role("button", name="Rückgängig")).to_be_focused()
    # Read once: the live region says it, the button it has the focus on does not again
    # (walk 78); on a page loaded with it, nothing reads it out but the button.
    expect(page.get_by_role("button", name="Rückgängig")).not_to_have_attribute(
        "aria-describedby", "restore-word"
    )
    page.reload()
    expect(page.get_by_role("button", name="Rückgängig")).to_have_attribute(
        "aria-describedby", "restore-word"
    )
    page.get_by_role("button", name="Rückgängig").focus()
    assert Game.objects.filter(number=1, voided_at__isnull=False).exists()

    # 3. "Rückgängig" reloads the page; its message has the focus, to be read first.
    page.keyboard.press("Enter")
    expect(flash(page)).to_contain_text("Wiederhergestellt: Spiel 1, Sauspiel Hias")
    expect(page.locator("#flash")).to_be_focused()


def test_the_first_tab_offers_to_skip_the_header_to_the_content(
    page, log_in, club, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    skip = page.get_by_role("link", name="Zum Inhalt")
    expect(skip).not_to_be_in_viewport()

    page.keyboard.press("Tab")

    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport(ratio=1)
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    # Past "Schafkopf", the account's links and the links back to the Runde and the club,
    # on the first control of the page's own.
    focused = "document.activeElement.closest('main, .links')?.tagName"
    assert page.evaluate(focused) == "MAIN", page.evaluate("document.activeElement.outerHTML")

    # Past the club's navigation too, where a page has it.
    page.goto(f"/verein/{club.pk}/runde/{runde.pk}/")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(page.locator(".clubnav")).to_be_visible()
    assert page.evaluate(focused.replace(".links", ".clubnav")) == "MAIN"

    # And past the way back to a player's overview, on their history.
    player = club.players.first()
    page.goto(f"/verein/{club.pk}/spieler/{player.pk}/verlauf/")
    expect(page.get_by_role("link", name="← zur Übersicht")).to_be_visible()
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate(focused) == "MAIN", page.evaluate("document.activeElement.outerHTML")


def test_the_start_form_first_says_that_an_evening_runs_in_the_runde(
    page, log_in, club, runde, schreiber, players
):
    start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)

    log_in(schreiber).goto(f"/verein/{club.pk}/runde/{runde.pk}/abend/neu/")

    # Read first: a live region there as the page loads is not read out by itself.
    box = page.get_by_role("status").filter(has_text="In dieser Runde läuft schon")
    expect(box).to_be_focused()
    # ... without the ring a keyboard's focus draws, on a page opened by a tap.
    assert box.evaluate("el => getComputedStyle(el).outlineStyle") == "none"


def test_a_message_on_a_page_sent_to_a_part_of_itself_keeps_the_focus(page, log_in, club, admin):
    """ "Einladungslink erzeugen" leads to the new link (#einladung-N): Chromium's scroll
    there took the focus off the message, which a screen reader then never read. At a
    laptop's width, where the card's line has room beside it."""
    page.set_viewport_size({"width": 1280, "height": 800})
    log_in(admin).goto(f"/verein/{club.pk}/mitglieder/")
    button = page.get_by_role("button", name="Einladungslink erzeugen")
    button.focus()

    page.keyboard.press("Enter")

    page.wait_for_url("**#einladung-*")
    page.wait_for_load_state("load")
    box = page.get_by_role("status").filter(has_text="Die Einladung ist angelegt.")
    expect(box).to_be_focused()
    # Still at the new link, not scrolled back to the message.
    expect(page.get_by_label("Einladungslink")).to_be_in_viewport()
    # The word takes the card's width, above the card's own line (walk 45: at a laptop it
    # squeezed in beside "als Spieler, gültig bis …").
    card, word = (
        page.locator(".card.invitation").first.bounding_box(),
        box.bounding_box(),
    )
    line = page.locator(".card.invitation").first.get_by_text("gültig bis").bounding_box()
    assert word["width"] >= card["width"] - 30
    assert line["y"] >= word["y"] + word["height"]


def test_enter_on_a_chip_ticks_it_and_books_nothing(page, log_in, club, runde, schreiber, players):
    """Walk 78: Enter on the Schneider chip sent the form, a Sauspiel booked at 0,10 €
    without the Schneider it was to tick. Enter ticks a chip as a tap does; "Speichern"
    books."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    sepp, vroni = players["Sepp"].pk, players["Vroni"].pk
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    page.locator(f"#entry-fields input[name='declarer'][value='{sepp}']").focus()
    page.keyboard.press("Enter")
    expect(page.locator(f"#entry-fields input[name='declarer'][value='{sepp}']")).to_be_checked()
    page.locator(f"#entry-fields input[name='partner'][value='{vroni}']").check()
    schneider = page.get_by_role("checkbox", name="Schneider")

    schneider.focus()
    page.keyboard.press("Enter")

    expect(schneider).to_be_checked()
    expect(page.locator("#preview")).to_contain_text("0,20 €")
    assert not Game.objects.exists()
    page.keyboard.press("Enter")  # and once more: ticked off
    expect(schneider).not_to_be_checked()
    page.keyboard.press("Space")
    page.get_by_role("button", name="Speichern").focus()
    page.keyboard.press("Enter")
    expect(flash(page)).to_have_text("Gebucht: Spiel 1, Sauspiel Sepp mit Vroni · Schneider")
    assert Game.objects.get().schneider


def test_shift_tab_up_the_sheet_keeps_each_game_below_the_sticky_names(
    page, log_in, club, runde, schreiber, players
):
    """Walk 78: Shift+Tab up through the sheet left a game's link half under the names
    that stay at the top: in view by a few pixels, it was not scrolled."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    hias, resi = players["Hias"].pk, players["Resi"].pk
    for _ in range(20):
        book(evening, schreiber, type="sauspiel", declarer=hias, partner=resi)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    names = page.locator("#sheet thead th").first
    below = page.locator("#game-11 a")
    below.focus()
    link = page.locator("#game-10 a")
    # Game 10's link 2 px from the top, under the names.
    page.evaluate("y => window.scrollBy(0, y - 2)", link.bounding_box()["y"])
    assert names.bounding_box()["y"] == 0

    page.keyboard.press("Shift+Tab")

    expect(link).to_be_focused()
    top = names.bounding_box()
    assert link.bounding_box()["y"] >= top["y"] + top["height"] - 1
