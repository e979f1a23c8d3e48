"""Forms sent twice that carry a key: starting an evening and marking a payment.

A retried request, a double tap, or two requests at once with one form's key start one
evening and book one payment; each answers as the first did. Real commits
(`transaction=True`): the requests at once run in threads with their own connections.
"""

import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from clubs import services as club_services
from evenings import services
from evenings.models import Change, Evening, LedgerEntry
from evenings.services import GameInput
from tests.conftest import PASSWORD
from tests.evenings.test_concurrency import errors, run_at_once

pytestmark = pytest.mark.django_db(transaction=True)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def start_form(players, key) -> dict:
    return {f"seat{i}": p.pk for i, p in enumerate(players[:4])} | {
        "first_dealer": "0",
        "key": str(key),
    }


def test_the_start_form_carries_a_fresh_key(scorekeeper, club, runde):
    url = reverse("evenings:start", args=[club.pk, runde.pk])
    client = logged_in(scorekeeper)

    keys = [re.search(r'name="key" value="([^"]+)"', client.get(url).text)[1] for _ in "ab"]

    assert len({str(uuid.UUID(key)) for key in keys}) == 2


def test_one_start_form_sent_twice_starts_one_evening(scorekeeper, club, runde, players):
    url = reverse("evenings:start", args=[club.pk, runde.pk])
    client = logged_in(scorekeeper)
    key = uuid.uuid4()

    first = client.post(url, start_form(players, key))
    again = client.post(url, start_form(players, key))

    evening = Evening.objects.get()
    assert evening.key == key
    assert first["Location"] == again["Location"] == reverse("evenings:detail", args=[evening.pk])
    assert evening.seats.count() == 4
    assert Change.objects.filter(kind="start").count() == 1


def test_one_start_form_sent_four_times_at_once_starts_one_evening(
    scorekeeper, club, runde, players
):
    url = reverse("evenings:start", args=[club.pk, runde.pk])
    clients = [logged_in(scorekeeper) for _ in range(4)]
    data = start_form(players, uuid.uuid4())

    answers, raised = run_at_once(4, lambda i: clients[i].post(url, data))

    assert errors(raised) == []
    evening = Evening.objects.get()
    assert {a.status_code for a in answers} == {302}
    assert {a["Location"] for a in answers} == {reverse("evenings:detail", args=[evening.pk])}
    assert evening.seats.count() == 4


def test_two_start_forms_start_two_evenings_once_the_second_is_confirmed(
    scorekeeper, club, runde, players
):
    url = reverse("evenings:start", args=[club.pk, runde.pk])
    client = logged_in(scorekeeper)
    second = start_form(players, uuid.uuid4())

    client.post(url, start_form(players, uuid.uuid4()))
    asked = client.post(url, second)  # the same players: asked first
    client.post(url, second | {"again": "on"})

    assert "Mit genau diesen Spielern läuft hier schon ein Abend" in asked.text
    assert Evening.objects.count() == 2


def test_a_key_of_another_runde_starts_nothing_and_says_so(
    scorekeeper, club, runde, players, admin
):
    friday = club_services.create_runde(club, "Freitagsrunde", admin)
    other = services.start_evening(friday, players[:4], 0, admin, key=uuid.uuid4())
    url = reverse("evenings:start", args=[club.pk, runde.pk])

    client = logged_in(scorekeeper)
    asked = client.post(url, start_form(players, other.key))
    # Asked first: the same four sit at the other Runde's evening. Confirmed, the key
    # that started that one starts nothing here.
    answer = client.post(url, start_form(players, other.key) | {"again": "on"})

    assert "sitzen schon an einem laufenden Abend der Runde „Freitagsrunde“" in asked.text
    assert answer.status_code == 200
    assert "Dieses Formular wurde schon verwendet. Bitte neu laden." in answer.text
    assert list(Evening.objects.all()) == [other]


# -- payments --------------------------------------------------------------------------


@pytest.fixture
def owing(evening, players, admin):
    """Sepp owes Resi 0,40 € (and Hias owes Vroni as much)."""
    sepp, vroni, hias, resi = players[:4]
    data = GameInput(type="sauspiel", declarer=vroni.pk, partner=resi.pk, laufende=3)
    services.book_game(evening.pk, uuid.uuid4(), data, admin)
    return evening


def part_payment(evening, players, key) -> dict:
    return {"payer": players[0].pk, "payee": players[3].pk, "other_amount": "0,10", "key": key}


