"""Clubs, their Runden, players, members with roles, invitations and tariffs.

A club admin manages everything here in the browser; Django's admin site is for the
operator only. Tariffs are append-only: a change is a new row valid from the next
evening on, so an evening keeps the tariff it was played with.
"""

import secrets
import unicodedata
from collections.abc import Iterable
from datetime import timedelta

from django.conf import settings
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models
from django.db.models import Q, Value
from django.db.models.functions import Lower, Replace
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from scoring import BockMode, ProHofRules, TariffRules, format_cents

# Names in German alphabetical order (DIN 5007-1): "Ägidius" beside "Agnes", "Ödön"
# before "Zenzi", lower and upper case alike. The database's own order (collation C) puts
# umlauts after "Z" and "anna" after "Zenzi", and the embedded PostgreSQL has neither ICU
# nor a German locale to collate with. So names are sorted by a key: in the database by
# german_order (a plain expression any PostgreSQL has), in Python by german_key; the two
# agree on the Latin letters that names are written with.
_ACCENTED = "ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖòóôõöÙÚÛÜùúûüÝýÿ"
_PLAIN = "AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOoooooUUUUuuuuYyy"


# The joiners that emoji and some scripts are written with; every other invisible format
# character (Unicode's Cf) goes.
_JOINERS = {"\N{ZERO WIDTH JOINER}", "\N{ZERO WIDTH NON-JOINER}"}


def one_line(text: str) -> str:
    """A name on one line with single spaces: a line break, a tab or a double space typed
    into it would make a name that looks like another's, and a cell of two lines in the
    CSV. Without invisible format characters either, which a name copied from a chat can
    carry: a zero-width space makes a second "Hias", and a right-to-left override turns
    the line it stands in backwards ("Ab€ 04,0 relleuM tlhaz"). Composed (NFC): an "ë"
    typed as "e" and a combining diaeresis is the "ë" a phone's keyboard types, and the
    same name (walk 47: a second "Zoë" Runde, a "Zoë" not found at the table)."""
    shown = "".join(c for c in text if c in _JOINERS or unicodedata.category(c) != "Cf")
    return unicodedata.normalize("NFC", " ".join(shown.split()))


def german_key(name: str) -> str:
    """A sort key for names in German alphabetical order (ä as a, ß as ss, any case)."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def reads_alike(players: Iterable["Player"], name: str) -> "Player | None":
    """The one of `players` whose name reads as `name` on a chip at the table: the same
    letters in any case, with or without accents ("Weiss" and "Weiß", "Rene" and "René"),
    or with an umlaut written out ("Oetzi" and "Ötzi"), or a digit for the letter it looks
    like ("Wast1" and "Wastl", walk 64). Spaces and punctuation do not
    count either ("Hias." and "Hias", "Hans-Peter" and "Hanspeter"). The same name in
    another case comes first, as the unique constraint sees it."""
    keys = _letters(name)
    alike = [player for player in players if _letters(player.name) & keys]
    return next((p for p in alike if p.name.lower() == name.lower()), None) or next(
        iter(alike), None
    )


def near_name(players: Iterable["Player"], name: str) -> "Player | None":
    """The first of `players` whose name is one slip of the thumb from `name`: one letter
    changed, added, left out, or two swapped ("Karl" and "Carl", "Sepi" and "Sepp",
    "Hais" and "Hias"), in names of four letters or more; of three, a letter left out or
    added ("Crl" and "Carl", walk 71), not changed ("Max" and "Mox"). Not an error, as
    both names may be meant: a question (walk 70: "Karl" joined beside the club's "Carl"
    unasked)."""
    typed = _letters(name)
    for player in players:
        if any(_one_slip(a, b) for a in typed for b in _letters(player.name)):
            return player
    return None


def _one_slip(a: str, b: str) -> bool:
    if a == b or min(len(a), len(b)) < 3 or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        if len(a) < 4:
            return False
        differ = [i for i in range(len(a)) if a[i] != b[i]]
        return len(differ) == 1 or (
            len(differ) == 2
            and differ[1] == differ[0] + 1
            and (a[differ[0]], a[differ[1]]) == (b[differ[1]], b[differ[0]])
        )
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _letters(name: str) -> set[str]:
    """The letters of `name` with its accents dropped, and with its umlauts written out."""
    return {
        "".join(char for char in german_key(spelling) if char.isalnum())
        for spelling in (name, name.translate(_GERMAN_LETTERS), name.translate(_DIGIT_LOOKS))
    }


# slugify drops what has no ASCII letter in it ("ß") and strips the dots off umlauts; a
# German name keeps its letters as Germans write them without umlauts.
_GERMAN_LETTERS = str.maketrans(
    {"ß": "ss", "ẞ": "SS", "ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"}
)
# A digit typed for the letter it looks like on a chip.
_DIGIT_LOOKS = str.maketrans({"1": "l", "0": "o"})


def german_slug(name: str) -> str:
    """A file name for `name`: "Höchstädter Turnier" -> "hoechstaedter-turnier"."""
    return slugify(name.translate(_GERMAN_LETTERS))


def german_order(field: str) -> models.Func:
    """The database's german_key of `field`, for order_by() and Meta.ordering."""
    sharp_s = Replace(Replace(models.F(field), Value("ß"), Value("ss")), Value("ẞ"), Value("SS"))
    plain = models.Func(
        sharp_s,
        Value(_ACCENTED),
        Value(_PLAIN),
        function="TRANSLATE",
        output_field=models.CharField(),
    )
    return Lower(plain)


