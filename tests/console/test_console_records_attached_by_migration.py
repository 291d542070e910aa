"""A database from before services existed: its files, uploads, mirror runs, usage, jobs,
settings, versions, rule sets, purges and publications all belong, after the migrations, to
the service and domain of the environment's STORAGE_BUCKET and DELIVERY_URL; nothing is lost,
on the way to the latest schema too (every field kept, a rule set's rules, a purge's domains)."""

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


def latest_apps():
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    leaves = executor.loader.graph.leaf_nodes()
    executor.migrate(leaves)
    return executor.loader.project_state(leaves).apps


def make_full_old_records(apps) -> dict[str, int]:
    """One of each record kind, with content worth checking after the migrations; the user's
    primary key, for the rows that name who did it."""
    now = timezone.now()
    user = apps.get_model("auth", "User").objects.create(username="old-staff")
    apps.get_model("storage", "StoredFile").objects.create(
        path="/photos/a.jpg", parent="/photos", name="a.jpg", size=1234, md5="0" * 32,
        last_seen=now)
    apps.get_model("storage", "UploadTask").objects.create(
        source="/tmp/a", original_name="a.jpg", target_path="/photos/a.jpg", size=1234,
        state="done", result={"md5": "0" * 32})
    apps.get_model("storage", "SyncRun").objects.create(root="/photos", started_at=now,
                                                        state="completed", seen=2)
    apps.get_model("storage", "UsageSnapshot").objects.create(
        day=now.date(), used_bytes=1234, taken_at=now)
    apps.get_model("media", "ProcessingJob").objects.create(
        kind="snapshot", sources=["/videos/a.mp4"], state="succeeded")
    apps.get_model("delivery", "DeliverySettings").objects.create(pk=1, separator="_",
                                                                  cors_allow_origin="*")
    apps.get_model("delivery", "ImageVersion").objects.create(name="small", params="/fw/80")
    rule_set = apps.get_model("delivery", "RuleSet").objects.create(name="main",
                                                                    description="kept")
    for position, pattern in enumerate(("^/a$", "^/b$"), start=1):
        apps.get_model("delivery", "Rule").objects.create(
            rule_set=rule_set, position=position, pattern=pattern, rule="/c", debug=False)
    apps.get_model("delivery", "PurgeRequest").objects.create(
        source="manual", urls="http://img.example.com/a.jpg", url_count=1, status="sent",
        requested_by=user)
    apps.get_model("delivery", "PublishedConfig").objects.create(
        rule_set=rule_set, rule_set_name="main", target="edge", config={"rules": []},
        status="ok", answer={"ok": True}, published_by=user)
    return {"user": user.pk}


@pytest.mark.django_db(transaction=True)
def test_a_single_service_database_reaches_the_latest_schema_with_nothing_lost(settings):
    settings.PROVIDER = {**settings.PROVIDER,
                         "storage": {**settings.PROVIDER["storage"], "bucket": "shop-images"},
                         "delivery": {**settings.PROVIDER["delivery"],
                                      "delivery_url": "https://img.example.com"}}
    try:
        made = make_full_old_records(migrate(BEFORE))
    finally:
        apps = latest_apps()
    service = apps.get_model("console", "Service").objects.get()
    domain = apps.get_model("console", "Domain").objects.get()
    model = apps.get_model

    stored = model("storage", "StoredFile").objects.get()
    assert (stored.service_id, stored.path, stored.size) == (service.pk, "/photos/a.jpg", 1234)
    upload = model("storage", "UploadTask").objects.get()
    assert (upload.service_id, upload.state, upload.target_path, upload.result) == (
        service.pk, "done", "/photos/a.jpg", {"md5": "0" * 32})
    run = model("storage", "SyncRun").objects.get()
    assert (run.service_id, run.root, run.state, run.seen) == (
        service.pk, "/photos", "completed", 2)
    usage = model("storage", "UsageSnapshot").objects.get()
    assert (usage.service_id, usage.used_bytes) == (service.pk, 1234)
    job = model("media", "ProcessingJob").objects.get()
    assert (job.service_id, job.kind, job.sources, job.state) == (
        service.pk, "snapshot", ["/videos/a.mp4"], "succeeded")

    delivery_settings = model("delivery", "DeliverySettings").objects.get()
    assert (delivery_settings.domain_id, delivery_settings.separator,
            delivery_settings.cors_allow_origin) == (domain.pk, "_", "*")
    version = model("delivery", "ImageVersion").objects.get()
    assert (version.domain_id, version.name, version.params) == (domain.pk, "small", "/fw/80")
    rule_set = model("delivery", "RuleSet").objects.get()
    assert (rule_set.domain_id, rule_set.name, rule_set.description) == (
        domain.pk, "main", "kept")
    assert list(model("delivery", "Rule").objects.filter(rule_set=rule_set)
                .order_by("position").values_list("pattern", flat=True)) == ["^/a$", "^/b$"]
    purge = model("delivery", "PurgeRequest").objects.get()
    assert (purge.domain_id, purge.urls, purge.status, purge.requested_by_id) == (
        domain.pk, "http://img.example.com/a.jpg", "sent", made["user"])
    assert [touched.pk for touched in purge.domains.all()] == [domain.pk]
    published = model("delivery", "PublishedConfig").objects.get()
    assert (published.domain_id, published.rule_set_id, published.rule_set_name,
            published.config, published.status, published.answer,
            published.published_by_id) == (
        domain.pk, rule_set.pk, "main", {"rules": []}, "ok", {"ok": True}, made["user"])
