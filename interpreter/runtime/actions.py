"""The built-ins that change the game state: moving, shuffling, counters, messages, failing.

These are `pure=False` ("action" in the language reference). `random_pick` lives here although it
moves nothing, because each call advances the game's seeded RNG. The decorators register into
`primitives.REGISTRY` on import, and `primitives` imports this module at its end (after `queries`,
which keeps the registry's order).
"""

from __future__ import annotations

from meeple.runtime.builtins import _comps, _items, _num, _player, _zone, direct_primitive, primitive
from meeple.runtime.chance import NeedChance, identity, moved_picks, pick_identity
from meeple.runtime.data import Comp, Zone
from meeple.runtime.render import text_parts
from meeple.runtime.results import note_change
from meeple.runtime.values import show


@primitive("random_pick")
def _random_pick(ev, a, n, s):
    xs = _items(ev, a[0], n)
    if not xs:
        return None
    if not ev.st.rng.explicit:  # a seeded draw never asks which items are alike
        return xs[ev.st.rng.pick(xs)]
    moved = id(n) in moved_picks(ev.rs)
    return xs[ev.st.rng.pick(xs, lambda x: pick_identity(ev, x, moved))]


# ------------------------------------------------------------------ actions
_COMPS = {Comp}


def _move_many(ev, comps: list, key: str, top: bool) -> bool:
    """Many distinct components at once (a setup moving a whole kind): one pass over each source zone
    instead of a `list.remove` per component, with the same result as moving them one by one."""
    if set(map(type, comps)) != _COMPS or len(moved := set(comps)) != len(comps):
        return False
    st = ev.st
    loc = st.loc
    olds = set(map(loc.get, comps))
    if len(olds) == 1 and None not in olds and len(st.zones[old := next(iter(olds))]) == len(comps):
        st.writable(old).clear()  # the whole of one zone (a pile moved onto a deck): no search
    else:
        olds.discard(None)
        for old in olds:
            z = st.writable(old)
            z[:] = [x for x in z if x not in moved]
    if top:
        st.writable(key)[0:0] = comps[::-1]
    else:
        st.writable(key).extend(comps)
    for c in comps:
        loc[c] = key
    return True


@direct_primitive("move")
def move(ev, n, x, zone, where=None):
    if type(zone) is not Zone:
        _zone(ev, zone, n)  # raises the located error
    st = ev.st
    # `_comps` inlined for its common cases: one component, or a zone (often empty: nothing to do)
    tx = type(x)
    if tx is Comp:
        comps = [x]
    elif tx is Zone:
        comps = st.zones[x.key]
        if not comps:
            return
        comps = comps[:]
    else:
        comps = _comps(ev, x, n)
    top = where == "top"
    key = zone.key
    if len(comps) > 8 and _move_many(ev, comps, key, top):
        return
    # one by one, `writable` inlined (setups and most effects move a few components at a time)
    loc, zones, owned = st.loc, st.zones, st.owned
    for c in comps:
        if type(c) is not Comp:
            raise ev.fail(n, "`move` can only move components")
        old = loc.get(c)
        if old is not None:
            (zones[old] if old in owned else st.writable(old)).remove(c)
        z = zones[key] if key in owned else st.writable(key)
        if top:
            z.insert(0, c)
        else:
            z.append(c)
        loc[c] = key


@direct_primitive("draw")
def draw(ev, n, k, src, to):
    if type(k) is not int:
        _num(ev, k, n)  # raises the located error
    if type(src) is not Zone:
        _zone(ev, src, n)
    if type(to) is not Zone:
        _zone(ev, to, n)
    st = ev.st
    zones, owned = st.zones, st.owned
    taken = zones[src.key][:k]  # zones hold components (Comp)
    if taken:
        # The same as moving them one by one to the bottom of `to`: they are the first of `src` (where
        # `loc` says they are), so they leave it as one slice.
        key = to.key
        del (zones[src.key] if src.key in owned else st.writable(src.key))[:len(taken)]
        (zones[key] if key in owned else st.writable(key)).extend(taken)
        loc = st.loc
        for c in taken:
            loc[c] = key
    return taken


