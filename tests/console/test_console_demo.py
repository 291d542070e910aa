"""`make run`'s demo services: a second storage service and an own-origin CDN service, made at
the sandbox and recorded here (credentials sealed), with files and delivery settings of their
own; loading twice changes nothing, at the sandbox or here."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.db import connection

from console import demo
from console.models import Domain, Origin, Service, ServiceKind
from delivery import demo as delivery_demo
from delivery.models import DeliverySettings, ImageVersion, PublishedConfig, PublishStatus
from storage import demo as storage_demo
from storage.models import StoredFile, UploadTask
from tests.sandbox_process import SandboxProcess

pytestmark = pytest.mark.django_db

ORIGIN = "http://127.0.0.1:8999"


@pytest.fixture
def demo_provider(provider: SandboxProcess, settings: Any) -> SandboxProcess:
    settings.PROVIDER = {**settings.PROVIDER, "demo_origin_url": ORIGIN}
    return provider


@pytest.fixture
def media_root(settings: Any, tmp_path: Any) -> Any:
    """The uploads' local copies in the test's own directory."""
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def at_sandbox(sandbox: SandboxProcess) -> dict[str, dict[str, Any]]:
    listed = sandbox.control("GET", "/console/services").json()["services"]
    return {item["bucket_name"]: item for item in listed}


def stored_password(service: Service) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT operator_password FROM console_service WHERE id = %s",
                       [service.pk])
        return str(cursor.fetchone()[0])


def edge_port(sandbox: SandboxProcess) -> int:
    return int(sandbox.info["delivery_url"].rsplit(":", 1)[1])


def test_the_demo_makes_both_services_at_the_sandbox_and_records_them(
        demo_provider: SandboxProcess) -> None:
    out = io.StringIO()
    demo.load(out)
    held = at_sandbox(demo_provider)
    assert held[demo.VIDEOS]["business_type"] == "file"
    assert held[demo.VIDEOS]["domains"] == [demo.VIDEOS_DOMAIN]
    password = held[demo.VIDEOS]["operators"][demo.VIDEOS_OPERATOR]
    assert len(password) >= 20
    assert held[demo.SITE]["business_type"] == "cdn"
    assert held[demo.SITE]["origins"] == [{"address": ORIGIN, "weight": 10, "backup": False}]

    videos = Service.objects.get(name=demo.VIDEOS)
    assert (videos.kind, videos.operator) == (ServiceKind.STORAGE, demo.VIDEOS_OPERATOR)
    assert videos.operator_password == password
    assert password not in stored_password(videos)
    assert stored_password(videos).startswith("f1:")
    port = edge_port(demo_provider)
    assert Domain.objects.get(name=demo.VIDEOS_DOMAIN).base_url == (
        f"http://videos.sandbox.localhost:{port}")
    site = Service.objects.get(name=demo.SITE)
    assert site.kind == ServiceKind.CDN
    assert [(o.address, o.weight, o.backup) for o in site.origins.all()] == [(ORIGIN, 10, False)]
    assert Domain.objects.get(name=demo.SITE_DOMAIN).service == site
    # The environment's service stays the oldest, so it stays the default.
    oldest = Service.objects.order_by("created_at", "pk").first()
    assert oldest is not None and oldest.from_environment
    assert "demo-videos (videos.sandbox.localhost) added" in out.getvalue()


def test_loading_twice_changes_nothing_at_the_sandbox_or_here(
        demo_provider: SandboxProcess) -> None:
    demo.load(io.StringIO())
    before_sandbox = at_sandbox(demo_provider)
    before = {(s.name, s.operator, s.operator_password, s.updated_at)
              for s in Service.objects.all()}
    again = io.StringIO()
    demo.load(again)
    assert at_sandbox(demo_provider) == before_sandbox
    assert {(s.name, s.operator, s.operator_password, s.updated_at)
            for s in Service.objects.all()} == before
    assert (Domain.objects.count(), Origin.objects.count()) == (3, 1)
    assert "demo-videos (videos.sandbox.localhost) kept" in again.getvalue()
    assert f"demo-site (site.sandbox.localhost, origin {ORIGIN}) kept" in again.getvalue()


def test_a_database_made_afresh_takes_the_password_the_sandbox_holds(
        demo_provider: SandboxProcess) -> None:
    demo.load(io.StringIO())
    held = at_sandbox(demo_provider)[demo.VIDEOS]["operators"][demo.VIDEOS_OPERATOR]
    Domain.objects.exclude(from_environment=True).delete()
    Service.objects.exclude(from_environment=True).delete()
    demo.load(io.StringIO())
    assert Service.objects.get(name=demo.VIDEOS).operator_password == held


def test_without_the_sandbox_the_demo_says_why_and_makes_nothing(settings: Any) -> None:
    settings.PROVIDER = {**settings.PROVIDER, "sandbox_control_url": None}
    out = io.StringIO()
    demo.load(out)
    assert "no demo services: SANDBOX_CONTROL_URL and DELIVERY_URL are needed" in out.getvalue()
    assert not Service.objects.filter(name__in=[demo.VIDEOS, demo.SITE]).exists()


def test_without_a_demo_origin_the_cdn_service_is_skipped(provider: SandboxProcess) -> None:
    out = io.StringIO()
    demo.load(out)
    assert "demo-site skipped: DEMO_ORIGIN_URL is not set" in out.getvalue()
    assert demo.SITE not in at_sandbox(provider)
    assert Service.objects.filter(name=demo.VIDEOS).exists()


def test_the_second_bucket_gets_its_files_and_the_demo_domains_their_settings(
        demo_provider: SandboxProcess, media_root: Any) -> None:
    demo.load(io.StringIO())
    out = io.StringIO()
    storage_demo.load_videos(out)
    videos = Service.objects.get(name=demo.VIDEOS)
    assert set(StoredFile.objects.filter(service=videos, kind=StoredFile.Kind.FILE)
               .values_list("path", flat=True)) == {
        "/videos/posters/intro.jpg", "/videos/posters/trailer.png", "/videos/readme.txt"}
    assert UploadTask.objects.filter(service=videos, state=UploadTask.State.DONE).count() == 3
    storage_demo.load_videos(io.StringIO())
    assert UploadTask.objects.filter(service=videos).count() == 3

    delivery_demo.load(io.StringIO())
    videos_domain = Domain.objects.get(name=demo.VIDEOS_DOMAIN)
    assert DeliverySettings.objects.get(domain=videos_domain).cors_allow_origin == "*"
    assert ImageVersion.objects.get(domain=videos_domain).name == "poster"
    site_domain = Domain.objects.get(name=demo.SITE_DOMAIN)
    assert DeliverySettings.objects.get(domain=site_domain).html_minify
    published = PublishedConfig.objects.filter(status=PublishStatus.OK)
    assert set(published.values_list("domain__name", flat=True)) == {
        "127.0.0.1", demo.VIDEOS_DOMAIN, demo.SITE_DOMAIN}
    again = io.StringIO()
    delivery_demo.load(again)
    assert published.count() == 3
    assert f"{demo.SITE_DOMAIN} already published" in again.getvalue()
