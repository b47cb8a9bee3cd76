"""Chance as a decision: with chance="explicit" every random event is a chance node with exact
probabilities; without it, games run from their seed exactly as they always did."""

import json
import textwrap
from collections import Counter
from fractions import Fraction
from math import factorial

import meeple
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from meeple.errors import IllegalAction
from meeple.runtime import chancesites
from meeple.runtime import state as state_module
from meeple.runtime.chance import CHANCE, NeedChance, ScriptedRng
from meeple.runtime.game import Game
from meeple.runtime.rules import load_ruleset
from meeple.runtime.state import MASK64
from support import random_game

TOY = """\
meeple: 1
name: Toy
players: {min: 2, max: 2}
counters:
  game: {roll: 0}
  player: {points: 0}
zones:
  game: {deck: {visibility: hidden}, row: {}}
  player: {hand: {visibility: owner}}
components:
  card:
    items:
      - {id: ace, name: Ace, value: 1, count: 2}
      - {id: king, name: King, value: 3}
setup: |
  SETUP
flow: |
  FLOW
scoring:
  score: p.points
"""


def toy(tmp_path, setup="move(components(\"card\"), deck)", flow="pass"):
    text = TOY.replace("SETUP", textwrap.indent(textwrap.dedent(setup).strip(), "  ").lstrip())
    text = text.replace("FLOW", textwrap.indent(textwrap.dedent(flow).strip(), "  ").lstrip())
    path = tmp_path / "toy.yaml"
    path.write_text(text)
    return load_ruleset(path)


def leaves(game, prob=Fraction(1)):
    """Every way the chance events of a game (with no player decision) can go: (final game, probability)."""
    if not game.is_chance:
        yield game, prob
        return
    for action, p in game.chance_outcomes():
        g = game.copy()
        g.apply(action)
        yield from leaves(g, prob * p)


class SeedOnlyRng:
    """The seeded RNG as it was before chance nodes existed, written out independently: splitmix64,
    `below(n)` by multiply-shift, Fisher-Yates shuffles, and no idea which items are identical."""

    explicit = False

    def __init__(self, state):
        self.state = state & MASK64

    def copy(self):
        return SeedOnlyRng(self.state)

    def below(self, n):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return ((z ^ (z >> 31)) * n) >> 64

    def pick(self, items, key=None):
        return self.below(len(items))

    def shuffle(self, items, key=None):
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def fingerprint(g):
    return json.dumps([g.state.actions, g.state.zones, g.state.log, g.scores], sort_keys=True, default=str)


@pytest.mark.parametrize("name", ["speicherstadt", "merchants", "camel_up_off_season", "demoludy"])
def test_seeded_games_are_unchanged(name, monkeypatch):
    rs = meeple.load_ruleset(name)
    for seed in (1, 2):
        now = random_game(rs, rs.min_players, seed)
        assert not now.explicit_chance and not now.is_chance
        with monkeypatch.context() as m:
            m.setattr(state_module, "Rng", SeedOnlyRng)
            before = random_game(rs, rs.min_players, seed)
        assert isinstance(before.state.rng, SeedOnlyRng)
        assert fingerprint(now) == fingerprint(before)


def test_a_shuffle_is_drawn_card_by_card_and_identical_cards_are_one_outcome(tmp_path):
    rs = toy(tmp_path, setup='move(components("card"), deck)\nshuffle(deck)')
    g = rs.new_game(2, chance="explicit")
    assert g.is_chance and g.current_player == CHANCE and g.deciders == []
    outcomes = {a["label"]: p for a, p in g.chance_outcomes()}
    assert outcomes == {"Ace": Fraction(2, 3), "King": Fraction(1, 3)}
    orders = Counter()
    for end, p in leaves(g):
        orders[tuple(end.evaluate("[c.name for c in deck]"))] += p
    assert orders == {("Ace", "Ace", "King"): Fraction(1, 3), ("Ace", "King", "Ace"): Fraction(1, 3),
                      ("King", "Ace", "Ace"): Fraction(1, 3)}


def test_random_pick_groups_equal_values_with_summed_probability(tmp_path):
    rs = toy(tmp_path, setup="roll = random_pick([1, 1, 2, 3])")
    g = rs.new_game(2, chance="explicit")
    got = {a["label"]: p for a, p in g.chance_outcomes()}
    assert got == {"1": Fraction(1, 2), "2": Fraction(1, 4), "3": Fraction(1, 4)}
    assert sum(got.values()) == 1
    g.apply("3")
    assert not g.is_chance and g.is_over and g.evaluate("roll") == 3


