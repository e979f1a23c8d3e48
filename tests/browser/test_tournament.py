"""A ProHof tournament evening at phone size, through the pages only: the director sets up
the tournament, reports nine participants (two of them guests at the door) and draws
round 1; two phones book at their tables; the hall display, open without a login, brings
its standings up to date by itself."""

import re

import pytest
from django.db.models import Sum
from playwright.sync_api import Page, expect

from clubs.models import Membership, Player
from evenings.models import Game, LedgerEntry
from tests.browser.axe import assert_accessible
from tests.browser.evening_screen import (
    PASSWORD,
    PHONE,
    Taps,
    broken_words,
    chip,
    chip_labels,
    flash,
    no_horizontal_scroll,
    preview,
    save_button,
    verify_ledger,
)
from tests.browser.test_large_text import lines
from tests.conftest import make_user
from tournaments.models import Round, Table, Tournament

# The club's seven players (Resi, the director, is one of them) and the guests at the door.
CLUB_PLAYERS = ["Hias", "Kathi", "Lenz", "Resi", "Sepp", "Vroni", "Wastl"]
GUESTS = ["Toni", "Burgi"]


@pytest.fixture
def vroni(club, players):
    """Vroni plays in the club with a login of her own, as a Spieler."""
    Player.objects.create(club=club, name="Lenz")
    user = make_user("vroni", "Vroni")
    Membership.objects.create(user=user, club=club, role=Membership.Role.PLAYER)
    players["Vroni"].user = user
    players["Vroni"].save()
    return user


def log_in_with_the_form(page: Page, username: str) -> None:
    page.goto("/")
    page.get_by_label("Benutzername").fill(username)
    page.get_by_label("Passwort").fill(PASSWORD)
    page.get_by_role("button", name="Anmelden").click()
    expect(page).to_have_url(re.compile(r"/$"))


def to_the_tournaments(page: Page) -> None:
    """From the start page: the club, then "Turniere" in the club's navigation (on every
    page of the club)."""
    page.get_by_role("link", name=re.compile(r"^Schafkopffreunde Au")).click()
    page.locator(".clubnav").get_by_role("link", name="Turniere", exact=True).click()
    expect(page.get_by_role("heading", name="Turniere", level=1)).to_be_visible()


def messages(page: Page):
    return page.locator("ul.messages")


def seats(table) -> list[str]:
    """The names at a table card of the tournament page, in seat order (seat 1 deals)."""
    return [
        re.sub(r"^\d+\s+|\s+gibt zuerst$", "", text.strip())
        for text in table.locator("ol.seats li").all_inner_texts()
    ]


def deal_line(page: Page):
    return page.locator("#deal .deal")


def standing_rows(page: Page):
    return page.locator("table.standings tbody tr")


