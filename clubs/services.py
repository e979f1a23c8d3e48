"""Writes that span several club models, each in one transaction."""

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F, ProtectedError, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.models import (
    Club,
    Departure,
    Invitation,
    LoginFailure,
    Membership,
    Player,
    ResetRequest,
    RoleChange,
    Runde,
    Session,
    Tariff,
    german_order,
)


class ClubError(Exception):
    """A request the club's state does not allow; the message is German, for the page."""


class AlreadyMember(ClubError):
    """An invitation opened by someone who is a member of its club already."""


def display_name(user, played_as: dict[int, str] | None = None) -> str:
    """How a user is named: by the name their club plays them under (`played_as`, from
    `names_played_as`), as the sheet names them, else by their account's."""
    return (played_as or {}).get(user.pk) or user.get_short_name() or user.get_username()


def names_played_as(club, users) -> dict[int, str]:
    """user id → the name of their player in `club`, for `users` (ids or a queryset); for
    one who left the club, was removed or deleted their account, of the player they left
    as (walk 70: the history named them "gelöschtes Konto" once it was made anew, the
    name it had cached until then). One query."""
    rows = (
        club.players.filter(Q(user__in=users) | Q(departures__user__in=users))
        .order_by(F("departures__at").asc(nulls_first=True), "departures__pk")
        .values_list("user_id", "departures__user_id", "name")
    )
    left: dict[int, str] = {}
    linked: dict[int, str] = {}
    for user_id, left_by, name in rows:
        if left_by is not None:
            left[left_by] = name  # the newest departure last
        if user_id is not None:
            linked[user_id] = name
    return left | linked


def _player_for(club: Club, user) -> Player:
    """The club's player linked to `user`, created under a free display name if needed."""
    player = club.players.filter(user=user).first()
    if player:
        return player
    # A first name may be longer than a player's name (150 characters against 40).
    limit = Player._meta.get_field("name").max_length
    base = display_name(user)
    name, n = base[:limit], 1
    while club.players.filter(name__iexact=name).exists():
        n += 1
        suffix = f" {n}"
        name = f"{base[: limit - len(suffix)]}{suffix}"
    return Player.objects.create(club=club, name=name, user=user)


SAME_NAME = gettext_lazy(
    "Du bist schon in einem Verein namens „%(name)s“. Bitte einen anderen Namen wählen, "
    "damit sich die beiden auseinanderhalten lassen."
)


def same_name(user, name: str):
    """The user's clubs named `name` (in any case)."""
    return Club.objects.filter(memberships__user=user, name__iexact=name)


@transaction.atomic
def create_club(user, name: str) -> Club:
    """Anyone can create a club; its creator becomes its admin and one of its players.

    Not a second of the same name among the user's clubs: a double tap on "Anlegen" (or
    the form sent again) made two that nobody could tell apart (walk 62). The user's row
    is locked, so that two taps at once are one after the other."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    if same_name(user, name).exists():
        raise ClubError(SAME_NAME % {"name": name})
    club = Club.objects.create(name=name)
    Membership.objects.create(user=user, club=club, role=Membership.Role.ADMIN)
    _player_for(club, user)
    return club


@transaction.atomic
def create_runde(club: Club, name: str, by) -> Runde:
    """A new Runde starts with the ordinary Zehner-Schafkopf tariff (the model defaults)."""
    runde = Runde.objects.create(club=club, name=name)
    Tariff.objects.create(runde=runde, created_by=by)
    return runde


def create_prohof_runde(club: Club, name: str, by) -> Runde:
    """The Runde a ProHof tournament keeps its tables' evenings in: scored in points
    (seed 000), not listed among the club's money Runden."""
    runde = Runde.objects.create(club=club, name=name, kind=Runde.Kind.PROHOF)
    Tariff.objects.create(runde=runde, created_by=by, system=Tariff.System.PROHOF)
    return runde


class NewerTariff(ClubError):
    """The tariff form was filled in from a version the Runde has replaced since (another
    admin saved meanwhile): saved, it would undo their change unseen (walk 47)."""

    def __init__(self, current: Tariff):
        super().__init__(current)
        self.current = current


