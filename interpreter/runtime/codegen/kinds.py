"""What generated code knows of an expression's value from the script alone, to leave out checks.

*Flat*: it can never be a list or a map.
A new list (a literal, a comprehension) is checked against the size and nesting limits when it holds
lists or maps (`ev.nested`, values.py), which looks at every item. When no item can be a list or a map,
that look finds nothing and can be left out. This module says so from the script alone, soundly: an
expression is *flat* only if every value it can evaluate to, on every path, is a number, a string, a
boolean, none, a player, a component or a zone (an error is no value). Anything it cannot tell is not
flat, so the check stays.
"""

from __future__ import annotations

from typing import Any

from meeple.language import ast as A
from meeple.language.builtins import SIGNATURES
from meeple.language.model import Ruleset
from meeple.language.walk import walk
from meeple.runtime.library import REGISTRY
from meeple.runtime.limits import MAX_INT

# Built-ins whose result is never a list or a map, whatever their arguments: those whose signature (the
# one the checker reads) returns a number, a boolean, a string, a player, a component, a zone or none.
# `first`, `min` and `max` return `any`: flat only of a list of flat items (below).
_FLAT_CALLS = frozenset(name for name, sig in SIGNATURES.items()
                        if sig.returns in ("num", "bool", "str", "player", "comp", "zone", "none"))
_SCALARS = (int, str, bool, type(None))
# Built-ins whose result is made of the items of their first argument (queries.py), or of a map's keys.
_SUBLISTS = frozenset({"distinct", "list", "sorted", "reversed", "slice", "flatten"})
# Built-ins that always make a new list (queries.py).
_NEW_LISTS = _SUBLISTS | {"between"}
# Built-ins whose list holds only numbers, players or components (queries.py, actions.py).
_FLAT_ITEMS = frozenset({"between", "turn_order", "others", "components", "draw"})
# Built-ins that return an item of their first argument (or none).
_AN_ITEM = frozenset({"first", "last", "random_pick"})
_MOVERS = (A.Trigger, A.Phase, A.Choose, A.Simultaneous)
# What `x.name` reads when nothing else of that name is there (values.attribute): no numbers but these
_FIXED = frozenset({"name", "kind", "id", "owner", "zone", "facedown"})


