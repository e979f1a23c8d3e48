"""The writes of a ProHof tournament (tournaments/services.py): participants, the draw,
swaps, starting a round (each table an evening), its progress, the next round."""

import dataclasses
import uuid

import pytest
from django.db import IntegrityError

from clubs.models import Membership, Runde
from evenings import services as evenings
from evenings.models import Change, Evening, LedgerEntry
from evenings.services import GameInput
from tests.conftest import make_user
from tests.evenings.test_concurrency import errors, run_at_once
from tournaments import services
from tournaments.draw import draw, repeated_pairs
from tournaments.models import Season, TableSeat, Tournament
from tournaments.services import StaleSeating, TournamentError
from tournaments.standings import tournament_standings


def with_participants(tournament, players, count: int) -> Tournament:
    services.add_participants(tournament, players[:count])
    return tournament


def seating(round_) -> list[list[str]]:
    """The round's tables, each the names in seat order."""
    tables: dict[int, list[str]] = {}
    for seat in TableSeat.objects.filter(round=round_).order_by("table__number", "position"):
        tables.setdefault(seat.table.number, []).append(seat.participant.player.name)
    return list(tables.values())


def leaving_points(round_, participant) -> int:
    """The participant's points in the round, summed from the ledger."""
    return sum(
        LedgerEntry.objects.filter(
            evening__table__round=round_, player=participant.player
        ).values_list("amount", flat=True)
    )


def book_one(table, by) -> None:
    """One Rufspiel at the table, won by the declarer's pair."""
    table.evening.refresh_from_db()
    deal = evenings.next_deal(table.evening)
    declarer, partner = deal.playing[0], deal.playing[1]
    data = GameInput(type="rufspiel", declarer=declarer.pk, partner=partner.pk, won=True)
    evenings.book_game(table.evening_id, uuid.uuid4(), data, by, deal.token)


def play_out(round_, by) -> None:
    """Book every game of every table of the started round: Rufspiele, won."""
    for table in round_.tables.select_related("evening"):
        for _ in range(round_.tournament.games_per_round):
            deal = evenings.next_deal(table.evening)
            declarer, partner = deal.playing[0], deal.playing[1]
            data = GameInput(type="rufspiel", declarer=declarer.pk, partner=partner.pk, won=True)
            evenings.book_game(table.evening_id, uuid.uuid4(), data, by, deal.token)


def test_a_table_takes_back_its_last_game_while_its_round_runs_and_not_after(
    client, tournament, players, admin
):
    tournament.games_per_round = 2
    tournament.save()
    with_participants(tournament, players, 4)
    first = services.start_round(services.draw_round(tournament), admin)
    play_out(first, admin)
    table = first.tables.get().evening

    # Played out, the round still on: the last game is taken back, and entered again.
    evenings.undo_last(table.pk, admin)
    book_one(first.tables.get(), admin)
    assert table.games.booked().count() == 2
    client.force_login(admin)
    assert 'id="undo"' in client.get(f"/abend/{table.pk}/").text

    # Round 2 has started: no game is booked at this table again, so none is taken back
    # (it would be lost); a correction still can strike or change it.
    services.start_round(services.draw_round(tournament), admin)
    with pytest.raises(evenings.EveningError, match="Dieser Tisch ist beendet"):
        evenings.undo_last(table.pk, admin)
    assert table.games.booked().count() == 2
    assert 'id="undo"' not in client.get(f"/abend/{table.pk}/").text
    # The start page leads to the table of round 2 only.
    start = client.get("/").text
    assert f'href="/abend/{table.pk}/"' not in start
    assert f'href="/abend/{tournament.rounds.get(number=2).tables.get().evening_id}/"' in start


# -- creating and setting up ------------------------------------------------------------


def test_a_new_tournament_has_the_seeds_three_rounds_of_forty_and_a_prohof_runde(tournament, club):
    assert (tournament.round_count, tournament.games_per_round) == (3, 40)
    assert tournament.status == Tournament.Status.SETUP
    assert tournament.runde.name == "Stadtmeisterschaft"
    assert tournament.runde.kind == Runde.Kind.PROHOF
    assert tournament.runde.tariff.is_prohof
    assert tournament.display_token


