"""The tournament pages in the director's browser, the members' view, the hall display:
each page's answer and the database afterwards."""

import dataclasses
import re
import uuid
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs import services as club_services
from clubs.models import Departure, Membership, Player
from evenings import services as evenings
from evenings.models import Change, Evening
from evenings.services import GameInput
from tests.conftest import make_user
from tests.tournaments.test_services import book_one, play_out
from tournaments import services
from tournaments.models import Round, Season, TableSeat, Tournament
from tournaments.standings import TIE_BREAK, tournament_standings


@pytest.fixture
def director(client, admin):
    client.force_login(admin)
    return client


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def drawn(tournament, players, count: int = 8, seed: int = 5) -> Round:
    services.add_participants(tournament, players[:count])
    return services.draw_round(tournament, seed=seed)


def played_out(tournament, players, admin) -> Round:
    """A tournament of one round of one game, drawn, started and played out."""
    tournament.round_count = tournament.games_per_round = 1
    tournament.save()
    round_ = services.start_round(drawn(tournament, players), admin)
    play_out(round_, admin)
    return round_


# -- the club's tournaments -------------------------------------------------------------


def test_the_club_page_links_to_its_tournaments(director, club, tournament):
    club_page = director.get(reverse("clubs:detail", args=[club.pk]))
    listing = director.get(url("list", club.pk))

    assert url("list", club.pk) in club_page.text
    assert "Stadtmeisterschaft" in listing.text
    assert url("create", club.pk) in listing.text


def test_a_new_tournament_starts_with_three_rounds_of_forty_games(director, club, admin):
    form = director.get(url("create", club.pk))

    response = director.post(
        url("create", club.pk),
        {
            "name": "Stadtmeisterschaft",
            "venue": "Gasthof Post",
            "date": "2026-03-14",
            "new_season": "ProHof 2026",
            "round_count": "3",
            "games_per_round": "40",
        },
    )

    assert form.context["form"]["round_count"].value() == 3
    assert form.context["form"]["games_per_round"].value() == 40
    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert response["Location"] == url("detail", tournament.pk)
    assert (tournament.venue, str(tournament.date)) == ("Gasthof Post", "2026-03-14")
    assert tournament.season.name == "ProHof 2026"
    assert tournament.created_by == admin


def test_a_name_another_runde_has_is_an_error_at_the_name(director, club, runde):
    response = director.post(
        url("create", club.pk),
        {"name": "donnerstagsrunde", "date": "2026-03-14", "round_count": "3",
         "games_per_round": "40"},
    )  # fmt: skip

    assert response.status_code == 200
    assert response.context["form"].errors["name"] == [
        "Diesen Namen trägt im Verein schon eine Runde oder ein Turnier."
    ]
    assert not Tournament.objects.exists()


def test_a_name_too_long_is_refused_with_its_length_not_cut_off(director, club):
    long_name = (
        "Offene Oberfränkische Schafkopfmeisterschaft um den Wanderpokal des Bezirks Hof 2026"
    )
    form = director.get(url("create", club.pk))

    response = director.post(
        url("create", club.pk),
        {"name": long_name, "venue": "Gasthof Post", "date": "2026-03-14",
         "new_season": "x" * 81, "round_count": "3", "games_per_round": "40"},
    )  # fmt: skip

    assert 'maxlength="80"' not in form.text  # a pasted name is not cut off unseen
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert errors["name"] == ["Höchstens 80 Zeichen, dieser Name hat 84."]
    assert errors["new_season"] == ["Höchstens 80 Zeichen, dieser Name hat 81."]
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("round_count", "0", "Bitte eine ganze Zahl von 1 bis 10 eingeben."),
        ("games_per_round", "201", "Bitte eine ganze Zahl von 1 bis 200 eingeben."),
        ("date", "31.02.2026", "Bitte ein Datum eingeben, z. B. 14.03.2026."),
        ("season", str(2**63), "Diese Saison gibt es im Verein nicht."),
    ],
)
def test_bad_settings_are_german_errors_at_their_field(director, club, field, value, message):
    body = {"name": "Turnier", "date": "2026-03-14", "round_count": "3", "games_per_round": "40"}

    response = director.post(url("create", club.pk), body | {field: value})

    assert response.status_code == 200
    assert response.context["form"].errors[field] == [message]
    assert not Tournament.objects.exists()


def test_rounds_and_games_are_fixed_once_round_one_has_started(
    director, tournament, players, admin
):
    services.start_round(drawn(tournament, players), admin)
    season = Season.objects.create(club=tournament.club, name="ProHof 2026")

    response = director.post(
        url("settings", tournament.pk),
        {"name": "Hofer Meisterschaft", "venue": "Hof", "date": "2026-03-15",
         "season": season.pk, "round_count": "5", "games_per_round": "10"},
    )  # fmt: skip

    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.runde.name) == ("Hofer Meisterschaft",) * 2
    assert tournament.season == season
    assert (tournament.round_count, tournament.games_per_round) == (3, 40)


def test_a_tournament_not_yet_played_is_deleted_with_its_draw_guests_and_season(
    director, club, tournament, players, admin
):
    season = Season.objects.create(club=club, name="Probe")
    tournament.season = season
    tournament.save()
    services.add_guest(tournament, "Ferdl")
    drawn(tournament, players, count=7)
    page = director.get(url("settings", tournament.pk))

    response = director.post(url("delete", tournament.pk), follow=True)

    assert "Ja, Stadtmeisterschaft löschen</button>" in page.text
    assert response.redirect_chain == [(url("list", club.pk), 302)]
    assert "„Stadtmeisterschaft“ ist gelöscht." in response.text
    assert "Noch kein Turnier." in response.text
    assert not Tournament.objects.exists()
    assert not TableSeat.objects.exists() and not Round.objects.exists()
    assert not club.runden.filter(name="Stadtmeisterschaft").exists()
    assert not Season.objects.exists()
    # The guest who played nowhere else goes; the club's players stay.
    assert not Player.objects.filter(name="Ferdl").exists()
    assert club.players.count() == len(players)
    # A second tap finds nothing left to delete.
    assert director.post(url("delete", tournament.pk)).status_code == 404


def test_a_tournament_once_played_is_not_deleted(director, club, tournament, players, admin):
    services.start_round(drawn(tournament, players), admin)
    page = director.get(url("settings", tournament.pk))

    response = director.post(url("delete", tournament.pk), follow=True)

    assert "Ja, Stadtmeisterschaft löschen" not in page.text
    assert "Turnier löschen …" not in page.text  # nothing offered that cannot be done
    assert "es bleibt erhalten, wie jeder Abend." in page.text
    assert response.redirect_chain == [(url("settings", tournament.pk), 302)]
    assert "In diesem Turnier wurde schon gespielt" in response.text
    assert Tournament.objects.get() == tournament
    assert Evening.objects.filter(runde=tournament.runde).count() == 2


def test_deleting_keeps_a_season_with_other_tournaments_and_a_guest_who_played_there(
    director, club, tournament, players, admin
):
    season = Season.objects.create(club=club, name="Probe")
    other = services.create_tournament(club, admin, name="Frühjahr", season=season)
    tournament.season = season
    tournament.save()
    services.add_guest(other, "Ferdl")
    services.add_guest(tournament, "ferdl")

    director.post(url("delete", tournament.pk))

    assert list(Tournament.objects.all()) == [other]
    assert Season.objects.get() == season
    assert other.participants.get().player.name == "Ferdl"


# -- participants -----------------------------------------------------------------------


def test_the_director_ticks_club_players_and_enters_a_guest_at_the_door(
    director, tournament, players
):
    page = director.get(url("detail", tournament.pk))
    ticked = director.post(
        url("participants", tournament.pk), {"players": [players[2].pk, players[1].pk]}
    )
    guest = director.post(url("guest", tournament.pk), {"name": "Ferdl"})

    assert "Spieler des Vereins melden" in page.text
    assert ticked.status_code == guest.status_code == 302
    assert list(tournament.participants.values_list("number", "player__name")) == [
        (1, "Sepp"),
        (2, "Vroni"),
        (3, "Ferdl"),
    ]
    ferdl = Player.objects.get(name="Ferdl")
    assert ferdl.guest and ferdl.active
    # A name too long for the list is refused at the field, not cut off.
    too_long = director.post(url("guest", tournament.pk), {"name": "F" * 41}, follow=True)
    assert "Höchstens 40 Zeichen, dieser Name hat 41." in too_long.text
    assert tournament.participants.count() == 3


def test_a_count_that_cannot_be_seated_is_said_at_the_list_before_the_draw(
    director, tournament, players, scorekeeper, admin
):
    """Seven at the door: the director reads it while people still come in, not only at
    the draw; with fewer than a table nothing is said yet, and eight can be seated."""
    services.add_participants(tournament, players[:3])
    three = director.get(url("detail", tournament.pk)).text
    services.add_participants(tournament, players[3:7])
    seven = director.get(url("detail", tournament.pk)).text
    director.force_login(scorekeeper)  # a Schreiber of the club, who does not direct
    watched = director.get(url("detail", tournament.pk))
    services.add_participants(tournament, players[7:8])
    director.force_login(admin)
    eight = director.get(url("detail", tournament.pk)).text

    said = "Mit 7 Teilnehmern lassen sich keine Tische zu 4 oder 5 bilden – bitte "
    assert said in seven
    assert "lassen sich keine Tische" not in three + eight
    assert watched.status_code == 200 and said not in watched.text  # the director's note


