"""Benchmark of campaign sending: the real worker code against the real sandbox.

Starts the provider sandbox (a subprocess, as the tests and `make run` start it) and, on a
database of its own created on the server of DATABASE_URL and dropped afterwards, sends:

- plain: a 20,000-number campaign without variables, which must go in calls of up to 1,000
  numbers;
- personalised: a 1,000-number campaign whose every number has its own values, one call per
  distinct set of values, with SMS_SEND_CONCURRENCY calls in flight (4 unless
  `--concurrency` says otherwise), and once more one call at a time (as before issue 30).
  The sandbox answers from this machine, as fast as its share of the CPU allows; a real
  provider's answer time is mostly network and queueing, so for this campaign the sandbox
  waits `--latency` seconds (0.05 unless told) before working on each send call
  (`send_latency_s`), for the bare calls and the worker alike. `--latency 0` measures the
  sandbox's own ceiling instead.

Each campaign is stored as the send page stores it and sent by `sms.services.run_campaign`, the
function the Celery task calls, with every message state written as in production. Beside
it, in the same run, the very same calls (same numbers, values and grouping) are made bare
from this one process with the same client and as many calls in flight, once before and once
after the worker (their mean time: the sandbox slows as its own database fills): the sandbox's
own rate for them. It prints messages per second, provider calls per message and the ratio
worker / bare, and checks that every message ended `processing` with a provider id. Targets:
plain at least 0.5 of the bare rate; personalised at least 0.7 of the bare rate with the same
concurrency, and at least 3 times the rate of one call at a time.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres SECRET_KEY=x \\
        .venv/bin/python bench/campaign_send.py [--plain 20000] [--personalised 2000] \\
        [--concurrency 4]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backoffice.settings")

TARGET_RATIO = 0.5  # plain
TARGET_PERSONAL_RATIO = 0.7  # personalised, against bare calls with as many in flight
TARGET_SPEEDUP = 3.0  # personalised, against the worker making one call at a time
PLAIN = {
    "title": "活动通知", "temp_sign": "示例商城", "content": "周末全场8折，欢迎光临。退订回T",
    "sign_location": "top", "type": "marketing", "report_type": "general",
}
PERSONAL = {
    "title": "验证码", "temp_sign": "示例商城", "content": "{$var1}您好，您的验证码是{$var2}。",
    "sign_location": "top", "type": "industry", "report_type": "general",
}


def bench_database() -> tuple[str, str]:
    """(DATABASE_URL of a new database for this run, the admin URL to drop it with)."""
    import psycopg

    base = os.environ.get("DATABASE_URL", "")
    if not base.startswith(("postgres://", "postgresql://")):
        sys.exit("DATABASE_URL must name a PostgreSQL server")
    parts = urlsplit(base)
    name = f"bench_send_{uuid.uuid4().hex[:8]}"
    admin_url = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}")), admin_url


def drop_database(url: str, admin_url: str) -> None:
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass
class Rate:
    messages: int
    calls: int
    seconds: float

    @property
    def per_s(self) -> float:
        return self.messages / self.seconds

    def line(self, label: str) -> str:
        return (
            f"{label:<8} {self.messages:,} messages in {self.seconds:.2f} s: "
            f"{self.per_s:,.0f} messages/s, {self.calls:,} calls, "
            f"{self.calls / self.messages:.4f} calls per message"
        )


def counting_client(calls: list[int], in_calls: list[float] | None = None):  # type: ignore[no-untyped-def]
    """The configured client (sms.services.sms_client), counting its send calls and timing
    them (the seconds spent waiting for the sandbox go to `in_calls[0]`)."""
    import threading

    from sms.services import sms_client

    client = sms_client()
    send = client.send
    lock = threading.Lock()  # calls come from several threads at once

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        started = time.perf_counter()
        try:
            return send(*args, **kwargs)
        finally:
            with lock:
                calls[0] += 1
                if in_calls is not None:
                    in_calls[0] += time.perf_counter() - started

    client.send = counted  # type: ignore[method-assign]
    return client


def recipients(count: int, start: int, personalised: bool) -> str:
    lines = []
    for n in range(start, start + count):
        mobile = f"1390{n:07d}"
        lines.append(f"{mobile},客户{n},{n % 1_000_000:06d}" if personalised else mobile)
    return "\n".join(lines)


def send_with_worker(template, lines: str) -> tuple[Rate, int]:  # type: ignore[no-untyped-def]
    """Store the campaign as the send page does, queue it, run it as the task does."""
    from sms import services
    from sms.models import Campaign, CampaignState, Message, MessageStatus

    preview = services.preview_recipients(template, lines, [])
    if preview.bad:
        sys.exit(f"bench recipients refused: {preview.bad[:3]}")
    campaign = services.store_recipients(template, preview.good)
    Campaign.objects.filter(pk=campaign.pk).update(state=CampaignState.QUEUED)
    calls = [0]
    in_calls = [0.0]
    client = counting_client(calls, in_calls)
    started = time.perf_counter()
    outcome = services.run_campaign(campaign.pk, budget_s=3600, client=client)
    elapsed = time.perf_counter() - started
    print(f"  worker's calls lasted {in_calls[0]:.2f} s in all, over {elapsed:.2f} s")
    if outcome.state != CampaignState.DONE:
        sys.exit(f"campaign ended {outcome.state}: {Campaign.objects.get(pk=campaign.pk)}")
    sent = Message.objects.filter(
        campaign=campaign, status=MessageStatus.PROCESSING, provider_message_id__isnull=False
    ).count()
    return Rate(campaign.total_numbers, calls[0], elapsed), sent


def send_bare(template, lines: str, in_flight: int = 1) -> Rate:  # type: ignore[no-untyped-def]
    """The same calls as the worker makes: groups of one value set, at most 1,000 numbers,
    a chunk's calls `in_flight` at a time (a chunk waits for the one before, as the worker's)."""
    from concurrent.futures import ThreadPoolExecutor

    from sms import services
    from sms.services import CHUNK_SIZE

    preview = services.preview_recipients(template, lines, [])
    chunks = [preview.good[i : i + CHUNK_SIZE] for i in range(0, len(preview.good), CHUNK_SIZE)]
    calls = [0]
    client = counting_client(calls)
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=in_flight) as pool:
        for chunk in chunks:
            groups: dict[tuple[str, ...], list[str]] = {}
            for line in chunk:
                groups.setdefault(tuple(line.variables), []).append(line.mobile)
            futures = [pool.submit(client.send, template.provider_id, mobiles, list(values))
                       for values, mobiles in groups.items()]
            for future in futures:
                future.result()
    return Rate(len(preview.good), calls[0], time.perf_counter() - started)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plain", type=int, default=20_000)
    parser.add_argument("--personalised", type=int, default=1_000)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--latency", type=float, default=0.05)
    arguments = parser.parse_args()

    database_url, admin_url = bench_database()
    os.environ["DATABASE_URL"] = database_url
    from tests.sandbox_process import SandboxProcess

    with tempfile.TemporaryDirectory() as folder:
        sandbox = SandboxProcess(Path(folder) / "sandbox")
        sandbox.start()
        try:
            return run(sandbox, arguments)
        finally:
            sandbox.stop()
            from django.db import connections

            connections.close_all()
            drop_database(database_url, admin_url)


def window_around_now() -> str:
    """An `SMS_MARKETING_WINDOW` value open from an hour ago to two hours ahead (local time)."""
    from datetime import timedelta

    from django.utils import timezone

    now = timezone.localtime()
    start, end = now - timedelta(hours=1), now + timedelta(hours=2)
    return f"{start:%H:%M}-{end:%H:%M}"


def measure(template, lines: str, in_flight: int) -> tuple[Rate, Rate, int]:  # type: ignore[no-untyped-def]
    """The worker with `in_flight` calls at once, and the same calls bare (before and after,
    averaged: the sandbox slows as its own database fills, and the worker must not be charged
    for running second)."""
    from django.conf import settings

    settings.SMS_SEND_CONCURRENCY = in_flight
    before = send_bare(template, lines, in_flight)
    worker, sent = send_with_worker(template, lines)
    after = send_bare(template, lines, in_flight)
    bare = Rate(before.messages, before.calls, (before.seconds + after.seconds) / 2)
    print(f"  bare runs before and after the worker: {before.seconds:.2f} s, "
          f"{after.seconds:.2f} s")
    print("  " + bare.line("bare"))
    print("  " + worker.line("worker"))
    return worker, bare, sent


def run(sandbox, arguments) -> int:  # type: ignore[no-untyped-def]
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    from sms import rules, services

    # The plain template is a marketing one: a window around the present keeps the check that
    # runs before every call in the measure without the bench waiting for the morning.
    settings.SMS_MARKETING_WINDOW = window_around_now()
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    info = sandbox.info
    settings.PROVIDER = {
        **settings.PROVIDER,
        "sms": {"api_url": info["sms_api_url"], "token": info["sms"]["token"]},
    }
    # Quota for every message of both runs; deliveries (and their tick work) after the bench.
    sandbox.control(
        "POST", "/sms/settings",
        {"general": 10_000_000, "vip": 10_000_000, "review_delay_s": 0,
         "delivery_delay_s": 86_400},
    ).raise_for_status()
    templates = {}
    for name, draft in (("plain", PLAIN), ("personalised", PERSONAL)):
        template = services.create_template(rules.TemplateDraft(**draft))
        sandbox.control(
            "POST", f"/sms/templates/{template.provider_id}/review", {"status": "success"}
        )
        services.sync_templates()
        template.refresh_from_db()
        templates[name] = template

    from django.conf import settings

    misses: list[str] = []
    start = 0
    for name, count in (("plain", arguments.plain), ("personalised", arguments.personalised)):
        lines = recipients(count, start, personalised=name == "personalised")
        start += count
        print(f"\n{name}: {count:,} numbers")
        if name == "plain":
            worker, bare, sent = measure(templates[name], lines, 1)
            if worker.calls > -(-count // 1000):
                misses.append(f"plain: {worker.calls} calls for {count} numbers")
            target = TARGET_RATIO
        else:
            in_flight = arguments.concurrency
            sandbox.control("POST", "/sms/settings",
                            {"send_latency_s": arguments.latency}).raise_for_status()
            print(f"  each send call answered after {arguments.latency * 1000:.0f} ms "
                  "of provider latency (send_latency_s)")
            print("  one call at a time (SMS_SEND_CONCURRENCY=1):")
            settings.SMS_SEND_CONCURRENCY = 1
            alone, _sent = send_with_worker(templates[name], lines)
            print("  " + alone.line("worker"))
            start += count
            lines = recipients(count, start, personalised=True)
            print(f"  {in_flight} calls in flight (SMS_SEND_CONCURRENCY={in_flight}):")
            worker, bare, sent = measure(templates[name], lines, in_flight)
            speedup = worker.per_s / alone.per_s
            print(f"  {in_flight} in flight against one at a time: {speedup:.2f}x "
                  f"(target >= {TARGET_SPEEDUP})")
            if speedup < TARGET_SPEEDUP:
                misses.append(f"personalised: {speedup:.2f}x the one-at-a-time rate")
            target = TARGET_PERSONAL_RATIO
        ratio = worker.per_s / bare.per_s
        print(f"  ratio worker/bare: {ratio:.2f} (target >= {target}); "
              f"{sent:,} of {worker.messages:,} messages stored as processing with their id")
        if ratio < target:
            misses.append(f"{name}: {ratio:.2f} of the bare rate")
        if sent != worker.messages:
            misses.append(f"{name}: {worker.messages - sent} messages not recorded as sent")
    print("\ntargets met" if not misses else "\nMISSED:\n  " + "\n  ".join(misses))
    return 0 if not misses else 1


if __name__ == "__main__":
    sys.exit(main())
