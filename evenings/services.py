"""Every write to an evening: start, book, correct, void, undo, restore, pay, cancel a
payment, close, reopen.

Each runs in one transaction, and each change makes a new version of the evening, which
the phones following along compare. A correction, a void, an undo, a restore, a payment
or its cancellation, closing and reopening hold a row lock on the evening. A booking reads
the evening's state without one and writes its game only if the evening is still at the
version it read, else it reads again (and takes the lock when other phones keep coming
first): so two phones booking into the same evening are served one after the other and
the Bock chain stays right, and a booking costs one read and one write.

Booking a game scores it after the few games before it (scoring.score_after): the cost of
a booking does not grow with the evening. A correction, a void, an undo or a restore
rescores the games from the changed one on, and the ledger is brought in line by
appending entries (reversals and new amounts), never by editing them.
"""

import contextlib
import dataclasses
import functools
import hashlib
import json
import uuid
from collections import defaultdict
from collections.abc import Iterable, Sequence
from itertools import pairwise

from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, OuterRef, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from clubs.models import Player, Runde, Tariff
from evenings.models import Change, Evening, EveningTotal, Game, LedgerEntry, Seat
from evenings.reads import Prepared, State, seats_of, state_of
from scoring import (
    BOCK_GAMES,
    EveningResult,
    GameResult,
    ScoringError,
    format_cents,
    score_after,
    score_evening,
    validate_game,
)
from scoring.settlement import Settlement, settle, settle_after, settle_paid

SEATS = (4, 5, 6)


class EveningError(Exception):
    """A request the evening's state does not allow; German message for the page.

    `field` names the form field the message belongs to, if any.
    """

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


