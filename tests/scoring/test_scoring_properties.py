"""Invariants over every valid input (hypothesis): what the seeds and the contract promise
for all rules, all games and all evenings, not just for the examples."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scoring_strategies import (
    PLAYERS,
    evenings,
    games,
    rules_and_game,
    tariff_rules,
    tariff_rules_and_game,
)

from scoring import (
    BOCK_GAMES,
    BockMode,
    Game,
    GameType,
    ProHofRules,
    Rules,
    ScoringError,
    Suit,
    TariffRules,
    doublings,
    game_to_json,
    parse_request,
    result_to_json,
    rules_to_json,
    score_after,
    score_evening,
    score_game,
    triggers_bock,
    value_parts,
)
from scoring.jsonio import parse_rules

FAST = settings(max_examples=200, deadline=None)
# Whole evenings cost more per example; fewer of them still cover every type and key.
EVENINGS = settings(max_examples=100, deadline=None)


def bump(game: Game, **changes: Any) -> Game:
    return dataclasses.replace(game, **changes)


def same_sign_not_smaller(before: int, after: int) -> bool:
    return (before == 0 or (before > 0) == (after > 0)) and abs(after) >= abs(before)


# -- money moves, it is never created ---------------------------------------------------


@FAST
@given(tariff_rules_and_game())
def test_every_money_game_sums_to_zero(case: tuple[TariffRules, Game]) -> None:
    rules, game = case
    for bock in (False, True) if rules.bock is not BockMode.OFF else (False,):
        result = score_game(rules, game, bock)
        assert sum(result.payouts.values()) == 0
        assert list(result.payouts) == list(game.players)
        assert result.unit == result.value * result.multiplier


@FAST
@given(st.data())
def test_prohof_never_deducts_and_credits_two_or_three_values(data: st.DataObject) -> None:
    game = data.draw(games(ProHofRules()))
    result = score_game(ProHofRules(), game)
    assert min(result.payouts.values()) >= 0
    assert result.multiplier == 1
    shares = 3 if game.type in (GameType.SOLO, GameType.WENZ) else 2
    assert sum(result.payouts.values()) == shares * result.value
    assert result.value >= 10


@FAST
@given(rules_and_game())
def test_all_amounts_are_ints_never_bools_or_floats(case: tuple[Rules, Game]) -> None:
    result = score_game(*case)
    for number in (result.value, result.multiplier, result.unit, *result.payouts.values()):
        assert type(number) is int


@FAST
@given(rules_and_game())
def test_the_value_is_the_sum_of_its_parts(case: tuple[Rules, Game]) -> None:
    rules, game = case
    result = score_game(rules, game)
    parts = value_parts(rules, game)
    assert parts.value == result.value
    if isinstance(rules, TariffRules):
        assert doublings(rules, game).multiplier == result.multiplier


# -- more never pays less --------------------------------------------------------------


@FAST
@given(rules_and_game())
def test_more_laufende_schneider_or_schwarz_never_pay_less(case: tuple[Rules, Game]) -> None:
    rules, game = case
    assume(game.type is not GameType.RAMSCH)
    high = 4 if game.type is GameType.WENZ else 14
    before = score_game(rules, game).payouts
    more = [bump(game, schneider=True), bump(game, schwarz=True)]
    if game.laufende < high:
        more.append(bump(game, laufende=game.laufende + 1))
    for bigger in more:
        after = score_game(rules, bigger).payouts
        assert all(same_sign_not_smaller(before[p], after[p]) for p in game.players)


# -- each doubling doubles exactly -----------------------------------------------------


@FAST
@given(tariff_rules_and_game())
def test_each_doubling_exactly_doubles_every_payout(case: tuple[TariffRules, Game]) -> None:
    rules, game = case
    before = score_game(rules, game).payouts
    doubled: list[Game] = []
    if game.doubled < 4:
        doubled.append(bump(game, doubled=game.doubled + 1))
    if game.kontra < 2:
        doubled.append(bump(game, kontra=game.kontra + 1))
    if game.type in (GameType.FARBSOLO, GameType.WENZ) and not game.tout:
        # A Tout also implies Schneider and Schwarz; with both already there it only doubles.
        base = bump(game, schwarz=True)
        before_tout = score_game(rules, base).payouts
        after_tout = score_game(rules, bump(base, tout=True)).payouts
        assert {p: 2 * a for p, a in before_tout.items()} == after_tout
    if game.type is GameType.RAMSCH and rules.jungfrau:
        others = [p for p in game.players if p != game.loser and p not in game.jungfrauen]
        if others:
            more = bump(game, jungfrauen=(*game.jungfrauen, others[0]))
            factor = 2 if len(game.jungfrauen) < 2 else 1  # "höchstens 2"
            after = score_game(rules, more).payouts
            assert {p: factor * a for p, a in before.items()} == after
    for bigger in doubled:
        after = score_game(rules, bigger).payouts
        assert {p: 2 * a for p, a in before.items()} == after
    if rules.bock is not BockMode.OFF:
        after = score_game(rules, game, bock=True).payouts
        assert {p: 2 * a for p, a in before.items()} == after


# -- Bock ------------------------------------------------------------------------------


@EVENINGS
@given(
    tariff_rules(bock=BockMode.RAMSCH_OR_LOST_SOLO) | tariff_rules(bock=BockMode.RAMSCH),
    st.data(),
)
def test_a_game_is_bock_iff_one_of_the_previous_4_triggered_and_bock_never_stacks(
    rules: TariffRules, data: st.DataObject
) -> None:
    played = data.draw(st.lists(games(rules), max_size=25))
    result = score_evening(rules, played)
    triggered = [triggers_bock(rules, game) for game in played]
    for i, (game, scored) in enumerate(zip(played, result.games, strict=True)):
        assert scored.bock == any(triggered[max(0, i - BOCK_GAMES) : i])
        # The Bock share of the multiplier is at most x2.
        plain = score_game(rules, game)
        assert scored.multiplier == plain.multiplier * (2 if scored.bock else 1)
        last = max((j for j in range(i + 1) if triggered[j]), default=None)
        expected = 0 if last is None else max(0, BOCK_GAMES - (i - last))
        assert scored.bock_remaining == expected
    assert result.bock_remaining == (result.games[-1].bock_remaining if played else 0)


@EVENINGS
@given(tariff_rules(bock=BockMode.OFF), st.data())
def test_without_bock_no_game_is_ever_bock(rules: TariffRules, data: st.DataObject) -> None:
    played = data.draw(st.lists(games(rules), max_size=15))
    result = score_evening(rules, played)
    assert not any(g.bock for g in result.games)
    assert result.bock_remaining == 0


# -- evenings --------------------------------------------------------------------------


@EVENINGS
@given(evenings())
def test_scoring_an_evening_equals_scoring_each_prefix(case: tuple[Rules, list[Game]]) -> None:
    rules, played = case
    full = score_evening(rules, played)
    for k in range(len(played) + 1):
        prefix = score_evening(rules, played[:k])
        assert prefix.games == full.games[:k]
    assert len(full.games) == len(played)


@EVENINGS
@given(evenings(), st.data())
def test_scoring_the_rest_after_any_point_needs_only_the_games_just_before(
    case: tuple[Rules, list[Game]], data: st.DataObject
) -> None:
    """What lets a booking cost the same at game 5 and at game 500 (score_after)."""
    rules, played = case
    full = score_evening(rules, played)
    k = data.draw(st.integers(0, len(played)), label="split")

    rest = score_after(rules, played[:k], played[k:])

    assert rest.games == full.games[k:]
    assert rest.bock_remaining == full.bock_remaining
    for player, total in rest.totals.items():
        assert total == sum(g.payouts.get(player, 0) for g in full.games[k:])


@EVENINGS
@given(evenings())
def test_totals_are_the_sums_of_the_payouts_in_first_seen_order(
    case: tuple[Rules, list[Game]],
) -> None:
    rules, played = case
    result = score_evening(rules, played)
    seen: list[str] = []
    for game in played:
        seen += [p for p in game.players if p not in seen]
    assert list(result.totals) == seen
    for player in seen:
        assert result.totals[player] == sum(g.payouts.get(player, 0) for g in result.games)
    if isinstance(rules, TariffRules):
        assert sum(result.totals.values()) == 0


@EVENINGS
@given(evenings(max_games=8))
def test_players_who_sat_out_are_in_the_totals_with_zero(case: tuple[Rules, list[Game]]) -> None:
    rules, played = case
    everybody = [*PLAYERS, "Wastl"]
    result = score_evening(rules, played, players=everybody)
    assert list(result.totals) == everybody
    assert result.totals["Wastl"] == 0


@EVENINGS
@given(evenings(max_games=8))
def test_an_evening_survives_the_json_round_trip(case: tuple[Rules, list[Game]]) -> None:
    rules, played = case
    request = {"rules": rules_to_json(rules), "games": [game_to_json(g) for g in played]}
    parsed_rules, parsed_games, unit = parse_request(request)
    assert parsed_rules == rules
    assert list(parsed_games) == played
    assert unit is None
    response = result_to_json(score_evening(parsed_rules, parsed_games))
    assert list(response) == ["games", "totals"]


# -- validation rejects what it should -------------------------------------------------

OUTSIDER = "Fremder"


def mutations(rules: Rules, game: Game) -> list[tuple[str, dict[str, object]]]:
    """Changes to a valid game's JSON that leave the contract, with the key to blame."""
    tariff = isinstance(rules, TariffRules)
    t = game.type
    found: list[tuple[str, dict[str, object]]] = [
        ("players", {"players": [game.players[0]] * 4}),
        ("players", {"players": list(game.players[:3])}),
        ("players", {"players": [*game.players[:3], ""]}),
        ("players", {"players": "Sepp, Vroni, Hias, Resi"}),
        ("type", {"type": "geier"}),
        ("type", {"type": 3}),
        ("bogus", {"bogus": 1}),
    ]
    if t is GameType.RAMSCH:
        found += [
            ("loser", {"loser": OUTSIDER}),
            ("declarer", {"declarer": game.players[0]}),
            ("laufende", {"laufende": 3}),
            ("tout", {"tout": True}),
            ("won", {"won": True}),
            ("schneider", {"schneider": True}),
            ("angesagt", {"angesagt": True}),
            ("jungfrauen", {"jungfrauen": [OUTSIDER]}),
            ("jungfrauen", {"jungfrauen": [game.loser]}),
        ]
        if not (isinstance(rules, TariffRules) and rules.jungfrau):
            other = next(p for p in game.players if p != game.loser)
            found.append(("jungfrauen", {"jungfrauen": [other]}))
    else:
        wenz = t is GameType.WENZ
        found += [
            ("declarer", {"declarer": OUTSIDER}),
            ("declarer", {"declarer": None}),
            ("laufende", {"laufende": 5 if wenz else 15}),
            ("laufende", {"laufende": -1}),
            ("laufende", {"laufende": True}),
            ("laufende", {"laufende": 3.0}),
            ("won", {"won": 1}),
            ("schneider", {"schneider": "yes"}),
            ("loser", {"loser": game.players[0]}),
            ("jungfrauen", {"jungfrauen": [game.players[1]]}),
        ]
        if t in (GameType.SAUSPIEL, GameType.RUFSPIEL, GameType.UEBERKREUZ):
            found += [
                ("partner", {"partner": game.declarer}),
                ("partner", {"partner": OUTSIDER}),
                ("tout", {"tout": True}),
                ("suit", {"suit": "herz"}),
            ]
        else:
            other = next(p for p in game.players if p != game.declarer)
            found.append(("partner", {"partner": other}))
        if t in (GameType.FARBSOLO, GameType.SOLO):
            found += [("suit", {"suit": "blatt"}), ("suit", {"suit": None})]
        elif t is GameType.WENZ:
            found.append(("suit", {"suit": "eichel"}))
        if not tariff and t in (GameType.SOLO, GameType.WENZ):
            found.append(("angesagt", {"angesagt": True, "tout": True}))
    if tariff:
        found += [
            ("kontra", {"kontra": 3}),
            ("kontra", {"kontra": -1}),
            ("kontra", {"kontra": False}),
            ("doubled", {"doubled": 5}),
            ("doubled", {"doubled": -1}),
        ]
        if t is not GameType.RAMSCH:
            found.append(("angesagt", {"angesagt": False}))
    else:
        found += [("kontra", {"kontra": 1}), ("kontra", {"kontra": 0}), ("doubled", {"doubled": 2})]
    return found


