"""The provider's official SDKs, unmodified, against the real sandbox.

Both SDKs keep their default host and reach the sandbox through `provider_proxy`, a forward
proxy that translates only the provider's word and the host name. The JavaScript SDK (npm
`upyun`, pinned in package.json, installed by `make install`) signs with `X-Date`; the Python
SDK (PyPI `upyun`, pinned in requirements.txt) with `Date`. Nothing is downloaded here.
"""

from __future__ import annotations

import collections
import collections.abc
import hashlib
import importlib
import io
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import need
from tests.sandbox_process import SandboxProcess
from tests.sdk.provider_proxy import Exchange, ProviderProxy

HERE = Path(__file__).resolve().parent
NODE_SCRIPT = HERE / "node_sdk_calls.js"
NODE_SDK = HERE / "node_modules" / "upyun" / "package.json"
# The hosts the SDKs call by default, routed by the proxy to the sandbox's ports.
STORAGE_HOST = "v0.api.upyun.com"
PURGE_HOST = "purge.upyun.com"
LIST_END = "g2gCZAAEbmV4dGQAA2VvZg"
BLOCK_SIZE = 3 * 1024 * 1024 + 5  # three full 1 MiB parts and a short one
NODE_TIMEOUT_S = 120


def proxy_for(sandbox: SandboxProcess) -> ProviderProxy:
    return ProviderProxy({STORAGE_HOST: sandbox.info["storage_url"],
                          PURGE_HOST: sandbox.info["purge_url"]})


