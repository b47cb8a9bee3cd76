"""A seat's view as a fixed-size vector of numbers, laid out from the ruleset's declarations alone.

The adapters for learning libraries (PettingZoo, OpenSpiel) need observations of one fixed size. The
layout depends only on the ruleset and the player count, never on a game in progress, and the numbers
are read from `game.view(seat)`, so an observation holds exactly what the seat may see.

Layout, in order (docs/interop.md gives the same table):

| block | size | what |
|---|---|---|
| me | players | one-hot: the observing seat |
| deciding | players | 1 for each seat that must decide now |
| phase | phases + 2 | one-hot: no phase yet, each declared phase in order, final scoring |
| game counters | per public counter | its value (see below) |
| player counters | players x counters | each seat's counter, 0 when hidden from the viewer |
| zone sizes | game zones + players x player zones | how many components each holds (counts are public) |
| components | components x (places + 3 + counters) | for each component the viewer can see: a one-hot of where it is (each game zone, each seat's zone, each slot name), its position in that zone, 1 if face down, 1 (seen), its counters; all 0 when unseen. The copies of one item fill their blocks in order of place and position, so the vector never tells which copy is which |

A counter's value: a number as itself, true/false as 1/0, none as 0, a player as seat + 1, a component
as its item's place in the ruleset's catalogue + 1 (a seat's view names components by item), a text
as 0, a map by its size. A list counter takes one cell for its length, plus one cell per item of its
declared initial value (a 3x3 board declared as nine numbers takes ten cells).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
from meeple.language.model import Ruleset


def scalar(v: Any, item_no: dict[str, int]) -> float:
    """One number for a value encoded for a seat (runtime/views names a component by its item);
    `item_no` numbers the items."""
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, dict):
        if "$p" in v:
            return float(v["$p"] + 1)
        if "$c" in v:
            return float(item_no.get(v["$c"], -1) + 1)
        if "$m" in v:
            return float(len(v["$m"]))
        return 0.0
    if isinstance(v, list):
        return float(len(v))
    return 0.0


def _width(initial: Any) -> int:
    return 1 + len(initial) if isinstance(initial, list) else 1


def _write(out: np.ndarray, cells: tuple[int, int], v: Any, item_no: dict[str, int]) -> None:
    at, width = cells
    out[at] = scalar(v, item_no)
    if width > 1 and isinstance(v, list):
        for i, x in enumerate(v[:width - 1]):
            out[at + 1 + i] = scalar(x, item_no)


class Layout:
    """Where each piece of a view goes in the vector, for one ruleset and player count."""

    def __init__(self, rs: Ruleset, players: int) -> None:
        self.rs, self.players = rs, players
        self.item_no = {item: i for i, item in enumerate(rs.items)}
        at = 0

        def take(n: int) -> int:
            nonlocal at
            at += n
            return at - n

        self.me = take(players)
        self.deciding = take(players)
        self.phases = {"": 0, **{name: i + 1 for i, name in enumerate(rs.phases)}}
        self.phase = take(len(rs.phases) + 2)
        self.game_counters = {n: (take(_width(d.initial)), _width(d.initial))
                              for n, d in rs.game_counters.items() if d.visibility == "public"}
        self.player_counters = {(p, n): (take(_width(d.initial)), _width(d.initial))
                                for p in range(players) for n, d in rs.player_counters.items()}
        self.zone_sizes = {("", n): take(1) for n in rs.game_zones}
        self.zone_sizes.update({(str(p), n): take(1) for p in range(players) for n in rs.player_zones})
        slot_names = sorted({s for k in rs.kinds.values() for s in k.slots})
        places = [("", n) for n in rs.game_zones] + [(str(p), n) for p in range(players) for n in rs.player_zones]
        places += [("#", s) for s in slot_names]
        self.places = {pl: i for i, pl in enumerate(places)}
        self.comp: list[tuple[int, dict[str, tuple[int, int]]]] = []
        for c in rs.components:
            counters = rs.kinds[c.kind].counters
            base = take(len(places) + 3)
            self.comp.append((base, {n: (take(_width(d.initial)), _width(d.initial)) for n, d in counters.items()}))
        self.size = at

    def encode(self, view: dict) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.float32)
        out[self.me + view["viewer"]] = 1.0
        for s in view.get("decision", {}).get("waiting_for", []):
            out[self.deciding + s] = 1.0
        out[self.phase + self.phases.get(view["phase"], len(self.phases))] = 1.0
        for n, v in view["counters"].items():
            if n in self.game_counters:
                _write(out, self.game_counters[n], v, self.item_no)
        seen: list = []
        for seat in view["seats"]:
            p = seat["seat"]
            for n, v in seat["counters"].items():
                _write(out, self.player_counters[(p, n)], v, self.item_no)
            for n, z in seat["zones"].items():
                self._zone(out, (str(p), n), z, seen)
        for n, z in view["zones"].items():
            self._zone(out, ("", n), z, seen)
        self._components(out, seen)
        return out

    def _zone(self, out: np.ndarray, place: tuple[str, str], z: Any, seen: list | None = None) -> None:
        """Zone sizes, and the visible components of the zone (and of their slots) into `seen`."""
        if place[0] != "#":
            out[self.zone_sizes[place]] = z["count"] if isinstance(z, dict) else len(z)
        if isinstance(z, dict) or seen is None:
            return
        for i, c in enumerate(z):
            if "item" in c:
                seen.append((self.places[place], i, c))
                for s, inner in c.get("slots", {}).items():
                    self._zone(out, ("#", s), inner, seen)

    def _components(self, out: np.ndarray, seen: list) -> None:
        """Copies of one item are interchangeable, and which copy went where can depend on what the
        viewer cannot see: the blocks of an item's copies are filled in order of place and position,
        never by component id."""
        by_item: dict[str, list] = {}
        for where, i, c in seen:
            by_item.setdefault(c["item"], []).append((where, i, c))
        nplaces = len(self.places)
        for item, copies in by_item.items():
            if len({(w, i) for w, i, _ in copies}) < len(copies):  # copies at one position of alike slots
                copies.sort(key=lambda x: (x[0], x[1], json.dumps(x[2].get("counters"), sort_keys=True)))
            else:  # the same order, without writing out counters (a view has dozens of components)
                copies.sort(key=lambda x: (x[0], x[1]))
            for cid, (where, i, c) in zip(self.rs.items[item], copies):
                base, counters = self.comp[cid]
                out[base + where] = 1.0
                out[base + nplaces] = float(i)
                out[base + nplaces + 1] = 1.0 if c.get("facedown") else 0.0
                out[base + nplaces + 2] = 1.0
                for n, v in c.get("counters", {}).items():
                    _write(out, counters[n], v, self.item_no)

