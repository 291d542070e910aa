"""The dashboard tile's figures, the home page, and the demo data for `make run`."""

from __future__ import annotations

from io import StringIO

import pytest
from django.urls import reverse

from sms import dashboard, demo, services
from sms.models import Campaign, SuppressedNumber, Template, TemplateStatus

pytestmark = pytest.mark.django_db


def test_the_tile_shows_quotas_and_todays_messages(
    provider, sms_template, operator, fresh_figures
):
    template = sms_template()
    good = services.preview_recipients(template, "13800138000\n13900139000", ["1"]).good
    services.send_recipients(template, good)
    services.refresh_quota()

    figures = {f.label: f.value for f in dashboard.figures(operator)}

    assert figures["Sent today"] == "2"
    assert figures["Delivered today"] == "0"
    assert figures["General messages left"].replace(",", "").isdigit()


def test_the_tile_is_empty_for_staff_without_the_role(django_user_model):
    user = django_user_model.objects.create_user("x", password="x")
    assert dashboard.figures(user) == []


def test_the_dashboard_and_home_page_render_the_figures(operator_client, provider):
    dashboard_page = operator_client.get(reverse("dashboard")).content.decode()
    assert 'id="tile-sms"' in dashboard_page and "Sent today" in dashboard_page

    home = operator_client.get(reverse("sms:index")).content.decode()
    for page in ("templates", "send", "import", "campaigns", "report", "suppression"):
        assert f'data-page="{page}"' in home


def test_demo_data_loads_approved_templates_of_each_kind_once(provider):
    demo.load(StringIO())
    demo.load(StringIO())  # idempotent

    templates = Template.objects.filter(removed_at__isnull=True)
    assert templates.count() == len(demo.DEMO_TEMPLATES)
    assert {(t.type, t.report_type) for t in templates} == {
        ("industry", "general"),
        ("industry", "vip"),
        ("marketing", "general"),
        ("marketing", "vip"),
    }
    assert set(templates.values_list("status", flat=True)) == {TemplateStatus.SUCCESS}
    assert SuppressedNumber.objects.count() == len(demo.DEMO_SUPPRESSED)


def test_the_sample_import_file_works_with_the_demo_template(provider):
    demo.load(StringIO())
    template = Template.objects.get(title="发货通知")

    campaign = services.store_import(template, demo.SAMPLE_IMPORT, demo.SAMPLE_IMPORT.name)

    assert isinstance(campaign, Campaign)
    assert campaign.skipped_header and campaign.encoding == "utf-8-sig"
    assert campaign.total_numbers == 6
    assert set(campaign.problems.values_list("code", flat=True)) == {
        "DUPLICATE_MOBILE",
        "ILLEGAL_MOBILE",
        "MISSING_VARIABLE",
    }


def test_the_sms_pages_speak_simplified_chinese(operator_client, provider):
    for name in ("sms:index", "sms:templates", "sms:send", "sms:import", "sms:report"):
        page = operator_client.get(reverse(name), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
        assert "发送报告" in page, name  # the SMS menu is translated on every page
    form = operator_client.post(
        reverse("sms:send"), {"recipients": "", "send": "1"}, HTTP_ACCEPT_LANGUAGE="zh-hans"
    ).content.decode()
    assert "接收人" in form
