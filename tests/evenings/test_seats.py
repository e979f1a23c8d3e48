"""Seating a money evening anew before its first game: another player, another order,
another first dealer, on the record; once a game is booked the table stays."""

import dataclasses
import io
import re
import uuid

import pytest
from django.core.management import call_command
from django.db.models import Sum
from django.urls import reverse
from django.utils import timezone

from clubs import services as club_services
from clubs.models import Departure, Membership
from clubs.templatetags.money import balance
from evenings import services
from evenings.models import Change, Evening, Game, LedgerEntry, Seat
from scoring import format_cents
from tests.conftest import make_user, page_text

HTMX = {"HX-Request": "true"}


def seating(players, first_dealer=0, v=None) -> dict:
    """The seating form as the page sends it."""
    data = {f"seat{i}": p.pk for i, p in enumerate(players)} | {"first_dealer": first_dealer}
    return data if v is None else data | {"v": v}


def seated(evening) -> list[str]:
    return [s.player.name for s in Seat.objects.filter(evening=evening).order_by("position")]


def sauspiel(evening):
    playing = services.next_deal(evening).playing
    return services.GameInput("sauspiel", declarer=playing[0].pk, partner=playing[2].pk)


def test_the_scorekeeper_seats_the_table_anew_before_the_first_game(
    client, scorekeeper, evening, players
):
    # Started with Sepp, Vroni, Hias, Resi and Sepp dealing; Wastl came instead of Vroni,
    # and Hias dealt first.
    client.force_login(scorekeeper)
    url = reverse("evenings:seats", args=[evening.pk])
    page = client.get(reverse("evenings:detail", args=[evening.pk])).text
    assert f'href="{url}">Sitzordnung ändern</a>' in page
    form = client.get(url).text
    assert f'<option value="{players[1].pk}" selected>Vroni</option>' in form
    assert 'name="v" value="0"' in form

    table = [players[0], players[4], players[2], players[3]]
    response = client.post(url, seating(table, first_dealer=2, v=0))

    assert response["Location"] == reverse("evenings:detail", args=[evening.pk])
    evening.refresh_from_db()
    assert seated(evening) == ["Sepp", "Wastl", "Hias", "Resi"]
    assert evening.first_dealer == 2
    assert evening.version == 1
    change = evening.changes.get(kind=Change.Kind.SEATS)
    assert change.before == {"players": [p.pk for p in players[:4]], "first_dealer": 0}
    assert change.after == {"players": [p.pk for p in table], "first_dealer": 2}
    assert change.by == scorekeeper and change.version == 1
    page = client.get(response["Location"]).text
    assert "Die Sitzordnung ist geändert." in page
    assert "<strong>Hias</strong> gibt." in page
    # The history says who sat where before, Vroni included, who sits there no more.
    history = client.get(reverse("evenings:history", args=[evening.pk])).text
    assert "Sitzordnung geändert" in history
    assert (
        "vorher: Sepp, Vroni, Hias, Resi, Sepp gibt zuerst – jetzt: Sepp, Wastl, Hias, Resi, "
        "Hias gibt zuerst"
    ) in history
    # The first game is dealt by Hias: Resi, Sepp, Wastl play it with him.
    deal = services.next_deal(Evening.objects.get(pk=evening.pk))
    assert [p.name for p in deal.playing] == ["Resi", "Sepp", "Wastl", "Hias"]


def test_a_fifth_player_joins_before_the_first_game(client, scorekeeper, evening, players):
    client.force_login(scorekeeper)

    client.post(
        reverse("evenings:seats", args=[evening.pk]), seating(players[:5], first_dealer=4, v=0)
    )

    page = client.get(reverse("evenings:detail", args=[evening.pk])).text
    assert "<strong>Wastl</strong> gibt und setzt aus." in page
    assert seated(evening) == ["Sepp", "Vroni", "Hias", "Resi", "Wastl"]


def test_who_was_seated_and_taken_off_before_the_first_game_stays_in_the_record(
    client, admin, evening, players
):
    """Walk 79: Wastl seated, taken off again, then deleted as a player who never
    played: the evening's history read "jetzt: Sepp, Vroni, Hias, Resi, ?"."""
    wastl = players[4]
    services.change_seats(evening.pk, players[:5], 4, admin)
    services.change_seats(evening.pk, players[:4], 0, admin)

    said = club_services.kept_because(wastl)

    assert said.startswith(
        "Löschen geht nicht: Wastl steht in der aufgezeichneten Sitzordnung eines Abends"
    )
    assert not club_services.delete_if_unused(wastl)
    client.force_login(admin)
    history = client.get(reverse("evenings:history", args=[evening.pk])).text
    assert "Sepp, Vroni, Hias, Resi, Wastl" in history
    assert club_services.kept_because(players[5]) == ""  # Kathi never sat


def test_the_same_table_again_changes_nothing(client, scorekeeper, evening, players):
    client.force_login(scorekeeper)

    response = client.post(
        reverse("evenings:seats", args=[evening.pk]), seating(players[:4], first_dealer=0, v=0)
    )

    assert response.status_code == 302
    evening.refresh_from_db()
    assert evening.version == 0
    assert not evening.changes.filter(kind=Change.Kind.SEATS).exists()


@pytest.mark.parametrize(
    "typo, field, message",
    [
        ({"seat1": "", "seat2": "", "seat3": ""}, "seat1", "mindestens 4 Spieler"),
        ({"seat3": "PLAYER0"}, "seat3", "Sepp sitzt schon auf Platz 1."),
        # An empty place before: the place is named as the form names it.
        ({"seat0": "", "seat4": "PLAYER0", "seat5": "PLAYER0"}, "seat5", "auf Platz 5."),
        ({"first_dealer": "5"}, "first_dealer", "Der erste Geber muss auf einem besetzten"),
    ],
)
def test_a_typo_is_said_at_its_field_and_changes_nothing(
    client, scorekeeper, evening, players, typo, field, message
):
    client.force_login(scorekeeper)
    data = seating(players[:4], v=0) | {
        name: str(players[0].pk) if value == "PLAYER0" else value for name, value in typo.items()
    }

    response = client.post(reverse("evenings:seats", args=[evening.pk]), data)

    assert response.status_code == 200
    assert message in response.text
    assert message in " ".join(response.context["form"].errors[field])
    assert seated(evening) == ["Sepp", "Vroni", "Hias", "Resi"]
    evening.refresh_from_db()
    assert evening.version == 0


