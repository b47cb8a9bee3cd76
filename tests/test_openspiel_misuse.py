"""The OpenSpiel adapter misused: pickles loaded where their game was not, and bad resampling arguments,
each refused with a Meeple error code and plain words, never an error from deep inside."""

import base64
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

import meeple.openspiel as mos
from meeple.errors import UsageError

KUHN = str(Path(__file__).resolve().parent.parent / "rulesets" / "reference" / "kuhn_poker.yaml")

# Unpickles argv[1] (base64) after loading Kuhn poker or not (argv[2]), printing what it got or its error.
UNPICKLE = """import base64, pickle, sys
import meeple.openspiel as mos
if sys.argv[2] == "load":
    mos.load(sys.argv[3], players=2)
try:
    got = pickle.loads(base64.b64decode(sys.argv[1]))
except Exception as e:
    print(type(e).__name__, e)
else:
    for s in got:
        s.apply_action(s.legal_actions()[0])
        print(type(s).__name__, s.history(), s.is_terminal(), s.returns(), repr(s.information_state_string(1)))
"""


def _unpickled_elsewhere(obj, load):
    blob = base64.b64encode(pickle.dumps(obj)).decode()
    return subprocess.run([sys.executable, "-c", UNPICKLE, blob, "load" if load else "-", KUHN],
                          capture_output=True, text=True, check=True).stdout


def _kuhn_states():
    game = mos.load(KUHN, players=2)
    state = game.new_initial_state()
    for a in [0, 1, 1]:  # the deal, then P1 bets
        state.apply_action(a)
    resampled = state.resample_from_infostate(1, lambda: 0.25)
    return game, state, resampled


def test_a_pickled_state_where_its_game_was_not_loaded_is_u061():
    """Found by QA: a pickled state unpickled where its game was not loaded was pyspiel's `Unknown game`, listing all its games."""
    game, state, _ = _kuhn_states()
    out = _unpickled_elsewhere([state], load=False)
    assert out.startswith("UsageError error[U061]: this state is of the game `meeple_kuhn_poker_"), out
    assert "call meeple.openspiel.load with the same ruleset, players and settings first" in out
    assert "Unknown game" not in out and "Available games" not in out
    out = _unpickled_elsewhere(game, load=False)  # a game: the same code, worded for a game
    assert out.startswith("UsageError error[U061]: this game is `meeple_kuhn_poker_"), out
    assert out.rstrip().endswith("then load the game")


def test_a_pickled_state_loads_where_its_game_was_loaded():
    """Checked with the U061 fix: pickled states still load, here and in a process that loaded their game."""
    _, state, resampled = _kuhn_states()
    for s in (state, resampled):
        again = pickle.loads(pickle.dumps(s))
        assert type(again) is type(s) and again.history() == s.history() and str(again) == str(s)
        assert again.information_state_string(1) == s.information_state_string(1)
    lines = _unpickled_elsewhere([state, resampled], load=True).splitlines()
    ended = state.child(state.legal_actions()[0])
    assert lines[0] == f"MeepleState [0, 1, 1, 0] True {ended.returns()} {ended.information_state_string(1)!r}"
    assert lines[1].startswith("MeepleState [0] ")


@pytest.mark.parametrize("sampler", [lambda: float("nan"), lambda: "0.5", lambda: 1.0, lambda: -0.1,
                                     lambda: float("inf"), lambda: None, lambda: True, lambda: 1 / 0, 0.5],
                         ids=["nan", "string", "one", "negative", "inf", "none", "bool", "raises", "not-callable"])
def test_a_bad_probability_sampler_is_u063_and_changes_nothing(sampler):
    """Found by QA: a sampler giving NaN or a string ended in a bare ValueError (one raising, in its own error)."""
    _, state, _ = _kuhn_states()
    before = (str(state), state.history(), state.information_state_string(1))
    with pytest.raises(UsageError, match=r"U063.*probability sampler given to resample_from_infostate") as e:
        state.resample_from_infostate(1, sampler)
    assert isinstance(e.value, ValueError)  # as it was
    assert (str(state), state.history(), state.information_state_string(1)) == before
    assert state.resample_from_infostate(1, lambda: 0.0).legal_actions() == state.legal_actions()


@pytest.mark.parametrize("player", [5, -1, 1.0, "1", None, pyspiel.PlayerId.CHANCE])
def test_resampling_for_what_is_not_a_seat_is_refused(player):
    """Checked for QA: a player_id that is not a seat (5, -1, a float, a string) is the Game API's G009."""
    _, state, _ = _kuhn_states()
    with pytest.raises(UsageError, match="G009.*is not a seat"):
        state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