@transaction.atomic
def change_tariff(runde: Runde, proposed: Tariff, by, shown: int | None = None) -> Tariff | None:
    """Add `proposed` as the Runde's newest tariff version, valid from now on.

    Versions are never edited, so an evening that recorded an older version keeps
    its amounts. Returns None when nothing changed. `shown`: the version the form showed;
    NewerTariff if the Runde has another since.
    """
    Runde.objects.select_for_update().get(pk=runde.pk)
    current = runde.tariffs.latest()
    if shown is not None and shown != current.pk:
        raise NewerTariff(current)
    if proposed.same_rules_as(current):
        return None
    proposed.pk = None
    proposed.runde = runde
    proposed.created_by = by
    proposed.valid_from = timezone.now()
    proposed.save()
    return proposed


def invitation_refusal(invitation: Invitation, user) -> str:
    """Why `user` cannot join with `invitation`, in German; "" if they can.

    A link for one player works only while that player has no other login, and only for
    someone who is not already another player of the club.
    """
    # A member needs no new link, and an admin of the club makes one themselves.
    role = (
        invitation.club.memberships.filter(user=user).values_list("role", flat=True).first()
        if user.is_authenticated
        else None
    )
    new_link = {
        None: _("Bitte den Admin des Vereins um einen neuen Link."),
        Membership.Role.ADMIN: _("Einen neuen Link machst du unter „Mitglieder“."),
    }.get(role, "")
    if not invitation.is_usable:
        return f"{_('Diese Einladung gilt nicht mehr.')} {new_link}".strip()
    if not invitation.club.memberships.exists():
        # Its last member left (or deleted their account): a link still open in a group
        # chat let anyone in, as a Spieler of a club nobody runs (walk 80).
        return _(
            "Diese Einladung gilt nicht mehr: der Verein hat keine Mitglieder mehr, auch "
            "keinen Admin, der einlädt."
        )
    player = invitation.player
    if player is None:
        if role is None and removed_by_admin(invitation.club, user):
            # A group chat's link let a removed member straight back in (walk 92): the
            # admin who removed them decides, with a link for their player.
            return _(
                "Ein Admin hat deinen Zugang zu diesem Verein entfernt: mit einem Link für "
                "alle trittst du nicht wieder bei. Bitte den Admin des Vereins um einen Link "
                "für dich."
            )
        return ""
    if player.user_id is not None and not user.is_authenticated:
        # Maybe Hias himself on another phone (the page offers to log in), maybe not.
        # Not "taken with this link": he may have joined through a general one.
        return _(
            "%(name)s hat in diesem Verein schon ein Konto. Bist du %(name)s, melde dich "
            "an; sonst bitte den Admin des Vereins um einen neuen Link."
        ) % {"name": player.name}
    if player.user_id is not None and player.user_id != user.pk:
        used = _(
            "Diese Einladung war für %(name)s, und %(name)s spielt inzwischen mit einem "
            "anderen Konto."
        ) % {"name": player.name}
        return f"{used} {new_link}".strip()
    if user.is_authenticated:
        own = invitation.club.players.filter(user=user).exclude(pk=player.pk).first()
        if own is not None:
            return _(
                "Diese Einladung ist für %(name)s, aber du spielst in diesem Verein schon "
                "als %(own)s. Bitte den Admin des Vereins, das zu klären."
            ) % {"name": player.name, "own": own.name}
    return ""


