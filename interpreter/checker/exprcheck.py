"""Check expressions: resolve names and attributes, check calls, and infer a light static type.

Only what would certainly fail at run time (or be certainly pointless, like comparing a player with a
number) is reported; whatever cannot be known is typed `any` and passes. The rules mirror the
evaluator's (`evaluator.py`) and the primitives' own checks (`runtime/builtins.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from meeple.checker import typesys as ty
from meeple.checker.opcheck import Ops, src
from meeple.checker.typesys import T
from meeple.language import ast as A

# Built-ins that return none when there is nothing to return (the language reference says "or none").
MAYBE_NONE = frozenset({"first", "last", "random_pick", "owner", "zone_of"})


@dataclass(slots=True)
class RootInfo:
    """One script of the ruleset and what it may use: `implicit` names, `return` (procedures, handlers)."""

    node: Any
    what: str
    implicit: dict[str, T]
    returns: bool = False
    proc: str | None = None


@dataclass(slots=True)
class Refs:
    """What one script refers to, for reachability (phases never run)."""

    phases: set[str] = field(default_factory=set)
    procs: set[str] = field(default_factory=set)
    events: set[str] = field(default_factory=set)
    hooks: set[str] = field(default_factory=set)


class Exprs(Ops):
    def __init__(self, ck: Any, info: RootInfo) -> None:
        self.ck = ck
        self.rs = ck.rs
        self.info = info
        self.refs: Refs = ck.refs.setdefault(id(info.node), Refs())
        self.locals, self.bad_assign, self.loop_binds = ck.root_names(info)
        self.prev: dict[str, T] = ck.prev_envs.get(id(info.node), {})
        self.env: dict[str, T] = dict(info.implicit)
        ck.envs[id(info.node)] = self.env
        self.bound: set[str] = set(info.implicit)  # names assigned so far, in source order
        self.scoped: dict[str, T] = {}  # comprehension variables, visible only inside it
        self.loops: list[Any] = []
        self.simul: Any = None

    def add(self, code: str, message: str, span: Any, *, hint: str | None = None,
            severity: str = "error") -> None:
        self.ck.problems.add(code, message, span, hint=hint, severity=severity)

    def bind(self, name: str, t: T) -> None:
        self.bound.add(name)
        self.env[name] = ty.join(self.env.get(name), t) or ty.ANY

    # ------------------------------------------------------------ dispatch
    def expr(self, n: Any) -> T:
        t = type(n)
        if t is A.Num:
            return ty.NUM
        if t is A.Str:
            return ty.STR
        if t is A.Const:
            return ty.BOOL if isinstance(n.value, bool) else ty.NONE
        if t is A.Name:
            return self.name(n)
        if t is A.Attr:
            return self.attr_type(self.expr(n.obj), n)
        if t is A.Call:
            return self.call(n)
        if t is A.BinOp:
            return self.binop(n)
        if t is A.Compare:
            return self.compare(n)
        if t is A.Index:
            return self.index_type(self.expr(n.obj), self.expr(n.index), n)
        if t is A.Interp:
            for p in n.parts:
                if not isinstance(p, str):
                    self.expr(p)
            return ty.STR
        if t is A.ListLit:
            out: T | None = None
            for x in n.items:
                out = ty.join(out, self.expr(x))
            return ty.list_of(out)
        if t is A.MapLit:
            for k, v in n.pairs:
                kt = self.expr(k)
                if kt.k in ("list", "map"):
                    self.add("C011", f"{kt} cannot be a map key", k.span,
                             hint="use a string, a number, a player or a component as the key")
                self.expr(v)
            return ty.MAP
        if t is A.Comp:
            return self.comprehension(n)
        if t is A.BoolOp:
            return ty.join(self.expr(n.left), self.expr(n.right)) or ty.ANY
        if t is A.Not:
            self.expr(n.operand)
            return ty.BOOL
        if t is A.Neg:
            v = self.expr(n.operand)
            if v.k not in ty.NUMLIKE and v.k != "any":
                self.add("C011", f"cannot negate {v}", n.span)
            elif type(n.operand) is A.Call and n.operand.func in MAYBE_NONE:
                self.add("W011", f"`{n.operand.func}(...)` is none when there is nothing to take, and none "
                                 "cannot be negated", n.span, severity="warning",
                         hint="give a default first: `x = first(xs)` then `-x if x != none else 0`")
            return ty.NUM if v.k in ty.NUMLIKE else ty.ANY
        if t is A.CondExpr:
            self.expr(n.test)
            return ty.join(self.expr(n.then), self.expr(n.orelse)) or ty.ANY
        return ty.ANY  # pragma: no cover - every expression node is handled above

    # ------------------------------------------------------------ names
    def name(self, n: A.Name) -> T:
        nm = n.name
        if nm in self.scoped:
            return self.scoped[nm]
        g = self.ck.globals.get(nm)
        if nm in self.locals:
            if nm in self.bound or any(nm in self.loop_binds.get(id(lp), ()) for lp in self.loops):
                return ty.join(self.env.get(nm), self.prev.get(nm)) or ty.ANY
            if g is None:
                self.add("C001", f"`{nm}` is used before it is assigned", n.span,
                         hint=f"`{nm}` is only assigned further down in {self.info.what}")
                return ty.join(self.env.get(nm), self.prev.get(nm)) or ty.ANY
        if g is not None:
            self.ck.used_names.add(nm)
            return self.ck.global_type(nm)
        self.add("C001", f"`{nm}` is not defined", n.span, hint=self.ck.name_hint(nm, self.locals))
        return ty.ANY

    # ------------------------------------------------------------ attributes
    def attr_type(self, obj: T, n: A.Attr) -> T:
        name, k, ck = n.name, obj.k, self.ck
        ck.used_attrs.add(name)
        if k == "player":
            e = ck.player_attrs.get(name)
            if e is not None:
                return ck.entry_type(e)
            if name in ck.comp_attrs:
                self.add("C012", f"a player has no `{name}`: it belongs to components", n.span,
                         hint=ck.did_you_mean(name, ck.player_attrs))
            else:
                self.add("C002", f"a player has no counter or zone called `{name}`", n.span,
                         hint=ck.did_you_mean(name, ck.player_attrs))
            return ty.ANY
        if k == "comp":
            table = ck.kind_attrs.get(obj.kind) if obj.kind else None
            entries = [table[name]] if table and name in table else [] if table else ck.comp_attrs.get(name, [])
            if entries:
                out: T | None = None
                for e in entries:
                    out = ty.join(out, ck.entry_type(e))
                return out or ty.ANY
            if name in ck.player_attrs:
                self.add("C012", f"a component has no `{name}`: `{name}` belongs to players", n.span,
                         hint=f"the player who holds the component: `{src(n.obj)}.owner.{name}`")
            elif obj.kind and name in ck.comp_attrs:
                has = sorted(kd for kd, tab in ck.kind_attrs.items() if name in tab)
                self.add("C012", f"a {obj.kind} has no `{name}`", n.span,
                         hint=f"`{name}` belongs to the kind{'s' if len(has) > 1 else ''} {', '.join(has)}")
            else:
                self.add("C002", f"no component has an attribute, counter or slot called `{name}`", n.span,
                         hint=ck.did_you_mean(name, table or ck.comp_attrs))
            return ty.ANY
        if k == "any":
            entries = ([ck.player_attrs[name]] if name in ck.player_attrs else []) + ck.comp_attrs.get(name, [])
            if not entries:
                self.add("C002", f"nothing has an attribute, counter or zone called `{name}`", n.span,
                         hint=ck.did_you_mean(name, set(ck.player_attrs) | set(ck.comp_attrs)))
                return ty.ANY
            out = None
            for e in entries:
                out = ty.join(out, ck.entry_type(e))
            return out or ty.ANY
        hint = {"list": f"take one item first, like `first(xs).{name}`, or loop over the list",
                "zone": f"a zone holds components: loop over it, or take one like `first(zone).{name}`",
                "none": "the value is none here"}.get(k)
        self.add("C012", f"cannot read `{name}` of {obj}", n.span, hint=hint)
        return ty.ANY

    def attr_what(self, obj: T, name: str) -> str | None:
        """What `name` is on a value of this type (counter, zone, slot, attribute...), if it exists."""
        ck = self.ck
        if obj.k in ("player", "any") and name in ck.player_attrs:
            return ck.player_attrs[name][0]
        if obj.k in ("comp", "any"):
            table = ck.kind_attrs.get(obj.kind) if obj.kind else None
            if table is not None:
                return table[name][0] if name in table else None
            entries = ck.comp_attrs.get(name)
            return entries[0][0] if entries else None
        return None

    def counter_keys(self, obj: T, name: str) -> list[tuple]:
        rs = self.rs
        keys: list[tuple] = []
        if obj.k in ("player", "any") and name in rs.player_counters:
            keys.append(("p", name))
        if obj.k in ("comp", "any"):
            kinds = [obj.kind] if obj.kind else list(rs.kinds)
            keys += [("k", kd, name) for kd in kinds if kd in rs.kinds and name in rs.kinds[kd].counters]
        return keys

    def index_type(self, obj: T, key: T, n: A.Index) -> T:
        k = obj.k
        if k in ("list", "zone", "str"):
            if key.k not in ("num", "any"):
                self.add("C011", f"an index into {obj} must be a number, not {key}", n.index.span)
            return ty.STR if k == "str" else ty.elem(obj)
        if k in ("map", "any"):
            return ty.ANY
        hint = f"`{src(n.obj)}.name` reads a counter, zone or attribute" if k in ("player", "comp") else None
        self.add("C014", f"cannot take an entry of {obj}", n.span, hint=hint)
        return ty.ANY

    def iterable(self, t: T, node: Any, what: str) -> T:
        if t.k in ("list", "zone", "map", "any"):
            return ty.elem(t)
        hint = ("to repeat n times write `repeat n:`; for the numbers 1 to n, `between(1, n)`" if t.k == "num"
                else None)
        self.add("C014", f"{what} a list, a zone or a map, not {t}", node.span, hint=hint)
        return ty.ANY

    def comprehension(self, n: A.Comp) -> T:
        item = self.iterable(self.expr(n.iter), n.iter, "a comprehension loops over")
        missing = n.var not in self.scoped
        saved = self.scoped.get(n.var)
        self.scoped[n.var] = item
        if n.cond is not None:
            self.expr(n.cond)
        out = self.expr(n.expr)
        if missing:
            del self.scoped[n.var]
        else:
            self.scoped[n.var] = saved  # type: ignore[assignment]
        return ty.list_of(out)
