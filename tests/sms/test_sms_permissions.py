"""Who may do what: operators act, Auditors read every SMS page and change nothing, and
staff without the SMS role see nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sms.models import Campaign, Chunk, SuppressedNumber, Template
from tests.sms.conftest import local_template

pytestmark = pytest.mark.django_db


@pytest.fixture
def records(db):
    template = local_template(7, provider_updated_at="2026-11-01T00:00:00Z")
    campaign = Campaign.objects.create(
        template=template, source="import", state="draft", total_numbers=1
    )
    Chunk.objects.create(campaign=campaign, number=1, size=1)
    SuppressedNumber.objects.create(mobile="13800138000", reason="complaint")
    return template, campaign


def read_urls(template, campaign) -> list[str]:
    return [
        reverse("sms:index"),
        reverse("sms:templates"),
        reverse("sms:campaigns"),
        reverse("sms:campaign", args=[campaign.pk]),
        reverse("sms:campaign_progress", args=[campaign.pk]),
        reverse("sms:campaign_problems_csv", args=[campaign.pk]),
        reverse("sms:report"),
        reverse("sms:report_csv"),
        reverse("sms:suppression"),
        reverse("sms:suppression_csv"),
    ]


def action_requests(template, campaign) -> list[tuple[str, str]]:
    return [
        ("get", reverse("sms:send")),
        ("post", reverse("sms:send")),
        ("get", reverse("sms:import")),
        ("post", reverse("sms:import")),
        ("get", reverse("sms:template_create")),
        ("post", reverse("sms:template_create")),
        ("get", reverse("sms:template_edit", args=[template.pk])),
        ("post", reverse("sms:template_delete", args=[template.pk])),
        ("post", reverse("sms:template_sync")),
        ("post", reverse("sms:report_sync")),
        ("post", reverse("sms:campaign_confirm", args=[campaign.pk])),
        ("post", reverse("sms:campaign_discard", args=[campaign.pk])),
        ("post", reverse("sms:campaign_cancel", args=[campaign.pk])),
        ("post", reverse("sms:campaign_resume", args=[campaign.pk])),
        ("get", reverse("sms:suppression_add")),
        ("post", reverse("sms:suppression_add")),
        ("get", reverse("sms:suppression_import")),
        ("post", reverse("sms:suppression_import")),
        ("get", reverse("sms:suppression_remove", args=[SuppressedNumber.objects.get().pk])),
        ("post", reverse("sms:suppression_remove", args=[SuppressedNumber.objects.get().pk])),
        ("get", reverse("sms:campaign_suppress_invalid", args=[campaign.pk])),
        ("post", reverse("sms:campaign_suppress_invalid", args=[campaign.pk])),
        ("post", reverse("sms:template_respect_suppression", args=[template.pk])),
    ]


def test_an_auditor_reads_every_page(auditor_client, records):
    for url in read_urls(*records):
        assert auditor_client.get(url).status_code == 200, url


def test_an_auditor_cannot_change_anything(auditor_client, records):
    template, campaign = records
    for method, url in action_requests(*records):
        assert getattr(auditor_client, method)(url).status_code == 403, (method, url)
    campaign.refresh_from_db()
    assert campaign.state == "draft"
    assert Template.objects.get(pk=template.pk).removed_at is None
    assert SuppressedNumber.objects.count() == 1


def test_an_auditor_sees_no_action_buttons(auditor_client, records):
    template, campaign = records
    pages = [
        auditor_client.get(reverse("sms:templates")).content.decode(),
        auditor_client.get(reverse("sms:campaign", args=[campaign.pk])).content.decode(),
        auditor_client.get(reverse("sms:report")).content.decode(),
        auditor_client.get(reverse("sms:suppression")).content.decode(),
    ]
    markers = ('id="new-template"', 'id="confirm-campaign"', 'id="sync-report"', ">Edit<",
               'id="add-suppression"', 'id="import-suppression"', ">Remove<",
               'id="respect-suppression-7"')
    for marker in markers:
        assert not any(marker in page for page in pages), marker


def test_staff_without_the_sms_role_are_refused(client, django_user_model, records):
    user = django_user_model.objects.create_user("other", password="x", is_staff=True)
    client.force_login(user)

    for url in read_urls(*records):
        assert client.get(url).status_code == 403, url


def test_an_operator_reaches_the_action_pages(operator_client, records):
    for name in ("sms:send", "sms:import", "sms:template_create", "sms:suppression_add",
                 "sms:suppression_import"):
        assert operator_client.get(reverse(name)).status_code == 200


def test_anonymous_visitors_are_sent_to_the_login_page(client, records):
    response = client.get(reverse("sms:report"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