def test_after_games_a_new_table_closes_the_evening_and_begins_a_new_one(
    client, scorekeeper, admin, runde, evening, players
):
    # Sepp dealt the first game; then Wastl came.
    game = services.book_game(evening.pk, uuid.uuid4(), sauspiel(evening), admin)[0]
    amounts = list(LedgerEntry.objects.filter(evening=evening).values_list("player", "amount"))
    client.force_login(scorekeeper)
    url = reverse("evenings:seats", args=[evening.pk])
    assert f'href="{url}">Sitzordnung ändern</a>' in (
        client.get(reverse("evenings:detail", args=[evening.pk])).text
    )
    form = client.get(url)
    assert "Am Abend ist schon gebucht. Kommt jemand dazu oder geht jemand" in form.text
    assert ">Abschließen und neu beginnen</button>" in form.text
    assert 'name="v" value="1"' in form.text
    # Vroni deals next, so she deals first at the new table.
    assert form.context["form"]["first_dealer"].value() == 1
    key = str(uuid.uuid4())
    same = client.post(url, seating(players[:4], first_dealer=1, v=1) | {"key": key})
    assert "und als Nächstes gibt, wer gewählt ist: nichts zu ändern." in same.text
    assert Evening.objects.count() == 1
    data = seating(players[:5], first_dealer=1, v=1) | {"key": key}

    response = client.post(url, data)

    new = Evening.objects.get(key=key)
    assert response["Location"] == reverse("evenings:detail", args=[new.pk])
    assert new.is_open and new.runde == runde and new.first_dealer == 1
    assert seated(new) == ["Sepp", "Vroni", "Hias", "Resi", "Wastl"]
    assert list(new.changes.values_list("kind", flat=True)) == [Change.Kind.START]
    evening.refresh_from_db()
    assert not evening.is_open and evening.changes.filter(kind=Change.Kind.CLOSE).exists()
    assert seated(evening) == ["Sepp", "Vroni", "Hias", "Resi"]
    assert list(evening.games.all()) == [game]
    assert (
        list(LedgerEntry.objects.filter(evening=evening).values_list("player", "amount")) == amounts
    )
    page = client.get(response["Location"]).text
    assert "Neuer Tisch: hier geht der Abend weiter. Der Tisch bis hierher ist abgeschlossen" in (
        page
    )
    assert "<strong>Vroni</strong> gibt und setzt aus." in page
    assert new.continues_id == evening.pk and new.changes.get().after["continues"] == evening.pk
    # The evening's page, and its poll on a following phone, lead on to the new one.
    onward = f'<a href="{response["Location"]}">Weiter am neuen Tisch</a>'
    assert onward in client.get(reverse("evenings:detail", args=[evening.pk])).text
    poll = client.get(reverse("evenings:sheet", args=[evening.pk]), {"v": "1"}, headers=HTMX)
    assert onward in poll.text
    # A phone with a game half entered loads the closed evening, told where to enter it.
    with_form = reverse("evenings:sheet", args=[evening.pk])
    assert client.get(with_form, {"v": "1", "deal": "2-2"}, headers=HTMX)["HX-Refresh"] == "true"
    page = client.get(reverse("evenings:detail", args=[evening.pk])).text
    assert "Neuer Tisch: der Abend bis hierher ist abgeschlossen. Das Spiel bitte am" in page
    assert onward in page
    # Its Abrechnung gives its start time, and leads on to the new table's.
    settlement = client.get(reverse("evenings:settlement", args=[evening.pk])).text
    started = timezone.localtime(evening.started_at).strftime("%d.%m.%Y · %H:%M")
    assert started in settlement
    next_time = timezone.localtime(new.started_at).strftime("%H:%M")
    assert (
        f'<a href="{reverse("evenings:settlement", args=[new.pk])}">weiter am neuen Tisch '
        f"(ab {next_time})</a>" in settlement
    )
    # Sent again (a double tap, a retry): the same new evening, nothing more.
    assert client.post(url, data)["Location"] == response["Location"]
    assert Evening.objects.count() == 2


def test_a_newcomer_added_in_the_chair_of_the_one_due_to_deal_deals(
    client, scorekeeper, admin, evening, players
):
    """Walk 76: the one due to deal went home, their chair emptied (the chip went on to
    the next), then "Neu am Tisch" seated Paul there: the chip stayed, and Paul was
    skipped. The deal goes by the chair."""
    services.book_game(evening.pk, uuid.uuid4(), sauspiel(evening), admin)
    due = services.next_deal(evening).dealer
    chair = next(seat.position for seat in evening.seats.all() if seat.player_id == due.pk)
    client.force_login(scorekeeper)
    sent = {f"seat{seat.position}": seat.player_id for seat in evening.seats.all()}
    del sent[f"seat{chair}"]

    answer = client.post(
        reverse("evenings:seats", args=[evening.pk]),
        sent | {"first_dealer": (chair + 1) % 4, "v": "1", "neu-name": "Paul", "add_player": "1"},
    )

    form = answer.context["form"]
    paul = evening.runde.club.players.get(name="Paul")
    assert form.initial[f"seat{chair}"] == paul.pk
    assert form.initial["first_dealer"] == chair


def test_a_running_bock_round_goes_on_at_the_new_table(
    client, scorekeeper, admin, tariff_with_bock, runde, players
):
    """ "Eine Bockrunde gilt nur für den laufenden Abend": someone sitting down at half
    past nine does not end the evening, nor its Bockrunde (walks 84 to 86 expected it to
    go on; it lapsed)."""
    evening = services.start_evening(runde, players[:4], 0, admin)
    client.force_login(scorekeeper)
    url = reverse("evenings:seats", args=[evening.pk])
    services.book_game(evening.pk, uuid.uuid4(), sauspiel(evening), admin)
    assert "Bock" not in client.get(url).text
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "ramsch", won=False, loser=players[1].pk), admin)  # fmt: skip
    services.book_game(evening.pk, uuid.uuid4(), sauspiel(evening), admin)

    form = client.get(url).text

    assert "Noch 3 Bockspiele sind offen: sie gelten am neuen Tisch weiter." in form
    # Who deals next, by the chair (walk 75: not said, and a newcomer there skipped).
    assert (
        f"Als Nächstes gibt {players[3].name} (Platz 4). Geht {players[3].name}, gibt, wer dann "
        "auf Platz 4 sitzt."
    ) in form
    evening.refresh_from_db()
    moved = client.post(url, seating(players[:5], v=evening.version) | {
        "key": str(uuid.uuid4())}, follow=True).text  # fmt: skip
    new = Evening.objects.get(continues=evening)
    assert new.games.count() == 0
    assert "Die 3 offenen Bockspiele gelten hier weiter." in moved
    assert "Noch 3 Bockspiele" in client.get(reverse("evenings:detail", args=[new.pk])).text
    booked = [services.book_game(new.pk, uuid.uuid4(), sauspiel(new), admin)[0] for _ in range(4)]
    assert [game.bock for game in booked] == [True, True, True, False]
    won = [
        set(LedgerEntry.objects.filter(game=g, amount__gt=0).values_list("amount", flat=True))
        for g in booked
    ]
    base = tariff_with_bock.sauspiel
    assert won == [{2 * base}, {2 * base}, {2 * base}, {base}]
    assert "bock-banner" not in client.get(reverse("evenings:detail", args=[new.pk])).text
    assert verified() == "ledger ok: 2 evenings, 7 games\n"
    # The printed Block says why its first games are Bock games (walk 89).
    printed = client.get(reverse("evenings:print", args=[new.pk])).text
    assert "Weiter vom Tisch davor, mit 3 Bockspielen von dort." in printed
    assert "Weiter vom Tisch davor" not in client.get(
        reverse("evenings:print", args=[evening.pk])).text  # fmt: skip


def verified() -> str:
    out = io.StringIO()
    call_command("verify_ledger", stdout=out)
    return out.getvalue()


