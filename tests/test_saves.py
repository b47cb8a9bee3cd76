"""Saves are trustworthy, and refusals change nothing.

A save is a snapshot: later play never changes it, and editing it never changes the game. Loading a save
checks it against its own seed and action log: a save whose state is not what they replay to is refused
with a clear message, never accepted, never a Python exception. Asking (labels, views, scores) and refused
actions leave the game exactly as it was, step counter included.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from meeple.errors import IllegalAction, SaveError
from meeple.runtime.frames import BLOCK, CALL, FOR, copy_frames
from meeple.runtime.game import Game
from meeple.runtime.rules import load_ruleset

from tests.support import examples, random_game, record

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))
RULESETS = {name: load_ruleset(name) for name in BUNDLED}
OUTCOMES: Counter = Counter()  # corrupted saves refused or accepted; conftest prints it after a --long run


def players_of(rs) -> int:
    return min(max(3, rs.min_players), rs.max_players)


def midgame(name: str, seed: int, cut: int) -> Game:
    """A game of a bundled ruleset after `cut` random decisions (or at its end)."""
    rs = RULESETS[name]
    g = rs.new_game(players_of(rs), seed)
    rng = random.Random(seed)
    for _ in range(cut):
        if g.is_over:
            break
        g.apply_index(rng.randrange(g.num_actions()))
    return g


def frozen(g: Game) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


def unsealed(g: Game) -> dict:
    """A save as it comes back from a file written by another process: no seal this process can trust."""
    data = json.loads(json.dumps(g.to_json()))
    data.pop("seal")
    return data


# ------------------------------------------------------------------ snapshots
@pytest.mark.parametrize("name", BUNDLED)
def test_a_save_never_changes_when_play_goes_on(name):
    g = midgame(name, 3, 20)
    saved = g.to_json()
    text = json.dumps(saved, sort_keys=True)
    rng = random.Random(1)
    for _ in range(30):
        if g.is_over:
            break
        g.apply_index(rng.randrange(g.num_actions()))
    assert json.dumps(saved, sort_keys=True) == text


@pytest.mark.parametrize("name", BUNDLED)
def test_editing_a_save_never_changes_the_game(name):
    g = midgame(name, 4, 15)
    before = frozen(g)
    saved = g.to_json()

    def scribble(x):
        if isinstance(x, dict):
            for v in x.values():
                scribble(v)
            x["scribbled"] = 1
        elif isinstance(x, list):
            for v in x:
                scribble(v)
            x.append("scribbled")

    scribble(saved)
    assert frozen(g) == before


# ------------------------------------------------------------------ verified loading
@pytest.mark.parametrize("name", BUNDLED)
def test_a_save_from_elsewhere_loads_after_its_replay_agrees(name):
    g = midgame(name, 5, 25)
    h = Game.from_json(RULESETS[name], unsealed(g))
    assert h.to_json() == g.to_json()
    assert h.legal_actions() == g.legal_actions()


@pytest.mark.parametrize("chance", ["seeded", "explicit"])
def test_a_quiet_games_save_loads_here_elsewhere_and_through_pickle(chance):
    """Found by QA: a game played with narrate=False keeps no log lines, but its save was replayed
    narrated, so once a line had been written the save was refused as edited (L001): in another process,
    through pickle, and always with explicit chance. A quiet save says so and replays quietly."""
    import pickle

    rs = load_ruleset("rulesets/reference/kuhn_poker.yaml")
    g = rs.new_game(2, 3, chance=chance, narrate=False)
    while g.is_chance:
        g.apply_index(0)
    g.apply("Pass")
    g.apply("Pass")  # the showdown writes a line, which a quiet game does not keep
    assert g.is_over and g.state.log == []
    data = g.to_json()
    assert data["narrate"] is False
    for loaded in (Game.from_json(rs, data), Game.from_json(rs, {k: v for k, v in data.items() if k != "seal"}),
                   pickle.loads(pickle.dumps(g))):
        assert loaded.to_json() == data and loaded.state.quiet
    narrated = rs.new_game(2, 3, chance=chance)
    while narrated.is_chance:
        narrated.apply_index(0)
    narrated.apply("Pass")
    narrated.apply("Pass")
    saved = narrated.to_json()
    assert "narrate" not in saved  # saves of narrated games are as they always were
    saved.pop("seal", None)
    with pytest.raises(SaveError):  # a narrated game's save that claims to be quiet holds lines it cannot
        Game.from_json(rs, {**saved, "narrate": False})


def test_a_save_holding_nan_is_refused_in_plain_words():
    """Found by QA: a save with NaN in it was refused with JSON's own words, "Out of range float values
    are not JSON compliant", naming neither the save nor what was wrong."""
    g = midgame("merchants", 3, 5)
    data = unsealed(g)
    key = next(iter(data["state"]["counters"]))
    data["state"]["counters"][key] = float("nan")
    with pytest.raises(SaveError) as e:
        Game.from_json(RULESETS["merchants"], data)
    assert "L001" in str(e.value) and "NaN or an infinite number" in str(e.value) and "JSON" not in str(e.value)


