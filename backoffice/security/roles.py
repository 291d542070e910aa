"""Staff roles: the four groups and the permissions each holds.

Operators hold every model permission of their apps plus the apps' action permissions, save
the few in GRANTED_ONE_BY_ONE; Auditors hold only `access_*` and `view_*`, so they can read
everything and change nothing.
Permissions are looked up from the apps at run time, so models added later are covered the
next time `setup_roles` (or any migrate) runs.
"""

from __future__ import annotations

from django.apps import AppConfig
from django.contrib.auth.models import Group, Permission
from django.db.models import Q, QuerySet

from backoffice.catalogue import MENU_PAGES, SERVICE_KEYS

# Every app whose permissions the groups hold: the services and the menu's other pages.
ROLE_APPS = (*SERVICE_KEYS, *(page.app_label for page in MENU_PAGES))

OPERATOR_APPS: dict[str, tuple[str, ...]] = {
    "SMS operators": ("sms",),
    "Top-up operators": ("topup",),
    "Content managers": ("storage", "media", "delivery", "console"),
}
AUDITORS = "Auditors"
# Exceptions to the rules, not part of anyone's daily work: no group holds them; an
# administrator grants them to a person (user permissions in the admin).
GRANTED_ONE_BY_ONE = (("sms", "override_quiet_hours"),)
ROLE_NAMES = (*OPERATOR_APPS, AUDITORS)


def operator_permissions(app_labels: tuple[str, ...]) -> QuerySet[Permission]:
    permissions = Permission.objects.filter(content_type__app_label__in=app_labels)
    for app_label, codename in GRANTED_ONE_BY_ONE:
        permissions = permissions.exclude(content_type__app_label=app_label, codename=codename)
    return permissions


def auditor_permissions() -> QuerySet[Permission]:
    readable = Q(codename__startswith="view_") | Q(codename__startswith="access_")
    # ... and the audit log, which only Auditors (and superusers) read.
    audit_log = Q(content_type__app_label="backoffice", codename="view_auditentry")
    return Permission.objects.filter(
        (readable & Q(content_type__app_label__in=ROLE_APPS)) | audit_log)


def setup_roles() -> dict[str, int]:
    """Create or update the groups; returns the number of permissions of each."""
    counts = {}
    for name, app_labels in OPERATOR_APPS.items():
        group, _ = Group.objects.get_or_create(name=name)
        group.permissions.set(operator_permissions(app_labels))
        counts[name] = group.permissions.count()
    auditors, _ = Group.objects.get_or_create(name=AUDITORS)
    auditors.permissions.set(auditor_permissions())
    counts[AUDITORS] = auditors.permissions.count()
    return counts


def sync_roles_after_migrate(sender: AppConfig, **kwargs: object) -> None:
    # post_migrate fires once per app; the last one (ours is late in INSTALLED_APPS) is enough,
    # but running it for each service app too keeps groups right when only one app migrates.
    if sender.label in ("backoffice", *ROLE_APPS):
        setup_roles()