def test_a_director_runs_round_one_two_phones_book_and_the_hall_display_follows(
    page, open_phone, club, admin, vroni
):
    # 1. Resi, the club's admin, logs in on her phone and makes a tournament with the
    #    defaults: 3 rounds of 40 games.
    log_in_with_the_form(page, "resi")
    to_the_tournaments(page)
    page.get_by_role("link", name="Neues Turnier").click()
    page.get_by_label("Name", exact=True).fill("Stadtmeisterschaft Au")
    expect(page.get_by_label("Runden", exact=True)).to_have_value("3")
    expect(page.get_by_label("Spiele je Runde", exact=True)).to_have_value("40")
    page.get_by_role("button", name="Turnier anlegen").click()
    expect(messages(page)).to_have_text("Das Turnier ist angelegt. Melde jetzt die Teilnehmer.")
    expect(page.get_by_role("heading", level=1)).to_have_text("Stadtmeisterschaft Au")
    expect(page.locator(".tournament-meta")).to_contain_text("3 Runden zu je 40 Spielen")
    tournament_url = page.url

    # 2. She ticks the club's seven players and enters two guests at the door: nine
    #    participants, numbered in the order they were reported (the ticked ones by name).
    picks = page.locator("fieldset.picks")
    expect(picks.locator("label.check")).to_have_text(CLUB_PLAYERS)
    for name in CLUB_PLAYERS:
        picks.get_by_label(name, exact=True).check()
    page.get_by_role("button", name="Melden", exact=True).click()
    expect(messages(page)).to_have_text(f"Dabei: {', '.join(CLUB_PLAYERS)}.")
    for number, guest in enumerate(GUESTS, len(CLUB_PLAYERS) + 1):
        page.get_by_label("Gast (Name)").fill(guest)
        page.get_by_role("button", name="Gast melden").click()
        expect(messages(page)).to_have_text(f"{guest} spielt als Gast mit (Startnummer {number}).")
    participants = page.locator("ol.participants li")
    expect(page.get_by_role("heading", name="Teilnehmer (9)")).to_be_visible()
    expect(participants.locator(".start-number")).to_have_text([str(n) for n in range(1, 10)])
    expect(participants.locator(".name")).to_have_text(
        [*CLUB_PLAYERS, *(f"{guest} Gast" for guest in GUESTS)]
    )
    number_of = {name: n for n, name in enumerate([*CLUB_PLAYERS, *GUESTS], 1)}

    # 3. Round 1 is drawn from a seed the page shows: a table of five, whose dealer sits
    #    out each game, and a table of four.
    page.get_by_role("button", name="Runde 1 auslosen").click()
    expect(messages(page)).to_have_text(re.compile(r"Runde 1 ist ausgelost \(Seed \d+\)\."))
    seed = Round.objects.get().seed
    expect(messages(page)).to_have_text(f"Runde 1 ist ausgelost (Seed {seed}).")
    round_1 = page.locator("#runde-1")
    expect(round_1.locator(".seed")).to_have_text(str(seed))
    tables = round_1.locator(".round-table")
    expect(tables).to_have_count(2)
    expect(tables.nth(0).locator("h4")).to_have_text("Tisch 1 5 am Tisch: der Geber setzt aus")
    expect(tables.nth(1).locator("h4")).to_have_text("Tisch 2")
    expect(tables.nth(0).locator("ol.seats li")).to_have_count(5)
    expect(tables.nth(1).locator("ol.seats li")).to_have_count(4)
    expect(page.locator(".big-table-note")).to_contain_text("jeder spielt 32 von 40 Spielen")
    table_1, table_2 = seats(tables.nth(0)), seats(tables.nth(1))
    assert sorted(table_1 + table_2) == sorted(CLUB_PLAYERS + GUESTS)

    # Preselected: the first at a table who is a Schreiber or Admin of the club (Resi,
    # the director), else the director: Vroni, a Spieler, writes only if chosen, and the
    # list says what she is. She keeps the score at the table of four, Resi at the other.
    round_1.locator("summary", has_text="Schreiber je Tisch").click()
    scorekeepers = round_1.locator("form[action*='/schreiber/']")
    for table in ("Tisch 1", "Tisch 2"):
        expect(scorekeepers.get_by_label(table)).to_have_value(str(admin.pk))
    scorekeepers.get_by_label("Tisch 1").select_option(label="Resi")
    scorekeepers.get_by_label("Tisch 2").select_option(label="Vroni (Spieler)")
    scorekeepers.get_by_role("button", name="Schreiber speichern").click()
    expect(messages(page)).to_have_text("Die Schreiber sind eingetragen.")
    expect(tables.locator(".scorekeeper")).to_have_text(["Schreiber: Resi", "Schreiber: Vroni"])
    # The seats are as drawn: saving the scorekeepers did not move anyone.
    assert seats(tables.nth(0)) == table_1 and seats(tables.nth(1)) == table_2

    page.get_by_text("Runde 1 starten …").click()  # two taps: the tables are fixed then
    page.get_by_role("button", name="Ja, Runde 1 starten").click()
    expect(messages(page)).to_have_text(
        "Runde 1 läuft: an jedem Tisch kann jetzt eingetragen werden."
    )
    expect(round_1.locator("h3")).to_contain_text("läuft")
    expect(tables.locator(".counter")).to_have_text(["Spiel 1 von 40", "Spiel 1 von 40"])

    # 4. The hall display, by its link, on a screen nobody is logged in to: everyone at 0,
    #    listed by start number.
    hall_url = page.get_by_role("link", name="Hallenanzeige öffnen").get_attribute("href")
    hall = open_phone().page
    hall.goto(hall_url)
    expect(hall.locator(".hall-head h1")).to_have_text("Stadtmeisterschaft Au")
    expect(hall.locator(".hall-head")).to_contain_text("Runde 1 von 3")
    expect(standing_rows(hall).locator("th")).to_have_text(
        [f"{n} {name}" for name, n in number_of.items()]
    )
    expect(standing_rows(hall).locator("td.total")).to_have_text(["0"] * 9)
    expect(hall.locator(".hall-counter")).to_have_text(["Spiel 1 von 40", "Spiel 1 von 40"])
    hall.evaluate("window.notReloaded = true")  # gone if the page were loaded again

    # 5a. Resi books at table 1: its first seat deals and sits out; the second plays a
    #     Rufspiel with the fourth, with 2 Laufende, and they make the others Schneider.
    to_table = tables.nth(0).get_by_role("link", name="Zum Tisch (Eingabe)")
    # Two such links on the page: each tells a screen reader its table.
    expect(to_table).to_have_accessible_description(re.compile(r"^Tisch 1\b"))
    to_table.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Runde 1 · Tisch 1")
    expect(deal_line(page)).to_contain_text(f"Spiel 1 von 40 · {table_1[0]} gibt und setzt aus.")
    # On the narrowest phone the way back stays whole; the club's name is cut ("…").
    page.set_viewport_size({"width": 320, "height": 640})
    back = page.locator("p.links.one-line a").first
    expect(back).to_have_text("Zum Turnier")
    assert back.evaluate("el => el.scrollWidth <= el.clientWidth")
    page.set_viewport_size(PHONE)
    playing = table_1[1:]
    expect(chip_labels(page, "declarer")).to_have_text(playing)
    expect(page.locator(".f-spiel input:checked + span")).to_have_text("Rufspiel")
    declarer, partner = playing[0], playing[2]
    tap = Taps(page)
    tap(chip(page, "declarer", declarer))
    tap(chip(page, "partner", partner))
    tap(chip(page, "laufende", "2"))
    tap(page.locator(".f-schneider .chip"))
    # Seed 000: Rufspiel 10, 2 Laufende 2 x 10, Schneider 10 = 40 to each winner.
    expect(preview(page)).to_have_text(
        [f"{name} {'+40 P.' if name in (declarer, partner) else '0 P.'}" for name in playing]
    )
    no_horizontal_scroll(page)
    tap(save_button(page))
    expect(flash(page)).to_contain_text(f"Gebucht: Spiel 1, Rufspiel {declarer}")
    expect(deal_line(page)).to_contain_text("Spiel 2 von 40")
    assert tap.count == 5  # declarer, partner, Laufende, Schneider, Speichern

    # 5b. Vroni, on her own phone with her own password, finds her table through the
    #     tournament page and books a Wenz won by its second seat: Wenz, declarer, save.
    vroni_phone = open_phone().page
    log_in_with_the_form(vroni_phone, "vroni")
    to_the_tournaments(vroni_phone)
    vroni_phone.get_by_role("link", name=re.compile(r"^Stadtmeisterschaft Au")).click()
    vroni_tables = vroni_phone.locator("#runde-1 .round-table")
    vroni_tables.nth(1).get_by_role("link", name="Zum Tisch (Eingabe)").click()
    expect(vroni_phone.get_by_role("heading", level=1)).to_contain_text("Runde 1 · Tisch 2")
    expect(deal_line(vroni_phone)).to_contain_text(f"Spiel 1 von 40 · {table_2[0]} gibt.")
    wenz = table_2[1]
    tap = Taps(vroni_phone)
    tap(chip(vroni_phone, "spiel", "Wenz"))
    tap(chip(vroni_phone, "declarer", wenz))
    # Seed 000: Wenz 20, "mit oder ohne einem" 10 (preselected: every game has one);
    # won: three times that to the declarer, nothing to the others.
    expect(preview(vroni_phone)).to_have_text(
        [f"{name} {'+90 P.' if name == wenz else '0 P.'}" for name in table_2]
    )
    no_horizontal_scroll(vroni_phone)
    tap(save_button(vroni_phone))
    expect(flash(vroni_phone)).to_contain_text(f"Gebucht: Spiel 1, Wenz {wenz}")
    expect(deal_line(vroni_phone)).to_contain_text(f"Spiel 2 von 40 · {table_2[1]} gibt.")
    assert tap.count == 3

    # 6. The hall display catches up within a poll (every 10 s), without being reloaded:
    #    90 for the Wenz; 40 each for the Rufspiel's pair (equal, so by start number);
    #    then 0: the five who lost one (ProHof takes nothing off them), sharing a rank,
    #    by start number; last table 1's dealer, who lost none as he played none yet.
    def line(name: str) -> str:
        return f"{number_of[name]} {name}"

    by_number = sorted(number_of, key=number_of.get)
    pair = sorted([declarer, partner], key=number_of.get)
    losers = [n for n in by_number if n not in (wenz, declarer, partner, table_1[0])]
    expect(standing_rows(hall).locator("td.total")).to_have_text(
        ["90", "40", "40", "0", "0", "0", "0", "0", "0"], timeout=15_000
    )
    expect(standing_rows(hall).locator("th")).to_have_text(
        [line(wenz), *(line(n) for n in pair), *(line(n) for n in losers), line(table_1[0])]
    )
    expect(standing_rows(hall).locator("td.rank")).to_have_text(
        ["1.", "2.", "2.", "4.", "4.", "4.", "4.", "4.", "9."]
    )
    expect(hall.locator(".hall-counter")).to_have_text(["Spiel 2 von 40", "Spiel 2 von 40"])
    assert hall.evaluate("window.notReloaded === true")

    # 7./8. The director's page and the hall display: accessible, no sideways scrolling
    #    at 390 px.
    page.goto(tournament_url)
    expect(page.locator("#runde-1 .counter")).to_have_text(["Spiel 2 von 40", "Spiel 2 von 40"])
    expect(standing_rows(page).locator("td.total").first).to_have_text("90")
    no_horizontal_scroll(page)
    assert_accessible(page, "the director's tournament page")
    no_horizontal_scroll(hall)
    # Nor inside: the standings' last column (lost games, a tie-break) shows whole.
    assert hall.evaluate(
        "(t => t.getBoundingClientRect().right <= t.parentElement.getBoundingClientRect().right)"
        "(document.querySelector('.hall table.standings'))"
    )
    assert_accessible(hall, "the hall display")

    # The database: two games, their points credited as computed, the ledger in order.
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.Status.RUNNING
    assert [t.scorekeeper for t in Table.objects.order_by("number")] == [admin, vroni]
    games = Game.objects.booked().order_by("evening__table__number")
    assert [(g.type, g.declarer.name, g.created_by) for g in games] == [
        ("rufspiel", declarer, admin),
        ("wenz", wenz, vroni),
    ]
    credited = (
        LedgerEntry.objects.filter(amount__gt=0)
        .values_list("player__name")
        .annotate(points=Sum("amount"))
    )
    assert dict(credited) == {declarer: 40, partner: 40, wenz: 90}
    assert LedgerEntry.objects.aggregate(total=Sum("amount"))["total"] == 170
    assert set(LedgerEntry.objects.values_list("kind", flat=True)) == {LedgerEntry.Kind.POINTS}
    assert "ledger ok" in verify_ledger()


