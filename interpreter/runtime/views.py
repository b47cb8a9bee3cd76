"""A player's view of a game: everything that player may see, and nothing else.

Zones and counters declare a visibility: `public` (everyone), `owner` (the owning player; others see
only a count) or `hidden` (nobody sees identities, only a count: decks, bags); zones also `backs` (a
face-down pile: each component's back, in order) and `top` (a count and the top component's back). Face-down components
are hidden from everyone but the owner of the zone that holds them, who see only the attributes their kind
prints on the `back`. Pending sealed choices show who
has chosen, never what.

A seat names a component by its item (`"item": "ace"`), never by its id, also in counter values and
in the keys of its legal actions (`?` for one it cannot see): copies of an item look alike at the table, and an id would tell them
apart (the ace a seat saw go into a hand is not the ace played later, so the first is still there).
Only the view of everything (`viewer=None`) gives ids.
"""

from __future__ import annotations

import re
from typing import Any

from meeple.errors import IllegalAction, Problem
from meeple.runtime.chance import CHANCE
from meeple.runtime.data import Player, as_int, encode, option_key
from meeple.runtime.frames import CHOOSE
from meeple.runtime.render import parts, render
from meeple.runtime.visibility import Evaluator, as_seen_now, can_see, visible

# `game` below is a runtime.game.Game; views are built for it, and game.py imports this module,
# so the annotation names it only in words to keep imports flowing one way.
Game = Any

LOG_LINES = 30
_ID = re.compile(r"#(\d+)")


def seat_key(key: str, ev: Evaluator, viewer: int) -> str:
    """An action key as a seat reads it: `0:#ace` for `0:#37` (see the module's docstring), and `0:#?`
    for a component the seat cannot see (its item would tell what it is)."""
    if "#" not in key:  # no component: most keys of a search's menus
        return key
    items = ev.rs.components
    return _ID.sub(lambda m: "#" + (items[int(m.group(1))].item if visible(ev, int(m.group(1)), viewer) else "?"),
                   key)


def action_keys(options: list, ev: Evaluator, viewer: int | None) -> list[str]:
    """The keys of a seat's options as `viewer` reads them (None: their own keys, ids and all). Options
    the seat cannot tell apart by their items (two alike cards on display) are numbered in menu order,
    `0:#ace~2`, so that every key still names one option."""
    keys = [option_key(o) for o in options]
    if viewer is None:
        return keys
    out: list[str] = []
    seen: dict[str, int] = {}
    for k in keys:
        s = seat_key(k, ev, viewer)
        n = seen[s] = seen.get(s, 0) + 1
        out.append(s if n == 1 else f"{s}~{n}")
    return out


def option_index(options: list, key: str, ev: Evaluator, viewer: int) -> int | None:
    """The option an action's key names: its own key (the action log's, `legal_actions()`'s), else the
    key as the seat reads it (`legal_actions(seat)`'s)."""
    for keys in (action_keys(options, ev, None), action_keys(options, ev, viewer)):
        if key in keys:
            return keys.index(key)
    return None


