"""Every bundled ruleset and variant is an OpenSpiel game that passes OpenSpiel's own consistency checks, and the
reference games give the published figures under OpenSpiel's own algorithms."""

import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

import meeple
import meeple.openspiel as mos
from meeple.loading.files import bundled
from open_spiel.python.algorithms import get_all_states, minimax

ROOT = Path(__file__).resolve().parent.parent
KUHN = str(ROOT / "rulesets" / "reference" / "kuhn_poker.yaml")
TTT = str(ROOT / "rulesets" / "reference" / "tic_tac_toe.yaml")


REFERENCE = sorted(str(p) for p in (ROOT / "rulesets" / "reference").glob("*.yaml"))


VARIANTS = sorted(str(p) for p in (ROOT / "rulesets" / "variants").glob("*.yaml"))


@pytest.mark.parametrize("name", [*bundled(), *VARIANTS, *REFERENCE], ids=lambda n: Path(n).stem)
def test_openspiel_random_simulation_checks(name):
    # OpenSpiel's RandomSimTest: clones, legal actions sorted and unique strings, chance outcomes,
    # observation and information-state calls for every seat, returns within bounds, history; for the
    # small reference games also serialising and deserialising states along the way.
    rs = meeple.load_ruleset(name)
    game = mos.load(rs, players=rs.min_players)
    small = name in REFERENCE
    pyspiel.random_sim_test(game, num_sims=3 if small else 1, serialize=small, verbose=False)


def test_kuhn_has_the_same_tree_as_openspiels_own():
    ours, theirs = mos.load(KUHN, players=2), pyspiel.load_game("kuhn_poker")
    for chance, count in ((False, 54), (True, 58)):  # 6 deals x 9 histories, then the 4 chance nodes
        assert len(get_all_states.get_all_states(ours, include_chance_states=chance)) == \
            len(get_all_states.get_all_states(theirs, include_chance_states=chance)) == count
    states = get_all_states.get_all_states(ours, include_terminals=False)
    infosets = {(s.current_player(), s.information_state_string()) for s in states.values()}
    assert len(infosets) == 12  # 3 cards x (P1 opens, P2 answers a pass or a bet, P1 answers a bet)
    root = ours.new_initial_state()
    assert root.is_chance_node() and root.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]


def test_information_states_hold_only_what_the_seat_saw():
    game = mos.load(KUHN, players=2)
    deals = []
    for top in range(3):  # the shuffle draws the top card (P1's) first, then the next (P2's)
        for nxt in range(2):
            s = game.new_initial_state()
            s.apply_action(top)
            s.apply_action(nxt)
            cards = [s.meeple.evaluate(f"first(player({p}).hand).name") for p in (0, 1)]
            deals.append((cards, s))
    assert sorted(tuple(c) for c, _ in deals) == sorted((a, b) for a in "JQK" for b in "JQK" if a != b)
    for seat in (0, 1):
        for cards, s in deals:
            for other_cards, t in deals:
                same = s.information_state_string(seat) == t.information_state_string(seat)
                assert same == (cards[seat] == other_cards[seat])


def test_cfr_on_kuhn_reaches_the_game_value():
    game = mos.load(KUHN, players=2)
    solver = pyspiel.CFRSolver(game)
    for _ in range(1000):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    assert pyspiel.exploitability(game, policy) < 1e-3
    value = pyspiel.expected_returns(game.new_initial_state(), policy, -1, True)
    assert value[0] == pytest.approx(float(Fraction(-1, 18)), abs=1e-3)
    assert value[1] == pytest.approx(-value[0])


def test_minimax_solves_tic_tac_toe_as_a_draw():
    game = mos.load(TTT, players=2)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    value, _ = minimax.alpha_beta_search(game)
    assert value == 0.0


# ---------------------------------------------------------------- reference games against OpenSpiel's own
LEDUC = str(ROOT / "rulesets" / "reference" / "leduc_poker.yaml")
CONNECT_FOUR = str(ROOT / "rulesets" / "reference" / "connect_four.yaml")


