"""Play a base ruleset and its variants on the same seeds and compare the results.

Every ruleset plays games 0..K-1, and game i uses the seed derived from (master seed, i) for the game
and for its bots, exactly like `simulate`. Matched seeds make the comparison fairer (the same deals
and draws, as far as the rules let them stay the same) and make results independent of the number
of worker processes and of where they run (tools/backends.py). `cli/compare.py` renders the result;
docs/variants.md explains the figures.
"""

from __future__ import annotations

import math
import os
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from meeple.errors import MeepleError, Problem, UsageError
from meeple.runtime.rules import Ruleset
from meeple.tools import stats
from meeple.tools.agents import searches, seat_names
from meeple.tools.backends import Backend, Failure, Interrupted, LocalBackend, Work
from meeple.tools.coverage import CoverageReport, report_from_counts
from meeple.tools.report import problem_json
from meeple.tools.simulate import check_players, game_length, game_seed, play_to_end

ALPHA = 0.05


@dataclass
class GameResult:
    index: int
    scores: list[float]
    winners: list[int]
    decisions: int
    length: int  # rounds if the ruleset has a game counter `round`, else decisions
    held: dict[str, list[int]]  # item id -> copies each seat holds at the end
    coverage: dict[int, int] | None


def play_one(rs: Ruleset, players: int, seed: int, agents: str, index: int, coverage: bool) -> GameResult:
    """One bot game, as `simulate.play_game` plays it (same seeds, same bots), plus what it ended with."""
    game, decisions = play_to_end(rs, players, seed, agents, coverage)
    held: dict[str, list[int]] = {}
    for item, ids in rs.items.items():
        counts = [0] * players
        for cid in ids:
            # The seat whose zone holds the component at the end, also through a slot of a component it holds.
            seat = game._ev.owner(cid)
            if seat is not None:
                counts[seat] += 1
        held[item] = counts
    scores = [float(s) if isinstance(s, (int, float)) else 0.0 for s in game.scores]
    return GameResult(index, scores, list(game.winners), decisions, game_length(rs, game, decisions), held,
                      game.state.coverage)


# ------------------------------------------------------------------ running games on a backend
class Broken(NamedTuple):  # a variant's game a rules error stopped: raised, it would end every ruleset's
    game: int
    failure: Failure  # the error as parts: exceptions lose their problems when pickled


# Per process, each (run, ruleset)'s first failed game seen: its later games are skipped (thrown away anyway,
# and each failure saves its game to a file), never its first failing one, so the error reported is the same.
_FIRST_FAILED: dict[tuple[str, int], int] = {}


def _play_job(run: tuple[Sequence[Ruleset], int, int, str, bool, bool, str],
              job: tuple[int, int]) -> GameResult | Broken | None:
    """Game i of ruleset r, wherever the backend chose; None: skipped, after an earlier failed game."""
    (rulesets, players, seed, agents, coverage, keep_going, token), (r, i) = run, job
    if _FIRST_FAILED.get((token, r), i) < i:
        return None
    try:
        return play_one(rulesets[r], players, game_seed(seed, i), agents, i, coverage)
    except MeepleError as e:
        if not keep_going or r == 0 or isinstance(e, UsageError):
            raise  # the backend ends the run with the first such error in (ruleset, game) order
        _FIRST_FAILED[token, r] = min(i, _FIRST_FAILED.get((token, r), i))
        return Broken(i, Failure(type(e).__name__, list(e.problems)))


def _first_failures(results: dict[tuple[int, int], Any]) -> dict[int, MeepleError]:
    """Each ruleset's error from its first broken game among `results`."""
    broken = sorted((k, g) for k, g in results.items() if isinstance(g, Broken))  # keys are unique
    return {r: g.failure.exception() for (r, _), g in reversed(broken)}  # reversed: the first game's is kept


