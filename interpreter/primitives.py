"""The built-in functions and actions of the language: one registry, one signature.

Every entry is a small function `fn(ev, args, node, scope)`: `ev` is the Evaluator (state and
ruleset), `args` the evaluated arguments (or the raw AST for `lazy` entries, which need a place to
write to), `node` the Call node for error locations. The checker reads `params` for argument counts
and the language reference is generated from `doc`, so a new primitive is one decorated function.

This module holds the registry, the decorator and the argument helpers; the built-ins themselves
live in `queries.py` (pure) and `actions.py` (state-changing), imported at the end of this file so
that importing `interpreter.primitives` still registers every one of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .state import Comp, Player, Zone
from .values import type_name


@dataclass(frozen=True, slots=True)
class Primitive:
    name: str
    fn: Callable[..., Any]
    params: tuple[str, ...]  # parameter names; a trailing "?" marks an optional one
    doc: str
    pure: bool  # no side effects: allowed anywhere
    lazy: bool  # receives AST args (to write to a counter)
    returns: str  # a type name for the checker: num, bool, str, list, player, comp, zone, any, none

    @property
    def min_args(self) -> int:
        return sum(1 for p in self.params if not p.endswith("?"))

    @property
    def max_args(self) -> int:
        return len(self.params)


REGISTRY: dict[str, Primitive] = {}


def primitive(name: str, params: str, returns: str = "any", *, pure: bool = True, lazy: bool = False):
    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        REGISTRY[name] = Primitive(name, fn, tuple(params.split()) if params else (), (fn.__doc__ or "").strip(),
                                   pure, lazy, returns)
        return fn
    return deco


# ------------------------------------------------------------------ helpers
def _items(ev, v, node) -> list:
    if type(v) is Zone:
        return ev.st.zones[v.key]
    if type(v) is list:
        return v
    if type(v) is dict:
        return list(v)
    raise ev.fail(node, f"`{node.func}` needs a list or a zone, not {type_name(v)}")


def _comps(ev, v, node) -> list:
    if type(v) is Zone:
        return list(ev.st.zones[v.key])
    if type(v) is list:
        return v
    if type(v) is Comp:
        return [v]
    raise ev.fail(node, f"`{node.func}` needs a component, a list of them or a zone, not {type_name(v)}")


def _zone(ev, v, node) -> list:
    if type(v) is not Zone:
        raise ev.fail(node, f"`{node.func}` needs a zone, not {type_name(v)}")
    return ev.st.zones[v.key]


def _player(ev, v, node) -> Player:
    if type(v) is not Player:
        raise ev.fail(node, f"`{node.func}` needs a player, not {type_name(v)}")
    return v


def _num(ev, v, node) -> int:
    if type(v) is not int:
        raise ev.fail(node, f"`{node.func}` needs a number, not {type_name(v)}")
    return v


def reference_table() -> str:
    """The Markdown table of built-ins for docs/language.md (kept current by tests/test_docs.py)."""
    rows = ["| function | kind | what |", "|---|---|---|"]
    for name in sorted(REGISTRY):
        p = REGISTRY[name]
        params = ", ".join(x.rstrip("?") + ("?" if x.endswith("?") else "") for x in p.params)
        doc = " ".join(p.doc.split()).replace("|", "\\|")
        rows.append(f"| `{name}({params})` | {'query' if p.pure else 'action'} | {doc} |")
    return "\n".join(rows)


# Last, because these modules import the decorator and helpers above: importing them registers
# every built-in. Two statements, queries first: that keeps the registry in the order it has always had.
from . import queries  # noqa: F401, I001
from . import actions  # noqa: F401


if __name__ == "__main__":  # python -m interpreter.primitives: refresh the table in docs/language.md
    import re
    from pathlib import Path

    # Run with -m, this file is `__main__`, a second copy of the module: `queries` and `actions`
    # register into `interpreter.primitives.REGISTRY`, not this copy's, so take the table from there.
    from interpreter.primitives import reference_table as registered_table

    doc = Path(__file__).resolve().parent.parent / "docs" / "language.md"
    text = doc.read_text(encoding="utf-8")
    text = re.sub(r"(<!-- begin primitives -->\n).*?(\n<!-- end primitives -->)",
                  lambda m: m.group(1) + registered_table() + m.group(2), text, flags=re.DOTALL)
    doc.write_text(text, encoding="utf-8")
