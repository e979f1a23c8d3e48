import io
import uuid

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import Sum

from config import roles
from evenings import reads, services
from evenings.models import Change, Evening, Game, LedgerEntry
from evenings.services import EveningError, GameInput, KeyReused, playing_positions


def sauspiel(declarer, partner, won=True, **kw):
    return GameInput(type="sauspiel", declarer=declarer.pk, partner=partner.pk, won=won, **kw)


def ramsch(loser, jungfrauen=()):
    return GameInput(type="ramsch", won=False, loser=loser.pk, jungfrauen=tuple(jungfrauen))


def book(evening, data, by):
    game, created = services.book_game(evening.pk, uuid.uuid4(), data, by)
    assert created
    return game


def amounts(game):
    """{player name: net cents} of a game, summed over the ledger."""
    rows = game.ledger.values_list("player__name").annotate(total=Sum("amount"))
    return dict(rows)


def test_a_plain_sauspiel_books_one_entry_per_player_summing_to_zero(evening, players, admin):
    sepp, vroni, hias, resi = players[:4]

    game = book(evening, sauspiel(vroni, resi, laufende=3), admin)

    entries = {e.player.name: e.amount for e in game.ledger.select_related("player")}
    # Grundwert 0,10 + 3 Laufende 0,30 = 0,40 each
    assert entries == {"Vroni": 40, "Resi": 40, "Hias": -40, "Sepp": -40}
    assert game.number == 1 and game.dealer == sepp
    assert Change.objects.get(game=game).kind == "book"
    assert services.balances(evening) == {sepp.pk: -40, vroni.pk: 40, hias.pk: -40, resi.pk: 40}


def test_the_same_key_books_once_and_answers_with_the_same_game(evening, players, admin):
    sepp, vroni, hias, resi = players[:4]
    key = uuid.uuid4()

    first, created = services.book_game(evening.pk, key, sauspiel(vroni, resi), admin)
    again, created_again = services.book_game(evening.pk, key, sauspiel(vroni, resi), admin)

    assert (created, created_again) == (True, False)
    assert again.pk == first.pk
    assert Game.objects.count() == 1
    assert LedgerEntry.objects.count() == 4


def test_the_same_key_with_other_content_is_refused(evening, players, admin):
    sepp, vroni, hias, resi = players[:4]
    key = uuid.uuid4()
    services.book_game(evening.pk, key, sauspiel(vroni, resi), admin)

    with pytest.raises(KeyReused):
        services.book_game(evening.pk, key, sauspiel(vroni, hias), admin)

    assert Game.objects.count() == 1


def test_an_invalid_game_is_refused_with_the_engines_german_message(evening, players, admin):
    sepp, vroni, hias, resi = players[:4]

    with pytest.raises(EveningError) as raised:
        book(evening, sauspiel(vroni, vroni), admin)

    assert raised.value.field == "partner"
    assert "Mitspieler" in str(raised.value) or "Partner" in str(raised.value)
    assert not Game.objects.exists() and not LedgerEntry.objects.exists()


def test_a_player_sitting_out_cannot_declare(runde, players, admin):
    evening = services.start_evening(runde, players[:5], 0, admin)  # Sepp deals, sits out

    with pytest.raises(EveningError):
        book(evening, sauspiel(players[0], players[1]), admin)

    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("seats", "dealer", "playing"),
    [(4, 0, [1, 2, 3, 0]), (5, 0, [1, 2, 3, 4]), (5, 3, [4, 0, 1, 2]), (6, 0, [1, 2, 4, 5]),
     (6, 4, [5, 0, 2, 3])],
)  # fmt: skip
def test_with_five_the_dealer_and_with_six_also_the_opposite_player_sit_out(seats, dealer, playing):
    assert playing_positions(seats, dealer) == playing


def test_the_dealer_rotates_with_every_game_and_undo_gives_the_deal_back(runde, players, admin):
    evening = services.start_evening(runde, players[:5], 0, admin)
    deal = services.next_deal(evening)
    assert deal.dealer.name == "Sepp" and [p.name for p in deal.sitting_out] == ["Sepp"]

    book(evening, sauspiel(players[1], players[2]), admin)
    deal = services.next_deal(evening)
    assert deal.dealer.name == "Vroni"
    assert [p.name for p in deal.playing] == ["Hias", "Resi", "Wastl", "Sepp"]

    services.undo_last(evening.pk, admin)
    assert services.next_deal(evening).dealer.name == "Sepp"