def play_alongside(ours, theirs, seed, our_label):
    """Play one random game in both: at every step the same player (or chance) moves, with the same legal
    actions (and chance probabilities); the same action is applied to both; the payoffs agree."""
    rng = random.Random(seed)
    g = ours.new_game(2, seed, chance="explicit")
    s = theirs.new_initial_state()
    while not s.is_terminal():
        assert not g.is_over
        if s.is_chance_node():
            assert g.is_chance
            mine = {our_label(a["label"]): (a, p) for a, p in g.chance_outcomes()}
            outcomes = s.chance_outcomes()
            assert {a: pytest.approx(p) for a, p in outcomes} == {a: float(p) for a, (_, p) in mine.items()}
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            g.apply(mine[action][0])
        else:
            assert g.current_player == s.current_player()
            mine = {our_label(a["label"]): a for a in g.legal_actions()}
            assert sorted(mine) == s.legal_actions()
            action = rng.choice(s.legal_actions())
            g.apply(mine[action])
        s.apply_action(action)
    assert g.is_over and [float(x) for x in g.scores] == s.returns()
    return s.returns()


def test_leduc_poker_plays_move_for_move_like_openspiels():
    ours = meeple.load_ruleset(LEDUC)
    theirs = pyspiel.load_game("leduc_poker", {"suit_isomorphism": True})
    ranks = {"J": 0, "Q": 1, "K": 2}
    moves = {"Fold": 0, "Call": 1, "Raise": 2}
    results = Counter(tuple(play_alongside(ours, theirs, seed, lambda x: ranks.get(x, moves.get(x))))
                      for seed in range(150))
    assert len(results) > 8  # folds, showdowns and splits of several sizes were met


def test_leduc_poker_has_the_same_tree_as_openspiels_own():
    ours = mos.load(LEDUC, players=2)
    theirs = pyspiel.load_game("leduc_poker", {"suit_isomorphism": True})
    counts, infosets = [], []
    for g in (ours, theirs):
        states = get_all_states.get_all_states(g, include_chance_states=True)
        counts.append(len(states))
        infosets.append(len({(s.current_player(), s.information_state_string())
                             for s in states.values() if not s.is_terminal() and not s.is_chance_node()}))
    assert counts[0] == counts[1] == 1939
    assert infosets[0] == infosets[1]  # the same information structure: no seat knows more or less


def test_connect_four_plays_move_for_move_like_openspiels():
    ours = meeple.load_ruleset(CONNECT_FOUR)
    theirs = pyspiel.load_game("connect_four")
    results = Counter(tuple(play_alongside(ours, theirs, seed, lambda x: int(x.split()[-1]) - 1))
                      for seed in range(60))
    assert set(results) >= {(1.0, -1.0), (-1.0, 1.0)}


def test_bad_settings_are_refused_with_a_reason():
    from meeple.errors import UsageError

    with pytest.raises(UsageError, match="for 3 to 5 players, not 2"):
        mos.load("camel_up_off_season", players=2)
    with pytest.raises(ValueError, match="utility must be"):  # still a ValueError, as before
        mos.load(KUHN, players=2, utility="chips")
    with pytest.raises(UsageError, match="players= must be a whole number, not '2'"):
        mos.load(KUHN, players="2")
    with pytest.raises(UsageError, match="max_outcomes= must be a whole number, not 2.5"):
        mos.load(KUHN, players=2, max_outcomes=2.5)
    with pytest.raises(UsageError, match="utility_range= must be two numbers"):
        mos.load(KUHN, players=2, utility_range=(2, -2))


def test_numpy_integers_are_whole_numbers():
    # Bug: players=np.int64(2) was refused as "the number of players and the seed must be whole numbers".
    np = pytest.importorskip("numpy")
    game = mos.load(KUHN, players=np.int64(2))
    assert game.num_players() == 2
    assert game.get_type().short_name == mos.load(KUHN, players=2).get_type().short_name


def test_no_action_applies_to_a_terminal_state():
    # Bug: apply_action on a terminal state raised an IndexError from inside the game tree.
    from meeple.errors import IllegalAction

    s = mos.load(KUHN, players=2).new_initial_state()
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    history = s.history()
    with pytest.raises(IllegalAction, match="the game is over"):
        s.apply_action(0)
    assert s.history() == history and s.is_terminal()


