"""A decision of a game with explicit chance runs in the game's own state (runtime/shortcuts.py).

The game keeps a mark (a copy of the state a step started from, every MARK_EVERY decisions, and the
choices made since) in place of a copy before every decision. A step that stops at a random event
rebuilds the state it started from out of the mark. Whatever the game shows must be what the copy
before every decision gave: the same saves (step counts and action logs included), chance outcomes,
actions, views and logs, at every step; with copies of the game, lazy menus, sealed choices and
queries that run rules on the way.
"""

import random

import pytest
from meeple.runtime import game as game_module
from meeple.runtime import shortcuts
from meeple.runtime.rules import load_ruleset
from test_chance_in_place import observed, replaying
from test_differential import RULESETS, GeneratedGame, ReferenceGame

# Random events inside inline code (an `if` in an option's body, a `random_pick`), so that their steps
# are replayed from where they began; sealed choices every round; a score that sets a counter; a log
# line naming cards that only their owner saw, at the step's start (`before`).
MARKS = """\
meeple: 1
name: Marks
players: {min: 2, max: 3}
counters:
  game: {round: 0, roll: 0, n: 0}
  player: {points: 0}
zones:
  game: {deck: {visibility: hidden}}
  player: {hand: {visibility: owner}}
components:
  card:
    items:
      - {id: ace, name: Ace, count: 2}
      - {id: king, name: King}
      - {id: queen, name: Queen}
procedures:
  tally:
    params: [p]
    do: |
      n += 1
      return p.points
setup: |
  move(components("card"), deck)
flow: |
  while round < 12:
      round += 1
      for p in players:
          choose p "Draw?":
              option "Draw":
                  if count(deck) > 0:
                      move(first(deck), p.hand)
              option "Return":
                  hand = list(p.hand)
                  move(p.hand, deck)
                  log("{p.name} puts back {text(hand)}")
                  if count(deck) > 1:
                      shuffle(deck)
              option "Score":
                  p.points += 1
      if round % 4 == 0:
          roll = random_pick([1, 2, 3])
          log("Rolled {roll}")
      simultaneous q in players:
          choose q "Bid":
              option "Low":
                  q.points += 0
              option "High":
                  q.points += 1
scoring:
  score: tally(p)
"""


@pytest.fixture
def rs(tmp_path):
    path = tmp_path / "shortcuts.yaml"
    path.write_text(MARKS)
    return load_ruleset(path)


def play(rs, game_class, players: int, seed: int, *, lazy=False, copies=False, queries=False) -> list[dict]:
    """A whole game with random decisions and outcomes: what it shows at every step. `copies`: the game
    goes on as a copy of itself every few steps, and the game it was copied from plays on its own too;
    `queries`: scores (whose procedure sets a counter) are asked for on the way."""
    g = game_class.new(rs, players, seed, chance="explicit")
    g.state.lazy = lazy
    rng = random.Random(seed)
    seen, others = [], []
    while not g.is_over:
        seen.append(observed(g))
        if copies and rng.random() < 0.2:
            others.append(g)
            g = g.copy()
        if queries and rng.random() < 0.1:
            seen.append(g.scores)
        g.apply_index(rng.randrange(g.num_actions()))
    for o in others:  # the games copies were made of, played on: they share their marks' states
        while not o.is_over:
            o.apply_index(rng.randrange(o.num_actions()))
        seen.append(o.to_json())
    return seen + [observed(g)]


@pytest.mark.parametrize("game_class", [GeneratedGame, ReferenceGame], ids=["generated", "reference"])
@pytest.mark.parametrize("how", ["plain", "lazy", "copies", "queries"])
def test_a_game_with_marks_shows_what_a_copy_before_every_decision_gave(rs, game_class, how, monkeypatch):
    kw = {} if how == "plain" else {how: True}
    fast = [play(rs, game_class, n, seed, **kw) for n in (2, 3) for seed in range(4)]
    with monkeypatch.context() as m:
        replaying(m)
        slow = [play(rs, game_class, n, seed, **kw) for n in (2, 3) for seed in range(4)]
    assert fast == slow


def test_a_random_event_runs_again_at_most_the_steps_since_the_last_mark(rs, monkeypatch):
    # Each rebuild runs the steps since the mark again: none past MARK_EVERY, and the games here make
    # random events both right after a mark and many steps after one.
    runs, rebuilds = [], []
    real_run, real_rebuilt = shortcuts._run, shortcuts._rebuilt
    monkeypatch.setattr(shortcuts, "_run", lambda game, ev, st, opt=None: runs.append(1) or real_run(game, ev, st, opt))

    def rebuilt(game, mark):
        runs.clear()
        b = real_rebuilt(game, mark)
        rebuilds.append(len(runs))
        return b
    monkeypatch.setattr(shortcuts, "_rebuilt", rebuilt)
    monkeypatch.setattr(shortcuts, "MARK_EVERY", 4)
    for seed in range(8):
        play(rs, GeneratedGame, 3, seed)
    assert rebuilds and max(rebuilds) <= 4 and 0 in rebuilds and max(rebuilds) >= 2


def test_a_mark_is_dropped_at_a_chance_node_and_after_a_query_that_ran_rules(rs):
    g = rs.new_game(2, 1, chance="explicit")
    g.apply_index(2)  # P1 scores: the step runs in place, and the game keeps its start
    assert g._mark is not None and g._mark[1] == []
    g.apply_index(2)
    assert g._mark[1] == [[(1, 2)]]
    assert g.scores  # tally(p) sets a counter: the state is no longer what the mark's steps give
    assert g._mark is None
    h = rs.new_game(2, 1, chance="explicit")
    h.apply_index(0)
    h.apply_index(1)  # P2 returns nothing: a deck of four to shuffle, so a chance node
    assert h.is_chance and h._mark is None


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_every_bundled_ruleset_with_marks_on_every_decision_plays_as_with_copies(path, monkeypatch):
    # The bundled games that draw only before their first decision run their steps in place without
    # marks; here every game keeps them, as a game that may draw later does.
    rs = load_ruleset(path)

    def games():
        out = []
        for seed in (1, 2):
            g = GeneratedGame.new(rs, rs.min_players, seed, chance="explicit")
            rng = random.Random(seed)
            for _ in range(150):
                out.append(g.to_json())
                if g.is_over:
                    break
                g.apply_index(rng.randrange(g.num_actions()))
        return out
    with monkeypatch.context() as m:
        m.setattr(game_module, "draws_after_start", lambda rs: True)
        fast = games()
    with monkeypatch.context() as m:
        replaying(m)
        slow = games()
    assert fast == slow


def test_the_toy_exercises_what_it_says(rs):
    # The random events are where the tests above need them: some steps stop at one, most do not.
    stops = 0
    g = rs.new_game(3, 2, chance="explicit")
    rng = random.Random(2)
    while not g.is_over:
        stops += g.is_chance
        g.apply_index(rng.randrange(g.num_actions()))
    assert stops >= 3
