"""With token protection on, the link builders sign by default, so the links they build are
served by the real sandbox edge; a link built without a token is flagged as one it refuses."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from tests.delivery.conftest import Edge

pytestmark = pytest.mark.django_db
OPTIONAL_SIGNING = ("secret", "download", "bypass", "combine")


def build(client: Any, kind: str, **fields: str) -> Any:
    data = {"kind": kind, **{f"{kind}-{name}": value for name, value in fields.items()}}
    return client.post(reverse("delivery:links"), data)


def result(response: Any, kind: str) -> str:
    return {s["kind"]: s for s in response.context["sections"]}[kind]["result"]


def sign_box(html: str, kind: str) -> str:
    match = re.search(rf'<input[^>]*name="{kind}-sign"[^>]*>', html)
    assert match is not None, f"no token box in the {kind} builder"
    return match.group(0)


def test_every_builder_ticks_the_token_when_protection_is_on(edge: Edge, publish: Any,
                                                             manager_client: Any) -> None:
    publish(token_protection=True)
    html = manager_client.get(reverse("delivery:links")).content.decode()
    for kind in OPTIONAL_SIGNING:
        assert "checked" in sign_box(html, kind)


def test_no_builder_ticks_the_token_when_protection_is_off(edge: Edge, publish: Any,
                                                           manager_client: Any) -> None:
    publish(token_protection=False)
    html = manager_client.get(reverse("delivery:links")).content.decode()
    for kind in OPTIONAL_SIGNING:
        assert "checked" not in sign_box(html, kind)


def test_download_and_bypass_links_built_with_the_defaults_are_served(
        edge: Edge, publish: Any, manager_client: Any) -> None:
    edge.upload("/docs/report.txt", b"the report")
    publish(token_protection=True)
    defaults = {"sign": "on", "expires_in": "3600"}  # what the page shows ticked and chosen
    download = result(build(manager_client, "download", path="/docs/report.txt",
                            **defaults), "download")
    bypass = result(build(manager_client, "bypass", path="/docs/report.txt", upv="07",
                          **defaults), "bypass")
    for url in (download, bypass):
        assert "_upt=" in url
        response = edge.get(url)
        assert response.status_code == 200, url
        assert response.content == b"the report"


def test_a_link_built_without_a_token_is_flagged_as_refused_by_the_edge(
        edge: Edge, publish: Any, manager_client: Any) -> None:
    edge.upload("/docs/report.txt", b"the report")
    publish(token_protection=True)
    response = build(manager_client, "download", path="/docs/report.txt")
    url = result(response, "download")
    assert edge.get(url).status_code == 403
    html = response.content.decode()
    assert 'id="dl-warning-download"' in html
    assert "the edge refuses this link without a token" in html


def test_a_user_who_may_not_sign_is_told_why_the_link_will_be_refused(
        edge: Edge, publish: Any, auditor_client: Any) -> None:
    publish(token_protection=True)
    html = build(auditor_client, "bypass", path="/docs/report.txt", upv="07").content.decode()
    assert "adding one needs the permission to sign links" in html


def test_no_warning_without_token_protection(edge: Edge, publish: Any,
                                             manager_client: Any) -> None:
    publish(token_protection=False)
    html = build(manager_client, "download", path="/docs/report.txt").content.decode()
    assert 'id="dl-warning-download"' not in html


def test_the_image_builder_ticks_the_token_and_flags_an_unsigned_link(
        edge: Edge, publish: Any, manager_client: Any) -> None:
    publish(token_protection=True)
    page = manager_client.get(reverse("delivery:images"), {"path": "/a.png"}).content.decode()
    assert "checked" in re.search(r'<input[^>]*name="sign"[^>]*>', page).group(0)  # type: ignore[union-attr]
    built = manager_client.get(reverse("delivery:images"), {
        "path": "/a.png", "mode": "params", "key_fw": "100"}).content.decode()
    assert 'id="dl-image-unsigned"' in built
