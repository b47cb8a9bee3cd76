"""Check calls and operators: argument counts and types of built-ins, procedure calls, arithmetic and
comparisons. A mixin of `exprcheck.Exprs`, which provides `expr`, `add` and the checker state.
"""

from __future__ import annotations

from typing import Any

from meeple.checker import typesys as ty
from meeple.checker.datacheck import amount_problems, literal_problems, reveal_problems
from meeple.checker.decls import PYTHON_FUNCTIONS
from meeple.checker.typesys import NUMLIKE, T
from meeple.language import ast as A
from meeple.language.builtins import SIGNATURES

NEVER_ARITH = ("zone", "player", "comp", "map", "none")
_ORD = ["first", "second", "third"]


class Ops:
    ck: Any
    rs: Any
    locals: set[str]
    scoped: dict[str, T]
    simul: Any
    refs: Any

    def expr(self, n: Any) -> T:
        raise NotImplementedError

    def add(self, code: str, message: str, span: Any, *, hint: str | None = None,
            severity: str = "error") -> None:
        raise NotImplementedError

    def attr_what(self, obj: T, name: str) -> str | None:
        raise NotImplementedError

    def counter_keys(self, obj: T, name: str) -> list[tuple]:
        raise NotImplementedError

    # ------------------------------------------------------------ calls
    def call(self, n: A.Call) -> T:
        ck = self.ck
        prim = SIGNATURES.get(n.func)
        if prim is not None:
            amount_problems(self, n)
            reveal_problems(self, n)
            if not prim.min_args <= len(n.args) <= prim.max_args:
                want = (f"{prim.min_args}" if prim.min_args == prim.max_args
                        else f"{prim.min_args} to {prim.max_args}")
                self.add("C004", f"`{n.func}` takes {want} argument{'s' if prim.max_args != 1 else ''}, "
                         f"not {len(n.args)}", n.span, hint=f"{n.func}({', '.join(prim.params)})")
            allowed = ty.ARGS.get(n.func, ())
            types = []
            for i, a in enumerate(n.args):
                t = self.expr(a)
                types.append(t)
                want_t = allowed[i] if i < len(allowed) else ty.ANYTHING
                if want_t is ty.COUNTER:
                    self.counter_arg(a, t, n)
                elif not ty.accepts(want_t, t):
                    self.add("C013", f"`{n.func}` needs {ty.needs(want_t)} as its {_ORD[min(i, 2)]} argument, "
                             f"not {t}", a.span, hint=_arg_hint(n.func, t))
            if n.func == "components" and n.args:
                return self.components_arg(n.args[0])
            return ty.returns(n.func, types, prim.returns)
        if n.func in ck.proc_names:
            self.refs.procs.add(n.func)
            ck.used_procs.add(n.func)
            for a in n.args:
                self.expr(a)
            proc = self.rs.procedures.get(n.func)
            if proc is None:  # it did not parse: its other problems are reported already
                return ty.ANY
            if n.func in self.rs.suspending_procs and id(n) not in ck.stmt_calls:
                self.add("C007", f"`{n.func}` asks a player to decide, so it cannot be called inside an "
                         "expression", n.span, hint=f"call it as a statement: `x = {n.func}(...)`")
            if len(n.args) != len(proc.params):
                self.add("C004", f"`{n.func}` takes {len(proc.params)} arguments, not {len(n.args)}", n.span,
                         hint=f"{n.func}({', '.join(proc.params)})")
            if self.simul is not None and n.func in ck.ending_procs:
                self.add("C021", "the options of `simultaneous` cannot end the game", n.span,
                         hint=f"`{n.func}` may run `end_game`")
            return ck.proc_return(n.func)
        for a in n.args:
            self.expr(a)
        hint = (f"`{n.func}` is a phase: run it with `phase {n.func}`" if n.func in ck.phase_names
                else PYTHON_FUNCTIONS.get(n.func) or ck.did_you_mean(n.func, set(SIGNATURES) | ck.proc_names))
        self.add("C003", f"there is no function or procedure `{n.func}`", n.span, hint=hint)
        return ty.ANY

    def counter_arg(self, a: Any, t: T, n: A.Call) -> None:
        """The first argument of gain/pay/score is written to: it must name a number counter."""
        ta = type(a)
        what = None
        if ta is A.Name:
            if a.name not in self.locals and a.name not in self.scoped and a.name in self.ck.readonly:
                what = self.ck.globals[a.name][0]
        elif ta is A.Attr:
            w = None if self.counter_keys(ty.ANY, a.name) else self.attr_what(ty.ANY, a.name)
            if w is not None:
                what = f"{'an' if w[0] in 'aeiou' else 'a'} {w}"
        elif ta is not A.Index:
            what = "not a counter"
        if what is not None:
            self.add("C013", f"`{n.func}` changes a counter, like `p.coins`; `{src(a)}` is {what}"
                     if what != "not a counter" else f"`{n.func}` needs a counter to change, like `p.coins`",
                     a.span)
        elif t.k not in ("num", "any", "bool"):
            self.add("C013", f"`{n.func}` needs a counter that holds a number, not {t}", a.span)

    def components_arg(self, a: Any) -> T:
        ck, rs = self.ck, self.rs
        if type(a) is not A.Str:
            ck.dynamic_components = True
            return ty.list_of(ty.COMP)
        key = a.value
        if key in rs.items:
            kind = rs.components[rs.items[key][0]].kind
            ck.used_kinds.add(kind)
            return ty.list_of(ty.comp_of(kind))
        if key in rs.kinds:
            ck.used_kinds.add(key)
            return ty.list_of(ty.comp_of(key))
        self.add("C020", f"there is no component kind or item `{key}`", a.span,
                 hint=ck.did_you_mean(key, set(rs.kinds) | set(rs.items)))
        return ty.list_of(ty.COMP)

    # ------------------------------------------------------------ operators
    def binop(self, n: A.BinOp) -> T:
        a, b = self.expr(n.left), self.expr(n.right)
        op, ka, kb = n.op, a.k, b.k
        known = ka != "any" and kb != "any"
        if op == "+":
            if "zone" in (ka, kb):
                return self._bad(n, a, b, "use `list(zone)` for its components, or `count(zone)` for how many")
            if ka == "list":
                return ty.list_of(ty.join(a.elem, b.elem if kb == "list" else b))
            if ka == "any":  # a list on the left takes anything
                return ty.ANY
            if ka in NEVER_ARITH or kb in NEVER_ARITH or (known and not (
                    (ka in NUMLIKE and kb in NUMLIKE) or ka == kb == "str")):
                return self._bad(n, a, b, _arith_hint(a, b))
            return ty.STR if ka == kb == "str" else ty.NUM if known else ty.ANY
        if op == "-":
            if ka in ("list", "any"):  # a list on the left drops anything
                return a
            if ka in NEVER_ARITH or kb in NEVER_ARITH or ka == "str" or kb in ("str", "list") or (
                    known and not (ka in NUMLIKE and kb in NUMLIKE)):
                return self._bad(n, a, b, _arith_hint(a, b))
            return ty.NUM if known else ty.ANY
        if op == "*":
            if ka in NEVER_ARITH or kb in NEVER_ARITH or (known and not (
                    (ka in NUMLIKE and kb in NUMLIKE) or (ka in ("str", "list") and kb in NUMLIKE)
                    or (kb in ("str", "list") and ka in NUMLIKE))):
                return self._bad(n, a, b, _arith_hint(a, b))
            return ty.NUM if ka in NUMLIKE and kb in NUMLIKE else ty.ANY
        if (ka != "any" and ka not in NUMLIKE) or (kb != "any" and kb not in NUMLIKE):
            return self._bad(n, a, b, _arith_hint(a, b))
        return ty.NUM if known else ty.ANY

    def _bad(self, n: Any, a: T, b: T, hint: str | None) -> T:
        verb = {"+": "add", "-": "subtract", "*": "multiply", "//": "divide", "%": "take the remainder of"}[n.op]
        self.add("C011", f"cannot {verb} {a} and {b} (`{n.op}`)", n.span, hint=hint)
        return ty.ANY

    def compare(self, n: A.Compare) -> T:
        a, b = self.expr(n.left), self.expr(n.right)
        op, ka, kb = n.op, a.k, b.k
        known = ka != "any" and kb != "any"
        literal_problems(self, n)
        if op in ("==", "!="):
            if known and ka != kb and "none" not in (ka, kb):
                self.add("C011", f"{a} is never equal to {b}, so `{op}` is always "
                         f"{'false' if op == '==' else 'true'}", n.span, hint=_compare_hint(a, b))
        elif op in ("in", "not in"):
            if kb not in ("list", "zone", "map", "str", "any"):
                self.add("C011", f"cannot look for a value in {b} (`{op}`)", n.right.span,
                         hint="`in` looks in a list, a zone, a map's keys or a string")
            elif kb == "str" and ka not in ("str", "any"):
                self.add("C011", f"cannot look for {a} in a string (`{op}`)", n.span)
            else:  # membership is strict, like `==`: a player is never in a list of numbers
                item = b.elem if kb == "list" else ty.COMP if kb == "zone" else None
                if item is not None and ka not in ("any", "none", item.k) and item.k not in ("any", "none"):
                    self.add("C011", f"{a} is never in {b}, so `{op}` is always "
                             f"{'false' if op == 'in' else 'true'}", n.span, hint=_compare_hint(a, item))
        else:
            ok = (ka in NUMLIKE and kb in NUMLIKE) or ka == kb
            if ka in ("zone", "map", "none") or kb in ("zone", "map", "none") or (known and not ok):
                self.add("C011", f"cannot compare {a} with {b} (`{op}`)", n.span, hint=_compare_hint(a, b))
        return ty.BOOL


