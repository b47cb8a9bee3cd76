"""Observation vectors read from the state are the ones the seat's view encodes.

`Layout.encode(game.view(seat, texts=False))` is the definition of an observation: the view decides what
a seat sees. `Layout.observe(game, seat)` writes the same numbers without building the view (the
PettingZoo and OpenSpiel adapters observe at every step). These tests hold the two equal at every step
of every bundled ruleset and variant, and of a small game made to reach the corners: hidden piles,
face-down cards in a hand and on the table, owner-only slots, and alike copies at one position of alike
slots, which are told apart by their counters.
"""

import random
from pathlib import Path

import pytest
from meeple.runtime.rules import load_ruleset

np = pytest.importorskip("numpy")  # the adapters' extras bring it; `meeple` alone does not need it

from meeple.tools.observe import Layout  # after the skip: it imports NumPy

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((ROOT / "rulesets" / "reference").glob("*.yaml")) \
    + sorted((ROOT / "rulesets" / "variants").glob("*.yaml"))

CORNERS = """\
meeple: 1
name: Corners
players: {min: 2, max: 3}
counters:
  game: {turns: 0, last: none, note: "x", board: [0, 0, 0]}
  player: {points: 0, secret: {initial: 0, visibility: owner}, best: none}
zones:
  game:
    bag: {visibility: hidden}
    table: {}
  player:
    hand: {visibility: owner}
    shelf: {}
components:
  crate:
    slots: {inside: {}, locked: {visibility: owner}}
    items:
      - {id: box, name: box, count: 3}
  stone:
    counters: {shine: 0, tags: []}
    items:
      - {id: gem, name: gem, count: 6}
      - {id: ruby, name: ruby, count: 2}
setup: |
  move(components("stone"), bag)
  shuffle(bag)
  for b in components("crate"):
      move(b, table)
flow: |
  repeat 14:
      for p in players:
          choose p "Do something":
              option "Draw a gem":
                  conceal(draw(1, bag, p.hand))
              option "Put {g.name} in {b.name}" for g in p.hand for b in components("crate"):
                  move(g, b.inside)
              option "Lock {g.name} in {b.name}" for g in p.hand for b in components("crate"):
                  move(g, b.locked)
              option "Shelve a box" for b in table:
                  move(b, p.shelf)
              option "Polish {g.name}" for g in p.hand:
                  g.shine += 1
                  g.tags = g.tags + [turns]
                  reveal(g)
              option "Rub a stone" for g in components("stone"):
                  g.shine += 1
              option "Show off":
                  p.points += 1
                  p.secret += 2
                  board = [turns, p.points, p.secret]
                  p.best = last
                  last = p
                  log("{note}: {p.name} after {p.best}")
          turns += 1
scoring:
  score: p.points
"""


def same_at_every_step(rs, players: int, seed: int) -> int:
    layout = Layout(rs, players)
    g = rs.new_game(players, seed)
    rng = random.Random(seed)
    checked = 0
    while True:
        for seat in range(players):
            want = layout.encode(g.view(seat, texts=False))
            got = layout.observe(g, seat)
            assert got.dtype == want.dtype and got.shape == want.shape
            assert np.array_equal(got, want), f"seat {seat}, cells {np.nonzero(got != want)[0][:8]}"
            checked += 1
        if g.is_over:
            return checked
        g.apply_index(rng.randrange(g.num_actions()))


@pytest.mark.parametrize("path", RULESETS, ids=[p.stem for p in RULESETS])
def test_every_bundled_ruleset_and_variant_observes_what_its_views_encode(path):
    rs = load_ruleset(path)
    assert same_at_every_step(rs, min(4, rs.max_players), seed=3) > 0


@pytest.mark.parametrize("seed", range(6))
def test_hidden_face_down_owner_only_and_alike_copies_observe_what_the_views_encode(tmp_path, seed):
    path = tmp_path / "corners.yaml"
    path.write_text(CORNERS, encoding="utf-8")
    rs = load_ruleset(path)
    assert same_at_every_step(rs, 3, seed) > 0


def test_the_corner_game_reaches_the_corners(tmp_path):
    # The test above is only as good as the positions it meets: alike copies at one position of alike
    # slots with different counters (ordered by them), and face-down gems seen in the owner's hand.
    path = tmp_path / "corners.yaml"
    path.write_text(CORNERS, encoding="utf-8")
    rs = load_ruleset(path)
    met = {"tie by counters": False, "face down in own hand": False}
    for seed in range(6):
        g = rs.new_game(3, seed)
        rng = random.Random(seed)
        while not g.is_over:
            st = g.state
            firsts = [st.zones[f"#{b}.inside"][:1] for b in rs.items["box"]]
            gems = [z[0] for z in firsts if z and rs.components[z[0]].item == "gem"]
            if len({(st.counters[f"#{c}.shine"], tuple(st.counters[f"#{c}.tags"])) for c in gems}) > 1:
                met["tie by counters"] = True
            if any(c in st.facedown for p in range(3) for c in st.zones[f"{p}.hand"]):
                met["face down in own hand"] = True
            g.apply_index(rng.randrange(g.num_actions()))
    assert all(met.values()), met


def test_a_wrong_observation_is_caught(tmp_path, monkeypatch):
    # The comparison can fail: an observer that sees every zone (another seat's hand, the bag) differs.
    from meeple.tools import observe

    path = tmp_path / "corners.yaml"
    path.write_text(CORNERS, encoding="utf-8")
    rs = load_ruleset(path)
    monkeypatch.setattr(observe, "can_see", lambda visibility, owner, viewer: True)
    with pytest.raises(AssertionError):
        for seed in range(6):
            same_at_every_step(rs, 3, seed)


def test_an_observer_ignoring_face_down_cards_is_caught(tmp_path, monkeypatch):
    # Face down in a zone the seat sees (Kuhn poker's hands): an observer that takes the card for face up
    # shows the other player's card, and differs.
    rs = load_ruleset(ROOT / "rulesets" / "reference" / "kuhn_poker.yaml")
    real = Layout._seen

    def facing_up(self, into, nested, zones, facedown, *rest):
        return real(self, into, nested, zones, set(), *rest)

    monkeypatch.setattr(Layout, "_seen", facing_up)
    with pytest.raises(AssertionError):
        same_at_every_step(rs, 2, seed=1)


def test_a_seat_that_is_not_one_is_refused_as_the_view_refuses_it():
    from meeple.errors import UsageError

    rs = load_ruleset(ROOT / "rulesets" / "reference" / "kuhn_poker.yaml")
    layout, g = Layout(rs, 2), rs.new_game(2, 0)
    for seat in (2, 1.0, True):
        with pytest.raises(UsageError, match="is not a seat"):
            g.view(seat, texts=False)
        with pytest.raises(UsageError, match="is not a seat"):
            layout.observe(g, seat)
    with pytest.raises(UsageError, match="is not a seat"):  # a spectator's view has no seat to mark
        layout.observe(g, -1)
    with pytest.raises(ValueError, match="a layout for 3 players cannot observe a game of 2"):
        Layout(load_ruleset(ROOT / "rulesets" / "speicherstadt.yaml"), 3).observe(
            load_ruleset(ROOT / "rulesets" / "speicherstadt.yaml").new_game(2, 0), 0)
