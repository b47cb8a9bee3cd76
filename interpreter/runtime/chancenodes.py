"""What a game with explicit chance keeps at a chance node (runtime/explicit.py runs the steps): the step to
replay, the outcomes drawn so far and those possible now, and what games made alike share.

**Games made alike share their first chance nodes.** Every new game of a ruleset with explicit chance
starts at one node (shortcuts.reused), and its first outcomes lead every such game to the same few nodes:
a three-card deal has three, then six. Such a node has a `reach` (how many nodes there can be at its depth)
and keeps, per outcome, the next node (`_next`) and, once a shuffle's last draw has run the rest of its
step, the state that gave and the chance node it stopped at (`_after`): the same in every game that drew
alike, since explicit chance draws nothing from the seed. The first game to get there runs the step and
keeps a copy; the others take a copy of it, with their own seed (explicit._adopt). A game at such a node
whose state ran anything since (its step count moved) replays its step as any game does.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from meeple.language.model import Ruleset
from meeple.runtime.chance import Draws, Shuffling
from meeple.runtime.state import GameState
from meeple.runtime.values import show

# How a step runs from the state it replays from: the setup and flow from the start, the choice
# recorded in the state, or (REST) the frames as they are, after a shuffle done in place.
START, RESOLVE, REST = "start", "resolve", "rest"

# Games made alike share their nodes while there are at most this many at a depth: a three-card deal has
# 3 and 6, a shuffled bag of cubes of five kinds 5, 25 and 125, then too many to be worth keeping.
SHARED_REACH = 256


class Step(NamedTuple):
    """Where a step is replayed from: a state (never run, only copied), how the step goes on from it, the
    step's budget (the step count it may not pass); for REST, the frame whose index is put back after a
    run (its depth, the index it ran from, the index where its stretch began) and the outcomes the step
    drew before `base`, which the action log gets with the others once the step has run."""

    base: GameState
    resume: str
    limit: int
    restore: tuple[int, int, int] | None = None
    drawn: tuple[int, ...] = ()


class ChanceNode:
    """An open chance event: the step to rerun (`step`), the outcomes so far, the outcomes now."""

    __slots__ = ("_after", "_next", "_options", "at", "draws", "outcomes", "reach", "rs", "shuffle", "spent",
                 "step", "steps")

    def __init__(self, rs: Ruleset, step: Step, outcomes: list[int], draws: Draws,
                 shuffle: Shuffling | None = None, at: tuple[int, str, int] | None = None,
                 steps: int = -1, reach: int = 0, spent: int = 0) -> None:
        self.rs = rs
        # The statements the step's runs up to this event repeated of earlier runs (each one that began
        # again from the step's base): what the next run has spent of the step's budget (explicit._run).
        self.spent = spent
        self.step = step
        self.outcomes = outcomes  # drawn since the step's `base`
        self.draws = draws
        self.shuffle = shuffle  # the shuffle this draw is one of, if any: its next draws need no replay
        # Where the step may go on once the shuffle is drawn, without a replay (`_go_on`): the index of
        # the `shuffle` statement in the block of the frame on top, its zone, the outcomes before it;
        # and the step count of the state shown, which nothing may have changed since.
        self.at = at
        self.steps = steps
        self._options: list[tuple[int, Fraction, str]] | None = None
        # The next draws of the shuffle (Shuffling.after), kept by the draw a step stopped at and by the
        # nodes games made alike share: each game coming there would make the same next node again.
        self._next: dict[int, ChanceNode] | None = {} if reach or shuffle is not None and shuffle.first else None
        self.reach = reach  # 0: a node of this game's own (or of too many)
        # (outcome, whether the game is lazy) -> the state the rest of the step gave, and its next node
        self._after: dict[tuple[int, bool], tuple[GameState, ChanceNode | None]] | None = {} if reach else None

    @property
    def base(self) -> GameState:
        return self.step.base

    @property
    def options(self) -> list[tuple[int, Fraction, str]]:
        """(value, probability, label) of each outcome, made when first asked for."""
        if self._options is None:
            self._options = [(v, p, show(item, self.rs)) for v, p, item in self.draws.outcomes()]
        return self._options

    def replayed(self) -> ChanceNode:
        """The same event, its step to be replayed from `base` (nodes are shared by copies of a game)."""
        return ChanceNode(self.rs, self.step, self.outcomes, self.draws, self.shuffle, spent=self.spent)

    def shared(self) -> ChanceNode:
        """This node as the one every new game made alike starts at (shortcuts.first_start)."""
        return ChanceNode(self.rs, self.step, self.outcomes, self.draws, self.shuffle, self.at, self.steps, 1,
                          self.spent)

    def reach_after(self) -> int:
        """The `reach` of the nodes after this one: 0 once they are too many to share."""
        r = self.reach * len(self.draws.groups)
        return r if r <= SHARED_REACH else 0

    def value(self, i: int) -> int:
        return self.draws.groups[i][0]
