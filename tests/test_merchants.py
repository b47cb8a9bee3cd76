"""Merchants as a specification: its scenarios, and invariants that hold in every random game."""

import json
import random
from pathlib import Path

import pytest
from meeple.runtime.game import Game
from meeple.runtime.machine import assert_state
from meeple.runtime.rules import load_ruleset
from meeple.tools.report import render_text
from meeple.tools.scenarios import run_file
from support import random_game as play_randomly
from support import visible_ids

ROOT = Path(__file__).resolve().parent.parent
RS = load_ruleset(ROOT / "rulesets" / "merchants.yaml")


def random_game(players, seed, each_step=None):
    return play_randomly(RS, players, seed, each_step)


KIND = {c.id: c.kind for c in RS.components}
IDS = {k: sorted(c.id for c in RS.components if c.kind == k) for k in ("card", "token", "ship", "special", "space")}
SHIPS = IDS["ship"]


def test_loads_without_warnings():
    assert RS.warnings == []
    assert (RS.min_players, RS.max_players) == (2, 4)
    assert {k: len(v) for k, v in IDS.items()} == {"card": 60, "token": 30, "ship": 14, "special": 6, "space": 6}


def test_scenarios():
    results = run_file(ROOT / "rulesets" / "scenarios" / "merchants.yaml")
    assert len(results) >= 10
    failed = [r for r in results if not r.ok]
    assert not failed, "\n".join(f"{r.name}:\n{render_text(r.problems)}" for r in failed)


def test_setup():
    for n in (2, 3, 4):
        g = RS.new_game(n, 3)
        z = g.state.zones
        assert [len(z[f"#{s}.stack"]) for s in IDS["space"]] == [1] * 6
        assert len(z["pile"]) == 60 - 6 - 3 * n
        for p in range(n):
            assert len(z[f"{p}.hand"]) == 3 and len(z[f"{p}.ships"]) == 2
            assert g.state.counters[f"{p}.coins"] == 0
        # Loading: one round for the first ships, in turn order, then one for the second ships.
        order = []
        while g.state.phase in ("", "loading"):
            order.append(g.current_player)
            g.apply_index(0)
        assert order == list(range(n)) * 2
        assert all(len(z[f"#{s}.hold"]) == 1 for p in range(n) for s in z[f"{p}.ships"])
        assert len(z["supply"]) == 30 - 2 * n


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_finish(players):
    for seed in range(100):
        g = random_game(players, seed)
        assert g.is_over and len(z := g.state.zones["pile"]) == 0, z
        coins = [g.state.counters[f"{p}.coins"] for p in range(players)]
        assert g.scores == coins
        assert g.winners == [p for p in range(players) if coins[p] == max(coins)]


def check_invariants(g):
    st = g.state
    z = st.zones
    # Every component is in exactly one zone, and none is left in the box after setup.
    seen = sorted(c for zone in z.values() for c in zone)
    assert seen == list(range(len(RS.components)))
    assert z["box"] == [] or st.phase == ""
    assert_state(st)
    n = st.nplayers
    # 60 goods cards: pile, market stacks, hands.
    cards = list(z["pile"]) + [c for s in IDS["space"] for c in z[f"#{s}.stack"]] + \
        [c for p in range(n) for c in z[f"{p}.hand"]]
    assert sorted(cards) == IDS["card"]
    # 30 tokens: supply and ships' holds; a ship holds at most one.
    tokens = list(z["supply"]) + [t for s in SHIPS for t in z[f"#{s}.hold"]]
    assert sorted(tokens) == IDS["token"]
    assert all(len(z[f"#{s}.hold"]) <= 1 for s in SHIPS)
    # 20 special cards (14 ships): the offer or a player's ships and specials.
    specials = list(z["offer"]) + [c for p in range(n) for c in z[f"{p}.ships"] + z[f"{p}.specials"]]
    assert sorted(specials) == sorted(IDS["ship"] + IDS["special"])
    assert all(KIND[c] == "ship" for p in range(n) for c in z[f"{p}.ships"])
    assert all(KIND[c] == "special" for p in range(n) for c in z[f"{p}.specials"])
    # The market: six spaces, each showing a card.
    assert sorted(z["market"]) == IDS["space"]
    assert all(z[f"#{s}.stack"] for s in IDS["space"])
    # In phase II every ship is loaded; coins never go negative.
    if st.phase == "trade":
        assert all(len(z[f"#{s}.hold"]) == 1 for p in range(n) for s in z[f"{p}.ships"])
    assert all(st.counters[f"{p}.coins"] >= 0 for p in range(n))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_components_conserved_at_every_step(players):
    for seed in range(3):
        random_game(players, 100 + seed, check_invariants)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_replay_from_seed_and_action_log(players):
    for seed in range(5):
        g = random_game(players, 200 + seed)
        r = Game.replay(RS, players, 200 + seed, g.state.actions)
        assert r.to_json()["state"] == g.to_json()["state"]
        assert r.scores == g.scores


