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


# The public page's worked cases (cdn/edgerules.md, "编程模式（案例）") and the examples of its
# syntax and guide sections, exactly as written there (DECISIONS.md: the page is normative).
# Case 1: token anti-leech with the secret 'abc', three rules.
TOKEN_MISSING = Example(
    r"$WHEN($MATCH($_URI, '.ts$'),$OR($NOT($_GET_t),$NOT($_GET_key)))$EXIT(403)"
)
TOKEN_EXPIRED = Example(r"$WHEN($MATCH($_URI, '.ts$'),$GT($_TIME, $_GET_t))$EXIT(401)")
TOKEN_WRONG = Example(
    r"$WHEN($MATCH($_URI, '.ts$'),$NOT($EQ($MD5('abc'$_GET_t$_URI),$LOWER($_GET_key))))$EXIT(403)"
)
TOKEN_RULES = (TOKEN_MISSING, TOKEN_EXPIRED, TOKEN_WRONG)
# Case 2: no token cookie, redirected.
NO_TOKEN_COOKIE = Example(
    r"$WHEN($NOT($EQ($_URI, /live.html)), $NOT($_COOKIE_token))"
    r"$REDIRECT(http://test.example.com/no_token.html,301)"
)
# Case 3: the configuration guide's pattern (the case writes `^pay/`, which no URI matches:
# every URI starts with `/`), and the playlist rename.
PAY_REWRITE = Example(r"/pay.php?payid=$1&categoryid=$2", r"^/pay/([0-9]+)/([0-9]+)/(.*?).html$")
PLAYLIST_RENAME = Example(r"/$1'.m3u8'", r"/(.*)/playlist\.m3u8$")
# Case 4: request and response headers.
ADD_FROM_CDN = Example(r"$ADD_REQ_HEADER(X-From-Cdn, upyun)")
DELETE_ACCEPT_ENCODING = Example(r"$DEL_REQ_HEADER(Accept-Encoding) ")
OVERWRITE_CDN_HEADER = Example(r"$ADD_RSP_HEADER(CDN, UPYUN, 1) ")
# Case 5: the first 20 MB free, then 800 KB/s.
LIMIT_RATE_800K = Example(
    r"$WHEN($1, $EQ($_HOST, 'test.example.com'))$LIMIT_RATE_AFTER(20, m)$LIMIT_RATE(800, k)",
    r"^(/).+-10\.mp4$",
)
# Case 6: case conversion.
LOWERCASE_MATCH = Example(r"$WHEN($MATCH($LOWER($_URI), /uptest.png)) /UPtest.png")
# Case 7: numeric comparison; the rule's value ("true" once t, in hexadecimal, is over an hour
# old) is what the rule rewrites to.
HEX_TIME_EXPIRED = Example(r"$GT($_TIME,$ADD($INT($_GET_t,16,10),3600))")
# The guide's variables example.
IP_AND_METHOD = Example(r"/index.php?ip=$_IP&method=$_METHOD")
# The syntax section's examples.
QUOTED_VARIABLE = Example(r"/foo/'$_HOST'")
SUB_OF_DECODED_HEADER = Example(r"/$SUB($DECODE_BASE64($_HEADER_foo), $_GET_from, $_GET_to)/")
NO_QUERY_AT_ALL = Example(r"/foo??")
QUOTED_SPECIALS = Example(r"/foo/'$\\,\''")
EMPTY_ALL_IS_FALSE = Example(r"$WHEN($ALL(), $EXIT(403))")

PAGE_CASES: dict[str, Example] = {
    "case 1, token missing": TOKEN_MISSING,
    "case 1, token expired": TOKEN_EXPIRED,
    "case 1, token wrong": TOKEN_WRONG,
    "case 2, no token cookie": NO_TOKEN_COOKIE,
    "case 3, pay rewrite": PAY_REWRITE,
    "case 3, playlist rename": PLAYLIST_RENAME,
    "case 4, add request header": ADD_FROM_CDN,
    "case 4, delete request header": DELETE_ACCEPT_ENCODING,
    "case 4, overwrite response header": OVERWRITE_CDN_HEADER,
    "case 5, rate limit": LIMIT_RATE_800K,
    "case 6, lower-case match": LOWERCASE_MATCH,
    "case 7, hexadecimal time": HEX_TIME_EXPIRED,
    "guide, ip and method": IP_AND_METHOD,
    "syntax, quoted variable": QUOTED_VARIABLE,
    "syntax, nested functions": SUB_OF_DECODED_HEADER,
    "syntax, no query at all": NO_QUERY_AT_ALL,
    "syntax, quoted specials": QUOTED_SPECIALS,
    "syntax, empty $ALL": EMPTY_ALL_IS_FALSE,
}
