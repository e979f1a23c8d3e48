"""What a booking, a poll and the sheet cost must not grow with the evening: the same
queries at game 5 and at game 60, answers that carry what changed and not the sheet, and
rows from any game on that read exactly as the whole sheet's rows."""

import re
import uuid

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import Membership, Player
from evenings import access, reads, services, sheet
from evenings.models import Evening, Game, Seat
from tests.conftest import make_user

HTMX = {"HX-Request": "true"}


def play(evening, by, games: int) -> None:
    """A plain mix: Sauspiele and every fourth game a Ramsch (Bock on in these tests)."""
    for number in range(games):
        deal = services.next_deal(evening)
        p = [player.pk for player in deal.playing]
        data = (
            services.GameInput("ramsch", won=False, loser=p[number % 4])
            if number % 4 == 3
            else services.GameInput("sauspiel", declarer=p[0], partner=p[2])
        )
        services.book(evening.pk, uuid.uuid4(), data, by, deal.token)


def entry(evening) -> dict:
    deal = services.next_deal(evening)
    p = [player.pk for player in deal.playing]
    return {"key": str(uuid.uuid4()), "deal": deal.token, "spiel": "sauspiel", "won": "1",
            "kontra": "0", "doubled": "0", "laufende": "0", "declarer": p[0],
            "partner": p[2]}  # fmt: skip


def queries_of(action) -> int:
    with CaptureQueriesContext(connection) as queries:
        action()
    return len(queries)


@pytest.fixture
def bock_evening(runde, players, admin, tariff_with_bock):
    return services.start_evening(runde, players[:5], 0, admin)


def test_a_booking_costs_the_same_queries_at_game_5_and_at_game_200(
    client, scorekeeper, bock_evening
):
    client.force_login(scorekeeper)
    url = reverse("evenings:book", args=[bock_evening.pk])
    play(bock_evening, scorekeeper, 4)
    early = queries_of(lambda: client.post(url, entry(bock_evening), headers=HTMX))
    play(bock_evening, scorekeeper, 195)

    answer = None

    def book_game_201():
        nonlocal answer
        answer = client.post(url, entry(bock_evening), headers=HTMX)

    late = queries_of(book_game_201)

    assert "Gebucht: Spiel 201," in answer.text
    assert late == early
    # Not the sheet: the new row only, however long the evening.
    assert answer.text.count('<tbody id="game-') == 1
    assert len(answer.content) < 6 * 1024


def test_a_poll_after_a_booking_elsewhere_sends_only_the_new_row(
    client, scorekeeper, admin, bock_evening
):
    play(bock_evening, admin, 30)
    bock_evening.refresh_from_db()
    seen = bock_evening.version
    play(bock_evening, admin, 1)
    client.force_login(scorekeeper)

    answer = client.get(reverse("evenings:sheet", args=[bock_evening.pk]), {"v": seen})

    assert answer.status_code == 200
    rows = re.findall(r'<tbody id="game-(\d+)"', answer.text)
    assert rows == ["31"]
    assert '<table hx-swap-oob="beforebegin:#sheet-foot"><tbody id="game-31"' in answer.text
    assert 'id="sheet" ' not in answer.text
    bock_evening.refresh_from_db()
    assert f"?v={bock_evening.version}" in answer.text  # the next poll asks from here


def test_a_poll_after_a_correction_sends_the_rows_from_the_corrected_game_on(
    client, scorekeeper, admin, bock_evening
):
    play(bock_evening, admin, 12)
    bock_evening.refresh_from_db()
    seen = bock_evening.version
    ninth = Game.objects.get(evening=bock_evening, number=9)
    services.correct_game(bock_evening.pk, ninth.pk, services.GameInput(
        "ramsch", won=False, loser=ninth.seating[1]), admin)  # fmt: skip
    client.force_login(scorekeeper)

    answer = client.get(reverse("evenings:sheet", args=[bock_evening.pk]), {"v": seen})

    replaced = re.findall(r'<tbody id="game-(\d+)"[^>]*hx-swap-oob="true"', answer.text)
    assert replaced == [str(n) for n in range(9, 13)]
    assert "beforebegin" not in answer.text  # nothing new to add


