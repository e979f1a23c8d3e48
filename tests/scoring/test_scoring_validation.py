"""What the engine refuses, and how it says so: key, position, English line, German sentence."""

from __future__ import annotations

import dataclasses
import pickle

import pytest
from scoring_helpers import (
    HIAS,
    RESI,
    SEPP,
    TABLE,
    VRONI,
    farbsolo,
    ramsch,
    rufspiel,
    sauspiel,
    solo,
    wenz,
)

from scoring import (
    BockMode,
    Game,
    GameType,
    ProHofRules,
    Rules,
    ScoringError,
    Suit,
    TariffRules,
    outcome_from_augen,
    score_evening,
    score_game,
)

PROHOF = ProHofRules()


def error(game: Game, rules: Rules | None = None, position: int = 3) -> ScoringError:
    """The error for ``game`` when it is the third game of an evening."""
    rules = TariffRules() if rules is None else rules
    ok = sauspiel() if isinstance(rules, TariffRules) else rufspiel()
    with pytest.raises(ScoringError) as err:
        score_evening(rules, [ok] * (position - 1) + [game])
    return err.value


def rules_error(**kwargs: object) -> ScoringError:
    with pytest.raises(ScoringError) as err:
        score_evening(TariffRules(**kwargs), [])  # type: ignore[arg-type]
    return err.value


def test_scoring_error_is_a_value_error_with_key_position_and_two_languages() -> None:
    err = error(sauspiel(partner="Wastl"))
    assert isinstance(err, ValueError)
    assert (err.game, err.key) == (3, "partner")
    assert str(err) == "game 3: partner: must be one of the four players"
    assert err.message_de == "Der Mitspieler muss einer der vier Spieler am Tisch sein."


def test_a_scoring_error_survives_pickling() -> None:
    err = error(sauspiel(partner="Wastl"))
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.game, copy.key, copy.message_de, str(copy)) == (
        err.game,
        err.key,
        err.message_de,
        str(err),
    )


def test_a_partner_who_is_the_declarer_is_rejected() -> None:
    err = error(sauspiel(partner=SEPP))
    assert str(err) == "game 3: partner: must not be the declarer"
    assert err.message_de == "Der Mitspieler darf nicht der Spieler selbst sein."


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ((SEPP, VRONI, HIAS), "must be four players"),
        ((SEPP, VRONI, HIAS, RESI, "Wastl"), "must be four players"),
        ((SEPP, VRONI, HIAS, SEPP), "must be four different players"),
        ((SEPP, VRONI, HIAS, ""), "must be four non-empty names"),
        ((SEPP, VRONI, HIAS, "  "), "must be four non-empty names"),
        ((SEPP, VRONI, HIAS, 4), "must be four non-empty names"),
    ],
)
def test_the_table_must_be_four_distinct_named_players(
    players: tuple[object, ...], message: str
) -> None:
    game = dataclasses.replace(sauspiel(), players=players)  # type: ignore[arg-type]
    assert str(error(game)) == f"game 3: players: {message}"


@pytest.mark.parametrize(
    ("game", "key"),
    [
        (sauspiel(declarer="Wastl"), "declarer"),
        (farbsolo(declarer=None), "declarer"),
        (ramsch(loser="Wastl"), "loser"),
        (ramsch(loser=None), "loser"),
    ],
)
def test_declarer_and_loser_must_sit_at_the_table(game: Game, key: str) -> None:
    assert error(game).key == key


def test_a_missing_declarer_is_required_not_absent() -> None:
    err = error(wenz(declarer=None))
    assert str(err) == "game 3: declarer: is required"
    assert err.message_de == "Der Spieler fehlt."


@pytest.mark.parametrize(
    ("game", "rules"),
    [
        (sauspiel(laufende=15), TariffRules(laufende_max=14)),
        (sauspiel(laufende=-1), TariffRules()),
        (wenz(laufende=5), TariffRules()),
        (solo(laufende=15), PROHOF),
        (wenz(laufende=5), PROHOF),
    ],
    ids=["sauspiel 15", "sauspiel -1", "wenz 5", "prohof solo 15", "prohof wenz 5"],
)
def test_laufende_out_of_range_are_rejected(game: Game, rules: Rules) -> None:
    err = error(game, rules)
    assert err.key == "laufende"
    assert err.message.startswith("must be between 0 and ")


