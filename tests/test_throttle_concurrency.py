"""The throttles' limits are exact under a burst of parallel requests.

Each thread is a browser of its own (a test client, its own database connection), all
released at once; real commits are needed (`transaction=True`) for the requests to meet
each other in PostgreSQL.
"""

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from clubs import throttle
from clubs.models import LoginFailure, ResetRequest
from tests.evenings.test_concurrency import errors, run_at_once

pytestmark = pytest.mark.django_db(transaction=True)

WRONG = "Benutzername oder Passwort stimmt nicht."
THROTTLED = "Zu viele fehlgeschlagene Anmeldeversuche."
RESET_THROTTLED = "Es wurden gerade zu viele neue Passwörter angefordert."


def burst(count: int, post) -> list[str]:
    answers, raised = run_at_once(count, post)
    assert errors(raised) == []
    assert {answer.status_code for answer in answers} <= {200, 302}
    return [answer.content.decode() for answer in answers]


def test_a_burst_of_guesses_at_one_account_gets_exactly_five_tries(user):
    # Every guess from another address: only the account's limit applies.
    def guess(i: int):
        return Client().post(
            reverse("login"),
            {"username": "sepp", "password": f"falsch{i}"},
            REMOTE_ADDR=f"203.0.113.{i + 1}",
        )

    pages = burst(12, guess)

    assert sum(WRONG in page for page in pages) == throttle.FAILURES_PER_ACCOUNT
    assert sum(THROTTLED in page for page in pages) == 12 - throttle.FAILURES_PER_ACCOUNT
    assert LoginFailure.objects.filter(username="sepp").count() == throttle.FAILURES_PER_ACCOUNT


def test_a_burst_of_guesses_from_one_address_gets_exactly_twenty_tries(db):
    def guess(i: int):
        return Client().post(
            reverse("login"),
            {"username": f"rater{i}", "password": "falsch"},
            REMOTE_ADDR="203.0.113.7",
        )

    pages = burst(26, guess)

    assert sum(WRONG in page for page in pages) == throttle.FAILURES_PER_ADDRESS
    assert sum(THROTTLED in page for page in pages) == 26 - throttle.FAILURES_PER_ADDRESS
    assert LoginFailure.objects.count() == throttle.FAILURES_PER_ADDRESS


def test_a_burst_of_resets_for_one_email_sends_exactly_the_allowed_mails(user):
    def ask(i: int):
        return Client().post(
            reverse("password_reset"),
            {"email": "sepp@example.org"},
            REMOTE_ADDR=f"203.0.113.{i + 1}",
        )

    pages = burst(8, ask)

    assert sum(RESET_THROTTLED in page for page in pages) == 8 - throttle.RESETS_PER_EMAIL
    assert len(mail.outbox) == throttle.RESETS_PER_EMAIL
    assert ResetRequest.objects.count() == throttle.RESETS_PER_EMAIL
