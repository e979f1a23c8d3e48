import re
import uuid
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from clubs import services
from clubs.models import Club, Invitation, Membership, Player, Runde, Tariff
from evenings import services as evening_services
from tests.clubs.test_tariff_editor import TARIFF as EDITOR_TARIFF
from tests.conftest import make_user, page_text
from tournaments import services as tournament_services


def test_anyone_can_create_a_club_and_becomes_its_admin_and_player(client, user):
    client.force_login(user)

    response = client.post(reverse("clubs:create"), {"name": "Schafkopf-Stammtisch Haidhausen"})

    club = Club.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("clubs:detail", args=[club.pk])
    assert club.name == "Schafkopf-Stammtisch Haidhausen"
    assert Membership.objects.get(club=club, user=user).role == Membership.Role.ADMIN
    assert Player.objects.get(club=club).user == user
    # What next: a Runde for money, or a tournament for points (no Runde needed).
    assert (
        "Leg jetzt eine Runde an (um Geld) oder unter „Turniere“ ein Turnier (um Punkte)."
        in client.get(response["Location"]).text
    )


def test_a_long_first_name_founds_a_club_as_a_player_of_the_longest_name_allowed(client, user):
    user.first_name = "Maria-Theresia Kunigunde von Hohenzollern-Sigmaringen"
    user.save()
    client.force_login(user)

    response = client.post(reverse("clubs:create"), {"name": "Hofkartler"})

    assert response.status_code == 302
    player = Player.objects.get(club__name="Hofkartler")
    assert (player.name, player.user) == ("Maria-Theresia Kunigunde von Hohenzoller", user)


def test_a_long_name_on_the_members_page_is_shortened_with_the_whole_name_in_a_title(
    client, admin, club
):
    long = "Maria-Theresia Kunigunde von Hohenzollern-Sigmaringen"
    Membership.objects.create(user=make_user("mt", long), club=club, role="spieler")
    client.force_login(admin)

    page = client.get(reverse("clubs:members", args=[club.pk])).text

    assert f'<strong title="{long}">Maria-Theresia Kunigunde von Hohenzolle…</strong>' in page
    assert "Zugang von Maria-Theresia Kunigunde von Hohenzolle… entfernen" in page


def test_a_club_without_a_name_is_not_created(client, user):
    client.force_login(user)

    response = client.post(reverse("clubs:create"), {"name": "  "})

    assert response.status_code == 200
    assert "Bitte einen Namen eingeben." in response.text
    assert not Club.objects.exists()


def test_a_second_club_of_the_same_name_is_refused_at_the_field(client, user, admin, club):
    """Walk 62: the form sent twice (a double tap) founded two clubs of one name, listed
    alike on the start page. Another person's club may have the name."""
    client.force_login(user)
    url = reverse("clubs:create")

    first = client.post(url, {"name": "Gmoa Ebersberg"})
    again = client.post(url, {"name": "gmoa ebersberg"})
    elsewhere = client.post(url, {"name": club.name})

    assert first.status_code == elsewhere.status_code == 302
    assert again.status_code == 200
    error = again.text.split('id="id_name_error"')[1].split("</")[0]
    assert "Du bist schon in einem Verein namens „gmoa ebersberg“." in error
    assert Club.objects.filter(name__iexact="Gmoa Ebersberg").count() == 1
    assert Club.objects.filter(name=club.name).count() == 2  # the admin's and this one
    # Nor renamed to the name of another of one's clubs.
    own = Club.objects.get(name="Gmoa Ebersberg")
    renamed = client.post(reverse("clubs:rename", args=[own.pk]), {"name": club.name.upper()})
    assert "Du bist schon in einem Verein namens" in renamed.text
    own.refresh_from_db()
    assert own.name == "Gmoa Ebersberg"


def test_the_start_page_lists_the_users_clubs_to_switch_between(client, admin, club, other_admin):
    services_club = Club.objects.get(name="Kartler Giesing")
    Membership.objects.create(user=admin, club=services_club, role=Membership.Role.PLAYER)
    client.force_login(admin)

    response = client.get("/")

    assert reverse("clubs:detail", args=[club.pk]) in response.text
    assert reverse("clubs:detail", args=[services_club.pk]) in response.text


def test_the_start_page_starts_an_evening_in_one_tap_for_who_may(
    client, club, runde, scorekeeper, player_user, other_admin
):
    giesing = Club.objects.get(name="Kartler Giesing")
    elsewhere = services.create_runde(giesing, "Montagsrunde", other_admin)
    Membership.objects.create(user=scorekeeper, club=giesing, role=Membership.Role.PLAYER)
    services.create_prohof_runde(club, "Stadtmeisterschaft", scorekeeper)

    client.force_login(scorekeeper)
    page = client.get("/").text
    client.force_login(player_user)
    spieler = client.get("/").text

    start = reverse("evenings:start", args=[club.pk, runde.pk])
    # A member of two clubs is told which club's Runde it is (each may have a "Donnerstag").
    assert (
        f'<a class="button with-club" href="{start}">{runde.name} <span class="muted club">'
        f"{club.name}</span></a>"
    ) in page
    # Only where the user may start one: not in a club where they are a Spieler, nor a
    # tournament's Runde.
    assert reverse("evenings:start", args=[giesing.pk, elsewhere.pk]) not in page
    assert "Stadtmeisterschaft" not in page
    assert "Abend beginnen" not in spieler and start not in spieler


def test_a_schreiber_who_writes_without_playing_finds_the_running_evening(
    client, club, runde, scorekeeper, player_user, admin, other_admin
):
    players = [
        Player.objects.create(club=club, name=n) for n in ("Sepp", "Vroni", "Wastl", "Kathi")
    ]
    evening = evening_services.start_evening(runde, players, 0, scorekeeper)
    giesing = Club.objects.get(name="Kartler Giesing")
    other = services.create_runde(giesing, "Montagsrunde", other_admin)
    there = evening_services.start_evening(
        other, [Player.objects.create(club=giesing, name=n) for n in "ABCD"], 0, other_admin
    )
    link = f'href="{reverse("evenings:detail", args=[evening.pk])}"'

    client.force_login(scorekeeper)
    start = client.get("/").text
    at_runde = client.get(reverse("clubs:runde", args=[club.pk, runde.pk])).text
    client.force_login(player_user)
    spieler_start = client.get("/").text
    spieler_runde = client.get(reverse("clubs:runde", args=[club.pk, runde.pk])).text
    evening_services.close_evening(evening.pk, admin)
    client.force_login(scorekeeper)
    closed = client.get("/").text

    assert "<h2>Läuft gerade</h2>" in start and link in start
    assert reverse("evenings:detail", args=[there.pk]) not in start  # another club's
    assert f'<a class="button primary" {link}>Laufender Abend vom' in at_runde
    assert 'class="button" href="/verein/' in at_runde  # "Abend beginnen", no longer primary
    # A Spieler not at the table: no way in from the start page, one from the Runde's.
    assert "Läuft gerade" not in spieler_start and link in spieler_runde
    assert "Läuft gerade" not in closed
    # Opened again for corrections after it went on at a new table: not where play goes on.
    evening_services.reopen_evening(evening.pk, admin)
    client.force_login(scorekeeper)
    assert link in client.get("/").text  # opened again, before it went on
    evening_services.continue_at_new_table(
        evening.pk, [*players[1:], Player.objects.create(club=club, name="Girgl")], 0, admin
    )
    evening_services.reopen_evening(evening.pk, admin)
    start = client.get("/").text
    assert link not in start and start.count('<a class="card" href="/abend/') == 1
    # The Runde's list of evenings says what it is open for.
    at_runde = client.get(reverse("clubs:runde", args=[club.pk, runde.pk])).text
    assert at_runde.count('<span class="muted">zum Korrigieren offen') == 1


def test_two_evenings_running_at_once_are_told_apart_by_who_sits_there(
    client, club, runde, scorekeeper, admin
):
    names = ("Sepp", "Vroni", "Wastl", "Kathi", "Girgl", "Vevi", "Bartl", "Zenzi")
    players = [Player.objects.create(club=club, name=n) for n in names]
    evening_services.start_evening(runde, players[:4], 0, admin)
    evening_services.start_evening(runde, players[4:], 0, admin)
    client.force_login(scorekeeper)

    start = client.get("/").text
    at_runde = client.get(reverse("clubs:runde", args=[club.pk, runde.pk])).text

    for page in (start, at_runde):
        assert " · Sepp, Vroni, Wastl, Kathi<" in page and " · Girgl, Vevi, Bartl, Zenzi<" in page


def test_a_running_evening_counts_the_games_that_count(client, club, runde, scorekeeper, admin):
    players = [
        Player.objects.create(club=club, name=n) for n in ("Sepp", "Vroni", "Wastl", "Kathi")
    ]
    evening = evening_services.start_evening(runde, players, 0, admin)
    games = [
        evening_services.book_game(
            evening.pk,
            uuid.uuid4(),
            evening_services.GameInput(type="ramsch", won=False, loser=players[n].pk),
            admin,
        )[0]
        for n in range(3)
    ]
    evening_services.void_game(evening.pk, games[1].pk, admin)
    client.force_login(scorekeeper)

    start = client.get("/").text
    at_runde = client.get(reverse("clubs:runde", args=[club.pk, runde.pk])).text

    # Two count (as in the statistics); game 2 was struck.
    for page in (start, at_runde):
        assert re.search(r"Laufender Abend vom [^<]* · 2 Spiele<", page), page


