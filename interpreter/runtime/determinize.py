"""Determinization: a copy of a game in which everything one player cannot see is dealt again.

Search bots must not play with information their seat does not have. `determinize(game, player, seed)`
returns a copy that agrees with everything `player` sees (its view is the same) and resamples the rest,
using only the ruleset's visibility declarations, as `views.py` reads them:

- Components the player cannot see (in `hidden`, `backs` and `top` zones, in other players' `owner`
  zones, face down in zones the player does not own, and anything in the slots of those) are dealt again
  at random among the places that hold hidden components of the same kind; where a back is seen (face
  down in sight, a `backs` pile, a `top` deck's top) only components of that back go (`_deal_backs`).
  The new component takes over the old one's place, face-down state, counters, slot contents and every
  reference the rules hold to it (locals, loop lists, counters), so the rules carry on consistently.
- Other seats' counters the player cannot see are dealt again: numbers keep their total over those seats
  (so conservation laws such as a bank plus everyone's coins still hold) and are split at random, one
  unit at a time; other values are shuffled among those seats. Counters no seat can see keep their value.
- The open decision's menus are built again from the new state. A deal is tried again if another seat's
  menu comes out empty, or the player's own has another number of options than the one it sees (a menu
  that depends on hidden cards tells something of them); if every one of a few deals fails so, the old
  menus are kept, renamed. Sealed choices already made by other seats
  are replaced by random ones; the player's own choice is kept.
- The random generator is reseeded, so future shuffles and draws are unknown too. The action log and log
  lines meant for other seats are dropped: a determinization cannot be replayed.

`player` decides now (Game.determinize refuses another seat, G012: the decision in progress was worked
out from what its deciders hold, which a new deal would contradict).

The result depends only on what `player` sees and on `seed` (plus the few things listed in docs/agents.md
that a determinization keeps), so two games that look the same to `player` give the same copy.
"""

from __future__ import annotations

import json
from typing import Any

from meeple.errors import RuntimeRuleError
from meeple.runtime import machine as M
from meeple.runtime.data import Comp, Zone, encode
from meeple.runtime.deals import deal_places, known_of
from meeple.runtime.state import GameState, Rng, component_keys
from meeple.runtime.views import can_see

# `game` is a runtime.game.Game, which imports this module: named in words to keep imports one way.
Game = Any

NAMING = {Comp, Zone, list, dict}  # the types of value that can name a component (renamed by a deal)
RETRIES = 8  # menus rebuilt from a resampled state can be empty; another deal is tried then


class _Unlike(Exception):
    """The viewer's own rebuilt menu has another number of options than the one it sees."""


def determinize(game: Game, viewer: int, seed: int) -> Game:
    """A copy of `game` consistent with what `viewer` sees, with everything else resampled."""
    for attempt in range(RETRIES):
        try:
            return _deal(game, viewer, seed * 0x9E3779B1 + attempt * 0x85EBCA77 + 1, rebuild=True)
        except (RuntimeRuleError, _Unlike):  # another seat's rebuilt menu is empty, or the viewer's has
            pass  # another number of options than the one it sees: deal again
    # The rules let that seat decide only with cards it rarely holds (or the viewer's menu tells what it
    # cannot see, and few deals agree with it): keep every menu as it was, renamed.
    return _deal(game, viewer, seed * 0x9E3779B1 + 1, rebuild=False)