def test_a_correction_at_the_table_before_moves_the_bock_of_the_new_one_on_the_record(
    client, scorekeeper, admin, tariff_with_bock, runde, players
):
    evening = services.start_evening(runde, players[:4], 0, admin)
    services.book_game(evening.pk, uuid.uuid4(), sauspiel(evening), admin)
    ramsch, _ = services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "ramsch", won=False, loser=players[1].pk), admin)  # fmt: skip
    new = services.continue_at_new_table(evening.pk, players[:5], 0, admin, key=uuid.uuid4())
    first, _ = services.book_game(new.pk, uuid.uuid4(), sauspiel(new), admin)
    second, _ = services.book_game(new.pk, uuid.uuid4(), sauspiel(new), admin)
    assert first.bock and second.bock
    version = Evening.objects.get(pk=new.pk).version

    # It was no Ramsch: a Sauspiel, which triggers nothing.
    services.reopen_evening(evening.pk, admin)
    playing = ramsch.seating
    corrected = services.GameInput("sauspiel", declarer=playing[0], partner=playing[2])
    services.correct_game(evening.pk, ramsch.pk, corrected, admin)

    new.refresh_from_db()
    assert new.version == version + 1
    assert list(new.games.booked().values_list("bock", flat=True)) == [False, False]
    moved = new.changes.get(kind=Change.Kind.BOCK)
    correction = evening.changes.get(kind=Change.Kind.CORRECT)
    assert moved.before == {
        "evening": evening.pk,
        "started": evening.started_at.isoformat(),
        "change": correction.pk,
        "kind": "correct",
        "game": 2,
    }
    assert moved.after == {"games": [1, 2], "now_bock": [], "bock": 0}
    base = tariff_with_bock.sauspiel
    for game in (first, second):
        # Booked doubled, reversed, booked single: appended, nothing overwritten.
        won = LedgerEntry.objects.filter(game=game, player_id=game.seating[0])
        assert list(won.order_by("pk").values_list("amount", flat=True)) == [
            2 * base, -2 * base, base]  # fmt: skip
    assert verified() == "ledger ok: 2 evenings, 4 games\n"
    client.force_login(scorekeeper)
    history = client.get(reverse("evenings:history", args=[new.pk])).text
    began = f"{timezone.localtime(evening.started_at):%H:%M}"
    assert "Bock neu gezählt" in history
    assert f"Spiel 2 korrigiert am Tisch ab {began}: Spiele 1, 2 keine Bockspiele mehr" in history
    assert "Dazu neu gewertet" not in history  # the line above says it
    # The old table's history says where its correction moved the Bock, and so does the
    # new table's Abrechnung, where someone has paid already.
    then = f"{timezone.localtime(new.started_at):%H:%M}"
    old_history = client.get(reverse("evenings:history", args=[evening.pk])).text
    assert f"Dazu am Tisch ab {then}: Spiele 1, 2 keine Bockspiele mehr." in old_history
    assert "Weiter an einem neuen Tisch, mit 4 Bockspielen vom Tisch davor" in history

    # Taken back, the Ramsch triggers again, and so on.
    balances = services.balances(new)
    payer, payee = min(balances, key=balances.get), max(balances, key=balances.get)
    services.record_payment(new.pk, payer, payee, 10, admin)
    services.undo_correction(evening.pk, correction.pk, admin)
    assert list(new.games.booked().values_list("bock", flat=True)) == [True, True]
    assert new.changes.filter(kind=Change.Kind.BOCK).count() == 2
    settlement = client.get(reverse("evenings:settlement", args=[new.pk])).text
    assert (
        f"Nach der ersten Zahlung geändert: Bock neu gezählt (Korrektur von Spiel 2 "
        f"zurückgenommen am Tisch ab {began})." in settlement
    )
    assert verified() == "ledger ok: 2 evenings, 4 games\n"


def ramsch_then_new_table(runde, players, admin):
    """An evening of four whose only game is Vroni's lost Ramsch, gone on at a new table of
    five: it begins with 4 Bock games. The evening, the Ramsch and the new table."""
    evening = services.start_evening(runde, players[:4], 0, admin)
    ramsch, _ = services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "ramsch", won=False, loser=players[1].pk), admin)  # fmt: skip
    return evening, ramsch, services.continue_at_new_table(evening.pk, players[:5], 0, admin)


def test_a_short_table_hands_the_bock_on_to_the_one_after_it(
    client, scorekeeper, admin, tariff_with_bock, runde, players
):
    evening, ramsch, second = ramsch_then_new_table(runde, players, admin)
    services.book_game(second.pk, uuid.uuid4(), sauspiel(second), admin)
    third = services.continue_at_new_table(second.pk, players[1:5], 0, admin)
    games = [
        services.book_game(third.pk, uuid.uuid4(), sauspiel(third), admin)[0] for _ in range(3)
    ]
    assert [g.bock for g in games] == [True, True, True]  # the 2nd, 3rd and 4th after it

    services.reopen_evening(evening.pk, admin)
    client.force_login(scorekeeper)
    panel = page_text(
        client.get(reverse("evenings:game", args=[evening.pk, ramsch.pk]), headers=HTMX)
    )
    strike = panel[panel.index('class="void-form"') :]
    services.void_game(evening.pk, ramsch.pk, admin)

    # Its strike's preview named the games of both tables after it.
    for table, numbers in [(second, [1]), (third, [1, 2, 3])]:
        began = f"{timezone.localtime(table.started_at):%H:%M}"
        for n in numbers:
            assert f"Tisch ab {began}, Spiel {n}: 0,10 € statt 0,20 € (kein Bockspiel mehr)" in (
                strike
            )
    assert not Game.objects.filter(evening__in=[second, third], bock=True).exists()
    assert second.changes.filter(kind=Change.Kind.BOCK).count() == 1
    assert third.changes.get(kind=Change.Kind.BOCK).after == {
        "games": [1, 2, 3], "now_bock": [], "bock": 0}  # fmt: skip
    assert verified() == "ledger ok: 3 evenings, 4 games\n"


def test_the_old_table_s_correction_panel_says_what_it_changes_at_the_new_one(
    client, scorekeeper, admin, tariff_with_bock, runde, players
):
    evening, ramsch, new = ramsch_then_new_table(runde, players, admin)
    services.book_game(new.pk, uuid.uuid4(), sauspiel(new), admin)
    services.reopen_evening(evening.pk, admin)
    client.force_login(scorekeeper)
    url = reverse("evenings:game", args=[evening.pk, ramsch.pk])

    panel = page_text(client.get(url, headers=HTMX))

    strike = panel[panel.index('class="void-form"') :]
    began = f"{timezone.localtime(new.started_at):%H:%M}"
    assert f"Tisch ab {began}, Spiel 1: 0,10 € statt 0,20 € (kein Bockspiel mehr)" in strike
    assert "Danach gibt" not in strike  # no game is dealt here again (walk 90)
    services.void_game(evening.pk, ramsch.pk, admin)
    restore = page_text(client.get(url, headers=HTMX))
    assert "Mit diesem Spiel:" in restore
    assert f"Tisch ab {began}, Spiel 1: 0,20 € statt 0,10 € (wird Bockspiel)" in restore
    services.restore_game(evening.pk, ramsch.pk, admin, effects=services.restore_shown(
        services.restore_effects(evening, evening.games.get(pk=ramsch.pk))))  # fmt: skip
    assert new.games.get().bock