def pseudo_random(size: int) -> bytes:
    """Deterministic bytes that do not repeat every part (so a misplaced part changes the MD5)."""
    seed = hashlib.sha256(b"official sdk").digest()
    blocks = (hashlib.sha256(seed + n.to_bytes(8, "big")).digest() for n in range(size // 32 + 1))
    return b"".join(blocks)[:size]


# --- the JavaScript SDK ----------------------------------------------------------------------


def node_sdk_missing() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed (.ci/run installs it)"
    if not NODE_SDK.exists():
        return f"the JavaScript SDK is not installed in {NODE_SDK.parent.parent} (make install)"
    return None


class NodeRun:
    """One run of node_sdk_calls.js: its results by operation and what the proxy forwarded."""

    def __init__(self, results: dict[str, Any], exchanges: list[Exchange], block: bytes,
                 sandbox: SandboxProcess) -> None:
        self.results = results
        self.exchanges = exchanges
        self.block = block
        self.sandbox = sandbox

    def value(self, operation: str) -> Any:
        result = self.results[operation]
        assert result["ok"], f"{operation} failed: {result}"
        return result["value"]


@pytest.fixture(scope="module")
def node_run(sandbox_process: SandboxProcess,
             tmp_path_factory: pytest.TempPathFactory) -> NodeRun:
    """The script's calls, made once for the module against a freshly reset sandbox."""
    need(node_sdk_missing())
    sandbox_process.reset()
    info = sandbox_process.info
    block = pseudo_random(BLOCK_SIZE)
    block_file = tmp_path_factory.mktemp("node-sdk") / "block.bin"
    block_file.write_bytes(block)
    config = {
        "service": info["storage"]["bucket"],
        "operator": info["storage"]["operator"],
        "password": info["storage"]["password"],
        "blockFile": str(block_file),
        "purgeUrls": [f"{info['delivery_url']}/sdk-node/block.bin"],
    }
    with proxy_for(sandbox_process) as proxy:
        config["proxyPort"] = proxy.port
        # The proxy is the SDK's own option; no proxy variables may reroute node's calls.
        env = {name: value for name, value in os.environ.items()
               if name.lower() not in ("http_proxy", "https_proxy", "no_proxy")}
        done = subprocess.run(["node", str(NODE_SCRIPT), json.dumps(config)], cwd=HERE,
                              env=env, capture_output=True, text=True, timeout=NODE_TIMEOUT_S,
                              check=False)
        exchanges = proxy.exchanges
    assert done.returncode == 0, done.stderr
    return NodeRun(json.loads(done.stdout), exchanges, block, sandbox_process)


def test_node_sdk_signs_every_storage_call_with_x_date_and_no_date(node_run):
    storage_calls = [item for item in node_run.exchanges if item.host == STORAGE_HOST]
    assert len(storage_calls) > 15
    for call in storage_calls:
        names = {name.lower() for name in call.headers}
        assert "x-date" in names and "date" not in names, call
        assert call.headers["Authorization"].startswith("SVC "), call


def test_node_sdk_makes_a_folder(node_run):
    assert node_run.value("makeDir") is True


def test_node_sdk_puts_a_file_with_metadata_and_heads_it(node_run):
    assert node_run.value("putFile") is True
    head = node_run.value("headFile")
    assert head["type"] == "file"
    assert head["size"] == len(b"hello from node")
    assert head["Content-Md5"] == hashlib.md5(b"hello from node").hexdigest()
    assert head["date"] > 0


def test_node_sdk_gets_the_file_back(node_run):
    assert node_run.value("getFile") == "hello from node"


def test_node_sdk_lists_a_folder_page_by_page_with_iter(node_run):
    assert node_run.value("putPageFiles") is True
    listing = node_run.value("listDir")
    assert listing["last"] == LIST_END
    assert [len(page) for page in listing["pages"]] == [2, 2, 1]
    names = [line.split("\t")[0] for page in listing["pages"] for line in page]
    assert names == ["folder", "hello.txt", "p1.txt", "p2.txt", "p3.txt"]
    assert listing["pages"][0][0] == "folder\tF\t0"


def test_node_sdk_reads_the_usage(node_run):
    assert node_run.value("usage") == len(b"hello from node") + 3 * len(b"page file p1.txt")


def test_node_sdk_updates_and_reads_metadata(node_run):
    assert node_run.value("updateMetadata") is True
    assert node_run.value("getMetadata") == {"x-upyun-meta-owner": "bob",
                                             "x-upyun-meta-team": "ops"}


def test_node_sdk_uploads_three_mib_and_five_bytes_in_blocks(node_run):
    assert node_run.value("blockUpload") is True
    head = node_run.value("headBlockFile")
    assert head["size"] == BLOCK_SIZE
    assert head["Content-Md5"] == hashlib.md5(node_run.block).hexdigest()
    parts = [item for item in node_run.exchanges
             if item.headers.get("x-svc-multi-stage") == "upload"]
    assert [item.headers["x-svc-part-id"] for item in parts] == ["0", "1", "2", "3"]


def test_node_sdk_copies_a_file(node_run):
    assert node_run.value("copy") is True
    assert node_run.value("headCopy")["size"] == len(b"hello from node")


def test_node_sdk_deletes_a_file_and_a_head_of_it_then_says_missing(node_run):
    assert node_run.value("deleteFile") is True
    assert node_run.value("headMissing") is False


def test_node_sdk_purges_an_edge_url(node_run):
    assert node_run.value("purge") is True
    purges = [item for item in node_run.exchanges if item.host == PURGE_HOST]
    assert [item.status for item in purges] == [200]
    assert purges[0].headers["Authorization"].startswith("SVC ")


# --- the Python SDK --------------------------------------------------------------------------


@pytest.fixture
def python_sdk(sandbox: SandboxProcess, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The SDK's client with its defaults, sent through the proxy by `http_proxy`."""
    try:
        upyun: ModuleType = importlib.import_module("upyun")
    except ImportError:
        need("the Python SDK `upyun` is not installed (make install)")
        raise
    # The SDK's resumable upload still tests `collections.Callable`, which Python 3.10
    # removed; the one alias is restored, nothing else of the SDK changes.
    monkeypatch.setattr(collections, "Callable", collections.abc.Callable, raising=False)
    with proxy_for(sandbox) as proxy:
        for name in ("http_proxy", "HTTP_PROXY"):
            monkeypatch.setenv(name, proxy.url)
        for name in ("no_proxy", "NO_PROXY"):
            monkeypatch.setenv(name, "127.0.0.1,localhost")
        info = sandbox.info["storage"]
        yield upyun.UpYun(info["bucket"], info["operator"], info["password"])


def test_python_sdk_puts_with_checksum_and_reads_the_file_back(python_sdk):
    data = b"hello from python"
    python_sdk.put("/sdk-python/a.txt", data, checksum=True,
                   headers={"x-upyun-meta-owner": "carol"})
    assert python_sdk.get("/sdk-python/a.txt") == data.decode()
    info = python_sdk.getinfo("/sdk-python/a.txt")
    assert info["file-type"] == "file"
    assert info["file-size"] == str(len(data))
    assert info["content-md5"] == hashlib.md5(data).hexdigest()


def test_python_sdk_refuses_nothing_sent_with_a_wrong_checksum(python_sdk):
    upyun = importlib.import_module("upyun")
    with pytest.raises(upyun.UpYunServiceException) as caught:
        python_sdk.put("/sdk-python/bad.txt", b"x", headers={"Content-MD5": "0" * 32})
    assert caught.value.status == 400
    assert json.loads(caught.value.err)["code"] == 40001001


def test_python_sdk_lists_a_folder_and_reads_the_usage(python_sdk):
    python_sdk.put("/sdk-python/list/one.txt", b"1")
    python_sdk.put("/sdk-python/list/two.txt", b"22")
    python_sdk.mkdir("/sdk-python/list/sub")
    listing = python_sdk.getlist("/sdk-python/list/")
    assert [(item["name"], item["type"], item["size"]) for item in listing] == [
        ("one.txt", "N", "1"), ("sub", "F", "0"), ("two.txt", "N", "2")]
    assert python_sdk.usage() == "3"


def test_python_sdk_deletes_a_file(python_sdk):
    upyun = importlib.import_module("upyun")
    python_sdk.put("/sdk-python/gone.txt", b"soon gone")
    python_sdk.delete("/sdk-python/gone.txt")
    with pytest.raises(upyun.UpYunServiceException) as caught:
        python_sdk.getinfo("/sdk-python/gone.txt")
    assert caught.value.status == 404


def test_python_sdk_resumable_put_stores_every_part_in_order(python_sdk, tmp_path):
    data = pseudo_random(BLOCK_SIZE)
    source = tmp_path / "resumable.bin"
    source.write_bytes(data)
    with source.open("rb") as handle:
        python_sdk.put("/sdk-python/resumable.bin", handle, checksum=True, need_resume=True)
    info = python_sdk.getinfo("/sdk-python/resumable.bin")
    assert info["file-size"] == str(BLOCK_SIZE)
    assert info["content-md5"] == hashlib.md5(data).hexdigest()
    downloaded = io.BytesIO()
    python_sdk.get("/sdk-python/resumable.bin", downloaded)
    assert downloaded.getvalue() == data
