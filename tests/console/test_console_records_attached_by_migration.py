"""A database from before services existed: its files, uploads, mirror runs, usage, jobs,
settings, versions, rule sets, purges and publications all belong, after the migrations, to
the service and domain of the environment's STORAGE_BUCKET and DELIVERY_URL; nothing is lost."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [("storage", "0005_forget_kept_files_in_mirror"), ("delivery", "0002_delivery_records"),
          ("media", "0003_error_kind_not_media")]
AFTER = [("storage", "0007_attach_to_the_configured_service"),
         ("delivery", "0004_attach_to_the_configured_domain"),
         ("media", "0005_attach_to_the_configured_service")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture(autouse=True)
def latest_schema_afterwards():
    """Later tests need the whole schema back, whatever happened here."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def make_old_records(apps) -> None:
    now = timezone.now()
    apps.get_model("storage", "StoredFile").objects.create(
        path="/a.jpg", parent="/", name="a.jpg", last_seen=now)
    apps.get_model("storage", "UploadTask").objects.create(
        source="/tmp/a", original_name="a.jpg", target_path="/a.jpg", size=1)
    apps.get_model("storage", "SyncRun").objects.create(root="/", started_at=now)
    apps.get_model("storage", "UsageSnapshot").objects.create(
        day=now.date(), used_bytes=5, taken_at=now)
    apps.get_model("media", "ProcessingJob").objects.create(kind="image", sources=["/a.jpg"])
    apps.get_model("delivery", "DeliverySettings").objects.create(pk=1, token_protection=True)
    apps.get_model("delivery", "ImageVersion").objects.create(name="small", params="/fw/80")
    rule_set = apps.get_model("delivery", "RuleSet").objects.create(name="main")
    apps.get_model("delivery", "PurgeRequest").objects.create(
        source="manual", urls="http://img.example.com/a.jpg", url_count=1)
    apps.get_model("delivery", "PublishedConfig").objects.create(
        rule_set=rule_set, target="edge", config={})


@pytest.mark.django_db(transaction=True)
def test_every_record_of_a_single_service_database_joins_the_configured_service(settings):
    settings.PROVIDER = {**settings.PROVIDER,
                         "storage": {**settings.PROVIDER["storage"], "bucket": "shop-images"},
                         "delivery": {**settings.PROVIDER["delivery"],
                                      "delivery_url": "https://img.example.com"}}
    try:
        make_old_records(migrate(BEFORE))
    finally:
        apps = migrate(AFTER)
    service = apps.get_model("console", "Service").objects.get()
    domain = apps.get_model("console", "Domain").objects.get()
    assert (service.name, service.kind, service.from_environment) == ("shop-images", "file", True)
    assert (domain.name, domain.service_id, domain.from_environment) == (
        "img.example.com", service.pk, True)
    for app, model in [("storage", "StoredFile"), ("storage", "UploadTask"),
                       ("storage", "SyncRun"), ("storage", "UsageSnapshot"),
                       ("media", "ProcessingJob")]:
        rows = apps.get_model(app, model).objects.all()
        assert [row.service_id for row in rows] == [service.pk], model
    for model in ["DeliverySettings", "ImageVersion", "RuleSet", "PurgeRequest",
                  "PublishedConfig"]:
        rows = apps.get_model("delivery", model).objects.all()
        assert [row.domain_id for row in rows] == [domain.pk], model
    assert apps.get_model("delivery", "DeliverySettings").objects.get().token_protection


@pytest.mark.django_db(transaction=True)
def test_an_empty_database_gets_no_service_from_the_migrations():
    migrate(BEFORE)
    apps = migrate(AFTER)
    assert not apps.get_model("console", "Service").objects.exists()
