"""A club's export and its restore (clubs/backup.py, export_club, import_club) and the
admin's download.

How a test gets an empty database to restore into: it runs as a transactional test (its
rows are committed, as they would be on a server), exports the club, then empties the
database with Django's own `flush`, the same command that empties it after every
transactional test (tests/conftest.py lets the owner of the tables run it past the
evening tables' TRUNCATE guard), and migrations' rows come back as after `migrate`. The
import then really restores into an empty database, through the same command and the
same database roles an operator uses; a test in one rolled-back transaction could not,
since import_club switches to the owner's connection.
"""

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db.models import Sum
from django.urls import reverse
from django.utils import timezone

from clubs import backup
from clubs import services as club_services
from clubs.models import Club, Invitation, LoginFailure, Player, ResetRequest, Session
from evenings import services
from evenings.models import Change, Evening, EveningTotal, LedgerEntry
from evenings.services import GameInput
from tests.conftest import PASSWORD, make_user
from tests.evenings.test_services import book, ramsch, sauspiel
from tournaments.models import Participant, Round, Season, Table, TableSeat, Tournament

User = get_user_model()
transactional = pytest.mark.django_db(transaction=True)


@pytest.fixture
def history(club, runde, admin, scorekeeper):
    """A year of the club in small: Vroni joins by an invitation for her player and keeps
    the score for a while, Wastl joins and leaves, Hias plays too; the first evening has
    four games, one corrected and one struck, and a payment, and is closed; then the
    Sauspiel costs 0,20 and a second evening plays at the new tariff."""
    resi = club.players.get(user=admin)
    hias = Player.objects.create(club=club, name="Hias", user=scorekeeper)
    sepp = Player.objects.create(club=club, name="Sepp")
    vroni = Player.objects.create(club=club, name="Vroni")
    invitation = Invitation.objects.create(
        club=club, role="spieler", created_by=admin, player=vroni
    )
    club_services.accept_invitation(invitation, make_user("vroni", "Vroni"))
    # Wastl joined by a link for anyone and left again.
    wastl = make_user("wastl", "Wastl")
    for_anyone = Invitation.objects.create(club=club, role="spieler", created_by=admin)
    club_services.accept_invitation(for_anyone, wastl, name="Wastl")
    club_services.remove_member(club.memberships.get(user=wastl), by=wastl)
    # Vroni keeps the score for a while, on the club's record.
    club_services.change_role(club.memberships.get(user__username="vroni"), "schreiber", admin)
    club_services.change_role(club.memberships.get(user__username="vroni"), "spieler", admin)

    first = services.start_evening(runde, [sepp, vroni, hias, resi], 0, admin)
    opening = book(first, sauspiel(vroni, resi), admin)
    book(first, ramsch(sepp), scorekeeper)
    struck = book(first, sauspiel(hias, resi, laufende=3), scorekeeper)
    book(first, sauspiel(sepp, vroni, won=False, schneider=True), scorekeeper)
    services.correct_game(first.pk, opening.pk, sauspiel(vroni, hias), admin)
    services.void_game(first.pk, struck.pk, admin)
    services.record_payment(first.pk, sepp.pk, hias.pk, 40, scorekeeper)
    services.close_evening(first.pk, admin)

    proposed = runde.tariffs.latest()
    proposed.sauspiel = 20
    assert club_services.change_tariff(runde, proposed, admin) is not None
    second = services.start_evening(runde, [sepp, vroni, hias, resi], 1, scorekeeper)
    book(second, sauspiel(hias, resi), scorekeeper)

    # A ProHof tournament of a season, with a guest, its first round started and a game
    # booked at its table (points).
    season = Season.objects.create(club=club, name="Stadtmeisterschaft 2026")
    tournament = Tournament.objects.create(
        club=club,
        season=season,
        runde=club_services.create_prohof_runde(club, "1. Abend", admin),
        name="1. Abend",
        created_by=admin,
    )
    guest = Player.objects.create(club=club, name="Gast Toni", guest=True)
    entrants = [
        Participant.objects.create(tournament=tournament, player=player, number=n)
        for n, player in enumerate([sepp, vroni, guest, resi], start=1)
    ]
    first_round = Round.objects.create(tournament=tournament, number=1, seed=4711)
    evening = services.start_evening(
        tournament.runde, [p.player for p in entrants], 0, admin, label="Runde 1 · Tisch 1"
    )
    table = Table.objects.create(round=first_round, number=1, evening=evening)
    TableSeat.objects.bulk_create(
        TableSeat(table=table, round=first_round, participant=p, position=i)
        for i, p in enumerate(entrants)
    )
    book(evening, GameInput(type="rufspiel", declarer=vroni.pk, partner=resi.pk, won=True), admin)
    return club


