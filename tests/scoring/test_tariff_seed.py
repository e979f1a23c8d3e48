"""Seed 001 (money tariff of a Runde), sentence by sentence, in the order of the text.

Each test quotes the sentence it checks. Amounts are exact cents.
"""

from __future__ import annotations

import pytest
from scoring_helpers import (
    HIAS,
    RESI,
    SEPP,
    TABLE,
    VRONI,
    farbsolo,
    payouts,
    ramsch,
    sauspiel,
    score,
    unit,
    wenz,
)

from scoring import (
    BockMode,
    ScoringError,
    Suit,
    TariffRules,
    format_cents,
    outcome_from_augen,
    score_evening,
    score_game,
    worked_examples,
)
from scoring.jsonio import parse_game, parse_settle

BOCK = TariffRules(bock=BockMode.RAMSCH)
BOCK_SOLO = TariffRules(bock=BockMode.RAMSCH_OR_LOST_SOLO)
JUNGFRAU = TariffRules(jungfrau=True)

# -- Spielarten ------------------------------------------------------------------------


def test_the_defaults_are_the_ordinary_zehner_schafkopf() -> None:
    """Die Werte unten sind die Voreinstellung eines gewöhnlichen Zehner-Schafkopf."""
    rules = TariffRules()
    assert (rules.sauspiel, rules.farbsolo, rules.wenz, rules.ramsch) == (10, 50, 50, 10)


def test_each_runde_sets_its_own_values() -> None:
    """... jede Runde stellt sie für sich ein."""
    rules = TariffRules(sauspiel=20, farbsolo=100, wenz=80, ramsch=30)
    assert unit(sauspiel(), rules) == 20
    assert unit(farbsolo(), rules) == 100
    assert unit(wenz(), rules) == 80
    assert unit(ramsch(), rules) == 30


def test_sauspiel_is_two_against_two_for_0_10() -> None:
    """Sauspiel — zwei gegen zwei — 0,10 €."""
    assert payouts(sauspiel()) == {SEPP: 10, VRONI: -10, HIAS: 10, RESI: -10}


def test_farbsolo_is_one_against_three_for_0_50() -> None:
    """Farbsolo — einer gegen drei — 0,50 €."""
    assert payouts(farbsolo()) == {SEPP: -50, VRONI: 150, HIAS: -50, RESI: -50}


def test_wenz_is_one_against_three_for_0_50() -> None:
    """Wenz — einer gegen drei, nur die Unter sind Trumpf — 0,50 €."""
    assert payouts(wenz()) == {SEPP: -50, VRONI: 150, HIAS: -50, RESI: -50}


def test_ramsch_the_player_with_most_augen_loses_0_10_to_each() -> None:
    """Ramsch — jeder für sich; wer die meisten Augen hat, verliert — 0,10 €."""
    assert payouts(ramsch(loser=HIAS)) == {SEPP: 10, VRONI: 10, HIAS: -30, RESI: 10}


def test_tout_is_no_game_type_of_its_own() -> None:
    """Tout ist keine eigene Spielart, ..."""
    with pytest.raises(ScoringError) as err:
        parse_game(TariffRules(), {"type": "tout", "players": list(TABLE)}, 1)
    assert err.value.key == "type"


@pytest.mark.parametrize("game", [farbsolo(tout=True), wenz(tout=True)], ids=["farbsolo", "wenz"])
def test_tout_is_an_announcement_on_farbsolo_or_wenz(game: object) -> None:
    """... sondern eine Ansage auf Farbsolo oder Wenz."""
    assert score(game).multiplier == 2  # type: ignore[arg-type]


@pytest.mark.parametrize("game_type", ["sauspiel", "ramsch"])
def test_sauspiel_and_ramsch_have_no_tout(game_type: str) -> None:
    """Beim Sauspiel und beim Ramsch gibt es keinen Alleinspieler, also auch kein Tout."""
    game = sauspiel(tout=True) if game_type == "sauspiel" else ramsch(tout=True)
    with pytest.raises(ScoringError) as err:
        score(game)
    assert err.value.key == "tout"


