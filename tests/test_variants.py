"""Variant files: merge semantics (override, add, remove, chains, steps) and located errors."""

from pathlib import Path

import pytest
from meeple.errors import RulesetError
from meeple.loading.files import rulesets_dir
from meeple.loading.variants import resolve_layers
from meeple.runtime.rules import load_ruleset

BASE = """\
meeple: 1
name: Tiny
players: {min: 2, max: 3}
constants: {gain: 1, bonus: 2}
counters:
  game: {round: 0}
  player: {points: 0}
zones:
  game: {pile: {}}
  player: {hand: {}}
events: [bonus_time]
components:
  card:
    items:
      - {id: a, name: A, value: 1, on: {bonus_time: "score(owner.points, self.value)"}}
      - {id: b, name: B, value: 2, count: 2}
      - {id: c, name: C, value: 3, on: {bonus_time: "score(owner.points, bonus)"}}
procedures:
  bump: {params: [p], do: "p.points += gain"}
setup: |
  move(components("card"), pile)
  shuffle(pile)
phases:
  main:
    draw: |
      for p in players:
          choose p "Pick":
              option "Take {c.name}" for c in pile:
                  move(c, p.hand)
              option "Pass":
                  bump(p)
    tally: |
      round += 1
  plain: |
    pass
flow: |
  while round < 2:
      phase main
      phase plain
  for p in players:
      trigger bonus_time on list(p.hand)
scoring:
  score: p.points
"""


@pytest.fixture
def files(tmp_path):
    (tmp_path / "base.yaml").write_text(BASE)

    def write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.write_text(text)
        return path
    return write


def variant(files, body: str, name: str = "v.yaml", extends: str = "base.yaml"):
    return load_ruleset(files(name, f"meeple: 1\nextends: {extends}\n{body}"))


def errors(fn):
    with pytest.raises(RulesetError) as e:
        fn()
    return e.value.problems


def test_overrides_constants_and_counters_deep_merge(files):
    rs = variant(files, "constants: {gain: 5}\ncounters: {player: {points: 3}}\n")
    assert rs.constants == {"gain": 5, "bonus": 2}
    assert rs.player_counters["points"].initial == 3
    assert rs.name == "Tiny + v"


def test_items_by_id_change_add_and_remove(files):
    rs = variant(files, """\
components:
  card:
    items:
      b: {count: 3}
      a: {on: {bonus_time: "score(owner.points, 10)"}}
      d: {new: true, name: D, value: 4}
remove:
  items: [c]
""")
    assert list(rs.items) == ["a", "b", "d"]
    assert len(rs.items["b"]) == 3 and rs.components[rs.items["b"][0]].attrs["value"] == 2
    d = rs.components[rs.items["d"][0]]
    assert (d.name, d.attrs["value"]) == ("D", 4)
    a = rs.components[rs.items["a"][0]]
    assert a.on["bonus_time"].span.file.endswith("v.yaml") and a.on["bonus_time"].span.line == 7


def test_a_new_kind_gets_item_ids_from_its_keys(files):
    rs = variant(files, "components:\n  coin:\n    items:\n      gold: {name: Gold, count: 2}\n")
    assert [(c.kind, c.item, c.name) for c in rs.components[-2:]] == [("coin", "gold", "Gold")] * 2
    assert rs.kinds["coin"].span.file.endswith("v.yaml")


def test_handlers_merge_by_event_and_events_add_up(files):
    rs = variant(files, """\
events: [tidy]
components:
  card:
    items:
      a: {on: {tidy: "pass"}}
""")
    a = rs.components[rs.items["a"][0]]
    assert set(a.on) == {"bonus_time", "tidy"}
    assert a.on["bonus_time"].span.file.endswith("base.yaml")
    assert list(rs.events) == ["bonus_time", "tidy"]


def test_spans_follow_items_after_a_removal(files):
    # Removing `a` shifts the list: `c`'s handler must still be located at its own line of the base.
    rs = variant(files, "remove: {items: [a]}\n")
    c = rs.components[rs.items["c"][0]]
    assert c.on["bonus_time"].span.file.endswith("base.yaml") and c.on["bonus_time"].span.line == 17


def test_remove_then_give_again_replaces_whole(files):
    rs = variant(files, "remove: {items: [a]}\ncomponents: {card: {items: {a: {name: New A, value: 7}}}}\n")
    a = rs.components[rs.items["a"][0]]
    assert a.name == "New A" and a.attrs == {"value": 7} and not a.on
    assert list(rs.items) == ["b", "c", "a"]


