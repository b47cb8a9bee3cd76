"""Camel Up: Off Season as a specification: its scenarios, and invariants that hold in every random game.

Coins: the bank is unlimited and tracked in the hidden game counter `bank` (it may go below zero), so
bank + players' coins + coins on the tiles is always the 120 printed coins, also when everyone takes 5.
"""

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
RS = load_ruleset(ROOT / "rulesets" / "camel_up_off_season.yaml")
IDS = {k: sorted(c.id for c in RS.components if c.kind == k) for k in ("goods", "camel", "price_card", "tile")}
GOODS = set(IDS["goods"])
TOTAL_COINS = 120


def random_game(players, seed, each_step=None):
    return play_randomly(RS, players, seed, each_step)


def counter(g, name):
    return g.state.counters[name]


# ------------------------------------------------------------------ the ruleset and its scenarios
def test_loads_without_warnings():
    assert RS.warnings == []
    assert (RS.min_players, RS.max_players) == (3, 5)
    assert {k: len(v) for k, v in IDS.items()} == {"goods": 127, "camel": 20, "price_card": 20, "tile": 6}


def test_deck_composition_matches_games_md():
    by = {}
    for c in RS.components:
        if c.kind == "goods":
            a = c.attrs
            key = (a["good"], a["dates"] or a["colour"] or "/".join(a["shapes"]) or a["fruit"])
            by[key] = by.get(key, 0) + 1
    goods = {}
    for (g, _), n in by.items():
        goods[g] = goods.get(g, 0) + n
    assert goods == {"dates": 32, "carpets": 30, "vases": 33, "fruit": 32}
    assert [by[("dates", d)] for d in (1, 2, 3, 4)] == [16, 10, 4, 2]
    assert all(by[("carpets", c)] == 5 for c in ("red", "orange", "yellow", "green", "blue", "white"))
    assert [by[("vases", s)] for s in ("amphora", "jug", "urn", "amphora/jug", "amphora/urn", "jug/urn")] == \
        [9, 9, 9, 2, 2, 2]
    assert [by[("fruit", f)] for f in ("pomegranate", "orange", "banana", "pineapple")] == [11, 9, 7, 5]
    backs = {}
    for c in RS.components:
        if c.kind == "goods":
            backs[c.attrs["back"]] = backs.get(c.attrs["back"], 0) + 1
    assert set(backs) == set(RS.constants["auction_rules"]) and min(backs.values()) >= 30


def test_scenarios():
    results = run_file(ROOT / "rulesets" / "scenarios" / "camel_up_off_season.yaml")
    assert len(results) >= 20
    failed = [r for r in results if not r.ok]
    assert not failed, "\n".join(f"{r.name}:\n{render_text(r.problems)}" for r in failed)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_setup(n):
    for seed in range(10):
        g = RS.new_game(n, seed)
        z = g.state.zones
        market = z["market"]
        assert len(market) == n + 1
        letters = [RS.components[t].attrs["letter"] for t in market]
        assert letters == sorted(letters)
        if n == 3:
            assert len([x for x in letters if x in "ABC"]) == 2 and len([x for x in letters if x in "DEF"]) == 2
        dealt = 0
        for t in market:
            a = RS.components[t].attrs
            assert counter(g, f"#{t}.side") == 1
            assert len(z[f"#{t}.up"]) == a["face_up"][0] and len(z[f"#{t}.down"]) == a["face_down"][0]
            assert all(c in g.state.facedown for c in z[f"#{t}.down"])
            assert not any(c in g.state.facedown for c in z[f"#{t}.up"])
            dealt += len(z[f"#{t}.up"]) + len(z[f"#{t}.down"])
        assert len(z["deck"]) == 127 - dealt and z["discard"] == []
        for p in range(n):
            assert counter(g, f"{p}.coins") == 5
            assert sorted(RS.components[k].attrs["capacity"] for k in z[f"{p}.caravan"]) == [3, 4, 5, 6]
            assert sorted(RS.components[k].attrs["good"] for k in z[f"{p}.prices"]) == \
                ["carpets", "dates", "fruit", "vases"]
        assert counter(g, "bank") == TOTAL_COINS - 5 * n
        assert counter(g, "start") is None and counter(g, "round") == 1
        # The first decision: everyone bids at once.
        assert g.deciders == list(range(n))
        assert [a["label"] for a in g.legal_actions(0)] == [f"Bid {i}" for i in range(6)]


