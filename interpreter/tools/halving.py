"""The search bot's flat mode (`mcts:...:halving`): the root's options compared on shared deals.

The tree search compares options on different deals: each iteration deals its own determinization and
its own rollout luck, so a difference between two options is buried in the difference between their
deals, and a hundred iterations spread over a menu tell little. Here every option still in the running is
played on the same deals (common random numbers): the same determinization of the game, the same
rollout generator, so where two options lead to the same position the rollouts play on identically and
only what the options change shows in their rewards. The options are narrowed by sequential halving
(Karnin, Koren and Somekh, 2013): start with the `width` options the greedy bot rates best, play each
on a round of deals, keep the better half by mean reward, deal a new round, until one is left.

A variant that kept greedy's choice in every round and gave it up only for an option that beat it by
more than a standard error of the paired differences was measured and dropped: on the same 48 deals of
a bundled game it won 17 games where this one won 22.5 (docs/agents.md, "Shared deals").

Nothing is grown below the root: it is a tree of depth one, and the rollouts carry the lookahead. They
are the search bot's (`cut`, `guide`, `sealed`, `follow`): with the greedy bot's judgement in the
rollouts, this is a rollout policy improvement over greedy (Tesauro and Galperin, 1996; Bertsekas): the
option greedy would take is replaced only when the greedy play that follows each option says another
does better, against opponents who play like greedy too. Like every bot it sees only
`game.determinize`, never the game itself.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING

from meeple.tools.mcts import MctsAgent
from meeple.tools.policy import GreedyAgent, look_ahead, options

if TYPE_CHECKING:
    from meeple.runtime.game import Game

WIDTH = 4  # options kept from greedy's judgement: the ones a search can tell apart in a small budget


class HalvingAgent(MctsAgent):
    """Sequential halving over the root's best `width` options (by greedy's judgement), each played on
    the same deals with the search bot's rollouts; `iterations` (or `seconds`) is the number of
    rollouts (or the time) for the whole decision."""

    name = "mcts"

    width = WIDTH  # options compared (spec `halving=W`)

    def choose(self, game: Game, player: int) -> int:
        n = options(game, player)
        if n == 1:
            return 0
        judged = GreedyAgent(self.rng.getrandbits(62)).values(game, player)
        # Greedy's best first, the first option on ties (a sealed decision's default).
        ranked = sorted(range(n), key=lambda i: (-judged[i], i))
        alive = ranked[: self.width]
        results: dict[int, list[float]] = {i: [] for i in alive}  # rewards deal by deal
        rounds = max(1, math.ceil(math.log2(len(alive))))
        start = time.perf_counter()
        for r in range(rounds):
            if len(alive) == 1:
                break
            # The time left shared by the rounds left (a budget of time, or the cap); at least one deal.
            limit = self.time_limit()
            deadline = None if limit is None else start + limit * (r + 1) / rounds
            if self.seconds is not None:
                deals = 0
                while deals == 0 or (deadline is not None and time.perf_counter() < deadline):
                    self._deal(game, player, alive, results)
                    deals += 1
            else:
                for k in range(max(1, (self.iterations or 0) // (rounds * len(alive)))):
                    if k and deadline is not None and time.perf_counter() >= deadline:
                        break
                    self._deal(game, player, alive, results)
            # The better half goes on (every option alive has played the same deals, so sums compare);
            # greedy's order breaks ties (a stable sort of greedy's ranking).
            alive = sorted(alive, key=lambda i: -sum(results[i]))[: max(1, len(alive) // 2)]
        return alive[0]

    def _deal(self, game: Game, player: int, alive: list[int], results: dict[int, list[float]]) -> None:
        """Play every option in `alive` on one new deal (the same determinization and the same rollout
        luck for all), adding each one's reward for `player` to its `results`."""
        d = look_ahead(game, player, self.rng.getrandbits(62))
        luck = self.rng.getrandbits(62)
        for i in alive:
            g = d.copy()
            g.apply_index(i, player)
            # Every option's rollout draws from a generator seeded alike: the same luck for each.
            results[i].append(self._playout(g, random.Random(luck))[player])
