"""The pacing of a rate-limited answer, on a simulated clock: the free part at once, then no
more than the rate allows, whatever the chunks the body comes in."""

from __future__ import annotations

from sandbox.delivery.pacing import paced


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0
        self.sent_at: list[tuple[float, int]] = []

    def time(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def run(chunks: list[bytes], after: int, rate: int) -> tuple[bytes, FakeClock, list[float]]:
    clock = FakeClock()
    body, times = b"", []
    for piece in paced(chunks, after, rate, clock=clock.time, sleep=clock.sleep):
        body += piece
        times.append(clock.now)
    return body, clock, times


def test_the_free_part_is_sent_at_once_and_the_rest_at_the_rate() -> None:
    data = bytes(range(256)) * 800  # 200 KB
    body, clock, _times = run([data[:70_000], data[70_000:]], after=20 * 1024, rate=100 * 1024)
    assert body == data
    assert abs(clock.now - (len(data) - 20 * 1024) / (100 * 1024)) < 0.11


def test_nothing_waits_within_the_free_part() -> None:
    body, clock, _times = run([b"x" * 5000], after=10_000, rate=10)
    assert (body, clock.now) == (b"x" * 5000, 0.0)


def test_a_small_rate_sends_small_slices() -> None:
    _body, clock, times = run([b"x" * 100], after=0, rate=20)
    assert len(times) == 50  # slices of a tenth of a second's worth: 2 bytes
    assert clock.now == 5.0