@dataclasses.dataclass(frozen=True)
class GameInput:
    """A game as the entry form describes it; players by Player id."""

    type: str
    declarer: int | None = None
    partner: int | None = None
    suit: str = ""
    won: bool = True
    laufende: int = 0
    schneider: bool = False
    schwarz: bool = False
    tout: bool = False
    angesagt: bool = False
    kontra: int = 0
    doubled: int = 0
    loser: int | None = None
    jungfrauen: tuple[int, ...] = ()

    # Fields that name a player; the Game model stores them as foreign key ids.
    PLAYER_FIELDS = frozenset({"declarer", "partner", "loser"})

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return _GAME_INPUT_NAMES

    @classmethod
    def of(cls, game: Game) -> "GameInput":
        values = {name: getattr(game, cls._attribute(name)) for name in cls.names()}
        values["jungfrauen"] = tuple(values["jungfrauen"])
        return cls(**values)

    def apply_to(self, game: Game) -> None:
        for name in self.names():
            setattr(game, self._attribute(name), getattr(self, name))
        game.jungfrauen = list(self.jungfrauen)

    @classmethod
    def _attribute(cls, name: str) -> str:
        return f"{name}_id" if name in cls.PLAYER_FIELDS else name

    @classmethod
    def from_json(cls, data: dict) -> "GameInput":
        """The inverse of as_json (a Change's before and after, which may say more: a
        restoring's "bock_flipped")."""
        fields = {field.name for field in dataclasses.fields(cls)}
        known = {name: value for name, value in data.items() if name in fields}
        return cls(**{**known, "jungfrauen": tuple(data.get("jungfrauen", ()))})

    def as_json(self) -> dict[str, object]:
        data = dataclasses.asdict(self)
        data["jungfrauen"] = list(self.jungfrauen)
        return data

    def fingerprint(self) -> str:
        """A short digest of the game as it is: a correction form carries the one of the
        game it showed, so a save can tell that another phone corrected it meanwhile."""
        text = json.dumps(self.as_json(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


_GAME_INPUT_NAMES = tuple(f.name for f in dataclasses.fields(GameInput))


def playing_positions(seats: int, dealer: int) -> list[int]:
    """Seat positions that play a game, in order from the dealer's left.

    With 5 at the table the dealer sits out; with 6 the dealer and the player opposite.
    """
    if seats not in SEATS:
        raise ValueError(f"{seats} seats")
    order = [(dealer + step) % seats for step in range(1, seats + 1)]
    out = {dealer} if seats == 5 else {dealer, (dealer + 3) % 6} if seats == 6 else set()
    return [position for position in order if position not in out]


@dataclasses.dataclass(frozen=True)
class Deal:
    """Who deals the next game, who plays it, and the number it will get."""

    number: int
    dealer: Player
    playing: list[Player]  # from the dealer's left: the order of the game's seating
    sitting_out: list[Player]
    seated: list[Player]  # the same four in the order they sit, as the chips show them

    @property
    def only_dealer_out(self) -> bool:
        """Five at the table: the dealer, and only the dealer, sits this game out."""
        return [p.pk for p in self.sitting_out] == [self.dealer.pk]

    @property
    def token(self) -> str:
        """Names this deal on an entry form: when a booking, an undo or a restore on
        another phone has moved the deal on, the form's token no longer matches."""
        return f"{self.number}-{self.dealer.pk}"


def next_deal(
    evening: Evening, seats: list[Seat] | None = None, state: State | None = None
) -> Deal:
    """Who deals the next game: the seat after the last booked game's dealer.

    Read from the database, unless the caller passes the evening's `state` as it read it
    (reads.State, which holds its last booked games).
    """
    seats = seats if seats is not None else seats_of(evening)
    state = state if state is not None else state_of(evening.pk, 1)
    last_dealer = state.recent[-1].dealer_id if state.recent else None
    return _deal_after(evening, seats, last_dealer, state.last_number + 1)


def _deal_after(evening: Evening, seats: list[Seat], last_dealer: int | None, number: int) -> Deal:
    """Game `number`'s deal when the last booked game was dealt by `last_dealer` (None:
    no game counts yet, so the evening's first dealer deals)."""
    if last_dealer is None:
        return deal_at(seats, evening.first_dealer, number)
    after = next(s.position for s in seats if s.player_id == last_dealer) + 1
    return deal_at(seats, after, number)


def deal_at(seats: list[Seat], dealer: int, number: int) -> Deal:
    """The deal of game `number` when the seat `dealer` (taken round the table) deals."""
    dealer %= len(seats)
    playing = playing_positions(len(seats), dealer)
    return Deal(
        number=number,
        dealer=seats[dealer].player,
        playing=[seats[p].player for p in playing],
        sitting_out=[s.player for s in seats if s.position not in playing],
        seated=[seats[p].player for p in sorted(playing)],
    )


@transaction.atomic
@transaction.atomic
def start_evening(
    runde: Runde,
    players: list[Player],
    first_dealer: int,
    by,
    *,
    label: str = "",
    game_limit: int | None = None,
    scorekeeper=None,
    key: uuid.UUID | None = None,
    continues: Evening | None = None,
) -> Evening:
    """Open an evening with 4, 5 or 6 players in seating order, with the current tariff
    (or, going on at a new table, the tariff of the evening it `continues`).

    A tournament's table is such an evening in the tournament's Runde, with a `label`
    ("Runde 1 · Tisch 3"), the round's number of games as `game_limit` (one more is
    refused), and the user it names as `scorekeeper` (who may book here even without
    the club's Schreiber role). The start form's `key` starts one evening however often
    the form is sent: again, it answers the evening the key started. `continues`: the
    evening this one goes on from at a new table (continue_at_new_table)."""
    _require_table(runde, players, first_dealer)
    # One start at a time per Runde, as the Runde's Ausgleich (start_ausgleich): an
    # evening started while an Ausgleich is made waits and starts after it, never before
    # it unseen. A second tap of the form waits here too and finds the first one's. A
    # club deleted meanwhile (clubs.services.delete_club) took the Runde with it.
    if not Runde.objects.select_for_update().filter(pk=runde.pk).values_list("pk"):
        raise EveningError(_("Diese Runde gibt es nicht mehr."))
    if key is not None and (started := runde.evenings.filter(key=key).first()) is not None:
        return started
    try:
        with transaction.atomic():
            evening = Evening.objects.create(
                runde=runde,
                # The same night at a new table keeps its tariff: a tariff changed
                # meanwhile is for the next evening, as the tariff editor says.
                tariff=continues.tariff if continues is not None else runde.tariffs.latest(),
                first_dealer=first_dealer,
                started_by=by,
                label=label,
                game_limit=game_limit,
                scorekeeper=scorekeeper,
                key=key,
                continues=continues,
                carries_bock=continues is not None,
            )
    except IntegrityError:  # the key of another Runde's form: no way into it
        raise EveningError(_("Dieses Formular wurde schon verwendet. Bitte neu laden.")) from None
    _seat(evening, players)
    Change.objects.create(
        evening=evening,
        kind=Change.Kind.START,
        by=by,
        after={"players": [p.pk for p in players], "first_dealer": first_dealer}
        | ({"continues": continues.pk, "bock": carried_bock(evening)} if continues else {}),
    )
    return evening


class SeatsMoved(EveningError):
    """The evening changed since the seating form was shown: nothing changed by it."""


def reseatable(evening_id: int) -> bool:
    """Whether the evening's table can be seated anew (change_seats before its first
    game, continue_at_new_table after): an open money evening that did not go on at a
    new table already (opened again, it takes corrections only)."""
    return Evening.objects.playing().filter(pk=evening_id, game_limit__isnull=True).exists()


@transaction.atomic
def change_seats(
    evening_id: int, players: list[Player], first_dealer: int, by, seen: int | None = None
) -> Evening:
    """Seat the table again before its first game: other players, another order or
    another first dealer, on the record (a Change that says who sat where before and
    after). Once a game is booked the table stays as it is; a tournament's table sits as
    it was drawn. The same table again changes nothing. `seen`: the evening's version
    the form was made at; if another phone changed the evening since, SeatsMoved."""
    evening = _locked(evening_id)
    _require_reseatable(evening, seen)
    if evening.last_number:
        raise EveningError(_("Am Abend ist schon gebucht: die Sitzordnung bleibt, wie sie ist."))
    _require_table(evening.runde, players, first_dealer)
    before = list(evening.seats.order_by("position").values_list("player_id", flat=True))
    after = [p.pk for p in players]
    if before == after and evening.first_dealer == first_dealer:
        return evening
    evening.seats.all().delete()
    _seat(evening, players)
    old_dealer, evening.first_dealer = evening.first_dealer, first_dealer
    evening.save(update_fields=["first_dealer"])
    _record(
        evening,
        Change.Kind.SEATS,
        by,
        before={"players": before, "first_dealer": old_dealer},
        after={"players": after, "first_dealer": first_dealer},
    )
    return evening


@transaction.atomic
def redeal(evening_id: int, next_dealer: int, by, seen: int | None = None) -> Evening:
    """The same table, but the dealer was wrong from the start (noticed after a few
    games, walk 29): every game is dealt anew so that the seat `next_dealer` deals the
    next game, each game's dealer moved round the table by the same number of seats,
    and the evening scored anew (at five or six, who sat out moves with the dealer).
    Refused if a game's players would then sit out. `seen` as for change_seats."""
    evening = _locked(evening_id)
    _require_reseatable(evening, seen)
    seats = list(evening.seats.select_related("player").order_by("position"))
    count = len(seats)
    position = {seat.player_id: seat.position for seat in seats}
    shift = (next_dealer - position[next_deal(evening, seats).dealer.pk]) % count
    if not shift:
        raise EveningError(
            _(
                "Am Tisch sitzen dieselben wie bisher, und als Nächstes gibt, wer gewählt "
                "ist: nichts zu ändern."
            )
        )
    games = list(evening.games.order_by("number"))
    for game in games:
        dealer = (position[game.dealer_id] + shift) % count
        game.dealer_id = seats[dealer].player_id
        game.seating = [seats[p].player_id for p in playing_positions(count, dealer)]
        playing = [game.declarer_id, game.partner_id, game.loser_id, *game.jungfrauen]
        out = [pk for pk in playing if pk is not None and pk not in game.seating]
        if game.is_booked and out:
            raise EveningError(
                _(
                    "Mit diesem Geber säße %(name)s in Spiel %(n)s aus, hat dort aber "
                    "gespielt: erst dieses Spiel korrigieren oder streichen."
                )
                % {"name": seats[position[out[0]]].player.name, "n": game.number}
            )
    Game.objects.bulk_update(games, ["dealer", "seating"])
    players = [seat.player_id for seat in seats]
    before, evening.first_dealer = evening.first_dealer, (evening.first_dealer + shift) % count
    evening.save(update_fields=["first_dealer"])
    change = _record(
        evening,
        Change.Kind.SEATS,
        by,
        before={"players": players, "first_dealer": before},
        after={"players": players, "first_dealer": evening.first_dealer, "redealt": True},
    )
    _rescore(evening, change, 1)
    return evening


def record_rename(player: Player, before: str, by) -> None:
    """On every open evening `player` sits at, the record that the admin renamed them
    from `before` (in the rename's transaction): a new version, so that the phones
    following it show the new name without a reload (the whole sheet, the chips)."""
    if player.name != before:
        open_evenings = Evening.objects.filter(status=Evening.Status.OPEN, seats__player=player)
        _record_renamed(open_evenings, by, "player", player.pk, before, player.name)


def record_runde_rename(runde: Runde, before: str, by) -> None:
    """On every open evening of `runde`, the record that the admin renamed it from
    `before`: a new version, so that the phones following it show the new name in the
    heading without a reload (walk 29), and the history says so."""
    if runde.name != before:
        _record_renamed(runde.evenings.open(), by, "runde", runde.pk, before, runde.name)


def _record_renamed(evenings, by, what: str, pk: int, before: str, after: str) -> None:
    """A RENAME change on each of the open `evenings`, of a player or a Runde (`what`)."""
    for evening_id in evenings.order_by("pk").values_list("pk", flat=True):
        evening = _locked(evening_id)
        if not evening.is_open:  # closed since the read above
            continue
        _record(
            evening,
            Change.Kind.RENAME,
            by,
            before={what: pk, "name": before},
            after={what: pk, "name": after},
        )


@transaction.atomic
def continue_at_new_table(
    evening_id: int,
    players: list[Player],
    first_dealer: int,
    by,
    seen: int | None = None,
    key: uuid.UUID | None = None,
) -> Evening:
    """Someone joins or leaves after games were booked: the evening is closed as it
    stands (its Abrechnung stays open to payments) and a new evening of the Runde begins
    with the new table; the Runde's balances count both. `seen` as for change_seats;
    the form's `key` starts one new evening however often the form is sent."""
    evening = _locked(evening_id)
    if key is not None and (started := Evening.objects.filter(key=key).first()) is not None:
        if started.runde_id != evening.runde_id:
            raise EveningError(_("Dieses Formular wurde schon verwendet. Bitte neu laden."))
        return started
    _require_reseatable(evening, seen)
    if [p.pk for p in players] == [s.player_id for s in evening.seats.order_by("position")]:
        raise EveningError(
            _("Am Tisch sitzen dieselben wie bisher: dafür braucht es keinen neuen Abend.")
        )
    close_evening(evening.pk, by)  # undone with the rest if start_evening refuses the table
    new = start_evening(evening.runde, players, first_dealer, by, key=key, continues=evening)
    if evening.share_token:
        _move_share_link(evening, new, by)
    return new


def _move_share_link(old: Evening, new: Evening, by) -> None:
    """The table's read-only link (its QR code on the table) goes on with the table: it
    shows the new evening from now on; the old evening's final sheet no longer."""
    token = old.share_token
    Evening.objects.filter(pk=old.pk).update(share_token=None)
    Evening.objects.filter(pk=new.pk).update(share_token=token)
    old.share_token, new.share_token = None, token
    Change.objects.create(
        evening=old, kind=Change.Kind.SHARE, by=by, after={"revoked": True, "moved_to": new.pk}
    )


def continued_at(evening: Evening) -> Evening | None:
    """The evening that went on from `evening` at a new table, if one did (only a closed
    money evening can have one: nothing is read for any other)."""
    if evening.is_open:
        return None
    return went_on_at(evening)


def tables_before(evening: Evening) -> list[int]:
    """The ids of the tables the night went on from to reach `evening` (someone joined or
    left), the one just before it first; none for an evening begun as one."""
    ids: list[int] = []
    at = evening.continues_id
    while at is not None and at not in ids:
        ids.append(at)
        at = Evening.objects.filter(pk=at).values_list("continues_id", flat=True).first()
    return ids


def tables_after(evening: Evening) -> list[int]:
    """The ids of the tables the night went on at after `evening`, in order."""
    ids: list[int] = []
    at = evening.pk
    while at := Evening.objects.filter(continues_id=at).values_list("pk", flat=True).first():
        if at in ids:
            break
        ids.append(at)
    return ids


def night_sums(evening_ids: list[int], kinds: list[str]) -> dict[int, int]:
    """Each player's sum of the `kinds` of ledger entries over the evenings
    `evening_ids` (kept sums, EveningTotal), by player id; zero sums left out."""
    sums = (
        EveningTotal.objects.filter(evening_id__in=evening_ids, kind__in=kinds)
        .values_list("player_id")
        .annotate(total=Sum("amount"))
        .values_list("player_id", "total")
    )
    return {pid: total for pid, total in sums if total}


def went_on_at(evening: Evening) -> Evening | None:
    """The new table `evening` went on at, also while it is open again for corrections."""
    if evening.is_table:
        return None
    return Evening.objects.filter(continues=evening).first()


WENT_ON_NO_SEATS = gettext_lazy(
    "Dieser Abend ging schon an einem neuen Tisch weiter: hier lässt sich nur noch "
    "korrigieren, die Sitzordnung nicht."
)
CORRECTIONS_ONLY_NO_SEATS = gettext_lazy(
    "Dieser Abend ist nur zum Korrigieren wieder offen, die Runde spielt inzwischen an "
    "einem neueren Abend: die Sitzordnung lässt sich hier nicht ändern."
)


def no_seats_because(evening: Evening) -> str:
    """Why the seats of an evening that takes no new game cannot change (walk 34)."""
    return str(CORRECTIONS_ONLY_NO_SEATS if evening.corrections_only else WENT_ON_NO_SEATS)


def _require_reseatable(evening: Evening, seen: int | None) -> None:
    """The (locked) evening is a money evening that is open and still at version `seen`
    (if given), as the seating form showed it."""
    if seen is not None and seen != evening.version:
        raise SeatsMoved(_("Inzwischen hat sich am Abend etwas geändert: so steht er jetzt."))
    _require_open(evening)
    if evening.is_table or evening.settles_runde:
        raise EveningError(_("An diesem Tisch lässt sich die Sitzordnung nicht ändern."))
    if evening.closed_for_play:
        # Opened again after it went on at a new table, or after the Runde played on: a
        # second table of the same players would run beside the one that plays on.
        raise EveningError(no_seats_because(evening))


def _seat(evening: Evening, players: list[Player]) -> None:
    """The evening's seats: `players` in seating order."""
    Seat.objects.bulk_create(
        Seat(evening=evening, player=player, position=position)
        for position, player in enumerate(players)
    )


def _require_table(runde: Runde, players: list[Player], first_dealer: int) -> None:
    """A table the Runde can play at: 4, 5 or 6 of its club's players, each once, one of
    them dealing first."""
    if len(players) not in SEATS:
        raise EveningError(_("Ein Abend braucht 4, 5 oder 6 Spieler."), "players")
    if runde.kind == Runde.Kind.PROHOF and len(players) > 5:
        raise EveningError(_("An einem Turniertisch sitzen 4 oder 5 Spieler."), "players")
    if len({p.pk for p in players}) != len(players):
        raise EveningError(_("Jeder Spieler kann nur einen Platz haben."), "players")
    if any(p.club_id != runde.club_id for p in players):
        raise EveningError(_("Nur Spieler des Vereins können mitspielen."), "players")
    if not 0 <= first_dealer < len(players):
        raise EveningError(_("Der erste Geber muss am Tisch sitzen."), "first_dealer")


def _locked(evening_id: int) -> Evening:
    # Lock the evening row only: other evenings on the same tariff version go on.
    return (
        Evening.objects.select_for_update(of=("self",)).select_related("tariff").get(pk=evening_id)
    )


def _require_open(evening: Evening, nothing: str = "") -> None:
    """`nothing`: what the refused request did not do, said first ("Nichts
    zurückgenommen"); walk 68: "Der Abend ist abgeschlossen." alone read as the word of
    a close that had just worked."""
    if not evening.is_open:
        # A tournament table is ended (by the director, or with its tournament).
        if nothing:
            said = (
                _("%(nothing)s: dieser Tisch ist beendet.")
                if evening.is_table
                else _("%(nothing)s: der Abend ist abgeschlossen.")
            )
            raise EveningError(said % {"nothing": nothing})
        raise EveningError(
            _("Dieser Tisch ist beendet.")
            if evening.is_table
            else _("Der Abend ist abgeschlossen.")
        )


def score(
    evening: Evening, games: list[Game] | None = None, seated: list[int] | None = None
) -> EveningResult:
    """The engine's scoring of the evening's booked games, players named by id; `seated`:
    the players' ids in seating order, if the caller has read them."""
    games = games if games is not None else list(evening.games.booked())
    if seated is None:
        seated = list(evening.seats.values_list("player_id", flat=True))
    players = [str(p) for p in seated]
    engine = [g.for_engine() for g in games]
    result = score_evening(evening.tariff.rules, engine, players)
    if not evening.carries_bock or not (carried := bock_window(evening, [])):
        return result
    # Going on from an earlier table, its first games' Bock is that table's (carried_in).
    after = score_after(evening.tariff.rules, carried, engine)
    totals = {player: after.totals.get(player, 0) for player in result.totals}
    return EveningResult(after.games, totals, after.bock_remaining)


def bock_open(evening: Evening) -> int:
    """How many Bock games the evening's next game would begin with (0 without Bock):
    said before it closes, as they lapse with it."""
    if not evening.tariff.plays_bock:
        return 0
    before = bock_window(evening, games_before(evening))
    return score_after(evening.tariff.rules, before, []).bock_remaining


def games_before(evening: Evening, number: int | None = None) -> list[Game]:
    """The booked games that decide whether game `number` (None: the next one) is a Bock
    game: the last BOCK_GAMES before it, in order (scoring.score_after reads no more)."""
    before = evening.games.booked().order_by("-number")
    if number is not None:
        before = before.filter(number__lt=number)
    return list(before[:BOCK_GAMES])[::-1]


def bock_window(evening: Evening, before: list[Game]) -> list:
    """The engine's games that decide the Bock of the game after `before` (this table's
    last booked games before it, games_before's answer): those, and if they are fewer
    than BOCK_GAMES, the last games of the table the evening went on from (carried_in)."""
    window = [g.for_engine() for g in before]
    if len(before) < BOCK_GAMES and evening.carries_bock:
        window = [g.for_engine() for g in carried_in(evening, BOCK_GAMES - len(before))] + window
    return window


def carried_bock(evening: Evening) -> int:
    """How many Bock games the table begins with, carried in from the one it went on from
    (carried_in); 0 if none."""
    if not (evening.carries_bock and evening.tariff.plays_bock):
        return 0
    return score_after(evening.tariff.rules, bock_window(evening, []), []).bock_remaining


def carried_in(evening: Evening, wanted: int = BOCK_GAMES) -> list[Game]:
    """The last `wanted` booked games (oldest first) of the tables `evening` went on from,
    where its Bock goes on from theirs.

    Someone joined or left, and the night went on at a new table (continue_at_new_table):
    it is still the running evening, and "Eine Bockrunde gilt nur für den laufenden Abend"
    lets its Bockrunde go on there (walks 84 to 86 expected so). It does while the tables
    play the same tariff version: one that plays the Runde's newer tariff plays it "as if
    it had begun with it" (apply_tariff), and whether a game of the old one triggered is
    the old rules' word. A table without as many games hands on the one before it."""
    games: list[Game] = []
    table = evening
    while len(games) < wanted and table.carries_bock and table.tariff.plays_bock:
        earlier = Evening.objects.select_related("tariff").get(pk=table.continues_id)
        if earlier.tariff_id != table.tariff_id:
            break
        games = games_before(earlier)[len(games) - wanted :] + games
        table = earlier
    return games


def score_from(evening: Evening, number: int) -> tuple[list[Game], EveningResult]:
    """The booked games from `number` on, and the engine's scoring of them as they continue
    the evening; what a change to game `number` can have touched."""
    games = list(evening.games.booked().filter(number__gte=number))
    before = bock_window(evening, games_before(evening, number))
    return games, score_after(evening.tariff.rules, before, [g.for_engine() for g in games])


def _record(evening: Evening, kind: str, by, **fields) -> Change:
    """A change to the (locked) evening, which makes the evening's next version."""
    evening.version += 1
    numbered = {"last_number": fields["game"].number} if kind == Change.Kind.BOOK else {}
    Evening.objects.filter(pk=evening.pk).update(version=evening.version, **numbered)
    return Change.objects.create(
        evening=evening, kind=kind, by=by, version=evening.version, **fields
    )


def _rescore(
    evening: Evening,
    change: Change,
    number: int,
    scored: tuple[list[Game], EveningResult] | None = None,
) -> None:
    """Bring the ledger in line with the engine after game `number` changed.

    1. Score the booked games from `number` on (Bock depends on the games before).
    2. Sum the ledger per game and player as it stands, for the same games.
    3. For every game whose amounts differ (or that was voided), append entries that
       reverse the old amounts and entries that book the new ones, all linked to `change`.
    4. If the evening went on at a new table, its first games' Bock may have moved with
       it: the same there (_carry_on).

    `scored`: score_from's answer for `number`, if the caller has it already.
    """
    games, result = scored or score_from(evening, number)
    shifted, entries = _differences(evening, number, games, result)
    Game.objects.bulk_update(shifted, ["bock"])
    _append(evening, change, entries)
    _carry_on(evening, change)


def _differences(
    evening: Evening,
    number: int,
    games: list[Game],
    result: EveningResult,
    upto: int | None = None,
) -> tuple[list[Game], list[tuple[int, int, int]]]:
    """What brings the ledger of the games from `number` on (to `upto`) in line with the
    engine's `result` for the booked ones among them, `games`: those whose Bock mark
    moved (changed, not saved), and the entries that reverse old amounts and book new."""
    standing: dict[int, dict[int, int]] = defaultdict(dict)
    rows = LedgerEntry.objects.filter(
        evening=evening, kind=evening.entry_kind, game__number__gte=number
    )
    if upto is not None:
        rows = rows.filter(game__number__lte=upto)
    for game_id, player_id, total in rows.values_list("game_id", "player_id").annotate(
        total=Sum("amount")
    ):
        standing[game_id][player_id] = total

    wanted = {
        game.pk: {int(player): amount for player, amount in game_result.payouts.items()}
        for game, game_result in zip(games, result.games, strict=True)
    }
    shifted = []
    for game, game_result in zip(games, result.games, strict=True):
        if game.bock != game_result.bock:
            game.bock = game_result.bock
            shifted.append(game)
    entries = []
    for game_id in standing.keys() | wanted.keys():
        old, new = standing.get(game_id, {}), wanted.get(game_id, {})
        if old == new:
            continue
        for player_id, amount in old.items():
            if amount:
                entries.append((game_id, player_id, -amount))
        for player_id, amount in new.items():
            entries.append((game_id, player_id, amount))
    return shifted, entries


def _carry_on(evening: Evening, change: Change) -> None:
    """After `change` rescored games of `evening`: if the night went on from it at a new
    table whose Bock goes on from it (carried_in), score that table's first BOCK_GAMES
    games again. If their Bock moved, or the number of Bock games the table begins with,
    the new table records so (Change.Kind.BOCK, naming `change`), with the entries that
    bring its ledger in line: its phones show it, and its sheet is drawn anew. A new
    table with fewer games hands on to the one after it. The new table is locked after
    this one, in the order in which they began."""
    if evening.is_table:
        return
    went_on = (
        Evening.objects.filter(continues=evening, carries_bock=True)
        .values_list("pk", flat=True)
        .first()
    )
    if went_on is None:
        return
    # Whatever the tariffs: one given to this table may end (or begin again) what the new
    # table carries (walk 90: a newer tariff here left its Bock games booked as such).
    new = _locked(went_on)
    games = list(new.games.booked()[:BOCK_GAMES])
    window = bock_window(new, [])
    result = score_after(new.tariff.rules, window, [g.for_engine() for g in games])
    shifted, entries = _differences(new, 1, games, result, upto=games[-1].number if games else 0)
    begins = carried_bock(new)
    # How many it begins with is said where it still shows: in the open count of a table
    # with fewer games (walk 90: said where none of its games moved, it read as noise).
    moved_begin = begins != _begins_with(new) and len(games) < BOCK_GAMES
    if shifted or entries or moved_begin:
        source = change.evening
        moved = _record(
            new,
            Change.Kind.BOCK,
            change.by,
            # What and where the change was, for the history (wording.summarize).
            before={
                "evening": source.pk,
                "started": source.started_at.isoformat(),
                "change": change.pk,
                # A correction that took back the one before is said so, as its own
                # history heads it (walk 90).
                "kind": "back"
                if change.kind == Change.Kind.CORRECT and taken_back(change)
                else change.kind,
                "game": change.game.number if change.game_id else None,
            },
            after={
                "games": [g.number for g in shifted],
                "now_bock": [g.number for g in shifted if g.bock],
                "bock": begins,
            },
        )
        Game.objects.bulk_update(shifted, ["bock"])
        _append(new, moved, entries)
    if len(games) < BOCK_GAMES:
        _carry_on(new, change)


def _begins_with(evening: Evening) -> int:
    """How many Bock games the table going on from another began with, as last recorded:
    by its start, by the latest change at an earlier table that moved it, or by a tariff
    given to it since."""
    latest = (
        evening.changes.filter(kind__in=[Change.Kind.START, Change.Kind.BOCK, Change.Kind.TARIFF])
        .order_by("-pk")
        .values_list("after", flat=True)
        .first()
    )
    return (latest or {}).get("bock", 0)


def _append(evening: Evening, change: Change, entries: list[tuple[int, int, int]]) -> None:
    """Ledger entries (game, player, cents) of one change; the database keeps the totals."""
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            evening=evening,
            game_id=game_id,
            change=change,
            player_id=player_id,
            kind=evening.entry_kind,
            amount=amount,
        )
        for game_id, player_id, amount in entries
    )


