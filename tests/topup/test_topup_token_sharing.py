"""The one signing token shared by every process: refreshed under a lock (one refresh when two
workers need it at once), before it expires, and once after the provider refuses it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
import requests
from django.db import close_old_connections, connection
from django.utils import timezone

from topup import services
from topup.models import TokenState
from topup.services.shared_token import CACHE_KEY, SharedTokenProvider, TokenSnapshot, read_snapshot
from topup.signing import balance_sign

ROOT = Path(__file__).resolve().parents[2]


def counting_fetch(calls: list[str], delay_s: float = 0.0):
    """refreshToken through the real client, counted, slowed down to widen any race."""
    client = services.build_client()

    def fetch() -> str:
        time.sleep(delay_s)
        token = client.refresh_token()
        calls.append(token)
        return token

    return fetch


@pytest.mark.django_db(transaction=True)
def test_two_workers_needing_a_token_at_once_cause_one_refresh(topup_sandbox):
    if connection.vendor == "sqlite" and connection.settings_dict["NAME"].startswith("file:"):
        pytest.skip("in-memory SQLite test database: connections cannot wait for each other")
    calls: list[str] = []
    provider = SharedTokenProvider(counting_fetch(calls, delay_s=0.3))
    start = threading.Barrier(2)
    got: list[str] = []
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            start.wait()
            got.append(provider.current())
        except BaseException as error:  # reported below, not lost in the thread
            errors.append(error)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    assert len(calls) == 1, "both workers refreshed: one would kill the other's token"
    assert got == [calls[0], calls[0]]
    assert TokenState.objects.get().refresh_count == 1
    services.build_client().get_my_balance()  # the token both hold is the provider's current one


@pytest.mark.django_db
def test_a_token_is_fetched_once_and_then_reused(topup_sandbox):
    calls: list[str] = []
    provider = SharedTokenProvider(counting_fetch(calls))
    first = provider.current()
    assert provider.current() == first
    assert calls == [first]
    state = TokenState.objects.get()
    assert state.expires_at is not None
    assert state.token == first and state.expires_at > timezone.now() + timedelta(hours=23)


@pytest.mark.django_db
def test_a_token_close_to_expiry_is_replaced_before_it_expires(topup_sandbox, settings):
    settings.TOPUP_TOKEN_REFRESH_MARGIN_S = 3600
    calls: list[str] = []
    provider = SharedTokenProvider(counting_fetch(calls))
    first = provider.current()
    TokenState.objects.filter(pk=1).update(expires_at=timezone.now() + timedelta(minutes=30))
    from django.core.cache import cache

    cache.delete(CACHE_KEY)
    second = provider.current()
    assert second != first and len(calls) == 2
    state = TokenState.objects.get()
    assert state.previous_token == first  # still accepted on callbacks for the grace period
    assert state.previous_until is not None
    assert state.previous_until > timezone.now() + timedelta(minutes=9)


@pytest.mark.django_db
def test_a_token_refused_by_the_provider_is_refreshed_once_and_the_call_retried(topup_sandbox):
    client = services.build_client()
    client.get_my_balance()
    ours = TokenState.objects.get().token
    # Someone else (a second system on the same account) takes a new token: ours is dead.
    info = topup_sandbox.sandbox.info
    answer = requests.post(f"{info['traffic_url']}/refreshToken", json={
        "appkey": info["topup"]["appkey"], "appsecret": info["topup"]["appsecret"]}, timeout=10)
    assert answer.json()["code"] == "200"
    balance = client.get_my_balance()  # 502 -> one refresh -> retried
    assert balance.balance > 0
    state = TokenState.objects.get()
    assert state.token != ours and state.refresh_count == 2 and state.previous_token == ours


@pytest.mark.django_db
def test_a_token_expired_at_the_provider_is_replaced(topup_sandbox):
    client = services.build_client()
    client.get_my_balance()
    topup_sandbox.advance(24 * 3600 + 60)  # the provider's clock: the token is now expired
    assert client.get_my_balance().balance > 0
    assert TokenState.objects.get().refresh_count == 2


@pytest.mark.django_db
def test_a_refresh_asked_with_an_outdated_token_takes_the_new_one_without_fetching(
        topup_sandbox):
    calls: list[str] = []
    provider = SharedTokenProvider(counting_fetch(calls))
    old = provider.current()
    new = provider.refresh(old)
    assert new != old and len(calls) == 2
    # A worker that still held the old token is refused and asks again: no third refresh.
    assert provider.refresh(old) == new
    assert len(calls) == 2


@pytest.mark.django_db
def test_the_cached_copy_follows_every_refresh(topup_sandbox):
    provider = SharedTokenProvider(counting_fetch([]))
    first = provider.current()
    second = provider.refresh(first)
    snapshot = read_snapshot()
    assert isinstance(snapshot, TokenSnapshot)
    assert snapshot.token == second and snapshot.previous_token == first
    assert snapshot.callback_tokens(timezone.now()) == (second, first)


def _child_database_url(tmp_path) -> str:
    """The database the child processes share: this test's, or a migrated SQLite file."""
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
        return (f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:"
                f"{db['PORT'] or 5432}/{db['NAME']}")
    # The in-memory test database is invisible to other processes: give them a real file,
    # which is what web, worker and beat share under `make run`.
    url = f"sqlite:///{tmp_path / 'race.sqlite3'}"
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "x"}
    env.pop("REDIS_URL", None)
    for command in (["migrate", "--verbosity", "0"], ["createcachetable"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True)
    return url


@pytest.mark.django_db(transaction=True)
def test_two_processes_needing_a_token_at_once_cause_one_refresh(topup_sandbox, tmp_path):
    url = _child_database_url(tmp_path)
    info = topup_sandbox.sandbox.info
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "x", "PYTHONPATH": str(ROOT),
           "DJANGO_SETTINGS_MODULE": "backoffice.settings", "TRAFFIC_URL": info["traffic_url"],
           "TOPUP_APPKEY": info["topup"]["appkey"],
           "TOPUP_APPSECRET": info["topup"]["appsecret"]}
    if connection.vendor == "sqlite":
        env.pop("REDIS_URL", None)
    start_at = time.time() + 3  # both processes are up and waiting by then
    children = [subprocess.Popen([sys.executable, "-m", "tests.topup.token_race_worker",
                                  str(start_at)], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = []
    for child in children:
        out, err = child.communicate(timeout=60)
        assert child.returncode == 0, err[-2000:]
        results.append(json.loads(out.strip().splitlines()[-1]))
    assert sum(r["fetched"] for r in results) == 1, results
    assert results[0]["token"] == results[1]["token"]
    # And the provider agrees that this is its current token.
    answer = requests.post(f"{info['traffic_url']}/getMyBalance", json={
        "appkey": info["topup"]["appkey"],
        "sign": balance_sign(appkey=info["topup"]["appkey"], token=results[0]["token"])},
        timeout=10).json()
    assert answer["code"] == "200"
