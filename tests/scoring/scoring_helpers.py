"""Builders for the games of the seed tests: one table, short calls."""

from __future__ import annotations

from typing import Any

from scoring import Game, GameResult, GameType, Rules, Suit, TariffRules, score_game

TABLE = ("Sepp", "Vroni", "Hias", "Resi")
SEPP, VRONI, HIAS, RESI = TABLE


def sauspiel(won: bool = True, **kwargs: Any) -> Game:
    """Sepp plays with Hias against Vroni and Resi."""
    return Game(
        GameType.SAUSPIEL, TABLE, **{"declarer": SEPP, "partner": HIAS, "won": won, **kwargs}
    )


def farbsolo(won: bool = True, suit: Suit = Suit.HERZ, **kwargs: Any) -> Game:
    """Vroni plays alone."""
    return Game(GameType.FARBSOLO, TABLE, **{"declarer": VRONI, "suit": suit, "won": won, **kwargs})


def wenz(won: bool = True, **kwargs: Any) -> Game:
    """Vroni plays alone."""
    return Game(GameType.WENZ, TABLE, **{"declarer": VRONI, "won": won, **kwargs})


def ramsch(loser: str = RESI, **kwargs: Any) -> Game:
    return Game(GameType.RAMSCH, TABLE, loser=loser, **kwargs)


def rufspiel(won: bool = True, **kwargs: Any) -> Game:
    """Sepp plays with Hias against Vroni and Resi."""
    return Game(
        GameType.RUFSPIEL, TABLE, **{"declarer": SEPP, "partner": HIAS, "won": won, **kwargs}
    )


def solo(won: bool = True, suit: Suit = Suit.HERZ, **kwargs: Any) -> Game:
    """Vroni plays alone (ProHof)."""
    return Game(GameType.SOLO, TABLE, **{"declarer": VRONI, "suit": suit, "won": won, **kwargs})


def ueberkreuz(won: bool = True, **kwargs: Any) -> Game:
    """Sepp holds the Eichel Ober, Hias sits opposite."""
    return Game(
        GameType.UEBERKREUZ, TABLE, **{"declarer": SEPP, "partner": HIAS, "won": won, **kwargs}
    )


def score(game: Game, rules: Rules | None = None, bock: bool = False) -> GameResult:
    return score_game(TariffRules() if rules is None else rules, game, bock)


def unit(game: Game, rules: Rules | None = None, bock: bool = False) -> int:
    """What one losing opponent pays (tariff)."""
    return score(game, rules, bock).unit


def payouts(game: Game, rules: Rules | None = None, bock: bool = False) -> dict[str, int]:
    return dict(score(game, rules, bock).payouts)


# The contract's example request and its exact response.
CONTRACT_REQUEST: dict[str, Any] = {
    "rules": {"system": "tariff", "bock": "ramsch", "jungfrau": True},
    "games": [
        {
            "type": "sauspiel",
            "players": list(TABLE),
            "declarer": "Sepp",
            "partner": "Hias",
            "won": True,
            "laufende": 3,
            "schneider": True,
            "schwarz": False,
            "kontra": 1,
            "doubled": 0,
        },
        {"type": "ramsch", "players": list(TABLE), "loser": "Resi", "jungfrauen": ["Vroni"]},
    ],
    "settle": {"unit": 10},
}

CONTRACT_RESPONSE: dict[str, Any] = {
    "games": [
        {
            "value": 50,
            "multiplier": 2,
            "unit": 100,
            "bock": False,
            "payouts": {"Sepp": 100, "Vroni": -100, "Hias": 100, "Resi": -100},
        },
        {
            "value": 10,
            "multiplier": 2,
            "unit": 20,
            "bock": False,
            "payouts": {"Sepp": 20, "Vroni": 20, "Hias": 20, "Resi": -60},
        },
    ],
    "totals": {"Sepp": 120, "Vroni": -80, "Hias": 120, "Resi": -160},
    "settlement": {
        "transfers": [
            {"from": "Resi", "to": "Sepp", "amount": 120},
            {"from": "Resi", "to": "Hias", "amount": 40},
            {"from": "Vroni", "to": "Hias", "amount": 80},
        ],
        "open": {"Sepp": 0, "Vroni": 0, "Hias": 0, "Resi": 0},
    },
}


def key_paths(obj: object, path: str = "") -> list[str]:
    """Every key of a JSON document in document order, so that order is compared too."""
    if isinstance(obj, dict):
        return [p for k, v in obj.items() for p in [f"{path}/{k}", *key_paths(v, f"{path}/{k}")]]
    if isinstance(obj, list):
        return [p for i, v in enumerate(obj) for p in key_paths(v, f"{path}/{i}")]
    return []
