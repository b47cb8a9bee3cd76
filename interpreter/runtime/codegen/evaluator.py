"""The generated evaluator: the reference `Evaluator`, with its work served by generated functions.

Every entry point the frame machine, decisions and the Game API use (`eval`, `exec_block`,
`run_direct`, menus) first looks for a generated function for that AST node, and falls back to the
reference tree-walker for anything else (expressions parsed at run time by scenarios or `evaluate`).
The reference stays the oracle: tests play every bundled game with both and require identical games.
"""

from __future__ import annotations

from typing import Any

from meeple.language import ast as A
from meeple.language.model import Ruleset
from meeple.runtime.codegen.cache import generated
from meeple.runtime.codegen.flatvars import stray_binding
from meeple.runtime.data import Comp
from meeple.runtime.evaluator import Evaluator, type_name
from meeple.runtime.limits import MAX_STEPS
from meeple.runtime.state import GameState


class GeneratedEvaluator(Evaluator):
    """Runs a ruleset through its generated Python module (codegen/module.py)."""

    def __init__(self, rs: Ruleset, state: GameState) -> None:
        # Every game and every copy makes an evaluator: what does not depend on the game (the ruleset's
        # tables and generated functions) is set up once per ruleset and copied in as one dict.
        cache = rs._compiled  # rs.derived(), read without a call: this runs for every copy of a game
        proto = cache.get("evaluator") if cache is not None else None
        if proto is not None:
            self.__dict__.update(proto)
            self.st = state
            self.limit = state.steps + MAX_STEPS
            self.depth = 0
            self.sources: list[Comp] = []
            return
        super().__init__(rs, state)
        g = generated(rs)
        self._exprs = g.exprs
        self._segments = self.segments = g.segments
        self.steppers = g.steps
        self.resolvers = g.resolvers
        self._blocks = self.blocks = g.blocks
        self.menus = g.menus
        self.openings = g.openings
        # what is per game: the state, the budgets (limits.py) and the running components
        per_game = ("st", "limit", "depth", "sources")
        rs.derived()["evaluator"] = {k: v for k, v in self.__dict__.items() if k not in per_game}

    # Scripts from outside the ruleset (scenarios, `before_flow`, `Game.evaluate`) run through the
    # reference path: what they store must keep what generated code assumes of the ruleset's variables
    # and counters (codegen/flatvars.py). The ruleset's own assignments are generated code.
    def assign(self, target: Any, value: Any, scope: dict) -> None:
        self._stray(target, value, scope)
        Evaluator.assign(self, target, value, scope)

    def set_entry(self, target: A.Index, value: Any, scope: dict) -> None:
        self._stray(target, value, scope)
        Evaluator.set_entry(self, target, value, scope)

    def _stray(self, target: Any, value: Any, scope: dict) -> None:
        name = stray_binding(self.rs, target, value, scope)
        if name is not None:
            raise self.fail(target, f"the ruleset's own scripts never store {type_name(value)} like this in "
                                    f"`{name}`, and the compiled engine relies on that (flatvars.py)",
                            hint="store it under another name, or run with MEEPLE_EVALUATOR=reference")

    def eval(self, node: Any, scope: dict) -> Any:
        f = self._exprs.get(id(node))
        if f is not None:
            return f(self, scope)
        return Evaluator.eval(self, node, scope)

    def exec_block(self, block: A.Block, scope: dict) -> None:
        f = self._blocks.get(id(block))
        if f is not None:
            f(self, scope)
        else:
            Evaluator.exec_block(self, block, scope)

    def run_direct(self, block: A.Block, i: int, scope: dict) -> int:
        segs = self._segments.get(id(block))
        if segs is not None:
            f = segs.get(i)
            if f is not None:
                return f(self, scope)
        return Evaluator.run_direct(self, block, i, scope)
