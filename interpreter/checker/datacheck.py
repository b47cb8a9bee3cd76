"""Checks of a ruleset's data against what its scripts can mean: silent mistakes that would run.

A misspelt attribute on one item (`valeu: 2`) makes that card worth 0; comparing an attribute with a
literal that no item has (`c.type == "wizzard"`) is always false; `reveal` of what only its owner may
see changes nothing; `gain(x, -1)` always fails. Each would run without complaint, so validation
reports it. So does a bot spec in `agents.play` that no agent takes, which would fail only when a
person sits down to play. The codes are listed in docs/language.md §10.

An attribute of a kind is *declared* when it is in the kind's `defaults:` (which also gives its value
to the items that leave it out), in its `attributes:` (names with a description), or given by every
item of the kind. Any other key of an item is reported, with the closest declared name.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from meeple.checker.decls import did_you_mean
from meeple.errors import Problem, UsageError
from meeple.language import ast as A
from meeple.language.agentspec import parse_spec
from meeple.language.model import Ruleset
from meeple.loading.mergenotes import numeric_text, value_kind

RESERVED_ITEM_KEYS = {"id", "name", "count", "on", "options"}


def raw_items(kd: Any) -> list[tuple[Any, dict]]:
    """(position or id, item) for a kind's items: a list in a game, a mapping by id in a variant."""
    items = kd.get("items") if isinstance(kd, dict) else None
    if isinstance(items, list):
        return [(i, it) for i, it in enumerate(items) if isinstance(it, dict)]
    if isinstance(items, dict):
        return [(k, it) for k, it in items.items() if isinstance(it, dict)]
    return []


def declared_attributes(kd: Any) -> tuple[set[str], set[str]]:
    """(declared attribute names, names only the uniformity rule declares) of one kind's raw data."""
    explicit = set(kd.get("defaults") or {}) | set(kd.get("attributes") or {}) if isinstance(kd, dict) else set()
    keys = [set(it) - RESERVED_ITEM_KEYS for _, it in raw_items(kd)]
    uniform = set.intersection(*keys) if keys else set()
    return explicit | uniform, uniform - explicit


def attribute_problems(ck: Any) -> None:
    """C023: an item key that its kind does not declare."""
    raw = ck.rs.raw if isinstance(ck.rs.raw, dict) else {}
    kinds = raw.get("components")
    if not isinstance(kinds, dict):
        return
    seen: set[tuple] = set()  # a key that items share through a YAML anchor is one mistake
    for kind, kd in kinds.items():
        declared, _ = declared_attributes(kd)
        for where, item in raw_items(kd):
            for key in item:
                if key in RESERVED_ITEM_KEYS or key in declared or not isinstance(key, str):
                    continue
                span = ck.locate(("components", kind, "items", where, key), key=True)
                mark = (kind, key, (span.file, span.line, span.col) if span else where)
                if mark in seen:
                    continue
                seen.add(mark)
                without = [str(it.get("id", w)) for w, it in raw_items(kd) if key not in it]
                others = len(raw_items(kd)) - len(without)
                guess = did_you_mean(key, declared | set(ck.rs.kinds[kind].counters if kind in ck.rs.kinds else ()))
                ck.problems.add(
                    "C023", f"`{key}` is not an attribute of `{kind}`: {others} of its {len(raw_items(kd))} "
                    "items give it (not " + ", ".join(f"`{x}`" for x in without[:3])
                    + (", ..." if len(without) > 3 else "") + ") and it is not declared", span,
                    hint=(guess + " " if guess else "") + "an attribute that some items leave out is declared "
                    f"under `components.{kind}.defaults` (with the value for the others) or `attributes`")


def mixed_kind_problems(ck: Any) -> None:
    """W017: one or two items that give an attribute a value of another kind than the kind's other items
    (`value: "2"` among numbers): the rules, written for the others, fail on it at run time."""
    raw = ck.rs.raw if isinstance(ck.rs.raw, dict) else {}
    for kind, kd in (raw.get("components") or {}).items():
        items = raw_items(kd)
        by_place = dict(items)
        for key in sorted({k for _, it in items for k in it if isinstance(k, str)} - RESERVED_ITEM_KEYS):
            kinds = {w: value_kind(it[key]) for w, it in items if key in it and it[key] is not None}
            tally = Counter(kinds.values())
            if len(tally) < 2:
                continue
            usual, n = tally.most_common(1)[0]
            odd = [w for w, k in kinds.items() if k != usual]
            if n < 3 or len(odd) > 2:
                continue  # no clear usual kind: a deliberate mixture
            for w in odd:
                value = by_place[w][key]
                quoted = usual == "a number" and isinstance(value, str) and numeric_text(value)
                ck.problems.add(
                    "W017", f"`{key}` is {kinds[w]} here ({value!r}), and {usual} in the other {n} `{kind}` items "
                    "that give it", ck.locate(("components", kind, "items", w, key)), severity="warning",
                    hint=f"write `{value.strip()}` without quotes" if quoted else
                    f"the rules written for the other items may fail on this one: give it {usual}")


