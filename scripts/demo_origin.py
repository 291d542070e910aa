"""`make run`'s own origin: a tiny web server standing for a merchant's site, which an
own-origin (cdn) service of the sandbox can point at (`http://127.0.0.1:<base port + 8>`).

    python scripts/demo_origin.py [--host 127.0.0.1] [--port 8108]

Its pages show how the edge treats an origin's answers (docs/sandbox.md, "Own origin"):
- `/` (also `/index.html`): HTML with `Cache-Control: max-age=300`, so the edge keeps it
  five minutes; it shows when the origin made it and how many requests reached the origin;
- `/about.html`: HTML without cache headers, so the edge never keeps it (dynamic by default);
- `/style.css` and `/logo.png`: static, so the edge keeps them 8 days by default;
- `/whoami`: what the origin received (Host, X-Forwarded-For, X-Real-IP), never cached.
Anything else answers 404. Only the standard library: it runs beside the sandbox without it.
"""

from __future__ import annotations

import argparse
import html
import itertools
import signal
import struct
import sys
import threading
import time
import zlib
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import FrameType

STYLE = b"""body { font-family: sans-serif; max-width: 40em; margin: 2em auto; color: #222; }
header { display: flex; align-items: center; gap: 1em; }
.note { color: #666; font-size: 0.9em; }
"""
_counter = itertools.count(1)
_counter_lock = threading.Lock()


def next_request_number() -> int:
    with _counter_lock:
        return next(_counter)


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A plain one-colour PNG, written by hand (no imaging library needed)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    row = b"\x00" + bytes(rgb) * width
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * height))
            + chunk(b"IEND", b""))


LOGO = png(48, 48, (220, 60, 40))


def page(title: str, body: str, number: int) -> bytes:
    made = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<link rel="stylesheet" href="/style.css"></head>
<body><header><img src="/logo.png" alt="" width="48" height="48"><h1>{html.escape(title)}</h1>
</header>
{body}
<p class="note">Made by the demo origin at {made}; request number {number} to reach it.</p>
<nav><a href="/">Home</a> | <a href="/about.html">About</a> | <a href="/whoami">Who am I</a></nav>
</body></html>
""".encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "DemoOrigin/1.0"

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        self._answer(head=False)

    def do_HEAD(self) -> None:  # noqa: N802 - http.server's name
        self._answer(head=True)

    def _answer(self, *, head: bool) -> None:
        number = next_request_number()
        path = self.path.split("?", 1)[0]
        route: dict[str, Callable[[int], tuple[int, str, bytes, dict[str, str]]]] = {
            "/": self._home, "/index.html": self._home, "/about.html": self._about,
            "/style.css": lambda _n: (200, "text/css", STYLE, {}),
            "/logo.png": lambda _n: (200, "image/png", LOGO, {}),
            "/whoami": self._whoami,
        }
        handler = route.get(path)
        status, content_type, body, headers = (
            handler(number) if handler else (404, "text/plain", b"not found at the origin\n", {}))
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _home(self, number: int) -> tuple[int, str, bytes, dict[str, str]]:
        body = ("<p>This page comes from the merchant's own web server. The edge keeps it "
                "five minutes (<code>Cache-Control: max-age=300</code>): reload and the time "
                "below stays, until a refresh or <code>?_upv=01</code>.</p>")
        return (200, "text/html; charset=utf-8", page("Demo shop", body, number),
                {"Cache-Control": "public, max-age=300"})

    def _about(self, number: int) -> tuple[int, str, bytes, dict[str, str]]:
        body = ("<p>No cache headers here: an HTML page is dynamic for the edge, so every "
                "request reaches the origin.</p>")
        return 200, "text/html; charset=utf-8", page("About", body, number), {}

    def _whoami(self, number: int) -> tuple[int, str, bytes, dict[str, str]]:
        seen = {name: self.headers.get(name, "") for name in
                ("Host", "X-Forwarded-For", "X-Real-IP", "User-Agent")}
        text = "".join(f"{name}: {value}\n" for name, value in seen.items())
        return (200, "text/plain; charset=utf-8", f"request {number}\n{text}".encode(),
                {"Cache-Control": "no-store"})

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base's name
        sys.stderr.write(f"demo origin: {self.address_string()} {format % args}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8108)
    options = parser.parse_args()
    try:
        server = ThreadingHTTPServer((options.host, options.port), Handler)
    except OSError as error:
        sys.exit(f"demo origin: cannot listen on {options.host}:{options.port}: {error}")
    server.daemon_threads = True

    def stop(_signum: int, _frame: FrameType | None) -> None:
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(f"demo origin: serving http://{options.host}:{options.port}/", flush=True)
    server.serve_forever()
    server.server_close()


if __name__ == "__main__":
    main()
