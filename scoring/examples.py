"""Worked examples for the rules page, computed by the same code that books a game.

Seed 001: "Alle zum voreingestellten Tarif, und alle von derselben Rechnung erzeugt,
die auch ein echtes Spiel bucht — hier steht keine abgetippte Zahl." Each example is a
Game scored by ``score_game``; its German explanation is built from the same summands
(``value_parts``) and doublings (``doublings``) that ``score_game`` multiplies.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.engine import doublings, score_game, value_parts
from scoring.formatting import format_cents
from scoring.model import (
    BockMode,
    Game,
    GameResult,
    GameType,
    Suit,
    TariffRules,
)

# The sign in f"{TIMES}2 Kontra"; spelled out because it looks like an x in source code.
TIMES = "\N{MULTIPLICATION SIGN}"

# The table of the examples, in seat order.
SEPP, VRONI, HIAS, RESI = TABLE = ("Sepp", "Vroni", "Hias", "Resi")


@dataclass(frozen=True, slots=True)
class Example:
    # German, built from the game: "Sauspiel verloren mit 3 Laufenden und Kontra"
    title: str
    game: Game
    result: GameResult
    bock: bool  # scored as a Bock game
    # How the value was built: "Grundwert 0,10 € + 3 Laufende 0,30 € = 0,40 €, x2 Kontra = 0,80 €"
    description: str
    distribution: str  # who gets and who pays, e.g. "Sepp und Hias bekommen je 0,80 €, ..."
    # A label of a few words when the example is one of the key amounts a phone shows in
    # a compact summary ("Sauspiel", "Wenz, 3 Laufende"); "" for the others.
    short: str = ""


def _laufende(n: int) -> str:
    return "1 Laufender" if n == 1 else f"{n} Laufende"


_GAME_NAMES = {
    GameType.SAUSPIEL: "Sauspiel",
    GameType.FARBSOLO: "Farbsolo",
    GameType.WENZ: "Wenz",
    GameType.RAMSCH: "Ramsch",
}
_TIMES_WORDS = {1: "einmal", 2: "zweimal", 3: "dreimal"}


def _und(parts: list[str]) -> str:
    """ "a", "a und b", "a, b und c"."""
    return ", ".join(parts[:-1]) + " und " + parts[-1] if len(parts) > 1 else "".join(parts)


def describe_game(game: Game, bock: bool = False) -> str:
    """The game's title in German, naming every part that counts towards its value.

    "Sauspiel verloren mit 3 Laufenden und Kontra", "Farbsolo-Tout gewonnen mit
    3 Laufenden, Schneider und Schwarz", "Sauspiel als Bockspiel gewonnen".
    Laufende are named as played, also below the threshold (the description says that
    they do not count). Tariff games only.
    """
    name = _GAME_NAMES.get(game.type, str(game.type))
    if game.tout:
        name += "-Tout"
    if bock:
        name += " als Bockspiel"
    if game.type is not GameType.RAMSCH:
        name += " gewonnen" if game.won else " verloren"

    with_parts = []
    if game.laufende:
        with_parts.append(f"{game.laufende} Laufenden")
    if game.kontra:
        with_parts.append("Kontra" if game.kontra == 1 else "Re")
    if game.jungfrauen:
        n = len(game.jungfrauen)
        with_parts.append("Jungfrau" if n == 1 else f"{n} Jungfrauen")
    if with_parts:
        name += " mit " + _und(with_parts)

    extras = []
    # Schwarz and Tout imply Schneider, and the engine adds both amounts.
    if game.schwarz or game.tout:
        extras.append("Schneider und Schwarz")
    elif game.schneider:
        extras.append("Schneider")
    if game.doubled:
        extras.append(f"{_TIMES_WORDS.get(game.doubled, f'{game.doubled}-mal')} gedoppelt")
    if extras:
        name += ", " + ", ".join(extras)
    return name


def describe_value(rules: TariffRules, game: Game, bock: bool = False) -> str:
    """How the game's final value (what one losing opponent pays) is built, in German."""
    parts = value_parts(rules, game)
    factors = doublings(rules, game, bock)
    summands = [f"Grundwert {format_cents(parts.base)}"]
    note = ""
    if parts.laufende:
        summands.append(f"{_laufende(parts.laufende)} {format_cents(parts.laufende_amount)}")
        if parts.laufende < game.laufende:
            note = f"{_laufende(game.laufende)}, gezahlt werden höchstens {parts.laufende}"
    elif game.laufende == 1:
        note = "1 Laufender liegt unter der Schwelle und zählt nicht"
    elif game.laufende:
        note = f"{game.laufende} Laufende liegen unter der Schwelle und zählen nicht"
    if parts.schneider:
        summands.append(f"Schneider {format_cents(parts.schneider)}")
    if parts.schwarz:
        summands.append(f"Schwarz {format_cents(parts.schwarz)}")
    text = " + ".join(summands)
    if len(summands) > 1:
        text += f" = {format_cents(parts.value)}"

    named = [
        *([f"{TIMES}2 Doppler"] * factors.doubled),
        *([f"{TIMES}2 Kontra"] if factors.kontra == 1 else []),
        *([f"{TIMES}4 Re"] if factors.kontra == 2 else []),
        *([f"{TIMES}2 Tout"] * factors.tout),
        *([f"{TIMES}2 Jungfrau"] * factors.jungfrauen),
        *([f"{TIMES}2 Bock"] * factors.bock),
    ]
    if named:
        text += ", " + ", ".join(named) + f" = {format_cents(parts.value * factors.multiplier)}"
    if note:
        text += f" ({note})"
    return text