def test_at_320_px_a_participant_s_name_stays_whole_beside_zurueckziehen(
    page, log_in, club, admin, players
):
    from tournaments import services as tournaments

    tournament = tournaments.create_tournament(club, admin, name="Frühjahrsturnier", venue="Hof")
    tournaments.add_participants(tournament, [players[name] for name in ("Sepp", "Vroni")])
    for name in ("Anderl", "Chrissi"):
        tournaments.add_guest(tournament, name)
    # Played: each is withdrawn ("Zurückziehen …"), no longer taken off the list.
    tournaments.start_round(tournaments.draw_round(tournament), admin)
    page.set_viewport_size({"width": 320, "height": 568})

    log_in(admin).goto(f"/turnier/{tournament.pk}/")

    expect(page.locator(".participant summary").first).to_have_text("Zurückziehen …")
    assert broken_words(page, ".participant .name") == []
    no_horizontal_scroll(page)


def test_a_draw_refused_says_why_beside_its_button_in_view(page, log_in, club, admin, players):
    from tournaments import services as tournaments

    tournament = tournaments.create_tournament(club, admin, name="Frühjahrsturnier", venue="Hof")
    # Enough guests that the draw's button sits well below the first screen at 390 px.
    tournaments.add_participants(tournament, [players[name] for name in ("Sepp", "Vroni")])
    tournaments.add_guest(tournament, "Toni")
    log_in(admin)
    page.goto(f"/turnier/{tournament.pk}/")

    page.get_by_role("button", name="Runde 1 auslosen").tap()

    error = page.locator("#auslosen [role=alert]")
    expect(error).to_have_text(
        "Für die Tische braucht es mindestens 4 Teilnehmer, gemeldet sind 3."
    )
    expect(error).to_be_in_viewport()
    assert not Round.objects.exists()


