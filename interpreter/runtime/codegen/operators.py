"""The operators of generated expressions (exprs.py builds on them), written into an `Fn` (fn.py). `+`,
`-` and comparisons inline their int case, each operand evaluated once; the rest call support.py's
helpers, which check each value as the reference does."""

from __future__ import annotations

import ast
from typing import Any

from meeple.language import ast as A
from meeple.language.walk import walk
from meeple.runtime.codegen.fn import Fn, inline_operand, operand, simple
from meeple.runtime.limits import MAX_INT


def _int_literal(code: str) -> bool:
    """A number literal within the engine's limit (a folded constant may be past it)."""
    return code.lstrip("-").isdigit() and -MAX_INT <= int(code) <= MAX_INT


def _str_literal(code: str) -> bool:
    """A string literal (generated code that starts with a quote is one: constants and texts)."""
    if code[:1] not in ("'", '"'):
        return False
    try:
        return type(ast.literal_eval(code)) is str
    except (ValueError, SyntaxError):
        return False


def _nonzero_literal(code: str) -> bool:
    return _int_literal(code) and int(code) != 0


# Expressions that evaluate their first operand before anything else (operators.py, exprs.py).
_LEADS = (A.BinOp, A.Compare, A.Attr, A.Index, A.Not, A.Neg, A.BoolOp)
def _holds_comp(n: Any) -> bool:
    return any(type(x) is A.Comp for x in walk(n))


_CMP = {"<": "h_lt", "<=": "h_le", ">": "h_gt", ">=": "h_ge"}
_ARITH = {"*": "h_mul", "//": "h_floordiv", "%": "h_mod"}


