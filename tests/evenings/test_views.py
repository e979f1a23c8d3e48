import dataclasses
import io
import re
import uuid
from html import unescape

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.models import Sum
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clubs import services as club_services
from clubs.models import Membership, Player, Tariff, german_key
from evenings import services
from evenings.models import Change, Evening, Game, LedgerEntry
from scoring.settlement import Transfer
from tests.conftest import make_user, page_text

HTMX = {"HX-Request": "true"}


def correction(evening, shows=None, **fields) -> dict:
    """The correction form as the screen sends it (its fields carry the prefix k-), with
    the game as it `shows` it (k-seen), if given."""
    sent = {f"k-{name}": value for name, value in entry(evening, **fields).items()}
    return sent | ({"k-seen": services.GameInput.of(shows).fingerprint()} if shows else {})


def entry(evening, key=None, **fields):
    """The entry form as the screen sends it, for the evening's next deal."""
    return {"key": str(key or uuid.uuid4()), "deal": services.next_deal(evening).token,
            "spiel": "sauspiel", "won": "1", "kontra": "0", "doubled": "0",
            "laufende": "0"} | fields  # fmt: skip


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
    assert "<strong>Hias</strong> gibt und setzt aus." in page.text


def test_the_newcomer_s_name_is_not_announced_as_required(client, scorekeeper, club, runde):
    """Left empty at almost every evening: a screen reader must not say "erforderlich"."""
    client.force_login(scorekeeper)

    page = client.get(reverse("evenings:start", args=[club.pk, runde.pk])).text

    field = re.search(r'<input[^>]*name="neu-name"[^>]*>', page)
    assert field is not None and "required" not in field.group()


def test_a_newcomer_one_slip_from_a_player_s_name_is_asked_about_once(
    client, scorekeeper, club, runde, players
):
    """Walk 79: "Tomi" typed beside the club's Toni became a new player unasked. Asked
    once; sent again, it is meant."""
    client.force_login(scorekeeper)
    start_url = reverse("evenings:start", args=[club.pk, runde.pk])
    chosen = {"seat0": players[0].pk, "seat2": players[1].pk, "first_dealer": "2"}
    Player.objects.create(club=club, name="Toni", active=False)

    asked = client.post(start_url, chosen | {"neu-name": "Tomi", "add_player": "1"})

    said = unescape(asked.text)
    assert "Meinst du Toni? Dann „Toni“ eintragen. Ist Tomi neu im Verein, nochmal" in said
    assert '<input type="hidden" name="neu-sure" value="Tomi">' in asked.text
    assert not club.players.filter(name="Tomi").exists()
    meant = client.post(
        start_url, chosen | {"neu-name": "Tomi", "neu-sure": "Tomi", "add_player": "1"}
    )
    assert "Tomi sitzt auf Platz 2." in meant.text
    assert club.players.filter(name="Tomi").count() == 1
    # Another slip is asked about afresh; an unrelated name is not asked about at all.
    assert (
        "Meinst du"
        in client.post(
            start_url, chosen | {"neu-name": "Tonni", "neu-sure": "Tomi", "add_player": "1"}
        ).text
    )
    assert (
        "Meinst du"
        not in client.post(start_url, chosen | {"neu-name": "Ferdl", "add_player": "1"}).text
    )
    assert not Evening.objects.exists()


def test_a_scorekeeper_seats_someone_new_to_the_club_without_an_admin(
    client, scorekeeper, club, runde, players
):
    """A guest sits down in the pub: "Hinzufügen" makes them a player of the club and
    seats them at the first free place; the places chosen so far stay. Tapped twice, or
    a name the club has typed (a player on offer, one no longer active), it seats that
    player; a name that only reads like another's is refused at the field."""
    client.force_login(scorekeeper)
    start_url = reverse("evenings:start", args=[club.pk, runde.pk])
    chosen = {"seat0": players[0].pk, "seat2": players[1].pk, "first_dealer": "2"}
    girgl = Player.objects.create(club=club, name="Girgl", active=False)
    Player.objects.create(club=club, name="Weiß")

    added = client.post(start_url, chosen | {"neu-name": " Ferdl ", "add_player": "1"})
    again = client.post(start_url, chosen | {"neu-name": "Ferdl", "add_player": "1"})
    known = client.post(start_url, chosen | {"neu-name": "hias", "add_player": "1"})
    back = client.post(start_url, chosen | {"neu-name": "girgl", "add_player": "1"})
    alike = client.post(start_url, chosen | {"neu-name": "Weiss", "add_player": "1"})
    # A NUL (pasted, or sent by hand): said at the field, as everywhere (it was a 500).
    nul = client.post(start_url, chosen | {"neu-name": "Fer\x00dl", "add_player": "1"})

    ferdl = club.players.get(name="Ferdl")
    assert added.status_code == 200
    assert "Ferdl ist jetzt Spieler im Verein." in added.text
    assert "Ferdl sitzt auf Platz 2." in added.text
    selected = re.findall(r'name="(seat\d)"[^>]*>.*?<option value="(\d+)" selected>', added.text,
                          re.DOTALL)  # fmt: skip
    assert selected == [
        ("seat0", str(players[0].pk)),
        ("seat1", str(ferdl.pk)),
        ("seat2", str(players[1].pk)),
    ]
    assert 'id="id_neu-name" value=' not in added.text  # the name field empty again
    # The newcomer is offered among the others in the club's order, not after them.
    seat3 = added.text.split('name="seat3"')[1].split("</select>")[0]
    offered = re.findall(r'<option value="\d+">([^<]+)</option>', seat3)
    assert "Ferdl" in offered and offered == sorted(offered, key=german_key)
    assert "Ferdl sitzt auf Platz 2." in again.text and "gibt es" not in again.text
    assert "Hias sitzt auf Platz 2." in known.text
    assert "Girgl (wieder aktiv) sitzt auf Platz 2." in back.text  # said (walk 62)
    girgl.refresh_from_db()
    assert girgl.active  # back at the table
    assert "Weiß gibt es im Verein schon, und am Tisch wären die beiden kaum" in alike.text
    assert 'value="Weiss"' in alike.text
    assert nul.status_code == 200 and "Nullzeichen sind nicht erlaubt." in nul.text
    assert club.players.filter(name__iexact="ferdl").count() == 1
    assert not club.players.filter(name="Weiss").exists()
    assert not Evening.objects.exists()

    seats = {f"seat{i}": p.pk for i, p in enumerate([players[0], ferdl, *players[1:3]])}
    client.post(start_url, seats | {"first_dealer": "0"})
    assert [s.player.name for s in Evening.objects.get().seats.all()] == [
        "Sepp", "Ferdl", "Vroni", "Hias"
    ]  # fmt: skip


def test_a_new_club_with_fewer_than_four_players_is_pointed_to_neu_am_tisch(
    client, admin, club, runde, players
):
    client.force_login(admin)
    url = reverse("evenings:start", args=[club.pk, runde.pk])
    full = client.get(url).text
    Player.objects.filter(club=club).exclude(pk=players[0].pk).update(active=False)

    page = client.get(url).text

    assert "Im Verein" not in full
    assert "Im Verein ist erst 1 Spieler: wer noch am Tisch sitzt, unten bei „Neu am Tisch“" in page


def test_a_name_typed_and_los_gehts_tapped_seats_the_newcomer_and_begins_nothing(
    client, scorekeeper, club, runde, players
):
    """ "Hinzufügen" not tapped: the newcomer is not lost (nor the evening begun
    without them): seated, the form comes back to be checked. With every place taken,
    nobody is made a player."""
    client.force_login(scorekeeper)
    start_url = reverse("evenings:start", args=[club.pk, runde.pk])
    four = {f"seat{i}": p.pk for i, p in enumerate(players[:4])} | {"first_dealer": "0"}
    six = {f"seat{i}": p.pk for i, p in enumerate(players[:6])} | {"first_dealer": "0"}

    sent = client.post(start_url, four | {"neu-name": "Kathi Fünf"})
    full = client.post(start_url, six | {"neu-name": "Ferdl", "add_player": "1"})

    assert sent.status_code == 200
    assert "Kathi Fünf sitzt auf Platz 5. Noch nicht begonnen: bitte die Plätze prüfen" in (
        sent.text
    )
    assert not Evening.objects.exists()
    assert "Alle Plätze sind besetzt: erst einen Platz frei machen." in full.text
    assert not club.players.filter(name="Ferdl").exists()


def test_someone_new_sits_down_before_the_first_game_of_an_evening(
    client, scorekeeper, club, evening, players
):
    client.force_login(scorekeeper)
    url = reverse("evenings:seats", args=[evening.pk])
    shown = client.get(url)
    sent = dict(re.findall(r'name="(seat\d)"[^>]*>.*?<option value="(\d+)" selected>',
                           shown.text, re.DOTALL))  # fmt: skip
    version = re.search(r'name="v" value="(\d+)"', shown.text)[1]

    added = client.post(
        url, sent | {"first_dealer": "0", "v": version, "neu-name": "Ferdl", "add_player": "1"}
    )

    ferdl = club.players.get(name="Ferdl")
    assert "Ferdl sitzt auf Platz 5." in added.text
    assert f'name="v" value="{version}"' in added.text  # still the version first shown
    assert re.search(rf'name="seat4"[^>]*>.*?<option value="{ferdl.pk}" selected>', added.text,
                     re.DOTALL)  # fmt: skip
    assert evening.seats.count() == 4  # seated once the form is saved


def test_a_player_deleted_while_the_start_form_was_open_is_said_so_at_the_place(
    client, scorekeeper, club, runde, players
):
    """Walk 47: "Bitte eine gültige Auswahl treffen. 21 ist keine gültige Auswahl." """
    client.force_login(scorekeeper)
    franzi = Player.objects.create(club=club, name="Franzi")
    seats = {f"seat{i}": p.pk for i, p in enumerate([franzi, *players[:3]])}
    franzi.delete()

    response = client.post(
        reverse("evenings:start", args=[club.pk, runde.pk]), seats | {"first_dealer": "1"}
    )

    text = unescape(page_text(response))
    assert "Wer hier gewählt war, ist inzwischen gelöscht: bitte den Platz neu wählen." in text
    assert "keine gültige Auswahl" not in text
    # One set inactive meanwhile is named (walk 49).
    Player.objects.filter(pk=players[1].pk).update(active=False)
    seats["seat0"] = players[3].pk
    retired = client.post(
        reverse("evenings:start", args=[club.pk, runde.pk]), seats | {"first_dealer": "2"}
    )
    assert f"{players[1].name} ist inzwischen auf inaktiv gesetzt: bitte den Platz neu" in (
        unescape(page_text(retired))
    )
    # That place was to deal first: whoever sits there next would deal unasked.
    assert "Gewählt war Platz 3, der neu zu besetzen ist: bitte den ersten Geber neu" in (
        unescape(page_text(retired))
    )
    assert "bitte den ersten Geber" not in text  # Franzi's place did not deal first
    assert not Evening.objects.exists()


def test_the_start_page_points_a_second_phone_to_the_evening_that_runs(
    client, scorekeeper, admin, club, runde, players
):
    running = services.start_evening(runde, players[:4], 0, admin)
    closed = services.start_evening(runde, players[2:6], 0, admin)
    services.close_evening(closed.pk, admin)
    client.force_login(scorekeeper)

    page = client.get(reverse("evenings:start", args=[club.pk, runde.pk])).text

    assert "In dieser Runde läuft schon:" in page
    link = f'<a href="{reverse("evenings:detail", args=[running.pk])}">'
    assert link in page
    assert page.split(link)[1].split("</a>")[0].endswith("– Sepp, Vroni, Hias, Resi")
    assert reverse("evenings:detail", args=[closed.pk]) not in page
    services.close_evening(running.pk, admin)
    assert "läuft schon" not in client.get(reverse("evenings:start", args=[club.pk, runde.pk])).text


def test_a_second_evening_with_the_same_players_is_started_only_when_confirmed(
    client, scorekeeper, admin, club, runde, players
):
    # Back after "Los geht's" shows the form again, with a fresh key and the seats filled.
    running = services.start_evening(runde, players[:4], 0, admin)
    client.force_login(scorekeeper)
    url = reverse("evenings:start", args=[club.pk, runde.pk])
    seats = {f"seat{i}": p.pk for i, p in enumerate(reversed(players[:4]))}
    seats |= {"first_dealer": "0", "key": str(uuid.uuid4())}

    asked = client.post(url, seats)
    table = [*players[4:6], *(Player.objects.create(club=club, name=n) for n in ("Xaver", "Anni"))]
    others = client.post(
        url, {f"seat{i}": p.pk for i, p in enumerate(table)} | {"first_dealer": "0"}
    )
    confirmed = client.post(url, seats | {"again": "on"})
    replayed = client.post(url, seats)  # the confirmed form sent twice

    assert asked.status_code == 200
    assert "Mit genau diesen Spielern läuft hier schon ein Abend" in asked.text
    running_url = reverse("evenings:detail", args=[running.pk])
    assert f'<a class="button" href="{running_url}">Zum laufenden Abend</a>' in asked.text
    assert 'name="again"' in asked.text
    assert others.status_code == 302  # another table of the Runde
    second = Evening.objects.get(key=seats["key"])
    assert (
        confirmed["Location"]
        == replayed["Location"]
        == reverse("evenings:detail", args=[second.pk])
    )
    assert Evening.objects.filter(runde=runde).count() == 3


@pytest.mark.parametrize(
    ("where", "said"),
    [
        ("Donnerstagsrunde", "(seit {day}): dort weiterschreiben, oder unten bestätigen, dass "
         "ein neuer beginnt."),
        # One person cannot play at two tables, whichever Runde each is of.
        ("Freitagsrunde", "der Runde „Freitagsrunde“ (seit {day}): dort weiterschreiben, oder "
         "unten bestätigen, dass hier ein neuer beginnt."),
    ],
)  # fmt: skip
def test_someone_who_sits_at_a_running_evening_is_seated_at_another_only_when_confirmed(
    client, scorekeeper, admin, club, runde, players, where, said
):
    sepp, vroni, hias, resi, wastl, kathi = players
    there = runde if where == runde.name else club_services.create_runde(club, where, admin)
    running = services.start_evening(there, [sepp, vroni, hias, resi], 0, admin)
    client.force_login(scorekeeper)
    url = reverse("evenings:start", args=[club.pk, runde.pk])
    seats = {f"seat{i}": p.pk for i, p in enumerate([wastl, vroni, kathi, resi])}
    seats |= {"first_dealer": "0", "key": str(uuid.uuid4())}

    asked = client.post(url, seats)
    confirmed = client.post(url, seats | {"again": "on"})

    assert asked.status_code == 200
    day = timezone.localtime(running.started_at).strftime("%d.%m.%Y, %H:%M")
    assert "Vroni und Resi sitzen schon an einem laufenden Abend " + said.format(day=day) in (
        asked.text
    )
    running_url = reverse("evenings:detail", args=[running.pk])
    assert f'<a class="button" href="{running_url}">Zum laufenden Abend</a>' in asked.text
    assert "Ja, trotzdem einen neuen Abend beginnen" in asked.text  # one or many
    assert confirmed.status_code == 302
    assert Evening.objects.filter(runde=runde).count() == (2 if there == runde else 1)
    assert there.evenings.filter(status=Evening.Status.OPEN).count() == (2 if there == runde else 1)


def test_players_at_two_running_evenings_are_named_with_both(
    client, scorekeeper, admin, club, runde, players
):
    """Each evening the chosen sit at is named, not only the first found (walk 29)."""
    sepp, vroni, hias, resi, wastl, kathi = players
    xaver, lena = (Player.objects.create(club=club, name=name) for name in ("Xaver", "Lena"))
    here = services.start_evening(runde, [sepp, vroni, hias, resi], 0, admin)
    freitag = club_services.create_runde(club, "Freitagsrunde", admin)
    there = services.start_evening(freitag, [wastl, kathi, xaver, lena], 0, admin)
    client.force_login(scorekeeper)
    seats = {f"seat{i}": p.pk for i, p in enumerate([sepp, kathi, xaver, hias])}
    seats |= {"first_dealer": "0", "key": str(uuid.uuid4())}

    asked = client.post(reverse("evenings:start", args=[club.pk, runde.pk]), seats)

    text = page_text(asked)
    since = {e: timezone.localtime(e.started_at).strftime("%d.%m.%Y, %H:%M") for e in (here, there)}
    assert (
        f"Sepp und Hias sitzen schon an einem laufenden Abend dieser Runde (seit {since[here]})."
        " Kathi und Xaver sitzen schon an einem laufenden Abend der Runde „Freitagsrunde“ "
        f"(seit {since[there]}). Dort weiterschreiben, oder unten bestätigen, dass hier ein "
        "neuer beginnt."
    ) in text
    for running, label in ((here, "Zum laufenden Abend (seit"), (there, "„Freitagsrunde“ (seit")):
        url = reverse("evenings:detail", args=[running.pk])
        assert re.search(f'<a class="button" href="{url}">[^<]*{re.escape(label)}', asked.text)
    assert Evening.objects.count() == 2


def test_a_player_chosen_for_two_seats_is_named_at_the_second(
    client, scorekeeper, club, runde, players
):
    client.force_login(scorekeeper)
    sepp, vroni, hias = players[:3]
    seats = {"seat0": sepp.pk, "seat1": vroni.pk, "seat2": hias.pk, "seat3": vroni.pk}

    response = client.post(
        reverse("evenings:start", args=[club.pk, runde.pk]), seats | {"first_dealer": "0"}
    )

    assert response.status_code == 200
    assert response.context["form"].errors == {"seat3": ["Vroni sitzt schon auf Platz 2."]}
    assert "Vroni sitzt schon auf Platz 2." in response.text
    assert not Evening.objects.exists()


def test_at_six_the_deal_line_names_both_who_sit_out(client, scorekeeper, runde, players, admin):
    evening = services.start_evening(runde, players[:6], 0, admin)
    client.force_login(scorekeeper)

    page = client.get(reverse("evenings:detail", args=[evening.pk]))

    deal = services.next_deal(evening)
    assert len(deal.sitting_out) == 2 and deal.dealer in deal.sitting_out
    out = ", ".join(p.name for p in deal.sitting_out)
    assert f"<strong>{deal.dealer.name}</strong> gibt. Setzen aus: {out}</p>" in page.text


def test_three_players_are_not_an_evening(client, scorekeeper, club, runde, players):
    client.force_login(scorekeeper)
    seats = {f"seat{i}": p.pk for i, p in enumerate(players[:3])}

    response = client.post(
        reverse("evenings:start", args=[club.pk, runde.pk]), seats | {"first_dealer": "0"}
    )

    assert response.status_code == 200
    # Said at the empty fourth seat, in the evening's terms.
    assert response.context["form"].errors["seat3"] == ["Ein Abend braucht mindestens 4 Spieler."]
    assert not Evening.objects.exists()


