"""The compiled engine: located errors, the content-hash cache, and random scripts against the oracle."""

import hashlib
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from meeple.errors import RulesetError, RuntimeRuleError
from meeple.language.parser import parse_expr, plain_origin
from meeple.runtime.codegen import cache
from meeple.runtime.codegen.kinds import Flatness
from meeple.runtime.codegen.module import Builder
from meeple.runtime.rules import load_ruleset
from support import form, indent
from test_differential import GeneratedGame, ReferenceGame, lockstep, outcome

FAILING = """\
meeple: 1
name: Failing
players: {min: 2, max: 2}
counters:
  player: {coins: 1}
procedures:
  spend:
    params: [p, k]
    do: |
      pay(p.coins, k)
      return k
flow: |
  xs = [1, 2]
  choose player(0) "Go":
      option "Spend {n}" for n in between(1, 3) when xs[0] > 0:
          spend(player(0), n)
      option "Index":
          log("{xs[7]}")
scoring:
  score: p.coins
"""


@pytest.mark.parametrize("label,line,col", [("Spend 3", 10, 7), ("Index", 18, 17)])
def test_runtime_errors_in_generated_code_point_into_the_yaml(tmp_path, label, line, col):
    path = tmp_path / "failing.yaml"
    path.write_text(FAILING)
    rs = load_ruleset(path)
    spans = []
    for evaluator in ("generated", "reference"):
        g = rs.new_game(2)
        if evaluator == "reference":
            from meeple.runtime.evaluator import Evaluator
            g._ev = Evaluator(rs, g.state)
        assert len(g.legal_actions()) == 4
        with pytest.raises(RuntimeRuleError) as info:
            g.apply(label)
        spans.append(info.value.problems[0].span)
    assert spans[0] == spans[1]
    assert (spans[0].file, spans[0].line, spans[0].col) == (str(path), line, col)


SHOWS_A_NUMBER = """\
meeple: 1
name: Shows a number
players: {min: 2, max: 2}
flow: |
  choose player(0) "Go":
      option "Go":
          x = "round {1 + nplayers}"
scoring:
  score: "0"
"""


@pytest.fixture
def broken_shower(monkeypatch):
    """The helper that shows a number in a text, made to fail: a Python failure past every check."""
    from meeple.runtime.codegen import tables

    def shower(rs):
        def show(x):
            raise ZeroDivisionError("broken")
        return show
    monkeypatch.setattr(tables, "shower", shower)


def test_a_python_failure_inside_generated_code_is_located_at_the_script_it_runs(tmp_path, broken_shower):
    # Generated functions keep no node in a local: limits.located finds the one a function runs by its
    # code object (limits.CODE_NODES). A failure that slips past every check is reported at the
    # script the chosen option runs.
    path = tmp_path / "shows.yaml"
    path.write_text(SHOWS_A_NUMBER)
    g = load_ruleset(path).new_game(2)
    with pytest.raises(RuntimeRuleError) as info:
        g.apply("Go")
    p = info.value.problems[0]
    assert p.code == "R003" and "broken" in p.message
    assert (p.span.file, p.span.line, p.span.col) == (str(path), 7, 11)


def test_a_failure_is_located_in_its_own_file_when_another_holds_the_same_text(tmp_path, broken_shower):
    # Two files of one text make generated code objects that compare equal: each game's failure is
    # still located in its own file (limits.CODE_NODES goes by identity).
    games = []
    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_text(SHOWS_A_NUMBER)
        games.append(load_ruleset(tmp_path / name).new_game(2))  # both modules bound
    for name, g in zip(("a.yaml", "b.yaml"), games):
        with pytest.raises(RuntimeRuleError) as info:
            g.apply("Go")
        assert info.value.problems[0].span.file == str(tmp_path / name)