@pytest.mark.parametrize("name", ["geier", "farbwenz", "farbgeier", "bettel", "hochzeit", "sie"])
def test_geier_farbwenz_farbgeier_bettel_hochzeit_and_sie_are_not_built_in(name: str) -> None:
    """Nicht eingebaut sind Geier, Farbwenz, Farbgeier, Bettel, Hochzeit und Sie."""
    with pytest.raises(ScoringError) as err:
        parse_game(TariffRules(), {"type": name, "players": list(TABLE), "declarer": SEPP}, 4)
    assert (err.value.game, err.value.key) == (4, "type")


# -- Laufende --------------------------------------------------------------------------


def test_laufende_pay_the_same_mit_or_ohne() -> None:
    """Ob die eigene Partei sie hält (mit) oder die Gegner (ohne), ändert am Betrag
    nichts — es zählt allein, wie lang die Folge ist."""
    # The key is the length of the run; won or lost, the run adds the same amount.
    assert unit(sauspiel(won=True, laufende=4)) == unit(sauspiel(won=False, laufende=4)) == 50


def test_a_wenz_cannot_have_more_than_four_laufende() -> None:
    """Beim Wenz sind nur die vier Unter Trumpf — mehr als vier Laufende kann es dort
    nicht geben."""
    assert unit(wenz(laufende=4)) == 90
    with pytest.raises(ScoringError) as err:
        score(wenz(laufende=5))
    assert err.value.key == "laufende"


def test_laufende_do_not_count_in_a_ramsch() -> None:
    """Beim Ramsch zählen Laufende gar nicht."""
    with pytest.raises(ScoringError) as err:
        score(ramsch(laufende=3))
    assert err.value.key == "laufende"
    assert score(ramsch()).value == 10


def test_below_3_laufende_nothing_is_paid() -> None:
    """Ab 3 Laufenden — darunter wird nichts gezahlt."""
    assert unit(sauspiel(laufende=1)) == unit(sauspiel(laufende=2)) == 10


def test_each_laufender_from_3_on_pays_0_10() -> None:
    """Ab 3 Laufenden ... 0,10 €."""
    assert [unit(sauspiel(laufende=n)) - 10 for n in (3, 4, 5)] == [30, 40, 50]


def test_sauspiel_and_farbsolo_pay_at_most_8_laufende_four_ober_and_four_unter() -> None:
    """Höchstens — Sauspiel und Farbsolo — vier Ober und vier Unter — 8."""
    assert unit(sauspiel(laufende=8)) == unit(sauspiel(laufende=11)) == 10 + 80
    assert unit(farbsolo(laufende=14)) == 50 + 80


def test_a_wenz_pays_at_most_4_laufende() -> None:
    """Höchstens beim Wenz — mehr Trümpfe gibt es nicht — 4."""
    assert unit(wenz(laufende=4), TariffRules(laufende_max=14)) == 50 + 40
    # and never more than the general cap
    assert unit(wenz(laufende=4), TariffRules(laufende_min=2, laufende_max=3)) == 50 + 30


def test_3_laufende_pay_for_3_not_one_0_30() -> None:
    """3 Laufende zahlen für 3 Laufende, nicht für einen. Die Schwelle entscheidet nur, ob
    überhaupt gezahlt wird — sie wird nicht abgezogen. Bei 0,10 € je Laufendem sind das
    also 0,30 €."""
    assert unit(sauspiel(laufende=3)) == 10 + 30


def test_tables_that_count_all_14_trumps_raise_the_cap() -> None:
    """Die Obergrenze von 8 ist die verbreitete Tischregel. Manche Tische zählen alle 14
    Trümpfe — dann wird die Obergrenze in den Einstellungen hochgesetzt."""
    assert unit(sauspiel(laufende=14), TariffRules(laufende_max=14)) == 10 + 140
    with pytest.raises(ScoringError) as err:
        score(sauspiel(), TariffRules(laufende_max=15))
    assert err.value.key == "laufende_max"
    with pytest.raises(ScoringError) as err:
        score(sauspiel(laufende=15), TariffRules(laufende_max=14))
    assert err.value.key == "laufende"


# -- Schneider und Schwarz -------------------------------------------------------------


def test_the_deck_holds_120_augen() -> None:
    """Im Blatt stecken 120 Augen."""
    assert outcome_from_augen(120) == (True, True)
    with pytest.raises(ScoringError):
        outcome_from_augen(121)


def test_schneider_losers_below_31_augen_add_0_10() -> None:
    """Schneider — die Verlierer bleiben unter 31 Augen — 0,10 €."""
    assert unit(sauspiel(schneider=True)) == 20
    assert outcome_from_augen(30).schneider  # the declarer's side lost with 30
    assert not outcome_from_augen(31).schneider


