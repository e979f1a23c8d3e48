"""Invitations: links for anyone or for one player, and joining without becoming a second
player. Sepp (`user`) is the newcomer; Resi is the club's admin."""

import re

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from clubs import services
from clubs.models import Invitation, Membership, Player, near_name
from tests.conftest import make_user


@pytest.fixture
def hias(club):
    """Hias plays in the club and holds its history, but has no login."""
    return Player.objects.create(club=club, name="Hias")


def invite(club, admin, player=None, role="spieler") -> Invitation:
    return Invitation.objects.create(club=club, role=role, created_by=admin, player=player)


def join_url(invitation: Invitation) -> str:
    return reverse("clubs:join", args=[invitation.token])


def sepp_joins_as_hias(client, admin, club, hias, user) -> None:
    """Sepp (`user`) joins with a link for Hias, and is Hias in the club."""
    client.force_login(user)
    client.post(join_url(invite(club, admin, player=hias)))


# The invitation form on the members page


def test_the_invitation_form_preselects_spieler_and_has_no_blank_role(client, admin, club):
    client.force_login(admin)

    response = client.get(reverse("clubs:members", args=[club.pk]))

    select = re.search(
        r'<select name="role"[^>]*id="id_role"[^>]*>(.*?)</select>', response.text, re.S
    )
    assert select, "the invitation form's role select"
    options = re.findall(r'<option value="([^"]*)"( selected)?>([^<]*)</option>', select[1])
    assert [(value, label) for value, _, label in options] == [
        ("admin", "Admin"),
        ("schreiber", "Schreiber"),
        ("spieler", "Spieler"),
    ]
    assert [value for value, selected, _ in options if selected] == ["spieler"]
    assert "Select an option" not in response.text
    assert "---------" not in response.text
    # What each role may, where it is chosen (walk 25: "Schreiber" had to be guessed).
    assert "Schreiber tragen auch Spiele und Zahlungen ein" in response.text


def test_an_admin_creates_an_invitation_for_a_player_without_a_login(client, admin, club, hias):
    client.force_login(admin)

    response = client.post(
        reverse("clubs:invitation_create", args=[club.pk]), {"role": "spieler", "player": hias.pk}
    )

    assert response.status_code == 302
    invitation = Invitation.objects.get(club=club)
    assert (invitation.player, invitation.role, invitation.created_by) == (hias, "spieler", admin)
    # Straight to the new link, at the foot of the page.
    members = reverse("clubs:members", args=[club.pk])
    assert response.url == f"{members}#einladung-{invitation.pk}"
    page = client.get(members)
    assert "Die Einladung für Hias ist angelegt." in page.text
    assert f'<li class="card invitation" id="einladung-{invitation.pk}">' in page.text
    assert "für Hias, als Spieler, gültig bis" in page.text
    assert join_url(invitation) in page.text
    # Tapped again (his page offers the link as long as he has no login): the open one,
    # not a second alike (walk 30).
    again = client.post(
        reverse("clubs:invitation_create", args=[club.pk]), {"role": "spieler", "player": hias.pk}
    )
    assert again.url == f"{members}#einladung-{invitation.pk}"
    assert Invitation.objects.filter(club=club).count() == 1
    assert "Für Hias gibt es schon einen offenen Link: diesen teilen." in client.get(members).text
    Invitation.objects.filter(pk=invitation.pk).update(revoked_at=timezone.now())
    client.post(
        reverse("clubs:invitation_create", args=[club.pk]), {"role": "spieler", "player": hias.pk}
    )
    assert Invitation.objects.filter(club=club).count() == 2  # revoked: a new one


def test_an_invitation_cannot_be_for_a_player_who_has_a_login(client, admin, club):
    resi = club.players.get(user=admin)
    client.force_login(admin)

    response = client.post(
        reverse("clubs:invitation_create", args=[club.pk]), {"role": "spieler", "player": resi.pk}
    )

    assert response.status_code == 302
    assert not Invitation.objects.exists()
    page = client.get(reverse("clubs:members", args=[club.pk]))
    assert "Diesen Spieler gibt es im Verein nicht, oder er hat schon ein Konto." in page.text


def test_an_invitation_cannot_be_for_another_clubs_player(client, admin, club, other_admin):
    stranger = Player.objects.create(club=other_admin.memberships.get().club, name="Kathi")
    client.force_login(admin)

    client.post(
        reverse("clubs:invitation_create", args=[club.pk]),
        {"role": "spieler", "player": stranger.pk},
    )

    assert not Invitation.objects.exists()


def test_an_unknown_role_is_refused_in_german(client, admin, club):
    client.force_login(admin)

    client.post(reverse("clubs:invitation_create", args=[club.pk]), {"role": "kaiser"})

    assert not Invitation.objects.exists()
    page = client.get(reverse("clubs:members", args=[club.pk]))
    assert "Diese Rolle gibt es nicht." in page.text


def test_the_members_page_drops_a_player_link_once_the_player_has_a_login(
    client, admin, club, hias, user
):
    invitation = invite(club, admin, player=hias)
    client.force_login(admin)
    assert join_url(invitation) in client.get(reverse("clubs:members", args=[club.pk])).text

    hias.user = user
    hias.save()

    assert join_url(invitation) not in client.get(reverse("clubs:members", args=[club.pk])).text


# Joining with a link for one player


def test_an_invitation_for_hias_links_hias_and_makes_no_second_player(
    client, admin, club, hias, user
):
    invitation = invite(club, admin, player=hias, role="schreiber")
    players_before = set(club.players.values_list("pk", flat=True))
    client.force_login(user)

    page = client.get(join_url(invitation))
    assert "Du trittst als <strong>Hias</strong> bei" in page.text
    assert "Wer bist du?" not in page.text
    response = client.post(join_url(invitation))

    assert response.status_code == 302
    assert response["Location"] == reverse("clubs:detail", args=[club.pk])
    hias.refresh_from_db()
    assert hias.user == user
    assert set(club.players.values_list("pk", flat=True)) == players_before
    assert not club.players.filter(name__istartswith="Sepp").exists()
    assert Membership.objects.get(club=club, user=user).role == "schreiber"


