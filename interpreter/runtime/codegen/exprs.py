"""Expressions to Python source: each AST expression becomes one Python expression string.

Generated code runs in a function with `ev` (the evaluator), `st` (the state) and `CT` (its counters)
in hand. Script variables are Python locals `L_<name>`; a read that may come before any assignment
falls back to the global of that name (a constant, counter, zone...), exactly as the reference reads
the scope first and the globals after. Constants are folded into literals; `p.coins`, `c.value` call a
reader made once per attribute name; operators (operators.py) inline the int case and call
support.py for the rest.
"""

from __future__ import annotations

import re
from typing import Any

from meeple.language import ast as A
from meeple.runtime.codegen.fn import Fn, inline_operand, operand, zone_key
from meeple.runtime.codegen.lists import ListEmitter
from meeple.runtime.codegen.support import U
from meeple.runtime.codegen.tables import attr_table

_SCALARS = (int, str, bool, type(None))
# Built-ins whose argument is a list literal or comprehension: the same as Python's built-in on it.
_ON_LISTS = {"count": "len", "any": "any", "all": "all"}
# Built-ins with a fast path for lists and zones in support.py (the rest of the cases go to the built-in).
_FAST = {"count": "h_count", "first": "h_first", "list": "h_list", "player": "h_player", "sum": "h_sum",
         "min": "h_min", "max": "h_max"}
_SEAT = re.compile(r"PLAYERS\[\d+\]")


