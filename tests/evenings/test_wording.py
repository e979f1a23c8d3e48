"""How a game reads on the sheet and in the history (evenings.wording): everything that
counted is named, so that a reader can check the points by hand."""

import pytest

from evenings import wording
from evenings.services import GameInput

NAMES = {1: "Sepp", 2: "Vroni", 3: "Hias", 4: "Resi"}


@pytest.mark.parametrize(
    ("data", "read"),
    [
        # ProHof: a Solo names its suit, as a Farbsolo does.
        (GameInput("solo", declarer=2, suit="herz"), "Herz-Solo Vroni · gewonnen"),
        (GameInput("farbsolo", declarer=2, suit="gras"), "Gras-Solo Vroni · gewonnen"),
        # "Schneider angesagt" counts 10 points: made, missed, or beaten by Schwarz.
        (
            GameInput("wenz", declarer=3, laufende=1, schneider=True, angesagt=True),
            "Wenz Hias · gewonnen · 1 Laufender · Schneider angesagt und erreicht",
        ),
        (
            GameInput("wenz", declarer=3, won=False, laufende=1, angesagt=True),
            "Wenz Hias · verloren · 1 Laufender · Schneider angesagt, nicht erreicht",
        ),
        (
            GameInput(
                "rufspiel", declarer=1, partner=4, schneider=True, schwarz=True, angesagt=True
            ),
            "Rufspiel Sepp mit Resi · gewonnen · Schwarz · Schneider angesagt",
        ),
        (
            GameInput(
                "solo",
                declarer=2,
                suit="eichel",
                laufende=1,
                schneider=True,
                angesagt=True,
                won=False,
            ),
            "Eichel-Solo Vroni · verloren · 1 Laufender · Schneider · "
            "Schneider angesagt, nicht erreicht",
        ),
        (
            GameInput("sauspiel", declarer=1, partner=4, schneider=True),
            "Sauspiel Sepp mit Resi · gewonnen · Schneider",
        ),
    ],
)
def test_a_game_reads_with_everything_that_counted(data, read):
    assert wording.line(data, NAMES) == read