def test_generated_modules_are_cached_by_content(tmp_path, monkeypatch):
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path))
    rs = load_ruleset("kuhn_poker")
    rs._compiled = None
    first = cache.generated(rs)
    assert first.source_path is not None and first.source_path.startswith(str(tmp_path))
    assert sorted(p.suffix for p in tmp_path.iterdir() if p.is_file()) == [".code", ".py"]  # (folders: scripts, schema)
    with open(first.source_path) as f:
        assert "def MN_" in f.read()

    # A second load of the same content generates nothing: the compiled code comes from the cache.
    monkeypatch.setattr(Builder, "source", lambda self: pytest.fail("generated again"))
    again = load_ruleset("kuhn_poker")
    assert cache.content_key(again) == cache.content_key(rs)
    assert cache.generated(again).source_path == first.source_path
    assert again.new_game(2, 1).legal_actions() == rs.new_game(2, 1).legal_actions()


def test_generated_modules_are_pruned_keeping_the_most_recently_used(tmp_path, monkeypatch):
    # Found in review: every edit of a ruleset wrote a new module and none was ever removed (12,000
    # modules, 1.5 GB, in one user's cache); the parsed scripts beside them were pruned.
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(cache, "KEEP", 2)

    def build(name):
        rs = load_ruleset(name)
        rs._compiled = None
        return cache.content_key(rs), cache.generated(rs)

    def kept():
        return {p.stem for p in tmp_path.glob("*.code")}, {p.stem for p in tmp_path.glob("*.py")}

    kuhn, _ = build("kuhn_poker")
    ttt, _ = build("rulesets/reference/tic_tac_toe.yaml")
    for f in tmp_path.iterdir():  # both written a while ago, tic-tac-toe later
        if f.is_file():
            os.utime(f, (1000 + (ttt in f.name), 1000 + (ttt in f.name)))
    build("kuhn_poker")  # a hit: Kuhn poker is now the most recently used
    four, _ = build("rulesets/reference/connect_four.yaml")
    assert kept() == ({kuhn, four}, {kuhn, four})


@pytest.mark.parametrize("damage", [b"N", b"", b"\x00" * 40, "flip"])
def test_a_damaged_compiled_module_is_generated_again(tmp_path, monkeypatch, damage):
    # Found by QA: a `.code` file of the one byte b"N" unmarshals to None, which `exec` refused with a
    # traceback; a flipped byte could unmarshal to other code. Each is a miss, written again.
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path))
    rs = load_ruleset("kuhn_poker")
    rs._compiled = None
    cache.generated(rs)
    (code_file,) = tmp_path.glob("*.code")
    good = code_file.read_bytes()
    if damage == "flip":
        damage = good[:-20] + bytes([good[-20] ^ 1]) + good[-19:]
    code_file.write_bytes(damage)
    again = load_ruleset("kuhn_poker")
    again._compiled = None
    assert again.new_game(2, 1).legal_actions() == rs.new_game(2, 1).legal_actions()
    assert code_file.read_bytes() == good


# ------------------------------------------------------------------ random scripts
HEAD = """\
meeple: 1
name: Fuzz
players: {min: 2, max: 3}
constants:
  limit: 3
  words: ["a", "b"]
counters:
  game: {total: 0}
  player: {points: 0}
zones:
  game: {pool: {}, bin: {}}
  player: {hand: {}}
events: [ping, extra]
components:
  token:
    counters: {charge: 0}
    items:
      - id: red
        name: Red
        value: 2
        count: 2
        on:
          ping: |
            total += self.value
            if total > 20:
                return
            self.charge += 1
      - id: blue
        name: Blue
        value: 5
        options:
          extra: |
            option "Extra {self.name} {n}" for n in [1, 2] when total >= n:
                total -= n
procedures:
  find:
    params: [x]
    do: |
      for y in xs_of(x):
          if y == x:
              return y
      return -1
  xs_of:
    params: [x]
    do: |
      return [x - 1, x, x + 1]
  bump:
    params: [x]
    do: |
      total += x
      if x > 3:
          return x - 1
      return x * 2
  ask:
    params: [q]
    do: |
      choose q "Pick":
          option "Take {n}" for n in between(0, 2):
              q.points += n
setup: |
  move(components("token"), pool)
flow: |
  a = 1
  b = 2
  xs = [1, 2, 3]
  m = {"k": 1}
  p = player(0)
"""
TAIL = """scoring:
  score: p.points
"""

