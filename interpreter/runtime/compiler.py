"""Compile the AST into Python closures: the fast evaluator.

Each expression node becomes `f(ev, scope) -> value` and each statement `f(ev, scope) -> None`, with
names, attributes and built-ins resolved once at compile time instead of on every evaluation.
Expressions are compiled in compile_expr.py; calls (they run procedure bodies) and statements here.
The plain tree-walking `Evaluator` stays the reference: `CompiledEvaluator` is a drop-in subclass,
and tests play whole games with both and require identical states.
"""

from __future__ import annotations

from typing import Any

from meeple.language import ast as A
from meeple.language.model import Ruleset
from meeple.runtime.compile_expr import MAX_SEATS, ExprCompiler, Fn
from meeple.runtime.data import Comp, Player, Zone
from meeple.runtime.evaluator import (
    BreakSig,
    ContinueSig,
    EndGameSig,
    Evaluator,
    ReturnSig,
    iteration,
)
from meeple.runtime.library import REGISTRY
from meeple.runtime.limits import MAX_DEPTH, MAX_INT, STEPS_MESSAGE
from meeple.runtime.values import type_name


class CompiledEvaluator(Evaluator):
    """The Evaluator with `eval` and `exec` served by closures compiled once per ruleset."""

    def __init__(self, rs: Ruleset, state: Any) -> None:
        super().__init__(rs, state)
        # Two closure sets per ruleset: measuring coverage wraps every statement, the fast path does not.
        if rs._compiled is None:
            rs._compiled = {False: Compiler(rs, False), True: Compiler(rs, True)}
        self._cx = rs._compiled[state.coverage is not None]

    def eval(self, node: Any, scope: dict) -> Any:
        f = self._cx.exprs.get(id(node))
        if f is None:
            f = self._cx.expr(node)
        return f(self, scope)

    def exec(self, node: Any, scope: dict) -> None:
        f = self._cx.stmts.get(id(node))
        if f is None:
            f = self._cx.stmt(node)
        f(self, scope)

    def exec_block(self, block: A.Block, scope: dict) -> None:
        f = self._cx.stmts.get(id(block))
        if f is None:
            f = self._cx.stmt(block)
        f(self, scope)


