"""Checks that rules and games are inside the contract, before anything is computed.

Every check raises ``ScoringError`` with the contract key, an English line for the CLI
and a German sentence for the web form. The JSON layer (``scoring.jsonio``) checks the
JSON types and which keys are present; this module checks the values, so a caller of
the Python API gets the same protection.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scoring.errors import ScoringError
from scoring.model import (
    MAX_LAUFENDE,
    MAX_LAUFENDE_WENZ,
    PAIR_GAMES,
    PROHOF_GAMES,
    SOLO_GAMES,
    TARIFF_GAMES,
    BockMode,
    Game,
    GameType,
    ProHofRules,
    Rules,
    Suit,
    System,
    TariffRules,
)

# The keys of a game besides "type" and "players", per system and type (contract table).
_TARIFF_COMMON = ("kontra", "doubled")
_RESULT = ("won", "laufende", "schneider", "schwarz")
APPLICABLE_KEYS: dict[tuple[System, GameType], frozenset[str]] = {
    (System.TARIFF, GameType.SAUSPIEL): frozenset(
        ("declarer", "partner", *_RESULT, *_TARIFF_COMMON)
    ),
    (System.TARIFF, GameType.FARBSOLO): frozenset(
        ("declarer", "suit", *_RESULT, "tout", *_TARIFF_COMMON)
    ),
    (System.TARIFF, GameType.WENZ): frozenset(("declarer", *_RESULT, "tout", *_TARIFF_COMMON)),
    (System.TARIFF, GameType.RAMSCH): frozenset(("loser", "jungfrauen", *_TARIFF_COMMON)),
    (System.PROHOF, GameType.RUFSPIEL): frozenset(("declarer", "partner", *_RESULT, "angesagt")),
    (System.PROHOF, GameType.SOLO): frozenset(("declarer", "suit", *_RESULT, "tout", "angesagt")),
    (System.PROHOF, GameType.WENZ): frozenset(("declarer", *_RESULT, "tout", "angesagt")),
    (System.PROHOF, GameType.UEBERKREUZ): frozenset(("declarer", "partner", *_RESULT)),
}

# Every optional field of Game with its default; a field that does not apply to the
# game's type must keep it.
GAME_DEFAULTS: dict[str, object] = {
    "declarer": None,
    "partner": None,
    "suit": None,
    "won": False,
    "laufende": 0,
    "schneider": False,
    "schwarz": False,
    "tout": False,
    "kontra": 0,
    "doubled": 0,
    "angesagt": False,
    "loser": None,
    "jungfrauen": (),
}
GAME_KEYS = frozenset(("type", "players", *GAME_DEFAULTS))

# For each (system, type): the fields that must keep their default, precomputed so the
# per-game check stays a short loop.
_NOT_APPLICABLE: dict[tuple[System, GameType], tuple[tuple[str, object], ...]] = {
    sys_type: tuple((k, d) for k, d in GAME_DEFAULTS.items() if k not in keys)
    for sys_type, keys in APPLICABLE_KEYS.items()
}

_NAMES_DE = {
    GameType.SAUSPIEL: "Sauspiel",
    GameType.FARBSOLO: "Farbsolo",
    GameType.WENZ: "Wenz",
    GameType.RAMSCH: "Ramsch",
    GameType.RUFSPIEL: "Rufspiel",
    GameType.SOLO: "Solo",
    GameType.UEBERKREUZ: "Über-Kreuz-Spiel",
}

# German labels of the tariff keys, for messages at the form field.
RULE_LABELS_DE = {
    "sauspiel": "Der Grundwert des Sauspiels",
    "farbsolo": "Der Grundwert des Farbsolos",
    "wenz": "Der Grundwert des Wenz",
    "ramsch": "Der Grundwert des Ramsch",
    "laufende": "Der Wert je Laufendem",
    "laufende_min": "Die Schwelle für Laufende",
    "laufende_max": "Die Obergrenze für Laufende",
    "laufende_min_wenz": "Die Schwelle für Laufende beim Wenz",
    "schneider": "Der Wert für Schneider",
    "schwarz": "Der Wert für Schwarz",
}
TARIFF_INT_KEYS = tuple(RULE_LABELS_DE)


def laufende_range_de(key: str, threshold: int | None = None) -> str:
    """The German message for a Laufende setting out of its range ("laufende_min",
    "laufende_max", "laufende_min_wenz"); the Obergrenze's names the threshold if given."""
    low = {"laufende_max": "der Schwelle"}.get(key, "1")
    if key == "laufende_max" and threshold is not None:
        low += f" ({threshold})"
    high = MAX_LAUFENDE_WENZ if key == "laufende_min_wenz" else MAX_LAUFENDE
    return f"{RULE_LABELS_DE[key]} muss zwischen {low} und {high} liegen."