ints = st.recursive(
    st.sampled_from(["0", "1", "2", "5", "a", "b", "total", "limit", "count(pool)", "p.points", "sum(xs)",
                     "max(xs, 0)", "m['k']", "count(xs)", "nplayers"]),
    lambda e: st.one_of(
        form("({0} {1} {2})", e, st.sampled_from(["+", "-", "*", "//", "%"]), e),
        e.map(lambda x: f"-{x}"),
        e.map(lambda x: f"bump({x})"),
        e.map(lambda x: f"index_of(xs, {x})"),
        e.map(lambda x: f"xs[{x} % 3]"),
        e.map(lambda x: f"xs[{x}]"),
        form("min([{0}, {1}])", e, e),
        form("max([{0}, {1}])", e, e),
        e.map(lambda x: f"max([y - {x} for y in xs if y > {x}], 0)"),
        e.map(lambda x: f"min([y * {x} for y in xs])"),
        form("({0} if {1} > {2} else {2})", e, e, e),
        e.map(lambda x: f"sum([y + {x} for y in xs if y != {x}])"),
        e.map(lambda x: f"find({x})"),
    ), max_leaves=4)
bools = st.one_of(
    st.tuples(ints, st.sampled_from(["<", "<=", "==", "!=", ">", ">="]), ints).map(lambda t: " ".join(t)),
    ints.map(lambda x: f"{x} in xs"),
    ints.map(lambda x: f"any(c.value > {x} for c in pool)"),
    st.sampled_from(["true", "false", "first(pool) == none", "words[0] == \"a\""]),
)


def statements(depth: int, in_loop: bool):
    simple = st.one_of(
        ints.map(lambda x: [f"a = {x}"]), ints.map(lambda x: [f"b += {x}"]), ints.map(lambda x: [f"total += {x}"]),
        ints.map(lambda x: [f"xs = xs + [{x}]"]), ints.map(lambda x: [f"m[\"k\"] = {x}"]),
        ints.map(lambda x: [f"score(player({x}).points, {x})"]), ints.map(lambda x: [f"p.points = {x}"]),
        ints.map(lambda x: [f"log(\"v {{{x}}} {{xs}} {{m}}\")"]),
        st.just(["move(first(pool), player(1).hand)"]), st.just(["shuffle(pool)"]),
        st.just(["move(player(1).hand, pool)"]), st.just(["ask(player(1))"]),
        st.just(["trigger ping on pool"]), st.just(["trigger ping on first(pool)"]),
        ints.map(lambda x: ["simultaneous q in players:", "    choose q \"Bid\":",
                            f"        option \"Bid {{n}}\" for n in between(0, 2) when n <= {x} % 3 + 1:",
                            "            m[\"k\"] = n"]),
        st.just(["choose p \"Hooks\":", "    options extra from pool", "    option \"None\":", "        pass"]),
        ints.map(lambda x: ["choose p \"Choose\":", f"    option \"Add {{n}}\" for n in between(0, 2) when n != {x}:",
                            "        a += n", "    option \"Pass\":", "        pass"]),
    )
    if in_loop:
        simple = st.one_of(simple, st.just(["break"]), st.just(["continue"]))
    if depth == 0:
        return st.lists(simple, min_size=1, max_size=3).map(lambda ls: [x for s in ls for x in s])
    inner = statements(depth - 1, in_loop)
    loop_inner = statements(depth - 1, True)
    compound = st.one_of(
        st.tuples(bools, inner, inner).map(lambda t: [f"if {t[0]}:", *indent(t[1]), "else:", *indent(t[2])]),
        loop_inner.map(lambda b: ["for y in xs:", *indent(b)]),
        loop_inner.map(lambda b: ["for c in pool:", "    c.charge += c.value", *indent(b)]),
        loop_inner.map(lambda b: ["repeat 2:", *indent(b)]),
        loop_inner.map(lambda b: ["w = 0", "while w < 3:", "    w += 1", *indent(b)]),
    )
    return st.lists(st.one_of(simple, compound), min_size=1, max_size=4).map(lambda ls: [x for s in ls for x in s])


