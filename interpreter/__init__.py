"""Meeple: a rules-as-data interpreter for board and card games.

    import meeple
    game = meeple.load_ruleset("my_game").new_game(players=4, seed=1)

The engine is a pipeline of stages, one subpackage each, in the order a ruleset flows through them:
`loading` (YAML, schema, variants) -> `language` (grammar, AST, parser, model) -> `checker` ->
`runtime` (state, evaluators, frame machine, built-ins, Game) -> `tools` (agents, simulation,
comparison, coverage, scenarios) -> `web` (`meeple serve`; needs the `web` extra, and this file never
imports it). Each stage imports only the stages before it; this file, the public API, sits on top of
them all.
"""

from meeple.errors import (
                           IllegalAction,
                           MeepleError,
                           Problem,
                           RulesetError,
                           RuntimeRuleError,
                           SaveError,
                           Span,
                           UsageError,
)
from meeple.runtime.game import Game
from meeple.runtime.rules import Ruleset, load_ruleset
from meeple.tools.agents import Agent, FirstAgent, GreedyAgent, RandomAgent, make_agents
from meeple.tools.compare import compare
from meeple.tools.simulate import simulate

__version__ = "0.1.0"

__all__ = ["Agent", "FirstAgent", "Game", "GreedyAgent", "IllegalAction", "MeepleError", "Problem", "RandomAgent",
           "Ruleset", "RulesetError", "RuntimeRuleError", "SaveError", "Span", "UsageError", "compare",
           "load_ruleset", "make_agents", "simulate"]
