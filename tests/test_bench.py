"""`meeple bench`: its loops (seeded, explicit chance, with observations) and its peers; a peer engine that
breaks its protocol is reported after Meeple's rows."""

from __future__ import annotations

import json
import re
import textwrap

import pytest
from click.testing import CliRunner
from meeple.cli.main import meeple
from meeple.tools import bench as B
from meeple.tools import peers as P

PEERS = {
    "empty": ("def legal_actions(self): return []\n", "legal_actions() returned no actions"),
    "init": ("def __init__(self, players, seed): raise ValueError('only 4 players')\n",
             "Game(2, 0) raised ValueError: only 4 players"),
    "apply": ("def apply(self, a): raise KeyError(a)\n", "decision 1: apply() raised KeyError: "),
    "none": ("def legal_actions(self): return None\n", "legal_actions() returned None, not a list of actions"),
}


def peer_file(tmp_path, name: str, override: str) -> str:
    base = {"__init__": "def __init__(self, players, seed): pass\n", "legal_actions": "def legal_actions(self): return [0, 1]\n",
            "apply": "def apply(self, a): pass\n", "is_terminal": "def is_terminal(self): return False\n"}
    method = override.split("(", 1)[0].removeprefix("def ")
    base[method] = override
    body = "".join(textwrap.indent(m, "    ") for m in base.values())
    path = tmp_path / f"{name}peer.py"
    path.write_text(f"class Game:\n{body}")
    return str(path)


@pytest.mark.parametrize("kind", sorted(PEERS))
def test_broken_peer_after_meeple_rows(tmp_path, kind):
    path = peer_file(tmp_path, kind, PEERS[kind][0])
    r = CliRunner().invoke(meeple, ["bench", "speicherstadt", "-p", "2", "-n", "1", "--peer", path])
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert "players  games  decisions" in r.stdout  # Meeple's rows are not lost
    assert f"error: the peer engine {kind}peer.py: game 0 (2 players)" in r.stderr
    assert PEERS[kind][1] in r.stderr
    assert "Traceback" not in r.output


def test_broken_peer_json_keeps_rows(tmp_path):
    path = peer_file(tmp_path, "key", PEERS["apply"][0])
    r = CliRunner().invoke(meeple, ["bench", "speicherstadt", "-p", "2", "-n", "1", "--peer", path, "--format", "json"])
    assert r.exit_code == 2
    assert json.loads(r.stdout)["rows"][0]["games"] == 1
    assert "apply() raised KeyError" in r.stderr


def test_endless_peer_game_is_stopped_by_the_decision_cap(tmp_path, monkeypatch):
    monkeypatch.setattr(P, "MAX_PEER_DECISIONS", 5000)
    module = P.load_peer(peer_file(tmp_path, "loop", "def is_terminal(self): return False\n"))
    with pytest.raises(P.UsageError, match=r"loop.* game 0 \(3 players\) did not end within 5,000 decisions"):
        P.bench_peer(module, 3, games=2, seconds=100)


def test_endless_peer_game_is_stopped_by_the_time_budget(tmp_path):
    slow = "def apply(self, a):\n    for _ in range(2000): pass\n"
    module = P.load_peer(peer_file(tmp_path, "slow", slow))
    with pytest.raises(P.UsageError, match=r"did not end within the time budget of 0.05 CPU seconds"):
        P.bench_peer(module, 2, games=None, seconds=0.05)


def test_an_openspiel_game_that_fails_while_playing_is_reported_after_meeples_rows(monkeypatch):
    class Broken:
        def __str__(self) -> str:
            return "broken()"

        def num_players(self) -> int:
            return 2

        def new_initial_state(self):
            raise RuntimeError("SpielFatalError: boom")

    monkeypatch.setattr(P, "load_openspiel", lambda name: Broken())
    r = CliRunner().invoke(meeple, ["bench", "rulesets/reference/tic_tac_toe.yaml", "-n", "2", "--openspiel", "x"])
    assert r.exit_code == 2, r.output
    assert "players  games  decisions" in r.stdout  # Meeple's rows are not lost
    assert "OpenSpiel's broken failed while playing: RuntimeError: SpielFatalError: boom" in r.stderr
    assert "Traceback" not in r.output