def test_remove_by_section(files):
    rs = variant(files, """\
constants: {bonus: 2}
remove:
  phases: [plain]
  procedures: [bump]
  constants: [gain]
procedures:
  bump: {params: [p], do: "p.points += 2"}
flow: |
  while round < 2:
      phase main
""")
    assert "plain" not in rs.phases and "gain" not in rs.constants
    assert rs.procedures["bump"].span.file.endswith("v.yaml")


def test_step_override_and_new_step(files):
    rs = variant(files, "phases:\n  main:\n    tally: |\n      round += 2\n    extra: pass\n")
    assert list(rs.phase_steps["main"]) == ["draw", "tally", "extra"]
    assert rs.phase_steps["main"]["tally"].span.file.endswith("v.yaml")
    assert rs.phase_steps["main"]["draw"].span.file.endswith("base.yaml")
    g = rs.new_game(2, 1)
    while not g.is_over:
        g.apply_index(0)
    assert g.state.counters["round"] == 2  # one round of +2


def test_remove_one_step(files):
    rs = variant(files, "remove: {phases: [main.tally]}\nflow: |\n  phase main\n")
    assert list(rs.phase_steps["main"]) == ["draw"]


def test_procedure_is_replaced_whole(files):
    rs = variant(files, 'procedures:\n  bump: "pass"\nphases: {main: {draw: "pass"}}\n')
    assert rs.procedures["bump"].params == ()


def test_chained_variants(files):
    files("v1.yaml", "meeple: 1\nextends: base.yaml\nconstants: {gain: 5}\n")
    rs = variant(files, "constants: {bonus: 9}\nremove: {items: [a]}\n", "v2.yaml", "v1.yaml")
    assert rs.constants == {"gain": 5, "bonus": 9} and "a" not in rs.items
    assert rs.name == "Tiny + v1 + v2"
    layers = resolve_layers(Path(rs.path))
    assert [Path(d.path).name for d in layers.docs] == ["base.yaml", "v1.yaml", "v2.yaml"]
    assert Path(layers.where(("constants", "gain")).path).name == "v1.yaml"
    assert Path(layers.where(("constants", "bonus")).path).name == "v2.yaml"
    assert Path(layers.where(("flow",)).path).name == "base.yaml"


def test_event_spans_survive_removals_along_a_chain(files):
    files("v1.yaml", "meeple: 1\nextends: base.yaml\nevents: [tidy, spare]\n")
    rs = variant(files, "remove: {events: [tidy]}\nevents: [late]\n", "v2.yaml", "v1.yaml")
    assert list(rs.events) == ["bonus_time", "spare", "late"]
    assert [(Path(s.file).name, s.line, s.col) for s in rs.events.values()] == [
        ("base.yaml", 11, 10), ("v1.yaml", 3, 16), ("v2.yaml", 4, 10)]


def test_variant_chain_cycle_is_an_error(files):
    files("x.yaml", "meeple: 1\nextends: y.yaml\n")
    files("y.yaml", "meeple: 1\nextends: x.yaml\n")
    (p,) = errors(lambda: load_ruleset(files("z.yaml", "meeple: 1\nextends: x.yaml\n")))
    assert p.code == "V003" and "x.yaml -> y.yaml -> x.yaml" in p.message
    assert p.span.file.endswith("y.yaml") and (p.span.line, p.span.col) == (2, 10)


def test_unknown_names_are_located_errors(files):
    (p,) = errors(lambda: variant(files, "remove:\n  items: [a, zz]\n"))
    assert (p.code, p.span.line, p.span.col) == ("V007", 4, 14) and p.span.file.endswith("v.yaml")
    (p,) = errors(lambda: variant(files, "remove:\n  items: [bb]\n"))
    assert p.hint == "did you mean `b`?"
    (p,) = errors(lambda: variant(files, "extends_typo: 1\n"))
    assert p.code == "S003"
    (p,) = errors(lambda: variant(files, "", extends="nowhere.yaml"))
    assert (p.code, p.span.line) == ("V001", 2)


def test_step_override_of_a_plain_phase_is_an_error(files):
    (p,) = errors(lambda: variant(files, "phases:\n  plain:\n    one: pass\n"))
    assert (p.code, p.span.line, p.span.col) == ("V004", 4, 3) and p.span.file.endswith("v.yaml")


