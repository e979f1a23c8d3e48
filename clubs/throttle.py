"""Login throttling per account and per address.

Every failed login is a `LoginFailure` row. While an account name has too many recent
failures, or the address has, the login form refuses before it checks the password, so
guessing stays slow even with the right password in the list. Attempts refused this way
are not recorded: they checked nothing, and recording them would keep an account locked
for as long as someone keeps knocking.

Usernames are compared lowercased, so "Sepp" and "sepp" share one budget. The per-account
limit applies to names without an account too, so the answer does not tell which exist.
"""

import ipaddress
from datetime import timedelta

from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone

from clubs.models import LoginFailure

FAILURES_PER_ACCOUNT = 5
FAILURES_PER_ADDRESS = 20
WINDOW_MINUTES = 15
WINDOW = timedelta(minutes=WINDOW_MINUTES)


def client_address(request: HttpRequest | None) -> str | None:
    """The address the request came from, or None if there is no usable one.

    Without a reverse proxy that is REMOTE_ADDR. Behind TRUSTED_PROXIES proxies (nginx in
    compose.yaml), REMOTE_ADDR is the last proxy, and the client is the entry that the
    first of our proxies appended to X-Forwarded-For: counted from the right, because
    everything to its left was written by the client and would let anyone pick a fresh
    address per attempt.
    """
    if request is None:
        return None
    address = request.META.get("REMOTE_ADDR", "")
    proxies = settings.TRUSTED_PROXIES
    if proxies:
        forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        forwarded = [a for a in forwarded if a]
        address = forwarded[-proxies] if len(forwarded) >= proxies else ""
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:  # empty, or a unix socket path
        return None


def _account(username: str) -> str:
    # Lowercasing can lengthen a name ("İ" becomes two characters); the column cannot.
    return username.lower()[: LoginFailure._meta.get_field("username").max_length]


def is_throttled(username: str, address: str | None) -> bool:
    recent = LoginFailure.objects.filter(at__gt=timezone.now() - WINDOW)
    if recent.filter(username=_account(username)).count() >= FAILURES_PER_ACCOUNT:
        return True
    return address is not None and recent.filter(address=address).count() >= FAILURES_PER_ADDRESS


def record_failure(username: str, address: str | None) -> None:
    # Failures older than the window count for nothing any more: drop them as we go.
    LoginFailure.objects.filter(at__lte=timezone.now() - WINDOW).delete()
    LoginFailure.objects.create(username=_account(username), address=address)


def clear_failures(username: str) -> None:
    """Forget the account's failures after it proved who it is (a login, a reset link).

    The address's failures stay: they may belong to guesses at other accounts.
    """
    LoginFailure.objects.filter(username=_account(username)).delete()
