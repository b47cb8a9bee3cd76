"""Every rule scenario under rulesets/scenarios/ and tests/scenarios/ is a test."""

from pathlib import Path

import pytest
from meeple.tools.report import render_text
from meeple.tools.scenarios import run_file

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "rulesets" / "scenarios").glob("*.yaml")) + sorted((ROOT / "tests" / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_scenario_file(path):
    results = run_file(path)
    assert results, f"{path} holds no scenarios"
    failed = [r for r in results if not r.ok]
    assert not failed, "\n".join(f"{r.name}:\n{render_text(r.problems)}" for r in failed)


def test_a_misspelt_refused_action_fails_instead_of_passing(tmp_path):
    # Regression: any label that matched no legal action counted as refused, so a typo made a test that
    # could never fail.
    path = tmp_path / "typo.yaml"
    path.write_text(f"""\
ruleset: {ROOT / "rulesets" / "speicherstadt.yaml"}
scenarios:
  - name: refused for a real reason
    players: 2
    steps:
      - {{act: "Buy Bank for 4", player: 1, refused: true}}
  - name: refused only because of a typo
    players: 2
    steps:
      - {{act: "Plase a worker at card 1", player: 1, refused: true}}
""")
    results = run_file(path)
    assert [r.ok for r in results] == [True, False]
    assert "no option of the ruleset can be labelled" in results[1].problems[0].message


SHOWDOWN = ROOT / "tests" / "rulesets" / "showdown.yaml"
ARRANGED = '    before_flow: |\n      move(king, deck, "top")\n      move(ace, deck, "top")\n'


def run_steps(tmp_path, steps: str, extra: str = ARRANGED):
    """One scenario of the showdown game with these steps (YAML lines under `steps:`)."""
    path = tmp_path / "sc.yaml"
    path.write_text(f"ruleset: {SHOWDOWN}\nscenarios:\n  - name: probe\n    players: 2\n{extra}    steps:\n{steps}")
    (result,) = run_file(path)
    return result


@pytest.mark.parametrize("step, message", [
    ('      - offered: "Bid 4"\n', "`Bid 4` is not offered to the deciding players"),
    ('      - {not_offered: "Bid*", player: 1}\n', "`Bid 1` is offered to P1, but must not be"),
    ('      - not_offered: "Pass"\n', "no option of the ruleset can be labelled `Pass`"),
    ('      - {menu_size: 2, player: 1}\n', "P1 has 3 options, expected 2"),
    ('      - menu_size: 2\n', "the deciding players have 3 options, expected 2"),
    # found by QA: "8 is not a seat: this game's seats are 0 to 1", 0-based, at the scenario's line
    ('      - {offered: "Bid 1", player: 9}\n', "there is no P9 in a 2-player game"),
    ('      - {not_offered: "Bid*", player: 3}\n', "there is no P3 in a 2-player game"),
    ('      - {menu_size: 2, player: 4}\n', "there is no P4 in a 2-player game"),
    ('      - {act: "Bid 1", player: 3}\n', "there is no P3 in a 2-player game"),
    ('      - {seen_by: 2, hides: ["King"]}\n', "P2 sees `King`, which must be hidden from them"),
    ('      - {seen_by: 2, shows: ["You drew Ace"]}\n', "P2 does not see `You drew Ace`"),
    (('      - remember: {before: "p1.coins"}\n      - {act: "Bid 1", player: 1}\n'
     '      - expect: {"before - p1.coins": 2}\n'), "`before - p1.coins` is 1, expected 2"),
    # a value is not a condition: `check: p1.coins` used to pass whenever the coins were not 0
    ('      - check: p1.coins\n', "`p1.coins` is 3, not true or false"),
])
def test_steps_that_look_without_acting_can_fail(tmp_path, step, message):
    result = run_steps(tmp_path, step)
    assert not result.ok and result.problems[0].message == message, [p.message for p in result.problems]
    assert result.problems[0].span is not None and result.problems[0].span.line >= 9  # a step's line (they start at 9)


def test_acting_for_a_seat_that_is_not_deciding_names_who_is(tmp_path):
    result = run_steps(tmp_path, '      - {act: "Bid 1", player: 2}\n')
    (p,) = result.problems
    assert p.hint.startswith("P2 is not deciding now; P1 is: P1 may Bid 1; Bid 2; Bid 3"), p.hint


def test_before_flow_arranges_the_start_and_setup_the_first_decision(tmp_path):
    """`before_flow` runs before the flow deals; `setup` after it has dealt (the first decision is open),
    so moving the Ace to the top of the deck there does not give it to P1."""
    check = '      - check: ace in p1.hand\n'
    assert run_steps(tmp_path, check).ok
    late = '    setup: |\n      move(king, deck, "top")\n      move(ace, deck, "top")\n'
    assert not run_steps(tmp_path, check, late).ok


def test_one_bad_scenario_does_not_stop_the_others(tmp_path):
    path = tmp_path / "sc.yaml"
    path.write_text(f"""ruleset: {SHOWDOWN}
scenarios:
  - name: fine before
    players: 2
    steps: [{{offered: "Bid 1"}}]
  - name: misspelt step
    players: 2
    steps: [{{ofered: "Bid 1"}}]
  - name: fine after
    players: 2
    steps: [{{menu_size: 3}}]
""")
    results = run_file(path)
    assert [(r.name, r.ok) for r in results] == [("fine before", True), ("misspelt step", False), ("fine after", True)]
    assert results[1].problems[0].span.line == 8
    path.write_text(path.read_text() + "descriptoin: a misspelt key of the file\n")
    (whole,) = run_file(path)  # a mistake outside every scenario fails the file
    assert whole.name == "(file)" and {p.span.line for p in whole.problems} == {8, 12}


def test_failure_lines_name_the_scenario(tmp_path):
    from click.testing import CliRunner
    from meeple.cli.main import meeple

    run_steps(tmp_path, '      - {menu_size: 2, player: 1}\n')
    r = CliRunner().invoke(meeple, ["test", str(tmp_path / "sc.yaml")])
    assert r.exit_code == 1 and f"{tmp_path / 'sc.yaml'}:9: probe: P1 has 3 options, expected 2" in r.output, r.output


def test_a_rulesets_warnings_are_not_shown_as_failures(tmp_path):
    """Found by QA: a scenario file whose ruleset fails to load printed the ruleset's warning as a FAIL
    line of its own, next to the error that failed it."""
    from click.testing import CliRunner
    from meeple.cli.main import meeple

    base = (Path(__file__).resolve().parent.parent / "rulesets" / "merchants.yaml").read_text()
    (tmp_path / "brk.yaml").write_text(base.replace("n = shown(g)", "n = shwn(g)"))
    (tmp_path / "sc.yaml").write_text("ruleset: brk.yaml\nscenarios:\n  - name: x\n    players: 2\n    steps: []\n")
    r = CliRunner().invoke(meeple, ["test", str(tmp_path / "sc.yaml")])
    lines = [line for line in r.output.splitlines() if not line.startswith("  hint")]
    assert r.exit_code == 1 and "0 passed, 1 failed" in r.output
    assert [line.split(" ")[0] for line in lines[:-1]] == ["warning", "FAIL"], r.output
    assert "schema comment" in lines[0] and "`shwn`" in lines[1]


@pytest.mark.parametrize("text, said", [
    ("", "not a scenario file: the file is empty"),
    ("- a\n- b\n", "not a scenario file: the file holds a list"),
])
def test_a_file_that_is_no_mapping_is_named_as_the_scenario_file_it_should_be(tmp_path, text, said):
    # It used to say "not a ruleset ... starts with `meeple: 1`": the wording of `meeple validate`.
    path = tmp_path / "sc.yaml"
    path.write_text(text)
    (whole,) = run_file(path)
    (problem,) = whole.problems
    assert whole.name == "(file)" and problem.code == "Y002" and problem.message.startswith(said)
    assert "`ruleset:`" in (problem.hint or "") and "meeple: 1" not in (problem.hint or "")


def test_a_misspelt_name_in_a_scenario_expression_gets_a_did_you_mean(tmp_path):
    result = run_steps(tmp_path, '      - expect: {"p1.coinz": 5}\n')
    assert not result.ok and result.problems[0].hint == "did you mean `coins`?"


@pytest.mark.parametrize("step, message", [
    # a misspelt text "was hidden" and passed: no text of the game could show it
    ('      - {seen_by: 2, hides: ["Kign"]}\n', "no text of the ruleset can show `Kign`, so hiding it checks nothing"),
    ('      - {seen_by: 2}\n', "`seen_by` without `shows` or `hides` checks nothing"),
])
def test_a_seen_by_step_that_could_never_fail_is_refused(tmp_path, step, message):
    result = run_steps(tmp_path, step)
    assert not result.ok and result.problems[0].message == message, [p.message for p in result.problems]
    assert run_steps(tmp_path, '      - {seen_by: 1, hides: ["King"], shows: ["P2", "Ace"]}\n').ok


def test_a_player_count_the_game_is_not_for_is_worded_and_located(tmp_path):
    path = tmp_path / "sc.yaml"
    path.write_text(f"ruleset: {SHOWDOWN}\nscenarios:\n  - name: three\n    players: 3\n    steps: [{{menu_size: 3}}]\n")
    (result,) = run_file(path)
    (p,) = result.problems
    assert p.message.endswith("is for 2 players, not 3") and p.span.line == 4, p


def test_a_shows_check_that_fails_after_a_line_naming_a_component_is_reported_not_a_traceback(tmp_path):
    """Found this stop: a failing `seen_by ... shows` looked its words up in the log, whose lines naming
    components are lists of parts, and `meeple test` ended in a TypeError."""
    from click.testing import CliRunner
    from meeple.cli.main import meeple

    root = Path(__file__).resolve().parent.parent
    text = (root / "rulesets" / "reference" / "kuhn_poker.yaml").read_text()
    (tmp_path / "kuhn.yaml").write_text(text.replace("    hand: {}", "    hand: {visibility: owner}"))
    (tmp_path / "sc.yaml").write_text(
        "ruleset: kuhn.yaml\nscenarios:\n  - name: shown\n    players: 2\n    seed: 3\n    steps:\n"
        "      - {act: Pass, player: 1}\n      - {act: Pass, player: 2}\n"
        "      - seen_by: 1\n        shows: [\"Showdown: K against Q\"]\n")
    r = CliRunner().invoke(meeple, ["test", str(tmp_path / "sc.yaml")])
    assert r.exit_code == 1 and not isinstance(r.exception, TypeError), r.output
    assert "P1 does not see `Showdown: K against Q`" in r.output
