"""Two hosts simulated on this machine behind Debian's nginx, with the deployment guide's
commands (docs/deployment.md) and nginx configuration (`deploy/nginx/backoffice.conf`,
`deploy/gunicorn.conf.py`).

Host A listens on 127.0.0.2 and host B on 127.0.0.3; each runs gunicorn and a Celery worker
with its own VAR_DIR; each also runs a beat (one active, one standing by). They share one
PostgreSQL (the test database), one Redis and one sandbox. Everything goes through nginx on
127.0.0.1, which names the node that answered in `X-Upstream`.

One test, in order: /ready 200; an SMS import uploaded through one node, confirmed through the
other and sent by the other host's worker, every number exactly once at the sandbox; a top-up
order placed through the API and settled by a callback that lands on the other node; a 5 MiB
direct browser upload signed by both nodes, its bytes sent straight to the provider, which
completes after host A's web and worker are killed and its VAR_DIR deleted; /ready 503
naming the worker while both workers are down, 200 after; /metrics through nginx (401 without
the token); the standby beat taking over.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests
from django.db import connection

from tests.sandbox_process import ROOT

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

NGINX = Path("/usr/sbin/nginx")
PART = 1_048_576  # the file is cut in the part size the upload names
HOSTS = {"a": "127.0.0.2", "b": "127.0.0.3"}
PASSWORD = "multi-host-Pass-2026"


def free_port(address: str) -> int:
    with socket.socket() as probe:
        probe.bind((address, 0))
        return probe.getsockname()[1]


def wait_until(predicate, timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if predicate():
                return
        except (requests.RequestException, OSError):
            pass
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for {what}")


@dataclass
class Cluster:
    base_env: dict[str, str]
    tmp: Path
    web_port: int
    nginx_port: int = 0
    processes: dict[str, subprocess.Popen] = field(default_factory=dict)

    def env(self, host: str) -> dict[str, str]:
        return {**self.base_env, "VAR_DIR": str(self.tmp / f"host-{host}" / "var"),
                "PROMETHEUS_MULTIPROC_DIR": str(self.metrics_dir(host)),
                "GUNICORN_BIND": f"{HOSTS[host]}:{self.web_port}"}

    def metrics_dir(self, host: str) -> Path:
        folder = self.tmp / f"host-{host}" / "metrics"
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def start(self, name: str, host: str, command: list[str]) -> subprocess.Popen:
        log = open(self.tmp / f"{name}.log", "ab")  # noqa: SIM115 - lives with the process
        process = subprocess.Popen(command, cwd=ROOT, env=self.env(host), stdout=log,
                                   stderr=subprocess.STDOUT, start_new_session=True)
        self.processes[name] = process
        return process

    # The guide's commands (docs/deployment.md, "Deployment guide").
    def web(self, host: str) -> None:
        self.start(f"web-{host}", host, [str(Path(sys.executable).parent / "gunicorn"), "-c",
                                         "deploy/gunicorn.conf.py", "backoffice.wsgi"])

    def worker(self, host: str) -> None:
        self.start(f"worker-{host}", host, [sys.executable, "-m", "celery", "-A", "backoffice",
                                            "worker", "--loglevel", "INFO", "--concurrency",
                                            "2", "-n", f"worker@host-{host}"])

    def beat(self, host: str) -> None:
        self.start(f"beat-{host}", host, [sys.executable, "-m", "celery", "-A", "backoffice",
                                          "beat", "--loglevel", "INFO", "--pidfile", ""])

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        process = self.processes.pop(name)
        if process.poll() is None:
            os.killpg(process.pid, sig)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:  # a loaded machine: do not leave it behind
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)

    def log(self, name: str) -> str:
        return (self.tmp / f"{name}.log").read_text(errors="replace")

    def stop_all(self) -> None:
        for name in list(self.processes):
            self.kill(name, signal.SIGTERM)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.nginx_port}{path}"


def nginx_config(tmp: Path, cluster: Cluster) -> Path:
    """nginx's main file, the guide's server file included as is, and the two files the guide
    says a deployment provides (upstream and listen)."""
    folder = tmp / "nginx"
    (folder / "temp").mkdir(parents=True)
    servers = "\n".join(f"    server {address}:{cluster.web_port} max_fails=1 fail_timeout=10s;"
                        for address in HOSTS.values())
    (folder / "backoffice-upstream.conf").write_text(
        f"upstream backoffice_web {{\n{servers}\n    keepalive 8;\n}}\n")
    (folder / "backoffice-listen.conf").write_text(f"listen 127.0.0.1:{cluster.nginx_port};\n")
    main = folder / "nginx.conf"
    temp = folder / "temp"
    main.write_text(f"""