def test_an_admin_creates_a_runde_with_the_ordinary_tariff(client, admin, club):
    client.force_login(admin)

    response = client.post(reverse("clubs:runde_create", args=[club.pk]), {"name": "Freitag"})

    runde = Runde.objects.get(club=club)
    assert response.status_code == 302
    tariff = runde.tariffs.get()
    assert (tariff.sauspiel, tariff.farbsolo, tariff.wenz, tariff.ramsch) == (10, 50, 50, 10)
    assert tariff.created_by == admin
    # What next, said on the Runde's page it lands on.
    page = client.get(response["Location"]).text
    assert "Als Nächstes: den Tarif prüfen („Tarif ändern“, unten) und den ersten Abend" in page
    assert "Tarif ändern" in page and "Abend beginnen" in page


def test_a_second_runde_with_the_same_name_is_refused(client, admin, club, runde):
    client.force_login(admin)

    response = client.post(
        reverse("clubs:runde_create", args=[club.pk]), {"name": "donnerstagsrunde"}
    )

    assert response.status_code == 200
    assert "Runde" in response.text and "gibt es" in response.text
    assert club.runden.count() == 1


TARIFF = {
    "sauspiel": "0,20",
    "farbsolo": "0,5",
    "wenz": "1",
    "ramsch": "0,20",
    "laufende": "0,10",
    "laufende_min": "3",
    "laufende_max": "8",
    "laufende_min_wenz": "2",
    "schneider": "0,10",
    "schwarz": "0,10",
    "bock": "ramsch",
    "jungfrau": "on",
    "settle_unit": "50",
}


def test_changing_the_tariff_adds_a_version_and_keeps_the_old_one(client, admin, club, runde):
    old = runde.tariff
    client.force_login(admin)

    response = client.post(reverse("clubs:tariff", args=[club.pk, runde.pk]), TARIFF)

    assert response.status_code == 302
    new = Runde.objects.get(pk=runde.pk).tariff
    assert new.pk != old.pk
    assert (new.sauspiel, new.farbsolo, new.wenz, new.laufende_min_wenz) == (20, 50, 100, 2)
    assert (new.bock, new.jungfrau, new.settle_unit) == ("ramsch", True, 50)
    assert new.valid_from > old.valid_from
    old.refresh_from_db()
    assert old.sauspiel == 10  # the old version is untouched
    assert Tariff.objects.filter(runde=runde).valid_at(old.valid_from) == old


@pytest.mark.parametrize(
    ("field", "message"),
    [
        ("laufende_min", "Die Schwelle für Laufende muss zwischen 1 und 14 liegen."),
        ("laufende_min_wenz", "Die Schwelle für Laufende beim Wenz muss zwischen 1 und 4 liegen."),
    ],
)
@pytest.mark.parametrize("typed", ["-1", "0"])
def test_a_laufende_threshold_below_one_gets_one_message_whatever_is_typed(
    client, admin, club, runde, field, message, typed
):
    # -1 was "größer oder gleich 0", and then 0 was "zwischen 1 und 14".
    client.force_login(admin)

    response = client.post(
        reverse("clubs:tariff", args=[club.pk, runde.pk]), TARIFF | {field: typed}
    )

    assert response.status_code == 200
    assert response.context["form"].errors[field] == [message]
    assert "Nicht gespeichert: bitte die markierten Werte prüfen." in response.text
    assert runde.tariffs.count() == 1


def test_saving_an_unchanged_tariff_adds_no_version(client, admin, club, runde):
    client.force_login(admin)
    unchanged = TARIFF | {
        "sauspiel": "0,10",
        "farbsolo": "0,50",
        "wenz": "0,50",
        "ramsch": "0,10",
        "laufende_min_wenz": "3",
        "bock": "off",
        "settle_unit": "1",
    }
    del unchanged["jungfrau"]

    response = client.post(
        reverse("clubs:tariff", args=[club.pk, runde.pk]), unchanged, follow=True
    )

    assert "Nichts geändert: der Tarif ist schon so." in response.text
    assert runde.tariffs.count() == 1


def test_saving_the_tariff_form_as_shown_adds_no_version(client, admin, club, runde):
    client.force_login(admin)
    url = reverse("clubs:tariff", args=[club.pk, runde.pk])
    form = client.get(url).context["form"]
    # What a browser sends back untouched: each field's value as rendered.
    shown = {
        field.html_name: field.field.widget.format_value(field.field.prepare_value(field.value()))
        for field in form
        if field.name != "jungfrau"
    }

    response = client.post(url, shown, follow=True)

    assert "Nichts geändert: der Tarif ist schon so." in response.text
    assert "gilt ab dem nächsten Spielabend" not in response.text
    assert runde.tariffs.count() == 1


def test_the_laufende_thresholds_start_at_one_in_the_page_as_on_the_server(
    client, admin, club, runde
):
    client.force_login(admin)

    page = client.get(reverse("clubs:tariff", args=[club.pk, runde.pk])).text

    for name, top in (("laufende_min", 14), ("laufende_max", 14), ("laufende_min_wenz", 4)):
        (tag,) = re.findall(rf'<input type="number" name="{name}"[^>]*>', page)
        assert 'min="1"' in tag
        assert f'max="{top}"' in tag


def test_an_ambiguous_amount_is_refused_at_its_field_and_nothing_changes(
    client, admin, club, runde
):
    client.force_login(admin)

    response = client.post(
        reverse("clubs:tariff", args=[club.pk, runde.pk]), TARIFF | {"sauspiel": "1.000"}
    )

    assert response.status_code == 200
    assert response.context["form"].errors["sauspiel"] == [
        "„1.000“ ist mehrdeutig – bitte so schreiben: 1,00 oder 1000."
    ]
    assert 'id="id_sauspiel_error"' in response.text
    assert runde.tariffs.count() == 1


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("0,105", "Höchstens zwei Stellen nach dem Komma"),
        # A comma mistyped as a space: not 10,00 €.
        ("0 10", "„0 10“: ein Leerzeichen trennt nur Tausender (1 000,00)"),
    ],
)
def test_a_bad_amount_is_refused_at_its_field_and_nothing_changes(
    client, admin, club, runde, typed, message
):
    client.force_login(admin)

    response = client.post(
        reverse("clubs:tariff", args=[club.pk, runde.pk]), TARIFF | {"sauspiel": typed}
    )

    assert response.status_code == 200
    assert 'id="id_sauspiel_error"' in response.text
    assert message in response.text
    assert runde.tariffs.count() == 1


def test_the_engines_rule_check_lands_at_the_field(client, admin, club, runde):
    client.force_login(admin)

    response = client.post(
        reverse("clubs:tariff", args=[club.pk, runde.pk]),
        TARIFF | {"laufende_min": "5", "laufende_max": "4"},
    )

    assert response.status_code == 200
    assert 'id="id_laufende_max_error"' in response.text
    assert runde.tariffs.count() == 1


def test_the_preview_shows_what_games_cost_under_the_typed_tariff(client, admin, club, runde):
    client.force_login(admin)

    response = client.post(
        reverse("clubs:tariff_preview", args=[club.pk, runde.pk]),
        TARIFF,
        headers={"HX-Request": "true"},
    )

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="preview"')
    assert "Sauspiel gewonnen" in response.text
    assert "0,20 €" in response.text  # a plain Sauspiel at 0,20
    assert "Ramsch mit Jungfrau" in response.text
    assert runde.tariffs.count() == 1  # previewing saves nothing


def test_the_preview_of_an_invalid_tariff_asks_for_valid_values(client, admin, club, runde):
    client.force_login(admin)

    response = client.post(
        reverse("clubs:tariff_preview", args=[club.pk, runde.pk]),
        TARIFF | {"wenz": "viel"},
        headers={"HX-Request": "true"},
    )

    assert response.status_code == 200
    assert "sobald alle Werte gültig sind" in response.text


def test_without_bock_and_jungfrau_the_preview_shows_neither(client, admin, club, runde):
    client.force_login(admin)

    response = client.get(reverse("clubs:tariff", args=[club.pk, runde.pk]))

    assert "Jungfrau" not in response.text.split('id="preview"')[1]
    assert "Bock" not in response.text.split('id="preview"')[1]


def test_the_runde_page_shows_which_tariff_was_valid_when(client, admin, club, runde):
    client.force_login(admin)
    client.post(reverse("clubs:tariff", args=[club.pk, runde.pk]), TARIFF)
    client.post(reverse("clubs:tariff", args=[club.pk, runde.pk]), TARIFF | {"sauspiel": "0,30"})

    response = client.get(reverse("clubs:runde", args=[club.pk, runde.pk]))

    history = response.text.partition('<ol class="history">')[2]
    versions = re.findall(
        r"<summary>für Abende ab [^<]*?( · <strong>aktuell</strong>)? · kein Abend"
        r'(?:<span class="tariff-changes">([^<]*)</span>)?</summary>'
        r'.*?Sauspiel</dt><dd class="amount">([^<]*)</dd>',
        history,
        re.DOTALL,
    )
    # The newest version first, marked as the one in force, each with what it changed.
    assert versions == [
        (" · <strong>aktuell</strong>", "Sauspiel: 0,20 € → 0,30 €", "0,30 €"),
        (
            "",
            "Sauspiel: 0,10 € → 0,20 €; Wenz: 0,50 € → 1,00 €; Ramsch: 0,10 € → 0,20 €; "
            "Laufende beim Wenz ab: 3 → 2; Bockrunde: ohne Bock → nach jedem Ramsch; "
            "Jungfrau: nein → ja; Abrunden beim Ausgleich: auf den Cent → auf 50 Cent",
            "0,20 €",
        ),
        ("", "", "0,10 €"),
    ]


# A tariff version's line in the Tarifverlauf: how many evenings play by it.
VERSION_EVENINGS = re.compile(
    r"für Abende ab [^<]*· (?:<strong>aktuell</strong> · )?([^<]*)"
    r"(?:<span class=\"tariff-changes\">[^<]*</span>)?</summary>"
)