def club_rows(club_id: int) -> dict[str, list[dict]]:
    """Every row of the club as the database holds it: the exported tables, the totals
    the database keeps, and the club's members."""
    rows = {
        backup.label(model): list(
            model._base_manager.filter(**{lookup: club_id}).order_by("pk").values()
        )
        for model, lookup in backup.CLUB_TABLES
    }
    rows["evenings.eveningtotal"] = list(
        EveningTotal.objects.filter(evening__runde__club=club_id)
        .order_by("evening", "player", "kind")
        .values("evening", "player", "kind", "amount")
    )
    rows["auth.user"] = list(
        User.objects.filter(memberships__club=club_id).order_by("pk").values(*backup.USER_FIELDS)
    )
    return rows


def balances(club_id: int) -> dict[str, dict[str, int]]:
    """{evening id: {player name: cents}} per evening (a tournament table's: points), and
    the money Runde's under "runde"."""
    per_evening = {
        str(evening.pk): {
            Player.objects.get(pk=player).name: cents
            for player, cents in services.balances(evening).items()
        }
        for evening in Evening.objects.filter(runde__club=club_id)
    }
    runde = dict(
        LedgerEntry.objects.filter(evening__runde__club=club_id, evening__runde__kind="geld")
        .values_list("player__name")
        .annotate(total=Sum("amount"))
    )
    return {**per_evening, "runde": runde}


def export(club: Club, path, *options: str) -> dict:
    call_command("export_club", str(club.pk), "--output", str(path), *options)
    return json.loads(path.read_text(encoding="utf-8"))


def empty_the_database() -> None:
    call_command("flush", interactive=False, verbosity=0)
    assert not any(model.objects.exists() for model in backup.restored_models())
    assert not EveningTotal.objects.exists()


@transactional
def test_an_ausgleich_of_the_runde_is_restored_with_its_payments(history, admin, tmp_path):
    runde = history.runden.money().get()
    services.close_evening(runde.evenings.get(status="open").pk, admin)
    ausgleich = services.start_ausgleich(runde, admin)
    first = services.settlement(ausgleich).transfers[0]
    services.record_payment(ausgleich.pk, int(first.payer), int(first.payee), 10, admin)
    before, money = club_rows(history.pk), balances(history.pk)
    path = tmp_path / "au.json"
    export(history, path)

    empty_the_database()
    call_command("import_club", str(path))

    assert club_rows(history.pk) == before and balances(history.pk) == money
    restored = Evening.objects.get(settles_runde=True)
    assert services.settled_by(runde.evenings.exclude(pk=restored.pk).first()) == restored
    assert services.settlement(restored) == services.settlement(ausgleich)
    call_command("verify_ledger")


@transactional
@pytest.mark.parametrize(
    ("backend", "how"),
    [
        ("console", "`make password user=NAME`"),
        ("locmem", '"Passwort vergessen" or `make password user=NAME`'),
    ],
)
def test_a_restore_offers_passwort_vergessen_only_where_the_server_sends_mail(
    history, tmp_path, capsys, settings, backend, how
):
    backend_path = f"django.core.mail.backends.{backend}.EmailBackend"
    settings.MAILERS = {"default": {"BACKEND": backend_path}}
    path = tmp_path / "au.json"
    export(history, path)
    empty_the_database()

    call_command("import_club", str(path))

    assert f"each to set one by {how} (with DATA=" in capsys.readouterr().out


