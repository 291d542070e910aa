"""The provider's documented rewrite examples, exactly as DECISIONS.md ("Content delivery",
last entry) lists them: normative, they must work as written. Shared by the edgerules tests,
the sandbox edge tests and the check that every stored rule still lints clean."""

from __future__ import annotations

from typing import NamedTuple


class Example(NamedTuple):
    rule: str
    pattern: str = ""


ADD_REQUEST_HEADER_UNDER_FOO = Example(
    r"$WHEN($MATCH($_URI, '^/foo/.*'))$ADD_REQ_HEADER(X-Foo, bar)"
)
DENY_FOO_WITHOUT_REFERER = Example(
    r"$WHEN($MATCH($_URI, '^/foo/'), $NOT($_HEADER_referer))$EXIT(403)"
)
SCRIPTS_TO_HTTPS = Example(
    r"$WHEN($1, $EQ($_SCHEME, http))$REDIRECT(https://$_HOST$_URI, 302)", r"\.(js|css)$"
)
HIDE_ORIGINAL_IMAGES = Example(r"$WHEN($1, $NOT($MATCH($_URI, !)))$EXIT(404)", r"\.(jpg|png|gif)$")
NEW_IMAGES_AS_NRIMG = Example(r"$WHEN($1)$_URI!nrimg", r"^(/)d/new/[^!]+$")
LIMIT_RATE_OF_10_MP4 = Example(
    r"$WHEN($1, $EQ($_HOST, 'test.example.com'))$LIMIT_RATE_AFTER(20, m)$LIMIT_RATE(100, k)",
    r"^(/).+-10\.mp4$",
)
# The docs give these two without a pattern; a capture group is needed for $1.
FOO_WITH_BAR_WITHOUT_QUERY = Example(r"/foo?bar=$1?", r"^/bar/(.*)$")
ADD_RESPONSE_HEADER = Example(r"$ADD_RSP_HEADER(X-Foo, bar)")

EXAMPLES: dict[str, Example] = {
    "add request header under /foo/": ADD_REQUEST_HEADER_UNDER_FOO,
    "deny /foo/ without Referer": DENY_FOO_WITHOUT_REFERER,
    "scripts to https": SCRIPTS_TO_HTTPS,
    "hide original images": HIDE_ORIGINAL_IMAGES,
    "new images as nrimg": NEW_IMAGES_AS_NRIMG,
    "limit rate of -10.mp4": LIMIT_RATE_OF_10_MP4,
    "foo with bar, no query": FOO_WITH_BAR_WITHOUT_QUERY,
    "add response header": ADD_RESPONSE_HEADER,
}
