"""Chance nodes for the Game API, by replay (see chance.py for the scripted RNG).

A step of the game is what runs between two decisions: the start (setup and the flow up to the first
decision), or the resolution of a choice. In a game with explicit chance, a step runs with a
`ScriptedRng`. When it needs an outcome the script does not hold, the step is abandoned and the game
keeps a chance node: the state as it was before the step (with the choice that started it recorded),
the outcomes chosen so far and the ones possible now. Applying an outcome runs the step again, from a
copy of that saved state, with one more outcome in the script (but for the draws of a shuffle after its
first: they are offered straight away, and the step runs again once the shuffle is drawn). Only copies
run, so a chance node is as much plain data as any other decision point: a saved state, a flag and a
list of numbers. What the game shows at a chance node (views, `evaluate`, scores) is the state as the
random event found it: the step's effects up to the draw, which itself has not happened yet.

Shortcuts give what the replay would give, for less: a shuffle that is a statement of its own in the
block of the frame on top of the stack (chancesites.py) is drawn in place once its last draw is known,
and the step goes on from the statement after it (`_go_on`), its later events replaying from there (a
`Step` to REST) rather than from the step's start; a new game is a copy of the first one made alike,
which draws nothing before its first chance node (shortcuts.py), and games made alike that draw alike
share what that gives at their first few nodes (chancenodes.py, `_adopt`); and a decision runs its
step in the game's own state, keeping a mark to rebuild the step's start from should it draw
(shortcuts.py), or keeping nothing when nothing can draw after a decision (`chancesites.draws_after_start`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from meeple.errors import IllegalAction, Problem, RuntimeRuleError
from meeple.runtime import machine as M
from meeple.runtime.chance import CHANCE, NeedChance, ScriptedRng
from meeple.runtime.chancenodes import RESOLVE, REST, START, ChanceNode, Step
from meeple.runtime.chancesites import in_place, may_draw, several_sites
from meeple.runtime.limits import STEPS_MESSAGE, located
from meeple.runtime.state import GameState
from meeple.runtime.views import chosen_outcome

Game = Any  # runtime.game.Game, which imports this module


# Why a step of an explicit game reached the budget sooner than the same step of a seeded game.
REPLAYS_HINT = ("with explicit chance, each random event here runs again what the step did before it (from the "
                "last decision, or an earlier shuffle), and those runs count too: a loop of random events that "
                "never reaches a decision?")


def _entries(outcomes: list[int]) -> list[tuple[int, int]]:
    return [(CHANCE, v) for v in outcomes]  # keyed when the log is read (GameState.actions), as choices are


def start(game: Game, st: GameState) -> None:
    """Start a new game with explicit chance from `st` (Game.new's state): `run_step` from START. Its
    budget counts from the game's first statement (step 0), as Game.new's does, though the state may
    come with the setup's seedless opening already run (prefix.py)."""
    st.rng = ScriptedRng()
    run_step(game, Step(st, START, game.max_steps), [])


def resolving(game: Game, base: GameState) -> Step:
    """The step of a decision whose choices `base` records: a fresh budget from there."""
    return Step(base, RESOLVE, base.steps + game.max_steps)


def run_step(game: Game, step: Step, outcomes: list[int], spent: int = 0) -> None:
    """Run `step` from its base with the given outcomes: the game ends at its next decision, or at the
    next chance node if the step needs one more outcome. `spent`: the step's budget its earlier runs used."""
    # (A decision of a game that draws only before its first one never comes here: Game._resolve runs it.)
    if not (may_draw(game.rs) or game._late):
        game._chance = None
        _run(game, step)
        return
    st = step.base.copy()
    st.seed = game.state.seed  # new games share the base of the first one made alike (`shortcuts.reused`)
    st.rng = ScriptedRng(outcomes)
    if step.resume == RESOLVE and not st.quiet:  # where components were when the step began, as Game._resolve keeps
        st.before = (dict(st.loc), frozenset(st.facedown))
    game.state = st
    game._ev = type(game._ev)(game.rs, st)
    try:
        _run(game, step, spent)
    except NeedChance as need:
        # Shown: the state as the random event finds it (the step's effects so far). Applying an outcome
        # reruns the step from `base`, or goes on from here where the step stopped at a shuffle that
        # can be drawn in place (`_go_on`).
        st.record(_entries([*step.drawn, *outcomes]))
        stopped(game, st, step, outcomes, need, spent=spent)
        return
    st.rng = ScriptedRng()
    st.record(_entries([*step.drawn, *outcomes]))
    game._chance = None


def stopped(game: Game, st: GameState, step: Step, outcomes: list[int], need: NeedChance, reach: int = 0,
            spent: int = 0) -> None:
    """`step` stopped at a random event in `st`: that is the game now, at a chance node (one that games
    made alike share if `reach`). Unless the step can go on in place from here, the next outcome runs it
    again from its base: the node's `spent` adds what that run repeats (_run). Whether it can is a matter
    of where the event is written, so the count is the same whichever shortcut brought the game here."""
    st.rng = ScriptedRng()
    at = in_place(game._ev, st, need)
    game._ev = type(game._ev)(game.rs, st)
    if at is None:
        spent += st.steps - step.base.steps
    game._chance = ChanceNode(game.rs, step, outcomes, need.draws, need.shuffle, at, st.steps, reach, spent)


def _go_on(game: Game, node: ChanceNode, value: int) -> bool:
    """The last draw of a shuffle the step stopped at in place (chancesites.in_place): the shuffle done as the
    scripted generator would do it, and the step run on from the statement after it, in this game's
    own state. What a replay from `base` with the same outcomes gives, at the cost of the rest of the
    step only. False when the step must be replayed."""
    st = game.state
    if node.at is None or st.steps != node.steps:  # something ran in the shown state since
        return False
    after = node._after
    if after is not None and (known := after.get((value, st.lazy))) is not None:
        _adopt(game, *known)
        return True
    j, key, pos = node.at
    outcomes = node.outcomes + [value]
    # ScriptedRng.shuffle: each outcome draws the next item from those left; once every item left is
    # like the others (no more outcomes), they follow in their order.
    zone = st.writable(key)
    left = zone[:]
    zone[:] = [left.pop(v) for v in outcomes[pos:]] + left
    st.record(_entries([value]))
    frame = st.stack[-1]
    began, frame[3] = frame[3], j + 1
    # The rest of the step replays from here, with the outcomes drawn from now on, rather than from the
    # step's start with all of them: a setup's shuffles in a loop replay the loop, not the setup's
    # earlier shuffles too. (Not worth its copy where no other random event can come.)
    here = (len(st.stack) - 1, j + 1, began)
    rest, script = node.step, outcomes
    if game._late or several_sites(game.rs):
        drawn = (*node.step.drawn, *outcomes)
        rest, script = Step(_without_last(st.copy(), len(drawn)), REST, node.step.limit, here, drawn), []
    # Every outcome of the script is in the state now; a later shuffle's place in it (NeedChance.at)
    # counts the outcomes the step's replay starts from.
    rng = st.rng = ScriptedRng(script)
    rng.pos = len(script)
    try:
        _run(game, Step(st, REST, node.step.limit, here), node.spent)  # the rest of the step, in this state
    except NeedChance as need:
        stopped(game, st, rest, script, need, node.reach_after(), node.spent)
    except Exception:  # a failing step fails as its replay does, leaving what it leaves (found in review:
        # the state kept the shuffle, and applying the outcome again shuffled twice)
        game._chance = node.replayed()
        run_step(game, node.step, outcomes, node.spent)  # raises the same located error
        raise
    else:
        st.rng = ScriptedRng()
        game._chance = None
    if after is not None:  # what games made alike that draw `value` here take (`_adopt`)
        after[value, st.lazy] = (st.copy(), game._chance)
    return True


def _adopt(game: Game, known: GameState, node: ChanceNode | None) -> None:
    """The game goes on as another game made alike went on from the same outcomes: a copy of its state,
    with this game's seed (which only the state records: explicit chance draws nothing from it)."""
    st = known.copy()
    st.seed = game.state.seed
    game.state = game._ev.st = st  # an evaluator keeps nothing else of a state between steps
    game._chance = node


def _without_last(st: GameState, n: int) -> GameState:
    """`st` without the last `n` entries of its action log (a step's outcomes, recorded once it has run,
    as a replay from its start records them: a step that fails leaves the log as it was before it)."""
    del st._actions[len(st._actions) - n:]
    st._keyed = min(st._keyed, len(st._actions))
    return st


def forget_place(game: Game) -> None:
    """Something ran in the state shown at the open chance event (`evaluate`, a query that counted
    steps): its step replays from its start, as it always did, rather than go on from that state."""
    node = game._chance
    if node is not None and node.at is not None:
        game._chance = node.replayed()


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
    known = node._next
    nxt = known.get(value) if known is not None else None
    if nxt is None:
        nxt = ChanceNode(game.rs, node.step, node.outcomes + [value], rest.draws(), rest, node.at, node.steps,
                         node.reach_after(), node.spent)
        if known is not None:
            known[value] = nxt
    game._chance = nxt
    return True


def _run(game: Game, step: Step, spent: int = 0) -> None:
    """Run the rules of `step` in the game's state as Game does: the step's budget, and any failure
    inside them a located rules error (NeedChance is no Exception, so it passes through).

    The budget is the step's, less what its earlier runs `spent` repeating themselves: each random event
    the step meets where it cannot go on in place (chancesites.in_place) runs it again from its base, so
    a loop of random events in inline code without a decision costs the square of its length. Counting
    the repeated work keeps that loop to the budget's time, and reports it (R001) as a seeded game
    reports its loop, rather than running for days; a step that goes on in place repeats nothing and
    has the seeded game's budget."""
    ev = game._ev
    ev.limit, ev.depth = step.limit - spent, 0
    try:
        if step.restore is None:
            M.run(ev, M.resolve(ev) if step.resume == RESOLVE else None)
            return
        depth, j, began = step.restore
        frame = game.state.stack[depth]
        try:
            M.run(ev)
        finally:
            # A frame's index is where its running stretch began: a replay's stretch began where this
            # one's did. (Nothing else writes j there: the shuffle before it is no statement that waits.)
            if frame[3] == j:
                frame[3] = began
    except Exception as e:  # noqa: BLE001 - the safety net, as in Game._rules
        err = located(e)
        if spent and err.problems[0].message == STEPS_MESSAGE:
            p = err.problems[0]
            raise RuntimeRuleError(Problem(p.code, p.message, p.span, hint=REPLAYS_HINT)) from None
        raise err from None


def chance_actions(game: Game) -> list[tuple[dict, Fraction]]:
    node = game._chance
    if node is None:
        return []
    return [({"player": CHANCE, "key": str(v), "label": label}, p) for v, p, label in node.options]


def probabilities(game: Game) -> list[tuple[int, float]]:
    """Each outcome's value and probability as a float, without labels (the OpenSpiel adapter's
    `chance_outcomes`, at every draw of a playout). Shared by the games at this event: read it only."""
    node = game._chance
    return [] if node is None else node.draws.floats()


def apply_outcome(game: Game, value: int) -> None:
    """Apply the chance outcome `value` (an action's key as a number); refuse any other."""
    node = game._chance
    if node is None:
        raise IllegalAction(Problem("G009", "this is not a chance event"))
    if value not in [g[0] for g in node.draws.groups]:
        raise IllegalAction(Problem("G008", f"{value!r} is not an outcome of this chance event"))
    _apply(game, node, value)


def _apply(game: Game, node: ChanceNode, value: int) -> None:
    if not _next_draw(game, node, value) and not _go_on(game, node, value):
        run_step(game, node.step, node.outcomes + [value], node.spent)


def apply_chance_action(game: Game, action: Any) -> None:
    """`Game.apply` at a chance node: an outcome's action, its index, or its label."""
    node = game._chance
    if type(action) is int and node is not None and 0 <= action < len(node.draws.groups):
        _apply(game, node, node.value(action))  # an index, as a playout gives: no label is made, no check
        return
    apply_outcome(game, chosen_outcome(game, action))  # raises IllegalAction with the reason
