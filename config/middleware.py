"""An answer Django leaves empty, made readable."""

from django.shortcuts import render


def form_only_address(get_response):
    """Opening an address that only takes forms (Django's 405, which has no body) gets a
    page in German instead of the browser's bare error: a reload after a form's error, a
    restored tab or a shared link lands there. The status and its Allow header stay; the
    page says that nothing was changed and links one level up (the evening of a payment
    form, say), which answers 404 to whoever may not see it."""

    def middleware(request):
        response = get_response(request)
        if response.status_code != 405 or request.method != "GET" or response.content:
            return response
        up = request.path.rstrip("/").rpartition("/")[0] + "/"
        page = render(request, "405.html", {"up": up}, status=405)
        page["Allow"] = response["Allow"]
        return page

    return middleware