def test_the_guests_of_the_last_tournament_are_ticked_as_the_club_s_players_are(
    director, tournament, players, admin
):
    """Walk 72: the last tournament's twelve guests had to be typed again."""
    services.add_guest(tournament, "Ferdl Huber")
    services.add_participants(tournament, players[:1])
    older = services.create_tournament(tournament.club, admin, name="Herbst", venue="Post")
    services.add_guest(older, "Zenzl Maier")
    older.date -= timedelta(days=30)
    older.save()
    later = services.create_tournament(tournament.club, admin, name="Frühjahr", venue="Post")
    ferdl = Player.objects.get(name="Ferdl Huber")
    gone = make_user("gone", players[1].name)
    Departure.objects.create(club=tournament.club, user=gone, role="spieler", player=players[1])

    page = director.get(url("detail", later.pk)).text
    ticked = director.post(url("participants", later.pk), {"players": [ferdl.pk]})

    assert f'value="{ferdl.pk}"' in page and "Ferdl Huber (Gast)</label>" in page
    # Who left the club is marked (walk 74); the others are named as they are.
    assert f"{players[0].name}</label>" in page
    assert f"{players[1].name} (ausgeschieden)</label>" in page
    assert "Zenzl" not in page.split('<fieldset class="picks">')[1].split("</fieldset>")[0]
    assert ticked.status_code == 302
    assert list(later.participants.values_list("player__name", flat=True)) == ["Ferdl Huber"]


def test_a_guest_of_an_earlier_tournament_is_told_to_be_recognised(director, tournament, admin):
    services.add_guest(tournament, "Ferdl Huber")
    services.add_guest(tournament, "Anneliese Gross")
    later = services.create_tournament(tournament.club, admin, name="Frühjahr", venue="Post")

    again = director.post(url("guest", later.pk), {"name": "Ferdl  Huber"}, follow=True)
    new = director.post(url("guest", later.pk), {"name": "Girgl"}, follow=True)
    spelt = director.post(url("guest", later.pk), {"name": "anneliese gross"}, follow=True)

    # Neither tournament is part of a season: nothing is said of one.
    assert (
        "Ferdl Huber spielt als Gast mit (Startnummer 1), wiedererkannt aus einem früheren "
        "Turnier.</li>"
    ) in again.text
    assert "Girgl spielt als Gast mit (Startnummer 2).</li>" in new.text
    # Typed otherwise than first written down: the list shows the first, and says where
    # it is mended.
    assert (
        "Anneliese Gross spielt als Gast mit (Startnummer 3), wiedererkannt aus einem "
        "früheren Turnier. Eingegeben war „anneliese gross“; die Schreibweise ändert ein "
        "Tipp auf den Namen in der Liste."
    ) in spelt.text
    assert Player.objects.filter(name__iexact="Ferdl Huber").count() == 1
    # In a season, their points count together there.
    season = Season.objects.create(club=tournament.club, name="ProHof 2026")
    third = services.create_tournament(
        tournament.club, admin, name="Sommer", venue="Post", season=season
    )
    in_season = director.post(url("guest", third.pk), {"name": "Girgl"}, follow=True)
    assert (
        "Girgl spielt als Gast mit (Startnummer 1), wiedererkannt aus einem früheren "
        "Turnier. Die Punkte der Saison zählen zusammen."
    ) in in_season.text


def test_a_guests_typo_is_corrected_on_their_player_page_and_the_director_comes_back(
    director, club, tournament, players
):
    services.add_participants(tournament, players[:2])
    ferdl = services.add_guest(tournament, "Ferdl Hueber").player
    page = director.get(url("detail", tournament.pk))
    link = re.search(r'<a href="([^"]+)" aria-label="Ferdl Hueber umbenennen">', page.text)
    edit = reverse("clubs:player", args=[club.pk, ferdl.pk])
    assert link and link[1] == f"{edit}?next=/turnier/{tournament.pk}/%23teilnehmer"
    assert "Sepp umbenennen" not in page.text  # the club's players are renamed in the club

    form = director.get(link[1])
    saved = director.post(
        edit, {"name": "Ferdl Huber", "active": "on", "next": form.context["back"]}, follow=True
    )

    assert f'<input type="hidden" name="next" value="/turnier/{tournament.pk}/#teilnehmer">' in (
        form.text
    )
    assert saved.redirect_chain == [(f"/turnier/{tournament.pk}/#teilnehmer", 302)]
    assert "Ferdl Huber" in saved.text
    assert tournament.participants.get(number=3).player.name == "Ferdl Huber"
    # Anywhere else is no place to come back to: the players' list, as before.
    elsewhere = director.post(edit, {"name": "Ferdl", "active": "on", "next": "//evil.example/"})
    assert elsewhere.url == reverse("clubs:players", args=[club.pk])


def test_a_guest_named_like_a_club_player_is_an_error_at_the_name(director, tournament, players):
    response = director.post(url("guest", tournament.pk), {"name": "SEPP"})

    assert response.status_code == 200
    assert response.context["guest_form"].errors["name"] == [
        "Sepp ist Spieler des Vereins: bitte oben in der Liste ankreuzen. Ist es jemand "
        "anderes, unterscheide den Namen, z. B. mit dem Wohnort."
    ]
    assert not tournament.participants.exists()


def test_a_participant_is_removed_until_they_have_played_then_withdraws(
    director, tournament, players, admin
):
    services.add_participants(tournament, players[:5])
    gone = tournament.participants.get(number=5)

    response = director.post(url("remove", tournament.pk, gone.pk))

    assert response.status_code == 302
    assert list(tournament.participants.values_list("number", flat=True)) == [1, 2, 3, 4]
    services.start_round(services.draw_round(tournament), admin)
    page = director.get(url("detail", tournament.pk))
    # Who has played is not removed but withdraws, keeping the points: after a second
    # tap that names them.
    assert "Entfernen" not in page.text
    assert page.text.count("Zurückziehen …</summary>") == 4
    played = tournament.participants.first()
    assert f"Ja, {played.player.name} zieht zurück</button>" in page.text

    withdrawn = director.post(url("remove", tournament.pk, played.pk))

    played.refresh_from_db()
    assert played.withdrawn_at is not None
    assert withdrawn.url == url("detail", tournament.pk) + "#teilnehmer"  # back to the list
    page = director.get(url("detail", tournament.pk))
    name = played.player.name
    assert (
        f"{name} zieht zurück: die Punkte bleiben, ausgelost wird ohne {name}. Tisch 1 spielt "
        f"diese Runde mit {name} weiter"
    ) in page.text
    assert ">Teilnehmer (4, 3 spielen weiter)</h2>" in page.text
    # Still at the running table: marked there, for the director to end it early.
    assert f'{played.player.name} <span class="pill">zurückgezogen</span>' in page.text
    assert page.text.count("Zurückziehen …</summary>") == 3
    assert page.text.count("Wieder aufnehmen</button>") == 1
    refused = director.post(url("remove", tournament.pk, tournament.participants.first().pk))
    assert refused.status_code == 302
    assert tournament.participants.count() == 4
    # With no table playing (the round ended), no table is named (walk 40).
    services.end_table_early(tournament.rounds.get().tables.get(), admin)
    other = tournament.participants.filter(withdrawn_at=None).last()
    director.post(url("remove", tournament.pk, other.pk))
    page = director.get(url("detail", tournament.pk)).text
    assert f"{other.player.name} zieht zurück: die Punkte bleiben" in page
    assert "spielt diese Runde mit" not in page.split("<main")[1].split("teilnehmer-heading")[0]
    # Finished, nobody plays on.
    Tournament.objects.filter(pk=tournament.pk).update(round_count=1)
    tournament.refresh_from_db()
    services.finish(tournament, admin)
    assert ">Teilnehmer (4)</h2>" in director.get(url("detail", tournament.pk)).text


# -- the draw ---------------------------------------------------------------------------


def test_drawing_a_round_shows_its_seed_tables_and_who_deals_first(director, tournament, players):
    services.add_participants(tournament, players[:8])

    response = director.post(url("draw", tournament.pk), {"number": "1"}, follow=True)

    round_ = tournament.rounds.get()
    assert response.redirect_chain == [(url("detail", tournament.pk) + "#runde-1", 302)]
    assert f'<strong class="seed">{round_.seed}</strong>' in response.text
    first = TableSeat.objects.get(table__round=round_, table__number=1, position=0)
    assert "Tisch 1" in response.text and "Tisch 2" in response.text
    assert f'{first.participant.player.name} <span class="pill">gibt zuerst</span>' in (
        response.text
    )
    assert round_.tables.filter(scorekeeper=tournament.created_by).count() == 2


def test_a_double_tap_on_draw_draws_once(director, tournament, players):
    services.add_participants(tournament, players[:8])

    director.post(url("draw", tournament.pk), {"number": "1"})
    seed = tournament.rounds.get().seed
    director.post(url("draw", tournament.pk), {"number": "1"})

    assert tournament.rounds.get().seed == seed


def test_a_published_draw_is_redone_with_its_seed(director, tournament, players):
    round_ = drawn(tournament, players, seed=5)
    seats = TableSeat.objects.filter(round=round_).order_by("participant")
    published = list(seats.values_list("participant", "table__number", "position"))
    services.draw_round(tournament, seed=6)

    response = director.post(
        url("draw", tournament.pk), {"number": "1", "replacing": "6", "seed": "5"}
    )

    assert response.status_code == 302
    round_.refresh_from_db()
    assert round_.seed == 5
    assert list(seats.values_list("participant", "table__number", "position")) == published


@pytest.mark.parametrize("seed", ["-1", str(2**63), "abc"])
def test_a_bad_seed_is_an_error_at_the_seed(director, tournament, players, seed):
    round_ = drawn(tournament, players, seed=5)

    response = director.post(
        url("draw", tournament.pk), {"number": "1", "replacing": "5", "seed": seed}
    )

    assert response.status_code == 200
    assert response.context["redraw_form"].errors["seed"] == ["Der Seed ist eine ganze Zahl ab 0."]
    round_.refresh_from_db()
    assert round_.seed == 5


def test_too_few_participants_for_a_table_say_so_in_german(director, tournament, players):
    services.add_participants(tournament, players[:3])

    response = director.post(url("draw", tournament.pk), {"number": "1"})

    assert response.status_code == 200
    assert "Für die Tische braucht es mindestens 4 Teilnehmer, gemeldet sind 3." in (response.text)
    assert not tournament.rounds.exists()


