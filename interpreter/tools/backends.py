"""Where a run's games are played: here, in local worker processes, or on a Ray cluster (ray_backend.py).

A run is one `Work` (what every game needs, such as the loaded rulesets and the bots; sent once to each
worker) and a list of jobs (one small value per game). A backend cuts the jobs into batches, so that
scheduling costs little per game, plays the batches wherever it can, and returns the results in job
order. A game's result depends only on its job, so a run's results do not depend on the backend, the
number of workers or the batch size.

Any command that plays many independent games uses it the same way (simulate, compare, a ladder):

    work = Work(play_one_game, (rulesets, agents))       # play_one_game(context, job) -> result
    with backend:                                         # LocalBackend(workers) or RayBackend(address)
        results = backend.run(work, jobs, progress)       # results[k] is jobs[k]'s

`play` must be a module-level function and the context picklable: workers import the one and unpickle
the other. With `take=` each result is handed over in job order and none is kept, for runs too long to
hold in memory; only a few batches per worker are in flight at any time. A MeepleError raised by a game reaches the caller as the same error, with its problems
(the first one in job order, as if the games were played one after another); Ctrl-C raises
`Interrupted`, which holds the results that did finish.
"""

from __future__ import annotations

import multiprocessing as mp
import signal
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from meeple import errors as E
from meeple.errors import Problem, UsageError

if TYPE_CHECKING:
    from typing_extensions import Self

Progress = Callable[[int], None]  # called with the number of games that just finished
POLL = 0.25  # seconds between looks for Ctrl-C while waiting for workers


@dataclass(frozen=True)
class Work:
    """What every job of a run shares (`context`), and the module-level function that plays one job."""

    play: Callable[[Any, Any], Any]
    context: Any
    # At most this many jobs in one batch. Long jobs (games of searching bots) want 1: progress, and a
    # ladder's journal, then move game by game, and Ctrl-C throws away less of what was played.
    batch_cap: int | None = field(default=None, kw_only=True)  # by name: subclasses add fields of their own

    def run(self, job: Any) -> Any:
        return self.play(self.context, job)


@dataclass(frozen=True)
class Failure:
    """A MeepleError raised in a worker, as parts: exceptions lose their problems when pickled."""

    error: str  # the class name in meeple.errors
    problems: list[Problem]

    def exception(self) -> E.MeepleError:
        cls = getattr(E, self.error, E.MeepleError)
        return cls(self.problems)


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run. `finished` maps job positions to the results that were done; a caller may
    put a summary of them in `partial` before passing it on. `failed`: for a caller that keeps a group
    of jobs' errors as results (compare: a variant's), each group's error found by then."""

    def __init__(self, finished: dict[Any, Any], total: int, partial: Any = None, done: int | None = None,
                 failed: dict[Any, E.MeepleError] | None = None) -> None:
        self.done = len(finished) if done is None else done  # how many finished (with take=, not all kept)
        super().__init__(f"interrupted: {self.done} of {total} finished")
        self.finished = finished
        self.total = total
        self.partial = partial
        self.failed: dict[Any, E.MeepleError] = failed or {}


def run_batch(work: Work, jobs: Sequence[Any]) -> list[Any]:
    """Play jobs in order; a MeepleError ends the batch with a Failure in place of that job's result."""
    out: list[Any] = []
    for job in jobs:
        try:
            out.append(work.run(job))
        except E.MeepleError as e:
            out.append(Failure(type(e).__name__, list(e.problems)))
            break
    return out


