"""The pure built-ins: queries over lists, zones, maps, players and components.

Nothing here changes the game state (`pure=True`: "query" in the language reference). The
decorators register into `primitives.REGISTRY` on import, and `primitives` imports this module at
its end, so importing `interpreter.primitives` is all a caller needs.
"""

from __future__ import annotations

from .primitives import _items, _num, _player, primitive
from .state import Comp, Player, Zone
from .values import show


# ------------------------------------------------------------------ queries
@primitive("count", "xs", "num")
def _count(ev, a, n, s):
    """Number of items in a list or zone. `count(p.hand)`"""
    return len(_items(ev, a[0], n))


@primitive("sum", "xs", "num")
def _sum(ev, a, n, s):
    """Sum of a list of numbers; 0 for an empty list. `sum(c.value for c in p.hand)`"""
    try:
        return sum(_items(ev, a[0], n))
    except TypeError:
        raise ev.fail(n, "`sum` needs numbers") from None


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


@primitive("min", "xs default?")
def _min(ev, a, n, s):
    """Smallest item; the default (if given) for an empty list. `min([c.price for c in row], 0)`"""
    return _extreme(min, ev, a, n)


@primitive("max", "xs default?")
def _max(ev, a, n, s):
    """Largest item; the default (if given) for an empty list."""
    return _extreme(max, ev, a, n)


@primitive("any", "xs", "bool")
def _any(ev, a, n, s):
    """True if any item is true. `any(c.kind == "token" for c in p.tableau)`"""
    return any(_items(ev, a[0], n))


@primitive("all", "xs", "bool")
def _all(ev, a, n, s):
    """True if every item is true (and for an empty list)."""
    return all(_items(ev, a[0], n))


@primitive("first", "xs", "any")
def _first(ev, a, n, s):
    """The first item (the top of a zone), or none if empty."""
    xs = _items(ev, a[0], n)
    return xs[0] if xs else None


@primitive("last", "xs", "any")
def _last(ev, a, n, s):
    """The last item (the bottom of a zone), or none if empty."""
    xs = _items(ev, a[0], n)
    return xs[-1] if xs else None


@primitive("list", "xs", "list")
def _list(ev, a, n, s):
    """A list copy of a zone's contents (a snapshot that later moves do not change)."""
    return list(_items(ev, a[0], n))


@primitive("between", "lo hi", "list")
def _between(ev, a, n, s):
    """The numbers lo, lo+1, ..., hi (both included). `for n in between(0, p.coins)`"""
    return list(range(_num(ev, a[0], n), _num(ev, a[1], n) + 1))


@primitive("flatten", "xss", "list")
def _flatten(ev, a, n, s):
    """Join a list of lists (or zones) into one list. `flatten([w.storage for w in p.tableau])`"""
    out: list = []
    for xs in _items(ev, a[0], n):
        out.extend(_items(ev, xs, n))
    return out


@primitive("distinct", "xs", "list")
def _distinct(ev, a, n, s):
    """The items without repeats, in first-seen order."""
    out = []
    for x in _items(ev, a[0], n):
        if x not in out:
            out.append(x)
    return out


@primitive("sorted", "xs", "list")
def _sorted(ev, a, n, s):
    """The items in ascending order."""
    try:
        return sorted(_items(ev, a[0], n))
    except TypeError:
        raise ev.fail(n, "`sorted` needs comparable values") from None


@primitive("reversed", "xs", "list")
def _reversed(ev, a, n, s):
    """The items in reverse order."""
    return list(reversed(_items(ev, a[0], n)))


@primitive("slice", "xs start stop?", "list")
def _slice(ev, a, n, s):
    """Items from index start up to (not including) stop. `slice(deck, 0, 3)` is the top three."""
    xs = _items(ev, a[0], n)
    return list(xs[_num(ev, a[1], n): _num(ev, a[2], n) if len(a) > 2 else None])


@primitive("index_of", "xs x", "num")
def _index_of(ev, a, n, s):
    """Position of x in a list or zone (0 is the first/top), or -1."""
    xs = _items(ev, a[0], n)
    return xs.index(a[1]) if a[1] in xs else -1


@primitive("abs", "x", "num")
def _abs(ev, a, n, s):
    """Absolute value."""
    return abs(_num(ev, a[0], n))


@primitive("keys", "m", "list")
def _keys(ev, a, n, s):
    """The keys of a map."""
    if type(a[0]) is not dict:
        raise ev.fail(n, "`keys` needs a map")
    return list(a[0])


@primitive("get", "m key default", "any")
def _get(ev, a, n, s):
    """A map's value for key, or the default."""
    if type(a[0]) is not dict:
        raise ev.fail(n, "`get` needs a map")
    return a[0].get(a[1], a[2])


@primitive("text", "x", "str")
def _text(ev, a, n, s):
    """A value as readable text."""
    return show(a[0], ev.rs)


# ------------------------------------------------------------------ players
@primitive("player", "seat", "player")
def _player_at(ev, a, n, s):
    """The player at a seat (0-based, wrapping around). `player(0)` is P1."""
    return Player(_num(ev, a[0], n) % ev.st.nplayers)


@primitive("left_of", "p", "player")
def _left(ev, a, n, s):
    """The next player clockwise (to the left)."""
    return Player((_player(ev, a[0], n) + 1) % ev.st.nplayers)


@primitive("right_of", "p", "player")
def _right(ev, a, n, s):
    """The previous player (to the right)."""
    return Player((_player(ev, a[0], n) - 1) % ev.st.nplayers)


@primitive("turn_order", "p", "list")
def _turn_order(ev, a, n, s):
    """All players clockwise, starting with p."""
    p = _player(ev, a[0], n)
    k = ev.st.nplayers
    return [Player((p + i) % k) for i in range(k)]


@primitive("others", "p", "list")
def _others(ev, a, n, s):
    """All players but p, clockwise from p's left."""
    p = _player(ev, a[0], n)
    k = ev.st.nplayers
    return [Player((p + i) % k) for i in range(1, k)]


@primitive("owner", "c", "player")
def _owner(ev, a, n, s):
    """The player whose zone holds c (also through a card's slot), or none."""
    if type(a[0]) is not Comp:
        raise ev.fail(n, "`owner` needs a component")
    return ev.owner(a[0])


# ------------------------------------------------------------------ components
@primitive("components", "kind_or_item", "list")
def _components(ev, a, n, s):
    """All instances of a kind (`components("card")`) or of an item id (`components("gold_coin")`)."""
    rs = ev.rs
    key = a[0]
    if key in rs.items:
        return [Comp(i) for i in rs.items[key]]
    if key in rs.kinds:
        return [Comp(c.id) for c in rs.components if c.kind == key]
    raise ev.fail(n, f"there is no component kind or item `{key}`")


@primitive("zone_of", "c", "zone")
def _zone_of(ev, a, n, s):
    """The zone that holds c, or none."""
    key = ev.st.loc.get(int(a[0]))
    return Zone(key) if key is not None else None
