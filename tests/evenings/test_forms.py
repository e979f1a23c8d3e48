"""The entry form: one form's fields are its own, though forms share their choice lists."""

from clubs.models import Player, Tariff
from evenings.forms import SPIELE, GameForm

TABLE = [Player(pk=pk, name=name) for pk, name in enumerate(["Sepp", "Vroni", "Hias", "Resi"], 1)]
OTHERS = [Player(pk=pk, name=name) for pk, name in enumerate(["Wastl", "Burgi"], 11)]


def test_a_tournament_form_and_another_table_change_nothing_of_the_next_form():
    money = Tariff(laufende_min=3, laufende_min_wenz=2, jungfrau=True)
    prohof = GameForm(tariff=Tariff(system=Tariff.System.PROHOF), playing=TABLE)
    other_table = GameForm(tariff=Tariff(laufende_min=4, jungfrau=False), playing=OTHERS)
    other_table.fields["declarer"].widget.attrs["class"] = "changed"
    other_table.fields["spiel"].error_messages["required"] = "changed"

    form = GameForm(tariff=money, playing=TABLE)

    assert "kontra" not in prohof.fields and prohof.fields["spiel"].initial == "rufspiel"
    assert form.fields["spiel"].choices == SPIELE and form.fields["spiel"].initial == "sauspiel"
    assert form.fields["declarer"].label == "Spieler"
    assert form.fields["declarer"].choices == [(1, "Sepp"), (2, "Vroni"), (3, "Hias"), (4, "Resi")]
    assert form.fields["laufende"].choices[:2] == [(0, "keine"), (3, "3")]
    assert form.fields["laufende"].initial == 0
    assert {"kontra", "jungfrauen"} <= form.fields.keys()
    assert "class" not in form.fields["declarer"].widget.attrs
    assert form.fields["spiel"].error_messages["required"] != "changed"
    assert GameForm.base_fields["declarer"].choices == []
    # The chips draw the form's own choices.
    assert 'value="4"' in str(form["declarer"]) and 'value="11"' not in str(form["declarer"])
