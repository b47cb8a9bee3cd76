"""Finding and reading ruleset files: bundled names, paths, libraries, one schema-checked document."""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from pathlib import Path

from meeple.errors import MeepleError, Problem, RulesetError, UsageError
from meeple.loading.resources import data_dir
from meeple.loading.schema import known_valid, remember_valid, validate_document
from meeple.loading.yamlsrc import Document, load_yaml_file


def rulesets_dir() -> Path:
    """The bundled rulesets: the source tree's `rulesets/`, or the installed data package."""
    return data_dir("rulesets") or Path("rulesets")


def bundled() -> list[str]:
    return sorted(p.stem for p in rulesets_dir().glob("*.yaml"))


# Folders a walk never enters: tools' own (a virtual environment holds YAML files of its packages).
_NOT_WALKED = {"node_modules", "site-packages", "__pycache__"}


def yaml_files_under(folder: Path) -> list[Path]:
    """The .yaml and .yml files below `folder`, sorted, outside hidden folders (`.git`, `.venv`) and
    package folders: what `meeple validate` and `meeple test` take from a folder."""
    out = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _NOT_WALKED)
        out += [Path(root) / f for f in files if f.endswith((".yaml", ".yml"))]
    return sorted(out)


def find_ruleset(name_or_path: str, relative_to: Path | None = None) -> Path:
    """A path as given (or relative to another file), else a bundled ruleset or variant by name."""
    p = Path(name_or_path)
    candidates = []
    if relative_to is not None and not p.is_absolute():
        candidates.append(relative_to.parent / p)
    candidates.append(p)
    given = list(candidates)  # the path as named: a folder or a FIFO there is said to be one
    rd = rulesets_dir()
    candidates += [rd / f"{name_or_path}.yaml", rd / "variants" / f"{name_or_path}.yaml",
                   rd / "reference" / f"{name_or_path}.yaml", rd / name_or_path]
    for c in candidates:
        if c.is_file():
            return c
    odd = next((c for c in given if c.exists()), None)
    if odd is not None:  # a folder, a FIFO or a device: reading it would fail or wait forever
        raise UsageError(path_problem(odd, "file"))
    # A misspelt bundled name gets the closest one (found by QA: `--extends merchnts` listed them all).
    names = bundled() + [f.stem for sub in ("variants", "reference") for f in sorted((rd / sub).glob("*.yaml"))]
    close = difflib.get_close_matches(name_or_path, names, n=1)
    raise UsageError(Problem("IO02", f"no ruleset file or bundled ruleset named `{name_or_path}`", None,
                             hint=(f"did you mean `{close[0]}`? " if close else "") + "bundled: " + ", ".join(bundled())))


def is_bundled_name(name: str) -> bool:
    """Whether `find_ruleset` reads `name` as the name of a bundled ruleset, variant or reference game."""
    rd = rulesets_dir()
    return Path(name).name == name and any((rd / sub / f"{name}.yaml").is_file() for sub in ("", "variants", "reference"))


def path_problem(p: Path, what: str = "file") -> Problem:
    """Why a path named as a file cannot be read: it does not exist, or it is no regular file."""
    if not p.exists():
        return Problem("IO01", f"no such {what}: {p}")
    kind = "a folder" if p.is_dir() else "not a regular file (a pipe, device or socket)"
    return Problem("IO01", f"{p} is {kind}", hint="name a .yaml or .yml file")


def find_library(name: str, relative_to: Path) -> Path:
    p = Path(name)
    for c in (relative_to.parent / p, rulesets_dir() / "lib" / f"{name}.yaml", p):
        if c.is_file():
            return c
    raise FileNotFoundError(name)


ALLOW_ENV = "MEEPLE_ALLOW_PATHS"  # more folders that `extends:` and `import:` may read, os.pathsep-separated
SUFFIXES = (".yaml", ".yml")


class OutsideError(Exception):
    """A reference that names a file it may not read (outside the allowed folders, or not YAML). Its
    message is the reason only (`it is an absolute path; ...`): the caller names the file before it."""


def allowed_roots(asked: Path, allow: tuple[Path, ...] = ()) -> tuple[Path, ...]:
    """The folders whose files `extends:` and `import:` may read when loading `asked`: the bundled
    rulesets, the folder of the file asked for (and everything below it), and any folder allowed
    explicitly (by the caller, or in the environment variable MEEPLE_ALLOW_PATHS)."""
    extra = [Path(x) for x in os.environ.get(ALLOW_ENV, "").split(os.pathsep) if x]
    roots = [rulesets_dir(), asked.parent, *allow, *extra]
    return tuple(r.resolve() for r in roots)


def find_reference(name: str, relative_to: Path, roots: tuple[Path, ...], library: bool = False) -> Path:
    """The file an `extends:` (or, with `library`, an `import:`) names: a bundled ruleset, variant,
    reference game or library by name (as `find_ruleset` finds them), or a YAML path relative to the
    file naming it, inside one of `roots`.

    Raises FileNotFoundError when there is no such file, OutsideError when it may not be read."""
    rd = rulesets_dir()
    bundled_names = [rd / "lib" / f"{name}.yaml"] if library else \
        [rd / f"{name}.yaml", rd / "variants" / f"{name}.yaml", rd / "reference" / f"{name}.yaml", rd / name]
    p = Path(name)
    candidates = [] if p.is_absolute() else [relative_to.parent / p]
    for c in candidates + bundled_names:
        if not c.is_file():
            continue
        if c.suffix not in SUFFIXES:
            raise OutsideError("it is not a YAML file (.yaml or .yml)")
        real = c.resolve()
        if not any(real.is_relative_to(r) for r in roots):
            raise OutsideError("it is outside this ruleset's folder")
        return c
    if p.is_absolute() and p.is_file():
        raise OutsideError("it is an absolute path; name a file relative to this one")
    raise FileNotFoundError(name)


OUTSIDE_HINT = (f"name a bundled ruleset, or a file in this ruleset's folder; to read other folders, list "
                f"them in the environment variable {ALLOW_ENV}")


def read_reference(read: Callable[[Path], Document], path: Path, by: Document, at: tuple, name: str,
                    code: str) -> Document:
    """Read a file that another names. A file that is no ruleset at all is reported where it is named,
    without quoting it: `extends: /etc/passwd`-like mistakes must not print other files."""
    try:
        raw = load_yaml_file(path)
    except MeepleError:
        raise RulesetError(Problem(code, f"`{name}` is not a Meeple ruleset file", by.span(at))) from None
    if not isinstance(raw.data, dict) or "meeple" not in raw.data:
        raise RulesetError(Problem(code, f"`{name}` is not a Meeple ruleset file (it has no `meeple:` key)",
                                   by.span(at)))
    return read(path)


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
    if known_valid(doc):
        return doc
    problems = validate_document(doc)
    if any(p.severity == "error" for p in problems):
        if more is not None:
            problems = problems + more(doc)
        raise RulesetError(sorted(problems, key=problem_position))
    if not problems:
        remember_valid(doc)
    return doc


def problem_position(p: Problem) -> tuple:
    """Sort key for problems: by file and position, those without a place last."""
    s = p.span
    return (0, s.file, s.line, s.col) if s is not None else (1, "", 0, 0)