def chosen_option(game: Game, action: Any) -> tuple[int, int]:
    """The seat and the option index that `Game.apply(action)` names: an action from `legal_actions()`,
    an index into it, or an exact label. Refused with the reason (IllegalAction) otherwise."""
    if game.state.pending is None:
        raise IllegalAction(Problem("G002", "the game is over: no action is legal"))
    if isinstance(action, bool):
        raise IllegalAction(Problem("G005", "an action must be an action, an index or a label"))
    action = k if (k := as_int(action)) is not None else action  # NumPy's whole numbers too
    if type(action) is int:
        legal = game.legal_actions()
        if not 0 <= action < len(legal):
            raise IllegalAction(Problem("G004", f"there are {len(legal)} actions, so {action} is not one of them"))
        action = legal[action]
    elif type(action) is str:
        matches = [a for a in game.legal_actions() if a["label"] == action]
        if not matches:
            raise IllegalAction(Problem("G006", f"no legal action is labelled {action!r}"))
        if len(matches) > 1 and len({a["player"] for a in matches}) > 1:
            raise IllegalAction(Problem("G007", f"several players have an action labelled {action!r}; "
                                                "pass the action itself"))
        action = matches[0]
    if not isinstance(action, dict) or "player" not in action or "key" not in action:
        raise IllegalAction(Problem("G005", "an action must be an action from legal_actions() (with `player` "
                                            "and `key`), an index or a label"))
    seat, key = action["player"], action["key"]
    seat = k if (k := as_int(seat)) is not None else seat  # NumPy's whole numbers too
    if type(seat) is not int or type(key) is not str:
        # 0.0 and True equal 0 in Python, but they are not seats: the action log holds exact values.
        raise IllegalAction(Problem("G005", "an action's `player` must be a seat number and its `key` a string"))
    if seat not in game.deciders:
        who = ", ".join(f"P{s + 1}" for s in game.deciders)
        raise IllegalAction(Problem("G003", f"it is not {'the chance seat' if seat == CHANCE else f'P{seat + 1}'}"
                                            f"'s turn now (waiting for {who})"))
    i = option_index(game.menu(seat), key, game._ev, seat)  # menu(): worked out now if a look-ahead left it
    if i is None:
        raise IllegalAction(Problem("G008", f"{action.get('label') or action['key']!r} is not a legal action now"))
    return seat, i


def chosen_outcome(game: Game, action: Any) -> int:
    """The chance outcome that `Game.apply(action)` names at a chance event: an outcome's action from
    `chance_outcomes()`, an index into them, or an exact label. Refused with the reason otherwise."""
    if isinstance(action, bool):
        raise IllegalAction(Problem("G005", "an action must be an action, an index or a label"))
    action = k if (k := as_int(action)) is not None else action  # NumPy's whole numbers too
    acts = [a for a, _ in game.chance_outcomes()] if isinstance(action, (int, str)) else []  # an action needs no labels
    if isinstance(action, int):
        if not 0 <= action < len(acts):
            raise IllegalAction(Problem("G004", f"there are {len(acts)} outcomes, so {action} is not one of them"))
        action = acts[action]
    elif isinstance(action, str):
        matches = [a for a in acts if a["label"] == action]
        if not matches:
            raise IllegalAction(Problem("G006", f"no chance outcome is labelled {action!r}"))
        action = matches[0]
    if not isinstance(action, dict) or action.get("player") != CHANCE:
        raise IllegalAction(Problem("G003", "this is a chance event: only a chance outcome can be applied"))
    key = action.get("key")
    # An outcome's key is the number as `chance_outcomes` writes it: other spellings of a number ("00",
    # "²", which `isdigit` takes and `int` refuses, or "٣", which both take) are no key (found by QA), and
    # `int` refuses thousands of digits.
    if not isinstance(key, str) or not (key.isascii() and key.isdigit() and len(key) < 20) or str(int(key)) != key:
        raise IllegalAction(Problem("G008", f"{key!r} is not an outcome of this chance event"))
    return int(key)


PUBLIC = -1  # a viewer that is no seat: make_view shows it only public things (a spectator)


