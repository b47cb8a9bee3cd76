"""The reference rulesets (rulesets/reference/) play exactly the games the literature counts.

Tic-tac-toe's full tree is known: 255,168 games, of which the first player wins 131,184, the second
77,904, and 46,080 are drawn, through 5,478 distinct positions. Kuhn poker has 6 deals and 5 betting
sequences per deal: 30 terminal histories, each with a payoff the rules fix. Walking these trees through
the engine checks menus, suspension inside option bodies, procedures, end_game and scoring at once.
"""

import json

from meeple.runtime.rules import load_ruleset

TTT = load_ruleset("rulesets/reference/tic_tac_toe.yaml")
KUHN = load_ruleset("rulesets/reference/kuhn_poker.yaml")


def test_tic_tac_toe_has_the_published_game_tree():
    # Memoised on the board: the number of games below a position depends only on the position.
    memo: dict[str, tuple[int, int, int]] = {}

    def count(game) -> tuple[int, int, int]:
        key = json.dumps(game.state.counters["board"])
        if key in memo:
            return memo[key]
        if game.is_over:
            first = game.scores[0]
            out = (int(first == 1), int(first == -1), int(first == 0))
        else:
            out = (0, 0, 0)
            for i in range(game.num_actions()):
                child = game.copy()
                child.apply_index(i)
                out = tuple(a + b for a, b in zip(out, count(child)))
        memo[key] = out
        return out

    wins, losses, draws = count(TTT.new_game(2, seed=0))
    assert (wins, losses, draws) == (131_184, 77_904, 46_080)
    assert wins + losses + draws == 255_168
    assert len(memo) == 5_478


def test_tic_tac_toe_labels_name_the_mark_and_the_cell():
    g = TTT.new_game(2, seed=0)
    g.apply("X in cell 5")
    assert [a["label"] for a in g.legal_actions()][:2] == ["O in cell 1", "O in cell 2"]
    assert len(g.legal_actions()) == 8


def _payoff(ranks: list[int], bets: str) -> list[int]:
    """Kuhn poker by the rules: antes of 1; a fold loses what was put in; a showdown wins the pot."""
    put = [1, 1]
    p, folded = 0, None
    for i, b in enumerate(bets):
        if b == "B":
            put[p] += 1
        elif i > 0 and bets[i - 1] == "B":
            folded = p
        p = 1 - p
    winner = 1 - folded if folded is not None else (0 if ranks[0] > ranks[1] else 1)
    pot = sum(put)
    return [(pot if s == winner else 0) - put[s] for s in (0, 1)]


def test_kuhn_poker_has_thirty_terminal_histories_with_the_rules_payoffs():
    histories: dict[tuple, list[int]] = {}

    def walk(game, deal, bets):
        if game.is_over:
            histories[(deal, bets)] = list(game.scores)
            return
        for a in game.legal_actions():
            child = game.copy()
            child.apply(a)
            walk(child, deal, bets + a["label"][0])

    seed = 0
    deals: set[tuple] = set()
    while len(deals) < 6 and seed < 500:
        g = KUHN.new_game(2, seed=seed)
        deal = tuple(g.evaluate(f"first(player({s}).hand).rank") for s in (0, 1))
        if deal not in deals:
            deals.add(deal)
            walk(g, deal, "")
        seed += 1
    assert deals == {(a, b) for a in (1, 2, 3) for b in (1, 2, 3) if a != b}
    assert len(histories) == 30
    assert {bets for _, bets in histories} == {"PP", "PBP", "PBB", "BP", "BB"}
    for (deal, bets), scores in histories.items():
        assert scores == _payoff(list(deal), bets), (deal, bets)


def test_kuhn_poker_hides_the_other_hand():
    g = KUHN.new_game(2, seed=3)
    seats = g.view(0)["seats"]
    assert [c["name"] for c in seats[0]["zones"]["hand"]] == [g.evaluate("first(player(0).hand).name")]
    assert seats[1]["zones"]["hand"] == [{"hidden": True}]  # a card's back in a public hand, no name
