"""With `FILE_STORAGE=bucket`, an SMS import's kept file is private (random name, content
secret: its edge URL is refused) and the import still reads it back and works end to end;
files kept before this release are moved to the private form and their rows follow, with
nothing lost."""

from __future__ import annotations

import io
import re

import pytest
import requests
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from sms import services
from sms.models import Campaign, CampaignState, SuppressedNumber, SuppressionImport
from storage.client import StorageClient

pytestmark = pytest.mark.django_db

ROWS = "手机号,姓名,订单号\r\n13800138000,张三,SO1\r\n13900139000,李四,SO2\r\n"
RANDOM = r"[A-Za-z0-9_-]{32}\.csv"


@pytest.fixture
def bucket(settings, provider):
    settings.FILE_STORAGE_FOLDER = "/backoffice-private"
    settings.STORAGES = {**settings.STORAGES, "default": {
        "BACKEND": "storage.services.file_storage.BucketStorage"}}


@pytest.fixture
def sandbox_storage(provider) -> StorageClient:
    """A plain client on the sandbox's bucket: the provider's side, as an attacker's is not."""
    info = provider.info
    return StorageClient(info["storage_url"], info["storage"]["bucket"],
                         info["storage"]["operator"], info["storage"]["password"])


def edge_status(provider, path: str) -> int:
    base = provider.info["delivery_url"].rstrip("/")
    return requests.get(base + path, timeout=30, allow_redirects=False).status_code


def test_an_imported_campaign_file_is_private_and_the_import_works(
    bucket, provider, operator_client, sms_template, sandbox_storage,
    django_capture_on_commit_callbacks,
):
    template = sms_template("order")
    operator_client.post(reverse("sms:import"), {
        "template": template.pk,
        "file": SimpleUploadedFile("客户 13800138000.csv", ROWS.encode())}, follow=True)
    campaign = Campaign.objects.get()
    assert campaign.source_name == "客户 13800138000.csv"  # staff still see the name they sent
    assert re.fullmatch(f"sms/imports/{RANDOM}", campaign.source_file.name)
    assert campaign.file_is_private and campaign.total_units == 2
    assert edge_status(provider, f"/backoffice-private/{campaign.source_file.name}") == 404
    with django_capture_on_commit_callbacks(execute=False):
        operator_client.post(reverse("sms:campaign_confirm", args=[campaign.pk]))
    campaign.refresh_from_db()
    assert campaign.state == CampaignState.QUEUED


def test_a_suppression_file_is_private_and_read_back_on_confirmation(
    bucket, provider, operator_client
):
    operator_client.post(reverse("sms:suppression_import"), {
        "file": SimpleUploadedFile("numbers.csv", b"13800138000\r\n13900139000\r\n"),
        "reason": "unsubscribed"}, follow=True)
    pending = SuppressionImport.objects.get()
    assert re.fullmatch(f"sms/suppression/{RANDOM}", pending.source_file.name)
    assert edge_status(provider, f"/backoffice-private/{pending.source_file.name}") == 404
    operator_client.post(reverse("sms:suppression_import_confirm", args=[pending.pk]))
    assert set(SuppressedNumber.objects.values_list("mobile", flat=True)) == {
        "13800138000", "13900139000"}


def _legacy(sandbox_storage, model, name: str, content: bytes, **fields):
    """A row as an earlier release left it: the uploaded name, no secret, not yet private."""
    sandbox_storage.upload(f"/backoffice-private/{name}", io.BytesIO(content))
    row = model.objects.create(source_file=name, source_name=name.rsplit("/", 1)[-1], **fields)
    model.objects.filter(pk=row.pk).update(file_is_private=False)
    return row


