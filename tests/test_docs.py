"""The language reference lists every built-in, as the registry describes it."""

import re
from pathlib import Path

from interpreter.primitives import REGISTRY, reference_table

DOC = Path(__file__).resolve().parent.parent / "docs" / "language.md"


def test_reference_table_is_current():
    text = DOC.read_text(encoding="utf-8")
    table = re.search(r"<!-- begin primitives -->\n(.*?)\n<!-- end primitives -->", text, re.DOTALL)
    assert table, "docs/language.md lost its primitives markers"
    assert table.group(1) == reference_table(), (
        "docs/language.md is out of date: run `python -m interpreter.primitives` to regenerate the table")


def test_every_primitive_is_documented_with_an_example_or_sentence():
    for p in REGISTRY.values():
        assert p.doc, f"{p.name} has no docstring"
