"""The checker's light static types: what a Meeple expression can be known to hold before a game runs.

The language is dynamically typed, so these types only ever rule out what would certainly fail (or be
certainly pointless, like a player compared with a number). `ANY` means "could be anything" and is
never reported. A join of two different types is `ANY`, except that `none` joins into the other type:
counters start as `none` and get a player later, and `first(xs)` is none for an empty list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MAX_DEPTH = 3  # list of list of list: deeper nesting is typed as a list of anything
NUMLIKE = ("num", "bool")  # booleans are numbers to Python's arithmetic, as in the evaluator


@dataclass(frozen=True, slots=True)
class T:
    k: str  # any, num, bool, str, none, list, map, player, comp, zone
    elem: T | None = None  # a list's element type (None: unknown)
    kind: str | None = None  # a component's kind, when known

    def __str__(self) -> str:
        return describe(self)


ANY, NUM, BOOL, STR, NONE = T("any"), T("num"), T("bool"), T("str"), T("none")
MAP, PLAYER, COMP, ZONE = T("map"), T("player"), T("comp"), T("zone")
LIST = T("list")


def list_of(elem: T | None) -> T:
    if elem is not None and _depth(elem) >= MAX_DEPTH:
        elem = ANY
    return T("list", None if elem is None or elem.k == "any" else elem)


def comp_of(kind: str | None) -> T:
    return T("comp", None, kind)


def _depth(t: T) -> int:
    d = 0
    while t is not None and t.k == "list":
        d += 1
        t = t.elem  # type: ignore[assignment]
    return d


def join(a: T | None, b: T | None) -> T | None:
    """The least type holding both; None is "nothing known yet" (a variable not assigned so far)."""
    if a is None:
        return b
    if b is None or a == b:
        return a
    if a.k == "none":
        return b
    if b.k == "none":
        return a
    if a.k == "list" and b.k == "list":
        return list_of(join(a.elem, b.elem))
    if a.k == "comp" and b.k == "comp":
        return COMP
    return ANY


def elem(t: T) -> T:
    """What looping over a value of type t gives."""
    if t.k == "list":
        return t.elem or ANY
    if t.k == "zone":
        return COMP
    return ANY  # a map's keys, or unknown


def of_value(v: Any) -> T:
    """The type of a YAML value (constants, counter initial values, component attributes)."""
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return NUM
    if isinstance(v, str):
        return STR
    if v is None:
        return NONE
    if isinstance(v, list):
        out: T | None = None
        for x in v[:50]:
            out = join(out, of_value(x))
        return list_of(out)
    if isinstance(v, dict):
        return MAP
    return ANY  # floats: the language has whole numbers only


_WORDS = {"any": "a value", "num": "a number", "bool": "a boolean", "str": "a string", "none": "none",
          "list": "a list", "map": "a map", "player": "a player", "comp": "a component", "zone": "a zone"}


def describe(t: T) -> str:
    if t.k == "comp" and t.kind:
        return f"a component ({t.kind})"
    if t.k == "list" and t.elem is not None and t.elem.k not in ("any", "list"):
        return f"a list of {plural(t.elem)}"
    return _WORDS[t.k]


def plural(t: T) -> str:
    word = {"num": "numbers", "bool": "booleans", "str": "strings", "map": "maps", "player": "players",
            "comp": "components", "zone": "zones", "none": "nones"}.get(t.k, "values")
    return f"{word} ({t.kind})" if t.k == "comp" and t.kind else word


# ---- what the built-in functions accept ------------------------------------------------------
# Sets of type kinds each parameter accepts (`any` always passes); mirrors the checks that the
# primitives make at run time (`_items`, `_comps`, `_zone`, `_num`, `_player` in runtime/builtins.py).
ITER = frozenset({"list", "zone", "map"})
COMPS = frozenset({"comp", "list", "zone"})
NUMS = frozenset({"num"})
ZONES = frozenset({"zone"})
PLAYERS = frozenset({"player"})
COMPONENT = frozenset({"comp"})
MAPS = frozenset({"map"})
TEXT = frozenset({"str"})
COUNTER = frozenset({"counter"})  # a counter reference: checked on the syntax, not the type
ANYTHING = frozenset({"any"})

ARGS: dict[str, tuple[frozenset[str], ...]] = {
    "count": (ITER,), "sum": (ITER,), "min": (ITER, ANYTHING), "max": (ITER, ANYTHING), "any": (ITER,),
    "all": (ITER,), "first": (ITER,), "last": (ITER,), "list": (ITER,), "between": (NUMS, NUMS),
    "distinct": (ITER,), "sorted": (ITER,), "reversed": (ITER,), "slice": (ITER, NUMS, NUMS),
    "index_of": (ITER, ANYTHING), "abs": (NUMS,), "keys": (MAPS,), "get": (MAPS, ANYTHING, ANYTHING),
    "text": (ANYTHING,), "player": (NUMS,), "left_of": (PLAYERS,), "right_of": (PLAYERS,),
    "turn_order": (PLAYERS,), "others": (PLAYERS,), "owner": (COMPONENT,), "components": (TEXT,),
    "zone_of": (COMPONENT,), "random_pick": (ITER,), "move": (COMPS, ZONES, TEXT),
    "draw": (NUMS, ZONES, ZONES), "shuffle": (ZONES,), "swap": (COMPONENT, COMPONENT), "reveal": (COMPS,),
    "conceal": (COMPS,), "gain": (COUNTER, NUMS), "pay": (COUNTER, NUMS), "score": (COUNTER, NUMS),
    "log": (ANYTHING,), "tell": (PLAYERS, ANYTHING), "show": (COMPS, PLAYERS), "fail": (ANYTHING,),
    "flatten": (ITER,),
}

_NEEDS = {ITER: "a list or a zone", COMPS: "a component, a list of them or a zone", NUMS: "a number",
          ZONES: "a zone", PLAYERS: "a player", COMPONENT: "a component", MAPS: "a map", TEXT: "a string"}


def accepts(allowed: frozenset[str], t: T) -> bool:
    return t.k == "any" or "any" in allowed or t.k in allowed


def needs(allowed: frozenset[str]) -> str:
    return _NEEDS.get(allowed, "another value")


_ELEMENTWISE = {"first", "last", "random_pick", "min", "max"}  # one item of the argument
_SAME_LIST = {"list", "distinct", "sorted", "reversed", "slice"}  # a list of the argument's items
_FIXED = {"count": NUM, "sum": NUM, "index_of": NUM, "abs": NUM, "any": BOOL, "all": BOOL, "text": STR,
          "between": list_of(NUM), "turn_order": list_of(PLAYER), "others": list_of(PLAYER), "player": PLAYER,
          "left_of": PLAYER, "right_of": PLAYER, "owner": PLAYER, "zone_of": ZONE, "keys": LIST,
          "draw": list_of(COMP), "get": ANY}


def returns(func: str, args: list[T], declared: str) -> T:
    """The result type of a built-in call given its argument types."""
    if func in _ELEMENTWISE and args:
        return elem(args[0])
    if func in _SAME_LIST and args:
        return list_of(elem(args[0]))
    if func == "flatten" and args:
        return list_of(elem(elem(args[0])))
    if func in _FIXED:
        return _FIXED[func]
    return {"none": NONE, "num": NUM, "bool": BOOL, "str": STR, "list": LIST, "player": PLAYER,
            "comp": COMP, "zone": ZONE}.get(declared, ANY)
