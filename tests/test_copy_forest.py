"""Copies of a game are games of their own: what every search relies on.

A search copies a game thousands of times and plays each copy on while the original, and the other
copies, live on and are played too. Copies share what they do not change: zones are copied on write,
lists and maps are values shared between copies (runtime/state.py), and with explicit chance new games,
chance nodes and the states their outcomes give are shared between games made alike (shortcuts.py,
chancenodes.py), and a decision runs in place with a mark kept (shortcuts.py). A write that reached a
shared list would change games that never made it, silently, and a search would learn from positions
that cannot happen.

So, a forest: new games, copies of any of them, saves loaded back, played in a random interleaving, with
what a bot or a page reads on the way (labels, views, scores, chance outcomes, determinizations, which
are games too and are played on). At the end every game must be exactly the game that its own seed and
action log replay to, by either engine, with either kind of chance, narrated or not.
"""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from meeple.errors import MeepleError
from meeple.runtime.rules import load_ruleset
from support import examples
from test_differential import RULESETS, GeneratedGame, ReferenceGame

_LOADED: dict = {}


def ruleset(path):
    if path not in _LOADED:
        _LOADED[path] = load_ruleset(path)
    return _LOADED[path]


def saved(g) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


def grow(rs, cls, players: int, chance: str, narrate: bool, rnd: random.Random, moves: int) -> list:
    """The forest after `moves` random moves: a list of (seed, game, what was done to it)."""
    forest: list = []
    for _ in range(moves):
        r = rnd.random()
        if not forest or r < 0.03:
            seed = rnd.randrange(1000)
            forest.append((seed, cls.new(rs, players, seed, chance=chance, narrate=narrate), ["new"]))
            continue
        seed, g, done = rnd.choice(forest)
        if g.is_over:
            continue
        if r < 0.15 and len(forest) < 16:
            forest.append((seed, g.copy(), [*done, "copy"]))
        elif r < 0.18:
            forest.append((seed, cls.from_json(rs, json.loads(g.dumps())), [*done, "loaded"]))
        elif r < 0.21:
            g.legal_actions()
            g.chance_outcomes()
            done.append("labels")
        elif r < 0.23:
            for s in range(players):
                g.view(s)
                g.log_for(s)
            done.append("views")
        elif r < 0.25:
            g.scores, g.winners  # noqa: B018 - read for what reading them may do to the game
            done.append("scores")
        elif r < 0.27 and g.deciders:
            d = g.determinize(g.deciders[0], rnd.randrange(100))
            for _ in range(rnd.randrange(20)):
                if not (n := d.num_actions()):
                    break
                d.step(rnd.randrange(n))
            done.append("determinized")
        elif n := g.num_actions():
            g.step(rnd.randrange(n))
            done.append("step")
    return forest


@settings(max_examples=examples(40, 1500), deadline=None)
@given(path=st.sampled_from(RULESETS), cls=st.sampled_from([GeneratedGame, ReferenceGame]),
       chance=st.sampled_from(["seeded", "explicit"]), narrate=st.booleans(), players=st.integers(1, 5),
       rnd=st.randoms(use_true_random=False), moves=st.integers(20, 250))
def test_every_game_of_a_forest_of_copies_is_what_its_own_log_replays_to(path, cls, chance, narrate, players, rnd,
                                                                         moves):
    rs = ruleset(path)
    check(rs, cls, max(rs.min_players, min(rs.max_players, players)), chance, narrate, rnd, moves)


def check(rs, cls, players: int, chance: str, narrate: bool, rnd: random.Random, moves: int) -> None:
    each_replays(rs, cls, players, chance, narrate, grow(rs, cls, players, chance, narrate, rnd, moves))


def each_replays(rs, cls, players: int, chance: str, narrate: bool, forest: list) -> None:
    """Every game of `forest` is exactly what its own seed and action log replay to."""
    for seed, g, done in forest:
        replayed = cls.replay(rs, players, seed, g.state.actions, chance=chance, narrate=narrate)
        assert saved(g) == saved(replayed), f"{done[-12:]}"


def test_a_write_to_a_shared_zone_would_be_seen(monkeypatch):
    """The property can fail: when copies share their zones without copying them on write, the forest of
    a bundled game soon holds a game that is not what its log replays to (or one that the shared writes
    have broken: a component its zone no longer holds)."""
    from meeple.runtime.state import GameState

    rs = ruleset(next(p for p in RULESETS if p.stem == "speicherstadt"))
    monkeypatch.setattr(GameState, "writable", lambda self, key: self.zones[key])
    with pytest.raises((AssertionError, MeepleError)):
        check(rs, GeneratedGame, 3, "seeded", False, random.Random(1), 200)
