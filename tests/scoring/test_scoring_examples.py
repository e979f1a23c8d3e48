"""The rules page's worked examples and the euro formatting."""

from __future__ import annotations

import pytest
from scoring_helpers import farbsolo, sauspiel

from scoring import BockMode, GameType, TariffRules, format_cents, score_game, worked_examples
from scoring.examples import describe_value


def titles(rules: TariffRules) -> list[str]:
    return [example.title for example in worked_examples(rules)]


def test_a_dozen_typical_games_at_the_default_tariff() -> None:
    assert titles(TariffRules()) == [
        "Sauspiel gewonnen",
        "Sauspiel mit 3 Laufenden",
        "Sauspiel mit 2 Laufenden",
        "Sauspiel verloren, Schneider",
        "Sauspiel schwarz gewonnen",
        "Sauspiel mit Kontra",
        "Sauspiel mit Re",
        "Sauspiel, zweimal gedoppelt",
        "Farbsolo gewonnen, Schneider",
        "Farbsolo verloren",
        "Wenz mit 3 Laufenden",
        "Farbsolo-Tout gewonnen",
        "Wenz-Tout verloren",
        "Ramsch",
    ]


def test_jungfrau_and_bock_examples_appear_only_when_the_runde_plays_them() -> None:
    both = titles(TariffRules(jungfrau=True, bock=BockMode.RAMSCH))
    assert both[-2:] == ["Ramsch mit Jungfrau", "Sauspiel als Bockspiel"]
    assert "Ramsch mit Jungfrau" not in titles(TariffRules(bock=BockMode.RAMSCH))
    assert "Sauspiel als Bockspiel" not in titles(TariffRules(jungfrau=True))


@pytest.mark.parametrize(
    "rules",
    [
        TariffRules(),
        TariffRules(sauspiel=20, farbsolo=100, laufende=20, laufende_min=2, jungfrau=True),
        TariffRules(laufende_min=1, laufende_max=1, bock=BockMode.RAMSCH_OR_LOST_SOLO),
    ],
)
def test_every_example_is_what_score_game_books(rules: TariffRules) -> None:
    for example in worked_examples(rules):
        assert example.result == score_game(rules, example.game, example.bock)
        assert example.result.bock == example.bock
        assert example.description.endswith(format_cents(example.result.unit)) or (
            "(" in example.description
        )


def test_the_description_is_built_from_the_same_numbers() -> None:
    rules = TariffRules()
    assert describe_value(rules, sauspiel(laufende=3, kontra=1)) == (
        "Grundwert 0,10 € + 3 Laufende 0,30 € = 0,40 €, ×2 Kontra = 0,80 €"
    )
    assert describe_value(rules, farbsolo(laufende=10, tout=True)) == (
        "Grundwert 0,50 € + 8 Laufende 0,80 € + Schneider 0,10 € + Schwarz 0,10 € = 1,50 €, "
        "×2 Tout = 3,00 € (10 Laufende, gezahlt werden höchstens 8)"
    )
    assert describe_value(rules, sauspiel(laufende=2)) == (
        "Grundwert 0,10 € (2 Laufende liegen unter der Schwelle und zählen nicht)"
    )


def test_the_distribution_names_who_gets_and_who_pays() -> None:
    examples = {e.title: e for e in worked_examples(TariffRules())}
    assert examples["Sauspiel mit Kontra"].distribution == (
        "Vroni und Resi bekommen je 0,80 €, Sepp und Hias zahlen je 0,80 €."
    )
    assert examples["Farbsolo verloren"].distribution == (
        "Vroni zahlt 3 × 0,50 € = 1,50 €, die drei Gegner bekommen je 0,50 €."
    )
    assert examples["Ramsch"].game.type is GameType.RAMSCH


@pytest.mark.parametrize(
    ("cents", "text"),
    [
        (0, "0,00 €"),
        (10, "0,10 €"),
        (5, "0,05 €"),
        (-120, "-1,20 €"),
        (100, "1,00 €"),
        (1_234_500, "12.345,00 €"),
        (-123_456_789, "-1.234.567,89 €"),
    ],
)
def test_format_cents_writes_german_euros(cents: int, text: str) -> None:
    assert format_cents(cents) == text