def test_the_runde_page_says_which_evenings_play_by_an_earlier_tariff(client, admin, club, runde):
    from evenings import services as evenings

    players = [club.players.get()] + [
        Player.objects.create(club=club, name=name) for name in ("Sepp", "Vroni", "Hias")
    ]
    early = evenings.start_evening(runde, players, 0, admin)
    client.force_login(admin)
    client.post(reverse("clubs:tariff", args=[club.pk, runde.pk]), TARIFF)
    late = evenings.start_evening(runde, players, 0, admin)

    page = client.get(reverse("clubs:runde", args=[club.pk, runde.pk])).text

    cards = re.findall(r'class="card evening-card" href="/abend/(\d+)/">\s*<span class="when">'
                       r"([^<]*)<span class=\"muted\">([^<]*)</span>", page)  # fmt: skip
    started = timezone.localtime(late.started_at).strftime("%d.%m.%Y · %H:%M")
    assert [(int(pk), status) for pk, _when, status in cards] == [
        (late.pk, "läuft"),
        (early.pk, "läuft · früherer Tarif"),
    ]
    assert cards[0][1].strip() == started
    history = VERSION_EVENINGS.findall(page)
    assert history == ["1 Abend", "1 Abend"]
    # The evenings come before the statistics, which grow long with thirty players.
    assert page.index('id="evenings"') < page.index('id="statistik"') < page.index("Tarifverlauf")


def test_the_tarifverlauf_names_who_saved_a_version_as_the_club_plays_them(
    client, admin, club, runde
):
    """As an evening's history names who changed what: by the player's name ("Theresia"
    on the sheet), not the account's first name ("Resi")."""
    club.players.filter(user=admin).update(name="Theresia")
    client.force_login(admin)
    client.post(reverse("clubs:tariff", args=[club.pk, runde.pk]), TARIFF)

    page = client.get(reverse("clubs:runde", args=[club.pk, runde.pk])).text

    authors = re.findall(r"für Abende ab [\d.: ]+ · (\w+) · <strong>aktuell", page)
    assert authors == ["Theresia"]


def test_the_runde_page_s_kept_evenings_and_tariffs_follow_every_change(client, admin, club, runde):
    """The evening cards and the tariff versions are kept as HTML until the Runde's state
    changes: each kind of change shows on the next visit."""
    import uuid

    players = [club.players.get()] + [
        Player.objects.create(club=club, name=name) for name in ("Sepp", "Vroni", "Hias")
    ]
    client.force_login(admin)
    url = reverse("clubs:runde", args=[club.pk, runde.pk])

    def cards() -> list[str]:
        page = client.get(url).text
        return [
            " ".join(re.sub(r"<[^>]+>|&nbsp;", " ", card).split())
            for card in re.findall(r'<a class="card evening-card".*?</a>', page, re.DOTALL)
        ]

    assert "Noch kein Abend." in client.get(url).text
    evening = evening_services.start_evening(runde, players, 0, admin)
    assert [card.split(" ", 3)[3] for card in cards()] == ["läuft Noch kein Spiel."]

    deal = evening_services.next_deal(evening)
    evening_services.book_game(evening.pk, uuid.uuid4(), evening_services.GameInput(
        "sauspiel", declarer=deal.playing[0].pk, partner=deal.playing[1].pk), admin)  # fmt: skip
    assert cards()[0].endswith("läuft Sepp +0,10 · Vroni +0,10 · Hias -0,10 · Resi -0,10")
    # Kept: a new name, which changes no evening, shows within ten minutes at most.
    Player.objects.filter(name="Hias").update(name="Matthias")
    assert "Hias -0,10" in cards()[0]
    game = evening.games.get()
    evening_services.correct_game(evening.pk, game.pk, evening_services.GameInput(
        "sauspiel", declarer=deal.playing[0].pk, partner=deal.playing[1].pk, won=False,
    ), admin)  # fmt: skip
    assert cards()[0].endswith("läuft Matthias +0,10 · Resi +0,10 · Sepp -0,10 · Vroni -0,10")
    evening_services.close_evening(evening.pk, admin)
    assert "abgeschlossen Matthias +0,10" in cards()[0]
    client.post(reverse("clubs:tariff", args=[club.pk, runde.pk]), TARIFF)
    assert "abgeschlossen · früherer Tarif Matthias" in cards()[0]
    history = VERSION_EVENINGS.findall(client.get(url).text)
    assert history == ["kein Abend", "1 Abend"]
    evening_services.start_evening(runde, players, 0, admin)
    assert len(cards()) == 2
    history = VERSION_EVENINGS.findall(client.get(url).text)
    assert history == ["1 Abend", "1 Abend"]


def test_an_admin_adds_a_player_without_an_account(client, admin, club):
    client.force_login(admin)

    client.post(reverse("clubs:players", args=[club.pk]), {"name": "Wastl"})

    assert club.players.get(name="Wastl").user is None


def test_a_name_one_slip_from_a_player_s_is_asked_about_once(client, admin, club):
    """Walk 92: "Sep" was added beside the club's "Sepp" unasked (the table's "Neu am
    Tisch" asks)."""
    club.players.create(name="Sepp")
    client.force_login(admin)
    url = reverse("clubs:players", args=[club.pk])

    asked = client.post(url, {"name": "Sep"})

    assert asked.status_code == 200
    assert asked.context["form"].errors["name"] == [
        "Meinst du Sepp? Sepp gibt es im Verein schon. Ist Sep jemand anderes, nochmal "
        "„Hinzufügen“ tippen."
    ]
    assert '<input type="hidden" name="sure" value="Sep">' in asked.text
    assert not club.players.filter(name="Sep").exists()
    # Another name typed meanwhile is asked about anew; the same one sent again is meant.
    client.post(url, {"name": "Sepi", "sure": "Sep"})
    assert not club.players.filter(name="Sepi").exists()
    meant = client.post(url, {"name": "Sep", "sure": "Sep"}, follow=True)
    assert "Sep ist jetzt Spieler im Verein." in meant.text
    assert club.players.filter(name="Sep").exists()


def test_a_name_typed_over_two_lines_is_saved_on_one(client, admin, club):
    client.force_login(admin)

    client.post(reverse("clubs:players", args=[club.pk]), {"name": "Wastl\r\nHuber"})
    client.post(reverse("clubs:runde_create", args=[club.pk]), {"name": "Freitags\t runde"})
    twice = client.post(reverse("clubs:players", args=[club.pk]), {"name": "Wastl  Huber"})

    assert club.players.filter(name="Wastl Huber").count() == 1
    assert club.runden.filter(name="Freitags runde").exists()
    assert "Einen Spieler mit diesem Namen gibt es im Verein schon." in twice.text


def test_a_name_too_long_is_refused_at_the_field_not_cut_off(client, admin, club):
    """The browser cut a pasted name at 40 characters without a word ("…Großschönbrunn-"):
    the field has no maxlength, and the server says how long a name may be."""
    long_name = "Maximilian-Alexander von Großschönbrunn-Weißenstadt"
    client.force_login(admin)

    page = client.get(reverse("clubs:players", args=[club.pk]))
    response = client.post(reverse("clubs:players", args=[club.pk]), {"name": long_name})

    assert "maxlength" not in page.text
    assert response.status_code == 200
    assert "Höchstens 40 Zeichen, dieser Name hat 51." in response.text
    assert f'value="{long_name}"' in response.text  # kept, to shorten
    assert not club.players.filter(name__startswith="Maximilian").exists()


def test_a_name_with_invisible_characters_is_the_name_without_them(client, admin, club):
    client.force_login(admin)

    client.post(reverse("clubs:players", args=[club.pk]), {"name": "\u202eZenzi\u202c"})
    again = client.post(reverse("clubs:players", args=[club.pk]), {"name": "Zen\u200bzi"})

    assert "gibt es im Verein schon" in again.text
    assert list(club.players.filter(name__contains="enz").values_list("name", flat=True)) == [
        "Zenzi"
    ]
    # The joiners an emoji is written with stay.
    client.post(
        reverse("clubs:players", args=[club.pk]), {"name": "Hias \U0001f468\u200d\U0001f373"}
    )
    assert club.players.filter(name="Hias \U0001f468\u200d\U0001f373").exists()


def test_two_players_of_a_club_cannot_share_a_name(client, admin, club):
    client.force_login(admin)
    client.post(reverse("clubs:players", args=[club.pk]), {"name": "Wastl"})

    response = client.post(reverse("clubs:players", args=[club.pk]), {"name": "wastl"})

    assert "gibt es im Verein schon" in response.text
    assert club.players.filter(name__iexact="wastl").count() == 1


@pytest.mark.parametrize(
    ("there", "new"),
    [
        ("Weiss", "Weiß"),
        ("René", "rene"),
        ("Jörg", "Jorg"),
        ("Ötzi Müller", "oetzi mueller"),
        ("Mueller", "Müller"),
        ("Hias", "Hias."),
        ("Hans-Peter", "Hanspeter"),
        ("Wastl", "Wast1"),  # walk 64
        ("Toni", "T0ni"),
    ],
)
def test_a_name_that_reads_as_another_players_is_refused_at_the_field(
    client, admin, club, there, new
):
    Player.objects.create(club=club, name=there)
    client.force_login(admin)

    response = client.post(reverse("clubs:players", args=[club.pk]), {"name": new})

    assert response.status_code == 200
    assert response.context["form"].errors["name"] == [
        f"{there} gibt es im Verein schon, und am Tisch wären die beiden kaum "
        "auseinanderzuhalten. Bitte schreib den Namen anders, etwa mit dem "
        "Anfangsbuchstaben des Vornamens."
    ]
    assert not club.players.filter(name=new).exists()


