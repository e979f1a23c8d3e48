"""A player's own pages (home, overview, history), the Runde page's balances and evenings,
and an evening's print view and CSV, against a small history computed by hand.

The history (default tariff: Sauspiel 0,10 €, Solo and Wenz 0,50 €; settled to the cent):

Evening 1 (last year), Sepp deals, all four play every game:
  1. Sauspiel Vroni with Hias, won        Vroni +10  Hias +10  Resi -10   Sepp -10
  2. Herz-Solo Resi, won                  Vroni -50  Hias -50  Resi +150  Sepp -50
  3. Sauspiel Sepp with Resi, booked won, corrected to lost:
                                          Vroni +10  Hias +10  Resi -10   Sepp -10
  4. Sauspiel Hias with Vroni, struck: counts for nobody
  games                                   Vroni -30  Hias -30  Resi +130  Sepp -70
  then Sepp pays Resi 0,70 € at the table: payments Sepp +70, Resi -70.
Evening 2 (this year), Vroni deals, Hias, Resi, Wastl, Vroni play:
  1. Wenz Vroni, won                      Vroni +150 Hias -50  Resi -50  Wastl -50

The Runde: Vroni 1,20 €, Resi 0,10 € (games 0,80 €, payments -0,70 €), Sepp 0,00 € (games
-0,70 €, payments 0,70 €), Wastl -0,50 €, Hias -0,80 €. Settled: Hias pays Vroni 0,80 €,
Wastl pays Vroni 0,40 € and Resi 0,10 € (biggest debtor first, to the biggest creditor).
"""

import itertools
import re
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.db.models import Sum
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clubs import periods
from clubs import players as player_pages
from clubs import services as club_services
from clubs.models import Club, Player, Runde, Tariff
from evenings import export
from evenings import services as evening_services
from evenings.models import Evening, Game, LedgerEntry, Seat
from evenings.services import GameInput
from tests.clubs.conftest import bulk_ledger
from tests.conftest import page_text


@dataclass
class History:
    runde: Runde
    sepp: Player
    vroni: Player
    hias: Player
    resi: Player
    wastl: Player
    first: Evening
    second: Evening
    corrected: Game
    struck: Game


def book(evening: Evening, by, **fields) -> Game:
    game, created = evening_services.book_game(evening.pk, uuid.uuid4(), GameInput(**fields), by)
    assert created
    return game


def moved_to(evening: Evening, when: datetime) -> Evening:
    Evening.objects.filter(pk=evening.pk).update(started_at=when)
    evening.refresh_from_db()
    return evening


def last_year() -> datetime:
    return periods.periods()[1].start + timedelta(days=40, hours=19)


@pytest.fixture
def history(club, runde, admin, scorekeeper, player_user) -> History:
    resi = club.players.get(user=admin)
    hias = Player.objects.create(club=club, name="Hias", user=scorekeeper)
    vroni = Player.objects.create(club=club, name="Vroni", user=player_user)
    sepp = Player.objects.create(club=club, name="Sepp")
    wastl = Player.objects.create(club=club, name="Wastl")

    first = evening_services.start_evening(runde, [sepp, vroni, hias, resi], 0, admin)
    book(first, admin, type="sauspiel", declarer=vroni.pk, partner=hias.pk)
    book(first, admin, type="farbsolo", declarer=resi.pk, suit="herz")
    corrected = book(first, admin, type="sauspiel", declarer=sepp.pk, partner=resi.pk)
    evening_services.correct_game(
        first.pk,
        corrected.pk,
        GameInput(type="sauspiel", declarer=sepp.pk, partner=resi.pk, won=False),
        admin,
    )
    struck = book(first, admin, type="sauspiel", declarer=hias.pk, partner=vroni.pk)
    evening_services.void_game(first.pk, struck.pk, admin)
    evening_services.record_payment(first.pk, sepp.pk, resi.pk, 70, admin)
    evening_services.close_evening(first.pk, admin)
    first = moved_to(first, last_year())

    second = evening_services.start_evening(runde, [vroni, hias, resi, wastl], 0, admin)
    book(second, admin, type="wenz", declarer=vroni.pk)
    return History(runde, sepp, vroni, hias, resi, wastl, first, second, corrected, struck)


def vroni_wins_in_another_runde(history: History, name: str, admin) -> Game:
    """A second Runde of the club, `name`, where Vroni and Resi win a Sauspiel against
    Hias and Sepp: the game."""
    runde = club_services.create_runde(history.runde.club, name, admin)
    seated = [history.vroni, history.hias, history.resi, history.sepp]
    evening = evening_services.start_evening(runde, seated, 0, admin)
    return book(evening, admin, type="sauspiel", declarer=history.vroni.pk, partner=history.resi.pk)


def home_url(club_id: int, player: Player) -> str:
    return reverse("clubs:player_home", args=[club_id, player.pk])


def history_url(club_id: int, player: Player) -> str:
    return reverse("clubs:player_history", args=[club_id, player.pk])


# -- balances and the settlement lines ------------------------------------------------------


def test_the_accounts_are_the_hand_computed_balances_and_settlement(history):
    homes = player_pages.homes([history.vroni, history.resi, history.sepp, history.hias])

    accounts = {home.player.name: home.accounts[0] for home in homes}
    assert {name: (a.games, a.payments, a.balance) for name, a in accounts.items()} == {
        "Vroni": (120, 0, 120),
        "Resi": (80, -70, 10),
        "Sepp": (-70, 70, 0),
        "Hias": (-80, 0, -80),
    }
    assert accounts["Vroni"].transfers == [
        player_pages.Transfer("Hias", 80, pays=False),
        player_pages.Transfer("Wastl", 40, pays=False),
    ]
    assert accounts["Resi"].transfers == [player_pages.Transfer("Wastl", 10, pays=False)]
    assert accounts["Sepp"].transfers == []
    assert accounts["Hias"].transfers == [player_pages.Transfer("Vroni", 80, pays=True)]
    assert [(r.evening.pk, r.games, r.payments, r.total) for r in accounts["Resi"].last] == [
        (history.second.pk, -50, 0, -50),
        (history.first.pk, 130, -70, 60),
    ]
    # The database's totals are what the ledger holds.
    assert LedgerEntry.objects.filter(player=history.resi).balances() == {history.resi.pk: 10}


