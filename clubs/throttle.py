"""Throttling of logins and password resets, per account and per client address.

Every failed login is a `LoginFailure` row. While an account name has too many recent
failures, or the address has, the login form refuses before it checks the password, so
guessing stays slow even with the right password in the list. Attempts refused this way
are not recorded: they checked nothing, and recording them would keep an account locked
for as long as someone keeps knocking.

Usernames are compared lowercased, so "Sepp" and "sepp" share one budget. The per-account
limit applies to names without an account too, so the answer does not tell which exist.

A browser that has logged in to an account before carries a signed cookie naming it (a
"known device"). Its attempts at that account have a budget of their own, apart from
everyone else's: whoever knows a user's name can use up the budget of strangers' browsers
and lock those out, not the user's own phone.

Every password reset asked for is a `ResetRequest` row, whether or not an account has the
email address (again so the answer tells nothing): a few per email address and hour, so
nobody fills a stranger's mailbox, and a few more per client address, so nobody walks
through a list of addresses.

The limits are exact under a burst of parallel requests: the check and the recording of
one attempt happen under PostgreSQL advisory locks, per name and per address, held until
the attempt's transaction ends; parallel attempts on the same name or from the same
address take turns.
"""

import ipaddress
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from clubs.models import LoginFailure, ResetRequest

FAILURES_PER_ACCOUNT = 5
FAILURES_PER_ADDRESS = 20
WINDOW_MINUTES = 15
WINDOW = timedelta(minutes=WINDOW_MINUTES)

# The known device's cookie: the accounts logged in from this browser, newest first.
DEVICE_COOKIE = "known_device"
DEVICE_SALT = "clubs.throttle.known_device"
DEVICE_MAX_AGE = 365 * 24 * 3600
DEVICE_ACCOUNTS = 5

RESETS_PER_EMAIL = 3
RESETS_PER_ADDRESS = 10
RESET_WINDOW_MINUTES = 60
RESET_WINDOW = timedelta(minutes=RESET_WINDOW_MINUTES)

# The first key of pg_advisory_xact_lock(int, int): what the second one, a hash, is of.
# Always taken in this order, name before address, so two attempts never wait on each other
# in a circle.
LOCK_LOGIN_NAME = 1
LOCK_LOGIN_ADDRESS = 2
LOCK_RESET_EMAIL = 3
LOCK_RESET_ADDRESS = 4


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


def _email(email: str) -> str:
    return email.lower()[: ResetRequest._meta.get_field("email").max_length]


def _take_turns(*keys: tuple[int, str | None]) -> None:
    """Wait until no other transaction holds the lock of any of `keys` (namespace, value),
    then hold them until this transaction ends. A value of None locks nothing."""
    with connection.cursor() as cursor:
        for namespace, value in keys:
            if value is not None:
                cursor.execute(
                    "SELECT pg_advisory_xact_lock(%s::integer, hashtext(%s::text))",
                    [namespace, value],
                )


@contextmanager
def login_attempt(username: str, address: str | None) -> Iterator[None]:
    """One login attempt at a time per account name and per address: inside, check
    `is_throttled`, check the password and record the outcome.

    Without the turns, each of a burst of parallel guesses would pass the check before
    any had recorded its failure, and 5 allowed failures would let 6 or more through.
    """
    with transaction.atomic():
        _take_turns((LOCK_LOGIN_NAME, _account(username)), (LOCK_LOGIN_ADDRESS, address))
        yield


def is_throttled(username: str, address: str | None, known_device: bool = False) -> bool:
    """Too many recent failures at the account from browsers like this one (known to the
    account, or not), or from the address."""
    recent = LoginFailure.objects.filter(at__gt=timezone.now() - WINDOW)
    account = recent.filter(username=_account(username), known_device=known_device)
    if account.count() >= FAILURES_PER_ACCOUNT:
        return True
    return address is not None and recent.filter(address=address).count() >= FAILURES_PER_ADDRESS


def record_failure(username: str, address: str | None, known_device: bool = False) -> None:
    # Failures older than the window count for nothing any more: drop them as we go.
    LoginFailure.objects.filter(at__lte=timezone.now() - WINDOW).delete()
    LoginFailure.objects.create(
        username=_account(username), address=address, known_device=known_device
    )


def _device_accounts(request: HttpRequest) -> list[str]:
    try:
        names = request.get_signed_cookie(
            DEVICE_COOKIE, default="", salt=DEVICE_SALT, max_age=DEVICE_MAX_AGE
        )
    except signing.BadSignature:  # a cookie altered, or signed with another key
        return []
    return names.split()  # usernames have no spaces (Django's username validator)


def is_known_device(request: HttpRequest | None, username: str) -> bool:
    """Whether this browser has logged in to the account `username` before."""
    return request is not None and _account(username) in _device_accounts(request)


def remember_device(request: HttpRequest, response: HttpResponse, username: str) -> None:
    """After a login: this browser is known to the account (and to the few before it)."""
    account = _account(username)
    names = [account] + [n for n in _device_accounts(request) if n != account]
    response.set_signed_cookie(
        DEVICE_COOKIE,
        " ".join(names[:DEVICE_ACCOUNTS]),
        salt=DEVICE_SALT,
        max_age=DEVICE_MAX_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def clear_failures(username: str) -> None:
    """Forget the account's failures after it proved who it is (a login, a reset link).

    The address's failures stay: they may belong to guesses at other accounts.
    """
    LoginFailure.objects.filter(username=_account(username)).delete()


def allow_reset(email: str, address: str | None) -> bool:
    """Record a password reset asked for `email` from `address`; False, recording nothing,
    while too many were asked for the email or from the address within the last hour."""
    email = _email(email)
    with transaction.atomic():
        _take_turns((LOCK_RESET_EMAIL, email), (LOCK_RESET_ADDRESS, address))
        since = timezone.now() - RESET_WINDOW
        recent = ResetRequest.objects.filter(at__gt=since)
        if recent.filter(email=email).count() >= RESETS_PER_EMAIL:
            return False
        if address is not None and recent.filter(address=address).count() >= RESETS_PER_ADDRESS:
            return False
        # Requests older than the window count for nothing any more: drop them as we go.
        ResetRequest.objects.filter(at__lte=since).delete()
        ResetRequest.objects.create(email=email, address=address)
        return True
