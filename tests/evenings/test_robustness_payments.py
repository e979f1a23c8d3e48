"""Payments settle what is open at the evening, and nothing more.

The cast's evening after one game: Vroni and Resi won a Sauspiel with 3 Laufende, so
each gets 0,40 € and Sepp and Hias each owe 0,40 €.
"""

import dataclasses
import io
import re
import uuid

import pytest
from django.core.management import call_command
from django.db.models import Sum
from django.test import Client
from django.urls import reverse

from clubs import services as club_services
from clubs.models import Membership
from evenings import services
from evenings.models import Change, LedgerEntry
from evenings.services import GameInput
from tests.conftest import make_user, page_text
from tests.evenings.test_concurrency import run_at_once

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


def verify_ledger() -> str:
    out = io.StringIO()
    call_command("verify_ledger", stdout=out)
    return out.getvalue()


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
    assert "Zahlung eingetragen: Sepp zahlt Resi 0,40 €" in response.text
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


def test_a_typed_amount_refused_is_shown_on_the_abrechnung_s_own_address(
    client, scorekeeper, after_one_game, players
):
    """Walk 68: 99 typed, refused, then 0,30 € paid; Back showed the refused answer from
    the browser's cache, the debt still open. Walk 69: made uncacheable, Back asked to
    send the refused form again. The refusal leads to the Abrechnung's page, once."""
    sepp, resi = players[0], players[3]
    client.force_login(scorekeeper)
    settlement = reverse("evenings:settlement", args=[after_one_game.pk])

    refused = client.post(
        reverse("evenings:payment", args=[after_one_game.pk]),
        {"payer": sepp.pk, "payee": resi.pk, "other_amount": "99", "key": uuid.uuid4()},
    )

    assert refused.status_code == 302 and refused["Location"] == settlement
    page = client.get(settlement)
    assert "no-store" in page.headers["Cache-Control"]
    error = "So viel ist nicht offen: Sepp kann Resi höchstens 0,40 € zahlen."
    at_field = re.search(
        r'value="99"[^>]*aria-invalid="true"[^>]*>\s*<div class="error"[^>]*>([^<]*)<', page.text
    )
    assert at_field and at_field[1] == error
    assert page_text(page).count(error) == 1  # at its field, not above as well
    assert error not in client.get(settlement).text  # said once: Back finds the page as it is
    assert payments(after_one_game) == []


def test_the_same_payment_tapped_twice_is_booked_once(client, scorekeeper, after_one_game, players):
    sepp, resi = players[0], players[3]
    client.force_login(scorekeeper)
    pay(client, after_one_game, sepp.pk, resi.pk, 40)

    response = pay(client, after_one_game, sepp.pk, resi.pk, 40)

    assert "Schon bezahlt: Sepp hat Resi 0,40 € gezahlt." in response.text
    assert "nichts offen" not in response.text
    assert payments(after_one_game) == [(sepp.pk, 40), (resi.pk, -40)]


def test_a_transfer_paid_in_part_meanwhile_says_so_and_what_is_left(
    client, scorekeeper, after_one_game, players
):
    """A second phone's page still offers the whole 0,40 € after the first phone marked
    0,25 € paid: the second tap books nothing and says what was paid and what is left."""
    sepp, resi = players[0], players[3]
    client.force_login(scorekeeper)
    pay(client, after_one_game, sepp.pk, resi.pk, 25)

    response = pay(client, after_one_game, sepp.pk, resi.pk, 40)

    assert (
        "So viel ist nicht offen: Sepp hat Resi schon 0,25 € gezahlt. Offen ist nur noch 0,15 €."
        in (response.text)
    )
    assert "höchstens" not in response.text  # one message, not two
    assert payments(after_one_game) == [(sepp.pk, 25), (resi.pk, -25)]


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


# -- "Storno": a payment marked by mistake is taken back by a payment the other way -------


def cancel(client, evening, change_id):
    return client.post(
        reverse("evenings:payment_cancel", args=[evening.pk, change_id]), follow=True
    )


def payment_changes(evening) -> list[dict]:
    return list(
        evening.changes.filter(kind="payment").order_by("pk").values_list("after", flat=True)
    )


def sums_per_change(evening) -> set[int]:
    entries = LedgerEntry.objects.filter(evening=evening, kind="payment")
    return set(
        entries.values("change").annotate(total=Sum("amount")).values_list("total", flat=True)
    )