def test_price_tables():
    g = RS.new_game(3, 0)

    def value(cards):
        return g.evaluate(f"sale_value(player(0), [{', '.join(cards)}])")

    def one(item):
        return f'first(components("{item}"))'

    assert [value([one("date_1a")] * k) for k in (3, 5, 6, 8, 9, 12, 15)] == [3, 3, 7, 7, 11, 17, 24]
    assert value([one("date_4")] * 6) == 24  # 24 dates: the cap
    assert [value([one("vase_jug")] * k) for k in (2, 3, 4, 5, 6)] == [3, 6, 10, 15, 21]
    assert [value([one("carpet_red")] * k) for k in (2, 3, 4, 5, 6)] == [4, 8, 12, 18, 25]
    assert [value([one(f)] * 2) for f in ("fruit_pomegranate", "fruit_orange", "fruit_banana",
                                          "fruit_pineapple")] == [4, 6, 8, 10]


def test_auction_winner():
    g = RS.new_game(5, 0)

    def winner(bids):
        m = ", ".join(f"player({i}): {b}" for i, b in enumerate(bids))
        w = g.evaluate(f"auction_winner({{{m}}})")
        return None if w is None else int(w)

    assert winner([3, 1, 1, 3, 0]) == 4   # 3s cancel, 1s cancel, the 0 wins
    assert winner([3, 1, 1, 3, 1]) is None
    assert winner([2, 2, 2, 2, 5]) == 4
    assert winner([0, 0, 0, 0, 0]) is None
    assert winner([4, 3, 2, 1, 0]) == 0


# ------------------------------------------------------------------ random play
@pytest.mark.parametrize("n", [3, 4, 5])
def test_random_games_end(n):
    rounds = []
    for seed in range(100):
        g = random_game(n, seed)
        assert g.is_over
        assert counter(g, "last_round") and counter(g, "reshuffled")
        rounds.append(counter(g, "round"))
        assert g.winners
    assert min(rounds) >= 3


def _check_conservation(g):
    st = g.state
    assert_state(st)
    n = st.nplayers
    # Every goods card is somewhere in play (never in the box), exactly once.
    places = ["deck", "discard", "drawn"] + [f"{p}.incoming" for p in range(n)]
    places += [f"#{t}.{s}" for t in st.zones["market"] for s in ("up", "down")]
    places += [f"#{k}.load" for p in range(n) for k in st.zones[f"{p}.caravan"]]
    cards = [c for key in places for c in st.zones[key]]
    assert len(cards) == 127 and set(cards) == GOODS
    # Face-down cards lie only under tiles.
    down = {c for t in st.zones["market"] for c in st.zones[f"#{t}.down"]}
    assert st.facedown <= down
    # Coins: bank + players + tiles = the 120 printed coins; nobody is below 0.
    players = [st.counters[f"{p}.coins"] for p in range(n)]
    tiles = [st.counters[f"#{t}.coins"] for t in IDS["tile"]]
    assert min(players) >= 0 and min(tiles) >= 0
    assert st.counters["bank"] + sum(players) + sum(tiles) == TOTAL_COINS
    # Tokens: 5 of each kind, in the supply or with the players.
    for supply, own in (("research_supply", "research"), ("extra_supply", "extra_sales")):
        assert st.counters[supply] + sum(st.counters[f"{p}.{own}"] for p in range(n)) == 5
        assert st.counters[supply] >= 0
    # Between decisions, no camel is over its capacity and nothing waits to be loaded, except while its
    # owner is loading (the `incoming` zone holds the cards that are being loaded).
    if st.phase != "buying":
        for p in range(n):
            assert st.zones[f"{p}.incoming"] == []
            for k in st.zones[f"{p}.caravan"]:
                load = st.zones[f"#{k}.load"]
                assert len(load) <= RS.components[k].attrs["capacity"]
                assert len({RS.components[c].attrs["good"] for c in load}) <= 1


@pytest.mark.parametrize("n", [3, 4, 5])
def test_cards_and_coins_are_conserved(n):
    for seed in range(8):
        random_game(n, 1000 + seed, _check_conservation)


def test_one_kind_per_camel_and_one_camel_per_kind():
    def check(g):
        st = g.state
        for p in range(st.nplayers):
            kinds = []
            for k in st.zones[f"{p}.caravan"]:
                load = {RS.components[c].attrs["good"] for c in st.zones[f"#{k}.load"]}
                assert len(load) <= 1
                kinds += list(load)
            assert len(kinds) == len(set(kinds))
    for n in (3, 4, 5):
        for seed in range(5):
            random_game(n, 2000 + seed, check)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_replay_from_seed_and_actions_is_identical(n):
    for seed in range(5):
        g = random_game(n, 3000 + seed)
        again = Game.replay(RS, n, 3000 + seed, g.state.actions)
        assert again.dumps() == g.dumps()
        assert again.scores == g.scores and again.winners == g.winners