def test_a_second_tournament_of_the_same_name_is_refused_by_the_database(tournament, club, admin):
    with pytest.raises(IntegrityError):
        services.create_tournament(club, admin, name="stadtmeisterschaft")


def test_a_season_typed_again_in_another_case_is_the_same_season(club, admin):
    first = services.create_tournament(club, admin, name="Hof", new_season="ProHof 2026")
    second = services.create_tournament(club, admin, name="Rehau", new_season="prohof 2026")

    assert first.season == second.season
    assert Season.objects.filter(club=club).count() == 1


def test_rounds_and_games_are_fixed_once_round_one_has_started(tournament, players, admin):
    with_participants(tournament, players, 4)
    services.start_round(services.draw_round(tournament), admin)
    settings = {"name": "Stadtmeisterschaft Hof", "venue": "Hof", "date": tournament.date}

    with pytest.raises(TournamentError) as refused:
        services.update_settings(tournament, **settings, round_count=4, games_per_round=40)
    services.update_settings(tournament, **settings, round_count=3, games_per_round=40)

    assert refused.value.field == "round_count"
    tournament.refresh_from_db()
    assert (tournament.name, tournament.runde.name) == ("Stadtmeisterschaft Hof",) * 2
    assert tournament.round_count == 3


# -- participants -----------------------------------------------------------------------


def test_players_join_with_start_numbers_in_order_and_a_double_tap_adds_nobody_twice(
    tournament, players
):
    services.add_participants(tournament, [players[2], players[1]])
    services.add_participants(tournament, [players[1], players[3]])

    assert list(tournament.participants.values_list("number", "player__name")) == [
        (1, "Vroni"),
        (2, "Sepp"),
        (3, "Hias"),
    ]


def test_a_guest_needs_only_a_name_and_comes_back_as_the_same_player(club, admin, tournament):
    guest = services.add_guest(tournament, "  Ferdl  aus Rehau ")
    later = services.create_tournament(club, admin, name="Rehau")
    again = services.add_guest(later, "ferdl aus rehau")
    typed_with_an_accent = services.add_guest(
        services.create_tournament(club, admin, name="Hof"), "Férdl aus Rehau"
    )
    ötzi = services.add_guest(later, "Ötzi Müller")
    typed_without_umlauts = services.add_guest(
        services.create_tournament(club, admin, name="Selb"), "oetzi mueller"
    )

    assert guest.player.name == "Ferdl aus Rehau"
    assert guest.player.guest and guest.player.active
    assert again.player == typed_with_an_accent.player == guest.player
    assert typed_without_umlauts.player == ötzi.player
    assert club.players.filter(name__icontains="tzi").count() == 1


def test_a_guest_taken_off_the_list_before_playing_is_no_player_of_the_club(
    club, admin, tournament
):
    typo = services.add_guest(tournament, "Kathy")
    kept = services.add_guest(tournament, "Ferdl")
    later = services.create_tournament(club, admin, name="Rehau")
    services.add_guest(later, "Ferdl")  # Ferdl plays another tournament too

    assert services.remove_participant(typo) is False
    assert services.remove_participant(kept) is False

    names = set(club.players.values_list("name", flat=True))
    assert "Kathy" not in names and "Ferdl" in names


@pytest.mark.parametrize("typed", ["sepp", "Ŝepp"])
def test_a_guest_named_like_a_club_player_is_refused_at_the_name(tournament, players, typed):
    with pytest.raises(TournamentError) as refused:
        services.add_guest(tournament, typed)

    assert refused.value.field == "name"
    assert "Sepp ist Spieler des Vereins" in str(refused.value)
    assert not tournament.participants.exists()
    assert not tournament.club.players.filter(guest=True).exists()


def test_a_club_player_already_taking_part_typed_as_a_guest_is_told_so(tournament, players):
    services.add_participants(tournament, [players[1]])

    with pytest.raises(TournamentError) as refused:
        services.add_guest(tournament, "Sepp")

    assert str(refused.value) == "Sepp spielt schon mit (Startnummer 1)."
    assert refused.value.field == "name"
    assert tournament.participants.count() == 1