def test_a_cancelled_payment_is_taken_back_by_a_payment_the_other_way(
    after_one_game, players, admin
):
    sepp, resi = players[0], players[3]
    payment = services.record_payment(after_one_game.pk, sepp.pk, resi.pk, 40, admin)

    cancellation = services.cancel_payment(after_one_game.pk, payment.pk, admin)

    assert cancellation.kind == Change.Kind.PAYMENT
    assert cancellation.after == {
        "payer": resi.pk,
        "payee": sepp.pk,
        "amount": 40,
        "cancels": payment.pk,
    }
    # Nothing edited: the payment's entries stand, the cancellation's undo them.
    assert payments(after_one_game) == [
        (sepp.pk, 40),
        (resi.pk, -40),
        (resi.pk, 40),
        (sepp.pk, -40),
    ]
    assert list(cancellation.ledger.values_list("player_id", "amount").order_by("pk")) == [
        (resi.pk, 40),
        (sepp.pk, -40),
    ]
    assert sums_per_change(after_one_game) == {0}
    assert services.balances(after_one_game) == {
        sepp.pk: -40,
        players[1].pk: 40,
        players[2].pk: -40,
        resi.pk: 40,
    }
    assert services.payments(after_one_game) == []
    assert "ledger ok" in verify_ledger()


def test_a_cancelled_transfer_is_suggested_again_and_can_be_paid_again(
    after_one_game, players, admin
):
    sepp, resi = players[0], players[3]
    suggested = services.settlement(after_one_game)
    mistake = services.record_payment(after_one_game.pk, sepp.pk, resi.pk, 40, admin)
    assert services.settlement(after_one_game) != suggested

    services.cancel_payment(after_one_game.pk, mistake.pk, admin)

    assert services.settlement(after_one_game) == suggested
    again = services.record_payment(after_one_game.pk, sepp.pk, resi.pk, 40, admin)

    assert services.payments(after_one_game) == [again]
    assert services.balances(after_one_game)[sepp.pk] == 0
    assert "ledger ok" in verify_ledger()


def test_a_payment_is_cancelled_only_once(after_one_game, players, admin):
    sepp, resi = players[0], players[3]
    payment = services.record_payment(after_one_game.pk, sepp.pk, resi.pk, 40, admin)
    services.cancel_payment(after_one_game.pk, payment.pk, admin)
    before = (payments(after_one_game), after_one_game.changes.count())

    with pytest.raises(
        services.EveningError, match=r"^Schon storniert: die Zahlung von Sepp an Resi, 0,40 €\.$"
    ):
        services.cancel_payment(after_one_game.pk, payment.pk, admin)

    assert (payments(after_one_game), after_one_game.changes.count()) == before
    assert services.balances(after_one_game)[sepp.pk] == -40


@pytest.mark.django_db(transaction=True)
def test_storno_tapped_on_several_phones_at_once_is_booked_once(after_one_game, players, admin):
    sepp, resi = players[0], players[3]
    payment = services.record_payment(after_one_game.pk, sepp.pk, resi.pk, 40, admin)

    answers, raised = run_at_once(
        8, lambda _i: services.cancel_payment(after_one_game.pk, payment.pk, admin)
    )

    assert len([a for a in answers if a is not None]) == 1
    assert {str(e) for e in raised if e is not None} == {
        "Schon storniert: die Zahlung von Sepp an Resi, 0,40 €."
    }
    assert len(payment_changes(after_one_game)) == 2
    assert services.balances(after_one_game)[sepp.pk] == -40
    assert sums_per_change(after_one_game) == {0}


def test_a_cancellation_is_not_cancelled(after_one_game, players, admin):
    sepp, resi = players[0], players[3]
    payment = services.record_payment(after_one_game.pk, sepp.pk, resi.pk, 40, admin)
    cancellation = services.cancel_payment(after_one_game.pk, payment.pk, admin)

    with pytest.raises(services.EveningError, match="Ein Storno lässt sich nicht stornieren"):
        services.cancel_payment(after_one_game.pk, cancellation.pk, admin)

    assert len(payment_changes(after_one_game)) == 2
    assert services.balances(after_one_game)[sepp.pk] == -40