def test_an_empty_place_between_taken_ones_closes_up(client, scorekeeper, club, runde, players):
    client.force_login(scorekeeper)
    # Places 1, 3, 4 and 5; place 2 left empty; place 4 deals first.
    seats = {f"seat{i}": p.pk for i, p in zip([0, 2, 3, 4], players[:4], strict=True)}

    response = client.post(
        reverse("evenings:start", args=[club.pk, runde.pk]), seats | {"first_dealer": "3"}
    )

    evening = Evening.objects.get()
    assert response.status_code == 302
    assert [seat.player for seat in evening.seats.order_by("position")] == players[:4]
    assert evening.first_dealer == 2  # the third of the four who sit


def test_booking_a_sauspiel_answers_with_the_new_totals(client, scorekeeper, evening, players):
    sepp, vroni, hias, resi = players[:4]
    client.force_login(scorekeeper)

    response = client.post(
        reverse("evenings:book", args=[evening.pk]),
        entry(evening, declarer=vroni.pk, partner=resi.pk, laufende="3"),
        headers=HTMX,
    )

    assert response.status_code == 200
    assert response["HX-Trigger"] == "entryBooked"  # the form sets itself back
    assert "Gebucht: Spiel 1, Sauspiel Vroni" in response.text
    assert '<td class="grand">0,40</td>' in response.text
    assert (
        'class="standing cols-4" hx-swap-oob="true" aria-label="Spielstand in Euro"'
        in response.text
    )
    # Only what changed, out of band: the new row is added, not the whole sheet sent.
    assert '<table hx-swap-oob="beforebegin:#sheet-foot"><tbody id="game-1"' in response.text
    assert 'id="sheet"' not in response.text
    assert 'id="f-spiel"' not in response.text  # four at the table: the chips stay
    assert len(response.content) < 4096
    assert Game.objects.get().declarer == vroni
    assert LedgerEntry.objects.filter(player=vroni).get().amount == 40


def test_letztes_spiel_zuruecknehmen_is_offered_from_the_first_game_on(
    client, scorekeeper, evening, players
):
    client.force_login(scorekeeper)
    undo = re.compile(r'<form id="undo"[^>]*>')
    page = client.get(reverse("evenings:detail", args=[evening.pk])).text
    book_url = reverse("evenings:book", args=[evening.pk])
    first = client.post(
        book_url, entry(evening, declarer=players[1].pk, partner=players[3].pk), headers=HTMX
    ).text
    second = client.post(
        book_url, entry(evening, declarer=players[2].pk, partner=players[0].pk), headers=HTMX
    ).text
    later = client.get(reverse("evenings:detail", args=[evening.pk])).text

    assert " hidden>" in undo.search(page)[0]  # no game to take back yet
    # The first booking's answer brings it, out of band; later ones leave it be.
    assert undo.search(first)[0].endswith('hx-swap-oob="true">')
    assert undo.search(second) is None
    assert " hidden" not in undo.search(later)[0]


def test_a_sheet_row_names_what_to_check_at_the_table_and_leaves_a_plain_win_unsaid(
    client, scorekeeper, evening, players
):
    sepp, vroni, hias, resi = players[:4]
    client.force_login(scorekeeper)
    url = reverse("evenings:book", args=[evening.pk])
    booked = client.post(
        url,
        entry(evening, declarer=vroni.pk, partner=resi.pk, won="0", laufende="3", kontra="1"),
        headers=HTMX,
    )
    client.post(url, entry(evening, declarer=hias.pk, partner=sepp.pk), headers=HTMX)

    page = client.get(reverse("evenings:detail", args=[evening.pk]))

    # The booking's answer and the page read alike: lost, 3 Laufende, Kontra (the game's
    # value 0,80 €); the plain Sauspiel that was won says no more than its value.
    row = "Sauspiel Vroni mit Resi · Wert\xa00,80\xa0€ · verloren · 3 Laufende · Kontra<"
    assert row in page_text(booked) and row in page_text(page)
    assert "Sauspiel Hias mit Sepp · Wert\xa00,10\xa0€</span>" in page_text(page)  # one line
    assert Game.objects.filter(evening=evening).count() == 2


def test_a_retried_booking_books_once_and_says_so(client, scorekeeper, evening, players):
    client.force_login(scorekeeper)
    data = entry(evening, declarer=players[1].pk, partner=players[3].pk)
    client.post(reverse("evenings:book", args=[evening.pk]), data, headers=HTMX)

    again = client.post(reverse("evenings:book", args=[evening.pk]), data, headers=HTMX)

    assert "Schon gebucht: Spiel 1, Sauspiel Vroni" in again.text
    assert Game.objects.count() == 1


def test_a_missing_partner_is_asked_for_at_the_field_and_nothing_is_booked(
    client, scorekeeper, evening, players
):
    client.force_login(scorekeeper)

    response = client.post(
        reverse("evenings:book", args=[evening.pk]),
        entry(evening, declarer=players[1].pk),
        headers=HTMX,
    )

    assert response.status_code == 200
    assert 'id="id_partner_error"' in response.text
    assert not Game.objects.exists()


def test_the_engines_message_appears_at_the_field(client, scorekeeper, evening, players):
    client.force_login(scorekeeper)

    response = client.post(
        reverse("evenings:book", args=[evening.pk]),
        entry(evening, declarer=players[1].pk, partner=players[1].pk),
        headers=HTMX,
    )

    assert 'id="id_partner_error"' in response.text
    assert not Game.objects.exists()


def test_the_preview_shows_what_each_player_gets(client, scorekeeper, evening, players):
    client.force_login(scorekeeper)

    response = client.post(
        reverse("evenings:preview", args=[evening.pk]),
        entry(evening, spiel="farbsolo:herz", declarer=players[2].pk),
        headers=HTMX,
    )

    assert 'Hias <span class="amount">+1,50 €</span>' in page_text(response)
    assert page_text(response).count("-0,50 €") == 3
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("chosen", "waiting"),
    [
        ({"declarer": None, "partner": None}, "Vorschau: Spieler wählen"),
        ({"partner": None}, "Vorschau: Mitspieler wählen"),
        ({"spiel": "ramsch", "declarer": None, "partner": None}, "Vorschau: Verlierer wählen"),
    ],
)
def test_the_preview_names_the_player_the_game_still_lacks(
    client, scorekeeper, evening, players, chosen, waiting
):
    client.force_login(scorekeeper)
    fields = {"declarer": players[0].pk, "partner": players[1].pk} | chosen

    response = client.post(
        reverse("evenings:preview", args=[evening.pk]),
        entry(evening, **{name: value for name, value in fields.items() if value is not None}),
        headers=HTMX,
    )

    assert f'<span class="muted">{waiting}</span>' in response.text
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("chosen", "kept", "said"),
    [({}, True, "Bitte wählen, wer spielt."), ({"declarer": 0}, False, "Bitte den Mitspieler")],
)
def test_a_form_sent_without_a_player_leaves_the_word_above_it(
    client, scorekeeper, evening, players, chosen, kept, said
):
    """Its word may say why it was reset: the game entered was booked on another phone."""
    client.force_login(scorekeeper)
    fields = {name: players[n].pk for name, n in chosen.items()}

    answer = client.post(
        reverse("evenings:book", args=[evening.pk]), entry(evening, **fields), headers=HTMX
    )

    assert ('id="entry-status"' not in answer.text) is kept
    assert said in answer.text
    assert not Game.objects.exists()


@pytest.mark.parametrize("page", ["history", "seats", "game"])
def test_zum_inhalt_skips_the_link_back_to_the_evening(client, scorekeeper, evening, players, page):
    sauspiel = services.GameInput("sauspiel", declarer=players[0].pk, partner=players[1].pk)
    game = services.book_game(evening.pk, uuid.uuid4(), sauspiel, scorekeeper)[0]
    client.force_login(scorekeeper)
    args = [evening.pk, game.pk] if page == "game" else [evening.pk]

    text = client.get(reverse(f"evenings:{page}", args=args)).text

    assert text.index(f'href="/abend/{evening.pk}/">←') < text.index('<span id="inhalt">')


def test_the_sheet_answers_not_modified_when_nothing_changed(client, scorekeeper, evening):
    client.force_login(scorekeeper)
    url = reverse("evenings:sheet", args=[evening.pk])

    assert client.get(url, {"v": evening.version}).status_code == 204
    assert client.get(url, {"v": evening.version - 1}).status_code == 200


def polled_by(page: str) -> str:
    """The address the page's poll asks (templates/evenings/_poll.html)."""
    return unescape(re.search(r'<div id="poll"[^>]* hx-get="([^"]+)"', page)[1])


def test_the_read_only_link_shows_the_final_sheet_after_the_evening_closes(
    client, evening, admin, players
):
    url = reverse("evenings:live", args=[evening.share_token])
    page = client.get(url)
    assert page.status_code == 200
    assert 'hx-trigger="every 3s' in page_text(page)

    game, _ = services.book_game(
        evening.pk,
        uuid.uuid4(),
        services.GameInput("ramsch", won=False, loser=players[1].pk),
        admin,
    )
    services.close_evening(evening.pk, admin)

    page = client.get(url)
    assert page.status_code == 200
    assert "Dieser Abend ist abgeschlossen." in page_text(page)
    assert '1.</span> <span class="what">Ramsch: Vroni verliert' in page_text(page)
    assert 'hx-trigger="every 30s"' in page_text(page)  # only in case it is opened again
    assert "bock-banner" not in page_text(page)
    # A phone that was following gets the final sheet once, and looks in every 30 s.
    live = reverse("evenings:live_sheet", args=[evening.share_token])
    poll = client.get(live, {"v": "1"})
    assert poll.status_code == 200
    assert "Dieser Abend ist abgeschlossen." in poll.text
    assert 'hx-trigger="every 30s"' in poll.text
    # ... and no more word that new games come by themselves.
    assert "erscheinen von selbst" not in page_text(page)
    assert '<p id="live-note" hx-swap-oob="delete"></p>' in poll.text
    closed = polled_by(poll.text)
    assert client.get(closed).status_code == 204
    # Opened again by an admin: the spectator's page loads anew, and follows again.
    services.reopen_evening(evening.pk, admin)
    assert client.get(closed)["HX-Refresh"] == "true"
    assert 'hx-trigger="every 3s' in page_text(client.get(url))


def test_a_revoked_read_only_link_stops_working(client, scorekeeper, evening):
    url = reverse("evenings:live", args=[evening.share_token])
    client.force_login(scorekeeper)

    client.post(reverse("evenings:share", args=[evening.pk]), {"revoke": "1"})

    client.logout()
    assert client.get(url).status_code == 404
    assert Change.objects.filter(kind="share").exists()


def test_the_read_only_links_stop_when_the_clubs_last_member_leaves(
    client, club, admin, evening, players
):
    """Walk 81: after the last member deleted their account, a link in a group chat went
    on showing its evening, with nobody left who could revoke it."""
    url = reverse("evenings:live", args=[evening.share_token])
    services.close_evening(evening.pk, admin)  # a closed evening's link shows its sheet
    later = services.start_evening(evening.runde, players[:4], 0, admin)
    links = [url, reverse("evenings:live", args=[later.share_token])]
    others = club.memberships.exclude(user=admin)
    assert [client.get(link).status_code for link in links] == [200, 200]
    for member in others.select_related("user"):
        club_services.remove_member(member, admin)

    club_services.delete_account(admin)

    assert [client.get(link).status_code for link in links] == [404, 404]
    for shared in (evening, later):
        shared.refresh_from_db()
        assert shared.share_token is None
        assert shared.changes.filter(kind="share", after={"revoked": True}).count() == 1
    call_command("verify_ledger", stdout=io.StringIO())  # each evening's record still chains


def test_an_expired_session_keeps_the_typed_game_on_screen(client, evening, players):
    response = client.post(
        reverse("evenings:book", args=[evening.pk]),
        entry(evening, declarer=players[1].pk, partner=players[3].pk),
        headers=HTMX,
    )

    assert response.status_code == 200
    assert response["HX-Retarget"] == "#entry-status"
    assert "nicht mehr angemeldet" in response.text
    assert not Game.objects.exists()


def test_logged_out_elsewhere_the_sheet_and_the_correction_say_so_where_they_answer(
    client, admin, evening, players
):
    """Not the login page in the middle of the sheet: a poll's answer would put it there
    and stop the phone following; a correction's would put it in place of the form."""
    game, _ = services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=players[1].pk, partner=players[3].pk), admin)  # fmt: skip
    edit = reverse("evenings:game", args=[evening.pk, game.pk])
    void = reverse("evenings:void", args=[evening.pk, game.pk])

    poll = client.get(reverse("evenings:sheet", args=[evening.pk]), {"v": "0"}, headers=HTMX)
    panel = client.get(edit, headers=HTMX)
    saved = client.post(edit, correction(evening, declarer=players[1].pk), headers=HTMX)
    struck = client.post(void, headers=HTMX)

    answers = [
        ("#flash", poll),
        ("#correction", panel),
        ("#correction-status", saved),
        ("#correction-status", struck),
    ]
    for target, answer in answers:
        assert answer.status_code == 200
        assert answer["HX-Retarget"] == target
        assert "nicht mehr angemeldet" in answer.text
        assert 'id="id_username"' not in answer.text
    assert Change.objects.filter(evening=evening).count() == 2  # the start and the booking
    assert "das Blatt folgt nicht mehr" in poll.text  # the poll typed nothing


def test_striking_a_game_struck_meanwhile_says_so_and_changes_nothing(
    client, scorekeeper, admin, evening, players
):
    game, _ = services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=players[1].pk, partner=players[3].pk), admin)  # fmt: skip
    services.void_game(evening.pk, game.pk, admin)  # on another phone, or the first tap
    client.force_login(scorekeeper)

    answer = client.post(reverse("evenings:void", args=[evening.pk, game.pk]), headers=HTMX)

    assert answer.status_code == 200
    assert "Das Spiel wurde inzwischen gestrichen – nichts geändert." in answer.text
    assert Change.objects.filter(evening=evening, kind="void").count() == 1


def test_a_strike_sent_again_says_it_is_struck_and_offers_to_take_it_back(
    client, scorekeeper, evening, players
):
    """The answer to the first tap was lost, or the tap came twice: the phone's own
    strike, said as such, with "Rückgängig" as after the first answer."""
    client.force_login(scorekeeper)
    client.post(reverse("evenings:book", args=[evening.pk]),
                entry(evening, declarer=players[1].pk, partner=players[3].pk))  # fmt: skip
    game = Game.objects.get()
    void = reverse("evenings:void", args=[evening.pk, game.pk])

    shown = {"v": "1", "seen": services.GameInput.of(game).fingerprint()}
    first = client.post(void, shown, headers=HTMX)
    again = client.post(void, shown, headers=HTMX)

    assert "Gestrichen: Spiel 1, Sauspiel" in first.text
    assert "Schon gestrichen: Spiel 1, Sauspiel Vroni" in again.text
    assert "inzwischen" not in again.text
    assert (
        'action="{}"'.format(reverse("evenings:restore", args=[evening.pk, game.pk])) in again.text
    )
    assert Change.objects.filter(evening=evening, kind="void").count() == 1


def test_a_form_that_does_not_say_what_it_showed_takes_nothing_back(
    client, scorekeeper, evening, players
):
    """ "Letztes Spiel zurücknehmen", "Spiel streichen" and a correction are checked
    against what changed since the phone showed the evening; a request without the
    version or the game as shown (hand-made, or a page older than the field) changes
    nothing, and says so."""
    game, _ = services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=players[1].pk, partner=players[3].pk), scorekeeper)  # fmt: skip
    evening.refresh_from_db()
    client.force_login(scorekeeper)
    said = "Nichts geändert: die Seite sagt nicht, welchen Stand sie zeigt."

    undone = client.post(reverse("evenings:undo", args=[evening.pk]), follow=True)
    void = reverse("evenings:void", args=[evening.pk, game.pk])
    struck = client.post(void, {"v": evening.version}, follow=True)
    unseen = client.post(void, {"seen": services.GameInput.of(game).fingerprint()}, follow=True)
    corrected = client.post(
        reverse("evenings:game", args=[evening.pk, game.pk]),
        correction(evening, key=str(game.key), declarer=players[0].pk, partner=players[2].pk),
    )

    for answer in (undone, struck, unseen, corrected):
        assert answer.status_code == 200
        assert said in answer.text
    game.refresh_from_db()
    assert game.is_booked and game.declarer == players[1]
    assert list(Change.objects.filter(evening=evening).values_list("kind", flat=True)) == [
        "start",
        "book",
    ]


def test_a_strike_for_a_game_changed_since_the_phone_showed_it_strikes_nothing(
    client, scorekeeper, admin, evening, players
):
    """Sent again after "Rückgängig" (a delayed or replayed request), or from a panel
    opened before another phone corrected the game: the game is not the one shown."""
    client.force_login(scorekeeper)
    client.post(reverse("evenings:book", args=[evening.pk]),
                entry(evening, declarer=players[1].pk, partner=players[3].pk))  # fmt: skip
    game = Game.objects.get()
    void = reverse("evenings:void", args=[evening.pk, game.pk])
    panel = client.get(reverse("evenings:game", args=[evening.pk, game.pk]), headers=HTMX).text
    shown = re.search(r'name="seen" value="([^"]+)"', panel)[1]
    tap = {"v": "1", "seen": shown}
    assert "Gestrichen: Spiel 1, Sauspiel" in client.post(void, tap, headers=HTMX).text
    services.restore_game(evening.pk, game.pk, scorekeeper)

    replayed = client.post(void, tap, headers=HTMX)

    assert "Nichts gestrichen: das Spiel wurde inzwischen geändert." in replayed.text
    assert Game.objects.get().is_booked
    # Another phone corrects it while this panel is open; this phone's poll has the new
    # version, its panel the game as it was.
    services.correct_game(evening.pk, game.pk, services.GameInput(
        "sauspiel", declarer=players[1].pk, partner=players[3].pk, won=False), admin)  # fmt: skip
    evening.refresh_from_db()
    late = client.post(void, {"v": str(evening.version), "seen": shown}, headers=HTMX)
    # The panel closes with it: the word says where to strike it anew (walk 58).
    assert (
        "Nichts gestrichen: das Spiel wurde inzwischen geändert. Bitte in der Tabelle prüfen, "
        "wie es jetzt steht; soll es weg, dort öffnen und nochmal „Spiel streichen“ tippen."
    ) in unescape(late.text)
    assert Game.objects.get().is_booked
    assert Change.objects.filter(evening=evening, kind="void").count() == 1
    # Shown as it is now, it is struck.
    panel = client.get(reverse("evenings:game", args=[evening.pk, game.pk]), headers=HTMX).text
    fresh = {"v": str(evening.version), "seen": re.search(r'name="seen" value="([^"]+)"', panel)[1]}
    assert "Gestrichen: Spiel 1, Sauspiel" in client.post(void, fresh, headers=HTMX).text
    assert not Game.objects.get().is_booked


