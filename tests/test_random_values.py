"""Random scripts over lists, strings, components, players and maps, against the oracle.

test_codegen.py's random scripts are mostly numbers and control flow. Generated code has fast paths of
its own for the other kinds of value (`in` of a string or a component, `==` across kinds, comprehensions
over zones and behind `and`/`or`, `distinct`, `slice`, text holes, labels of options over any list) and
falls back to the reference's helpers for everything else: these scripts mix the kinds freely, so that
both the fast paths and the fall-backs run, and the errors too (a number where a list is expected, an
index out of range). Both engines must give the same actions, labels, logs, views and saves at every
step, or fail with the same located error.
"""

import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from meeple.errors import RulesetError, RuntimeRuleError
from meeple.runtime.codegen import cache
from meeple.runtime.codegen.module import Builder
from meeple.runtime.rules import load_ruleset
from support import examples, form, indent
from test_differential import lockstep

HEAD = """\
meeple: 1
name: Values
players: {min: 2, max: 3}
constants:
  words: ["tea", "rum", "b"]
  tea: tea
  two: "2"
counters:
  player: {points: 0}
zones:
  game: {pool: {}, bin: {}}
  player: {hand: {}}
components:
  cube:
    items:
      - {id: tea, name: Tea, good: tea, value: 1, count: 2}
      - {id: rum, name: Rum, good: rum, value: 3}
      - {id: tin, name: "2", good: "2", value: 2}
procedures:
  pick_of:
    params: [ys]
    do: |
      for y in ys:
          if y != none:
              return y
      return none
  both:
    params: [a, b]
    do: return [a, b]
  swap_first:
    params: [q]
    do: |
      if count(q.hand) > 0:
          move(first(q.hand), pool, "top")
      return count(q.hand)
setup: |
  move(components("cube"), pool)
  shuffle(pool)
flow: |
  p = player(0)
  xs = [1, 2, 2]
  ws = ["tea", "b"]
  s = "rum"
  v = none
  ls = []
  m = {"tea": 1}
"""
TAIL = """scoring:
  score: p.points
"""

# Values of every kind, and expressions of one kind that may still meet another at run time.
atoms = st.sampled_from(["xs", "ws", "s", "v", "ls", "p", "none", "1", "0", "tea", "two", "first(pool)",
                         "last(p.hand)", "list(pool)", "pool", "p.hand", "[]", "m", "true", "player(1)"])


def _values(anys):
    lists = st.one_of(
        st.sampled_from(["xs", "ws", "ls", "list(pool)", "[c.good for c in pool]", "[c.value for c in pool]",
                         "words", "others(p)", "turn_order(player(1))", "keys(m)", "[]", "between(0, 2)",
                         "[c for c in pool if c.good in ws]", "[c.name for c in p.hand]"]),
        anys.map(lambda x: f"[{x}]"),
        anys.map(lambda x: f"[{x}, s]"),
    )
    return st.one_of(
        lists,
        lists.map(lambda x: f"distinct({x})"),
        lists.map(lambda x: f"reversed({x})"),
        form("slice({0}, {1})", lists, st.sampled_from(["0", "1", "-1", "5"])),
        form("{0} + {1}", lists, lists),
        form("flatten([{0}, {1}])", lists, lists),
        form("[y for y in {1} if y != {0}]", anys, lists),
        form("index_of({1}, {0})", anys, lists),
        lists.map(lambda x: f"count({x})"),
        lists.map(lambda x: f"first({x})"),
        lists.map(lambda x: f"text({x})"),
        lists.map(lambda x: f"sorted({x})"),
        form("({0} in {1})", anys, lists),
        form("({0} not in {1})", anys, lists),
        form("({0} == {1})", anys, anys),
        form("({0} != {1})", anys, anys),
        form("\"{{{0}}}:{{{1}}}\"", anys, anys),
        form("({0} if {1} == {2} else {2})", anys, anys, anys),
        form("(count({1}) > 1 and {0} in {1})", anys, lists),
        form("({0} == none or any(y == {0} for y in {1}))", anys, lists),
        anys.map(lambda x: f"get(m, {x}, 0)"),
        anys.map(lambda x: f"{x}.good"),
        anys.map(lambda x: f"{x}.name"),
        anys.map(lambda x: f"{x} + 1"),
        lists.map(lambda x: f"pick_of({x})"),
        form("both({0}, {1})", anys, anys),
        form("[y for y in both({0}, {1}) if y != none]", anys, lists),
        st.just("swap_first(p)"),
    )