class Club(models.Model):
    name = models.CharField(_("Name"), max_length=80)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("Verein")
        verbose_name_plural = _("Vereine")

    def __str__(self) -> str:
        return self.name


class MembershipQuerySet(models.QuerySet):
    def admins(self):
        return self.filter(role=Membership.Role.ADMIN)


class Membership(models.Model):
    """A user's place in a club: exactly one role per club."""

    class Role(models.TextChoices):
        ADMIN = "admin", _("Admin")
        SCOREKEEPER = "schreiber", _("Schreiber")
        PLAYER = "spieler", _("Spieler")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("Rolle"), max_length=12, choices=Role.choices)
    joined_at = models.DateTimeField(auto_now_add=True)

    objects = MembershipQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "club"], name="membership_one_per_club"),
            models.CheckConstraint(
                condition=Q(role__in=["admin", "schreiber", "spieler"]),
                name="membership_role_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.get_role_display()})"

    @property
    def is_admin(self) -> bool:
        return self.role == self.Role.ADMIN

    @property
    def can_score(self) -> bool:
        """Admins and scorekeepers book games and run evenings."""
        return self.role in {self.Role.ADMIN, self.Role.SCOREKEEPER}


class PlayerQuerySet(models.QuerySet):
    def with_departures(self):
        """Each player with `has_left`: a member who left the club, was removed or
        deleted their account played as them (`Player.gone` once nobody has them)."""
        return self.annotate(
            has_left=models.Exists(Departure.objects.filter(player=models.OuterRef("pk")))
        )


class Player(models.Model):
    """A person who plays in the club. Needs no login; can be linked to one later."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("Anzeigename"), max_length=40)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
    )
    active = models.BooleanField(_("aktiv"), default=True)
    # Entered at the door of a tournament; plays the club's tournaments, not its Runden.
    guest = models.BooleanField(_("Gast"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = [german_order("name"), "pk"]
        constraints = [
            models.UniqueConstraint(
                "club", models.functions.Lower("name"), name="player_name_unique_in_club"
            ),
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=Q(user__isnull=False),
                name="player_one_per_user_in_club",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def gone(self) -> bool:
        """Whether the member who played as them left the club, was removed or deleted
        their account, and nobody has them since (read with_departures)."""
        return self.user_id is None and getattr(self, "has_left", False)


class RundeQuerySet(models.QuerySet):
    def money(self):
        """The club's Runden that play for money (its regular table groups)."""
        return self.filter(kind=Runde.Kind.MONEY)


class Runde(models.Model):
    """A regular table group of a club, with its own tariff and its own balances.

    A ProHof tournament keeps its tables' evenings in a Runde of its own (kind ProHof),
    which the club's money pages do not list.
    """

    class Kind(models.TextChoices):
        MONEY = "geld", _("Geld")
        PROHOF = "prohof", _("ProHof-Turnier")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="runden")
    name = models.CharField(_("Name"), max_length=80)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.MONEY)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = RundeQuerySet.as_manager()

    class Meta:
        verbose_name = _("Runde")
        verbose_name_plural = _("Runden")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                "club", models.functions.Lower("name"), name="runde_name_unique_in_club"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @cached_property
    def tariff(self) -> "Tariff":
        """The tariff in force now: the newest version."""
        return self.tariffs.latest()


