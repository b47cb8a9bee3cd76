"""The ruleset and scenario schemas, and how their errors are located and worded."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator
from meeple.loading.schema import load_schema, schema_path, validate_document
from meeple.loading.yamlsrc import load_yaml_text

VALID = """\
# yaml-language-server: $schema=../schema/meeple.schema.json
meeple: 1
name: Tiny
description: A tiny game for tests.
players: {min: 2, max: 4}
import: [stdlib]
constants: {HAND_SIZE: 3, TABLE: {a: [1, 2]}}
counters:
  game: {round: 0, pot: {initial: 5, visibility: hidden}}
  player: {coins: 3, vp: {initial: 0, visibility: owner, description: points}}
zones:
  game: {deck: {visibility: hidden}, market:}
  player: {hand: {visibility: owner}, table:}
events: [turn_start, buy]
components:
  card:
    description: A card.
    counters: {uses: 0}
    slots: {under: null, stack: {visibility: public}}
    defaults: {cost: 1, tags: []}
    on: {turn_start: "gain(1)"}
    options: {buy: "choose(x)"}
    items:
      - id: warehouse
        name: Warehouse
        count: 2
        cost: 3
        colors: [red, blue]
        on:
          buy: |
            gain(2)
      - name: Plain card
procedures:
  gain: "coins += 1"
  pay: {params: [who, n], do: "who.coins -= n", description: Pays.}
setup: |
  shuffle(deck)
phases: {auction: "pass()"}
flow: |
  repeat: phases.auction
scoring:
  final: "pass()"
  score: me.vp
  tiebreak: [me.coins]
agents: {greedy: me.vp}
"""


def problems(text: str, name: str = "meeple"):
    return validate_document(load_yaml_text(text, "r.yaml", "scenario" if name == "scenario" else "ruleset"), name)


def where(problem) -> tuple[int, int]:
    return problem.span.line, problem.span.col


def text_at(text: str, problem) -> str:
    """The source from the problem's position on, so tests read what the caret points at."""
    return text.splitlines()[problem.span.line - 1][problem.span.col - 1:]


def test_schemas_are_valid_2020_12_without_editor_unfriendly_keywords() -> None:
    for name in ("meeple", "scenario"):
        schema = load_schema(name)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        Draft202012Validator.check_schema(schema)
        text = json.dumps(schema)
        for keyword in ("prefixItems", "unevaluatedProperties", "unevaluatedItems", "$dynamicRef"):
            assert keyword not in text
    assert (schema_path() / "meeple.schema.json").is_file()


def test_every_property_has_a_description() -> None:
    def walk(node, at):
        if isinstance(node, dict):
            for key, sub in node.get("properties", {}).items():
                assert "description" in sub, f"{at}.{key}"
            for key, sub in node.items():
                walk(sub, f"{at}.{key}")
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                walk(sub, f"{at}[{i}]")
    walk(load_schema("meeple"), "meeple")
    walk(load_schema("scenario"), "scenario")


def test_valid_ruleset_has_no_problems() -> None:
    assert problems(VALID) == []


def test_variant_and_library_files_need_less() -> None:
    assert problems("meeple: 1\nextends: tiny\nremove: {components: [card]}\nscoring: {final: x}\n") == []
    assert problems("meeple: 1\nlibrary: stdlib\nprocedures: {shuffle_all: x}\nconstants: {N: 1}\n") == []


def test_game_file_requires_its_keys() -> None:
    found = problems("meeple: 1\nname: X\nscoring: {final: x}\n")
    assert {p.message for p in found} == {
        "missing the required key `players`", "missing the required key `flow`",
        "`scoring` is missing the required key `score`"}
    assert all(p.code == "S002" for p in found)
    score = next(p for p in found if "score" in p.message)
    assert where(score) == (3, 1)  # at the `scoring` key


def test_wrong_type_is_s001_at_the_value() -> None:
    [p] = problems(VALID.replace("players: {min: 2, max: 4}", "players: {min: two, max: 4}"))
    assert p.code == "S001" and where(p) == (5, 16)
    assert p.message == "`players.min` must be an integer, not a string"


def test_unknown_key_is_s003_at_the_key_with_a_suggestion() -> None:
    [p] = problems(VALID.replace("counters:\n  game", "cunters:\n  game"))
    assert p.code == "S003" and where(p) == (8, 1)
    assert p.message == "unknown key `cunters`" and p.hint == "did you mean `counters`?"
    assert (p.span.end_line, p.span.end_col) == (8, 7)