def test_a_retired_player_who_joins_plays_again(client, admin, club, hias, user):
    hias.active = False
    hias.save()
    client.force_login(user)

    client.post(join_url(invite(club, admin, player=hias)))

    hias.refresh_from_db()
    assert (hias.user, hias.active) == (user, True)


def test_a_general_link_offers_only_the_players_who_play_now(client, admin, club, hias, user):
    """A name set inactive (gone, or a typo) is not offered to everyone with the link; a
    newcomer of that name is pointed to a link of their own."""
    typo = Player.objects.create(club=club, name="Xavre", active=False)
    client.force_login(user)
    url = join_url(invite(club, admin))

    page = client.get(url)
    response = client.post(url, {"who": "neu", "name": "xavre"})

    offered = [label for _value, label in page.context["form"].fields["who"].choices]
    assert offered == ["Hias", "neu im Verein"]
    assert response.context["form"].errors["name"] == [
        "Xavre gibt es im Verein schon, spielt aber gerade nicht mit. Bist du das? Dann "
        "bitte den Admin um einen Einladungslink für Xavre, sonst wähle einen anderen Namen."
    ]
    refused = client.post(url, {"who": str(typo.pk)})
    assert "who" in refused.context["form"].errors
    assert not Membership.objects.filter(user=user).exists()


def test_a_player_link_is_refused_once_the_player_has_another_login(
    client, admin, club, hias, user
):
    invitation = invite(club, admin, player=hias)
    vroni = make_user("vroni", "Vroni")
    hias.user = vroni
    hias.save()
    client.force_login(user)

    page = client.get(join_url(invitation))
    response = client.post(join_url(invitation))

    for answer in (page, response):
        assert answer.status_code == 200
        assert (
            "Diese Einladung war für Hias, und Hias spielt inzwischen mit einem anderen Konto"
            in (answer.text)
        )
        assert "Beitreten" not in answer.text
    hias.refresh_from_db()
    assert hias.user == vroni
    assert not Membership.objects.filter(club=club, user=user).exists()
    assert not club.players.filter(user=user).exists()


def test_a_member_with_a_used_player_link_is_told_they_are_a_member_and_an_admin_where_to_go(
    client, admin, club, hias, scorekeeper
):
    invitation = invite(club, admin, player=hias)
    hias.user = make_user("vroni", "Vroni")
    hias.save()

    client.force_login(scorekeeper)
    member = client.get(join_url(invitation)).text
    client.force_login(admin)
    own_admin = client.get(join_url(invitation)).text

    for page in (member, own_admin):
        assert "Diese Einladung war für Hias, und Hias spielt inzwischen mit einem" in page
        assert "Du bist schon Mitglied in Schafkopffreunde Au" in page
        assert f'href="{reverse("clubs:detail", args=[club.pk])}">Zum Verein' in page
        assert "Nicht du? Abmelden" in page  # Hias on a friend's phone
        assert "Bitte den Admin" not in page  # a member needs no new link
    # The admin makes the link, and may hold any role already.
    assert "Einen neuen Link machst du unter „Mitglieder“." in own_admin
    assert f'href="{reverse("clubs:members", args=[club.pk])}">Mitglieder</a>' in own_admin
    assert "Eine andere Rolle" not in own_admin


def test_a_player_link_says_whose_login_joins_and_offers_to_log_out(client, admin, club, hias):
    invitation = invite(club, admin, player=hias)
    client.force_login(make_user("eva", "Eva"))

    page = client.get(join_url(invitation))
    out = client.post(reverse("logout"), {"next": join_url(invitation)})

    assert "Du trittst als <strong>Hias</strong> bei" in page.text
    assert "Du trittst mit dem Konto <strong>eva</strong> bei." in page.text
    assert f'<input type="hidden" name="next" value="{join_url(invitation)}">' in page.text
    assert out.url == join_url(invitation)  # where Hias then signs up or logs in
    assert client.get(out.url).url.startswith(reverse("signup"))
    hias.refresh_from_db()
    assert hias.user is None


def test_an_admin_link_makes_only_the_first_who_joins_an_admin(client, admin, club, user):
    """Shared further by mistake (a group chat), an Admin link makes nobody else the
    club's admin; a Spieler link stays one for the whole group."""
    admin_link = invite(club, admin, role="admin")
    group_link = invite(club, admin, role="spieler")
    eve, vroni = make_user("eve", "Eve"), make_user("vroni", "Vroni")
    client.force_login(admin)
    members = client.get(reverse("clubs:members", args=[club.pk])).text

    client.force_login(user)
    offered = client.get(join_url(admin_link)).text
    client.post(join_url(admin_link), {"who": "neu", "name": "Sepp"})
    client.force_login(eve)
    refused = client.post(join_url(admin_link), {"who": "neu", "name": "Eve"})
    client.post(join_url(group_link), {"who": "neu", "name": "Eve"})
    client.force_login(vroni)
    client.post(join_url(group_link), {"who": "neu", "name": "Vroni"})

    assert "ein Link als Admin nur für den Ersten, der damit beitritt." in members
    assert "Dieser Link gilt nur für den Ersten, der damit beitritt." in offered
    assert Membership.objects.get(club=club, user=user).role == "admin"
    assert "Diese Einladung gilt nicht mehr." in refused.text
    assert Membership.objects.get(club=club, user=eve).role == "spieler"
    assert Membership.objects.get(club=club, user=vroni).role == "spieler"
    admin_link.refresh_from_db()
    assert not admin_link.is_usable and group_link.is_usable


