"""The ledger holds against raw SQL over the app's own connection, and what the owner of the
tables can still do is found by verify_ledger.

Each test commits an evening of two games and a payment, then works on it over separate
connections, as the app's role (DATABASE_URL) or as the owner (DATABASE_OWNER_URL).
"""

import json
import os
import re

import psycopg
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from config import roles
from config.env import database_from_url
from evenings import services
from evenings.management.commands import verify_ledger
from evenings.models import Change, LedgerEntry
from tests.evenings.test_services import book, ramsch, sauspiel

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not roles.separate_roles(), reason="needs DATABASE_OWNER_URL, a role apart from the app's"
    ),
]


def connect(url: str) -> psycopg.Connection:
    """A connection of url's role to the test database, outside Django."""
    settings = database_from_url(url)
    return psycopg.connect(
        dbname=connection.settings_dict["NAME"],
        user=settings["USER"],
        password=settings["PASSWORD"] or None,
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        autocommit=True,
    )


@pytest.fixture
def as_app():
    with connect(os.environ["DATABASE_URL"]) as conn:
        yield conn


@pytest.fixture
def as_owner():
    with connect(roles.owner_url()) as conn:
        yield conn


@pytest.fixture
def played(evening, players, admin):
    sepp, vroni, hias, resi = players[:4]
    first = book(evening, sauspiel(vroni, resi), admin)
    second = book(evening, ramsch(hias), admin)
    services.record_payment(evening.pk, hias.pk, vroni.pk, 20, admin)
    return evening, first, second


def verify() -> str:
    with pytest.raises(CommandError) as found:
        call_command("verify_ledger")
    return str(found.value)


def test_the_app_role_is_neither_superuser_nor_owner(as_app):
    row = as_app.execute(
        "SELECT rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = current_user"
    ).fetchone()
    assert row == (False, False, False)
    owned = as_app.execute(
        "SELECT count(*) FROM pg_tables WHERE tableowner = current_user"
    ).fetchone()
    assert owned == (0,)


def test_the_app_role_books_a_whole_evening(played, players, admin):
    """What the app does needs no more than the app's role may (the tests run as it)."""
    evening, first, second = played
    assert connection.settings_dict["USER"] == database_from_url(os.environ["DATABASE_URL"])["USER"]
    services.correct_game(evening.pk, first.pk, sauspiel(players[1], players[3], won=False), admin)
    services.void_game(evening.pk, second.pk, admin)
    services.restore_game(evening.pk, second.pk, admin)
    services.close_evening(evening.pk, admin)
    services.reopen_evening(evening.pk, admin)

    call_command("verify_ledger")


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE evenings_ledgerentry SET amount = amount + 1",
        "DELETE FROM evenings_ledgerentry",
        "TRUNCATE evenings_ledgerentry",
        "TRUNCATE evenings_ledgerentry CASCADE",
        "ALTER TABLE evenings_ledgerentry DISABLE TRIGGER USER",
        "DROP TRIGGER evenings_ledger_append_only ON evenings_ledgerentry",
        "SET session_replication_role = replica",
        "UPDATE evenings_change SET after = '{}'",
        "DELETE FROM evenings_change",
        "TRUNCATE evenings_change CASCADE",
        "UPDATE evenings_eveningtotal SET amount = 0",
        "DROP TABLE evenings_ledgerentry",
    ],
)
def test_the_app_role_may_not(played, as_app, statement):
    before = list(LedgerEntry.objects.order_by("pk").values_list("pk", "amount"))
    changes = list(Change.objects.order_by("pk").values_list("pk", "digest"))

    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        as_app.execute(statement)

    assert list(LedgerEntry.objects.order_by("pk").values_list("pk", "amount")) == before
    assert list(Change.objects.order_by("pk").values_list("pk", "digest")) == changes


def test_an_unbalanced_game_is_refused_at_commit(played, as_app):
    evening, first, second = played
    change = Change.objects.filter(game=first).get()
    with pytest.raises(psycopg.errors.CheckViolation, match="sum to 5 cents"):
        as_app.execute(
            "INSERT INTO evenings_ledgerentry "
            "(evening_id, game_id, change_id, player_id, kind, amount, created_at) "
            "VALUES (%s, %s, %s, %s, 'game', 5, now())",
            [evening.pk, first.pk, change.pk, first.declarer_id],
        )
    assert LedgerEntry.objects.filter(game=first).count() == 4


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE evenings_ledgerentry SET amount = amount + 1",
        "DELETE FROM evenings_ledgerentry",
        "TRUNCATE evenings_ledgerentry CASCADE",
        "UPDATE evenings_change SET after = '{}'",
        "DELETE FROM evenings_change",
        "TRUNCATE evenings_change CASCADE",
        "TRUNCATE evenings_evening CASCADE",
    ],
)
def test_not_even_the_owner_edits_or_empties_the_history_with_the_triggers_on(
    played, as_owner, statement
):
    with pytest.raises(psycopg.errors.RestrictViolation, match=r"append-only|is kept"):
        as_owner.execute(statement)
    call_command("verify_ledger")


