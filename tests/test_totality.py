"""The engine is total: a ruleset that validates either plays, or stops with a rules error located in its
own file. It never hangs (every path counts against the step budget), never exhausts memory (lists,
strings, ranges and numbers are bounded) and never lets a Python exception out.

Each script below once hung or crashed the engine. Both evaluators must keep the guarantee, so every case
runs with the compiled evaluator (the default) and with the reference one.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from meeple.errors import MeepleError, RulesetError, RuntimeRuleError
from meeple.runtime.evaluator import Evaluator
from meeple.runtime.game import Game
from meeple.runtime.rules import load_ruleset

TEMPLATE = """\
meeple: 1
name: Total
players: {{min: 2, max: 2}}
counters:
  player: {{points: 0}}
  game: {{total: 0}}
procedures:
  helper:
    params: [n]
    do: |
{procs}
flow: |
{flow}
scoring:
  score: {score}
"""


class ReferenceGame(Game):
    __slots__ = ()
    evaluator_class = Evaluator


# The budget is counted on every path whatever its size; a smaller one keeps these tests quick.
class QuickGame(Game):
    __slots__ = ()
    max_steps = 100_000


class QuickReferenceGame(ReferenceGame):
    __slots__ = ()
    max_steps = 100_000


EVALUATORS = {"compiled": QuickGame, "reference": QuickReferenceGame}


def write(tmp_path: Path, flow: str, procs: str = "return n", score: str = "p.points") -> Path:
    path = tmp_path / "total.yaml"
    path.write_text(TEMPLATE.format(flow=textwrap.indent(textwrap.dedent(flow), "  "),
                                    procs=textwrap.indent(textwrap.dedent(procs), "      "), score=score))
    return path


def outcome(path: Path, cls: type[Game], decisions: int = 200) -> str:
    """'invalid' (refused at validation), 'played' (ended or still deciding), or 'error' (a located rules
    error); anything else (a hang, a Python exception) fails the test."""
    try:
        rs = load_ruleset(path)
    except RulesetError as e:
        assert all(p.span is not None and Path(p.span.file) == path for p in e.problems), e
        return "invalid"
    try:
        g = cls.new(rs, 2, 1)
        for _ in range(decisions):
            if g.is_over:
                break
            g.legal_actions()
            g.view(0)
            g.apply_index(0)
        assert len(g.scores) == 2 and g.winners
        g.to_json()
    except RuntimeRuleError as e:
        [p] = e.problems
        assert p.span is not None and Path(p.span.file) == path, str(e)
        lines = path.read_text().splitlines()
        assert 1 <= p.span.line <= len(lines), str(e)
        return "error"
    return "played"


CRASHES = {
    "negate none": "x = -first([])",
    "list as map key": "m = {[1]: 2}",
    "list as map key, assigned": "m = {}\nm[[1]] = 2",
    "zone of none": "z = zone_of(first([]))",
    "huge range": "x = between(0, 10000000000)",
    "huge list": "x = [0] * 1000000000",
    "huge string": "x = \"ab\" * 1000000000",
    "number squared forever": "x = 2\nrepeat 100:\n    x = x * x",
    "number doubled forever": "x = 1\nrepeat 100:\n    x = x + x",
    "counter doubled forever": "repeat 100:\n    total += total + 1",
    "string doubled forever": "x = \"ab\"\nrepeat 100:\n    x = x + x",
    "text doubled forever": "x = \"ab\"\nrepeat 100:\n    x = \"{x}{x}\"",
    "list doubled forever": "x = [1]\nrepeat 100:\n    x += x",
    "flattened copies": "x = between(1, 1000)\nx = flatten([x] * 2000)",
    "score gained forever": "repeat 100:\n    gain(players[0].points, 4000000000000000)",
    "recursion": "helper(1)",
    "sorted mixed": "x = sorted([1, \"a\", none])",
    "index with a list": "m = {1: 2}\nx = m[[1]]",
    # Shared lists: tiny in memory, but a copy, a save or a label writes each out in full.
    "a list of itself, doubled": "x = [1]\nrepeat 40:\n    x = [x, x]",
    "a list of itself, concatenated": "x = [[1]]\nrepeat 40:\n    x = x + x",
    "a map of itself, doubled": "x = {1: 1}\nrepeat 40:\n    x = {1: x, 2: x}",
    "nested a thousand deep": "x = [1]\nrepeat 1000:\n    x = [x]",
    "repeated big lists": "L = between(1, 100000)\nx = [L] * 1000",
    "a comprehension of big lists": "L = between(1, 100000)\nx = [L for i in between(1, 100)]",
}


@pytest.mark.parametrize("cls", EVALUATORS.values(), ids=EVALUATORS.keys())
@pytest.mark.parametrize("flow", CRASHES.values(), ids=CRASHES.keys())
def test_scripts_that_crashed_the_engine_stop_with_a_located_error(tmp_path, flow, cls):
    procs = "return helper(n + 1)" if "helper" in flow else "return n"
    assert outcome(write(tmp_path, flow, procs), cls) in ("invalid", "error")


@pytest.mark.parametrize("cls", EVALUATORS.values(), ids=EVALUATORS.keys())
@pytest.mark.parametrize("flow", ["m = [0]\nm[0] = m", "m = {}\nm[1] = m\nm[2] = m"])
def test_a_list_or_map_set_into_itself_holds_a_copy(tmp_path, flow, cls):
    """These once made a list that holds itself (a located error); lists and maps are values now, so
    the entry holds the old value: `[[0]]`, `{1: {}, 2: {1: {}}}`."""
    assert outcome(write(tmp_path, flow, "return n"), cls) == "played"


HANGS = {
    "while around a choose never reached": """\
        while true:
            if total < 0:
                choose players[0] "Pick":
                    option "A": pass""",
    "nested comprehensions": "L = between(1, 100000)\nx = [[y for y in L] for z in L]",
    "repeat a huge number of times": "repeat 1000000000000:\n    total = 1",
    "menu of a huge product": """\
        L = between(1, 100000)
        choose players[0] "Pick":
            option "{a} {b}" for a in L for b in L: pass""",
}


@pytest.mark.parametrize("cls", EVALUATORS.values(), ids=EVALUATORS.keys())
@pytest.mark.parametrize("flow", HANGS.values(), ids=HANGS.keys())
def test_loops_that_hung_the_engine_stop_at_the_step_budget(tmp_path, flow, cls):
    assert outcome(write(tmp_path, flow), cls) == "error"


@pytest.mark.parametrize("cls", EVALUATORS.values(), ids=EVALUATORS.keys())
def test_a_procedure_that_asks_and_calls_itself_stops_or_is_refused(tmp_path, cls):
    procs = """\
        if n < 0:
            choose players[0] "Pick":
                option "A": pass
        helper(n + 1)"""
    assert outcome(write(tmp_path, "helper(1)", procs), cls) in ("invalid", "error")


def test_the_default_budget_stops_a_loop_that_never_decides(tmp_path):
    assert outcome(write(tmp_path, HANGS["while around a choose never reached"]), Game) == "error"


@pytest.mark.parametrize("cls", EVALUATORS.values(), ids=EVALUATORS.keys())
def test_a_budget_is_per_decision_so_long_games_are_not_cut_short(tmp_path, cls):
    """Each decision gets the whole budget: a game whose turns each do real work plays on."""
    flow = """\
        repeat 5:
            x = [y for y in between(1, 60000)]
            choose players[0] "Go on":
                option "Yes": total += 1"""
    path = write(tmp_path, flow)
    g = cls.new(load_ruleset(path), 2, 1)
    while not g.is_over:
        g.apply_index(0)
    assert g.evaluate("total") == 5


@pytest.mark.parametrize("cls", EVALUATORS.values(), ids=EVALUATORS.keys())
def test_scores_that_cannot_be_ranked_are_a_located_error(tmp_path, cls):
    path = write(tmp_path, "total = 1", score="none if p.seat == 0 else 1")
    assert outcome(path, cls) in ("invalid", "error")


def test_evaluate_is_guarded_too(tmp_path):
    g = load_ruleset(write(tmp_path, "total = 1")).new_game(2, 1)
    for expr in ["-none", "{[1]: 1}", "[0] * 10000000000", "zone_of(1)", "sorted([1, 'a'])"]:
        with pytest.raises(MeepleError):
            g.evaluate(expr)


def test_evaluate_holds_nothing_per_call():
    """Expressions parsed on the fly are used once: evaluating many of them must not grow memory."""
    import gc
    import tracemalloc

    g = load_ruleset("speicherstadt").new_game(3, 1)
    for _ in range(50):
        g.evaluate("count(players) + sum([1, 2, 3])")
    tracemalloc.start()
    try:
        gc.collect()  # an evaluator holds cycles (its dispatch tables): count only what stays reachable
        before = tracemalloc.take_snapshot()
        for _ in range(200):
            g.evaluate("count(players) + sum([1, 2, 3])")
        gc.collect()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
    assert grown < 50_000, f"{grown:,} bytes kept by 200 calls"