def test_a_player_link_is_refused_to_someone_who_already_is_another_player(
    client, admin, club, hias, scorekeeper
):
    sepp_player = Player.objects.create(club=club, name="Hiasl", user=scorekeeper)
    invitation = invite(club, admin, player=hias, role="admin")
    client.force_login(scorekeeper)

    response = client.post(join_url(invitation))

    assert response.status_code == 200
    assert "Diese Einladung ist für Hias, aber du spielst in diesem Verein schon als Hiasl." in (
        response.text
    )
    assert "Nicht du? Abmelden" in response.text  # Hias, on Hiasl's phone
    hias.refresh_from_db()
    assert hias.user is None
    assert club.players.get(user=scorekeeper) == sepp_player
    assert Membership.objects.get(club=club, user=scorekeeper).role == "schreiber"


def test_a_member_who_opens_their_used_player_link_is_told_they_are_a_member(
    client, admin, club, hias, user
):
    invitation = invite(club, admin, player=hias)
    client.force_login(user)
    client.post(join_url(invitation))

    page = client.get(join_url(invitation))

    assert page.status_code == 200
    assert "Du bist schon Mitglied in Schafkopffreunde Au, als Spieler." in page.text
    assert f'href="{reverse("clubs:detail", args=[club.pk])}"' in page.text
    assert "Beitreten" not in page.text
    assert "aufgenommen" not in page.text


def test_beitreten_on_an_old_page_changes_nothing_for_a_member(client, admin, club, hias, user):
    invitation = invite(club, admin, player=hias)
    client.force_login(user)
    assert "Willkommen" in client.post(join_url(invitation), follow=True).text
    joined = Membership.objects.get(club=club, user=user)

    response = client.post(join_url(invitation), follow=True)

    assert response.redirect_chain == [(reverse("clubs:detail", args=[club.pk]), 302)]
    assert "Du bist schon Mitglied in Schafkopffreunde Au." in response.text
    assert "Willkommen" not in response.text
    assert Membership.objects.filter(club=club, user=user).get() == joined
    assert club.players.filter(user=user).get() == hias


def test_who_joins_as_a_player_lands_where_their_balances_are_one_tap_away(
    client, admin, club, hias, user
):
    invitation = invite(club, admin, player=hias)
    client.force_login(user)

    joined = client.post(join_url(invitation), follow=True)

    # Years of games may wait under that name (walk 33): said, and linked.
    assert "Willkommen im Verein Schafkopffreunde Au!" in joined.text
    assert "Du bist hier Spieler. Du spielst als <bdi>Hias</bdi>." in joined.text
    overview = reverse("clubs:player_home", args=[club.pk, hias.pk])
    assert f'<a class="button" href="{overview}">Deine Übersicht: Konten und Abende</a>' in (
        joined.text
    )
    assert client.get(overview).status_code == 200


def test_a_member_keeps_their_role_whatever_role_a_link_offers(
    client, admin, club, hias, scorekeeper
):
    Player.objects.create(club=club, name="Hiasl", user=scorekeeper)
    invitation = invite(club, admin, role="admin")
    client.force_login(scorekeeper)

    page = client.get(join_url(invitation))
    client.post(join_url(invitation))

    assert "Du bist schon Mitglied in Schafkopffreunde Au, als Schreiber." in page.text
    assert "Eine andere Rolle gibt dir ein Admin" in page.text
    assert Membership.objects.get(club=club, user=scorekeeper).role == "schreiber"
    with pytest.raises(services.AlreadyMember):
        services.accept_invitation(invitation, scorekeeper)
    assert Membership.objects.get(club=club, user=scorekeeper).role == "schreiber"


# Removing a member


def remove(client, admin, club, user):
    member = Membership.objects.get(club=club, user=user)
    client.force_login(admin)
    return client.post(reverse("clubs:member_remove", args=[club.pk, member.pk]), follow=True)


def test_a_removed_member_cannot_rejoin_with_the_player_link_they_joined_with(
    client, admin, club, hias, user
):
    invitation = invite(club, admin, player=hias)
    client.force_login(user)
    client.post(join_url(invitation))
    remove(client, admin, club, user)
    client.force_login(user)

    page = client.get(join_url(invitation))
    response = client.post(join_url(invitation))

    for answer in (page, response):
        assert answer.status_code == 200
        assert "Diese Einladung gilt nicht mehr" in answer.text
        assert "Beitreten" not in answer.text
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None
    hias.refresh_from_db()
    assert hias.user is None
    assert not Membership.objects.filter(club=club, user=user).exists()


def test_removing_a_member_revokes_only_the_links_for_their_player(client, admin, club, hias, user):
    sepp_joins_as_hias(client, admin, club, hias, user)
    unused = invite(club, admin, player=hias)  # made meanwhile, never used
    vroni = Player.objects.create(club=club, name="Vroni")
    for_vroni, for_anyone = invite(club, admin, player=vroni), invite(club, admin)

    remove(client, admin, club, user)

    assert Invitation.objects.get(pk=unused.pk).revoked_at is not None
    assert set(club.invitations.usable()) == {for_vroni, for_anyone}