def test_a_rename_to_a_look_alike_is_refused_and_a_kept_look_alike_still_saves(client, admin, club):
    weiss = Player.objects.create(club=club, name="Weiss")
    # Made before the check existed: the pair stays editable under its own names.
    weiss2 = Player.objects.create(club=club, name="Weiß")
    hias = Player.objects.create(club=club, name="Hias")
    client.force_login(admin)

    refused = client.post(
        reverse("clubs:player", args=[club.pk, hias.pk]), {"name": "Wéiss", "user": ""}
    )
    retired = client.post(
        reverse("clubs:player", args=[club.pk, weiss2.pk]),
        {"name": "Weiß", "user": "", "active": ""},
    )
    renamed = client.post(
        reverse("clubs:player", args=[club.pk, weiss2.pk]),
        {"name": "Weiß H.", "user": "", "active": "on"},
    )

    assert "kaum auseinanderzuhalten" in refused.context["form"].errors["name"][0]
    # The page still names the player by their name, not by the refused one.
    same = client.post(
        reverse("clubs:player", args=[club.pk, hias.pk]), {"name": "WEISS", "user": ""}
    )
    assert same.context["form"].errors["name"] == [
        "Einen Spieler mit diesem Namen gibt es im Verein schon."
    ]
    assert "<h1>Hias</h1>" in same.text and "WEISS" not in same.text.split("<form")[0]
    assert retired.status_code == renamed.status_code == 302
    hias.refresh_from_db()
    weiss.refresh_from_db()
    weiss2.refresh_from_db()
    assert (hias.name, weiss.name, weiss2.name, weiss2.active) == ("Hias", "Weiss", "Weiß H.", True)


def test_an_invited_user_joins_in_the_links_role(client, admin, club, user):
    invitation = Invitation.objects.create(club=club, role="schreiber", created_by=admin)
    client.force_login(user)

    response = client.post(reverse("clubs:join", args=[invitation.token]))

    assert response.status_code == 302
    assert Membership.objects.get(club=club, user=user).role == "schreiber"
    assert club.players.get(user=user).name == "Sepp"


def test_a_stranger_following_an_invitation_is_sent_to_sign_up(client, club, admin):
    invitation = Invitation.objects.create(club=club, role="spieler", created_by=admin)

    response = client.get(reverse("clubs:join", args=[invitation.token]))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("signup") + "?next=/einladung/")


def test_a_revoked_invitation_no_longer_works(client, admin, club, user):
    invitation = Invitation.objects.create(club=club, role="spieler", created_by=admin)
    client.force_login(admin)
    client.post(reverse("clubs:invitation_revoke", args=[club.pk, invitation.pk]))
    client.force_login(user)

    response = client.post(reverse("clubs:join", args=[invitation.token]))

    assert response.status_code == 200
    assert "gilt nicht mehr" in response.text
    assert not Membership.objects.filter(user=user).exists()


def test_the_last_admin_cannot_step_down(client, admin, club):
    client.force_login(admin)
    own = Membership.objects.get(user=admin, club=club)

    client.post(reverse("clubs:member_role", args=[club.pk, own.pk]), {"role": "spieler"})

    own.refresh_from_db()
    assert own.role == "admin"


def test_the_last_admin_removing_themself_is_told_no_on_the_members_page(client, admin, club):
    client.force_login(admin)
    own = Membership.objects.get(user=admin, club=club)

    answer = client.post(reverse("clubs:member_remove", args=[club.pk, own.pk]), follow=True)

    assert answer.redirect_chain[-1][0] == reverse("clubs:members", args=[club.pk])
    assert "Der Verein braucht mindestens einen Admin." in answer.text
    assert Membership.objects.filter(pk=own.pk).exists()


def test_a_removed_member_s_player_keeps_its_games_and_can_be_invited_again(
    client, admin, club, player_user
):
    player = club.players.create(name="Christl", user=player_user)
    member = Membership.objects.get(user=player_user, club=club)
    client.force_login(admin)

    client.post(reverse("clubs:member_remove", args=[club.pk, member.pk]))

    assert not Membership.objects.filter(pk=member.pk).exists()
    player.refresh_from_db()
    assert player.user is None
    members = client.get(reverse("clubs:members", args=[club.pk])).text
    assert re.search(rf'<option value="{player.pk}">Christl</option>', members)


def test_a_member_leaves_the_club_in_two_taps_and_their_games_stay(
    client, admin, club, player_user
):
    player = club.players.create(name="Christl", user=player_user)
    client.force_login(player_user)
    page = client.get(reverse("clubs:detail", args=[club.pk])).text
    assert "Verein verlassen …" in page
    assert f"Ja, {club.name} verlassen" in page
    assert "Noch nicht ausgeglichen" not in page  # nothing played, nothing open

    answer = client.post(reverse("clubs:leave", args=[club.pk]), follow=True)

    assert answer.redirect_chain == [(reverse("start"), 302)]
    assert f"Du hast {club.name} verlassen; deine Spiele bleiben dort gebucht." in answer.text
    assert not Membership.objects.filter(user=player_user, club=club).exists()
    player.refresh_from_db()
    assert player.user is None and club.players.filter(pk=player.pk).exists()
    assert client.get(reverse("clubs:detail", args=[club.pk])).status_code == 404


def test_leaving_or_being_removed_says_what_is_still_open(client, admin, club, runde, player_user):
    christl = club.players.create(name="Christl", user=player_user)
    table = [christl, *(club.players.create(name=name) for name in ("Sepp", "Vroni", "Hias"))]
    evening = evening_services.start_evening(runde, table, 0, admin)
    won = evening_services.GameInput("sauspiel", declarer=table[1].pk, partner=table[2].pk)
    evening_services.book_game(evening.pk, uuid.uuid4(), won, admin)
    said = (
        "Noch nicht ausgeglichen: Runde „Donnerstagsrunde“ "
        '<span class="amount">-0,10 €</span> (zu zahlen). '
        "Das bleibt auf dem Konto der Runde stehen; am besten vorher ausgleichen (ein Schreiber "
        "trägt die Zahlung ein)."
    )

    client.force_login(player_user)
    leaving = client.get(reverse("clubs:detail", args=[club.pk])).text
    client.force_login(admin)
    removing = client.get(reverse("clubs:members", args=[club.pk])).text

    assert said in leaving
    assert removing.count(said) == 1  # at Christl's "Entfernen …", nobody else's
    # The club named only where several are (the profile), not on its own pages (walk 81).
    assert "</strong> Noch nicht ausgeglichen" not in leaving + removing
    started = timezone.localtime(evening.started_at).strftime("%d.%m., %H:%M")
    assert (
        f"Du sitzt am laufenden Abend der Runde „Donnerstagsrunde“ (seit {started}): dort wird "
        "weiter für dich gebucht, auch wenn du gehst."
    ) in leaving
    assert (
        f"Christl sitzt am laufenden Abend der Runde „Donnerstagsrunde“ (seit {started}): dort "
        "wird weiter für Christl gebucht, auch nach dem Entfernen."
    ) in removing
    assert removing.count("sitzt am laufenden Abend") == 1  # at Christl's only
    # Open in two Runden: both, and the plural.
    saturday = services.create_runde(club, "Samstagsrunde", admin)
    evening = evening_services.start_evening(saturday, table, 0, admin)
    evening_services.book_game(evening.pk, uuid.uuid4(), won, admin)
    client.force_login(player_user)
    leaving = client.get(reverse("clubs:detail", args=[club.pk])).text
    assert (
        'Runde „Donnerstagsrunde“ <span class="amount">-0,10 €</span> (zu zahlen), Runde '
        '„Samstagsrunde“ <span class="amount">-0,10 €</span> (zu zahlen). Das bleibt auf den '
        "Konten der Runden stehen" in leaving
    )


def test_who_left_or_was_removed_is_told_on_their_start_page_with_what_is_still_open(
    client, admin, club, runde, player_user
):
    christl = club.players.create(name="Christl", user=player_user)
    table = [christl, *(club.players.create(name=name) for name in ("Sepp", "Vroni", "Hias"))]
    evening = evening_services.start_evening(runde, table, 0, admin)
    won = evening_services.GameInput("sauspiel", declarer=table[1].pk, partner=table[2].pk)
    evening_services.book_game(evening.pk, uuid.uuid4(), won, admin)
    client.force_login(admin)
    member = Membership.objects.get(user=player_user, club=club)
    client.post(reverse("clubs:member_remove", args=[club.pk, member.pk]))
    client.force_login(player_user)

    start = page_text(client.get(reverse("start")))

    today = date_format(timezone.localdate(), "d.m.Y")
    assert "Früher dabei" in start
    assert (
        f"<strong>Schafkopffreunde Au</strong>: ein Admin hat deinen Zugang am {today} entfernt."
    ) in start
    assert "Dein Stand dort, noch nicht ausgeglichen:" in start
    # Whom to pay, as the Runde's suggestion has it (Sepp won the Sauspiel with Vroni); the
    # amount whole (walk 70: "0,10 / €" at 320 px).
    assert (
        '<li>Runde „Donnerstagsrunde“ <span class="amount">-0,10 €</span> · Vorschlag: du zahlst '
        'Sepp <span class="amount">0,10 €</span></li>'
    ) in start
    assert "Einen Ausgleich trägt ein Schreiber des Vereins ein." in start
    assert "Eine Zahlung steht dafür nicht an" not in start
    # The evening she sits at runs on: her balance may change yet (walk 70).
    since = date_format(timezone.localtime(evening.started_at), "d.m., H:i")
    assert (
        f"Am laufenden Abend der Runde „Donnerstagsrunde“ (seit {since}) sitzt du noch: dort "
        "wird weiter für dich gebucht, bis er abgeschlossen ist."
    ) in start
    # Removed, not left: no link for anyone lets her in (walk 92).
    assert (
        "Mit einem Link, den ein Admin des Vereins für dich macht, trittst du wieder als "
        "Christl bei, mit deinen Spielen."
    ) in start
    assert "Mit einem Einladungslink des Vereins" not in start
    assert "Du bist derzeit in keinem Verein. Wie du zurückkommst, steht unten" in start
    assert "über einen Einladungslink aufnehmen" not in start  # not any link (walk 94)
    # The club's pages stay closed to them.
    assert client.get(reverse("clubs:detail", args=[club.pk])).status_code == 404
    # Settled (a payment from Christl): said so.
    evening_services.record_payment(evening.pk, christl.pk, table[1].pk, 10, admin)
    evening_services.close_evening(evening.pk, admin)
    closed = client.get(reverse("start")).text
    assert "Deine Konten dort sind ausgeglichen." in closed
    assert "Am laufenden Abend" not in closed
    # Back in the club: nothing of it.
    Membership.objects.create(user=player_user, club=club, role="spieler")
    assert "Früher dabei" not in client.get(reverse("start")).text


