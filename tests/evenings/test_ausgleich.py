"""The Ausgleich der Runde: what the Runde's suggestion asks for can be paid and marked.

Two evenings of the same four. At the first, Vroni and Resi win a Sauspiel with 3
Laufende (Vroni, Resi +0,40 €; Sepp, Hias -0,40 €); at the second, Sepp and Vroni do
(Sepp, Vroni +0,40 €; Hias, Resi -0,40 €). Over the Runde: Vroni +0,80 €, Hias -0,80 €,
Sepp and Resi even; the Runde settles in one transfer, Hias pays Vroni 0,80 €, which
neither evening's Abrechnung can take (each has 0,40 € open between them at most).
"""

import io
import re
import uuid

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db.models import Sum
from django.urls import reverse
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from clubs import players as player_pages
from clubs import services as club_services
from clubs.models import Membership
from evenings import services
from evenings.models import Change, Evening, LedgerEntry
from evenings.services import EveningError, GameInput
from scoring.settlement import settle
from tests.conftest import make_user, page_text
from tests.evenings.test_ledger_properties import PROPERTY, play, rolled_back


def sauspiel(evening, declarer, partner, by):
    data = GameInput(type="sauspiel", declarer=declarer.pk, partner=partner.pk, laufende=3)
    services.book_game(evening.pk, uuid.uuid4(), data, by)


@pytest.fixture
def two_evenings(runde, players, admin):
    sepp, vroni, hias, resi = players[:4]
    first = services.start_evening(runde, players[:4], 0, admin)
    sauspiel(first, vroni, resi, admin)
    services.close_evening(first.pk, admin)
    second = services.start_evening(runde, players[:4], 0, admin)
    sauspiel(second, sepp, vroni, admin)
    services.close_evening(second.pk, admin)
    return first, second


def runde_balances(runde) -> dict[str, int]:
    return {row.name: row.total for row in player_pages.runde_balances(runde, None)}


def verify_ledger() -> str:
    out = io.StringIO()
    call_command("verify_ledger", stdout=out)
    return out.getvalue()


def transfers(settlement) -> list[tuple[str, str, int]]:
    return [(t.payer, t.payee, t.amount) for t in settlement.transfers]


def test_an_ausgleich_takes_the_runde_s_transfer_that_no_evening_can(
    runde, players, admin, two_evenings
):
    sepp, vroni, hias, resi = players[:4]
    first, second = two_evenings
    for evening in two_evenings:
        with pytest.raises(EveningError, match="So viel ist nicht offen"):
            services.record_payment(evening.pk, hias.pk, vroni.pk, 80, admin)

    ausgleich = services.start_ausgleich(runde, admin)

    assert ausgleich.settles_runde and not ausgleich.is_open and ausgleich.runde == runde
    assert not ausgleich.seats.exists() and not ausgleich.games.exists()
    assert services.balances(ausgleich) == {sepp.pk: 0, vroni.pk: 80, hias.pk: -80, resi.pk: 0}
    assert transfers(services.settlement(ausgleich)) == [(str(hias.pk), str(vroni.pk), 80)]

    payment = services.record_payment(ausgleich.pk, hias.pk, vroni.pk, 80, admin)

    entries = LedgerEntry.objects.filter(change=payment).values_list("player_id", "amount")
    assert sorted(entries) == sorted([(hias.pk, 80), (vroni.pk, -80)])
    assert runde_balances(runde) == {"Sepp": 0, "Vroni": 0, "Hias": 0, "Resi": 0}
    assert transfers(services.settlement(ausgleich)) == []
    hias_home, vroni_home = player_pages.homes([hias, vroni])
    assert hias_home.accounts[0].balance == 0 and hias_home.accounts[0].transfers == []
    # Their last evenings: the Ausgleich first, with what they paid or were paid there.
    last = [(r.evening, r.games, r.payments) for r in hias_home.accounts[0].last]
    assert last == [(ausgleich, 0, 80), (second, -40, 0), (first, -40, 0)]
    newest = vroni_home.accounts[0].last[0]
    assert (newest.evening, newest.payments) == (ausgleich, -80)
    assert verify_ledger().startswith("ledger ok: 3 evenings")


def test_a_player_s_home_lists_the_ausgleich_among_the_last_evenings(
    client, club, runde, players, admin, two_evenings
):
    hias, vroni = players[2], players[1]
    ausgleich = services.start_ausgleich(runde, admin)
    services.record_payment(ausgleich.pk, hias.pk, vroni.pk, 80, admin)
    client.force_login(admin)

    page = client.get(reverse("clubs:player_home", args=[club.pk, hias.pk])).text

    card = page[page.index(f'href="{reverse("evenings:detail", args=[ausgleich.pk])}"') :]
    card = card[: card.index("</a>")]
    assert "Ausgleich der Runde" in card and "gezahlt 0,80 €" in card and "Spiele" not in card


def test_an_ausgleich_s_csv_is_the_runde_s_payments(
    client, club, runde, players, admin, two_evenings
):
    """Walk 45: its CSV was a header and empty sums, none of its payments."""
    hias, vroni = players[2], players[1]
    ausgleich = services.start_ausgleich(runde, admin)
    services.record_payment(ausgleich.pk, hias.pk, vroni.pk, 80, admin)
    client.force_login(admin)

    own = client.get(reverse("evenings:csv", args=[ausgleich.pk]), follow=True)

    assert own.redirect_chain == [
        (reverse("evenings:runde_payments_csv", args=[club.pk, runde.pk]), 302)
    ]
    assert "0,80" in own.content.decode("utf-8-sig")
    assert client.get(reverse("evenings:csv", args=[two_evenings[0].pk])).status_code == 200


def test_a_payment_taken_back_at_the_ausgleich_leaves_no_card(
    client, club, runde, players, admin, two_evenings
):
    hias, vroni = players[2], players[1]
    ausgleich = services.start_ausgleich(runde, admin)
    paid = services.record_payment(ausgleich.pk, hias.pk, vroni.pk, 80, admin)
    services.cancel_payment(ausgleich.pk, paid.pk, admin)
    client.force_login(admin)

    page = client.get(reverse("clubs:player_home", args=[club.pk, hias.pk])).text

    assert reverse("evenings:detail", args=[ausgleich.pk]) not in page
    for evening in two_evenings:
        assert reverse("evenings:detail", args=[evening.pk]) in page