daemon off;
master_process on;
worker_processes 1;
pid {folder / 'nginx.pid'};
error_log {folder / 'error.log'} info;
events {{ worker_connections 256; }}
http {{
    log_format upstream '$request_method $uri $status $upstream_addr';
    access_log {folder / 'access.log'} upstream;
    client_body_temp_path {temp / 'body'};
    proxy_temp_path {temp / 'proxy'};
    fastcgi_temp_path {temp / 'fastcgi'};
    uwsgi_temp_path {temp / 'uwsgi'};
    scgi_temp_path {temp / 'scgi'};
    include {ROOT / 'deploy' / 'nginx' / 'backoffice.conf'};
}}
""")
    return main


@pytest.fixture
def cluster(tmp_path: Path, provider, redis_url, postgres, django_user_model) -> Iterator[Cluster]:
    if not NGINX.exists():
        if os.environ.get("REQUIRE_SERVICES"):
            pytest.fail("nginx is not installed (apt-get install nginx)")
        pytest.skip("nginx is not installed")
    from backoffice.celery import app

    app.control.purge()
    user = django_user_model.objects.create_user("operator", password=PASSWORD)
    from django.contrib.auth.models import Group

    from backoffice.security.roles import setup_roles

    setup_roles()
    user.groups.add(*Group.objects.filter(
        name__in=("Content managers", "Top-up operators", "SMS operators")))
    from topup.demo import load_products

    load_products()
    db = connection.settings_dict
    info = provider.info
    base_env = {
        key: value for key, value in os.environ.items()
        if key not in {"DJANGO_ALLOW_ASYNC_UNSAFE", "PROMETHEUS_MULTIPROC_DIR"}
    } | {
        "DJANGO_SETTINGS_MODULE": "backoffice.settings",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": redis_url, "SECRET_KEY": "multi-host-test-secret-key", "DEBUG": "false",
        "ALLOWED_HOSTS": "127.0.0.1,127.0.0.2,127.0.0.3,localhost",
        "TRUSTED_PROXY_IPS": "127.0.0.1",
        "LOG_FORMAT": "json", "METRICS_TOKEN": "scrape", "GUNICORN_WORKERS": "2",
        "TOPUP_CALLBACK_ALLOWED_IPS": "127.0.0.1", "TOPUP_FIRST_CHECK_S": "600",
        "FILE_STORAGE": "bucket", "STORAGE_RESUMABLE_THRESHOLD": str(PART),
        "STORAGE_BROWSER_UPLOAD_ROUTE": "direct", "STORAGE_DIRECT_PART_SIZE": str(PART),
        "SMS_API_URL": info["sms_api_url"], "SMS_TOKEN": info["sms"]["token"],
        "TRAFFIC_URL": info["traffic_url"], "TOPUP_APPKEY": info["topup"]["appkey"],
        "TOPUP_APPSECRET": info["topup"]["appsecret"], "STORAGE_URL": info["storage_url"],
        "STORAGE_BUCKET": info["storage"]["bucket"],
        "STORAGE_OPERATOR": info["storage"]["operator"],
        "STORAGE_PASSWORD": info["storage"]["password"], "PROCESS_URL": info["process_url"],
        "DELIVERY_URL": info["delivery_url"], "PURGE_URL": info["purge_url"],
        "DELIVERY_TOKEN_SECRET": info["delivery"]["token_secret"],
    }
    cluster = Cluster(base_env, tmp_path, web_port=free_port("127.0.0.2"))
    cluster.nginx_port = free_port("127.0.0.1")
    nginx = None
    try:
        for host in HOSTS:
            cluster.web(host)
            cluster.worker(host)
            cluster.beat(host)
        main = nginx_config(tmp_path, cluster)
        nginx = subprocess.Popen([str(NGINX), "-c", str(main), "-p", str(main.parent)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 start_new_session=True)
        for host, address in HOSTS.items():
            wait_until(lambda a=address: requests.get(
                f"http://{a}:{cluster.web_port}/health", timeout=2).ok, 60, f"web {host}")
        wait_until(lambda: requests.get(cluster.url("/health"), timeout=2).ok, 30, "nginx")
        yield cluster
    finally:
        cluster.stop_all()
        if nginx is not None:
            os.killpg(nginx.pid, signal.SIGQUIT)
            nginx.wait(20)


def logged_in(cluster: Cluster) -> requests.Session:
    session = requests.Session()
    page = session.get(cluster.url("/accounts/login/"), timeout=10)
    token = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)[0]
    answer = session.post(cluster.url("/accounts/login/"), timeout=10, allow_redirects=False,
                          data={"username": "operator", "password": PASSWORD,
                                "csrfmiddlewaretoken": token},
                          headers={"Referer": cluster.url("/accounts/login/")})
    assert answer.status_code == 302, answer.text[:500]
    session.headers["X-CSRFToken"] = session.cookies["csrftoken"]
    session.headers["Referer"] = cluster.url("/storage/")
    return session


def as_the_page(session: requests.Session, cluster: Cluster, url: str,
                body: dict) -> requests.Response:
    """A signing or report request, sent again after a gateway error as the page's script
    does: with a node just gone, nginx may have no live upstream for a moment (it marks a node
    down for `fail_timeout` after one failure, and a loaded machine can make the other time
    out)."""
    for _ in range(5):
        answer = session.post(cluster.url(url), json=body, timeout=60)
        if answer.status_code not in (502, 503, 504):
            assert answer.status_code == 200, answer.text
            return answer
        time.sleep(2)
    raise AssertionError(f"{url}: no node answered")


def to_provider(signed: dict, body: bytes = b"") -> requests.Response:
    """A signed request, sent as the browser sends it: straight to the storage service."""
    return requests.request(signed["method"], signed["url"], headers=signed["headers"],
                            data=body, timeout=60)


NODE_OF = {address: host for host, address in HOSTS.items()}


def node(answer: requests.Response) -> str:
    """The host (a or b) whose web node answered, from nginx's X-Upstream (the last tried)."""
    return NODE_OF[answer.headers["X-Upstream"].split(",")[-1].strip().split(":")[0]]


