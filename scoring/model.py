"""The domain of the scoring engine: enums and frozen dataclasses, nothing computed here.

The objects are plain values. They are checked (``scoring.validation``) when an engine
function receives them, not when they are built, because whether a game is legal
depends on the rules it is scored under and on its position in the evening.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar


class System(StrEnum):
    TARIFF = "tariff"  # money of a Runde, seed 001
    PROHOF = "prohof"  # points of the ProHof tournament, seed 000


class GameType(StrEnum):
    # tariff
    SAUSPIEL = "sauspiel"
    FARBSOLO = "farbsolo"
    RAMSCH = "ramsch"
    # both systems
    WENZ = "wenz"
    # ProHof
    RUFSPIEL = "rufspiel"
    SOLO = "solo"
    UEBERKREUZ = "ueberkreuz"


class Suit(StrEnum):
    EICHEL = "eichel"
    GRAS = "gras"
    HERZ = "herz"
    SCHELLEN = "schellen"


class BockMode(StrEnum):
    OFF = "off"
    RAMSCH = "ramsch"  # every Ramsch triggers
    RAMSCH_OR_LOST_SOLO = "ramsch_or_lost_solo"  # also every lost Farbsolo or Wenz


# How many games after a trigger are Bock games.
BOCK_GAMES = 4
# Jungfrau: "wer keinen Stich macht, verdoppelt; höchstens 2" (seed 001).
MAX_JUNGFRAU_DOUBLINGS = 2
# The longest possible run of top trumps: 4 Ober, 4 Unter, 6 cards of the trump suit.
MAX_LAUFENDE = 14
# Beim Wenz sind nur die vier Unter Trumpf (seed 001).
MAX_LAUFENDE_WENZ = 4

TARIFF_GAMES = frozenset({GameType.SAUSPIEL, GameType.FARBSOLO, GameType.WENZ, GameType.RAMSCH})
PROHOF_GAMES = frozenset({GameType.RUFSPIEL, GameType.SOLO, GameType.WENZ, GameType.UEBERKREUZ})
# The declarer plays alone against three: payouts are 3 x unit against 1 x unit.
SOLO_GAMES = frozenset({GameType.FARBSOLO, GameType.WENZ, GameType.SOLO})
# Two against two, the declarer with a partner.
PAIR_GAMES = frozenset({GameType.SAUSPIEL, GameType.RUFSPIEL, GameType.UEBERKREUZ})


@dataclass(frozen=True, slots=True)
class TariffRules:
    """A Runde's money tariff; every amount in cents. Defaults: the ordinary Zehner-Schafkopf."""

    sauspiel: int = 10
    farbsolo: int = 50
    wenz: int = 50
    ramsch: int = 10
    laufende: int = 10  # value of one Laufender
    laufende_min: int = 3  # fewer pay nothing; at or above it all of them pay
    laufende_max: int = 8  # cap for Sauspiel and Farbsolo; the Wenz is capped at min(this, 4)
    # Threshold for the Wenz. None when built means "laufende_min, at most 4" and is
    # replaced by that number, so TariffRules() == TariffRules(laufende_min_wenz=3).
    laufende_min_wenz: int | None = None
    schneider: int = 10
    schwarz: int = 10
    bock: BockMode = BockMode.OFF
    jungfrau: bool = False

    system: ClassVar[System] = System.TARIFF

    def __post_init__(self) -> None:
        if self.laufende_min_wenz is None and isinstance(self.laufende_min, int):
            object.__setattr__(self, "laufende_min_wenz", min(self.laufende_min, MAX_LAUFENDE_WENZ))

    @property
    def wenz_threshold(self) -> int:
        """The Laufende threshold of the Wenz, as an int (see laufende_min_wenz)."""
        if self.laufende_min_wenz is None:
            return min(self.laufende_min, MAX_LAUFENDE_WENZ)
        return self.laufende_min_wenz

    def base(self, game_type: GameType) -> int:
        """The base value of a tariff game type."""
        if game_type is GameType.SAUSPIEL:
            return self.sauspiel
        if game_type is GameType.FARBSOLO:
            return self.farbsolo
        if game_type is GameType.WENZ:
            return self.wenz
        return self.ramsch


@dataclass(frozen=True, slots=True)
class ProHofRules:
    """The ProHof tournament: fixed points, nothing to configure (seed 000, "Punktewertung")."""

    system: ClassVar[System] = System.PROHOF

    RUFSPIEL: ClassVar[int] = 10
    UEBERKREUZ: ClassVar[int] = 10
    WENZ: ClassVar[int] = 20
    SOLO: ClassVar[int] = 30
    LAUFENDER: ClassVar[int] = 10  # every one from the first, "mit oder ohne"
    LAUFENDE_MAX: ClassVar[int] = 8  # "jeder laufende Trumpf (Ober/Unter)": 4 Ober, 4 Unter
    SCHNEIDER: ClassVar[int] = 10
    ANGESAGT: ClassVar[int] = 10  # Schneider angesagt
    SCHWARZ: ClassVar[int] = 10
    TOUT: ClassVar[int] = 20  # tout angesagt, i.e. Schwarz angesagt

    def base(self, game_type: GameType) -> int:
        """The base points of a ProHof game type."""
        if game_type is GameType.SOLO:
            return self.SOLO
        if game_type is GameType.WENZ:
            return self.WENZ
        if game_type is GameType.UEBERKREUZ:
            return self.UEBERKREUZ
        return self.RUFSPIEL


Rules = TariffRules | ProHofRules


@dataclass(frozen=True, slots=True)
class Game:
    """One game as the table decided it. Which fields apply depends on ``type``.

    Fields that do not apply to the type must keep their default; the engine rejects
    anything else (see the contract's table of keys per type).
    """

    type: GameType
    players: tuple[str, str, str, str]
    declarer: str | None = None
    partner: str | None = None  # Sauspiel/Rufspiel: holder of the called Ass; Über-Kreuz
    suit: Suit | None = None  # Farbsolo and Solo only
    won: bool = False  # for the declarer's side
    laufende: int = 0  # length of the run of top trumps, mit or ohne
    schneider: bool = False
    schwarz: bool = False  # implies Schneider
    tout: bool = False  # Farbsolo, Solo, Wenz; implies Schneider and Schwarz, won or lost
    kontra: int = 0  # tariff: 0 none, 1 Kontra, 2 Re
    doubled: int = 0  # tariff: players who doubled before the game, 0..4
    angesagt: bool = False  # ProHof Rufspiel, Solo, Wenz: Schneider announced
    loser: str | None = None  # Ramsch: most Augen
    jungfrauen: tuple[str, ...] = ()  # Ramsch: players without a trick


@dataclass(frozen=True, slots=True)
class GameResult:
    """What one game is worth and who gets what.

    ``unit`` is value x multiplier: what one losing opponent pays (tariff) or what one
    winner is credited (ProHof). ``bock_remaining`` is how many Bock games are still to
    come after this game. ``payouts`` has one entry per player at the table, in the
    order of ``Game.players``.
    """

    value: int
    multiplier: int
    unit: int
    bock: bool
    bock_remaining: int
    payouts: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class EveningResult:
    """The games of an evening scored in order, and each player's total.

    ``totals`` covers every player of the evening, in the order they were first seen
    (or in the order given), including those who only sat out.
    """

    games: tuple[GameResult, ...]
    totals: Mapping[str, int] = field(default_factory=dict)
    bock_remaining: int = 0