def make_view(game: Game, viewer: int | None, texts: bool = True) -> dict:
    """What `viewer` may see, as plain data. `viewer=None` is everything, for audiences allowed to see it
    all (a finished game's replay, a bots-only table): face-down components marked as such, every counter,
    every log line with the seat it was meant for. `texts=False` leaves out what only a person reads
    (status lines, the prompt, the actions' labels, the log): observation vectors never read them."""
    rs, st = game.rs, game.state
    everything = viewer is None
    ev = game._ev
    comps = rs.components
    # See the module's docstring. A component the viewer cannot see is `?` wherever a value names it (a
    # counter holding the top card of a pile, found by QA: the view named it), as in action keys.
    me = -1 if viewer is None else viewer  # (everything names by id: `visible` is asked for a seat only)
    name = int if everything else (lambda c: comps[c].item if visible(ev, c, me) else "?")

    def enc(v: Any) -> Any:
        return encode(v, name)

    def comp(c: int, zone_owner: int | None) -> Any:
        d = rs.components[c]
        if c in st.facedown and zone_owner != viewer and not everything:
            return back(c)
        out: dict[str, Any] = {"id": c} if everything else {"item": d.item}
        out |= {"name": d.name, "kind": d.kind}
        if c in st.facedown:
            out["facedown"] = True
        kind = rs.kinds[d.kind]
        if kind.counters:
            out["counters"] = {n: enc(st.counters[f"#{c}.{n}"]) for n in kind.counters}
        if kind.status is not None and texts:
            # Rendered for the viewer like any text: a status that reads a hidden thing reads a placeholder,
            # also when its value is none (skipping those would tell the seat the hidden value is none).
            text = render(parts(ev, kind.status, ev.handler_scope(c)), viewer)
            if text not in ("none", "false", ""):
                out["status"] = text
        if kind.slots:
            owner = ev.owner(c)
            owner_i = None if owner is None else int(owner)
            out["slots"] = {n: zone(f"#{c}.{n}", decl.visibility, owner_i) for n, decl in kind.slots.items()}
        return out

    def zone(key: str, vis: str, owner: int | None) -> Any:
        items = st.zones[key]
        if not can_see(vis, owner, viewer):
            if vis == "backs":
                return [back(c) for c in items]
            return {"count": len(items), "top": back(items[0])} if vis == "top" and items else {"count": len(items)}
        return [comp(c, owner) for c in items]

    def back(c: int) -> dict[str, Any]:
        d = rs.components[c]
        attrs = rs.kinds[d.kind].back
        return {"hidden": True, "back": {a: enc(d.attrs.get(a)) for a in attrs}} if attrs else {"hidden": True}

    view: dict[str, Any] = {
        "ruleset": rs.name,
        "viewer": viewer,
        "players": st.nplayers,
        "phase": st.phase,
        "over": st.over,
        "counters": {n: enc(st.counters[n]) for n, d in rs.game_counters.items()
                     if everything or d.visibility == "public"},
        "zones": {n: zone(n, d.visibility, None) for n, d in rs.game_zones.items()},
        "seats": [],
    }
    for p in range(st.nplayers):
        seat: dict[str, Any] = {"seat": p, "name": f"P{p + 1}", "counters": {}, "zones": {}}
        for n, d in rs.player_counters.items():
            if can_see(d.visibility, p, viewer):
                seat["counters"][n] = enc(st.counters[f"{p}.{n}"])
        for n, d in rs.player_zones.items():
            seat["zones"][n] = zone(f"{p}.{n}", d.visibility, p)
        view["seats"].append(seat)
    pending = st.pending
    if pending is not None:
        dec: dict[str, Any] = {"waiting_for": game.deciders, "chosen": sorted(pending["chosen"])}
        # Everything's prompt is the one the first decider reads (a prompt may name the reader).
        prompt = decision_prompt(game, game.deciders[0] if everything and game.deciders else viewer) if texts else None
        if prompt:
            dec["prompt"] = prompt
        if viewer in game.deciders and texts:
            dec["actions"] = game.legal_actions(viewer)  # keys as the seat reads them
        view["decision"] = dec
    if st.over:
        view["scores"] = enc(game.scores)
        view["winners"] = game.winners
    if texts:
        view["log"] = game.log_tail(viewer, LOG_LINES)
    return view


def decision_prompt(game: Game, viewer: int | None) -> str | None:
    """The prompt of the open decision (`choose p "Place a worker":`), as the viewer would read it."""

    st = game.state
    if st.pending is None or not st.stack:
        return None
    frame = st.stack[-1]
    node, scope = frame[1], frame[2]
    choose = node if frame[0] == CHOOSE else node.choose
    if choose.prompt is None:
        return None
    if frame[0] != CHOOSE:
        if viewer is None or viewer not in st.pending["players"]:
            return None
        scope = dict(scope)
        scope[node.var] = Player(viewer)
    with as_seen_now(game._ev):
        return render(parts(game._ev, choose.prompt, scope), viewer)