class ExprEmitter(ListEmitter):
    """Expression emission; the module builder (module.py) supplies names for shared objects."""

    rs: Any
    prims: Any
    maybe_local: set[str]
    full_tables: dict[str, bool]  # attribute tables without a U entry (some)

    def shared(self, prefix: str, name: str) -> str:  # pragma: no cover - provided by the builder
        raise NotImplementedError

    # ------------------------------------------------------------ leaves
    def _e_Num(self, n: A.Num, f: Fn) -> str:
        return repr(n.value)

    def _e_Str(self, n: A.Str, f: Fn) -> str:
        return repr(n.value)

    def _e_Const(self, n: A.Const, f: Fn) -> str:
        if type(n.value) in _SCALARS:
            return repr(n.value)
        return f"{self.node(n)}.value"

    def _e_Name(self, n: A.Name, f: Fn) -> str:
        x = n.name
        if x in f.comp:
            return f.comp[x]
        if x in f.locals or x in f.definite or (f.mode == "dict" and x in self.maybe_local):
            if x in f.definite:
                if x in f.entry:
                    f.need.add(x)
                return f"L_{x}"
            if f.mode == "dict":
                f.hoist.add(x)
            return f"(L_{x} if L_{x} is not U else {self.global_name(n)})"
        return self.global_name(n)

    def global_name(self, n: A.Name) -> str:
        rs, x = self.rs, n.name
        if x in rs.constants:
            v = rs.constants[x]
            return repr(v) if type(v) in _SCALARS else self.shared("K", x)
        if x in rs.game_counters:
            return f"CT[{x!r}]"
        if x in rs.game_zones:
            return self.shared("ZN", x)
        if x == "players":
            return "PLAYERS[:st.nplayers]"
        if x == "nplayers":
            return "st.nplayers"
        if x in rs.items and len(rs.items[x]) == 1:
            return f"CP[{rs.items[x][0]}]"
        return f"ev.global_value({x!r}, {self.node(n)})"  # raises the located "not defined"

    # ------------------------------------------------------------ composite
    def _e_Interp(self, n: A.Interp, f: Fn, holes: list[str] | None = None) -> str:
        """The text; `holes`: the holes' values, already evaluated into these names (a quiet log line)."""
        if all(type(p) is str for p in n.parts):
            return repr("".join(n.parts))  # type: ignore[arg-type]
        parts, k = [], 0
        for p in n.parts:
            if type(p) is str:
                parts.append(repr(p))
                continue
            if holes is None:
                code = self.expr(p, f)
            else:
                code, k = holes[k], k + 1
            ops = operand(code, f)
            # a hole that holds a string (a name) is itself, without a call to the shower
            parts.append(f"SH({code})" if ops is None else f"({ops[1]} if type({ops[0]}) is str else SH({ops[1]}))")
        ops = operand(" + ".join(parts), f)
        if ops is None:
            return f"ev.text({self.node(n)}, " + " + ".join(parts) + ")"
        # ev.text's check inlined: a text within the size limit is itself
        return f"({ops[1]} if len({ops[0]}) <= MAXS else ev.text({self.node(n)}, {ops[1]}))"

    def _e_Attr(self, n: A.Attr, f: Fn) -> str:
        code, name = self.expr(n.obj, f), n.name
        if _SEAT.fullmatch(code):  # `player(k)` of a seat every game has (_e_Call): certainly a player
            rs = self.rs
            if name in rs.player_counters:
                return f"CT[{self.shared('PC', name)}[{code}]]"
            if name in rs.player_zones:
                return f"{self.shared('PZ', name)}[{code}]"
        # Read the likely cases inline from tables built per name (support.attr_table), in the reader's
        # order (a component's attribute, counter, slot; a player's counter, zone). `obj` stands for the
        # object in them, until we know whether there are any.
        obj = "\0"
        rs, parts = self.rs, []
        comp_fixed = name in ("name", "kind", "id") and not any(name in k.counters or name in k.slots
                                                                 for k in rs.kinds.values())
        if comp_fixed or any(name in c.attrs for c in rs.components):
            parts.append(self.comp_entry(self.shared("CA", name), obj, "{}", f))
        elif any(name in k.counters for k in rs.kinds.values()):
            parts.append(self.comp_entry(self.shared("CC", name), obj, "CT[{}]", f))
        elif any(name in k.slots for k in rs.kinds.values()):
            parts.append(self.comp_entry(self.shared("CZ", name), obj, "{}", f))
        elif name == "facedown":  # a fixed property of every component (tables.attr_reader)
            parts.append(f"{obj} in st.facedown if type({obj}) is Comp")
        elif name == "owner":
            parts.append(f"ev.owner({obj}) if type({obj}) is Comp")
        if name in rs.player_counters:
            parts.append(f"CT[{self.shared('PC', name)}[{obj}]] if type({obj}) is Player")
        elif name in rs.player_zones:
            parts.append(f"{self.shared('PZ', name)}[{obj}] if type({obj}) is Player")
        elif name in ("seat", "number", "name"):
            parts.append(f"{self.shared('PF', name)}[{obj}] if type({obj}) is Player")
        ops = operand(code, f) if parts and code not in ("True", "False", "None") else None
        if ops is None:
            return f"{self.shared('AT', name)}(ev, {code}, {self.node(n)})"
        # The object is evaluated once, in the first test (the first thing the expression evaluates).
        first, later = ops
        parts[0] = parts[0].replace(f"type({obj})", f"type({first})", 1)
        parts.append(f"{self.shared('AT', name)}(ev, {obj}, {self.node(n)})")
        return "(" + " else ".join(parts).replace(obj, later) + ")"

    def comp_entry(self, table: str, obj: str, use: str, f: Fn) -> str:
        """The read of a component's entry in a table (CA/CC/CZ), `use` applied to the entry, when the
        object is a component and its entry holds something (unless all do): one lookup where a
        temporary may be written."""
        prefix, name = table.split("_", 1)
        full = self.full_tables.get(table)
        if full is None:
            full = self.full_tables[table] = U not in attr_table(self.rs, prefix, name)
        if full:
            return f"{use.format(f'{table}[{obj}]')} if type({obj}) is Comp"
        if f.in_iter:
            return f"{use.format(f'{table}[{obj}]')} if type({obj}) is Comp and {table}[{obj}] is not U"
        v = f.temp()
        return f"{use.format(v)} if type({obj}) is Comp and ({v} := {table}[{obj}]) is not U"

    def _e_Index(self, n: A.Index, f: Fn) -> str:
        obj, ix = self.expr(n.obj, f), self.expr(n.index, f)
        o, i = operand(obj, f), operand(ix, f)
        if o is None or i is None:
            return f"h_index(ev, {self.node(n)}, {obj}, {ix})"
        # support.index's list case inline (both operands evaluated first, as the helper's arguments)
        return (f"({o[1]}[{i[1]}] if (type({o[0]}) is list) & (type({i[0]}) is int) and -len({o[1]}) <= {i[1]} "
                f"< len({o[1]}) else h_index(ev, {self.node(n)}, {o[1]}, {i[1]}))")

    def _e_MapLit(self, n: A.MapLit, f: Fn) -> str:
        pairs = ", ".join(f"({self.expr(k, f)}, {self.expr(v, f)})" for k, v in n.pairs)
        return f"ev.make_map({self.node(n)}, [{pairs}])"

    def _e_Call(self, n: A.Call, f: Fn) -> str:
        rs = self.rs
        if n.func in self.prims:
            prim = self.prims[n.func]
            if prim.lazy:
                return f"ev.call({self.node(n)}, {self.scope_dict(f)})"
            lits: list[Any] = [a.value for a in n.args if type(a) is A.Num]
            if n.func == "between" and len(lits) == len(n.args) == 2 and lits[1] - lits[0] <= 64:
                return repr(list(range(lits[0], lits[1] + 1)))  # a fresh list each time, as the built-in's
            a0: Any = n.args[0] if n.args else None
            if (n.func in ("min", "max") and len(n.args) == 1 and type(a0) is A.ListLit and len(a0.items) == 2
                    and not f.in_iter):
                return self.extreme2(n, a0, f)
            args = self.operands(n.args, f)
            if len(args) == 1:
                if n.func in _ON_LISTS and type(n.args[0]) in (A.Comp, A.ListLit):
                    return f"{_ON_LISTS[n.func]}({args[0]})"  # certainly a list: Python's own
                if n.func == "player" and type(a0) is A.Num and type(a0.value) is int:
                    if 0 <= a0.value < rs.min_players:  # a seat every game has: the modulo changes nothing
                        return f"PLAYERS[{a0.value}]"
                    return f"PLAYERS[{a0.value} % st.nplayers]"  # a seat number: h_player's int case
                if n.func == "first" and type(a0) in (A.Comp, A.ListLit) and not f.in_iter:
                    z = f.temp()  # certainly a list: its first item, or none
                    return f"({z}[0] if ({z} := {args[0]}) else None)"
                zone = zone_key(args[0])  # a game zone by its name: certainly a zone
                if zone is not None and n.func in ("count", "first"):
                    if n.func == "count":
                        return f"len(st.zones[{zone}])"
                    if not f.in_iter:
                        z = f.temp()
                        return f"({z}[0] if ({z} := st.zones[{zone}]) else None)"
                if n.func == "count" and (ops := inline_operand(args[0], f)) is not None:
                    # support.count's zone and list cases inline
                    k = f.temp()
                    return (f"(len(st.zones[{ops[1]}.key]) if ({k} := type({ops[0]})) is Zone else len({ops[1]}) "
                            f"if {k} is list else h_count(ev, {self.node(n)}, {ops[1]}, {self.shared('R', n.func)}))")
                if n.func == "first" and (ops := inline_operand(args[0], f)) is not None:
                    # support.first's zone and list cases inline (a hand, a deck; a queue kept in a
                    # counter): its first item, or none
                    z, k = f.temp(), f.temp()
                    return (f"(({z}[0] if ({z} := st.zones[{ops[1]}.key]) else None) if ({k} := type({ops[0]})) is Zone "
                            f"else ({ops[1]}[0] if {ops[1]} else None) if {k} is list "
                            f"else h_first(ev, {self.node(n)}, {ops[1]}, {self.shared('R', n.func)}))")
                if n.func in _FAST:
                    return f"{_FAST[n.func]}(ev, {self.node(n)}, {args[0]}, {self.shared('R', n.func)})"
            if (n.func == "slice" and len(args) in (2, 3) and (ops := inline_operand(args[0], f)) is not None
                    and all(isinstance(a, A.Num) and type(a.value) is int for a in n.args[1:])):
                # `slice(xs, 1)` of a list or a zone by number literals: Python's slice, a new list, as
                # the built-in's (queries.py); anything else goes to the built-in, which raises its error
                bounds = ":".join(args[1:]) + (":" if len(args) == 2 else "")
                k = f.temp()
                return (f"({ops[1]}[{bounds}] if ({k} := type({ops[0]})) is list else st.zones[{ops[1]}.key][{bounds}] "
                        f"if {k} is Zone else {self.shared('R', n.func)}(ev, [{', '.join([ops[1]] + args[1:])}], "
                        f"{self.node(n)}, None))")
            if prim.direct is not None:  # its arguments as Python arguments: no list per call
                return f"{self.shared('D', n.func)}(ev, {self.node(n)}{''.join(', ' + a for a in args)})"
            scope = self.scope_dict(f) if prim.scoped else "None"
            if n.func == "log" and scope.startswith("h_scope("):
                scope = f"(None if ev.st.quiet else {scope})"  # a quiet game's log reads no variables
            return f"{self.shared('R', n.func)}(ev, [{', '.join(args)}], {self.node(n)}, {scope})"
        proc = rs.procedures.get(n.func)
        if proc is None or n.func in rs.suspending_procs or len(n.args) != len(proc.params):
            return f"ev.call({self.node(n)}, {{}})"  # raises the reference's located error
        args = self.operands(n.args, f)
        return f"PR_{n.func}(ev, {self.node(n)}{''.join(', ' + a for a in args)})"

    def extreme2(self, n: A.Call, lst: A.ListLit, f: Fn) -> str:
        """`min([a, b])`, `max([a, b])` of two numbers: Python's own on the two (the built-in is Python's
        `min`/`max` of the list: the first of equal items); anything else goes to the built-in."""
        a, b = self.expr(lst.items[0], f), self.expr(lst.items[1], f)
        x, y = f.temp(), f.temp()
        op = "<" if n.func == "min" else ">"
        return (f"(({y} if {y} {op} {x} else {x}) if (type(({x} := {a})) is int) & (type(({y} := {b})) is int) "
                f"else {self.shared('R', n.func)}(ev, [ev.nested({self.node(lst)}, [{x}, {y}])], {self.node(n)}, None))")

    def scope_dict(self, f: Fn) -> str:
        """The variables in scope as a dict, for the rare calls into the reference evaluator."""
        pairs = [f"{x!r}, {v}" for x, v in f.comp.items()]
        if f.mode == "dict":
            return f"dict(S, **h_scope({', '.join(pairs)}))" if pairs else "S"
        pairs += [f"{x!r}, L_{x}" for x in sorted(f.locals) if x not in f.comp]
        return f"h_scope({', '.join(pairs)})"
