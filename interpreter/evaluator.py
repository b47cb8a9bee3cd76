"""The reference evaluator: expressions, and statements that never wait for a decision.

Statements that may wait for a player (a `choose`, or anything that contains one) are run by the
frame machine in machine.py, which calls back into this module for everything else. Control flow
that crosses frames (break, continue, return, end_game) travels as exceptions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import ast as A
from .errors import Problem, RuntimeRuleError
from .model import Ruleset
from .state import Comp, GameState, Player, Zone

MAX_STEPS = 2_000_000  # statements per game before we call it a runaway loop


class BreakSig(Exception):
    pass


class ContinueSig(Exception):
    pass


class ReturnSig(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


class EndGameSig(Exception):
    pass


_MISSING = object()
_NUMERIC = (int, bool, Player, Comp)


def show(v: Any, rs: Ruleset) -> str:
    """How a value reads in labels and logs."""
    t = type(v)
    if t is Player:
        return f"P{int(v) + 1}"
    if t is Comp:
        return rs.components[v].name
    if t is bool:
        return "true" if v else "false"
    if v is None:
        return "none"
    if t is list:
        return ", ".join(show(x, rs) for x in v)
    if t is Zone:
        return v.key
    return str(v)


class Evaluator:
    """Evaluates AST nodes against one ruleset and one state. Create one per game step; it is cheap."""

    def __init__(self, rs: Ruleset, state: GameState) -> None:
        self.rs = rs
        self.st = state
        self.attrs = [c.attrs for c in rs.components]
        self.kind_of = [c.kind for c in rs.components]
        from .primitives import REGISTRY

        self.prims = REGISTRY
        self._expr: dict[type, Callable[[Any, dict], Any]] = {
            A.Num: lambda n, s: n.value,
            A.Str: lambda n, s: n.value,
            A.Const: lambda n, s: n.value,
            A.Interp: self._interp,
            A.Name: self._name,
            A.Attr: self._attr,
            A.Index: self._index,
            A.Call: self.call,
            A.ListLit: lambda n, s: [self.eval(x, s) for x in n.items],
            A.MapLit: lambda n, s: {self.eval(k, s): self.eval(v, s) for k, v in n.pairs},
            A.Comp: self._comp,
            A.BinOp: self._binop,
            A.Neg: lambda n, s: -self.eval(n.operand, s),
            A.Not: lambda n, s: not self.eval(n.operand, s),
            A.BoolOp: self._boolop,
            A.Compare: self._compare,
            A.CondExpr: lambda n, s: self.eval(n.then, s) if self.eval(n.test, s) else self.eval(n.orelse, s),
        }
        self._stmt: dict[type, Callable[[Any, dict], Any]] = {
            A.Block: self.exec_block,
            A.Assign: self._assign,
            A.AugAssign: self._augassign,
            A.ExprStmt: lambda n, s: self.eval(n.expr, s),
            A.If: self._if,
            A.For: self._for,
            A.While: self._while,
            A.Repeat: self._repeat,
            A.Pass: lambda n, s: None,
            A.Break: self._break,
            A.Continue: self._continue,
            A.Return: self._return,
            A.EndGame: self._end,
            A.Phase: self._phase,
            A.Trigger: self._trigger,
        }

    # ------------------------------------------------------------ errors
    def fail(self, node: Any, message: str, hint: str | None = None) -> RuntimeRuleError:
        return RuntimeRuleError(Problem("R001", message, getattr(node, "span", None), hint=hint))

    # ------------------------------------------------------------ expressions
    def eval(self, node: Any, scope: dict) -> Any:
        return self._expr[type(node)](node, scope)

    def _interp(self, n: A.Interp, scope: dict) -> str:
        rs = self.rs
        return "".join(p if type(p) is str else show(self.eval(p, scope), rs) for p in n.parts)

    def _name(self, n: A.Name, scope: dict) -> Any:
        v = scope.get(n.name, _MISSING)
        if v is not _MISSING:
            return v
        return self.global_value(n.name, n)

    def global_value(self, name: str, node: Any) -> Any:
        rs = self.rs
        if name in rs.constants:
            return rs.constants[name]
        if name in rs.game_counters:
            return self.st.counters[name]
        if name in rs.game_zones:
            return Zone(name)
        if name == "players":
            return [Player(i) for i in range(self.st.nplayers)]
        if name == "nplayers":
            return self.st.nplayers
        if name in rs.items and len(rs.items[name]) == 1:
            return Comp(rs.items[name][0])
        raise self.fail(node, f"`{name}` is not defined")

    def _attr(self, n: A.Attr, scope: dict) -> Any:
        return self.attribute(self.eval(n.obj, scope), n.name, n)

    def attribute(self, obj: Any, name: str, node: Any) -> Any:
        t = type(obj)
        rs = self.rs
        if t is Comp:
            a = self.attrs[obj]
            if name in a:
                return a[name]
            kind = rs.kinds[self.kind_of[obj]]
            if name in kind.counters:
                return self.st.counters[f"#{int(obj)}.{name}"]
            if name in kind.slots:
                return Zone(f"#{int(obj)}.{name}")
            if name == "name":
                return rs.components[obj].name
            if name == "kind":
                return self.kind_of[obj]
            if name == "id":
                return rs.components[obj].item
            if name == "owner":
                return self.owner(obj)
            if name == "zone":
                key = self.st.loc.get(int(obj))
                return Zone(key) if key is not None else None
            if name == "facedown":
                return int(obj) in self.st.facedown
            raise self.fail(node, f"a {self.kind_of[obj]} has no attribute `{name}`")
        if t is Player:
            if name in rs.player_counters:
                return self.st.counters[f"{int(obj)}.{name}"]
            if name in rs.player_zones:
                return Zone(f"{int(obj)}.{name}")
            if name == "seat":
                return int(obj)
            if name == "number":
                return int(obj) + 1
            if name == "name":
                return f"P{int(obj) + 1}"
            raise self.fail(node, f"a player has no counter or zone `{name}`")
        if obj is None:
            raise self.fail(node, f"cannot read `{name}` of none")
        raise self.fail(node, f"cannot read `{name}` of {type_name(obj)}")

    def owner(self, c: int) -> Player | None:
        key = self.st.loc.get(int(c))
        while key is not None:
            head = key.split(".", 1)[0]
            if head.isdigit():
                return Player(int(head))
            if head.startswith("#"):
                key = self.st.loc.get(int(head[1:]))
                continue
            return None
        return None

    def _index(self, n: A.Index, scope: dict) -> Any:
        return self.index(n, self.eval(n.obj, scope), self.eval(n.index, scope))

    def index(self, n: A.Index, obj: Any, i: Any) -> Any:
        if type(obj) is Zone:
            obj = self.st.zones[obj.key]
        try:
            return obj[i]
        except (KeyError, IndexError, TypeError):
            if type(obj) is dict:
                raise self.fail(n, f"no entry for {show(i, self.rs)} in this map") from None
            if type(obj) is list:
                raise self.fail(n, f"index {show(i, self.rs)} is out of range (length {len(obj)})") from None
            raise self.fail(n, f"cannot index {type_name(obj)}") from None

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
            try:
                self.exec_block(proc.body, inner)
            except ReturnSig as r:
                return r.value
            return None
        raise self.fail(n, f"`{n.func}` is not a function or procedure")

    def iterate(self, v: Any, node: Any) -> list:
        t = type(v)
        if t is list:
            return v
        if t is Zone:
            return self.st.zones[v.key]
        if t is dict:
            return list(v)
        raise self.fail(node, f"cannot loop over {type_name(v)}")

    def _comp(self, n: A.Comp, scope: dict) -> list:
        items = self.iterate(self.eval(n.iter, scope), n.iter)
        old = scope.get(n.var, _MISSING)
        out = []
        ev = self.eval
        try:
            for x in list(items):
                scope[n.var] = x
                if n.cond is None or ev(n.cond, scope):
                    out.append(ev(n.expr, scope))
        finally:
            if old is _MISSING:
                scope.pop(n.var, None)
            else:
                scope[n.var] = old
        return out

    def _binop(self, n: A.BinOp, scope: dict) -> Any:
        return self.binop(n, self.eval(n.left, scope), self.eval(n.right, scope))

    def binop(self, n: A.BinOp, a: Any, b: Any) -> Any:
        op = n.op
        try:
            if op == "+":
                if type(a) is Zone or type(b) is Zone:
                    raise TypeError
                if type(a) is list and type(b) is not list:
                    return a + [b]
                return a + b
            if op == "-":
                if type(a) is list:
                    drop = b if type(b) is list else [b]
                    return [x for x in a if x not in drop]
                return a - b
            if op == "*":
                return a * b
            if op == "//":
                return a // b
            if op == "%":
                return a % b
        except ZeroDivisionError:
            raise self.fail(n, "division by zero") from None
        except TypeError:
            pass
        raise self.fail(n, f"cannot apply `{op}` to {type_name(a)} and {type_name(b)}")

    def _boolop(self, n: A.BoolOp, scope: dict) -> Any:
        a = self.eval(n.left, scope)
        if n.op == "and":
            return self.eval(n.right, scope) if a else a
        return a if a else self.eval(n.right, scope)

    def _compare(self, n: A.Compare, scope: dict) -> bool:
        return self.compare(n, self.eval(n.left, scope), self.eval(n.right, scope))

    def compare(self, n: A.Compare, a: Any, b: Any) -> bool:
        op = n.op
        if op == "==":
            return a == b and type(a) is type(b) or (a is b)
        if op == "!=":
            return not (a == b and type(a) is type(b) or (a is b))
        if op in ("in", "not in"):
            if type(b) is Zone:
                b = self.st.zones[b.key]
            try:
                r = a in b
            except TypeError:
                raise self.fail(n, f"cannot look for a value in {type_name(b)}") from None
            if r and type(a) in _NUMERIC and type(b) is not str:
                # Players, components, numbers and booleans are all ints to Python: membership is strict,
                # like `==` (a player is not the number of its seat).
                ta = type(a)
                r = any(x == a and type(x) is ta for x in b)
            return r if op == "in" else not r
        try:
            if op == "<":
                return a < b
            if op == "<=":
                return a <= b
            if op == ">":
                return a > b
            return a >= b
        except TypeError:
            raise self.fail(n, f"cannot compare {type_name(a)} with {type_name(b)}") from None

    # ------------------------------------------------------------ statements (direct)
    def exec(self, node: Any, scope: dict) -> None:
        st = self.st
        st.steps += 1
        if st.steps > MAX_STEPS:
            raise self.fail(node, "the game ran more than 2,000,000 statements: a loop that never ends?")
        if st.coverage is not None:
            nid = self.rs.node_ids.get(id(node))
            if nid is not None:
                st.coverage[nid] = st.coverage.get(nid, 0) + 1
        self._stmt[type(node)](node, scope)

    def exec_block(self, block: A.Block, scope: dict) -> None:
        ex = self.exec
        for s in block.body:
            ex(s, scope)

    def _assign(self, n: A.Assign, scope: dict) -> None:
        self.assign(n.target, self.eval(n.value, scope), scope)

    def _augassign(self, n: A.AugAssign, scope: dict) -> None:
        cur = self.eval(n.target, scope)
        d = self.eval(n.value, scope)
        if type(cur) is not int or type(d) is not int:
            if type(cur) is list and n.op == "+":
                self.assign(n.target, cur + (d if type(d) is list else [d]), scope)
                return
            raise self.fail(n, f"`{n.op}=` needs numbers, not {type_name(cur)} and {type_name(d)}")
        self.assign(n.target, cur + d if n.op == "+" else cur - d, scope)

    def assign(self, target: Any, value: Any, scope: dict) -> None:
        t = type(target)
        if t is A.Name:
            name = target.name
            if name in self.rs.game_counters and name not in scope:
                self.st.counters[name] = value
            else:
                scope[name] = value
            return
        if t is A.Attr:
            obj = self.eval(target.obj, scope)
            key = self.counter_key(obj, target.name, target)
            self.st.counters[key] = value
            return
        if t is A.Index:
            obj = self.eval(target.obj, scope)
            i = self.eval(target.index, scope)
            if type(obj) is dict:
                obj[i] = value
                return
            if type(obj) is list and type(i) is int and -len(obj) <= i < len(obj):
                obj[i] = value
                return
            raise self.fail(target, f"cannot set an entry of {type_name(obj)}")
        raise self.fail(target, "cannot assign to this")

    def counter_key(self, obj: Any, name: str, node: Any) -> str:
        if type(obj) is Player and name in self.rs.player_counters:
            return f"{int(obj)}.{name}"
        if type(obj) is Comp and name in self.rs.kinds[self.kind_of[obj]].counters:
            return f"#{int(obj)}.{name}"
        raise self.fail(node, f"`{name}` is not a counter of {type_name(obj)}")

    def _if(self, n: A.If, scope: dict) -> None:
        if self.eval(n.test, scope):
            self.exec_block(n.then, scope)
        elif n.orelse is not None:
            self.exec_block(n.orelse, scope)

    def _for(self, n: A.For, scope: dict) -> None:
        items = list(self.iterate(self.eval(n.iter, scope), n.iter))
        for x in items:
            scope[n.var] = x
            try:
                self.exec_block(n.body, scope)
            except BreakSig:
                break
            except ContinueSig:
                continue

    def _while(self, n: A.While, scope: dict) -> None:
        while self.eval(n.test, scope):
            try:
                self.exec_block(n.body, scope)
            except BreakSig:
                break
            except ContinueSig:
                continue
            self.st.steps += 1

    def _repeat(self, n: A.Repeat, scope: dict) -> None:
        count = self.eval(n.count, scope)
        if type(count) is not int:
            raise self.fail(n.count, f"`repeat` needs a number, not {type_name(count)}")
        for _ in range(count):
            try:
                self.exec_block(n.body, scope)
            except BreakSig:
                break
            except ContinueSig:
                continue

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
        self.exec_block(self.rs.phases[n.name], {})

    def handlers(self, event: str, target: Any, node: Any) -> list[tuple[Comp, A.Block]]:
        """The (component, handler) pairs that `trigger event on target` runs, in order."""
        if type(target) is Zone:
            target = self.st.zones[target.key]
        comps = target if type(target) is list else [target]
        out: list[tuple[Comp, A.Block]] = []
        for c in list(comps):
            if type(c) is not Comp:
                raise self.fail(node, f"`trigger` needs components, not {type_name(c)}")
            h = self.rs.components[c].on.get(event)
            if h is not None:
                out.append((c, h))
        return out

    def handler_scope(self, c: int) -> dict:
        return {"self": Comp(c), "owner": self.owner(c)}

    def _trigger(self, n: A.Trigger, scope: dict) -> None:
        for c, h in self.handlers(n.event, self.eval(n.target, scope), n):
            try:
                self.exec_block(h, self.handler_scope(c))
            except ReturnSig:
                pass


def type_name(v: Any) -> str:
    t = type(v)
    if t is bool:
        return "a boolean"
    if t is int:
        return "a number"
    if t is str:
        return "a string"
    if t is list:
        return "a list"
    if t is dict:
        return "a map"
    if t is Player:
        return "a player"
    if t is Comp:
        return "a component"
    if t is Zone:
        return "a zone"
    if v is None:
        return "none"
    return t.__name__