def test_the_last_evenings_are_each_runde_s_five_newest_with_what_they_brought(
    history, club, admin
):
    # Seven more evenings in the Runde (Resi at each, Sepp at every other one), an
    # Ausgleich where Hias pays, and a second Runde where only Resi and three others play.
    h = history
    for n in range(7):
        table = [h.resi, h.vroni, h.hias, h.sepp if n % 2 else h.wastl]
        evening = evening_services.start_evening(h.runde, table, n % 4, admin)
        book(evening, admin, type="sauspiel", declarer=h.resi.pk, partner=table[3].pk)
        evening_services.close_evening(evening.pk, admin)
    evening_services.close_evening(h.second.pk, admin)
    ausgleich = evening_services.start_ausgleich(h.runde, admin)
    open_ = evening_services.runde_open(ausgleich, before=True)
    payer, payee = min(open_, key=open_.__getitem__), max(open_, key=open_.__getitem__)
    evening_services.record_payment(ausgleich.pk, payer, payee, 10, admin)
    other = club_services.create_runde(club, "Montagsrunde", admin)
    evening = evening_services.start_evening(other, [h.resi, h.sepp, h.hias, h.wastl], 0, admin)
    book(evening, admin, type="wenz", declarer=h.hias.pk)

    players = [h.resi, h.sepp, h.vroni, h.hias, h.wastl]
    homes = player_pages.homes(players)

    for player, home in zip(players, homes, strict=True):
        for account in home.accounts:
            # What the ledger says, the plain way: every evening of the Runde the player
            # sat at or paid in, newest first, with their games and payments there.
            results = []
            for evening in Evening.objects.filter(runde=account.runde):
                entries = LedgerEntry.objects.filter(evening=evening, player=player)
                games = sum(entries.filter(kind="game").values_list("amount", flat=True))
                paid = sum(entries.filter(kind="payment").values_list("amount", flat=True))
                if evening.seats.filter(player=player).exists() or (evening.settles_runde and paid):
                    results.append((evening.started_at, evening.pk, games, paid))
            expected = sorted(results, reverse=True)[: player_pages.LAST_EVENINGS]
            assert [
                (r.evening.started_at, r.evening.pk, r.games, r.payments) for r in account.last
            ] == expected
            assert all(r.evening.runde == account.runde for r in account.last)
    # Resi's accounts: both Runden, by name; Vroni's: only the one she sat in.
    assert [a.runde.name for a in homes[0].accounts] == ["Donnerstagsrunde", "Montagsrunde"]
    assert [a.runde.name for a in homes[2].accounts] == ["Donnerstagsrunde"]


def test_a_spieler_sees_their_balance_and_who_pays_them_on_the_start_page(
    client, history, player_user
):
    client.force_login(player_user)

    response = client.get(reverse("start"))

    assert response.status_code == 200
    text = page_text(response)
    assert "Deine Konten: Schafkopffreunde Au" in text
    assert '<span class="amount big">+1,20 €</span>' in text
    # The amounts whole, never "1,20 / €" at 320 px; a sign as on the Runde's page.
    assert (
        'Spiele <span class="amount">+1,20 €</span> · <span class="amount">keine Zahlungen' in text
    )
    assert "Hias zahlt dir 0,80 €" in text
    assert "Wastl zahlt dir 0,40 €" in text
    assert "Du zahlst" not in text
    assert history_url(history.runde.club_id, history.vroni) in text
    # Her last evenings, newest first, each with its result and a link.
    second = text.index(reverse("evenings:detail", args=[history.second.pk]))
    first = text.index(reverse("evenings:detail", args=[history.first.pk]))
    assert second < first
    assert "Spiele +1,50 €" in text and "Spiele -0,30 €" in text
    # The second evening is still open: said on its card, the closed first's says nothing.
    assert text.count('<span class="pill">läuft</span>') == 1
    assert second < text.index('<span class="pill">läuft</span>') < first


def test_who_pays_a_player_is_marked_if_they_no_longer_come_to_the_table(
    client, history, scorekeeper, player_user
):
    """Walk 71: Vroni's start page said "Hias zahlt dir 0,80 €" of a Hias gone from the
    club, where the Runde's accounts and the Ausgleich mark him."""
    club_services.remove_member(history.hias.user.memberships.get(), history.hias.user)
    history.wastl.active = False
    history.wastl.save()
    client.force_login(player_user)

    text = page_text(client.get(reverse("start")))

    assert "Hias (ausgeschieden) zahlt dir 0,80 €" in text
    assert "Wastl (inaktiv) zahlt dir 0,40 €" in text


def test_a_player_of_two_runden_reads_how_it_is_settled_once(client, history, admin, player_user):
    vroni_wins_in_another_runde(history, "Freitagsrunde", admin)
    client.force_login(player_user)

    text = page_text(client.get(reverse("start")))

    # Said at the first Runde; each links its accounts (walk 33: said five times over).
    assert text.count("So wird ausgeglichen, was über alle Abende der Runde offen ist") == 1
    assert text.count(">Konten der Runde</a>") == 2


def test_how_it_is_settled_is_said_where_a_payment_is_due(client, history, admin, player_user):
    # Vroni's first Runde by name has nothing to settle (its one game struck); her other
    # has: the note goes there, not beside "keine Zahlung" (walk 66).
    struck = vroni_wins_in_another_runde(history, "Abendrunde", admin)
    evening_services.void_game(struck.evening_id, struck.pk, admin)
    client.force_login(player_user)

    text = page_text(client.get(reverse("start")))

    nothing = text.index("Zurzeit steht keine Zahlung an.")
    due = text.index("Hias zahlt dir 0,80 €")
    assert nothing < due
    assert text.count("So wird ausgeglichen, was über alle Abende der Runde offen ist") == 1
    assert due < text.index("So wird ausgeglichen")
    assert text.count(">Konten der Runde</a>") == 2


def test_the_start_page_names_the_player_a_login_plays_as(client, history, player_user):
    client.force_login(player_user)  # Vroni's login, first name Vroni
    assert "heißt du" not in client.get(reverse("start")).text

    history.vroni.name = "Veronika"
    history.vroni.save()

    text = client.get(reverse("start")).text
    assert "Am Tisch und auf den Blättern heißt du Veronika." in text
    # Two evenings of one day told apart by their time.
    started = timezone.localtime(history.second.started_at).strftime("%d.%m.%Y · %H:%M")
    assert f'<span class="when">{started} <span class="pill">läuft</span></span>' in text


def test_a_debtor_reads_whom_they_pay_and_a_payment_shows_on_the_evening(
    client, history, scorekeeper, admin
):
    client.force_login(scorekeeper)
    assert "Du zahlst Vroni 0,80 €" in page_text(client.get(reverse("start")))

    client.force_login(admin)
    text = page_text(client.get(reverse("start")))

    assert "Wastl zahlt dir 0,10 €" in text
    assert '<span class="amount big">+0,10 €</span>' in text
    # She received 0,70 €: said in words, not as a bare "-0,70 €" that reads as paid.
    # Her Runde's payments are kept as their net, and said so (walk 22).
    assert (
        'Spiele <span class="amount">+0,80 €</span> · netto erhalten <span class="amount">0,70 €'
        in (text)
    )
    assert "Spiele +1,30 €" in text and ">erhalten 0,70 €<" in text  # evening 1
    assert "Zahlungen -0,70" not in text


