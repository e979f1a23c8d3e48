"""Seed 000 (ProHof city championship), sentence by sentence, in the order of the text.

Every "Rechenbeispiel" is its own case, with the seed's sentence as its id. The one
example that contradicts the seed's own rule list ("Wenz mit Vieren ... 100 Punkte") is
checked against the rule list, as the contract decides (90).
"""

from __future__ import annotations

import pytest
from scoring_helpers import (
    HIAS,
    RESI,
    SEPP,
    TABLE,
    VRONI,
    payouts,
    rufspiel,
    score,
    solo,
    ueberkreuz,
    wenz,
)

from scoring import Game, GameType, ProHofRules, ScoringError, Suit, outcome_from_augen
from scoring import score_evening as _score_evening
from scoring.jsonio import parse_game

PROHOF = ProHofRules()


def _id(param: object) -> str:
    return str(param.type) if isinstance(param, Game) else str(param)


def points(game: Game) -> dict[str, int]:
    return payouts(game, PROHOF)


def value(game: Game) -> int:
    return score(game, PROHOF).value


def rejected_key(game: Game) -> str:
    with pytest.raises(ScoringError) as err:
        score(game, PROHOF)
    return err.value.key


# -- Die Regeln ------------------------------------------------------------------------


def test_a_round_of_40_games_adds_up_every_players_points() -> None:
    """Gespielt werden 3 Runden á 40 Spiele."""
    games = [rufspiel(), solo(won=False), wenz(), ueberkreuz(won=False)] * 10
    result = _score_evening(PROHOF, games)
    assert len(result.games) == 40
    assert result.totals == {
        player: sum(g.payouts[player] for g in result.games) for player in TABLE
    }
    # per four games: Sepp 10 + 30, Vroni 60 + 10, Hias 10 + 30, Resi 30 + 10
    assert result.totals == {SEPP: 400, VRONI: 700, HIAS: 400, RESI: 400}


@pytest.mark.parametrize("game", [rufspiel(), wenz(), solo(), ueberkreuz()], ids=_id)
def test_rufspiel_wenz_solo_and_ueberkreuz_are_played(game: Game) -> None:
    """Gespielt werden Rufspiele, Wenz, Soli und Überkreuz-Spiele."""
    assert value(game) > 0


@pytest.mark.parametrize("name", ["geier", "hochzeit", "ramsch", "sauspiel", "farbsolo"])
def test_geier_hochzeiter_ramsch_and_tariff_games_are_not_played(name: str) -> None:
    """Geier wird nicht gespielt ... Nicht gespielt werden Hochzeiter, Ramsch o.ä."""
    obj = {"type": name, "players": list(TABLE)}
    with pytest.raises(ScoringError) as err:
        parse_game(PROHOF, obj, 7)
    assert (err.value.game, err.value.key) == (7, "type")


def test_ramsch_at_prohof_says_so_in_german() -> None:
    game = Game(GameType.RAMSCH, TABLE, loser=RESI)
    with pytest.raises(ScoringError) as err:
        score(game, PROHOF)
    assert err.value.message_de == "Beim ProHof-Turnier wird kein Ramsch gespielt."


@pytest.mark.parametrize("kontra", [1, 2], ids=["kontra", "re"])
def test_there_is_no_kontra_and_so_no_re(kontra: int) -> None:
    """Es gibt beim ProHof-Schafkopfturnier KEIN Kontra (und entsprechend kein Re)."""
    assert rejected_key(rufspiel(kontra=kontra)) == "kontra"
    assert rejected_key(solo(kontra=kontra)) == "kontra"


def test_there_is_no_doppeln_either() -> None:
    """Contract: "No Kontra, Re, Doppeln, Bock or Jungfrau." (The seed's "Klopfen" among
    the general standards is table manners, not a doubling.)"""
    assert rejected_key(wenz(doubled=1)) == "doubled"