def test_a_guest_already_taking_part_is_not_added_again(tournament):
    services.add_guest(tournament, "Ferdl")

    with pytest.raises(TournamentError, match="spielt schon mit"):
        services.add_guest(tournament, "Ferdl")
    # Nor a typo of the name that reads as it on a chip (walk 64: "Wast1" under "Wastl").
    services.add_guest(tournament, "Wastl")
    with pytest.raises(TournamentError, match="Wastl spielt schon mit"):
        services.add_guest(tournament, "Wast1")
    assert tournament.participants.count() == 2


def test_whoever_has_played_withdraws_keeps_the_points_and_is_not_drawn_again(
    tournament, players, admin
):
    tournament.games_per_round = 2
    tournament.save()
    with_participants(tournament, players, 5)
    first = services.start_round(services.draw_round(tournament), admin)
    late = services.add_guest(tournament, "Ferdl")
    play_out(first, admin)
    leaving = tournament.participants.get(number=1)

    assert services.remove_participant(leaving) is True
    assert services.remove_participant(late) is False

    leaving.refresh_from_db()
    assert leaving.withdrawn_at is not None
    assert list(tournament.participants.values_list("number", flat=True)) == [1, 2, 3, 4, 5]
    # Round 2 is drawn and started without them: four at one table.
    second = services.start_round(services.draw_round(tournament), admin)
    assert sorted(len(table) for table in seating(second)) == [4]
    assert leaving.player.name not in seating(second)[0]
    # Their points of round 1 stay in the standings.
    standing = next(s for s in tournament_standings(tournament) if s.participant.pk == leaving.pk)
    assert standing.rounds[0] == leaving_points(first, leaving)


def test_start_numbers_do_not_move_when_someone_leaves(tournament, players):
    with_participants(tournament, players, 4)
    round_ = services.draw_round(tournament)

    services.remove_participant(tournament.participants.get(number=2))
    services.add_participants(tournament, [players[4]])

    assert list(tournament.participants.values_list("number", flat=True)) == [1, 3, 4, 5]
    # The drawn round has lost a seat: it is drawn again before it starts.
    assert sorted(len(table) for table in seating(round_)) == [3]


# -- the draw ---------------------------------------------------------------------------


def test_a_draw_stores_its_seed_and_the_same_seed_draws_the_same_tables_again(tournament, players):
    with_participants(tournament, players, 8)
    round_ = services.draw_round(tournament)
    first = seating(round_)

    services.draw_round(tournament, seed=round_.seed + 1)
    other = seating(round_)
    again = services.draw_round(tournament, seed=round_.seed)

    assert 0 <= round_.seed < services.SEED_RANGE
    assert again.pk == round_.pk and again.number == 1
    assert seating(again) == first
    assert other != first  # another seed, another draw (for these two seeds)
    # The tables are what tournaments.draw gives for the stored seed: anyone can check.
    ids = list(tournament.participants.values_list("pk", flat=True))
    names = dict(tournament.participants.values_list("pk", "player__name"))
    assert [[names[i] for i in table] for table in draw(ids, round_.seed)] == first


def test_nine_participants_sit_at_a_table_of_five_and_one_of_four(tournament, players):
    with_participants(tournament, players, 9)

    round_ = services.draw_round(tournament, seed=7)

    assert [len(table) for table in seating(round_)] == [5, 4]
    # Without a director, only Resi's table has someone to write: Resi, who has a login.
    resi = players[0]
    assert [
        (table.scorekeeper_id, table.seats.filter(participant__player=resi).exists())
        for table in round_.tables.all()
    ] in ([(resi.user_id, True), (None, False)], [(None, False), (resi.user_id, True)])


def test_the_director_who_draws_keeps_score_until_someone_else_is_named(tournament, players, admin):
    with_participants(tournament, players, 8)

    round_ = services.draw_round(tournament, by=admin)

    assert set(round_.tables.values_list("scorekeeper", flat=True)) == {admin.pk}


