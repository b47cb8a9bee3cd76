"""Tables that generated code reads instead of asking the generic readers: built once per ruleset.

For an attribute name, `attr_table` lists per component (or per seat) what `x.name` reads, and
`attr_reader` / `counter_keyer` are the per-name readers and writers for every other case; they keep
the reference's order (a component's attribute, counter, slot, then its fixed properties).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeple.language.model import Ruleset
from meeple.runtime.codegen.support import MAX_SEATS, U
from meeple.runtime.data import Comp, Player, Zone
from meeple.runtime.values import show


def shower(rs: Ruleset) -> Callable[[Any], str]:
    def sh(v: Any) -> str:
        return v if type(v) is str else show(v, rs)
    return sh


def attr_reader(rs: Ruleset, name: str) -> Callable[[Any, Any, Any], Any]:
    """`o.name` for one attribute name. What a component's `.name` reads is decided once per component,
    in the reference's order (values.attribute: its printed attribute, counter, slot, then its fixed
    properties), so a read is one table lookup; anything else (an error, a seat past the table) goes to
    the generic reader, which explains it."""
    pcounter = name in rs.player_counters
    pzone = name in rs.player_zones
    suffix = "." + name
    table: list[tuple[int, Any]] = []
    for c in rs.components:
        kind = rs.kinds[c.kind]
        if name in c.attrs:
            table.append((_VALUE, c.attrs[name]))
        elif name in kind.counters:
            table.append((_COUNTER, f"#{c.id}{suffix}"))
        elif name in kind.slots:
            table.append((_VALUE, Zone(f"#{c.id}{suffix}")))
        elif name in ("name", "kind", "id"):
            table.append((_VALUE, {"name": c.name, "kind": c.kind, "id": c.item}[name]))
        elif name in _PLACE:
            table.append((_PLACE[name], None))
        else:
            table.append((_GENERIC, None))
    pkeys = [f"{i}{suffix}" for i in range(MAX_SEATS)]
    pzones = [Zone(k) for k in pkeys]
    pfixed = [{"seat": i, "number": i + 1, "name": f"P{i + 1}"}.get(name, U) for i in range(MAX_SEATS)]

    def read(ev: Any, o: Any, n: Any) -> Any:
        t = type(o)
        if t is Comp:
            what, v = table[o]
            if what == _VALUE:
                return v
            if what == _COUNTER:
                return ev.st.counters[v]
            if what == _FACEDOWN:
                return o in ev.st.facedown
            if what == _ZONE:
                key = ev.st.loc.get(o)
                return Zone(key) if key is not None else None
            if what == _OWNER:
                return ev.owner(o)
        elif t is Player and o < MAX_SEATS:
            if pcounter:
                return ev.st.counters[pkeys[o]]
            if pzone:
                return pzones[o]
            if pfixed[o] is not U:
                return pfixed[o]
        return ev.attribute(o, name, n)
    return read


# What a component's attribute read resolves to (attr_reader).
_VALUE, _COUNTER, _FACEDOWN, _ZONE, _OWNER, _GENERIC = range(6)
_PLACE = {"facedown": _FACEDOWN, "zone": _ZONE, "owner": _OWNER}


def attr_table(rs: Ruleset, prefix: str, name: str) -> list:
    """Per component (CA: attribute value, CC: counter key, CZ: slot zone) or per seat (PC: counter key,
    PZ: zone) what `x.name` reads; U where the generic reader must decide."""
    seats = range(max(MAX_SEATS, rs.max_players))  # a seat is always below the player count
    if prefix in ("PC", "PZ"):
        keys = [f"{i}.{name}" for i in seats]
        return keys if prefix == "PC" else [Zone(k) for k in keys]
    if prefix == "PF":  # a player's fixed properties
        return [{"seat": i, "number": i + 1, "name": f"P{i + 1}"}[name] for i in seats]
    out: list = []
    for c in rs.components:
        kind = rs.kinds[c.kind]
        if prefix == "CA":
            v = c.attrs.get(name, U)
            if v is U and name in ("name", "kind", "id") and name not in kind.counters and name not in kind.slots:
                v = {"name": c.name, "kind": c.kind, "id": c.item}[name]  # fixed properties, after attributes
            out.append(v)
        elif prefix == "CC":
            out.append(f"#{c.id}.{name}" if name in kind.counters and name not in c.attrs else U)
        else:
            out.append(Zone(f"#{c.id}.{name}") if name in kind.slots and name not in c.attrs
                       and name not in kind.counters else U)
    return out


def counter_keyer(rs: Ruleset, name: str) -> Callable[[Any, Any, Any], str]:
    """The counter key that `o.name = ...` writes, for one counter name."""
    suffix = "." + name
    pkeys = [f"{i}{suffix}" for i in range(MAX_SEATS)] if name in rs.player_counters else None
    ckinds = {k for k, kd in rs.kinds.items() if name in kd.counters}
    kinds = [c.kind for c in rs.components]
    ckeys = [f"#{i}{suffix}" for i in range(len(rs.components))] if ckinds else None

    def key(ev: Any, o: Any, n: Any) -> str:
        t = type(o)
        if t is Player and pkeys is not None and o < MAX_SEATS:
            return pkeys[o]
        if t is Comp and ckeys is not None and kinds[o] in ckinds:
            return ckeys[o]
        return ev.counter_key(o, name, n)
    return key


def handler_tables(rs: Ruleset, generated: dict[int, Any]) -> dict[str, list]:
    """Per event, each component's generated handler (`HB_<k>`, by the `id()` of its block), or None
    where it has none: `trigger` then finds a component's handler by its number. A handler that may
    wait for a decision has no function; a trigger that can reach one is run by the frame machine."""
    return {event: [generated.get(id(c.on[event])) if event in c.on else None for c in rs.components]
            for event in {e for c in rs.components for e in c.on}}


def handlers_of(ev: Any, table: list | None, target: Any, n: Any) -> list[tuple[Comp, Any]]:
    """The (component, function) pairs `trigger` runs, in order: ValueOps.handlers by the table. Every
    one is found before any runs, so what a handler moves cannot change which run."""
    comps = ev.triggered(target, n)
    return [] if table is None else [(c, fn) for c in comps if (fn := table[c]) is not None]