def test_a_club_whose_last_member_left_takes_nobody_in_with_a_link_still_open(
    client, admin, club, user
):
    """Walk 80: the last member left, a link for anyone still open in a group chat let a
    former member back in, as a Spieler of a club with nobody to run it."""
    for_anyone = invite(club, admin)
    services.remove_member(club.memberships.get(user=admin), admin, may_empty=True)
    client.force_login(user)

    page = client.get(join_url(for_anyone)).content.decode()
    client.post(join_url(for_anyone), {"new_name": "Sepp"})

    assert "Diese Einladung gilt nicht mehr: der Verein hat keine Mitglieder mehr" in page
    assert not club.memberships.exists()
    # Logged out: no "Schon beigetreten?", and the login and sign-up pages it leads to name
    # no invitation (walk 81: "Du bist in den Verein … eingeladen").
    client.logout()
    stranger = client.get(join_url(for_anyone)).content.decode()
    assert "Diese Einladung gilt nicht mehr" in stranger and "Schon beigetreten?" not in stranger
    for page_name in ("login", "signup"):
        shown = client.get(reverse(page_name), {"next": join_url(for_anyone)}).content.decode()
        assert "eingeladen" not in shown
    with pytest.raises(services.ClubError):
        services.accept_invitation(for_anyone, user, name="Sepp")
    assert not club.memberships.exists()


def test_a_removed_member_is_not_let_back_in_by_a_link_for_anyone(client, admin, club, hias, user):
    """Walk 92: the group chat's link let a member the admin had just removed straight
    back in. The admin decides, with a link for their player."""
    sepp_joins_as_hias(client, admin, club, hias, user)
    removed = remove(client, admin, club, user)
    for_anyone = invite(club, admin)
    client.force_login(user)

    page = client.get(join_url(for_anyone))
    posted = client.post(join_url(for_anyone), {"who": "neu", "name": "Sepp"})

    refused = "Ein Admin hat deinen Zugang zu diesem Verein entfernt: mit einem Link für alle"
    assert refused in page.text and refused in posted.text
    assert "Beitreten" not in page.text
    with pytest.raises(services.ClubError, match="Ein Admin hat deinen Zugang"):
        services.accept_invitation(for_anyone, user, name="Sepp")
    assert not club.memberships.filter(user=user).exists()
    assert not club.players.filter(name="Sepp").exists()
    assert "mit einem Link für alle kann Sepp nicht wieder beitreten" in removed.text
    # The admin's link for Hias brings them back as Hias.
    services.accept_invitation(invite(club, admin, player=hias), user)
    hias.refresh_from_db()
    assert hias.user == user


def test_a_member_who_left_and_rejoins_with_a_link_for_anyone_is_the_player_they_were(
    client, admin, club, hias, user
):
    sepp_joins_as_hias(client, admin, club, hias, user)
    services.remove_member(club.memberships.get(user=user), user)
    for_anyone = invite(club, admin)
    client.force_login(user)

    page = client.get(join_url(for_anyone))

    # No "Wer bist du?": a new name typed there would make a second player.
    assert "Wer bist du?" not in page.text
    assert (
        "Du hast im Verein als <strong>Hias</strong> gespielt und trittst wieder als Hias bei: "
        "die Spiele und Konten von Hias sind wieder deine."
    ) in page.text
    joined = client.post(join_url(for_anyone), {"who": "neu", "name": "Sepp"}, follow=True)
    assert "Willkommen im Verein" in joined.text
    hias.refresh_from_db()
    assert hias.user == user
    assert list(club.players.filter(user=user)) == [hias]
    assert not club.players.filter(name="Sepp").exists()


def test_a_former_member_s_player_taken_by_someone_else_meanwhile_is_not_theirs_again(
    client, admin, club, hias, user
):
    sepp_joins_as_hias(client, admin, club, hias, user)
    services.remove_member(club.memberships.get(user=user), user)  # left
    other = make_user("hias2", "Hias")
    services.accept_invitation(invite(club, admin, player=hias), other)
    client.force_login(user)

    page = client.get(join_url(invite(club, admin)))

    assert page.context["form"] is not None  # who they are in the club is asked
    assert "Dein Name im Verein" in page.text
    assert "wieder als Hias" not in page.text
    hias.refresh_from_db()
    assert hias.user == other


def test_a_former_member_s_player_is_not_offered_to_others_with_a_link_for_anyone(
    client, admin, club, hias, user
):
    sepp_joins_as_hias(client, admin, club, hias, user)
    remove(client, admin, club, user)
    newcomer = make_user("vroni", "Vroni")
    for_anyone = invite(club, admin)
    client.force_login(newcomer)

    page = client.get(join_url(for_anyone))
    picked = client.post(join_url(for_anyone), {"who": hias.pk})
    named = client.post(join_url(for_anyone), {"who": "neu", "name": "hias"})

    assert [label for _, label in page.context["form"].fields["who"].choices] == ["neu im Verein"]
    assert "Hias hat schon mit einem eigenen Konto im Verein gespielt." in picked.text
    assert (
        "Hias hat schon mit einem eigenen Konto im Verein gespielt. Bist du Hias, tritt mit "
        "diesem Konto bei; sonst wähle einen anderen Namen"
    ) in named.text
    with pytest.raises(services.ClubError, match="Hias hat schon mit einem eigenen Konto"):
        services.accept_invitation(for_anyone, newcomer, player=hias)
    hias.refresh_from_db()
    assert hias.user is None
    assert not Membership.objects.filter(user=newcomer).exists()
    # An admin's link for Hias is the admin's decision: whoever has it becomes Hias.
    services.accept_invitation(invite(club, admin, player=hias), newcomer)
    hias.refresh_from_db()
    assert hias.user == newcomer


def test_the_player_of_a_deleted_login_is_not_offered_to_others_either(
    client, admin, club, hias, user
):
    sepp_joins_as_hias(client, admin, club, hias, user)
    services.delete_account(user)
    newcomer = make_user("hias2", "Hias")
    client.force_login(newcomer)

    page = client.get(join_url(invite(club, admin)))

    # Hias's games and money are not anyone's who has the link; an admin's link for Hias
    # gives them to whom the admin means (Hias with a new account, say).
    assert [label for _, label in page.context["form"].fields["who"].choices] == ["neu im Verein"]
    # Told what can be done: not "tritt mit diesem Konto bei", gone for good (walk 71).
    named = client.post(join_url(invite(club, admin)), {"who": "neu", "name": "Hias"})
    assert named.context["form"].errors["name"] == [
        "Hias hat schon mit einem eigenen Konto im Verein gespielt, das inzwischen gelöscht "
        "ist. Bist du Hias, frag den Admin des Vereins nach einem Link für Hias; sonst wähle "
        "einen anderen Namen."
    ]
    assert not Membership.objects.filter(user=newcomer).exists()
    services.accept_invitation(invite(club, admin, player=hias), newcomer)
    hias.refresh_from_db()
    assert hias.user == newcomer


