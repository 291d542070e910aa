"""How the merchant API knows its caller: a hashed merchant token (`Authorization: Bearer
mt_...`), an old DRF key (`Authorization: Token ...`, until an administrator deletes it) or a
staff session; and the per-token scope check and rate limit."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from backoffice.annotations import StaffUser
from topup import services
from topup.models import ApiToken

KEYWORD = "Bearer"


class MerchantTokenAuthentication(BaseAuthentication):
    """`Authorization: Bearer <key>`; refusals are 401 with a JSON reason, and audited."""

    def authenticate(self, request: Request) -> tuple[StaffUser, ApiToken] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != KEYWORD.lower().encode():
            return None  # another scheme (or none): the next authentication class decides
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(
                {"detail": "Authorization: Bearer <token>", "reason": "malformed_header"})
        try:
            token = services.token_for_key(parts[1].decode("latin-1"),
                                           address=request.META.get("REMOTE_ADDR"))
        except services.TokenRefused as refused:
            raise exceptions.AuthenticationFailed(
                {"detail": refused.message, "reason": refused.reason}) from None
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return f'{KEYWORD} realm="api"'


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
                "and a token without the scope 403, each with a JSON `reason`."),
        }


class HasScope(BasePermission):
    """A merchant token must hold the view's `required_scope`; old keys and staff sessions
    are not scoped (they act with the person's permissions only)."""

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
    """API_TOKEN_RATE_PER_MINUTE requests a minute per token (old keys included); DRF answers
    429 with Retry-After beyond. Staff sessions are not throttled here."""

    scope = "api_token"

    def get_rate(self) -> str:
        return f"{settings.API_TOKEN_RATE_PER_MINUTE}/min"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        token = request.auth
        if isinstance(token, ApiToken):
            ident = f"merchant:{token.pk}"
        elif token is not None and hasattr(token, "key"):
            ident = f"legacy:{token.user_id}"  # one key per user; its pk is the key itself
        else:
            return None
        return self.cache_format % {"scope": self.scope, "ident": ident}