def test_a_strike_that_would_now_do_otherwise_than_its_panel_showed_strikes_nothing(
    client, scorekeeper, admin, evening, players, tariff_with_bock
):
    """Walk 68: a panel showed game 2 as a Bock game; another phone then corrected the
    Ramsch before it into a Sauspiel, and the strike went through at amounts the panel
    never showed. It is refused with the panel anew, which then strikes."""
    evening, ramsch = ramsch_then_bock_sauspiel(evening.runde, players, admin)
    game = evening.games.get(number=2)
    client.force_login(scorekeeper)
    void = reverse("evenings:void", args=[evening.pk, game.pk])

    def tap(panel):
        evening.refresh_from_db()
        fields = dict(re.findall(r'name="(seen|struck)" value="([^"]*)"', panel))
        return client.post(void, {"v": str(evening.version), **fields}, headers=HTMX)

    old = client.get(reverse("evenings:game", args=[evening.pk, game.pk]), headers=HTMX).text
    assert "Bockspiel" in old
    services.correct_game(evening.pk, ramsch.pk, services.GameInput(
        "sauspiel", declarer=players[0].pk, partner=players[1].pk), admin)  # fmt: skip

    refused = tap(old)

    assert (
        "Nichts gestrichen: am Abend hat sich inzwischen etwas geändert, und das Streichen "
        "wirkt jetzt anders als angezeigt."
    ) in unescape(refused.text)
    assert "Ohne dieses Spiel:" in refused.text  # the panel again, its preview as it is now
    assert "Bockspiel" not in page_text(refused)
    assert evening.games.get(number=2).is_booked
    assert not Change.objects.filter(evening=evening, kind="void").exists()

    assert "Gestrichen: Spiel 2, Sauspiel" in tap(refused.text).text
    assert not evening.games.get(number=2).is_booked


def test_a_take_back_from_a_tab_older_than_the_close_says_nothing_was_taken_back(
    client, scorekeeper, evening, players
):
    """Walk 68: "Der Abend ist abgeschlossen." alone, the word of a close that worked."""
    game, _ = services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=players[1].pk, partner=players[3].pk), scorekeeper)  # fmt: skip
    evening.refresh_from_db()
    shown = evening.version
    services.close_evening(evening.pk, scorekeeper)
    client.force_login(scorekeeper)

    answer = client.post(reverse("evenings:undo", args=[evening.pk]), {"v": shown}, follow=True)

    assert "Nichts zurückgenommen: der Abend ist abgeschlossen." in answer.text
    assert Game.objects.get().is_booked


def test_wieder_zaehlen_that_would_now_do_otherwise_than_its_panel_showed_changes_nothing(
    client, scorekeeper, admin, evening, players, tariff_with_bock
):
    """Walk 71: the panel of a struck Ramsch showed game 2 becoming a Bock game; another
    phone then booked game 3, which counting the Ramsch again makes one too, and "Wieder
    zählen" restored it at once. As a strike, it is refused with the preview anew."""
    evening, ramsch = ramsch_then_bock_sauspiel(evening.runde, players, admin)
    services.void_game(evening.pk, ramsch.pk, admin)
    client.force_login(scorekeeper)
    game_page = reverse("evenings:game", args=[evening.pk, ramsch.pk])
    restore = reverse("evenings:restore", args=[evening.pk, ramsch.pk])

    def shown(page: str) -> str:
        return unescape(re.search(r'name="shown" value="([^"]*)"', page)[1])

    old = shown(client.get(game_page, headers=HTMX).text)
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=players[1].pk, partner=players[3].pk), admin)  # fmt: skip

    refused = client.post(restore, {"shown": old}, follow=True)

    assert refused.redirect_chain == [(game_page, 302)]
    assert (
        "Nichts geändert: am Abend hat sich inzwischen etwas geändert, und das Spiel würde "
        "jetzt anders zählen als angezeigt."
    ) in unescape(refused.text)
    assert "Spiel 3: 0,20 € statt 0,10 € (wird Bockspiel)" in page_text(refused)
    assert not evening.games.get(number=1).is_booked
    assert not Change.objects.filter(evening=evening, kind="restore").exists()

    client.post(restore, {"shown": shown(refused.text)})
    assert evening.games.get(number=1).is_booked


def test_settlement_lists_who_pays_whom_and_marks_a_payment(client, scorekeeper, evening, players):
    client.force_login(scorekeeper)
    client.post(
        reverse("evenings:book", args=[evening.pk]),
        entry(evening, declarer=players[1].pk, partner=players[3].pk, laufende="3"),
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


def test_closing_an_abrechnung_another_phone_changed_since_keeps_the_evening_open(
    client, scorekeeper, evening, players, admin
):
    """Walk 58: a game booked on another phone while the Abrechnung was open was closed
    with it, the amounts checked no longer those closed. The close says what it saw."""
    client.force_login(scorekeeper)
    url = reverse("evenings:settlement", args=[evening.pk])
    page = client.get(url).text
    seen = re.search(r'name="v" value="(\d+)"', page.split("Abend abschließen …")[1])[1]
    # Closed, payments still go in (walk 66: "nichts mehr buchen" read as none at all).
    assert "kein Spiel mehr buchen oder korrigieren; wieder öffnen kann ihn nur" in page
    assert "Zahlungen lassen sich weiter eintragen." in page
    p = [x.pk for x in services.next_deal(evening).playing]
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=p[0], partner=p[2]), admin)  # fmt: skip

    stale = client.post(url, {"v": seen}, follow=True)
    evening.refresh_from_db()
    assert evening.is_open
    assert "Nicht abgeschlossen: seit die Abrechnung geladen wurde" in stale.text
    # What it had not seen, and by whom (walk 65).
    assert "Seitdem: Spiel gebucht (Spiel 1, Resi)." in stale.text
    # Checked anew: closed; tapped twice, the second says it is closed already.
    now = re.search(r'name="v" value="(\d+)"', stale.text.split("Abend abschließen …")[1])[1]
    closed = client.post(url, {"v": now}, follow=True)
    again = client.post(url, {"v": now}, follow=True)
    evening.refresh_from_db()
    assert not evening.is_open and "Der Abend ist abgeschlossen." in closed.text
    assert "Der Abend ist abgeschlossen." in again.text
    assert evening.changes.filter(kind="close").count() == 1


def test_a_closed_evening_s_settlement_tells_a_spieler_who_enters_the_payments(
    client, scorekeeper, user, club, evening, players, admin
):
    Membership.objects.create(user=user, club=club, role=Membership.Role.PLAYER)
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=players[1].pk, partner=players[3].pk), admin)  # fmt: skip
    services.close_evening(evening.pk, admin)
    url = reverse("evenings:settlement", args=[evening.pk])

    client.force_login(user)
    spieler = client.get(url).text
    client.force_login(scorekeeper)
    schreiber = client.get(url).text

    assert "Zahlungen trägt ein Schreiber oder Admin ein." in spieler
    assert "Zahlungen weiter eintragen" not in spieler and ">bezahlt</button>" not in spieler
    assert "Zahlungen weiter eintragen" in schreiber and ">bezahlt</button>" in schreiber


def test_a_payment_says_which_other_proposed_transfers_it_changed(
    client, scorekeeper, evening, players
):
    sepp, vroni, hias, resi = players[:4]
    set_tariff = evening.tariff
    set_tariff.settle_unit = 50
    set_tariff.save()
    for won in (
        services.GameInput("farbsolo", suit="herz", declarer=hias.pk),
        services.GameInput("farbsolo", suit="herz", declarer=hias.pk),
        services.GameInput("wenz", declarer=sepp.pk),
    ):
        services.book_game(evening.pk, uuid.uuid4(), won, scorekeeper)
    client.force_login(scorekeeper)
    url = reverse("evenings:settlement", args=[evening.pk])
    proposed = page_text(client.get(url))
    assert "Resi zahlt Hias 1,50 €" in proposed and "Vroni zahlt Sepp 0,50 €" in proposed

    # Vroni hands Hias all she owes, 1,50 € instead of the proposed 1,00 €.
    paid = client.post(
        reverse("evenings:payment", args=[evening.pk]),
        {"payer": vroni.pk, "payee": hias.pk, "other_amount": "1,50", "key": uuid.uuid4(),
         "seen": Evening.objects.get(pk=evening.pk).version},
        follow=True,
    )  # fmt: skip

    assert "Zahlung eingetragen: Vroni zahlt Hias 1,50 €" in page_text(paid)
    assert (
        "Damit ändert sich der Vorschlag: „Resi zahlt Hias 1,50 €“ ist jetzt 1,00 €; "
        "„Vroni zahlt Sepp 0,50 €“ entfällt; neu: „Resi zahlt Sepp 0,50 €“."
    ) in page_text(paid)
    assert services.settlement(evening).transfers == (
        Transfer(str(resi.pk), str(hias.pk), 100),
        Transfer(str(resi.pk), str(sepp.pk), 50),
    )
    # A payment as proposed changes nothing else, and says nothing more.
    paid = client.post(
        reverse("evenings:payment", args=[evening.pk]),
        {"payer": resi.pk, "payee": sepp.pk, "amount": 50, "key": uuid.uuid4(),
         "seen": Evening.objects.get(pk=evening.pk).version},
        follow=True,
    )  # fmt: skip
    assert "Zahlung eingetragen: Resi zahlt Sepp 0,50 €" in page_text(paid)
    assert "Vorschlag" not in page_text(paid)


def test_a_payment_from_a_page_shown_before_a_correction_says_the_amounts_moved(
    client, scorekeeper, evening, players
):
    sepp, vroni, hias, resi = players[:4]
    solo = services.GameInput("farbsolo", suit="herz", declarer=hias.pk)
    game, _created = services.book_game(evening.pk, uuid.uuid4(), solo, scorekeeper)
    client.force_login(scorekeeper)
    shown = Evening.objects.get(pk=evening.pk).version
    assert "Resi zahlt Hias 0,50 €" in page_text(
        client.get(reverse("evenings:settlement", args=[evening.pk]))
    )
    # Another phone corrects the game meanwhile: won Schneider, worth more.
    schneider = services.GameInput("farbsolo", suit="herz", declarer=hias.pk, schneider=True)
    services.correct_game(evening.pk, game.pk, schneider, scorekeeper)
    assert services.balances(evening)[resi.pk] < -50

    # Resi hands Hias 0,50 €, as the page said; it is still open, so it is booked.
    paid = client.post(
        reverse("evenings:payment", args=[evening.pk]),
        {"payer": resi.pk, "payee": hias.pk, "amount": 50, "key": uuid.uuid4(), "seen": shown},
        follow=True,
    )

    assert "Zahlung eingetragen: Resi zahlt Hias 0,50 €" in page_text(paid)
    # Said that the page was old, not a "Damit ändert sich" against a plan never shown.
    assert (
        "Seit die Seite geladen wurde, hat sich am Abend etwas geändert: hier steht, was "
        "jetzt offen ist."
    ) in page_text(paid)
    assert "Damit ändert sich" not in page_text(paid)


def test_what_rounding_leaves_open_is_listed_in_the_order_of_the_balances(
    client, scorekeeper, evening, players
):
    sepp, vroni, hias, resi = players[:4]
    tariff = evening.tariff
    tariff.settle_unit = 50
    tariff.save()
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "farbsolo", suit="herz", declarer=hias.pk), scorekeeper)  # fmt: skip
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=vroni.pk, partner=resi.pk), scorekeeper)  # fmt: skip
    client.force_login(scorekeeper)

    def in_order(page: str) -> tuple[list[str], list[str]]:
        balances = re.findall(r"<dt>(\w+)</dt>", page)
        left = re.search(r"Offen bleibt \([^)]*\):\s*([^<]*)</p>", page)[1]
        return balances, re.findall(r"(\w+) [-+]\d+,\d\d", left)  # signed, as the balances

    evening_page = client.get(reverse("evenings:settlement", args=[evening.pk])).text
    at_the_evening = in_order(evening_page)
    # Hias won 1,40 €, Sepp pays him 0,50 €: 0,90 € stay open for him, said with "+".
    assert "Hias +0,90 €" in evening_page
    assert "Jede Zahlung ist für sich auf 50 Cent abgerundet, damit niemand mehr bekommt" in (
        evening_page
    )
    services.close_evening(evening.pk, scorekeeper)
    ausgleich = services.start_ausgleich(evening.runde, scorekeeper)
    at_the_ausgleich = in_order(
        client.get(reverse("evenings:settlement", args=[ausgleich.pk])).text
    )

    # Seating order at the evening; at the Ausgleich highest first, as the accounts.
    assert at_the_evening[0] == ["Sepp", "Vroni", "Hias", "Resi"]
    assert at_the_ausgleich[0] == ["Hias", "Resi", "Vroni", "Sepp"]
    for balances, named in (at_the_evening, at_the_ausgleich):
        assert named == [name for name in balances if name in named] and len(named) >= 3


def test_the_history_names_who_changed_what(client, admin, scorekeeper, evening, players):
    sepp, vroni, hias, resi = players[:4]
    # The admin's account is Theresia's; the club plays her as Resi, as the sheet says.
    admin.first_name = "Theresia"
    admin.save()
    client.force_login(scorekeeper)
    client.post(
        reverse("evenings:book", args=[evening.pk]),
        entry(evening, spiel="farbsolo:herz", declarer=hias.pk, laufende="3", kontra="1"),
    )
    game = Game.objects.get()
    client.post(
        reverse("evenings:game", args=[evening.pk, game.pk]),
        correction(evening, game, declarer=vroni.pk, partner=resi.pk),
    )

    response = client.get(reverse("evenings:history", args=[evening.pk]))

    assert response.status_code == 200
    # Which evening it is, below the heading (walk 82).
    started = timezone.localtime(evening.started_at).strftime("%d.%m.%Y · %H:%M")
    assert f"Schafkopffreunde Au · Donnerstagsrunde · {started}</p>" in page_text(response)
    assert "Herz-Solo Hias · gewonnen · 3 Laufende · Kontra" in page_text(response)
    assert "→ Sauspiel Vroni mit Resi · gewonnen" in page_text(response)
    # What each change moved: the booking (0,50 € + 3 Laufende, x2 Kontra = 1,60 € a
    # player), then the correction's net effect (Hias from +4,80 € to -0,10 €).
    assert 'Hias <span class="amount">+4,80 €</span>' in page_text(response)
    assert 'Hias <span class="amount negative">-4,90 €</span>' in page_text(response)
    assert 'Vroni <span class="amount">+1,70 €</span>' in page_text(response)
    # Each change's last line names who made it: the admin Resi started the evening, the
    # Schreiber Hias (who plays under no name of the club: his account's) booked and
    # corrected the game.
    changes = re.findall(
        r'<li class="change (\w+)">.*?<div class="muted">[^<]* · ([^<]*)</div>',
        page_text(response),
        re.DOTALL,
    )
    assert changes == [("start", "Resi"), ("book", "Hias"), ("correct", "Hias")]


def test_a_stale_form_whose_key_booked_another_game_is_replaced_by_a_fresh_one(
    client, scorekeeper, evening, players
):
    client.force_login(scorekeeper)
    key = uuid.uuid4()
    client.post(
        reverse("evenings:book", args=[evening.pk]),
        entry(evening, key, declarer=players[1].pk, partner=players[3].pk),
        headers=HTMX,
    )

    # The answer was lost; the Schreiber typed the next game into the same form.
    response = client.post(
        reverse("evenings:book", args=[evening.pk]),
        entry(evening, key, declarer=players[2].pk, partner=players[0].pk),
        headers=HTMX,
    )

    assert "schon ein anderes Spiel gebucht" in response.text
    assert f'value="{key}"' not in response.text  # a fresh form with a new key
    assert Game.objects.count() == 1


def test_polling_a_dead_read_only_link_says_so_and_stops(client, evening, admin):
    poll = reverse("evenings:live_sheet", args=[evening.share_token])
    assert client.get(poll, {"v": evening.version}).status_code == 204

    services.renew_share_link(evening.pk, admin, revoke=True)

    response = client.get(poll, {"v": evening.version})
    assert response.status_code == 286  # htmx stops polling on 286
    assert (
        "Dieser Zuschauer-Link gilt nicht mehr: er wurde gesperrt oder durch einen neuen "
        "ersetzt." in response.text
    )
    assert 'id="live-note" hx-swap-oob="delete"' in response.text  # not "neue Spiele …"
    assert '<div id="deal" hx-swap-oob="true"></div>' in response.text  # nor who deals next


def test_a_stale_form_books_nothing_and_answers_with_the_current_form_in_german(
    client, scorekeeper, admin, runde, players
):
    evening = services.start_evening(runde, players[:5], 0, admin)
    sepp, vroni, hias, resi, wastl = players[:5]
    client.force_login(scorekeeper)
    stale = entry(evening, spiel="farbsolo:herz", declarer=wastl.pk, kontra="1", laufende="4")
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=vroni.pk, partner=resi.pk), admin)  # fmt: skip

    response = client.post(reverse("evenings:book", args=[evening.pk]), stale, headers=HTMX)

    assert response.status_code == 200
    assert Game.objects.count() == 1
    text = response.text
    assert "Inzwischen auf einem anderen Handy: Spiel 1 gebucht (Sauspiel Vroni mit Resi)." in text
    assert "Jetzt gibt Vroni." in text
    assert "keine gültige Auswahl" not in text
    # A name that ends in a full stop gets no second one (walk 25: "Jetzt gibt Sepp H..").
    vroni.name = "Vroni H."
    vroni.save()
    again = client.post(reverse("evenings:book", args=[evening.pk]), stale, headers=HTMX).text
    assert "Jetzt gibt Vroni H. " in again and "H.." not in again
    # The current deal, and its players' chips (Vroni deals and sits out now) with the
    # choice that still applies; the other choices (Herz-Solo, Kontra, 4) and the key stay
    # on the screen as they are: nothing was booked with them.
    deal = services.next_deal(evening)
    assert f'name="deal" value="{deal.token}" id="id_deal" hx-swap-oob="true"' in text
    assert re.search(rf'name="declarer" value="{wastl.pk}"[^>]*checked', text)
    assert not re.search(rf'name="declarer" value="{vroni.pk}"', text)
    assert 'name="spiel"' not in text and 'name="key"' not in text
    # The sheet catches up at once: evening.js asks for it on dealMoved (the browser
    # test test_a_refused_form_s_sheet_shows_at_once_the_game_its_word_names).
    assert response["HX-Trigger-After-Settle"] == "dealMoved"


def test_a_stale_form_is_answered_from_the_bookings_one_read(
    client, scorekeeper, admin, runde, players
):
    evening = services.start_evening(runde, players[:5], 0, admin)
    client.force_login(scorekeeper)
    stale = entry(evening, declarer=players[1].pk, partner=players[2].pk)
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=players[2].pk, partner=players[3].pk), admin)  # fmt: skip
    url = reverse("evenings:book", args=[evening.pk])

    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, stale, headers=HTMX)

    # The session with its user, and the evening with its seats, state and last games
    # (which name what the other phone booked): nothing read twice, nothing written.
    assert len(queries) == 2
    assert "Inzwischen auf einem anderen Handy: Spiel 1 gebucht (Sauspiel Hias mit Resi)." in (
        response.text
    )
    assert Game.objects.count() == 1