@transactional
def test_a_restored_club_equals_the_original_to_the_cent_and_verifies(
    history, admin, client, tmp_path, capsys
):
    before, money = club_rows(history.pk), balances(history.pk)
    path = tmp_path / "au.json"
    data = export(history, path)

    empty_the_database()
    call_command("import_club", str(path))

    out = capsys.readouterr().out
    assert "Schafkopffreunde Au restored and verified" in out
    # Exported without hashes: who has to set a password, and how.
    assert re.search(r"\n\d+ without a password .*`make password user=NAME` .*: .*resi", out)
    assert club_rows(history.pk) == before
    assert balances(history.pk) == money
    # The Runde by hand: Sauspiel 0,10 (with Schneider 0,20) on the first evening, 0,20
    # on the second; the Ramsch costs Sepp 0,30; Sepp paid Hias 0,40.
    # Per player: the corrected first game, the Ramsch, the lost Schneider, the payment,
    # the second evening's Sauspiel (the struck game counts nothing).
    assert money["runde"] == {
        "Sepp": -10 - 30 - 20 + 40 - 20,
        "Vroni": 10 + 10 - 20 - 20,
        "Hias": 10 + 10 + 20 - 40 + 20,
        "Resi": -10 + 10 + 20 + 20,
    }
    # Every change came back with the digest the database chained when it was made.
    digests = [row["digest"] for row in data["tables"]["evenings.change"]]
    assert all(re.fullmatch("[0-9a-f]{64}", digest) for digest in digests)
    assert list(Change.objects.order_by("pk").values_list("digest", flat=True)) == digests
    call_command("verify_ledger")
    # The sequences continue after the restored keys.
    highest = max(row["id"] for row in before["clubs.player"])
    assert Player.objects.create(club=history, name="Kathi").pk > highest

    # Without --with-passwords nobody logs in with the old password; with a new one the
    # admin is admin again.
    restored = User.objects.get(username="resi")
    assert not restored.has_usable_password()
    restored.set_password("Neu-und-geheim-2026")
    restored.save()
    assert client.login(username="resi", password="Neu-und-geheim-2026")
    assert client.get(reverse("clubs:detail", args=[history.pk])).status_code == 200
    assert client.get(reverse("clubs:members", args=[history.pk])).status_code == 200
    client.force_login(User.objects.get(username="hias"))
    assert client.get(reverse("clubs:members", args=[history.pk])).status_code == 404


@transactional
def test_with_passwords_the_restored_users_log_in_as_before(club, admin, client, tmp_path):
    path = tmp_path / "au.json"
    data = export(club, path, "--with-passwords")
    assert data["tables"]["auth.user"][0]["password"] == admin.password

    empty_the_database()
    call_command("import_club", str(path))

    assert client.login(username="resi", password=PASSWORD)
    assert client.get(reverse("clubs:detail", args=[club.pk])).status_code == 200


@transactional
def test_an_import_into_a_database_with_rows_is_refused_and_changes_nothing(history, tmp_path):
    path = tmp_path / "au.json"
    export(history, path)
    before = club_rows(history.pk)

    with pytest.raises(CommandError, match=r"empty database only.*4 auth\.user, 1 clubs\.club"):
        call_command("import_club", str(path))

    assert club_rows(history.pk) == before
    assert Club.objects.count() == 1


def refusal_of(data: dict, path) -> str:
    """Import `data`, an export changed by the test, into the emptied database: the
    refusal's message, once it is clear that nothing was kept."""
    path.write_text(json.dumps(data), encoding="utf-8")
    empty_the_database()
    with pytest.raises(CommandError) as refusal:
        call_command("import_club", str(path))
    assert not any(model.objects.exists() for model in backup.restored_models())
    assert not EveningTotal.objects.exists()
    return str(refusal.value)


@transactional
def test_a_change_whose_digest_the_database_computes_otherwise_is_refused(history, tmp_path):
    path = tmp_path / "au.json"
    data = export(history, path)
    tampered = data["tables"]["evenings.change"][3]
    tampered["digest"] = "0" * 64

    message = refusal_of(data, path)

    assert message.startswith(f"evenings.change {tampered['id']}: digest is '{'0' * 64}' in")


