"""The Python API takes what a researcher's code hands it: NumPy's whole numbers work as numbers, and
anything else is refused with a plain, typed error. Found by a researcher's misuse pass: a seat from a
NumPy array made `num_actions` answer 0, and `apply_index` refuse a valid index."""

import pytest
from meeple.errors import IllegalAction, UsageError
from meeple.runtime.rules import load_ruleset

KUHN = "rulesets/reference/kuhn_poker.yaml"


def test_numpy_whole_numbers_are_numbers_everywhere():
    np = pytest.importorskip("numpy")
    rs = load_ruleset("speicherstadt")
    g = rs.new_game(players=np.int64(3), seed=np.int64(3))
    seat = np.int64(g.deciders[0])
    n = g.num_actions(seat)
    assert n == len(g.legal_actions(seat)) > 0
    g.apply_index(np.int64(0), seat)
    g.apply(np.int64(0))
    action = dict(g.legal_actions()[0], player=np.int64(g.deciders[0]))
    g.apply(action)
    assert g.determinize(0, np.int64(1)).state.nplayers == 3
    chance = load_ruleset(KUHN).new_game(players=2, seed=1, chance="explicit")
    chance.apply(np.int64(0))  # a chance outcome by its index
    chance.apply_index(np.int64(0))
    assert not chance.is_chance


def test_what_is_no_seat_or_number_is_refused_plainly():
    rs = load_ruleset("speicherstadt")
    g = rs.new_game(players=3, seed=3)
    for bad in (5, "0", True, 1.0, [0]):
        for ask in (g.legal_actions, g.num_actions, g.menu):  # menu: found by QA ("0" was [], [0] a TypeError)
            with pytest.raises(UsageError, match="G009|is not a seat"):
                ask(bad)
    with pytest.raises(UsageError, match="G009"):
        g.menu(None)  # (legal_actions and num_actions read None as the seat that decides now)
    with pytest.raises(IllegalAction, match="-3 is not a seat"):
        g.apply_index(0, -3)  # was "P-2 does not decide now"
    with pytest.raises(IllegalAction, match="whole number"):
        g.apply_index(1.0)
    with pytest.raises(IllegalAction, match="chance seat"):
        g.apply({"player": -1, "key": "0"})  # was "it is not P0's decision"
    with pytest.raises(UsageError, match="the seed must be a whole number"):
        g.determinize(0, "x")
    with pytest.raises(UsageError, match="is for 2 to 5 players, not 9"):
        rs.new_game(players=9, seed=1)
    with pytest.raises(UsageError, match="the number of players must be a whole number"):
        rs.new_game(players=3.0, seed=1)


def test_a_seat_that_made_its_sealed_choice_has_no_actions_left():
    g = load_ruleset("camel_up_off_season").new_game(players=3, seed=1)
    assert len(g.deciders) == 3  # a sealed bid: everyone decides at once
    first = g.deciders[0]
    g.apply_index(0, first)
    assert g.num_actions(first) == len(g.legal_actions(first)) == 0
    assert all(g.num_actions(s) == len(g.legal_actions(s)) > 0 for s in g.deciders)


def test_the_action_log_handed_out_is_a_copy():
    g = load_ruleset("speicherstadt").new_game(players=3, seed=3)
    for _ in range(5):
        g.apply_index(0)
    log = g.state.actions
    log.pop()
    log[0]["key"] = "nonsense"
    assert len(g.state.actions) == 5 and g.state.actions[0]["key"] != "nonsense"
    assert type(g).from_json(g.rs, g.to_json()).to_json() == g.to_json()


def test_determinize_waits_for_a_player_decision():
    g = load_ruleset(KUHN).new_game(players=2, seed=1, chance="explicit")
    assert g.is_chance
    with pytest.raises(UsageError, match="chance event is open"):
        g.determinize(0, 1)


def test_a_game_pickles_and_goes_on_where_it_is_unpickled():
    """A researcher's multiprocessing or vectorised environment ships games between processes: pickling
    failed on the generated code a game runs ("Can't pickle <function MN_130>")."""
    import pickle

    g = load_ruleset("demoludy").new_game(players=3, seed=2)
    for _ in range(10):
        g.apply_index(0, g.deciders[0])
    h = pickle.loads(pickle.dumps(g))
    assert h.to_json() == g.to_json() and h.deciders == g.deciders
    for game in (g, h):
        while not game.is_over:
            game.apply_index(0, game.deciders[0])
    assert h.scores == g.scores
    chance = load_ruleset(KUHN).new_game(players=2, seed=1, chance="explicit")
    assert pickle.loads(pickle.dumps(chance)).is_chance


def test_a_game_for_one_number_of_players_says_that_number():
    rs = load_ruleset("tests/rulesets/showdown.yaml")
    assert rs.min_players == rs.max_players == 2
    with pytest.raises(UsageError, match="is for 2 players, not 3"):  # was "for 2 to 2 players"
        rs.new_game(players=3, seed=1)


def test_take_evaluate_and_menu_refuse_or_answer_plainly_what_they_cannot_do():
    """Found by QA: `take` at a chance event applied the outcome and then failed with an IndexError,
    `take("Pass")` and `evaluate(5)` were a TypeError and an AttributeError, and `menu(seat)` still gave
    the options of a seat that had made its sealed choice."""
    rs = load_ruleset("rulesets/reference/kuhn_poker.yaml")
    g = rs.new_game(2, chance="explicit")
    before = g.to_json()
    with pytest.raises(IllegalAction, match="G003"):
        g.take(0)
    assert g.to_json() == before and g.is_chance
    g = rs.new_game(2, 3)
    with pytest.raises(IllegalAction, match="G005"):
        g.take("Pass")
    with pytest.raises(UsageError, match="G009"):
        g.take(0, 5)
    with pytest.raises(UsageError, match="G013"):
        g.evaluate(5)
    assert g.take(0).label == "Pass"
    camel = load_ruleset("camel_up_off_season").new_game(3, 1)
    while len(camel.deciders) < 2:
        camel.apply_index(0)
    seat = camel.deciders[0]
    assert camel.menu(seat)
    camel.apply_index(0, seat)
    assert camel.menu(seat) == [] and camel.num_actions(seat) == 0
