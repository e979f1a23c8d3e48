"""A ProHof tournament table is an evening of the tournament's Runde: booked like any
evening, scored in points (seed 000), only credited, and closed to a game beyond the
round's number."""

import dataclasses
import re
import uuid

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from clubs import services as clubs
from clubs.models import Membership, Player
from evenings import services
from evenings.models import LedgerEntry
from evenings.services import EveningError, GameInput
from tests.conftest import make_user, page_text


@pytest.fixture
def table(club, players, admin):
    runde = clubs.create_prohof_runde(club, "Stadtmeisterschaft", admin)
    return services.start_evening(
        runde, players[:5], 0, admin, label="Runde 1 · Tisch 1", game_limit=3
    )


def book(evening, data, by):
    deal = services.next_deal(evening)
    game, created = services.book_game(evening.pk, uuid.uuid4(), data, by, deal.token)
    assert created
    return game


def points(game):
    return dict(game.ledger.values_list("player__name", "amount"))


def test_a_rufspiel_with_two_laufende_and_schneider_credits_the_winners_40_each(
    table, players, admin
):
    sepp, vroni, hias, resi, wastl = players[:5]
    # Five at the table: Sepp deals and sits out the first game.
    game = book(
        table,
        GameInput(type="rufspiel", declarer=vroni.pk, partner=resi.pk, won=True, laufende=2,
                  schneider=True),
        admin,
    )  # fmt: skip

    # Seed 000: "Rufspiel mit 2 laufenden Obern, Schneider: Spiel 10, mit 2en 30,
    # Schneider 40. Die beiden Gewinner erhalten je 40 Punkte gutgeschrieben."
    assert points(game) == {"Vroni": 40, "Resi": 40, "Hias": 0, "Wastl": 0}
    assert set(game.ledger.values_list("kind", flat=True)) == {LedgerEntry.Kind.POINTS}
    assert services.standing(table)[vroni.pk] == 40
    call_command("verify_ledger")


def test_a_lost_solo_credits_each_opponent_and_a_correction_rescores(table, players, admin):
    sepp, vroni, hias, resi, wastl = players[:5]
    game = book(
        table,
        GameInput(type="solo", declarer=hias.pk, suit="herz", won=False, laufende=0),
        admin,
    )
    assert points(game) == {"Hias": 0, "Vroni": 30, "Resi": 30, "Wastl": 30}

    services.correct_game(
        table.pk, game.pk, GameInput(type="solo", declarer=hias.pk, suit="herz", won=True), admin
    )

    assert services.standing(table) == {
        sepp.pk: 0, vroni.pk: 0, hias.pk: 90, resi.pk: 0, wastl.pk: 0
    }  # fmt: skip
    call_command("verify_ledger")


def test_money_games_kontra_and_payments_are_refused_at_a_table(table, players, admin):
    sepp, vroni, hias, resi, wastl = players[:5]
    with pytest.raises(EveningError):
        book(table, GameInput(type="sauspiel", declarer=vroni.pk, partner=resi.pk), admin)
    with pytest.raises(EveningError):
        book(
            table,
            GameInput(type="rufspiel", declarer=vroni.pk, partner=resi.pk, kontra=1),
            admin,
        )
    book(table, GameInput(type="ueberkreuz", declarer=vroni.pk, partner=wastl.pk), admin)
    with pytest.raises(EveningError, match="nicht bezahlt"):
        services.record_payment(table.pk, vroni.pk, hias.pk, 10, admin)
    assert table.games.count() == 1


def test_the_game_after_the_round_s_last_is_refused(table, players, admin):
    for _ in range(3):
        deal = services.next_deal(table)
        declarer, partner = deal.playing[0], deal.playing[2]
        book(table, GameInput(type="ueberkreuz", declarer=declarer.pk, partner=partner.pk), admin)

    deal = services.next_deal(table)
    with pytest.raises(EveningError, match="alle 3 Spiele"):
        book(
            table,
            GameInput(type="ueberkreuz", declarer=deal.playing[0].pk, partner=deal.playing[2].pk),
            admin,
        )
    assert table.games.booked().count() == 3
    # A struck game makes room for the one that counts ...
    struck = table.games.get(number=2)
    services.void_game(table.pk, struck.pk, admin)
    deal = services.next_deal(table)
    book(
        table,
        GameInput(type="ueberkreuz", declarer=deal.playing[0].pk, partner=deal.playing[2].pk),
        admin,
    )
    # ... and then it cannot count again: the table has all its games.
    with pytest.raises(EveningError, match="alle 3 Spiele der Runde gespielt"):
        services.restore_game(table.pk, struck.pk, admin)
    assert table.games.booked().count() == 3


