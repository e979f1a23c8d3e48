"""The Ausgleich der Runde on a phone: the treasurer settles the whole Runde at once.

Two closed evenings of the same four (the scenario of tests/evenings/test_ausgleich.py).
At the first, Vroni and Resi win a Sauspiel with 3 Laufende (Vroni, Resi +0,40 €; Sepp,
Hias -0,40 €); at the second, Sepp and Vroni do (Sepp, Vroni +0,40 €; Hias, Resi -0,40 €).
Over the Runde Hias pays Vroni 0,80 €, which neither evening's Abrechnung can take.
"""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from clubs.models import Membership
from clubs.players import runde_balances
from evenings import services
from evenings.models import Evening
from tests.browser.axe import assert_accessible
from tests.browser.evening_screen import (
    MIN_TAP_HEIGHT,
    book,
    no_horizontal_scroll,
    start,
    verify_ledger,
)
from tests.browser.test_settlement import balances, paid, payment_entries, transfer
from tests.conftest import make_user

FOUR = ["Sepp", "Vroni", "Hias", "Resi"]


@pytest.fixture
def two_evenings(runde, players, schreiber) -> list[Evening]:
    """The scenario's two evenings, closed: over the Runde, Hias owes Vroni 0,80 €."""
    evenings = []
    for declarer, partner in [("Vroni", "Resi"), ("Sepp", "Vroni")]:
        evening = start(runde, players, FOUR, schreiber)
        book(
            evening,
            schreiber,
            type="sauspiel",
            declarer=players[declarer].pk,
            partner=players[partner].pk,
            laufende=3,
        )
        evenings.append(services.close_evening(evening.pk, schreiber))
    return evenings


def konten_url(club, runde) -> str:
    return f"/verein/{club.pk}/runde/{runde.pk}/konten/"


def named_balances(page) -> dict[str, str]:
    """The balances of a page's "dl.balances" by name, whatever their order."""
    names = page.locator("dl.balances dt").all_inner_texts()
    return dict(zip(names, balances(page).all_inner_texts(), strict=True))


def runde_transfers(page):
    """The lines of "Wer zahlt wem" on "Konten der Runde"."""
    return page.locator("ul.transfers li.transfer")


