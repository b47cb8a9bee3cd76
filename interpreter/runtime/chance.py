"""Chance as explicit decisions: a scripted RNG that stops at every random event.

Every random event of a game goes through its RNG (`random_pick`, `shuffle`). A game created with
`chance="explicit"` swaps the seeded RNG for a `ScriptedRng`: it answers each draw from a script of
outcomes chosen so far, and at the first draw the script does not cover it raises `NeedChance` with
the possible outcomes and their exact probabilities. The Game then shows a chance node; applying an
outcome appends it to the script and runs the step again from a saved copy (game.py). The frame
machine is untouched: a chance node is a replay, not a new kind of frame.

Outcomes group identical items: drawing from three identical cards and one other gives two outcomes,
3/4 and 1/4. An outcome's value is the index of the first item of its group in the candidate list.

A shuffle is exposed draw by draw: the new top item is drawn first, then the next, each from the items
left, until only identical items remain. Seeded games shuffle exactly as before (Fisher-Yates).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any

from meeple.runtime.data import Comp, encode
from meeple.runtime.state import Rng

CHANCE = -1  # the seat of the chance player in actions: {"player": CHANCE, "key": "2", "label": ...}


class NeedChance(BaseException):
    """Raised out of a running step when the script of outcomes runs out. A BaseException, so that no
    handler meant for rules errors can swallow it on its way out of the machine."""

    def __init__(self, outcomes: list[tuple[int, Fraction, Any]]) -> None:
        super().__init__("a chance outcome is needed")
        self.outcomes = outcomes  # (value, probability, a representative item for the label)


class ScriptedRng(Rng):
    """An RNG whose draws come from a script of outcomes; it asks for the next one when the script ends."""

    __slots__ = ("pos", "script")
    explicit = True

    def __init__(self, script: Sequence[int] = ()) -> None:
        super().__init__(0)
        self.script = list(script)
        self.pos = 0

    def copy(self) -> ScriptedRng:
        r = ScriptedRng(self.script)
        r.pos = self.pos
        return r

    def below(self, n: int) -> int:
        return self.pick(list(range(n)), None)

    def pick(self, items: Sequence[Any], key: Callable[[Any], Hashable] | None = None) -> int:
        groups: dict[Hashable, list[int]] = {}
        for i, x in enumerate(items):
            groups.setdefault(key(x) if key is not None else i, []).append(i)
        if len(groups) == 1:  # a sure thing is no decision
            return 0
        firsts = {g[0] for g in groups.values()}
        if self.pos < len(self.script):
            v = self.script[self.pos]
            if v not in firsts:
                raise ValueError(f"{v} is not an outcome of this chance event")
            self.pos += 1
            return v
        n = len(items)
        raise NeedChance([(g[0], Fraction(len(g), n), items[g[0]]) for g in groups.values()])

    def shuffle(self, items: list, key: Callable[[Any], Hashable] | None = None) -> None:
        left = items[:]
        out = []
        while left:
            out.append(left.pop(self.pick(left, key)))
        items[:] = out


def identity(ev: Any, x: Any) -> Hashable:
    """What makes two items interchangeable for chance: for components, the same item definition, the
    same counter values, the same face, and nothing in their slots; other values compare by value."""
    if type(x) is Comp:
        rs, st = ev.rs, ev.st
        d = rs.components[x]
        kind = rs.kinds[d.kind]
        if any(st.zones[f"#{x}.{s}"] for s in kind.slots):
            return ("comp", int(x))
        counters = tuple(repr(encode(st.counters[f"#{x}.{n}"])) for n in kind.counters)
        return ("item", d.item, counters, x in st.facedown)
    return ("value", repr(encode(x)))
