"""Staff roles: groups created idempotently, menus per group, every page behind a login,
auditors read-only."""

import pytest
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command
from django.urls import reverse

from backoffice.models import ProviderContact
from backoffice.security.roles import AUDITORS, ROLE_NAMES, setup_roles

pytestmark = pytest.mark.django_db


def test_setup_roles_creates_the_four_groups_and_is_idempotent():
    call_command("setup_roles")
    first = {g.name: set(g.permissions.values_list("codename", flat=True))
             for g in Group.objects.all()}
    call_command("setup_roles")
    second = {g.name: set(g.permissions.values_list("codename", flat=True))
              for g in Group.objects.all()}
    assert set(first) == set(ROLE_NAMES)
    assert first == second
    assert Group.objects.count() == 4


def test_operators_hold_their_apps_action_permissions():
    setup_roles()
    sms = set(Group.objects.get(name="SMS operators").permissions.values_list(
        "content_type__app_label", "codename"))
    assert {("sms", "access_sms"), ("sms", "send_sms"), ("sms", "manage_templates")} <= sms
    assert all(app == "sms" for app, _ in sms)
    content = Group.objects.get(name="Content managers").permissions.values_list(
        "content_type__app_label", flat=True)
    assert set(content) == {"storage", "media", "delivery", "console"}


def test_auditors_can_only_read():
    setup_roles()
    codenames = Group.objects.get(name=AUDITORS).permissions.values_list("codename", flat=True)
    assert codenames
    assert all(code.startswith(("view_", "access_")) for code in codenames)
    assert {"access_sms", "access_topup", "access_storage", "access_media",
            "access_delivery"} <= set(codenames)


def test_every_page_requires_a_login(client):
    for url in ["/", "/sms/", "/topup/", "/storage/", "/media/", "/delivery/", "/admin/"]:
        response = client.get(url)
        assert response.status_code == 302, url
        assert "login" in response["Location"], url


def test_the_login_page_and_health_are_open(client):
    assert client.get(reverse("login")).status_code == 200
    assert client.get("/health").json() == {"ok": True}


def test_a_staff_member_sees_only_the_menus_of_their_groups(client, make_user):
    client.force_login(make_user("tina", "Top-up operators"))
    page = client.get("/").content.decode()
    assert 'data-menu="topup"' in page
    assert 'data-menu="sms"' not in page and 'data-menu="storage"' not in page
    assert 'id="tile-topup"' in page and 'id="tile-sms"' not in page


def test_content_managers_see_storage_media_and_delivery(client, make_user):
    client.force_login(make_user("carl", "Content managers"))
    page = client.get("/").content.decode()
    for key in ("storage", "media", "delivery"):
        assert f'data-menu="{key}"' in page
    assert 'data-menu="topup"' not in page


def test_auditors_see_every_menu(client, make_user):
    client.force_login(make_user("ada", AUDITORS))
    page = client.get("/").content.decode()
    for key in ("sms", "topup", "storage", "media", "delivery"):
        assert f'data-menu="{key}"' in page


def test_a_service_page_is_refused_outside_ones_group(client, make_user):
    client.force_login(make_user("sam", "SMS operators"))
    assert client.get(reverse("topup:index")).status_code == 403


def test_a_user_without_groups_is_told_to_ask_for_one(client, make_user):
    client.force_login(make_user("nobody"))
    page = client.get("/").content.decode()
    assert "no service assigned" in page


def test_the_tile_shows_the_last_contact_with_the_provider(client, make_user):
    from backoffice.operations.provider import record_contact

    client.force_login(make_user("sue", "SMS operators"))
    assert 'data-contact="none"' in client.get("/").content.decode()
    record_contact("sms", False, "ConnectionError: refused")
    page = client.get("/").content.decode()
    assert 'data-contact="failed"' in page and "ConnectionError: refused" in page
    record_contact("sms", True)
    assert 'data-contact="ok"' in client.get("/").content.decode()
    assert ProviderContact.objects.get(service="sms").last_ok_at is not None


def test_groups_gain_permissions_of_models_added_later():
    setup_roles()
    group = Group.objects.get(name="SMS operators")
    extra = Permission.objects.create(
        codename="view_extra", name="Can view extra",
        content_type=Permission.objects.filter(content_type__app_label="sms")[0].content_type)
    setup_roles()
    assert group.permissions.filter(pk=extra.pk).exists()
    assert Group.objects.get(name=AUDITORS).permissions.filter(pk=extra.pk).exists()