def test_a_removal_is_recorded_with_who_removed_whom_as_which_player(
    client, admin, club, hias, user
):
    client.force_login(user)
    client.post(join_url(invite(club, admin, player=hias, role="schreiber")))

    remove(client, admin, club, user)

    departure = club.departures.get()
    assert (departure.user, departure.player, departure.role, departure.by) == (
        user,
        hias,
        "schreiber",
        admin,
    )
    assert not departure.left_themself
    members = client.get(reverse("clubs:members", args=[club.pk])).text
    today = date_format(timezone.localdate(), "d.m.Y")
    assert "Nicht mehr dabei</h2>" in members
    assert (
        '<strong title="Sepp">Sepp</strong> (spielte als Hias): '
        f"Zugang am {today} von Resi entfernt" in members
    )
    # Back in the club (with the admin's link for Hias): no longer listed there.
    services.accept_invitation(invite(club, admin, player=hias), user)
    members = client.get(reverse("clubs:members", args=[club.pk])).text
    assert "Nicht mehr dabei" not in members


def test_after_a_removal_the_links_for_anyone_stay_open_for_others_only(
    client, admin, club, hias, user
):
    client.force_login(user)
    client.post(join_url(invite(club, admin)), {"who": hias.pk})
    invite(club, admin, role="schreiber")

    page = remove(client, admin, club, user)

    assert page.redirect_chain == [(reverse("clubs:members", args=[club.pk]), 302)]
    assert (
        "Der Zugang ist entfernt; gebuchte Spiele bleiben. Zurück kommt Sepp nur mit einem "
        "Link, den ein Admin für Sepp macht: mit einem Link für alle kann Sepp nicht wieder "
        "beitreten."
    ) in page.text
    assert club.invitations.usable().count() == 2  # others may be about to join with them
    newcomer = make_user("vroni", "Vroni")
    for link in club.invitations.usable():
        assert not services.invitation_refusal(link, newcomer)
        assert "Ein Admin hat deinen Zugang" in services.invitation_refusal(link, user)


def test_a_stranger_with_a_used_player_link_learns_it_before_signing_up(
    client, admin, club, hias, user
):
    invitation = invite(club, admin, player=hias)
    hias.user = user
    hias.save()

    response = client.get(join_url(invitation))

    assert response.status_code == 200
    # Maybe his own account on another phone, maybe he joined with a link for anyone: the
    # page says what is known, not that this link was used.
    assert (
        "Hias hat in diesem Verein schon ein Konto. Bist du Hias, melde dich an; sonst "
        "bitte den Admin des Vereins um einen neuen Link." in response.text
    )
    assert "angenommen" not in response.text
    assert "anderen Konto" not in response.text
    # Hias himself, on another phone, logs in from here and comes back to the link.
    login = f"{reverse('login')}?next={join_url(invitation)}"
    assert f'Schon beigetreten? <a class="button primary" href="{login}">' in response.text


# Joining with a link for anyone


def test_a_generic_link_asks_who_you_are_and_preselects_the_player_of_your_name(
    client, admin, club, hias, user
):
    girgl = Player.objects.create(club=club, name="Girgl")
    user.first_name = "HIAS"
    user.save()
    client.force_login(user)

    response = client.get(join_url(invite(club, admin)))

    assert response.status_code == 200
    assert "Wer bist du?" in response.text
    form = response.context["form"]
    assert [label for _, label in form.fields["who"].choices] == ["Girgl", "Hias", "neu im Verein"]
    assert form["who"].value() == str(hias.pk)
    assert re.search(
        rf'<input type="radio" name="who" value="{hias.pk}"[^>]* checked', response.text
    )
    assert not re.search(rf'value="{girgl.pk}"[^>]* checked', response.text)
    assert form["name"].value() == "HIAS"
    assert not Membership.objects.filter(user=user).exists()


def test_a_player_with_a_link_of_their_own_is_not_offered_to_anyone_with_a_link(
    client, admin, club, hias, user
):
    girgl = Player.objects.create(club=club, name="Girgl")
    own = invite(club, admin, player=hias)
    client.force_login(user)
    url = join_url(invite(club, admin))

    offered = client.get(url).context["form"].fields["who"].choices
    picked = client.post(url, {"who": hias.pk, "name": "Sepp"})  # from an older page
    named = client.post(url, {"who": "neu", "name": "hias"})

    assert [label for _, label in offered] == ["Girgl", "neu im Verein"]
    assert "Für Hias gibt es einen eigenen Einladungslink." in picked.text
    error = re.search(r'<div class="error" id="id_name_error">([^<]*)</div>', named.text)
    assert error and error[1] == (
        "Für Hias gibt es einen eigenen Einladungslink. Bist du Hias, nimm bitte diesen (hast "
        "du ihn nicht, frag den Admin des Vereins danach); sonst wähle einen anderen Namen."
    )
    hias.refresh_from_db()
    assert hias.user is None
    assert not Membership.objects.filter(user=user).exists()
    # Once his link is revoked, Hias is anyone's to be again.
    services.revoke_invitation(own)
    offered = client.get(url).context["form"].fields["who"].choices
    assert [label for _, label in offered] == [girgl.name, "Hias", "neu im Verein"]


