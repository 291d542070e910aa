"""The rule-set runner: order, matching, query handling, break, debug, redirects, trace."""

from __future__ import annotations

import pytest

import edgerules.evaluator
from edgerules import (
    Exit,
    HeaderChange,
    Outcome,
    Redirect,
    RequestContext,
    RuleSpec,
    Status,
    compile_rule_set,
)

PREVIEW = {"X-svc-Rewrite-Preview": "true"}


def live(rule: str, pattern: str = "", *, break_: bool = False) -> RuleSpec:
    """A rule out of debug mode: it applies to every matching request."""
    return RuleSpec(rule, pattern, break_=break_, state="enabled")


def run(rules: list[RuleSpec], uri: str = "/", query: str = "", **fields: object) -> Outcome:
    ctx = RequestContext(host="www.example.com", uri=uri, query=query, **fields)  # type: ignore[arg-type]
    return compile_rule_set(rules).run(ctx)


def test_spec_example_playlist_rewrite() -> None:
    outcome = run([live("/$1'.m3u8'", r"/(.*)/playlist\.m3u8$")], "/app/stream/playlist.m3u8")
    assert outcome.url == "/app/stream.m3u8"


def test_spec_example_pay_rewrite() -> None:
    rules = [live("/pay.php?payid=$1&categoryid=$2", r"^/pay/([0-9]+)/([0-9]+)/(.*?).html$")]
    outcome = run(rules, "/pay/25/8/x.html")
    assert (outcome.uri, outcome.query) == ("/pay.php", "payid=25&categoryid=8")
    assert outcome.url == "/pay.php?payid=25&categoryid=8"


def test_it_appends_the_original_query_to_the_rewritten_url() -> None:
    assert run([live("/new")], "/old", "a=1&b=2").url == "/new?a=1&b=2"


def test_it_appends_the_original_query_after_the_rule_query() -> None:
    rules = [live("/pay.php?payid=$1", r"^/pay/(\d+)")]
    assert run(rules, "/pay/25", "ref=mail").url == "/pay.php?payid=25&ref=mail"


def test_a_trailing_question_mark_drops_the_original_query() -> None:
    assert run([live("/new?")], "/old", "a=1").url == "/new"


def test_a_trailing_question_mark_keeps_the_rule_query() -> None:
    assert run([live("/new?x=1?")], "/old", "a=1").url == "/new?x=1"


def test_a_double_question_mark_is_a_literal_mark_then_the_no_query_marker() -> None:
    outcome = run([live("/new??")], "/old", "a=1")
    assert (outcome.uri, outcome.query) == ("/new", "")


@pytest.mark.parametrize("rule", [r"/new\?", "/new'?'"])
def test_an_escaped_or_quoted_final_question_mark_still_appends_the_query(rule: str) -> None:
    assert run([live(rule)], "/old", "a=1").url == "/new?a=1"


def test_a_value_starting_with_a_question_mark_keeps_the_path() -> None:
    assert run([live("?lang=en?")], "/docs/a", "x=1").url == "/docs/a?lang=en"


def test_a_rule_with_only_actions_does_not_rewrite() -> None:
    outcome = run([live("$ADD_RSP_HEADER(X-A, 1, )")], "/a", "q=1")
    assert (outcome.url, outcome.rewritten) == ("/a?q=1", False)
    assert outcome.response_headers == (HeaderChange("add", "X-A", "1"),)


def test_del_arg_removes_the_parameter_from_the_appended_query() -> None:
    rules = [live("$DEL_ARG(utm_source)"), live("/search")]
    outcome = run(rules, "/s", "q=cdn&utm_source=mail&utm_source=x&page=2")
    assert outcome.url == "/search?q=cdn&page=2"
    assert outcome.deleted_args == ("utm_source",)


def test_del_arg_applies_without_a_rewrite() -> None:
    assert run([live("$DEL_ARG(a)")], "/s", "a=1&b=2").url == "/s?b=2"


def test_del_arg_keeps_parameters_the_rewrite_writes_itself() -> None:
    assert run([live("/n?a=new$DEL_ARG(a)")], "/s", "a=old").url == "/n?a=new"


def test_rules_that_do_not_match_are_skipped() -> None:
    outcome = run([live("/x", r"^/img/")], "/doc/a")
    assert (outcome.url, outcome.trace[0].status, outcome.trace[0].matched) == (
        "/doc/a",
        Status.NOT_MATCHED,
        False,
    )


def test_an_empty_pattern_matches_every_uri() -> None:
    assert run([live("/all")], "/whatever").url == "/all"