# Scripts the checker refuses are filtered out; hypothesis gives up if that is most of them, so the
# property cannot pass by running nothing.
@settings(max_examples=60, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                  HealthCheck.data_too_large])
@given(statements(2, False), st.integers(0, 3))
def test_random_scripts_run_identically_in_both_engines(tmp_path_factory, body, seed):
    path = tmp_path_factory.mktemp("fuzz") / "fuzz.yaml"
    path.write_text(HEAD + "".join(f"  {line}\n" for line in body) + TAIL)
    try:
        rs = load_ruleset(path)
    except RulesetError:
        assume(False)  # the checker refused it (a type error it can prove): nothing runs
    lockstep(rs, 2 + seed % 2, seed, max_decisions=60, narrate=seed < 2)  # quiet games build no log text


LOGGING = """\
meeple: 1
name: Logging
players: {min: 2, max: 2}
flow: |
  s = "{between(1, 100000)}"
  xs = [1, 2]
  log("{player(0)} of {nplayers}")
  tell(player(1), "a secret")
  choose player(0) "Go":
      option "Short":
          log("{s}")
      option "Missing":
          log("{s} {xs[7]}")
      option "Long":
          log("{s}{s}")
scoring:
  score: "0"
"""


@pytest.mark.parametrize("option,fails", [(0, None), (1, "Missing"), (2, "Long")])
def test_a_quiet_game_keeps_no_log_line_but_fails_where_a_narrated_one_would(tmp_path, option, fails):
    # Nobody reads a quiet game's log (simulations, bots' look-ahead), so it keeps none; the holes
    # of a line are still evaluated, and a text past the size limit still fails, in both engines.
    path = tmp_path / "logging.yaml"
    path.write_text(LOGGING)
    rs = load_ruleset(path)
    for cls in (GeneratedGame, ReferenceGame):
        told, quiet = cls.new(rs, 2, 0), cls.new(rs, 2, 0, narrate=False)
        assert len(told.state.log) == 2 and quiet.state.log == []
        outcomes = []
        for g in (told, quiet):
            try:
                g.apply_index(option)
                outcomes.append(None)
            except RuntimeRuleError as e:
                outcomes.append(e.problems[0].message)
        assert outcomes[0] == outcomes[1]
        assert (outcomes[0] is None) == (fails is None)
        assert quiet.state.log == [] and len(told.state.log) == (3 if fails is None else 2)


def test_scoring_reads_p_even_where_no_script_names_it(tmp_path):
    """Bug: the generated engine read `p` in `scoring.score` as a global name, and failed with "`p` is
    not defined", when no script of the ruleset had a local `p` (the bundled games all do)."""
    path = tmp_path / "plain.yaml"
    path.write_text("meeple: 1\nname: Plain\nplayers: {min: 2, max: 2}\ncounters:\n  player: {points: 3}\n"
                    "flow: |\n  pass\nscoring:\n  score: p.points\n  tiebreak: [p.seat]\n")
    game = load_ruleset(path).new_game(2, 1)
    assert game.scores == [3, 3]
    assert game.winners == [1]


# ------------------------------------------------------------------ leaving a chosen option
LEAVING = """\
meeple: 1
name: Leaving
players: {min: 2, max: 2}
counters:
  game: {n: 0, got: 0}
procedures:
  pick:
    do: |
      choose player(1) "Pick":
          option "Give 1":
              return 1
          option "Give 2":
              return 2
          option "Give nothing":
              n += 1
      return 0
flow: |
  while n < 30:
      n += 1
      choose player(n % 2) "Step":
          option "Go on":
              n += 1
          option "Skip a pass":
              continue
          option "Leave the loop":
              break
          option "Ask":
              x = pick()
              got += x
          option "End the game" when n > 20:
              end_game
  got += 100
scoring:
  score: "got"
"""


@pytest.mark.parametrize("seed", range(12))
def test_break_continue_return_and_end_game_leave_a_chosen_option_alike(tmp_path, seed):
    # A chosen body that never waits is run without its frame (decisions.resolve): the frames below
    # unwind as they would from it, in both engines.
    path = tmp_path / "leaving.yaml"
    path.write_text(LEAVING)
    assert lockstep(load_ruleset(path), 2, seed) > 0