def test_the_tournament_s_runde_is_not_among_the_club_s_money_runden(table, club, runde):
    assert list(club.runden.money()) == [runde]


# -- the entry screen --------------------------------------------------------------------


def post_game(client, evening, **fields):
    deal = services.next_deal(evening)
    data = {"key": str(uuid.uuid4()), "deal": deal.token, "won": "1", "laufende": "1",
            "laufende_wenz": "1", **fields}  # fmt: skip
    return client.post(f"/abend/{evening.pk}/buchen/", data, HTTP_HX_REQUEST="true")


def test_the_entry_screen_offers_only_prohof_s_games_and_counts_to_the_round_s_end(
    client, table, admin
):
    client.force_login(admin)

    page = client.get(f"/abend/{table.pk}/").content.decode()

    for offered in ("Rufspiel", "Eichel-Solo", "Wenz", "Über Kreuz", "Schneider angesagt",
                    "Tout angesagt", "Spiel 1 von 3", "Runde 1 · Tisch 1"):  # fmt: skip
        assert offered in page, offered
    for absent in ('name="kontra"', 'name="doubled"', 'value="ramsch"', 'value="sauspiel"',
                   "Abrechnung", 'name="laufende" value="0"',
                   'name="laufende_wenz" value="0"'):  # fmt: skip
        assert absent not in page, absent
    # "Mit oder ohne": every game has at least one Laufender, and starts with one.
    assert 'name="laufende" value="1" checked data-default' in page
    assert 'name="laufende_wenz" value="1" checked data-default' in page


def test_a_game_sent_to_a_table_ended_meanwhile_is_refused_in_the_table_s_words(
    client, table, players, admin
):
    client.force_login(admin)
    services.close_evening(table.pk, admin)  # the director ended it on another phone

    answer = post_game(
        client, table, spiel="rufspiel", declarer=players[1].pk, partner=players[2].pk
    )

    assert answer["HX-Refresh"] == "true"
    page = client.get(f"/abend/{table.pk}/").content.decode()
    assert "Der Tisch wurde inzwischen beendet – nichts gebucht." in page
    assert not table.games.exists()


def test_the_phone_that_lost_the_race_for_the_last_game_is_told(client, table, players, admin):
    client.force_login(admin)
    for _ in range(2):
        post_game(
            client, table, spiel="ueberkreuz", declarer=services.next_deal(table).playing[0].pk
        )
    deal = services.next_deal(table)
    form = {"key": str(uuid.uuid4()), "deal": deal.token, "won": "1", "laufende": "1",
            "laufende_wenz": "1", "spiel": "wenz", "declarer": str(deal.playing[1].pk)}  # fmt: skip
    # The other phone books game 3 of 3 first.
    post_game(client, table, spiel="ueberkreuz", declarer=deal.playing[0].pk)

    answer = client.post(f"/abend/{table.pk}/buchen/", form, HTTP_HX_REQUEST="true")

    assert answer["HX-Refresh"] == "true"
    page = client.get(f"/abend/{table.pk}/").content.decode()
    assert "Das letzte Spiel des Tisches ist inzwischen auf einem anderen Handy gebucht" in page
    assert "Alle 3 Spiele gespielt." in page
    assert list(table.games.values_list("type", flat=True)) == ["ueberkreuz"] * 3


def test_over_the_cross_the_partner_is_the_player_opposite(client, table, players, admin):
    sepp, vroni, hias, resi, wastl = players[:5]
    client.force_login(admin)
    # Sepp deals and sits out: Vroni, Hias, Resi, Wastl play; opposite Hias sits Wastl.

    answer = post_game(client, table, spiel="ueberkreuz", declarer=hias.pk, schneider="on")

    assert "Gebucht" in answer.content.decode()
    game = table.games.get()
    assert (game.type, game.declarer, game.partner) == ("ueberkreuz", hias, wastl)
    # Über Kreuz 10, mit oder ohne einem 10, Schneider 10.
    assert points(game) == {"Hias": 30, "Wastl": 30, "Vroni": 0, "Resi": 0}
    page = client.get(f"/abend/{table.pk}/").content.decode()
    assert "Spiel 2 von 3" in page
    assert "30\xa0P." in page  # the game's value, on one line


