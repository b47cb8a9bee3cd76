"""Simulation: reproducible seeds, worker independence, summaries, bench, errors."""

import json
import os

import pytest
from meeple.errors import RuntimeRuleError, UsageError
from meeple.runtime.rules import load_ruleset
from meeple.tools.bench import bench
from meeple.tools.simulate import default_players, game_seed, play_game, simulate
from support import BROKEN, PICK


@pytest.fixture(scope="module")
def speicherstadt():
    return load_ruleset("speicherstadt")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("sim")
    (d / "pick.yaml").write_text(PICK)
    (d / "broken.yaml").write_text(BROKEN)
    return d


def test_results_do_not_depend_on_workers(speicherstadt):
    one = simulate(speicherstadt, 3, 8, seed=5, agents="greedy,random", workers=1)
    two = simulate("speicherstadt", 3, 8, seed=5, agents="greedy,random", workers=2)
    assert [r.to_json() for r in one.records] == [r.to_json() for r in two.records]
    assert [r.index for r in two.records] == list(range(8))
    assert one.to_json()["seats"] == two.to_json()["seats"]
    assert two.workers == 2


def test_game_seeds_come_from_the_master_seed_and_index(speicherstadt):
    a = simulate(speicherstadt, 2, 3, seed=1)
    b = simulate(speicherstadt, 2, 5, seed=1)
    c = simulate(speicherstadt, 2, 3, seed=2)
    assert [r.to_json() for r in a.records] == [r.to_json() for r in b.records[:3]]
    assert [r.seed for r in a.records] == [game_seed(1, i) for i in range(3)]
    assert [r.seed for r in a.records] != [r.seed for r in c.records]
    again = play_game(speicherstadt, 2, a.records[1].seed, "random", 1)
    assert again.to_json() == a.records[1].to_json()


def test_summary_fields_and_json(speicherstadt):
    s = simulate(speicherstadt, 2, 6, seed=0, agents="random")
    assert s.length_unit == "rounds" and 5 < s.length_mean < 30
    assert s.decisions_mean > s.length_mean
    assert sum(x.wins for x in s.seats) == pytest.approx(6)
    assert sum(x.win_rate for x in s.seats) == pytest.approx(1)
    for x in s.seats:
        assert x.win_ci[0] <= x.win_rate <= x.win_ci[1]
    d = json.loads(json.dumps(s.to_json(records=True)))
    assert d["ruleset"] == "Speicherstadt" and len(d["records"]) == 6 and len(d["seats"]) == 2
    assert "records" not in s.to_json()
    assert s.games_per_s > 0 and s.decisions_per_s > s.games_per_s


def test_ties_share_the_win_and_length_counts_decisions(files):
    s = simulate(files / "pick.yaml", 2, 4, agents="first")
    assert [x.wins for x in s.seats] == [2.0, 2.0]
    assert [x.win_rate for x in s.seats] == [0.5, 0.5]
    assert s.length_unit == "decisions" and s.length_mean == 2
    g = simulate(files / "pick.yaml", 2, 10, agents="greedy,first")
    assert [x.win_rate for x in g.seats] == [1.0, 0.0]
    assert g.seats[0].score_mean == 3 and g.seats[0].score_stdev == 0


def test_default_players(speicherstadt, files):
    assert default_players(speicherstadt) == 4
    assert default_players(load_ruleset(files / "pick.yaml")) == 3
    assert simulate(files / "pick.yaml", None, 1).players == 3


@pytest.mark.parametrize("kwargs, words", [
    ({"players": 6}, "2 to 5 players, not 6"),
    ({"games": 0}, "at least 1"),
    ({"workers": -1}, "workers"),
    ({"agents": "smart"}, "unknown agent"),
])
def test_bad_arguments_are_usage_errors(speicherstadt, kwargs, words):
    args = {"players": 2, "games": 1, "agents": "random", "workers": 1} | kwargs
    with pytest.raises(UsageError, match=words):
        simulate(speicherstadt, args["players"], args["games"], 0, args["agents"], args["workers"])


@pytest.mark.parametrize("workers", [1, 2])
def test_rule_errors_keep_their_class_and_location(files, workers):
    with pytest.raises(RuntimeRuleError) as e:
        simulate(files / "broken.yaml", 3, 2, workers=workers)
    p = e.value.problems[0]
    assert p.code == "R002" and p.span is not None and p.span.file.endswith("broken.yaml")


