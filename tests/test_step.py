"""`Game.step(i)`: a decision applied as `apply_index(i)` applies it, returning the next decision's
number of actions, so that a random playout is one call per decision (what `meeple bench` runs)."""

import random

import pytest
from meeple.errors import IllegalAction
from meeple.runtime.explicit import probabilities
from meeple.runtime.rules import load_ruleset
from meeple.tools.bench import weighted
from support import BIDS  # a sealed auction: every bid paid, the highest scores

GAMES = [("speicherstadt", 4), ("merchants", 3), ("camel_up_off_season", 4), ("demoludy", 4),
         ("rulesets/reference/kuhn_poker.yaml", 2), ("rulesets/reference/leduc_poker.yaml", 2),
         ("rulesets/reference/tic_tac_toe.yaml", 2), ("rulesets/reference/connect_four.yaml", 2)]


def by_index(game, draw):
    """The loop `meeple bench` ran before `step`: every decider in turn, by `apply_index`."""
    while not game.is_over:
        if game.is_chance:
            game.apply_index(weighted(probabilities(game), draw()))
            continue
        for seat in game.deciders:
            game.apply_index(int(draw() * game.num_actions(seat)), seat)
    return game


def by_step(game, draw):
    n = game.num_actions()
    while n:
        assert not game.is_over
        i = weighted(probabilities(game), draw()) if game.is_chance else int(draw() * n)
        n = game.step(i)
        assert n == game.num_actions()  # what it returns is the next decision's count
    assert game.is_over
    return game


@pytest.mark.parametrize("chance", ["seeded", "explicit"])
@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_playout_by_step_is_the_playout_by_apply_index(name, players, chance):
    rs = load_ruleset(name)
    for seed in range(2):
        a = by_index(rs.new_game(players, seed, narrate=False, chance=chance), random.Random(seed).random)
        b = by_step(rs.new_game(players, seed, narrate=False, chance=chance), random.Random(seed).random)
        assert b.to_json() == a.to_json()


def test_a_sealed_choice_is_stepped_seat_by_seat(tmp_path):
    (tmp_path / "bids.yaml").write_text(BIDS)
    rs = load_ruleset(tmp_path / "bids.yaml")
    g = rs.new_game(3, 1)
    assert g.deciders == [0, 1, 2]
    assert g.step(5) == 6  # P1 bid 5; P2, who decides next, has six bids (0 to 5)
    assert g.deciders == [1, 2]
    assert g.step(0) == 6
    assert g.step(1) == 1  # the last bid resolves the round: P1 has no coin left, one bid (0)
    assert g.deciders == [0, 1, 2]
    assert [g.state.counters[f"{s}.points"] for s in range(3)] == [1, 0, 0]
    assert by_step(g, random.Random(0).random).is_over


def test_an_illegal_step_is_refused_and_changes_nothing():
    rs = load_ruleset("rulesets/reference/tic_tac_toe.yaml")
    g = rs.new_game(2, 0)
    before = g.to_json()
    for bad in (9, -1, "4", 1.0):
        with pytest.raises(IllegalAction):
            g.step(bad)
        assert g.to_json() == before
    while g.num_actions():
        g.step(0)
    with pytest.raises(IllegalAction, match="the game is over"):
        g.step(0)