def test_nine_participants_sit_at_a_table_of_five_and_the_page_says_how_points_compare(
    director, tournament, players
):
    drawn(tournament, players, count=9)

    page = director.get(url("detail", tournament.pk))

    assert "5 am Tisch: der Geber setzt aus" in page.text
    assert "jeder spielt 32 von 40 Spielen" in page.text
    assert "Punkte werden nicht umgerechnet" in page.text
    # A round of 6: four of the five play 5 games, the one who deals twice 4.
    tournament.games_per_round = 6
    tournament.save(update_fields=["games_per_round"])
    assert (
        "jeder spielt 5 bis 6 von 6 Spielen" not in director.get(url("detail", tournament.pk)).text
    )
    assert "jeder spielt 4 bis 5 von 6 Spielen" in director.get(url("detail", tournament.pk)).text
    # A round of 2: three play both, the two who deal one (walk 41: "etwa 2 von 2").
    tournament.games_per_round = 2
    tournament.save(update_fields=["games_per_round"])
    assert "jeder spielt 1 bis 2 von 2 Spielen" in director.get(url("detail", tournament.pk)).text


def test_two_players_of_different_tables_swap_before_the_round_starts(
    director, tournament, players
):
    round_ = drawn(tournament, players)
    a = TableSeat.objects.get(table__round=round_, table__number=1, position=1)
    b = TableSeat.objects.get(table__round=round_, table__number=2, position=2)
    # Offered by name and start number, not as "17. Rosi", a place (walk 72).
    page = director.get(url("detail", tournament.pk)).text
    offered = f'<option value="{a.participant_id}">{a.participant.player.name} (Nr. '
    assert f"{offered}{a.participant.number})</option>" in page

    response = director.post(
        url("swap", tournament.pk, 1),
        {"a": a.participant_id, "b": b.participant_id, "seating": services.seating_token(round_)},
    )

    assert response.status_code == 302
    assert TableSeat.objects.get(participant=a.participant).table.number == 2
    assert TableSeat.objects.get(participant=b.participant).position == 1


def test_a_table_s_scorekeeper_removed_from_the_club_is_said_to_enter_nothing(
    director, tournament, players
):
    round_ = drawn(tournament, players)
    vroni = make_user("vroni", "Veronika")
    membership = Membership.objects.create(
        user=vroni, club=tournament.club, role=Membership.Role.PLAYER
    )
    table = round_.tables.get(number=1)
    services.name_scorekeeper(table, vroni)
    gone = "(nicht mehr im Verein: kann nichts eintragen)"
    assert gone not in director.get(url("detail", tournament.pk)).text

    membership.delete()

    page = director.get(url("detail", tournament.pk)).text
    assert f"Schreiber: Veronika <strong>{gone}</strong>" in page


SWAPPED = "danach von Hand geändert: der Seed allein ergibt diese Tische nicht mehr."


def test_after_a_swap_the_seed_is_said_to_give_the_tables_no_more_until_a_new_draw(
    director, tournament, players
):
    round_ = drawn(tournament, players, seed=5)
    assert SWAPPED not in director.get(url("detail", tournament.pk)).text
    a = TableSeat.objects.get(table__round=round_, table__number=1, position=1)
    b = TableSeat.objects.get(table__round=round_, table__number=2, position=2)
    services.swap(round_, a.participant, b.participant)

    assert SWAPPED in director.get(url("detail", tournament.pk)).text

    director.post(url("draw", tournament.pk), {"number": "1", "replacing": "5", "seed": "5"})
    page = director.get(url("detail", tournament.pk)).text
    assert '<strong class="seed">5</strong>' in page
    assert SWAPPED not in page
    assert Round.objects.get(pk=round_.pk).swapped_at is None


def test_two_swapped_back_are_the_seed_s_tables_again(director, tournament, players):
    """Swapped and swapped back, the tables are what the seed gives: no word that they
    were changed by hand (walk 28)."""
    round_ = drawn(tournament, players, seed=5)
    a = TableSeat.objects.get(table__round=round_, table__number=1, position=1).participant
    b = TableSeat.objects.get(table__round=round_, table__number=2, position=2).participant
    services.swap(round_, a, b)
    assert Round.objects.get(pk=round_.pk).swapped_at is not None

    services.swap(round_, a, b)

    assert SWAPPED not in director.get(url("detail", tournament.pk)).text
    assert Round.objects.get(pk=round_.pk).swapped_at is None


def test_a_swap_that_seats_someone_at_the_table_of_five_again_is_said_on_the_page(
    director, tournament, players, admin
):
    """Nine participants: the draw gives round 2's table of 5 to four who have not sat at
    one and one who has. The director swaps a second one of round 1's five to it: the
    page names both, as they play fewer games than the field needs them to."""
    tournament.games_per_round = 1
    tournament.save()
    first = services.start_round(drawn(tournament, players, count=9), admin)
    play_out(first, admin)
    five = {
        seat.participant_id
        for seat in TableSeat.objects.filter(table__round=first, table__number=1)
    }
    second = services.draw_round(tournament, seed=8)
    big = TableSeat.objects.filter(table__round=second, table__number=1)
    assert len({seat.participant_id for seat in big} & five) == 1
    assert "Öfter am Fünfertisch als nötig" not in director.get(url("detail", tournament.pk)).text
    newcomer = next(seat for seat in big if seat.participant_id not in five)
    again = (
        TableSeat.objects.filter(table__round=second, table__number=2, participant__in=five)
        .order_by("position")
        .first()
    )

    services.swap(second, newcomer.participant, again.participant)

    page = director.get(url("detail", tournament.pk)).text
    twice = sorted(
        f"{seat.participant.player.name} (zum 2. Mal)"
        for seat in TableSeat.objects.filter(table__round=second, table__number=1)
        if seat.participant_id in five
    )
    assert len(twice) == 2
    assert "Öfter am Fünfertisch als nötig:" in page
    assert all(name in page for name in twice)
    assert "Andere an Vierertischen saßen seltener an einem" in page
    # ... and with whom one swap spreads them evenly again (walk 72).
    assert (
        "Ein Tausch gleicht es aus, einer von ihnen mit: "
        f"{newcomer.participant.player.name} (noch nie am Fünfertisch)."
    ) in page
    assert TableSeat.objects.filter(table__round=second, table__number=1).count() == 5


def test_taking_someone_off_a_table_of_five_after_the_draw_says_the_seed_gives_it_no_more(
    director, tournament, players
):
    round_ = drawn(tournament, players, count=9)  # a table of five and one of four
    five = next(t for t in round_.tables.all() if t.seats.count() == 5)
    leaving = five.seats.last().participant

    director.post(url("remove", tournament.pk, leaving.pk))

    page = director.get(url("detail", tournament.pk)).text
    assert five.seats.count() == 4  # still a table: no new draw asked for
    assert SWAPPED in page


def test_a_draw_a_participant_joined_after_offers_the_new_draw_not_the_start(
    director, tournament, players
):
    """Walk 83: "Runde 1 starten …" was offered, and refused when tapped."""
    drawn(tournament, players, count=8)
    start = "Runde 1 starten …"
    drawn_page = director.get(url("detail", tournament.pk)).text
    assert start in drawn_page and "Tischkarten drucken" in drawn_page

    added = director.post(url("guest", tournament.pk), {"name": "Kathl"}, follow=True).text

    # Said where the page lands, at the list (walk 85: the note was above, out of view).
    assert "Kathl spielt als Gast mit (Startnummer 9). Runde 1 ist schon ausgelost: bitte neu " in (
        added
    )
    page = director.get(url("detail", tournament.pk)).text
    assert "Die Teilnehmer haben sich nach der Auslosung geändert: bitte neu auslosen." in page
    assert start not in page and "{#" not in page
    assert "Tischkarten drucken" not in page  # not the cards of a draw to be redone
    assert '<details class="director" open>\n              <summary>Neu auslosen</summary>' in page


def test_a_swap_at_one_table_is_an_error_on_the_page(director, tournament, players):
    round_ = drawn(tournament, players)
    a, b = TableSeat.objects.filter(table__round=round_, table__number=1)[:2]
    before = list(TableSeat.objects.values_list("participant", "table", "position"))

    response = director.post(
        url("swap", tournament.pk, 1),
        {"a": a.participant_id, "b": b.participant_id, "seating": services.seating_token(round_)},
    )

    assert response.status_code == 200
    assert response.context["rounds"][0].swap_form.non_field_errors() == [
        "Die beiden sitzen am selben Tisch: bitte zwei von verschiedenen Tischen wählen."
    ]
    assert list(TableSeat.objects.values_list("participant", "table", "position")) == before


def test_a_swap_sent_after_the_round_started_says_why_and_changes_nothing(
    director, tournament, players, admin
):
    round_ = drawn(tournament, players)
    shown = services.seating_token(round_)
    a = TableSeat.objects.get(table__round=round_, table__number=1, position=0)
    b = TableSeat.objects.get(table__round=round_, table__number=2, position=0)
    services.start_round(round_, admin)  # on another phone, meanwhile

    response = director.post(
        url("swap", tournament.pk, 1),
        {"a": a.participant_id, "b": b.participant_id, "seating": shown},
    )

    assert response.status_code == 200
    assert "Runde 1 läuft schon: die Tische stehen fest." in response.text
    assert TableSeat.objects.get(pk=a.pk).participant_id == a.participant_id


def test_the_director_names_a_scorekeeper_for_each_table(
    director, tournament, players, player_user, scorekeeper, admin
):
    drawn(tournament, players)

    response = director.post(
        url("scorekeepers", tournament.pk, 1),
        {"tisch_1": player_user.pk, "tisch_2": scorekeeper.pk},
    )
    outsider = make_user("niemand", "Niemand")
    refused = director.post(
        url("scorekeepers", tournament.pk, 1), {"tisch_1": outsider.pk, "tisch_2": admin.pk}
    )

    assert response.status_code == 302
    assert refused.status_code == 200
    assert refused.context["rounds"][0].scorekeepers_form.errors == {
        "tisch_1": ["Schreiber kann nur ein Mitglied des Vereins sein."]
    }
    assert list(tournament.rounds.get().tables.values_list("scorekeeper", flat=True)) == [
        player_user.pk,
        scorekeeper.pk,
    ]


