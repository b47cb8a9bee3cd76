"""Which variables are certainly in the scope dict at each place generated code starts running.

Generated code for a stretch of a suspendable script, a menu or a label reads the frame's scope dict
`S` once, at entry. A name that every path to that place assigns can be read as `S[name]` and then
used as a plain Python local; any other name needs a check on each read (it may be missing, and then
the reference reads the global of that name or reports it undefined). This is the classic
definite-assignment analysis, over whole scripts, across the points where they wait for decisions.
"""

from __future__ import annotations

from typing import Any

from meeple.language import ast as A
from meeple.language.model import Ruleset

Key = Any  # (id(block), statement index) for a stretch of a block; id(node) for a menu or an expression


class Definite:
    """`at[key]`: the names certainly bound in the scope dict there (see the module docstring)."""

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self.at: dict[Key, frozenset[str]] = {}
        self._run()

    def _run(self) -> None:
        rs = self.rs
        for root in (rs.setup, rs.flow, rs.final, *rs.phases.values()):
            if root is not None:
                self.block(root, frozenset())
        for p in rs.procedures.values():
            self.block(p.body, frozenset(p.params))
        handler = frozenset({"self", "owner"})
        for c in rs.components:
            for b in c.on.values():
                self.block(b, handler)
            for opts in c.options.values():
                for o in opts:
                    self.option(o, handler)

    def _record(self, key: Key, names: frozenset[str]) -> None:
        # A node reached along several roads (a block shared by components) keeps what all roads bind.
        old = self.at.get(key)
        self.at[key] = names if old is None else old & names

    def block(self, b: A.Block, d: frozenset[str]) -> frozenset[str]:
        for i, s in enumerate(b.body):
            self._record((id(b), i), d)
            self._record(id(s), d)
            d = self.stmt(s, d)
        self._record((id(b), len(b.body)), d)
        return d

    def option(self, o: A.Option, d: frozenset[str]) -> None:
        self._record(id(o), d)  # the guard and label see the variables of the `for` parts too
        self.block(o.body, d | {f.var for f in o.fors})

    def stmt(self, s: Any, d: frozenset[str]) -> frozenset[str]:
        t = type(s)
        if t is A.Assign or t is A.AugAssign:
            name = s.target.name if type(s.target) is A.Name else None
            if name is not None and name not in self.rs.game_counters:
                return d | {name}
            return d
        if t is A.If:
            then = self.block(s.then, d)
            return then & self.block(s.orelse, d) if s.orelse is not None else d
        if t is A.For:
            self.block(s.body, d | {s.var})
            return d
        if t is A.While or t is A.Repeat:
            self.block(s.body, d)
            return d
        if t is A.Block:
            return self.block(s, d)
        if t is A.Choose:
            self.choose(s, d)
            return d
        if t is A.Simultaneous:
            self._record(id(s), d)
            self.choose(s.choose, d | {s.var})
            return d
        return d

    def choose(self, ch: A.Choose, d: frozenset[str]) -> None:
        self._record(id(ch), d)
        for item in ch.items:
            if type(item) is A.Option:
                self.option(item, d)
