"""The dashboard's count of mirrored files is taken at most once a minute: counting reads the
whole mirror, so a figure a minute old is served from the cache instead."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.utils import timezone

from console.services import default_service
from storage import dashboard
from storage.models import StoredFile

pytestmark = pytest.mark.django_db


def mirror(path: str) -> None:
    StoredFile.objects.create(
        service=default_service(), path=path, parent="/", name=path.strip("/"),
        kind=StoredFile.Kind.FILE,
        last_seen=timezone.now(),
    )


def test_the_mirrored_file_count_is_cached_for_a_minute(provider):
    cache.delete(dashboard.FILES_KEY.format(default_service().pk))
    mirror("/a.jpg")

    assert dashboard.mirrored_files(default_service()) == 1
    mirror("/b.jpg")
    assert dashboard.mirrored_files(default_service()) == 1  # from the cache

    cache.delete(dashboard.FILES_KEY.format(default_service().pk))
    assert dashboard.mirrored_files(default_service()) == 2
    cache.delete(dashboard.FILES_KEY.format(default_service().pk))