# ------------------------------------------------------------------ attribute readers
@pytest.mark.parametrize("name", ["speicherstadt", "merchants", "camel_up_off_season", "demoludy"])
def test_attribute_readers_agree_with_the_reference_for_every_component_and_name(name):
    """Generated code reads `x.name` through a table per name (codegen/tables.py): for every component
    and seat, and every name a ruleset uses plus the fixed properties and a missing name, it must read
    what the reference reads, or fail with the same message, in a game under way (cards face down,
    in hands and slots)."""
    from meeple.errors import RuntimeRuleError
    from meeple.runtime.codegen.tables import attr_reader
    from meeple.runtime.data import Comp, Player
    from meeple.runtime.evaluator import Evaluator

    rs = load_ruleset(name)
    game = rs.new_game(4, 3)
    for _ in range(40):
        if game.is_over:
            break
        game.apply_index(0, game.deciders[0])
    ev = Evaluator(rs, game.state)
    names = {"name", "kind", "id", "owner", "zone", "facedown", "seat", "number", "no_such_thing"}
    names |= {a for c in rs.components for a in c.attrs} | set(rs.player_counters) | set(rs.player_zones)
    for kind in rs.kinds.values():
        names |= set(kind.counters) | set(kind.slots)
    objects = [Comp(c.id) for c in rs.components] + [Player(i) for i in range(4)]

    def outcome(read, *args):
        try:
            return "value", read(*args)
        except RuntimeRuleError as e:
            return "error", str(e)

    checked = 0
    for attr in sorted(names):
        reader = attr_reader(rs, attr)
        for o in objects:
            want = outcome(ev.attribute, o, attr, None)
            got = outcome(reader, ev, o, None)
            assert got == want and type(got[1]) is type(want[1]), (attr, o)
            checked += want[0] == "value"
    assert checked > 100


DEEP = """\
meeple: 1
name: Deep
players: {min: 2, max: 2}
counters:
  game: {total: 0}
procedures:
  bump:
    params: [k]
    do: |
      total += max([k, count([k])])
  down:
    params: [k]
    do: |
      bump(k)
      down(k + 1)
flow: |
  down(1)
scoring:
  score: total
"""


def test_a_procedure_that_calls_nothing_still_fails_past_the_depth_limit_as_the_reference(tmp_path):
    # Generated code keeps no depth in a procedure that calls no procedure (nothing in it reads it; its
    # built-ins call nothing), but still refuses to enter one past the limit: here `bump`, called one
    # level deeper than `down` each time.
    path = tmp_path / "deep.yaml"
    path.write_text(DEEP)
    rs = load_ruleset(path)
    failures = []
    for cls in (GeneratedGame, ReferenceGame):
        with pytest.raises(RuntimeRuleError) as e:
            cls.new(rs, 2, 0)
        failures.append([(p.message, p.span) for p in e.value.problems])
    assert failures[0] == failures[1] and "deep" in failures[0][0][0]


EXTREMES = """\
meeple: 1
name: Extremes
players: {min: 2, max: 2}
constants:
  words: ["b", "a"]
counters:
  game: {total: 0}
flow: |
  xs = [3, 1, 2]
  total += min([xs[0], xs[-1]]) + max([xs[1], 4]) + min(xs) + max(xs) + xs[-3]
  total += count([w for w in [min(words), max(words), max([words[0], words[1]])] if w == "b"])
  total += 1 if max([true, false]) else 0
  total += min([total, xs[%s]])
scoring:
  score: total
"""


@pytest.mark.parametrize("index", ["2", "-3", "-4", "3"])
def test_min_max_of_two_and_list_indexes_end_as_in_the_reference(tmp_path, index):
    # Two numbers are compared inline, a list of numbers by Python's own min/max, and a list indexed
    # inline; strings, booleans and indexes out of range go to the built-ins (and their errors).
    path = tmp_path / "extremes.yaml"
    path.write_text(EXTREMES % index)
    rs = load_ruleset(path)
    ends = [outcome(lambda cls=cls: cls.new(rs, 2, 0, narrate=False).scores) for cls in (GeneratedGame, ReferenceGame)]
    assert ends[0] == ends[1]
    assert ends[0][0] == ("ok" if index in ("2", "-3") else "error")


