"""A ruleset's vocabulary for designers (`meeple show`): the names scripts can use, with what the
YAML says about them, without reading the whole file.

`vocabulary` lists constants, counters, zones, events, component kinds (attributes, counters, slots,
items), procedures and phases; `entry` looks one name up and returns its data and its scripts as
written. Both return plain data (JSON-ready) from the merged YAML, so variants show what they merge to.
"""

from __future__ import annotations

from typing import Any

from meeple.checker.datacheck import RESERVED_ITEM_KEYS, declared_attributes
from meeple.language.model import Ruleset

SCRIPT_KEYS = ("on", "options")


def _items(kd: Any) -> list[dict]:
    items = kd.get("items") if isinstance(kd, dict) else None
    if isinstance(items, dict):
        return [{"id": k, **v} for k, v in items.items() if isinstance(v, dict)]
    return [it for it in items or [] if isinstance(it, dict)]


def _desc(v: Any) -> str:
    return str(v.get("description") or "") if isinstance(v, dict) else ""


def _decls(section: Any) -> list[dict]:
    """Counters or zones of one scope: name, initial value or visibility, description."""
    out = []
    for name, v in (section or {}).items():
        d = {"name": name, "description": _desc(v)}
        if isinstance(v, dict):
            d.update({k: v[k] for k in ("initial", "visibility") if k in v})
        elif v is not None:
            d["initial"] = v
        out.append(d)
    return out


def vocabulary(rs: Ruleset) -> dict[str, Any]:
    raw = rs.raw if isinstance(rs.raw, dict) else {}
    kinds = []
    for kind, kd in (raw.get("components") or {}).items():
        declared, _ = declared_attributes(kd)
        defaults = (kd or {}).get("defaults") or {}
        described = (kd or {}).get("attributes") or {}
        attrs = [{"name": a, "default": defaults.get(a), "description": str(described.get(a) or ""),
                  "declared_by": "defaults" if a in defaults else "attributes" if a in described else "every item"}
                 for a in sorted(declared)]
        items: list[dict[str, Any]] = [{"id": str(it.get("id", kind)), "name": str(it.get("name", it.get("id", kind))),
                  "count": int(it.get("count", 1)),
                  "effects": sorted({f"{h} {ev}" for h in SCRIPT_KEYS for ev in (it.get(h) or {})})}
                 for it in _items(kd)]
        kinds.append({"kind": kind, "description": _desc(kd), "attributes": attrs,
                      "counters": sorted((kd or {}).get("counters") or {}),
                      "slots": sorted((kd or {}).get("slots") or {}), "items": items,
                      "copies": sum(int(i["count"]) for i in items)})
    procs = []
    for name, p in rs.procedures.items():
        spec = (raw.get("procedures") or {}).get(name)
        procs.append({"name": name, "params": list(p.params), "description": _desc(spec)})
    return {
        "name": rs.name, "players": [rs.min_players, rs.max_players], "description": str(raw.get("description") or ""),
        "constants": [{"name": k, "value": v} for k, v in rs.constants.items()],
        "counters": {scope: _decls((raw.get("counters") or {}).get(scope)) for scope in ("game", "player")},
        "zones": {scope: _decls((raw.get("zones") or {}).get(scope)) for scope in ("game", "player")},
        "events": [{"name": ev, "handled_by": sorted({c.item for c in rs.components if ev in c.on or ev in c.options})}
                   for ev in rs.events],
        "components": kinds,
        "procedures": procs,
        "phases": [{"name": n, "steps": list(rs.phase_steps.get(n, {}))} for n in rs.phases],
    }


def entry(rs: Ruleset, name: str) -> dict[str, Any] | None:
    """What one name is, with its data and scripts as written: an item, a kind, a procedure, a phase,
    a constant, a counter, a zone or an event. None if the ruleset has no such name."""
    raw = rs.raw if isinstance(rs.raw, dict) else {}
    comps = raw.get("components") or {}
    for kind, kd in comps.items():
        for it in _items(kd):
            if str(it.get("id")) == name:
                data = dict((kd or {}).get("defaults") or {})
                data.update({k: v for k, v in it.items() if k not in RESERVED_ITEM_KEYS})
                scripts = {f"{h} {ev}": str(text) for src in (kd, it) for h in SCRIPT_KEYS
                           for ev, text in ((src or {}).get(h) or {}).items()}
                return {"what": "item", "name": name, "kind": kind, "title": str(it.get("name", name)),
                        "count": int(it.get("count", 1)), "attributes": data, "scripts": scripts}
    if name in comps:
        return {"what": "component kind", **next(k for k in vocabulary(rs)["components"] if k["kind"] == name)}
    procs = raw.get("procedures") or {}
    if name in rs.procedures:
        spec = procs.get(name)
        body = spec if isinstance(spec, str) else (spec or {}).get("do", "")
        return {"what": "procedure", "name": name, "params": list(rs.procedures[name].params),
                "description": _desc(spec), "scripts": {"do": str(body or "(from an imported library)")}}
    phases = raw.get("phases") or {}
    if name in phases:
        v = phases[name]
        return {"what": "phase", "name": name,
                "scripts": {k: str(t) for k, t in v.items()} if isinstance(v, dict) else {"script": str(v)}}
    if name in rs.constants:
        return {"what": "constant", "name": name, "value": rs.constants[name]}
    for section in ("counters", "zones"):
        for scope in ("game", "player"):
            for d in _decls((raw.get(section) or {}).get(scope)):
                if d["name"] == name:
                    return {"what": f"{scope} {section[:-1]}", **d}
    if name in rs.events:
        return {"what": "event", "name": name,
                "handled_by": sorted({c.item for c in rs.components if name in c.on or name in c.options})}
    return None


def names(rs: Ruleset) -> list[str]:
    """Every name `entry` knows, for did-you-mean."""
    v = vocabulary(rs)
    out = [i["id"] for k in v["components"] for i in k["items"]] + [k["kind"] for k in v["components"]]
    out += [p["name"] for p in v["procedures"]] + [p["name"] for p in v["phases"]] + list(rs.constants)
    out += [d["name"] for sec in ("counters", "zones") for scope in ("game", "player") for d in v[sec][scope]]
    return out + list(rs.events)
