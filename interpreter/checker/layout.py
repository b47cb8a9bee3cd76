"""Layout hints (`layout:`) name zones, counters, items, kinds and attributes of the ruleset; a name that
is none of them is a warning at its place, so that a typo does not silently leave a page unchanged.
The hints' shape is checked by the schema; what they do is described in docs/web.md.
"""

from __future__ import annotations

from typing import Any

from meeple.checker.decls import did_you_mean


def layout_warnings(ck: Any) -> None:
    rs = ck.rs
    layout = rs.raw.get("layout") if isinstance(rs.raw, dict) else None
    if not isinstance(layout, dict):
        return
    zones = set(rs.game_zones) | set(rs.player_zones)
    counters = set(rs.game_counters) | set(rs.player_counters)
    things = set(rs.items) | set(rs.kinds)

    def check(path: tuple, name: Any, allowed: set[str], what: str, key: bool = False) -> None:
        if isinstance(name, str) and name not in allowed:
            ck.problems.add("W040", f"the layout names `{name}`, which is no {what} of this ruleset",
                            ck.locate(path, key=key), hint=did_you_mean(name, allowed), severity="warning")

    for i, name in enumerate(layout.get("order") or []):
        check(("layout", "order", i), name, zones, "zone")
    for i, name in enumerate(layout.get("hide") or []):
        check(("layout", "hide", i), name, zones | counters, "zone or counter")
    for g, group in enumerate(layout.get("groups") or []):
        scope = group.get("scope", "game") if isinstance(group, dict) else "game"
        own = set(rs.player_zones if scope == "player" else rs.game_zones)
        for i, name in enumerate(group.get("zones") or [] if isinstance(group, dict) else []):
            check(("layout", "groups", g, "zones", i), name, own, f"{scope} zone")
    for name in layout.get("icons") or {}:
        check(("layout", "icons", name), name, things, "item or kind", key=True)
    attrs = {a for kd in rs.kinds.values() for a in kd.attrs}
    check(("layout", "colour_attribute"), layout.get("colour_attribute"), attrs, "attribute")
