import uuid

from django.urls import reverse

from evenings.models import Change, Evening, Game, LedgerEntry

HTMX = {"HX-Request": "true"}


def entry(key=None, **fields):
    return {"key": str(key or uuid.uuid4()), "spiel": "sauspiel", "won": "1", "kontra": "0",
            "doubled": "0", "laufende": "0"} | fields  # fmt: skip


def test_a_scorekeeper_starts_an_evening_with_five_players(
    client, scorekeeper, club, runde, players
):
    client.force_login(scorekeeper)
    seats = {f"seat{i}": p.pk for i, p in enumerate(players[:5])}

    response = client.post(
        reverse("evenings:start", args=[club.pk, runde.pk]), seats | {"first_dealer": "2"}
    )

    evening = Evening.objects.get()
    assert response["Location"] == reverse("evenings:detail", args=[evening.pk])
    assert [s.player.name for s in evening.seats.all()] == [
        "Sepp",
        "Vroni",
        "Hias",
        "Resi",
        "Wastl",
    ]
    assert evening.first_dealer == 2
    assert evening.tariff == runde.tariff
    page = client.get(response["Location"])
    assert "Es gibt <strong>Hias</strong>" in page.text
    assert "Setzt aus: Hias" in page.text


def test_three_players_are_not_an_evening(client, scorekeeper, club, runde, players):
    client.force_login(scorekeeper)
    seats = {f"seat{i}": p.pk for i, p in enumerate(players[:3])}

    response = client.post(
        reverse("evenings:start", args=[club.pk, runde.pk]), seats | {"first_dealer": "0"}
    )

    assert response.status_code == 200
    assert not Evening.objects.exists()


def test_booking_a_sauspiel_answers_with_the_new_totals(client, scorekeeper, evening, players):
    sepp, vroni, hias, resi = players[:4]
    client.force_login(scorekeeper)

    response = client.post(
        reverse("evenings:book", args=[evening.pk]),
        entry(declarer=vroni.pk, partner=resi.pk, laufende="3"),
        headers=HTMX,
    )

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="live">')
    assert "Gebucht: 1. Sauspiel (Vroni)" in response.text
    assert '<td class="grand">0,40</td>' in response.text
    assert Game.objects.get().declarer == vroni
    assert LedgerEntry.objects.filter(player=vroni).get().amount == 40


def test_a_retried_booking_books_once_and_says_so(client, scorekeeper, evening, players):
    client.force_login(scorekeeper)
    data = entry(declarer=players[1].pk, partner=players[3].pk)
    client.post(reverse("evenings:book", args=[evening.pk]), data, headers=HTMX)

    again = client.post(reverse("evenings:book", args=[evening.pk]), data, headers=HTMX)

    assert "Schon gebucht: 1. Sauspiel (Vroni)" in again.text
    assert Game.objects.count() == 1


def test_a_missing_partner_is_asked_for_at_the_field_and_nothing_is_booked(
    client, scorekeeper, evening, players
):
    client.force_login(scorekeeper)

    response = client.post(
        reverse("evenings:book", args=[evening.pk]), entry(declarer=players[1].pk), headers=HTMX
    )

    assert response.status_code == 200
    assert 'id="id_partner_error"' in response.text
    assert not Game.objects.exists()


def test_the_engines_message_appears_at_the_field(client, scorekeeper, evening, players):
    client.force_login(scorekeeper)

    response = client.post(
        reverse("evenings:book", args=[evening.pk]),
        entry(declarer=players[1].pk, partner=players[1].pk),
        headers=HTMX,
    )

    assert 'id="id_partner_error"' in response.text
    assert not Game.objects.exists()


def test_the_preview_shows_what_each_player_gets(client, scorekeeper, evening, players):
    client.force_login(scorekeeper)

    response = client.post(
        reverse("evenings:preview", args=[evening.pk]),
        entry(spiel="farbsolo:herz", declarer=players[2].pk),
        headers=HTMX,
    )

    assert 'Hias <span class="amount">+1,50 €</span>' in response.text
    assert response.text.count("-0,50 €") == 3
    assert not Game.objects.exists()


def test_the_sheet_answers_not_modified_when_nothing_changed(client, scorekeeper, evening):
    client.force_login(scorekeeper)
    url = reverse("evenings:sheet", args=[evening.pk])

    assert client.get(url, {"v": evening.version}).status_code == 204
    assert client.get(url, {"v": evening.version - 1}).status_code == 200


