"""What every bot shares (the Agent protocol, seeds, option counts, the heuristic, the rewards) and the
simple bots: random, first, and greedy.

Bots see only the Game API. Those that look ahead (greedy, mcts) never look at the real game: they
look at `game.determinize(seat, seed)`, a copy in which everything their seat cannot see has been dealt
again, so that they cannot peek at a deck's order, another hand or a sealed bid.

The greedy bot looks one move ahead, judged by the ruleset's heuristic, on determinizations only. For
each option it applies the option on a few determinizations (the same ones for every option, so that
options are compared on the same deals; more of them for a sealed decision, where a bid's cost shows only
in the deals it wins) and averages the ruleset's `agents.greedy` expression (else the score) for its
seat. Others' sealed choices are guessed at random on each determinization, never read from the real
game. Ties break at random, except in a sealed decision, where the first of the tied options is taken.
"""

from __future__ import annotations

import hashlib
import math
import random
from typing import TYPE_CHECKING, Any, Protocol

from meeple.errors import Problem, RuntimeRuleError, UsageError
from meeple.runtime.data import Player
from meeple.tools.stats import softmax

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
    if game.is_chance:  # found by QA: random and first answered 0, greedy failed deep inside
        raise UsageError(Problem("A002", "a chance event is open: a bot chooses only at a player's decision",
                                 hint="apply one of game.chance_outcomes() first (or game.apply_index(i))"))
    n = game.num_actions(player)
    if n <= 0:  # the interpreter reports empty menus itself (R002)
        raise RuntimeRuleError(Problem("A001", f"P{player + 1} has no legal action to choose from"))
    return n


def heuristic(game: Game, player: int) -> float:
    """The ruleset's `agents.greedy` expression for `player` (else its score): higher is better."""
    expr = game.rs.greedy if game.rs.greedy is not None else game.rs.score
    if expr is None:
        return 0
    return number(game, expr, player, "the greedy heuristic", "`agents.greedy` (or `scoring.score`)")


def number(game: Game, expr: Any, player: int, what: str, where: str) -> float:
    """A ruleset expression over `p` for `player`, which must be a number (`what` and `where` name it in
    the error)."""
    value = game._query(game._ev.eval, expr, {"p": Player(player)})
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RuntimeRuleError(Problem("A002", f"{what} must be a number, but it is {value!r}",
                                       getattr(expr, "span", None), hint=f"check {where} in the ruleset"))
    return value


def rewards(game: Game) -> list[float]:
    """1 for a win, 0 for a loss, a win shared on ties, by the ruleset's scoring and tie-breaks when the
    game is over. Before the end (a rollout cut short), an estimate: the softmax of the ruleset's
    `agents.value` (hundredths of a logit) if it has one, else from the heuristic, a logistic of the
    seat's lead over the best other seat, on the scale of the values, so that a seat far behind still
    tells a better position from a worse one."""
    n = game.state.nplayers
    out = [0.0] * n
    if game.is_over:
        best = game.winners
        for p in best:
            out[p] = 1.0 / len(best)
        return out
    if game.rs.value is not None:
        # The ruleset's own estimate, in hundredths of a logit (the language has whole numbers only): the
        # seats' chances are the softmax of value / 100, the model a fitted win-probability evaluation
        # assumes (see `meeple fit-value`).
        return softmax([number(game, game.rs.value, p, "`agents.value`", "`agents.value`") / 100
                        for p in range(n)])
    values = [float(heuristic(game, p)) for p in range(n)]
    scale = max(1.0, 0.1 * max(abs(v) for v in values))
    for p in range(n):
        lead = values[p] - max(values[q] for q in range(n) if q != p) if n > 1 else 0.0
        out[p] = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, lead / scale))))
    return out


def one_move(g: Game, seat: int) -> float:
    """What a one-move lookahead maximises: a won game above everything, a lost one below, else the
    heuristic."""
    if g.is_over:
        winners = g.winners
        return 1e12 / len(winners) if seat in winners else -1e12
    return float(heuristic(g, seat))


def judged(g: Game, seat: int) -> float:
    """What the greedy bot maximises: the heuristic after the seat's own follow-up decisions; a won
    game above everything, a lost one below."""
    return one_move(g, seat) if g.is_over else follow_up(g, seat, [FOLLOW_UPS])


