"""Monte Carlo tree search over determinizations (information-set MCTS), for any ruleset.

Each iteration deals a fresh determinization of the game for the deciding seat (`game.determinize`):
everything that seat cannot see is dealt again, and the random generator too. It then walks one tree
shared by all determinizations (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012): a node is a
sequence of actions, by their keys as the deciding seat reads them (`Game.menu_keys`: a card it cannot
see is `#?`, never the id that would name the same card in every deal), and an action's statistics count
only the visits in which it was legal ("availability"), so a card another player may or may not hold is
judged fairly (plain UCT where nothing is hidden: a determinization then only reseeds future chance).

Sealed decisions (`simultaneous`) are searched as such: at a node where several seats decide at once,
each decider picks from its own statistics, never conditioned on the others' picks (decoupled UCT), and
the root seat's determinization has forgotten every other seat's sealed choice.

An iteration ends at the end of the game (rewards: 1 for a win, a win shared on ties, 0 for a loss),
after `cutoff` rollout decisions, or (`to_phase`) where the next phase begins, where the ruleset's
`agents.value` (else its heuristic) estimates them (policy.rewards). The seat plays the root action it
visited most.

Two optional uses of the heuristic make the search play better than its random playouts allow:

- `guide`: the share of rollout decisions taken one move ahead (the option whose result the heuristic
  rates best for the seat that chooses, a win above all; at most SAMPLE options are tried), the rest at
  random. Rollouts already run in a determinized world, so looking ahead in them peeks at nothing.
- `prior`: options start with `prior` virtual visits worth the option's heuristic value scaled to
  [0, 1] among its siblings: greedy's judgement at the root, one move ahead deeper. Good options are
  tried first, which big menus (a sealed bid of 0 to 25) need: without a prior every option must be
  tried before any is tried twice.

Two optional models of the other seats, for small budgets where their own search is mostly noise:

- `sealed="greedy"`: at a sealed decision, the other deciders in the tree, and every decider in a
  rollout, choose as the greedy bot does (others' choices guessed at random, own follow-ups taken).
- `others="greedy"`: every choice of another seat in the tree is the best one move ahead (as greedy,
  with follow-ups at sealed decisions), so the tree branches only on the searching seat's options;
  `"follow"`: the one the greedy bot takes, after that seat's own follow-up decisions. Both judge a
  node once, on the first deal that reaches it; `"dealt"` judges one move ahead on every iteration's
  deal, so that a modelled seat's choice follows the hidden cards it may hold.

`follow` judges an option after the seat's own follow-up decisions, as the greedy bot does, and a guided
rollout takes that whole run (several times the cost per rollout decision). docs/agents.md measures all.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from meeple.runtime.machine import FINAL_PHASE
from meeple.tools.failures import MAX_DECISIONS, endless
from meeple.tools.policy import (
    FOLLOW_UPS,
    GreedyAgent,
    after,
    follow_path,
    forget_sealed,
    judged,
    look_ahead,
    one_move,
    options,
    rewards,
)

if TYPE_CHECKING:
    from meeple.runtime.game import Game

EXPLORATION = 0.7  # UCB1's constant for rewards in [0, 1], as ISMCTS papers use
SAMPLE = 8  # options tried by a guided rollout decision: enough to find a good one, cheap on big menus
GUESSES = 4  # deals of the others' sealed choices when judging a sealed option for a prior
ROLLOUT_GUESSES = 2  # fewer in a rollout's sealed choice, made far more often
PHASE_CAP = 100  # rollout decisions at most with `cut=phase`, should a phase run long


class Node:
    """Statistics of one sequence of actions: per deciding seat, per action key, [visits, reward sum,
    times available] and the prior; children by the keys the deciders chose."""

    __slots__ = ("children", "prior", "stats")

    def __init__(self) -> None:
        self.stats: dict[int, dict[str, list[float]]] = {}
        self.prior: dict[int, dict[str, float]] = {}
        self.children: dict[tuple[str, ...], Node] = {}


def scaled(values: list[float]) -> list[float]:
    """Values scaled to [0, 1] among siblings (0.5 when they are all equal), as rewards are."""
    lo, hi = min(values), max(values)
    return [0.5] * len(values) if hi - lo < 1e-9 else [(v - lo) / (hi - lo) for v in values]


class MctsAgent:
    """Information-set MCTS with a budget of `iterations`, or of `seconds` per decision."""

    name = "mcts"

    def __init__(self, seed: int = 0, iterations: int | None = None, seconds: float | None = None,
                 cutoff: int | None = None, exploration: float = EXPLORATION, guide: float = 0.0,
                 prior: float = 0.0, sealed: str = "search", others: str = "search",
                 follow: bool = False, to_phase: bool = False) -> None:
        self.rng = random.Random(seed)
        self.iterations = iterations if iterations is not None or seconds is not None else 200
        self.seconds = seconds
        # A hard limit on the time of a decision, whatever the budget (None: none): the web app's, where a
        # budget of iterations times options that multiply their cost could think for most of an hour.
        self.cap: float | None = None
        self.cutoff, self.exploration, self.guide, self.prior = cutoff, exploration, guide, prior
        self.sealed = sealed  # "search" (decoupled UCT for every decider) or "greedy" (others as greedy)
        self.others = others  # "search" (every seat searches), or other seats modelled: "greedy" or "follow"
        self.follow = follow  # guided rollouts judge an option after the seat's own follow-ups, as greedy
        self.to_phase = to_phase  # `cut=phase`: a rollout ends where the next phase begins

    def choose(self, game: Game, player: int) -> int:
        n = options(game, player)
        if n == 1:
            return 0
        root = self.search(game, player)
        stats = root.stats.get(player, {})
        best, best_rank = 0, (-1.0, -1.0)
        for i, k in enumerate(game.menu_keys(player)):
            s = stats.get(k)
            rank = (s[0], s[1]) if s else (0.0, 0.0)
            if rank > best_rank:
                best, best_rank = i, rank
        return best

    def time_limit(self) -> float | None:
        """The seconds a decision may take: the budget's, if it is one of time, within the cap."""
        return self.seconds if self.cap is None else min(self.cap, self.seconds or self.cap)

    def search(self, game: Game, player: int) -> Node:
        """The tree grown within the budget for `player`'s decision (its root)."""
        root = Node()
        keys = game.menu_keys(player)
        if self.prior > 0 and (game.rs.greedy is not None or game.rs.score is not None):
            # The greedy bot's judgement, on its own determinizations of the game (never the game itself).
            judge = GreedyAgent(self.rng.getrandbits(62))
            root.prior[player] = dict(zip(keys, scaled(judge.values(game, player)), strict=True))
        limit = self.time_limit()
        deadline = None if limit is None else time.perf_counter() + limit
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            self._iterate(game, player, root)
            done += 1
        return root

    def _iterate(self, game: Game, player: int, root: Node) -> None:
        rng = self.rng
        g = look_ahead(game, player, rng.getrandbits(62))
        path: list[tuple[dict[str, list[float]], int, str]] = []
        node: Node | None = root
        # Selection and expansion: down the tree while every decider has tried every option here.
        while node is not None and not g.is_over:
            pending = g.state.pending
            chosen = pending["chosen"]
            deciders = [s for s in pending["players"] if s not in chosen]
            picks: list[tuple[int, int, str]] = []
            expanded = False
            # Every decider picks before any pick is applied: a sealed choice never sees another.
            sealed = len(pending["players"]) > 1
            modelled = self.others != "search" or (self.sealed == "greedy" and sealed)
            for s in deciders:
                keys = g.menu_keys(s)
                stats = node.stats.setdefault(s, {})
                prior = node.prior.setdefault(s, {})
                dealt = modelled and s != player and self.others == "dealt"  # judged below, on this deal
                if (self.prior > 0 or (modelled and s != player)) and not dealt and any(k not in prior for k in keys):
                    # A sealed choice modelled as greedy's is judged as greedy judges it, after the
                    # seat's own follow-ups (one move ahead shows little there); else one move ahead,
                    # as guided rollouts judge (follow-ups at every node would cost 3 times as much),
                    # except the other seats' with `others="follow"`: modelled as the greedy bots judge.
                    as_greedy = (modelled and sealed) or self.follow or (self.others == "follow" and s != player)
                    for k, p in zip(keys, scaled(self._one_ply(g, s, as_greedy)), strict=True):
                        prior.setdefault(k, p)
                for k in keys:  # availability: this option was on the menu
                    st = stats.get(k)
                    if st is None:
                        stats[k] = [0.0, 0.0, 1.0]
                    else:
                        st[2] += 1
                if modelled and s != player:
                    # Another seat's choice, as the greedy bot would make it: the option its one-move
                    # judgement (guessing the others' sealed choices) rates best, the first on ties; with
                    # `dealt` judged on this deal, so that it follows the cards the seat may hold here.
                    values = self._one_ply(g, s, sealed or self.follow) if dealt else [prior[k] for k in keys]
                    i = max(range(len(keys)), key=lambda j: (values[j], -j))
                else:
                    i = self._select(stats, prior, keys)
                    expanded = expanded or stats[keys[i]][0] == 0
                picks.append((s, i, keys[i]))
                path.append((stats, s, keys[i]))
            for s, i, _ in picks:
                g.apply_index(i, s)
            child_key = tuple(k for _, _, k in picks)
            child = node.children.get(child_key)
            if child is None:
                child = node.children[child_key] = Node()
            node = None if expanded else child
        reward = self._playout(g, rng)
        for stats, s, k in path:
            st = stats[k]
            st[0] += 1
            st[1] += reward[s]

    def _playout(self, g: Game, rng: random.Random) -> list[float]:
        """The rewards after a rollout from `g`: to the end, or cut (see the module's docstring) if the
        ruleset has a value, a heuristic or a score (without one, a cut rollout tells no seat apart).
        The rollout's random choices come from `rng`: the agent's own generator in the tree; `halving`
        gives every option's rollout a generator seeded alike, so that they share their luck."""
        judged = any(x is not None for x in (g.rs.value, g.rs.greedy, g.rs.score))
        cutoff = self.cutoff if judged else None
        watch = self.to_phase and judged and g.state.phase != FINAL_PHASE
        if watch:
            # The rollout's copy forgets its phase, so that the next `phase` to run shows, even the same
            # one again (the name is read only for views and score notes, which a quiet rollout never
            # makes; final scoring keeps its name, which the machine checks).
            g.state.phase = ""
            cutoff = PHASE_CAP
        steps = 0
        while not g.is_over and (cutoff is None or steps < cutoff):
            if steps >= MAX_DECISIONS:  # a game that may never end: no time budget helps a rollout inside it
                raise endless(g, MAX_DECISIONS, "in a rollout of a search bot's look-ahead")
            g = self._rollout_step(g, g.deciders[0], rng)
            steps += 1
            if watch and g.state.phase:
                break
        return rewards(g)

    def _rollout_step(self, g: Game, seat: int, rng: random.Random) -> Game:
        """The game after one rollout decision of `seat` (`g` itself, or a copy of it): at random, or
        guided one move ahead (with `follow`, after the seat's own follow-up decisions, which the
        rollout then takes as greedy would)."""
        n = g.num_actions(seat)
        if n > 1 and self.sealed == "greedy" and len(g.state.pending["players"]) > 1:
            g.apply_index(self._sealed_pick(g, seat, rng), seat)
            return g
        if n == 1 or self.guide <= 0 or rng.random() >= self.guide:
            g.apply_index(rng.randrange(n), seat)
            return g
        best: list[Game] = []
        best_value = -math.inf
        for j in (range(n) if n <= SAMPLE else rng.sample(range(n), SAMPLE)):
            h = g.copy()
            h.apply_index(j, seat)
            if self.follow and not h.is_over:
                v, h = follow_path(h, seat, [FOLLOW_UPS])
            else:
                v = one_move(h, seat)
            if v > best_value + 1e-9:
                best, best_value = [h], v
            elif v >= best_value - 1e-9:
                best.append(h)
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]

    def _sealed_pick(self, g: Game, seat: int, rng: random.Random) -> int:
        """A rollout's sealed choice, made as the greedy bot makes it: the option whose result, over a
        few guesses of the other deciders' choices, the heuristic rates best (after the seat's own
        follow-up decisions), the first on ties; at most SAMPLE options, always with the first (the
        ruleset's default). Choices already made in this rollout are forgotten first: sealed."""
        h = g.copy()
        forget_sealed(h, seat)
        n = h.num_actions(seat)
        tried = range(n) if n <= SAMPLE else sorted({0, *rng.sample(range(1, n), SAMPLE - 1)})
        values = self._greedy_values(h, seat, list(tried), ROLLOUT_GUESSES, rng)
        return max(zip(tried, values, strict=True), key=lambda t: (t[1], -t[0]))[0]

    def _greedy_values(self, g: Game, seat: int, tried: list[int], guesses: int, rng: random.Random,
                       judge: Callable[[Game, int], float] = judged) -> list[float]:
        """Each tried option's value by `judge`, averaged over `guesses` random guesses of the other
        deciders' choices (the same guesses for every option), drawn from `rng`."""
        others = [s for s in g.deciders if s != seat]
        deals = [rng.getrandbits(62) for _ in range(guesses)]
        return [sum(judge(after(g, j, seat, others, d), seat) for d in deals) / guesses for j in tried]

    def _one_ply(self, g: Game, seat: int, as_greedy: bool = False) -> list[float]:
        """Each option's value one move ahead on this determinization; in a sealed decision, averaged
        over a few random guesses of the other deciders' choices (the same guesses for every option).
        `as_greedy`: judged as the greedy bot judges, after the seat's own follow-up decisions."""
        guesses = GUESSES if any(s != seat for s in g.deciders) else 1
        return self._greedy_values(g, seat, list(range(g.num_actions(seat))), guesses, self.rng,
                                   judged if as_greedy else one_move)

    def _select(self, stats: dict[str, list[float]], prior: dict[str, float], keys: list[str]) -> int:
        m = self.prior
        if m <= 0:
            untried = [i for i, k in enumerate(keys) if stats[k][0] == 0]
            if untried:
                return untried[self.rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
        c = self.exploration
        best, best_value = 0, -math.inf
        for i, k in enumerate(keys):
            n, w, avail = stats[k]
            # The prior counts as m visits with the option's scaled heuristic value as their reward; an
            # option not yet tried has the exploration bonus of one tried once.
            q = (w + m * prior.get(k, 0.5)) / (n + m)
            v = q + c * math.sqrt(math.log(avail + 1) / max(n, 1.0))
            if v > best_value:
                best, best_value = i, v
        return best
