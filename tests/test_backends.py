"""Backends play a run's games anywhere and hand them back in order; the Ray cluster is tests/test_ray.py.

What must hold on every backend: results in job order whatever the batch size or the number of workers,
the first error in job order as the same located MeepleError, Ctrl-C keeping what finished, and progress
counting every game once. Rulesets travel to workers pickled, so a copy must play exactly like the original.
"""

import json
import pickle
import re
import subprocess
import sys
import threading
import time
import warnings

import pytest
from click.testing import CliRunner
from meeple.cli.main import meeple
from meeple.errors import RuntimeRuleError, UsageError
from meeple.runtime.rules import load_ruleset
from meeple.tools.backends import (
    Collector,
    Failure,
    Interrupted,
    LocalBackend,
    Work,
    batch_size,
    batches,
    pool_context,
)
from meeple.tools.compare import compare
from meeple.tools.progress import Progress, ProgressLine, clock_text
from meeple.tools.simulate import play_game, simulate
from support import BROKEN, statistics


def square(context, job):
    if job == context:
        raise RuntimeRuleError("no squares of this one")
    return job * job


@pytest.mark.parametrize("name", ["speicherstadt", "merchants", "camel_up_off_season", "demoludy"])
def test_a_pickled_ruleset_plays_exactly_like_the_original(name):
    rs = load_ruleset(name)
    play_game(rs, rs.min_players, 1)  # the original has built its closure cache: the copy must not need it
    copy = pickle.loads(pickle.dumps(rs))
    assert copy._compiled is None
    assert sorted(copy.node_ids[i] for i in copy.suspends) == sorted(rs.node_ids[i] for i in rs.suspends)
    for seed in range(2):
        a = play_game(rs, rs.min_players, seed, "random", coverage=True)
        b = play_game(copy, rs.min_players, seed, "random", coverage=True)
        assert a.to_json() == b.to_json() and a.coverage == b.coverage


@pytest.mark.parametrize("workers, batch", [(1, None), (2, 1), (2, 3), (2, None)])
def test_results_come_back_in_job_order_for_any_workers_and_batches(workers, batch):
    seen = []
    out = LocalBackend(workers, batch).run(Work(square, -1), list(range(13)), seen.append)
    assert out == [i * i for i in range(13)]
    assert sum(seen) == 13


@pytest.mark.parametrize("workers", [1, 2])
def test_the_first_error_in_job_order_is_raised_as_itself(workers):
    with pytest.raises(RuntimeRuleError, match="no squares of this one"):
        LocalBackend(workers, 2).run(Work(square, 5), list(range(9)))


def test_the_collector_waits_for_earlier_jobs_before_raising_a_later_failure():
    parts = batches(6, 2)
    got = Collector(parts, None)
    got.add(2, [16, Failure("RuntimeRuleError", [])])  # a later batch fails first...
    got.add(0, [0, 1])
    with pytest.raises(RuntimeRuleError):
        got.add(1, [4, 9])  # ...and is raised once every job before it is done
    got = Collector(parts, None)
    got.add(1, [Failure("UsageError", [])])
    got.add(2, [Failure("RuntimeRuleError", [])])
    with pytest.raises(UsageError):  # the earlier one in job order wins, whatever finished first
        got.add(0, [0, 1])


def test_interrupted_keeps_the_finished_results_by_job_position():
    got = Collector(batches(6, 2), None)
    got.add(2, [16, 25])
    got.add(0, [0, 1])
    stop = got.interrupted()
    assert stop.finished == {0: 0, 1: 1, 4: 16, 5: 25} and stop.total == 6
    assert isinstance(stop, KeyboardInterrupt)


def test_batches_are_small_enough_to_spread_and_cover_every_job():
    assert batch_size(1000, 2, 25) == 25 and batch_size(40, 2, 25) == 2 and batch_size(3, 8, 25) == 1
    parts = batches(10, 4)
    assert [list(p) for p in parts] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]


