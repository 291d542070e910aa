"""The pieces of `test_outages.py`: a deployment on private PostgreSQL and Redis, the load it is
put under, and how recovery is observed.

Every process is a real one, started with the deployment guide's commands (docs/deployment.md):
gunicorn (one web node), two Celery workers and two beats (one active, one standing by). They
share a PostgreSQL and a Redis started for the test alone (tests/private_services.py), so that
the test can stop them, and the session's sandbox (reset), where orders and numbers are counted.
"""

from __future__ import annotations

import itertools
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import requests

from tests.private_services import PrivatePostgres, PrivateRedis
from tests.sandbox_process import ROOT, SandboxProcess

ORDERS_EVERY_S = 0.5  # one new API order this often, and a repeat of an earlier one
REPEAT_LAG = 3  # each order is sent again this many orders later, with its Idempotency-Key


def wait_until(predicate: Callable[[], Any], timeout_s: float, what: str,
               every_s: float = 0.2) -> float:
    """Seconds until `predicate()` is true (errors count as false); AssertionError after
    `timeout_s`."""
    started = time.monotonic()
    while time.monotonic() - started < timeout_s:
        try:
            if predicate():
                return time.monotonic() - started
        except Exception:  # noqa: BLE001 - a server still down, a row not there yet
            pass
        time.sleep(every_s)
    raise AssertionError(f"timed out after {timeout_s:.0f} s waiting for {what}")


@dataclass
class Deployment:
    env: dict[str, str]
    tmp: Path
    web_port: int
    redis: PrivateRedis
    postgres: PrivatePostgres
    sandbox: SandboxProcess
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    commands: dict[str, list[str]] = field(default_factory=dict)
    # (process, seconds since the test began) of each exit the supervisor saw and restarted.
    restarts: list[tuple[str, float]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    stopping: threading.Event = field(default_factory=threading.Event)
    began: float = field(default_factory=time.monotonic)
    api_key: str = ""  # the merchant's API key, and the campaign sent under load
    campaign_id: int = 0

    def start(self, name: str, command: list[str]) -> None:
        log = open(self.tmp / f"{name}.log", "ab")  # noqa: SIM115 - lives with the process
        with self.lock:
            self.commands[name] = command
            self.processes[name] = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True)

    def supervise(self) -> threading.Thread:
        """Restart a process that exits on its own, as its supervisor (systemd's
        `Restart=always`) does in a deployment: a Celery worker that loses Redis while it holds
        unacknowledged tasks can exit (kombu 5.7 fails restoring them: "Unrecoverable error:
        AttributeError ... 'hostname'"). Processes the test kills are not restarted here."""

        def watch() -> None:
            while not self.stopping.wait(0.5):
                with self.lock:
                    exited = [name for name, process in self.processes.items()
                              if process.poll() is not None]
                for name in exited:
                    self.restarts.append((name, time.monotonic() - self.began))
                    self.start(name, self.commands[name])

        thread = threading.Thread(target=watch, name="supervisor", daemon=True)
        thread.start()
        return thread

    # The guide's commands.
    def web(self) -> None:
        self.start("web", [str(Path(sys.executable).parent / "gunicorn"), "-c",
                           "deploy/gunicorn.conf.py", "backoffice.wsgi"])

    def worker(self, name: str) -> None:
        self.start(name, [sys.executable, "-m", "celery", "-A", "backoffice", "worker",
                          "--loglevel", "INFO", "--concurrency", "2", "-n", f"{name}@outage"])

    def beat(self, name: str) -> None:
        self.start(name, [sys.executable, "-m", "celery", "-A", "backoffice", "beat",
                          "--loglevel", "INFO", "--pidfile", ""])

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        with self.lock:
            process = self.processes.pop(name)
        if process.poll() is None:
            os.killpg(process.pid, sig)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)

    def stop_all(self) -> None:
        self.stopping.set()
        for name in list(self.processes):
            self.kill(name, signal.SIGTERM)

    def log(self, name: str) -> str:
        path = self.tmp / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def started(self, worker: str) -> bool:
        return " ready." in self.log(worker)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.web_port}{path}"

    # --- what the provider saw -----------------------------------------------------------

    def charged(self) -> list[dict[str, Any]]:
        """Every top-up order at the sandbox."""
        answer = self.sandbox.control("GET", "/topup/orders")
        answer.raise_for_status()
        orders: list[dict[str, Any]] = answer.json()["orders"]
        return orders

    def callback_calls(self) -> list[dict[str, Any]]:
        answer = self.sandbox.control("GET", "/topup/callbacks")
        answer.raise_for_status()
        calls: list[dict[str, Any]] = answer.json()["callbacks"]
        return calls

    def numbers_sent(self) -> list[str]:
        from tests.sms.conftest import provider_report

        return [record["mobile"] for record in provider_report(self.sandbox)]

    # --- which process does what -----------------------------------------------------------

    def worker_running_the_campaign(self, workers: tuple[str, ...]) -> str | None:
        """The worker whose log shows a send_campaign task received and not finished."""
        for name in workers:
            log = self.log(name)
            received = re.findall(r"sms\.tasks\.send_campaign\[([0-9a-f-]+)\] received", log)
            finished = set(re.findall(
                r"sms\.tasks\.send_campaign\[([0-9a-f-]+)\] (?:succeeded|raised|failed|retry)",
                log))
            if any(task not in finished for task in received):
                return name
        return None

    def beat_sends(self, beats: tuple[str, ...]) -> dict[str, list[datetime]]:
        """Per job, when a beat logged sending it (both beats, killed ones included)."""
        pattern = re.compile(r"^(\S+) INFO celery\.beat: Scheduler: Sending due task (\S+) ",
                             re.MULTILINE)
        sends: dict[str, list[datetime]] = {}
        for name in beats:
            for stamp, job in pattern.findall(self.log(name)):
                sends.setdefault(job, []).append(datetime.fromisoformat(stamp))
        return {job: sorted(times) for job, times in sends.items()}


