"""The compiled evaluator must behave exactly like the reference tree-walking evaluator."""

import random

import pytest
from meeple.runtime.evaluator import Evaluator
from meeple.runtime.game import Game
from meeple.runtime.rules import load_ruleset

RS = load_ruleset("speicherstadt")


class ReferenceGame(Game):
    __slots__ = ()
    evaluator_class = Evaluator


def state_of(g):
    """The saved state, less the runaway-loop step counter (the two evaluators count steps differently) and
    the seal that covers it."""
    data = g.to_json()
    data["state"].pop("steps")
    data.pop("seal")
    return data


def play(cls, players, seed):
    g = cls.new(RS, players, seed)
    rng = random.Random(seed)
    while not g.is_over:
        g.apply_index(rng.randrange(g.num_actions()))
    return g


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (5, 4), (4, 99)])
def test_compiled_games_equal_reference_games(players, seed):
    fast, ref = play(Game, players, seed), play(ReferenceGame, players, seed)
    assert state_of(fast) == state_of(ref)
    assert fast.scores == ref.scores


@pytest.mark.parametrize("expr", [
    "1 + 2 * 3 - 4 // 2", "[c.name for c in row if c.type != \"fire\"]", "count(bag) + count(deck)",
    "{\"a\": 1}[\"a\"]", "3 if nplayers > 2 else 4", "not (1 < 2 and 2 >= 3) or false", "-(2 - 5) % 4",
    "sum([p.coins for p in players])", "max([1, 5, 2])", "players[0] == player(0)", "[1, 2] + 3", "[1, 2, 3] - [2]",
    "\"x{1 + 1}y\"", "first(row).name", "start",
])
def test_expressions_agree(expr):
    g = Game.new(RS, 3, 7)
    r = ReferenceGame.new(RS, 3, 7)
    assert g.evaluate(expr) == r.evaluate(expr)


def test_operands_with_side_effects_are_evaluated_once():
    # Regression: the compiled `+` fell back to the reference path by re-evaluating both operands, so
    # `drawn + draw(1, deck, to)` drew twice.
    rs = load_ruleset("tests/rulesets/libtest.yaml")
    fast = Game.new(rs, 3, 0)
    ref = type("Ref", (Game,), {"__slots__": (), "evaluator_class": Evaluator}).new(rs, 3, 0)
    assert fast.evaluate("count(row)") == ref.evaluate("count(row)") == 4
    assert state_of(fast) == state_of(ref)


@pytest.mark.parametrize("name,players", [("merchants", 3), ("camel_up_off_season", 4), ("demoludy", 4),
                                          ("variants/demoludy_points_actions", 5)])
def test_every_bundled_game_plays_the_same_compiled(name, players):
    path = f"rulesets/{name}.yaml"
    rs = load_ruleset(path)
    ref_cls = type("Ref", (Game,), {"__slots__": (), "evaluator_class": Evaluator})
    for seed in (1, 2):
        games = []
        for cls in (Game, ref_cls):
            g = cls.new(rs, players, seed)
            rng = random.Random(seed)
            while not g.is_over:
                for seat in g.deciders:
                    g.apply_index(rng.randrange(g.num_actions(seat)), seat)
            games.append(g)
        assert state_of(games[0]) == state_of(games[1])
