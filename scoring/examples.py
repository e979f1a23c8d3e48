"""Worked examples for the rules page, computed by the same code that books a game.

Seed 001: "Alle zum voreingestellten Tarif, und alle von derselben Rechnung erzeugt,
die auch ein echtes Spiel bucht — hier steht keine abgetippte Zahl." Each example is a
Game scored by ``score_evening``, after the games that lead up to it (a Bock game after
its Ramsch); its German explanation is built from the same summands (``value_parts``) and
doublings (``doublings``) that the engine multiplies.

The rules pages show them with their request in the contract's JSON (``example_request``),
so anyone can rerun an example with ``python -m scoring``; seed 000's Rechenbeispiele are
``prohof_examples``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from scoring.engine import Doublings, doublings, score_evening, value_parts
from scoring.formatting import format_cents
from scoring.jsonio import game_to_json, rules_to_json
from scoring.model import (
    BOCK_GAMES,
    MAX_JUNGFRAU_DOUBLINGS,
    MAX_LAUFENDE,
    MAX_LAUFENDE_WENZ,
    PAIR_GAMES,
    BockMode,
    Game,
    GameResult,
    GameType,
    ProHofRules,
    Rules,
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
    # The games played before it that make it what it is (the Ramsch that starts the
    # Bockrunde of a Bock example); () for a game that stands on its own. ``result`` is
    # the last game of score_evening(rules, (*before, game)).
    before: tuple[Game, ...] = ()
    # Why ``before`` is there, in German ("Gespielt direkt nach einem Ramsch ..."); "".
    setting: str = ""
    # Step 1 in words, the two halves of ``description``: the summands of the value
    # ("Grundwert 0,10 € + 3 Laufende 0,30 € = 0,40 €") and each doubling ("×2 Kontra").
    value_text: str = ""
    doubling_texts: tuple[str, ...] = ()

    @property
    def games(self) -> tuple[Game, ...]:
        """The games of the example's request, in the order they are played."""
        return (*self.before, self.game)


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


def describe_sum(rules: TariffRules, game: Game) -> str:
    """Step 1 up to the doublings: the summands of the game's value, in German.

    "Grundwert 0,10 € + 3 Laufende 0,30 € = 0,40 €", with a note in brackets when
    Laufende were played that do not count ("(2 Laufende liegen unter der Schwelle und
    zählen nicht)") or not all of them count.
    """
    text, note = _summands(rules, game)
    return f"{text} ({note})" if note else text


def describe_doublings(rules: TariffRules, game: Game, bock: bool = False) -> tuple[str, ...]:
    """What doubles the game's value, one German item each: ("×2 Doppler", "×4 Re")."""
    return tuple(_doubling_names(doublings(rules, game, bock)))


def describe_value(rules: TariffRules, game: Game, bock: bool = False) -> str:
    """How the game's final value (what one losing opponent pays) is built, in German."""
    parts = value_parts(rules, game)
    factors = doublings(rules, game, bock)
    text, note = _summands(rules, game)
    named = _doubling_names(factors)
    if named:
        text += ", " + ", ".join(named) + f" = {format_cents(parts.value * factors.multiplier)}"
    if note:
        text += f" ({note})"
    return text


def _summands(rules: TariffRules, game: Game) -> tuple[str, str]:
    """The value's summands ("Grundwert 0,10 € + ... = 0,40 €") and a note on Laufende
    that were played but do not count ("" if none)."""
    parts = value_parts(rules, game)
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
    return text, note


def _doubling_names(factors: Doublings) -> list[str]:
    return [
        *([f"{TIMES}2 Doppler"] * factors.doubled),
        *([f"{TIMES}2 Kontra"] if factors.kontra == 1 else []),
        *([f"{TIMES}4 Re"] if factors.kontra == 2 else []),
        *([f"{TIMES}2 Tout"] * factors.tout),
        *([f"{TIMES}2 Jungfrau"] * factors.jungfrauen),
        *([f"{TIMES}2 Bock"] * factors.bock),
    ]


def describe_distribution(game: Game, result: GameResult) -> str:
    """Who gets and who pays, in German, from the result's payouts."""
    unit = format_cents(result.unit)
    triple = format_cents(3 * result.unit)
    payouts = result.payouts
    if game.type is GameType.RAMSCH:
        others = "die anderen drei"
        if game.jungfrauen:  # named: "(auch Vroni als Jungfrau)"
            as_what = "Jungfrau" if len(game.jungfrauen) == 1 else "Jungfrauen"
            others += f" (auch {' und '.join(game.jungfrauen)} als {as_what})"
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