def literal_problems(ex: Any, n: A.Compare) -> None:
    """C024: `c.type == "wizzard"` where no item has that value, so the comparison never holds."""
    ck = ex.ck
    if n.op not in ("==", "!=", "in", "not in"):
        return
    pairs: list[tuple[Any, Any]] = []
    if n.op in ("==", "!="):
        for a, b in ((n.left, n.right), (n.right, n.left)):
            if type(a) is A.Attr and type(b) is A.Str:
                pairs.append((a, b))
    elif type(n.left) is A.Attr and type(n.right) is A.ListLit:
        pairs += [(n.left, s) for s in n.right.items if type(s) is A.Str]
    for attr, lit in pairs:
        name = attr.name
        if name not in ck.attr_values or not _only_attribute(ck, name):
            continue
        values = ck.attr_values[name]
        if lit.value in values:
            continue
        shown = sorted(str(v) for v in values if isinstance(v, str))
        guess = did_you_mean(lit.value, shown)
        if lit.value == "none" and None in values:
            guess = "the value none is written without quotes: `none`"
        ex.add("C024", f"no component has {name} \"{lit.value}\", so this comparison is always "
               f"{'false' if n.op in ('==', 'in') else 'true'}", lit.span,
               hint=guess or ("the values are " + ", ".join(f'"{v}"' for v in shown[:8])
                              + (", ..." if len(shown) > 8 else "") if shown else None))


def _only_attribute(ck: Any, name: str) -> bool:
    """True when `x.name` can only be a component's data attribute (not a counter, zone or built-in)."""
    if name in ck.player_attrs:
        return False
    return all(e[0] == "attribute" for e in ck.comp_attrs.get(name, []))


def amount_problems(ex: Any, n: A.Call) -> None:
    """C025: `gain(x, -1)`: a literal negative amount, which `gain` and `pay` always refuse."""
    if n.func not in ("gain", "pay") or len(n.args) != 2:
        return
    a = n.args[1]
    if type(a) is A.Neg and type(a.operand) is A.Num and a.operand.value > 0:
        other = "pay" if n.func == "gain" else "gain"
        ex.add("C025", f"`{n.func}` takes a non-negative amount, so `{n.func}(..., -{a.operand.value})` always "
               "fails", a.span, hint=f"write `{other}(..., {a.operand.value})`, or `score(...)` for points that "
               "may go below zero")


def reveal_problems(ex: Any, n: A.Call) -> None:
    """W012: `reveal` of a zone (or its contents, or a slot) that only its owner, or nobody, may look
    into (a `backs` pile included): turning components face up there shows them to no one new."""
    if n.func != "reveal" or len(n.args) != 1:
        return
    vis, name = _zone_visibility(ex.ck, n.args[0])
    if vis in ("owner", "hidden", "backs", "top"):
        who = "its owner only" if vis == "owner" else "nobody"
        ex.add("W012", f"`reveal` changes nothing here: `{name}` is a zone that {who} may look into, "
               "face up or not", n.span, severity="warning",
               hint="move the components to a public zone to show them, or `show(x, p)` to one player")


def _zone_visibility(ck: Any, a: Any) -> tuple[str | None, str]:
    t = type(a)
    if t is A.Call and a.func in ("list", "first", "last", "slice") and a.args:
        return _zone_visibility(ck, a.args[0])
    if t is A.Name and a.name in ck.rs.game_zones and a.name not in ck.rs.constants:
        return ck.rs.game_zones[a.name].visibility, a.name
    if t is A.Attr and a.name in ck.rs.player_zones and a.name not in ck.rs.player_counters:
        return ck.rs.player_zones[a.name].visibility, a.name
    if t is A.Attr:  # a component's slot (`c.under`), if every kind with a slot of that name agrees (found by QA)
        seen = {k.slots[a.name].visibility for k in ck.rs.kinds.values() if a.name in k.slots}
        if len(seen) == 1:
            return seen.pop(), a.name
    return None, ""


def play_problems(rs: Ruleset) -> list[Problem]:
    """A003: `agents.play` names a spec that no agent takes (`mcts:1s:guide=2`; the schema only sees a
    string), reported with the spec's own message and hint, where the spec is written."""
    if rs.play is None:
        return []
    try:
        parse_spec(rs.play)
    except UsageError as e:
        p = e.problems[0]
        return [Problem("A003", f"agents.play: {p.message}", rs.spans.get(("agents", "play")), hint=p.hint)]
    return []
