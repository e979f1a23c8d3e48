"""The JSON form of the contract: parse a request, serialise a response.

Strict on JSON types: a number must be an integer (``true`` is not a number, ``3.0``
is not an integer), a flag must be ``true`` or ``false``, and every key must be one the
contract lists for that place, or the request is rejected with a ScoringError naming
the game's position and the key. The values are then checked by ``scoring.validation``
like any other caller's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING

from scoring.engine import score_evening
from scoring.errors import ScoringError
from scoring.model import (
    BockMode,
    EveningResult,
    Game,
    GameResult,
    GameType,
    ProHofRules,
    Rules,
    Suit,
    System,
    TariffRules,
)
from scoring.validation import (
    APPLICABLE_KEYS,
    GAME_DEFAULTS,
    GAME_KEYS,
    TARIFF_INT_KEYS,
    not_applicable_error,
    type_error,
    validate_game,
    validate_rules,
)

if TYPE_CHECKING:
    from scoring.settlement import Settlement

REQUEST_KEYS = ("rules", "games", "settle")
TARIFF_KEYS = frozenset(("system", *TARIFF_INT_KEYS, "bock", "jungfrau"))
SETTLE_KEYS = frozenset(("unit",))
# The rounding units of the payment proposal (contract, "Settlement").
SETTLE_UNITS = (1, 10, 50, 100)

_BOOL_KEYS = frozenset(("won", "schneider", "schwarz", "tout", "angesagt"))
_INT_KEYS = frozenset(("laufende", "kontra", "doubled"))
_PLAYER_KEYS = frozenset(("declarer", "partner", "loser"))


def _request_error(key: str, message: str, message_de: str) -> ScoringError:
    return ScoringError(key, message, message_de, section="request")


def _reject_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    result: dict[str, object] = {}
    for key, value in pairs:
        if key in result:
            raise _request_error(
                "json", f"duplicate key {key!r}", f"Der Schlüssel {key!r} kommt doppelt vor."
            )
        result[key] = value
    return result


def _reject_constant(name: str) -> object:
    raise _request_error("json", f"{name} is not a number", f"{name} ist keine Zahl.")


def load_request(text: str | bytes) -> object:
    """Parse JSON text strictly (no duplicate keys, no NaN/Infinity)."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return json.loads(
            text, object_pairs_hook=_reject_duplicates, parse_constant=_reject_constant
        )
    except UnicodeDecodeError as exc:
        raise _request_error("json", "not UTF-8", "Die Eingabe ist kein UTF-8.") from exc
    except json.JSONDecodeError as exc:
        raise _request_error(
            "json",
            f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}",
            "Die Eingabe ist kein gültiges JSON.",
        ) from exc
    except RecursionError as exc:
        raise _request_error(
            "json", "nested too deeply", "Die Eingabe ist zu tief verschachtelt."
        ) from exc


# -- request -----------------------------------------------------------------------------


def parse_request(obj: object) -> tuple[Rules, tuple[Game, ...], int | None]:
    """Turn a parsed request into (rules, games, settle unit or None); check everything."""
    if not isinstance(obj, dict):
        raise _request_error(
            "request", "must be a JSON object", "Die Anfrage muss ein JSON-Objekt sein."
        )
    for key in obj:
        if key not in REQUEST_KEYS:
            raise _request_error(key, "unknown key", "Unbekannter Schlüssel.")
    if "rules" not in obj:
        raise _request_error("rules", "is required", "Die Regeln fehlen.")
    rules = parse_rules(obj["rules"])
    if "games" not in obj:
        raise _request_error("games", "is required", "Die Spiele fehlen.")
    raw_games = obj["games"]
    if not isinstance(raw_games, list):
        raise _request_error("games", "must be a list", "Die Spiele müssen eine Liste sein.")
    games = tuple(parse_game(rules, raw, position) for position, raw in enumerate(raw_games, 1))
    unit = parse_settle(rules, obj["settle"]) if "settle" in obj else None
    return rules, games, unit