@transactional
def test_a_balanced_but_wrong_amount_in_the_file_fails_verification_and_keeps_nothing(
    history, tmp_path
):
    path = tmp_path / "au.json"
    data = export(history, path)
    # Move 1,00 between two players of the first game's booking: it still sums to zero.
    first, second = data["tables"]["evenings.ledgerentry"][:2]
    assert (first["change_id"], first["game_id"]) == (second["change_id"], second["game_id"])
    first["amount"] += 100
    second["amount"] -= 100

    message = refusal_of(data, path)

    assert re.match(r"The restored ledger does not verify: evening \d+, game 1, player", message)


@transactional
def test_a_closed_evening_opened_in_the_file_is_refused(history, tmp_path):
    """Walk 43: set open by hand, it was restored as running, taking games after its
    trail's "Abend abgeschlossen"."""
    path = tmp_path / "au.json"
    data = export(history, path)
    closed = next(r for r in data["tables"]["evenings.evening"] if r["status"] == "closed")
    closed["status"], closed["closed_at"] = "open", None

    message = refusal_of(data, path)

    assert message == (
        f"The restored ledger does not verify: evening {closed['id']}: stored as open, its "
        "changes say it is closed"
    )


@transactional
def test_payments_that_do_not_sum_to_zero_are_refused_by_the_database(history, tmp_path):
    path = tmp_path / "au.json"
    data = export(history, path)
    payment = next(r for r in data["tables"]["evenings.ledgerentry"] if r["kind"] == "payment")
    payment["amount"] += 1

    message = refusal_of(data, path)

    assert message.startswith("The database refused the data:")
    assert "sum to 1 cents, not zero" in message


@transactional
def test_a_file_that_is_no_club_export_is_refused(tmp_path):
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"format": "fixtures", "tables": {}}), encoding="utf-8")

    with pytest.raises(CommandError, match="not a club export"):
        call_command("import_club", str(path))


