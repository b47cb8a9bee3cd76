"""A designer's edit, made at random: a bundled ruleset changed a little is refused with every problem
located, or plays alike in both engines.

A designer changes a line of a ruleset and plays it at once. The bundled rulesets use the language as
designers write it, so small random changes to them reach paths that neither the bundled games nor the
random scripts (test_random_values.py, test_random_flow.py) reach: the real games' procedures, cards and
phases with a comparison turned round, a number, a string or an operator changed, a name swapped for
another name of the same file, a built-in for another, a line deleted, repeated, moved or indented.

A mutant must either be refused when it loads, with every problem placed in the file as `meeple
validate` prints it, or play in lockstep in both engines (test_differential.lockstep: legal actions,
logs, views and saves compared at every step, and saves swapped between the engines on the way).
CI runs 40 mutants; MEEPLE_LONG=1 runs 2,000. The same holds through a house rule: a variant, or the game
under it, changed (20 in CI, 1,000 long). (The fuzz runs this file was written after: 7,120 mutants,
1,896 of them played, none played differently and none was refused without a place.)
"""

import random
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from meeple.errors import MeepleError
from meeple.runtime.codegen import cache
from meeple.runtime.codegen.module import Builder
from support import examples, load_text, record
from test_differential import lockstep

OUTCOMES: Counter = Counter()  # what the mutants did; conftest prints it after a --long run
ROOT = Path(__file__).resolve().parent.parent / "rulesets"
# Whole games; the variants, which name their base, are changed by `variant_mutant`.
BASES = [ROOT / f"{name}.yaml" for name in ("speicherstadt", "merchants", "camel_up_off_season", "demoludy")] \
    + sorted((ROOT / "reference").glob("*.yaml"))
BUILTINS = ["first", "count", "sum", "max", "min", "distinct", "list", "flatten", "sorted", "any", "all", "text",
            "slice"]
NAME = re.compile(r"\b[a-z_][a-z_0-9]*\b")

LineEdit = Callable[[str, random.Random, list[str]], str | None]
Edit = Callable[[list[str], int, random.Random, list[str]], bool]


def swap(pattern: str, choices: Callable[[list[str], str], list[str]]) -> LineEdit:
    """An edit that replaces one match of `pattern` in a line by something else (None if the line has
    no match)."""
    compiled = re.compile(pattern)

    def edit(line: str, rng: random.Random, names: list[str]) -> str | None:
        found = list(compiled.finditer(line))
        if not found:
            return None
        m = rng.choice(found)
        return line[:m.start()] + rng.choice([c for c in choices(names, m.group()) if c != m.group()]) + line[m.end():]
    return edit


def indent(line: str, rng: random.Random, names: list[str]) -> str | None:
    if rng.random() < 0.5:
        return "    " + line
    return line[4:] if line.startswith("    ") else None


IN_A_LINE: list[LineEdit] = [
    swap(r"(?<![\w.])\d+(?![\w.])", lambda names, s: ["0", "1", "2", "3", "7", "-1", "99", "10000000000000000"]),
    swap(r"<=|>=|==|!=|<|>", lambda names, s: ["<", "<=", ">", ">=", "==", "!="]),
    swap(r"\b(?:and|or)\b", lambda names, s: ["and", "or"]),
    swap(r"(?<=\s)[-+*%](?=\s)|//", lambda names, s: ["+", "-", "*", "//", "%"]),
    swap(NAME.pattern, lambda names, s: names),
    swap(r'"[^"{}]*"', lambda names, s: ['""', '"x"', '"{1}"', '"{none}"', s[::-1]]),
    swap(r"\b(?:" + "|".join(BUILTINS) + r")\(", lambda names, s: [b + "(" for b in BUILTINS]),
    indent,
]


def in_line(edit: LineEdit) -> Edit:
    def apply(lines: list[str], i: int, rng: random.Random, names: list[str]) -> bool:
        new = edit(lines[i], rng, names)
        if new is None:
            return False
        lines[i] = new
        return True
    return apply


def delete(lines: list[str], i: int, rng: random.Random, names: list[str]) -> bool:
    del lines[i]
    return True


def repeat(lines: list[str], i: int, rng: random.Random, names: list[str]) -> bool:
    lines.insert(i, lines[i])
    return True


def move_down(lines: list[str], i: int, rng: random.Random, names: list[str]) -> bool:
    if i + 1 >= len(lines) or lines[i] == lines[i + 1]:
        return False
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return True


EDITS: list[Edit] = [in_line(e) for e in IN_A_LINE] + [delete, repeat, move_down]


def mutant(text: str, rng: random.Random) -> str:
    """`text` with one to three random edits, each to a line that is neither blank nor a comment."""
    lines = text.split("\n")
    names = sorted(set(NAME.findall(text)))
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        for _ in range(50):  # until the edit drawn applies to the line drawn
            i = rng.randrange(len(lines))
            if lines[i].strip() and not lines[i].lstrip().startswith("#") and rng.choice(EDITS)(lines, i, rng, names):
                break
    return "\n".join(lines)