def test_a_former_member_owing_a_rest_below_the_unit_is_asked_for_no_payment(
    client, admin, club, runde, player_user
):
    """Walk 74: 0,20 € below a unit of 50 Cent read "Einen Ausgleich trägt ein Schreiber
    des Vereins ein", for a payment no plan asks of them."""
    tariff = runde.tariffs.latest()
    tariff.pk, tariff.settle_unit = None, 50
    tariff.save()
    christl = club.players.create(name="Christl", user=player_user)
    table = [christl, *(club.players.create(name=name) for name in ("Sepp", "Vroni", "Hias"))]
    evening = evening_services.start_evening(runde, table, 0, admin)
    won = evening_services.GameInput("sauspiel", declarer=table[1].pk, partner=table[2].pk)
    evening_services.book_game(evening.pk, uuid.uuid4(), won, admin)
    evening_services.close_evening(evening.pk, admin)
    services.remove_member(Membership.objects.get(user=player_user, club=club), admin)
    client.force_login(player_user)

    start = page_text(client.get(reverse("start")))

    assert "Dein Stand dort, noch nicht ausgeglichen:" in start
    assert "Einen Ausgleich trägt ein Schreiber" not in start
    assert (
        "Eine Zahlung steht dafür nicht an: ein Rest unter dem Betrag, auf den die Runde "
        "abrundet, bleibt auf ihrem Konto stehen."
    ) in start


def test_leaving_is_told_on_the_start_page_as_leaving(client, admin, club, player_user):
    client.force_login(player_user)

    answer = client.post(reverse("clubs:leave", args=[club.pk]), follow=True)

    assert "Schafkopffreunde Au</strong>: du hast den Verein am" in answer.text
    assert club.departures.get().left_themself
    assert "Stand dort" not in answer.text  # no player: nothing of theirs


def test_the_only_admin_is_told_to_name_another_before_leaving(client, admin, club, scorekeeper):
    client.force_login(admin)
    page = client.get(reverse("clubs:detail", args=[club.pk])).text
    assert "Du bist der einzige Admin" in page
    assert "verlassen</button>" not in page

    answer = client.post(reverse("clubs:leave", args=[club.pk]), follow=True)

    assert answer.redirect_chain == [(reverse("clubs:detail", args=[club.pk]), 302)]
    assert "Der Verein braucht mindestens einen Admin." in answer.text
    assert Membership.objects.filter(user=admin, club=club).exists()
    # With a second admin, the first may go.
    Membership.objects.filter(user=scorekeeper).update(role=Membership.Role.ADMIN)
    assert "verlassen</button>" in client.get(reverse("clubs:detail", args=[club.pk])).text
    client.post(reverse("clubs:leave", args=[club.pk]))
    assert not Membership.objects.filter(user=admin, club=club).exists()


def test_a_stranger_with_a_revoked_link_learns_it_before_signing_up(client, admin, club):
    invitation = Invitation.objects.create(club=club, role="spieler", created_by=admin)
    invitation.revoked_at = invitation.created_at
    invitation.save()

    response = client.get(reverse("clubs:join", args=[invitation.token]))

    assert response.status_code == 200
    assert "gilt nicht mehr" in response.text


def test_an_expired_session_keeps_the_tariff_being_typed(client, admin, club, runde):
    response = client.post(
        reverse("clubs:tariff_preview", args=[club.pk, runde.pk]),
        TARIFF,
        headers={"HX-Request": "true"},
    )

    assert response.status_code == 200
    assert response["HX-Retarget"] == "#preview"
    assert "nicht mehr angemeldet" in response.text


def test_a_tariff_saved_after_the_login_expired_is_said_not_saved(client, admin, club, runde):
    before = runde.tariffs.count()

    response = client.post(reverse("clubs:tariff", args=[club.pk, runde.pk]), TARIFF, follow=True)

    assert response.redirect_chain[0][0].startswith(reverse("login") + "?next=")
    assert "Du warst nicht mehr angemeldet – nichts gespeichert." in response.text
    assert runde.tariffs.count() == before
    # A page opened without a login says nothing of the kind.
    assert (
        "nicht mehr angemeldet"
        not in client.get(reverse("clubs:players", args=[club.pk]), follow=True).text
    )


def test_an_admin_links_a_player_without_account_to_a_members_login(
    client, admin, club, player_user
):
    wastl = club.players.create(name="Wastl")
    client.force_login(admin)

    client.post(
        reverse("clubs:player", args=[club.pk, wastl.pk]),
        {"name": "Wastl", "active": "on", "user": player_user.pk},
    )

    wastl.refresh_from_db()
    assert wastl.user == player_user


def test_a_login_cannot_be_linked_to_two_players_or_to_an_outsider(
    client, admin, club, other_admin
):
    wastl = club.players.create(name="Wastl")
    client.force_login(admin)

    for user in (admin, other_admin):  # admin already has a player; other_admin is no member
        response = client.post(
            reverse("clubs:player", args=[club.pk, wastl.pk]),
            {"name": "Wastl", "active": "on", "user": user.pk},
        )
        assert response.status_code == 200
        assert "Bitte eine gültige Auswahl treffen" in response.text

    wastl.refresh_from_db()
    assert wastl.user is None


def page_text_of(html: str) -> str:
    """The page as read: its HTML entities unescaped."""
    return unescape(html)


def test_a_name_typed_by_mistake_is_deleted_but_a_player_who_played_stays(
    client, admin, club, runde
):
    typo = Player.objects.create(club=club, name="Xavre")
    played = [Player.objects.create(club=club, name=n) for n in ("Sepp", "Vroni", "Hias")]
    evening_services.start_evening(runde, [*played, club.players.get(user=admin)], 0, admin)
    client.force_login(admin)

    offered = client.get(reverse("clubs:player", args=[club.pk, typo.pk])).text
    not_offered = client.get(reverse("clubs:player", args=[club.pk, played[0].pk])).text
    deleted = client.post(reverse("clubs:player_delete", args=[club.pk, typo.pk]), follow=True)
    kept = client.post(reverse("clubs:player_delete", args=[club.pk, played[0].pk]), follow=True)

    assert "Ja, Xavre löschen</button>" in offered
    assert "löschen …" not in not_offered
    # Said why, and what to do with a player created twice (walk 29).
    assert (
        "Löschen geht nicht: Sepp saß schon am Tisch, und die Spiele bleiben. Doppelt "
        "angelegt? Dann umbenennen (etwa „Sepp (doppelt)“) und „aktiv“ abwählen"
    ) in page_text_of(not_offered)
    own = client.get(reverse("clubs:player", args=[club.pk, club.players.get(user=admin).pk]))
    assert "Löschen lässt sich nur ein Name ohne Konto" in page_text_of(own.text)
    invited = Player.objects.create(club=club, name="Lena")
    Invitation.objects.create(club=club, role="spieler", created_by=admin, player=invited)
    page = client.get(reverse("clubs:player", args=[club.pk, invited.pk])).text
    assert "Für Lena gibt es einen Einladungslink: erst ihn widerrufen" in page_text_of(page)
    guest = Player.objects.create(club=club, name="Franz", guest=True)
    cup = tournament_services.create_tournament(club, admin, name="Cup", venue="Post")
    tournament_services.add_participants(cup, [guest])
    page = client.get(reverse("clubs:player", args=[club.pk, guest.pk])).text
    assert (
        "Löschen geht nicht: Franz ist zum Turnier „Cup“ gemeldet. Dort bei den Teilnehmern "
        "„Entfernen“ tippen"
    ) in page_text_of(page)
    there = reverse("tournaments:detail", args=[cup.pk])
    assert f'<a href="{there}#teilnehmer">Zu den Teilnehmern von „Cup“</a>' in page
    assert "Abrechnung" not in page_text_of(page)
    assert "Xavre gelöscht." in deleted.text
    assert not club.players.filter(name="Xavre").exists()
    assert "Sepp hat schon gespielt, ein Konto oder eine Einladung und bleibt im Verein." in (
        kept.text
    )
    assert club.players.filter(name="Sepp").exists()


