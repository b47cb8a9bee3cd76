"""Text for one seat: labels, log lines and prompts in which hidden values read as what that seat sees.

Every piece of text a seat is shown comes from a script expression: an option's label, a `log(...)`
line, a prompt. The expression is evaluated hole by hole (`"Add {c.name} face down"` has one hole),
and for each hole the engine notes what it *mentions*: every component that any sub-expression
evaluates to, and every non-public counter it reads. A seat that cannot see all of a hole's mentions
reads a placeholder instead ("a hidden card", "a hidden amount"). That is decided by the engine, not by
the ruleset author's care, so a label like "Add {c.name} face down" cannot leak the card to the others.

Text is kept as *parts*: plain strings, and `[text, seats, placeholder]` for a hole that only `seats`
may read. Parts are plain JSON, so log lines keep them in the state and are rendered per viewer later.
The kind of a hidden component (card, cube...) counts as public: hidden zones hold one kind in practice,
and the placeholder names it.
"""

from __future__ import annotations

from typing import Any

from meeple.language import ast as A
from meeple.language.model import Ruleset
from meeple.language.walk import children
from meeple.runtime.data import Comp, Player, Zone, key_owner
from meeple.runtime.values import show
from meeple.runtime.visibility import seers

Parts = list  # of str | [text, seats (list of int), placeholder]
Evaluator = Any  # runtime.evaluator.Evaluator (or the compiled one); named in words to keep imports simple


# ------------------------------------------------------------------ what a hole mentions
_SKIP = (A.Num, A.Str, A.Const)


def subnodes(rs: Ruleset, expr: Any) -> list:
    """The sub-expressions of a hole that `_mentions` evaluates one by one (the generated engine compiles
    each of them), leaving out those that read a variable of a comprehension inside the hole: they cannot
    be evaluated on their own, and the comprehension, which is evaluated, covers them. (Found by
    profiling the OpenSpiel adapter, whose games are narrated: each of them raised an error and searched
    for a name it might have meant, a tenth of a narrated game's time in a bundled game.) Cached in the ruleset,
    with the hole itself: a cache keyed by id() alone once answered for holes of rulesets that were
    gone, whose ids new nodes had taken (a hole's mentions missed)."""
    cache = rs.derived()
    key = ("subnodes", id(expr))
    hit = cache.get(key)
    if hit is not None and hit[0] is expr:
        return hit[1]
    found: list = []

    def walk(n: Any, bound: frozenset[str]) -> set[str]:
        """Appends n's evaluable sub-expressions to `found` (in preorder) and returns the names n reads
        that a comprehension around it, inside the hole, binds."""
        at = len(found)
        keep = not isinstance(n, _SKIP)
        if keep:
            found.append(n)
        if isinstance(n, A.Name):
            reads = {n.name} & bound
        elif isinstance(n, A.Comp):  # its iterable is read outside the comprehension, the rest inside
            inner = bound | {n.var}
            item = walk(n.expr, inner)
            reads = walk(n.iter, bound) | ((item | (walk(n.cond, inner) if n.cond is not None else set())) - {n.var})
        else:
            reads = set()
            for x in children(n):
                reads |= walk(x, bound)
        if keep and reads:
            found[at] = None  # reads a comprehension's variable: covered by the comprehension
        return reads
    walk(expr, frozenset())
    found = [n for n in found if n is not None]
    cache[key] = (expr, found)
    return found


def _comps_in(v: Any, out: set[int], depth: int = 0) -> None:
    t = type(v)
    if t is Comp:
        out.add(int(v))
    elif t is Zone and type(owner := key_owner(v.key)) is Comp:  # a slot is shown by its component's name
        out.add(int(owner))
    elif depth < 4 and t is list:
        for x in v:
            _comps_in(x, out, depth + 1)
    elif depth < 4 and t is dict:
        for k, x in v.items():
            _comps_in(k, out, depth + 1)
            _comps_in(x, out, depth + 1)


