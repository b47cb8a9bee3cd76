"""A seat's view as a fixed-size vector of numbers, laid out from the ruleset's declarations alone.

The adapters for learning libraries (PettingZoo, OpenSpiel) need observations of one fixed size. The
layout depends only on the ruleset and the player count, never on a game in progress, and the numbers
are defined by `game.view(seat)` (`Layout.encode`), so an observation holds nothing the seat may not
see; of what it sees, the backs of face-down components are left out (a `backs` pile's, a `top` deck's,
a face-down card's: the view and the observation strings give them). The adapters call `Layout.observe`, which writes the same numbers straight from the state, deciding
what is visible by the same rules, without building the view at every step.

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
from collections import Counter
from typing import Any

import numpy as np
from meeple.language.model import Ruleset
from meeple.runtime.data import encode
from meeple.runtime.visibility import can_see, visible


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
        # For `observe`, which reads the state itself: each component's item, counter keys and slots.
        self._item = [c.item for c in rs.components]
        self._cids = list(rs.items.values())  # an item's copies, by the item's place in the catalogue
        self._item_k = [self.item_no[c.item] for c in rs.components]
        self._counter_keys = [tuple((f"#{i}.{n}", n) for n in rs.kinds[c.kind].counters)
                              for i, c in enumerate(rs.components)]
        self._slots = [tuple((f"#{i}.{n}", self.places[("#", n)], d.visibility)
                             for n, d in rs.kinds[c.kind].slots.items()) for i, c in enumerate(rs.components)]
        # The counters (state key, cells, visibility, owning seat), and the zones (key, place, visibility,
        # owning seat, size cell) in the view's order: each seat's, then the game's.
        self._counter_walk: list[tuple[str, tuple[int, int], str, int | None]] = [
            (n, cells, "public", None) for n, cells in self.game_counters.items()] + [
            (f"{p}.{n}", self.player_counters[(p, n)], d.visibility, p)
            for p in range(players) for n, d in rs.player_counters.items()]
        self._zone_walk: list[tuple[str, int, str, int | None, int]] = [
            (f"{p}.{n}", self.places[(str(p), n)], d.visibility, p, self.zone_sizes[(str(p), n)])
            for p in range(players) for n, d in rs.player_zones.items()]
        self._zone_walk += [(n, self.places[("", n)], d.visibility, None, self.zone_sizes[("", n)])
                            for n, d in rs.game_zones.items()]

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

    def observe(self, game: Any, viewer: int) -> np.ndarray:
        """`encode(game.view(viewer, texts=False))`, read from the state without building the view: an
        RL environment observes at every step, and the view's dicts were most of its time. The view stays
        the definition (tests/test_observe.py holds this to it at every step of every bundled game), so
        what is visible is decided the same way, by `can_see` and the face-down rule."""
        viewer = game._seat(viewer)  # refused as `view` refuses it (G009), not written out of its block
        st = game.state
        if st.nplayers != self.players:
            raise ValueError(f"a layout for {self.players} players cannot observe a game of {st.nplayers}")
        at: list[int] = [self.me + viewer, self.phase + self.phases.get(st.phase, len(self.phases))]
        vals: list[float] = [1.0, 1.0]
        if st.pending is not None:
            for s in game.deciders:
                at.append(self.deciding + s)
                vals.append(1.0)
        counters, zones, facedown = st.counters, st.zones, st.facedown
        put = self._put
        items, ev = self._item, game._ev

        def name(c: int) -> str:  # as the view names a component a value holds: `?` where it is unseen
            return items[c] if visible(ev, c, viewer) else "?"

        for key, cells, vis, seat in self._counter_walk:
            if vis == "public" or can_see(vis, seat, viewer):
                put(at, vals, cells, counters[key], name)
        # (item, place, position, component) of each component in sight: in the zones, and in their slots
        seen: list[tuple[int, int, int, int]] = []
        nested: list[tuple[int, int, int, int]] = []
        owner = game._ev.owner
        for key, where, vis, seat, size_at in self._zone_walk:
            z = zones[key]
            at.append(size_at)
            vals.append(float(len(z)))
            if z and can_see(vis, seat, viewer):
                self._seen(seen, nested, zones, facedown, owner, viewer, z, where, seat)
        # Copies of an item fill its blocks in order of place and position, as in _components. Only slots
        # can hold two at one position (alike slots of alike components): those in order of their counters
        # too, else as the view lists them (a stable sort).
        if nested:
            keys = [x[:3] for x in nested]
            seen += nested
            counts = Counter(keys)
            if len(counts) < len(keys):
                shared = {k for k, m in counts.items() if m > 1}
                seen.sort(key=lambda x: (*x[:3], self._counters_text(game, x[3], name) if x[:3] in shared else ""))
            else:
                seen.sort()
        else:  # no two copies at one place: the component's id never decides
            seen.sort()
        nplaces, cids_of, counter_keys, blocks = len(self.places), self._cids, self._counter_keys, self.comp
        item, j, cids = -1, 0, cids_of[0] if cids_of else []
        for k, where, i, c in seen:
            if k != item:
                item, j, cids = k, 0, cids_of[k]
            base, own = blocks[cids[j]]
            j += 1
            at += (base + where, base + nplaces, base + nplaces + 1, base + nplaces + 2)
            vals += (1.0, float(i), 1.0 if c in facedown else 0.0, 1.0)
            for key, n in counter_keys[c]:
                put(at, vals, own[n], counters[key], name)
        out = np.zeros(self.size, dtype=np.float32)
        out[at] = vals  # every cell is written once: the blocks do not overlap
        return out

    def _seen(self, into: list, nested: list, zones: dict, facedown: set, owner: Any, viewer: int, z: list,
              where: int, zone_owner: int | None) -> None:
        """`_zone` over the state, for a zone the viewer sees: its components the viewer sees into `into`,
        and theirs, in the slots it sees, into `nested`."""
        all_slots, item_k = self._slots, self._item_k
        for i, c in enumerate(z):
            if c in facedown and zone_owner != viewer:
                continue
            into.append((item_k[c], where, i, c))
            slots = all_slots[c]
            if slots:
                o_i: Any = False  # the owner, looked up once and only for a slot that holds something
                for slot_key, slot_where, slot_vis in slots:
                    inner = zones[slot_key]
                    if inner:
                        if o_i is False:
                            o = owner(c)
                            o_i = None if o is None else int(o)
                        if can_see(slot_vis, o_i, viewer):
                            self._seen(nested, nested, zones, facedown, owner, viewer, inner, slot_where, o_i)

    def _counters_text(self, game: Any, c: int, name: Any) -> str:
        """A component's counters as its view gives them (by item), as `_components` orders copies by them."""
        keys = self._counter_keys[c]
        if not keys:
            return "null"
        counters = game.state.counters
        return json.dumps({n: encode(counters[key], name) for key, n in keys}, sort_keys=True)

    def _put(self, at: list[int], vals: list[float], cells: tuple[int, int], v: Any, name: Any) -> None:
        """`_write` for a state's value: the number `scalar` gives its encoding (a component is named by
        `name`: its item, or `?` if unseen, as in a seat's view)."""
        first, width = cells
        at.append(first)
        t = type(v)
        if t is int:  # most counters: a number, encoded as itself
            vals.append(float(v))
            return
        if t is list and width == 1:  # a list in one cell: its length, whatever its items encode to
            vals.append(float(len(v)))
            return
        vals.append(scalar(encode(v, name), self.item_no))
        if width > 1 and t in (list, tuple):
            for i, x in enumerate(v[:width - 1]):
                at.append(first + 1 + i)
                vals.append(scalar(encode(x, name), self.item_no))

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