@pytest.mark.parametrize(
    "game", [sauspiel(tout=True), ramsch(tout=True)], ids=["sauspiel", "ramsch"]
)
def test_tout_on_a_game_without_a_lone_declarer_is_rejected(game: Game) -> None:
    err = error(game)
    assert str(err) == "game 3: tout: only a farbsolo or a wenz can be a tout"
    assert err.message_de == "Tout kann nur auf ein Farbsolo oder einen Wenz angesagt werden."


def test_a_farbsolo_needs_a_suit_and_other_games_have_none() -> None:
    assert error(farbsolo(suit=None)).key == "suit"  # type: ignore[arg-type]
    assert error(dataclasses.replace(wenz(), suit=Suit.GRAS)).key == "suit"
    assert error(dataclasses.replace(sauspiel(), suit=Suit.GRAS)).key == "suit"
    assert error(solo(suit=None), PROHOF).key == "suit"  # type: ignore[arg-type]


@pytest.mark.parametrize(("kontra", "doubled"), [(3, 0), (-1, 0), (0, 5), (0, -1)])
def test_kontra_0_to_2_and_doubled_0_to_4(kontra: int, doubled: int) -> None:
    err = error(sauspiel(kontra=kontra, doubled=doubled))
    assert err.key == ("kontra" if kontra else "doubled")


def test_kontra_and_doppeln_are_rejected_at_prohof() -> None:
    err = error(rufspiel(kontra=1), PROHOF)
    assert str(err) == "game 3: kontra: there is no Kontra or Re at ProHof"
    assert err.message_de == "Beim ProHof-Turnier gibt es kein Kontra."
    assert error(solo(doubled=1), PROHOF).key == "doubled"


def test_jungfrauen_while_jungfrau_is_off_are_rejected() -> None:
    err = error(ramsch(jungfrauen=(SEPP,)))
    assert str(err) == "game 3: jungfrauen: the rules do not play jungfrau"
    assert err.message_de == "Diese Runde spielt ohne Jungfrau."


@pytest.mark.parametrize(
    "jungfrauen",
    [("Wastl",), (SEPP, SEPP), (RESI,)],
    ids=["not at the table", "twice", "the loser"],
)
def test_jungfrauen_are_other_players_at_the_table_once_each(
    jungfrauen: tuple[str, ...],
) -> None:
    err = error(ramsch(loser=RESI, jungfrauen=jungfrauen), TariffRules(jungfrau=True))
    assert err.key == "jungfrauen"


def test_angesagt_belongs_to_prohof_only() -> None:
    err = error(sauspiel(angesagt=True))
    assert str(err) == "game 3: angesagt: angesagt exists only in ProHof games"


@pytest.mark.parametrize(
    ("game", "rules", "message"),
    [
        (ramsch(), PROHOF, "there is no ramsch at ProHof"),
        (sauspiel(), PROHOF, "sauspiel is a tariff game; ProHof calls it rufspiel"),
        (farbsolo(), PROHOF, "farbsolo is a tariff game; ProHof calls it solo"),
        (rufspiel(), TariffRules(), "rufspiel is a ProHof game; the tariff calls it sauspiel"),
        (solo(), TariffRules(), "solo is a ProHof game; the tariff calls it farbsolo"),
        (
            Game(GameType.UEBERKREUZ, TABLE, declarer=SEPP, partner=HIAS),
            TariffRules(),
            "ueberkreuz is played only at ProHof",
        ),
    ],
    ids=lambda p: p if isinstance(p, str) else "",
)
def test_each_system_plays_only_its_own_game_types(game: Game, rules: Rules, message: str) -> None:
    assert str(error(game, rules)) == f"game 3: type: {message}"


@pytest.mark.parametrize(
    ("field", "value"),
    [("won", 1), ("schneider", "ja"), ("schwarz", None), ("tout", 0), ("laufende", True)],
)
def test_booleans_must_be_bool_and_numbers_must_not_be(field: str, value: object) -> None:
    game = dataclasses.replace(wenz(), **{field: value})
    assert error(game).key == field


def test_a_game_that_is_not_a_game_is_rejected() -> None:
    with pytest.raises(ScoringError) as err:
        score_evening(TariffRules(), [sauspiel(), {"type": "sauspiel"}])  # type: ignore[list-item]
    assert (err.value.game, err.value.key) == (2, "game")