def test_progress_is_reported_per_game(files):
    seen = []
    simulate(files / "pick.yaml", 2, 5, progress=seen.append)
    assert seen == [1] * 5


def test_bench_rows(speicherstadt):
    rows = bench(speicherstadt, [2, 3], games=2)
    assert [(r.players, r.games) for r in rows] == [(2, 2), (3, 2)]
    assert all(r.decisions_per_s > r.games_per_s > 0 for r in rows)
    assert rows[0].to_json()["players"] == 2
    timed = bench(speicherstadt, [2], seconds=0.05)
    assert timed[0].games >= 1
    with pytest.raises(UsageError):
        bench(speicherstadt, [7], games=1)


def test_a_game_the_rules_break_is_named_and_saved_up_to_the_failing_decision(tmp_path):
    # Before, a script that failed in one of many simulated games said where in the YAML, but not in
    # which game or position: nothing to reproduce it with.
    import re
    from pathlib import Path

    from meeple.runtime.game import Game

    path = _broken_bank(tmp_path)
    rs = load_ruleset(path)
    seed, e = _first_failure(rs)
    (p,) = e.problems
    assert p.message == "division by zero" and p.span.line == 6
    m = re.search(r"seed (\d+), bots random, at decision (\d+); .* saved in (\S+) \(`meeple play (\S+) --load", p.hint)
    assert m and int(m.group(1)) == seed and m.group(4) == rs.path, p.hint
    saved = Game.from_json(rs, json.loads(Path(m.group(3)).read_text()))
    assert len(saved.state.actions) == int(m.group(2)) - 1  # every decision before the failing one
    # A comparison plays the base and a variant on the same seeds: their failed games are kept apart.
    other = tmp_path / "renamed.yaml"
    other.write_text(path.read_text() + "name: Broken bank, renamed\n")
    with pytest.raises(RuntimeRuleError) as again:
        play_game(load_ruleset(other), 3, seed, "random")
    kept = re.search(r"saved in (\S+) ", again.value.problems[0].hint).group(1)
    assert kept != m.group(3) and Path(kept).exists() and Path(m.group(3)).exists()
    os.remove(m.group(3))
    os.remove(kept)


def test_a_failed_game_that_cannot_be_saved_still_reports_the_rules_error(tmp_path, monkeypatch):
    # The save is best effort: a failure while writing it must neither hide the rules' error nor leave
    # a half-written file behind (a .tmp file was found left in the folder once).
    import tempfile

    from meeple.tools import failures

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(failures, "write_atomic", lambda *a, **k: (_ for _ in ()).throw(TypeError("not JSON")))
    path = _broken_bank(tmp_path)
    rs = load_ruleset(path)
    (p,) = _first_failure(rs)[1].problems
    assert p.message == "division by zero" and "seed" in p.hint and "saved in" not in p.hint
    assert list((tmp_path / "meeple-failed-games").iterdir()) == []


def test_saves_cut_short_by_ended_workers_are_swept_once_old(tmp_path):
    # When one game of a parallel run fails, the run ends its other workers, which may be writing a save
    # of their own: an empty .tmp is left. The next save removes those older than ten minutes.
    import time

    from meeple.tools import failures

    old, new = tmp_path / "a.tmp", tmp_path / "b.tmp"
    old.write_text("")
    new.write_text("")
    os.utime(old, (time.time() - 3600, time.time() - 3600))
    failures._sweep(str(tmp_path))
    assert not old.exists() and new.exists()


def _broken_bank(tmp_path):
    """Speicherstadt with a bank whose income divides by zero: the first game in which someone owns the
    bank at an income phase fails there."""
    path = tmp_path / "broken_bank.yaml"
    path.write_text('meeple: 1\nextends: speicherstadt\ncomponents:\n  card:\n    items:\n      bank: {on: {income: '
                    '"gain(owner.coins, 1 // (count(owner.hall) - count(owner.hall)))"}}\n')
    return path


def _first_failure(rs):
    """(seed, error) of the first of 40 three-player random games that fails."""
    for seed in range(40):
        try:
            play_game(rs, 3, seed, "random")
        except RuntimeRuleError as e:
            return seed, e
    raise AssertionError("no game failed")


