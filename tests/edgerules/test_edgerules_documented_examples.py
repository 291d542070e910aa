"""Every rewrite example of the provider's documentation works as written (DECISIONS.md,
"Content delivery", last entry): the linter finds nothing, and running it gives the documented
result."""

from __future__ import annotations

import pytest

from edgerules import (
    Exit,
    HeaderChange,
    Outcome,
    Redirect,
    RequestContext,
    RuleSpec,
    Status,
    compile_rule_set,
    lint,
)
from tests.edgerules.documented_examples import (
    ADD_REQUEST_HEADER_UNDER_FOO,
    ADD_RESPONSE_HEADER,
    DENY_FOO_WITHOUT_REFERER,
    EXAMPLES,
    FOO_WITH_BAR_WITHOUT_QUERY,
    HIDE_ORIGINAL_IMAGES,
    LIMIT_RATE_OF_10_MP4,
    NEW_IMAGES_AS_NRIMG,
    SCRIPTS_TO_HTTPS,
    Example,
)


def run(example: Example, uri: str, *, host: str = "cdn.example.com", **fields: object) -> Outcome:
    ctx = RequestContext(host=host, uri=uri, **fields)  # type: ignore[arg-type]
    return compile_rule_set([RuleSpec(example.rule, example.pattern, state="enabled")]).run(ctx)


@pytest.mark.parametrize("example", EXAMPLES.values(), ids=EXAMPLES.keys())
def test_the_linter_finds_nothing_in_a_documented_example(example: Example) -> None:
    assert lint(example.rule, pattern=example.pattern) == []


def test_add_req_header_under_foo_adds_the_header() -> None:
    outcome = run(ADD_REQUEST_HEADER_UNDER_FOO, "/foo/a.txt")
    assert outcome.request_headers == (HeaderChange("add", "X-Foo", "bar"),)
    assert run(ADD_REQUEST_HEADER_UNDER_FOO, "/bar/a.txt").request_headers == ()


def test_foo_without_referer_ends_with_403() -> None:
    outcome = run(DENY_FOO_WITHOUT_REFERER, "/foo/a.txt")
    assert outcome.exit == Exit(403, "")


def test_foo_with_a_referer_is_not_denied() -> None:
    outcome = run(DENY_FOO_WITHOUT_REFERER, "/foo/a.txt", headers={"Referer": "https://a.com/"})
    assert (outcome.exit, outcome.trace[0].status) == (None, Status.STOPPED)


def test_scripts_over_http_redirect_302_to_https() -> None:
    outcome = run(SCRIPTS_TO_HTTPS, "/static/a.js", scheme="http")
    assert outcome.redirect == Redirect("https://cdn.example.com/static/a.js", 302)


def test_scripts_over_https_are_not_redirected() -> None:
    assert run(SCRIPTS_TO_HTTPS, "/static/a.css", scheme="https").redirect is None


def test_an_original_image_ends_with_404() -> None:
    assert run(HIDE_ORIGINAL_IMAGES, "/pic.jpg").exit == Exit(404, "")


def test_a_processed_image_is_not_hidden() -> None:
    outcome = run(HIDE_ORIGINAL_IMAGES, "/pic.jpg!/fw/50")
    assert (outcome.exit, outcome.trace[0].status) == (None, Status.NOT_MATCHED)
    # A URI that ends like an image but carries the separator passes the $MATCH too.
    assert run(HIDE_ORIGINAL_IMAGES, "/pic!thumb.jpg").exit is None


def test_new_images_are_served_as_the_nrimg_version() -> None:
    assert run(NEW_IMAGES_AS_NRIMG, "/d/new/pic.jpg").url == "/d/new/pic.jpg!nrimg"
    assert run(NEW_IMAGES_AS_NRIMG, "/d/new/pic.jpg!thumb").rewritten is False


def test_10_mp4_on_the_test_host_is_rate_limited() -> None:
    outcome = run(LIMIT_RATE_OF_10_MP4, "/v/clip-10.mp4", host="test.example.com")
    assert (outcome.limit_rate_after, outcome.limit_rate) == (20 * 1024**2, 100 * 1024)


def test_10_mp4_on_another_host_is_not_rate_limited() -> None:
    outcome = run(LIMIT_RATE_OF_10_MP4, "/v/clip-10.mp4", host="cdn.example.com")
    assert (outcome.limit_rate_after, outcome.limit_rate) == (None, None)


def test_a_trailing_question_mark_drops_the_original_query() -> None:
    outcome = run(FOO_WITH_BAR_WITHOUT_QUERY, "/bar/x", query="q=1")
    assert (outcome.uri, outcome.query) == ("/foo", "bar=x")


def test_add_rsp_header_with_two_arguments_adds_the_header() -> None:
    outcome = run(ADD_RESPONSE_HEADER, "/any")
    assert outcome.response_headers == (HeaderChange("add", "X-Foo", "bar"),)
