"""Benchmark of uploads to the storage service: the browser's direct route, the command line's
parallel resumable upload and a plain PUT, against the sandbox.

Starts a sandbox (tests/sandbox_process.py) and the back-office under gunicorn (its own
database: PostgreSQL when DATABASE_URL names one, else a SQLite file; its storage service is
the sandbox's), generates a file (256 MiB by default) and measures in one run:

- md5: hashing the file's bytes with MD5 (read from disk in 64 KiB chunks), for reference;
- plain PUT: one whole-file PUT of the same bytes (no Content-MD5, the cheapest upload): the
  limit the others are compared with;
- checked PUT, for reference: the same PUT with its Content-MD5 (hashed first, checked by the
  provider), the product's default for a whole file: what checking every byte costs on this
  machine, where the client and the provider share two cores;
- command line: `resumable_upload` with `STORAGE_UPLOAD_PARTS_IN_FLIGHT` parts on the wire in
  the provider's parallel mode (per-part Content-MD5, whole-file MD5 at completion), as
  `manage.py storage_upload` sends a large file;
- direct: the browser's route made by a script (bench/direct_upload.py): the back-office opens
  the task and signs each request, the parts (each hashed, as the page hashes them) go
  straight to the sandbox, `in_flight` at once, and the back-office checks the file at the end.
  The bytes of every request to and answer from the web node are counted;
- download: `StorageClient.download` to a local file, for reference.

They run in turn, round after round (5 by default), and the medians are compared: on a small
shared machine one transfer of a few seconds can vary by a third from one try to the next,
and a median of interleaved rounds compares the uploads under the same conditions. Every
round's wall time is printed.

Before that, while the process is fresh, the client's memory: a generated 1 GiB file (sparse,
so it costs no disk) is uploaded in parts and downloaded again while tracemalloc records the
peak of Python allocations and a sampler thread records the peak resident set size above the
starting point.

Targets: the direct route and the command line each at least 0.9 of the plain PUT's
throughput; the web node's bytes under 0.01 per uploaded byte; client memory under 100 MB for
a 1 GiB file. Run with ``.venv/bin/python bench/storage_upload.py`` (``--size-mib N``,
``--rounds N``, ``--memory-gib N`` with 0 to skip the memory part).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from benchkit import bench_database, free_port, start_server  # noqa: E402
from direct_upload import DirectUpload, log_in  # noqa: E402

from storage.client import CHUNK_SIZE, RetryPolicy, StorageClient  # noqa: E402
from storage.resumable import resumable_upload  # noqa: E402
from tests.sandbox_process import SandboxProcess  # noqa: E402

MIB = 1024 * 1024
TARGET_RATIO = 0.9
TARGET_WEB_BYTES = 0.01  # web-node bytes per uploaded byte
PARTS_IN_FLIGHT = 4  # STORAGE_UPLOAD_PARTS_IN_FLIGHT's default, for both parallel uploads
USERNAME, PASSWORD = "bench-uploads", "bench-Uploads-2026"
TARGET_MEMORY_MB = 100.0
GENERATE_CHUNK = 8 * MIB


def generate(path: Path, size: int, seed: int = 2024) -> None:
    """Bytes that do not repeat or compress, written in 8 MiB chunks."""
    rng = random.Random(seed)
    with open(path, "wb") as file:
        left = size
        while left:
            block = min(left, GENERATE_CHUNK)
            file.write(rng.randbytes(block))
            left -= block


def sparse(path: Path, size: int) -> None:
    """A file of `size` zero bytes that takes no disk space (holes)."""
    with open(path, "wb") as file:
        file.truncate(size)


def timed(action: Callable[[], object]) -> tuple[float, float]:
    """(wall seconds, this process's CPU seconds): the CPU time is the client's own work, the
    rest of the wall time is spent waiting for the sandbox."""
    started, cpu = time.perf_counter(), time.process_time()
    action()
    return time.perf_counter() - started, time.process_time() - cpu


def md5_file(path: Path) -> str:
    digest = hashlib.md5()
    with open(path, "rb") as file:
        while chunk := file.read(CHUNK_SIZE):
            digest.update(chunk)
    return digest.hexdigest()


def rss_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class PeakRss:
    """Samples the resident set size every 20 ms; `peak_delta` is the rise above the start."""

    def __init__(self) -> None:
        self.start = rss_bytes()
        self.peak = self.start
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, rss_bytes())
            time.sleep(0.02)

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, rss_bytes())

    @property
    def peak_delta(self) -> int:
        return self.peak - self.start


def rate(size: int, seconds: float) -> float:
    return size / MIB / seconds


def measure_memory(client: StorageClient, workdir: Path, size: int) -> tuple[float, float]:
    """(tracemalloc peak MB, RSS rise MB) over a resumable upload and a download of `size`."""
    source = workdir / "memory-source.bin"
    sparse(source, size)
    target = workdir / "memory-copy.bin"
    tracemalloc.start()
    with PeakRss() as rss:
        resumable_upload(client, "/bench/memory.bin", source)
        client.download("/bench/memory.bin", target)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    if target.stat().st_size != size:
        raise SystemExit("memory run: the downloaded copy has the wrong size")
    target.unlink()
    source.unlink()
    client.delete("/bench/memory.bin")
    return peak / 1e6, rss.peak_delta / 1e6


MD5, PLAIN, CHECKED, PARALLEL, DIRECT, DOWNLOAD = (
    "md5 of the bytes", "plain PUT", "checked PUT", "command line", "direct (browser)",
    "download")
Timing = tuple[float, float]


class Backoffice:
    """The back-office under gunicorn, its storage service the sandbox's, and a person signed
    in; `web_bytes` is what crossed the web node for the direct uploads so far."""

    def __init__(self, workdir: Path, sandbox_info: dict[str, object]) -> None:
        storage = sandbox_info["storage"]
        assert isinstance(storage, dict)
        database_url, self._drop = bench_database(workdir)
        self.env = {
            **os.environ, "DATABASE_URL": database_url, "DEBUG": "false",
            "VAR_DIR": str(workdir / "var"), "ALLOWED_HOSTS": "127.0.0.1",
            "SECRET_KEY": os.environ.get("SECRET_KEY") or "bench-only-secret-key",
            "LOG_LEVEL": "WARNING", "STORAGE_URL": str(sandbox_info["storage_url"]),
            "STORAGE_BUCKET": storage["bucket"], "STORAGE_OPERATOR": storage["operator"],
            "STORAGE_PASSWORD": storage["password"], "STORAGE_BROWSER_UPLOAD_ROUTE": "direct",
            "STORAGE_UPLOAD_PARTS_IN_FLIGHT": str(PARTS_IN_FLIGHT),
            "DJANGO_SUPERUSER_PASSWORD": PASSWORD,
        }
        manage = [sys.executable, "manage.py"]
        subprocess.run([*manage, "migrate", "--verbosity", "0"], cwd=ROOT, env=self.env,
                       check=True)
        if not self.env.get("REDIS_URL"):
            subprocess.run([*manage, "createcachetable"], cwd=ROOT, env=self.env, check=True)
        subprocess.run([*manage, "createsuperuser", "--no-input", "--username", USERNAME,
                        "--email", "bench@example.com"], cwd=ROOT, env=self.env, check=True)
        self.port = free_port()
        self.server = start_server(self.env, self.port, workers=2, threads=4)
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.session = log_in(self.base_url, USERNAME, PASSWORD)

    def upload(self, source: Path) -> None:
        state = DirectUpload(self.session, self.base_url, "/bench/direct", source).run()
        if state != "done":
            raise SystemExit(f"the direct upload ended {state}")

    def stop(self) -> None:
        os.killpg(self.server.pid, signal.SIGTERM)
        self.server.wait(30)
        self._drop()  # type: ignore[operator]


def measure_speed(client: StorageClient, backoffice: Backoffice, source: Path, workdir: Path,
                  rounds: int) -> dict[str, list[Timing]]:
    """(wall, CPU) of each transfer, round after round; every round checks the bytes stored."""
    expected = md5_file(source)
    copy = workdir / "copy.bin"
    timings: dict[str, list[Timing]] = {MD5: [], PLAIN: [], CHECKED: [], PARALLEL: [],
                                        DIRECT: [], DOWNLOAD: []}
    direct_path = f"/bench/direct/{source.name}"
    for number in range(1, rounds + 1):
        print(f"round {number} of {rounds} ...", flush=True)
        timings[MD5].append(timed(lambda: md5_file(source)))
        timings[PLAIN].append(
            timed(lambda: client.upload("/bench/plain.bin", source, content_md5=False)))
        timings[CHECKED].append(timed(lambda: client.upload("/bench/checked.bin", source)))
        timings[PARALLEL].append(timed(lambda: resumable_upload(
            client, "/bench/parts.bin", source, parts_in_flight=PARTS_IN_FLIGHT)))
        timings[DIRECT].append(timed(lambda: backoffice.upload(source)))
        timings[DOWNLOAD].append(timed(lambda: client.download("/bench/parts.bin", copy)))
        if md5_file(copy) != expected or client.head("/bench/parts.bin").md5 != expected:
            raise SystemExit("the stored or downloaded bytes differ from the source")
        if client.head(direct_path).md5 != expected:
            raise SystemExit("the directly uploaded bytes differ from the source")
        copy.unlink()
    return timings


def median_of(timings: list[Timing]) -> Timing:
    """The round with the median wall time (its CPU time with it)."""
    return sorted(timings)[len(timings) // 2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-mib", type=int, default=256, help="speed file size (MiB)")
    parser.add_argument("--memory-gib", type=float, default=1.0,
                        help="memory file size (GiB), 0 to skip")
    parser.add_argument("--rounds", type=int, default=5,
                        help="speed rounds; medians are compared (default 5)")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    size = args.size_mib * MIB

    with tempfile.TemporaryDirectory(prefix="bench-storage-") as temp:
        workdir = Path(temp)
        sandbox = SandboxProcess(workdir / "sandbox")
        print("starting the sandbox ...", flush=True)
        sandbox.start()
        backoffice = None
        try:
            info = sandbox.info
            client = StorageClient(info["storage_url"], info["storage"]["bucket"],
                                   info["storage"]["operator"], info["storage"]["password"],
                                   timeout=120, retry=RetryPolicy(attempts=1))
            # Memory first, while the process is fresh: later runs would leave freed blocks in
            # the allocator that a second transfer could reuse unnoticed.
            memory = None
            if args.memory_gib > 0:
                memory_size = int(args.memory_gib * 1024 * MIB)
                print(f"memory run with a {args.memory_gib:g} GiB sparse file ...", flush=True)
                memory = measure_memory(client, workdir, memory_size)
            print("starting the back-office ...", flush=True)
            backoffice = Backoffice(workdir, info)
            source = workdir / "source.bin"
            print(f"generating {args.size_mib} MiB ...", flush=True)
            generate(source, size)
            md5_file(source)  # warm the page cache so every run reads from memory alike
            backoffice.session.bytes = 0  # signing in is not part of an upload
            rounds = measure_speed(client, backoffice, source, workdir, args.rounds)
            web_bytes = backoffice.session.bytes
        finally:
            if backoffice is not None:
                backoffice.stop()
            sandbox.stop()

    print()
    print(f"file: {args.size_mib} MiB, sandbox and back-office on 127.0.0.1, rounds in one "
          f"run: {args.rounds}, parts in flight: {PARTS_IN_FLIGHT}")
    print(f"{'':<20}{'throughput':>14}{'wall':>9}{'client CPU':>12}   walls of the rounds")
    medians = {label: median_of(timings) for label, timings in rounds.items()}
    for label, (wall, cpu) in medians.items():
        walls = " ".join(f"{timing[0]:.2f}" for timing in rounds[label])
        print(f"{label:<20}{rate(size, wall):9.1f} MiB/s{wall:8.2f} s{cpu:10.2f} s   {walls}")
    put_s = medians[PLAIN][0]
    ratio_parallel = put_s / medians[PARALLEL][0]
    ratio_direct = put_s / medians[DIRECT][0]
    web_share = web_bytes / (size * args.rounds)
    print(f"command line / plain PUT throughput: {ratio_parallel:.2f} "
          f"(target >= {TARGET_RATIO}; medians)")
    print(f"direct / plain PUT throughput:       {ratio_direct:.2f} (target >= {TARGET_RATIO})")
    print(f"web-node bytes per uploaded byte:    {web_share:.5f} ({web_bytes:,} bytes for "
          f"{args.rounds} x {size:,}; target < {TARGET_WEB_BYTES})")
    print(f"checked PUT / plain PUT throughput:  {put_s / medians[CHECKED][0]:.2f} "
          f"(for reference: the cost of hashing every byte here)")
    print(f"direct / checked PUT throughput:     {medians[CHECKED][0] / medians[DIRECT][0]:.2f} "
          f"(for reference)")
    print(f"download / plain PUT throughput:     {put_s / medians[DOWNLOAD][0]:.2f}")
    failed = (ratio_parallel < TARGET_RATIO or ratio_direct < TARGET_RATIO
              or web_share >= TARGET_WEB_BYTES)
    if memory is not None:
        heap_mb, rss_mb = memory
        print(f"client memory for a {args.memory_gib:g} GiB upload + download: "
              f"Python heap peak {heap_mb:.1f} MB, RSS rise {rss_mb:.1f} MB "
              f"(target < {TARGET_MEMORY_MB:.0f} MB)")
        failed = failed or max(heap_mb, rss_mb) >= TARGET_MEMORY_MB
    print("targets met" if not failed else "TARGET MISSED")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
