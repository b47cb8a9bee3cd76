"""The built-in functions and actions of the language: one registry, one signature.

Every entry is a small function `fn(ev, args, node, scope)`: `ev` is the Evaluator (state and
ruleset), `args` the evaluated arguments (or the raw AST for `lazy` entries, which need a place to
write to), `node` the Call node for error locations. The checker reads `params` for argument counts
and the language reference is generated from `doc`, so a new primitive is one decorated function.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .state import Comp, Player, Zone


@dataclass(frozen=True, slots=True)
class Primitive:
    name: str
    fn: Callable[..., Any]
    params: tuple[str, ...]  # parameter names; a trailing "?" marks an optional one
    doc: str
    pure: bool  # no side effects: allowed anywhere
    lazy: bool  # receives AST args (to write to a counter)
    returns: str  # a type name for the checker: num, bool, str, list, player, comp, zone, any, none

    @property
    def min_args(self) -> int:
        return sum(1 for p in self.params if not p.endswith("?"))

    @property
    def max_args(self) -> int:
        return len(self.params)


REGISTRY: dict[str, Primitive] = {}


def primitive(name: str, params: str, returns: str = "any", *, pure: bool = True, lazy: bool = False):
    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        REGISTRY[name] = Primitive(name, fn, tuple(params.split()) if params else (), (fn.__doc__ or "").strip(),
                                   pure, lazy, returns)
        return fn
    return deco


# ------------------------------------------------------------------ helpers
def _items(ev, v, node) -> list:
    if type(v) is Zone:
        return ev.st.zones[v.key]
    if type(v) is list:
        return v
    if type(v) is dict:
        return list(v)
    from .evaluator import type_name

    raise ev.fail(node, f"`{node.func}` needs a list or a zone, not {type_name(v)}")


def _comps(ev, v, node) -> list:
    if type(v) is Zone:
        return list(ev.st.zones[v.key])
    if type(v) is list:
        return v
    if type(v) is Comp:
        return [v]
    from .evaluator import type_name

    raise ev.fail(node, f"`{node.func}` needs a component, a list of them or a zone, not {type_name(v)}")


def _zone(ev, v, node) -> list:
    if type(v) is not Zone:
        from .evaluator import type_name

        raise ev.fail(node, f"`{node.func}` needs a zone, not {type_name(v)}")
    return ev.st.zones[v.key]


def _player(ev, v, node) -> Player:
    if type(v) is not Player:
        from .evaluator import type_name

        raise ev.fail(node, f"`{node.func}` needs a player, not {type_name(v)}")
    return v


def _num(ev, v, node) -> int:
    if type(v) is not int:
        from .evaluator import type_name

        raise ev.fail(node, f"`{node.func}` needs a number, not {type_name(v)}")
    return v


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
    from .evaluator import show

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


@primitive("random_pick", "xs", "any", pure=False)
def _random_pick(ev, a, n, s):
    """A uniformly random item (from the game's seeded RNG), or none if empty."""
    xs = _items(ev, a[0], n)
    return xs[ev.st.rng.below(len(xs))] if xs else None


# ------------------------------------------------------------------ actions
def _place(ev, comp: int, key: str, top: bool) -> None:
    st = ev.st
    old = st.loc.get(comp)
    if old is not None:
        st.zones[old].remove(comp)
    if top:
        st.zones[key].insert(0, comp)
    else:
        st.zones[key].append(comp)
    st.loc[comp] = key


@primitive("move", "x to where?", "none", pure=False)
def _move(ev, a, n, s):
    """Move a component (or a list, or a zone's contents) to the bottom of a zone, or to the top with
    `"top"`. `move(card, p.tableau)`, `move(cubes, stock)`, `move(c, deck, "top")`"""
    zone = a[1]
    _zone(ev, zone, n)
    top = len(a) > 2 and a[2] == "top"
    for c in _comps(ev, a[0], n):
        if type(c) is not Comp:
            raise ev.fail(n, "`move` can only move components")
        _place(ev, c, zone.key, top)


@primitive("draw", "k source to", "list", pure=False)
def _draw(ev, a, n, s):
    """Move the top k components of a zone to another (fewer if it runs out); returns them.
    `got = draw(3, bag, c.slot)`"""
    k = _num(ev, a[0], n)
    src = _zone(ev, a[1], n)
    _zone(ev, a[2], n)
    taken = [Comp(c) for c in src[:k]]
    for c in taken:
        _place(ev, c, a[2].key, False)
    return taken


@primitive("shuffle", "zone", "none", pure=False)
def _shuffle(ev, a, n, s):
    """Shuffle a zone with the game's seeded RNG."""
    ev.st.rng.shuffle(_zone(ev, a[0], n))


@primitive("swap", "a b", "none", pure=False)
def _swap(ev, a, n, s):
    """Exchange the places of two components (each takes the other's zone and position)."""
    x, y = a
    if type(x) is not Comp or type(y) is not Comp:
        raise ev.fail(n, "`swap` needs two components")
    st = ev.st
    kx, ky = st.loc.get(x), st.loc.get(y)
    if kx is None or ky is None:
        raise ev.fail(n, "`swap` needs components that are in zones")
    zx, zy = st.zones[kx], st.zones[ky]
    ix, iy = zx.index(x), zy.index(y)
    zx[ix], zy[iy] = y, x
    st.loc[x], st.loc[y] = ky, kx


@primitive("reveal", "x", "none", pure=False)
def _reveal(ev, a, n, s):
    """Turn components face up."""
    for c in _comps(ev, a[0], n):
        ev.st.facedown.discard(int(c))


@primitive("conceal", "x", "none", pure=False)
def _conceal(ev, a, n, s):
    """Turn components face down: only the owner of the zone (if a player) sees them."""
    for c in _comps(ev, a[0], n):
        ev.st.facedown.add(int(c))


def _counter_op(ev, args, n, scope, fn):
    target = args[0]
    amount = ev.eval(args[1], scope)
    if type(amount) is not int:
        raise ev.fail(n, f"`{n.func}` needs a number of points or coins")
    cur = ev.eval(target, scope)
    if type(cur) is not int:
        raise ev.fail(target, f"`{n.func}` needs a counter as its first argument")
    ev.assign(target, fn(cur, amount), scope)


@primitive("gain", "counter amount", "none", pure=False, lazy=True)
def _gain(ev, a, n, s):
    """Add a non-negative amount to a counter. `gain(p.coins, 2)`"""
    def f(cur, k):
        if k < 0:
            raise ev.fail(n, f"`gain` of a negative amount ({k}); use `pay` or `score`")
        return cur + k
    _counter_op(ev, a, n, s, f)


@primitive("pay", "counter amount", "none", pure=False, lazy=True)
def _pay(ev, a, n, s):
    """Take an amount from a counter; it is a rules error if there is not enough. `pay(p.coins, 3)`"""
    def f(cur, k):
        if k > cur:
            raise ev.fail(n, f"cannot pay {k} from a counter that holds {cur}",
                          hint="guard the option with `when`")
        return cur - k
    _counter_op(ev, a, n, s, f)


@primitive("score", "counter amount", "none", pure=False, lazy=True)
def _score(ev, a, n, s):
    """Add points, which may be negative and may take the counter below zero. `score(p.points, -4)`"""
    _counter_op(ev, a, n, s, lambda cur, k: cur + k)


@primitive("log", "text", "none", pure=False)
def _log(ev, a, n, s):
    """Write a line every player sees in the game log."""
    from .evaluator import show

    ev.st.log.append((-1, a[0] if type(a[0]) is str else show(a[0], ev.rs)))


@primitive("tell", "p text", "none", pure=False)
def _tell(ev, a, n, s):
    """Write a line only player p sees."""
    from .evaluator import show

    ev.st.log.append((int(_player(ev, a[0], n)), a[1] if type(a[1]) is str else show(a[1], ev.rs)))


@primitive("show", "x p", "none", pure=False)
def _show(ev, a, n, s):
    """Show components to player p only (e.g. a hand, to prove what is not in it)."""
    from .evaluator import show

    comps = _comps(ev, a[0], n)
    ev.st.log.append((int(_player(ev, a[1], n)), "shown: " + (show(comps, ev.rs) or "nothing")))


@primitive("fail", "text", "none", pure=False)
def _fail(ev, a, n, s):
    """Stop with a rules error: for states the ruleset says cannot happen."""
    raise ev.fail(n, str(a[0]))


def reference_table() -> str:
    """The Markdown table of built-ins for docs/language.md (kept current by tests/test_docs.py)."""
    rows = ["| function | kind | what |", "|---|---|---|"]
    for name in sorted(REGISTRY):
        p = REGISTRY[name]
        params = ", ".join(x.rstrip("?") + ("?" if x.endswith("?") else "") for x in p.params)
        doc = " ".join(p.doc.split()).replace("|", "\\|")
        rows.append(f"| `{name}({params})` | {'query' if p.pure else 'action'} | {doc} |")
    return "\n".join(rows)


if __name__ == "__main__":  # python -m interpreter.primitives: refresh the table in docs/language.md
    import re
    from pathlib import Path

    doc = Path(__file__).resolve().parent.parent / "docs" / "language.md"
    text = doc.read_text(encoding="utf-8")
    text = re.sub(r"(<!-- begin primitives -->\n).*?(\n<!-- end primitives -->)",
                  lambda m: m.group(1) + reference_table() + m.group(2), text, flags=re.DOTALL)
    doc.write_text(text, encoding="utf-8")
