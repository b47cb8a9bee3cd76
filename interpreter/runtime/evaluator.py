"""The reference evaluator: expressions, and statements that never wait for a decision.

Statements that may wait for a player (a `choose`, or anything that contains one) are run by the
frame machine in machine.py, which calls back into this module for everything else. Control flow
that crosses frames (break, continue, return, end_game) travels as exceptions. What operators and
attributes do to values is defined once, in values.py, for this evaluator and the compiled one.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from meeple.language import ast as A
from meeple.language.model import Ruleset
from meeple.runtime.assignment import Assignment
from meeple.runtime.data import Comp
from meeple.runtime.library import REGISTRY
from meeple.runtime.limits import MAX_STEPS, STEPS_MESSAGE, Budget
from meeple.runtime.printing import repeat_problem
from meeple.runtime.state import GameState
from meeple.runtime.values import (  # show, type_name: also imported from here
    MISSING,
    show,
    type_name,  # noqa: F401
)

_NO_MENUS: dict = {}


def iteration(run: Callable[[Any, Any], Any], a: Any, b: Any) -> bool:
    """Run one pass of a loop body, `run(a, b)`; False when the body broke out of the loop (`continue`
    just ends the pass). Both evaluators' loops share it: the reference one passes (body, scope), the
    compiled one passes its body closure with (evaluator, scope)."""
    try:
        run(a, b)
    except BreakSig:
        return False
    except ContinueSig:
        pass
    return True


class BreakSig(Exception):
    pass


class ContinueSig(Exception):
    pass


class ReturnSig(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


class EndGameSig(Exception):
    pass


# Python frames enough for MAX_DEPTH procedure calls of the tree walk, each nesting a few expressions.
RECURSION_FLOOR = 5000


class Evaluator(Assignment, Budget):
    """Evaluates AST nodes against one ruleset and one state. Create one per game step; it is cheap."""

    prims = REGISTRY

    def __init__(self, rs: Ruleset, state: GameState) -> None:
        super().__init__(rs, state)
        # The tree walk takes several Python frames per level of a script: with Python's default limit
        # it failed near 120 nested procedure calls, where the generated code and the language allow 150
        # (MAX_DEPTH), and said so with another code and place (found by QA).
        if sys.getrecursionlimit() < RECURSION_FLOOR:
            sys.setrecursionlimit(RECURSION_FLOOR)
        # Budgets (limits.py): the step count at which the rules have run too long since the last decision
        # (the game sets it whenever it calls into the rules), and the depth of procedure calls.
        self.limit = state.steps + MAX_STEPS
        self.depth = 0
        # Components whose effects are running as direct calls (not frames): where the points a procedure
        # scores come from (results.note_change). Always empty again by the next decision.
        self.sources: list[Comp] = []
        self.menus: dict[int, Callable[[Any, dict], list]] = _NO_MENUS  # generated menus, by id(choose)
        self.segments: dict[int, dict[int, Callable[[Any, dict], int]]] = _NO_MENUS  # and block stretches
        self.blocks: dict[int, Callable[[Any, dict], int]] = _NO_MENUS  # and blocks that never suspend
        # and stretches of blocks that may suspend, each starting the statement it stops at (codegen/resume.py)
        self.steppers: dict[int, dict[int, Callable[[Any, list], bool | None]]] = _NO_MENUS
        # and chosen options (a tuple of one resolver per option for menus of their own options only)
        self.resolvers: dict[int, Callable[[Any, list, list], bool | None] | tuple] = _NO_MENUS
        self.openings: dict[int, Callable[[Any, dict], int]] = _NO_MENUS  # and setups' seedless openings (prefix.py)
        self.hops = 0  # stretches the generated code ran in a row since the machine's last pass (resume.py)

    # ------------------------------------------------------------ expressions
    def eval(self, node: Any, scope: dict) -> Any:
        return _EXPR[type(node)](self, node, scope)

    def _interp(self, n: A.Interp, scope: dict) -> str:
        rs = self.rs
        return self.text(n, "".join(p if type(p) is str else show(self.eval(p, scope), rs) for p in n.parts))

    def _name(self, n: A.Name, scope: dict) -> Any:
        v = scope.get(n.name, MISSING)
        if v is not MISSING:
            return v
        return self.global_value(n.name, n)

    def _attr(self, n: A.Attr, scope: dict) -> Any:
        return self.attribute(self.eval(n.obj, scope), n.name, n)

    def _index(self, n: A.Index, scope: dict) -> Any:
        return self.index(n, self.eval(n.obj, scope), self.eval(n.index, scope))

    def call(self, n: A.Call, scope: dict) -> Any:
        prim = self.prims.get(n.func)
        if prim is not None:
            if prim.lazy:
                return prim.fn(self, n.args, n, scope)
            return prim.fn(self, [self.eval(a, scope) for a in n.args], n, scope)
        proc = self.rs.procedures.get(n.func)
        if proc is not None:
            if len(n.args) != len(proc.params):
                raise self.fail(n, f"`{n.func}` takes {len(proc.params)} arguments, not {len(n.args)}")
            if n.func in self.rs.suspending_procs:
                raise self.fail(n, f"`{n.func}` asks a player to decide, so it cannot be called here")
            inner = {p: self.eval(a, scope) for p, a in zip(proc.params, n.args)}
            self.enter(n)
            try:
                self.exec_block(proc.body, inner)
            except ReturnSig as r:
                return r.value
            finally:
                self.depth -= 1
            return None
        raise self.fail(n, f"`{n.func}` is not a function or procedure")

    def _comp(self, n: A.Comp, scope: dict) -> list:
        items = self.iterate(self.eval(n.iter, scope), n.iter)
        self.spend(len(items), n)
        old = scope.get(n.var, MISSING)
        out = []
        ev = self.eval
        try:
            for x in list(items):
                scope[n.var] = x
                if n.cond is None or ev(n.cond, scope):
                    out.append(ev(n.expr, scope))
        finally:
            if old is MISSING:
                scope.pop(n.var, None)
            else:
                scope[n.var] = old
        return self.nested(n, out)

    def _binop(self, n: A.BinOp, scope: dict) -> Any:
        return self.binop(n, self.eval(n.left, scope), self.eval(n.right, scope))

    def _boolop(self, n: A.BoolOp, scope: dict) -> Any:
        a = self.eval(n.left, scope)
        if n.op == "and":
            return self.eval(n.right, scope) if a else a
        return a if a else self.eval(n.right, scope)

    def _compare(self, n: A.Compare, scope: dict) -> bool:
        return self.compare(n, self.eval(n.left, scope), self.eval(n.right, scope))

    # ------------------------------------------------------------ statements (direct)
    def exec(self, node: Any, scope: dict) -> None:
        st = self.st
        st.steps += 1
        if st.steps > self.limit:
            raise self.fail(node, STEPS_MESSAGE)
        if st.coverage is not None:
            nid = self.rs.node_ids.get(id(node))
            if nid is not None:
                st.coverage[nid] = st.coverage.get(nid, 0) + 1
        _STMT[type(node)](self, node, scope)

    def exec_block(self, block: A.Block, scope: dict) -> None:
        ex = self.exec
        for s in block.body:
            ex(s, scope)

    def run_direct(self, block: A.Block, i: int, scope: dict) -> int:
        """Run the statements of `block` from index i up to the next one that may wait for a decision
        (the frame machine starts that one); return its index, or the block's length."""
        body = block.body
        suspends = self.rs.suspends
        n = len(body)
        while i < n:
            s = body[i]
            if id(s) in suspends:
                return i
            self.exec(s, scope)
            i += 1
        return n

    def _if(self, n: A.If, scope: dict) -> None:
        if self.eval(n.test, scope):
            self.exec_block(n.then, scope)
        elif n.orelse is not None:
            self.exec_block(n.orelse, scope)

    def _for(self, n: A.For, scope: dict) -> None:
        items = list(self.iterate(self.eval(n.iter, scope), n.iter))
        for x in items:
            scope[n.var] = x
            if not iteration(self.exec_block, n.body, scope):
                break

    def _while(self, n: A.While, scope: dict) -> None:
        while self.eval(n.test, scope):
            self.spend(1, n)
            if not iteration(self.exec_block, n.body, scope):
                break

    def _repeat(self, n: A.Repeat, scope: dict) -> None:
        count = self.eval(n.count, scope)
        if (wrong := repeat_problem(count)) is not None:
            raise self.fail(n.count, wrong)
        for _ in range(count):
            self.spend(1, n)
            if not iteration(self.exec_block, n.body, scope):
                break

    def _break(self, n, scope):
        raise BreakSig()

    def _continue(self, n, scope):
        raise ContinueSig()

    def _return(self, n: A.Return, scope: dict) -> None:
        raise ReturnSig(self.eval(n.value, scope) if n.value is not None else None)

    def _end(self, n, scope):
        raise EndGameSig()

    def _phase(self, n: A.Phase, scope: dict) -> None:
        self.st.phase = n.name
        self.enter(n)
        try:
            self.exec_block(self.rs.phases[n.name], {})
        finally:
            self.depth -= 1

    def _trigger(self, n: A.Trigger, scope: dict) -> None:
        for c, h in self.handlers(n.event, self.eval(n.target, scope), n):
            self.enter(n)
            self.sources.append(c)
            try:
                self.exec_block(h, self.handler_scope(c))
            except ReturnSig:
                pass
            finally:
                self.depth -= 1
                self.sources.pop()