def test_a_form_many_games_behind_names_the_last_three_and_counts_the_rest(
    client, scorekeeper, admin, runde, players
):
    # A phone that slept through a round: its notice stays short, and is still made from
    # the booking's one read.
    evening = services.start_evening(runde, players[:4], 0, admin)
    client.force_login(scorekeeper)
    stale = entry(evening, declarer=players[1].pk, partner=players[2].pk)
    for number in range(6):
        declarer, partner = players[number % 4], players[(number + 1) % 4]
        services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
            "sauspiel", declarer=declarer.pk, partner=partner.pk), admin)  # fmt: skip

    with CaptureQueriesContext(connection) as queries:
        response = client.post(reverse("evenings:book", args=[evening.pk]), stale, headers=HTMX)

    assert len(queries) == 2
    names = [p.name for p in players[:4]]
    assert (
        f"Inzwischen auf einem anderen Handy: 6 Spiele, die letzten 3: Spiel 4 gebucht (Sauspiel "
        f"{names[3]} mit {names[0]}); Spiel 5 gebucht (Sauspiel {names[0]} mit {names[1]}); "
        f"Spiel 6 gebucht (Sauspiel {names[1]} mit {names[2]})."
    ) in response.text
    assert "Spiel 1 gebucht" not in response.text
    assert Game.objects.filter(evening=evening).count() == 6


def test_without_script_a_stale_form_answers_the_page_with_the_current_form(
    client, scorekeeper, admin, runde, players
):
    evening = services.start_evening(runde, players[:5], 0, admin)
    sepp, vroni, hias, resi, wastl = players[:5]
    client.force_login(scorekeeper)
    stale = entry(evening, spiel="wenz", declarer=wastl.pk)
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=vroni.pk, partner=resi.pk), admin)  # fmt: skip

    response = client.post(reverse("evenings:book", args=[evening.pk]), stale)

    assert response.status_code == 200
    assert "<html" in response.text and 'id="sheet"' in response.text
    assert "Inzwischen auf einem anderen Handy: Spiel 1 gebucht (Sauspiel Vroni mit Resi)." in (
        response.text
    )
    deal = services.next_deal(evening)
    assert f'name="deal" value="{deal.token}"' in response.text
    assert re.search(r'name="spiel" value="wenz"[^>]*checked', response.text)
    assert re.search(rf'name="declarer" value="{wastl.pk}"[^>]*checked', response.text)
    assert f'value="{stale["key"]}"' in response.text  # nothing was booked with its key
    assert Game.objects.count() == 1


def form_after_one_game(client, scorekeeper, admin, evening, players) -> dict:
    """The Schreiber's entry form for game 2, once game 1 (a Sauspiel) is booked."""
    client.force_login(scorekeeper)
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=players[1].pk, partner=players[3].pk), admin)  # fmt: skip
    return entry(evening, declarer=players[2].pk, partner=players[0].pk)


def test_a_form_for_a_deal_gone_back_names_the_game_taken_back_elsewhere(
    client, scorekeeper, admin, evening, players
):
    form = form_after_one_game(client, scorekeeper, admin, evening, players)
    services.undo_last(evening.pk, admin)  # on another phone

    answer = client.post(reverse("evenings:book", args=[evening.pk]), form, headers=HTMX)

    assert (
        "Inzwischen auf einem anderen Handy: Spiel 1 zurückgenommen (Sauspiel Vroni mit Resi)."
        in (answer.text)
    )
    assert "Reihenfolge" not in answer.text
    assert evening.games.count() == 1 and not evening.games.get().is_booked


def test_a_form_for_a_deal_gone_back_names_the_game_struck_elsewhere_as_struck(
    client, scorekeeper, admin, evening, players
):
    form = form_after_one_game(client, scorekeeper, admin, evening, players)
    services.void_game(evening.pk, evening.games.get().pk, admin)  # on another phone

    answer = client.post(reverse("evenings:book", args=[evening.pk]), form, headers=HTMX)

    # Not "zurückgenommen": that is the other button ("Spiel 1 zurücknehmen").
    assert "Inzwischen auf einem anderen Handy: Spiel 1 gestrichen (Sauspiel Vroni mit Resi)." in (
        answer.text
    )
    assert evening.games.count() == 1 and not evening.games.get().is_booked


def test_a_form_for_a_deal_moved_by_a_game_counted_again_elsewhere_names_that_game(
    client, scorekeeper, admin, evening, players
):
    """Walk 69: game 1 struck, then counted again on another phone, moved the deal; the
    stale form said only "die Reihenfolge hat sich geändert"."""
    form_after_one_game(client, scorekeeper, admin, evening, players)
    game = evening.games.get()
    services.void_game(evening.pk, game.pk, admin)
    evening.refresh_from_db()
    form = entry(evening, declarer=players[2].pk, partner=players[0].pk, v=evening.version)
    services.restore_game(evening.pk, game.pk, admin)  # on another phone

    answer = client.post(reverse("evenings:book", args=[evening.pk]), form, headers=HTMX)

    assert (
        "Inzwischen auf einem anderen Handy: Spiel 1 zählt wieder (Sauspiel Vroni mit Resi)."
        in answer.text
    )
    assert "Reihenfolge" not in answer.text
    assert evening.games.count() == 1


def test_a_bock_game_is_said_to_be_one_to_the_phone_that_booked_it_and_to_those_following(
    client, scorekeeper, admin, runde, players, set_tariff
):
    set_tariff(runde, bock=Tariff.Bock.RAMSCH)
    evening = services.start_evening(runde, players[:4], 0, admin)
    names = {player.pk: player.name for player in players}
    first = services.next_deal(evening).playing
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "ramsch", loser=first[0].pk, won=False), admin)  # fmt: skip
    evening.refresh_from_db()
    seen = evening.version
    deal = services.next_deal(evening)
    declarer, partner = deal.playing[0].pk, deal.playing[2].pk
    client.force_login(scorekeeper)

    answer = client.post(
        reverse("evenings:book", args=[evening.pk]),
        entry(evening, declarer=declarer, partner=partner),
        headers=HTMX,
    )
    heard = client.get(reverse("evenings:sheet", args=[evening.pk]), {"v": seen}, headers=HTMX)

    game_2 = f"Spiel 2, Sauspiel {names[declarer]} mit {names[partner]} · Bock"
    assert f"Gebucht: {game_2}<" in answer.text
    assert f"Neu gebucht: {game_2}<" in heard.text
    assert evening.games.get(number=2).bock


def test_a_form_sent_after_the_table_went_on_says_where_to_enter_the_game(
    client, scorekeeper, admin, evening, players
):
    form = form_after_one_game(client, scorekeeper, admin, evening, players)
    new = services.continue_at_new_table(evening.pk, players[:5], 0, admin)  # another phone

    answer = client.post(reverse("evenings:book", args=[evening.pk]), form, headers=HTMX)

    assert answer["HX-Refresh"] == "true"
    page = client.get(reverse("evenings:detail", args=[evening.pk])).text
    assert (
        "Neuer Tisch: der Abend bis hierher ist abgeschlossen – nichts gebucht. Das Spiel bitte "
        "am neuen Tisch eingeben („Weiter am neuen Tisch“)."
    ) in page
    assert reverse("evenings:detail", args=[new.pk]) in page
    assert evening.games.count() == 1 and new.games.count() == 0


def test_a_form_sent_after_the_evening_was_closed_reloads_the_page_without_the_form(
    client, scorekeeper, admin, evening, players
):
    client.force_login(scorekeeper)
    form = entry(evening, declarer=players[1].pk, partner=players[3].pk)
    services.close_evening(evening.pk, admin)  # on another phone

    answer = client.post(reverse("evenings:book", args=[evening.pk]), form, headers=HTMX)

    assert answer["HX-Refresh"] == "true"
    assert Game.objects.count() == 0
    page = client.get(reverse("evenings:detail", args=[evening.pk])).text
    assert "Der Abend wurde inzwischen abgeschlossen – nichts gebucht." in page
    assert 'id="entry-form"' not in page
    # Without script: the same page.
    answer = client.post(reverse("evenings:book", args=[evening.pk]), form)
    assert answer.status_code == 302
    assert answer["Location"] == reverse("evenings:detail", args=[evening.pk])
    assert Game.objects.count() == 0


def test_an_evening_closed_between_the_read_and_the_write_books_nothing_and_reloads(
    client, scorekeeper, admin, evening, players, monkeypatch
):
    client.force_login(scorekeeper)
    form = entry(evening, declarer=players[1].pk, partner=players[3].pk)
    book_after_the_read = services.book

    def closed_just_now(*args, **kwargs):
        services.close_evening(evening.pk, admin)  # on another phone, after this one read
        return book_after_the_read(*args, **kwargs)

    monkeypatch.setattr(services, "book", closed_just_now)
    answer = client.post(reverse("evenings:book", args=[evening.pk]), form, headers=HTMX)

    assert answer["HX-Refresh"] == "true"
    assert Game.objects.count() == 0
    assert "nichts gebucht" in client.get(reverse("evenings:detail", args=[evening.pk])).text


def test_a_phone_with_a_form_reloads_when_the_evening_is_closed_elsewhere(
    client, scorekeeper, admin, evening, players
):
    client.force_login(scorekeeper)
    form = entry(evening)
    poll = reverse("evenings:sheet", args=[evening.pk])
    services.close_evening(evening.pk, admin)

    with_form = client.get(poll, {"v": evening.version, "deal": form["deal"]}, headers=HTMX)
    watching = client.get(poll, {"v": evening.version}, headers=HTMX)

    assert with_form["HX-Refresh"] == "true"
    page = client.get(reverse("evenings:detail", args=[evening.pk])).text
    assert "Der Abend wurde abgeschlossen: hier wird nichts mehr gebucht." in page
    # A phone that only follows the sheet gets the final sheet, and polls slowly on.
    assert watching.status_code == 200 and "HX-Refresh" not in watching
    assert "Dieser Abend ist abgeschlossen." in watching.text
    # Opened again: both load the page anew (the form back for who may book).
    closed = polled_by(watching.text)
    assert client.get(closed, headers=HTMX).status_code == 204
    services.reopen_evening(evening.pk, admin)
    assert client.get(closed, headers=HTMX)["HX-Refresh"] == "true"


def test_a_phone_following_without_a_form_gets_it_when_made_schreiber_meanwhile(
    client, scorekeeper, club, evening
):
    membership = Membership.objects.get(user=scorekeeper, club=club)
    membership.role = Membership.Role.PLAYER
    membership.save()
    client.force_login(scorekeeper)
    looking = polled_by(client.get(reverse("evenings:detail", args=[evening.pk])).text)
    assert "looks=1" in looking
    assert client.get(looking, headers=HTMX).status_code == 204
    # The read-only link's poll is asked without a member: nothing to be made there.
    live = reverse("evenings:live_sheet", args=[evening.share_token])
    assert client.get(live, {"v": evening.version, "looks": "1"}).status_code == 204

    membership.role = Membership.Role.SCOREKEEPER
    membership.save()
    promoted = client.get(looking, headers=HTMX)

    assert promoted["HX-Refresh"] == "true"
    page = client.get(reverse("evenings:detail", args=[evening.pk])).text
    assert "du kannst hier jetzt Spiele eintragen" in page
    assert 'id="entry-form"' in page and "looks=1" not in polled_by(page)


def test_the_poll_tells_a_phone_with_a_stale_form_and_its_preview_brings_the_new_one(
    client, scorekeeper, admin, runde, players
):
    evening = services.start_evening(runde, players[:5], 0, admin)
    sepp, vroni, hias, resi, wastl = players[:5]
    client.force_login(scorekeeper)
    form = entry(evening, declarer=vroni.pk, partner=hias.pk)
    poll = reverse("evenings:sheet", args=[evening.pk])
    assert client.get(poll, {"v": evening.version, "deal": form["deal"]}).status_code == 204

    services.book_game(evening.pk, uuid.uuid4(), services.GameInput("wenz", declarer=resi.pk),
                       admin)  # fmt: skip
    answer = client.get(poll, {"v": evening.version, "deal": form["deal"]}, headers=HTMX)

    assert answer.status_code == 200
    assert answer["HX-Trigger"] == "dealChanged"
    assert 'id="deal" hx-swap-oob' not in answer.text  # the form brings the deal line
    refreshed = client.post(reverse("evenings:preview", args=[evening.pk]), form, headers=HTMX)
    # The new deal's token, and the player chips (others sit at the table now); the other
    # choices stay as they are on the screen.
    assert f'value="{services.next_deal(evening).token}" id="id_deal" hx-swap-oob' in refreshed.text
    assert 'id="f-partner" hx-swap-oob="true"' in refreshed.text
    assert 'id="f-spiel"' not in refreshed.text
    assert 'id="deal" hx-swap-oob="true"' in refreshed.text
    assert "Spiel 1 gebucht (Wenz Resi" in refreshed.text
    assert re.search(rf'name="partner" value="{hias.pk}"[^>]*checked', refreshed.text)
    # Vroni deals game 2 and sits out: her choice as declarer is dropped.
    assert not re.search(rf'name="declarer" value="{vroni.pk}"', refreshed.text)
    assert Game.objects.count() == 1


def test_a_game_struck_elsewhere_brings_a_phone_with_a_form_its_deal_line_anew(
    client, scorekeeper, admin, evening, players
):
    """A table's deal line counts the games that do not count ("1 Spiel zählt nicht"): a
    strike under the same deal brings it; a deal moved on comes with the form instead."""
    client.force_login(scorekeeper)
    poll = reverse("evenings:sheet", args=[evening.pk])
    p = [x.pk for x in services.next_deal(evening).playing]
    first, _ = services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=p[0], partner=p[2]), admin)  # fmt: skip
    p = [x.pk for x in services.next_deal(evening).playing]
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=p[0], partner=p[2]), admin)  # fmt: skip
    evening.refresh_from_db()
    seen, deal = evening.version, services.next_deal(evening)

    services.void_game(evening.pk, first.pk, admin)  # game 1 of 2: the deal stays
    assert services.next_deal(evening).token == deal.token
    struck = client.get(poll, {"v": seen, "deal": deal.token}, headers=HTMX)

    assert struck["HX-Trigger"] == "dealChanged"
    assert 'id="deal" hx-swap-oob="true"' in struck.text


def test_a_poll_tells_a_following_phone_what_changed_elsewhere(
    client, scorekeeper, admin, evening, players
):
    """Phone B said "Gebucht: Spiel 1, Sauspiel"; phone A books game 2, then takes it back: B's
    polls say so in its live region (a screen reader reads it out), and the word on game
    1 goes. A phone with an entry form is told of a new game by its form's notice."""
    client.force_login(scorekeeper)
    poll = reverse("evenings:sheet", args=[evening.pk])
    names = {player.pk: player.name for player in players}
    p = [x.pk for x in services.next_deal(evening).playing]
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=p[0], partner=p[2]), admin)  # fmt: skip
    evening.refresh_from_db()
    booked_at = evening.version
    deal = services.next_deal(evening)
    p = [x.pk for x in deal.playing]
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=p[0], partner=p[2], won=False), admin)  # fmt: skip

    after_booking = client.get(poll, {"v": booked_at}, headers=HTMX)
    with_form = client.get(poll, {"v": booked_at, "deal": deal.token}, headers=HTMX)
    evening.refresh_from_db()
    seen = evening.version
    services.undo_last(evening.pk, admin)
    after_undo = client.get(poll, {"v": seen}, headers=HTMX)

    game_2 = f"Spiel 2, Sauspiel {names[p[0]]} mit {names[p[2]]} · verloren"
    assert after_booking.status_code == after_undo.status_code == 200
    assert after_booking.text.startswith(
        f'<div id="flash" hx-swap-oob="innerHTML"><ul class="messages inline-messages">'
        f'<li class="message info">Neu gebucht: {game_2}</li></ul></div>'
    )
    # Its own word ("Gebucht: Spiel 1") goes: the form's notice says what came (walk 63).
    assert '<div id="flash" hx-swap-oob="innerHTML"></div>' in with_form.text
    assert with_form["HX-Trigger"] == "dealChanged"
    assert after_undo.text.startswith(
        f'<div id="flash" hx-swap-oob="innerHTML"><ul class="messages inline-messages">'
        f'<li class="message info">Zurückgenommen: {game_2}</li></ul></div>'
    )
    assert '<tbody id="game-2"' in after_undo.text
    # Counted again ("Rückgängig"), and then corrected and struck: each said by its kind,
    # several at once as "Geändert" with the row's state.
    evening.refresh_from_db()
    undone = evening.version
    services.restore_game(evening.pk, evening.games.get(number=2).pk, admin)
    said = client.get(poll, {"v": undone}, headers=HTMX).text
    assert f'<li class="message info">Zählt wieder: {game_2}</li>' in said
    evening.refresh_from_db()
    restored = evening.version
    first = evening.games.get(number=1)
    services.correct_game(evening.pk, first.pk, dataclasses.replace(
        services.GameInput.of(first), won=False), admin)  # fmt: skip
    services.void_game(evening.pk, first.pk, admin)
    said = client.get(poll, {"v": restored}, headers=HTMX).text
    assert '<li class="message info">Geändert: Spiel 1, Sauspiel' in said
    assert "· verloren · gestrichen</li>" in said


def test_a_poll_brings_the_bar_of_another_phones_change_and_clears_it_after_a_booking(
    client, scorekeeper, admin, evening, players
):
    """Walk 60: a Schreiber's "Rückgängig" bar stayed as the page had it. Another phone's
    take-back came with its poll only as a word, and a later booking left the bar
    offering to set back what no longer was the latest change. The poll's bar is the
    evening's latest change to its games, swapped whole (quietly: #flash says it)."""
    client.force_login(scorekeeper)
    poll = reverse("evenings:sheet", args=[evening.pk])
    p = [x.pk for x in services.next_deal(evening).playing]
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=p[0], partner=p[2]), admin)  # fmt: skip
    evening.refresh_from_db()
    seen = evening.version
    deal = services.next_deal(evening)
    services.undo_last(evening.pk, admin)

    after_undo = client.get(poll, {"v": seen}, headers=HTMX).text
    with_form = client.get(poll, {"v": seen, "deal": deal.token}, headers=HTMX).text
    evening.refresh_from_db()
    seen = evening.version
    p = [x.pk for x in services.next_deal(evening).playing]
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=p[1], partner=p[3]), admin)  # fmt: skip
    after_booking = client.get(poll, {"v": seen}, headers=HTMX).text

    assert '<div id="restore" role="status" hx-swap-oob="true">' in after_undo
    assert re.search(r"Zurückgenommen: Spiel 1, Sauspiel [^<]*\(von ", after_undo)
    assert reverse("evenings:restore", args=[evening.pk, evening.games.get(number=1).pk]) in (
        after_undo
    )
    assert '<div id="restore" role="status" hx-swap-oob="true"></div>' in after_booking
    # A phone with a form: the bar in view, the form's notice where its deal moved; the
    # word is for the screen reader (walk 63: three boxes said the same).
    assert '<p class="visually-hidden">Zurückgenommen: Spiel 1, Sauspiel' in with_form
    assert '<li class="message info">Zurückgenommen' in after_undo
    # A follower without the Schreiber's role gets no bar.
    Membership.objects.filter(user=scorekeeper).update(role=Membership.Role.PLAYER)
    services.undo_last(evening.pk, admin)
    assert 'id="restore"' not in client.get(poll, {"v": seen}, headers=HTMX).text


