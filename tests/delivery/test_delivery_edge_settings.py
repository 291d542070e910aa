"""Published access and optimisation settings as the real sandbox edge applies them: CORS,
Referer allow/deny with the empty-Referer option, IP blacklist, User-Agent whitelist, forced
HTTPS and HTML minification."""

from __future__ import annotations

from typing import Any

import pytest

from tests.delivery.conftest import Edge

pytestmark = pytest.mark.django_db


@pytest.fixture
def page(edge: Edge) -> Edge:
    html = b"<html>\n  <!-- note -->\n  <body>\n    <p>Hi</p>\n  </body>\n</html>"
    edge.upload("/index.html", html, content_type="text/html")
    return edge


def test_cors_headers_are_sent(page: Edge, publish: Any) -> None:
    publish(cors_allow_origin="https://shop.example.com", cors_allow_methods="GET, HEAD",
            cors_allow_headers="X-Token", cors_expose_headers="X-Cache", cors_max_age="600")
    headers = page.get("/index.html").headers
    assert headers["Access-Control-Allow-Origin"] == "https://shop.example.com"
    assert headers["Access-Control-Allow-Methods"] == "GET, HEAD"
    assert headers["Access-Control-Allow-Headers"] == "X-Token"
    assert headers["Access-Control-Expose-Headers"] == "X-Cache"
    assert headers["Access-Control-Max-Age"] == "600"


def test_referer_allow_list_with_and_without_empty_referer(page: Edge, publish: Any) -> None:
    publish(referer_mode="allow", referer_domains="shop.example.com")
    assert page.get("/index.html", headers={"Referer": "https://shop.example.com/x"}).ok
    assert page.get("/index.html", headers={"Referer": "https://evil.example.net/"}
                    ).status_code == 403
    assert page.get("/index.html").ok  # an empty Referer bypasses the check by default
    publish(referer_allow_empty=False)
    assert page.get("/index.html").status_code == 403


def test_referer_deny_list(page: Edge, publish: Any) -> None:
    publish(referer_mode="deny", referer_domains="*.evil.example.net")
    assert page.get("/index.html", headers={"Referer": "https://a.evil.example.net/"}
                    ).status_code == 403
    assert page.get("/index.html", headers={"Referer": "https://shop.example.com/"}).ok


def test_ip_blacklist_refuses_the_listed_addresses(page: Edge, publish: Any) -> None:
    publish(ip_blacklist="10.0.0.0/8")
    assert page.get("/index.html").ok
    publish(ip_blacklist="127.0.0.0/8")
    assert page.get("/index.html").status_code == 403


def test_user_agent_whitelist_admits_only_listed_clients(page: Edge, publish: Any) -> None:
    publish(ua_whitelist="ShopApp")
    assert page.get("/index.html", headers={"User-Agent": "ShopApp/2.1"}).ok
    assert page.get("/index.html", headers={"User-Agent": "curl/8"}).status_code == 403


# Forced HTTPS needs HTTPS access and a certificate now: tests/delivery/test_delivery_https.py
# publishes both and checks the 301 and the TLS port.


def test_html_minification_removes_comments_and_whitespace(page: Edge, publish: Any) -> None:
    publish(html_minify=True)
    body = page.get("/index.html").text
    assert "note" not in body
    assert "<p>Hi</p>" in body
    assert "\n  " not in body
