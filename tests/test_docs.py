"""The language reference lists every built-in, as the registry describes it."""

import re
import shlex
from pathlib import Path

import pytest
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


# Every example in the docs that shows a `$ meeple ...` command followed by its output.
EXAMPLES = Path(__file__).resolve().parent.parent / "docs"


def documented_runs():
    for doc in sorted(EXAMPLES.glob("*.md")):
        text = doc.read_text(encoding="utf-8")
        for block in re.findall(r"^```\n(\$ meeple [^\n]*)\n(.*?)^```$", text, re.DOTALL | re.MULTILINE):
            yield pytest.param(block[0][2:], block[1], id=f"{doc.name}: {block[0][2:]}")


@pytest.mark.parametrize("command,shown", list(documented_runs()))
def test_documented_command_output_is_what_it_prints(command, shown):
    from click.testing import CliRunner
    from meeple.cli.main import meeple

    args = shlex.split(command)[1:]
    result = CliRunner().invoke(meeple, args)
    assert result.exit_code == 0, result.output
    assert result.output.rstrip("\n") == shown.rstrip("\n"), (
        f"the docs show an output of `{command}` that it no longer prints: paste the real output")


def test_the_docs_show_some_runs():
    assert len(list(documented_runs())) >= 2
