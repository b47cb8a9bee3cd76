"""A ladder: agents play each other on matched seeds, every agent in every seat, and win rates come with
95% confidence intervals.

Game i is deal i // N (its seed from (seed, deal)) played with the agents list rotated by i % N, so with
a multiple of N games every deal is played once with each agent in each seat: seat advantages and lucky
deals cancel out. An agent named several times (`mcts,greedy,greedy,greedy`) is counted as one entry:
its win rate is per seat it holds, against a fair share of 1/N.

The games run on a backend (tools/backends.py: this machine's processes or a Ray cluster) and are added
up in game order as they come back, so the table is the same, to the byte, wherever they ran, and also
when a run goes on from the games its journal kept (tools/journal.py: `done`, `on_game`).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from meeple.errors import Problem, UsageError
from meeple.runtime.rules import Ruleset
from meeple.tools import stats
from meeple.tools.agents import mix_seed, seat_names
from meeple.tools.backends import Backend, Interrupted, LocalBackend, Work
from meeple.tools.simulate import GameRecord, Tally, check_players, play_game


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
    backend: str = "local"  # where the games ran; the rows do not depend on it
    resumed: int = 0  # games 0..resumed-1 were played before, read from a journal; the time is the others'

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


def _play_job(context: tuple[Ruleset, int, int, list[str]], i: int) -> GameRecord:
    """Game i of a ladder, in whichever process or node the backend chose (see tools/backends.py)."""
    rs, players, seed, agents = context
    return play_game(rs, players, mix_seed(seed, "deal", i // players), ",".join(seating(agents, i)), i)


def ladder(rs: Ruleset, players: int, agents_spec: str, games: int, seed: int = 0, workers: int = 1,
           progress: Callable[[int], None] | None = None, backend: Backend | None = None,
           done: Sequence[GameRecord] = (), on_game: Callable[[GameRecord], None] | None = None) -> Ladder:
    """Play `games` games of the ladder on `backend` (default: this machine, `workers` processes, 0 = one
    per core); `progress(n)` is called as games finish. `done` are games 0..k-1 of this same ladder played
    before (a journal's), counted and not played again; `on_game(record)` is called with each game
    played now, in game order. Ctrl-C raises backends.Interrupted with, in `partial`, the ladder of
    games 0..k-1, the games finished before the first one that did not (with k not a multiple of N, some
    agents held some seats once more than others)."""
    check_players(rs, players)
    agents = seat_names(agents_spec, players)
    if games < 1:
        raise UsageError(Problem("U021", f"the number of games must be at least 1, not {games}"))
    if len(done) > games:
        raise UsageError(Problem("U050", f"the journal holds {len(done)} games, more than the {games} asked for",
                                 hint=f"ask for at least {len(done)} games, or name a new journal file"))
    backend = backend or LocalBackend(workers)
    names = list(dict.fromkeys(agents))  # one row per agent, however many seats it holds
    tally = Tally(len(names))
    start = time.perf_counter()

    def count(r: GameRecord) -> None:
        tally.add(r, [names.index(a) for a in r.agents])

    def take(r: GameRecord) -> None:
        count(r)
        if on_game is not None:
            on_game(r)

    def result() -> Ladder:
        seconds = time.perf_counter() - start
        played = tally.n - len(done)
        return Ladder(rs.name, players, tally.n, seed, agents, _rows(agents, names, tally), tally.shared,
                      seconds, seconds / max(played, 1), backend.slots(max(played, 1)), backend.name, len(done))

    for r in done:
        if r.agents != seating(agents, r.index) or r.players != players:
            raise UsageError(Problem("U050", f"game {r.index} of the journal was not played by this ladder's seats"))
        count(r)
    try:
        if len(done) < games:
            # one game a batch: a ladder's bots search, so its games are long (see Work.batch_cap)
            backend.run(Work(_play_job, (rs, players, seed, agents), batch_cap=1), range(len(done), games),
                        progress, take)
    except Interrupted as stop:
        if tally.n:
            stop.partial = result()
        raise
    return result()


def _rows(agents: list[str], names: list[str], tally: Tally) -> list[LadderRow]:
    rows = []
    for k, name in enumerate(names):
        seats = agents.count(name)
        n = seats * tally.n  # seat-games this agent played
        wins = tally.wins[k]
        rows.append(LadderRow(name, seats, tally.n, wins, wins / n, stats.wilson(wins, n), tally.losses[k],
                              tally.scores[k].mean))
    return rows
