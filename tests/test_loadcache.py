"""Loading twice is fast, and the second load is the first one: parsed scripts and schema passes are kept
in the cache folder (language/scriptcache.py, loading/schema.py), and the command line imports only
what a command needs.

A cached script must be the AST the parser builds, spans included, since every later error points at
a YAML line and column through them. A damaged entry is only a miss, an unwritable folder is skipped,
and a broken ruleset reports the same located problems with a warm cache as with a cold one.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from meeple.checker.load import load_ruleset
from meeple.errors import MeepleError, Span
from meeple.language import parser
from meeple.language import scriptcache as SC
from meeple.language.model import Ruleset
from meeple.loading.cache import prune

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = [*sorted((ROOT / "rulesets").glob("*.yaml")), *sorted((ROOT / "rulesets" / "variants").glob("*.yaml")),
           *sorted((ROOT / "rulesets" / "reference").glob("*.yaml"))]
BROKEN = sorted((ROOT / "tests" / "broken").glob("*.yaml"))
AST_MODULE = "meeple.language.ast"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(folder))
    return folder


def same(a: Any, b: Any, where: str = "") -> None:
    """a and b are the same tree: same classes, same fields, same spans, all the way down."""
    assert type(a) is type(b), f"{where}: {type(a).__name__} != {type(b).__name__}"
    if dataclasses.is_dataclass(a) and type(a).__module__ == AST_MODULE:
        for f in dataclasses.fields(a):
            same(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b), f"{where}: {len(a)} != {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{i}]")
    elif isinstance(a, dict):
        assert list(a) == list(b), f"{where}: keys differ"
        for k in a:
            same(a[k], b[k], f"{where}[{k!r}]")
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


def same_ruleset(fresh: Ruleset, cached: Ruleset) -> None:
    assert [w for w, _ in fresh.scripts()] == [w for w, _ in cached.scripts()]
    for (what, x), (_, y) in zip(fresh.scripts(), cached.scripts()):
        same(x, y, what)
    for c, d in zip(fresh.components, cached.components, strict=True):  # handlers shared by a kind's items
        same(c.on, d.on, f"{c.item}.on")
        same(c.options, d.options, f"{c.item}.options")
    same(fresh.phase_steps, cached.phase_steps, "phase_steps")
    same(fresh.nodes, cached.nodes, "nodes")  # the checker's numbering of nodes, and what may suspend
    assert sorted(fresh.node_ids[i] for i in fresh.suspends) == sorted(cached.node_ids[i] for i in cached.suspends)
    assert fresh.warnings == cached.warnings


def no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: Any) -> None:
        raise AssertionError("a script was parsed: the cache missed")
    monkeypatch.setattr(parser, "_parse", refuse)


def entries(cache: Path) -> list[Path]:
    return sorted((cache / "scripts").glob("*.ast"))


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_cached_load_is_the_parsed_load_spans_included(path: Path, cache: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = load_ruleset(path)  # cold: parses every script, and writes the entry
    assert len(entries(cache)) == 1
    no_parsing(monkeypatch)
    same_ruleset(fresh, load_ruleset(path))


def test_the_comparison_sees_a_moved_span(cache: Path) -> None:
    a = load_ruleset(BUNDLED[0])
    b = load_ruleset(BUNDLED[0])
    node = b.flow or b.setup
    assert node is not None
    object.__setattr__(node, "span", dataclasses.replace(node.span, col=node.span.col + 1))
    with pytest.raises(AssertionError):
        same_ruleset(a, b)


def test_an_edited_file_is_parsed_again(cache: Path, tmp_path: Path) -> None:
    f = tmp_path / "game.yaml"
    text = (ROOT / "rulesets" / "merchants.yaml").read_text(encoding="utf-8")
    f.write_text(text, encoding="utf-8")
    load_ruleset(f)
    f.write_text("# a comment moves every line down\n" + text, encoding="utf-8")
    moved = load_ruleset(f)
    assert len(entries(cache)) == 2
    assert moved.flow is not None and moved.flow.span.line == load_ruleset(ROOT / "rulesets" / "merchants.yaml").flow.span.line + 1


@pytest.mark.parametrize("damage", [b"", b"garbage", "flip", "checksum"])
def test_a_damaged_entry_is_ignored_and_written_again(damage: Any, cache: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    path = ROOT / "rulesets" / "speicherstadt.yaml"
    fresh = load_ruleset(path)
    [entry] = entries(cache)
    good = entry.read_bytes()
    if damage == "flip":  # one byte of the payload changed: the checksum no longer matches
        bad = good[:-100] + bytes([good[-100] ^ 0xFF]) + good[-99:]
    elif damage == "checksum":  # a payload that is not a pickle of the AST, with a matching checksum
        import hashlib
        import pickle

        payload = pickle.dumps({("script", "Source", str(path), ("flow",)): ("x", os.system)})
        bad = SC.MAGIC + hashlib.sha256(payload).digest() + payload
    else:
        bad = damage
    entry.write_bytes(bad)
    same_ruleset(fresh, load_ruleset(path))
    assert entry.read_bytes() != bad  # rebuilt
    no_parsing(monkeypatch)
    same_ruleset(fresh, load_ruleset(path))


def test_the_reader_refuses_anything_but_the_ast(tmp_path: Path) -> None:
    import hashlib
    import pickle

    for value in ({"k": ("t", os.system)}, {"k": ("t", Span("f", 1, 1))}):
        payload = pickle.dumps(value)
        f = tmp_path / "x.ast"
        f.write_bytes(SC.MAGIC + hashlib.sha256(payload).digest() + payload)
        assert SC._read(f) == ({} if value["k"][1] is os.system else value)


def test_an_unwritable_cache_folder_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(blocker / "cache"))  # cannot be created (root or not)
    path = ROOT / "rulesets" / "camel_up_off_season.yaml"
    first, second = load_ruleset(path), load_ruleset(path)
    same_ruleset(first, second)
    assert blocker.read_text(encoding="utf-8") == "not a folder" and not list(tmp_path.glob("**/*.tmp"))


def test_a_script_that_does_not_parse_is_not_kept_and_the_others_are(cache: Path, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "rulesets" / "merchants.yaml").read_text(encoding="utf-8")
    f = tmp_path / "game.yaml"
    f.write_text(text.replace("flow: |\n", "flow: |\n  if :\n", 1), encoding="utf-8")
    calls: list[str] = []
    real = parser._parse
    monkeypatch.setattr(parser, "_parse", lambda text, start, origin: calls.append(start) or real(text, start, origin))
    counts = []
    for _ in range(2):
        calls.clear()
        with pytest.raises(MeepleError) as e:
            load_ruleset(f)
        assert "P001" in [p.code for p in e.value.problems]
        counts.append(len(calls))
    assert counts[0] > 10 and counts[1] == 1  # the second load parses the broken script only


def test_broken_rulesets_report_the_same_problems_from_a_warm_cache(cache: Path) -> None:
    def problems(path: Path) -> list:
        try:
            rs = load_ruleset(path)
        except MeepleError as e:
            return list(e.problems)
        return rs.warnings

    cold = {p.name: problems(p) for p in BROKEN}
    assert entries(cache) and list((cache / "schema").glob("*.ok"))  # the warm runs below do use a cache
    warm = {p.name: problems(p) for p in BROKEN}
    assert warm == cold
    assert all(cold.values())


def test_a_file_that_passed_the_schema_and_was_then_broken_is_checked_again(cache: Path, tmp_path: Path) -> None:
    f = tmp_path / "game.yaml"
    text = (ROOT / "rulesets" / "merchants.yaml").read_text(encoding="utf-8")
    f.write_text(text, encoding="utf-8")
    load_ruleset(f)
    assert len(list((cache / "schema").glob("*.ok"))) == 1
    f.write_text(text.replace("players:", "player:", 1), encoding="utf-8")  # same file, now a schema error
    with pytest.raises(MeepleError) as e:
        load_ruleset(f)
    assert any(p.code.startswith("S") for p in e.value.problems)
    assert len(list((cache / "schema").glob("*.ok"))) == 1  # failures are not remembered


def test_pruning_keeps_the_most_recently_used(tmp_path: Path) -> None:
    for i in range(6):
        (tmp_path / f"{i}.ast").write_bytes(b"")
        os.utime(tmp_path / f"{i}.ast", (1000 + i, 1000 + i))
    (tmp_path / "other.ok").write_bytes(b"")
    os.utime(tmp_path / "1.ast", (2000, 2000))  # used lately
    prune(tmp_path, ".ast", 3)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["1.ast", "4.ast", "5.ast", "other.ok"]


def run_python(code: str, cache: Path) -> str:
    env = {**os.environ, "MEEPLE_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT,
                          env=env).stdout.strip()


def test_validate_with_a_warm_cache_imports_neither_lark_nor_jsonschema_nor_the_runtime(cache: Path) -> None:
    code = ("import sys\nfrom meeple.cli.main import meeple\n"
            "try:\n    meeple(['validate', 'speicherstadt'], prog_name='meeple')\nexcept SystemExit:\n    pass\n"
            "print(sorted({m.split('.')[0] if not m.startswith('meeple') else '.'.join(m.split('.')[:2])"
            " for m in sys.modules} & {'lark', 'jsonschema', 'meeple.runtime', 'meeple.tools'}))")
    cold = run_python(code, cache)
    # tools.report prints problems; a file that passes the schema needs no jsonschema (schemacheck.py)
    assert cold.splitlines()[-1] == "['lark', 'meeple.tools']"
    warm = run_python(code, cache)
    assert warm.splitlines() == ["speicherstadt: ok", "['meeple.tools']"]


def test_validate_checks_the_bot_a_ruleset_names_without_importing_any_bot(cache: Path) -> None:
    # the checker parses `agents.play` (language/agentspec.py): the bots and their search stay unimported
    code = ("import sys\nfrom meeple.cli.main import meeple\nfrom meeple.checker.load import load_ruleset\n"
            "print(load_ruleset('demoludy').play is not None)\n"
            "try:\n    meeple(['validate', 'demoludy'], prog_name='meeple')\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith(('meeple.tools.', 'meeple.runtime.'))"
            " and m != 'meeple.tools.report'))")
    assert run_python(code, cache).splitlines() == ["True", "demoludy: ok", "[]"]


def test_the_public_api_imports_the_runtime_on_first_use(cache: Path) -> None:
    code = ("import sys, meeple\nbefore = 'meeple.runtime.game' in sys.modules\nfrom meeple import *\n"
            "print(before, all(hasattr(meeple, n) for n in meeple.__all__), set(meeple.__all__) <= set(dir(meeple)),"
            " meeple.Game.__module__)")
    assert run_python(code, cache) == "False True True meeple.runtime.game"
    import meeple

    # dir() offers the public API, not the module's own helpers (it used to list `importlib`, `Any`, ...)
    assert dir(meeple) == sorted([*meeple.__all__, "__version__"])

    with pytest.raises(AttributeError):
        meeple.no_such_name  # noqa: B018


def test_every_command_loads_under_its_own_name() -> None:
    import click
    from meeple.cli.main import LAZY_COMMANDS, meeple

    ctx = click.Context(meeple)
    assert set(LAZY_COMMANDS) <= set(meeple.list_commands(ctx))
    for name in meeple.list_commands(ctx):
        cmd = meeple.get_command(ctx, name)
        assert cmd is not None and cmd.name == name
    assert meeple.get_command(ctx, "no-such-command") is None
