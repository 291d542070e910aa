"""What the benchmarks that run the back-office as a server share: a database of the run's own,
a free port, gunicorn started and answering."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent


def bench_database(tmp: Path) -> tuple[str, object]:
    """A database for this run only: (DATABASE_URL, a function that drops it)."""
    base = os.environ.get("DATABASE_URL", "")
    if base.startswith(("postgres://", "postgresql://", "pgsql://")):
        import psycopg

        name = f"bench_{uuid.uuid4().hex[:8]}"
        parts = urlsplit(base)
        admin_url = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
        with psycopg.connect(admin_url, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')

        def drop() -> None:
            with psycopg.connect(admin_url, autocommit=True) as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

        return urlunsplit(parts._replace(path=f"/{name}")), drop
    return f"sqlite:///{tmp / 'bench.sqlite3'}", lambda: None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(env: dict[str, str], port: int, workers: int,
                 threads: int) -> subprocess.Popen:
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    server = subprocess.Popen([gunicorn, "backoffice.wsgi", "--bind", f"127.0.0.1:{port}",
                               "--workers", str(workers), "--threads", str(threads),
                               "--log-level", "warning"],
                              cwd=ROOT, env=env, start_new_session=True)
    import requests

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("gunicorn stopped during start-up")
        try:
            if requests.get(f"http://127.0.0.1:{port}/health", timeout=1).ok:
                return server
        except requests.RequestException:
            time.sleep(0.2)
    server.terminate()
    raise SystemExit("gunicorn did not answer within a minute")