@pytest.mark.parametrize("edit", [
    lambda s: s["state"].update(rng=s["state"]["rng"] + 1),
    lambda s: s["state"].update(phase="somewhere else"),
    lambda s: s["state"]["log"].append([-1, "a line nobody wrote"]),
    lambda s: s.update(seed=s["seed"] + 1),
    lambda s: s["actions"].pop(),
    lambda s: s["state"]["counters"].update({k: 99 for k in list(s["state"]["counters"])[:1]}),
    lambda s: s["state"].update(over=True),
], ids=["rng", "phase", "log", "seed", "actions", "counter", "over"])
def test_a_save_that_disagrees_with_its_own_replay_is_refused(edit):
    g = midgame("speicherstadt", 6, 30)
    data = unsealed(g)
    edit(data)
    with pytest.raises(SaveError) as e:
        Game.from_json(RULESETS["speicherstadt"], data)
    assert "corrupt" in str(e.value) or "does not" in str(e.value)


def test_a_forged_seal_does_not_make_an_edited_save_trusted():
    g = midgame("merchants", 7, 10)
    data = json.loads(json.dumps(g.to_json()))
    data["state"]["log"].append([-1, "forged"])
    with pytest.raises(SaveError):
        Game.from_json(RULESETS["merchants"], data)


def _paths(x, here=()):
    yield here
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, here + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _paths(v, here + (i,))


JUNK = [None, True, 0, -1, 1.5, 10**30, "", "x", [], {}, [0, "a"], {"$p": 0}, {"$c": 10**6}, {"$z": "nowhere"},
        {"$m": [[[1], 2]]}, "\ud800", float("nan")]


def corrupt(data: dict, r: random.Random) -> None:
    """Change one place of a save: replace a value, delete an entry, or duplicate one."""
    paths = [p for p in _paths(data) if p]
    where = r.choice(paths)
    parent = data
    for k in where[:-1]:
        parent = parent[k]
    last = where[-1]
    how = r.randrange(4)
    if how == 0:
        parent[last] = copy.deepcopy(r.choice(JUNK))
    elif how == 1:
        del parent[last]
    elif how == 2 and isinstance(parent[last], int) and not isinstance(parent[last], bool):
        parent[last] += r.choice([-1, 1, 1000])
    elif isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))
    else:
        parent[last] = copy.deepcopy(r.choice(JUNK))


@settings(max_examples=examples(60, 2000), derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(BUNDLED), cut=st.integers(0, 40), seed=st.integers(0, 2**32 - 1),
       edits=st.integers(1, 3), sealed=st.booleans())