def test_it_takes_no_more_than_the_runde_has_open(runde, players, admin, two_evenings):
    sepp, vroni, hias, resi, wastl = players[:5]
    ausgleich = services.start_ausgleich(runde, admin)
    before = LedgerEntry.objects.count()

    with pytest.raises(EveningError, match="höchstens 0,80 €"):
        services.record_payment(ausgleich.pk, hias.pk, vroni.pk, 81, admin)
    with pytest.raises(EveningError, match="Zwischen Sepp und Resi ist in der Runde nichts"):
        services.record_payment(ausgleich.pk, sepp.pk, resi.pk, 10, admin)
    with pytest.raises(EveningError, match="zwei Spielern der Runde"):
        services.record_payment(ausgleich.pk, wastl.pk, vroni.pk, 10, admin)
    assert LedgerEntry.objects.count() == before

    # A part payment leaves the rest to pay, and the rest only.
    services.record_payment(ausgleich.pk, hias.pk, vroni.pk, 50, admin)
    assert transfers(services.settlement(ausgleich)) == [(str(hias.pk), str(vroni.pk), 30)]
    with pytest.raises(EveningError, match="Offen ist nur noch 0,30 €"):
        services.record_payment(ausgleich.pk, hias.pk, vroni.pk, 80, admin)


def test_the_evenings_before_it_take_no_more_payments(runde, players, admin, two_evenings):
    sepp, vroni, hias, resi = players[:4]
    first, second = two_evenings
    services.record_payment(first.pk, hias.pk, vroni.pk, 40, admin)
    ausgleich = services.start_ausgleich(runde, admin)
    # The Runde's suggestion counts what was paid at the evening.
    assert transfers(services.settlement(ausgleich)) == [(str(hias.pk), str(vroni.pk), 40)]

    for evening in two_evenings:
        assert services.settled_by(evening) == ausgleich
        with pytest.raises(EveningError, match=r"Die Runde wurde am .* ausgeglichen"):
            services.record_payment(evening.pk, hias.pk, resi.pk, 40, admin)
    assert services.settled_by(ausgleich) is None

    assert verify_ledger().startswith("ledger ok: 3 evenings")


def test_a_settled_evening_s_csv_names_its_balance_as_before_the_ausgleich(
    client, runde, players, admin, two_evenings
):
    sepp, vroni, hias, resi = players[:4]
    first, second = two_evenings
    services.record_payment(first.pk, hias.pk, vroni.pk, 40, admin)
    client.force_login(admin)
    url = reverse("evenings:csv", args=[first.pk])
    before = client.get(url).content.decode().splitlines()
    assert before[-1].startswith(";;Stand;")

    services.start_ausgleich(runde, admin)

    after = client.get(url).content.decode().splitlines()
    # The same amounts (Sepp, Vroni, Hias, Resi: -0,40, 0,00, 0,00, +0,40), now said to
    # be what stood before the Ausgleich, which settled it.
    assert after[-1] == ";;Stand vor dem Ausgleich der Runde;-0,40;0,00;0,00;0,40;-40;0;0;40"
    assert after[:-1] == before[:-1]


def test_nothing_marked_before_it_is_taken_back_once_it_counted_it(
    runde, players, admin, two_evenings
):
    sepp, vroni, hias, resi = players[:4]
    paid = services.record_payment(two_evenings[0].pk, hias.pk, vroni.pk, 40, admin)
    ausgleich = services.start_ausgleich(runde, admin)
    changes = Change.objects.count()

    # Taken back there, it could be paid nowhere: the evening takes no payment now.
    with pytest.raises(EveningError, match="lässt sich nicht mehr stornieren"):
        services.cancel_payment(two_evenings[0].pk, paid.pk, admin)
    # An Ausgleich's own payments likewise, once a newer Ausgleich counted them.
    in_it = services.record_payment(ausgleich.pk, hias.pk, vroni.pk, 20, admin)
    later = services.start_evening(runde, players[:4], 0, admin)
    sauspiel(later, hias, resi, admin)
    services.close_evening(later.pk, admin)
    services.start_ausgleich(runde, admin)
    with pytest.raises(EveningError, match="lässt sich nicht mehr stornieren"):
        services.cancel_payment(ausgleich.pk, in_it.pk, admin)
    assert Change.objects.filter(kind=Change.Kind.PAYMENT).count() == 2
    assert Change.objects.count() > changes


def test_a_transfer_marked_on_another_phone_meanwhile_is_not_paid_again(
    runde, players, admin, two_evenings
):
    """Two phones show the Ausgleich at the same version. One marks 0,30 € of Hias's
    0,80 € to Vroni; the other's 0,20 € would fit in what is still open, but it was
    meant for the same money: refused, and the page shows what is open now. (A payer
    who owes in two transfers could otherwise pay one of them twice within the cap.)"""
    sepp, vroni, hias, resi = players[:4]
    ausgleich = services.start_ausgleich(runde, admin)
    shown = Evening.objects.get(pk=ausgleich.pk).version

    services.record_payment(ausgleich.pk, hias.pk, vroni.pk, 30, admin, seen=shown)
    with pytest.raises(EveningError, match="Schon bezahlt: Hias hat Vroni 0,30 € gezahlt, eben"):
        services.record_payment(ausgleich.pk, hias.pk, vroni.pk, 20, admin, seen=shown)

    assert transfers(services.settlement(ausgleich)) == [(str(hias.pk), str(vroni.pk), 50)]
    # From the page as it is now, the rest goes through.
    now = Evening.objects.get(pk=ausgleich.pk).version
    services.record_payment(ausgleich.pk, hias.pk, vroni.pk, 50, admin, seen=now)
    assert runde_balances(runde) == {"Sepp": 0, "Vroni": 0, "Hias": 0, "Resi": 0}


def test_evenings_after_it_are_settled_at_their_own_abrechnung(runde, players, admin, two_evenings):
    sepp, vroni, hias, resi = players[:4]
    ausgleich = services.start_ausgleich(runde, admin)
    later = services.start_evening(runde, players[:4], 0, admin)
    sauspiel(later, hias, resi, admin)  # Hias, Resi +0,40 €; Sepp, Vroni -0,40 €

    assert services.settled_by(later) is None
    services.record_payment(later.pk, sepp.pk, hias.pk, 40, admin)
    # The Ausgleich settles the evenings before it, whatever came after.
    assert transfers(services.settlement(ausgleich)) == [(str(hias.pk), str(vroni.pk), 80)]


