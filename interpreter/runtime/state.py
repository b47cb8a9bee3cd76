"""The runtime state of a game in progress: plain data, cheap to copy, JSON round-trippable.

Everything the rules can change lives here: counters, zones (ordered lists of component ids),
face-down flags, the RNG, the log, the pending decision and the interpreter's frame stack. The
ruleset itself (AST, component data) is immutable and shared between copies.

Keys: global things use their name (`round`, `deck`); a player's use `<seat>.<name>` (`0.coins`);
a component's use `#<id>.<name>` (`#12.contents`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from meeple.language.model import Ruleset
from meeple.runtime.data import Comp, copy_value, copy_values, option_key
from meeple.runtime.frames import BLOCK, copy_frames

MASK64 = (1 << 64) - 1


class Rng:
    """splitmix64: a tiny state (one int) makes copies and saves cheap, and it is the same everywhere."""

    __slots__ = ("state",)
    explicit = False  # a ScriptedRng (chance.py) reports chance events instead of drawing

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("empty range")
        return (self.next() * n) >> 64

    def copy(self) -> Rng:
        return Rng(self.state)

    def pick(self, items: Sequence[Any], key: Callable[[Any], Hashable] | None = None) -> int:
        """The index of a uniformly random item. `key` tells which items are identical: a seeded draw
        ignores it, an explicit chance event (chance.py) offers one outcome per group."""
        return self.below(len(items))

    def shuffle(self, items: list, key: Callable[[Any], Hashable] | None = None) -> None:
        # `next` and `below` inlined, with MASK64 as a literal (a constant, not a global read): shuffles are
        # most of what a setup spends on randomness. `key` (which items are identical) matters only to an
        # explicit chance event (chance.py).
        s = self.state
        i = len(items) - 1
        while i > 0:
            s = (s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
            i -= 1
        self.state = s


class GameState:
    """All mutable game data. The interpreter reads and writes it; nothing else does."""

    __slots__ = (
        "_actions",
        "_keyed",
        "before",
        "counters",
        "coverage",
        "facedown",
        "lazy",
        "loc",
        "log",
        "nplayers",
        "over",
        "owned",
        "pending",
        "phase",
        "quiet",
        "result",
        "rng",
        "seed",
        "stack",
        "steps",
        "zones",
    )

    def __init__(self, nplayers: int, seed: int) -> None:
        self.nplayers = nplayers
        self.seed = seed
        self.rng = Rng(seed * 0x2545F4914F6CDD1D + 1)
        self.counters: dict[str, Any] = {}
        self.zones: dict[str, list[int]] = {}
        # Zones are copied on write: a copy shares every zone list with its original, and whichever
        # writes a zone first takes its own list (`writable`). `owned` holds the keys of the lists no
        # other state refers to. A search copies a game for each of its thousands of look-aheads, and most
        # zones (the empty slots of components in the box) never change in one of them.
        self.owned: set[str] = set()
        self.loc: dict[int, str] = {}  # component id -> key of the zone that holds it
        self.facedown: set[int] = set()
        # (audience: -1 for everyone, a seat, or an engine note (results.NOTE); text or parts (render.py))
        self.log: list[tuple[int, Any]] = []
        self.stack: list[Any] = []  # interpreter frames (see machine.py)
        self.pending: Any = None  # the open decision, or None
        self.over = False
        self.phase = ""
        self.steps = 0  # statements executed, a guard against runaway loops
        self._actions: list[Any] = []  # the action log (see `actions`)
        self._keyed = 0  # how many of its first entries are known to be keyed already
        self.coverage: dict[int, int] | None = None  # node id -> times run, when measuring coverage
        self.result: Any = None
        # A quiet game (simulations, a bot's look-ahead) keeps no log lines and no score notes: nobody
        # reads them, and building them costs time (a line's holes are still evaluated, for their errors).
        self.quiet = False
        # A lazy game (a bot's look-ahead) opens a `choose` without working out its options: most
        # look-aheads are judged and dropped, and nobody reads their menus. `Game` works them out on
        # first use (num_actions, legal_actions, apply_index), from the CHOOSE frame, as they were then.
        self.lazy = False
        # Where components were when the current step began (narrated games only; not saved): a seat
        # that saw a card then may read its name in this step's text even once it is hidden again.
        self.before: tuple[dict, frozenset] | None = None

    @property
    def actions(self) -> list[dict]:
        """The action log, for replay: `{"player": seat, "key": key}` per choice, the key the option's
        stable key (data.option_key). A choice made through `Game.apply_index` is recorded as (seat,
        option) and keyed here, when the log is first read: a bot's look-ahead, which never reads it,
        never makes a key (the option is plain data that nothing changes, so its key is the same later).
        A copy: a caller's `log.pop()` must not shorten the game's own log, whose saves replay it."""
        log = self._actions
        n = len(log)
        if self._keyed < n:
            for i in range(self._keyed, n):
                e = log[i]
                if type(e) is tuple:  # a chance outcome's key is its number (explicit.py)
                    log[i] = {"player": e[0], "key": str(e[1]) if type(e[1]) is int else option_key(e[1])}
            self._keyed = n
        return [dict(a) for a in log]

    @actions.setter
    def actions(self, log: list[dict]) -> None:
        self._actions, self._keyed = log, 0

    def record(self, entries: list[tuple[int, int]]) -> None:
        """Add entries to the action log: chance outcomes of an explicit-chance game, as (seat, outcome),
        keyed when the log is read (`actions`)."""
        self._actions.extend(entries)

    def writable(self, key: str) -> list:
        """The zone `key`, to change in place: never write `zones[key]` itself, it may be shared with a
        copy of this state."""
        if key in self.owned:
            return self.zones[key]
        z = self.zones[key] = self.zones[key][:]
        self.owned.add(key)
        return z

    def copy(self) -> GameState:
        g = GameState.__new__(GameState)
        g.nplayers, g.seed, g.over, g.phase, g.steps = self.nplayers, self.seed, self.over, self.phase, self.steps
        g.rng = self.rng.copy()
        g.counters = copy_values(self.counters)
        g.zones = self.zones.copy()
        g.owned = set()
        self.owned = set()  # every list is shared with the copy now
        g.loc = dict(self.loc)
        g.facedown = set(self.facedown)
        g.log = self.log[:]
        g.stack = copy_frames(self.stack)
        p = self.pending
        # A decision's players and options never change once open; only the choices made so far do.
        g.pending = None if p is None else {**p, "chosen": dict(p["chosen"])}
        g._actions, g._keyed = self._actions[:], self._keyed
        g.coverage = dict(self.coverage) if self.coverage is not None else None
        g.result = self.result
        g.quiet, g.lazy = self.quiet, self.lazy
        g.before = self.before
        return g


def component_keys(rs: Ruleset) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Per component (by id): the state keys of its slots and of its counters, in its kind's order (the
    same order for every component of a kind). Worked out once per ruleset: shuffles and determinizations
    ask for them at every draw and every deal."""
    cache = rs.derived()
    keys = cache.get("component keys")
    if keys is None:
        keys = cache["component keys"] = [
            (tuple(f"#{c}.{s}" for s in rs.kinds[d.kind].slots), tuple(f"#{c}.{n}" for n in rs.kinds[d.kind].counters))
            for c, d in enumerate(rs.components)]
    return keys