def run_games(rulesets: Sequence[Ruleset], players: int, games: int, seed: int = 0, agents: str = "random",
              workers: int = 1, coverage: bool = True, progress: Callable[[int], None] | None = None,
              backend: Backend | None = None, keep_going: bool = False) -> list[list[GameResult] | MeepleError]:
    """Games 0..games-1 of every ruleset, in index order, on `backend` (default: this machine with
    `workers` processes, 0 = one per core; like `simulate` and `ladder`, this process alone unless
    asked: the commands ask for every core). A rules error is raised, the first in (ruleset, game)
    order; with `keep_going`, a variant's (not the base's) error takes the place of its results.
    Ctrl-C raises backends.Interrupted: `finished` by (ruleset, game), `failed` errors by ruleset."""
    backend = backend or LocalBackend(workers)
    # One run (one pool) for every ruleset's games, game by game, every ruleset's in turn: Ctrl-C keeps
    # matched games (found by QA). The token tells this run's failures apart in a process that outlives it.
    token, jobs = uuid.uuid4().hex, [(r, i) for i in range(games) for r in range(len(rulesets))]
    work = Work(_play_job, (tuple(rulesets), players, seed, agents, coverage, keep_going, token),
                batch_cap=1 if searches(agents) else None)
    try:
        played = dict(zip(jobs, backend.run(work, jobs, progress)))
    except Interrupted as stop:
        finished = {jobs[k]: g for k, g in stop.finished.items()}
        raise Interrupted({j: g for j, g in finished.items() if isinstance(g, GameResult)}, len(jobs),
                          done=stop.done, failed=_first_failures(finished)) from None
    finally:
        for r in range(len(rulesets)):  # the failures of games played in this process
            _FIRST_FAILED.pop((token, r), None)
    failed = _first_failures(played)
    return [failed[r] if r in failed else [played[r, i] for i in range(games)] for r in range(len(rulesets))]


# ------------------------------------------------------------------ statistics of one ruleset
def margin(scores: list[float]) -> float:
    """The winner's score minus the runner-up's (0 in a tie or a solo game)."""
    top = sorted(scores, reverse=True)
    return top[0] - top[1] if len(top) > 1 else 0.0


def json_safe(x: Any) -> Any:
    """NaN (no data, e.g. the win rate of a card nobody held) is not JSON: make it null."""
    if isinstance(x, float) and math.isnan(x):
        return None
    if isinstance(x, dict):
        return {k: json_safe(v) for k, v in x.items()}
    if isinstance(x, list):
        return [json_safe(v) for v in x]
    return x


def _num(xs: Sequence[float]) -> dict[str, float]:
    return {"mean": stats.mean(xs), "sd": stats.stdev(xs), "min": min(xs, default=float("nan")),
            "max": max(xs, default=float("nan"))}


def summarise(rs: Ruleset, results: list[GameResult], players: int, names: list[str],
              coverage: bool) -> dict[str, Any]:
    n = len(results)
    wins = [0.0] * players
    for g in results:
        for w in g.winners:
            wins[w] += 1 / len(g.winners)  # a k-way tie gives each tied seat 1/k of a win
    seats = [{"seat": s + 1, "agent": names[s], "wins": wins[s], "win_rate": wins[s] / n,
              "win_ci": list(stats.wilson(wins[s], n))} for s in range(players)]
    fair = 1 / players
    z = (wins[0] / n - fair) / (fair * (1 - fair) / n) ** 0.5 if players > 1 else 0.0
    margins = [margin(g.scores) for g in results]
    items: dict[str, Any] = {}
    for item, ids in rs.items.items():
        games_held = sum(1 for g in results if sum(g.held[item]) > 0)
        owners = [(g, s) for g in results for s in range(players) if g.held[item][s] > 0]
        owner_wins = sum(1 / len(g.winners) for g, s in owners if s in g.winners)
        comp = rs.components[ids[0]]
        items[item] = {"kind": comp.kind, "name": comp.name, "copies": len(ids),
                       "held_games": games_held, "held_rate": games_held / n,
                       "copies_mean": stats.mean([float(sum(g.held[item])) for g in results]),
                       "owners": len(owners), "owner_wins": owner_wins,
                       "owner_win_rate": owner_wins / len(owners) if owners else float("nan"),
                       "owner_win_ci": list(stats.wilson(owner_wins, len(owners)))}
    out: dict[str, Any] = {
        "ruleset": rs.name, "path": rs.path, "games": n, "seats": seats,
        "first_player": {"win_rate": wins[0] / n, "fair": fair, "advantage": wins[0] / n - fair,
                         "p": stats.normal_p(z)},
        "score": _num([s for g in results for s in g.scores]),
        "margin": _num(margins),
        "length": {"unit": "rounds" if "round" in rs.game_counters else "decisions",
                   **_num([float(g.length) for g in results])},
        "decisions_mean": stats.mean([float(g.decisions) for g in results]),
        "games_without_decisions": sum(g.decisions == 0 for g in results),
        "games_all_tied": sum(players > 1 and len(g.winners) == players for g in results),
        "items": items,
    }
    if coverage:
        out["coverage"] = coverage_of(rs, results).to_json()
    return out