def test_one_ausgleich_at_a_time(runde, players, admin, two_evenings):
    key = uuid.uuid4()
    ausgleich = services.start_ausgleich(runde, admin, key)

    assert services.start_ausgleich(runde, admin, key) == ausgleich  # the form sent again
    # Nothing was played since: the newest evening is the Ausgleich to pay in.
    assert services.start_ausgleich(runde, admin) == ausgleich
    assert Evening.objects.filter(settles_runde=True).count() == 1
    assert Change.objects.filter(evening=ausgleich).count() == 1  # its start

    later = services.start_evening(runde, players[:4], 0, admin)
    sauspiel(later, players[2], players[3], admin)
    services.close_evening(later.pk, admin)
    newer = services.start_ausgleich(runde, admin)
    assert newer != ausgleich and services.settled_by(ausgleich) == newer


def test_no_ausgleich_while_an_evening_runs_or_when_nothing_is_open(runde, players, admin):
    with pytest.raises(EveningError, match="In der Runde ist nichts offen"):
        services.start_ausgleich(runde, admin)  # no evening yet
    evening = services.start_evening(runde, players[:4], 0, admin)
    sauspiel(evening, players[1], players[3], admin)
    day = timezone.localtime(evening.started_at).strftime("%d.%m.%Y")
    with pytest.raises(EveningError, match=f"Der Abend vom {day} ist noch offen"):
        services.start_ausgleich(runde, admin)

    services.record_payment(evening.pk, players[0].pk, players[1].pk, 40, admin)
    services.record_payment(evening.pk, players[2].pk, players[3].pk, 40, admin)
    services.close_evening(evening.pk, admin)
    with pytest.raises(EveningError, match="In der Runde ist nichts offen"):
        services.start_ausgleich(runde, admin)  # all paid at the evening
    assert not Evening.objects.filter(settles_runde=True).exists()


def test_an_ausgleich_is_not_opened_for_games(runde, admin, two_evenings):
    ausgleich = services.start_ausgleich(runde, admin)
    with pytest.raises(EveningError, match="kein Spielabend"):
        services.reopen_evening(ausgleich.pk, admin)
    assert not Evening.objects.get(pk=ausgleich.pk).is_open


def test_the_evenings_it_settled_are_not_opened_again(client, runde, players, admin, two_evenings):
    """Its amounts were paid as those evenings' games made them: a game booked or
    corrected there afterwards would leave the Ausgleich wrong."""
    first, second = two_evenings
    ausgleich = services.start_ausgleich(runde, admin)
    later = services.start_evening(runde, players[:4], 0, admin)
    services.close_evening(later.pk, admin)
    client.force_login(admin)

    for evening in two_evenings:
        page = client.get(reverse("evenings:detail", args=[evening.pk])).text
        assert "Wieder öffnen" not in page
        day = timezone.localtime(ausgleich.started_at).strftime("%d.%m.%Y")
        said = f"Die Runde wurde am {day} ausgeglichen, mit diesem Abend: er bleibt, wie er ist"
        assert said in page
        answer = client.post(reverse("evenings:reopen", args=[evening.pk]), follow=True)
        assert said in answer.text
        assert not Evening.objects.get(pk=evening.pk).is_open
        assert not Evening.objects.get(pk=evening.pk).changes.filter(kind="reopen").exists()
    # An evening after it is opened as before.
    assert "Wieder öffnen" in client.get(reverse("evenings:detail", args=[later.pk])).text
    assert services.reopen_evening(later.pk, admin).is_open


@pytest.mark.django_db
@settings(PROPERTY, max_examples=15)
@given(data=st.data())
def test_paying_the_ausgleich_leaves_only_what_rounding_leaves(
    data, runde, players, admin, set_tariff
):
    """Any evenings, any games, corrections and payments at them: the Ausgleich proposes
    what the Runde's suggestion does; once its transfers are paid, every balance in the
    Runde is what the rounding leaves, and nothing more is to settle; the evenings before
    it take no payment."""

    def example():
        # The Runde's kept sums are keyed by its state, which rolled-back examples repeat.
        cache.clear()
        evenings = []
        for _ in range(data.draw(st.integers(1, 2), label="evenings")):
            evening, _record = play(data, runde, players, admin, set_tariff)
            services.close_evening(evening.pk, admin)
            evenings.append(evening)
        unit = runde.tariffs.latest().settle_unit
        balance = {
            str(row.player_id): row.total for row in player_pages.runde_balances(runde, None)
        }
        suggested = settle(dict(sorted(balance.items(), key=lambda item: int(item[0]))), unit)
        if not suggested.transfers:
            with pytest.raises(EveningError, match="nichts offen"):
                services.start_ausgleich(runde, admin)
            return
        ausgleich = services.start_ausgleich(runde, admin)
        assert services.settlement(ausgleich) == suggested

        for transfer in suggested.transfers:
            services.record_payment(
                ausgleich.pk, int(transfer.payer), int(transfer.payee), transfer.amount, admin
            )

        after = {row.player_id: row.total for row in player_pages.runde_balances(runde, None)}
        assert sum(after.values()) == 0
        assert after == {int(pid): left for pid, left in suggested.open.items()}
        # Nothing more to settle: what is left is what no payment in units can even out.
        assert settle({str(pid): left for pid, left in after.items()}, unit).transfers == ()
        assert services.settlement(ausgleich).transfers == ()
        for evening in evenings:
            open_there = services.settlement(evening).transfers
            if open_there:
                t = open_there[0]
                with pytest.raises(EveningError, match="ausgeglichen"):
                    services.record_payment(evening.pk, int(t.payer), int(t.payee), t.amount, admin)
        assert verify_ledger().startswith(f"ledger ok: {len(evenings) + 1} evenings")

    rolled_back(example)


# -- in the browser's requests ---------------------------------------------------------------


