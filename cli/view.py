"""Render a player's view (`Game.view(seat)`) as readable text for `meeple play`.

Works from the view data alone (plus static component names from the ruleset), so it can only show
what the seat may see. Everything is generic: zones, counters and components as the ruleset declares them.
"""

from __future__ import annotations

from typing import Any

from meeple.language.model import Ruleset

MAX_NAMES = 15  # long zones are cut to their last items: the most recent usually matter most
BUILTIN_BOX = "box"  # the interpreter's zone for components out of play: shown as a count only


def value(v: Any, rs: Ruleset | None = None, top: bool = True) -> str:
    """An encoded language value (see interpreter.state.encode) as text. A top-level list reads as
    "P1, P2"; nested lists keep their brackets so the structure stays visible."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, list):
        inner = ", ".join(value(x, rs, False) for x in v)
        return inner if top else f"[{inner}]"
    if isinstance(v, dict):
        if "$p" in v:
            return f"P{v['$p'] + 1}"
        if "$c" in v:
            c = v["$c"]
            return rs.components[c].name if rs is not None and 0 <= c < len(rs.components) else f"#{c}"
        if "$z" in v:
            return str(v["$z"])
        if "$m" in v:
            return "{" + ", ".join(f"{value(k, rs, False)}: {value(x, rs, False)}" for k, x in v["$m"]) + "}"
        return str(v)
    return str(v)


def _empty(v: Any) -> bool:
    return v is None or v == [] or v == {"$m": []} or v == {"count": 0}


def _counters(counters: dict[str, Any], rs: Ruleset | None) -> str:
    return ", ".join(f"{k} {value(v, rs)}" for k, v in counters.items())


def component(c: dict, rs: Ruleset | None = None) -> str:
    """One component: its name, then its non-empty counters and slots."""
    if c.get("hidden"):
        return "(face down)"
    parts = [c["name"] + (" (face down)" if c.get("facedown") else "")]
    extras = [f"{k}: {value(v, rs)}" for k, v in (c.get("counters") or {}).items() if not _empty(v)]
    extras += [f"{k}: {zone_inline(z, rs)}" for k, z in (c.get("slots") or {}).items() if not _empty(z)]
    if extras:
        parts.append("[" + "; ".join(extras) + "]")
    return " ".join(parts)


def _grouped(names: list[str]) -> list[str]:
    # "gem, gem, coin" reads better as "gem ×2, coin"; only neighbours group, so order is kept.
    out: list[str] = []
    run = 0
    for i, n in enumerate(names):
        run += 1
        if i + 1 == len(names) or names[i + 1] != n:
            out.append(n if run == 1 else f"{n} ×{run}")
            run = 0
    return out


def zone_inline(z: Any, rs: Ruleset | None = None) -> str:
    if isinstance(z, dict):  # hidden: only the count is visible
        return f"{z.get('count', 0)} hidden"
    if not z:
        return "empty"
    names = _grouped([component(c, rs) for c in z])
    if len(names) > MAX_NAMES:
        return f"{len(z)} items, last: " + ", ".join(names[-MAX_NAMES:])
    return ", ".join(names)


def zone_lines(name: str, z: Any, rs: Ruleset | None, indent: str) -> list[str]:
    """A zone on one line, or one numbered line per component when its components carry details."""
    if isinstance(z, list) and z and any(component(c, rs) != c.get("name") for c in z if not c.get("hidden")) \
            and len(z) <= MAX_NAMES:
        return [f"{indent}{name}:"] + [f"{indent}  {i}. {component(c, rs)}" for i, c in enumerate(z, 1)]
    return [f"{indent}{name}: {zone_inline(z, rs)}"]


def render_view(view: dict, rs: Ruleset | None = None) -> str:
    viewer = view["viewer"]
    head = f"== {view['ruleset']}"
    if view.get("phase"):
        head += f" · phase {view['phase']}"
    head += f" · you are P{viewer + 1} =="
    lines = [head]
    if view["counters"]:
        lines.append("Game: " + _counters(view["counters"], rs))
    for name, z in view["zones"].items():
        if name == BUILTIN_BOX:
            continue
        if _empty(z):
            continue
        lines += zone_lines(name, z, rs, "  ")
    for seat in view["seats"]:
        you = " (you)" if seat["seat"] == viewer else ""
        lines.append(f"{seat['name']}{you}: {_counters(seat['counters'], rs) or '-'}")
        for name, z in seat["zones"].items():
            if not _empty(z):
                lines += zone_lines(name, z, rs, "    ")
    return "\n".join(lines)


def render_scores(scores: list[Any], winners: list[int], you: int | None = None) -> str:
    lines = ["Final scores:"]
    for i, s in enumerate(scores):
        tag = " (you)" if i == you else ""
        star = "  *winner*" if i in winners else ""
        lines.append(f"  P{i + 1}{tag}: {value(s)}{star}")
    names = ", ".join(f"P{w + 1}" + (" (you)" if w == you else "") for w in winners)
    lines.append(("Winner: " if len(winners) == 1 else "Winners (shared): ") + names)
    return "\n".join(lines)
