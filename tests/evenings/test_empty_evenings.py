"""An evening closed with nothing that counts (started by mistake, say) is left out of the
Runde's list, the players' pages and the statistics, and is still there (walk 29)."""

import importlib
import uuid
from html import unescape

from django.db import connection
from django.urls import reverse

from clubs import services as clubs
from clubs.periods import periods
from clubs.stats import runde_stats
from evenings import services
from evenings.models import Change, Evening
from evenings.services import GameInput
from tests.conftest import page_text


def sauspiel(declarer, partner):
    return GameInput(type="sauspiel", declarer=declarer.pk, partner=partner.pk, won=True)


def book(evening, declarer, partner, by):
    game, created = services.book_game(evening.pk, uuid.uuid4(), sauspiel(declarer, partner), by)
    assert created
    return game


def runde_page(client, runde) -> str:
    return page_text(client.get(reverse("clubs:runde", args=[runde.club_id, runde.pk])))


def evening_link(evening) -> str:
    return f'href="{reverse("evenings:detail", args=[evening.pk])}"'


def test_an_evening_started_by_mistake_is_closed_out_of_the_lists_and_kept(
    client, admin, runde, players, evening
):
    played = services.start_evening(runde, players[:4], 0, admin)
    book(played, players[1], players[2], admin)
    services.close_evening(played.pk, admin)
    client.force_login(admin)

    confirmation = page_text(client.get(reverse("evenings:settlement", args=[evening.pk])))
    closed = client.post(reverse("evenings:settlement", args=[evening.pk]), follow=True)

    # Said before it is done.
    assert "abgeschlossen erscheint der Abend in keiner Liste" in unescape(confirmation)
    assert closed.status_code == 200
    evening.refresh_from_db()
    played.refresh_from_db()
    assert evening.status == Evening.Status.EMPTY
    assert played.status == Evening.Status.CLOSED
    # On the record as any closing is, and still there.
    assert evening.changes.filter(kind=Change.Kind.CLOSE).count() == 1
    assert client.get(reverse("evenings:detail", args=[evening.pk])).status_code == 200

    page = runde_page(client, runde)
    # The tariff's versions count the evening that plays it, not the one left out.
    assert "aktuell</strong> · 1 Abend<" in page
    listed, _, footnote = page.partition("1 Abend ohne Spiel, nicht aufgeführt")
    assert footnote, "the footnote names it"
    assert evening_link(played) in listed
    assert evening_link(evening) not in listed
    assert evening_link(evening) in footnote
    # Told apart from another begun in the same minute by who sat there.
    assert 'class="muted">Sepp, Vroni, Hias, Resi</span>' in footnote

    # Not among Sepp's last evenings, the one he played is.
    sepp = client.get(reverse("clubs:player_home", args=[runde.club_id, players[0].pk]))
    assert evening_link(played) in sepp.text
    assert evening_link(evening) not in sepp.text


def test_an_evening_whose_games_were_all_struck_or_taken_back_counts_nothing(
    admin, runde, players, evening
):
    struck = book(evening, players[1], players[2], admin)
    book(evening, players[2], players[3], admin)
    services.void_game(evening.pk, struck.pk, admin)
    services.undo_last(evening.pk, admin)

    services.close_evening(evening.pk, admin)

    evening.refresh_from_db()
    assert evening.status == Evening.Status.EMPTY
    stats = runde_stats(runde, periods()[-1])
    assert stats["evenings"] == 0
    assert stats["players"] == []


def test_an_evening_with_one_game_or_a_payment_is_closed_as_any_other(
    client, admin, runde, players, evening
):
    book(evening, players[1], players[2], admin)
    paid = services.start_evening(runde, players[:4], 0, admin)
    game = book(paid, players[1], players[2], admin)
    services.record_payment(paid.pk, players[0].pk, players[1].pk, 10, admin)
    services.void_game(paid.pk, game.pk, admin)

    for one in (evening, paid):
        services.close_evening(one.pk, admin)
        one.refresh_from_db()
        assert one.status == Evening.Status.CLOSED
    client.force_login(admin)
    page = runde_page(client, runde)
    assert evening_link(evening) in page and evening_link(paid) in page
    assert "ohne Spiel, nicht aufgeführt" not in page
    assert "abgeschlossen</span>" in page


def test_an_empty_evening_opened_again_is_listed_again(client, admin, runde, evening):
    services.close_evening(evening.pk, admin)
    client.force_login(admin)
    assert evening_link(evening) not in runde_page(client, runde).partition("nicht aufgeführt")[0]

    client.post(reverse("evenings:reopen", args=[evening.pk]))

    evening.refresh_from_db()
    assert evening.status == Evening.Status.OPEN
    page = runde_page(client, runde)
    assert evening_link(evening) in page
    assert "nicht aufgeführt" not in page


def test_a_player_seated_only_at_an_empty_evening_is_told_what_to_do(
    admin, club, runde, players, evening
):
    services.close_evening(evening.pk, admin)

    said = clubs.kept_because(players[0])

    assert said.startswith("Löschen geht nicht: Sepp saß an einem Abend ohne Spiel")
    assert "„aktiv“ abwählen" in said
    book(services.start_evening(runde, players[:4], 0, admin), players[1], players[2], admin)
    assert clubs.kept_because(players[0]).startswith("Löschen geht nicht: Sepp saß schon am")


def test_the_migration_marks_empty_the_evenings_closed_before_with_nothing_that_counts(
    admin, runde, players, evening
):
    migration = importlib.import_module("evenings.migrations.0019_evening_empty")
    played = services.start_evening(runde, players[:4], 0, admin)
    book(played, players[1], players[2], admin)
    struck = services.start_evening(runde, players[:4], 0, admin)
    services.void_game(struck.pk, book(struck, players[1], players[2], admin).pk, admin)
    running = services.start_evening(runde, players[:4], 0, admin)
    for one in (evening, played, struck):
        services.close_evening(one.pk, admin)
    Evening.objects.update(status=Evening.Status.CLOSED)  # as closed before the migration
    Evening.objects.filter(pk=running.pk).update(status=Evening.Status.OPEN)

    with connection.cursor() as cursor:
        cursor.execute(migration.MARK_EMPTY)

    assert dict(Evening.objects.values_list("pk", "status")) == {
        evening.pk: "empty",
        played.pk: "closed",
        struck.pk: "empty",
        running.pk: "open",
    }


def test_who_sat_only_where_nothing_counts_is_in_no_balance_and_no_csv_column(
    client, admin, club, runde, players
):
    # A Runde's first evening: one game taken back, then closed (walk 34).
    mistake = services.start_evening(runde, players[:4], 0, admin)
    book(mistake, players[1], players[2], admin)
    services.undo_last(mistake.pk, admin)
    services.close_evening(mistake.pk, admin)
    client.force_login(admin)

    page = runde_page(client, runde)
    konten = page_text(client.get(reverse("evenings:runde_balances", args=[club.pk, runde.pk])))
    csv = client.get(reverse("evenings:runde_csv", args=[club.pk, runde.pk]))

    assert "Noch kein Abend." in page and "1 Abend ohne Spiel, nicht aufgeführt" in page
    for name in ("Sepp", "Vroni", "Hias"):
        assert f">{name}<" not in page, name
        assert f">{name}<" not in konten, name
    header = b"".join(csv.streaming_content).decode("utf-8-sig").splitlines()[0]
    assert "Sepp" not in header and "Vroni" not in header
