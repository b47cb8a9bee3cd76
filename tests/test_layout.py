"""The package's folders show the pipeline, and imports run one way.

Stages, in the order a ruleset flows: errors (shared by all) -> loading -> language -> checker ->
runtime -> tools -> web (the browser front end) -> the command line -> the adapters for other
libraries (`meeple.pettingzoo`, `meeple.openspiel`); the package's `__init__` (the public API) sits on
top, and never imports the adapters, whose libraries are optional extras. A module
may import modules of its own stage or of earlier ones, never of a later one, and no two modules may
import each other, even lazily (inside a function) or only for type checking.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STAGES = ["errors", "loading", "language", "checker", "runtime", "tools", "web", "cli", "adapters", "__init__"]
ADAPTERS = {"pettingzoo", "openspiel"}  # top-level modules meeple.X, each needing an optional extra


def module_files() -> dict[str, Path]:
    out = {}
    for folder, package in ((ROOT / "interpreter", "meeple"), (ROOT / "cli", "meeple.cli")):
        for f in folder.rglob("*.py"):
            rel = f.relative_to(folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            out[".".join([package, *parts])] = f
    return out


def imports_of(path: Path, modules: dict[str, Path]) -> set[str]:
    """Every meeple module a file imports, anywhere in it (lazy and TYPE_CHECKING imports included)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            assert node.level == 0, f"{path}: use absolute imports (`from meeple.x import y`)"
            # `from meeple.x import y` imports the module meeple.x.y if there is one, else names of meeple.x
            names = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules else node.module
                     for a in node.names]
        else:
            continue
        found.update(n for n in names if n in modules)
    return found


def stage(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 1:
        return STAGES.index("__init__")
    if parts[1] == "__main__":
        return STAGES.index("__init__")
    if parts[1] in ADAPTERS and len(parts) == 2:
        return STAGES.index("adapters")
    return STAGES.index(parts[1])


def graph() -> dict[str, set[str]]:
    modules = module_files()
    return {m: imports_of(f, modules) - {m} for m, f in modules.items()}


def test_every_module_belongs_to_a_stage():
    for m in module_files():
        stage(m)  # raises ValueError for a folder that is not a stage


def test_the_readme_map_names_every_module_of_the_engine():
    """README's "How it is built" is a newcomer's map of the engine: each module of a stage is named in
    its table (as `name`), so that none is found only by reading the folders."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("| stage |")
    named = set(re.findall(r"`([A-Za-z_]+)(?:\.py)?`", text[start:text.index("\n\n", start)]))
    stages = ("loading", "language", "checker", "runtime", "tools", "web")
    missing = sorted(m for m, f in module_files().items()
                     if m.startswith(tuple(f"meeple.{s}." for s in stages)) and f.stem not in (*named, "__init__"))
    assert not missing, f"README's map of the engine does not name: {missing}"


def test_no_module_imports_a_later_stage():
    bad = [f"{m} imports {d}" for m, deps in graph().items() for d in deps if stage(d) > stage(m)]
    assert not bad, "imports must run from later stages to earlier ones:\n" + "\n".join(sorted(bad))


def cycles_in(g: dict[str, set[str]]) -> list[str]:
    seen: dict[str, int] = {}
    cycles = []

    def visit(m: str, path: list[str]) -> None:
        seen[m] = 1
        for d in sorted(g.get(m, ())):
            if seen.get(d) == 1:
                cycles.append(" -> ".join(path[path.index(d):] + [d]) if d in path else f"{m} -> {d}")
            elif d not in seen:
                visit(d, path + [d])
        seen[m] = 2

    for m in sorted(g):
        if m not in seen:
            visit(m, [m])
    return cycles


def test_no_import_cycles():
    cycles = cycles_in(graph())
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_importing_meeple_needs_no_extra():
    # the public API never imports an adapter, even lazily, and no module imports the public API back
    g = graph()
    assert not {f"meeple.{a}" for a in ADAPTERS} & g["meeple"]
    assert not [m for m, deps in g.items() if "meeple" in deps]
    code = "import sys, meeple; print(sorted(m for m in ('pettingzoo', 'pyspiel', 'gymnasium') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_checks_can_fail(tmp_path):
    # a lazy import back up is seen, and a loop of three modules is found
    f = tmp_path / "m.py"
    f.write_text("def f():\n    from meeple.tools.agents import Agent\n", encoding="utf-8")
    assert imports_of(f, {"meeple.tools.agents": f}) == {"meeple.tools.agents"}
    assert stage("meeple.tools.agents") > stage("meeple.runtime.state")
    assert stage("meeple.tools.pettingzoo_env") < stage("meeple.pettingzoo") < stage("meeple")
    assert cycles_in({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a -> b -> c -> a"]


def test_one_import_name():
    # the distribution installs `meeple` and nothing else at the top of site-packages
    from importlib.metadata import distribution

    assert (distribution("meeple").read_text("top_level.txt") or "").split() == ["meeple"]
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10 has no TOML parser; the installed metadata above says it
        return
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert {p.split(".")[0] for p in setup["packages"]} == {"meeple"}
    assert set(setup["package-dir"]) == {"meeple", "meeple.cli", "meeple.rulesets", "meeple.schema"}


# Where each top-level folder of the repository is installed inside the package (pyproject's package-dir).
INSTALLED_AS = {"interpreter": (), "cli": ("cli",), "rulesets": ("rulesets",), "schema": ("schema",)}


def test_the_installed_package_holds_every_file_of_the_repository_s_folders():
    """A data file the package's globs miss (a new kind of page asset, a ruleset in a new folder) would be
    missing only for those who install Meeple, never in a clone; CI installs it as users do."""
    import meeple

    site = Path(meeple.__file__).resolve().parent
    if site == ROOT / "interpreter":
        pytest.skip("meeple is installed in editable mode: the package is the repository's own folders")
    missing = [
        str(f.relative_to(ROOT))
        for folder, inside in INSTALLED_AS.items()
        for f in (ROOT / folder).rglob("*")
        if f.is_file() and "__pycache__" not in f.parts
        and not site.joinpath(*inside, *f.relative_to(ROOT / folder).parts).is_file()
    ]
    assert not missing, f"in the repository but not installed: {missing}"


def test_public_api():
    import meeple

    game = meeple.load_ruleset("speicherstadt").new_game(players=4, seed=1)
    assert isinstance(game, meeple.Game) and game.legal_actions()
    for name in ("IllegalAction", "RulesetError", "UsageError", "SaveError", "simulate", "compare", "make_agents"):
        assert hasattr(meeple, name), name
