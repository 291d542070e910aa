"""The provider's official SDKs' FORM API uploads (api/form_api.md), unmodified, against the
real sandbox: the Python SDK's `put(..., form=True)` and the JavaScript SDK's `formPutFile`.

Both go through `provider_proxy`, which translates the provider's word, here also in the
form's `authorization` field. The Python SDK keeps its default host (`http_proxy`); the
JavaScript SDK posts the form without its proxy option, so its endpoint (`domain`) is the
proxy itself. Nothing is downloaded here.
"""

from __future__ import annotations

import base64
import hashlib
import importlib
import io
import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from PIL import Image

from tests.conftest import need
from tests.sandbox.test_storage_client import StorageClient
from tests.sandbox_process import SandboxProcess
from tests.sdk.provider_proxy import ProviderProxy
from tests.sdk.test_official_sdks import NODE_TIMEOUT_S, node_sdk_missing, proxy_for

HERE = Path(__file__).resolve().parent
NODE_SCRIPT = HERE / "node_sdk_forms.js"


def png(width: int = 40, height: int = 20) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (10, 120, 200)).save(buffer, format="PNG")
    return buffer.getvalue()


# --- the JavaScript SDK ----------------------------------------------------------------------


class NodeFormRun:
    def __init__(self, results: dict[str, Any], proxy_statuses: list[int],
                 sandbox: SandboxProcess) -> None:
        self.results = results
        self.statuses = proxy_statuses
        self.sandbox = sandbox

    def value(self, operation: str) -> Any:
        result = self.results[operation]
        assert result["ok"], f"{operation} failed: {result}"
        return result["value"]


@pytest.fixture(scope="module")
def node_forms(sandbox_process: SandboxProcess) -> NodeFormRun:
    need(node_sdk_missing())
    sandbox_process.reset()
    info = sandbox_process.info
    with proxy_for(sandbox_process) as proxy:
        proxy.add_route(f"127.0.0.1:{proxy.port}", info["storage_url"])
        config = {"service": info["storage"]["bucket"], "operator": info["storage"]["operator"],
                  "password": info["storage"]["password"], "proxyPort": proxy.port,
                  "image": base64.b64encode(png()).decode()}
        env = {name: value for name, value in os.environ.items()
               if name.lower() not in ("http_proxy", "https_proxy", "no_proxy")}
        done = subprocess.run(["node", str(NODE_SCRIPT), json.dumps(config)], cwd=HERE,
                              env=env, capture_output=True, text=True, timeout=NODE_TIMEOUT_S,
                              check=False)
        statuses = [exchange.status for exchange in proxy.exchanges]
    assert done.returncode == 0, done.stderr
    return NodeFormRun(json.loads(done.stdout), statuses, sandbox_process)


def test_node_form_put_file_stores_the_file_and_answers_the_result(node_forms):
    answer = node_forms.value("formPutFile")
    assert (answer["code"], answer["message"], answer["url"]) == (200, "ok",
                                                                 "/sdk-node-form/hello.txt")
    storage = StorageClient(node_forms.sandbox)
    assert storage.get("/sdk-node-form/hello.txt").content == b"hello form from node"


def test_node_form_put_file_takes_the_pages_limits_and_placeholders(node_forms):
    answer = node_forms.value("formPutFileWithLimits")
    assert answer["url"] == "/sdk-node-form/named.txt"


def test_node_form_put_file_outside_the_length_range_answers_false(node_forms):
    """The SDK resolves `false` on any status but 200; the sandbox refused with 403."""
    assert node_forms.value("formPutFileTooLarge") is False
    assert 403 in node_forms.statuses
    assert StorageClient(node_forms.sandbox).head("/sdk-node-form/large.txt").status_code == 404


def test_node_form_put_file_preprocesses_with_x_gmkerl_thumb(node_forms):
    answer = node_forms.value("formPutFileThumb")
    assert (answer["image-width"], answer["image-height"], answer["image-type"]) == \
        (20, 10, "JPEG")


