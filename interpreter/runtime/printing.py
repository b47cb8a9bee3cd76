"""How the rules language's values read: in labels and logs (`show`), and what they are called in
messages (`type_name`).
"""

from __future__ import annotations

from typing import Any

from meeple.language.model import Ruleset
from meeple.runtime.data import Comp, Player, Zone, key_owner


def show(v: Any, rs: Ruleset) -> str:
    """How a value reads in labels and logs."""
    t = type(v)
    if t is Player:
        return f"P{int(v) + 1}"
    if t is Comp:
        return rs.components[v].name
    if t is bool:
        return "true" if v else "false"
    if v is None:
        return "none"
    if t is list:
        return ", ".join(show(x, rs) for x in v)
    if t is Zone:  # a seat's or a component's by its owner (found by QA: `{p.hand}` read `0.hand`)
        owner = key_owner(v.key)  # (a hole naming a component's slot mentions it: render._comps_in)
        return v.key if owner is None else f"{show(owner, rs)} {v.key.partition('.')[2]}"
    return str(v)


def type_name(v: Any) -> str:
    t = type(v)
    if t is bool:
        return "a boolean"
    if t is int:
        return "a number"
    if t is str:
        return "a string"
    if t is list:
        return "a list"
    if t is dict:
        return "a map"
    if t is Player:
        return "a player"
    if t is Comp:
        return "a component"
    if t is Zone:
        return "a zone"
    if v is None:
        return "none"
    return t.__name__


def repeat_problem(count: object) -> str | None:
    """What is wrong with a `repeat` count, or None. A negative count is a mistake (a variant's
    `workers: -1`), not a loop that runs zero times in silence."""
    if type(count) is not int:
        return f"`repeat` needs a number, not {type_name(count)}"
    return f"`repeat` needs a count of 0 or more, not {count}" if count < 0 else None
