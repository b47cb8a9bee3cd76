"""Static analysis of a loaded ruleset: names, calls, events, phases; which statements may suspend.

`analyze` runs after parsing. It gives every statement a stable id (saves refer to frames by id),
computes the set of statements that may wait for a decision (the frame machine runs those; the
rest run directly), and reports problems: errors for what cannot run, warnings for what never will.
"""

from __future__ import annotations

import difflib
from typing import Any, Iterable

from . import ast as A
from .errors import Problem, Problems
from .model import Ruleset
from .primitives import REGISTRY

BUILTIN_NAMES = {"players", "nplayers"}
PLAYER_ATTRS = {"seat", "number", "name"}
COMP_ATTRS = {"name", "kind", "id", "owner", "zone", "facedown"}


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    m = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.7)
    return f"did you mean `{m[0]}`?" if m else None


def analyze(rs: Ruleset, extra_names: Iterable[str] = ()) -> list[Problem]:
    _number_nodes(rs)
    _suspension(rs)
    return Checker(rs, set(extra_names)).run()


def _roots(rs: Ruleset) -> list[Any]:
    return [node for _, node in rs.scripts()]


def _number_nodes(rs: Ruleset) -> None:
    rs.node_ids.clear()
    rs.nodes.clear()
    for root in _roots(rs):
        for n in A.walk(root):
            if id(n) not in rs.node_ids and not _is_expr(n):
                rs.node_ids[id(n)] = len(rs.nodes)
                rs.nodes.append(n)


_EXPR_TYPES = (A.Num, A.Str, A.Interp, A.Const, A.Name, A.Attr, A.Index, A.Call, A.ListLit, A.MapLit, A.Comp,
               A.BinOp, A.Neg, A.Not, A.BoolOp, A.Compare, A.CondExpr)


def _is_expr(n: Any) -> bool:
    return isinstance(n, _EXPR_TYPES)


def _suspension(rs: Ruleset) -> None:
    """Fixpoint: a statement suspends if it is a decision or contains (or calls) one."""
    susp: set[int] = set()
    proc_susp: set[str] = set()
    event_susp: set[str] = set()
    phase_susp: set[str] = set()

    def stmt(s: Any) -> bool:
        t = type(s)
        r = False
        if t in (A.Choose, A.Simultaneous):
            r = True
        elif t is A.Block:
            r = any([stmt(x) for x in s.body])
        elif t is A.If:
            r = stmt(s.then) | (stmt(s.orelse) if s.orelse else False)
        elif t in (A.For, A.While, A.Repeat):
            r = stmt(s.body)
        elif t is A.Phase:
            r = s.name in phase_susp
        elif t is A.Trigger:
            r = s.event in event_susp
        elif t is A.ExprStmt and type(s.expr) is A.Call:
            r = s.expr.func in proc_susp and s.expr.func not in REGISTRY
        elif t is A.Assign and type(s.value) is A.Call:
            r = s.value.func in proc_susp and s.value.func not in REGISTRY
        if r:
            susp.add(id(s))
        return r

    changed = True
    while changed:
        before = (len(susp), len(proc_susp), len(event_susp), len(phase_susp))
        susp.clear()
        for name, p in rs.procedures.items():
            if stmt(p.body):
                proc_susp.add(name)
        for name, blk in rs.phases.items():
            if stmt(blk):
                phase_susp.add(name)
        for c in rs.components:
            for ev, blk in c.on.items():
                if stmt(blk):
                    event_susp.add(ev)
            for opts in c.options.values():
                for o in opts:
                    stmt(o.body)
        for root in (rs.setup, rs.flow, rs.final):
            if root is not None:
                stmt(root)
        changed = (len(susp), len(proc_susp), len(event_susp), len(phase_susp)) != before
    # option bodies inside menus
    for root in _roots(rs):
        for n in A.walk(root):
            if type(n) in (A.Choose, A.Simultaneous):
                ch = n if type(n) is A.Choose else n.choose
                for it in ch.items:
                    if type(it) is A.Option:
                        stmt(it.body)
    rs.suspends = susp
    rs.suspending_procs = proc_susp