def test_correcting_an_early_game_rescores_later_ones_and_keeps_the_record(
    runde, players, admin, tariff_with_bock
):
    evening = services.start_evening(runde, players[:4], 0, admin)
    sepp, vroni, hias, resi = players[:4]
    first = book(evening, sauspiel(vroni, resi), admin)  # not a Bock trigger
    second = book(evening, sauspiel(hias, sepp), admin)  # plain: 10 each
    assert amounts(second)["Hias"] == 10

    # The first game was really a Ramsch: it triggers Bock, so the second doubles.
    services.correct_game(evening.pk, first.pk, ramsch(sepp), admin)

    assert amounts(first) == {"Sepp": -30, "Vroni": 10, "Hias": 10, "Resi": 10}
    assert amounts(second)["Hias"] == 20
    change = Change.objects.get(kind="correct")
    assert change.before["type"] == "sauspiel" and change.after["type"] == "ramsch"
    # Reversals were appended, nothing edited: the first game has 4 + 4 + 4 entries.
    assert first.ledger.count() == 12
    call_command("verify_ledger")


def test_voiding_a_game_reverses_its_amounts_and_keeps_it_on_record(evening, players, admin):
    sepp, vroni, hias, resi = players[:4]
    game = book(evening, sauspiel(vroni, resi), admin)

    services.void_game(evening.pk, game.pk, admin)

    game.refresh_from_db()
    assert not game.is_booked
    assert amounts(game) == {"Sepp": 0, "Vroni": 0, "Hias": 0, "Resi": 0}
    assert game.ledger.count() == 8
    assert set(services.balances(evening).values()) == {0}
    assert Change.objects.filter(game=game).values_list("kind", flat=True)[1] == "void"


def test_a_payment_is_two_entries_and_changes_the_settlement(evening, players, admin):
    sepp, vroni, hias, resi = players[:4]
    book(evening, sauspiel(vroni, resi, laufende=3), admin)
    suggestion = services.settlement(evening)
    assert len(suggestion.transfers) == 2
    assert sum(t.amount for t in suggestion.transfers) == 80

    services.record_payment(evening.pk, sepp.pk, resi.pk, 40, admin)

    assert services.balances(evening)[sepp.pk] == 0
    assert services.balances(evening)[resi.pk] == 0
    assert len(services.settlement(evening).transfers) == 1


def test_a_closed_evening_takes_no_games_until_an_admin_reopens_it(evening, players, admin):
    sepp, vroni, hias, resi = players[:4]
    services.close_evening(evening.pk, admin)

    with pytest.raises(EveningError):
        book(evening, sauspiel(vroni, resi), admin)

    services.reopen_evening(evening.pk, admin)
    book(evening, sauspiel(vroni, resi), admin)
    assert list(Change.objects.values_list("kind", flat=True)) == [
        "start", "close", "reopen", "book",
    ]  # fmt: skip


def test_the_database_refuses_a_game_whose_entries_do_not_sum_to_zero(evening, players, admin):
    sepp, vroni, hias, resi = players[:4]
    game = book(evening, sauspiel(vroni, resi), admin)
    change = Change.objects.create(evening=evening, game=game, kind="correct", by=admin)

    with pytest.raises(IntegrityError, match="sum to 10 cents, not zero"), transaction.atomic():
        LedgerEntry.objects.create(
            evening=evening, game=game, change=change, player=sepp, kind="game", amount=10
        )
        # the check is deferred to the commit (here: the end of the savepoint's
        # transaction is not a commit, so force the check now)
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def test_the_database_refuses_to_update_or_delete_ledger_rows(evening, players, admin):
    game = book(evening, sauspiel(players[1], players[3]), admin)
    entry = game.ledger.first()

    # The app's role may not (tests/evenings/test_ledger_guards.py: nor may the owner).
    refused = r"permission denied|append-only"
    with pytest.raises(DatabaseError, match=refused), transaction.atomic():
        LedgerEntry.objects.filter(pk=entry.pk).update(amount=999)
    with pytest.raises(DatabaseError, match=refused), transaction.atomic():
        LedgerEntry.objects.filter(pk=entry.pk).delete()

    entry.refresh_from_db()
    assert entry.amount in (10, -10)