@transaction.atomic
def accept_invitation(
    invitation: Invitation, user, *, player: Player | None = None, name: str = ""
) -> Membership:
    """Join the invitation's club as one of its players, never as a silent second one.

    1. A link for one player links that player to `user` (refused if it has another
       login meanwhile, or if `user` already is another player of the club).
    2. Otherwise a user who already is a player of the club stays that player, and one
       who left it (or was removed) is the player they were again, unless someone else
       has that player meanwhile.
    3. Otherwise `player`, an unlinked player the user picked, is linked to them; or,
       without one, a new player called `name` is made.

    An Admin link is used up by whoever joins with it first; the others are for a group.

    A member of the club is refused (AlreadyMember) and nothing changes: a link is for
    joining, not for another role (the admin changes roles on the members page), and the
    personal link a member joined with must not greet them as new again. A linked player
    is active again: whoever joins comes to play.
    """
    invitation = Invitation.objects.select_for_update().select_related("club").get(pk=invitation.pk)
    club = invitation.club
    if club.memberships.filter(user=user).exists():
        raise AlreadyMember(_("Du bist schon Mitglied in %(club)s.") % {"club": club.name})
    if invitation.player_id is not None:
        invitation.player = Player.objects.select_for_update().get(pk=invitation.player_id)
    if refusal := invitation_refusal(invitation, user):
        raise ClubError(refusal)
    if invitation.player is not None:
        _link(invitation.player, user)
    elif not club.players.filter(user=user).exists():
        if former := former_player(club, user, lock=True):
            _link(former, user)
        else:
            _become_player(club, user, player, name)

    membership, _created = Membership.objects.get_or_create(
        user=user, club=club, defaults={"role": invitation.role}
    )
    if invitation.role == Membership.Role.ADMIN and invitation.revoked_at is None:
        # An Admin link is for one person: shared further by mistake (a group chat), it
        # makes nobody else the club's admin.
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
    return membership


def removed_by_admin(club: Club, user) -> bool:
    """Whether `user`'s access to `club` was last removed by someone else (an admin), not
    given up by themself."""
    if not user.is_authenticated:
        return False
    # Departure.by is None once the remover's login is gone: someone else's all the same.
    last = club.departures.filter(user=user).only("by").first()
    return last is not None and last.by_id != user.pk


def former_player(club: Club, user, *, lock: bool = False) -> Player | None:
    """The player `user` was in `club` before they left or were removed, if nobody has
    it now (the newest such departure's)."""
    if not user.is_authenticated:
        return None
    players = Player.objects.filter(
        pk__in=club.departures.filter(user=user, player__user=None).values("player")[:1]
    )
    return (players.select_for_update() if lock else players).filter(user=None).first()


def kept_for_former_members(club: Club):
    """The ids of the club's players whose login left (or was removed, or was deleted):
    theirs to come back as, not anyone's with a link for anyone (their games and money
    would go with them). An admin's link for such a player still gives it to whoever
    the admin means."""
    return club.departures.filter(player__user=None).values("player")


def former_member_s(player: Player) -> str:
    """Why a player kept for a former member is not taken with a link for anyone. Where
    that account is deleted, only an admin's link for the player brings them back (walk
    71: "tritt mit diesem Konto bei" said of an account nobody can log in with)."""
    if not player.departures.filter(user__is_active=True).exists():
        return _(
            "%(name)s hat schon mit einem eigenen Konto im Verein gespielt, das inzwischen "
            "gelöscht ist. Bist du %(name)s, frag den Admin des Vereins nach einem Link "
            "für %(name)s; sonst wähle einen anderen Namen."
        ) % {"name": player.name}
    return _(
        "%(name)s hat schon mit einem eigenen Konto im Verein gespielt. Bist du %(name)s, "
        "tritt mit diesem Konto bei; sonst wähle einen anderen Namen (oder frag den Admin "
        "des Vereins nach einem Link für %(name)s)."
    ) % {"name": player.name}


def not_to_be_had(club: Club, player: Player) -> str:
    """Why a player picked with a link for anyone cannot be taken ("": they can): a login
    of their own by now (or gone from the club), a link of their own still open, or a
    former member's."""
    gone = player.pk is None or not club.players.filter(pk=player.pk).exists()
    if gone or player.user_id is not None:
        return _("%(name)s hat inzwischen ein Konto. Bitte wähle noch einmal.") % {
            "name": player.name
        }
    if player.invitations.usable().exists():
        return reserved(player)
    if kept_for_former_members(club).filter(player=player).exists():
        return former_member_s(player)
    return ""


def reserved(player: Player) -> str:
    """Why a player with a link of their own still open is not taken with a link for
    anyone (the join form's message and the service's)."""
    return _(
        "Für %(name)s gibt es einen eigenen Einladungslink. Bist du %(name)s, nimm bitte "
        "diesen (hast du ihn nicht, frag den Admin des Vereins danach); sonst wähle einen "
        "anderen Namen."
    ) % {"name": player.name}