def test_a_state_of_a_game_this_process_has_not_loaded_is_refused_with_a_reason():
    # Bug: unpickling a state in a process that had not loaded its game raised a bare KeyError of its name.
    import pickle

    from meeple.errors import UsageError
    from meeple.tools import spieltree

    game = mos.load(KUHN, players=2)
    s = game.new_initial_state()
    s.apply_action(0)
    data, name = pickle.dumps(s.node), game.get_type().short_name
    config = spieltree._CONFIGS.pop(name)
    try:
        with pytest.raises(UsageError, match=f"`{name}`, which this process has not loaded: call "
                                             "meeple.openspiel.load"):
            pickle.loads(data)
    finally:
        spieltree._CONFIGS[name] = config
    assert pickle.loads(data).history == (0,)


def test_which_copy_of_a_card_was_dealt_tells_nothing():
    # Leduc has two jacks. Whether P1 holds a jack or a queen, P2's jack must look the same to P2
    # (the draw takes the first jack left, so its id alone would give P1's card away).
    game = mos.load(LEDUC, players=2)
    seen = []
    for first in ("J", "Q"):
        s = game.new_initial_state()
        for card in (first, "J"):
            s.apply_action(next(a for a, _ in s.chance_outcomes() if s.action_to_string(a).endswith(card)))
        assert s.meeple.evaluate("first(player(1).hand).name") == "J"
        seen.append((s.information_state_string(1), s.observation_string(1), list(s.observation_tensor(1))))
    assert seen[0] == seen[1]


def test_sizes_and_bounds_can_be_given():
    game = mos.load(KUHN, players=2, max_actions=5, utility_range=(-2, 2))
    assert (game.num_distinct_actions(), game.min_utility(), game.max_utility()) == (5, -2.0, 2.0)
    assert mos.load(KUHN, players=2).num_distinct_actions() == 3  # measured: 2 options, half again


def test_options_that_share_a_label_are_numbered_not_keyed():
    # Two red cards in hand give two options "Play Red"; their keys name the copies' ids, which would
    # tell the copies apart (a seat must not), so the action strings number them in menu order instead.
    from meeple.tools.spieltree import _unique

    assert _unique(["Play Red", "Play Blue", "Play Red"]) == ["Play Red [1]", "Play Blue", "Play Red [2]"]


def test_a_state_serialised_before_the_game_tree_moved_still_loads():
    # Bug: states serialised by an earlier version name `meeple.tools.spiel._config` and `_node` (the
    # tree's pickling helpers lived there before tools/spieltree.py); they failed to load after the move.
    import base64
    import pickle

    game = mos.load(KUHN, players=2)
    s = game.new_initial_state()
    for _ in range(3):
        s.apply_action(s.legal_actions()[0])
    text = s.serialize()
    head, encoded = text.split("__dict__=")
    inner = pickle.loads(base64.b64decode(encoded))
    # the same state as the earlier version wrote it: protocol 2 names each helper by module and name
    old = pickle.dumps(inner, protocol=2).replace(b"cmeeple.tools.spieltree\n", b"cmeeple.tools.spiel\n")
    assert b"cmeeple.tools.spiel\n_node\n" in old and b"spieltree" not in old
    loaded = game.deserialize_state(head + "__dict__=" + base64.b64encode(old).decode() + "\n")
    assert loaded.history() == s.history() and str(loaded) == str(s)


def test_kuhn_figures_in_the_docs_are_the_measured_ones():
    text = (ROOT / "docs" / "interop.md").read_text()
    assert "| 54 (58 with chance nodes), 12 information sets |" in text


def test_the_utility_range_covers_what_simple_policies_score():
    # Bug: the range was measured on 12 random games only: merchants for 2 had max_utility 41, while a seat
    # that always takes the first option scores 53 and seeded games 57.
    game = mos.load("merchants", players=2)
    assert game.max_utility() >= 57 and game.min_utility() <= 0


def test_returns_beyond_the_utility_range_are_an_error_that_says_what_to_do():
    game = mos.load(KUHN, players=2, utility_range=(-1, 1))
    s = game.new_initial_state()
    s.apply_action(0)
    s.apply_action(0)
    for _ in range(2):  # a bet and a call: the pot is 2 each
        s.apply_action(s.legal_actions()[-1])
    assert s.is_terminal()
    with pytest.raises(RuntimeError, match=r"beyond the utility range \[-1.0, 1.0\].*pass utility_range="):
        s.returns()