def test_a_table_where_a_schreiber_or_admin_sits_is_theirs_to_write(tournament, players, admin):
    sepp, vroni, hias = players[1], players[2], players[3]
    sepp.user = make_user("sepp", "Sepp")
    Membership.objects.create(
        user=sepp.user, club=tournament.club, role=Membership.Role.SCOREKEEPER
    )
    vroni.user = make_user("vroni", "Vroni")  # a login, but no longer in the club
    # A Spieler: writing would let him book, so only the director chooses him.
    hias.user = make_user("hias", "Hias")
    Membership.objects.create(user=hias.user, club=tournament.club, role=Membership.Role.PLAYER)
    for player in (sepp, vroni, hias):
        player.save()
    with_participants(tournament, players, 8)

    round_ = services.draw_round(tournament, by=admin, seed=4)

    expected = []
    for table in round_.tables.all():
        seated = [seat.participant.player for seat in table.seats.all()]
        first = next((p for p in seated if p in (players[0], sepp)), None)
        expected.append(first.user_id if first else admin.pk)
        assert table.scorekeeper_id == expected[-1]
    assert sepp.user_id in expected
    assert vroni.user_id not in expected and hias.user_id not in expected


def test_after_a_swap_the_tables_scorekeepers_follow_the_seats_unless_named(
    tournament, players, admin
):
    sepp = players[1]
    sepp.user = make_user("sepp", "Sepp")
    sepp.save()
    Membership.objects.create(
        user=sepp.user, club=tournament.club, role=Membership.Role.SCOREKEEPER
    )
    helper = make_user("kathi", "Kathi")  # a member who does not play: named by hand
    Membership.objects.create(user=helper, club=tournament.club, role=Membership.Role.PLAYER)
    with_participants(tournament, players, 11)
    services.add_guest(tournament, "Ferdl")
    round_ = services.draw_round(tournament, by=admin, seed=4)
    tables = list(round_.tables.all())
    here = next(t for t in tables if t.seats.filter(participant__player=sepp).exists())
    there = next(
        t
        for t in tables
        if t != here and not t.seats.filter(participant__player__user__isnull=False).exists()
    )
    named = next(t for t in tables if t not in (here, there))
    services.name_scorekeeper(named, helper)

    def first_with_login(table):
        users = [s.participant.player.user_id for s in table.seats.all()]
        return next((u for u in users if u is not None), admin.pk)

    a = tournament.participants.get(player=sepp)
    b = there.seats.first().participant
    services.swap(round_, a, b, by=admin)

    for table in tables:
        table.refresh_from_db()
    assert there.scorekeeper_id == sepp.user_id == first_with_login(there)
    assert here.scorekeeper_id == first_with_login(here) != sepp.user_id
    assert named.scorekeeper_id == helper.pk


def test_too_few_participants_are_refused_in_german(tournament, players):
    with_participants(tournament, players, 3)

    with pytest.raises(TournamentError, match="mindestens 4 Teilnehmer"):
        services.draw_round(tournament)
    assert not tournament.rounds.exists()


def test_a_double_tap_on_draw_draws_once(tournament, players):
    with_participants(tournament, players, 8)

    first = services.draw_round(tournament, number=1, replacing=None)
    second = services.draw_round(tournament, number=1, replacing=None)

    assert second.pk == first.pk and second.seed == first.seed
    assert tournament.rounds.count() == 1


def test_a_double_tap_on_redraw_redraws_once(tournament, players):
    with_participants(tournament, players, 8)
    shown = services.draw_round(tournament, seed=1).seed

    redrawn = services.draw_round(tournament, seed=2, number=1, replacing=shown)
    again = services.draw_round(tournament, seed=3, number=1, replacing=shown)

    assert redrawn.seed == again.seed == 2


