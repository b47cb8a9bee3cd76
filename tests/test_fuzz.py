"""Fuzzing the whole pipeline: mutated rulesets must be cleanly invalid, or play.

Each mutant of a bundled ruleset (structural mutations of the YAML, as in test_mutations.py, and
script-level ones: endless loops around decisions, recursion, huge numbers and sizes, wrong types)
either fails validation with located problems, or its games end, or stop with a rules error located
in a ruleset file, within a budget of decisions, with labels, views and saves built on the way. A hang
or any Python exception fails the test.

CI runs about a hundred derandomized mutants (each is a full validation); `pytest --long tests/test_fuzz.py` (or MEEPLE_LONG=1)
runs thousands and prints what the mutants did.
"""

from __future__ import annotations

import random
import shutil
import tempfile
from collections import Counter
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from meeple.errors import MeepleError, RulesetError, RuntimeRuleError
from meeple.runtime.game import Game
from meeple.runtime.rules import load_ruleset

from tests.support import examples, record
from tests.test_mutations import MUTATIONS, SOURCES

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(name for name in SOURCES if "/" not in name)
OUTCOMES: Counter = Counter()  # what the mutants did; conftest prints it after a --long run
STEP_BUDGET = 100_000  # per decision, lowered from the default so that runaway mutants stop quickly
DECISIONS = 250

# Statements inserted into scripts. `{proc}` is the procedure the script belongs to (recursion), `{ind}`
# the indentation of the line they are inserted before.
HAZARDS = [
    "while true:\n{ind}    pass",
    "while true:\n{ind}    if false:\n{ind}        choose players[0] \"Never\":\n{ind}            option \"A\": pass",
    "repeat 1000000000000:\n{ind}    pass",
    "{proc}",
    "zz = -first([])",
    "zz = {{[1]: 2}}",
    "zz = [0] * 1000000000",
    "zz = between(0, 10000000000)",
    "zz = 2\n{ind}repeat 80:\n{ind}    zz = zz * zz",
    "zz = \"ab\"\n{ind}repeat 40:\n{ind}    zz = \"{{zz}}{{zz}}\"",
    "zz = zone_of(first([]))",
    "zz = sorted([1, \"a\"])",
    "zz = 1 // 0",
    "zz = [[y for y in between(1, 3000)] for w in between(1, 3000)]",
    "end_game",
    "break",
    "return 0",
    "fail(\"fuzz\")",
    "zz = players[0] + 1",
    "zz = first(players).no_such_counter",
    "log([first(players)] * 100000)",
]
PROC_CALL = ["{name}({args})", "zz = {name}({args})"]


def scripts(data: dict) -> list[tuple[tuple, str]]:
    """(path, script) for every script of a ruleset's data: setup, flow, phases, procedures, handlers."""
    out = []

    def walk(x, path):
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, path + (k,))
        elif isinstance(x, list):
            for i, v in enumerate(x):
                walk(v, path + (i,))
        elif isinstance(x, str) and path and (
                path[0] in ("setup", "flow", "final", "phases") or path[-1] == "do" or "on" in path[-3:-1]):
            out.append((path, x))

    walk(data, ())
    return out


def pick_line(data: dict, r: random.Random) -> tuple[tuple, list[str], int, str] | None:
    """A random script, its lines, one line that starts a statement, and that line's indent."""
    found = scripts(data)
    if not found:
        return None
    path, text = r.choice(found)
    lines = text.split("\n")
    spots = [i for i, ln in enumerate(lines) if ln.strip() and not ln.strip().startswith(("else", "elif", "option"))]
    if not spots:
        return None
    i = r.choice(spots)
    return path, lines, i, lines[i][: len(lines[i]) - len(lines[i].lstrip())]


def insert_statement(data: dict, r: random.Random) -> None:
    """Insert a hazard (or a call to a random procedure, possibly the enclosing one) before a line."""
    picked = pick_line(data, r)
    if picked is None:
        return
    path, lines, i, ind = picked
    procs = data.get("procedures") if isinstance(data.get("procedures"), dict) else {}
    proc = path[1] if path[0] == "procedures" else (r.choice(sorted(procs)) if procs else None)
    hazard = r.choice(HAZARDS + PROC_CALL * 3)
    if "{name}" in hazard or hazard == "{proc}":
        if proc is None:
            return
        params = procs[proc].get("params") if isinstance(procs.get(proc), dict) else []
        params = params if isinstance(params, list) else []  # a structural mutation may have broken them
        args = ", ".join(r.choice(["1", "players[0]", "none", "[]"]) for _ in params)
        hazard = (hazard if hazard != "{proc}" else r.choice(PROC_CALL)).format(name=proc, args=args)
    lines.insert(i, ind + hazard.format(ind=ind, proc=proc))
    _set(data, path, "\n".join(lines))


