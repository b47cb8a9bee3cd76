"""Bots decide alike in either engine: the reference tree-walker is their oracle too.

Random play (test_differential.py) never runs what only bots run: the rulesets' `agents` expressions
(the greedy bot's value of a position), the look-ahead's copies and lazy menus, determinizations and
searches' playouts. So at decision points of a random game of every bundled ruleset and variant, the
game is loaded from its save into each engine, and every agent, with the same seed, must choose
the same option in both. A search's copies and playouts run in the engine of the game it searches, so
a step that went otherwise in one engine can change its choice. Budgets are tiny, as in
test_honesty.py.
"""

import pytest
from test_determinize import ALL_RULESETS, RS
from test_differential import GeneratedGame, ReferenceGame
from test_honesty import decide, decision_points

AGENTS = ["first", "greedy", "mcts:6:cut=4", "mcts:4:cut=phase:guide=1:prior=3:others=greedy",
          "mcts:6:cut=3:guide=1:sealed=greedy:follow:halving"]


def either_engine(rs, game) -> list:
    """`game` loaded from its save into the generated engine and into the reference."""
    save = game.to_json()
    return [cls.from_json(rs, save) for cls in (GeneratedGame, ReferenceGame)]


@pytest.mark.parametrize("path", ALL_RULESETS)
def test_every_agent_chooses_alike_in_the_generated_and_the_reference_engine(path):
    rs = RS[path]
    checked = 0
    for game, seat in decision_points(rs, 5):
        fast, reference = either_engine(rs, game)
        assert reference.legal_actions(seat) == fast.legal_actions(seat)
        for spec in AGENTS:
            assert decide(spec, reference, seat) == decide(spec, fast, seat), (spec, seat)
        checked += 1
    assert checked > 0


def test_the_check_sees_a_greedy_value_that_differs_between_the_engines(monkeypatch):
    """With the reference engine's value of a position turned round, greedy chooses otherwise."""
    rs = RS["rulesets/speicherstadt.yaml"]
    real = ReferenceGame._query

    def upside_down(self, *args, **kwargs):
        value = real(self, *args, **kwargs)
        return -value if type(value) is int else value
    monkeypatch.setattr(ReferenceGame, "_query", upside_down)
    differ = 0
    for game, seat in decision_points(rs, 5):
        fast, reference = either_engine(rs, game)
        differ += decide("greedy", reference, seat) != decide("greedy", fast, seat)
    assert differ > 0
    assert GeneratedGame._query is real  # only the reference engine was turned round