def test_the_runde_s_accounts_lead_to_the_ausgleich_and_its_payment(
    client, club, runde, players, scorekeeper, two_evenings
):
    sepp, vroni, hias, resi = players[:4]
    client.force_login(scorekeeper)
    accounts = reverse("evenings:runde_balances", args=[club.pk, runde.pk])

    page = page_text(client.get(accounts))
    assert "Hias zahlt Vroni 0,80 €" in page
    # On paper too, whose accounts and as of when (walk 82).
    now = timezone.localtime()
    assert f"{club.name} · Stand {now:%d.%m.%Y}, " in page
    key = re.search(r'name="key" value="([0-9a-f-]+)"', page)[1]

    answer = client.post(reverse("evenings:ausgleich", args=[club.pk, runde.pk]), {"key": key})
    ausgleich = Evening.objects.get(settles_runde=True)
    assert answer.status_code == 302
    assert answer["Location"] == reverse("evenings:settlement", args=[ausgleich.pk])
    again = client.post(reverse("evenings:ausgleich", args=[club.pk, runde.pk]), {"key": key})
    assert again["Location"] == answer["Location"]
    # The Runde's accounts lead to it while nothing was played since. (The next page
    # says it began, once, though it was sent twice: walk 21 heard nothing.)
    page = page_text(client.get(accounts))
    assert page.count("Ausgleich der Runde begonnen: hier wird eingetragen, wer wem zahlt.") == 1
    # Another phone, its page shown before, taps too: told it was begun already (walk 26).
    other = client.post(reverse("evenings:ausgleich", args=[club.pk, runde.pk]),
                        {"key": str(uuid.uuid4())}, follow=True)  # fmt: skip
    assert "Der Ausgleich der Runde ist schon begonnen" in page_text(other)
    assert Evening.objects.filter(settles_runde=True).count() == 1
    assert f'href="{answer["Location"]}">Zum Ausgleich der Runde vom' in page
    assert "Ausgleich der Runde eintragen" not in page

    page = page_text(client.get(answer["Location"]))
    assert "Ausgleich der Runde" in page and "Kontostand in der Runde" in page
    assert f'href="{reverse("evenings:history", args=[ausgleich.pk])}">Verlauf</a>' in page
    # Everyone of the Runde, highest first as in the Runde's accounts (nobody sat here).
    assert re.findall(r"<dt>(\w+)</dt>", page) == ["Vroni", "Resi", "Sepp", "Hias"]
    assert re.findall(r'id="transfer-\d+">([^<]+)<', page) == ["Hias zahlt Vroni 0,80 €"]
    assert "Der Abend ist abgeschlossen" not in page  # it never was a playing evening
    payment = reverse("evenings:payment", args=[ausgleich.pk])
    client.post(payment, {"payer": hias.pk, "payee": vroni.pk, "amount": 80, "key": uuid.uuid4()})
    assert runde_balances(runde)["Hias"] == 0

    # The evening's screen of an Ausgleich, and its print, are its Abrechnung.
    for name in ("detail", "print"):
        shown = client.get(reverse(f"evenings:{name}", args=[ausgleich.pk]))
        assert shown["Location"] == reverse("evenings:settlement", args=[ausgleich.pk])
    history = page_text(client.get(reverse("evenings:history", args=[ausgleich.pk])))
    assert "Ausgleich der Runde begonnen" in history and "Hias zahlt Vroni 0,80 €" in history
    # Its CSV is the Runde's payments' (walk 45: its own was a header and empty sums).
    assert client.get(reverse("evenings:csv", args=[ausgleich.pk]))["Location"] == reverse(
        "evenings:runde_payments_csv", args=[runde.club_id, runde.pk]
    )

    # The evenings before it say where their open amounts went, and offer no "bezahlt".
    page = page_text(client.get(reverse("evenings:settlement", args=[two_evenings[0].pk])))
    assert "Die Runde wurde am" in page and 'id="transfer-' not in page
    assert reverse("evenings:settlement", args=[ausgleich.pk]) in page
    # The Runde's page lists it among the evenings; its statistics count the two played.
    page = page_text(client.get(reverse("clubs:runde", args=[club.pk, runde.pk])))
    assert "Ausgleich der Runde" in page and "Zahlungen über alle Abende davor" in page
    assert "2 Abende" in page and "3 Abende" not in page


def test_an_evening_s_print_says_its_balance_went_into_the_ausgleich(client, runde, players, admin):
    sepp, vroni, hias, resi = players[:4]
    evening = services.start_evening(runde, players[:4], 0, admin)
    sauspiel(evening, vroni, resi, admin)
    services.record_payment(evening.pk, sepp.pk, vroni.pk, 10, admin)
    services.close_evening(evening.pk, admin)
    client.force_login(admin)
    url = reverse("evenings:print", args=[evening.pk])
    before = client.get(url).text

    ausgleich = services.start_ausgleich(runde, admin)
    after = client.get(url).text

    day = timezone.localtime(ausgleich.started_at).strftime("%d.%m.%Y")
    went = f"Was an diesem Abend offen war, ging in den Ausgleich der Runde vom {day} ein."
    assert '<th scope="row" colspan="2">Stand</th>' in before and went not in before
    assert '<th scope="row" colspan="2">Stand vor dem Ausgleich der Runde</th>' in after
    assert went in after


def test_the_ausgleich_is_refused_with_the_reason_at_the_accounts(
    client, club, runde, players, scorekeeper, admin
):
    evening = services.start_evening(runde, players[:4], 0, admin)
    client.force_login(scorekeeper)

    answer = client.post(reverse("evenings:ausgleich", args=[club.pk, runde.pk]), follow=True)

    assert answer.redirect_chain == [
        (reverse("evenings:runde_balances", args=[club.pk, runde.pk]), 302)
    ]
    day = timezone.localtime(evening.started_at).strftime("%d.%m.%Y")
    assert f"Der Abend vom {day} ist noch offen: ausgeglichen wird, wenn er" in answer.text
    assert not Evening.objects.filter(settles_runde=True).exists()


def test_while_an_evening_runs_the_accounts_lead_to_it_instead_of_the_ausgleich(
    client, club, runde, players, scorekeeper, admin, two_evenings
):
    running = services.start_evening(runde, players[:4], 0, admin)
    client.force_login(scorekeeper)
    url = reverse("evenings:runde_balances", args=[club.pk, runde.pk])

    page = page_text(client.get(url))

    assert "Ein Abend ist noch offen: ausgeglichen wird, wenn er abgeschlossen ist." in page
    when = timezone.localtime(running.started_at).strftime("%d.%m.%Y · %H:%M")
    link = reverse("evenings:detail", args=[running.pk])
    assert f'<a href="{link}">Zum Abend vom {when}</a>' in page
    assert "Ja, zum Ausgleich" not in page and "Hias zahlt Vroni" in page
    # Another table of the Runde plays too: each is named, with a way to it.
    other = services.start_evening(runde, players[1:5], 0, admin)
    page = page_text(client.get(url))
    assert "2 Abende sind noch offen: ausgeglichen wird, wenn sie abgeschlossen sind." in page
    assert link in page and reverse("evenings:detail", args=[other.pk]) in page
    # ... told apart by who sits there, begun in the same minute as they may be (walk 38).
    names = [", ".join(p.name for p in seated) for seated in (players[:4], players[1:5])]
    assert [f'</a> <span class="muted">({n})</span>' in page for n in names] == [True, True]
    # Both closed, the Ausgleich is offered again.
    services.close_evening(running.pk, admin)
    services.close_evening(other.pk, admin)
    page = page_text(client.get(url))
    assert "Ja, zum Ausgleich" in page and "noch offen: ausgeglichen" not in page