def coverage_of(rs: Ruleset, results: list[GameResult]) -> CoverageReport:
    counts: dict[int, int] = {}
    for g in results:
        for k, v in (g.coverage or {}).items():
            counts[k] = counts.get(k, 0) + v
    return report_from_counts(rs, counts, len(results))


# ------------------------------------------------------------------ base vs variant
CORRECTION = "Holm"


def _row(what: str, base: float, var: float, p: float, item: str | None = None) -> dict[str, Any]:
    return {"what": what, "item": item, "base": base, "variant": var, "diff": var - base, "p": p}


def differences(base: dict, var: dict, samples_b: list[GameResult], samples_v: list[GameResult]) -> list[dict]:
    """Each figure of a variant against the base, with a p-value: two-proportion z tests for rates,
    Welch t tests for means (per game, so that the seats of one game do not count as independent)."""
    nb, nv = base["games"], var["games"]
    rows = [_row(f"P{b['seat']} win rate", b["win_rate"], v["win_rate"],
                 stats.two_proportion_z(v["wins"], nv, b["wins"], nb)[1])
            for b, v in zip(base["seats"], var["seats"])]
    ses = [stats.proportion_diff_se(v["wins"], nv, b["wins"], nb) for b, v in zip(base["seats"], var["seats"])]
    for what, key, fn in (("score mean", "score", lambda g: stats.mean(g.scores)),
                          ("winning margin", "margin", lambda g: margin(g.scores)),
                          ("game length", "length", lambda g: float(g.length))):
        xs, ys = [fn(g) for g in samples_v], [fn(g) for g in samples_b]
        p = stats.welch_samples(xs, ys)[2]
        rows.append(_row(what, base[key]["mean"], var[key]["mean"], p))
        ses.append(stats.mean_diff_se(xs, ys))
    for item, b in base["items"].items():
        v = var["items"].get(item)
        if v is None:
            continue
        rows.append(_row(f"{item} held", b["held_rate"], v["held_rate"],
                         stats.two_proportion_z(v["held_games"], nv, b["held_games"], nb)[1], item))
        if b["owners"] and v["owners"]:
            rows.append(_row(f"{item} owners win rate", b["owner_win_rate"], v["owner_win_rate"],
                             stats.two_proportion_z(v["owner_wins"], v["owners"], b["owner_wins"], b["owners"])[1],
                             item))
    # Some 45 figures are tested per variant: uncorrected, about two would pass p < 0.05 by chance alone.
    # `significant` uses the Holm-adjusted p over every row of this variant; `p` stays the raw one.
    for r, adj in zip(rows, stats.holm([r["p"] for r in rows])):
        r["p_adjusted"] = adj
        r["significant"] = not math.isnan(adj) and stats.significant(adj, ALPHA)
    # The headline figures also say how large a difference these games could show: without it, "not
    # significant" cannot tell no effect from too few games (docs/variants.md, "Too few games?").
    tests = sum(not math.isnan(r["p"]) for r in rows)
    for r, se in zip(rows, ses):
        least = stats.detectable(se, tests, ALPHA)
        r["detectable"] = least
        r["inconclusive"] = not r["significant"] and not math.isnan(least)
        # A rate's aim is at most 10 points: a larger change in a win rate is one nobody misses.
        r["to_detect"] = stats.to_detect(nv, least, 0.1 if r["what"].endswith("rate") else math.inf) \
            if r["inconclusive"] else None
    return rows