def test_a_tournament_guest_is_offered_only_to_someone_of_their_name(client, admin, club, user):
    Player.objects.create(club=club, name="Girgl")
    ferdl = Player.objects.create(club=club, name="Ferdl aus Rehau", guest=True)
    client.force_login(user)
    url = join_url(invite(club, admin))

    offered = client.get(url).context["form"].fields["who"].choices
    named = client.post(url, {"who": "neu", "name": "ferdl aus rehau"})
    joined = client.post(url, {"who": ferdl.pk, "name": "Ferdl aus Rehau"})

    assert [label for _, label in offered] == ["Girgl", "neu im Verein"]
    assert [label for _, label in named.context["form"].fields["who"].choices] == [
        "Ferdl aus Rehau",
        "Girgl",
        "neu im Verein",
    ]
    assert named.context["form"].errors["name"] == [
        "Ferdl aus Rehau gibt es im Verein schon. Bist du das? Dann wähle oben „Ferdl aus "
        "Rehau“, sonst einen anderen Namen."
    ]
    assert joined.status_code == 302
    ferdl.refresh_from_db()
    assert (ferdl.user, ferdl.guest, ferdl.active) == (user, False, True)
    assert club.players.count() == 3  # Resi, Girgl and Ferdl: no second Ferdl


def test_the_service_refuses_a_player_whose_own_link_came_after_the_page(admin, club, hias, user):
    general = invite(club, admin)
    invite(club, admin, player=hias)

    with pytest.raises(services.ClubError, match="eigenen Einladungslink"):
        services.accept_invitation(general, user, player=hias)

    hias.refresh_from_db()
    assert hias.user is None
    assert not Membership.objects.filter(user=user).exists()


def test_joining_as_an_existing_player_links_that_player(client, admin, club, hias, user):
    client.force_login(user)

    response = client.post(join_url(invite(club, admin)), {"who": hias.pk, "name": "Sepp"})

    assert response.status_code == 302
    hias.refresh_from_db()
    assert hias.user == user
    assert club.players.count() == 2  # Resi and Hias
    assert Membership.objects.get(club=club, user=user).role == "spieler"


def test_joining_as_someone_new_makes_one_player_of_the_chosen_name(
    client, admin, club, hias, user
):
    client.force_login(user)

    response = client.post(join_url(invite(club, admin)), {"who": "neu", "name": " Seppi "})

    assert response.status_code == 302
    assert club.players.get(user=user).name == "Seppi"
    hias.refresh_from_db()
    assert hias.user is None


def test_a_new_name_too_long_is_told_once_why(client, admin, club, user):
    client.force_login(user)

    response = client.post(join_url(invite(club, admin)), {"who": "neu", "name": "Sepp" * 1250})

    assert response.context["form"].errors["name"] == [
        "Höchstens 40 Zeichen, dieser Name hat 5000."
    ]
    assert not Membership.objects.filter(user=user).exists()


def test_a_new_name_an_unlinked_player_has_is_an_error_at_the_name(client, admin, club, hias, user):
    client.force_login(user)

    response = client.post(join_url(invite(club, admin)), {"who": "neu", "name": "hias"})

    assert response.status_code == 200
    error = re.search(r'<div class="error" id="id_name_error">([^<]*)</div>', response.text)
    assert error, "the error at the name field"
    assert error[1] == (
        "Hias gibt es im Verein schon. Bist du das? Dann wähle oben „Hias“, sonst einen "
        "anderen Namen."
    )
    assert club.players.count() == 2
    hias.refresh_from_db()
    assert hias.user is None
    assert not Membership.objects.filter(user=user).exists()


def test_a_new_name_one_slip_from_an_unlinked_players_is_asked_about_once(
    client, admin, club, hias, user
):
    """Walk 70: "Karl" joined beside the club's "Carl" unasked, a second player the admin
    then needed four steps to undo. A name one slip of the thumb away is asked about; sent
    again, it is meant."""
    client.force_login(user)
    url = join_url(invite(club, admin))

    asked = client.post(url, {"who": "neu", "name": "Hais"})

    assert asked.status_code == 200
    assert asked.context["form"].errors["name"] == [
        "Bist du Hias? Dann wähle oben „Hias“. Bist du neu im Verein, als Hais, dann nochmal "
        "„Beitreten“ tippen."
    ]
    assert '<input type="hidden" name="sure" value="Hais">' in asked.text
    assert not Membership.objects.filter(user=user).exists()
    # Another name than the one asked about is asked about in turn.
    other = client.post(url, {"who": "neu", "name": "Hiaz", "sure": "Hais"})
    assert other.status_code == 200 and not Membership.objects.filter(user=user).exists()

    joined = client.post(url, {"who": "neu", "name": "Hais", "sure": "Hais"})

    assert joined.status_code == 302
    assert club.players.get(user=user).name == "Hais"
    hias.refresh_from_db()
    assert hias.user is None


def test_a_new_name_one_slip_from_an_inactive_players_is_asked_about(client, admin, club, user):
    """Walk 71: "Dieterr" joined beside the club's inactive "Dieter", who is not offered
    on the join page: asked, with what Dieter does to come back."""
    Player.objects.create(club=club, name="Dieter", active=False)
    client.force_login(user)
    url = join_url(invite(club, admin))

    asked = client.post(url, {"who": "neu", "name": "Dieterr"})

    assert asked.context["form"].errors["name"] == [
        "Bist du Dieter? Dieter spielt gerade nicht mit: dann bitte den Admin um einen "
        "Einladungslink für Dieter. Bist du neu im Verein, als Dieterr, dann nochmal "
        "„Beitreten“ tippen."
    ]
    assert not Membership.objects.filter(user=user).exists()

    joined = client.post(url, {"who": "neu", "name": "Dieterr", "sure": "Dieterr"})

    assert joined.status_code == 302
    assert club.players.get(user=user).name == "Dieterr"