def test_ctrl_c_in_a_local_run_keeps_the_finished_games():
    def stop_after_three(n, seen=[]):  # noqa: B006 - a counter that lives for this one run
        seen.append(n)
        if sum(seen) >= 3:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as e:
        simulate("speicherstadt", 2, 10, seed=4, progress=stop_after_three)
    assert e.value.total == 10
    part = e.value.partial
    assert part.games == 3 and [r.index for r in part.records] == [0, 1, 2]
    whole = simulate("speicherstadt", 2, 3, seed=4)
    assert statistics(part) == statistics(whole)


def forever_after_two(context, job):
    if job >= 2:
        time.sleep(3600)  # a game that will not end soon: Ctrl-C must not wait for it
    return job


def test_ctrl_c_ends_local_worker_processes_instead_of_waiting_for_their_games():
    def interrupt(n):
        raise KeyboardInterrupt

    with pytest.raises(Interrupted) as e:
        LocalBackend(2, batch=1).run(Work(forever_after_two, None), list(range(6)), interrupt)
    assert set(e.value.finished) <= {0, 1} and e.value.finished


def test_simulate_on_a_backend_reports_where_it_ran():
    s = simulate("speicherstadt", 2, 6, seed=2, backend=LocalBackend(2, batch=1))
    assert s.backend == "local" and s.workers == 2
    assert statistics(s) == statistics(simulate("speicherstadt", 2, 6, seed=2, workers=1))


def test_workers_are_not_forked_from_a_process_that_runs_other_threads():
    """Bug: a run from a process with other threads (a notebook's kernel, a server) forked its workers:
    copies of the process taken in the middle of whatever those threads held, which can deadlock them
    (Python 3.12 and later warn of it). They now start from a forkserver, and play the same games."""
    ready = threading.Event()
    other = threading.Thread(target=ready.wait, daemon=True)
    other.start()
    try:
        assert pool_context() is not None and pool_context().get_start_method() != "fork"
        with warnings.catch_warnings():
            warnings.simplefilter("error", DeprecationWarning)  # a fork here warns on Python 3.12 and later
            threaded = simulate("merchants", 3, 6, seed=4, backend=LocalBackend(2, batch=1))
    finally:
        ready.set()
        other.join()
    assert statistics(threaded) == statistics(simulate("merchants", 3, 6, seed=4, workers=1))


def test_compare_is_byte_identical_for_any_local_workers():
    a = compare(["speicherstadt", "four_workers"], 2, 4, seed=9, workers=1)
    b = compare(["speicherstadt", "four_workers"], 2, 4, seed=9, backend=LocalBackend(2, batch=3))
    assert json.dumps(a) == json.dumps(b)


def test_the_eta_follows_recently_finished_games():
    now = [0.0]
    p = Progress(100, window=10, clock=lambda: now[0])
    assert p.rate() is None and p.eta() is None  # nothing finished: no guess
    assert "ETA --:--" in p.line()
    now[0] = 5.0
    p.update(10)
    assert p.rate() == 2.0 and p.eta() == 45.0
    for _ in range(4):  # the cluster grows: 10 games a second from now on
        now[0] += 1
        p.update(10)
    assert p.rate() == pytest.approx(50 / 9)  # the window still reaches back to the start
    for _ in range(20):
        now[0] += 1
        p.update(1) if p.done < 99 else None
    assert p.rate() == pytest.approx(1.0)  # only the last ten seconds count now
    now[0] += 10
    assert p.rate() == pytest.approx(0.5)  # nothing finished for a while: slower, not stuck at the last rate
    now[0] += 1
    p.update(100 - p.done)
    assert p.eta() == 0.0 and "100/100 games" in p.line()


def test_the_progress_line_redraws_in_place_and_ends_the_line():
    import io

    out, now = io.StringIO(), [0.0]
    with ProgressLine(4, stream=out, every=1.0, clock=lambda: now[0]) as line:
        line.update(1)  # too soon after the first drawing: not drawn
        now[0] = 2.0
        line.update(1)
    text = out.getvalue()
    assert text.count("\r") == 3 and text.endswith("\n") and "2/4 games" in text
    assert clock_text(3909) == "1:05:09" and clock_text(9) == "0:09"