def test_an_evening_where_a_player_paid_and_was_paid_says_both(client, history, admin):
    """Resi pays Vroni 0,50 € for Vroni's Wenz; corrected to lost, it is Vroni who pays
    Resi 1,00 €. Resi's card says both, not the net "erhalten 0,50 €", which is neither
    what she handed over nor what she got; a payment cancelled counts for nothing."""
    second, resi, vroni = history.second, history.resi, history.vroni
    mistake = evening_services.record_payment(second.pk, resi.pk, vroni.pk, 30, admin)
    evening_services.cancel_payment(second.pk, mistake.pk, admin)
    evening_services.record_payment(second.pk, resi.pk, vroni.pk, 50, admin)
    wenz = Game.objects.get(evening=second)
    lost = GameInput(type="wenz", declarer=vroni.pk, won=False)
    evening_services.correct_game(second.pk, wenz.pk, lost, admin)
    evening_services.record_payment(second.pk, vroni.pk, resi.pk, 100, admin)

    [home] = player_pages.homes([resi])

    result = home.accounts[0].last[0]
    assert (result.evening, result.paid, result.received, result.payments) == (
        second,
        50,
        100,
        -50,
    )
    paid = LedgerEntry.objects.filter(evening=second, player=resi, kind="payment")
    assert paid.aggregate(net=Sum("amount")) == {"net": -50}
    client.force_login(admin)
    text = page_text(client.get(home_url(history.runde.club_id, resi)))
    assert ">gezahlt 0,50 € · erhalten 1,00 €<" in text
    # Vroni's the other way round; the other evening, without payments, says none.
    text = page_text(client.get(home_url(history.runde.club_id, vroni)))
    assert ">gezahlt 1,00 € · erhalten 0,50 €<" in text
    assert text.count("gezahlt 1,00 €") == 1


def test_the_runde_s_balances_sign_payments_as_paid_or_received(client, history, admin):
    client.force_login(admin)

    text = client.get(reverse("clubs:runde", args=[history.runde.club_id, history.runde.pk])).text

    table = text.split('<table class="runde-balances"')[1].split("</table>")[0]
    # Per row: the name, then the cells Stand, Spiele, Zahlungen.
    cells = {
        re.sub(r"<[^>]+>|\(du\)", "", name.partition(">")[2]).strip(): cells
        for name, cells in (
            (row.split("</th>")[0], re.findall(r"<td [^>]*>([^<]*)</td>", row))
            for row in table.split("<tbody>")[1].split("<tr")[1:]
        )
    }
    paid = {name: row[2] for name, row in cells.items()}
    # Sepp paid Resi 0,70 € at the first evening: "+" for who paid, "-" for who received.
    assert paid["Sepp"] == "+0,70" and paid["Resi"] == "-0,70" and paid["Vroni"] == "0,00"
    # The games unsigned where positive: a "+" more did not fit beside balances in the
    # hundreds on the narrowest phone (tests/browser/test_player_pages.py).
    assert cells["Vroni"][1] == "1,20" and cells["Hias"][1] == "-0,80"
    assert "(+ gezahlt, - erhalten)" in text


def test_someone_without_a_player_sees_just_their_clubs(client, user):
    client.force_login(user)

    response = client.get(reverse("start"))

    assert response.status_code == 200
    assert "Deine Konten" not in response.text
    assert "Du bist noch in keinem Verein" in response.text


def test_the_settlement_rounds_to_the_runde_s_current_unit(history, set_unit):
    set_unit(history.runde, 50)

    (home,) = player_pages.homes([history.vroni])

    # Rounded down to whole 0,50 €: Vroni gets 1,00 € of her 1,20 €, Hias pays 0,50 € of
    # his 0,80 € and Wastl his 0,50 €; Resi's 0,10 € are below the unit.
    account = home.accounts[0]
    assert account.transfers == [
        player_pages.Transfer("Hias", 50, pays=False),
        player_pages.Transfer("Wastl", 50, pays=False),
    ]
    assert account.left_open == 20


def test_what_rounding_leaves_open_is_said_as_owed_or_to_get(
    client, history, set_unit, player_user, admin
):
    set_unit(history.runde, 50)

    client.force_login(player_user)
    own = client.get(reverse("start")).text
    client.force_login(admin)
    others = client.get(home_url(history.runde.club_id, history.hias)).text

    # Vroni gets 1,00 € of her 1,20 €; Hias pays 0,50 € of his 0,80 €.
    # The amount whole at 320 px (walk 74: "0,20 / €").
    assert (
        'Offen bleibt: du bekommst noch <span class="amount">0,20 €</span>; das bleibt auf dem '
        "Konto der Runde stehen."
    ) in own
    # A Spieler enters no payment: the page says who does, and where (walk 73: "im
    # Ausgleich der Runde" only, while the evening's Abrechnung takes it too).
    assert (
        "Eintragen kann es ein Schreiber oder Admin, in der Abrechnung eines Abends oder im "
        "Ausgleich der Runde:"
    ) in own
    assert 'Offen bleibt: Hias schuldet noch <span class="amount">0,30 €</span>; das' in others


@pytest.fixture
def set_unit():
    def set_unit(runde: Runde, unit: int) -> None:
        tariff = runde.tariffs.latest()
        tariff.pk, tariff.settle_unit = None, unit
        tariff.save()

    return set_unit


# -- the overview page and who may see it ----------------------------------------------------


def test_a_spieler_sees_their_own_overview_but_not_anothers(client, history, player_user):
    club_id = history.runde.club_id
    client.force_login(player_user)

    own = client.get(home_url(club_id, history.vroni))
    other = client.get(home_url(club_id, history.hias))
    other_history = client.get(history_url(club_id, history.hias))

    assert own.status_code == 200
    assert "Deine Übersicht" in page_text(own)
    assert "Hias zahlt dir 0,80 €" in page_text(own)
    assert other.status_code == other_history.status_code == 404


@pytest.mark.parametrize("who", ["admin", "scorekeeper"])
def test_admins_and_schreiber_see_any_player_in_the_third_person(client, history, request, who):
    client.force_login(request.getfixturevalue(who))

    response = client.get(home_url(history.runde.club_id, history.wastl))
    listing = client.get(history_url(history.runde.club_id, history.wastl))

    assert response.status_code == listing.status_code == 200
    assert "Übersicht: Wastl" in page_text(response)
    assert "Wastl zahlt Vroni 0,40 €" in page_text(response)
    assert "Wastl zahlt Resi 0,10 €" in page_text(response)
    assert "-0,50 €" in page_text(response)
    # Set inactive, the heading says so, as the Runde's accounts do (walk 74).
    history.wastl.active = False
    history.wastl.save()
    again = page_text(client.get(home_url(history.runde.club_id, history.wastl)))
    assert "<h1>Übersicht: Wastl (inaktiv)</h1>" in again
    assert "Spiele von Wastl" in listing.text


def test_another_clubs_admin_and_another_clubs_player_are_not_found(client, history, other_admin):
    other_club = Club.objects.get(name="Kartler Giesing")
    theirs = other_club.players.get(user=other_admin)
    client.force_login(other_admin)

    assert client.get(home_url(history.runde.club_id, history.vroni)).status_code == 404
    assert client.get(history_url(history.runde.club_id, history.vroni)).status_code == 404
    # Their own club's URL does not reach a player of this one either, and the other way.
    assert client.get(home_url(other_club.pk, history.vroni)).status_code == 404
    assert client.get(home_url(other_club.pk, theirs)).status_code == 200
    client.force_login(history.runde.club.memberships.get(role="admin").user)
    assert client.get(home_url(history.runde.club_id, theirs)).status_code == 404


