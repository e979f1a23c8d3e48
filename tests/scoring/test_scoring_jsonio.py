"""The JSON form of the contract, parsed strictly and answered in the contract's order."""

from __future__ import annotations

import json

import pytest
from scoring_helpers import CONTRACT_REQUEST, CONTRACT_RESPONSE, key_paths

from scoring import ProHofRules, ScoringError, TariffRules
from scoring.jsonio import answer, dumps, load_request, parse_request

TABLE = ["Sepp", "Vroni", "Hias", "Resi"]


def rejected(request: object) -> ScoringError:
    with pytest.raises(ScoringError) as err:
        parse_request(request)
    return err.value


def test_the_contract_example_gets_the_contract_response_in_its_key_order() -> None:
    response = answer(CONTRACT_REQUEST)
    assert response == CONTRACT_RESPONSE
    assert key_paths(response) == key_paths(CONTRACT_RESPONSE)


def test_settlement_is_present_only_when_asked_for() -> None:
    request = {k: v for k, v in CONTRACT_REQUEST.items() if k != "settle"}
    response = answer(request)
    assert list(response) == ["games", "totals"]


def test_the_response_text_is_json_with_a_final_newline() -> None:
    text = dumps(answer(CONTRACT_REQUEST))
    assert text.endswith("}\n")
    assert json.loads(text) == CONTRACT_RESPONSE


def test_a_missing_rules_key_takes_its_default() -> None:
    rules, games, unit = parse_request({"rules": {"system": "tariff"}, "games": []})
    assert rules == TariffRules()
    assert (games, unit) == ((), None)
    assert parse_request({"rules": {"system": "prohof"}, "games": []})[0] == ProHofRules()


def test_booleans_default_to_false_numbers_to_0_lists_to_empty() -> None:
    game = {"type": "sauspiel", "players": TABLE, "declarer": "Sepp", "partner": "Hias"}
    _, (parsed,), _ = parse_request({"rules": {"system": "tariff"}, "games": [game]})
    assert (parsed.won, parsed.schneider, parsed.laufende, parsed.kontra) == (False, False, 0, 0)
    ram = {"type": "ramsch", "players": TABLE, "loser": "Hias"}
    _, (parsed,), _ = parse_request({"rules": {"system": "tariff"}, "games": [ram]})
    assert parsed.jungfrauen == ()


def test_an_empty_settle_rounds_to_the_cent() -> None:
    assert parse_request({"rules": {"system": "tariff"}, "games": [], "settle": {}})[2] == 1


TARIFF = {"system": "tariff"}
WENZ = {"type": "wenz", "players": TABLE, "declarer": "Sepp"}


def req(*games: object, rules: object = TARIFF, **extra: object) -> dict[str, object]:
    return {"rules": rules, "games": list(games), **extra}


def tariff(**keys: object) -> dict[str, object]:
    return {"system": "tariff", **keys}


@pytest.mark.parametrize(
    ("request_", "line"),
    [
        ([], "request: request: must be a JSON object"),
        ({"games": []}, "request: rules: is required"),
        ({"rules": TARIFF}, "request: games: is required"),
        (req(player=[]), "request: player: unknown key"),
        (req(rules=[]), "request: rules: must be a JSON object"),
        (req(rules={}), 'rules: system: must be "tariff" or "prohof"'),
        (req(rules={"system": "money"}), 'rules: system: must be "tariff" or "prohof"'),
        ({"rules": TARIFF, "games": {}}, "request: games: must be a list"),
        (req(rules=tariff(geier=10)), "rules: geier: unknown key"),
        (req(rules=tariff(laufende=True)), "rules: laufende: must be a whole number"),
        (req(rules=tariff(laufende=10.0)), "rules: laufende: must be a whole number"),
        (req(rules=tariff(jungfrau="true")), "rules: jungfrau: must be true or false"),
        (
            req(rules={"system": "prohof", "wenz": 20}),
            "rules: wenz: ProHof points are fixed; no rule can be set",
        ),
        (
            req(rules={"system": "prohof"}, settle={}),
            "request: settle: settlement is for tariff evenings only",
        ),
        (req(settle=10), "request: settle: must be a JSON object"),
        (req(settle={"round": 10}), "settle: round: unknown key"),
        (req(settle={"unit": True}), "settle: unit: must be one of 1, 10, 50, 100"),
        (req(3), "game 1: game: must be a JSON object"),
        (req({"players": TABLE}), "game 1: type: is required"),
        (req({"type": "sauspiel"}), "game 1: players: is required"),
        (req(WENZ, {**WENZ, "Kontra": 1}), "game 2: Kontra: unknown key"),
        (req({**WENZ, "declarer": 1}), "game 1: declarer: must be a player's name"),
        (req({**WENZ, "players": [1, 2, 3, 4]}), "game 1: players: must be a list of four names"),
        (
            req(
                {"type": "ramsch", "players": TABLE, "loser": "Sepp", "jungfrauen": "Vroni"},
                rules=tariff(jungfrau=True),
            ),
            "game 1: jungfrauen: must be a list of players",
        ),
    ],
)
def test_a_request_outside_the_contract_names_the_place_and_the_key(
    request_: object, line: str
) -> None:
    err = rejected(request_)
    assert str(err) == line
    assert err.message_de


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("{", "request: json: malformed JSON at line 1 column 2"),
        ("", "request: json: malformed JSON at line 1 column 1"),
        ('{"rules": {}, "rules": {}}', "request: json: duplicate key 'rules'"),
        ('{"rules": {"system": "tariff", "laufende": NaN}}', "request: json: NaN is not a number"),
        (b"\xff\xfe", "request: json: not UTF-8"),
    ],
)
def test_text_that_is_not_json_is_rejected(text: str | bytes, start: str) -> None:
    with pytest.raises(ScoringError) as err:
        load_request(text)
    assert str(err.value).startswith(start)


def test_the_first_bad_game_is_named_by_its_position() -> None:
    good = {"type": "wenz", "players": TABLE, "declarer": "Sepp"}
    bad = {**good, "tout": True, "laufende": 5}
    err = rejected({"rules": {"system": "tariff"}, "games": [good, good, bad, {**good, "x": 1}]})
    assert str(err) == "game 3: laufende: must be between 0 and 4"