def test_a_following_phone_hears_what_a_strike_scored_anew_and_a_struck_game_s_bock(
    client, scorekeeper, admin, runde, players, tariff_with_bock
):
    """Walk 65: another phone's strike that moved later games' Bock was told without
    them (a correction's word names them), a Bock game taken back was told without its
    Bock, and "Wieder zählen" called a game Bock that would count without it."""
    evening, ramsch, book = ramsch_and_two_sauspiele(runde, players, admin)
    client.force_login(scorekeeper)
    poll = reverse("evenings:sheet", args=[evening.pk])

    def heard_after(change) -> str:
        evening.refresh_from_db()
        seen = evening.version
        change()
        return client.get(poll, {"v": seen}, headers=HTMX).text

    struck = heard_after(lambda: services.void_game(evening.pk, ramsch.pk, admin))
    services.restore_game(evening.pk, ramsch.pk, admin)
    undone = heard_after(lambda: services.undo_last(evening.pk, admin))

    assert re.search(r"Gestrichen: Spiel 1, Ramsch[^<]*; dazu neu gewertet: Spiele 2, 3<", struck)
    assert re.search(r"Zurückgenommen: Spiel 3, Sauspiel [^<]* · Bock<", undone)
    # Game 2 struck as a Bock game, then its Ramsch: counted again, it is none.
    second = evening.games.get(number=2)
    services.void_game(evening.pk, second.pk, admin)
    services.void_game(evening.pk, ramsch.pk, admin)
    panel = client.get(reverse("evenings:game", args=[evening.pk, second.pk])).text
    offered = re.search(r"Spiel 2, Sauspiel [^<]*", panel)[0]
    assert "Bock" not in offered
    assert Game.objects.get(pk=second.pk).bock  # as it was struck


def test_a_following_phone_hears_what_a_correction_changed_what_it_missed_and_the_close(
    client, scorekeeper, admin, evening, players, tariff_with_bock
):
    """Walk 42: a correction was told without what the game had been or which games it
    made Bock games; a phone back from a gap heard of its last missed game only; and after
    the close the word of the last game stood on above the closed sheet."""
    evening = services.start_evening(evening.runde, players[:4], 0, admin)
    names = {player.pk: player.name for player in players}
    client.force_login(scorekeeper)
    poll = reverse("evenings:sheet", args=[evening.pk])
    evening.refresh_from_db()
    before_games = evening.version
    captions = []
    for _ in range(6):
        p = [x.pk for x in services.next_deal(evening).playing]
        services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
            "sauspiel", declarer=p[0], partner=p[2]), admin)  # fmt: skip
        captions.append(f"Sauspiel {names[p[0]]} mit {names[p[2]]}")
    evening.refresh_from_db()
    missed = client.get(poll, {"v": before_games}, headers=HTMX).text
    seen = evening.version
    fourth = evening.games.get(number=4)
    services.correct_game(evening.pk, fourth.pk, services.GameInput(
        "ramsch", loser=fourth.seating[1], won=False), admin)  # fmt: skip
    corrected = client.get(poll, {"v": seen}, headers=HTMX).text
    evening.refresh_from_db()
    seen = evening.version
    services.close_evening(evening.pk, admin)
    closed = client.get(poll, {"v": seen}, headers=HTMX).text
    evening.refresh_from_db()
    seen = evening.version
    services.reopen_evening(evening.pk, admin)
    reopened = client.get(poll, {"v": seen}, headers=HTMX).text
    # A phone that shows the closed sheet loads the page again, and is told why (walk 44).
    reloaded = client.get(poll, {"v": seen, "closed": "1"}, headers=HTMX)
    page = client.get(reverse("evenings:detail", args=[evening.pk])).text

    def heard(text: str) -> str:
        return re.search(r'<li class="message info">(.*?)</li>', text)[1]

    assert heard(missed) == f"Neu gebucht: Spiele 1–6, zuletzt {captions[5]}"
    loser = names[fourth.seating[1]]
    assert heard(corrected) == (
        f"Korrigiert: Spiel 4, {captions[3]} · gewonnen → Ramsch: {loser} verliert; dazu neu "
        "gewertet: Spiele 5, 6"
    )
    # Closed, the sheet says so where it stands; the word is for the screen reader (walk
    # 44: it read twice).
    assert '<p class="visually-hidden">Der Abend ist abgeschlossen.</p>' in closed
    assert "message info" not in closed
    assert heard(reopened) == "Der Abend ist wieder offen."
    assert reloaded["HX-Refresh"] == "true"
    assert heard(page) == "Der Abend ist wieder offen."


def test_a_following_phone_hears_a_correction_whole_its_taking_back_and_what_came_with_it(
    client, scorekeeper, admin, evening, players, tariff_with_bock
):
    """Walk 44: the game before a correction was told without its result or Bock ("X →
    X"), its taking back as another correction, and games booked in the same gap not at
    all."""
    evening = services.start_evening(evening.runde, players[:4], 0, admin)  # with Bock
    names = {player.pk: player.name for player in players}
    client.force_login(scorekeeper)
    poll = reverse("evenings:sheet", args=[evening.pk])

    def book_next(**kinds) -> str:
        p = [x.pk for x in services.next_deal(evening).playing]
        data = services.GameInput("sauspiel", declarer=p[0], partner=p[2], **kinds)
        services.book_game(evening.pk, uuid.uuid4(), data, admin)
        return f"Sauspiel {names[p[0]]} mit {names[p[2]]}"

    def heard_since(seen: int) -> str:
        text = client.get(poll, {"v": seen}, headers=HTMX).text
        return re.search(r'<li class="message info">(.*?)</li>', text)[1]

    def version() -> int:
        evening.refresh_from_db()
        return evening.version

    ramsch_loser = services.next_deal(evening).playing[1]
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "ramsch", loser=ramsch_loser.pk, won=False), admin)  # fmt: skip
    second = book_next()  # a Bock game
    seen = version()
    game = evening.games.get(number=2)
    services.correct_game(evening.pk, game.pk, dataclasses.replace(
        services.GameInput.of(game), won=False), admin)  # fmt: skip
    lost = heard_since(seen)
    seen = version()
    change = evening.changes.filter(kind=Change.Kind.CORRECT).latest("pk")
    services.undo_correction(evening.pk, change.pk, admin)
    book_next()
    fourth = book_next()
    taken_back = heard_since(seen)

    # Both sides say the result: it is often what was corrected (walk 46).
    assert lost == f"Korrigiert: Spiel 2, Bockspiel: {second} · gewonnen → {second} · verloren"
    assert taken_back == (
        f"Korrektur zurückgenommen: Spiel 2, Bockspiel: {second} · verloren → {second} · "
        f"gewonnen. Neu gebucht: Spiele 3, 4, zuletzt {fourth} · Bock"
    )


@pytest.fixture
def five(client, scorekeeper, admin, runde, players):
    """An evening of five (Sepp deals and sits out game 1), the Schreiber logged in."""
    client.force_login(scorekeeper)
    return services.start_evening(runde, players[:5], 0, admin)


@pytest.mark.parametrize("tap", ["preview", "book"])
@pytest.mark.parametrize("partner", [3, 1], ids=["Resi plays on", "Vroni deals next"])
def test_a_game_another_phone_booked_meanwhile_is_not_carried_over_to_be_booked_twice(
    client, five, admin, players, tap, partner
):
    # Both phones enter the same game; the other one saves first. Whether this phone hears
    # of it from the poll (its preview asks for the new deal) or by tapping "Speichern",
    # its choices go: they would book that game again as the next one. Also when its
    # partner sits the next game out (the choices carried over would lack the partner).
    evening, hias, partner = five, players[2], players[partner]
    form = entry(evening, declarer=hias.pk, partner=partner.pk, schneider="on")
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=hias.pk, partner=partner.pk, schneider=True), admin)  # fmt: skip

    answer = client.post(reverse(f"evenings:{tap}", args=[evening.pk]), form, headers=HTMX)

    assert answer.status_code == 200
    assert (
        f"Inzwischen auf einem anderen Handy: Spiel 1 gebucht (Sauspiel Hias mit {partner.name} "
        "· Schneider). Jetzt gibt Vroni. Das war das Spiel, das du eingegeben hast: deine "
        "Auswahl ist gelöscht, damit es nicht doppelt gebucht wird."
    ) in answer.text
    # Every field comes again, as a fresh form for the new deal shows it (its key kept).
    assert 'id="entry-fields" hx-swap-oob="true"' in answer.text
    assert f'value="{services.next_deal(evening).token}" id="id_deal"' in answer.text
    assert re.search(r'name="declarer" value="\d+"', answer.text)
    assert not re.search(r'name="(declarer|partner)" value="\d+"[^>]*checked', answer.text)
    assert not re.search(r'name="schneider"[^>]*checked', answer.text)
    assert Game.objects.count() == 1


@pytest.mark.parametrize("tap", ["preview", "book"])
def test_the_same_game_booked_otherwise_meanwhile_is_said_with_how_this_phone_had_it(
    client, five, admin, players, tap
):
    # This phone had Hias's Sauspiel with Resi lost, Schneider; the other booked it won.
    # One of the two is wrong: the word says how each had it, and where to correct it.
    evening, hias, resi = five, players[2], players[3]
    form = entry(evening, declarer=hias.pk, partner=resi.pk, won="0", schneider="on")
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=hias.pk, partner=resi.pk), admin)  # fmt: skip

    answer = client.post(reverse(f"evenings:{tap}", args=[evening.pk]), form, headers=HTMX)

    game = Game.objects.get()
    assert (
        "Inzwischen auf einem anderen Handy: Spiel 1 gebucht (Sauspiel Hias mit Resi). Jetzt "
        "gibt Vroni. Das war das Spiel, das du eingegeben hast, aber du hattest es anders: "
        "Sauspiel Hias mit Resi · verloren · Schneider. Stimmt das, bitte "
        f'<a href="/abend/{evening.pk}/spiel/{game.pk}/">Spiel 1 korrigieren</a>. '
        "Deine Auswahl ist gelöscht, damit es nicht doppelt gebucht wird."
    ) in page_text(answer)
    assert not re.search(r'name="(declarer|partner)" value="\d+"[^>]*checked', answer.text)
    assert Game.objects.get().won


@pytest.mark.parametrize("tap", ["preview", "book"])
def test_a_chosen_player_who_sits_the_new_deal_out_is_named_as_the_reason_for_the_gap(
    client, five, admin, players, tap
):
    # This phone enters Vroni's Sauspiel with Resi, Kontra; the other one books Hias's
    # Wenz. Vroni deals game 2 and sits it out: her choice goes, Resi's stays.
    evening, vroni, hias, resi = five, players[1], players[2], players[3]
    form = entry(evening, declarer=vroni.pk, partner=resi.pk, kontra="1")
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "wenz", declarer=hias.pk), admin)  # fmt: skip

    answer = client.post(reverse(f"evenings:{tap}", args=[evening.pk]), form, headers=HTMX)

    # Game 1 was this form's deal, booked as another game: both ways are said, and the
    # one who sits out.
    game = Game.objects.get()
    assert (
        "Inzwischen auf einem anderen Handy: Spiel 1 gebucht (Wenz Hias). Jetzt gibt Vroni. "
        "Du hattest für Spiel 1 etwas anderes: Sauspiel Vroni mit Resi · gewonnen · Kontra. "
        "War das Spiel 1, bitte hier nicht speichern, sondern "
        f'<a href="/abend/{evening.pk}/spiel/{game.pk}/">Spiel 1 korrigieren</a>. Ist es '
        "schon Spiel 2, ist deine Auswahl übernommen, soweit sie noch passt – bitte "
        "prüfen und speichern. Vroni spielt dieses Spiel nicht mit."
    ) in page_text(answer)
    assert re.search(rf'name="partner" value="{resi.pk}"[^>]*checked', answer.text)
    assert not re.search(r'name="declarer" value="\d+"[^>]*checked', answer.text)
    assert Game.objects.count() == 1  # (Kontra stays on the phone: only the chips come)


def test_a_phone_whose_booking_answer_was_lost_hears_it_booked_the_game_and_gets_a_new_key(
    client, five, admin, players
):
    # The booking reached the server; its answer did not reach the phone. The next poll
    # says the deal moved on, and the phone's form asks (as a preview) for the new one.
    evening, hias, resi = five, players[2], players[3]
    key = uuid.uuid4()
    form = entry(evening, key=key, declarer=hias.pk, partner=resi.pk)
    services.book_game(evening.pk, key, services.GameInput(
        "sauspiel", declarer=hias.pk, partner=resi.pk), admin)  # fmt: skip

    answer = client.post(reverse("evenings:preview", args=[evening.pk]), form, headers=HTMX)

    assert (
        "Gebucht: Spiel 1, Sauspiel Hias mit Resi – von diesem Handy; nur die Antwort kam "
        "nicht an. "
        "Jetzt gibt Vroni."
    ) in answer.text
    assert "anderen Handy" not in answer.text
    new_key = re.search(r'name="key" value="([^"]+)" id="id_key" hx-swap-oob="true"', answer.text)
    assert new_key and new_key[1] != str(key)
    # The next game, booked with the new key, is booked.
    booked = client.post(
        reverse("evenings:book", args=[evening.pk]),
        entry(evening, key=new_key[1], declarer=players[4].pk, partner=players[0].pk),
        headers=HTMX,
    )
    assert "Gebucht: Spiel 2, Sauspiel" in booked.text
    assert Game.objects.count() == 2


def test_a_different_game_booked_meanwhile_keeps_the_choices_and_says_both_ways(
    client, five, admin, players
):
    """Walk 56: the other phone booked game 1 as Hias's Sauspiel with Wastl while this one
    had it with Resi. Either one of the two is wrong (then the game is to be corrected, and
    nothing saved here), or this phone did not hear of game 1 and has game 2 already."""
    evening, (hias, resi, wastl) = five, players[2:5]
    form = entry(evening, declarer=hias.pk, partner=resi.pk)
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=hias.pk, partner=wastl.pk), admin)  # fmt: skip

    answer = client.post(reverse("evenings:preview", args=[evening.pk]), form, headers=HTMX)

    game = Game.objects.get()
    assert (
        "Du hattest für Spiel 1 etwas anderes: Sauspiel Hias mit Resi · gewonnen. War das "
        "Spiel 1, bitte hier nicht speichern, sondern "
        f'<a href="/abend/{evening.pk}/spiel/{game.pk}/">Spiel 1 korrigieren</a>. Ist es '
        "schon Spiel 2, ist deine Auswahl übernommen, soweit sie noch passt – bitte "
        "prüfen und speichern."
    ) in page_text(answer)
    # The word is marked for evening.js: the first "Speichern" brings it into view.
    assert '<div class="alert" role="alert" data-clash tabindex="-1">' in answer.text
    assert 'id="entry-fields"' not in answer.text
    assert re.search(rf'name="partner" value="{resi.pk}"[^>]*checked', answer.text)
    # Half entered ("Wenz" alone), it is said so too.
    half = entry(evening, spiel="wenz") | {"deal": form["deal"]}
    answer = client.post(reverse("evenings:preview", args=[evening.pk]), half, headers=HTMX)
    assert "Deine Auswahl war für Spiel 1. War sie für Spiel 1, bitte hier nicht speichern" in (
        answer.text
    )


def test_a_game_taken_back_elsewhere_keeps_the_choices_without_a_word_on_both_ways(
    client, five, admin, players
):
    evening, (hias, resi, wastl) = five, players[2:5]
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=hias.pk, partner=wastl.pk), admin)  # fmt: skip
    form = entry(evening, declarer=hias.pk, partner=resi.pk)
    services.undo_last(evening.pk, admin)

    answer = client.post(reverse("evenings:preview", args=[evening.pk]), form, headers=HTMX)

    assert "Spiel 1 zurückgenommen" in answer.text
    assert "Deine Auswahl ist übernommen, soweit sie noch passt" in answer.text
    assert "data-clash" not in answer.text and "bitte hier nicht speichern" not in answer.text
    assert re.search(rf'name="partner" value="{resi.pk}"[^>]*checked', answer.text)


def test_a_phone_without_a_form_gets_the_deal_line_with_the_sheet(client, admin, evening, players):
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput("wenz", declarer=players[1].pk),
                       admin)  # fmt: skip
    client.force_login(admin)

    answer = client.get(reverse("evenings:sheet", args=[evening.pk]), {"v": "0"})

    assert "HX-Trigger" not in answer
    assert 'id="deal" hx-swap-oob="true"' in answer.text
    assert 'id="standing" class="standing cols-4" hx-swap-oob="true"' in answer.text


def test_the_correction_preview_shows_the_new_amounts_and_saves_nothing(
    client, scorekeeper, evening, players
):
    sepp, vroni, hias, resi = players[:4]
    game, _ = services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=vroni.pk, partner=resi.pk), scorekeeper)  # fmt: skip
    client.force_login(scorekeeper)

    answer = client.post(
        reverse("evenings:correction_preview", args=[evening.pk, game.pk]),
        correction(evening, declarer=vroni.pk, partner=resi.pk, won="0", kontra="1"),
        headers=HTMX,
    )

    assert answer.status_code == 200
    assert 'Vroni <span class="amount negative">-0,20 €</span>' in page_text(answer)
    assert "Sepp 0,20 € (bisher -0,10 €)" in page_text(answer)
    assert Change.objects.filter(kind="correct").count() == 0
    assert LedgerEntry.objects.count() == 4


def ramsch_then_bock_sauspiel(runde, players, admin):
    """A new evening (Bock after a Ramsch): Sepp loses a Ramsch, then Hias and Sepp win a
    Sauspiel, a Bock game. Returns the evening and the Ramsch."""
    evening = services.start_evening(runde, players[:4], 0, admin)
    sepp, hias = players[0], players[2]
    ramsch, _ = services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "ramsch", won=False, loser=sepp.pk), admin)  # fmt: skip
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=hias.pk, partner=sepp.pk), admin)  # fmt: skip
    return evening, ramsch


def test_the_correction_panel_says_what_striking_the_game_would_change(
    client, scorekeeper, admin, evening, players, tariff_with_bock
):
    evening, ramsch = ramsch_then_bock_sauspiel(evening.runde, players, admin)
    client.force_login(scorekeeper)

    panel = client.get(reverse("evenings:game", args=[evening.pk, ramsch.pk]), headers=HTMX)

    strike = page_text(panel)[page_text(panel).index('class="void-form"') :]
    assert "Ohne dieses Spiel:" in strike
    assert "Spiel 2: 0,10 € statt 0,20 € (kein Bockspiel mehr)" in strike
    assert "Sepp 0,10 € (bisher -0,10 €)" in strike
    assert "Hias 0,10 € (bisher 0,30 €)" in strike
    assert "Vroni" not in strike  # -0,10 € either way: without the Ramsch game 2 costs 0,10
    assert Change.objects.filter(evening=evening, kind="void").count() == 0