def test_verify_ledger_passes_on_an_honest_ledger(evening, players, admin, capsys):
    book(evening, sauspiel(players[1], players[3]), admin)

    call_command("verify_ledger")

    assert "ledger ok: 1 evenings, 1 games" in capsys.readouterr().out


def test_verify_ledger_names_the_first_tampered_entry(evening, players, admin):
    sepp, vroni, hias, resi = players[:4]
    book(evening, sauspiel(vroni, resi), admin)
    second = book(evening, sauspiel(hias, sepp), admin)
    # Tamper behind the app's back: a balanced pair that the engine never computed.
    change = Change.objects.create(evening=evening, game=second, kind="correct", by=admin)
    LedgerEntry.objects.bulk_create(
        [
            LedgerEntry(evening=evening, game=second, change=change, player=hias, kind="game",
                        amount=100),
            LedgerEntry(evening=evening, game=second, change=change, player=vroni, kind="game",
                        amount=-100),
        ]
    )  # fmt: skip

    with pytest.raises(
        CommandError, match=rf"game 2, player {vroni.pk} \(Vroni\): ledger has -110 cents"
    ):
        call_command("verify_ledger")


def test_verify_ledger_names_an_evening_whose_state_lost_its_last_game(evening, players, admin):
    book(evening, sauspiel(players[1], players[3]), admin)
    book(evening, sauspiel(players[2], players[0]), admin)
    Evening.objects.filter(pk=evening.pk).update(last_number=1)

    with pytest.raises(
        CommandError, match=rf"evening {evening.pk}: its last game is 2, its state says 1"
    ):
        call_command("verify_ledger")


def test_verify_ledger_names_an_evening_opened_or_closed_behind_its_trail(
    evening, players, admin, runde
):
    """Walk 43: a closed evening set open by hand (in a backup's file, say) took new games
    while its trail ended "Abend abgeschlossen"; a reopened one is open, an Ausgleich made
    closed; and an open evening closed by hand is named too."""
    book(evening, sauspiel(players[1], players[3]), admin)
    services.close_evening(evening.pk, admin)
    call_command("verify_ledger")  # closed by its trail
    services.reopen_evening(evening.pk, admin)
    call_command("verify_ledger")  # open again by its trail
    services.close_evening(evening.pk, admin)
    services.start_ausgleich(runde, admin)  # an Ausgleich: closed, with no closing
    call_command("verify_ledger")

    Evening.objects.filter(pk=evening.pk).update(status=Evening.Status.OPEN, closed_at=None)
    with pytest.raises(
        CommandError, match=rf"evening {evening.pk}: stored as open, its changes say it is closed"
    ):
        call_command("verify_ledger")
    other = services.start_evening(runde, players[:4], 0, admin)
    Evening.objects.filter(pk=evening.pk).update(status=Evening.Status.CLOSED)
    Evening.objects.filter(pk=other.pk).update(status=Evening.Status.CLOSED)
    with pytest.raises(
        CommandError, match=rf"evening {other.pk}: stored as closed, its changes say it is open"
    ):
        call_command("verify_ledger")


@pytest.mark.django_db(transaction=True)
def test_verify_ledger_catches_an_entry_changed_with_the_trigger_switched_off(
    evening, players, admin
):
    game = book(evening, sauspiel(players[1], players[3]), admin)
    # Only the owner of the table can switch its triggers off.
    with roles.as_owner(), connection.cursor() as cursor:
        cursor.execute("ALTER TABLE evenings_ledgerentry DISABLE TRIGGER USER")
        cursor.execute(
            "UPDATE evenings_ledgerentry SET amount = amount * 2 WHERE id = %s",
            [game.ledger.order_by("pk").first().pk],
        )
        cursor.execute("ALTER TABLE evenings_ledgerentry ENABLE TRIGGER USER")

    with pytest.raises(CommandError, match="game 1"):
        call_command("verify_ledger")


