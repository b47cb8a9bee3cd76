"""What the adapters must know before a game starts: sizes, bounds and the kind of game.

OpenSpiel and PettingZoo want fixed numbers up front: how many actions a decision can offer, how many
outcomes a chance event can have, how long a game can last, the range of the payoffs. A ruleset does
not state them (a menu of bids grows with a player's coins), so they are measured: seeded games are
played, at random and with simple policies that reach what random play misses (`profile`), with an RNG
that notes the largest draw. The measured figures get a safety margin (`Profile.num_actions` and the
rest, docs/interop.md), the callers accept explicit values instead, and the adapters refuse a game
that outgrows them with a clear error rather than a wrong answer. Whether a game has chance or hidden information is read from the
ruleset itself, not measured. The settings the adapters are given are checked here too (`settings`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from meeple.errors import Problem, UsageError
from meeple.language import ast as A
from meeple.language.model import Ruleset
from meeple.language.walk import walk
from meeple.runtime.chancesites import may_draw
from meeple.runtime.data import as_int
from meeple.runtime.game import Game
from meeple.runtime.state import Rng
from meeple.tools.failures import MAX_DECISIONS, endless, open_decision


class BadArgument(UsageError, ValueError):
    """An argument an adapter refuses (U060). Also a ValueError, as these errors were before."""


class Outgrown(UsageError, RuntimeError):
    """A game that outgrew a size its adapter was made with (U066). Also a RuntimeError, as it was before."""


def outgrown(game: Game, message: str) -> Outgrown:
    """U066: the game offers more than a size its adapter was made with (`message` says what, and which
    argument to pass); placed at the open decision's `choose`, if one is open."""
    return Outgrown(Problem("U066", message, open_decision(game),
                            hint="the sizes measured by playing games (docs/interop.md, *Measured sizes and "
                                 "bounds*) were too small for this game"))


def whole(value: Any, what: str) -> int:
    n = as_int(value)
    if n is None:
        raise BadArgument(Problem("U060", f"{what} must be a whole number, not {value!r}"))
    return n


def settings(rs: Ruleset, players: Any, utility: Any, **sizes: Any) -> int:
    """The number of players, once the adapter's settings are checked; `sizes` are the optional
    `max_actions=`-like counts (None, or a whole number of at least 1)."""
    n = whole(players, "players=")
    if utility not in ("score", "win"):
        raise BadArgument(Problem("U060", f"utility must be 'score' or 'win', not {utility!r}"))
    if not rs.min_players <= n <= rs.max_players:
        raise BadArgument(Problem("U060", f"{rs.name} is for {rs.player_counts} players, "
                                          f"not {n}"))
    for name, value in sizes.items():
        if value is not None and whole(value, f"{name}=") < 1:
            raise BadArgument(Problem("U060", f"{name}= must be at least 1, not {value}"))
    return n


class _CountingRng(Rng):
    """The seeded RNG, noting the largest number of candidates a single draw had."""

    __slots__ = ("widest",)

    def __init__(self, state: int) -> None:
        super().__init__(state)
        self.widest = 0

    def copy(self) -> _CountingRng:
        r = _CountingRng(self.state)
        r.widest = self.widest
        return r

    def pick(self, items: Sequence[Any], key: Callable[[Any], Hashable] | None = None) -> int:
        self.widest = max(self.widest, len(items))
        return super().pick(items, key)

    def shuffle(self, items: list, key: Callable[[Any], Hashable] | None = None) -> None:
        self.widest = max(self.widest, len(items))
        super().shuffle(items, key)


@dataclass(frozen=True)
class Profile:
    max_actions: int  # the most options one decision offered
    max_outcomes: int  # the most candidates of one random event (an upper bound on chance outcomes)
    max_decisions: int  # the most player decisions in one game
    min_score: float
    max_score: float
    zero_sum: bool  # every measured game's scores summed to zero
    has_chance: bool  # the ruleset calls a random built-in somewhere
    perfect_information: bool  # nothing is hidden: no owner or hidden zones or counters, no face-down

    # What the adapters declare: the measured figures with a safety margin (docs/interop.md), as games
    # the probe did not play can go further than the ones it did.
    def num_actions(self) -> int:
        return self.max_actions + self.max_actions // 2  # half again

    def utility_range(self) -> tuple[float, float]:
        span = max(self.max_score - self.min_score, 1.0)  # the measured range, widened by itself each way
        return self.min_score - span, self.max_score + span

    def max_game_length(self) -> int:
        return 2 * self.max_decisions + 10