def test_a_poll_from_an_unknown_version_gets_the_whole_sheet(client, scorekeeper, admin,
                                                             bock_evening):  # fmt: skip
    play(bock_evening, admin, 3)
    client.force_login(scorekeeper)

    answer = client.get(reverse("evenings:sheet", args=[bock_evening.pk]), {"v": "x"})

    assert '<section id="sheet" class="sheet" aria-label="Spielblatt" hx-swap-oob="true">' in (
        answer.text
    )
    assert len(re.findall(r'<tbody id="game-', answer.text)) == 3


def test_the_evening_page_costs_the_same_queries_with_5_and_with_200_games(
    client, scorekeeper, admin, bock_evening
):
    client.force_login(scorekeeper)
    url = reverse("evenings:detail", args=[bock_evening.pk])
    play(bock_evening, admin, 5)
    few = queries_of(lambda: client.get(url))
    play(bock_evening, admin, 195)
    many = queries_of(lambda: client.get(url))
    assert many == few


def test_the_runde_pages_cost_the_same_queries_at_10_and_at_1000_evenings(
    client, admin, runde, players
):
    client.force_login(admin)
    seated = players[:4]

    def evenings(count: int) -> None:
        made = Evening.objects.bulk_create(
            Evening(runde=runde, tariff=runde.tariff, started_by=admin, status="closed")
            for _ in range(count)
        )
        Seat.objects.bulk_create(
            Seat(evening=e, player=p, position=i) for e in made for i, p in enumerate(seated)
        )

    pages = [reverse("clubs:runde", args=[runde.club_id, runde.pk]),
             reverse("evenings:runde_balances", args=[runde.club_id, runde.pk])]  # fmt: skip
    evenings(10)
    few = [queries_of(lambda url=url: client.get(url)) for url in pages]
    evenings(990)
    assert Evening.objects.count() == 1000
    assert [queries_of(lambda url=url: client.get(url)) for url in pages] == few


class _Rollback(Exception):
    """Leaves the database as before after each example."""


@pytest.mark.django_db
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_rows_from_any_game_on_read_as_the_whole_sheet_reads_them(
    data, runde, players, admin, tariff_with_bock
):
    """The answers send rows built from a game on; they must be the rows of the sheet."""
    try:
        with transaction.atomic():
            _rows_from_any_game_on(data, runde, players, admin)
            raise _Rollback
    except _Rollback:
        pass


def _rows_from_any_game_on(data, runde, players, admin) -> None:
    seated = players[: data.draw(st.sampled_from([4, 5, 6]), label="players")]
    evening = services.start_evening(runde, seated, 0, admin)
    play(evening, admin, data.draw(st.integers(1, 14), label="games"))
    games = list(evening.games.order_by("number"))
    for game in data.draw(st.lists(st.sampled_from(games), max_size=3, unique=True)):
        if data.draw(st.booleans(), label="strike, else correct into a Ramsch"):
            services.void_game(evening.pk, game.pk, admin)
        else:
            services.correct_game(evening.pk, game.pk, services.GameInput(
                "ramsch", won=False, loser=game.seating[0]), admin)  # fmt: skip
    evening.refresh_from_db()
    first = data.draw(st.integers(1, len(games)), label="first row")

    whole, part = sheet.build(evening), sheet.build(evening, first=first)

    assert part.rows == whole.rows[first - 1 :]
    assert (part.totals, part.bock_remaining) == (whole.totals, whole.bock_remaining)
    html = sheet.rows_html(whole, True, whole.rows[first - 1 :])
    assert sheet.rows_html(part, True, part.rows) == html


# The hot path's statements are planned once per connection (evenings.reads.Prepared).


def test_a_prepared_statement_numbers_its_parameters_as_postgresql_does():
    positional = reads.Prepared("p_positional", "SELECT %s WHERE x LIKE 'a%%' AND y = %s")
    named = reads.Prepared("p_named", "SELECT %(a)s, %(b)s, %(a)s + 1")

    assert positional.prepare == "PREPARE p_positional AS SELECT $1 WHERE x LIKE 'a%' AND y = $2"
    assert positional.execute == "EXECUTE p_positional(%s, %s)"
    assert named.prepare == "PREPARE p_named AS SELECT $1, $2, $1 + 1"
    assert named.execute == "EXECUTE p_named(%(a)s, %(b)s)"


