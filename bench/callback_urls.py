"""The back-office's URLs plus the limit bench/topup_callbacks.py compares the callbacks with.

The limit is a minimal JSON view that makes one database query, through the same middleware:
what the liveness view `/health` was when the benchmark was written. `/health` no longer
touches the database (a database outage must not get every web process restarted), so it no
longer stands for what an endpoint that must store something can hope for; the benchmark
still measures it beside, for information.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.urls import include, path
from django.views.decorators.http import require_GET


@login_not_required
@require_GET
def one_query(request: HttpRequest) -> JsonResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return JsonResponse({"ok": True})


urlpatterns = [
    path("bench/one-query/", one_query),
    path("", include("backoffice.urls")),
]
