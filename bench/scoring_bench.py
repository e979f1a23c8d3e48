"""Scoring throughput: how fast the engine rescores games, evenings and a club's history.

    .venv/bin/python bench/scoring_bench.py

A plain script, not a test. Every figure includes validation: the engine checks every
game each time it scores, as it does when the web app books one. The games are a fixed
pseudo-random mix of all tariff types (Bock on, Jungfrau on), the same on every run.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring import (
    BockMode,
    Game,
    GameType,
    Suit,
    TariffRules,
    game_to_json,
    rules_to_json,
    score_evening,
    score_game,
)
from scoring.jsonio import parse_request

RULES = TariffRules(bock=BockMode.RAMSCH_OR_LOST_SOLO, jungfrau=True)
NAMES = ("Sepp", "Vroni", "Hias", "Resi", "Girgl")
EVENING = 60
HISTORY = 100_000


def mixed_games(count: int, seed: int = 2024) -> list[Game]:
    """A table mix: mostly Sauspiele, some solos, the odd Ramsch; five players rotating."""
    rng = random.Random(seed)
    games: list[Game] = []
    for _ in range(count):
        table = tuple(rng.sample(NAMES, 4))
        players = (table[0], table[1], table[2], table[3])
        order = rng.sample(players, 4)
        kind = rng.choices(
            [GameType.SAUSPIEL, GameType.FARBSOLO, GameType.WENZ, GameType.RAMSCH],
            weights=[60, 20, 12, 8],
        )[0]
        kontra = rng.choice((0, 0, 0, 0, 1, 1, 2))
        doubled = rng.choice((0, 0, 0, 1, 2))
        if kind is GameType.RAMSCH:
            jungfrauen = tuple(order[1 : 1 + rng.choice((0, 0, 1, 2))])
            game = Game(kind, players, loser=order[0], jungfrauen=jungfrauen, kontra=kontra)
        else:
            wenz = kind is GameType.WENZ
            game = Game(
                kind,
                players,
                declarer=order[0],
                partner=order[1] if kind is GameType.SAUSPIEL else None,
                suit=rng.choice(list(Suit)) if kind is GameType.FARBSOLO else None,
                won=rng.random() < 0.6,
                laufende=rng.randint(0, 4 if wenz else 8),
                schneider=rng.random() < 0.25,
                schwarz=rng.random() < 0.05,
                tout=kind is not GameType.SAUSPIEL and rng.random() < 0.03,
                kontra=kontra,
                doubled=doubled,
            )
        games.append(game)
    return games


def median_us(action: object, runs: int) -> float:
    assert callable(action)
    samples = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        action()
        samples.append(time.perf_counter_ns() - start)
    return statistics.median(samples) / 1_000


def main() -> None:
    evening = mixed_games(EVENING)
    history = mixed_games(HISTORY, seed=7)
    evenings = [history[i : i + EVENING] for i in range(0, HISTORY, EVENING)]
    request = {"rules": rules_to_json(RULES), "games": [game_to_json(g) for g in evening]}

    # Warm up (imports, caches) before measuring.
    for _ in range(200):
        score_evening(RULES, evening)

    start = time.perf_counter()
    for game in history:
        score_game(RULES, game)
    single_s = time.perf_counter() - start

    evening_us = median_us(lambda: score_evening(RULES, evening), 3_000)
    json_us = median_us(lambda: score_evening(*parse_request(request)[:2]), 1_000)

    history_runs = []
    for _ in range(5):
        start = time.perf_counter()
        for games in evenings:
            score_evening(RULES, games)
        history_runs.append(time.perf_counter() - start)
    history_s = statistics.median(history_runs)

    bocks = sum(r.bock for r in score_evening(RULES, evening).games)
    rows = [
        ("score_game, one at a time", f"{HISTORY / single_s:,.0f} games/s"),
        ("score_evening, history", f"{HISTORY / history_s:,.0f} games/s"),
        (f"rescore one evening of {EVENING} games", f"{evening_us:,.0f} µs (median of 3000)"),
        ("  same, parsed from JSON first", f"{json_us:,.0f} µs (median of 1000)"),
        (
            f"rescore {HISTORY:,} games ({len(evenings)} evenings)",
            f"{history_s * 1_000:,.0f} ms (median of 5)",
        ),
    ]
    print(
        f"Python {sys.version.split()[0]}; Bock and Jungfrau on; {bocks} Bock games in the evening"
    )
    width = max(len(label) for label, _ in rows)
    print(f"{'measure':<{width}}  result")
    print(f"{'-' * width}  {'-' * 28}")
    for label, value in rows:
        print(f"{label:<{width}}  {value}")


if __name__ == "__main__":
    main()
