"""New games made alike share what the first outcomes of their start give (runtime/chancenodes.py, `reach`).

Every new game of a ruleset with explicit chance starts at the same chance node (shortcuts.reused), and the
first few outcomes lead every such game to the same few nodes: a three-card deal has three, then six. When a
shuffle's last draw is known there, the rest of the step (the deal, the antes, the flow up to the first bet)
gives the same state in every game that drew alike. The first game to get there runs it and keeps the result;
the others take a copy with their own seed. This is pinned against what it replaces: the game must be the one
its replays give, and the shared result must never be changed by the games that took it.
"""

import itertools
import random

import pytest
from meeple.runtime import explicit
from meeple.runtime.rules import load_ruleset
from test_chance_in_place import replaying, toy
from test_differential import GeneratedGame, ReferenceGame

KUHN = "rulesets/reference/kuhn_poker.yaml"


def dealt(rs, game_class, seed: int, outcomes: tuple[int, ...]):
    """A new game with explicit chance, its chance events answered by index, in order."""
    g = game_class.new(rs, 2, seed, chance="explicit")
    for i in outcomes:
        g.apply_index(i)
    return g


def played(g, seed: int) -> dict:
    """The game played on at random to its end: its save."""
    rng = random.Random(seed)
    while not g.is_over:
        g.apply_index(rng.randrange(g.num_actions()))
    return g.to_json()


@pytest.mark.parametrize("game_class", [GeneratedGame, ReferenceGame], ids=["generated", "reference"])
def test_every_deal_of_kuhn_poker_is_run_once_and_then_taken_as_the_replay_gives_it(game_class, monkeypatch):
    rs = load_ruleset(KUHN)
    game_class.new(rs, 2, 0, chance="explicit")  # the start itself, which every later game copies
    runs = []
    real = explicit._run
    monkeypatch.setattr(explicit, "_run", lambda game, step, spent=0: runs.append(1) or real(game, step, spent))
    deals = list(itertools.product(range(3), range(2)))
    first = [played(dealt(rs, game_class, 10 + n, d), n) for n, d in enumerate(deals)]
    assert len(runs) == len(deals)  # each deal's rest of the step ran once
    runs.clear()
    again = [played(dealt(rs, game_class, 10 + n, d), n) for n, d in enumerate(deals)]
    assert not runs and again == first  # the second time, every deal was taken, not run
    with monkeypatch.context() as m:
        replaying(m)
        fresh = load_ruleset(KUHN)
        assert [played(dealt(fresh, game_class, 10 + n, d), n) for n, d in enumerate(deals)] == first


def test_a_game_that_took_a_deal_has_its_own_state_and_seed():
    rs = load_ruleset(KUHN)
    a = dealt(rs, GeneratedGame, 1, (2, 1))
    b = dealt(rs, GeneratedGame, 2, (2, 1))  # taken from what `a`'s dealing kept
    assert a.state is not b.state and (a.state.seed, b.state.seed) == (1, 2)
    saved = b.to_json()
    played(a, 7)  # `a` plays on; what `b` took, and what the next game takes, stay as they were
    assert b.to_json() == saved
    c = dealt(rs, GeneratedGame, 2, (2, 1))
    assert c.to_json() == saved
    assert played(b, 3) == played(c, 3)


@pytest.mark.parametrize("lazy_first", [False, True])
def test_a_lazy_game_takes_only_what_a_lazy_game_kept(lazy_first, tmp_path):
    # A bot's look-ahead is lazy: it opens a decision without its menu. It must not take a state whose
    # menu was built, nor give one without its menu to a game that reads the state's menu at once.
    deal = 'move(components("card"), deck)\nshuffle(deck)\nfor p in players:\n    move(first(deck), p.hand)'
    rs = toy(tmp_path, deal,
             'choose player(0) "Show a card":\n    option "Show {c.name}" for c in player(0).hand:\n        reveal(c)')

    def made(lazy):
        g = GeneratedGame.new(rs, 2, 1, chance="explicit")
        g.state.lazy = lazy
        while g.is_chance:
            g.apply_index(0)
        return g.state.pending["options"]
    order = [True, False] if lazy_first else [False, True]
    assert [made(x) is None for x in order + order] == order + order


def test_a_game_whose_state_ran_anything_at_the_node_replays_its_step(monkeypatch):
    # As `_go_on` itself: the kept result is what the state the node shows gives, and this one changed.
    rs = load_ruleset(KUHN)
    kept = dealt(rs, GeneratedGame, 1, (1, 1))
    replays = []
    real = explicit.run_step
    monkeypatch.setattr(explicit, "run_step",
                        lambda game, step, outcomes, spent=0: replays.append(outcomes) or real(game, step, outcomes, spent))
    g = dealt(rs, GeneratedGame, 1, (1,))
    g.state.steps += 1  # as a query that ran rules would leave it (explicit.forget_place)
    g.apply_index(1)
    assert replays == [[1, 1]] and g.to_json() == kept.to_json()


def test_what_is_kept_stays_small_where_the_draws_are_many():
    # Speicherstadt's bag of cubes is shuffled first: five kinds of cube make 5, 25, 125 nodes, then too
    # many to keep. No shuffle's last draw is that near the start, so no state is kept at all.
    rs = load_ruleset("speicherstadt")
    rng = random.Random(1)
    nodes = []
    for seed in range(30):
        g = rs.new_game(4, seed, chance="explicit")
        while g.is_chance:
            if g._chance.reach:
                nodes.append(g._chance)
            g.apply_index(rng.randrange(g.num_actions()))
    assert sorted({n.reach for n in nodes}) == [1, 5, 25, 125]
    assert all(not n._after for n in nodes)


@pytest.mark.parametrize("game_class", [GeneratedGame, ReferenceGame], ids=["generated", "reference"])
def test_a_step_that_stops_at_the_next_shuffle_is_kept_as_it_stopped(game_class, tmp_path, monkeypatch):
    # The first shuffle's last draw runs on to the second shuffle, a chance node again: what is kept is
    # the state there, not the game's state once it goes on to draw the second shuffle in its own way.
    setup = ('move(components("card"), deck)\nshuffle(deck)\nmove(first(deck), row)\n'
             'move(list(deck), pile)\nshuffle(pile)')

    def run(rs, shared=True):
        out = []
        for seed, second in enumerate([(0, 0), (1, 0), (0, 1), (1, 1), (0, 0)]):
            g = game_class.new(rs, 2, seed, chance="explicit")
            for i in (0, 0, 0):  # the deck (4 cards, 3 kinds) the same way,
                g.apply_index(i)
            # the pile's shuffle: a node games made alike come to (when nothing is replayed)
            assert g.is_chance and bool(g._chance.reach) == shared
            for i in second:  # the pile each its own way
                g.apply_index(i)
            out.append(played(g, seed))
        return out
    fast = run(toy(tmp_path, setup))
    with monkeypatch.context() as m:
        replaying(m)
        assert run(toy(tmp_path, setup), shared=False) == fast
