"""The checker: what it must report, what it must not (idioms of real rulesets), its contract with the
runtime (node ids, suspension), and its speed. The broken corpus (test_validate.py) pins locations.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from meeple.checker import typesys as ty
from meeple.checker.analyze import analyze, did_you_mean
from meeple.errors import Problem, RulesetError
from meeple.language import ast as A
from meeple.language.builtins import SIGNATURES
from meeple.runtime.rules import load_ruleset

ROOT = Path(__file__).resolve().parent.parent

SKELETON = """\
meeple: 1
name: Tiny
players: {min: 2, max: 4}
constants:
  bonus: 2
  names: [a, b]
counters:
  game:
    round: 0
    leader: none
    pile_size: 0
  player:
    coins: 0
    picks: []
zones:
  game:
    deck:
    row:
  player:
    hand: {visibility: owner}
events: [reveal]
components:
  card:
    counters: {tokens: 0}
    slots: {under: {}}
    defaults: {value: 0}
    items:
      - {id: ace, value: 1, on: {reveal: "gain(owner.coins, self.value)"}}
      - {id: two, value: 2, count: 2}
  cube:
    items:
      - {id: red, colour: red, count: 3}
procedures:
  helper:
    params: [p]
    do: return p.coins + bonus
  ask:
    params: [p]
    do: |
      choose p "Pick":
          option "One":
              return 1
          option "Two":
              return 2
setup: |
  move(components("card"), deck)
  move(components("cube"), row)
  leader = player(0)
flow: |
  round += 1
  for p in players:
      x = ask(p)
      gain(p.coins, helper(p) + x)
      p.picks = p.picks + [x]
      move(first(deck), p.hand)
      trigger reveal on p.hand
      ace.tokens += 1
      move(first(row), ace.under)
      pile_size = count(deck) + count(names)
scoring:
  score: p.coins
