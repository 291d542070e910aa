"""Admin pieces shared by the apps."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from backoffice.models import AddressTally, AuditEntry


class ReadOnlyAdminMixin:
    """For records written only by the provider's answers or by our own use cases (logs,
    mirrors, jobs, orders): viewable by whoever holds `view_*`, changeable by nobody here."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


# The audit log in the admin: read-only, and without the delete action (the model has no
# change or delete permission, and refuses both anyway).
@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[AuditEntry]):
    list_display = ("at", "actor_name", "address", "app", "action", "object_id", "outcome")
    list_filter = ("app", "outcome", "at")
    search_fields = ("actor_name", "action", "object_id", "summary")
    date_hierarchy = "at"

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        return {}


# Refused requests counted per address and minute (callbacks from addresses not allowed,
# unknown API tokens): evidence, written only by the counting.
@admin.register(AddressTally)
class AddressTallyAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[AddressTally]):
    list_display = ("minute", "kind", "address", "count", "sample_id", "reported")
    list_filter = ("kind", "minute")
    search_fields = ("address",)
    date_hierarchy = "minute"