PLAYED_ON = "Im Ausgleich vom {day} ist noch etwas offen, und seither wurde weitergespielt."


def test_played_on_after_an_ausgleich_with_payments_open_both_pages_say_why_they_differ(
    client, club, runde, players, scorekeeper, admin, two_evenings
):
    sepp, vroni, hias = players[:3]
    ausgleich = services.start_ausgleich(runde, admin)
    accounts = reverse("evenings:runde_balances", args=[club.pk, runde.pk])
    its_page = reverse("evenings:settlement", args=[ausgleich.pk])
    client.force_login(scorekeeper)
    day = timezone.localtime(ausgleich.started_at).strftime("%d.%m.%Y")
    assert PLAYED_ON.format(day=day) not in client.get(accounts).text

    later = services.start_evening(runde, players[:4], 0, admin)
    # Begun, nothing booked yet, or its one game taken back: nothing played on (walks 92
    # and 94).
    assert PLAYED_ON.format(day=day) not in client.get(accounts).text
    assert "weitergespielt" not in client.get(its_page).text
    sauspiel(later, hias, sepp, admin)
    services.undo_last(later.pk, admin)
    assert PLAYED_ON.format(day=day) not in client.get(accounts).text
    assert "weitergespielt" not in client.get(its_page).text
    sauspiel(later, hias, sepp, admin)
    services.close_evening(later.pk, admin)

    page = client.get(accounts).text
    assert PLAYED_ON.format(day=day) in page
    assert f'<a href="{its_page}">Zum Ausgleich vom {day}</a>' in page
    played_on = client.get(its_page).text
    assert "Seit diesem Ausgleich wurde weitergespielt" in played_on
    # Its balances are the Runde's as the Ausgleich found them (walk 67: read as now).
    assert "<h2>Kontostand in der Runde beim Ausgleich (mit seinen Zahlungen)</h2>" in played_on
    # The later evening's own Abrechnung points to the Ausgleich that is still open.
    evening_page = client.get(reverse("evenings:settlement", args=[later.pk])).text
    assert (
        f"Im Ausgleich vom {day} ist noch etwas offen. Was dort offen ist, wird dort bezahlt; "
        "was an diesem Abend offen ist, hier."
    ) in evening_page
    assert f'<a href="{its_page}">Zum Ausgleich vom {day}</a>' in evening_page
    # A new Ausgleich takes over: the notes go, and the old one says what it shows.
    services.start_ausgleich(runde, admin)
    assert "weitergespielt" not in client.get(accounts).text
    old = client.get(its_page).text
    assert "weitergespielt" not in old
    assert "<h2>Stand bei diesem Ausgleich (mit seinen Zahlungen)</h2>" in old
    assert "was bei diesem Ausgleich offen war, ging in den neuen ein." in old
    assert "Kontostand in der Runde" not in old and "an diesem Abend" not in old


def test_an_evening_closed_with_nothing_that_counts_is_not_played_on(
    client, club, runde, players, scorekeeper, admin, two_evenings
):
    """Walk 77: an evening begun after the Ausgleich, its one game taken back, closed
    with nothing that counts: the Ausgleich said the Runde's accounts add up later play,
    which they did not."""
    sepp, vroni, hias = players[:3]
    ausgleich = services.start_ausgleich(runde, admin)
    its_page = reverse("evenings:settlement", args=[ausgleich.pk])
    client.force_login(scorekeeper)
    empty = services.start_evening(runde, players[:4], 0, admin)
    sauspiel(empty, hias, sepp, admin)
    services.undo_last(empty.pk, admin)
    services.close_evening(empty.pk, admin)
    assert Evening.objects.get(pk=empty.pk).status == Evening.Status.EMPTY

    assert "weitergespielt" not in client.get(its_page).text
    assert not services.played_since(ausgleich)


def test_a_payment_the_ausgleich_cannot_take_after_later_play_says_where_it_goes(
    runde, players, admin, two_evenings
):
    """Walk 77: "Carl zahlt Gerti", as the Runde's accounts proposed after an evening
    played since, was refused at the Ausgleich with no word of where it goes."""
    sepp, vroni, hias, resi = players[:4]
    ausgleich = services.start_ausgleich(runde, admin)
    with pytest.raises(EveningError) as before:
        services.record_payment(ausgleich.pk, resi.pk, sepp.pk, 40, admin)
    assert "weitergespielt" not in str(before.value)
    later = services.start_evening(runde, players[:4], 0, admin)
    sauspiel(later, hias, sepp, admin)
    services.close_evening(later.pk, admin)
    assert (runde_balances(runde)["Resi"], runde_balances(runde)["Sepp"]) == (-40, 40)

    with pytest.raises(EveningError) as refused:
        services.record_payment(ausgleich.pk, resi.pk, sepp.pk, 40, admin)

    assert str(refused.value) == (
        "Zwischen Resi und Sepp ist in der Runde nichts offen. Seit diesem Ausgleich wurde "
        "weitergespielt: was die Konten der Runde darüber hinaus vorschlagen, trägt ein "
        "neuer Ausgleich ein."
    )
    assert not services.payments(Evening.objects.get(pk=ausgleich.pk))


RUNNING = "Ein Abend der Runde ist noch offen: er ist hier schon mitgerechnet"


