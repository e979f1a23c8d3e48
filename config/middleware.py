"""Answers Django leaves empty or silent, made readable."""

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.http import QueryDict
from django.shortcuts import render, resolve_url
from django.utils.cache import add_never_cache_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

FORMS = ("GET", "POST")


def form_only_address(get_response):
    """Opening an address that only takes forms (Django's 405, which has no body) gets a
    page in German instead of the browser's bare error: a reload after a form's error, a
    restored tab or a shared link lands there. The status and its Allow header stay; the
    page says that nothing was changed and links one level up (the evening of a payment
    form, say), which answers 404 to whoever may not see it. A form sent to a page that
    takes none (an old page, a script) is told likewise that nothing was saved."""

    def middleware(request):
        response = get_response(request)
        if response.status_code != 405 or response.content or request.method not in FORMS:
            return response
        if request.method == "POST":  # a form sent to a page (an old page, a script)
            context = {"up": request.path, "posted": True}
        else:
            context = {"up": request.path.rstrip("/").rpartition("/")[0] + "/"}
        page = render(request, "405.html", context, status=405)
        page["Allow"] = response["Allow"]
        return page

    return middleware


def expired_login_on_a_form(get_response):
    """A form sent after the login expired (a tariff typed in while the phone slept) is
    answered by login_required with the login page, and after logging in the form comes
    back as it was before: nothing says that what was typed was not saved. Now the login
    page says so, and leads back to the page the form was on: a form's address may take
    only forms ("bezahlt" on the Abrechnung), and opened after the login it would show no
    page. (The entry form keeps what was typed: clubs.access.login_required_keep_form.)"""

    def middleware(request):
        response = get_response(request)
        login = resolve_url(settings.LOGIN_URL)
        if (
            request.method == "POST"
            and response.status_code == 302
            and not request.user.is_authenticated
            and response["Location"].startswith(login + "?")
        ):
            if (back := _page_of_the_form(request)) is not None:
                query = QueryDict(mutable=True)
                query[REDIRECT_FIELD_NAME] = back
                response["Location"] = f"{login}?{query.urlencode(safe='/')}"
            messages.warning(
                request,
                _(
                    "Du warst nicht mehr angemeldet – nichts gespeichert. Bitte melde dich "
                    "wieder an und gib es noch einmal ein."
                ),
            )
        return response

    return middleware


def _page_of_the_form(request) -> str | None:
    """The path of the page a form was sent from (its Referer), if it is one of ours."""
    referer = request.headers.get("Referer", "")
    if not url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return None
    page = urlsplit(referer)
    return f"{page.path}?{page.query}" if page.query else page.path or None


def fresh_pages(get_response):
    """A page shown to someone logged in is asked for anew on Back, not shown from the
    browser's memory: after booking a game, Back to the Runde page showed the balances
    from before it. (The evening's pages carry form keys and were never_cache already.)
    Nor is a download kept (the club's backup, a CSV): the backup holds emails and open
    links, and a shared computer's cache would keep them."""

    def middleware(request):
        response = get_response(request)
        if (
            request.method == "GET"
            and request.user.is_authenticated
            and (
                response.get("Content-Type", "").startswith("text/html")
                or response.get("Content-Disposition", "").startswith("attachment")
            )
        ):
            add_never_cache_headers(response)
        return response

    return middleware
