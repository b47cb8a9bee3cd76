"""Bots that play any ruleset: they only see the Game API, never a particular game.

An agent answers `choose(game, player) -> int`, an index into `game.legal_actions(player)`. Drivers
apply it with `game.apply_index`, which skips building labels: bots never need them, and labels are
the slowest part of listing actions.

    agents = make_agents("random,greedy", nplayers=4, seed=7)
    while not game.is_over:
        for seat in game.deciders:
            game.apply_index(agents[seat].choose(game, seat), seat)
"""

from __future__ import annotations

import difflib
import hashlib
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from meeple.errors import Problem, RuntimeRuleError, UsageError
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


def _options(game: Game, player: int) -> int:
    n = game.num_actions(player)
    if n <= 0:  # the interpreter reports empty menus itself (R002); this is a guard for API misuse
        raise RuntimeRuleError(Problem("A001", f"P{player + 1} has no legal action to choose from"))
    return n


class FirstAgent:
    """Always the first option: deterministic, handy for smoke tests and reproducible traces."""

    name = "first"

    def __init__(self, seed: int = 0) -> None:
        pass

    def choose(self, game: Game, player: int) -> int:
        _options(game, player)
        return 0


class RandomAgent:
    """A uniformly random legal option, from its own seeded generator (not the game's, so that the
    game's randomness is the same whatever the bots do)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, player: int) -> int:
        return self.rng.randrange(_options(game, player))


class GreedyAgent:
    """One-ply lookahead: try every option on a copy and keep the one that maximises the ruleset's
    `agents.greedy` expression for the deciding player (else `scoring.score`). Ties break at random."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, player: int) -> int:
        n = _options(game, player)
        expr = game.rs.greedy if game.rs.greedy is not None else game.rs.score
        if n == 1 or expr is None:
            return 0 if n == 1 else self.rng.randrange(n)
        pending = game.state.pending
        sealed = len(pending["players"]) > 1
        best: list[int] = []
        best_value: Any = None
        for i in range(n):
            g = game.copy()
            g.state.quiet = True  # a look-ahead nobody reads: skip rendering its log per seat
            if sealed:
                # Others may already have chosen in secret: forget their choices on the copy and
                # guess them at random instead, so the bot never peeks at a sealed decision.
                g.state.pending["chosen"] = {}
                others = [s for s in g.deciders if s != player]
                g.apply_index(i, player)
                for s in others:
                    if not g.is_over and s in g.deciders:
                        g.apply_index(self.rng.randrange(_options(g, s)), s)
            else:
                g.apply_index(i, player)
            value = g._query(g._ev.eval, expr, {"p": Player(player)})
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise RuntimeRuleError(Problem(
                    "A002", f"the greedy heuristic must be a number, but it is {value!r}",
                    hint="check `agents.greedy` (or `scoring.score`) in the ruleset"))
            if best_value is None or value > best_value:
                best, best_value = [i], value
            elif value == best_value:
                best.append(i)
        return best[0] if len(best) == 1 else self.rng.choice(best)


AGENTS: dict[str, Callable[[int], Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "first": FirstAgent,
}


def parse_agents(spec: str) -> list[str]:
    """Agent names from "random,greedy"; an unknown name is a usage error with a suggestion."""
    names = [s.strip().lower() for s in spec.split(",")]
    if not spec.strip() or any(not s for s in names):
        raise UsageError(Problem("U010", f"bad agent list {spec!r}: give names separated by commas",
                                 hint="agents: " + ", ".join(AGENTS)))
    for s in names:
        if s not in AGENTS:
            close = difflib.get_close_matches(s, list(AGENTS), n=1)
            hint = f"did you mean `{close[0]}`?" if close else "agents: " + ", ".join(AGENTS)
            raise UsageError(Problem("U011", f"unknown agent `{s}`", hint=hint))
    return names


def seat_names(spec: str, nplayers: int) -> list[str]:
    """Which agent plays each seat: the names cycle over the seats ("greedy" alone plays every seat)."""
    names = parse_agents(spec)
    if len(names) > nplayers:
        raise UsageError(Problem("U012", f"{len(names)} agents given for {nplayers} players"))
    return [names[i % len(names)] for i in range(nplayers)]


def make_agents(spec: str, nplayers: int, seed: int = 0) -> list[Agent]:
    """One agent per seat, each with its own seed derived from (seed, seat)."""
    return [AGENTS[name](mix_seed(seed, "agent", seat)) for seat, name in enumerate(seat_names(spec, nplayers))]
