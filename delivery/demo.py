"""Demo data for `make run` (hook: `load(stdout)`): idempotent, talks to the sandbox.

- two image versions, `thumb` (/fw/200) and `webp` (/fw/600/format/webp), kept as they are
  when they exist so staff edits survive a restart;
- a demo rule set with a few rules (a rewrite, a redirect, a header, three of the provider's
  documented examples, rules in test), each with a comment saying what it does;
- all of it on the default domain, and published there through the console API;
- the demo services' domains (console/demo.py) with settings of their own: the videos domain
  open to players on other sites (CORS) with a `poster` version, the own-origin site with HTML
  minification and a blocked documentation network; each published through the console API.

A domain is published only when the console does not hold what it would be sent (no
successful publication, or a different one), so a second `make run` changes nothing.
"""

from __future__ import annotations

from typing import Any, TextIO, TypedDict

from django.contrib.auth import get_user_model

from backoffice.operations.provider import ProviderNotConfigured
from console import demo as console_demo
from console.models import Domain
from console.services import default_domain
from delivery import services
from delivery.client import DeliveryError
from delivery.models import DeliverySettings, ImageVersion, Rule, RuleSet

VERSIONS = {"thumb": "/fw/200", "webp": "/fw/600/format/webp"}
RULE_SET_NAME = "Demo rules"
# The demo services' domains: their settings the first time (staff edits survive a restart)
# and their image versions.
DOMAIN_SETTINGS: dict[str, dict[str, Any]] = {
    # Videos are played from other sites' pages: players fetch them (and HLS playlists) with
    # CORS; a day's Max-Age saves the preflight requests.
    console_demo.VIDEOS_DOMAIN: {"cors_allow_origin": "*", "cors_allow_methods": "GET, HEAD",
                                 "cors_max_age": "86400"},
    # A web site: minified HTML, and a network refused (192.0.2.0/24 is kept for documentation
    # by RFC 5737, so it blocks nobody real).
    console_demo.SITE_DOMAIN: {"html_minify": True, "ip_blacklist": "192.0.2.0/24"},
}
DOMAIN_VERSIONS: dict[str, dict[str, str]] = {
    console_demo.VIDEOS_DOMAIN: {"poster": "/fw/320"},
}


class DemoRule(TypedDict):
    """The fields of one demo Rule, as Rule.objects.create takes them."""

    pattern: str
    rule: str
    breaks: bool
    state: str


RULES: list[DemoRule] = [
    # Serves /<name>/playlist.m3u8 from the stored /<name>.m3u8.
    {"pattern": r"^/(.*)/playlist\.m3u8$", "rule": "/$1'.m3u8'", "breaks": True,
     "state": "enabled"},
    # Moves everything under /old/ to /new/ for good (301).
    {"pattern": r"^/old/(.*)$", "rule": "$REDIRECT(/new/$1, 301)", "breaks": False,
     "state": "enabled"},
    # Marks images served by the edge with a response header.
    {"pattern": r"\.(jpg|png|webp)$", "rule": "$ADD_RSP_HEADER(X-Served-By, demo-edge)",
     "breaks": False, "state": "enabled"},
    # Documented example: anything under /foo/ requested without a Referer (typed in, or
    # fetched by another site's script that strips it) is refused with 403.
    {"pattern": "", "rule": "$WHEN($MATCH($_URI, '^/foo/'), $NOT($_HEADER_referer))$EXIT(403)",
     "breaks": False, "state": "enabled"},
    # Documented example: on test.example.com, a -10.mp4 video is slowed to 100 KB/s after its
    # first 20 MB (the sandbox paces it, and reports it in X-RateLimit-* headers).
    {"pattern": r"^(/).+-10\.mp4$",
     "rule": "$WHEN($1, $EQ($_HOST, 'test.example.com'))$LIMIT_RATE_AFTER(20, m)"
             "$LIMIT_RATE(100, k)",
     "breaks": False, "state": "enabled"},
    # Documented example: scripts and styles asked over http are redirected (302) to https.
    # Left in test (only requests with X-svc-Rewrite-Preview: true), because the sandbox edge
    # speaks plain http.
    {"pattern": r"\.(js|css)$",
     "rule": "$WHEN($1, $EQ($_SCHEME, http))$REDIRECT(https://$_HOST$_URI, 302)",
     "breaks": False, "state": "test"},
    # Still being tried: /beta/<path> serves <path>, only under the preview header.
    {"pattern": r"^/beta/(.*)$", "rule": "/$1", "breaks": False, "state": "test"},
]


def load_versions(domain: Domain, versions: dict[str, str] = VERSIONS) -> int:
    created = 0
    for name, params in versions.items():
        _version, was_created = ImageVersion.objects.get_or_create(
            domain=domain, name=name, defaults={"params": params})
        created += was_created
    return created


def load_rule_set(domain: Domain) -> tuple[RuleSet, bool]:
    rule_set, created = RuleSet.objects.get_or_create(
        domain=domain, name=RULE_SET_NAME,
        defaults={"description": "Examples: an HLS rewrite, a redirect, a response header, "
                                 "three of the provider's documented examples and a rule "
                                 "still in test."})
    if created:
        for position, rule in enumerate(RULES, start=1):
            Rule.objects.create(rule_set=rule_set, position=position, **rule)
    return rule_set, created


def publish_if_needed(domain: Domain, rule_set: RuleSet | None, stdout: TextIO) -> None:
    """Publish the domain unless its last successful publication sent what it holds now."""
    last = services.last_successful_publication(domain)
    if last is not None and last.config == services.preview(domain, rule_set):
        stdout.write(f"  delivery: {domain.name} already published\n")
        return
    user = get_user_model().objects.filter(username="demo").first()
    try:
        record = services.publish(user=user, domain=domain, rule_set=rule_set)
    except (ProviderNotConfigured, DeliveryError, services.PublishBlocked) as error:
        stdout.write(f"  delivery: not published: {error}\n")
        return
    what = f"settings and {rule_set.name!r}" if rule_set else "settings"
    stdout.write(f"  delivery: {what} published to {record.target} for {domain.name}\n")


def load_demo_domains(stdout: TextIO) -> None:
    """The demo services' domains that exist: settings (the first time), versions, publish."""
    for domain in Domain.objects.filter(name__in=DOMAIN_SETTINGS).order_by("name"):
        _row, created = DeliverySettings.objects.get_or_create(
            domain=domain, defaults=DOMAIN_SETTINGS[domain.name])
        added = load_versions(domain, DOMAIN_VERSIONS.get(domain.name, {}))
        stdout.write(f"  delivery: {domain.name}: settings {'added' if created else 'kept'}, "
                     f"{added} image versions added\n")
        publish_if_needed(domain, None, stdout)


def load(stdout: TextIO) -> None:
    try:
        domain = default_domain()
    except ProviderNotConfigured as error:
        stdout.write(f"  delivery: no demo data: {error}\n")
        return
    DeliverySettings.for_domain(domain)
    created = load_versions(domain)
    stdout.write(f"  delivery: {created} image versions added, {len(VERSIONS) - created} kept"
                 f" on {domain.name}\n")
    rule_set, created = load_rule_set(domain)
    stdout.write(f"  delivery: rule set {rule_set.name!r} {'added' if created else 'kept'}\n")
    publish_if_needed(domain, rule_set, stdout)
    load_demo_domains(stdout)
