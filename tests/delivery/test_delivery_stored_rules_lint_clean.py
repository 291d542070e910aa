"""Rules that were valid before the documented examples were adopted stay valid: the demo rule
set (as stored by `make run`), the benchmark's rules and the rules the edge tests publish all
lint without an error, and the documented examples do too."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from delivery import demo
from delivery.models import Rule
from edgerules import lint, lint_rule_set
from tests.delivery import test_delivery_edge_rules
from tests.edgerules.documented_examples import EXAMPLES

BENCH = Path(__file__).resolve().parents[2] / "bench" / "edgerules.py"


def bench_rules() -> list[dict[str, Any]]:
    spec = importlib.util.spec_from_file_location("bench_edgerules", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [{"rule": rule.rule, "pattern": rule.pattern} for rule in module.RULES]


def errors(rules: list[dict[str, Any]]) -> dict[int, list[str]]:
    return {
        index: [str(d) for d in found if d.severity == "error"]
        for index, found in lint_rule_set(rules).items()
        if any(d.severity == "error" for d in found)
    }


@pytest.mark.parametrize(
    "rules",
    [demo.RULES, test_delivery_edge_rules.RULES, bench_rules()],
    ids=["demo", "edge tests", "benchmark"],
)
def test_every_kept_rule_lints_without_errors(rules: list[dict[str, Any]]) -> None:
    assert errors(rules) == {}


def test_every_documented_example_lints_clean_as_stored_rules() -> None:
    rules = [{"rule": example.rule, "pattern": example.pattern} for example in EXAMPLES.values()]
    assert lint_rule_set(rules) == {}


def test_the_demo_rules_have_no_dangling_empty_argument() -> None:
    assert not any(", )" in rule["rule"] or ",)" in rule["rule"] for rule in demo.RULES)
    assert sum(1 for rule in demo.RULES
               if (rule["rule"], rule["pattern"]) in set(EXAMPLES.values())) >= 3


@pytest.mark.django_db
def test_every_stored_rule_lints_without_errors(domain: Any) -> None:
    demo.load_rule_set(domain)
    stored = list(Rule.objects.values("rule", "pattern"))
    assert len(stored) >= len(demo.RULES)
    assert {row["rule"]: [str(d) for d in lint(row["rule"], pattern=row["pattern"])
                          if d.severity == "error"]
            for row in stored} == {row["rule"]: [] for row in stored}