def test_importing_meeple_and_its_commands_does_not_import_ray():
    code = ("import sys, meeple, meeple.cli.main, meeple.tools.simulate, meeple.tools.compare, "
            "meeple.tools.backends; assert 'ray' not in sys.modules, 'ray was imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_address_without_the_ray_backend_is_a_usage_error():
    r = CliRunner().invoke(meeple, ["simulate", "speicherstadt", "-n", "2", "--address", "10.0.0.1:6379"])
    assert r.exit_code == 2 and "--address is for --backend ray" in r.output


def test_the_ray_backend_without_ray_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # as if it were not installed
    r = CliRunner().invoke(meeple, ["simulate", "speicherstadt", "-n", "2", "--backend", "ray"])
    assert r.exit_code == 2 and "pip install 'meeple[ray]'" in r.output


def test_rule_errors_from_worker_processes_are_the_located_errors_of_one_process(tmp_path):
    (tmp_path / "broken.yaml").write_text(BROKEN)
    errors = []
    for workers in (1, 2):
        with pytest.raises(RuntimeRuleError) as e:
            simulate(tmp_path / "broken.yaml", 3, 4, workers=workers)
        errors.append(e.value.problems)
    assert errors[0] == errors[1] and errors[0][0].span.file.endswith("broken.yaml")


def test_an_unreachable_cluster_is_a_usage_error_at_once():
    pytest.importorskip("ray")
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    r = CliRunner().invoke(meeple, ["simulate", "speicherstadt", "-n", "2", "--backend", "ray",
                                    "--address", f"127.0.0.1:{port}"])
    assert r.exit_code == 2 and f"cannot reach the Ray cluster at 127.0.0.1:{port}" in r.output


def test_a_port_of_other_digits_is_left_to_ray_to_refuse():
    # Found by QA: `--address 127.0.0.1:²` raised int()'s ValueError as a traceback ("²" is a digit to
    # `isdigit`); Ray's own parsing of the address then refuses it as a usage error.
    from meeple.tools.ray_backend import _check_reachable

    assert _check_reachable("127.0.0.1:²") is None


def test_ctrl_c_in_compare_compares_the_games_every_ruleset_finished():
    def stop_after(n, seen=[]):  # noqa: B006 - a counter that lives for this one run
        seen.append(n)
        if sum(seen) >= 7:  # one process plays game by game, every ruleset's in turn: games 0-2 of
            raise KeyboardInterrupt  # both, and game 3 of the base only

    with pytest.raises(Interrupted) as e:
        compare(["speicherstadt", "four_workers"], 2, 6, seed=9, workers=1, progress=stop_after)
    assert len(e.value.finished) == 7 and e.value.total == 12
    assert json.dumps(e.value.partial) == json.dumps(compare(["speicherstadt", "four_workers"], 2, 3, seed=9))


def test_ctrl_c_on_the_command_line_prints_what_finished_and_exits_130():
    import os
    import signal

    cmd = [sys.executable, "-m", "meeple.cli.main", "simulate", "speicherstadt", "-p", "2", "-n", "100000",
           "--workers", "2", "--progress"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    seen = b""
    # Wait until four batches of 25 have finished: game 0's is surely among them.
    while int((re.findall(rb"(\d+)/100000 games", seen) or [b"0"])[-1]) < 100:
        chunk = os.read(p.stderr.fileno(), 4096)
        assert chunk, "the run ended by itself"
        seen += chunk
    os.killpg(p.pid, signal.SIGINT)  # as a terminal's Ctrl-C does: to the whole process group
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130
    done = int(re.search(rb"interrupted: (\d+) of 100000 games finished", err).group(1))
    shown = int(re.search(rb"Speicherstadt: (\d+) games, 2 players", out).group(1))
    assert 0 < shown <= done  # games 0..k-1: those finished in order from the first