def test_a_sure_thing_is_no_chance_event(tmp_path):
    rs = toy(tmp_path, setup='roll = random_pick([5, 5])\nmove(components("ace"), deck)\nshuffle(deck)')
    g = rs.new_game(2, chance="explicit")
    assert not g.is_chance and g.evaluate("roll") == 5


def test_chance_after_a_decision_and_in_the_log(tmp_path):
    flow = """
    choose player(0) "Draw?":
        option "Draw":
            shuffle(deck)
            draw(1, deck, player(0).hand)
        option "Stay":
            pass
    """
    rs = toy(tmp_path, flow=flow)
    g = rs.new_game(2, chance="explicit")
    assert not g.is_chance and g.current_player == 0
    g.apply("Draw")
    assert g.is_chance and g.num_actions() == 2
    before = g.to_json()
    with pytest.raises(IllegalAction):
        g.apply({"player": 0, "key": "0"})
    with pytest.raises(IllegalAction):
        g.apply({"player": CHANCE, "key": "7"})
    # Found by QA: "²" (a digit to `isdigit`, not to `int`) raised ValueError; "00" and "٣" were outcomes
    for other_spelling in ("²", "①", "00", "٣", "+1", " 1", "9" * 5000):
        with pytest.raises(IllegalAction, match="is not an outcome of this chance event"):
            g.apply({"player": CHANCE, "key": other_spelling})
    assert g.to_json() == before
    g.apply("King")
    assert g.is_over
    assert g.evaluate("[c.name for c in player(0).hand]") == ["King"]
    assert [a["player"] for a in g.state.actions] == [0, CHANCE]
    again = Game.from_json(rs, g.dumps())
    assert again.explicit_chance and again.state.actions == g.state.actions
    assert again.evaluate("list(player(0).hand)") == g.evaluate("list(player(0).hand)")


def test_chance_nodes_are_copied_not_shared(tmp_path):
    rs = toy(tmp_path, setup='move(components("card"), deck)\nshuffle(deck)')
    g = rs.new_game(2, chance="explicit")
    fork = g.copy()
    fork.apply("King")
    assert g.is_chance and {a["label"] for a, _ in g.chance_outcomes()} == {"Ace", "King"}
    assert not fork.is_chance and fork.evaluate("[c.name for c in deck]") == ["King", "Ace", "Ace"]


@pytest.mark.parametrize("name", ["merchants", "demoludy"])
def test_bundled_games_play_to_the_end_with_explicit_chance(name):
    rs = meeple.load_ruleset(name)
    g = rs.new_game(rs.min_players, 3, chance="explicit")
    chance_nodes = 0
    i = 0
    while not g.is_over:
        if g.is_chance:
            outs = g.chance_outcomes()
            assert sum(p for _, p in outs) == 1 and all(p > 0 for _, p in outs)
            assert len({a["key"] for a, _ in outs}) == len(outs)
            chance_nodes += 1
        i += 1
        g.apply_index(i % g.num_actions())
    assert chance_nodes > 0
    replayed = Game.replay(rs, rs.min_players, 3, g.state.actions, chance="explicit")
    assert replayed.scores == g.scores and replayed.state.zones == g.state.zones


@settings(derandomize=True, max_examples=40, deadline=None)
@given(st.lists(st.sampled_from("abc"), min_size=0, max_size=6))
def test_a_shuffle_deals_every_distinct_order_with_its_exact_probability(items):
    # Walk every sequence of outcomes of one scripted shuffle: each distinct order of the items comes
    # out exactly once, with probability (product of the counts' factorials) / n!, i.e. uniformly.
    orders: dict[tuple, Fraction] = {}

    def walk(script, prob):
        rng = ScriptedRng(script)
        deck = list(items)
        try:
            rng.shuffle(deck, key=lambda x: x)
        except NeedChance as need:
            assert sum(p for _, p, _ in need.outcomes) == 1
            for value, p, _ in need.outcomes:
                walk(script + [value], prob * p)
            return
        assert tuple(deck) not in orders
        orders[tuple(deck)] = prob

    walk([], Fraction(1))
    counts = Counter(items)
    distinct = factorial(len(items))
    for c in counts.values():
        distinct //= factorial(c)
    assert len(orders) == distinct
    assert set(orders.values()) == {Fraction(1, distinct)}
    assert all(Counter(o) == counts for o in orders)


