"""Finding and reading ruleset files: bundled names, paths, libraries, one schema-checked document."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from meeple.errors import Problem, RulesetError, UsageError
from meeple.loading.resources import data_dir
from meeple.loading.schema import validate_document
from meeple.loading.yamlsrc import Document, load_yaml_file


def rulesets_dir() -> Path:
    """The bundled rulesets: the source tree's `rulesets/`, or the installed data package."""
    return data_dir("rulesets") or Path("rulesets")


def bundled() -> list[str]:
    return sorted(p.stem for p in rulesets_dir().glob("*.yaml"))


def find_ruleset(name_or_path: str, relative_to: Path | None = None) -> Path:
    """A path as given (or relative to another file), else a bundled ruleset or variant by name."""
    p = Path(name_or_path)
    candidates = []
    if relative_to is not None and not p.is_absolute():
        candidates.append(relative_to.parent / p)
    candidates.append(p)
    rd = rulesets_dir()
    candidates += [rd / f"{name_or_path}.yaml", rd / "variants" / f"{name_or_path}.yaml",
                   rd / "reference" / f"{name_or_path}.yaml", rd / name_or_path]
    for c in candidates:
        if c.is_file():
            return c
    raise UsageError(Problem("IO02", f"no ruleset file or bundled ruleset named `{name_or_path}`", None,
                             hint="bundled: " + ", ".join(bundled())))


def find_library(name: str, relative_to: Path) -> Path:
    p = Path(name)
    for c in (relative_to.parent / p, rulesets_dir() / "lib" / f"{name}.yaml", p):
        if c.is_file():
            return c
    raise FileNotFoundError(name)


def display_path(p: Path) -> str:
    """How a file is named in messages: relative to the working folder when inside it, else absolute."""
    try:
        rel = os.path.relpath(p)
    except ValueError:
        return str(p)
    return str(Path(p).resolve()) if rel.startswith("..") else rel


def load_document(path: Path, more: Callable[[Document], list[Problem]] | None = None) -> Document:
    """Read one YAML file and check it against the schema. When it fails, `more(doc)` may add the
    problems a later stage can still find (the scripts' syntax), so that one run reports them all."""
    doc = load_yaml_file(str(path) if not isinstance(path, Path) else display_path(path))
    problems = validate_document(doc)
    if any(p.severity == "error" for p in problems):
        if more is not None:
            problems = problems + more(doc)
        raise RulesetError(sorted(problems, key=problem_position))
    return doc


def problem_position(p: Problem) -> tuple:
    """Sort key for problems: by file and position, those without a place last."""
    s = p.span
    return (0, s.file, s.line, s.col) if s is not None else (1, "", 0, 0)