def test_a_new_name_one_slip_from_a_player_not_offered_is_asked_about_with_what_to_do(
    client, admin, club, user
):
    """Walk 74: "Karl" joined beside a "Carl" with an account, "Emill" beside an "Emil"
    who left and "Gerdaa" beside a Gerda whose account is deleted, unasked."""
    Player.objects.create(club=club, name="Carl", user=make_user("carl", "Carl"))
    for name in ("Emil", "Gerda"):
        player = Player.objects.create(club=club, name=name)
        member = make_user(name.lower(), name)
        services.accept_invitation(invite(club, admin, player=player), member)
        if name == "Emil":
            services.remove_member(member.memberships.get(), member)
        else:
            services.delete_account(member)
    client.force_login(user)
    url = join_url(invite(club, admin))

    def asked(typed: str) -> list[str]:
        return client.post(url, {"who": "neu", "name": typed}).context["form"].errors["name"]

    assert asked("Karl") == [
        "Bist du Carl? Carl spielt schon mit eigenem Konto: dann melde dich damit an. Bist "
        "du neu im Verein, als Karl, dann nochmal „Beitreten“ tippen."
    ]
    assert asked("Emill") == [
        "Bist du Emil? Dann tritt mit deinem früheren Konto bei. Bist du neu im Verein, als "
        "Emill, dann nochmal „Beitreten“ tippen."
    ]
    assert asked("Gerdaa") == [
        "Bist du Gerda? Dein früheres Konto ist gelöscht: dann frag den Admin nach einem "
        "Link. Bist du neu im Verein, als Gerdaa, dann nochmal „Beitreten“ tippen."
    ]
    # Emil set inactive since: still comes back with his account (walk 76).
    club.players.filter(name="Emil").update(active=False)
    assert asked("Emill") == [
        "Bist du Emil? Dann tritt mit deinem früheren Konto bei. Bist du neu im Verein, als "
        "Emill, dann nochmal „Beitreten“ tippen."
    ]
    assert not Membership.objects.filter(user=user).exists()
    joined = client.post(url, {"who": "neu", "name": "Karl", "sure": "Karl"})
    assert joined.status_code == 302 and club.players.get(user=user).name == "Karl"


@pytest.mark.parametrize(
    ("typed", "near"),
    [
        *[("Karl", "Carl"), ("Sepi", "Sepp"), ("Hais", "Hias"), ("Hanna", "Anna")],
        *[("Wast", "Wastl"), ("Crl", "Carl"), ("Uli", "Ulli"), ("Carl", "Crl")],
    ],
)
def test_near_names(typed, near):
    assert near_name([Player(name="Vroni"), Player(name=near)], typed).name == near


@pytest.mark.parametrize("typed", ["Vroni", "Toni", "Sepp", "Franz", "Max", "Karla", "Mo", "Ca"])
def test_names_more_than_one_slip_apart_are_not_near(typed):
    assert (
        near_name([Player(name="Carl"), Player(name="Veronika"), Player(name="Mox")], typed) is None
    )


def test_a_new_name_that_reads_as_an_unlinked_players_points_to_that_player(
    client, admin, club, user
):
    weiss = Player.objects.create(club=club, name="Weiss")
    user.first_name = "Weiß"
    user.save()
    client.force_login(user)
    url = join_url(invite(club, admin))

    page = client.get(url)
    response = client.post(url, {"who": "neu", "name": "Weiß"})

    # The page offers the look-alike as who the newcomer is; choosing "new" is refused.
    assert page.context["form"]["who"].value() == str(weiss.pk)
    assert response.context["form"].errors["name"] == [
        "Weiss gibt es im Verein schon. Bist du das? Dann wähle oben „Weiss“, sonst einen "
        "anderen Namen."
    ]
    assert not club.players.filter(name="Weiß").exists()
    assert not Membership.objects.filter(user=user).exists()


def test_a_new_name_a_member_plays_under_is_an_error_at_the_name(client, admin, club, user):
    client.force_login(user)

    response = client.post(join_url(invite(club, admin)), {"who": "neu", "name": "Resi"})

    assert response.status_code == 200
    assert response.context["form"].errors["name"] == [
        "Resi spielt im Verein schon, mit eigenem Konto. Bitte wähle einen anderen Namen."
    ]
    assert not club.players.filter(user=user).exists()
    assert not Membership.objects.filter(user=user).exists()


def test_a_new_player_needs_a_name(client, admin, club, user):
    client.force_login(user)

    response = client.post(join_url(invite(club, admin)), {"who": "neu", "name": "  "})

    assert response.status_code == 200
    assert response.context["form"].errors["name"] == [
        "Bitte gib den Namen ein, unter dem du spielst."
    ]
    assert not Membership.objects.filter(user=user).exists()


def test_someone_who_already_is_a_player_is_not_asked(client, admin, club, hias, user):
    # A player linked to a login without a membership (as data from before removals
    # unlinked the player can be).
    own = Player.objects.create(club=club, name="Sepp", user=user)
    client.force_login(user)
    invitation = invite(club, admin, role="schreiber")

    page = client.get(join_url(invitation))
    assert "Wer bist du?" not in page.text
    assert "Du spielst im Verein als <strong>Sepp</strong>." in page.text
    response = client.post(join_url(invitation))

    assert response.status_code == 302
    assert club.players.filter(user=user).get() == own
    assert club.players.count() == 3  # Resi, Hias, Sepp
    assert Membership.objects.get(club=club, user=user).role == "schreiber"


def test_the_seat_picker_shows_a_joined_player_once(client, admin, club, runde, hias, user):
    client.force_login(user)
    client.post(join_url(invite(club, admin)), {"who": hias.pk})
    client.force_login(admin)

    response = client.get(reverse("evenings:start", args=[club.pk, runde.pk]))

    names = [name for pk, name in response.context["form"].fields["seat0"].choices if pk]
    assert names == ["Hias", "Resi"]