def _game_error(position: int | None, key: str, message: str, message_de: str) -> ScoringError:
    return ScoringError(key, message, message_de, position)


# -- rules -------------------------------------------------------------------------------


def validate_rules(rules: Rules) -> None:
    """Raise ScoringError unless ``rules`` is inside the contract."""
    if isinstance(rules, ProHofRules):
        return
    if not isinstance(rules, TariffRules):
        raise ScoringError(
            "system",
            'must be "tariff" or "prohof"',
            "Das Wertungssystem muss Tarif oder ProHof sein.",
        )
    for key in TARIFF_INT_KEYS:
        value = getattr(rules, key)
        label = RULE_LABELS_DE[key]
        if type(value) is not int:
            raise ScoringError(key, "must be a whole number", f"{label} muss eine ganze Zahl sein.")
        if value < 0:
            raise ScoringError(key, "must not be negative", f"{label} darf nicht negativ sein.")
    if not 1 <= rules.laufende_min <= MAX_LAUFENDE:
        raise ScoringError(
            "laufende_min",
            f"must be between 1 and {MAX_LAUFENDE}",
            laufende_range_de("laufende_min"),
        )
    if not rules.laufende_min <= rules.laufende_max <= MAX_LAUFENDE:
        raise ScoringError(
            "laufende_max",
            f"must be between laufende_min ({rules.laufende_min}) and {MAX_LAUFENDE}",
            laufende_range_de("laufende_max", rules.laufende_min),
        )
    if not 1 <= rules.wenz_threshold <= MAX_LAUFENDE_WENZ:
        raise ScoringError(
            "laufende_min_wenz",
            f"must be between 1 and {MAX_LAUFENDE_WENZ}",
            laufende_range_de("laufende_min_wenz"),
        )
    if not isinstance(rules.bock, BockMode):
        raise ScoringError(
            "bock",
            'must be "off", "ramsch" or "ramsch_or_lost_solo"',
            "Bock muss aus, nach jedem Ramsch oder nach Ramsch und verlorenem Solo sein.",
        )
    if type(rules.jungfrau) is not bool:
        raise ScoringError(
            "jungfrau", "must be true or false", "Jungfrau muss ein- oder ausgeschaltet sein."
        )


# -- games -------------------------------------------------------------------------------


def type_error(system: System, game_type: GameType, position: int | None) -> ScoringError:
    """The error for a game type that the system does not play."""
    messages = {
        GameType.RUFSPIEL: (
            "rufspiel is a ProHof game; the tariff calls it sauspiel",
            "Im Tarif heißt das Rufspiel Sauspiel.",
        ),
        GameType.SOLO: (
            "solo is a ProHof game; the tariff calls it farbsolo",
            "Im Tarif heißt das Solo Farbsolo.",
        ),
        GameType.UEBERKREUZ: (
            "ueberkreuz is played only at ProHof",
            "Über-Kreuz wird nur beim ProHof-Turnier gespielt.",
        ),
        GameType.SAUSPIEL: (
            "sauspiel is a tariff game; ProHof calls it rufspiel",
            "Beim ProHof-Turnier heißt das Sauspiel Rufspiel.",
        ),
        GameType.FARBSOLO: (
            "farbsolo is a tariff game; ProHof calls it solo",
            "Beim ProHof-Turnier heißt das Farbsolo Solo.",
        ),
        GameType.RAMSCH: (
            "there is no ramsch at ProHof",
            "Beim ProHof-Turnier wird kein Ramsch gespielt.",
        ),
    }
    en, de = messages.get(
        game_type, (f"not a game of the {system} system", "Diese Spielart gibt es hier nicht.")
    )
    return _game_error(position, "type", en, de)