def _become_player(club: Club, user, player: Player | None, name: str) -> None:
    """Link the unlinked `player` the user picked, or make a new player called `name`."""
    if player is not None:
        chosen = club.players.select_for_update().filter(pk=player.pk).first()
        if refusal := not_to_be_had(club, chosen or player):
            raise ClubError(refusal)
        _link(chosen, user)
    elif name:
        if taken := club.players.filter(name__iexact=name).first():
            raise ClubError(
                _("Einen Spieler %(name)s gibt es im Verein schon.") % {"name": taken.name}
            )
        try:
            with transaction.atomic():
                Player.objects.create(club=club, name=name, user=user)
        except IntegrityError as error:
            # Someone else took the name since the check above (a double tap, say).
            diag = getattr(error.__cause__, "diag", None)
            if getattr(diag, "constraint_name", None) != "player_name_unique_in_club":
                raise
            raise ClubError(
                _("Einen Spieler %(name)s gibt es im Verein schon.") % {"name": name}
            ) from error
    else:
        raise ClubError(_("Bitte wähle, wer du bist."))


def _link(player: Player, user) -> None:
    """`player` is `user`'s, and plays: a guest of the club's tournaments who joins is a
    member now, at its Runden too."""
    if player.user_id != user.pk or not player.active or player.guest:
        player.user, player.active, player.guest = user, True, False
        player.save(update_fields=["user", "active", "guest"])


@transaction.atomic
def change_role(membership: Membership, role: str, by) -> Membership:
    """Give a member another role (`by` an admin), on the club's record; a club never
    loses its last admin. The role it has already (the form sent twice) changes nothing."""
    Club.objects.select_for_update().get(pk=membership.club_id)
    membership.refresh_from_db(fields=["role"])
    if membership.role == role:
        return membership
    if role != Membership.Role.ADMIN:
        _keep_an_admin(membership)
    RoleChange.objects.create(
        club_id=membership.club_id,
        user_id=membership.user_id,
        player=Player.objects.filter(
            club_id=membership.club_id, user_id=membership.user_id
        ).first(),
        before=membership.role,
        after=role,
        by=by,
    )
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def remove_member(membership: Membership, by, *, may_empty: bool = False) -> None:
    """Take away a user's access (`by` an admin, or by themself: leaving); their player
    and everything booked for it stay, no longer linked to the login: the player can be
    invited again, by a new link for them. A Departure keeps who it was, for their start
    page and for joining again as that player.

    The links made for their player are revoked: unlinked, the player would count as
    not yet joined, and the link they joined with would let them straight back in. Links
    for anyone stay (others may be about to join with them); the members page names them.
    """
    Club.objects.select_for_update().get(pk=membership.club_id)
    # A club keeps an admin while it has members; `may_empty`: its last member may go
    # (deleting their account), and the club, its games and its ledger stay, seen by nobody.
    if may_empty and is_only_member(membership):
        _stop_sharing(membership.club, by)
    else:
        _keep_an_admin(membership)
    membership.delete()
    players = membership.club.players.filter(user_id=membership.user_id)
    Departure.objects.create(
        club_id=membership.club_id,
        user_id=membership.user_id,
        role=membership.role,
        player=players.first(),
        by=by,
    )
    Invitation.objects.filter(player__in=players, revoked_at=None).update(revoked_at=timezone.now())
    players.update(user=None)


def _stop_sharing(club: Club, by) -> None:
    """Revoke the spectator links and hall displays of a club its last member leaves:
    nobody is left to revoke one, and a link in a group chat would show its evening or
    tournament for good (walks 81, 85)."""
    from evenings.services import revoke_share_links
    from tournaments.models import Tournament

    revoke_share_links(club.pk, by)
    Tournament.objects.filter(club=club).update(display_token=None)


