"""The pages staff see when a page is missing or refused: in the site's layout and language,
with a way back, and with the reason when a view gave one written for staff.

A view that can say why something is missing ("the file /a.jpg does not exist") raises
`NotFoundForStaff` with a translated message. Any other 404 (an unknown address,
`get_object_or_404`) carries a message meant for developers, in English, and the page shows
only the generic text. The 500 page is `templates/500.html`, rendered by Django's own handler
without a request, so it stands alone.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from backoffice.security.redirects import came_from


class NotFoundForStaff(Http404):
    """A 404 whose message (translated) is shown on the page."""


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    reason = str(exception) if isinstance(exception, NotFoundForStaff) else ""
    return render(request, "404.html", {"reason": reason, "request_path": request.path},
                  status=404)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    return render(request, "403.html", {"reason": str(exception)}, status=403)


# Field names never written back into a page, whatever the form: what a person typed there is
# a secret (the same rule as static/js/formkeep.js, which fills the form in again).
_SECRET_FIELD = re.compile(r"pass|token|secret|key|code|otp|csrf", re.IGNORECASE)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: a form sent with an expired or missing CSRF token (a page left open
    past a sign-out, a sign-in in another tab, a cleared cookie). Staff see a page in the
    layout saying the form expired, with a way back to it; what they typed (secrets excepted)
    goes back to their browser tab, which fills the form in again (static/js/formkeep.js). The
    values are only echoed to the person who sent them; nothing is stored on the server.

    Django's `reason` is for developers and stays in the log, not on the page."""
    back_url = came_from(request, request.path)
    values: dict[str, list[str]] = {}
    if request.method == "POST":
        for name, items in request.POST.lists():
            if not _SECRET_FIELD.search(name) and name != "next":
                values[name] = items
    kept = {name: items if len(items) > 1 else items[0] for name, items in values.items()}
    context = {
        "back_url": back_url,
        "kept_count": len(kept),
        "formkeep": {"path": urlsplit(back_url).path or request.path, "values": kept},
    }
    return render(request, "csrf_failure.html", context, status=403)