def wrap_in_loop(data: dict, r: random.Random) -> None:
    """Put a line (and the block it opens) inside `while true:` or `repeat N:`."""
    picked = pick_line(data, r)
    if picked is None:
        return
    path, lines, i, ind = picked
    j = i + 1
    while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > len(ind)):
        j += 1
    head = r.choice(["while true:", "repeat 1000000:", "for zq in between(1, 100000):"])
    lines[i:j] = [ind + head] + ["    " + ln if ln.strip() else ln for ln in lines[i:j]]
    _set(data, path, "\n".join(lines))


def change_number(data: dict, r: random.Random) -> None:
    """Replace a number in a script by an extreme one."""
    found = [(p, t) for p, t in scripts(data) if any(c.isdigit() for c in t)]
    if not found:
        return
    path, text = r.choice(found)
    digits = [i for i, c in enumerate(text) if c.isdigit() and (i == 0 or not text[i - 1].isalnum())]
    if not digits:
        return
    i = r.choice(digits)
    j = i
    while j < len(text) and text[j].isdigit():
        j += 1
    new = r.choice(["0", "-1", "1000000000", "9007199254740991", "99999999999999999999"])
    _set(data, path, text[:i] + new + text[j:])


def _set(data: dict, path: tuple, value: str) -> None:
    for k in path[:-1]:
        data = data[k]
    data[path[-1]] = value


SCRIPT_MUTATIONS = [insert_statement, insert_statement, wrap_in_loop, change_number]


class FuzzGame(Game):
    __slots__ = ()
    max_steps = STEP_BUDGET


def play(rs, seed: int) -> str:
    """One random game of a valid mutant; what happened."""
    rng = random.Random(seed)
    players = rs.min_players if rs.min_players > 1 else min(2, rs.max_players)
    try:
        g = FuzzGame.new(rs, players, seed)
        for n in range(DECISIONS):
            if g.is_over:
                break
            if n % 10 == 0:
                g.legal_actions()
                g.view(n % players)
                Game.from_json(rs, g.to_json())
            g.apply_index(rng.randrange(g.num_actions()))
        if g.is_over:
            g.scores, g.winners  # noqa: B018 - ranking is part of playing
            g.view(0)
            return "ended"
        return "budget"
    except RuntimeRuleError as e:
        for p in e.problems:
            assert p.span is not None and Path(p.span.file).suffix == ".yaml", str(e)
        return "located error"


def check_mutant(name: str, structural: list, script_level: list, seed: int) -> str:
    r = random.Random(seed)
    text = SOURCES[name]
    for op in structural:
        text = op(text, r) if text else text
    if script_level:
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError:
            data = None
        if isinstance(data, dict):
            for op in script_level:
                op(data, r)
            text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    tree = Path(tempfile.mkdtemp(prefix="fuzz"))
    try:
        for rel, source in SOURCES.items():
            (tree / rel).parent.mkdir(parents=True, exist_ok=True)
            (tree / rel).write_text(text if rel == name else source, encoding="utf-8")
        try:
            rs = load_ruleset(tree / name, allow=[tree])
        except RulesetError as e:
            assert e.problems and all(p.span is not None for p in e.problems), str(e)
            return "invalid"
        except MeepleError:
            return "not a ruleset"
        return play(rs, seed)
    finally:
        shutil.rmtree(tree, ignore_errors=True)


def test_fuzzed_rulesets_are_cleanly_invalid_or_play_within_a_budget():
    @settings(max_examples=examples(40, 1000), derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(name=st.sampled_from(GAMES),
           structural=st.lists(st.sampled_from(MUTATIONS), max_size=1),
           script_level=st.lists(st.sampled_from(SCRIPT_MUTATIONS), min_size=1, max_size=3),
           seed=st.integers(0, 2**32 - 1))
    def run(name, structural, script_level, seed):
        record(OUTCOMES, check_mutant(name, structural, script_level, seed))

    run()


@pytest.mark.parametrize("op", SCRIPT_MUTATIONS[1:], ids=lambda f: f.__name__)
def test_each_script_mutation_on_each_game(op):
    for name in GAMES:
        record(OUTCOMES, check_mutant(name, [], [op], 1))
