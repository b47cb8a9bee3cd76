"""`meeple ladder`: agents against each other on matched deals, every agent in every seat."""

import json
from pathlib import Path

from click.testing import CliRunner
from meeple.cli.main import meeple
from meeple.runtime.rules import load_ruleset
from meeple.tools.ladder import ladder, seating

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
