"""What every command shares: the command group that turns MeepleError into a report and an exit code,
loading a RULESET argument, and options used by several commands.

A command module (`play`, `compare`, `diff`) raises MeepleError for anything the user got wrong and
lets `MeepleGroup` print it; it never prints a traceback for user errors.
"""

from __future__ import annotations

import math
import sys
from typing import TYPE_CHECKING, Any

import click
from meeple.errors import MeepleError, Problem, UsageError
from meeple.tools.report import render_text

if TYPE_CHECKING:  # imported by `load` when a command needs it: `meeple validate` never plays
    from meeple.runtime.rules import Ruleset


def stderr_color() -> bool:
    return sys.stderr.isatty()


def print_error(e: MeepleError) -> None:
    """Problems without a location are plain lines (plus hints); located ones get the source report."""
    if all(p.span is None for p in e.problems):
        for p in e.problems:
            label = "error" if isinstance(e, UsageError) else f"{p.severity}[{p.code}]"
            click.echo(f"{label}: {p.message}", err=True)
            if p.hint:
                click.echo(f"  hint: {p.hint}", err=True)
        return
    click.echo(render_text(e.problems, color=stderr_color()), err=True, nl=False)


class MeepleGroup(click.Group):
    """Catches MeepleError in one place, so commands raise and never print tracebacks for user errors."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except MeepleError as e:
            print_error(e)
            ctx.exit(e.exit_code)
        except OSError as e:  # reading or writing a file the user named
            click.echo(f"error: {e.strerror or e}{f': {e.filename}' if e.filename else ''}", err=True)
            ctx.exit(2)


def load(ruleset: str) -> Ruleset:
    """A RULESET argument: a path, or the name of a bundled ruleset or variant."""
    from meeple.runtime.rules import load_ruleset

    rs = load_ruleset(ruleset)
    if rs.warnings:
        # A command that plays shows the checker's warnings too: a variant that misspells what it changes
        # is valid, plays the base's rules, and would otherwise measure nothing without a word.
        click.echo(render_text(rs.warnings, color=stderr_color()), err=True, nl=False)
        click.echo(f"{ruleset}: valid with the warnings above, and played as written", err=True)
    return rs


def resolve_players(rs: Ruleset, players: int | None) -> int:
    from meeple.tools.simulate import check_players, default_players

    n = default_players(rs) if players is None else players
    check_players(rs, n)
    return n


def load_run(ruleset: str, players: int | None, games: int, workers: int | None) -> tuple[Ruleset, int]:
    """What a command that plays many games of one ruleset checks first: the ruleset, its number of
    players (the default if not given), the number of games and of workers."""
    rs = load(ruleset)
    n = resolve_players(rs, players)
    check_games(games)
    if workers is not None:
        check_workers(workers)
    return rs, n


def usage(message: str, hint: str | None = None, code: str = "U001") -> UsageError:
    return UsageError(Problem(code, message, hint=hint))


# Absurd numbers are usage errors, not hours of work or a MemoryError: limits far above any real use.
MAX_GAMES = 10_000_000
MAX_WORKERS = 1_024
MAX_SECONDS = 86_400.0
INTERRUPTED = 130  # the shell's code for a command stopped by Ctrl-C (128 + SIGINT)


def check_games(games: int, option: str = "--games") -> None:
    if not 1 <= games <= MAX_GAMES:
        raise usage(f"{option} must be at least 1 and at most {MAX_GAMES:,}, not {games}")


def check_workers(workers: int) -> None:
    if not 0 <= workers <= MAX_WORKERS:
        raise usage(f"--workers must be from 0 (one per core) to {MAX_WORKERS:,}, not {workers}")


def fmt_num(x: float, digits: int = 2) -> str:
    if math.isnan(x):  # no numeric data
        return "-"
    return f"{x:.{digits}f}"


def fmt_wins(wins: float) -> str:
    """A count of wins: whole, or with two decimals when ties shared some (1/k of a win each). Not `%g`,
    which printed 1.33333 and, past a million, 1.23457e+06 (found by QA)."""
    w = round(wins, 6)  # sums of thirds are not exact
    return f"{w:.0f}" if w == int(w) else f"{w:.2f}"


def table(headers: list[str], rows: list[list[str]], align: str = "") -> str:
    """A plain aligned text table. `align` has one letter per column, l or r; by default the first
    column is left-aligned and the others (numbers) right-aligned."""
    align = align or "l" + "r" * (len(headers) - 1)
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(cells, widths, align)).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in rows])


format_option = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                             show_default=True, help="Output for people (text) or for tools (json).")