def test_corrupted_saves_are_refused_cleanly_or_load_as_their_replay(name, cut, seed, edits, sealed):
    check_corrupted_save(name, cut, seed, edits, sealed)


def check_corrupted_save(name: str, cut: int, seed: int, edits: int, sealed: bool) -> str:
    rs = RULESETS[name]
    g = midgame(name, seed % 1000, cut)
    data = g.to_json() if sealed else unsealed(g)
    r = random.Random(seed)
    for _ in range(edits):
        corrupt(data, r)
    try:
        h = Game.from_json(rs, data)
    except SaveError as e:
        [p] = e.problems
        assert p.message and "Traceback" not in p.message and "Error" not in p.message, p.message
        record(OUTCOMES, "save refused")
        return "refused"
    # Accepted: then it is exactly the game its seed and action log replay to, and it plays on.
    replayed = Game.replay(rs, h.state.nplayers, h.state.seed, h.state.actions)
    assert frozen(h) == frozen(replayed)
    if not h.is_over:
        h.apply_index(0)
    record(OUTCOMES, "save accepted")
    return "accepted"


# ------------------------------------------------------------------ counters round-trip
def test_every_value_a_counter_can_hold_round_trips_through_a_save(tmp_path):
    path = tmp_path / "holder.yaml"
    path.write_text("""\
meeple: 1
name: Holder
players: {min: 2, max: 2}
counters:
  game: {held: 0}
zones:
  game: {pile: {}}
flow: |
  for v in [players[0], none, "text \\u00e9", [1, [players[1]]], {players[0]: [true], "k": none}, pile, -5]:
      held = v
      choose players[0] "Keep going":
          option "Yes": pass
scoring:
  score: "0"
""")
    rs = load_ruleset(path)
    g = rs.new_game(2, 0)
    while not g.is_over:
        h = Game.from_json(rs, json.loads(g.dumps()).copy() | {"seal": "none"})
        assert h.to_json() == g.to_json()
        g.apply_index(0)


# ------------------------------------------------------------------ refusals change nothing
BAD_ACTIONS = [None, 0.0, 1.5, True, False, -1, 10**6, [], "no such label", {"player": 0.0, "key": "0"},
               {"player": True, "key": "0"}, {"player": 0, "key": 0}, {"player": 99, "key": "0"},
               {"player": -1, "key": "0"}, {"player": 0}, {"key": "0"}, {"player": 0, "key": "no such key"},
               {"player": "0", "key": "0"}]
BAD_INDEXES = ["1", 1.0, True, None, -1, 10**6, [0]]


def check_refusals(g: Game, r: random.Random) -> None:
    before = frozen(g)
    g.legal_actions()
    for p in range(g.state.nplayers):
        g.view(p)
    g.scores, g.num_actions()
    assert frozen(g) == before, "asking changed the game"
    for bad in BAD_ACTIONS + [r.choice(g.legal_actions() or [{}]) | {"key": "tampered"}]:
        with pytest.raises(IllegalAction):
            g.apply(bad)
        assert frozen(g) == before, bad
    for bad in BAD_INDEXES:
        with pytest.raises(IllegalAction):
            g.apply_index(bad)
        assert frozen(g) == before, bad
    if g.deciders:
        with pytest.raises(IllegalAction):
            g.apply_index(0, player=0.0)
        outsider = next((s for s in range(g.state.nplayers) if s not in g.deciders), None)
        if outsider is not None:
            with pytest.raises(IllegalAction):
                g.apply_index(0, player=outsider)
    assert frozen(g) == before


@settings(max_examples=examples(8, 200), derandomize=True, deadline=None)
@given(name=st.sampled_from(BUNDLED), seed=st.integers(0, 10_000))
def test_illegal_actions_are_refused_and_change_nothing(name, seed):
    rs = RULESETS[name]
    r = random.Random(seed)
    seen = [0]

    def each(g):
        seen[0] += 1
        if seen[0] % 15 == 1 and seen[0] < 100:  # a sample of decision points
            check_refusals(g, r)

    random_game(rs, players_of(rs), seed, each)


