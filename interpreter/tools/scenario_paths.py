"""What `meeple test` runs: the scenario files named, and those found in folders.

A path that yields no scenario to run (missing, not a regular file, a folder without scenario files) is a
usage problem of its own, reported beside the results: a test run that runs nothing must not pass.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from meeple.errors import Problem
from meeple.loading.files import is_bundled_name, path_problem, rulesets_dir, yaml_files_under
from meeple.tools.scenarios import RULESET_GIVEN, Result, run_file


@dataclass
class Run:
    results: list[Result] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # ruleset files found in the folders: not scenarios
    unusable: list[tuple[str, Problem]] = field(default_factory=list)  # (path, why): exit code 2


def run_paths(paths: list[str | Path]) -> Run:
    """The results of every scenario in `paths` (files, and the YAML files under folders that
    `yaml_files_under` lists, or the name of a bundled game whose scenarios to run), and the ruleset files
    found in those folders, which are not scenario files and are skipped (`meeple test rulesets/` runs the
    scenarios beside the games). A ruleset file named on its own fails, saying what it is."""
    run = Run()
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            found = yaml_files_under(p)
            ran = 0
            for f in found:
                results = run_file(f)
                if _is_ruleset(results):
                    run.skipped.append(str(f))
                else:
                    run.results += results
                    ran += 1
            if not ran:
                run.unusable.append((str(p), _no_scenario_in(p, len(found))))
        elif p.is_file():
            run.results += run_file(p)
        elif (own := _bundled_scenarios(str(raw))) is not None:  # as typed: `./name` is a path
            run.results += run_file(own)
        else:
            run.unusable.append((str(p), _not_found(p, str(raw))))
    return run


def _bundled_scenarios(name: str) -> Path | None:
    """The scenario file of a bundled ruleset or variant named as the other commands name it (`meeple test
    NAME`): an installed package's scenarios are in site-packages, where nobody types a path."""
    if Path(name).name != name:
        return None
    f = rulesets_dir() / "scenarios" / f"{name}.yaml"
    return f if f.is_file() else None


def _not_found(p: Path, raw: str) -> Problem:
    """A path that does not exist, saying which bundled names have scenarios when it looks like a name."""
    problem = path_problem(p, "file or folder")
    if p.exists() or p.name != raw:
        return problem
    own = sorted(f.stem for f in (rulesets_dir() / "scenarios").glob("*.yaml"))
    what = f"`{p}` is a bundled ruleset without scenarios of its own; " if is_bundled_name(str(p)) else ""
    return Problem(problem.code, problem.message, hint=f"{what}the bundled scenarios are those of " + ", ".join(own))


def _no_scenario_in(folder: Path, rulesets: int) -> Problem:
    if not rulesets:
        return Problem("IO01", f"{folder} is a folder without .yaml files or .yml files: no scenario to run")
    files = "a ruleset file" if rulesets == 1 else f"{rulesets} ruleset files"
    return Problem("IO01", f"{folder} holds no scenario file, only {files}",
                   hint=f"check rulesets with `meeple validate {folder}`; docs/scenarios.md shows a scenario file")


def _is_ruleset(results: list[Result]) -> bool:
    return len(results) == 1 and any(p.code == RULESET_GIVEN for p in results[0].problems)