def test_a_logged_in_page_is_asked_for_anew_on_back(client, admin, club, runde):
    """Back to the Runde page after a booking shows the balances after it, not the page
    the browser kept from before."""
    runde_page = reverse("clubs:runde", args=[club.pk, runde.pk])
    assert "no-store" not in client.get(reverse("clubs:rules_default")).get("Cache-Control", "")

    client.force_login(admin)

    for url in (runde_page, reverse("start"), reverse("clubs:rules_default")):
        assert "no-store" in client.get(url)["Cache-Control"], url
    # Nor are downloads kept: the backup holds emails and open links (walk 43).
    for url in (
        reverse("clubs:backup", args=[club.pk]),
        reverse("evenings:runde_csv", args=[club.pk, runde.pk]),
        reverse("evenings:runde_payments_csv", args=[club.pk, runde.pk]),
    ):
        answer = client.get(url)
        assert answer["Content-Disposition"].startswith("attachment"), url
        assert "no-store" in answer["Cache-Control"], url


def test_a_role_change_says_whose_role_it_is_now(client, admin, club):
    sepp = make_user("sepp", "Sepp")
    member = Membership.objects.create(user=sepp, club=club, role=Membership.Role.PLAYER)
    Player.objects.create(club=club, name="Sepp H.", user=sepp)  # as the club knows him
    client.force_login(admin)

    answer = client.post(
        reverse("clubs:member_role", args=[club.pk, member.pk]), {"role": "schreiber"}, follow=True
    )

    # as the members page shows him: his login's name, and the player he is
    assert "Sepp (spielt als Sepp H.) ist jetzt Schreiber." in answer.text
    member.refresh_from_db()
    assert member.role == "schreiber"


def test_role_changes_are_on_the_club_s_record_on_the_members_page(client, admin, club):
    """Who made whom an admin stays known: each change, its roles, when and by whom; the
    form sent twice records it once, and a refused change not at all."""
    sepp = make_user("sepp", "Sepp")
    member = Membership.objects.create(user=sepp, club=club, role=Membership.Role.PLAYER)
    own = Membership.objects.get(user=admin, club=club)
    client.force_login(admin)
    role_url = reverse("clubs:member_role", args=[club.pk, member.pk])

    client.post(role_url, {"role": "schreiber"})
    client.post(role_url, {"role": "schreiber"})  # a double tap
    client.post(role_url, {"role": "admin"})
    client.force_login(sepp)  # the new admin takes the founder's role, then gives up his
    client.post(reverse("clubs:member_role", args=[club.pk, own.pk]), {"role": "spieler"})
    client.post(role_url, {"role": "spieler"})  # refused: the club's last admin
    client.force_login(admin)  # ... who is no admin any more: the page is not theirs
    assert client.get(reverse("clubs:members", args=[club.pk])).status_code == 404
    client.force_login(sepp)
    page = client.get(reverse("clubs:members", args=[club.pk])).text

    changes = club.role_changes.order_by("pk")
    assert [(c.user, c.before, c.after, c.by) for c in changes] == [
        (sepp, "spieler", "schreiber", admin),
        (sepp, "schreiber", "admin", admin),
        (admin, "admin", "spieler", sepp),
    ]
    member.refresh_from_db()
    assert member.role == "admin"
    today = date_format(timezone.localdate(), "d.m.Y")
    section = page[page.index("<h2>Rollen geändert</h2>") : page.index('id="einladungen"')]
    assert [re.sub(r"<[^>]+>", "", li).strip() for li in re.findall(r"<li>.*?</li>", section)] == [
        f"{admin.first_name}: am {today} von Sepp zum Spieler gemacht (vorher Admin)",
        f"Sepp: am {today} von {admin.first_name} zum Admin gemacht (vorher Schreiber)",
        f"Sepp: am {today} von {admin.first_name} zum Schreiber gemacht (vorher Spieler)",
    ]


def test_role_changes_of_a_deleted_login_name_its_player_in_german(client, admin, club):
    """Walk 44: "von gelöschtes Konto", and no word of who it was."""
    berta = make_user("berta", "Berta")
    member = Membership.objects.create(user=berta, club=club, role=Membership.Role.PLAYER)
    Player.objects.create(club=club, name="Berta B.", user=berta)
    hias = make_user("hias", "Hias")
    other = Membership.objects.create(user=hias, club=club, role=Membership.Role.PLAYER)
    client.force_login(admin)
    client.post(reverse("clubs:member_role", args=[club.pk, member.pk]), {"role": "admin"})
    client.force_login(berta)
    client.post(reverse("clubs:member_role", args=[club.pk, other.pk]), {"role": "schreiber"})
    services.delete_account(berta)
    client.force_login(admin)

    html = client.get(reverse("clubs:members", args=[club.pk])).text
    page = re.sub(r"<[^>]+>", "", html)

    today = date_format(timezone.localdate(), "d.m.Y")
    assert f"Hias: am {today} von einem gelöschten Konto zum Schreiber gemacht" in page
    assert (
        f"gelöschtes Konto (spielte als Berta B.): am {today} von {admin.first_name} zum Admin "
        "gemacht (vorher Spieler)"
    ) in page


def test_a_role_sent_as_it_is_says_nothing_changed(client, admin, club):
    sepp = make_user("sepp", "Sepp")
    member = Membership.objects.create(user=sepp, club=club, role=Membership.Role.PLAYER)
    client.force_login(admin)

    answer = client.post(
        reverse("clubs:member_role", args=[club.pk, member.pk]), {"role": "spieler"}, follow=True
    )

    assert "Sepp ist schon Spieler; nichts geändert." in answer.text
    assert not club.role_changes.exists()


def test_an_admin_who_gives_up_their_own_role_is_on_the_record_as_themself(client, admin, club):
    Membership.objects.create(user=make_user("sepp", "Sepp"), club=club, role="admin")
    own = Membership.objects.get(user=admin, club=club)
    client.force_login(admin)
    client.post(reverse("clubs:member_role", args=[club.pk, own.pk]), {"role": "schreiber"})
    client.force_login(Membership.objects.get(club=club, role="admin").user)

    page = client.get(reverse("clubs:members", args=[club.pk])).text

    assert (
        f" hat sich am {date_format(timezone.localdate(), 'd.m.Y')} selbst zum Schreiber " in page
    )


def test_an_admin_who_steps_down_lands_on_the_club_page_not_a_404(client, admin, club):
    second = Membership.objects.create(
        user=make_user("sepp", "Sepp"), club=club, role=Membership.Role.ADMIN
    )
    own = Membership.objects.get(user=admin, club=club)
    client.force_login(admin)
    members = reverse("clubs:members", args=[club.pk])

    page = client.get(members).text
    answer = client.post(
        reverse("clubs:member_role", args=[club.pk, own.pk]), {"role": "schreiber"}, follow=True
    )

    # Their own card asks first, and offers only the roles below Admin.
    own_card = page[page.index(f'id="role-{own.pk}"') - 900 :]
    assert "Eigene Rolle abgeben …" in own_card
    own_select = re.search(rf'<select name="role" id="role-{own.pk}">(.*?)</select>', page, re.S)
    assert own_select and "admin" not in own_select[1]
    assert '<option value="admin" selected>' in page  # the other admin's card, as before
    assert answer.redirect_chain == [(reverse("clubs:detail", args=[club.pk]), 302)]
    assert answer.status_code == 200
    assert "ist jetzt Schreiber." in answer.text
    own.refresh_from_db()
    second.refresh_from_db()
    assert (own.role, second.role) == ("schreiber", "admin")
    assert client.get(members).status_code == 404


def test_the_only_admin_is_not_offered_to_give_up_the_role_or_leave(client, admin, club):
    own = Membership.objects.get(user=admin, club=club)
    Membership.objects.create(user=make_user("sepp", "Sepp"), club=club, role="spieler")
    client.force_login(admin)

    page = client.get(reverse("clubs:members", args=[club.pk])).text

    assert "Admin, der einzige: um die Rolle abzugeben, zuerst einem anderen Mitglied" in page
    assert "Eigene Rolle abgeben" not in page and f'id="role-{own.pk}"' not in page
    assert page.count("Entfernen …") == 1  # Sepp's card only


def test_an_admin_s_own_card_offers_to_leave_the_club_not_to_remove_them(client, admin, club):
    hans = make_user("hans", "Hans")
    Membership.objects.create(user=hans, club=club, role="admin")
    client.force_login(hans)

    page = client.get(reverse("clubs:members", args=[club.pk])).text
    answer = client.post(reverse("clubs:leave", args=[club.pk]))

    assert page.count("Verein verlassen …") == 1 and page.count("Entfernen …") == 1
    assert "Zugang von Hans entfernen" not in page
    assert f'action="{reverse("clubs:leave", args=[club.pk])}"' in page
    assert answer.url == reverse("start")
    assert not Membership.objects.filter(user=hans, club=club).exists()


def test_the_tariff_form_says_what_a_jungfrau_is(client, admin, club, runde):
    client.force_login(admin)

    page = client.get(reverse("clubs:tariff", args=[club.pk, runde.pk])).text

    assert "wer keinen Stich macht (eine Jungfrau), verdoppelt den Ramsch" in page


def test_the_tariff_form_says_the_runde_s_accounts_round_as_saved_at_once(
    client, admin, club, runde
):
    client.force_login(admin)
    url = reverse("clubs:tariff", args=[club.pk, runde.pk])
    assert "die Konten der Runde rechnen schon beim Speichern so" in client.get(url).text


@pytest.mark.parametrize(
    ("url_name", "current"),
    [
        ("clubs:detail", "Schafkopffreunde Au"),
        ("clubs:players", "Spieler"),
        ("tournaments:list", "Turniere"),
        ("clubs:members", "Mitglieder"),
    ],
)
def test_the_club_s_navigation_marks_the_page_one_is_on(client, admin, club, url_name, current):
    client.force_login(admin)

    html = client.get(reverse(url_name, args=[club.pk])).text

    nav = re.search(r'<nav class="clubnav".*?</nav>', html, re.DOTALL).group()
    assert re.findall(r'<a [^>]*aria-current="page">([^<]*)</a>', nav) == [current]


