"""The `meeple` command line: every command and exit code (0 ok, 1 invalid input, 2 usage/IO)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from meeple.cli.main import meeple
from support import BROKEN, PICK

ROOT = Path(__file__).resolve().parent.parent


WARN = """\
meeple: 1
name: Warn
players: {min: 1, max: 2}
counters:
  player: {points: 0}
flow: |
  for p in players:
      score(p.points, 1)
phases:
  unused: |
    pass
scoring:
  score: p.points
"""

BAD = """\
meeple: 1
name: Bad
players: {min: 1, max: 2}
flow: |
  for p in players:
      score(p.points, undefined_thing)
scoring:
  score: p.points
"""


SCENARIOS = """\
ruleset: pick.yaml
scenarios:
  - name: takes three
    players: 1
    steps:
      - {act: "Take 3", player: 1}
      - expect: {"p1.points": 3}
  - name: wrong expectation
    players: 1
    steps:
      - {act: "Take 1", player: 1}
      - expect: {"p1.points": 2}
"""


@pytest.fixture(scope="module")
def d(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli")
    for name, text in [("pick", PICK), ("warn", WARN), ("bad", BAD), ("broken", BROKEN), ("sc", SCENARIOS)]:
        (d / f"{name}.yaml").write_text(text)
    (d / "pass.yaml").write_text(SCENARIOS.split("  - name: wrong")[0])
    return d


def run(*args, input=None):
    return CliRunner().invoke(meeple, [str(a) for a in args], input=input)


def test_version_and_help():
    r = run("--version")
    assert r.exit_code == 0 and "meeple" in r.output
    r = run("--help")
    for cmd in ("validate", "simulate", "bench", "play", "test", "schema", "rulesets"):
        assert cmd in r.output
    assert run("nonsense").exit_code == 2


# ------------------------------------------------------------------ validate
def test_validate_ok_by_name_and_path(d):
    r = run("validate", "speicherstadt", ROOT / "rulesets" / "speicherstadt.yaml", d / "pick.yaml")
    assert r.exit_code == 0, r.output
    assert "3 files: 3 valid" in r.output


def test_validate_invalid_reports_every_problem_with_location(d):
    r = run("validate", d / "bad.yaml", d / "pick.yaml")
    assert r.exit_code == 1
    assert "bad.yaml:6:" in r.output and "C001" in r.output and "undefined_thing" in r.output
    assert "^^^" in r.output and "Traceback" not in r.output


def test_validate_warnings_and_strict(d):
    r = run("validate", d / "warn.yaml")
    assert r.exit_code == 0 and "W001" in r.output
    r = run("validate", "--strict", d / "warn.yaml")
    assert r.exit_code == 1 and "strict" in r.output


def test_commands_that_play_show_the_warnings_on_stderr_and_play_anyway(d):
    # A valid variant that misspelt what it changes plays the base's rules: before, `simulate` and
    # `compare` said nothing of it, and only `meeple validate` showed the warning.
    r = run("simulate", d / "warn.yaml", "-n", "2", "-p", "1", "--format", "json")
    assert r.exit_code == 0 and "W001" in r.stderr and "played as written" in r.stderr
    assert json.loads(r.stdout)["games"] == 2
    r = run("simulate", "merchants", "-n", "1", "-p", "2")
    assert r.exit_code == 0 and "warning" not in r.stderr


def test_validate_a_folder_checks_its_rulesets_and_skips_its_scenario_files():
    # Before, `meeple validate rulesets/` refused a folder, and a scenario file got one "unknown key" per
    # top-level key; the bundled libraries also warned that their procedures were never called.
    r = run("validate", "--strict", ROOT / "rulesets")
    assert r.exit_code == 0, r.output
    assert "16 files: 16 valid, 0 not" in r.output and "8 scenario files in the folders skipped" in r.output
    report = json.loads(run("validate", "--format", "json", ROOT / "rulesets").stdout)
    assert report["valid"] and len(report["files"]) == 16 and len(report["skipped_scenarios"]) == 8
    r = run("validate", ROOT / "rulesets" / "scenarios" / "merchants.yaml")
    assert r.exit_code == 1 and "S007" in r.output and "meeple test" in r.output and "S003" not in r.output


def test_a_folder_walk_leaves_out_hidden_and_package_folders(tmp_path):
    # `meeple validate .` in a project must not check the YAML files of its .venv's packages or of .git.
    (tmp_path / "game.yaml").write_text((ROOT / "rulesets" / "reference" / "tic_tac_toe.yaml").read_text())
    for junk in (".venv/lib/site-packages/pkg", ".git", "node_modules/x"):
        (tmp_path / junk).mkdir(parents=True)
        (tmp_path / junk / "config.yaml").write_text("not: [a ruleset\n")
    r = run("validate", tmp_path)
    assert r.exit_code == 0 and "game.yaml: ok" in r.output and "config.yaml" not in r.output, r.output


def test_validate_json(d):
    r = run("validate", "--format", "json", d / "bad.yaml", d / "warn.yaml")
    assert r.exit_code == 1
    report = json.loads(r.stdout)
    assert report["valid"] is False and report["errors"] >= 2 and report["warnings"] == 1
    assert [f["valid"] for f in report["files"]] == [False, True]
    assert {"file", "line", "column", "code", "message"} <= set(report["problems"][0])


def test_validate_missing_files_are_usage_errors(d):
    r = run("validate", d / "nope.yaml", d / "pick.yaml")
    assert r.exit_code == 2 and "no such file" in r.output
    assert run("validate", "no_such_game").exit_code == 2
    assert run("validate", d).exit_code == 1  # a folder is walked: its bad.yaml is invalid
    (d / "empty").mkdir()
    r = run("validate", d / "empty")
    assert r.exit_code == 2 and "a folder without .yaml files" in r.output
    assert run("validate").exit_code == 2


# ------------------------------------------------------------------ simulate
def test_simulate_text():
    r = run("simulate", "speicherstadt", "--players", 2, "--games", 3, "--agents", "random,greedy")
    assert r.exit_code == 0, r.output
    out = r.output
    for words in ("win rate", "95% CI", "score mean", "rounds", "games/s", "decisions/s", "greedy"):
        assert words in out
    assert "P1" in out and "P2" in out and "P3" not in out


def test_simulate_json_is_clean_and_reproducible(d):
    args = ("simulate", d / "pick.yaml", "-p", 2, "-n", 60, "--seed", 3, "--agents", "greedy,random",
            "--format", "json", "--records")
    a, b = run(*args), run(*args, "--workers", 2)
    assert a.exit_code == 0 and b.exit_code == 0
    ja, jb = json.loads(a.stdout), json.loads(b.stdout)  # no progress bar or other noise on stdout
    assert ja["records"] == jb["records"] and len(ja["records"]) == 60
    assert ja["seats"][0]["win_rate"] > ja["seats"][1]["win_rate"]


def test_simulate_progress_goes_to_stderr(d):
    r = run("simulate", d / "pick.yaml", "-p", 2, "-n", 50, "--progress")
    assert r.exit_code == 0 and "Playing" in r.stderr and "Playing" not in r.stdout


@pytest.mark.parametrize("cmd, args", [
    ("simulate", ()), ("ladder", ("-a", "random,first")), ("fit-value", ()), ("compare", ("cheap_port",))])
def test_every_command_that_plays_many_games_takes_progress_or_not(cmd, args):
    """`compare` had no --progress/--no-progress, which simulate, ladder and fit-value take (found by
    fuzzing the command line): a run in CI could not turn it off, nor a run piped to a file turn it on."""
    base = ["speicherstadt"] if cmd != "fit-value" else ["demoludy"]  # a game with `agents.features`
    shown = run(cmd, *base, *args, "-p", 3, "-n", 4, "--workers", 1, "--progress")
    quiet = run(cmd, *base, *args, "-p", 3, "-n", 4, "--workers", 1, "--no-progress")
    assert shown.exit_code == quiet.exit_code == 0, shown.output + quiet.output
    assert "Playing" in shown.stderr and "Playing" not in quiet.stderr and shown.stdout.split("\n")[:3] == \
        quiet.stdout.split("\n")[:3]


def test_fit_value_refuses_a_game_without_features_before_it_plays():
    """Found with the test above: `fit-value merchants --progress` drew its progress line, then said that
    Merchants declares no `agents.features`: the games were started to be refused."""
    r = run("fit-value", "merchants", "-p", 2, "-n", 4, "--workers", 1, "--progress")
    assert r.exit_code == 2 and "declares no `agents.features`" in r.stderr and "Playing" not in r.stderr


def test_simulate_default_players(d):
    r = run("simulate", d / "pick.yaml", "-n", 2, "--format", "json")
    assert json.loads(r.stdout)["players"] == 3


@pytest.mark.parametrize("args, words", [
    (("-p", 9), "2 to 5 players"),
    (("--agents", "gredy"), "did you mean `greedy`"),
    (("-n", 0), "at least 1"),
    (("--workers", -2), "workers"),
])
def test_simulate_bad_arguments(args, words):
    r = run("simulate", "speicherstadt", *args)
    assert r.exit_code == 2 and words in r.output and "Traceback" not in r.output


def test_simulate_unknown_ruleset():
    r = run("simulate", "no_such_game")
    assert r.exit_code == 2 and "no ruleset" in r.output


def test_simulate_invalid_or_failing_ruleset(d):
    assert run("simulate", d / "bad.yaml").exit_code == 1
    r = run("simulate", d / "broken.yaml", "-p", 3, "-n", 1)
    assert r.exit_code == 1 and "R002" in r.output and "broken.yaml:" in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


# ------------------------------------------------------------------ bench
def test_bench_text_and_json():
    r = run("bench", "speicherstadt", "-p", 2, "-p", 3, "--games", 1)
    assert r.exit_code == 0 and "games/s" in r.output and "decisions/s" in r.output
    r = run("bench", "speicherstadt", "-p", 2, "--games", 1, "--format", "json")
    rows = json.loads(r.stdout)["rows"]
    assert [x["players"] for x in rows] == [2] and rows[0]["games"] == 1


def test_bench_plays_quiet_games_unless_asked_to_narrate_them():
    # Quiet games skip only the text nobody reads: the same seeds give the same games either way.
    quiet = json.loads(run("bench", "kuhn_poker", "--games", 30, "--format", "json").stdout)
    told = json.loads(run("bench", "kuhn_poker", "--games", 30, "--narrate", "--format", "json").stdout)
    assert quiet["narrated"] is False and told["narrated"] is True
    assert quiet["rows"][0]["decisions"] == told["rows"][0]["decisions"]
    assert "quiet games" in run("bench", "kuhn_poker", "--games", 1).output
    assert "narrated games" in run("bench", "kuhn_poker", "--games", 1, "--narrate").output


def test_bench_default_counts_and_bad_arguments(d):
    r = run("bench", d / "pick.yaml", "--games", 2, "--format", "json")
    assert [x["players"] for x in json.loads(r.stdout)["rows"]] == [1, 2, 3]
    assert run("bench", "speicherstadt", "-p", 1).exit_code == 2
    assert run("bench", "speicherstadt", "--seconds", 0).exit_code == 2


def test_bench_side_by_side_with_a_peer_engine(tmp_path):
    # Any Python file with a class Game(players, seed) offering legal_actions, apply, is_terminal.
    peer = tmp_path / "count_ref.py"
    peer.write_text("class Game:\n"
                    "    def __init__(self, n, seed):\n        self.left = 3\n"
                    "    def legal_actions(self):\n        return [0, 1]\n"
                    "    def apply(self, a):\n        self.left -= 1\n"
                    "    def is_terminal(self):\n        return self.left == 0\n")
    r = run("bench", "speicherstadt", "-p", 2, "--games", 1, "--peer", peer, "--micro", "--format", "json")
    out = json.loads(r.stdout)
    assert out["peers"][0]["games"] == 1 and out["peers"][0]["decisions"] == 3
    assert out["peers"][0]["ratio"] > 0
    assert {"new_game_us", "copy_us", "apply_index_us"} <= set(out["rows"][0])
    r = run("bench", "speicherstadt", "-p", 2, "--games", 1, "--peer", peer)
    assert r.exit_code == 0 and "Meeple ratio" in r.output and "count_ref.py" in r.output


def test_bench_refuses_a_peer_that_is_not_an_engine(tmp_path):
    (tmp_path / "x.py").write_text("print('no engine here')\n")
    assert run("bench", "speicherstadt", "-p", 2, "--games", 1, "--peer", tmp_path / "x.py").exit_code == 2
    assert run("bench", "speicherstadt", "-p", 2, "--games", 1, "--peer", tmp_path / "none.py").exit_code == 2
    assert run("bench", "speicherstadt", "-p", 2, "--games", 1, "--peer", tmp_path).exit_code == 2


def test_bench_side_by_side_with_openspiel():
    pytest.importorskip("pyspiel")
    r = run("bench", "tic_tac_toe", "--games", 2, "--openspiel", "python_tic_tac_toe", "--format", "json")
    peer = json.loads(r.stdout)["peers"][0]
    assert peer["players"] == 2 and peer["games"] == 2 and 5 <= peer["decisions"] <= 18
    assert run("bench", "tic_tac_toe", "--games", 1, "--openspiel", "no_such_game").exit_code == 2
    assert peer["engine"] == "OpenSpiel python_tic_tac_toe"


def test_an_unknown_openspiel_game_is_refused_before_anything_is_measured(monkeypatch):
    # The refusal used to come after Meeple's own benchmark, and carried OpenSpiel's list of every game
    # (over a hundred lines).
    pytest.importorskip("pyspiel")
    import meeple.tools.bench

    def measured(*args, **kwargs):
        raise AssertionError("Meeple's benchmark ran before the peer was checked")
    monkeypatch.setattr(meeple.tools.bench, "bench", measured)
    r = run("bench", "tic_tac_toe", "--seconds", 60, "--openspiel", "python_tic_tac_to")
    assert r.exit_code == 2 and "AssertionError" not in r.output
    assert "OpenSpiel has no game 'python_tic_tac_to'" in r.output and "did you mean `python_tic_tac_toe`" in r.output
    assert len(r.output.splitlines()) <= 3


def test_ctrl_c_stops_a_benchmark_with_the_interrupt_code_and_no_figures(monkeypatch):
    """Ctrl-C exits 130 as in simulate, compare and ladder, not with click's "Aborted!" and 1 (invalid
    input); a ratio needs both engines measured in full, so nothing cut short is shown."""
    import meeple.tools.bench

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(meeple.tools.bench, "bench", stopped)
    r = run("bench", "speicherstadt", "-p", 2)
    assert r.exit_code == 130 and "interrupted" in r.output and "Aborted" not in r.output
    assert "games/s" not in r.output


# ------------------------------------------------------------------ play
def test_play_a_whole_game_choosing_option_1():
    r = run("play", "speicherstadt", "-p", 2, "--seat", 2, "--seed", 1, "--agents", "random", input="1\n" * 1500)
    assert r.exit_code == 0, r.output
    out = r.output
    assert "You are P2" in out and "you are P2" in out and "Your decision (P2)" in out
    assert "\n   1) " in out
    assert "P1: " in out  # the bot's moves are printed
    assert "Final ranking:" in out and ("Winner: " in out or "Winners (shared): " in out)
    assert '"$p"' not in out and "{'" not in out  # readable, not raw data


def test_play_reprompts_helps_and_quits():
    r = run("play", "speicherstadt", "-p", 3, "--seed", 2, input="banana\n99\n?\nv\nq\n")
    assert r.exit_code == 0
    assert r.output.count("Please type a number from 1 to") == 2
    assert "save the game" in r.output and "Bye." in r.output
    assert run("play", "speicherstadt", "-p", 2, "--seed", 2, input="").exit_code == 0  # end of input quits


def test_play_save_and_load(tmp_path):
    save = tmp_path / "game.json"
    r = run("play", "speicherstadt", "-p", 3, "--seat", 2, "--seed", 4, "--agents", "random", "--save", save,
            input="1\n2\nq\n")
    assert r.exit_code == 0 and save.is_file()
    data = json.loads(save.read_text())
    assert data["format"] == "meeple-save" and data["play"]["seat"] == 2
    r = run("play", "speicherstadt", "--load", save, input="q\n")
    assert r.exit_code == 0 and "Continuing a 3-player game" in r.output and "You are P2" in r.output
    other = tmp_path / "other.json"
    r = run("play", "speicherstadt", "--load", save, input=f"s {other}\ns\nq\n")
    assert other.is_file() and "Give a file name" in r.output
    r = run("play", "speicherstadt", "--load", save, input="1\n" * 1500)
    assert r.exit_code == 0 and "Final ranking:" in r.output


def test_ctrl_c_while_a_bot_thinks_ends_the_game_as_at_the_prompt(tmp_path, monkeypatch):
    """The best bot takes a second a move; Ctrl-C then is Ctrl-C at the person's prompt: the game ends
    with "Bye.", saved by --save at the decision the bot was thinking about, and loads again."""
    from meeple.cli import playsession

    real = playsession.make_agents

    class Interrupted:
        def __init__(self, bot):
            self.bot, self.calls = bot, 0

        def choose(self, game, seat):
            self.calls += 1
            if self.calls == 3:
                raise KeyboardInterrupt
            return self.bot.choose(game, seat)

    monkeypatch.setattr(playsession, "make_agents", lambda *a, **k: [Interrupted(b) for b in real(*a, **k)])
    save = tmp_path / "game.json"
    r = run("play", "speicherstadt", "-p", 2, "--seat", 2, "--seed", 4, "--agents", "random", "--save", save,
            input="1\n" * 50)
    assert r.exit_code == 130, r.output  # Ctrl-C, as the shell reads it (simulate's code too)
    assert "Bye." in r.output and f"Saved to {save}" in r.output and "Aborted" not in r.output
    saved = json.loads(save.read_text())
    bot_moves = [a for a in saved["actions"] if a["player"] == 0]
    assert len(bot_moves) == 2  # the two before the interrupted one
    monkeypatch.setattr(playsession, "make_agents", real)
    r = run("play", "speicherstadt", "--load", save, input="q\n")
    assert r.exit_code == 0 and "Continuing a 2-player game" in r.output


def test_play_errors(tmp_path):
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text("{not json")
    r = run("play", "speicherstadt", "--load", corrupt)
    assert r.exit_code == 1 and "not a Meeple save file" in r.output
    corrupt.write_text('{"format": "meeple-save", "version": 1}')
    assert run("play", "speicherstadt", "--load", corrupt).exit_code == 1
    corrupt.write_bytes(b"\xff\xfe\x00")
    assert run("play", "speicherstadt", "--load", corrupt).exit_code == 1
    assert run("play", "speicherstadt", "--load", tmp_path / "missing.json").exit_code == 2
    assert run("play", "speicherstadt", "-p", 2, "--seat", 3).exit_code == 2
    assert run("play", "speicherstadt", "-p", 6).exit_code == 2
    assert run("play", "speicherstadt", "-p", 2, "--agents", "smart").exit_code == 2


def test_play_against_mcts_by_default(d, tmp_path):
    save = tmp_path / "game.json"
    r = run("play", d / "pick.yaml", "-p", 2, "--seat", 1, "--seed", 0, "--save", save, input="1\n")
    assert r.exit_code == 0
    assert "Winner: P2" in r.output  # the search takes 2 or 3 against your 1: either wins
    assert json.loads(save.read_text())["play"]["agents"] == "mcts:1s:cut=5:guide=1:prior=10"


def test_play_with_greedy_bots_on_a_toy(d):
    r = run("play", d / "pick.yaml", "-p", 2, "--seat", 1, "--seed", 0, "--agents", "greedy", input="1\n")
    assert r.exit_code == 0
    assert "P2: Take 3" in r.output and "Winner: P2" in r.output


# ------------------------------------------------------------------ test, schema, rulesets
def test_test_command(d):
    r = run("test", d / "sc.yaml")
    assert r.exit_code == 1
    assert "PASS takes three" in r.output
    assert "FAIL " in r.output and "sc.yaml:" in r.output and "1 passed, 1 failed" in r.output
    r = run("test", d / "pass.yaml")
    assert r.exit_code == 0 and "1 passed, 0 failed" in r.output
    r = run("test", d / "sc.yaml", "--format", "json")
    assert json.loads(r.stdout)["failed"] == 1
    assert run("test", d / "missing").exit_code == 2


def test_test_command_on_a_folder_of_games_runs_their_scenarios_and_skips_the_games():
    # `meeple test rulesets/` used to fail every game and library file with a screenful of "unknown
    # key" lines, one per top-level key, as if each were a broken scenario file.
    r = run("test", ROOT / "rulesets")
    assert r.exit_code == 0, r.output
    assert "unknown key" not in r.output
    assert " 0 failed (16 ruleset files in the folders skipped: not scenario files)" in r.output
    skipped = json.loads(run("test", ROOT / "rulesets", "--format", "json").stdout)["skipped_rulesets"]
    assert any(s.endswith("speicherstadt.yaml") for s in skipped)
    assert not any("scenarios" in Path(s).parts for s in skipped)
    # Named on its own, a ruleset file fails once, saying what it is and what checks it.
    r = run("test", ROOT / "rulesets" / "merchants.yaml")
    assert r.exit_code == 1
    assert r.output.count("FAIL ") == 1 and "is a ruleset file, not a scenario file" in r.output
    assert "meeple validate" in r.output and "merchants.yaml:" in r.output


def test_schema_command():
    r = run("schema")
    assert r.exit_code == 0 and "properties" in json.loads(r.stdout)
    r = run("schema", "--scenario")
    assert r.exit_code == 0 and "scenarios" in json.loads(r.stdout)["properties"]


def test_rulesets_command():
    r = run("rulesets")
    assert r.exit_code == 0 and "speicherstadt" in r.output and "2-5" in r.output
    names = [x["name"] for x in json.loads(run("rulesets", "--format", "json").stdout)]
    assert "speicherstadt" in names


# ------------------------------------------------------------------ a real process
def test_subprocess_exit_codes(d):
    env = dict(os.environ, PYTHONPATH=str(ROOT))

    def sh(*args):
        return subprocess.run([sys.executable, "-m", "meeple.cli.main", *map(str, args)], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=60, check=False)

    ok = sh("validate", "speicherstadt")
    assert ok.returncode == 0 and "ok" in ok.stdout
    bad = sh("validate", d / "bad.yaml")
    assert bad.returncode == 1 and "C001" in bad.stdout and "Traceback" not in bad.stderr
    usage = sh("simulate", "speicherstadt", "--agents", "smart")
    assert usage.returncode == 2 and "unknown agent" in usage.stderr and "Traceback" not in usage.stderr
    sim = sh("simulate", d / "pick.yaml", "-n", 5, "--format", "json")
    assert sim.returncode == 0 and json.loads(sim.stdout)["games"] == 5


def test_simulate_reports_rules_coverage():
    from click.testing import CliRunner
    from meeple.cli.main import meeple

    r = CliRunner().invoke(meeple, ["simulate", "speicherstadt", "-n", "3", "--coverage", "--format", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert "coverage" in data
    text = CliRunner().invoke(meeple, ["simulate", "speicherstadt", "-n", "2", "--coverage"])
    assert text.exit_code == 0 and "coverage of Speicherstadt over 2 games" in text.output


def test_saving_to_an_unwritable_place_is_a_clear_usage_error_and_keeps_the_old_save(tmp_path):
    from meeple.cli.playsave import load_game, save_game
    from meeple.errors import UsageError
    from meeple.runtime.rules import load_ruleset

    rs = load_ruleset("speicherstadt")
    game = rs.new_game(2, 1)
    good = tmp_path / "game.json"
    save_game(game, str(good))
    before = good.read_text()
    with pytest.raises(UsageError):
        save_game(game, str(tmp_path / "missing" / "game.json"))
    blocker = tmp_path / "blocked.json"
    blocker.mkdir()  # a folder where the save should go: the write fails, nothing is lost
    with pytest.raises(UsageError):
        save_game(game, str(blocker))
    assert good.read_text() == before and load_game(rs, str(good))[0].to_json() == game.to_json()


# ------------------------------------------------------------------ runs that check nothing, IO problems
def test_test_and_validate_fail_when_a_folder_gives_them_nothing_to_run(d, tmp_path):
    # CI passed silently: `meeple test EMPTY/` said "0 passed, 0 failed" and exited 0.
    (tmp_path / "empty").mkdir()
    for cmd in ("test", "validate"):
        r = run(cmd, tmp_path / "empty")
        assert r.exit_code == 2 and "a folder without .yaml files or .yml files" in r.output, r.output
    games = tmp_path / "games"
    games.mkdir()
    (games / "pick.yaml").write_text(PICK)
    r = run("test", games)
    assert r.exit_code == 2 and "holds no scenario file, only a ruleset file" in r.output, r.output
    assert "(1 ruleset file in the folders skipped: not a scenario file)" in r.output
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "sc.yaml").write_text(SCENARIOS.replace("ruleset: pick.yaml", f"ruleset: {d / 'pick.yaml'}"))
    r = run("validate", tests)
    assert r.exit_code == 2 and "it holds only a scenario file" in r.output and "meeple test" in r.output
    report = json.loads(run("validate", "--format", "json", tests).stdout)
    assert report["files"] == [{"file": str(tests), "valid": False, "exit_code": 2}] and report["exit_code"] == 2


def test_test_json_reports_a_missing_path_with_its_file(d):
    r = run("test", "--format", "json", d / "nope.yaml", d / "pass.yaml")
    assert r.exit_code == 2
    report = json.loads(r.stdout)
    (p,) = report["problems"]
    assert p["file"] == str(d / "nope.yaml") and p["code"] == "IO01" and report["exit_code"] == 2
    assert report["passed"] == 1


def test_a_problem_without_a_place_names_its_file(d):
    r = run("validate", "--format", "json", d / "nope.yaml")
    (p,) = json.loads(r.stdout)["problems"]
    assert r.exit_code == 2 and p["file"] == str(d / "nope.yaml") and p["code"] == "IO01"
    r = run("validate", d / "nope.yaml")
    assert f"{d / 'nope.yaml'}: error[IO01]: no such file" in r.output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_said_to_be_no_regular_file(tmp_path):
    fifo = tmp_path / "game.yaml"
    os.mkfifo(fifo)
    for cmd in ("validate", "test"):
        r = run(cmd, fifo)
        assert r.exit_code == 2 and "is not a regular file" in r.output and "no ruleset" not in r.output, r.output


def test_a_scenario_file_whose_ruleset_fails_is_named_at_its_ruleset_line(d, tmp_path):
    (tmp_path / "bad.yaml").write_text(BAD)
    (tmp_path / "sc.yaml").write_text(SCENARIOS.replace("pick.yaml", "bad.yaml"))
    r = run("test", tmp_path / "sc.yaml")
    assert r.exit_code == 1 and f"FAIL {tmp_path / 'sc.yaml'}:1: (file): ruleset {tmp_path / 'bad.yaml'}:6:" in r.output
    (tmp_path / "sc.yaml").write_text(SCENARIOS.replace("pick.yaml", "nowhere.yaml"))
    r = run("test", tmp_path / "sc.yaml")
    assert r.exit_code == 1 and f"FAIL {tmp_path / 'sc.yaml'}:1: (file): no ruleset file" in r.output, r.output


def _documented_fields(doc: str, heading: str) -> set[str]:
    """The backquoted names in the first column of the tables under a heading of a doc."""
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8").split(heading, 1)[1]
    text = text.split("\n#", 1)[0]
    return {name for line in text.splitlines() if line.startswith("| `")
            for name in line.split("|")[1].replace("[]", "").replace("`", " ").replace(",", " ").replace(".", " ").split()}


def _keys(data) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in _keys(v)}
    if isinstance(data, list):
        return {k for v in data for k in _keys(v)}
    return set()


def test_the_documented_json_fields_are_those_printed(d):
    validate = json.loads(run("validate", "--format", "json", d / "bad.yaml", d / "nope.yaml").stdout)
    assert _documented_fields("language.md", "### JSON output") == _keys(validate)
    tested = json.loads(run("test", "--format", "json", d / "sc.yaml", d / "nope.yaml").stdout)
    assert _documented_fields("scenarios.md", "## JSON output") == _keys(tested)


def test_a_misspelt_bundled_name_gets_the_closest_one():
    # Found by QA: `meeple new variant x --extends merchnts` listed every bundled name but suggested none.
    for args, close in ((["simulate", "merchnts"], "merchants"), (["new", "variant", "x", "--extends", "cheap_prt"],
                                                                  "cheap_port")):
        r = CliRunner().invoke(meeple, args)
        assert r.exit_code == 2 and f"did you mean `{close}`?" in r.stderr, r.output


def test_ctrl_c_at_the_prompt_saves_and_exits_130_and_the_end_of_input_exits_0(tmp_path, monkeypatch):
    """Ctrl-C at the person's prompt ends the game as `q` does (saved by --save), with the shell's code
    for an interrupted command, 130, so that a script running `meeple play` stops too; input that runs
    out (a pipe) is an ordinary end: 0. Both used to exit 0."""
    from meeple.cli import playsession

    real = click.prompt
    answers = iter(["1", "1"])

    def prompt(*a, **k):
        try:
            return next(answers)
        except StopIteration:
            try:
                raise KeyboardInterrupt
            except KeyboardInterrupt:
                raise click.Abort() from None  # what click.prompt does on Ctrl-C

    monkeypatch.setattr(playsession.click, "prompt", prompt)
    save = tmp_path / "game.json"
    r = run("play", "speicherstadt", "-p", 2, "--seed", 4, "--agents", "random", "--save", save)
    assert r.exit_code == 130, r.output
    assert "Bye." in r.output and f"Saved to {save}" in r.output and "Aborted" not in r.output
    assert len([a for a in json.loads(save.read_text())["actions"] if a["player"] == 0]) == 2
    monkeypatch.setattr(playsession.click, "prompt", real)
    r = run("play", "speicherstadt", "--load", save, input="1\n")
    assert r.exit_code == 0 and "Bye." in r.output, r.output


@pytest.mark.parametrize("wins, shown", [(3, "3"), (4 / 3, "1.33"), (1 / 3 + 1 / 3 + 1 / 3, "1"),
                                         (1234567.5, "1234567.50"), (0, "0")])
def test_win_counts_read_as_numbers_whole_or_with_two_decimals(wins, shown):
    """Found by QA: simulate and ladder printed wins with %g: 1.33333, and past a million 1.23457e+06."""
    from meeple.cli.common import fmt_wins

    assert fmt_wins(wins) == shown


def test_test_runs_a_bundled_games_scenarios_by_its_name(tmp_path, monkeypatch):
    """`meeple test speicherstadt` said "no such file or folder", where every other command takes a
    bundled game's name: an installed package's scenarios are in site-packages, where nobody types a
    path. A name runs that game's bundled scenarios; `./name` is still a path; a bundled game without
    scenarios, or an unknown name, is still exit 2, with the names that have them."""
    monkeypatch.chdir(tmp_path)  # no `speicherstadt` file or folder here
    r = run("test", "--format", "json", "kuhn_poker", "speicherstadt")
    report = json.loads(r.stdout)
    assert r.exit_code == 0 and report["failed"] == 0 and report["passed"] >= 10, r.output
    assert {Path(x["file"]).name for x in report["results"]} == {"kuhn_poker.yaml", "speicherstadt.yaml"}
    r = run("test", "./speicherstadt")
    assert r.exit_code == 2 and "no such file or folder: speicherstadt" in r.output and "hint" not in r.output
    r = run("test", "tic_tac_toe")
    assert r.exit_code == 2 and "`tic_tac_toe` is a bundled ruleset without scenarios of its own" in r.output
    assert "the bundled scenarios are those of camel_up_off_season, demoludy," in r.output
