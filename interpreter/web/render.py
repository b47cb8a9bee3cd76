"""Everything a browser is sent about a game is built here, one function per audience.

`seat_payload(game, audience)` is the only place that turns a game into what a seat's page receives: the
websocket, the HTTP state endpoint, the hot-seat screen and the replay viewer all call it. A seat
(`audience` 0..n-1) gets `Game.view(seat)`, which is leak-checked, reshaped for the page: its own legal
actions by position (never the engine's keys, which name component ids), number ranges folded into one
input, sealed decisions marked as such. `PUBLIC` gets what every seat may see; `OMNISCIENT` everything,
for replays of finished games and for bots-only tables.

`ruleset_payload(rs)` is the static part, the same for every game of a ruleset: declarations, the
catalogue of items (name, attributes, description, effect scripts) for hover text, and layout hints.
"""

from __future__ import annotations

from typing import Any

from meeple.language.model import Ruleset
from meeple.runtime import results
from meeple.runtime.data import encode
from meeple.runtime.game import Game
from meeple.runtime.views import PUBLIC, make_view

OMNISCIENT = -2
MIN_RANGE = 4  # a run of at least this many consecutive numbers becomes one number input


def seat_payload(game: Game, audience: int, seats: list[dict] | None = None) -> dict[str, Any]:
    """What `audience` (a seat, PUBLIC or OMNISCIENT) is sent about `game` now. `seats` is the public
    description of who plays each seat (person or bot), shown on the table."""
    # Building labels and prompts runs script statements, which count against the game's runaway guard
    # (state.steps); showing a game must not change it, or a watched game would differ from its replay.
    steps = game.state.steps
    try:
        return _payload(game, audience, seats)
    finally:
        game.state.steps = steps


def _payload(game: Game, audience: int, seats: list[dict] | None) -> dict[str, Any]:
    rs = game.rs
    view = make_view(game, None if audience == OMNISCIENT else audience)
    decision = view.pop("decision", None)
    out: dict[str, Any] = {
        "type": "state",
        "audience": "omniscient" if audience == OMNISCIENT else "public" if audience == PUBLIC else "seat",
        "you": audience if audience >= 0 else None,
        "step": len(game.state.actions),
        "seats": seats or [{"name": f"P{i + 1}", "kind": "seat"} for i in range(game.state.nplayers)],
        "view": _with_items(view, rs),
    }
    if audience >= 0:
        # How many moves this seat has made: a page that sent one greys its menu until a state counts it.
        out["moves"] = sum(1 for a in game.state.actions if a["player"] == audience)
    if decision is not None:
        out["decision"] = _decision(game, decision, audience)
    if game.state.over:
        out["results"] = results.summary(game, None if audience == OMNISCIENT else audience)  # as `play` ends
    return out


def _decision(game: Game, dec: dict, audience: int) -> dict[str, Any]:
    pending = game.state.pending
    out: dict[str, Any] = {"waiting_for": dec["waiting_for"], "chosen": dec["chosen"],
                           "sealed": len(pending["players"]) > 1, "prompt": dec.get("prompt")}
    if audience >= 0 and "actions" in dec:
        out["actions"] = fold_ranges(pending["options"][audience], [a["label"] for a in dec["actions"]])
    elif audience == OMNISCIENT:
        # Omniscient audiences (finished games, bots-only tables) may read every decider's menu.
        out["menus"] = {str(s): [a["label"] for a in game.legal_actions(s)] for s in dec["waiting_for"]}
    return out


def fold_ranges(options: list, labels: list[str]) -> list[dict[str, Any]]:
    """The seat's menu as buttons, in the engine's order; a run of options from one `option ... for n in
    between(a, b)` clause (same clause, one whole-number variable counting up by one) becomes a range."""
    out: list[dict[str, Any]] = []
    i = 0
    while i < len(options):
        j = i
        while j + 1 < len(options) and _next_number(options[j], options[j + 1]):
            j += 1
        if j - i + 1 >= MIN_RANGE:
            out.append({"type": "range", "first": i, "min": options[i][1][0], "max": options[j][1][0],
                        "labels": [labels[i], labels[j]]})
        else:
            out += [{"type": "button", "index": k, "label": labels[k]} for k in range(i, j + 1)]
        i = j + 1
    return out


def _number(opt: list) -> int | None:
    vals = opt[1]
    if len(vals) == 1 and type(vals[0]) is int:
        return vals[0]
    return None


def _next_number(a: list, b: list) -> bool:
    x, y = _number(a), _number(b)
    return x is not None and y == x + 1 and a[0] == b[0] and a[2] == b[2] and a[3] == b[3]


def _with_items(view: dict, rs: Ruleset) -> dict:
    """Each visible component's item id, the key into the ruleset catalogue for hover text: a seat's view
    names components by item already, the view of everything by id."""

    def walk(x: Any) -> Any:
        if isinstance(x, list):
            return [walk(v) for v in x]
        if isinstance(x, dict):
            out = {k: walk(v) for k, v in x.items()}
            if "id" in x and "kind" in x and isinstance(x["id"], int):
                out["item"] = rs.components[x["id"]].item
            return out
        return x

    view["zones"] = walk(view["zones"])
    for seat in view["seats"]:
        seat["zones"] = walk(seat["zones"])
    return view


def ruleset_payload(rs: Ruleset) -> dict[str, Any]:
    """The static description of a ruleset: the same for every game and every seat."""
    raw = rs.raw
    zones_raw = raw.get("zones") or {}
    counters_raw = raw.get("counters") or {}

    def decls(scope: str, decl: dict, source: dict) -> dict[str, Any]:
        # `display` (internal bookkeeping, or a pile drawn as counts) is a hint for front ends
        return {n: {"visibility": d.visibility, "description": _description((source.get(scope) or {}).get(n)),
                    "display": getattr(d, "display", None)}
                for n, d in decl.items()}

    return {
        "type": "ruleset",
        "name": rs.name,
        "description": str(raw.get("description") or ""),
        "zones": {"game": decls("game", rs.game_zones, zones_raw),
                  "player": decls("player", rs.player_zones, zones_raw)},
        "counters": {"game": decls("game", rs.game_counters, counters_raw),
                     "player": decls("player", rs.player_counters, counters_raw)},
        "items": catalogue(rs),
        "layout": raw.get("layout") or {},
    }


def _description(d: Any) -> str:
    return str(d.get("description") or "") if isinstance(d, dict) else ""


def catalogue(rs: Ruleset) -> dict[str, dict[str, Any]]:
    """Item id -> what a player may read about it on the box: name, kind, attributes, description and
    the scripts of its effects and options (the rules are public)."""
    out: dict[str, dict[str, Any]] = {}
    kinds_raw = rs.raw.get("components") or {}
    for c in rs.components:
        if c.item in out:
            continue
        kind_raw = kinds_raw.get(c.kind) or {}
        item_raw = next((it for it in kind_raw.get("items") or [] if isinstance(it, dict) and it.get("id") == c.item),
                        {})
        effects = {**_scripts(item_raw.get("on")), **{f"option: {k}": v for k, v in
                                                       _scripts(item_raw.get("options")).items()}}
        out[c.item] = {"name": c.name, "kind": c.kind, "attrs": {k: encode(v) for k, v in c.attrs.items()},
                       "description": str(item_raw.get("description") or kind_raw.get("description") or ""),
                       "effects": effects, "count": len(rs.items.get(c.item, []))}
    return out


def _scripts(x: Any) -> dict[str, str]:
    if isinstance(x, dict):
        return {str(k): str(v).strip() for k, v in x.items()}
    if isinstance(x, str):
        return {"": x.strip()}
    return {}
