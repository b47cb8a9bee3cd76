"""Any ruleset as an OpenSpiel game (the `meeple.openspiel` adapter; needs `pip install 'meeple[openspiel]'`).

    game = meeple.openspiel.load("my_game.yaml", players=2)   # a pyspiel.Game, registered by name
    state = game.new_initial_state()

The game runs with explicit chance (runtime/explicit.py), so every shuffle and random pick is a chance
node with exact outcome probabilities. What OpenSpiel asks for comes from the Game API:

* actions: a player's action id is the index of the option in the menu (`game.legal_actions(seat)`);
  a chance action id is the outcome's value (runtime/chance.py). Action strings are the labels.
* sealed choices (`simultaneous`) are taken one seat after the other; no seat's view shows another's
  pending choice, so the game stays sequential without leaking anything.
* information states (perfect recall): everything the seat has seen: a digest of each of its distinct
  successive views, its own actions (labels), then its current view in full (JSON). Observation
  strings are the current view, observation tensors its fixed-size encoding (tools/observe.py).
* returns: the scores (`utility="score"`), or a share of the win (`utility="win"`: 1 split among the
  winners, a constant-sum game). Sizes and bounds are measured (tools/probe.py) unless given.
"""

from __future__ import annotations

import hashlib
import json
import re
from os import PathLike
from typing import Any

import numpy as np
import pyspiel
from meeple.language.model import Ruleset
from meeple.runtime.chance import CHANCE
from meeple.runtime.game import Game, ruleset_digest
from meeple.runtime.rules import load_ruleset
from meeple.tools.observe import Layout, canonical
from meeple.tools.probe import profile

T = pyspiel.GameType


class _Config:
    """One loaded game: the ruleset, its settings, and the children of states already expanded.

    States are immutable snapshots (`_Node`), so a child reached again by the same history is reused
    instead of replayed: CFR walks the same tree every iteration. The cache is bounded."""

    CACHE_LIMIT = 200_000

    def __init__(self, name: str, rs: Ruleset, players: int, utility: str, zero_sum: bool) -> None:
        self.name, self.rs, self.players, self.utility, self.zero_sum = name, rs, players, utility, zero_sum
        self.layout = Layout(rs, players)
        self._root: _Node | None = None
        self.children: dict[tuple[int, ...], _Node] = {}

    def root(self) -> _Node:
        if self._root is None:
            self._root = _Node(self, Game.new(self.rs, self.players, 0, chance="explicit"), None, -1, ())
        return self._root

    def child(self, history: tuple[int, ...], node: _Node, action: int) -> _Node:
        hit = self.children.get(history)
        if hit is not None:
            return hit
        g = node.game.copy()
        if g.is_chance:
            g.apply({"player": CHANCE, "key": str(action)})
        else:
            g.apply_index(action, g.deciders[0])
        if len(self.children) >= self.CACHE_LIMIT:
            self.children.clear()
        actor = node.game.current_player
        out = self.children[history] = _Node(self, g, node, CHANCE if actor is None else actor, history)
        return out

    def __deepcopy__(self, memo: dict) -> _Config:  # shared by every state of the game, never copied
        return self

    def __reduce__(self) -> tuple:  # pickled (pyspiel's serialize) as its registered name
        return _config, (self.name,)

    def at(self, history: tuple[int, ...]) -> _Node:
        """The state after `history` from the start, replayed (or found among the expanded ones)."""
        node = self.root()
        for i in range(len(history)):
            node = self.child(history[:i + 1], node, history[i])
        return node


def _config(name: str) -> _Config:
    return _CONFIGS[name]


def _node(name: str, history: tuple[int, ...]) -> _Node:
    return _CONFIGS[name].at(history)


_CONFIGS: dict[str, _Config] = {}


