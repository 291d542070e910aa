from __future__ import annotations

from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView


class HasViewPermission(BasePermission):
    """The signed-in (or token) user holds the Django permission named by the view."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        needed = getattr(view, "required_permission", None)
        return bool(needed and request.user and request.user.has_perm(needed))