def a_payment_elsewhere(runde, players, admin):
    """A payment at another evening of the Runde: Sepp pays Resi 0,10 €."""
    sepp, resi = players[0], players[3]
    elsewhere = services.start_evening(runde, players[:4], 0, admin)
    data = GameInput(type="sauspiel", declarer=players[1].pk, partner=resi.pk)
    services.book_game(elsewhere.pk, uuid.uuid4(), data, admin)
    return services.record_payment(elsewhere.pk, sepp.pk, resi.pk, 10, admin)


def test_only_a_payment_of_this_evening_is_cancelled(after_one_game, runde, players, admin):
    other_payment = a_payment_elsewhere(runde, players, admin)
    booking = after_one_game.changes.get(kind="book")
    start = after_one_game.changes.get(kind="start")
    before = LedgerEntry.objects.count(), Change.objects.count()

    for change_id in (other_payment.pk, booking.pk, start.pk, 0, BIGINT):
        with pytest.raises(
            services.EveningError, match="Diese Zahlung gibt es an diesem Abend nicht"
        ):
            services.cancel_payment(after_one_game.pk, change_id, admin)

    assert (LedgerEntry.objects.count(), Change.objects.count()) == before


def test_a_payment_is_cancelled_after_the_evening_is_closed_too(after_one_game, players, admin):
    sepp, resi = players[0], players[3]
    payment = services.record_payment(after_one_game.pk, sepp.pk, resi.pk, 40, admin)
    services.close_evening(after_one_game.pk, admin)

    services.cancel_payment(after_one_game.pk, payment.pk, admin)

    after_one_game.refresh_from_db()
    assert not after_one_game.is_open
    assert services.balances(after_one_game)[sepp.pk] == -40
    assert [c.kind for c in after_one_game.changes.order_by("pk")] == [
        "start", "book", "payment", "close", "payment"
    ]  # fmt: skip
    assert "ledger ok" in verify_ledger()


def test_a_closed_evenings_settlement_says_it_is_closed_and_still_takes_payments(
    client, scorekeeper, after_one_game, players, admin
):
    sepp, resi = players[0], players[3]
    client.force_login(scorekeeper)
    url = reverse("evenings:settlement", args=[after_one_game.pk])
    closed = "Der Abend ist abgeschlossen: Spiele lassen sich nicht mehr buchen"
    assert closed not in client.get(url).text
    services.close_evening(after_one_game.pk, admin)

    assert closed in client.get(url).text
    response = pay(client, after_one_game, sepp.pk, resi.pk, 40)

    assert "Zahlung eingetragen:" in response.text
    assert payments(after_one_game) == [(sepp.pk, 40), (resi.pk, -40)]


def test_storno_on_the_settlement_page_takes_a_payment_back(
    client, scorekeeper, after_one_game, players
):
    sepp, resi = players[0], players[3]
    client.force_login(scorekeeper)
    pay(client, after_one_game, sepp.pk, resi.pk, 40)
    payment = after_one_game.changes.get(kind="payment")
    page = page_text(client.get(reverse("evenings:settlement", args=[after_one_game.pk])))
    assert "Sepp hat Resi 0,40 € gezahlt" in page
    assert reverse("evenings:payment_cancel", args=[after_one_game.pk, payment.pk]) in page

    response = cancel(client, after_one_game, payment.pk)

    assert response.redirect_chain == [
        (reverse("evenings:settlement", args=[after_one_game.pk]), 302)
    ]
    assert "Zahlung storniert: Sepp an Resi, 0,40 €" in page_text(response)
    # The "Bezahlt" list shows no payment that stands: the cancelled one is under
    # "Storniert" (walk 59), the cancellation (whose entries look like Resi paying Sepp)
    # nowhere.
    standing, cancelled = page_text(response).split("<h3>Storniert</h3>")
    assert "gezahlt" not in standing.split("<h2>Bezahlt</h2>")[1]
    assert "Sepp hat Resi 0,40 € gezahlt" in cancelled and "Resi hat Sepp" not in cancelled
    assert "Ja, stornieren" not in page_text(response)
    assert "Sepp zahlt Resi 0,40 €" in page_text(response)  # suggested again
    assert payment_changes(after_one_game)[1] == {
        "payer": resi.pk, "payee": sepp.pk, "amount": 40, "cancels": payment.pk
    }  # fmt: skip
    assert payments(after_one_game) == [
        (sepp.pk, 40),
        (resi.pk, -40),
        (resi.pk, 40),
        (sepp.pk, -40),
    ]
    assert services.balances(after_one_game)[sepp.pk] == -40


