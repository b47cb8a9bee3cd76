"""Numbers in a ruleset's data: whole, and within the engine's limit, like the numbers of its scripts.

The language's numbers are whole numbers within ±(2^53 − 1) (docs/language.md; P007 refuses a larger
one in a script). A number in the data (a constant, a counter's initial value, an attribute) reaches
the same scripts, so the schema says `integer` with the same bounds, and this module words what it
refuses: `3.5`, `.nan` and `.inf` (not whole), `99999999999999999999` (beyond the limit). YAML's `3.0`
and `1e3` are whole but read as decimal numbers, which the rules cannot use either, and JSON Schema
counts them as integers: `decimal_problems` finds those.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

from meeple.errors import Problem, Span

# The language's numbers: data and scripts alike (the parser's P007 reads it from here, a later stage).
MAX_NUMBER = 2**53 - 1  # exact in JSON (a double) everywhere a game goes

WHOLE = f"the rules' numbers are whole numbers within ±{MAX_NUMBER:,}"


def written(span: Span, line_text: Callable[[int], str] | None, value: Any) -> str:
    """The value as the file writes it (`.nan`, `1e3`), or as Python shows it when that is unknown."""
    text = ""
    if line_text is not None and span.line == span.end_line:
        text = line_text(span.line)[span.col - 1:span.end_col]
    return text.strip() or repr(value)


def explain(rule: Any, bound: Any, value: Any, where: str, span: Span,
            line_text: Callable[[int], str] | None) -> Problem | None:
    """A schema error about a number, in plain words: `3.5`, `.nan` or `.inf` where a whole number
    belongs (S001), a number beyond the engine's limit (S005, as P007 says it of a script's number).
    None for any other error."""
    types = ([bound] if isinstance(bound, str) else list(bound)) if rule == "type" else []
    limit = rule in ("minimum", "maximum") and isinstance(bound, int) and abs(bound) == MAX_NUMBER
    # `.inf` fails both the type and the bound: both errors get the same words, reported once
    if isinstance(value, float) and not value.is_integer() and ("integer" in types or limit):
        text = written(span, line_text, value)
        if math.isfinite(value):
            # A decimal shown to players only (a weight, 1.5 kg) is text: quoted, it loads and prints as written.
            hint = f"{WHOLE}: write `{math.floor(value)}` or `{math.ceil(value)}`, or `\"{text}\"` (quoted) for text to show"
        else:
            hint = f"{WHOLE}, and `{text}` is not a number they can use"
        return Problem("S001", f"{where} must be a whole number, not `{text}`", span, hint=hint)
    if limit:
        text = written(span, line_text, value)
        return Problem("S005", f"{where}: the number `{text}` is beyond ±{MAX_NUMBER:,}, the engine's limit",
                       span, hint=f"{WHOLE}, as in scripts (P007)")
    return None


def decimal_problems(data: Any, span: Callable[[tuple], Span | None], line_text: Callable[[int], str] | None,
                     where: Callable[[tuple], str]) -> list[Problem]:
    """S001 for every whole number written as a decimal (`3.0`, `1e3`) within the limit: nothing in a
    ruleset takes a decimal number, and JSON Schema lets these through as integers."""
    problems = []
    for path, value in _floats(data, ()):
        if not (value.is_integer() and abs(value) <= MAX_NUMBER):
            continue  # the schema refuses it (not whole, or beyond its bound)
        at = span(path) or Span("?", 1, 1, 1, 1)
        text = written(at, line_text, value)
        problems.append(Problem("S001", f"{where(path)} must be written as the whole number `{int(value)}`, "
                                        f"not `{text}`", at,
                                hint=f"{WHOLE}; YAML reads `{text}` as a decimal number, which they cannot use"))
    return problems


def _floats(x: Any, path: tuple) -> Iterator[tuple[tuple, float]]:
    if isinstance(x, float):
        yield path, x
    elif isinstance(x, dict):
        for k, v in x.items():
            yield from _floats(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _floats(v, path + (i,))