def test_the_old_table_s_previews_name_the_bock_still_open_at_the_new_one(
    client, scorekeeper, admin, tariff_with_bock, runde, players
):
    """Walk 91: a strike at the old table that only changed how many Bock games the new
    table still has open (none of its games booked yet) said nothing of it."""
    evening, ramsch, new = ramsch_then_new_table(runde, players, admin)
    services.book_game(new.pk, uuid.uuid4(), sauspiel(new), admin)
    services.reopen_evening(evening.pk, admin)
    client.force_login(scorekeeper)
    url = reverse("evenings:game", args=[evening.pk, ramsch.pk])
    began = f"{timezone.localtime(new.started_at):%H:%M}"

    strike = page_text(client.get(url, headers=HTMX))
    strike = strike[strike.index('class="void-form"') :]
    services.void_game(evening.pk, ramsch.pk, admin)
    restore = page_text(client.get(url, headers=HTMX))

    assert f"Tisch ab {began}: kein Bockspiel mehr offen (bisher 3)" in strike
    assert f"Tisch ab {began}: noch 3 Bockspiele offen (bisher 0)" in restore
    assert services.carried_bock(new) == 0
    # Closed, the new table has nothing open to speak of: only its booked game is named.
    services.close_evening(new.pk, admin)
    restore = page_text(client.get(url, headers=HTMX))
    assert f"Tisch ab {began}, Spiel 1: 0,20 € statt 0,10 € (wird Bockspiel)" in restore
    assert "offen (bisher" not in restore


def test_a_new_table_without_games_yet_shows_the_bock_it_begins_with_anew(
    client, scorekeeper, admin, tariff_with_bock, runde, players
):
    """Nothing of its own is rescored, but its phones show "Noch 4 Bockspiele": the
    change is recorded there, a new version that they follow."""
    evening, ramsch, new = ramsch_then_new_table(runde, players, admin)
    client.force_login(scorekeeper)
    page = reverse("evenings:detail", args=[new.pk])
    assert "Noch 4 Bockspiele" in client.get(page).text
    assert new.changes.get(kind=Change.Kind.START).after["bock"] == 4

    services.reopen_evening(evening.pk, admin)
    playing = ramsch.seating
    services.correct_game(evening.pk, ramsch.pk, services.GameInput(
        "sauspiel", declarer=playing[0], partner=playing[2]), admin)  # fmt: skip

    assert "bock-banner" not in client.get(page).text
    moved = Evening.objects.get(pk=new.pk).changes.get(kind=Change.Kind.BOCK)
    assert moved.version == 1 and moved.after == {"games": [], "now_bock": [], "bock": 0}
    history = client.get(reverse("evenings:history", args=[new.pk])).text
    assert "Spiel 1 korrigiert am Tisch ab" in history
    assert ": dieser Tisch beginnt jetzt ohne Bockspiel" in history
    # Corrected once more without moving the Bock: nothing more to record there.
    services.correct_game(evening.pk, ramsch.pk, services.GameInput(
        "sauspiel", declarer=playing[0], partner=playing[2], laufende=3), admin)  # fmt: skip
    assert Evening.objects.get(pk=new.pk).changes.filter(kind=Change.Kind.BOCK).count() == 1
    assert verified() == "ledger ok: 2 evenings, 1 games\n"


def test_a_newer_tariff_at_the_old_table_ends_the_bock_it_handed_on(
    client, scorekeeper, admin, tariff_with_bock, runde, players, set_tariff
):
    """Walk 90: the old table, opened again, took the Runde's newer tariff; the new table,
    on the old one, kept its first game booked as a Bock game."""
    evening, ramsch, new = ramsch_then_new_table(runde, players, admin)
    first, _ = services.book_game(new.pk, uuid.uuid4(), sauspiel(new), admin)
    assert first.bock
    newer = set_tariff(runde, sauspiel=tariff_with_bock.sauspiel + 10)
    services.reopen_evening(evening.pk, admin)

    services.apply_tariff(evening.pk, newer.pk, admin)

    first.refresh_from_db()
    assert not first.bock
    assert services.standing(new)[first.seating[0]] == tariff_with_bock.sauspiel
    moved = new.changes.get(kind=Change.Kind.BOCK)
    assert moved.before["kind"] == "tariff" and moved.after["games"] == [1]
    client.force_login(scorekeeper)
    history = page_text(client.get(reverse("evenings:history", args=[new.pk])))
    assert "Neuer Tarif für den Abend am Tisch ab" in history
    assert verified() == "ledger ok: 2 evenings, 2 games\n"
    # The new table given the same tariff, the Bock goes on again: its tariff page says so,
    # and shows the amounts the switch then books (walk 91: scored without the Bock).
    client.force_login(admin)
    page = page_text(client.get(reverse("evenings:tariff", args=[new.pk])))
    assert (
        "Der Tisch davor spielt schon mit dem neuen Tarif: mit ihm gelten hier 4 Bockspiele "
        "von dort." in page
    )
    rows = re.findall(r'<th scope="row">(.*?)</th><td[^>]*>.*?</td><td[^>]*>(.*?)</td>', page)
    shown = {re.sub("<[^>]+>", "", name): after for name, after in rows}
    services.apply_tariff(new.pk, newer.pk, admin)
    first.refresh_from_db()
    assert first.bock
    names = {p.pk: p.name for p in players}
    assert shown == {names[pk]: balance(cents) for pk, cents in services.standing(new).items()}
    assert verified() == "ledger ok: 2 evenings, 2 games\n"


def test_a_table_begun_before_the_bock_went_on_to_a_new_table_stays_scored_without(
    admin, tariff_with_bock, runde, players
):
    """A new table of an older night (carries_bock false, as the migration left those)
    was booked without the Bock of the one before; its ledger and verify_ledger agree."""
    evening, ramsch, new = ramsch_then_new_table(runde, players, admin)
    Evening.objects.filter(pk=new.pk).update(carries_bock=False)
    new.refresh_from_db()

    first, _ = services.book_game(new.pk, uuid.uuid4(), sauspiel(new), admin)

    assert not first.bock
    assert verified() == "ledger ok: 2 evenings, 2 games\n"


