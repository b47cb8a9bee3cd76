"""Speicherstadt as a specification: invariants that hold in every random game."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from meeple.runtime.game import Game
from meeple.runtime.machine import assert_state
from meeple.runtime.rules import load_ruleset
from support import random_game as play_randomly

RS = load_ruleset("speicherstadt")


def random_game(players, seed, each_step=None):
    return play_randomly(RS, players, seed, each_step)


CUBES = [c.id for c in RS.components if c.kind == "cube"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_end_with_scores(players):
    for seed in range(10):
        g = random_game(players, seed)
        assert g.is_over and len(g.scores) == players and g.winners
        assert len(g.state.zones["deck"]) == 0


def cube_places(g):
    st = g.state
    return sorted(c for k, z in st.zones.items() for c in z if c in set(CUBES))


def check_invariants(g):
    st = g.state
    assert cube_places(g) == sorted(CUBES), "the 45 cubes are conserved"
    assert not any(st.loc[c] == "box" for c in CUBES) or st.steps == 0
    for p in range(st.nplayers):
        assert st.counters[f"{p}.coins"] >= 0, "coins never go negative"
    for c in RS.components:
        if c.kind == "card":
            assert len(st.zones[f"#{c.id}.storage"]) <= 4, "a warehouse holds at most 4 cubes"
    for p in range(st.nplayers):
        assert len(st.zones[f"{p}.hall"]) <= 1, "the market hall stores at most 1 cube"
    assert_state(st)


@settings(max_examples=12, deadline=None, derandomize=True)
@given(players=st.integers(2, 5), seed=st.integers(0, 10_000))
def test_invariants_at_every_step(players, seed):
    g = random_game(players, seed, check_invariants)
    check_invariants(g)
    # Spent cubes never go back to the bag: at the end the bag holds only never-drawn cubes.
    assert len(g.state.zones["bag"]) + len(g.state.zones["stock"]) <= 45


@settings(max_examples=8, deadline=None, derandomize=True)
@given(players=st.integers(2, 5), seed=st.integers(0, 10_000), cut=st.integers(0, 300))
def test_json_round_trip_at_any_decision_point(players, seed, cut):
    g = RS.new_game(players, seed)
    rng = random.Random(seed)
    for _ in range(cut):
        if g.is_over:
            break
        g.apply_index(rng.randrange(g.num_actions()))
    saved = json.loads(json.dumps(g.to_json()))
    h = Game.from_json(RS, saved)
    assert h.to_json() == g.to_json()
    assert h.legal_actions() == g.legal_actions()
    # Both continue identically.
    r1, r2 = random.Random(7), random.Random(7)
    while not g.is_over:
        g.apply_index(r1.randrange(g.num_actions()))
        h.apply_index(r2.randrange(h.num_actions()))
    assert h.to_json() == g.to_json()


@settings(max_examples=8, deadline=None, derandomize=True)
@given(players=st.integers(2, 5), seed=st.integers(0, 10_000))
def test_replay_from_seed_and_log(players, seed):
    g = random_game(players, seed)
    r = Game.replay(RS, players, seed, g.state.actions)
    assert r.to_json() == g.to_json()


def test_copy_is_independent():
    # Zones are shared between copies until one of them writes (state.py): neither the copy, nor the
    # original, nor the per-ruleset template every new game starts from may see the other's moves.
    def saved(game):
        return json.dumps(game.to_json(), sort_keys=True)
    fresh = saved(RS.new_game(3, 5))
    g = RS.new_game(3, 5)
    h = g.copy()
    before = saved(g)
    rng = random.Random(1)
    for _ in range(50):
        h.apply_index(rng.randrange(h.num_actions()))
    assert saved(g) == before
    copied = saved(h)
    for _ in range(50):
        g.apply_index(rng.randrange(g.num_actions()))
    assert saved(h) == copied and saved(g) != before
    assert saved(RS.new_game(3, 5)) == fresh


def test_views_hide_deck_bag_and_other_players_options():
    def check(g):
        for p in range(g.state.nplayers):
            v = g.view(p)
            text = json.dumps(v)
            # the pile is face down, each card showing its season on the back (`visibility: backs`)
            assert v["zones"]["deck"] == [{"hidden": True, "back": {"season": RS.components[c].attrs["season"]}}
                                          for c in g.state.zones["deck"]]
            assert v["zones"]["bag"] == {"count": len(g.state.zones["bag"])}
            if p not in g.deciders:
                assert "actions" not in v.get("decision", {})
            assert "Rng" not in text
    random_game(4, 11, check)


def seasons(game):
    return "".join(RS.components[c].attrs["season"] for c in game.state.zones["deck"])


def test_a_bots_deal_keeps_the_seasons_of_the_pile():
    """Found by QA (the rulebook: "Ordena todas las cartas comerciales por el reverso: Invierno (A),
    Primavera (B), Verano (C), Otoño (D), Cuarto fuego (E)": the season is on the back). The pile was a
    `hidden` zone, so a bot's deal mixed the seasons: an Autumn card in round 1, the 4th Fire burning in
    round 2 in a quarter of the deals. Each card is dealt again only among the cards of its season."""
    g = RS.new_game(4, 3)
    rng = random.Random(3)
    for _ in range(40):
        g.apply_index(rng.randrange(g.num_actions()))
    real = seasons(g)
    assert real == "".join(sorted(real)) and real.endswith("DE")
    deals = [g.determinize(g.deciders[0], seed) for seed in range(20)]
    assert all(seasons(d) == real for d in deals)
    assert any(d.state.zones["deck"] != g.state.zones["deck"] for d in deals)  # the cards themselves are dealt


def test_illegal_action_is_refused_and_state_unchanged():
    g = RS.new_game(2, 1)
    before = json.dumps(g.to_json(), sort_keys=True)
    for bad in [{"player": 1, "key": "0:#1"}, {"player": 0, "key": "nonsense"}, 999, "No such label", True]:
        with pytest.raises(Exception) as e:
            g.apply(bad)
        assert type(e.value).__name__ == "IllegalAction"
        assert e.value.problems[0].message
    assert json.dumps(g.to_json(), sort_keys=True) == before


def test_decisions_are_labelled_and_keyed_stably():
    g = RS.new_game(3, 2)
    acts = g.legal_actions()
    assert acts and all(set(a) == {"player", "key", "label"} for a in acts)
    assert len({a["key"] for a in acts}) == len(acts)
    assert all(a["label"].startswith("Place a worker") for a in acts)
    assert RS.new_game(3, 2).legal_actions() == acts


@pytest.mark.parametrize("corrupt", [
    lambda d: d.update(format="other"),
    lambda d: d.update(version=99),
    lambda d: d["state"].update(zones={}),
    lambda d: d["state"]["stack"]["frames"].append([9, 0, None]),
    lambda d: d["state"]["stack"]["frames"][-1].__setitem__(1, 10**6),
    lambda d: d["state"]["counters"].update({"0.coins": "lots"}),
    lambda d: d["state"].update(pending={"players": [0], "options": [[0, [[0, [], -1, 0]]]], "chosen": []}),
    lambda d: d.update(ruleset_digest="0" * 16),
    lambda d: d.pop("state"),
])
def test_corrupt_saves_are_refused_with_a_clear_error(corrupt):
    from meeple.errors import SaveError

    g = RS.new_game(3, 4)
    rng = random.Random(4)
    for _ in range(40):
        g.apply_index(rng.randrange(g.num_actions()))
    data = json.loads(json.dumps(g.to_json()))
    corrupt(data)
    with pytest.raises(SaveError) as e:
        Game.from_json(RS, data)
    assert e.value.problems[0].message
