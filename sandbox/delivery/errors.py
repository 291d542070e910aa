"""The edge's refusals: JSON `{"code": "<8 digits>", "msg": "..."}` with the same code in the
`X-Error-Code` header, the shape DECISIONS.md gives the refused token.

Only 40310013 comes from DECISIONS.md; the others are the sandbox's own (documented in
docs/decisions.md), chosen in the same family: 403 access, 400 bad URL values, 404 nothing to serve.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse

INVALID_TOKEN = "40310013"  # DECISIONS.md, "Content delivery"
# (sandbox) codes.
BAD_PARAMETER = "40000001"  # _upv, _upd or the query string itself
BAD_IMAGE_PARAMETER = "40000010"
# cloud/image.md's status table: processing a non-image is 405, asking its information 406.
NOT_AN_IMAGE = "40500011"
NOT_AN_IMAGE_INFO = "40600011"
# cloud/image.md's limits: a side above 20,000 px is 405, more than 200 million pixels 409.
IMAGE_TOO_WIDE = "40500012"
IMAGE_TOO_LARGE = "40900011"
BAD_COMBINE = "40000012"
IP_DENIED = "40310010"
REFERER_DENIED = "40310011"
USER_AGENT_DENIED = "40310012"
REGION_DENIED = "40310020"  # region restriction (region.py)
ORIGIN_AUTH_DENIED = "40310021"  # origin authentication (origin_auth.py)
WAF_DENIED = "40310030"  # a WAF signature matched (own origin)
IP_LIMIT_BANNED = "40310031"  # an IP access limit rule banned the client address
BODY_TOO_LARGE = "41300001"  # the request body is larger than the domain's limit
NOT_FOUND = "40400001"
UNKNOWN_DOMAIN = "40400002"  # the Host is no domain of the account
METHOD_NOT_ALLOWED = "40500001"
EXTERNAL_LINKS_OFF = "40500020"  # the external-links switch is off (external_links.py)
INTERNAL_ERROR = "50000000"
ORIGIN_UNREACHABLE = "50200001"  # no address of an own-origin service gave an answer


class EdgeError(Exception):
    """A request the edge refuses; `status` is the HTTP status of the answer."""

    def __init__(self, status: int, code: str, msg: str) -> None:
        super().__init__(f"{code} {msg}")
        self.status = status
        self.code = code
        self.msg = msg

    def response(self) -> HttpResponse:
        response = JsonResponse({"code": self.code, "msg": self.msg}, status=self.status)
        response["X-Error-Code"] = self.code
        return response


def not_found(msg: str = "file not found") -> EdgeError:
    return EdgeError(404, NOT_FOUND, msg)


def bad_parameter(msg: str) -> EdgeError:
    return EdgeError(400, BAD_PARAMETER, msg)


def invalid_token() -> EdgeError:
    return EdgeError(403, INVALID_TOKEN, "invalid user token")


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500 of the delivery port: a crash answers in the edge's own error shape."""
    return EdgeError(500, INTERNAL_ERROR, "edge internal error").response()


def unknown_path(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler404 of the delivery port (every path is routed to the edge, so rarely used)."""
    return not_found().response()
