"""Pan tu nie stał! Demoludy (base game, Variant 1, Variant 2, both) as a specification: scenarios, random
play that ends, conservation of cards and tokens, replays, and views that keep secrets."""

import json
import random
from pathlib import Path

import pytest
from meeple.runtime.game import Game
from meeple.runtime.machine import assert_state
from meeple.runtime.render import render
from meeple.runtime.rules import load_ruleset
from meeple.tools.report import render_text
from meeple.tools.scenarios import run_file
from support import random_game, visible_ids

ROOT = Path(__file__).resolve().parent.parent
RULESETS = {
    "base": "rulesets/demoludy.yaml",
    "points": "rulesets/variants/demoludy_points.yaml",
    "actions": "rulesets/variants/demoludy_actions.yaml",
    "points_actions": "rulesets/variants/demoludy_points_actions.yaml",
}
RS = {k: load_ruleset(ROOT / v) for k, v in RULESETS.items()}
SCENARIOS = ["demoludy.yaml", "demoludy_points.yaml", "demoludy_actions.yaml"]
GAMES_PER_COUNT = 100


def ids_of(rs, kind, **attrs):
    return {c.id for c in rs.components if c.kind == kind and all(c.attrs.get(k) == v for k, v in attrs.items())}


# ---------------------------------------------------------------- scenarios
@pytest.mark.parametrize("name", SCENARIOS)
def test_scenarios(name):
    results = run_file(ROOT / "rulesets" / "scenarios" / name)
    assert results
    failed = [r for r in results if not r.ok]
    assert not failed, "\n".join(f"{r.name}:\n{render_text(r.problems)}" for r in failed)


def test_card_data():
    rs = RS["base"]
    cards = [c for c in rs.components if c.kind == "card"]
    assert len(cards) == 110
    assert sum(c.attrs["type"] == "goods" for c in cards) == 90
    assert sum(c.attrs["type"] == "action" for c in cards) == 14
    assert sorted(c.attrs["value"] for c in cards if c.attrs["type"] == "dollar") == [7, 7, 7, 7, 10, 10]
    for colour in ["red", "green", "purple", "orange", "blue"]:
        values = sorted(c.attrs["value"] for c in cards if c.attrs["colour"] == colour)
        assert values == sorted(list(range(2, 8)) * 3)
    tokens = [c for c in rs.components if c.kind == "token"]
    assert sorted((t.attrs["country"], t.attrs["value"]) for t in tokens) == sorted(
        (k, v) for k in ["zssr", "wrl", "turcja", "nrd", "cssr"] for v in range(1, 6))


# ---------------------------------------------------------------- random play
@pytest.mark.parametrize("variant", list(RULESETS))
@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_end_with_one_winner(variant, players):
    rs = RS[variant]
    for seed in range(GAMES_PER_COUNT):
        g = random_game(rs, players, seed)
        assert g.is_over
        assert len(g.winners) == 1
        w = g.winners[0]
        assert g.evaluate("has_won(p)", {"p": g._ev.global_value("players", None)[w]})
        assert g.scores[w] == 1 and sum(g.scores) == 1


# ---------------------------------------------------------------- conservation
def conservation_check(rs):
    cards = ids_of(rs, "card")
    actions = ids_of(rs, "card", type="action")
    tokens = ids_of(rs, "token")
    in_deck = rs.constants["action_cards_in_deck"]
    face_down_stacks = rs.constants["tokens_face_down"]

    def check(g):
        st = g.state
        assert_state(st)
        n = st.nplayers
        card_zones = ["deck", "discard"] + [f"{p}.{z}" for p in range(n) for z in ("hand", "row")]
        seen = [c for z in card_zones for c in st.zones[z]]
        boxed = [c for c in st.zones["box"] if c in cards]
        assert sorted(seen + boxed) == sorted(cards), "every card is in the deck, the discard, a hand, a row or the box"
        assert set(boxed) == (set() if in_deck else actions), "the box holds exactly the unused action cards"
        assert not any(c in actions and c not in st.facedown for p in range(n) for c in st.zones[f"{p}.row"]), \
            "an action card stays on the table only as a face-down card"
        stacks = [c for k in ids_of(rs, "country") for c in st.zones[f"#{k}.stack"]]
        placed = stacks + st.zones["centre"] + [c for p in range(n) for c in st.zones[f"{p}.car"]]
        assert sorted(placed) == sorted(tokens), "every token is in a stack, on auction or on a car"
        assert len(st.zones["centre"]) <= 1
        for p in range(n):
            car = [rs.components[c].attrs["country"] for c in st.zones[f"{p}.car"]]
            assert len(car) == len(set(car)), "one token per country on a car"
            assert len(car) <= 4
            assert not any(c in st.facedown for c in st.zones[f"{p}.hand"]), "no card is face down in a hand"
        for k in ids_of(rs, "country"):
            stack = st.zones[f"#{k}.stack"]
            down = [c in st.facedown for c in stack]
            # Variant 1: the token under the one on auction stays face down until the auction ends.
            on_auction = bool(st.zones["centre"]) and rs.components[st.zones["centre"][0]].attrs["country"] == rs.components[k].item
            if not face_down_stacks or not stack:
                assert down == [False] * len(stack)
            else:
                assert down == [on_auction] + [True] * (len(stack) - 1)
        assert not any(c in st.facedown for c in st.zones["deck"]), "the deck is turned face up when reshuffled"
        ten = [c for p in range(n) for c in st.zones[f"{p}.row"]
               if rs.components[c].attrs["value"] == 10 and rs.components[c].attrs["type"] == "dollar"
               and c not in st.facedown]
        assert len(ten) <= 1, "one dollar 10 on the table at most"

    return check


