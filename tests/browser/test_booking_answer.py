"""A booking answers with a small fragment, out of band; the screen it leaves must be the
screen a full reload shows: the same rows, totals, deal and form. The same holds for a
second phone that followed by polling."""

import re

from django.contrib.auth import get_user_model
from playwright.sync_api import Page, Route, expect

from clubs.models import Membership
from evenings.models import Game
from tests.browser.evening_screen import (
    Taps,
    book,
    chip,
    enter_sauspiel,
    flash,
    preview,
    save_button,
    start,
)

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
    assert answer.value.headers["content-encoding"] == "br"  # padded (config/compression.py)
    assert b'id="sheet"' not in body and b'name="spiel"' not in body
    expect(flash(page)).to_contain_text("Gebucht: Spiel 3, Herz-Solo Wastl")
    expect(page.locator("#sheet tbody.game")).to_have_count(3)
    expect(page.locator(".f-spiel input:checked + span")).to_have_text("Sauspiel")
    expect(page.locator(".f-kontra input:checked + span")).to_have_text("ohne")
    after_booking = screen(page)

    # 2. A full reload shows the very same screen.
    assert page.reload().headers["content-encoding"] == "br"
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


# -- previews racing a booking ------------------------------------------------------------

PREVIEW = re.compile(r"/vorschau/$")
BOOKING = re.compile(r"/buchen/$")
KONTRA = ["Sepp +0,20 €", "Vroni +0,20 €", "Hias -0,20 €", "Resi -0,20 €"]


def held(page: Page, url: re.Pattern) -> list[Route]:
    """The requests to `url` from now on, held back until the test lets each go."""
    routes: list[Route] = []
    page.route(url, lambda route: routes.append(route))
    return routes


def arrived(page: Page, routes: list[Route], count: int = 1) -> None:
    """Wait until `count` requests are held in `routes`."""
    for _ in range(100):
        if len(routes) >= count:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"{len(routes)} of {count} requests held")


def booked_screen_is_clean(page: Page) -> None:
    """The screen after booking game 1 (Sepp's Sauspiel): the next deal, a fresh form, no
    word on another phone, and just what a reload shows."""
    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Sauspiel Sepp")
    expect(page.locator("#preview")).not_to_have_class(re.compile(r"\bhtmx-request\b"))
    expect(page.locator("#deal")).to_have_text("Spiel 2 · Vroni gibt.")
    expect(page.locator("#entry-status")).to_be_empty()
    # Said in the save bar too, which stays in view on a small phone.
    expect(page.locator("#preview")).to_have_text(re.compile("^Gebucht: Spiel 1, Sauspiel Sepp"))
    after_booking = screen(page)
    page.unroute(PREVIEW)
    page.reload()
    assert screen(page) == after_booking


def sauspiel_entered(page: Page, log_in, runde, schreiber, players):
    """The Schreiber's evening screen with Sepp's Sauspiel with Vroni chosen; the evening."""
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    enter_sauspiel(page, "Sepp", "Vroni")
    return evening


def kontra_answered_while_the_booking_is_out(page: Page) -> tuple[list[Route], list[Route]]:
    """Kontra's preview goes out, Re's waits for it (hx-sync), "Speichern" is tapped and
    its booking held; then Kontra's preview is answered, while the booking is out. The
    previews and bookings held from then on."""
    previews, bookings = held(page, PREVIEW), held(page, BOOKING)
    chip(page, "kontra", "Kontra").tap()
    arrived(page, previews)
    chip(page, "kontra", "Re").tap()
    save_button(page).tap()
    arrived(page, bookings)
    kontra = previews.pop()
    kontra.fulfill(response=kontra.fetch())
    expect(preview(page)).to_have_text(KONTRA)
    return previews, bookings


def test_on_a_small_phone_scrolled_to_the_chips_the_save_bar_says_what_was_booked(
    page, log_in, runde, schreiber, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], schreiber)
    page.set_viewport_size({"width": 320, "height": 568})
    log_in(schreiber).goto(f"/abend/{evening.pk}/")
    chip(page, "partner", "Vroni").scroll_into_view_if_needed()

    enter_sauspiel(page, "Hias", "Vroni")
    save_button(page).tap()

    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Sauspiel Hias mit Vroni")
    expect(flash(page)).not_to_be_in_viewport()
    said = page.locator("#preview .booked")
    expect(said).to_have_text(flash(page).inner_text())
    expect(said).to_be_in_viewport(ratio=1)
    # Read out once: from the message at the top.
    expect(said).to_have_attribute("aria-hidden", "true")
    # The next tap's preview takes its place.
    chip(page, "declarer", "Sepp").tap()
    expect(page.locator("#preview")).to_have_text("Vorschau: Mitspieler wählen")
    assert Game.objects.get().declarer == players["Hias"]