def test_the_preview_shows_points(client, table, players, admin):
    sepp, vroni, hias, resi, wastl = players[:5]
    client.force_login(admin)
    deal = services.next_deal(table)

    answer = client.post(
        f"/abend/{table.pk}/vorschau/",
        {"key": str(uuid.uuid4()), "deal": deal.token, "spiel": "wenz", "declarer": vroni.pk,
         "won": "1", "laufende": "1", "laufende_wenz": "3", "schneider": "on", "schwarz": "on",
         "angesagt": "on"},
        HTTP_HX_REQUEST="true",
    )  # fmt: skip

    # Seed 000: "Schneiderwenz mit 3en schwarz: Wenz 20, angesagt 30, mit 3en 60,
    # Schneider 70, Schwarz 80. Der Gewinner erhält 3 x 80 Punkte also 240 Punkte."
    assert "+240 P." in answer.content.decode()


@pytest.mark.parametrize(
    "data",
    [GameInput(type="solo", suit="herz", won=True, laufende=2),
     GameInput(type="wenz", won=True, laufende=1)],
    ids=["Herz-Solo", "Wenz"],
)  # fmt: skip
def test_a_table_s_game_opened_for_correction_shows_its_points_at_once(
    client, table, players, admin, data
):
    vroni = players[1]
    game = book(table, dataclasses.replace(data, declarer=vroni.pk), admin)
    client.force_login(admin)

    panel = page_text(
        client.get(reverse("evenings:game", args=[table.pk, game.pk]), HTTP_HX_REQUEST="true")
    )

    # Both Laufende fields stand on a chip of the table's (from 1), the unused one too, so
    # the preview of the game as it is shows before anything is tapped.
    points = dict(game.ledger.values_list("player__name", "amount"))
    assert f'Vroni <span class="amount">+{points["Vroni"]} P.</span>' in panel
    assert "Vorschau: Spieler wählen" not in panel


def test_a_table_s_history_speaks_of_the_table(client, table, evening, admin):
    services.close_evening(table.pk, admin)
    client.force_login(admin)

    reopened = client.post(reverse("evenings:reopen", args=[table.pk]), follow=True)
    at_table = client.get(reverse("evenings:history", args=[table.pk])).text
    at_evening = client.get(reverse("evenings:history", args=[evening.pk])).text

    assert "Der Tisch ist wieder offen." in reopened.text
    headings = re.findall(r'<li class="change \w+">\s*<div><strong>([^<]*)</strong>', at_table)
    assert headings == ["Tisch begonnen", "Tisch beendet", "Tisch wieder geöffnet"]
    assert "← zurück zum Tisch</a>" in at_table
    assert "<strong>Abend begonnen</strong>" in at_evening
    assert "← zurück zum Abend</a>" in at_evening


def test_a_named_scorekeeper_books_at_the_table_but_a_plain_player_does_not(
    client, club, players, admin
):
    player_user = make_user("vroni", "Vroni")
    Membership.objects.create(user=player_user, club=club, role=Membership.Role.PLAYER)
    runde = clubs.create_prohof_runde(club, "Stadtmeisterschaft", admin)
    theirs = services.start_evening(runde, players[:4], 0, admin, scorekeeper=player_user)
    other = services.start_evening(runde, players[:4], 0, admin)
    client.force_login(player_user)
    deal = services.next_deal(theirs)
    rufspiel = {"spiel": "rufspiel", "declarer": deal.seated[0].pk,
                "partner": deal.seated[1].pk}  # fmt: skip

    assert "Gebucht" in post_game(client, theirs, **rufspiel).content.decode()
    assert post_game(client, other, **rufspiel).status_code == 404
    assert other.games.count() == 0


