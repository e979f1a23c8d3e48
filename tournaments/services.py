"""Writes of a ProHof tournament (seed 000), each in one transaction.

Every write locks the tournament's row first and checks the state inside the lock, so a
double tap (two draws, two starts) gives one result: the second request finds the work
done and returns it, or is refused with a German message (TournamentError).

The life of a tournament: participants join (club players, guests entered at the door);
round 1 is drawn (and may be redrawn, swapped and given scorekeepers) until it starts;
starting makes each table an evening of the tournament's Runde; once every table of a
round has its games (or was ended early by the director, when someone left), the next
round is drawn; after the last one the director closes the tournament, which closes its
tables: the ranking is final until the director opens the tournament again.
"""

import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date as Date

from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Q, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import services as club_services
from clubs.models import Club, Membership, Player, one_line, reads_alike
from evenings import services as evening_services
from evenings.models import Change, Evening, LedgerEntry
from tournaments.draw import BIG_TABLE, TABLE, DrawError, draw, repeated_pairs
from tournaments.models import Participant, Round, Season, Table, TableSeat, Tournament

SEED_RANGE = 2**31
"""A new draw's seed is below this: short enough to read out and type again."""

MAX_SEED = 2**63 - 1
"""The largest seed a director may type (the column is a bigint)."""


class TournamentError(Exception):
    """A request the tournament's state does not allow; German message for the page.

    `field` names the form field the message belongs to, if any.
    """

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


class StaleSeating(TournamentError):
    """The tables changed since the page was shown (a double tap, another phone)."""


@dataclass(frozen=True)
class TableProgress:
    table: Table  # with its seats (and their participants' players) and its evening
    booked: int  # games that count at the table's evening
    limit: int  # the round's games
    gone_by: bool = False  # a later round has started: the table plays no more

    @property
    def ended_early(self) -> bool:
        """The director ended the table before its games were played (end_table_early)."""
        return self.table.ended_early_at is not None and self.booked < self.limit

    @property
    def complete(self) -> bool:
        """Played its games, or ended early with those played so far; or its round has
        gone by, and a game struck there later (a late correction) leaves it done."""
        return self.booked >= self.limit or self.table.ended_early_at is not None or self.gone_by

    @property
    def current(self) -> int:
        """The game being played now: "Spiel n von 40" (the last one once complete)."""
        return min(self.booked + 1, self.limit)

    @property
    def not_counted(self) -> int:
        """Games numbered at the table that were struck or taken back: "Spiel 3 von 40
        (1 Spiel zählt nicht)", as the table's own screen says."""
        evening = self.table.evening
        return evening.last_number - self.booked if evening else 0


@dataclass(frozen=True)
class RoundProgress:
    round: Round
    tables: list[TableProgress]

    @property
    def complete(self) -> bool:
        """Started, and every table has played its games or was ended early."""
        return self.round.is_started and all(t.complete for t in self.tables)

    @property
    def seating(self) -> list[list[int]]:
        """Each table's participant ids in seat order, as `seatings` gives them."""
        return [[seat.participant_id for seat in t.table.seats.all()] for t in self.tables]

    @property
    def seating_token(self) -> str:
        """`seating_token` of the round, from the seats already read."""
        return _seating_token(
            self.round,
            (
                (t.table.number, seat.position, seat.participant_id)
                for t in self.tables
                for seat in t.table.seats.all()
            ),
        )


def _locked(tournament: Tournament) -> Tournament:
    return (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("club", "runde")
        .get(pk=tournament.pk)
    )


