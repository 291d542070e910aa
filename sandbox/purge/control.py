"""Control endpoint of the purge emulator (control port, under /purge/): what was purged, so a
test can see that the back-office refreshed what it had to."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_http_methods

from sandbox.purge.models import PurgeRequest


@require_http_methods(["GET"])
def requests_view(request: HttpRequest) -> JsonResponse:
    """Every accepted purge request, oldest first: `{"requests": [{at, url_count, urls,
    invalid_domain_of_url, evicted}]}`."""
    return JsonResponse({"requests": [row.as_dict() for row in PurgeRequest.objects.all()]})
