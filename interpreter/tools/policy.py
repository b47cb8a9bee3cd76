"""What every bot shares: the Agent protocol, seeds, option counts, the heuristic and the rewards.

Bots see only the Game API. Those that look ahead (greedy, mcts) never look at the real game: they
look at `game.determinize(seat, seed)`, a copy in which everything their seat cannot see has been dealt
again, so that they cannot peek at a deck's order, another hand or a sealed bid.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any, Protocol

from meeple.errors import Problem, RuntimeRuleError
from meeple.runtime.data import Player

if TYPE_CHECKING:
    from meeple.runtime.game import Game


def mix_seed(*parts: Any) -> int:
    """A 63-bit seed derived from the parts only. Simulations derive every game's and every bot's seed
    this way, so results do not depend on the order games run in or on the number of workers."""
    digest = hashlib.sha256(repr(parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class Agent(Protocol):
    name: str

    def choose(self, game: Game, player: int) -> int: ...


def options(game: Game, player: int) -> int:
    """How many options `player` has now; an empty menu is an error (a guard for API misuse)."""
    n = game.num_actions(player)
    if n <= 0:  # the interpreter reports empty menus itself (R002)
        raise RuntimeRuleError(Problem("A001", f"P{player + 1} has no legal action to choose from"))
    return n


def heuristic(game: Game, player: int) -> float:
    """The ruleset's `agents.greedy` expression for `player` (else its score): higher is better."""
    expr = game.rs.greedy if game.rs.greedy is not None else game.rs.score
    if expr is None:
        return 0
    value = game._ev.eval(expr, {"p": Player(player)})
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RuntimeRuleError(Problem(
            "A002", f"the greedy heuristic must be a number, but it is {value!r}",
            hint="check `agents.greedy` (or `scoring.score`) in the ruleset"))
    return value


def rewards(game: Game) -> list[float]:
    """1 for a win, 0 for a loss, a win shared on ties: by the ruleset's scoring and tie-breaks when the
    game is over, else by the heuristic (the seats it ranks first share the win)."""
    n = game.state.nplayers
    if game.is_over:
        best = game.winners
    else:
        values = [heuristic(game, p) for p in range(n)]
        top = max(values)
        best = [p for p in range(n) if values[p] == top]
    out = [0.0] * n
    for p in best:
        out[p] = 1.0 / len(best)
    return out


def forget_sealed(game: Game, player: int) -> None:
    """In a determinization, others' sealed choices are only guesses: forget them, so that search and
    lookahead choose them again without seeing `player`'s (and `player` never sees theirs)."""
    pending = game.state.pending
    if pending is not None and len(pending["players"]) > 1:
        pending["chosen"] = {s: i for s, i in pending["chosen"].items() if s == player}
