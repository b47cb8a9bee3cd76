"""Chance as explicit decisions: a scripted RNG that stops at every random event.

Every random event of a game goes through its RNG (`random_pick`, `shuffle`). A game created with
`chance="explicit"` swaps the seeded RNG for a `ScriptedRng`: it answers each draw from a script of
outcomes chosen so far, and at the first draw the script does not cover it raises `NeedChance` with
the possible outcomes and their exact probabilities. The Game then shows a chance node; applying an
outcome appends it to the script and runs the step again from a saved copy (game.py). The frame
machine is untouched: a chance node is a replay, not a new kind of frame.

Outcomes group identical items: `random_pick([1, 1, 2, 3])` has three outcomes, 1/2, 1/4 and 1/4, and
shuffling two identical cards and another deals three orders, not six. An outcome's value is the index
of the first item of its group in the candidate list. A `random_pick` of components groups only copies
that lie next to each other in one zone, and only when the pick is moved away at once (`pick_identity`).

A shuffle is exposed draw by draw: the new top item is drawn first, then the next, each from the items
left, until only identical items remain. Its draws after the first need no replay (`Shuffling`): the
step runs again once the whole shuffle is drawn. Seeded games shuffle exactly as before (Fisher-Yates).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any

from meeple.language import ast as A
from meeple.language.walk import walk
from meeple.runtime.data import Comp, encode
from meeple.runtime.state import Rng, component_keys

CHANCE = -1  # the seat of the chance player in actions: {"player": CHANCE, "key": "2", "label": ...}


class NeedChance(BaseException):
    """Raised out of a running step when the script of outcomes runs out. A BaseException, so that no
    handler meant for rules errors can swallow it on its way out of the machine."""

    def __init__(self, draws: Draws, shuffle: Shuffling | None = None) -> None:
        super().__init__("a chance outcome is needed")
        self.draws = draws
        self.shuffle = shuffle  # the shuffle in progress, when the draw is one of a shuffle's
        # (the `shuffle` call, its zone's key, how many outcomes the script had given before it): set by
        # the built-in, so that the step can go on from the shuffle without a replay (explicit.py)
        self.at: tuple[Any, str, int] | None = None

    @property
    def outcomes(self) -> list[tuple[int, Fraction, Any]]:
        """(value, probability, a representative item for the label) of each outcome."""
        return self.draws.outcomes()


class Draws:
    """The outcomes of one random event, as counts: exact fractions and labels are made only when a
    caller asks for them (a random playout only counts the outcomes and picks one)."""

    __slots__ = ("_floats", "groups", "total")

    def __init__(self, items: Sequence[Any], keys: Sequence[Hashable]) -> None:
        # One outcome per group of identical items: the index of its first item, its count, the item.
        groups: dict[Hashable, list] = {}
        for i, k in enumerate(keys):
            g = groups.get(k)
            if g is None:
                groups[k] = [i, 1, items[i]]
            else:
                g[1] += 1
        self.groups = list(groups.values())
        self.total = len(items)
        self._floats: list[tuple[int, float]] | None = None

    @classmethod
    def of(cls, groups: list[list], total: int) -> Draws:
        d = cls.__new__(cls)
        d.groups, d.total, d._floats = groups, total, None
        return d

    def floats(self) -> list[tuple[int, float]]:
        """Each outcome's value and probability as a float (a playout samples by them), made once: the
        draws of a shared chance node are every new game's (Shuffling.after). One list, which callers
        read and never change."""
        if self._floats is None:
            n = self.total
            self._floats = [(v, c / n) for v, c, _ in self.groups]
        return self._floats

    def outcomes(self) -> list[tuple[int, Fraction, Any]]:
        n = self.total
        return [(v, Fraction(c, n), item) for v, c, item in self.groups]


class Shuffling:
    """A shuffle between two of its draws: the items still to draw and which of them are identical.

    The draws after this one depend on nothing else (no rule runs between two draws of one shuffle),
    so a game can offer them without running its step again: only the whole shuffle's outcomes are
    needed for the replay, which then runs once per shuffle rather than once per card."""

    __slots__ = ("_after", "_draws", "items", "keys")

    def __init__(self, items: list, keys: list, draws: Draws | None = None, first: bool = False) -> None:
        self.items = items
        self.keys = keys
        self._draws = draws
        # The draw a step stopped at (`first`) keeps what each outcome leaves: new games of one ruleset
        # with explicit chance all start from one shared chance node (shortcuts.reused), and each would
        # work it out again. Only that draw: a cache at every draw would grow a tree of every order drawn.
        self._after: dict[int, Shuffling | None] | None = {} if first else None

    @property
    def first(self) -> bool:
        return self._after is not None

    def after(self, value: int) -> Shuffling | None:
        """The shuffle once the item at `value` is drawn; None when no choice is left in it. Nothing
        changes a Shuffling once made, so the one returned may be shared."""
        known = self._after
        if known is not None and value in known:
            return known[value]
        groups = self.draws().groups
        if len(groups) == 2 and groups[0 if groups[0][0] == value else 1][1] == 1:
            nxt = None  # the last of its kind drawn from two kinds: one kind is left (a deal's last card)
        else:
            items, keys = self.items[:], self.keys[:]
            del items[value], keys[value]
            groups = _without(groups, value, self.keys[value], items, keys)
            nxt = Shuffling(items, keys, Draws.of(groups, len(items))) if len(groups) > 1 else None
        if known is not None:
            known[value] = nxt
        return nxt

    def draws(self) -> Draws:
        if self._draws is None:
            self._draws = Draws(self.items, self.keys)
        return self._draws


def _without(groups: list[list], value: int, key: Hashable, items: list, keys: list) -> list[list]:
    """The groups of `Draws(items, keys)` once the item at `value`, the first of its group (`key`), is
    gone (`items` and `keys` without it): what grouping the items again gives, for the groups' count
    rather than the items'. A deck of a hundred cards in twenty kinds is shuffled card by card."""
    out = []
    moved = None
    for g in groups:
        first = g[0]
        if first < value:
            out.append(g)
        elif first > value:
            out.append([first - 1, g[1], g[2]])
        elif g[1] > 1:  # the drawn one's group: its next item is its first now
            nxt = keys.index(key, value)
            moved = [nxt, g[1] - 1, items[nxt]]
    if moved is not None:  # in order of first items, as grouping again puts it
        at = len(out)
        while at > 0 and out[at - 1][0] > moved[0]:
            at -= 1
        out.insert(at, moved)
    return out


