"""Fixtures of the object storage back-office tests: a client on the real sandbox, staff users
of each role, a private MEDIA_ROOT and a real Celery worker."""

from __future__ import annotations

import hashlib
import os
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from console.services import default_service
from storage.client import RetryPolicy, StorageClient


@pytest.fixture
def sandbox_storage(sandbox) -> StorageClient:
    """A plain client (no Django, no contact recording) on the reset sandbox's bucket; its
    retries do not sleep, so fault tests stay fast."""
    info = sandbox.info
    return StorageClient(
        info["storage_url"],
        info["storage"]["bucket"],
        info["storage"]["operator"],
        info["storage"]["password"],
        retry=RetryPolicy(attempts=4, sleep=lambda _seconds: None),
    )


def synced_client(sandbox) -> StorageClient:
    """A client whose clock follows the sandbox clock (after `advance`), as a client on a
    provider with a correct clock would be."""
    info = sandbox.info
    offset = sandbox.now() - time.time()
    return StorageClient(
        info["storage_url"],
        info["storage"]["bucket"],
        info["storage"]["operator"],
        info["storage"]["password"],
        retry=RetryPolicy(attempts=4, sleep=lambda _seconds: None),
        clock=lambda: time.time() + offset,
    )


@pytest.fixture
def media_root(settings, tmp_path: Path) -> Path:
    """MEDIA_ROOT in the test's own directory, so local copies are checked in isolation."""
    root = tmp_path / "media"
    root.mkdir()
    settings.MEDIA_ROOT = root
    return root


@pytest.fixture
def manager(make_user: Callable[..., Any]) -> Any:
    return make_user("content-manager", "Content managers")


@pytest.fixture
def auditor(make_user: Callable[..., Any]) -> Any:
    return make_user("auditor", "Auditors")


@pytest.fixture
def manager_client(client, manager):
    client.force_login(manager)
    return client


@pytest.fixture
def auditor_client(client, auditor):
    client.force_login(auditor)
    return client


@pytest.fixture(autouse=True)
def private_broker() -> Iterator[None]:
    """Without REDIS_URL, Celery messages go to an in-memory broker instead of the file-system
    one under var/, which other processes (a `make run` worker) share."""
    from backoffice.celery import app

    if os.environ.get("REDIS_URL"):
        yield
        return
    previous = app.conf.broker_url
    app.conf.broker_url = "memory://"  # type: ignore[misc]  # read-only to celery-types
    _drop_connections(app)
    yield
    _drop_connections(app)
    app.conf.broker_url = previous  # type: ignore[misc]


def _drop_connections(app) -> None:
    """Forget the app's cached pools so the next message uses the current broker_url (kombu
    keeps one pool per broker URL, so nothing is closed here)."""
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def celery_worker(private_broker) -> Iterator[object]:
    """A real Celery worker thread running our tasks, on this test's broker (the in-memory
    one, or this engineer's Redis db), emptied of earlier tests' messages first."""
    from celery.contrib.testing.worker import start_worker

    from backoffice.celery import app

    app.control.purge()
    with start_worker(app, perform_ping_check=False, pool="solo", shutdown_timeout=30) as worker:
        yield worker


def md5_of(data: bytes) -> str:
    return hashlib.md5(data).hexdigest()


def pseudo_random_bytes(size: int, seed: int = 7) -> bytes:
    """Deterministic bytes that never repeat per MiB, so a part sent twice or out of place
    changes the file's MD5."""
    return random.Random(seed).randbytes(size)


@pytest.fixture
def fast_client(provider):
    """The back-office's own client (provider settings, contact recording) whose retries do
    not sleep; handed to services that accept a client."""
    from storage.services.connection import storage_client

    return storage_client(default_service(),
                          retry=RetryPolicy(attempts=4, sleep=lambda _seconds: None))


def stage_copy(data: bytes) -> Path:
    """A local copy in the back-office's upload directory, as the browser upload leaves it."""
    import uuid

    from storage.services.uploads import upload_dir

    path = upload_dir() / f"{uuid.uuid4().hex}.upload"
    path.write_bytes(data)
    return path


def queue_upload(data: bytes, target: str, **fields):
    """An UploadTask for `data` (not enqueued: the test runs it)."""
    from storage.services.uploads import create_upload

    return create_upload(default_service(), source=stage_copy(data), target_path=target,
                         original_name=target.rsplit("/", 1)[-1], size=len(data),
                         md5=md5_of(data), enqueue=False, **fields)


@pytest.fixture(autouse=True)
def parts_one_after_the_other(settings: Any) -> None:
    """The upload-flow tests describe parts sent in order (their saved progress, a fault after
    the third part); sending parts at once has its own tests, which raise the setting."""
    settings.STORAGE_UPLOAD_PARTS_IN_FLIGHT = 1


@pytest.fixture
def through_backoffice(settings) -> None:
    """Browser uploads take the path through the back-office (STORAGE_BROWSER_UPLOAD_ROUTE),
    which stays supported for networks where browsers cannot reach the provider."""
    settings.STORAGE_BROWSER_UPLOAD_ROUTE = "through-backoffice"