def not_applicable_error(
    system: System, game_type: GameType, key: str, position: int | None
) -> ScoringError:
    """The error for a key that the game's type does not take (contract table of keys)."""
    name = _NAMES_DE[game_type]
    solos = "a farbsolo or a wenz" if system is System.TARIFF else "a solo or a wenz"
    solos_de = (
        "ein Farbsolo oder einen Wenz" if system is System.TARIFF else "ein Solo oder einen Wenz"
    )
    en: str
    de: str
    if key in ("kontra", "doubled") and system is System.PROHOF:
        en, de = (
            ("there is no Kontra or Re at ProHof", "Beim ProHof-Turnier gibt es kein Kontra.")
            if key == "kontra"
            else ("there is no Doppeln at ProHof", "Beim ProHof-Turnier wird nicht gedoppelt.")
        )
    elif key == "tout":
        en, de = f"only {solos} can be a tout", f"Tout kann nur auf {solos_de} angesagt werden."
    elif key == "angesagt":
        if system is System.TARIFF:
            en, de = (
                "angesagt exists only in ProHof games",
                "Schneider angesagt zählt nur beim ProHof-Turnier.",
            )
        else:
            en, de = (
                f"a {game_type} takes no announcement",
                f"Beim {name} wird kein Schneider angesagt.",
            )
    elif key == "suit":
        en, de = f"a {game_type} has no suit", f"Beim {name} wird keine Trumpffarbe angegeben."
    elif key == "partner":
        en, de = (
            f"a {game_type} has no partner",
            f"Beim {name} gibt es keinen Mitspieler.",
        )
    elif key == "declarer":
        en, de = "a ramsch has no declarer", "Beim Ramsch gibt es keinen Spieler."
    elif key == "won":
        en, de = "a ramsch is lost by the loser alone", "Beim Ramsch verliert nur der Verlierer."
    elif key == "laufende":
        en, de = "laufende do not count in a ramsch", "Beim Ramsch zählen keine Laufenden."
    elif key in ("schneider", "schwarz"):
        en, de = (
            f"there is no {key} in a ramsch",
            "Beim Ramsch gibt es weder Schneider noch Schwarz.",
        )
    elif key == "loser":
        en, de = (
            "only a ramsch has a loser",
            "Einen Verlierer ohne Spieler gibt es nur beim Ramsch.",
        )
    elif key == "jungfrauen":
        en, de = "jungfrauen count only in a ramsch", "Jungfrauen zählen nur beim Ramsch."
    else:
        en, de = f"not a key of a {game_type}", f"Das gehört nicht zum {name}."
    return _game_error(position, key, en, de)


def _check_player(
    position: int | None, key: str, player: object, players: Sequence[str], label_de: str
) -> None:
    if player is None:
        raise _game_error(position, key, "is required", f"{label_de} fehlt.")
    if player not in players:
        raise _game_error(
            position,
            key,
            "must be one of the four players",
            f"{label_de} muss einer der vier Spieler am Tisch sein.",
        )


def _check_bool(position: int | None, key: str, value: object) -> None:
    if type(value) is not bool:
        raise _game_error(position, key, "must be true or false", "Bitte ja oder nein angeben.")


def _check_int(position: int | None, key: str, value: object, low: int, high: int) -> None:
    if type(value) is not int:
        raise _game_error(position, key, "must be a whole number", "Bitte eine ganze Zahl angeben.")
    if not low <= value <= high:
        raise _game_error(
            position,
            key,
            f"must be between {low} and {high}",
            f"Bitte eine Zahl von {low} bis {high} angeben.",
        )


def check_players(players: object, position: int | None) -> None:
    """Four distinct, non-blank names."""
    if not isinstance(players, tuple | list) or len(players) != 4:
        raise _game_error(
            position, "players", "must be four players", "Am Tisch sitzen genau vier Spieler."
        )
    for player in players:
        if not isinstance(player, str) or not player.strip():
            raise _game_error(
                position,
                "players",
                "must be four non-empty names",
                "Jeder Spieler am Tisch braucht einen Namen.",
            )
    if len(set(players)) != 4:
        raise _game_error(
            position,
            "players",
            "must be four different players",
            "Am Tisch sitzen vier verschiedene Spieler.",
        )