def test_schwarz_losers_take_no_trick_add_0_10() -> None:
    """Schwarz — die Verlierer machen keinen einzigen Stich — 0,10 €."""
    assert unit(sauspiel(schneider=True, schwarz=True)) - unit(sauspiel(schneider=True)) == 10


def test_a_game_won_schwarz_is_also_schneider_together_0_20() -> None:
    """Sie addieren sich. Ein schwarz gewonnenes Spiel ist zwangsläufig auch Schneider,
    also kommen beide Beträge dazu — zusammen 0,20 €."""
    assert unit(sauspiel(schwarz=True)) == 10 + 20
    assert unit(sauspiel(schwarz=True)) == unit(sauspiel(schneider=True, schwarz=True))


def test_schneider_plus_ten_schwarz_plus_twenty_with_separate_values() -> None:
    """Das ist die vertraute Regel „Schneider plus zehn, Schwarz plus zwanzig“, nur mit
    zwei getrennt einstellbaren Werten."""
    assert unit(sauspiel(schneider=True)) - 10 == 10
    assert unit(sauspiel(schwarz=True)) - 10 == 20
    rules = TariffRules(schneider=5, schwarz=25)
    assert unit(sauspiel(schwarz=True), rules) - 10 == 30


def test_all_tricks_with_one_worthless_trick_given_away_is_not_schwarz() -> None:
    """Alle Stiche zu machen und einen davon ohne Augen abzugeben, ist nicht schwarz — es
    zählt der Stich, nicht sein Wert."""
    # The table records such a game as Schneider without Schwarz: only Schneider is paid.
    assert unit(sauspiel(schneider=True, schwarz=False)) == 20


@pytest.mark.parametrize("key", ["schneider", "schwarz"])
def test_there_is_neither_schneider_nor_schwarz_in_a_ramsch(key: str) -> None:
    """Beim Ramsch gibt es weder Schneider noch Schwarz."""
    with pytest.raises(ScoringError) as err:
        score(ramsch(**{key: True}))
    assert err.value.key == key


# -- Verdopplungen ---------------------------------------------------------------------


def test_a_doubling_doubles_the_whole_value_after_laufende_schneider_and_schwarz() -> None:
    """Drei voneinander unabhängige Ansagen, und jede verdoppelt den gesamten Spielwert —
    also erst, nachdem Laufende, Schneider und Schwarz dazugerechnet sind, und nicht nur
    den Grundwert."""
    result = score(sauspiel(laufende=3, schwarz=True, kontra=1))
    assert result.value == 10 + 30 + 10 + 10
    assert result.unit == 2 * 60  # not 60 + 10


def test_kontra_during_the_game_doubles() -> None:
    """Kontra — während des Spiels angesagt — ×2."""
    assert unit(sauspiel(kontra=1)) == 20


def test_re_the_answer_quadruples() -> None:
    """Re — die Antwort darauf — ×4."""
    assert unit(sauspiel(kontra=2)) == 40


@pytest.mark.parametrize("doubled", [0, 1, 2, 3, 4])
def test_doppeln_up_to_4_times_each_time_doubles(doubled: int) -> None:
    """Doppeln — vor dem Spiel, anderswo Legen oder Klopfen; bis zu 4-mal, jedes Mal ×2 —
    ×2 je Doppler."""
    assert unit(sauspiel(doubled=doubled)) == 10 * 2**doubled


def test_a_fifth_doppler_is_rejected() -> None:
    """Doppeln ... bis zu 4-mal."""
    with pytest.raises(ScoringError) as err:
        score(sauspiel(doubled=5))
    assert err.value.key == "doubled"


def test_tout_announced_before_doubles() -> None:
    """Tout — vorher angesagt: der Alleinspieler macht alle Stiche — ×2."""
    result = score(farbsolo(tout=True))
    assert result.multiplier == 2
    assert result.value == 50 + 10 + 10


def test_a_won_tout_is_also_schneider_and_schwarz() -> None:
    """Ein gewonnenes Tout ist zwangsläufig auch Schneider und Schwarz — beides kommt oben
    drauf."""
    assert payouts(wenz(tout=True)) == {SEPP: -140, VRONI: 420, HIAS: -140, RESI: -140}


