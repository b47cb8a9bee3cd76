"""Text for `meeple play`: a seat's view (`Game.view(seat)`), its menu, the end screen, `info NAME`.

Works from the view data alone (plus static component names and display hints from the ruleset), so it
can only show what the seat may see. Everything is generic: zones, counters and components as the ruleset
declares them. Lines are wrapped at the terminal's width between words, never inside one.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

from meeple.language.model import Ruleset
from meeple.runtime import results

MAX_NAMES = 15  # long zones are cut to their last items: the most recent usually matter most
BUILTIN_BOX = "box"  # the interpreter's zone for components out of play: not shown
MIN_RANGE = 5  # this many options differing only by consecutive numbers are shown as one line


def wrap(text: str, width: int = 80, indent: str = "  ") -> str:
    return textwrap.fill(text, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)


def value(v: Any, rs: Ruleset | None = None, top: bool = True) -> str:
    """An encoded language value (see runtime.data.encode) as text. A top-level list reads as
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
            c = v["$c"]  # an item in a seat's view (`?` if it cannot see it), an id in the view of everything
            if c == "?":
                return "(hidden)"
            if isinstance(c, str):
                return rs.components[rs.items[c][0]].name if rs is not None and c in rs.items else c
            return rs.components[c].name if rs is not None and 0 <= c < len(rs.components) else f"#{c}"
        if "$z" in v:
            return str(v["$z"])
        if "$m" in v:
            return "{" + ", ".join(f"{value(k, rs, False)}: {value(x, rs, False)}" for k, x in v["$m"]) + "}"
        return str(v)
    return str(v)


def display(rs: Ruleset | None, section: str, scope: str, name: str) -> str | None:
    """A counter's or zone's display hint from the ruleset (`display: internal`), if any."""
    if rs is None:
        return None
    decls = {("counters", "game"): rs.game_counters, ("counters", "player"): rs.player_counters,
             ("zones", "game"): rs.game_zones, ("zones", "player"): rs.player_zones}[(section, scope)]
    decl = decls.get(name)
    return decl.display if decl is not None else None


def _empty(v: Any) -> bool:
    return v is None or v == [] or v == {"$m": []} or v == {"count": 0}


def _counters(counters: dict[str, Any], rs: Ruleset | None, scope: str) -> str:
    # A flag reads as its name when set and is left out when not: "final no" tells nothing.
    return ", ".join(k if v is True else f"{k} {value(v, rs)}" for k, v in counters.items()
                     if display(rs, "counters", scope, k) != "internal" and v is not False)


def component(c: dict, rs: Ruleset | None = None) -> str:
    """One component: its name, then its non-empty counters and slots."""
    if c.get("hidden"):  # what its kind prints on the back, if anything (`back`), is all that shows
        back = ", ".join(f"{k} {value(v, rs)}" for k, v in (c.get("back") or {}).items())
        return f"(face down: {back})" if back else "(face down)"
    parts = [c["name"] + (" (face down)" if c.get("facedown") else "")]
    if c.get("status"):
        parts.append(f"({c['status']})")
    extras = [f"{k}: {value(v, rs)}" for k, v in (c.get("counters") or {}).items()
              if not _empty(v) and v is not False and v != 0]  # a component's zero is its resting state
    extras += [f"{k}: {zone_inline(z, rs)}" for k, z in (c.get("slots") or {}).items() if not _empty(z)]
    if extras:
        parts.append("[" + "; ".join(extras) + "]")
    return " ".join(parts)


def _grouped(names: list[str], counts: bool = False) -> list[str]:
    # "gem, gem, coin" reads better as "gem ×2, coin"; only neighbours group, so order is kept, unless
    # the zone is a pile of identical things (`display: counts`), where only how many of each matter.
    if counts:
        tally: dict[str, int] = {}
        for n in names:
            tally[n] = tally.get(n, 0) + 1
        return [f"{n} ×{k}" for n, k in sorted(tally.items())]
    out: list[str] = []
    run = 0
    for i, n in enumerate(names):
        run += 1
        if i + 1 == len(names) or names[i + 1] != n:
            out.append(n if run == 1 else f"{n} ×{run}")
            run = 0
    return out