def prepared_here() -> dict[str, tuple[int, int]]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT name, generic_plans, custom_plans FROM pg_prepared_statements")
        return {name: (generic, custom) for name, generic, custom in cursor.fetchall()}


@pytest.mark.django_db(transaction=True)
def test_a_booking_plans_its_statements_once_per_connection(client, scorekeeper, bock_evening):
    client.force_login(scorekeeper)
    url = reverse("evenings:book", args=[bock_evening.pk])
    for _ in range(8):
        response = client.post(url, entry(bock_evening), headers=HTMX)
        assert "Gebucht: " in response.text

    hot = {"session_load", "evening_read", "evening_seats", "evening_state", "book_game"}
    plans = prepared_here()
    assert hot <= plans.keys()
    # Each ran as the prepared statement, every time (generic plus custom plans: its runs;
    # whether PostgreSQL keeps a generic plan after five is its choice, by the costs).
    assert all(sum(plans[name]) >= 8 for name in hot), plans

    # A new connection (the old one closed, as after CONN_MAX_AGE) prepares them again.
    connection.close()
    response = client.post(url, entry(bock_evening), headers=HTMX)
    assert "Gebucht: Spiel 9, " in response.text
    assert hot <= prepared_here().keys()
    assert Game.objects.filter(evening=bock_evening).count() == 9


def test_a_prepared_statement_outlives_a_rolled_back_transaction(client, scorekeeper, evening):
    client.force_login(scorekeeper)
    url = reverse("evenings:detail", args=[evening.pk])
    with transaction.atomic():
        assert client.get(url).status_code == 200
        transaction.set_rollback(True)

    assert client.get(url).status_code == 200
    assert "evening_read" in prepared_here()


@pytest.mark.parametrize("evening_id", [2**63, 10**40])
def test_an_evening_number_beyond_bigint_is_not_found(client, scorekeeper, evening_id):
    client.force_login(scorekeeper)

    assert client.get(f"/abend/{evening_id}/").status_code == 404
    assert client.get(f"/abend/{evening_id}/blatt/?v=1").status_code == 404
    assert client.get(f"/abend/1/blatt/?v={2**63}").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_connection_lost_between_requests_is_replaced_and_prepares_again(evening):
    statement = access._evening_sql()
    reads.read_together((statement.sql(), [None, evening.pk]))
    connection.connection.close()  # as a restart of PostgreSQL leaves a kept connection
    connection.health_check_enabled, connection.health_check_done = True, False

    [rows] = reads.read_together((statement.sql(), [None, evening.pk]))

    assert rows[0][0] == evening.pk
    assert "evening_read" in prepared_here()


def _screen(client, evening) -> str:
    """The sheet and the standing of the evening screen, as a person's phone gets them,
    and the printed sheet."""
    page = client.get(reverse("evenings:detail", args=[evening.pk])).text
    printed = client.get(reverse("evenings:print", args=[evening.pk])).text
    return "".join(
        re.search(pattern, text, re.S)[0]
        for text, pattern in (
            (page, r'<section id="standing".*?</section>'),
            (page, r'<section id="sheet".*?</section>'),
            (printed, r'<table class="print-sheet.*?</table>'),
        )
    )