def test_unknown_nested_key_and_every_error_reported() -> None:
    text = VALID.replace("  score: me.vp", "  scor: me.vp").replace("max: 4", "max: 40")
    found = problems(text)
    assert [(p.code, text_at(text, p)) for p in found] == [
        ("S005", "40}"), ("S002", "scoring:"), ("S003", "scor: me.vp")]
    assert found[2].message == "unknown key `scor` in `scoring`" and found[2].hint == "did you mean `score`?"


def test_bad_enum_is_s004_with_the_choices() -> None:
    text = VALID.replace("visibility: owner, description", "visibility: secret, description")
    [p] = problems(text)
    assert p.code == "S004" and where(p) == (10, 51) and text_at(text, p).startswith("secret,")
    assert p.hint == "expected one of: public, owner, hidden"


def test_bad_names_and_constants() -> None:
    text = VALID.replace("events: [turn_start, buy]", "events: [turn_start, 2buy, buy, buy]") \
        .replace("HAND_SIZE", "hand-size")
    found = problems(text)
    assert [(p.code, where(p), text_at(text, p)) for p in found] == [
        ("S006", (7, 13), "hand-size: 3, TABLE: {a: [1, 2]}}"),
        ("S006", (14, 22), "2buy, buy, buy]"),
        ("S005", (14, 33), "buy]")]  # the repeated one, not the first
    assert found[0].message == "`hand-size` is not a valid name"


def test_items_attributes_and_counts() -> None:
    text = VALID.replace("        count: 2", "        count: -1\n        nested: {a: 1}\n        bad key: 1")
    found = problems(text)
    assert [(p.code, where(p), text_at(text, p)) for p in found] == [
        ("S005", (26, 16), "-1"), ("S001", (27, 17), "{a: 1}"), ("S006", (28, 9), "bad key: 1")]


def test_meeple_version_and_remove_without_extends() -> None:
    found = problems(VALID.replace("meeple: 1", "meeple: 2") + "remove: {components: [card]}\n")
    assert [(p.code, p.message) for p in found] == [
        ("S004", "`meeple` must be `1`, not `2`"), ("S002", "`remove` needs `extends` next to it")]


def test_component_without_items_and_procedure_without_do() -> None:
    found = problems(VALID.replace("  gain: \"coins += 1\"", "  gain: {params: [x]}")
                     .replace("components:\n", "components:\n  ship: {description: x}\n"))
    assert [(p.code, p.message) for p in found] == [
        ("S002", "`components.ship` is missing the required key `items`"),
        ("S002", "`procedures.gain` is missing the required key `do`")]


SCENARIO = """\
ruleset: tiny
scenarios:
  - name: buying works
    players: 2
    seed: 3
    setup: "move(warehouse, p1.hand)"
    steps:
      - act: "Buy warehouse"
        player: 1
      - act: "Buy it again"
        refused: true
        reason: "no coins"
      - play_until: "round == 3"
        max_steps: 100
      - check: "p1.coins >= 0"
      - expect: {p1.coins: 2, "len(market)": 0}
"""


def test_valid_scenario() -> None:
    assert problems(SCENARIO, "scenario") == []


def test_scenario_step_needs_exactly_one_kind() -> None:
    text = SCENARIO.replace('      - check: "p1.coins >= 0"', '      - check: "x"\n        act: "y"') \
        .replace("        max_steps: 100", "        max_steps: 100\n      - player: 2")
    found = problems(text, "scenario")
    assert [(p.code, text_at(text, p)) for p in found] == [
        ("S002", "player: 2"), ("S002", "player: 2"), ("S005", 'check: "x"')]
    assert found[0].message == ("`scenarios[0].steps[3]` needs one of `act`, `play_until`, `check`, `expect`, "
                                "`run`, `remember`, `offered`, `not_offered`, `menu_size` or `seen_by`")
    assert found[1].message == "`scenarios[0].steps[3]` needs one of `act`, `offered`, `not_offered` or `menu_size`"
    assert "only one of" in found[2].message


@pytest.mark.parametrize("text, code", [
    ("scenarios: [{name: a, players: 2}]\n", "S002"),
    ("ruleset: x\nscenarios: []\n", "S005"),
    ("ruleset: x\nscenarios: [{name: a}]\n", "S002"),
    ("ruleset: x\nscenarios: [{name: a, players: 2, sead: 1}]\n", "S003"),
])
def test_scenario_errors(text: str, code: str) -> None:
    assert [p.code for p in problems(text, "scenario")] == [code]
