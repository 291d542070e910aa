"""The send page sends what was previewed exactly once: the preview stores a draft campaign,
and "send" confirms that draft with a conditional update, so a second submission (a double
click, a reload, a retry after a slow answer) finds it already confirmed and sends nothing."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from sms import services
from sms.models import Campaign, CampaignSource, CampaignState, Message
from tests.sms.conftest import provider_report

pytestmark = pytest.mark.django_db

RECIPIENTS = "13800138000\n13900139000"


def preview(client, template, recipients: str = RECIPIENTS, **extra: str):
    return client.post(
        reverse("sms:send"),
        {
            "template": template.pk,
            "recipients": recipients,
            "var1": "123456",
            "preview": "1",
            **extra,
        },
    )


def draft_of(response) -> str:
    found = re.search(r'name="draft" value="(\d+)"', response.content.decode())
    assert found, "the preview carries no draft to confirm"
    return found.group(1)


def send(client, template, draft: str, recipients: str = RECIPIENTS, **options):
    return client.post(
        reverse("sms:send"),
        {
            "template": template.pk,
            "recipients": recipients,
            "var1": "123456",
            "draft": draft,
            "send": "1",
        },
        **options,
    )


def test_the_preview_stores_a_draft_and_sends_nothing(operator_client, provider, sms_template):
    template = sms_template()

    response = preview(operator_client, template)

    campaign = Campaign.objects.get(pk=draft_of(response))
    assert campaign.state == CampaignState.DRAFT and campaign.source == CampaignSource.FORM
    assert campaign.total_numbers == 2
    assert provider_report(provider) == []


def test_submitting_send_twice_sends_every_number_once(operator_client, provider, sms_template):
    template = sms_template()
    draft = draft_of(preview(operator_client, template))

    first = send(operator_client, template, draft)
    second = send(operator_client, template, draft, follow=True)

    assert first.status_code == 302 and first["Location"] == reverse("sms:campaign", args=[draft])
    assert second.redirect_chain[-1][0] == reverse("sms:campaign", args=[draft])
    assert "already confirmed" in second.content.decode()
    assert Campaign.objects.count() == 1
    assert Campaign.objects.get().state == CampaignState.DONE
    assert sorted(record["mobile"] for record in provider_report(provider)) == [
        "13800138000",
        "13900139000",
    ]


def test_recipients_changed_after_the_preview_are_previewed_again_not_sent(
    operator_client, provider, sms_template
):
    template = sms_template()
    draft = draft_of(preview(operator_client, template))

    response = send(operator_client, template, draft, recipients="13700137000")

    assert response.status_code == 200
    assert "changed after the preview" in response.content.decode()
    assert provider_report(provider) == []
    assert not Campaign.objects.filter(pk=draft).exists()  # the stale draft is dropped
    renewed = Campaign.objects.get(pk=draft_of(response))
    assert list(renewed.messages.values_list("mobile", flat=True)) == ["13700137000"]


def test_previewing_again_replaces_the_previous_draft(operator_client, provider, sms_template):
    template = sms_template()
    first = draft_of(preview(operator_client, template))

    second = draft_of(preview(operator_client, template, "13700137000", draft=first))

    assert list(Campaign.objects.values_list("pk", flat=True)) == [int(second)]


def test_a_draft_of_someone_else_cannot_be_sent_from_the_page(
    operator_client, provider, sms_template, django_user_model
):
    template = sms_template()
    other = django_user_model.objects.create_user("other", password="x")
    good = services.preview_recipients(template, RECIPIENTS, ["123456"]).good
    foreign = services.store_recipients(template, good, user=other)

    response = send(operator_client, template, str(foreign.pk))

    assert response.status_code == 200
    assert Campaign.objects.get(pk=foreign.pk).state == CampaignState.DRAFT
    assert provider_report(provider) == []


def test_without_provider_settings_here_the_send_is_left_to_the_worker(
    operator_client, provider, sms_template, settings, django_capture_on_commit_callbacks
):
    """The web process may lack SMS_TOKEN while the worker has it: the stored campaign is then
    the worker's to send, and the page must not call it a failure (staff would send again)."""
    template = sms_template()
    draft = draft_of(preview(operator_client, template))
    settings.PROVIDER = {**settings.PROVIDER, "sms": {**settings.PROVIDER["sms"], "token": ""}}

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = send(operator_client, template, draft)

    assert response.status_code == 302
    assert response["Location"] == reverse("sms:campaign", args=[draft])
    assert Campaign.objects.get(pk=draft).state == CampaignState.QUEUED
    assert len(callbacks) == 1  # the worker's run, queued after commit
    assert provider_report(provider) == []


def test_a_form_draft_can_be_confirmed_or_discarded_from_its_campaign_page(
    operator_client, provider, sms_template
):
    template = sms_template()
    draft = draft_of(preview(operator_client, template))

    page = operator_client.get(reverse("sms:campaign", args=[draft])).content.decode()

    assert 'id="confirm-campaign"' in page and 'id="discard-campaign"' in page
    response = operator_client.post(reverse("sms:campaign_discard", args=[draft]),
                                   {"confirmed": "1"})
    assert response["Location"] == reverse("sms:send")
    assert not Campaign.objects.exists()


def test_drafts_of_the_send_page_left_for_a_day_are_discarded(provider, sms_template):
    template = sms_template()
    good = services.preview_recipients(template, RECIPIENTS, ["123456"]).good
    old = services.store_recipients(template, good)
    fresh = services.store_recipients(template, good)
    imported = services.store_recipients(template, good, source=CampaignSource.IMPORT)
    long_ago = timezone.now() - timedelta(days=2)
    Campaign.objects.filter(pk__in=[old.pk, imported.pk]).update(created_at=long_ago)

    assert services.discard_stale_drafts() == 1

    assert set(Campaign.objects.values_list("pk", flat=True)) == {fresh.pk, imported.pk}
    assert not Message.objects.filter(campaign_id=old.pk).exists()


def test_an_unconfirmed_draft_is_not_in_the_delivery_report(auditor_client, provider, sms_template):
    template = sms_template()
    good = services.preview_recipients(template, RECIPIENTS, ["123456"]).good
    services.store_recipients(template, good)

    page = auditor_client.get(reverse("sms:report")).content.decode()

    assert "13800138000" not in page


def test_bad_lines_explain_why_there_is_no_send_button_and_store_nothing(
    operator_client, provider, sms_template
):
    template = sms_template()

    response = preview(operator_client, template, recipients="13800138000\n12345\n99")

    page = response.content.decode()
    assert 'id="send"' not in page and 'id="send-blocked"' in page
    assert "2 numbers cannot be sent: correct or remove them" in page
    assert not Campaign.objects.exists()


def test_a_preview_never_shows_as_a_campaign_waiting_for_confirmation(
    operator_client, provider, sms_template
):
    template = sms_template()
    draft = draft_of(preview(operator_client, template))

    listed = operator_client.get(reverse("sms:campaigns")).content.decode()

    assert reverse("sms:campaign", args=[draft]) not in listed
    # Still reachable from the send page's own link, as before.
    assert operator_client.get(reverse("sms:campaign", args=[draft])).status_code == 200
