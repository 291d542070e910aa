"""The rule tester: a typed request run locally through the rules on the page, with each
rule's trace and the final outcome; bad input is refused naming the field and line."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from delivery.tester import SampleInputError, SampleRequest, build_context

pytestmark = pytest.mark.django_db


def run(client: Any, rules: list[dict[str, Any]], **request: Any) -> Any:
    return client.post(reverse("delivery:test"), {"rules": rules, "request": request},
                       content_type="application/json")


def rule(pattern: str, text: str, **flags: Any) -> dict[str, Any]:
    return {"pattern": pattern, "rule": text, "break": False, "state": "enabled", **flags}


def test_the_trace_shows_each_rule_and_the_final_url(manager_client: Any) -> None:
    rules = [
        rule(r"^/img/(.*)$", "$ADD_REQ_HEADER(X-From, img)"),
        rule(r"^/nomatch$", "/x"),
        rule(r"^/pay/([0-9]+)/([0-9]+)/(.*?).html$", "/pay.php?payid=$1&categoryid=$2",
             **{"break": True}),
        rule("", "/never"),
    ]
    data = run(manager_client, rules, url="http://cdn.example.com/pay/25/8/x.html?a=1").json()
    outcome = data["outcome"]
    assert outcome["url"] == "/pay.php?payid=25&categoryid=8&a=1"
    assert outcome["rewrite_rule"] == 3
    assert [step["status"] for step in outcome["trace"]] == [
        "not-matched", "not-matched", "applied", "not-reached"]
    assert outcome["trace"][2]["groups"] == ["25", "8", "x"]
    assert 'data-status="applied"' in data["html"]
    assert "Rewritten by rule 3" in data["html"]


def test_headers_cookies_and_form_body_reach_the_rules(manager_client: Any) -> None:
    rules = [rule("", "$WHEN($EQ($_HEADER_x_shop, 1), $EQ($_COOKIE_sid, abc), "
                      "$EQ($_POST_kind, gift))/ok?")]
    data = run(manager_client, rules, method="POST", url="/a", headers="X-Shop: 1",
               cookies="sid=abc; other=2", body="kind=gift&n=1").json()
    assert data["outcome"]["url"] == "/ok"
    stopped = run(manager_client, rules, method="POST", url="/a", headers="X-Shop: 2",
                  cookies="sid=abc", body="kind=gift").json()
    assert stopped["outcome"]["trace"][0]["status"] == "stopped"
    assert stopped["outcome"]["trace"][0]["stopped_at"] == [1, 1]


def test_debug_rules_apply_only_with_preview(manager_client: Any) -> None:
    rules = [rule("", "/preview", state="test")]
    assert run(manager_client, rules, url="/a").json()["outcome"]["url"] == "/a"
    assert run(manager_client, rules, url="/a", preview=True).json()["outcome"]["url"] == \
        "/preview"


def test_redirect_exit_and_failures_are_reported(manager_client: Any) -> None:
    redirect = run(manager_client, [rule("", "$REDIRECT(/b, 302)")], url="/a").json()
    assert redirect["outcome"]["redirect"] == {"kind": "redirect", "status": 302,
                                               "location": "/b"}
    failed = run(manager_client, [rule("", "/x?q=$_GET_missing")], url="/a").json()
    step = failed["outcome"]["trace"][0]
    assert step["status"] == "failed"
    assert step["error"]["code"] == "missing-variable"
    assert "line 1, column" in step["error"]["text"]


def test_bad_input_is_refused_naming_field_and_line(manager_client: Any) -> None:
    response = run(manager_client, [], url="/a", headers="X-Ok: 1\nbroken header")
    assert response.status_code == 400
    problems = response.json()["input_errors"]
    assert problems == [{"field": "headers", "line": 2,
                         "text": "Headers, line 2: write Name: value."}]
    assert run(manager_client, [], url="no-slash").status_code == 400
    assert run(manager_client, "not a list").status_code == 400  # type: ignore[arg-type]


@pytest.mark.parametrize(("request_", "field"), [
    (SampleRequest(method="BREW"), "method"),
    (SampleRequest(url="cdn.example.com/a"), "url"),
    (SampleRequest(url="/a b"), "url"),
    (SampleRequest(cookies="novalue"), "cookies"),
])
def test_build_context_names_the_bad_field(request_: SampleRequest, field: str) -> None:
    with pytest.raises(SampleInputError) as caught:
        build_context(request_)
    assert caught.value.problems[0].field == field


def test_build_context_takes_scheme_host_and_query_from_the_url() -> None:
    ctx = build_context(SampleRequest(url="https://img.example.com/a/b.jpg?x=1&y=2"))
    assert (ctx.scheme, ctx.host, ctx.uri, ctx.query) == ("https", "img.example.com",
                                                          "/a/b.jpg", "x=1&y=2")
    relative = build_context(SampleRequest(url="/a", headers="Host: h.example"),
                             default_host="d.example")
    assert relative.host == "h.example"