def test_the_treasurer_settles_the_runde_in_its_ausgleich(
    page, log_in, club, runde, players, schreiber, two_evenings
):
    first, second = two_evenings
    # 1. Vroni's Übersicht, as the Schreiber finds it under "Spieler": the Runde's
    #    transfer, which points to where it is entered.
    log_in(schreiber).goto(f"/verein/{club.pk}/spieler/")
    page.get_by_role("link", name="Vroni", exact=True).tap()
    expect(page.get_by_role("heading", name="Übersicht: Vroni")).to_be_visible()
    account = page.locator("section.account").filter(has_text="Donnerstagsrunde")
    expect(account.locator(".transfers li")).to_have_text(["Hias zahlt Vroni 0,80 €"])
    account.get_by_role("link", name="Konten der Runde").tap()

    # 2. "Konten der Runde": everyone's balance and who pays whom.
    expect(page).to_have_url(re.compile(rf"{konten_url(club, runde)}$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Konten der Runde „Donnerstagsrunde“")
    expect(page.locator("dl.balances dt")).to_have_text(["Vroni", "Resi", "Sepp", "Hias"])
    expect(page.locator("dl.balances dd")).to_have_text(["+0,80 €", "0,00 €", "0,00 €", "-0,80 €"])
    expect(page.get_by_role("heading", name="Wer zahlt wem")).to_be_visible()
    expect(runde_transfers(page)).to_have_text(["Hias zahlt Vroni 0,80 €"])

    # Two taps: the first only unfolds what the Ausgleich does and the button.
    confirm = page.get_by_role("button", name="Ja, zum Ausgleich")
    expect(confirm).to_be_hidden()
    summary = page.locator("details.confirm summary")
    expect(summary).to_have_text("Ausgleich der Runde eintragen …")
    # In the links' green, not in the red of "Verein löschen …" (walk 84).
    expect(summary).to_have_css("color", "rgb(11, 94, 60)")
    assert summary.bounding_box()["height"] >= MIN_TAP_HEIGHT
    summary.tap()
    expect(confirm).to_be_visible()
    # What it does is read with it (walk 88: Tab went from the summary past the word).
    expect(confirm).to_have_accessible_description(re.compile("^Im Ausgleich trägst du dann"))
    assert confirm.bounding_box()["height"] >= MIN_TAP_HEIGHT
    no_horizontal_scroll(page)
    assert_accessible(page, "Konten der Runde with the Ausgleich unfolded")
    assert not Evening.objects.filter(settles_runde=True).exists()
    confirm.tap()

    # 3. The Ausgleich's Abrechnung: the Runde's balances and its one transfer.
    expect(page).to_have_url(re.compile(r"/abend/\d+/abrechnung/$"))
    ausgleich = Evening.objects.get(settles_runde=True)
    assert page.url.endswith(f"/abend/{ausgleich.pk}/abrechnung/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Ausgleich der Runde")
    expect(page).to_have_title(re.compile(r"^Ausgleich der Runde · "))
    expect(page.locator("main p.muted").first).to_contain_text(
        "Donnerstagsrunde · Ausgleich der Runde"
    )
    expect(page.get_by_role("heading", level=2).first).to_have_text(
        "Kontostand in der Runde (mit Zahlungen)"
    )
    expect(page.get_by_text("Der Abend ist abgeschlossen")).to_have_count(0)
    expect(page.get_by_role("link", name="← Konten der Runde")).to_be_visible()
    expect(page.locator("li.transfer > span")).to_have_text(["Hias zahlt Vroni 0,80 €"])
    assert named_balances(page) == {
        "Hias": "-0,80 €",
        "Resi": "0,00 €",
        "Sepp": "0,00 €",
        "Vroni": "+0,80 €",
    }
    paid_button = transfer(page, "Hias zahlt Vroni").get_by_role("button", name="bezahlt")
    expect(paid_button).to_have_accessible_description("Hias zahlt Vroni 0,80 €")
    no_horizontal_scroll(page)
    assert_accessible(page, "the Ausgleich's Abrechnung")

    # 4. "bezahlt": paid, and nobody owes anybody in the Runde any more.
    paid_button.tap()
    expect(page.get_by_text("Zahlung eingetragen:")).to_be_visible()
    expect(page.get_by_role("heading", name="Bezahlt")).to_be_visible()
    expect(paid(page)).to_have_text(["Hias hat Vroni 0,80 € gezahlt"])
    expect(page.get_by_text("Niemand muss etwas zahlen.")).to_be_visible()
    expect(page.locator("li.transfer")).to_have_count(0)
    expect(balances(page)).to_have_text(["0,00 €"] * 4)
    no_horizontal_scroll(page)
    assert_accessible(page, "the Ausgleich's Abrechnung, paid")
    # The treasurer's sheet on paper (walk 20: an Ausgleich had no printout): the club,
    # the balances, what was paid, when and by whom; no buttons or forms.
    page.evaluate("window.print = () => { window.printed = true; }")
    page.get_by_role("button", name="Drucken").tap()
    assert page.evaluate("window.printed") is True
    page.emulate_media(media="print")
    expect(page.locator("main p.muted").first).to_contain_text("Schafkopffreunde Au")
    expect(page.locator("li.payment small")).to_contain_text("eingetragen")
    for control in page.locator("main :is(form, button, details, p.links)").all():
        expect(control).to_be_hidden()
    page.emulate_media(media="screen")

    assert {row.name: row.total for row in runde_balances(runde, None)} == dict.fromkeys(FOUR, 0)
    assert Evening.objects.filter(settles_runde=True).count() == 1
    assert payment_entries(ausgleich) == [("Hias", 80), ("Vroni", -80)]
    assert payment_entries(first) == payment_entries(second) == []
    assert "ledger ok" in verify_ledger()
    # Back on "Konten der Runde": nothing left to settle.
    page.get_by_role("link", name="← Konten der Runde").tap()
    expect(page.locator("dl.balances dd")).to_have_text(["0,00 €"] * 4)
    expect(runde_transfers(page)).to_have_count(0)
    expect(page.get_by_text("Niemand muss etwas zahlen.")).to_be_visible()

    # 5. An earlier evening's Abrechnung says where its open amounts went, and takes no
    #    payment any more.
    page.goto(f"/abend/{first.pk}/abrechnung/")
    day = timezone.localtime(ausgleich.started_at).strftime("%d.%m.%Y")
    expect(page.locator("p.note").filter(has_text="ausgeglichen")).to_contain_text(
        f"Die Runde wurde am {day} ausgeglichen: was an diesem Abend offen war, ging in den "
        "Ausgleich der Runde ein. Dort steht, was bezahlt ist und was noch offen ist."
    )
    # Its balances are the evening's as it was, not what is owed now.
    expect(
        page.get_by_role("heading", name="Stand des Abends vor dem Ausgleich der Runde")
    ).to_be_visible()
    expect(page.get_by_role("button", name="bezahlt")).to_have_count(0)
    expect(page.locator("li.transfer")).to_have_count(0)
    expect(page.get_by_text("Niemand muss etwas zahlen.")).to_have_count(0)
    # Nor does it say that payments are still taken here, as a closed evening's does.
    expect(page.get_by_text("Zahlungen weiter eintragen")).to_have_count(0)
    page.get_by_role("link", name="Zum Ausgleich").tap()
    expect(page).to_have_url(re.compile(rf"/abend/{ausgleich.pk}/abrechnung/$"))
    expect(paid(page)).to_have_text(["Hias hat Vroni 0,80 € gezahlt"])


def test_a_spieler_sees_the_runde_s_transfer_but_cannot_start_the_ausgleich(
    page, log_in, club, runde, two_evenings
):
    vroni = make_user("vroni", "Vroni")
    Membership.objects.create(user=vroni, club=club, role=Membership.Role.PLAYER)
    log_in(vroni).goto(konten_url(club, runde))

    expect(runde_transfers(page)).to_have_text(["Hias zahlt Vroni 0,80 €"])
    expect(page.get_by_text("Ausgleich der Runde eintragen")).to_have_count(0)
    expect(page.get_by_role("button", name="Ja, zum Ausgleich")).to_have_count(0)
    no_horizontal_scroll(page)
    assert not Evening.objects.filter(settles_runde=True).exists()