def test_a_new_table_that_plays_the_runde_s_newer_tariff_plays_no_bock_of_the_old(
    client, admin, tariff_with_bock, runde, players, set_tariff
):
    """As a new evening would: a game triggers under the rules it was played with."""
    evening, ramsch, new = ramsch_then_new_table(runde, players, admin)
    first, _ = services.book_game(new.pk, uuid.uuid4(), sauspiel(new), admin)
    assert first.bock
    newer = set_tariff(runde, sauspiel=tariff_with_bock.sauspiel + 10)
    client.force_login(admin)
    page = page_text(client.get(reverse("evenings:tariff", args=[new.pk])))
    assert (
        "Vom Tisch davor gingen 4 Bockspiele an diesen Tisch weiter. Mit dem neuen Tarif "
        "zählen sie hier nicht mehr" in page
    )

    services.apply_tariff(new.pk, newer.pk, admin)

    first.refresh_from_db()
    assert not first.bock
    # A correction at the old table leaves it alone: nothing to record there.
    services.reopen_evening(evening.pk, admin)
    old_tariff = page_text(client.get(reverse("evenings:tariff", args=[evening.pk])))
    assert "Der Abend ging an einem neuen Tisch weiter, der schon mit dem neuen Tarif spielt" in (
        old_tariff
    )
    ramsch = evening.games.get()
    services.correct_game(evening.pk, ramsch.pk, services.GameInput(
        "ramsch", won=False, loser=players[2].pk), admin)  # fmt: skip
    assert not new.changes.filter(kind=Change.Kind.BOCK).exists()
    assert services.standing(new)[first.seating[0]] == newer.sauspiel
    assert new.changes.get(kind=Change.Kind.TARIFF).after["carried_dropped"] == 4
    history = page_text(client.get(reverse("evenings:history", args=[new.pk])))
    assert "alle Spiele neu gewertet; die 4 Bockspiele vom Tisch davor zählen hier nicht mehr" in (
        history
    )
    assert verified() == "ledger ok: 2 evenings, 2 games\n"


def test_a_member_following_without_a_form_goes_on_to_the_new_table(
    client, admin, club, evening, players
):
    """As the spectator's link does (walk 27: a Spieler's phone stayed on the closed
    evening until "Weiter am neuen Tisch" was tapped)."""
    vroni = make_user("vroni", "Vroni")
    Membership.objects.create(user=vroni, club=club, role=Membership.Role.PLAYER)
    services.book_game(evening.pk, uuid.uuid4(), sauspiel(evening), admin)
    evening.refresh_from_db()
    client.force_login(vroni)
    poll = reverse("evenings:sheet", args=[evening.pk])
    looking = {"v": evening.version, "looks": "1"}
    assert client.get(poll, looking, headers=HTMX).status_code == 204

    new = services.continue_at_new_table(evening.pk, players[:5], 1, admin, seen=1)
    answer = client.get(poll, looking, headers=HTMX)

    assert answer["HX-Redirect"] == reverse("evenings:detail", args=[new.pk])
    page = client.get(answer["HX-Redirect"]).text
    assert "Neuer Tisch: das Blatt folgt dem Abend an den neuen Tisch." in page


def test_each_table_s_abrechnung_says_the_night_is_settled_at_the_runde(
    client, admin, evening, players
):
    """Walk 84: paid at the last table's Abrechnung ("Kare zahlt Sepp 3,50 €") though over
    the night Kare was +1,30 €; only a grey line said it was that table's alone."""
    client.force_login(admin)
    accounts = reverse("evenings:runde_balances", args=[evening.runde.club_id, evening.runde_id])
    services.book_game(evening.pk, uuid.uuid4(), sauspiel(evening), admin)
    alone = client.get(reverse("evenings:settlement", args=[evening.pk])).text
    assert "Nur dieser Tisch" not in alone and "Für diesen Abend." in alone

    new = services.continue_at_new_table(evening.pk, players[:5], 1, admin, seen=1)

    for table in (evening, new):
        page = client.get(reverse("evenings:settlement", args=[table.pk])).text
        assert "Nur dieser Tisch: an diesem Abend wurde an mehreren Tischen gespielt" in page
        assert f'<a href="{accounts}">Konten der Runde</a>' in page
        assert "Für diesen Abend." not in page
        # Before the balances, and each table's title says when it began (walk 88).
        assert page.index("Nur dieser Tisch") < page.index("Kontostand des Abends")
        began = timezone.localtime(table.started_at).strftime("%d.%m.%Y %H:%M")
        assert f"<title>Abrechnung · {table.runde.name} {began} · " in page
    # Opened again for a correction, the old table's Abrechnung is still its own (walk 90).
    services.reopen_evening(evening.pk, admin)
    page = client.get(reverse("evenings:settlement", args=[evening.pk])).text
    assert "Nur dieser Tisch: an diesem Abend wurde an mehreren Tischen gespielt" in page
    assert "Für diesen Abend." not in page
    new_table = reverse("evenings:settlement", args=[new.pk])
    # A way on, not part of the title on paper (walk 92).
    assert f'<span class="no-print"> · <a href="{new_table}">weiter am neuen Tisch (ab ' in page


def test_a_new_table_says_what_each_stood_at_before_it_and_the_abrechnung_the_night(
    client, admin, evening, players
):
    """Walk 92: at the new table every standing read 0,00 (Franz had been +6,50 €), and
    each table's Abrechnung showed its own balances only."""
    client.force_login(admin)
    services.book_game(evening.pk, uuid.uuid4(), sauspiel(evening), admin)
    plain = client.get(reverse("evenings:settlement", args=[evening.pk])).text
    new = services.continue_at_new_table(evening.pk, players[:5], 1, admin, seen=1)
    services.book_game(new.pk, uuid.uuid4(), sauspiel(new), admin)
    sepp, wastl = players[0], players[4]
    services.record_payment(new.pk, sepp.pk, players[2].pk, 10, admin)

    first = page_text(client.get(reverse("evenings:detail", args=[evening.pk])))
    second = page_text(client.get(reverse("evenings:detail", args=[new.pk])))

    before = services.standing(evening)
    began = f"{timezone.localtime(new.started_at):%H:%M}"
    said = "&nbsp;· ".join(
        f'{p.name}&nbsp;<span class="amount">{balance(before[p.pk])}</span>'
        for p in players[:4]  # as they sit at the new table (Wastl won nothing before it)
    )
    assert (
        f"Vorher am Abend, bis zu diesem Tisch ({began}), aus den Spielen ohne Zahlungen: "
        f"{said}. Die Konten"
    ) in second
    assert "Vorher am Abend" not in first
    old_night, new_night = (
        page_text(client.get(reverse("evenings:settlement", args=[table.pk])))
        for table in (evening, new)
    )
    night = {pid: services.balances(evening).get(pid, 0) + cents
             for pid, cents in services.balances(new).items()}  # fmt: skip
    assert sum(night.values()) == 0 and night[wastl.pk] != 0  # won at the new table
    # In seating order, and who did not sit at a table after those who did (Wastl).
    shown = "&nbsp;· ".join(
        f'{p.name}&nbsp;<span class="amount">{balance(night[p.pk])}</span>'
        for p in players[:5]
        if night[p.pk]
    )
    for page in (old_night, new_night):
        assert f"Über den ganzen Abend, alle Tische mit Zahlungen: {shown}</p>" in page
    assert "Über den ganzen Abend" not in plain
    # The lists of evenings tell the new table from another evening (walk 92).
    club, runde = evening.runde.club, evening.runde
    lists = [
        client.get(reverse("clubs:runde", args=[club.pk, runde.pk])).text,
        client.get(reverse("clubs:player_home", args=[club.pk, sepp.pk])).text,
    ]
    for listed in lists:
        assert listed.count("neuer Tisch am selben Abend") == 1
        began = timezone.localtime(new.started_at).strftime("%d.%m.%Y · %H:%M")
        assert re.search(rf"{began}[^<]*(<span[^>]*>)?[^<]*· neuer Tisch am selben Abend", listed)