def zone_inline(z: Any, rs: Ruleset | None = None, counts: bool = False) -> str:
    if isinstance(z, dict):  # hidden: only the count is visible, and on a `top` pile the top one's back
        return f"{z.get('count', 0)} hidden" + (f", the top one {component(z['top'], rs)}" if z.get("top") else "")
    if not z:
        return "empty"
    names = _grouped([component(c, rs) for c in z], counts)
    if len(names) > MAX_NAMES:
        return f"{len(z)} items, last: " + ", ".join(names[-MAX_NAMES:])
    return ", ".join(names)


def zone_lines(name: str, z: Any, rs: Ruleset | None, indent: str, hint: str | None = None) -> list[str]:
    """A zone on one line, or one line per component (lettered, so the letters never look like option
    numbers) when its components carry details."""
    counts = hint == "counts"
    if not counts and isinstance(z, list) and z and len(z) <= MAX_NAMES \
            and any(component(c, rs) != c.get("name") for c in z if not c.get("hidden")):
        return [f"{indent}{name}:"] + [f"{indent}  - {component(c, rs)}" for c in z]
    return [f"{indent}{name}: {zone_inline(z, rs, counts)}"]


def render_view(view: dict, rs: Ruleset | None = None, width: int = 80, recent: int = 0) -> str:
    viewer = view["viewer"]
    head = f"== {view['ruleset']}"
    if view.get("phase"):
        head += f" · {view['phase']}"
    head += f" · you are P{viewer + 1} =="
    lines = [head]
    game_counters = _counters(view["counters"], rs, "game")
    if game_counters:
        lines.append("Game: " + game_counters)
    for name, z in view["zones"].items():
        hint = display(rs, "zones", "game", name)
        if name == BUILTIN_BOX or _empty(z) or hint == "internal":
            continue
        lines += zone_lines(name, z, rs, "  ", hint)
    for seat in view["seats"]:
        you = " (you)" if seat["seat"] == viewer else ""
        lines.append(f"{seat['name']}{you}: {_counters(seat['counters'], rs, 'player') or '-'}")
        for name, z in seat["zones"].items():
            hint = display(rs, "zones", "player", name)
            if not _empty(z) and hint != "internal":
                lines += zone_lines(name, z, rs, "    ", hint)
    if recent and view.get("log"):
        lines.append("Recently:")
        lines += [f"  · {t}" for t in view["log"][-recent:]]
    return "\n".join(wrap(line, width, " " * (len(line) - len(line.lstrip()) + 4)) for line in lines)


# ------------------------------------------------------------------ menus
def number_ranges(labels: list[str]) -> list[dict]:
    """Runs of at least MIN_RANGE options whose labels differ only in one number counting up by one
    ("Bid 0", "Bid 1", ...): each {first option index, count, low, high, template}."""
    split = [re.split(r"(-?\d+)", label) for label in labels]
    out: list[dict] = []
    i = 0
    while i < len(labels):
        j, pos = i, None
        while j + 1 < len(labels):
            a, b = split[j], split[j + 1]
            diff = [k for k in range(len(a)) if len(a) == len(b) and a[k] != b[k]]
            if len(a) != len(b) or len(diff) != 1 or diff[0] % 2 == 0 or (pos is not None and diff[0] != pos) \
                    or int(b[diff[0]]) != int(a[diff[0]]) + 1:
                break
            pos = diff[0]
            j += 1
        if pos is not None and j - i + 1 >= MIN_RANGE:
            tpl = split[i][:]
            low, high = int(split[i][pos]), int(split[j][pos])
            tpl[pos] = "N"
            out.append({"first": i, "count": j - i + 1, "low": low, "high": high, "template": "".join(tpl)})
            i = j + 1
        else:
            i += 1
    return out


def menu_lines(labels: list[str], ranges: list[dict], width: int = 80) -> list[str]:
    starts = {r["first"]: r for r in ranges}
    out: list[str] = []
    i = 0
    while i < len(labels):
        r = starts.get(i)
        if r is not None:
            out.append(wrap(f"  {i + 1:>2}-{i + r['count']}) {r['template']} for N from {r['low']} to "
                            f"{r['high']}: type =N", width, "        "))
            i += r["count"]
            continue
        out.append(wrap(f"  {i + 1:>2}) {labels[i]}", width, "       "))
        i += 1
    return out


