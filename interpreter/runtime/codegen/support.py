"""What generated code calls at run time: the slow paths of operators, and per-name attribute readers.

Generated code inlines the common case of an operation (ints, lists, a local variable) and calls one
of these for the rest; each falls back to the reference semantics in values.py, so both evaluators
agree on results and on error messages, and every error carries the AST node of the script that
failed (its YAML line and column), never a place in generated Python.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeple.runtime.data import Comp, Player, Zone
from meeple.runtime.evaluator import BreakSig, ContinueSig, EndGameSig, ReturnSig
from meeple.runtime.limits import MAX_DEPTH, MAX_INT, MAX_ITEMS, STEPS_MESSAGE
from meeple.runtime.printing import repeat_problem
from meeple.runtime.values import NO_KEY, same, stored_key, type_name

MAX_SEATS = 64


class _Unbound:
    """A generated local that holds no value yet: reads fall back to the global of that name."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<unbound>"


U = _Unbound()
PLAYERS = [Player(i) for i in range(MAX_SEATS)]


def steps_exceeded(ev: Any, n: Any) -> Exception:
    return ev.fail(n, STEPS_MESSAGE)


def it(ev: Any, v: Any, n: Any) -> list:
    """What `for` and comprehensions loop over: a snapshot list."""
    t = type(v)
    if t is list:
        return v  # a value: nothing changes it in place
    if t is Zone:
        return ev.st.zones[v.key][:]
    return list(ev.iterate(v, n))


def loop(ev: Any, v: Any, n: Any, at: Any) -> list:
    """A snapshot to loop over, its passes counted against the step budget (at the node `at`)."""
    t = type(v)  # `it`, inlined: this is every generated loop's entry
    items = v if t is list else ev.st.zones[v.key][:] if t is Zone else list(ev.iterate(v, n))
    st = ev.st
    st.steps += len(items)
    if st.steps > ev.limit:
        raise ev.fail(at, STEPS_MESSAGE)
    return items


def still_loop(ev: Any, v: Any, n: Any, at: Any) -> list:
    """`loop` for a comprehension in which nothing can move a component: a zone's own list, uncopied."""
    return loop(ev, ev.st.zones[v.key] if type(v) is Zone else v, n, at)


def enter(ev: Any, n: Any) -> None:
    """One call deeper (a procedure, a phase or a handler run directly); the caller steps back out."""
    if ev.depth >= MAX_DEPTH:
        ev.enter(n)  # raises the located depth error
    ev.depth += 1


def neg(ev: Any, n: Any, v: Any) -> Any:
    return -v if type(v) is int else ev.negate(n, v)


def add(ev: Any, n: Any, a: Any, b: Any) -> Any:
    ta = type(a)
    if ta is int and type(b) is int:
        r = a + b
        if -MAX_INT <= r <= MAX_INT:
            return r
    elif ta is list:  # lists are values: a new list, with b's items or b appended (values.py)
        tb = type(b)
        if tb is list:
            return ev.concat(n, a, b)
        if tb is not Zone:
            return ev.concat(n, a, [b])
    return ev.binop(n, a, b)


_STRICT = (int, bool, Player, Comp)  # all ints to Python: membership must also compare types (values.py)


def contains(ev: Any, n: Any, a: Any, b: Any) -> bool:
    """`a in b` for a list or zone b; anything else goes to the reference's `compare`."""
    tb = type(b)
    if tb is Zone:
        b = ev.st.zones[b.key]
    elif tb is not list:
        return ev.compare(n, a, b)
    ta = type(a)
    if ta in _STRICT:
        if a not in b:
            return False
        # the first equal item (what `in` found) is nearly always of a's type: look no further then
        i = b.index(a)
        return type(b[i]) is ta or any(x == a and type(x) is ta for x in b[i + 1:])
    return a in b


