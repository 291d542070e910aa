"""The dashboard stays within bench/report_scale.py's query budget (20) right after the cache
is emptied (a deployment, a Redis restart) as well as warm. The database cache's own queries
and the savepoints around its writes, which Redis does not make, are left out of the count."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.services_support import some_service

pytestmark = pytest.mark.django_db
BUDGET = 20
CACHE_WRITE_BRACKETS = ("SAVEPOINT", "RELEASE SAVEPOINT", "BEGIN", "COMMIT")


def page_queries(client) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        assert client.get("/").status_code == 200
    return [query["sql"] for query in captured.captured_queries
            if "backoffice_cache" not in query["sql"]
            and not query["sql"].startswith(CACHE_WRITE_BRACKETS)]


@pytest.fixture
def signed_in(client, django_user_model, settings):
    # The benchmark's account: services and domains as records, none named by the
    # environment (a configured domain adds the delivery tile's figures and chart).
    settings.PROVIDER = {**settings.PROVIDER,
                         "storage": {**settings.PROVIDER["storage"], "bucket": ""},
                         "delivery": {**settings.PROVIDER["delivery"], "delivery_url": ""}}
    some_service()
    client.force_login(django_user_model.objects.create_superuser("root", password=None))
    client.get("/")  # the session's idle expiry pushed on: not a query of every page
    return client


def test_the_dashboard_counts_again_within_the_budget_after_the_cache_is_emptied(signed_in):
    cache.clear()
    cold = page_queries(signed_in)
    assert len(cold) <= BUDGET, "\n".join(cold)


def test_the_warm_dashboard_makes_fewer_queries_than_the_cold_one(signed_in):
    cache.clear()
    cold = page_queries(signed_in)
    warm = page_queries(signed_in)
    assert len(warm) < len(cold) <= BUDGET


def test_the_person_s_choice_is_read_once_for_the_storage_and_the_delivery_tiles(signed_in):
    queries = page_queries(signed_in)
    assert sum('FROM "console_choice"' in sql for sql in queries) == 1
