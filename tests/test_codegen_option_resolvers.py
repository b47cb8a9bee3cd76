"""A menu of its own options only is resolved by one generated function per option (codegen/resume.py).

`RV_<k>_<i>` binds option i's values in the scope, runs its body in the same function when the body
never waits (or pushes it and starts it when it does), then goes on with the stretch after the
`choose`. Both engines play this ruleset from the same seeds and must agree at every step: options
bound to several values, bodies that change their own option variables (read again after the `choose`),
that break out of or continue a loop, return from a procedure that waits, end the game, fail at run time,
wait for another decision, or do nothing but bind their values.
"""

import pytest
from support import load_text
from test_differential import GeneratedGame, ReferenceGame, lockstep, outcome, snapshot

RULESET = """\
meeple: 1
name: Option resolvers
players: {min: 2, max: 3}
counters:
  game: {rounds: 0}
  player: {points: 0, marks: []}
procedures:
  ask:
    params: [p]
    do: |
      choose p "Ask":
          option "Return {n}" for n in [1, 2]:
              if n == 2:
                  return n * 10
              p.points += n
          option "Nothing":
              p.marks += ["nothing"]
      return 0
flow: |
  while rounds < 6:
      rounds += 1
      for p in players:
          while true:
              choose p "Your turn":
                  option "Add {a} and {b}" for a in [1, 2] for b in [3, 4] when a + b < p.points + 7:
                      p.points += a * b
                      a = a + b
                      break
                  option "Mark {m}" for m in ["x", "y"]:
                      p.marks += [m]
                      m = m + "!"
                      continue
                  option "Keep {k}" for k in [5]:
                      skip = k
                  option "Ask":
                      got = ask(p)
                      p.points += got
                      break
                  option "Wait then {w}" for w in [1]:
                      choose p "Sure?":
                          option "Yes":
                              p.points += w
                          option "No":
                              p.points -= w
                  option "Fail" when p.points > 20:
                      p.points += p.points // (rounds - rounds)
                  option "Stop" when rounds > 4:
                      end_game
              if count(p.marks) > 6:
                  break
          repeat 2:
              choose p "Again?":
                  option "Leave {n}" for n in [1, 2]:
                      if n == 2:
                          p.points += 1
                          break
                      p.marks += ["stay"]
                  option "Stay":
                      p.points += 0
          p.points += 1
          if p.points > 40:
              p.points = 0
  rounds = rounds
scoring:
  score: p.points
"""


@pytest.fixture(scope="module")
def menus(tmp_path_factory):
    return load_text(tmp_path_factory.mktemp("menus"), "menus", RULESET)


@pytest.mark.parametrize("narrate", [True, False], ids=["narrated", "quiet"])
@pytest.mark.parametrize("seed", range(16))
def test_menus_of_own_options_play_as_the_reference(menus, seed, narrate):
    assert lockstep(menus, 2 + seed % 2, seed, narrate=narrate) > 0


def test_each_option_has_its_own_generated_resolver(menus):
    g = GeneratedGame.new(menus, 2, 1)
    frame = g.state.stack[-1]
    resolvers = g._ev.resolvers.get(id(frame[1]))
    assert type(resolvers) is tuple and len(resolvers) == len(frame[1].items)


def test_every_option_of_the_first_menu_ends_as_the_reference(menus):
    """Each option of the first decision chosen in turn from the same position, then one more decision."""
    n = GeneratedGame.new(menus, 2, 3).num_actions(0)
    for i in range(n):
        games = [cls.new(menus, 2, 3) for cls in (GeneratedGame, ReferenceGame)]
        results = [outcome(lambda g=g, i=i: g.apply_index(i, 0)) for g in games]
        assert results[0] == results[1]
        assert snapshot(games[0]) == snapshot(games[1])
        if not games[1].is_over:
            seat = games[1].deciders[0]
            results = [outcome(lambda g=g, s=seat: g.apply_index(g.num_actions(s) - 1, s)) for g in games]
            assert results[0] == results[1]
            assert snapshot(games[0]) == snapshot(games[1])


def test_a_break_out_of_a_loop_frame_needs_no_pass_of_the_machine(menus, monkeypatch):
    """An option whose body breaks out of the loop its `choose` is the body of ("Add ...") pops the
    loop's frames and runs the rest of the block itself, as the machine would after `BreakSig`."""
    import meeple.runtime.machine as M

    games = [cls.new(menus, 2, 5) for cls in (GeneratedGame, ReferenceGame)]
    labels = [a["label"] for a in games[0].legal_actions(0)]
    i = next(j for j, label in enumerate(labels) if label.startswith("Add"))
    passes = []
    run = M.run
    monkeypatch.setattr(M, "run", lambda ev, direct=None: passes.append(1) or run(ev, direct))
    games[0].apply_index(i, 0)
    assert passes == []
    monkeypatch.undo()
    games[1].apply_index(i, 0)
    assert snapshot(games[0]) == snapshot(games[1])
