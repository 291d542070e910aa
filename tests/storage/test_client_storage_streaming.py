"""Streaming over a real loopback socket: what actually goes on the wire, and cut-off bodies.

The `responses` mock reads request bodies in one go, so these tests use a tiny local HTTP
server instead to see the bytes and headers http.client really sends.
"""

import hashlib
import io
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from storage.client import RetryPolicy, StorageClient, StorageConnectionError


class Recorder(BaseHTTPRequestHandler):
    received: dict = {}
    download_body = b""
    cut_download_at: int | None = None

    def do_PUT(self) -> None:
        length = int(self.headers["Content-Length"])
        digest = hashlib.md5()
        remaining = length
        while remaining:
            chunk = self.rfile.read(min(65536, remaining))
            if not chunk:
                break
            digest.update(chunk)
            remaining -= len(chunk)
        Recorder.received = {
            "headers": dict(self.headers),
            "length": length - remaining,
            "md5": digest.hexdigest(),
            "path": self.path,
        }
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:
        body = Recorder.download_body
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        cut = Recorder.cut_download_at
        self.wfile.write(body if cut is None else body[:cut])
        self.wfile.flush()
        self.close_connection = True

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    Recorder.received = {}
    Recorder.cut_download_at = None
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    httpd.server_close()


def make_client(base_url: str) -> StorageClient:
    return StorageClient(base_url, "demo", "ops", "pw", retry=RetryPolicy(sleep=lambda s: None))


def test_upload_sends_exact_bytes_with_content_length_not_chunked(server):
    payload = os.urandom(3_000_001)
    result = make_client(server).upload("dir/a b.bin", io.BytesIO(payload))
    received = Recorder.received
    assert received["path"] == "/demo/dir/a%20b.bin"
    assert received["length"] == len(payload)
    assert received["md5"] == hashlib.md5(payload).hexdigest() == result.content_md5
    assert received["headers"]["Content-Length"] == str(len(payload))
    assert "Transfer-Encoding" not in received["headers"]


def test_upload_from_a_path_on_disk(server, tmp_path):
    source = tmp_path / "big.bin"
    payload = os.urandom(1_500_000)
    source.write_bytes(payload)
    make_client(server).upload("big.bin", source)
    assert Recorder.received["md5"] == hashlib.md5(payload).hexdigest()


def test_download_streams_the_whole_body(server):
    Recorder.download_body = os.urandom(700_000)
    target = io.BytesIO()
    result = make_client(server).download("big.bin", target)
    assert target.getvalue() == Recorder.download_body
    assert result.md5 == hashlib.md5(Recorder.download_body).hexdigest()


def test_a_download_cut_short_is_a_connection_error(server):
    Recorder.download_body = b"x" * 100_000
    Recorder.cut_download_at = 10_000
    with pytest.raises(StorageConnectionError, match="interrupted"):
        make_client(server).download("big.bin", io.BytesIO())
