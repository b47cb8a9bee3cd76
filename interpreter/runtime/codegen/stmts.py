"""Statements to Python source: loops become Python loops, `break` a Python break, `return` a Python return.

Two kinds of function are generated (see module.py). In "py" functions (procedures, handlers and
phases that never wait for a decision) every variable is a Python local. In "dict" functions (the
stretches of a suspendable script between two decisions, and menus) variables are Python locals too,
but each assignment is also written to the frame's scope dict `S`, which is what a save or a copy
holds when the script stops at a decision. Control flow that leaves the generated function (a `break`
of a loop that is a frame, a `return` out of a suspendable procedure, `end_game`) raises the same
signals as the reference evaluator, which the frame machine handles.
"""

from __future__ import annotations

from typing import Any

from meeple.language import ast as A
from meeple.runtime.codegen.assign import AssignEmitter
from meeple.runtime.codegen.fn import Fn, snapshot
from meeple.runtime.limits import MAX_ITEMS

_COUNTER_OPS = ("gain", "pay", "score")


class StmtEmitter(AssignEmitter):
    py_phases: set[str]  # phases that never wait for a decision: generated as PH_<name>

    def block(self, b: A.Block, f: Fn) -> None:
        if not b.body:
            f.w("pass")
        for s in b.body:
            self.stmt(s, f)

    def stmt(self, s: Any, f: Fn) -> None:
        getattr(self, "_s_" + type(s).__name__)(s, f)

    def _s_ExprStmt(self, s: A.ExprStmt, f: Fn) -> None:
        e = s.expr
        if type(e) is A.Call and e.func in _COUNTER_OPS and e.func in self.prims and len(e.args) == 2:
            # gain/pay/score read and write their first argument: amount, then the counter, then the write.
            # A narrated game calls the built-in, which also notes where points came from (results.py);
            # a quiet one (simulations, bots) takes the inlined path.
            f.w("if not ev.st.quiet:")
            f.depth += 1
            f.w(self.expr(e, f))
            f.depth -= 1
            f.w("else:")
            f.depth += 1
            n, target = self.node(e), e.args[0]
            k, cur = f.temp(), f.temp()
            # (a number certainly, by the script alone or flatvars.py, needs no test that it is one)
            amount = self.lead(e.args[1], f)
            f.w(f"{k} = {amount}" if self.known_int(e.args[1], f) else f"{k} = h_amount(ev, {n}, {amount})")
            counter = self.expr(target, f)
            f.w(f"{cur} = {counter}" if self.known_int(target, f)
                else f"{cur} = h_counter(ev, {n}, {self.node(target)}, {counter})")
            if e.func == "score":
                f.w(f"{cur} = ev.number({n}, {cur} + {k})")
            else:
                f.w(f"{cur} = h_{e.func}(ev, {n}, {cur}, {k})")
            self.assign(target, cur, f)
            f.depth -= 1
            return
        if type(e) is A.Call and e.func == "log" and e.func in self.prims and len(e.args) == 1:
            f.w("if ev.st.quiet:")
            f.depth += 1
            self.quiet_log(e.args[0], f)
            f.depth -= 1
            f.w("else:")
            f.depth += 1
            f.w(self.expr(e, f))
            f.depth -= 1
            return
        f.w(self.lead(e, f))

    def quiet_log(self, text: Any, f: Fn) -> None:
        """`log(text)` in a quiet game, which keeps no log line (nobody reads it): no text is built, but
        each hole is evaluated, since its errors are the game's. The reference builds the text, which
        fails past the size limit; it is built here too unless the holes' values prove it shorter: each
        a string within its share of the limit, or a value whose text is short (QSHORT)."""
        if type(text) is not A.Interp:
            f.w("pass" if type(text) in (A.Num, A.Str, A.Const) else self.expr(text, f))
            return
        holes = [p for p in text.parts if type(p) is not str]
        if not holes:
            f.w("pass")
            return
        temps = []
        for h in holes:
            temps.append(f.temp())
            f.w(f"{temps[-1]} = {self.lead(h, f)}")
        each = (MAX_ITEMS - sum(len(p) for p in text.parts if type(p) is str)) // len(holes)
        # The longest text of a QSHORT value: a component's name, or a number (Python prints at most
        # 4,300 digits of one).
        if each < max([4_301] + [len(c.name) for c in self.rs.components]):
            f.w(self._e_Interp(text, f, temps))
            return
        fits = " and ".join(f"(len({t}) <= {each} if type({t}) is str else type({t}) in QSHORT)" for t in temps)
        f.w(f"if not ({fits}):")
        f.w(f"    {self._e_Interp(text, f, temps)}")

    # ------------------------------------------------------------ control flow
    def branch(self, b: A.Block, f: Fn, definite: set[str]) -> set[str]:
        f.definite = set(definite)
        f.depth += 1
        self.block(b, f)
        f.depth -= 1
        return f.definite

    def _s_If(self, s: A.If, f: Fn) -> None:
        before = set(f.definite)
        f.w(f"if {self.lead(s.test, f)}:")
        after = self.branch(s.then, f, before)
        if s.orelse is not None:
            f.w("else:")
            after &= self.branch(s.orelse, f, before)
        else:
            after = before
        f.definite = after

    def loop_body(self, body: A.Block, f: Fn, definite: set[str]) -> None:
        f.loops += 1
        self.branch(body, f, definite)
        f.loops -= 1
        f.definite = definite  # a loop may run no time: only what held before it holds after

    def _s_For(self, s: A.For, f: Fn) -> None:
        before = set(f.definite)
        # h_loop inlined: a snapshot of what is looped over, its passes counted against the step budget
        it, code = f.temp(), self.lead(s.iter, f)
        snapshot(it, code, self.node(s.iter), f,
                 fresh=code == "PLAYERS[:st.nplayers]" or self.flatness.new_list(s.iter),
                 still=self.flatness.still(s.body))
        f.w(f"st.steps += len({it})")
        f.w("if st.steps > ev.limit:")
        f.w(f"    raise h_steps(ev, {self.node(s)})")
        if s.var in f.comp:
            f.w(f"for {f.comp[s.var]} in {it}:")
            self.loop_body(s.body, f, before)
            return
        f.locals.add(s.var)
        f.w(f"for L_{s.var} in {it}:")
        if f.mode == "dict":
            f.w(f"    S[{s.var!r}] = L_{s.var}")
        self.loop_body(s.body, f, before | {s.var})
        f.definite = before

    def _s_While(self, s: A.While, f: Fn) -> None:
        self.counted_loop(f"while {self.expr(s.test, f)}:", s, f)

    def _s_Repeat(self, s: A.Repeat, f: Fn) -> None:
        self.counted_loop(f"for _ in range(h_repeat(ev, {self.node(s.count)}, {self.expr(s.count, f)})):", s, f)

    @staticmethod
    def step(f: Fn, node: str, indent: str = "") -> None:
        """One step against the budget (limits.py), failing at `node` past it, as the reference counts."""
        f.w(f"{indent}st.steps += 1")
        f.w(f"{indent}if st.steps > ev.limit:")
        f.w(f"{indent}    raise h_steps(ev, {node})")

    def counted_loop(self, head: str, s: A.While | A.Repeat, f: Fn) -> None:
        """A loop whose every turn counts against the step budget (limits.py), as in the reference."""
        before = set(f.definite)
        f.w(head)
        self.step(f, self.node(s), "    ")
        self.loop_body(s.body, f, before)

    def _s_Pass(self, s: A.Pass, f: Fn) -> None:
        f.w("pass")

    def _s_Break(self, s: A.Break, f: Fn) -> None:
        if f.loops:
            f.w("break")
        elif f.unwind is not None:
            for line in f.unwind:
                f.w(line)
        else:
            f.w("raise BreakSig()")

    def _s_Continue(self, s: A.Continue, f: Fn) -> None:
        f.w("continue" if f.loops else "raise ContinueSig()")

    def _s_Return(self, s: A.Return, f: Fn) -> None:
        v = self.lead(s.value, f) if s.value is not None else "None"
        f.w(f"return {v}" if f.returns else f"raise ReturnSig({v})")

    def _s_EndGame(self, s: A.EndGame, f: Fn) -> None:
        f.w("raise EndGameSig()")

    def _s_Block(self, s: A.Block, f: Fn) -> None:
        self.block(s, f)

    def _s_Phase(self, s: A.Phase, f: Fn) -> None:
        if s.name in self.py_phases:
            f.w(f"st.phase = {s.name!r}")
            f.w(f"h_enter(ev, {self.node(s)})")
            f.w("try:")
            f.w(f"    PH_{s.name}(ev)")
            f.w("finally:")
            f.w("    ev.depth -= 1")
        else:
            f.w(f"ev._phase({self.node(s)}, None)")

    def _s_Trigger(self, s: A.Trigger, f: Fn) -> None:
        # Each component's handler by its number (codegen/tables.handler_tables): no search by event
        f.w(f"for _c, _fn in h_handlers(ev, HT.get({s.event!r}), {self.expr(s.target, f)}, {self.node(s)}):")
        f.w(f"    h_enter(ev, {self.node(s)})")
        f.w("    ev.sources.append(_c)")
        f.w("    try:")
        f.w("        _fn(ev, _c, ev.owner(_c))")
        f.w("    finally:")
        f.w("        ev.depth -= 1")
        f.w("        ev.sources.pop()")

    def _s_Choose(self, s: Any, f: Fn) -> None:  # pragma: no cover - the checker marks these as suspending
        f.w(f"raise h_fail(ev, {self.node(s)}, 'internal: a decision in a statement that cannot wait')")

    _s_Simultaneous = _s_Choose
