"""Play many games with bots and summarise them: win rates, scores, lengths, speed.

Game i's seed is derived from (master seed, i) only, so a simulation gives the same records with one
worker or eight, on this machine or on a cluster: tools/backends.py runs the games and returns them in
index order.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from meeple import errors as E
from meeple.errors import Problem, UsageError
from meeple.runtime.game import Game
from meeple.runtime.rules import Ruleset
from meeple.tools import stats
from meeple.tools.agents import make_agents, mix_seed, searches, seat_names
from meeple.tools.backends import Backend, Interrupted, LocalBackend, Work
from meeple.tools.failures import MAX_DECISIONS, endless, in_game


@dataclass
class GameRecord:
    index: int
    seed: int
    players: int
    agents: list[str]
    scores: list[Any]
    winners: list[int]
    decisions: int
    length: int  # rounds if the ruleset counts them (a `round` game counter), else decisions
    coverage: dict | None = None  # node id -> times run, when measuring rules coverage

    def to_json(self) -> dict:
        d = dataclasses.asdict(self)
        d.pop("coverage")
        return d


@dataclass
class SeatStats:
    seat: int  # 0-based; shown as P{seat+1}
    agent: str
    wins: float  # a k-way tie counts 1/k for each tied seat
    win_rate: float
    win_ci: tuple[float, float]
    score_mean: float
    score_stdev: float

    def to_json(self) -> dict:
        d = dataclasses.asdict(self)
        d["win_ci"] = list(self.win_ci)
        return d


@dataclass
class Summary:
    ruleset: str
    players: int
    games: int
    seed: int
    agents: list[str]
    seats: list[SeatStats]
    length_unit: str
    length_mean: float
    length_stdev: float
    decisions_mean: float
    seconds: float
    games_per_s: float
    decisions_per_s: float
    workers: int
    backend: str = "local"  # where the games ran (tools/backends.py); the statistics do not depend on it
    records: list[GameRecord] = field(default_factory=list)
    games_without_decisions: int = 0  # games that ended before any bot chose anything (cli/runs.py warns)
    games_all_tied: int = 0  # games in which every seat tied for the win

    def to_json(self, records: bool = False) -> dict:
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name not in ("seats", "records")}
        d["seats"] = [s.to_json() for s in self.seats]
        if records:
            d["records"] = [r.to_json() for r in self.records]
        return d


def default_players(rs: Ruleset) -> int:
    """Four players when the game allows it, else the closest supported count."""
    return max(rs.min_players, min(4, rs.max_players))


def check_players(rs: Ruleset, players: int) -> None:
    if not rs.min_players <= players <= rs.max_players:
        raise UsageError(Problem("U020", f"{rs.name} is for {rs.player_counts} players, not {players}"))


def _length_unit(rs: Ruleset) -> str:
    return "rounds" if "round" in rs.game_counters else "decisions"


def play_game(rs: Ruleset, nplayers: int, seed: int, agents_spec: str = "random", index: int = 0,
              max_decisions: int = MAX_DECISIONS, coverage: bool = False) -> GameRecord:
    """Play one game with bots to the end."""
    check_players(rs, nplayers)
    names = seat_names(agents_spec, nplayers)
    game, decisions = play_to_end(rs, nplayers, seed, agents_spec, coverage, max_decisions)
    return GameRecord(index, seed, nplayers, names, list(game.scores), list(game.winners), decisions,
                      game_length(rs, game, decisions), game.state.coverage)


def play_to_end(rs: Ruleset, nplayers: int, seed: int, agents_spec: str = "random", coverage: bool = False,
                max_decisions: int = MAX_DECISIONS,
                watch: Callable[[Game, int], None] | None = None) -> tuple[Game, int]:
    """Play one game with bots to the end; returns the finished game and how many decisions it took.
    `watch(game, seat)` is called before each decision (tools that learn from the games' positions)."""
    agents = make_agents(agents_spec, nplayers, seed)
    game: Game | None = None
    decisions = 0
    try:
        game = rs.new_game(nplayers, seed, coverage=coverage, narrate=False)  # nobody reads its log
        while not game.is_over:
            if decisions >= max_decisions:  # as every other loop: this many applied, and one still offered
                raise endless(game, max_decisions, f"(players {nplayers}, seed {seed})")
            # Sealed decisions list several deciders; each answers without seeing the others' choices.
            for seat in game.deciders:
                if watch is not None:
                    watch(game, seat)
                game.apply_index(agents[seat].choose(game, seat), seat)
                decisions += 1
    except E.RuntimeRuleError as e:
        raise in_game(e, rs, nplayers, seed, agents_spec, game, decisions) from None
    return game, decisions


def game_length(rs: Ruleset, game: Game, decisions: int) -> int:
    """Rounds if the ruleset counts them (a `round` game counter), else decisions."""
    if _length_unit(rs) == "rounds":
        r = game.state.counters.get("round")
        if isinstance(r, int) and not isinstance(r, bool):
            return r
    return decisions


def game_seed(seed: int, i: int) -> int:
    return mix_seed(seed, "game", i)


# ------------------------------------------------------------------ running games on a backend
def _play_indexed(context: tuple[Ruleset, int, int, str, bool], i: int) -> GameRecord:
    """Game i of a run, in whichever process or node the backend chose (see tools/backends.py)."""
    rs, players, seed, agents, coverage = context
    return play_game(rs, players, game_seed(seed, i), agents, i, coverage=coverage)


def simulate(rs_or_path: Ruleset | str | os.PathLike, players: int | None, games: int, seed: int = 0,
             agents: str = "random", workers: int = 1,
             progress: Callable[[int], None] | None = None, coverage: bool = False,
             keep_records: bool = True, backend: Backend | None = None) -> Summary:
    """Play `games` games and summarise them. `progress(n)` is called as games finish. Without
    `keep_records` the summary keeps no per-game record, so memory stays flat however many games.
    The games run on `backend` (default: this machine, `workers` processes); the records are the same
    on any backend. Ctrl-C raises backends.Interrupted with, in `partial`, the summary of games
    0..k-1, the games finished before the first one that did not."""
    from meeple.runtime.rules import load_ruleset

    rs = rs_or_path if isinstance(rs_or_path, Ruleset) else load_ruleset(rs_or_path)
    players = default_players(rs) if players is None else players
    check_players(rs, players)
    names = seat_names(agents, players)
    if games < 1:
        raise UsageError(Problem("U021", f"the number of games must be at least 1, not {games}"))
    backend = backend or LocalBackend(workers)
    work = Work(_play_indexed, (rs, players, seed, agents, coverage), batch_cap=1 if searches(agents) else None)
    start = time.perf_counter()
    tally = Tally(players)
    records: list[GameRecord] = []

    def take(r: GameRecord) -> None:
        tally.add(r)
        if keep_records:
            records.append(r)

    try:
        backend.run(work, range(games), progress, take)
    except Interrupted as stop:
        if tally.n:
            stop.partial = summarise(rs, players, seed, names, tally, time.perf_counter() - start,
                                     backend.slots(games), records, backend.name)
        raise
    seconds = time.perf_counter() - start
    return summarise(rs, players, seed, names, tally, seconds, backend.slots(games), records, backend.name)


class Tally:
    """What a summary needs of every game, added up as games finish (so no list of games is kept): per
    seat for `simulate`, or per agent for a ladder, where `add` is told which row each seat counts for."""

    def __init__(self, rows: int) -> None:
        self.n = 0
        self.wins = [0.0] * rows  # a k-way tie gives each tied seat 1/k of a win
        self.losses = [0] * rows  # seat-games that were not among the winners
        self.scores = [stats.Running() for _ in range(rows)]  # numeric scores only
        self.lengths = stats.Running()
        self.decisions = 0
        self.shared = 0  # games whose win was shared
        self.silent = 0  # games that ended without a decision
        self.all_tied = 0  # games in which every seat tied for the win

    def add(self, r: GameRecord, rows: Sequence[int] | None = None) -> None:
        """Count game r: seat s counts for row `rows[s]` (default: row s)."""
        self.n += 1
        self.shared += len(r.winners) > 1
        self.silent += r.decisions == 0
        self.all_tied += len(r.scores) > 1 and len(r.winners) == len(r.scores)
        for s, score in enumerate(r.scores):
            k = s if rows is None else rows[s]
            if s in r.winners:
                self.wins[k] += 1 / len(r.winners)
            else:
                self.losses[k] += 1
            for x in stats.numbers([score]):
                self.scores[k].add(x)
        self.lengths.add(float(r.length))
        self.decisions += r.decisions


def summarise(rs: Ruleset, players: int, seed: int, names: list[str], tally: Tally,
              seconds: float, workers: int = 1, records: list[GameRecord] | None = None,
              backend: str = "local") -> Summary:
    n = tally.n
    seats = [SeatStats(s, names[s], tally.wins[s], tally.wins[s] / n, stats.wilson(tally.wins[s], n),
                       tally.scores[s].mean, tally.scores[s].stdev) for s in range(players)]
    per_s = seconds if seconds > 0 else 1e-9
    return Summary(rs.name, players, n, seed, names, seats, _length_unit(rs), tally.lengths.mean,
                   tally.lengths.stdev, tally.decisions / n, seconds, n / per_s, tally.decisions / per_s, workers,
                   backend, records or [], tally.silent, tally.all_tied)