"""


def problems(tmp_path: Path, text: str) -> list[Problem]:
    path = tmp_path / "r.yaml"
    path.write_text(text)
    try:
        return load_ruleset(path).warnings
    except RulesetError as e:
        return e.problems


def with_flow(tmp_path: Path, flow: str, **replace: str) -> list[Problem]:
    """The skeleton with extra statements at the end of `flow`."""
    text = SKELETON.replace("scoring:\n", textwrap.indent(textwrap.dedent(flow).strip("\n") + "\n", "  ")
                            + "scoring:\n")
    for old, new in replace.items():
        text = text.replace(old, new)
    return problems(tmp_path, text)


def codes(found: list[Problem]) -> list[str]:
    return [p.code for p in found]


def test_skeleton_is_clean(tmp_path: Path) -> None:
    assert problems(tmp_path, SKELETON) == []


@pytest.mark.parametrize("flow, code", [
    ("x = deck + 1", "C011"),
    ("x = 1 + first(players)", "C011"),
    ("x = leader == 1", "C011"),
    ("x = first(players) < 2", "C011"),
    ("x = \"a\" + 1", "C011"),
    ("x = -deck", "C011"),
    ("x = 3 in 5", "C011"),
    ("x = 3 in players", "C011"),
    ("x = bonus % \"a\"", "C011"),
    ("round += deck", "C011"),
    ("x = ace.coins", "C012"),
    ("x = first(players).colour", "C012"),
    ("x = bonus.value", "C012"),
    ("x = deck.value", "C012"),
    ("x = count(3)", "C013"),
    ("x = left_of(ace)", "C013"),
    ("move(ace, 3)", "C013"),
    ("gain(bonus, 1)", "C013"),
    ("gain(first(players).picks, 1)", "C013"),
    ("gain(first(players).coins, \"x\")", "C013"),
    ("x = between(1, true)", "C013"),
    ("for c in 3:\n    pass", "C014"),
    ("repeat \"a\":\n    pass", "C014"),
    ("trigger reveal on 3", "C014"),
    ("x = ace[0]", "C014"),
    ("choose ace \"x\":\n    option \"a\":\n        pass", "C014"),
    ("x = components(\"card\")[0].colour", "C012"),
    ("bonus = 3\nx = bonus", "C019"),
    ("ace.value = 3", "C019"),
    ("first(players).hand = []", "C019"),
    ("return 3", "C018"),
    ("x = ask(first(players)) + 1", "C007"),
    ("x = help(1)", "C003"),
    ("x = helper()", "C004"),
    ("x = count()", "C004"),
    ("phase nope", "C005"),
    ("trigger nope on deck", "C006"),
    ("x = components(\"cards\")", "C020"),
    ("x = y", "C001"),
    ("x = coins", "C001"),
    ("x = self", "C001"),
    ("x = two", "C001"),
    ("continue", "C009"),
    ("choose leader:\n    option \"a\" when false:\n        pass", "C017"),
    ("choose leader:\n    option \"a\" for n in between(3, 1):\n        pass", "C017"),
    ("end_game\nx = 1", "W007"),
    ("if true:\n    return 1\nelse:\n    end_game\nx = 1", "C018"),
    ("while true:\n    pass\nx = 1", "W007"),
])
def test_reports(tmp_path: Path, flow: str, code: str) -> None:
    found = with_flow(tmp_path, flow)
    assert code in codes(found), [str(p) for p in found]
    assert all(p.span is not None for p in found)


@pytest.mark.parametrize("flow", [
    # idioms of the bundled rulesets and the language reference: none of these may be reported
    "x = []\nx += ace\nx = x - [ace]\nx = x - ace",
    "x = first(deck)\nif x != none:\n    move(x, row)",
    "leader = left_of(leader)\nx = leader == first(players)",
    "m = {}\nfor q in players:\n    m[q] = q.coins\nx = max([m[q] for q in players])",
    "x = ace in deck and first(players) in players",
    "x = \"{bonus} coins for {first(players).name}\"",
    "x = sum(c.value for c in deck) + count(p.hand for p in players)",
    "for c in deck:\n    x = c.tokens + c.value\n    move(c.under, row)",
    "x = [c for c in components(\"cube\") if c.colour == \"red\"]",
    "prev = none\nfor c in deck:\n    if prev != none:\n        log(\"{prev.name}\")\n    prev = c",
    "x = min([c.value for c in deck], 0) // 2 % 3 * -1",
    "x = keys({\"a\": 1})\nx = get({\"a\": 1}, \"a\", 0)",
    "x = slice(list(deck), 0, 2) + reversed(sorted([3, 1]))",
    "simultaneous q in players:\n    choose q \"bid\":\n        option \"{n}\" for n in between(0, q.coins):\n            q.picks += n",
    "i = 0\nwhile i < 3:\n    i += 1\n    if i == 2:\n        break",
    "if count(deck) == 0:\n    end_game",
])
def test_does_not_report_idioms(tmp_path: Path, flow: str) -> None:
    found = with_flow(tmp_path, flow)
    assert found == [], [str(p) for p in found]


def test_counter_types_widen_with_assignments(tmp_path: Path) -> None:
    # `pile_size` starts as a number; a script stores a list in it: no type errors either way
    assert with_flow(tmp_path, "pile_size = list(deck)\nx = count(pile_size)") == []
    # a counter that starts as none takes the type of what is assigned to it
    assert "C011" in codes(with_flow(tmp_path, "x = leader + 1"))


def test_procedure_return_types_are_inferred(tmp_path: Path) -> None:
    found = with_flow(tmp_path, "x = count(helper(first(players)))")
    assert codes(found) == ["C013"] and "not a number" in found[0].message


def test_read_only_assignment_is_an_error_only_if_the_global_is_read(tmp_path: Path) -> None:
    assert codes(with_flow(tmp_path, "row = 3")) == ["C019"]  # `row` is read in setup
    found = with_flow(tmp_path, "unread = 3", **{"  bonus: 2": "  bonus: 2\n  unread: 1"})
    assert codes(found) == ["W004", "W010"]  # the constant `unread` is read nowhere


def test_use_before_assignment_respects_loops(tmp_path: Path) -> None:
    assert codes(with_flow(tmp_path, "for q in players:\n    if q != first(players):\n        log(\"{z}\")\n"
                                     "    z = 1")) == []
    found = with_flow(tmp_path, "log(\"{z}\")\nz = 1")
    assert codes(found) == ["C001"] and "before it is assigned" in found[0].message


def test_handlers_know_self_kind_and_owner(tmp_path: Path) -> None:
    text = SKELETON.replace('"gain(owner.coins, self.value)"', '"gain(owner.coins, self.colour)"')
    found = problems(tmp_path, text)
    assert codes(found) == ["C012"] and "a card has no `colour`" in found[0].message


def test_hints(tmp_path: Path) -> None:
    found = with_flow(tmp_path, "x = first(players).coinz + bonsu")
    assert [p.hint for p in found] == ["did you mean `coins`?", "did you mean `bonus`?"]
    assert with_flow(tmp_path, "x = two")[0].hint == 'there are 2 `two` components: use `components("two")`'
    assert did_you_mean("shufle", ["shuffle", "move"]) == "did you mean `shuffle`?"
    assert did_you_mean("zzz", ["shuffle"]) is None


def test_every_problem_is_sorted_and_located(tmp_path: Path) -> None:
    found = with_flow(tmp_path, "x = y\nz = deck + 1\nphase nope")
    assert codes(found) == ["C001", "C011", "C005"]
    assert [p.span.line for p in found] == sorted(p.span.line for p in found)


def test_warnings_for_unused_definitions(tmp_path: Path) -> None:
    text = SKELETON.replace("  names: [a, b]\n", "  names: [a, b]\n  unused: 1\n")
    text = text.replace("    row:\n", "    row:\n    spare:\n").replace("events: [reveal]", "events: [reveal, later]")
    text = text.replace("procedures:\n", "procedures:\n  idle: pass\n")
    text = text.replace("scoring:\n", "phases:\n  lost: pass\nscoring:\n")
    assert sorted(codes(problems(tmp_path, text))) == ["W001", "W002", "W003", "W004", "W006"]


def test_phases_only_reached_from_unused_code_are_never_run(tmp_path: Path) -> None:
    text = SKELETON.replace("scoring:\n", "phases:\n  a: phase b\n  b: pass\nscoring:\n")
    found = problems(tmp_path, text)
    assert [(p.code, p.message) for p in found] == [
        ("W001", "the phase `a` is never run"),
        ("W001", "the phase `b` is never run: only scripts that never run name it")]


def test_duplicate_definitions(tmp_path: Path) -> None:
    text = SKELETON.replace("  names: [a, b]\n", "  names: [a, b]\n  deck: 1\n")
    text = text.replace("procedures:\n", "procedures:\n  count: pass\n")
    text = text.replace("    slots: {under: {}}", "    slots: {under: {}, tokens: {}}")
    assert codes(problems(tmp_path, text)).count("C016") == 3


# ---- the contract with the runtime ---------------------------------------------------------------

def test_node_ids_and_suspension_contract() -> None:
    rs = load_ruleset(ROOT / "rulesets" / "speicherstadt.yaml")
    assert len(rs.nodes) == len(rs.node_ids) > 100
    assert all(rs.node_ids[id(n)] == i for i, n in enumerate(rs.nodes))
    assert not any(isinstance(n, (A.Name, A.Call, A.BinOp)) for n in rs.nodes)  # statements only
    before = (list(rs.node_ids.items()), set(rs.suspends), set(rs.suspending_procs))
    analyze(rs)  # again: the same ids, the same suspension
    assert (list(rs.node_ids.items()), set(rs.suspends), set(rs.suspending_procs)) == before
    assert "spend_cube" in rs.suspending_procs and "fits" not in rs.suspending_procs
    assert rs.suspends and rs.suspends <= set(rs.node_ids)  # suspending statements are numbered
    assert all(id(n) in rs.suspends for n in rs.nodes if isinstance(n, (A.Choose, A.Simultaneous)))


def test_bundled_rulesets_have_no_errors() -> None:
    for path in sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((ROOT / "rulesets" / "variants").glob("*.yaml")):
        load_ruleset(path)  # raises on any error


def test_every_primitive_has_argument_types() -> None:
    assert set(SIGNATURES) <= set(ty.ARGS), "add the new primitive's argument types to typesys.ARGS"
    for name, prim in SIGNATURES.items():
        assert len(ty.ARGS[name]) == prim.max_args, name


def test_types_join_and_describe() -> None:
    assert ty.join(ty.NONE, ty.PLAYER) == ty.PLAYER and ty.join(ty.NUM, ty.STR) == ty.ANY
    assert ty.join(ty.list_of(ty.NUM), ty.list_of(None)) == ty.list_of(ty.NUM)
    assert ty.join(ty.comp_of("card"), ty.comp_of("cube")) == ty.COMP
    assert str(ty.list_of(ty.comp_of("card"))) == "a list of components (card)"
    assert ty.of_value([[[1]]]) == ty.list_of(ty.list_of(ty.list_of(ty.NUM)))
    assert ty.of_value([[[[1]]]]) == ty.LIST  # deeper nesting: a list of anything
