"""What the scripts of a ruleset can name, and the static type of each: built once per `analyze`.

Lookups follow the evaluator's order (evaluator.py `global_value` and `attribute`): a name is a
constant, else a game counter, a game zone, `players`/`nplayers`, or a single item; a component's
attribute comes before its counters, slots and built-in attributes. An entry is (what, type), where
the type of a counter is its key, looked up when read because assignments can widen it.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

from meeple.checker import typesys as ty
from meeple.checker.typesys import T
from meeple.language import ast as A
from meeple.language.builtins import SIGNATURES
from meeple.language.model import Ruleset
from meeple.language.walk import walk

Entry = tuple[str, Any]  # (what it is, T or a counter key)
# Python's names for what Meeple spells differently: newcomers write them first.
PYTHON_NAMES = {"None": "Meeple writes it in lower case: `none`", "True": "Meeple writes it in lower case: `true`",
                "False": "Meeple writes it in lower case: `false`", "null": "the value is written `none`"}
PYTHON_FUNCTIONS = {"len": "`count(xs)` is the number of items", "range": "`between(lo, hi)` includes both "
                    "ends: `range(n)` is `between(0, n - 1)`", "str": "`text(x)` makes text of a value",
                    "print": "`log(text)` writes a line every player sees", "int": "numbers are whole already; "
                    "`x // y` divides", "enumerate": "loop over `between(0, count(xs) - 1)` and index `xs[i]`",
                    "append": "write `xs += [x]` (or `move(c, zone)` for components)",
                    "isinstance": "there are no classes; compare `c.kind == \"card\"`",
                    "random": "`random_pick(xs)` picks from a list with the game's seeded dice",
                    "dict": "write a map literal, `{}`", "set": "`distinct(xs)` drops repeats"}


def did_you_mean(name: str, candidates: Iterable[str], cutoff: float = 0.7) -> str | None:
    m = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=cutoff)
    return f"did you mean `{m[0]}`?" if m else None


def _names(section: Any) -> set[str]:
    return set(section) if isinstance(section, dict) else set()


class Decls:
    """The tables; `Checker` extends this with the per-pass state that counter types read."""

    def __init__(self, rs: Ruleset, extra: set[str], partial: bool) -> None:
        self.rs = rs
        raw = rs.raw if isinstance(rs.raw, dict) else {}
        # with `partial`, a script that failed to parse still defines its name
        self.phase_names = set(rs.phases) | (_names(raw.get("phases")) if partial else set())
        self.proc_names = set(rs.procedures) | (_names(raw.get("procedures")) if partial else set())
        self.builtin_names = set(SIGNATURES)
        self.globals: dict[str, Entry] = {}
        for name in sorted(extra):
            self.globals[name] = ("a name given by the caller", ty.ANY)
        # lowest precedence first: a later section hides an earlier one, as in the evaluator
        for name, item_ids in rs.items.items():
            if len(item_ids) == 1:
                self.globals[name] = ("an item", ty.comp_of(rs.components[item_ids[0]].kind))
        self.globals["nplayers"] = ("the built-in number of players", ty.NUM)
        self.globals["players"] = ("the built-in list of players", ty.list_of(ty.PLAYER))
        for name in rs.game_zones:
            self.globals[name] = ("a game zone", ty.ZONE)
        for name in rs.game_counters:
            self.globals[name] = ("a game counter", ("g", name))
        for name, value in rs.constants.items():
            self.globals[name] = ("a constant", ty.of_value(value))
        self.readonly = {n for n, e in self.globals.items() if e[0] != "a game counter"}

        self.player_attrs: dict[str, Entry] = {"seat": ("built-in attribute", ty.NUM),
                                               "number": ("built-in attribute", ty.NUM),
                                               "name": ("built-in attribute", ty.STR)}
        self.player_attrs.update({n: ("zone", ty.ZONE) for n in rs.player_zones})
        self.player_attrs.update({n: ("counter", ("p", n)) for n in rs.player_counters})

        self.kind_attrs: dict[str, dict[str, Entry]] = {}
        attr_types: dict[str, dict[str, T | None]] = {k: {} for k in rs.kinds}
        seen: set[tuple[str, str]] = set()
        for c in rs.components:
            if (c.kind, c.item) in seen:
                continue  # the copies of an item share its attributes
            seen.add((c.kind, c.item))
            table = attr_types.setdefault(c.kind, {})
            for k, v in c.attrs.items():
                table[k] = ty.join(table.get(k), ty.of_value(v))
        for kind, kd in rs.kinds.items():
            tab: dict[str, Entry] = {
                "name": ("built-in attribute", ty.STR), "kind": ("built-in attribute", ty.STR),
                "id": ("built-in attribute", ty.STR), "owner": ("built-in attribute", ty.PLAYER),
                "zone": ("built-in attribute", ty.ZONE), "facedown": ("built-in attribute", ty.BOOL)}
            tab.update({n: ("slot", ty.ZONE) for n in kd.slots})
            tab.update({n: ("counter", ("k", kind, n)) for n in kd.counters})
            tab.update({n: ("attribute", t or ty.ANY) for n, t in attr_types.get(kind, {}).items()})
            self.kind_attrs[kind] = tab
        self.comp_attrs: dict[str, list[Entry]] = {}
        for tab in self.kind_attrs.values():
            for n, e in tab.items():
                self.comp_attrs.setdefault(n, []).append(e)

        self.attr_values = attribute_values(rs)
        self.counter_init: dict[tuple, T | None] = {}
        for name, d in rs.game_counters.items():
            self.counter_init[("g", name)] = _initial(d.initial)
        for name, d in rs.player_counters.items():
            self.counter_init[("p", name)] = _initial(d.initial)
        for kind, kd in rs.kinds.items():
            for name, d in kd.counters.items():
                self.counter_init[("k", kind, name)] = _initial(d.initial)
        self.ending_procs, self.ending_phases, self.ending_events = _ending(rs)

    def did_you_mean(self, name: str, candidates: Iterable[str]) -> str | None:
        return did_you_mean(name, candidates)

    def name_hint(self, nm: str, local: set[str]) -> str | None:
        rs = self.rs
        if nm in rs.player_counters or nm in rs.player_zones:
            return f"`{nm}` belongs to a player: write `p.{nm}`"
        if nm in PYTHON_NAMES:
            return PYTHON_NAMES[nm]
        if nm in ("self", "owner"):
            return "`self` and `owner` exist only in a component's `on:` handlers and `options:`"
        if nm in rs.kinds:
            return f"`{nm}` is a component kind: use `components(\"{nm}\")`"
        if nm in rs.items:
            return f"there are {len(rs.items[nm])} `{nm}` components: use `components(\"{nm}\")`"
        if nm in self.proc_names:
            return f"`{nm}` is a procedure: call it, `{nm}(...)`"
        if nm in self.phase_names:
            return f"`{nm}` is a phase: run it with `phase {nm}`"
        if nm in self.comp_attrs:
            return f"`{nm}` belongs to components: write `c.{nm}`"
        return did_you_mean(nm, local | set(self.globals)) or (
            "`p` is defined only in `scoring` and `agents`; elsewhere loop: `for p in players:`"
            if nm == "p" else None)

    def readonly_hint(self, name: str) -> str:
        what = self.globals[name][0]
        if what == "a constant":
            return "constants never change: declare a counter under `counters: game:`, or use another name"
        if what == "a game zone":
            return "move components with `move(...)`, or use another name for a variable"
        return "use another name for a variable"


def attribute_values(rs: Ruleset) -> dict[str, set[Any]]:
    """Every value each attribute takes on some item (lists contribute their elements): a comparison
    with a literal outside these is always false (datacheck.py)."""
    out: dict[str, set[Any]] = {}
    for c in rs.components:
        for k, v in c.attrs.items():
            vals = out.setdefault(k, set())
            for x in (v if isinstance(v, list) else [v]):
                if isinstance(x, (str, int, float, bool, type(None))):
                    vals.add(x)
    return out


def _initial(v: Any) -> T | None:
    # `none` is how a counter says "not set yet": its type comes from what scripts assign to it
    return None if v is None else ty.of_value(v)


def _ending(rs: Ruleset) -> tuple[set[str], set[str], set[str]]:
    """Procedures, phases and events whose scripts may run `end_game` (directly or through a call)."""
    procs: set[str] = set()
    phases: set[str] = set()
    events: set[str] = set()

    def ends(root: Any) -> bool:
        for n in walk(root):
            t = type(n)
            if (t is A.EndGame or (t is A.Call and n.func in procs) or (t is A.Phase and n.name in phases)
                    or (t is A.Trigger and n.event in events)):
                return True
        return False

    handlers = list({id(b): (ev, b) for c in rs.components for ev, b in c.on.items()}.values())
    changed = True
    while changed:
        before = len(procs) + len(phases) + len(events)
        procs |= {n for n, p in rs.procedures.items() if n not in procs and ends(p.body)}
        phases |= {n for n, b in rs.phases.items() if n not in phases and ends(b)}
        events |= {ev for ev, b in handlers if ev not in events and ends(b)}
        changed = len(procs) + len(phases) + len(events) != before
    return procs, phases, events
