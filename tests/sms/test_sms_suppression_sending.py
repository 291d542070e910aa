"""Suppressed numbers are set aside before anything is sent: on import (counted on the check
page), on the send page, and by the worker for numbers put on the list after the check; a
real worker sends a campaign and the sandbox never receives a suppressed number. A
campaign's numbers refused as invalid go on the list in one action."""

from __future__ import annotations

import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from sms import services
from sms.models import (
    Campaign,
    CampaignState,
    Chunk,
    ImportProblem,
    Message,
    MessageStatus,
    SuppressedNumber,
)
from tests.sms.conftest import local_template, provider_report

pytestmark = pytest.mark.django_db

MARKETING = {"type": "marketing", "content": "周末全场8折。退订回T", "sign_location": "bottom"}


def numbers(count: int, start: int = 0) -> list[str]:
    return [f"1380{n:07d}" for n in range(start, start + count)]


def suppress(*mobiles: str, reason: str = "unsubscribed") -> None:
    SuppressedNumber.objects.bulk_create(
        SuppressedNumber(mobile=mobile, reason=reason) for mobile in mobiles
    )


def import_file(client, template, lines: list[str]) -> Campaign:
    content = ("手机号\n" + "\n".join(lines) + "\n").encode()
    client.post(
        reverse("sms:import"),
        {"template": template.pk, "file": SimpleUploadedFile("list.csv", content)},
    )
    return Campaign.objects.get(template=template)


def test_an_import_sets_suppressed_numbers_aside_as_lines_counted_on_the_check_page(
    operator_client,
):
    template = local_template(1, **MARKETING)
    every = numbers(2500)
    # All of the second chunk's numbers, and two of the third.
    suppress(*every[1000:2000], every[2100], reason="complaint")
    suppress(every[2200], reason="unsubscribed")

    campaign = import_file(operator_client, template, every)

    assert (campaign.total_numbers, campaign.suppressed_lines, campaign.bad_lines) == (
        1498, 1002, 0
    )
    assert campaign.total_units == 1498
    sent = set(Message.objects.filter(campaign=campaign).values_list("mobile", flat=True))
    assert sent == set(every[:1000]) | set(every[2000:]) - {every[2100], every[2200]}
    sizes = list(Chunk.objects.filter(campaign=campaign).values_list("number", "size"))
    assert sizes == [(1, 1000), (3, 498)]  # the emptied chunk is gone
    problem = ImportProblem.objects.get(campaign=campaign, mobile=every[2100])
    assert (problem.line_number, problem.code) == (2102, "SUPPRESSED")  # header on line 1
    page = operator_client.get(reverse("sms:campaign", args=[campaign.pk])).content.decode()
    assert '<dd data-total="suppressed">1,002</dd>' in page
    assert f"{every[1000]} is on the suppression list (Complaint): it is not sent." in page
    assert "suppressed: 1,002 times" in page  # reasons are counted apart from lines
    assert "Send to 1498 numbers" in page


def test_an_industry_template_ignores_the_list_unless_it_is_marked(operator_client):
    suppress("13800000001")
    ignoring = local_template(1, type="industry", content="您的订单已发货。")
    marked = local_template(2, type="industry", content="您的订单已发货。",
                            respect_suppression=True)

    first = import_file(operator_client, ignoring, ["13800000001", "13800000002"])
    second = import_file(operator_client, marked, ["13800000001", "13800000002"])

    assert (first.total_numbers, first.suppressed_lines) == (2, 0)
    assert (second.total_numbers, second.suppressed_lines) == (1, 1)


def test_the_send_page_sets_suppressed_numbers_aside_and_still_offers_to_send_the_rest(
    operator_client,
):
    template = local_template(1, **MARKETING)
    suppress("13800000001", reason="complaint")

    response = operator_client.post(
        reverse("sms:send"),
        {"template": template.pk, "recipients": "13800000001\n13800000002", "preview": "1"},
    )

    page = response.content.decode()
    assert '<dd data-total="suppressed">1</dd>' in page and 'id="suppressed-lines"' in page
    assert "13800000001 is on the suppression list (Complaint): it is not sent." in page
    assert "Send 1 message" in page
    draft = Campaign.objects.get()
    assert list(draft.messages.values_list("mobile", flat=True)) == ["13800000002"]


def test_the_send_page_says_so_when_every_number_is_suppressed(operator_client):
    template = local_template(1, **MARKETING)
    suppress("13800000001")

    response = operator_client.post(
        reverse("sms:send"),
        {"template": template.pk, "recipients": "13800000001", "preview": "1"},
    )

    assert "Every number given is on the suppression list" in response.content.decode()
    assert not Campaign.objects.exists()


