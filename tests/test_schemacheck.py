"""schemacheck answers "does this document pass the schema?" exactly as jsonschema does.

`meeple validate` takes a pass from schemacheck without importing jsonschema, so a document it passes
must be one jsonschema passes: the two are compared on every bundled file, every broken example and
mutated copies of the bundled rulesets (wrong types, missing and unknown keys, duplicates, NaN, 1.0).
"""

from __future__ import annotations

import copy
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from meeple.errors import MeepleError
from meeple.loading.schema import load_schema, validate_document
from meeple.loading.schemacheck import Unsupported, compile_schema, equal, unique
from meeple.loading.yamlsrc import load_yaml_file, load_yaml_text

from tests.support import examples

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted([*ROOT.glob("rulesets/**/*.yaml"), *ROOT.glob("tests/rulesets/*.yaml"),
                *ROOT.glob("tests/scenarios/*.yaml"), *ROOT.glob("tests/broken/*.yaml")])
RULESETS = sorted(p for p in ROOT.glob("rulesets/*.yaml"))


def _data(path: Path):
    try:
        return load_yaml_file(path).data
    except MeepleError:  # not YAML at all: nothing for a schema to check
        return None


# The broken examples that are not YAML at all have nothing for a schema to check.
DOCUMENTS = [p for p in FILES if _data(p) is not None]


def schema_of(path: Path) -> str:
    return "scenario" if "scenarios" in path.parts else "meeple"


def verdicts(data, name: str) -> tuple[bool, bool]:
    """(schemacheck's verdict, jsonschema's)."""
    return compile_schema(load_schema(name))(data), not any(Draft202012Validator(load_schema(name)).iter_errors(data))


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_same_verdict_on_every_file(path):
    quick, full = verdicts(_data(path), schema_of(path))
    assert quick == full


def test_files_of_both_verdicts_are_compared():
    # the comparison above can fail: the files include documents the schema refuses
    results = [verdicts(_data(p), schema_of(p))[1] for p in DOCUMENTS]
    assert results.count(True) >= 20 and results.count(False) >= 10


ODD_VALUES = [None, True, False, 0, 1, -1, 2.0, 1.5, math.nan, math.inf, "", "x", "Bad Name", "ok_name", [], {},
              [1, 1], ["a", "a"], [1, True], [1, 1.0], {"x": 1}, {"id": "a"}, {"initial": 1}, ["a", 1]]


def _paths(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _paths(v, (*prefix, i))


def _mutate(data, choice: int, what: int, value) -> None:
    paths = list(_paths(data))[1:]
    path = paths[choice % len(paths)]
    parent = data
    for k in path[:-1]:
        parent = parent[k]
    key = path[-1]
    if what == 0:
        parent[key] = value
    elif what == 1:
        del parent[key]
    elif what == 2 and isinstance(parent, dict):
        parent["zz_unknown" if value is None else next(iter(parent))] = value
        parent[str(value)] = copy.deepcopy(parent[key])  # a key the schema may not allow
    elif isinstance(parent, list):
        parent.append(copy.deepcopy(parent[key]))  # a duplicate item
    else:
        parent[key] = [parent[key]]  # one more level of nesting


@settings(max_examples=examples(150, 3000), derandomize=True, deadline=None, database=None)
@given(st.sampled_from(RULESETS), st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 3),
                                                     st.sampled_from(ODD_VALUES)), min_size=1, max_size=3))
def test_the_same_verdict_on_mutated_rulesets(path, mutations):
    data = copy.deepcopy(_data(path))
    for choice, what, value in mutations:
        _mutate(data, choice, what, copy.deepcopy(value))
    quick, full = verdicts(data, "meeple")
    assert quick == full


def test_jsonschema_equality_and_uniqueness():
    assert not equal(True, 1) and not equal(False, 0) and equal(1, 1.0) and equal([1, {"a": True}], [1.0, {"a": True}])
    assert unique([1, True]) and unique([0, False]) and not unique([1, 1.0]) and not unique([[1], [1]])
    assert unique(["a", 1, "b"]) and not unique(["a", 1, "a"])  # unsortable: compared pair by pair


def test_a_keyword_it_does_not_know_leaves_the_document_to_jsonschema():
    with pytest.raises(Unsupported):
        compile_schema({"type": "object", "properties": {"a": {"multipleOf": 3}}})
    with pytest.raises(Unsupported):
        compile_schema({"$ref": "other.json#/x"})
    # a self-referring definition compiles, and is checked at every depth
    tree = compile_schema({"$ref": "#/$defs/t", "$defs": {"t": {"type": "array", "items": {"$ref": "#/$defs/t"}}}})
    assert tree([[], [[]]]) and not tree([[], [[1]]])


def test_problems_are_still_reported_by_jsonschema():
    doc = load_yaml_text("meeple: 1\nname: 3\nplayers: {min: 2, max: 4}\n", "r.yaml")
    problems = validate_document(doc)
    assert ("S001", 2) in [(p.code, p.span.line) for p in problems]
