"""Meeple: a rules-as-data interpreter for board and card games.

    import meeple
    game = meeple.load_ruleset("my_game").new_game(players=4, seed=1)

The engine is a pipeline of stages, one subpackage each, in the order a ruleset flows through them:
`loading` (YAML, schema, variants) -> `language` (grammar, AST, parser, model) -> `checker` ->
`runtime` (state, evaluators, frame machine, built-ins, Game) -> `tools` (agents, simulation,
comparison, coverage, scenarios) -> `web` (`meeple serve`; needs the `web` extra, and this file never
imports it). Each stage imports only the stages before it; this file, the public API, sits on top of
them all.

The errors are imported here; the runtime's and the tools' names are imported on first use (PEP 562):
every command of `meeple` imports this package first, and `meeple validate` needs neither the
runtime nor the tools (docs/performance.md, "Loading").
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:  # what __getattr__ returns, for type checkers (and tests/test_layout.py sees the imports)
    from meeple.runtime.game import Game
    from meeple.runtime.rules import Ruleset, load_ruleset
    from meeple.tools.agents import Agent, FirstAgent, GreedyAgent, RandomAgent, make_agents
    from meeple.tools.compare import compare
    from meeple.tools.simulate import simulate

_LAZY = {"Game": "meeple.runtime.game", "Ruleset": "meeple.runtime.rules", "load_ruleset": "meeple.runtime.rules",
         "Agent": "meeple.tools.agents", "FirstAgent": "meeple.tools.agents", "GreedyAgent": "meeple.tools.agents",
         "RandomAgent": "meeple.tools.agents", "make_agents": "meeple.tools.agents",
         "compare": "meeple.tools.compare", "simulate": "meeple.tools.simulate"}

__version__ = "0.1.0"

__all__ = ["Agent", "FirstAgent", "Game", "GreedyAgent", "IllegalAction", "MeepleError", "Problem", "RandomAgent",
           "Ruleset", "RulesetError", "RuntimeRuleError", "SaveError", "Span", "UsageError", "compare",
           "load_ruleset", "make_agents", "simulate"]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'meeple' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # once imported, a plain attribute
    return value


def __dir__() -> list[str]:
    # The public API (what completion in a shell offers), not this file's own imports (`importlib`, `Any`).
    return sorted([*__all__, "__version__"])
