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
from concurrent.futures import ThreadPoolExecutor
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
             if item.headers.get("x-svc-multi-stage") == "upload"
             and item.target.endswith("/block.bin")]
    assert [item.headers["x-svc-part-id"] for item in parts] == ["0", "1", "2", "3"]


def test_node_sdk_copies_a_file(node_run):
    assert node_run.value("copy") is True
    assert node_run.value("headCopy")["size"] == len(b"hello from node")


def test_node_sdk_copies_with_replaced_metadata(node_run):
    assert node_run.value("copyReplace") is True
    assert node_run.value("copyReplaceMetadata") == {"x-upyun-meta-stage": "copied"}


def test_node_sdk_copy_onto_itself_is_refused_with_the_tables_code(node_run):
    assert node_run.results["copyOntoItself"]["ok"] is False
    refusal = next(item for item in node_run.exchanges
                   if item.headers.get("x-svc-copy-source", "").endswith("/sdk-node/hello.txt")
                   and item.target.endswith("/sdk-node/hello.txt"))
    answer = json.loads(refusal.error_body)
    assert (answer["code"], answer["msg"]) == (40000041, "source key equals to target key")


def test_node_sdk_moves_a_file_and_leaves_nothing_behind(node_run):
    assert node_run.value("move") is True
    assert node_run.value("headMoved")["size"] == len(b"hello from node")
    assert node_run.value("headMoveSource") is False


def test_node_sdk_move_of_a_folder_is_refused(node_run):
    assert node_run.results["moveFolder"]["ok"] is False
    refusal = next(item for item in node_run.exchanges if "x-svc-move-source" in item.headers
                   and item.headers["x-svc-move-source"].endswith("/sdk-node/folder"))
    assert json.loads(refusal.error_body)["code"] == 40000042


def test_node_sdk_uploads_in_parallel_parts(node_run):
    run = node_run.value("multipartUpload")
    assert run == {"partCount": 4, "sent": [True] * 4, "completed": True}
    head = node_run.value("headParallel")
    assert head["size"] == BLOCK_SIZE
    assert head["Content-Md5"] == hashlib.md5(node_run.block).hexdigest()
    initiate = next(item for item in node_run.exchanges
                    if item.headers.get("x-svc-multi-stage") == "initiate"
                    and item.target.endswith("/parallel.bin"))
    assert initiate.headers["x-svc-multi-disorder"] == "true"


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


def test_python_sdk_lists_a_folder_page_by_page_with_iter(python_sdk):
    """The SDK reads `x-upyun-list-iter` from a plain dict: the header must come in lowercase."""
    for name in ("a", "b", "c", "d", "e"):
        python_sdk.put(f"/sdk-python/pages/{name}.txt", name.encode())
    pages, cursor = [], None
    for _ in range(10):  # bounded: a listing that never ends fails instead of hanging
        page = python_sdk.get_list_with_iter("/sdk-python/pages/", limit=2, begin=cursor)
        pages.append([item["name"] for item in page["files"]])
        cursor = page["iter"]
        if cursor == LIST_END:
            break
    assert pages == [["a.txt", "b.txt"], ["c.txt", "d.txt"], ["e.txt"]]
    assert cursor == LIST_END


def test_python_sdk_puts_metadata_and_reads_it_back(python_sdk):
    python_sdk.put("/sdk-python/meta.txt", b"m", headers={"x-upyun-meta-owner": "dora",
                                                         "x-upyun-meta-ttl": "7"})
    info = python_sdk.getinfo("/sdk-python/meta.txt")
    assert info["meta-owner"] == "dora"
    assert info["meta-ttl"] == "7"


def test_python_sdk_refuses_a_ttl_over_180_days_with_the_tables_code(python_sdk):
    upyun = importlib.import_module("upyun")
    with pytest.raises(upyun.UpYunServiceException) as caught:
        python_sdk.put("/sdk-python/ttl.txt", b"t", headers={"x-upyun-meta-ttl": "181"})
    assert json.loads(caught.value.err)["code"] == 40011092
    assert json.loads(caught.value.err)["msg"] == "invalid file ttl"


def test_python_sdk_copies_and_moves(python_sdk):
    python_sdk.put("/sdk-python/cm/a.txt", b"copied", headers={"x-upyun-meta-k": "v"})
    python_sdk.copy("/sdk-python/cm/a.txt", "/sdk-python/cm/b.txt")
    assert python_sdk.get("/sdk-python/cm/b.txt") == "copied"
    assert python_sdk.getinfo("/sdk-python/cm/b.txt")["meta-k"] == "v"
    python_sdk.move("/sdk-python/cm/b.txt", "/sdk-python/cm/moved/c.txt")
    assert python_sdk.get("/sdk-python/cm/moved/c.txt") == "copied"
    assert [item["name"] for item in python_sdk.getlist("/sdk-python/cm/")] == ["a.txt",
                                                                                "moved"]