def test_the_director_s_page_says_when_the_tables_moved_on(page, log_in, club, admin, players):
    """Walk 40: it showed a finished table as playing until reloaded by hand. It asks every
    10 s and offers to load anew (it does not reload itself: a form half filled in on it
    would be lost)."""
    from tournaments import services as tournaments

    tournament = tournaments.create_tournament(club, admin, name="Adventsturnier", venue="Post")
    tournaments.add_participants(tournament, list(players.values())[:4])
    round_ = tournaments.start_round(tournaments.draw_round(tournament, seed=3), admin)
    log_in(admin)
    page.clock.install()
    page.goto(f"/turnier/{tournament.pk}/")
    counter = page.locator("#runde-1 .counter")
    expect(counter).to_have_text("Spiel 1 von 40")
    bar = page.locator(".news-bar")
    page.clock.run_for(11_000)
    expect(bar).to_have_count(0)  # nothing new: nothing said

    herz_solos(round_, admin, 1)
    page.clock.run_for(11_000)

    expect(bar).to_contain_text("An den Tischen hat sich etwas getan.")
    expect(bar).to_be_in_viewport()
    # The page's last button stays above it, scrolled to the end (walk 41).
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    last = page.locator("main :is(a, button, summary):visible:not(.news-bar a)").last
    assert last.bounding_box()["y"] + last.bounding_box()["height"] <= bar.bounding_box()["y"]
    bar.get_by_role("link", name="Neu laden").tap()
    expect(counter).to_have_text("Spiel 2 von 40")
    expect(bar).to_have_count(0)


def test_the_ranking_with_its_tie_breaks_fits_a_phone(page, log_in, club, admin, players):
    from tournaments import services as tournaments

    tournament = tournaments.create_tournament(club, admin, name="Adventsturnier", venue="Post")
    tournaments.add_participants(tournament, list(players.values())[:6])
    for name in ("Schorsch", "Gast Alois"):
        tournaments.add_guest(tournament, name)
    first = tournaments.start_round(tournaments.draw_round(tournament, seed=3), admin)
    herz_solos(first, admin, 1)
    log_in(admin)

    page.goto(f"/turnier/{tournament.pk}/rangliste/")

    wrap = page.locator(".scroll-wrap")
    expect(wrap.locator("tbody tr")).to_have_count(8)
    # Every column in view, nothing to scroll sideways, and a one-word name on one line
    # with its start number beside it (it was "7" above "Schor" above "sch").
    assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth")

    def height(name: str) -> int:
        return wrap.locator("tbody th", has_text=name).evaluate("cell => cell.clientHeight")

    assert height("Schorsch") == height("Kathi") == height("Sepp")
    # On paper the total is a plain cell: sticky, its background covered the rows' lines.
    page.emulate_media(media="print")
    total = wrap.locator("tbody tr").first.locator("td.total")
    assert total.evaluate("cell => getComputedStyle(cell).position") == "static"
    # The signed ranking marks nobody, not the row of whoever printed it (walk 40).
    own = wrap.locator("tbody tr.own th")
    expect(own).to_have_count(1)
    assert own.evaluate("th => getComputedStyle(th).fontWeight") == "400"
    assert own.evaluate("th => getComputedStyle(th).boxShadow") == "none"
    assert own.evaluate("th => getComputedStyle(th.parentElement).backgroundColor") == (
        "rgba(0, 0, 0, 0)"
    )
    page.emulate_media(media="screen")
    assert own.evaluate("th => getComputedStyle(th).fontWeight") == "700"  # on screen
    # The tournament's page shows the same columns live, and they fit as well.
    page.goto(f"/turnier/{tournament.pk}/")
    live = page.locator("#stand .scroll-wrap")
    expect(live.get_by_role("columnheader")).to_have_text(
        ["Pl.", "Name", "R1", "R2", "R3", "Gesamt", "Soli", "verl."]
    )
    assert live.evaluate("el => el.scrollWidth <= el.clientWidth")
    page.goto(f"/turnier/{tournament.pk}/rangliste/")
    # Narrower than its rounds leave room beside the total (220 px), the ranking scrolls
    # sideways, the total with it: pinned, it would cover the rounds.
    page.set_viewport_size({"width": 220, "height": 640})
    assert wrap.evaluate("el => el.scrollWidth > el.clientWidth")
    total = wrap.locator("tbody tr").first.locator("td.total")
    assert total.evaluate("cell => getComputedStyle(cell).position") == "static"
    # A keyboard reaches what is scrolled away: the ranking is a named region to focus.
    expect(page.get_by_role("region", name="Rangliste")).to_have_attribute("tabindex", "0")
    assert_accessible(page, "ranking scrolled sideways")
    # At 200 % text on a 320 px phone the total scrolls with the rest rather than cover
    # the names; the page itself does not scroll sideways.
    page.set_viewport_size({"width": 320, "height": 640})
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    total = wrap.locator("tbody tr").first.locator("td.total")
    assert total.evaluate("cell => getComputedStyle(cell).position") == "static"
    name = wrap.locator("tbody tr").first.locator("th")
    assert name.evaluate("cell => cell.scrollWidth <= cell.clientWidth")
    no_horizontal_scroll(page)


COVERED = """wrap => {
    // Each row's third round and total as the screen shows them (the total pinned): how
    // many pixels of the round lie under the total, and how many of either lie outside
    // the ranking's frame (scrolled away).
    const frame = wrap.getBoundingClientRect();
    return [...wrap.querySelectorAll("tr")].map(row => {
        const cells = [...row.children];
        const total = cells.find(cell => cell.classList.contains("total"));
        const round = cells[cells.indexOf(total) - 1].getBoundingClientRect();
        const box = total.getBoundingClientRect();
        return [
            row.innerText,
            Math.max(0, round.right - box.left),
            Math.max(0, box.right - frame.right, round.right - frame.right),
        ];
    });
}"""


