"""The game tree behind the OpenSpiel adapter (tools/spiel.py): one loaded game's settings, and its
states as snapshots, each child reached by the same history shared instead of replayed.

A snapshot that only one state holds goes on in place: a random playout copies its game once, where it
copied it at every action (and kept every copy alive through the chain of parents: the garbage collector
walked them over and over, half of a playout's time). Whatever else comes to read a snapshot (a clone,
the Meeple game handed out, a resampled world) freezes it first: a frozen snapshot never changes again,
and the states that go on from it copy it.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter

import numpy as np
from meeple.errors import IllegalAction, Problem, UsageError
from meeple.language.model import Ruleset
from meeple.runtime.chance import CHANCE, ScriptedRng
from meeple.runtime.game import Game
from meeple.tools.observe import Layout


class _Config:
    """One loaded game: the ruleset, its settings, and the children of states already expanded.

    Frozen states (`_Node.freeze`) are cached by their history, so a child reached again by the same
    history is reused instead of replayed: CFR clones every state it expands, and walks the same tree
    every iteration. The cache is bounded by its states' size as well as their number: a cache of 200,000
    states of a large game held gigabytes, which the garbage collector walked over and over."""

    CACHE_LIMIT = 200_000  # states
    CACHE_ENTRIES = 1_000_000  # zones, counters and component places, summed over the cached states (about 100 MB)

    def __init__(self, name: str, rs: Ruleset, players: int, utility: str, zero_sum: bool) -> None:
        self.name, self.rs, self.players, self.utility, self.zero_sum = name, rs, players, utility, zero_sum
        self.layout = Layout(rs, players)
        self._root: _Node | None = None
        self.children: dict[tuple[int, ...], _Node] = {}
        self.limit = 1_000  # states the cache may hold: set with the root, from the size of its state

    def root(self) -> _Node:
        if self._root is None:
            game = Game.new(self.rs, self.players, 0, chance="explicit")
            st = game.state
            size = len(st.zones) + len(st.counters) + len(st.loc)
            self.limit = max(1_000, min(self.CACHE_LIMIT, self.CACHE_ENTRIES // max(size, 1)))
            self._root = _Node(self, game, None, -1, ())
            self._root.private = False  # every new state starts from it
        return self._root

    def child(self, history: tuple[int, ...], node: _Node, action: int) -> _Node:
        """The state after `action` from `node`, reached by `history` (its actions from the start of the
        game, or of the resampled world it belongs to: those are never cached), as a new snapshot."""
        hit = self.children.get(history) if node.world is None else None
        return hit if hit is not None else self._copied(history, node, action)

    def _copied(self, history: tuple[int, ...], node: _Node, action: int) -> _Node:
        g = node.game.copy()
        actor = _play(g, action)
        return _Node(self, g, node, actor, history, node.world)

    def advance(self, node: _Node, action: int) -> _Node:
        """The state after `action` from `node`, which only the caller's state holds: its game goes on in
        place unless it is frozen, or its trails were asked for (the next state's are made from them).
        The new snapshot's parent is `node`'s, the last intact snapshot: its past is replayed from there
        if its trails are asked for. An action refused leaves `node` as it was; a rule that fails part
        way leaves it replayed."""
        if not node.private or node._trails is not None:
            return self.child((*node.history, action), node, action)
        g = node.game
        try:
            actor = _play(g, action)
        except IllegalAction:
            raise
        except Exception:
            node.game = self.replayed(node).game  # the game went part of the way: as it was before
            raise
        node.game = None  # type: ignore[assignment]  # it goes on in the new snapshot: nothing may read it here
        # Its actions go on in place too: a new tuple at every action would copy the whole history each
        # time (quadratic in a game's length). The list becomes a tuple when the history is read.
        past = node._history if type(node._history) is list else list(node._history)
        node._history = ()
        past.append(action)
        return _Node(self, g, node.parent, actor, past, node.world)

    def keep(self, node: _Node) -> None:
        """A frozen snapshot, cached by its history: CFR clones every state it expands, and walks the same
        tree again."""
        if node.world is None and node.history not in self.children:
            if len(self.children) >= self.limit:
                self.children.clear()
            self.children[node.history] = node

    def replayed(self, node: _Node) -> _Node:
        """A new snapshot of a private `node`'s state (one that has a parent), played again from its parent;
        never `node` itself, which the cache may hold."""
        assert node.parent is not None
        base = self.along(node.parent, node.history[:-1])
        return self._copied(node.history, base, node.history[-1])

    def along(self, node: _Node, history: tuple[int, ...]) -> _Node:
        """The state after `history` (which goes on from `node`'s), from the cache or played from `node`."""
        for i in range(len(node.history), len(history)):
            node = self.child(history[:i + 1], node, history[i])
        return node

    def __deepcopy__(self, memo: dict) -> _Config:  # shared by every state of the game, never copied
        return self

    def __reduce__(self) -> tuple:  # pickled (pyspiel's serialize) as its registered name
        return _config, (self.name,)

    def at(self, history: tuple[int, ...]) -> _Node:
        """The state after `history` from the start, replayed (or found among the expanded ones)."""
        return self.along(self.root(), history)


def _config(name: str, what: str = "state") -> _Config:
    """The loaded game `name`; a pickled game or state (`what`) of a game this process has not loaded is U061."""
    config = _CONFIGS.get(name)
    if config is None:
        of = "this game is" if what == "game" else "this state is of the game"
        raise UsageError(Problem("U061", f"{of} `{name}`, which this process has not loaded: call "
                                         "meeple.openspiel.load with the same ruleset, players and settings first, "
                                         f"then load the {what}"))
    return config


def _node(name: str, history: tuple[int, ...]) -> _Node:
    return _config(name).at(history)


def resampled(config: _Config, node: _Node, player: int, seed: int) -> _Node:
    """A state that `player` cannot tell from `node`, with everything it cannot see dealt again from `seed`
    (the Game API's `determinize`). Its later random events are chance nodes, as in every other state of
    the game: `determinize` gives a copy that draws them from its seeded generator (for bots' playouts),
    which is swapped for the explicit one (an empty script, as at any decision of an explicit game:
    runtime/explicit.py). The player's trail is kept; the other seats' start at their view of the new
    world, whose past is not known."""
    game = node.game.determinize(player, seed)
    game.state.rng = ScriptedRng()  # every game of the adapter has explicit chance (`_Config.root`)
    root = _Node(config, game, None, -1, (), (node, player, seed))
    root.private = False  # its trails are set: the states that go on from it copy it
    root._note_views([node.trail(p)[:] if p == player else [] for p in range(config.players)])
    return root


def _world(name: str, world: tuple[_Node, int, int], history: tuple[int, ...]) -> _Node:
    """The state after `history` in a resampled world (`world` is what `resampled` was given): unpickled.
    A determinization depends only on what the player sees and on the seed, so it is made again."""
    config = _config(name)
    return config.along(resampled(config, *world), history)


_CONFIGS: dict[str, _Config] = {}


class _Node:
    """A state: a snapshot of the Meeple game, the last intact snapshot before it (`parent`: the one just
    before, or for a snapshot made in place an earlier one), and each seat's trail of views, computed
    only when an information state is asked for. A private snapshot (one state holds it) goes on in place; pyspiel
    clones a state by deep-copying its attributes, and a snapshot is frozen and shared instead."""

    __slots__ = ("_history", "_tensors", "_texts", "_trails", "_views", "actor", "config", "game", "parent",
                 "private", "world")

    def __init__(self, config: _Config, game: Game, parent: _Node | None, actor: int,
                 history: tuple[int, ...] | list[int], world: tuple[_Node, int, int] | None = None) -> None:
        self.config, self.game, self.parent, self.actor = config, game, parent, actor
        self._history = history  # a list while it grows in place (`_Config.advance`), else a tuple
        self.world = world  # what the resampled world this state is in was made from (`resampled`), or None
        self.private = True  # held by one state only, which may play on in place (`_Config.advance`)
        self._trails: list[list[str]] | None = None
        self._views: dict[int, dict] = {}
        self._texts: dict[int, str] = {}
        self._tensors: dict[int, np.ndarray] = {}

    @property
    def history(self) -> tuple[int, ...]:
        """The actions from the start of the game (or of the resampled world): the key of the cache."""
        h = self._history
        if isinstance(h, list):
            self._history = h = tuple(h)
        return h

    def view(self, seat: int) -> dict:
        """The seat's view, made once per state: views are the costly part."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.game.view(seat)
        return view

    def view_text(self, seat: int) -> str:
        """The seat's view as JSON (which names components by item, so copies are not told apart)."""
        text = self._texts.get(seat)
        if text is None:
            text = json.dumps(self.view(seat), sort_keys=True, separators=(",", ":"))
            self._texts[seat] = text
        return text

    def tensor(self, seat: int, layout: Layout) -> np.ndarray:
        out = self._tensors.get(seat)
        if out is None:
            # Read from the state, as the view without texts encodes (observe.py): an observer asking only
            # for tensors (an RL environment) pays for no view, label, prompt or log line at every state.
            out = self._tensors[seat] = layout.observe(self.game, seat)
        return out

    def trail(self, seat: int) -> list[str]:
        """What `seat` has seen: digests of its distinct successive views, and its own actions."""
        if self._trails is None:
            chain = []
            node: _Node | None = self
            while node is not None and node._trails is None:
                if node.parent is not None and len(node.parent.history) < len(node.history) - 1:
                    again = self.config.replayed(node)  # made in place: its past is played again
                    again.trail(0)
                    node._trails = again._trails
                    break
                chain.append(node)
                node = node.parent
            for n in reversed(chain):
                players = n.game.state.nplayers
                trails = [t[:] for t in n.parent._trails] if n.parent is not None and n.parent._trails \
                    else [[] for _ in range(players)]
                if n.parent is not None and n.actor >= 0:
                    trails[n.actor].append("> " + _player_labels(n.parent.game, n.actor)[n.history[-1]])
                n._note_views(trails)
        assert self._trails is not None
        return self._trails[seat]

    def freeze(self) -> None:
        """Something besides its state reads this snapshot now: it never changes again (and is cached)."""
        if self.private:
            self.private = False
            self.config.keep(self)

    def _note_views(self, trails: list[list[str]]) -> None:
        for p, t in enumerate(trails):
            digest = hashlib.sha256(self.view_text(p).encode()).hexdigest()[:20]
            if not t or t[-1] != digest:
                t.append(digest)
        self._trails = trails

    def __deepcopy__(self, memo: dict) -> _Node:  # pyspiel's clone: both states share it, frozen
        self.freeze()
        return self

    def __reduce__(self) -> tuple:  # pickled as its history (and resampled world), and replayed when loaded
        if self.world is not None:
            return _world, (self.config.name, self.world, self.history)
        return _node, (self.config.name, self.history)


def _play(g: Game, action: int) -> int:
    """Apply an OpenSpiel action to `g`; the seat that acted (CHANCE for a chance event)."""
    if g.is_over:
        raise IllegalAction(Problem("G002", "the game is over: no action is legal"))
    if g.is_chance:
        g.apply({"player": CHANCE, "key": str(action)})
        return CHANCE
    seat = g.deciders[0]
    g.apply_index(action, seat)
    return seat


def _unique(labels: list[str]) -> list[str]:
    """Labels that two options share are numbered in menu order (`Play Red [1]`, `Play Red [2]`): never
    by the options' keys, which name component ids and so would tell copies of an item apart."""
    total, nth = Counter(labels), Counter[str]()
    out = []
    for s in labels:
        nth[s] += 1
        out.append(s if total[s] == 1 else f"{s} [{nth[s]}]")
    return out


def _player_labels(g: Game, seat: int) -> list[str]:
    return _unique([a["label"] for a in g.legal_actions(seat)])