def test_a_lost_tout_costs_the_full_tout_value_with_the_sign_reversed() -> None:
    """Ein verlorenes Tout kostet den vollen Tout-Wert mit umgekehrtem Vorzeichen:
    angesagt ist angesagt."""
    won = payouts(farbsolo(won=True, tout=True))
    lost = payouts(farbsolo(won=False, tout=True))
    assert lost == {player: -amount for player, amount in won.items()}
    assert lost[VRONI] == -3 * 2 * (50 + 10 + 10)


def test_laufende_count_normally_in_a_tout() -> None:
    """Laufende zählen dabei ganz normal."""
    assert unit(farbsolo(tout=True, laufende=5)) == 2 * (50 + 50 + 10 + 10)
    assert unit(farbsolo(won=False, tout=True, laufende=2)) == 2 * (50 + 10 + 10)


def test_kontra_and_doppeln_also_count_in_a_ramsch() -> None:
    """Kontra und Doppeln gelten auch beim Ramsch."""
    assert payouts(ramsch(kontra=1, doubled=2)) == {SEPP: 80, VRONI: 80, HIAS: 80, RESI: -240}


def test_there_is_no_third_kontra_level() -> None:
    """Eine dritte Kontra-Stufe (Sup oder Hirsch) wird nicht mehr angeboten."""
    with pytest.raises(ScoringError) as err:
        score(sauspiel(kontra=3))
    assert err.value.key == "kontra"


# -- Bock und Jungfrau -----------------------------------------------------------------


def test_bock_and_jungfrau_are_off_until_a_runde_turns_them_on() -> None:
    """Beide sind ausgeschaltet, bis eine Runde sie einschaltet."""
    rules = TariffRules()
    assert rules.bock is BockMode.OFF
    assert rules.jungfrau is False
    result = score_evening(rules, [ramsch(), sauspiel()])
    assert [g.bock for g in result.games] == [False, False]
    with pytest.raises(ScoringError) as err:
        score(ramsch(jungfrauen=(SEPP,)))
    assert err.value.key == "jungfrauen"


def test_after_a_trigger_the_next_4_games_count_double() -> None:
    """Bockrunde — nach einem auslösenden Spiel zählen die nächsten bis zu 4 Spiele
    doppelt — ×2."""
    result = score_evening(BOCK, [ramsch()] + [sauspiel()] * 5)
    assert [g.unit for g in result.games] == [10, 20, 20, 20, 20, 10]
    assert [g.bock_remaining for g in result.games] == [4, 3, 2, 1, 0, 0]


def test_up_to_4_because_the_evening_may_end_first() -> None:
    """... die nächsten bis zu 4 Spiele ..."""
    result = score_evening(BOCK, [ramsch(), sauspiel()])
    assert result.games[1].bock
    assert result.bock_remaining == 3


def test_jungfrau_only_in_a_ramsch_each_doubles_at_most_2() -> None:
    """Jungfrau — nur beim Ramsch: wer keinen Stich macht, verdoppelt; höchstens 2 —
    ×2 je Jungfrau."""
    assert unit(ramsch(jungfrauen=(SEPP,)), JUNGFRAU) == 20
    assert unit(ramsch(jungfrauen=(SEPP, VRONI)), JUNGFRAU) == 40
    # Three players without a trick (the loser took them all) still count only twice.
    assert unit(ramsch(jungfrauen=(SEPP, VRONI, HIAS)), JUNGFRAU) == 40
    with pytest.raises(ScoringError) as err:
        score(sauspiel(jungfrauen=(VRONI,)), JUNGFRAU)
    assert err.value.key == "jungfrauen"


def test_every_ramsch_triggers_bock() -> None:
    """Auslöser einer Bockrunde ist wahlweise jeder Ramsch, ..."""
    result = score_evening(BOCK, [farbsolo(won=False), sauspiel(), ramsch(), sauspiel()])
    assert [g.bock for g in result.games] == [False, False, False, True]


def test_or_every_ramsch_and_also_a_lost_solo() -> None:
    """... oder jeder Ramsch und zusätzlich ein verlorenes Solo."""
    for lost_solo in (farbsolo(won=False), wenz(won=False), wenz(won=False, tout=True)):
        result = score_evening(BOCK_SOLO, [lost_solo, sauspiel()])
        assert result.games[1].bock
    assert score_evening(BOCK_SOLO, [ramsch(), sauspiel()]).games[1].bock