def test_the_read_only_link_works_without_an_account_until_the_evening_closes(
    client, evening, admin
):
    url = reverse("evenings:live", args=[evening.share_token])
    assert client.get(url).status_code == 200

    from evenings import services

    services.close_evening(evening.pk, admin)

    assert client.get(url).status_code == 404


def test_a_revoked_read_only_link_stops_working(client, scorekeeper, evening):
    url = reverse("evenings:live", args=[evening.share_token])
    client.force_login(scorekeeper)

    client.post(reverse("evenings:share", args=[evening.pk]), {"revoke": "1"})

    client.logout()
    assert client.get(url).status_code == 404
    assert Change.objects.filter(kind="share").exists()


def test_an_expired_session_keeps_the_typed_game_on_screen(client, evening, players):
    response = client.post(
        reverse("evenings:book", args=[evening.pk]),
        entry(declarer=players[1].pk, partner=players[3].pk),
        headers=HTMX,
    )

    assert response.status_code == 200
    assert response["HX-Retarget"] == "#entry-status"
    assert "Anmeldung ist abgelaufen" in response.text
    assert not Game.objects.exists()


def test_settlement_lists_who_pays_whom_and_marks_a_payment(client, scorekeeper, evening, players):
    client.force_login(scorekeeper)
    client.post(
        reverse("evenings:book", args=[evening.pk]),
        entry(declarer=players[1].pk, partner=players[3].pk, laufende="3"),
    )

    page = client.get(reverse("evenings:settlement", args=[evening.pk]))
    assert "zahlt" in page.text
    client.post(
        reverse("evenings:payment", args=[evening.pk]),
        {"payer": players[0].pk, "payee": players[3].pk, "amount": 40},
    )

    entries = LedgerEntry.objects.filter(kind="payment")
    assert sorted(entries.values_list("amount", flat=True)) == [-40, 40]
    client.post(reverse("evenings:settlement", args=[evening.pk]))
    evening.refresh_from_db()
    assert not evening.is_open


def test_the_history_names_who_changed_what(client, scorekeeper, evening, players):
    sepp, vroni, hias, resi = players[:4]
    client.force_login(scorekeeper)
    client.post(
        reverse("evenings:book", args=[evening.pk]),
        entry(spiel="farbsolo:herz", declarer=hias.pk, laufende="3", kontra="1"),
    )
    game = Game.objects.get()
    client.post(
        reverse("evenings:game", args=[evening.pk, game.pk]),
        entry(declarer=vroni.pk, partner=resi.pk),
    )

    response = client.get(reverse("evenings:history", args=[evening.pk]))

    assert response.status_code == 200
    assert "Herz-Solo · Hias · gewonnen · 3 Laufende · Kontra" in response.text
    assert "→ Sauspiel · Vroni · mit Resi · gewonnen" in response.text
    assert response.text.count("Hias") >= 2  # the Schreiber who changed it is named too


def test_a_stale_form_whose_key_booked_another_game_is_replaced_by_a_fresh_one(
    client, scorekeeper, evening, players
):
    client.force_login(scorekeeper)
    key = uuid.uuid4()
    client.post(
        reverse("evenings:book", args=[evening.pk]),
        entry(key, declarer=players[1].pk, partner=players[3].pk),
        headers=HTMX,
    )

    # The answer was lost; the Schreiber typed the next game into the same form.
    response = client.post(
        reverse("evenings:book", args=[evening.pk]),
        entry(key, declarer=players[2].pk, partner=players[0].pk),
        headers=HTMX,
    )

    assert "schon ein anderes Spiel gebucht" in response.text
    assert f'value="{key}"' not in response.text  # a fresh form with a new key
    assert Game.objects.count() == 1


def test_polling_a_dead_read_only_link_says_so_and_stops(client, evening, admin):
    from evenings import services

    poll = reverse("evenings:live_sheet", args=[evening.share_token])
    assert client.get(poll, {"v": evening.version}).status_code == 204

    services.close_evening(evening.pk, admin)

    response = client.get(poll, {"v": evening.version})
    assert response.status_code == 286  # htmx stops polling on 286
    assert "gilt nicht mehr" in response.text