class Compiler(ExprCompiler):
    """Expressions (compile_expr.py), calls and statements: one instance per ruleset and coverage mode."""

    # ------------------------------------------------------------ calls
    def _e_Call(self, n):
        prim = REGISTRY.get(n.func)
        if prim is not None:
            fn = prim.fn
            if prim.lazy:
                args = n.args
                return lambda ev, s: fn(ev, args, n, s)
            fargs = [self.expr(a) for a in n.args]
            if n.func == "count" and len(fargs) == 1:
                fa = fargs[0]

                def count(ev, s):
                    v = fa(ev, s)
                    t = type(v)
                    if t is list:
                        return len(v)
                    if t is Zone:
                        return len(ev.st.zones[v.key])
                    return fn(ev, [v], n, s)
                return count
            if len(fargs) == 1:
                f0 = fargs[0]
                return lambda ev, s: fn(ev, [f0(ev, s)], n, s)
            if len(fargs) == 2:
                f0, f1 = fargs
                return lambda ev, s: fn(ev, [f0(ev, s), f1(ev, s)], n, s)
            return lambda ev, s: fn(ev, [fa(ev, s) for fa in fargs], n, s)
        proc = self.rs.procedures.get(n.func)
        if proc is None or n.func in self.rs.suspending_procs or len(n.args) != len(proc.params):
            return lambda ev, s: Evaluator.call(ev, n, s)
        params = proc.params
        fargs = [self.expr(a) for a in n.args]
        cx = self

        def call(ev, s):
            st = ev.st
            st.steps += 1
            if st.steps > ev.limit:
                raise ev.fail(n, STEPS_MESSAGE)
            inner = {p: fa(ev, s) for p, fa in zip(params, fargs)}
            body = cx.stmts.get(id(proc.body)) or cx.stmt(proc.body)
            # Budget: procedure depth (limits.py), counted like the reference evaluator's `enter`.
            if ev.depth >= MAX_DEPTH:
                ev.enter(n)
            ev.depth += 1
            try:
                body(ev, inner)
            except ReturnSig as r:
                return r.value
            finally:
                ev.depth -= 1
            return None
        return call

    # ------------------------------------------------------------ statements
    def stmt(self, n: Any) -> Fn:
        f = self.stmts.get(id(n))
        if f is None:
            inner = getattr(self, "_s_" + type(n).__name__)(n)
            nid = self.rs.node_ids.get(id(n))
            if type(n) is A.Block or not self.coverage:
                # Runaway loops are caught by the step count kept in loops and calls.
                f = inner
            else:
                def f(ev, s, inner=inner, nid=nid, n=n):
                    st = ev.st
                    st.steps += 1
                    if st.steps > ev.limit:
                        raise ev.fail(n, STEPS_MESSAGE)
                    cov = st.coverage
                    if cov is not None and nid is not None:
                        cov[nid] = cov.get(nid, 0) + 1
                    inner(ev, s)
            self.stmts[id(n)] = f
            self._keep.append(n)
        return f

    def _s_Block(self, n):
        body = [self.stmt(x) for x in n.body]
        if len(body) == 1:
            return body[0]

        def block(ev, s):
            for f in body:
                f(ev, s)
        return block

    def _s_Assign(self, n):
        fv = self.expr(n.value)
        tgt = n.target
        if type(tgt) is A.Name and tgt.name not in self.rs.game_counters:
            name = tgt.name

            def setlocal(ev, s):
                s[name] = fv(ev, s)
            return setlocal
        if type(tgt) is A.Attr:
            key_of = self._counter_key(tgt)

            def setcounter(ev, s):
                v = fv(ev, s)
                ev.st.counters[key_of(ev, s)] = v
            return setcounter
        return lambda ev, s: ev.assign(tgt, fv(ev, s), s)

    def _counter_key(self, tgt: A.Attr) -> Fn:
        """The counter key that `obj.name = ...` writes, with keys built once per player and component."""
        fo = self.expr(tgt.obj)
        name = tgt.name
        rs = self.rs
        suffix = "." + name
        pkeys = [f"{i}{suffix}" for i in range(MAX_SEATS)] if name in rs.player_counters else None
        ckinds = {k for k, kd in rs.kinds.items() if name in kd.counters}
        ckeys = [f"#{i}{suffix}" for i in range(len(rs.components))] if ckinds else None

        def key(ev, s):
            o = fo(ev, s)
            t = type(o)
            if t is Player and pkeys is not None:
                return pkeys[o]
            if t is Comp and ckeys is not None and ev.kind_of[o] in ckinds:
                return ckeys[o]
            return ev.counter_key(o, name, tgt)
        return key

    def _s_AugAssign(self, n):
        tgt = n.target
        fv = self.expr(n.value)
        if type(tgt) is A.Attr:
            key_of = self._counter_key(tgt)
            plus = n.op == "+"

            def aug(ev, s):
                k = key_of(ev, s)
                counters = ev.st.counters
                cur = counters[k]
                d = fv(ev, s)
                if type(cur) is int and type(d) is int:
                    r = cur + d if plus else cur - d
                    counters[k] = r if -MAX_INT <= r <= MAX_INT else ev.number(n, r)
                elif type(cur) is list and plus:
                    counters[k] = ev.concat(n, cur, d if type(d) is list else [d])
                else:
                    raise ev.fail(n, f"`{n.op}=` needs numbers, not {type_name(cur)} and {type_name(d)}")
            return aug
        slow = Evaluator._augassign
        return lambda ev, s: slow(ev, n, s)

    def _s_ExprStmt(self, n):
        f = self.expr(n.expr)
        return lambda ev, s: f(ev, s) and None

    def _s_If(self, n):
        ft = self.expr(n.test)
        fthen = self.stmt(n.then)
        felse = self.stmt(n.orelse) if n.orelse is not None else None

        def f(ev, s):
            if ft(ev, s):
                fthen(ev, s)
            elif felse is not None:
                felse(ev, s)
        return f

    def _s_For(self, n):
        fit = self.expr(n.iter)
        body = self.stmt(n.body)
        var = n.var

        def f(ev, s):
            items = list(ev.iterate(fit(ev, s), n.iter))
            st = ev.st
            st.steps += len(items)
            if st.steps > ev.limit:
                ev.spend(0, n)
            for x in items:
                s[var] = x
                if not iteration(body, ev, s):
                    break
        return f

    def _s_While(self, n):
        ft = self.expr(n.test)
        body = self.stmt(n.body)

        def f(ev, s):
            st = ev.st
            while ft(ev, s):
                st.steps += 1
                if st.steps > ev.limit:
                    raise ev.fail(n, STEPS_MESSAGE)
                if not iteration(body, ev, s):
                    break
        return f

    def _s_Repeat(self, n):
        fc = self.expr(n.count)
        body = self.stmt(n.body)

        def f(ev, s):
            k = fc(ev, s)
            if type(k) is not int:
                raise ev.fail(n.count, f"`repeat` needs a number, not {type_name(k)}")
            for _ in range(k):
                ev.spend(1, n)
                if not iteration(body, ev, s):
                    break
        return f

    def _s_Pass(self, n):
        return lambda ev, s: None

    def _s_Break(self, n):
        def f(ev, s):
            raise BreakSig()
        return f

    def _s_Continue(self, n):
        def f(ev, s):
            raise ContinueSig()
        return f

    def _s_Return(self, n):
        fv = self.expr(n.value) if n.value is not None else None

        def f(ev, s):
            raise ReturnSig(fv(ev, s) if fv is not None else None)
        return f

    def _s_EndGame(self, n):
        def f(ev, s):
            raise EndGameSig()
        return f

    def _s_Phase(self, n):
        return lambda ev, s: Evaluator._phase(ev, n, s)

    def _s_Trigger(self, n):
        return lambda ev, s: Evaluator._trigger(ev, n, s)