# -- the history -----------------------------------------------------------------------------


HISTORY_ROW = re.compile(
    r'<a class="card game-line" href="/abend/(\d+)/#game-(\d+)">.*?<strong>(.*?)</strong>'
    r'(?: <span class="muted">(.*?)</span>)?</span>\n<span class="amount[^"]*">(.*?)</span>',
    re.DOTALL,
)


def history_of(response) -> list[tuple[int, int, str, str, int]]:
    """The history's rows as the page shows them: evening, game number, caption, details
    and the amount in cents."""
    rows = HISTORY_ROW.findall(response.text)
    return [
        (int(e), int(n), unescape(caption), unescape(details), int(re.sub(r"[^\d-]", "", cents)))
        for e, n, caption, details, cents in rows
    ]


def rows_of(response) -> list[tuple[int, int, str, int]]:
    return [(evening, n, caption, cents) for evening, n, caption, _, cents in history_of(response)]


def test_a_bock_game_in_the_history_says_bock_as_its_doubled_amount_does(
    client, club, runde, admin, player_user
):
    tariff = runde.tariffs.latest()
    tariff.bock = Tariff.Bock.RAMSCH
    club_services.change_tariff(runde, tariff, admin)
    resi = club.players.get(user=admin)
    vroni = Player.objects.create(club=club, name="Vroni", user=player_user)
    sepp, hias = (Player.objects.create(club=club, name=name) for name in ("Sepp", "Hias"))
    evening = evening_services.start_evening(runde, [sepp, vroni, hias, resi], 0, admin)
    book(evening, admin, type="ramsch", won=False, loser=sepp.pk)
    book(evening, admin, type="sauspiel", declarer=vroni.pk, partner=hias.pk)
    client.force_login(player_user)

    response = client.get(history_url(club.pk, vroni))

    assert [row[2:] for row in history_of(response)] == [
        ("Sauspiel Vroni mit Hias", "gewonnen · Bock", 20),  # 0,10 € doubled
        ("Ramsch: Sepp verliert", "", 10),
    ]


def test_the_history_lists_every_game_played_newest_first_with_the_ledger_amount(
    client, history, player_user
):
    client.force_login(player_user)

    response = client.get(history_url(history.runde.club_id, history.vroni))

    first, second = history.first.pk, history.second.pk
    assert rows_of(response) == [
        (second, 1, "Wenz Vroni", 150),
        (first, 3, "Sauspiel Sepp mit Resi", 10),  # corrected: -10, +10, +10
        (first, 2, "Herz-Solo Resi", -50),
        (first, 1, "Sauspiel Vroni mit Hias", 10),
    ]
    assert "Deine Spiele" in response.text
    assert '4 Spiele · zusammen <span class="amount">+1,20 €</span>' in response.text
    assert "verloren" in response.text  # the corrected game's details
    # Vroni sat against Sepp and Resi, who lost, and against Resi's solo, which she won:
    # the result is told as hers, as the amount is; her own games are told as they were.
    details = [details for _, _, _, details, _ in history_of(response)]
    # The corrected game says so (walk 42: it read as if always booked so).
    assert details == [
        "gewonnen",
        "als Gegenspieler gewonnen · korrigiert",
        "als Gegenspieler verloren",
        "gewonnen",
    ]
    assert reverse("evenings:detail", args=[first]) + "#game-3" in response.text
    # Each row says when its evening began, to the minute: two of a day read apart.
    began = timezone.localtime(history.first.started_at).strftime("%d.%m.%Y %H:%M")
    when = f"{began} · {history.runde.name} · 3.\N{NO-BREAK SPACE}Spiel"  # "3." by "Spiel"
    assert f'<span class="when">{when}</span>' in response.text
    assert '<span class="amount big">+1,50 €</span>' in response.text
    assert '<span class="amount big negative">-0,50 €</span>' in response.text


def test_a_page_of_the_history_read_from_the_newest_evenings_is_the_page_of_all_games(
    history, admin
):
    """NewestGames reads a page from the player's newest evenings; here the newest hold
    no game of the filter's (an empty evening, another Runde's, one moved back in time),
    so every slice must still be the one the whole list gives."""
    h = history
    other = club_services.create_runde(h.runde.club, "Freitagsrunde", admin)
    seated = [h.sepp, h.vroni, h.hias, h.resi]
    busy = evening_services.start_evening(h.runde, seated, 0, admin)
    for _ in range(3):
        book(busy, admin, type="sauspiel", declarer=h.vroni.pk, partner=h.sepp.pk)
    moved_to(busy, h.second.started_at - timedelta(days=3))
    elsewhere = evening_services.start_evening(other, seated, 0, admin)
    book(elsewhere, admin, type="wenz", declarer=h.vroni.pk)
    evening_services.start_evening(h.runde, seated, 0, admin)  # no game yet

    for games in (
        player_pages.games_of(h.vroni),
        player_pages.games_of(h.vroni).filter(evening__runde=h.runde),
    ):
        ids = list(games.values_list("pk", flat=True))
        newest = player_pages.NewestGames(games.values_list("pk", flat=True), h.vroni)
        assert newest.count() == len(ids)
        for start in range(len(ids) + 1):
            for stop in range(start + 1, len(ids) + 2):
                assert newest[start:stop] == ids[start:stop], (start, stop)


def test_a_rundes_sums_are_kept_until_one_of_its_evenings_changes(history, admin):
    """The balances are added up once and then kept; every kind of change to one of the
    Runde's evenings (and a new evening) has them added up again, to what the ledger says."""
    h = history

    def balances() -> tuple[dict[str, int], bool]:
        with CaptureQueriesContext(connection) as queries:
            shown = {row.name: row.total for row in player_pages.runde_balances(h.runde, None)}
        added = any('SUM("evenings_eveningtotal"."amount")' in q["sql"]
                    for q in queries.captured_queries)  # fmt: skip
        return shown, added

    def ledger() -> dict[str, int]:
        return dict(
            LedgerEntry.objects.filter(evening__runde=h.runde)
            .values_list("player__name")
            .annotate(total=Sum("amount"))
        )

    first, again = balances(), balances()
    assert first == (ledger(), True)
    assert again == (ledger(), False)

    made: dict[str, object] = {}

    def pay():
        at_second = evening_services.balances(h.second)
        payer, payee = min(at_second, key=at_second.get), max(at_second, key=at_second.get)
        made["payment"] = evening_services.record_payment(h.second.pk, payer, payee, 10, admin)

    steps = [
        lambda: made.update(
            game=book(h.second, admin, type="sauspiel", declarer=h.resi.pk, partner=h.wastl.pk)
        ),
        pay,
        lambda: evening_services.correct_game(
            h.second.pk,
            made["game"].pk,
            GameInput(type="sauspiel", declarer=h.resi.pk, partner=h.wastl.pk, won=False),
            admin,
        ),
        lambda: evening_services.cancel_payment(h.second.pk, made["payment"].pk, admin),
        lambda: evening_services.void_game(h.second.pk, made["game"].pk, admin),
        lambda: evening_services.undo_last(h.second.pk, admin),
        lambda: book(
            evening_services.start_evening(h.runde, [h.sepp, h.vroni, h.hias, h.wastl], 0, admin),
            admin,
            type="wenz",
            declarer=h.sepp.pk,
        ),
    ]
    seen = [first[0]]
    for step in steps:
        step()
        shown, added = balances()
        assert (shown, added) == (ledger(), True)
        assert balances() == (shown, False)
        seen.append(shown)
    # Each step moved the money, so no step could have been answered from the one before.
    assert all(a != b for a, b in itertools.pairwise(seen)), seen


