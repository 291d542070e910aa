"""Each link kind verified against the real sandbox edge: tokens (valid, expired, altered,
`_upp` levels, cookie), secret-protected originals, forced downloads, `_upv` and combining."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest

from console.models import Domain
from console.services import default_domain
from delivery import services
from delivery.services import Signing
from tests.delivery.conftest import Edge

pytestmark = pytest.mark.django_db


def main() -> Domain:
    """The default domain: the environment's (DELIVERY_URL), the sandbox edge."""
    return default_domain()
REFUSED_CODE = "40310013"


def assert_refused(response: Any) -> None:
    assert response.status_code == 403
    assert response.headers["X-Error-Code"] == REFUSED_CODE
    assert response.json() == {"code": REFUSED_CODE, "msg": "invalid user token"}


def test_a_valid_token_is_served_and_a_missing_one_refused(edge: Edge, publish: Any) -> None:
    edge.upload("/photos/2024/sea.txt", b"the sea")
    publish(token_protection=True)
    signed = services.signed_link(main(), "/photos/2024/sea.txt",
                                  Signing(int(edge.sandbox.now()) + 600))
    response = edge.get(signed)
    assert response.status_code == 200
    assert response.content == b"the sea"
    assert_refused(edge.get("/photos/2024/sea.txt"))


def test_an_expired_token_is_refused_once_the_sandbox_clock_passes_etime(
        edge: Edge, publish: Any) -> None:
    edge.upload("/a.txt", b"a")
    publish(token_protection=True)
    signed = services.signed_link(main(), "/a.txt", Signing(int(edge.sandbox.now()) + 60))
    assert edge.get(signed).status_code == 200
    edge.sandbox.advance(120)
    assert_refused(edge.get(signed))


def test_an_altered_token_or_path_is_refused(edge: Edge, publish: Any) -> None:
    edge.upload("/a.txt", b"a")
    edge.upload("/b.txt", b"b")
    publish(token_protection=True)
    signed = services.signed_link(main(), "/a.txt", Signing(int(edge.sandbox.now()) + 600))
    token = signed.split("_upt=")[1]
    altered = signed.replace(token, ("0" if token[0] != "0" else "1") + token[1:])
    assert_refused(edge.get(altered))
    longer = signed.replace(token, token[:8] + str(int(token[8:]) + 3600))
    assert_refused(edge.get(longer))
    assert_refused(edge.get(signed.replace("/a.txt", "/b.txt")))


def test_a_token_for_a_directory_level_opens_every_file_below_it(
        edge: Edge, publish: Any) -> None:
    edge.upload("/shop/items/1.txt", b"one")
    edge.upload("/shop/items/2.txt", b"two")
    edge.upload("/shop/other.txt", b"other")
    publish(token_protection=True)
    etime = int(edge.sandbox.now()) + 600
    signed = services.signed_link(main(), "/shop/items/1.txt", Signing(etime, upp=2))
    assert "&_upp=2" in signed
    query = signed.split("?", 1)[1]
    assert edge.get(f"/shop/items/2.txt?{query}").content == b"two"
    assert_refused(edge.get(f"/shop/other.txt?{query}"))
    level_one = services.signed_link(main(), "/shop/items/1.txt",
                                     Signing(etime, upp=1)).split("?")[1]
    assert edge.get(f"/shop/other.txt?{level_one}").content == b"other"


def test_the_token_is_also_accepted_from_a_cookie(edge: Edge, publish: Any) -> None:
    edge.upload("/a.txt", b"a")
    publish(token_protection=True)
    signed = services.signed_link(main(), "/a.txt", Signing(int(edge.sandbox.now()) + 600))
    token = signed.split("_upt=")[1]
    assert edge.get("/a.txt", cookies={"_upt": token}).status_code == 200


def test_a_token_signed_with_an_unpublished_secret_is_refused(
        edge: Edge, publish: Any, settings: Any) -> None:
    edge.upload("/a.txt", b"a")
    publish(token_protection=True)
    settings.PROVIDER["delivery"]["token_secret"] = "a-new-secret"
    signed = services.signed_link(main(), "/a.txt", Signing(int(edge.sandbox.now()) + 600))
    assert services.secret_changed_since_publish(
        main(), services.current_secret_fingerprint(main()))
    assert_refused(edge.get(signed))
    publish()
    assert edge.get(signed).status_code == 200


def test_a_secret_protected_original_is_served_only_by_url_and_secret(
        edge: Edge, publish: Any) -> None:
    edge.upload("/private/plan.txt", b"the plan", secret="S3cr3t")
    publish(separator="-")
    assert edge.get("/private/plan.txt").status_code != 200
    link = services.secret_link(main(), "/private/plan.txt", "S3cr3t")
    assert link.endswith("/private/plan.txt-S3cr3t")
    response = edge.get(link)
    assert response.status_code == 200
    assert response.content == b"the plan"


def test_a_forced_download_keeps_the_name_or_renames_in_chinese(
        edge: Edge, publish: Any) -> None:
    edge.upload("/docs/report.txt", b"report")
    publish()
    response = edge.get(services.download_link(main(), "/docs/report.txt", None))
    assert response.status_code == 200
    assert response.headers["Content-Disposition"].startswith("attachment")
    assert "report.txt" in response.headers["Content-Disposition"]
    link = services.download_link(main(), "/docs/report.txt", "年度报告.txt")
    assert link.endswith("?_upd=" + quote("年度报告.txt", safe=""))
    disposition = edge.get(link).headers["Content-Disposition"]
    assert disposition.startswith("attachment")
    assert "filename*=UTF-8''" + quote("年度报告.txt", safe="") in disposition


def test_a_cache_bypass_link_fetches_past_the_cache(edge: Edge, publish: Any) -> None:
    edge.upload("/c.txt", b"first")
    publish()
    assert edge.get("/c.txt").headers["X-Cache"] == "MISS"
    assert edge.get("/c.txt").headers["X-Cache"] == "HIT"
    bypass = edge.get(services.cache_bypass_link(main(), "/c.txt", "01"))
    assert bypass.status_code == 200
    assert bypass.content == b"first"
    assert bypass.headers["X-Cache"] == "MISS"


def test_a_combine_link_returns_the_files_as_one(edge: Edge, publish: Any) -> None:
    edge.upload("/static/js/a.js", b"var a = 1;")
    edge.upload("/static/js/b.js", b"var b = 2;")
    publish(combine_js_css=True)
    link = services.combine_link(main(), "/static/js", ["a.js", "b.js"])
    assert link.endswith("/static/js/!!a.js,b.js")
    response = edge.get(link)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.index("var a = 1;") < body.index("var b = 2;")


def test_signing_combines_with_the_other_link_kinds(edge: Edge, publish: Any) -> None:
    edge.upload("/docs/r.txt", b"r")
    publish(token_protection=True)
    signing = Signing(int(edge.sandbox.now()) + 600)
    response = edge.get(services.download_link(main(), "/docs/r.txt", "r2.txt", signing))
    assert response.status_code == 200
    assert "r2.txt" in response.headers["Content-Disposition"]


def test_a_token_for_a_non_ascii_path_signs_the_path_as_sent(edge: Edge, publish: Any) -> None:
    edge.upload("/图片/海 边.txt", b"sea")
    publish(token_protection=True)
    signed = services.signed_link(main(), "/图片/海 边.txt", Signing(int(edge.sandbox.now()) + 600))
    assert quote("/图片/海 边.txt") in signed
    response = edge.get(signed)
    assert response.status_code == 200
    assert response.content == b"sea"