def test_an_evening_keeps_the_tariff_it_started_with(evening, runde, players, admin, set_tariff):
    set_tariff(runde, sauspiel=50)

    game = book(evening, sauspiel(players[1], players[3]), admin)

    assert amounts(game)["Vroni"] == 10
    later = services.start_evening(runde, players[:4], 0, admin)
    assert amounts(book(later, sauspiel(players[1], players[3]), admin))["Vroni"] == 50


def test_a_form_for_an_older_deal_books_nothing(runde, players, admin):
    evening = services.start_evening(runde, players[:5], 0, admin)
    sepp, vroni, hias, resi, wastl = players[:5]
    token = services.next_deal(evening).token
    book(evening, sauspiel(vroni, resi), admin)

    with pytest.raises(services.StaleDeal):
        services.book_game(evening.pk, uuid.uuid4(), sauspiel(hias, wastl), admin, token)

    assert Game.objects.count() == 1
    assert services.next_deal(evening).number == 2
    # The current deal's token books.
    game, created = services.book_game(
        evening.pk, uuid.uuid4(), sauspiel(hias, wastl), admin, services.next_deal(evening).token
    )
    assert created and game.number == 2 and game.dealer == vroni


def test_undo_and_restore_give_the_deal_back_and_forth(evening, players, admin):
    sepp, vroni, hias, resi = players[:4]
    first = book(evening, sauspiel(vroni, resi), admin)
    second = book(evening, ramsch(hias), admin)
    before = services.next_deal(evening)

    services.undo_last(evening.pk, admin)
    assert services.next_deal(evening).dealer == vroni  # game 2's dealer deals again
    assert services.restorable(evening).game == second
    services.restore_game(evening.pk, second.pk, admin)

    assert services.next_deal(evening).token == before.token
    assert amounts(second) == {"Hias": -30, "Sepp": 10, "Vroni": 10, "Resi": 10}
    assert services.restorable(evening) is None
    kinds = list(evening.changes.values_list("kind", flat=True))
    assert kinds == ["start", "book", "book", "undo", "restore"]
    # Every undo and restore appended: nothing in the ledger was edited.
    assert LedgerEntry.objects.filter(game=second).count() == 4 * 3
    assert amounts(first) == {"Vroni": 10, "Resi": 10, "Sepp": -10, "Hias": -10}


def test_an_undone_game_cannot_come_back_once_another_was_booked(evening, players, admin):
    sepp, vroni, hias, resi = players[:4]
    book(evening, sauspiel(vroni, resi), admin)
    second = book(evening, ramsch(hias), admin)
    services.undo_last(evening.pk, admin)
    book(evening, sauspiel(hias, sepp), admin)  # dealt by Vroni again, as game 3

    with pytest.raises(EveningError, match="neues Spiel gebucht"):
        services.restore_game(evening.pk, second.pk, admin)

    second.refresh_from_db()
    assert not second.is_booked
    assert services.restorable(evening) is None


def test_a_struck_game_comes_back_even_after_later_games(evening, players, admin):
    sepp, vroni, hias, resi = players[:4]
    first = book(evening, ramsch(sepp), admin)
    services.void_game(evening.pk, first.pk, admin)
    later = book(evening, sauspiel(hias, sepp), admin)
    assert amounts(later) == {"Hias": 10, "Sepp": 10, "Resi": -10, "Vroni": -10}

    services.restore_game(evening.pk, first.pk, admin)

    assert amounts(first) == {"Sepp": -30, "Vroni": 10, "Hias": 10, "Resi": 10}
    assert Game.objects.get(pk=first.pk).is_booked
    out = io.StringIO()
    call_command("verify_ledger", stdout=out)
    assert "ledger ok" in out.getvalue()


def test_the_correction_preview_names_the_later_games_that_change(
    evening, players, admin, tariff_with_bock
):
    evening = services.start_evening(evening.runde, players[:4], 0, admin)
    sepp, vroni, hias, resi = players[:4]
    first = book(evening, sauspiel(vroni, resi), admin)
    book(evening, sauspiel(hias, sepp), admin)
    book(evening, sauspiel(resi, vroni), admin)

    preview = services.preview(evening, ramsch(sepp), first.seating, replacing=first)

    assert dict(preview.payouts) == {vroni.pk: 10, hias.pk: 10, resi.pk: 10, sepp.pk: -30}
    later = [(g.number, g.bock_before, g.bock_after, g.unit_before, g.unit_after)
             for g in preview.later]  # fmt: skip
    assert later == [(2, False, True, 10, 20), (3, False, True, 10, 20)]
    assert preview.totals_before == {sepp.pk: -10, vroni.pk: 10, hias.pk: -10, resi.pk: 10}
    assert preview.totals_after == {sepp.pk: -30, vroni.pk: 10, hias.pk: 10, resi.pk: 10}
    # Nothing was saved.
    first.refresh_from_db()
    assert first.type == "sauspiel"
    assert evening.changes.count() == 4