def src(n: Any) -> str:
    """A short rendering of an expression for hints."""
    t = type(n)
    if t is A.Name:
        return n.name
    if t is A.Attr:
        return f"{src(n.obj)}.{n.name}"
    if t is A.Num:
        return str(n.value)
    if t is A.Call:
        return f"{n.func}(...)"
    return "it"


def _arith_hint(a: T, b: T) -> str | None:
    if "player" in (a.k, b.k):
        return "a player is not a number: use `p.seat` for the seat, or a counter like `p.coins`"
    if "comp" in (a.k, b.k):
        return "a component is not a number: use one of its attributes, like `c.value`"
    if "str" in (a.k, b.k) and (a.k in NUMLIKE or b.k in NUMLIKE):
        return "to build a text, interpolate: \"{x} coins\""
    return None


def _compare_hint(a: T, b: T) -> str | None:
    kinds = {a.k, b.k}
    if kinds == {"player", "num"}:
        return "compare seats (`p.seat == 0`) or players (`p == player(0)`)"
    if kinds == {"comp", "str"}:
        return "compare an attribute: `c.id == \"...\"` or `c.name == \"...\"`"
    if "zone" in kinds:
        return "compare its contents with `list(zone)`, or its size with `count(zone)`"
    return None


def _arg_hint(func: str, t: T) -> str | None:
    if t.k == "num" and func in ("count", "sum", "first", "last", "list"):
        return "it is a number already"
    if func in ("reveal", "conceal") and t.k in ("num", "bool", "str"):
        # `reveal(p.coins)` did nothing before this was an error: a showdown that never showed anything
        return "only components turn face up; to make a hidden counter known to all, write it in the log: " \
               "`log(\"{p.name} has {p.coins}\")`"
    if t.k == "zone" and func == "keys":
        return "a zone is not a map: loop over it, or use `list(zone)`"
    return None
