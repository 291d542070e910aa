from __future__ import annotations

from rest_framework.permissions import BasePermission


class HasViewPermission(BasePermission):
    """The signed-in (or token) user holds the Django permission named by the view."""

    def has_permission(self, request, view) -> bool:  # type: ignore[no-untyped-def]
        needed = getattr(view, "required_permission", None)
        return bool(needed and request.user and request.user.has_perm(needed))
