"""The computation: a game's value, its doublings, who gets what, and the evening's Bock.

Amounts are int cents (tariff) or int points (ProHof) from end to end. Nothing here
divides: values are added, doubled with a shift and spread by multiplying with 3, so
no amount is ever rounded (seed 001: "verteilt wird durch Multiplizieren mit drei —
nie durch Teilen").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from scoring.errors import NegativePointsError, ScoringError, ZeroSumError
from scoring.model import (
    BOCK_GAMES,
    MAX_JUNGFRAU_DOUBLINGS,
    MAX_LAUFENDE_WENZ,
    PAIR_GAMES,
    BockMode,
    EveningResult,
    Game,
    GameResult,
    GameType,
    ProHofRules,
    Rules,
    TariffRules,
)
from scoring.validation import check_evening_players, validate_game, validate_rules


class ValueParts(NamedTuple):
    """The summands of a game's value (before any doubling)."""

    base: int
    laufende: int  # Laufende that count: 0 below the threshold, else capped
    laufende_amount: int
    schneider: int
    schwarz: int
    angesagt: int = 0  # ProHof: Schneider angesagt
    tout: int = 0  # ProHof: tout angesagt (in the tariff a Tout doubles instead)

    @property
    def value(self) -> int:
        return (
            self.base
            + self.laufende_amount
            + self.schneider
            + self.schwarz
            + self.angesagt
            + self.tout
        )


class Doublings(NamedTuple):
    """What doubles a tariff game's value: each one counts x2."""

    doubled: int  # players who doubled before the game
    kontra: int  # 1 Kontra, 2 Re
    tout: int
    jungfrauen: int  # counted Jungfrauen, at most MAX_JUNGFRAU_DOUBLINGS
    bock: int

    @property
    def exponent(self) -> int:
        """How many times the value is doubled."""
        return self.doubled + self.kontra + self.tout + self.jungfrauen + self.bock

    @property
    def multiplier(self) -> int:
        return 1 << self.exponent


class Outcome(NamedTuple):
    won: bool
    schneider: bool


# -- value -------------------------------------------------------------------------------


def _tariff_parts(rules: TariffRules, game: Game) -> ValueParts:
    game_type = game.type
    if game_type is GameType.RAMSCH:
        # "Beim Ramsch zählen Laufende gar nicht." "Beim Ramsch gibt es weder Schneider
        # noch Schwarz."
        return ValueParts(rules.ramsch, 0, 0, 0, 0)
    if game_type is GameType.WENZ:
        threshold = rules.wenz_threshold
        cap = min(rules.laufende_max, MAX_LAUFENDE_WENZ)
        base = rules.wenz
    else:
        threshold = rules.laufende_min
        cap = rules.laufende_max
        base = rules.farbsolo if game_type is GameType.FARBSOLO else rules.sauspiel
    # "3 Laufende zahlen für 3 Laufende, nicht für einen. Die Schwelle entscheidet nur,
    # ob überhaupt gezahlt wird — sie wird nicht abgezogen."
    laufende = game.laufende
    paid = 0 if laufende < threshold else min(laufende, cap)
    # Schwarz implies Schneider; a Tout implies both, won or lost.
    schwarz = game.schwarz or game.tout
    schneider = schwarz or game.schneider
    return ValueParts(
        base,
        paid,
        paid * rules.laufende,
        rules.schneider if schneider else 0,
        rules.schwarz if schwarz else 0,
    )


def _prohof_parts(rules: ProHofRules, game: Game) -> ValueParts:
    game_type = game.type
    cap = MAX_LAUFENDE_WENZ if game_type is GameType.WENZ else rules.LAUFENDE_MAX
    # "jeder laufende Trumpf (Ober/Unter) ab Eichel zählt, ebenso ohne Laufende": from
    # the first, no threshold.
    paid = min(game.laufende, cap)
    schwarz = game.schwarz or game.tout
    schneider = schwarz or game.schneider
    return ValueParts(
        rules.base(game_type),
        paid,
        paid * rules.LAUFENDER,
        rules.SCHNEIDER if schneider else 0,
        rules.SCHWARZ if schwarz else 0,
        rules.ANGESAGT if game.angesagt else 0,
        rules.TOUT if game.tout else 0,
    )


def _doublings(rules: TariffRules, game: Game, bock: bool) -> Doublings:
    jungfrauen = min(len(game.jungfrauen), MAX_JUNGFRAU_DOUBLINGS) if rules.jungfrau else 0
    return Doublings(game.doubled, game.kontra, 1 if game.tout else 0, jungfrauen, 1 if bock else 0)