def import_sms_through_one_node_and_send_through_the_other(cluster: Cluster, provider) -> None:
    from sms import rules
    from sms import services as sms
    from sms.models import Campaign
    from storage.services.connection import kept_files_client
    from tests.sms.conftest import DRAFTS, provider_report, review

    template = review(provider, sms.create_template(rules.TemplateDraft(**DRAFTS["order"])))
    numbers = [f"1380013{n:04d}" for n in range(40)]
    rows = "".join(f"{number},客户{n},SO{n}\r\n" for n, number in enumerate(numbers))
    session = logged_in(cluster)
    imported = session.post(cluster.url("/sms/import/"), timeout=60, allow_redirects=False,
                            data={"template": template.pk},
                            files={"file": ("list.csv", rows.encode(), "text/csv")})
    assert imported.status_code == 302, imported.text[:2000]
    upload_host = node(imported)
    campaign = Campaign.objects.get()
    assert campaign.state == "draft" and campaign.source_file.name
    # Kept in the bucket's private folder, not on the receiving host's disk; the browser's
    # client does not reach that folder, the kept files' does.
    assert kept_files_client().exists(f"/backoffice-private/{campaign.source_file.name}")
    other = "b" if upload_host == "a" else "a"
    # Only the other host's worker runs; nginx alternates, so after a request answered by the
    # uploading node the confirmation goes to the other one.
    cluster.kill(f"worker-{upload_host}", signal.SIGTERM)
    wait_until(lambda: node(requests.get(cluster.url("/health"), timeout=5)) == upload_host,
               10, "nginx to come round to the uploading node")
    confirmed = session.post(cluster.url(f"/sms/campaigns/{campaign.pk}/confirm/"), timeout=30,
                             allow_redirects=False,
                             headers={"Referer": cluster.url(f"/sms/campaigns/{campaign.pk}/")})
    assert confirmed.status_code == 302, confirmed.text[:2000]
    assert node(confirmed) == other
    wait_until(lambda: Campaign.objects.get().state == "done", 120, "the campaign to be sent")
    assert "sms.tasks" in cluster.log(f"worker-{other}")
    sent = sorted(record["mobile"] for record in provider_report(provider))
    assert sent == sorted(numbers)  # every number exactly once
    cluster.worker(upload_host)