def test_a_kontra_key_is_rejected_even_at_zero() -> None:
    """KEIN Kontra: the key itself is not part of a ProHof game."""
    obj = {"type": "rufspiel", "players": list(TABLE), "declarer": SEPP, "partner": HIAS}
    with pytest.raises(ScoringError) as err:
        parse_game(PROHOF, {**obj, "kontra": 0}, 3)
    assert str(err.value) == "game 3: kontra: there is no Kontra or Re at ProHof"


def test_solo_ranks_above_wenz_above_rufspiel() -> None:
    """Solo ist das ranghöchste Spiel, dann folgt Wenz und Rufspiel."""
    assert value(solo()) > value(wenz()) > value(rufspiel())


def test_if_nobody_announces_they_play_ueberkreuz() -> None:
    """Sagt kein Spieler an, wird nicht eingeworfen, sondern „über Kreuz“ gespielt."""
    assert points(ueberkreuz()) == {SEPP: 10, VRONI: 0, HIAS: 10, RESI: 0}


@pytest.mark.parametrize("game", [solo(tout=True), wenz(tout=True)], ids=["solo", "wenz"])
def test_the_bidding_may_rise_up_to_tout(game: Game) -> None:
    """Es darf bis auf tout erhöht werden, ..."""
    assert value(game) == value(Game(**{**_fields(game), "tout": False})) + 40


@pytest.mark.parametrize("game", [rufspiel(tout=True), ueberkreuz(tout=True)], ids=_id)
def test_only_solo_and_wenz_can_be_a_tout(game: Game) -> None:
    assert rejected_key(game) == "tout"


# -- Punktewertung ---------------------------------------------------------------------


def test_rufspiel_10_points_ueberkreuz_10_points() -> None:
    """Ruf-Spiel 10 Punkte, Über-Kreuz-Spiel 10 Punkte"""
    assert value(rufspiel()) == value(ueberkreuz()) == 10


def test_wenz_20_points() -> None:
    """Wenz 20 Punkte."""
    assert value(wenz()) == 20


@pytest.mark.parametrize("suit", list(Suit))
def test_every_solo_30(suit: Suit) -> None:
    """jedes Solo 30"""
    assert value(solo(suit=suit)) == 30


def test_every_running_trump_from_eichel_counts_also_without() -> None:
    """jeder laufende Trumpf (Ober/Unter) ab Eichel zählt, ebenso „ohne Laufende“!"""
    # From the first one, no threshold; the key is the run's length, mit or ohne.
    assert [value(rufspiel(laufende=n)) for n in range(4)] == [10, 20, 30, 40]
    assert value(rufspiel(won=False, laufende=2)) == value(rufspiel(won=True, laufende=2))


def test_only_ober_and_unter_count_so_at_most_8_and_4_in_a_wenz() -> None:
    """jeder laufende Trumpf (Ober/Unter) ...: four Ober and four Unter, so at most 8
    (contract: cap 8, Wenz 4). A longer run is legal (up to 14) and counts 8."""
    assert value(solo(laufende=8)) == value(solo(laufende=12)) == 30 + 80
    assert value(wenz(laufende=4)) == 20 + 40
    assert rejected_key(wenz(laufende=5)) == "laufende"
    assert rejected_key(solo(laufende=15)) == "laufende"


def test_schneider_and_angesagt_10_points_each() -> None:
    """Schneider und „angesagt“ je 10 Punkte"""
    assert value(rufspiel(schneider=True)) == 20
    assert value(rufspiel(schneider=True, angesagt=True)) == 30


def test_schwarz_counts_10_tout_angesagt_20() -> None:
    """Schwarz zählt 10, tout angesagt 20"""
    assert value(solo(schneider=True, schwarz=True)) == 30 + 10 + 10
    assert value(solo(tout=True)) == 30 + 20 + 10 + 10


def test_a_player_loses_with_60() -> None:
    """Ein Spieler verliert mit „60“"""
    assert outcome_from_augen(60).won is False
    assert outcome_from_augen(61).won is True