def test_a_player_s_accounts_say_why_they_differ_from_an_abrechnung(
    client, club, runde, players, admin, two_evenings
):
    """The start page's "Du zahlst …" adds up what an Ausgleich left open and what was
    played since, and counts a running evening: it says so, as the Runde's accounts do."""
    sepp, vroni, hias, resi = players[:4]  # Resi is the admin's player
    ausgleich = services.start_ausgleich(runde, admin)
    client.force_login(admin)
    day = timezone.localtime(ausgleich.started_at).strftime("%d.%m.%Y")
    start = page_text(client.get(reverse("start")))
    assert "Konten der Runde" in start
    assert PLAYED_ON.format(day=day) not in start and RUNNING not in start

    later = services.start_evening(runde, players[:4], 0, admin)
    sauspiel(later, hias, sepp, admin)

    its_page = reverse("evenings:settlement", args=[ausgleich.pk])
    for url in (reverse("start"), reverse("clubs:player_home", args=[club.pk, resi.pk])):
        page = page_text(client.get(url))
        assert PLAYED_ON.format(day=day) in page and RUNNING in page
        assert f'<a href="{its_page}">Zum Ausgleich vom {day}</a>' in page
    # Two running (a second table): counted, as the Runde's accounts count them.
    also = services.start_evening(runde, players[:4], 1, admin)
    sauspiel(also, hias, sepp, admin)
    page = page_text(client.get(reverse("clubs:player_home", args=[club.pk, resi.pk])))
    assert "2 Abende der Runde sind noch offen: sie sind hier schon mitgerechnet" in page
    assert RUNNING not in page
    services.close_evening(also.pk, admin)
    # Opened again for corrections only (the Runde has a newer evening): it is open, and
    # the Ausgleich waits for it, as the Runde's accounts say (walk 51).
    services.close_evening(later.pk, admin)
    third = services.start_evening(runde, players[:4], 2, admin)
    sauspiel(third, hias, sepp, admin)
    services.close_evening(third.pk, admin)
    services.reopen_evening(later.pk, admin)
    assert Evening.objects.get(pk=later.pk).corrections_only
    assert RUNNING in page_text(client.get(reverse("start")))
    services.close_evening(later.pk, admin)
    page = page_text(client.get(reverse("start")))
    assert PLAYED_ON.format(day=day) in page and RUNNING not in page
    # All paid in the Ausgleich: nothing of it is left to add up.
    for transfer in services.settlement(ausgleich).transfers:
        services.record_payment(
            ausgleich.pk, int(transfer.payer), int(transfer.payee), transfer.amount, admin
        )
    assert PLAYED_ON.format(day=day) not in page_text(client.get(reverse("start")))


def test_the_runde_s_payments_and_stornos_come_as_one_csv_for_the_cash_box(
    client, club, runde, players, scorekeeper, admin, two_evenings
):
    sepp, vroni, hias, resi = players[:4]
    first, second = two_evenings
    services.record_payment(first.pk, hias.pk, vroni.pk, 10, scorekeeper)
    ausgleich = services.start_ausgleich(runde, admin)
    mistake = services.record_payment(ausgleich.pk, hias.pk, vroni.pk, 10, admin)
    services.cancel_payment(ausgleich.pk, mistake.pk, admin)
    # Who entered a payment is named as the sheet names them, not by their account.
    scorekeeper.first_name = "Matthias"
    scorekeeper.save()
    hias.user = scorekeeper
    hias.save()
    client.force_login(scorekeeper)

    answer = client.get(reverse("evenings:runde_payments_csv", args=[club.pk, runde.pk]))

    assert answer["Content-Disposition"] == (
        'attachment; filename="donnerstagsrunde-zahlungen.csv"'
    )
    header, *rows = answer.content.decode().removesuffix("\r\n").split("\r\n")
    assert header == "\ufeffEingetragen;Abend;Art;Zahlt;Bekommt;Betrag;Cent;Eingetragen von"
    when = {
        e.pk: timezone.localtime(e.started_at).strftime("%d.%m.%Y %H:%M")
        for e in (first, ausgleich)
    }
    paid = Change.objects.filter(kind=Change.Kind.PAYMENT).order_by("pk")
    at = [timezone.localtime(c.at).strftime("%d.%m.%Y %H:%M:%S") for c in paid]
    assert rows == [
        f"{at[0]};{when[first.pk]};Zahlung;Hias;Vroni;0,10;10;Hias",
        f"{at[1]};{when[ausgleich.pk]} Ausgleich der Runde;Zahlung;Hias;Vroni;0,10;10;Resi",
        f"{at[2]};{when[ausgleich.pk]} Ausgleich der Runde;Storno der Zahlung vom {at[1]};"
        "Hias;Vroni;-0,10;-10;Resi",
    ]
    runde_page = client.get(reverse("clubs:runde", args=[club.pk, runde.pk])).text
    assert "Alle Zahlungen als CSV</a>" in runde_page


def test_a_new_runde_s_accounts_say_nobody_pays(client, club, runde, admin):
    client.force_login(admin)

    page = client.get(reverse("evenings:runde_balances", args=[club.pk, runde.pk])).text

    assert "Noch nichts gebucht." in page
    assert "Wer zahlt wem</h2>" in page and "Niemand muss etwas zahlen." in page
    assert "Ausgleich der Runde eintragen" not in page


@pytest.mark.parametrize("role", ["player", "other club"])
def test_only_the_club_s_schreiber_and_admins_make_one(client, club, runde, two_evenings, role):
    someone = make_user("vroni", "Vroni")
    if role == "player":
        club.memberships.create(user=someone, role=Membership.Role.PLAYER)
    client.force_login(someone)

    page = client.get(reverse("evenings:runde_balances", args=[club.pk, runde.pk]))
    answer = client.post(reverse("evenings:ausgleich", args=[club.pk, runde.pk]))

    assert answer.status_code == 404
    assert not Evening.objects.filter(settles_runde=True).exists()
    if role == "player":  # sees who pays whom, but no button to settle it
        assert "Hias zahlt Vroni 0,80 €" in page_text(page)
        assert "Ausgleich der Runde eintragen" not in page_text(page)


def test_an_evening_s_abrechnung_pairs_equal_debts_as_the_runde_s_accounts_do(
    client, club, runde, players, admin
):
    # Seated Sepp, Vroni, Hias, Resi; Resi (the admin's player) was made first. Vroni and
    # Hias win: two owe 0,40 € each, two are owed as much, and either pairing settles it.
    sepp, vroni, hias, resi = players[:4]
    evening = services.start_evening(runde, players[:4], 0, admin)
    sauspiel(evening, vroni, hias, admin)
    services.close_evening(evening.pk, admin)
    client.force_login(admin)

    def pairs(url) -> list[str]:
        return re.findall(r"\w+ zahlt \w+ [^<]*€", page_text(client.get(url)))

    at_evening = pairs(reverse("evenings:settlement", args=[evening.pk]))
    in_runde = pairs(reverse("evenings:runde_balances", args=[club.pk, runde.pk]))

    # The same pairs; the evening lists them around the table (Sepp sits first).
    assert in_runde == ["Resi zahlt Vroni 0,40 €", "Sepp zahlt Hias 0,40 €"]
    assert at_evening == ["Sepp zahlt Hias 0,40 €", "Resi zahlt Vroni 0,40 €"]


def rounded_to_50_cents(runde, players, admin, set_tariff):
    """An evening of a Runde that settles to 50 Cent: Vroni wins a Herz-Solo, Resi and Hias
    a Sauspiel with 3 Laufende; Sepp owes 0,60 € and pays 0,50 €, 0,10 € stays open."""
    set_tariff(runde, settle_unit=50)
    sepp, vroni, hias, resi = players[:4]
    evening = services.start_evening(runde, players[:4], 0, admin)
    data = GameInput(type="farbsolo", suit="herz", declarer=vroni.pk, laufende=0)
    services.book_game(evening.pk, uuid.uuid4(), data, admin)
    data = GameInput(type="sauspiel", declarer=resi.pk, partner=hias.pk, laufende=3)
    services.book_game(evening.pk, uuid.uuid4(), data, admin)
    return evening