def sub(ev: Any, n: Any, a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:
        r = a - b
        if -MAX_INT <= r <= MAX_INT:
            return r
    return ev.binop(n, a, b)


def lt(ev: Any, n: Any, a: Any, b: Any) -> bool:
    if type(a) is int and type(b) is int:
        return a < b
    return ev.compare(n, a, b)


def le(ev: Any, n: Any, a: Any, b: Any) -> bool:
    if type(a) is int and type(b) is int:
        return a <= b
    return ev.compare(n, a, b)


def gt(ev: Any, n: Any, a: Any, b: Any) -> bool:
    if type(a) is int and type(b) is int:
        return a > b
    return ev.compare(n, a, b)


def ge(ev: Any, n: Any, a: Any, b: Any) -> bool:
    if type(a) is int and type(b) is int:
        return a >= b
    return ev.compare(n, a, b)


def index(ev: Any, n: Any, o: Any, i: Any) -> Any:
    t = type(o)
    if t is list:
        if type(i) is int and -len(o) <= i < len(o):
            return o[i]
    elif t is dict:
        # A key that is an int to Python may find an entry of another type's (values.stored_key); a list
        # key is refused by the reference's located error.
        ti = type(i)
        if ti is str:
            if i in o:
                return o[i]
        elif ti in _STRICT and stored_key(o, i) is not NO_KEY:
            return o[i]
    return ev.index(n, o, i)


def mul(ev: Any, n: Any, a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:
        # The reference refuses a product past the limit, and one whose operands' bit lengths add up
        # to more than 64 (values.binop). A nonzero product within the limit has operands of at most
        # 55 bits together; a zero one passes if its other operand (a + b) is within the limit. Every
        # other case goes to the reference, which raises its located error.
        r = a * b
        if -MAX_INT <= r <= MAX_INT and (r or -MAX_INT <= a + b <= MAX_INT):
            return r
    return ev.binop(n, a, b)  # lists and strings times numbers, and every error: the checks live there


def floordiv(ev: Any, n: Any, a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int and b:
        return a // b
    return ev.binop(n, a, b)  # division by zero is a located error there


def mod(ev: Any, n: Any, a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int and b:
        return a % b
    return ev.binop(n, a, b)


def aug(ev: Any, n: Any, plus: bool, cur: Any, d: Any) -> Any:
    """`x += d` / `x -= d` on the value read: numbers, or appending to a list."""
    if type(cur) is int and type(d) is int:
        return ev.number(n, cur + d if plus else cur - d)
    if type(cur) is list and plus:
        return ev.concat(n, cur, d if type(d) is list else [d])
    raise ev.fail(n, f"`{'+' if plus else '-'}=` needs numbers, not {type_name(cur)} and {type_name(d)}")


def counter_amount(ev: Any, n: Any, amount: Any) -> Any:
    if type(amount) is not int:
        raise ev.fail(n, f"`{n.func}` needs a number of points or coins")
    return amount


def counter_value(ev: Any, n: Any, target: Any, cur: Any) -> Any:
    if type(cur) is not int:
        raise ev.fail(target, f"`{n.func}` needs a counter as its first argument")
    return cur


def gain(ev: Any, n: Any, cur: int, k: int) -> int:
    if k < 0:
        raise ev.fail(n, f"`gain` of a negative amount ({k}); use `pay` or `score`")
    return ev.number(n, cur + k)


def pay(ev: Any, n: Any, cur: int, k: int) -> int:
    if k > cur:
        raise ev.fail(n, f"cannot pay {k} from a counter that holds {cur}", hint="guard the option with `when`")
    return ev.number(n, cur - k)


def count(ev: Any, n: Any, v: Any, fn: Callable) -> int:
    t = type(v)
    if t is list:
        return len(v)
    if t is Zone:
        return len(ev.st.zones[v.key])
    return fn(ev, [v], n, None)


def _extreme(pick: Callable) -> Callable:
    """`min(xs)` / `max(xs)` of a non-empty list: Python's, as the built-in's; anything else (a zone, an
    empty list, values that do not compare) goes to the built-in."""
    def extreme(ev: Any, n: Any, v: Any, fn: Callable) -> Any:
        if type(v) is list and v:
            try:
                return pick(v)
            except TypeError:
                pass
        return fn(ev, [v], n, None)
    return extreme


least, most = _extreme(min), _extreme(max)


def total(ev: Any, n: Any, v: Any, fn: Callable) -> Any:
    """`sum(xs)` of a list: Python's sum, as the built-in's; a sum past the limit, or of values that
    are not numbers, goes to the built-in, which raises its located error."""
    if type(v) is list:
        try:
            r = sum(v)
        except TypeError:
            return fn(ev, [v], n, None)
        if type(r) is int and -MAX_INT <= r <= MAX_INT:
            return r
    return fn(ev, [v], n, None)


def first(ev: Any, n: Any, v: Any, fn: Callable) -> Any:
    t = type(v)
    if t is list:
        return v[0] if v else None
    if t is Zone:
        z = ev.st.zones[v.key]
        return z[0] if z else None
    return fn(ev, [v], n, None)


def snapshot(ev: Any, n: Any, v: Any, fn: Callable) -> list:
    """`list(x)`."""
    t = type(v)
    if t is list:
        return v[:]
    if t is Zone:
        return ev.st.zones[v.key][:]
    return fn(ev, [v], n, None)


def player_at(ev: Any, n: Any, v: Any, fn: Callable) -> Any:
    if type(v) is int:
        return PLAYERS[v % ev.st.nplayers]
    return fn(ev, [v], n, None)


def repeat_count(ev: Any, n: Any, k: Any) -> int:
    if type(k) is not int or k < 0:
        raise ev.fail(n, repeat_problem(k) or "")
    return k


def fail(ev: Any, n: Any, message: str) -> Exception:
    return ev.fail(n, message)


def scope_of(*pairs: Any) -> dict:
    """A scope dict of the generated locals that hold values, for the rare fall-backs to the reference."""
    return {pairs[i]: pairs[i + 1] for i in range(0, len(pairs), 2) if pairs[i + 1] is not U}


# Values whose text is short (values.show): a quiet log line needs no text of these to know its size.
QSHORT = frozenset({int, bool, type(None), Player, Comp})

HELPERS = {
    "QSHORT": QSHORT, "U": U, "PLAYERS": PLAYERS, "MAXI": MAX_INT, "MAXS": MAX_ITEMS, "MAXD": MAX_DEPTH, "h_loop": loop, "h_still": still_loop, "h_enter": enter, "h_neg": neg, "Comp": Comp, "Player": Player, "Zone": Zone,
    "BreakSig": BreakSig, "ContinueSig": ContinueSig, "ReturnSig": ReturnSig, "EndGameSig": EndGameSig,
    "h_steps": steps_exceeded, "h_it": it, "h_eq": same, "h_add": add, "h_sub": sub, "h_lt": lt, "h_le": le,
    "h_gt": gt, "h_ge": ge, "h_index": index, "h_aug": aug,
    "h_amount": counter_amount, "h_counter": counter_value, "h_gain": gain, "h_pay": pay, "h_count": count, "h_sum": total, "h_min": least, "h_max": most, "h_mul": mul, "h_floordiv": floordiv, "h_mod": mod, "h_in": contains, "h_first": first, "h_list": snapshot, "h_player": player_at,
    "h_repeat": repeat_count, "h_fail": fail, "h_scope": scope_of,
}