@settings(derandomize=True, max_examples=60, deadline=None)
@given(st.lists(st.sampled_from("abcd"), min_size=2, max_size=12), st.randoms(use_true_random=False))
def test_each_draw_of_a_shuffle_offers_what_grouping_the_items_left_offers(items, rnd):
    # A shuffle in progress works its next draw's outcomes out from the last one's (a hundred cards in
    # twenty kinds are drawn card by card): the same groups, in the same order, with the same counts
    # and representatives, as grouping the items left again.
    from meeple.runtime.chance import Draws

    rng, shuffling = ScriptedRng(), None
    try:
        rng.shuffle(list(items), key=lambda x: x)
    except NeedChance as need:
        shuffling = need.shuffle
    while shuffling is not None:
        draws = shuffling.draws()
        again = Draws(shuffling.items, shuffling.keys)
        assert (draws.groups, draws.total) == (again.groups, again.total)
        value = rnd.choice(draws.groups)[0]
        left = shuffling.keys[:value] + shuffling.keys[value + 1:]
        shuffling = shuffling.after(value)
        # It ends exactly when the items left are all alike (no choice left): two kinds, the last of
        # one drawn, included (the shortcut in `after`).
        assert (shuffling is None) == (len(set(left)) <= 1)


def test_a_shuffle_runs_its_step_once_not_once_per_card(tmp_path, monkeypatch):
    # A step with a shuffle used to run again from its start after every card drawn (a game of Camel Up
    # with explicit chance took a second); the shuffle's later draws need no replay, only its last.
    from meeple.runtime import explicit

    runs = []
    real = explicit.run_step  # a run of the step from the state it replays from
    monkeypatch.setattr(explicit, "run_step", lambda game, step, outcomes, spent=0: runs.append(step) or real(game, step, outcomes, spent))
    rs = toy(tmp_path, setup='move(components("card"), deck)\nshuffle(deck)\nroll = random_pick([1, 2])')
    g = rs.new_game(2, chance="explicit")
    assert len(runs) == 1 and {a["label"] for a, _ in g.chance_outcomes()} == {"Ace", "King"}
    g.apply("Ace")
    assert len(runs) == 1 and {a["label"] for a, _ in g.chance_outcomes()} == {"Ace", "King"}
    # The last card is a sure thing: the shuffle is over, and the step goes on from the statement after
    # it (a statement of its own in the setup's block), without running the step again.
    g.apply("King")
    assert len(runs) == 1 and {a["label"] for a, _ in g.chance_outcomes()} == {"1", "2"}
    g.apply("2")  # a random_pick inside an assignment: the step runs again, from after the shuffle
    assert len(runs) == 2 and runs[1].resume == explicit.REST and g.is_over
    assert g.evaluate("[c.name for c in deck]") == ["Ace", "King", "Ace"] and g.evaluate("roll") == 2
    assert [a["key"] for a in g.state.actions] == ["0", "1", "1"]


@pytest.mark.parametrize("name", ["speicherstadt", "demoludy"])
def test_a_draw_inside_a_shuffle_shows_what_a_replay_of_its_step_shows(name):
    # Between two draws of a shuffle the game is not run again: its state, log, views and outcomes
    # must be those that running the step again with the same outcomes gives.
    from meeple.runtime import explicit

    rs = meeple.load_ruleset(name)
    g = rs.new_game(rs.min_players, 4, chance="explicit")
    inside = 0
    for i in range(60):
        assert g.is_chance
        node = g._chance
        if len(node.outcomes) and node.shuffle is not None:
            inside += 1
            again = g.copy()
            explicit.run_step(again, node.step, node.outcomes)
            assert again.to_json() == g.to_json()
            assert again.chance_outcomes() == g.chance_outcomes()
            assert again.view(0) == g.view(0) and again.log_for(0) == g.log_for(0)
        g.apply_index(i % g.num_actions())
    assert inside > 40


