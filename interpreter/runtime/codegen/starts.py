"""Generated code that starts a statement that may wait for a decision, as `machine.push` would: a
`choose` opens its decision; an `if`, a loop, a block, a phase or a call of a procedure that may wait
pushes its frames and runs their first stretch (the stretches and resolvers that call this: resume.py).
"""

from __future__ import annotations

from typing import Any

from meeple.checker.suspension import shuffle_statement
from meeple.language import ast as A
from meeple.runtime.codegen.fn import Fn
from meeple.runtime.codegen.stmts import StmtEmitter
from meeple.runtime.frames import BLOCK, CALL, CHOOSE, FOR, REPEAT, WHILE


class StartEmitter(StmtEmitter):
    susp: set[int]
    out: list[str]
    menu_lists: set[str]  # the module's lists of fixed menus (FX_<k>)

    # provided by the builder (module.py)
    fixed_menu: Any

    def _stops(self, b: A.Block) -> list[int]:
        return [j for j, s in enumerate(b.body) if id(s) in self.susp]

    @staticmethod
    def hop_lines(call: str, indent: str) -> list[str]:
        """Go on with the stretch `call` directly, as the machine's next pass would. The hops since the
        machine last called a stretch are counted (`ev.hops`): past MAXH, the stretch is left to the
        machine, so that the Python stack stays shallow however many stretches run in a row."""
        return [f"{indent}if ev.hops < MAXH:", f"{indent}    ev.hops += 1", f"{indent}    return {call}",
                f"{indent}return None"]

    def hop(self, call: str, f: Fn) -> None:
        f.lines += ["    " * f.depth + line for line in self.hop_lines(call, "")]

    def first_pass(self, body: A.Block, f: Fn) -> None:
        """A loop's first pass, under the test just written: its body, then the loop's frame popped (the
        body's last stretch starts the next pass itself, see resume.py)."""
        f.depth += 1
        self.enter_block(body, "S", f)
        f.depth -= 1
        f.w("_stk.pop()")

    def enter_block(self, b: A.Block, scope: str, f: Fn, branch: bool = False) -> None:
        """Push a frame for block `b` (a script that suspends, or a `branch` of an `if` that does) and run
        its first stretch."""
        if self._stops(b):
            f.w(f"_F = [{BLOCK}, {self.node(b)}, {scope}, 0]")
            f.w("_stk.append(_F)")
            self.hop(f"SG_{self.idx(b)}_0(ev, _F)", f)
        elif self._shuffles(b):
            self.framed(b, scope, f)
        else:  # it cannot stop: run it without its frame (a signal in it unwinds the frames below alike)
            f.w(f"SG_{self.idx(b)}_0(ev, {scope})")
            if not branch:  # a branch that never waits goes on with the statement after its `if`
                f.w("return None")

    @staticmethod
    def _shuffles(b: A.Block) -> bool:
        return any(shuffle_statement(s) for s in b.body)

    def framed(self, b: A.Block, scope: str, f: Fn) -> None:
        """A block that waits for no decision but shuffles in a statement of its own: its frame is
        pushed and the machine runs it, so that a game with explicit chance stops at the shuffle with
        the block on top of the stack, and goes on from the statement after it once the shuffle is
        drawn (runtime/chancesites.py), as the reference does, rather than running its step again."""
        f.w(f"_stk.append([{BLOCK}, {self.node(b)}, {scope}, 0])")
        f.w("return None")

    def start(self, s: Any, f: Fn) -> None:
        t = type(s)
        n = self.node(s)
        if t in (A.Trigger, A.Simultaneous) or (t in (A.ExprStmt, A.Assign) and not self._call_ok(s)):
            f.w(f"h_push(ev, {n}, S)")
            f.w("return None")
            return
        # machine.push: one step, and a bounded stack
        self.step(f, n)
        f.w("_stk = st.stack")
        f.w("if len(_stk) > MAXF:")
        f.w(f"    raise h_fail(ev, {n}, DEPTH_MSG)")
        if t is A.Choose:
            f.w(f"_stk.append([{CHOOSE}, {n}, S])")
            # decisions.open_decision, for one player
            f.w(f"_p = {self.expr(s.player, f)}")
            f.w("if type(_p) is not Player:")
            f.w(f"    raise h_no_player(ev, {self.node(s.player)}, _p)")
            fixed = self.fixed_menu(s)
            if fixed is not None:
                # Options offered every time: one list, made once. An open decision's options are never
                # changed (a copy of the game shares them too), so every game may share it.
                name = f"FX_{self.idx(s)}"
                if name not in self.menu_lists:
                    self.menu_lists.add(name)
                    self.out.append(f"{name} = {fixed}\n")
                f.w(f"_o = {name}")
            else:
                f.w("if st.lazy:")  # a look-ahead's menu, worked out if someone asks (Game.menu)
                f.w("    st.pending = {'players': [int(_p)], 'options': None, 'chosen': {}}")
                f.w("    return True")
                f.w(f"_o = MN_{self.idx(s)}(ev, S)")
                f.w("if not _o:")
                f.w(f"    raise h_no_option({n}, int(_p))")
            f.w("_s = int(_p)")
            f.w("st.pending = {'players': [_s], 'options': {_s: _o}, 'chosen': {}}")
            f.w("return True")
        elif t is A.Block:
            self.enter_block(s, "S", f)
        elif t is A.If:
            f.w(f"if {self.expr(s.test, f)}:")
            f.depth += 1
            self.enter_block(s.then, "S", f, branch=True)
            f.depth -= 1
            if s.orelse is not None:
                f.w("else:")
                f.depth += 1
                self.enter_block(s.orelse, "S", f, branch=True)
                f.depth -= 1
        elif t is A.For:
            f.w(f"_it = list(ev.iterate({self.expr(s.iter, f)}, {self.node(s.iter)}))")
            f.w(f"ev.spend(len(_it), {n})")
            f.w(f"_L = [{FOR}, {n}, S, _it, 0]")
            f.w("_stk.append(_L)")
            # the machine's first pass of the FOR frame
            f.w("if _it:")
            f.w(f"    S[{s.var!r}] = _it[0]")
            f.w("    _L[4] = 1")
            self.first_pass(s.body, f)
        elif t is A.While:
            f.w(f"_stk.append([{WHILE}, {n}, S])")
            f.w(f"if {self.expr(s.test, f)}:")  # the machine's first pass of the WHILE frame
            self.step(f, n, "    ")
            self.first_pass(s.body, f)
        elif t is A.Repeat:
            f.w(f"_L = [{REPEAT}, {n}, S, h_repeat(ev, {self.node(s.count)}, {self.expr(s.count, f)})]")
            f.w("_stk.append(_L)")
            f.w("if _L[3] > 0:")  # the machine's first pass of the REPEAT frame
            self.step(f, n, "    ")
            f.w("    _L[3] -= 1")
            self.first_pass(s.body, f)
        elif t is A.Phase:
            f.w(f"st.phase = {s.name!r}")
            self.enter_block(self.rs.phases[s.name], "{}", f)
        else:  # a call of a procedure that may suspend: its arguments, a CALL frame, its body
            call: Any = s.expr if t is A.ExprStmt else s.value
            proc = self.rs.procedures[call.func]
            args = ", ".join(f"{p!r}: {self.expr(a, f)}" for p, a in zip(proc.params, call.args))
            f.w(f"_a = {{{args}}}")
            f.w(f"_stk.append([{CALL}, {n}, S])")
            self.enter_block(proc.body, "_a", f)

    def _call_ok(self, s: Any) -> bool:
        call: Any = s.expr if type(s) is A.ExprStmt else s.value
        proc = self.rs.procedures.get(call.func) if type(call) is A.Call else None
        return proc is not None and len(call.args) == len(proc.params)