def test_a_won_solo_never_triggers() -> None:
    """Ein gewonnenes Solo löst nie aus."""
    for won_solo in (farbsolo(won=True), wenz(won=True), farbsolo(won=True, tout=True)):
        result = score_evening(BOCK_SOLO, [won_solo, sauspiel()])
        assert not result.games[1].bock


def test_a_trigger_in_a_running_bockrunde_restarts_the_count_instead_of_stacking() -> None:
    """Fällt ein Auslöser in eine laufende Bockrunde, beginnt die Zählung von vorn, statt
    sich zu stapeln — gestapelte Bockrunden sind die Variante, bei der ein Tisch unbemerkt
    beim Achtfachen landet."""
    games = [ramsch(), sauspiel(), ramsch(), sauspiel(), sauspiel(), sauspiel(), sauspiel()]
    result = score_evening(BOCK, games)
    assert [g.bock for g in result.games] == [False, True, True, True, True, True, True]
    # The second Ramsch is itself a Bock game (x2 once), then restarts the count at 4.
    assert [g.multiplier for g in result.games] == [1, 2, 2, 2, 2, 2, 2]
    assert [g.bock_remaining for g in result.games] == [4, 3, 4, 3, 2, 1, 0]


def test_a_bockrunde_holds_only_for_the_running_evening() -> None:
    """Eine Bockrunde gilt nur für den laufenden Abend."""
    first = score_evening(BOCK, [sauspiel(), ramsch()])
    assert first.bock_remaining == 4
    second = score_evening(BOCK, [sauspiel()])
    assert not second.games[0].bock


def test_a_jungfrau_still_receives_her_share() -> None:
    """Eine Jungfrau zahlt trotzdem mit: sie ist einer der drei, denen der
    Ramsch-Verlierer zahlt, und bekommt ihren Anteil wie die anderen beiden. Keinen Stich
    zu machen erhöht den Einsatz — es befreit nicht davon."""
    assert payouts(ramsch(loser=RESI, jungfrauen=(VRONI,)), JUNGFRAU) == {
        SEPP: 20,
        VRONI: 20,
        HIAS: 20,
        RESI: -60,
    }


def test_the_jungfrau_never_sits_out_and_bockrunden_never_stack() -> None:
    """Manche Tische lassen die Jungfrau aussetzen, manche stapeln Bockrunden. Beides
    macht diese Seite nicht."""
    rules = TariffRules(bock=BockMode.RAMSCH, jungfrau=True)
    games = [ramsch(jungfrauen=(SEPP,)), ramsch(jungfrauen=(SEPP,)), ramsch()]
    result = score_evening(rules, games)
    assert all(g.payouts[SEPP] > 0 for g in result.games)
    assert [g.multiplier for g in result.games] == [2, 4, 2]  # Jungfrau x Bock, never Bock x Bock


# -- Rechnung --------------------------------------------------------------------------


def test_step_1_the_value_is_base_plus_laufende_at_threshold_plus_schneider_plus_schwarz() -> None:
    """Der Grundwert der Spielart, plus die Laufenden (wenn sie die Schwelle erreichen),
    plus Schneider, plus Schwarz. Diese Summe ist der Spielwert."""
    assert score(farbsolo(laufende=3, schwarz=True)).value == 50 + 30 + 10 + 10
    assert score(farbsolo(laufende=2, schwarz=True)).value == 50 + 10 + 10


def test_every_doubling_counts_once_and_the_result_is_what_one_loser_pays() -> None:
    """Auf ihn kommen dann alle Verdopplungen: jeder Doppler, jede Kontra-Stufe, ein Tout,
    jede Jungfrau und ein Bock-Spiel zählen je einmal ×2. Das Ergebnis ist der Endwert —
    und der ist der Betrag, den ein unterlegener Gegner zahlt."""
    rules = TariffRules(bock=BockMode.RAMSCH, jungfrau=True)
    solo = score(farbsolo(tout=True, doubled=4, kontra=2), rules, bock=True)
    assert solo.multiplier == 2 ** (4 + 2 + 1 + 1)
    assert solo.payouts[SEPP] == -solo.unit == -70 * 256
    ram = score(ramsch(jungfrauen=(SEPP, VRONI), doubled=1, kontra=1), rules, bock=True)
    assert ram.multiplier == 2 ** (1 + 1 + 2 + 1)
    assert ram.payouts[RESI] == -3 * ram.unit