def _all_nodes(rs: Ruleset) -> list[Any]:
    return [n for _, root in rs.scripts() for n in walk(root)]


def uses_chance(rs: Ruleset) -> bool:
    return may_draw(rs)


def perfect_information(rs: Ruleset) -> bool:
    decls = [*rs.game_counters.values(), *rs.player_counters.values(), *rs.game_zones.values(),
             *rs.player_zones.values(), *(d for k in rs.kinds.values() for d in (*k.counters.values(),
                                                                                  *k.slots.values()))]
    nodes = _all_nodes(rs)
    hides = any(type(n) is A.Call and n.func == "conceal" or type(n) is A.Simultaneous for n in nodes)
    return not hides and all(d.visibility == "public" for d in decls)


_CACHE: dict[tuple[int, int, int, int], tuple[Ruleset, Profile]] = {}
RANDOM_GAMES = 12  # seeded random games, always played first
BUDGET = 10_000  # player decisions for the games after them, each with one of the policies of _policies
MAX_GAMES = 300  # at most this many games after the random ones (small games take few decisions each)


def _policies(players: int) -> list[tuple[str, int | None]]:
    """Random play is blind to the extremes: a menu of bids is widest, a score highest, when a seat keeps
    taking the first (or the last) option. So: everyone random, everyone first, everyone last, then one
    seat first (or last) against random play, for each seat."""
    one_seat = [(kind, seat) for seat in range(players) for kind in ("first", "last")]
    return [("random", None), ("first", None), ("last", None), *one_seat]


class _Measures:
    def __init__(self) -> None:
        self.widest_menu = self.widest_draw = self.longest = self.decisions = 0
        self.scores: list[float] = []
        self.zero = True

    def play(self, rs: Ruleset, players: int, seed: int, kind: str, seat: int | None, cap: int | None) -> None:
        """One game; one longer than `cap` decisions (a policy that never ends the game) is left unfinished:
        its menus and draws count, not its length or scores."""
        g = Game.new(rs, players, seed)
        # Draws after setup are counted; the setup's shuffles are bounded by the component count.
        g.state.rng = rng = _CountingRng(g.state.rng.state)
        pick = random.Random(seed)
        decisions = 0
        while not g.is_over and (cap is None or decisions < cap):
            if decisions >= MAX_DECISIONS:  # random play that does not end: measured forever otherwise
                raise endless(g, MAX_DECISIONS, f"in a random game measured for the adapters (players {players}, seed {seed})")
            n = g.num_actions()
            self.widest_menu = max(self.widest_menu, max(g.num_actions(s) for s in g.deciders))
            how = kind if seat is None or g.deciders[0] == seat else "random"
            g.apply_index(0 if how == "first" else n - 1 if how == "last" else pick.randrange(n))
            decisions += 1
        self.decisions += decisions
        self.widest_draw = max(self.widest_draw, rng.widest)
        if g.is_over:
            self.longest = max(self.longest, decisions)
            s = [float(x) for x in g.scores]
            self.scores += s
            self.zero = self.zero and abs(sum(s)) < 1e-9


def profile(rs: Ruleset, players: int, games: int = RANDOM_GAMES, budget: int = BUDGET) -> Profile:
    """Measure `games` seeded random games of `rs`, then more games with the policies of `_policies` in
    turn until they have taken `budget` decisions (or MAX_GAMES games): the same games every time, so the
    figures are too. Cached per ruleset object and player count."""
    cache_key = (id(rs), players, games, budget)
    cached = _CACHE.get(cache_key)
    if cached is not None and cached[0] is rs:  # the ruleset is kept, so its id cannot be reused
        return cached[1]
    m = _Measures()
    for seed in range(games):
        m.play(rs, players, seed, "random", None, None)
    cap, m.decisions = 4 * m.longest + 50, 0
    policies = _policies(players)
    for i in range(MAX_GAMES if budget > 0 else 0):
        kind, seat = policies[i % len(policies)]
        m.play(rs, players, games + i, kind, seat, cap)
        if m.decisions >= budget:
            break
    scores = m.scores or [0.0]
    prof = Profile(max_actions=max(m.widest_menu, 1), max_outcomes=max(m.widest_draw, len(rs.components), 1),
                   max_decisions=m.longest, min_score=min(scores), max_score=max(scores), zero_sum=m.zero,
                   has_chance=uses_chance(rs), perfect_information=perfect_information(rs))
    _CACHE[cache_key] = (rs, prof)
    return prof
