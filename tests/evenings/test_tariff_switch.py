"""An open evening takes the Runde's newer tariff from its first game: a wrong amount
noticed after a few games is put right without striking and booking every game again
(walk 29). The ledger keeps what was booked and reverses it; the history says what
changed."""

import io
import re
import uuid

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from clubs.models import Player
from evenings import services
from evenings.models import Change, Evening, LedgerEntry
from tests.conftest import page_text

HTMX = {"HX-Request": "true"}


def sauspiel(evening, *, ramsch=False):
    playing = services.next_deal(evening).playing
    if ramsch:
        return services.GameInput("ramsch", won=False, loser=playing[0].pk)
    return services.GameInput("sauspiel", declarer=playing[0].pk, partner=playing[2].pk)


def book(evening, by, times=1, **kind):
    for _ in range(times):
        services.book_game(evening.pk, uuid.uuid4(), sauspiel(evening, **kind), by)


def text_of(response) -> str:
    """The page as read: without tags, its spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", page_text(response)).split())


def verified() -> str:
    out = io.StringIO()
    call_command("verify_ledger", stdout=out)
    return out.getvalue()


@pytest.fixture
def typo(runde, evening, admin, set_tariff):
    """Three Sauspiele booked at 2,00 € (meant: 0,20 €), then the tariff put right."""
    wrong = set_tariff(runde, sauspiel=200)
    Evening.objects.filter(pk=evening.pk).update(tariff=wrong)
    evening.refresh_from_db()
    book(evening, admin, times=3)
    return set_tariff(runde, sauspiel=20)


def test_the_evening_is_scored_anew_as_if_it_had_begun_with_the_new_tariff(
    admin, runde, evening, players, typo, set_tariff
):
    was = services.standing(evening)
    entries = LedgerEntry.objects.filter(evening=evening).count()

    done = services.apply_tariff(evening.pk, typo.pk, admin)

    assert done.changed
    evening.refresh_from_db()
    assert evening.tariff == typo
    # A tenth of what it was: every game now at 0,20 € a head.
    assert services.standing(evening) == {pid: cents // 10 for pid, cents in was.items()}
    # Nothing overwritten: the old entries stay, reversed, under the one change.
    change = Change.objects.get(evening=evening, kind=Change.Kind.TARIFF)
    assert LedgerEntry.objects.filter(evening=evening).count() == entries * 3
    assert LedgerEntry.objects.filter(change=change).count() == entries * 2
    assert change.before["tariff"] != change.after["tariff"] == typo.pk
    assert change.after["changed"] == [["Sauspiel", "2,00 €", "0,20 €"]]
    assert "ledger ok" in verified()
    # Sent again (a double tap): nothing more.
    again = services.apply_tariff(evening.pk, typo.pk, admin)
    assert not again.changed
    assert Change.objects.filter(kind=Change.Kind.TARIFF).count() == 1


def test_a_new_bock_rule_moves_the_bock_games_and_the_history_says_which_were_bock(
    client, admin, runde, evening, players, set_tariff
):
    book(evening, admin, ramsch=True)
    book(evening, admin)
    assert not evening.games.get(number=2).bock
    bock = set_tariff(runde, bock="ramsch")

    services.apply_tariff(evening.pk, bock.pk, admin)

    assert evening.games.get(number=2).bock
    assert "ledger ok" in verified()
    client.force_login(admin)
    history = text_of(client.get(reverse("evenings:history", args=[evening.pk])))
    assert "Neuer Tarif für den Abend" in history
    assert "Bockrunde: ohne Bock → nach jedem Ramsch; alle Spiele neu gewertet" in history
    # Game 2 was booked as an ordinary game: its booking does not say Bock.
    booked = re.search(r"Spiel gebucht · Spiel 2 (.*?) \d\d\.\d\d\.\d{4}", history)[1]
    assert "Bock" not in booked


@pytest.mark.parametrize("why", ["paid", "closed", "settled", "stale"])
def test_refused_with_why_and_nothing_changes(admin, runde, evening, players, typo, why):
    if why == "paid":
        payer, payee = sorted(services.standing(evening).items(), key=lambda i: i[1])[::3]
        services.record_payment(evening.pk, payer[0], payee[0], 10, admin)
    if why in ("closed", "settled"):
        services.close_evening(evening.pk, admin)
    if why == "settled":  # in the Runde's Ausgleich: it cannot be opened again either
        services.start_ausgleich(runde, admin)
    shown = typo.pk - 1 if why == "stale" else typo.pk
    before = list(LedgerEntry.objects.values_list("pk", flat=True))

    with pytest.raises(services.EveningError) as refused:
        services.apply_tariff(evening.pk, shown, admin)

    said = {
        "paid": "erst die Zahlungen in der Abrechnung stornieren",
        "closed": "zum Umstellen erst wieder öffnen",
        "settled": "ausgeglichen, mit diesem Abend: er bleibt, wie er ist",
        "stale": "Inzwischen gilt ein anderer Tarif der Runde",
    }[why]
    assert said in str(refused.value)
    assert list(LedgerEntry.objects.values_list("pk", flat=True)) == before
    assert not Change.objects.filter(kind=Change.Kind.TARIFF).exists()


def test_the_admin_sees_what_changes_per_player_before_taking_it(
    client, admin, scorekeeper, club, runde, evening, players, typo
):
    url = reverse("evenings:tariff", args=[evening.pk])
    client.force_login(admin)

    shown = client.get(reverse("clubs:runde", args=[club.pk, runde.pk]))
    runde_page, raw = text_of(shown), shown.text
    page = client.get(url)
    text = text_of(page)
    taken = client.post(url, {"tarif": typo.pk}, follow=True)

    assert "spielt noch mit dem früheren Tarif. Neuen Tarif für diesen Abend übernehmen …" in (
        runde_page
    )
    # The link is described by its evening's sentence: two such links differ (walk 35).
    assert re.search(
        rf'<span id="older-tariff-{evening.pk}">Der laufende Abend vom [^<]+</span>[^<]*'
        rf'(<[^a][^>]*>)*<a href="{url}" aria-describedby="older-tariff-{evening.pk}">',
        raw,
    )
    assert "Sauspiel: 2,00 € → 0,20 €" in text
    assert "werden alle 3 Spiele des Abends neu gewertet" in text
    # Each player's standing now and with the new tariff: a tenth of it, none zero.
    for player in players[:4]:
        now, new = re.search(rf"{player.name} ([+-]\d+,\d\d) € ([+-]\d+,\d\d) €", text).groups()
        assert int(now.replace(",", "")) == 10 * int(new.replace(",", "")) != 0
    assert "Der Abend spielt jetzt mit dem Tarif vom" in text_of(taken)
    assert "3 Spiele neu gewertet" in text_of(taken)
    assert Evening.objects.get(pk=evening.pk).tariff == typo
    after = text_of(client.get(reverse("clubs:runde", args=[club.pk, runde.pk])))
    assert "früheren Tarif" not in after
    # A Schreiber may not: 404, as for anyone else.
    client.force_login(scorekeeper)
    assert client.get(url).status_code == 404
    runde_page = text_of(client.get(reverse("clubs:runde", args=[club.pk, runde.pk])))
    assert "übernehmen" not in runde_page


def test_the_tariff_editor_says_the_running_evening_plays_on_with_the_old_one(
    client, admin, club, runde, evening
):
    form = {"sauspiel": "0,30", "farbsolo": "0,50", "wenz": "0,50", "ramsch": "0,20"}
    form |= {"laufende": "0,10", "laufende_min": "3", "laufende_max": "8"}
    form |= {"laufende_min_wenz": "2", "schneider": "0,10", "schwarz": "0,10", "bock": "off"}
    form |= {"settle_unit": "1"}
    client.force_login(admin)

    saved = text_of(
        client.post(reverse("clubs:tariff", args=[club.pk, runde.pk]), form, follow=True)
    )

    assert "spielt mit dem bisherigen weiter, außer er wird mit „Neuen Tarif für diesen" in saved


def test_other_phones_load_the_evening_again_and_a_booking_in_the_race_takes_the_new_tariff(
    client, admin, scorekeeper, runde, evening, players, typo
):
    client.force_login(scorekeeper)
    shown = Evening.objects.get(pk=evening.pk).version
    # A booking read the evening (and its tariff) before the switch; it writes after it.
    before = Evening.objects.select_related("tariff").get(pk=evening.pk)
    services.seats_of(before)
    before.state = services.state_of(evening.pk, services.BOCK_GAMES)

    services.apply_tariff(evening.pk, typo.pk, admin)
    booking = services.book(evening.pk, uuid.uuid4(), sauspiel(evening), admin, evening=before)
    poll = client.get(
        reverse("evenings:sheet", args=[evening.pk]), {"v": shown, "deal": "x"}, headers=HTMX
    )

    won = LedgerEntry.objects.filter(game=booking.game, amount__gt=0)
    assert set(won.values_list("amount", flat=True)) == {20}
    assert poll["HX-Refresh"] == "true"
    page = text_of(client.get(reverse("evenings:detail", args=[evening.pk])))
    assert "Der Abend spielt jetzt mit dem neuen Tarif der Runde" in page
    assert "ledger ok" in verified()


def entry_form(evening, **fields) -> dict:
    """The entry form as the screen sends it, with the tariff its amounts were of (`t`)."""
    playing = services.next_deal(evening).playing
    return {
        "key": str(uuid.uuid4()),
        "deal": services.next_deal(evening).token,
        "spiel": "sauspiel",
        "declarer": playing[0].pk,
        "partner": playing[2].pk,
        "won": "1",
        "kontra": "0",
        "doubled": "0",
        "laufende": "0",
    } | fields


def test_a_game_from_a_form_of_the_old_amounts_is_not_booked_at_the_new_ones(
    client, admin, scorekeeper, runde, evening, players, typo
):
    """Walk 30: the preview said +1,50 €, the booking said nothing and took +2,40 €."""
    client.force_login(scorekeeper)
    page = client.get(reverse("evenings:detail", args=[evening.pk])).text
    shown = re.search(r'name="t" value="(\d+)"', page)[1]
    assert int(shown) == evening.tariff_id != typo.pk
    form = entry_form(evening, t=shown)
    games = evening.games.count()

    services.apply_tariff(evening.pk, typo.pk, admin)
    answer = client.post(reverse("evenings:book", args=[evening.pk]), form, headers=HTMX)

    assert answer["HX-Refresh"] == "true"
    assert evening.games.count() == games
    again = text_of(client.get(reverse("evenings:detail", args=[evening.pk])))
    assert "Nichts gebucht: der Abend spielt inzwischen mit dem neuen Tarif der Runde" in again
    # The page again shows the new tariff's amounts, and its form books.
    form = entry_form(evening, t=str(typo.pk))
    client.post(reverse("evenings:book", args=[evening.pk]), form, headers=HTMX)
    assert evening.games.count() == games + 1


def test_a_booking_that_read_the_evening_before_the_switch_is_refused_if_it_showed_the_old(
    admin, evening, players, typo
):
    before = Evening.objects.select_related("tariff").get(pk=evening.pk)
    services.seats_of(before)
    before.state = services.state_of(evening.pk, services.BOCK_GAMES)
    old = before.tariff_id

    services.apply_tariff(evening.pk, typo.pk, admin)

    with pytest.raises(services.StaleTariff):
        services.book(
            evening.pk, uuid.uuid4(), sauspiel(evening), admin, evening=before, tariff_id=old
        )
    assert evening.games.count() == 3


def test_a_payment_from_a_page_of_the_old_amounts_is_refused(
    client, admin, scorekeeper, evening, players, typo
):
    """Walk 30: "bezahlt" on a page opened before the switch booked the old proposal."""
    seen = Evening.objects.get(pk=evening.pk).version
    [first, *_] = services.settlement(evening).transfers
    services.apply_tariff(evening.pk, typo.pk, admin)
    client.force_login(scorekeeper)

    answer = client.post(
        reverse("evenings:payment", args=[evening.pk]),
        {"payer": first.payer, "payee": first.payee, "amount": first.amount, "seen": seen,
         "key": uuid.uuid4()},
        follow=True,
    )  # fmt: skip

    assert "Nichts eingetragen: der Abend wurde inzwischen mit dem neuen Tarif" in text_of(answer)
    assert not LedgerEntry.objects.filter(evening=evening, kind="payment").exists()


def test_the_rules_of_a_switched_evening_name_the_tariff_it_plays(
    client, admin, club, runde, evening, players, typo, set_tariff
):
    services.apply_tariff(evening.pk, typo.pk, admin)
    set_tariff(runde, sauspiel=30)  # newer again, for the next evening
    client.force_login(admin)

    rules = text_of(
        client.get(reverse("clubs:rules", args=[club.pk, runde.pk]), {"abend": evening.pk})
    )

    plays = timezone.localtime(typo.valid_from).strftime("%d.%m.%Y, %H:%M")
    assert f"mit dem Tarif vom {plays} Uhr, mit dem dieser Abend spielt" in rules
    assert "begonnen" not in rules


def test_a_correction_or_strike_from_a_panel_of_the_old_amounts_is_refused(
    client, admin, scorekeeper, evening, players, typo
):
    """Walk 31: a correction panel opened before the switch saved at the new amounts,
    its preview having shown the old."""
    game = evening.games.get(number=1)
    shown = Evening.objects.get(pk=evening.pk).version
    fingerprint = services.GameInput.of(game).fingerprint()
    services.apply_tariff(evening.pk, typo.pk, admin)
    client.force_login(scorekeeper)
    hias = players[2]
    correction = {f"k-{name}": value for name, value in entry_form(evening).items()}
    correction |= {"k-declarer": hias.pk, "k-seen": fingerprint, "v": shown}

    corrected = client.post(
        reverse("evenings:game", args=[evening.pk, game.pk]), correction, headers=HTMX
    )
    struck = client.post(
        reverse("evenings:void", args=[evening.pk, game.pk]),
        {"v": shown, "seen": fingerprint},
        follow=True,
    )

    assert "Nichts gespeichert: der Abend spielt inzwischen mit dem neuen Tarif" in text_of(
        corrected
    )
    assert "Nichts gestrichen: der Abend wurde inzwischen mit dem neuen Tarif" in text_of(struck)
    game.refresh_from_db()
    assert game.is_booked and services.GameInput.of(game).fingerprint() == fingerprint


def test_the_page_of_an_evening_with_payments_says_why_and_leads_to_the_abrechnung(
    client, admin, evening, players, typo
):
    payer, payee = sorted(services.standing(evening).items(), key=lambda i: i[1])[::3]
    services.record_payment(evening.pk, payer[0], payee[0], 10, admin)
    client.force_login(admin)

    page = client.get(reverse("evenings:tariff", args=[evening.pk])).text

    assert "erst die Zahlungen in der Abrechnung stornieren" in page
    assert (
        f'<a href="{reverse("evenings:settlement", args=[evening.pk])}">Zur Abrechnung</a>' in page
    )
    assert "Neuen Tarif übernehmen</button>" not in page


def test_a_tariff_that_cannot_score_some_games_names_them_and_what_to_do(
    client, admin, runde, evening, players, set_tariff
):
    """Walk 48: Jungfrau switched off for an evening with Jungfrau games was refused with
    the engine's word for one game ("Diese Runde spielt ohne Jungfrau.") and a link to the
    Abrechnung, which has nothing to do with it."""
    with_jungfrau = set_tariff(runde, jungfrau=True)
    Evening.objects.filter(pk=evening.pk).update(tariff=with_jungfrau)
    evening.refresh_from_db()
    book(evening, admin)
    for _ in range(2):
        playing = services.next_deal(evening).playing
        ramsch = services.GameInput(
            "ramsch", won=False, loser=playing[0].pk, jungfrauen=(playing[1].pk,)
        )
        services.book_game(evening.pk, uuid.uuid4(), ramsch, admin)
    without = set_tariff(runde, jungfrau=False)
    before = list(LedgerEntry.objects.values_list("pk", flat=True))
    client.force_login(admin)

    page = client.get(reverse("evenings:tariff", args=[evening.pk]))
    with pytest.raises(services.EveningError) as refused:
        services.apply_tariff(evening.pk, without.pk, admin)

    jungfrauen = [evening.games.get(number=n).jungfrauen[0] for n in (2, 3)]
    first, second = (Player.objects.get(pk=pk).name for pk in jungfrauen)
    said = (
        f"Die Spiele 2 (Jungfrau: {first}), 3 (Jungfrau: {second}) passen nicht zum neuen "
        "Tarif: er spielt ohne Jungfrau. Erst korrigieren (die Zeile im Blatt antippen), oder "
        "den Tarif der Runde so ändern, dass er sie nimmt; dann übernehmen."
    )
    assert said in text_of(page)
    assert "Zur Abrechnung" not in text_of(page)
    assert f'<a href="{reverse("clubs:tariff", args=[runde.club_id, runde.pk])}">Tarif der ' in (
        page.text
    )
    assert "Neuen Tarif übernehmen</button>" not in page.text
    assert str(refused.value) == said
    assert list(LedgerEntry.objects.values_list("pk", flat=True)) == before
    assert Evening.objects.get(pk=evening.pk).tariff == with_jungfrau


def test_a_lowered_laufende_threshold_says_the_games_below_the_old_one_stay_without(
    client, admin, runde, evening, players, typo, set_tariff
):
    """Walk 48: a game's Laufende below the old threshold were booked as "keine" (the
    entry form offers no fewer); the new tariff cannot count them by itself."""
    lower = set_tariff(runde, sauspiel=20, laufende_min=1, laufende_min_wenz=2)
    assert (typo.laufende_min, typo.laufende_min_wenz) == (3, 3)
    client.force_login(admin)

    text = text_of(client.get(reverse("evenings:tariff", args=[evening.pk])))

    assert (
        "Laufende zählen jetzt ab 1 statt ab 3. Spiele mit 1 bis 2 Laufenden sind mit „keine“ "
        "gebucht (sie zählten bisher nicht) und bleiben so: nach dem Übernehmen bitte prüfen "
        "und korrigieren." in text
    )
    assert "Beim Wenz zählen Laufende jetzt ab 2 statt ab 3. Spiele mit 2 Laufenden" in text
    assert "Neuen Tarif übernehmen" in text
    # Raised again: nothing to say.
    set_tariff(runde, laufende_min=lower.laufende_min + 3, laufende_min_wenz=3)
    assert "statt ab" not in text_of(client.get(reverse("evenings:tariff", args=[evening.pk])))


def test_the_history_says_which_way_a_new_bock_rule_moved_each_game(
    client, admin, runde, evening, set_tariff
):
    """Walk 91: "Dabei Bock anders als vorher: Spiele 2, 3" did not say whether they
    became Bock games or stopped being ones; said per change, as it was then."""
    book(evening, admin, ramsch=True)
    book(evening, admin, times=2)
    ramsch = set_tariff(runde, bock="ramsch", valid_from=timezone.now())
    services.apply_tariff(evening.pk, ramsch.pk, admin)
    off = set_tariff(runde, bock="off", valid_from=timezone.now())
    services.apply_tariff(evening.pk, off.pk, admin)
    client.force_login(admin)

    history = text_of(client.get(reverse("evenings:history", args=[evening.pk])))

    assert history.count("Dabei Spiele 2, 3 jetzt Bockspiele") == 1
    assert history.count("Dabei Spiele 2, 3 keine Bockspiele mehr") == 1
    assert "anders als vorher" not in history
    assert not evening.games.filter(bock=True).exists()


def test_a_switched_evening_says_so_on_its_sheet_rules_and_history(
    client, admin, club, runde, evening, players, set_tariff
):
    """Walk 48: after the one message, only the history told that the evening was scored
    anew with another tariff, and not which games the new Bock rule moved."""
    book(evening, admin, ramsch=True)
    book(evening, admin, times=2)
    client.force_login(admin)
    url = reverse("evenings:detail", args=[evening.pk])
    assert "umgestellt" not in text_of(client.get(url))
    # Saved as the tariff form saves it: valid from now, after the evening began.
    bock = set_tariff(runde, bock="ramsch", valid_from=timezone.now())

    services.apply_tariff(evening.pk, bock.pk, admin)

    when = timezone.localtime(bock.valid_from).strftime("%d.%m.%Y, %H:%M")
    assert (
        f"Nach Beginn auf den Tarif der Runde vom {when} Uhr umgestellt: alle Spiele damit "
        "neu gewertet. Was vorher galt, steht im Verlauf." in text_of(client.get(url))
    )
    rules_url = reverse("clubs:rules", args=[club.pk, runde.pk])
    rules = text_of(client.get(rules_url, {"abend": evening.pk}))
    switched = "Auf diesen Tarif wurde der Abend nach seinem Beginn umgestellt: alle seine "
    assert f"mit dem Tarif vom {when} Uhr. {switched}" in rules
    history = text_of(client.get(reverse("evenings:history", args=[evening.pk])))
    assert "alle Spiele neu gewertet Dabei Spiele 2, 3 jetzt Bockspiele" in history
    runde_page = text_of(client.get(reverse("clubs:runde", args=[club.pk, runde.pk])))
    assert "aktuell · 1 Abend (1 davon nach Beginn umgestellt)" in runde_page
    # The Runde's tariff changed once more (walk 49): the evening's rules still say it.
    set_tariff(runde, sauspiel=30, valid_from=timezone.now())
    rules = text_of(client.get(rules_url, {"abend": evening.pk}))
    assert f"mit dem Tarif vom {when} Uhr, mit dem dieser Abend spielt." in rules
    assert switched in rules


def test_an_evening_without_a_game_yet_is_not_said_to_score_0_games_anew_nor_2_all(
    client, admin, runde, evening, set_tariff
):
    """Walk 89: "alle 0 Spiele des Abends neu gewertet", "0 Spiele neu gewertet"; nor two
    "alle 2 Spiele"."""
    newer = set_tariff(runde, sauspiel=30)
    client.force_login(admin)
    url = reverse("evenings:tariff", args=[evening.pk])

    page = text_of(client.get(url))
    done = text_of(client.post(url, {"tarif": newer.pk}, follow=True))

    assert "Noch ist kein Spiel gebucht: mit dem neuen Tarif zählen alle Spiele des Abends." in (
        page
    )
    assert " 0 Spiele" not in page and " 0 Spiele" not in done
    when = timezone.localtime(newer.valid_from).strftime("%d.%m.%Y, %H:%M")
    assert f"Der Abend spielt jetzt mit dem Tarif vom {when} Uhr." in done
    evening.refresh_from_db()
    assert evening.tariff == newer
    # Two games are "beide", not "alle 2" (walk 91).
    book(evening, admin, times=2)
    set_tariff(runde, sauspiel=40)
    assert "werden beide Spiele des Abends neu gewertet" in text_of(client.get(url))