def test_striking_a_ramsch_shows_first_which_later_games_lose_their_bock(
    evening, players, admin, tariff_with_bock
):
    evening = services.start_evening(evening.runde, players[:4], 0, admin)
    sepp, vroni, hias, resi = players[:4]
    first = book(evening, ramsch(sepp), admin)
    book(evening, sauspiel(hias, sepp), admin)
    book(evening, sauspiel(resi, vroni), admin)

    effects = services.strike_effects(evening, services.around_game(evening, first))

    later = [(g.number, g.bock_before, g.bock_after, g.unit_before, g.unit_after)
             for g in effects.later]  # fmt: skip
    assert later == [(2, True, False, 20, 10), (3, True, False, 20, 10)]
    assert effects.totals_before == {sepp.pk: -30, vroni.pk: 10, hias.pk: 10, resi.pk: 10}
    assert effects.totals_after == {sepp.pk: 0, vroni.pk: 0, hias.pk: 0, resi.pk: 0}
    # Nothing was struck; striking it then moves the totals as shown.
    assert evening.changes.count() == 4
    services.void_game(evening.pk, first.pk, admin)
    assert services.standing(evening) == effects.totals_after


@pytest.mark.django_db(transaction=True)
def test_the_evening_totals_follow_every_ledger_entry_and_verify_ledger_checks_them(
    evening, players, admin
):
    sepp, vroni, hias, resi = players[:4]
    book(evening, sauspiel(vroni, resi), admin)
    game = book(evening, ramsch(hias), admin)
    services.correct_game(evening.pk, game.pk, ramsch(sepp), admin)
    services.record_payment(evening.pk, sepp.pk, vroni.pk, 20, admin)

    assert services.standing(evening) == {sepp.pk: -40, vroni.pk: 20, hias.pk: 0, resi.pk: 20}
    assert services.balances(evening) == {sepp.pk: -20, vroni.pk: 0, hias.pk: 0, resi.pk: 20}
    for player in players[:4]:
        entries = LedgerEntry.objects.filter(evening=evening, player=player)
        assert services.balances(evening)[player.pk] == sum(e.amount for e in entries)

    # A total changed behind the ledger's back (only the owner may) is found.
    with roles.as_owner(), connection.cursor() as cursor:
        cursor.execute(
            "UPDATE evenings_eveningtotal SET amount = amount + 1 WHERE player_id = %s",
            [hias.pk],
        )
    with pytest.raises(
        CommandError, match=rf"player {hias.pk} \(Hias\): the game total is 1 cents"
    ):
        call_command("verify_ledger")


def test_each_game_keeps_whether_it_was_a_bock_game_as_corrections_shift_the_chain(
    evening, players, admin, tariff_with_bock
):
    evening = services.start_evening(evening.runde, players[:4], 0, admin)
    sepp, vroni, hias, resi = players[:4]
    first = book(evening, sauspiel(vroni, resi), admin)
    later = [book(evening, sauspiel(hias, sepp), admin) for _ in range(5)]
    assert not any(Game.objects.filter(evening=evening).values_list("bock", flat=True))

    services.correct_game(evening.pk, first.pk, ramsch(sepp), admin)

    flags = list(
        Game.objects.filter(evening=evening).order_by("number").values_list("bock", flat=True)
    )
    assert flags == [False, True, True, True, True, False]
    services.void_game(evening.pk, later[0].pk, admin)  # game 2 struck: 3 to 6 follow the Ramsch
    flags = list(
        Game.objects.filter(evening=evening)
        .booked()
        .order_by("number")
        .values_list("bock", flat=True)
    )
    assert flags == [False, True, True, True, True]
    out = io.StringIO()
    call_command("verify_ledger", stdout=out)
    assert "ledger ok" in out.getvalue()
    Game.objects.filter(pk=later[-1].pk).update(bock=False)
    with pytest.raises(CommandError, match="game 6: stored as no Bock game"):
        call_command("verify_ledger")