def test_a_replay_matches_the_original_even_after_refusals_and_views():
    rs = RULESETS["speicherstadt"]
    g = rs.new_game(3, 11)
    r = random.Random(11)
    while not g.is_over:
        check_refusals(g, r) if r.random() < 0.1 else g.legal_actions()
        g.apply_index(r.randrange(g.num_actions()))
    assert frozen(Game.replay(rs, 3, 11, g.state.actions)) == frozen(g)


def test_keys_a_save_does_not_define_are_a_front_ends_own_and_do_not_matter():
    g = midgame("demoludy", 8, 12)
    for data in (g.to_json(), unsealed(g)):
        data["play"] = {"seat": 1, "agents": "random"}
        assert Game.from_json(RULESETS["demoludy"], data).to_json() == g.to_json()


SHARING = """\
meeple: 1
name: Sharing
players: {min: 2, max: 2}
counters:
  game: {seen: 0, table: 0}
flow: |
  table = {"a": [0, 0]}
  mine = table
  row = mine["a"]
  choose players[0] "Go on":
      option "Yes": pass
  mine["b"] = 1
  row[0] = 7
  table["a"][1] = 8
  seen = [row[0], mine["a"][1], table["a"][0], mine["b"]]
  choose players[0] "Done":
      option "Yes": pass
scoring:
  score: "0"
"""


def test_lists_and_maps_are_values_so_a_save_or_copy_continues_like_the_game(tmp_path):
    """Bug: `mine = table` then `mine["b"] = 1` changed `table` too while the game ran, but not in a
    copy or a reloaded save, which kept two separate maps: the same game went on differently. Lists and
    maps are values (docs/language.md): setting an entry changes only the variable it is set through."""
    path = tmp_path / "sharing.yaml"
    path.write_text(SHARING)
    rs = load_ruleset(path)
    g = rs.new_game(2, 0)
    saved = Game.from_json(rs, json.loads(g.dumps()) | {"seal": "none"})
    copied = g.copy()
    for game in (g, saved, copied):
        game.apply_index(0)
        assert game.state.counters["seen"] == [7, 0, 0, 1]
    assert g.state.counters["table"] == {"a": [0, 8]}


def test_a_copy_of_the_frames_shares_each_scope_as_the_original_does():
    # Frames of one procedure call share its scope, wherever they lie on the stack: their copies share one
    # new scope each (a write through one frame is seen by the others), and nothing with the original.
    a, b = {"x": [1]}, {"y": 2}
    stack = [[BLOCK, None, a, 0], [FOR, None, a, 1], [CALL, None, None], [BLOCK, None, b, 0], [BLOCK, None, a, 2]]
    dup = copy_frames(stack)
    assert dup == stack
    assert dup[0][2] is dup[1][2] is dup[4][2] and dup[3][2] is not dup[0][2]
    assert all(g[2] is not f[2] for f, g in zip(stack, dup) if f[2] is not None)
    assert all(g is not f for f, g in zip(stack, dup))


def test_an_option_s_key_names_its_values_as_the_action_log_always_has():
    """The stable key of an option bound to values (kept in the action log, hence in saves): the keys of
    components and players are made once each and reused, and must stay what saves already hold."""
    from meeple.runtime.data import Comp, Player, option_key

    for _ in range(2):  # the second time from the made keys
        assert option_key([0, [Comp(12)], -1, 0]) == "0:#12"
        assert option_key([2, [Comp(7), Player(1), 3, "a", [Comp(0), Player(0)]], -1, 0]) == "2:#7,P2,3,'a',[#0,P1]"
        assert option_key([1, [Player(0), 12], 4, 1]) == "1#4.1:P1,12"
        assert option_key([0, [12, Comp(12), Player(12), True], -1, 0]) == "0:12,#12,P13,True"
