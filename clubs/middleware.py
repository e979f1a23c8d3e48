"""Django's AuthenticationMiddleware, taking the user from the session's own query.

clubs.sessions loads the session together with the row of the user its id column names.
This middleware accepts that user only where Django's get_user would accept the same user
from the same rows; in every other case (no such user, another user in the data, a stale
or fallback-key hash, an unknown backend, an inactive user) it asks Django's get_user,
which queries the user itself and flushes or re-keys the session as it always does.
"""

from django.conf import settings
from django.contrib import auth, messages
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth import middleware as auth_middleware
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _

from clubs.sessions import SessionStore


def get_user(request: HttpRequest) -> AbstractBaseUser | AnonymousUser:
    if not hasattr(request, "_cached_user"):
        user = _user_loaded_with_session(request)
        if user is None:
            logged_in = SESSION_KEY in request.session
            user = auth.get_user(request)
            if logged_in and not user.is_authenticated:
                # get_user has ended the session: the password was changed (on another
                # phone, say), or the account is gone. The login page says why.
                messages.info(
                    request,
                    _(
                        "Bitte neu anmelden: das Passwort wurde inzwischen geändert, oder das "
                        "Konto gilt nicht mehr."
                    ),
                    fail_silently=True,
                )
        request._cached_user = user
    return request._cached_user


def _user_loaded_with_session(request: HttpRequest) -> AbstractBaseUser | None:
    """The user clubs.sessions read with the session, if Django's get_user would return
    exactly that user without touching the session; else None.

    The checks are get_user's, on the joined row instead of a fresh one:
    1. the session data names this user (the id column is only a hint for the join);
    2. its backend is configured, and finds users as ModelBackend does, by primary key
       and then user_can_authenticate (so an inactive user is refused);
    3. the session's hash matches the user's current one. A hash that is missing, stale
       or made with a fallback secret is left to get_user: it flushes the session or
       re-keys it.
    """
    session = request.session
    if not isinstance(session, SessionStore):
        return None
    try:
        user_id = session[SESSION_KEY]  # loads the session, and the user with it
    except KeyError:
        return None
    user = session.loaded_user
    if user is None:
        return None
    try:
        if type(user)._meta.pk.to_python(user_id) != user.pk:
            return None
    except ValidationError:
        return None

    backend_path = session.get(BACKEND_SESSION_KEY)
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return None
    backend = auth.load_backend(backend_path)
    if type(backend).get_user is not ModelBackend.get_user:
        return None
    if not backend.user_can_authenticate(user):
        return None

    session_hash = session.get(HASH_SESSION_KEY)
    if not session_hash or not constant_time_compare(session_hash, user.get_session_auth_hash()):
        return None
    return user


class AuthenticationMiddleware(auth_middleware.AuthenticationMiddleware):
    """Django's middleware (its checks and its `request.auser`, which stays Django's),
    with `request.user` from get_user above."""

    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: get_user(request))