def test_a_table_s_scorekeeper_is_named_as_they_play_in_the_club(
    director, tournament, players, player_user
):
    """The account "Veronika" plays as Sepp's player here (any name of the club): at the
    table, on the page and on the card it is that player, not a second person."""
    player_user.first_name = "Veronika"
    player_user.save()
    played = players[1]
    played.user = player_user
    played.save()
    outsider = make_user("wirt", "Alois")  # a member who plays under no name of the club
    Membership.objects.create(user=outsider, club=tournament.runde.club, role="schreiber")
    round_ = drawn(tournament, players)
    answer = director.post(
        url("scorekeepers", tournament.pk, 1), {"tisch_1": player_user.pk, "tisch_2": outsider.pk}
    )
    assert answer.status_code == 302
    services.start_round(round_, tournament.created_by)

    page = director.get(url("detail", tournament.pk)).text
    card = director.get(url("cards", tournament.pk, 1)).text

    for shown in (page, card):
        assert shown.count(f"Schreiber: {played.name}") == 1
        assert "Schreiber: Veronika" not in shown
        assert shown.count("Schreiber: Alois") == 1


# -- a round running --------------------------------------------------------------------


def test_during_the_round_a_table_is_handed_to_another_phone_on_the_record(
    director, client, tournament, players, player_user, scorekeeper, admin
):
    round_ = drawn(tournament, players)
    services.name_scorekeepers([(round_.tables.get(number=1), player_user)])
    services.start_round(round_, admin)
    table = round_.tables.get(number=1)

    response = director.post(
        url("scorekeepers", tournament.pk, 1), {"tisch_1": scorekeeper.pk, "tisch_2": admin.pk}
    )

    assert response.status_code == 302
    table.refresh_from_db()
    table.evening.refresh_from_db()
    assert table.scorekeeper == table.evening.scorekeeper == scorekeeper
    handover = table.evening.changes.get(kind="scorer")
    assert (handover.by, handover.after) == (admin, {"scorekeeper": scorekeeper.pk})
    # The Spieler who kept score before may no longer book at that table.
    client.force_login(player_user)
    assert (
        client.get(reverse("evenings:detail", args=[table.evening_id])).context["can_score"]
        is False
    )


def test_starting_a_round_opens_each_table_and_the_page_counts_its_games(
    director, tournament, players, admin
):
    round_ = drawn(tournament, players)

    director.post(url("start", tournament.pk, 1))
    director.post(url("start", tournament.pk, 1))  # a double tap
    page = director.get(url("detail", tournament.pk))

    tables = list(round_.tables.select_related("evening"))
    assert Evening.objects.filter(runde=tournament.runde).count() == 2
    assert [t.evening.label for t in tables] == ["Runde 1 · Tisch 1", "Runde 1 · Tisch 2"]
    assert page.text.count("Spiel 1 von 40") == 2
    assert page.text.count("Zum Tisch (Eingabe)") == 2
    # A Spieler who keeps no sheet there is shown the tables' sheets, not "Eingabe".
    spieler = make_user("wastl", "Wastl")
    Membership.objects.create(user=spieler, club=tournament.club, role=Membership.Role.PLAYER)
    watching = Client()
    watching.force_login(spieler)
    watched = watching.get(url("detail", tournament.pk)).text
    assert watched.count("Zum Tisch (Blatt)") == 2 and "Eingabe" not in watched
    assert reverse("evenings:detail", args=[tables[0].evening_id]) in page.text
    assert "Zwei Spieler tauschen" not in page.text
    # A table's screen reads its standing out as points (a money evening's: in Euro).
    table = director.get(reverse("evenings:detail", args=[tables[0].evening_id]))
    assert 'id="standing" class="standing cols-4" aria-label="Spielstand in Punkten"' in table.text
    assert "Runde 2 auslosen" not in page.text


def test_the_next_round_is_offered_when_every_table_has_its_games(
    director, tournament, players, admin
):
    tournament.games_per_round = 1
    tournament.save()
    round_ = services.start_round(drawn(tournament, players), admin)
    early = director.post(url("draw", tournament.pk), {"number": "2"})

    play_out(round_, admin)
    page = director.get(url("detail", tournament.pk))
    director.post(url("draw", tournament.pk), {"number": "2"})

    assert early.status_code == 200
    assert "Runde 1 ist noch nicht fertig" in early.text
    assert "Runde 1 ist fertig" in page.text
    assert "Runde 2 auslosen" in page.text
    assert tournament.rounds.count() == 2


def test_a_finished_tournament_tells_of_its_tables_of_five_as_past(
    director, tournament, players, admin
):
    """Walk 72: "An einem Fünfertisch setzt der Geber … Die Auslosung verteilt …" stayed
    after the tournament was over."""
    tournament.round_count = tournament.games_per_round = 1
    tournament.save()
    round_ = services.start_round(drawn(tournament, players, count=9), admin)
    play_out(round_, admin)
    running = director.get(url("detail", tournament.pk)).text

    director.post(url("finish", tournament.pk))

    closed = director.get(url("detail", tournament.pk)).text
    assert "An einem Fünfertisch setzt der Geber jedes Spiel aus" in running
    assert "An einem Fünfertisch setzte der Geber jedes Spiel aus" in closed
    assert "setzt der Geber" not in closed and "Die Auslosung verteilt" not in closed


def test_after_the_last_round_the_director_closes_the_tournament(
    director, tournament, players, admin
):
    round_ = played_out(tournament, players, admin)

    page = director.get(url("detail", tournament.pk))
    director.post(url("finish", tournament.pk))
    closed = director.get(url("detail", tournament.pk))

    # A second step that says what finishing does.
    assert "<summary>Turnier abschließen …</summary>" in page.text
    assert "Danach sind alle Tische geschlossen" in page.text
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert "Endstand" in closed.text
    # The standings link to how points are made (walk 23: only the list of tournaments did).
    assert f'<a href="{reverse("clubs:rules_prohof")}">Die Regeln: wie gepunktet wird</a>' in (
        closed.text
    )
    assert "Gast melden" not in closed.text
    assert "Turnier wieder öffnen" in closed.text
    assert not Evening.objects.filter(table__round=round_, status=Evening.Status.OPEN).exists()


def test_a_correction_link_of_a_finished_tournament_says_to_open_the_tournament_first(
    director, tournament, players, admin
):
    """The table's page offers no "Wieder öffnen" while the tournament is finished: the
    answer said the director should open the table, which they could not."""
    round_ = played_out(tournament, players, admin)
    services.finish(tournament, admin)
    table = round_.tables.get(number=1)
    game = table.evening.games.get()
    before = list(game.ledger.values_list("player_id", "amount"))
    correction = reverse("evenings:game", args=[table.evening_id, game.pk])

    shown = director.get(correction, follow=True)
    posted = director.post(correction, {"k-spiel": "wenz"}, follow=True)

    # The table's note gives no time: the tournament's end is not when this table
    # played its last game (walk 40), which its Verlauf says.
    assert (
        '<p class="alert closed-note">Dieser Tisch ist beendet.</p>'
        in director.get(reverse("evenings:detail", args=[table.evening_id])).text
    )
    for answer in (shown, posted):
        assert answer.redirect_chain == [(reverse("evenings:detail", args=[table.evening_id]), 302)]
        assert (
            "Das Turnier ist abgeschlossen – nichts geändert. Für eine Korrektur öffnet die "
            f'Turnierleitung erst das Turnier wieder, dann den Tisch: <a href="'
            f'{url("detail", tournament.pk)}">Zum Turnier</a>'
        ) in answer.text
        assert "wenn die Turnierleitung den Tisch wieder öffnet" not in answer.text
    game.refresh_from_db()
    assert game.is_booked and game.type == "rufspiel"
    assert list(game.ledger.values_list("player_id", "amount")) == before
    # Open again, the table's own words: it is the table that needs opening now.
    services.reopen(tournament)
    again = director.get(correction, follow=True)
    assert "wenn die Turnierleitung den Tisch wieder öffnet" in again.text


def test_a_finished_tournament_is_reopened_by_the_director_and_its_tables_one_by_one(
    director, client, tournament, players, admin
):
    round_ = played_out(tournament, players, admin)
    services.finish(tournament, admin)
    table = round_.tables.get(number=1)

    refused = director.post(reverse("evenings:reopen", args=[table.evening_id]), follow=True)

    assert "Das Turnier ist abgeschlossen, die Rangliste steht" in refused.text
    assert Evening.objects.get(pk=table.evening_id).status == Evening.Status.CLOSED

    reopened = director.post(url("reopen", tournament.pk), follow=True)
    director.post(reverse("evenings:reopen", args=[table.evening_id]))

    assert "Das Turnier ist wieder offen." in reopened.text
    assert "<summary>Turnier abschließen …</summary>" in reopened.text
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert list(
        Evening.objects.filter(table__round=round_)
        .order_by("table__number")
        .values_list("status", flat=True)
    ) == [Evening.Status.OPEN, Evening.Status.CLOSED]
    assert Change.objects.filter(evening_id=table.evening_id, kind=Change.Kind.REOPEN).exists()
    # Its history says what the table's page says (walk 55): corrections only.
    history = director.get(reverse("evenings:history", args=[table.evening_id])).text
    assert (
        "<strong>Tisch wieder geöffnet</strong></div>"
        "<div>nur zum Korrigieren: an diesem Tisch wird nicht mehr gespielt</div>"
    ) in history


