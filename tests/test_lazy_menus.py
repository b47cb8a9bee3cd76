"""A bot's look-ahead is a lazy game (`state.lazy`): a `choose` opens without its options, which are
worked out when something first reads them (`num_actions`, `legal_actions`, `apply_index`, `menu`, a view,
a save). Most look-aheads are judged by the heuristic and dropped, so most of their menus are never built.
Laziness must not show: the options, labels, the game played and its save are those of an eager game."""

import random

import pytest
from meeple.errors import RuntimeRuleError
from meeple.runtime.rules import load_ruleset
from support import BROKEN
from test_determinize import ALL_RULESETS, RS, players_for


def _look_aheads(game, seat):
    """Every option applied to a copy of the lazy `game`, as a bot's look-ahead does."""
    out = []
    for j in range(game.num_actions(seat)):
        h = game.copy()
        h.apply_index(j, seat)
        out.append(h)
    return out


def _play_both(rs, seed):
    """A random game played eagerly and, alongside, lazily from look-aheads (every option applied to a
    copy, play going on from the chosen one, whose next menu nobody has read yet); checks they agree
    and returns how many menus the look-aheads left unbuilt."""
    eager = rs.new_game(players_for(rs), seed)
    lazy = eager.copy()
    lazy.state.lazy = True
    rng = random.Random(seed)
    left = 0
    while not eager.is_over:
        s = eager.deciders[0]
        assert lazy.deciders == eager.deciders
        i = rng.randrange(eager.num_actions(s))
        ahead = _look_aheads(lazy, s)
        left += sum(1 for h in ahead if h.state.pending is not None and h.state.pending["options"] is None)
        lazy = ahead[i]
        eager.apply_index(i, s)
        if rng.random() < 0.3:  # labels are read from the menu too
            assert lazy.legal_actions() == eager.legal_actions()
    assert lazy.is_over and lazy.winners == eager.winners
    assert lazy.to_json() == eager.to_json()  # the same state, action log and step count
    return left


@pytest.mark.parametrize("path", ALL_RULESETS)
def test_a_lazy_game_offers_the_same_menus_and_plays_the_same_game(path):
    for seed in (1, 2):
        _play_both(RS[path], seed)


@pytest.mark.parametrize("name", ["speicherstadt", "merchants", "camel_up_off_season", "demoludy"])
def test_look_aheads_leave_menus_unbuilt(name):
    rs = RS[f"rulesets/{name}.yaml"]
    assert _play_both(rs, 3) > 0  # a lazy game that built every menu anyway would fail here


def test_a_lazy_game_reports_an_empty_menu_where_it_is_read(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text(BROKEN)
    rs = load_ruleset(path)
    eager = rs.new_game(3, 1)
    lazy = eager.copy()
    lazy.state.lazy = True
    eager.apply_index(0)
    with pytest.raises(RuntimeRuleError) as e:
        eager.apply_index(0)  # P3's menu is empty: the eager game reports it as it opens
    lazy.apply_index(0)
    lazy.apply_index(0)  # the lazy one has not worked it out yet
    with pytest.raises(RuntimeRuleError) as lazily:
        lazy.num_actions()
    assert lazily.value.problems == e.value.problems  # R002, at the same line and column of broken.yaml
    assert e.value.problems[0].code == "R002" and e.value.problems[0].span.file == str(path)


@pytest.mark.parametrize("name", ["speicherstadt", "demoludy"])
def test_the_reference_evaluator_opens_lazy_menus_the_same_way(monkeypatch, name):
    from meeple.runtime.evaluator import Evaluator
    from meeple.runtime.game import Game

    monkeypatch.setattr(Game, "evaluator_class", Evaluator)  # as MEEPLE_EVALUATOR=reference does
    rs = RS[f"rulesets/{name}.yaml"]
    assert type(rs.new_game(players_for(rs), 1)._ev) is Evaluator
    assert _play_both(rs, 4) > 0