# Whether no word of an element's text is broken across lines: each word's own box
# spans one line.
WORDS_WHOLE = """el => {
    const text = el.firstChild, words = text.textContent.split(" ");
    let at = 0;
    return words.every(word => {
        const range = document.createRange();
        range.setStart(text, at); range.setEnd(text, at + word.length); at += word.length + 1;
        return new Set([...range.getClientRects()].map(r => r.top)).size === 1;
    });
}"""


def herz_solos(round_, admin, games: int, **more) -> None:
    """At each table of `round_`, `games` Herz-Solos won by the first to play (with two
    Laufende unless `more` says otherwise)."""
    import uuid

    from evenings import services as evenings
    from evenings.services import GameInput

    for table in round_.tables.select_related("evening"):
        for _ in range(games):
            deal = evenings.next_deal(table.evening)
            solo = GameInput(
                type="solo", suit="herz", declarer=deal.playing[0].pk, **({"laufende": 2} | more)
            )
            evenings.book_game(table.evening_id, uuid.uuid4(), solo, admin, deal.token)


def four_digit_rounds(tournament, admin, after_first=lambda: None) -> None:
    """Three rounds, each table's twelve games a Herz-Solo Tout with eight Laufende, so
    that every round's points run to four digits; `after_first` between rounds 1 and 2."""
    from tournaments import services as tournaments

    for number in range(1, 4):
        round_ = tournaments.start_round(tournaments.draw_round(tournament, seed=number), admin)
        herz_solos(round_, admin, 12, laufende=8, tout=True)
        for table in round_.tables.all():
            tournaments.end_table_early(table, admin)
        if number == 1:
            after_first()


def test_at_320_px_the_pinned_total_covers_no_digit_of_the_rounds(
    page, log_in, club, admin, players
):
    """Three rounds of four-digit points: on a phone of 320 px the total, pinned at the
    right edge, took its room from the third round ("230" read "23(", "R3" was cut). The
    rounds fit beside it now (a long name breaks), and only the tie-breaks scroll."""

    from tournaments import services as tournaments
    from tournaments.standings import tournament_standings

    tournament = tournaments.create_tournament(club, admin, name="ProHof", venue="Post")
    tournaments.add_participants(tournament, list(players.values())[:6])
    for name in ("Schorsch", "Gast Alois", "Maximilian"):
        tournaments.add_guest(tournament, name)
    four_digit_rounds(tournament, admin)
    leader = tournament_standings(tournament)[0]
    assert all(points >= 1000 for points in leader.rounds)
    log_in(admin)

    for address, region in (("", "#stand .scroll-wrap"), ("rangliste/", ".scroll-wrap")):
        page.set_viewport_size({"width": 320, "height": 640})
        page.goto(f"/turnier/{tournament.pk}/{address}")
        wrap = page.locator(region)
        first = wrap.locator("tbody tr").first
        expect(first.locator("td.total")).to_have_text(str(leader.total))
        # The ranking is wider than the phone: it scrolls, the total pinned at the edge.
        assert wrap.evaluate("el => el.scrollWidth > el.clientWidth")
        assert first.locator("td.total").evaluate("c => getComputedStyle(c).position") == ("sticky")
        assert [row for row in wrap.evaluate(COVERED) if row[1] > 0.5 or row[2] > 0.5] == []
        # Every name whole in its cell, if broken.
        for name in wrap.locator("tbody th").all():
            assert name.evaluate("cell => cell.scrollWidth <= cell.clientWidth")
        # No regression where it fitted (390 px), or where the total scrolls with the rest
        # (200 % text: nothing under it, whatever is scrolled away).
        page.set_viewport_size(PHONE)
        assert [row for row in wrap.evaluate(COVERED) if row[1] > 0.5 or row[2] > 0.5] == []
        for width in (320, 390):
            page.set_viewport_size({"width": width, "height": 640})
            page.evaluate("document.documentElement.style.fontSize = '200%'")
            assert [row for row in wrap.evaluate(COVERED) if row[1] > 0.5] == []
            no_horizontal_scroll(page)
            page.evaluate("document.documentElement.style.fontSize = ''")


def test_three_rounds_of_three_digits_fit_a_phone_with_their_tie_breaks(
    page, log_in, club, admin, players
):
    """Walk 37: at 390 px "verl." was cut, where it decided between equal totals. From
    320 px on the whole ranking is in view now: the start numbers give way, and at 320 px
    "Gesamt" reads "Ges." (and is heard whole). No word of a name breaks (walk 40:
    "Schors|ch", "Obermülle|r"): a long one takes its room from the tie-breaks."""
    from tournaments import services as tournaments
    from tournaments.standings import tournament_standings

    tournament = tournaments.create_tournament(club, admin, name="ProHof", venue="Post")
    tournaments.add_participants(tournament, list(players.values())[:6])
    for name in ("Sepp Huber", "Schorsch", "Nandl"):
        tournaments.add_guest(tournament, name)
    for number in range(1, 4):
        round_ = tournaments.start_round(tournaments.draw_round(tournament, seed=number), admin)
        herz_solos(round_, admin, 3, laufende=3)
        for table in round_.tables.all():
            tournaments.end_table_early(table, admin)
    assert all(100 <= points < 1000 for points in tournament_standings(tournament)[0].rounds)
    log_in(admin)

    for width in (320, 360, 390):
        page.set_viewport_size({"width": width, "height": 640})
        page.goto(f"/turnier/{tournament.pk}/rangliste/")
        wrap = page.locator(".scroll-wrap")
        assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth"), width
        for name in wrap.locator("tbody th").all():
            assert name.evaluate("cell => cell.scrollWidth <= cell.clientWidth"), width
        one_line = "cell => cell.clientHeight"
        schorsch = wrap.locator("tbody th", has_text="Schorsch").evaluate(one_line)
        assert schorsch == wrap.locator("tbody th", has_text="Nandl").evaluate(one_line), width
    # A name of long words: each whole, on a line of its own at most.
    obermueller = tournaments.add_guest(tournament, "Maximilian Obermüller")
    for width in (320, 360, 390):
        page.set_viewport_size({"width": width, "height": 640})
        page.goto(f"/turnier/{tournament.pk}/rangliste/")
        name = page.locator("tbody th .name", has_text=obermueller.player.name)
        assert lines(name) <= 2, width
        assert name.evaluate(WORDS_WHOLE), width
    expect(wrap.get_by_role("columnheader", name="Gesamt", exact=True)).to_be_visible()
    after = "th => getComputedStyle(th, '::after').content"
    assert wrap.locator("thead .total").evaluate(after) == "none"  # 390 px: "Gesamt"
    page.set_viewport_size({"width": 320, "height": 640})
    assert "Ges." in wrap.locator("thead .total").evaluate(after)
    assert_accessible(page, "ranking at 320 px")