def sole_admin_of(user) -> list[Club]:
    """The clubs with other members that would have no admin without `user`: they hand
    the role on first."""
    return [
        membership.club
        for membership in user.memberships.admins()
        .select_related("club")
        .order_by(german_order("club__name"))
        if is_last_admin(membership) and not is_only_member(membership)
    ]


def only_member_of(user) -> list[Club]:
    """The clubs `user` is the one member of: deleting the account leaves them empty."""
    return [
        membership.club
        for membership in user.memberships.select_related("club").order_by(
            german_order("club__name")
        )
        if is_only_member(membership)
    ]


def is_only_member(membership: Membership) -> bool:
    return not membership.club.memberships.exclude(pk=membership.pk).exists()


@transaction.atomic
def delete_account(user) -> None:
    """Delete a login at its owner's wish. They leave each of their clubs (as by "Verein
    verlassen": their players and everything booked stay, unlinked), and what the login
    said about the person goes: user name, name, email, password, sessions, its login
    failures and reset requests. The row itself stays, emptied and inactive, because the
    ledger names who booked each change (PROTECT); it reads "gelöschtes Konto" there.

    Refused (ClubError, nothing changed) while a club with other members would be left
    without an admin. A club of which they are the one member is left without members:
    its games and its ledger stay (they are never deleted), seen by nobody."""
    clubs = list(
        Club.objects.select_for_update()
        .filter(memberships__user=user)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    if sole := sole_admin_of(user):
        raise ClubError(
            _(
                "Du bist der einzige Admin von %(clubs)s. Gib die Rolle zuerst einem anderen "
                "Mitglied (unter „Mitglieder“); dann kannst du dein Konto löschen."
            )
            % {"clubs": ", ".join(club.name for club in sole)}
        )
    for membership in user.memberships.filter(club__in=clubs):
        remove_member(membership, by=user, may_empty=True)
    LoginFailure.objects.filter(username__iexact=user.get_username()).delete()
    if user.email:
        ResetRequest.objects.filter(email__iexact=user.email).delete()
    Session.objects.filter(user=user).delete()
    user.username = f"geloescht-{user.pk}"
    user.first_name = _("gelöschtes Konto")
    user.last_name = user.email = ""
    user.is_active = False
    user.set_unusable_password()
    user.save()


def is_unused_club(club: Club) -> bool:
    """A club where no evening was ever begun, of a Runde or of a tournament's table:
    nothing of it is in the ledger or the audit trail, so it may go whole (a club made
    to try the app, or founded twice)."""
    from evenings.models import Evening

    return not Evening.objects.filter(runde__club=club).exists()


@transaction.atomic
def delete_club(club: Club) -> None:
    """Delete an unused club (is_unused_club) with everything set up in it: its Runden and
    tariffs, players, tournaments and their participants, invitations, memberships.
    Refused (ClubError, nothing changed) once an evening was begun, also by another phone
    a moment ago: the Runden are locked first, as starting an evening locks its Runde,
    and a start that waited here finds its Runde gone."""
    Club.objects.select_for_update().get(pk=club.pk)
    list(Runde.objects.select_for_update().filter(club=club).values_list("pk"))
    if not is_unused_club(club):
        raise ClubError(
            _(
                "Löschen geht nicht mehr: im Verein wurde schon ein Abend begonnen, und was "
                "dort gebucht ist, bleibt."
            )
        )
    from tournaments.services import delete_tournament

    # Tournaments first, as "Turnier löschen" does: each keeps its Runde, and its drawn
    # seats its participants' players (PROTECT).
    for tournament in club.tournaments.all():
        delete_tournament(tournament)
    club.delete()


def is_last_admin(membership: Membership) -> bool:
    """Whether the club would have no admin without this member's role."""
    return (
        membership.is_admin
        and not membership.club.memberships.admins().exclude(pk=membership.pk).exists()
    )


def _keep_an_admin(membership: Membership) -> None:
    if is_last_admin(membership):
        raise ClubError(_("Der Verein braucht mindestens einen Admin."))


def revoke_invitation(invitation: Invitation) -> None:
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])


def is_unused(player: Player) -> bool:
    """A player who never played and has no login: a name typed by mistake, a guest who
    did not come. Anyone with a login, a seat at an evening or a tournament, or an
    invitation of their own is not."""
    return not kept_because(player)


