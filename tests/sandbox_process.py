"""Starts a real provider sandbox for the tests: a subprocess on free ports with a fresh data
directory, exactly as `make run` starts it, so tests talk HTTP to the real emulator."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parent.parent
SERVICE_COUNT = 8
STORAGE_OFFSET = 3
HTTPS_OFFSET = 9  # the edge's TLS port (sandbox.core.ports.HTTPS_OFFSET)
# The storage port also listens on the other entry lines' addresses (DECISIONS).
LINE_ADDRESSES = ("127.0.0.2", "127.0.0.3", "127.0.0.4")


def ports_free(base: int) -> bool:
    wanted = [("127.0.0.1", port) for port in range(base, base + SERVICE_COUNT)]
    wanted.append(("127.0.0.1", base + HTTPS_OFFSET))
    wanted += [(address, base + STORAGE_OFFSET) for address in LINE_ADDRESSES]
    for address in wanted:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            try:
                probe.bind(address)
            except OSError:
                return False
    return True


def free_base_port() -> int:
    for _ in range(200):
        base = random.randrange(20000, 60000, 10)
        if ports_free(base):
            return base
    raise RuntimeError("no run of eight free ports found")


class SandboxProcess:
    """A running sandbox and a few conveniences for its control API."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.info_file = data_dir / "sandbox.json"
        self.base_port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.info: dict[str, Any] = {}
        self.log_file = data_dir / "sandbox.log"

    def start(self, timeout_s: float = 60) -> None:
        for _attempt in range(3):
            self.base_port = free_base_port()
            command = [sys.executable, "manage.py", "runsandbox",
                       "--base-port", str(self.base_port), "--data-dir", str(self.data_dir),
                       "--info-file", str(self.info_file)]
            env = {**os.environ, "SANDBOX_LOG_LEVEL": "WARNING", "PYTHONUNBUFFERED": "1"}
            self.data_dir.mkdir(parents=True, exist_ok=True)
            log = open(self.log_file, "ab")  # noqa: SIM115 - kept open for the process's life
            self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)
            if self._wait_until_up(timeout_s):
                self.info = json.loads(self.info_file.read_text())
                return
            self.stop()
        raise RuntimeError(f"sandbox did not start; log:\n{self.log_file.read_text()[-3000:]}")

    def _wait_until_up(self, timeout_s: float) -> bool:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                return False
            try:
                if requests.get(f"{self.control_url}/health", timeout=1).ok and \
                        self.info_file.exists():
                    return True
            except requests.RequestException:
                pass
            time.sleep(0.1)
        return False

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)

    @property
    def control_url(self) -> str:
        return f"http://127.0.0.1:{self.base_port}"

    def control(self, method: str, path: str, json_body: Any = None) -> requests.Response:
        return requests.request(method, f"{self.control_url}{path}", json=json_body, timeout=30)

    def reset(self) -> None:
        self.control("POST", "/reset").raise_for_status()

    def now(self) -> float:
        return self.control("GET", "/clock").json()["now"]

    def advance(self, seconds: float) -> float:
        response = self.control("POST", "/clock/advance", {"seconds": seconds})
        response.raise_for_status()
        return response.json()["now"]

    def add_fault(self, **fields: Any) -> dict[str, Any]:
        response = self.control("POST", "/faults", fields)
        response.raise_for_status()
        return response.json()
