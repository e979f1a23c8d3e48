"""The rules page's worked examples and the euro formatting."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from scoring_helpers import TABLE, VRONI, farbsolo, ramsch, sauspiel, wenz
from scoring_strategies import tariff_rules

from scoring import (
    BockMode,
    Game,
    GameType,
    ProHofRules,
    TariffRules,
    format_cents,
    parse_request,
    score_evening,
    score_game,
    worked_examples,
)
from scoring.examples import (
    RuleFigures,
    describe_game,
    describe_value,
    example_request,
    prohof_examples,
    rule_figures,
)


def titles(rules: TariffRules) -> list[str]:
    return [example.title for example in worked_examples(rules)]


def test_a_dozen_typical_games_at_the_default_tariff() -> None:
    assert titles(TariffRules()) == [
        "Sauspiel gewonnen",
        "Sauspiel gewonnen mit 3 Laufenden",
        "Sauspiel gewonnen mit 2 Laufenden",
        "Sauspiel gewonnen mit 9 Laufenden",
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


RULES = [
    TariffRules(),
    TariffRules(sauspiel=20, farbsolo=100, laufende=20, laufende_min=2, jungfrau=True),
    TariffRules(laufende_min=1, laufende_max=1, bock=BockMode.RAMSCH_OR_LOST_SOLO),
    TariffRules(laufende_max=14, bock=BockMode.RAMSCH, jungfrau=True),
]


# Each worked example's Endwert under RULES (what one losing opponent pays), in cents, by
# hand from seed 001: Grundwert + paid Laufende + Schneider + Schwarz, then x2 for each
# doubler, Kontra (Re x4), Tout, Jungfrau and Bock game.
ENDWERT = [
    {  # the default tariff: Laufende 10 each from 3 on, at most 8 (the Wenz from 3, at most 4)
        "Sauspiel gewonnen": 10,
        "Sauspiel gewonnen mit 3 Laufenden": 40,  # 10 + 3 x 10
        "Sauspiel gewonnen mit 2 Laufenden": 10,  # under the threshold
        "Sauspiel gewonnen mit 9 Laufenden": 90,  # 10 + 8 x 10
        "Sauspiel verloren, Schneider": 20,  # 10 + 10
        "Sauspiel gewonnen, Schneider und Schwarz": 30,  # 10 + 10 + 10
        "Sauspiel verloren mit 3 Laufenden und Kontra": 80,  # (10 + 3 x 10) x2
        "Sauspiel gewonnen mit Re": 40,  # 10 x4
        "Sauspiel gewonnen, zweimal gedoppelt": 40,  # 10 x2 x2
        "Farbsolo gewonnen mit 3 Laufenden, Schneider": 90,  # 50 + 3 x 10 + 10
        "Farbsolo verloren": 50,
        "Wenz gewonnen mit 3 Laufenden": 80,  # 50 + 3 x 10
        # (50 + 3 x 10 + 10 + 10) x2
        "Farbsolo-Tout gewonnen mit 3 Laufenden, Schneider und Schwarz": 200,
        "Wenz-Tout verloren, Schneider und Schwarz": 140,  # (50 + 10 + 10) x2
        "Ramsch": 10,
    },
    {  # Sauspiel 20, Farbsolo 100, Laufende 20 each from 2 on (the Wenz too), Jungfrau
        "Sauspiel gewonnen": 20,
        "Sauspiel gewonnen mit 2 Laufenden": 60,  # 20 + 2 x 20
        "Sauspiel gewonnen mit 1 Laufenden": 20,  # under the threshold
        "Sauspiel gewonnen mit 9 Laufenden": 180,  # 20 + 8 x 20
        "Sauspiel verloren, Schneider": 30,  # 20 + 10
        "Sauspiel gewonnen, Schneider und Schwarz": 40,  # 20 + 10 + 10
        "Sauspiel verloren mit 2 Laufenden und Kontra": 120,  # (20 + 2 x 20) x2
        "Sauspiel gewonnen mit Re": 80,  # 20 x4
        "Sauspiel gewonnen, zweimal gedoppelt": 80,  # 20 x2 x2
        "Farbsolo gewonnen mit 2 Laufenden, Schneider": 150,  # 100 + 2 x 20 + 10
        "Farbsolo verloren": 100,
        "Wenz gewonnen mit 2 Laufenden": 90,  # 50 + 2 x 20
        # (100 + 2 x 20 + 10 + 10) x2
        "Farbsolo-Tout gewonnen mit 2 Laufenden, Schneider und Schwarz": 320,
        "Wenz-Tout verloren, Schneider und Schwarz": 140,  # (50 + 10 + 10) x2
        "Ramsch": 10,
        "Ramsch mit Jungfrau": 20,  # 10 x2
    },
    {  # Laufende from 1 on, at most 1; Bock after a Ramsch or a lost solo
        "Sauspiel gewonnen": 10,
        "Sauspiel gewonnen mit 1 Laufenden": 20,  # 10 + 1 x 10
        "Sauspiel gewonnen mit 2 Laufenden": 20,  # 10 + 1 x 10, the cap
        "Sauspiel verloren, Schneider": 20,  # 10 + 10
        "Sauspiel gewonnen, Schneider und Schwarz": 30,  # 10 + 10 + 10
        "Sauspiel verloren mit 1 Laufenden und Kontra": 40,  # (10 + 1 x 10) x2
        "Sauspiel gewonnen mit Re": 40,  # 10 x4
        "Sauspiel gewonnen, zweimal gedoppelt": 40,  # 10 x2 x2
        "Farbsolo gewonnen mit 1 Laufenden, Schneider": 70,  # 50 + 1 x 10 + 10
        "Farbsolo verloren": 50,
        "Wenz gewonnen mit 1 Laufenden": 60,  # 50 + 1 x 10
        # (50 + 1 x 10 + 10 + 10) x2
        "Farbsolo-Tout gewonnen mit 1 Laufenden, Schneider und Schwarz": 160,
        "Wenz-Tout verloren, Schneider und Schwarz": 140,  # (50 + 10 + 10) x2
        "Ramsch": 10,
        "Sauspiel als Bockspiel gewonnen": 20,  # after a Ramsch: 10 x2
        "Farbsolo als Bockspiel gewonnen": 100,  # after a lost Wenz: 50 x2
    },
    {  # all 14 Laufende count; Bock after a Ramsch; Jungfrau
        "Sauspiel gewonnen": 10,
        "Sauspiel gewonnen mit 3 Laufenden": 40,  # 10 + 3 x 10
        "Sauspiel gewonnen mit 2 Laufenden": 10,  # under the threshold
        "Sauspiel gewonnen mit 14 Laufenden": 150,  # 10 + 14 x 10
        "Sauspiel verloren, Schneider": 20,  # 10 + 10
        "Sauspiel gewonnen, Schneider und Schwarz": 30,  # 10 + 10 + 10
        "Sauspiel verloren mit 3 Laufenden und Kontra": 80,  # (10 + 3 x 10) x2
        "Sauspiel gewonnen mit Re": 40,  # 10 x4
        "Sauspiel gewonnen, zweimal gedoppelt": 40,  # 10 x2 x2
        "Farbsolo gewonnen mit 3 Laufenden, Schneider": 90,  # 50 + 3 x 10 + 10
        "Farbsolo verloren": 50,
        "Wenz gewonnen mit 3 Laufenden": 80,  # 50 + 3 x 10
        # (50 + 3 x 10 + 10 + 10) x2
        "Farbsolo-Tout gewonnen mit 3 Laufenden, Schneider und Schwarz": 200,
        "Wenz-Tout verloren, Schneider und Schwarz": 140,  # (50 + 10 + 10) x2
        "Ramsch": 10,
        "Ramsch mit Jungfrau": 20,  # 10 x2
        "Sauspiel als Bockspiel gewonnen": 20,  # after a Ramsch: 10 x2
    },
]
EXPECTED = list(zip(RULES, ENDWERT, strict=True))


def seed_payouts(game: Game, endwert: int) -> dict[str, int]:
    """Step 2 of seed 001: in a Sauspiel each winner gets and each loser pays the Endwert;
    a solo's declarer settles 3 x Endwert with the three others; the Ramsch loser pays
    each of the other three."""
    if game.type is GameType.RAMSCH:
        return {p: -3 * endwert if p == game.loser else endwert for p in game.players}
    sign = 1 if game.won else -1
    if game.type is GameType.SAUSPIEL:
        side = (game.declarer, game.partner)
        return {p: sign * endwert * (1 if p in side else -1) for p in game.players}
    return {p: sign * endwert * (3 if p == game.declarer else -1) for p in game.players}


@pytest.mark.parametrize(("rules", "endwert"), EXPECTED)
def test_every_example_pays_the_seed_s_amounts_as_booked_and_as_scored_alone(
    rules: TariffRules, endwert: dict[str, int]
) -> None:
    examples = worked_examples(rules)
    assert [example.title for example in examples] == list(endwert)
    for example in examples:
        unit = endwert[example.title]
        booked = score_evening(rules, example.games).games[-1]
        alone = score_game(rules, example.game, example.bock)
        for result in (example.result, booked, alone):
            assert result.unit == unit
            assert result.payouts == seed_payouts(example.game, unit)
        assert example.result.bock == example.bock == bool(example.before)


def _laufende(n: int) -> str:
    return "1 Laufender" if n == 1 else f"{n} Laufende"


@pytest.mark.parametrize(("rules", "endwert"), EXPECTED)
def test_every_example_s_description_names_its_parts_and_ends_with_its_endwert(
    rules: TariffRules, endwert: dict[str, int]
) -> None:
    for example in worked_examples(rules):
        game = example.game
        text, _, note = example.description.partition(" (")
        assert text.startswith(f"Grundwert {format_cents(getattr(rules, game.type.value))}")
        assert text.endswith(format_cents(endwert[example.title]))
        # Laufende: nothing under the threshold, else all of them up to the cap.
        is_wenz = game.type is GameType.WENZ
        threshold = rules.wenz_threshold if is_wenz else rules.laufende_min
        cap = min(rules.laufende_max, 4) if is_wenz else rules.laufende_max
        paid = min(game.laufende, cap) if game.laufende >= threshold else 0
        assert (f" + {_laufende(paid)} {format_cents(paid * rules.laufende)}" in text) == (paid > 0)
        assert ("Laufend" in text) == (paid > 0)
        if paid == game.laufende:
            assert note == ""
        elif paid:
            assert note == f"{_laufende(game.laufende)}, gezahlt werden höchstens {paid})"
        else:
            under = "liegt unter der Schwelle und zählt nicht"
            if game.laufende > 1:
                under = "liegen unter der Schwelle und zählen nicht"
            assert note == f"{_laufende(game.laufende)} {under})"
        schneider = game.schneider or game.schwarz or game.tout
        assert (f" + Schneider {format_cents(rules.schneider)}" in text) == schneider
        assert (f" + Schwarz {format_cents(rules.schwarz)}" in text) == (game.schwarz or game.tout)
        # The doublings, each named once per factor of two.
        assert text.count("×2 Doppler") == game.doubled
        assert ("×2 Kontra" in text) == (game.kontra == 1)
        assert ("×4 Re" in text) == (game.kontra == 2)
        assert ("×2 Tout" in text) == game.tout
        assert text.count("×2 Jungfrau") == min(len(game.jungfrauen), 2)
        assert ("×2 Bock" in text) == example.bock


@pytest.mark.parametrize("rules", RULES)
def test_every_example_s_request_scores_to_its_result(rules: TariffRules) -> None:
    for example in worked_examples(rules):
        request = example_request(rules, example.games)
        parsed_rules, games, unit = parse_request(json.loads(json.dumps(request)))
        assert (parsed_rules, games, unit) == (rules, example.games, None)
        assert score_evening(parsed_rules, games).games[-1] == example.result


@given(tariff_rules())
def test_the_description_is_the_sum_and_then_the_doublings(rules: TariffRules) -> None:
    for example in worked_examples(rules):
        sum_text, _, note = example.value_text.partition(" (")
        assert example.description.startswith(sum_text)
        for doubling in example.doubling_texts:
            assert doubling in example.description
        assert example.description.endswith(f"({note}" if note else "")


@pytest.mark.parametrize("rules", RULES)
def test_the_examples_show_every_mechanism(rules: TariffRules) -> None:
    examples = worked_examples(rules)
    games = [example.game for example in examples]
    cap = min(rules.laufende_max + 1, 14)
    assert any(g.laufende == rules.laufende_min for g in games)
    assert any(g.laufende == cap for g in games)
    assert any(g.schneider for g in games) and any(g.schwarz for g in games)
    assert {g.kontra for g in games} == {0, 1, 2}
    assert any(g.doubled for g in games)
    assert {g.won for g in games if g.tout} == {True, False}
    assert any(g.type is GameType.WENZ for g in games)
    assert any(g.type is GameType.RAMSCH for g in games)
    assert any(g.jungfrauen for g in games) == rules.jungfrau
    assert any(e.bock for e in examples) == (rules.bock is not BockMode.OFF)


def test_the_laufende_above_the_cap_pay_the_cap() -> None:
    examples = {e.title: e for e in worked_examples(TariffRules())}
    above = examples["Sauspiel gewonnen mit 9 Laufenden"]
    assert above.result.value == 10 + 8 * 10
    assert above.value_text == (
        "Grundwert 0,10 € + 8 Laufende 0,80 € = 0,90 € (9 Laufende, gezahlt werden höchstens 8)"
    )


def test_a_bock_example_is_the_game_after_the_one_that_starts_the_bockrunde() -> None:
    examples = worked_examples(TariffRules(bock=BockMode.RAMSCH_OR_LOST_SOLO))
    bock = [e for e in examples if e.bock]
    assert [e.title for e in bock] == [
        "Sauspiel als Bockspiel gewonnen",
        "Farbsolo als Bockspiel gewonnen",
    ]
    assert [e.before for e in bock] == [(ramsch(),), (wenz(won=False),)]
    assert [e.result.unit for e in bock] == [20, 100]
    assert bock[0].doubling_texts == ("×2 Bock",)
    assert "nach einem Ramsch" in bock[0].setting
    assert "verlorenes Solo" in bock[1].setting
    # A Runde whose Bock follows the Ramsch only shows no lost solo as its trigger.
    only_ramsch = worked_examples(TariffRules(bock=BockMode.RAMSCH))
    assert [e.title for e in only_ramsch if e.bock] == ["Sauspiel als Bockspiel gewonnen"]


def test_the_figures_of_the_rules_text() -> None:
    assert rule_figures(TariffRules()) == RuleFigures(
        laufende_at_threshold=30, schneider_and_schwarz=20, wenz_cap=4
    )
    figures = rule_figures(
        TariffRules(laufende=20, laufende_min=2, laufende_max=3, schneider=15, schwarz=25)
    )
    assert (figures.laufende_at_threshold, figures.schneider_and_schwarz) == (40, 40)
    assert figures.wenz_cap == 3


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


# -- ProHof (seed 000) ---------------------------------------------------------------


def test_the_prohof_examples_are_the_seed_s_and_only_one_contradicts_it() -> None:
    examples = prohof_examples()
    assert len(examples) == 19
    wrong = [e for e in examples if e.contradicts_seed]
    assert [(e.seed_points, e.result.value) for e in wrong] == [(100, 90)]
    assert wrong[0].title == "Wenz gewonnen mit 4 Laufenden, Schneider angesagt und Schwarz"
    assert wrong[0].description == (
        "Wenz 20 + angesagt 10 + 4 Laufende 40 + Schneider 10 + Schwarz 10 = 90 Punkte"
    )


# Seed 000's Rechenbeispiele in its order: the points it gives each (by its rule list:
# the Wenz mit Vieren is 20 + 10 + 40 + 10 + 10 = 90, not the 100 it says) and who is
# credited what (Sepp, Vroni, Hias, Resi). The Rufspiel is Sepp's with Hias, every solo
# and Wenz Vroni's: a won solo credits her 3 x the points, a lost one each opponent once.
PROHOF_POINTS = [
    (40, (40, 0, 40, 0)),  # Rufspiel mit 2en, Schneider: 10 + 20 + 10
    (80, (0, 240, 0, 0)),  # Schneiderwenz mit 3en schwarz: 20 + 10 + 30 + 10 + 10
    (80, (80, 0, 80, 80)),  # ... verloren
    (110, (0, 330, 0, 0)),  # Herz tout mit 4en: 30 + 20 + 40 + 10 + 10
    (50, (0, 150, 0, 0)),  # Solo mit Zweien: 30 + 20
    (60, (0, 180, 0, 0)),  # ... Schneider: + 10
    (70, (0, 210, 0, 0)),  # ... Schwarz: + 10 + 10
    (90, (0, 270, 0, 0)),  # ... Schwarz angesagt (Tout): + 20 + 10 + 10
    (110, (0, 330, 0, 0)),  # Solo mit sechs, Schneider, Schwarz: 30 + 60 + 10 + 10
    (40, (0, 120, 0, 0)),  # Wenz mit Zweien: 20 + 20
    (50, (0, 150, 0, 0)),  # ... Schneider: + 10
    (60, (0, 180, 0, 0)),  # ... Schwarz: + 10 + 10
    (80, (0, 240, 0, 0)),  # ... Schwarz angesagt (Tout): + 20 + 10 + 10
    (90, (0, 270, 0, 0)),  # Wenz mit Vieren, Schneider angesagt, Schwarz
    (30, (30, 0, 30, 0)),  # Rufspiel mit Zweien: 10 + 20
    (40, (40, 0, 40, 0)),  # ... Schneider: + 10
    (50, (50, 0, 50, 0)),  # ... Schwarz: + 10 + 10
    (70, (0, 210, 0, 0)),  # Solo schwarz mit Zweien: 30 + 20 + 10 + 10, 3 x 70 = 210
    (70, (70, 0, 70, 70)),  # ... verloren: each of the three gets 70
]


def test_every_prohof_example_is_what_the_engine_credits() -> None:
    examples = prohof_examples()
    assert len(examples) == len(PROHOF_POINTS)
    for example, (points, credited) in zip(examples, PROHOF_POINTS, strict=True):
        expected = (points, dict(zip(TABLE, credited, strict=True)))
        for result in (example.result, score_game(ProHofRules(), example.game)):
            assert (result.value, result.payouts) == expected
        request = example_request(ProHofRules(), [example.game])
        assert request["rules"] == {"system": "prohof"}
        _rules, games, _unit = parse_request(json.loads(json.dumps(request)))
        assert games == (example.game,)


@pytest.mark.parametrize(
    ("index", "title", "description", "distribution"),
    [
        (
            0,
            "Rufspiel gewonnen mit 2 Laufenden, Schneider",
            "Rufspiel 10 + 2 Laufende 20 + Schneider 10 = 40 Punkte",
            "Sepp und Hias bekommen je 40 Punkte gutgeschrieben.",
        ),
        (
            2,
            "Wenz verloren mit 3 Laufenden, Schneider angesagt und Schwarz",
            "Wenz 20 + angesagt 10 + 3 Laufende 30 + Schneider 10 + Schwarz 10 = 80 Punkte",
            "Sepp, Hias und Resi bekommen je 80 Punkte gutgeschrieben.",
        ),
        (
            3,
            "Herz-Solo-Tout gewonnen mit 4 Laufenden",
            "Herz-Solo 30 + Tout angesagt 20 + 4 Laufende 40 + Schneider 10 + Schwarz 10 "
            "= 110 Punkte",
            "Vroni bekommt 3 × 110 = 330 Punkte gutgeschrieben.",
        ),
    ],
)
def test_a_prohof_example_says_how_its_points_are_built(
    index: int, title: str, description: str, distribution: str
) -> None:
    example = prohof_examples()[index]
    assert (example.title, example.description, example.distribution) == (
        title,
        description,
        distribution,
    )
