"""With DATABASE_URL and REDIS_URL set (as on CI) the back-office really uses PostgreSQL and
Redis; without them these tests are skipped with the reason (failed when REQUIRE_SERVICES=1)."""

import subprocess
import sys

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection

from tests.sandbox_process import ROOT

pytestmark = pytest.mark.services


@pytest.mark.django_db
def test_the_database_is_postgresql(postgres):
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        assert cursor.fetchone()[0].startswith("PostgreSQL")


def test_the_shared_cache_is_redis(redis_url):
    import redis

    assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")
    cache.set("foundation-probe", "seen by every process", 30)
    # Read it back with a separate client, as another process would.
    raw_keys = redis.Redis.from_url(redis_url).keys("*foundation-probe*")
    assert raw_keys
    assert cache.get("foundation-probe") == "seen by every process"
    cache.delete("foundation-probe")


def test_celery_uses_redis_as_its_broker(redis_url):
    result = subprocess.run(
        [sys.executable, "-c", "from backoffice.celery import app; print(app.conf.broker_url)"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={"PATH": "/usr/bin:/bin", "SECRET_KEY": "x", "REDIS_URL": redis_url,
             "DJANGO_SETTINGS_MODULE": "backoffice.settings"})
    assert result.stdout.strip() == redis_url, result.stderr