def test_schneider_free_with_31() -> None:
    """Schneider frei mit „31“"""
    assert outcome_from_augen(31) == (False, False)
    assert outcome_from_augen(30) == (False, True)


def test_a_lost_game_deducts_nothing_only_good_points_are_written() -> None:
    """Bei einem verlorenen Spiel werden dem Spieler diese Punkte nicht abgezogen – es
    werden nur die “guten“ Punkte notiert!"""
    assert points(solo(won=False)) == {SEPP: 30, VRONI: 0, HIAS: 30, RESI: 30}
    assert points(rufspiel(won=False)) == {SEPP: 0, VRONI: 10, HIAS: 0, RESI: 10}


def test_ueberkreuz_the_pair_with_the_old_one_needs_61_counted_like_a_herz_solo() -> None:
    """Über-Kreuz-Spiel: Das Spielerpaar, das „den Alten“ hat, braucht 61 Punkte zum Sieg.
    Gezählt wird wie Rot-Solo."""
    assert points(ueberkreuz(won=True, laufende=3)) == {SEPP: 40, VRONI: 0, HIAS: 40, RESI: 0}
    assert points(ueberkreuz(won=False, schneider=True)) == {
        SEPP: 0,
        VRONI: 20,
        HIAS: 0,
        RESI: 20,
    }
    # Laufende as in a Herz solo: up to 14 in the run, 8 counted.
    assert value(ueberkreuz(laufende=14)) == 10 + 80
    assert rejected_key(ueberkreuz(angesagt=True)) == "angesagt"


# -- Beispiele zur Veranschaulichung (the table) -----------------------------------------


@pytest.mark.parametrize(("game", "base"), [(rufspiel(), 10), (wenz(), 20), (solo(), 30)], ids=_id)
def test_table_grundwert_10_20_30(game: Game, base: int) -> None:
    """Spiel Wenz Solo / Grundwert 10 20 30"""
    assert value(game) == base


@pytest.mark.parametrize(
    ("game", "extra"),
    [
        (rufspiel(schneider=True), 10),
        (wenz(schneider=True), 10),
        (solo(schneider=True), 10),
        (rufspiel(schneider=True, angesagt=True), 20),
        (wenz(schneider=True, angesagt=True), 20),
        (solo(schneider=True, angesagt=True), 20),
        (rufspiel(schwarz=True), 20),
        (wenz(schwarz=True), 20),
        (solo(schwarz=True), 20),
        (wenz(tout=True), 40),
        (solo(tout=True), 40),
    ],
    ids=[
        "rufspiel schneider +10",
        "wenz schneider +10",
        "solo schneider +10",
        "rufspiel angesagt +10",
        "wenz angesagt +10",
        "solo angesagt +10",
        "rufspiel schwarz +10 (and its schneider)",
        "wenz schwarz +10 (and its schneider)",
        "solo schwarz +10 (and its schneider)",
        "wenz tout angesagt +20 (and schneider, schwarz)",
        "solo tout angesagt +20 (and schneider, schwarz)",
    ],
)
def test_table_schneider_angesagt_schwarz_tout(game: Game, extra: int) -> None:
    """Schneider +10 +10 +10 / angesagt +10 / Schwarz +10 / Tout angesagt +20"""
    assert (
        value(game)
        == {GameType.RUFSPIEL: 10, GameType.WENZ: 20, GameType.SOLO: 30}[game.type] + extra
    )


@pytest.mark.parametrize(
    "game", [rufspiel(laufende=2), wenz(laufende=2), solo(laufende=2)], ids=_id
)
def test_table_mit_oder_ohne_laufende_each_trump_plus_10(game: Game) -> None:
    """Mit oder ohne laufende (Trümpfe absteigend) je Trumpf +10 +10 +10 +10"""
    assert value(game) - value(Game(**{**_fields(game), "laufende": 0})) == 20