def test_the_director_ends_a_table_early_and_the_page_says_so(
    director, client, tournament, players, admin
):
    tournament.games_per_round = 2
    tournament.save()
    round_ = services.start_round(drawn(tournament, players), admin)
    first, second = round_.tables.select_related("evening").order_by("number")
    book_one(first, admin)
    book_one(first, admin)
    book_one(second, admin)
    page = director.get(url("detail", tournament.pk))

    answer = director.post(url("end_table", tournament.pk, 1, 2), follow=True)

    # Offered with a second step at the table still playing only.
    assert page.text.count(">Tisch vorzeitig beenden …</summary>") == 1
    assert "Ja, Tisch 2 beenden</button>" in page.text
    assert "Tisch 2 ist vorzeitig beendet: die Spiele bis dahin (1 von 2) zählen." in answer.text
    assert "1 von 2 Spielen · vorzeitig beendet" in answer.text
    assert "Runde 1 ist fertig" in answer.text
    assert "Runde 2 auslosen" in answer.text
    assert "Tisch vorzeitig beenden" not in answer.text
    second.refresh_from_db()
    assert second.ended_early_at is not None
    assert Evening.objects.get(pk=second.evening_id).status == Evening.Status.CLOSED
    assert Change.objects.get(evening_id=second.evening_id, kind=Change.Kind.CLOSE).by == admin
    hall = client.get(url("hall", tournament.display_token))
    assert '<span class="hall-counter">vorzeitig beendet</span>' in hall.text
    closed = director.get(reverse("evenings:print", args=[second.evening_id])).text
    assert "· vorzeitig beendet um " in closed and "abgeschlossen um" not in closed
    # A phone at the table with its form loads the page again, told why in the
    # tournament's words (not "Der Abend wurde abgeschlossen").
    poll = director.get(
        reverse("evenings:sheet", args=[second.evening_id]),
        {"v": "1", "deal": "shown"},
        headers={"HX-Request": "true"},
    )
    assert poll["HX-Refresh"] == "true"
    table_page = director.get(reverse("evenings:detail", args=[second.evening_id])).text
    assert "Die Turnierleitung hat den Tisch beendet: hier wird nichts mehr gebucht." in table_page
    # Its note says when and how it ended (walk 40: it said only "beendet").
    ended_at = timezone.localtime(second.ended_early_at).strftime("%H:%M")
    assert (
        f'Dieser Tisch ist beendet. <span class="muted">Von der Turnierleitung um {ended_at} '
        "vorzeitig beendet; die Spiele bis dahin zählen.</span>"
    ) in table_page

    # Opened again for a correction, the table offers no entry form: it books nothing new.
    reopened = director.post(reverse("evenings:reopen", args=[second.evening_id]), follow=True)
    assert "Zum Korrigieren offen: an diesem Tisch wird nicht mehr gespielt." in reopened.text
    assert "beendet" not in reopened.text.split("<main")[1].split("Zum Korrigieren offen")[0]
    assert 'id="entry"' not in reopened.text and 'name="declarer"' not in reopened.text
    # A phone with the form from before books nothing, and is told why.
    deal = evenings.next_deal(Evening.objects.get(pk=second.evening_id))
    form = {"key": str(uuid.uuid4()), "deal": deal.token, "spiel": "wenz", "won": "1",
            "laufende": "1", "laufende_wenz": "1", "declarer": str(deal.playing[0].pk)}  # fmt: skip
    director.post(
        reverse("evenings:book", args=[second.evening_id]), form, headers={"HX-Request": "true"}
    )
    told = director.get(reverse("evenings:detail", args=[second.evening_id])).text
    assert (
        "Dieser Tisch ist beendet: hier lässt sich nur noch korrigieren – nichts gebucht." in told
    )
    assert Evening.objects.get(pk=second.evening_id).games.count() == 1
    assert "1 von 2 Spielen · vorzeitig beendet" in director.get(url("detail", tournament.pk)).text
    printed = director.get(reverse("evenings:print", args=[second.evening_id])).text
    assert "· Tisch vorzeitig beendet<br>" in printed


def test_a_withdrawal_asks_first_and_is_taken_back_with_wieder_aufnehmen(
    director, tournament, players, admin
):
    tournament.games_per_round = 1
    tournament.save()
    play_out(services.start_round(drawn(tournament, players), admin), admin)
    leaving = tournament.participants.get(number=8)
    director.post(url("remove", tournament.pk, leaving.pk))
    again = director.post(url("guest", tournament.pk), {"name": leaving.player.name})

    back = director.post(url("reinstate", tournament.pk, leaving.pk), follow=True)

    assert "hat zurückgezogen (Startnummer 8)" in again.text
    assert f"{leaving.player.name} ist wieder dabei" in back.text
    assert "Wieder aufnehmen</button>" not in back.text
    leaving.refresh_from_db()
    assert leaving.withdrawn_at is None
    director.post(url("draw", tournament.pk), {"number": "2"})
    assert TableSeat.objects.filter(round__number=2, participant=leaving).exists()


def test_a_draw_asked_for_a_started_round_says_nothing_was_drawn(
    director, tournament, players, admin
):
    round_ = services.start_round(drawn(tournament, players, seed=5), admin)
    seats = list(TableSeat.objects.filter(round=round_).values_list("pk", "participant"))

    answer = director.post(
        url("draw", tournament.pk), {"number": "1", "replacing": "5", "seed": "9"}, follow=True
    )

    assert "Runde 1 ist schon gestartet: die Tische stehen fest, es wurde nichts ausgelost." in (
        answer.text
    )
    assert "ist ausgelost" not in answer.text
    round_.refresh_from_db()
    assert round_.seed == 5
    assert list(TableSeat.objects.filter(round=round_).values_list("pk", "participant")) == seats


def test_a_pair_meeting_a_third_time_is_one_pair_on_the_page(director, tournament, players, admin):
    """Four participants sit at the one table every round: in round 3 its six pairs
    meet again (for the third time), and the page says six, not twelve."""
    tournament.games_per_round = 1
    tournament.save()
    services.add_participants(tournament, players[:4])
    for _ in range(2):
        play_out(services.start_round(services.draw_round(tournament), admin), admin)
    services.draw_round(tournament)

    page = director.get(url("detail", tournament.pk))

    assert "6 Paare sitzen wieder zusammen" in page.text
    # Not "as few as possible" alone: a director counting pairs may find draws with fewer
    # that seat a pair together a third time, which the draw avoids first.
    # Said from round 3 on only: in round 2 nobody can meet a third time.
    assert page.text.count("Ein drittes Mal am selben Tisch wiegt bei ihr schwerer") == 1
    assert "12 Paare" not in page.text
    assert "3 Runden zu 1 Spiel ·" in page.text  # not "zu je 1 Spielen"
    assert page.context["rounds"][-1].repeated == 6
    assert "Tausch von Hand" not in page.text
    assert "Fünfertisch" not in page.text  # four at one table: none of five
    # Swapped by hand since the draw: the pairs are the swap's doing, not the draw's.
    tournament.rounds.filter(number=3).update(swapped_at=timezone.now())
    page = director.get(url("detail", tournament.pk))
    assert "zusammensaßen (nach einer Änderung von Hand)." in page.text


def test_with_a_table_of_five_the_page_says_why_pairs_meet_again(
    director, tournament, players, admin
):
    """With nine, the four who have not sat at the table of five go there in round 2:
    pairs of round 1 meet again, which read as a draw gone wrong."""
    tournament.games_per_round = 1
    tournament.save()
    services.add_participants(tournament, players[:9])
    play_out(services.start_round(services.draw_round(tournament), admin), admin)
    services.draw_round(tournament)

    page = director.get(url("detail", tournament.pk))

    assert page.context["rounds"][-1].repeated
    assert "Vorher verteilt sie die Plätze am Fünfertisch gerecht" in page.text


# -- standings, print, CSV -------------------------------------------------------------


def test_the_page_ranks_by_points_per_round_and_states_the_tie_break(
    director, tournament, players, admin
):
    tournament.games_per_round = 1
    tournament.save()
    round_ = services.start_round(drawn(tournament, players, seed=5), admin)
    play_out(round_, admin)

    page = director.get(url("detail", tournament.pk))

    standings = page.context["standings"]
    assert [line.total for line in standings] == [10, 10, 10, 10, 0, 0, 0, 0]
    assert [line.rank for line in standings] == [1, 1, 1, 1, 5, 5, 5, 5]
    assert str(TIE_BREAK) in page.text
    # The tie-break counts are columns of the live standings, as of the final ranking.
    assert "gewonnene Soli und Wenz" in page.text
    assert tie_break_cells(page.text) == [("10", "0", "0")] * 4 + [("0", "0", "1")] * 4


def tie_break_cells(html: str) -> list[tuple[str, str, str]]:
    """Each standings row's total, won Soli and lost games, as shown."""
    return re.findall(
        r'<td class="num total">(\d+)</td>\s*<td class="num">(\d+)</td>\s*'
        r'<td class="num">(\d+)</td>',
        html,
    )


def test_the_printable_table_cards_have_seats_and_a_box_for_every_game(
    client, tournament, players, player_user
):
    round_ = drawn(tournament, players, count=9)
    client.force_login(player_user)

    response = client.get(url("cards", tournament.pk, 1))

    assert response.status_code == 200
    assert response.text.count("<h1") == 1
    assert '<h1 class="no-print">Tischkarten Runde 1 · Stadtmeisterschaft</h1>' in response.text
    assert response.text.count('class="table-card"') == 2
    assert "Runde 1 · Tisch 1" in response.text and "Runde 1 · Tisch 2" in response.text
    assert "Fünf am Tisch: wer gibt, setzt das Spiel aus." in response.text
    assert response.text.count("<li><span>") == 2 * 40
    first = TableSeat.objects.get(table__round=round_, table__number=1, position=0)
    assert f"<strong>{first.participant.player.name}</strong>" in response.text
    assert "gibt das erste Spiel" in response.text


def test_the_ranking_prints_and_downloads_as_a_german_csv(client, tournament, players, admin):
    tournament.games_per_round = 1
    tournament.save()
    services.add_participants(tournament, players[:8])
    services.add_guest(tournament, "=Ferdl")  # a name a spreadsheet would run as a formula
    round_ = services.start_round(services.draw_round(tournament, seed=5), admin)
    play_out(round_, admin)
    client.force_login(admin)

    printed = client.get(url("ranking", tournament.pk))
    response = client.get(url("csv", tournament.pk))

    assert printed.status_code == 200
    assert "Zwischenstand: Stadtmeisterschaft" in printed.text
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="stadtmeisterschaft-' in response["Content-Disposition"]
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    lines = text[1:].split("\r\n")
    assert lines[0] == (
        "Platz;Startnummer;Name;Runde 1;Runde 2;Runde 3;Gesamt;Soli gewonnen;Spiele verloren;"
        "Spiele gespielt;zurückgezogen"
    )
    winner = tournament.participants.get(number=int(lines[1].split(";")[1])).player.name
    # Rounds not played yet are empty cells, not 0.
    assert lines[1].split(";")[2:] == [winner, "10", "", "", "10", "0", "0", "1", ""]
    # At the table of five one sat the game out: 8 of the 9 played it.
    played = [line.split(";")[-2] for line in lines[1:-1]]
    assert sorted(played) == ["0"] + ["1"] * 8
    assert any(line.split(";")[2] == "'=Ferdl" for line in lines[1:-1])
    assert len(lines) == 1 + 9 + 1  # header, nine participants, the last line's end