@pytest.mark.parametrize("variant", list(RULESETS))
def test_conservation_at_every_step(variant):
    rs = RS[variant]
    check = conservation_check(rs)
    for players in (3, 4, 5):
        for seed in range(8):
            random_game(rs, players, 1000 + seed, check)


# ---------------------------------------------------------------- replays and saves
@pytest.mark.parametrize("variant", list(RULESETS))
def test_replay_from_seed_and_actions(variant):
    rs = RS[variant]
    for players in (3, 4, 5):
        for seed in (7, 8):
            g = random_game(rs, players, seed)
            r = Game.replay(rs, players, seed, g.state.actions)
            assert r.to_json() == g.to_json()


@pytest.mark.parametrize("variant", ["base", "points_actions"])
def test_json_round_trip_mid_game(variant):
    rs = RS[variant]
    g = rs.new_game(4, 3)
    rng = random.Random(3)
    for _ in range(60):
        if g.is_over:
            break
        g.apply_index(rng.randrange(g.num_actions()))
    h = Game.from_json(rs, json.loads(json.dumps(g.to_json())))
    assert h.to_json() == g.to_json() and h.legal_actions() == g.legal_actions()


# ---------------------------------------------------------------- hidden information
def secrets_check(rs):
    countries = ids_of(rs, "country")

    def check(g):
        st = g.state
        n = st.nplayers
        for viewer in range(n):
            v = g.view(viewer)
            text = json.dumps(v)
            secret = set(st.zones["deck"])
            for p in range(n):
                if p != viewer:
                    secret |= set(st.zones[f"{p}.hand"])
                    secret |= {c for c in st.zones[f"{p}.row"] if c in st.facedown}
            secret |= {c for c in st.zones["discard"] if c in st.facedown}
            secret |= {c for k in countries for c in st.zones[f"#{k}.stack"] if c in st.facedown}
            leaked = visible_ids(g, viewer) & secret
            assert not leaked, f"P{viewer + 1} sees {[rs.components[c].name for c in leaked]}"
            assert v["zones"]["deck"] == {"count": len(st.zones["deck"])}
            for p in range(n):
                hand = v["seats"][p]["zones"]["hand"]
                if p != viewer:
                    assert hand == {"count": len(st.zones[f"{p}.hand"])}
            if viewer not in g.deciders:
                assert "actions" not in v.get("decision", {})
            assert "Rng" not in text

    return check


@pytest.mark.parametrize("variant", list(RULESETS))
def test_views_keep_hands_face_down_cards_tokens_and_deck_secret(variant):
    rs = RS[variant]
    check = secrets_check(rs)
    for players in (3, 4, 5):
        for seed in range(4):
            random_game(rs, players, 2000 + seed, check)


def test_secret_messages_reach_only_their_player():
    """Milicjant names the taken card only to the two players concerned, Cinkciarz names the dollar only
    to the giver and the asker, and a hand shown to prove it holds no dollar is shown to the asker only."""
    rs = RS["actions"]
    names = {c.name for c in rs.components if c.kind == "card" and c.attrs["type"] != "action"}
    seen = set()
    for seed in range(60):
        g = rs.new_game(4, seed)
        rng = random.Random(seed)
        while not g.is_over:
            acts = g.legal_actions()
            secret = [a for a in acts if a["label"].startswith(("Milicjant", "Cinkciarz"))]
            a = rng.choice(secret) if secret and rng.random() < 0.7 else rng.choice(acts)
            before = len(g.state.log)
            g.apply(a)
            if a not in secret:
                continue
            actor = a["player"]
            target = int(a["label"].split(" P")[1][0]) - 1
            for who, raw in g.state.log[before:]:
                if who < -1:
                    continue  # engine notes (where points came from), never shown
                text = render(raw, None if who == -1 else who)
                if who == -1:
                    for viewer in set(range(4)) - {actor, target}:
                        shown = render(raw, viewer)
                        assert not any(n in shown for n in names), f"a public line names a card: {shown}"
                else:
                    assert who in (actor, target), text
                    if text.startswith("shown:"):
                        assert who == actor
                        seen.add("shown")
                    else:
                        seen.add(a["label"].split(":")[0])
                    for viewer in range(4):
                        if viewer != who:
                            assert text not in g.view(viewer)["log"]
    assert seen == {"shown", "Milicjant", "Cinkciarz"}, seen
