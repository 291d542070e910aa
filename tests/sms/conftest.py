"""Fixtures of the SMS back-office tests: the real sandbox, approved templates, staff."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
import requests
from django.core.cache import cache
from django.utils import timezone

from sms import rules, services
from sms.models import Campaign, Chunk, Message, Template


def control(sandbox, method: str, path: str, body: Any = None) -> requests.Response:
    response = sandbox.control(method, path, body)
    assert response.ok, f"{method} {path}: {response.status_code} {response.text}"
    return response


def sandbox_settings(sandbox, **values: Any) -> dict[str, Any]:
    """Change the SMS emulator's settings (auto_review, delivery_delay_s, failure_rate, ...)."""
    return control(sandbox, "POST", "/sms/settings", values).json()


def review(sandbox, template: Template, status: str = "success") -> Template:
    control(sandbox, "POST", f"/sms/templates/{template.provider_id}/review", {"status": status})
    services.sync_templates()
    template.refresh_from_db()
    return template


def provider_report(sandbox, **params: Any) -> list[dict[str, Any]]:
    """Every record of the sandbox's delivery report (all pages), straight from the API."""
    info = sandbox.info
    records: list[dict[str, Any]] = []
    page = 1
    while True:
        response = requests.get(
            f"{info['sms_api_url']}/api/messages",
            params={**params, "page": page, "per_page": 100},
            headers={"Authorization": info["sms"]["token"]},
            timeout=30,
        )
        response.raise_for_status()
        batch = response.json()["messages"]
        records.extend(batch)
        if len(batch) < 100:
            return records
        page += 1


DRAFTS = {
    "code": {
        "title": "验证码",
        "temp_sign": "示例商城",
        "content": "您的验证码是{$var1}，5分钟内有效。",
        "sign_location": "top",
        "type": "industry",
        "report_type": "general",
    },
    "order": {
        "title": "发货通知",
        "temp_sign": "示例商城",
        "content": "{$var1}您好，订单{$var2}已发货。",
        "sign_location": "top",
        "type": "industry",
        "report_type": "general",
    },
    "plain": {
        "title": "活动通知",
        "temp_sign": "示例商城",
        "content": "周末全场8折，欢迎光临。退订回T",
        "sign_location": "bottom",
        "type": "marketing",
        "report_type": "general",
    },
}


@pytest.fixture(autouse=True)
def uploads_in_tmp(settings, tmp_path):
    """Imported files are kept with their campaign; keep the test ones out of var/."""
    settings.MEDIA_ROOT = tmp_path / "media"


def local_template(provider_id: int = 1, **changes: Any) -> Template:
    """An approved template in our database only (no sandbox): for tests of what we store."""
    fields: dict[str, Any] = {
        "title": "t", "temp_sign": "示例商城", "content": "码{$var1}", "sign_location": "top",
        "type": "industry", "report_type": "general", "status": "success",
        "provider_updated_at": timezone.now(),
    }
    return Template.objects.create(provider_id=provider_id, **{**fields, **changes})


@pytest.fixture
def sms_template(provider, db) -> Callable[..., Template]:
    """Creates a template at the sandbox through the back-office, approved unless told."""

    def make(kind: str = "code", status: str | None = "success", **changes: Any) -> Template:
        draft = rules.TemplateDraft(**{**DRAFTS[kind], **changes})
        template = services.create_template(draft)
        if status:
            template = review(provider, template, status)
        return template

    return make


@pytest.fixture
def operator(django_user_model):
    from django.contrib.auth.models import Group

    from backoffice.security.roles import setup_roles

    setup_roles()
    user = django_user_model.objects.create_user("operator", password="x", is_staff=True)
    user.groups.set(Group.objects.filter(name="SMS operators"))
    return user


@pytest.fixture
def auditor(django_user_model):
    from django.contrib.auth.models import Group

    from backoffice.security.roles import setup_roles

    setup_roles()
    user = django_user_model.objects.create_user("auditor", password="x", is_staff=True)
    user.groups.set(Group.objects.filter(name="Auditors"))
    return user