def test_a_playout_through_chance_nodes_makes_no_labels_and_no_fractions(tmp_path, monkeypatch):
    # num_actions and apply_index at a chance node are what random playouts call at every draw:
    # labels and exact probabilities are made only for callers that ask for them.
    from meeple.runtime import chancenodes

    rs = toy(tmp_path, setup='move(components("card"), deck)\nshuffle(deck)\nroll = random_pick([1, 2])')
    g = rs.new_game(2, chance="explicit")
    monkeypatch.setattr(chancenodes, "show", lambda *a: pytest.fail("a label was made"))
    monkeypatch.setattr(chancenodes.Draws, "outcomes", lambda self: pytest.fail("probabilities were made"))
    while g.is_chance:
        g.apply_index(g.num_actions() - 1)
    assert g.is_over and g.evaluate("[c.name for c in deck]") == ["King", "Ace", "Ace"] and g.evaluate("roll") == 2


def test_a_game_whose_draws_all_come_before_its_first_decision_resolves_decisions_in_place(tmp_path, monkeypatch):
    # Each decision of an explicit game used to copy the state first, in case the step drew; a game
    # that draws only in its setup (Kuhn poker's deal) never needs that copy.
    from meeple.runtime.state import GameState

    kuhn = meeple.load_ruleset("rulesets/reference/kuhn_poker.yaml")
    leduc = meeple.load_ruleset("rulesets/reference/leduc_poker.yaml")
    assert not chancesites.draws_after_start(kuhn) and chancesites.draws_after_start(leduc)
    g = kuhn.new_game(2, chance="explicit")
    while g.is_chance:
        g.apply_index(0)
    copies = []
    real = GameState.copy
    monkeypatch.setattr(GameState, "copy", lambda self: copies.append(1) or real(self))
    while not g.is_over:
        g.apply_index(0)
    assert copies == []
    # a setup that waits for a decision may still draw after it: such a game keeps the replays
    flow = """
    choose player(0) "Shuffle first?":
        option "Yes":
            shuffle(deck)
        option "No":
            pass
    """
    assert chancesites.draws_after_start(toy(tmp_path, flow=flow))
    rs = toy(tmp_path, setup='move(components("card"), deck)\nchoose player(0) "Shuffle?":\n    option "Yes":\n        shuffle(deck)\n    option "No":\n        pass')
    assert chancesites.draws_after_start(rs)
    g = rs.new_game(2, chance="explicit")
    g.apply("Yes")
    assert g.is_chance


def test_a_pick_between_copies_in_different_places_is_one_outcome_each(tmp_path):
    # Found by QA: the ace in P1's hand and the ace in the deck were one outcome of 2/3, and the first
    # copy always went: P1 lost its ace with probability 2/3 where the seeded game gives 1/3.
    setup = 'move(components("card"), deck)\ndraw(1, deck, player(0).hand)\nmove(random_pick(components("card")), row)'
    rs = toy(tmp_path, setup=setup)
    taken = Fraction(0)
    for end, p in leaves(rs.new_game(2, chance="explicit")):
        if end.evaluate("count(player(0).hand)") == 0:
            taken += p
    assert taken == Fraction(1, 3)
    assert len(rs.new_game(2, chance="explicit").chance_outcomes()) == 3


def test_a_pick_from_a_shuffled_pile_leaves_each_order_with_its_seeded_probability(tmp_path):
    # Found by QA: after A, A, K were shuffled, taking "an ace" always took the first one, so the king
    # came out on top 4/9 of the time instead of 1/3.
    rs = toy(tmp_path, setup='move(components("card"), deck)\nshuffle(deck)\nmove(random_pick(deck), row)')
    top = Counter()
    for end, p in leaves(rs.new_game(2, chance="explicit")):
        top[end.evaluate("first(deck).name")] += p
    assert top == {"Ace": Fraction(2, 3), "King": Fraction(1, 3)}


def test_a_pick_of_values_still_groups_equal_ones_and_the_same_component_twice_is_one(tmp_path):
    rs = toy(tmp_path, setup='move(components("card"), deck)\nroll = random_pick([1, 1, 2])\nmove(random_pick([first(deck), first(deck)]), row)')
    g = rs.new_game(2, chance="explicit")
    assert sorted(p for _, p in g.chance_outcomes()) == [Fraction(1, 3), Fraction(2, 3)]
    g.apply_index(0)
    assert not g.is_chance  # the same component twice is a sure thing


