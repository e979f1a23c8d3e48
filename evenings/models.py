"""Evenings of a Runde: who sits where, the games in order, every change, and the ledger.

The ledger is append-only, in integer cents: one entry per player per game, payments as
entries too. A correction never edits a row; it adds entries that reverse the old amounts
and book the new ones, linked to the Change that caused them. The database refuses UPDATE
and DELETE on ledger rows and any set of a change's entries for one game (or payment)
that does not sum to zero (migration 0002).
"""

import secrets

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.core.exceptions import ObjectDoesNotExist
from django.db import models
from django.db.models import Q, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from clubs.models import Player, Runde, Tariff
from scoring import Game as EngineGame
from scoring import GameType, Suit


def _share_token() -> str:
    return secrets.token_urlsafe(18)


class EveningQuerySet(models.QuerySet):
    def open(self):
        return self.filter(status=Evening.Status.OPEN)

    def listed(self):
        """The evenings lists, statistics and accounts go by: all but those closed with
        nothing that counts (Evening.Status.EMPTY), which change no balance."""
        return self.exclude(status=Evening.Status.EMPTY)

    def playing(self):
        """Open evenings at which games are played: not an Ausgleich, nor an evening
        opened again for corrections (after it went on at a new table, or after the Runde
        began another: Evening.corrections_only)."""
        went_on = Evening.objects.filter(continues=models.OuterRef("pk"))
        return (
            self.open()
            .filter(settles_runde=False, corrections_only=False)
            .exclude(models.Exists(went_on))
        )

    def playing_for_money(self):
        """The playing money evenings, where a player seated is booked for (walk 81: a
        tournament's table, played out, named "der laufende Abend der Runde „Winterpokal“")."""
        return self.playing().filter(runde__kind=Runde.Kind.MONEY)

    def with_counted_games(self):
        """Each evening with `counted_games` (Evening.counted_games) read with it: how
        many of its games count, struck or taken-back ones not."""
        counted = (
            Game.objects.booked()
            .filter(evening=models.OuterRef("pk"))
            .values("evening")
            .annotate(n=models.Count("pk"))
            .values("n")
        )
        return self.annotate(counted_games=Coalesce(models.Subquery(counted), 0))


