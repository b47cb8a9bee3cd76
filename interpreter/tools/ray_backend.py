"""Games on a Ray cluster (`pip install 'meeple[ray]'`): `--backend ray [--address HOST:PORT]`.

Ray is imported only when a run starts, so `import meeple` never imports it. The run's Work (the loaded
rulesets, pickled: worker nodes need no ruleset files, only the same meeple) goes into the object store
once, and each worker process unpickles it once and keeps it for the run's later batches. Each batch of
games is one Ray task: a worker that dies has its task played again elsewhere (Ray's task retries), which
gives the same results because a game depends only on its job. docs/cluster.md has the set-up.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from meeple.errors import Problem, UsageError
from meeple.tools.backends import Backend, Collector, CtrlC, Progress, Work, batch_size, batches, run_batch

RETRIES = 3  # times a batch is played again after its worker died
POLL = 0.25  # seconds between looks for Ctrl-C while waiting for the cluster
STOP_WAIT = 10.0  # seconds for cancelled batches to stop before their workers are killed
CONNECT_TIMEOUT = 5.0  # seconds to wait for the head to answer

_CACHE: dict[str, Work] = {}  # in a worker process: the current run's Work, by run id


def _ray_batch(run_id: str, holder: list[Any], jobs: list[Any]) -> list[Any]:
    """One batch, in a Ray worker. The Work's reference travels inside a list so that Ray does not fetch
    and unpickle it for every task, only when this process has not seen the run yet."""
    work = _CACHE.get(run_id)
    if work is None:
        import ray

        work = ray.get(holder[0])
        _CACHE.clear()  # one run at a time per worker: drop the previous run's rulesets
        _CACHE[run_id] = work
    return run_batch(work, jobs)


def _stop(refs: list[Any]) -> None:
    """Cancel batches that still run or wait, and wait for them to stop (while the run's Work is still
    referenced, so that nothing they read is gone). A running batch is interrupted where it is (Ray raises
    KeyboardInterrupt in its worker), which leaves the worker alive: killing workers at once made Ray,
    now and then, take a killed batch for a crash, play it again and keep the CPUs for minutes. A batch
    still running after STOP_WAIT seconds is killed after all."""
    import ray

    for ref in refs:
        ray.cancel(ref, force=False)
    _, running = ray.wait(refs, num_returns=len(refs), timeout=STOP_WAIT)
    for ref in running:
        ray.cancel(ref, force=True)


def cluster_error(message: str, hint: str | None = None) -> UsageError:
    return UsageError(Problem("U041", message, hint=hint))


def _check_reachable(address: str) -> None:
    """Ray retries an unreachable head for minutes, printing warnings: try it once ourselves first."""
    import socket

    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not (port.isascii() and port.isdigit()):  # ("²" is a digit to `isdigit`, not to `int`)
        return  # "auto" and other forms Ray resolves itself
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT_TIMEOUT).close()
    except OSError as e:
        raise cluster_error(f"cannot reach the Ray cluster at {address}: {e.strerror or e}",
                            "start its head with `ray start --head` and give the address it prints "
                            "(see docs/cluster.md)") from None


class RayBackend(Backend):
    """Batches of games as Ray tasks. `address` None starts a Ray instance on this machine for the run
    (stopped at the end); with an address, joins that cluster. When Ray is already initialised in this
    process (a program or a test that called ray.init), uses it and leaves it running.

    `workers` caps how many batches run at once (0 = one per CPU of the cluster)."""

    name = "ray"

    def __init__(self, address: str | None = None, workers: int = 0, batch: int | None = None,
                 retries: int = RETRIES) -> None:
        if workers < 0:
            raise UsageError(Problem("U022", f"the number of workers must be 0 (one per CPU) or more, not {workers}"))
        self.address = address
        self.workers = workers
        self.batch = batch
        self.retries = retries
        self._owned = False
        self._quiet: contextlib.AbstractContextManager | None = None
        self.cpus = 0

    def start(self) -> None:
        try:
            import ray
        except ImportError:
            raise cluster_error("--backend ray needs Ray, which is not installed",
                                "install it with: pip install 'meeple[ray]'") from None
        if not ray.is_initialized():
            if self.address is not None:
                _check_reachable(self.address)
            # Ray prints its news (such as a worker that died) on stdout from a thread of its own: send it
            # to stderr while our Ray runs, so that stdout holds only the results (JSON for tools).
            self._quiet = contextlib.redirect_stdout(sys.stderr)
            self._quiet.__enter__()
            try:
                # Ctrl-C while Ray starts waits for it to finish starting, then stops it: interrupted
                # half-way, Ray leaves processes behind.
                with CtrlC() as ctrl_c:
                    # "local": a new instance for this run, even where `ray start` left one running.
                    ray.init(address=self.address or "local", include_dashboard=False,
                             logging_level=logging.ERROR, log_to_driver=False,
                             num_cpus=(self.workers or None) if self.address is None else None)
            except (ConnectionError, TimeoutError, ValueError, RuntimeError) as e:
                self._quiet.__exit__(None, None, None)
                raise cluster_error(f"cannot join the Ray cluster at {self.address}: {e}",
                                    "see docs/cluster.md") from None
            self._owned = True
            if ctrl_c.pressed:
                self.close()
                raise KeyboardInterrupt
        self.cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))

    def close(self) -> None:
        if self._owned:
            import ray

            ray.shutdown()
            self._owned = False
            if self._quiet is not None:
                self._quiet.__exit__(None, None, None)
                self._quiet = None

    def slots(self, jobs: int) -> int:
        return max(1, min(self.workers or self.cpus or 1, jobs))

    def run(self, work: Work, jobs: Sequence[Any], progress: Progress | None = None,
            take: Callable[[Any], None] | None = None) -> list[Any]:
        with contextlib.redirect_stdout(sys.stderr):  # Ray's news, as in start()
            return self._run(work, jobs, progress, take)

    def _run(self, work: Work, jobs: Sequence[Any], progress: Progress | None,
             take: Callable[[Any], None] | None) -> list[Any]:
        import ray

        if not self.cpus:  # used without `with`: connect now (a Ray it starts stops when this process ends)
            self.start()
        slots = self.slots(len(jobs))
        parts = batches(len(jobs), self.batch or batch_size(len(jobs), slots, work.batch_cap or 64))
        got = Collector(parts, progress, take)
        run_id = uuid.uuid4().hex
        pending: dict[Any, int] = {}
        queued = iter(range(len(parts)))
        try:
            with CtrlC() as ctrl_c:
                task = ray.remote(_ray_batch).options(num_cpus=1, max_retries=self.retries, retry_exceptions=False)
                holder = [ray.put(work)]
                while not got.complete:
                    # Two batches per worker in flight: one running, one ready to start, and the rest not
                    # yet handed to the cluster (so Ctrl-C has little to cancel).
                    while len(pending) < 2 * slots and (k := next(queued, None)) is not None:
                        pending[task.remote(run_id, holder, [jobs[i] for i in parts[k]])] = k
                    ready, _ = ray.wait(list(pending), num_returns=1, timeout=POLL)
                    ctrl_c.check()
                    self._collect(got, parts, pending, ready)
        except KeyboardInterrupt:
            raise got.interrupted() from None
        finally:
            if pending:  # Ctrl-C or an error: stop what still runs, drop what waits
                _stop(list(pending))
        return [] if take is not None else got.results()

    def _collect(self, got: Collector, parts: list[range], pending: dict[Any, int], ready: list[Any]) -> None:
        import ray
        from ray import exceptions as rx

        for ref in ready:
            k = pending.pop(ref)
            try:
                got.add(k, ray.get(ref))
            except (rx.WorkerCrashedError, rx.NodeDiedError, rx.ObjectLostError, rx.OwnerDiedError) as e:
                raise cluster_error(
                    f"the cluster lost the games {parts[k].start}-{parts[k].stop - 1} "
                    f"{self.retries + 1} times ({type(e).__name__})",
                    "check the workers' logs (ray logs) and their memory") from None
            except rx.RayTaskError as e:
                raise e.as_instanceof_cause() from None  # a bug, not a user error: its traceback


# ------------------------------------------------------------------ measuring the overhead
def _nothing(context: Any, job: int) -> int:
    return job


def overhead(backend: Backend, jobs: int = 2000, batch: int | None = None) -> float:
    """Seconds of scheduling, shipping and collecting per job, measured with jobs that do nothing."""
    import time

    backend.batch = batch
    start = time.perf_counter()
    backend.run(Work(_nothing, None), range(jobs))
    return (time.perf_counter() - start) / jobs


def main(argv: list[str] | None = None) -> None:
    """`python -m meeple.tools.ray_backend [ADDRESS]`: the cost per game of each backend, beyond the game."""
    import sys

    from meeple.tools.backends import LocalBackend

    args = sys.argv[1:] if argv is None else argv
    lines = []
    with RayBackend(args[0] if args else None) as ray_backend:
        rows = [("ray, one game per task", ray_backend, 1), ("ray, batched (default)", ray_backend, None),
                ("local processes, batched", LocalBackend(0), None)]
        overhead(ray_backend, 200)  # warm up: start the worker processes
        for label, backend, batch in rows:
            lines.append(f"{label:28} {1000 * overhead(backend, batch=batch):8.3f} ms per game "
                         f"({backend.slots(2000)} at once)")
    print("\n".join(lines))  # after Ray stopped: while it runs, this process's stdout goes to stderr


if __name__ == "__main__":
    main()