def test_games_without_a_single_decision_are_warned_about(tmp_path):
    """Before, a variant with no workers printed a normal report: 0.0 decisions per game, every score 0."""
    from click.testing import CliRunner
    from meeple.cli.main import meeple
    from meeple.cli.runs import play_warnings

    path = tmp_path / "no_workers.yaml"
    path.write_text("meeple: 1\nextends: speicherstadt\nname: No workers\nconstants: {workers: 0}\n")
    s = simulate(load_ruleset(path), 3, 3, workers=1)
    assert (s.games_without_decisions, s.games_all_tied) == (3, 3)
    for args in (["simulate", str(path)], ["compare", "speicherstadt", str(path), "--no-coverage"]):
        r = CliRunner().invoke(meeple, args + ["-p", "3", "-n", "3", "-j", "1"])
        assert r.exit_code == 0 and "warning: No workers: all 3 games ended without a single decision" in r.stderr
        assert "all players tied" not in r.stderr  # the one cause is enough
        assert "warning" not in r.stdout and "Speicherstadt: " not in r.stderr  # only the ruleset concerned
    assert play_warnings("X", 10, 2, 0) == ["X: 2 of 10 games ended without a single decision"]
    assert "all players tied" in play_warnings("X", 10, 0, 10)[0] and play_warnings("X", 10, 0, 9) == []


def test_simulate_json_says_whether_ctrl_c_cut_the_run_short(monkeypatch):
    import meeple.tools.simulate as tool
    from click.testing import CliRunner
    from meeple.cli.main import meeple
    from support import stop_after

    real = tool.simulate
    monkeypatch.setattr(tool, "simulate", lambda *a, progress=None, **kw: real(*a, progress=stop_after(7), **kw))
    args = ["simulate", "speicherstadt", "-p", "2", "-j", "1", "--format", "json"]
    r = CliRunner().invoke(meeple, [*args, "-n", "30"])
    assert r.exit_code == 130
    data = json.loads(r.stdout)
    assert data["games_requested"] == 30 and data["interrupted"] is True and 0 < data["games"] < 30
    monkeypatch.setattr(tool, "simulate", real)
    whole = json.loads(CliRunner().invoke(meeple, [*args, "-n", "2"]).stdout)
    assert (whole["games"], whole["games_requested"], whole["interrupted"]) == (2, 2, False)


@pytest.mark.parametrize("agents, cap", [("mcts:2,random", 1), ("random", None)])
def test_games_of_searching_bots_are_handed_out_one_at_a_time(agents, cap):
    # Found by QA: with search bots (seconds a game) batches of up to 25 games made Ctrl-C after 15 s
    # say "0 of 200 games finished" although about 8 had been played.
    from meeple.tools.agents import searches
    from meeple.tools.backends import LocalBackend
    from meeple.tools.simulate import simulate

    caps = []

    class Watched(LocalBackend):
        def run(self, work, jobs, progress=None, take=None):
            caps.append(work.batch_cap)
            return super().run(work, jobs, progress, take)

    assert searches(agents) is (cap == 1)
    simulate("rulesets/reference/kuhn_poker.yaml", 2, 4, agents=agents, backend=Watched(1))
    assert caps == [cap]


def test_a_game_that_never_ends_is_located_at_the_decision_it_keeps_offering(tmp_path):
    # Found by QA: R010 said "did not end after 100000 decisions" with no place in the YAML.
    from meeple.errors import RuntimeRuleError
    from meeple.runtime.rules import load_ruleset
    from meeple.tools.simulate import play_game

    path = tmp_path / "forever.yaml"
    path.write_text("meeple: 1\nname: Forever\nplayers: {min: 2, max: 2}\nflow: |\n  while true:\n"
                    "      choose player(0) \"Again?\":\n          option \"Again\":\n              pass\n"
                    "scoring:\n  score: \"0\"\n")
    with pytest.raises(RuntimeRuleError) as e:
        play_game(load_ruleset(path), 2, 1, max_decisions=20)
    p = e.value.problems[0]
    assert p.code == "R010" and "within 20 decisions" in p.message
    assert p.span is not None and str(p.span).endswith("forever.yaml:6:7")