def test_a_pick_the_rules_change_where_it_lies_is_one_outcome_per_copy(tmp_path):
    # Adjacent copies are one outcome only when the pick is moved away at once: turning one of two
    # aces face down where it lies leaves two different decks, each half the time.
    rs = toy(tmp_path, setup='move(components("card"), deck)\nconceal(random_pick(deck))')
    faces = Counter()
    for end, p in leaves(rs.new_game(2, chance="explicit")):
        faces[tuple(c in end.state.facedown for c in end.state.zones["deck"])] += p
    assert faces == {(True, False, False): Fraction(1, 3), (False, True, False): Fraction(1, 3),
                     (False, False, True): Fraction(1, 3)}


@pytest.mark.parametrize("then", ["", "\n    shuffle(deck)"])
def test_a_card_a_seat_held_when_the_step_began_is_named_in_its_log_as_in_a_seeded_game(tmp_path, then):
    # Found in stop 37: an explicit game forgot where components were when a step began, so a player who
    # put their own card back read "a hidden card" where the seeded game names it. Both ways of resolving
    # a decision are covered: in place (no draw after the start) and by replay (a shuffle after it).
    flow = 'choose player(0) "Put it back?":\n    option "Yes":\n        c = first(player(0).hand)\n' \
           '        move(c, deck)\n        log("{player(0).name} puts back {c.name}")' + textwrap.indent(then, "    ")
    rs = toy(tmp_path, setup='move(components("card"), deck)\nshuffle(deck)\ndraw(1, deck, player(0).hand)', flow=flow)
    g = rs.new_game(2, chance="explicit")
    g.apply_index(1)  # the king on top
    held = g.evaluate("first(player(0).hand).name")
    g.apply("Yes")
    while g.is_chance:
        g.apply_index(0)
    assert g.log_for(0)[-1] == f"P1 puts back {held}" and held == "King"
    assert g.log_for(1)[-1] == "P1 puts back a hidden card"


def test_an_explicit_game_starts_from_the_setups_seedless_opening_with_the_same_step_budget(tmp_path, monkeypatch):
    # The statements before a setup's first draw are the same in every game: run once, then copied,
    # as for seeded games. The start's budget still counts from step 0.
    from meeple.runtime import game as game_module

    loop = "for i in [1, 2, 3, 4, 5, 6]:\n    roll += i\n"  # a step per round
    rs = toy(tmp_path, setup='move(components("card"), deck)\n' + loop + "shuffle(deck)\n" + loop.replace("4, 5, 6", "0"))
    rs.new_game(2, chance="explicit")
    monkeypatch.setattr(game_module, "initial_state", lambda *a: pytest.fail("the opening ran again"))
    g = rs.new_game(2, chance="explicit")
    assert g.is_chance and g.evaluate("roll") == 21
    monkeypatch.undo()
    seen = set()
    for budget in range(1, 14):  # the smallest budget that lets the start run is the same both ways
        monkeypatch.setattr(Game, "max_steps", budget)
        ok = {}
        for chance in ("seeded", "explicit"):
            try:
                g = rs.new_game(2, chance=chance)
                while g.is_chance:
                    g.apply_index(0)
                ok[chance] = True
            except meeple.RuntimeRuleError:
                ok[chance] = False
        assert ok["seeded"] == ok["explicit"], budget
        seen.add(ok["seeded"])
    assert seen == {True, False}  # some budgets were too small: the comparison means something


def test_new_games_share_what_a_shuffles_first_draw_leaves_and_nothing_else(tmp_path):
    # Every new game with explicit chance starts from one chance node (shortcuts.reused), whose shuffle
    # keeps what each outcome leaves: the second game gets the same next node, not a new one. What the
    # games then do is their own: the outcomes one is offered do not change with the other's draws.
    rs = toy(tmp_path, setup='move(components("card"), deck)\nshuffle(deck)')
    a, b = rs.new_game(2, 1, chance="explicit"), rs.new_game(2, 2, chance="explicit")
    offered = [(x["label"], p) for x, p in b.chance_outcomes()]
    a.apply_index(0)
    b.apply_index(0)
    assert a._chance is b._chance and a._chance.shuffle is not None  # the node itself, shared
    first = [(x["label"], p) for x, p in b.chance_outcomes()]
    while a.is_chance:
        a.apply_index(len(a.chance_outcomes()) - 1)
    assert [(x["label"], p) for x, p in b.chance_outcomes()] == first != offered
    c = rs.new_game(2, 3, chance="explicit")
    assert [(x["label"], p) for x, p in c.chance_outcomes()] == offered
