"""The values of the language as plain data: seats, components, zones, and their JSON codec.

Players and components are ints with their own types, so that `p.coins` and `c.value` know what
they address; zones are names. Everything else a script holds is a number, a string, a bool, none,
a list or a map, so a game's whole state is JSON once these three are tagged.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any


class Player(int):
    """A seat (0-based). A distinct type so that `p.coins` knows it addresses a player."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"P{int(self) + 1}"

    # Keys are built with f-strings (`f"{p}.coins"`): str() must stay the plain number.
    __str__ = int.__repr__


class Comp(int):
    """A component instance id."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"#{int(self)}"

    __str__ = int.__repr__


class Zone:
    """A reference to a zone by key. The list itself lives in `GameState.zones`."""

    __slots__ = ("key",)

    def __init__(self, key: str) -> None:
        self.key = key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Zone) and other.key == self.key

    def __hash__(self) -> int:
        return hash(("zone", self.key))

    def __repr__(self) -> str:
        return f"Zone({self.key})"


# What a zone's key says of its owner (ValueOps.owner asks at every trigger): a seat's zone ("0.hand")
# that player, a component's slot ("#12.inside") that component, a game zone none. Keys are rulesets'
# zone names, so the table stays small; the key's text alone decides, so rulesets share it.
OWNERS: dict[str, Player | Comp | None] = {}


def key_owner(key: str) -> Player | Comp | None:
    head = key.split(".", 1)[0]
    o = Player(int(head)) if head.isdigit() else Comp(int(head[1:])) if head.startswith("#") else None
    if len(OWNERS) < 100_000:  # bounded however many rulesets a process loads
        OWNERS[key] = o
    return o


def copy_value(v: Any) -> Any:
    """A deep copy of lists and maps: for data handed out of the engine (a save's log), which its
    receiver may change."""
    t = type(v)
    if t is list:
        return [x if type(x) not in CONTAINERS else copy_value(x) for x in v]
    if t is dict:
        return {k: x if type(x) not in CONTAINERS else copy_value(x) for k, x in v.items()}
    return v


CONTAINERS = (list, dict)


def copy_values(d: dict) -> dict:
    """A copy of a dict of values (counters, a scope) for a copy of the game: a new dict holding the same
    values. Lists and maps are values that nothing changes in place (setting an entry copies the list or
    map: Evaluator.set_entry; `+=` and `+` make new ones; zones are state, not values), so a copy of the
    game shares them with its original."""
    return d.copy()


# ------------------------------------------------------------------ JSON codec for values
def encode(v: Any, comp: Callable[[Comp], Any] = int) -> Any:
    """Language values -> JSON. Players, components and zones are tagged so they come back typed.
    `comp` names a component: its id by default; a seat's view names it by its item (runtime/views)."""
    t = type(v)
    if t is Player:
        return {"$p": int(v)}
    if t is Comp:
        return {"$c": comp(v)}
    if t is Zone:
        return {"$z": v.key}
    if t is list or t is tuple:
        return [encode(x, comp) for x in v]
    if t is dict:
        return {"$m": [[encode(k, comp), encode(x, comp)] for k, x in v.items()]}
    return v


def decode(v: Any) -> Any:
    t = type(v)
    if t is list:
        return [decode(x) for x in v]
    if t is dict:
        if "$p" in v:
            return Player(v["$p"])
        if "$c" in v:
            return Comp(v["$c"])
        if "$z" in v:
            return Zone(v["$z"])
        if "$m" in v:
            return {decode(k): decode(x) for k, x in v["$m"]}
        raise ValueError(f"unknown value {v!r}")
    return v


def option_key(opt: list) -> str:
    """The stable key of an option (an entry of a pending decision's options) in the action log:
    `2` for the menu's third option, `0:#12` bound to a component, `1#7.trade` added by component 7."""
    head = str(opt[0]) if opt[2] < 0 else f"{opt[0]}#{opt[2]}.{opt[3]}"
    vals = opt[1]
    if not vals:
        return head
    if len(vals) == 1:
        return head + ":" + _kv(vals[0])
    return head + ":" + ",".join([_kv(v) for v in vals])


# The keys of components and players, made once each: formatting an int subclass is slow.
_COMP_KEYS: dict[Comp, str] = {}
_PLAYER_KEYS: dict[Player, str] = {}


def _kv(v: Any) -> str:
    t = type(v)
    if t is Comp:
        s = _COMP_KEYS.get(v)
        if s is None:
            s = _COMP_KEYS[v] = f"#{v:d}"
        return s
    if t is int:
        return str(v)
    if t is Player:
        s = _PLAYER_KEYS.get(v)
        if s is None:
            s = _PLAYER_KEYS[v] = f"P{v + 1}"
        return s
    if t is list:
        return "[" + ",".join(_kv(x) for x in v) + "]"
    return repr(v) if t is str else str(v)


def as_int(value: Any) -> int | None:
    """`value` as an int if it is a Python or NumPy integer (a researcher's arrays hand out NumPy's),
    never a bool, a float or a text; else None. The one test of "a whole number" the API uses."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None