def test_items_must_be_keyed_by_id_in_a_variant(files):
    (p,) = errors(lambda: variant(files, "components:\n  card:\n    items:\n      - {id: e}\n"))
    assert p.code == "S001" and "mapping" in p.message and p.span.file.endswith("v.yaml")
    (p,) = errors(lambda: variant(files, "components:\n  card:\n    items:\n      a: {id: e}\n"))
    assert p.code == "V006"
    (p,) = errors(lambda: variant(files, "components:\n  coin:\n    items:\n      a: {name: A}\n"))
    assert p.code == "V005"


def test_script_errors_point_into_the_file_they_come_from(files):
    found = errors(lambda: variant(files, "components:\n  card:\n    items:\n"
                                          "      d: {new: true, value: 0, on: {bonus_time: \"score(owner.pointz, 1)\"}}\n"))
    assert [(p.span.file.endswith("v.yaml"), p.span.line, p.span.col) for p in found] == [(True, 6, 56)]
    # Removing a procedure the base still calls: the error is in the base, where the call is.
    found = errors(lambda: variant(files, "remove: {procedures: [bump]}\n"))
    assert [(p.code, Path(p.span.file).name, p.span.line) for p in found if p.severity == "error"] == [
        ("C003", "base.yaml", 31)]


def test_removing_every_step_is_an_error(files):
    (p,) = errors(lambda: variant(files, "remove: {phases: [main.draw, main.tally]}\n"))
    assert (p.code, Path(p.span.file).name, p.span.line, p.span.col) == ("V008", "v.yaml", 3, 30)


def test_merged_result_is_validated_and_located_per_file(files):
    from meeple.loading.merge import validate_merged as _validate_merged

    path = files("v.yaml", "meeple: 1\nextends: base.yaml\nconstants: {gain: 3}\nflow: pass\n")
    layers = resolve_layers(path)
    layers.data["flow"] = 3  # what no single file says: only the merged data is checked here
    layers.data["players"]["min"] = "two"
    with pytest.raises(RulesetError) as e:
        _validate_merged(layers)
    assert [(p.code, Path(p.span.file).name, p.span.line) for p in e.value.problems] == [
        ("S001", "base.yaml", 3), ("S001", "v.yaml", 4)]
    (p, q) = errors(lambda: variant(files, "players: {min: many}\n"))  # a variant's own schema errors
    assert p.span.file.endswith("v.yaml") and q.code == "S001"


def test_plain_ruleset_is_one_layer():
    layers = resolve_layers(rulesets_dir() / "speicherstadt.yaml")
    assert len(layers.docs) == 1 and layers.where(("flow",)).path == layers.docs[0].path


@pytest.mark.parametrize("path", sorted((rulesets_dir() / "variants").glob("*.yaml")), ids=lambda p: p.stem)
def test_every_bundled_variant_loads(path):
    rs = load_ruleset(path)
    assert rs.name and rs.components


def test_the_speicherstadt_house_rules():
    base = load_ruleset("speicherstadt")
    port = load_ruleset("cheap_port")
    assert port.constants["port_points_per_ship"] == 2 == base.constants["port_points_per_ship"] + 1
    assert load_ruleset("four_workers").constants["workers"] == 4 == base.constants["workers"] + 1
    fires = load_ruleset("gentle_fires")
    assert fires.procedures["fire"].span.file.endswith("gentle_fires.yaml")
    assert len(port.components) == len(base.components)


def test_validate_accepts_variant_files(files):
    from click.testing import CliRunner
    from meeple.cli.main import meeple

    path = files("v.yaml", "meeple: 1\nextends: base.yaml\nconstants: {gain: 3}\n")
    assert CliRunner().invoke(meeple, ["validate", str(path)]).exit_code == 0
    bad = files("w.yaml", "meeple: 1\nextends: base.yaml\nremove: {items: [nope]}\n")
    result = CliRunner().invoke(meeple, ["validate", str(bad)])
    assert result.exit_code == 1 and "V007" in result.output


