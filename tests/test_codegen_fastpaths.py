"""The generated engine's fast paths give what the reference gives, edge cases and errors included.

Generated code skips checks it can prove needless (codegen/kinds.py: values that are never lists or
maps, numbers certainly within the limit) and inlines the common case of operators and built-ins
(support.py). Each option below runs one such expression at its edge: a product or sum past the
engine's number limit, a zero times the largest number data may hold (beyond it, data is refused: S005), a
joined list past the size limit, lists of lists that must still be checked. Both engines must end in
the same state or fail with the same message at the same YAML line and column.
"""

import pytest
from test_differential import edge_menu, option_ends_as_the_reference

EDGES = {
    "product past the limit": "r = n * n",
    "product by a literal past the limit": "r = n * 3",
    "product of a sum by a literal past the limit": "r = sum([n, 1]) * 2",
    "product by a literal within the limit": "r = sum([n, 1]) * 1 + count(xs) * -2",
    "zero times the largest number": "r = 0 * huge",
    "the largest number times zero": "r = first(pool).value * 0",
    "zero times the largest number, by a literal": "r = 0 * first(pool).value",
    "the largest value times a literal": "r = first(pool).value * 1",
    "zero times a number within the limit": "r = n * 0 + 0 * count(xs)",
    "product of a list": "ys = xs * 2\n        r = count(ys)",
    "sum of counts past the limit": "r = sum([n, n - 1]) + count(xs)",
    "difference of counts": "r = count(xs) - sum(xs) - 7",
    "sum past the limit": "r = sum([n, n])",
    "sum of strings": "r = sum([\"a\", \"b\"])",
    "sum of booleans and numbers": "r = sum([true, 2, first(pool)])",
    "sum of a zone": "r = sum(pool)",
    "count of a number": "r = count(vals[0])",
    "count of a map": "r = count({\"a\": 1})",
    "floor division and remainder by literals": "r = count(xs) // 2 + sum(xs) % 4 + count(xs) // -2",
    "floor division by zero": "r = count(xs) // 0",
    "comparisons of counts": "r = count(xs) < 4 and sum(xs) >= count(pool)",
    "a literal equal to a number": "r = 3 == xs[2] and not (2 == xs[2]) and not (3 == vals[1])",
    "a literal equal to a player": "r = 0 == vals[2]",
    "a string literal on the left": "r = \"A\" == first(pool).name",
    "two expressions equal": "r = first(pool) == first(pool) and not (xs[0] == vals[3])",
    "joined new lists": "ys = [1, 2] + [x * 2 for x in xs]\n        r = sum(ys)",
    "joined lists past the size limit": "ys = [x for x in big] + [x for x in big]",
    "joined lists of lists": "ys = [xs] + [[x] for x in xs]\n        r = count(ys)",
    "a list holding itself too deep": "ys = [xs]\n        repeat 70:\n            ys = [ys]",
    "a comprehension of lists too deep": "ys = [xs]\n        repeat 70:\n            ys = [y for y in [ys]]",
    "first of a comprehension of lists too deep": "ys = [xs]\n        repeat 70:\n            ys = [first([y for y in [ys]])]",
    "distinct lists too deep": "ys = [xs]\n        repeat 70:\n            ys = [y for y in distinct([ys])]",
    "lists joined to lists too deep": "ys = [xs]\n        repeat 70:\n            ys = [y for y in [1] + [ys]]",
    "first items of zones": "r = count([first([c for c in pool if c.name == t]) for t in distinct([c.name for c in pool])])",
    "a comprehension first, then what it changed": "r = sum([bump(x) for x in xs]) * 10 + r",
    "what a comprehension changes, read before it": "r = r + sum([bump(x) for x in xs]) * 10",
    "a comprehension first in a test": "if first([c for c in pool if c.value > 3]).value > 5:\n            r = 1",
    "a comprehension first in a loop": "for y in [bump(x) for x in xs if x > 1]:\n            r += y * 100",
    "a comprehension over a number": "ys = [x for x in vals[0]]",
    "a comprehension first, failing in its test": "r = count([x for x in xs if x > vals[1]])",
    "comprehensions over constant lists": "r = count([w for w in words if w == \"a\"]) + count(flatten([n for n in nests]))",
    "game zones counted and first": "r = count(pool) + first(pool).value % 7",
    "comprehensions in comprehensions, in order": "ys = [[note(y) for y in [note(z) for z in xs] if note(y * 2) > 2] for x in xs if note(x + 10) > 10]\n        r = r * 10 + count(ys)",
    "a comprehension in a comprehension failing": "ys = [[y for y in xs if y > vals[1]] for x in xs if x > 2]",
    "a comprehension first in an augmented assignment": "r += sum([note(x) for x in xs])",
    "a comprehension first in a log line of a quiet game": "log(\"{[note(x) for x in xs]} {r}\")",
    "face down of a number": "r = vals[0].facedown",
    "face down and owner": "r = first(pool).facedown or first(pool).owner != none",
    "first of a comprehension": "r = first([c for c in pool if c.value > 3]).value",
    "first of an empty comprehension": "r = first([c for c in pool if c.value > huge]) == none",
    "a comprehension after operands that change the game": "r = note(1) + sum([note(x) for x in xs]) + note(2)",
    "a comprehension after a failing operand": "r = vals[9] + count([note(x) for x in xs])",
    "a comprehension after an operand, failing in it": "r = note(5) + count([x for x in xs if x > vals[1]])",
    "a comprehension among the items of a list": "ys = [note(1), [note(x) for x in xs], note(3)]\n        r = r + count(ys)",
    "a comprehension as a later argument": "r = r + index_of([note(7), note(8)], first([note(x) for x in xs if x > 1]))",
    "strings in lists": "r = count([w for w in words if w in [\"a\", \"c\"]]) * 10 + count([w for w in words if not (w in [\"b\"])])",
    "numbers, players and booleans in lists": "r = count([x for x in [vals[2] in [0, 1], vals[3] in [1], 1 in [vals[3], 1], vals[2] in [0, vals[2]], 2 in xs, 9 in xs, vals[1] in [3]] if x])",
    "membership in a zone, a string, a list of lists": "r = count([x for x in [first(pool) in pool, \"b\" in \"abc\", [1] in [[1], 2], [2] in [[1]], none in [none]] if x])",
    "membership in a number": "r = 1 in vals[0]",
    "a comprehension test of two parts": "r = count([x for x in xs if x > 1 and count([note(y) for y in xs if y < x]) > 0])",
    "a comprehension test failing in its second part": "r = count([x for x in xs if x > 2 and vals[1] > x])",
    "a comprehension test of or and and": "r = count([x for x in xs if x == 1 or x > 2 and note(x) > 0])",
    "a comprehension test of ands in ands": "r = count([x for x in xs if (x > 1 and note(x) > 1) and (note(x * 3) > 0 and x < 3)])",
    "an option test of two parts": "choose player(0) \"Inner\":\n            option \"pick {x}\" for x in xs when x > 1 and count([note(y) for y in xs if y < x]) > 1:\n                r = x",
    "an option test failing in its second part": "choose player(0) \"Inner\":\n            option \"pick {x}\" for x in xs when x > 2 and vals[1] > x:\n                r = x",
    "an option test of or and and": "choose player(0) \"Inner\":\n            option \"pick {x}\" for x in xs when x == 1 or x > 2 and note(x) > 0:\n                r = x\n            option \"none\" when r > 99 and note(1) > 0:\n                r = 0",
    "a menu whose guard moves what it loops over": "shuffle(pool)\n        choose player(0) \"Inner\":\n            option \"take {c.name}\" for c in pool when shift(c):\n                r = 1",
    "a menu whose guard calls a procedure that moves nothing": "shuffle(pool)\n        choose player(0) \"Inner\":\n            option \"see {c.name}\" for c in pool when look(c) > 3:\n                r = 1",
    "a loop whose body moves what it loops over": "shuffle(pool)\n        for c in pool:\n            r += count(pool) * 10 + note(c.value % 7) * 0 + (1 if shift(c) else 0)",
    "a loop whose body calls a procedure that moves nothing": "shuffle(pool)\n        for c in pool:\n            r += look(c)",
    "a comprehension that moves what it loops over": "shuffle(pool)\n        r = count([c for c in pool if shift(c)]) + count(spare) * 10",
    "comprehensions after a counter read": "r = r + count([note(x) for x in xs]) + r * 2 + sum([note(x) for x in xs])",
    "first of lists": "ys = []\n        r = first(xs) * 10 + (1 if first(ys) == none else 0) + count(first([xs]))",
    "first of a number": "r = first(vals[0])",
    "slices of lists and zones by literals": "ys = slice(xs, 1)\n        zs = slice(xs, -2, 5)\n        r = sum(ys) * 100 + sum(zs) * 10 + count(slice(pool, 1)) + count(slice(xs, 9)) + count(slice(pool, 0, 1))",
    "a slice of a map by a literal": "r = count(slice({\"a\": 1, \"b\": 2}, 1))",
    "a slice of a number by a literal": "r = slice(vals[0], 1)",
}