def _deal(game: Game, viewer: int, seed: int, rebuild: bool) -> Game:
    rs, st = game.rs, game.state
    rng = Rng(seed)
    sigma = deal_places(game, viewer, rng)
    inverse = {b: a for a, b in sigma.items()}

    def ren(v: Any) -> Any:
        t = type(v)
        if t is Comp:
            return Comp(sigma.get(v, v))
        if t is Zone and v.key.startswith("#"):
            return Zone(_ren_key(v.key, sigma))
        if t is list:  # numbers, texts and seats are kept as they are, without a call each
            return [ren(x) if type(x) in NAMING else x for x in v]
        if t is dict:
            return {ren(k): ren(x) for k, x in v.items()}
        return v

    ns = GameState.__new__(GameState)
    ns.nplayers, ns.seed, ns.over, ns.phase, ns.steps = st.nplayers, st.seed, st.over, st.phase, st.steps
    ns.result, ns.coverage, ns.actions = st.result, None, []
    ns.log = [x for x in st.log if x[0] in (-1, viewer)]
    # Slot zones and component counters follow the place: `#new.x` takes what `#old.x` held.
    moved = {a: Comp(b) for a, b in sigma.items() if a != b}  # the others keep their place
    ns.zones, ns.loc, ns.owned = _zones(st, moved, sigma, inverse, known_of(rs))
    ns.facedown = {sigma.get(c, c) for c in st.facedown}
    ns.counters = _counters(game, viewer, rng, ren, inverse)
    ns.stack = _frames(st.stack, ren)
    ns.pending = None
    # Later draws come from the new seed, also in a game that reports its chance events: the copy is
    # for a search bot's look-ahead, whose playouts sample no chance nodes (the OpenSpiel adapter,
    # which shows them, swaps in the explicit generator itself: tools/spieltree.py).
    ns.rng = Rng(rng.next())
    # Narration as in the game; nothing seen "before" a new deal (a menu's labels and prompt read what
    # is seen now: visibility.as_seen_now; log lines were settled when written).
    ns.quiet, ns.before = st.quiet, None
    ns.lazy = False  # the open decision is built again below, with its menus: they are read at once
    new_game = type(game)(rs, ns)
    if st.pending is not None:
        if rebuild:
            _reopen(new_game, st.pending, viewer, rng)
        else:
            old = st.pending
            # An option is [item, bound values, component id (a plain int) or -1, clause].
            ns.pending = {"players": list(old["players"]), "chosen": dict(old["chosen"]),
                          "options": {s: [[o[0], ren(o[1]), sigma.get(o[2], o[2]), o[3]] for o in opts]
                                      for s, opts in old["options"].items()}}
            for seat in ns.pending["chosen"]:
                if seat != viewer:
                    ns.pending["chosen"][seat] = rng.below(len(ns.pending["options"][seat]))
    ns.lazy = st.lazy
    return new_game


def _zones(st: GameState, moved: dict[int, Comp], sigma: dict[int, int], inverse: dict[int, int],
           info: list[tuple[tuple, tuple, tuple]]) -> tuple[dict[str, list], dict[int, str], set[str]]:
    """The dealt state's zones, component places and its own (unshared) zones. Only the zones that
    change are new lists: those holding a component dealt elsewhere, and the slot zones of the
    components whose place another took (`#new.x` holds what `#old.x` held). The others are shared
    with `st`, as a copy shares them (a search determinizes at every iteration, and a game's zones
    are mostly public)."""
    zones, loc = st.zones, st.loc
    changed = {_ren_key(k, sigma) for k in {loc.get(a) for a in moved} if k is not None}
    # The slot zones of a place another component (of the same kind: the same slots) took, unless both
    # are empty (a card in a hidden pile)
    changed.update(kb for a, b in moved.items() for (kb, _), (ka, _) in zip(info[b][2], info[a][2])
                   if zones[kb] or zones[ka])
    out, places = zones.copy(), dict(loc)
    for k in changed:
        z = out[k] = [moved.get(c, c) for c in zones[_ren_key(k, inverse)]]
        for c in z:
            places[c] = k
    st.owned = set()  # its lists are shared with the new state now
    return out, places, changed


def _ren_key(key: str, sigma: dict[int, int]) -> str:
    """`#12.contents` renamed through sigma; other keys unchanged."""
    if not key.startswith("#"):
        return key
    head, _, rest = key.partition(".")
    c = int(head[1:])
    return f"#{sigma.get(c, c)}.{rest}"