def parse_rules(obj: object) -> Rules:
    """The rules object of a request; a missing tariff key takes its default."""
    if not isinstance(obj, dict):
        raise _request_error(
            "rules", "must be a JSON object", "Die Regeln müssen ein JSON-Objekt sein."
        )
    system = obj.get("system")
    if not isinstance(system, str) or system not in tuple(System):
        raise ScoringError(
            "system",
            'must be "tariff" or "prohof"',
            "Das Wertungssystem muss Tarif oder ProHof sein.",
        )
    if system == System.PROHOF:
        for key in obj:
            if key != "system":
                raise ScoringError(
                    key,
                    "ProHof points are fixed; no rule can be set",
                    "Beim ProHof-Turnier stehen alle Werte fest.",
                )
        return ProHofRules()
    for key in obj:
        if key not in TARIFF_KEYS:
            raise ScoringError(key, "unknown key", "Unbekannte Einstellung.")
    kwargs: dict[str, object] = {}
    for key in TARIFF_INT_KEYS:
        if key in obj:
            value = obj[key]
            if type(value) is not int:
                raise ScoringError(key, "must be a whole number", "Bitte eine ganze Zahl angeben.")
            kwargs[key] = value
    if "bock" in obj:
        bock = obj["bock"]
        if not isinstance(bock, str) or bock not in tuple(BockMode):
            raise ScoringError(
                "bock",
                'must be "off", "ramsch" or "ramsch_or_lost_solo"',
                "Bock muss aus, nach jedem Ramsch oder nach Ramsch und verlorenem Solo sein.",
            )
        kwargs["bock"] = BockMode(bock)
    if "jungfrau" in obj:
        if type(obj["jungfrau"]) is not bool:
            raise ScoringError(
                "jungfrau", "must be true or false", "Jungfrau muss ein- oder ausgeschaltet sein."
            )
        kwargs["jungfrau"] = obj["jungfrau"]
    rules = TariffRules(**kwargs)  # type: ignore[arg-type]  # each value checked above
    validate_rules(rules)
    return rules


def parse_game(rules: Rules, obj: object, position: int) -> Game:
    """One game object of a request; ``position`` is its place in the evening, from 1."""

    def error(key: str, message: str, message_de: str) -> ScoringError:
        return ScoringError(key, message, message_de, position)

    if not isinstance(obj, dict):
        raise error("game", "must be a JSON object", "Ein Spiel muss ein JSON-Objekt sein.")
    for key in obj:
        if key not in GAME_KEYS:
            raise error(key, "unknown key", "Unbekannte Angabe.")
    raw_type = obj.get("type")
    if raw_type is None:
        raise error("type", "is required", "Die Spielart fehlt.")
    if not isinstance(raw_type, str) or raw_type not in tuple(GameType):
        raise error(
            "type",
            f"unknown game type {raw_type!r}",
            "Diese Spielart ist nicht eingebaut "
            "(Geier, Bettel, Hochzeit u. a. fehlen absichtlich).",
        )
    game_type = GameType(raw_type)
    try:
        applicable = APPLICABLE_KEYS[rules.system, game_type]
    except KeyError:
        raise type_error(rules.system, game_type, position) from None
    for key in obj:
        if key not in applicable and key not in ("type", "players"):
            raise not_applicable_error(rules.system, game_type, key, position)

    if "players" not in obj:
        raise error("players", "is required", "Die Spieler am Tisch fehlen.")
    players = obj["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise error(
            "players", "must be a list of four names", "Am Tisch sitzen genau vier Spieler."
        )
    kwargs: dict[str, object] = {"type": game_type, "players": tuple(players)}
    for key, value in obj.items():
        if key in _BOOL_KEYS:
            if type(value) is not bool:
                raise error(key, "must be true or false", "Bitte ja oder nein angeben.")
        elif key in _INT_KEYS:
            if type(value) is not int:
                raise error(key, "must be a whole number", "Bitte eine ganze Zahl angeben.")
        elif key in _PLAYER_KEYS:
            if not isinstance(value, str):
                raise error(key, "must be a player's name", "Bitte einen Spieler angeben.")
        elif key == "suit":
            if not isinstance(value, str) or value not in tuple(Suit):
                raise error(
                    "suit",
                    "must be one of eichel, gras, herz, schellen",
                    "Die Trumpffarbe muss Eichel, Gras, Herz oder Schellen sein.",
                )
            value = Suit(value)
        elif key == "jungfrauen":
            if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
                raise error("jungfrauen", "must be a list of players", "Bitte Spieler auswählen.")
            value = tuple(value)
        else:
            continue  # type and players, done above
        kwargs[key] = value
    game = Game(**kwargs)  # type: ignore[arg-type]  # each value checked above
    validate_game(rules, game, position)
    return game


