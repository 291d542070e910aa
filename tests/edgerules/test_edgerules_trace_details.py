"""The trace names the condition of $WHEN/$ALL/$ANY that was false (its text and value) and
the value each variable of the rule had, absent or not evaluated ones marked as such."""

from __future__ import annotations

from edgerules import RequestContext, RuleSpec, Status, compile_rule_set, evaluate
from edgerules.probe import ConditionCheck, VariableReading
from tests.edgerules.documented_examples import DENY_FOO_WITHOUT_REFERER


def step_of(rule: str, pattern: str = "", **fields: object):
    ctx = RequestContext(host="cdn.example.com", **fields)  # type: ignore[arg-type]
    outcome = compile_rule_set([RuleSpec(rule, pattern, state="enabled")]).run(ctx)
    return outcome.trace[0]


def test_the_false_condition_of_when_is_named_with_its_text_and_value() -> None:
    step = step_of(DENY_FOO_WITHOUT_REFERER.rule, uri="/foo/a",
                   headers={"Referer": "https://shop.example.com/"})
    assert step.status is Status.STOPPED
    assert step.checks == (
        ConditionCheck("WHEN", 1, "$MATCH($_URI, '^/foo/')", "true", 1, 7),
        ConditionCheck("WHEN", 2, "$NOT($_HEADER_referer)", "", 1, 32),
    )
    assert [check.held for check in step.checks] == [True, False]


def test_a_false_condition_inside_all_is_named_before_the_when_it_stopped() -> None:
    step = step_of("$WHEN($ALL($EQ($_GET_a, 1), $EQ($_GET_b, 2)))/x", uri="/", query="a=1&b=3")
    false = [(c.function, c.position, c.text, c.value) for c in step.checks if not c.held]
    assert false == [
        ("ALL", 2, "$EQ($_GET_b, 2)", ""),
        ("WHEN", 1, "$ALL($EQ($_GET_a, 1), $EQ($_GET_b, 2))", ""),
    ]


def test_every_false_condition_of_any_is_listed() -> None:
    step = step_of("$WHEN($ANY($_GET_a, $_GET_b))/x", uri="/")
    assert [(c.function, c.position, c.value) for c in step.checks] == [
        ("ANY", 1, ""), ("ANY", 2, ""), ("WHEN", 1, ""),
    ]


def test_variables_are_listed_with_their_values_and_absent_ones_marked() -> None:
    step = step_of("$WHEN($_GET_a, $_HEADER_referer, $_COOKIE_sid)/$_URI", uri="/p", query="a=7")
    assert step.readings == (
        VariableReading("$_GET_a", "7", 1, 7),
        VariableReading("$_HEADER_referer", None, 1, 16),
        VariableReading("$_COOKIE_sid", None, 1, 34, evaluated=False),
        VariableReading("$_URI", None, 1, 48, evaluated=False),
    )
    assert [reading.absent for reading in step.readings] == [False, True, False, False]


def test_a_variable_read_twice_is_listed_once() -> None:
    step = step_of("/$_URI$_URI", uri="/p")
    assert step.readings == (VariableReading("$_URI", "/p", 1, 2),)


def test_the_edge_run_records_nothing() -> None:
    ctx = RequestContext(uri="/foo/a")
    rule_set = compile_rule_set([RuleSpec(DENY_FOO_WITHOUT_REFERER.rule, state="enabled")])
    assert rule_set.run(ctx, trace=False).trace == ()


def test_a_single_evaluation_can_be_traced_too() -> None:
    result = evaluate("$WHEN($EQ($_SCHEME, http))/x", RequestContext(scheme="https"), trace=True)
    assert result.checks == (ConditionCheck("WHEN", 1, "$EQ($_SCHEME, http)", "", 1, 7),)
    assert result.readings == (VariableReading("$_SCHEME", "https", 1, 11),)
