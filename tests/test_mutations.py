"""Mutation testing of validation: damage the bundled rulesets in many ways and check that loading
never shows a Python traceback (only MeepleError), and that every rejected file gets located problems.

Mutations work on the text, as an author's editor would: delete a key, change a value's type,
corrupt a token of a script, truncate, duplicate an item, rename a reference, re-indent a line.
Derandomized so that CI runs the same examples every time.
"""

from __future__ import annotations

import random
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from meeple.errors import MeepleError, RulesetError
from meeple.loading.files import rulesets_dir
from meeple.loading.yamlsrc import split_lines
from meeple.runtime.rules import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
# games, variants and libraries, by their path under rulesets/
SOURCES = {str(p.relative_to(ROOT / "rulesets")): p.read_text(encoding="utf-8")
           for p in sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((ROOT / "rulesets").glob("*/*.yaml"))
           if "scenarios" not in p.parts}
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
KEY_LINE = re.compile(r"^(\s*)(- )?([A-Za-z_][A-Za-z0-9_]*):")
TOKENS = ["(", ")", "[", "]", ":", "=", "==", "+", "-", ",", ".", "{", "}", "\"", "'", "if", "for", "in",
          "choose", "option", "break", "return", "phase", "trigger", "end_game", "not", "none", "7",
          "players", "p", "count", "xyz", "\t", "#", "\\", "$", "    ", "\n", "\n        "]
VALUES = ["[1, 2]", "{a: 1}", "'text'", "7", "-3", "true", "~", "", "[]", "{}", "&x 1", "*x", "!!str 1",
          "|\n  pass", ">-\n  folded", "0x1F", "1.5"]


def _lines(text: str) -> list[str]:
    return text.split("\n")


def delete_key(text: str, r: random.Random) -> str:
    lines = _lines(text)
    keys = [i for i, ln in enumerate(lines) if KEY_LINE.match(ln)]
    if not keys:
        return text
    i = r.choice(keys)
    indent = len(lines[i]) - len(lines[i].lstrip())
    j = i + 1
    while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent):
        j += 1
    return "\n".join(lines[:i] + lines[j:])


def change_type(text: str, r: random.Random) -> str:
    lines = _lines(text)
    keys = [i for i, ln in enumerate(lines) if KEY_LINE.match(ln)]
    if not keys:
        return text
    i = r.choice(keys)
    m = KEY_LINE.match(lines[i])
    assert m
    lines[i] = lines[i][:m.end()] + " " + r.choice(VALUES)
    return "\n".join(lines)


def corrupt_token(text: str, r: random.Random) -> str:
    """Replace, insert or delete a token inside a script (the lines of a `|` block, or a one-liner)."""
    spots = [m for m in re.finditer(r"[A-Za-z_][A-Za-z0-9_]*|[()\[\]{}:=+,.<>\"-]+", text)]
    if not spots:
        return text
    m = r.choice(spots)
    how = r.randrange(3)
    new = r.choice(TOKENS)
    if how == 0:
        return text[:m.start()] + new + text[m.end():]
    if how == 1:
        return text[:m.start()] + new + text[m.start():]
    return text[:m.start()] + text[m.end():]


def truncate(text: str, r: random.Random) -> str:
    return text[:r.randrange(len(text))]


def duplicate_item(text: str, r: random.Random) -> str:
    lines = _lines(text)
    items = [i for i, ln in enumerate(lines) if re.match(r"\s*- (\{?id:|&)", ln)]
    if not items:
        return text
    i = r.choice(items)
    indent = len(lines[i]) - len(lines[i].lstrip())
    j = i + 1
    while j < len(lines) and lines[j].strip() and len(lines[j]) - len(lines[j].lstrip()) > indent:
        j += 1
    block = [ln.replace("&", "&dup") for ln in lines[i:j]]
    return "\n".join(lines[:j] + block + lines[j:])


def rename_reference(text: str, r: random.Random) -> str:
    """Rename one occurrence of a name (a use or a definition), or every occurrence but one."""
    words = [m for m in NAME.finditer(text)]
    if not words:
        return text
    m = r.choice(words)
    new = r.choice([m.group() + "x", m.group()[:-1] or "q", "coins", "deck", "self", "owner", "box"])
    if r.random() < 0.7:
        return text[:m.start()] + new + text[m.end():]
    return re.sub(rf"\b{re.escape(m.group())}\b", new, text[:m.start()]) + text[m.start():]


def reindent(text: str, r: random.Random) -> str:
    lines = _lines(text)
    i = r.randrange(len(lines))
    lines[i] = (" " * r.choice([1, 2, 4])) + lines[i] if r.random() < 0.5 else lines[i][r.choice([1, 2, 4]):]
    return "\n".join(lines)


MUTATIONS = [delete_key, change_type, corrupt_token, truncate, duplicate_item, rename_reference, reindent]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("mutants")


def check_mutant(text: str, relpath: str, workdir: Path) -> None:
    """Load the mutant in a fresh copy of the bundled rulesets (so a variant finds its base game by
    its relative path), and check what loading reports."""
    tree = Path(tempfile.mkdtemp(dir=workdir))
    for rel, source in SOURCES.items():
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        (tree / rel).write_text(text if rel == relpath else source, encoding="utf-8")
    path = tree / relpath
    try:
        load_ruleset(path, allow=[tree])  # a variant names its base as `../game.yaml`: allow the whole copy
    except RulesetError as e:
        assert e.problems
        for p in e.problems:  # every problem is located: in this file, or in the base game it changes
            assert p.span is not None, p
            where = Path(p.span.file).resolve()
            assert where == path.resolve() or where.is_relative_to(tree.resolve()) or where.is_relative_to(
                ROOT / "rulesets") or where.is_relative_to(rulesets_dir().resolve()), p  # a base named by name
            lines = split_lines(where.read_text(encoding="utf-8"))
            assert 1 <= p.span.line <= len(lines), p
            assert 1 <= p.span.col <= len(lines[p.span.line - 1]) + 1, p
    except MeepleError:
        pass  # a usage error (an import or base game that does not exist): reported, no traceback
    finally:
        shutil.rmtree(tree, ignore_errors=True)


@settings(max_examples=150, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(SOURCES)), ops=st.lists(st.sampled_from(MUTATIONS), min_size=1, max_size=3),
       seed=st.integers(0, 2**32 - 1))
def test_mutated_rulesets_never_crash_and_are_located(workdir: Path, name: str, ops: list, seed: int) -> None:
    r = random.Random(seed)
    text = SOURCES[name]
    for op in ops:
        if text:
            text = op(text, r)
    check_mutant(text, name, workdir)


@pytest.mark.parametrize("op", MUTATIONS, ids=lambda f: f.__name__)
def test_each_mutation_on_each_ruleset(workdir: Path, op) -> None:
    """Every kind of mutation, a few times on every bundled ruleset: a quick, readable smoke test."""
    for name, text in SOURCES.items():
        for seed in range(3):
            check_mutant(op(text, random.Random(seed)), name, workdir)