class TariffQuerySet(models.QuerySet):
    def valid_at(self, moment):
        """The version in force at `moment`: the newest one made before it."""
        return self.filter(valid_from__lte=moment).order_by("-valid_from", "-pk").first()


class Tariff(models.Model):
    """One version of a Runde's money tariff (seed 001 and the scoring contract).

    Every amount is integer cents. Versions are never edited: a change adds a version,
    valid from the next evening on; an evening records the version it was played with.
    """

    class Bock(models.TextChoices):
        OFF = BockMode.OFF.value, _("ohne Bock")
        RAMSCH = BockMode.RAMSCH.value, _("nach jedem Ramsch")
        RAMSCH_OR_LOST_SOLO = (
            BockMode.RAMSCH_OR_LOST_SOLO.value,
            _("nach Ramsch und verlorenem Solo"),
        )

    class System(models.TextChoices):
        TARIFF = "tarif", _("Geldtarif (Seed 001)")
        PROHOF = "prohof", _("ProHof-Punkte (Seed 000)")

    class SettleUnit(models.IntegerChoices):
        CENT = 1, _("auf den Cent")
        TEN = 10, _("auf 10 Cent")
        FIFTY = 50, _("auf 50 Cent")
        EURO = 100, _("auf 1 Euro")

    runde = models.ForeignKey(Runde, on_delete=models.CASCADE, related_name="tariffs")
    valid_from = models.DateTimeField(_("gültig ab"), default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    # ProHof tournaments score fixed points (scoring.ProHofRules); the money fields below
    # then do not apply.
    system = models.CharField(max_length=8, choices=System.choices, default=System.TARIFF)
    sauspiel = models.PositiveIntegerField(_("Sauspiel"), default=10)
    farbsolo = models.PositiveIntegerField(_("Farbsolo"), default=50)
    wenz = models.PositiveIntegerField(_("Wenz"), default=50)
    ramsch = models.PositiveIntegerField(_("Ramsch"), default=10)
    laufende = models.PositiveIntegerField(_("je Laufendem"), default=10)
    laufende_min = models.PositiveSmallIntegerField(_("Laufende ab"), default=3)
    laufende_max = models.PositiveSmallIntegerField(_("Laufende höchstens"), default=8)
    laufende_min_wenz = models.PositiveSmallIntegerField(_("Laufende beim Wenz ab"), default=3)
    schneider = models.PositiveIntegerField(_("Schneider"), default=10)
    schwarz = models.PositiveIntegerField(_("Schwarz"), default=10)
    bock = models.CharField(_("Bockrunde"), max_length=24, choices=Bock.choices, default=Bock.OFF)
    jungfrau = models.BooleanField(_("Jungfrau"), default=False)
    settle_unit = models.PositiveSmallIntegerField(
        _("Abrunden beim Ausgleich"), choices=SettleUnit.choices, default=SettleUnit.CENT
    )

    objects = TariffQuerySet.as_manager()

    class Meta:
        get_latest_by = ["valid_from", "pk"]
        ordering = ["-valid_from", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(laufende_min__gte=1)
                & Q(laufende_min__lte=models.F("laufende_max"))
                & Q(laufende_max__lte=14),
                name="tariff_laufende_range",
            ),
            models.CheckConstraint(
                condition=Q(laufende_min_wenz__gte=1) & Q(laufende_min_wenz__lte=4),
                name="tariff_laufende_min_wenz_range",
            ),
            models.CheckConstraint(
                condition=Q(settle_unit__in=[1, 10, 50, 100]), name="tariff_settle_unit_known"
            ),
            models.CheckConstraint(
                condition=Q(bock__in=[mode.value for mode in BockMode]), name="tariff_bock_known"
            ),
        ]
        indexes = [
            # Tariff.objects.filter(runde=r).valid_at(moment) and Runde.tariff
            models.Index(fields=["runde", "-valid_from"], name="tariff_runde_valid_from"),
        ]

    RULE_FIELDS = (
        "sauspiel",
        "farbsolo",
        "wenz",
        "ramsch",
        "laufende",
        "laufende_min",
        "laufende_max",
        "laufende_min_wenz",
        "schneider",
        "schwarz",
        "bock",
        "jungfrau",
    )

    def __str__(self) -> str:
        return f"{self.runde} ab {self.valid_from:%d.%m.%Y %H:%M}"

    @property
    def rules(self) -> TariffRules | ProHofRules:
        """The engine's view of this tariff."""
        if self.system == self.System.PROHOF:
            return ProHofRules()
        values = {name: getattr(self, name) for name in self.RULE_FIELDS}
        values["bock"] = BockMode(values["bock"])
        return TariffRules(**values)

    @property
    def plays_bock(self) -> bool:
        return self.bock != self.Bock.OFF

    @property
    def is_prohof(self) -> bool:
        """Tournament points (seed 000) instead of money: only credited, never paid."""
        return self.system == self.System.PROHOF

    def same_rules_as(self, other: "Tariff") -> bool:
        return not self.changed_from(other)

    # The rule fields that are amounts in cents (the others are counts, choices, yes/no).
    CENT_FIELDS = frozenset(RULE_FIELDS) - {
        "laufende_min",
        "laufende_max",
        "laufende_min_wenz",
        "bock",
        "jungfrau",
    }

    def changed_from(self, older: "Tariff") -> list[tuple[str, str, str]]:
        """What this version changed from `older`, as the Tarifverlauf says it: (the
        field's name, its value before, its value now)."""
        return [
            (str(self._meta.get_field(name).verbose_name), older._said(name), self._said(name))
            for name in (*self.RULE_FIELDS, "settle_unit")
            if getattr(self, name) != getattr(older, name)
        ]

    def _said(self, name: str) -> str:
        value = getattr(self, name)
        if name in self.CENT_FIELDS:
            return format_cents(value)
        if name == "jungfrau":
            return str(_("ja") if value else _("nein"))
        if name in ("bock", "settle_unit"):
            return str(getattr(self, f"get_{name}_display")())
        return str(value)