@pytest.fixture
def operator_client(client, operator):
    client.force_login(operator)
    return client


@pytest.fixture
def auditor_client(client, auditor):
    client.force_login(auditor)
    return client


def let_backoff_pass(campaign) -> None:
    """As if the backoff the last run asked for were over: the campaign's lease has run out."""
    from datetime import timedelta

    from django.utils import timezone

    from sms.models import Campaign

    Campaign.objects.filter(pk=campaign.pk).update(
        lease_expires_at=timezone.now() - timedelta(seconds=1)
    )


def let_grace_pass(campaign) -> None:
    """As if the calls still in doubt had been made long enough ago for the provider to have
    finished them: their numbers' `submitted_at` moves back by the reconcile grace period."""
    from datetime import timedelta

    from django.db.models import F

    from sms.models import Message, MessageStatus
    from sms.services.timing import reconcile_grace

    Message.objects.filter(campaign=campaign, status=MessageStatus.SUBMITTING).update(
        submitted_at=F("submitted_at") - reconcile_grace() - timedelta(seconds=1)
    )


def provider_send(sandbox, template: Template, mobiles: list[str], values: str = "") -> None:
    """Send straight to the provider's API, as another system of the merchant would: records
    the back-office knows nothing about."""
    info = sandbox.info
    for start in range(0, len(mobiles), 1000):
        response = requests.post(
            f"{info['sms_api_url']}/api/messages",
            json={
                "mobile": ",".join(mobiles[start : start + 1000]),
                "template_id": template.provider_id,
                "vars": values,
            },
            headers={"Authorization": info["sms"]["token"]},
            timeout=60,
        )
        response.raise_for_status()


@pytest.fixture
def fresh_figures(db):
    """Today's figures are cached for a minute, in Redis (which outlives a test's database) or
    in the database cache (whose table no test flush empties): start without them."""
    from sms.services.counts import forget_today

    forget_today()


def send_from_page(client, fields: dict[str, Any], **options: Any):
    """Preview, then send, as staff do on the send page: "send" confirms the previewed draft."""
    import re

    from django.urls import reverse

    preview = client.post(reverse("sms:send"), {**fields, "preview": "1"})
    found = re.search(r'name="draft" value="(\d+)"', preview.content.decode())
    assert found, "the preview stored no draft to send"
    return client.post(
        reverse("sms:send"), {**fields, "draft": found.group(1), "send": "1"}, **options
    )


def preview_on_the_send_page(
    page, live_server, template: Template, recipients: str = "13800138000\n13900139000"
) -> None:
    """In the browser: the send page with `recipients` typed and previewed, ready to send."""
    page.goto(f"{live_server.url}/sms/send/")
    page.select_option("#id_template", str(template.pk))
    page.fill("#id_recipients", recipients)
    page.fill("#id_var1", "123456")
    page.click("#preview")
    page.wait_for_selector("#send")


@pytest.fixture
def messages_table(db):
    """130 messages imported on one day and sent over the next three: 13800000000-13800000129,
    every fifth failed."""
    # The report's totals are kept per search in the shared cache for up to a minute; a count
    # another test made of the same search must not stand in for this table's.
    cache.clear()
    template = local_template()
    campaign = Campaign.objects.create(template=template, source="form", state="done")
    chunk = Chunk.objects.create(campaign=campaign, number=1, size=130, state="sent")
    day = timezone.make_aware(datetime(2026, 11, 10, 12, 0))
    Message.objects.bulk_create(
        [
            Message(
                campaign=campaign,
                chunk=chunk,
                mobile=f"138{n:08d}",
                text=f"【示例商城】码{n}",
                units=1,
                status="failed" if n % 5 == 0 else "success",
                provider_message_id=n + 1,
                created_at=day - timedelta(days=1),
                submitted_at=day + timedelta(days=n // 50),
            )
            for n in range(130)
        ]
    )
    return campaign
