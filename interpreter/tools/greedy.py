"""The greedy bot: one move ahead (and its own next decision), judged by the ruleset's heuristic, on
determinizations only.

For each option it applies the option on a few determinizations of the game for its seat (the same ones
for every option, so that options are compared on the same deals; more of them for a sealed decision,
where a bid's cost shows only in the deals it wins) and averages the ruleset's
`agents.greedy` expression (else the score) for its seat. Others' sealed choices are guessed at random
on each determinization, never read from the real game. Ties break at random, except in a sealed
decision, where the first of the tied options is taken.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from meeple.tools.policy import forget_sealed, heuristic, options

if TYPE_CHECKING:
    from meeple.runtime.game import Game

DEALS = 2  # determinizations per decision: a one-move lookahead rarely reaches hidden information
SEALED_DEALS = 8  # times as many for a sealed decision, whose outcome hangs on the others' guessed choices
FOLLOW_UPS = 40  # evaluations per option of the seat's own next decision ("use the tile?", then "which camel")


class GreedyAgent:
    """One-ply lookahead on `deals` determinizations, maximising the ruleset's heuristic."""

    name = "greedy"

    def __init__(self, seed: int = 0, deals: int = DEALS) -> None:
        self.rng = random.Random(seed)
        self.deals = deals

    def choose(self, game: Game, player: int) -> int:
        n = options(game, player)
        if n == 1:
            return 0
        rng = self.rng
        if game.rs.greedy is None and game.rs.score is None:
            return rng.randrange(n)
        totals = [0.0] * n
        sealed = len(game.state.pending["players"]) > 1
        for _ in range(self.deals * (SEALED_DEALS if sealed else 1)):
            d = game.determinize(player, rng.getrandbits(62))
            forget_sealed(d, player)
            others = [s for s in d.deciders if s != player]
            guesses = rng.getrandbits(62)
            for i in range(n):
                g = d.copy()
                g.apply_index(i, player)
                # Others in a sealed decision: the same random guesses for every option.
                guess = random.Random(guesses)
                for s in others:
                    if not g.is_over and s in g.deciders:
                        g.apply_index(guess.randrange(g.num_actions(s)), s)
                totals[i] += self._follow_up(g, player, [FOLLOW_UPS])
        top = max(totals)
        # Equal up to rounding: averages of the same values summed in another order.
        best = [i for i in range(n) if totals[i] >= top - 1e-9]
        # A tie in a sealed decision mostly means no guess reached the options' consequences (a bid that
        # never won): take the ruleset's first (default) option then, not a random bid.
        return best[0] if len(best) == 1 or sealed else rng.choice(best)

    def _follow_up(self, g: Game, player: int, budget: list[int]) -> float:
        """The heuristic once the seat's own run of decisions is over: while it alone must decide again
        at once ("use the tile?", "which camel?", "add a card or sell?"), it takes its best next option,
        one move ahead, within a budget of evaluations. An option whose worth shows only in the choices it
        leads to is judged by them."""
        while not g.is_over and g.deciders == [player] and budget[0] > 0:
            best, best_value = None, None
            for j in range(g.num_actions(player)):
                if budget[0] <= 0:
                    break
                budget[0] -= 1
                h = g.copy()
                h.apply_index(j, player)
                v = heuristic(h, player)
                if best_value is None or v > best_value:
                    best, best_value = h, v
            if best is None:
                break
            g = best
        return heuristic(g, player)
