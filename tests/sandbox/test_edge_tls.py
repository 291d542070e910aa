"""The console's certificates and the edge's HTTPS port (sandbox.delivery.tls): an uploaded
chain is checked with cryptography, bound per domain by the `https` section, and served by SNI
to a client that trusts the test CA; a name without HTTPS access is refused in the handshake."""

from __future__ import annotations

import socket
import ssl
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.certificates import TestCA
from tests.sandbox.test_console_support import Console, console_error
from tests.sandbox.test_delivery_support import Storage

DEMO = "demo-bucket.sandbox.localhost"


@pytest.fixture(scope="module")
def ca() -> TestCA:
    return TestCA()


@pytest.fixture
def console(sandbox):
    return Console(sandbox)


def https_get(sandbox, ca_file: Path, name: str, path: str) -> bytes:
    """A GET over TLS to the HTTPS port, SNI and Host `name`, verified against the test CA."""
    port = urlsplit(sandbox.info["delivery_https_url"]).port
    context = ssl.create_default_context(cafile=str(ca_file))
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw, \
            context.wrap_socket(raw, server_hostname=name) as tls:
        tls.sendall(f"GET {path} HTTP/1.1\r\nHost: {name}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := tls.recv(65536):
            answer += chunk
    return answer


def upload(console, leaf) -> str:
    answer = console.post("/https/certificate/", {"certificate": leaf.chain,
                                                  "private_key": leaf.key})
    assert answer.status_code == 200, answer.text
    return answer.json()["result"]["certificate_id"]


def https_section(console, value, domain=DEMO):
    return console.put("/buckets/domains/config", {"domain": domain, "section": "https",
                                                   "value": value})


def test_the_https_port_is_published_in_the_info(sandbox):
    assert urlsplit(sandbox.info["delivery_https_url"]).scheme == "https"


def test_a_bound_certificate_is_verified_by_sni_and_serves_the_file(sandbox, console, ca,
                                                                    tmp_path):
    Storage(sandbox).put("/hello.txt", b"over tls")
    identifier = upload(console, ca.leaf(DEMO))
    answer = https_section(console, {"access": True, "force": True,
                                     "certificate_id": identifier})
    assert answer.json()["value"] == {"access": True, "force": True,
                                      "certificate_id": identifier}
    body = https_get(sandbox, ca.write_root(tmp_path), DEMO, "/hello.txt")
    assert body.startswith(b"HTTP/1.0 200") and body.endswith(b"over tls")


def test_a_wildcard_certificate_covers_one_label(sandbox, console, ca, tmp_path):
    identifier = upload(console, ca.leaf("*.sandbox.localhost"))
    assert https_section(console, {"access": True, "force": False,
                                   "certificate_id": identifier}).status_code == 200
    Storage(sandbox).put("/a.txt", b"a")
    assert https_get(sandbox, ca.write_root(tmp_path), DEMO, "/a.txt").endswith(b"a")
    deeper = upload(console, ca.leaf("*.localhost"))
    console_error(https_section(console, {"access": True, "force": False,
                                          "certificate_id": deeper}),
                  400, 10400, "value.certificate_id")


def test_a_name_without_https_access_is_refused_in_the_handshake(sandbox, console, ca,
                                                                 tmp_path):
    identifier = upload(console, ca.leaf(DEMO))
    https_section(console, {"access": False, "force": False, "certificate_id": identifier})
    with pytest.raises(ssl.SSLError, match="UNRECOGNIZED_NAME|unrecognized name"):
        https_get(sandbox, ca.write_root(tmp_path), DEMO, "/a.txt")
    with pytest.raises(ssl.SSLError):
        https_get(sandbox, ca.write_root(tmp_path), "unknown.example.com", "/a.txt")


def test_forced_https_answers_plain_http_with_301_and_https_is_served(sandbox, console, ca,
                                                                      tmp_path):
    from tests.sandbox.test_delivery_support import Edge

    Storage(sandbox).put("/f.txt", b"forced")
    identifier = upload(console, ca.leaf(DEMO))
    https_section(console, {"access": True, "force": True, "certificate_id": identifier})
    plain = Edge(sandbox).get("/f.txt", headers={"Host": DEMO})
    assert plain.status_code == 301 and plain.headers["Location"] == f"https://{DEMO}/f.txt"
    assert https_get(sandbox, ca.write_root(tmp_path), DEMO, "/f.txt").endswith(b"forced")


def test_forced_https_without_access_or_access_without_certificate_is_10400(console):
    console_error(https_section(console, {"access": False, "force": True}),
                  400, 10400, "value.force")
    console_error(https_section(console, {"access": True, "force": False}),
                  400, 10400, "value.access")
    console_error(https_section(console, {"access": True, "force": False,
                                          "certificate_id": "nope"}),
                  400, 10400, "value.certificate_id")


def test_an_expired_certificate_or_one_for_other_names_is_not_bound(console, ca):
    expired = upload(console, ca.leaf(DEMO, days=-1, started_days_ago=30))
    console_error(https_section(console, {"access": True, "force": False,
                                          "certificate_id": expired}),
                  400, 10400, "value.certificate_id")
    other = upload(console, ca.leaf("shop.example.com"))
    console_error(https_section(console, {"access": True, "force": False,
                                          "certificate_id": other}),
                  400, 10400, "value.certificate_id")


def test_bad_uploads_are_10400_naming_the_field(console, ca):
    leaf = ca.leaf(DEMO)
    console_error(console.post("/https/certificate/", {"certificate": "hello",
                                                       "private_key": leaf.key}),
                  400, 10400, "certificate")
    console_error(console.post("/https/certificate/", {"certificate": leaf.chain,
                                                       "private_key": "hello"}),
                  400, 10400, "private_key")
    console_error(console.post("/https/certificate/", {"certificate": leaf.chain,
                                                       "private_key": ca.other_key()}),
                  400, 10400, "private_key")
    console_error(console.post("/https/certificate/", {"certificate": leaf.out_of_order,
                                                       "private_key": leaf.key}),
                  400, 10400, "certificate")
    assert console.get("/https/certificate/").json()["certificates"] == []


def test_a_bound_certificate_is_not_deleted(console, ca):
    identifier = upload(console, ca.leaf(DEMO))
    https_section(console, {"access": True, "force": False, "certificate_id": identifier})
    path = f"/https/certificate/?certificate_id={identifier}"
    console_error(console.request("DELETE", path), 409, 10409)
    https_section(console, {"access": False, "force": False, "certificate_id": None})
    assert console.request("DELETE", path).status_code == 200


def test_a_taken_https_port_is_named_at_start(tmp_path):
    import subprocess
    import sys

    from tests.sandbox_process import HTTPS_OFFSET, ROOT, free_base_port

    base = free_base_port()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", base + HTTPS_OFFSET))
        taken.listen()
        result = subprocess.run(
            [sys.executable, "manage.py", "runsandbox", "--base-port", str(base),
             "--data-dir", str(tmp_path), "--info-file", str(tmp_path / "info.json")],
            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert f"{base + HTTPS_OFFSET} (delivery over HTTPS)" in result.stderr


def test_a_plain_http_request_to_the_https_port_gets_no_http_answer(sandbox):
    port = urlsplit(sandbox.info["delivery_https_url"]).port
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        raw.sendall(b"GET / HTTP/1.1\r\nHost: demo\r\n\r\n")
        received = b""
        while chunk := raw.recv(4096):
            received += chunk
    assert not received.startswith(b"HTTP/")  # at most a TLS alert, then the port closes
