"""Two shortcuts of explicit chance: work a game keeps so as not to run or copy it again.

**A new game starts as a copy of the first one made alike** (Game.new, `reused`). Nothing is drawn
before a game's first chance node, so what its start runs up to that node depends only on the ruleset,
the player count and how the game is made (quiet or narrated, its step budget and evaluator), never on
the seed, which only seeded draws read and the state only records. So the first game made alike runs
its start, and every later one is a copy of it with its own seed. They share the state their replays
start from, and a replay gives its state the game's seed (explicit.run_step). The node they start at
is shared too, and so are the few after it, with what their outcomes give (chancenodes.py).

**A decision runs its step in the game's own state** (Game._resolve, `resolve`). A step that stops at
a random event becomes a chance node, and the node replays the step from the state the step started
from (explicit.py). A game whose rules may draw after a decision used to copy its state before every
decision's step, in case the step drew. Most steps draw nothing: a reshuffle, or a die rolled deep in
a procedure, comes a few times in a game of hundreds of decisions, and the copy cost as much as the
step of many decisions. So the step runs in place, as in a seeded game, and the game keeps a *mark*
instead (`Game._mark`): a copy of the state one step started from, taken again every MARK_EVERY
decisions, and the choices of every decision since, in the order they were made. When a step does
stop at a random event, the state it started from is rebuilt from the mark: a copy of it, with the
steps since run again, choice by choice (`_rebuilt`). None of those steps drew (a step that draws
leaves a chance node, and the mark is dropped) and the rules are deterministic, so this is the state
the copy would have been: the same counters, zones, frames, step count and action log. What the
chance node shows is the game's own state as the random event found it, as before.

The mark is dropped wherever the state may differ from what its steps give: at a chance node, and
after a query that ran rules or an `evaluate` (`forget`). A copy of the game shares the mark's state,
which is only ever copied, and takes its own list of choices (`copied`).
"""

from __future__ import annotations

from typing import Any

from meeple.language.model import Ruleset
from meeple.runtime import explicit as X
from meeple.runtime import machine as M
from meeple.runtime.chance import NeedChance
from meeple.runtime.decisions import build_menu
from meeple.runtime.limits import located
from meeple.runtime.state import GameState

Game = Any  # runtime.game.Game, which imports this module
Mark = tuple[GameState, list[list[tuple[int, int]]]]  # (a step's starting state, the choices of each decision since)

# A new mark costs one copy of the state; a random event costs running again the steps since the mark,
# half of MARK_EVERY on average. With a copy worth about a third of a step (6-9 µs against 18-53 µs a
# decision in the bundled games) and one random event after the start in some 150-300 decisions, the
# sum of the two is smallest near 12-16 decisions, and flat there.
MARK_EVERY = 16


def resolve(game: Game, opt: list) -> None:
    """Every decider has chosen (`opt` last): run on to the next decision in the game's own state, or
    to the random event the step stops at, which becomes the game's chance node."""
    st = game.state
    mark = game._mark
    if mark is None or len(mark[1]) >= MARK_EVERY:
        mark = game._mark = (st.copy(), [])  # this step's start, its choices recorded
    else:
        mark[1].append(list(st.pending["chosen"].items()))  # in the order they were made
    try:
        _run(game, game._ev, st, opt)
    except NeedChance as need:
        game._mark = None
        X.stopped(game, st, X.resolving(game, _rebuilt(game, mark)), [], need)
    except Exception as e:  # noqa: BLE001 - the safety net, as in Game._resolve
        raise located(e) from None


def _rebuilt(game: Game, mark: Mark) -> GameState:
    """The state the current step started from, with its choices recorded: the mark's, with each step
    since run again. Only ever copied, as a chance node's base is."""
    first, since = mark
    if not since:
        return first
    b = first.copy()
    ev = type(game._ev)(game.rs, b)
    for chosen in since:
        _run(game, ev, b)
        pending = b.pending
        if pending["options"] is None:  # a lazy game's menu, worked out when the decision was made
            ev.limit, ev.depth = b.steps + game.max_steps, 0
            build_menu(ev)
        options = pending["options"]
        for seat, i in chosen:  # as Game.apply_index and Game._choose record a choice
            pending["chosen"][seat] = i
            b._actions.append((seat, options[seat][i]))
    return b


def _run(game: Game, ev: Any, st: GameState, opt: list | None = None) -> None:
    """Run the step whose choices `st` records, as Game._resolve does."""
    ev.limit, ev.depth = st.steps + game.max_steps, 0
    if not st.quiet:
        st.before = (dict(st.loc), frozenset(st.facedown))
    M.resume(ev, opt)


def copied(mark: Mark | None) -> Mark | None:
    """The mark of a copy of the game: the same starting state, its own list of choices."""
    return None if mark is None else (mark[0], mark[1][:])


def forget(game: Game) -> None:
    """Something ran rules in the game's state outside a step (a query that counted steps, `evaluate`):
    its next step keeps a new mark, and an open chance event replays its step (explicit.forget_place)."""
    game._mark = None
    X.forget_place(game)


# ------------------------------------------------------------ new games
def reused(cls: Any, rs: Ruleset, players: int, seed: int, quiet: bool) -> Game | None:
    """A new game with explicit chance (no coverage, no `before_flow`) as a copy of the first one made
    alike (`first_start`), with this game's seed. None until there is a first one."""
    first = rs.derived().get(_start_key(cls, players, quiet))
    return None if first is None else _copy_of(cls, rs, first, seed)


def _start_key(cls: Any, players: int, quiet: bool) -> tuple:
    return ("explicit start", players, quiet, cls.max_steps, cls.evaluator_class)


def first_start(cls: Any, rs: Ruleset, st: GameState) -> Game:
    """Start the first game made alike from `st` (Game.new's state), and keep it for `reused`. A failing
    start raises here, as it would in any game, and is not kept."""
    t = cls(rs, st)
    X.start(t, st)
    if t._chance is not None:  # the node every game made alike starts at
        t._chance = t._chance.shared()
    first = rs.derived()[_start_key(cls, st.nplayers, st.quiet)] = (t.state, t._chance)
    return _copy_of(cls, rs, first, st.seed)


def _copy_of(cls: Any, rs: Ruleset, first: tuple, seed: int) -> Game:
    shown, node = first
    own = shown.copy()
    own.seed = seed
    g = cls(rs, own)
    g._chance = node  # never changed in place, as copies of a game share it
    return g
