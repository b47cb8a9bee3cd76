"""Play many games with bots and summarise them: win rates, scores, lengths, speed.

Game i's seed is derived from (master seed, i) only, so a simulation gives the same records with one
worker or eight. With several workers each process loads the ruleset once, from its path, and games
are returned in index order.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from meeple import errors as E
from meeple.errors import Problem, UsageError
from meeple.runtime.game import Game
from meeple.runtime.rules import Ruleset
from meeple.tools import stats
from meeple.tools.agents import make_agents, mix_seed, seat_names

MAX_DECISIONS = 100_000  # a ruleset whose bots can loop forever is reported, not waited for


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
    records: list[GameRecord] = field(default_factory=list)

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
        raise UsageError(Problem("U020", f"{rs.name} is for {rs.min_players} to {rs.max_players} players, "
                                         f"not {players}"))


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
                max_decisions: int = MAX_DECISIONS) -> tuple[Game, int]:
    """Play one game with bots to the end; returns the finished game and how many decisions it took."""
    agents = make_agents(agents_spec, nplayers, seed)
    game = rs.new_game(nplayers, seed, coverage=coverage, narrate=False)  # nobody reads its log
    decisions = 0
    while not game.is_over:
        # Sealed decisions list several deciders; each answers without seeing the others' choices.
        for seat in game.deciders:
            game.apply_index(agents[seat].choose(game, seat), seat)
            decisions += 1
        if decisions > max_decisions:
            raise E.RuntimeRuleError(Problem(
                "R010", f"the game did not end after {max_decisions} decisions (players {nplayers}, seed {seed})",
                hint="a loop in the flow may offer choices forever"))
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


# ------------------------------------------------------------------ worker processes
_WORKER_RS: dict[str, Ruleset] = {}


def _worker_init(path: str) -> None:
    import signal

    from meeple.runtime.rules import load_ruleset

    # Ctrl-C is the parent's to handle: workers that also caught it would each print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    _WORKER_RS[path] = load_ruleset(path)


def _worker_play(job: tuple[str, int, int, str, int, bool]) -> Any:
    path, players, seed, spec, i, coverage = job
    try:
        return play_game(_WORKER_RS[path], players, game_seed(seed, i), spec, i, coverage=coverage)
    except E.MeepleError as e:
        # Exceptions lose their problems when pickled back: send the parts, rebuild in the parent.
        return ("error", type(e).__name__, e.problems)


def _raise_remote(result: tuple) -> None:
    cls = getattr(E, result[1], E.MeepleError)
    raise cls(result[2])


def simulate(rs_or_path: Ruleset | str | os.PathLike, players: int | None, games: int, seed: int = 0,
             agents: str = "random", workers: int = 1,
             progress: Callable[[int], None] | None = None, coverage: bool = False,
             keep_records: bool = True) -> Summary:
    """Play `games` games and summarise them. `progress(n)` is called as games finish. Without
    `keep_records` the summary keeps no per-game record, so memory stays flat however many games."""
    from meeple.runtime.rules import load_ruleset

    rs = rs_or_path if isinstance(rs_or_path, Ruleset) else load_ruleset(rs_or_path)
    players = default_players(rs) if players is None else players
    check_players(rs, players)
    names = seat_names(agents, players)
    if games < 1:
        raise UsageError(Problem("U021", f"the number of games must be at least 1, not {games}"))
    if workers < 0:
        raise UsageError(Problem("U022", f"the number of workers must be 0 (one per core) or more, not {workers}"))
    workers = workers or os.cpu_count() or 1
    workers = min(workers, games)
    start = time.perf_counter()
    tally = Tally(players)
    records: list[GameRecord] = []

    def take(r: GameRecord) -> None:
        tally.add(r)
        if keep_records:
            records.append(r)
        if progress:
            progress(1)

    if workers == 1:
        for i in range(games):
            take(play_game(rs, players, game_seed(seed, i), agents, i, coverage=coverage))
    else:
        path = os.path.abspath(rs.path)
        chunk = max(1, min(50, games // (workers * 8)))
        batch = workers * chunk * 32  # jobs are submitted a batch at a time: none are listed per game
        pool = ProcessPoolExecutor(workers, initializer=_worker_init, initargs=(path,))
        try:
            for first in range(0, games, batch):
                jobs = [(path, players, seed, agents, i, coverage) for i in range(first, min(games, first + batch))]
                for r in pool.map(_worker_play, jobs, chunksize=chunk):  # map keeps index order
                    if isinstance(r, tuple):
                        _raise_remote(r)
                    take(r)
        finally:
            # On an error or Ctrl-C, drop the queued games instead of waiting for all of them.
            pool.shutdown(wait=True, cancel_futures=True)
    seconds = time.perf_counter() - start
    return summarise(rs, players, seed, names, tally, seconds, workers, records)


class Tally:
    """What a summary needs of every game, added up as games finish."""

    def __init__(self, players: int) -> None:
        self.n = 0
        self.wins = [0.0] * players
        self.scores = [stats.Running() for _ in range(players)]
        self.lengths = stats.Running()
        self.decisions = 0

    def add(self, r: GameRecord) -> None:
        self.n += 1
        for w in r.winners:
            self.wins[w] += 1 / len(r.winners)
        for s, run in enumerate(self.scores):
            for x in stats.numbers([r.scores[s]]):
                run.add(x)
        self.lengths.add(float(r.length))
        self.decisions += r.decisions


def summarise(rs: Ruleset, players: int, seed: int, names: list[str], tally: Tally,
              seconds: float, workers: int = 1, records: list[GameRecord] | None = None) -> Summary:
    n = tally.n
    seats = [SeatStats(s, names[s], tally.wins[s], tally.wins[s] / n, stats.wilson(tally.wins[s], n),
                       tally.scores[s].mean, tally.scores[s].stdev) for s in range(players)]
    per_s = seconds if seconds > 0 else 1e-9
    return Summary(rs.name, players, n, seed, names, seats, _length_unit(rs), tally.lengths.mean,
                   tally.lengths.stdev, tally.decisions / n, seconds, n / per_s, tally.decisions / per_s, workers,
                   records or [])


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
          seconds: float = 2.0) -> list[BenchRow]:
    """Random play on one core: `games` games per player count, or as many as fit in `seconds`."""
    rows = []
    for n in players_list or list(range(rs.min_players, rs.max_players + 1)):
        check_players(rs, n)
        done = decisions = 0
        start = time.perf_counter()
        while True:
            decisions += play_game(rs, n, game_seed(0, done), "random", done).decisions
            done += 1
            elapsed = time.perf_counter() - start
            if (games is not None and done >= games) or (games is None and elapsed >= seconds):
                break
        elapsed = max(elapsed, 1e-9)
        rows.append(BenchRow(n, done, decisions, elapsed, done / elapsed, decisions / elapsed))
    return rows
