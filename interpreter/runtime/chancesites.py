"""Where a ruleset's random events are, for chance nodes (explicit.py): which scripts draw, and from
which shuffles a step can go on in place once the shuffle is drawn, without running again.

Worked out once per ruleset from its scripts (and, for a step in progress, from the frames on the stack).
"""

from __future__ import annotations

from typing import Any

from meeple.checker.suspension import shuffle_statement
from meeple.language import ast as A
from meeple.language.model import Ruleset
from meeple.language.walk import walk
from meeple.runtime.chance import NeedChance
from meeple.runtime.frames import BLOCK
from meeple.runtime.state import GameState

RANDOM_BUILTINS = ("shuffle", "random_pick")


def _draws(rs: Ruleset) -> tuple[bool, bool, int]:
    """(whether any script calls a random built-in, whether one can run after a decision, how many such
    calls the scripts make), worked out
    once per ruleset: in any script but the setup (procedures, phases and handlers, wherever they are
    called from), or in the setup from its first statement that waits for a decision on (what comes
    before that statement has run by the first decision: a setup that shuffles and deals, then asks each
    player for a first choice)."""
    found = rs._compiled.get("draws") if rs._compiled is not None else None  # rs.derived(), without a call
    if found is None:
        cache = rs.derived()
        sites = [what for what, root in rs.scripts() for n in walk(root) if _random(n)]
        late = False
        if rs.setup is not None and id(rs.setup) in rs.suspends:
            body = rs.setup.body
            frames = rs.shuffle_frames  # framed for explicit chance only: they wait for no decision
            first = next((i for i, s in enumerate(body) if id(s) in rs.suspends and id(s) not in frames), len(body))
            late = any(_random(n) for s in body[first:] for n in walk(s))
        found = cache["draws"] = (bool(sites), late or any(w != "setup" for w in sites), len(sites))
    return found


def calls_random(script: A.Block) -> bool:
    """Whether a script calls a random built-in: one from outside the ruleset (a game's `before_flow`),
    which `_draws` does not know, makes its game resolve every decision in case it draws (Game._late)."""
    return any(_random(n) for n in walk(script))


def _random(n: Any) -> bool:
    return type(n) is A.Call and n.func in RANDOM_BUILTINS


def may_draw(rs: Ruleset) -> bool:
    """Whether any script of the ruleset calls a random built-in. A ruleset that never does needs no
    replays: its steps run in place, as in a seeded game."""
    return _draws(rs)[0]


def draws_after_start(rs: Ruleset) -> bool:
    """Whether a random built-in can run after a decision. A game whose draws all come before its first
    decision (Kuhn poker's deal, a setup's shuffles) resolves its decisions in place, as a seeded game
    does: no saved copy, no replay."""
    return _draws(rs)[1]


def several_sites(rs: Ruleset) -> bool:
    """Whether the scripts call random built-ins in more than one place: a step that went on from a
    shuffle in place may then meet another random event, which its replay could start from there for
    (explicit._go_on keeps a copy of the state for it). With one such call, as in a game that shuffles
    its deck once and deals, no later event can need it."""
    return _draws(rs)[2] > 1


def in_place(ev: Any, st: GameState, need: NeedChance) -> tuple[int, str, int] | None:
    """Where a step that stopped at a shuffle's first draw can go on from, without a replay: a shuffle
    that is a statement of its own in the block of the frame on top of the stack, at or after where
    that frame's stretch began. Then nothing of the step is on Python's stack but that stretch (a
    `shuffle` in an `if`, a loop or a procedure run inline belongs to another block; the setup's ifs
    and loops that shuffle run as frames for this: checker/suspension.py), and everything the step did
    before it is in the state: its variables in the frame's scope, its frames below. None otherwise (a
    `random_pick`, a shuffle inside an expression or inline code): a replay."""
    if need.at is None or need.shuffle is None or not st.stack:
        return None
    call, key, pos = need.at
    where = _shuffle_statements(ev.rs).get(id(call))
    top = st.stack[-1]
    if where is None or top[0] != BLOCK or id(top[1]) != where[0] or top[3] > where[1]:
        return None
    # Generated code goes on from a stretch of its own (codegen/resume.py makes one after each such
    # shuffle); the reference runs the block's statements from there.
    j = where[1] + 1
    if (ev.steppers or ev.segments) and j < len(top[1].body) and j not in ev.steppers.get(where[0], ()) \
            and j not in ev.segments.get(where[0], ()):
        return None
    return where[1], key, pos


def _shuffle_statements(rs: Ruleset) -> dict[int, tuple[int, int]]:
    """The calls of `shuffle_statement`s: id of the call -> (id of its block, index). (Cached per ruleset.)"""
    cache = rs.derived()
    found = cache.get("shuffle statements")
    if found is None:
        found = cache["shuffle statements"] = {
            id(s.expr): (id(b), j) for _, root in rs.scripts() for b in walk(root) if type(b) is A.Block
            for j, s in enumerate(b.body) if shuffle_statement(s)}
    return found
