"""The `meeple` command. Exit codes: 0 success, 1 invalid input (a ruleset, scenario or save), 2 usage or IO.

Every user error is a MeepleError raised by a command and printed once, by `MeepleGroup`. Commands
with a module of their own are imported only when they run (or `--help` lists them), so that a quick
command such as `meeple validate` does not pay for importing the runtime, the bots and the backends.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from meeple.cli.common import MeepleGroup, format_option, table, usage
from meeple.errors import MeepleError, Problem, UsageError


def _play() -> click.Command:
    from meeple.cli.play import play
    return play


def _simulate() -> click.Command:
    from meeple.cli.simulate import simulate
    return simulate


def _compare() -> click.Command:
    from meeple.cli.compare import compare
    return compare


def _diff() -> click.Command:
    from meeple.cli.diff import diff
    return diff


def _bench() -> click.Command:
    from meeple.cli.bench import bench
    return bench


def _serve() -> click.Command:
    from meeple.cli.serve import serve
    return serve


def _show() -> click.Command:
    from meeple.cli.show import show
    return show


def _new() -> click.Command:
    from meeple.cli.show import new
    return new


def _ladder() -> click.Command:
    from meeple.cli.ladder import ladder
    return ladder


def _fit_value() -> click.Command:
    from meeple.cli.fitvalue import fit_value
    return fit_value


# Commands in modules of their own: name -> a function that imports the command (a plain import
# statement each, so that tests/test_layout.py sees the edge). Add new commands here.
LAZY_COMMANDS: dict[str, Callable[[], click.Command]] = {
    "play": _play, "simulate": _simulate, "compare": _compare, "diff": _diff, "bench": _bench, "serve": _serve,
    "show": _show, "new": _new, "ladder": _ladder,
    "fit-value": _fit_value}


class LazyGroup(MeepleGroup):
    """click's lazy-loading pattern: a command's module is imported when the command is looked up."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(LAZY_COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in LAZY_COMMANDS:
            self.add_command(LAZY_COMMANDS[cmd_name](), cmd_name)
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="meeple", prog_name="meeple")
def meeple() -> None:
    """Rules-as-data interpreter for board games: one YAML ruleset per game."""


def _looks_like_path(arg: str) -> bool:
    return "/" in arg or "\\" in arg or arg.endswith((".yaml", ".yml", ".json"))


# ------------------------------------------------------------------ validate
@meeple.command()
@click.argument("files", nargs=-1, required=True)
@format_option
@click.option("--strict", is_flag=True, help="Warnings fail validation too (exit 1).")
def validate(files: tuple[str, ...], fmt: str, strict: bool) -> None:
    """Check ruleset FILES (paths, folders or bundled names) and report every problem. In a folder,
    every *.yaml and *.yml file below it is checked, except scenario files (run them with `meeple test`)."""
    from meeple.tools.report import render_text, report_json

    per_file, skipped = _validate_all(files, strict)
    worst = max((r["exit_code"] for r in per_file), default=0)
    if fmt == "json":
        # a problem without a place (a missing file) is in the file it was found for
        report = report_json([(p, r["file"]) for r in per_file for p in r["problems"]])
        report["files"] = [{"file": r["file"], "valid": r["valid"], "exit_code": r["exit_code"]} for r in per_file]
        report["skipped_scenarios"] = skipped
        report["valid"] = worst == 0
        report["exit_code"] = worst
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        color = sys.stdout.isatty()
        for r in per_file:
            if r["problems"]:
                click.echo(render_text(r["problems"], color=color, file=r["file"]), nl=False)
            errors = any(p.severity == "error" for p in r["problems"])
            verdict = ("ok" if r["valid"] else "unreadable" if r["exit_code"] == 2
                       else "invalid" if errors else "warnings fail --strict")
            click.echo(f"{r['file']}: {verdict}")
        if len(per_file) > 1:
            ok = sum(r["valid"] for r in per_file)
            click.echo(f"{len(per_file)} files: {ok} valid, {len(per_file) - ok} not")
        if skipped:
            click.echo(f"({len(skipped)} scenario file{'s' if len(skipped) != 1 else ''} in the folders skipped: "
                       "run them with `meeple test`)")
    if worst:
        click.get_current_context().exit(worst)