HEAD = """\
meeple: 1
name: Edges
players: {min: 2, max: 2}
constants:
  huge: 9007199254740991  # the largest number data may hold (S005 beyond)
  words: ["a", "b", "a"]
  nests: [[1], [2, [3]]]
counters:
  game: {r: 0}
zones:
  game: {pool: {}, spare: {}}
components:
  token:
    items:
      - id: h
        name: H
        value: 9007199254740991
      - id: a
        name: A
        value: 3
        count: 2
procedures:
  bump:
    params: [x]
    do: |
      r += x
      return x
  shift:
    params: [c]
    do: |
      move(c, spare)
      return true
  look:
    params: [c]
    do: |
      return note(c.value % 5) + count(pool)
  note:
    params: [x]
    do: |
      r = (r * 7 + x) % 1000003
      return x
setup: |
  move(components("token"), pool)
flow: |
  xs = [1, 2, 3]
  n = 4503599627370496
  big = between(1, 500001)
  vals = [5, "3", player(0), true]
  choose player(0) "Edge":
"""


@pytest.fixture(scope="module")
def edges(tmp_path_factory):
    return edge_menu(tmp_path_factory.mktemp("edges"), "edges", HEAD, EDGES, "scoring:\n  score: \"0\"\n")


# The cases that fail (with a located error) in both engines; every other one succeeds in both.
FAILING = {"product past the limit", "product by a literal past the limit",
           "product of a sum by a literal past the limit", "sum of counts past the limit", "sum past the limit",
           "sum of strings", "count of a number", "floor division by zero", "joined lists past the size limit",
           "a list holding itself too deep", "a comprehension of lists too deep", "face down of a number",
           "first of a comprehension of lists too deep", "distinct lists too deep", "lists joined to lists too deep",
           "a comprehension over a number", "a comprehension first, failing in its test",
           "a comprehension in a comprehension failing", "a comprehension after a failing operand",
           "a comprehension after an operand, failing in it", "membership in a number",
           "a comprehension test failing in its second part", "an option test failing in its second part",
           "first of a number", "a slice of a number by a literal"}


@pytest.mark.parametrize("narrate", [True, False], ids=["narrated", "quiet"])
@pytest.mark.parametrize("label", list(EDGES))
def test_each_fast_path_ends_as_the_reference(edges, label, narrate):
    option_ends_as_the_reference(edges, list(EDGES).index(label), label in FAILING, narrate)
