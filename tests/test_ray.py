"""Simulate, compare and ladder on a Ray cluster: the same results as on this machine, to the byte, for any number
of Ray workers; a killed worker's games are played again; a ruleset's error arrives as the same located
error; Ctrl-C keeps what finished and leaves the cluster idle.

The cluster is a local one this module starts once (one node, two CPUs, no dashboard) and stops at the
end: the machine is shared. Skipped when Ray is not installed (`pip install '.[ray]'`; CI installs it).
"""

import json
import os
import sys
import time
from dataclasses import dataclass

import pytest
from click.testing import CliRunner
from meeple.cli.main import meeple
from meeple.errors import RuntimeRuleError, UsageError
from meeple.runtime.rules import load_ruleset
from meeple.tools.backends import Interrupted, Work
from meeple.tools.compare import compare
from meeple.tools.simulate import game_seed, play_game, simulate
from support import BROKEN, statistics, without_run_fields

ray = pytest.importorskip("ray")
from meeple.tools.ray_backend import RayBackend

# Test-only classes below are sent to the Ray workers by value: the workers cannot import this file.
ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])


@pytest.fixture(scope="module", autouse=True)
def cluster():
    # A new one-node instance even if `ray start` left one running here. (Ray binds it to this machine's
    # address: it turns a loopback `_node_ip_address` into that address anyway.)
    ray.init("local", num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def broken(tmp_path_factory):
    path = tmp_path_factory.mktemp("ray") / "broken.yaml"
    path.write_text(BROKEN)
    return path


@pytest.fixture(scope="module")
def local():
    return simulate("speicherstadt", 2, 24, seed=7, workers=1)


@pytest.mark.parametrize("workers, batch", [(0, None), (1, 1), (2, 5)])
def test_simulate_on_ray_is_byte_identical_to_one_local_process(local, workers, batch):
    seen = []
    on_ray = simulate("speicherstadt", 2, 24, seed=7, progress=seen.append,
                      backend=RayBackend(workers=workers, batch=batch))
    assert statistics(on_ray) == statistics(local)
    assert on_ray.backend == "ray" and on_ray.workers == (workers or 2)
    assert sum(seen) == 24  # every game counted once, as it finished on the cluster


def test_compare_json_is_byte_identical_on_ray_and_locally():
    args = ["compare", "speicherstadt", "four_workers", "-p", "2", "-n", "8", "--seed", "3", "--format", "json"]
    runner = CliRunner()
    local = runner.invoke(meeple, args + ["--workers", "1"])
    on_ray = runner.invoke(meeple, args + ["--backend", "ray"])
    assert local.exit_code == on_ray.exit_code == 0, on_ray.output
    assert on_ray.stdout_bytes == local.stdout_bytes


TTT = os.path.join(os.path.dirname(__file__), "..", "rulesets", "reference", "tic_tac_toe.yaml")


@pytest.mark.parametrize("fmt, workers", [("json", []), ("text", ["--workers", "1"])])
def test_the_ladder_on_ray_is_byte_identical_to_one_local_process(fmt, workers):
    args = ["ladder", TTT, "--agents", "mcts:10,random", "-n", "12", "--seed", "4", "--format", fmt]
    runner = CliRunner()
    local = runner.invoke(meeple, args + ["--workers", "1"])
    on_ray = runner.invoke(meeple, args + ["--backend", "ray"] + workers)
    assert local.exit_code == on_ray.exit_code == 0, on_ray.output
    assert without_run_fields(on_ray.stdout_bytes) == without_run_fields(local.stdout_bytes)
    assert (b"ray)" if fmt == "text" else b'"backend": "ray"') in on_ray.stdout_bytes


def test_a_ruleset_error_in_a_ladder_on_ray_is_the_located_error_of_a_local_run(broken):
    args = ["ladder", str(broken), "-p", "3", "--agents", "random", "-n", "6"]
    runner = CliRunner()
    local, on_ray = runner.invoke(meeple, args + ["-j", "1"]), runner.invoke(meeple, args + ["--backend", "ray"])
    assert on_ray.exit_code == local.exit_code == 1
    assert on_ray.output == local.output and "broken.yaml:" in on_ray.output


@dataclass(frozen=True)
class DieOnce(Work):
    """Kills the worker process playing job `at`, the first time only (a marker file remembers it)."""

    marker: str = ""
    at: int = 0

    def run(self, job):
        if job == self.at and not os.path.exists(self.marker):
            with open(self.marker, "w") as fh:
                fh.write(str(os.getpid()))
            os._exit(1)  # no cleanup, no exception: as if the node lost the process
        return super().run(job)


class DyingWorkers(RayBackend):
    def __init__(self, marker, at, **kw):
        super().__init__(**kw)
        self.marker, self.at = marker, at

    def run(self, work, jobs, progress=None, take=None):
        return super().run(DieOnce(work.play, work.context, self.marker, self.at), jobs, progress, take)


def test_a_killed_worker_has_its_games_played_again_with_the_same_results(tmp_path, capsys):
    marker = tmp_path / "killed"
    on_ray = simulate("speicherstadt", 2, 20, seed=2, backend=DyingWorkers(str(marker), 9, batch=2))
    assert capsys.readouterr().out == ""  # Ray's news of the death went to stderr: stdout is for results
    assert marker.exists() and int(marker.read_text()) != os.getpid()  # a worker did die, mid-run
    assert statistics(on_ray) == statistics(simulate("speicherstadt", 2, 20, seed=2, workers=1))


@dataclass(frozen=True)
class DieAlways(Work):
    def run(self, job):
        os._exit(1)


def test_games_lost_on_every_try_stop_the_run_with_a_usage_error():
    backend = RayBackend(retries=1)
    with pytest.raises(UsageError, match=r"lost the games \d+-\d+ 2 times"):
        backend.run(DieAlways(square, None), list(range(4)))


def square(context, job):
    return job * job


def test_a_ruleset_error_on_a_worker_is_the_located_error_of_a_local_run(broken):
    with pytest.raises(RuntimeRuleError) as local:
        simulate(broken, 3, 6, workers=1)
    with pytest.raises(RuntimeRuleError) as on_ray:
        simulate(broken, 3, 6, backend=RayBackend(batch=2))
    assert on_ray.value.problems == local.value.problems
    runner = CliRunner()
    cli_local = runner.invoke(meeple, ["simulate", str(broken), "-p", "3", "-n", "6"])
    cli_ray = runner.invoke(meeple, ["simulate", str(broken), "-p", "3", "-n", "6", "--backend", "ray"])
    assert cli_ray.exit_code == cli_local.exit_code == 1
    assert cli_ray.output == cli_local.output and "Traceback" not in cli_ray.output
    assert "broken.yaml:" in cli_ray.output


def test_ray_progress_counts_the_cluster_games_for_compare():
    seen = []
    res = compare(["speicherstadt", "four_workers"], 2, 5, seed=1, progress=seen.append, backend=RayBackend())
    assert sum(seen) == 10 and res["games"] == 5
    assert json.dumps(res) == json.dumps(compare(["speicherstadt", "four_workers"], 2, 5, seed=1, workers=1))


def test_ctrl_c_cancels_the_cluster_work_and_keeps_what_finished():
    def interrupt(n):
        raise KeyboardInterrupt  # as if Ctrl-C arrived when the first batch came back

    with pytest.raises(Interrupted) as e:
        simulate("speicherstadt", 2, 200, seed=5, progress=interrupt,
                 backend=RayBackend(batch=2))
    stop = e.value
    assert stop.total == 200
    if stop.partial is not None:  # games 0..k-1, when game 0's batch was among the first back
        rs = load_ruleset("speicherstadt")
        assert [r.index for r in stop.partial.records] == list(range(stop.partial.games)) != list(range(200))
        for r in stop.partial.records:  # the finished games are the ones a local run plays
            assert r.to_json() == play_game(rs, 2, game_seed(5, r.index), "random", r.index).to_json()
    deadline = time.monotonic() + 90  # a bound on waiting, not a speed check: the CPUs must come back
    while ray.available_resources().get("CPU", 0) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert ray.available_resources().get("CPU", 0) == 2, "cancelled games are still running"
