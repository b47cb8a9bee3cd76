"""Bots never peek: two games that differ only in what the deciding seat cannot see get the same decision.

For every agent, every bundled ruleset and variant (and the reference games), at many decision points of
a random game: the real game, and a copy in which everything the deciding seat cannot see has been dealt
again (`game.determinize(seat, other_seed)`: other hands, deck order, face-down cards, secret counters,
others' sealed choices, the random generator). An agent with the same seed must choose the same option
in both. Budgets are tiny: the test is about what the bots read, not how well they play.
"""

import random

import pytest
from meeple.tools.agents import make_agent
from support import load_text
from test_determinize import ALL_RULESETS, RS, players_for

AGENTS = ["random", "first", "greedy", "mcts:6:cut=4", "mcts:4", "mcts:6:cut=4:guide=0.5:prior=3",
          "mcts:6:cut=4:guide=0.5:prior=3:sealed=greedy:others=greedy", "mcts:4:cut=phase:guide=1:others=dealt",
          "mcts:3:cut=3:guide=1:prior=3:others=greedy:follow", "mcts:4:cut=phase:guide=1:prior=3:others=follow",
          "mcts:6:cut=3:guide=1:sealed=greedy:follow:halving"]
POINTS = 10  # decision points per ruleset


def decision_points(rs, seed):
    """(game, seat) at POINTS decision points of random games, sealed decisions included."""
    n = players_for(rs)
    got = 0
    while got < POINTS:
        rng = random.Random(seed)
        probe = rs.new_game(n, seed)
        length = 0
        while not probe.is_over:
            probe.apply_index(rng.randrange(probe.num_actions()))
            length += 1
        stops = set(random.Random(seed + 1).sample(range(length), min(POINTS - got, length)))
        rng = random.Random(seed)
        g = rs.new_game(n, seed)
        for step in range(length):
            if step in stops:
                got += 1
                for seat in g.deciders:
                    yield g, seat
            g.apply_index(rng.randrange(g.num_actions()))
        seed += 1


def decide(spec, game, seat):
    return make_agent(spec, seed=1234).choose(game, seat)


def differs_unseen(game, seat, seed):
    other = game.determinize(seat, seed)
    assert other.view(seat) == game.view(seat)
    return other


@pytest.mark.parametrize("path", ALL_RULESETS)
def test_no_agent_decides_on_what_its_seat_cannot_see(path):
    rs = RS[path]
    checked = 0
    for game, seat in decision_points(rs, 3):
        other = differs_unseen(game, seat, 99)
        for spec in AGENTS:
            assert decide(spec, game, seat) == decide(spec, other, seat), (spec, seat)
        checked += 1
    assert checked >= POINTS


class Peeker:
    """A cheat: picks by the order of the deck and the other hands, which its seat cannot see."""

    def choose(self, game, seat):
        st = game.state
        secret = [c for k, z in sorted(st.zones.items()) for c in z if k.endswith(("deck", "pile", "hand"))]
        return hash(tuple(secret)) % game.num_actions(seat)


def test_the_honesty_check_catches_a_bot_that_peeks():
    rs = RS["rulesets/merchants.yaml"]
    caught = 0
    for game, seat in decision_points(rs, 3):
        if game.num_actions(seat) > 1:
            caught += Peeker().choose(game, seat) != Peeker().choose(differs_unseen(game, seat, 99), seat)
    assert caught > 0


BLIND_PICK = """\
meeple: 1
name: Blind pick
players: {min: 2, max: 2}
counters:
  player: {points: 0}
zones:
  game:
    deck: {visibility: hidden}
  player:
    hand: {visibility: owner}
    won: {}
components:
  card:
    items:
      - {id: low, name: Low, value: 1}
      - {id: mid, name: Mid, value: 2}
      - {id: high, name: High, value: 3}
setup: |
  move(components("card"), deck)
  shuffle(deck)
  draw(3, deck, player(1).hand)
flow: |
  choose player(0) "Take a card from P2's hand":
      option "Take a card" for c in player(1).hand:
          move(c, player(0).hand)
  player(0).points = sum([c.value for c in player(0).hand])
  player(1).points = 2
scoring:
  score: p.points
"""


@pytest.mark.parametrize("spec", ["mcts:30", "mcts:30:prior=3", "mcts:16:guide=1:halving", "greedy"])
def test_a_blind_pick_from_a_hidden_hand_is_blind(tmp_path, spec):
    """Found by QA: the tree search kept its statistics under the engine's keys of the options, which
    name a card by its id: in every deal `#high` was the best option, and the real menu's keys then
    showed where High lay. P1 took High in 30 deals of 30; a blind pick takes the same position in every
    deal (P1's view is the same), so High only where it happens to lie."""
    rs = load_text(tmp_path, "blind", BLIND_PICK)
    games = [rs.new_game(2, seed) for seed in range(12)]
    assert len({str(g.view(0)) for g in games}) == 1
    (i,) = {make_agent(spec, seed=7).choose(g, 0) for g in games}  # one position in every deal
    assert {g.state.zones["1.hand"][i] for g in games} == {0, 1, 2}  # so each card, by where it lies