class Checker:
    def __init__(self, rs: Ruleset, extra: set[str]) -> None:
        self.rs = rs
        self.p = Problems()
        self.extra = extra
        self.globals = set(rs.constants) | set(rs.game_counters) | set(rs.game_zones) | BUILTIN_NAMES | {
            k for k, v in rs.items.items() if len(v) == 1} | extra
        self.attrs = set(rs.player_counters) | set(rs.player_zones) | PLAYER_ATTRS | COMP_ATTRS
        for k in rs.kinds.values():
            self.attrs |= set(k.counters) | set(k.slots) | k.attrs
        self.used_phases: set[str] = set()
        self.used_procs: set[str] = set()
        self.triggered: set[str] = set()
        self.offered: set[str] = set()
        self.stmt_calls: set[int] = set()

    def run(self) -> list[Problem]:
        rs = self.rs
        for what, root in rs.scripts():
            implicit = {"self", "owner"} if (" on " in what or " options " in what) else set()
            if what.startswith("scoring.score") or what.startswith("scoring.tiebreak") or what == "agents.greedy":
                implicit = {"p"}
            if what.startswith("procedure "):
                implicit = set(rs.procedures[what.split(" ", 1)[1]].params)
            self.check_root(root, implicit)
        for ev_set, kind in ((self._handler_events(), "on"), (self._option_events(), "options")):
            for ev, span in ev_set:
                if ev not in rs.events:
                    self.p.add("C006", f"`{ev}` is not a declared event", span,
                               hint=did_you_mean(ev, rs.events) or "declare it under `events:`")
        for name in rs.phases:
            if name not in self.used_phases:
                self.p.add("W001", f"phase `{name}` is never run", rs.spans.get(("phase", name)),
                           severity="warning", hint="run it with `phase " + name + "` in `flow`")
        for name, proc in rs.procedures.items():
            if name not in self.used_procs and proc.span and proc.span.file == rs.path:
                self.p.add("W002", f"procedure `{name}` is never called", proc.span, severity="warning")
        for ev, span in rs.events.items():
            if ev not in self.triggered and ev not in self.offered:
                self.p.add("W003", f"event `{ev}` is never triggered or offered", span, severity="warning")
        return self.p.items

    def _handler_events(self):
        for c in self.rs.components:
            for ev, blk in c.on.items():
                yield ev, blk.span

    def _option_events(self):
        for c in self.rs.components:
            for ev, opts in c.options.items():
                for o in opts:
                    yield ev, o.span

    # ------------------------------------------------------------ per root
    def check_root(self, root: Any, implicit: set[str]) -> None:
        local = set(implicit)
        for n in A.walk(root):
            t = type(n)
            if t is A.ExprStmt:
                self.stmt_calls.add(id(n.expr))
            elif t is A.Assign:
                self.stmt_calls.add(id(n.value))
            if t is A.Assign and type(n.target) is A.Name:
                local.add(n.target.name)
            elif t is A.For:
                local.add(n.var)
            elif t is A.OptionFor:
                local.add(n.var)
            elif t is A.Comp:
                local.add(n.var)
            elif t is A.Simultaneous:
                local.add(n.var)
        self.walk(root, local, loop=0)

    def walk(self, n: Any, local: set[str], loop: int) -> None:
        t = type(n)
        rs = self.rs
        if t is A.Name:
            if n.name not in local and n.name not in self.globals:
                if n.name in rs.player_counters or n.name in rs.player_zones:
                    hint = f"`{n.name}` belongs to a player: write `p.{n.name}`"
                else:
                    hint = did_you_mean(n.name, local | self.globals)
                self.p.add("C001", f"`{n.name}` is not defined", n.span, hint=hint)
            return
        if t is A.Attr:
            if n.name not in self.attrs:
                self.p.add("C002", f"nothing has an attribute, counter or zone called `{n.name}`", n.span,
                           hint=did_you_mean(n.name, self.attrs))
        elif t is A.Call:
            self.call(n)
        elif t is A.Phase:
            self.used_phases.add(n.name)
            if n.name not in rs.phases:
                self.p.add("C005", f"there is no phase `{n.name}`", n.span, hint=did_you_mean(n.name, rs.phases))
        elif t is A.Trigger:
            self.triggered.add(n.event)
            if n.event not in rs.events:
                self.p.add("C006", f"`{n.event}` is not a declared event", n.span,
                           hint=did_you_mean(n.event, rs.events) or "declare it under `events:`")
        elif t is A.OptionsFrom:
            self.offered.add(n.event)
            if n.event not in rs.events:
                self.p.add("C006", f"`{n.event}` is not a declared event", n.span,
                           hint=did_you_mean(n.event, rs.events))
        elif t in (A.Break, A.Continue) and loop == 0:
            self.p.add("C009", f"`{'break' if t is A.Break else 'continue'}` outside a loop", n.span)
        elif t is A.Simultaneous:
            for it in n.choose.items:
                body = it.body if type(it) is A.Option else None
                if body is not None and id(body) in rs.suspends or any(
                        id(s) in rs.suspends for s in (body.body if body else ())):
                    self.p.add("C008", "the options of `simultaneous` cannot ask for further decisions",
                               it.span, hint="record the choice and act on it after the block")
        elif t in (A.Assign, A.AugAssign):
            tgt = n.target
            if type(tgt) not in (A.Name, A.Attr, A.Index):
                self.p.add("C010", "cannot assign to this: assign to a name, a counter or a map entry", tgt.span)
        inner_loop = loop + 1 if t in (A.For, A.While, A.Repeat) else loop
        if t is A.Comp or t is A.Call and n.func in REGISTRY:
            pass
        for c in A.children(n):
            self.walk(c, local, inner_loop)

    def call(self, n: A.Call) -> None:
        rs = self.rs
        prim = REGISTRY.get(n.func)
        if prim is not None:
            if not prim.min_args <= len(n.args) <= prim.max_args:
                want = (f"{prim.min_args}" if prim.min_args == prim.max_args
                        else f"{prim.min_args} to {prim.max_args}")
                self.p.add("C004", f"`{n.func}` takes {want} argument{'s' if prim.max_args != 1 else ''}, "
                           f"not {len(n.args)}", n.span, hint=f"{n.func}({', '.join(prim.params)})")
            return
        proc = rs.procedures.get(n.func)
        if proc is not None:
            self.used_procs.add(n.func)
            if n.func in rs.suspending_procs and id(n) not in self.stmt_calls:
                self.p.add("C007", f"`{n.func}` asks a player to decide, so it cannot be called inside an expression",
                           n.span, hint=f"call it as a statement: `x = {n.func}(...)`")
            if len(n.args) != len(proc.params):
                self.p.add("C004", f"`{n.func}` takes {len(proc.params)} arguments, not {len(n.args)}", n.span,
                           hint=f"{n.func}({', '.join(proc.params)})", )
            return
        self.p.add("C003", f"there is no function or procedure `{n.func}`", n.span,
                   hint=did_you_mean(n.func, set(REGISTRY) | set(rs.procedures)))
