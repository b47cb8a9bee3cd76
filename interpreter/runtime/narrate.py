"""What one move looked like to each seat: its label, what it changed, and what it revealed.

`Game.take(i, seat)` applies an action like `apply_index` and returns a `Move`. The move's label is
evaluated before the action (its scope is gone afterwards) but who may read each of its holes is decided
after it, so a card played face up is named and a card added face down reads "a hidden card". The move
also compares the state before and after: counters that changed and components that changed zones,
described for a viewer in words, and the components a seat saw for the first time (a take-back is fair
only if nothing was revealed). Bots that pick by index never pay for any of this.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from meeple.runtime.data import copy_value
from meeple.runtime.decisions import option_scope
from meeple.runtime.render import Parts, placeholder, raw_parts, render, settle
from meeple.runtime.values import show
from meeple.runtime.visibility import as_seen_now, can_see, hidden_from, visible

Game = Any  # runtime.game.Game, which imports this module


@dataclass
class Move:
    seat: int
    label: str  # as the mover read it
    parts: Parts  # as the others read it (settled once the decision resolved)
    sealed: Any  # the open sealed decision it was taken in (None if none): until it resolves, the others
    # only learn that a choice was made
    game: Any = None
    changes: dict[int, list[str]] = field(default_factory=dict)  # viewer -> lines
    revealed: dict[int, set[int]] = field(default_factory=dict)  # viewer -> components seen for the first time

    def text(self, viewer: int | None) -> str:
        """The move as `viewer` reads it, e.g. "P2: Add a hidden card face down"."""
        who = f"P{self.seat + 1}"
        if viewer == self.seat or viewer is None:
            return f"{who}: {self.label}"
        if self.sealed is not None and self.game is not None and self.game.state.pending is self.sealed:
            return f"{who} has chosen"
        return f"{who}: {render(self.parts, viewer)}"


def _snapshot(game: Game) -> dict:
    st = game.state
    return {"counters": {k: copy_value(v) for k, v in st.counters.items()}, "loc": dict(st.loc), "facedown": set(st.facedown),
            "hidden": [hidden_from(game._ev, p) for p in range(st.nplayers)]}


def take(game: Game, i: int, seat: int) -> Move:
    """Apply seat's i-th option and describe it (see the module docstring)."""
    st, ev = game.state, game._ev
    game._menus()
    opts = st.pending["options"][seat] if st.pending is not None and seat in st.pending["options"] else []
    if not 0 <= i < len(opts):
        game.apply_index(i, seat)  # raises the usual IllegalAction
    frame = st.stack[-1]
    opt = opts[i]
    saved = dict(frame[2]) if opt[2] < 0 else None
    clause, scope = option_scope(ev, frame, opt, seat)
    try:
        raw = raw_parts(ev, clause.label, scope)
    finally:
        if saved is not None:
            frame[2].clear()
            frame[2].update(saved)
    with as_seen_now(ev):
        label = render(settle(ev, raw), seat)  # as the mover read it in its menu (legal_actions' label)
    before = _snapshot(game)
    game.apply_index(i, seat)
    sealed = st.pending if st.pending is not None and seat in st.pending["chosen"] else None
    move = Move(seat, label, settle(ev, raw), sealed, game=game)
    after = _snapshot(game)
    for v in range(st.nplayers):
        move.revealed[v] = before["hidden"][v] - after["hidden"][v]
        move.changes[v] = describe_changes(game, before, after, v)
    return move


def zone_title(game: Game, key: str, viewer: int | None = None) -> str:
    """A zone's name for people: "P2 hand", "deck", "Red token stack"."""
    if key.startswith("#"):
        cid, _, slot = key[1:].partition(".")
        c = int(cid)
        if viewer is not None and not visible(game._ev, c, viewer):
            return f"{placeholder(game.rs, {c})} {slot}"
        owner = game._ev.owner(c)
        whose = "" if owner is None else f"P{int(owner) + 1} "  # "P1 Boat hold": which of the boats
        return f"{whose}{game.rs.components[c].name} {slot}"
    head, dot, name = key.partition(".")
    if dot and head.isdigit():
        return f"P{int(head) + 1} {name}"
    return key


def _counter_visible(game: Game, key: str, viewer: int) -> str | None:
    """The counter's title if `viewer` may see it, else None."""
    rs = game.rs
    if key.startswith("#"):
        cid, _, name = key[1:].partition(".")
        return f"{rs.components[int(cid)].name} {name}" if visible(game._ev, int(cid), viewer) else None
    head, dot, name = key.partition(".")
    if dot and head.isdigit():
        decl = rs.player_counters.get(name)
        if decl is None or decl.display == "internal" or not can_see(decl.visibility, int(head), viewer):
            return None
        return f"P{int(head) + 1} {name}"
    decl = rs.game_counters.get(key)
    return key if decl and decl.display != "internal" and can_see(decl.visibility, None, viewer) else None


def describe_changes(game: Game, before: dict, after: dict, viewer: int) -> list[str]:
    """What changed, in words, as `viewer` may see it: counters, then components that moved between zones."""
    rs = game.rs
    lines: list[str] = []
    for key, new in after["counters"].items():
        old = before["counters"].get(key)
        if old == new:
            continue
        title = _counter_visible(game, key, viewer)
        if title is not None:
            lines.append(f"{title}: {_say(old, rs)} → {_say(new, rs)}")
    moved: dict[tuple[str, str], list[int]] = {}
    zones = game.state.zones
    # In zone order (what the viewer sees), not id order, which could tell hidden components apart.
    for key in sorted({k for c, k in after["loc"].items() if before["loc"].get(c) != k}):
        for c in zones[key]:
            old = before["loc"].get(c)
            if old != key:
                moved.setdefault((old or "", key), []).append(c)
    for (src, dst), comps in moved.items():
        seen = [c for c in comps if c not in before["hidden"][viewer] or c not in after["hidden"][viewer]]
        unseen = {c for c in comps if c not in seen}
        what = [show_comp(rs, c) for c in seen]
        if unseen:
            what.append(placeholder(rs, unseen))
        lines.append(f"{', '.join(what)}: {zone_title(game, src, viewer)} → {zone_title(game, dst, viewer)}")
    return lines


def _say(v: Any, rs: Any) -> str:
    text = show(v, rs)
    return text if text else "none"  # an empty list shows as nothing


def show_comp(rs: Any, c: int) -> str:
    return rs.components[c].name
