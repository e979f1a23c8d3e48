"""Setting up a club's players: a new player can be seated at once, and a member without a
player is linked to the player who holds their history."""

import uuid

from django.urls import reverse

from clubs import services as club_services
from clubs.models import Player
from evenings import services as evening_services
from tests.conftest import page_text


def seat_choices(client, club, runde) -> list[str]:
    """The names "Abend beginnen" offers for a seat."""
    response = client.get(reverse("evenings:start", args=[club.pk, runde.pk]))
    assert response.status_code == 200
    return [name for pk, name in response.context["form"].fields["seat0"].choices if pk]


def test_a_player_added_on_the_players_page_is_active_and_offered_a_seat(
    client, admin, club, runde
):
    client.force_login(admin)

    response = client.post(reverse("clubs:players", args=[club.pk]), {"name": "Wastl"})

    assert response.status_code == 302
    wastl = club.players.get(name="Wastl")
    assert wastl.active is True
    assert wastl.user is None
    assert seat_choices(client, club, runde) == ["Resi", "Wastl"]


def test_the_players_page_asks_only_for_the_name(client, admin, club):
    client.force_login(admin)

    response = client.get(reverse("clubs:players", args=[club.pk]))

    assert list(response.context["form"].fields) == ["name"]
    assert 'name="active"' not in response.text
    # Where the members page's "mit einem Spieler verknüpfen" leads: how it is done.
    assert (
        '<p class="muted note" id="verknuepfen">Einen Spieler mit dem Konto eines Mitglieds '
        "verknüpfen: den Spieler antippen, dann unter „Konto“ das Mitglied wählen.</p>"
        in response.text
    )


def test_on_the_players_page_a_player_opens_their_own_overview_only(
    client, admin, club, player_user
):
    vroni = Player.objects.create(club=club, name="Vroni", user=player_user)
    resi = club.players.get(user=admin)
    client.force_login(player_user)

    page = client.get(reverse("clubs:players", args=[club.pk])).text

    own = reverse("clubs:player_home", args=[club.pk, vroni.pk])
    assert f'<a class="whole" href="{own}">Vroni</a>' in page
    assert reverse("clubs:player_home", args=[club.pk, resi.pk]) not in page
    assert reverse("clubs:player", args=[club.pk, vroni.pk]) + '"' not in page


def test_a_retired_player_is_not_offered_a_seat(client, admin, club, runde):
    wastl = Player.objects.create(club=club, name="Wastl")
    client.force_login(admin)

    response = client.post(
        reverse("clubs:player", args=[club.pk, wastl.pk]), {"name": "Wastl", "user": ""}
    )

    assert response.status_code == 302
    wastl.refresh_from_db()
    assert wastl.active is False
    assert seat_choices(client, club, runde) == ["Resi"]


def test_a_member_without_a_player_is_linked_to_an_existing_player_from_its_page(
    client, admin, club, scorekeeper
):
    hias = Player.objects.create(club=club, name="Hias")
    client.force_login(admin)
    page = client.get(reverse("clubs:player", args=[club.pk, hias.pk]))
    assert [user for user in page.context["form"].fields["user"].queryset] == [scorekeeper]
    # The player's own pages are a tap away.
    for name in ("clubs:player_home", "clubs:player_history"):
        assert f'href="{reverse(name, args=[club.pk, hias.pk])}"' in page.text

    response = client.post(
        reverse("clubs:player", args=[club.pk, hias.pk]),
        {"name": "Hias", "active": "on", "user": scorekeeper.pk},
    )

    assert response.status_code == 302
    hias.refresh_from_db()
    assert hias.user == scorekeeper
    assert club.players.filter(user=scorekeeper).count() == 1
    members = client.get(reverse("clubs:members", args=[club.pk]))
    hias_url = reverse("clubs:player", args=[club.pk, hias.pk])
    assert f'spielt als <a href="{hias_url}">Hias</a>' in members.text


def test_the_members_page_says_which_member_has_no_player_yet(client, admin, club, scorekeeper):
    client.force_login(admin)

    response = client.get(reverse("clubs:members", args=[club.pk]))

    resi = club.players.get(user=admin)
    assert f'spielt als <a href="{reverse("clubs:player", args=[club.pk, resi.pk])}">Resi</a>' in (
        response.text
    )
    assert response.text.count("noch kein Spieler") == 1  # Hias, the Schreiber
    players = reverse("clubs:players", args=[club.pk])
    assert f'<a href="{players}#verknuepfen">mit einem Spieler' in response.text


