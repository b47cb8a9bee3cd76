"""Validation is safe on hostile files: `extends:` and `import:` read only bundled files and the ruleset's own
folder tree, and never quote a file that is not a ruleset; no input makes `meeple` print a traceback.

(The broken corpus in tests/broken/ holds the single-file cases: lone surrogates, numbers too large, counts
too large, `players.min` over `max`, a file that imports itself.)
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from meeple.cli.main import meeple
from meeple.errors import MeepleError, RulesetError
from meeple.loading.files import ALLOW_ENV
from meeple.runtime.rules import load_ruleset

GAME = """\
meeple: 1
name: Tiny
players: {min: 2, max: 2}
counters:
  player:
    coins: 0
flow: |
  for p in players:
      gain(p.coins, 1)
scoring:
  score: p.coins
"""
SECRET = "TOKEN=hunter2-do-not-print"


def variant_of(target: str) -> str:
    return f"meeple: 1\nextends: {target}\nconstants: {{x: 1}}\n"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """home/secret.yaml and home/notes (not rulesets), home/games/base.yaml, home/games/house/variant.yaml"""
    (tmp_path / "secret.yaml").write_text(f"meeple: 1\n{SECRET}\n")
    (tmp_path / "notes").write_text(f"{SECRET}\n")
    games = tmp_path / "games"
    (games / "house").mkdir(parents=True)
    (games / "base.yaml").write_text(GAME)
    (games / "plain.yaml").write_text(f"just: a yaml file\nkey: {SECRET}\n")
    return tmp_path


def refused(path: Path, **kw) -> RulesetError:
    with pytest.raises(RulesetError) as e:
        load_ruleset(path, **kw)
    assert all(p.span is not None and Path(p.span.file).resolve() == path.resolve() for p in e.value.problems)
    return e.value


@pytest.mark.parametrize("target", ["../secret.yaml", "../notes", "/proc/self/environ", "../../../../../etc/passwd",
                                    "plain.yaml"])
def test_extends_never_reads_or_quotes_what_it_may_not(tree, target):
    variant = tree / "games" / "variant.yaml"
    variant.write_text(variant_of(target))
    err = refused(variant)
    assert SECRET not in str(err) and "root:" not in str(err)
    out = CliRunner().invoke(meeple, ["validate", str(variant)])
    assert out.exit_code == 1 and SECRET not in out.output and "Traceback" not in out.output


@pytest.mark.parametrize("target", ["../secret.yaml", "../notes", "/proc/self/environ", "plain.yaml"])
def test_import_never_reads_or_quotes_what_it_may_not(tree, target):
    game = tree / "games" / "game.yaml"
    game.write_text(GAME.replace("meeple: 1\n", f"meeple: 1\nimport: [{target}]\n"))
    assert SECRET not in str(refused(game))


def test_files_below_the_rulesets_folder_are_read(tree):
    house = tree / "games" / "house.yaml"
    house.write_text(variant_of("base.yaml"))
    assert load_ruleset(house).constants["x"] == 1


def test_a_variant_in_a_subfolder_reaches_its_base_only_when_allowed(tree, monkeypatch):
    variant = tree / "games" / "house" / "variant.yaml"
    variant.write_text(variant_of("../base.yaml"))
    err = refused(variant)
    assert "outside" in str(err) and ALLOW_ENV in err.problems[0].hint
    assert load_ruleset(variant, allow=[tree / "games"]).constants["x"] == 1
    monkeypatch.setenv(ALLOW_ENV, str(tree / "games"))
    assert load_ruleset(variant).constants["x"] == 1


@pytest.mark.parametrize("base", ["speicherstadt", "cheap_port", "tic_tac_toe"])
def test_bundled_names_always_resolve(tree, base):
    # a bundled ruleset, variant and reference game: every name `meeple play` takes (found by QA: a
    # reference game's name was "no ruleset to extend")
    variant = tree / "games" / "variant.yaml"
    variant.write_text(variant_of(base))
    assert load_ruleset(variant).constants["x"] == 1


HOSTILE_SCRIPTS = {
    "lone surrogate in a key": b'meeple: 1\nname: T\n"k\\ud800": 1\n',
    "lone surrogate in the name": b'meeple: 1\nname: "T\\ud800"\nplayers: {min: 2, max: 2}\nflow: pass\n'
                                  b'scoring: {score: "1"}\n',
    "5,000-digit number": b"meeple: 1\nname: T\nplayers: {min: 2, max: 2}\nflow: |\n  x = " + b"9" * 5000
                          + b"\nscoring: {score: \"1\"}\n",
    "5,000-digit YAML number": b"meeple: 1\nname: T\nplayers: {min: 2, max: " + b"9" * 5000
                               + b"}\nflow: pass\nscoring: {score: \"1\"}\n",
    "huge count": b"meeple: 1\nname: T\nplayers: {min: 2, max: 2}\ncomponents:\n  c:\n    items:\n"
                  b"      - {id: a, count: 9223372036854775808}\nflow: pass\nscoring: {score: \"1\"}\n",
    "thousands of phases": b"meeple: 1\nname: T\nplayers: {min: 2, max: 2}\nphases:\n"
                           + b"".join(b"  p%d: pass\n" % i for i in range(2100)) + b"flow: pass\n"
                           b"scoring: {score: \"1\"}\n",
}


@pytest.mark.parametrize("text", HOSTILE_SCRIPTS.values(), ids=HOSTILE_SCRIPTS.keys())
def test_hostile_files_are_invalid_without_a_traceback(tmp_path, text):
    path = tmp_path / "hostile.yaml"
    path.write_bytes(text)
    with pytest.raises(MeepleError):
        load_ruleset(path)
    for args in (["validate", "--format", "json", str(path)], ["simulate", str(path), "--games", "1"]):
        out = CliRunner().invoke(meeple, args)
        assert out.exit_code == 1, out.output
        assert out.exception is None or isinstance(out.exception, SystemExit), out.exception
