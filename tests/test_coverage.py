"""Rules coverage: what never ran in simulated games, located in the file that defines it."""

import random
from pathlib import Path

import pytest
from meeple.runtime.rules import load_ruleset
from meeple.tools.compare import compare
from meeple.tools.coverage import coverage_report, merge_counts, render_text
from test_variants import BASE  # the small game the variant tests use

# A house rule adding a card whose effect can never fire: its event is never triggered. Its menu
# option is never offered either (the guard is always false).
VARIANT = """\
meeple: 1
extends: base.yaml
events: [eclipse]
components:
  card:
    items:
      z:
        new: true
        name: Z
        value: 0
        on:
          eclipse: score(owner.points, 100)
phases:
  main:
    draw: |
      for p in players:
          choose p "Pick":
              option "Take {c.name}" for c in pile:
                  move(c, p.hand)
              option "Pass":
                  bump(p)
              option "Never" when false:
                  pass
"""


@pytest.fixture
def rulesets(tmp_path):
    (tmp_path / "base.yaml").write_text(BASE)
    (tmp_path / "v.yaml").write_text(VARIANT)
    return load_ruleset(tmp_path / "base.yaml"), load_ruleset(tmp_path / "v.yaml")


def play(rs, games=30):
    out = []
    for seed in range(games):
        g = rs.new_game(2, seed, coverage=True)
        rng = random.Random(seed)
        while not g.is_over:
            g.apply_index(rng.randrange(g.num_actions()))
        out.append(g)
    return out


def test_a_never_firing_effect_is_found_in_the_variant_file(rulesets):
    _, var = rulesets
    rep = coverage_report(var, play(var))
    never = {(u.kind, u.name): u for u in rep.never}
    assert set(never) == {("effect", "z on eclipse"), ("event", "eclipse"), ("option", '"Never"')}
    z = never[("effect", "z on eclipse")]
    assert Path(z.span.file).name == "v.yaml" and z.span.line == 12
    assert never[("option", '"Never"')].span.line == 22
    assert "never ran: effect z on eclipse" in render_text(rep)


def test_everything_of_the_base_runs(rulesets):
    base, _ = rulesets
    rep = coverage_report(base, play(base))
    assert rep.games == 30 and rep.never == []
    counts = {(u.kind, u.name): u.count for u in rep.units}
    assert counts[("phase", "main")] == counts[("step", "main.draw")] == counts[("step", "main.tally")] == 60
    assert counts[("option", '"Take {c.name}"')] > 0
    assert counts[("effect", "a on bonus_time")] > 0 and counts[("event", "bonus_time")] == 60 * 2 // 2
    assert "everything ran" in render_text(rep)


def test_counts_add_up_over_games_states_and_dicts(rulesets):
    base, _ = rulesets
    games = play(base, 5)
    total, n = merge_counts(games)
    assert n == 5 and merge_counts([g.state for g in games]) == (total, 5)
    assert merge_counts([g.state.coverage for g in games]) == (total, 5)
    assert sum(total.values()) == sum(sum(g.state.coverage.values()) for g in games)
    assert merge_counts([base.new_game(2, 0)]) == ({}, 0)  # a game without coverage counts for nothing


def test_compare_reports_coverage_per_ruleset(rulesets):
    base, var = rulesets
    res = compare([base, var], 2, 10, seed=2, workers=1)
    cov = [s["coverage"] for s in res["rulesets"]]
    assert cov[0]["never_ran"] == []
    assert {u["name"] for u in cov[1]["never_ran"]} == {"z on eclipse", "eclipse", '"Never"'}
    assert all(u["file"].endswith("v.yaml") for u in cov[1]["never_ran"])


def test_speicherstadt_effects_all_fire():
    rs = load_ruleset("speicherstadt")
    rep = coverage_report(rs, play_many(rs))
    effects = [u for u in rep.units if u.kind == "effect"]
    assert len(effects) > 30 and all(u.count > 0 for u in effects)


def play_many(rs):
    res = []
    for seed in range(20):
        g = rs.new_game(4, seed, coverage=True)
        rng = random.Random(seed)
        while not g.is_over:
            g.apply_index(rng.randrange(g.num_actions()))
        res.append(g)
    return res