def test_long_names_and_a_withdrawal_stay_in_their_cells_from_320_to_1920_px(
    page, log_in, club, admin, players
):
    """Thirteen in the field, four-digit rounds, names of several words and one who
    withdrew (walk 28): "zurückgezogen" beside the name widened the names' column and
    pushed the third round under the total at 390 px, was printed over the first round,
    and a long name ran into the first round on the hall's screen."""

    from tournaments import services as tournaments

    tournament = tournaments.create_tournament(club, admin, name="ProHof", venue="Post")
    tournaments.add_participants(tournament, list(players.values())[:5])
    long_names = ["Maximilian Alexander von Hohenzollern", "Franz Xaver Huber", "Schorsch Wagner"]
    for name in [*long_names, "Lisl Hofmann", "Bartl Koch", "Toni Gruber", "Kathi Reiter", "Ed"]:
        tournaments.add_guest(tournament, name)
    ed = tournament.participants.get(player__name="Ed")
    four_digit_rounds(tournament, admin, after_first=lambda: tournaments.remove_participant(ed))
    log_in(admin)

    for address in (f"/turnier/{tournament.pk}/rangliste/", f"/halle/{tournament.display_token}/"):
        for width in (320, 390, 1366, 1920):
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(address)
            wrap = page.locator(".scroll-wrap").first
            expect(wrap.locator("tbody tr")).to_have_count(13)
            where = f"{address} at {width} px"
            # No digit of a round under the pinned total, nothing outside its cell.
            assert [row for row in wrap.evaluate(COVERED) if row[1] > 0.5] == [], where
            for cell in wrap.locator("tbody th").all():
                assert cell.evaluate("c => c.scrollWidth <= c.clientWidth"), where
            withdrawn = wrap.locator("tbody tr", has_text="zurückgezogen")
            label, name = withdrawn.locator(".withdrawn"), withdrawn.locator(".name")
            assert (
                label.evaluate("e => e.getBoundingClientRect().top")
                >= name.evaluate("e => e.getBoundingClientRect().bottom") - 1
            ), where


def test_in_round_one_the_rounds_not_yet_played_stay_beside_the_total(
    page, log_in, club, admin, players
):
    """Short points and rounds still "–" left the names room the rounds' headings took:
    at 320 and 390 px "R3" went under the pinned total (walk 30)."""
    from tournaments import services as tournaments

    tournament = tournaments.create_tournament(club, admin, name="ProHof", venue="Post")
    tournaments.add_participants(tournament, list(players.values())[:5])
    for name in ("Maximilian-Alexander von Hohenzollern", "Theresia Oberhuber-Schwarzenbacher"):
        tournaments.add_guest(tournament, name)
    for name in ("Franz", "Xaver"):
        tournaments.add_guest(tournament, name)
    round_ = tournaments.start_round(tournaments.draw_round(tournament, seed=1), admin)
    herz_solos(round_, admin, 2)
    log_in(admin)

    for width in (320, 390):
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(f"/turnier/{tournament.pk}/")
        wrap = page.locator("#stand .scroll-wrap")
        expect(wrap.locator("tbody tr")).to_have_count(9)
        assert [row for row in wrap.evaluate(COVERED) if row[1] > 0.5] == [], width
        for cell in wrap.locator("tbody th").all():
            assert cell.evaluate("c => c.scrollWidth <= c.clientWidth"), width


def test_at_320_px_a_one_word_name_stays_whole_while_the_points_are_short(
    page, log_in, club, admin, players
):
    """The room the narrow standings keep for four digits in every round goes to the
    names while the rounds are unplayed or short ("Schorsch" read "Schor" above "sch")."""
    from tournaments import services as tournaments

    tournament = tournaments.create_tournament(club, admin, name="Adventsturnier", venue="Post")
    tournaments.add_participants(tournament, list(players.values())[:6])
    for name in ("Schorsch", "Kathi Gast", "Burgi"):
        tournaments.add_guest(tournament, name)
    first = tournaments.start_round(tournaments.draw_round(tournament, seed=3), admin)
    herz_solos(first, admin, 3)
    log_in(admin)
    page.set_viewport_size({"width": 320, "height": 568})

    for address, region in (("", "#stand .scroll-wrap"), ("rangliste/", ".scroll-wrap")):
        page.goto(f"/turnier/{tournament.pk}/{address}")
        wrap = page.locator(region)

        heights = {
            name: wrap.locator("tbody th", has_text=name).evaluate("cell => cell.clientHeight")
            for name in ("Schorsch", "Burgi", "Sepp")
        }
        assert len(set(heights.values())) == 1, heights
        assert [row for row in wrap.evaluate(COVERED) if row[1] > 0.5 or row[2] > 0.5] == []
        no_horizontal_scroll(page)