def test_sauspiel_each_settles_for_himself_one_final_value() -> None:
    """Sauspiel — zwei gegen zwei, jeder rechnet für sich — je 1 × Endwert. Beim Sauspiel
    bekommen also beide Gewinner je einen Endwert und beide Verlierer zahlen je einen."""
    assert payouts(sauspiel(won=False, kontra=1)) == {SEPP: -20, VRONI: 20, HIAS: -20, RESI: 20}


def test_farbsolo_and_wenz_the_declarer_settles_with_all_three() -> None:
    """Farbsolo und Wenz — der Alleinspieler rechnet mit allen dreien ab — 3 × Endwert.
    Beim Solo bekommt der Alleinspieler das Dreifache und jeder der drei Gegner zahlt
    einen einfachen."""
    assert payouts(farbsolo(won=False)) == {SEPP: 50, VRONI: -150, HIAS: 50, RESI: 50}
    assert payouts(wenz(won=True, kontra=1)) == {SEPP: -100, VRONI: 300, HIAS: -100, RESI: -100}


def test_ramsch_the_loser_pays_the_other_three_the_same_the_other_way_round() -> None:
    """Ramsch — der Verlierer zahlt den anderen dreien — 3 × Endwert ... und beim Ramsch
    genauso, nur andersherum."""
    assert payouts(ramsch(loser=SEPP)) == {SEPP: -30, VRONI: 10, HIAS: 10, RESI: 10}