MOVING = """\
meeple: 1
name: Moving
players: {min: 2, max: 2}
counters:
  game: {total: 0}
zones:
  game:
    pool: {visibility: public}
    pile: {visibility: public}
components:
  token:
    items:
      - {id: a, name: A, value: 1}
      - {id: b, name: B, value: 2}
      - {id: c, name: C, value: 3}
procedures:
  take:
    params: [c]
    do: |
      move(c, pile)
      return c.value
  listed:
    params: [c]
    do: |
      xs = [c]
      if c == none:
          return 0
      return xs
setup: |
  move(components("token"), pool)
flow: |
  shuffle(pool)
  xs = [c.value for c in pool]
  total += sum([c.value * 10 for c in pool if c.value > 1]) + sum(xs)
  total += sum([take(c) for c in pool]) * 100
  total += count(pool) * 1000 + count([c for c in pile]) * 10000
  for c in pile:
      total += c.value * 100000
  for c in pile:
      move(c, pool)
  total += count(pool) * 1000000
scoring:
  score: total
"""


def test_a_loop_that_moves_components_loops_over_a_snapshot_of_the_zone(tmp_path):
    # A comprehension or a `for` that can change nothing loops over the zone's own list; one that calls a
    # procedure or `move` over a copy taken first, as the reference does: every token is moved.
    path = tmp_path / "moving.yaml"
    path.write_text(MOVING)
    rs = load_ruleset(path)
    ends = [cls.new(rs, 2, 0, narrate=False).scores for cls in (GeneratedGame, ReferenceGame)]
    assert ends[0] == ends[1] == [3_000_000 + 600_000 + 30_000 + 600 + 50 + 6] * 2


# ---------------------------------------------------------------- node caches and rulesets that are gone
BUNDLED = sorted(str(p) for d in ("rulesets", "rulesets/variants", "rulesets/reference")
                 for p in (Path(__file__).resolve().parent.parent / d).glob("*.yaml"))


def test_generated_source_does_not_depend_on_the_rulesets_built_before_it():
    # The sub-expressions of a text's holes were cached by id() for every ruleset at once. Once a ruleset
    # was gone, a new node could take the id of one of its holes and be answered with that hole's parts:
    # the generated module then missed expressions, and a narrated game checked what a line mentions
    # (who may read it) with another line's parts. Built alone in a fresh process, and here after every
    # bundled ruleset was built and dropped, each source must be the same.
    script = ("import sys, hashlib\nfrom meeple.runtime.rules import load_ruleset\n"
              "from meeple.runtime.codegen.module import Builder\n"
              "for f in sys.argv[1:]:\n"
              "    print(hashlib.sha256(Builder(load_ruleset(f)).source().encode()).hexdigest())\n")
    alone = subprocess.run([sys.executable, "-c", script, *BUNDLED], capture_output=True, text=True, check=True)
    for _ in range(2):
        for f in BUNDLED:
            Builder(load_ruleset(f)).source()
    here = [hashlib.sha256(Builder(load_ruleset(f)).source().encode()).hexdigest() for f in BUNDLED]
    assert here == alone.stdout.split()


def test_a_holes_parts_are_never_another_nodes():
    from meeple.runtime.render import subnodes

    rs = load_ruleset(BUNDLED[0])
    a, b = parse_expr("x.name", plain_origin("<a>")), parse_expr("y + z", plain_origin("<b>"))
    rs.derived()[("subnodes", id(b))] = (a, subnodes(rs, a))  # as if `b` had taken the id of a node that is gone
    assert [type(n).__name__ for n in subnodes(rs, b)] == ["BinOp", "Name", "Name"]


def test_a_holes_parts_that_read_a_comprehensions_variable_are_not_evaluated_on_their_own():
    # They cannot be: the variable is bound only inside. The comprehension itself is evaluated, and its
    # iterable and the names from outside it are parts of their own.
    from meeple.runtime.render import subnodes

    rs = load_ruleset(BUNDLED[0])
    hole = parse_expr("text([q.name for q in players if q.coins > n]) + text([[r for r in q] for q in zs])",
                      plain_origin("<hole>"))
    parts = [type(x).__name__ + (f" {x.name}" if type(x).__name__ == "Name" else "") for x in subnodes(rs, hole)]
    assert parts == ["BinOp", "Call", "Comp", "Name players", "Name n", "Call", "Comp", "Name zs"]