@pytest.mark.parametrize(
    ("size", "screen"),
    [
        (36, {"width": 1920, "height": 1080}),
        (24, {"width": 1920, "height": 1080}),
        (17, {"width": 1920, "height": 1080}),
        (16, {"width": 1366, "height": 768}),
        (13, {"width": 1280, "height": 800}),
        (10, {"width": 1366, "height": 768}),
        (10, {"width": 1920, "height": 1080}),
    ],
)
def test_the_hall_display_shows_the_whole_field_on_one_screen(page, club, admin, size, screen):
    """A full hall (36 participants) on a 1080p screen, a field of 13 on a laptop's: every
    rank in view, no scrolling."""
    from tournaments import services as tournaments

    tournament = tournaments.create_tournament(club, admin, name="Gaumeisterschaft", venue="Post")
    field = [Player.objects.create(club=club, name=f"Spieler {n:02d}") for n in range(1, 37)]
    tournaments.add_participants(tournament, field[:size])
    page.set_viewport_size(screen)

    page.goto(f"/halle/{tournament.display_token}/")

    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(size)
    expect(rows.last).to_be_in_viewport(ratio=1)
    if size <= 10:
        # A small field grows with the screen: its totals read from the tables.
        total = rows.first.locator("td.total")
        size_px = total.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
        assert size_px >= (36 if screen["width"] == 1920 else 25), size_px
    elif size <= 24 and screen["height"] == 1080:
        # A field of up to 24 on a 1080p screen: read from afar, not in the 17 px of 36.
        name = rows.first.locator("th")
        assert name.evaluate("el => parseFloat(getComputedStyle(el).fontSize)") >= 21


