"""Admin of the top-up app: products are edited here too; orders, events and callbacks are read
only (they are evidence), and callbacks can be replayed."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from backoffice.admin import ReadOnlyAdminMixin
from topup import services
from topup.models import (
    BalanceSnapshot,
    BulkBatch,
    CallbackReceipt,
    Order,
    OrderEvent,
    Product,
    ReconciliationDiscrepancy,
    ReconciliationReport,
)


@admin.register(Product)
class ProductAdmin(admin.ModelAdmin[Product]):
    list_display = ["code", "carrier", "size_mb", "price", "active", "updated_at"]
    list_filter = ["carrier", "active"]
    search_fields = ["code"]

    def save_model(self, request: HttpRequest, obj: Product, form: Any, change: bool) -> None:
        services.save_product(obj)  # audited there, as from the product page


class OrderEventInline(admin.TabularInline[OrderEvent, Order]):
    model = OrderEvent
    fields = ("at", "kind", "from_state", "to_state", "code", "info", "text", "actor", "receipt")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Order | None = None) -> bool:
        return False

    @admin.display(description=_("what happened"))
    def text(self, event: OrderEvent) -> str:
        return event.text


@admin.register(Order)
class OrderAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[Order]):
    list_display = ["custno", "mobile", "prodcode", "price", "state", "last_code", "source",
                    "created_at", "finished_at"]
    list_filter = ["state", "carrier", "source", "settled_manually", "conflict"]
    search_fields = ["custno", "mobile", "orderno"]
    date_hierarchy = "created_at"
    inlines = [OrderEventInline]


@admin.action(description=_("Replay the selected callbacks"), permissions=["change"])
def replay_selected(modeladmin: admin.ModelAdmin[CallbackReceipt], request: HttpRequest,
                    queryset: QuerySet[CallbackReceipt]) -> None:
    summary = services.replay_receipts(list(queryset.values_list("pk", flat=True)))
    modeladmin.message_user(request, ngettext(
        "%(count)d callback replayed.", "%(count)d callbacks replayed.", summary.replayed)
        % {"count": summary.replayed}, messages.SUCCESS)
    if summary.skipped_invalid:
        modeladmin.message_user(request, ngettext(
            "%(count)d callback skipped: its sign is not valid.",
            "%(count)d callbacks skipped: their sign is not valid.", summary.skipped_invalid)
            % {"count": summary.skipped_invalid}, messages.WARNING)


@admin.register(CallbackReceipt)
class CallbackReceiptAdmin(admin.ModelAdmin[CallbackReceipt]):
    list_display = ["id", "received_at", "custno", "code", "sign_valid", "signed_with",
                    "outcome", "unknown_custno", "processed", "replays"]
    list_filter = ["outcome", "sign_valid", "processed", "unknown_custno"]
    search_fields = ["custno", "orderno"]
    date_hierarchy = "received_at"
    actions = [replay_selected]
    fields = ("received_at", "remote_addr", "headers", "raw_body", "body_size",
              "sign_valid", "signed_with",
              "custno", "orderno", "code", "info", "order", "processed", "processed_at",
              "outcome", "unknown_custno", "error", "replays")
    readonly_fields = fields

    @admin.display(description=_("raw body"))
    def raw_body(self, receipt: CallbackReceipt) -> str:
        return receipt.body_text

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest,
                              obj: CallbackReceipt | None = None) -> bool:
        return False


@admin.register(BalanceSnapshot)
class BalanceSnapshotAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[BalanceSnapshot]):
    list_display = ["taken_at", "balance", "freeze", "avail_balance", "source"]
    list_filter = ["source"]
    date_hierarchy = "taken_at"


@admin.register(BulkBatch)
class BulkBatchAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[BulkBatch]):
    list_display = ["file_name", "uploaded_at", "uploaded_by", "status", "total_price"]
    list_filter = ["status"]


class DiscrepancyInline(admin.TabularInline[ReconciliationDiscrepancy, ReconciliationReport]):
    model = ReconciliationDiscrepancy
    fields = ("kind", "order", "receipt", "ours", "theirs", "detail_text")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest,
                           obj: ReconciliationReport | None = None) -> bool:
        return False


@admin.register(ReconciliationReport)
class ReconciliationReportAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[ReconciliationReport]):
    list_display = ["day", "order_count", "success_count", "failed_count", "open_count", "spent"]
    inlines = [DiscrepancyInline]
