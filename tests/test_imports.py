"""`import:`: libraries that import libraries, loops between them, and how a refused path is worded."""

from pathlib import Path

import pytest
from meeple.errors import RulesetError
from meeple.runtime.rules import load_ruleset

GAME = """\
meeple: 1
name: Tiny
players: {{min: 2, max: 2}}
{imports}counters:
  player: {{points: 0}}
setup: |
  {setup}
flow: |
  pass
scoring:
  score: p.points
"""


def library(name: str, procedures: str, imports: str = "") -> str:
    return f"meeple: 1\nlibrary: {name}\n" + (f"import: [{imports}]\n" if imports else "") + \
        f"procedures:\n{procedures}"


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder / next(iter(files))


def refusal(path: Path):
    with pytest.raises(RulesetError) as e:
        load_ruleset(path)
    (p,) = [p for p in e.value.problems if p.severity == "error"]
    return p


def test_a_library_that_imports_a_library_brings_it_along_to_the_game(tmp_path):
    """Found by QA: a library's own `import:` was ignored when a game imported it (C003 `fd` in lib_c)."""
    game = write(tmp_path, {
        "game.yaml": GAME.format(imports="import: [lib_c.yaml]\n", setup="fc(players[0])"),
        "lib_c.yaml": library("lc", "  fc: {params: [p], do: \"fd(p)\"}\n", imports="lib_d.yaml"),
        "lib_d.yaml": library("ld", "  fd: {params: [p], do: \"p.points += 4\"}\n"),
    })
    rs = load_ruleset(game)
    assert {"fc", "fd"} <= set(rs.procedures)
    assert rs.new_game(players=2, seed=1).to_json()["state"]["counters"]["0.points"] == 4


def test_each_library_is_loaded_once_after_the_libraries_it_imports(tmp_path):
    """A library two others import loads once, first; an importer's own procedure beats its import's."""
    game = write(tmp_path, {
        "game.yaml": GAME.format(imports="import: [a.yaml, b.yaml]\n", setup="shared(players[0])"),
        "a.yaml": library("a", "  fa: \"pass\"\n", imports="c.yaml"),
        "b.yaml": library("b", "  shared: {params: [p], do: \"p.points += 2\"}\n", imports="c.yaml"),
        "c.yaml": library("c", "  shared: {params: [p], do: \"p.points += 1\"}\n"),
    })
    from meeple.loading.variants import resolve_layers
    order = [Path(d.path).name for d, _ in resolve_layers(game).libraries]
    assert order == ["c.yaml", "a.yaml", "b.yaml"]
    assert load_ruleset(game).new_game(players=2, seed=1).to_json()["state"]["counters"]["0.points"] == 2


def test_an_importers_constants_win_over_its_imports_as_its_procedures_do(tmp_path):
    """A library's constant beat the one of the library importing it (the first loaded won), the other
    way round from procedures; and `none` in a library's constant was the text "none", not none."""
    game = write(tmp_path, {
        "game.yaml": GAME.format(imports="import: [b.yaml]\n", setup="players[0].points += bonus\n  "
                                                                 "players[1].points += 7 if nothing == none else 0"),
        "b.yaml": library("b", "  fb: \"pass\"\n", imports="c.yaml") + "constants: {bonus: 2}\n",
        "c.yaml": library("c", "  fc: \"pass\"\n") + "constants: {bonus: 1, nothing: none}\n",
    })
    counters = load_ruleset(game).new_game(players=2, seed=1).to_json()["state"]["counters"]
    assert (counters["0.points"], counters["1.points"]) == (2, 7)


@pytest.mark.parametrize("start", ["lib_a.yaml", "game.yaml"])
def test_libraries_that_import_each_other_are_refused_at_the_import_that_closes_the_loop(tmp_path, start):
    """Found by QA: lib_a -> lib_b -> lib_a validated ok; it is I002, located at lib_b's `import:` entry."""
    write(tmp_path, {
        "game.yaml": GAME.format(imports="import: [lib_a.yaml]\n", setup="pass"),
        "lib_a.yaml": library("la", "  fa: \"fb()\"\n", imports="lib_b.yaml"),
        "lib_b.yaml": library("lb", "  fb: \"fa()\"\n", imports="lib_a.yaml"),
    })
    p = refusal(tmp_path / start)
    assert p.code == "I002" and Path(p.span.file).name == "lib_b.yaml" and (p.span.line, p.span.col) == (3, 10)
    assert "lib_a.yaml -> lib_b.yaml -> lib_a.yaml" in p.message


def test_a_library_that_imports_the_game_importing_it_is_a_loop(tmp_path):
    """The game is the first file of the circle, which is named whole."""
    write(tmp_path, {
        "game.yaml": GAME.format(imports="import: [lib.yaml]\n", setup="pass"),
        "lib.yaml": library("l", "  f: \"pass\"\n", imports="game.yaml"),
    })
    p = refusal(tmp_path / "game.yaml")
    assert p.code == "I002" and Path(p.span.file).name == "lib.yaml"
    assert "game.yaml -> lib.yaml -> game.yaml" in p.message


def test_a_refused_path_is_named_in_one_plain_sentence(tmp_path):
    """Found by QA: "cannot import `/x/stdlib.yaml` is an absolute path" (two sentences run together)."""
    absolute = str((tmp_path / "lib.yaml").resolve())
    write(tmp_path, {
        "game.yaml": GAME.format(imports=f"import: [{absolute}]\n", setup="pass"),
        "lib.yaml": library("l", "  f: \"pass\"\n"),
        "v.yaml": "meeple: 1\nextends: base.txt\n",
        "base.txt": "meeple: 1\n",
    })
    p = refusal(tmp_path / "game.yaml")
    assert (p.code, p.message) == ("I001", (f"cannot import `{absolute}`: it is an absolute path; name a file "
                                            "relative to this one"))
    p = refusal(tmp_path / "v.yaml")
    assert (p.code, p.message) == ("V001", "cannot extend `base.txt`: it is not a YAML file (.yaml or .yml)")
