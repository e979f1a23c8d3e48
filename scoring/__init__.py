"""The scoring engine: games of an evening in, amounts out.

Plain Python, standard library only: no Django, no I/O (except ``python -m scoring``),
no clock. Money is int cents end to end; ProHof points are ints. The contract is
``shared/scoring-contract.md``; the rule texts are seeds 001 (tariff) and 000 (ProHof).
The payment proposal lives in ``scoring.settlement``.
"""

from scoring.engine import (
    Doublings,
    Outcome,
    ValueParts,
    doublings,
    outcome_from_augen,
    score_after,
    score_evening,
    score_game,
    triggers_bock,
    value_parts,
)
from scoring.errors import NegativePointsError, ScoringError, ZeroSumError
from scoring.examples import Example, describe_distribution, describe_value, worked_examples
from scoring.formatting import format_cents
from scoring.jsonio import game_to_json, parse_request, result_to_json, rules_to_json
from scoring.model import (
    BOCK_GAMES,
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
from scoring.validation import validate_game, validate_rules

__all__ = [
    "BOCK_GAMES",
    "BockMode",
    "Doublings",
    "EveningResult",
    "Example",
    "Game",
    "GameResult",
    "GameType",
    "NegativePointsError",
    "Outcome",
    "ProHofRules",
    "Rules",
    "ScoringError",
    "Suit",
    "System",
    "TariffRules",
    "ValueParts",
    "ZeroSumError",
    "describe_distribution",
    "describe_value",
    "doublings",
    "format_cents",
    "game_to_json",
    "outcome_from_augen",
    "parse_request",
    "result_to_json",
    "rules_to_json",
    "score_after",
    "score_evening",
    "score_game",
    "triggers_bock",
    "validate_game",
    "validate_rules",
    "value_parts",
    "worked_examples",
]