def _example(
    rules: TariffRules,
    game: Game,
    short: str = "",
    before: tuple[Game, ...] = (),
    setting: str = "",
) -> Example:
    # Scored as its request is: in an evening, after the games that lead up to it.
    result = score_evening(rules, (*before, game)).games[-1]
    bock = result.bock
    return Example(
        describe_game(game, bock),
        game,
        result,
        bock,
        describe_value(rules, game, bock),
        describe_distribution(game, result),
        short,
        before=before,
        setting=setting,
        value_text=describe_sum(rules, game),
        doubling_texts=describe_doublings(rules, game, bock),
    )


def worked_examples(rules: TariffRules) -> list[Example]:
    """A dozen typical games under ``rules``, each scored as booked.

    Together they show every mechanism: Laufende below, at and above the cap, Schneider
    and Schwarz, Kontra and Re, Doppeln, Tout won and lost, the Wenz and the Ramsch. The
    Jungfrau example appears only when the rules play Jungfrau, the Bock examples only
    when they play Bock (played after the game that starts the Bockrunde).
    """
    n = rules.laufende_min
    # Above the cap when there is room above it; a Runde that counts all 14 gets 14.
    beyond_cap = min(rules.laufende_max + 1, MAX_LAUFENDE)
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
        _example(rules, sauspiel(won=True, laufende=beyond_cap)),
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
        examples.append(
            _example(
                rules,
                sauspiel(won=True),
                before=(Game(GameType.RAMSCH, TABLE, loser=RESI),),
                setting=f"Gespielt direkt nach einem Ramsch, den {RESI} verloren hat: "
                "Der Ramsch löst die Bockrunde aus, dies ist ihr erstes Spiel.",
            )
        )
    if rules.bock is BockMode.RAMSCH_OR_LOST_SOLO:
        examples.append(
            _example(
                rules,
                solo(GameType.FARBSOLO, won=True),
                before=(solo(GameType.WENZ, won=False),),
                setting=f"Gespielt direkt nach einem Wenz, den {VRONI} verloren hat: "
                "In dieser Runde löst auch ein verlorenes Solo die Bockrunde aus.",
            )
        )
    return examples


def example_request(rules: Rules, games: Sequence[Game]) -> dict[str, object]:
    """The request of the contract that scores ``games`` under ``rules``, as
    ``python -m scoring`` reads it; its last game's payouts are the example's."""
    return {"rules": rules_to_json(rules), "games": [game_to_json(game) for game in games]}


@dataclass(frozen=True, slots=True)
class RuleFigures:
    """The numbers the rules page's text names besides the tariff's own values."""

    laufende_at_threshold: int  # what exactly laufende_min Laufende pay ("3 zahlen für 3")
    schneider_and_schwarz: int  # what a game won schwarz adds: both amounts
    wenz_cap: int  # the most Laufende a Wenz pays
    bock_games: int = BOCK_GAMES
    max_jungfrauen: int = MAX_JUNGFRAU_DOUBLINGS
    max_laufende: int = MAX_LAUFENDE
    max_laufende_wenz: int = MAX_LAUFENDE_WENZ


def rule_figures(rules: TariffRules) -> RuleFigures:
    """The figures of the rules page's text under ``rules``, from ``value_parts``."""
    n = rules.laufende_min
    at_threshold = value_parts(
        rules, Game(GameType.SAUSPIEL, TABLE, declarer=SEPP, partner=HIAS, won=True, laufende=n)
    )
    schwarz = value_parts(
        rules, Game(GameType.SAUSPIEL, TABLE, declarer=SEPP, partner=HIAS, won=True, schwarz=True)
    )
    wenz = value_parts(
        rules, Game(GameType.WENZ, TABLE, declarer=VRONI, won=True, laufende=MAX_LAUFENDE_WENZ)
    )
    return RuleFigures(
        laufende_at_threshold=at_threshold.laufende_amount,
        schneider_and_schwarz=schwarz.schneider + schwarz.schwarz,
        wenz_cap=wenz.laufende,
    )


# -- ProHof (seed 000) -------------------------------------------------------------------

PROHOF = ProHofRules()

_PROHOF_NAMES = {
    GameType.RUFSPIEL: "Rufspiel",
    GameType.WENZ: "Wenz",
    GameType.UEBERKREUZ: "Über-Kreuz-Spiel",
}
_SUIT_NAMES = {
    Suit.EICHEL: "Eichel",
    Suit.GRAS: "Gras",
    Suit.HERZ: "Herz",
    Suit.SCHELLEN: "Schellen",
}