values = st.recursive(atoms, _values, max_leaves=5)


# Lists that only ever hold components: what `move`, `conceal` and `reveal` take without an error.
comps = st.sampled_from(["first(pool)", "list(pool)", "p.hand", "slice(pool, 1)", "reversed(list(pool))",
                         "[c for c in pool if c.good in ws]", "distinct(list(pool) + list(p.hand))", "pool",
                         "[c for c in pool if c.value > count(p.hand)]", "slice(pool, 0, 2)"])


def statements(depth: int):
    simple = st.one_of(
        values.map(lambda x: [f"v = {x}"]),
        values.map(lambda x: [f"ls = ls + [{x}]"]),
        values.map(lambda x: [f"s = \"{{{x}}}\""]),
        values.map(lambda x: [f"m[s] = {x}"]),
        values.map(lambda x: [f"log(\"{{{x}}} and {{v}}\")"]),
        values.map(lambda x: [f"tell(p, \"{{{x}}}\")"]),
        comps.map(lambda x: [f"move({x}, p.hand)"]),
        comps.map(lambda x: [f"move({x}, pool, \"top\")"]),
        comps.map(lambda x: [f"move({x}, bin)"]),
        comps.map(lambda x: [f"conceal({x})"]),
        comps.map(lambda x: [f"reveal({x})"]),
        st.sampled_from([["move(p.hand, bin)"], ["p = left_of(p)"], ["shuffle(pool)"], ["v = draw(1, pool, p.hand)"],
                         ["v = random_pick(list(pool) + ws)"], ["for c in p.hand:", "    move(c, pool)"],
                         ["while count(pool) > 2:", "    move(first(pool), bin)"], ["move(bin, pool)"]]),
        # Values of any kind where a component or a player belongs: the same error from both, or none.
        values.map(lambda x: [f"move({x}, p.hand)"]),
        values.map(lambda x: [f"p = {x}"]),
        *[values.map(lambda x: ["choose p \"Pick\":", f"    option \"Take {{y}}\" for y in {x}:",
                                "        v = y", "    option \"None\":", "        pass"]),
          st.tuples(values, values).map(lambda t: [
              "choose p \"Pick\":", f"    option \"{{c.name}} for {{y}}\" for c in pool for y in [{t[0]}] when c != {t[1]}:",
              "        move(c, p.hand)", "        ls = ls + [y]", "    option \"None\":", "        pass"]),
          st.tuples(values, comps).map(lambda t: [
              "choose p \"Give\":", f"    option \"Give {{c}} ({{{t[0]}}})\" for c in {t[1]}:",
              "        move(c, left_of(p).hand)", "        p = left_of(p)", "    option \"Keep\":", "        pass"])] * 2,
    )
    if depth == 0:
        return st.lists(simple, min_size=1, max_size=3).map(lambda ls: [x for s in ls for x in s])
    inner = statements(depth - 1)
    compound = st.one_of(
        st.tuples(values, values, inner, inner).map(
            lambda t: [f"if {t[0]} == {t[1]}:", *indent(t[2]), "else:", *indent(t[3])]),
        st.tuples(values, inner).map(lambda t: [f"if {t[0]}:", *indent(t[1])]),
        st.tuples(values, inner).map(lambda t: [f"for y in {t[0]}:", *indent(t[1])]),
        inner.map(lambda b: ["for c in pool:", "    v = c", *indent(b)]),
    )
    return st.lists(st.one_of(simple, compound), min_size=1, max_size=4).map(lambda ls: [x for s in ls for x in s])


