"""Variables whose values are flat (never a list or a map), or lists of flat items, wherever they are read.

kinds.py knows what an expression evaluates to from the expression alone; a variable is unknown there,
since any script may bind any value to it. This module looks at every binding of every name in the whole
ruleset at once: an assignment, a `+=`, a loop, a comprehension or an option binding its variable, an
entry set (`xs[i] = v`), a call of a procedure binding its parameters. A name is *flat* if every value any of them binds to it is flat, and if the
global that a read of it falls back to before it is bound is flat too (or there is none: the read fails).
It holds *flat items* if every value bound to it is flat or a list of flat items, and setting an entry
stores a flat value. Handlers bind `self` to a component and `owner` to a player or none: flat values.

Both are greatest fixpoints: every candidate is assumed to hold, and a name is dropped as soon as one of
its bindings is not known to bind such a value under what is still assumed. What is left is sound by
induction over a game: each binding binds such a value while every name in the set holds one.
The other scopes the Game API makes bind `p` to a player (scores, the greedy heuristic) and `self`,
`owner` (statuses): flat values too.

Scripts and expressions from outside the ruleset (a scenario's `setup` and steps, `before_flow`,
`Game.evaluate`) are not part of this: they run through the reference path of the game's generated
evaluator, which refuses to store a value that would break what generated code assumes
(`stray_binding`), with a located error that names the variable or counter. Whatever else they do
(a procedure called with other arguments, run by the reference path) assumes nothing.
"""

from __future__ import annotations

from typing import Any

from meeple.language import ast as A
from meeple.language.model import Ruleset
from meeple.runtime.codegen.kinds import _SCALARS, Flatness
from meeple.runtime.codegen.roots import number_nodes
from meeple.runtime.library import REGISTRY
from meeple.runtime.limits import MAX_INT


def flat_variables(fl: Flatness, rs: Ruleset, nodes: list[Any]) -> None:
    """Work out `fl.flat_names`, `fl.items_names` (variables and game counters) and `fl.flat_attrs`,
    `fl.items_attrs` (counters of players and components) from every node of every script (`nodes`)."""
    # handlers bind `self` and `owner` (a component, a player or none); game counters start flat or not
    binds: dict[str, list[tuple[str, Any]]] = {x: [] for x in ("self", "owner", *rs.game_counters)}
    attrs: dict[str, list[tuple[str, Any]]] = {x: [] for x in _counter_names(rs)}
    left_out: set[str] = set()
    procs = rs.procedures
    for n in nodes:
        t = type(n)
        if t is A.Call and n.func in procs and n.func not in REGISTRY:  # built-ins come first (Evaluator.call)
            params = procs[n.func].params
            if len(params) == len(n.args):  # else the call fails
                for x, a in zip(params, n.args):
                    binds.setdefault(x, []).append(("set", a))
        elif t in (A.Assign, A.AugAssign):
            how = "set" if t is A.Assign else "add"
            target = n.target
            if type(target) is A.Name:  # a variable, or the game counter of that name (Evaluator.assign)
                binds.setdefault(target.name, []).append((how, n.value))
            elif type(target) is A.Attr:  # a counter of a player or a component (or an error)
                attrs.setdefault(target.name, []).append((how, n.value))
            elif type(target) is A.Index:
                root: Any = target.obj
                if type(root) in (A.Name, A.Attr):  # a copy of the list or map with the entry set (values.py)
                    (binds if type(root) is A.Name else attrs).setdefault(root.name, []).append(("entry", n.value))
                else:
                    while type(root) is A.Index:
                        root = root.obj
                    if type(root) in (A.Name, A.Attr):  # an entry of an entry: it holds lists or maps
                        left_out.add(root.name if type(root) is A.Name else "." + root.name)
        elif t in (A.For, A.OptionFor, A.Comp):
            binds.setdefault(n.var, []).append(("item", n.iter))
        elif t is A.Simultaneous:
            binds.setdefault(n.var, []).append(("item", n.players))
    bound = set(binds) - set(rs.game_counters) | left_out

    def shadowed(x: str) -> bool:
        return x in bound

    # All at once: whether a name is flat may rest on a list's items being flat, and the other way round.
    fl.flat_names = frozenset(x for x in binds if x not in left_out and _global_flat(rs, x))
    fl.items_names = frozenset(x for x in binds if x not in left_out and _global_items(rs, x))
    fl.flat_attrs = frozenset(x for x in attrs if "." + x not in left_out and _initial_flat(rs, x, False))
    fl.items_attrs = frozenset(x for x in attrs if "." + x not in left_out and _initial_flat(rs, x, True))
    # ... and numbers within the limit (kinds.Flatness.integer): their comparisons and sums are Python's
    fl.int_names = frozenset(x for x in binds if x not in left_out and x not in ("self", "owner") and _global_int(rs, x))
    fl.int_attrs = frozenset(x for x in attrs if "." + x not in left_out and _initial_int(rs, x))
    while True:
        fl.forget()  # what procedures return was worked out under the names assumed so far
        now = (_keep(fl, fl.flat_names, binds, _binds_flat, shadowed), _keep(fl, fl.items_names, binds, _binds_items, shadowed),
               _keep(fl, fl.flat_attrs, attrs, _binds_flat, shadowed), _keep(fl, fl.items_attrs, attrs, _binds_items, shadowed),
               _keep(fl, fl.int_names, binds, _binds_int, shadowed), _keep(fl, fl.int_attrs, attrs, _binds_int, shadowed))
        if now == (fl.flat_names, fl.items_names, fl.flat_attrs, fl.items_attrs, fl.int_names, fl.int_attrs):
            break
        fl.flat_names, fl.items_names, fl.flat_attrs, fl.items_attrs, fl.int_names, fl.int_attrs = now
    fl.forget()