def compare(rulesets: Sequence[Ruleset | str | os.PathLike], players: int, games: int, seed: int = 0,
            agents: str = "random", workers: int = 1, coverage: bool = True,
            progress: Callable[[int], None] | None = None, backend: Backend | None = None,
            keep_going: bool = False) -> dict[str, Any]:
    """Play the base (first) and each variant `games` times on matched seeds; JSON-ready results.
    A rules error in a game is raised; with `keep_going`, a variant's error leaves the others compared
    and the variant listed in `failed` (its error rebuilt by cli/compare.failure_error), unless no
    variant is left to compare (then the errors are raised). Ctrl-C raises backends.Interrupted, with
    the comparison of the games every ruleset finished (when there are at least two) in `partial`."""
    from meeple.runtime.rules import load_ruleset

    if len(rulesets) < 2:
        raise UsageError(Problem("U030", "compare needs a base ruleset and at least one variant"))
    if games < 2:
        raise UsageError(Problem("U021", f"the number of games must be at least 2, not {games}"))
    if workers < 0:
        raise UsageError(Problem("U022", f"the number of workers must be 0 (one per core) or more, not {workers}"))
    loaded = [r if isinstance(r, Ruleset) else load_ruleset(r) for r in rulesets]
    for rs in loaded:
        check_players(rs, players)
    names = seat_names(agents, players)
    try:
        results = run_games(loaded, players, games, seed, agents, workers, coverage, progress, backend, keep_going)
    except Interrupted as stop:
        # Matched seeds: only the games that every ruleset (that did not fail) finished are compared.
        failed = stop.failed
        ran = [r for r in range(len(loaded)) if r not in failed]
        both = sorted(set.intersection(*({i for r_, i in stop.finished if r_ == r} for r in ran)))
        if len(both) >= 2 and len(ran) >= 2:
            done = [[stop.finished[r, i] for i in both] if r not in failed else [] for r in range(len(loaded))]
            stop.partial = _report(loaded, done, players, seed, names, coverage, failed)
        raise
    failed = {r: e for r, e in enumerate(results) if isinstance(e, MeepleError)}
    if len(failed) == len(loaded) - 1:  # nothing left to compare with the base
        errors = list(failed.values())
        raise type(errors[0])([p for e in errors for p in e.problems])
    return _report(loaded, results, players, seed, names, coverage, failed)  # type: ignore[arg-type]


def _report(loaded: list[Ruleset], results: list[list[GameResult]], players: int, seed: int, names: list[str],
            coverage: bool, failed: dict[int, MeepleError] | None = None) -> dict[str, Any]:
    """The comparison of the rulesets that ran; those whose games failed (`failed`, by position) are
    listed apart, with their errors."""
    failed = failed or {}
    failures = [{"position": r, "ruleset": loaded[r].name, "path": loaded[r].path, "error": type(e).__name__,
                 "problems": [problem_json(p) for p in e.problems]} for r, e in sorted(failed.items())]
    ran = [r for r in range(len(loaded)) if r not in failed]
    loaded, results = [loaded[r] for r in ran], [results[r] for r in ran]
    summaries = [summarise(rs, res, players, names, coverage) for rs, res in zip(loaded, results)]
    return json_safe({
        "players": players, "games": len(results[0]), "seed": seed, "agents": names, "alpha": ALPHA,
        "correction": CORRECTION, "power": stats.POWER,
        "rulesets": summaries,
        "differences": [{"variant": s["ruleset"], "base": summaries[0]["ruleset"],
                         "rows": differences(summaries[0], s, results[0], res)}
                        for s, res in zip(summaries[1:], results[1:])],
        "failed": failures,
        "score_samples": [[sc for g in res for sc in g.scores] for res in results],
    })