def test_the_admin_renames_a_runde_and_its_evenings_and_accounts_go_with_it(
    client, admin, club, runde
):
    other = services.create_runde(club, "Freitagsrunde", admin)
    resi = club.players.get()
    players = [resi, *(Player.objects.create(club=club, name=n) for n in ("Sepp", "Hias", "Vroni"))]
    evening = evening_services.start_evening(runde, players, 0, admin)
    client.force_login(admin)
    url = reverse("clubs:runde_rename", args=[club.pk, runde.pk])
    assert "Donnerstagsrunde" in client.get(reverse("start")).text  # kept, then renamed

    taken = client.post(url, {"name": "freitagsrunde"})
    empty = client.post(url, {"name": "  "})
    answer = client.post(url, {"name": " Mittwochsrunde "}, follow=True)

    assert taken.status_code == 200 and "Diese Runde gibt es im Verein schon." in taken.text
    assert "<h1>Runde umbenennen</h1>" in empty.text and "← Donnerstagsrunde" in empty.text
    assert answer.redirect_chain == [(reverse("clubs:runde", args=[club.pk, runde.pk]), 302)]
    assert "<h1>Mittwochsrunde</h1>" in answer.text and "Gespeichert." in answer.text
    runde.refresh_from_db()
    other.refresh_from_db()
    assert (runde.name, other.name) == ("Mittwochsrunde", "Freitagsrunde")
    assert evening.runde_id == runde.pk and runde.tariffs.count() == 1
    start = client.get(reverse("start")).text
    assert "Mittwochsrunde" in start and "Donnerstagsrunde" not in start


def test_the_admin_puts_a_typo_in_the_club_s_name_right(client, admin, club, player_user):
    """Walk 29: a typo in the club's name stayed in every header and invitation."""
    invitation = Invitation.objects.create(club=club, role="spieler", created_by=admin)
    url = reverse("clubs:rename", args=[club.pk])
    before = club.name
    client.force_login(admin)

    detail = page_text(client.get(reverse("clubs:detail", args=[club.pk])))
    empty = client.post(url, {"name": "  "})
    saved = client.post(url, {"name": " Schafkopffreunde Moosburg "}, follow=True)

    assert f'href="{url}">Verein umbenennen</a>' in detail
    assert empty.status_code == 200 and "<h1>Verein umbenennen</h1>" in empty.text
    assert f"← {before}" in empty.text  # the heading keeps the name until it is saved
    assert saved.redirect_chain == [(reverse("clubs:detail", args=[club.pk]), 302)]
    assert "Gespeichert: der Verein heißt jetzt „Schafkopffreunde Moosburg“." in page_text(saved)
    club.refresh_from_db()
    assert club.name == "Schafkopffreunde Moosburg"
    same = client.post(url, {"name": "Schafkopffreunde Moosburg"}, follow=True)
    assert "Nichts geändert: der Verein heißt schon so." in page_text(same)
    invited = page_text(client.get(reverse("clubs:join", args=[invitation.token])))
    assert "Schafkopffreunde Moosburg" in invited and before not in invited
    # A Spieler may not: 404, and the name stays.
    client.force_login(player_user)
    assert client.post(url, {"name": "Anders"}).status_code == 404
    assert client.get(reverse("clubs:detail", args=[club.pk])).status_code == 200
    assert "Verein umbenennen" not in client.get(reverse("clubs:detail", args=[club.pk])).text
    club.refresh_from_db()
    assert club.name == "Schafkopffreunde Moosburg"


def test_the_forms_of_one_name_open_with_the_cursor_in_it(client, admin, club, runde):
    client.force_login(admin)

    # A keyboard took five to nine Tabs to reach "Name" (walk 35).
    for url in (
        reverse("clubs:create"),
        reverse("clubs:rename", args=[club.pk]),
        reverse("clubs:runde_create", args=[club.pk]),
        reverse("clubs:runde_rename", args=[club.pk, runde.pk]),
    ):
        page = client.get(url).text
        assert page.count(" autofocus") == 1, url
        assert re.search(r'<input type="text" name="name"[^>]* autofocus', page), url


def test_a_club_where_no_evening_was_begun_is_deleted_whole_by_its_admin(
    client, admin, club, runde, scorekeeper
):
    giesing = Club.objects.create(name="Kartler Giesing")
    Membership.objects.create(user=admin, club=giesing, role="admin")
    Player.objects.create(club=club, name="Sepp")
    Invitation.objects.create(club=club, role="spieler", created_by=admin)
    tournament = tournament_services.create_tournament(
        club, admin, name="Hof", new_season="ProHof 2026"
    )
    tournament_services.add_participants(
        tournament, [Player.objects.create(club=club, name=n) for n in "ABCDEFGH"]
    )
    tournament_services.draw_round(tournament, by=admin)  # drawn, not started
    client.force_login(admin)
    page = client.get(reverse("clubs:detail", args=[club.pk])).text
    assert "Verein löschen …" in page
    assert "Alle Mitglieder verlieren den Zugang." in page  # the Schreiber's too

    answer = client.post(reverse("clubs:delete", args=[club.pk]), follow=True)

    assert answer.redirect_chain == [(reverse("start"), 302)]
    assert "Schafkopffreunde Au ist gelöscht." in page_text(answer)
    assert not Club.objects.filter(pk=club.pk).exists()
    for model in (Runde, Player, Invitation, Membership):
        assert not model.objects.filter(club=club.pk).exists()
    assert not Tariff.objects.filter(runde__club=club.pk).exists()
    assert not tournament_services.Tournament.objects.exists()
    # The admin's other club is untouched; the Schreiber is in no club now.
    assert Membership.objects.filter(user=admin, club=giesing).exists()
    assert not scorekeeper.memberships.exists()


def test_a_club_with_an_evening_begun_is_not_deleted(client, admin, club, runde, scorekeeper):
    players = [
        Player.objects.create(club=club, name=n) for n in ("Sepp", "Vroni", "Wastl", "Kathi")
    ]
    evening = evening_services.start_evening(runde, players, 0, admin)
    evening_services.close_evening(evening.pk, admin)  # nothing booked: put away as empty
    client.force_login(admin)

    page = client.get(reverse("clubs:detail", args=[club.pk])).text
    answer = client.post(reverse("clubs:delete", args=[club.pk]), follow=True)

    assert "Verein löschen …" not in page
    assert "Löschen geht nicht mehr: im Verein wurde schon ein Abend begonnen" in page_text(answer)
    assert Club.objects.filter(pk=club.pk).exists() and runde.evenings.count() == 1
    # Not the admin's to ask: 404, and nothing changed.
    client.force_login(scorekeeper)
    assert client.post(reverse("clubs:delete", args=[club.pk])).status_code == 404
    assert Membership.objects.filter(club=club).count() == 2


def test_the_only_member_of_a_club_that_has_played_may_leave_it(client, admin, club, runde):
    resi = club.players.get(user=admin)
    sepp, vroni, wastl = (
        Player.objects.create(club=club, name=n) for n in ("Sepp", "Vroni", "Wastl")
    )
    evening = evening_services.start_evening(runde, [resi, sepp, vroni, wastl], 0, admin)
    sauspiel = evening_services.GameInput("sauspiel", declarer=vroni.pk, partner=wastl.pk)
    evening_services.book_game(evening.pk, uuid.uuid4(), sauspiel, admin)
    tried = Club.objects.create(name="Probeclub")  # left too, with nothing in it
    Membership.objects.create(user=admin, club=tried, role="admin")
    client.force_login(admin)

    page = page_text(client.get(reverse("clubs:detail", args=[club.pk])))
    answer = client.post(reverse("clubs:leave", args=[club.pk]), follow=True)
    client.post(reverse("clubs:leave", args=[tried.pk]))
    start = page_text(client.get(reverse("start")))

    assert "Du bist das einzige Mitglied: danach sieht niemand mehr den Verein." in page
    assert "Löschen lässt sich ein Verein nur, solange kein Abend begonnen wurde." in page
    assert "Du bist der einzige Admin" not in page
    # Walk 39: not that games are still booked for them there; nobody can.
    assert "läuft noch: danach kann ihn niemand mehr abschließen." in page
    assert "dort wird weiter für dich gebucht" not in page
    assert answer.redirect_chain == [(reverse("start"), 302)]
    assert not Membership.objects.filter(club=club).exists()
    # The club stays with what was begun in it.
    assert runde.evenings.count() == 1 and club.departures.get().user == admin
    # The start page tells what stays open there, and no advice nobody can follow.
    assert "Niemand ist mehr im Verein: dort bucht, gleicht aus und lädt niemand mehr ein." in start
    assert "Einen Ausgleich trägt ein Schreiber" not in start
    assert "Mit einem Einladungslink des Vereins trittst du wieder" not in start
    assert 'aria-label="Probeclub"' not in start  # nothing to tell there


def test_a_guest_who_played_a_tournament_only_is_told_of_points_not_payments(client, admin, club):
    guests = [Player.objects.create(club=club, name=n, guest=True) for n in "ABCD"]
    cup = tournament_services.create_tournament(club, admin, name="Cup", venue="Post")
    tournament_services.add_participants(cup, guests)
    tournament_services.start_round(tournament_services.draw_round(cup, seed=1), admin)
    client.force_login(admin)

    page = page_text(client.get(reverse("clubs:player", args=[club.pk, guests[0].pk])))

    assert "Löschen geht nicht: A saß schon am Tisch, und die Punkte bleiben." in page
    assert "Abrechnung" not in page and "Zu den Teilnehmern" not in page


@pytest.fixture
def second_admin(club):
    """Another admin of the club, on their own phone."""
    hias = make_user("hias2", "Hias")
    Membership.objects.create(user=hias, club=club, role=Membership.Role.ADMIN)
    Player.objects.create(club=club, name="Hias", user=hias)
    return hias


