"""Compile expressions into closures `f(ev, scope) -> value`: the hot half of the fast evaluator.

Names and attributes are resolved once here, at compile time, instead of on every evaluation. The
common cases (locals, counters, int arithmetic, comparing with a literal) are inlined; everything
else falls back to the reference semantics in values.py and evaluator.py, so both evaluators agree
on results and on error messages. Calls and statements are compiled in compiler.py.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from meeple.language import ast as A
from meeple.language.model import Ruleset
from meeple.runtime.data import Comp, Player, Zone
from meeple.runtime.limits import MAX_INT
from meeple.runtime.values import MISSING, show

Fn = Callable[[Any, dict], Any]
MAX_SEATS = 16


class ExprCompiler:
    """The closure caches for one ruleset, and every expression but calls (which run statements)."""

    def __init__(self, rs: Ruleset, coverage: bool = False) -> None:
        self.rs = rs
        self.coverage = coverage
        self.exprs: dict[int, Fn] = {}
        self.stmts: dict[int, Fn] = {}
        self._keep: list[Any] = []  # nodes compiled, so their ids stay valid

    # ------------------------------------------------------------ expressions
    def expr(self, n: Any) -> Fn:
        f = self.exprs.get(id(n))
        if f is None:
            f = getattr(self, "_e_" + type(n).__name__)(n)
            self.exprs[id(n)] = f
            self._keep.append(n)
        return f

    def _e_Num(self, n):
        v = n.value
        return lambda ev, s: v

    _e_Str = _e_Num
    _e_Const = _e_Num

    def _e_Interp(self, n):
        parts = [p if type(p) is str else self.expr(p) for p in n.parts]
        rs = self.rs

        def f(ev, s):
            out = []
            for p in parts:
                if type(p) is str:
                    out.append(p)
                else:
                    v = p(ev, s)
                    out.append(v if type(v) is str else show(v, rs))
            return ev.text(n, "".join(out))
        return f

    def _e_Name(self, n):
        name = n.name
        rs = self.rs
        miss = MISSING
        if name in rs.constants:
            c = rs.constants[name]
            return lambda ev, s: s.get(name, c) if name in s else c
        if name in rs.game_counters:
            def counter(ev, s):
                v = s.get(name, miss)
                return ev.st.counters[name] if v is miss else v
            return counter
        if name in rs.game_zones:
            z = Zone(name)

            def zone(ev, s):
                v = s.get(name, miss)
                return z if v is miss else v
            return zone

        def other(ev, s):
            try:
                return s[name]
            except KeyError:
                return ev.global_value(name, n)
        return other

    def _e_Attr(self, n):
        fo = self.expr(n.obj)
        name = n.name
        rs = self.rs
        pcounter = name in rs.player_counters
        pzone = name in rs.player_zones
        suffix = "." + name

        # Per kind: is `name` a component counter ("c") or slot ("z")? Attributes are looked up first.
        comp_kind = {k: ("c" if name in kd.counters else "z") for k, kd in rs.kinds.items()
                     if name in kd.counters or name in kd.slots}

        # Keys and zone references built once, not on every access (Zone values are immutable).
        ncomp = len(rs.components)
        ckeys = [f"#{i}{suffix}" for i in range(ncomp)]
        czones = [Zone(k) for k in ckeys]
        pkeys = [f"{i}{suffix}" for i in range(MAX_SEATS)]
        pzones = [Zone(k) for k in pkeys]

        # `x.name` where x is a plain local (the common case) reads the scope inline.
        local = None
        if type(n.obj) is A.Name and n.obj.name not in rs.constants and n.obj.name not in rs.game_counters \
                and n.obj.name not in rs.game_zones:
            local = n.obj.name

        def f(ev, s):
            o = s.get(local, MISSING) if local is not None else MISSING
            if o is MISSING:
                o = fo(ev, s)
            t = type(o)
            if t is Comp:
                v = ev.attrs[o].get(name, MISSING)
                if v is not MISSING:
                    return v
                what = comp_kind.get(ev.kind_of[o])
                if what == "c":
                    return ev.st.counters[ckeys[o]]
                if what == "z":
                    return czones[o]
            elif t is Player:
                if pcounter:
                    return ev.st.counters[pkeys[o]]
                if pzone:
                    return pzones[o]
            return ev.attribute(o, name, n)
        return f

    def _e_Index(self, n):
        fo, fi = self.expr(n.obj), self.expr(n.index)

        def f(ev, s):
            o = fo(ev, s)
            i = fi(ev, s)
            if type(o) is dict and i in o:
                return o[i]
            return ev.index(n, o, i)
        return f

    def _e_ListLit(self, n):
        items = [self.expr(x) for x in n.items]

        def listlit(ev, s):
            out = [f(ev, s) for f in items]
            for v in out:  # only lists that hold lists or maps need measuring (values.nested)
                if type(v) is list or type(v) is dict:
                    return ev.nested(n, out)
            return out
        return listlit

    def _e_MapLit(self, n):
        pairs = [(self.expr(k), self.expr(v)) for k, v in n.pairs]
        return lambda ev, s: ev.make_map(n, [(k(ev, s), v(ev, s)) for k, v in pairs])

    def _e_Comp(self, n):
        fe, fit = self.expr(n.expr), self.expr(n.iter)
        fc = self.expr(n.cond) if n.cond is not None else None
        var = n.var
        it = n.iter

        def f(ev, s):
            src = fit(ev, s)
            t = type(src)
            # Lists are values (never mutated in place); a zone is copied since the body may move things.
            items = src if t is list else list(ev.st.zones[src.key]) if t is Zone else list(ev.iterate(src, it))
            st = ev.st
            st.steps += len(items)
            if st.steps > ev.limit:
                ev.spend(0, n)
            old = s.get(var, MISSING)
            out = []
            try:
                for x in items:
                    s[var] = x
                    if fc is None or fc(ev, s):
                        out.append(fe(ev, s))
            finally:
                if old is MISSING:
                    s.pop(var, None)
                else:
                    s[var] = old
            for v in out:
                if type(v) is list or type(v) is dict:
                    return ev.nested(n, out)
            return out
        return f

    def _e_BinOp(self, n):
        fl, fr = self.expr(n.left), self.expr(n.right)
        if n.op == "+":
            def add(ev, s):
                a, b = fl(ev, s), fr(ev, s)
                if type(a) is int and type(b) is int:
                    r = a + b
                    if -MAX_INT <= r <= MAX_INT:
                        return r
                return ev.binop(n, a, b)
            return add
        if n.op == "-":
            def sub(ev, s):
                a, b = fl(ev, s), fr(ev, s)
                if type(a) is int and type(b) is int:
                    r = a - b
                    if -MAX_INT <= r <= MAX_INT:
                        return r
                return ev.binop(n, a, b)
            return sub
        return lambda ev, s: ev.binop(n, fl(ev, s), fr(ev, s))

    def _e_Neg(self, n):
        f = self.expr(n.operand)

        def neg(ev, s):
            v = f(ev, s)
            return -v if type(v) is int else ev.negate(n, v)
        return neg

    def _e_Not(self, n):
        f = self.expr(n.operand)
        return lambda ev, s: not f(ev, s)

    def _e_BoolOp(self, n):
        fl, fr = self.expr(n.left), self.expr(n.right)
        if n.op == "and":
            return lambda ev, s: fl(ev, s) and fr(ev, s)
        return lambda ev, s: fl(ev, s) or fr(ev, s)

    def _e_Compare(self, n):
        fl, fr = self.expr(n.left), self.expr(n.right)
        op = n.op
        if op in ("==", "!=") and type(n.right) in (A.Num, A.Str, A.Const):
            # Comparing with a literal (`c.type == "token"`): no closure call for the constant side.
            const = n.right.value
            ctype = type(const)
            if op == "==":
                def eq_const(ev, s):
                    a = fl(ev, s)
                    return a is const or (a == const and type(a) is ctype)
                return eq_const

            def ne_const(ev, s):
                a = fl(ev, s)
                return not (a is const or (a == const and type(a) is ctype))
            return ne_const
        if op == "==":
            def eq(ev, s):
                a, b = fl(ev, s), fr(ev, s)
                return a is b or (a == b and type(a) is type(b))
            return eq
        if op == "!=":
            def ne(ev, s):
                a, b = fl(ev, s), fr(ev, s)
                return not (a is b or (a == b and type(a) is type(b)))
            return ne
        if op in ("<", "<=", ">", ">="):
            pyop = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}[op]

            def cmp(ev, s):
                a, b = fl(ev, s), fr(ev, s)
                if type(a) is int and type(b) is int:
                    return pyop(a, b)
                return ev.compare(n, a, b)
            return cmp
        return lambda ev, s: ev.compare(n, fl(ev, s), fr(ev, s))

    def _e_CondExpr(self, n):
        ft, fc, fe = self.expr(n.then), self.expr(n.test), self.expr(n.orelse)
        return lambda ev, s: ft(ev, s) if fc(ev, s) else fe(ev, s)
