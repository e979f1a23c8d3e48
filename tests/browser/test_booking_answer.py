"""A booking answers with a small fragment, out of band; the screen it leaves must be the
screen a full reload shows: the same rows, totals, deal and form. The same holds for a
second phone that followed by polling."""

import re

from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from clubs.models import Membership
from evenings.models import Game
from tests.browser.evening_screen import Taps, book, chip, flash, save_button, start

# What a person sees and what the form would send, read from the page; the form's key is
# new on every render, so only its presence counts.
SCREEN = """() => {
  const text = (selector) => [...document.querySelectorAll(selector)]
    .map(el => el.innerText.replace(/\\s+/g, ' ').trim());
  const inputs = [...document.querySelectorAll('#entry-form input')]
    .filter(i => i.name !== 'csrfmiddlewaretoken')
    .map(i => i.name === 'key' ? ['key', i.value.length === 36]
                               : [i.name, i.value, i.type, i.checked]);
  return {
    rows: [...document.querySelectorAll('#sheet tbody')]
      .map(b => [b.id, b.className, b.innerText.replace(/\\s+/g, ' ').trim()]),
    head: text('#sheet thead th'),
    foot: text('#sheet tfoot'),
    status: text('#sheet-status'),
    standing: text('#standing'),
    deal: text('#deal'),
    chips: text('#entry-fields .field'),
    inputs: inputs,
    poll: document.querySelector('#poll')?.getAttribute('hx-get') ?? null,
  };
}"""


def screen(page: Page) -> dict:
    """The screen once htmx has settled (it marks new elements for a moment)."""
    expect(page.locator(".htmx-added, .htmx-settling, .htmx-swapping")).to_have_count(0)
    return page.evaluate(SCREEN)


def test_after_a_booking_the_screen_equals_a_full_reload(
    page, log_in, open_phone, club, bock_runde, schreiber, players
):
    vroni = get_user_model().objects.create_user(username="vroni", password="x", first_name="Vroni")
    Membership.objects.create(user=vroni, club=club, role=Membership.Role.PLAYER)
    evening = start(bock_runde, players, ["Sepp", "Vroni", "Hias", "Resi", "Wastl"], schreiber)
    p = {name: player.pk for name, player in players.items()}
    book(evening, schreiber, type="sauspiel", declarer=p["Hias"], partner=p["Resi"])
    book(evening, schreiber, type="ramsch", won=False, loser=p["Sepp"])  # Bock from here
    follower = open_phone(vroni).page
    follower.goto(f"/abend/{evening.pk}/")
    log_in(schreiber).goto(f"/abend/{evening.pk}/")

    # 1. A Herz-Solo with Kontra: the answer is a small fragment, not the sheet.
    taps = Taps(page)
    taps(chip(page, "spiel", "Herz-Solo"))
    taps(chip(page, "declarer", "Wastl"))
    taps(chip(page, "kontra", "Kontra"))
    with page.expect_response(re.compile(r"/buchen/$")) as answer:
        save_button(page).tap()
    body = answer.value.body()
    assert len(body) < 6 * 1024, len(body)
    assert b'id="sheet"' not in body and b'name="spiel"' not in body
    expect(flash(page)).to_have_text("Gebucht: 3. Herz-Solo (Wastl)")
    expect(page.locator("#sheet tbody.game")).to_have_count(3)
    expect(page.locator(".f-spiel input:checked + span")).to_have_text("Sauspiel")
    expect(page.locator(".f-kontra input:checked + span")).to_have_text("ohne")
    after_booking = screen(page)

    # 2. A full reload shows the very same screen.
    page.reload()
    expect(page.locator("#sheet tbody.game")).to_have_count(3)
    assert screen(page) == after_booking

    # 3. The phone that followed by polling shows the same sheet, standing and deal as a
    #    reload of its own.
    expect(follower.locator("#sheet tbody.game")).to_have_count(3, timeout=10_000)
    followed = screen(follower)
    follower.reload()
    expect(follower.locator("#sheet tbody.game")).to_have_count(3)
    assert screen(follower) == followed
    # The same rows as the Schreiber's, but without the links to correct them.
    assert followed["rows"] == [
        [tbody, classes, text.replace(" ✎ korrigieren", "")]
        for tbody, classes, text in after_booking["rows"]
    ]
    third = Game.objects.get(number=3)
    assert (third.type, third.suit, third.kontra, third.declarer_id) == (
        "farbsolo", "herz", 1, p["Wastl"],
    )  # fmt: skip
