"""Benchmark of the edge rule-set runner against bare pattern matching.

Builds a realistic 20-rule set, generates 100,000 requests, and measures in the same run:

- bare: searching the URI with the same 20 patterns compiled with ``regex``, nothing else;
- runner: ``RuleSet.run(ctx, trace=False)``, the edge's per-request call;
- runner with trace: ``RuleSet.run(ctx)``, what the rule tester uses (for information).

Target: the runner costs at most 10 times the bare matching. Run it with
``.venv/bin/python bench/edgerules.py`` (optionally ``--requests N --seed S``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import regex

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from edgerules import Outcome, RequestContext, RuleSpec, compile_rule_set  # noqa: E402

TARGET_RATIO = 10.0
CHUNK = 5_000

RULES: tuple[RuleSpec, ...] = (
    RuleSpec(
        r"$ADD_RSP_HEADER(Cache-Control, 'public, max-age=31536000', 1)",
        r"^/static/",
        state="enabled",
    ),
    RuleSpec(r"/$1'.m3u8'", r"/(.*)/playlist\.m3u8$", break_=True, state="enabled"),
    RuleSpec(
        r"/pay.php?payid=$1&categoryid=$2",
        r"^/pay/([0-9]+)/([0-9]+)/(.*?).html$",
        break_=True,
        state="enabled",
    ),
    RuleSpec(r"$REDIRECT(https://$_HOST/new/$1, 301)", r"^/old/(.*)$", state="enabled"),
    RuleSpec(r"$LIMIT_RATE_AFTER(20, m)$LIMIT_RATE(100, k)", r"^/download/", state="enabled"),
    RuleSpec(
        r"$WHEN($NOT($EQ($_METHOD, GET)))$ADD_REQ_HEADER(X-Edge-Write, 1)",
        r"^/api/",
        state="enabled",
    ),
    RuleSpec(
        r"$WHEN($PCALL($_HEADER_referer),"
        r" $NOT($MATCH($_HEADER_referer, '^https?://([a-z0-9-]+\\.)*example\\.com/', 1)))"
        r"$EXIT(403, 'hotlink denied')",
        r"\.(jpg|png|gif)$",
        state="enabled",
    ),
    RuleSpec(
        r"$WHEN($MATCH($PCALL($_HEADER_user_agent), 'mobile|android|iphone', 1))/mobile/$1",
        r"^/m/(.*)$",
        state="enabled",
    ),
    RuleSpec(r"/images/$3!/fw/$1", r"^/img/(\d+)/(\d+)/(.*)$", state="enabled"),
    RuleSpec(r"/$2?lang=$LOWER($1)", r"^/lang/(\w+)/(.*)$", state="enabled"),
    RuleSpec(
        r"$WHEN($PCALL($_COOKIE_session))$ADD_REQ_HEADER(X-Session, $_COOKIE_session)",
        r"^/secure/",
        state="enabled",
    ),
    RuleSpec(
        r"$SELECT($GE($1, 2), /api/v2/$2, /api/legacy/$2)", r"^/v(\d+)/(.*)$", state="enabled"
    ),
    RuleSpec(r"$REDIRECT404(/promo/index.html)", r"^/promo", state="enabled"),
    RuleSpec(r"$DEL_ARG(utm_source)$DEL_ARG(utm_medium)", r"^/search", state="enabled"),
    RuleSpec(r"$ADD_RSP_HEADER(X-Robots-Tag, noindex, )", r"^/tmp/", state="enabled"),
    RuleSpec(r"$EXIT(200, ok)", r"^/health$", state="enabled"),
    RuleSpec(r"/index.php?route=$1", r"^/(.*)\.php$", state="test"),
    RuleSpec(
        r"$ADD_RSP_HEADER(Access-Control-Allow-Origin, *, 1)",
        r"^/assets/(.*)\.(css|js)$",
        state="enabled",
    ),
    RuleSpec(r"/avatars/$MD5($1).png?", r"^/u/([^/]+)/avatar$", state="enabled"),
    RuleSpec(
        r"$WHEN($EQ($_SCHEME, http), $EQ($_HOST, secure.example.com))"
        r"$REDIRECT(https://$_HOST$_URI, 301)",
        r"^/",
        state="enabled",
    ),
)

PATHS: tuple[Callable[[random.Random], str], ...] = (
    lambda r: f"/static/js/app.{r.randrange(1000)}.js",
    lambda r: f"/live/ch{r.randrange(50)}/playlist.m3u8",
    lambda r: f"/pay/{r.randrange(100)}/{r.randrange(20)}/item{r.randrange(9)}.html",
    lambda r: f"/old/page/{r.randrange(500)}",
    lambda r: f"/download/pkg-{r.randrange(300)}.tar.gz",
    lambda r: f"/api/items/{r.randrange(10000)}",
    lambda r: f"/photos/{r.randrange(10000)}.jpg",
    lambda r: f"/m/news/{r.randrange(1000)}",
    lambda r: f"/img/{r.randrange(800)}/{r.randrange(600)}/pic{r.randrange(99)}.png",
    lambda r: f"/lang/{r.choice(['EN', 'zh', 'Fr'])}/docs/{r.randrange(40)}",
    lambda r: f"/secure/account/{r.randrange(100)}",
    lambda r: f"/v{r.randrange(1, 4)}/users/{r.randrange(5000)}",
    lambda r: "/promo",
    lambda r: "/search",
    lambda r: f"/tmp/{r.randrange(100)}",
    lambda r: "/health",
    lambda r: f"/legacy/{r.randrange(100)}.php",
    lambda r: f"/assets/site{r.randrange(30)}.css",
    lambda r: f"/u/user{r.randrange(1000)}/avatar",
    lambda r: f"/articles/{r.randrange(10000)}/index.html",
)
HOSTS = ("www.example.com", "cdn.example.com", "secure.example.com", "img.other.net")
AGENTS = ("Mozilla/5.0 (iPhone)", "Mozilla/5.0 (Windows NT 10.0)", "curl/8.0", "Android 14")
REFERERS = ("https://www.example.com/", "https://evil.test/", None)


def request_specs(count: int, seed: int) -> list[dict[str, object]]:
    """Plain request descriptions; contexts are built fresh from them for every pass."""
    rng = random.Random(seed)
    specs: list[dict[str, object]] = []
    for _ in range(count):
        headers = {"User-Agent": rng.choice(AGENTS), "Accept": "*/*"}
        referer = rng.choice(REFERERS)
        if referer:
            headers["Referer"] = referer
        if rng.random() < 0.3:
            headers["Cookie"] = f"session=s{rng.randrange(10**6)}; theme=dark"
        if rng.random() < 0.01:
            headers["X-svc-Rewrite-Preview"] = "true"
        query = rng.choice(("", "", "q=edge&utm_source=mail&utm_medium=x", "page=2"))
        specs.append(
            {
                "method": rng.choice(("GET", "GET", "GET", "POST")),
                "scheme": rng.choice(("http", "https")),
                "host": rng.choice(HOSTS),
                "uri": rng.choice(PATHS)(rng),
                "query": query,
                "headers": headers,
            }
        )
    return specs


def contexts(specs: Sequence[dict[str, object]], seed: int) -> list[RequestContext]:
    rng = random.Random(seed)
    return [RequestContext(**spec, time=1_700_000_000.0, rng=rng) for spec in specs]  # type: ignore[arg-type]


def per_request(seconds: float, count: int) -> float:
    return seconds / count * 1e6


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=20240601)
    options = parser.parse_args(argv)
    count = options.requests

    started = time.perf_counter()
    rule_set = compile_rule_set(RULES)
    compile_ms = (time.perf_counter() - started) * 1e3
    searches = [regex.compile(rule.pattern).search for rule in RULES]
    specs = request_specs(count, options.seed)

    # Warm-up so neither side pays one-off costs (regex caches, first closures) in the timing.
    for ctx in contexts(specs[:2000], options.seed):
        rule_set.run(ctx, trace=False)

    # The three measurements are interleaved chunk by chunk, so load from other processes on
    # the machine weighs on all of them alike instead of skewing the ratio.
    bare = edge = traced = 0.0
    outcomes: list[Outcome] = []
    run = rule_set.run
    for first in range(0, count, CHUNK):
        chunk = specs[first : first + CHUNK]
        edge_contexts = contexts(chunk, options.seed + first)
        traced_contexts = contexts(chunk, options.seed + first)
        uris = [ctx.uri for ctx in edge_contexts]

        started = time.perf_counter()
        for uri in uris:
            for search in searches:
                search(uri)
        bare += time.perf_counter() - started

        started = time.perf_counter()
        outcomes.extend([run(ctx, trace=False) for ctx in edge_contexts])
        edge += time.perf_counter() - started

        started = time.perf_counter()
        for ctx in traced_contexts:
            run(ctx)
        traced += time.perf_counter() - started

    rewritten = sum(outcome.rewritten for outcome in outcomes)
    ended = sum(outcome.ended for outcome in outcomes)
    ratio = edge / bare
    print(f"rule set: {len(rule_set)} rules, compiled in {compile_ms:.1f} ms")
    print(f"requests: {count:,} ({rewritten:,} rewritten, {ended:,} answered at the edge)")
    print(f"bare regex matching of the 20 patterns: {per_request(bare, count):7.2f} us/request")
    print(f"runner (edge, trace off):               {per_request(edge, count):7.2f} us/request")
    print(f"runner with trace (rule tester):        {per_request(traced, count):7.2f} us/request")
    print(f"ratio runner / bare matching: {ratio:.2f} (target <= {TARGET_RATIO:g})")
    met = ratio <= TARGET_RATIO
    print("target met" if met else "TARGET MISSED")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