class Evening(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("läuft")
        CLOSED = "closed", _("abgeschlossen")
        # Closed with nothing that counts: no game (all struck or taken back, or none
        # booked) and no payment. Started by mistake, say, or left behind when the table
        # went on anew: the Runde's list and the players' pages leave it out
        # (services.close_evening). Opened again, it is an evening like any other.
        EMPTY = "empty", _("ohne Spiel abgeschlossen")

    runde = models.ForeignKey(Runde, on_delete=models.PROTECT, related_name="evenings")
    # The tariff version in force when the evening started; later changes don't touch it.
    tariff = models.ForeignKey(Tariff, on_delete=models.PROTECT, related_name="evenings")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    started_at = models.DateTimeField(default=timezone.now)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    # Seat of the first dealer (index into the seats, in seating order).
    first_dealer = models.PositiveSmallIntegerField(default=0)
    # Read-only link for the table; None once revoked. Works only while the evening is open.
    share_token = models.CharField(
        max_length=40, unique=True, null=True, blank=True, default=_share_token
    )
    # Bumped by every change; the sheet's polling compares it to answer "not modified".
    version = models.PositiveIntegerField(default=0)
    # The number of the last game booked (struck and taken back ones included): the next
    # game gets the next number without counting the games.
    last_number = models.PositiveIntegerField(default=0)
    # A tournament table's evening: what it is called beside the Runde ("Runde 1 · Tisch
    # 3"), how many games it plays at most, and who besides the club's Schreiber books.
    label = models.CharField(max_length=80, blank=True)
    game_limit = models.PositiveSmallIntegerField(null=True, blank=True)
    scorekeeper = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # The start form's key: a second submission of one form (a double tap, a retried
    # request) finds the evening the first one started instead of starting another.
    key = models.UUIDField(unique=True, null=True, blank=True, editable=False)
    # An "Ausgleich der Runde": no seats and no games, only payments, which settle what
    # the Runde's evenings before it left open (services.start_ausgleich). It is made
    # closed and stays so; what was open at those evenings is settled here, not there.
    settles_runde = models.BooleanField(default=False, editable=False)
    # The evening this one went on from at a new table, when someone joined or left after
    # games were booked there (services.continue_at_new_table); that one links on to it.
    continues = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, editable=False, related_name="+"
    )
    # Going on from `continues`, its Bockrunde goes on here (services.carried_in). False
    # for the tables begun before the Bockrunde went on to a new table: they were scored
    # without, and stay so.
    carries_bock = models.BooleanField(default=False, editable=False)
    # Opened again after the Runde had begun another evening (services.reopen_evening):
    # it takes corrections only, as one that went on at a new table does; new games
    # belong to the evening the table plays now (walk 32).
    corrections_only = models.BooleanField(default=False, editable=False)
    # Not a column: the evening's state (evenings.reads.State: status, version, last
    # games) as evening_of(state=...) or a booking last read it; None if not read.
    state = None

    objects = EveningQuerySet.as_manager()

    class Meta:
        ordering = ["-started_at"]
        indexes = [
            # the Runde page: evenings of a Runde, newest first
            models.Index(fields=["runde", "-started_at"], name="evening_runde_started"),
        ]

    def __str__(self) -> str:
        return f"{self.runde} {timezone.localtime(self.started_at):%d.%m.%Y}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def status_label(self) -> str:
        """ "offen", "abgeschlossen": get_status_display() without its dict of every choice,
        translated to be hashed, on every call (a Runde's page lists twenty evenings)."""
        return str(self.Status(self.status).label)

    @property
    def is_table(self) -> bool:
        """A tournament's table (with its round's number of games), not a money evening."""
        return self.game_limit is not None

    @cached_property
    def counted_games(self) -> int:
        """How many of its games count (struck ones not): a tournament table's counter."""
        return self.games.booked().count()

    @property
    def not_counted(self) -> int:
        """How many of its games numbered so far were struck or taken back: a tournament
        table's next game is numbered beyond its counter by as many."""
        return self.last_number - self.counted_games

    @property
    def all_played(self) -> bool:
        """Whether a tournament table has played its round's games: no entry form."""
        return self.is_table and self.counted_games >= self.game_limit

    @cached_property
    def play_over(self) -> bool:
        """An evening that takes no new game. A tournament table: it played its round's
        games, or the director ended it early, or a later round has started (its players
        sit at other tables now). A money evening: it went on at a new table (its Bock
        going on there), or was opened again after the Runde began another evening
        (corrections_only). Opened again, such an evening takes corrections only."""
        return self.all_played or self.closed_for_play

    @cached_property
    def closed_for_play(self) -> bool:
        """Play is over here for good, whatever is taken back: a tournament table the
        director ended early, or whose round a later one followed, or of a tournament
        finished once (opened again for a correction); a money evening that
        went on at a new table, or was opened again for corrections only. Taking back
        its last game ("Letztes Spiel zurücknehmen") would lose it: no game is booked here
        again."""
        if not self.is_table:
            if self.state is not None:  # read with the state (a booking's read)
                return self.state.went_on
            return self.corrections_only or Evening.objects.filter(continues=self).exists()
        try:
            table = self.table  # type: ignore[attr-defined]  # tournaments.Table's one-to-one
        except ObjectDoesNotExist:  # a table evening outside a tournament (tests)
            return False
        if table.ended_early_at is not None:
            return True
        # A tournament finished once and opened again takes corrections only: a last
        # round's table taking back its last game would take new ones (walk 53).
        return table.round.gone_by() or table.round.tournament.finished_at is not None

    @property
    def retariffed(self) -> bool:
        """Whether it took the Runde's newer tariff after it began (apply_tariff): every
        game scored anew with it. A new evening begins with the tariff of the moment."""
        return self.tariff.valid_from > self.started_at

    @property
    def entry_kind(self) -> str:
        """The kind of ledger entry its games make: cents, or a tournament's points."""
        return LedgerEntry.Kind.POINTS if self.tariff.is_prohof else LedgerEntry.Kind.GAME


