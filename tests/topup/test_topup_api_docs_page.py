"""The merchant API docs page: Markdown rendered (no raw backticks, raw HTML escaped), in the
reader's language, and for every call a curl example with its answer, whose shape is the real
API's."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.topup.conftest import CMCC_NUMBER
from topup import services
from topup.api.docs import guide, markdown_html, markdown_inline, operations, schema_document

pytestmark = pytest.mark.django_db


def docs(user, language: str = "en") -> str:
    client = Client()
    client.force_login(user)
    response = client.get("/api/topup/docs/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def blocks(page: str, language: str) -> list[str]:
    return [html.unescape(block) for block in re.findall(
        rf'<pre><code class="language-{language}">(.*?)</code></pre>', page, re.S)]


def op_sections(page: str) -> dict[str, str]:
    found = re.findall(r'<section class="card topup-op"[^>]*>\s*<h2><span class="topup-method">'
                       r'(\w+)</span> <code>([^<]+)</code></h2>(.*?)</section>', page, re.S)
    return {f"{method} {html.unescape(path)}": body for method, path, body in found}


def test_markdown_is_rendered_not_shown_raw(operator):
    page = docs(operator)

    assert "<code>Idempotency-Key</code>" in page
    assert "<strong>Authentication.</strong>" in page
    text_outside_examples = re.sub(r"<pre>.*?</pre>", "", page, flags=re.S)
    assert "`" not in text_outside_examples


def test_every_call_has_a_curl_example_and_its_answer(operator):
    page = docs(operator)
    sections = op_sections(page)

    expected = {op.key for op in operations(schema_document())}
    assert set(sections) == expected
    for key, body in sections.items():
        method, path = key.split(" ", 1)
        curls = blocks(body, "bash")
        assert any(c.startswith("curl ") for c in curls), key
        curl = next(c for c in curls if c.startswith("curl "))
        url = re.search(r"'(http://testserver/api/topup/[^']*)'", curl)
        assert url is not None, curl  # the examples use the address the page was read at
        assert re.fullmatch(re.sub(r"\\{custno\\}", "[0-9a-f]{28}", re.escape(path)),
                            url.group(1).removeprefix("http://testserver")), curl
        assert ("-X POST" in curl) == (method == "POST")
        assert "Authorization: Bearer $TOKEN" in curl
        answers = [json.loads(block) for block in blocks(body, "json")]
        assert answers, key  # the answer, as JSON that parses


def test_the_example_answers_have_the_real_api_shape(operator, products):
    client = APIClient()
    _token, key = services.create_token(user=operator, name="ERP",
                                        scopes=["orders:write", "orders:read"])
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    placed = client.post("/api/topup/orders/", {"mobile": CMCC_NUMBER, "product": "CMCC_10"},
                         format="json", HTTP_IDEMPOTENCY_KEY="docs-1")
    refused = client.post("/api/topup/orders/", {"mobile": "12345", "product": "CMCC_10"},
                          format="json", HTTP_IDEMPOTENCY_KEY="docs-2")
    sections = op_sections(docs(operator))

    created, error = (json.loads(b) for b in blocks(sections["POST /api/topup/orders/"], "json"))
    (read,) = (json.loads(b) for b in blocks(sections["GET /api/topup/orders/{custno}/"], "json"))
    assert placed.status_code == 201 and refused.status_code == 400
    assert set(created) == set(read) == set(placed.json())
    assert {k: type(v) for k, v in created.items() if v is not None} == {
        k: type(v) for k, v in placed.json().items() if v is not None}
    assert error == refused.json()  # the refusal shown is the API's own, word for word


def test_the_page_reads_in_chinese(operator):
    page = docs(operator, "zh-hans")

    assert "流量充值商户 API" in page and "下一笔充值订单" in page
    assert "每次调用都带上" in page  # the Chinese guide
    assert "Send a unique" not in page and "Stores the order" not in page
    assert 'data-copy="复制"' in page
    assert "中国大陆手机号码" in " ".join(blocks(page, "json"))


def test_a_language_without_a_guide_falls_back_to_english():
    written = guide("fr", "https://x.example")

    assert "Authentication" in written.intro
    assert "POST /api/topup/orders/" in written.sections
    assert "https://x.example/api/topup/orders/" in written.sections["POST /api/topup/orders/"]


def test_raw_html_in_markdown_is_escaped():
    assert "<script>" not in markdown_html("<script>alert(1)</script>\n\n`<b>`")
    assert "&lt;b&gt;" in markdown_html("`<b>`")
    assert "<img" not in markdown_inline('<img src=x onerror="alert(1)">')


def test_the_schema_still_renders_as_yaml_and_json(operator):
    client = Client()
    client.force_login(operator)

    yaml = client.get("/api/topup/schema/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    as_json = client.get("/api/topup/schema/?format=json")

    assert yaml.status_code == 200 and as_json.status_code == 200
    assert "/api/topup/orders/{custno}/" in yaml.content.decode()