def _require_open(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(_("Das Turnier ist abgeschlossen."))


def _season(club: Club, season: Season | None, new_season: str) -> Season | None:
    """`season`, or the club's season called `new_season` (made if there is none)."""
    if not new_season:
        return season
    found = club.seasons.filter(name__iexact=new_season).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return Season.objects.create(club=club, name=new_season)
    except IntegrityError:
        # The other request of a double tap made it meanwhile.
        return club.seasons.get(name__iexact=new_season)


@transaction.atomic
def create_tournament(
    club: Club,
    by,
    *,
    name: str,
    venue: str = "",
    date: Date | None = None,
    season: Season | None = None,
    new_season: str = "",
    round_count: int = 3,
    games_per_round: int = 40,
) -> Tournament:
    """A tournament with its own Runde of the same name (where its tables' evenings are
    kept). A name another Runde of the club has already is refused by the database
    (runde_name_unique_in_club); the form checks it first."""
    runde = club_services.create_prohof_runde(club, name, by)
    return Tournament.objects.create(
        club=club,
        runde=runde,
        season=_season(club, season, new_season),
        name=name,
        venue=venue,
        date=date or timezone.localdate(),
        round_count=round_count,
        games_per_round=games_per_round,
        created_by=by,
    )


@transaction.atomic
def update_settings(
    tournament: Tournament,
    *,
    name: str,
    venue: str,
    date: Date,
    season: Season | None = None,
    new_season: str = "",
    round_count: int,
    games_per_round: int,
) -> Tournament:
    """Name, venue, date and season can be corrected at any time; the number of rounds
    and of games a round only until round 1 starts (its tables' evenings have the games
    as their limit)."""
    tournament = _locked(tournament)
    started = tournament.has_started
    if started and round_count != tournament.round_count:
        raise TournamentError(
            _("Die Zahl der Runden lässt sich nach dem Start nicht mehr ändern."), "round_count"
        )
    if started and games_per_round != tournament.games_per_round:
        raise TournamentError(
            _("Die Spiele je Runde lassen sich nach dem Start nicht mehr ändern."),
            "games_per_round",
        )
    if name != tournament.runde.name:
        tournament.runde.name = name
        tournament.runde.save(update_fields=["name"])
    tournament.name = name
    tournament.venue = venue
    tournament.date = date
    tournament.season = _season(tournament.club, season, new_season)
    tournament.round_count = round_count
    tournament.games_per_round = games_per_round
    tournament.save()
    return tournament


def _next_number(tournament: Tournament) -> int:
    return (tournament.participants.aggregate(n=Max("number"))["n"] or 0) + 1


@transaction.atomic
def add_participants(tournament: Tournament, players: list[Player]) -> list[Participant]:
    """The players join in the order given, with the next start numbers; those who take
    part already are left as they are (a double tap adds nobody twice)."""
    tournament = _locked(tournament)
    _require_open(tournament)
    if any(player.club_id != tournament.club_id for player in players):
        raise TournamentError(_("Nur Spieler des Vereins können teilnehmen."), "players")
    taking_part = set(tournament.participants.values_list("player_id", flat=True))
    number = _next_number(tournament)
    joined = []
    for player in players:
        if player.pk in taking_part:
            continue
        joined.append(Participant(tournament=tournament, player=player, number=number))
        taking_part.add(player.pk)
        number += 1
    return Participant.objects.bulk_create(joined)


@transaction.atomic
def add_guest(tournament: Tournament, name: str) -> Participant:
    """A guest entered at the door: a name is enough.

    A guest of an earlier tournament with the same name (any case, "Rene" for "René")
    is the same person, so their season counts together; a player of the club with that
    name is not a guest and is refused, so nobody becomes someone else by typing their
    name.
    """
    tournament = _locked(tournament)
    _require_open(tournament)
    name = one_line(name)
    if not name:
        raise TournamentError(_("Bitte den Namen des Gasts eingeben."), "name")
    player = reads_alike(tournament.club.players.all(), name)
    taking_part = player is not None and tournament.participants.filter(player=player).first()
    if taking_part and taking_part.withdrawn_at is not None:
        raise TournamentError(
            _("%(name)s hat zurückgezogen (Startnummer %(number)s): bei den Teilnehmern "
              "„Wieder aufnehmen“ wählen, dann wird %(name)s wieder ausgelost.")
            % {"name": player.name, "number": taking_part.number},
            "name",
        )  # fmt: skip
    if taking_part:
        raise TournamentError(
            _("%(name)s spielt schon mit (Startnummer %(number)s).")
            % {"name": player.name, "number": taking_part.number},
            "name",
        )
    if player is not None and not player.guest:
        raise TournamentError(
            _(
                "%(name)s ist Spieler des Vereins: bitte oben in der Liste ankreuzen. "
                "Ist es jemand anderes, unterscheide den Namen, z. B. mit dem Wohnort."
            )
            % {"name": player.name},
            "name",
        )
    if player is None:
        player = Player.objects.create(club=tournament.club, name=name, guest=True, active=True)
    elif not player.active:
        player.active = True
        player.save(update_fields=["active"])
    return Participant.objects.create(
        tournament=tournament, player=player, number=_next_number(tournament)
    )


@transaction.atomic
def remove_participant(participant: Participant) -> bool:
    """Take a participant off the list: their seat in a drawn round that has not started
    is freed (the page then asks for a new draw). Start numbers stay as they are.

    Who has played already withdraws instead (answer True): they keep their points and
    their place in the standings, and later rounds are drawn without them."""
    tournament = _locked(participant.tournament)
    _require_open(tournament)
    participant = tournament.participants.select_related("player").filter(pk=participant.pk).first()
    if participant is None:
        return False  # the other request of a double tap removed them
    played = participant.seats.filter(round__started_at__isnull=False).exists()
    drawn = participant.seats.filter(round__started_at__isnull=True)
    # The round drawn for them no longer follows from its seed: said beside it, as a swap.
    Round.objects.filter(pk__in=drawn.values("round")).update(swapped_at=timezone.now())
    drawn.delete()
    if played:
        if participant.withdrawn_at is None:
            participant.withdrawn_at = timezone.now()
            participant.save(update_fields=["withdrawn_at"])
        return True
    participant.delete()
    _forget_unused_guest(participant.player)
    return False


def _forget_unused_guest(player: Player) -> None:
    """A guest taken off the list who never played anywhere (a typo at the door, say) is
    no player of the club either: not offered to join as, nor kept for the next
    tournament. Anyone with a login, a seat, an invitation or another tournament stays."""
    if player.guest:
        club_services.delete_if_unused(player)


@transaction.atomic
def reinstate_participant(participant: Participant) -> Participant:
    """Take back a withdrawal: the participant is drawn again from the next round drawn
    (a round drawn but not started asks for a new draw, as for a late arrival). Their
    start number and points are as they were; a double tap reinstates once."""
    tournament = _locked(participant.tournament)
    _require_open(tournament)
    participant = tournament.participants.select_related("player").get(pk=participant.pk)
    if participant.withdrawn_at is not None:
        participant.withdrawn_at = None
        participant.save(update_fields=["withdrawn_at"])
    return participant


def seatings(rounds: list[Round]) -> dict[int, list[list[int]]]:
    """{round id: its tables, each the participant ids in seat order}, in one query."""
    tables: dict[int, dict[int, list[int]]] = {r.pk: {} for r in rounds}
    for round_id, table_id, participant_id in (
        TableSeat.objects.filter(round__in=rounds)
        .order_by("table__number", "position")
        .values_list("round_id", "table_id", "participant_id")
    ):
        tables[round_id].setdefault(table_id, []).append(participant_id)
    return {round_id: list(by_table.values()) for round_id, by_table in tables.items()}


def repeated_partners(round_: Round) -> int:
    """How many pairs at the round's tables sat together in an earlier round, each pair
    counted once however often it met."""
    rounds = list(round_.tournament.rounds.filter(number__lte=round_.number))
    seated = seatings(rounds)
    return repeated_pairs(seated[round_.pk], [seated[r.pk] for r in rounds if r != round_])


def seating_token(round_: Round) -> str:
    """A fingerprint of the round's seats: a swap sent with an older one is stale."""
    seats = (
        TableSeat.objects.filter(round=round_)
        .order_by("table__number", "position")
        .values_list("table__number", "position", "participant_id")
    )
    return _seating_token(round_, seats)


def _seating_token(round_: Round, seats: Iterable[tuple[int, int, int]]) -> str:
    """The token of (table number, position, participant id) in that order."""
    text = f"{round_.seed}|" + ";".join(f"{t}:{p}:{i}" for t, p, i in seats)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@transaction.atomic
def draw_round(
    tournament: Tournament,
    seed: int | None = None,
    *,
    by=None,
    number: int | None = None,
    replacing: int | None = None,
) -> Round:
    """Draw the tables of the next round, or draw again the round drawn but not started.

    `seed` redoes a draw (the same participants and earlier rounds with the same seed
    give the same tables); without one a new seed is drawn. A table's scorekeeper is the
    first at it who has a login in the club, else `by` (the director), until another is
    named.

    From a page, `number` is the round the director means and `replacing` the seed the
    page showed for it (None for a first draw): if that round has been drawn (or drawn
    again, or started) meanwhile, it is returned as it is, so a double tap draws once.

    1. Under the tournament's lock, find the round to draw: the one drawn and not yet
       started, or the next one, which needs the one before complete.
    2. Draw with the seed from the participants and the seating of the earlier rounds
       (tournaments.draw), and store the tables in seat order (seat 1 deals first).
    """
    # 1. Which round.
    tournament = _locked(tournament)
    rounds = list(tournament.rounds.all())
    last = rounds[-1] if rounds else None
    redraw = last is not None and not last.is_started
    due = 1 if last is None else last.number if redraw else last.number + 1
    if number is not None:
        asked = next((r for r in rounds if r.number == number), None)
        if asked is not None and (asked.is_started or asked.seed != replacing):
            return asked
        if number != due:
            raise TournamentError(_("Diese Runde kann jetzt nicht ausgelost werden."))
    _require_open(tournament)
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise TournamentError(_("Der Seed ist eine ganze Zahl ab 0."), "seed")
    earlier = rounds[:-1] if redraw else rounds
    if not redraw:
        if due > tournament.round_count:
            raise TournamentError(
                _("Alle %(count)s Runden sind ausgelost.") % {"count": tournament.round_count}
            )
        if last is not None and not round_progress(last).complete:
            raise TournamentError(
                _("Runde %(number)s ist noch nicht fertig: erst wenn jeder Tisch seine "
                  "%(games)s Spiele hat (oder vorzeitig beendet ist), wird die nächste "
                  "ausgelost.")
                % {"number": last.number, "games": tournament.games_per_round}
            )  # fmt: skip

    # 2. The draw.
    seed = secrets.randbelow(SEED_RANGE) if seed is None else seed
    participants = list(
        tournament.participants.filter(withdrawn_at__isnull=True).values_list("pk", flat=True)
    )
    seated = seatings(earlier)
    try:
        tables = draw(participants, seed, [seated[r.pk] for r in earlier])
    except DrawError as error:
        raise TournamentError(error.message_de) from error
    if redraw:
        round_ = last
        round_.tables.all().delete()
        round_.seed = seed
        round_.drawn_at = timezone.now()
        round_.swapped_at = None
        round_.save(update_fields=["seed", "drawn_at", "swapped_at"])
    else:
        round_ = Round.objects.create(tournament=tournament, number=due, seed=seed)
    logins = _logins(tournament.club_id, participants)
    made = Table.objects.bulk_create(
        Table(round=round_, number=n, scorekeeper_id=_keeper(ids, logins, by))
        for n, ids in enumerate(tables, start=1)
    )
    TableSeat.objects.bulk_create(
        TableSeat(table=table, round=round_, participant_id=participant, position=position)
        for table, ids in zip(made, tables, strict=True)
        for position, participant in enumerate(ids)
    )
    return round_


def _logins(club_id: int, participant_ids: Iterable[int]) -> dict[int, int]:
    """{participant id: user id} of those who keep sheets in the club: a login as one of
    its Schreiber or Admins. (A Spieler becomes a table's scorekeeper only if the director
    chooses them: it lets them book there.)"""
    return dict(
        Participant.objects.filter(
            pk__in=participant_ids,
            player__user__memberships__club=club_id,
            player__user__memberships__role__in=[
                Membership.Role.SCOREKEEPER,
                Membership.Role.ADMIN,
            ],
        ).values_list("pk", "player__user_id")
    )


def _keeper(seated: list[int], logins: dict[int, int], by) -> int | None:
    """A table's scorekeeper as the draw chooses: the first in seat order who is a
    Schreiber or Admin of the club, else `by` (the director)."""
    return next((logins[p] for p in seated if p in logins), by and by.pk)


def _unstarted(round_: Round) -> Round:
    """The round, read again under its tournament's lock; refused once it has started."""
    _locked(round_.tournament)
    round_ = Round.objects.select_related("tournament").get(pk=round_.pk)
    if round_.is_started:
        raise TournamentError(
            _("Runde %(number)s läuft schon: die Tische stehen fest.") % {"number": round_.number}
        )
    return round_


@transaction.atomic
def swap(
    round_: Round, a: Participant, b: Participant, *, seating: str | None = None, by=None
) -> None:
    """Two participants of different tables change seats, before the round starts.

    `seating` is the seating_token the page showed: if the tables have changed since,
    nothing is swapped (StaleSeating), so a double tap does not swap back.

    The two tables' scorekeepers follow the seats as the draw chose them: a table whose
    scorekeeper moved away, or was `by` (the director) or nobody, gets the first at it
    who has a login in the club, else `by`. One the director named otherwise stays.
    """
    round_ = _unstarted(round_)
    if seating is not None and seating != seating_token(round_):
        raise StaleSeating(
            _("Die Tische haben sich inzwischen geändert; es wurde nichts getauscht. "
              "Bitte prüfe sie und tausche dann.")
        )  # fmt: skip
    seats = {
        seat.participant_id: seat
        for seat in TableSeat.objects.filter(round=round_, participant__in=[a, b])
    }
    if a.pk == b.pk or len(seats) != 2:
        raise TournamentError(
            _("Bitte zwei Spieler wählen, die in dieser Runde an Tischen sitzen.")
        )
    seat_a, seat_b = seats[a.pk], seats[b.pk]
    if seat_a.table_id == seat_b.table_id:
        raise TournamentError(
            _("Die beiden sitzen am selben Tisch: bitte zwei von verschiedenen Tischen wählen.")
        )
    # One participant, one seat a round (a constraint): take both seats, then give them.
    TableSeat.objects.filter(pk__in=[seat_a.pk, seat_b.pk]).delete()
    TableSeat.objects.bulk_create(
        TableSeat(table_id=seat.table_id, round=round_, participant=who, position=seat.position)
        for seat, who in ((seat_b, a), (seat_a, b))
    )
    # Swapped back, the tables are the seed's again, and the page says so (walk 28).
    round_.swapped_at = None if _as_drawn(round_) else timezone.now()
    round_.save(update_fields=["swapped_at"])
    moved = {a.player.user_id, b.player.user_id} - {None}
    for table in Table.objects.filter(pk__in=[seat_a.table_id, seat_b.table_id]):
        if table.scorekeeper_id not in {None, by and by.pk, *moved}:
            continue
        seated = list(table.seats.values_list("participant_id", flat=True))
        table.scorekeeper_id = _keeper(seated, _logins(round_.tournament.club_id, seated), by)
        table.save(update_fields=["scorekeeper"])


def _as_drawn(round_: Round) -> bool:
    """Whether the round's tables are, seat for seat, what its seed gives with the
    participants and the earlier rounds as they are (tournaments.draw)."""
    rounds = list(round_.tournament.rounds.filter(number__lte=round_.number))
    seated = seatings(rounds)
    participants = round_.tournament.participants.filter(withdrawn_at__isnull=True)
    earlier = [seated[r.pk] for r in rounds if r.number < round_.number]
    try:
        again = draw(list(participants.values_list("pk", flat=True)), round_.seed, earlier)
    except DrawError:
        return False
    return again == seated[round_.pk]


@transaction.atomic
def name_scorekeeper(table: Table, user, by=None) -> Table:
    """Who enters the table's games besides the club's admins and Schreiber: a member of
    the club (usually one who sits at the table, or the director). While the round runs,
    the table's evening records the handover in its history (by `by`)."""
    _locked(table.round.tournament)
    table = Table.objects.select_related("round").get(pk=table.pk)
    round_ = table.round
    if (
        user is not None
        and not Membership.objects.filter(club_id=round_.tournament.club_id, user=user).exists()
    ):
        raise TournamentError(_("Schreiber kann nur ein Mitglied des Vereins sein."), "scorekeeper")
    if table.scorekeeper_id == (user.pk if user else None):
        return table
    if table.evening_id is not None:
        evening_services.set_scorekeeper(table.evening_id, user, by)
    table.scorekeeper = user
    table.save(update_fields=["scorekeeper"])
    return table


@transaction.atomic
def name_scorekeepers(chosen: list[tuple[Table, object]], by=None) -> None:
    """name_scorekeeper for each (table, user): all of them, or none."""
    for table, user in chosen:
        name_scorekeeper(table, user, by)


@transaction.atomic
def start_round(round_: Round, by) -> Round:
    """Each table becomes an evening of the tournament's Runde: its players in seat
    order, seat 1 dealing first, labelled "Runde 1 · Tisch 3", closed to a game beyond
    the round's games, booked by the table's scorekeeper (else `by`). A round already
    started is returned as it is (a double tap starts once)."""
    tournament = _locked(round_.tournament)
    round_ = Round.objects.get(pk=round_.pk)
    if round_.is_started:
        return round_
    _require_open(tournament)
    tables = list(round_.tables.prefetch_related("seats__participant__player"))
    seated = {seat.participant_id for table in tables for seat in table.seats.all()}
    unseated = list(
        tournament.participants.filter(withdrawn_at__isnull=True)
        .exclude(pk__in=seated)
        .select_related("player")
    )
    if unseated:
        raise TournamentError(
            _("Ohne Platz an einem Tisch: %(names)s. Bitte Runde %(number)s neu auslosen.")
            % {"names": ", ".join(p.player.name for p in unseated), "number": round_.number}
        )
    for table in tables:
        if len(table.seats.all()) not in (TABLE, BIG_TABLE):
            raise TournamentError(
                _("An Tisch %(table)s sitzen %(count)s: bitte Runde %(number)s neu auslosen.")
                % {"table": table.number, "count": len(table.seats.all()), "number": round_.number}
            )
    for table in tables:
        table.scorekeeper = table.scorekeeper or by
        try:
            table.evening = evening_services.start_evening(
                tournament.runde,
                [seat.participant.player for seat in table.seats.all()],
                0,
                by,
                label=_("Runde %(round)s · Tisch %(table)s")
                % {"round": round_.number, "table": table.number},
                game_limit=tournament.games_per_round,
                scorekeeper=table.scorekeeper,
            )
        except evening_services.EveningError as error:
            raise TournamentError(str(error)) from error
        table.save(update_fields=["scorekeeper", "evening"])
    round_.started_at = timezone.now()
    round_.save(update_fields=["started_at"])
    if tournament.status == Tournament.Status.SETUP:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return round_


def _counted(tables: QuerySet[Table]) -> QuerySet[Table]:
    """`tables` by number, with their evening and scorekeeper, each with the count of its
    booked games (`booked`)."""
    return (
        tables.select_related("evening", "scorekeeper")
        .annotate(booked=Count("evening__games", filter=Q(evening__games__voided_at__isnull=True)))
        .order_by("number")  # Meta.ordering does not apply to a GROUP BY query
    )


def _progress(round_: Round, tables: list[Table], gone_by: bool) -> RoundProgress:
    limit = round_.tournament.games_per_round
    return RoundProgress(
        round=round_,
        tables=[TableProgress(table, table.booked, limit, gone_by) for table in tables],
    )


def round_progress(round_: Round) -> RoundProgress:
    """Each table with its seats and its counted games; whether the round is complete."""
    return _progress(
        round_,
        list(_counted(round_.tables.prefetch_related("seats__participant__player"))),
        round_.gone_by(),
    )


def rounds_progress(rounds: list[Round], participants: list[Participant]) -> list[RoundProgress]:
    """round_progress of each of a tournament's `rounds`, in two queries however many
    rounds and tables: the seats' participants are taken from `participants` (read with
    their players); one who joined after that list was read is looked up."""
    known = {p.pk: p for p in participants}
    tables: dict[int, list[Table]] = {round_.pk: [] for round_ in rounds}
    for table in _counted(Table.objects.filter(round__in=rounds).prefetch_related("seats")):
        for seat in table.seats.all():
            if seat.participant_id in known:
                seat.participant = known[seat.participant_id]
        tables[table.round_id].append(table)
    started = [round_.number for round_ in rounds if round_.is_started]
    return [
        _progress(round_, tables[round_.pk], any(n > round_.number for n in started))
        for round_ in rounds
    ]


@transaction.atomic
def end_table_early(table: Table, by) -> Table:
    """End a table of the running round before its games are played, when it cannot go
    on (someone left): its evening is closed by `by` (on its record), the games played
    so far count, and the round is complete once every other table is. A table ended
    already is returned as it is (a double tap ends it once)."""
    tournament = _locked(table.round.tournament)
    table = Table.objects.select_related("round", "evening").get(pk=table.pk)
    if table.ended_early_at is not None:
        return table
    _require_open(tournament)
    if table.evening is None:
        raise TournamentError(
            _("Runde %(number)s ist noch nicht gestartet.") % {"number": table.round.number}
        )
    if table.evening.counted_games >= tournament.games_per_round:
        raise TournamentError(
            _("Tisch %(table)s hat schon alle %(games)s Spiele.")
            % {"table": table.number, "games": tournament.games_per_round}
        )
    if table.evening.is_open:
        evening_services.close_evening(table.evening_id, by)
    table.ended_early_at = timezone.now()
    table.save(update_fields=["ended_early_at"])
    return table


@transaction.atomic
def finish(tournament: Tournament, by) -> Tournament:
    """Close the tournament once its last round is complete: the ranking is final.

    Every table's evening still open is closed by `by` (on its record), and a table of a
    finished tournament is not opened again (evenings.services.reopen_evening refuses),
    so nothing changes the ranking, the hall display, the print or the CSV any more;
    nobody joins or is drawn either. For a late correction the director opens the
    tournament again (`reopen`), then the table.
    """
    tournament = _locked(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        return tournament
    last = tournament.rounds.order_by("-number").first()
    if last is None or last.number < tournament.round_count or not round_progress(last).complete:
        raise TournamentError(
            _("Abschließen lässt sich das Turnier, wenn alle %(count)s Runden gespielt sind.")
            % {"count": tournament.round_count}
        )
    still_open = Evening.objects.open().filter(table__round__tournament=tournament)
    for evening_id in still_open.order_by("pk").values_list("pk", flat=True):
        evening_services.close_evening(evening_id, by)
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = tournament.finished_at or timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    return tournament


@transaction.atomic
def reopen(tournament: Tournament) -> Tournament:
    """Open a finished tournament again for a late correction: its tables stay closed
    until the director opens each one that needs it (as any evening); "Turnier
    abschließen" then closes them again. Open already: returned as it is."""
    tournament = _locked(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return tournament


@transaction.atomic
def renew_display_link(tournament: Tournament, revoke: bool = False) -> Tournament:
    """A new link for the hall display (the old one stops working), or none at all."""
    tournament = _locked(tournament)
    field = Tournament._meta.get_field("display_token")
    tournament.display_token = None if revoke else field.get_default()
    tournament.save(update_fields=["display_token"])
    return tournament


@transaction.atomic
def delete_tournament(tournament: Tournament) -> None:
    """Delete a tournament no round of which has started: nothing was played in it, so
    nothing of the ledger goes with it (a tournament made to try things out, say). Its
    participants' guests who played nowhere else go too, and so does its season when
    it was the season's only tournament. Once a round has started the tournament stays,
    as every evening does. A double tap's second request finds it gone and does nothing.
    """
    locked = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("runde", "season")
        .filter(pk=tournament.pk)
        .first()
    )
    if locked is None:
        return
    if locked.has_started:
        raise TournamentError(
            _("In diesem Turnier wurde schon gespielt: es bleibt erhalten, wie jeder Abend.")
        )
    guests = [p.player for p in locked.participants.select_related("player") if p.player.guest]
    TableSeat.objects.filter(round__tournament=locked).delete()
    locked.delete()  # its rounds, tables and participants with it
    locked.runde.delete()  # no evening was ever started in it; its tariff goes with it
    for player in guests:
        _forget_unused_guest(player)
    if locked.season is not None and not locked.season.tournaments.exists():
        locked.season.delete()


# How many of a tournament's late changes its page lists, newest first.
LATE_CHANGES = 20


@dataclass
class LateChange:
    """A correction, strike or restoration at one of the tournament's tables, with the
    points it moved per participant's name."""

    change: Change
    round: int
    table: int
    moved: list[tuple[str, int]] = field(default_factory=list)

    @property
    def after_finish(self) -> bool:
        """Made while the tournament was open again after it was first finished."""
        finished = self.change.evening.table.round.tournament.finished_at
        return finished is not None and self.change.at > finished


# A take-back too: its restoring is listed, and alone read as points given (walk 57).
LATE_KINDS = (Change.Kind.CORRECT, Change.Kind.VOID, Change.Kind.UNDO, Change.Kind.RESTORE)


def corrected_after_finish(tournament: Tournament) -> bool:
    """Whether a table's game was corrected, struck or restored after the tournament was
    first finished: its Endstand then says so. One query, none if it never finished."""
    return tournament.finished_at is not None and (
        Change.objects.filter(
            evening__table__round__tournament=tournament,
            kind__in=LATE_KINDS,
            at__gt=tournament.finished_at,
        ).exists()
    )


def late_changes(tournament: Tournament) -> list[LateChange]:
    """The corrections, strikes, take-backs and restorations at the tournament's tables,
    newest first (the LATE_CHANGES newest), each with the points it moved: what changed
    the standings after the games were played (walk 52: the page said only that something
    happened, and nothing once the Endstand changed after finishing). Two queries."""
    changes = list(
        Change.objects.filter(
            evening__table__round__tournament=tournament,
            kind__in=LATE_KINDS,
        )
        .select_related("game", "by", "evening__table__round")
        .order_by("-pk")[:LATE_CHANGES]
    )
    if not changes:
        return []
    sums = (
        LedgerEntry.objects.filter(change__in=changes)
        .values_list("change_id", "player__name")
        .annotate(points=Sum("amount"))
        .order_by("change_id", "-points", "player__name")
    )
    moved: dict[int, list[tuple[str, int]]] = {}
    for change_id, name, points in sums:
        if points:
            moved.setdefault(change_id, []).append((name, points))
    late = []
    for change in changes:
        change.evening.table.round.tournament = tournament
        table = change.evening.table
        late.append(LateChange(change, table.round.number, table.number, moved.get(change.pk, [])))
    return late