class Flatness:
    """Per ruleset: which attribute names only ever read flat values."""

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self._attrs: dict[str, bool] = {}
        self._procs: dict[str, bool] = {}
        self._items_procs: dict[str, bool] = {}
        self._still: dict[str, bool] = {}
        # Variables flat (and whose items are flat) wherever they are read (`variables`); empty until then
        self.flat_names: frozenset[str] = frozenset()
        self.items_names: frozenset[str] = frozenset()
        self.flat_attrs: frozenset[str] = frozenset()  # ... and counters of players and components
        self.items_attrs: frozenset[str] = frozenset()
        self.int_names: frozenset[str] = frozenset()  # ... numbers within the limit
        self.int_attrs: frozenset[str] = frozenset()

    def forget(self) -> None:
        """Drop what was worked out of procedures (flatvars.py changes what variables are known)."""
        self._procs.clear()
        self._items_procs.clear()

    def attr(self, name: str) -> bool:
        """`x.name` is flat unless a component prints a list or map under that name, or it is a counter
        that may hold one (flatvars.py: from its initial values and every assignment to `x.name`)."""
        got = self._attrs.get(name)
        if got is None:
            got = self._attrs[name] = not any(type(c.attrs.get(name)) in (list, dict) for c in self.rs.components)
        return got and (name in self.flat_attrs or not self._counter(name))

    def attr_items(self, name: str) -> bool:
        """Every item of `x.name` is flat: a printed value is flat or a list of flat values, and a counter
        of that name is known to hold such (flatvars.py); a slot is a zone."""
        if self._counter(name) and name not in self.items_attrs:
            return False
        return all(type(v) in _SCALARS or (type(v) is list and all(type(y) in _SCALARS for y in v))
                   for v in (c.attrs.get(name) for c in self.rs.components))

    def attr_int(self, name: str) -> bool:
        """`x.name` is a number within the limit wherever it reads a value: every component that prints
        it prints such a number, a counter of that name only ever holds one (flatvars.py), and no slot,
        zone or fixed property (values.attribute) has that name."""
        rs = self.rs
        if name in _FIXED or name in rs.player_zones or any(name in k.slots for k in rs.kinds.values()):
            return False
        if self._counter(name) and name not in self.int_attrs:
            return False
        return all(type(v) is int and -MAX_INT <= v <= MAX_INT
                   for v in (c.attrs[name] for c in rs.components if name in c.attrs))

    def _counter(self, name: str) -> bool:
        rs = self.rs
        return name in rs.player_counters or any(name in k.counters for k in rs.kinds.values())

    def flat(self, n: Any, flat_vars: set[str], shadowed: Any) -> bool:
        """Whether `n` never evaluates to a list or a map. `flat_vars`: comprehension variables known to
        hold flat values (those looping over a flat value: a zone's components, a map's keys);
        `shadowed(name)`: whether a variable of that name may hide the global (then nothing is known)."""
        t = type(n)
        if t in (A.Num, A.Str, A.Interp, A.Compare, A.Not, A.Neg):
            return True
        if t is A.Const:
            return type(n.value) in _SCALARS
        if t is A.Name:
            if n.name in flat_vars or n.name in self.flat_names:
                return True
            if shadowed(n.name):
                return False
            rs, x = self.rs, n.name  # the globals in the reader's order (ExprEmitter.global_name)
            if x in rs.constants:
                return type(rs.constants[x]) in _SCALARS
            return x not in rs.game_counters and (x in rs.game_zones or x == "nplayers")
        if t is A.Attr:
            return self.attr(n.name)
        if t is A.BinOp:
            if n.op in ("//", "%"):
                return True  # numbers (or a string formatted by `%`), else an error
            return self.flat(n.left, flat_vars, shadowed) and self.flat(n.right, flat_vars, shadowed)
        if t is A.BoolOp:  # its value is one of its operands
            return self.flat(n.left, flat_vars, shadowed) and self.flat(n.right, flat_vars, shadowed)
        if t is A.CondExpr:
            return self.flat(n.then, flat_vars, shadowed) and self.flat(n.orelse, flat_vars, shadowed)
        if t is A.Call and n.func in self.rs.procedures and n.func not in REGISTRY:
            return self.returns_flat(n.func)
        if t is A.Call and n.func not in self.rs.procedures:
            if n.func in _FLAT_CALLS:
                return True
            if n.func in _AN_ITEM and len(n.args) == 1:  # an item of the list, zone or map, or none
                return self.items_flat(n.args[0], flat_vars, shadowed)
            if n.func in ("min", "max") and n.args:  # an item of the list, zone or map, or the default
                return (self.items_flat(n.args[0], flat_vars, shadowed)
                        and all(self.flat(x, flat_vars, shadowed) for x in n.args[1:]))
        return False

    def returns_flat(self, name: str) -> bool:
        """Whether the procedure `name` only ever returns flat values: every `return` in it returns a
        flat value or none (as does the end of its body), its parameters and local variables being
        unknown unless flatvars.py knows them (a recursive call, while this is worked out, is not)."""
        return self._returns(name, self._procs, self.flat)

    def returns_items(self, name: str) -> bool:
        """Whether the procedure `name` only ever returns flat values or lists of flat items."""
        return self._returns(name, self._items_procs, self.items_flat)

    def _returns(self, name: str, cache: dict[str, bool], test: Any) -> bool:
        got = cache.get(name)
        if got is None:
            cache[name] = False
            proc = self.rs.procedures[name]
            names, values = set(proc.params), []
            for x in walk(proc.body):
                t = type(x)
                if t in (A.Assign, A.AugAssign) and type(x.target) is A.Name:
                    names.add(x.target.name)
                var = getattr(x, "var", None)  # what a loop, a comprehension or an option binds
                if type(var) is str:
                    names.add(var)
                if t is A.Return and x.value is not None:
                    values.append(x.value)
            got = cache[name] = all(test(v, set(), lambda x: x in names) for v in values)
        return got

    def items_flat(self, n: Any, flat_vars: set[str], shadowed: Any) -> bool:
        """Whether every item of `n` (what looping over it gives) is flat: the components of a zone,
        the items of a list made of flat values, or of a part of such a list."""
        if self.flat(n, flat_vars, shadowed):  # a zone (its components), or an error: no items
            return True
        t = type(n)
        if t is A.ListLit:
            return all(self.flat(x, flat_vars, shadowed) for x in n.items)
        if t is A.Name and n.name in self.items_names:
            return True
        if t is A.Attr:
            return self.attr_items(n.name)
        if t is A.Name and n.name not in flat_vars and not shadowed(n.name):
            rs = self.rs  # the players of the game (values.global_value's order)
            if n.name == "players" and n.name not in rs.constants and n.name not in rs.game_counters:
                return True
            v = self.rs.constants.get(n.name)  # a constant list (the reader's first global)
            return type(v) is list and all(type(x) in _SCALARS for x in v)
        if t is A.Comp:
            inner = set(flat_vars) - {n.var}
            if self.items_flat(n.iter, flat_vars, shadowed):
                inner.add(n.var)
            return self.flat(n.expr, inner, lambda x: x == n.var or shadowed(x))
        if t is A.Call and n.func in _FLAT_ITEMS and n.func not in self.rs.procedures:
            return True
        if t is A.Call and n.func in self.rs.procedures and n.func not in REGISTRY:
            return self.returns_items(n.func)
        if t is A.Call and n.func in _SUBLISTS and n.args and n.func not in self.rs.procedures:
            # the items of its first argument; `flatten`: the items of each of them, and those of a
            # flat one are a zone's components
            return self.items_flat(n.args[0], flat_vars, shadowed)
        if t is A.BinOp and n.op == "+":  # a list joined with a list of flat items, or one flat item
            right = n.right
            return (self.items_flat(n.left, flat_vars, shadowed)
                    and (self.flat(right, flat_vars, shadowed) or self.items_flat(right, flat_vars, shadowed)))
        return False

    def integer(self, n: Any, shadowed: Any) -> bool:
        """Whether `n` certainly evaluates to a number within the engine's limit (±MAX_INT), never a
        boolean or anything else, when it does not fail: a number literal, a count or a sum (both
        checked by their built-ins), and arithmetic on such numbers, whose results are checked."""
        t = type(n)
        if t is A.Num:
            return type(n.value) is int
        if t is A.Name:  # a constant number (the reader folds it into a literal), the player count, or
            rs = self.rs  # a variable or game counter only ever given such numbers (flatvars.py)
            if n.name in self.int_names:
                return True
            if n.name == "nplayers" and not shadowed(n.name) and n.name not in rs.constants:
                return n.name not in rs.game_counters and n.name not in rs.game_zones
            v = self.rs.constants.get(n.name)
            return not shadowed(n.name) and type(v) is int and -MAX_INT <= v <= MAX_INT
        if t is A.Call:  # `index_of`: an index into a list or -1
            return (n.func in ("count", "sum", "index_of") and len(n.args) == (2 if n.func == "index_of" else 1)
                    and n.func not in self.rs.procedures)
        if t is A.BinOp:
            return (n.op in ("+", "-", "*", "//", "%") and self.integer(n.left, shadowed)
                    and self.integer(n.right, shadowed))
        if t is A.Attr:
            return self.attr_int(n.name)
        if t is A.Neg:
            return self.integer(n.operand, shadowed)
        if t is A.CondExpr:
            return self.integer(n.then, shadowed) and self.integer(n.orelse, shadowed)
        return False

    def new_list(self, n: Any) -> bool:
        """Whether `n` certainly makes a new list, which nothing else holds (when it does not fail): a
        list literal, a comprehension, a list built-in, or such lists joined."""
        t = type(n)
        if t is A.ListLit or t is A.Comp:
            return True
        if t is A.Call:
            return n.func in _NEW_LISTS and n.func not in self.rs.procedures
        if t is A.BinOp and n.op == "+":
            return self.new_list(n.left) and self.new_list(n.right)
        return False

    def still(self, n: Any) -> bool:
        """Whether running `n` (an expression or a block) can never move a component (nor change a zone
        any other way): it calls only built-ins that change nothing (`pure`) and procedures that are
        still themselves, triggers no effect, runs no phase and waits for no decision. A comprehension,
        a `for` or a menu's option loop that is still may loop over a zone's own list, uncopied."""
        for x in walk(n):
            t = type(x)
            if t is A.Call and not (REGISTRY[x.func].pure if x.func in REGISTRY
                                    else x.func in self.rs.procedures and self._still_proc(x.func)):
                return False
            if t in _MOVERS:  # handlers and phases run any script; a decision waits for what follows it
                return False
        return True

    def _still_proc(self, name: str) -> bool:
        got = self._still.get(name)
        if got is None:
            self._still[name] = False  # a recursive call, while this is worked out, is not known still
            got = self._still[name] = self.still(self.rs.procedures[name].body)
        return got
