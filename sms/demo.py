"""Demo data for `make run`: approved templates of each kind, a sample import file and a
few numbers on the suppression list.

Contract (backoffice load_demo_data): `load(stdout) -> None`, idempotent, talking to the
provider (the sandbox under `make run`) through `sms.services`. Templates are approved through
the sandbox's control API, which exists only in the sandbox.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

import requests
from django.conf import settings

from sms import rules, services
from sms.models import SuppressedNumber, SuppressionReason, Template, TemplateStatus

SAMPLE_IMPORT = Path(__file__).resolve().parent / "demo" / "sample_import.csv"

DEMO_TEMPLATES = (
    rules.TemplateDraft(
        title="验证码",
        temp_sign="示例商城",
        content="您的验证码是{$var1}，5分钟内有效，请勿泄露。",
        sign_location="top",
        type="industry",
        report_type="general",
    ),
    rules.TemplateDraft(
        title="发货通知",
        temp_sign="示例商城",
        content="{$var1}您好，您的订单{$var2}已发货，请留意查收。",
        sign_location="top",
        type="industry",
        report_type="vip",
    ),
    rules.TemplateDraft(
        title="会员日",
        temp_sign="示例商城",
        content="{$var1}您好，本周六会员日全场8折，详情见App。退订回T",
        sign_location="bottom",
        type="marketing",
        report_type="general",
    ),
    rules.TemplateDraft(
        title="新品上市",
        temp_sign="示例商城",
        content="新品上市，首单立减20元，打开App查看。退订回TD",
        sign_location="top",
        type="marketing",
        report_type="vip",
    ),
)


# Numbers of no demo file: the marketing templates skip them, the sample import is unchanged.
DEMO_SUPPRESSED = (
    ("13900139009", SuppressionReason.UNSUBSCRIBED, "回复TD"),
    ("18600186009", SuppressionReason.COMPLAINT, "demo"),
)


def _approve(control_url: str, template: Template) -> None:
    response = requests.post(
        f"{control_url.rstrip('/')}/sms/templates/{template.provider_id}/review",
        json={"status": TemplateStatus.SUCCESS},
        timeout=10,
    )
    response.raise_for_status()


def load(stdout: TextIO) -> None:
    """Create the demo templates that are missing, approve them, refresh statuses and quota."""
    services.sync_templates()
    control_url = settings.PROVIDER.get("sandbox_control_url")
    for draft in DEMO_TEMPLATES:
        template = Template.objects.filter(title=draft.title, removed_at__isnull=True).first()
        if template is None:
            template = services.create_template(draft)
            stdout.write(f"  template #{template.provider_id} {draft.title} created")
        if template.status != TemplateStatus.SUCCESS and control_url:
            _approve(control_url, template)
            stdout.write(f"  template #{template.provider_id} {draft.title} approved")
    services.sync_templates_and_quota()
    for mobile, reason, note in DEMO_SUPPRESSED:
        SuppressedNumber.objects.get_or_create(
            mobile=mobile, defaults={"reason": reason, "note": note}
        )
    stdout.write(f"  sample import file: {SAMPLE_IMPORT} (use it with the 发货通知 template)")
