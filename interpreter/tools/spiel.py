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
* resampling (ISMCTS): `resample_from_infostate` deals again what the seat cannot see, with the Game
  API's `determinize` (tools/spieltree.py: `resampled`); later random events are chance nodes still.
* serialising: a state stores its history and replays it when loaded; only its own game loads it.
* returns: the scores (`utility="score"`), or a share of the win (`utility="win"`: 1 split among the
  winners, a constant-sum game). Sizes and bounds are measured (tools/probe.py) unless given.
"""

from __future__ import annotations

import json
import numbers
import re
from os import PathLike
from typing import TYPE_CHECKING, Any

import pyspiel
from meeple.errors import Problem, UsageError
from meeple.language.model import Ruleset
from meeple.runtime.explicit import probabilities
from meeple.runtime.game import Game, ruleset_digest
from meeple.runtime.rules import load_ruleset
from meeple.tools.probe import BadArgument, outgrown, profile, settings
from meeple.tools.spielobs import Observer, observer

# `_config` and `_node` are not used here: states pickled before the game tree moved to spieltree.py name
# them in this module, and must still load.
from meeple.tools.spieltree import _CONFIGS, _Config, _config, _node, _player_labels, _unique, resampled  # noqa: F401

T = pyspiel.GameType


def load(ruleset: str | PathLike | Ruleset, players: int = 2, *, utility: str = "score",
         max_actions: int | None = None, max_outcomes: int | None = None,
         utility_range: tuple[float, float] | None = None) -> pyspiel.Game:
    """Register `ruleset` for `players` seats as a pyspiel game and load it."""
    rs = ruleset if isinstance(ruleset, Ruleset) else load_ruleset(ruleset)
    players = settings(rs, players, utility, max_actions=max_actions, max_outcomes=max_outcomes)
    if utility_range is not None:
        utility_range = _range(utility_range)
    prof = profile(rs, players)
    slug = re.sub(r"[^a-z0-9]+", "_", rs.name.lower()).strip("_")
    name = f"meeple_{slug}_{ruleset_digest(rs)[:8]}_{players}p_{utility}"
    if (max_actions, max_outcomes, utility_range) != (None, None, None):  # pyspiel keeps games by name
        name += "_" + re.sub(r"[^0-9a-z]+", "_", f"{max_actions}_{max_outcomes}_{utility_range}".lower()).strip("_")
    total: float | None
    if utility == "win":
        kind, lo, hi, total = T.Utility.CONSTANT_SUM, 0.0, 1.0, 1.0
    else:
        lo, hi = utility_range or prof.utility_range()
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
        num_distinct_actions=max_actions or prof.num_actions(),
        max_chance_outcomes=(max_outcomes or prof.max_outcomes) if prof.has_chance else 0,
        num_players=players, min_utility=float(lo), max_utility=float(hi),
        utility_sum=total, max_game_length=prof.max_game_length())
    known = name in _CONFIGS
    _CONFIGS[name] = _Config(name, rs, players, utility, prof.zero_sum and utility == "score")
    if not known:
        # A class per game, not a closure: pyspiel keeps the creator until after Python has shut down,
        # and a class (which refers to itself) is never freed then, where a closure would crash the exit.
        creator = type(f"MeepleGame_{name}", (MeepleGame,), {"_spec": (game_type, info, name)})
        pyspiel.register_game(game_type, creator)
    return pyspiel.load_game(name)


def _range(given: Any) -> tuple[float, float]:
    try:
        lo, hi = (float(x) for x in given)
    except (TypeError, ValueError):
        lo = hi = float("nan")
    if not lo < hi:  # also refuses NaN
        raise BadArgument(Problem("U060", f"utility_range= must be two numbers (lowest, highest), the lowest "
                                          f"first, not {given!r}"))
    return lo, hi


class MeepleGame(pyspiel.Game):
    _spec: tuple[Any, Any, str]

    def __init__(self, params: Any = None) -> None:
        game_type, info, name = self._spec
        super().__init__(game_type, info, params or {})
        self.config = _CONFIGS[name]

    def new_initial_state(self) -> MeepleState:
        return MeepleState(self)

    def deserialize_state(self, data: str) -> MeepleState:
        return _of_its_history(super().deserialize_state(data))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return observer(self.config, iig_obs_type)

    def __reduce__(self) -> tuple:
        """Pickled by its registered name, as its states are (found by QA: its class is made at run
        time, so pickle could not find it, and a game could not go to a worker process)."""
        return _registered, (self._spec[2],)


def _registered(name: str) -> MeepleGame:
    _config(name, "game")  # a game this process has not loaded: U061, saying what to load first
    return pyspiel.load_game(name)


def _unpickled(name: str, data: str) -> MeepleState:
    """A pickled state (pyspiel's own pickle: its game's name and the state serialized), once its game is
    known to be loaded: else pyspiel would look for it among its own games and list them all."""
    _config(name)
    return _of_its_history(pyspiel.deserialize_game_and_state(data)[1])


def _of_its_history(state: MeepleState) -> MeepleState:
    """A deserialized state, refused if its history (pyspiel's `history=` line) is not the history of the
    game it holds (its pickled node): found by QA, an edited line loaded, and `history()` then told
    another game than the one played on."""
    history = tuple(state.history())
    if state.node.history != history:
        raise UsageError(Problem("U062", f"this state's history ({', '.join(map(str, history)) or 'empty'}) is not "
                                         "the history of the game it holds: it was edited; deserialize what "
                                         "serialize() gave"))
    return state


def _sampled(sampler: Any) -> float:
    """What `resample_from_infostate`'s sampler gives, a number in [0, 1); anything else is U063 (found by
    QA: NaN, a string or a sampler that raised ended in a bare ValueError or the sampler's own error)."""
    try:
        value = sampler()
    except Exception as e:
        raise BadArgument(Problem("U063", f"the probability sampler given to resample_from_infostate failed "
                                          f"({type(e).__name__}: {e}): give a function taking no arguments and "
                                          "returning a number in [0, 1), such as "
                                          "pyspiel.UniformProbabilitySampler(0., 1.)")) from e
    if isinstance(value, numbers.Real) and not isinstance(value, bool) and 0 <= float(value) < 1:  # not NaN
        return float(value)
    raise BadArgument(Problem("U063", f"the probability sampler given to resample_from_infostate returned "
                                      f"{value!r}: it must return a number in [0, 1), as "
                                      "pyspiel.UniformProbabilitySampler(0., 1.) does"))


class _OfItsGame:
    """`MeepleState.config`, which only a state's own game may set. pyspiel sets a state's attributes one
    by one: `__init__`, then cloning (from a state of the same game) and `game.deserialize_state` (from the
    pickled attributes of whatever state was serialized: another Meeple game's loads as well). A config of
    another game than the one already set is refused. Only setting goes through here (no `__get__`), so
    reading `state.config` stays a plain attribute read."""

    def __set__(self, state: MeepleState, config: _Config) -> None:
        d = state.__dict__
        old = d.get("config")
        if old is not None and config is not old and config.name != old.name:
            raise UsageError(Problem("U062", f"this state is of the game `{config.name}` ({config.rs.name}), so the "
                                             f"game `{old.name}` ({old.rs.name}) cannot load it: deserialize it "
                                             "with the game it was serialized from"))
        d["config"] = config


class MeepleState(pyspiel.State):
    if TYPE_CHECKING:
        config: _Config
    else:
        config = _OfItsGame()

    def __init__(self, game: MeepleGame) -> None:
        super().__init__(game)
        self.config = game.config
        self.node = self.config.root()

    @property
    def meeple(self) -> Game:
        """The Meeple game behind this state, shared with its clones: copy it before changing it. (Handed
        out, it is frozen: the state's next action copies it instead of going on in place.)"""
        self.node.freeze()
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
            raise outgrown(g, f"a decision offers {n} options, more than the {self.get_game().num_distinct_actions()} "
                              "this game was loaded with: pass max_actions= to meeple.openspiel.load")
        return list(range(n))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        limit = self.get_game().max_chance_outcomes()
        out = probabilities(self.node.game)  # what chance_outcomes() gives, without making its labels
        if any(v >= limit for v, _ in out):
            raise outgrown(self.node.game, f"a chance event has an outcome beyond the {limit} this game was "
                                           "loaded with: pass max_outcomes= to meeple.openspiel.load")
        return sorted(out)

    def _apply_action(self, action: int) -> None:
        self.node = self.config.advance(self.node, action)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MeepleState:
        """A state `player_id` cannot tell from this one (the same information state), with everything
        it cannot see dealt again at random: for ISMCTS and other determinizing searches. `probability_sampler`
        (pyspiel.UniformProbabilitySampler, or any function giving a number in [0, 1)) seeds the deal. The
        new world's later random events are chance nodes, as in any state of the game; its `history()`
        starts empty, as its past is not known."""
        seed = int(_sampled(probability_sampler) * 2**53)
        out = MeepleState(self.get_game())
        self.node.freeze()  # the new world is made again from it when it is unpickled
        out.node = resampled(self.config, self.node, player_id, seed)
        return out

    def __reduce__(self) -> tuple:
        """Pickled as pyspiel pickles a state, but loaded through `_unpickled` (found by QA: a state
        unpickled where its game was not loaded was pyspiel's `Unknown game`, listing all of its games)."""
        return _unpickled, (self.config.name, self.__getstate__())

    def _action_to_string(self, player: int, action: int) -> str:
        g = self.node.game
        if player == pyspiel.PlayerId.CHANCE:
            acts = [a for a, _ in g.chance_outcomes()]
            labels = _unique([a["label"] for a in acts])
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
        lo, hi = self.get_game().min_utility(), self.get_game().max_utility()
        if not all(lo <= x <= hi for x in scores):
            raise outgrown(g, f"the scores {scores} go beyond the utility range [{lo}, {hi}] this game was loaded "
                              "with (measured by playing games): pass utility_range= to meeple.openspiel.load")
        return scores

    def __str__(self) -> str:
        g = self.node.game
        st = g.state
        node = g._chance
        return json.dumps({"phase": st.phase, "counters": {k: repr(v) for k, v in st.counters.items()},
                           "zones": st.zones, "facedown": sorted(st.facedown), "over": st.over,
                           "deciders": g.deciders, "chance": node.outcomes if node else None},
                          sort_keys=True, separators=(",", ":"))