def settle_a_topup_order_through_the_other_node(cluster: Cluster, provider) -> None:
    """Orders are placed until one's callback reaches the node that did not take the order
    (nginx alternates, but other requests come in between); each must settle."""
    from django.contrib.auth import get_user_model

    from topup import services
    from topup.models import Order

    _token, key = services.create_token(
        user=get_user_model().objects.get(username="operator"), name="multi-host",
        scopes=["orders:write", "orders:read"])
    provider.control("POST", "/topup/settings", {
        "callback_url": cluster.url("/api/topup/callback/"), "progress_delay_s": 1})
    access_log = cluster.tmp / "nginx" / "access.log"
    for attempt in range(6):
        placed = requests.post(
            cluster.url("/api/topup/orders/"), json={"mobile": "13800138000",
                                                     "product": "CMCC_10"},
            headers={"Authorization": f"Bearer {key}",
                     "Idempotency-Key": f"multi-host-{attempt}"}, timeout=30)
        assert placed.status_code == 201, placed.text
        custno = placed.json()["custno"]
        order_node = placed.headers["X-Upstream"]
        wait_until(lambda c=custno: Order.objects.get(custno=c).state == "success", 60,
                   f"order {custno} to settle")
        callbacks = [line.split()[-1] for line in access_log.read_text().splitlines()
                     if line.startswith("POST /api/topup/callback/ 200")]
        if callbacks and callbacks[-1] != order_node:
            return
    raise AssertionError("no callback reached the other node in six orders")


def ready(cluster: Cluster) -> requests.Response:
    """`/ready` as an operator asks it: with the metrics token, which brings its details."""
    return requests.get(cluster.url("/ready"), headers={"Authorization": "Bearer scrape"},
                        timeout=10)


