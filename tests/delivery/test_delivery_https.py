"""The HTTPS page against the real sandbox: a certificate chain is checked, uploaded to the
console and stored with its key sealed; bound to a domain and published, the sandbox edge's
HTTPS port serves it by SNI to a client that trusts the test CA; HTTPS access off refuses the
handshake; forced HTTPS answers plain HTTP with a 301. Every bad upload is refused with its
reason and stores nothing, and the daily job warns 30 and 7 days before a bound certificate
expires."""

from __future__ import annotations

import logging
import socket
import ssl
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import time_machine
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from prometheus_client import REGISTRY

from backoffice.models import AuditEntry
from console.models import Domain
from console.services import console_client, default_domain
from delivery import dashboard, services
from delivery.models import Certificate, DeliverySettings, PublishStatus
from tests.certificates import TestCA
from tests.delivery.conftest import Edge

pytestmark = pytest.mark.django_db
SHOP = "shop.sandbox.localhost"


@pytest.fixture(scope="module")
def ca() -> TestCA:
    return TestCA()


@pytest.fixture
def shop(edge: Edge) -> Domain:
    """A second domain of the environment's bucket, bound at the console, with its own name
    (the environment's domain is an address, which no certificate names)."""
    main = default_domain()
    console_client().bind_domain(main.service.name, SHOP)
    port = urlsplit(edge.base_url).port
    return Domain.objects.create(service=main.service, name=SHOP,
                                 base_url=f"http://{SHOP}:{port}", token_secret="shop-secret")