def test_a_player_page_offers_an_invitation_link_for_that_player(client, admin, club):
    wastl = Player.objects.create(club=club, name="Wastl")
    client.force_login(admin)

    page = client.get(reverse("clubs:player", args=[club.pk, wastl.pk]))
    assert "Einladungslink für Wastl (als Spieler)" in page.text
    # The role said before the tap, and where another is given (walk 80).
    members = reverse("clubs:members", args=[club.pk])
    assert f'Als Schreiber oder Admin lädt man unter <a href="{members}">Mitglieder</a> ein.' in (
        page.text
    )
    response = client.post(
        reverse("clubs:invitation_create", args=[club.pk]),
        {"role": "spieler", "player": wastl.pk},
    )

    assert response.status_code == 302
    assert club.invitations.get().player == wastl
    resi = club.players.get(user=admin)
    own_page = client.get(reverse("clubs:player", args=[club.pk, resi.pk]))
    assert "Einladungslink für" not in own_page.text  # Resi has a login already


def resi_wins_against_toni(club, runde, admin) -> tuple[Player, Player]:
    """Resi and Sepp win a Sauspiel against Toni and Vroni (0,10 € each): Resi and Toni."""
    resi = club.players.get(user=admin)
    sepp, toni, vroni = (
        Player.objects.create(club=club, name=n) for n in ("Sepp", "Toni", "Vroni")
    )
    evening = evening_services.start_evening(runde, [resi, sepp, toni, vroni], 0, admin)
    evening_services.book_game(evening.pk, uuid.uuid4(), evening_services.GameInput(
        "sauspiel", declarer=resi.pk, partner=sepp.pk), admin)  # fmt: skip
    return resi, toni


def test_a_player_page_says_what_is_still_open_before_setting_them_inactive(
    client, admin, club, runde
):
    """Walk 67: Toni, owing money, was set inactive with no word; leaving the club says
    what is still open, and so does his page, beside "Aktiv"."""
    resi, toni = resi_wins_against_toni(club, runde, admin)
    wastl = Player.objects.create(club=club, name="Wastl")
    client.force_login(admin)

    def page(player) -> str:
        return page_text(client.get(reverse("clubs:player", args=[club.pk, player.pk])))

    toni_page = page(toni)
    # The evening he sits at runs on, whatever "Aktiv" says (walk 74).
    assert f"Toni sitzt am laufenden Abend der Runde „{runde.name}“ (seit " in toni_page
    assert "dort wird weiter für Toni gebucht" in toni_page
    assert "sitzt am laufenden Abend" not in page(wastl)
    assert (
        f"Noch nicht ausgeglichen: Runde „{runde.name}“ "
        '<span class="amount">-0,10 €</span> (zu zahlen).'
    ) in toni_page
    assert toni_page.index('name="active"') < toni_page.index("Noch nicht ausgeglichen")
    assert "(zu bekommen)" in page(resi)  # she won
    assert "Noch nicht ausgeglichen" not in page(wastl)  # never played
    assert "am besten vorher ausgleichen" in toni_page
    # Set inactive, the page says what stays, not what to do before (walk 69).
    toni.active = False
    toni.save()
    inactive = page(toni)
    assert "Noch nicht ausgeglichen" in inactive and "vorher" not in inactive
    assert "bis ein Schreiber die Zahlung einträgt." in inactive


def test_the_players_page_marks_who_left_the_club(client, admin, club, player_user):
    """Walk 70: Vroni left the club; its players page listed her as anyone who plays."""
    vroni = Player.objects.create(club=club, name="Vroni", user=player_user)
    club_services.remove_member(player_user.memberships.get(club=club), player_user)
    client.force_login(admin)

    page = client.get(reverse("clubs:players", args=[club.pk])).text

    vroni_page = reverse("clubs:player", args=[club.pk, vroni.pk])
    assert f'<a class="whole" href="{vroni_page}">Vroni</a>' in page
    row = page[page.index(vroni_page) :].split("</li>")[0]
    assert '<span class="muted">ausgeschieden</span>' in row
    resi_row = page[page.index(">Resi</a>") :].split("</li>")[0]
    assert "ausgeschieden" not in resi_row


def test_a_rest_below_the_runde_s_unit_is_not_said_to_be_paid(client, admin, club, runde):
    """Walk 73: a player's page said "-0,10 € (zu zahlen) … am besten vorher ausgleichen"
    where the Runde settles to 50 Cent, and its Abrechnung said nobody pays."""
    tariff = runde.tariffs.latest()
    tariff.pk, tariff.settle_unit = None, 50
    tariff.save()
    resi, toni = resi_wins_against_toni(club, runde, admin)
    client.force_login(admin)

    page = page_text(client.get(reverse("clubs:player", args=[club.pk, toni.pk])))

    assert (
        f"Noch nicht ausgeglichen: Runde „{runde.name}“ "
        '<span class="amount">-0,10 €</span> (ein Rest, für den beim Ausgleich keine Zahlung '
        "ansteht). Das bleibt auf dem Konto der Runde stehen.</p>"
    ) in page
    assert "zu zahlen" not in page and "vorher" not in page
    # Set inactive: no payment to wait for either (walk 74).
    toni.active = False
    toni.save()
    inactive = page_text(client.get(reverse("clubs:player", args=[club.pk, toni.pk])))
    assert "ansteht). Das bleibt auf dem Konto der Runde stehen.</p>" in inactive
