"""How the merchant API knows its caller: a hashed merchant token (`Authorization: Bearer
mt_...`) or a staff session; and the per-token scope check and rate limit.

The DRF `Token` scheme is retired (migration topup 0008 made each of its keys a merchant token
with the same secret): `Authorization: Token <key>` is refused with a reason that says to send
the key as `Bearer`, and counted like an unknown key."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from backoffice.annotations import StaffUser
from backoffice.operations import soft_cache
from topup import services
from topup.models import ApiToken

KEYWORD = "Bearer"
RETIRED_KEYWORD = b"token"  # DRF's TokenAuthentication, removed


class MerchantTokenAuthentication(BaseAuthentication):
    """`Authorization: Bearer <key>`; refusals are 401 with a JSON reason, and audited."""

    def authenticate(self, request: Request) -> tuple[StaffUser, ApiToken] | None:
        parts = get_authorization_header(request).split()
        address = request.META.get("REMOTE_ADDR")
        try:
            if parts and parts[0].lower() == RETIRED_KEYWORD:
                services.refuse_unknown(address, services.TokenRefused("retired_scheme", _(
                    "The Token scheme is retired: send the same key as "
                    "“Authorization: Bearer <key>”.")))
            if not parts or parts[0].lower() != KEYWORD.lower().encode():
                return None  # another scheme (or none): the next authentication class decides
            if len(parts) != 2:
                raise exceptions.AuthenticationFailed(
                    {"detail": "Authorization: Bearer <token>", "reason": "malformed_header"})
            token = services.token_for_key(parts[1].decode("latin-1"), address=address)
        except services.TokenThrottled as throttled:
            raise UnknownTokensThrottled(throttled) from None
        except services.TokenRefused as refused:
            raise exceptions.AuthenticationFailed(
                {"detail": refused.message, "reason": refused.reason}) from None
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return f'{KEYWORD} realm="api"'


class UnknownTokensThrottled(exceptions.Throttled):
    """429 with Retry-After and the JSON reason (DRF's own Throttled text takes no reason)."""

    def __init__(self, throttled: services.TokenThrottled) -> None:
        exceptions.APIException.__init__(
            self, {"detail": throttled.message, "reason": throttled.reason})
        self.wait: int | None = throttled.retry_after


class MerchantTokenScheme(OpenApiAuthenticationExtension):
    """Describes the token scheme in the OpenAPI document."""

    target_class = "topup.api.authentication.MerchantTokenAuthentication"
    name = "merchantToken"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, object]:
        return {
            "type": "http", "scheme": "bearer", "bearerFormat": "mt_<40 characters>",
            "description": (
                "A merchant API token created by staff on the top-up app's API tokens page, "
                "shown once. Each token has scopes (`orders:write` to place orders, "
                "`orders:read` to read them), expires (90 days by default) and is "
                f"rate-limited ({settings.API_TOKEN_RATE_PER_MINUTE} requests a minute; "
                "429 with Retry-After beyond). An expired, revoked or unknown token gets 401 "
                "and a token without the scope 403, each with a JSON `reason`. An address "
                f"that sends more than {settings.API_UNKNOWN_TOKENS_PER_MINUTE} unknown "
                "tokens in a minute gets 429 until the minute ends. Keys of the retired "
                "`Token` scheme work here, sent as `Bearer`."),
        }


class HasScope(BasePermission):
    """A merchant token must hold the view's `required_scope`; staff sessions are not scoped
    (they act with the person's permissions only)."""

    message = ""

    def has_permission(self, request: Request, view: APIView) -> bool:
        token = request.auth
        if not isinstance(token, ApiToken):
            return True
        scope = getattr(view, "required_scope", "")
        if scope in token.scopes:
            return True
        raise exceptions.PermissionDenied({
            "detail": services.refuse_scope(token, scope,
                                            address=request.META.get("REMOTE_ADDR")),
            "reason": "missing_scope"})


class PerTokenRateThrottle(SimpleRateThrottle):
    """API_TOKEN_RATE_PER_MINUTE requests a minute per token; DRF answers 429 with Retry-After
    beyond. Staff sessions are not throttled here.

    The counts live in the cache. While the cache is down the request is allowed and a warning
    logged (once a minute per process): placing an order needs only the database, and the
    limit spares our capacity rather than guarding money (each order is still charged once,
    its idempotency key and the balance check hold). See docs/decisions.md.
    """

    scope = "api_token"

    def allow_request(self, request: Request, view: APIView) -> bool:
        try:
            return super().allow_request(request, view)
        except Exception:
            soft_cache.unavailable("the per-token rate limit is not applied")
            return True

    def get_rate(self) -> str:
        return f"{settings.API_TOKEN_RATE_PER_MINUTE}/min"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        token = request.auth
        if not isinstance(token, ApiToken):
            return None
        return self.cache_format % {"scope": self.scope, "ident": f"merchant:{token.pk}"}