def test_striking_the_last_game_says_who_deals_next(client, scorekeeper, admin, evening, players):
    evening, ramsch = ramsch_then_bock_sauspiel(evening.runde, players, admin)
    last = evening.games.get(number=2)
    client.force_login(scorekeeper)

    def strike_preview(game):
        panel = page_text(client.get(reverse("evenings:game", args=[evening.pk, game.pk]),
                                     headers=HTMX))  # fmt: skip
        return panel[panel.index('class="void-form"') :]

    # Game 2 was dealt by the second seat; struck, its deal goes back to that seat, as
    # if it had not been played (walk 65: the next dealer changed unannounced).
    dealer = players[1]
    assert last.dealer_id == dealer.pk
    assert f"Danach gibt {dealer.name} neu." in strike_preview(last)
    assert "Danach gibt" not in strike_preview(ramsch)  # games after it: no deal moves

    services.void_game(evening.pk, last.pk, admin)
    assert services.next_deal(evening).dealer == dealer


def test_a_struck_game_s_panel_says_what_counting_it_again_would_change(
    client, scorekeeper, admin, evening, players, tariff_with_bock
):
    evening, ramsch = ramsch_then_bock_sauspiel(evening.runde, players, admin)
    services.void_game(evening.pk, ramsch.pk, admin)
    client.force_login(scorekeeper)

    panel = page_text(client.get(reverse("evenings:game", args=[evening.pk, ramsch.pk]),
                                 headers=HTMX))  # fmt: skip

    # The strike's preview the other way round: the Ramsch's own amounts, and game 2 a
    # Bock game again.
    assert "Spiel 1 zählt nicht" in panel
    assert "Mit diesem Spiel:" in panel
    assert "Spiel 2: 0,20 € statt 0,10 € (wird Bockspiel)" in panel
    assert "Sepp -0,10 € (bisher 0,10 €)" in panel
    assert "Hias 0,30 € (bisher 0,10 €)" in panel
    assert "Vroni" not in panel.split("Mit diesem Spiel:")[1]
    assert Change.objects.filter(evening=evening, kind="restore").count() == 0


def test_a_correction_from_the_evening_screen_answers_with_the_rows_that_changed(
    client, scorekeeper, admin, evening, players, tariff_with_bock
):
    evening = services.start_evening(evening.runde, players[:4], 0, admin)
    for _ in range(6):
        deal = services.next_deal(evening)
        p = [x.pk for x in deal.playing]
        services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
            "sauspiel", declarer=p[0], partner=p[2]), admin)  # fmt: skip
    evening.refresh_from_db()
    fourth = Game.objects.get(evening=evening, number=4)
    client.force_login(scorekeeper)
    url = reverse("evenings:game", args=[evening.pk, fourth.pk])

    panel = client.get(url, headers=HTMX)
    answer = client.post(
        url,
        correction(evening, fourth, key=str(fourth.key), spiel="ramsch", loser=fourth.seating[1])
        | {"v": evening.version},
        headers=HTMX,
    )

    assert "<!doctype" not in panel.text and 'id="correction-form"' in panel.text
    assert 'name="k-spiel"' in panel.text  # beside the entry form, no name is taken twice
    assert answer.status_code == 200
    # Games 4 to 6 changed (the Ramsch, then two Bock games); 1 to 3 are not sent.
    assert re.findall(r'<tbody id="game-(\d+)"', answer.text) == ["4", "5", "6"]
    assert re.search(r'<span id="restore-word">Korrigiert: Spiel 4, Ramsch', answer.text)
    # The corrected game's row says so, there and on the page loaded anew; the games it
    # made Bock games do not (they were not corrected, their history says why they moved).
    corrected = '<span class="corrected">korrigiert</span>'
    for text in (answer.text, client.get(reverse("evenings:detail", args=[evening.pk])).text):
        rows = {m[1]: m[0] for m in re.finditer(r'<tbody id="game-(\d+)".*?</tbody>', text, re.S)}
        assert [n for n, row in rows.items() if corrected in row] == ["4"]
    # Nothing but out-of-band parts: the panel it was sent from closes.
    assert answer.text.lstrip().startswith(
        '<div id="flash" role="status" tabindex="-1" hx-swap-oob="innerHTML">'
    )
    fourth.refresh_from_db()
    assert fourth.type == "ramsch"


def chip_names(text: str, field: str, names: dict[int, str]) -> list[str]:
    """The players on a form's chips for `field`, in the order the page shows them."""
    return [names[int(pk)] for pk in re.findall(rf'name="{field}" value="(\d+)"', text)]


def test_the_correction_form_shows_the_players_in_the_order_the_entry_form_did(
    client, scorekeeper, admin, runde, players
):
    # Five at the table, Hias deals and sits out: Resi, Wastl, Sepp, Vroni play, from the
    # dealer's left (the game's seating); the chips show them as they sit.
    evening = services.start_evening(runde, players[:5], 2, admin)
    names = {p.pk: p.name for p in players}
    client.force_login(scorekeeper)
    shown = chip_names(
        page_text(client.get(reverse("evenings:detail", args=[evening.pk]))), "declarer", names
    )
    assert shown == ["Sepp", "Vroni", "Resi", "Wastl"]
    client.post(
        reverse("evenings:book", args=[evening.pk]),
        entry(evening, declarer=players[1].pk, partner=players[3].pk),
    )
    game = Game.objects.get()
    assert [names[pk] for pk in game.seating] == ["Resi", "Wastl", "Sepp", "Vroni"]

    page = page_text(client.get(reverse("evenings:game", args=[evening.pk, game.pk])))

    for field in ("k-declarer", "k-partner", "k-loser"):
        assert chip_names(page, field, names) == shown, field
    # The preview lists them in that order too.
    assert re.findall(r'<span class="who-gets">(\w+) ', page) == shown


def checked(page: str, field: str) -> bool:
    tag = re.search(rf'<input [^>]*name="{field}"[^>]*>', page)[0]
    return " checked" in tag


@pytest.mark.parametrize(
    ("booked", "ticked"),
    [
        # As the entry form books them: a Tout is Schneider and Schwarz too, a Schwarz
        # is Schneider too.
        ({"tout": True, "schwarz": True, "schneider": True}, {"k-tout"}),
        ({"schwarz": True, "schneider": True}, {"k-schwarz"}),
        ({"schneider": True}, {"k-schneider"}),
    ],
)
def test_the_correction_form_ticks_what_the_entry_form_was_sent_with(
    client, scorekeeper, evening, players, booked, ticked
):
    vroni = players[1]
    game, _ = services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "wenz", declarer=vroni.pk, **booked), scorekeeper)  # fmt: skip
    client.force_login(scorekeeper)

    page = client.get(reverse("evenings:game", args=[evening.pk, game.pk])).text

    boxes = {"k-schneider", "k-schwarz", "k-tout"}
    assert {box for box in boxes if checked(page, box)} == ticked


def test_taking_back_a_tout_in_a_correction_leaves_a_plain_wenz(
    client, scorekeeper, evening, players
):
    vroni = players[1]
    tout = services.GameInput("wenz", declarer=vroni.pk, tout=True, schwarz=True, schneider=True)
    game, _ = services.book_game(evening.pk, uuid.uuid4(), tout, scorekeeper)
    client.force_login(scorekeeper)
    url = reverse("evenings:game", args=[evening.pk, game.pk])
    page = client.get(url).text
    # The form as the browser sends it, with the Tout box unticked.
    sent = dict(re.findall(r'<input type="hidden" name="(k-[a-z_]+)" value="([^"]*)"', page))
    sent |= {"k-spiel": "wenz", "k-declarer": vroni.pk, "k-won": "1", "k-kontra": "0",
             "k-doubled": "0", "k-laufende_wenz": "0"}  # fmt: skip
    sent |= {box: "on" for box in ("k-schneider", "k-schwarz") if checked(page, box)}

    client.post(url, sent)

    game.refresh_from_db()
    assert (game.tout, game.schwarz, game.schneider) == (False, False, False)
    # A plain Wenz won: 0,50 € from each of the three.
    assert services.balances(evening)[vroni.pk] == 150


def test_a_correction_sent_unchanged_says_nothing_changed(client, scorekeeper, evening, players):
    vroni, resi = players[1], players[3]
    game, _ = services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=vroni.pk, partner=resi.pk), scorekeeper)  # fmt: skip
    client.force_login(scorekeeper)

    answer = client.post(
        reverse("evenings:game", args=[evening.pk, game.pk]),
        correction(evening, game, key=str(game.key), declarer=vroni.pk, partner=resi.pk),
        follow=True,
    )

    assert "Das Spiel steht schon so, wie eingegeben: nichts zu ändern." in answer.text
    assert "Korrigiert" not in answer.text
    assert Change.objects.filter(kind="correct").count() == 0


def test_a_second_phone_s_stale_correction_does_not_undo_the_first_one(
    client, scorekeeper, admin, evening, players
):
    """Two phones open game 1's correction; A saves 3 Laufende, then B saves Kontra from
    the form that still shows none: B is told and saves nothing, A's correction stands;
    B's form now shows the game as A left it, and saved again from there, it counts."""
    vroni, resi = players[1], players[3]
    game, _ = services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=vroni.pk, partner=resi.pk), admin)  # fmt: skip
    url = reverse("evenings:game", args=[evening.pk, game.pk])
    client.force_login(scorekeeper)
    seen = re.search(r'name="k-seen" value="(\w+)"', client.get(url, headers=HTMX).text)[1]
    base = correction(evening, key=str(game.key), declarer=vroni.pk, partner=resi.pk)

    a = client.post(url, base | {"k-laufende": "3", "k-seen": seen}, headers=HTMX)
    b = client.post(url, base | {"k-kontra": "1", "k-seen": seen}, headers=HTMX)

    assert "Korrigiert" in a.text
    assert "Inzwischen auf einem anderen Handy korrigiert – nichts geändert." in b.text
    game.refresh_from_db()
    assert (game.laufende, game.kontra) == (3, 0)
    assert Change.objects.filter(kind="correct").count() == 1
    # B's form shows A's 3 Laufende and no Kontra, with the game's new fingerprint.
    assert re.search(r'name="k-laufende" value="3" checked', b.text)
    assert re.search(r'name="k-kontra" value="0" checked', b.text)
    now = re.search(r'name="k-seen" value="(\w+)"', b.text)[1]
    assert now == services.GameInput.of(game).fingerprint() != seen

    again = client.post(url, base | {"k-laufende": "3", "k-kontra": "1", "k-seen": now})

    assert again.status_code == 302
    game.refresh_from_db()
    assert (game.laufende, game.kontra) == (3, 1)
    # The same correction sent twice (a double tap) is no conflict: nothing changed.
    twice = client.post(url, base | {"k-laufende": "3", "k-kontra": "1", "k-seen": now})
    assert twice.status_code == 302
    assert Change.objects.filter(kind="correct").count() == 2


def test_a_correction_whose_game_turned_bock_meanwhile_is_shown_again_not_booked(
    client, scorekeeper, admin, tariff_with_bock, runde, players
):
    """Walk 38: B previews Kontra on game 2 (no Bock game then); A corrects game 1 into a
    Ramsch, which makes game 2 a Bock game; B's save would book twice what B's preview
    showed. It is refused with B's choices kept and the preview anew; saved again, it
    counts at the amounts now shown."""
    evening = services.start_evening(runde, players[:4], 0, admin)
    vroni, hias, resi = players[1], players[2], players[3]
    sauspiel = services.GameInput("sauspiel", declarer=vroni.pk, partner=resi.pk)
    first, _ = services.book_game(evening.pk, uuid.uuid4(), sauspiel, admin)
    second, _ = services.book_game(evening.pk, uuid.uuid4(), sauspiel, admin)
    url = reverse("evenings:game", args=[evening.pk, second.pk])
    client.force_login(scorekeeper)
    seen = re.search(r'name="k-seen" value="(\w+)"', client.get(url, headers=HTMX).text)[1]
    sent = correction(evening, key=str(second.key), declarer=vroni.pk, partner=resi.pk)
    sent |= {"k-kontra": "1", "k-seen": seen}
    previewed = client.post(
        reverse("evenings:correction_preview", args=[evening.pk, second.pk]), sent, headers=HTMX
    ).text
    shown = re.search(r'name="shown" value="([^"]+)"', previewed)[1]
    assert "Bockspiel" not in previewed and "+0,20 €" in previewed
    ramsch = services.GameInput("ramsch", won=False, loser=hias.pk)
    services.correct_game(evening.pk, first.pk, ramsch, admin)

    refused = client.post(url, sent | {"shown": shown}, headers=HTMX)

    assert "zählt jetzt anders als in der Vorschau" in refused.text
    second.refresh_from_db()
    assert second.kontra == 0 and Change.objects.filter(kind="correct").count() == 1
    # The choice stands, and the preview is of what it books now: a Bock game, doubled.
    assert re.search(r'name="k-kontra" value="1" checked', refused.text)
    assert "Bockspiel" in refused.text and "+0,40 €" in refused.text
    now = re.search(r'name="shown" value="([^"]+)"', refused.text)[1]
    assert now != shown

    saved = client.post(url, sent | {"shown": now}, headers=HTMX)

    assert "Korrigiert" in saved.text
    second.refresh_from_db()
    assert second.kontra == 1
    assert services.balances(evening)[vroni.pk] == 10 + 40  # game 1's Ramsch: Hias pays all
    # A preview not yet of the choices sent (a tap faster than it) refuses nothing.
    seen = services.GameInput.of(second).fingerprint()
    back = sent | {"k-kontra": "0", "k-seen": seen, "shown": now}
    assert client.post(url, back).status_code == 302
    second.refresh_from_db()
    assert second.kontra == 0


def test_a_correction_is_taken_back_once_whatever_the_taps(
    client, scorekeeper, admin, evening, players
):
    """ "Rückgängig" after a correction: the game as before, as a correction on the record;
    a second tap says so and changes nothing; after another change it is refused."""
    vroni, resi = players[1], players[3]
    sauspiel = services.GameInput("sauspiel", declarer=vroni.pk, partner=resi.pk)
    game, _ = services.book_game(evening.pk, uuid.uuid4(), sauspiel, admin)
    services.correct_game(evening.pk, game.pk, dataclasses.replace(sauspiel, kontra=1), admin)
    change = Change.objects.get(kind="correct")
    assert services.restorable(evening) == change
    url = reverse("evenings:uncorrect", args=[evening.pk, change.pk])
    client.force_login(scorekeeper)

    first = client.post(url, follow=True)
    again = client.post(url, follow=True)

    assert "Korrektur zurückgenommen: Spiel 1, Sauspiel Vroni mit Resi" in page_text(first)
    assert "Schon zurückgenommen: Spiel 1" in page_text(again)
    game.refresh_from_db()
    assert game.kontra == 0
    assert Change.objects.filter(kind="correct").count() == 2
    # The taking back is not offered to be taken back in turn (walk 41: it flipped), and
    # the first correction, undone, is not taken back twice.
    assert services.restorable(evening) is None
    with pytest.raises(services.EveningError, match="Nichts zurückgenommen"):
        services.undo_correction(evening.pk, change.pk, admin)
    assert Change.objects.filter(kind="correct").count() == 2
    # A game booked after a correction (on another phone, whose word stays): it is taken
    # back all the same, as long as its own game was not changed again.
    services.correct_game(evening.pk, game.pk, dataclasses.replace(sauspiel, kontra=1), admin)
    later = Change.objects.filter(kind="correct").last()
    services.book_game(evening.pk, uuid.uuid4(), sauspiel, admin)
    client.post(reverse("evenings:uncorrect", args=[evening.pk, later.pk]))
    game.refresh_from_db()
    assert game.kontra == 0 and Change.objects.filter(kind="correct").count() == 4


def test_a_correction_set_back_by_hand_says_it_took_the_correction_back(
    client, scorekeeper, admin, evening, players
):
    """Walk 46: corrected won → lost, then set back to won in the correction form, the bar
    went (it does not offer to take back a taking back) and nothing said what happened."""
    vroni, resi = players[1], players[3]
    sauspiel = services.GameInput("sauspiel", declarer=vroni.pk, partner=resi.pk)
    game, _ = services.book_game(evening.pk, uuid.uuid4(), sauspiel, admin)
    url = reverse("evenings:game", args=[evening.pk, game.pk])
    client.force_login(scorekeeper)
    players_of = {"declarer": vroni.pk, "partner": resi.pk}

    lost = client.post(url, correction(evening, game, won="0", **players_of), follow=True)
    game.refresh_from_db()
    won = client.post(url, correction(evening, game, **players_of), follow=True)

    assert "Korrektur zurückgenommen" not in page_text(lost)
    assert "Korrektur zurückgenommen: Spiel 1, Sauspiel Vroni mit Resi" in page_text(won)
    game.refresh_from_db()
    assert game.won and Change.objects.filter(kind="correct").count() == 2


def test_a_correction_of_a_game_struck_meanwhile_says_so(client, scorekeeper, evening, players):
    vroni, resi = players[1], players[3]
    game, _ = services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=vroni.pk, partner=resi.pk), scorekeeper)  # fmt: skip
    url = reverse("evenings:game", args=[evening.pk, game.pk])
    client.force_login(scorekeeper)
    seen = re.search(r'name="k-seen" value="(\w+)"', client.get(url).text)[1]
    services.void_game(evening.pk, game.pk, scorekeeper)

    with pytest.raises(services.StaleCorrection, match="inzwischen gestrichen"):
        services.correct_game(
            evening.pk, game.pk, services.GameInput.of(game), scorekeeper, seen=seen
        )
    answer = client.post(
        url,
        correction(evening, key=str(game.key), declarer=vroni.pk, partner=resi.pk, kontra="1")
        | {"k-seen": seen},
        follow=True,
    )

    assert answer.status_code == 200
    assert "Das Spiel wurde inzwischen gestrichen – nichts geändert." in answer.text
    assert Change.objects.filter(kind="correct").count() == 0
    # Taken back rather than struck, it is said so (walk 58).
    services.restore_game(evening.pk, game.pk, scorekeeper)
    seen = re.search(r'name="k-seen" value="(\w+)"', client.get(url).text)[1]
    services.undo_last(evening.pk, scorekeeper)
    taken_back = client.post(
        url,
        correction(evening, key=str(game.key), declarer=vroni.pk, partner=resi.pk, kontra="1")
        | {"k-seen": seen},
        follow=True,
    )
    assert "Das Spiel wurde inzwischen zurückgenommen – nichts geändert." in taken_back.text
    assert Change.objects.filter(kind="correct").count() == 0


