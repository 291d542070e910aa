"""Menus offer only what the person can use: an Auditor sees no Send or File import, and the
Administration link appears only for someone the admin would show something to."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_an_auditor_is_offered_no_send_or_import_page(client, make_user):
    client.force_login(make_user("reader", "Auditors"))

    overview = client.get("/sms/").content.decode()
    assert 'data-page="send"' not in overview and 'data-page="import"' not in overview
    assert 'data-page="report"' in overview
    campaigns = client.get("/sms/campaigns/").content.decode()
    assert 'data-nav="send"' not in campaigns and 'data-nav="import"' not in campaigns
    assert 'data-nav="report"' in campaigns


def test_an_sms_operator_is_offered_send_and_import(client, make_user):
    client.force_login(make_user("operator", "SMS operators"))

    assert 'data-page="import"' in client.get("/sms/").content.decode()
    assert 'data-nav="send"' in client.get("/sms/campaigns/").content.decode()


def test_administration_is_shown_only_to_staff_the_admin_has_something_for(
    client, make_user, django_user_model
):
    client.force_login(make_user("reader", "Auditors"))
    assert 'data-menu="admin"' in client.get("/").content.decode()  # view permissions

    bare = django_user_model.objects.create_user("bare", is_staff=True)
    client.force_login(bare)
    assert 'data-menu="admin"' not in client.get("/").content.decode()
