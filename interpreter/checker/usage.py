"""Checks of definitions (duplicate ids, clashing names, handlers of unknown events) and warnings about
what is never used: phases never reached, procedures never called, events never raised, constants,
counters, zones and component kinds that no script refers to.

Problems about definitions are located with `ck.locate(yaml_path, key=...)` when the loader gives
it, else with the coarser spans that the Ruleset keeps.
"""

from __future__ import annotations

from typing import Any

from meeple.checker.datacheck import (
    RESERVED_ITEM_KEYS,
    attribute_problems,
    declared_attributes,
    mixed_kind_problems,
    raw_items,
)
from meeple.checker.decls import did_you_mean
from meeple.checker.exprcheck import RootInfo
from meeple.errors import Span


def _at(ck: Any, path: tuple, fallback: Span | None = None, key: bool = True) -> Span | None:
    return ck.locate(path, key=key) or fallback


def definition_problems(ck: Any) -> None:
    rs, add = ck.rs, ck.problems.add
    for c_ev, span in _handler_events(ck):
        if c_ev not in rs.events:
            add("C006", f"`{c_ev}` is not a declared event", span,
                hint=ck.did_you_mean(c_ev, rs.events) or "declare it under `events:`")
    _duplicate_items(ck)
    attribute_problems(ck)
    mixed_kind_problems(ck)
    for kind, kd in rs.kinds.items():
        for name in kd.back:
            if name not in kd.attrs:
                add("C026", f"`{name}` is printed on the back of `{kind}`, but its items have no such attribute",
                    _at(ck, ("components", kind, "back"), kd.span), hint=ck.did_you_mean(name, kd.attrs) or
                    "`back` lists attributes that everyone sees even when the component is face down")
    for name, span, where in ck.readonly_assigns:
        what = ck.globals[name][0]
        if name in ck.used_names:
            add("C019", f"cannot assign to `{name}`: it is {what}", span,
                hint=f"this only makes a local variable in {where}; " + ck.readonly_hint(name))
        else:
            add("W010", f"this local variable hides {what} with the same name, `{name}`", span,
                hint="use another name", severity="warning")
    # Names that another definition hides: the evaluator looks constants up first, then game
    # counters, then game zones, then built-ins; a player's counters before their zones.
    order = [("constants", rs.constants, "a constant"), ("counters.game", rs.game_counters, "a game counter"),
             ("zones.game", rs.game_zones, "a game zone")]
    raw = rs.raw if isinstance(rs.raw, dict) else {}
    for i, (section, names, what) in enumerate(order):
        for name in names:
            for section2, names2, what2 in order[i + 1:]:
                if name in names2:
                    add("C016", f"`{name}` is defined twice: as {what} and as {what2}",
                        _at(ck, tuple(section2.split(".")) + (name,), getattr(names2[name], "span", None)),
                        hint=f"{what2.replace('a ', 'the ', 1)} can never be used; rename one of them")
            if name in ("players", "nplayers") and name in _own(raw, section):
                add("C016", f"`{name}` is a built-in name and cannot be {what}",
                    _at(ck, tuple(section.split(".")) + (name,)), hint="rename it")
    for name in rs.player_counters:
        if name in rs.player_zones:
            add("C016", f"`{name}` is defined twice: as a player counter and as a player zone",
                _at(ck, ("zones", "player", name), rs.player_zones[name].span),
                hint="the zone can never be used; rename one of them")
    for name in _own(raw, "procedures"):
        if name in ck.builtin_names:
            add("C016", f"the procedure `{name}` has the name of a built-in function, so it is never called",
                _at(ck, ("procedures", name), rs.procedures[name].span if name in rs.procedures else None),
                hint="rename the procedure")
    for kind, kd in rs.kinds.items():
        for name in kd.slots:
            if name in kd.counters or name in kd.attrs:
                add("C016", f"`{name}` is both a slot and a counter or attribute of `{kind}`",
                    _at(ck, ("components", kind, "slots", name), kd.span),
                    hint="the slot can never be used; rename one of them")
        for name in kd.counters:
            if name in kd.attrs:
                add("C016", f"`{name}` is both a counter and an attribute of `{kind}`",
                    _at(ck, ("components", kind, "counters", name), kd.span),
                    hint="the counter can never be read; rename one of them")


def _own(raw: dict, section: str) -> dict:
    """The names a section of this file defines (not of imported libraries)."""
    data: Any = raw
    for part in filter(None, section.split(".")):
        data = data.get(part) if isinstance(data, dict) else None
    return data if isinstance(data, dict) else {}