def _drop_none(obj: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in obj.items() if v is not None}


@EVENINGS
@given(evenings(max_games=6), st.data())
def test_every_invalid_mutation_is_rejected_with_the_games_position_and_key(
    case: tuple[Rules, list[Game]], data: st.DataObject
) -> None:
    rules, played = case
    assume(played)
    position = data.draw(st.integers(1, len(played)))
    game = played[position - 1]
    key, change = data.draw(st.sampled_from(mutations(rules, game)))
    raw = [game_to_json(g) for g in played]
    raw[position - 1] = _drop_none({**raw[position - 1], **change})
    with pytest.raises(ScoringError) as err:
        parse_request({"rules": rules_to_json(rules), "games": raw})
    assert (err.value.game, err.value.key) == (position, key), str(err.value)
    assert str(err.value).startswith(f"game {position}: {key}: ")
    assert err.value.message_de


def python_mutation(key: str, change: dict[str, object]) -> bool:
    """Whether a JSON mutation can be made on a Game object too."""
    return (
        key in change
        and set(change) <= set(Game.__dataclass_fields__) - {"type", "players"}
        and change.get("suit") not in ("blatt",)
    )


@EVENINGS
@given(evenings(max_games=4), st.data())
def test_the_python_api_rejects_the_same_mutations(
    case: tuple[Rules, list[Game]], data: st.DataObject
) -> None:
    rules, played = case
    assume(played)
    position = data.draw(st.integers(1, len(played)))
    game = played[position - 1]
    candidates = [(k, c) for k, c in mutations(rules, game) if python_mutation(k, c)]
    key, change = data.draw(st.sampled_from(candidates))
    fields = dict(change)
    if isinstance(fields.get("suit"), str):
        fields["suit"] = Suit(fields["suit"])
    if isinstance(fields.get("jungfrauen"), list):
        fields["jungfrauen"] = tuple(fields["jungfrauen"])  # type: ignore[arg-type]
    changed = bump(game, **fields)
    assume(changed != game)  # e.g. kontra=0 at ProHof: only the JSON key is wrong
    broken = [*played[: position - 1], changed, *played[position:]]
    with pytest.raises(ScoringError) as err:
        score_evening(rules, broken)
    assert (err.value.game, err.value.key) == (position, key), str(err.value)


