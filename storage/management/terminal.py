"""A progress bar for the storage commands: redrawn in place on a terminal, a line every 10 %
when the output is a file or a pipe (so logs stay readable)."""

from __future__ import annotations

import time
from typing import TextIO

from django.core.management.base import OutputWrapper

from storage.services import size_text


class ProgressBar:
    WIDTH = 30
    REDRAW_S = 0.1

    def __init__(self, stream: TextIO | OutputWrapper, total: int, label: str) -> None:
        self.stream = stream
        self.total = max(total, 0)
        self.label = label
        self.started = time.monotonic()
        self._last_draw = 0.0
        self._last_step = -1
        isatty = getattr(stream, "isatty", None)
        self.interactive = bool(isatty and isatty())

    def update(self, done: int) -> None:
        fraction = 1.0 if self.total == 0 else min(done / self.total, 1.0)
        if self.interactive:
            now = time.monotonic()
            if now - self._last_draw >= self.REDRAW_S or fraction >= 1.0:
                self._last_draw = now
                self.stream.write("\r" + self._line(done, fraction))
                self.stream.flush()
            return
        step = int(fraction * 10)
        if step > self._last_step:
            self._last_step = step
            self.stream.write(self._line(done, fraction) + "\n")

    def finish(self, note: str) -> None:
        if self.interactive:
            self.stream.write("\r" + self._line(self.total, 1.0) + f"  {note}\n")
        else:
            self.stream.write(f"{self.label}: {note}\n")
        self.stream.flush()

    def _line(self, done: int, fraction: float) -> str:
        filled = int(fraction * self.WIDTH)
        bar = "#" * filled + "." * (self.WIDTH - filled)
        elapsed = max(time.monotonic() - self.started, 1e-6)
        rate = size_text(done / elapsed)
        return (
            f"{self.label} [{bar}] {fraction * 100:5.1f}% "
            f"{size_text(done)} / {size_text(self.total)} {rate}/s"
        )