@pytest.mark.parametrize("game", [wenz(), solo()], ids=_id)
def test_the_declarer_is_credited_three_times_the_points(game: Game) -> None:
    """Dem Spieler wird die dreifache Punktzahl (Solo/Wenz) angerechnet."""
    assert points(game)[VRONI] == 3 * value(game)
    assert sum(points(game).values()) == 3 * value(game)


# -- Rechenbeispiele -------------------------------------------------------------------

# (seed sentence, game, value, payouts)
EXAMPLES = [
    (
        "Rufspiel mit 2 laufenden Obern, Schneider: Spiel 10, mit 2en 30, Schneider 40. "
        "Die beiden Gewinner erhalten je 40 Punkte gutgeschrieben",
        rufspiel(laufende=2, schneider=True),
        40,
        {SEPP: 40, VRONI: 0, HIAS: 40, RESI: 0},
    ),
    (
        "Schneiderwenz mit 3en schwarz: Wenz 20, angesagt 30, mit 3en 60, Schneider 70, "
        "Schwarz 80. Der Gewinner erhält 3 x 80 Punkte also 240 Punkte gutgeschrieben",
        wenz(angesagt=True, laufende=3, schneider=True, schwarz=True),
        80,
        {SEPP: 0, VRONI: 240, HIAS: 0, RESI: 0},
    ),
    (
        "Schneiderwenz mit 3en schwarz: ... wird das Spiel verloren erhalten die 3 "
        "Mitspieler je 80 Punkte gutgeschrieben.",
        wenz(won=False, angesagt=True, laufende=3, schneider=True, schwarz=True),
        80,
        {SEPP: 80, VRONI: 0, HIAS: 80, RESI: 80},
    ),
    (
        "Herz tout mit 4en: Herz Solo 30, Tout angesagt 50, mit 4en 90, Schneider 100 "
        "Schwarz 110. Der Gewinner erhält 3 x 110 Punkte also 330 Punkte gutgeschrieben",
        solo(suit=Suit.HERZ, tout=True, laufende=4),
        110,
        {SEPP: 0, VRONI: 330, HIAS: 0, RESI: 0},
    ),
    (
        "Solo mit 61 Punkten, „mit oder ohne Zweien“ 50 Punkte",
        solo(laufende=2),
        50,
        {SEPP: 0, VRONI: 150, HIAS: 0, RESI: 0},
    ),
    (
        "Solo mit oder ohne Zweien, Schneider 60 Punkte",
        solo(laufende=2, schneider=True),
        60,
        {SEPP: 0, VRONI: 180, HIAS: 0, RESI: 0},
    ),
    (
        "Solo mit oder ohne „Zweien“ und „Schwarz“ 70 Punkte",
        solo(laufende=2, schwarz=True),
        70,
        {SEPP: 0, VRONI: 210, HIAS: 0, RESI: 0},
    ),
    (
        # "Schwarz, angesagt" is Schwarz announced, i.e. tout (+20): 30 + 20 + 10 + 10 + 20.
        "Solo mit oder ohne „Zweien“ und „Schwarz“, angesagt 90 Punkte",
        solo(laufende=2, tout=True),
        90,
        {SEPP: 0, VRONI: 270, HIAS: 0, RESI: 0},
    ),
    (
        "Solo mit sechs Laufenden (Eichel Ober bis Grün Unter), Schneider, Schwarz "
        "gewonnen 110 Punkte",
        solo(laufende=6, schneider=True, schwarz=True),
        110,
        {SEPP: 0, VRONI: 330, HIAS: 0, RESI: 0},
    ),
    (
        "Wenz mit 61 Punkten, „mit oder ohne Zweien“ 40 Punkte",
        wenz(laufende=2),
        40,
        {SEPP: 0, VRONI: 120, HIAS: 0, RESI: 0},
    ),
    (
        "Wenz mit oder ohne Zweien, Schneider 50 Punkte",
        wenz(laufende=2, schneider=True),
        50,
        {SEPP: 0, VRONI: 150, HIAS: 0, RESI: 0},
    ),
    (
        "Wenz mit oder ohne „Zweien“ und „Schwarz“ 60 Punkte",
        wenz(laufende=2, schwarz=True),
        60,
        {SEPP: 0, VRONI: 180, HIAS: 0, RESI: 0},
    ),
    (
        # As for the Solo: Schwarz announced is tout (+20).
        "Wenz mit oder ohne „Zweien“ und „Schwarz“, angesagt 80 Punkte",
        wenz(laufende=2, tout=True),
        80,
        {SEPP: 0, VRONI: 240, HIAS: 0, RESI: 0},
    ),
    (
        # The seed says 100; its own rule list gives 20 + 40 + 10 + 10 + 10 = 90, and the
        # contract says the rule list stands.
        "Wenz mit Vieren (Eichel Unter bis Schnellen Unter), Schneider angesagt, Schwarz "
        "gewonnen 100 Punkte [contract: 90]",
        wenz(laufende=4, angesagt=True, schneider=True, schwarz=True),
        90,
        {SEPP: 0, VRONI: 270, HIAS: 0, RESI: 0},
    ),
    (
        "Rufspiel mit 61 Punkten, mit oder ohne Zweien“ 30 Punkte",
        rufspiel(laufende=2),
        30,
        {SEPP: 30, VRONI: 0, HIAS: 30, RESI: 0},
    ),
    (
        "Rufspiel mit oder ohne Zweien, Schneider 40 Punkte",
        rufspiel(laufende=2, schneider=True),
        40,
        {SEPP: 40, VRONI: 0, HIAS: 40, RESI: 0},
    ),
    (
        "Rufspiel mit oder ohne „Zweien“ und „Schwarz“ 50 Punkte",
        rufspiel(laufende=2, schwarz=True),
        50,
        {SEPP: 50, VRONI: 0, HIAS: 50, RESI: 0},
    ),
    (
        "Schreibweise: Gewinnt ein Spieler ein Solo schwarz ohne Ansage mit Zweien, werden "
        "ihm 210 Punkte gutgeschrieben (70 Punkte x 3 Gegenspieler = 210 Pkte)",
        solo(laufende=2, schwarz=True),
        70,
        {SEPP: 0, VRONI: 210, HIAS: 0, RESI: 0},
    ),
    (
        "Verliert der Spieler, erhalten die drei Gegenspieler jeweils 70 Punkte.",
        solo(won=False, laufende=2, schwarz=True),
        70,
        {SEPP: 70, VRONI: 0, HIAS: 70, RESI: 70},
    ),
]