class Seat(models.Model):
    """A player present at the evening, in seating order (position 0..n-1, n = 4, 5 or 6)."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["evening", "player"], name="seat_player_unique"),
            models.CheckConstraint(condition=Q(position__lt=6), name="seat_position_range"),
        ]

    def __str__(self) -> str:
        return f"{self.position + 1}: {self.player}"


class GameQuerySet(models.QuerySet):
    def of_evening(self, evening):
        return self.filter(evening=evening)

    def booked(self):
        return self.filter(voided_at__isnull=True)

    def with_taken_back(self):
        """Each game with `taken_back_kind`: how it was last taken out of the count,
        Change.Kind.VOID (struck) or UNDO (taken back); None if it never was."""
        last = (
            Change.objects.filter(
                game=models.OuterRef("pk"), kind__in=[Change.Kind.VOID, Change.Kind.UNDO]
            )
            .order_by("-pk")
            .values("kind")[:1]
        )
        return self.annotate(taken_back_kind=models.Subquery(last))

    def with_corrected(self):
        """Each game with `corrected`: whether it was ever corrected (its sheet row and
        the player's history say so; the evening's history says how)."""
        corrections = Change.objects.filter(game=models.OuterRef("pk"), kind=Change.Kind.CORRECT)
        return self.annotate(corrected=models.Exists(corrections))


class Game(models.Model):
    """One game as the table decided it, in the scoring contract's terms.

    Players are stored by Player id; `number` is the order of booking within the evening.
    A voided game stays (with who voided it and when) but no longer counts.
    """

    class Type(models.TextChoices):
        SAUSPIEL = GameType.SAUSPIEL.value, _("Sauspiel")
        FARBSOLO = GameType.FARBSOLO.value, _("Farbsolo")
        WENZ = GameType.WENZ.value, _("Wenz")
        RAMSCH = GameType.RAMSCH.value, _("Ramsch")
        # ProHof tournaments (seed 000)
        RUFSPIEL = GameType.RUFSPIEL.value, _("Rufspiel")
        SOLO = GameType.SOLO.value, _("Solo")
        UEBERKREUZ = GameType.UEBERKREUZ.value, _("Über Kreuz")

    class SuitChoice(models.TextChoices):
        EICHEL = Suit.EICHEL.value, _("Eichel")
        GRAS = Suit.GRAS.value, _("Gras")
        HERZ = Suit.HERZ.value, _("Herz")
        SCHELLEN = Suit.SCHELLEN.value, _("Schellen")

    evening = models.ForeignKey(Evening, on_delete=models.PROTECT, related_name="games")
    number = models.PositiveIntegerField()
    # Made when the entry form is shown: a retried or double-tapped booking books once.
    key = models.UUIDField()
    dealer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    # The four Player ids at the table, in seating order (the others of the evening sit out).
    seating = ArrayField(models.BigIntegerField(), size=4)

    type = models.CharField(max_length=10, choices=Type.choices)
    declarer = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    partner = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    suit = models.CharField(max_length=10, choices=SuitChoice.choices, blank=True)
    won = models.BooleanField(default=False)
    laufende = models.PositiveSmallIntegerField(default=0)
    schneider = models.BooleanField(default=False)
    schwarz = models.BooleanField(default=False)
    tout = models.BooleanField(default=False)
    angesagt = models.BooleanField(default=False)  # ProHof: Schneider angesagt
    kontra = models.PositiveSmallIntegerField(default=0)
    doubled = models.PositiveSmallIntegerField(default=0)
    loser = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    jungfrauen = ArrayField(models.BigIntegerField(), size=3, default=list, blank=True)

    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    voided_at = models.DateTimeField(null=True, blank=True)
    # Whether the engine scored it as a Bock game (kept by services as the evening is
    # rescored; verify_ledger checks it): statistics count Bock games without rescoring
    # years of evenings.
    bock = models.BooleanField(default=False)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "number"], name="game_number_unique"),
            # A booking key books once, across all evenings (services.book_game).
            models.UniqueConstraint(fields=["key"], name="game_key_unique"),
            models.CheckConstraint(condition=Q(kontra__lte=2), name="game_kontra_range"),
            models.CheckConstraint(condition=Q(doubled__lte=4), name="game_doubled_range"),
            models.CheckConstraint(condition=Q(laufende__lte=14), name="game_laufende_range"),
            models.CheckConstraint(
                condition=Q(seating__len=4), name="game_four_players_at_the_table"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.get_type_display()}"

    @property
    def is_booked(self) -> bool:
        return self.voided_at is None

    def for_engine(self) -> EngineGame:
        """The engine's view of this game; players are named by their Player id."""
        return EngineGame(
            type=GameType(self.type),
            players=tuple(str(p) for p in self.seating),
            declarer=_name(self.declarer_id),
            partner=_name(self.partner_id),
            suit=Suit(self.suit) if self.suit else None,
            won=self.won,
            laufende=self.laufende,
            schneider=self.schneider,
            schwarz=self.schwarz,
            tout=self.tout,
            angesagt=self.angesagt,
            kontra=self.kontra,
            doubled=self.doubled,
            loser=_name(self.loser_id),
            jungfrauen=tuple(str(p) for p in self.jungfrauen),
        )


