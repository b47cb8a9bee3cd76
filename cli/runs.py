"""What the commands that play many games share (simulate, compare, and any other such command):
where the games run (`--backend`, `--address`, `--workers`), the progress line, and Ctrl-C.

After the games, `warn_about_play` says on stderr when a ruleset's games measured no play.

A command uses them like this (`simulate` in main.py is the example):

    @workers_option
    @backend_options                       # adds --backend and --address
    def cmd(..., workers, backend, address):
        be = open_backend(backend, address, workers)
        try:
            with be, progress_line(total, show) as update:   # the cluster starts before the clock
                result = run(..., progress=update, backend=be)
        except KeyboardInterrupt as stop:  # backends raise Interrupted, which holds what finished
            result = interrupted(stop)     # prints what finished; None if nothing can be shown
        ...show result...; exit 130 if it was interrupted

Ray is imported only when `--backend ray` is chosen.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click
from meeple.cli.common import INTERRUPTED, usage
from meeple.tools.backends import Backend, Interrupted, LocalBackend
from meeple.tools.progress import ProgressLine

# Every command that plays many games uses every core by default: that is what someone who asks for
# thousands of games expects, and the results do not depend on the number of workers, so there is no
# reason to be cautious. (A run of one game plays it in this process, without starting any worker.)
LOCAL_WORKERS = 0  # processes of the local backend when --workers is not given; 0 = one per core


def workers_option(f: Callable[..., Any]) -> Callable[..., Any]:
    """`--workers`/`-j`, the same for every command that plays many games (None: the backend's default)."""
    return click.option("--workers", "-j", type=int, default=None,
                        help="Games at once: processes here (default 0 = one per core), or with --backend ray "
                             "at most this many (default: every CPU of the cluster). Results are the same "
                             "for any number.")(f)


def progress_option(games: int = 0) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """`--progress/--no-progress` (None: `shows_progress` decides), the same for every command that plays
    many games; by default shown on a terminal for `games` or more."""
    more = f", for {games} games or more" if games else ""
    return click.option("--progress/--no-progress", default=None, help=f"Progress on stderr (default: on a terminal{more}).")


def shows_progress(progress: bool | None, fmt: str, games: int, least: int = 0) -> bool:
    """Whether to draw the progress line: as asked, else for text on a terminal and `least` games or more."""
    return progress if progress is not None else fmt == "text" and games >= least and sys.stderr.isatty()


def backend_options(f: Callable[..., Any]) -> Callable[..., Any]:
    f = click.option("--address", default=None, metavar="HOST:PORT",
                     help="With --backend ray: the cluster's head (default: start Ray on this machine "
                          "for the run). See docs/cluster.md.")(f)
    return click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
                        help="Where the games run: this machine's cores, or a Ray cluster "
                             "(pip install 'meeple[ray]'). Results are the same on both.")(f)


def open_backend(name: str, address: str | None, workers: int | None) -> Backend:
    """The backend a command's options chose; enter it (`with`) to start it. `workers` None means the
    backend's default: LOCAL_WORKERS processes here (one per core), every CPU of a Ray cluster."""
    if workers is not None and workers < 0:
        raise usage(f"--workers must be 0 (every core) or more, not {workers}", code="U022")
    if name == "local":
        if address is not None:
            raise usage("--address is for --backend ray", "meeple ... --backend ray --address HOST:PORT")
        return LocalBackend(LOCAL_WORKERS if workers is None else workers)
    from meeple.tools.ray_backend import RayBackend

    return RayBackend(address, workers or 0)


@contextmanager
def progress_line(total: int, show: bool) -> Iterator[Callable[[int], None] | None]:
    """The `progress` callback of a run, drawing a line on stderr, or None when not shown."""
    if not show:
        yield None
        return
    with ProgressLine(total, stream=sys.stderr) as line:
        yield line.update


def interrupted(stop: KeyboardInterrupt) -> Any:
    """Say on stderr what finished before Ctrl-C; returns the summary of it (None if there is none).
    A plain KeyboardInterrupt came before the games started (while starting workers, say)."""
    if not isinstance(stop, Interrupted):
        click.echo("interrupted before any game finished", err=True)
        return None
    tail = "; the results below are those of the games finished in order from the first" \
        if stop.partial is not None else ""
    click.echo(f"interrupted: {stop.done} of {stop.total} games finished{tail}", err=True)
    return stop.partial


def play_runs(backend: str, address: str | None, workers: int | None, total: int, show: bool,
              play: Callable[[Callable[[int], None] | None, Backend], Any]) -> tuple[Any, bool]:
    """What simulate, compare and ladder share: open the backend the options chose, call
    `play(progress, backend)` under a progress line of `total` games (drawn when `show`), and turn
    Ctrl-C into what finished. Returns (result, stopped); the command reports the result, then exits
    with INTERRUPTED when stopped. Exits at once when nothing had finished."""
    be = open_backend(backend, address, workers)
    try:
        with be, progress_line(total, show) as update:
            return play(update, be), False
    except KeyboardInterrupt as stop:  # Interrupted holds what finished
        res = interrupted(stop)
        if res is None:
            click.get_current_context().exit(INTERRUPTED)
        return res, True


def run_json(out: dict[str, Any], requested: int, stopped: bool) -> dict[str, Any]:
    """The JSON of a run's result with `games_requested` (the --games asked for) and `interrupted`
    (stopped by Ctrl-C: `games` then counts only the games shown) right after `games`, in every run,
    so the schema does not change with how the run ended (docs/cluster.md)."""
    extra = {"games_requested": requested, "interrupted": stopped}
    if "games" not in out:
        return {**out, **extra}
    res: dict[str, Any] = {}
    for k, v in out.items():
        res[k] = v
        if k == "games":
            res.update(extra)
    return res


def play_warnings(name: str, games: int, silent: int, all_tied: int) -> list[str]:
    """What makes a run's figures meaningless, said in words: games that ended before any decision (a
    constant or a count set to 0 can end a game in its setup: its report would otherwise look normal,
    every seat tied at its starting score), and games that all ended in a tie of every seat."""
    out = []
    if silent == games:
        out.append(f"{name}: all {games} games ended without a single decision: no player ever had a choice, "
                   "so no figure here comes from play (a constant or count set to 0 can leave nothing to "
                   "choose: check what the ruleset or its variant changes)")
    elif silent:
        out.append(f"{name}: {silent} of {games} games ended without a single decision")
    if all_tied == games and silent < games:
        out.append(f"{name}: every game ended with all players tied for the win, so the win rates say nothing "
                   "about the seats (expected only where everyone wins or loses together)")
    return out


def warn_about_play(name: str, games: int, silent: int, all_tied: int) -> None:
    """`play_warnings` on stderr, after the report."""
    for w in play_warnings(name, games, silent, all_tied):
        click.echo(f"warning: {w}", err=True)
