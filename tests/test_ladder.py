"""`meeple ladder`: agents against each other on matched deals, every agent in every seat."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from meeple.cli.main import meeple
from meeple.runtime.rules import load_ruleset
from meeple.tools.backends import Interrupted, LocalBackend
from meeple.tools.ladder import ladder, seating
from support import BROKEN, stop_after, without_run_fields

TTT = Path(__file__).resolve().parent.parent / "rulesets" / "reference" / "tic_tac_toe.yaml"


def run(*args):
    return CliRunner().invoke(meeple, [str(a) for a in args])


def test_every_agent_takes_every_seat():
    agents = ["mcts", "greedy", "greedy", "random"]
    assert [seating(agents, i) for i in range(4)] == [
        ["mcts", "greedy", "greedy", "random"], ["random", "mcts", "greedy", "greedy"],
        ["greedy", "random", "mcts", "greedy"], ["greedy", "greedy", "random", "mcts"]]


def test_first_against_random_counts_wins_losses_and_draws():
    res = ladder(load_ruleset(TTT), 2, "first,random", 6, seed=3)
    first, rnd = res.rows
    assert (first.agent, rnd.agent) == ("first", "random") and first.games == 6
    assert first.wins + rnd.wins == 6
    assert first.losses + rnd.losses == 6 - res.draws  # a decided game has one loser, a draw none
    assert first.win_ci[0] <= first.win_rate <= first.win_ci[1]


def test_ladder_command_text_json_and_errors():
    r = run("ladder", TTT, "--agents", "first,random", "--games", 4)
    assert r.exit_code == 0, r.output
    assert "95% CI" in r.output and "fair share 50.0%" in r.output
    r = run("ladder", TTT, "--agents", "first,random", "--games", 2, "--format", "json")
    data = json.loads(r.stdout)
    assert data["games"] == 2 and [x["agent"] for x in data["rows"]] == ["first", "random"]
    assert run("ladder", TTT, "--agents", "smart").exit_code == 2
    assert run("ladder", TTT, "--agents", "first", "--games", 0).exit_code == 2
    assert run("ladder", TTT).exit_code == 2  # --agents is required


LADDER = ["ladder", str(TTT), "--agents", "mcts:10,random", "-n", "8", "--seed", "5"]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_the_ladder_is_byte_identical_for_any_number_of_local_workers(fmt):
    one = run(*LADDER, "--format", fmt, "--workers", "1")
    two = run(*LADDER, "--format", fmt, "--workers", "2")
    assert one.exit_code == two.exit_code == 0, two.output
    assert without_run_fields(one.stdout_bytes) == without_run_fields(two.stdout_bytes)
    assert one.stdout_bytes != two.stdout_bytes  # the run's own line does differ: it says how many workers
    if fmt == "json":
        assert json.loads(two.stdout)["workers"] == 2 and json.loads(two.stdout)["backend"] == "local"


def test_a_ruleset_error_in_a_worker_is_the_located_error_of_one_process(tmp_path):
    (tmp_path / "broken.yaml").write_text(BROKEN)
    out = [run("ladder", tmp_path / "broken.yaml", "-p", "3", "--agents", "random", "-n", "6", "-j", j)
           for j in ("1", "2")]
    assert out[0].exit_code == out[1].exit_code == 1
    assert out[0].output == out[1].output and "broken.yaml:" in out[0].output and "Traceback" not in out[1].output


def test_ctrl_c_keeps_the_ladder_of_the_games_finished_in_order():
    rs = load_ruleset(TTT)
    with pytest.raises(Interrupted) as e:
        ladder(rs, 2, "first,random", 10, seed=3, progress=stop_after(3))
    assert e.value.total == 10 and e.value.partial.games == 3
    whole = ladder(rs, 2, "first,random", 3, seed=3)
    assert [r.to_json() for r in e.value.partial.rows] == [r.to_json() for r in whole.rows]


def test_progress_counts_every_game_once_on_worker_processes():
    seen = []
    res = ladder(load_ruleset(TTT), 2, "first,random", 12, seed=1, progress=seen.append,
                 backend=LocalBackend(2, batch=2))
    assert sum(seen) == 12 and res.games == 12 and res.workers == 2


def test_a_ladder_on_worker_processes_finishes_its_games_one_at_a_time():
    """Bug: a ladder of 384 searching games came in batches of 24, so its progress and its journal moved
    once in about ten minutes, and a Ctrl-C threw away up to 8 batches of played games."""
    seen = []
    ladder(load_ruleset(TTT), 2, "first,random", 64, seed=1, progress=seen.append, backend=LocalBackend(2))
    assert seen == [1] * 64  # (64 jobs on 2 workers would make batches of 4)


def test_simulate_compare_and_ladder_default_to_one_worker_per_core():
    import os

    for cmd in ("simulate", "compare", "ladder"):
        assert "(default 0 = one per core)" in " ".join(run(cmd, "--help").output.split()), cmd
    cores = min(os.cpu_count() or 1, 4)
    sim = json.loads(run("simulate", TTT, "-n", "4", "--format", "json").stdout)
    lad = json.loads(run("ladder", TTT, "--agents", "first,random", "-n", "4", "--format", "json").stdout)
    assert sim["workers"] == lad["workers"] == cores


def test_ladder_json_says_whether_ctrl_c_cut_the_run_short(monkeypatch):
    import meeple.tools.ladder as tool

    real = tool.ladder
    monkeypatch.setattr(tool, "ladder", lambda *a, progress=None, **kw: real(*a, progress=stop_after(3), **kw))
    r = run("ladder", TTT, "-p", "2", "--agents", "first,random", "-n", "10", "-j", "1", "--format", "json")
    assert r.exit_code == 130
    data = json.loads(r.stdout)
    assert (data["games"], data["games_requested"], data["interrupted"]) == (3, 10, True)
    monkeypatch.setattr(tool, "ladder", real)
    whole = json.loads(run("ladder", TTT, "-p", "2", "--agents", "first,random", "-n", "4", "--format", "json").stdout)
    assert (whole["games"], whole["games_requested"], whole["interrupted"]) == (4, 4, False)
    assert list(whole)[list(whole).index("games"):][:3] == ["games", "games_requested", "interrupted"]