def test_a_preview_asked_for_while_the_booking_is_out_leaves_the_next_deal(
    page, log_in, club, runde, schreiber, players
):
    """A tap's preview queued behind a running one goes out once that one returns; with
    the booking on its way by then, the form's fields are disabled. Sent all the same, it
    posted a form without deal and choices, the server answered with the deal before the
    booking, and that answer, coming last, put back "Spiel 1 · Sepp gibt." (test_focus's
    keyboard booking failed so under load)."""
    sauspiel_entered(page, log_in, runde, schreiber, players)

    # Kontra's preview returns while the booking is out: Re's would go now. The server
    # answers it at once, before the booking; the answer comes after the booking's.
    previews, bookings = kontra_answered_while_the_booking_is_out(page)
    late = []
    if page.locator("#preview.htmx-request").count():
        arrived(page, previews)
        late_preview = previews.pop()
        late.append((late_preview, late_preview.fetch()))
    bookings.pop().continue_()
    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Sauspiel Sepp")
    for route, answer in late:
        route.fulfill(response=answer)

    booked_screen_is_clean(page)
    assert Game.objects.get().kontra == 2


def test_a_preview_answered_after_the_booking_is_not_shown(
    page, log_in, club, runde, schreiber, players
):
    """A preview asked for before "Speichern" whose answer comes after the booking's is
    of a form that has gone: the server, reading it after the booking, took it for
    another phone's ("Gebucht: … nur die Antwort kam nicht an")."""
    sauspiel_entered(page, log_in, runde, schreiber, players)
    previews = held(page, PREVIEW)

    chip(page, "kontra", "Kontra").tap()
    arrived(page, previews)
    save_button(page).tap()
    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Sauspiel Sepp")
    kontra = previews.pop()
    kontra.fulfill(response=kontra.fetch())

    booked_screen_is_clean(page)
    assert Game.objects.get().kontra == 1


def test_a_preview_held_back_while_the_booking_is_out_follows_a_refused_booking(
    page, log_in, club, runde, schreiber, players
):
    """Another phone booked first, so this one's booking is answered with the new deal
    and the choices kept: the preview held back meanwhile (Re's) is asked for then."""
    evening = sauspiel_entered(page, log_in, runde, schreiber, players)
    _previews, bookings = kontra_answered_while_the_booking_is_out(page)
    expect(page.locator("#preview")).not_to_have_class(re.compile(r"\bhtmx-request\b"))
    hias, resi = players["Hias"].pk, players["Resi"].pk
    book(evening, schreiber, type="sauspiel", declarer=hias, partner=resi)

    page.unroute(PREVIEW)
    bookings.pop().continue_()

    expect(page.locator("#entry-status")).to_contain_text("Spiel 1 gebucht (Sauspiel Hias")
    expect(page.locator("#deal")).to_have_text("Spiel 2 · Vroni gibt.")
    expect(preview(page)).to_have_text(
        ["Sepp +0,40 €", "Vroni +0,40 €", "Hias -0,40 €", "Resi -0,40 €"]
    )
    assert Game.objects.count() == 1


POLL = re.compile(r"/blatt/\?")


def test_no_poll_goes_out_while_the_booking_is_on_its_way(
    page, log_in, club, runde, schreiber, players
):
    """A poll sent while the booking was on its way had its answer come after the
    booking's, which replaced the poll's element: the answer had nowhere to go, and htmx
    logged an error for each of its parts (a console error here). The booking's answer
    brings what changed; the polls go on after it."""
    sauspiel_entered(page, log_in, runde, schreiber, players)
    bookings = held(page, BOOKING)
    save_button(page).tap()
    arrived(page, bookings)
    polls = held(page, POLL)
    page.wait_for_timeout(3500)  # a poll is due every 3 s

    assert polls == []
    bookings.pop().continue_()
    expect(flash(page)).to_contain_text("Gebucht: Spiel 1, Sauspiel Sepp")
    arrived(page, polls)  # and on they go
    polls.pop().continue_()
    booked_screen_is_clean(page)
    assert Game.objects.count() == 1