GAME_KEY_CONSTRAINT = "game_key_unique"
KEY_REUSED = gettext_lazy(
    "Mit diesem Formular ist schon ein anderes Spiel gebucht (die Antwort ging unterwegs "
    "verloren). Bitte dieses Spiel im neuen Formular nochmal eingeben."
)


class KeyReused(EveningError):
    """The form's key was used for a different game: refuse, never book twice."""


class StaleDeal(EveningError):
    """The entry form was made for a deal that another phone has moved on since."""


class AlreadyUndone(EveningError):
    """ "Letztes Spiel zurücknehmen" sent again (a double tap, a reload after a lost
    answer): the first one took the game back, nothing more is."""


class StaleClose(EveningError):
    """ "Abend abschließen" tapped on an Abrechnung older than the evening: booked,
    corrected or paid on another phone since."""


class StaleCorrection(EveningError):
    """The correction form was made for the game as it was before another phone
    corrected it: saving it would silently undo that correction."""


class MovedAmounts(StaleCorrection):
    """The correction would book other amounts than its preview showed: another phone
    changed the evening since (a game before it corrected, say, which made it a Bock
    game). The choices stand; the preview is to be seen again (walk 38)."""


def shown_amounts(data: GameInput, payouts: list[tuple[int, int]], bock: bool) -> str:
    """What a correction's preview showed, to be sent back with the save: the game as
    chosen, and its amounts (`payouts`: (player id, cents), in any order)."""
    amounts = ",".join(f"{pid}:{cents}" for pid, cents in sorted(payouts))
    return f"{data.fingerprint()}|{'B' if bock else ''}|{amounts}"


@dataclasses.dataclass(frozen=True)
class Booking:
    """A booked game, what the engine made of it, and the deal of the next game."""

    game: Game
    created: bool  # False: the key had booked this game already
    result: GameResult | None  # None when it was booked already
    next: Deal
    seats: list[Seat]
    version: int  # the evening's version after it
    standing: dict[int, int]  # every seated player's game total after it


def book_game(
    evening_id: int, key: uuid.UUID, data: GameInput, by, deal_token: str | None = None
) -> tuple[Game, bool]:
    """book(), answering only the game and whether this call booked it."""
    booking = book(evening_id, key, data, by, deal_token)
    return booking.game, booking.created


class _KeyTaken(Exception):
    """The form's key has booked a game already (raised inside the booking transaction)."""


def book(
    evening_id: int,
    key: uuid.UUID,
    data: GameInput,
    by,
    deal_token: str | None = None,
    seats: list[Seat] | None = None,
    evening: Evening | None = None,
    tariff_id: int | None = None,
    shown: str | None = None,
) -> Booking:
    """Book the next game of the evening; `created` is False if this key booked it already.

    The key is made when the entry form is shown: a double tap, a retried request or a
    reload after a lost answer finds the game booked under it instead of booking again;
    the same key with another game is refused (KeyReused). `deal_token` is the deal the
    form was made for (Deal.token); if another phone has booked, undone or restored a
    game since, StaleDeal is raised and nothing is booked, so the same game is never
    booked twice from two phones. `seats`: the evening's seats, and `evening` the evening
    (with its tariff, and its state if evening_of read it), if the caller has read them.
    `tariff_id`: the tariff whose amounts the form showed; if an admin gave the evening
    another since (apply_tariff), StaleTariff, and nothing is booked. `shown`: what the
    form's preview showed (shown_amounts); if it was of `data` and the game would now
    book other amounts (another phone corrected a game before it into a Ramsch, which
    makes this one a Bock game), MovedAmounts, and nothing is booked (walk 58).

    The game is scored after the last few games before it, so a booking costs the same
    at game 5 and at game 500: one read of the evening's state and last games, one
    statement that writes the game if the evening is still at the version read (every
    change to an evening makes a new version), else the state is read again.
    """
    if evening is None:
        evening = Evening.objects.select_related("tariff").get(pk=evening_id)
    seats = seats if seats is not None else seats_of(evening)
    state = evening.state
    try:
        for _attempt in range(OPTIMISTIC_ATTEMPTS):
            if state is None:
                state = state_of(evening.pk, BOCK_GAMES)
            if _scored_after_earlier_table(evening, state):
                break
            try:
                return _book(evening, state, key, data, by, deal_token, seats, shown)
            except _Moved:
                state = None
                _tariff_again(evening, tariff_id)
                if not evening.last_number:  # before the first game the seats may change
                    seats = _seats_again(evening)
        # Phones keep booking into this evening between our reads and writes: take its
        # lock, under which nobody else changes it.
        with transaction.atomic():
            _locked(evening.pk)
            _tariff_again(evening, tariff_id)
            state = state_of(evening.pk, BOCK_GAMES)
            if not state.last_number:
                seats = _seats_again(evening)
            return _book(evening, state, key, data, by, deal_token, seats, shown)
    except _KeyTaken:
        pass
    # What did the key book?
    existing = Game.objects.select_related("evening").filter(key=key).first()
    if existing is None or existing.evening_id != evening_id or GameInput.of(existing) != data:
        raise KeyReused(KEY_REUSED)
    evening = existing.evening
    seats = seats_of(evening)
    return Booking(
        existing,
        False,
        None,
        next_deal(evening, seats),
        seats,
        evening.version,
        standing(evening, [seat.player for seat in seats]),
    )


def _scored_after_earlier_table(evening: Evening, state: State) -> bool:
    """Whether the next game's Bock is read from the table the evening went on from
    (carried_in). A correction there rescores this table under its lock (_carry_on), so
    such a booking takes that lock before it reads: then either the correction finds the
    game booked, or the booking finds the table corrected, and never scores the game
    after a table as it was before a correction that then misses it."""
    return evening.carries_bock and len(state.recent) < BOCK_GAMES and evening.tariff.plays_bock


class StaleTariff(EveningError):
    """The evening plays another tariff than the entry form was shown with (apply_tariff
    since): nothing booked, the phone shows the new amounts first."""


def _tariff_again(evening: Evening, shown: int | None) -> None:
    """The evening's tariff, read again if an admin gave the evening another meanwhile
    (apply_tariff): a booking that lost the race is scored by the one it is written
    under; or, if the form showed the amounts of another (`shown`), StaleTariff."""
    tariff_id = Evening.objects.values_list("tariff_id", flat=True).get(pk=evening.pk)
    if tariff_id != evening.tariff_id:
        evening.tariff = Tariff.objects.get(pk=tariff_id)
    if shown is not None and shown != tariff_id:
        raise StaleTariff(RETARIFFED)


