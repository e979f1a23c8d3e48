from django.contrib.auth import get_user_model
from django.core.management import call_command

from clubs.models import Club, Membership


def test_the_demo_creates_a_club_with_a_runde_players_and_a_login(db, capsys):
    call_command("demo", "--if-empty")

    out = capsys.readouterr().out
    password = out.split("password: ")[1].split()[0]
    admin = get_user_model().objects.get(username="admin")
    assert admin.check_password(password)
    club = Club.objects.get()
    assert Membership.objects.get(club=club, user=admin).role == "admin"
    runde = club.runden.get()
    assert runde.tariff.sauspiel == 10
    assert [e.games.count() for e in runde.evenings.order_by("pk")] == [6, 3]
    assert [e.status for e in runde.evenings.order_by("pk")] == ["closed", "open"]
    call_command("verify_ledger")
    assert sorted(club.players.values_list("name", flat=True)) == [
        "Hias",
        "Resi",
        "Sepp",
        "Vroni",
        "Wastl",
    ]


def test_the_demo_is_created_only_on_the_very_first_start(db, capsys):
    call_command("demo", "--if-empty")
    call_command("demo", "--if-empty")

    assert Club.objects.count() == 1
    assert capsys.readouterr().out.count("password:") == 1
