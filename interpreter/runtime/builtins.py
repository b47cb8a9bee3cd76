"""The built-ins' behaviour: one registry of small functions with one signature.

Every entry is a small function `fn(ev, args, node, scope)`: `ev` is the Evaluator (state and
ruleset), `args` the evaluated arguments (or the raw AST for `lazy` entries, which need a place to
write to), `node` the Call node for error locations. What each built-in is called, its parameters
and its documentation are the language's (language/builtins.py); `@primitive(name)` attaches an
implementation to that signature. The built-ins themselves live in `queries.py` (pure) and
`actions.py` (state-changing); `library.py` imports both, which fills the registry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from meeple.language.builtins import SIGNATURES
from meeple.runtime.data import Comp, Player, Zone
from meeple.runtime.values import type_name


@dataclass(frozen=True, slots=True)
class Primitive:
    name: str
    fn: Callable[..., Any]
    params: tuple[str, ...]
    pure: bool
    lazy: bool
    scoped: bool = False  # reads its caller's variables through `scope` (a log line re-reads its holes)
    # The same built-in with its arguments as Python arguments, `direct(ev, node, *args)`, for callers
    # that know the arguments one by one (generated code): no list per call. None for most built-ins.
    direct: Callable[..., Any] | None = None


REGISTRY: dict[str, Primitive] = {}


def primitive(name: str, *, scoped: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register `fn` as the implementation of the built-in `name` declared in language/builtins.py.
    `scoped`: it needs the caller's variables as a dict (compiled callers pass None otherwise)."""
    sig = SIGNATURES[name]

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        REGISTRY[name] = Primitive(name, fn, sig.params, sig.pure, sig.lazy, scoped)
        return fn
    return deco


def direct_primitive(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register `fn(ev, node, *args)` as the built-in `name`: the registry's entry takes the usual
    argument list and calls it, and generated code calls `fn` itself (Primitive.direct)."""
    sig = SIGNATURES[name]

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        def listed(ev: Any, a: list, n: Any, s: Any) -> Any:
            return fn(ev, n, *a)
        REGISTRY[name] = Primitive(name, listed, sig.params, sig.pure, sig.lazy, False, fn)
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