# ------------------------------------------------------------------ the end
def render_end(game: Any, you: int | None = None, width: int = 80) -> str:
    """Ranking with places, scores and tie-breaks, where each player's points came from, and the winner."""
    res = results.summary(game, you)
    tb = res["tiebreaks"]
    lines = ["Final ranking:"]
    for r in res["ranking"]:
        s = r["seat"]
        tag = " (you)" if s == you else ""
        extra = "".join(f", {t} {v}" for t, v in zip(tb, r["tiebreaks"]))
        star = "  *winner*" if s in res["winners"] else ""
        lines.append(f"  {r['place']}. P{s + 1}{tag}: score {r['score']}{extra}{star}")
    if res["tiebreak_used"]:
        lines.append(wrap(f"Tie-break applied: {', '.join(tb[:res['tiebreak_used']])} (the leaders were tied on "
                          "score).", width))
    if res["breakdown"] is not None:
        lines.append(f"Where the {', '.join(res['counters'])} came from:")
        for s, row in enumerate(res["breakdown"]):
            parts = [f"{src} {n:+d}" for src, n in row]
            lines.append(wrap(f"  P{s + 1}: " + ("; ".join(parts) or "nothing"), width, "      "))
    winners = res["winners"]
    names = ", ".join(f"P{w + 1}" + (" (you)" if w == you else "") for w in winners)
    lines.append(("Winner: " if len(winners) == 1 else "Winners (shared): ") + names)
    return "\n".join(lines)


def render_scores(scores: list[Any], winners: list[int], you: int | None = None) -> str:
    """Bare totals, for callers without a game (kept for tools that print results)."""
    lines = ["Final scores:"]
    for i, s in enumerate(scores):
        tag = " (you)" if i == you else ""
        star = "  *winner*" if i in winners else ""
        lines.append(f"  P{i + 1}{tag}: {value(s)}{star}")
    names = ", ".join(f"P{w + 1}" + (" (you)" if w == you else "") for w in winners)
    lines.append(("Winner: " if len(winners) == 1 else "Winners (shared): ") + names)
    return "\n".join(lines)


# ------------------------------------------------------------------ info NAME
def info_text(rs: Ruleset, name: str, width: int = 80) -> str:
    """What the ruleset says about a component (by name or id), a kind, a zone or a counter."""
    if not name:
        return "Give a name: i NAME (a component, zone or counter)."
    key = name.lower()
    out: list[str] = []
    kinds = rs.raw.get("components") or {}
    for kind, kd in kinds.items():
        if not isinstance(kd, dict):
            continue
        if kind.lower() == key and kd.get("description"):
            out.append(wrap(f"{kind} (a kind of component): {kd['description']}", width))
        found = [item for item in kd.get("items") or [] if isinstance(item, dict)
                 and key in (str(item.get("name", "")).lower(), str(item.get("id", "")).lower())]
        if found:
            out.append(_item_text(kind, kd, _merged(found), width))
    for section in ("zones", "counters"):
        for scope, decls in (rs.raw.get(section) or {}).items():
            for n, d in (decls or {}).items():
                if n.lower() == key:
                    desc = d.get("description") if isinstance(d, dict) else None
                    what = f"a {'player' if scope == 'player' else 'game'} {section[:-1]}"
                    out.append(wrap(f"{n} ({what}): {desc or 'no description'}", width))
    if not out:
        return f"Nothing is called {name!r}. Try a name shown on the board."
    return "\n".join(dict.fromkeys(out))  # copies of one item are described once


def _merged(items: list[dict]) -> dict:
    """Items of one name (a card printed once per season) as one: differing values listed together."""
    out: dict = {}
    for item in items:
        for k, v in item.items():
            seen = out.setdefault(k, [])
            if v not in seen:
                seen.append(v)
    return {k: vs[0] if len(vs) == 1 else (", ".join(map(str, vs)) if k != "on" and k != "options" else vs[0])
            for k, vs in out.items()}


def _item_text(kind: str, kd: dict, item: dict, width: int) -> str:
    lines = [f"{item.get('name', item.get('id'))} ({kind})"]
    if kd.get("description"):
        lines.append(wrap(f"  {kd['description']}", width, "  "))
    for k, v in item.items():
        if k in ("id", "name", "count"):
            continue
        if isinstance(v, dict):  # handlers and options: the scripts as written
            for event, script in v.items():
                lines.append(f"  {k} {event}:")
                lines += [f"    {s}" for s in str(script).rstrip().splitlines()]
        else:
            lines.append(wrap(f"  {k}: {value(v) if not isinstance(v, str) else v}", width, "    "))
    return "\n".join(lines)