def test_the_worker_cancels_numbers_put_on_the_list_after_the_check(provider, sms_template):
    template = sms_template("plain")
    preview = services.preview_recipients(template, "13800000001\n13800000002", [])
    campaign = services.store_recipients(template, preview.good)
    suppress("13800000001")  # after the check, before the send
    services.confirm_campaign(campaign)

    services.run_campaign(campaign.pk)

    campaign.refresh_from_db()
    statuses = dict(campaign.messages.values_list("mobile", "status"))
    assert statuses == {"13800000001": "cancelled", "13800000002": "processing"}
    assert campaign.messages.get(mobile="13800000001").error_code == "SUPPRESSED"
    assert campaign.cancelled_count == 1
    assert [record["mobile"] for record in provider_report(provider)] == ["13800000002"]


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_never_sends_a_suppressed_number_to_the_provider(
    provider, redis_url, sms_template, operator_client
):
    from celery.contrib.testing.worker import start_worker

    from backoffice.celery import app

    template = sms_template("plain")
    every = numbers(30)
    suppress(*every[:5])
    campaign = import_file(operator_client, template, every)
    suppress(every[5])  # put on the list after the import's check
    with start_worker(app, perform_ping_check=False, pool="solo"):
        operator_client.post(reverse("sms:campaign_confirm", args=[campaign.pk]))
        for _ in range(300):
            campaign.refresh_from_db()
            if campaign.state == CampaignState.DONE:
                break
            time.sleep(0.1)

    assert campaign.state == CampaignState.DONE
    assert (campaign.suppressed_lines, campaign.accepted_count, campaign.cancelled_count) == (
        5, 24, 1
    )
    received = {record["mobile"] for record in provider_report(provider)}
    assert received == set(every[6:])


def rejected_campaign(codes: dict[str, str]) -> Campaign:
    """A sent campaign whose numbers the provider refused with the given codes."""
    template = local_template(1, **MARKETING)
    preview = services.preview_recipients(template, "\n".join(codes), [])
    campaign = services.store_recipients(template, preview.good)
    Campaign.objects.filter(pk=campaign.pk).update(state=CampaignState.DONE)
    for mobile, code in codes.items():
        Message.objects.filter(campaign=campaign, mobile=mobile).update(
            status=MessageStatus.REJECTED if code else MessageStatus.SUCCESS, error_code=code
        )
    return campaign


def test_the_campaign_page_adds_its_invalid_numbers_to_the_list_in_one_action(
    operator_client, operator
):
    campaign = rejected_campaign({
        "13800000001": "ILLEGAL_MOBILE", "13800000002": "ILLEGAL_MOBILE",
        "13800000003": "MOBILE_LIMIT", "13800000004": "",
    })
    suppress("13800000002", reason="complaint")  # already there: not counted again

    page = operator_client.get(reverse("sms:campaign", args=[campaign.pk])).content.decode()
    assert "Add the 1 invalid number to the suppression list" in page
    url = reverse("sms:campaign_suppress_invalid", args=[campaign.pk])
    question = operator_client.get(url).content.decode()
    assert f"Add the 1 invalid number of campaign #{campaign.pk} to the suppression list?" in (
        question
    )

    operator_client.post(url)  # a plain post (an old form, a replay) only asks again
    assert not SuppressedNumber.objects.filter(mobile="13800000001").exists()
    operator_client.post(url, {"confirmed": "1"})
    again = operator_client.get(url, follow=True).content.decode()

    added = SuppressedNumber.objects.get(mobile="13800000001")
    assert (added.reason, added.created_by) == ("invalid", operator)
    assert "ILLEGAL_MOBILE" in added.note and f"#{campaign.pk}" in added.note
    assert SuppressedNumber.objects.get(mobile="13800000002").reason == "complaint"
    assert SuppressedNumber.objects.count() == 2
    assert "No invalid number was left to add" in again
    page = operator_client.get(reverse("sms:campaign", args=[campaign.pk])).content.decode()
    assert 'id="suppress-invalid"' not in page


def test_a_reader_sees_the_invalid_count_but_not_the_action(auditor_client):
    campaign = rejected_campaign({"13800000001": "ILLEGAL_MOBILE"})

    page = auditor_client.get(reverse("sms:campaign", args=[campaign.pk])).content.decode()

    assert "The provider refused 1 number as invalid" in page
    assert 'id="suppress-invalid"' not in page
