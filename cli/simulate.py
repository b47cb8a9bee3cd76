"""`meeple simulate`: play a ruleset many times with bots and report win rates, scores, length and speed."""

from __future__ import annotations

import json
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
    warn_about_play,
    workers_option,
)
from meeple.tools.agents import AGENT_SPECS

# The progress line shows by default from this many games (its option's help says so too).
PROGRESS_FROM = 50


@click.command()
@click.argument("ruleset")
@click.option("--players", "-p", type=int, default=None,
              help="Number of players. Default: 4 if the game allows it, else the nearest supported count.")
@click.option("--games", "-n", type=int, default=100, show_default=True, help="Number of games.")
@click.option("--seed", type=int, default=0, show_default=True, help="Master seed; game i uses a seed from (seed, i).")
@click.option("--agents", default="random", show_default=True,
              help=f"Bots, comma-separated and cycled over the seats: {AGENT_SPECS} (BUDGET: iterations such as "
                   "400, or time such as 1s).")
@workers_option
@backend_options
@progress_option(PROGRESS_FROM)
@click.option("--records", is_flag=True, help="With --format json: include every game's record.")
@click.option("--coverage", is_flag=True,
              help="Also report the card effects, events, phases, steps and options that never ran.")
@format_option
def simulate(ruleset: str, players: int | None, games: int, seed: int, agents: str, workers: int | None,
             backend: str, address: str | None, progress: bool | None, records: bool, coverage: bool,
             fmt: str) -> None:
    """Play RULESET many times with bots and report win rates, scores, length and speed.

    RULESET is a file or the name of a bundled ruleset (see `meeple rulesets`)."""
    from meeple.tools.simulate import simulate as run

    rs, n = load_run(ruleset, players, games, workers)
    summary, stopped = play_runs(backend, address, workers, games, shows_progress(progress, fmt, games, PROGRESS_FROM), lambda update, be: run(
        rs, n, games, seed, agents, progress=update, coverage=coverage, keep_records=records or coverage,
        backend=be))
    cov = None
    if coverage:
        from meeple.tools.coverage import coverage_report

        cov = coverage_report(rs, [r.coverage for r in summary.records])
    if fmt == "json":
        out = run_json(summary.to_json(records=records), games, stopped)
        if cov is not None:
            out["coverage"] = cov.to_json()
        click.echo(json.dumps(out, indent=2))
    else:
        _simulate_text(summary, seed, n, cov)
    warn_about_play(summary.ruleset, summary.games, summary.games_without_decisions, summary.games_all_tied)
    if stopped:
        click.get_current_context().exit(INTERRUPTED)


def _simulate_text(summary: Any, seed: int, n: int, cov: Any) -> None:
    click.echo(f"{summary.ruleset}: {summary.games} games, {n} players, seed {seed}, "
               f"agents {', '.join(summary.agents)}")
    rows = [[f"P{s.seat + 1}", s.agent, fmt_wins(s.wins), f"{s.win_rate:.3f}",
             f"{s.win_ci[0]:.3f}-{s.win_ci[1]:.3f}", fmt_num(s.score_mean), fmt_num(s.score_stdev)]
            for s in summary.seats]
    click.echo(table(["seat", "agent", "wins", "win rate", "95% CI", "score mean", "score sd"], rows, "llrrrrr"))
    click.echo("(a k-way tie gives each tied seat 1/k of a win)")
    click.echo(f"length: {fmt_num(summary.length_mean)} {summary.length_unit} (sd {fmt_num(summary.length_stdev)}), "
               f"{fmt_num(summary.decisions_mean, 1)} decisions per game")
    click.echo(f"speed: {summary.games_per_s:.1f} games/s, {summary.decisions_per_s:.0f} decisions/s "
               f"({summary.workers} worker{'s' if summary.workers != 1 else ''}, {summary.backend}, "
               f"{summary.seconds:.2f} s)")
    if cov is not None:
        from meeple.tools.coverage import render_text as render_coverage

        click.echo(render_coverage(cov))
