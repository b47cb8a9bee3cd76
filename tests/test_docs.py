"""The language reference lists every built-in, as the registry describes it."""

import re
from pathlib import Path

from meeple.language.builtins import SIGNATURES, reference_table
from meeple.runtime.library import REGISTRY

DOC = Path(__file__).resolve().parent.parent / "docs" / "language.md"


def test_reference_table_is_current():
    text = DOC.read_text(encoding="utf-8")
    table = re.search(r"<!-- begin primitives -->\n(.*?)\n<!-- end primitives -->", text, re.DOTALL)
    assert table, "docs/language.md lost its primitives markers"
    assert table.group(1) == reference_table(), (
        "docs/language.md is out of date: run `python -m meeple.language.builtins` to regenerate the table")


def test_every_primitive_is_documented_with_an_example_or_sentence():
    for p in SIGNATURES.values():
        assert p.doc, f"{p.name} has no documentation"


def test_every_signature_has_exactly_one_implementation():
    # the language declares each built-in once (language/builtins.py); the runtime implements each once
    assert sorted(REGISTRY) == sorted(SIGNATURES)
