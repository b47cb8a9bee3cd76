"""How a game ended, explained: where each player's points came from, the tie-breaks, the ranking.

Every `score`, `gain` and `pay` on a player's counter leaves a note in the log (audience `NOTE`, which
no seat reads): the counter, the amount, and its source — the component whose effect or option ran
(`self`, also through the procedures that effect calls), else the phase. At the end, the counters the score expression reads are broken down by those
notes, so "where did my 23 points come from" has an answer without the ruleset saying anything.
"""

from __future__ import annotations

from typing import Any

from meeple.language import ast as A
from meeple.runtime.data import Comp, Player
from meeple.runtime.render import NOTE, placeholder, render
from meeple.runtime.values import show
from meeple.runtime.visibility import seers, visible

Game = Any  # runtime.game.Game, which imports this module


def note_change(ev: Any, target: Any, scope: dict, delta: int) -> None:
    """Remember that a player's counter changed by `delta`, and why (called by score/gain/pay)."""
    if not delta or ev.st.quiet or type(target) is not A.Attr or target.name not in ev.rs.player_counters:
        return
    obj = ev.eval(target.obj, scope)
    if type(obj) is not Player:
        return
    me: Any = scope.get("self")
    if type(me) is not Comp:
        # A procedure called from a component's effect has no `self` of its own: the points are still that
        # component's. The effect runs either as a direct call (ev.sources) or as frames on the stack (when
        # it may wait for a decision); the innermost one is the source.
        me = ev.sources[-1] if ev.sources else next(
            (f[2]["self"] for f in reversed(ev.st.stack) if f[2] is not None and type(f[2].get("self")) is Comp),
            None)
    phase = ev.st.phase
    comp = -1
    if type(me) is Comp:
        # The component is named, as any log line names it (render.py), only to the seats that see it now;
        # `breakdown` also names it to those who see it when the game ends (a card revealed by then).
        comp, who = int(me), seers(ev, int(me))
        name = ev.rs.components[me].name
        source: Any = name if len(who) == ev.st.nplayers else [[name, who, placeholder(ev.rs, {comp})]]
    elif phase.startswith("("):  # the engine's own phases, "(final scoring)", are named already
        source = phase.strip("()")
    else:
        source = f"phase {phase}" if phase else "setup"
    ev.st.log.append((NOTE, [f"{int(obj)}.{target.name}", delta, source, comp]))


def score_counters(game: Game) -> list[str]:
    """The player counters the score expression reads (`p.points`), in order."""
    out: list[str] = []
    node = game.rs.score

    def walk(n: Any) -> None:
        if type(n) is A.Attr and type(n.obj) is A.Name and n.obj.name == "p" \
                and n.name in game.rs.player_counters and n.name not in out:
            out.append(n.name)
        if hasattr(n, "__dataclass_fields__"):
            for f in n.__dataclass_fields__:
                if f != "span":
                    walk(getattr(n, f))
        elif isinstance(n, (list, tuple)):
            for x in n:
                walk(x)
    walk(node)
    return out


def breakdown(game: Game, seat: int, viewer: int | None = None) -> list[tuple[str, str, int]]:
    """(counter, source, total) for each counter the score reads, sources in order of first appearance,
    as `viewer` reads them (None: everything); the counter's starting value is the source "start"."""
    rs, st = game.rs, game.state
    out: list[tuple[str, str, int]] = []
    for name in score_counters(game):
        key = f"{seat}.{name}"
        sums: dict[str, int] = {}
        initial = rs.player_counters[name].initial
        if type(initial) is int and initial:
            sums["start"] = initial
        for audience, payload in st.log:
            if audience == NOTE and payload[0] == key:
                comp = payload[3]
                seen = viewer is None or (comp >= 0 and visible(game._ev, comp, viewer))
                source = render(payload[2], None if seen else viewer)
                sums[source] = sums.get(source, 0) + payload[1]
        out += [(name, src, n) for src, n in sums.items() if n]
    return out


def ranking(game: Game) -> list[dict]:
    """Players best first: place (tied players share it), seat, score and tie-break values."""
    rs = game.rs
    keys = game.ranking_keys
    order = sorted(range(len(keys)), key=lambda s: keys[s], reverse=True)
    out: list[dict] = []
    for i, s in enumerate(order):
        place = out[-1]["place"] if out and keys[order[i - 1]] == keys[s] else i + 1
        k = keys[s]
        out.append({"place": place, "seat": s, "score": show(k[0], rs) if k else "-",
                    "tiebreaks": [show(x, rs) for x in k[1:]]})
    return out


def tiebreak_texts(game: Game) -> list[str]:
    """The tie-break expressions as written in the ruleset (`majorities(p)`)."""
    raw = (game.rs.raw.get("scoring") or {}).get("tiebreak") or []
    return [str(t) for t in raw] if isinstance(raw, list) else [str(raw)]


def tiebreak_used(game: Game) -> int:
    """How many tie-breaks were needed to separate the winners from the next player (0: none)."""
    keys = sorted(game.ranking_keys, reverse=True)
    if len(keys) < 2 or not keys[0]:
        return 0
    first, second = keys[0], keys[1]
    if first[0] != second[0]:
        return 0
    for i in range(1, len(first)):
        if first[i] != second[i]:
            return i
    return len(first) - 1


def summary(game: Game, viewer: int | None) -> dict[str, Any]:
    """Everything an end screen shows, as plain data (the terminal's and the browser's): the ranking with
    places and tie-break values, the tie-breaks as written and how many were needed, and where each
    player's points came from, given only when the notes explain every score exactly (a score set by
    assignment leaves no notes), as `viewer` reads it: a component it never saw is a placeholder."""
    counters = score_counters(game)
    rows = [breakdown(game, s, viewer) for s in range(game.state.nplayers)]
    exact = bool(counters) and all(sum(n for _c, _s, n in row) == score for row, score in zip(rows, game.scores))
    return {"ranking": ranking(game), "tiebreaks": tiebreak_texts(game), "tiebreak_used": tiebreak_used(game),
            "counters": counters, "breakdown": [[[src, n] for _c, src, n in row] for row in rows] if exact else None,
            "winners": list(game.winners)}
