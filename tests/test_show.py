"""`meeple show` lists a ruleset's vocabulary and one name's data and scripts; `meeple new variant`
writes a variant file that loads and whose schema comment points at a real schema."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from meeple.cli.main import meeple
from meeple.runtime.rules import load_ruleset

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str):
    return CliRunner().invoke(meeple, list(args))


def test_show_lists_ids_attributes_counters_zones_and_procedures():
    r = run("show", "speicherstadt", "--format", "json")
    assert r.exit_code == 0, r.output
    v = json.loads(r.output)
    (card,) = [k for k in v["components"] if k["kind"] == "card"]
    attrs = {a["name"]: a["declared_by"] for a in card["attributes"]}
    assert attrs["value"] == "defaults" and attrs["season"] == "every item"
    assert "bank" in [i["id"] for i in card["items"]] and card["copies"] == sum(i["count"] for i in card["items"])
    assert {d["name"] for d in v["counters"]["player"]} == set(load_ruleset("speicherstadt").player_counters)
    assert v["procedures"] and all("params" in p for p in v["procedures"])
    text = run("show", "speicherstadt").output
    assert "components `card`" in text and "    bank: Bank  [on income]" in text


def test_show_one_item_gives_its_data_and_effects():
    r = run("show", "speicherstadt", "bank")
    assert r.exit_code == 0 and "kind: card" in r.output and "on income:" in r.output
    assert "gain(owner.coins, 1)" in r.output and 'season: "C"' in r.output


def test_show_an_unknown_name_is_a_usage_error_with_a_guess():
    r = run("show", "speicherstadt", "bnak")
    assert r.exit_code == 2 and "did you mean `bank`?" in r.output


def test_new_variant_loads_and_its_schema_comment_points_at_the_schema(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rules").mkdir()
    r = run("new", "variant", "rules/house", "--extends", "merchants")
    assert r.exit_code == 0, r.output
    path = tmp_path / "rules" / "house.yaml"
    text = path.read_text()
    schema = re.match(r"# yaml-language-server: \$schema=(\S+)\n", text).group(1)
    assert json.loads((path.parent / schema).read_text())["title"]
    rs = load_ruleset(path)
    assert rs.name == "Merchants + house" and not rs.warnings
    assert run("new", "variant", "rules/house", "--extends", "merchants").exit_code == 2  # no overwrite


def test_new_variant_of_a_reference_game_extends_it_by_name(tmp_path, monkeypatch):
    # Found by QA: it told the user to write the variant into the installed reference folder.
    monkeypatch.chdir(tmp_path)
    r = run("new", "variant", "my_ttt", "--extends", "tic_tac_toe")
    assert r.exit_code == 0, r.output
    assert "\nextends: tic_tac_toe\n" in (tmp_path / "my_ttt.yaml").read_text()
    assert load_ruleset(tmp_path / "my_ttt.yaml").name == "Tic-tac-toe + my_ttt"


def test_new_variant_of_a_file_names_it_from_the_same_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    base = tmp_path / "game.yaml"
    base.write_text((ROOT / "tests" / "rulesets" / "showdown.yaml").read_text())
    assert run("new", "variant", "x", "--extends", str(base)).exit_code == 0
    assert "extends: game.yaml" in (tmp_path / "x.yaml").read_text()
    assert load_ruleset(tmp_path / "x.yaml").name == "Showdown + x"
    (tmp_path / "v").mkdir()  # loading refuses a base outside the variant's folder: so does `new`
    assert run("new", "variant", "v/y", "--extends", str(base)).exit_code == 2
    # found by QA: --force wrote a variant of the base over the base itself
    r = run("new", "variant", "game", "--extends", "game.yaml", "--force")
    assert r.exit_code == 2 and "is a file of the ruleset the variant extends" in r.output
    assert load_ruleset(base).name == "Showdown"
    # found in review: nor over a file the base itself extends (it then extended itself in a circle)
    r = run("new", "variant", "game", "--extends", "x.yaml", "--force")
    assert r.exit_code == 2 and "is a file of the ruleset the variant extends" in r.output
    assert load_ruleset(tmp_path / "x.yaml").name == "Showdown + x"


def test_none_reads_as_the_language_writes_it_whichever_way_the_yaml_says_it():
    # YAML's `none` (a string to YAML) and `null` are both the language's none: shown alike, as `none`
    speicher, camel = run("show", "speicherstadt").output, run("show", "camel_up_off_season").output
    assert "  start (initial none)" in speicher and "  start (initial none)" in camel
    assert "    .good (default none)" in speicher and "    .good (default none)" in camel
    assert not [line for line in speicher.splitlines() + camel.splitlines() if '"none")' in line or "null)" in line]


@pytest.mark.parametrize("name", ["", "   ", ".yaml", "sub/"])
def test_a_variant_needs_a_name(tmp_path, monkeypatch, name):
    """Found by QA: `meeple new variant ""` wrote a hidden `.yaml` and `"   "` a file `   .yaml`."""
    monkeypatch.chdir(tmp_path)
    r = run("new", "variant", name, "--extends", "merchants")
    assert r.exit_code == 2 and "is no name for a variant" in r.output and list(tmp_path.iterdir()) == []
