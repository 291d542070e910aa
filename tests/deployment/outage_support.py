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
from typing import Any, TypeVar

import requests

from tests.private_services import PrivatePostgres, PrivateRedis
from tests.sandbox_process import ROOT, SandboxProcess

ORDERS_EVERY_S = 0.5  # one new API order this often, and a repeat of an earlier one
REPEAT_LAG = 3  # each order is sent again this many orders later, with its Idempotency-Key
LOG_LINE = re.compile(r"^\S+ (ERROR|CRITICAL) (.*)$", re.MULTILINE)
T = TypeVar("T")


def wait_until(predicate: Callable[[], Any], timeout_s: float, what: str,
               every_s: float = 0.2, observed: Callable[[], object] | None = None) -> float:
    """Seconds until `predicate()` is true (errors count as false); AssertionError after
    `timeout_s`, naming the last error and what `observed()` shows then, so that a CI log
    tells what was waited for in vain."""
    return wait_for(predicate, timeout_s, what, every_s, observed)[1]


def wait_for(value: Callable[[], T | None], timeout_s: float, what: str, every_s: float = 0.2,
             observed: Callable[[], object] | None = None) -> tuple[T, float]:
    """The first true `value()` and the seconds it took (see `wait_until`)."""
    started = time.monotonic()
    last_error = ""
    while True:
        try:
            found = value()
            if found:
                return found, time.monotonic() - started
        except Exception as error:  # noqa: BLE001 - a server still down, a row not there yet
            last_error = f"{type(error).__name__}: {error}"[:300]
        if time.monotonic() - started >= timeout_s:
            break
        time.sleep(every_s)
    seen = ""
    if observed is not None:
        try:
            seen = f"; observed: {observed()!r}"[:2000]
        except Exception as error:  # noqa: BLE001 - the state itself could not be read
            seen = f"; observing failed: {type(error).__name__}: {error}"
    failed = f"; last error: {last_error}" if last_error else ""
    raise AssertionError(f"timed out after {timeout_s:.0f} s waiting for {what}{failed}{seen}")


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
    # Where each process's current run begins in its log (a restart appends to the log).
    log_starts: dict[str, int] = field(default_factory=dict)
    timeline: list[str] = field(default_factory=list)
    api_key: str = ""  # the merchant's API key, and the campaigns (sent under load, killed)
    campaign_id: int = 0
    killed_campaign_id: int = 0

    def note(self, event: str) -> None:
        """One line of the test's timeline: printed as it happens, and again on failure."""
        line = f"{time.monotonic() - self.began:6.1f} s  {event}"
        self.timeline.append(line)
        print(line, flush=True)

    def start(self, name: str, command: list[str]) -> None:
        path = self.tmp / f"{name}.log"
        log = open(path, "ab")  # noqa: SIM115 - lives with the process
        with self.lock:
            self.log_starts[name] = path.stat().st_size
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
                    self.note(f"{name} exited on its own; its supervisor starts it again")
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

    def log(self, name: str, current: bool = False) -> str:
        """The process's whole log, or (`current`) what its running process wrote."""
        path = self.tmp / f"{name}.log"
        if not path.exists():
            return ""
        with path.open("rb") as log:
            log.seek(self.log_starts.get(name, 0) if current else 0)
            return log.read().decode(errors="replace")

    def started(self, worker: str) -> bool:
        return " ready." in self.log(worker, current=True)

    def diagnosis(self) -> str:
        """What a failed run's log should show: the timeline, supervisor restarts, and per
        process its errors (counted, first line each) and its last lines."""
        parts = ["timeline:", *self.timeline,
                 f"restarted by the supervisor: {self.restarts or 'none'}"]
        for path in sorted(self.tmp.glob("*.log")):
            text = path.read_text(errors="replace")
            errors: dict[str, int] = {}
            for level, message in LOG_LINE.findall(text):
                key = f"{level} {message[:200]}"
                errors[key] = errors.get(key, 0) + 1
            parts.append(f"--- {path.name}: {len(errors)} distinct error lines")
            parts += [f"  {count} x {line}" for line, count in errors.items()][:25]
            parts.append(f"--- {path.name}: last lines")
            parts += ["  " + line[:300] for line in text.splitlines()[-15:]]
        return "\n".join(parts)

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

    def workers_running(self, campaign_id: int, workers: int = 2) -> list[str]:
        """The workers executing a send_campaign task of the campaign now (Celery's `inspect
        active`, over the private broker: tasks started, not those waiting for their time).
        A bare Celery app asks: the project's, given another broker's connection, sends the
        question there but waits for the replies on its own broker."""
        from celery import Celery

        control = Celery("outage-test", broker=self.redis.url, set_as_current=False)
        try:
            replies = control.control.inspect(timeout=3, limit=workers).active() or {}
        finally:
            control.close()
        return sorted(host.split("@")[0] for host, tasks in replies.items()
                      if any(task["name"] == "sms.tasks.send_campaign"
                             and list(task["args"]) == [campaign_id] for task in tasks))

    def kill_between_calls(self, name: str, in_doubt: Callable[[], set[str]],
                           attempts: int = 30) -> tuple[float, int]:
        """SIGKILL a worker while none of the numbers it marked `submitting` is on its way to
        the provider: frozen (SIGSTOP), it is killed once all of them are in the provider's
        report, and let go (SIGCONT) to try again a moment later otherwise. Returns when it was
        frozen for the last time (time.monotonic()) and how many tries it took.

        A worker killed between marking a number and its call reaching the provider leaves a
        number in doubt: send-once then makes the next run wait the reconcile grace (several
        call lengths, 140 s by default) before it sends anything (sms.services.campaigns, rule
        4). That wait is the design's and measured elsewhere (test_sms_uncertain_send_wait);
        here the recovery from a dead worker is measured, as in the killed-worker test."""
        process = self.processes[name]
        left: set[str] = set()
        for attempt in range(1, attempts + 1):
            os.killpg(process.pid, signal.SIGSTOP)
            frozen_at = time.monotonic()
            while True:
                left = in_doubt()
                if not left:
                    self.kill(name)
                    return frozen_at, attempt
                if time.monotonic() - frozen_at > 3:
                    break
                time.sleep(0.1)
            os.killpg(process.pid, signal.SIGCONT)
            time.sleep(0.2 + 0.15 * (attempt % 4))  # another moment of the calls' cycle
        raise AssertionError(f"{name} always had numbers on their way to the provider "
                             f"({attempts} tries; last: {sorted(left)[:10]})")

    def beat_sends(self, beats: tuple[str, ...]) -> dict[str, list[datetime]]:
        """Per job, when a beat logged sending it (both beats, killed ones included)."""
        pattern = re.compile(r"^(\S+) INFO celery\.beat: Scheduler: Sending due task (\S+) ",
                             re.MULTILINE)
        sends: dict[str, list[datetime]] = {}
        for name in beats:
            for stamp, job in pattern.findall(self.log(name)):
                sends.setdefault(job, []).append(datetime.fromisoformat(stamp))
        return {job: sorted(times) for job, times in sends.items()}

    def beat_write_failures(self, beats: tuple[str, ...]) -> list[str]:
        """Jobs whose claim or "sent" mark a beat could not confirm (the database went away
        during the write): such a claim may be stored without `sent_at`."""
        pattern = re.compile(r"beat: could not (?:claim|record that) (\S+)")
        return [job for name in beats for job in pattern.findall(self.log(name))]


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
        """Orders placed since `moment` (their key's first 2xx answer came after it: a
        repeat of an order placed before is not one)."""
        with self.lock:
            before = {answer.key for answer in self.answers
                      if answer.custno and answer.at <= moment}
            return {answer.custno for answer in self.answers if answer.custno
                    and answer.at > moment and answer.key not in before}

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
    """What one fault did and how long the product took to recover, as printed: each figure
    counts from `since`, the moment the part came back (or was killed)."""

    fault: str
    measured: dict[str, float] = field(default_factory=dict)
    since: float = 0.0

    def measure(self, figure: str, predicate: Callable[[], Any], timeout_s: float,
                what: str, observed: Callable[[], object] | None = None) -> float:
        """Wait for `predicate` and record the seconds from `since` as `figure`."""
        wait_until(predicate, timeout_s, what, observed=observed)
        self.measured[figure] = time.monotonic() - self.since
        return self.measured[figure]

    def line(self) -> str:
        figures = ", ".join(f"{what} {seconds:.1f} s" for what, seconds in self.measured.items())
        return f"{self.fault}: {figures}"