def _validate_all(args: tuple[str, ...], strict: bool) -> tuple[list[dict], list[str]]:
    """Each file's result ({file, valid, exit_code, problems}), folders walked, and the scenario files
    found in the folders (skipped: `meeple test rulesets/` is their command, as `validate` is the games')."""
    from meeple.loading.files import yaml_files_under
    from meeple.loading.yamlsrc import SCENARIO_GIVEN

    per_file: list[dict] = []
    skipped: list[str] = []
    for arg in args:
        if not Path(arg).is_dir():
            per_file.append(_validate_one(arg, strict))
            continue
        found = yaml_files_under(Path(arg))
        checked = 0
        for f in found:
            r = _validate_one(str(f), strict)
            if [p.code for p in r["problems"]] == [SCENARIO_GIVEN]:
                skipped.append(str(f))
            else:
                per_file.append(r)
                checked += 1
        if not checked:  # nothing checked must not pass: an empty folder, or one of scenario files only
            n = len(found)
            files = "a scenario file" if n == 1 else f"{n} scenario files"
            why = (Problem("IO01", "a folder without .yaml files or .yml files") if not n else
                   Problem("IO01", f"a folder without ruleset files: it holds only {files}",
                           hint=f"run scenario files with `meeple test {arg}`"))
            per_file.append({"file": arg, "valid": False, "exit_code": 2, "problems": [why]})
    return per_file, skipped


def _validate_one(f: str, strict: bool) -> dict:
    from meeple.checker.load import load_ruleset  # validation needs no runtime: nothing is played

    try:
        if _looks_like_path(f) and not Path(f).exists():
            from meeple.loading.files import find_ruleset

            try:
                find_ruleset(f)  # a bundled name such as variants/four_workers
            except MeepleError:
                raise usage(f"no such file: {f}", code="IO01") from None
        rs = load_ruleset(f)
        found = list(rs.warnings)
        code = 1 if strict and found else 0
    except MeepleError as e:
        found = list(e.problems)
        code = e.exit_code
    return {"file": f, "valid": code == 0, "exit_code": code, "problems": found}


# ------------------------------------------------------------------ test
@meeple.command("test")
@click.argument("paths", nargs=-1, required=True)
@format_option
def test_cmd(paths: tuple[str, ...], fmt: str) -> None:
    """Run rule scenarios from files or folders (every *.yaml and *.yml inside, outside hidden folders),
    or a bundled game's by its name (`meeple test NAME`). Exit code 1 if a scenario failed, 2 if
    a path named holds no scenario to run (missing, empty)."""
    from meeple.tools.report import problem_json
    from meeple.tools.scenario_paths import run_paths

    run = run_paths(list(paths))
    results, skipped = run.results, run.skipped
    failed = [r for r in results if not r.ok]
    code = 2 if run.unusable else 1 if failed else 0
    if fmt == "json":
        out = [{"file": r.file, "line": r.span.line if r.span else None, "name": r.name, "ok": r.ok,
                "problems": [problem_json(p, r.file) for p in r.problems]} for r in results]
        click.echo(json.dumps({"results": out, "passed": len(results) - len(failed), "failed": len(failed),
                               "skipped_rulesets": skipped,
                               "problems": [problem_json(p, f) for f, p in run.unusable],
                               "exit_code": code}, indent=2, ensure_ascii=False))
    else:
        for r in results:
            if r.ok:
                click.echo(f"PASS {r.name}")
                continue
            if not any(p.severity == "error" for p in r.problems):
                where = f"{r.span.file}:{r.span.line}" if r.span else r.file
                click.echo(f"FAIL {where}: {r.name}")
            for p in r.problems:  # a ruleset's warnings next to the errors that failed it are no failures
                click.echo(f"{'FAIL' if p.severity == 'error' else 'warning'} {_failure(r, p)}")
                if p.hint:
                    click.echo(f"  hint: {p.hint}")
        for f, p in run.unusable:
            click.echo(f"error[{p.code}]: {f}: {p.message}" if f not in p.message else
                       f"error[{p.code}]: {p.message}", err=True)
            if p.hint:
                click.echo(f"  hint: {p.hint}", err=True)
        if results or skipped:
            n = len(skipped)
            tail = (f" ({n} ruleset file{'s' if n != 1 else ''} in the folders skipped: "
                    f"not {'scenario files' if n != 1 else 'a scenario file'})" if skipped else "")
            click.echo(f"{len(results) - len(failed)} passed, {len(failed)} failed{tail}")
    if code:
        click.get_current_context().exit(code)


def _failure(r: Any, p: Problem) -> str:
    """`file:line: SCENARIO: message`, in the scenario file; a problem of its ruleset (which fails to
    load) is named with its own place after the scenario file's `ruleset:` line."""
    span = p.span or r.span
    if span is not None and span.file != r.file and r.span is not None:
        return f"{r.span.file}:{r.span.line}: {r.name}: ruleset {span}: {p.message}"
    where = f"{span.file}:{span.line}" if span else r.file
    return f"{where}: {r.name}: {p.message}"


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
    from meeple.checker.load import load_ruleset
    from meeple.loading.files import bundled, rulesets_dir

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
