"""The search bot's flat mode (`mcts:...:halving`) as a specification: greedy's best options played on
shared deals (the same determinization and the same rollout luck for each), narrowed by sequential
halving."""

import pytest
from meeple.errors import UsageError
from meeple.runtime.rules import load_ruleset
from meeple.tools.agents import make_agent
from meeple.tools.halving import HalvingAgent
from meeple.tools.simulate import play_game
from test_agents import BIDS
from test_mcts import cell_of, play_cells


def test_the_spec_names_the_width_and_keeps_the_search_bots_rollouts():
    agent = make_agent("mcts:40:cut=5:guide=1:follow:halving")
    assert isinstance(agent, HalvingAgent)
    assert (agent.width, agent.iterations, agent.cutoff, agent.guide, agent.follow) == (4, 40, 5, 1.0, True)
    assert make_agent("mcts:40:halving=6").width == 6
    assert not isinstance(make_agent("mcts:40"), HalvingAgent)
    with pytest.raises(UsageError):
        make_agent("mcts:40:halving=1")  # one option is greedy's choice: nothing to compare
    for tree_only in ("prior=10", "others=greedy", "c=0.2"):
        with pytest.raises(UsageError, match="halving grows none"):
            make_agent(f"mcts:40:{tree_only}:halving")


@pytest.mark.parametrize("cells, best", [
    ([1, 4, 2, 5], {3}),   # X wins at once
    ([1, 5, 2], {3}),      # O must block the top row
    ([5, 1, 9, 3], {2}),   # X must block O's top row
])
def test_played_out_the_win_and_the_block_beat_greedys_choice(cells, best):
    # One move ahead no option scores, so greedy's ranking is the menu's order; guided rollouts play the
    # reply that wins at once, so only the winning or blocking cell keeps its reward on every deal.
    g = play_cells(cells)
    seat = g.current_player
    for seed in range(3):
        assert cell_of(g, seat, make_agent("mcts:60:guide=1:halving=9", seed).choose(g, seat)) in best


def test_every_option_still_in_the_running_is_played_on_the_same_deals(monkeypatch):
    g = play_cells([5])
    agent = HalvingAgent(0, iterations=16, guide=1.0)
    dealt: list[int] = []
    played: list[tuple[int, int]] = []
    real_deal = agent._deal

    def deal(game, player, alive, results):
        dealt.append(len(alive))
        real_deal(game, player, alive, results)
        played.extend((i, len(results[i])) for i in alive)

    monkeypatch.setattr(agent, "_deal", deal)
    agent.choose(g, 1)
    # Two rounds: 16 // (2 * 4) = 2 deals of the four best options, then 16 // (2 * 2) = 4 of two.
    assert dealt == [4, 4, 2, 2, 2, 2]
    for deal_no in range(6):  # every option alive in a deal has played that deal, and no other
        counts = {n for i, n in played[sum(dealt[:deal_no]):sum(dealt[:deal_no + 1])]}
        assert counts == {deal_no + 1}


def test_sealed_decisions_and_whole_games(tmp_path):
    path = tmp_path / "bids.yaml"
    path.write_text(BIDS)
    bids = load_ruleset(path)
    r = play_game(bids, 2, 3, "mcts:12:cut=4:sealed=greedy:halving,greedy")
    assert r.winners and r.decisions == 6  # three rounds of two sealed bids
    r = play_game(load_ruleset("merchants"), 3, 1, "mcts:20ms:cut=3:guide=1:halving,random")
    assert r.winners


# The pick changes nothing; the other player's choice (random in a rollout: the bot's luck) and a coin the
# game tosses (the deal's luck) decide who scores.
TOSS = """\
meeple: 1
name: Toss
players: {min: 2, max: 2}
counters:
  player: {points: 0}
flow: |
  choose players[0] "Pick a word":
      option "{w}" for w in ["one", "two", "three", "four"]:
          pass
  choose players[1] "Who scores?":
      option "{q.name}" for q in players:
          score(q.points, 1)
  score(random_pick(players).points, 1)
scoring:
  score: p.points
"""


def test_options_that_change_nothing_get_the_same_reward_on_every_deal(tmp_path, monkeypatch):
    path = tmp_path / "toss.yaml"
    path.write_text(TOSS)
    g = load_ruleset(path).new_game(2, 0)
    agent = HalvingAgent(5, iterations=32)
    seen = {}
    real_deal = agent._deal

    def deal(game, player, alive, results):
        real_deal(game, player, alive, results)
        seen.update(results)

    monkeypatch.setattr(agent, "_deal", deal)
    agent.choose(g, 0)
    rounds = {len(r) for r in seen.values()}
    assert rounds == {4, 12}  # two eliminated after a round of 4 deals; two played all 12
    first_round = [r[:4] for r in seen.values()]
    assert all(r == first_round[0] for r in first_round)  # the same luck for every option
    assert len({x for r in seen.values() for x in r}) == 3  # and the deals differ: won, shared, lost
