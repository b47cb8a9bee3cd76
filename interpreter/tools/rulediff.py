"""What a variant changes in its base, by name: the data behind `meeple diff` and `meeple compare`'s list
of changes (and the web designer's). Both rulesets are compared as loaded and merged, so a variant's deep
merges, additions and removals all show, whatever file they came from. Items are matched by id (never by
list position), phases step by step.
"""

from __future__ import annotations

import difflib
from typing import Any

from meeple.errors import Problem, UsageError

# How deep a path goes before it names one thing ("entity"): constants.workers, components.card.items.port.
_DEPTH = {"constants": 2, "procedures": 2, "phases": 2, "counters": 3, "zones": 3, "scoring": 2, "agents": 2,
          "players": 2}
_ORDER = ("ruleset", "players", "import", "constants", "counters", "zones", "events", "components", "procedures",
          "setup", "phases", "flow", "scoring", "agents")
_SCRIPTS = {"on", "options", "do", "setup", "flow", "final", "score", "greedy", "phases"}


def _items_by_id(data: Any) -> Any:
    """A copy of the ruleset data with item lists keyed by id, so that items match by id."""
    out = dict(data)
    comps = {}
    for kind, kd in (data.get("components") or {}).items():
        kd = dict(kd)
        items = {}
        for i, item in enumerate(kd.get("items") or []):
            key = str(item.get("id", f"#{i}"))
            items[key if key not in items else f"{key}#{i}"] = {"count": 1, **item}  # so 1 -> 2 shows
        kd["items"] = items
        comps[kind] = kd
    out["components"] = comps
    return out


def _entity_depth(path: tuple) -> int:
    if path[0] == "components":
        return 4 if len(path) >= 4 and path[2] == "items" else 2
    return _DEPTH.get(path[0], 1)


def _ordered(path: tuple) -> bool:
    """Whether the order of a mapping's keys is part of the rules: a phase's steps run in order, and
    kinds and their items are numbered in order (a component's id, so a seed's shuffles)."""
    return (len(path) == 2 and path[0] == "phases") or path == ("components",) or \
        (len(path) == 3 and path[0] == "components" and path[2] == "items")


def _walk(a: Any, b: Any, path: tuple, out: list[tuple[tuple, Any, Any]]) -> None:
    """Leaf differences (path, old, new); a missing side is the `_GONE` marker."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            _walk(a.get(k, _GONE), b.get(k, _GONE), path + (k,), out)
        # Found by QA: a variant that removed a step and gave it back unchanged (so last) showed no
        # change, and `compare` refused it as the base's rules, though its every game failed in setup.
        if _ordered(path) and (old := [k for k in a if k in b]) != (new := [k for k in b if k in a]):
            what = "step order" if path[0] == "phases" else "kind order" if len(path) == 1 else "item order"
            out.append(((*path[:2], what), old, new))
    elif a != b:
        out.append((path, a, b))


class _Gone:
    def __repr__(self) -> str:
        return "(none)"


_GONE = _Gone()


def semantic_diff(base: dict, variant: dict) -> list[dict]:
    """Changes grouped by the thing they change, in the order of the base file."""
    leaves: list[tuple[tuple, Any, Any]] = []
    _walk(_items_by_id(base), _items_by_id(variant), (), leaves)
    groups: dict[tuple, dict] = {}
    for path, old, new in leaves:
        if path[0] == "events" and isinstance(old, list) and isinstance(new, list):
            for ev in [e for e in new if e not in old]:
                groups[path + (ev,)] = {"section": "events", "entity": ev, "change": "added", "fields": []}
            for ev in [e for e in old if e not in new]:
                groups[path + (ev,)] = {"section": "events", "entity": ev, "change": "removed", "fields": []}
            continue
        depth = min(_entity_depth(path), len(path))
        key = path[:depth]
        g = groups.setdefault(key, {"section": _section(path), "entity": _name(key), "change": "changed",
                                    "fields": []})
        if len(path) == depth and (old is _GONE or new is _GONE):
            g["change"] = "added" if old is _GONE else "removed"
        field = ".".join(str(p) for p in path[depth:])
        entry: dict[str, Any] = {"field": field or None}
        if old is not _GONE:
            entry["old"] = old
        if new is not _GONE:
            entry["new"] = new
        if _is_script(path) and (isinstance(old, str) or isinstance(new, str)):
            entry["diff"] = _unified(old, new, _name(path))
        g["fields"].append(entry)
    _count_copies(base, variant, groups)
    order = {name: i for i, name in enumerate(_ORDER)}
    return sorted(groups.values(), key=lambda g: (order.get(g["section"], len(order)), "(all items)" not in g["entity"]))


def _count_copies(base: dict, variant: dict, groups: dict[tuple, dict]) -> None:
    """How many components of each kind there are, when a variant changes it (counts matter to play)."""
    for kind in dict.fromkeys(list(base.get("components") or {}) + list(variant.get("components") or {})):
        n = [sum(int(i.get("count", 1)) for i in ((d.get("components") or {}).get(kind) or {}).get("items") or [])
             for d in (base, variant)]
        if n[0] != n[1]:
            groups.setdefault(("components", kind, "total"), {
                "section": "components", "entity": f"{kind} (all items)", "change": "changed",
                "fields": [{"field": "copies", "old": n[0], "new": n[1]}]})


def _name(path: tuple) -> str:
    """A thing's name within its section: `workers`, `player.coins`, `card port` (kind, item id)."""
    if path[0] == "components" and len(path) >= 4 and path[2] == "items":
        return f"{path[1]} {path[3]}" + "".join(f".{p}" for p in path[4:])
    return ".".join(str(p) for p in (path[1:] or path))


