"""What the rules language's values mean: what reading an attribute, indexing, arithmetic and
comparison do to them (how they print and what they are called in messages: printing.py).

Both evaluators share this: the reference `Evaluator` (evaluator.py) builds on `ValueOps`, and the
generated code (codegen/) inlines the common cases and falls back to these
methods for everything else, so errors and edge cases have one definition.
"""

from __future__ import annotations

from typing import Any

from meeple.checker.decls import did_you_mean as near  # for scripts the checker never saw (a scenario's)
from meeple.errors import Problem, RuntimeRuleError
from meeple.language import ast as A
from meeple.language.model import Ruleset
from meeple.runtime.data import OWNERS, Comp, Player, Zone, key_owner
from meeple.runtime.limits import MAX_INT, MAX_ITEMS, MAX_NESTING, number_message, size_message, tree_size
from meeple.runtime.printing import show, type_name  # also imported from here
from meeple.runtime.state import GameState

MISSING = object()  # "not in the scope", distinct from a variable holding none
_NUMERIC = (int, bool, Player, Comp)


_ARITH = (int, bool)  # booleans count as 1 and 0 in arithmetic, as the checker's NUMLIKE says


def _numbers(a: Any, b: Any) -> None:
    """Arithmetic takes numbers (and booleans, as 1 and 0): found by QA, a player or a component, which
    are ints to Python, was added, multiplied or divided as the number of its seat or its id, where the
    checker could not tell the operand's type. TypeError: binop's located error."""
    if type(a) not in _ARITH or type(b) not in _ARITH:
        raise TypeError


def same(a: Any, b: Any) -> bool:
    """The language's `==`: strict in type, since players, components, numbers and booleans are all
    ints to Python (a player is not the number of its seat, `true` is not 1), and so inside lists and
    maps too (found by QA: `[player(0)] == [0]` was true, as Python compares lists)."""
    if a is b:
        return True
    t = type(a)
    if t is not type(b) or a != b:
        return False
    if t is list:
        return all(same(x, y) for x, y in zip(a, b))  # (as long as each other: `a != b` was false)
    if t is dict:
        return all(stored_key(b, k) is not NO_KEY and same(v, b[k]) for k, v in a.items())
    return True


NO_KEY = object()


def stored_key(m: dict, k: Any) -> Any:
    """The key of map `m` that is `k` by the language's `==`, else NO_KEY. Players, components, numbers
    and booleans are all ints to Python, so a dict finds `player(0)`'s entry for `0` (found by QA: `m[0]`
    read a player's entry, and writing it replaced that entry); a dict holds one key per int value, so
    the one `==` finds is the only candidate, and its type decides. Strings never meet another type."""
    if k not in m:
        return NO_KEY
    if type(k) is str:
        return k
    for x in m:
        if x == k:
            return x if type(x) is type(k) else NO_KEY
    return NO_KEY  # pragma: no cover - `k in m` found one


def without(a: list, drop: list) -> list:
    """`a - drop`: the items of `a` equal to none of `drop`'s by the language's `==`, which is strict in
    type (a player is not the number of its seat, though Python says they are equal). One pass over each
    list; lists or maps among the items (not hashable) are compared one by one."""
    try:
        keys = {(type(x), x) for x in drop}
        return [x for x in a if (type(x), x) not in keys]
    except TypeError:
        return [x for x in a if not any(same(x, y) for y in drop)]