def test_the_table_s_spectator_link_goes_on_with_it_to_the_new_evening(
    client, admin, evening, players
):
    token = evening.share_token
    services.book_game(evening.pk, uuid.uuid4(), sauspiel(evening), admin)
    evening.refresh_from_db()
    poll = reverse("evenings:live_sheet", args=[token])
    page = client.get(reverse("evenings:live", args=[token])).text
    assert f"{poll}?e={evening.pk}&amp;v={evening.version}" in page  # what the page polls
    shown = {"e": evening.pk, "v": evening.version}
    assert client.get(poll, shown, headers=HTMX).status_code == 204

    new = services.continue_at_new_table(evening.pk, players[:5], 1, admin, seen=1)

    # The QR code on the table shows the new table now, from the first poll on.
    assert client.get(poll, shown, headers=HTMX)["HX-Refresh"] == "true"
    page = client.get(reverse("evenings:live", args=[token]))
    assert page.context["evening"] == new
    assert [p.name for p in page.context["sheet"].players] == [p.name for p in players[:5]]
    assert f"{poll}?e={new.pk}&amp;v={new.version}" in page.text
    assert client.get(poll, {"e": new.pk, "v": new.version}, headers=HTMX).status_code == 204
    # The new table's pages lead back to the one before (walk 27: they did not).
    admin_view = client.__class__()
    admin_view.force_login(admin)
    detail = admin_view.get(reverse("evenings:detail", args=[new.pk])).text
    assert f'href="{reverse("evenings:detail", args=[evening.pk])}">Der Tisch davor</a>' in detail
    settled = admin_view.get(reverse("evenings:settlement", args=[new.pk])).text
    back = reverse("evenings:settlement", args=[evening.pk])
    assert f'href="{back}">Abrechnung des Tisches davor</a>' in settled
    # The sheet starts again at 0,00 with a word on how the table before ended.
    began = timezone.localtime(new.started_at).strftime("%H:%M")
    ended = " · ".join(
        f"<bdi>{p.name}</bdi> {format_cents(cents)}"
        for p, cents in zip(players[:4], services.standing(evening).values(), strict=True)
    )
    assert f"Neuer Tisch seit {began}. Der Abend davor endete so: {ended}</p>" in page.text
    evening.refresh_from_db()
    new.refresh_from_db()
    assert (evening.share_token, new.share_token) == (None, token)
    moved = evening.changes.get(kind=Change.Kind.SHARE)
    assert moved.after == {"revoked": True, "moved_to": new.pk} and moved.by == admin
    admin_client = client.__class__()
    admin_client.force_login(admin)
    history = admin_client.get(reverse("evenings:history", args=[evening.pk])).text
    assert "Der Link zeigt jetzt den neuen Tisch." in history
    # Its "Abend abgeschlossen" says why; the new evening's history has no such line.
    began = timezone.localtime(new.started_at).strftime("%H:%M")
    assert (
        "<strong>Abend abgeschlossen</strong></div><div>Die Sitzordnung hat sich geändert: "
        f"der Abend geht an einem neuen Tisch weiter (seit {began}). Dazugekommen: "
        f"{players[4].name}.</div>"
    ) in history
    services.close_evening(new.pk, admin)
    later = admin_client.get(reverse("evenings:history", args=[new.pk])).text
    assert "Abend abgeschlossen" in later and "Sitzordnung hat sich geändert" not in later
    # Opened again and closed (after a correction, say): the word stays with the close the
    # new table came from, not the admin's (walk 27).
    services.reopen_evening(evening.pk, admin)
    services.close_evening(evening.pk, admin)
    history = admin_client.get(reverse("evenings:history", args=[evening.pk])).text
    closes = history.split("<strong>Abend abgeschlossen</strong>")[1:]
    assert len(closes) == 2
    assert "Sitzordnung hat sich geändert" in closes[0].split("</li>")[0]
    assert "Sitzordnung hat sich geändert" not in closes[1].split("</li>")[0]


def test_a_revoked_link_stays_revoked_and_the_new_table_gets_a_link_of_its_own(
    admin, evening, players
):
    services.book_game(evening.pk, uuid.uuid4(), sauspiel(evening), admin)
    services.renew_share_link(evening.pk, admin, revoke=True)

    new = services.continue_at_new_table(evening.pk, players[:5], 1, admin)

    new.refresh_from_db()
    assert new.share_token and Evening.objects.filter(share_token=None).get() == evening
    assert not new.changes.filter(kind=Change.Kind.SHARE).exists()


def test_a_closed_evening_s_seating_form_leads_back_to_it(client, scorekeeper, admin, evening):
    services.close_evening(evening.pk, admin)
    client.force_login(scorekeeper)

    response = client.get(reverse("evenings:seats", args=[evening.pk]))

    assert response["Location"] == reverse("evenings:detail", args=[evening.pk])
    assert "Der Abend ist abgeschlossen." in client.get(response["Location"]).text


def test_a_second_phone_s_older_form_is_not_saved_over_the_first(
    client, scorekeeper, admin, evening, players
):
    # Both phones opened the form at version 0; the admin's phone saved first.
    services.change_seats(evening.pk, [players[4], *players[1:4]], 0, admin, seen=0)
    client.force_login(scorekeeper)
    url = reverse("evenings:seats", args=[evening.pk])

    response = client.post(url, seating(players[:4], first_dealer=3, v=0))

    assert response["Location"] == url
    assert seated(evening) == ["Wastl", "Vroni", "Hias", "Resi"]
    form = client.get(url).text
    assert "Inzwischen hat sich am Abend etwas geändert: so steht er jetzt." in form
    assert f'<option value="{players[4].pk}" selected>Wastl</option>' in form
    assert 'name="v" value="1"' in form


def test_a_game_booked_meanwhile_makes_the_form_one_for_a_new_table(
    client, scorekeeper, admin, evening, players
):
    client.force_login(scorekeeper)
    url = reverse("evenings:seats", args=[evening.pk])
    assert 'name="v" value="0"' in client.get(url).text
    services.book_game(evening.pk, uuid.uuid4(), sauspiel(evening), admin)  # another phone

    response = client.post(url, seating(players[1:5], v=0) | {"key": str(uuid.uuid4())})

    assert response["Location"] == url
    assert Evening.objects.count() == 1 and Evening.objects.get().is_open
    assert seated(evening) == ["Sepp", "Vroni", "Hias", "Resi"]
    form = client.get(url).text
    assert "Inzwischen hat sich am Abend etwas geändert: so steht er jetzt." in form
    assert ">Abschließen und neu beginnen</button>" in form


def test_a_following_phone_loads_the_table_as_it_sits_now(
    client, scorekeeper, admin, evening, players
):
    client.force_login(scorekeeper)
    poll = reverse("evenings:sheet", args=[evening.pk])
    assert client.get(poll, {"v": "0"}, headers=HTMX).status_code == 204

    services.change_seats(evening.pk, players[1:5], 0, admin)

    assert client.get(poll, {"v": "0"}, headers=HTMX)["HX-Refresh"] == "true"
    assert client.get(poll, {"v": "1"}, headers=HTMX).status_code == 204
    page = client.get(reverse("evenings:detail", args=[evening.pk])).text
    assert "Sitzordnung wurde inzwischen geändert" not in page  # it has no form to redo
    # A spectator's link loads again too.
    live = reverse("evenings:live_sheet", args=[evening.share_token])
    assert client.get(live, {"v": "0"}, headers=HTMX)["HX-Refresh"] == "true"
    # A phone with an entry form is told why its choices went.
    with_form = client.get(poll, {"v": "0", "deal": "1-1"}, headers=HTMX)
    assert with_form["HX-Refresh"] == "true"
    page = client.get(reverse("evenings:detail", args=[evening.pk])).text
    assert "Die Sitzordnung wurde inzwischen geändert: bitte das Spiel neu eingeben." in page


