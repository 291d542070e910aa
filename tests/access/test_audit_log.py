"""The audit log: append-only at the model level and without change or delete permission;
sign-ins, failures, lockouts and group changes are recorded with who, when, where and
outcome; Auditors filter it and export it to CSV with the formula guard."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission
from django.test import Client
from django.urls import reverse

from backoffice.models import AuditAppendOnly, AuditEntry
from backoffice.security import audit
from backoffice.security.roles import setup_roles

pytestmark = pytest.mark.django_db


def entry(**fields):
    return audit.record(fields.pop("app", "sms"), fields.pop("action", "template.create"),
                        **fields)


def test_an_entry_cannot_be_changed_or_deleted_one_by_one_or_in_bulk():
    saved = entry(summary="first")
    saved.summary = "rewritten"
    with pytest.raises(AuditAppendOnly):
        saved.save()
    with pytest.raises(AuditAppendOnly):
        saved.delete()
    with pytest.raises(AuditAppendOnly):
        AuditEntry.objects.filter(pk=saved.pk).update(summary="rewritten")
    with pytest.raises(AuditAppendOnly):
        AuditEntry.objects.all().delete()
    assert AuditEntry.objects.get(pk=saved.pk).summary == "first"


def test_no_permission_to_add_change_or_delete_entries_exists():
    codenames = set(Permission.objects.filter(content_type__model="auditentry")
                    .values_list("codename", flat=True))
    assert codenames == {"view_auditentry"}


def test_the_admin_shows_the_log_read_only(django_user_model):
    admin_client = Client()
    admin_client.force_login(django_user_model.objects.create_superuser("root", password=None))
    saved = entry(summary="first")
    page = admin_client.get(f"/admin/backoffice/auditentry/{saved.pk}/change/")
    assert page.status_code == 200
    admin_client.post(f"/admin/backoffice/auditentry/{saved.pk}/change/",
                      {"summary": "rewritten"})
    assert admin_client.post(f"/admin/backoffice/auditentry/{saved.pk}/delete/",
                             {"post": "yes"}).status_code == 403
    assert AuditEntry.objects.get(pk=saved.pk).summary == "first"


def test_a_sign_in_and_a_failure_are_recorded_with_the_address(django_user_model, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    django_user_model.objects.create_user("ann", password="Right-pass-2468!")
    client = Client()
    client.post("/accounts/login/", {"username": "ann", "password": "nope"},
                REMOTE_ADDR="10.1.2.3")
    client.post("/accounts/login/", {"username": "ann", "password": "Right-pass-2468!"},
                REMOTE_ADDR="10.1.2.3")
    # (the log also holds the staff roles' permissions, set at migrate)
    failed, login = AuditEntry.objects.filter(action__in=("login", "login_failed")).order_by("pk")
    assert (failed.action, failed.actor_name, failed.address, failed.outcome) == (
        "login_failed", "ann", "10.1.2.3", "refused")
    assert (login.action, login.actor_name, login.address, login.outcome) == (
        "login", "ann", "10.1.2.3", "ok")


def test_a_lockout_is_recorded(django_user_model, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    client = Client()
    for _ in range(5):
        client.post("/accounts/login/", {"username": "mallory", "password": "x"},
                    REMOTE_ADDR="10.6.6.6")
    lockout = AuditEntry.objects.get(action="lockout")
    assert (lockout.actor_name, lockout.address, lockout.outcome) == (
        "mallory", "10.6.6.6", "refused")


def test_group_membership_changes_name_the_person_and_the_groups(django_user_model):
    setup_roles()
    user = django_user_model.objects.create_user("ann")
    user.groups.add(Group.objects.get(name="Auditors"))
    user.groups.remove(Group.objects.get(name="Auditors"))
    summaries = list(AuditEntry.objects.filter(action="group_membership")
                     .order_by("pk").values_list("summary", flat=True))
    assert summaries == ["ann added to Auditors", "ann removed from Auditors"]


@pytest.fixture
def auditor_client(make_user):
    client = Client()
    client.force_login(make_user("audrey", "Auditors"))
    return client


def test_only_auditors_read_the_log(auditor_client, make_user):
    assert auditor_client.get(reverse("audit_log")).status_code == 200
    operator = Client()
    operator.force_login(make_user("otto", "SMS operators"))
    assert operator.get(reverse("audit_log")).status_code == 403
    assert operator.get(reverse("audit_csv")).status_code == 403


def test_auditors_filter_by_person_app_action_and_date(auditor_client, django_user_model):
    ann = django_user_model.objects.create_user("ann")
    bob = django_user_model.objects.create_user("bob")
    entry(user=ann, app="sms", action="template.delete", summary="A")
    entry(user=bob, app="sms", action="template.delete", summary="B")
    entry(user=ann, app="topup", action="order.place", summary="C")

    def shown(**query: str) -> list[str]:
        page = auditor_client.get(reverse("audit_log"), query)
        return sorted(e.summary for e in page.context["page"])

    assert shown(person="ann") == ["A", "C"]
    assert shown(app="sms") == ["A", "B"]
    assert shown(action="order") == ["C"]
    assert shown(person="ann", app="sms") == ["A"]
    assert shown(since="2000-01-01", until="2000-01-02") == []
    assert len(shown(since="2000-01-01")) >= 3


def test_an_end_date_before_the_start_is_named(auditor_client):
    page = auditor_client.get(reverse("audit_log"), {"since": "2026-02-01",
                                                     "until": "2026-01-01"})
    assert "until" in page.context["form"].errors
    assert auditor_client.get(reverse("audit_csv"), {"since": "nope"}).status_code == 400


def test_the_csv_export_holds_the_filtered_entries_with_formulas_defused(auditor_client):
    entry(app="storage", action="file.delete", target="=HYPERLINK(\"x\")", summary="+1")
    entry(app="sms", action="template.create", summary="other")
    response = auditor_client.get(reverse("audit_csv"), {"app": "storage"})
    body = b"".join(response.streaming_content).decode()
    lines = body.lstrip("\ufeff").splitlines()
    assert lines[0].startswith("When,Person,Address,App,Action")
    assert len(lines) == 2
    assert "'=HYPERLINK" in lines[1] and lines[1].endswith(",'+1")


def test_the_acting_person_and_address_come_from_the_request(make_user):
    operator = make_user("otto", "SMS operators")
    with audit.acting(operator, "192.0.2.7"):
        saved = entry()
    assert (saved.actor, saved.actor_name, saved.address) == (operator, "otto", "192.0.2.7")


def test_a_use_case_that_raises_is_recorded_as_failed():
    @audit.audited("sms", "campaign.cancel", lambda pk: (f"campaign {pk}", "cancel"))
    def cancel(pk: int) -> None:
        raise ValueError("not running")

    with pytest.raises(ValueError):
        cancel(7)
    saved = AuditEntry.objects.get(app="sms")
    assert (saved.object_id, saved.outcome) == ("campaign 7", "failed")
    assert "not running" in saved.summary
