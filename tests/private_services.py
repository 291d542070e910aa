"""A Redis or PostgreSQL server of a test's own, on a port of its own, so that the test can stop
and restart it (the shared servers are never touched)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_for_port(port: int, up: bool, timeout_s: float = 15.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            probe.settimeout(0.2)
            listening = probe.connect_ex(("127.0.0.1", port)) == 0
        if listening == up:
            return
        time.sleep(0.05)
    raise TimeoutError(f"port {port} still {'closed' if up else 'open'} after {timeout_s}s")


class PrivateRedis:
    """`redis-server` on its own port and directory, without persistence: a restart is empty,
    the harshest case for the cache."""

    def __init__(self, directory: Path, port: int | None = None) -> None:
        self.directory = directory
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise FileNotFoundError("redis-server is not installed")
        self.directory.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_for_port(self.port, up=True)

    def stop(self, sig: int = signal.SIGKILL) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=10)
        self.process = None
        _wait_for_port(self.port, up=False)


def _postgres_binaries() -> Path | None:
    """The newest installed PostgreSQL's bin directory (Debian's layout), or None."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/postgres"),
                   key=lambda path: int(path.parent.parent.name) if
                   path.parent.parent.name.isdigit() else 0)
    return found[-1].parent if found else None


class PrivatePostgres:
    """A PostgreSQL server of the test's own: its own data directory (made with `initdb`,
    trust authentication on 127.0.0.1) and port, so that the test can stop and restart it.

    PostgreSQL refuses to run as root: as root, the server runs as the `postgres` system user
    (`runuser`), and the data directory is made outside the test's private tmp directory.
    Durability is traded for speed (`fsync=off`): the test stops the server, never the
    machine, and the operating system keeps what was written."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.binaries = _postgres_binaries()
        self.directory: Path | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self.database = "backoffice"

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{self.database}"

    def _as_owner(self, command: list[str]) -> list[str]:
        if os.geteuid() == 0:
            return ["runuser", "-u", "postgres", "--", *command]
        return command

    def initialise(self) -> None:
        if self.binaries is None:
            raise FileNotFoundError("PostgreSQL's server is not installed")
        self.directory = Path(tempfile.mkdtemp(prefix="private-postgres-"))
        if os.geteuid() == 0:
            shutil.chown(self.directory, "postgres", "postgres")
        subprocess.run(
            self._as_owner([str(self.binaries / "initdb"), "-D", str(self.directory / "data"),
                            "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"]),
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def start(self) -> None:
        if self.directory is None:
            self.initialise()
        assert self.directory is not None and self.binaries is not None
        log = open(self.directory / "server.log", "ab")  # noqa: SIM115 - lives with the server
        self.process = subprocess.Popen(
            self._as_owner([str(self.binaries / "postgres"), "-D", str(self.directory / "data"),
                            "-p", str(self.port), "-c", "listen_addresses=127.0.0.1",
                            "-c", "unix_socket_directories=", "-c", "fsync=off",
                            "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
                            "-c", "max_connections=200"]),
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        _wait_for_port(self.port, up=True, timeout_s=60)
        self._wait_for_connections()

    def _wait_for_connections(self, timeout_s: float = 60.0) -> None:
        import psycopg

        deadline = time.monotonic() + timeout_s
        while True:
            try:
                psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                                connect_timeout=2).close()
                return
            except psycopg.OperationalError:  # still starting up, or recovering
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def create_database(self) -> None:
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                             autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{self.database}"')

    def stop(self, sig: int = signal.SIGINT) -> None:
        """SIGINT is PostgreSQL's fast shutdown: clients are cut off, as in a restart."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, sig)
            self.process.wait(timeout=60)
        self.process = None
        _wait_for_port(self.port, up=False)

    def remove(self) -> None:
        self.stop()
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)
            self.directory = None