def test_node_form_put_file_with_apps_runs_the_thumb_task(node_forms):
    answer = node_forms.value("formPutFileApps")
    assert answer["code"] == 200 and len(answer["task_ids"]) == 1
    image = Image.open(io.BytesIO(stored_when_done(StorageClient(node_forms.sandbox),
                                                   "/sdk-node-form/apps_fw20.webp")))
    assert (image.format, image.size) == ("WEBP", (20, 10))


def stored_when_done(storage: StorageClient, path: str) -> bytes:
    """The file an `apps` task saves, once the sandbox's tick has run it."""
    deadline = time.monotonic() + 15
    result = storage.get(path)
    while result.status_code == 404 and time.monotonic() < deadline:
        time.sleep(0.2)
        result = storage.get(path)
    assert result.status_code == 200, f"{path} never appeared"
    return result.content


# --- the Python SDK --------------------------------------------------------------------------


@pytest.fixture
def python_sdk(sandbox: SandboxProcess, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    try:
        upyun: ModuleType = importlib.import_module("upyun")
    except ImportError:
        need("the Python SDK `upyun` is not installed (make install)")
        raise
    proxy: ProviderProxy
    with proxy_for(sandbox) as proxy:
        for name in ("http_proxy", "HTTP_PROXY"):
            monkeypatch.setenv(name, proxy.url)
        for name in ("no_proxy", "NO_PROXY"):
            monkeypatch.setenv(name, "127.0.0.1,localhost")
        info = sandbox.info["storage"]
        yield upyun.UpYun(info["bucket"], info["operator"], info["password"])


def test_python_sdk_form_upload_stores_the_file(python_sdk, sandbox, tmp_path):
    source = tmp_path / "form.txt"
    source.write_bytes(b"hello form from python")
    with source.open("rb") as handle:
        answer = python_sdk.put("/sdk-python-form/{filename}-{filemd5}{.suffix}", handle,
                                form=True)
    md5 = hashlib.md5(b"hello form from python").hexdigest()
    assert answer["code"] == 200 and answer["message"] == "ok"
    assert answer["url"] == f"/sdk-python-form/form-{md5}.txt"
    assert StorageClient(sandbox).get(answer["url"]).content == b"hello form from python"


def test_python_sdk_form_upload_with_a_limit_it_breaks_is_refused(python_sdk, sandbox, tmp_path):
    source = tmp_path / "tool.exe"
    source.write_bytes(b"MZ")
    upyun = importlib.import_module("upyun")
    with source.open("rb") as handle, pytest.raises(upyun.UpYunServiceException) as refused:
        python_sdk.put("/sdk-python-form/tool.exe", handle, form=True,
                       **{"allow-file-type": "jpg,png"})
    assert refused.value.status == 403
    answer = json.loads(refused.value.err)
    assert (answer["code"], answer["msg"]) == (40300010, "file type error")
    assert StorageClient(sandbox).head("/sdk-python-form/tool.exe").status_code == 404


def test_python_sdk_form_upload_answers_an_images_size(python_sdk, tmp_path):
    source = tmp_path / "blue.png"
    source.write_bytes(png(40, 20))
    with source.open("rb") as handle:
        answer = python_sdk.put("/sdk-python-form/blue.png", handle, form=True)
    assert (answer["image-width"], answer["image-height"], answer["image-type"],
            answer["image-frames"]) == (40, 20, "PNG", 1)


def test_python_sdk_form_upload_with_apps_runs_the_thumb_task(python_sdk, sandbox, tmp_path):
    source = tmp_path / "apps.png"
    source.write_bytes(png(40, 20))
    apps = [{"name": "thumb", "x-gmkerl-thumb": "/fw/20/format/jpg",
             "save_as": "/sdk-python-form/{filename}_fw20.jpg"}]
    with source.open("rb") as handle:
        answer = python_sdk.put("/sdk-python-form/apps.png", handle, form=True, apps=apps)
    assert answer["code"] == 200 and len(answer["task_ids"]) == 1
    image = Image.open(io.BytesIO(stored_when_done(StorageClient(sandbox),
                                                   "/sdk-python-form/apps_fw20.jpg")))
    assert (image.format, image.size) == ("JPEG", (20, 10))