def forget_sealed(game: Game, player: int) -> None:
    """In a determinization, others' sealed choices are only guesses: forget them, so that search and
    lookahead choose them again without seeing `player`'s (and `player` never sees theirs)."""
    pending = game.state.pending
    if pending is not None and len(pending["players"]) > 1:
        pending["chosen"] = {s: i for s, i in pending["chosen"].items() if s == player}


def look_ahead(game: Game, player: int, seed: int) -> Game:
    """A deal for a bot's look-ahead: `game.determinize(player, seed)`, quiet (nobody reads its log)
    and lazy (a menu is worked out only when read: most look-aheads are judged and dropped), with the
    others' sealed choices forgotten."""
    d = game.determinize(player, seed)
    d.state.quiet = True
    d.state.lazy = True
    forget_sealed(d, player)
    return d


def after(game: Game, i: int, player: int, others: list[int], guesses: int) -> Game:
    """A copy of `game` after `player`'s option i and, at a sealed decision, the other deciders' choices
    guessed at random from `guesses` (the same seed for every option, so options are compared alike)."""
    g = game.copy()
    g.apply_index(i, player)
    if others:  # seeding a generator costs about 3 µs, and most decisions are not sealed
        guess = random.Random(guesses)
        for s in others:
            if not g.is_over and s in g.deciders:
                g.apply_index(guess.randrange(g.num_actions(s)), s)
    return g


class FirstAgent:
    """Always the first option: deterministic, handy for smoke tests and reproducible traces."""

    name = "first"

    def __init__(self, seed: int = 0) -> None:
        pass

    def choose(self, game: Game, player: int) -> int:
        options(game, player)
        return 0


class RandomAgent:
    """A uniformly random legal option, from its own seeded generator (not the game's, so that the
    game's randomness is the same whatever the bots do)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, player: int) -> int:
        return self.rng.randrange(options(game, player))


DEALS = 2  # determinizations per decision: a one-move lookahead rarely reaches hidden information
SEALED_DEALS = 8  # times as many for a sealed decision, whose outcome hangs on the others' guessed choices
FOLLOW_UPS = 40  # evaluations per option along the seat's own next decisions (a yes-or-no question, then "which one?")


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
        totals = self.values(game, player)
        sealed = len(game.state.pending["players"]) > 1
        top = max(totals)
        # Equal up to rounding: averages of the same values summed in another order.
        best = [i for i in range(n) if totals[i] >= top - 1e-9]
        # A tie in a sealed decision mostly means no guess reached the options' consequences (a bid that
        # never won): take the ruleset's first (default) option then, not a random bid.
        return best[0] if len(best) == 1 or sealed else rng.choice(best)

    def values(self, game: Game, player: int) -> list[float]:
        """The summed heuristic of each of `player`'s options over the determinizations (higher is
        better); the search bot uses it as its prior at the root."""
        rng = self.rng
        n = game.num_actions(player)
        totals = [0.0] * n
        sealed = len(game.state.pending["players"]) > 1
        for _ in range(self.deals * (SEALED_DEALS if sealed else 1)):
            d = look_ahead(game, player, rng.getrandbits(62))
            others = [s for s in d.deciders if s != player]
            guesses = rng.getrandbits(62)
            for i in range(n):
                totals[i] += follow_up(after(d, i, player, others, guesses), player, [FOLLOW_UPS])
        return totals


def follow_up(g: Game, player: int, budget: list[int]) -> float:
    """The heuristic once the seat's own run of decisions is over: while it alone must decide again at
    once (a yes-or-no question, "which one?", a choice between two kinds of move, or the first pick that winning a sealed
    auction brings), it takes its best next option, one move ahead, within a budget of evaluations
    (`budget[0]`, spent in place). An option whose worth shows only in the choices it leads to is judged
    by them."""
    return follow_path(g, player, budget)[0]


def follow_path(g: Game, player: int, budget: list[int]) -> tuple[float, Game]:
    """`follow_up`'s value and the game it reaches (`g` itself, or a copy along the best next options)."""
    known = None  # the heuristic of `g`, once a step has worked it out
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
        g, known = best, best_value
    return (heuristic(g, player) if known is None else known), g