def test_ismcts_plays_kuhn_poker():
    # Bug: OpenSpiel's ISMCTSBot raised "ResampleFromInfostate() not implemented" on our Kuhn poker.
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import ismcts, mcts

    game = mos.load(KUHN, players=2)
    rng = random.Random(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), 1.4, 60,
                           random_state=np.random.RandomState(1))
    for _ in range(4):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
            elif s.current_player() == 0:
                s.apply_action(bot.step(s))
            else:
                s.apply_action(rng.choice(s.legal_actions()))
        assert sum(s.returns()) == 0 and s.returns()[0] in (-2, -1, 1, 2)


def test_a_resampled_state_keeps_the_information_state_and_learns_nothing_hidden():
    import pickle

    game = mos.load(KUHN, players=2)
    states = []
    for top in range(3):
        for nxt in range(2):
            s = game.new_initial_state()
            for a in (top, nxt, 0):  # the deal, then P1 passes
                s.apply_action(a)
            if s.meeple.evaluate("first(player(1).hand).name") == "Q":  # P1 holds the jack or the king
                states.append(s)
    assert len(states) == 2
    assert states[0].information_state_string(1) == states[1].information_state_string(1)
    seen = set()
    for u in (0.1, 0.35, 0.6, 0.85):
        a, b = (s.resample_from_infostate(1, lambda u=u: u) for s in states)
        assert str(a) == str(b)  # the same for both: what P2 cannot see did not matter
        assert a.information_state_string(1) == states[0].information_state_string(1)
        assert a.legal_actions() == states[0].legal_actions() and a.current_player() == 1
        seen.add(a.meeple.evaluate("first(player(0).hand).name"))
        again = pickle.loads(pickle.dumps(a))
        assert str(again) == str(a) and again.information_state_string(0) == a.information_state_string(0)
        a.apply_action(0)
        assert a.is_terminal() and sorted(a.returns()) == [-1.0, 1.0]
    assert seen == {"J", "K"}
    with pytest.raises(meeple.errors.UsageError, match="a chance event is open"):
        game.new_initial_state().resample_from_infostate(0, lambda: 0.5)


def test_a_resampled_state_shows_later_draws_as_chance_nodes():
    # Bug: a resampled world drew its later random events from the resampling seed, so after Leduc's
    # first betting round it went on to P1's decision where every other state shows the public card's
    # chance node (ISMCTS and other searches saw a different game after resampling).
    import pickle

    game = mos.load(LEDUC, players=2)

    def dealt(cards):  # a state after dealing these private cards (by label), at P1's first decision
        s = game.new_initial_state()
        for card in cards:
            s.apply_action(next(a for a, _ in s.chance_outcomes() if s.action_to_string(a) == f"chance: {card}"))
        return s

    def hands(s):
        return [s.meeple.evaluate(f"first(player({p}).hand).name") for p in (0, 1)]

    def outcomes(s):  # by card: a resampled deck may hold the copies of a card apart, each its own outcome
        out = Counter()
        for a, p in s.chance_outcomes():
            out[s.action_to_string(a).split(" [")[0]] += p
        return dict(out)

    s = dealt("QJ")
    seen = set()
    for u in (0.1, 0.4, 0.7, 0.95):
        r = s.resample_from_infostate(0, lambda u=u: u)
        assert not r.is_chance_node() and r.information_state_string(0) == s.information_state_string(0)
        same = dealt(hands(r))  # an ordinary state with the resampled world's cards
        seen.add(tuple(hands(r)))
        for t in (r, same):
            t.apply_action(1)  # P1 raises
            t.apply_action(1)  # P2 calls: the round is over, the public card is dealt
        assert r.is_chance_node() and r.current_player() == pyspiel.PlayerId.CHANCE
        assert outcomes(r) == pytest.approx(outcomes(same)) and sum(outcomes(r).values()) == pytest.approx(1)
        assert r.legal_actions() == [a for a, _ in r.chance_outcomes()]
        public = r.chance_outcomes()[-1][0]
        label = r.action_to_string(public).split(" [")[0]
        r.apply_action(public)
        same.apply_action(next(a for a, _ in same.chance_outcomes() if same.action_to_string(a).split(" [")[0] == label))
        assert not r.is_chance_node() and r.information_state_string(0) == same.information_state_string(0)
        again = pickle.loads(pickle.dumps(r))  # a resampled world after a chance outcome is made again
        assert str(again) == str(r) and again.legal_actions() == r.legal_actions()
    assert len(seen) > 1 and all(h[0] == "Q" for h in seen)


