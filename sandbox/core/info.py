"""The info file: where each service listens and the demo credentials, for the back-office."""

from __future__ import annotations

import json
import os
from pathlib import Path

from sandbox.core.models import Account

URL_KEYS = {
    "control_url": "control", "sms_api_url": "sms", "traffic_url": "topup",
    "storage_url": "storage", "process_url": "media", "delivery_url": "delivery",
    "purge_url": "purge", "console_url": "console",
}


def info(host: str, ports: dict[str, int], account: Account,
         storage_lines: dict[str, str] | None = None,
         https_port: int | None = None) -> dict[str, object]:
    """`storage_lines`: line -> address the storage port listens on (default: `host` alone);
    `https_port`: the edge's TLS port (`delivery_https_url`), when it listens."""
    document: dict[str, object] = {
        key: f"http://{host}:{ports[service]}" for key, service in URL_KEYS.items()
    }
    if https_port is not None:
        document["delivery_https_url"] = f"https://{host}:{https_port}"
    document.update({
        "sms": {"token": account.sms_token},
        "topup": {"appkey": account.topup_appkey, "appsecret": account.topup_appsecret},
        "storage": {"bucket": account.storage_bucket, "operator": account.storage_operator,
                    "password": account.storage_password},
        "delivery": {"token_secret": account.delivery_token_secret},
        "console": {"username": account.console_username,
                    "password": account.console_password},
        "storage_lines": {line: f"http://{address}:{ports['storage']}"
                          for line, address in (storage_lines or {"auto": host}).items()},
    })
    return document


def write_info_file(path: Path, document: dict[str, object]) -> None:
    """Write atomically, so a reader never sees half a file; owner-only, it holds secrets."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(path.suffix + ".partial")
    with open(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as handle:
        json.dump(document, handle, indent=2)
    partial.replace(path)
