"""Lists to Python source: list literals, comprehensions and lists joined, with what kinds.py knows of
their values (a list of values that are never lists or maps needs no nesting check). A comprehension
that its statement evaluates first (Fn.lead) runs as a loop of statements written before it."""

from __future__ import annotations

from typing import Any

from meeple.language import ast as A
from meeple.runtime.codegen.fn import Fn, operand, snapshot
from meeple.runtime.codegen.operators import OperatorEmitter


class ListEmitter(OperatorEmitter):
    """List emission; the builder (module.py) supplies `flatness` and `maybe_local`."""

    flatness: Any  # kinds.Flatness
    maybe_local: set[str]

    def _e_BinOp(self, n: A.BinOp, f: Fn) -> str:
        if n.op == "+" and self.flatness.new_list(n.left) and self.flatness.new_list(n.right):
            # Two lists: support.add's list case. Lists of flat items join into one of flat items,
            # which only the size limit can refuse (values.concat).
            a, b = self.operands((n.left, n.right), f)
            flat = self.items_flat(n.left, f) and self.items_flat(n.right, f)
            ops = operand(f"{a} + {b}", f) if flat else None
            if ops is not None:
                return f"({ops[1]} if len({ops[0]}) <= MAXS else ev.concat({self.node(n)}, {ops[1]}, []))"
            return f"ev.concat({self.node(n)}, {a}, {b})"
        if (n.op == "+" and self.flatness.new_list(n.right) and self.items_flat(n.left, f)
                and self.items_flat(n.right, f) and not f.in_iter):
            # A list of flat items (a variable, a counter: kinds.py, flatvars.py) joined with a new list
            # of flat items: only the size can fail. Anything but a list on the left goes to h_add.
            a, b = self.operands((n.left, n.right), f)
            oa, ob = operand(a, f), operand(b, f)
            if oa is not None and ob is not None:
                return (f"({oa[1]} + {ob[1]} if (type({oa[0]}) is list) & (len({ob[0]}) <= MAXS) "
                        f"and len({oa[1]}) + len({ob[1]}) <= MAXS else h_add(ev, {self.node(n)}, {oa[1]}, {ob[1]}))")
        return OperatorEmitter._e_BinOp(self, n, f)

    def _e_ListLit(self, n: A.ListLit, f: Fn) -> str:
        items = "[" + ", ".join(self.operands(n.items, f)) + "]"
        if all(self.is_flat(x, f) for x in n.items):
            return items  # nothing inside can be a list or a map: within the limits by construction
        return f"ev.nested({self.node(n)}, {items})"

    def known_int(self, n: Any, f: Fn) -> bool:
        return self.flatness.integer(n, self.shadower(f))

    def is_flat(self, n: Any, f: Fn) -> bool:
        """`n` never evaluates to a list or a map here (kinds.py)."""
        return self.flatness.flat(n, {x for x, v in f.comp.items() if v in f.flat}, self.shadower(f))

    def items_flat(self, n: Any, f: Fn) -> bool:
        """Looping over `n` gives values that are never lists or maps (kinds.py)."""
        return self.flatness.items_flat(n, {x for x, v in f.comp.items() if v in f.flat}, self.shadower(f))

    def still(self, n: A.Comp) -> bool:
        return self.flatness.still(n)

    def shadower(self, f: Fn) -> Any:
        """Whether a variable of this name may hide the global of that name here (_e_Name)."""
        def shadowed(x: str) -> bool:
            return (x in f.comp or x in f.locals or x in f.definite
                    or (f.mode == "dict" and x in self.maybe_local))
        return shadowed

    def _e_Comp(self, n: A.Comp, f: Fn) -> str:
        f.in_iter += 1
        try:
            src = self.expr(n.iter, f)
        finally:
            f.in_iter -= 1
        f.tmp += 1
        var = f"C{f.tmp}_{n.var}"
        if self.items_flat(n.iter, f):  # looping over a zone's components, a list of flat values...
            f.flat.add(var)
        saved = f.comp.get(n.var)
        f.comp[n.var] = var
        try:
            body = self.expr(n.expr, f)
            cond = f" if {self.expr(n.cond, f)}" if n.cond is not None else ""
            flat = self.is_flat(n.expr, f)
        finally:
            if saved is None:
                f.comp.pop(n.var)
            else:
                f.comp[n.var] = saved
        loop = "h_still" if self.still(n) else "h_loop"
        items = f"[{body} for {var} in {loop}(ev, {src}, {self.node(n.iter)}, {self.node(n)}){cond}]"
        return items if flat else f"ev.nested({self.node(n)}, {items})"

    def test_open(self, n: Any, f: Fn) -> None:
        """`if <n>:` with no `else`, the block under it left open (f.depth). A test `a and b` is `if a:`
        then `if b:` under it: the same truth and short circuit, and `b` is first in its own statement,
        so that a comprehension in it runs as a loop (`when c in held and not any(...)`)."""
        if type(n) is A.BoolOp and n.op == "and":
            self.test_open(n.left, f)
            self.test_open(n.right, f)
            return
        f.w(f"if {self.lead(n, f)}:")
        f.depth += 1

    def comp_loop(self, n: A.Comp, f: Fn) -> str:
        """A comprehension that is the first thing its statement evaluates, as statements written before
        it: a Python loop, without the comprehension's function and support.loop's call (Python 3.11
        makes a function of each comprehension). The same snapshot, step count and checks as `_e_Comp`;
        the statement then reads the list from a temporary."""
        src = self.lead(n.iter, f)  # what it loops over is evaluated first: it may be one too
        it, out, at = f.temp(), f.temp(), self.node(n.iter)
        snapshot(it, src, at, f, fresh=self.flatness.new_list(n.iter), still=self.still(n))
        f.w(f"st.steps += len({it})")
        f.w("if st.steps > ev.limit:")
        f.w(f"    raise h_steps(ev, {self.node(n)})")
        f.tmp += 1
        var = f"C{f.tmp}_{n.var}"
        if self.items_flat(n.iter, f):
            f.flat.add(var)
        saved = f.comp.get(n.var)
        f.comp[n.var] = var
        f.w(f"{out} = []")
        f.w(f"for {var} in {it}:")
        depth = f.depth
        f.depth += 1
        try:
            # The test, then the item, each the first thing of its own statement in the loop: a
            # comprehension first in either runs as a loop too, at its place.
            if n.cond is not None:
                self.test_open(n.cond, f)
            f.w(f"{out}.append({self.lead(n.expr, f)})")
            flat = self.is_flat(n.expr, f)
        finally:
            f.depth = depth
            if saved is None:
                f.comp.pop(n.var)
            else:
                f.comp[n.var] = saved
        if not flat:
            f.w(f"{out} = ev.nested({self.node(n)}, {out})")
        return out
