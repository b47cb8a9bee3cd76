"""A menu that mixes its own options with options that components add (`options ... from`).

Generated code resolves a chosen option of the menu itself in one function (`RV_<k>`, codegen/resume.py):
its values bound, its body run, the rest of the script after the `choose`. An option a component adds
is put on the frame machine's stack as `decisions.resolve` puts it (its body under a CALL frame, in the
component's scope). Both engines play this ruleset from the same seeds and must agree at every step:
own options that break out of the loop, continue it or wait for another decision, component options
that move cards, return early, fail, or wait for a decision themselves.
"""

import pytest
from support import load_text
from test_differential import GeneratedGame, ReferenceGame, lockstep, outcome, snapshot

RULESET = """\
meeple: 1
name: Mixed menus
events: [turn]
players: {min: 2, max: 3}
counters:
  player: {points: 0, turns: 0}
zones:
  game: {deck: {}, pile: {}}
  player: {hand: {}}
components:
  card:
    items:
      - id: plain
        name: Plain
        value: 1
        count: 4
        options:
          turn: |
            option "Play {self.name} for {self.value}":
                move(self, pile)
                owner.points += self.value
      - id: early
        name: Early
        value: 2
        count: 2
        options:
          turn: |
            option "Keep {self.name} or score {k}" for k in [1, 2]:
                if k == 1:
                    return
                owner.points += k
                move(self, pile)
      - id: asking
        name: Asking
        value: 3
        count: 2
        options:
          turn: |
            option "Ask with {self.name}":
                move(self, pile)
                choose owner "How many":
                    option "One":
                        owner.points += 1
                    option "Three":
                        owner.points += 3
      - id: broken
        name: Broken
        value: 0
        count: 1
        options:
          turn: |
            option "Break {self.name}" when owner.points > 6:
                owner.points += first(pile).value * [1]
setup: |
  move(components("card"), deck)
  shuffle(deck)
  for p in players:
      draw(3, deck, p.hand)
flow: |
  while count(deck) > 0 or any(count(p.hand) > 0 for p in players):
      for p in players:
          p.turns += 1
          while true:
              choose p "Your turn":
                  option "Draw" when count(deck) > 0:
                      draw(1, deck, p.hand)
                      break
                  option "Score {x}" for x in [1, 2] when p.points < 5:
                      p.points += x
                      continue
                  options turn from p.hand
                  option "Pass":
                      break
              if count(p.hand) == 0:
                  break
      if max([q.turns for q in players]) > 12:
          end_game
scoring:
  score: p.points
"""


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    return load_text(tmp_path_factory.mktemp("mixed"), "mixed", RULESET)


@pytest.mark.parametrize("narrate", [True, False], ids=["narrated", "quiet"])
@pytest.mark.parametrize("seed", range(12))
def test_mixed_menus_play_as_the_reference(mixed, seed, narrate):
    assert lockstep(mixed, 2 + seed % 2, seed, narrate=narrate) > 0


def test_the_menu_has_a_generated_resolver_for_its_own_options(mixed):
    g = GeneratedGame.new(mixed, 2, 1)
    frame = g.state.stack[-1]
    assert g._ev.resolvers.get(id(frame[1])) is not None


def test_every_option_of_the_first_menu_ends_as_the_reference(mixed):
    """Each option of the first decision, own or added, chosen in turn from the same position."""
    n = GeneratedGame.new(mixed, 2, 3).num_actions(0)
    for i in range(n):
        games = [cls.new(mixed, 2, 3) for cls in (GeneratedGame, ReferenceGame)]
        results = [outcome(lambda g=g, i=i: g.apply_index(i, 0)) for g in games]
        assert results[0] == results[1]
        assert snapshot(games[0]) == snapshot(games[1])