def test_a_state_of_another_game_is_refused_when_deserialized():
    # Bug: tic-tac-toe's game object loaded a serialized Kuhn poker state without a word: a tic-tac-toe
    # state playing Kuhn poker.
    from meeple.errors import UsageError

    kuhn, ttt = mos.load(KUHN, players=2), mos.load(TTT, players=2)
    k, t = kuhn.new_initial_state(), ttt.new_initial_state()
    for s in (k, k, t):
        s.apply_action(s.legal_actions()[0])
    names = [g.get_type().short_name for g in (kuhn, ttt)]
    with pytest.raises(UsageError, match=rf"U062.*game `{names[0]}` \(Kuhn poker\), so the game `{names[1]}` "
                                         r"\(Tic-tac-toe\) cannot load it"):
        ttt.deserialize_state(k.serialize())
    with pytest.raises(UsageError, match=rf"game `{names[1]}` .*, so the game `{names[0]}` "):
        kuhn.deserialize_state(t.serialize())
    with pytest.raises(UsageError, match="U062"):  # also through OpenSpiel's own (C++) loading
        pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(ttt, k))
    # the same game, also loaded again (a new game object), still loads its states; clones are unaffected
    for g in (kuhn, mos.load(KUHN, players=2)):
        assert g.deserialize_state(k.serialize()).history() == k.history() == k.clone().history()


def test_a_serialized_state_whose_history_was_edited_is_refused():
    """Found by QA: `history=2,0,1` written over a state's `history=0,1,0` loaded, and the state told the
    edited history while it held the game played."""
    import pickle

    from meeple.errors import UsageError

    kuhn = mos.load(KUHN, players=2)
    k = kuhn.new_initial_state()
    for a in (0, 1, 0):
        k.apply_action(a)
    text = k.serialize()
    assert "history=-1:0,-1:1,0:0\n" in text
    with pytest.raises(UsageError, match=r"U062.*history \(2, 0, 1\) is not the history of the game it holds"):
        kuhn.deserialize_state(text.replace("history=-1:0,-1:1,0:0", "history=-1:2,-1:0,0:1"))
    edited = pickle.dumps(k).replace(b"history=-1:0,-1:1,0:0", b"history=-1:2,-1:0,0:1")
    with pytest.raises(UsageError, match="U062"):
        pickle.loads(edited)
    assert kuhn.deserialize_state(text).history() == pickle.loads(pickle.dumps(k)).history() == [0, 1, 0]


def test_the_cache_of_states_is_bounded_by_their_size():
    # Random playouts of a large game only ever reach new histories: a cache of 200,000 of its states
    # held gigabytes and made the garbage collector most of the time of a playout.
    small = mos.load(KUHN, players=2)
    large = mos.load("camel_up_off_season", players=4)
    small.new_initial_state()
    large.new_initial_state()
    assert small.config.limit >= 50_000  # a small game's tree, walked again by CFR, stays cached
    assert 1_000 <= large.config.limit < small.config.limit // 10
    ttt = mos.load(TTT, players=2)
    ttt.new_initial_state()
    config, limit = ttt.config, ttt.config.limit
    config.limit, config.children = 50, {}  # past the bound the cache starts again: never above it
    try:
        rng = random.Random(3)
        for _ in range(40):
            state = ttt.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                assert len(config.children) <= 50
    finally:
        config.limit = limit