def _counters(game: Game, viewer: int, rng: Rng, ren: Any, inverse: dict[int, int]) -> dict[str, Any]:
    rs, st = game.rs, game.state
    counters = st.counters
    # Values are shared, as a copy shares them (nothing changes a list or map in place: data.copy_values);
    # only the counters below are dealt or renamed.
    out = counters.copy()
    own = component_keys(rs)
    done: set[str] = set()  # the keys dealt or renamed below (renaming twice would rename again)
    for c, a in inverse.items():
        # A hidden component's counters move with its place; the new one's are the old one's (of the same
        # kind: the same counters, in the same order).
        for key, src in zip(own[c][1], own[a][1]):
            if key in out:
                v = counters[src]
                out[key] = ren(v) if type(v) in NAMING else v
                done.add(key)
    for key, d in rs.game_counters.items():
        if d.visibility != "public":
            out[key] = ren(counters[key])
            done.add(key)
    for name, d in rs.player_counters.items():
        seats = [p for p in range(st.nplayers) if not can_see(d.visibility, p, viewer)]
        done.update(f"{p}.{name}" for p in seats)
        if not seats:
            continue
        values = [counters[f"{p}.{name}"] for p in seats]
        if all(type(v) is int for v in values):
            dealt: list[Any] = _split(sum(values), len(seats), rng)
        else:
            dealt = sorted((ren(v) for v in values), key=lambda v: json.dumps(encode(v), sort_keys=True))
            rng.shuffle(dealt)
        for p, v in zip(seats, dealt):
            out[f"{p}.{name}"] = v
    if any(a != b for a, b in inverse.items()):
        # Any other value that names a component follows the deal, as the rules' own references do: a
        # public counter holding the top card of a pile (found by QA: it kept naming a card dealt away;
        # the view shows such a card as `?`).
        for key, v in counters.items():
            if type(v) in NAMING and key not in done:
                out[key] = ren(v)
    return out


def _split(total: int, n: int, rng: Rng) -> list[int]:
    """`total` dealt over n seats: one unit at a time to a random seat (near even, but unknown)."""
    if n == 1:
        return [total]
    if total < 0 or total > 10_000:  # a number too large to deal unit by unit: an even share
        base, extra = divmod(total, n)
        out = [base] * n
        for i in range(extra):
            out[i] += 1
        rng.shuffle(out)
        return out
    out = [0] * n
    for _ in range(total):
        out[rng.below(n)] += 1
    return out


def _frames(stack: list, ren: Any) -> list:
    """A copy of the frame stack with every component reference renamed (scopes stay shared)."""
    out = M.copy_frames(stack)
    done: set[int] = set()
    for f in out:
        sc = f[2]
        if sc is not None and id(sc) not in done:
            done.add(id(sc))
            for k in list(sc):
                sc[k] = ren(sc[k])
        for j in range(3, len(f)):
            f[j] = ren(f[j])
    return out


def _reopen(game: Game, old: dict, viewer: int, rng: Rng) -> None:
    """Build the open decision's menus again from the new state; others' sealed choices become random."""
    steps = game.state.steps
    M.run(game._ev)
    game.state.steps = steps  # building a menu again is not a step of the game
    pending = game.state.pending
    if pending is None or pending["players"] != old["players"]:  # pragma: no cover - the frames reopen it
        raise AssertionError("a determinized game must reopen the same decision")
    # A menu that depends on what the viewer cannot see (options only for the hidden cards worth more)
    # tells the viewer something: a deal whose menu has another length contradicts its view, and a bot
    # would pick an option that is not there (found by QA: G004 from greedy and halving).
    if viewer in old["options"] and len(pending["options"].get(viewer, ())) != len(old["options"][viewer]):
        raise _Unlike
    for seat, i in old["chosen"].items():
        n = len(pending["options"][seat])
        pending["chosen"][seat] = i if seat == viewer else rng.below(n)
