"""Meeple's random-play loops, the figures `meeple bench` prints, and what they share with the peers'.

All times are CPU seconds of this process (`time.process_time`): random play is single-threaded, and
CPU time does not count the moments another process held the core. `bench` plays seeded games, as
`meeple simulate` does, or with `chance="explicit"` every random event a chance node sampled by its
probabilities, as OpenSpiel's games are measured; `micro` times the Game API's calls one by one. The
peers (a hand-written engine, an OpenSpiel game) are measured in the same run by tools/peers.py.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from meeple.errors import Problem, UsageError
from meeple.runtime.explicit import probabilities
from meeple.runtime.rules import Ruleset
from meeple.tools.failures import MAX_DECISIONS, endless
from meeple.tools.simulate import check_players

Observer = Callable[[int], Callable[[Any, int], Any]]  # a player count -> what to call before each decision
Player = Callable[[int, Callable[[], float], Any], Callable[[int], int]]  # (n, random draw, observe) -> play game i


@dataclass
class Speed:
    """Random-play speed of one engine at one player count."""

    engine: str
    players: int
    games: int
    decisions: int
    seconds: float

    @property
    def games_per_s(self) -> float:
        return self.games / max(self.seconds, 1e-9)

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / max(self.seconds, 1e-9)

    def to_json(self) -> dict:
        d = dataclasses.asdict(self)
        d["games_per_s"] = self.games_per_s
        d["decisions_per_s"] = self.decisions_per_s
        return d


def timed_loop(play_one: Callable[[int], int], games: int | None, seconds: float) -> tuple[int, int, float]:
    """Call `play_one(i)` (it returns the decisions of game i) for `games` games or `seconds` CPU
    seconds; returns (games, decisions, CPU seconds)."""
    done = decisions = 0
    start = time.process_time()
    while True:
        decisions += play_one(done)
        done += 1
        elapsed = time.process_time() - start
        if (games is not None and done >= games) or (games is None and elapsed >= seconds):
            return done, decisions, elapsed


def micro(rs: Ruleset, players: int, samples: int = 200, narrate: bool = False) -> dict[str, float]:
    """Microseconds (CPU) per `new_game`, per `copy()` and per `apply_index` at decision points of random
    games (quiet ones unless `narrate`): the costs a searching bot multiplies."""
    rng = random.Random(1)
    t0 = time.process_time()
    for i in range(samples):
        rs.new_game(players, i, narrate=narrate)
    new_us = (time.process_time() - t0) / samples * 1e6
    copies = applies = 0
    copy_s = apply_s = 0.0
    seed = 0
    while copies < samples:
        g = rs.new_game(players, seed, narrate=narrate)
        seed += 1
        while not g.is_over and copies < samples:
            t0 = time.process_time()
            for _ in range(10):
                g.copy()
            copy_s += time.process_time() - t0
            copies += 10
            seat = g.deciders[0]
            i = rng.randrange(g.num_actions(seat))
            t0 = time.process_time()
            g.apply_index(i, seat)
            apply_s += time.process_time() - t0
            applies += 1
    return {"new_game_us": new_us, "copy_us": copy_s / copies * 1e6, "apply_index_us": apply_s / applies * 1e6}


def weighted(outcomes: list[tuple[Any, float]], r: float) -> int:
    """The index of the (outcome, probability) pair that `r` in [0, 1) falls on; the last one when the
    probabilities sum to a hair under 1."""
    acc = 0.0
    for j, (_, p) in enumerate(outcomes):
        acc += p
        if r < acc:
            return j
    return len(outcomes) - 1


def observer(rs: Ruleset) -> Observer:
    """`--observe`: the deciding seat's vector, as the adapters make it (tools/observe.py needs NumPy)."""
    try:
        from meeple.tools.observe import Layout
    except ImportError:
        raise UsageError(Problem("U031", "--observe needs NumPy", hint="pip install 'meeple[pettingzoo]'")) from None
    return lambda n: Layout(rs, n).observe


