"""The rules page's worked examples and the euro formatting."""

from __future__ import annotations

import pytest
from hypothesis import given
from scoring_helpers import VRONI, farbsolo, ramsch, sauspiel, wenz
from scoring_strategies import tariff_rules

from scoring import (
    BockMode,
    Game,
    GameType,
    TariffRules,
    format_cents,
    score_game,
    worked_examples,
)
from scoring.examples import describe_game, describe_value


def titles(rules: TariffRules) -> list[str]:
    return [example.title for example in worked_examples(rules)]


def test_a_dozen_typical_games_at_the_default_tariff() -> None:
    assert titles(TariffRules()) == [
        "Sauspiel gewonnen",
        "Sauspiel gewonnen mit 3 Laufenden",
        "Sauspiel gewonnen mit 2 Laufenden",
        "Sauspiel verloren, Schneider",
        "Sauspiel gewonnen, Schneider und Schwarz",
        "Sauspiel verloren mit 3 Laufenden und Kontra",
        "Sauspiel gewonnen mit Re",
        "Sauspiel gewonnen, zweimal gedoppelt",
        "Farbsolo gewonnen mit 3 Laufenden, Schneider",
        "Farbsolo verloren",
        "Wenz gewonnen mit 3 Laufenden",
        "Farbsolo-Tout gewonnen mit 3 Laufenden, Schneider und Schwarz",
        "Wenz-Tout verloren, Schneider und Schwarz",
        "Ramsch",
    ]


def test_the_titles_follow_the_runde_s_laufende_thresholds() -> None:
    names = titles(TariffRules(laufende_min=4, laufende_max=10, laufende_min_wenz=2))
    assert "Sauspiel gewonnen mit 4 Laufenden" in names
    assert "Sauspiel verloren mit 4 Laufenden und Kontra" in names
    assert "Farbsolo-Tout gewonnen mit 4 Laufenden, Schneider und Schwarz" in names
    assert "Wenz gewonnen mit 2 Laufenden" in names


def test_jungfrau_and_bock_examples_appear_only_when_the_runde_plays_them() -> None:
    both = titles(TariffRules(jungfrau=True, bock=BockMode.RAMSCH))
    assert both[-2:] == ["Ramsch mit Jungfrau", "Sauspiel als Bockspiel gewonnen"]
    assert "Ramsch mit Jungfrau" not in titles(TariffRules(bock=BockMode.RAMSCH))
    assert "Sauspiel als Bockspiel gewonnen" not in titles(TariffRules(jungfrau=True))


@pytest.mark.parametrize(
    ("game", "bock", "title"),
    [
        (
            sauspiel(won=False, laufende=1, kontra=2),
            False,
            "Sauspiel verloren mit 1 Laufenden und Re",
        ),
        (
            sauspiel(doubled=1, schneider=True),
            True,
            "Sauspiel als Bockspiel gewonnen, Schneider, einmal gedoppelt",
        ),
        (
            farbsolo(won=False, laufende=9, schneider=True),
            False,
            "Farbsolo verloren mit 9 Laufenden, Schneider",
        ),
        (
            wenz(tout=True, laufende=4),
            False,
            "Wenz-Tout gewonnen mit 4 Laufenden, Schneider und Schwarz",
        ),
        (ramsch(jungfrauen=(VRONI, "Sepp")), False, "Ramsch mit 2 Jungfrauen"),
        (sauspiel(doubled=4), False, "Sauspiel gewonnen, 4-mal gedoppelt"),
    ],
)
def test_a_title_names_every_part_of_the_game(game: Game, bock: bool, title: str) -> None:
    assert describe_game(game, bock) == title


@given(tariff_rules())
def test_every_example_title_names_its_laufende_kontra_and_schneider(rules: TariffRules) -> None:
    for example in worked_examples(rules):
        game, title = example.game, example.title
        assert (f"mit {game.laufende} Laufenden" in title) == (game.laufende > 0)
        assert ("Kontra" in title) == (game.kontra == 1)
        assert (" Re" in title) == (game.kontra == 2)
        assert ("Schneider" in title) == (game.schneider or game.schwarz or game.tout)
        assert ("Schwarz" in title) == (game.schwarz or game.tout)
        assert ("gedoppelt" in title) == (game.doubled > 0)
        assert ("Bockspiel" in title) == example.bock
        if game.type is not GameType.RAMSCH:
            assert (
                title.split(" mit ")[0]
                .split(",")[0]
                .endswith("gewonnen" if game.won else "verloren")
            )


def test_the_key_amounts_for_a_phone_are_six_labelled_examples() -> None:
    short = {e.short: e.result.unit for e in worked_examples(TariffRules()) if e.short}
    assert short == {
        "Sauspiel": 10,
        "Sauspiel, 3 Laufende": 40,
        "Sauspiel, schwarz": 30,
        "Farbsolo": 50,
        "Wenz, 3 Laufende": 80,
        "Ramsch": 10,
    }


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
    assert examples["Sauspiel verloren mit 3 Laufenden und Kontra"].distribution == (
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
