"""Admin views of the delivery records: the purge and publish logs are read-only; a failed
purge can be sent again from there."""

from __future__ import annotations

from functools import partial

from django.contrib import admin, messages
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from delivery.models import PublishedConfig, PurgeRequest, PurgeStatus, Rule, RuleSet


class RuleInline(admin.TabularInline):
    model = Rule
    extra = 0
    fields = ("position", "pattern", "rule", "breaks", "debug")


@admin.register(RuleSet)
class RuleSetAdmin(admin.ModelAdmin):
    list_display = ("name", "updated_at", "updated_by")
    inlines = [RuleInline]
    readonly_fields = ("updated_by",)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(PurgeRequest)
class PurgeRequestAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "source", "path", "url_count", "status", "attempts",
                    "requested_by")
    list_filter = ("status", "source")
    search_fields = ("urls", "path")
    actions = ["send_again"]

    @admin.action(description=_("Send the selected purges again"),
                  permissions=["purge"])
    def send_again(self, request: HttpRequest, queryset: QuerySet[PurgeRequest]) -> None:
        from delivery.tasks import send_purge_task

        resendable = queryset.filter(status__in=(PurgeStatus.FAILED, PurgeStatus.REFUSED))
        ids = list(resendable.values_list("pk", flat=True))
        # Back to `failed` with attempts cleared, so the claim in delivery.purging takes it.
        resendable.update(status=PurgeStatus.FAILED, attempts=0, finished_at=None)
        for pk in ids:
            transaction.on_commit(partial(send_purge_task.delay, pk))
        self.message_user(request, ngettext("%(n)d purge queued.", "%(n)d purges queued.",
                                            len(ids)) % {"n": len(ids)}, messages.SUCCESS)

    def has_purge_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("delivery.purge_cache")


@admin.register(PublishedConfig)
class PublishedConfigAdmin(ReadOnlyAdmin):
    list_display = ("published_at", "published_by", "rule_set_name", "target", "status")
    list_filter = ("status",)
