"""The examples of docs/interop.md run as written (each needing its extra is skipped without it)."""

import contextlib
import importlib.util
import io
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "interop.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


def needs(code: str) -> str | None:
    for module, extra in (("pettingzoo", "meeple.pettingzoo"), ("pyspiel", "meeple.openspiel")):
        if extra in code and importlib.util.find_spec(module) is None:
            return module
    return None


def test_the_document_has_its_three_examples():
    assert len(BLOCKS) == 3


@pytest.mark.parametrize("code", BLOCKS, ids=["chance", "pettingzoo", "openspiel"])
def test_example_runs(code, monkeypatch):
    missing = needs(code)
    if missing:
        pytest.skip(f"{missing} is not installed")
    monkeypatch.chdir(DOC.parent.parent)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {})  # noqa: S102 - the document's own example
    assert out.getvalue().strip()