# Scripts the checker refuses (an error it can prove) are filtered out; hypothesis gives up if that is
# most of them, so the property cannot pass by running nothing.
@settings(max_examples=examples(80, 3000), derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                  HealthCheck.data_too_large])
@given(statements(2), st.integers(0, 3))
def test_random_value_scripts_run_identically_in_both_engines(tmp_path_factory, body, seed):
    path = tmp_path_factory.mktemp("values") / "values.yaml"
    path.write_text(HEAD + "".join(f"  {line}\n" for line in body) + TAIL)
    try:
        rs = load_ruleset(path)
    except RulesetError:
        assume(False)  # the checker refused it: nothing runs
    lockstep(rs, 2 + seed % 2, seed, max_decisions=40, narrate=seed < 2)


# Found by the property above: generated code wrote `:=` inside what a comprehension loops over, which
# Python refuses to compile (the inline cases of `first`, `count`, `slice` and `in`), so a valid ruleset
# failed to start with a Python traceback.
@pytest.mark.parametrize("iterable", [
    "[first(pool), s]", "[count(pool)]", "slice(pool, 1)", "[s in ws, first(ws) in ws]", "[count(ws) > 1]",
    "slice(ws, 0, 1)", "[y for y in list(pool) if first(pool) != y]"])
def test_inline_built_ins_in_what_a_comprehension_loops_over(tmp_path, iterable):
    path = tmp_path / "values.yaml"
    path.write_text(HEAD + f'  log("{{[y for y in {iterable} if text(y) != s]}}")\n' + TAIL)
    assert lockstep(load_ruleset(path), 2, 1, narrate=True) == 0  # no decision: it starts, logs and ends alike


def test_a_label_whose_hole_fails_fails_alike_in_both_engines(tmp_path):
    # Found by a long run of the property above: the comparison itself raised instead of comparing.
    path = tmp_path / "values.yaml"
    path.write_text(HEAD + '  choose p "Give":\n      option "Give {c} ({get(m, xs, 0)})" for c in list(pool):\n'
                    '          move(c, left_of(p).hand)\n      option "Keep":\n          pass\n' + TAIL)
    assert lockstep(load_ruleset(path), 2, 1) == 1  # the labels fail alike; the moves by index play on


def test_generated_code_python_cannot_compile_is_a_located_error_not_a_traceback(tmp_path, monkeypatch):
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "values.yaml"
    path.write_text(HEAD + "  v = 1\n" + TAIL)
    monkeypatch.setattr(Builder, "source", lambda self: "def broken(:\n")
    rs = load_ruleset(path)
    with pytest.raises(RuntimeRuleError) as info:
        cache.generated(rs)
    problem = info.value.problems[0]
    assert problem.code == "R004" and problem.span.file == rs.path  # as the ruleset names its file
    assert "a bug in Meeple" in problem.message and "MEEPLE_EVALUATOR=reference" in problem.hint
    kept = next((tmp_path / "cache").glob("*.py"))  # the module is kept for the report, named in the error
    assert f"line 1 of {kept}" in problem.message and kept.read_text() == "def broken(:\n"
    monkeypatch.undo()
    code = ("import meeple.runtime.codegen.module as m; m.Builder.source = lambda self: 'def broken(:\\n'; "
            "from meeple.cli.main import main; main()")
    out = subprocess.run([sys.executable, "-c", code, "simulate", str(path), "-n", "1"], capture_output=True,
                         text=True, check=False, env={**os.environ, "MEEPLE_CACHE_DIR": str(tmp_path / "c2")})
    assert out.returncode == 1 and "R004" in out.stderr and "Traceback" not in out.stderr