def kept_because(player: Player) -> str:
    """Why the player cannot be deleted, in German, with what to do instead; "" if they
    can (is_unused). A player page without the button said nothing (walk 29)."""
    if player.user_id is not None:
        return _(
            "Löschen lässt sich nur ein Name ohne Konto: %(name)s meldet sich selbst an. "
            "Wer nicht mehr dabei ist, verlässt den Verein oder wird unter „Mitglieder“ "
            "entfernt."
        ) % {"name": player.name}
    sat = player.seats.exists()
    if not sat and player.participations.exists():
        # Entered, not played (who sat at a table has a seat): taken off the list there,
        # a guest goes by itself (walk 37).
        tournament = player.participations.select_related("tournament").first().tournament
        return _(
            "Löschen geht nicht: %(name)s ist zum Turnier „%(tournament)s“ gemeldet. Dort "
            "bei den Teilnehmern „Entfernen“ tippen; ein Gast, der nirgends gespielt hat, "
            "verschwindet dann auch aus dieser Liste."
        ) % {"name": player.name, "tournament": tournament.name}
    # Here, not at the top: the clubs' services need nothing else of the evenings app.
    from evenings.models import Evening

    if sat and not player.seats.filter(evening__in=Evening.objects.listed()).exists():
        # Only at evenings closed with nothing that counts: the seat stays with the
        # evening's record, even one started by mistake.
        return _(
            "Löschen geht nicht: %(name)s saß an einem Abend ohne Spiel, und auch der bleibt "
            "aufgezeichnet. Nicht mehr gebraucht? Dann „aktiv“ abwählen, und der Name steht "
            "in keiner Auswahl mehr."
        ) % {"name": player.name}
    if sat and not player.seats.filter(evening__runde__kind=Runde.Kind.MONEY).exists():
        # Only at a tournament's tables: points, nothing to pay (walk 40).
        return _(
            "Löschen geht nicht: %(name)s saß schon am Tisch, und die Punkte bleiben. "
            "Doppelt angelegt? Dann umbenennen (etwa „%(name)s (doppelt)“) und „aktiv“ "
            "abwählen."
        ) % {"name": player.name}
    if sat:
        return _(
            "Löschen geht nicht: %(name)s saß schon am Tisch, und die Spiele bleiben. "
            "Doppelt angelegt? Dann umbenennen (etwa „%(name)s (doppelt)“) und „aktiv“ "
            "abwählen; was zwischen den beiden offen ist, gleicht eine Zahlung in der "
            "Abrechnung aus."
        ) % {"name": player.name}
    if _in_a_seating(player):
        # Seated and taken off again before the first game: the evening's record of its
        # seating names them (walk 79: deleted, it read "Sepp, Resi, ?, ?").
        return _(
            "Löschen geht nicht: %(name)s steht in der aufgezeichneten Sitzordnung eines "
            "Abends, und die bleibt. Nicht mehr gebraucht? Dann „aktiv“ abwählen, und der "
            "Name steht in keiner Auswahl mehr."
        ) % {"name": player.name}
    if player.invitations.exists():
        return _(
            "Für %(name)s gibt es einen Einladungslink: erst ihn widerrufen (unter "
            "„Mitglieder“), dann lässt sich der Name löschen."
        ) % {"name": player.name}
    return ""


def _in_a_seating(player: Player) -> bool:
    """Whether a seating an evening recorded (Change.Kind.SEATS, before or after) names
    the player."""
    from evenings.models import Change

    return (
        Change.objects.filter(kind=Change.Kind.SEATS, evening__runde__club_id=player.club_id)
        .filter(Q(before__players__contains=[player.pk]) | Q(after__players__contains=[player.pk]))
        .exists()
    )


def delete_if_unused(player: Player) -> bool:
    """Delete the player if `is_unused` (and nothing else names them: the database
    refuses then). Whether they were deleted."""
    if not is_unused(player):
        return False
    try:
        with transaction.atomic():
            player.delete()
    except ProtectedError:
        return False
    return True