def load(ruleset: str | PathLike | Ruleset, players: int = 2, *, utility: str = "score",
         max_actions: int | None = None, max_outcomes: int | None = None,
         utility_range: tuple[float, float] | None = None) -> pyspiel.Game:
    """Register `ruleset` for `players` seats as a pyspiel game and load it."""
    rs = ruleset if isinstance(ruleset, Ruleset) else load_ruleset(ruleset)
    if utility not in ("score", "win"):
        raise ValueError(f"utility must be 'score' or 'win', not {utility!r}")
    if not rs.min_players <= players <= rs.max_players:
        raise ValueError(f"{rs.name} is for {rs.min_players} to {rs.max_players} players, not {players}")
    prof = profile(rs, players)
    slug = re.sub(r"[^a-z0-9]+", "_", rs.name.lower()).strip("_")
    name = f"meeple_{slug}_{ruleset_digest(rs)[:8]}_{players}p_{utility}"
    if (max_actions, max_outcomes, utility_range) != (None, None, None):  # pyspiel keeps games by name
        name += "_" + re.sub(r"[^0-9a-z]+", "_", f"{max_actions}_{max_outcomes}_{utility_range}".lower()).strip("_")
    total: float | None
    if utility == "win":
        kind, lo, hi, total = T.Utility.CONSTANT_SUM, 0.0, 1.0, 1.0
    else:
        span = max(prof.max_score - prof.min_score, 1.0)
        lo, hi = utility_range or (prof.min_score - span, prof.max_score + span)
        kind, total = (T.Utility.ZERO_SUM, 0.0) if prof.zero_sum else (T.Utility.GENERAL_SUM, None)
    game_type = T(
        short_name=name, long_name=f"Meeple: {rs.name}", dynamics=T.Dynamics.SEQUENTIAL,
        chance_mode=T.ChanceMode.EXPLICIT_STOCHASTIC if prof.has_chance else T.ChanceMode.DETERMINISTIC,
        information=T.Information.PERFECT_INFORMATION if prof.perfect_information
        else T.Information.IMPERFECT_INFORMATION,
        utility=kind, reward_model=T.RewardModel.TERMINAL, max_num_players=players, min_num_players=players,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True, parameter_specification={})
    info = pyspiel.GameInfo(
        num_distinct_actions=max_actions or prof.max_actions + prof.max_actions // 2,
        max_chance_outcomes=(max_outcomes or prof.max_outcomes) if prof.has_chance else 0,
        num_players=players, min_utility=float(lo), max_utility=float(hi),
        utility_sum=total, max_game_length=2 * prof.max_decisions + 10)
    known = name in _CONFIGS
    _CONFIGS[name] = _Config(name, rs, players, utility, prof.zero_sum and utility == "score")
    if not known:
        # A class per game, not a closure: pyspiel keeps the creator until after Python has shut down,
        # and a class (which refers to itself) is never freed then, where a closure would crash the exit.
        creator = type(f"MeepleGame_{name}", (MeepleGame,), {"_spec": (game_type, info, name)})
        pyspiel.register_game(game_type, creator)
    return pyspiel.load_game(name)


class MeepleGame(pyspiel.Game):
    _spec: tuple[Any, Any, str]

    def __init__(self, params: Any = None) -> None:
        game_type, info, name = self._spec
        super().__init__(game_type, info, params or {})
        self.config = _CONFIGS[name]

    def new_initial_state(self) -> MeepleState:
        return MeepleState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.config, recall)


class _Node:
    """A state: an immutable snapshot of the Meeple game (never changed once made), its parent, and each
    seat's trail of views, computed only when an information state is asked for. pyspiel clones a state
    by deep-copying its attributes; a snapshot is shared instead."""

    __slots__ = ("_tensors", "_texts", "_trails", "_views", "actor", "config", "game", "history", "parent")

    def __init__(self, config: _Config, game: Game, parent: _Node | None, actor: int,
                 history: tuple[int, ...]) -> None:
        self.config, self.game, self.parent, self.actor, self.history = config, game, parent, actor, history
        self._trails: list[list[str]] | None = None
        self._views: dict[int, dict] = {}
        self._texts: dict[int, str] = {}
        self._tensors: dict[int, np.ndarray] = {}

    def view(self, seat: int) -> dict:
        """The seat's view, made once per state: views are the costly part."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.game.view(seat)
        return view

    def view_text(self, seat: int) -> str:
        """The seat's view as JSON, copies of an item not told apart (observe.canonical)."""
        text = self._texts.get(seat)
        if text is None:
            text = json.dumps(canonical(self.view(seat), self.config.rs), sort_keys=True, separators=(",", ":"))
            self._texts[seat] = text
        return text

    def tensor(self, seat: int, layout: Layout) -> np.ndarray:
        out = self._tensors.get(seat)
        if out is None:
            out = self._tensors[seat] = layout.encode(self.view(seat))
        return out

    def trail(self, seat: int) -> list[str]:
        """What `seat` has seen: digests of its distinct successive views, and its own actions."""
        if self._trails is None:
            chain = []
            node: _Node | None = self
            while node is not None and node._trails is None:
                chain.append(node)
                node = node.parent
            for n in reversed(chain):
                players = n.game.state.nplayers
                trails = [t[:] for t in n.parent._trails] if n.parent is not None and n.parent._trails \
                    else [[] for _ in range(players)]
                if n.parent is not None and n.actor >= 0:
                    trails[n.actor].append("> " + _player_labels(n.parent.game, n.actor)[n.history[-1]])
                for p, t in enumerate(trails):
                    digest = hashlib.sha256(n.view_text(p).encode()).hexdigest()[:20]
                    if not t or t[-1] != digest:
                        t.append(digest)
                n._trails = trails
        assert self._trails is not None
        return self._trails[seat]

    def __deepcopy__(self, memo: dict) -> _Node:
        return self

    def __reduce__(self) -> tuple:  # pickled as its history, and replayed when loaded
        return _node, (self.config.name, self.history)


