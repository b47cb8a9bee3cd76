"""The corpus of broken rulesets (tests/broken/): every file states, on its first line, the problem
that validation must report for it (`# expect: CODE line:col`), and the second line says what it
gets wrong. Errors must make loading fail; warnings (W codes) must leave the ruleset loadable.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from lark import Token
from lark.exceptions import UnexpectedToken
from meeple.errors import MeepleError, Problem
from meeple.language import parser as P
from meeple.loading.yamlsrc import split_lines
from meeple.runtime.rules import load_ruleset
from meeple.tools.report import render_json, render_text

CORPUS = sorted((Path(__file__).parent / "broken").glob("*.yaml"))
EXPECT = re.compile(rb"# expect: ([A-Z]+\d{3}) (\d+):(\d+)\n")


def expectation(path: Path) -> tuple[str, int, int]:
    m = EXPECT.match(path.read_bytes())
    assert m, f"{path.name}: the first line must be `# expect: CODE line:col`"
    return m.group(1).decode(), int(m.group(2)), int(m.group(3))


def validate(path: Path) -> tuple[bool, list[Problem]]:
    """(valid, problems): what `meeple validate` reports for one file."""
    try:
        rs = load_ruleset(path)
    except MeepleError as e:  # a broken ruleset (exit 1) or a file that is no ruleset at all (exit 2)
        return False, e.problems
    return True, rs.warnings


def test_corpus_covers_many_kinds_of_mistake() -> None:
    assert len(CORPUS) >= 40
    codes = {expectation(p)[0] for p in CORPUS}
    for layer in "YSPCW":  # YAML, schema, language syntax, meaning, warnings
        assert sum(c.startswith(layer) for c in codes) >= 4, codes
    assert len(codes) >= 40
    for p in CORPUS:
        assert p.stem.split("_")[0].upper() == expectation(p)[0], f"{p.name}: name it after its code"


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_broken_ruleset_reports_its_problem_at_the_exact_place(path: Path) -> None:
    code, line, col = expectation(path)
    valid, problems = validate(path)
    assert valid == code.startswith("W"), [str(p) for p in problems]
    found = [(p.code, p.span.line, p.span.col) for p in problems if p.span is not None]
    assert (code, line, col) in found, [str(p) for p in problems]
    lines = split_lines(path.read_bytes().decode("utf-8", "replace"))
    for p in problems:  # every problem is located inside this file
        assert p.span is not None and Path(p.span.file).resolve() == path.resolve(), str(p)
        assert 1 <= p.span.line <= len(lines) and 1 <= p.span.col <= len(lines[p.span.line - 1]) + 1, str(p)
        assert p.message and p.severity in ("error", "warning")


@pytest.mark.parametrize("path", CORPUS[::7], ids=lambda p: p.stem)
def test_reports_render(path: Path) -> None:
    code, line, col = expectation(path)
    _, problems = validate(path)
    text = render_text(problems)
    assert f":{line}:{col}: " in text and f"[{code}]" in text and "^" in text
    data = json.loads(render_json(problems))
    assert any(d["code"] == code and (d["line"], d["column"]) == (line, col) for d in data["problems"])


def test_one_run_reports_problems_of_every_script(tmp_path: Path) -> None:
    """A syntax error in one script does not hide a meaning error in another."""
    text = (Path(__file__).parent / "broken" / "c001_undefined_name.yaml").read_text()
    text = text.replace("setup: |\n  move(", "setup: |\n  if x\n  move(")
    path = tmp_path / "two.yaml"
    path.write_text(text)
    valid, problems = validate(path)
    assert not valid
    assert [p.code for p in problems if p.severity == "error"] == ["P001", "C001"]
    assert not [p for p in problems if p.severity == "warning"]  # warnings are unreliable then


HOSTILE = {
    "binary": bytes(range(256)) * 64,
    "empty": b"",
    "ten_megabytes": b"a: 1\n" * (2 * 1024 * 1024),
    "deep_flow": b"meeple: " + b"[" * 10_000 + b"]" * 10_000 + b"\n",
    "deep_block": b"".join(b" " * i + b"k:\n" for i in range(10_000)),
    "alias_bomb": b"\n".join([b'a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
                             + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]".encode() for i in range(1, 10)]),
    "deep_script": b"meeple: 1\nflow: |\n  x = " + b"(" * 5_000 + b"1" + b")" * 5_000 + b"\n",
    "long_script": b"meeple: 1\nname: x\nplayers: {min: 1, max: 2}\nscoring: {score: '1'}\nflow: |\n  x = "
                   + b" + ".join([b"1"] * 20_000) + b"\n",
    "many_scripts": b"meeple: 1\nname: x\nplayers: {min: 1, max: 2}\nscoring: {score: '1'}\nflow: pass\n"
                    b"procedures:\n" + b"".join(b"  p%d: |\n    x = " % i + b" + ".join([b"1"] * 4_000) + b"\n"
                                                for i in range(100)),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_files_get_a_clear_located_error(tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.yaml"
    path.write_bytes(HOSTILE[name])
    with pytest.raises(MeepleError) as info:
        load_ruleset(path)
    # many long scripts are parsed only up to a budget of characters, which bounds the time it takes
    # (measured by no clock: a loaded machine would make such a test fail for no fault of the code)
    if name == "many_scripts":
        assert any(p.code == "P006" for p in info.value.problems), info.value
    # a file that is no ruleset at all (empty, binary) is a usage error; a broken ruleset is invalid input
    assert info.value.exit_code == (2 if name in ("binary", "empty") else 1)
    assert all(p.span is not None and p.span.line >= 1 for p in info.value.problems), info.value


@pytest.mark.parametrize("name", ["c023_typo_in_anchor", "c002_typo_in_anchor_handler", "s001_wrong_type_in_anchor"])
def test_a_mistake_inside_a_yaml_anchor_is_reported_once_at_the_anchor(name: str) -> None:
    """Three items merge the anchor; the mistake is one line of YAML, so it is one problem."""
    valid, problems = validate(Path(__file__).parent / "broken" / f"{name}.yaml")
    assert not valid and len(problems) == 1, [str(p) for p in problems]


def test_a_variant_may_add_an_item_it_marks_new(tmp_path: Path) -> None:
    """`bnak:` is refused as a misspelling (V009); `bank_2: {new: true}` adds a card."""
    path = tmp_path / "v.yaml"
    path.write_text("meeple: 1\nextends: speicherstadt\ncomponents:\n  card:\n    items:\n"
                    "      bank_2: {new: true, name: Bank II, type: bank, season: C}\n")
    rs = load_ruleset(path)
    (c,) = [c for c in rs.components if c.item == "bank_2"]
    assert c.attrs["type"] == "bank" and "new" not in c.attrs
    path.write_text("meeple: 1\nextends: speicherstadt\ncomponents:\n  card:\n    items:\n"
                    "      bank: {new: true}\n")
    valid, problems = validate(path)
    assert not valid and [p.code for p in problems] == ["V009"]


@pytest.mark.parametrize("name, meeple_way", [
    ("c001_python_none", "`none`"), ("c003_python_len", "count("), ("c003_python_range", "between("),
    ("c003_python_str", "text("), ("p001_python_fstring", "drop the `f`"), ("p001_python_def", "procedures:"),
    ("p001_python_is", "=="), ("p001_python_tuple", "[1, 0]"), ("p001_python_chained_comparison", " and "),
    ("p001_option_outside_choose", "choose"), ("s001_score_number", '`score: "0"`'),
    ("s001_tiebreak_item_number", 'quote it so that YAML reads text: `"7"`'),
    ("c023_undeclared_attribute", "`value`"), ("c024_literal_no_item_has", "`fireman`"),
    ("c025_gain_negative", "pay("), ("v009_variant_item_not_in_base", "`bank`"),
    ("c013_reveal_counter", "log("), ("w012_reveal_in_hand", "public zone"),
    ("s003_variant_base", "did you mean `extends`?"), ("s003_include_library", "did you mean `import`?"),
    ("w004_variant_constant_misspelt", "did you mean `draw_count`?"), ("w005_variant_counter_misspelt", "did you mean `coins`?"),
    ("w014_variant_attribute_misspelt", "did you mean `cost`?"), ("s007_scenario_file", "meeple test"), ("p001_python_nested_comprehension", "flatten("),
    ("w001_variant_phase_misspelt", "did you mean `trade`?"), ("w002_variant_procedure_misspelt", "did you mean `sell`?"),
    ("s001_variant_items_list", "`ship: {name: \"Ship\", type: \"ship\", cost: 6, count: 14}`")])
def test_the_hint_names_the_meeple_way(name: str, meeple_way: str) -> None:
    """A Python habit (or a near miss) gets a hint naming what to write instead."""
    _, problems = validate(Path(__file__).parent / "broken" / f"{name}.yaml")
    assert any(meeple_way in (p.hint or "") for p in problems), [(str(p), p.hint) for p in problems]


def test_attributes_are_declared_by_defaults_attributes_or_every_item(tmp_path: Path) -> None:
    """`bonus` is on one item only: fine once `attributes:` declares it; `bonsu` is still a misspelling."""
    base = Path(__file__).parent / "broken" / "c023_undeclared_attribute.yaml"
    text = base.read_text().replace("        valeu: 2", "        value: 2\n        bonus: 1")
    path = tmp_path / "t.yaml"
    path.write_text(text)
    valid, problems = validate(path)
    assert not valid and [(p.code, "`bonus`" in p.message) for p in problems] == [("C023", True)]
    path.write_text(text.replace("    defaults: {value: 0}", "    defaults: {value: 0}\n    attributes:\n"
                                 "      bonus: extra points at the end"))
    valid, problems = validate(path)
    assert valid, [str(p) for p in problems]
    path.write_text(path.read_text().replace("bonus: 1", "bonsu: 1"))
    valid, problems = validate(path)
    assert not valid and "did you mean `bonus`?" in (problems[0].hint or "")


@pytest.mark.parametrize("script, where", [("if x:\n    y = [1, 2\n", (2, 9)), ("if x:\n    y = (1 +\n", (2, 13))])
def test_a_block_closed_by_the_end_of_the_text_is_placed_without_the_token_s_position(script, where) -> None:
    """Bug: lark before 1.2 (which pyproject admits) gives the end of a block closed by the end of the text
    no line, and the report of a script ending inside a bracket raised a TypeError. Such a token is placed
    where the text ends, as newer lark places it."""
    def origin(ln, c, el, ec):
        return (ln, c)

    with pytest.raises(UnexpectedToken) as raised:
        P._lark().parse(script, start="start")
    e = raised.value
    assert e.token.type == "_DEDENT"
    e.token, e.line, e.column = Token("_DEDENT", ""), None, None  # as lark 1.1 raises it
    from_lark_1_1 = P._syntax_problem(e, script, origin)
    with pytest.raises(MeepleError) as reported:
        P.parse_script(script, origin)
    (as_reported,) = reported.value.problems
    assert from_lark_1_1.span == as_reported.span == where
    assert (from_lark_1_1.code, from_lark_1_1.message) == (as_reported.code, as_reported.message)
