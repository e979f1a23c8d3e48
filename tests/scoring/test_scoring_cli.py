"""``python -m scoring < evening.json > result.json``, run as the contract says: a subprocess
from the repository root."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from scoring_helpers import CONTRACT_REQUEST, CONTRACT_RESPONSE, key_paths

ROOT = Path(__file__).resolve().parents[2]
TABLE = ["Sepp", "Vroni", "Hias", "Resi"]
TARIFF = {"system": "tariff"}


def run(stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "scoring"],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def request(*games: dict[str, object], rules: dict[str, object] = TARIFF) -> bytes:
    return json.dumps({"rules": rules, "games": list(games)}).encode()


def sauspiel(**changes: object) -> dict[str, object]:
    return {"type": "sauspiel", "players": TABLE, "declarer": "Sepp", "partner": "Hias", **changes}


def test_the_contract_example_request_gets_the_contract_response() -> None:
    done = run(json.dumps(CONTRACT_REQUEST).encode())
    assert (done.returncode, done.stderr) == (0, b"")
    response = json.loads(done.stdout)
    assert response == CONTRACT_RESPONSE
    assert key_paths(response) == key_paths(CONTRACT_RESPONSE)


def test_an_evening_without_settle_gets_games_and_totals_only() -> None:
    done = run(request(sauspiel(won=True), sauspiel(won=False, kontra=2)))
    assert done.returncode == 0
    assert json.loads(done.stdout) == {
        "games": [
            {"value": 10, "multiplier": 1, "unit": 10, "bock": False,
             "payouts": {"Sepp": 10, "Vroni": -10, "Hias": 10, "Resi": -10}},
            {"value": 10, "multiplier": 4, "unit": 40, "bock": False,
             "payouts": {"Sepp": -40, "Vroni": 40, "Hias": -40, "Resi": 40}},
        ],
        "totals": {"Sepp": -30, "Vroni": 30, "Hias": -30, "Resi": 30},
    }  # fmt: skip


def test_a_prohof_evening_credits_points() -> None:
    solo = {"type": "solo", "players": TABLE, "declarer": "Vroni", "suit": "herz",
            "won": True, "laufende": 4, "tout": True}  # fmt: skip
    done = run(request(solo, rules={"system": "prohof"}))
    assert done.returncode == 0
    assert json.loads(done.stdout)["totals"] == {"Sepp": 0, "Vroni": 330, "Hias": 0, "Resi": 0}


@pytest.mark.parametrize(
    ("stdin", "line"),
    [
        (b'{"rules": {"system": "tariff"}, "games": [', "request: json: malformed JSON"),
        (request(sauspiel(), sauspiel(kontar=1)), "game 2: kontar: unknown key"),
        (request(sauspiel(partner="Sepp")), "game 1: partner: must not be the declarer"),
        (request(sauspiel(), sauspiel(), sauspiel(partner="Wastl")),
         "game 3: partner: must be one of the four players"),
        (request(sauspiel(tout=True)), "game 1: tout: only a farbsolo or a wenz can be a tout"),
        (request({"type": "rufspiel", "players": TABLE, "declarer": "Sepp", "partner": "Hias",
                  "kontra": 1}, rules={"system": "prohof"}),
         "game 1: kontra: there is no Kontra or Re at ProHof"),
        (request({"type": "ramsch", "players": TABLE, "loser": "Resi", "jungfrauen": ["Sepp"]}),
         "game 1: jungfrauen: the rules do not play jungfrau"),
        (request(sauspiel(), sauspiel(laufende=15)), "game 2: laufende: must be between 0 and 14"),
        (request({"type": "wenz", "players": TABLE, "declarer": "Sepp", "laufende": 5}),
         "game 1: laufende: must be between 0 and 4"),
        (request(sauspiel(laufende=True)), "game 1: laufende: must be a whole number"),
        (request({"type": "geier", "players": TABLE}), "game 1: type: unknown game type 'geier'"),
        (request(sauspiel(**{"weird\nkey": 1})), "game 1: weird\\nkey: unknown key"),
    ],
)  # fmt: skip
def test_bad_input_exits_2_with_nothing_on_stdout_and_one_line_on_stderr(
    stdin: bytes, line: str
) -> None:
    done = run(stdin)
    assert done.returncode == 2
    assert done.stdout == b""
    err = done.stderr.decode()
    assert err.count("\n") == 1 and err.endswith("\n")
    assert err.startswith(line)