@pytest.mark.parametrize("name", ["speicherstadt", "merchants", "camel_up_off_season", "demoludy"])
def test_a_narrated_game_makes_no_error_to_find_what_its_log_lines_mention(name, monkeypatch):
    # Found by profiling the OpenSpiel adapter (its games are narrated): Speicherstadt's income line,
    # `{text([q for q in players if q.bought == 0]) ...}`, evaluated `q` and `q.bought` on their own, and
    # each made an error with a search for the name meant (difflib), a tenth of the game's time.
    from meeple.runtime import values

    made = []
    monkeypatch.setattr(values.ValueOps, "fail", lambda self, node, message, hint=None: made.append(message))
    game = load_ruleset(name).new_game(4, 3)
    rng = random.Random(3)
    while not game.is_over:
        seat = game.deciders[0]
        game.apply_index(rng.randrange(game.num_actions(seat)), seat)
    assert game.state.log and made == []


@pytest.mark.parametrize("expr,flat", [
    ("index_of([1, 2], 2)", True), ("abs(-3)", True), ("text([1, 2])", True), ("zone_of(first(pool))", True),
    ("min([3, 1])", True), ("max([c for c in pool], first(pool))", True), ("max([[1], [2]])", False),
    ("min(xs)", False), ("max([1, 2], [3])", False), ("take(first(pool))", True), ("listed(first(pool))", False),
])
def test_which_calls_are_known_never_to_make_a_list_or_a_map(tmp_path, expr, flat):
    # Generated code leaves out the size check of a new list whose items are all flat (kinds.py): a call
    # is flat only if the built-in can return no list or map (`min`/`max` return an item or the default),
    # or the procedure returns nothing but flat values.
    path = tmp_path / "moving.yaml"
    path.write_text(MOVING)
    rs = load_ruleset(path)
    node = parse_expr(expr, plain_origin("<e>"))
    assert Flatness(rs).flat(node, set(), lambda x: x == "xs") is flat
    game = ReferenceGame.new(rs, 2, 0, narrate=False)
    value = game._query(game._ev.eval, node, {"xs": [[1]]})
    assert not flat or type(value) not in (list, dict)


@pytest.mark.parametrize("name", ["speicherstadt", "merchants", "camel_up_off_season", "demoludy"])
def test_a_view_evaluates_nothing_through_the_reference_tree_walker(name, monkeypatch):
    # Views are what observations (PettingZoo, OpenSpiel) and the web send at every turn: a kind's
    # status, read for each of its components, was evaluated by the tree-walker (a PettingZoo game of
    # Speicherstadt then ran at 1.6 games/s; 6.7 since).
    from meeple.runtime.evaluator import Evaluator

    rs = load_ruleset(name)
    g = rs.new_game(4, 3)
    rng = random.Random(3)
    for _ in range(60):
        if g.is_over:
            break
        g.apply_index(rng.randrange(g.num_actions(g.deciders[0])), g.deciders[0])
    walked = []
    real = Evaluator.eval
    monkeypatch.setattr(Evaluator, "eval", lambda self, node, scope: walked.append(node) or real(self, node, scope))
    for seat in (None, -1, 0, 1, 2, 3):
        g.view(seat)
    assert walked == []


def test_the_generated_modules_key_covers_the_analysis_of_what_runs_as_frames(monkeypatch):
    # Which statements run as frames (checker/suspension.py) shapes the generated stretches: a changed
    # analysis must not reuse a module generated under the old one (found in review).
    from meeple.runtime.codegen import cache

    seen = []
    monkeypatch.setattr(cache, "files_digest", lambda files, root: seen.extend(files) or "x")
    cache.generator_version.cache_clear()
    try:
        cache.generator_version()
    finally:
        cache.generator_version.cache_clear()
    names = {f.name for f in seen}
    assert {"suspension.py", "prefix.py", "render.py", "resume.py", "starts.py"} <= names