def describe_distribution(game: Game, result: GameResult) -> str:
    """Who gets and who pays, in German, from the result's payouts."""
    unit = format_cents(result.unit)
    triple = format_cents(3 * result.unit)
    payouts = result.payouts
    if game.type is GameType.RAMSCH:
        others = "die anderen drei" + (" (auch die Jungfrau)" if game.jungfrauen else "")
        return f"{game.loser} zahlt 3 {TIMES} {unit} = {triple}, {others} bekommen je {unit}."
    if game.type is GameType.SAUSPIEL:
        winners = [p for p in game.players if payouts[p] > 0]
        losers = [p for p in game.players if payouts[p] < 0]
        return (
            f"{' und '.join(winners)} bekommen je {unit}, {' und '.join(losers)} zahlen je {unit}."
        )
    declarer, gets, pay = (
        (game.declarer, "bekommt", "zahlen") if game.won else (game.declarer, "zahlt", "bekommen")
    )
    return f"{declarer} {gets} 3 {TIMES} {unit} = {triple}, die drei Gegner {pay} je {unit}."


def _example(rules: TariffRules, game: Game, bock: bool = False, short: str = "") -> Example:
    result = score_game(rules, game, bock)
    return Example(
        describe_game(game, bock),
        game,
        result,
        bock,
        describe_value(rules, game, bock),
        describe_distribution(game, result),
        short,
    )


def worked_examples(rules: TariffRules) -> list[Example]:
    """A dozen typical games under ``rules``, each scored by score_game.

    The Jungfrau example appears only when the rules play Jungfrau, the Bock example
    only when they play Bock.
    """
    n = rules.laufende_min
    n_wenz = rules.wenz_threshold

    def sauspiel(
        won: bool,
        laufende: int = 0,
        schneider: bool = False,
        schwarz: bool = False,
        kontra: int = 0,
        doubled: int = 0,
    ) -> Game:
        return Game(
            GameType.SAUSPIEL,
            TABLE,
            declarer=SEPP,
            partner=HIAS,
            won=won,
            laufende=laufende,
            schneider=schneider,
            schwarz=schwarz,
            kontra=kontra,
            doubled=doubled,
        )

    def solo(
        game_type: GameType,
        won: bool,
        laufende: int = 0,
        schneider: bool = False,
        tout: bool = False,
    ) -> Game:
        suit = Suit.HERZ if game_type is GameType.FARBSOLO else None
        return Game(
            game_type,
            TABLE,
            declarer=VRONI,
            suit=suit,
            won=won,
            laufende=laufende,
            schneider=schneider,
            tout=tout,
        )

    examples = [
        _example(rules, sauspiel(won=True), short="Sauspiel"),
        _example(rules, sauspiel(won=True, laufende=n), short=f"Sauspiel, {_laufende(n)}"),
    ]
    if n > 1:
        examples.append(_example(rules, sauspiel(won=True, laufende=n - 1)))
    examples += [
        _example(rules, sauspiel(won=False, schneider=True)),
        _example(rules, sauspiel(won=True, schwarz=True), short="Sauspiel, schwarz"),
        _example(rules, sauspiel(won=False, laufende=n, kontra=1)),
        _example(rules, sauspiel(won=True, kontra=2)),
        _example(rules, sauspiel(won=True, doubled=2)),
        _example(rules, solo(GameType.FARBSOLO, won=True, laufende=n, schneider=True)),
        _example(rules, solo(GameType.FARBSOLO, won=False), short="Farbsolo"),
        _example(
            rules,
            solo(GameType.WENZ, won=True, laufende=n_wenz),
            short=f"Wenz, {_laufende(n_wenz)}",
        ),
        _example(rules, solo(GameType.FARBSOLO, won=True, laufende=n, tout=True)),
        _example(rules, solo(GameType.WENZ, won=False, tout=True)),
        _example(rules, Game(GameType.RAMSCH, TABLE, loser=RESI), short="Ramsch"),
    ]
    if rules.jungfrau:
        examples.append(
            _example(rules, Game(GameType.RAMSCH, TABLE, loser=RESI, jungfrauen=(VRONI,)))
        )
    if rules.bock is not BockMode.OFF:
        examples.append(_example(rules, sauspiel(won=True), bock=True))
    return examples