@dataclass
class Answer:
    key: str
    status: int
    retry_after: str | None
    custno: str | None
    at: float  # time.monotonic() when answered


class OrderLoad(threading.Thread):
    """A merchant's system placing API orders: a new one every ORDERS_EVERY_S, and each sent
    again REPEAT_LAG orders later with the same Idempotency-Key and body (as a client that did
    not get, or did not trust, the first answer)."""

    def __init__(self, deployment: Deployment, api_key: str) -> None:
        super().__init__(name="order-load", daemon=True)
        self.deployment = deployment
        self.headers = {"Authorization": f"Bearer {api_key}"}
        self.bodies: dict[str, dict[str, str]] = {}
        self.answers: list[Answer] = []
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self.session = requests.Session()

    def run(self) -> None:
        for number in itertools.count():
            if self.stopping.wait(ORDERS_EVERY_S):
                return
            key = f"outage-{number}"
            self.bodies[key] = {"mobile": f"1380013{number % 10_000:04d}", "product": "CMCC_10"}
            self.place(key)
            if number >= REPEAT_LAG:
                self.place(f"outage-{number - REPEAT_LAG}")

    def place(self, key: str) -> Answer:
        try:
            reply = self.session.post(
                self.deployment.url("/api/topup/orders/"), json=self.bodies[key], timeout=15,
                headers={**self.headers, "Idempotency-Key": key})
            custno = reply.json().get("custno") if reply.status_code in (200, 201) else None
            answer = Answer(key, reply.status_code, reply.headers.get("Retry-After"), custno,
                            time.monotonic())
        except requests.RequestException as error:
            answer = Answer(key, 0, str(error), None, time.monotonic())
        with self.lock:
            self.answers.append(answer)
        return answer

    def stop(self) -> None:
        self.stopping.set()
        self.join(30)

    def answered_since(self, moment: float) -> list[Answer]:
        with self.lock:
            return [answer for answer in self.answers if answer.at > moment]

    def custnos_placed_since(self, moment: float) -> set[str]:
        return {answer.custno for answer in self.answered_since(moment) if answer.custno}

    def settle_every_key(self, timeout_s: float) -> dict[str, str]:
        """Send every key again until it is answered 2xx (after the outages); key -> custno."""
        custnos: dict[str, str] = {}
        deadline = time.monotonic() + timeout_s
        for key in list(self.bodies):
            while True:
                answer = self.place(key)
                if answer.custno:
                    custnos[key] = answer.custno
                    break
                assert time.monotonic() < deadline, f"{key} never answered 2xx: {answer}"
                time.sleep(1)
        return custnos


@dataclass
class Recovery:
    """What one fault did and how long the product took to recover, as printed."""

    fault: str
    measured: dict[str, float] = field(default_factory=dict)

    def line(self) -> str:
        figures = ", ".join(f"{what} {seconds:.1f} s" for what, seconds in self.measured.items())
        return f"{self.fault}: {figures}"
