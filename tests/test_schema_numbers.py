"""Numbers in a ruleset's data are whole and within the engine's limit, as in scripts (P007): refused where written."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from meeple.errors import RulesetError
from meeple.loading.numbers import MAX_NUMBER
from meeple.loading.schema import load_schema, validate_document
from meeple.loading.yamlsrc import load_yaml_file
from meeple.runtime.rules import load_ruleset

# Each line that holds VALUE is a place where data numbers enter: (its text, its path in messages).
GAME = """\
meeple: 1
name: Tiny
players: {min: 2, max: 2}
constants:
  hand_size: 3
  prices: [1, 2, 3]
  table: {low: 1, high: 5}
counters:
  game: {round: {initial: 0}}
  player: {coins: 0}
zones:
  game: {pile: }
components:
  card:
    defaults: {value: 0}
    counters: {wear: 0}
    items:
      - {id: a, name: A, value: 1, tags: [1, 2]}
setup: |
  move(components("card"), pile)
flow: |
  pass
scoring:
  score: p.coins + hand_size + count(prices) + table["low"] + round
"""
PLACES = [
    ("hand_size: 3", "hand_size: {v}", "constants.hand_size"),
    ("prices: [1, 2, 3]", "prices: [1, {v}, 3]", "constants.prices[1]"),
    ("table: {low: 1, high: 5}", "table: {low: 1, high: {v}}", "constants.table.high"),
    ("round: {initial: 0}", "round: {initial: {v}}", "counters.game.round.initial"),
    ("player: {coins: 0}", "player: {coins: {v}}", "counters.player.coins"),
    ("defaults: {value: 0}", "defaults: {value: {v}}", "components.card.defaults.value"),
    ("counters: {wear: 0}", "counters: {wear: {v}}", "components.card.counters.wear"),
    ("value: 1, tags", "value: {v}, tags", "components.card.items[0].value"),
    ("tags: [1, 2]", "tags: [1, {v}]", "components.card.items[0].tags[1]"),
]


def refused(tmp_path: Path, text: str, name: str = "game.yaml"):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(RulesetError) as e:
        load_ruleset(path)
    (p,) = [p for p in e.value.problems if p.severity == "error"]
    return p


def with_value(old: str, new: str, value: str) -> tuple[str, int, int]:
    """The game with `value` written in place, and the line and column where it is written."""
    assert GAME.count(old) == 1
    text = GAME.replace(old, new.replace("{v}", value))
    before = text[:text.index(new.replace("{v}", value))]
    line = before.count("\n") + 1
    col = len(before) - (before.rfind("\n") + 1) + new.index("{v}") + 1
    return text, line, col


def test_the_game_used_here_is_valid(tmp_path):
    """The base the other tests change one number of: valid as written."""
    (tmp_path / "game.yaml").write_text(GAME)
    assert load_ruleset(tmp_path / "game.yaml").constants["hand_size"] == 3


@pytest.mark.parametrize("value", ["3.5", ".nan", ".inf", "-.inf"])
@pytest.mark.parametrize(("old", "new", "where"), PLACES, ids=[w for *_, w in PLACES])
def test_a_number_that_is_not_whole_is_refused_at_the_value(tmp_path, old, new, where, value):
    """Found by QA: `coins: .nan`, `hand_size: 3.5`, `.inf` validated ok, then failed at run time (R001, a traceback)."""
    text, line, col = with_value(old, new, value)
    p = refused(tmp_path, text)
    assert (p.code, p.span.line, p.span.col) == ("S001", line, col)
    assert p.message == f"`{where}` must be a whole number, not `{value}`"
    assert "whole numbers within ±9,007,199,254,740,991" in p.hint


@pytest.mark.parametrize("value", ["99999999999999999999", "-9007199254740992", "1e300"])
@pytest.mark.parametrize(("old", "new", "where"), PLACES, ids=[w for *_, w in PLACES])
def test_a_number_beyond_the_engines_limit_is_refused_at_the_value(tmp_path, old, new, where, value):
    """Found by QA: `coins: 99999999999999999999` validated ok; P007 refused such a number in scripts only."""
    text, line, col = with_value(old, new, value)
    p = refused(tmp_path, text)
    assert (p.code, p.span.line, p.span.col) == ("S005", line, col)
    assert p.message == f"`{where}`: the number `{value}` is beyond ±9,007,199,254,740,991, the engine's limit"


@pytest.mark.parametrize(("value", "whole"), [("3.0", 3), ("1e3", 1000), ("-2.0", -2)])
def test_a_whole_number_written_as_a_decimal_is_refused_too(tmp_path, value, whole):
    """JSON Schema counts `3.0` as an integer, but YAML reads it as a decimal number, which the rules cannot use."""
    text, line, col = with_value("hand_size: 3", "hand_size: {v}", value)
    p = refused(tmp_path, text)
    assert (p.code, p.span.line, p.span.col) == ("S001", line, col)
    assert p.message == f"`constants.hand_size` must be written as the whole number `{whole}`, not `{value}`"
    text = GAME.replace("players: {min: 2, max: 2}", "players: {min: 2.0, max: 2}")
    assert refused(tmp_path, text).message.startswith("`players.min` must be written as the whole number `2`")


def test_the_largest_numbers_the_engine_takes_are_accepted(tmp_path):
    """±(2^53 − 1) itself is inside the limit."""
    path = tmp_path / "game.yaml"
    path.write_text(GAME.replace("hand_size: 3", f"hand_size: {MAX_NUMBER}").replace("player: {coins: 0}",
                                                                                      f"player: {{coins: -{MAX_NUMBER}}}"))
    assert load_ruleset(path).constants["hand_size"] == MAX_NUMBER


def test_a_variant_and_a_library_are_held_to_the_same_numbers(tmp_path):
    """Located in the file that writes the number, not in the merged game."""
    (tmp_path / "game.yaml").write_text(GAME)
    p = refused(tmp_path, "meeple: 1\nextends: game.yaml\nconstants: {hand_size: 2.5}\n", "v.yaml")
    assert (p.code, Path(p.span.file).name, p.span.line, p.span.col) == ("S001", "v.yaml", 3, 24)
    (tmp_path / "lib.yaml").write_text("meeple: 1\nlibrary: l\nconstants: {big: 1e400}\n")
    p = refused(tmp_path, GAME.replace("players: {", "import: [lib.yaml]\nplayers: {"))
    assert (p.code, Path(p.span.file).name) == ("S001", "lib.yaml")
    assert p.message == "`constants.big` must be a whole number, not `1e400`"


def test_a_scenario_file_takes_whole_numbers_within_the_limit(tmp_path):
    """A scenario's seed and expected values are data numbers too."""
    path = tmp_path / "s.yaml"
    path.write_text("ruleset: game.yaml\nscenarios:\n  - name: one\n    players: 2\n    seed: 99999999999999999999\n"
                    "    steps:\n      - expect: {p1.coins: .nan}\n")
    problems = validate_document(load_yaml_file(str(path), "scenario"), "scenario")
    assert [(p.code, p.span.line) for p in problems] == [("S005", 5), ("S001", 7)]


