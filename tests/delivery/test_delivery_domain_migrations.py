"""A database from before domains existed reaches the per-domain schema (delivery 0005-0006)
with nothing lost: every record has the environment's domain (console attached it in 0004),
each purge lists it among the domains it touched, and names are unique per domain only."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("delivery", "0002_delivery_records")]
# The console's latest state too: the domain made below needs its columns (publish state, on
# PostgreSQL a NOT NULL column the migration's default does not leave in the table).
def after() -> list[tuple[str, str]]:
    """delivery 0006 with the console at its newest migration, whichever that is."""
    loader = MigrationExecutor(connection).loader
    newest = next(node for node in loader.graph.leaf_nodes() if node[0] == "console")
    return [("delivery", "0006_domain_required"), newest]


def migrate(targets: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def latest() -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_old_delivery_records_reach_the_per_domain_schema(settings: Any) -> None:
    settings.PROVIDER = {**settings.PROVIDER,
                         "storage": {**settings.PROVIDER["storage"], "bucket": "shop-images"},
                         "delivery": {**settings.PROVIDER["delivery"],
                                      "delivery_url": "https://img.example.com"}}
    try:
        old = migrate(BEFORE)
        old.get_model("delivery", "DeliverySettings").objects.create(pk=1, separator="_")
        old.get_model("delivery", "ImageVersion").objects.create(name="small", params="/fw/80")
        old.get_model("delivery", "RuleSet").objects.create(name="main")
        for _ in range(2):
            old.get_model("delivery", "PurgeRequest").objects.create(
                source="manual", urls="http://img.example.com/a.jpg", url_count=1)
        apps = migrate(after())
        domain = apps.get_model("console", "Domain").objects.get()
        assert domain.name == "img.example.com"
        assert apps.get_model("delivery", "DeliverySettings").objects.get(
            domain=domain).separator == "_"
        for purge in apps.get_model("delivery", "PurgeRequest").objects.all():
            assert [d.pk for d in purge.domains.all()] == [domain.pk]
        other = apps.get_model("console", "Domain").objects.create(
            service_id=domain.service_id, name="other.example.com")
        rule_sets = apps.get_model("delivery", "RuleSet").objects
        rule_sets.create(domain=other, name="main")  # the same name on another domain
        with pytest.raises(IntegrityError), transaction.atomic():
            rule_sets.create(domain=domain, name="main")
    finally:
        latest()