# Dispatch by node type, built once for the class (an evaluator is created per game and per copy).
_EXPR: dict[type, Callable[[Evaluator, Any, dict], Any]] = {
    A.Num: lambda ev, n, s: n.value,
    A.Str: lambda ev, n, s: n.value,
    A.Const: lambda ev, n, s: n.value,
    A.Interp: Evaluator._interp,
    A.Name: Evaluator._name,
    A.Attr: Evaluator._attr,
    A.Index: Evaluator._index,
    A.Call: lambda ev, n, s: ev.call(n, s),
    A.ListLit: lambda ev, n, s: ev.nested(n, [ev.eval(x, s) for x in n.items]),
    A.MapLit: lambda ev, n, s: ev.make_map(n, [(ev.eval(k, s), ev.eval(v, s)) for k, v in n.pairs]),
    A.Comp: Evaluator._comp,
    A.BinOp: Evaluator._binop,
    A.Neg: lambda ev, n, s: ev.negate(n, ev.eval(n.operand, s)),
    A.Not: lambda ev, n, s: not ev.eval(n.operand, s),
    A.BoolOp: Evaluator._boolop,
    A.Compare: Evaluator._compare,
    A.CondExpr: lambda ev, n, s: ev.eval(n.then, s) if ev.eval(n.test, s) else ev.eval(n.orelse, s),
}
_STMT: dict[type, Callable[[Evaluator, Any, dict], Any]] = {
    A.Block: lambda ev, n, s: ev.exec_block(n, s),
    A.Assign: Evaluator._assign,
    A.AugAssign: Evaluator._augassign,
    A.ExprStmt: lambda ev, n, s: ev.eval(n.expr, s),
    A.If: Evaluator._if,
    A.For: Evaluator._for,
    A.While: Evaluator._while,
    A.Repeat: Evaluator._repeat,
    A.Pass: lambda ev, n, s: None,
    A.Break: Evaluator._break,
    A.Continue: Evaluator._continue,
    A.Return: Evaluator._return,
    A.EndGame: Evaluator._end,
    A.Phase: Evaluator._phase,
    A.Trigger: Evaluator._trigger,
}