def test_the_next_round_is_refused_until_every_table_has_its_games(tournament, players, admin):
    tournament.games_per_round = 2
    tournament.save()
    with_participants(tournament, players, 8)
    first = services.start_round(services.draw_round(tournament), admin)
    table = first.tables.first()
    deal = evenings.next_deal(table.evening)
    data = GameInput(type="rufspiel", declarer=deal.playing[0].pk, partner=deal.playing[1].pk)
    evenings.book_game(table.evening_id, uuid.uuid4(), data, admin, deal.token)

    with pytest.raises(TournamentError, match="Runde 1 ist noch nicht fertig"):
        services.draw_round(tournament)
    assert [t.booked for t in services.round_progress(first).tables] == [1, 0]
    assert not services.round_progress(first).complete

    evenings.void_game(table.evening_id, table.evening.games.get().pk, admin)
    play_out(first, admin)
    second = services.draw_round(tournament)

    assert services.round_progress(first).complete
    assert second.number == 2
    # Two tables of four: each new table has two from each old one, so the least
    # possible is one old pair from each, two a table.
    assert repeated_pairs(seating(second), [seating(first)]) == 4
    assert services.repeated_partners(second) == 4


def test_after_the_last_round_nothing_is_drawn_and_the_tournament_can_be_closed(
    tournament, players, admin
):
    tournament.round_count, tournament.games_per_round = 1, 1
    tournament.save()
    with_participants(tournament, players, 4)
    round_ = services.draw_round(tournament)

    with pytest.raises(TournamentError, match="wenn alle 1 Runden gespielt sind"):
        services.finish(tournament, admin)
    services.start_round(round_, admin)
    play_out(round_, admin)
    with pytest.raises(TournamentError, match="Alle 1 Runden sind ausgelost"):
        services.draw_round(tournament)
    services.finish(tournament, admin)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    with pytest.raises(TournamentError, match="abgeschlossen"):
        services.add_guest(tournament, "Ferdl")


# -- swaps and scorekeepers --------------------------------------------------------------


def test_two_players_of_different_tables_swap_seats(tournament, players):
    with_participants(tournament, players, 8)
    round_ = services.draw_round(tournament, seed=3)
    before = seating(round_)
    a = tournament.participants.get(player__name=before[0][1])
    b = tournament.participants.get(player__name=before[1][3])

    services.swap(round_, a, b, seating=services.seating_token(round_))

    after = seating(round_)
    assert after[0] == [before[0][0], before[1][3], *before[0][2:]]
    assert after[1] == [*before[1][:3], before[0][1]]


def test_a_swap_at_one_table_or_after_the_start_is_refused(tournament, players, admin):
    with_participants(tournament, players, 8)
    round_ = services.draw_round(tournament, seed=3)
    first, second = TableSeat.objects.filter(table__number=1).order_by("position")[:2]

    with pytest.raises(TournamentError, match="am selben Tisch"):
        services.swap(round_, first.participant, second.participant)
    other = TableSeat.objects.filter(table__round=round_, table__number=2).first()
    services.start_round(round_, admin)
    with pytest.raises(TournamentError, match="läuft schon"):
        services.swap(round_, first.participant, other.participant)


def test_a_swap_sent_twice_swaps_once(tournament, players):
    with_participants(tournament, players, 8)
    round_ = services.draw_round(tournament, seed=3)
    shown = services.seating_token(round_)
    a = TableSeat.objects.get(table__number=1, position=0).participant
    b = TableSeat.objects.get(table__number=2, position=0).participant
    services.swap(round_, a, b, seating=shown)
    swapped = seating(round_)

    with pytest.raises(StaleSeating):
        services.swap(round_, a, b, seating=shown)
    assert seating(round_) == swapped


def test_a_scorekeeper_must_be_a_member_of_the_club(tournament, players, scorekeeper, user):
    with_participants(tournament, players, 4)
    table = services.draw_round(tournament).tables.get()

    services.name_scorekeeper(table, scorekeeper)
    with pytest.raises(TournamentError, match="Mitglied"):
        services.name_scorekeeper(table, user)

    table.refresh_from_db()
    assert table.scorekeeper == scorekeeper


# -- starting a round -------------------------------------------------------------------


