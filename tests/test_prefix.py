"""A setup's seedless opening (runtime/prefix.py) runs once per player count, and changes no game.

New games start from a copy of what the setup's first statements do when nothing in them draws from
the random generator. Every bundled game must be the same whether those statements ran for it or once
for all: the same save (step count included), log and decisions, by either evaluator.
"""

import random

import pytest
from meeple.errors import RuntimeRuleError
from meeple.runtime import game as game_module
from meeple.runtime.prefix import seedless
from meeple.runtime.rules import load_ruleset
from test_differential import RULESETS, GeneratedGame, ReferenceGame


def _run_each_time(monkeypatch):
    monkeypatch.setattr(game_module, "start_state", lambda *a, **k: None)


def _play_both(monkeypatch, cls, rs, players, seed, narrate, decisions=25):
    once = cls.new(rs, players, seed, narrate=narrate)
    with monkeypatch.context() as m:
        _run_each_time(m)
        each = cls.new(rs, players, seed, narrate=narrate)
    rng = random.Random(seed)
    for _ in range(decisions):
        assert once.to_json() == each.to_json() and once.state.log == each.state.log
        assert once.legal_actions() == each.legal_actions()
        if each.is_over:
            break
        seat = each.deciders[0]
        i = rng.randrange(each.num_actions(seat))
        once.apply_index(i, seat)
        each.apply_index(i, seat)


@pytest.mark.parametrize("path", RULESETS, ids=[p.stem for p in RULESETS])
def test_every_bundled_game_is_the_same_with_its_opening_run_once(monkeypatch, path):
    rs = load_ruleset(path)
    for players in sorted({rs.min_players, rs.max_players}):
        for cls in (GeneratedGame, ReferenceGame):
            for narrate in (False, True):
                _play_both(monkeypatch, cls, rs, players, players + 7, narrate)


OPENING = """\
meeple: 1
name: Opening
players: {min: 2, max: 3}
counters:
  game: {dealt: 0}
  player: {points: 0}
zones:
  game: {deck: {visibility: hidden}, spare: {}}
  player: {hand: {visibility: owner}}
components:
  card:
    items: [{id: a, rank: 1}, {id: b, rank: 2}, {id: c, rank: 3}, {id: d, rank: 4}]
procedures:
  deal_all: |
    move(components("card"), deck)
    dealt += count(deck)
  mix: |
    shuffle(deck)
setup: |
  deal_all()
  top = first(deck)
  log("{top.rank} on top")
  for p in players:
      p.points += 1
  mix()
  move(draw(1, deck, spare), deck)
  dealt += top.rank
flow: |
  choose player(0) "Go":
      option "Take" for c in deck:
          move(c, player(0).hand)
          score(player(0).points, c.rank)
scoring:
  score: p.points
"""


def test_the_opening_ends_at_the_first_statement_that_may_draw_from_the_rng_even_inside_a_procedure(tmp_path):
    path = tmp_path / "opening.yaml"
    path.write_text(OPENING)
    rs = load_ruleset(path)
    assert seedless(rs) == 4  # deal_all(), top = ..., log(...), the loop; mix() shuffles


def test_a_game_reads_the_openings_variables_and_effects_as_if_they_had_run_for_it(tmp_path, monkeypatch):
    path = tmp_path / "opening.yaml"
    path.write_text(OPENING)
    rs = load_ruleset(path)
    for cls in (GeneratedGame, ReferenceGame):
        for seed in range(4):
            g = cls.new(rs, 3, seed)
            assert g.evaluate("dealt") == 5 and g.evaluate("[p.points for p in players]") == [1, 1, 1]
            assert g.state.log[0][0] == -1
            _play_both(monkeypatch, cls, rs, 3, seed, True)


def test_an_opening_that_fails_or_runs_too_long_fails_each_game_as_running_it_would(tmp_path, monkeypatch):
    path = tmp_path / "opening.yaml"
    path.write_text(OPENING.replace("  top = first(deck)\n", "  top = first(deck)\n  fail(\"no deck\")\n"))
    rs = load_ruleset(path)
    for _ in range(2):  # the second game finds the failed opening in the cache
        with pytest.raises(RuntimeRuleError, match="no deck"):
            rs.new_game(2, 1)

    class Short(GeneratedGame):
        __slots__ = ()
        max_steps = 6  # the opening's loop fits, but not with the rest of the first step after it

    path.write_text(OPENING)
    rs = load_ruleset(path)
    with pytest.raises(RuntimeRuleError) as once:
        Short.new(rs, 3, 1)
    with monkeypatch.context() as m:
        _run_each_time(m)
        with pytest.raises(RuntimeRuleError) as each:
            Short.new(rs, 3, 1)
    assert once.value.problems[0].message == each.value.problems[0].message
