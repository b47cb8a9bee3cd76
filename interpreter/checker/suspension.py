"""Which statements may wait for a decision, found before anything runs: every statement numbered
with a stable id (saves refer to frames by id), the set of statements that may suspend (the frame
machine runs those; the rest run directly), and procedures that suspend and call themselves.
"""

from __future__ import annotations

from typing import Any, TypeGuard

from meeple.errors import Problem
from meeple.language import ast as A
from meeple.language.builtins import SIGNATURES
from meeple.language.model import Ruleset
from meeple.language.walk import walk


def _roots(rs: Ruleset) -> list[Any]:
    return [node for _, node in rs.scripts()]


def _number_nodes(rs: Ruleset) -> None:
    rs.node_ids.clear()
    rs.nodes.clear()
    for root in _roots(rs):
        for n in walk(root):
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
            r = any([stmt(x) for x in s.body])  # noqa: C419 - a list: every statement is visited
        elif t is A.If:
            r = stmt(s.then) | (stmt(s.orelse) if s.orelse else False)
        elif t in (A.For, A.While, A.Repeat):
            r = stmt(s.body)
        elif t is A.Phase:
            r = s.name in phase_susp
        elif t is A.Trigger:
            r = s.event in event_susp
        elif t is A.ExprStmt and type(s.expr) is A.Call:
            r = s.expr.func in proc_susp and s.expr.func not in SIGNATURES
        elif t is A.Assign and type(s.value) is A.Call:
            r = s.value.func in proc_susp and s.value.func not in SIGNATURES
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
        for n in walk(root):
            if type(n) in (A.Choose, A.Simultaneous):
                ch = n if type(n) is A.Choose else n.choose
                for it in ch.items:
                    if type(it) is A.Option:
                        stmt(it.body)
    rs.shuffle_frames = shuffle_frames(rs.setup, susp)
    rs.suspends = susp | rs.shuffle_frames
    rs.suspending_procs = proc_susp


def shuffle_statement(s: Any) -> TypeGuard[A.ExprStmt]:
    """`shuffle(...)` as a statement of its own: the shuffles a game with explicit chance can go on from
    in place once drawn (runtime/chancesites.py), and after which generated code has a stretch of its
    own (codegen/resume.py)."""
    return type(s) is A.ExprStmt and type(s.expr) is A.Call and s.expr.func == "shuffle"


def shuffle_frames(setup: A.Block | None, susp: set[int]) -> set[int]:
    """The setup's loops and branches (and the setup itself) that hold a `shuffle` statement and wait
    for no decision (not in `susp`). They run as frames all the same: a game with explicit chance then
    goes on from each such shuffle once it is drawn, where it would otherwise run the setup again from
    its start for each one (a deck built season by season, each season shuffled in a loop). A seeded
    game pays a few frames once, at its start."""
    out: set[int] = set()

    def holds(b: A.Block, nested: bool) -> bool:
        found = False
        s: Any
        for s in b.body:
            t = type(s)
            if t is A.If:
                inner = holds(s.then, True) | (holds(s.orelse, True) if s.orelse is not None else False)
            elif t in (A.For, A.While, A.Repeat):
                inner = holds(s.body, True)
            elif t is A.Block:
                inner = holds(s, True)
            else:
                found |= nested and shuffle_statement(s)
                continue
            if inner and id(s) not in susp:
                out.add(id(s))
            found |= inner
        return found

    if setup is not None and holds(setup, False) and id(setup) not in susp:
        out.add(id(setup))
    return out


def _suspending_recursion(rs: Ruleset) -> list[Problem]:
    """A procedure that asks for a decision and calls itself keeps every unfinished call on the game's
    frame stack, which grows with every decision until the engine stops the game: refuse it here."""
    out = []
    for name in sorted(rs.suspending_procs):
        for n in walk(rs.procedures[name].body):
            if type(n) is A.Call and n.func == name:
                out.append(Problem("C022", f"`{name}` asks for a decision and calls itself: every call waits on "
                                           "the stack until the game ends", n.span,
                                   hint="repeat the decision with a `while` loop instead"))
    return out