def test_files_kept_before_are_made_private_and_their_rows_follow(
    bucket, provider, sandbox_storage, sms_template, operator_client
):
    old_campaign = "sms/imports/客户 list.csv"
    old_pending = "sms/suppression/optout.csv"
    campaign = _legacy(sandbox_storage, Campaign, old_campaign, ROWS.encode(),
                       template=sms_template("order"), source="import", encoding="utf-8")
    pending = _legacy(sandbox_storage, SuppressionImport, old_pending, b"13800138000\r\n",
                      encoding="utf-8", reason="unsubscribed", lines_read=1, new_numbers=1)
    assert edge_status(provider, "/backoffice-private/sms/suppression/optout.csv") == 200

    assert services.secure_kept_files() == 2

    campaign.refresh_from_db()
    pending.refresh_from_db()
    assert re.fullmatch(f"sms/imports/{RANDOM}", campaign.source_file.name)
    assert re.fullmatch(f"sms/suppression/{RANDOM}", pending.source_file.name)
    assert campaign.file_is_private and pending.file_is_private
    for old in (old_campaign, old_pending):
        assert not sandbox_storage.exists(f"/backoffice-private/{old}")
    for row in (campaign, pending):
        assert edge_status(provider, f"/backoffice-private/{row.source_file.name}") == 404
    with campaign.source_file.open("rb") as kept:
        assert kept.read() == ROWS.encode()  # nothing lost
    # Idempotent: nothing left to do, nothing moves again.
    names = (campaign.source_file.name, pending.source_file.name)
    assert services.secure_kept_files() == 0
    campaign.refresh_from_db()
    pending.refresh_from_db()
    assert (campaign.source_file.name, pending.source_file.name) == names
    # The moved suppression file is still read back on confirmation.
    operator_client.post(reverse("sms:suppression_import_confirm", args=[pending.pk]))
    assert SuppressedNumber.objects.filter(mobile="13800138000").exists()


def test_a_kept_file_already_gone_only_settles_its_row(bucket, provider, sandbox_storage,
                                                        sms_template):
    row = _legacy(sandbox_storage, Campaign, "sms/imports/gone.csv", b"x",
                  template=sms_template("order"), source="import")
    sandbox_storage.delete("/backoffice-private/sms/imports/gone.csv")
    services.secure_kept_files()
    row.refresh_from_db()
    assert row.file_is_private and row.source_file.name == "sms/imports/gone.csv"


def test_with_local_storage_rows_are_only_marked(settings, tmp_path, sms_template):
    settings.MEDIA_ROOT = tmp_path
    (tmp_path / "sms" / "imports").mkdir(parents=True)
    (tmp_path / "sms" / "imports" / "old.csv").write_bytes(b"13800138000\n")
    row = Campaign.objects.create(template=sms_template("order"), source="import",
                                  source_file="sms/imports/old.csv")
    Campaign.objects.filter(pk=row.pk).update(file_is_private=False)
    services.secure_kept_files()
    row.refresh_from_db()
    assert row.file_is_private and row.source_file.name == "sms/imports/old.csv"


@pytest.mark.django_db(transaction=True)
def test_the_migration_marks_rows_holding_a_file_as_not_yet_private():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = [("sms", "0007_invalid_numbers_index")], [("sms", "0008_kept_files_private")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    template = old.get_model("sms", "Template").objects.create(
        provider_id=1, title="t", temp_sign="s", content="c", sign_location="prefix",
        type="code", report_type="sms", status="success", provider_updated_at=timezone.now())
    Campaign_ = old.get_model("sms", "Campaign")
    with_file = Campaign_.objects.create(template=template, source="import",
                                         source_file="sms/imports/a.csv")
    without = Campaign_.objects.create(template=template, source="form")
    pending = old.get_model("sms", "SuppressionImport").objects.create(
        source_file="sms/suppression/b.csv", encoding="utf-8", reason="unsubscribed")

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    flags = dict(new.get_model("sms", "Campaign").objects.values_list("pk", "file_is_private"))
    assert flags == {with_file.pk: False, without.pk: True}
    assert not new.get_model("sms", "SuppressionImport").objects.get(pk=pending.pk).file_is_private
    # Back to the latest state for the tests that follow.
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