def test_the_last_booked_games_are_found_past_games_struck_out_at_the_end(
    evening, players, admin, monkeypatch
):
    """A booking looks for the evening's last booked games among its last numbers (a
    window); when games struck out fill it, it reads further back."""
    monkeypatch.setattr(reads, "WINDOW", 3)
    sepp, vroni, hias, resi = players[:4]
    games = [book(evening, sauspiel(vroni, resi), admin) for _ in range(6)]
    services.void_game(evening.pk, games[4].pk, admin)
    services.void_game(evening.pk, games[5].pk, admin)

    state = reads.state_of(evening.pk, services.BOCK_GAMES)

    assert [g.number for g in state.recent] == [1, 2, 3, 4]
    assert [g.pk for g in state.recent] == [g.pk for g in services.games_before(evening)]
    assert state.last_number == 6
    # Game 4 was Resi's deal: Sepp deals game 7.
    deal = services.next_deal(evening)
    assert (deal.number, deal.dealer) == (7, sepp)
    seventh = book(evening, sauspiel(hias, vroni), admin)
    assert (seventh.number, seventh.dealer) == (7, sepp)


def read_as_a_phone(evening) -> Evening:
    """The evening as the booking view reads it: with its tariff, seats and state."""
    read = Evening.objects.select_related("tariff").get(pk=evening.pk)
    read.state = reads.state_of(evening.pk, services.BOCK_GAMES)
    return read


def test_a_booking_whose_read_is_overtaken_writes_nothing_of_it_and_reads_again(
    evening, players, admin
):
    sepp, vroni, hias, resi = players[:4]
    read = read_as_a_phone(evening)
    token = services.next_deal(read, state=read.state).token
    # Another phone books between this booking's read and its write.
    book(evening, sauspiel(vroni, resi), admin)

    # Without a deal it books the next game, after the one that came first ...
    key = uuid.uuid4()
    booking = services.book(evening.pk, key, ramsch(hias), admin, evening=read)
    assert (booking.game.number, booking.game.dealer, booking.version) == (2, vroni, 2)
    assert booking.next.number == 3
    assert [g.key for g in Game.objects.order_by("number")][1] == key
    # ... and a form made for the overtaken deal books nothing.
    stale = read_as_a_phone(evening)
    book(evening, sauspiel(sepp, hias), admin)
    with pytest.raises(services.StaleDeal):
        services.book(evening.pk, uuid.uuid4(), ramsch(hias), admin, token, evening=stale)
    assert Game.objects.count() == 3
    assert Change.objects.filter(kind="book").count() == 3
    assert services.standing(evening) == {
        p.pk: sum(LedgerEntry.objects.filter(player=p).values_list("amount", flat=True))
        for p in players[:4]
    }


def test_a_payment_between_read_and_write_does_not_stop_the_booking(evening, players, admin):
    sepp, vroni, hias, resi = players[:4]
    book(evening, sauspiel(vroni, resi), admin)
    read = read_as_a_phone(evening)
    token = services.next_deal(read, state=read.state).token
    services.record_payment(evening.pk, sepp.pk, resi.pk, 10, admin)  # a new version

    booking = services.book(evening.pk, uuid.uuid4(), ramsch(hias), admin, token, evening=read)

    assert booking.created and booking.game.number == 2
    assert booking.version == Evening.objects.get(pk=evening.pk).version == 3


def test_a_booking_that_keeps_losing_the_race_takes_the_evenings_lock(
    evening, players, admin, monkeypatch
):
    monkeypatch.setattr(services, "OPTIMISTIC_ATTEMPTS", 0)
    sepp, vroni, hias, resi = players[:4]
    first = book(evening, sauspiel(vroni, resi), admin)
    key = uuid.uuid4()

    second = book(evening, ramsch(hias), admin)
    again = services.book(evening.pk, key, ramsch(hias), admin)  # its own key: a third game

    assert [first.number, second.number, again.game.number] == [1, 2, 3]
    assert services.book(evening.pk, key, ramsch(hias), admin).created is False
    assert Game.objects.count() == 3