@FAST
@given(
    st.sampled_from(
        [
            ("sauspiel", -1),
            ("laufende", -10),
            ("laufende_min", 0),
            ("laufende_min", 15),
            ("laufende_max", 15),
            ("laufende_min_wenz", 0),
            ("laufende_min_wenz", 5),
            ("schwarz", True),
            ("schneider", 1.5),
            ("bock", "always"),
            ("bock", True),
            ("jungfrau", 1),
            ("jungfrau", "true"),
            ("ramsch", "10"),
            ("kontra", 1),
        ]
    ),
    tariff_rules(),
)
def test_invalid_rules_are_rejected_naming_the_key(
    mutation: tuple[str, object], rules: TariffRules
) -> None:
    key, value = mutation
    with pytest.raises(ScoringError) as err:
        parse_rules({**rules_to_json(rules), key: value})
    assert (err.value.game, err.value.key) == (None, key)
    assert str(err.value).startswith(f"rules: {key}: ")


@FAST
@given(tariff_rules())
def test_laufende_max_below_laufende_min_is_rejected(rules: TariffRules) -> None:
    assume(rules.laufende_min > 1)
    with pytest.raises(ScoringError) as err:
        parse_rules({**rules_to_json(rules), "laufende_max": rules.laufende_min - 1})
    assert err.value.key == "laufende_max"


@FAST
@given(rules_and_game())
def test_validation_happens_before_anything_is_computed(case: tuple[Rules, Game]) -> None:
    """A bad last game stops the whole evening: no partial result exists to book."""
    rules, game = case
    bad = bump(game, players=(game.players[0],) * 4)
    with pytest.raises(ScoringError) as err:
        score_evening(rules, [game, game, bad])
    assert err.value.game == 3