def test_python_sdk_copy_onto_itself_is_refused_with_the_tables_message(python_sdk):
    upyun = importlib.import_module("upyun")
    python_sdk.put("/sdk-python/cm/self.txt", b"s")
    with pytest.raises(upyun.UpYunServiceException) as caught:
        python_sdk.copy("/sdk-python/cm/self.txt", "/sdk-python/cm/self.txt")
    answer = json.loads(caught.value.err)
    assert (answer["code"], answer["msg"]) == (40000041, "source key equals to target key")


def test_python_sdk_move_from_a_folder_is_refused(python_sdk):
    upyun = importlib.import_module("upyun")
    python_sdk.mkdir("/sdk-python/cm/folder")
    with pytest.raises(upyun.UpYunServiceException) as caught:
        python_sdk.move("/sdk-python/cm/folder", "/sdk-python/cm/elsewhere")
    assert json.loads(caught.value.err)["code"] == 40000042


def test_python_sdk_plain_put_of_a_file_object(python_sdk, tmp_path):
    source = tmp_path / "plain.bin"
    data = pseudo_random(2 * 1024 * 1024 + 3)
    source.write_bytes(data)
    with source.open("rb") as handle:
        python_sdk.put("/sdk-python/plain.bin", handle, checksum=True)
    assert python_sdk.getinfo("/sdk-python/plain.bin")["content-md5"] == \
        hashlib.md5(data).hexdigest()


class StopAfterFirstPart(Exception):
    """Raised by the progress reporter: the upload stops as a crash would, record saved."""


def test_python_sdk_resumes_from_a_stale_record_by_following_part_id_error(python_sdk,
                                                                            tmp_path):
    """A record one part behind the provider (saved before the part's answer came back): the
    provider answers 40011061 `part id error` with the part it expects, and the SDK, which
    compares the message exactly, moves on to it."""
    resume = importlib.import_module("upyun.resume")
    store = resume.FileStore(str(tmp_path / "records"))
    data = pseudo_random(BLOCK_SIZE)
    source = tmp_path / "stale.bin"
    source.write_bytes(data)

    def stop(uploaded: int, total: int, done: bool) -> None:
        raise StopAfterFirstPart

    with source.open("rb") as handle, pytest.raises(StopAfterFirstPart):
        python_sdk.put("/sdk-python/stale.bin", handle, need_resume=True, store=store,
                       reporter=stop)
    key = store.get_key(python_sdk.service, "/sdk-python/stale.bin", str(source))
    record = store.get(key)
    assert record["next_id"] == 1 and record["multi_uuid"]
    store.set(key, {**record, "next_id": 0, "start": 0, "end": 1024 * 1024})  # stale
    with source.open("rb") as handle:
        python_sdk.put("/sdk-python/stale.bin", handle, need_resume=True, store=store)
    assert python_sdk.getinfo("/sdk-python/stale.bin")["content-md5"] == \
        hashlib.md5(data).hexdigest()
    assert store.get(key) == {}  # the SDK forgets a finished upload's record


def test_python_sdk_parallel_uploader_sends_parts_at_once_in_any_order(python_sdk):
    """`init_multi_uploader` initiates with `x-upyun-multi-disorder: true`."""
    part_size = 1024 * 1024
    data = pseudo_random(BLOCK_SIZE)
    uploader = python_sdk.init_multi_uploader("/sdk-python/parallel.bin", part_size=part_size,
                                              file_size=len(data))
    parts = [(index, data[start:start + part_size])
             for index, start in enumerate(range(0, len(data), part_size))]
    with ThreadPoolExecutor(len(parts)) as pool:
        list(pool.map(lambda item: uploader.upload(*item), reversed(parts)))
    answer = uploader.complete(hashlib.md5(data).hexdigest())
    assert answer["multi-length"] == str(len(data))
    downloaded = io.BytesIO()
    python_sdk.get("/sdk-python/parallel.bin", downloaded)
    assert downloaded.getvalue() == data


def test_python_sdk_parallel_uploader_refuses_a_part_twice_and_a_gap(python_sdk):
    upyun = importlib.import_module("upyun")
    uploader = python_sdk.init_multi_uploader("/sdk-python/gap.bin", part_size=1024 * 1024)
    uploader.upload(0, b"x" * 1024 * 1024)
    with pytest.raises(upyun.UpYunServiceException) as twice:
        uploader.upload(0, b"x" * 1024 * 1024)
    assert json.loads(twice.value.err)["code"] == 40001031
    uploader.upload(2, b"z")
    with pytest.raises(upyun.UpYunServiceException) as gap:
        uploader.complete()
    assert json.loads(gap.value.err)["code"] == 40001037


def test_python_sdk_parallel_uploader_cancels(python_sdk):
    upyun = importlib.import_module("upyun")
    uploader = python_sdk.init_multi_uploader("/sdk-python/cancelled.bin")
    uploader.upload(0, b"part")
    uploader.cancel()
    with pytest.raises(upyun.UpYunServiceException) as caught:
        uploader.complete()
    assert json.loads(caught.value.err)["code"] == 40001035


def test_python_sdk_purges_an_edge_url(python_sdk, sandbox):
    python_sdk.put("/sdk-python/purged.txt", b"p")
    edge = sandbox.info["delivery_url"].removeprefix("http://")
    assert python_sdk.purge(["/sdk-python/purged.txt"], domain=edge) == []