def _section(path: tuple) -> str:
    return path[0] if path[0] in _DEPTH or path[0] in ("components", "events", "import", "setup", "flow") \
        else "ruleset"


def _is_script(path: tuple) -> bool:
    return path[0] in ("phases", "setup", "flow") or any(p in _SCRIPTS for p in path[1:])


def _unified(old: Any, new: Any, name: str) -> list[str]:
    a = old.splitlines() if isinstance(old, str) else []
    b = new.splitlines() if isinstance(new, str) else []
    return list(difflib.unified_diff(a, b, f"base {name}", f"variant {name}", lineterm="", n=2))


def rule_changes(base: Any, variant: Any) -> list[dict[str, Any]]:
    """What `meeple diff` shows between two loaded rulesets, but their names and descriptions: an empty
    list when the two play the same rules."""
    return [ch for ch in semantic_diff(base.raw, variant.raw)
            if not (ch["section"] == "ruleset" and ch["entity"] in ("name", "description"))]


def changes_from_base(loaded: list[Any]) -> list[list[dict[str, Any]]]:
    """rule_changes from the base (first) to each ruleset, by position (none for the base itself)."""
    return [[]] + [rule_changes(loaded[0], rs) for rs in loaded[1:]]


def changes_of(base: Any, variant: Any, summary: dict[str, Any],
               changes: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """What a variant changed (as `meeple diff` says it), each with how often the changed part ran in the
    variant's games (from coverage): a change that never runs cannot explain a difference. `changes`:
    rule_changes(base, variant) if already known (`meeple compare` diffs each variant once)."""
    cov = summary.get("coverage") or {}
    counts, procs, games = cov.get("counts") or {}, cov.get("procedure_calls") or {}, max(1, summary["games"])
    out = []
    for ch in rule_changes(base, variant) if changes is None else changes:
        entity, section = ch["entity"], ch["section"]
        ran: dict[str, int] = {}
        held: float | None = None
        if section == "procedures" and entity in procs:
            ran[f"procedure {entity}"] = procs[entity]
        elif section == "phases":
            ran.update({k: v for k, v in counts.items() if k in (f"phase {entity}", f"step {entity}")})
        elif section == "events":
            ran.update({k: v for k, v in counts.items() if k == f"event {entity}"})
        elif section == "components" and " " in entity:
            item = entity.split(" ", 1)[1].split(".")[0]
            ran.update({k: v for k, v in counts.items() if k.startswith((f"effect {item} on ", f"effect {item} option "))})
            # A changed price or count means nothing if no player ever takes the item (a card no bot buys).
            held = (summary.get("items") or {}).get(item, {}).get("held_rate")
        scripts = [f["field"] or "script" for f in ch["fields"] if "diff" in f]
        values = [[f["field"], f.get("old"), f.get("new")] for f in ch["fields"]
                  if "diff" not in f and f["field"] != "description"
                  and not isinstance(f.get("old", f.get("new")), (dict, list))]
        out.append({"section": section, "entity": entity, "change": ch["change"], "scripts": scripts,
                    "values": values[:4], "ran": ran, "games": games, "held": held})
    return out


def same_rules(loaded: list[Any], names: list[str], changes: list[list[dict[str, Any]]] | None = None) -> list[int]:
    """The positions (after the base, first) of the variants with the base's rules: on matched seeds they
    would play the very games of the base, so `meeple compare` and the designer page leave them out.
    When every variant is such, there is nothing to compare (U034). `changes`: each ruleset's
    rule_changes from the base, by position, if already known (the base's own is not read)."""
    changes = changes_from_base(loaded) if changes is None else changes
    same = [k for k in range(1, len(loaded)) if not changes[k]]
    if len(same) == len(loaded) - 1:
        raise UsageError(Problem(
            "U034", f"nothing to compare: {', '.join(names[k] for k in same)} "
                    f"{'has' if len(same) == 1 else 'have'} the same rules as the base {names[0]}, so on matched "
                    "seeds every game would be the base's game",
            hint="give a variant that changes a rule; `meeple diff BASE VARIANT` shows what a variant changes"))
    return same
