"""The action log holds, for every choice, the seat and the chosen option's stable key, however it is read.

`apply_index` records a choice as (seat, option) and the log makes the option's key when it is first
read (a bot's look-ahead never reads it). Whenever and however often the log is read, in the middle of a
game, only at its end, by a copy made before the read or after it, it is the log an eager recording
would have made: the key of the option chosen, in the order of the choices, and a replay of it plays the
same game.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from meeple.runtime.data import option_key
from meeple.runtime.game import Game
from meeple.runtime.rules import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))


def _replayed(rs, players: int, seed: int, actions: list) -> str:
    """The save of a quiet game of that seed after the actions applied by `apply`, one by one."""
    g = rs.new_game(players, seed, narrate=False)
    for action in actions:
        g.apply(action)
    return g.dumps()


def _play(g: Game, rng: random.Random, decisions: int, eager: list, read_every: int) -> None:
    """`decisions` random choices by apply_index, each also keyed eagerly into `eager`; the log is read
    every `read_every` choices (never when 0)."""
    for n in range(decisions):
        if g.is_over:
            return
        seat = g.deciders[0]
        i = rng.randrange(g.num_actions(seat))
        eager.append({"player": seat, "key": option_key(g.state.pending["options"][seat][i])})
        g.apply_index(i, seat)
        if read_every and n % read_every == 0:
            assert g.state.actions == eager


@pytest.mark.parametrize("name", BUNDLED)
@pytest.mark.parametrize("read_every", [0, 1, 7])
def test_the_log_is_what_an_eager_recording_makes_whenever_it_is_read(name, read_every):
    rs = load_ruleset(name)
    players = min(max(3, rs.min_players), rs.max_players)
    g = rs.new_game(players, 5, narrate=False)
    eager: list = []
    _play(g, random.Random(read_every), 60, eager, read_every)
    assert g.state.actions == eager and len(eager) > 0
    assert _replayed(rs, players, 5, g.state.actions) == g.dumps()


@pytest.mark.parametrize("name", ["speicherstadt", "merchants"])
def test_a_copy_keeps_its_own_log_whether_or_not_the_original_was_read(name):
    rs = load_ruleset(name)
    g = rs.new_game(4, 9, narrate=False)
    eager: list = []
    rng = random.Random(9)
    _play(g, rng, 20, eager, 0)  # nothing read yet: the copy shares unkeyed entries
    c = g.copy()
    mine, theirs = list(eager), list(eager)
    _play(g, random.Random(1), 15, mine, 0)
    assert g.state.actions == mine  # the original keys its entries...
    _play(c, random.Random(2), 15, theirs, 3)
    assert c.state.actions == theirs  # ...and the copy its own, from the same prefix
    assert g.state.actions[:20] == c.state.actions[:20] == eager
    assert g.dumps() == _replayed(rs, 4, 9, mine)
    assert c.dumps() == _replayed(rs, 4, 9, theirs)


def test_entries_added_after_the_log_was_read_are_keyed_too():
    """Reading the log, then choosing again by index and by action, keeps every entry a dict."""
    rs = load_ruleset("speicherstadt")
    g = rs.new_game(3, 2, narrate=False)
    eager: list = []
    _play(g, random.Random(4), 5, eager, 1)
    action = g.legal_actions()[0]
    g.apply(action)
    eager.append({"player": action["player"], "key": action["key"]})
    _play(g, random.Random(5), 5, eager, 0)
    assert g.state.actions == eager
    assert all(type(a) is dict for a in g.state.actions)


def test_apply_index_refuses_what_is_not_a_choice_of_the_one_decider_and_changes_nothing():
    """`apply_index` checks the common case (one decider, a valid index) at once; anything else gets the
    refusal it always got, and the game, its log included, does not change."""
    from meeple.errors import IllegalAction

    rs = load_ruleset("speicherstadt")
    g = rs.new_game(3, 4, narrate=False)
    rng = random.Random(4)
    while g.deciders != [1]:
        g.apply_index(rng.randrange(g.num_actions()))
    n, before = g.num_actions(1), g.dumps()
    for i, seat, code in [(0, True, "G005"), (0, 1.0, "G005"), (True, None, "G005"), (0, 2, "G003"),
                          (n, None, "G004"), (-1, 1, "G004"), (n, 1, "G004"), (0.0, 1, "G005")]:
        with pytest.raises(IllegalAction) as e:
            g.apply_index(i, seat)
        assert e.value.problems[0].code == code, (i, seat)
        assert g.dumps() == before
    g.apply_index(n - 1, 1)
    assert g.state.actions[-1]["player"] == 1
