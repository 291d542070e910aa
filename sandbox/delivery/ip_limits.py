"""IP access limit rules of own-origin domains (DECISIONS.md: "a path pattern with `*`, a count
per IP per 60 s window, and then either a ban (at least 60 s) or a delay (at most 30 s)").

- A rule's pattern matches the whole request path (without the query, URL-decoded, as
  requested, before any rewrite), case-sensitive; `*` is any run of characters.
- Each rule counts, per client address (`access.client_ip`), the requests its pattern matches
  in a window of 60 s opened by the first of them. Requests 1..count of a window are served
  as usual; from count + 1 on, the rule acts:
  - `ban`: the request is answered 403 (IP_LIMIT_BANNED) and the address is banned from the
    rule's paths for `seconds`; during the ban every matching request gets the 403 and is not
    counted; when the ban ends, a new window starts with the next request.
  - `delay`: the answer is held for `seconds`, then the request is served (every further
    request of that window too).
  When several rules match, a ban wins; otherwise the longest delay applies.
- Windows and bans read the sandbox clock (`sandbox.core.clock`), so a test moves the clock
  instead of waiting; the delay itself is real time (the answer is held).
- The counters are kept in memory, per process (the sandbox is one process): a restart or a
  reset forgets them, and so does a change of the rule (a rule is known by its domain, index,
  pattern, count, action and seconds).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Any

from sandbox.delivery.errors import IP_LIMIT_BANNED, EdgeError

WINDOW_SECONDS = 60.0
ACTIONS = ("ban", "delay")
MAX_COUNT = 100000
MIN_BAN_SECONDS = 60
MAX_BAN_SECONDS = 30 * 86400
MAX_DELAY_SECONDS = 30
MAX_RULES = 100


@dataclass(frozen=True)
class LimitRule:
    pattern: str
    count: int
    action: str  # ban | delay
    seconds: int
    regex: re.Pattern[str] = field(compare=False)

    @classmethod
    def from_json(cls, item: dict[str, Any]) -> LimitRule:
        pattern = str(item["pattern"])
        return cls(pattern, int(item["count"]), str(item["action"]), int(item["seconds"]),
                   compile_pattern(pattern))


def compile_pattern(pattern: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in pattern.split("*")), re.DOTALL)


@dataclass
class _Counter:
    window_start: float
    count: int = 0
    banned_until: float = 0.0


_lock = threading.Lock()
_counters: dict[tuple[str, int, LimitRule, str], _Counter] = {}
PRUNE_ABOVE = 10000  # counters kept before the finished ones are dropped


def check(domain: str, rules: tuple[LimitRule, ...], ip: str, path: str, now: float) -> float:
    """Count the request; raise the ban's 403, or return the seconds to hold the answer
    (0 when no rule acts)."""
    delay = 0.0
    banned: LimitRule | None = None
    with _lock:
        if len(_counters) > PRUNE_ABOVE:
            _prune(now)
        for index, rule in enumerate(rules):
            if not rule.regex.fullmatch(path):
                continue
            key = (domain, index, rule, ip)
            counter = _counters.get(key)
            if counter is not None and counter.banned_until > now:
                banned = banned or rule
                continue
            if counter is None or now >= counter.window_start + WINDOW_SECONDS \
                    or counter.banned_until:
                counter = _counters[key] = _Counter(window_start=now)
            counter.count += 1
            if counter.count <= rule.count:
                continue
            if rule.action == "ban":
                counter.banned_until = now + rule.seconds
                banned = banned or rule
            else:
                delay = max(delay, float(rule.seconds))
    if banned is not None:
        raise EdgeError(403, IP_LIMIT_BANNED,
                        f"too many requests from {ip} to {banned.pattern}: banned for "
                        f"{banned.seconds} s (more than {banned.count} in 60 s)")
    return delay


def _prune(now: float) -> None:
    for key in [key for key, counter in _counters.items()
                if counter.banned_until <= now
                and now >= counter.window_start + WINDOW_SECONDS]:
        del _counters[key]


def forget(domain: str | None = None) -> None:
    """Drop the counters (of one domain, or all: on reset)."""
    with _lock:
        for key in [key for key in _counters if domain is None or key[0] == domain]:
            del _counters[key]
