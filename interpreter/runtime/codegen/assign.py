"""Assignments to Python source: to a variable (a Python local, also written to the frame's scope dict
in "dict" functions; see stmts.py), to a game counter of that name, to a counter of a player or a
component (`p.coins = ...`: its key looked up inline), and to an entry of a list or map (copied along
the path, as the reference does). `+=` and `-=` inline their int case, and `+=` of a flat value to a
list of flat items (kinds.py, flatvars.py) its append."""

from __future__ import annotations

from typing import Any

from meeple.language import ast as A
from meeple.runtime.codegen.exprs import ExprEmitter
from meeple.runtime.codegen.fn import Fn


class AssignEmitter(ExprEmitter):
    def assign_name(self, x: str, value: str, f: Fn, dynamic: bool = False) -> None:
        """`x = value`: a local, or the game counter `x` when no local of that name exists."""
        if x in self.rs.game_counters:
            # The reference writes the counter unless the scope holds `x` (a loop variable or parameter).
            if f.mode == "dict":
                f.hoist.add(x)
                t = f.temp()
                f.w(f"{t} = {value}")
                f.w(f"if {x!r} in S:")
                f.w(f"    S[{x!r}] = L_{x} = {t}")
                f.w("else:")
                f.w(f"    CT[{x!r}] = {t}")
            elif x in f.locals:
                t = f.temp()
                f.w(f"{t} = {value}")
                f.w(f"if L_{x} is not U:")
                f.w(f"    L_{x} = {t}")
                f.w("else:")
                f.w(f"    CT[{x!r}] = {t}")
            else:
                f.w(f"CT[{x!r}] = {value}")
            return
        f.locals.add(x)
        f.w(f"S[{x!r}] = L_{x} = {value}" if f.mode == "dict" else f"L_{x} = {value}")
        f.definite.add(x)

    def assign(self, target: Any, value: str, f: Fn) -> None:
        """Assign an already evaluated value (a variable or literal in `value`) to a target."""
        t = type(target)
        if t is A.Name:
            if target.name in f.comp:  # an option variable: the reference writes the scope
                f.w(f"{f.comp[target.name]} = {value}")
                return
            self.assign_name(target.name, value, f)
        elif t is A.Attr:
            f.w(f"CT[{self.counter_key(target, f)}] = {value}")
        elif t is A.Index:
            self.set_entry(target, value, f)
        else:
            f.w(f"raise h_fail(ev, {self.node(target)}, 'cannot assign to this')")

    def counter_key(self, target: A.Attr, f: Fn) -> str:
        """The counter key `obj.name = ...` writes: of a variable, looked up inline in the per-seat or
        per-component key tables where the name is a player's or a component's counter (the likely
        cases, as reads do), else from the per-name keyer (support.counter_keyer), which explains errors."""
        obj, name = self.expr(target.obj, f), target.name
        slow = f"{self.shared('CK', name)}(ev, {obj}, {self.node(target)})"
        if not obj.isidentifier() or obj in ("True", "False", "None"):
            return slow
        rs, parts = self.rs, []
        if name in rs.player_counters:
            parts.append(f"{self.shared('PC', name)}[{obj}] if type({obj}) is Player")
        if any(name in k.counters for k in rs.kinds.values()):
            t = self.shared("CC", name)
            parts.append(f"{t}[{obj}] if type({obj}) is Comp and {t}[{obj}] is not U")
        return "(" + " else ".join([*parts, slow]) + ")" if parts else slow

    def set_entry(self, target: A.Index, value: str, f: Fn) -> None:
        """`m[k][j] = v` as the reference does it (Evaluator.set_entry): copies along the path, each part
        evaluated once, left to right, the new outermost list or map written to the variable or counter."""
        path: list[A.Index] = []
        node: Any = target
        while type(node) is A.Index:
            path.append(node)
            node = node.obj
        path.reverse()
        base, key = f.temp(), f.temp()
        if type(node) is A.Name:
            f.w(f"{base} = {self.expr(node, f)}")
        elif type(node) is A.Attr:
            f.w(f"{key} = {self.shared('CK', node.name)}(ev, {self.expr(node.obj, f)}, {self.node(node)})")
            f.w(f"{base} = CT[{key}]")
        else:
            f.w(f"raise h_fail(ev, {self.node(target)}, 'cannot assign to this')")
            return
        containers, keys = [base], []
        for depth, ix in enumerate(path):
            keys.append(f.temp())
            f.w(f"{keys[-1]} = {self.expr(ix.index, f)}")
            if depth < len(path) - 1:
                containers.append(f.temp())
                f.w(f"{containers[-1]} = h_index(ev, {self.node(ix)}, {containers[-2]}, {keys[-1]})")
        new = value
        for ix, container, k in reversed(list(zip(path, containers, keys))):
            t = f.temp()
            f.w(f"{t} = ev.with_entry({self.node(ix)}, {container}, {k}, {new})")
            new = t
        if type(node) is A.Name:
            self.assign(node, new, f)
        else:
            f.w(f"CT[{key}] = {new}")

    def _s_Assign(self, s: A.Assign, f: Fn) -> None:
        value = self.lead(s.value, f)
        if type(s.target) is A.Name:
            self.assign(s.target, value, f)
            return
        t = f.temp()
        f.w(f"{t} = {value}")  # the value first, then the target's parts, as in the reference
        self.assign(s.target, t, f)

    def _s_AugAssign(self, s: A.AugAssign, f: Fn) -> None:
        cur, d = f.temp(), f.temp()
        f.w(f"{cur} = {self.expr(s.target, f)}")
        f.w(f"{d} = {self.lead(s.value, f)}")  # (the target was read on the line before)
        plus = s.op == "+"
        # Numbers inline (the common case); lists, errors and numbers past the limit go to h_aug.
        r = f"{cur} {s.op} {d}"
        slow = f"h_aug(ev, {self.node(s)}, {plus}, {cur}, {d})"
        if plus and self.items_flat(s.target, f) and self.is_flat(s.value, f):
            # A list of flat items with one flat item appended (values.concat: only the size can fail).
            slow = f"{cur} + [{d}] if type({cur}) is list and len({cur}) < MAXS else {slow}"
        ints = "" if self.known_int(s.target, f) and self.known_int(s.value, f) else \
            f"type({cur}) is int and type({d}) is int and "  # else both certainly numbers (flatvars.py)
        f.w(f"{cur} = {r} if {ints}-MAXI <= {r} <= MAXI else {slow}")
        self.assign(s.target, cur, f)