def test_the_csv_marks_the_bock_games_and_names_the_players_in_german_order(
    client, admin, runde, players, set_tariff
):
    set_tariff(runde, bock="ramsch")
    sepp, vroni, hias, resi = players[:4]
    vroni.name = "Ägidius"
    vroni.save()
    evening = services.start_evening(runde, [sepp, vroni, hias, resi], 0, admin)
    services.book_game(
        evening.pk, uuid.uuid4(), services.GameInput(type="ramsch", won=False, loser=hias.pk), admin
    )
    deal = services.next_deal(evening)
    sauspiel = services.GameInput(
        type="sauspiel", declarer=deal.playing[0].pk, partner=deal.playing[1].pk
    )
    services.book_game(evening.pk, uuid.uuid4(), sauspiel, admin)
    client.force_login(admin)

    evening_lines = client.get(reverse("evenings:csv", args=[evening.pk])).content.decode()
    runde_csv = client.get(reverse("evenings:runde_csv", args=[runde.club_id, runde.pk]))
    runde_lines = b"".join(runde_csv.streaming_content).decode()

    for lines in (evening_lines, runde_lines):
        ramsch, bock = lines.split("\r\n")[1:3]
        assert "Bock" not in ramsch
        assert bock.split(";")[2].endswith("· gewonnen · Bock")
    assert runde_lines.startswith("\ufeffNr.;Abend;Spiel;Ägidius;Hias;Resi;Sepp;")
    assert Game.objects.get(evening=evening, number=2).bock


def test_the_csv_keeps_a_struck_game_s_row_without_amounts(client, admin, evening, players):
    """Walk 82: a struck game was left out without a word; the numbers jumped from 1 to 3."""
    vroni, resi = players[1], players[3]
    sauspiel = services.GameInput("sauspiel", declarer=vroni.pk, partner=resi.pk)
    for _ in range(3):
        services.book_game(evening.pk, uuid.uuid4(), sauspiel, admin)
    services.void_game(evening.pk, Game.objects.get(evening=evening, number=2).pk, admin)
    services.undo_last(evening.pk, admin)
    client.force_login(admin)

    lines = client.get(reverse("evenings:csv", args=[evening.pk])).content.decode()

    rows = [line.split(";") for line in lines.split("\r\n")[1:4]]
    assert [row[0] for row in rows] == ["1", "2", "3"]
    assert rows[1][2] == "Sauspiel Vroni mit Resi · gestrichen"
    assert rows[2][2] == "Sauspiel Vroni mit Resi · zurückgenommen"
    assert rows[1][3:] == rows[2][3:] == [""] * (len(rows[0]) - 3)
    # The sums are those of the game that counts.
    sums = lines.split("\r\n")[4].split(";")
    assert sums[2] == "Summe der Spiele"
    assert sums[3:7] == rows[0][3:7]


def test_a_correction_of_a_closed_evening_says_so_and_changes_nothing(
    client, scorekeeper, admin, evening, players
):
    vroni, resi = players[1], players[3]
    game, _ = services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=vroni.pk, partner=resi.pk), scorekeeper)  # fmt: skip
    client.force_login(scorekeeper)
    url = reverse("evenings:game", args=[evening.pk, game.pk])
    sent = correction(evening, key=str(game.key), declarer=vroni.pk, partner=resi.pk, won="0")
    services.close_evening(evening.pk, admin)
    closed = "Der Abend ist abgeschlossen – nichts geändert."

    page = client.get(url, follow=True)
    saved = client.post(url, sent, follow=True)
    from_the_screen = client.post(url, sent, headers=HTMX)
    preview = client.post(
        reverse("evenings:correction_preview", args=[evening.pk, game.pk]), sent, headers=HTMX
    )

    assert page.redirect_chain[-1][0] == reverse("evenings:detail", args=[evening.pk])
    assert closed in page.text and closed in saved.text
    assert "Korrektur speichern" not in saved.text
    assert from_the_screen["HX-Refresh"] == "true" and preview["HX-Refresh"] == "true"
    assert Change.objects.filter(kind="correct").count() == 0
    game.refresh_from_db()
    assert game.won is True


@pytest.mark.parametrize("member", [True, False])
def test_opening_an_address_that_only_takes_forms_gets_a_page_in_german(
    client, scorekeeper, evening, member
):
    # A reload after a payment's error, a restored tab: the address of a form's target.
    if member:
        client.force_login(scorekeeper)
    changes = Change.objects.count()
    paths = [f"/abend/{evening.pk}/zahlung/", f"/abend/{evening.pk}/buchen/",
             f"/abend/{evening.pk + 1000}/zuruecknehmen/"]  # fmt: skip

    for path in paths:
        response = client.get(path)

        assert response.status_code == 405
        assert response["Allow"] == "POST"
        assert "<h1>Diese Adresse öffnet keine Seite</h1>" in response.text
        up = path.rstrip("/").rpartition("/")[0] + "/"
        assert f'<a class="button" href="{up}">Weiter</a>' in response.text
    assert Change.objects.count() == changes


def test_a_form_sent_to_a_page_gets_a_german_answer_and_changes_nothing(
    client, scorekeeper, evening
):
    client.force_login(scorekeeper)
    changes = Change.objects.count()
    page = reverse("evenings:detail", args=[evening.pk])

    response = client.post(page, {"username": "resi", "password": "x"})

    assert response.status_code == 405
    assert response["Allow"] == "GET"
    assert "<h1>Hier wird nichts gespeichert</h1>" in response.text
    assert f'<a class="button" href="{page}">Weiter</a>' in response.text
    assert Change.objects.count() == changes


def test_a_struck_game_counts_again_from_its_row_whatever_was_booked_since(
    client, scorekeeper, admin, evening, players
):
    def book_next():
        p = [x.pk for x in services.next_deal(evening).playing]
        return services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
            "sauspiel", declarer=p[0], partner=p[2]), admin)[0]  # fmt: skip

    for _ in range(3):
        book_next()
    second = Game.objects.get(evening=evening, number=2)
    standing = services.standing(evening)
    services.void_game(evening.pk, second.pk, admin)
    fourth = book_next()
    client.force_login(scorekeeper)
    url = reverse("evenings:game", args=[evening.pk, second.pk])

    page = client.get(reverse("evenings:detail", args=[evening.pk])).text
    panel = client.get(url, headers=HTMX)
    not_corrected = client.post(url, correction(evening, declarer=players[0].pk))
    restored = client.post(reverse("evenings:restore", args=[evening.pk, second.pk]))

    assert f'<a href="{url}" hx-get="{url}"' in page  # the struck row opens its game
    assert '<h2 class="correction-title" tabindex="-1">Spiel 2 zählt nicht</h2>' in panel.text
    assert f'action="{reverse("evenings:restore", args=[evening.pk, second.pk])}"' in panel.text
    # Counted again, not corrected as it is: a correction sent for it changes nothing.
    assert not_corrected.status_code == 302
    assert not Change.objects.filter(kind="correct").exists()
    assert restored.status_code == 302
    second.refresh_from_db()
    assert second.is_booked
    # Games 1 to 3 count as before the strike, and game 4 besides.
    won = dict(fourth.ledger.values_list("player_id").annotate(s=Sum("amount")).values_list(
        "player_id", "s"))  # fmt: skip
    assert services.standing(evening) == {pk: standing[pk] + won[pk] for pk in standing}
    assert Change.objects.filter(evening=evening).latest("pk").kind == "restore"

    # A game taken back by "Letztes Spiel zurücknehmen" comes back by "Rückgängig", not
    # from its row; a plain player sees no link to any game.
    services.undo_last(evening.pk, admin)
    undone = reverse("evenings:game", args=[evening.pk, fourth.pk])
    assert f'href="{undone}"' not in client.get(reverse("evenings:detail", args=[evening.pk])).text
    plain = make_user("vroni", "Vroni")
    Membership.objects.create(user=plain, club=evening.runde.club, role="spieler")
    services.void_game(evening.pk, second.pk, admin)
    client.force_login(plain)
    assert f'href="{url}"' not in client.get(reverse("evenings:detail", args=[evening.pk])).text


def test_every_page_of_the_club_and_its_evenings_names_itself_in_the_title(
    client, admin, club, runde, evening, players
):
    """Browser tabs and screen readers tell the pages apart by their <title>."""
    from clubs.models import Invitation
    from evenings.services import GameInput

    sepp, vroni, hias, resi = players[:4]
    game, _ = services.book_game(
        evening.pk,
        uuid.uuid4(),
        GameInput(type="sauspiel", declarer=vroni.pk, partner=resi.pk, won=True),
        admin,
    )
    invitation = Invitation.objects.create(club=club, role="spieler", created_by=admin)
    client.force_login(admin)
    pages = {
        reverse("clubs:players", args=[club.pk]): "Spieler Schafkopffreunde Au",
        reverse("clubs:player", args=[club.pk, sepp.pk]): "Sepp",
        reverse("clubs:members", args=[club.pk]): "Mitglieder Schafkopffreunde Au",
        reverse("clubs:runde_create", args=[club.pk]): "Runde anlegen",
        reverse("evenings:start", args=[club.pk, runde.pk]): "Abend beginnen: Donnerstagsrunde",
        reverse("evenings:runde_balances", args=[club.pk, runde.pk]): "Konten Donnerstagsrunde",
        reverse("evenings:game", args=[evening.pk, game.pk]): f"Spiel 1 · {evening}",
        reverse("evenings:history", args=[evening.pk]): f"Verlauf · {evening}",
        reverse("evenings:settlement", args=[evening.pk]): f"Abrechnung · {evening}",
    }
    for url, title in pages.items():
        assert f"<title>{title} · Schafkopf</title>" in client.get(url).text, url

    client.force_login(make_user("neu", "Neu"))
    text = client.get(reverse("clubs:join", args=[invitation.token])).text
    assert "<title>Einladung Schafkopffreunde Au · Schafkopf</title>" in text


def test_taking_back_the_last_game_takes_back_the_one_the_phone_showed_and_only_once(
    client, scorekeeper, admin, evening, players
):
    sepp, vroni, hias, resi = players[:4]
    for declarer, partner in ((vroni, resi), (hias, sepp)):
        services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
            "sauspiel", declarer=declarer.pk, partner=partner.pk), admin)  # fmt: skip
    client.force_login(scorekeeper)
    page = client.get(reverse("evenings:detail", args=[evening.pk])).text
    shown = re.search(r'<form id="undo".*?name="v" value="(\d+)"', page)[1]
    undo = reverse("evenings:undo", args=[evening.pk])

    first = client.post(undo, {"v": shown}, follow=True)
    again = client.post(undo, {"v": shown}, follow=True)  # a double tap, or a reload

    assert "Zurückgenommen: Spiel 2, Sauspiel" in first.text
    assert (
        "Spiel 2 ist schon zurückgenommen: dein Tippen war angekommen, auf diesem oder einem "
        "anderen Gerät." in again.text
    )
    # Its own "Rückgängig" names nobody; another Schreiber's says whose take-back it is.
    assert "(von " not in first.text
    other = Client()
    other.force_login(admin)
    elsewhere = other.get(reverse("evenings:detail", args=[evening.pk])).text
    declarer = evening.games.get(number=2).declarer.name
    assert re.search(rf"Zurückgenommen: Spiel 2, Sauspiel {declarer}[^<]*\(von ", elsewhere)
    assert "Nichts zurückgenommen" not in again.text
    booked = list(evening.games.booked().values_list("number", flat=True))
    assert booked == [1]
    assert Change.objects.filter(evening=evening, kind="undo").count() == 1

    # A phone that had not seen another phone's game takes nothing back either.
    evening.refresh_from_db()
    stale = evening.version
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=sepp.pk, partner=hias.pk), admin)  # fmt: skip
    refused = client.post(undo, {"v": stale}, follow=True)
    assert "Nichts zurückgenommen: am Abend hat sich inzwischen etwas geändert." in refused.text
    assert evening.games.booked().count() == 2
    # Nor does another person's phone that showed the evening before this undo.
    evening.refresh_from_db()
    shown = evening.version
    services.undo_last(evening.pk, admin, shown)
    other = client.post(undo, {"v": shown}, follow=True)
    # It says which game went, not "nochmal tippen" (walk 58: that took back one more).
    assert (
        "Nichts zurückgenommen: Spiel 3 ist eben auf einem anderen Handy zurückgenommen "
        "worden. Soll noch ein Spiel zurück, bitte erst prüfen, welches jetzt das letzte ist."
    ) in other.text
    assert evening.games.booked().count() == 1


def test_a_booking_from_a_phone_that_missed_another_phones_game_brings_that_row_too(
    client, scorekeeper, admin, evening, players
):
    sepp, vroni, hias, resi = players[:4]
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=vroni.pk, partner=resi.pk), admin)  # fmt: skip
    evening.refresh_from_db()
    shown = evening.version  # this phone shows game 1; its polls then did not get through
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=hias.pk, partner=sepp.pk), admin)  # fmt: skip
    client.force_login(scorekeeper)

    answer = client.post(
        reverse("evenings:book", args=[evening.pk]),
        entry(evening, declarer=sepp.pk, partner=vroni.pk) | {"v": str(shown)},
        headers=HTMX,
    )

    assert "Gebucht: Spiel 3, Sauspiel Sepp" in answer.text
    added = re.findall(r'<tbody id="game-(\d+)"', answer.text)
    assert added == ["2", "3"]  # in order, before the foot
    # A phone that shows everything before its game gets its own row only.
    evening.refresh_from_db()
    current = client.post(
        reverse("evenings:book", args=[evening.pk]),
        entry(evening, declarer=resi.pk, partner=hias.pk) | {"v": str(evening.version)},
        headers=HTMX,
    )
    assert re.findall(r'<tbody id="game-(\d+)"', current.text) == ["4"]


def test_the_history_says_bock_and_which_games_a_strike_scored_anew(
    client, admin, runde, players, tariff_with_bock
):
    """A Ramsch makes the next games Bock games; the history says "Bock" at their
    booking, and striking the Ramsch names the games it scored anew, whose amounts its
    line moves. The booking lines still say "Bock": their amounts are a Bock game's."""
    evening, ramsch, book = ramsch_and_two_sauspiele(runde, players, admin)
    client.force_login(admin)

    def changes() -> list[str]:
        """Each change of the history as its text: start, game 1, 2, 3 (and the strike)."""
        page = client.get(reverse("evenings:history", args=[evening.pk])).text
        items = re.findall(r'<li class="change \w+">(.*?)</li>', page, re.DOTALL)
        return [" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in items]

    booked = changes()
    services.void_game(evening.pk, ramsch.pk, admin)
    struck = changes()

    assert [text.count("· Bock") for text in booked] == [0, 0, 1, 1]
    assert "Sauspiel" in booked[2] and "+0,20 €" in booked[2]  # 0,10 € doubled
    assert not Game.objects.filter(evening=evening, bock=True).exists()
    # Their Bock shifted since: their booking lines say what they were booked as (their
    # amounts doubled), the strike why their amounts moved.
    assert [text.count("· Bock") for text in struck] == [0, 0, 1, 1, 0]
    assert "Dazu neu gewertet (Bock): Spiele 2, 3" in struck[-1]
    # What it moved, by game: the Ramsch's amounts taken back, the Bock games' halved; not
    # one sum over three games (walk 61).
    assert re.findall(r"Spiel (\d): ", struck[-1]) == ["1", "2", "3"]
    # Four at the table, each moved by half a Bock game's 0,20 €.
    assert re.search(r"Spiel 2: (\w+ [-+]0,10 € ){4}Spiel 3: ", struck[-1])
    assert not any(re.search(r"Spiel \d: ", text) for text in booked)
    # Restored, the Ramsch makes them Bock games again; struck again, not.
    services.restore_game(evening.pk, ramsch.pk, admin)
    later = book(lambda p: services.GameInput("sauspiel", declarer=p[0].pk, partner=p[1].pk))
    services.void_game(evening.pk, later.pk, admin)
    assert Game.objects.filter(evening=evening, bock=True).count() == 3
    assert [text.count("· Bock") for text in changes()] == [0, 0, 1, 1, 0, 0, 1, 1]
    assert "Dazu neu gewertet" not in " ".join(booked)
    # A Bock game corrected: Bock on both sides of its "before → after", said first.
    second = Game.objects.get(evening=evening, number=2)
    services.correct_game(evening.pk, second.pk, dataclasses.replace(
        services.GameInput.of(second), won=False), admin)  # fmt: skip
    corrected = changes()[-1]
    assert "Bockspiel: Sauspiel" in corrected and "→" in corrected and "· Bock" not in corrected


def test_the_history_keeps_the_bock_of_a_game_counted_again_as_none(
    client, admin, runde, players, tariff_with_bock
):
    """Walk 60: a Bock game taken back, its Ramsch corrected away, then counted again
    ("Rückgängig"): it counts as a plain game now, and its booking and taking back lost
    "Bock" in the history, though their amounts were a Bock game's."""
    evening = services.start_evening(runde, players[:4], 0, admin)

    def book(make) -> Game:
        deal = services.next_deal(evening)
        return services.book(evening.pk, uuid.uuid4(), make(deal.playing), admin, deal.token).game

    ramsch = book(lambda p: services.GameInput("ramsch", won=False, loser=p[0].pk))
    second = book(lambda p: services.GameInput("sauspiel", declarer=p[0].pk, partner=p[1].pk))
    services.undo_last(evening.pk, admin)
    services.correct_game(evening.pk, ramsch.pk, services.GameInput(
        "sauspiel", declarer=ramsch.seating[0], partner=ramsch.seating[1]), admin)  # fmt: skip
    client.force_login(admin)
    restored = client.post(reverse("evenings:restore", args=[evening.pk, second.pk]), follow=True)
    page = client.get(reverse("evenings:history", args=[evening.pk])).text
    items = re.findall(r'<li class="change (\w+)">(.*?)</li>', page, re.DOTALL)
    said = [(kind, " ".join(re.sub(r"<[^>]+>", " ", item).split())) for kind, item in items]

    second.refresh_from_db()
    assert not second.bock and second.is_booked
    assert [kind for kind, _ in said] == ["start", "book", "book", "undo", "correct", "restore"]
    assert [text.count("· Bock") for _, text in said] == [0, 0, 1, 1, 0, 0]
    assert "+0,20 €" in said[2][1] and "+0,10 €" in said[5][1]  # 0,10 € doubled, then not
    # Its word says it as it counts now (walk 63: "· Bock", as it was struck).
    word = re.search(r"Wiederhergestellt: Spiel 2, [^<]*", restored.text)[0]
    assert "Sauspiel" in word and "Bock" not in word
    # Counted again as it was (nothing flipped), the restoring says nothing more.
    third = book(lambda p: services.GameInput("sauspiel", declarer=p[0].pk, partner=p[1].pk))
    services.undo_last(evening.pk, admin)
    services.restore_game(evening.pk, third.pk, admin)
    assert "bock_flipped" not in Change.objects.filter(kind="restore").latest("pk").after
    assert "bock_flipped" in Change.objects.filter(kind="restore").earliest("pk").after


def test_an_admin_opens_a_closed_evening_again_in_two_taps(client, admin, scorekeeper, evening):
    services.close_evening(evening.pk, admin)
    url = reverse("evenings:detail", args=[evening.pk])
    client.force_login(scorekeeper)
    assert "Wieder öffnen" not in client.get(url).text  # the admin's call
    client.force_login(admin)

    page = client.get(url).text

    # The first tap unfolds what it means; the second, "Ja, wieder öffnen", opens it.
    confirm = page.split('<details class="confirm">')[1].split("</details>")[0]
    assert "<summary>Wieder öffnen …</summary>" in confirm
    assert f'action="{reverse("evenings:reopen", args=[evening.pk])}"' in confirm
    assert "bis der Abend auf der Abrechnung wieder abgeschlossen wird." in confirm
    assert '<button type="submit">Ja, wieder öffnen</button>' in confirm
    client.post(reverse("evenings:reopen", args=[evening.pk]))
    evening.refresh_from_db()
    assert evening.is_open
    assert "Der Abend ist wieder offen." in client.get(url).text


def names_of(page: str) -> str:
    """The names the page's entry form shows (their digest, templates/evenings/evening.html)."""
    return re.search(r'name="names" value="([^"]+)"', page)[1]


def test_a_renamed_runde_reaches_the_heading_of_the_phones_that_follow_its_evenings(
    client, scorekeeper, admin, club, runde, evening, players
):
    """Walk 29: a phone following an evening kept the Runde's old name until a reload."""
    closed = services.start_evening(runde, players[2:6], 0, admin)
    services.close_evening(closed.pk, admin)
    evening.refresh_from_db()
    client.force_login(scorekeeper)
    page = client.get(reverse("evenings:detail", args=[evening.pk])).text
    spectator = client.get(reverse("evenings:live", args=[evening.share_token])).text
    admin_phone = type(client)()
    admin_phone.force_login(admin)

    admin_phone.post(
        reverse("clubs:runde_rename", args=[club.pk, runde.pk]), {"name": "Dienstagsrunde"}
    )

    [renamed] = Change.objects.filter(kind=Change.Kind.RENAME)
    assert (renamed.evening_id, renamed.after["name"]) == (evening.pk, "Dienstagsrunde")
    polled = client.get(polled_by(page), headers=HTMX).text
    assert '<span id="runde-title" hx-swap-oob="innerHTML">Dienstagsrunde</span>' in polled
    assert '<span id="runde-back" hx-swap-oob="innerHTML">Dienstagsrunde</span>' in polled
    followed = client.get(polled_by(spectator), headers=HTMX).text
    assert '<span id="runde-title" hx-swap-oob="innerHTML">Dienstagsrunde</span>' in followed
    history = page_text(client.get(reverse("evenings:history", args=[evening.pk])))
    assert "Runde umbenannt" in history
    assert "Die Runde „Donnerstagsrunde“ heißt jetzt „Dienstagsrunde“" in history


def test_a_rename_reaches_the_phones_that_follow_the_evening(
    client, scorekeeper, admin, club, runde, evening, players
):
    sepp, vroni, hias, resi, wastl, kathi = players
    other = services.start_evening(runde, [sepp, hias, resi, wastl], 0, admin)
    closed = services.start_evening(runde, [vroni, hias, resi, kathi], 0, admin)
    services.close_evening(closed.pk, admin)
    p = [x.pk for x in services.next_deal(evening).playing]
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=p[0], partner=p[1], won=True), admin)  # fmt: skip
    evening.refresh_from_db()
    client.force_login(scorekeeper)
    page = client.get(reverse("evenings:detail", args=[evening.pk])).text
    form = entry(evening, names=names_of(page), declarer=p[0])
    spectator = client.get(reverse("evenings:live", args=[evening.share_token])).text
    seen = evening.version

    admin_phone = type(client)()
    admin_phone.force_login(admin)
    edit = reverse("clubs:player", args=[club.pk, vroni.pk])
    saved = admin_phone.post(edit, {"name": "Veronika", "active": "on", "user": ""})
    assert saved.status_code == 302

    # On the record of the open evening she sits at, a new version; nowhere else.
    renames = Change.objects.filter(kind=Change.Kind.RENAME)
    assert [(c.evening_id, c.before, c.after, c.by) for c in renames] == [
        (evening.pk, {"player": vroni.pk, "name": "Vroni"},
         {"player": vroni.pk, "name": "Veronika"}, admin),
    ]  # fmt: skip
    evening.refresh_from_db()
    assert evening.version == seen + 1
    assert other.changes.count() == 1 and closed.changes.count() == 2  # start; start, close
    # The spectator's poll brings the whole sheet with the new name.
    followed = client.get(polled_by(spectator), headers=HTMX)
    assert followed.status_code == 200
    assert '<section id="sheet"' in followed.text
    assert "Veronika" in followed.text and "Vroni" not in followed.text
    # The Schreiber's poll too, and it has the form's preview ask again ...
    polled = client.get(polled_by(page), {"deal": form["deal"]}, headers=HTMX)
    assert polled["HX-Trigger"] == "dealChanged"
    assert "Veronika" in polled.text and "Vroni" not in polled.text
    # ... which brings the chips (the choice kept), the deal line and the new names.
    preview = reverse("evenings:preview", args=[evening.pk])
    refreshed = client.post(preview, form, headers=HTMX).text
    assert 'id="f-declarer" hx-swap-oob="true"' in refreshed
    assert re.search(rf'name="declarer" value="{p[0]}"[^>]*checked', refreshed)
    assert "Bitte den Mitspieler wählen." not in refreshed  # half entered is no mistake
    assert "Veronika" in refreshed and "Vroni" not in refreshed
    assert 'id="deal" hx-swap-oob="true"' in refreshed
    assert names_of(refreshed) != form["names"]
    again = client.post(preview, form | {"names": names_of(refreshed)}, headers=HTMX).text
    assert 'id="f-declarer"' not in again and 'id="id_names"' not in again
    # The history says so; saving the same name again records nothing.
    history = client.get(reverse("evenings:history", args=[evening.pk])).text
    assert "Spieler umbenannt" in history and "Vroni heißt jetzt Veronika" in history
    admin_phone.post(edit, {"name": "Veronika", "active": "on", "user": ""})
    assert renames.count() == 1
    out = io.StringIO()
    call_command("verify_ledger", stdout=out)
    assert out.getvalue().startswith("ledger ok")