def test_starting_a_round_opens_an_evening_per_table_with_seats_label_limit_and_scorekeeper(
    tournament, players, admin, club
):
    vroni = make_user("vroni", "Vroni")
    Membership.objects.create(user=vroni, club=club, role=Membership.Role.PLAYER)
    with_participants(tournament, players, 9)
    round_ = services.draw_round(tournament, seed=11)
    services.name_scorekeeper(round_.tables.get(number=2), vroni)

    services.start_round(round_, admin)

    round_.refresh_from_db()
    tournament.refresh_from_db()
    assert round_.is_started
    assert tournament.status == Tournament.Status.RUNNING
    tables = list(round_.tables.select_related("evening"))
    for table, names in zip(tables, seating(round_), strict=True):
        evening = table.evening
        assert evening.runde == tournament.runde
        assert evening.label == f"Runde 1 · Tisch {table.number}"
        assert evening.game_limit == 40
        assert evening.first_dealer == 0
        assert list(evening.seats.values_list("player__name", flat=True)) == names
    assert [t.evening.scorekeeper for t in tables] == [admin, vroni]
    assert [t.scorekeeper for t in tables] == [admin, vroni]
    # The five at table 1: the first seat deals and sits out the first game.
    deal = evenings.next_deal(tables[0].evening)
    assert deal.dealer.name == seating(round_)[0][0]
    assert deal.dealer not in deal.playing


def test_a_round_with_someone_unseated_does_not_start(tournament, players, admin):
    with_participants(tournament, players, 8)
    round_ = services.draw_round(tournament)
    services.add_guest(tournament, "Ferdl")

    with pytest.raises(TournamentError, match="Ohne Platz an einem Tisch: Ferdl"):
        services.start_round(round_, admin)
    services.draw_round(tournament)
    services.start_round(round_, admin)

    assert [len(t) for t in seating(round_)] == [5, 4]


def test_starting_twice_starts_once(tournament, players, admin):
    with_participants(tournament, players, 8)
    round_ = services.draw_round(tournament)

    services.start_round(round_, admin)
    again = services.start_round(round_, admin)

    assert again.is_started
    assert Evening.objects.filter(runde=tournament.runde).count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_taps_on_start_at_the_same_moment_open_each_table_once(tournament, players, admin):
    with_participants(tournament, players, 8)
    round_ = services.draw_round(tournament)

    answers, raised = run_at_once(2, lambda _i: services.start_round(round_, admin).started_at)

    assert errors(raised) == []
    assert answers[0] == answers[1] is not None
    assert Evening.objects.filter(runde=tournament.runde).count() == 2
    assert round_.tables.filter(evening=None).count() == 0


def test_a_new_display_link_replaces_the_old_one_and_revoking_leaves_none(tournament):
    old = tournament.display_token

    renewed = services.renew_display_link(tournament).display_token
    revoked = services.renew_display_link(tournament, revoke=True).display_token

    assert renewed and renewed != old
    assert revoked is None


# -- the end: finishing, reopening, tables ended early ------------------------------------


def finished_with_one_round(tournament, players, admin):
    """Eight participants, one round of one game, played and finished."""
    tournament.round_count = tournament.games_per_round = 1
    tournament.save()
    with_participants(tournament, players, 8)
    round_ = services.start_round(services.draw_round(tournament, seed=5), admin)
    play_out(round_, admin)
    services.finish(tournament, admin)
    return round_


def test_finishing_closes_every_table_on_the_record_and_the_ranking_stays_final(
    tournament, players, admin, scorekeeper
):
    round_ = finished_with_one_round(tournament, players, admin)
    ranking = [(s.participant.pk, s.total) for s in tournament_standings(tournament)]
    evening_ids = list(round_.tables.values_list("evening_id", flat=True))

    assert set(Evening.objects.filter(pk__in=evening_ids).values_list("status", flat=True)) == {
        Evening.Status.CLOSED
    }
    closes = Change.objects.filter(evening__in=evening_ids, kind=Change.Kind.CLOSE)
    assert sorted(closes.values_list("evening_id", flat=True)) == sorted(evening_ids)
    assert {change.by for change in closes} == {admin}
    # Nothing at a table changes the final ranking: no undo, and the table stays closed.
    with pytest.raises(
        evenings.EveningError, match="Nichts zurückgenommen: dieser Tisch ist beendet"
    ):
        evenings.undo_last(evening_ids[0], scorekeeper)
    with pytest.raises(evenings.EveningError, match="Das Turnier ist abgeschlossen"):
        evenings.reopen_evening(evening_ids[0], admin)
    assert not Evening.objects.filter(pk__in=evening_ids, status=Evening.Status.OPEN).exists()
    assert not Change.objects.filter(evening__in=evening_ids, kind=Change.Kind.REOPEN).exists()
    assert [(s.participant.pk, s.total) for s in tournament_standings(tournament)] == ranking