@pytest.mark.parametrize(
    ("game", "expected_value", "expected_points"),
    [example[1:] for example in EXAMPLES],
    ids=[example[0] for example in EXAMPLES],
)
def test_rechenbeispiel(game: Game, expected_value: int, expected_points: dict[str, int]) -> None:
    result = score(game, PROHOF)
    assert result.value == expected_value
    assert result.multiplier == 1
    assert dict(result.payouts) == expected_points


def test_the_wenz_mit_vieren_example_of_100_contradicts_the_rule_list_which_stands() -> None:
    """Wenz mit Vieren (Eichel Unter bis Schnellen Unter), Schneider angesagt, Schwarz
    gewonnen 100 Punkte — contract: "20 + 40 + 10 + 10 + 10 = 90. The rule list stands.\""""
    game = wenz(laufende=4, angesagt=True, schneider=True, schwarz=True)
    assert value(game) == 20 + 40 + 10 + 10 + 10 == 90


def test_a_tout_carries_no_separate_schneider_angesagt() -> None:
    """Herz tout mit 4en: ... Tout angesagt 50, mit 4en 90, Schneider 100 Schwarz 110 — no
    "angesagt" on top, so tout and angesagt together are rejected."""
    assert rejected_key(solo(tout=True, angesagt=True)) == "angesagt"


def _fields(game: Game) -> dict[str, object]:
    return {name: getattr(game, name) for name in game.__dataclass_fields__}