class Change(models.Model):
    """Who did what to an evening, when, and what it was before and after.

    A game's changes tell what it was at any moment: booked as `after`, corrected from
    `before` to `after`, voided or undone (`before`: what it was), restored (`after`).
    """

    class Kind(models.TextChoices):
        START = "start", _("Abend begonnen")
        BOOK = "book", _("Spiel gebucht")
        CORRECT = "correct", _("Spiel korrigiert")
        VOID = "void", _("Spiel gestrichen")
        UNDO = "undo", _("Letztes Spiel zurückgenommen")
        RESTORE = "restore", _("Spiel wiederhergestellt")
        PAYMENT = "payment", _("Zahlung eingetragen")
        CLOSE = "close", _("Abend abgeschlossen")
        REOPEN = "reopen", _("Abend wieder geöffnet")
        SHARE = "share", _("Zuschauer-Link erneuert")
        SCORER = "scorer", _("Schreiber am Turniertisch gewechselt")
        SEATS = "seats", _("Sitzordnung geändert")
        RENAME = "rename", _("Spieler umbenannt")
        # The evening plays the Runde's newer tariff from its first game (services.
        # apply_tariff): `before` and `after` name the versions.
        TARIFF = "tariff", _("Neuer Tarif für den Abend")
        # A correction at the table the evening went on from moved the Bock of this
        # table's first games (services._carry_on): `before` names that change.
        BOCK = "bock", _("Bock neu gezählt")

    # True on the payment record_payment answers when its form's key had booked it before
    # (the form sent again): nothing new was booked. Not a column.
    replayed = False

    evening = models.ForeignKey(Evening, on_delete=models.PROTECT, related_name="changes")
    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, null=True, blank=True, related_name="changes"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(default=timezone.now)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    # The evening's version this change made (Evening.version after it): a phone that has
    # seen version v is sent only what changes after v touched. None: made no new version.
    version = models.PositiveIntegerField(null=True, blank=True)
    # The hash chain of the evening's changes (migration 0009): a SHA-256 over this
    # change's content and the previous change's digest, set by the database on insert.
    # Changes are append-only; an edit made past that shows in verify_ledger.
    digest = models.CharField(max_length=64, default="", editable=False)

    class Meta:
        ordering = ["at", "pk"]
        indexes = [
            # the sheet's poll: changes of an evening since a version
            models.Index(fields=["evening", "version"], name="change_evening_version"),
            # the hash chain's trigger: the evening's last change, whatever its length
            models.Index(fields=["evening", "id"], name="change_evening_id"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.at:%Y-%m-%d %H:%M})"


class LedgerQuerySet(models.QuerySet):
    def balances(self):
        """{player_id: cents} summed over these entries."""
        return dict(
            self.values_list("player_id")
            .annotate(total=Sum("amount"))
            .values_list("player_id", "total")
        )


class LedgerEntry(models.Model):
    """One amount for one player, in cents. Append-only (the database enforces it)."""

    class Kind(models.TextChoices):
        GAME = "game", _("Spiel")
        PAYMENT = "payment", _("Zahlung")
        # A ProHof tournament game's points: only credited, so not zero-sum.
        POINTS = "points", _("Punkte")

    evening = models.ForeignKey(Evening, on_delete=models.PROTECT, related_name="ledger")
    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, null=True, blank=True, related_name="ledger"
    )
    change = models.ForeignKey(Change, on_delete=models.PROTECT, related_name="ledger")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="ledger")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    amount = models.BigIntegerField()
    created_at = models.DateTimeField(default=timezone.now)

    objects = LedgerQuerySet.as_manager()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=["game", "points"], game__isnull=False)
                | Q(kind="payment", game__isnull=True),
                name="ledger_kind_matches_game",
            ),
        ]
        indexes = [
            # balances per evening and per player of an evening
            models.Index(fields=["evening", "player"], name="ledger_evening_player"),
            # balances of a player over all evenings of a Runde
            models.Index(fields=["player"], name="ledger_player"),
            # the zero-sum trigger: entries of one change for one game
            models.Index(fields=["change", "game"], name="ledger_change_game"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.amount} ct ({self.kind})"


class EveningTotal(models.Model):
    """A player's sum of the evening's ledger entries of one kind, kept by the database.

    A trigger adds every inserted ledger entry to its row (migration 0006), so standings
    and balances read a handful of rows instead of summing the ledger, however long the
    evening or the Runde's history. Nothing else writes here; verify_ledger checks it.
    """

    evening = models.ForeignKey(Evening, on_delete=models.PROTECT, related_name="totals")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=8, choices=LedgerEntry.Kind.choices)
    amount = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["evening", "player", "kind"], name="eveningtotal_one_per_kind"
            ),
        ]
        indexes = [
            # a player's balance over the evenings of a Runde
            models.Index(fields=["player", "kind"], name="eveningtotal_player_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.amount} ct ({self.kind}) at {self.evening_id}"


def _name(player_id: int | None) -> str | None:
    return None if player_id is None else str(player_id)
