"""What every game of a ruleset starts with: the opening statements of its setup that no seed changes.

A new game's state before any rule runs is built once per ruleset and player count (state.initial_state).
Most setups then begin with statements that also do the same in every game with that many players,
because nothing they run draws from the random generator: `move(components("card"), deck)` before the
`shuffle(deck)`. Those statements run once (by the game's own evaluator class, which counts steps its
own way), and each new game starts from a copy of their result, with its setup frame at the first
statement that may differ. The game is the same as if they had run again: the same counters, zones, log, step count and step budget
(tests/test_prefix.py starts every bundled game both ways and compares them).

Not used when coverage is measured (every statement must be counted). With explicit chance it is the
same opening (it draws nothing), and the start's step budget counts from 0 as here (explicit.py).
"""

from __future__ import annotations

from typing import Any

from meeple.language import ast as A
from meeple.language.model import Ruleset
from meeple.language.walk import walk
from meeple.runtime.chancesites import RANDOM_BUILTINS
from meeple.runtime.evaluator import Evaluator
from meeple.runtime.frames import BLOCK
from meeple.runtime.state import GameState, initial_state

_NONE = ("none",)  # a cached "no opening to reuse"


def seedless(rs: Ruleset) -> int:
    """How many statements at the start of the setup do the same in every game with the same number of
    players: none of them waits for a decision, and nothing they run (the procedures they call
    included) draws from the random generator, runs a phase or triggers effects (those are not
    followed: conservatively, they end the opening)."""
    if rs.setup is None:
        return 0
    memo: dict[str, bool] = {}
    for i, s in enumerate(rs.setup.body):
        if id(s) in rs.suspends or not _fixed(rs, s, memo):
            return i
    return len(rs.setup.body)


def _fixed(rs: Ruleset, node: Any, memo: dict[str, bool]) -> bool:
    for n in walk(node):
        t = type(n)
        if t is A.Trigger or t is A.Phase:
            return False
        if t is A.Call:
            if n.func in RANDOM_BUILTINS:
                return False
            proc = rs.procedures.get(n.func)
            if proc is not None:
                ok = memo.get(n.func)
                if ok is None:
                    memo[n.func] = False  # a recursive call is not followed
                    ok = memo[n.func] = _fixed(rs, proc.body, memo)
                if not ok:
                    return False
    return True


def start_state(rs: Ruleset, players: int, seed: int, quiet: bool, max_steps: int,
                evaluator: type[Evaluator]) -> GameState | None:
    """A new game's state with the setup's seedless opening already run (see the module docstring) by
    the game's evaluator (each counts steps its own way), or None when there is none to reuse (none at
    all, or running it fails: the game then runs it and reports the failure as usual)."""
    cache = rs.derived()
    key = ("opening", players, quiet, max_steps, evaluator)
    snap = cache.get(key)
    if snap is None:
        snap = cache[key] = _opening(rs, players, quiet, max_steps, evaluator)
    if snap is _NONE:
        return None
    base, scope, j = snap
    st = GameState(players, seed)
    st.counters = base.counters.copy()
    st.zones = base.zones.copy()  # lists shared until written (state.writable)
    st.loc = base.loc.copy()
    st.facedown = set(base.facedown)
    st.log = base.log[:]
    st.steps = base.steps
    st.quiet = quiet
    if rs.flow is not None:
        st.stack.append([BLOCK, rs.flow, {}, 0])
    st.stack.append([BLOCK, rs.setup, scope.copy(), j])
    return st


def _opening(rs: Ruleset, players: int, quiet: bool, max_steps: int, evaluator: type[Evaluator]) -> tuple:
    j = seedless(rs)
    if j == 0 or rs.setup is None:
        return _NONE
    st = initial_state(rs, players, 0)
    st.quiet = quiet
    ev = evaluator(rs, st)
    ev.limit = st.steps + max_steps
    scope: dict = {}
    fn = ev.openings.get(id(rs.setup))  # generated (codegen/resume.py), else the reference's statements
    try:
        if fn is not None:
            fn(ev, scope)
        else:
            for s in rs.setup.body[:j]:
                ev.exec(s, scope)
    except Exception:  # noqa: BLE001 - any failure is the game's to report, when it runs these itself
        return _NONE
    return st, scope, j