# The Runde's first tariff as its form sends it.
TARIFF_FORM = EDITOR_TARIFF | {"sauspiel": "0,10"}


def test_a_tariff_saved_from_a_page_made_before_another_admin_s_save_undoes_nothing(
    client, admin, second_admin, club, runde
):
    """Walk 47: Hias, from a page opened before Resi's save, saved Farbsolo 0,60 € and
    silently put her Sauspiel of 0,20 € back to 0,10 €; the Tarifverlauf blamed him."""
    url = reverse("clubs:tariff", args=[club.pk, runde.pk])
    client.force_login(second_admin)
    page = client.get(url).text
    shown = re.search(r'name="stand" value="(\d+)"', page)[1]
    assert shown == str(runde.tariff.pk)
    resi = Client()
    resi.force_login(admin)
    form = TARIFF_FORM | {"sauspiel": "0,20", "stand": shown}
    assert resi.post(url, form).status_code == 302

    again = client.post(url, TARIFF_FORM | {"farbsolo": "0,60", "stand": shown})

    text = unescape(page_text(again))
    assert (
        "Nicht gespeichert: der Tarif wurde inzwischen geändert (Resi: Sauspiel 0,10 € → " in text
    )
    assert "0,20 €). Unten steht er so, mit deinen Änderungen darüber; bitte prüfen und " in text
    assert "gespeichert ist" not in text
    newer = runde.tariffs.latest()
    assert (newer.sauspiel, newer.farbsolo, runde.tariffs.count()) == (20, 50, 2)
    form = again.context["form"]
    assert (form["sauspiel"].value(), form["farbsolo"].value()) == ("0,20", "0,60")
    assert f'name="stand" value="{newer.pk}"' in again.text
    # Saved once seen: both changes stand, each under its own author.
    saved = client.post(url, TARIFF_FORM | {"sauspiel": "0,20", "farbsolo": "0,60",
                                            "stand": str(newer.pk)})  # fmt: skip
    assert saved.status_code == 302
    latest = runde.tariffs.latest()
    assert (latest.sauspiel, latest.farbsolo, latest.created_by) == (20, 60, second_admin)
    assert latest.changed_from(newer) == [("Farbsolo", "0,50 €", "0,60 €")]


def test_a_stale_tariff_page_names_each_change_s_author_and_a_value_both_changed(
    client, admin, second_admin, club, runde
):
    """Walk 49: the word credited every change since to the last one who saved (Hias's
    own included, in the third person), and said nothing of a value both changed."""
    url = reverse("clubs:tariff", args=[club.pk, runde.pk])
    client.force_login(second_admin)
    shown = str(runde.tariff.pk)
    resi = Client()
    resi.force_login(admin)
    resi.post(url, TARIFF_FORM | {"sauspiel": "0,30", "stand": shown})
    newer = str(runde.tariffs.latest().pk)
    client.post(url, TARIFF_FORM | {"sauspiel": "0,30", "wenz": "0,70", "stand": newer})

    again = client.post(url, TARIFF_FORM | {"sauspiel": "0,40", "stand": shown})

    text = unescape(page_text(again))
    assert "(Resi: Sauspiel 0,10 € → 0,30 €; du: Wenz 0,50 € → 0,70 €)" in text
    assert "Beide geändert – Sauspiel: gespeichert ist 0,30 €, unten steht deine Eingabe " in text
    form = again.context["form"]
    assert (form["sauspiel"].value(), form["wenz"].value()) == ("0,40", "0,70")
    assert runde.tariffs.count() == 3


def test_a_player_saved_from_a_page_made_before_another_admin_s_rename_keeps_it(
    client, admin, second_admin, club
):
    """Walk 47: Hias unticked "Aktiv" on a page opened before Resi renamed Wastl to
    Sebastian, and the name was Wastl again."""
    wastl = Player.objects.create(club=club, name="Wastl")
    url = reverse("clubs:player", args=[club.pk, wastl.pk])
    client.force_login(second_admin)
    page = client.get(url).text
    assert '<input type="hidden" name="was_name" value="Wastl">' in page
    shown = {"was_name": "Wastl", "was_active": "1", "was_user": ""}
    resi = Client()
    resi.force_login(admin)
    assert (
        resi.post(url, {"name": "Sebastian", "active": "on", "user": ""} | shown).status_code == 302
    )

    again = client.post(url, {"name": "Wastl", "user": ""} | shown)

    text = unescape(page_text(again))
    assert "Nicht gespeichert: inzwischen wurde Wastl geändert (Anzeigename: Wastl → " in text
    assert "Sebastian). Unten steht, wie es jetzt ist, mit deinen Änderungen" in text
    wastl.refresh_from_db()
    assert (wastl.name, wastl.active) == ("Sebastian", True)
    form = again.context["form"]
    assert (form["name"].value(), form["active"].value()) == ("Sebastian", False)
    assert '<input type="hidden" name="was_name" value="Sebastian">' in again.text
    now = {"was_name": "Sebastian", "was_active": "1", "was_user": ""}
    assert client.post(url, {"name": "Sebastian", "user": ""} | now).status_code == 302
    wastl.refresh_from_db()
    assert (wastl.name, wastl.active) == ("Sebastian", False)


def test_a_role_changed_from_a_page_made_before_another_admin_s_change_is_asked_again(
    client, admin, second_admin, club
):
    """Walk 47 (observation): Hias made Resi an admin from a page that still showed her a
    Spielerin; Anton had made her Schreiberin since."""
    resi = make_user("resi2", "Resi")
    member = Membership.objects.create(user=resi, club=club, role=Membership.Role.PLAYER)
    url = reverse("clubs:member_role", args=[club.pk, member.pk])
    client.force_login(admin)
    assert 'name="was" value="spieler"' in client.get(reverse("clubs:members", args=[club.pk])).text
    client.post(url, {"role": "schreiber", "was": "spieler"})
    hias = Client()
    hias.force_login(second_admin)

    stale = hias.post(url, {"role": "admin", "was": "spieler"}, follow=True)
    twice = client.post(url, {"role": "schreiber", "was": "spieler"}, follow=True)

    assert "Nichts geändert: Resi ist inzwischen Schreiber (von Resi geändert). Bitte noch " in (
        unescape(stale.text)
    )
    assert "Resi ist schon Schreiber; nichts geändert." in unescape(twice.text)
    member.refresh_from_db()
    assert member.role == "schreiber"


def test_a_name_typed_decomposed_is_the_name_a_phone_types(client, admin, club, runde):
    """Walk 47: "Zoë" with a combining diaeresis made a second "Zoë" Runde, and a "Zoë"
    typed on a phone was not found at the table."""
    client.force_login(admin)
    decomposed, composed = "Zoe\u0308", "Zo\u00eb"

    client.post(reverse("clubs:players", args=[club.pk]), {"name": decomposed})
    client.post(reverse("clubs:runde_create", args=[club.pk]), {"name": f"{composed} Runde"})
    twice = client.post(
        reverse("clubs:runde_create", args=[club.pk]), {"name": f"{decomposed} Runde"}
    )

    assert Player.objects.get(club=club, name=composed)
    assert "Diese Runde gibt es im Verein schon." in unescape(twice.text)
    assert club.runden.filter(name__startswith="Zo").count() == 1


def test_names_stored_decomposed_are_composed_unless_another_has_that_name(club):
    from importlib import import_module

    from django.apps import apps

    compose = import_module("clubs.migrations.0011_names_composed").compose
    lone = Player.objects.create(club=club, name="Zoe\u0308")
    pair = [Player.objects.create(club=club, name=n) for n in ("Rene\u0301", "Ren\u00e9")]

    compose(apps, None)

    lone.refresh_from_db()
    pair[0].refresh_from_db()
    assert lone.name == "Zo\u00eb"
    assert pair[0].name == "Rene\u0301"  # "René" is taken: the two stay told apart


def test_the_start_page_lists_clubs_and_accounts_in_german_order(client, admin):
    # The database's own order puts capitals first and umlauts last ("Zwiesel" before
    # "altbayern", "Ödenhof" after both); a club joined later was listed first (walk 61).
    for name in ("Zwiesel", "Ödenhof", "altbayern"):
        club = services.create_club(make_user(name.lower(), name), name)
        Membership.objects.create(user=admin, club=club, role=Membership.Role.PLAYER)
        Player.objects.create(club=club, name="Sepp", user=admin)
    client.force_login(admin)

    page = client.get("/").text

    clubs = page[page.index("Deine Vereine") :]
    assert clubs.index("altbayern") < clubs.index("Ödenhof") < clubs.index("Zwiesel")
    homes = [page.index(f"Deine Konten: {name}") for name in ("altbayern", "Ödenhof", "Zwiesel")]
    assert homes == sorted(homes)


def test_the_club_page_lists_its_runden_in_german_order(client, admin, club):
    for name in ("Zwiesel", "Ödenhof", "altbayern"):
        services.create_runde(club, name, admin)
    client.force_login(admin)

    page = client.get(reverse("clubs:detail", args=[club.pk])).text

    assert page.index("altbayern") < page.index("Ödenhof") < page.index("Zwiesel")


def test_the_club_page_links_each_runde_s_rules(client, club, runde, player_user):
    """Walk 73: a player landing on the club page found the rules only on a Runde's."""
    client.force_login(player_user)

    page = client.get(reverse("clubs:detail", args=[club.pk])).text

    rules = reverse("clubs:rules", args=[club.pk, runde.pk])
    assert f'<span>Regeln und Tarif:</span> <a href="{rules}">{runde.name}</a> </p>' in page
    assert client.get(rules).status_code == 200