def test_chance_outcomes_are_the_game_apis_probabilities():
    game = mos.load("camel_up_off_season", players=4)
    state = game.new_initial_state()
    rng = random.Random(2)
    seen = 0
    while not state.is_terminal() and seen < 40:
        if state.is_chance_node():
            exact = sorted((int(a["key"]), float(p)) for a, p in state.meeple.chance_outcomes())
            assert state.chance_outcomes() == exact
            seen += 1
            state.apply_action(state.chance_outcomes()[rng.randrange(len(exact))][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert seen == 40


def test_observation_tensors_are_those_of_the_full_view():
    # Tensors are encoded from views without texts (labels, prompts, log), which they never held.
    import numpy as np
    from meeple.tools.observe import Layout

    game = mos.load("speicherstadt", players=4)
    layout = Layout(meeple.load_ruleset("speicherstadt"), 4)
    state = game.new_initial_state()
    rng = random.Random(4)
    for _ in range(60):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        for seat in range(4):
            full = layout.encode(state.meeple.view(seat))
            assert np.array_equal(np.asarray(state.observation_tensor(seat), np.float32), full)
        state.apply_action(rng.choice(state.legal_actions()))


def test_a_loaded_game_pickles_by_its_name():
    # Found by QA: pickle could not find the game's class (made at run time), so a game could not be
    # handed to a worker process; OpenSpiel's own Python games pickle.
    import pickle
    import subprocess
    import sys

    game = mos.load(KUHN, players=2)
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.new_initial_state().legal_actions() == [0, 1, 2]
    # in a process that has not loaded it: U061, saying what to load first
    code = ("import pickle, sys\nimport meeple.openspiel\ntry:\n    pickle.loads(sys.stdin.buffer.read())\n"
            "except Exception as e:\n    print(type(e).__name__, e)\n")
    out = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(game), capture_output=True,
                         check=True).stdout
    assert b"UsageError" in out and b"U061" in out


def test_a_menu_wider_than_the_action_space_is_a_typed_error_placed_at_its_choose():
    """It was a bare RuntimeError from inside the adapter; now U066 (still a RuntimeError), which says
    which argument to pass and points at the decision's `choose` in the YAML."""
    from meeple.tools.probe import Outgrown

    s = mos.load(TTT, players=2, max_actions=3).new_initial_state()
    with pytest.raises(Outgrown, match="offers 9 options, more than the 3 .*pass max_actions=") as e:
        s.legal_actions()
    p = e.value.problems[0]
    assert isinstance(e.value, RuntimeError) and p.code == "U066" and p.span is not None
    assert p.span.file.endswith("tic_tac_toe.yaml") and "choose" in Path(TTT).read_text().splitlines()[p.span.line - 1]


def test_observers_of_each_kind_see_what_their_kind_sees():
    """Found by QA: every kind of observer was given the seat's own view, so a public-only observer
    (`private_info=NONE`) read player 0's card: three Kuhn poker deals that differ only in that card gave
    three observations, where OpenSpiel's own kuhn_poker gives one. OpenSpiel's playthroughs, which ask
    for public and private observers, must run too."""
    from open_spiel.python.algorithms.generate_playthrough import playthrough
    from open_spiel.python.observation import make_observation

    game = mos.load("kuhn_poker", players=2)
    kinds = pyspiel.PrivateInfoType

    def kind(private, public=True, recall=False):
        return make_observation(game, pyspiel.IIGObservationType(perfect_recall=recall, public_info=public,
                                                                 private_info=private))

    public, everything, private, own = kind(kinds.NONE), kind(kinds.ALL_PLAYERS), kind(kinds.SINGLE_PLAYER, False), \
        kind(kinds.SINGLE_PLAYER)
    seen = {"public": set(), "own": set(), "all": set()}
    for first in range(3):  # player 0's card
        state = game.new_initial_state()
        state.apply_action(state.legal_actions()[first])
        while state.is_chance_node():
            state.apply_action(state.legal_actions()[0])
        seen["public"].add(public.string_from(state, 0))
        seen["own"].add(own.string_from(state, 0))
        seen["all"].add(everything.string_from(state, 0))
        assert private.string_from(state, 0) is None  # not given: a view is not split into parts
        assert own.string_from(state, 0) == state.observation_string(0)
        assert public.tensor is None and everything.tensor is None
    assert (len(seen["public"]), len(seen["own"]), len(seen["all"])) == (1, 3, 3)
    for bad in ((kinds.NONE, False), (kinds.NONE, True, True)):
        with pytest.raises(meeple.UsageError) as e:
            kind(*bad)
        assert e.value.problems[0].code == "U067"
    text = playthrough(f"{game.get_type().short_name}", action_sequence=None, alsologtostdout=False)
    assert "PublicObservationString()" in text