def https_get(edge: Edge, ca_file: Path, name: str, path: str) -> bytes:
    port = urlsplit(edge.sandbox.info["delivery_https_url"]).port
    context = ssl.create_default_context(cafile=str(ca_file))
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw, \
            context.wrap_socket(raw, server_hostname=name) as tls:
        tls.sendall(f"GET {path} HTTP/1.1\r\nHost: {name}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := tls.recv(65536):
            answer += chunk
    return answer


def console_certificates(edge: Edge) -> list[Any]:
    from tests.sandbox.test_console_support import Console

    return Console(edge.sandbox).get("/https/certificate/").json()["certificates"]


def upload_page(client: Any, chain: str, key: str) -> Any:
    return client.post(reverse("delivery:https"), {"action": "upload", "certificate": chain,
                                                   "private_key": key})


def bind_page(client: Any, certificate: Certificate | None, *, access: bool,
              force: bool) -> Any:
    data: dict[str, Any] = {"action": "bind",
                            "certificate": certificate.pk if certificate else ""}
    if access:
        data["https_access"] = "on"
    if force:
        data["force_https"] = "on"
    return client.post(reverse("delivery:https"), data)


def test_an_upload_is_shown_with_its_names_and_stores_the_key_sealed(
        manager_client: Any, edge: Edge, ca: TestCA) -> None:
    leaf = ca.leaf(SHOP, "*.shop.sandbox.localhost", days=90)
    answer = upload_page(manager_client, leaf.chain, leaf.key)
    assert answer.status_code == 302
    stored = Certificate.objects.get()
    assert stored.names == [SHOP, "*.shop.sandbox.localhost"]
    assert stored.subject == f"CN={SHOP},O=Test CA Ltd"
    assert stored.issuer == "CN=Test Intermediate CA,O=Test CA Ltd"
    assert stored.private_key == leaf.key
    with connection.cursor() as cursor:
        cursor.execute("SELECT private_key FROM delivery_certificate")
        raw = cursor.fetchone()[0]
    assert raw.startswith("f1:") and "PRIVATE KEY" not in raw
    assert [row["certificate_id"] for row in console_certificates(edge)] == \
        [stored.certificate_id]
    page = manager_client.get(reverse("delivery:https")).content.decode()
    for shown in (stored.subject, stored.issuer, stored.fingerprint, "*.shop.sandbox.localhost",
                  timezone.localtime(stored.not_after).strftime("%Y-%m-%d")):
        assert shown in page
    assert 'data-days="89"' in page
    assert AuditEntry.objects.filter(action="certificate.upload").exists()


def test_a_bound_certificate_is_served_by_sni_after_publish(
        shop: Domain, edge: Edge, ca: TestCA, tmp_path: Path, manager_client: Any) -> None:
    edge.upload("/hello.txt", b"over tls")
    leaf = ca.leaf(SHOP)
    certificate = services.upload_certificate(leaf.chain, leaf.key, None)
    services.save_https(shop, services.HttpsChoice(certificate, True, True), None)
    record = services.publish(user=None, domain=shop, rule_set=None)
    assert record.status == PublishStatus.OK, record.answers
    answer = https_get(edge, ca.write_root(tmp_path), SHOP, "/hello.txt")
    assert answer.startswith(b"HTTP/1.0 200") and answer.endswith(b"over tls")
    plain = edge.get("/hello.txt", headers={"Host": SHOP})
    assert plain.status_code == 301 and plain.headers["Location"] == f"https://{SHOP}/hello.txt"


def test_a_domain_with_https_access_off_refuses_the_handshake(
        shop: Domain, edge: Edge, ca: TestCA, tmp_path: Path) -> None:
    leaf = ca.leaf(SHOP)
    certificate = services.upload_certificate(leaf.chain, leaf.key, None)
    services.save_https(shop, services.HttpsChoice(certificate, False, False), None)
    assert services.publish(user=None, domain=shop, rule_set=None).status == PublishStatus.OK
    with pytest.raises(ssl.SSLError, match="UNRECOGNIZED_NAME|unrecognized name"):
        https_get(edge, ca.write_root(tmp_path), SHOP, "/hello.txt")
    edge.upload("/hello.txt", b"plain")
    assert edge.get("/hello.txt", headers={"Host": SHOP}).content == b"plain"


def bad_uploads(ca: TestCA) -> list[tuple[str, str, str, str]]:
    leaf = ca.leaf(SHOP)
    expired = ca.leaf(SHOP, days=-1, started_days_ago=90)
    early = ca.leaf(SHOP, days=90, started_days_ago=-2)
    return [
        ("hello", leaf.key, "certificate", "is not PEM"),
        (leaf.chain, "hello", "private_key", "is not PEM"),
        (leaf.chain, ca.other_key(), "private_key", "does not match"),
        (leaf.out_of_order, leaf.key, "certificate", "out of order"),
        (expired.chain, expired.key, "certificate", "expired on"),
        (early.chain, early.key, "certificate", "not valid before"),
    ]


def test_every_bad_upload_is_refused_with_its_reason_and_nothing_is_stored(
        manager_client: Any, edge: Edge, ca: TestCA) -> None:
    for chain, key, field, reason in bad_uploads(ca):
        answer = upload_page(manager_client, chain, key)
        assert answer.status_code == 200
        form = answer.context["upload_form"]
        assert reason in " ".join(form.errors[field]), (field, form.errors)
    assert not Certificate.objects.exists()
    assert console_certificates(edge) == []


def test_a_file_upload_reads_the_pem_and_a_binary_file_is_refused(
        manager_client: Any, edge: Edge, ca: TestCA) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    leaf = ca.leaf(SHOP)
    answer = manager_client.post(reverse("delivery:https"), {
        "action": "upload",
        "certificate_file": SimpleUploadedFile("chain.pem", leaf.chain.encode()),
        "private_key_file": SimpleUploadedFile("key.der", b"\x30\x82\xff\xfe")})
    assert "not PEM text" in " ".join(answer.context["upload_form"].errors["private_key"])
    answer = manager_client.post(reverse("delivery:https"), {
        "action": "upload",
        "certificate_file": SimpleUploadedFile("chain.pem", leaf.chain.encode()),
        "private_key_file": SimpleUploadedFile("key.pem", leaf.key.encode())})
    assert answer.status_code == 302 and Certificate.objects.count() == 1


def test_binding_refuses_names_that_miss_the_domain_and_forced_https_without_access(
        shop: Domain, manager_client: Any, ca: TestCA) -> None:
    other = ca.leaf("www.example.com", "*.sandbox.example.com")
    certificate = services.upload_certificate(other.chain, other.key, None)
    manager_client.post(reverse("delivery:choose_domain"), {"domain": shop.pk,
                                                            "next": reverse("delivery:https")})
    answer = bind_page(manager_client, certificate, access=True, force=False)
    assert "do not cover shop.sandbox.localhost" in " ".join(
        answer.context["https_form"].errors["certificate"])
    answer = bind_page(manager_client, None, access=False, force=True)
    assert "needs HTTPS access" in " ".join(answer.context["https_form"].errors["force_https"])
    answer = bind_page(manager_client, None, access=True, force=False)
    assert "needs a certificate" in " ".join(answer.context["https_form"].errors["https_access"])
    row = DeliverySettings.for_domain(shop)
    assert (row.https_certificate, row.https_access, row.force_https) == (None, False, False)
    wildcard = ca.leaf("*.sandbox.localhost")
    good = services.upload_certificate(wildcard.chain, wildcard.key, None)
    assert bind_page(manager_client, good, access=True, force=True).status_code == 302
    row.refresh_from_db()
    assert (row.https_certificate, row.https_access, row.force_https) == (good, True, True)
    assert AuditEntry.objects.filter(action="certificate.bind").exists()


def test_a_bound_certificate_cannot_be_deleted_an_unbound_one_can(
        shop: Domain, ca: TestCA, manager_client: Any) -> None:
    leaf = ca.leaf(SHOP)
    certificate = services.upload_certificate(leaf.chain, leaf.key, None)
    services.save_https(shop, services.HttpsChoice(certificate, True, False), None)
    delete = {"action": "delete", "certificate": certificate.pk}
    page = manager_client.post(reverse("delivery:https"), delete, follow=True)
    assert SHOP in page.content.decode() and Certificate.objects.exists()
    services.save_https(shop, services.HttpsChoice(None, False, False), None)
    manager_client.post(reverse("delivery:https"), delete)
    assert not Certificate.objects.exists()
    assert AuditEntry.objects.filter(action="certificate.delete").exists()


def test_an_auditor_reads_the_page_and_changes_nothing(auditor_client: Any, ca: TestCA,
                                                       provider: Any) -> None:
    leaf = ca.leaf(SHOP)
    page = auditor_client.get(reverse("delivery:https")).content.decode()
    assert 'id="dl-read-only"' in page and 'id="dl-upload-form"' not in page
    assert upload_page(auditor_client, leaf.chain, leaf.key).status_code == 403
    assert not Certificate.objects.exists()


def warnings_counted(days: int) -> float:
    return REGISTRY.get_sample_value("backoffice_delivery_certificate_warnings_total",
                                     {"days": str(days)}) or 0.0


def test_the_daily_job_warns_30_and_7_days_before_a_bound_certificate_expires(
        shop: Domain, ca: TestCA, manager: Any, caplog: pytest.LogCaptureFixture) -> None:
    leaf = ca.leaf(SHOP, days=60)
    certificate = services.upload_certificate(leaf.chain, leaf.key, None)
    services.save_https(shop, services.HttpsChoice(certificate, True, False), None)
    before_30, before_7 = warnings_counted(30), warnings_counted(7)
    assert services.warn_expiring_certificates() == []
    start = timezone.now()
    caplog.set_level(logging.WARNING, logger="delivery.services.certificates")
    with time_machine.travel(start + timedelta(days=31), tick=False):
        assert services.warn_expiring_certificates() == [certificate]
        assert services.warn_expiring_certificates() == []  # once
        assert services.certificate_days_left() == {SHOP: 28}
        notices = [figure.value for figure in dashboard.certificate_notices()]
        assert notices == [f"expires in 28 days: {SHOP}"]
    assert warnings_counted(30) == before_30 + 1
    assert "the 30-day warning" in caplog.text and SHOP in caplog.text
    with time_machine.travel(start + timedelta(days=54), tick=False):
        assert services.warn_expiring_certificates() == [certificate]
        assert services.warn_expiring_certificates() == []
        assert [figure.value for figure in dashboard.certificate_notices()] == \
            [f"expires in 5 days: {SHOP}"]
    assert warnings_counted(7) == before_7 + 1
    assert "the 7-day warning" in caplog.text


def test_an_unbound_certificate_is_not_warned_about(ca: TestCA, provider: Any) -> None:
    leaf = ca.leaf(SHOP, days=20)
    services.upload_certificate(leaf.chain, leaf.key, None)
    assert services.warn_expiring_certificates() == []


def test_the_overview_shows_the_days_left(shop: Domain, ca: TestCA, manager_client: Any) -> None:
    leaf = ca.leaf(SHOP, days=45)
    certificate = services.upload_certificate(leaf.chain, leaf.key, None)
    services.save_https(shop, services.HttpsChoice(certificate, True, False), None)
    manager_client.post(reverse("delivery:choose_domain"), {"domain": shop.pk,
                                                            "next": reverse("delivery:index")})
    page = manager_client.get(reverse("delivery:index")).content.decode()
    assert "44 days left" in page


def test_a_key_rotation_reseals_the_certificate_keys(ca: TestCA, provider: Any,
                                                     settings: Any) -> None:
    import io

    from cryptography.fernet import Fernet
    from django.core.management import call_command

    old, new = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    settings.CREDENTIALS_KEYS = [old]
    leaf = ca.leaf(SHOP)
    certificate = services.upload_certificate(leaf.chain, leaf.key, None)
    settings.CREDENTIALS_KEYS = [new, old]
    call_command("rotate_credentials", stdout=io.StringIO())
    settings.CREDENTIALS_KEYS = [new]
    assert Certificate.objects.get(pk=certificate.pk).private_key == leaf.key


def test_the_expiry_job_is_in_the_beat_schedule_and_runs_as_a_task(provider: Any) -> None:
    from backoffice.celery import collect_beat_schedule
    from delivery.tasks import warn_expiring_certificates_task

    entry = collect_beat_schedule()["delivery-warn-expiring-certificates"]
    assert entry["task"] == "delivery.tasks.warn_expiring_certificates_task"
    assert warn_expiring_certificates_task() == 0