def test_explicit_chance_plays_the_same_games_as_the_game_api_and_samples_every_chance_event():
    # `--chance explicit` measures the forward model a search over chance nodes runs, like OpenSpiel's
    # games: every random event is a chance node, sampled by its probabilities.
    from meeple.runtime.rules import load_ruleset

    r = CliRunner().invoke(meeple, ["bench", "rulesets/reference/kuhn_poker.yaml", "--chance", "explicit",
                                    "-n", "40", "--format", "json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["chance"] == "explicit" and out["rows"][0]["games"] == 40
    rs = load_ruleset("rulesets/reference/kuhn_poker.yaml")
    [row] = B.bench(rs, [2], 40, 1.0, chance="explicit")
    assert row.decisions == out["rows"][0]["decisions"]  # the same games: seeded by the player count
    assert 2 * 40 <= row.decisions <= 3 * 40  # Kuhn poker: two or three bets a game


@pytest.mark.parametrize("extra", [["--peer", "peer.py"], ["--micro"]])
def test_explicit_chance_is_refused_with_what_measures_seeded_games(extra):
    r = CliRunner().invoke(meeple, ["bench", "speicherstadt", "--chance", "explicit", "-n", "1", *extra])
    assert r.exit_code == 2 and "measures seeded games: leave out --chance explicit" in r.stderr, r.output


@pytest.mark.parametrize("chance", ["seeded", "explicit"])
def test_observe_makes_the_deciding_seats_vector_before_every_decision(monkeypatch, chance):
    # What a learning loop pays at each step: the observation the PettingZoo and OpenSpiel adapters give.
    pytest.importorskip("numpy")
    from meeple.tools.observe import Layout

    made = []
    real = Layout.observe
    monkeypatch.setattr(Layout, "observe", lambda self, g, seat: made.append((seat, g.deciders)) or real(self, g, seat))
    r = CliRunner().invoke(meeple, ["bench", "rulesets/reference/kuhn_poker.yaml", "--observe", "--chance", chance,
                                    "-n", "30", "--format", "json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["observed"] is True and out["rows"][0]["games"] == 30
    assert len(made) == out["rows"][0]["decisions"] and all(seat in deciders for seat, deciders in made)
    text = CliRunner().invoke(meeple, ["bench", "rulesets/reference/kuhn_poker.yaml", "--observe", "-n", "5"])
    assert "an observation vector before each decision" in text.stdout


def test_observe_is_compared_with_openspiels_observation_tensors():
    pytest.importorskip("pyspiel")
    r = CliRunner().invoke(meeple, ["bench", "rulesets/reference/kuhn_poker.yaml", "--observe", "-n", "20",
                                    "--openspiel", "python_kuhn_poker", "--format", "json"])
    assert r.exit_code == 0, r.output
    [peer] = json.loads(r.stdout)["peers"]
    assert peer["engine"] == "OpenSpiel python_kuhn_poker" and peer["games"] == 20 and peer["ratio"] > 0


@pytest.mark.parametrize("extra", [["--peer", "peer.py"], ["--micro"]])
def test_observe_is_refused_with_what_measures_play_without_observations(extra):
    r = CliRunner().invoke(meeple, ["bench", "speicherstadt", "--observe", "-n", "1", *extra])
    assert r.exit_code == 2 and "measures play without observations: leave out --observe" in r.stderr, r.output


def test_observe_without_numpy_says_what_to_install(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "meeple.tools.observe", None)  # importing it fails, as without NumPy
    r = CliRunner().invoke(meeple, ["bench", "rulesets/reference/kuhn_poker.yaml", "--observe", "-n", "1"])
    assert r.exit_code == 2 and "--observe needs NumPy" in r.stderr and "meeple[pettingzoo]" in r.stderr, r.output
    assert "games/s" not in r.stdout


@pytest.mark.parametrize("chance", ["seeded", "explicit"])
def test_a_benchmarked_game_that_never_ends_is_located_at_the_decision_it_keeps_offering(tmp_path, monkeypatch, chance):
    # Found in review: `meeple bench` said R010 with no place in the YAML, as `simulate` once did.
    from meeple.errors import RuntimeRuleError
    from meeple.runtime.rules import load_ruleset

    path = tmp_path / "forever.yaml"
    path.write_text("meeple: 1\nname: Forever\nplayers: {min: 2, max: 2}\nflow: |\n  while true:\n"
                    "      choose player(0) \"Again?\":\n          option \"Again\":\n              pass\n"
                    "scoring:\n  score: \"0\"\n")
    monkeypatch.setattr(B, "MAX_DECISIONS", 20)
    with pytest.raises(RuntimeRuleError) as e:
        B.bench(load_ruleset(path), [2], games=1, seconds=1, chance=chance)
    p = e.value.problems[0]
    assert p.code == "R010" and "within 20 decisions (players 2, seed 0)" in p.message
    assert p.span is not None and str(p.span).endswith("forever.yaml:6:7")


def test_rounds_report_the_median_round_and_every_rounds_ratio(tmp_path):
    # Meeple and the peer alternate, round by round; the ratio shown is the median of the rounds' ratios.
    path = peer_file(tmp_path, "ok", "def is_terminal(self): return True\n")
    r = CliRunner().invoke(meeple, ["bench", "tic_tac_toe", "-n", "3", "--peer", path, "--rounds", "3",
                                    "--format", "json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["rounds"] == 3
    peer = out["peers"][0]
    assert len(peer["round_ratios"]) == 3
    assert peer["ratio"] == sorted(peer["round_ratios"])[1]  # the median round's ratio
    text = CliRunner().invoke(meeple, ["bench", "tic_tac_toe", "-n", "3", "--peer", path, "--rounds", "2"])
    assert text.exit_code == 0, text.output
    assert "medians of 2 rounds, Meeple then the peer in each" in text.stdout
    assert re.search(r"okpeer\.py \(2 players\): \d+\.\d\dx \d+\.\d\dx$", text.stdout.rstrip())


def test_median_helpers_pick_a_measured_round_and_pair_rounds_by_player_count():
    def row(n, gps):
        return B.BenchRow(n, int(gps), 1, 1.0, gps, 1.0)
    rounds = [[row(2, 10.0), row(3, 5.0)], [row(2, 30.0), row(3, 4.0)], [row(2, 20.0), row(3, 6.0)]]
    assert [r.games_per_s for r in B.median_rounds(rounds)] == [20.0, 5.0]
    assert [r.games_per_s for r in B.median_rounds(rounds[:2])] == [10.0, 4.0]  # the lower of two: measured
    peers = [[B.Speed("p", 3, 1, 1, 0.5)], [B.Speed("p", 3, 1, 1, 0.25)], [B.Speed("p", 3, 1, 1, 1.0)]]
    assert B.round_ratios(rounds, peers, 0) == [2.5, 1.0, 6.0]  # Meeple's 3-player row of each round
    assert B.median_rounds(peers)[0].seconds == 0.5


def test_a_peer_failing_in_a_later_round_keeps_the_rounds_before(tmp_path):
    path = tmp_path / "laterpeer.py"
    path.write_text("made = [0]\n\nclass Game:\n"
                    "    def __init__(self, players, seed):\n"
                    "        made[0] += 1\n"
                    "        if made[0] > 2:\n"
                    "            raise ValueError('tired')\n"
                    "    def legal_actions(self): return [0]\n"
                    "    def apply(self, a): pass\n"
                    "    def is_terminal(self): return True\n")
    r = CliRunner().invoke(meeple, ["bench", "tic_tac_toe", "-n", "2", "--peer", str(path), "--rounds", "3",
                                    "--format", "json"])
    assert r.exit_code == 2
    out = json.loads(r.stdout)
    assert len(out["peers"][0]["round_ratios"]) == 1  # the first round's; the second failed
    assert "raised ValueError: tired" in r.stderr


@pytest.mark.parametrize("rounds", ["0", "100", "x"])
def test_rounds_out_of_range_are_refused(rounds):
    r = CliRunner().invoke(meeple, ["bench", "tic_tac_toe", "-n", "1", "--rounds", rounds])
    assert r.exit_code == 2
    assert "Traceback" not in r.output
