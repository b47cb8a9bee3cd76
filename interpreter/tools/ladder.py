"""A ladder: agents play each other on matched seeds, every agent in every seat, and win rates come with
95% confidence intervals.

Game i is deal i // N (its seed from (seed, deal)) played with the agents list rotated by i % N, so with
a multiple of N games every deal is played once with each agent in each seat: seat advantages and lucky
deals cancel out. An agent named several times (`mcts,greedy,greedy,greedy`) is counted as one entry:
its win rate is per seat it holds, against a fair share of 1/N.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from meeple import errors as E
from meeple.errors import Problem, UsageError
from meeple.runtime.rules import Ruleset
from meeple.tools import stats
from meeple.tools.agents import mix_seed, seat_names
from meeple.tools.simulate import GameRecord, check_players, play_game


@dataclass
class LadderRow:
    agent: str
    seats: int  # seats this agent holds in every game
    games: int
    wins: float  # a k-way tie counts 1/k
    win_rate: float  # per seat held
    win_ci: tuple[float, float]
    losses: int  # seat-games in which it was not among the winners
    score_mean: float

    def to_json(self) -> dict:
        d = dataclasses.asdict(self)
        d["win_ci"] = list(self.win_ci)
        return d


@dataclass
class Ladder:
    ruleset: str
    players: int
    games: int
    seed: int
    agents: list[str]
    rows: list[LadderRow]
    draws: int  # games whose win was shared
    seconds: float
    seconds_per_game: float
    workers: int

    def to_json(self) -> dict:
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "rows"}
        d["rows"] = [r.to_json() for r in self.rows]
        d["fair_share"] = 1 / self.players
        return d


def seating(agents: list[str], i: int) -> list[str]:
    """The agents of game i, seat by seat: the list rotated by i mod N."""
    n = len(agents)
    r = i % n
    return agents[n - r:] + agents[:n - r]


def _job(rs: Ruleset, players: int, seed: int, agents: list[str], i: int) -> GameRecord:
    return play_game(rs, players, mix_seed(seed, "deal", i // players), ",".join(seating(agents, i)), i)


_WORKER_RS: dict[str, Ruleset] = {}


def _init(path: str) -> None:
    import signal

    from meeple.runtime.rules import load_ruleset

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _WORKER_RS[path] = load_ruleset(path)


def _play(job: tuple[str, int, int, list[str], int]) -> Any:
    path, players, seed, agents, i = job
    try:
        return _job(_WORKER_RS[path], players, seed, agents, i)
    except E.MeepleError as e:  # problems do not survive pickling: rebuild the error in the parent
        return ("error", type(e).__name__, e.problems)


def ladder(rs: Ruleset, players: int, agents_spec: str, games: int, seed: int = 0, workers: int = 1,
           progress: Callable[[int], None] | None = None) -> Ladder:
    check_players(rs, players)
    agents = seat_names(agents_spec, players)
    if games < 1:
        raise UsageError(Problem("U021", f"the number of games must be at least 1, not {games}"))
    workers = min(workers or os.cpu_count() or 1, games)
    start = time.perf_counter()
    records: list[GameRecord] = []
    if workers == 1:
        for i in range(games):
            records.append(_job(rs, players, seed, agents, i))
            if progress:
                progress(1)
    else:
        path = os.path.abspath(rs.path)
        pool = ProcessPoolExecutor(workers, initializer=_init, initargs=(path,))
        try:
            for r in pool.map(_play, [(path, players, seed, agents, i) for i in range(games)]):
                if isinstance(r, tuple):
                    raise getattr(E, r[1], E.MeepleError)(r[2])
                records.append(r)
                if progress:
                    progress(1)
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    seconds = time.perf_counter() - start
    return Ladder(rs.name, players, games, seed, agents, _rows(agents, records),
                  sum(1 for r in records if len(r.winners) > 1), seconds, seconds / games, workers)


def _rows(agents: list[str], records: list[GameRecord]) -> list[LadderRow]:
    rows = []
    for name in dict.fromkeys(agents):
        seats = agents.count(name)
        wins, losses, scores = 0.0, 0, []
        for r in records:
            for s, a in enumerate(r.agents):
                if a != name:
                    continue
                if s in r.winners:
                    wins += 1 / len(r.winners)
                else:
                    losses += 1
                score = r.scores[s]
                if isinstance(score, (int, float)) and not isinstance(score, bool):
                    scores.append(float(score))
        n = seats * len(records)
        rows.append(LadderRow(name, seats, len(records), wins, wins / n, stats.wilson(wins, n), losses,
                              stats.mean(scores)))
    return rows