def _invitation_token() -> str:
    return secrets.token_urlsafe(24)


def _in_two_weeks():
    return timezone.now() + timedelta(days=14)


class InvitationQuerySet(models.QuerySet):
    def usable(self):
        """Neither revoked nor expired, of a club that has members (services'
        invitation_refusal: a club whose last member left takes nobody in)."""
        members = Membership.objects.filter(club=models.OuterRef("club"))
        return self.filter(
            models.Exists(members), revoked_at__isnull=True, expires_at__gt=timezone.now()
        )


class Invitation(models.Model):
    """A link that lets whoever opens it join a club in one role, until it expires or is
    revoked. One link can be shared with a whole group chat."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(_("Rolle"), max_length=12, choices=Membership.Role.choices)
    token = models.CharField(max_length=64, unique=True, default=_invitation_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("gültig bis"), default=_in_two_weeks)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # An invitation for one existing player: whoever joins with it becomes that player
    # (their history included) instead of a new one. None: a link for anyone.
    player = models.ForeignKey(
        "Player",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="invitations",
        verbose_name=_("für Spieler"),
    )

    objects = InvitationQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.club}: {self.get_role_display()}"

    @property
    def is_usable(self) -> bool:
        return self.revoked_at is None and self.expires_at > timezone.now()


class Departure(models.Model):
    """A member who left the club or whose access an admin removed: when, in which role,
    as which player, by whom. Their start page tells them and what is still theirs there;
    a link for anyone brings them back as that player, not as a second one."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="departures")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="departures"
    )
    role = models.CharField(_("Rolle"), max_length=12, choices=Membership.Role.choices)
    # None: a member who did not play (or whose player is gone with the club).
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="departures"
    )
    at = models.DateTimeField(default=timezone.now)
    # Who removed the access: the member themself when they left; None once that login
    # is gone.
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["user", "club"], name="departure_user_club")]

    def __str__(self) -> str:
        return f"{self.user} left {self.club} at {self.at:%Y-%m-%d %H:%M}"

    @property
    def left_themself(self) -> bool:
        return self.by_id == self.user_id


