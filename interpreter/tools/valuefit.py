"""Learning `agents.value`, a seat's chances of winning, from finished games (`meeple fit-value`).

The search bot scores a rollout it cuts short with the ruleset's estimate of each seat's chances
(policy.rewards). A hand-written heuristic made for the greedy bot ranks moves well but can misprice one
resource against another (how many cards a set is worth), and a search that spends by it overspends.
This module measures the exchange rate instead:

1. Play games with bots (greedy by default) and, at sampled decision points, record the ruleset's
   `agents.features` for every seat; when the game ends, record who won (a shared win split evenly).
2. Fit a conditional logit model (McFadden 1974), the model of "which of these seats wins":
   P(seat i wins) = exp(w . f_i) / sum_j exp(w . f_j), by Newton's method on the log-likelihood with a
   small ridge penalty, so that a feature that never varies gets weight 0 instead of breaking the fit.
3. Print the weights as an `agents.value` expression in hundredths of a logit (the language has whole
   numbers only), which policy.rewards turns back into chances with the same softmax.

The games are split by index into halves: a model fitted on the first half is scored on the second, so
the report shows whether the features generalise or only fit the games they came from. Positions from
one game are correlated; the fit treats them as independent, which is harmless for the weights but
means the number of positions overstates how much evidence there is.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from meeple.errors import Problem, UsageError
from meeple.runtime.game import Game
from meeple.runtime.rules import Ruleset
from meeple.tools.agents import mix_seed
from meeple.tools.backends import Backend, Interrupted, LocalBackend, Work
from meeple.tools.policy import number
from meeple.tools.simulate import check_players, play_to_end
from meeple.tools.stats import softmax

RIDGE = 1e-3  # per position: keeps the Newton step defined when a feature is constant
ROUNDS = 50  # Newton steps at most; a few usually reach the optimum

Position = list[list[float]]  # per seat, the features' values
Sample = tuple[Position, list[float]]  # a position and each seat's share of the win


@dataclass
class Fit:
    features: list[str]  # the expressions, as written in the ruleset
    weights: list[float]  # logits per unit of each feature
    games: int
    positions: int
    loss: float  # mean log-loss of the fitted model over every position (nats; lower is better)
    loss_rounded: float  # the same for the printed, rounded expression
    loss_chance: float  # the same for "every seat is as likely": the baseline a model must beat
    held_out: float  # mean log-loss on the second half of the games of a model fitted on the first
    favourite_won: float  # share of positions whose most likely seat (by the model) went on to win

    @property
    def hundredths(self) -> list[int]:
        return [round(100 * w) for w in self.weights]

    def expression(self) -> str:
        """The `agents.value` expression of the fit, in hundredths of a logit."""
        terms = [(c, f) for c, f in zip(self.hundredths, self.features, strict=True) if c != 0]
        if not terms:
            return "0"
        out = ""
        for k, (c, f) in enumerate(terms):
            sign = "-" if c < 0 else ("+" if k else "")
            out += f"{' ' if k else ''}{sign}{' ' if k else ''}{abs(c)} * {f if _atomic(f) else f'({f})'}"
        return out

    def to_json(self) -> dict:
        return {"features": self.features, "weights": self.weights, "hundredths": self.hundredths,
                "value": self.expression(),
                "games": self.games, "positions": self.positions, "log_loss": self.loss,
                "log_loss_rounded": self.loss_rounded, "log_loss_chance": self.loss_chance,
                "log_loss_held_out": self.held_out, "favourite_won": self.favourite_won,
                "worse_than_chance": self.worse_than_chance}

    @property
    def worse_than_chance(self) -> bool:
        """Whether the model fitted on the first half of the games predicts the second no better than
        "every seat is as likely": its weights then describe those games, not the game."""
        return not math.isnan(self.held_out) and self.held_out >= self.loss_chance


def _atomic(text: str) -> bool:
    """Whether `text` is a name or one call (`count(p.hand)`), which needs no parentheses after `c *`."""
    head = text.split("(", 1)[0]
    if not head.replace(".", "").replace("_", "").isalnum():
        return False
    if "(" not in text:
        return True
    depth = 0
    for i, ch in enumerate(text[len(head):], len(head)):
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return i == len(text) - 1
    return False


def _play_job(context: tuple[Ruleset, int, int, str, int], i: int) -> list[Sample]:
    """Game i's sampled positions, in whichever process the backend chose."""
    rs, players, seed, agents_spec, every = context
    pick = random.Random(mix_seed(seed, "sample", i))
    positions: list[Position] = []

    def sample(game: Game, seat: int) -> None:
        # Only real decisions: forced steps would weigh the positions by how many of them a rule makes.
        if game.num_actions(seat) > 1 and pick.random() * every < 1:
            positions.append([[number(game, f, s, "a feature", "`agents.features`") for f in rs.features]
                              for s in range(players)])

    game, _ = play_to_end(rs, players, mix_seed(seed, "fit", i), agents_spec, watch=sample)
    if not game.winners:  # a game nobody won says nothing about who wins
        return []
    won = [1 / len(game.winners) if s in game.winners else 0.0 for s in range(players)]
    return [(pos, won) for pos in positions]


