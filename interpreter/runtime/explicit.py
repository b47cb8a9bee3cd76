"""Chance nodes for the Game API, by replay (see chance.py for the scripted RNG).

A step of the game is what runs between two decisions: the start (setup and the flow up to the first
decision), or the resolution of a choice. In a game with explicit chance, a step runs with a
`ScriptedRng`. When it needs an outcome the script does not hold, the step is abandoned and the game
keeps a chance node: the state as it was before the step (with the choice that started it recorded),
the outcomes chosen so far and the ones possible now. Applying an outcome runs the step again, from a
copy of that saved state, with one more outcome in the script (but for the draws of a shuffle after its
first: they are offered straight away, and the step runs again once the shuffle is drawn). Only copies run, so a chance node is as
much plain data as any other decision point: a saved state, a flag and a list of numbers. What the game
shows at a chance node (views, `evaluate`, scores) is the state as the random event found it: the
step's effects up to the draw, which itself has not happened yet.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from meeple.errors import IllegalAction, Problem
from meeple.language import ast as A
from meeple.language.model import Ruleset
from meeple.language.walk import walk
from meeple.runtime import machine as M
from meeple.runtime.chance import CHANCE, Draws, NeedChance, ScriptedRng, Shuffling
from meeple.runtime.data import as_int
from meeple.runtime.limits import located
from meeple.runtime.state import GameState
from meeple.runtime.values import show

Game = Any  # runtime.game.Game, which imports this module
START, RESOLVE = "start", "resolve"
RANDOM_BUILTINS = ("shuffle", "random_pick")


def _draws(rs: Ruleset) -> tuple[bool, bool]:
    """(whether any script calls a random built-in, whether one can run after a decision), worked out
    once per ruleset: in any script but the setup (procedures and handlers wherever they are called
    from), or in a setup that waits for a decision (its rest runs after one)."""
    cache = rs.derived()
    found = cache.get("draws")
    if found is None:
        sites = [what for what, root in rs.scripts() for n in walk(root)
                 if type(n) is A.Call and n.func in RANDOM_BUILTINS]
        found = cache["draws"] = (bool(sites), id(rs.setup) in rs.suspends or any(w != "setup" for w in sites))
    return found


def may_draw(rs: Ruleset) -> bool:
    """Whether any script of the ruleset calls a random built-in. A ruleset that never does needs no
    replays: its steps run in place, as in a seeded game."""
    return _draws(rs)[0]


def draws_after_start(rs: Ruleset) -> bool:
    """Whether a random built-in can run after a decision. A game whose draws all come before its first
    decision (Kuhn poker's deal, a setup's shuffles) resolves its decisions in place, as a seeded game
    does: no saved copy, no replay."""
    return _draws(rs)[1]


class ChanceNode:
    """An open chance event: the step to rerun (from `base`), the outcomes so far, the outcomes now."""

    __slots__ = ("_options", "base", "draws", "outcomes", "resume", "rs", "shuffle")

    def __init__(self, rs: Ruleset, base: GameState, resume: str, outcomes: list[int], draws: Draws,
                 shuffle: Shuffling | None = None) -> None:
        self.rs = rs
        self.base = base  # never run, only copied
        self.resume = resume
        self.outcomes = outcomes
        self.draws = draws
        self.shuffle = shuffle  # the shuffle this draw is one of, if any: its next draws need no replay
        self._options: list[tuple[int, Fraction, str]] | None = None

    @property
    def options(self) -> list[tuple[int, Fraction, str]]:
        """(value, probability, label) of each outcome, made when first asked for."""
        if self._options is None:
            self._options = [(v, p, show(item, self.rs)) for v, p, item in self.draws.outcomes()]
        return self._options

    def value(self, i: int) -> int:
        return self.draws.groups[i][0]


def _entries(outcomes: list[int]) -> list[dict]:
    return [{"player": CHANCE, "key": str(v)} for v in outcomes]


def run_step(game: Game, base: GameState, resume: str, outcomes: list[int]) -> None:
    """Run the step that starts at `base` with the given outcomes: the game ends at its next decision,
    or at the next chance node if the step needs one more outcome."""
    # (A decision of a game that draws only before its first one never comes here: Game._resolve runs it.)
    if not may_draw(game.rs):
        game._chance = None
        _run(game, resume)
        return
    st = base.copy()
    st.rng = ScriptedRng(outcomes)
    if resume == RESOLVE and not st.quiet:  # where components were when the step began, as Game._resolve keeps
        st.before = (dict(st.loc), frozenset(st.facedown))
    game.state = st
    game._ev = type(game._ev)(game.rs, st)
    try:
        _run(game, resume)
    except NeedChance as need:
        # Shown: the state as the random event finds it (the step's effects so far). It is only looked
        # at, never resumed: applying an outcome reruns the step from `base`.
        st.rng = ScriptedRng()
        st.record(_entries(outcomes))
        game._ev = type(game._ev)(game.rs, st)
        game._chance = ChanceNode(game.rs, base, resume, outcomes, need.draws, need.shuffle)
        return
    st.rng = ScriptedRng()
    st.record(_entries(outcomes))
    game._chance = None


def _next_draw(game: Game, node: ChanceNode, value: int) -> bool:
    """Offer the next draw of the shuffle in progress without running the step again: the state shown
    is the one the shuffle found (it changes nothing until its last draw), with one more outcome in the
    log. False when `value` leaves no choice in the shuffle: then the step runs on from `base`."""
    rest = node.shuffle.after(value) if node.shuffle is not None else None
    if rest is None:
        return False
    # In place: the state shown at a chance node is this game's own (a copy of the game copies it, and
    # the node's `base`, which replays start from, is another state).
    game.state.record(_entries([value]))
    game._chance = ChanceNode(game.rs, node.base, node.resume, node.outcomes + [value], rest.draws(), rest)
    return True


def _run(game: Game, resume: str) -> None:
    """Run the rules as Game does: a fresh step budget, and any failure inside them a located rules error
    (NeedChance is no Exception, so it passes through)."""
    ev = game._ev
    # The start's budget counts from the game's first statement (step 0), as Game.new's does, though the
    # state may come with the setup's seedless opening already run (prefix.py).
    ev.limit = game.max_steps if resume == START else game.state.steps + game.max_steps
    ev.depth = 0
    try:
        M.run(ev, M.resolve(ev) if resume == RESOLVE else None)
    except Exception as e:  # noqa: BLE001 - the safety net, as in Game._rules
        raise located(e) from None


def chance_actions(game: Game) -> list[tuple[dict, Fraction]]:
    node = game._chance
    if node is None:
        return []
    return [({"player": CHANCE, "key": str(v), "label": label}, p) for v, p, label in node.options]


def probabilities(game: Game) -> list[tuple[int, float]]:
    """Each outcome's value and probability as a float, without labels (the OpenSpiel adapter's
    `chance_outcomes`, at every draw of a playout)."""
    node = game._chance
    if node is None:
        return []
    n = node.draws.total
    return [(v, c / n) for v, c, _ in node.draws.groups]


def apply_outcome(game: Game, value: int) -> None:
    """Apply the chance outcome `value` (an action's key as a number); refuse any other."""
    node = game._chance
    if node is None:
        raise IllegalAction(Problem("G009", "this is not a chance event"))
    if value not in [g[0] for g in node.draws.groups]:
        raise IllegalAction(Problem("G008", f"{value!r} is not an outcome of this chance event"))
    if not _next_draw(game, node, value):
        run_step(game, node.base, node.resume, node.outcomes + [value])


def apply_chance_action(game: Game, action: Any) -> None:
    """`Game.apply` at a chance node: an outcome's action, its index, or its label."""
    node = game._chance
    if type(action) is int and node is not None and 0 <= action < len(node.draws.groups):
        apply_outcome(game, node.value(action))  # an index, as a playout gives: no label is made
        return
    if isinstance(action, bool):
        raise IllegalAction(Problem("G005", "an action must be an action, an index or a label"))
    action = k if (k := as_int(action)) is not None else action  # NumPy's whole numbers too
    acts = [a for a, _ in chance_actions(game)] if isinstance(action, (int, str)) else []  # an action needs no labels
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
    if not isinstance(key, str) or not key.isdigit():
        raise IllegalAction(Problem("G008", f"{key!r} is not an outcome of this chance event"))
    apply_outcome(game, int(key))
