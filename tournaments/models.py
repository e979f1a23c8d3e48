"""ProHof tournaments (seed 000): participants, rounds, the tables drawn for each round.

A tournament keeps its tables' games in a Runde of its own (kind ProHof, scored in points):
each table of a started round is an evening of that Runde, booked on the same entry
screen as a money evening, with the same ledger (entries of kind "points"), history and
corrections. Standings are sums of those evenings' points.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player, Runde
from evenings.models import Evening


def _display_token() -> str:
    return secrets.token_urlsafe(18)


class Season(models.Model):
    """Several tournament evenings (at different venues) that make one championship."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("Name"), max_length=80)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                "club", models.functions.Lower("name"), name="season_name_unique_in_club"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def title(self) -> str:
        """ "Saison 2026/27" – once, also when the name says "Saison" already."""
        if self.name.casefold().split()[:1] == [gettext("Saison").casefold()]:
            return self.name
        return gettext("Saison %(name)s") % {"name": self.name}


class Tournament(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", _("in Vorbereitung")
        RUNNING = "running", _("läuft")
        FINISHED = "finished", _("beendet")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    season = models.ForeignKey(
        Season, on_delete=models.PROTECT, null=True, blank=True, related_name="tournaments"
    )
    # Where its tables' evenings are kept (clubs.services.create_prohof_runde).
    runde = models.OneToOneField(Runde, on_delete=models.PROTECT, related_name="tournament")
    name = models.CharField(_("Name"), max_length=80)
    venue = models.CharField(_("Spielstätte"), max_length=80, blank=True)
    date = models.DateField(_("Datum"), default=timezone.localdate)
    round_count = models.PositiveSmallIntegerField(_("Runden"), default=3)
    games_per_round = models.PositiveSmallIntegerField(_("Spiele je Runde"), default=40)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.SETUP)
    # The hall display's link, no login needed; None once revoked.
    display_token = models.CharField(
        max_length=40, unique=True, null=True, blank=True, default=_display_token
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # When it was first finished; kept when it is opened again for a late correction, so
    # that the page says it is open for that, and after, that the Endstand changed since.
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-date", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(round_count__gte=1) & Q(round_count__lte=10),
                name="tournament_round_count_range",
            ),
            models.CheckConstraint(
                condition=Q(games_per_round__gte=1) & Q(games_per_round__lte=200),
                name="tournament_games_per_round_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def reopened(self) -> bool:
        """Finished once, and open again for a late correction (services.reopen)."""
        return self.status == self.Status.RUNNING and self.finished_at is not None

    @property
    def status_label(self) -> str:
        """Its status as the pages say it: "zum Korrigieren offen" once opened again
        after finishing, not "läuft" as if it were still being played (walk 52)."""
        if self.reopened:
            return str(_("zum Korrigieren offen"))
        return str(self.get_status_display())

    @cached_property
    def has_started(self) -> bool:
        """Round 1 has started: its tables' evenings fix the rounds and games, and what
        was played there stays (no deletion). Read once per instance."""
        return self.rounds.filter(started_at__isnull=False).exists()


class Participant(models.Model):
    """A player of the organising club, or a guest entered at the door (Player.guest):
    across a season's tournaments the same Player is the same person."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="participants"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="participations")
    number = models.PositiveSmallIntegerField(_("Startnummer"))
    # Left the tournament after playing: keeps their points, is not drawn again.
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="participant_once_per_tournament"
            ),
            models.UniqueConstraint(
                fields=["tournament", "number"], name="participant_number_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.player}"


class Round(models.Model):
    """One round of a tournament: drawn (with its seed), then started (its tables become
    evenings; no more swaps)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    # The draw's seed, shown on the page: the same participants and earlier rounds with
    # this seed give the same tables (tournaments.draw.draw).
    seed = models.BigIntegerField()
    drawn_at = models.DateTimeField(default=timezone.now)
    # Changed by hand since the draw (two players swapped, one taken off the list): the
    # seed alone no longer gives the tables.
    swapped_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(seed__gte=0), name="round_seed_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {self.number}. Runde"

    @property
    def is_started(self) -> bool:
        return self.started_at is not None

    def gone_by(self) -> bool:
        """A later round of the tournament has started: this one's tables play no more."""
        later = Round.objects.filter(tournament_id=self.tournament_id, number__gt=self.number)
        return later.filter(started_at__isnull=False).exists()


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    # Who enters the games besides the club's admins and Schreiber (named by the director).
    scorekeeper = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # The table's evening, once the round has started.
    evening = models.OneToOneField(
        Evening, on_delete=models.PROTECT, null=True, blank=True, related_name="table"
    )
    # When the director ended the table before its games were played (someone left and
    # the table cannot go on): its evening was closed then, its games count, and the
    # round is complete without the missing ones. Who did it is in the evening's history.
    ended_early_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
        ]

    def __str__(self) -> str:
        return f"Tisch {self.number}"


class TableSeat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # The round again, so that the database holds each participant to one seat a round.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    participant = models.ForeignKey(Participant, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()  # 0 deals the first game

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="tableseat_position"),
            models.UniqueConstraint(
                fields=["round", "participant"], name="tableseat_one_per_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table}, Platz {self.position + 1}"
