"""The greedy bot: one move ahead, judged by the ruleset's heuristic, on determinizations only.

For each option it applies the option on a few determinizations of the game for its seat (the same ones
for every option, so that options are compared on the same deals) and averages the ruleset's
`agents.greedy` expression (else the score) for its seat. Others' sealed choices are guessed at random
on each determinization, never read from the real game. Ties break at random.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from meeple.tools.policy import forget_sealed, heuristic, options

if TYPE_CHECKING:
    from meeple.runtime.game import Game

DEALS = 2  # determinizations per decision: a one-move lookahead rarely reaches hidden information


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
        for _ in range(self.deals):
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
                totals[i] += heuristic(g, player)
        top = max(totals)
        best = [i for i in range(n) if totals[i] == top]
        return best[0] if len(best) == 1 else rng.choice(best)
