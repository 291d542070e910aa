"""Migration 0009: a rule in debug mode becomes a rule in test, any other an enabled one; and
back."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("delivery", "0008_purge_error_kind")]
AFTER = [("delivery", "0009_rule_states")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture(autouse=True)
def latest_schema_afterwards():
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_debug_rules_become_rules_in_test_and_others_enabled():
    apps = migrate(BEFORE)
    service = apps.get_model("console", "Service").objects.create(name="bucket")
    domain = apps.get_model("console", "Domain").objects.create(service=service,
                                                                name="cdn.example.com")
    rule_set = apps.get_model("delivery", "RuleSet").objects.create(domain=domain, name="s")
    rule = apps.get_model("delivery", "Rule")
    rule.objects.create(rule_set=rule_set, position=1, rule="/a", debug=True)
    rule.objects.create(rule_set=rule_set, position=2, rule="/b", debug=False)
    apps = migrate(AFTER)
    found = apps.get_model("delivery", "Rule").objects.order_by("position")
    assert [(r.rule, r.state, r.test_addresses) for r in found] == [
        ("/a", "test", ""), ("/b", "enabled", "")]
    apps = migrate(BEFORE)
    back = apps.get_model("delivery", "Rule").objects.order_by("position")
    assert [(r.rule, r.debug) for r in back] == [("/a", True), ("/b", False)]
