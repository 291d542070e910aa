"""`runsandbox`: eight ports, the info file, a data directory per account, clear port errors."""

import json
import socket
import subprocess
import sys

import requests

from tests.sandbox_process import ROOT, SandboxProcess, free_base_port

INFO_KEYS = {"sms_api_url", "traffic_url", "storage_url", "process_url", "delivery_url",
             "purge_url", "control_url", "console_url"}


def test_it_answers_on_all_eight_ports(sandbox):
    assert requests.get(f"{sandbox.info['control_url']}/health", timeout=5).json() == {"ok": True}
    for key in INFO_KEYS - {"control_url"}:
        response = requests.get(f"{sandbox.info[key]}/no-such-endpoint", timeout=5)
        assert response.headers["Content-Type"].startswith("application/json"), key


def test_the_info_file_names_every_service_and_credential(sandbox):
    info = json.loads(sandbox.info_file.read_text())
    assert set(info) >= INFO_KEYS
    for offset, key in enumerate(["control_url", "sms_api_url", "traffic_url", "storage_url",
                                  "process_url", "delivery_url", "purge_url", "console_url"]):
        assert info[key] == f"http://127.0.0.1:{sandbox.base_port + offset}"
    assert info["console"]["username"] == "demo" and len(info["console"]["password"]) >= 20
    storage = sandbox.base_port + 3
    assert info["storage_lines"] == {
        "auto": f"http://127.0.0.1:{storage}", "telecom": f"http://127.0.0.2:{storage}",
        "unicom": f"http://127.0.0.3:{storage}", "cmcc": f"http://127.0.0.4:{storage}"}
    assert len(info["topup"]["appkey"]) == 16
    assert info["sms"]["token"] and info["topup"]["appsecret"]
    assert info["storage"]["bucket"] and info["storage"]["operator"]
    assert info["storage"]["password"] and info["delivery"]["token_secret"]
    assert sandbox.info_file.stat().st_mode & 0o077 == 0  # it holds secrets: owner only


def test_reset_keeps_the_credentials_of_the_info_file(sandbox):
    before = json.loads(sandbox.info_file.read_text())
    sandbox.reset()
    restarted_info = json.loads(sandbox.info_file.read_text())
    assert restarted_info == before


def test_a_new_data_directory_is_a_new_account_and_an_old_one_is_kept(tmp_path):
    first = SandboxProcess(tmp_path / "a")
    first.start()
    first.stop()
    again = SandboxProcess(tmp_path / "a")
    again.start()
    again.stop()
    other = SandboxProcess(tmp_path / "b")
    other.start()
    other.stop()
    assert first.info["sms"] == again.info["sms"]
    assert first.info["topup"] == again.info["topup"]
    assert first.info["sms"] != other.info["sms"]


def test_it_names_the_port_that_is_in_use(tmp_path):
    base = free_base_port()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", base + 3))
        taken.listen()
        result = subprocess.run(
            [sys.executable, "manage.py", "runsandbox", "--base-port", str(base),
             "--data-dir", str(tmp_path), "--info-file", str(tmp_path / "info.json")],
            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert f"{base + 3} (storage)" in result.stderr


def test_head_answers_carry_no_body_so_keep_alive_connections_stay_in_step(sandbox):
    from urllib.parse import urlsplit

    for key in ("storage_url", "delivery_url", "sms_api_url"):
        address = urlsplit(sandbox.info[key])
        with socket.create_connection((address.hostname, address.port), timeout=5) as raw:
            raw.sendall(b"HEAD /no-such-bucket/no-such-file HTTP/1.1\r\nHost: edge\r\n\r\n")
            received = b""
            while b"\r\n\r\n" not in received:
                received += raw.recv(4096)
            after_headers = received.split(b"\r\n\r\n", 1)[1]
            raw.settimeout(0.5)
            try:
                after_headers += raw.recv(4096)
            except TimeoutError:
                pass  # nothing more came: right
        assert after_headers == b"", (key, after_headers)
