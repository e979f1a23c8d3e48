from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET


@require_GET
@login_required
def start(request: HttpRequest) -> HttpResponse:
    return render(request, "clubs/start.html")


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """For load balancers and compose: the app answers and reaches its database."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return HttpResponse("ok", content_type="text/plain")