@direct_primitive("shuffle")
def shuffle(ev, n, zone):
    if type(zone) is not Zone:
        _zone(ev, zone, n)
    rng = ev.st.rng
    if not rng.explicit:
        rng.shuffle(ev.st.writable(zone.key))  # a seeded shuffle never asks which items are alike
        return
    pos = rng.pos
    try:
        rng.shuffle(ev.st.writable(zone.key), lambda x: identity(ev, x))
    except NeedChance as need:
        need.at = (n, zone.key, pos)
        raise


@primitive("swap")
def _swap(ev, a, n, s):
    x, y = a
    if type(x) is not Comp or type(y) is not Comp:
        raise ev.fail(n, "`swap` needs two components")
    st = ev.st
    kx, ky = st.loc.get(x), st.loc.get(y)
    if kx is None or ky is None:
        raise ev.fail(n, "`swap` needs components that are in zones")
    zx, zy = st.writable(kx), st.writable(ky)
    ix, iy = zx.index(x), zy.index(y)
    zx[ix], zy[iy] = y, x
    st.loc[x], st.loc[y] = ky, kx


@direct_primitive("reveal")
def reveal(ev, n, x):
    facedown = ev.st.facedown
    if type(x) is Comp:
        facedown.discard(int(x))
        return
    for c in _comps(ev, x, n):
        facedown.discard(int(c))


@direct_primitive("conceal")
def conceal(ev, n, x):
    facedown = ev.st.facedown
    if type(x) is Comp:
        facedown.add(int(x))
        return
    for c in _comps(ev, x, n):
        facedown.add(int(c))


def _counter_op(ev, args, n, scope, fn):
    target = args[0]
    amount = ev.eval(args[1], scope)
    if type(amount) is not int:
        raise ev.fail(n, f"`{n.func}` needs a number of points or coins")
    cur = ev.eval(target, scope)
    if type(cur) is not int:
        raise ev.fail(target, f"`{n.func}` needs a counter as its first argument")
    new = ev.number(n, fn(cur, amount))
    ev.assign(target, new, scope)
    note_change(ev, target, scope, new - cur)  # for the end screen's "where the points came from"


@primitive("gain")
def _gain(ev, a, n, s):
    def f(cur, k):
        if k < 0:
            raise ev.fail(n, f"`gain` of a negative amount ({k}); use `pay` or `score`")
        return cur + k
    _counter_op(ev, a, n, s, f)


@primitive("pay")
def _pay(ev, a, n, s):
    def f(cur, k):
        if k > cur:
            raise ev.fail(n, f"cannot pay {k} from a counter that holds {cur}",
                          hint="guard the option with `when`")
        return cur - k
    _counter_op(ev, a, n, s, f)


@primitive("score")
def _score(ev, a, n, s):
    _counter_op(ev, a, n, s, lambda cur, k: cur + k)


# The log is part of the state, so its size is bounded like everything else: long lines are cut, and
# only the latest lines are kept (views show the last few dozen).
LOG_LINE = 2_000
LOG_KEEP = 10_000


def _append_log(ev, audience: int, text) -> None:
    log = ev.st.log
    if type(text) is str and len(text) > LOG_LINE:  # parts (render.py) are bounded by their holes' texts
        text = text[:LOG_LINE - 1] + "…"
    log.append((audience, text))
    if len(log) > 2 * LOG_KEEP:
        del log[:-LOG_KEEP]


@primitive("log", scoped=True)
def _log(ev, a, n, s):
    if ev.st.quiet:
        return  # nobody reads a quiet game's log (simulations, look-ahead): it keeps no line
    # Kept as parts, so that each seat later reads the line with what it may not see replaced.
    _append_log(ev, -1, text_parts(ev, n.args[0], s))


@primitive("tell")
def _tell(ev, a, n, s):
    # Only `p` reads the line, and telling `p` is the ruleset's deliberate choice to let them know.
    seat = int(_player(ev, a[0], n))
    if not ev.st.quiet:
        _append_log(ev, seat, a[1] if type(a[1]) is str else show(a[1], ev.rs))


@primitive("show")
def _show(ev, a, n, s):
    comps = _comps(ev, a[0], n)
    seat = int(_player(ev, a[1], n))
    if not ev.st.quiet:
        _append_log(ev, seat, "shown: " + (show(comps, ev.rs) or "nothing"))


@primitive("fail")
def _fail(ev, a, n, s):
    raise ev.fail(n, str(a[0]))
