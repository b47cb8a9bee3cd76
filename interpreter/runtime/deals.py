"""What a seat knows of the components it cannot see, and a new deal of them (for determinize.py).

A seat knows where hidden components lie (a count per place) and of what kind; where it sees a back (a
face-down component in sight, a `backs` pile, the top of a `top` deck), the attributes that kind prints
on the back. A deal puts every hidden component of a kind somewhere such a component may lie: a place
whose back is seen gets one of that back. It starts from a canonical order, so that it depends only on
what the seat knows and on the random generator.
"""

from __future__ import annotations

import json
from typing import Any

from meeple.runtime.state import Rng
from meeple.runtime.visibility import can_see

Game = Any  # runtime.game.Game, named in words to keep imports one way


def deal_places(game: Game, viewer: int, rng: Rng) -> dict[int, int]:
    """sigma: each hidden component (by id) -> the component dealt to its place."""
    rs, st = game.rs, game.state
    places = hidden_places(game, viewer)

    # Deal the hidden components again, kind by kind (and back by back), over the places that held them.
    by_kind: dict[tuple, list[tuple[str, int]]] = {}
    for key, i, known in places:
        by_kind.setdefault(known, []).append((key, i))
    # A kind with places whose back is seen and places where it is not (the top of a pile, and the rest
    # of it) is dealt as one: a card of that back may lie in either (found in review: dealt apart, the
    # backs' places kept their very cards, as a set, from the true state).
    free = {known[0] for known in by_kind if len(known) == 1}
    mixed = [kind for kind in dict.fromkeys(known[0] for known in by_kind if len(known) > 1) if kind in free]
    sigma: dict[int, int] = {}
    for known, kind_places in by_kind.items():
        if known[0] in mixed:
            continue
        old = [st.zones[k][i] for k, i in kind_places]
        new = sorted(old)  # from a canonical order, so the deal does not depend on the old one
        rng.shuffle(new)
        for a, b in zip(old, new):
            sigma[a] = b
    for kind in mixed:
        _deal_backs(st.zones, {known: ps for known, ps in by_kind.items() if known[0] == kind}, known_of(rs), rng, sigma)
    return sigma


def hidden_places(game: Game, viewer: int) -> list[tuple[str, int, tuple]]:
    """(zone key, index, what the viewer knows of it) of every component `viewer` cannot see, in a fixed
    order (the view's). What is known: the kind, and for a face-down component in a zone the viewer
    sees, in a `backs` zone or on top of a `top` zone, the attributes its kind prints on the back."""
    rs, st, ev = game.rs, game.state, game._ev
    out: list[tuple[str, int, tuple]] = []
    info = known_of(rs)
    facedown, zones = st.facedown, st.zones

    def zone(key: str, vis: str, owner: int | None, inside_hidden: bool) -> None:
        hidden = inside_hidden or not can_see(vis, owner, viewer)
        backs = hidden and not inside_hidden and vis in ("backs", "top")  # a face-down pile: backs in sight
        for i, c in enumerate(zones[key]):
            unseen = hidden or (c in facedown and owner != viewer)
            kind, back, slots = info[c]
            if unseen:
                out.append((key, i, kind if hidden and not (backs and (i == 0 or vis == "backs")) else back))
            if slots:
                o_i: Any = False  # the owner, looked up only for a slot that holds something
                for slot_key, vis_ in slots:
                    if zones[slot_key]:  # most slots are empty: nothing in them to deal
                        if o_i is False:
                            o = ev.owner(c)
                            o_i = None if o is None else int(o)
                        zone(slot_key, vis_, o_i, unseen)

    for name, d in rs.game_zones.items():
        zone(name, d.visibility, None, False)
    for p in range(st.nplayers):
        for name, d in rs.player_zones.items():
            zone(f"{p}.{name}", d.visibility, p, False)
    return out


def known_of(rs: Any) -> list[tuple[tuple, tuple, tuple]]:
    """Per component (by id), worked out once per ruleset: what a viewer knows of it unseen in a hidden
    place (its kind), face down in sight (its kind and the attributes its kind prints on the back), and
    its slots (zone key, visibility)."""
    cache = rs.derived()
    info: list[tuple[tuple, tuple, tuple]] | None = cache.get("determinize")
    if info is None:
        info = []
        cache["determinize"] = info
        for c, d in enumerate(rs.components):  # a component (Comp) is its index here
            kind = rs.kinds[d.kind]
            # A back attribute may be a list or a map (found by QA: a list was an unhashable key)
            info.append(((d.kind,), (d.kind, *(json.dumps(d.attrs.get(a), sort_keys=True) for a in kind.back)),
                         tuple((f"#{c}.{name}", decl.visibility) for name, decl in kind.slots.items())))
    return info


def _deal_backs(zones: dict[str, list], groups: dict[tuple, list[tuple[str, int]]], info: list, rng: Rng,
                sigma: dict[int, int]) -> None:
    """Deal one kind's hidden components over its places: first each place whose back is seen, with
    the components of that back, then the others with the rest. Every deal that agrees with the backs
    is as likely as any other, and it depends only on what is seen (the pool is sorted)."""
    pool = sorted(zones[k][i] for places in groups.values() for k, i in places)
    left = set(pool)
    dealt: dict[tuple[str, int], int] = {}
    for known, places in groups.items():
        if len(known) > 1:
            fits = [c for c in pool if c in left and info[c][1] == known]
            rng.shuffle(fits)
            for place, c in zip(places, fits):
                dealt[place] = c
                left.discard(c)
    rest = [c for c in pool if c in left]
    rng.shuffle(rest)
    free = [place for known, places in groups.items() if len(known) == 1 for place in places]
    dealt.update(zip(free, rest))
    for (k, i), b in dealt.items():
        sigma[zones[k][i]] = b