class RoleChange(models.Model):
    """A member given another role by an admin: from which to which, when, by whom. The
    members page lists them, so a club can tell who made whom an admin."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="role_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # Their player then: named by it once the login is deleted (as a Departure is).
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    before = models.CharField(max_length=12, choices=Membership.Role.choices)
    after = models.CharField(max_length=12, choices=Membership.Role.choices)
    at = models.DateTimeField(default=timezone.now)
    # None once that login is gone.
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.user} in {self.club}: {self.before} to {self.after}"

    @property
    def before_label(self) -> str:
        return str(Membership.Role(self.before).label)

    @property
    def after_label(self) -> str:
        return str(Membership.Role(self.after).label)


class ResetRequest(models.Model):
    """A password reset asked for, kept for throttling per address and per client
    (clubs.throttle)."""

    email = models.CharField(max_length=254)
    address = models.GenericIPAddressField(null=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            # throttle: resets asked for this email since a moment
            models.Index(fields=["email", "at"], name="resetrequest_email_at"),
            # throttle: resets asked from this client address since a moment
            models.Index(fields=["address", "at"], name="resetrequest_address_at"),
        ]

    def __str__(self) -> str:
        return f"{self.email} from {self.address} at {self.at:%Y-%m-%d %H:%M}"


class LoginFailure(models.Model):
    """A failed login, kept for throttling per account and per address (clubs.throttle)."""

    username = models.CharField(max_length=150)
    address = models.GenericIPAddressField(null=True)
    at = models.DateTimeField(default=timezone.now)
    # From a browser that had logged in to the account before (clubs.throttle).
    known_device = models.BooleanField(default=False)

    class Meta:
        indexes = [
            # throttle: failures for this username since a moment
            models.Index(fields=["username", "at"], name="loginfailure_username_at"),
            # throttle: failures from this address since a moment
            models.Index(fields=["address", "at"], name="loginfailure_address_at"),
        ]

    def __str__(self) -> str:
        return f"{self.username} from {self.address} at {self.at:%Y-%m-%d %H:%M}"


class Session(AbstractBaseSession):
    """Django's database session with its user's id beside the data, so that one query
    reads the session and the user's row together (clubs.sessions, clubs.middleware).

    The signed session data stays the authority on who is logged in: the column only lets
    that query join the user, and a user is taken from the join only when the data names
    the same user.
    """

    # Written from the data on every save. No foreign key in the database: a login racing
    # the deletion of its user would otherwise fail its INSERT at commit, and Django's
    # SessionStore.create() retries a failed INSERT forever. Deleting a user through the
    # ORM still deletes their sessions (on_delete); a row left behind by any other way
    # joins no user and is judged by Django's own get_user.
    # The index serves that cascade: the sessions of the users being deleted.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        db_constraint=False,
        db_index=True,
    )

    @classmethod
    def get_session_store_class(cls):
        from clubs.sessions import SessionStore

        return SessionStore