def test_a_file_cut_off_says_so_and_keeps_nothing(history, tmp_path):
    path = tmp_path / "au.json"
    text = json.dumps(export(history, path))
    path.write_text(text[: len(text) // 2], encoding="utf-8")  # a download broken off

    with pytest.raises(CommandError, match=r"The file ends early: it was cut off\.$"):
        call_command("import_club", str(path))


def test_make_restore_of_a_file_it_cannot_read_makes_no_data_directory(tmp_path):
    """Walk 43: a missing or cut-off file made and migrated a data directory first."""
    root = Path(__file__).parents[2]
    cut = tmp_path / "cut.json"
    cut.write_text('{"format": "schafkopf-club", "tables": {"clubs.club": [', encoding="utf-8")

    for file, said in ((tmp_path / "nope.json", "No such file"), (cut, "cut off")):
        data = tmp_path / f"data-{file.stem}"
        done = subprocess.run(
            ["make", "-s", "-o", ".venv/.installed", "restore", f"file={file}", f"DATA={data}"],
            cwd=root,
            capture_output=True,
            text=True,
            # as on a laptop: the embedded server, at DATA
            env={
                **{k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")},
                "SECRET_KEY": "t",
            },
        )

        assert done.returncode != 0 and said in done.stderr, done.stderr
        assert not data.exists()


def test_every_model_of_the_club_is_in_the_file_or_rebuilt_by_the_database():
    """A model added later must be exported or left out here on purpose."""
    exported = {model for model, _lookup in backup.CLUB_TABLES}
    # EveningTotal: rebuilt by the trigger; the throttles' rows and the sessions belong to
    # no club.
    left_out = {EveningTotal, ResetRequest, LoginFailure, Session}
    models = {
        *apps.get_app_config("clubs").get_models(),
        *apps.get_app_config("evenings").get_models(),
        *apps.get_app_config("tournaments").get_models(),
    }
    assert models == exported | left_out


def test_the_export_holds_this_club_only_with_exact_values(history, other_admin, tmp_path):
    data = export(history, tmp_path / "au.json")

    tables = data["tables"]
    assert data["format"] == "schafkopf-club" and data["version"] == 1
    assert [row["name"] for row in tables["clubs.club"]] == ["Schafkopffreunde Au"]
    assert {row["username"] for row in tables["auth.user"]} == {"resi", "hias", "vroni", "wastl"}
    assert all("password" not in row for row in tables["auth.user"])
    assert [(row["system"], row["sauspiel"]) for row in tables["clubs.tariff"]] == [
        ("tarif", 10),
        ("tarif", 20),
        ("prohof", 10),
    ]
    assert len(tables["evenings.evening"]) == 3
    assert [row["name"] for row in tables["tournaments.tournament"]] == ["1. Abend"]
    assert len(tables["tournaments.tableseat"]) == 4
    # Every moment with its microseconds, cents as ints, every ledger row of the club.
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00",
                        tables["evenings.change"][0]["at"])  # fmt: skip
    assert all(type(row["amount"]) is int for row in tables["evenings.ledgerentry"])
    assert len(tables["evenings.ledgerentry"]) == LedgerEntry.objects.count()
    assert "evenings.eveningtotal" not in tables


# -- the download ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "file"),
    [
        ("Schafkopffreunde Großhadern", "schafkopffreunde-grosshadern"),
        ("Kartler Ödön & Äbte über Grün", "kartler-oedoen-aebte-ueber-gruen"),
        ("ß", "ss"),
        ("!!!", "verein"),
    ],
)
def test_the_download_is_named_with_german_letters_spelled_out(client, admin, club, name, file):
    club.name = name
    club.save()
    client.force_login(admin)

    response = client.get(reverse("clubs:backup", args=[club.pk]))

    day = timezone.localdate().isoformat()
    assert response["Content-Disposition"] == f'attachment; filename="{file}-{day}.json"'


def test_the_admin_downloads_the_export_without_password_hashes(client, admin, history):
    client.force_login(admin)

    response = client.get(reverse("clubs:backup", args=[history.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    day = timezone.localdate().isoformat()
    assert response["Content-Disposition"] == (
        f'attachment; filename="schafkopffreunde-au-{day}.json"'
    )
    # Streamed table by table, not held in memory whole.
    assert response.streaming
    text = b"".join(response.streaming_content).decode()
    data = json.loads(text)
    assert data["club"] == {"id": history.pk, "name": "Schafkopffreunde Au"}
    assert len(data["tables"]["evenings.game"]) == 5 + 1  # and the tournament's
    assert all("password" not in row for row in data["tables"]["auth.user"])
    assert "md5$" not in text


@pytest.mark.parametrize("who", ["scorekeeper", "player_user", "other_admin"])
def test_only_the_admin_may_download_the_export(client, club, who, request):
    client.force_login(request.getfixturevalue(who))

    assert client.get(reverse("clubs:backup", args=[club.pk])).status_code == 404


def test_the_club_page_offers_the_download_to_the_admin_only(client, club, admin, scorekeeper):
    label = "Sicherung herunterladen (JSON)"
    client.force_login(admin)
    page = client.get(reverse("clubs:detail", args=[club.pk])).text
    assert label in page
    # What it holds, and who can play it back.
    assert "Spiele, Zahlungen und Turniere (ohne Passwörter)" in page
    assert "Zurückspielen kann sie, wer die App betreibt, in eine leere Datenbank." in page
    client.force_login(scorekeeper)
    assert label not in client.get(reverse("clubs:detail", args=[club.pk])).text


def test_the_file_is_the_same_whatever_the_batches_it_is_written_in(history, monkeypatch):
    whole = json.loads(backup.dumps(history))
    monkeypatch.setattr(backup, "BATCH_SIZE", 2)  # many batches, full and partial

    batched = json.loads(backup.dumps(history))

    assert len(whole["tables"]["evenings.ledgerentry"]) > 4
    assert len(whole["tables"]["clubs.club"]) == 1  # a table smaller than a batch
    whole.pop("exported_at"), batched.pop("exported_at")
    assert batched == whole
