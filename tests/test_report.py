"""The text and JSON reporters."""

from __future__ import annotations

import json

from meeple.errors import Problem, Span
from meeple.tools.report import render_json, render_text

SOURCE = "meeple: 1\nname: x\n\tcunters:\n  cunters:\n    a: 1\n"


def problem(line: int, col: int, end_line: int, end_col: int, **kw) -> Problem:
    kw.setdefault("code", "S003")
    kw.setdefault("message", "unknown key `cunters`")
    return Problem(span=Span("file.yaml", line, col, end_line, end_col), **kw)


def test_text_with_caret_under_the_span_hint_and_summary() -> None:
    text = render_text([problem(4, 3, 4, 9, hint="did you mean `counters`?")], {"file.yaml": SOURCE})
    assert text == (
        "file.yaml:4:3: error[S003]: unknown key `cunters`\n"
        "    4 |   cunters:\n"
        "      |   ^^^^^^^\n"
        "  hint: did you mean `counters`?\n"
        "1 error, 0 warnings\n")


def test_multi_line_span_gets_one_caret_and_tabs_are_kept_in_padding() -> None:
    text = render_text([problem(3, 2, 5, 8)], {"file.yaml": SOURCE})
    assert "      | \t^\n" in text


def test_summary_counts_and_problems_without_span() -> None:
    items = [problem(1, 1, 1, 6), Problem("Y004", "the file is too large"),
             Problem("W001", "unused constant", severity="warning"),
             problem(2, 7, 2, 7, severity="warning")]
    text = render_text(items, {"file.yaml": SOURCE})
    assert "error[Y004]: the file is too large\n" in text
    assert text.count(" | ") == 4  # two problems with a span, two gutter lines each
    assert text.endswith("2 errors, 2 warnings\n")


def test_missing_source_prints_no_lines_and_reads_the_file_when_no_sources(tmp_path) -> None:
    only = problem(2, 1, 2, 4)
    assert " | " not in render_text([only], {})
    path = tmp_path / "r.yaml"
    path.write_text(SOURCE)
    text = render_text([Problem("S001", "bad", Span(str(path), 2, 7, 2, 7))])
    assert "    2 | name: x\n      |       ^\n" in text


def test_span_past_the_line_end_and_line_out_of_range() -> None:
    text = render_text([problem(2, 20, 2, 30), problem(99, 1, 99, 1)], {"file.yaml": SOURCE})
    assert "    2 | name: x\n      |        ^\n" in text
    assert "99 |" not in text


def test_color_adds_ansi_codes_only_when_asked() -> None:
    plain = render_text([problem(4, 3, 4, 9)], {"file.yaml": SOURCE})
    colored = render_text([problem(4, 3, 4, 9)], {"file.yaml": SOURCE}, color=True)
    assert "\x1b[" not in plain and "\x1b[" in colored


def test_json() -> None:
    items = [problem(4, 3, 4, 9, hint="h"), Problem("Y002", "empty", severity="warning")]
    data = json.loads(render_json(items))
    assert data["errors"] == 1 and data["warnings"] == 1
    assert data["problems"][0] == {
        "file": "file.yaml", "line": 4, "column": 3, "end_line": 4, "end_column": 9,
        "severity": "error", "code": "S003", "message": "unknown key `cunters`", "hint": "h"}
    assert data["problems"][1]["file"] is None and data["problems"][1]["hint"] is None
    assert json.loads(render_json([])) == {"problems": [], "errors": 0, "warnings": 0}