def _keep(fl: Flatness, names: frozenset[str], binds: dict, test: Any, shadowed: Any) -> frozenset[str]:
    return frozenset(x for x in names if all(test(fl, how, v, shadowed) for how, v in binds[x]))


def _binds_int(fl: Flatness, how: str, v: Any, shadowed: Any) -> bool:
    if how == "item":  # a loop over numbers: `between`, or a list literal of them
        if type(v) is A.Call:
            return v.func == "between" and v.func not in fl.rs.procedures
        return type(v) is A.ListLit and all(fl.integer(x, shadowed) for x in v.items)
    # `x = v`, `x += v` (the sum of two such numbers is checked: values.binop), or an entry set (a
    # number has none: it fails)
    return how == "entry" or fl.integer(v, shadowed)


def _global_int(rs: Ruleset, x: str) -> bool:
    """The global a read of `x` falls back to is a number within the limit, or there is none."""
    v = rs.constants[x] if x in rs.constants else rs.game_counters[x].initial if x in rs.game_counters else None
    if x in rs.constants or x in rs.game_counters:
        return type(v) is int and -MAX_INT <= v <= MAX_INT
    return x not in rs.game_zones and x != "players" and not (x in rs.items and len(rs.items[x]) == 1)


def _initial_int(rs: Ruleset, name: str) -> bool:
    decls = [rs.player_counters[name]] if name in rs.player_counters else []
    decls += [k.counters[name] for k in rs.kinds.values() if name in k.counters]
    return all(type(d.initial) is int and -MAX_INT <= d.initial <= MAX_INT for d in decls)


def _counter_names(rs: Ruleset) -> set[str]:
    return set(rs.player_counters) | {x for k in rs.kinds.values() for x in k.counters}


