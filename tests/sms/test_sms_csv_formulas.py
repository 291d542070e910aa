"""CSV exports cannot carry spreadsheet formulas: a cell that a spreadsheet would run (it
starts with = + - @, a tab or a carriage return) is written with a leading apostrophe, so the
delivery report and the bad-lines list open as plain text whatever the provider or the import
file put in them."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from django.urls import reverse

from sms import services
from sms.models import Campaign, Chunk, Message, Template
from tests.sms.conftest import local_template

pytestmark = pytest.mark.django_db

FORMULA = '=HYPERLINK("http://evil.example","x")'
DANGEROUS_STARTS = ("=", "+", "-", "@", "\t", "\r")


def rows_of(response) -> list[list[str]]:
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    return list(csv.reader(text.splitlines()))


def dangerous(cells: list[str]) -> list[str]:
    return [cell for cell in cells if cell.startswith(DANGEROUS_STARTS)]


@pytest.fixture
def template(db) -> Template:
    return local_template(sign_location="bottom")


def test_the_delivery_report_export_neutralises_formulas(auditor_client, template):
    campaign = Campaign.objects.create(template=template, source="form", state="done")
    chunk = Chunk.objects.create(campaign=campaign, number=1, size=1, state="sent")
    Message.objects.create(
        campaign=campaign,
        chunk=chunk,
        mobile="13800138000",
        text=FORMULA,
        units=1,
        status="@SUM(1)",
        error_code="+1",
    )

    rows = rows_of(auditor_client.get(reverse("sms:report_csv")))

    assert len(rows) == 2
    assert "'" + FORMULA in rows[1] and "'@SUM(1)" in rows[1] and "'+1" in rows[1]
    assert dangerous(rows[1]) == []


def test_the_bad_lines_export_neutralises_formulas(auditor_client, template, tmp_path: Path):
    path = tmp_path / "list.csv"
    path.write_text("=1+1,a\n-2,b\n@x,c\n13800138000,d\n", encoding="utf-8")
    campaign = services.store_import(template, path, "list.csv")

    response = auditor_client.get(reverse("sms:campaign_problems_csv", args=[campaign.pk]))

    rows = rows_of(response)[1:]
    assert [row[1] for row in rows] == ["'=1+1", "'-2", "'@x"]
    assert not [row for row in rows if dangerous(row)]