def test_a_booking_after_the_change_plays_at_the_new_table(admin, evening, players):
    # The booking read the evening, its seats and its state, as the view does, before the
    # table was seated anew with Vroni dealing first; its write finds the evening moved
    # on, reads it again, seats and first dealer included, and books at the new table.
    before = Evening.objects.get(pk=evening.pk)
    services.seats_of(before)
    before.state = services.state_of(evening.pk, services.BOCK_GAMES)
    services.change_seats(evening.pk, [players[4], *players[1:4]], 1, admin)
    data = services.GameInput("sauspiel", declarer=players[1].pk, partner=players[3].pk)

    booking = services.book(evening.pk, uuid.uuid4(), data, admin, evening=before)

    assert booking.game.dealer == players[1]
    assert booking.game.seating == [p.pk for p in [players[2], players[3], players[4], players[1]]]
    assert sorted(booking.game.seating) == sorted(p.pk for p in [players[4], *players[1:4]])
    paid = LedgerEntry.objects.filter(game=booking.game).values_list("player_id", flat=True)
    assert sorted(paid) == sorted(p.pk for p in [players[4], *players[1:4]])


@pytest.mark.parametrize("role", ["player", "outsider"])
def test_only_the_club_s_scorekeepers_seat_the_table(client, club, evening, players, role):
    user = make_user(role, role.title())
    if role == "player":
        Membership.objects.create(user=user, club=club, role=Membership.Role.PLAYER)
    client.force_login(user)
    url = reverse("evenings:seats", args=[evening.pk])

    assert client.get(url).status_code == 404
    assert client.post(url, seating(players[1:5], v=0)).status_code == 404
    assert seated(evening) == ["Sepp", "Vroni", "Hias", "Resi"]


def test_a_closed_evening_and_a_tournament_table_keep_their_seats(admin, runde, evening, players):
    services.close_evening(evening.pk, admin)
    with pytest.raises(services.EveningError, match="abgeschlossen"):
        services.change_seats(evening.pk, players[1:5], 0, admin)
    with pytest.raises(services.EveningError, match="abgeschlossen"):
        services.continue_at_new_table(evening.pk, players[1:5], 0, admin, key=uuid.uuid4())
    table = services.start_evening(runde, players[:4], 0, admin, game_limit=8, label="Tisch 1")
    with pytest.raises(services.EveningError, match="nicht ändern"):
        services.change_seats(table.pk, players[1:5], 0, admin)
    assert not Change.objects.filter(kind=Change.Kind.SEATS).exists()
    assert Evening.objects.count() == 2


def test_a_new_table_that_cannot_play_leaves_the_evening_open(admin, evening, players):
    services.book_game(evening.pk, uuid.uuid4(), sauspiel(evening), admin)

    with pytest.raises(services.EveningError, match="4, 5 oder 6 Spieler"):
        services.continue_at_new_table(evening.pk, players[:3], 0, admin, key=uuid.uuid4())

    evening.refresh_from_db()
    assert evening.is_open and Evening.objects.count() == 1
    assert not evening.changes.filter(kind=Change.Kind.CLOSE).exists()


def test_an_evening_that_went_on_at_a_new_table_opened_again_takes_corrections_only(
    client, scorekeeper, admin, tariff_with_bock, runde, players
):
    evening = services.start_evening(runde, players[:4], 0, admin)
    first, _ = services.book_game(evening.pk, uuid.uuid4(), sauspiel(evening), admin)
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "ramsch", won=False, loser=players[1].pk), admin)  # fmt: skip
    new = services.continue_at_new_table(evening.pk, players[:5], 0, admin, key=uuid.uuid4())
    client.force_login(admin)
    page = reverse("evenings:detail", args=[evening.pk])
    closed = client.get(page).text

    reopened = client.post(reverse("evenings:reopen", args=[evening.pk]), follow=True).text
    evening.refresh_from_db()
    form = {"key": str(uuid.uuid4()), "deal": services.next_deal(evening).token,
            "spiel": "sauspiel", "won": "1", "kontra": "0", "doubled": "0", "laufende": "0",
            "declarer": players[1].pk, "partner": players[3].pk}  # fmt: skip
    booked = client.post(reverse("evenings:book", args=[evening.pk]), form, follow=True).text

    assert "Neue Spiele nimmt er keine: er ging an einem neuen Tisch weiter" in closed
    assert "Der Abend ist wieder offen, zum Korrigieren: neue Spiele nimmt er keine." in reopened
    assert "Der Abend ging an einem neuen Tisch weiter: hier lässt sich nur noch korrigieren." in (
        reopened
    )
    assert 'id="entry-form"' not in reopened
    assert "Bockspiel" not in reopened  # lapsed with the table change, not back
    assert "nur noch korrigieren – nichts gebucht" in booked
    assert evening.games.count() == 2 and new.games.count() == 0
    # Its games are corrected as ever.
    services.correct_game(
        evening.pk, first.pk, dataclasses.replace(services.GameInput.of(first), laufende=3), admin
    )
    assert evening.games.get(pk=first.pk).laufende == 3
    with pytest.raises(services.EveningError, match="ging an einem neuen Tisch weiter"):
        services.book_game(evening.pk, uuid.uuid4(), sauspiel(evening), admin)
    # Nor is it seated anew: a second table of the same players would run beside the one
    # that plays on.
    assert "Sitzordnung ändern" not in client.get(page).text
    seats_url = reverse("evenings:seats", args=[evening.pk])
    assert client.get(seats_url, follow=True).redirect_chain == [(page, 302)]
    evening.refresh_from_db()
    refused = client.post(seats_url, seating(players[1:5], v=evening.version) | {
        "key": str(uuid.uuid4())})  # fmt: skip
    assert "hier lässt sich nur noch korrigieren, die Sitzordnung nicht." in refused.text
    with pytest.raises(services.EveningError, match="die Sitzordnung nicht"):
        services.continue_at_new_table(evening.pk, players[1:5], 0, admin, key=uuid.uuid4())
    assert Evening.objects.open().count() == 2  # this one, for corrections, and the new one
    # A player's page says so too, not "läuft" (walk 90).
    home = client.get(reverse("clubs:player_home", args=[runde.club_id, players[0].pk])).text
    assert home.count("zum Korrigieren offen") == 1 and home.count(">läuft<") == 1
    assert services.continued_at(Evening.objects.get(pk=new.pk)) is None


