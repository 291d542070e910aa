"""In a real browser: a documented example typed into the rule-set editor gets no mark, the
tester names the condition that was false and shows the absent Referer, and it saves."""

from __future__ import annotations

from typing import Any

import pytest

from delivery.models import Rule, RuleSet
from tests.edgerules.documented_examples import DENY_FOO_WITHOUT_REFERER

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_documented_example_is_clean_runs_in_the_tester_and_saves(
        page: Any, live_server: Any, staff_login: Any, domain: Any) -> None:
    staff_login("manager", groups=("Content managers",))
    rule_set = RuleSet.objects.create(domain=domain, name="site")
    Rule.objects.create(rule_set=rule_set, position=1, rule="/x", state="enabled")
    page.goto(f"{live_server.url}/delivery/rules/{rule_set.pk}/")

    rule_box = page.locator("textarea.dl-rule").first
    rule_box.fill("$WHEN($MATCH($_URI, '^/foo/'), $NOT($_HEADER_referer))$EXIT()")
    page.locator('[data-diagnostics="rule"] mark.dl-mark-error').first.wait_for(state="visible")
    message = page.locator('[data-diagnostics="rule"] .dl-message').first
    assert "$EXIT is missing E1 (status)" in message.inner_text()

    rule_box.fill(DENY_FOO_WITHOUT_REFERER.rule)
    page.wait_for_function(
        "() => document.querySelector('textarea.dl-rule').getAttribute('aria-invalid') === 'false'")
    assert page.locator('[data-diagnostics="rule"]').first.is_hidden()

    page.fill("#dl-test-url", "http://cdn.example.com/foo/a.txt")
    page.click("#dl-run-test")
    page.locator('.dl-step[data-status="ended"]').wait_for(state="visible")
    absent = page.locator('tr[data-variable="$_HEADER_referer"]')
    assert absent.get_attribute("data-absent") == "true"
    assert absent.inner_text().endswith("absent")

    page.fill("#dl-test-headers", "Referer: https://shop.example.com/")
    page.click("#dl-run-test")
    false = page.locator(".dl-false-condition")
    false.wait_for(state="visible")
    assert false.inner_text().startswith(
        "Condition 2 of $WHEN (line 1, column 32) was false: $NOT($_HEADER_referer)")

    page.click("#dl-save")
    page.locator(".messages li.success").wait_for(state="visible")
    assert Rule.objects.get().rule == DENY_FOO_WITHOUT_REFERER.rule