def test_a_base_or_library_with_a_yaml_error_reports_that_error(files):
    # a ruleset with a syntax error is still a ruleset: its own error is shown, not "not a ruleset file"
    files("broken.yaml", BASE.replace("name: Tiny", 'name: "Tiny'))
    first, *own = errors(lambda: variant(files, "", extends="broken.yaml"))
    assert (first.code, first.span.line, first.span.col) == ("V001", 2, 10) and first.span.file.endswith("v.yaml")
    assert "errors of its own" in first.message and "broken.yaml:2:7" in first.hint
    assert own and (own[0].code, own[0].span.line, own[0].span.col) == ("Y001", 2, 7)
    assert own[0].span.file.endswith("broken.yaml")
    files("lib.yaml", "meeple: 1\nlibrary: true\nprocedures:\n  p: {do: pass\n")
    first, *own = errors(lambda: variant(files, "import: [lib.yaml]\n"))
    assert first.code == "I001" and own and own[0].span.file.endswith("lib.yaml")
    # a file that does not read as a ruleset at all is still refused without being quoted
    files("other.yaml", "just: [some, data\n")
    (p,) = errors(lambda: variant(files, "", extends="other.yaml"))
    assert p.code == "V001" and "not a Meeple ruleset file" in p.message


def test_removing_an_item_a_base_constant_still_names_is_warned_at_the_base_line(tmp_path):
    path = tmp_path / "no_fruit.yaml"
    path.write_text("meeple: 1\nextends: camel_up_off_season\nremove:\n  items: [price_fruit]\n")
    (w,) = [p for p in load_ruleset(path).warnings if p.code == "W018"]
    assert "`price_items` still names `price_fruit`" in w.message
    assert w.span.file.endswith("camel_up_off_season.yaml")
    line = Path(w.span.file).read_text().splitlines()[w.span.line - 1]
    assert line[w.span.col - 1:].startswith("price_fruit")


def test_a_variant_value_of_another_kind_is_warned_about_once(tmp_path):
    # W016 (the base's value was a number) and W017 (the other items' values are numbers) saw the same
    # mistake at the same place: the one that names the base's value is kept
    path = tmp_path / "text_value.yaml"
    path.write_text('meeple: 1\nextends: demoludy\ncomponents:\n  card:\n    items:\n      red_2: {value: "2"}\n')
    assert [w.code for w in load_ruleset(path).warnings] == ["W016"]


def test_a_misspelt_item_does_not_hide_the_variants_other_problems(tmp_path):
    # Found by QA: `bnak:` was the only problem reported; once fixed, the next run showed a W017 and a
    # C023 that were there all along.
    path = tmp_path / "typos.yaml"
    path.write_text("meeple: 1\nextends: speicherstadt\ncomponents:\n  card:\n    items:\n"
                    "      bnak: {count: 2}\n      contract_a1: {points: \"five\"}\n      port: {cots: 3}\n"
                    "      bank: {new: true}\n")
    with pytest.raises(RulesetError) as e:
        load_ruleset(path)
    got = [(p.code, p.span.line) for p in e.value.problems]
    assert got == [("V009", 6), ("W017", 7), ("C023", 8), ("V009", 9)]
    with pytest.raises(RulesetError) as e:  # without the checks, the merge's own errors still stop it
        load_ruleset(path, check=False)
    assert [p.code for p in e.value.problems][:2] == ["V009", "V009"]


def test_every_part_that_cannot_merge_is_reported_in_one_run(tmp_path):
    # A removal of nothing (V007), a step override of a one-script phase (V004) and a bad item (V009)
    # are each left out, and all reported, with the checker's problems of the rest.
    path = tmp_path / "many.yaml"
    path.write_text("meeple: 1\nextends: speicherstadt\nremove:\n  procedures: [fier]\nphases:\n  income:\n"
                    "    pay: |\n      pass\ncomponents:\n  card:\n    items:\n      bnak: {count: 2}\n")
    with pytest.raises(RulesetError) as e:
        load_ruleset(path)
    assert [(p.code, p.span.line) for p in e.value.problems] == [("V007", 4), ("V004", 6), ("V009", 12)]
    assert "did you mean `fire`?" in (e.value.problems[0].hint or "")
    demo = tmp_path / "demo.yaml"
    demo.write_text("meeple: 1\nextends: demoludy\nremove:\n  phases: [auction.open, auction.bidding, auction.award]\n")
    with pytest.raises(RulesetError) as e:
        load_ruleset(demo)
    assert [p.code for p in e.value.problems] == ["V008"]  # the last step stays: the phase is not left empty