def test_save_and_restore_mid_game_continues_identically():
    g = RS.new_game(4, 77)
    rng = random.Random(77)
    for _ in range(150):
        seat = g.deciders[0]
        g.apply_index(rng.randrange(g.num_actions(seat)), seat)
    saved = g.dumps()
    h = Game.from_json(RS, json.loads(saved))
    c = g.copy()
    assert h.dumps() == saved == c.dumps()
    r1, r2, r3 = random.Random(5), random.Random(5), random.Random(5)
    for game, r in ((g, r1), (h, r2), (c, r3)):
        while not game.is_over:
            seat = game.deciders[0]
            game.apply_index(r.randrange(game.num_actions(seat)), seat)
    assert g.dumps() == h.dumps() == c.dumps()


# ------------------------------------------------------------------ hidden information
def _swap_hidden(g, a, b):
    """Exchange two hidden cards (places and face-down flags): what nobody may tell apart."""
    st = g.state
    ka, kb = st.loc[a], st.loc[b]
    za, zb = st.writable(ka), st.writable(kb)  # zones are shared with copies until written
    ia, ib = za.index(a), zb.index(b)
    za[ia], zb[ib] = b, a
    st.loc[a], st.loc[b] = kb, ka
    fa, fb = a in st.facedown, b in st.facedown
    st.facedown.discard(a)
    st.facedown.discard(b)
    if fa:
        st.facedown.add(b)
    if fb:
        st.facedown.add(a)


def back(c):
    return RS.components[c].attrs["back"]


def _check_views(rng):
    def check(g):
        st = g.state
        n = st.nplayers
        hidden = set(st.zones["deck"]) | set(st.facedown)
        views = [g.view(p) for p in range(n)]
        for p, v in enumerate(views):
            text = json.dumps(v)
            # No deck card and no face-down card is ever named, by anyone.
            assert not (visible_ids(g, p) & hidden)
            # The deck shows its size and its top card's back: the auction symbol, which is public
            deck = st.zones["deck"]
            assert v["zones"]["deck"] == ({"count": len(deck), "top": {"hidden": True, "back": {"back": back(deck[0])}}}
                                          if deck else {"count": 0})
            assert "bank" not in v["counters"]
            for t in v["zones"]["market"]:  # a face-down card shows its back, its symbol, and nothing else
                assert all(set(c) == {"hidden", "back"} for c in t["slots"]["down"])
            # Nobody sees another player's coins (until the end, when they are the scores).
            for seat in v["seats"]:
                assert ("coins" in seat["counters"]) == (seat["seat"] == p)
            if not st.over:
                assert "scores" not in text
        # Indistinguishability: exchanging two hidden cards, or changing another player's coins, changes no
        # other player's view.
        pick = rng.choice(sorted(hidden)) if hidden else None
        alike = [c for c in sorted(hidden) if back(c) == back(pick)] if hidden else []
        if len(alike) >= 2:  # two hidden cards of one back (the top's may only change for one of its back)
            a, b = rng.sample(alike, 2)
            h = g.copy()
            _swap_hidden(h, a, b)
            for p in range(n):
                assert json.dumps(h.view(p)) == json.dumps(views[p])
        if not st.over:
            q = rng.randrange(n)
            h = g.copy()
            h.state.counters[f"{q}.coins"] += 7
            h.state.counters["bank"] -= 7
            for p in range(n):
                if p != q:
                    assert json.dumps(h.view(p)) == json.dumps(views[p])
        # A sealed bid: whatever one player bid, the others' views are the same until all have bid.
        if st.pending is not None and len(g.deciders) >= 2:
            d, v = g.deciders[0], g.deciders[1]
            k = g.num_actions(d)
            lo, hi = g.copy(), g.copy()
            lo.apply_index(0, d)
            hi.apply_index(k - 1, d)
            assert json.dumps(lo.view(v)) == json.dumps(hi.view(v))
            for p in range(n):
                assert json.dumps(lo.view(p)) == json.dumps(hi.view(p))
    return check


@pytest.mark.parametrize("n", [3, 4, 5])
def test_views_hide_coins_bids_face_down_cards_and_deck_order(n):
    for seed in range(3):
        random_game(n, 4000 + seed, _check_views(random.Random(seed)))
