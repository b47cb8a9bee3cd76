"""Who sees what: whether a seat sees a zone's contents and a component's identity, where it is now or
where it was when this step began. `Game.view`, labels, log lines and prompts (render.py) follow it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from meeple.language.model import Ruleset

Evaluator = Any  # runtime.evaluator.Evaluator (or the compiled one); named in words to keep imports simple


def can_see(visibility: str, owner: int | None, viewer: int | None) -> bool:
    """`viewer=None` sees everything (see views.make_view)."""
    if viewer is None or visibility == "public":
        return True
    if visibility == "owner":
        return owner == viewer
    return False


def _owner(loc: dict, c: int) -> int | None:
    key = loc.get(c)
    while key is not None:
        head = key.split(".", 1)[0]
        if head.isdigit():
            return int(head)
        if not head.startswith("#"):
            return None
        key = loc.get(int(head[1:]))
    return None


def zone_access(ev: Evaluator, key: str, loc: dict | None = None) -> tuple[str, int | None, int | None]:
    """A zone's visibility, its owning seat, and the component whose slot it is (or None)."""
    rs = ev.rs
    cache = rs.derived()
    known = cache.get("zone_access")
    if known is None:
        known = cache["zone_access"] = {}
    # What the key tells is fixed per ruleset; only the owner of a slot's component changes as it moves.
    access = known.get(key)
    if access is None:
        access = known[key] = _static_access(rs, key)
    if access[2] is None:
        return access
    return access[0], _owner(ev.st.loc if loc is None else loc, access[2]), access[2]


def _static_access(rs: Ruleset, key: str) -> tuple[str, int | None, int | None]:
    if key.startswith("#"):
        cid, _, slot = key[1:].partition(".")
        parent = int(cid)
        return rs.kinds[rs.components[parent].kind].slots[slot].visibility, None, parent
    head, dot, name = key.partition(".")
    if dot and head.isdigit():
        return rs.player_zones[name].visibility, int(head), None
    return rs.game_zones[key].visibility, None, None


def visible(ev: Evaluator, c: int, viewer: int, then: tuple[dict, Any] | None = None) -> bool:
    """Whether `viewer` sees component `c` (its identity) where it is now (or where it was `then`, a
    (locations, face-down set) snapshot): the rule `Game.view` follows."""
    loc, facedown = (ev.st.loc, ev.st.facedown) if then is None else then
    while True:
        key = loc.get(c)
        if key is None:
            return False
        vis, owner, parent = zone_access(ev, key, loc)
        if not can_see(vis, owner, viewer):
            return False
        if c in facedown and owner != viewer:
            return False
        if parent is None:
            return True
        c = parent


def hidden_from(ev: Evaluator, viewer: int) -> set[int]:
    """Every component whose identity `viewer` cannot see now."""
    return {c for c in ev.st.loc if not visible(ev, c, viewer)}


def seers(ev: Evaluator, c: int) -> list[int]:
    """The seats that see `c` now or saw it when this step began (they know it: naming it tells nothing)."""
    then = ev.st.before
    return [p for p in range(ev.st.nplayers) if visible(ev, c, p) or (then is not None and visible(ev, c, p, then))]


@contextmanager
def as_seen_now(ev: Evaluator) -> Iterator[None]:
    """Text read now (a menu's labels, its prompt) names only what the reader sees now: `seers`' rule
    for what a seat saw when this step began holds for what happened in the step (log lines, a move's
    text), not for a menu whose options list the places of a pile the seen card was shuffled into
    (found in review: "Take Gold" named the position of a card shuffled into a face-down pile)."""
    st = ev.st
    then, st.before = st.before, None
    try:
        yield
    finally:
        st.before = then