def _playouts(rs: Ruleset, chance: str, narrate: bool) -> Player:
    """What `_rows` plays: game i of n players (seeded with i), each decision drawn uniformly by
    `Game.step`, one call a decision (sealed choices too: the next seat to choose), with `observe` called
    first; with chance="explicit", each chance event sampled by its probabilities (no labels, no
    fractions). A game returns how many decisions the players made."""
    explicit = chance == "explicit"

    def player(n: int, prand: Callable[[], float], observe: Any) -> Callable[[int], int]:
        def play(i: int) -> int:
            g = rs.new_game(n, i, narrate=narrate, chance=chance)
            k = 0
            m = g.num_actions()
            while m:
                if explicit and g.is_chance:
                    m = g.step(weighted(probabilities(g), prand()))
                    continue
                if observe is not None:
                    observe(g, g.current_player)
                m = g.step(int(prand() * m))
                k += 1
                if k >= MAX_DECISIONS and m:  # as every other loop: this many applied, and one still offered
                    raise endless(g, MAX_DECISIONS, f"(players {n}, seed {i})")
            return k
        return play
    return player


def _rows(players_list: list[int], games: int | None, seconds: float, player: Player,
          observer: Observer | None) -> list[BenchRow]:
    """A row per player count: `player(n, prand, observe)` gives the function that plays game i and
    returns its decisions, all of one player count drawing from one random generator."""
    rows = []
    for n in players_list:
        play = player(n, random.Random(n).random, observer(n) if observer is not None else None)
        done, decisions, elapsed = timed_loop(play, games, seconds)
        elapsed = max(elapsed, 1e-9)
        rows.append(BenchRow(n, done, decisions, elapsed, done / elapsed, decisions / elapsed))
    return rows


def median_rounds(rounds: list[list[Any]]) -> list[Any]:
    """Each column's row (a BenchRow or a peer's Speed) of median games/s over the rounds (`meeple bench
    --rounds`): the lower of the two middle ones for an even count, so that it is a round measured."""
    return [sorted(same, key=lambda r: r.games_per_s)[(len(same) - 1) // 2] for same in zip(*rounds)]


def round_ratios(rows: list[list[BenchRow]], peers: list[list[Speed]], j: int) -> list[float]:
    """Meeple's games/s over peer j's, round by round, at the peer's player count: each pair measured
    one right after the other."""
    out = []
    for mine, theirs in zip(rows, peers):
        p = theirs[j]
        m = next((r for r in mine if r.players == p.players), None)
        if m is not None and p.games_per_s:
            out.append(m.games_per_s / p.games_per_s)
    return out


@dataclass
class BenchRow:
    players: int
    games: int
    decisions: int
    seconds: float
    games_per_s: float
    decisions_per_s: float

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


def bench(rs: Ruleset, players_list: list[int] | None = None, games: int | None = None,
          seconds: float = 2.0, narrate: bool = False, observer: Observer | None = None,
          chance: str = "seeded") -> list[BenchRow]:
    """Random play on one core: `games` games per player count, or as many as fit in `seconds` of CPU
    time (CPU time, so that other processes on a shared machine do not slow the figure down). Games are
    quiet, as simulations play them (no per-seat text nobody reads), unless `narrate`.

    The loop is the one peer engines are measured with (tools/peers.py): game i is seeded with i, and
    one random generator picks uniformly among the legal actions, so the figure is the engine's, not
    the bots' bookkeeping (nor `simulate`'s seeds, each a hash: about 1 µs a game); `observer` what a
    learning loop calls before each decision (`Layout(rs, n).observe`).

    With chance="explicit", every random event is a chance node, each sampled by its probabilities as
    OpenSpiel's games are (`bench_openspiel`): the forward model a search over chance nodes runs,
    compared like for like. Decisions are still only the players'."""
    return _rows(player_counts(rs, players_list), games, seconds, _playouts(rs, chance, narrate), observer)


def player_counts(rs: Ruleset, players: list[int] | tuple[int, ...] | None) -> list[int]:
    """The player counts to measure: those asked for (each one the ruleset's, else a UsageError), or
    every count the ruleset supports."""
    counts = list(players or range(rs.min_players, rs.max_players + 1))
    for n in counts:
        check_players(rs, n)
    return counts