class ScriptedRng(Rng):
    """An RNG whose draws come from a script of outcomes; it asks for the next one when the script ends."""

    __slots__ = ("pos", "script")
    explicit = True

    def __init__(self, script: Sequence[int] = ()) -> None:
        self.state = 0  # Rng's, unused: a scripted draw reads its script (set here, not by a call up)
        self.script = list(script)
        self.pos = 0

    def copy(self) -> ScriptedRng:
        r = ScriptedRng(self.script)
        r.pos = self.pos
        return r

    def below(self, n: int) -> int:
        return self.pick(list(range(n)), None)

    def pick(self, items: Sequence[Any], key: Callable[[Any], Hashable] | None = None) -> int:
        return self._draw(items, [key(x) for x in items] if key is not None else list(range(len(items))))

    def _draw(self, items: Sequence[Any], keys: list[Hashable], shuffle: Shuffling | None = None) -> int:
        if len(set(keys)) == 1:  # a sure thing is no decision
            return 0
        if self.pos < len(self.script):
            v = self.script[self.pos]
            if not (0 <= v < len(keys) and keys.index(keys[v]) == v):  # the first item of its group
                raise ValueError(f"{v} is not an outcome of this chance event")
            self.pos += 1
            return v
        draws = Draws(items, keys)
        if shuffle is not None:
            shuffle._draws = draws  # its next draws are worked out from this one's (Shuffling.after)
        raise NeedChance(draws, shuffle)

    def shuffle(self, items: list, key: Callable[[Any], Hashable] | None = None) -> None:
        left = items[:]
        # An item's identity cannot change while it is shuffled: work it out once, not once per draw.
        keys: list[Hashable] = [key(x) for x in left] if key is not None else list(range(len(left)))
        # How many items of each kind are left, so that a replay's draws from the script cost no pass over
        # the items to learn whether a choice is left (`_draw`'s first test, for each draw of a shuffle).
        kinds: dict[Hashable, int] = {}
        for k in keys:
            kinds[k] = kinds.get(k, 0) + 1
        script = self.script
        out = []
        while len(kinds) > 1:
            if self.pos >= len(script):
                self._draw(left, keys, Shuffling(left, keys, first=True))  # raises NeedChance
            i = script[self.pos]
            if not (0 <= i < len(keys) and keys.index(keys[i]) == i):  # the first item of its group
                raise ValueError(f"{i} is not an outcome of this chance event")
            self.pos += 1
            out.append(left.pop(i))
            k = keys.pop(i)
            if kinds[k] == 1:
                del kinds[k]
            else:
                kinds[k] -= 1
        items[:] = out + left  # once every item left is like the others, they follow in their order


