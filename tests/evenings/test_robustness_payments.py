"""Payments settle what is open at the evening, and nothing more.

The cast's evening after one game: Vroni and Resi won a Sauspiel with 3 Laufende, so
each gets 0,40 € and Sepp and Hias each owe 0,40 €.
"""

import uuid

import pytest
from django.urls import reverse

from evenings import services
from evenings.models import Change, LedgerEntry
from evenings.services import GameInput

BIGINT = 2**63 - 1
INVALID = "Diese Zahlung ist ungültig."


@pytest.fixture
def after_one_game(evening, players, admin):
    sepp, vroni, hias, resi = players[:4]
    data = GameInput(type="sauspiel", declarer=vroni.pk, partner=resi.pk, laufende=3)
    services.book_game(evening.pk, uuid.uuid4(), data, admin)
    assert services.balances(evening) == {sepp.pk: -40, vroni.pk: 40, hias.pk: -40, resi.pk: 40}
    return evening


def pay(client, evening, payer, payee, amount):
    return client.post(
        reverse("evenings:payment", args=[evening.pk]),
        {"payer": payer, "payee": payee, "amount": amount},
        follow=True,
    )


def payments(evening) -> list[tuple[int, int]]:
    entries = LedgerEntry.objects.filter(evening=evening, kind="payment").order_by("pk")
    return list(entries.values_list("player_id", "amount"))


def test_paying_exactly_what_is_open_is_booked(client, scorekeeper, after_one_game, players):
    sepp, resi = players[0], players[3]
    client.force_login(scorekeeper)

    response = pay(client, after_one_game, sepp.pk, resi.pk, 40)

    assert response.redirect_chain == [
        (reverse("evenings:settlement", args=[after_one_game.pk]), 302)
    ]
    assert "Zahlung eingetragen." in response.text
    assert payments(after_one_game) == [(sepp.pk, 40), (resi.pk, -40)]
    assert services.balances(after_one_game)[sepp.pk] == 0


def test_a_cent_more_than_the_payer_owes_is_refused_and_nothing_booked(
    client, scorekeeper, after_one_game, players
):
    sepp, resi = players[0], players[3]
    client.force_login(scorekeeper)

    response = pay(client, after_one_game, sepp.pk, resi.pk, 41)

    assert "So viel ist nicht offen: Sepp kann Resi höchstens 0,40 € zahlen." in response.text
    assert payments(after_one_game) == []
    assert not Change.objects.filter(kind="payment").exists()


def test_the_same_payment_tapped_twice_is_booked_once(client, scorekeeper, after_one_game, players):
    sepp, resi = players[0], players[3]
    client.force_login(scorekeeper)
    pay(client, after_one_game, sepp.pk, resi.pk, 40)

    response = pay(client, after_one_game, sepp.pk, resi.pk, 40)

    assert "Zwischen Sepp und Resi ist an diesem Abend nichts offen." in response.text
    assert payments(after_one_game) == [(sepp.pk, 40), (resi.pk, -40)]


def test_a_payment_from_someone_who_is_owed_is_refused(
    client, scorekeeper, after_one_game, players
):
    vroni, resi = players[1], players[3]
    client.force_login(scorekeeper)

    response = pay(client, after_one_game, vroni.pk, resi.pk, 10)

    assert "Zwischen Vroni und Resi ist an diesem Abend nichts offen." in response.text
    assert payments(after_one_game) == []


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        (str(BIGINT + 1), INVALID),  # beyond the ledger's bigint column
        (str(10**30), INVALID),
        (str(BIGINT), "So viel ist nicht offen"),  # fits the column, but nobody owes it
        ("0", INVALID),
        ("-40", INVALID),
        ("0,40", INVALID),
        ("4\x000", INVALID),
    ],
)
def test_amounts_nobody_owes_are_refused_and_nothing_is_booked(
    client, scorekeeper, after_one_game, players, amount, message
):
    sepp, resi = players[0], players[3]
    client.force_login(scorekeeper)

    for _ in range(2):
        response = pay(client, after_one_game, sepp.pk, resi.pk, amount)
        assert response.status_code == 200
        assert message in response.text

    assert payments(after_one_game) == []
    assert services.balances(after_one_game)[sepp.pk] == -40


def test_the_service_refuses_more_than_is_open_too(after_one_game, players, admin):
    sepp, hias, resi = players[0], players[2], players[3]
    services.record_payment(after_one_game.pk, sepp.pk, resi.pk, 30, admin)

    # Resi is owed only 0,10 € more, though Hias owes 0,40 €.
    with pytest.raises(services.EveningError, match="höchstens 0,10 €"):
        services.record_payment(after_one_game.pk, hias.pk, resi.pk, 11, admin)

    services.record_payment(after_one_game.pk, hias.pk, resi.pk, 10, admin)
    assert services.balances(after_one_game)[resi.pk] == 0