def paid(evening) -> list[tuple[int, int]]:
    entries = LedgerEntry.objects.filter(evening=evening, kind="payment").order_by("pk")
    return list(entries.values_list("player_id", "amount"))


def test_the_settlement_forms_each_carry_their_own_key(scorekeeper, owing):
    page = logged_in(scorekeeper).get(reverse("evenings:settlement", args=[owing.pk])).text

    keys = re.findall(r'name="key" value="([^"]+)"', page)

    # Two transfers, "bezahlt" and "Anderer Betrag" each, and "Andere Zahlung".
    assert len(keys) == 5 == len(set(keys))


def test_a_part_payment_sent_twice_is_booked_once(scorekeeper, owing, players):
    url = reverse("evenings:payment", args=[owing.pk])
    client = logged_in(scorekeeper)
    data = part_payment(owing, players, str(uuid.uuid4()))

    first = client.post(url, data, follow=True)
    again = client.post(url, data, follow=True)

    assert "Zahlung eingetragen: Sepp zahlt Resi 0,10 €" in first.text
    assert "Schon eingetragen: Sepp zahlt Resi 0,10 €" in again.text
    assert "Zahlung eingetragen:" not in again.text
    assert paid(owing) == [(players[0].pk, 10), (players[3].pk, -10)]
    assert services.balances(owing)[players[0].pk] == -30


def test_a_payment_retried_after_its_answer_was_lost_says_it_once(scorekeeper, owing, players):
    url = reverse("evenings:payment", args=[owing.pk])
    client = logged_in(scorekeeper)
    data = part_payment(owing, players, str(uuid.uuid4()))

    client.post(url, data)  # booked; its answer (and the page it leads to) never seen
    again = client.post(url, data, follow=True)

    # The word of the first answer, once, and no "Schon eingetragen" beside it.
    assert again.text.count("Zahlung eingetragen: Sepp zahlt Resi 0,10 €") == 1
    assert "Schon eingetragen" not in again.text
    assert paid(owing) == [(players[0].pk, 10), (players[3].pk, -10)]


def test_a_part_payment_sent_four_times_at_once_is_booked_once(scorekeeper, owing, players):
    url = reverse("evenings:payment", args=[owing.pk])
    clients = [logged_in(scorekeeper) for _ in range(4)]
    data = part_payment(owing, players, str(uuid.uuid4()))

    answers, raised = run_at_once(4, lambda i: clients[i].post(url, data))

    assert errors(raised) == []
    assert {a.status_code for a in answers} == {302}
    assert paid(owing) == [(players[0].pk, 10), (players[3].pk, -10)]


def test_two_part_payments_with_their_own_keys_are_both_booked(scorekeeper, owing, players):
    url = reverse("evenings:payment", args=[owing.pk])
    client = logged_in(scorekeeper)

    client.post(url, part_payment(owing, players, str(uuid.uuid4())))
    client.post(url, part_payment(owing, players, str(uuid.uuid4())))

    assert services.balances(owing)[players[0].pk] == -20
    assert len(paid(owing)) == 4


def test_bezahlt_sent_after_the_login_expired_leads_back_to_the_abrechnung(
    client, scorekeeper, owing, players
):
    """Logged out in another tab: the tap books nothing, says so, and after logging in the
    phone is back on the Abrechnung, not at the payment's address, which takes only forms."""
    settlement = reverse("evenings:settlement", args=[owing.pk])
    data = part_payment(owing, players, str(uuid.uuid4()))

    answer = client.post(
        reverse("evenings:payment", args=[owing.pk]),
        data,
        headers={"Referer": f"http://testserver{settlement}"},
        follow=True,
    )

    assert answer.redirect_chain == [(f"{reverse('login')}?next={settlement}", 302)]
    assert "Du warst nicht mehr angemeldet – nichts gespeichert." in answer.text
    assert paid(owing) == []
    logged_in = client.post(
        answer.redirect_chain[0][0], {"username": "hias", "password": PASSWORD}, follow=True
    )
    assert logged_in.redirect_chain[-1][0] == settlement
    # A Referer from elsewhere is not followed: the form's own address, as Django has it.
    client.logout()
    elsewhere = client.post(reverse("evenings:payment", args=[owing.pk]), data,
                            headers={"Referer": "https://example.com/abend/1/"})  # fmt: skip
    assert "example.com" not in elsewhere["Location"]
    assert elsewhere["Location"].endswith(reverse("evenings:payment", args=[owing.pk]))