def test_the_count_of_a_players_games_is_kept_until_one_of_their_evenings_changes(
    client, history, admin, player_user
):
    h = history
    client.force_login(player_user)
    url = history_url(h.runde.club_id, h.vroni)
    this_year = url + f"?runde={h.runde.pk}&zeitraum=dieses-jahr"

    def counted(url: str) -> tuple[int, bool]:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        counting = any('SELECT COUNT(*) AS "__count" FROM "evenings_game"' in q["sql"]
                       for q in queries.captured_queries)  # fmt: skip
        adding = any('SUM("evenings_eveningtotal"."amount")' in q["sql"]
                     for q in queries.captured_queries)  # fmt: skip
        # What the games came to is kept with their count, and read again with it.
        assert adding == counting
        if url == this_year:
            games = LedgerEntry.objects.filter(evening=h.second)
        else:
            games = LedgerEntry.objects.all()
        assert (
            response.context["result"]
            == (games.filter(player=h.vroni, kind="game").aggregate(sum=Sum("amount"))["sum"])
        )
        return response.context["page"].paginator.count, counting

    first, again, filtered = counted(url), counted(url), counted(this_year)
    book(h.second, admin, type="sauspiel", declarer=h.vroni.pk, partner=h.resi.pk)
    after_booking = counted(url)
    evening_services.void_game(h.second.pk, h.second.games.get(number=1).pk, admin)
    after_strike = counted(url)
    third = evening_services.start_evening(h.runde, [h.vroni, h.hias, h.resi, h.wastl], 0, admin)
    book(third, admin, type="wenz", declarer=h.vroni.pk)
    after_new_evening = counted(url)

    assert (first, again) == ((4, True), (4, False))
    assert filtered == (1, True)  # counted apart: last year's evening's games are not
    assert after_booking == (5, True)
    assert after_strike == (4, True)
    assert after_new_evening == (5, True)


def test_a_page_of_the_history_is_kept_until_one_of_the_players_evenings_changes(
    client, history, admin, player_user
):
    h = history
    client.force_login(player_user)
    url = history_url(h.runde.club_id, h.vroni)

    def shown() -> tuple[list, bool]:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        read = any('FROM "evenings_ledgerentry"' in q["sql"] for q in queries.captured_queries)
        return rows_of(response), read

    first, read = shown()
    assert read and first[0] == (h.second.pk, 1, "Wenz Vroni", 150)
    assert shown() == (first, False)
    # Kept: a new name, which changes no evening, shows within ten minutes at most.
    Player.objects.filter(pk=h.vroni.pk).update(name="Veronika")
    assert shown() == (first, False)

    wenz = h.second.games.get(number=1)
    evening_services.correct_game(
        h.second.pk,
        wenz.pk,
        evening_services.GameInput("wenz", declarer=h.vroni.pk, won=False),
        admin,
    )
    corrected, read = shown()
    assert read and corrected[0] == (h.second.pk, 1, "Wenz Veronika", -150)
    assert corrected[1:] == [(e, n, caption.replace("Vroni", "Veronika"), cents)
                             for e, n, caption, cents in first[1:]]  # fmt: skip
    evening_services.void_game(h.second.pk, wenz.pk, admin)
    assert shown() == (corrected[1:], True)


def test_a_player_who_sat_out_a_game_does_not_have_it_in_the_history(
    client, history, admin, scorekeeper
):
    h = history
    five = evening_services.start_evening(
        h.runde, [h.wastl, h.sepp, h.vroni, h.hias, h.resi], 0, admin
    )
    # Wastl deals and sits out the first game.
    book(five, admin, type="sauspiel", declarer=history.sepp.pk, partner=history.vroni.pk)
    client.force_login(scorekeeper)

    wastl = client.get(history_url(history.runde.club_id, history.wastl))
    sepp = client.get(history_url(history.runde.club_id, history.sepp))

    assert [r[:2] for r in rows_of(wastl)] == [(history.second.pk, 1)]
    assert rows_of(sepp)[0][:2] == (five.pk, 1)


def test_the_history_filters_by_period(client, history, player_user):
    client.force_login(player_user)
    url = history_url(history.runde.club_id, history.vroni)

    this_year = client.get(url, {"zeitraum": "dieses-jahr"})
    last_year_ = client.get(url, {"zeitraum": "letztes-jahr"})
    nonsense = client.get(url, {"zeitraum": "\x00"})

    assert [r[:2] for r in rows_of(this_year)] == [(history.second.pk, 1)]
    assert [r[:2] for r in rows_of(last_year_)] == [(history.first.pk, n) for n in (3, 2, 1)]
    assert len(rows_of(nonsense)) == 4
    assert '<option value="letztes-jahr" selected>' in last_year_.text
    # What the chosen games came to.
    assert '1 Spiel · zusammen <span class="amount">+1,50 €</span>' in this_year.text
    assert '3 Spiele · zusammen <span class="amount negative">-0,30 €</span>' in last_year_.text


def test_a_long_history_is_filtered_by_each_year_since_the_player_s_first(
    client, history, player_user
):
    # The first evening moved back three years more: "dieses Jahr", "letztes Jahr", the
    # three years before that, and "alles".
    long_ago = history.first.started_at.replace(year=history.first.started_at.year - 3)
    moved_to(history.first, long_ago)
    client.force_login(player_user)
    url = history_url(history.runde.club_id, history.vroni)
    year = str(timezone.localtime(long_ago).year)

    offered = client.get(url).context["periods"]
    that_year = client.get(url, {"zeitraum": year})

    assert [p.label for p in offered] == [
        "dieses Jahr", "letztes Jahr", str(int(year) + 2), str(int(year) + 1), year, "alles"
    ]  # fmt: skip
    assert [r[:2] for r in rows_of(that_year)] == [(history.first.pk, n) for n in (3, 2, 1)]
    assert f'<option value="{year}" selected>' in that_year.text
    assert '3 Spiele · zusammen <span class="amount negative">-0,30 €</span>' in that_year.text
    # A year before the first (an old link's) is not offered: all of it, as its filter
    # says (walk 61: "dieses Jahr" in the filter, no games below).
    before = client.get(url, {"zeitraum": str(int(year) - 1)})
    assert len(rows_of(before)) == 4
    assert '<option value="alles" selected>' in before.text


