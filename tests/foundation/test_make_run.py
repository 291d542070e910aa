"""`make run`'s supervisor on a bare machine: embedded SQLite and file broker, a demo user whose
printed password signs in, the sandbox and the demo origin wired in, the product's own 404
page (DEBUG off), the demo's three services (two buckets and a CDN service in front of the
demo origin), every log line of every process stamped in UTC with its offset, and one
interrupt stopping every process."""

import os
import re
import signal
import subprocess
import sys
import time

import requests

from tests.sandbox_process import ROOT, free_base_port


def wait_for(url: str, process: subprocess.Popen, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert process.poll() is None, "the supervisor stopped during start-up"
        try:
            if requests.get(url, timeout=1).ok:
                return
        except requests.RequestException:
            pass
        time.sleep(0.5)
    raise AssertionError(f"{url} did not answer within {timeout_s} s")


def process_group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


# A line that starts with a time stamp of any common shape: ISO, gunicorn's [..] or Django's.
STAMPED = re.compile(r"^\[?(\d{4}-\d\d-\d\d[ T]\d\d:\d\d|\d\d/\w{3}/\d{4})")
UTC_STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00 ")


def assert_one_zone(output: str) -> None:
    stamped = [line for line in output.splitlines() if STAMPED.match(line)]
    assert [line for line in stamped if not UTC_STAMP.match(line)] == []
    # (The sandbox logs nothing at INFO on a quiet start; tests/foundation/test_log_time_stamps
    # checks its format.)
    for source in ("gunicorn.error:", "gunicorn.access:", "celery.apps.worker:", "celery.beat:"):
        assert any(source in line for line in stamped), f"no stamped line from {source}"


def test_make_run_serves_the_back_office_and_one_interrupt_stops_everything(tmp_path):
    web_port = free_base_port()
    sandbox_base = free_base_port()
    env = {key: value for key, value in os.environ.items()
           if key not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG"}}
    env.update({"VAR_DIR": str(tmp_path / "var"), "WEB_PORT": str(web_port),
                "SANDBOX_BASE_PORT": str(sandbox_base), "PYTHONUNBUFFERED": "1",
                # Neither UTC nor TIME_ZONE: a line stamped in either local zone would show.
                "TZ": "America/Sao_Paulo"})
    log_path = tmp_path / "run.log"
    with open(log_path, "wb") as log:
        supervisor = subprocess.Popen([sys.executable, "scripts/devrun.py"], cwd=ROOT, env=env,
                                      stdout=log, stderr=subprocess.STDOUT,
                                      start_new_session=True)
    try:
        base = f"http://127.0.0.1:{web_port}"
        wait_for(f"{base}/health", supervisor, timeout_s=240)
        found = None
        for _ in range(60):  # the credentials come last, once every process has started
            output = log_path.read_text()
            found = re.search(r"Demo staff user: (\S+)\s+password: (\S+)\n=+\n", output)
            if found:
                break
            time.sleep(0.5)
        assert found, output[-2000:]
        assert output.index("Demo staff user") > output.rindex("starting beat")
        assert (tmp_path / "var" / "backoffice.sqlite3").exists()  # embedded database

        browser = requests.Session()
        login_page = browser.get(f"{base}/accounts/login/", timeout=10)
        token = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', login_page.text)[0]
        dashboard = browser.post(f"{base}/accounts/login/", timeout=10, data={
            "username": found[1], "password": found[2], "csrfmiddlewaretoken": token,
        }, headers={"Referer": f"{base}/accounts/login/"})
        assert dashboard.url == f"{base}/"
        assert 'id="tile-sms"' in dashboard.text
        configured = browser.get(f"{base}/sms/", timeout=10).text
        assert "not configured" not in configured  # pointed at the sandbox
        missing = browser.get(f"{base}/no-such-page/", timeout=10)
        assert missing.status_code == 404
        assert 'class="card error-page"' in missing.text  # the product's own page
        assert "URLconf" not in missing.text
        # The demo origin (a merchant's own site) beside the sandbox, on base port + 8.
        demo_origin = f"http://127.0.0.1:{sandbox_base + 8}"
        assert f"Demo origin (a merchant's own site): {demo_origin}/" in output
        assert requests.get(f"{demo_origin}/style.css", timeout=10).ok
        # The demo's services: the environment's bucket, a second bucket with its own files,
        # and a CDN service whose domain the edge serves from the demo origin.
        listed = browser.get(f"{base}/services/", timeout=10).text
        assert {"demo-bucket", "demo-videos", "demo-site"} <= set(
            re.findall(r'<tr data-service="([^"]+)"', listed))
        videos = browser.get(f"{base}/storage/", params={"service": "demo-videos",
                                                         "path": "/videos"}, timeout=10).text
        assert 'data-name="readme.txt"' in videos and 'data-name="posters"' in videos
        edge = f"http://127.0.0.1:{sandbox_base + 5}"
        site = requests.get(f"{edge}/style.css", headers={"Host": "site.sandbox.localhost"},
                            timeout=10)
        assert site.ok and site.text == requests.get(f"{demo_origin}/style.css", timeout=10).text
        note = requests.get(f"{edge}/videos/readme.txt",
                            headers={"Host": "videos.sandbox.localhost"}, timeout=10)
        assert note.ok and "demo-videos bucket" in note.text
        assert_one_zone(log_path.read_text())
    finally:
        supervisor.send_signal(signal.SIGINT)
        supervisor.wait(60)
    deadline = time.monotonic() + 30
    while process_group_alive(supervisor.pid) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not process_group_alive(supervisor.pid), "a child outlived the interrupt"