def _comp_items(ev: Evaluator, comp: A.Comp, scope: dict, out: set[int], depth: int = 0) -> None:
    """Every item a comprehension's variable takes is a mention: the sub-expressions that read it are
    evaluated with each item (found by QA: `{sum(x.value for x in p.hand)}` showed the total of a hidden
    hand, since the comprehension's value holds no component and its iterable is a zone). So are those of
    comprehensions inside it, whose iterables may read that variable."""
    try:
        items = ev.iterate(ev.eval(comp.iter, scope), comp.iter)
    except Exception:  # noqa: BLE001 - as in _mentions: it reads a variable bound further out
        return
    inner = _inner_comps(ev.rs, comp) if depth < 4 else []
    for item in items:
        _comps_in(item, out)
        for c in inner:
            _comp_items(ev, c, {**scope, comp.var: item}, out, depth + 1)


def _inner_comps(rs: Ruleset, comp: A.Comp) -> list[A.Comp]:
    """The comprehensions in `comp`'s item and condition, outermost only. Cached in the ruleset as
    `subnodes` is (a narrated game renders the same holes at every decision)."""
    cache = rs.derived()
    key = ("inner comps", id(comp))
    hit = cache.get(key)
    if hit is not None and hit[0] is comp:
        return hit[1]
    found: list[A.Comp] = []
    todo: list[Any] = [comp.expr] + ([comp.cond] if comp.cond is not None else [])
    while todo:
        n = todo.pop()
        if type(n) is A.Comp:
            found.append(n)
        else:
            todo.extend(children(n))
    cache[key] = (comp, found)
    return found


def _mentions(ev: Evaluator, expr: Any, scope: dict) -> tuple[set[int], list[list[int]]]:
    """The components a hole's sub-expressions evaluate to, and the seat lists of non-public counters it reads.
    A sub-expression that cannot be evaluated on its own (a comprehension's variable) is covered by the
    enclosing expression, which is evaluated too."""
    rs = ev.rs
    comps: set[int] = set()
    counters: list[list[int]] = []
    for n in subnodes(rs, expr):
        try:
            v = ev.eval(n, scope)
        except Exception:  # noqa: BLE001, S112 - see the docstring: out-of-scope parts are covered by their parent
            continue
        _comps_in(v, comps)
        t = type(n)
        if t is A.Comp:
            _comp_items(ev, n, scope, comps)
        elif t is A.Attr:
            decl = rs.player_counters.get(n.name)
            if decl is not None and decl.visibility != "public":
                try:
                    obj = ev.eval(n.obj, scope)
                except Exception:  # noqa: BLE001
                    obj = None
                if type(obj) is Player:
                    counters.append([int(obj)] if decl.visibility == "owner" else [])
        elif t is A.Name and n.name not in scope:
            decl = rs.game_counters.get(n.name)
            if decl is not None and decl.visibility != "public":
                counters.append([])
    return comps, counters


def placeholder(rs: Ruleset, comps: set[int]) -> str:
    if not comps:
        return "a hidden amount"
    kinds = {rs.components[c].kind for c in comps}
    kind = kinds.pop().replace("_", " ") if len(kinds) == 1 else "component"
    if len(comps) == 1:
        return f"a hidden {kind}"
    return f"{len(comps)} hidden {kind}" + ("" if kind.endswith("s") else "s")


def raw_parts(ev: Evaluator, expr: Any, scope: dict) -> list:
    """An expression's text with, for each hole, what it mentions: str or (text, comps, counter seat lists).
    `settle` turns it into parts once it is known who sees those components."""
    if type(expr) is A.Interp:
        return [p if type(p) is str else _raw_hole(ev, p, scope) for p in expr.parts]
    if type(expr) is A.Str:
        return [expr.value]
    return [_raw_hole(ev, expr, scope)]