def _initial_flat(rs: Ruleset, name: str, items: bool) -> bool:
    """Every counter called `name` (of the players, of any kind) starts flat (or a list of flat items)."""
    decls = [rs.player_counters[name]] if name in rs.player_counters else []
    decls += [k.counters[name] for k in rs.kinds.values() if name in k.counters]
    return all(type(d.initial) in _SCALARS or (items and type(d.initial) is list
                                               and all(type(y) in _SCALARS for y in d.initial)) for d in decls)


def _binds_flat(fl: Flatness, how: str, v: Any, shadowed: Any) -> bool:
    if how == "item":
        return fl.items_flat(v, set(), shadowed)
    if how == "entry":
        return True  # sets an entry of a list or map (no flat value), or fails
    return fl.flat(v, set(), shadowed)  # `x = v`; `x += v` of a flat x: numbers or strings, or an error


def _binds_items(fl: Flatness, how: str, v: Any, shadowed: Any) -> bool:
    if how == "item":  # an item of a list of flat items is flat: its own items (a zone's) are too
        return fl.items_flat(v, set(), shadowed)
    if how == "entry":
        return fl.flat(v, set(), shadowed)
    if how == "add":  # a list joined with a list of flat items, or one flat item appended; or arithmetic
        return fl.flat(v, set(), shadowed) or fl.items_flat(v, set(), shadowed)
    return fl.items_flat(v, set(), shadowed)


def _global_flat(rs: Ruleset, x: str) -> bool:
    """The global a read of `x` falls back to is flat, or there is none (the read fails): values.global_value
    (a game counter: its initial value; what scripts store in it are bindings of its name)."""
    if x in rs.constants:
        return type(rs.constants[x]) in _SCALARS
    if x in rs.game_counters:
        return type(rs.game_counters[x].initial) in _SCALARS
    return x != "players"


def _global_items(rs: Ruleset, x: str) -> bool:
    """The global a read of `x` falls back to is flat, a list of flat items, or there is none."""
    v = rs.constants[x] if x in rs.constants else rs.game_counters[x].initial if x in rs.game_counters else None
    return type(v) in _SCALARS or (type(v) is list and all(type(y) in _SCALARS for y in v))


def known(rs: Ruleset) -> Flatness:
    """The ruleset's flat names and counters, as the generator worked them out (once per ruleset)."""
    cache = rs.derived()
    fl = cache.get("flatness")
    if fl is None:
        fl = cache["flatness"] = Flatness(rs)
        flat_variables(fl, rs, number_nodes(rs))
    return fl


def _flat_value(v: Any) -> bool:
    return type(v) is not list and type(v) is not dict


def _items_value(v: Any) -> bool:
    return _flat_value(v) or (type(v) is list and all(_flat_value(x) for x in v))


def stray_binding(rs: Ruleset, target: Any, value: Any, scope: dict) -> str | None:
    """The counter whose values generated code assumes flat, lists of flat items or numbers within the
    limit, that storing `value` at `target` would break, or None. Only counters matter: a script from
    outside the ruleset binds its variables in its own scope, which no generated code reads, and a
    name's entry set is stored back through `assign` (values.py)."""
    fl = known(rs)
    if type(target) is A.Name:  # a game counter of that name unless the scope holds one (Evaluator.assign)
        name = target.name
        if name not in rs.game_counters or name in scope:
            return None
        flat, items, ints = fl.flat_names, fl.items_names, fl.int_names
    elif type(target) is A.Attr:
        name, flat, items, ints = target.name, fl.flat_attrs, fl.items_attrs, fl.int_attrs
    elif type(target) is A.Index and type(target.obj) is A.Attr:  # an entry of a counter: stored as an item
        return target.obj.name if target.obj.name in fl.items_attrs and not _flat_value(value) else None
    else:  # an entry of a variable (assigned whole afterwards), an entry of an entry (in neither set)
        return None
    if name in ints and not (type(value) is int and -MAX_INT <= value <= MAX_INT):
        return name
    if _flat_value(value):
        return None
    if name in flat or (name in items and not _items_value(value)):
        return name
    return None