def _unique(labels: list[str], keys: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    for s in labels:
        seen[s] = seen.get(s, 0) + 1
    return [s if seen[s] == 1 else f"{s} [{k}]" for s, k in zip(labels, keys)]


def _player_labels(g: Game, seat: int) -> list[str]:
    acts = g.legal_actions(seat)
    return _unique([a["label"] for a in acts], [a["key"] for a in acts])


class MeepleState(pyspiel.State):
    def __init__(self, game: MeepleGame) -> None:
        super().__init__(game)
        self.config = game.config
        self.node = self.config.root()

    @property
    def meeple(self) -> Game:
        """The Meeple game behind this state, shared with its clones: copy it before changing it."""
        return self.node.game

    def current_player(self) -> int:
        g = self.node.game
        if g.is_over:
            return pyspiel.PlayerId.TERMINAL
        if g.is_chance:
            return pyspiel.PlayerId.CHANCE
        return g.deciders[0]

    def _legal_actions(self, player: int) -> list[int]:
        g = self.node.game
        n = g.num_actions(player)
        if n > self.get_game().num_distinct_actions():
            raise RuntimeError(f"a decision offers {n} options, more than the {self.get_game().num_distinct_actions()} "
                               "this game was loaded with: pass max_actions= to meeple.openspiel.load")
        return list(range(n))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        limit = self.get_game().max_chance_outcomes()
        out = [(int(a["key"]), float(p)) for a, p in self.node.game.chance_outcomes()]
        if any(v >= limit for v, _ in out):
            raise RuntimeError(f"a chance event has an outcome beyond the {limit} this game was loaded with: "
                               "pass max_outcomes= to meeple.openspiel.load")
        return sorted(out)

    def _apply_action(self, action: int) -> None:
        self.node = self.config.child((*self.history(), action), self.node, action)

    def _action_to_string(self, player: int, action: int) -> str:
        g = self.node.game
        if player == pyspiel.PlayerId.CHANCE:
            acts = [a for a, _ in g.chance_outcomes()]
            labels = _unique([a["label"] for a in acts], [a["key"] for a in acts])
            by_value = {int(a["key"]): s for a, s in zip(acts, labels)}
            return "chance: " + by_value.get(action, f"outcome {action}")
        labels = _player_labels(g, player)
        return labels[action] if 0 <= action < len(labels) else f"action {action}"

    def is_terminal(self) -> bool:
        return self.node.game.is_over

    def returns(self) -> list[float]:
        g, cfg = self.node.game, self.config
        if not g.is_over:
            return [0.0] * cfg.players
        if cfg.utility == "win":
            won = g.winners
            return [1.0 / len(won) if p in won else 0.0 for p in range(cfg.players)]
        scores = [float(s) for s in g.scores]
        if cfg.zero_sum and abs(sum(scores)) > 1e-9:
            raise RuntimeError(f"{cfg.rs.name} was loaded as zero-sum, but these scores sum to {sum(scores)}: "
                               "load it with utility='win'")
        return scores

    def __str__(self) -> str:
        g = self.node.game
        st = g.state
        node = g._chance
        return json.dumps({"phase": st.phase, "counters": {k: repr(v) for k, v in st.counters.items()},
                           "zones": st.zones, "facedown": sorted(st.facedown), "over": st.over,
                           "deciders": g.deciders, "chance": node.outcomes if node else None},
                          sort_keys=True, separators=(",", ":"))


class Observer:
    """pyspiel's Python observer: `tensor` and `dict` from the view, strings from views or trails."""

    def __init__(self, config: _Config, perfect_recall: bool) -> None:
        self.config, self.perfect_recall = config, perfect_recall
        # Information states are strings only: a trail of views has no fixed size.
        self.tensor = None if perfect_recall else np.zeros(config.layout.size, np.float32)
        self.dict = {} if self.tensor is None else {"observation": self.tensor}

    def set_from(self, state: MeepleState, player: int) -> None:
        if self.tensor is not None:
            self.tensor[:] = state.node.tensor(player, self.config.layout)

    def string_from(self, state: MeepleState, player: int) -> str:
        if self.perfect_recall:  # the past as digests of views, the present in full
            return "\n".join([*state.node.trail(player), state.node.view_text(player)])
        return state.node.view_text(player)
