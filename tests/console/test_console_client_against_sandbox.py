"""The console client against the sandbox's console API: every endpoint, typed answers and the
error codes the sandbox can give."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from console.client import (
    BadField,
    Conflict,
    ConsoleClient,
    ConsoleToken,
    NotApplicable,
    NotFound,
    OriginAddress,
    TokenRejected,
    TooMany,
    WrongCredentials,
)
from tests.sandbox_process import SandboxProcess


def console_client(sandbox: SandboxProcess, password: str | None = None) -> ConsoleClient:
    info = sandbox.info
    return ConsoleClient(info["console_url"], info["console"]["username"],
                         password if password is not None else info["console"]["password"])


def create_service(sandbox: SandboxProcess, **fields: Any) -> dict[str, Any]:
    response = sandbox.control("POST", "/console/services", fields)
    assert response.status_code == 201, response.text
    return response.json()


@pytest.fixture
def client(sandbox: SandboxProcess) -> ConsoleClient:
    return console_client(sandbox)


def test_a_token_lasts_about_thirty_days_and_hides_itself(sandbox: SandboxProcess) -> None:
    token = console_client(sandbox).fetch_token()
    assert token.access_token
    assert token.expired_at > datetime.now(UTC) + timedelta(days=29)
    assert token.access_token not in repr(token)


def test_a_wrong_console_password_is_10402(sandbox: SandboxProcess) -> None:
    with pytest.raises(WrongCredentials) as refused:
        console_client(sandbox, password="not-the-password").fetch_token()
    assert refused.value.error_code == 10402
    assert refused.value.status == 401


def test_the_demo_storage_service_is_listed_with_its_domain(
        client: ConsoleClient, sandbox: SandboxProcess) -> None:
    bucket = sandbox.info["storage"]["bucket"]
    services = {service.name: service for service in client.all_services()}
    assert services[bucket].business_type == "file"
    assert services[bucket].line == "auto"
    info = client.service_info(bucket)
    assert info.bucket_id == services[bucket].bucket_id
    assert info.domains == services[bucket].domains


def test_services_are_read_page_after_page(client: ConsoleClient,
                                           sandbox: SandboxProcess) -> None:
    for name in ("images-one", "images-two", "videos-three"):
        create_service(sandbox, name=name, business_type="file", operators={"op-" + name: "pw1"})
    first = client.list_services(limit=2)
    assert len(first.services) == 2 and first.next_max is not None
    names = [service.name for service in client.all_services(page_size=2)]
    assert names[:3] == ["videos-three", "images-two", "images-one"]  # newest first
    assert len(names) == len(set(names))
    only_cdn = list(client.all_services(business_type="cdn"))
    assert all(service.business_type == "cdn" for service in only_cdn)


def test_an_unknown_service_is_10404(client: ConsoleClient) -> None:
    with pytest.raises(NotFound) as refused:
        client.service_info("no-such-service")
    assert (refused.value.error_code, refused.value.status) == (10404, 404)


def test_domains_are_bound_listed_and_unbound(client: ConsoleClient,
                                              sandbox: SandboxProcess) -> None:
    create_service(sandbox, name="videos-bucket", business_type="file",
                   operators={"video-op": "pw1"})
    client.bind_domain("videos-bucket", "videos.example.com")
    client.bind_domain("videos-bucket", "videos.example.com")  # again: a no-op
    assert [d.domain for d in client.list_domains("videos-bucket")] == ["videos.example.com"]
    with pytest.raises(Conflict) as taken:
        client.bind_domain(sandbox.info["storage"]["bucket"], "videos.example.com")
    assert taken.value.error_code == 10409
    client.unbind_domain("videos-bucket", "videos.example.com")
    assert client.list_domains("videos-bucket") == ()


def test_a_malformed_domain_is_10400_naming_the_field(client: ConsoleClient,
                                                     sandbox: SandboxProcess) -> None:
    with pytest.raises(BadField) as refused:
        client.bind_domain(sandbox.info["storage"]["bucket"], "Not A Domain")
    assert refused.value.field == "domain"
    assert refused.value.status == 400


def test_origins_of_a_cdn_service_are_replaced_and_read(client: ConsoleClient,
                                                        sandbox: SandboxProcess) -> None:
    create_service(sandbox, name="shop-site", business_type="cdn",
                   origins=[{"address": "http://127.0.0.1:9", "weight": 10, "backup": False}])
    wanted = (OriginAddress("http://origin-a.example.com:8080", 70),
              OriginAddress("https://origin-b.example.com", 30),
              OriginAddress("http://backup.example.com", 1, backup=True))
    client.put_origins("shop-site", wanted)
    assert client.origins("shop-site") == wanted


def test_a_bad_origin_weight_is_10400_and_origins_of_storage_are_10403(
        client: ConsoleClient, sandbox: SandboxProcess) -> None:
    create_service(sandbox, name="shop-site", business_type="cdn",
                   origins=[{"address": "http://127.0.0.1:9", "weight": 10, "backup": False}])
    with pytest.raises(BadField):
        client.put_origins("shop-site", [OriginAddress("http://a.example.com", 101)])
    with pytest.raises(NotApplicable) as refused:
        client.origins(sandbox.info["storage"]["bucket"])
    assert (refused.value.error_code, refused.value.status) == (10403, 403)


def test_mirror_storage_moves_on_then_off(client: ConsoleClient,
                                          sandbox: SandboxProcess) -> None:
    create_service(sandbox, name="shop-site", business_type="cdn",
                   origins=[{"address": "http://127.0.0.1:9", "weight": 10, "backup": False}])
    bucket = sandbox.info["storage"]["bucket"]
    state = client.put_mirror("shop-site", "on", bucket, 90000)
    assert (state.status, state.storage_bucket, state.cache_seconds) == ("on", bucket, 90000)
    assert client.mirror("shop-site").status == "on"
    with pytest.raises(BadField):
        client.put_mirror("shop-site", "on", bucket, 86400)
    assert client.put_mirror("shop-site", "off").status == "off"


def test_a_domain_section_is_replaced_with_a_new_revision(client: ConsoleClient,
                                                         sandbox: SandboxProcess) -> None:
    domain = client.service_info(sandbox.info["storage"]["bucket"]).domains[0]
    first = client.put_section(domain, "separator", "-")
    second = client.put_section(domain, "https", {"force": True})
    assert (first.section, first.value) == ("separator", "-")
    assert second.revision != first.revision
    config = client.domain_config(domain)
    assert config.sections["separator"] == "-"
    assert config.sections["https"] == {"access": False, "force": True, "certificate_id": None}
    assert config.revision == second.revision
    with pytest.raises(BadField):
        client.put_section(domain, "separator", "#")


def test_rule_refresh_preheat_site_refresh_and_records(client: ConsoleClient,
                                                       sandbox: SandboxProcess) -> None:
    create_service(sandbox, name="shop-site", business_type="cdn", domains=["shop.example.com"],
                   origins=[{"address": "http://127.0.0.1:9", "weight": 10, "backup": False}])
    items = client.purge_batch(["http://shop.example.com/img/*"])
    assert [item.accepted for item in items] == [True]
    with pytest.raises(TooMany) as refused:
        client.purge_batch([f"http://shop.example.com/{n}/*" for n in range(11)])
    assert refused.value.error_code == 10429
    assert client.preheat(["http://shop.example.com/index.html"])[0].accepted
    site = client.refresh_site("shop.example.com")
    assert site.accepted and site.url == "http://shop.example.com/*"
    storage_domain = client.service_info(sandbox.info["storage"]["bucket"]).domains[0]
    with pytest.raises(NotApplicable):
        client.refresh_site(storage_domain)
    kinds = {record.type for record in client.records().records}
    assert {"rule", "preheat", "site"} <= kinds
    assert all(record.type == "rule" for record in client.records(type="rule").records)


def test_a_refused_token_is_renewed_once_and_the_call_sent_again(
        sandbox: SandboxProcess) -> None:
    info = sandbox.info
    fresh = console_client(sandbox).fetch_token()

    class StaleFirst:
        refreshed: list[str] = []

        def current(self) -> str:
            return "stale-token-the-console-never-gave"

        def refresh(self, rejected: str) -> str:
            self.refreshed.append(rejected)
            return fresh.access_token

    supply = StaleFirst()
    client = ConsoleClient(info["console_url"], "unused", "unused", supply)
    assert client.service_info(info["storage"]["bucket"]).business_type == "file"
    assert supply.refreshed == ["stale-token-the-console-never-gave"]


def test_a_token_refused_twice_is_raised(sandbox: SandboxProcess) -> None:
    class AlwaysStale:
        def current(self) -> str:
            return "stale"

        def refresh(self, rejected: str) -> str:
            return "still-stale"

    client = ConsoleClient(sandbox.info["console_url"], "unused", "unused", AlwaysStale())
    with pytest.raises(TokenRejected) as refused:
        client.list_services()
    assert refused.value.status == 401


def test_a_token_repr_never_shows_it() -> None:
    token = ConsoleToken("secret-bearer-value", datetime.now(UTC))
    assert "secret-bearer-value" not in repr(token)


def self_signed(host: str) -> tuple[str, str]:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)])
    now = datetime.now(UTC)
    certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
                   .public_key(key.public_key()).serial_number(x509.random_serial_number())
                   .not_valid_before(now).not_valid_after(now + timedelta(days=30))
                   .add_extension(x509.SubjectAlternativeName([x509.DNSName(host)]), False)
                   .sign(key, hashes.SHA256()))
    return (certificate.public_bytes(serialization.Encoding.PEM).decode(),
            key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                              serialization.NoEncryption()).decode())


def test_a_certificate_is_uploaded_and_gets_an_id(client: ConsoleClient) -> None:
    certificate, key = self_signed("shop.example.com")
    assert client.upload_certificate(certificate, key)
    with pytest.raises(BadField):
        client.upload_certificate("not a certificate", key)
