"""The back-office's own WAF matcher (`delivery.waf.waf_verdict`, for the "why was I refused"
tester) agrees with the sandbox edge's real answers on a table of cases: each attack kind the
README lists, their URL-encoded and twice-encoded spellings, a form body, and the ordinary
requests that must pass (`?q=select a colour`, `?name=O'Brien`, ...). Each request is sent as
written over a socket, so nothing normalises it on the way."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from console.models import Domain, Service, ServiceKind
from delivery import services
from delivery.models import SecuritySettings
from delivery.waf import waf_verdict
from tests.console.conftest import create_service
from tests.sandbox.origin_support import OriginServer
from tests.sandbox_process import SandboxProcess

pytestmark = pytest.mark.django_db(transaction=True)
SHOP = "shop.sandbox.localhost"
FORM = "application/x-www-form-urlencoded"

# (method, target as on the request line, User-Agent, body, Origin) -> kind or None
CASES: list[tuple[str, str, str, str, str, str | None]] = [
    ("GET", "/p?q=select%20a%20colour", "Mozilla/5.0", "", "", None),
    ("GET", "/p?name=O%27Brien", "Mozilla/5.0", "", "", None),
    ("GET", "/p?q=rock+%27n%27+roll+or+jazz", "Mozilla/5.0", "", "", None),
    ("GET", "/p?next=https://example.com/shop?x=1", "Mozilla/5.0", "", "", None),
    ("GET", "/p?q=javascript:+the+good+parts", "Mozilla/5.0", "", "", None),
    ("GET", "/p?q=1+union+of+states", "Mozilla/5.0", "", "", None),
    ("GET", "/p?q=a%3Cb+and+c%3Ed", "Mozilla/5.0", "", "", None),
    ("GET", "/files/report..final.pdf", "Mozilla/5.0", "", "", None),
    ("GET", "/p?id=1%27+or+%271%27=%271", "Mozilla/5.0", "", "", "sqli"),
    ("GET", "/p?id=1+UNION+ALL+SELECT+user,pass+FROM+accounts", "Mozilla/5.0", "", "", "sqli"),
    ("GET", "/p?id=1/**/union/**/select/**/1", "Mozilla/5.0", "", "", "sqli"),
    ("GET", "/p?user=admin%27--", "Mozilla/5.0", "", "", "sqli"),
    ("GET", "/p?id=1%20and%201=1", "Mozilla/5.0", "", "", "sqli"),
    ("GET", "/p?id=1;drop%20table%20users", "Mozilla/5.0", "", "", "sqli"),
    ("GET", "/p?id=sleep(5)", "Mozilla/5.0", "", "", "sqli"),
    ("GET", "/p?id=%2527%2520or%2520%25271%2527=%25271", "Mozilla/5.0", "", "", "sqli"),
    ("GET", "/p?c=%3Cscript%3Ealert(1)%3C/script%3E", "Mozilla/5.0", "", "", "xss"),
    ("GET", "/p?c=%253Cscript%253E", "Mozilla/5.0", "", "", "xss"),
    ("GET", "/p?c=%3Cimg+src=x+onerror=alert(1)%3E", "Mozilla/5.0", "", "", "xss"),
    ("GET", "/p?u=javascript:alert(document.cookie)", "Mozilla/5.0", "", "", "xss"),
    ("GET", "/p?c=%22+onmouseover=%22alert(1)", "Mozilla/5.0", "", "", "xss"),
    ("GET", "/p?page=http://evil.example/shell.txt?", "Mozilla/5.0", "", "", "rfi"),
    ("GET", "/p?page=php://filter/resource=index.php", "Mozilla/5.0", "", "", "rfi"),
    ("GET", "/p?f=../../etc/passwd", "Mozilla/5.0", "", "", "traversal"),
    ("GET", "/static/..%2f..%2fwin.ini", "Mozilla/5.0", "", "", "traversal"),
    ("GET", "/static/%252e%252e%252fsecret", "Mozilla/5.0", "", "", "traversal"),
    ("GET", "/p", "sqlmap/1.7.2#stable (https://sqlmap.org)", "", "", "scanner"),
    ("GET", "/p", "Mozilla/5.00 (Nikto/2.1.6)", "", "", "scanner"),
    ("GET", "/p", "Mozilla/5.0 (compatible; Nmap Scripting Engine)", "", "", "scanner"),
    ("GET", "/p", "masscan/1.3", "", "", "scanner"),
    ("GET", "/p", "WPScan v3.8", "", "", "scanner"),
    ("GET", "/p", "Mozilla/4.0 (compatible; HTTrack 3.0x)", "", "", "scanner"),
    ("POST", "/p", "Mozilla/5.0", "comment=%3Cscript%3Ex%3C/script%3E", "", "xss"),
    ("POST", "/p", "Mozilla/5.0", "name=O%27Brien&colour=select+a+colour", "", None),
    ("POST", "/p", "Mozilla/5.0", "a=1", "https://evil.example", "csrf"),
    ("POST", "/p", "Mozilla/5.0", "a=1", f"http://{SHOP}:8080", None),
    ("GET", "/p", "Mozilla/5.0", "", "https://evil.example", None),
]


@pytest.fixture
def origin_server() -> Iterator[OriginServer]:
    server = OriginServer.start()
    yield server
    server.stop()


@pytest.fixture
def shop(provider: SandboxProcess, origin_server: OriginServer, manager: Any) -> Domain:
    """An own-origin domain whose WAF is on, published; every origin path answers (a 404
    of the origin is still not the WAF's 403)."""
    create_service(provider, name="shop-site", business_type="cdn", domains=[SHOP],
                   origins=[{"address": origin_server.address, "weight": 10, "backup": False}])
    service = Service.objects.create(name="shop-site", kind=ServiceKind.CDN)
    port = urlsplit(provider.info["delivery_url"]).port
    domain = Domain.objects.create(service=service, name=SHOP,
                                   base_url=f"http://{SHOP}:{port}")
    row = SecuritySettings.for_domain(domain)
    row.waf_enabled = True
    row.save()
    services.publish(user=manager, domain=domain, rule_set=None)
    return domain


def edge_answer(provider: SandboxProcess, method: str, target: str, agent: str, body: str,
                origin: str) -> tuple[int, dict[str, Any]]:
    """The edge's status and JSON body for the request sent exactly as written."""
    host, port = urlsplit(provider.info["delivery_url"]).netloc.rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        conn.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
        conn.putheader("Host", SHOP)
        conn.putheader("User-Agent", agent)
        if origin:
            conn.putheader("Origin", origin)
        data = body.encode()
        if method == "POST":
            conn.putheader("Content-Type", FORM)
            conn.putheader("Content-Length", str(len(data)))
        conn.endheaders(data or None)
        response = conn.getresponse()
        content = response.read()
    finally:
        conn.close()
    try:
        parsed = json.loads(content) if response.status == 403 else {}
    except ValueError:
        parsed = {}
    return response.status, parsed


def edge_kind(status: int, body: dict[str, Any]) -> str | None:
    """The kind the edge names in its WAF refusal, None when it did not refuse."""
    if status != 403 or body.get("code") != "40310030":
        return None
    return str(body["msg"]).rsplit("(", 1)[1].rstrip(")")


def test_the_back_office_matcher_agrees_with_the_edge_on_every_case(
        provider: SandboxProcess, shop: Domain) -> None:
    disagreements = []
    for method, target, agent, body, origin, expected in CASES:
        path, _, query = target.partition("?")
        ours = waf_verdict(path, query, body, agent, method=method, origin=origin,
                           host=f"{SHOP}:8080")
        edge = edge_kind(*edge_answer(provider, method, target, agent, body, origin))
        if not ours == edge == expected:
            disagreements.append((target, agent, body, origin, expected, ours, edge))
    assert disagreements == []


def test_the_table_covers_every_kind_and_both_sides() -> None:
    kinds = {expected for *_rest, expected in CASES}
    assert kinds == {None, "sqli", "xss", "rfi", "traversal", "scanner", "csrf"}
