"""Every change to who may do what writes an audit entry, whatever the path: the admin's
forms, the ORM from a command or the shell. Superuser, staff and active flags; a user's and a
group's permissions; second-factor devices (an administrator deleting someone else's too)
and recovery codes; and unlocks."""

from __future__ import annotations

from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command
from django.test import Client
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from backoffice.models import AuditEntry
from backoffice.security import recovery

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def since() -> None:
    """Entries before the test (the staff roles' set-up at migrate writes group permissions)
    are not the test's."""
    global FIRST
    FIRST = (AuditEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1


FIRST = 0


def written(action: str):
    return AuditEntry.objects.filter(action=action, pk__gte=FIRST).order_by("pk")


def summaries(action: str) -> list[str]:
    return list(written(action).values_list("summary", flat=True))


@pytest.fixture
def root(django_user_model):
    return django_user_model.objects.create_superuser("root", password=None)


@pytest.fixture
def admin_client(root) -> Client:
    client = Client(REMOTE_ADDR="10.9.9.9")
    client.force_login(root)
    return client


def change_user_in_admin(admin_client, user, **changes):
    data = {"username": user.username, "is_active": "on", "date_joined_0": "2024-01-01",
            "date_joined_1": "00:00:00", "groups": [], "user_permissions": []}
    data.update(changes)
    data = {key: value for key, value in data.items() if value is not False}
    response = admin_client.post(f"/admin/auth/user/{user.pk}/change/", data)
    assert response.status_code == 302, response.content[:2000]


def test_making_a_user_superuser_in_the_admin_names_who_did_it(admin_client, django_user_model):
    ann = django_user_model.objects.create_user("ann")
    change_user_in_admin(admin_client, ann, is_superuser="on", is_staff="on")
    made = written("user.superuser").get(object_id=str(ann.pk))
    assert (made.actor_name, made.address, made.object_id, made.summary) == (
        "root", "10.9.9.9", str(ann.pk), "ann made superuser")
    assert list(written("user.staff").filter(object_id=str(ann.pk))
                .values_list("summary", flat=True)) == ["ann given staff status"]


def test_flags_changed_from_code_are_recorded_too(django_user_model):
    ann = django_user_model.objects.create_user("ann", is_staff=True)
    ann.is_superuser = True
    ann.save()
    ann.is_superuser = False
    ann.is_active = False
    ann.save()
    assert summaries("user.superuser") == ["ann made superuser", "ann no longer superuser"]
    assert summaries("user.staff") == ["ann given staff status (new account)"]
    assert summaries("user.active") == ["ann deactivated"]


def test_a_save_that_changes_no_flag_writes_nothing(django_user_model):
    ann = django_user_model.objects.create_user("ann")
    ann.first_name = "Ann"
    ann.save()
    ann.save(update_fields=["last_login"])
    assert not AuditEntry.objects.filter(action__startswith="user.").exists()


def test_a_users_permissions_from_the_admin_are_recorded(admin_client, django_user_model):
    ann = django_user_model.objects.create_user("ann")
    permission = Permission.objects.get(codename="override_quiet_hours")
    change_user_in_admin(admin_client, ann, user_permissions=[permission.pk])
    entry = written("user.permissions").get()
    assert (entry.actor_name, entry.summary) == (
        "root", "ann gains permissions (1): sms.override_quiet_hours")


def test_a_groups_permissions_are_recorded_from_either_side():
    group = Group.objects.create(name="Helpers")
    permission = Permission.objects.get(codename="override_quiet_hours")
    group.permissions.add(permission)
    permission.group_set.remove(group)
    group.permissions.add(permission)
    group.permissions.clear()
    assert summaries("group.permissions") == [
        "Helpers gains permissions (1): sms.override_quiet_hours",
        "Helpers loses permissions (1): sms.override_quiet_hours",
        "Helpers gains permissions (1): sms.override_quiet_hours",
        "Helpers loses permissions (1): sms.override_quiet_hours",
    ]


def test_a_groups_permissions_changed_in_the_admin_name_who_did_it(admin_client):
    group = Group.objects.create(name="Helpers")
    permission = Permission.objects.get(codename="override_quiet_hours")
    response = admin_client.post(f"/admin/auth/group/{group.pk}/change/",
                                 {"name": "Helpers", "permissions": [permission.pk]})
    assert response.status_code == 302
    assert written("group.permissions").get().actor_name == "root"


def test_an_administrator_deleting_someone_elses_second_factor_is_recorded(
        admin_client, django_user_model):
    ann = django_user_model.objects.create_user("ann")
    device = TOTPDevice.objects.create(user=ann, name="phone", confirmed=True)
    response = admin_client.post(f"/admin/otp_totp/totpdevice/{device.pk}/delete/",
                                 {"post": "yes"})
    assert response.status_code == 302
    removed = written("2fa.device_remove").get()
    assert (removed.actor_name, removed.object_id, removed.summary) == (
        "root", str(ann.pk), "authenticator 'phone' of ann removed")


def test_an_authenticator_counts_once_confirmed_and_recovery_codes_when_made(django_user_model):
    ann = django_user_model.objects.create_user("ann")
    pending = TOTPDevice.objects.create(user=ann, name="phone", confirmed=False)
    assert summaries("2fa.device_add") == []
    pending.confirmed = True
    pending.save()
    codes = recovery.issue_codes(ann)
    assert summaries("2fa.device_add") == ["authenticator 'phone' of ann added"]
    assert summaries("2fa.recovery_codes") == ["a new set of recovery codes for ann"]

    assert recovery.use_code(ann, codes[0]) is not None
    assert recovery.use_code(ann, codes[0]) is None  # spent: no second entry
    assert summaries("2fa.recovery_code_used") == [
        f"a recovery code of ann used; {recovery.RECOVERY_CODES - 1} left"]

    StaticDevice.objects.filter(user=ann).delete()  # its last code goes with it, unused
    assert len(summaries("2fa.recovery_code_used")) == 1
    assert summaries("2fa.device_remove") == ["recovery codes 'recovery codes' of ann removed"]
    TOTPDevice.objects.create(user=ann, name="new phone", confirmed=False).delete()
    assert len(summaries("2fa.device_remove")) == 1  # an unfinished enrolment is no factor


def lock_out(username: str = "ann") -> None:
    client = Client(REMOTE_ADDR="10.6.6.6")
    for _ in range(5):
        client.post("/accounts/login/", {"username": username, "password": "wrong"})
    assert AccessAttempt.objects.filter(username=username).exists()


def test_an_unlock_in_the_admin_is_recorded(admin_client, django_user_model, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    django_user_model.objects.create_user("ann", password="Right-pass-2468!")
    lock_out()
    ids = list(AccessAttempt.objects.values_list("pk", flat=True))
    response = admin_client.post("/admin/axes/accessattempt/", {
        "action": "delete_selected", "_selected_action": ids, "post": "yes"})
    assert response.status_code == 302
    unlock = written("login_failures.clear").get()
    assert (unlock.actor_name, unlock.summary) == (
        "root", "failed sign-ins (5) of ann from 10.6.6.6 cleared, which lifts its lockout")


def test_an_unlock_by_command_is_recorded():
    lock_out()
    call_command("axes_reset_username", "ann")
    assert summaries("login_failures.clear") == [
        "failed sign-ins (5) of ann from 10.6.6.6 cleared, which lifts its lockout"]


def test_the_audit_page_names_the_new_actions_in_the_readers_language(make_user):
    auditor = make_user("audrey", "Auditors")
    Group.objects.create(name="Helpers").permissions.add(
        Permission.objects.get(codename="override_quiet_hours"))
    client = Client()
    client.force_login(auditor)
    page = client.get("/audit/", {"action": "group.permissions"}, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "用户组的权限已更改" in page.content.decode()
    export: Any = client.get("/audit/export.csv", {"action": "group.permissions"})
    csv = b"".join(export.streaming_content)  # a streamed answer
    assert b"group.permissions" in csv