def test_break_stops_later_rules_after_a_successful_rule() -> None:
    rules = [live("/first", break_=True), live("$ADD_RSP_HEADER(X-Later, 1, )")]
    outcome = run(rules, "/a")
    assert (outcome.url, outcome.response_headers) == ("/first", ())
    assert [step.status for step in outcome.trace] == [Status.APPLIED, Status.NOT_REACHED]


def test_double_dollar_at_the_end_breaks_like_the_flag() -> None:
    rules = [live("/first$$"), live("/second")]
    outcome = run(rules, "/a")
    assert outcome.url == "/first"
    assert outcome.trace[1].status is Status.NOT_REACHED


def test_break_marker_and_no_query_marker_combine() -> None:
    rules = [live("/first?$$"), live("/second")]
    assert run(rules, "/a", "q=1").url == "/first"


def test_a_rule_stopped_by_when_does_not_break() -> None:
    rules = [live("$WHEN('')/first", break_=True), live("/second")]
    outcome = run(rules, "/a")
    assert outcome.url == "/second"
    assert outcome.trace[0].status is Status.STOPPED
    assert outcome.trace[0].stopped_at == (1, 1)


def test_a_failed_rule_leaves_no_effect_and_later_rules_run() -> None:
    rules = [live("$ADD_RSP_HEADER(X-A, 1, )/x/$_GET_id"), live("$ADD_RSP_HEADER(X-B, 2, )")]
    outcome = run(rules, "/a")
    assert (outcome.url, outcome.response_headers) == ("/a", (HeaderChange("add", "X-B", "2"),))
    error = outcome.trace[0].error
    assert error is not None
    assert (error.code, error.line, error.column) == ("missing-variable", 1, 29)


def test_a_rule_with_a_syntax_error_fails_when_matched_and_others_still_run() -> None:
    rules = [live("/a$FOO(x)"), live("/b")]
    outcome = run(rules, "/x")
    assert outcome.url == "/b"
    error = outcome.trace[0].error
    assert error is not None
    assert (outcome.trace[0].status, error.code, error.column) == (
        Status.FAILED,
        "unknown-function",
        3,
    )


def test_a_rule_with_a_bad_pattern_fails_and_reports_the_pattern() -> None:
    outcome = run([live("/x", "(unclosed"), live("/b")], "/x")
    step = outcome.trace[0]
    assert step.error is not None
    assert (step.status, step.error.code, step.error.field) == (
        Status.FAILED,
        "bad-pattern",
        "pattern",
    )
    assert outcome.url == "/b"


def test_later_rules_match_the_original_uri_because_rewrites_apply_last() -> None:
    rules = [
        live("/beibei.mp4", r"^/123\.mp4$"),
        live("$ADD_RSP_HEADER(CDN, UPYUN, )", r"^/123\.mp4$"),
    ]
    outcome = run(rules, "/123.mp4")
    assert outcome.url == "/beibei.mp4"
    assert outcome.response_headers == (HeaderChange("add", "CDN", "UPYUN"),)


def test_the_last_completed_rewrite_wins() -> None:
    outcome = run([live("/one"), live("/two"), live("$WHEN('')/three")], "/a")
    assert (outcome.url, outcome.rewrite_rule) == ("/two", 1)


def test_a_redirect_ends_the_rule_set_and_cancels_pending_rewrites() -> None:
    rules = [
        live("/rewritten$ADD_RSP_HEADER(X-A, 1, )"),
        live("$REDIRECT(https://www.upyun.com/, 302)"),
        live("$ADD_RSP_HEADER(X-Never, 1, )"),
    ]
    outcome = run(rules, "/123.mp4")
    assert outcome.redirect == Redirect("https://www.upyun.com/", 302)
    assert (outcome.uri, outcome.rewritten, outcome.ended) == ("/123.mp4", False, True)
    assert outcome.response_headers == (HeaderChange("add", "X-A", "1"),)
    assert [step.status for step in outcome.trace] == [
        Status.APPLIED,
        Status.ENDED,
        Status.NOT_REACHED,
    ]


def test_an_exit_ends_the_rule_set() -> None:
    rules = [live("$EXIT(403, denied)", r"\.jpg$"), live("/never")]
    outcome = run(rules, "/a.jpg")
    assert outcome.exit == Exit(403, "denied")
    assert outcome.trace[0].response == Exit(403, "denied")
    assert outcome.url == "/a.jpg"


def test_when_all_without_arguments_exit_does_not_answer_403() -> None:
    outcome = run([live("$WHEN($ALL(), $EXIT(403))")], "/a")
    assert (outcome.exit, outcome.trace[0].status) == (None, Status.STOPPED)