def test_a_second_tap_on_storno_books_nothing_more(client, scorekeeper, after_one_game, players):
    sepp, resi = players[0], players[3]
    client.force_login(scorekeeper)
    pay(client, after_one_game, sepp.pk, resi.pk, 40)
    payment = after_one_game.changes.get(kind="payment")
    cancel(client, after_one_game, payment.pk)

    response = cancel(client, after_one_game, payment.pk)

    assert response.status_code == 200
    assert "Schon storniert: die Zahlung von Sepp an Resi, 0,40 €." in response.text
    assert len(payment_changes(after_one_game)) == 2
    assert len(payments(after_one_game)) == 4
    assert services.balances(after_one_game)[sepp.pk] == -40


def test_the_settlement_lists_only_the_payments_that_stand(
    client, scorekeeper, after_one_game, players, admin
):
    sepp, vroni, hias, resi = players[:4]
    mistake = services.record_payment(after_one_game.pk, hias.pk, resi.pk, 40, admin)
    services.cancel_payment(after_one_game.pk, mistake.pk, admin)
    kept = services.record_payment(after_one_game.pk, hias.pk, vroni.pk, 40, admin)
    client.force_login(scorekeeper)

    page = page_text(client.get(reverse("evenings:settlement", args=[after_one_game.pk])))

    standing, cancelled = page.split("<h3>Storniert</h3>")
    assert re.findall(r"(\w+ hat \w+ [\d,]+ € gezahlt)", standing) == [
        "Hias hat Vroni 0,40 € gezahlt"
    ]
    assert re.findall(r"(\w+ hat \w+ [\d,]+ € gezahlt)", cancelled) == [
        "Hias hat Resi 0,40 € gezahlt"
    ]
    assert re.findall(r"zahlung/(\d+)/storno/", page) == [str(kept.pk)]
    # Whose suggestion this is: the evening's; the Runde's accounts have the rest.
    runde = after_one_game.runde
    accounts_url = reverse("evenings:runde_balances", args=[runde.club_id, runde.pk])
    assert "Für diesen Abend. Was über alle Abende offen ist, steht bei der Runde:" in page
    assert f'<a href="{accounts_url}">Konten der Runde</a>' in page


@pytest.mark.parametrize("role", ["player", "other club"])
def test_storno_is_not_found_for_a_player_and_for_another_club(
    client, club, after_one_game, players, admin, role
):
    sepp, resi = players[0], players[3]
    payment = services.record_payment(after_one_game.pk, sepp.pk, resi.pk, 40, admin)
    someone = make_user("vroni", "Vroni")
    if role == "player":
        Membership.objects.create(user=someone, club=club, role=Membership.Role.PLAYER)
    else:
        club_services.create_club(someone, "Kartler Giesing")
    client.force_login(someone)

    response = client.post(reverse("evenings:payment_cancel", args=[after_one_game.pk, payment.pk]))

    assert response.status_code == 404
    assert len(payment_changes(after_one_game)) == 1
    assert services.balances(after_one_game)[sepp.pk] == 0


def test_storno_is_a_post_only_and_wants_a_login(
    client, scorekeeper, after_one_game, players, admin
):
    payment = services.record_payment(after_one_game.pk, players[0].pk, players[3].pk, 40, admin)
    url = reverse("evenings:payment_cancel", args=[after_one_game.pk, payment.pk])

    assert client.post(url)["Location"].startswith(reverse("login"))
    client.force_login(scorekeeper)
    assert client.get(url).status_code == 405
    assert len(payment_changes(after_one_game)) == 1


def test_storno_of_what_is_no_payment_of_the_evening_is_not_found(
    client, scorekeeper, after_one_game, runde, players, admin
):
    other_payment = a_payment_elsewhere(runde, players, admin)
    booking = after_one_game.changes.get(kind="book")
    client.force_login(scorekeeper)
    before = LedgerEntry.objects.count(), Change.objects.count()

    # Another evening's payment, a booking, nothing, beyond the bigint column.
    for change_id in (other_payment.pk, booking.pk, 0, 10**30):
        response = client.post(
            reverse("evenings:payment_cancel", args=[after_one_game.pk, change_id])
        )
        assert response.status_code == 404, change_id

    assert (LedgerEntry.objects.count(), Change.objects.count()) == before


# -- "Anderer Betrag": a part payment, typed as people write amounts ----------------------