def test_two_hosts_behind_nginx(cluster: Cluster, provider) -> None:
    from backoffice.models import SchedulerLease
    from backoffice.operations import beat
    from console.services import default_service
    from storage.services import storage_client
    from tests.storage.conftest import md5_of, pseudo_random_bytes

    # --- both workers and the active beat beat: ready -----------------------------------
    wait_until(lambda: ready(cluster).status_code == 200, 90, "/ready 200")

    # --- an SMS import: uploaded through one node, confirmed through the other, sent by the
    #     other host's worker, every number once at the sandbox ------------------------------
    import_sms_through_one_node_and_send_through_the_other(cluster, provider)

    # --- a top-up order placed through the API, settled by a callback on the other node ---
    settle_a_topup_order_through_the_other_node(cluster, provider)

    # --- a 5 MiB direct browser upload: signed by both nodes, sent straight to the provider,
    #     finished through host B after host A's web and worker die -------------------------
    session = logged_in(cluster)
    data = pseudo_random_bytes(5 * PART)
    opened = session.post(cluster.url("/storage/uploads/new/"), timeout=30,
                          data={"folder": "/multi", "name": "five.bin", "size": str(len(data))})
    assert opened.status_code == 201, opened.text
    upload = opened.json()["upload"]
    assert (upload["route"], upload["method"]) == ("direct", "multipart")
    size = upload["part_size"]
    chunks = [data[start:start + size] for start in range(0, len(data), size)]
    served_by = [opened.headers["X-Upstream"]]
    initiate = as_the_page(session, cluster, upload["sign_url"], {"stage": "initiate"})
    served_by.append(initiate.headers["X-Upstream"])
    answer = to_provider(initiate.json()["requests"][0])
    assert answer.status_code == 204, answer.text
    reported = as_the_page(session, cluster, upload["report_url"],
                           {"uuid": answer.headers["x-svc-multi-uuid"]})
    served_by.append(reported.headers["X-Upstream"])
    first = as_the_page(session, cluster, upload["sign_url"], {"stage": "upload", "parts": [
        {"id": 0, "md5": md5_of(chunks[0])}]})
    served_by.append(first.headers["X-Upstream"])
    assert to_provider(first.json()["requests"][0], chunks[0]).status_code == 204
    assert {address.split(":")[0] for address in served_by} == set(HOSTS.values())
    cluster.kill("web-a")
    cluster.kill("worker-a")
    shutil.rmtree(cluster.tmp / "host-a" / "var")
    rest = as_the_page(session, cluster, upload["sign_url"], {"stage": "upload", "parts_done": [0],
                       "parts": [{"id": n, "md5": md5_of(chunks[n])}
                                 for n in range(1, len(chunks))]})
    for signed in rest.json()["requests"]:
        assert to_provider(signed, chunks[signed["part"]]).status_code == 204
    complete = as_the_page(session, cluster, upload["sign_url"], {"stage": "complete"})
    assert to_provider(complete.json()["requests"][0]).status_code == 201
    done = as_the_page(session, cluster, upload["report_url"], {"done": True})
    assert HOSTS["b"] in done.headers["X-Upstream"]
    assert done.json()["upload"]["state"] == "done"
    assert storage_client(default_service()).head("/multi/five.bin").md5 == md5_of(data)

    # --- /ready: 503 naming the worker when both workers are down, 200 after --------------
    # B's worker stops cleanly (its heartbeat goes with it); A's, killed, ages out in 60 s.
    cluster.kill("worker-b", signal.SIGTERM)
    wait_until(lambda: ready(cluster).status_code == 503, 90, "/ready 503")
    answer = ready(cluster)
    assert answer.status_code == 503 and answer.json()["failed"] == ["worker"], answer.text
    anonymous = requests.get(cluster.url("/ready"), timeout=10)
    assert anonymous.status_code == 503 and anonymous.json() == {"ready": False}
    cluster.worker("b")
    wait_until(lambda: ready(cluster).status_code == 200, 90, "/ready 200 again")

    # --- metrics of host B through nginx ---------------------------------------------------
    scraped = requests.get(cluster.url("/metrics"), headers={"Authorization": "Bearer scrape"},
                           timeout=10)
    assert scraped.status_code == 200
    # Host B's own call: the HEAD that checked the direct upload before it was recorded done.
    assert 'backoffice_provider_calls_total{endpoint="HEAD"' in scraped.text
    assert requests.get(cluster.url("/metrics"), timeout=10).status_code == 401

    # --- the standby beat takes over when the active one is killed -----------------------
    active = SchedulerLease.objects.get(name=beat.LEASE_NAME).holder
    active_name = next(name for name in ("beat-a", "beat-b")
                       if active.endswith(f":{cluster.processes[name].pid}"))
    standby_name = "beat-b" if active_name == "beat-a" else "beat-a"
    standby_pid = cluster.processes[standby_name].pid
    cluster.kill(active_name)
    killed = time.monotonic()
    wait_until(lambda: SchedulerLease.objects.get(name=beat.LEASE_NAME).holder.endswith(
        f":{standby_pid}"), 60, "the standby beat to take over")
    assert time.monotonic() - killed < 60
