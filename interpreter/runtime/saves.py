"""What a save must satisfy, as data: which ruleset it belongs to, the pending decision as
JSON, and the counters a save must hold. Game.to_json/from_json (game.py) use them."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from meeple.language.model import Ruleset
from meeple.runtime.data import decode, encode
from meeple.runtime.state import GameState


def check_counters(rs: Ruleset, st: GameState) -> None:
    """Every declared counter is present, and number counters hold numbers."""
    expected: dict[str, Any] = {n: d.initial for n, d in rs.game_counters.items()}
    for p in range(st.nplayers):
        expected.update({f"{p}.{n}": d.initial for n, d in rs.player_counters.items()})
    for c in rs.components:
        expected.update({f"#{c.id}.{n}": d.initial for n, d in rs.kinds[c.kind].counters.items()})
    if set(expected) != set(st.counters):
        raise ValueError("the save's counters do not match the ruleset's")
    for key, initial in expected.items():
        if type(initial) is int and type(st.counters[key]) is not int:
            raise ValueError(f"counter `{key}` should hold a number")


def enc_pending(p: Any) -> Any:
    if p is None:
        return None
    return {"players": p["players"], "options": [[s, encode(p["options"][s])] for s in p["options"]],
            "chosen": [[s, i] for s, i in p["chosen"].items()]}


def dec_pending(p: Any) -> Any:
    if p is None:
        return None
    return {"players": [int(x) for x in p["players"]], "options": {int(s): decode(o) for s, o in p["options"]},
            "chosen": {int(s): int(i) for s, i in p["chosen"]}}


def ruleset_digest(rs: Ruleset) -> str:
    """A digest of the ruleset's data: a save only loads into the ruleset it was made with."""
    cached = getattr(rs, "_digest", None)
    if cached is None:
        cached = hashlib.sha256(json.dumps(rs.raw, sort_keys=True, default=str).encode()).hexdigest()[:16]
        rs._digest = cached
    return cached