def test_finishing_twice_closes_each_table_once(tournament, players, admin):
    round_ = finished_with_one_round(tournament, players, admin)

    services.finish(tournament, admin)

    evening_ids = round_.tables.values_list("evening_id", flat=True)
    assert Change.objects.filter(evening__in=evening_ids, kind=Change.Kind.CLOSE).count() == 2


def test_the_director_reopens_a_finished_tournament_and_then_a_table_for_a_late_correction(
    tournament, players, admin
):
    round_ = finished_with_one_round(tournament, players, admin)
    table = round_.tables.select_related("evening").get(number=1)
    game = table.evening.games.get()

    services.reopen(tournament)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    table.evening.refresh_from_db()
    assert not table.evening.is_open, "the tables stay closed until opened one by one"
    evenings.reopen_evening(table.evening_id, admin)
    lost = GameInput(type="rufspiel", declarer=game.declarer_id, partner=game.partner_id, won=False)
    evenings.correct_game(table.evening_id, game.pk, lost, admin)
    # Finished again: the corrected table is closed again, and the ranking counts the loss.
    services.finish(tournament, admin)
    table.evening.refresh_from_db()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert not table.evening.is_open
    points = {s.participant.player_id: s.total for s in tournament_standings(tournament)}
    assert points[game.declarer_id] == points[game.partner_id] == 0


def test_a_table_ended_early_keeps_its_games_and_completes_the_round(tournament, players, admin):
    """Someone leaves during the round: their table cannot play its games. The director
    ends it early; its games so far count, and the round (here the last) completes."""
    tournament.round_count, tournament.games_per_round = 1, 2
    tournament.save()
    with_participants(tournament, players, 8)
    round_ = services.start_round(services.draw_round(tournament, seed=5), admin)
    first, second = round_.tables.select_related("evening").order_by("number")
    for _ in range(2):
        book_one(first, admin)
    book_one(second, admin)
    leaving = second.seats.first().participant
    services.remove_participant(leaving)
    with pytest.raises(TournamentError, match="wenn alle 1 Runden gespielt sind"):
        services.finish(tournament, admin)
    with pytest.raises(TournamentError, match="hat schon alle 2 Spiele"):
        services.end_table_early(first, admin)

    ended = services.end_table_early(second, admin)
    again = services.end_table_early(second, admin)  # a double tap

    assert ended.ended_early_at is not None and again.ended_early_at == ended.ended_early_at
    second.evening.refresh_from_db()
    assert not second.evening.is_open
    close = Change.objects.get(evening=second.evening, kind=Change.Kind.CLOSE)
    assert close.by == admin
    progress = services.round_progress(round_)
    assert [(t.booked, t.complete, t.ended_early) for t in progress.tables] == [
        (2, True, False),
        (1, True, True),
    ]
    assert progress.complete
    # The one game played there counts: its winners have their 10 points.
    points = {s.participant.player_id: s.total for s in tournament_standings(tournament)}
    game = second.evening.games.get()
    assert points[game.declarer_id] == points[game.partner_id] == 10
    services.finish(tournament, admin)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_a_table_ended_early_and_opened_again_takes_corrections_but_no_new_game(
    tournament, players, admin
):
    """The director opens a table ended early to correct a game: its games so far still
    make the round, so it books nothing new, in this round or once the next has begun."""
    tournament.games_per_round = 3
    tournament.save()
    with_participants(tournament, players, 8)
    round_ = services.start_round(services.draw_round(tournament, seed=5), admin)
    first, second = round_.tables.select_related("evening").order_by("number")
    for _ in range(3):
        book_one(first, admin)
    book_one(second, admin)
    services.end_table_early(second, admin)
    evenings.reopen_evening(second.evening_id, admin)
    second.evening.refresh_from_db()

    with pytest.raises(evenings.EveningError, match="nur noch korrigieren"):
        book_one(second, admin)
    game = second.evening.games.get()
    corrected = dataclasses.replace(GameInput.of(game), laufende=2)
    evenings.correct_game(second.evening_id, game.pk, corrected, admin)

    assert second.evening.games.booked().count() == 1
    assert services.round_progress(round_).complete
    game.refresh_from_db()
    assert game.laufende == 2