def _handler_events(ck: Any):
    """(event, where) for every `on:` and `options:` key, from the YAML so the key can be shown."""
    kinds = _own(ck.rs.raw if isinstance(ck.rs.raw, dict) else {}, "components")
    if all(isinstance(kd, dict) and isinstance(kd.get("items", []), list) for kd in kinds.values()):
        for kind, kd in kinds.items():
            places = [("components", kind)] + [("components", kind, "items", i)
                                               for i in range(len(kd.get("items") or []))]
            for place in places:
                data = _own(kd, "") if len(place) == 2 else kd["items"][place[3]]
                for hook in ("on", "options"):
                    for ev in _own(data, hook) if isinstance(data, dict) else {}:
                        yield ev, _at(ck, place + (hook, ev))
        return
    seen: set[int] = set()  # a variant's items (a mapping): use the parsed scripts' spans
    for c in ck.rs.components:
        for ev, blk in c.on.items():
            if id(blk) not in seen:
                seen.add(id(blk))
                yield ev, blk.span
        for ev, opts in c.options.items():
            for o in opts:
                if id(o) not in seen:
                    seen.add(id(o))
                    yield ev, o.span


def _duplicate_items(ck: Any) -> None:
    rs = ck.rs
    kinds = _own(rs.raw if isinstance(rs.raw, dict) else {}, "components")
    first: dict[str, tuple[str, Span | None]] = {}
    for kind, kd in kinds.items():
        items = kd.get("items") if isinstance(kd, dict) else None
        if not isinstance(items, list):
            continue  # a variant's items are a mapping by id: unique by construction
        own_ids = {str(it["id"]) for it in items if isinstance(it, dict) and "id" in it}
        for i, item in enumerate(items):
            if isinstance(item, dict) and "id" not in item and len(items) > 1:
                # Without an id an item is named after its kind, which suits a kind of one item only:
                # two would look like copies of one item, and `components(kind)` would mean just them.
                ck.problems.add("C015", f"this item of `{kind}` has no `id`: a kind of several items needs one on "
                                "each", _at(ck, ("components", kind, "items", i), None, key=False),
                                hint=f"give it an id, such as `id: {kind}_{i + 1}`")
            if not isinstance(item, dict) or "id" not in item:
                continue
            item_id = str(item["id"])
            span = _at(ck, ("components", kind, "items", i, "id"), None, key=False)
            if item_id in first:
                other_kind, other = first[item_id]
                where = f"line {other.line}" if other else "above"
                ck.problems.add("C015", f"the item id `{item_id}` is used twice", span,
                                hint=f"first used at {where} (kind `{other_kind}`); ids must be unique")
            else:
                first[item_id] = (kind, span)
                if item_id in kinds and (item_id != kind or len(own_ids) > 1):
                    ck.problems.add("C015", f"the item id `{item_id}` is also the name of a component kind",
                                    span, hint=f"`components(\"{item_id}\")` would mean only this item; "
                                    "rename one of them")


# ---------------------------------------------------------------- warnings
def _unread_attributes(ck: Any, warn: Any) -> None:
    """W014: an item attribute that no script reads and that is a near spelling of one they do read. In a
    variant, an item given `cots: 6` for `cost: 6` adds an attribute and plays the base's price; nothing else
    says so, since printed attributes that only the table shows are never read either."""
    kinds = ck.rs.raw.get("components") if isinstance(ck.rs.raw, dict) else None
    for kind, kd in (kinds or {}).items():
        declared = declared_attributes(kd)[0]  # one that is not is C023's (attribute_problems)
        read = ({k for _, it in raw_items(kd) for k in it} | declared) & ck.used_attrs
        unread = declared - ck.used_attrs - RESERVED_ITEM_KEYS
        for where, item in raw_items(kd):
            for key in [k for k in item if k in unread]:
                unread.discard(key)  # once per attribute, at the first item that has it
                hint = near_miss(key, read)
                if hint:
                    warn("W014", f"`{key}` of `{kind}` is never read",
                         ck.locate(("components", kind, "items", where, key), key=True), hint=hint)


def near_miss(name: str, used: Any) -> str | None:
    """"did you mean ...?" naming the used name an unused one is most likely a misspelling of: a variant
    that misspells what it means to replace adds something new that nothing runs, and plays the base's.
    Stricter than the checker's own suggestions, since here a warning may hang on it."""
    return did_you_mean(name, used, cutoff=0.75)