RETARIFFED = gettext_lazy(
    "Nichts gebucht: der Abend spielt inzwischen mit dem neuen Tarif der Runde. Deine "
    "Auswahl bleibt; bitte die Vorschau prüfen und nochmal speichern."
)


def _seats_again(evening: Evening) -> list[Seat]:
    """The evening's seats and first dealer, read again (change_seats may have seated
    the table anew)."""
    evening.first_dealer = Evening.objects.values_list("first_dealer", flat=True).get(pk=evening.pk)
    evening.__dict__.pop("_seats", None)
    return seats_of(evening)


# Bookings into one evening from several phones at once: how often a booking reads the
# evening again when another change came between its read and its write, before it takes
# the evening's lock.
OPTIMISTIC_ATTEMPTS = 2


class _Moved(Exception):
    """The evening changed between the booking's read and its write: nothing written."""


def _book(
    evening: Evening, state: State, key, data: GameInput, by, deal_token, seats, shown=None
) -> Booking:
    evening.state = state
    evening.status, evening.version, evening.last_number = (
        state.status,
        state.version,
        state.last_number,
    )
    recent = state.recent
    deal = next_deal(evening, seats, state)
    stale = deal_token is not None and deal_token != deal.token
    if not evening.is_open or stale:
        # A retry of a booking that went through finds the deal moved on: that is fine.
        if Game.objects.filter(key=key).exists():
            raise _KeyTaken
        _require_open(evening)
        raise StaleDeal(_("Inzwischen hat sich am Abend etwas geändert."))
    _require_room(evening)
    if evening.play_over:
        raise EveningError(_play_over(evening))
    game = Game(
        evening=evening,
        number=deal.number,
        key=key,
        dealer=deal.dealer,
        seating=[p.pk for p in deal.playing],
        created_by=by,
    )
    data.apply_to(game)
    before = bock_window(evening, recent)
    try:
        result = score_after(evening.tariff.rules, before, [game.for_engine()]).games[0]
    except ScoringError as error:
        raise EveningError(error.message_de, error.key) from None
    payouts = {int(player): cents for player, cents in result.payouts.items()}
    if (
        shown is not None
        and shown.startswith(f"{data.fingerprint()}|")
        and shown != shown_amounts(data, list(payouts.items()), result.bock)
    ):
        raise MovedAmounts(
            _(
                "Nichts gebucht: am Abend wurde inzwischen etwas geändert, und das Spiel zählt "
                "jetzt anders als in der Vorschau. Die Vorschau zeigt es neu; bitte prüfen und "
                "noch einmal speichern."
            )
        )
    game.bock = result.bock
    try:
        totals = _write_booking(evening, game, data, by, payouts)
    except IntegrityError as error:
        # A key that booked before (or races into another evening) meets the unique
        # constraint; nothing of this booking is kept. book() looks the key up.
        if getattr(getattr(error.__cause__, "diag", None), "constraint_name", None) == (
            GAME_KEY_CONSTRAINT
        ):
            raise _KeyTaken from None
        raise
    evening.version += 1
    evening.last_number = game.number
    dealer = next(s.position for s in seats if s.player_id == deal.dealer.pk)
    after = {s.player_id: totals.get(s.player_id, 0) + payouts.get(s.player_id, 0) for s in seats}
    next_one = deal_at(seats, dealer + 1, deal.number + 1)
    return Booking(game, True, result, next_one, seats, evening.version, after)


# One statement writes a booked game if the evening is still open and at the version the
# booking read: the evening's new version, the game, its change and its ledger entries,
# as data-modifying CTEs, in one round trip. The UPDATE comes first (the rest selects from
# it) and holds the evening's row lock to the commit, as every other change to an evening
# does, so the evening's changes are still chained one after the other. It answers the
# game totals as they stood before (the statement's snapshot), or no row when the evening
# has moved on. The database's triggers check and total the entries as for any insert.
# The game's columns come from the model.
BOOKING_SQL = """
WITH version AS (
    UPDATE evenings_evening SET version = %(version)s + 1, last_number = %(number)s
     WHERE id = %(evening)s AND version = %(version)s AND status = %(open)s
    RETURNING id
), game AS (
    INSERT INTO evenings_game ({columns}) SELECT {values} FROM version RETURNING id
), change AS (
    INSERT INTO evenings_change (evening_id, game_id, kind, by_id, at, after, version)
    SELECT %(evening)s, game.id, 'book', %(by)s, %(at)s, %(after)s::jsonb, %(version)s + 1
      FROM game RETURNING id, game_id
), entries AS (
    INSERT INTO evenings_ledgerentry
        (evening_id, game_id, change_id, player_id, kind, amount, created_at)
    SELECT %(evening)s, change.game_id, change.id, p.player, %(kind)s, p.amount, %(at)s
      FROM change, unnest(%(players)s::bigint[], %(amounts)s::bigint[]) AS p(player, amount)
)
SELECT game.id,
       (SELECT coalesce(json_object_agg(player_id, amount), '{{}}')
          FROM evenings_eveningtotal WHERE evening_id = %(evening)s AND kind = %(kind)s)
  FROM game
"""


@functools.cache
def _booking_sql() -> tuple[Prepared, list]:
    """BOOKING_SQL with the game's columns, and those columns' fields."""
    fields = [f for f in Game._meta.concrete_fields if not f.primary_key]
    sql = BOOKING_SQL.format(
        columns=", ".join(connection.ops.quote_name(f.column) for f in fields),
        values=", ".join(f"%(f_{f.column})s" for f in fields),
    )
    return Prepared("book_game", sql), fields