def validate_game(rules: Rules, game: Game, position: int | None = None) -> None:
    """Raise ScoringError unless ``game`` is inside the contract under ``rules``.

    ``rules`` must already be valid. ``position`` (1-based) names the game in the error.
    """
    system = rules.system
    game_type = game.type
    if not isinstance(game_type, GameType):
        raise _game_error(position, "type", "unknown game type", "Unbekannte Spielart.")
    if game_type not in (TARIFF_GAMES if system is System.TARIFF else PROHOF_GAMES):
        raise type_error(system, game_type, position)
    players = game.players
    check_players(players, position)

    # 1. Keys the type does not take must keep their default.
    for key, default in _NOT_APPLICABLE[system, game_type]:
        if getattr(game, key) != default:
            raise not_applicable_error(system, game_type, key, position)

    # 2. Kontra and Doppeln (tariff only; "Kontra und Doppeln gelten auch beim Ramsch").
    if system is System.TARIFF:
        # "Eine dritte Kontra-Stufe (Sup oder Hirsch) wird nicht mehr angeboten."
        _check_int(position, "kontra", game.kontra, 0, 2)
        # "Doppeln ... bis zu 4-mal"
        _check_int(position, "doubled", game.doubled, 0, 4)

    if game_type is GameType.RAMSCH:
        _check_ramsch(rules, game, position)
        return

    # 3. The declarer's side.
    _check_player(position, "declarer", game.declarer, players, "Der Spieler")
    if game_type in PAIR_GAMES:
        _check_player(position, "partner", game.partner, players, "Der Mitspieler")
        if game.partner == game.declarer:
            raise _game_error(
                position,
                "partner",
                "must not be the declarer",
                "Der Mitspieler darf nicht der Spieler selbst sein.",
            )
    if game_type in (GameType.FARBSOLO, GameType.SOLO) and not isinstance(game.suit, Suit):
        raise _game_error(
            position,
            "suit",
            "must be one of eichel, gras, herz, schellen",
            "Beim Solo muss die Trumpffarbe angegeben sein.",
        )

    # 4. The outcome.
    _check_bool(position, "won", game.won)
    _check_bool(position, "schneider", game.schneider)
    _check_bool(position, "schwarz", game.schwarz)
    if game_type in SOLO_GAMES:
        _check_bool(position, "tout", game.tout)
    if system is System.PROHOF:
        if game_type is not GameType.UEBERKREUZ:
            _check_bool(position, "angesagt", game.angesagt)
        if game.angesagt and game.tout:
            # Seed 000, "Herz tout mit 4en: ... Tout angesagt 50, mit 4en 90, Schneider
            # 100 Schwarz 110": a Tout carries no separate "angesagt".
            raise _game_error(
                position,
                "angesagt",
                "a tout already announces schwarz",
                "Bei einem Tout ist Schwarz angesagt; Schneider angesagt zählt nicht dazu.",
            )
        if game.angesagt and game.won and not (game.schneider or game.schwarz):
            # An announced Schneider that is not reached loses the game; a won game that
            # was announced is a Schneider (or Schwarz).
            raise _game_error(
                position,
                "angesagt",
                "a won game with schneider announced must be schneider",
                "Schneider angesagt, aber nicht erreicht: dann ist das Spiel verloren.",
            )
    # "Beim Wenz sind nur die vier Unter Trumpf — mehr als vier Laufende kann es dort
    # nicht geben." Elsewhere the run can reach all 14 trumps; what is paid is capped.
    high = MAX_LAUFENDE_WENZ if game_type is GameType.WENZ else MAX_LAUFENDE
    _check_int(position, "laufende", game.laufende, 0, high)


def _check_ramsch(rules: Rules, game: Game, position: int | None) -> None:
    players = game.players
    _check_player(position, "loser", game.loser, players, "Der Verlierer")
    jungfrauen = game.jungfrauen
    if not isinstance(jungfrauen, tuple | list):
        raise _game_error(
            position, "jungfrauen", "must be a list of players", "Bitte Spieler auswählen."
        )
    if not jungfrauen:
        return
    if not (isinstance(rules, TariffRules) and rules.jungfrau):
        raise _game_error(
            position,
            "jungfrauen",
            "the rules do not play jungfrau",
            "Diese Runde spielt ohne Jungfrau.",
        )
    for player in jungfrauen:
        _check_player(position, "jungfrauen", player, players, "Eine Jungfrau")
    if len(set(jungfrauen)) != len(jungfrauen):
        raise _game_error(
            position,
            "jungfrauen",
            "names a player twice",
            "Jede Jungfrau nur einmal angeben.",
        )
    # The loser has the most Augen of 120, so at least 30: never without a trick. Three
    # Jungfrauen are possible (the loser took every trick); seed 001 "höchstens 2" caps
    # what they count (MAX_JUNGFRAU_DOUBLINGS), not how many there are.
    if game.loser in jungfrauen:
        raise _game_error(
            position,
            "jungfrauen",
            "the loser took tricks and cannot be a jungfrau",
            "Der Verlierer hat die meisten Augen und kann keine Jungfrau sein.",
        )


def check_evening_players(players: Iterable[object]) -> tuple[str, ...]:
    """The evening's players as given to score_evening: distinct non-blank names."""
    names: list[str] = []
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise ScoringError(
                "players",
                "must be non-empty names",
                "Jeder Spieler des Abends braucht einen Namen.",
                section="evening",
            )
        names.append(name)
    if len(set(names)) != len(names):
        raise ScoringError(
            "players",
            "names a player twice",
            "Jeder Spieler des Abends nur einmal angeben.",
            section="evening",
        )
    return tuple(names)