def pay_typed(client, evening, payer, payee, typed):
    return client.post(
        reverse("evenings:payment", args=[evening.pk]),
        {"payer": payer, "payee": payee, "other_amount": typed},
        follow=True,
    )


def test_the_settlement_offers_another_amount_prefilled_with_the_suggested_one(
    client, scorekeeper, after_one_game
):
    client.force_login(scorekeeper)

    page = client.get(reverse("evenings:settlement", args=[after_one_game.pk])).text

    inputs = re.findall(
        r'<input type="text" id="other-amount-\d" name="other_amount" value="([^"]*)"'
        r' inputmode="decimal"',
        page,
    )
    assert inputs == ["0,40", "0,40"]
    assert "Anderer Betrag" in page


def test_a_part_payment_is_booked_exactly_and_the_rest_stays_open(
    client, scorekeeper, after_one_game, players
):
    sepp, resi = players[0], players[3]
    client.force_login(scorekeeper)

    response = pay_typed(client, after_one_game, sepp.pk, resi.pk, "0,25")

    assert "Zahlung eingetragen:" in page_text(response)
    assert payments(after_one_game) == [(sepp.pk, 25), (resi.pk, -25)]
    assert payment_changes(after_one_game) == [{"payer": sepp.pk, "payee": resi.pk, "amount": 25}]
    assert services.balances(after_one_game)[sepp.pk] == -15
    assert "Sepp zahlt Resi 0,15 €" in page_text(response)
    assert "Sepp hat Resi 0,25 € gezahlt" in page_text(response)

    pay_typed(client, after_one_game, sepp.pk, resi.pk, "0,15")
    response = pay_typed(client, after_one_game, sepp.pk, resi.pk, "0,01")

    # Both part payments together: nothing left, and the answer says what was paid.
    assert "Schon bezahlt: Sepp hat Resi 0,40 € gezahlt." in page_text(response)
    assert services.balances(after_one_game)[sepp.pk] == 0
    assert len(payment_changes(after_one_game)) == 2


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("1,5o", "Bitte einen Betrag in Euro eingeben, z. B. 0,10 oder 1,50."),
        ("", "Bitte einen Betrag eingeben, z. B. 0,10."),
        ("   ", "Bitte einen Betrag eingeben, z. B. 0,10."),
        ("-1", "Der Betrag darf nicht negativ sein."),
        ("0", "Der Betrag muss größer als null sein."),
        ("0,00", "Der Betrag muss größer als null sein."),
        ("0,105", "Höchstens zwei Stellen nach dem Komma: Beträge sind ganze Cent."),
        ("0,41", "So viel ist nicht offen: Sepp kann Resi höchstens 0,40 € zahlen."),
        ("10.000,01", "Der Betrag darf höchstens 10.000,00 € sein."),
        ("4\x000", "Bitte einen Betrag in Euro eingeben, z. B. 0,10 oder 1,50."),
    ],
)
def test_a_typo_in_another_amount_is_named_and_changes_nothing(
    client, scorekeeper, after_one_game, players, typed, message
):
    sepp, resi = players[0], players[3]
    client.force_login(scorekeeper)
    before = Change.objects.count()

    response = pay_typed(client, after_one_game, sepp.pk, resi.pk, typed)

    assert response.status_code == 200
    assert message in response.text
    assert "Zahlung eingetragen:" not in response.text
    assert payments(after_one_game) == []
    assert Change.objects.count() == before
    assert services.balances(after_one_game)[sepp.pk] == -40


def test_the_history_says_which_payment_was_cancelled(
    client, scorekeeper, after_one_game, players, admin
):
    sepp, resi = players[0], players[3]
    payment = services.record_payment(after_one_game.pk, sepp.pk, resi.pk, 40, admin)
    services.cancel_payment(after_one_game.pk, payment.pk, admin)
    client.force_login(scorekeeper)

    page = client.get(reverse("evenings:history", args=[after_one_game.pk])).text

    entries = re.findall(
        r'<li class="change payment">\s*<div><strong>([^<]*)</strong></div>\s*<div>([^<]*)</div>',
        page,
    )
    assert entries == [
        ("Zahlung eingetragen", "Sepp zahlt Resi 0,40 €"),
        ("Storno", "Zahlung storniert: Sepp an Resi, 0,40 €"),
    ]


