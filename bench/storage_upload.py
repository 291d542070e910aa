"""Benchmark of the storage client's streamed transfers against the sandbox.

Starts a sandbox (tests/sandbox_process.py), generates a file (256 MiB by default) and
measures in one run, with the same client and the same sandbox:

- md5: hashing the file's bytes with MD5 (read from disk in 64 KiB chunks), the floor of any
  transfer that checks its data;
- plain PUT: one whole-file PUT of the same bytes (no Content-MD5, the cheapest upload);
- resumable: `resumable_upload` (1 MiB parts in order, per-part Content-MD5, whole-file MD5
  at completion), the back-office's path for large files;
- download: `StorageClient.download` to a local file (MD5 computed while streaming).

The four run in turn, round after round (5 by default), and the medians are compared: on a
small shared machine one transfer of a few seconds can vary by a third from one try to the
next (mostly kernel time for fresh page-cache memory), and a median of interleaved rounds
compares the two uploads under the same conditions. Every round's wall time is printed.

Before that, while the process is fresh, the client's memory: a generated 1 GiB file (sparse,
so it costs no disk) is uploaded in parts and downloaded again while tracemalloc records the
peak of Python allocations and a sampler thread records the peak resident set size above the
starting point.

Targets: resumable upload at least 0.7 of the plain PUT's throughput; client memory under
100 MB for a 1 GiB file. Run with ``.venv/bin/python bench/storage_upload.py``
(``--size-mib N``, ``--rounds N``, ``--memory-gib N`` with 0 to skip the memory part).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from storage.client import CHUNK_SIZE, RetryPolicy, StorageClient  # noqa: E402
from storage.resumable import resumable_upload  # noqa: E402
from tests.sandbox_process import SandboxProcess  # noqa: E402

MIB = 1024 * 1024
TARGET_RATIO = 0.7
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


MD5, PLAIN, RESUMABLE, DOWNLOAD = "md5 of the bytes", "plain PUT", "resumable upload", "download"
Timing = tuple[float, float]


def measure_speed(client: StorageClient, source: Path, workdir: Path,
                  rounds: int) -> dict[str, list[Timing]]:
    """(wall, CPU) of each transfer, round after round; every round checks the bytes stored."""
    expected = md5_file(source)
    copy = workdir / "copy.bin"
    timings: dict[str, list[Timing]] = {MD5: [], PLAIN: [], RESUMABLE: [], DOWNLOAD: []}
    for number in range(1, rounds + 1):
        print(f"round {number} of {rounds} ...", flush=True)
        timings[MD5].append(timed(lambda: md5_file(source)))
        timings[PLAIN].append(
            timed(lambda: client.upload("/bench/plain.bin", source, content_md5=False)))
        timings[RESUMABLE].append(
            timed(lambda: resumable_upload(client, "/bench/parts.bin", source)))
        timings[DOWNLOAD].append(timed(lambda: client.download("/bench/parts.bin", copy)))
        if md5_file(copy) != expected or client.head("/bench/parts.bin").md5 != expected:
            raise SystemExit("the stored or downloaded bytes differ from the source")
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
            source = workdir / "source.bin"
            print(f"generating {args.size_mib} MiB ...", flush=True)
            generate(source, size)
            md5_file(source)  # warm the page cache so every run reads from memory alike
            rounds = measure_speed(client, source, workdir, args.rounds)
        finally:
            sandbox.stop()

    print()
    print(f"file: {args.size_mib} MiB, sandbox on 127.0.0.1, rounds in one run: {args.rounds}")
    print(f"{'':<20}{'throughput':>14}{'wall':>9}{'client CPU':>12}   walls of the rounds")
    medians = {label: median_of(timings) for label, timings in rounds.items()}
    for label, (wall, cpu) in medians.items():
        walls = " ".join(f"{timing[0]:.2f}" for timing in rounds[label])
        print(f"{label:<20}{rate(size, wall):9.1f} MiB/s{wall:8.2f} s{cpu:10.2f} s   {walls}")
    md5_s, put_s = medians[MD5][0], medians[PLAIN][0]
    (parts_s, parts_cpu), download_s = medians[RESUMABLE], medians[DOWNLOAD][0]
    ratio_put = put_s / parts_s
    print(f"resumable / plain PUT throughput: {ratio_put:.2f} (target >= {TARGET_RATIO}; "
          "medians)")
    print(f"resumable / MD5 throughput:       {md5_s / parts_s:.2f}")
    print(f"download / plain PUT throughput:  {put_s / download_s:.2f}")
    waiting = parts_s - parts_cpu
    print(f"resumable upload: {parts_cpu:.2f} s of client CPU, {waiting:.2f} s waiting for the "
          f"sandbox ({waiting / parts_s:.0%} of the time)")
    failed = ratio_put < TARGET_RATIO
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
