"""Making this process's database unreachable for a moment, without touching the server: the
connection is closed and pointed at a port where nothing listens (as a stopped PostgreSQL
looks to its clients), then restored."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection


@contextmanager
def database_unreachable() -> Iterator[None]:
    """Only for tests outside a transaction (`django_db(transaction=True)`)."""
    saved = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict.update(HOST="127.0.0.1", PORT="1")
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)