@pytest.mark.parametrize(
    ("first", "said"),
    [
        ("admin", "eben auf einem anderen Gerät."),
        # The same Schreiber's other tab, or Back to the page before paying (walk 68:
        # "auf einem anderen Gerät" was not true of that).
        ("scorekeeper", "eben von dir eingetragen."),
    ],
)
def test_a_part_paid_on_another_phone_meanwhile_is_not_paid_again_from_a_stale_page(
    client, scorekeeper, admin, after_one_game, players, first, said
):
    """Two phones show the Abrechnung; one marks 0,10 € of Sepp's 0,40 € to Vroni as
    paid, the other then types 0,20 € for the same transfer. That would fit in what is
    open, but it was meant for the same money: refused, with what happened."""
    sepp, vroni = players[:2]
    client.force_login(scorekeeper)
    page = client.get(reverse("evenings:settlement", args=[after_one_game.pk])).text
    [shown] = set(re.findall(r'name="seen" value="(\d+)"', page))
    form = {"payer": sepp.pk, "payee": vroni.pk, "seen": shown}
    other = Client()
    other.force_login({"admin": admin, "scorekeeper": scorekeeper}[first])

    other.post(
        reverse("evenings:payment", args=[after_one_game.pk]),
        {**form, "other_amount": "0,10", "key": uuid.uuid4()},
    )
    answer = client.post(
        reverse("evenings:payment", args=[after_one_game.pk]),
        {**form, "other_amount": "0,20", "key": uuid.uuid4()},
        follow=True,
    )

    assert f"Schon bezahlt: Sepp hat Vroni 0,10 € gezahlt, {said}" in answer.text
    assert payments(after_one_game) == [(sepp.pk, 10), (vroni.pk, -10)]


def test_a_bezahlt_from_a_page_shown_before_a_game_moved_the_debts_says_why(
    client, scorekeeper, after_one_game, players, admin
):
    """The page proposes "Sepp zahlt Vroni 0,40 €"; another phone books a Sauspiel that
    Sepp and Hias win, and Sepp owes nothing. The old tap books nothing and says that the
    evening changed since, not only that nothing is open."""
    sepp, vroni, hias = players[:3]
    client.force_login(scorekeeper)
    page = client.get(reverse("evenings:settlement", args=[after_one_game.pk])).text
    [shown] = set(re.findall(r'name="seen" value="(\d+)"', page))
    data = GameInput(type="sauspiel", declarer=sepp.pk, partner=hias.pk, laufende=3)
    services.book_game(after_one_game.pk, uuid.uuid4(), data, admin)

    answer = client.post(
        reverse("evenings:payment", args=[after_one_game.pk]),
        {"payer": sepp.pk, "payee": vroni.pk, "amount": 40, "seen": shown, "key": uuid.uuid4()},
        follow=True,
    )

    assert (
        "Zwischen Sepp und Vroni ist an diesem Abend nichts offen. Seit die Seite geladen "
        "wurde, hat sich am Abend etwas geändert: hier steht, was jetzt offen ist."
    ) in answer.text
    assert payments(after_one_game) == []


def test_the_abrechnung_says_which_games_changed_after_the_first_payment(
    client, scorekeeper, after_one_game, players, admin
):
    sepp, vroni, hias, resi = players[:4]
    services.book_game(after_one_game.pk, uuid.uuid4(), GameInput(
        type="sauspiel", declarer=sepp.pk, partner=hias.pk), admin)  # fmt: skip
    client.force_login(scorekeeper)
    url = reverse("evenings:settlement", args=[after_one_game.pk])
    before_paying = page_text(client.get(url))
    services.record_payment(after_one_game.pk, hias.pk, resi.pk, 30, admin)
    first = after_one_game.games.get(number=1)
    services.correct_game(after_one_game.pk, first.pk, GameInput(
        type="sauspiel", declarer=vroni.pk, partner=resi.pk, laufende=4), admin)  # fmt: skip
    services.void_game(after_one_game.pk, after_one_game.games.get(number=2).pk, admin)
    # Game 1 corrected once more: named once. (Back to 3 Laufende, it would be the first
    # correction taken back, and said so.)
    services.correct_game(after_one_game.pk, first.pk, GameInput(
        type="sauspiel", declarer=vroni.pk, partner=resi.pk, laufende=5), admin)  # fmt: skip
    # Played on after Hias paid (walk 38: games booked then were not named).
    for _ in range(2):
        services.book_game(after_one_game.pk, uuid.uuid4(), GameInput(
            type="sauspiel", declarer=sepp.pk, partner=hias.pk), admin)  # fmt: skip

    page = page_text(client.get(url))

    assert "Nach der ersten Zahlung" not in before_paying
    assert (
        "Nach der ersten Zahlung geändert: Spiele 3, 4 gebucht, Spiel 1 korrigiert, Spiel 2 "
        "gestrichen. Was offen ist, ist neu gerechnet; eingetragene Zahlungen bleiben, wie "
        "sie sind."
    ) in page
    assert "Hias hat Resi 0,30 € gezahlt" in page


