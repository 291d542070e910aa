"""Admin views of the delivery records: the purge and publish logs are read-only; a failed
purge can be sent again from there."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from backoffice.admin import ReadOnlyAdminMixin
from delivery import services
from delivery.models import PublishedConfig, PurgeRequest, Rule, RuleSet


class RuleInline(admin.TabularInline[Rule, RuleSet]):
    model = Rule
    extra = 0
    fields = ("position", "pattern", "rule", "breaks", "state", "test_addresses")


@admin.register(RuleSet)
class RuleSetAdmin(admin.ModelAdmin[RuleSet]):
    list_display = ("name", "domain", "updated_at", "updated_by")
    list_filter = ("domain",)
    inlines = [RuleInline]
    readonly_fields = ("updated_by",)


@admin.register(PurgeRequest)
class PurgeRequestAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[PurgeRequest]):
    list_display = ("created_at", "domain", "source", "path", "url_count", "status", "attempts",
                    "requested_by")
    list_filter = ("status", "source", "error_kind")
    search_fields = ("urls", "path")
    actions = ["send_again"]

    @admin.action(description=_("Send the selected purges again"),
                  permissions=["purge"])
    def send_again(self, request: HttpRequest, queryset: QuerySet[PurgeRequest]) -> None:
        resent = services.resend_purges(list(queryset.values_list("pk", flat=True)))
        self.message_user(request, ngettext("%(n)d purge queued.", "%(n)d purges queued.",
                                            resent) % {"n": resent}, messages.SUCCESS)

    def has_purge_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("delivery.purge_cache")


@admin.register(PublishedConfig)
class PublishedConfigAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[PublishedConfig]):
    list_display = ("published_at", "domain", "published_by", "rule_set_name", "changed",
                    "target", "status")
    list_filter = ("status", "domain")