def test_a_rest_rounding_leaves_open_is_paid_as_another_payment(
    client, runde, players, admin, scorekeeper, set_tariff
):
    """Once the proposal is paid, 0,40 € of Sepp's stays open, owed to Vroni: "Niemand
    muss etwas zahlen", and no form to take the 0,40 € he hands her (walk 20). "Andere
    Zahlung" takes it, between who owes and who is owed, as far as is open."""
    evening = rounded_to_50_cents(runde, players, admin, set_tariff)
    for t in services.settlement(evening).transfers:
        services.record_payment(evening.pk, int(t.payer), int(t.payee), t.amount, admin)
    sepp, vroni, hias, resi = players[:4]
    rest = {pid: cents for pid, cents in services.balances(evening).items() if cents}
    assert rest == {sepp.pk: -40, vroni.pk: 60, hias.pk: -10, resi.pk: -10}
    debtor, creditor = sepp.pk, vroni.pk
    client.force_login(scorekeeper)
    url = reverse("evenings:settlement", args=[evening.pk])
    page = page_text(client.get(url))
    assert "Niemand muss etwas zahlen." in page and "Andere Zahlung …" in page
    assert f'<option value="{debtor}">Sepp (-0,40 €)</option>' in page
    # the only one owed: chosen already (walk 34)
    assert f'<option value="{creditor}" selected>Vroni (+0,60 €)</option>' in page
    pay = reverse("evenings:payment", args=[evening.pk])
    evening.refresh_from_db()  # the version the page shows
    other = {"other": "1", "payer": debtor, "payee": creditor, "seen": evening.version}

    # Too much, or nobody chosen: said at the form, what was chosen kept, nothing booked.
    too_much = page_text(client.post(pay, other | {"other_amount": "0,50"}, follow=True))
    unchosen = page_text(
        client.post(pay, other | {"payer": "", "other_amount": "0,40"}, follow=True)
    )

    assert "Offen ist nur noch 0,40 €" in too_much.split('id="other-payment-error"')[1]
    assert f'<option value="{debtor}" selected>' in too_much and 'value="0,50"' in too_much
    assert "Bitte wählen, wer zahlt" in unchosen.split('id="other-payment-error"')[1]
    assert services.balances(evening)[debtor] == -40

    # The admin's account is named otherwise than their player: named as the table knows
    # them, as the history does (walk 62: "von Veronika" here, "Vroni" there).
    admin.first_name = "Therese"
    admin.save()
    key = str(uuid.uuid4())
    paid = client.post(pay, other | {"other_amount": "0,40", "key": key}, follow=True)
    again = client.post(pay, other | {"other_amount": "0,40", "key": key}, follow=True)

    assert "Zahlung eingetragen: Sepp zahlt Vroni 0,40 €" in page_text(paid)
    # The list of what was paid says when, and who entered it (walk 20: only the history
    # and the CSV did).
    entered = re.findall(r"eingetragen \d\d\.\d\d\.\d{4} · \d\d:\d\d von (\w+)", page_text(paid))
    assert entered == ["Resi", "Hias"]  # the proposal's one, by the admin; this one
    assert "Schon eingetragen" in page_text(again)
    assert services.balances(evening) == {sepp.pk: 0, vroni.pk: 20, hias.pk: -10, resi.pk: -10}
    assert LedgerEntry.objects.filter(evening=evening, player=sepp, amount=40).count() == 1
    # A Spieler sees what is open, and no form to pay.
    spieler = make_user("kathi", "Kathi")
    Membership.objects.create(user=spieler, club=runde.club, role=Membership.Role.PLAYER)
    client.force_login(spieler)
    page = page_text(client.get(url))
    assert "Vroni" in page and "Andere Zahlung" not in page


def test_the_runde_s_accounts_say_what_rounding_leaves_open(
    client, club, runde, players, admin, set_tariff
):
    # Rounded to 50 Cent: Sepp owes 0,60 €, pays 0,50 €, and 0,10 € stays open.
    evening = rounded_to_50_cents(runde, players, admin, set_tariff)
    client.force_login(admin)

    page = page_text(client.get(reverse("evenings:runde_balances", args=[club.pk, runde.pk])))
    at_evening = page_text(client.get(reverse("evenings:settlement", args=[evening.pk])))

    said = (
        "Jede Zahlung ist für sich auf 50 Cent abgerundet, damit niemand mehr bekommt, als ihm "
        "zusteht. Was die Zahlenden so weniger zahlen, fehlt den Empfängern. Offen bleibt "
        "(weiter auf dem Konto der Runde):"
    )
    assert said in page and said in at_evening
    left = re.search(r"Offen bleibt \(weiter auf dem Konto der Runde\):\s*([^<]*)</p>", page)
    totals = runde_balances(runde)
    assert sum(totals.values()) == 0
    transfers = re.findall(r"(\w+) zahlt (\w+) (\d+),(\d\d) €", page)
    paid = {name: 0 for name in totals}
    for payer, payee, euros, cents in transfers:
        paid[payer] += int(euros) * 100 + int(cents)
        paid[payee] -= int(euros) * 100 + int(cents)
    open_after = {name: totals[name] + paid[name] for name in totals if totals[name] + paid[name]}
    shown = dict(
        (name, int(amount.replace(",", "").replace("+", "")))
        for name, amount in re.findall(r"(\w+) ([+-]?\d+,\d\d) €", left[1])
    )
    assert shown == open_after and shown  # something is left, and it is what rounding left


def three_evenings_then_the_ausgleich(runde, players, admin) -> Evening:
    """Three evenings of four out of five, each a Sauspiel won: Resi, Sepp and Vroni are
    owed 0,80 € each, Hias and Wastl owe 1,20 € each; then the Runde's Ausgleich."""
    sepp, vroni, hias, resi, wastl = players[:5]
    for winners, losers in [
        ((sepp, vroni), (hias, wastl)),
        ((resi, vroni), (hias, wastl)),
        ((resi, sepp), (hias, wastl)),
    ]:
        evening = services.start_evening(runde, [*winners, *losers], 0, admin)
        sauspiel(evening, *winners, admin)
        services.close_evening(evening.pk, admin)
    return services.start_ausgleich(runde, admin)