def test_a_player_picked_by_someone_else_meanwhile_is_refused(club, admin, hias, user):
    invitation = invite(club, admin)
    hias.user = make_user("vroni", "Vroni")
    hias.save()

    with pytest.raises(services.ClubError, match="Hias hat inzwischen ein Konto"):
        services.accept_invitation(invitation, user, player=hias)

    assert not Membership.objects.filter(user=user).exists()
    assert not club.players.filter(user=user).exists()


def test_a_name_taken_meanwhile_is_refused(club, admin, hias, user):
    with pytest.raises(services.ClubError, match="Einen Spieler Hias gibt es im Verein schon"):
        services.accept_invitation(invite(club, admin), user, name="HIAS")

    assert not Membership.objects.filter(user=user).exists()
    assert club.players.count() == 2


def test_a_join_sent_without_the_form_takes_what_the_page_preselects(client, admin, club, user):
    client.force_login(user)

    response = client.post(join_url(invite(club, admin)))

    assert response.status_code == 302
    assert club.players.get(user=user).name == "Sepp"


def test_with_players_to_be_nothing_is_preselected_and_a_choice_is_asked_for(
    client, admin, club, hias, user
):
    # Hias may be the newcomer under another name: "Beitreten" must not make a second one.
    client.force_login(user)
    url = join_url(invite(club, admin))

    page = client.get(url)
    response = client.post(url)

    assert page.context["form"]["who"].value() is None
    assert 'name="name" value="Sepp"' in page.text  # ready, should they be someone new
    assert not re.search(r'<input type="radio"[^>]*checked', page.text)
    assert response.status_code == 200
    assert response.context["form"].errors["who"] == ["Bitte wähle, wer du bist."]
    # A screen reader reads why with the group, and what it is for.
    assert '<fieldset class="who" aria-describedby="who-help">' in page.text
    assert '<fieldset class="who" aria-describedby="who-help id_who_error">' in response.text
    assert '<div class="error" id="id_who_error">Bitte wähle, wer du bist.</div>' in response.text
    assert not Membership.objects.filter(user=user).exists()
    assert club.players.count() == 2


# The account pages opened from an invitation


@pytest.mark.parametrize("page", ["signup", "login"])
@pytest.mark.parametrize(("role", "shown"), [("spieler", "Spieler"), ("schreiber", "Schreiber")])
def test_the_account_pages_opened_from_an_invitation_name_the_club_and_the_role(
    client, admin, club, page, role, shown
):
    invitation = invite(club, admin, role=role)

    response = client.get(reverse(page), {"next": join_url(invitation)})

    assert response.status_code == 200
    assert (
        f"Du bist in den Verein <strong>Schafkopffreunde Au</strong> eingeladen, als {shown}."
    ) in response.text


def test_the_signup_page_of_a_player_link_names_the_player(client, admin, club, hias):
    invitation = invite(club, admin, player=hias, role="schreiber")

    response = client.get(reverse("signup"), {"next": join_url(invitation)})

    assert "eingeladen, als Hias (Schreiber)." in response.text


@pytest.mark.parametrize(
    "next_url",
    ["", "/verein/neu/", "/einladung/gibt-es-nicht/", "/einladung/a%00b/", "https://evil.example/"],
)
def test_the_signup_page_names_no_club_without_a_working_invitation(client, admin, club, next_url):
    response = client.get(reverse("signup"), {"next": next_url})

    assert response.status_code == 200
    assert "eingeladen" not in response.text


def test_the_signup_page_names_no_club_for_a_revoked_invitation(client, admin, club):
    invitation = invite(club, admin)
    services.revoke_invitation(invitation)

    response = client.get(reverse("signup"), {"next": join_url(invitation)})

    assert "Schafkopffreunde Au" not in response.text


def test_a_player_who_got_a_login_since_the_page_was_shown_is_no_longer_offered(
    client, admin, club, hias, user
):
    invitation = invite(club, admin)
    client.force_login(user)
    client.get(join_url(invitation))
    hias.user = make_user("vroni", "Vroni")
    hias.save()

    response = client.post(join_url(invitation), {"who": hias.pk, "name": "Sepp"})

    assert response.status_code == 200
    assert response.context["form"].errors["who"] == [
        "Hias hat inzwischen ein Konto. Bitte wähle noch einmal."
    ]
    assert [label for _, label in response.context["form"].fields["who"].choices] == [
        "neu im Verein"
    ]
    assert not Membership.objects.filter(user=user).exists()
    assert not club.players.filter(user=user).exists()


@pytest.mark.parametrize("token", ["garbage", "x" * 43])
def test_a_link_that_names_no_invitation_says_so(client, user, token):
    client.force_login(user)

    response = client.get(f"/einladung/{token}/")

    assert response.status_code == 404
    assert "Diese Einladung gibt es nicht: vielleicht ist der Link nicht ganz kopiert." in (
        response.text
    )
    assert "Zuschauer-Link" not in response.text


def test_a_player_picked_by_two_at_once_tells_the_second_who_took_him(
    client, admin, club, hias, user
):
    for_anyone = invite(club, admin)
    services.accept_invitation(for_anyone, make_user("hias2", "Hias"), player=hias)
    client.force_login(user)

    # Sepp's page still offered Hias: someone else joined as Hias meanwhile.
    answer = client.post(join_url(for_anyone), {"who": hias.pk})

    assert "Hias hat inzwischen ein Konto. Bitte wähle noch einmal." in answer.text
    assert not Membership.objects.filter(user=user).exists()
    for nonsense in ("99999999999999999999999", "²", "-1"):
        answer = client.post(join_url(for_anyone), {"who": nonsense})
        assert "Diesen Spieler gibt es ohne Konto nicht mehr." in answer.text
