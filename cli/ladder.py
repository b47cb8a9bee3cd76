"""`meeple ladder RULESET --agents a,b,...`: agents against each other on matched seeds, every agent in
every seat, with win rates and 95% confidence intervals (interpreter/tools/ladder.py). The games run where
`--backend` says, like those of `simulate` and `compare` (cli/runs.py). With `--journal FILE` every
finished game is kept in FILE, and a run stopped before its end goes on from there (tools/journal.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from meeple.cli.common import fmt_num, fmt_wins, format_option, load_run, table
from meeple.cli.runs import (
    INTERRUPTED,
    backend_options,
    play_runs,
    progress_option,
    run_json,
    shows_progress,
    workers_option,
)
from meeple.tools.agents import AGENT_HELP


@click.command(epilog=AGENT_HELP)
@click.argument("ruleset")
@click.option("--players", "-p", type=int, default=None,
              help="Number of players. Default: 4 if the game allows it, else the nearest supported count.")
@click.option("--agents", "-a", required=True,
              help="One agent per seat, comma-separated (cycled if fewer), e.g. mcts:400,greedy,greedy,greedy.")
@click.option("--games", "-n", type=int, default=40, show_default=True,
              help="Games; a multiple of the player count plays every deal with every agent in every seat.")
@click.option("--seed", type=int, default=0, show_default=True, help="Master seed; deal k uses a seed from (seed, k).")
@workers_option
@backend_options
@progress_option()
@click.option("--journal", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Keep every finished game in this file (JSON lines). If it holds games of the same run "
                   "(ruleset, players, agents, seed and Meeple's code), they are not played again: a run "
                   "stopped by Ctrl-C or a crash goes on, and ends with the table of the whole run.")
@format_option
def ladder(ruleset: str, players: int | None, agents: str, games: int, seed: int, workers: int | None,
           backend: str, address: str | None, progress: bool | None, journal: Path | None, fmt: str) -> None:
    """Play agents against each other on RULESET and report each agent's win rate with a 95% interval.

    Game i is deal i // N played with the agents rotated by i mod N seats, so each deal is played with
    each agent in each seat. A win shared by k tied seats counts 1/k. An agent named several times
    counts as one row, per seat it holds; its fair share is 1/N."""
    from meeple.tools import journal as jl
    from meeple.tools.agents import seat_names
    from meeple.tools.ladder import ladder as run

    rs, n = load_run(ruleset, players, games, workers)
    progress = shows_progress(progress, fmt, games)
    done: list[Any] = []
    book = None
    if journal is not None:
        book = jl.Journal(journal, jl.header(rs, n, seat_names(agents, n), seed))
        done = book.games
        if 0 < len(done) < games:  # more than asked for is an error of the run, said alone
            click.echo(f"{journal}: {len(done)} of {games} games already played; playing the rest", err=True)
        elif done and len(done) == games:
            click.echo(f"{journal}: all {games} games already played", err=True)
    try:
        res, stopped = play_runs(backend, address, workers, max(games - len(done), 0), progress,
                                 lambda update, be: run(rs, n, agents, games, seed, progress=update, backend=be,
                                                        done=done, on_game=book.add if book else None))
    finally:
        if book is not None:
            book.close()
    if fmt == "json":
        click.echo(json.dumps(run_json(res.to_json(), games, stopped), indent=2))
    else:
        _text(res, n)
    if stopped:
        if journal is not None:
            click.echo(f"the finished games are in {journal}: the same command goes on from them", err=True)
        click.get_current_context().exit(INTERRUPTED)


def _text(res: Any, n: int) -> None:
    click.echo(f"{res.ruleset}: {res.games} games, {n} players, seed {res.seed}, seats {', '.join(res.agents)} "
               f"(rotated)")
    rows = [[r.agent, str(r.seats), fmt_wins(r.wins), f"{100 * r.win_rate:.1f}%",
             f"{100 * r.win_ci[0]:.1f}-{100 * r.win_ci[1]:.1f}%", str(r.losses), fmt_num(r.score_mean)]
            for r in res.rows]
    click.echo(table(["agent", "seats", "wins", "win rate", "95% CI", "losses", "score mean"], rows, "lrrrrrr"))
    click.echo(f"fair share {100 / n:.1f}% per seat; {res.draws} game(s) with a shared win (1/k each)")
    resumed = f"; {res.resumed} earlier games read from the journal" if res.resumed else ""
    click.echo(f"time: {res.seconds:.1f} s, {res.seconds_per_game:.2f} s per game "
               f"({res.workers} worker{'s' if res.workers != 1 else ''}, {res.backend}){resumed}")