def test_after_a_part_payment_every_page_names_the_ausgleich_s_pairs(
    client, club, runde, players, admin
):
    # Three evenings of four out of five: Resi, Sepp and Vroni are owed 0,80 € each, Hias
    # and Wastl owe 1,20 € each. The Ausgleich proposes Hias pays Resi 0,80 € and Vroni
    # 0,40 €, Wastl pays Sepp 0,80 € and Vroni 0,40 €. Hias pays Resi 0,10 € of his 0,80 €.
    # Settled afresh, the balances would pair otherwise (Wastl pays Resi): every page
    # keeps to the Ausgleich's pairs instead, where the payments are marked.
    sepp, vroni, hias, resi, wastl = players[:5]
    ausgleich = three_evenings_then_the_ausgleich(runde, players, admin)
    services.record_payment(ausgleich.pk, hias.pk, resi.pk, 10, admin)
    client.force_login(admin)

    def pairs(url) -> set[str]:
        return set(re.findall(r"\w+ zahlt \w+ [^<]*€", page_text(client.get(url))))

    at_ausgleich = pairs(reverse("evenings:settlement", args=[ausgleich.pk]))
    in_runde = pairs(reverse("evenings:runde_balances", args=[club.pk, runde.pk]))
    at_homes = {
        f"{home.player.name} zahlt {t.other} 0,{t.amount:02} €"
        for home in player_pages.homes([hias, wastl])
        for t in home.accounts[0].transfers
    }

    assert at_ausgleich == {
        "Hias zahlt Resi 0,70 €",
        "Hias zahlt Vroni 0,40 €",
        "Wastl zahlt Sepp 0,80 €",
        "Wastl zahlt Vroni 0,40 €",
    }
    assert in_runde == at_ausgleich == at_homes
    # Settled afresh, Wastl would pay Resi.
    ids = {str(player.pk): player.name for player in players}
    balances = runde_balances(runde)
    fresh = settle({str(p.pk): balances[p.name] for p in sorted(players[:5], key=lambda p: p.pk)})
    assert ("Wastl", "Resi") in {(ids[t.payer], ids[t.payee]) for t in fresh.transfers}


def test_a_part_payment_of_odd_cents_keeps_the_ausgleich_s_other_pairs(
    client, club, runde, players, admin, set_tariff
):
    """Rounded to 50 Cent, a part payment that leaves its transfer a rest of odd cents
    (0,30 € of 0,50 €) made a fresh plan with other pairs; the pairs stay now, and the
    one paid in part asks what is left of it (walk 20)."""
    set_tariff(runde, settle_unit=50)
    sepp, vroni, hias, resi, wastl = players[:5]
    ausgleich = three_evenings_then_the_ausgleich(runde, players, admin)
    client.force_login(admin)
    url = reverse("evenings:settlement", args=[ausgleich.pk])

    def pairs() -> list[str]:
        return sorted(re.findall(r"\w+ zahlt \w+ [^<]*€", page_text(client.get(url))))

    before = pairs()
    payer, payee = re.match(r"(\w+) zahlt (\w+) 0,50 €", before[0]).groups()
    by_name = {player.name: player for player in players}
    services.record_payment(ausgleich.pk, by_name[payer].pk, by_name[payee].pk, 30, admin)

    assert len(before) == 3 and pairs() == before  # 0,20 € left, and rests of 0,30 €
    paid = LedgerEntry.objects.filter(evening=ausgleich, player=by_name[payer])
    assert paid.aggregate(total=Sum("amount")) == {"total": 30}
    runde_page = reverse("evenings:runde_balances", args=[club.pk, runde.pk])
    assert sorted(re.findall(r"\w+ zahlt \w+ [^<]*€", page_text(client.get(runde_page)))) == (
        before
    )


def test_the_runde_s_accounts_round_as_the_ausgleich_they_show(
    client, club, runde, players, admin, set_tariff
):
    # The Ausgleich was made at 50 Cent; the tariff rounds to 10 Cent since. Until the
    # next evening, the accounts show the Ausgleich's plan, and say its unit.
    evening = rounded_to_50_cents(runde, players, admin, set_tariff)
    services.close_evening(evening.pk, admin)
    ausgleich = services.start_ausgleich(runde, admin)
    set_tariff(runde, settle_unit=10)
    client.force_login(admin)

    page = page_text(client.get(reverse("evenings:runde_balances", args=[club.pk, runde.pk])))
    at_ausgleich = page_text(client.get(reverse("evenings:settlement", args=[ausgleich.pk])))

    def pairs(text) -> list[str]:
        return sorted(re.findall(r"\w+ zahlt \w+ [^<]*€", text))

    assert pairs(page) == pairs(at_ausgleich) and pairs(page)
    assert "Jede Zahlung ist für sich auf 50 Cent abgerundet" in page


def test_who_left_the_club_or_plays_no_more_is_marked_where_their_debt_is_settled(
    client, club, runde, players, scorekeeper, admin, two_evenings
):
    """Walk 67: Hias left the club owing 0,80 €, Vroni was set inactive; the Runde's
    accounts and the Ausgleich named them as anyone, though neither comes to the table."""
    sepp, vroni, hias, resi = players[:4]
    hias.user = make_user("hias.weg", "Hias")
    hias.save()
    membership = Membership.objects.create(club=club, user=hias.user, role="spieler")
    club_services.remove_member(membership, hias.user)
    vroni.active = False
    vroni.save()
    client.force_login(scorekeeper)
    accounts = reverse("evenings:runde_balances", args=[club.pk, runde.pk])

    page = page_text(client.get(accounts))

    assert "Hias (ausgeschieden) zahlt Vroni (inaktiv) 0,80 €" in page
    assert "<dt>Hias (ausgeschieden)</dt>" in page
    ausgleich = services.start_ausgleich(runde, scorekeeper, uuid.uuid4())
    page = page_text(client.get(reverse("evenings:settlement", args=[ausgleich.pk])))
    assert re.findall(r'id="transfer-\d+">([^<]+)<', page) == [
        "Hias (ausgeschieden) zahlt Vroni (inaktiv) 0,80 €"
    ]
    # Sepp and Resi are neither; nor is Hias once he is back, as the same player.
    assert "<dt>Sepp</dt>" in page and "<dt>Resi</dt>" in page
    hias.refresh_from_db()
    hias.user = Membership.objects.create(
        club=club, user=make_user("hias.da", "Hias"), role="spieler"
    ).user
    hias.save()
    assert "<dt>Hias</dt>" in page_text(client.get(accounts))