def pick_identity(ev: Any, x: Any, moved: bool) -> tuple:
    """What makes two items one outcome of a `random_pick`. Values compare by value. A component is
    itself alone, unless the pick is moved away at once (`move(random_pick(xs), z)`, `moved`): then
    identical copies lying next to each other in one zone are one outcome, since taking either leaves
    the same zone behind (a deal from a deck of two jacks, two queens and two kings has three outcomes).
    Copies elsewhere are not (found by QA: the ace in P1's hand and the ace in the deck were one outcome,
    and the first always went), nor is a pick the rules may change where it lies."""
    if type(x) is not Comp:
        return ("value", repr(encode(x)))
    same = identity(ev, x)
    key = ev.st.loc.get(int(x))
    if not moved or same[0] == "comp" or key is None:
        return ("comp", int(x))
    zone = ev.st.zones[key]
    i = zone.index(x)
    while i > 0 and identity(ev, zone[i - 1]) == same:  # the first of its run of alike copies
        i -= 1
    return (same, key, i)


def moved_picks(rs: Any) -> set[int]:
    """The `random_pick` calls whose pick is moved away at once: `move(random_pick(...), ...)`. (Cached.)"""
    cache = rs.derived()
    found = cache.get("moved_picks")
    if found is None:
        found = cache["moved_picks"] = {
            id(n.args[0]) for _, root in rs.scripts() for n in walk(root)
            if type(n) is A.Call and n.func == "move" and n.args
            and type(n.args[0]) is A.Call and n.args[0].func == "random_pick"}
    return found


def identity(ev: Any, x: Any) -> tuple:
    """What makes two items interchangeable in a shuffle: for components, the same item definition, the
    same counter values, the same face, and nothing in their slots (they stay in the one zone shuffled,
    so which copy lies where cannot be told); other values compare by value."""
    if type(x) is Comp:
        rs, st = ev.rs, ev.st
        d = rs.components[x]
        kind = rs.kinds[d.kind]
        if not kind.slots and not kind.counters:  # most cards: what the general case gives, sooner
            return ("item", d.item, (), x in st.facedown)
        slots, counters = component_keys(rs)[x]
        zones = st.zones
        for k in slots:
            if zones[k]:
                return ("comp", int(x))
        values = st.counters
        return ("item", d.item, tuple([repr(encode(values[k])) for k in counters]), x in st.facedown)
    return ("value", repr(encode(x)))