def ramsch_then_sauspiel(runde, players, admin, declarer, partner):
    """A new evening: Sepp loses a Ramsch, then `declarer` and `partner` win a Sauspiel
    (a Bock game where the tariff plays Bock). Returns the evening and the Ramsch."""
    evening = services.start_evening(runde, players[:4], 0, admin)
    ramsch = services.book_game(evening.pk, uuid.uuid4(), GameInput(
        type="ramsch", won=False, loser=players[0].pk), admin)[0]  # fmt: skip
    services.book_game(evening.pk, uuid.uuid4(), GameInput(
        type="sauspiel", declarer=declarer.pk, partner=partner.pk), admin)  # fmt: skip
    return evening, ramsch


def test_the_abrechnung_names_the_later_games_a_correction_after_paying_rescored(
    client, scorekeeper, admin, runde, players, tariff_with_bock
):
    """A Ramsch made game 2 a Bock game; paid, then the Ramsch corrected into a Sauspiel:
    game 2 is no Bock game any more, and the Abrechnung says so besides "Spiel 1
    korrigiert" (walk 27: only the history named it)."""
    sepp, vroni, hias, resi = players[:4]
    evening, ramsch = ramsch_then_sauspiel(runde, players, admin, vroni, resi)
    assert evening.games.get(number=2).bock
    services.record_payment(evening.pk, sepp.pk, vroni.pk, 10, admin)
    services.correct_game(evening.pk, ramsch.pk, GameInput(
        type="sauspiel", declarer=hias.pk, partner=sepp.pk), admin)  # fmt: skip
    assert not evening.games.get(number=2).bock
    client.force_login(scorekeeper)

    page = page_text(client.get(reverse("evenings:settlement", args=[evening.pk])))

    assert (
        "Nach der ersten Zahlung geändert: Spiel 1 korrigiert (dazu neu gewertet: Spiel 2). "
        "Was offen ist, ist neu gerechnet"
    ) in page


def test_games_booked_after_paying_are_named_in_runs():
    from evenings.views import _runs

    assert _runs([9, 3, 4, 5]) == "3–5, 9"
    assert _runs([26, 27]) == "26, 27"
    assert _runs([7]) == "7"


def test_a_correction_taken_back_after_paying_is_said_so(
    client, admin, scorekeeper, runde, players, tariff_with_bock
):
    """Walk 50: after "Rückgängig" the Abrechnung still said "Spiel 1 korrigiert (dazu
    neu gewertet: Spiel 2)", and the history headed the taking back "Spiel korrigiert"."""
    sepp, vroni, hias, resi = players[:4]
    evening, ramsch, sauspiel = corrected_then_paid(runde, players, admin)
    url = reverse("evenings:settlement", args=[evening.pk])
    client.force_login(scorekeeper)
    # A correction made before paying, taken back after it.
    change = evening.changes.filter(kind="correct").latest("pk")
    services.undo_correction(evening.pk, change.pk, admin)

    back = page_text(client.get(url))
    services.correct_game(evening.pk, ramsch.pk, sauspiel, admin)
    change = evening.changes.filter(kind="correct").latest("pk")
    services.undo_correction(evening.pk, change.pk, admin)
    undone = page_text(client.get(url))
    history = page_text(client.get(reverse("evenings:history", args=[evening.pk])))

    assert "Nach der ersten Zahlung geändert: Korrektur von Spiel 1 zurückgenommen (dazu " in back
    # Corrected and taken back once more: it came to the same.
    assert "Nach der ersten Zahlung geändert: Korrektur von Spiel 1 zurückgenommen (dazu " in undone
    assert history.count("<strong>Spiel korrigiert</strong>") == 2
    # At another evening, paid, then corrected and taken back: back as it was.
    other = services.start_evening(runde, players[:4], 0, admin)
    ramsch = services.book_game(other.pk, uuid.uuid4(), GameInput(
        type="ramsch", won=False, loser=sepp.pk), admin)[0]  # fmt: skip
    services.record_payment(other.pk, sepp.pk, vroni.pk, 10, admin)
    services.correct_game(other.pk, ramsch.pk, sauspiel, admin)
    change = other.changes.filter(kind="correct").latest("pk")
    services.undo_correction(other.pk, change.pk, admin)
    other_url = reverse("evenings:settlement", args=[other.pk])
    assert (
        "Nach der ersten Zahlung geändert: Spiel 1 korrigiert und die Korrektur zurückgenommen. "
        in page_text(client.get(other_url))
    )
    # Corrected twice, the second set back by hand (walk 51): not back as at the payment.
    services.correct_game(other.pk, ramsch.pk, sauspiel, admin)
    services.correct_game(other.pk, ramsch.pk, dataclasses.replace(sauspiel, won=False), admin)
    services.correct_game(other.pk, ramsch.pk, sauspiel, admin)
    assert "Nach der ersten Zahlung geändert: Spiel 1 korrigiert. Was offen" in page_text(
        client.get(other_url)
    )
    assert history.count("<strong>Korrektur zurückgenommen</strong>") == 2


