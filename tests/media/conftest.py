"""Fixtures of the media back-office tests: the real sandbox with generated media uploaded,
staff users of each role and signed-in test clients."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.media_fixtures import MediaLab, session_media


@pytest.fixture
def lab(provider, tmp_path_factory) -> MediaLab:
    """The reset sandbox (with the back-office pointed at it) and the session's test media:
    the 6-second MP4 and its HLS cut uploaded, the short HLS and the audio file at hand."""
    media_lab = MediaLab(provider, session_media(tmp_path_factory))
    media_lab.upload_video()
    media_lab.upload_hls()
    return media_lab


@pytest.fixture
def operator(make_user: Callable[..., Any]) -> Any:
    return make_user("content-manager", "Content managers")


@pytest.fixture
def auditor(make_user: Callable[..., Any]) -> Any:
    return make_user("auditor", "Auditors")


@pytest.fixture
def operator_client(client, operator):
    client.force_login(operator)
    return client


@pytest.fixture
def auditor_client(client, auditor):
    client.force_login(auditor)
    return client