def test_the_kept_sheets_read_as_the_sheet_built_anew_after_every_kind_of_change(
    client, scorekeeper, admin, club, bock_evening
):
    member = make_user("vroni", "Vroni")
    Membership.objects.create(user=member, club=club, role=Membership.Role.PLAYER)
    keeper, looker = client, type(client)()
    keeper.force_login(scorekeeper)
    looker.force_login(member)
    ev = bock_evening.pk
    play(bock_evening, admin, 6)
    third = Game.objects.get(evening=bock_evening, number=3)
    ramsch = services.GameInput("ramsch", won=False, loser=third.seating[0])
    changes = [
        lambda: play(bock_evening, admin, 1),
        lambda: services.correct_game(ev, third.pk, ramsch, admin),
        lambda: services.void_game(ev, third.pk, admin),
        lambda: services.restore_game(ev, third.pk, admin),
        lambda: services.undo_last(ev, admin),
        lambda: Player.objects.filter(pk=third.seating[1]).update(name="Wastl der Zweite"),
        lambda: services.close_evening(ev, admin),
        lambda: services.reopen_evening(ev, admin),
    ]
    for change in [nothing := lambda: None, *changes]:
        kept_before = _screen(keeper, bock_evening)
        change()
        # The second visit at a version reads the kept sheet; the first built it.
        shown = {who: (_screen(who, bock_evening), _screen(who, bock_evening))
                 for who in (keeper, looker)}  # fmt: skip
        cache.clear()
        for who, (first, kept) in shown.items():
            assert first == kept == _screen(who, bock_evening)
        if change is not nothing:
            assert shown[keeper][0] != kept_before  # each change shows
    assert "Wastl der Zweite" in shown[keeper][0]
    # Who may correct gets the rows as links, who may not gets them as text.
    assert f'href="/abend/{ev}/spiel/' in shown[keeper][0]
    assert "/spiel/" not in shown[looker][0]


def test_a_second_visit_at_the_same_version_reads_no_games(client, scorekeeper, admin,
                                                             bock_evening):  # fmt: skip
    client.force_login(scorekeeper)
    url = reverse("evenings:detail", args=[bock_evening.pk])
    play(bock_evening, admin, 20)
    first = queries_of(lambda: client.get(url))
    with CaptureQueriesContext(connection) as again:
        client.get(url)
    assert len(again) < first
    assert not [q for q in again if 'FROM "evenings_ledgerentry"' in q["sql"]]


def test_the_kept_history_shows_every_change_at_once(client, scorekeeper, admin, bock_evening):
    client.force_login(scorekeeper)
    url = reverse("evenings:history", args=[bock_evening.pk])

    def shown() -> str:
        return re.search(r'<ol class="changes">.*?</ol>', client.get(url).text, re.S)[0]

    ev = bock_evening.pk
    play(bock_evening, admin, 3)
    first = Game.objects.get(evening=bock_evening, number=1)
    balances = services.balances(bock_evening)
    payer, payee = min(balances, key=balances.get), max(balances, key=balances.get)
    for change, shows in [
        (lambda: services.record_payment(ev, payer, payee, 10, admin), " zahlt "),
        (lambda: play(bock_evening, admin, 1), "Spiel 4"),
        (lambda: services.renew_share_link(ev, admin), "Zuschauer-Link"),
        (lambda: services.void_game(ev, first.pk, admin), "Spiel gestrichen"),
        (lambda: Player.objects.filter(pk=payer).update(name="Seppi"), "Seppi zahlt"),
    ]:
        before = shown()
        assert shown() == before  # kept
        assert shows not in before
        change()
        after = shown()
        assert shows in after
        cache.clear()
        assert shown() == after


def test_a_sheet_read_while_another_phone_books_shows_the_evening_as_it_was_read(
    client, scorekeeper, admin, bock_evening
):
    client.force_login(scorekeeper)
    membership = Membership.objects.get(user=scorekeeper)
    play(bock_evening, admin, 5)
    read = Evening.objects.select_related("tariff").get(pk=bock_evening.pk)  # a page's read
    standing = services.standing(read)
    play(bock_evening, admin, 1)  # another phone's booking, between the read and the sheet

    whole = sheet.whole(read, membership)
    part = sheet.build(read, first=4)

    assert re.findall(r'<tbody id="game-(\d+)"', whole["rows_html"]) == ["1", "2", "3", "4", "5"]
    assert whole["sheet"].totals == part.totals == list(standing.values())
    assert [row.game.number for row in part.rows] == [4, 5]
    # The phone shown that sheet at the version read gets the sixth game once, next poll.
    answer = client.get(reverse("evenings:sheet", args=[read.pk]), {"v": read.version})
    assert re.findall(r'<tbody id="game-(\d+)"', answer.text) == ["6"]
    assert "beforebegin:#sheet-foot" in answer.text