def test_each_table_s_csv_is_named_by_its_round_and_number(client, tournament, players, admin):
    """Walk 72: the four tables of a round downloaded under one file name."""
    services.add_participants(tournament, players[:8])
    round_ = services.start_round(services.draw_round(tournament, seed=5), admin)
    client.force_login(admin)

    names = [
        client.get(reverse("evenings:csv", args=[table.evening_id]))["Content-Disposition"]
        for table in round_.tables.all()
    ]

    assert [re.search(r"-(runde-\d+-tisch-\d+)\.csv\"$", name)[1] for name in names] == [
        "runde-1-tisch-1",
        "runde-1-tisch-2",
    ]


def test_the_csv_marks_who_withdrew(client, tournament, players, admin):
    tournament.games_per_round = 1
    tournament.save()
    play_out(services.start_round(drawn(tournament, players), admin), admin)
    leaving = tournament.participants.get(number=3)
    services.remove_participant(leaving)
    client.force_login(admin)

    lines = client.get(url("csv", tournament.pk)).content.decode("utf-8")[1:].split("\r\n")

    marked = {line.split(";")[1]: line.split(";")[-1] for line in lines[1:-1]}
    assert marked == {str(n): "ja" if n == 3 else "" for n in range(1, 9)}
    # The standings say it too, breaking where German does at 320 px (walk 57).
    page = client.get(url("detail", tournament.pk)).text
    assert page.count('<span class="muted withdrawn">zurück\u00adgezogen</span>') == 1


def test_who_withdrew_after_playing_the_last_round_reads_as_everyone_else(
    client, tournament, players, admin
):
    """Walk 53: the Endstand said "zurückgezogen" of one who played every round."""
    tournament.games_per_round = 1
    tournament.round_count = 1
    tournament.save()
    play_out(services.start_round(drawn(tournament, players), admin), admin)
    services.remove_participant(tournament.participants.get(number=3))
    client.force_login(admin)
    name = tournament.participants.get(number=3).player.name

    running = client.get(url("detail", tournament.pk)).text
    services.finish(tournament, admin)
    finished = client.get(url("detail", tournament.pk)).text
    lines = client.get(url("csv", tournament.pk)).content.decode("utf-8")[1:].split("\r\n")

    # The participants' list says it while the tournament runs (with "Wieder aufnehmen");
    # the standings do not, as nothing is missed, nor the list once finished (walk 60).
    assert f'<bdi class="name">{name}</bdi> <span class="muted withdrawn">' not in running
    assert f'<bdi class="name">{name}</bdi> <span class="muted withdrawn">' not in finished
    assert all(line.split(";")[-1] == "" for line in lines[1:-1])
    listed = "zurück\u00adgezogen</span>"
    assert running.split('id="teilnehmer-heading"')[1].count(listed) == 1
    assert finished.split('id="teilnehmer-heading"')[1].count(listed) == 0


def test_a_season_named_saison_is_called_so_once(client, club, admin):
    tournament = services.create_tournament(club, admin, name="Hof", new_season="Saison 2026/27")
    other = services.create_tournament(club, admin, name="Rehau", new_season="ProHof 2026")
    client.force_login(admin)

    pages = [
        client.get(url("detail", tournament.pk)).text,
        client.get(url("ranking", tournament.pk)).text,
        client.get(url("list", club.pk)).text,
        client.get(url("season", club.pk, tournament.season_id)).text,
    ]

    assert all("Saison Saison" not in page for page in pages)
    assert all("Saison 2026/27" in page for page in pages)
    assert "Saison ProHof 2026" in client.get(url("detail", other.pk)).text


# -- the hall display -------------------------------------------------------------------


def test_the_hall_display_needs_no_login_and_refreshes_its_board(client, tournament, players):
    drawn(tournament, players)

    page = client.get(url("hall", tournament.display_token))
    board = client.get(url("hall", tournament.display_token), headers={"HX-Request": "true"})

    assert page.status_code == board.status_code == 200
    assert 'hx-trigger="every 10s"' in page.text
    assert f'hx-get="{url("hall", tournament.display_token)}?v=' in page.text
    assert "Stadtmeisterschaft" in page.text and "Tisch 2" in page.text
    assert tie_break_cells(board.text) == [("0", "0", "0")] * 8
    assert board.text.lstrip().startswith('<div id="board"')
    assert "<html" not in board.text


def test_the_hall_display_stops_when_the_clubs_last_member_leaves(client, club, tournament):
    """Walk 85: the evenings' spectator links stopped, the hall display showed on."""
    hall = url("hall", tournament.display_token)
    assert client.get(hall).status_code == 200

    for member in club.memberships.select_related("user"):
        club_services.remove_member(member, member.user, may_empty=True)

    assert client.get(hall).status_code == 404
    tournament.refresh_from_db()
    assert tournament.display_token is None


def test_the_directors_counter_says_how_many_games_at_a_table_do_not_count(
    director, tournament, players, admin
):
    round_ = drawn(tournament, players)
    services.start_round(round_, admin)
    table = round_.tables.select_related("evening").get(number=1)
    book_one(table, admin)
    book_one(table, admin)
    evenings.undo_last(table.evening_id, admin)  # game 2 taken back: game 3 is next

    page = director.get(url("detail", tournament.pk)).text

    assert "Spiel 2 von 40 (1 Spiel zählt nicht)" in page
    assert "Spiel 1 von 40<" in page  # the other table: nothing struck, nothing said


def test_the_hall_board_answers_nothing_new_until_something_on_it_changes(
    client, tournament, players, admin
):
    round_ = drawn(tournament, players)
    hall = url("hall", tournament.display_token)

    def shown() -> str:
        """The version of the board a screen shows now (its poll asks with it)."""
        return re.search(r'hx-get="[^"?]*\?v=([0-9a-f]{32})"', client.get(hall).text)[1]

    def poll(version: str):
        return client.get(hall, {"v": version}, headers={"HX-Request": "true"})

    versions = [shown()]
    assert poll(versions[-1]).status_code == 204
    assert poll(versions[-1]).content == b""
    answer = poll("0" * 32)  # a screen with an older board gets the board
    assert answer.status_code == 200 and answer.text.lstrip().startswith('<div id="board"')

    services.start_round(round_, admin)  # tables become evenings; counters appear
    versions.append(shown())
    table = round_.tables.select_related("evening").order_by("number").first()
    deal = evenings.next_deal(table.evening)
    game = GameInput(
        type="rufspiel", declarer=deal.playing[0].pk, partner=deal.playing[1].pk, won=True
    )
    evenings.book_game(table.evening_id, uuid.uuid4(), game, admin, deal.token)
    versions.append(shown())  # points on the board
    assert poll(versions[-2]).status_code == 200
    assert "Spiel 2 von 40" in poll(versions[-2]).text
    last = round_.tournament.participants.order_by("number").last().player
    Player.objects.filter(pk=last.pk).update(name="Wastl Huber")
    versions.append(shown())  # a name put right at the door
    assert "Wastl Huber" in poll(versions[-2]).text
    services.update_settings(
        tournament,
        name="Stadtmeisterschaft 2026",
        venue=tournament.venue,
        date=tournament.date,
        round_count=3,
        games_per_round=40,
    )
    versions.append(shown())
    for name, venue in (("Stadtmeisterschaft:", "Gasthof"), ("Stadtmeisterschaft", ":Gasthof")):
        # Each field counts on its own, whatever characters it holds.
        services.update_settings(
            tournament, name=name, venue=venue, date=tournament.date, round_count=3,
            games_per_round=40,
        )  # fmt: skip
        versions.append(shown())

    assert len(set(versions)) == len(versions) == 7
    assert poll(versions[-1]).status_code == 204


def test_a_revoked_hall_link_is_gone_and_stops_the_polling(director, client, tournament):
    token = tournament.display_token
    # Revoked in two taps: the button is inside a "Link sperren …" that opens first.
    offered = director.get(url("detail", tournament.pk)).text
    assert re.search(
        r'<details class="confirm">\s*<summary>Link sperren …</summary>.*?'
        r'name="revoke" value="1">.*?Ja, Link sperren</button></form>\s*</details>',
        offered,
        re.S,
    )

    director.post(url("display_link", tournament.pk), {"revoke": "1"})
    client.logout()
    page = client.get(url("hall", token))
    poll = client.get(url("hall", token), headers={"HX-Request": "true"})

    tournament.refresh_from_db()
    assert tournament.display_token is None
    assert page.status_code == 404
    assert poll.status_code == 286
    assert "gesperrt" in poll.text


def test_a_renewed_hall_link_replaces_the_old_one(director, tournament):
    old = tournament.display_token

    director.post(url("display_link", tournament.pk))

    tournament.refresh_from_db()
    assert tournament.display_token != old
    assert director.get(url("hall", old)).status_code == 404
    assert director.get(url("hall", tournament.display_token)).status_code == 200
    page = director.get(url("detail", tournament.pk))
    assert url("hall", tournament.display_token) in page.text


# -- the season ------------------------------------------------------------------------


def test_the_season_sums_the_points_of_its_tournaments_for_the_same_person(
    client, club, admin, players, player_user
):
    for name, venue in (("Hof", "Gasthof Post"), ("Rehau", "Zum Hirschen")):
        tournament = services.create_tournament(
            club, admin, name=name, venue=venue, new_season="ProHof 2026", games_per_round=1
        )
        services.add_participants(tournament, players[:4])
        round_ = services.start_round(services.draw_round(tournament, seed=1), admin)
        play_out(round_, admin)
    client.force_login(player_user)

    response = client.get(url("season", club.pk, Season.objects.get().pk))

    assert response.status_code == 200
    assert [t.name for t in response.context["tournaments"]] == ["Hof", "Rehau"]
    lines = response.context["standings"]
    assert len(lines) == 4
    assert sum(line.total for line in lines) == 2 * 20
    assert "Gasthof Post" in response.text and "Zum Hirschen" in response.text
    assert tie_break_cells(response.text) == [
        (str(line.total), str(line.solos_won), str(line.games_lost)) for line in lines
    ]
    assert sum(line.games_lost for line in lines) == 2 * 2