# -- payouts -----------------------------------------------------------------------------


def _tariff_payouts(game: Game, unit: int) -> dict[str, int]:
    players = game.players
    game_type = game.type
    if game_type is GameType.RAMSCH:
        # "der Verlierer zahlt den anderen dreien"; a Jungfrau gets her share too.
        loser = game.loser
        payouts = {p: -3 * unit if p == loser else unit for p in players}
    else:
        declarer = game.declarer
        win = unit if game.won else -unit
        if game_type is GameType.SAUSPIEL:
            side = (declarer, game.partner)
            payouts = {p: win if p in side else -win for p in players}
        else:
            payouts = {p: 3 * win if p == declarer else -win for p in players}
    return payouts


def check_zero_sum(payouts: dict[str, int]) -> None:
    """Raise ZeroSumError unless the amounts of one game sum to exactly zero."""
    imbalance = sum(payouts.values())
    if imbalance != 0:
        raise ZeroSumError(f"payouts {payouts} sum to {imbalance}, not 0")


def _prohof_payouts(game: Game, value: int) -> dict[str, int]:
    players = game.players
    declarer = game.declarer
    won = game.won
    if game.type in PAIR_GAMES:
        # "Die beiden Gewinner erhalten je ... Punkte": the declarer's pair if it won,
        # else the other two.
        side = (declarer, game.partner)
        payouts = {p: value if (p in side) is won else 0 for p in players}
    elif won:
        # "Dem Spieler wird die dreifache Punktzahl (Solo/Wenz) angerechnet."
        payouts = {p: 3 * value if p == declarer else 0 for p in players}
    else:
        # "Verliert der Spieler, erhalten die drei Gegenspieler jeweils ... Punkte."
        payouts = {p: 0 if p == declarer else value for p in players}
    return payouts


def check_not_negative(payouts: dict[str, int]) -> None:
    """Raise NegativePointsError if a ProHof game would deduct points from anybody."""
    if min(payouts.values()) < 0:
        raise NegativePointsError(f"payouts {payouts} deduct points")


# -- Bock --------------------------------------------------------------------------------


def triggers_bock(rules: Rules, game: Game) -> bool:
    """Whether ``game`` starts (or restarts) a Bockrunde under ``rules``.

    "Auslöser einer Bockrunde ist wahlweise jeder Ramsch, oder jeder Ramsch und
    zusätzlich ein verlorenes Solo. Ein gewonnenes Solo löst nie aus." The Wenz counts
    as a solo (contract).
    """
    if not isinstance(rules, TariffRules):
        return False
    mode = rules.bock
    if mode is BockMode.OFF:
        return False
    game_type = game.type
    if game_type is GameType.RAMSCH:
        return True
    return (
        mode is BockMode.RAMSCH_OR_LOST_SOLO
        and (game_type is GameType.FARBSOLO or game_type is GameType.WENZ)
        and not game.won
    )


# -- scoring -----------------------------------------------------------------------------


def _score(rules: Rules, game: Game, bock: bool, bock_remaining: int) -> GameResult:
    """Score a valid game. ``bock_remaining`` is passed through to the result."""
    if isinstance(rules, TariffRules):
        value = _tariff_parts(rules, game).value
        doublings = _doublings(rules, game, bock).exponent
        unit = value << doublings
        payouts = _tariff_payouts(game, unit)
        # "Die Beträge eines Spiels ergeben zusammen immer genau null ... und es wird bei
        # jedem einzelnen Spiel geprüft."
        check_zero_sum(payouts)
        return GameResult(value, 1 << doublings, unit, bock, bock_remaining, payouts)
    value = _prohof_parts(rules, game).value
    payouts = _prohof_payouts(game, value)
    # "Bei einem verlorenen Spiel werden dem Spieler diese Punkte nicht abgezogen."
    check_not_negative(payouts)
    return GameResult(value, 1, value, False, 0, payouts)


def _check_bock_preview(rules: Rules, bock: bool) -> None:
    if bock and not (isinstance(rules, TariffRules) and rules.bock is not BockMode.OFF):
        raise ScoringError(
            "bock",
            "the rules play no Bock",
            "Diese Runde spielt ohne Bock.",
            section="preview",
        )


def score_game(rules: Rules, game: Game, bock: bool = False) -> GameResult:
    """Score one game on its own, e.g. for a preview or the rules page.

    ``bock`` says whether the game is a Bock game. Without the evening around it,
    ``bock_remaining`` is BOCK_GAMES if the game triggers a Bockrunde, else 0.
    """
    validate_rules(rules)
    validate_game(rules, game)
    _check_bock_preview(rules, bock)
    return _score(rules, game, bock, BOCK_GAMES if triggers_bock(rules, game) else 0)


