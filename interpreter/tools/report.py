"""Render problems for people (rustc-style text with carets) or for tools (JSON)."""

from __future__ import annotations

import json

from meeple.errors import Problem
from meeple.loading.yamlsrc import MAX_BYTES, split_lines

_COLORS = {"error": "\x1b[1;31m", "warning": "\x1b[1;33m", "gutter": "\x1b[34m", "hint": "\x1b[36m",
           "bold": "\x1b[1m"}
_RESET = "\x1b[0m"
_MAX_SHOWN = 200  # long lines (minified or binary files) are cut so carets stay readable


def _count(problems: list[Problem]) -> tuple[int, int]:
    errors = sum(1 for p in problems if p.severity == "error")
    return errors, len(problems) - errors


def summary(problems: list[Problem]) -> str:
    errors, warnings = _count(problems)
    return f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}"


def _read_source(file: str) -> list[str] | None:
    # Only when the caller passed no sources: the file on disk is usually what was loaded.
    try:
        with open(file, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except OSError:
        return None
    if len(raw) > MAX_BYTES:
        return None
    return split_lines(raw.decode("utf-8-sig", errors="replace"))


def render_text(problems: list[Problem], sources: dict[str, str] | None = None, color: bool = False,
                file: str | None = None) -> str:
    """`file` names where the problems without a place are (a file that is missing or unreadable)."""
    def paint(kind: str, text: str) -> str:
        return f"{_COLORS[kind]}{text}{_RESET}" if color else text

    lines_of: dict[str, list[str] | None] = {}
    out: list[str] = []
    for p in problems:
        tone = p.severity if p.severity in ("error", "warning") else "error"
        label = paint(tone, f"{p.severity}[{p.code}]")
        where = f"{p.span}: " if p.span else f"{file}: " if file else ""
        out.append(f"{where}{label}: {paint('bold', p.message) if color else p.message}")
        span = p.span
        if span is not None and span.file not in lines_of:
            if sources is not None:
                lines_of[span.file] = split_lines(sources[span.file]) if span.file in sources else None
            else:
                lines_of[span.file] = _read_source(span.file)
        lines = lines_of.get(span.file) if span is not None else None
        if span is not None and lines is not None and 1 <= span.line <= len(lines):
            text = lines[span.line - 1][:_MAX_SHOWN]
            width = max(5, len(str(span.line)))
            start = min(span.col, len(text) + 1)
            # keep tabs from the line in the padding so the caret lines up in any terminal
            pad = "".join(c if c == "\t" else " " for c in text[:start - 1])
            same_line = span.end_line == span.line and span.end_col >= span.col
            length = max(1, min(span.end_col, len(text)) - start + 1) if same_line else 1
            out.append(f"{paint('gutter', f'{span.line:>{width}} |')} {text}")
            out.append(f"{paint('gutter', ' ' * width + ' |')} {pad}{paint(tone, '^' * length)}")
        if p.hint:
            out.append(f"  {paint('hint', 'hint')}: {p.hint}")
    out.append(summary(problems))
    return "\n".join(out) + "\n"


def problem_json(p: Problem, file: str | None = None) -> dict:
    """One problem for tools: lines and columns 1-based, columns in characters (code points), the end
    inclusive; `file` is where a problem without a place is (a file that is missing or unreadable)."""
    s = p.span
    return {
        "file": s.file if s else file,
        "line": s.line if s else None,
        "column": s.col if s else None,
        "end_line": (s.end_line or s.line) if s else None,
        "end_column": (s.end_col or s.col) if s else None,
        "severity": p.severity,
        "code": p.code,
        "message": p.message,
        "hint": p.hint,
    }


def report_json(found: list[tuple[Problem, str | None]]) -> dict:
    """The JSON report of problems, each with the file a problem without a place was found for."""
    errors, warnings = _count([p for p, _ in found])
    return {"problems": [problem_json(p, file) for p, file in found], "errors": errors, "warnings": warnings}


def render_json(problems: list[Problem], file: str | None = None) -> str:
    return json.dumps(report_json([(p, file) for p in problems]), indent=2, ensure_ascii=False)