# -- rules -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("sauspiel", -10, "must not be negative"),
        ("schwarz", -1, "must not be negative"),
        ("laufende", True, "must be a whole number"),
        ("wenz", 0.5, "must be a whole number"),
        ("laufende_min", 0, "must be between 1 and 14"),
        ("laufende_min", 15, "must be between 1 and 14"),
        ("laufende_min_wenz", 5, "must be between 1 and 4"),
        ("laufende_min_wenz", 0, "must be between 1 and 4"),
        ("bock", "ramsch", 'must be "off", "ramsch" or "ramsch_or_lost_solo"'),
        ("jungfrau", 1, "must be true or false"),
    ],
)
def test_rules_outside_the_contract_are_rejected(key: str, value: object, message: str) -> None:
    err = rules_error(**{key: value})
    assert str(err) == f"rules: {key}: {message}"
    assert err.game is None
    assert err.message_de


def test_laufende_max_must_be_at_least_laufende_min() -> None:
    err = rules_error(laufende_min=5, laufende_max=4)
    assert str(err) == "rules: laufende_max: must be between laufende_min (5) and 14"
    assert (
        err.message_de
        == "Die Obergrenze für Laufende muss zwischen der Schwelle (5) und 14 liegen."
    )


def test_zero_values_are_allowed() -> None:
    rules = TariffRules(sauspiel=0, laufende=0, schneider=0, schwarz=0)
    assert score_game(rules, sauspiel(laufende=5, schwarz=True)).payouts[SEPP] == 0


@pytest.mark.parametrize(("laufende_min", "wenz_threshold"), [(1, 1), (2, 2), (4, 4), (6, 4)])
def test_the_wenz_threshold_defaults_to_laufende_min_at_most_4(
    laufende_min: int, wenz_threshold: int
) -> None:
    rules = TariffRules(laufende_min=laufende_min, laufende_max=14)
    assert rules.laufende_min_wenz == rules.wenz_threshold == wenz_threshold
    assert TariffRules() == TariffRules(laufende_min_wenz=3)


def test_many_tables_count_the_wenz_from_2() -> None:
    rules = TariffRules(laufende_min_wenz=2)
    assert score_game(rules, wenz(laufende=2)).value == 50 + 20
    assert score_game(rules, sauspiel(laufende=2)).value == 10


def test_a_bock_preview_needs_bock_rules() -> None:
    with pytest.raises(ScoringError) as err:
        score_game(TariffRules(), sauspiel(), bock=True)
    assert err.value.key == "bock"
    with pytest.raises(ScoringError):
        score_game(PROHOF, rufspiel(), bock=True)
    assert score_game(TariffRules(bock=BockMode.RAMSCH), sauspiel(), bock=True).unit == 20


# -- players of the evening ------------------------------------------------------------


def test_players_of_the_evening_set_the_order_of_the_totals_and_include_who_sat_out() -> None:
    everybody = ["Wastl", RESI, HIAS, VRONI, SEPP]
    result = score_evening(TariffRules(), [sauspiel()], players=everybody)
    assert list(result.totals.items()) == [
        ("Wastl", 0),
        (RESI, -10),
        (HIAS, 10),
        (VRONI, -10),
        (SEPP, 10),
    ]


def test_a_game_with_somebody_who_is_not_a_player_of_the_evening_is_rejected() -> None:
    with pytest.raises(ScoringError) as err:
        score_evening(TariffRules(), [sauspiel(), sauspiel()], players=[SEPP, VRONI, HIAS])
    assert str(err.value) == "game 1: players: Resi is not a player of the evening"


@pytest.mark.parametrize("players", [[SEPP, SEPP], [SEPP, ""]])
def test_the_players_of_the_evening_are_distinct_names(players: list[str]) -> None:
    with pytest.raises(ScoringError) as err:
        score_evening(TariffRules(), [], players=players)
    assert err.value.key == "players"
    assert str(err.value).startswith("evening: players: ")


# -- Augen -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("augen", "won", "schneider"),
    [
        (120, True, True),
        (91, True, True),  # 91:29 is Schneider
        (90, True, False),  # 90:30 is not
        (61, True, False),
        (60, False, False),  # the opponents win with 60
        (31, False, False),  # the declarer's side is Schneider-free with 31
        (30, False, True),
        (0, False, True),
    ],
)
def test_the_augen_rule_is_not_symmetric(augen: int, won: bool, schneider: bool) -> None:
    assert outcome_from_augen(augen) == (won, schneider)


@pytest.mark.parametrize("augen", [-1, 121, True])
def test_augen_outside_0_to_120_are_rejected(augen: int) -> None:
    with pytest.raises(ScoringError):
        outcome_from_augen(augen)
