"""`meeple fit-value RULESET`: learn `agents.value` (a seat's chances of winning) from games played by
bots, over the ruleset's `agents.features` (interpreter/tools/valuefit.py), and print it as YAML to paste
into the ruleset or a variant: `agents.weights`, one number per feature. The games run where `--backend` says, like those of `simulate`."""

from __future__ import annotations

import json
import math
from typing import Any

import click
from meeple.cli.common import format_option, load_run, table
from meeple.cli.runs import (
    INTERRUPTED,
    backend_options,
    play_runs,
    progress_option,
    shows_progress,
    workers_option,
)
from meeple.tools.agents import AGENT_SPECS


@click.command("fit-value")
@click.argument("ruleset")
@click.option("--players", "-p", type=int, default=None,
              help="Number of players. Default: 4 if the game allows it, else the nearest supported count.")
@click.option("--games", "-n", type=int, default=400, show_default=True,
              help="Games to learn from (the first half also fits a model that is checked on the second).")
@click.option("--agents", default="greedy", show_default=True,
              help=f"The bots whose games teach the value, cycled over the seats: {AGENT_SPECS}. The value "
                   "estimates who wins when such bots play on.")
@click.option("--every", type=int, default=5, show_default=True,
              help="Sample one decision in this many (on average) as a position to learn from.")
@click.option("--seed", type=int, default=0, show_default=True, help="Master seed; game i uses a seed from (seed, i).")
@workers_option
@backend_options
@progress_option()
@format_option
def fit_value(ruleset: str, players: int | None, games: int, agents: str, every: int, seed: int,
              workers: int | None, backend: str, address: str | None, progress: bool | None, fmt: str) -> None:
    """Learn how much each of RULESET's `agents.features` is worth to a seat's chances of winning, and
    print the `agents.value` the search bot scores its cut-off rollouts with.

    The model is a conditional logit (which seat wins), fitted by maximum likelihood on positions
    sampled from the games; the value is in hundredths of a logit. See docs/agents.md."""
    from meeple.tools.valuefit import check_fit
    from meeple.tools.valuefit import fit_value as run

    rs, n = load_run(ruleset, players, games, workers)
    check_fit(rs, n, games, every)  # before the progress line: nothing is played to be refused
    progress = shows_progress(progress, fmt, games)
    res, stopped = play_runs(backend, address, workers, games, progress, lambda update, be: run(
        rs, n, games, agents, seed, every, progress=update, backend=be))
    if fmt == "json":
        click.echo(json.dumps(res.to_json(), indent=2))
    else:
        _text(res, rs.name, n, agents, seed)
    if stopped:
        click.get_current_context().exit(INTERRUPTED)


def _text(res: Any, name: str, n: int, agents: str, seed: int) -> None:
    click.echo(f"{name}: {res.positions} positions from {res.games} games, {n} players, agents {agents}, "
               f"seed {seed}")
    rows = [[f, f"{w:+.4f}", f"{c:+d}"] for f, w, c in zip(res.features, res.weights, res.hundredths, strict=True)]
    click.echo(table(["feature", "logit per unit", "in the value"], rows, "lrr"))

    def loss(x: float) -> str:
        return "n/a" if math.isnan(x) else f"{x:.4f}"

    click.echo(f"log-loss (nats, lower is better): fitted {loss(res.loss)}, as printed {loss(res.loss_rounded)}, "
               f"on held-out games {loss(res.held_out)}, chance {loss(res.loss_chance)}")
    click.echo(f"the model's favourite went on to win {100 * res.favourite_won:.1f}% of positions "
               f"(chance: {100 / n:.1f}%)")
    click.echo("")
    if res.worse_than_chance:
        click.echo(f"warning: on held-out games the model does no better than chance (log-loss "
                   f"{loss(res.held_out)} against {loss(res.loss_chance)}): these weights fit the games they came "
                   "from, not the game; do not paste them: play more games (--games) or choose other features")
        click.echo("")
        click.echo("# not worth using:")
    click.echo("agents:")
    click.echo(f"  weights: [{', '.join(str(c) for c in res.hundredths)}]  # one per feature, in order")
    click.echo(f"  # the same value written out, for `value:` instead: {res.expression()}")