class ValueOps:
    """Operations on values already evaluated: they read the state, never the scope."""

    def __init__(self, rs: Ruleset, state: GameState) -> None:
        self.rs = rs
        self.st = state
        cache = rs.derived()
        tables: tuple[list[dict[str, Any]], list[str]] | None = cache.get("values")
        if tables is None:  # per ruleset, not per game: an evaluator is made for every copy
            tables = cache["values"] = ([c.attrs for c in rs.components], [c.kind for c in rs.components])
        self.attrs, self.kind_of = tables

    def fail(self, node: Any, message: str, hint: str | None = None) -> RuntimeRuleError:
        return RuntimeRuleError(Problem("R001", message, getattr(node, "span", None), hint=hint))

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
        raise self.fail(node, f"`{name}` is not defined", near(name, [*rs.constants, *rs.game_counters,
                                                                       *rs.game_zones, *rs.items]))

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
            raise self.fail(node, f"a {self.kind_of[obj]} has no attribute `{name}`",
                            near(name, [*a, *kind.counters, *kind.slots]))
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
            raise self.fail(node, f"a player has no counter or zone `{name}`",
                            near(name, [*rs.player_counters, *rs.player_zones]))
        if obj is None:
            raise self.fail(node, f"cannot read `{name}` of none")
        raise self.fail(node, f"cannot read `{name}` of {type_name(obj)}")

    def owner(self, c: int) -> Player | None:
        loc = self.st.loc
        key = loc.get(int(c))
        while key is not None:
            o = OWNERS[key] if key in OWNERS else key_owner(key)
            if type(o) is Comp:
                key = loc.get(o)  # a component's slot: whoever owns the component
                continue
            return o if type(o) is Player else None
        return None

    def handlers(self, event: str, target: Any, node: Any) -> list[tuple[Comp, A.Block]]:
        """The (component, handler) pairs that `trigger event on target` runs, in order."""
        components = self.rs.components
        return [(c, h) for c in self.triggered(target, node) if (h := components[c].on.get(event)) is not None]

    def triggered(self, target: Any, node: Any) -> list[Comp]:
        """The components `trigger ... on target` names, in order: a zone's, a list's, or the one; each
        a component (generated code finds their handlers by table: codegen/tables.handlers_of)."""
        if type(target) is Zone:
            target = self.st.zones[target.key]
        comps = target if type(target) is list else [target]
        for c in comps:  # nothing changes the list while this reads it
            if type(c) is not Comp:
                raise self.fail(node, f"`trigger` needs components, not {type_name(c)}")
        return comps

    def handler_scope(self, c: int) -> dict:
        return {"self": Comp(c), "owner": self.owner(c)}

    def counter_key(self, obj: Any, name: str, node: Any) -> str:
        if type(obj) is Player and name in self.rs.player_counters:
            return f"{int(obj)}.{name}"
        if type(obj) is Comp and name in self.rs.kinds[self.kind_of[obj]].counters:
            return f"#{int(obj)}.{name}"
        raise self.fail(node, f"`{name}` is not a counter of {type_name(obj)}")

    def index(self, n: A.Index, obj: Any, i: Any) -> Any:
        if type(obj) is Zone:
            obj = self.st.zones[obj.key]
        if type(obj) is dict:
            self.check_key(n, i)  # (a list or a map is no key: said, where hashing it would raise)
            if stored_key(obj, i) is NO_KEY:
                raise self.fail(n, f"no entry for {show(i, self.rs)} in this map")
            return obj[i]
        try:
            return obj[i]
        except (IndexError, TypeError):
            if (type(obj) is list or type(obj) is str) and type(i) is int:  # (a string's letters too)
                raise self.fail(n, f"index {show(i, self.rs)} is out of range (length {len(obj)})") from None
            raise self.fail(n, f"cannot index {type_name(obj)}" + (f" with {type_name(i)}" if type(obj) in (list, str)
                                                                   else "")) from None

    def iterate(self, v: Any, node: Any) -> list:
        t = type(v)
        if t is list:
            return v
        if t is Zone:
            return self.st.zones[v.key]
        if t is dict:
            return list(v)
        raise self.fail(node, f"cannot loop over {type_name(v)}")

    # ------------------------------------------------------------ bounded values (limits.py)
    def number(self, n: Any, v: int) -> int:
        if -MAX_INT <= v <= MAX_INT:
            return v
        raise self.fail(n, f"this makes {number_message(v)}")

    def concat(self, n: Any, a: Any, b: Any) -> Any:
        """a + b for two lists or two strings, within the size limit."""
        if len(a) + len(b) > MAX_ITEMS:
            raise self.fail(n, f"this makes {size_message('a list or string', len(a) + len(b))}")
        return self.nested(n, a + b) if type(a) is list else a + b

    def with_entry(self, n: Any, obj: Any, i: Any, v: Any) -> Any:
        """A copy of a list or map with one entry set (see Evaluator.set_entry: lists and maps are values)."""
        if type(obj) is dict:
            self.check_key(n, i)
            self.check_apart(n, obj, i)
            new: Any = dict(obj)
        elif type(obj) is list and type(i) is int and -len(obj) <= i < len(obj):
            new = obj[:]
        elif type(obj) is list and type(i) is int:  # found by QA: "cannot set an entry of a list"
            raise self.fail(n, f"index {i} is out of range (length {len(obj)}): a list does not grow by setting "
                               "an entry", hint="add an item with `xs += [x]`")
        else:
            raise self.fail(n, f"cannot set an entry of {type_name(obj)}")
        new[i] = v
        return self.nested(n, new)

    def nested(self, n: Any, v: Any) -> Any:
        """A new list or map, if it holds lists or maps: within the limits when counted as a copy or a save
        writes it out (shared lists once per appearance), not nested too deeply, and not holding itself."""
        for x in (v if type(v) is list else v.values()):
            if type(x) is list or type(x) is dict:
                break
        else:
            return v
        if tree_size(v, {}, set()) > MAX_ITEMS:
            raise self.fail(n, f"this makes a list or map that holds more than {MAX_ITEMS:,} items counting "
                               f"what it holds, nested more than {MAX_NESTING} deep, or holding itself")
        return v

    def text(self, n: Any, v: str) -> str:
        if len(v) > MAX_ITEMS:
            raise self.fail(n, f"this makes {size_message('a string', len(v))}")
        return v

    def negate(self, n: Any, v: Any) -> int:
        if type(v) is not int:
            raise self.fail(n, f"`-` needs a number, not {type_name(v)}")
        return -v

    def check_key(self, n: Any, k: Any) -> None:
        if type(k) is list or type(k) is dict:
            raise self.fail(n, f"{type_name(k)} cannot be a map key", hint="use a string, a number, a player "
                                                                         "or a component as the key")

    def check_apart(self, n: Any, m: dict, k: Any) -> None:
        """A map cannot hold two keys that are different values but one int to Python (a player and the
        number of its seat): said, rather than one entry silently taking the other's place."""
        if type(k) is str or k not in m:
            return
        other = next(x for x in m if x == k)  # the key Python takes `k` for
        if type(other) is not type(k):
            raise self.fail(n, f"this map has the key {show(other, self.rs)} ({type_name(other)}), so it cannot also "
                               f"have {show(k, self.rs)} ({type_name(k)}): a map cannot tell apart keys that share "
                               "a number (a seat, a component's number, a number, true and false as 1 and 0)",
                            hint="keep keys of one kind in a map, such as players or numbers")

    def make_map(self, n: Any, pairs: list) -> dict:
        out: dict = {}
        for k, v in pairs:
            self.check_key(n, k)
            self.check_apart(n, out, k)
            out[k] = v
        return self.nested(n, out)

    def binop(self, n: A.BinOp, a: Any, b: Any) -> Any:
        op = n.op
        try:
            if type(a) is int and type(b) is int and op in ("+", "-", "*"):
                if op == "*" and (a.bit_length() + b.bit_length() > 64):
                    raise self.fail(n, f"this makes {number_message(0)}")
                return self.number(n, a + b if op == "+" else a - b if op == "-" else a * b)
            if op == "+":
                if type(a) is Zone or type(b) is Zone:
                    raise TypeError
                if type(a) is list and type(b) is not list:
                    return self.concat(n, a, [b])
                if type(a) is type(b) and (type(a) is list or type(a) is str):
                    return self.concat(n, a, b)
                _numbers(a, b)
                return a + b
            if op == "-":
                if type(a) is list:
                    return without(a, b if type(b) is list else [b])
                _numbers(a, b)
                return a - b
            if op == "*":
                if type(a) in (list, str) and type(b) is int or type(b) in (list, str) and type(a) is int:
                    k, seq = (b, a) if type(b) is int else (a, b)
                    if len(seq) * max(k, 0) > MAX_ITEMS:
                        raise self.fail(n, f"this makes {size_message('a list or string', len(seq) * k)}")
                    if type(seq) is list:
                        return self.nested(n, a * b)
                    return a * b
                _numbers(a, b)
                return a * b
            _numbers(a, b)  # (a string's `%` would be Python's formatting)
            if op == "//":
                return a // b
            if op == "%":
                return a % b
        except ZeroDivisionError:
            raise self.fail(n, "division by zero") from None
        except TypeError:
            pass
        raise self.fail(n, f"cannot apply `{op}` to {type_name(a)} and {type_name(b)}")

    def compare(self, n: A.Compare, a: Any, b: Any) -> bool:
        op = n.op
        if op == "==":
            return same(a, b)
        if op == "!=":
            return not same(a, b)
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
            if (type(a) in _NUMERIC or type(b) in _NUMERIC) and type(a) is not type(b) and not (
                    type(a) in _ARITH and type(b) in _ARITH):
                raise TypeError  # found by QA: a player is no number, though Python orders it as its seat's
            if op == "<":
                return a < b
            if op == "<=":
                return a <= b
            if op == ">":
                return a > b
            return a >= b
        except TypeError:
            raise self.fail(n, f"cannot compare {type_name(a)} with {type_name(b)}") from None