def test_long_names_on_the_hall_display_leave_every_place_on_a_laptop_s_screen(page, club, admin):
    """Wrapped to three lines, two long names pushed the last places off 1280 x 800
    (walk 30): on the hall's screen a name stays on its line, cut short."""
    from tournaments import services as tournaments

    tournament = tournaments.create_tournament(club, admin, name="Gaumeisterschaft", venue="Post")
    field = [Player.objects.create(club=club, name=f"Spieler {n:02d}") for n in range(1, 8)]
    tournaments.add_participants(tournament, field)
    for name in ("Maximilian-Alexander von Hohenzollern", "Theresia Oberhuber-Schwarzenbacher"):
        tournaments.add_guest(tournament, name)
    for width, height, shown in ((1280, 800, 12), (1920, 1080, 20)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/halle/{tournament.display_token}/")

        rows = page.locator("table.standings tbody tr")
        expect(rows).to_have_count(9)
        expect(rows.last).to_be_in_viewport(ratio=1)
        heights = {row.evaluate("r => r.offsetHeight") for row in rows.all()}
        assert max(heights) - min(heights) <= 2, heights  # every name on one line
        assert page.locator(".scroll-wrap").evaluate("el => el.scrollWidth <= el.clientWidth")
        # As much of the name as the screen has room for (walk 31: 15 % at 1920 too).
        name = page.locator("tbody th .name", has_text="Theresia")
        chars = name.evaluate(
            "e => e.clientWidth / parseFloat(getComputedStyle(e).fontSize) / 0.55"
        )
        assert chars >= shown, (width, chars)


def test_a_table_ends_early_and_the_finished_tournament_stays_final_until_reopened(
    page, log_in, club, admin, players
):
    """Round 1 of 1 (two games a table): someone at table 2 leaves after one game. The
    director withdraws them and ends the table early (each with a second tap), finishes
    the tournament, which closes every table, finds a table of the finished tournament
    cannot be opened again, and opens the tournament again for a late correction."""
    import uuid

    from evenings import services as evenings
    from evenings.models import Change, Evening
    from evenings.services import GameInput
    from tournaments import services as tournaments

    tournament = tournaments.create_tournament(
        club, admin, name="Kirchweihturnier", venue="Post", round_count=1, games_per_round=2
    )
    tournaments.add_participants(tournament, list(players.values()))
    for name in ("Toni", "Burgi"):
        tournaments.add_guest(tournament, name)
    round_ = tournaments.start_round(tournaments.draw_round(tournament, seed=5), admin)
    first, second = round_.tables.select_related("evening").order_by("number")
    for table, games in ((first, 2), (second, 1)):
        for _ in range(games):
            table.evening.refresh_from_db()
            deal = evenings.next_deal(table.evening)
            data = GameInput(
                type="rufspiel", declarer=deal.playing[0].pk, partner=deal.playing[1].pk, won=True
            )
            evenings.book_game(table.evening_id, uuid.uuid4(), data, admin, deal.token)
    leaving = second.seats.order_by("position").last().participant
    name = leaving.player.name
    log_in(admin)
    page.goto(f"/turnier/{tournament.pk}/")

    # 1. The withdrawal asks first: one tap opens it, the second withdraws.
    card = page.locator("li.participant", has_text=name)
    card.locator("summary").tap()
    # ... and says that their table plays on with them (walk 37).
    expect(card.locator(".note")).to_have_text(
        f"{name} behält die Punkte bis jetzt und wird nicht mehr ausgelost. Tisch "
        f"{second.number} spielt diese Runde mit {name} weiter; kann {name} nicht "
        "weiterspielen, dort „Tisch vorzeitig beenden …“ tippen."
    )
    card.get_by_role("button", name=f"Ja, {name} zieht zurück").tap()
    expect(messages(page)).to_contain_text(f"{name} zieht zurück")
    card = page.locator("li.participant", has_text=name)
    expect(card.locator(".name .muted")).to_have_text("zurück\u00adgezogen")
    expect(card.get_by_role("button", name=f"{name} wieder aufnehmen")).to_be_visible()

    # 2. Table 2 cannot finish its games: the director ends it early, after a second tap.
    tables = page.locator("#runde-1 .round-table")
    expect(tables.nth(0).locator("summary", has_text="Tisch vorzeitig beenden")).to_have_count(0)
    tables.nth(1).locator("summary", has_text="Tisch vorzeitig beenden").tap()
    expect(tables.nth(1).locator(".note")).to_contain_text("mit den bisher 1 von 2 Spielen")
    no_horizontal_scroll(page)
    tables.nth(1).get_by_role("button", name="Ja, Tisch 2 beenden").tap()
    expect(messages(page)).to_have_text(
        "Tisch 2 ist vorzeitig beendet: die Spiele bis dahin (1 von 2) zählen."
    )
    expect(tables.locator(".counter")).to_have_text(
        ["2 von 2 Spielen · fertig", "1 von 2 Spielen · vorzeitig beendet"]
    )
    expect(page.locator("#runde-1 .round-state")).to_contain_text("Runde 1 ist fertig")

    # 3. Finishing asks first too, and closes every table.
    page.locator("summary", has_text="Turnier abschließen").tap()
    page.get_by_role("button", name="Ja, Turnier abschließen").tap()
    expect(messages(page)).to_have_text(
        "Das Turnier ist abgeschlossen, die Tische sind zu: die Rangliste steht."
    )
    expect(page.locator("#stand-heading")).to_have_text("Endstand")
    no_horizontal_scroll(page)
    assert_accessible(page, "a finished tournament's page")
    final = [row.inner_text() for row in standing_rows(page).all()]

    # 4. At a table of the finished tournament nothing changes: it stays closed. The
    # played-out round's tables are folded up, one tap away (walk 37).
    expect(tables.first).to_be_hidden()
    page.locator("#runde-1 summary", has_text="Die 2 Tische der Runde zeigen").tap()
    tables.nth(0).get_by_role("link", name="Zum Tisch (Blatt)").click()
    expect(page.locator(".closed-note")).to_contain_text("Dieser Tisch ist beendet.")
    expect(page.locator("summary", has_text="Wieder öffnen")).to_have_count(0)
    expect(
        page.get_by_text("Das Turnier ist abgeschlossen: für eine Korrektur erst")
    ).to_be_visible()
    table_url = page.url
    game = Game.objects.filter(evening_id=int(table_url.rstrip("/").split("/")[-1])).first()
    page.goto(f"{table_url}spiel/{game.pk}/")  # a correction page kept open, or typed
    # Not "until the director opens the table": nobody can while the tournament is
    # finished. The way to open it again is a tap away.
    expect(messages(page)).to_have_text(
        "Das Turnier ist abgeschlossen – nichts geändert. Für eine Korrektur öffnet die "
        "Turnierleitung erst das Turnier wieder, dann den Tisch: Zum Turnier"
    )
    assert page.url == table_url
    messages(page).get_by_role("link", name="Zum Turnier").click()
    expect(page).to_have_url(re.compile(rf"/turnier/{tournament.pk}/$"))
    assert [row.inner_text() for row in standing_rows(page).all()] == final

    # 5. For a late correction the director opens the tournament again, then the table.
    page.locator("summary", has_text="Turnier wieder öffnen").tap()
    page.get_by_role("button", name="Ja, Turnier wieder öffnen").tap()
    expect(messages(page)).to_contain_text("Das Turnier ist wieder offen.")
    expect(page.locator("#stand-heading")).to_have_text("Stand")
    page.locator("#runde-1 summary", has_text="Die 2 Tische der Runde zeigen").tap()
    tables.nth(0).get_by_role("link", name="Zum Tisch (Blatt)").click()
    page.locator("summary", has_text="Wieder öffnen").tap()
    page.get_by_role("button", name="Ja, wieder öffnen").tap()
    expect(messages(page)).to_contain_text(
        "Der Tisch ist wieder offen, zum Korrigieren: neue Spiele nimmt er keine."
    )

    # The database: the withdrawal, the table ended early, each close and reopening on
    # the record, the tournament running again with table 1 open and table 2 closed.
    tournament.refresh_from_db()
    leaving.refresh_from_db()
    second.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert leaving.withdrawn_at is not None
    assert second.ended_early_at is not None
    assert [Evening.objects.get(pk=t.evening_id).status for t in (first, second)] == [
        Evening.Status.OPEN,
        Evening.Status.CLOSED,
    ]
    assert [
        list(Change.objects.filter(evening_id=t.evening_id, kind__in=["close", "reopen"])
             .order_by("pk").values_list("kind", flat=True))
        for t in (first, second)
    ] == [["close", "reopen"], ["close"]]  # fmt: skip
    assert "ledger ok" in verify_ledger()


def test_a_tournament_made_to_try_things_out_is_deleted_in_two_taps(
    page, log_in, club, admin, players
):
    from tournaments import services as tournaments

    tournament = tournaments.create_tournament(club, admin, name="Probeturnier", venue="Hof")
    tournaments.add_participants(tournament, [players["Sepp"], players["Vroni"]])
    log_in(admin)
    page.goto(f"/turnier/{tournament.pk}/")

    page.get_by_role("link", name="Einstellungen").tap()
    page.get_by_text("Turnier löschen …").tap()
    assert_accessible(page, "tournament settings, deleting")
    page.get_by_role("button", name="Ja, Probeturnier löschen").tap()

    expect(page.get_by_role("heading", name="Turniere", level=1)).to_be_visible()
    expect(messages(page)).to_have_text("„Probeturnier“ ist gelöscht.")
    expect(page.get_by_text("Noch kein Turnier.")).to_be_visible()
    assert not Tournament.objects.exists()
    assert club.players.filter(name__in=["Sepp", "Vroni"]).count() == 2