def score_evening(
    rules: Rules, games: Iterable[Game], players: Iterable[str] | None = None
) -> EveningResult:
    """Score the games of one evening in the order they were played.

    Bock depends on the sequence, so a corrected early game changes later amounts:
    always rescore the whole evening. ``players`` optionally lists every player of the
    evening (also those who only sat out); ``totals`` then follows that order and
    includes them with 0, and a game with anybody else is rejected. Without it,
    ``totals`` lists the players in the order they first appear.

    Every game is checked before any is computed.
    """
    validate_rules(rules)
    games = tuple(games)
    totals: dict[str, int] = {}
    if players is not None:
        totals = dict.fromkeys(check_evening_players(players), 0)
    for position, game in enumerate(games, 1):
        if not isinstance(game, Game):
            raise ScoringError("game", "must be a game", "Das ist kein Spiel.", position)
        validate_game(rules, game, position)
        if players is not None:
            for player in game.players:
                if player not in totals:
                    raise ScoringError(
                        "players",
                        f"{player} is not a player of the evening",
                        f"{player} spielt an diesem Abend nicht mit.",
                        position,
                    )

    results: list[GameResult] = []
    remaining = 0  # Bock games still to come; "Eine Bockrunde gilt nur für den laufenden Abend."
    for game in games:
        bock = remaining > 0
        if bock:
            remaining -= 1
        # "Fällt ein Auslöser in eine laufende Bockrunde, beginnt die Zählung von vorn,
        # statt sich zu stapeln": the count is set, never added to.
        if triggers_bock(rules, game):
            remaining = BOCK_GAMES
        result = _score(rules, game, bock, remaining)
        results.append(result)
        for player, amount in result.payouts.items():
            totals[player] = totals.get(player, 0) + amount
    return EveningResult(tuple(results), totals, remaining)


def score_after(rules: Rules, before: Sequence[Game], games: Iterable[Game]) -> EveningResult:
    """Score ``games`` as they continue an evening whose earlier games are ``before``.

    Whether a game is a Bock game depends only on the BOCK_GAMES games before it: a
    trigger among them set the count, and without one any older count has run out. So
    only the last BOCK_GAMES of ``before`` are read, and the cost of booking a game, or of
    scoring the rows from a corrected one on, does not grow with the evening. The result
    covers ``games`` only; ``totals`` are theirs alone.
    """
    window = tuple(before)[-BOCK_GAMES:] if isinstance(rules, TariffRules) else ()
    games = tuple(games)
    result = score_evening(rules, (*window, *games))
    scored = result.games[len(window) :]
    totals: dict[str, int] = {}
    for game, game_result in zip(games, scored, strict=True):
        for player in game.players:
            totals[player] = totals.get(player, 0) + game_result.payouts[player]
    return EveningResult(scored, totals, result.bock_remaining)


def value_parts(rules: Rules, game: Game) -> ValueParts:
    """The summands of ``game``'s value, as score_game adds them (for explanations)."""
    validate_rules(rules)
    validate_game(rules, game)
    if isinstance(rules, TariffRules):
        return _tariff_parts(rules, game)
    return _prohof_parts(rules, game)


def doublings(rules: TariffRules, game: Game, bock: bool = False) -> Doublings:
    """What doubles ``game``'s value under the tariff ``rules``, as score_game counts it."""
    validate_rules(rules)
    validate_game(rules, game)
    _check_bock_preview(rules, bock)
    return _doublings(rules, game, bock)


def outcome_from_augen(declarer_augen: int) -> Outcome:
    """Won and Schneider from the Augen of the declarer's side (of 120).

    The table rule is not symmetric (contract): the declarer's side wins with 61 and is
    Schneider-free with 31; the opponents win with 60 and are Schneider-free with 30.
    So 90:30 for the declarer is not Schneider, 91:29 is. Schwarz counts tricks, not
    Augen, and cannot be derived here.
    """
    if type(declarer_augen) is not int or not 0 <= declarer_augen <= 120:
        raise ScoringError(
            "augen",
            "must be between 0 and 120",
            "Die Augen müssen zwischen 0 und 120 liegen.",
            section="augen",
        )
    won = declarer_augen >= 61
    opponents = 120 - declarer_augen
    schneider = opponents < 30 if won else declarer_augen < 31
    return Outcome(won, schneider)
