"""Management commands for scripting: send to numbers, import a file, sync reports."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from sms.models import Campaign, CampaignState, MessageStatus
from tests.sms.conftest import provider_report, sandbox_settings

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_sms_send_sends_and_prints_each_result(provider, sms_template):
    template = sms_template()

    output = run(
        "sms_send",
        "--template",
        str(template.provider_id),
        "--mobile",
        "13800138000,13900139000",
        "--var",
        "4321",
    )

    assert output.count("processing (provider message") == 2
    assert sorted(r["mobile"] for r in provider_report(provider)) == ["13800138000", "13900139000"]
    assert Campaign.objects.get().source == "command"


def test_sms_send_refuses_bad_numbers_and_sends_nothing(provider, sms_template):
    template = sms_template()

    with pytest.raises(CommandError, match="1 number"):
        run("sms_send", "--template", str(template.provider_id), "--mobile", "12345", "--var", "1")
    assert provider_report(provider) == []


def test_sms_send_names_an_unknown_template(provider):
    with pytest.raises(CommandError, match="no template #404"):
        run("sms_send", "--template", "404", "--mobile", "13800138000")


def test_sms_import_checks_then_sends_with_confirm(provider, sms_template, tmp_path: Path):
    template = sms_template("order")
    path = tmp_path / "list.csv"
    path.write_bytes("13800138000,张三,SO1\n12345,李四,SO2\n".encode("gbk"))

    checked = run("sms_import", str(path), "--template", str(template.provider_id))
    assert "1 numbers" in checked and "line 2:" in checked and "not sent" in checked
    assert Campaign.objects.get().state == CampaignState.DRAFT

    sent = run(
        "sms_import", str(path), "--template", str(template.provider_id), "--confirm", "--now"
    )
    assert "1 accepted" in sent
    assert [r["mobile"] for r in provider_report(provider)] == ["13800138000"]


def test_sms_import_refuses_an_unreadable_file(provider, sms_template, tmp_path: Path):
    template = sms_template("order")
    path = tmp_path / "list.csv"
    path.write_bytes(b"PK\x03\x04zip")

    with pytest.raises(CommandError, match="Excel workbook"):
        run("sms_import", str(path), "--template", str(template.provider_id))
    assert not Campaign.objects.exists()


def test_sms_sync_reports_moves_messages_to_final(provider, sms_template):
    sandbox_settings(provider, delivery_delay_s=5)
    template = sms_template()
    run(
        "sms_send", "--template", str(template.provider_id), "--mobile", "13800138000", "--var", "1"
    )
    provider.advance(6)

    output = run("sms_sync_reports")

    assert "moved 1 (success: 1)" in output
    assert Campaign.objects.get().messages.get().status == MessageStatus.SUCCESS


def test_sms_sync_templates_reports_counts_and_quota(provider, sms_template):
    sms_template()

    output = run("sms_sync_templates")

    assert "0 new, 1 updated" in output and "quota: general" in output


def test_sms_send_leaves_out_suppressed_numbers_and_says_so(provider, sms_template):
    from sms.models import SuppressedNumber

    template = sms_template("plain")
    SuppressedNumber.objects.create(mobile="13800138000", reason="complaint")
    errors = StringIO()

    call_command(
        "sms_send", "--template", str(template.provider_id), "--mobile",
        "13800138000,13900139000", stdout=StringIO(), stderr=errors,
    )
    with pytest.raises(CommandError, match="every number given is on the suppression list"):
        run("sms_send", "--template", str(template.provider_id), "--mobile", "13800138000")

    assert "13800138000 is on the suppression list (Complaint)" in errors.getvalue()
    assert [r["mobile"] for r in provider_report(provider)] == ["13900139000"]


def test_sms_import_counts_suppressed_lines(provider, sms_template, tmp_path: Path):
    from sms.models import SuppressedNumber

    template = sms_template("plain")
    SuppressedNumber.objects.create(mobile="13800138000", reason="unsubscribed")
    path = tmp_path / "list.csv"
    path.write_bytes(b"13800138000\n13900139000\n")

    checked = run("sms_import", str(path), "--template", str(template.provider_id))

    assert "1 numbers" in checked and "1 suppressed (not sent)" in checked
    assert "line 1: 13800138000 is on the suppression list (Unsubscribed)" in checked