def parse_settle(rules: Rules, obj: object) -> int:
    """The settle object of a request: the rounding unit (default 1 cent)."""

    def error(key: str, message: str, message_de: str) -> ScoringError:
        return ScoringError(key, message, message_de, section="settle")

    if not isinstance(rules, TariffRules):
        raise _request_error(
            "settle",
            "settlement is for tariff evenings only",
            "Ausgeglichen wird nur beim Spiel um Geld.",
        )
    if not isinstance(obj, dict):
        raise _request_error(
            "settle", "must be a JSON object", "Der Ausgleich muss ein JSON-Objekt sein."
        )
    for key in obj:
        if key not in SETTLE_KEYS:
            raise error(key, "unknown key", "Unbekannte Angabe.")
    unit = obj.get("unit", 1)
    if type(unit) is not int or unit not in SETTLE_UNITS:
        raise error(
            "unit",
            "must be one of 1, 10, 50, 100",
            "Die Rundung muss 1, 10, 50 oder 100 Cent sein.",
        )
    return unit


# -- request, written (for exports that the CLI can check) --------------------------------


def rules_to_json(rules: Rules) -> dict[str, object]:
    """The rules object of a request; parse_rules(rules_to_json(r)) == r."""
    if isinstance(rules, ProHofRules):
        return {"system": str(System.PROHOF)}
    obj: dict[str, object] = {"system": str(System.TARIFF)}
    for key in TARIFF_INT_KEYS:
        obj[key] = getattr(rules, key)
    obj["bock"] = str(rules.bock)
    obj["jungfrau"] = rules.jungfrau
    return obj


def game_to_json(game: Game) -> dict[str, object]:
    """A game object of a request: type, players and every key that is not at its default.

    parse_game(rules, game_to_json(g), n) == g for every valid game g.
    """
    obj: dict[str, object] = {"type": str(game.type), "players": list(game.players)}
    for key, default in GAME_DEFAULTS.items():
        value = getattr(game, key)
        if value == default:
            continue
        if key == "suit":
            value = str(value)
        elif key == "jungfrauen":
            value = list(value)
        obj[key] = value
    return obj


# -- response ----------------------------------------------------------------------------


def game_result_to_json(result: GameResult) -> dict[str, object]:
    """One game of the response, keys in the contract's order."""
    return {
        "value": result.value,
        "multiplier": result.multiplier,
        "unit": result.unit,
        "bock": result.bock,
        "payouts": dict(result.payouts),
    }


def settlement_to_json(settlement: Settlement) -> dict[str, object]:
    return {
        "transfers": [
            {"from": t.payer, "to": t.payee, "amount": t.amount} for t in settlement.transfers
        ],
        "open": dict(settlement.open),
    }


def result_to_json(
    result: EveningResult, settlement: Settlement | None = None
) -> dict[str, object]:
    """The response document; ``settlement`` only when the request asked for it."""
    response: dict[str, object] = {
        "games": [game_result_to_json(game) for game in result.games],
        "totals": dict(result.totals),
    }
    if settlement is not None:
        response["settlement"] = settlement_to_json(settlement)
    return response


def answer(request: object) -> dict[str, object]:
    """Parse, score and (if asked) settle a parsed request: the whole CLI minus I/O."""
    rules, games, unit = parse_request(request)
    result = score_evening(rules, games)
    settlement = None
    if unit is not None:
        from scoring.settlement import settle

        settlement = settle(result.totals, unit)
    return result_to_json(result, settlement)


def dumps(response: Mapping[str, object]) -> str:
    """The response as text, as the CLI prints it."""
    return json.dumps(response, ensure_ascii=False, indent=2) + "\n"