def test_a_cancelled_payment_stays_listed_where_it_was_paid_as_cancelled(
    client, scorekeeper, after_one_game, players, admin
):
    """Walk 59: after "Storno" the payment was gone from the Abrechnung; only the history
    and the CSV said it had been paid and taken back."""
    sepp, hias, resi = players[0], players[2], players[3]
    vroni = players[1]
    payment = services.record_payment(after_one_game.pk, sepp.pk, resi.pk, 40, admin)
    services.record_payment(after_one_game.pk, hias.pk, vroni.pk, 10, admin)
    client.force_login(scorekeeper)

    cancel(client, after_one_game, payment.pk)
    page = page_text(client.get(reverse("evenings:settlement", args=[after_one_game.pk])))

    standing, cancelled = page.split("<h3>Storniert</h3>")
    assert "Hias hat Vroni 0,10 € gezahlt" in standing
    assert "Sepp hat Resi 0,40 € gezahlt" not in standing
    assert cancelled.count("Sepp hat Resi 0,40 € gezahlt") == 1
    assert re.search(
        r"eingetragen [\d.]+ · [\d:]+ von \w+ · storniert [\d.]+ · [\d:]+ von", cancelled
    )
    assert "Ja, stornieren" not in cancelled


def test_what_changed_after_paying_is_said_in_the_order_it_was_done(
    client, admin, scorekeeper, runde, players, tariff_with_bock
):
    """Walk 60: a correction taken back after paying was named after what was done
    later ("Spiel 2 gestrichen, Korrektur von Spiel 1 zurückgenommen")."""
    sepp, vroni, hias, _resi = players[:4]
    evening, ramsch, sauspiel = corrected_then_paid(runde, players, admin)
    change = evening.changes.filter(kind="correct").latest("pk")
    services.undo_correction(evening.pk, change.pk, admin)
    services.void_game(evening.pk, evening.games.get(number=2).pk, admin)
    client.force_login(scorekeeper)

    page = page_text(client.get(reverse("evenings:settlement", args=[evening.pk])))

    said = page.split("Nach der ersten Zahlung geändert: ")[1].split(". Was offen")[0]
    assert said.startswith("Korrektur von Spiel 1 zurückgenommen (dazu neu gewertet: Spiel 2)")
    assert said.endswith(", Spiel 2 gestrichen")


def corrected_then_paid(runde, players, admin):
    """A Ramsch corrected into a Sauspiel (Hias with Sepp) before the first proposed
    payment was made: the evening, the game and what it was corrected to."""
    sepp, vroni, hias = players[:3]
    evening, ramsch = ramsch_then_sauspiel(runde, players, admin, vroni, hias)
    sauspiel = GameInput(type="sauspiel", declarer=hias.pk, partner=sepp.pk)
    services.correct_game(evening.pk, ramsch.pk, sauspiel, admin)
    first = services.settlement(evening, []).transfers[0]
    services.record_payment(evening.pk, int(first.payer), int(first.payee), first.amount, admin)
    return evening, ramsch, sauspiel
