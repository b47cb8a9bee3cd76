"""Generated stretches do the frame machine's work (codegen/resume.py): the same games, a shallow stack."""

import sys

import pytest
from meeple.runtime.rules import load_ruleset
from test_differential import GeneratedGame, lockstep

# 120 statements in a row that may wait for a decision but do not (until `n` grows), then a loop of
# 2,000 turns whose body may wait but does not, then decisions that make the statements above wait.
WAITS = 120
ROW = "".join(f'    if n > {i}:\n      choose player({i % 2}) "Row {i}":\n        option "Up":\n          n += 1\n'
              f'        option "Stay":\n          pass\n' for i in range(WAITS))
MANY = f"""\
meeple: 1
name: Many stops
players: {{min: 2, max: 2}}
counters:
  game: {{n: 0, rounds: 0}}
flow: |
  while rounds < 3:
    rounds += 1
{ROW}    for i in between(0, 1999):
      if i == 1999 or n > 200:
        choose player(1) "Turn {{i}}":
          option "Grow":
            n += 3
          option "Keep":
            pass
scoring:
  score: "n"
"""


@pytest.mark.parametrize("seed", range(3))
def test_stretches_that_go_on_run_the_same_games_as_the_reference(tmp_path, seed):
    path = tmp_path / "many.yaml"
    path.write_text(MANY)
    assert lockstep(load_ruleset(path), 2, seed, max_decisions=400) >= 3  # a turn of each round at least


def test_stretches_run_in_a_row_never_nest_deeper_than_a_bound(tmp_path):
    # Each stretch that goes on calls the next one; past 64 in a row (`ev.hops`) the machine takes over,
    # so 120 statements in a row fit in a stack of ~100 frames more than the test's own.
    path = tmp_path / "many.yaml"
    path.write_text(MANY)
    rs = load_ruleset(path)
    rs.new_game(2, 0, narrate=False)  # the module is generated (and cached) outside the low limit
    depth = 0
    frame = sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + 110)
    try:
        game = GeneratedGame.new(rs, 2, 0, narrate=False)
        for _ in range(200):
            if game.is_over:
                break
            game.apply_index(0)
    finally:
        sys.setrecursionlimit(old)
    assert game.state.counters["n"] > WAITS
