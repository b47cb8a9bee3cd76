"""Loading YAML safely, with positions: every Y-code, the limits, and locate() exactness."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from meeple.errors import MeepleError, RulesetError, Span, UsageError
from meeple.loading.yamlsrc import Document, load_yaml_file, load_yaml_text


def load_error(text: str | bytes) -> MeepleError:
    with pytest.raises(MeepleError) as info:
        load_yaml_text(text, "r.yaml")
    return info.value


def only(err: MeepleError, code: str):
    assert len(err.problems) == 1
    problem = err.problems[0]
    assert problem.code == code, problem
    return problem


# ---- plain data ----------------------------------------------------------------------------

def test_plain_data_and_yaml12_scalars() -> None:
    doc = load_yaml_text(
        "meeple: 1\non: {turn: go}\nyes_no: [yes, no, on, off, true, False]\nn: ~\nf: 1.5\nh: 0x1F\n"
        "o: 0o17\ninf: -.inf\nd: 2024-01-01\nt: 1:30\nq: '3'\n1: key\n", "r.yaml")
    assert doc.data == {"meeple": 1, "on": {"turn": "go"},
                        "yes_no": ["yes", "no", "on", "off", True, False], "n": None, "f": 1.5,
                        "h": 31, "o": 15, "inf": float("-inf"), "d": "2024-01-01", "t": "1:30",
                        "q": "3", "1": "key"}


def test_explicit_safe_tags_and_merge_keys() -> None:
    doc = load_yaml_text("a: !!str 12\nb: !!int '7'\nbase: &b {x: 1, y: 2}\nc:\n  <<: *b\n  y: 3\n", "r")
    assert doc.data["a"] == "12" and doc.data["b"] == 7
    assert doc.data["c"] == {"y": 3, "x": 1}


def test_aliases_are_copied_not_shared() -> None:
    doc = load_yaml_text("a: &a [1, 2]\nb: *a\n", "r")
    doc.data["a"].append(3)
    assert doc.data["b"] == [1, 2]


def test_bom_and_crlf() -> None:
    doc = load_yaml_text("\ufeffa: 1\r\nb: |\r\n  x\r\n  y\r\n", "r")
    assert doc.data == {"a": 1, "b": "x\ny\n"}
    assert doc.locate(("b",), 2, 1) == Span("r", 4, 3, 4, 3)


# ---- spans -----------------------------------------------------------------------------------

SPANS = """\
meeple: 1
players:
  min: 2
  max: 5
list:
  - one
  - two
empty:
"""


def test_span_of_values_and_keys() -> None:
    doc = load_yaml_text(SPANS, "r.yaml")
    assert doc.span(("players", "max")) == Span("r.yaml", 4, 8, 4, 8)
    assert doc.span(("players", "max"), key=True) == Span("r.yaml", 4, 3, 4, 5)
    assert doc.span(("list", 1)) == Span("r.yaml", 7, 5, 7, 7)
    # a block mapping ends at its last content, not where the next key starts
    assert doc.span(("players",)) == Span("r.yaml", 3, 3, 4, 8)
    assert doc.line_text(6) == "  - one"


def test_span_falls_back_to_ancestor_and_empty_value_to_key() -> None:
    doc = load_yaml_text(SPANS, "r.yaml")
    assert doc.span(("players", "nope", 3)) == Span("r.yaml", 2, 1, 2, 7)
    assert doc.span(("empty",)) == Span("r.yaml", 8, 1, 8, 5)
    assert doc.span(()).line == 1


# ---- locate ----------------------------------------------------------------------------------

LOCATE = """\
name: x
flow: |
  first line
    second line
  third: line here
kept: |+
  a

strip: |2-
    indented
  base
plain: move(x, y)
single: 'say ''hi'' now'
double: "a\\tb c"
folded: >
  one two
  three

  four