def batch_size(jobs: int, slots: int, cap: int) -> int:
    """About eight batches per worker, so that the work spreads evenly and progress moves, but never
    more than `cap` games in one batch (a lost worker's batch is played again)."""
    return max(1, min(cap, jobs // (max(1, slots) * 8)))


def batches(n: int, size: int) -> list[range]:
    return [range(i, min(n, i + size)) for i in range(0, n, size)]


class Collector:
    """Batch results as they arrive in any order; hands them back in job order, and raises the first
    failure in job order once every job before it has finished."""

    def __init__(self, parts: list[range], progress: Progress | None,
                 take: Callable[[Any], None] | None = None) -> None:
        self.parts = parts
        self.done: dict[int, list[Any]] = {}
        self.progress = progress
        self.take = take  # given: results are handed over in order and not kept, so memory stays flat
        self.next = 0  # parts before this one finished without a failure
        self.count = 0  # results that came back

    def add(self, part: int, results: list[Any]) -> None:
        self.done[part] = results
        self.count += sum(1 for r in results if not isinstance(r, Failure))
        if self.progress:
            self.progress(sum(1 for r in results if not isinstance(r, Failure)))
        while self.next in self.done:
            for r in self.done[self.next]:
                if isinstance(r, Failure):
                    raise r.exception()
            if self.take is not None:
                for r in self.done.pop(self.next):
                    self.take(r)
            self.next += 1

    @property
    def complete(self) -> bool:
        return self.next == len(self.parts)

    def results(self) -> list[Any]:
        return [r for k in range(len(self.parts)) for r in self.done[k]]

    def interrupted(self) -> Interrupted:
        finished = {i: r for k, rs in self.done.items() for i, r in zip(self.parts[k], rs)
                    if not isinstance(r, Failure)}
        return Interrupted(finished, self.parts[-1].stop if self.parts else 0, done=self.count)


class CtrlC:
    """While a backend waits for its workers, Ctrl-C only takes note, and the backend stops at its next
    look (`check`, every POLL seconds). A KeyboardInterrupt raised inside the waiting itself could leave
    the pool's locks held, and the process hanging; a second Ctrl-C still stops at once. Only the main
    thread receives signals: elsewhere this does nothing."""

    def __init__(self) -> None:
        self.pressed = False
        self._old: Any = None

    def __enter__(self) -> Self:
        if threading.current_thread() is threading.main_thread():
            self._old = signal.signal(signal.SIGINT, self._note)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)

    def _note(self, signum: int, frame: Any) -> None:
        if self.pressed:
            raise KeyboardInterrupt
        self.pressed = True

    def check(self) -> None:
        if self.pressed:
            raise KeyboardInterrupt


class Backend:
    """Runs batches of jobs somewhere. A context manager: entering starts (or connects to) the workers."""

    name = "?"
    batch: int | None = None  # games per batch; None: batch_size() picks

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Start or connect to the workers (before a progress bar starts, so setup does not count)."""

    def close(self) -> None:
        """Release what start() took."""

    def slots(self, jobs: int) -> int:
        """How many jobs run at once, for a run of `jobs` jobs."""
        raise NotImplementedError

    def run(self, work: Work, jobs: Sequence[Any], progress: Progress | None = None,
            take: Callable[[Any], None] | None = None) -> list[Any]:
        """Every job's result, in job order; or, with `take`, each result handed to it in job order and
        none kept (an empty list returned), for runs too long to hold."""
        raise NotImplementedError


# ------------------------------------------------------------------ this machine
_LOCAL: dict[str, Work] = {}


def pool_context() -> Any:
    """How the workers start: Python's default, but never a fork of a process that runs other threads (a
    notebook's kernel, a server): it copies whatever those threads hold mid-way, a lock included, and can
    deadlock the worker (Python 3.12 warns; 3.14 no longer forks by default). Forkserver then."""
    methods = mp.get_all_start_methods()  # the default first; once a pool has used it, the one it used
    if threading.active_count() > 1 and (mp.get_start_method(allow_none=True) or methods[0]) == "fork":
        return mp.get_context("forkserver" if "forkserver" in methods else "spawn")
    return None


def _local_init(work: Work) -> None:
    # Ctrl-C is the parent's to handle: workers that also caught it would each print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _LOCAL["work"] = work


def _local_batch(jobs: list[Any]) -> list[Any]:
    return run_batch(_LOCAL["work"], jobs)


class LocalBackend(Backend):
    """Games in this process (workers=1) or in a pool of processes on this machine (0 = one per core)."""

    name = "local"

    def __init__(self, workers: int = 0, batch: int | None = None) -> None:
        import os

        if workers < 0:
            raise UsageError(Problem("U022", f"the number of workers must be 0 (one per core) or more, not {workers}"))
        self.workers = workers or os.cpu_count() or 1
        self.batch = batch

    def slots(self, jobs: int) -> int:
        return max(1, min(self.workers, jobs))

    def run(self, work: Work, jobs: Sequence[Any], progress: Progress | None = None,
            take: Callable[[Any], None] | None = None) -> list[Any]:
        slots = self.slots(len(jobs))
        if slots == 1:
            out: list[Any] = []
            taken = 0
            try:
                for job in jobs:
                    r = work.run(job)
                    if take is not None:
                        take(r)
                        taken += 1
                    else:
                        out.append(r)
                    if progress:
                        progress(1)
            except KeyboardInterrupt:
                raise Interrupted(dict(enumerate(out)), len(jobs), done=len(out) + taken) from None
            return out
        parts = batches(len(jobs), self.batch or batch_size(len(jobs), slots, work.batch_cap or 25))
        got = Collector(parts, progress, take)
        queued = iter(range(len(parts)))
        # The work goes to each process once, pickled: the workers need no files (rulesets are data).
        pool = None
        try:
            with CtrlC() as ctrl_c:
                pool = ProcessPoolExecutor(slots, pool_context(), _local_init, (work,))
                pending: dict[Future, int] = {}
                while not got.complete:
                    # A few batches per process in flight; the rest not yet listed, so memory stays flat.
                    while len(pending) < 4 * slots and (k := next(queued, None)) is not None:
                        pending[pool.submit(_local_batch, [jobs[i] for i in parts[k]])] = k
                    finished, _ = wait(list(pending), timeout=POLL, return_when=FIRST_COMPLETED)
                    ctrl_c.check()
                    for f in finished:
                        got.add(pending.pop(f), f.result())
        except KeyboardInterrupt:
            _stop(pool)
            raise got.interrupted() from None
        except BaseException:
            _stop(pool)
            raise
        _stop(pool, now=False)
        return [] if take is not None else got.results()


def _stop(pool: ProcessPoolExecutor | None, now: bool = True) -> None:
    """After Ctrl-C or an error (`now`), end the workers at once rather than after their batches (a batch
    of slow games can take minutes), and drop the batches that have not started."""
    if pool is None:
        return
    if now:
        terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
        if terminate is not None:
            terminate()
        else:
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)
