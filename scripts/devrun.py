"""`make run`: the sandbox, then web, worker and beat pointed at it; Ctrl-C stops them all.

The sandbox starts first because its info file carries the addresses and demo credentials the
back-office needs; they are handed over as environment variables, as in production.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parent.parent
VAR = Path(os.environ.get("VAR_DIR") or ROOT / "var").resolve()
INFO_FILE = VAR / "sandbox.json"
PYTHON = sys.executable
BIN = Path(PYTHON).parent
WEB_PORT = int(os.environ.get("WEB_PORT", "8000"))
SANDBOX_BASE_PORT = int(os.environ.get("SANDBOX_BASE_PORT", "8100"))


def local_secret_key() -> str:
    """A secret key for this VAR_DIR, made on the first run and kept (sessions survive a
    restart), readable by its owner only."""
    path = VAR / "local-secret-key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


def provider_environment(info: dict[str, Any]) -> dict[str, str]:
    return {
        "SMS_API_URL": info["sms_api_url"], "SMS_TOKEN": info["sms"]["token"],
        "TRAFFIC_URL": info["traffic_url"], "TOPUP_APPKEY": info["topup"]["appkey"],
        "TOPUP_APPSECRET": info["topup"]["appsecret"],
        "STORAGE_URL": info["storage_url"], "STORAGE_BUCKET": info["storage"]["bucket"],
        "STORAGE_OPERATOR": info["storage"]["operator"],
        "STORAGE_PASSWORD": info["storage"]["password"],
        "PROCESS_URL": info["process_url"], "DELIVERY_URL": info["delivery_url"],
        "PURGE_URL": info["purge_url"], "DELIVERY_TOKEN_SECRET": info["delivery"]["token_secret"],
        "SANDBOX_CONTROL_URL": info["control_url"],
        "CONSOLE_URL": info["console_url"], "CONSOLE_USERNAME": info["console"]["username"],
        "CONSOLE_PASSWORD": info["console"]["password"],
        "STORAGE_LINE_URLS": ",".join(
            f"{line}={url}" for line, url in (info.get("storage_lines") or {}).items()),
    }


def wait_for_sandbox(process: subprocess.Popen[bytes], timeout_s: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit("The sandbox stopped during start-up (see its messages above).")
        if INFO_FILE.exists():
            info: dict[str, Any] = json.loads(INFO_FILE.read_text())
            try:
                if requests.get(f"{info['control_url']}/health", timeout=1).ok:
                    return info
            except requests.RequestException:
                pass
        time.sleep(0.2)
    sys.exit("The sandbox did not answer within a minute.")


def manage(*args: str, env: dict[str, str]) -> None:
    subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, check=True)


def manage_output(*args: str, env: dict[str, str]) -> str:
    return subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True).stdout.strip()


def wait_for_web(timeout_s: float = 60) -> None:
    """Until the web process answers its liveness probe (or the time is up: the banner still
    helps, and the web process's own messages say what went wrong)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if requests.get(f"http://127.0.0.1:{WEB_PORT}/health", timeout=1).ok:
                return
        except requests.RequestException:
            pass
        time.sleep(0.3)


def banner(*lines: str) -> str:
    """What a newcomer needs, framed, after the start-up messages of every process."""
    width = max(len(line) for line in lines) + 4
    rule = "=" * width
    return "\n".join(["", rule, *(f"  {line}" for line in lines), rule, ""])


def main() -> None:
    VAR.mkdir(exist_ok=True)
    INFO_FILE.unlink(missing_ok=True)
    children: list[subprocess.Popen[bytes]] = []

    def start(name: str, command: list[str], env: dict[str, str]) -> None:
        print(f"starting {name}: {' '.join(command)}", flush=True)
        children.append(subprocess.Popen(command, cwd=ROOT, env=env))

    def stop_all(*_: object) -> None:
        for child in children:
            if child.poll() is None:
                child.terminate()
        for child in children:
            try:
                child.wait(10)
            except subprocess.TimeoutExpired:
                child.kill()

    def stop_and_exit(*_: object) -> None:
        stop_all()
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop_and_exit)
    try:
        start("sandbox", [PYTHON, "manage.py", "runsandbox", "--base-port", str(SANDBOX_BASE_PORT),
                          "--data-dir", str(VAR / "sandbox"), "--info-file", str(INFO_FILE)],
              dict(os.environ))
        info = wait_for_sandbox(children[0])
        # DEBUG off, as staff will run it: a missing page shows the product's own 404, not
        # Django's list of URL patterns. Static files are served by WhiteNoise either way.
        env = {**os.environ, "DEBUG": os.environ.get("DEBUG", "false"),
               "SECRET_KEY": os.environ.get("SECRET_KEY") or local_secret_key(),
               "VAR_DIR": str(VAR), **provider_environment(info)}
        manage("migrate", "--verbosity", "0", env=env)
        manage("createcachetable", env=env)
        # Printed last (below), where it is not lost among the processes' start-up messages.
        demo_user = manage_output("create_demo_user", env=env)
        manage("load_demo_data", env=env)
        start("web", [str(BIN / "gunicorn"), "-c", "deploy/gunicorn.conf.py", "backoffice.wsgi",
                      "--bind", f"127.0.0.1:{WEB_PORT}", "--workers", "2", "--threads", "4",
                      "--access-logfile", "-"], env)
        start("worker", [str(BIN / "celery"), "-A", "backoffice", "worker", "--loglevel",
                         "INFO", "--concurrency", "2"], env)
        start("beat", [str(BIN / "celery"), "-A", "backoffice", "beat", "--loglevel", "INFO"],
              env)
        wait_for_web()
        time.sleep(2)  # the worker and beat finish their own start-up messages
        print(banner(f"Back-office: http://127.0.0.1:{WEB_PORT}/  (Ctrl-C stops everything)",
                     demo_user), flush=True)
        while all(child.poll() is None for child in children):
            time.sleep(0.5)
        print("A process stopped; stopping the others.", flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        stop_all()


if __name__ == "__main__":
    main()