"""


@pytest.mark.parametrize("path, line, col, expected", [
    (("flow",), 1, 1, (3, 3)),
    (("flow",), 3, 5, (5, 7)),
    (("flow",), 2, 3, (4, 5)),
    (("kept",), 1, 1, (7, 3)),
    (("strip",), 1, 3, (10, 5)),
    (("strip",), 2, 1, (11, 3)),
    (("plain",), 1, 6, (12, 13)),
    (("single",), 1, 5, (13, 14)),   # the quote in `say '` is written `''`
    (("single",), 1, 9, (13, 20)),
    (("double",), 1, 3, (14, 13)),   # after the two-character escape `\t`
    (("folded",), 1, 5, (16, 7)),
    (("folded",), 1, 9, (17, 3)),
    (("folded",), 2, 1, (19, 3)),
])
def test_locate_maps_script_positions_to_the_file(path, line, col, expected) -> None:
    doc = load_yaml_text(LOCATE, "r.yaml")
    span = doc.locate(path, line, col)
    assert (span.line, span.col) == expected
    value = doc.data[path[0]].split("\n")[line - 1][col - 1]
    assert doc.line_text(span.line)[span.col - 1] == value


def test_locate_with_end_and_unknown_paths() -> None:
    doc = load_yaml_text(LOCATE, "r.yaml")
    # the end is exclusive, as lark reports it (`third` is columns 1 to 5, end_column 6)
    assert doc.locate(("flow",), 3, 1, 3, 6) == Span("r.yaml", 5, 3, 5, 7)
    assert doc.locate(("flow",), 2, 3, 3, 1) == Span("r.yaml", 4, 5, 4, 15)  # up to the line break
    assert doc.locate(("flow",), 1, 1, 1, 1) == Span("r.yaml", 3, 3, 3, 3)  # empty: the start
    assert doc.locate(("folded",), 1, 5, 2, 3) == Span("r.yaml", 16, 7, 19, 4)
    fallback = doc.locate(("nope",), 1, 1)  # no such string: the nearest ancestor's span
    assert (fallback.line, fallback.col) == (1, 1)


# ---- errors ----------------------------------------------------------------------------------

def test_y001_syntax_error_is_located_in_plain_words() -> None:
    problem = only(load_error("a: 1\nb: c: d\n"), "Y001")
    assert (problem.span.line, problem.span.col) == (2, 5)
    assert "not allowed here" in problem.message
    problem = only(load_error("a:\n  b: 1\n c: 2\n"), "Y001")
    assert problem.span.line == 3 and "line up" in problem.message
    assert only(load_error("a: 'open\n"), "Y001").hint.startswith("a closing quote is missing")
    assert only(load_error("a: *nothing\n"), "Y001").span.col == 4


@pytest.mark.parametrize("text", ["", "# only a comment\n", "---\n", "- a list\n", "just text\n", "~\n"])
def test_y002_empty_or_not_a_mapping(text: str) -> None:
    only(load_error(text), "Y002")


def test_y003_duplicate_key_at_second_key() -> None:
    problem = only(load_error("a: 1\nb:\n  x: 1\n  y: 2\n  x: 3\n"), "Y003")
    assert (problem.span.line, problem.span.col) == (5, 3)
    assert problem.hint == "first defined at line 3"


def test_merged_keys_are_not_duplicates_but_written_ones_are() -> None:
    load_yaml_text("b: &b {x: 1}\nc: {<<: *b, x: 2}\n", "r")
    only(load_error("c: {x: 1, 'x': 2}\n"), "Y003")


def test_y004_ten_megabytes_refused(tmp_path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"a: 1\n" * (2 * 1024 * 1024))
    with pytest.raises(RulesetError) as info:
        load_yaml_file(big)
    only(info.value, "Y004")
    only(load_error("a: 1\n" * (2 * 1024 * 1024)), "Y004")


@pytest.mark.parametrize("text", [
    "a: " + "[" * 10_000 + "]" * 10_000,
    "a: " + "{b: " * 10_000 + "}" * 10_000,
    "- " * 10_000 + "x\n",
    "".join(" " * i + "k:\n" for i in range(1_500)),
])
def test_y005_deep_nesting_refused(text: str) -> None:
    only(load_error(text), "Y005")


def test_y005_depth_through_aliases() -> None:
    lines = ["a0: &a0 [x]"] + [f"a{i}: &a{i} [[[[[[[[[[*a{i - 1}]]]]]]]]]]" for i in range(1, 10)]
    only(load_error("\n".join(lines) + "\n"), "Y005")


def test_y006_billion_laughs_refused(tmp_path) -> None:
    lines = ['lol: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"l{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 9)]
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("\n".join(lines) + "\n")
    with pytest.raises(RulesetError) as info:
        load_yaml_file(bomb)
    only(info.value, "Y006")


def test_y006_recursive_alias() -> None:
    only(load_error("a: &x [1, *x]\n"), "Y006")


@pytest.mark.parametrize("data", [
    b"\x7fELF\x02\x01\x01\x00\x00\x00\x00garbage\x00\xff",
    bytes(range(256)) * 40,
    b"a: caf\xe9\n",
    b"a: \x01\x02\n",
])
def test_y007_binary_and_bad_encoding(tmp_path, data: bytes) -> None:
    path = tmp_path / "bin.yaml"
    path.write_bytes(data)
    with pytest.raises(MeepleError) as info:  # binary: not a ruleset at all (exit 2); a bad character: exit 1
        load_yaml_file(path)
    only(info.value, "Y007")


def test_y007_bad_utf8_is_located() -> None:
    problem = only(load_error(b"a: 1\nb: caf\xe9\n"), "Y007")
    assert (problem.span.line, problem.span.col) == (2, 7)


@pytest.mark.parametrize("text", [
    "a: !!python/object/apply:os.system ['echo hi']\n",
    "a: !!python/name:os.system\n",
    "a: !custom 1\n",
    "a: !!binary aGVsbG8=\n",
    "a: !!set {x, y}\n",
    "!!python/object:collections.OrderedDict {}\n",
])
def test_y008_forbidden_tags(text: str) -> None:
    problem = only(load_error(text), "Y008")
    assert problem.span is not None and "not allowed" in problem.message


def test_io01_usage_errors(tmp_path) -> None:
    for target in (tmp_path / "missing.yaml", tmp_path):
        with pytest.raises(UsageError) as info:
            load_yaml_file(target)
        assert info.value.exit_code == 2 and info.value.problems[0].code == "IO01"


def test_file_name_is_kept_as_given(tmp_path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text("meeple: 1\n")
    doc = load_yaml_file(path)
    assert isinstance(doc, Document) and doc.path == str(path)
    assert doc.span(("meeple",)).file == str(path)


def test_y006_merge_key_bomb_refused() -> None:
    lines = ["m0: &m0 {a: 1, b: 2, c: 3}"]
    lines += [f"m{i}: &m{i} {{<<: [" + ", ".join([f"*m{i - 1}"] * 10) + "]}" for i in range(1, 10)]
    only(load_error("\n".join(lines) + "\n"), "Y006")


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from([*"ab :-\n '\"|>[]{},#&*!?\\\t0.~é", "on", "<<", "\r\n", "\n  "]),
                max_size=60).map("".join))
def test_any_text_loads_or_fails_with_a_ruleset_error(text: str) -> None:
    try:
        doc = load_yaml_text("k: " + text, "r.yaml")
    except RulesetError as err:
        assert err.problems and all(p.code.startswith("Y") for p in err.problems)
        return
    value = doc.data.get("k")
    if isinstance(value, str) and value:
        for n, line in enumerate(value.split("\n"), 1):
            span = doc.locate(("k",), n, len(line) + 1)
            assert span.line >= 1 and span.col >= 1


# ---- every problem is located; one run reports every duplicate ---------------------------------

@pytest.mark.parametrize("text", [
    "", "\n\n", "# only a comment\n", "- a\n", "text\n", "a: 1\n" * (2 * 1024 * 1024 // 5 + 1),
    b"a: 1\nb: \x00\n", "a: [" + "[" * 100 + "]" * 101 + "\n", "a: &x [1, *x]\n", "a: !!python/none x\n",
    "a: b: c\n", "a: 'open\n",
])
def test_every_problem_has_a_location_in_the_file(text: str | bytes) -> None:
    err = load_error(text)
    assert err.problems and all(p.span is not None and p.span.file == "r.yaml" and p.span.line >= 1
                                for p in err.problems)


def test_not_a_ruleset_says_so() -> None:
    empty = only(load_error("# nothing\n"), "Y002")
    assert empty.message.startswith("not a ruleset") and (empty.span.line, empty.span.col) == (1, 1)
    assert "meeple: 1" in empty.hint
    assert "holds a list" in only(load_error("- a\n"), "Y002").message
    assert "holds a single value" in only(load_error("42\n"), "Y002").message


def test_nul_byte_is_located() -> None:
    problem = only(load_error(b"a: 1\nbc: d\x00\n"), "Y007")
    assert (problem.span.line, problem.span.col) == (2, 6)


def test_all_duplicate_keys_in_one_run() -> None:
    err = load_error("a: 1\na: 2\nb:\n  x: 1\n  x: 2\n  x: 3\n")
    assert [(p.code, p.span.line) for p in err.problems] == [("Y003", 2), ("Y003", 5), ("Y003", 6)]


def test_tab_indentation_is_explained() -> None:
    problem = only(load_error("a:\n\tb: 1\n"), "Y001")
    assert problem.message == "a tab cannot be used to indent"


def test_a_text_read_twice_under_two_names_keeps_each_name():
    # extends/import read a file twice; the second read reuses the composed nodes, never the name
    text = "a: 1\nb:\n  - x\n  - {c: 2}\n"
    one, two = load_yaml_text(text, "one.yaml"), load_yaml_text(text, "two.yaml")
    assert one.data == two.data and one.data is not two.data
    assert (one.span(("b", 1, "c")), two.span(("b", 1, "c"))) == (Span("one.yaml", 4, 9, 4, 9),
                                                                  Span("two.yaml", 4, 9, 4, 9))
    bad = "a: 1\na: 2\n"
    for name in ("one.yaml", "two.yaml"):
        with pytest.raises(RulesetError) as e:
            load_yaml_text(bad, name)
        assert e.value.problems[0].span.file == name


# ---- mistakes PyYAML notices only lines later ------------------------------------------------

RUNAWAY = """\
items:
  - id: first
    name: "First
    kind: plain
  - id: second
    name: "Second"
    kind: plain
  - id: third