def test_a_player_named_and_unnamed_a_table_s_scorekeeper_is_told_so_by_the_sheet(
    client, club, table, admin
):
    """The director's naming, not "deine Rolle im Verein", which did not change (walk 22):
    named, the phone following the table gets the form; another named, it loses it."""
    vroni = make_user("vroni", "Vroni")
    Membership.objects.create(user=vroni, club=club, role=Membership.Role.PLAYER)
    client.force_login(vroni)
    poll = reverse("evenings:sheet", args=[table.pk])
    looking = {"v": table.version, "looks": "1"}
    assert client.get(poll, looking).status_code == 204

    services.set_scorekeeper(table.pk, vroni, admin)
    named = client.get(poll, looking)

    assert named["HX-Refresh"] == "true"
    page = client.get(reverse("evenings:detail", args=[table.pk])).text
    assert "Die Turnierleitung hat dich als Schreiber dieses Tisches eingetragen" in page
    assert "Deine Rolle im Verein" not in page and 'id="entry-form"' in page
    table.refresh_from_db()
    booking = {"v": table.version, "deal": services.next_deal(table).token}
    assert client.get(poll, booking).status_code == 204

    services.set_scorekeeper(table.pk, admin, admin)
    table.refresh_from_db()
    unnamed = client.get(poll, booking | {"v": table.version})

    assert unnamed["HX-Refresh"] == "true"
    page = client.get(reverse("evenings:detail", args=[table.pk])).text
    assert "einen anderen Schreiber für diesen Tisch eingetragen" in page
    assert 'id="entry-form"' not in page


def test_a_named_scorekeeper_finds_their_running_table_on_the_start_page(
    client, club, players, admin
):
    player_user = make_user("vroni", "Vroni")
    Membership.objects.create(user=player_user, club=club, role=Membership.Role.PLAYER)
    runde = clubs.create_prohof_runde(club, "Stadtmeisterschaft", admin)
    mine = services.start_evening(
        runde, players[:4], 0, admin, label="Runde 1 · Tisch 2", scorekeeper=player_user
    )
    services.start_evening(runde, players[:4], 0, admin, label="Runde 1 · Tisch 1")
    client.force_login(player_user)

    running = client.get(reverse("start")).text
    services.close_evening(mine.pk, admin)
    closed = client.get(reverse("start")).text

    link = f'<a class="card" href="{reverse("evenings:detail", args=[mine.pk])}">'
    assert f"{link}<strong>Stadtmeisterschaft · Runde 1 · Tisch 2</strong>" in running
    assert running.count('class="card" href="/abend/') == 1  # not the other table
    assert "Dein Tisch" not in closed and link not in closed


def test_a_table_with_all_its_games_leaves_its_scorekeeper_s_start_page_until_one_is_struck(
    client, table, admin
):
    """A table of 3 games with all 3 booked has nothing left to enter: it was still
    under "Dein Tisch", "du schreibst", as if something were to do."""
    table.scorekeeper = admin
    table.save(update_fields=["scorekeeper"])
    client.force_login(admin)
    link = f'<a class="card" href="{reverse("evenings:detail", args=[table.pk])}">'
    for _ in range(2):
        book(table, GameInput(type="wenz", declarer=services.next_deal(table).playing[0].pk), admin)
    assert link in client.get(reverse("start")).text
    last = book(
        table, GameInput(type="wenz", declarer=services.next_deal(table).playing[0].pk), admin
    )

    played = client.get(reverse("start")).text
    services.void_game(table.pk, last.pk, admin)
    struck = client.get(reverse("start")).text

    assert table.games.booked().count() == 2
    assert "Dein Tisch" not in played and link not in played
    assert f"{link}<strong>Stadtmeisterschaft · Runde 1 · Tisch 1</strong>" in struck
    assert "du schreibst" in struck


def test_a_player_finds_the_running_table_they_sit_at_on_the_start_page(
    client, club, runde, players, admin
):
    sepp, vroni, hias, resi, wastl = players[:5]
    vroni.user = make_user("vroni", "Vroni")
    vroni.save()
    Membership.objects.create(user=vroni.user, club=club, role=Membership.Role.PLAYER)
    cup = clubs.create_prohof_runde(club, "Stadtmeisterschaft", admin)
    table = services.start_evening(
        cup, [sepp, vroni, hias, resi], 0, admin, label="Runde 1 · Tisch 2", scorekeeper=admin
    )
    services.start_evening(cup, [sepp, hias, resi, wastl], 0, admin, label="Runde 1 · Tisch 1")
    money = services.start_evening(runde, [vroni, hias, resi, wastl], 0, admin)
    client.force_login(vroni.user)

    page = client.get(reverse("start")).text

    link = f'<a class="card" href="{reverse("evenings:detail", args=[table.pk])}">'
    assert f"{link}<strong>Stadtmeisterschaft · Runde 1 · Tisch 2</strong></a>" in page
    assert "Dein Tisch" in page and "du schreibst" not in page
    # Not the table she is not at; her money evening is under her accounts' last evenings.
    assert page.count('<a class="card" href="/abend/') == 1
    assert reverse("evenings:detail", args=[money.pk]) in page