def test_a_debug_rule_does_not_apply_without_the_preview_header() -> None:
    outcome = run([RuleSpec("/preview", state="test")], "/a")
    assert outcome.url == "/a"
    assert (outcome.trace[0].status, outcome.trace[0].matched) == (Status.DEBUG_SKIPPED, None)


def test_a_debug_rule_applies_with_the_preview_header() -> None:
    outcome = run([RuleSpec("/preview", state="test")], "/a", headers=PREVIEW)
    assert outcome.url == "/preview"


def test_a_preview_header_other_than_true_does_not_activate_debug_rules() -> None:
    headers = {"X-svc-Rewrite-Preview": "1"}
    assert run([RuleSpec("/preview", state="test")], "/a", headers=headers).url == "/a"


def test_live_rules_apply_with_or_without_the_preview_header() -> None:
    assert run([live("/live")], "/a", headers=PREVIEW).url == "/live"


def test_new_rules_are_in_debug_mode_by_default() -> None:
    assert RuleSpec("/x").debug is True
    assert RuleSpec.from_mapping({"rule": "/x"}).debug is True


def test_rule_specs_are_read_from_the_json_list_item() -> None:
    spec = RuleSpec.from_mapping(
        {"rule": "/x", "pattern": "^/a", "break": "true", "debug": "false"}
    )
    assert spec == RuleSpec("/x", "^/a", break_=True, state="enabled")
    assert RuleSpec.from_mapping({"rule": "/x", "pattern": None, "break": 0}).pattern == ""


def test_it_compiles_mappings_and_specs_alike() -> None:
    rule_set = compile_rule_set([{"rule": "/m", "debug": False}, live("/s")])
    assert len(rule_set) == 2


def test_redirect404_and_rate_limits_reach_the_outcome_last_one_winning() -> None:
    rules = [
        live("$REDIRECT404(/a.html)$LIMIT_RATE(1, m)"),
        live("$REDIRECT404(/b.html)$LIMIT_RATE_AFTER(20, m)$LIMIT_RATE(100, k)"),
    ]
    outcome = run(rules, "/x")
    assert (outcome.redirect_404, outcome.limit_rate_after, outcome.limit_rate) == (
        "/b.html",
        20 * 1024 * 1024,
        100 * 1024,
    )


def test_request_and_response_header_changes_are_kept_apart_in_order() -> None:
    rules = [
        live("$ADD_REQ_HEADER(X-1, a)$DEL_RSP_HEADER(X-Powered-By)"),
        live("$DEL_REQ_HEADER(Cookie)$ADD_RSP_HEADER(X-2, b, 1)"),
    ]
    outcome = run(rules, "/x")
    assert outcome.request_headers == (
        HeaderChange("add", "X-1", "a"),
        HeaderChange("delete", "Cookie"),
    )
    assert outcome.response_headers == (
        HeaderChange("delete", "X-Powered-By"),
        HeaderChange("set", "X-2", "b"),
    )


def test_the_trace_records_groups_and_values_of_matched_rules() -> None:
    outcome = run([live("/img/$2/$1", r"^/(\w+)/(\d+)$")], "/cat/42")
    step = outcome.trace[0]
    assert (step.index, step.matched, step.groups, step.value) == (
        0,
        True,
        ("cat", "42"),
        "/img/42/cat",
    )


def test_without_trace_the_outcome_has_no_steps() -> None:
    ctx = RequestContext(host="h", uri="/a")
    outcome = compile_rule_set([live("/b")]).run(ctx, trace=False)
    assert (outcome.url, outcome.trace) == ("/b", ())


def test_a_compiled_rule_set_is_reused_without_reparsing(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real_parse = edgerules.evaluator.parse

    def counting_parse(source: str) -> object:
        calls.append(source)
        return real_parse(source)

    monkeypatch.setattr(edgerules.evaluator, "parse", counting_parse)
    rule_set = compile_rule_set([live("/p/$1", r"^/(\d+)$"), live("$ADD_RSP_HEADER(X, 1, )")])
    urls = [rule_set.run(RequestContext(host="h", uri=f"/{n}")).url for n in range(50)]
    assert urls[7] == "/p/7"
    assert len(calls) == 2


def test_each_request_gets_its_own_outcome() -> None:
    rule_set = compile_rule_set([live("/id/$_GET_id")])
    first = rule_set.run(RequestContext(host="h", uri="/", query="id=1"))
    second = rule_set.run(RequestContext(host="h", uri="/", query="id=2"))
    assert (first.url, second.url) == ("/id/1?id=1", "/id/2?id=2")
