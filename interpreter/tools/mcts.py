"""Monte Carlo tree search over determinizations (information-set MCTS), for any ruleset.

Each iteration deals a fresh determinization of the game for the deciding seat (`game.determinize`):
everything that seat cannot see is dealt again, and the random generator too. It then walks one tree
shared by all determinizations (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012): a node is a
sequence of actions (by their stable keys), and an action's statistics count only the visits in which
it was legal ("availability"), so a card another player may or may not hold is judged fairly. Where
nothing is hidden a determinization only reseeds future chance, and this is plain UCT.

Sealed decisions (`simultaneous`) are searched as such: at a node where several seats decide at once,
each decider picks from its own statistics, never conditioned on the others' picks (decoupled UCT), and
the root seat's determinization has forgotten every other seat's sealed choice.

An iteration ends at the end of the game, or after `cutoff` random rollout decisions, where the
ruleset's heuristic (`agents.greedy`, else the score) ranks the seats. Rewards: 1 for a win, a win
shared on ties, 0 for a loss (policy.rewards). The seat then plays the root action it visited most.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING

from meeple.runtime.decisions import key
from meeple.tools.policy import forget_sealed, options, rewards

if TYPE_CHECKING:
    from meeple.runtime.game import Game

EXPLORATION = 0.7  # UCB1's constant for rewards in [0, 1], as ISMCTS papers use


class Node:
    """Statistics of one sequence of actions: per deciding seat, per action key, [visits, reward sum,
    times available]; children by the keys the deciders chose."""

    __slots__ = ("children", "stats")

    def __init__(self) -> None:
        self.stats: dict[int, dict[str, list[float]]] = {}
        self.children: dict[tuple[str, ...], Node] = {}


class MctsAgent:
    """Information-set MCTS with a budget of `iterations`, or of `seconds` per decision."""

    name = "mcts"

    def __init__(self, seed: int = 0, iterations: int | None = None, seconds: float | None = None,
                 cutoff: int | None = None, exploration: float = EXPLORATION) -> None:
        self.rng = random.Random(seed)
        self.iterations = iterations if iterations is not None or seconds is not None else 200
        self.seconds = seconds
        self.cutoff = cutoff
        self.exploration = exploration

    def choose(self, game: Game, player: int) -> int:
        n = options(game, player)
        if n == 1:
            return 0
        root = Node()
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            self._iterate(game, player, root)
            done += 1
        stats = root.stats.get(player, {})
        keys = [key(o) for o in game.state.pending["options"][player]]
        best, best_rank = 0, (-1.0, -1.0)
        for i, k in enumerate(keys):
            s = stats.get(k)
            rank = (s[0], s[1]) if s else (0.0, 0.0)
            if rank > best_rank:
                best, best_rank = i, rank
        return best

    def _iterate(self, game: Game, player: int, root: Node) -> None:
        rng = self.rng
        g = game.determinize(player, rng.getrandbits(62))
        forget_sealed(g, player)
        path: list[tuple[dict[str, list[float]], int, str]] = []
        node: Node | None = root
        # Selection and expansion: down the tree while every decider has tried every option here.
        while node is not None and not g.is_over:
            pending = g.state.pending
            chosen = pending["chosen"]
            deciders = [s for s in pending["players"] if s not in chosen]
            picks: list[str] = []
            expanded = False
            for s in deciders:
                opts = pending["options"][s]
                keys = [key(o) for o in opts]
                stats = node.stats.setdefault(s, {})
                i = self._select(stats, keys)
                if keys[i] not in stats:
                    stats[keys[i]] = [0.0, 0.0, 0.0]
                    expanded = True
                for k in keys:
                    if k in stats:
                        stats[k][2] += 1
                picks.append(keys[i])
                path.append((stats, s, keys[i]))
                g.apply_index(i, s)
            child = node.children.get(tuple(picks))
            if child is None:
                child = node.children[tuple(picks)] = Node()
            node = None if expanded else child
        # Rollout: random play to the end, or for `cutoff` decisions and then the heuristic.
        steps = 0
        while not g.is_over and (self.cutoff is None or steps < self.cutoff):
            g.apply_index(rng.randrange(g.num_actions()))
            steps += 1
        reward = rewards(g)
        for stats, s, k in path:
            st = stats[k]
            st[0] += 1
            st[1] += reward[s]

    def _select(self, stats: dict[str, list[float]], keys: list[str]) -> int:
        untried = [i for i, k in enumerate(keys) if k not in stats]
        if untried:
            return untried[self.rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
        c = self.exploration
        best, best_value = 0, -math.inf
        for i, k in enumerate(keys):
            n, w, avail = stats[k]
            value = w / n + c * math.sqrt(math.log(avail + 1) / n) if n > 0 else math.inf
            if value > best_value:
                best, best_value = i, value
        return best