class OperatorEmitter:
    """Operator emission; expressions (exprs.py) supply `expr` and the builder (module.py) `idx`."""

    def idx(self, n: Any) -> int:  # pragma: no cover - provided by the builder
        raise NotImplementedError

    def node(self, n: Any) -> str:
        return f"N[{self.idx(n)}]"

    def is_flat(self, n: Any, f: Fn) -> bool:  # pragma: no cover - provided by lists.py
        raise NotImplementedError

    def expr(self, n: Any, f: Fn) -> str:
        if not f.lead:
            return getattr(self, "_e_" + type(n).__name__)(n, f)
        # The first thing a statement evaluates (Fn.lead): a comprehension there runs as a loop before
        # it. An expression evaluated first operand first hands the lead on to it; any other takes it.
        t = type(n)
        if t is A.Comp and not f.in_iter:
            f.lead = False
            return self.comp_loop(n, f)
        if not (t in _LEADS or (t is A.Call and n.args) or (t is A.ListLit and n.items)):
            f.lead = False
        code = getattr(self, "_e_" + t.__name__)(n, f)
        f.lead = False
        return code

    def lead(self, n: Any, f: Fn) -> str:
        """`n`, the first thing evaluated by the statement being written (see `expr`)."""
        f.lead = True
        try:
            return self.expr(n, f)
        finally:
            f.lead = False

    def operands(self, nodes: Any, f: Fn) -> list[str]:
        """The code of `nodes`, evaluated left to right (operands, items, arguments). When they are the
        first thing their statement evaluates (Fn.lead) and a comprehension comes later among them, those
        before it are evaluated first, into temporaries written before the statement (the same order:
        nothing else runs in between), so that the comprehension is first in what is left and runs as a
        loop too (lists.py)."""
        lead = f.lead
        out: list[str] = []
        for i, x in enumerate(nodes):
            if i and lead and not f.in_iter and any(_holds_comp(y) for y in nodes[i:]):
                out = [c if simple(c) else self.spill(c, f) for c in out]
                f.lead = True
            out.append(self.expr(x, f))
        return out

    def spill(self, code: str, f: Fn) -> str:
        t = f.temp()
        f.w(f"{t} = {code}")
        return t

    def comp_loop(self, n: Any, f: Fn) -> str:  # pragma: no cover - provided by exprs.py
        raise NotImplementedError

    def _e_BinOp(self, n: A.BinOp, f: Fn) -> str:
        a, b = self.operands((n.left, n.right), f)
        if n.op in ("+", "-"):
            helper = "h_add" if n.op == "+" else "h_sub"
            if simple(a) and simple(b):
                checks = " and ".join(f"type({x}) is int" for x in (a, b) if x.isidentifier())
                if not checks:  # two number literals (constants are folded in): fold the sum too
                    r = int(a) + int(b) if n.op == "+" else int(a) - int(b)
                    if -MAX_INT <= r <= MAX_INT:
                        return repr(r)
                else:
                    return (f"({a} {n.op} {b} if {checks} and -MAXI <= {a} {n.op} {b} <= MAXI "
                            f"else {helper}(ev, {self.node(n)}, {a}, {b}))")
            if self.ints(n.left, a, f) and self.ints(n.right, b, f):
                # Both certainly numbers within the limit: only the result's range is left to check, and
                # past it the reference's error is the same whatever the operands (values.binop).
                ops = operand(f"{a} {n.op} {b}", f)
                if ops is not None:
                    return f"({ops[1]} if -MAXI <= {ops[0]} <= MAXI else ev.number({self.node(n)}, {ops[1]}))"
            both = self.int_operands(a, b, f)
            if both is not None:
                test, a, b = both
                return (f"({a} {n.op} {b} if {test} and -MAXI <= {a} {n.op} {b} <= MAXI "
                        f"else {helper}(ev, {self.node(n)}, {a}, {b}))")
            return f"{helper}(ev, {self.node(n)}, {a}, {b})"
        if n.op == "*":
            # By a nonzero literal k: a product within the limit has operands within it, of at most 55
            # bits together, which is all support.mul checks before it multiplies (values.binop).
            right = _nonzero_literal(b)
            if right or _nonzero_literal(a):
                if self.ints(n.left, a, f) and self.ints(n.right, b, f):
                    # a number within the limit times a nonzero literal: as for `+` above
                    ops = operand(f"{a} * {b}", f)
                    if ops is not None:
                        return (f"({ops[1]} if -MAXI <= {ops[0]} <= MAXI "
                                f"else ev.number({self.node(n)}, {ops[1]}))")
                lit, ox = (b, operand(a, f)) if right else (a, operand(b, f))
                if ox is not None:
                    x = ox[1]
                    args = f"{x}, {lit}" if right else f"{lit}, {x}"
                    return (f"({x} * {lit} if type({ox[0]}) is int and -MAXI <= {x} * {lit} <= MAXI "
                            f"else h_mul(ev, {self.node(n)}, {args}))")
        if n.op in ("//", "%") and _nonzero_literal(b) and self.ints(n.left, a, f):
            return f"({a} {n.op} {b})"  # a number within the limit by a nonzero one: Python's own
        arith = _ARITH.get(n.op)
        if arith is None:
            return f"ev.binop({self.node(n)}, {a}, {b})"
        return f"{arith}(ev, {self.node(n)}, {a}, {b})"

    def known_int(self, n: Any, f: Fn) -> bool:  # pragma: no cover - provided by exprs.py
        raise NotImplementedError

    def ints(self, n: Any, code: str, f: Fn) -> bool:
        """Whether the operand `n` (generated as `code`) is certainly a number within the limit."""
        return _int_literal(code) or self.known_int(n, f)

    @staticmethod
    def int_operands(a: str, b: str, f: Fn) -> tuple[str, str, str] | None:
        """For two operands that are not both simple: a test that both are ints, which evaluates each
        once, left to right, into a temporary (`&`, not `and`: the second is evaluated whatever the
        first is), and the names to use after it. None where no `:=` may be written."""
        oa, ob = operand(a, f), operand(b, f)
        if oa is None or ob is None:
            return None
        tests = [f"(type({o[0]}) is int)" for o in (oa, ob) if not _int_literal(o[0])]
        return " & ".join(tests), oa[1], ob[1]

    def _e_Neg(self, n: A.Neg, f: Fn) -> str:
        return f"h_neg(ev, {self.node(n)}, {self.expr(n.operand, f)})"

    def _e_Not(self, n: A.Not, f: Fn) -> str:
        return f"(not {self.expr(n.operand, f)})"

    def _e_BoolOp(self, n: A.BoolOp, f: Fn) -> str:
        return f"({self.expr(n.left, f)} {n.op} {self.expr(n.right, f)})"

    def _e_CondExpr(self, n: A.CondExpr, f: Fn) -> str:
        return f"({self.expr(n.then, f)} if {self.expr(n.test, f)} else {self.expr(n.orelse, f)})"

    def _e_Compare(self, n: A.Compare, f: Fn) -> str:
        a, b, op = self.expr(n.left, f), self.expr(n.right, f), n.op
        if op in ("==", "!="):
            r: Any = n.right
            const = r.value if type(r) in (A.Num, A.Str, A.Const) else ...
            if type(const) is str or _str_literal(a) or _str_literal(b):
                code = f"({a} == {b})"  # only a string equals a string
            elif const is None or type(const) is bool:
                code = f"({a} is {b})"
            elif self.ints(n.left, a, f) and self.ints(n.right, b, f):
                code = f"({a} == {b})"  # certainly numbers (never a boolean): Python's equality
            elif _int_literal(b) and (oa := operand(a, f)) is not None:
                code = f"(type({oa[0]}) is int and {oa[1]} == {b})"
            elif _int_literal(a) and (ob := operand(b, f)) is not None:
                code = f"(type({ob[0]}) is int and {a} == {ob[1]})"
            elif (oa := operand(a, f)) is not None and (ob := operand(b, f)) is not None:
                # values.same inlined, each operand evaluated once, left to right; lists and maps go to it
                # (their items are compared strictly too), unless one side is never one (then neither is)
                deep = "" if self.is_flat(n.left, f) or self.is_flat(n.right, f) else \
                    f" and (type({oa[1]}) is not list and type({oa[1]}) is not dict or h_eq({oa[1]}, {ob[1]}))"
                code = f"({oa[0]} is {ob[0]} or ({oa[1]} == {ob[1]} and type({oa[1]}) is type({ob[1]}){deep}))"
            else:
                code = f"h_eq({a}, {b})"
            return code if op == "==" else f"(not {code})"
        if op in _CMP:
            if self.ints(n.left, a, f) and self.ints(n.right, b, f):
                return f"({a} {op} {b})"  # certainly numbers: Python's comparison, left to right
            helper = f"{_CMP[op]}(ev, {self.node(n)}, {a}, {b})"
            if simple(a) and simple(b):
                checks = " and ".join(f"type({x}) is int" for x in (a, b) if x.isidentifier())
                if checks:
                    return f"({a} {op} {b} if {checks} else {helper})"
                return helper
            both = self.int_operands(a, b, f)
            if both is not None:
                test, a, b = both
                return f"({a} {op} {b} if {test} else {_CMP[op]}(ev, {self.node(n)}, {a}, {b}))"
            return helper
        if op in ("in", "not in"):
            code = f"h_in(ev, {self.node(n)}, {a}, {b})"
            oa, ob = inline_operand(a, f), inline_operand(b, f)
            if oa is not None and ob is not None:
                # support.contains inlined for a list: a string is in it as Python finds it (only a string
                # equals a string), and what Python does not find in it is not in it (`==` is stricter
                # than Python's); the rest (an equal item of another type, a zone, an error) goes to h_in
                tb = f.temp()
                code = (f"({oa[1]} in {ob[1]} if (type({oa[0]}) is str) & (({tb} := type({ob[0]})) is list) "
                        f"else False if {tb} is list and {oa[1]} not in {ob[1]} "
                        f"else h_in(ev, {self.node(n)}, {oa[1]}, {ob[1]}))")
            return code if op == "in" else f"(not {code})"
        return f"ev.compare({self.node(n)}, {a}, {b})"