"""


@pytest.mark.parametrize("quote", ['"', "'"])
def test_an_unclosed_quote_is_reported_where_it_opens(quote: str) -> None:
    # the quoted text runs on to the next quote (line 6) and the error shows only there
    problem = only(load_error(RUNAWAY.replace('"', quote)), "Y001")
    assert (problem.span.line, problem.span.col, problem.span.end_line) == (3, 11, 3)
    assert "not closed on its line" in problem.message and "line 6" in problem.message
    assert f"a closing `{quote}` is probably missing on line 3" in problem.hint
    assert "YAML fails at line 6" in problem.hint


def test_a_quoted_text_over_several_lines_is_no_runaway_quote() -> None:
    # a legitimate multi-line quoted text, then an unrelated mistake: the mistake is reported as before
    problem = only(load_error('a: "one\n  two"\nb:\n  c: 1\n d: 2\n'), "Y001")
    assert problem.span.line == 5 and "line up" in problem.message


def test_a_block_text_not_indented_under_its_key_is_pointed_at() -> None:
    text = "flow: |\n  go()\nincome: |\nfor p in players:\n    gain(p.coins, 1)\n    if p.bought == 0:\n"
    problem = only(load_error(text), "Y001")
    assert (problem.span.line, problem.span.col) == (4, 1)
    assert "not indented deeper than `income:` (line 3)" in problem.message
    assert "must be indented deeper than its key" in problem.hint and "YAML fails at line 6" in problem.hint
