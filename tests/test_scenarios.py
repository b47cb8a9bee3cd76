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