def refused_or_played_alike(folder: Path, name: str, text: str, rng: random.Random) -> str:
    """Load the ruleset `text` (as `folder`/NAME.yaml): refused with every problem placed, or played in
    lockstep. Which one."""
    try:
        rs = load_text(folder, name, text)
    except MeepleError as e:
        assert e.problems and all(p.span is not None and p.span.line >= 1 for p in e.problems), e.problems
        return "refused"
    lockstep(rs, rng.randint(rs.min_players, rs.max_players), rng.randrange(2**32), max_decisions=250,
             narrate=rng.random() < 0.5, chance=rng.choice(["seeded", "explicit"]), swap_at=rng.choice([None, 5, 40]))
    return "played"


@settings(max_examples=examples(40, 2000), derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(BASES), st.randoms(use_true_random=False))
def test_a_ruleset_changed_at_random_is_refused_with_its_problems_placed_or_plays_alike_in_both_engines(
        tmp_path_factory, base, rng):
    text = mutant(base.read_text(encoding="utf-8"), rng)
    outcome = refused_or_played_alike(tmp_path_factory.mktemp("mutant"), base.stem, text, rng)
    event(outcome)  # pytest --hypothesis-show-statistics: how many of each
    record(OUTCOMES, f"game {outcome}")


VARIANTS = sorted((ROOT / "variants").glob("*.yaml"))
EXTENDS = re.compile(r"^extends: *(\S+?)(?:\.yaml)? *$", re.MULTILINE)


def variant_mutant(folder: Path, variant: Path, rng: random.Random) -> str:
    """A house rule over a game, one of the two changed at random: the variant's text, naming its base by
    a bundled name, or naming a changed copy of its base written to `folder` as base.yaml."""
    text = variant.read_text(encoding="utf-8")
    base = EXTENDS.search(text)
    assert base is not None, variant
    text = EXTENDS.sub(f"extends: {base.group(1)}", text, count=1)  # a bundled name, found from anywhere
    if rng.random() < 0.5:
        return mutant(text, rng)
    found = [p for p in (ROOT / f"{base.group(1)}.yaml", ROOT / "variants" / f"{base.group(1)}.yaml") if p.is_file()]
    (folder / "base.yaml").write_text(mutant(found[0].read_text(encoding="utf-8"), rng), encoding="utf-8")
    return EXTENDS.sub("extends: base.yaml", text, count=1)


@settings(max_examples=examples(20, 1000), derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(VARIANTS), st.randoms(use_true_random=False))
def test_a_house_rule_or_its_game_changed_at_random_is_refused_with_its_problems_placed_or_plays_alike(
        tmp_path_factory, variant, rng):
    """The same property through the merge of a variant: with a change in the variant, or in the game
    under it, the merged game is refused with every problem placed, or plays alike in both engines."""
    folder = tmp_path_factory.mktemp("variant")
    outcome = refused_or_played_alike(folder, variant.stem, variant_mutant(folder, variant, rng), rng)
    event(outcome)
    record(OUTCOMES, f"house rule {outcome}")


def test_a_house_rule_is_played_over_the_changed_copy_of_its_game(tmp_path):
    """`variant_mutant` changes what is merged: a variant that names the copy reads it, so a problem of the
    copy is placed in it, and the variant's `extends:` says so (were the bundled game read, it would load)."""
    rng = random.Random(0)
    while "base.yaml" not in (text := variant_mutant(tmp_path, ROOT / "variants" / "cheap_port.yaml", rng)):
        pass
    (tmp_path / "base.yaml").write_text("meeple: 1\nname: [\n", encoding="utf-8")
    with pytest.raises(MeepleError) as e:
        load_text(tmp_path, "cheap_port", text)
    assert [(Path(p.span.file).name, p.code) for p in e.value.problems] == [("cheap_port.yaml", "V001"),
                                                                            ("base.yaml", "Y001")]


def test_every_mutant_differs_from_its_ruleset_and_some_load(tmp_path):
    """The edits change the text, and not every mutant is refused, so that the property above plays
    some of them rather than only ever checking refusals."""
    rng = random.Random(7)
    loaded = 0
    for k in range(12):
        text = BASES[k % len(BASES)].read_text(encoding="utf-8")
        changed = mutant(text, rng)
        assert changed != text
        try:
            load_text(tmp_path, f"mutant{k}", changed)
            loaded += 1
        except MeepleError:
            pass
    assert 0 < loaded < 12


class Sabotaged(Builder):
    """A generator with a bug: every `>=` it writes is a `>`."""

    def source(self) -> str:
        return super().source().replace(" >= ", " > ")


def test_the_check_fails_when_the_generated_engine_plays_a_ruleset_differently(tmp_path, monkeypatch):
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path / "cache"))  # the sabotaged module is kept there only
    monkeypatch.setattr(cache, "Builder", Sabotaged)
    text = (ROOT / "speicherstadt.yaml").read_text(encoding="utf-8")  # unchanged: the bug is the generator's
    with pytest.raises(AssertionError, match="step"):
        refused_or_played_alike(tmp_path, "speicherstadt", text, random.Random(1))