def test_a_table_of_a_round_gone_by_takes_no_new_game_once_the_next_has_begun(
    tournament, players, admin
):
    tournament.games_per_round = 2
    tournament.save()
    with_participants(tournament, players, 8)
    first = services.start_round(services.draw_round(tournament, seed=5), admin)
    play_out(first, admin)
    table = first.tables.select_related("evening").order_by("number").first()
    services.start_round(services.draw_round(tournament, seed=6), admin)
    # A late correction: game 2 did not count (struck; "Letztes Spiel zurücknehmen" is not
    # offered here, where what it took back could not be booked again).
    evenings.void_game(table.evening_id, table.evening.games.get(number=2).pk, admin)

    with pytest.raises(evenings.EveningError, match="nur noch korrigieren"):
        book_one(table, admin)
    assert table.evening.games.booked().count() == 1
    # The round stays done: a table with a game struck late is not "running" again.
    progress = services.round_progress(first)
    assert progress.complete and all(t.complete and not t.ended_early for t in progress.tables)
    rounds = list(tournament.rounds.order_by("number"))
    participants = list(tournament.participants.all())
    old, new = services.rounds_progress(rounds, participants)
    assert old.complete and not new.complete


def test_a_table_is_ended_early_only_while_its_round_runs(tournament, players, admin):
    with_participants(tournament, players, 4)
    round_ = services.draw_round(tournament, seed=5)
    table = round_.tables.get()

    with pytest.raises(TournamentError, match="noch nicht gestartet"):
        services.end_table_early(table, admin)

    table.refresh_from_db()
    assert table.ended_early_at is None


def test_a_withdrawal_is_taken_back_and_they_are_drawn_again_from_the_next_round(
    tournament, players, admin
):
    tournament.games_per_round = 1
    tournament.save()
    with_participants(tournament, players, 8)
    first = services.start_round(services.draw_round(tournament, seed=5), admin)
    play_out(first, admin)
    leaving = tournament.participants.get(number=8)
    services.remove_participant(leaving)
    with pytest.raises(TournamentError, match="hat zurückgezogen"):
        services.add_guest(tournament, leaving.player.name)

    services.reinstate_participant(leaving)
    services.reinstate_participant(leaving)  # a double tap

    leaving.refresh_from_db()
    assert leaving.withdrawn_at is None
    second = services.draw_round(tournament, seed=5)
    assert TableSeat.objects.filter(round=second, participant=leaving).exists()
    assert sum(len(table) for table in seating(second)) == 8


def test_a_withdrawal_taken_back_after_the_draw_asks_for_a_new_draw(tournament, players, admin):
    tournament.games_per_round = 1
    tournament.save()
    with_participants(tournament, players, 9)
    play_out(services.start_round(services.draw_round(tournament, seed=5), admin), admin)
    leaving = tournament.participants.get(number=9)
    services.remove_participant(leaving)
    second = services.draw_round(tournament, seed=5)

    services.reinstate_participant(leaving)

    with pytest.raises(TournamentError, match="Ohne Platz an einem Tisch"):
        services.start_round(second, admin)
    second = services.draw_round(tournament, seed=5)
    assert TableSeat.objects.filter(round=second, participant=leaving).exists()
