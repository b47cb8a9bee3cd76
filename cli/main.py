"""The `meeple` command. Exit codes: 0 success, 1 invalid input (a ruleset, scenario or save), 2 usage or IO.

Every user error is a MeepleError raised by a command and printed once, by `MeepleGroup`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from meeple.cli import __version__
from meeple.cli.common import (
    MeepleGroup,
    check_games,
    check_workers,
    fmt_num,
    format_option,
    load,
    resolve_players,
    table,
    usage,
)
from meeple.cli.play import play
from meeple.cli.runs import (
    INTERRUPTED,
    backend_options,
    interrupted,
    open_backend,
    progress_line,
    workers_option,
)
from meeple.errors import MeepleError, UsageError


@click.group(cls=MeepleGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="meeple")
def meeple() -> None:
    """Rules-as-data interpreter for board games: one YAML ruleset per game."""


meeple.add_command(play)
from meeple.cli.compare import compare; meeple.add_command(compare)  # noqa: I001
from meeple.cli.diff import diff; meeple.add_command(diff)  # noqa: I001
from meeple.cli.bench import bench; meeple.add_command(bench)  # noqa: I001
from meeple.cli.serve import serve; meeple.add_command(serve)  # noqa: I001
from meeple.cli.show import show; meeple.add_command(show)  # noqa: I001
from meeple.cli.show import new; meeple.add_command(new)  # noqa: I001
from meeple.cli.ladder import ladder; meeple.add_command(ladder)  # noqa: I001
# Further commands register above this line: one import and one add_command each.


def _looks_like_path(arg: str) -> bool:
    return "/" in arg or "\\" in arg or arg.endswith((".yaml", ".yml", ".json"))


# ------------------------------------------------------------------ validate
@meeple.command()
@click.argument("files", nargs=-1, required=True)
@format_option
@click.option("--strict", is_flag=True, help="Warnings fail validation too (exit 1).")
def validate(files: tuple[str, ...], fmt: str, strict: bool) -> None:
    """Check ruleset FILES (paths or bundled names) and report every problem."""
    from meeple.runtime.rules import load_ruleset
    from meeple.tools.report import render_json, render_text

    problems: list = []
    per_file: list[dict] = []
    worst = 0
    for f in files:
        try:
            if _looks_like_path(f) and not Path(f).exists():
                from meeple.loading.files import find_ruleset

                try:
                    find_ruleset(f)  # a bundled name such as variants/four_workers
                except MeepleError:
                    raise usage(f"no such file: {f}", code="IO01") from None
            if Path(f).is_dir():
                raise usage(f"{f} is a folder: give ruleset files", code="IO01")
            rs = load_ruleset(f)
            found = list(rs.warnings)
            code = 1 if strict and found else 0
        except MeepleError as e:
            found = list(e.problems)
            code = e.exit_code
        worst = max(worst, code)
        problems += found
        per_file.append({"file": f, "valid": code == 0, "exit_code": code, "problems": found})
    if fmt == "json":
        report = json.loads(render_json(problems))
        report["files"] = [{"file": r["file"], "valid": r["valid"], "exit_code": r["exit_code"]} for r in per_file]
        report["valid"] = worst == 0
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        color = sys.stdout.isatty()
        for r in per_file:
            if r["problems"]:
                click.echo(render_text(r["problems"], color=color), nl=False)
            errors = any(p.severity == "error" for p in r["problems"])
            verdict = ("ok" if r["valid"] else "unreadable" if r["exit_code"] == 2
                       else "invalid" if errors else "warnings fail --strict")
            click.echo(f"{r['file']}: {verdict}")
        if len(files) > 1:
            ok = sum(r["valid"] for r in per_file)
            click.echo(f"{len(files)} files: {ok} valid, {len(files) - ok} not")
    if worst:
        click.get_current_context().exit(worst)


# ------------------------------------------------------------------ simulate
@meeple.command()
@click.argument("ruleset")
@click.option("--players", "-p", type=int, default=None,
              help="Number of players. Default: 4 if the game allows it, else the nearest supported count.")
@click.option("--games", "-n", type=int, default=100, show_default=True, help="Number of games.")
@click.option("--seed", type=int, default=0, show_default=True, help="Master seed; game i uses a seed from (seed, i).")
@click.option("--agents", default="random", show_default=True,
              help="Bots, comma-separated and cycled over the seats: random, first, greedy[:DEALS], "
                   "mcts[:BUDGET][:cut=K][:guide=P][:prior=M][:sealed=S][:others=S] (BUDGET: iterations such as 400, or time such as 1s).")
@workers_option
@backend_options
@click.option("--progress/--no-progress", default=None,
              help="Progress on stderr (default: on a terminal, for 50 games or more).")
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

    rs = load(ruleset)
    n = resolve_players(rs, players)
    check_games(games)
    if workers is not None:
        check_workers(workers)
    if progress is None:
        progress = fmt == "text" and games >= 50 and sys.stderr.isatty()
    be = open_backend(backend, address, workers)
    stopped = False
    try:
        with be, progress_line(games, progress) as update:
            summary = run(rs, n, games, seed, agents, progress=update, coverage=coverage,
                          keep_records=records or coverage, backend=be)
    except KeyboardInterrupt as stop:  # Interrupted holds what finished
        summary, stopped = interrupted(stop), True
        if summary is None:
            click.get_current_context().exit(INTERRUPTED)
    cov = None
    if coverage:
        from meeple.tools.coverage import coverage_report

        cov = coverage_report(rs, [r.coverage for r in summary.records])
    if fmt == "json":
        out = summary.to_json(records=records)
        if cov is not None:
            out["coverage"] = cov.to_json()
        click.echo(json.dumps(out, indent=2))
    else:
        _simulate_text(summary, seed, n, cov)
    if stopped:
        click.get_current_context().exit(INTERRUPTED)


def _simulate_text(summary: Any, seed: int, n: int, cov: Any) -> None:
    click.echo(f"{summary.ruleset}: {summary.games} games, {n} players, seed {seed}, "
               f"agents {', '.join(summary.agents)}")
    rows = [[f"P{s.seat + 1}", s.agent, f"{s.wins:g}", f"{s.win_rate:.3f}",
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


# ------------------------------------------------------------------ test
@meeple.command("test")
@click.argument("paths", nargs=-1, required=True)
@format_option
def test_cmd(paths: tuple[str, ...], fmt: str) -> None:
    """Run rule scenarios from files or folders (every *.yaml inside)."""
    from meeple.tools.scenarios import run_paths

    results = run_paths(list(paths))
    failed = [r for r in results if not r.ok]
    if fmt == "json":
        out = [{"file": r.file, "name": r.name, "ok": r.ok,
                "problems": [{"file": p.span.file if p.span else r.file, "line": p.span.line if p.span else None,
                              "code": p.code, "message": p.message, "hint": p.hint} for p in r.problems]}
               for r in results]
        click.echo(json.dumps({"results": out, "passed": len(results) - len(failed), "failed": len(failed)},
                              indent=2))
    else:
        for r in results:
            if r.ok:
                click.echo(f"PASS {r.name}")
                continue
            if not r.problems:
                where = f"{r.span.file}:{r.span.line}" if r.span else r.file
                click.echo(f"FAIL {where}: {r.name}")
            for p in r.problems:
                span = p.span or r.span
                where = f"{span.file}:{span.line}" if span else r.file
                click.echo(f"FAIL {where}: {r.name}: {p.message}")
                if p.hint:
                    click.echo(f"  hint: {p.hint}")
        click.echo(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    if failed:
        click.get_current_context().exit(1)


# ------------------------------------------------------------------ schema, rulesets
@meeple.command()
@click.option("--scenario", is_flag=True, help="The schema of scenario files instead of rulesets.")
def schema(scenario: bool) -> None:
    """Print the JSON Schema of ruleset (or scenario) files, for editors."""
    from meeple.loading.schema import load_schema

    click.echo(json.dumps(load_schema("scenario" if scenario else "meeple"), indent=2, ensure_ascii=False))


@meeple.command()
@format_option
def rulesets(fmt: str) -> None:
    """List the bundled rulesets."""
    from meeple.loading.files import bundled, rulesets_dir
    from meeple.runtime.rules import load_ruleset

    rows: list[dict[str, Any]] = []
    variants = sorted(f"variants/{p.stem}" for p in (rulesets_dir() / "variants").glob("*.yaml"))
    for name in bundled() + variants:
        try:
            rs = load_ruleset(name)
            rows.append({"name": name, "title": rs.name, "players": [rs.min_players, rs.max_players],
                         "description": str(rs.raw.get("description") or ""), "valid": True})
        except MeepleError as e:
            rows.append({"name": name, "title": name, "players": None,
                         "description": f"(invalid: {len(e.problems)} problems; run meeple validate {name})",
                         "valid": False})
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    click.echo(table(["name", "players", "description"],
                     [[r["name"], f"{r['players'][0]}-{r['players'][1]}" if r["players"] else "?", _short(r["description"])]
                      for r in rows], "lll"))


def _short(text: str, width: int = 72) -> str:
    """The first sentence, cut to fit a terminal line (the full text is in --format json)."""
    first = text.split(". ")[0].strip()
    return first if len(first) <= width else first[:width - 1].rstrip() + "…"


def main() -> None:
    meeple(prog_name="meeple")


if __name__ == "__main__":
    main()


__all__ = ["UsageError", "main", "meeple"]
