"""The billing rule as staff see it before sending: 70, 71, 134, 135, 350 and 351 characters.

A message costs one unit up to 70 characters (signature and its brackets included), then
ceil(length / 67) units; above 350 it cannot be sent at all.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.sms.conftest import provider_report, send_from_page

pytestmark = pytest.mark.django_db

SIGN = "示例商城"  # 4 characters + 2 brackets = 6 billed
FIXED = "码"  # the template's own text besides the variable

CASES = [(70, 1), (71, 2), (134, 2), (135, 3), (350, 6)]


def value_for(length: int) -> str:
    return "好" * (length - len(SIGN) - 2 - len(FIXED))


@pytest.fixture
def template(sms_template):
    return sms_template(content=FIXED + "{$var1}", temp_sign=SIGN)


def preview(client, template, value: str) -> str:
    response = client.post(
        reverse("sms:send"),
        {"template": template.pk, "recipients": "13800138000", "var1": value, "preview": "1"},
    )
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize(("length", "units"), CASES)
def test_the_send_preview_bills_each_length(operator_client, template, length, units):
    page = preview(operator_client, template, value_for(length))

    row = re.search(r'<table class="plain sms-table" id="good-lines">.*?</table>', page, re.S)
    assert row is not None
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(0), re.S)
    text, shown_units = cells[2], cells[3]
    assert len(text) == length
    assert int(shown_units) == units
    assert re.search(rf'data-total="units">{units}<', page)


def test_351_characters_cannot_be_sent(operator_client, template):
    page = preview(operator_client, template, value_for(351))

    assert 'id="bad-lines"' in page
    assert "351 characters" in page
    assert 'id="send"' not in page


def test_the_template_check_counts_units_with_sample_values(operator_client, template):
    for length, units in CASES:
        response = operator_client.post(
            reverse("sms:template_check"),
            {
                "title": "t",
                "temp_sign": SIGN,
                "content": FIXED + "{$var1}",
                "sign_location": "top",
                "type": "industry",
                "report_type": "general",
                "sample1": value_for(length),
            },
        )
        assert response.json()["preview"]["units"] == units, length


def test_the_provider_bills_what_the_preview_said(operator_client, template, provider):
    for length, _units in CASES:
        send_from_page(
            operator_client,
            {"template": template.pk, "recipients": "13800138000", "var1": value_for(length)},
        )

    quantities = sorted(record["quantity"] for record in provider_report(provider))
    assert quantities == sorted(units for _length, units in CASES)