def test_the_amounts_of_every_game_sum_to_exactly_zero_and_it_is_checked_every_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Die Beträge eines Spiels ergeben zusammen immer genau null. ... und es wird bei
    jedem einzelnen Spiel geprüft."""
    from scoring import ZeroSumError, engine

    result = score_evening(BOCK, [sauspiel(), farbsolo(won=False), ramsch(), wenz(tout=True)])
    assert all(sum(g.payouts.values()) == 0 for g in result.games)

    real = engine._tariff_payouts

    def off_by_one_cent(game: object, unit: int) -> dict[str, int]:
        amounts = real(game, unit)  # type: ignore[arg-type]
        amounts[SEPP] += 1
        return amounts

    monkeypatch.setattr(engine, "_tariff_payouts", off_by_one_cent)
    with pytest.raises(ZeroSumError):
        score_evening(BOCK, [sauspiel()])


def test_every_value_and_multiplier_is_a_whole_number_and_spreading_multiplies_by_three() -> None:
    """Jeder Wert ist eine ganze Zahl in Cent, jeder Multiplikator ist eine ganze Zahl, und
    verteilt wird durch Multiplizieren mit drei — nie durch Teilen."""
    # An odd unit spreads exactly: 3 x 7 against 7 + 7 + 7 (no division is in the code,
    # test_scoring_purity.py checks that).
    result = score(farbsolo(), TariffRules(farbsolo=7))
    assert result.payouts == {SEPP: -7, VRONI: 21, HIAS: -7, RESI: -7}
    for number in (result.value, result.multiplier, result.unit, *result.payouts.values()):
        assert type(number) is int


def test_a_sauspiel_is_stored_as_the_integer_10_and_shown_as_0_10_euro() -> None:
    """Gespeichert wird ein Sauspiel als die ganze Zahl 10 — in Cent. Erst auf dem Weg zum
    Bildschirm wird daraus „0,10 €“."""
    assert score(sauspiel()).value == 10
    assert format_cents(10) == "0,10 €"


@pytest.mark.parametrize("rounding", [1, 10, 50, 100])
def test_settlement_rounds_to_the_cent_10_cents_50_cents_or_a_whole_euro(rounding: int) -> None:
    """Beim Ausgleich lässt sich einstellen, ob auf den Cent, auf 10 Cent, auf 50 Cent oder
    auf einen ganzen Euro abgerundet wird."""
    assert parse_settle(TariffRules(), {"unit": rounding}) == rounding


def test_other_settlement_roundings_are_rejected() -> None:
    with pytest.raises(ScoringError) as err:
        parse_settle(TariffRules(), {"unit": 20})
    assert str(err.value) == "settle: unit: must be one of 1, 10, 50, 100"


# The worked examples at the default tariff, worked out by hand from this text: value =
# Grundwert + Laufende (from 3, at most 8, Wenz 4) + Schneider + Schwarz, x2 per doubling;
# payouts (Sepp, Vroni, Hias, Resi). The Sauspiel is Sepp's with Hias, every solo Vroni's,
# Resi loses the Ramsch.
DEFAULT_EXAMPLES = {
    "Sauspiel gewonnen": (10, 1, (10, -10, 10, -10)),
    "Sauspiel gewonnen mit 3 Laufenden": (40, 1, (40, -40, 40, -40)),  # 10 + 3 x 10
    "Sauspiel gewonnen mit 2 Laufenden": (10, 1, (10, -10, 10, -10)),  # below the threshold
    "Sauspiel gewonnen mit 9 Laufenden": (90, 1, (90, -90, 90, -90)),  # 10 + 8 x 10 (cap)
    "Sauspiel verloren, Schneider": (20, 1, (-20, 20, -20, 20)),  # 10 + 10
    "Sauspiel gewonnen, Schneider und Schwarz": (30, 1, (30, -30, 30, -30)),  # 10 + 10 + 10
    # (10 + 3 x 10) x2 Kontra = 80
    "Sauspiel verloren mit 3 Laufenden und Kontra": (40, 2, (-80, 80, -80, 80)),
    "Sauspiel gewonnen mit Re": (10, 4, (40, -40, 40, -40)),  # 10 x4 Re
    "Sauspiel gewonnen, zweimal gedoppelt": (10, 4, (40, -40, 40, -40)),  # 10 x2 x2
    # 50 + 3 x 10 + 10 = 90; Vroni 3 x 90
    "Farbsolo gewonnen mit 3 Laufenden, Schneider": (90, 1, (-90, 270, -90, -90)),
    "Farbsolo verloren": (50, 1, (50, -150, 50, 50)),  # Vroni pays 3 x 50
    "Wenz gewonnen mit 3 Laufenden": (80, 1, (-80, 240, -80, -80)),  # 50 + 3 x 10
    # (50 + 3 x 10 + 10 + 10) x2 Tout = 200; Vroni 3 x 200
    "Farbsolo-Tout gewonnen mit 3 Laufenden, Schneider und Schwarz": (
        100,
        2,
        (-200, 600, -200, -200),
    ),
    # a lost Tout costs the full Tout value: (50 + 10 + 10) x2 = 140; Vroni 3 x 140
    "Wenz-Tout verloren, Schneider und Schwarz": (70, 2, (140, -420, 140, 140)),
    "Ramsch": (10, 1, (10, 10, 10, -30)),  # Resi pays the other three 10 each
}


def test_the_examples_are_computed_by_the_same_calculation_that_books_a_game() -> None:
    """Alle zum voreingestellten Tarif, und alle von derselben Rechnung erzeugt, die auch
    ein echtes Spiel bucht — hier steht keine abgetippte Zahl."""
    rules = TariffRules()
    examples = worked_examples(rules)
    assert [e.title for e in examples] == list(DEFAULT_EXAMPLES)
    for example in examples:
        value, multiplier, amounts = DEFAULT_EXAMPLES[example.title]
        expected = (value, multiplier, value * multiplier, dict(zip(TABLE, amounts, strict=True)))
        # What the rules page shows, what scoring one game books, and what the game
        # books as the first of an evening.
        for result in (
            example.result,
            score_game(rules, example.game),
            score_evening(rules, [example.game]).games[0],
        ):
            assert (result.value, result.multiplier, result.unit, result.payouts) == expected


def test_suits_do_not_change_the_value_of_a_farbsolo() -> None:
    """Farbsolo — einer gegen drei — 0,50 € (für jede Trumpffarbe)."""
    assert {unit(farbsolo(suit=suit)) for suit in Suit} == {50}


@pytest.mark.parametrize("other", ["rufspiel", "solo", "ueberkreuz"])
def test_exactly_four_game_types_are_entered(other: str) -> None:
    """Vier Spielarten sind eingetragen, ..."""
    result = score_evening(TariffRules(), [sauspiel(), farbsolo(), wenz(), ramsch()])
    assert [g.value for g in result.games] == [10, 50, 50, 10]
    with pytest.raises(ScoringError) as err:
        parse_game(TariffRules(), {"type": other, "players": list(TABLE), "declarer": SEPP}, 2)
    assert (err.value.game, err.value.key) == (2, "type")