@dataclass(frozen=True, slots=True)
class ProHofExample:
    """One of seed 000's Rechenbeispiele, scored by the engine under ProHofRules."""

    seed: str  # the seed's sentence, as it stands there
    seed_points: int  # the game's points as the seed gives them
    title: str  # the game in the app's words, built from it
    game: Game
    result: GameResult
    description: str  # "Wenz 20 + angesagt 10 + 3 Laufende 30 + ... = 80 Punkte"
    distribution: str  # "Vroni bekommt 3 × 80 = 240 Punkte gutgeschrieben."

    @property
    def contradicts_seed(self) -> bool:
        """Whether the seed's own number differs from its rule list (the engine's)."""
        return self.seed_points != self.result.value


def _points(n: int) -> str:
    return "1 Punkt" if n == 1 else f"{n} Punkte"


def _prohof_name(game: Game) -> str:
    if game.type is GameType.SOLO and game.suit is not None:
        return f"{_SUIT_NAMES[game.suit]}-Solo"
    return _PROHOF_NAMES.get(game.type, str(game.type))


def describe_prohof_game(game: Game) -> str:
    """A ProHof game's title in German: "Wenz gewonnen mit 3 Laufenden, Schneider
    angesagt und Schwarz", "Herz-Solo-Tout gewonnen mit 4 Laufenden"."""
    name = _prohof_name(game) + ("-Tout" if game.tout else "")
    name += " gewonnen" if game.won else " verloren"
    if game.laufende:
        name += f" mit {game.laufende} Laufenden"
    extras = []
    if not game.tout:  # a Tout is Schneider and Schwarz by its name
        if game.angesagt:
            extras.append("Schneider angesagt")
        elif game.schneider or game.schwarz:
            extras.append("Schneider")
        if game.schwarz:
            extras.append("Schwarz")
    if extras:
        name += ", " + _und(extras)
    return name


def describe_prohof_value(game: Game) -> str:
    """How the game's points are built, in the seed's order: base, angesagt or Tout,
    Laufende, Schneider, Schwarz."""
    parts = value_parts(PROHOF, game)
    summands = [f"{_prohof_name(game)} {parts.base}"]
    if parts.angesagt:
        summands.append(f"angesagt {parts.angesagt}")
    if parts.tout:
        summands.append(f"Tout angesagt {parts.tout}")
    if parts.laufende:
        summands.append(f"{_laufende(parts.laufende)} {parts.laufende_amount}")
    if parts.schneider:
        summands.append(f"Schneider {parts.schneider}")
    if parts.schwarz:
        summands.append(f"Schwarz {parts.schwarz}")
    return " + ".join(summands) + f" = {_points(parts.value)}"


def describe_prohof_distribution(game: Game, result: GameResult) -> str:
    """Who is credited what, in German, from the result's points."""
    credited = [p for p in game.players if result.payouts[p] > 0]
    if game.type in PAIR_GAMES or not game.won:
        return f"{_und(credited)} bekommen je {_points(result.unit)} gutgeschrieben."
    declarer = credited[0]
    total = result.payouts[declarer]
    return f"{declarer} bekommt 3 {TIMES} {result.unit} = {_points(total)} gutgeschrieben."


def _prohof_example(seed: str, seed_points: int, game: Game) -> ProHofExample:
    result = score_evening(PROHOF, (game,)).games[0]
    return ProHofExample(
        seed,
        seed_points,
        describe_prohof_game(game),
        game,
        result,
        describe_prohof_value(game),
        describe_prohof_distribution(game, result),
    )


def prohof_least_rufspiel() -> int:
    """The fewest points a won Rufspiel brings each winner: every game has a Laufender,
    with or without ("ohne Einen"), so never the bare 10."""
    game = Game(GameType.RUFSPIEL, TABLE, declarer=SEPP, partner=HIAS, won=True, laufende=1)
    return score_evening(PROHOF, (game,)).games[0].value


