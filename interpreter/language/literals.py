"""String literals of the language: text, and `{expr}` holes each parsed by the function the parser
passes in. `Origin` maps a position inside a snippet (or a hole) to its span in the YAML file.
"""

from __future__ import annotations

from collections.abc import Callable

from meeple.errors import Problem, RulesetError, Span
from meeple.language import ast as A

Origin = Callable[[int, int, int, int], Span]
ParseHole = Callable[[str, Origin], A.Expr]

_ESC = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "{": "{", "}": "}"}


def parse_string_literal(raw: str, span: Span, hole_origin: Callable[[int], Origin],
                         parse_hole: ParseHole) -> A.Str | A.Interp:
    """Split a quoted literal into text and `{expr}` holes. `{{` and `}}` are literal braces."""
    body = raw[1:-1]
    parts: list[str | A.Expr] = []
    buf: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            buf.append(_ESC.get(body[i + 1], body[i + 1]))
            i += 2
        elif ch == "{" and body.startswith("{{", i):
            buf.append("{")
            i += 2
        elif ch == "}" and body.startswith("}}", i):
            buf.append("}")
            i += 2
        elif ch == "{":
            end = body.find("}", i)
            if end < 0:
                raise RulesetError(Problem("P002", "this string opens `{` but never closes it", span,
                                           hint="write `{{` for a literal brace"))
            if buf:
                parts.append("".join(buf))
                buf = []
            parts.append(parse_hole(body[i + 1:end], hole_origin(i + 2)))
            i = end + 1
        else:
            buf.append(ch)
            i += 1
    if buf or not parts:
        parts.append("".join(buf))
    if len(parts) == 1 and isinstance(parts[0], str):
        return A.Str(span, parts[0])
    return A.Interp(span, tuple(parts))
