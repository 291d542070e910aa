"""In a real browser: a rule edited in the rule-set editor gets its syntax error marked at the
right line and column as it is typed, the fix clears it, the tester runs the rules on the page,
and the rule set is saved."""

from __future__ import annotations

from typing import Any

import pytest

from delivery.models import Rule, RuleSet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_syntax_error_is_marked_then_fixed_and_the_tester_runs(
        page: Any, live_server: Any, staff_login: Any, domain: Any) -> None:
    staff_login("manager", groups=("Content managers",))
    rule_set = RuleSet.objects.create(domain=domain, name="site")
    Rule.objects.create(rule_set=rule_set, position=1, pattern=r"^/img/(.*)$",
                        rule="/images/$1", state="enabled")
    page.goto(f"{live_server.url}/delivery/rules/{rule_set.pk}/")

    rule_box = page.locator("textarea.dl-rule").first
    rule_box.fill("$WHEN($EQ($_HOST, cdn.example.com)/x")
    mark = page.locator('[data-diagnostics="rule"] mark.dl-mark-error').first
    mark.wait_for(state="visible")
    assert (mark.get_attribute("data-line"), mark.get_attribute("data-column")) == ("1", "6")
    assert mark.get_attribute("data-code") == "unbalanced-paren"
    message = page.locator('[data-diagnostics="rule"] .dl-message').first
    assert message.inner_text().startswith("Line 1, column 6: Unbalanced parentheses")
    assert rule_box.get_attribute("aria-invalid") == "true"

    rule_box.fill("$WHEN($EQ($_HOST, cdn.example.com))/images/$1")
    page.wait_for_function(
        "() => document.querySelector('textarea.dl-rule').getAttribute('aria-invalid')"
        " === 'false'")
    assert page.locator('[data-diagnostics="rule"]').first.is_hidden()

    page.fill("#dl-test-url", "http://cdn.example.com/img/cat.jpg?size=2")
    page.click("#dl-run-test")
    final = page.locator("#dl-final-url")
    final.wait_for(state="visible")
    assert final.inner_text() == "/images/cat.jpg?size=2"
    assert page.locator('.dl-step[data-step="1"]').get_attribute("data-status") == "applied"

    page.fill("#dl-test-url", "http://other.example.com/img/cat.jpg")
    page.click("#dl-run-test")
    page.locator('.dl-step[data-status="stopped"]').wait_for(state="visible")
    assert page.locator("#dl-final-url").inner_text() == "/img/cat.jpg"

    page.click("#dl-save")
    page.locator(".messages li.success").wait_for(state="visible")
    assert Rule.objects.get().rule == "$WHEN($EQ($_HOST, cdn.example.com))/images/$1"


def test_a_new_rule_row_is_added_and_checked(page: Any, live_server: Any,
                                             staff_login: Any, domain: Any) -> None:
    staff_login("manager", groups=("Content managers",))
    page.goto(f"{live_server.url}/delivery/rules/new/")
    page.fill("#id_name", "fresh")
    page.click("#dl-add-rule")
    rows = page.locator("[data-rule-row]")
    assert rows.count() == 2
    second = rows.nth(1)
    second.locator("textarea.dl-pattern").fill("^/(a")
    pattern_mark = second.locator('[data-diagnostics="pattern"] mark.dl-mark-error')
    pattern_mark.wait_for(state="visible")
    second.locator("textarea.dl-pattern").fill("^/(a)$")
    second.locator("textarea.dl-rule").fill("/b/$1")
    page.wait_for_function(
        "() => document.querySelectorAll('[data-rule-row]')[1]"
        ".querySelector('textarea.dl-pattern')"
        ".getAttribute('aria-invalid') === 'false'")
    page.click("#dl-save")
    page.locator(".messages li.success").wait_for(state="visible")
    saved = RuleSet.objects.get(name="fresh")
    assert [(r.pattern, r.rule, r.state, r.test_addresses) for r in saved.rules.all()] == [
        ("^/(a)$", "/b/$1", "test", "127.0.0.1")]  # in test for the editor's own address