def initial_state(rs: Ruleset, players: int, seed: int, coverage: bool = False) -> GameState:
    """A new game's state before its first statement: counters at their initial values, every component
    in the box, and setup then flow ready to run. What does not depend on the seed is built once per
    ruleset and player count, and copied."""
    cache = rs.derived()
    template = cache.get(("initial", players))
    if template is None:
        template = cache[("initial", players)] = _template(rs, players)
    # Only these three are filled in the template (and a new state shares its zone lists: state.writable).
    st = GameState(players, seed)
    st.counters = template.counters.copy()
    st.zones = template.zones.copy()
    st.loc = template.loc.copy()
    if coverage:
        st.coverage = {}
    if rs.flow is not None:
        st.stack.append([BLOCK, rs.flow, {}, 0])
    if rs.setup is not None:
        st.stack.append([BLOCK, rs.setup, {}, 0])
    return st


def _template(rs: Ruleset, players: int) -> GameState:
    st = GameState(players, 0)
    for name, d in rs.game_counters.items():
        st.counters[name] = copy_value(d.initial)
    for p in range(players):
        for name, d in rs.player_counters.items():
            st.counters[f"{p}.{name}"] = copy_value(d.initial)
        for name in rs.player_zones:
            st.zones[f"{p}.{name}"] = []
    for name in rs.game_zones:
        st.zones[name] = []
    for c in rs.components:
        kind = rs.kinds[c.kind]
        for name, d in kind.counters.items():
            st.counters[f"#{c.id}.{name}"] = copy_value(d.initial)
        for name in kind.slots:
            st.zones[f"#{c.id}.{name}"] = []
        st.zones["box"].append(Comp(c.id))
        st.loc[c.id] = "box"
    return st


def assert_state(st: GameState) -> None:
    """Cheap consistency checks used by tests and by loading saves."""
    for key, zone in st.zones.items():
        for c in zone:
            if st.loc.get(c) != key:
                raise ValueError(f"component #{c} is in zone {key} but its location says {st.loc.get(c)}")