def test_the_admin_renames_a_season_and_a_name_taken_is_an_error_at_the_name(
    director, client, club, admin, player_user
):
    services.create_tournament(club, admin, name="Hof", new_season="ProHof 2062")
    services.create_tournament(club, admin, name="Rehau", new_season="Saison 2027")
    typo = Season.objects.get(name="ProHof 2062")
    page = url("season", club.pk, typo.pk)

    taken = director.post(page, {"name": "  saison   2027 "})
    renamed = director.post(page, {"name": " ProHof  2026 "}, follow=True)

    assert taken.status_code == 200
    assert taken.context["form"].errors["name"] == [
        "Eine Saison dieses Namens gibt es im Verein schon."
    ]
    assert "<h1>Saison ProHof 2062</h1>" in taken.text  # the heading keeps the saved name
    assert renamed.redirect_chain == [(page, 302)]
    assert "<h1>Saison ProHof 2026</h1>" in renamed.text
    assert sorted(Season.objects.values_list("name", flat=True)) == ["ProHof 2026", "Saison 2027"]
    # A member who is not the admin sees the season, without the form.
    client.force_login(player_user)
    assert "Saison umbenennen" not in client.get(page).text
    assert client.post(page, {"name": "Meine Saison"}).status_code == 404
    assert Season.objects.get(pk=typo.pk).name == "ProHof 2026"


# -- what the director's page reads ----------------------------------------------------

# Each thing once, however many rounds, tables and participants: the session, the
# tournament, the caller's membership; the participants, the rounds, the rounds' tables and
# their seats; the members to name as scorekeepers; the standings' points and games; the
# club's players to tick and the guests' names; while it runs, the version its news asks
# about (tournaments.views.news); the corrections at its tables (one more, the points they
# moved, where there are any: services.late_changes).
DIRECTOR_PAGE_QUERIES = 14


def one_round_started(tournament, players, admin) -> None:
    """Eight participants at two tables; round 1 runs, one game booked at table 1."""
    round_ = services.start_round(drawn(tournament, players), admin)
    table = round_.tables.select_related("evening").get(number=1)
    deal = evenings.next_deal(table.evening)
    data = GameInput(
        type="rufspiel", declarer=deal.playing[0].pk, partner=deal.playing[1].pk, won=True
    )
    evenings.book_game(table.evening_id, uuid.uuid4(), data, admin, deal.token)


def two_rounds(tournament, players, admin) -> None:
    """Ten participants at two tables of five; round 1 played, round 2 drawn."""
    tournament.games_per_round = 1
    tournament.save()
    play_out(services.start_round(drawn(tournament, players, count=10), admin), admin)
    services.draw_round(tournament, seed=3)


def shown_participants(text: str) -> list[tuple[str, str]]:
    return re.findall(
        r'<li class="card participant">\s*<span class="start-number">(\d+)</span>\s*'
        r'<span class="name">([^<]+)</span>',
        text,
    )


def shown_tables(text: str) -> list[list[tuple[str, str]]]:
    """Each table of each round on the page: (start number, name) in seat order."""
    return [
        re.findall(r'<li><span class="start-number">(\d+)</span> ([^<]+?)(?: <span|</li>)', seats)
        for seats in re.findall(r'<ol class="seats">(.*?)</ol>', text, re.S)
    ]


def shown_standings(text: str) -> list[tuple[str, str, str, list[str]]]:
    """(rank, start number, name, [points per round..., total]) of each line."""
    rows = re.findall(
        r'<td class="num rank">(\d+)\.</td>\s*<th scope="row"><span class="start-number">'
        r'(\d+)</span> <bdi class="name">([^<]+)</bdi>(?:<span[^>]*>[^<]*</span>)?</th>'
        r"(.*?)</tr>",
        text,
        re.S,
    )
    return [
        (rank, number, name, re.findall(r'<td class="num(?: total)?">(-?\d+|–)</td>', cells))
        for rank, number, name, cells in rows
    ]


@pytest.mark.parametrize("setup", [one_round_started, two_rounds])
def test_the_directors_page_reads_each_thing_once_however_many_rounds_and_participants(
    director, tournament, players, admin, setup, django_assert_num_queries
):
    setup(tournament, players, admin)

    with django_assert_num_queries(DIRECTOR_PAGE_QUERIES):
        page = director.get(url("detail", tournament.pk))

    participants = list(tournament.participants.select_related("player"))
    assert shown_participants(page.text) == [(str(p.number), p.player.name) for p in participants]
    rounds = list(tournament.rounds.all())
    assert shown_tables(page.text) == [
        [(str(s.participant.number), s.participant.player.name) for s in table.seats.all()]
        for round_ in rounds
        for table in round_.tables.prefetch_related("seats__participant__player")
    ]
    assert shown_standings(page.text) == [
        (str(s.rank), str(s.participant.number), s.participant.player.name,
         [*("–" if p is None else str(p) for p in s.rounds), str(s.total),
          str(s.solos_won), str(s.games_lost)])
        for s in tournament_standings(tournament)
    ]  # fmt: skip
    assert any(s.total for s in tournament_standings(tournament))
    last = page.context["rounds"][-1]
    assert last.seating == services.seating_token(rounds[-1])
    assert last.repeated == (services.repeated_partners(rounds[-1]) if len(rounds) > 1 else None)


# -- who may do what -------------------------------------------------------------------


@pytest.fixture
def cast(admin, scorekeeper, player_user, other_admin):
    return {"admin": admin, "scorekeeper": scorekeeper, "player": player_user,
            "outsider": other_admin}  # fmt: skip


@pytest.mark.parametrize(
    ("role", "expected"),
    [("admin", 200), ("scorekeeper", 200), ("player", 200), ("outsider", 404)],
)
def test_members_see_the_tournament_and_its_standings(
    client, cast, tournament, players, role, expected
):
    drawn(tournament, players)
    client.force_login(cast[role])

    pages = [url(name, tournament.pk) for name in ("detail", "ranking", "csv")]
    pages += [url("cards", tournament.pk, 1), url("list", tournament.club_id)]

    assert [client.get(page).status_code for page in pages] == [expected] * len(pages)


def test_a_member_who_is_not_the_admin_sees_no_director_forms(client, cast, tournament, players):
    drawn(tournament, players)
    client.force_login(cast["scorekeeper"])

    page = client.get(url("detail", tournament.pk))

    assert "Runde 1 starten" not in page.text
    assert "Gast melden" not in page.text
    assert "Hallenanzeige" not in page.text


@pytest.mark.parametrize("role", ["scorekeeper", "player", "outsider"])
def test_only_the_clubs_admin_changes_a_tournament(client, cast, tournament, players, role):
    round_ = drawn(tournament, players)
    a, b = TableSeat.objects.filter(round=round_, position=0)
    client.force_login(cast[role])
    before = (
        list(TableSeat.objects.values_list("pk", "participant", "table")),
        list(Tournament.objects.values_list("name", "display_token", "status")),
        tournament.participants.count(),
        Evening.objects.count(),
    )

    answers = [
        client.get(url("create", tournament.club_id)).status_code,
        client.get(url("settings", tournament.pk)).status_code,
        client.post(url("guest", tournament.pk), {"name": "Ferdl"}).status_code,
        client.post(url("draw", tournament.pk), {"number": "1", "replacing": "5"}).status_code,
        client.post(
            url("swap", tournament.pk, 1),
            {
                "a": a.participant_id,
                "b": b.participant_id,
                "seating": services.seating_token(round_),
            },
        ).status_code,
        client.post(url("start", tournament.pk, 1)).status_code,
        client.post(url("display_link", tournament.pk), {"revoke": "1"}).status_code,
        client.post(url("remove", tournament.pk, a.participant_id)).status_code,
        client.post(url("reinstate", tournament.pk, a.participant_id)).status_code,
        client.post(url("end_table", tournament.pk, 1, 1)).status_code,
        client.post(url("finish", tournament.pk)).status_code,
        client.post(url("reopen", tournament.pk)).status_code,
    ]

    assert answers == [404] * len(answers)
    assert before == (
        list(TableSeat.objects.values_list("pk", "participant", "table")),
        list(Tournament.objects.values_list("name", "display_token", "status")),
        tournament.participants.count(),
        Evening.objects.count(),
    )


def test_an_admin_of_another_club_cannot_reach_a_season_through_their_own_club(
    client, club, admin, other_admin
):
    season = services.create_tournament(club, admin, name="Hof", new_season="2026").season
    other = other_admin.memberships.get().club
    client.force_login(other_admin)

    assert client.get(url("season", other.pk, season.pk)).status_code == 404
    assert client.get(url("season", club.pk, season.pk)).status_code == 404


def test_a_running_tournament_is_one_tap_from_the_club_page(
    director, club, tournament, players, admin
):
    assert (
        url("detail", tournament.pk)
        not in director.get(reverse("clubs:detail", args=[club.pk])).text
    )

    services.start_round(drawn(tournament, players), admin)
    club_page = director.get(reverse("clubs:detail", args=[club.pk])).text

    assert "Turnier läuft" in club_page
    assert f'href="{url("detail", tournament.pk)}"' in club_page


def test_ending_a_table_without_a_game_warns_of_its_zero_points(
    director, tournament, players, admin
):
    round_ = services.start_round(drawn(tournament, players), admin)
    first, _ = round_.tables.order_by("number")
    book_one(first, admin)

    page = director.get(url("detail", tournament.pk)).text

    warning = (
        "An diesem Tisch ist noch kein Spiel gebucht: alle dort bekommen für diese Runde 0 Punkte."
    )
    assert page.count(warning) == 1  # at table 2 only
    assert page.index(warning) > page.index("Ja, Tisch 1 beenden")
    assert page.index(warning) < page.index("Ja, Tisch 2 beenden")


