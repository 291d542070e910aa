"""A published rule set run by the real sandbox edge: rewrites, redirects, header changes,
exits, and debug rules that apply only under the preview header. The same requests through
the back-office tester give the same outcome."""

from __future__ import annotations

from typing import Any

import pytest

from console.services import default_domain
from delivery import services
from delivery.tester import SampleRequest
from tests.delivery.conftest import Edge

pytestmark = pytest.mark.django_db

RULES: list[dict[str, object]] = [
    {"pattern": r"^/old/(.*)$", "rule": "$REDIRECT(/new/$1, 301)"},
    {"pattern": r"^/pay/([0-9]+)/([0-9]+)/(.*?)\.html$",
     "rule": "/pay.txt?payid=$1&categoryid=$2", "break": True},
    {"pattern": r"^/(.*)/playlist\.m3u8$", "rule": "/$1'.m3u8'"},
    {"pattern": r"\.txt$", "rule": "$ADD_RSP_HEADER(X-Shop, yes, )$DEL_RSP_HEADER(X-Remove-Me)"},
    {"pattern": r"^/closed/", "rule": "$EXIT(403, 'closed for now')"},
    {"pattern": r"^/beta/(.*)$", "rule": "/$1", "state": "test"},
]
# As the editor saves them: break off and debug off unless said.
SPECS = [{"pattern": "", "break": False, "state": "enabled", **rule} for rule in RULES]


@pytest.fixture
def site(edge: Edge, publish: Any) -> Edge:
    edge.upload("/pay.txt", b"pay page")
    edge.upload("/app/stream.m3u8", b"#EXTM3U")
    edge.upload("/new/a.txt", b"new a")
    edge.upload("/page.txt", b"page")
    publish(rules=SPECS)
    return edge


def test_a_rewrite_serves_another_file_with_the_query(site: Edge) -> None:
    response = site.get("/pay/25/8/x.html")
    assert response.status_code == 200
    assert response.content == b"pay page"


def test_a_rewrite_with_quoted_text(site: Edge) -> None:
    assert site.get("/app/stream/playlist.m3u8").content == b"#EXTM3U"


def test_a_redirect_answers_at_once(site: Edge) -> None:
    response = site.get("/old/a.txt")
    assert response.status_code == 301
    assert response.headers["Location"].endswith("/new/a.txt")


def test_response_headers_are_added(site: Edge) -> None:
    assert site.get("/page.txt").headers["X-Shop"] == "yes"


def test_exit_ends_with_its_status_and_body(site: Edge) -> None:
    response = site.get("/closed/anything")
    assert (response.status_code, response.text) == (403, "closed for now")


def test_a_debug_rule_applies_only_with_the_preview_header(site: Edge) -> None:
    assert site.get("/beta/page.txt").status_code == 404
    preview = site.get("/beta/page.txt", headers={"X-svc-Rewrite-Preview": "true"})
    assert preview.status_code == 200
    assert preview.content == b"page"


@pytest.mark.parametrize(("url", "headers", "expected"), [
    ("/pay/25/8/x.html", "", "/pay.txt?payid=25&categoryid=8"),
    ("/app/stream/playlist.m3u8", "", "/app/stream.m3u8"),
    ("/beta/page.txt", "", "/beta/page.txt"),
    ("/beta/page.txt", "X-svc-Rewrite-Preview: true", "/page.txt"),
])
def test_the_tester_agrees_with_the_edge(site: Edge, url: str, headers: str,
                                         expected: str) -> None:
    outcome = services.run_test(default_domain(), SPECS, SampleRequest(url=url, headers=headers))
    assert outcome.url == expected
