"""Warnings of a merge: values a variant may legally write that are most often mistakes; and parts of
a variant that cannot be merged, left out so that one run reports every problem of the file.

The merge (merge.py) calls these as it goes, with the span of the variant's value; the loader adds what
they return to the checker's warnings, so `meeple validate` and every command that plays show them.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import Any

from meeple.errors import Problem, Span
from meeple.loading.schema import kind_of


def value_kind(value: Any) -> str | None:
    """What a data value is, in the schema's words but with every number alike (2 and 2.5 play the
    same part in the rules); None (`none`) goes with any kind."""
    if value is None:
        return None
    kind = kind_of(value)
    return "a number" if kind == "an integer" else kind


def changed_kind(span: Span | None, path: tuple, old: Any, value: Any) -> Problem:
    """W016: a variant's value of another kind than the base's (`"3"` for 3): legal YAML, but the rules
    written for the base's kind fail at run time, located in the base's script rather than here."""
    if path[0] == "components" and len(path) >= 5 and path[2] == "items":
        name = f"`{'.'.join(str(p) for p in path[4:])}` of `{path[3]}`"
    else:
        name = f"`{'.'.join(str(p) for p in path[1:])}`"
    hint = "write it as the base does"
    if isinstance(value, str) and isinstance(old, (int, float)) and not isinstance(old, bool):
        hint += f": `{value.strip()}` without quotes" if numeric_text(value) else ", as a number"
    return Problem("W016", f"{name} is {value_kind(old)} in the base ({old!r}), and {value_kind(value)} here",
                   span, "warning", hint)


def numeric_text(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def new_step(span: Span | None, path: tuple, steps: dict) -> list[Problem]:
    """W015: a step the base's phase does not have is added at its end, so a misspelt step name
    (`awrd:` for `award:`) runs the base's step and then the variant's as well, with no error."""
    near = difflib.get_close_matches(str(path[2]), [str(s) for s in steps], n=1, cutoff=0.75)
    if not near:
        return []
    return [Problem("W015", f"`{path[2]}` is a new step, run after the other steps of the phase `{path[1]}`; "
                            f"did you mean `{near[0]}`?", span, "warning",
                    f"a step of the base's name (`{near[0]}:`) replaces that step; a new step is added at the end")]


def still_named(gone: set[str], constants: Any, span: Callable[[tuple], Span | None]) -> list[Problem]:
    """W018: an item a variant removes whose id a constant still holds (a list of the items to deal,
    say): every game would fail where the rules look the id up, at run time and in the base's script."""
    out: list[Problem] = []

    def visit(value: Any, path: tuple) -> None:
        if isinstance(value, str) and value in gone:
            out.append(Problem("W018", f"the constant `{path[1]}` still names `{value}`, which this variant removes",
                               span(path), "warning", f"remove `{value}` from `{path[1]}` too, or keep the item"))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                visit(v, path + (i,))
        elif isinstance(value, dict):
            for k, v in value.items():
                visit(v, path + (k,))

    for name, value in (constants or {}).items() if gone and isinstance(constants, dict) else ():
        visit(value, ("constants", name))
    return out


def skipped(errors: list[Problem], code: str, message: str, span: Span | None, hint: str | None = None) -> None:
    """A part of a variant that cannot be merged: left out, and reported with the file's other problems
    (found by QA: the other problems of a file with a misspelt item id showed only once it was fixed)."""
    errors.append(Problem(code, message, span, hint=hint))