def test_an_announced_schneider_not_reached_cannot_be_booked_as_won(client, table, players, admin):
    sepp, vroni, hias, resi, wastl = players[:5]
    client.force_login(admin)

    answer = post_game(
        client, table, spiel="rufspiel", declarer=vroni.pk, partner=resi.pk, angesagt="on"
    )

    assert "Schneider angesagt, aber nicht erreicht" in answer.content.decode()
    assert table.games.count() == 0


def test_a_tournament_table_seats_four_or_five(club, players, admin):
    runde = clubs.create_prohof_runde(club, "Stadtmeisterschaft", admin)
    with pytest.raises(EveningError, match="4 oder 5"):
        services.start_evening(runde, players[:6], 0, admin)


def test_tournament_guests_are_not_offered_for_a_money_evening(client, club, runde, admin):
    Player.objects.create(club=club, name="Gast Toni", guest=True)
    Player.objects.create(club=club, name="Sepp")
    client.force_login(admin)

    page = client.get(f"/verein/{club.pk}/runde/{runde.pk}/abend/neu/").content.decode()

    assert "Sepp" in page
    assert "Gast Toni" not in page


def test_a_table_prints_and_downloads_its_points_and_has_no_settlement(
    client, table, players, admin
):
    sepp, vroni, hias, resi, wastl = players[:5]
    book(
        table,
        GameInput(type="rufspiel", declarer=vroni.pk, partner=resi.pk, won=True, laufende=2,
                  schneider=True),
        admin,
    )  # fmt: skip
    client.force_login(admin)

    printed = client.get(f"/abend/{table.pk}/drucken/")
    csv = client.get(f"/abend/{table.pk}/csv/").content.decode("utf-8-sig")

    # Which table it is, for a stack of printed sheets.
    assert "Stadtmeisterschaft · Runde 1 · Tisch 1</strong>" in printed.text
    # The closing lines are the points: nothing paid, Vroni and Resi stand at 40.
    assert printed.context["paid"] is False
    assert [balance for _games, _paid, balance in printed.context["closing"]] == [0, 40, 0, 40, 0]
    assert '<th scope="row" colspan="2">Punkte</th>' in printed.text
    assert "Punkte; je Spieler der Stand nach dem Spiel" in printed.text
    assert "€" not in printed.text and "läuft noch" in printed.text  # 1 of 3 played
    for _ in range(2):
        deal = services.next_deal(table)
        data = GameInput(type="rufspiel", declarer=deal.playing[0].pk, partner=deal.playing[2].pk)
        book(table, data, admin)
    printed = client.get(f"/abend/{table.pk}/drucken/")
    assert "Tisch fertig" in printed.text and "läuft noch" not in printed.text
    header, line, total = csv.splitlines()
    assert header == "Nr.;Abend;Spiel;Sepp;Vroni;Hias;Resi;Wastl"
    assert line.endswith(";;40;0;40;0")
    assert total == ";;Summe der Punkte;0;40;0;40;0"
    assert client.get(f"/abend/{table.pk}/abrechnung/").status_code == 404


def rufspiel_form(table) -> dict:
    """The entry form as a table's phone sends it, for the next deal."""
    deal = services.next_deal(table)
    p = [x.pk for x in deal.playing]
    return {"key": str(uuid.uuid4()), "deal": deal.token, "spiel": "rufspiel", "won": "1",
            "laufende": "1", "declarer": p[0], "partner": p[2]}  # fmt: skip


def test_a_table_with_all_its_games_shows_no_entry_form_and_says_so(client, table, players, admin):
    client.force_login(admin)
    page = reverse("evenings:detail", args=[table.pk])
    htmx = {"HX-Request": "true"}
    for _ in range(2):
        client.post(reverse("evenings:book", args=[table.pk]), rufspiel_form(table), headers=htmx)
    before_last = client.get(page).text
    form = rufspiel_form(table)

    last = client.post(reverse("evenings:book", args=[table.pk]), form, headers=htmx)
    # Another phone's form polls with the deal it was made for.
    poll = client.get(reverse("evenings:sheet", args=[table.pk]),
                      {"v": "0", "deal": form["deal"]}, headers=htmx)  # fmt: skip
    after = client.get(page).text

    assert "Spiel 3 von 3" in before_last and 'id="entry-form"' in before_last
    assert last["HX-Refresh"] == "true" and poll["HX-Refresh"] == "true"
    assert "Alle 3 Spiele gespielt." in after
    # The phone that polled with a form is told why it went.
    assert "Alle Spiele des Tisches sind gebucht, das letzte auf einem anderen Handy." in after
    assert 'id="entry-form"' not in after and "Spiel 4 von 3" not in after
    assert "Letztes Spiel zurücknehmen" in after  # corrections stay possible
    assert table.games.count() == 3


