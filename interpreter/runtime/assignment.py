"""Assignment in the reference evaluator: to a variable, a game counter, a counter of a player or
component, or an entry of a list or map (which copies the lists and maps on the way: they are values).
"""

from __future__ import annotations

from typing import Any

from meeple.language import ast as A
from meeple.runtime.values import ValueOps, type_name


class Assignment(ValueOps):
    """The assignment statements (mixed into evaluator.Evaluator, which has `eval`)."""

    def eval(self, node: Any, scope: dict) -> Any:
        raise NotImplementedError  # pragma: no cover - Evaluator.eval comes first in the evaluator's bases

    def _assign(self, n: A.Assign, scope: dict) -> None:
        self.assign(n.target, self.eval(n.value, scope), scope)

    def _augassign(self, n: A.AugAssign, scope: dict) -> None:
        cur = self.eval(n.target, scope)
        d = self.eval(n.value, scope)
        if type(cur) is not int or type(d) is not int:
            if type(cur) is list and n.op == "+":
                self.assign(n.target, self.concat(n, cur, d if type(d) is list else [d]), scope)
                return
            raise self.fail(n, f"`{n.op}=` needs numbers, not {type_name(cur)} and {type_name(d)}")
        self.assign(n.target, self.number(n, cur + d if n.op == "+" else cur - d), scope)

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
            self.set_entry(target, value, scope)
            return
        raise self.fail(target, "cannot assign to this")

    def set_entry(self, target: A.Index, value: Any, scope: dict) -> None:
        """`xs[i] = v`, `m[k][j] = v`. Lists and maps are values: every list or map on the way is copied
        with its entry changed, and the new outermost one is written to the variable or counter the path
        starts from. Another name that held the old one never sees the change, so nothing depends on
        two names sharing one list, which copies and saves could not keep. Each part is evaluated once,
        left to right (the same order as reading `m[k][j]`)."""
        path = []
        node: Any = target
        while type(node) is A.Index:
            path.append(node)
            node = node.obj
        path.reverse()
        if type(node) is A.Name:
            containers = [self.eval(node, scope)]
        elif type(node) is A.Attr:
            key = self.counter_key(self.eval(node.obj, scope), node.name, node)
            containers = [self.st.counters[key]]
        else:
            raise self.fail(target, "cannot assign to this")
        keys = []
        for depth, ix in enumerate(path):
            keys.append(self.eval(ix.index, scope))
            if depth < len(path) - 1:
                containers.append(self.index(ix, containers[-1], keys[-1]))
        new = value
        for ix, container, k in reversed(list(zip(path, containers, keys))):
            new = self.with_entry(ix, container, k, new)
        if type(node) is A.Name:
            self.assign(node, new, scope)
        else:
            self.st.counters[key] = new
