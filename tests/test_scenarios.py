"""Every rule scenario under rulesets/scenarios/ and tests/scenarios/ is a test."""

from pathlib import Path

import pytest

from interpreter.report import render_text
from interpreter.scenarios import run_file

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "rulesets" / "scenarios").glob("*.yaml")) + sorted((ROOT / "tests" / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_scenario_file(path):
    results = run_file(path)
    assert results, f"{path} holds no scenarios"
    failed = [r for r in results if not r.ok]
    assert not failed, "\n".join(f"{r.name}:\n{render_text(r.problems)}" for r in failed)