def owner_without_triggers(as_owner, table: str, statement: str, params=()) -> None:
    """What only the owner can do: switch the table's triggers off, edit, switch them on."""
    with as_owner.transaction():
        as_owner.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
        as_owner.execute(statement, params)
        as_owner.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")


def test_a_rewritten_audit_row_breaks_the_chain_there(played, as_owner):
    evening, first, second = played
    booked = Change.objects.get(game=second, kind="book")
    after = dict(booked.after, loser=first.declarer_id)

    owner_without_triggers(
        as_owner,
        "evenings_change",
        "UPDATE evenings_change SET after = %s WHERE id = %s",
        [json.dumps(after), booked.pk],
    )

    assert (
        f"evening {evening.pk}, change {booked.pk} (book): the audit trail was altered here"
        in verify()
    )


def test_a_game_edited_behind_its_changes_is_found(played, as_app):
    evening, first, second = played
    # The app's role may update a game (corrections do); its changes say what it is.
    as_app.execute("UPDATE evenings_game SET won = NOT won WHERE id = %s", [first.pk])

    found = verify()

    booked = Change.objects.get(game=first, kind="book")
    assert f"evening {evening.pk}, game 1: stored as" in found
    assert f"change {booked.pk} (book) says" in found


def test_evenings_checked_in_batches_name_the_evenings_edited(
    played, as_app, runde, players, admin, monkeypatch
):
    # Read two evenings at a time: the edited ones are the first and the last batch's.
    monkeypatch.setattr(verify_ledger, "BATCH", 2)
    evening, first, second = played
    others = [services.start_evening(runde, players[:4], 0, admin) for _ in range(2)]
    games = [book(other, sauspiel(players[1], players[3]), admin) for other in others]
    for game in (first, games[1]):
        as_app.execute("UPDATE evenings_game SET won = NOT won WHERE id = %s", [game.pk])

    found = verify()

    assert found.endswith("10 findings in 3 evenings, 4 games")
    # Each edited game: its four players' amounts and its change, under its own evening.
    assert {int(pk) for pk in re.findall(r"^evening (\d+)", found, re.MULTILINE)} == {
        evening.pk,
        others[1].pk,
    }
    assert found.count(f"evening {evening.pk}, game 1: stored as") == 1
    assert found.count(f"evening {others[1].pk}, game 1: stored as") == 1


def test_a_forged_balanced_payment_is_found(played, as_app, players):
    evening, first, second = played
    sepp, vroni = players[:2]
    change = Change.objects.get(evening=evening, kind="payment")
    # A balanced pair of payment entries hung on the real payment's change.
    with as_app.transaction():
        for player, amount in ((sepp, 500), (vroni, -500)):
            as_app.execute(
                "INSERT INTO evenings_ledgerentry "
                "(evening_id, change_id, player_id, kind, amount, created_at) "
                "VALUES (%s, %s, %s, 'payment', %s, now())",
                [evening.pk, change.pk, player.pk, amount],
            )

    found = verify()

    assert f"evening {evening.pk}, change {change.pk}: the payment of 20 cents" in found
    assert f"player {sepp.pk} (Sepp) 500 cents" in found


def test_entries_pointing_at_another_evening_s_game_are_named_not_a_crash(
    played, as_app, runde, players, admin
):
    evening, first, second = played
    other = services.start_evening(runde, players[:4], 0, admin)
    theirs = book(other, sauspiel(players[1], players[3]), admin)
    change = Change.objects.get(game=first, kind="book")
    with as_app.transaction():
        for player, amount in ((players[0], 70), (players[1], -70)):
            as_app.execute(
                "INSERT INTO evenings_ledgerentry "
                "(evening_id, game_id, change_id, player_id, kind, amount, created_at) "
                "VALUES (%s, %s, %s, %s, 'game', %s, now())",
                [evening.pk, theirs.pk, change.pk, player.pk, amount],
            )

    found = verify()

    assert f"player {players[0].pk}, 70 cents: its game belongs to evening {other.pk}" in found
    assert f"evening {evening.pk}" in found