def test_meeple_validate_refuses_them_in_plain_words(tmp_path):
    """Found by QA: `.nan` validated ok and then `meeple play --save` ended in a traceback."""
    from meeple.cli.main import meeple

    path = tmp_path / "game.yaml"
    path.write_text(GAME.replace("player: {coins: 0}", "player: {coins: .nan}"))
    result = CliRunner().invoke(meeple, ["validate", str(path)])
    assert result.exit_code == 1 and "error[S001]: `counters.player.coins` must be a whole number, not `.nan`" \
        in result.output and "Traceback" not in result.output


def test_a_decimal_for_players_to_read_is_told_to_be_text(tmp_path):
    """Found in review: a display-only `weight: 1.5` used to load; refused now, the hint says how to keep
    it (quoted, as text), and quoted it loads."""
    from meeple.cli.main import meeple

    path = tmp_path / "game.yaml"
    path.write_text(GAME.replace("player: {coins: 0}", "player: {coins: 1.5}"))
    result = CliRunner().invoke(meeple, ["validate", str(path)])
    assert result.exit_code == 1 and 'or `"1.5"` (quoted) for text to show' in result.output


def test_every_number_the_ruleset_schema_takes_is_whole():
    """The schema tells editors too: no place takes `number` (which includes 3.5), and the bounds are the engine's."""
    text = json.dumps(load_schema("meeple"))
    assert '"number"' not in text and str(MAX_NUMBER) in text