def test_the_history_filters_by_runde(client, history, admin, player_user):
    club = history.runde.club
    friday = club_services.create_runde(club, "Freitagsrunde", admin)
    evening = evening_services.start_evening(
        friday, [history.sepp, history.vroni, history.hias, history.resi], 0, admin
    )
    book(evening, admin, type="ramsch", won=False, loser=history.vroni.pk)
    client.force_login(player_user)
    url = history_url(club.pk, history.vroni)

    only_friday = client.get(url, {"runde": friday.pk})
    only_thursday = client.get(url, {"runde": history.runde.pk, "zeitraum": "dieses-jahr"})
    everything = client.get(url)
    unknown = client.get(url, {"runde": "99999999999999999999"})

    assert rows_of(only_friday) == [(evening.pk, 1, "Ramsch: Vroni verliert", -30)]
    assert [r[:2] for r in rows_of(only_thursday)] == [(history.second.pk, 1)]
    assert len(rows_of(everything)) == len(rows_of(unknown)) == 5
    assert f'<option value="{friday.pk}" selected>' in only_friday.text
    assert 'zusammen <span class="amount negative">-0,30 €</span>' in only_friday.text
    assert 'zusammen <span class="amount">+1,50 €</span>' in only_thursday.text
    assert 'zusammen <span class="amount">+0,90 €</span>' in everything.text


def test_the_history_pages_fifty_games_at_a_time(client, history, admin, monkeypatch):
    assert player_pages.GAMES_PER_PAGE == 50
    monkeypatch.setattr(player_pages, "GAMES_PER_PAGE", 2)
    client.force_login(admin)
    url = history_url(history.runde.club_id, history.vroni)

    pages = [client.get(url, {"seite": n, "zeitraum": "alles"}) for n in (1, 2)]
    beyond = client.get(url, {"seite": "999"})
    broken = client.get(url, {"seite": "x\x00"})
    # Below the first page is the first page (walk 86: Django's Paginator gave the last).
    below = [client.get(url, {"seite": n, "zeitraum": "alles"}) for n in ("0", "-1")]

    first, second = history.first.pk, history.second.pk
    assert [r[:2] for r in rows_of(pages[0])] == [(second, 1), (first, 3)]
    assert [r[:2] for r in rows_of(pages[1])] == [(first, 2), (first, 1)]
    assert "Seite 1 von 2" in pages[0].text
    assert "?zeitraum=alles&amp;seite=2" in pages[0].text  # the filter stays on
    assert rows_of(beyond) == rows_of(pages[1])
    assert rows_of(broken) == rows_of(pages[0])
    assert [rows_of(page) for page in below] == [rows_of(pages[0])] * 2


# -- the Runde page --------------------------------------------------------------------------


def test_the_runde_page_lists_every_balance_and_marks_ones_own_row(client, history, player_user):
    client.force_login(player_user)

    response = client.get(reverse("clubs:runde", args=[history.runde.club_id, history.runde.pk]))

    rows = [(b.name, b.games, b.payments, b.total, b.own) for b in response.context["balances"]]
    assert rows == [
        ("Vroni", 120, 0, 120, True),
        ("Resi", 80, -70, 10, False),
        ("Sepp", -70, 70, 0, False),
        ("Wastl", -50, 0, -50, False),
        ("Hias", -80, 0, -80, False),
    ]
    text = response.text
    assert text.count('class="own"') == 1
    own_row = text.split('<tr class="own">')[1].split("</tr>")[0]
    assert "Vroni" in own_row and '<span class="you">(du)</span>' in own_row
    assert "1,20 €" in own_row
    # A Spieler's own name leads to their overview; the others' do not.
    assert home_url(history.runde.club_id, history.vroni) in own_row
    assert home_url(history.runde.club_id, history.hias) not in text


def test_the_runde_page_shows_each_evenings_results_newest_first(client, history, admin):
    client.force_login(admin)

    response = client.get(reverse("clubs:runde", args=[history.runde.club_id, history.runde.pk]))

    evenings = list(response.context["evenings"])
    assert [e.pk for e in evenings] == [history.second.pk, history.first.pk]
    assert [e.results for e in evenings] == [
        [("Vroni", 150), ("Hias", -50), ("Resi", -50), ("Wastl", -50)],
        [("Resi", 130), ("Hias", -30), ("Vroni", -30), ("Sepp", -70)],
    ]
    assert 'Resi&nbsp;<span class="amount">+1,30</span>' in page_text(response)
    # What the page showed before stays: the tariff, its history, the stats' place.
    assert "Tarifverlauf" in page_text(response) and "für Abende ab" in page_text(response)
    assert reverse("evenings:runde_csv", args=[history.runde.club_id, history.runde.pk]) in (
        page_text(response)
    )
    assert reverse("clubs:player_home", args=[history.runde.club_id, history.wastl.pk]) in (
        page_text(response)
    )


def test_the_runde_page_pages_its_evenings(client, history, admin, monkeypatch):
    monkeypatch.setattr(player_pages, "EVENINGS_PER_PAGE", 1)
    client.force_login(admin)
    url = reverse("clubs:runde", args=[history.runde.club_id, history.runde.pk])

    second = client.get(url, {"seite": 2})

    assert [e.pk for e in second.context["evenings"]] == [history.first.pk]
    assert "Seite 2 von 2" in second.text
    assert "?seite=1#evenings" in second.text


# -- print and CSV ---------------------------------------------------------------------------


def test_the_print_view_is_the_paper_block_with_totals_payments_and_a_line_to_sign(
    client, history, player_user
):
    client.force_login(player_user)

    response = client.get(reverse("evenings:print", args=[history.first.pk]))

    assert response.status_code == 200
    text = response.text
    assert "Schafkopf-Block" in text
    assert "Am Tisch: Sepp, Vroni, Hias, Resi" in text
    assert (
        history.first.started_at.astimezone(timezone.get_current_timezone()).strftime("%d.%m.%Y")
        in text
    )
    # Closed on another day than it began (here: played last year, closed today): the
    # closing's date too, not the day of play with another day's time (walk 27).
    closed = timezone.localtime(history.first.closed_at).strftime("%d.%m.%Y, %H:%M")
    assert f"abgeschlossen am {closed}" in text
    head = text.split("<thead>")[1].split("</thead>")[0]
    assert [name in head for name in ("Sepp", "Vroni", "Hias", "Resi")] == [True] * 4
    # Game 2, the Herz-Solo: each column's running total, then what the game brought.
    row = text.split('<td class="nr">2</td>')[1].split("</tr>")[0]
    assert "Herz-Solo Resi" in row
    assert [cell.split("</td>")[0] for cell in row.split('<td class="num">')[1:]] == [
        '<span class="total">-0,60</span> <span class="delta">-0,50</span>',
        '<span class="total">-0,40</span> <span class="delta">-0,50</span>',
        '<span class="total">-0,40</span> <span class="delta">-0,50</span>',
        '<span class="total">1,40</span> <span class="delta">+1,50</span>',
    ]
    assert "<s>Sauspiel Hias mit Vroni</s> · gestrichen" in text
    # What to check at the table, as on the screen's sheet (a plain win says no more).
    # ... and that it was corrected (walk 42).
    assert '<td class="game">Sauspiel Sepp mit Resi · verloren · korrigiert <span' in text
    assert '<td class="game">Herz-Solo Resi <span' in text
    foot = text.split("<tfoot>")[1].split("</tfoot>")[0]
    assert "Zahlungen (+ gezahlt, - erhalten)" in foot
    assert '<td class="num">+0,70</td>' in foot and '<td class="num">-0,70</td>' in foot
    assert '<td class="num">0,60</td>' in foot  # Resi: 1,30 won, 0,70 received
    assert "Datum, Unterschrift" in text and 'class="sign-line"' in text
    assert 'class="print-actions no-print"' in text