def usage_warnings(ck: Any, roots: list[RootInfo]) -> None:
    rs = ck.rs
    raw = rs.raw if isinstance(rs.raw, dict) else {}

    def warn(code: str, message: str, span: Span | None, hint: str | None = None) -> None:
        ck.problems.add(code, message, span, hint=hint, severity="warning")

    reached = _reached_phases(ck, roots)
    named = _all_phase_refs(ck)  # once: per unreached phase it made thousands of phases quadratic
    for name in rs.phases:
        if name not in reached:
            why = "" if name not in named else ": only scripts that never run name it"
            warn("W001", f"the phase `{name}` is never run{why}", rs.spans.get(("phase", name)),
                 hint=near_miss(name, reached) or f"run it with `phase {name}` in `flow`")
    # A library (`library: NAME`) is written for the rulesets that import it: checked on its own, its
    # procedures and constants are rightly unused.
    library = "library" in raw
    for name in [] if library else _own(raw, "procedures"):
        if name in rs.procedures and name not in ck.used_procs:
            warn("W002", f"the procedure `{name}` is never called", rs.procedures[name].span,
                 hint=near_miss(name, ck.used_procs & rs.procedures.keys()))
    for ev, span in rs.events.items():
        if ev not in ck.triggered and ev not in ck.offered:
            warn("W003", f"the event `{ev}` is never triggered or offered", span,
                 hint=f"raise it with `trigger {ev} on ...` or `options {ev} from ...`")
    for name in [] if library else _own(raw, "constants"):
        if name not in ck.used_names:
            warn("W004", f"the constant `{name}` is never used", _at(ck, ("constants", name)),
                 hint=near_miss(name, ck.used_names & rs.constants.keys()))
    for scope, decls, used in (("game", rs.game_counters, ck.used_names), ("player", rs.player_counters,
                                                                             ck.used_attrs)):
        for name in _own(raw, f"counters.{scope}"):
            if name not in used:
                warn("W005", f"the {scope} counter `{name}` is never used", decls[name].span,
                     hint=near_miss(name, used & decls.keys()))
    for scope, decls, used in (("game", rs.game_zones, ck.used_names), ("player", rs.player_zones,
                                                                         ck.used_attrs)):
        for name in _own(raw, f"zones.{scope}"):
            if name not in used and name in decls:
                warn("W006", f"the {scope} zone `{name}` is never used", decls[name].span,
                     hint=near_miss(name, used & decls.keys()))
    for kind, kd in rs.kinds.items():
        for section, names, what in (("counters", kd.counters, "counter"), ("slots", kd.slots, "slot")):
            for name in names:
                if name not in ck.used_attrs:
                    warn("W005" if what == "counter" else "W006", f"the {what} `{name}` of `{kind}` is never used",
                         _at(ck, ("components", kind, section, name), kd.span))
    _unread_attributes(ck, warn)
    _unused_kinds(ck, warn)
    for name, ids in rs.items.items():
        if len(ids) == 1 and name in ck.globals and ck.globals[name][0] != "an item":
            warn("W009", f"the item `{name}` cannot be named in scripts: {ck.globals[name][0]} has the same name",
                 _item_span(ck, name) or rs.components[ids[0]].span,
                 hint=f"rename the item, or use `first(components(\"{name}\"))`")


def _item_span(ck: Any, item_id: str) -> Span | None:
    for kind, kd in _own(ck.rs.raw if isinstance(ck.rs.raw, dict) else {}, "components").items():
        items = kd.get("items") if isinstance(kd, dict) else None
        for i, item in enumerate(items if isinstance(items, list) else []):
            if isinstance(item, dict) and str(item.get("id")) == item_id:
                return _at(ck, ("components", kind, "items", i, "id"), key=False)
    return None


def _unused_kinds(ck: Any, warn: Any) -> None:
    rs = ck.rs
    if ck.dynamic_components or "box" in ck.used_names:
        return  # a computed `components(x)`, or a script that takes from `box`: any kind may be used
    named = {rs.components[ids[0]].kind for name, ids in rs.items.items() if name in ck.used_names}
    for kind, kd in rs.kinds.items():
        if kind not in ck.used_kinds and kind not in named and any(c.kind == kind for c in rs.components):
            warn("W008", f"the components of `{kind}` never leave the box: no script names them",
                 kd.span, f"put them in play in `setup`, like `move(components(\"{kind}\"), ...)`")


def _all_phase_refs(ck: Any) -> set[str]:
    return {p for refs in ck.refs.values() for p in refs.phases}


def _reached_phases(ck: Any, roots: list[RootInfo]) -> set[str]:
    """Phases run from setup, flow or scoring, through phases, procedures and triggered handlers."""
    rs = ck.rs
    by_phase = {id(b): n for n, b in rs.phases.items()}
    proc_root = {n: id(p.body) for n, p in rs.procedures.items()}
    phase_root = {n: id(b) for n, b in rs.phases.items()}
    handlers: dict[str, list[int]] = {}
    hooks: dict[str, list[int]] = {}
    for c in rs.components:
        for ev, b in c.on.items():
            handlers.setdefault(ev, []).append(id(b))
        for ev, opts in c.options.items():
            hooks.setdefault(ev, []).extend(id(o) for o in opts)
    statuses = [k.status for k in rs.kinds.values()]
    entries = (rs.setup, rs.flow, rs.final, rs.score, rs.greedy, rs.value, *rs.features, *rs.tiebreak,
               *statuses)
    starts = [id(r) for r in entries if r is not None]
    seen: set[int] = set()
    todo = list(starts)
    while todo:
        key = todo.pop()
        if key in seen:
            continue
        seen.add(key)
        refs = ck.refs.get(key)
        if refs is None:
            continue
        todo += [phase_root[p] for p in refs.phases if p in phase_root]
        todo += [proc_root[p] for p in refs.procs if p in proc_root]
        for ev in refs.events:
            todo += handlers.get(ev, [])
        for ev in refs.hooks:
            todo += hooks.get(ev, [])
    return {by_phase[k] for k in seen if k in by_phase}
