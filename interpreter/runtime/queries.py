"""The pure built-ins: queries over lists, zones, maps, players and components.

Nothing here changes the game state (`pure=True`: "query" in the language reference). The
decorators register into `primitives.REGISTRY` on import, and `primitives` imports this module at
its end, so importing `interpreter.primitives` is all a caller needs.
"""

from __future__ import annotations

from meeple.runtime.builtins import _items, _num, _player, direct_primitive, primitive
from meeple.runtime.data import Comp, Player, Zone
from meeple.runtime.limits import MAX_ITEMS, size_message
from meeple.runtime.values import NO_KEY, show, stored_key, type_name


# ------------------------------------------------------------------ queries
@primitive("count")
def _count(ev, a, n, s):
    return len(_items(ev, a[0], n))


@primitive("sum")
def _sum(ev, a, n, s):
    try:
        total = sum(_items(ev, a[0], n))
    except TypeError:
        raise ev.fail(n, "`sum` needs numbers") from None
    return ev.number(n, total) if type(total) is int else total


def _extreme(fn, ev, a, n):
    xs = _items(ev, a[0], n)
    if not xs:
        if len(a) > 1:
            return a[1]
        raise ev.fail(n, f"`{n.func}` of an empty list", hint=f"give a default: `{n.func}(xs, 0)`")
    try:
        return fn(xs)
    except TypeError:
        raise ev.fail(n, f"`{n.func}` needs comparable values") from None


@primitive("min")
def _min(ev, a, n, s):
    return _extreme(min, ev, a, n)


@primitive("max")
def _max(ev, a, n, s):
    return _extreme(max, ev, a, n)


@primitive("any")
def _any(ev, a, n, s):
    return any(_items(ev, a[0], n))


@primitive("all")
def _all(ev, a, n, s):
    return all(_items(ev, a[0], n))


@primitive("first")
def _first(ev, a, n, s):
    xs = _items(ev, a[0], n)
    return xs[0] if xs else None


@primitive("last")
def _last(ev, a, n, s):
    xs = _items(ev, a[0], n)
    return xs[-1] if xs else None


@primitive("list")
def _list(ev, a, n, s):
    return list(_items(ev, a[0], n))


@primitive("between")
def _between(ev, a, n, s):
    lo, hi = _num(ev, a[0], n), _num(ev, a[1], n)
    if hi - lo + 1 > MAX_ITEMS:
        raise ev.fail(n, f"`between` makes {size_message('a list', hi - lo + 1)}")
    return list(range(lo, hi + 1))


@primitive("flatten")
def _flatten(ev, a, n, s):
    out: list = []
    for xs in _items(ev, a[0], n):
        out.extend(_items(ev, xs, n))
        if len(out) > MAX_ITEMS:
            raise ev.fail(n, f"`flatten` makes {size_message('a list', len(out))}")
    return out


_ONE_TYPE = (str, int, Comp, Player)


@primitive("distinct")
def _distinct(ev, a, n, s):
    # A set finds repeats in linear time; lists and maps cannot be in a set, so they are compared one by one.
    xs = _items(ev, a[0], n)
    if xs:
        t = type(xs[0])
        if t in _ONE_TYPE:
            for x in xs:
                if type(x) is not t:
                    break
            else:  # one type: `==` is Python's, and so are repeats
                return list(dict.fromkeys(xs))
    out, seen, unhashable = [], set(), []
    for x in xs:
        if type(x) is list or type(x) is dict:
            if x not in unhashable:
                ev.spend(len(unhashable), n)
                unhashable.append(x)
                out.append(x)
        elif (type(x), x) not in seen:  # with its type: `==` is strict (a player is not its seat number)
            seen.add((type(x), x))
            out.append(x)
    return out


@primitive("sorted")
def _sorted(ev, a, n, s):
    try:
        return sorted(_items(ev, a[0], n))
    except TypeError:
        raise ev.fail(n, "`sorted` needs comparable values") from None


@primitive("reversed")
def _reversed(ev, a, n, s):
    return list(reversed(_items(ev, a[0], n)))


@primitive("slice")
def _slice(ev, a, n, s):
    xs = _items(ev, a[0], n)
    return list(xs[_num(ev, a[1], n): _num(ev, a[2], n) if len(a) > 2 else None])


@primitive("index_of")
def _index_of(ev, a, n, s):
    xs, v = _items(ev, a[0], n), a[1]
    start = 0
    while True:  # the first item `==` calls equal: Python's `index` also matches other types (1 and true)
        try:
            i = xs.index(v, start)
        except ValueError:
            return -1
        if type(xs[i]) is type(v):
            return i
        start = i + 1


@primitive("abs")
def _abs(ev, a, n, s):
    return abs(_num(ev, a[0], n))


@primitive("keys")
def _keys(ev, a, n, s):
    if type(a[0]) is not dict:
        raise ev.fail(n, "`keys` needs a map")
    return list(a[0])


@primitive("get")
def _get(ev, a, n, s):
    if type(a[0]) is not dict:
        raise ev.fail(n, "`get` needs a map")
    ev.check_key(n, a[1])
    return a[0][a[1]] if stored_key(a[0], a[1]) is not NO_KEY else a[2]  # strict, as `m[k]` and `in`


@primitive("text")
def _text(ev, a, n, s):
    return show(a[0], ev.rs)


# ------------------------------------------------------------------ players
@primitive("player")
def _player_at(ev, a, n, s):
    return Player(_num(ev, a[0], n) % ev.st.nplayers)


@direct_primitive("left_of")
def left_of(ev, n, p):
    return Player((_player(ev, p, n) + 1) % ev.st.nplayers)


@direct_primitive("right_of")
def right_of(ev, n, p):
    return Player((_player(ev, p, n) - 1) % ev.st.nplayers)


# The turn orders, made once per first player and player count (a new list of them each call).
_ORDERS: dict[tuple[int, int], list[Player]] = {}


def _order(p: Player, k: int) -> list[Player]:
    got = _ORDERS.get((p, k))
    if got is None:
        got = _ORDERS[(int(p), k)] = [Player((p + i) % k) for i in range(k)]
    return got


@primitive("turn_order")
def _turn_order(ev, a, n, s):
    return _order(_player(ev, a[0], n), ev.st.nplayers)[:]


@primitive("others")
def _others(ev, a, n, s):
    return _order(_player(ev, a[0], n), ev.st.nplayers)[1:]


@primitive("owner")
def _owner(ev, a, n, s):
    if type(a[0]) is not Comp:
        raise ev.fail(n, "`owner` needs a component")
    return ev.owner(a[0])


# ------------------------------------------------------------------ components
@direct_primitive("components")
def components(ev, n, key):
    if type(key) is not str:
        raise ev.fail(n, f"`components` needs the name of a component kind or item, not {type_name(key)}")
    cache = ev.rs.derived()  # the lists are per ruleset (setups ask for every kind)
    found = cache.get(("components", key))
    if found is None:
        rs = ev.rs
        if key in rs.items:
            found = [Comp(i) for i in rs.items[key]]
        elif key in rs.kinds:
            found = [Comp(c.id) for c in rs.components if c.kind == key]
        else:
            raise ev.fail(n, f"there is no component kind or item `{key}`")
        cache["components", key] = found
    return found[:]


@primitive("zone_of")
def _zone_of(ev, a, n, s):
    if type(a[0]) is not Comp:
        raise ev.fail(n, f"`zone_of` needs a component, not {type_name(a[0])}")
    key = ev.st.loc.get(int(a[0]))
    return Zone(key) if key is not None else None