def test_the_evening_screen_links_to_print_and_csv(client, history, player_user):
    client.force_login(player_user)

    response = client.get(reverse("evenings:detail", args=[history.first.pk]))

    nav = response.text.split('<nav class="evening-actions"')[1].split("</nav>")[0]
    assert reverse("evenings:print", args=[history.first.pk]) in nav
    assert reverse("evenings:csv", args=[history.first.pk]) in nav


@pytest.fixture
def five(club, runde, admin, history) -> Evening:
    """Five at the table on 12.03.2026: Sepp, Vroni, Hias, Resi, Wastl; Sepp deals."""
    h = history
    seated = [h.sepp, h.vroni, h.hias, h.resi, h.wastl]
    evening = evening_services.start_evening(runde, seated, 0, admin)
    # 1. Sepp deals and sits out: Vroni, Hias, Resi, Wastl play.
    book(evening, admin, type="sauspiel", declarer=h.vroni.pk, partner=h.wastl.pk)
    # 2. Vroni deals and sits out; a Herz-Solo of Resi, corrected from won to lost.
    solo = book(evening, admin, type="farbsolo", declarer=h.resi.pk, suit="herz")
    lost = GameInput(type="farbsolo", declarer=h.resi.pk, suit="herz", won=False, schneider=True)
    evening_services.correct_game(evening.pk, solo.pk, lost, admin)
    # 3. Hias deals; the game is struck, so he deals again: 4. a Ramsch that Sepp loses.
    struck = book(evening, admin, type="wenz", declarer=h.sepp.pk)
    evening_services.void_game(evening.pk, struck.pk, admin)
    book(evening, admin, type="ramsch", won=False, loser=h.sepp.pk)
    when = timezone.make_aware(datetime(2026, 3, 12, 19, 30))
    return moved_to(evening, when)


