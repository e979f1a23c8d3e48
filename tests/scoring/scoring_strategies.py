"""Hypothesis strategies: every valid tariff and ProHof rule set and game, and helpers."""

from __future__ import annotations

from hypothesis import strategies as st

from scoring import BockMode, Game, GameType, ProHofRules, Rules, Suit, TariffRules

PLAYERS = ("Sepp", "Vroni", "Hias", "Resi", "Girgl", "Kathl")
TABLE = ("Sepp", "Vroni", "Hias", "Resi")

TARIFF_TYPES = (GameType.SAUSPIEL, GameType.FARBSOLO, GameType.WENZ, GameType.RAMSCH)
PROHOF_TYPES = (GameType.RUFSPIEL, GameType.SOLO, GameType.WENZ, GameType.UEBERKREUZ)

amounts = st.integers(min_value=0, max_value=5_000)


@st.composite
def tariff_rules(draw: st.DrawFn, bock: BockMode | None = None) -> TariffRules:
    laufende_min = draw(st.integers(1, 14))
    return TariffRules(
        sauspiel=draw(amounts),
        farbsolo=draw(amounts),
        wenz=draw(amounts),
        ramsch=draw(amounts),
        laufende=draw(amounts),
        laufende_min=laufende_min,
        laufende_max=draw(st.integers(laufende_min, 14)),
        laufende_min_wenz=draw(st.none() | st.integers(1, 4)),
        schneider=draw(amounts),
        schwarz=draw(amounts),
        bock=draw(st.sampled_from(BockMode)) if bock is None else bock,
        jungfrau=draw(st.booleans()),
    )


any_rules: st.SearchStrategy[Rules] = st.one_of(tariff_rules(), st.just(ProHofRules()))


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, str, str, str]:
    names = draw(st.permutations(PLAYERS))
    return (names[0], names[1], names[2], names[3])


@st.composite
def games(draw: st.DrawFn, rules: Rules, game_type: GameType | None = None) -> Game:
    """A valid game of any type the rules' system plays (or of ``game_type``)."""
    tariff = isinstance(rules, TariffRules)
    if game_type is None:
        game_type = draw(st.sampled_from(TARIFF_TYPES if tariff else PROHOF_TYPES))
    players = draw(tables())
    order = draw(st.permutations(players))
    kontra = draw(st.integers(0, 2)) if tariff else 0
    doubled = draw(st.integers(0, 4)) if tariff else 0
    if game_type is GameType.RAMSCH:
        assert isinstance(rules, TariffRules)
        loser = order[0]
        count = draw(st.integers(0, 3)) if rules.jungfrau else 0
        return Game(
            game_type,
            players,
            loser=loser,
            jungfrauen=tuple(order[1 : 1 + count]),
            kontra=kontra,
            doubled=doubled,
        )
    pair = game_type in (GameType.SAUSPIEL, GameType.RUFSPIEL, GameType.UEBERKREUZ)
    solo = not pair
    wenz = game_type is GameType.WENZ
    tout = draw(st.booleans()) if solo else False
    angesagt = (
        draw(st.booleans())
        if not tariff and game_type is not GameType.UEBERKREUZ and not tout
        else False
    )
    won, schneider, schwarz = draw(st.booleans()), draw(st.booleans()), draw(st.booleans())
    # A won game with Schneider announced reached it (scoring.validation).
    angesagt = angesagt and (not won or schneider or schwarz)
    return Game(
        game_type,
        players,
        declarer=order[0],
        partner=order[1] if pair else None,
        suit=draw(st.sampled_from(Suit))
        if game_type in (GameType.FARBSOLO, GameType.SOLO)
        else None,
        won=won,
        laufende=draw(st.integers(0, 4 if wenz else 14)),
        schneider=schneider,
        schwarz=schwarz,
        tout=tout,
        kontra=kontra,
        doubled=doubled,
        angesagt=angesagt,
    )


@st.composite
def rules_and_game(draw: st.DrawFn) -> tuple[Rules, Game]:
    rules = draw(any_rules)
    return rules, draw(games(rules))


@st.composite
def tariff_rules_and_game(draw: st.DrawFn) -> tuple[TariffRules, Game]:
    rules = draw(tariff_rules())
    return rules, draw(games(rules))


@st.composite
def evenings(draw: st.DrawFn, max_games: int = 20) -> tuple[Rules, list[Game]]:
    rules = draw(st.one_of(tariff_rules(), tariff_rules(bock=BockMode.RAMSCH_OR_LOST_SOLO)))
    if draw(st.integers(0, 4)) == 0:
        rules = ProHofRules()
    return rules, draw(st.lists(games(rules), max_size=max_games))
