"""Benchmark of the top-up callback endpoint against a trivial JSON view, in the same server.

The back-office runs under gunicorn (PostgreSQL when DATABASE_URL is set, a fresh SQLite file
otherwise; Redis when REDIS_URL is set), on a database of its own created for the run and
dropped after it. A second process sends, over loopback:

- trivial: GET /bench/one-query/ (bench/callback_urls.py: a JSON view making one database
  query, through the same middleware; the limit), and GET /health (the liveness view, which
  touches nothing: for information);
- callbacks: 5,000 POST /api/topup/callback/, each signed with the current token for an order
  in progress: each one is stored with its verdict and acknowledged; the endpoint queues the
  work of applying them to their orders, as in production.

It prints requests per second of both and the ratio callbacks / trivial, measured in this run;
then it applies the stored callbacks as the worker would (timed for information) and checks
that every callback was stored, genuine and applied. Target: ratio >= 0.5.

    .venv/bin/python bench/topup_callbacks.py [--callbacks 5000] [--concurrency 8]
                                              [--workers 2] [--threads 4]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from benchkit import bench_database, free_port, start_server  # noqa: E402

TARGET_RATIO = 0.5
TOKEN = "BenchToken000001"  # 16 characters, as the provider's tokens


def server_environment(database_url: str, var_dir: Path) -> dict[str, str]:
    # VAR_DIR: without Redis the task broker lives in files there; keep them out of var/.
    env = {**os.environ, "DATABASE_URL": database_url, "DEBUG": "false", "VAR_DIR": str(var_dir),
           "SECRET_KEY": os.environ.get("SECRET_KEY") or "bench-only-secret-key",
           "ALLOWED_HOSTS": "127.0.0.1", "LOG_LEVEL": "WARNING",
           "DJANGO_SETTINGS_MODULE": "callback_settings",
           "PYTHONPATH": os.pathsep.join((str(ROOT), str(ROOT / "bench")))}
    return env


def prepare(env: dict[str, str], count: int) -> list[str]:
    """Migrate, store the token and `count` orders in progress; returns their custnos."""
    python = sys.executable
    subprocess.run([python, "manage.py", "migrate", "--verbosity", "0"], cwd=ROOT, env=env,
                   check=True)
    if not env.get("REDIS_URL"):
        subprocess.run([python, "manage.py", "createcachetable"], cwd=ROOT, env=env, check=True)
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "SECRET_KEY", "DEBUG",
                                           "DJANGO_SETTINGS_MODULE")})
    import django

    django.setup()
    from datetime import timedelta

    from django.core.cache import cache
    from django.utils import timezone

    from topup.demo import load_products
    from topup.models import Order, OrderSource, OrderState, Product, TokenState

    cache.clear()
    load_products()
    product = Product.objects.get(code="CMCC_10")
    now = timezone.now()
    TokenState.objects.update_or_create(pk=1, defaults={
        "token": TOKEN, "obtained_at": now, "expires_at": now + timedelta(hours=23)})
    custnos = [f"BENCH{index:010d}" for index in range(count)]
    Order.objects.bulk_create(
        [Order(custno=custno, mobile="13800138000", carrier="CMCC", product=product,
               prodcode=product.code, price=product.price, source=OrderSource.API,
               state=OrderState.PENDING, orderno=f"P{custno}", submitted_at=now)
         for custno in custnos], batch_size=1000)
    return custnos


def apply_stored_callbacks() -> tuple[int, float]:
    """What the worker does after the answers: apply the stored callbacks (count, seconds)."""
    from topup import services

    started = time.perf_counter()
    applied = services.process_pending_receipts()
    return applied, time.perf_counter() - started


def verify(custnos: list[str]) -> list[str]:
    """Every callback stored, genuine and applied: the problems found, if any."""
    from topup.models import CallbackReceipt, Order, OrderState, ReceiptOutcome

    problems = []
    stored = CallbackReceipt.objects.count()
    if stored != len(custnos):
        problems.append(f"{stored} callbacks stored, {len(custnos)} sent")
    invalid = CallbackReceipt.objects.exclude(sign_valid=True).count()
    if invalid:
        problems.append(f"{invalid} callbacks not verified")
    not_applied = CallbackReceipt.objects.exclude(outcome=ReceiptOutcome.APPLIED).count()
    if not_applied:
        problems.append(f"{not_applied} callbacks not applied")
    unsettled = Order.objects.filter(custno__in=custnos).exclude(state=OrderState.SUCCESS).count()
    if unsettled:
        problems.append(f"{unsettled} orders not settled by their callback")
    return problems


# --- the server --------------------------------------------------------------------------


# --- the load (second process) -----------------------------------------------------------


def run_load(port: int, custnos_file: Path, concurrency: int) -> dict[str, float]:
    import requests

    from topup.signing import callback_sign

    custnos = json.loads(custnos_file.read_text())
    bodies = []
    for custno in custnos:
        fields = {"code": "200", "custno": custno, "info": "top-up succeeded",
                  "orderno": f"P{custno}"}
        bodies.append(json.dumps({**fields, "sign": callback_sign(token=TOKEN, **fields)}))
    base = f"http://127.0.0.1:{port}"
    sessions: dict[int, requests.Session] = {}

    def session() -> requests.Session:
        import threading

        return sessions.setdefault(threading.get_ident(), requests.Session())

    def trivial(_index: int) -> int:
        return session().get(f"{base}/bench/one-query/", timeout=30).status_code

    def liveness(_index: int) -> int:
        return session().get(f"{base}/health", timeout=30).status_code

    def callback(index: int) -> int:
        response = session().post(f"{base}/api/topup/callback/", data=bodies[index],
                                  headers={"Content-Type": "application/json"}, timeout=30)
        if response.status_code == 200 and response.json() != {"info": "1"}:
            return 0
        return response.status_code

    def timed(call, count: int) -> tuple[float, list[int]]:  # type: ignore[no-untyped-def]
        with ThreadPoolExecutor(concurrency) as pool:
            started = time.perf_counter()
            statuses = list(pool.map(call, range(count)))
            return time.perf_counter() - started, statuses

    timed(trivial, 200)  # warm-up: workers imported, connections made
    trivial_s, trivial_status = timed(trivial, len(bodies))
    liveness_s, liveness_status = timed(liveness, len(bodies))
    callbacks_s, callback_status = timed(callback, len(bodies))
    bad = [s for s in trivial_status + liveness_status + callback_status if s != 200]
    return {"requests": len(bodies), "trivial_s": trivial_s, "liveness_s": liveness_s,
            "callbacks_s": callbacks_s, "errors": len(bad)}


# --- main --------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--callbacks", type=int, default=5000)
    parser.add_argument("--concurrency", type=int, default=8)
    # As `make run` serves the back-office: 2 workers of 4 threads each.
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--load", nargs=2, metavar=("PORT", "CUSTNOS_FILE"),
                        help=argparse.SUPPRESS)  # the second process
    args = parser.parse_args()
    if args.load:
        print(json.dumps(run_load(int(args.load[0]), Path(args.load[1]), args.concurrency)))
        return 0

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        database_url, drop_database = bench_database(tmp)
        server = None
        try:
            env = server_environment(database_url, tmp)
            custnos = prepare(env, args.callbacks)
            custnos_file = tmp / "custnos.json"
            custnos_file.write_text(json.dumps(custnos))
            port = free_port()
            server = start_server(env, port, args.workers, args.threads)
            load = subprocess.run(
                [sys.executable, __file__, "--concurrency", str(args.concurrency),
                 "--load", str(port), str(custnos_file)],
                cwd=ROOT, env=env, check=True, capture_output=True, text=True)
            result = json.loads(load.stdout.strip().splitlines()[-1])
            applied, apply_s = apply_stored_callbacks()
            problems = verify(custnos)
        finally:
            if server is not None:
                server.terminate()
                server.wait(30)
            from django.db import connections

            connections.close_all()
            drop_database()

    trivial_rps = result["requests"] / result["trivial_s"]
    liveness_rps = result["requests"] / result["liveness_s"]
    callback_rps = result["requests"] / result["callbacks_s"]
    ratio = callback_rps / trivial_rps
    backend = "PostgreSQL" if database_url.startswith("postgres") else "SQLite"
    cache = "Redis" if os.environ.get("REDIS_URL") else "database cache"
    print(f"back-office under gunicorn ({args.workers} workers x {args.threads} threads), "
          f"{backend}, {cache}; "
          f"{result['requests']} requests each, {args.concurrency} concurrent clients")
    print(f"one-query JSON view:         {trivial_rps:8.1f} requests/s")
    print(f"liveness (/health, no query): {liveness_rps:7.1f} requests/s (for information)")
    print(f"signed callbacks:            {callback_rps:8.1f} callbacks/s")
    print(f"ratio callbacks / one-query: {ratio:8.2f}  (target >= {TARGET_RATIO}); "
          f"callbacks / liveness {callback_rps / liveness_rps:.2f}")
    print(f"then applied to their orders by one worker process: {applied} in {apply_s:.1f} s "
          f"({applied / apply_s if apply_s else 0:.1f}/s, for information)")
    if result["errors"]:
        problems.append(f"{result['errors']} requests did not answer 200 as expected")
    for problem in problems:
        print(f"PROBLEM: {problem}")
    print("every callback stored, verified and applied" if not problems else "FAILED")
    return 0 if ratio >= TARGET_RATIO and not problems else 1


if __name__ == "__main__":
    sys.exit(main())