def played_out(client, table):
    """The table's three games booked through the app; the page without an entry form."""
    for _ in range(3):
        client.post(reverse("evenings:book", args=[table.pk]), rufspiel_form(table),
                    headers={"HX-Request": "true"})  # fmt: skip
    table.refresh_from_db()
    return client.get(reverse("evenings:detail", args=[table.pk])).text


def test_a_game_struck_at_a_played_out_table_brings_the_form_back_on_both_phones(
    client, table, admin
):
    page = reverse("evenings:detail", args=[table.pk])
    client.force_login(admin)
    full = played_out(client, table)
    other = Client()
    other.force_login(admin)
    game = table.games.get(number=2)
    poll_url = re.search(r'<div id="poll"[^>]* hx-get="([^"]+)"', full)[1].replace("&amp;", "&")

    # A correction of a played-out table: nothing for an entry form in its answer.
    edit = reverse("evenings:game", args=[table.pk, game.pk])
    shown = dict(re.findall(r'<input type="hidden" name="(k-[a-z_]+)" value="([^"]*)"',
                            client.get(edit).text))  # fmt: skip
    corrected = client.post(
        edit,
        shown | {"k-spiel": "rufspiel", "k-declarer": game.declarer_id, "k-won": "1",
                 "k-partner": game.partner_id, "k-laufende": "2", "v": str(table.version)},
        headers={"HX-Request": "true"},
    )  # fmt: skip
    game.refresh_from_db()
    table.refresh_from_db()
    # The game struck from this phone (it has no entry form, so it sends no deal).
    struck = client.post(
        reverse("evenings:void", args=[table.pk, game.pk]),
        {"v": str(table.version), "seen": GameInput.of(game).fingerprint()},
        headers={"HX-Request": "true"},
    )
    # The other phone, showing the table played out, polls as its page says.
    polled = other.get(poll_url, headers={"HX-Request": "true"})
    again = other.get(page).text

    assert "full=1" in poll_url and 'id="entry-form"' not in full
    assert corrected.status_code == 200 and "Korrigiert" in corrected.text
    assert 'id="entry-status"' not in corrected.text and 'id="id_deal"' not in corrected.text
    assert struck["HX-Refresh"] == "true"
    assert polled["HX-Refresh"] == "true"
    assert 'id="entry-form"' in again
    # Game 4 is dealt, the third that counts: numbered as the sheet's rows (walk 52).
    assert "Spiel 4, das 3. von 3 (1 Spiel zählt nicht) · <strong>" in again
    assert "am Tisch ist wieder eines offen" in again
    assert "full=1" not in again  # reloaded once: no loop
    assert not table.games.get(number=2).is_booked


def test_a_table_s_correction_says_no_other_game_changes(client, table, players, admin):
    """A tournament's points know no Bock: "alle späteren Spiele sind neu berechnet", the
    money evenings' word, had a director look for games that changed (walk 28)."""
    sepp, vroni, hias, resi, wastl = players[:5]
    client.force_login(admin)
    post_game(client, table, spiel="ueberkreuz", declarer=hias.pk)
    post_game(client, table, spiel="ueberkreuz", declarer=resi.pk)
    game = table.games.get(number=1)
    url = reverse("evenings:game", args=[table.pk, game.pk])

    panel = page_text(client.get(url, HTTP_HX_REQUEST="true"))
    fields = {"spiel": "ueberkreuz", "declarer": vroni.pk, "won": "1", "laufende": "1"}
    fields |= {"key": str(uuid.uuid4())}
    seen = {"k-seen": services.GameInput.of(game).fingerprint()}
    saved = client.post(url, {f"k-{k}": v for k, v in fields.items()} | seen, follow=True)

    assert "Die anderen Spiele bleiben, wie sie sind; die Änderung steht im Verlauf." in panel
    assert "späteren Spiele" not in panel
    assert "Korrigiert: Spiel 1, Über Kreuz" in page_text(saved)  # and "Rückgängig"
    assert table.games.get(number=1).declarer == vroni
