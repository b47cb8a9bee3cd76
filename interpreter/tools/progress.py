"""Progress of a long run: games finished out of the total, the rate, and an ETA.

The rate is measured over the games that finished in the last `window` seconds (all of them early in a
run) up to now, so the ETA follows a cluster whose workers join or leave, but one slow game does not
swing it.
Before any game has finished there is no rate and the ETA says so, rather than guessing. Backends report
games as their batches finish anywhere on the cluster, so the count is the cluster's, not this process's.
"""

from __future__ import annotations

import sys
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from typing_extensions import Self


def clock_text(seconds: float) -> str:
    """1:05:09, 4:07, 0:09."""
    s = round(seconds)
    h, m = divmod(s // 60, 60)
    return f"{h}:{m:02d}:{s % 60:02d}" if h else f"{m}:{s % 60:02d}"


class Progress:
    """Counts finished games; `rate()` in games per second and `eta()` in seconds, None while unknown."""

    def __init__(self, total: int, window: float = 30.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.done = 0
        self.window = window
        self.clock = clock
        self.start = clock()
        self.samples: deque[tuple[float, int]] = deque([(self.start, 0)])  # (time, games done by then)

    def update(self, n: int) -> None:
        self.done += n
        now = self.clock()
        self.samples.append((now, self.done))
        # Keep one sample older than the window, so the rate always spans at least the window.
        while len(self.samples) > 2 and self.samples[1][0] <= now - self.window:
            self.samples.popleft()

    def rate(self) -> float | None:
        """Games per second over the window, up to now: while nothing finishes, the rate falls and the
        ETA grows, instead of holding on to the last good news."""
        t0, d0 = self.samples[0]
        now = self.clock()
        if self.done == d0 or now <= t0:
            return None
        return (self.done - d0) / (now - t0)

    def eta(self) -> float | None:
        if self.done >= self.total:
            return 0.0
        r = self.rate()
        return None if r is None else (self.total - self.done) / r

    def line(self, label: str = "Playing", width: int = 24) -> str:
        filled = width * self.done // max(1, self.total)
        r, eta = self.rate(), self.eta()
        speed = f"{r:.1f} games/s" if r is not None else "-- games/s"
        left = clock_text(eta) if eta is not None else "--:--"
        return (f"{label} [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} games  "
                f"{speed}  ETA {left}  elapsed {clock_text(self.clock() - self.start)}")


class ProgressLine:
    """A Progress redrawn in place on a terminal stream (at most every `every` seconds), as a context
    manager: leaving it ends the line. Its `update` is the `progress` callback that runs take."""

    def __init__(self, total: int, label: str = "Playing", stream: TextIO | None = None, every: float = 0.5,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.progress = Progress(total, clock=clock)
        self.label = label
        self.stream = stream or sys.stderr
        self.every = every
        self.clock = clock
        self.shown = float("-inf")

    def __enter__(self) -> Self:
        self.draw()
        return self

    def __exit__(self, *exc: object) -> None:
        self.draw()
        self.stream.write("\n")
        self.stream.flush()

    def update(self, n: int) -> None:
        self.progress.update(n)
        if self.clock() - self.shown >= self.every or self.progress.done >= self.progress.total:
            self.draw()

    def draw(self) -> None:
        self.shown = self.clock()
        self.stream.write("\r" + self.progress.line(self.label) + "\033[K")
        self.stream.flush()