def test_a_new_table_the_same_night_keeps_the_evening_s_tariff(admin, runde, evening, players):
    """A tariff changed during the evening is for the next evening (the editor says so),
    not for the new table when someone sits down at half past nine (walk 29)."""
    services.book_game(evening.pk, uuid.uuid4(), sauspiel(evening), admin)
    played = evening.tariff
    newer = runde.tariffs.latest()
    newer.sauspiel = played.sauspiel + 10
    assert club_services.change_tariff(runde, newer, admin) is not None

    new = services.continue_at_new_table(evening.pk, [players[4], *players[1:4]], 0, admin)
    game, _booked = services.book_game(new.pk, uuid.uuid4(), sauspiel(new), admin)

    assert new.tariff == played != runde.tariffs.latest()
    won = LedgerEntry.objects.filter(game=game, amount__gt=0).values_list("amount", flat=True)
    assert set(won) == {played.sauspiel}
    # A new evening of the Runde plays the new tariff.
    services.close_evening(new.pk, admin)
    assert services.start_evening(runde, players[:4], 0, admin).tariff == runde.tariffs.latest()


def test_a_dealer_wrong_from_the_start_is_put_right_and_the_games_dealt_anew(
    client, scorekeeper, admin, runde, players
):
    """Walk 29: at five, Kathi was taken for the first dealer (so she sat out and Resi
    paid); Resi had dealt. Choosing who really deals now, at the same table, deals every
    game anew and moves Resi's share of game 1 to Kathi."""
    sepp, vroni, hias, resi, wastl, kathi = players
    table = [resi, sepp, hias, vroni, kathi]
    evening = services.start_evening(runde, table, 4, admin)  # Kathi "deals" first
    deal = services.next_deal(evening)
    assert [p.name for p in deal.sitting_out] == ["Kathi"]
    rufspiel = services.GameInput("sauspiel", declarer=sepp.pk, partner=hias.pk)
    game, _created = services.book_game(evening.pk, uuid.uuid4(), rufspiel, admin)
    paid = dict(LedgerEntry.objects.filter(game=game).values_list("player__name", "amount"))
    assert paid["Resi"] < 0 and "Kathi" not in paid
    client.force_login(scorekeeper)
    url = reverse("evenings:seats", args=[evening.pk])
    assert "War nur der Geber von Anfang an falsch?" in client.get(url).text
    follower = reverse("evenings:sheet", args=[evening.pk])
    shown = Evening.objects.get(pk=evening.pk).version

    # Resi dealt game 1, so Sepp deals now (place 2).
    answer = client.post(url, seating(table, first_dealer=1, v=shown), follow=True)

    assert "Der Geber ist berichtigt: alle Spiele sind mit ihm neu verteilt" in answer.text
    game.refresh_from_db()
    assert game.dealer == resi and resi.pk not in game.seating and kathi.pk in game.seating
    now = dict(
        LedgerEntry.objects.filter(game=game)
        .values_list("player__name")
        .annotate(total=Sum("amount"))
        .values_list("player__name", "total")
    )
    assert now["Kathi"] == paid["Resi"] and now["Resi"] == 0
    assert services.next_deal(Evening.objects.get(pk=evening.pk)).dealer == sepp
    assert Evening.objects.count() == 1  # the same evening, no new table
    history = client.get(reverse("evenings:history", args=[evening.pk])).text
    assert "alle Spiele mit dem richtigen Geber neu verteilt und gewertet" in history
    # A phone following with a game half entered loads the evening again.
    polled = client.get(follower, {"v": shown, "deal": deal.token}, headers=HTMX)
    assert polled["HX-Refresh"] == "true"
    out = io.StringIO()
    call_command("verify_ledger", stdout=out)
    assert "ledger ok" in out.getvalue()


def test_a_dealer_put_right_that_would_seat_out_a_player_of_a_game_is_refused(
    admin, runde, players
):
    sepp, vroni, hias, resi, wastl, kathi = players
    evening = services.start_evening(runde, [resi, sepp, hias, vroni, kathi], 4, admin)
    rufspiel = services.GameInput("sauspiel", declarer=resi.pk, partner=hias.pk)
    services.book_game(evening.pk, uuid.uuid4(), rufspiel, admin)
    before = list(LedgerEntry.objects.values_list("pk", flat=True))

    with pytest.raises(services.EveningError) as refused:
        services.redeal(evening.pk, 1, admin)  # Resi would have dealt game 1 and sat out

    assert "säße Resi in Spiel 1 aus, hat dort aber gespielt" in str(refused.value)
    assert list(LedgerEntry.objects.values_list("pk", flat=True)) == before
    assert Evening.objects.get(pk=evening.pk).first_dealer == 4


def test_the_seat_lists_mark_who_left_the_club(client, scorekeeper, admin, evening, players):
    """Walk 76: "Abend beginnen" and "Sitzordnung ändern" offered a player who left the
    club as anyone."""
    gone = make_user("gone", players[5].name)
    Departure.objects.create(club=evening.runde.club, user=gone, role="spieler", player=players[5])
    client.force_login(scorekeeper)

    seats = client.get(reverse("evenings:seats", args=[evening.pk]))
    start = client.get(reverse("evenings:start", args=[evening.runde.club_id, evening.runde_id]))

    for page in (seats, start):
        labels = dict(page.context["form"].fields["seat0"].choices)
        assert labels[players[5].pk] == f"{players[5].name} (ausgeschieden)"
        assert labels[players[4].pk] == players[4].name


def test_the_phone_of_whoever_left_keeps_the_night_s_last_sheet(
    client, admin, club, evening, players
):
    """Walk 84: Resi went home, and her phone went on to the new table, where she is not,
    with everyone at 0,00: her night's result was gone from her screen."""
    sepp = players[0]
    sepp.user = make_user("sepp", "Sepp")
    sepp.save()
    Membership.objects.create(user=sepp.user, club=club, role=Membership.Role.PLAYER)
    services.book_game(evening.pk, uuid.uuid4(), sauspiel(evening), admin)
    evening.refresh_from_db()
    client.force_login(sepp.user)
    poll = reverse("evenings:sheet", args=[evening.pk])
    looking = {"v": evening.version, "looks": "1"}

    new = services.continue_at_new_table(evening.pk, players[1:5], 0, admin, seen=1)
    answer = client.get(poll, looking, headers=HTMX)

    # The closed sheet, with the way on should they want it.
    assert answer.status_code == 200 and "HX-Redirect" not in answer
    assert "Dieser Abend ist abgeschlossen." in answer.text
    assert f'<a href="{reverse("evenings:detail", args=[new.pk])}">Weiter am neuen Tisch</a>' in (
        answer.text
    )


def test_the_seating_page_asks_who_deals_next_once_games_are_booked(client, admin, evening):
    """Walk 84: "Erster Geber" in the middle of an evening, where it means who deals next."""
    client.force_login(admin)
    url = reverse("evenings:seats", args=[evening.pk])
    label = '<div class="label" id="first-dealer-label">{}</div>'
    assert label.format("Erster Geber") in client.get(url).text

    services.book_game(evening.pk, uuid.uuid4(), sauspiel(evening), admin)

    page = client.get(url).text
    assert label.format("Gibt als Nächstes") in page and "Erster Geber" not in page
    # The button says the common case; what else it does is its description (walk 88).
    assert '<p class="muted" id="redeal-note">War nur der Geber von Anfang an falsch?' in page
    assert '<button type="submit" class="primary" aria-describedby="redeal-note">' in page