@pytest.mark.parametrize("players", [2, 3, 4])
def test_json_round_trip_mid_game(players):
    rng = random.Random(players)
    for seed in range(3):
        g = RS.new_game(players, seed)
        for _ in range(rng.randrange(150)):
            if g.is_over:
                break
            g.apply_index(rng.randrange(g.num_actions()))
        h = Game.from_json(RS, json.loads(g.dumps()))
        assert h.to_json() == g.to_json()
        assert h.legal_actions() == g.legal_actions()
        r1, r2 = random.Random(7), random.Random(7)
        while not g.is_over:
            g.apply_index(r1.randrange(g.num_actions()))
            h.apply_index(r2.randrange(h.num_actions()))
        assert h.to_json()["state"] == g.to_json()["state"]


def check_views(g):
    st = g.state
    n = st.nplayers
    for viewer in range(n):
        v = g.view(viewer)
        text = json.dumps(v)
        assert v["zones"]["pile"] == {"count": len(st.zones["pile"])}
        secret = set(st.zones["pile"])
        for p in range(n):
            hand = v["seats"][p]["zones"]["hand"]
            if p == viewer:
                assert [c["item"] for c in hand] == [RS.components[c].item for c in st.zones[f"{p}.hand"]]
            else:
                assert hand == {"count": len(st.zones[f"{p}.hand"])}
                secret |= set(st.zones[f"{p}.hand"])
        shown = visible_ids(g, viewer)
        assert not shown & secret, f"P{viewer + 1} sees hidden cards {shown & secret}"
        # Everything public is shown: the market stacks, the ships' tokens, the supply, the offer.
        assert shown | secret == set(range(len(RS.components))) - set(st.zones["box"])
        if viewer not in g.deciders:
            assert "actions" not in v.get("decision", {})
        assert "Rng" not in text and '"rng"' not in text


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_hide_hands_and_pile(players):
    for seed in range(2):
        random_game(players, 300 + seed, check_views)


def test_actions_are_small_and_keyed_stably():
    g = RS.new_game(4, 9)
    rng = random.Random(9)
    most = 0
    while not g.is_over:
        acts = g.legal_actions()
        assert len({a["key"] for a in acts}) == len(acts)
        assert len({a["label"] for a in acts}) == len(acts), "labels are unique within a decision"
        most = max(most, len(acts))
        g.apply(acts[rng.randrange(len(acts))])
    # Swaps: at most (ships x 5 other goods) + 4 purchases + pass.
    assert most <= 14 * 5 + 5


def _ships_bought(rs, games):
    """Ships bought by greedy bots over `games` two-player games (each seat starts with 2)."""
    from meeple.tools.simulate import play_to_end
    bought = 0
    for seed in range(games):
        game, _ = play_to_end(rs, 2, seed, "greedy")
        bought += sum(len(game.state.zones[f"{p}.ships"]) - 2 for p in range(2))
    return bought


def test_greedy_buys_ships_and_more_of_them_when_they_are_cheaper(tmp_path):
    # Before the ruleset's `agents.greedy` priced what ships will earn, greedy scored coins only and never
    # bought (a purchase is paid at once and pays back later): a variant that changed a price played the
    # very same games, so `meeple compare` could say nothing about it (docs/agents.md, "Merchants' purchases").
    cheap = tmp_path / "cheap_ships.yaml"
    cheap.write_text("meeple: 1\nextends: merchants\nname: Cheap ships\n"
                     "components:\n  ship:\n    items:\n      ship: {cost: 6}\n")
    at_ten = _ships_bought(RS, 2)
    at_six = _ships_bought(load_ruleset(cheap), 2)
    assert at_ten > 0
    assert at_six > at_ten