def test_a_ranking_s_file_keeps_its_umlauts_as_germans_write_them_without(client, club, admin):
    tournament = services.create_tournament(club, admin, name="1. Höchstädter Meisterschaft")
    client.force_login(admin)

    response = client.get(url("csv", tournament.pk))

    day = tournament.date.isoformat()
    assert response["Content-Disposition"] == (
        f'attachment; filename="1-hoechstaedter-meisterschaft-{day}-rangliste.csv"'
    )


def test_a_player_s_home_names_their_tournaments_with_place_and_points(
    director, club, tournament, players, admin
):
    tournament.games_per_round = 4
    tournament.save()
    round_ = services.start_round(drawn(tournament, players), admin)
    play_out(round_, admin)
    later = services.create_tournament(club, admin, name="Frühjahrsturnier")
    services.add_participants(later, players[:4])
    standings = tournament_standings(tournament)
    line = next(s for s in standings if s.participant.player == players[0])
    home = reverse("clubs:player_home", args=[club.pk, players[0].pk])

    page = director.get(home).text
    history = director.get(reverse("clubs:player_history", args=[club.pk, players[0].pk]))
    outsider = director.get(reverse("clubs:player_home", args=[club.pk, players[8].pk])).text

    cards = re.findall(
        r'<a class="card evening-result" href="(/turnier/\d+/)">(.*?)</a>', page, re.S
    )
    texts = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text)).strip() for _, text in cards]
    assert [href for href, _ in cards] == [url("detail", later.pk), url("detail", tournament.pk)]
    day = tournament.date.strftime("%d.%m.%Y")
    assert texts == [
        f"{day} · Frühjahrsturnier noch nicht begonnen",
        f"{day} · Stadtmeisterschaft läuft zurzeit {line.rank}. Platz · {line.total} Punkte",
    ]
    assert "Tournaments" not in page and "Alle Turniere des Vereins" in page
    assert "Turniere (um Punkte) stehen in der Übersicht." in history.text
    # Begun, but nothing played yet: no "1. Platz" at 0 points for everyone (walk 37).
    services.start_round(drawn(later, players[:4]), admin)
    begun = director.get(home).text
    assert "noch kein Spiel gespielt" in begun and ">0 Punkte" not in begun
    assert 'id="turniere"' not in outsider  # in none: no section
    # The start page leads there, for a player in a tournament only.
    players[0].user = admin.__class__.objects.create_user("vroni2", password="x-Kartler-91")
    players[0].save()
    Membership.objects.create(user=players[0].user, club=club, role=Membership.Role.PLAYER)
    director.force_login(players[0].user)
    start = director.get(reverse("start")).text
    assert f'<a class="button" href="{home}#turniere">Deine Turniere</a>' in start


def test_a_participant_s_own_row_is_marked_in_the_standings(director, tournament, players, admin):
    """Among thirty, one's own line at a glance (walk 28), here and on the ranking."""
    round_ = played_out(tournament, players, admin)
    sepp = players[1]
    sepp.user = make_user("sepp", "Sepp")
    sepp.save()
    Membership.objects.create(user=sepp.user, club=tournament.club, role="spieler")
    phone = Client()
    phone.force_login(sepp.user)
    own = (
        round_.tables.get(seats__participant__player=sepp)
        .seats.get(participant__player=sepp)
        .participant
    )

    for page in (url("detail", tournament.pk), url("ranking", tournament.pk)):
        html = phone.get(page).text
        rows = re.findall(r'<tr( class="own")?>\s*<td class="num rank">.*?</tr>', html, re.S)
        assert len(rows) == 8 and sum(bool(marked) for marked in rows) == 1, page
        [marked] = re.findall(r'<tr class="own">.*?</tr>', html, re.S)
        assert f'<span class="start-number">{own.number}</span>' in marked
        assert 'Sepp</bdi><span class="visually-hidden"> (du)</span>' in marked
    # Nobody else's: the director, who plays too, sees their own, not his.
    assert director.get(url("ranking", tournament.pk)).text.count('<tr class="own">') == 1


def test_after_the_last_round_has_begun_nobody_new_is_offered_to_enter(
    director, tournament, players, admin
):
    """Nothing is left to draw: "Gast melden" there invited a late guest in vain (walk 28)."""
    page = director.get(url("detail", tournament.pk)).text
    assert "Gast melden" in page and "Spieler des Vereins melden" in page

    played_out(tournament, players, admin)  # one round of one game: the last one

    page = director.get(url("detail", tournament.pk)).text
    assert "Gast melden" not in page and "Spieler des Vereins melden" not in page


def test_a_late_correction_is_listed_with_what_it_moved_and_the_endstand_says_so(
    director, client, tournament, players, admin
):
    """Walk 52: corrected after the tournament was finished and opened again, the page
    said "läuft", the hall "fertig", nothing named the change, and the Endstand printed
    again looked as before although places had moved."""
    round_ = played_out(tournament, players, admin)
    services.finish(tournament, admin)
    tournament.refresh_from_db()
    finished_at = tournament.finished_at
    assert finished_at is not None
    director.post(url("reopen", tournament.pk))
    table = round_.tables.get(number=1)
    director.post(reverse("evenings:reopen", args=[table.evening_id]))
    game = Evening.objects.get(pk=table.evening_id).games.get()
    lost = dataclasses.replace(GameInput.of(game), won=False)

    reopened = director.get(url("detail", tournament.pk)).text
    hall = client.get(url("hall", tournament.display_token)).text
    club_page = director.get(reverse("clubs:detail", args=[tournament.club_id])).text
    table_page = director.get(reverse("evenings:detail", args=[table.evening_id])).text
    with pytest.raises(evenings.EveningError) as undo_refused:
        evenings.undo_last(table.evening_id, admin)
    evenings.correct_game(table.evening_id, game.pk, lost, admin)
    corrected = director.get(url("detail", tournament.pk)).text
    services.finish(tournament, admin)
    final = director.get(url("detail", tournament.pk)).text
    printed = director.get(url("ranking", tournament.pk)).text
    final_hall = client.get(url("hall", tournament.display_token)).text

    assert "· <strong>zum Korrigieren offen</strong>" in reopened
    assert "1 von 1 Spielen · fertig · zum Korrigieren offen" in reopened
    assert "· zum Korrigieren offen" in hall
    assert '<span class="hall-counter">fertig · zum Korrigieren offen</span>' in hall
    assert "<h2>Turnier zum Korrigieren offen</h2>" in club_page
    # Its tables take corrections only: taking back the last game would take new ones
    # (walk 53: a last round's table offered "Spiel 1 zurücknehmen").
    assert 'id="undo"' not in table_page
    assert undo_refused
    assert (
        'Runde 1, Tisch 1:</strong> <span class="pill">nach dem Abschluss</span>\n'
        "          Spiel 1 korrigiert"
    ) in corrected
    declarer = Player.objects.get(pk=game.declarer_id).name
    # Points are never taken off (seed 000): "weniger", not "-40" (walk 93).
    assert re.search(
        rf"Punkte dadurch: .*<bdi>{declarer}</bdi> <span class=\"amount\">\d+</span> weniger",
        corrected,
    )
    when = timezone.localtime(finished_at).strftime("%d.%m.%Y, %H:%M")
    said = f"Nach dem ersten Abschluss am {when} Uhr korrigiert"
    assert said in corrected and said in final and said in printed
    assert "· Endstand (nach dem Abschluss korrigiert)" in final_hall  # walk 64
    assert "nach dem Abschluss korrigiert" not in hall
    tournament.refresh_from_db()
    assert tournament.finished_at == finished_at  # the first finish, kept


def test_a_count_that_cannot_be_seated_is_not_said_once_no_round_is_left_to_draw(
    director, tournament, players, admin
):
    """Walk 52: "Mit 7 Teilnehmern lassen sich keine Tische … bilden" after a withdrawal
    in the last round, with nothing left to draw."""
    round_ = played_out(tournament, players, admin)  # one round, eight took part
    participant = round_.tables.get(number=1).seats.first().participant

    services.remove_participant(participant)

    assert "lassen sich keine Tische" not in director.get(url("detail", tournament.pk)).text
    tournament.round_count = 2
    tournament.save()
    assert (
        "Mit 7 Teilnehmern lassen sich keine Tische"
        in director.get(url("detail", tournament.pk)).text
    )


def test_a_game_taken_back_and_restored_at_a_table_is_listed_both_ways(
    director, tournament, players, admin
):
    """Walk 57: "Spiel 5 zählt wieder · Vroni +20, Zenzi +20" alone, its take-back left
    out, read as 20 points given to two players."""
    round_ = played_out(tournament, players, admin)
    table = round_.tables.get(number=1)
    taken = evenings.undo_last(table.evening_id, admin)
    evenings.restore_game(table.evening_id, taken.pk, admin)

    page = director.get(url("detail", tournament.pk)).text

    listed = re.findall(
        r'Spiel 1 (zurückgenommen|zählt wieder)\s*<span class="moved">(.*?)</span>\s*<span '
        r'class="muted">',
        page,
        re.DOTALL,
    )
    assert [kind for kind, _moved in listed] == ["zählt wieder", "zurückgenommen"]
    again, back = (
        sorted(
            int(points) * (1 if way == "mehr" else -1)
            for points, way in re.findall(r'class="amount">(\d+)</span> (mehr|weniger)', moved)
        )
        for _kind, moved in listed
    )
    assert again and again == sorted(-points for points in back)


def test_a_player_at_a_tournament_table_is_not_said_to_sit_at_a_runde_s_evening(
    client, admin, tournament, players
):
    """Walks 81, 82: a player page, the members page and the profile named a tournament's
    table "der laufende Abend der Runde „Stadtmeisterschaft“", played out or not."""
    services.start_round(drawn(tournament, players), admin)
    client.force_login(admin)
    resi = players[0]

    pages = [
        client.get(reverse("clubs:player", args=[tournament.club_id, resi.pk])).text,
        client.get(reverse("clubs:members", args=[tournament.club_id])).text,
        client.get(reverse("clubs:detail", args=[tournament.club_id])).text,
        client.get(reverse("profile")).text,
    ]

    assert resi.seats.filter(evening__status="open").exists()
    assert not any("am laufenden Abend" in page for page in pages)
