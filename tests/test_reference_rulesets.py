"""The reference rulesets written for the adapters (Leduc poker, Connect Four) against published figures
that need no other library; tests/test_openspiel.py plays them move for move against OpenSpiel's own."""

from fractions import Fraction
from pathlib import Path

import meeple

ROOT = Path(__file__).resolve().parent.parent / "rulesets" / "reference"


def test_connect_four_positions_after_each_ply():
    # OEIS A212693: 1, 7, 49, 238, 1120 positions after 0 to 4 plies.
    rs = meeple.load_ruleset(ROOT / "connect_four.yaml")
    start = rs.new_game(2)
    counts, layer = [], {tuple(start.state.counters["board"]): start}
    for ply in range(5):
        counts.append(len(layer))
        if ply == 4:
            break
        nxt = {}
        for g in layer.values():
            for i in range(g.num_actions()):
                child = g.copy()
                child.apply_index(i)
                nxt.setdefault(tuple(child.state.counters["board"]), child)
        layer = nxt
    assert counts == [1, 7, 49, 238, 1120]


def test_leduc_poker_deals_have_exact_probabilities():
    # 6 cards, two of each rank: P1's card is J, Q or K with 1/3 each; P2's then has 1/5 of matching it.
    rs = meeple.load_ruleset(ROOT / "leduc_poker.yaml")
    g = rs.new_game(2, chance="explicit")
    assert {a["label"]: p for a, p in g.chance_outcomes()} == {r: Fraction(1, 3) for r in "JQK"}
    g.apply("K")
    assert {a["label"]: p for a, p in g.chance_outcomes()} == {"J": Fraction(2, 5), "Q": Fraction(2, 5),
                                                                 "K": Fraction(1, 5)}
    g.apply("K")
    assert not g.is_chance and [a["label"] for a in g.legal_actions()] == ["Call", "Raise"]
    for label in ("Raise", "Raise", "Call"):  # two raises, the most a round allows, then a call
        g.apply(label)
    assert g.is_chance and g.evaluate("pot") == 2 + 2 * 4  # the antes, and 1 + 2 + 2 each
    g.apply("Q")
    g.apply("Call")
    g.apply("Raise")
    g.apply("Fold")  # P1 folds to a raise of 4: P2 wins what P1 put in
    assert g.is_over and g.scores == [-5, 5]