def test_a_booking_on_a_phone_that_missed_a_rename_brings_the_new_names(
    client, scorekeeper, admin, evening, players
):
    sepp, vroni = players[:2]
    client.force_login(scorekeeper)
    page = client.get(reverse("evenings:detail", args=[evening.pk])).text
    p = [x.pk for x in services.next_deal(evening).playing]
    form = entry(evening, names=names_of(page), declarer=p[0], partner=p[1],
                 v=str(evening.version))  # fmt: skip
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "ramsch", won=False, loser=p[2]), admin)  # fmt: skip
    vroni.name = "Veronika"
    vroni.save()
    services.record_rename(vroni, "Vroni", admin)
    evening.refresh_from_db()
    # The form's deal moved on: it is said, and the chips come anew.
    stale = client.post(reverse("evenings:book", args=[evening.pk]), form, headers=HTMX)
    assert Game.objects.count() == 1
    form["deal"] = services.next_deal(evening).token
    p = [x.pk for x in services.next_deal(evening).playing]
    form |= {"declarer": p[0], "partner": p[1]}

    answer = client.post(reverse("evenings:book", args=[evening.pk]), form, headers=HTMX)

    assert answer.status_code == 200 and Game.objects.count() == 2, stale.text
    assert '<section id="sheet" class="sheet" aria-label="Spielblatt" hx-swap-oob="true">' in (
        answer.text
    )
    assert "Vroni" not in answer.text and "Veronika" in answer.text
    assert 'id="f-declarer" hx-swap-oob="true"' in answer.text
    assert names_of(answer.text) == names_of(
        client.get(reverse("evenings:detail", args=[evening.pk])).text
    )


def test_a_rename_leaves_a_struck_game_s_undo_offered(client, scorekeeper, admin, evening, players):
    p = [x.pk for x in services.next_deal(evening).playing]
    game, _ = services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=p[0], partner=p[1], won=True), admin)  # fmt: skip
    services.void_game(evening.pk, game.pk, admin)
    vroni = players[1]
    vroni.name = "Veronika"
    vroni.save()
    services.record_rename(vroni, "Vroni", admin)
    client.force_login(scorekeeper)

    page = client.get(reverse("evenings:detail", args=[evening.pk])).text

    assert "Gestrichen: Spiel 1," in page and "Rückgängig" in page


def test_andere_zahlung_chooses_the_only_one_who_owes(client, scorekeeper, evening, players):
    sepp, vroni, hias, resi = players[:4]
    lost = services.GameInput("farbsolo", suit="herz", declarer=hias.pk, won=False)
    services.book_game(evening.pk, uuid.uuid4(), lost, scorekeeper)
    client.force_login(scorekeeper)

    page = client.get(reverse("evenings:settlement", args=[evening.pk])).text

    # Hias alone owes: chosen already, a tap fewer (walk 34); whom to is left to choose.
    payer = page.partition('id="other-payer"')[2].partition("</select>")[0]
    payee = page.partition('id="other-payee"')[2].partition("</select>")[0]
    assert re.findall(r'<option value="(\d*)"( selected)?', payer) == [
        ("", ""),
        (str(hias.pk), " selected"),
    ]
    assert " selected" not in payee


def test_closing_with_bock_games_open_says_they_lapse(
    client, scorekeeper, admin, evening, players, tariff_with_bock
):
    """Walk 48: "Abend abschließen …" did not say that the Bock games still open lapse
    with it, as "Sitzordnung ändern" does; the seed's "gilt nur für den laufenden Abend"
    is what players argue about when a table stops one game early."""
    evening, _ramsch = ramsch_then_bock_sauspiel(evening.runde, players, admin)
    url = reverse("evenings:settlement", args=[evening.pk])
    client.force_login(scorekeeper)

    confirm = page_text(client.get(url)).split('<details class="confirm">')[-1]

    lapse = "Noch 3 Bockspiele sind offen. Eine Bockrunde gilt nur am laufenden Abend: mit "
    assert lapse + "dem Abschluss verfallen sie." in confirm
    for _ in range(3):
        playing = services.next_deal(evening).playing
        sauspiel = services.GameInput("sauspiel", declarer=playing[0].pk, partner=playing[1].pk)
        services.book_game(evening.pk, uuid.uuid4(), sauspiel, admin)
    assert "Bockspiel" not in page_text(client.get(url)).split('<details class="confirm">')[-1]


def test_closing_again_an_evening_opened_for_corrections_says_nothing_of_bock_games(
    client, scorekeeper, admin, evening, players, tariff_with_bock
):
    """Walk 77: opened again after the Runde began another evening, it takes corrections
    only; its Bock games lapsed at the first close, and closing it again warned that they
    would lapse now."""
    evening, _ramsch = ramsch_then_bock_sauspiel(evening.runde, players, admin)
    services.close_evening(evening.pk, admin)
    services.start_evening(evening.runde, players[:4], 0, admin)
    services.reopen_evening(evening.pk, admin)
    assert Evening.objects.get(pk=evening.pk).corrections_only
    client.force_login(scorekeeper)

    page = page_text(client.get(reverse("evenings:settlement", args=[evening.pk])))

    confirm = page.split('<details class="confirm">')[-1]
    assert "Ja, Abend abschließen" in confirm
    assert "Bockspiel" not in confirm


def test_a_correction_of_an_evening_in_an_ausgleich_says_why_it_stays(
    client, admin, scorekeeper, evening, players
):
    """Walk 50: the correction link of an evening the Runde's Ausgleich settled told the
    admin to open it again, which that evening no longer offers."""
    playing = services.next_deal(evening).playing
    game, _ = services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=playing[0].pk, partner=playing[1].pk), admin)  # fmt: skip
    services.close_evening(evening.pk, admin)
    services.start_ausgleich(evening.runde, admin)
    client.force_login(admin)

    url = reverse("evenings:game", args=[evening.pk, game.pk])
    page = unescape(page_text(client.get(url, follow=True)))

    assert "Die Runde wurde am " in page
    assert "ausgeglichen, mit diesem Abend: er bleibt, wie er ist" in page
    assert "wieder öffnet" not in page
    assert Change.objects.filter(kind="correct").count() == 0


def test_opening_again_says_that_the_bock_games_count_again(
    client, admin, evening, players, tariff_with_bock
):
    """Walk 50: closing said the open Bock games lapse; opened again, they counted again,
    and the confirmation said nothing of it."""
    evening, _ramsch = ramsch_then_bock_sauspiel(evening.runde, players, admin)
    services.close_evening(evening.pk, admin)
    client.force_login(admin)

    page = unescape(page_text(client.get(reverse("evenings:detail", args=[evening.pk]))))

    confirm = page.split('<details class="confirm">')[1].split("</details>")[0]
    assert "Die 3 offenen Bockspiele gelten dann wieder." in confirm


def test_a_payment_at_an_ausgleich_settled_again_names_the_ausgleich(admin, evening, players):
    """Walk 50: refused, it spoke of "diesem Abend" on an Ausgleich's page."""
    playing = services.next_deal(evening).playing
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=playing[0].pk, partner=playing[1].pk), admin)  # fmt: skip
    services.close_evening(evening.pk, admin)
    older = services.start_ausgleich(evening.runde, admin)
    later = services.start_evening(evening.runde, players[:4], 0, admin)
    services.book_game(later.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=playing[1].pk, partner=playing[2].pk), admin)  # fmt: skip
    services.close_evening(later.pk, admin)
    services.start_ausgleich(evening.runde, admin)

    with pytest.raises(services.EveningError) as refused:
        services.record_payment(older.pk, playing[2].pk, playing[0].pk, 10, admin)

    assert "wieder ausgeglichen: was bei diesem Ausgleich offen war, wird im neuen bezahlt." in (
        str(refused.value)
    )


def test_the_bar_after_a_correction_says_what_the_game_was_and_is(
    client, scorekeeper, admin, evening, players
):
    """Walk 52: corrected from lost to won, the bar said "Korrigiert: Spiel 1, Sauspiel
    Vroni mit Resi": "gewonnen" goes unsaid where a game is told as booked."""
    sepp, vroni, hias, resi = players[:4]
    game, _ = services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=vroni.pk, partner=resi.pk, won=False), admin)  # fmt: skip
    client.force_login(scorekeeper)
    sent = correction(evening, shows=game, declarer=vroni.pk, partner=resi.pk)

    answer = client.post(reverse("evenings:game", args=[evening.pk, game.pk]), sent, follow=True)

    word = re.search(r'<span id="restore-word">([^<]*)</span>', answer.text)[1]
    assert unescape(word) == (
        "Korrigiert: Spiel 1, Sauspiel Vroni mit Resi · gewonnen (vorher: Sauspiel Vroni mit "
        "Resi · verloren)"
    )


def test_the_game_booked_last_entered_again_is_asked_about_before_it_counts_twice(
    client, five, admin, players
):
    """Walk 57: a second phone, its form already at the next deal, entered the game the
    first had just booked; it was booked again as the next game, its points twice."""
    evening, hias, resi = five, players[2], players[3]
    services.book_game(evening.pk, uuid.uuid4(), services.GameInput(
        "sauspiel", declarer=hias.pk, partner=resi.pk), admin)  # fmt: skip
    form = entry(evening, declarer=hias.pk, partner=resi.pk)
    url = reverse("evenings:book", args=[evening.pk])

    asked = client.post(url, form, headers=HTMX)

    assert (
        "Spiel 1 war genau dieses Spiel: Sauspiel Hias mit Resi. Wirklich noch einmal buchen?"
        '</span> <label class="check"><input type="checkbox" name="again" value="1"> '
        "Ja, noch einmal buchen</label> Sonst das Spiel wählen, das es war."
    ) in asked.text
    assert Game.objects.count() == 1
    assert re.search(rf'name="partner" value="{resi.pk}"[^>]*checked', asked.text)  # kept
    # Another game, or the same one confirmed, is booked.
    booked = client.post(url, form | {"again": "1"}, headers=HTMX)
    assert "Gebucht: Spiel 2, Sauspiel Hias mit Resi" in booked.text
    assert Game.objects.count() == 2
    # Sent again (the answer lost), it is "Schon gebucht", not asked about.
    retried = client.post(url, form | {"again": "1"}, headers=HTMX)
    assert "Wirklich noch einmal buchen" not in retried.text
    assert Game.objects.count() == 2
    other = entry(evening, declarer=resi.pk, partner=players[4].pk)  # Hias deals game 3
    assert "Gebucht: Spiel 3" in client.post(url, other, headers=HTMX).text


def test_a_booking_whose_game_turned_bock_meanwhile_is_not_booked_at_amounts_not_shown(
    client, scorekeeper, admin, tariff_with_bock, runde, players
):
    """Walk 58: B's preview of game 2 showed 0,10 €; A corrected game 1 into a Ramsch,
    which made game 2 a Bock game, and B's save booked it at 0,20 € unasked. Now nothing
    is booked, the choices stay, and the preview and sheet are asked anew (dealMoved)."""
    evening = services.start_evening(runde, players[:4], 0, admin)
    vroni, hias, resi = players[1], players[2], players[3]
    sauspiel = services.GameInput("sauspiel", declarer=vroni.pk, partner=resi.pk)
    first, _ = services.book_game(evening.pk, uuid.uuid4(), sauspiel, admin)
    client.force_login(scorekeeper)
    form = entry(evening, declarer=hias.pk, partner=vroni.pk)
    previewed = client.post(reverse("evenings:preview", args=[evening.pk]), form, headers=HTMX)
    shown = re.search(r'name="shown" value="([^"]+)"', previewed.text)[1]
    assert "Bockspiel" not in previewed.text and "+0,10 €" in previewed.text
    services.correct_game(evening.pk, first.pk, services.GameInput(
        "ramsch", won=False, loser=resi.pk), admin)  # fmt: skip
    url = reverse("evenings:book", args=[evening.pk])

    refused = client.post(url, form | {"shown": shown}, headers=HTMX)

    assert "Nichts gebucht: am Abend wurde inzwischen etwas geändert" in refused.text
    assert refused["HX-Trigger-After-Settle"] == "dealMoved"
    assert evening.games.count() == 1
    assert re.search(rf'name="partner" value="{vroni.pk}"[^>]*checked', refused.text)
    # Previewed anew, it is a Bock game; saved with that preview, it is booked so.
    again = client.post(reverse("evenings:preview", args=[evening.pk]), form, headers=HTMX)
    assert "Bockspiel" in again.text and "+0,20 €" in again.text
    now = re.search(r'name="shown" value="([^"]+)"', again.text)[1]
    booked = client.post(url, form | {"shown": now}, headers=HTMX)
    assert "Gebucht: Spiel 2" in booked.text
    assert evening.games.get(number=2).bock


def ramsch_and_two_sauspiele(runde, players, admin):
    """Four at the table, a Ramsch, then two Sauspiele (Bock games): the evening, the
    Ramsch, and how to book the next game (`book(make)`, make: the deal's playing to a
    GameInput)."""
    evening = services.start_evening(runde, players[:4], 0, admin)

    def book(make) -> Game:
        deal = services.next_deal(evening)
        return services.book(evening.pk, uuid.uuid4(), make(deal.playing), admin, deal.token).game

    ramsch = book(lambda p: services.GameInput("ramsch", won=False, loser=p[0].pk))
    for _ in range(2):
        book(lambda p: services.GameInput("sauspiel", declarer=p[0].pk, partner=p[1].pk))
    return evening, ramsch, book