def test_the_evening_csv_opens_in_a_german_spreadsheet_byte_for_byte(client, five, player_user):
    client.force_login(player_user)

    response = client.get(reverse("evenings:csv", args=[five.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        'attachment; filename="donnerstagsrunde-2026-03-12-1930.csv"'
    )
    assert response.content == (
        "\ufeffNr.;Abend;Spiel;Sepp;Vroni;Hias;Resi;Wastl;"
        "Sepp (Cent);Vroni (Cent);Hias (Cent);Resi (Cent);Wastl (Cent)\r\n"
        "1;12.03.2026 19:30;Sauspiel Vroni mit Wastl · gewonnen;;0,10;-0,10;-0,10;0,10;"
        ";10;-10;-10;10\r\n"
        "2;12.03.2026 19:30;Herz-Solo Resi · verloren · Schneider · korrigiert;0,60;;0,60;"
        "-1,80;0,60;60;;60;-180;60\r\n"
        # Game 3, struck, keeps its row as on the sheet, and counts nothing (walk 82).
        "3;12.03.2026 19:30;Wenz Sepp · gestrichen;;;;;;;;;;\r\n"
        "4;12.03.2026 19:30;Ramsch: Sepp verliert;-0,30;0,10;;0,10;0,10;-30;10;;10;10\r\n"
        # The sums, as the sheet's standing: no payments.
        ";;Summe der Spiele;0,30;0,20;0,50;-1,80;0,80;30;20;50;-180;80\r\n"
    ).encode("utf-8")
    assert response.content.startswith(b"\xef\xbb\xbf")


def test_the_runde_csv_streams_every_game_oldest_first(client, history, five, player_user):
    # Between the other two evenings, whatever the year the test runs in.
    five = moved_to(five, history.first.started_at + timedelta(days=30))
    client.force_login(player_user)
    url = reverse("evenings:runde_csv", args=[history.runde.club_id, history.runde.pk])

    response = client.get(url)

    assert response.streaming
    assert response["Content-Disposition"] == 'attachment; filename="donnerstagsrunde.csv"'
    lines = b"".join(response.streaming_content).decode("utf-8").split("\r\n")
    assert lines[0] == (
        "\ufeffNr.;Abend;Spiel;Hias;Resi;Sepp;Vroni;Wastl;"
        "Hias (Cent);Resi (Cent);Sepp (Cent);Vroni (Cent);Wastl (Cent)"
    )
    first_day = export.evening_date(history.first)
    second_day = export.evening_date(history.second)
    five_day = export.evening_date(five)
    assert [tuple(line.split(";")[:2]) for line in lines[1:-4]] == [
        # The struck games (the first's 4, the five's 3) keep their rows (walk 82).
        *((n, first_day) for n in ("1", "2", "3", "4")),
        *((n, five_day) for n in ("1", "2", "3", "4")),
        ("1", second_day),
    ]
    # The corrected game says so, as the printed block does (walk 45).
    assert lines[3] == (
        f"3;{first_day};Sauspiel Sepp mit Resi · verloren · korrigiert;0,10;-0,10;-0,10;0,10;;"
        "10;-10;-10;10;"
    )
    assert lines[-5].endswith(";-0,50;-0,50;;1,50;-0,50;-50;-50;;150;-50")
    # Then the sums of the Runde, as its balances page has them: games, payments (Sepp
    # paid Resi 0,70 €), and the balance after them.
    assert lines[-4:] == [
        ";;Summe der Spiele;-0,30;-1,00;-0,40;1,40;0,30;-30;-100;-40;140;30",
        ";;Zahlungen (+ gezahlt, - erhalten);0,00;-0,70;0,70;0,00;0,00;0;-70;70;0;0",
        ";;Stand;-0,30;-1,70;0,30;1,40;0,30;-30;-170;30;140;30",
        "",
    ]


def test_a_name_a_spreadsheet_would_run_as_a_formula_is_written_as_text(club, runde, admin):
    assert export.as_text("=HYPERLINK(1)") == "'=HYPERLINK(1)"
    assert export.as_text("@Loisl") == "'@Loisl"
    assert export.as_text("Vroni") == "Vroni"
    assert (export.decimal_comma(123456), export.decimal_comma(-5)) == ("1234,56", "-0,05")
    people = [club.players.get()] + [
        Player.objects.create(club=club, name=n) for n in ("=1+1", "Sepp", "Vroni")
    ]
    evening = evening_services.start_evening(runde, people, 0, admin)

    header = next(export.evening_lines(evening))

    assert header.startswith("\ufeffNr.;Abend;Spiel;Resi;'=1+1;Sepp;Vroni;")


# -- what the pages cost ---------------------------------------------------------------------


def queries_of(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200, url
    return len(queries)


def test_the_player_and_runde_pages_cost_the_same_queries_at_10_and_at_1000_evenings(
    client, history, admin, player_user
):
    """Evenings, seats, one game each and the evenings' totals made in bulk: the pages'
    queries must not grow with them."""
    h = history
    seated = [h.sepp, h.vroni, h.hias, h.resi]

    def evenings(count: int) -> None:
        now = timezone.now()
        made = Evening.objects.bulk_create(
            Evening(
                runde=h.runde,
                tariff=h.runde.tariff,
                started_by=admin,
                status="closed",
                started_at=now - timedelta(days=n),
            )
            for n in range(count)
        )
        Seat.objects.bulk_create(
            Seat(evening=e, player=p, position=i) for e in made for i, p in enumerate(seated)
        )
        games = Game.objects.bulk_create(
            Game(
                evening=e,
                number=1,
                key=uuid.uuid4(),
                dealer=h.sepp,
                type="ramsch",
                loser=h.vroni,
                seating=[p.pk for p in seated],
                created_by=admin,
            )
            for e in made
        )
        bulk_ledger(admin, games, {"ramsch": (10, -30, 10, 10)})

    club_id = h.runde.club_id
    pages = [
        reverse("start"),
        reverse("clubs:runde", args=[club_id, h.runde.pk]),
        reverse("clubs:runde", args=[club_id, h.runde.pk]) + "?seite=2",
        home_url(club_id, h.vroni),
        history_url(club_id, h.vroni),
        history_url(club_id, h.vroni) + f"?runde={h.runde.pk}&zeitraum=dieses-jahr&seite=2",
    ]
    client.force_login(player_user)
    evenings(10)
    few = [queries_of(client, url) for url in pages]
    evenings(990)

    assert Evening.objects.filter(runde=h.runde).count() == 1002
    assert [queries_of(client, url) for url in pages] == few
    # Sanity: the bulk evenings are on the pages.
    listing = client.get(history_url(club_id, h.vroni))
    assert listing.context["page"].paginator.count == 1004
    assert len(history_of(listing)) == 50


def test_the_start_page_queries_do_not_grow_with_the_clubs_of_a_user(client, history, admin):
    client.force_login(admin)
    one = queries_of(client, reverse("start"))
    for n in range(3):
        other = club_services.create_club(admin, f"Verein {n}")
        runde = club_services.create_runde(other, "Runde", admin)
        people = [other.players.get()] + [
            Player.objects.create(club=other, name=name) for name in ("A", "B", "C")
        ]
        evening = evening_services.start_evening(runde, people, 0, admin)
        book(evening, admin, type="ramsch", won=False, loser=people[1].pk)

    assert queries_of(client, reverse("start")) == one
    assert get_user_model().objects.get(pk=admin.pk).players.count() == 4


def test_the_kept_accounts_show_every_change_at_once(client, history, player_user, admin):
    """The start page and a player's home keep the accounts' HTML; whatever they show
    changes it (other players' new names come within ten minutes)."""
    runde, vroni = history.runde, history.vroni

    def accounts(user, url) -> str:
        client.force_login(user)
        text = page_text(client.get(url))
        return re.search(r'<section class="account".*</section>', text, re.S)[0]

    def shown() -> list[str]:
        # Vroni's own start page ("Hias zahlt dir"), and her home as the admin sees it.
        return [
            accounts(player_user, reverse("start")),
            accounts(admin, home_url(runde.club_id, vroni)),
        ]

    def new_tariff():
        tariff = runde.tariffs.latest()
        tariff.settle_unit = 100
        assert club_services.change_tariff(runde, tariff, admin) is not None

    def pay(payer, payee, cents):
        evening_services.record_payment(history.second.pk, payer.pk, payee.pk, cents, admin)

    for change, shows in [
        (lambda: book(history.second, admin, type="wenz", declarer=history.hias.pk), None),
        (lambda: pay(history.wastl, vroni, 10), "erhalten 0,10 €"),
        (lambda: Runde.objects.filter(pk=runde.pk).update(name="Freitagsrunde"), "Freitagsrunde"),
        (lambda: Player.objects.filter(pk=vroni.pk).update(name="Veronika"), "zahlt Veronika"),
        (new_tariff, None),  # the suggestions settle to whole euros
        (lambda: evening_services.close_evening(history.second.pk, admin), None),
    ]:  # fmt: skip
        before = shown()
        assert shown() == before  # kept
        change()
        after = shown()
        assert after != before
        if shows:
            assert shows in "".join(after)
        cache.clear()
        assert shown() == after


def test_payments_that_net_to_nothing_are_not_called_none(client, club, runde, admin):
    """Walk 50: Sepp paid 3,00 € and was paid 3,00 €; his card said "keine Zahlungen",
    which reads as if his payment had been lost."""
    sepp, vroni, hias = (
        Player.objects.create(club=club, name=n) for n in ("Sepp", "Vroni", "Hias")
    )
    resi = club.players.get(user=admin)
    lost = evening_services.start_evening(runde, [sepp, vroni, hias, resi], 0, admin)
    book(lost, admin, type="sauspiel", declarer=vroni.pk, partner=hias.pk)
    evening_services.record_payment(lost.pk, sepp.pk, vroni.pk, 10, admin)
    evening_services.close_evening(lost.pk, admin)
    won = evening_services.start_evening(runde, [sepp, vroni, hias, resi], 0, admin)
    book(won, admin, type="sauspiel", declarer=sepp.pk, partner=resi.pk)
    evening_services.record_payment(won.pk, vroni.pk, sepp.pk, 10, admin)
    client.force_login(admin)

    text = unescape(page_text(client.get(home_url(club.pk, sepp))))
    nobody = unescape(page_text(client.get(home_url(club.pk, hias))))

    assert (
        'Spiele <span class="amount">0,00 €</span> · Zahlungen netto <span class="amount">0,00 €'
        in (text)
    )
    assert "keine Zahlungen" not in text
    assert "keine Zahlungen" in nobody


def test_a_player_s_accounts_come_in_german_order(client, history, admin, player_user):
    """Walk 69: "Stammtisch" before "abendrunde", as the database sorts capitals first."""
    vroni_wins_in_another_runde(history, "abendrunde", admin)
    client.force_login(player_user)

    text = page_text(client.get(reverse("start")))

    assert text.index(">abendrunde</a></h3>") < text.index(">Donnerstagsrunde</a></h3>")


def test_the_history_s_runde_filter_comes_in_german_order(client, history, admin, player_user):
    club_services.create_runde(history.runde.club, "abendrunde", admin)
    client.force_login(player_user)

    page = client.get(history_url(history.runde.club_id, history.vroni)).text

    options = re.findall(r'<option value="\d+"[^>]*>([^<]+)</option>', page)
    assert options[:2] == ["abendrunde", "Donnerstagsrunde"]  # walk 71
