"""The pages staff see when a page is missing or refused: in the site's layout and language,
with a way back, and with the reason when a view gave one written for staff.

A view that can say why something is missing ("the file /a.jpg does not exist") raises
`NotFoundForStaff` with a translated message. Any other 404 (an unknown address,
`get_object_or_404`) carries a message meant for developers, in English, and the page shows
only the generic text. The 500 page is `templates/500.html`, rendered by Django's own handler
without a request, so it stands alone.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render


class NotFoundForStaff(Http404):
    """A 404 whose message (translated) is shown on the page."""


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    reason = str(exception) if isinstance(exception, NotFoundForStaff) else ""
    return render(request, "404.html", {"reason": reason, "request_path": request.path},
                  status=404)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    return render(request, "403.html", {"reason": str(exception)}, status=403)