def prohof_examples() -> list[ProHofExample]:
    """Seed 000's Rechenbeispiele in its order, each scored by the engine.

    "mit oder ohne Zweien" is a run of two, "Schwarz, angesagt" is a Tout (Schwarz
    announced, +20). One example contradicts the seed's own rule list ("Wenz mit Vieren,
    Schneider angesagt, Schwarz gewonnen 100 Punkte": 20 + 40 + 10 + 10 + 10 = 90); the
    contract says the rule list stands, and ``contradicts_seed`` marks it.
    """

    rufspiel = Game(GameType.RUFSPIEL, TABLE, declarer=SEPP, partner=HIAS, won=True)
    solo = Game(GameType.SOLO, TABLE, declarer=VRONI, suit=Suit.EICHEL, won=True)
    wenz = Game(GameType.WENZ, TABLE, declarer=VRONI, won=True)
    schneiderwenz = replace(wenz, angesagt=True, laufende=3, schneider=True, schwarz=True)
    return [
        _prohof_example(
            "Rufspiel mit 2 laufenden Obern, Schneider: Spiel 10, mit 2en 30, Schneider 40. "
            "Die beiden Gewinner erhalten je 40 Punkte gutgeschrieben",
            40,
            replace(rufspiel, laufende=2, schneider=True),
        ),
        _prohof_example(
            "Schneiderwenz mit 3en schwarz: Wenz 20, angesagt 30, mit 3en 60, Schneider 70, "
            "Schwarz 80. Der Gewinner erhält 3 x 80 Punkte also 240 Punkte gutgeschrieben",
            80,
            schneiderwenz,
        ),
        _prohof_example(
            "… wird das Spiel verloren erhalten die 3 Mitspieler je 80 Punkte gutgeschrieben.",
            80,
            replace(schneiderwenz, won=False),
        ),
        _prohof_example(
            "Herz tout mit 4en: Herz Solo 30, Tout angesagt 50, mit 4en 90, Schneider 100 "
            "Schwarz 110. Der Gewinner erhält 3 x 110 Punkte also 330 Punkte gutgeschrieben",
            110,
            replace(solo, suit=Suit.HERZ, tout=True, laufende=4),
        ),
        _prohof_example(
            "Solo mit 61 Punkten, „mit oder ohne Zweien“ 50 Punkte", 50, replace(solo, laufende=2)
        ),
        _prohof_example(
            "Solo mit oder ohne Zweien, Schneider 60 Punkte",
            60,
            replace(solo, laufende=2, schneider=True),
        ),
        _prohof_example(
            "Solo mit oder ohne „Zweien“ und „Schwarz“ 70 Punkte",
            70,
            replace(solo, laufende=2, schwarz=True),
        ),
        _prohof_example(
            "Solo mit oder ohne „Zweien“ und „Schwarz“, angesagt 90 Punkte",
            90,
            replace(solo, laufende=2, tout=True),
        ),
        _prohof_example(
            "Solo mit sechs Laufenden (Eichel Ober bis Grün Unter), Schneider, Schwarz "
            "gewonnen 110 Punkte",
            110,
            replace(solo, laufende=6, schneider=True, schwarz=True),
        ),
        _prohof_example(
            "Wenz mit 61 Punkten, „mit oder ohne Zweien“ 40 Punkte", 40, replace(wenz, laufende=2)
        ),
        _prohof_example(
            "Wenz mit oder ohne Zweien, Schneider 50 Punkte",
            50,
            replace(wenz, laufende=2, schneider=True),
        ),
        _prohof_example(
            "Wenz mit oder ohne „Zweien“ und „Schwarz“ 60 Punkte",
            60,
            replace(wenz, laufende=2, schwarz=True),
        ),
        _prohof_example(
            "Wenz mit oder ohne „Zweien“ und „Schwarz“, angesagt 80 Punkte",
            80,
            replace(wenz, laufende=2, tout=True),
        ),
        _prohof_example(
            "Wenz mit Vieren (Eichel Unter bis Schnellen Unter), Schneider angesagt, Schwarz "
            "gewonnen 100 Punkte",
            100,
            replace(wenz, laufende=4, angesagt=True, schneider=True, schwarz=True),
        ),
        _prohof_example(
            "Rufspiel mit 61 Punkten, mit oder ohne Zweien“ 30 Punkte",
            30,
            replace(rufspiel, laufende=2),
        ),
        _prohof_example(
            "Rufspiel mit oder ohne Zweien, Schneider 40 Punkte",
            40,
            replace(rufspiel, laufende=2, schneider=True),
        ),
        _prohof_example(
            "Rufspiel mit oder ohne „Zweien“ und „Schwarz“ 50 Punkte",
            50,
            replace(rufspiel, laufende=2, schwarz=True),
        ),
        _prohof_example(
            "Gewinnt ein Spieler ein Solo schwarz ohne Ansage mit Zweien, werden ihm "
            "210 Punkte gutgeschrieben (70 Punkte x 3 Gegenspieler = 210 Pkte)",
            70,
            replace(solo, laufende=2, schwarz=True),
        ),
        _prohof_example(
            "Verliert der Spieler, erhalten die drei Gegenspieler jeweils 70 Punkte.",
            70,
            replace(solo, won=False, laufende=2, schwarz=True),
        ),
    ]