def _write_booking(evening: Evening, game: Game, data: GameInput, by, payouts) -> dict:
    """Write the game (BOOKING_SQL); the game totals before it. _Moved if the evening is no
    longer at the version read."""
    sql, fields = _booking_sql()
    params = {
        f"f_{f.column}": f.get_db_prep_save(f.pre_save(game, add=True), connection) for f in fields
    }
    params |= {
        "evening": evening.pk,
        "open": Evening.Status.OPEN,
        "by": by.pk,
        "at": timezone.now(),
        "after": json.dumps(data.as_json()),
        "version": evening.version,
        "number": game.number,
        "kind": evening.entry_kind,
        "players": list(payouts),
        "amounts": list(payouts.values()),
    }
    # One statement is one transaction: PostgreSQL commits it (durably, the deferred
    # checks included) before it answers, so it needs no BEGIN and no COMMIT of its own,
    # two round trips of three. In a caller's transaction (the evening's lock taken) it
    # is a savepoint: a key taken rolls back only this.
    with (
        transaction.atomic() if connection.in_atomic_block else contextlib.nullcontext(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql.sql(), params)
        row = cursor.fetchone()
    if row is None:
        raise _Moved
    game.pk, totals = row
    return {int(player): cents for player, cents in totals.items()}


@transaction.atomic
def correct_game(
    evening_id: int,
    game_id: int,
    data: GameInput,
    by,
    seen: str | None = None,
    shown: str | None = None,
) -> Game:
    """Change an earlier game; every later game is rescored (the Bock chain may shift).

    `seen`: the fingerprint of the game as the correction form showed it. If the game is
    no longer so (another phone corrected it since), StaleCorrection, and nothing changes;
    unless it is already as `data` says (the same correction sent twice). `shown`: what
    the form's preview showed (shown_amounts); if it was of `data` and the game would
    now book other amounts, MovedAmounts, and nothing changes.
    """
    evening = _locked(evening_id)
    _require_open(evening)
    game = evening.games.filter(pk=game_id).first()
    if game is None or not game.is_booked:
        raise StaleCorrection(gone_word(game))
    before = GameInput.of(game)
    if before == data:
        return game
    if seen is not None and seen != before.fingerprint():
        raise StaleCorrection(
            _(
                "Inzwischen auf einem anderen Handy korrigiert – nichts geändert. So steht "
                "das Spiel jetzt; bitte prüfen und noch einmal speichern."
            )
        )
    data.apply_to(game)
    before_it = bock_window(evening, games_before(evening, game.number))
    try:
        result = score_after(evening.tariff.rules, before_it, [game.for_engine()]).games[0]
    except ScoringError as error:
        raise EveningError(error.message_de, error.key) from None
    payouts = [(pid, result.payouts[str(pid)]) for pid in game.seating]
    if (
        shown is not None
        and shown.startswith(f"{data.fingerprint()}|")
        and shown != shown_amounts(data, payouts, result.bock)
    ):
        raise MovedAmounts(
            _(
                "Nichts gespeichert: am Abend hat sich inzwischen etwas geändert, und das Spiel "
                "zählt jetzt anders als in der Vorschau. So sähe es jetzt aus; bitte prüfen "
                "und noch einmal speichern."
            )
        )
    game.save()
    change = _record(
        evening,
        Change.Kind.CORRECT,
        by,
        game=game,
        before=before.as_json(),
        after=data.as_json(),
    )
    _rescore(evening, change, game.number)
    return game


@dataclasses.dataclass(frozen=True)
class Retariffed:
    """What apply_tariff did: the evening, and whether this call changed its tariff
    (False: it played the tariff already, the form sent twice)."""

    evening: Evening
    changed: bool


def tariff_refusal(evening: Evening, live: list[Change] | None = None) -> str:
    """Why the (open) money evening cannot take the Runde's newer tariff, in German; ""
    if it can. Paid money stays as paid: a payment made at the old amounts would no
    longer be what was owed (`live`: the evening's payments, if read already)."""
    if evening.is_table or evening.settles_runde:
        return _("Dieser Abend hat keinen Tarif zum Umstellen.")
    if not evening.is_open and (ausgleich := settled_by(evening)) is not None:
        return settled_for_good(ausgleich)  # it cannot be opened again (walk 30)
    if not evening.is_open:
        return _("Der Abend ist abgeschlossen: zum Umstellen erst wieder öffnen.")
    if _live(payments(evening) if live is None else live):
        return str(PAID_BEFORE_TARIFF)
    return ""


PAID_BEFORE_TARIFF = gettext_lazy(
    "An diesem Abend ist schon bezahlt worden: erst die Zahlungen in der Abrechnung "
    "stornieren, dann den Tarif umstellen."
)


def tariff_misfits(tariff: Tariff, games: Sequence[Game]) -> str:
    """Which of the evening's booked `games` `tariff` cannot score, and why, in German
    (a Jungfrau where it plays none), with what to do; "" if it takes them all. Not only
    the first such game, as the engine would say: the admin corrects them all (walk 48),
    and a Jungfrau's game says whose it is (walk 49)."""
    misfits: dict[str, list[Game]] = defaultdict(list)
    for game in games:
        try:
            validate_game(tariff.rules, game.for_engine())
        except ScoringError as error:
            why = _("er spielt ohne Jungfrau.") if error.key == "jungfrauen" else error.message_de
            misfits[why].append(game)
    if not misfits:
        return ""
    names = dict(
        Player.objects.filter(
            pk__in={pk for found in misfits.values() for game in found for pk in game.jungfrauen}
        ).values_list("pk", "name")
    )

    def named(game: Game) -> str:
        if not game.jungfrauen:
            return str(game.number)
        who = ", ".join(names.get(pk, "?") for pk in game.jungfrauen)
        return _("%(n)s (Jungfrau: %(who)s)") % {"n": game.number, "who": who}

    said = [
        ngettext(
            "Spiel %(games)s passt nicht zum neuen Tarif: %(why)s",
            "Die Spiele %(games)s passen nicht zum neuen Tarif: %(why)s",
            len(found),
        )
        % {"games": ", ".join(named(game) for game in found), "why": why}
        for why, found in misfits.items()
    ]
    said.append(
        _(
            "Erst korrigieren (die Zeile im Blatt antippen), oder den Tarif der Runde so "
            "ändern, dass er sie nimmt; dann übernehmen."
        )
    )
    return " ".join(said)


def retariffed_since(evening: Evening, seen: int | None) -> bool:
    """Whether the evening took a newer tariff (apply_tariff) after version `seen`, the
    one a phone's page showed: its amounts were of the old one (walks 30, 31)."""
    return (
        seen is not None
        and evening.changes.filter(kind=Change.Kind.TARIFF, version__gt=seen).exists()
    )


@transaction.atomic
def apply_tariff(evening_id: int, tariff_id: int, by) -> Retariffed:
    """Play the open money evening with the Runde's current tariff (`tariff_id`: the
    version the admin was shown; if the Runde saved another since, nothing changes), as
    if it had begun with it: a wrong amount noticed after a few games. Every game is
    scored anew from the first; the ledger keeps the old amounts and reverses them, under
    one change that names both versions."""
    evening = _locked(evening_id)
    current = evening.runde.tariffs.latest()
    if evening.tariff_id == tariff_id == current.pk:
        return Retariffed(evening, False)
    if tariff_id != current.pk:
        raise EveningError(
            _("Inzwischen gilt ein anderer Tarif der Runde: bitte prüfen und nochmal tippen.")
        )
    if refusal := tariff_refusal(evening):
        raise EveningError(refusal)
    before = evening.tariff
    carried = carried_bock(evening)
    evening.tariff = current
    games = list(evening.games.booked())
    if misfits := tariff_misfits(current, games):
        raise EveningError(misfits)
    try:
        result = score(evening, games)
    except ScoringError as error:  # a game the new rules do not take
        raise EveningError(error.message_de, error.key) from None
    Evening.objects.filter(pk=evening.pk).update(tariff=current)
    # Kept with the change for the history: what changed, as the Tarifverlauf says it,
    # and the games whose Bock it flipped (another Bock rule), as a correction's shifts.
    changed = [list(line) for line in current.changed_from(before)]
    flipped = [g.pk for g, r in zip(games, result.games, strict=True) if g.bock != r.bock]
    change = _record(
        evening,
        Change.Kind.TARIFF,
        by,
        before={"tariff": before.pk},
        after={"tariff": current.pk, "changed": changed, "bock_flipped": flipped}
        # The Bock games carried in from the table before, which the new tariff's do not
        # go on from (carried_in): said with it (walk 89).
        | ({"carried_dropped": carried} if carried and not carried_bock(evening) else {})
        | ({"bock": carried_bock(evening)} if evening.carries_bock else {}),
    )
    _rescore(evening, change, 1)
    return Retariffed(evening, True)


def _void(evening: Evening, game: Game, by, kind: str) -> Game:
    game.voided_at = timezone.now()
    game.save(update_fields=["voided_at"])
    change = _record(evening, kind, by, game=game, before=GameInput.of(game).as_json())
    _rescore(evening, change, game.number)
    return game


class StrikeMoved(EveningError):
    """Striking the game would now do other than its panel showed (strike_shown): another
    phone changed the evening since, a game before it corrected, say, so that it is no
    longer a Bock game. Nothing is struck; the panel is to be seen again."""


@transaction.atomic
def void_game(
    evening_id: int,
    game_id: int,
    by,
    seen: int | None = None,
    shown: str | None = None,
    effects: str | None = None,
) -> Game:
    """Strike a game: it stays on record but no longer counts; later games are rescored.

    `seen`: the evening's version the phone showed when "Spiel streichen" was tapped;
    `shown`: the game as its panel showed it (GameInput.fingerprint). If the game changed
    since (corrected on another phone, or struck and restored: this tap sent again
    later), nothing is struck: the game is not the one the phone showed. `effects`: what
    the panel said striking it does (strike_shown); if it would now do otherwise,
    StrikeMoved, and nothing is struck."""
    evening = _locked(evening_id)
    _require_open(evening, _("Nichts gestrichen"))
    game = evening.games.filter(pk=game_id).first()
    if game is None or not game.is_booked:
        raise EveningError(gone_word(game))
    if retariffed_since(evening, seen):
        raise EveningError(
            _(
                "Nichts gestrichen: der Abend wurde inzwischen mit dem neuen Tarif der Runde "
                "neu gewertet. Bitte in der Tabelle prüfen, wie es jetzt steht; soll es weg, "
                "dort öffnen und nochmal „Spiel streichen“ tippen."
            )
        )
    if (seen is not None and game.changes.filter(version__gt=seen).exists()) or (
        shown and shown != GameInput.of(game).fingerprint()
    ):
        raise EveningError(
            _(
                "Nichts gestrichen: das Spiel wurde inzwischen geändert. Bitte in der Tabelle "
                "prüfen, wie es jetzt steht; soll es weg, dort öffnen und nochmal „Spiel "
                "streichen“ tippen."
            )
        )
    if effects is not None:
        around = around_game(evening, game)
        if effects != strike_shown(around, strike_effects(evening, around)):
            raise StrikeMoved(
                _(
                    "Nichts gestrichen: am Abend hat sich inzwischen etwas geändert, und das "
                    "Streichen wirkt jetzt anders als angezeigt. So sähe es jetzt aus; soll "
                    "das Spiel weg, bitte nochmal „Spiel streichen“ tippen."
                )
            )
    return _void(evening, game, by, Change.Kind.VOID)


@transaction.atomic
def undo_last(evening_id: int, by, seen: int | None = None) -> Game:
    """Take back the last booked game.

    `seen`: the evening's version the phone showed when "Letztes Spiel zurücknehmen" was
    tapped. If anything changed since (another phone booked, or this tap was sent twice:
    a double tap, a reload after a lost answer), nothing is taken back: the last game now
    may not be the one the phone showed."""
    evening = _locked(evening_id)
    _require_open(evening, _("Nichts zurückgenommen"))
    if seen is not None and seen != evening.version:
        just_undone = evening.changes.filter(version=seen + 1, kind=Change.Kind.UNDO)
        undone = just_undone.select_related("game").first() if seen + 1 == evening.version else None
        if undone is not None and undone.by_id == by.pk:
            # The one change since was an undo of the same person's: this tap, sent again.
            raise AlreadyUndone(
                _(
                    "Spiel %(number)s ist schon zurückgenommen: dein Tippen war angekommen, "
                    "auf diesem oder einem anderen Gerät."
                )
                % {"number": undone.game.number}
            )
        if undone is not None:
            # Another phone took the same game back (walk 58: "nochmal tippen" alone
            # invited taking back the one before it too).
            raise EveningError(
                _(
                    "Nichts zurückgenommen: Spiel %(number)s ist eben auf einem anderen Handy "
                    "zurückgenommen worden. Soll noch ein Spiel zurück, bitte erst prüfen, "
                    "welches jetzt das letzte ist."
                )
                % {"number": undone.game.number}
            )
        raise EveningError(
            _(
                "Nichts zurückgenommen: am Abend hat sich inzwischen etwas geändert. "
                "Bitte prüfen, welches Spiel jetzt das letzte ist, und nochmal tippen."
            )
        )
    if evening.closed_for_play:
        raise EveningError(_play_over(evening))
    game = evening.games.booked().order_by("-number").first()
    if game is None:
        raise EveningError(_("Es gibt noch kein Spiel zum Zurücknehmen."))
    return _void(evening, game, by, Change.Kind.UNDO)


def gone_word(game: Game | None) -> str:
    """What a phone is told of a game that no longer counts since its panel was opened:
    struck, or taken back (walk 58: "gestrichen" for a game taken back)."""
    last = (
        None
        if game is None
        else game.changes.filter(kind__in=[Change.Kind.VOID, Change.Kind.UNDO])
        .order_by("-pk")
        .values_list("kind", flat=True)
        .first()
    )
    if last == Change.Kind.UNDO:
        return _("Das Spiel wurde inzwischen zurückgenommen – nichts geändert.")
    return _("Das Spiel wurde inzwischen gestrichen – nichts geändert.")


# Changes that leave the games as they are (restorable looks past them).
NOT_TO_GAMES = [Change.Kind.SHARE, Change.Kind.PAYMENT, Change.Kind.RENAME]


def restorable(evening: Evening) -> Change | None:
    """The void, undo or correction that can still be taken back right after it
    ("Rückgängig"): the evening's latest change to its games, while the evening is open."""
    if not evening.is_open:
        return None
    latest = (
        evening.changes.exclude(kind__in=NOT_TO_GAMES)
        .select_related("game", "by")
        .order_by("-pk")
        .first()
    )
    if latest is None or latest.kind not in (
        Change.Kind.VOID,
        Change.Kind.UNDO,
        Change.Kind.CORRECT,
    ):
        return None
    if latest.kind == Change.Kind.CORRECT and taken_back(latest):
        return None  # not offered to take back the taking back (walk 41: it flipped)
    return latest


def taken_back(change: Change) -> bool:
    """Whether the correction `change` took back the one before it of the same game (the
    same two states, the other way round), and that one was no taking back itself: of a
    run of such corrections every other one is (corrected, taken back, corrected again)."""
    history = Change.objects.filter(game_id=change.game_id, pk__lte=change.pk)
    return change.pk in taken_back_ids(history.only("pk", "kind", "game_id", "before", "after"))


def taken_back_ids(changes: Iterable[Change]) -> set[int]:
    """Of `changes` (with all the earlier changes of their games), the corrections that
    took back the one before them (taken_back), read at once: for a history or an
    Abrechnung's note of what changed after paying (walk 50)."""
    by_game: dict[int, list[Change]] = defaultdict(list)
    for change in sorted(changes, key=lambda change: change.pk):
        if change.game_id is not None:
            by_game[change.game_id].append(change)
    found = set()
    for history in by_game.values():
        run = 0  # the mirrored corrections in a row up to `newer`
        for older, newer in pairwise(history):
            mirrored = (newer.before, newer.after) == (older.after, older.before)
            run = run + 1 if newer.kind == older.kind == Change.Kind.CORRECT and mirrored else 0
            if run % 2 == 1:
                found.add(newer.pk)
    return found


@transaction.atomic
def undo_correction(evening_id: int, change_id: int, by) -> Game:
    """Take back a correction ("Rückgängig", walk 38): the game as it was before, as a
    correction of its own on the record, the later games rescored. Refused (EveningError)
    once the game was changed again since; games booked meanwhile do not matter (a phone
    may still show the word after another phone booked)."""
    evening = _locked(evening_id)
    _require_open(evening, _("Nichts zurückgenommen"))
    change = evening.changes.filter(pk=change_id, kind=Change.Kind.CORRECT).first()
    latest = (
        evening.changes.filter(game_id=change.game_id).order_by("-pk").first() if change else None
    )
    if change is None or latest is None or latest.pk != change.pk or taken_back(change):
        raise EveningError(
            _(
                "Nichts zurückgenommen: das Spiel wurde seit der Korrektur wieder geändert. "
                "Es lässt sich in seiner Zeile korrigieren."
            )
        )
    after = GameInput.from_json(change.after)
    return correct_game(
        evening_id, change.game_id, GameInput.from_json(change.before), by, seen=after.fingerprint()
    )


def _play_over(evening: Evening) -> str:
    """Why an evening whose play is over takes no game (Evening.play_over)."""
    if evening.is_table:
        return _("Dieser Tisch ist beendet: hier lässt sich nur noch korrigieren, nichts buchen.")
    if evening.corrections_only:
        return _(
            "Dieser Abend ist zum Korrigieren wieder offen: die Runde spielt inzwischen an "
            "einem neueren Abend, neue Spiele gehören dorthin."
        )
    return _(
        "Dieser Abend ging an einem neuen Tisch weiter: hier lässt sich nur noch korrigieren, "
        "nichts buchen."
    )


def _require_room(evening: Evening) -> None:
    """A tournament table counts no game beyond its round's number, booked or restored
    (read anew: the evening is locked)."""
    if evening.is_table and evening.games.booked().count() >= evening.game_limit:
        raise EveningError(
            _("An diesem Tisch sind alle %(limit)s Spiele der Runde gespielt.")
            % {"limit": evening.game_limit}
        )


class RestoreMoved(EveningError):
    """Counting the game again would now do other than its panel showed (restore_shown):
    a game booked or changed since (walk 71). Nothing is restored."""


@transaction.atomic
def restore_game(evening_id: int, game_id: int, by, effects: str | None = None) -> Game:
    """Take back a void or an undo: the game counts again and the evening is rescored.

    An undone game comes back only while no later game was booked: the deal went back to
    its dealer, and the game booked since was dealt by the same one. `effects`: what the
    panel said counting it again does (restore_shown); if it would now do otherwise,
    RestoreMoved, and nothing changes.
    """
    evening = _locked(evening_id)
    _require_open(evening, _("Nichts geändert"))
    game = evening.games.get(pk=game_id)
    if game.is_booked:
        raise EveningError(_("Dieses Spiel zählt schon."))
    taken_back = evening.changes.filter(game=game).order_by("-pk").first()
    later = evening.games.booked().filter(number__gt=game.number).exists()
    if taken_back is not None and taken_back.kind == Change.Kind.UNDO and later:
        raise EveningError(
            _("Seit dem Zurücknehmen ist ein neues Spiel gebucht; bitte neu eingeben.")
        )
    _require_room(evening)
    if effects is not None and effects != restore_shown(restore_effects(evening, game)):
        raise RestoreMoved(
            _(
                "Nichts geändert: am Abend hat sich inzwischen etwas geändert, und das Spiel "
                "würde jetzt anders zählen als angezeigt. So sähe es jetzt aus; soll es wieder "
                "zählen, bitte nochmal „Wieder zählen“ tippen."
            )
        )
    game.voided_at = None
    game.save(update_fields=["voided_at"])
    scored = score_from(evening, game.number)
    after = GameInput.of(game).as_json()
    if scored[1].games[0].bock != game.bock:
        # Struck, the game kept its Bock; counted again, a change to an earlier game since
        # may have made it one or none. Said with the change, for the history, which tells
        # of each change whether its game was a Bock game then (walk 60).
        after["bock_flipped"] = True
    change = _record(evening, Change.Kind.RESTORE, by, game=game, after=after)
    _rescore(evening, change, game.number, scored)
    return game


@dataclasses.dataclass(frozen=True)
class LaterGame:
    """A later game whose amounts a correction changes (the Bock chain shifted)."""

    number: int
    bock_before: bool
    bock_after: bool
    unit_before: int
    unit_after: int
    # A game of a table the evening went on at, whose Bock goes on from here
    # (_next_table_later): when that table began ("21:10"); "" for this evening's own.
    table: str = ""
    # Not a game: how many Bock games that table, still playing, has open (before and
    # after: unit_before, unit_after), where no game of it shows the change (walk 91).
    open_bock: bool = False


@dataclasses.dataclass(frozen=True)
class Preview:
    """What a game being entered or corrected will do, from the engine, before saving."""

    payouts: list[tuple[int, int]]  # (player id, cents) in the game's seating order
    unit: int
    bock: bool
    later: list[LaterGame]  # corrections only
    # A correction's: every seated player's game total, in seating order, before and after.
    totals_before: dict[int, int]
    totals_after: dict[int, int]


def preview(
    evening: Evening,
    data: GameInput,
    seating: list[int],
    replacing: Game | None = None,
    state: State | None = None,
    around: "Around | None" = None,
) -> Preview:
    """Score the evening with `data` booked next (or in place of `replacing`) without
    saving anything. Raises EveningError with the engine's German message and field.

    Only the games that `data` can touch are scored: a new game after the few before it
    (from `state`, the evening's state as the caller read it, if given), a correction
    with every game after it (`around`: read for `replacing` already, if given). The
    totals before and after are a correction's only.
    """
    candidate = Game(evening=evening, seating=seating)
    data.apply_to(candidate)
    rules = evening.tariff.rules
    if replacing is not None:
        around = around or around_game(evening, replacing)
        before, rest = around.before, around.rest
    else:
        recent = state.recent if state is not None else games_before(evening)
        before, rest = bock_window(evening, recent), []
    try:
        after = score_after(rules, before, [candidate.for_engine(), *rest])
    except ScoringError as error:
        raise EveningError(error.message_de, error.key) from None
    result = after.games[0]
    effects = Effects([], {}, {})
    if around is not None:
        effects = _effects(around, after, after.games[1:])
        tail = [*before, candidate.for_engine(), *rest]
        effects = dataclasses.replace(
            effects, later=effects.later + _next_table_later(evening, tail)
        )
    return Preview(
        payouts=[(pid, result.payouts[str(pid)]) for pid in seating],
        unit=result.unit,
        bock=result.bock,
        later=effects.later,
        totals_before=effects.totals_before,
        totals_after=effects.totals_after,
    )


@dataclasses.dataclass(frozen=True)
class Around:
    """A booked game with what changing it can touch, read and scored once for both
    previews of the correction panel (a correction's and a strike's): the games before
    it that decide its Bock, the booked games after it, everyone's game totals, and the
    game with the later ones scored as they stand."""

    before: list
    later: list[Game]
    totals: dict[int, int]
    now: EveningResult
    dealer_before: int | None = None  # who dealt the booked game before it

    @property
    def rest(self) -> list:
        return [g.for_engine() for g in self.later]


def around_game(evening: Evening, game: Game) -> Around:
    earlier = games_before(evening, game.number)
    before = bock_window(evening, earlier)
    later = list(evening.games.booked().filter(number__gt=game.number))
    now = score_after(
        evening.tariff.rules, before, [game.for_engine(), *(g.for_engine() for g in later)]
    )
    dealer_before = earlier[-1].dealer_id if earlier else None
    return Around(before, later, standing(evening), now, dealer_before)


def deal_after_strike(evening: Evening, around: Around) -> Deal | None:
    """Who deals next once the game of `around` is struck, if that moves the deal: only
    when it is the last booked game, whose deal then goes back round the table (next_deal
    goes on from the last booked game's dealer). Walk 65: the strike's preview did not
    say so, and the next dealer changed unannounced."""
    if around.later or evening.play_over:  # no game is dealt here again (walk 90)
        return None
    return _deal_after(evening, seats_of(evening), around.dealer_before, evening.last_number + 1)


@dataclasses.dataclass(frozen=True)
class Effects:
    """What changing a booked game does to the evening: the later games whose amounts
    change (the Bock chain shifted), and every seated player's game total before and
    after, in seating order."""

    later: list[LaterGame]
    totals_before: dict[int, int]
    totals_after: dict[int, int]
    bock: bool | None = None  # restore_effects: the game's own Bock, counted again


def strike_effects(evening: Evening, around: Around) -> Effects:
    """What striking the game of `around` would do, before it is struck."""
    after = score_after(evening.tariff.rules, around.before, around.rest)
    effects = _effects(around, after, after.games)
    tail = [*around.before, *around.rest]
    return dataclasses.replace(effects, later=effects.later + _next_table_later(evening, tail))


def strike_shown(around: Around, effects: Effects) -> str:
    """What a strike's preview showed, to be sent back with "Spiel streichen": the game's
    amounts as it counts now, and each later game that striking it changes. Not the
    standing after, which every game booked elsewhere moves, while the strike does the
    same."""
    result = around.now.games[0]
    amounts = ",".join(f"{pid}:{cents}" for pid, cents in sorted(result.payouts.items()))
    return f"{'B' if result.bock else ''}|{amounts}|{_later_shown(effects)}"


def restore_shown(effects: Effects) -> str:
    """What the preview of "Wieder zählen" showed (restore_effects), as strike_shown: the
    game's Bock when it counts again (its amounts follow from it), and each later game it
    changes."""
    return f"{'B' if effects.bock else ''}|{_later_shown(effects)}"


def _later_shown(effects: Effects) -> str:
    return ",".join(
        f"{g.table}/{g.number}:{g.unit_before}:{g.unit_after}:{g.bock_before:d}{g.bock_after:d}"
        + ("o" if g.open_bock else "")
        for g in effects.later
    )


def restore_effects(evening: Evening, game: Game) -> Effects:
    """What counting the struck (or taken back) `game` again would do, before it is
    restored: the later games it makes (or no longer makes) Bock games, and the
    standing with its own amounts."""
    before = bock_window(evening, games_before(evening, game.number))
    later = list(evening.games.booked().filter(number__gt=game.number))
    rest = [g.for_engine() for g in later]
    now = score_after(evening.tariff.rules, before, rest)
    after = score_after(evening.tariff.rules, before, [game.for_engine(), *rest])
    totals = standing(evening)
    effects = _effects(Around(before, later, totals, now), after, after.games[1:], without=True)
    elsewhere = _next_table_later(evening, [*before, game.for_engine(), *rest])
    return dataclasses.replace(effects, bock=after.games[0].bock, later=effects.later + elsewhere)


def _next_table_later(evening: Evening, tail: list) -> list[LaterGame]:
    """The first games of the tables the evening went on at whose amounts would change if
    the evening's games ended with `tail` (engine games, the last BOCK_GAMES at least):
    their Bock goes on from here (carried_in), and a change here rescores them
    (_carry_on), a table with fewer games handing on to the next. Said with a
    correction's, a strike's or a restore's preview."""
    if evening.is_table or not evening.tariff.plays_bock or not evening.closed_for_play:
        return []
    changed: list[LaterGame] = []
    table = evening
    while (new := Evening.objects.filter(continues=table, carries_bock=True).first()) is not None:
        if new.tariff_id != table.tariff_id:
            break
        games = list(new.games.booked()[:BOCK_GAMES])
        engine = [g.for_engine() for g in games]
        now = score_after(new.tariff.rules, bock_window(new, []), engine)
        after = score_after(new.tariff.rules, tail[-BOCK_GAMES:], engine)
        began = f"{timezone.localtime(new.started_at):%H:%M}"
        changed += [
            LaterGame(game.number, old.bock, anew.bock, old.unit, anew.unit, table=began)
            for game, old, anew in zip(games, now.games, after.games, strict=True)
            if old.payouts != anew.payouts
        ]
        if len(games) >= BOCK_GAMES:
            break
        if now.bock_remaining != after.bock_remaining and new.is_open and not new.play_over:
            opened = (now.bock_remaining, after.bock_remaining)
            changed.append(LaterGame(0, False, False, *opened, table=began, open_bock=True))
        tail, table = [*tail, *engine], new
    return changed


def _effects(
    around: Around, after: EveningResult, after_later: Sequence[GameResult], without=False
) -> Effects:
    """`after`: the games as they would be, where `after_later` are the results of the
    later games among them; `around.now` scores them as they stand (with the game
    itself first, unless `without` it: a struck game)."""
    totals_after = dict(around.totals)
    for player, cents in around.now.totals.items():
        totals_after[int(player)] -= cents
    for player, cents in after.totals.items():
        totals_after[int(player)] += cents
    # The later games as they stand: after the game's own result, unless it does not
    # count now (`without`: a struck game, to be restored).
    now_later = around.now.games if without else around.now.games[1:]
    changed = [
        LaterGame(game.number, old.bock, new.bock, old.unit, new.unit)
        for game, old, new in zip(around.later, now_later, after_later, strict=True)
        if old.payouts != new.payouts
    ]
    return Effects(changed, around.totals, totals_after)


def standing(evening: Evening, players: list[Player] | None = None) -> dict[int, int]:
    """Each seated player's sum of the evening's games (no payments), in seating order.
    `players`: the seated players, if the caller has them already."""
    return _totals(evening, [evening.entry_kind], players)


def balances(evening: Evening) -> dict[int, int]:
    """Each player's balance at this evening (games and payments; a tournament table's
    points), in seating order; at an Ausgleich, each player's balance in the Runde as
    the Ausgleich settles it (its own payments included), by player id."""
    if evening.settles_runde:
        return runde_open(evening, before=False)
    return _totals(evening, [evening.entry_kind, LedgerEntry.Kind.PAYMENT])


def _totals(evening: Evening, kinds: list[str], players: list[Player] | None = None):
    sums = dict(
        EveningTotal.objects.filter(evening=evening, kind__in=kinds)
        .values_list("player_id")
        .annotate(total=Sum("amount"))
        .values_list("player_id", "total")
    )
    seated = (
        [p.pk for p in players]
        if players is not None
        else evening.seats.values_list("player_id", flat=True)
    )
    return {pid: sums.get(pid, 0) for pid in seated}


def settlement(evening: Evening, live: list[Change] | None = None) -> Settlement:
    """Who pays whom, from what is still open, rounded down to the Runde's unit: the
    evening's plan less what was paid along it (scoring.settle_after), so that a part
    payment leaves the other transfers as they were. `live`: the evening's `payments`,
    if the caller has read them already."""
    base = runde_open(evening, before=True) if evening.settles_runde else standing(evening)
    # By player id, as the Runde's accounts and the player pages settle: where two plans
    # are equally short, every page proposes the same pairs for the same debts.
    games = {str(pid): base[pid] for pid in sorted(base)}
    paid = _paid(payments(evening) if live is None else live)
    return settle_after(games, paid, evening.tariff.settle_unit)


def played_since(ausgleich: Evening) -> bool:
    """Whether the Runde played on after the Ausgleich: an evening begun since where
    something counts (a game, a payment). One closed with nothing that counts changes no
    account (walk 77: it made the Ausgleich say the Runde's accounts differ), nor does
    one open without a game yet (walk 92) or with its one game taken back (walk 94)."""
    later = ausgleich.runde.evenings.filter(started_at__gt=ausgleich.started_at)
    return _counting(later).exists()


def _counting(evenings):
    """Those of `evenings` (listed ones) where something counts: an account it moves."""
    moved = EveningTotal.objects.filter(evening=OuterRef("pk")).exclude(amount=0)
    return evenings.listed().filter(Exists(moved))


def open_ausgleiche(runde_ids: Sequence[int]) -> dict[int, Evening]:
    """By Runde id (of `runde_ids`), its last Ausgleich if payments are still open in it
    and evenings were played after it: the Runde's accounts then add up both, and say so
    (while the Ausgleich is the newest evening, runde_plans shows its own plan). One
    query, and two for each such Ausgleich."""
    played_since = _counting(Evening.objects).filter(
        runde_id=OuterRef("runde_id"), started_at__gt=OuterRef("started_at")
    )
    last = (
        Evening.objects.filter(runde_id__in=runde_ids, settles_runde=True)
        .order_by("runde_id", "-started_at", "-pk")
        .distinct("runde_id")
        .annotate(played_since=Exists(played_since))
        .select_related("runde", "tariff")
    )
    return {
        evening.runde_id: evening
        for evening in last
        if evening.played_since and settlement(evening).transfers
    }


def newest_ausgleich(runde: Runde) -> Evening | None:
    """The Runde's newest evening if it is an Ausgleich: until the Runde plays again, its
    accounts propose that Ausgleich's plan, in the rounding of the tariff it began with
    (runde_plans), whatever the current tariff says; the tariff editor and the rules page
    say so. One query."""
    newest = runde.evenings.listed().select_related("tariff").order_by("-started_at", "-pk").first()
    return newest if newest and newest.settles_runde else None


def runde_plans(
    balances: dict[int, dict[str, int]], units: dict[int, int]
) -> dict[int, Settlement]:
    """Who pays whom to settle each Runde's balances (`balances`: by Runde id, each
    player's games and payments over all its evenings, by player id as text), rounded
    down to the Runde's unit (`units`). While a Runde's newest evening is an Ausgleich
    (nothing was played since), the plan its Abrechnung shows (settlement), with its
    unit: a part payment there leaves its other transfers as they were, and the Runde's
    accounts and the players' pages name the same pairs. One query, whatever the
    history; a second for the payments of such Ausgleiche."""
    newest = (
        Evening.objects.listed()
        .filter(runde_id__in=list(balances))
        .order_by("runde_id", "-started_at", "-pk")
        .distinct("runde_id")
        .values("pk")
    )
    ausgleiche = list(
        Evening.objects.filter(pk__in=newest, settles_runde=True).select_related("tariff")
    )
    paid: dict[int, list[Change]] = defaultdict(list)
    if ausgleiche:
        for change in Change.objects.filter(
            kind=Change.Kind.PAYMENT, evening__in=ausgleiche
        ).order_by("pk"):
            paid[change.evening_id].append(change)
    plans = {
        evening.runde_id: settle_paid(
            balances[evening.runde_id], _paid(_live(paid[evening.pk])), evening.tariff.settle_unit
        )
        for evening in ausgleiche
    }
    for runde_id, balance in balances.items():
        if runde_id not in plans:
            plans[runde_id] = settle(balance, units[runde_id])
    return plans


def payments(evening: Evening) -> list[Change]:
    """The evening's live payments, oldest first, with who entered each: neither
    cancelled ("Storno") nor a cancellation themselves. Read from the payment changes,
    which say what each one is; a cancellation's ledger entries look like a payment the
    other way."""
    return payments_and_cancelled(evening)[0]


def payments_and_cancelled(evening: Evening) -> tuple[list[Change], list[tuple[Change, Change]]]:
    """The evening's live payments (as `payments`), and each cancelled one with its
    Storno, oldest first: a treasurer checking the cash box sees what was taken back
    where it was paid (walk 59: only the history and the CSV said so). One query."""
    changes = list(
        evening.changes.filter(kind=Change.Kind.PAYMENT).select_related("by").order_by("pk")
    )
    by_pk = {change.pk: change for change in changes}
    cancelled = [
        (by_pk[change.after["cancels"]], change)
        for change in changes
        if change.after.get("cancels") in by_pk
    ]
    return _live(changes), cancelled


def _live(changes: list[Change]) -> list[Change]:
    """The payments among `changes` (an evening's, oldest first) that stand."""
    cancelled = {change.after["cancels"] for change in changes if "cancels" in change.after}
    return [
        change for change in changes if "cancels" not in change.after and change.pk not in cancelled
    ]


def _paid(payments: list[Change]) -> list[tuple[str, str, int]]:
    """Payments as the settlement takes them: payer, payee (player ids as text), cents."""
    return [
        (str(change.after["payer"]), str(change.after["payee"]), change.after["amount"])
        for change in payments
    ]


@transaction.atomic
def record_payment(
    evening_id: int,
    payer: int,
    payee: int,
    amount: int,
    by,
    key: uuid.UUID | None = None,
    seen: int | None = None,
) -> Change:
    """A transfer paid at the table, booked as two ledger entries that sum to zero. A
    form's `key` books it once however often the form is sent: again, it answers the
    payment the key booked. `seen`: the evening's version the form was shown at; a
    payment between the two since then (from another phone) refuses this one, which was
    meant for the same money."""
    evening = _locked(evening_id)
    if key is not None:
        done = evening.changes.filter(kind=Change.Kind.PAYMENT, after__key=str(key)).first()
        if done is not None:
            done.replayed = True
            return done
    if evening.tariff.is_prohof:
        raise EveningError(_("Bei einem Turnier wird nicht bezahlt: es zählen nur Punkte."))
    if (later := settled_by(evening)) is not None:
        raise EveningError(settled_message(later, evening))
    # A payment settles what is open, read from the ledger under the evening's lock: it
    # never makes a new debt, and a second tap on "bezahlt" finds nothing left to pay.
    balance = balances(evening)
    if payer not in balance or payee not in balance or payer == payee:
        if evening.settles_runde:
            raise EveningError(_("Zahlungen gehen zwischen zwei Spielern der Runde."))
        raise EveningError(_("Zahlungen gehen zwischen zwei Spielern des Abends."))
    if type(amount) is not int or amount <= 0:
        raise EveningError(_("Der Betrag muss größer als null sein."), "amount")
    if seen is not None:
        _require_unpaid_since(evening, payer, payee, seen, by)
        if retariffed_since(evening, seen):
            # The page's proposal was of the old amounts (walk 30).
            raise EveningError(
                _(
                    "Nichts eingetragen: der Abend wurde inzwischen mit dem neuen Tarif der "
                    "Runde neu gewertet. Hier steht, was jetzt offen ist."
                ),
                "amount",
            )
    still_open = min(max(-balance[payer], 0), max(balance[payee], 0))
    if amount > still_open:
        names = _player_names(payer, payee)
        paid = sum(
            change.after["amount"]
            for change in payments(evening)
            if (change.after["payer"], change.after["payee"]) == (payer, payee)
        )
        if still_open and paid:
            # Paid in part already, perhaps from another phone whose page still showed
            # the whole transfer: say so, and what is left.
            message = _(
                "So viel ist nicht offen: %(payer)s hat %(payee)s schon %(paid)s gezahlt. "
                "Offen ist nur noch %(open)s."
            )
        elif still_open:
            message = _(
                "So viel ist nicht offen: %(payer)s kann %(payee)s höchstens %(open)s zahlen."
            )
        elif paid:
            # Another phone (or a double tap) marked it paid already.
            message = _("Schon bezahlt: %(payer)s hat %(payee)s %(paid)s gezahlt.")
        elif evening.settles_runde:
            message = _("Zwischen %(payer)s und %(payee)s ist in der Runde nichts offen.")
        else:
            message = _("Zwischen %(payer)s und %(payee)s ist an diesem Abend nichts offen.")
        if evening.settles_runde and played_since(evening):
            # The Runde's accounts propose more than is open here (walk 77: a payment as
            # a member's page proposed it, refused with no way to enter it).
            message += " " + _(
                "Seit diesem Ausgleich wurde weitergespielt: was die Konten der Runde "
                "darüber hinaus vorschlagen, trägt ein neuer Ausgleich ein."
            )
        if seen is not None and seen != evening.version and not paid:
            # A game booked or corrected since the page was shown moved the debts.
            message += " " + _(
                "Seit die Seite geladen wurde, hat sich am Abend etwas geändert: hier steht, "
                "was jetzt offen ist."
            )
        raise EveningError(
            message
            % {
                "payer": names[payer],
                "payee": names[payee],
                "open": format_cents(still_open),
                "paid": format_cents(paid),
            },
            "amount",
        )
    return _pay(evening, payer, payee, amount, by, **({"key": str(key)} if key else {}))


def _require_unpaid_since(evening: Evening, payer: int, payee: int, seen: int, by) -> None:
    """Refuse a payment from a page shown at version `seen` if the same two have had one
    marked since: another phone marked it (a page's "bezahlt" is the whole transfer it
    showed, and a payer who owes two could pay the same one twice within the cap), or
    `by` did, from another page (walk 68: Back to the page before paying)."""
    since = [
        change
        for change in payments(evening)
        if (change.after["payer"], change.after["payee"]) == (payer, payee)
        and change.version is not None
        and change.version > seen
    ]
    if since:
        names = _player_names(payer, payee)
        raise EveningError(
            (
                _(
                    "Schon bezahlt: %(payer)s hat %(payee)s %(paid)s gezahlt, eben von dir "
                    "eingetragen. Hier steht, was jetzt noch offen ist."
                )
                if all(change.by_id == by.pk for change in since)
                else _(
                    "Schon bezahlt: %(payer)s hat %(payee)s %(paid)s gezahlt, eben auf einem "
                    "anderen Gerät. Hier steht, was jetzt noch offen ist."
                )
            )
            % {
                "payer": names[payer],
                "payee": names[payee],
                "paid": format_cents(sum(change.after["amount"] for change in since)),
            },
            "amount",
        )


@transaction.atomic
def cancel_payment(evening_id: int, change_id: int, by) -> Change:
    """Take back a payment marked by mistake ("Storno"), also once the evening is closed.

    Nothing is edited: a payment the other way is recorded, which names the one it
    cancels (`after["cancels"]`), and its two ledger entries undo the payment's. A payment
    is cancelled once; a cancellation is not cancelled (the payment is marked again).
    """
    evening = _locked(evening_id)
    payment = evening.changes.filter(kind=Change.Kind.PAYMENT, pk=change_id).first()
    if payment is None:
        raise EveningError(_("Diese Zahlung gibt es an diesem Abend nicht."))
    if (later := settled_by(evening)) is not None:
        # The Ausgleich counted it as paid; taken back here, it could be paid nowhere.
        raise EveningError(
            _(
                "Die Runde wurde am %(date)s ausgeglichen, mit dieser Zahlung: sie lässt "
                "sich nicht mehr stornieren."
            )
            % {"date": _day(later)}
        )
    after = payment.after
    if "cancels" in after:
        raise EveningError(
            _("Ein Storno lässt sich nicht stornieren; die Zahlung bitte neu eintragen.")
        )
    if evening.changes.filter(kind=Change.Kind.PAYMENT, after__cancels=payment.pk).exists():
        names = _player_names(after["payer"], after["payee"])
        raise EveningError(
            _("Schon storniert: die Zahlung von %(payer)s an %(payee)s, %(amount)s.")
            % {
                "payer": names[after["payer"]],
                "payee": names[after["payee"]],
                "amount": format_cents(after["amount"]),
            }
        )
    return _pay(evening, after["payee"], after["payer"], after["amount"], by, cancels=payment.pk)


def _pay(evening: Evening, payer: int, payee: int, amount: int, by, **more) -> Change:
    """A payment's change and its two ledger entries, which sum to zero: the payer's
    balance goes up by `amount`, the payee's down. `more`: what else the change says."""
    change = _record(
        evening,
        Change.Kind.PAYMENT,
        by,
        after={"payer": payer, "payee": payee, "amount": amount, **more},
    )
    LedgerEntry.objects.bulk_create(
        [
            LedgerEntry(
                evening=evening,
                change=change,
                player_id=payer,
                kind=LedgerEntry.Kind.PAYMENT,
                amount=amount,
            ),
            LedgerEntry(
                evening=evening,
                change=change,
                player_id=payee,
                kind=LedgerEntry.Kind.PAYMENT,
                amount=-amount,
            ),
        ]
    )
    return change


def _player_names(*player_ids: int) -> dict[int, str]:
    return dict(Player.objects.filter(pk__in=player_ids).values_list("pk", "name"))


# -- the Ausgleich der Runde ----------------------------------------------------------------
#
# A club that keeps a running account settles the Runde as a whole now and then: who pays
# whom to even out every evening so far. An evening's Abrechnung can't take such a
# payment (it settles that evening only), so the Ausgleich is an evening of its own, in
# the Runde's line of evenings: no seats, no games, only payments, each capped by what
# is open in the Runde. The ledger, the hash chain, Storno, verify_ledger and the
# Runde's balances take it as they take any evening's payments.
#
# What was open at the evenings before an Ausgleich is settled there: their Abrechnung
# takes no more payments (settled_by), or the same debt could be paid twice, once per
# evening and once in the Ausgleich.


def _earlier(evening: Evening) -> Q:
    """The evenings of a Runde started before `evening` (by start, then by id)."""
    return Q(started_at__lt=evening.started_at) | Q(
        started_at=evening.started_at, pk__lt=evening.pk
    )


def runde_open(evening: Evening, *, before: bool) -> dict[int, int]:
    """Each player's balance in the Runde (games and payments) over the evenings before
    the Ausgleich `evening`, and with its own payments unless `before`; by player id."""
    evenings = Evening.objects.listed().filter(
        Q(runde_id=evening.runde_id),
        _earlier(evening) if before else _earlier(evening) | Q(pk=evening.pk),
    )
    return dict(
        EveningTotal.objects.filter(evening__in=evenings)
        .values_list("player_id")
        .annotate(total=Sum("amount"))
        .order_by("player_id")
        .values_list("player_id", "total")
    )


def settled_by(evening: Evening) -> Evening | None:
    """The newest Ausgleich of the Runde made after `evening`, which settles what was
    open at it; None if there is none."""
    return (
        Evening.objects.filter(runde_id=evening.runde_id, settles_runde=True)
        .exclude(_earlier(evening) | Q(pk=evening.pk))
        .order_by("-started_at", "-pk")
        .first()
    )


def settled_message(ausgleich: Evening, evening: Evening) -> str:
    """Why `evening` takes no payment: the Runde's later Ausgleich `ausgleich` settles it
    (an Ausgleich too, walk 50: not "an diesem Abend")."""
    if evening.settles_runde:
        return _(
            "Die Runde wurde am %(date)s wieder ausgeglichen: was bei diesem Ausgleich offen "
            "war, wird im neuen bezahlt."
        ) % {"date": _day(ausgleich)}
    return _(
        "Die Runde wurde am %(date)s ausgeglichen: was an diesem Abend offen war, wird "
        "im Ausgleich der Runde bezahlt."
    ) % {"date": _day(ausgleich)}


def settled_for_good(ausgleich: Evening) -> str:
    """Why an evening before the Runde's Ausgleich `ausgleich` is not opened again: its
    games made the amounts paid there."""
    return _(
        "Die Runde wurde am %(date)s ausgeglichen, mit diesem Abend: er bleibt, wie er "
        "ist, sonst stimmte der Ausgleich nicht mehr."
    ) % {"date": _day(ausgleich)}


def _day(evening: Evening) -> str:
    """The day the evening started, as its messages name it ("03.12.2026")."""
    return timezone.localtime(evening.started_at).strftime("%d.%m.%Y")


@transaction.atomic
def start_ausgleich(runde: Runde, by, key: uuid.UUID | None = None) -> Evening:
    """The Runde's Ausgleich: what is open over all its evenings, to be paid and marked
    in its Abrechnung. While the newest evening is an Ausgleich already, that one (nothing
    was played since). The form's `key` makes one however often the form is sent."""
    # One at a time per Runde; a second tap waits here and finds the first one's.
    list(Runde.objects.select_for_update().filter(pk=runde.pk).values_list("pk"))
    if runde.kind != Runde.Kind.MONEY:
        raise EveningError(_("Bei einem Turnier wird nicht bezahlt: es zählen nur Punkte."))
    if key is not None and (made := runde.evenings.filter(key=key).first()) is not None:
        return made
    newest = runde.evenings.listed().order_by("-started_at", "-pk").first()
    if newest is not None and newest.settles_runde:
        return newest
    if (running := runde.evenings.open().order_by("started_at").first()) is not None:
        raise EveningError(
            _(
                "Der Abend vom %(date)s ist noch offen: ausgeglichen wird, wenn er "
                "abgeschlossen ist."
            )
            % {"date": _day(running)}
        )
    tariff = runde.tariffs.latest()
    totals = EveningTotal.objects.filter(evening__runde=runde).values_list("player_id")
    balance = {
        str(pid): total for pid, total in totals.annotate(total=Sum("amount")).order_by("player_id")
    }
    if not settle(balance, tariff.settle_unit).transfers:
        raise EveningError(_("In der Runde ist nichts offen, das sich ausgleichen lässt."))
    try:
        with transaction.atomic():
            evening = Evening.objects.create(
                runde=runde,
                tariff=tariff,
                status=Evening.Status.CLOSED,
                closed_at=timezone.now(),
                started_by=by,
                label=_("Ausgleich der Runde"),
                share_token=None,
                settles_runde=True,
                key=key,
            )
    except IntegrityError:  # the key of another Runde's form: no way into it
        raise EveningError(_("Dieses Formular wurde schon verwendet. Bitte neu laden.")) from None
    Change.objects.create(
        evening=evening, kind=Change.Kind.START, by=by, after={"settles_runde": True}
    )
    return evening


def counts_nothing(evening: Evening) -> bool:
    """Whether nothing at the money evening counts: no game (struck and taken-back ones
    are voided) and no payment. Closed so, it is Evening.Status.EMPTY. A closed evening
    stays so: nothing is booked there, and a payment needs money that is open."""
    return not (
        evening.is_table
        or evening.settles_runde
        or evening.games.booked().exists()
        or evening.ledger.filter(kind=LedgerEntry.Kind.PAYMENT).exists()
    )


@transaction.atomic
def close_evening(evening_id: int, by, seen: int | None = None) -> Evening:
    """Close the evening. `seen`: the version the Abrechnung showed when "Abschließen" was
    tapped; if anything changed since (another phone booked, corrected or paid), it stays
    open: closed, what it came to would differ from what was checked (walk 58)."""
    evening = _locked(evening_id)
    _require_open(evening)
    if seen is not None and seen != evening.version:
        raise StaleClose(
            _(
                "Nicht abgeschlossen: seit die Abrechnung geladen wurde, hat sich am Abend "
                "etwas geändert (gebucht, korrigiert oder bezahlt). Hier steht sie jetzt: "
                "bitte prüfen und nochmal abschließen."
            )
        )
    evening.status = Evening.Status.EMPTY if counts_nothing(evening) else Evening.Status.CLOSED
    evening.closed_at = timezone.now()
    evening.save(update_fields=["status", "closed_at"])
    _record(evening, Change.Kind.CLOSE, by)
    return evening


@transaction.atomic
def reopen_evening(evening_id: int, by) -> Evening:
    """Open a closed evening again. A table of a finished tournament stays closed: its
    ranking is final until the director opens the tournament again."""
    # Here, not at the top: a money evening needs nothing of the tournaments app.
    from tournaments.models import Tournament

    # The tournament's lock before the evening's, in the order tournaments.services
    # takes them: a table opened while its tournament is being finished is either
    # closed with the others or refused here.
    tournament = (
        Tournament.objects.select_for_update(of=("self",))
        .filter(rounds__tables__evening_id=evening_id)
        .first()
    )
    evening = _locked(evening_id)
    if evening.is_open:
        raise EveningError(_("Der Abend ist noch offen."))
    if evening.settles_runde:
        raise EveningError(_("Ein Ausgleich der Runde ist kein Spielabend: er bleibt zu."))
    if not evening.is_table:
        # The Runde's lock, which an Ausgleich takes (after the evening's, as a new table
        # takes it): an evening is opened before an Ausgleich counts it, or not at all.
        list(Runde.objects.select_for_update().filter(pk=evening.runde_id).values_list("pk"))
        if (later := settled_by(evening)) is not None:
            raise EveningError(settled_for_good(later))
    if tournament is not None and tournament.status == Tournament.Status.FINISHED:
        raise EveningError(
            _(
                "Das Turnier ist abgeschlossen, die Rangliste steht: der Tisch bleibt zu. "
                "Für eine späte Korrektur öffnet die Turnierleitung zuerst das Turnier "
                "wieder."
            )
        )
    # The Runde played on at a later evening: new games belong there (walk 32). (One
    # that went on at a new table takes corrections only for that reason, said so.)
    evening.corrections_only = continued_at(evening) is None and newer_evening(evening) is not None
    evening.status = Evening.Status.OPEN
    evening.closed_at = None
    evening.save(update_fields=["status", "closed_at", "corrections_only"])
    if evening.corrections_only:
        after = {"corrections_only": True}
    elif evening.is_table and evening.closed_for_play:
        # Its history says so as the table's page does (walk 55): "Tisch wieder geöffnet"
        # alone read as if play went on there.
        after = {"corrections_only": True, "table": True}
    else:
        after = None
    _record(evening, Change.Kind.REOPEN, by, after=after)
    return evening


def newer_evening(evening: Evening) -> Evening | None:
    """Where the Runde plays now, if it began another evening after this money evening
    was closed (after it began, while it is open again): the newest such, not an
    Ausgleich (which refuses the reopening) nor one closed with nothing that counts.
    Opened again, a closed evening with one takes corrections only: a game booked there
    would land in last week's evening (walk 32). Two tables of one night, both begun
    before either closed, each take games."""
    # Opened for corrections only before, it gave way to an evening begun after it began,
    # though it was closed again since (walk 54: opened a second time, it took games).
    since = evening.started_at if evening.is_open or evening.corrections_only else evening.closed_at
    if evening.is_table or since is None:
        return None
    return (
        Evening.objects.listed()
        .filter(runde_id=evening.runde_id, settles_runde=False, started_at__gt=since)
        .exclude(pk=evening.pk)
        .order_by("-started_at", "-pk")
        .first()
    )


@transaction.atomic
def set_scorekeeper(evening_id: int, user, by) -> Evening:
    """Hand a tournament table over to another scorekeeper (the phone gave up), on the
    record."""
    evening = _locked(evening_id)
    evening.scorekeeper = user
    evening.save(update_fields=["scorekeeper"])
    Change.objects.create(
        evening=evening,
        kind=Change.Kind.SCORER,
        by=by,
        after={"scorekeeper": user.pk if user else None},
    )
    return evening


@transaction.atomic
def revoke_share_links(club_id: int, by) -> None:
    """Revoke every read-only link of the club's evenings at once, each on its evening's
    record (its club's last member left): the evenings locked in one query, in id order,
    so that each one's changes chain as one by one."""
    shared = list(
        Evening.objects.select_for_update()
        .filter(runde__club_id=club_id, share_token__isnull=False)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    Evening.objects.filter(pk__in=shared).update(share_token=None)
    Change.objects.bulk_create(
        Change(evening_id=pk, kind=Change.Kind.SHARE, by=by, after={"revoked": True})
        for pk in shared
    )


@transaction.atomic
def renew_share_link(evening_id: int, by, revoke: bool = False) -> Evening:
    """Replace the read-only link (the old one stops working), or revoke it altogether."""
    evening = _locked(evening_id)
    evening.share_token = None if revoke else Evening._meta.get_field("share_token").default()
    evening.save(update_fields=["share_token"])
    Change.objects.create(evening=evening, kind=Change.Kind.SHARE, by=by, after={"revoked": revoke})
    return evening