def _raw_hole(ev: Evaluator, expr: Any, scope: dict) -> str | tuple:
    v = ev.eval(expr, scope)
    text = v if type(v) is str else show(v, ev.rs)
    comps, counters = _mentions(ev, expr, scope)
    return (text, comps, counters) if comps or counters else text


def settle(ev: Evaluator, raw: list) -> Parts:
    """Parts from raw parts, with each hole readable by the seats that see all it mentions *now*."""
    n = ev.st.nplayers
    out: Parts = []
    for p in raw:
        if type(p) is str:
            out.append(p)
            continue
        text, comps, counters = p
        seats = set(range(n))
        for c in comps:
            seats &= set(seers(ev, c))
        for s in counters:
            seats &= set(s)
        out.append(text if len(seats) == n else [text, sorted(seats), placeholder(ev.rs, comps)])
    return out


def parts(ev: Evaluator, expr: Any, scope: dict) -> Parts:
    return settle(ev, raw_parts(ev, expr, scope))


def text_parts(ev: Evaluator, expr: Any, scope: dict) -> str | Parts:
    """What a log line stores: plain text when every seat may read all of it, else its parts."""
    ps = parts(ev, expr, scope)
    if all(type(p) is str for p in ps):
        return "".join(ps)
    return ps


def render(payload: str | Parts, viewer: int | None) -> str:
    """Text as `viewer` reads it (`None`: the whole truth, for tools that see everything)."""
    if type(payload) is str:
        return payload
    out = []
    for p in payload:
        if type(p) is str:
            out.append(p)
        elif viewer is None or viewer in p[1]:
            out.append(p[0])
        else:
            out.append(p[2])
    return "".join(out)


# ------------------------------------------------------------------ saved log lines
NOTE = -2  # log audience of engine notes (results.py): never shown to a seat
# Log audience of a quiet game's lines in saves made when quiet games still kept them (they keep none
# now): never shown to a seat.
QUIET = -3


def log_entry(audience: int, t: Any) -> Any:
    """A saved log line, checked: an engine note, plain text, or parts. Anything else is a corrupt save."""
    return _log_note(t) if audience == NOTE else _log_text(t)


def _log_note(t: Any) -> list:
    """An engine note (results.py): [counter key, change, source (text or parts), component or -1].
    Saves written before notes named their component hold three items: the source is then text."""
    if isinstance(t, list) and len(t) == 3:
        t = [*t, -1]
    if not (isinstance(t, list) and len(t) == 4 and isinstance(t[0], str) and type(t[1]) is int
            and type(t[3]) is int):
        raise ValueError("a note in the log must be [counter, change, source, component]")
    return [t[0], t[1], _log_text(t[2]), t[3]]


def _log_text(t: Any) -> Any:
    """A saved log line: plain text, or parts (render.py) whose holes are [text, seats, placeholder]."""
    if isinstance(t, str):
        return t
    if not isinstance(t, list):
        raise ValueError("a log line must be text or a list of parts")  # noqa: TRY004 - a corrupt save
    out: list = []
    for p in t:
        if isinstance(p, str):
            out.append(p)
        elif isinstance(p, list) and len(p) == 3 and isinstance(p[0], str) and isinstance(p[2], str) \
                and isinstance(p[1], list) and all(type(x) is int for x in p[1]):
            out.append([p[0], list(p[1]), p[2]])
        else:
            raise ValueError("a log line's parts must be text or [text, seats, placeholder]")
    return out


def log_tail(log: list, viewer: int | None, n: int) -> list[str]:
    """The last `n` lines of a game's log that `viewer` may read, as they read them. `None` reads every
    line meant for a seat, each private one marked with the seat it was for (engine notes and quiet
    lines, audiences below -1, are for no one)."""
    out: list[str] = []
    for a, t in reversed(log):
        if len(out) >= n:
            break
        if a == -1 or a == viewer:
            out.append(render(t, viewer))
        elif viewer is None and a >= 0:
            out.append(f"(to P{a + 1}) {render(t, None)}")
    return out[::-1]