def check_fit(rs: Ruleset, players: int, games: int, every: int) -> None:
    """What `fit_value` refuses before it plays anything (the command checks it before its progress line)."""
    if not rs.features:
        raise UsageError(Problem("U040", f"{rs.name} declares no `agents.features` to fit a value from",
                                 hint="add `agents: {features: [...]}`: expressions over `p` (docs/agents.md)"))
    check_players(rs, players)
    if games < 2:
        raise UsageError(Problem("U021", f"fitting needs at least 2 games (one to fit, one to check), not {games}"))
    if every < 1:
        raise UsageError(Problem("U041", f"--every must be at least 1, not {every}"))


def fit_value(rs: Ruleset, players: int, games: int, agents_spec: str = "greedy", seed: int = 0,
              every: int = 5, workers: int = 1, progress: Callable[[int], None] | None = None,
              backend: Backend | None = None) -> Fit:
    """Play `games` games and fit `agents.value` from the ruleset's `agents.features`; a position is
    sampled at one decision in `every` on average."""
    check_fit(rs, players, games, every)
    per_game: list[list[Sample]] = []
    backend = backend or LocalBackend(workers)
    try:
        backend.run(Work(_play_job, (rs, players, seed, agents_spec, every)), range(games), progress,
                    per_game.append)
    except Interrupted as stop:  # Ctrl-C: the fit of the games that finished, if they are enough
        if len(per_game) >= 2 and any(per_game):
            stop.partial = fit_games(rs, per_game, every)
        raise
    return fit_games(rs, per_game, every)


def fit_games(rs: Ruleset, per_game: list[list[Sample]], every: int = 1) -> Fit:
    """The fit of the positions of finished games (per game, in game order), sampled at one decision in
    `every`."""
    samples = [s for g in per_game for s in g]
    if not samples and every > 1:
        raise UsageError(Problem(
            "U042", f"no position was sampled from {len(per_game)} games at one decision in {every}: too sparse "
                    "for that many games", hint="give a smaller --every (default 5) or more games (--games)"))
    if not samples:
        raise UsageError(Problem("U042", "no position was sampled: the games had no decisions with a choice"))
    weights = newton(samples)
    half = len(per_game) // 2
    first = [s for g in per_game[:half] for s in g]
    second = [s for g in per_game[half:] for s in g]
    k = len(rs.features)
    texts = [str(x).strip() for x in ((rs.raw.get("agents") or {}).get("features") or [])][:k]
    result = Fit(texts, weights, len(per_game), len(samples), log_loss(samples, weights), 0.0,
                 log_loss(samples, [0.0] * k), log_loss(second, newton(first)) if first and second else math.nan,
                 favourite_won(samples, weights))
    result.loss_rounded = log_loss(samples, [c / 100 for c in result.hundredths])
    return result


def _chances(pos: Position, w: Sequence[float]) -> list[float]:
    return softmax([sum(wk * xk for wk, xk in zip(w, x, strict=True)) for x in pos])


def log_loss(samples: list[Sample], w: Sequence[float]) -> float:
    """Mean cross-entropy between the model's chances and the outcome (the win's shares), in nats."""
    if not samples:
        return math.nan
    return -sum(y * math.log(max(p, 1e-300)) for pos, won in samples
                for p, y in zip(_chances(pos, w), won, strict=True) if y > 0) / len(samples)


def favourite_won(samples: list[Sample], w: Sequence[float]) -> float:
    hits = 0.0
    for pos, won in samples:
        p = _chances(pos, w)
        hits += won[max(range(len(p)), key=p.__getitem__)]
    return hits / len(samples)


def newton(samples: list[Sample]) -> list[float]:
    """The weights that maximise the conditional-logit log-likelihood (with the ridge penalty)."""
    k = len(samples[0][0][0])
    w = [0.0] * k
    for _ in range(ROUNDS):
        grad = [-RIDGE * len(samples) * wk for wk in w]
        hess = [[RIDGE * len(samples) * (a == b) for b in range(k)] for a in range(k)]
        for pos, won in samples:
            p = _chances(pos, w)
            mean = [sum(pi * x[a] for pi, x in zip(p, pos, strict=True)) for a in range(k)]
            for yi, pi, x in zip(won, p, pos, strict=True):
                for a in range(k):
                    grad[a] += yi * x[a]
                    da = x[a] - mean[a]
                    for b in range(a, k):
                        hess[a][b] += pi * da * (x[b] - mean[b])
            for a in range(k):
                grad[a] -= mean[a]
        for a in range(k):
            for b in range(a):
                hess[a][b] = hess[b][a]
        step = solve(hess, grad)
        w = [wk + sk for wk, sk in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return w


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b, by Gaussian elimination with partial pivoting (a is small, symmetric, positive
    definite thanks to the ridge)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for j in range(c, n + 1):
                m[r][j] -= f * m[c][j]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][j] * x[j] for j in range(r + 1, n))) / m[r][r]
    return x
