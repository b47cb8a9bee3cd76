"""Any ruleset as a PettingZoo AEC environment (the `meeple.pettingzoo` adapter; needs
`pip install 'meeple[pettingzoo]'`).

    env = meeple.pettingzoo.env("my_game.yaml", players=3)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

* agents are `player_0`, `player_1`, ...; the agent to act is the (first) seat that must decide.
  Sealed choices (`simultaneous`) are asked one seat after the other, and no seat's observation shows
  another's pending choice.
* an observation is `{"observation": float32 vector, "action_mask": int8 vector}`: the seat's view
  encoded with the fixed layout of tools/observe.py, and 1 for each option of the seat's menu.
* the action space is Discrete(N): action i is the i-th option of the menu, in the order of
  `game.legal_actions(seat)`. N is measured by playing seeded games (tools/probe.py) with a margin,
  or given as `max_actions`; a menu that outgrows it is an error that says so.
* rewards come only at the end: the scores (`utility="score"`), or 1 split among the winners
  (`utility="win"`). `reset(seed=s)` starts the game of seed s (as `rs.new_game(players, seed=s)`); a
  reset without a seed draws the next seed from the last one given.
"""

from __future__ import annotations

import re
from os import PathLike
from typing import Any

import numpy as np
from gymnasium import spaces
from meeple.errors import IllegalAction, Problem, UsageError
from meeple.language.model import Ruleset
from meeple.runtime.game import Game
from meeple.runtime.rules import load_ruleset
from meeple.tools.observe import Layout
from meeple.tools.probe import BadArgument, as_int, outgrown, profile, settings, whole
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers


class BadStep(IllegalAction, ValueError):
    """An action `step` refuses (the game is unchanged). Also a ValueError, as it was before."""


class NoEpisode(UsageError, RuntimeError):
    """`reset` drew a game that is over before its first decision (U064); the environment keeps its game."""


class NotReset(UsageError, RuntimeError):
    """`step`, `observe` or `last` of an environment that has no game: never reset, a reset refused, or
    closed (U065). PettingZoo's wrapper says so itself; this is the unwrapped environment's answer."""


def env(ruleset: str | PathLike | Ruleset, players: int = 2, **kwargs: Any) -> AECEnv:
    """The environment, wrapped as PettingZoo's own environments are (calls in the right order)."""
    return InOrder(raw_env(ruleset, players, **kwargs))


class InOrder(wrappers.OrderEnforcingWrapper):
    """PettingZoo's wrapper that enforces the order of calls. It counts a reset as done before the reset
    runs, so a reset refused before any other (U064) would let `step` reach an environment with no game;
    a refused reset leaves the wrapper as it was, and PettingZoo's own error says to reset first."""

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        had: bool = self._has_reset  # type: ignore[has-type]  # PettingZoo sets it without a type
        try:
            super().reset(seed=seed, options=options)
        except NoEpisode:
            self._has_reset = had
            raise


class raw_env(AECEnv):  # lower case: PettingZoo's name for the unwrapped environment

    def __init__(self, ruleset: str | PathLike | Ruleset, players: int = 2, *, utility: str = "score",
                 max_actions: int | None = None, narrate: bool = False) -> None:
        super().__init__()
        rs = ruleset if isinstance(ruleset, Ruleset) else load_ruleset(ruleset)
        players = settings(rs, players, utility, max_actions=max_actions)
        self.rs, self.players, self.utility = rs, players, utility
        # Nothing an agent receives holds a log line (no render mode, empty infos): games are quiet unless
        # asked, for a person reading `env.unwrapped.game.log`.
        if type(narrate) is not bool:
            raise BadArgument(Problem("U060", f"narrate= must be true or false, not {narrate!r}"))
        self.narrate = narrate
        self.metadata = {"render_modes": [], "is_parallelizable": False,
                         "name": "meeple_" + re.sub(r"[^a-z0-9]+", "_", rs.name.lower()).strip("_")}
        self.num_actions = max_actions or profile(rs, players).num_actions()
        self.layout = Layout(rs, players)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.layout.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
        })
        self._act_space = spaces.Discrete(self.num_actions)
        self._seeds: np.random.Generator | None = None
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:  # the game's seed is the one given; later resets without one draw from it
            game_seed = whole(seed, "the seed")
            self._seeds = np.random.default_rng(game_seed % 2**64)
        else:
            if self._seeds is None:
                self._seeds = np.random.default_rng()
            game_seed = int(self._seeds.integers(2**31))
        game = Game.new(self.rs, self.players, game_seed, narrate=self.narrate)
        if game.is_over:
            # PettingZoo has no episode without a first move (api_test: agents, none of them terminated,
            # after every reset); a designer's rules may still end a game in its setup.
            raise NoEpisode(Problem(
                "U064", f"the game of seed {game_seed} ({self.rs.name}, {self.players} players) is over before "
                        f"anyone decides, so it is no episode: its setup or flow ended it",
                hint="check the ruleset's end of game with `meeple play` or `meeple test`; the environment "
                     "keeps the game it had"))
        self.game = game
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._check_menu()
        self.agent_selection = self._to_act()

    def _playing(self, call: str) -> Game:
        if self.game is None:
            raise NotReset(Problem("U065", f"{call}() needs a game, and this environment has none: call reset() "
                                           f"first (after close(), or a reset refused, it has none either)"))
        return self.game

    def _to_act(self) -> str:
        return self.possible_agents[self._playing("step").deciders[0]]

    def _check_menu(self) -> None:
        game = self._playing("step")
        for seat in game.deciders:
            n = game.num_actions(seat)
            if n > self.num_actions:
                raise outgrown(game, f"a decision offers {n} options, more than this environment's "
                                     f"{self.num_actions}: pass max_actions= to meeple.pettingzoo.env")

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self._playing("observe")
        seat = self._seat(agent)
        mask = np.zeros(self.num_actions, np.int8)
        if seat in game.deciders:
            mask[:game.num_actions(seat)] = 1
        return {"observation": self.layout.observe(game, seat), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._playing("last")
        return super().last(observe)

    def _seat(self, agent: Any) -> int:
        if agent not in self.possible_agents:
            raise BadArgument(Problem("U060", f"{agent!r} is not an agent of this environment: its agents are "
                                              f"{', '.join(self.possible_agents)}"))
        return self.possible_agents.index(agent)

    def step(self, action: Any) -> None:
        game = self._playing("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        index = as_int(action)
        if index is None:
            raise BadStep(Problem("G005", f"{agent} must act: its action must be a whole number, the index of an "
                                          f"option in its action_mask, not {action!r}"))
        try:
            game.apply_index(index, seat)
        except IllegalAction as e:
            raise BadStep([Problem(p.code, f"{agent} cannot take action {index}: {p.message}", p.span, p.severity,
                                   p.hint) for p in e.problems]) from None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if game.is_over:
            for a, r in zip(self.possible_agents, self._returns(game)):
                self.rewards[a] = r
                self.terminations[a] = True
            self.agent_selection = self.possible_agents[(seat + 1) % self.players]
        else:
            self._check_menu()
            self.agent_selection = self._to_act()
        self._accumulate_rewards()

    def _returns(self, game: Game) -> list[float]:
        if self.utility == "win":
            won = game.winners
            return [1.0 / len(won) if p in won else 0.0 for p in range(self.players)]
        return [float(s) for s in game.scores]

    def close(self) -> None:
        self.game = None
