"""A step with explicit chance goes on from a shuffle in place, and a new game starts from a copy.

Shortcuts of runtime/explicit.py, shortcuts.py and chancesites.py, each pinned against what it replaces:

* once the last draw of a shuffle that is a statement of its own (in the block of the frame on top of
  the stack) is known, the step goes on from the statement after it in the game's own state, instead of
  running again from its start with every outcome (`_go_on`); any other random event is replayed, from
  after that shuffle;
* a new game's start, which draws nothing before its first chance node, is run once per ruleset and
  player count and copied (`shortcuts.reused`);
* a decision runs its step in place, without a copy of the state to replay from, when nothing can
  draw after a decision: no script but the setup draws, and the setup only before it first waits
  (`draws_after_start`); and otherwise from a mark rather than a copy (tests/test_marks.py).

Either way the game must be the one a replay gives: the same save (step count included: one engine at
a time), the same views, logs, chance outcomes and actions, at every step.
"""

import random
import textwrap

import meeple
import pytest
from meeple.errors import MeepleError
from meeple.runtime import chancesites, explicit, shortcuts
from meeple.runtime import game as game_module
from meeple.runtime.frames import frames_to_json
from meeple.runtime.game import Game
from meeple.runtime.rules import load_ruleset
from test_differential import RULESETS, GeneratedGame, ReferenceGame


def observed(g: Game) -> dict:
    seats = g.deciders
    # The frames too: a save at a chance event holds none (saves.state_to_json), and one engine's shortcut
    # must leave the very frames its replay leaves.
    return {"save": g.to_json(), "frames": frames_to_json(g.state.stack, g.rs.node_ids),
            "chance": g.chance_outcomes() if g.is_chance else None,
            "actions": g.legal_actions(), "views": [g.view(s) for s in seats], "logs": [g.log_for(s) for s in seats],
            "over": g.is_over}


def play(rs, game_class, seed: int, limit: int, players: int | None = None, narrate: bool = True) -> list:
    """An explicit-chance game of `rs` with seeded random outcomes and decisions: what it shows at each
    of its first `limit` steps, and the error it fails with, if it does (random scripts can fail)."""
    try:
        g = game_class.new(rs, players or rs.min_players, seed, chance="explicit", narrate=narrate)
    except MeepleError as e:
        return [failed(e)]
    rng = random.Random(seed)
    seen: list = []
    for _ in range(limit):
        seen.append(observed(g))
        if g.is_over:
            break
        try:
            g.apply_index(rng.randrange(g.num_actions()))  # an outcome at a chance event
        except MeepleError as e:
            return [*seen, failed(e)]
    return seen


def failed(e: MeepleError) -> list:
    """A failing game's error, as `play` shows it: each problem's code, words and place."""
    return [(p.code, p.message, p.span) for p in e.problems]


def replaying(monkeypatch) -> None:
    """Every step with a random event runs again from its start, every new game runs its start, and
    every decision's step starts from a copy of the state, in case it draws (runtime/shortcuts.py's
    work, as it was before)."""
    monkeypatch.setattr(explicit, "_go_on", lambda game, node, value: False)
    monkeypatch.setattr(game_module, "draws_after_start", lambda rs: True)
    monkeypatch.setattr(shortcuts, "resolve", lambda game, opt: explicit.run_step(game, explicit.resolving(game, game.state), []))
    monkeypatch.setattr(shortcuts, "reused", lambda cls, rs, players, seed, quiet: None)

    def started(cls, rs, st):  # each game its own start, none kept
        g = cls(rs, st)
        explicit.start(g, st)
        return g
    monkeypatch.setattr(shortcuts, "first_start", started)


@pytest.mark.parametrize("game_class", [GeneratedGame, ReferenceGame], ids=["generated", "reference"])
@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_every_bundled_ruleset_plays_as_its_replays_do(path, game_class, monkeypatch):
    rs = load_ruleset(path)
    fast = [play(rs, game_class, seed, 120) for seed in (1, 2)]
    with monkeypatch.context() as m:
        replaying(m)
        slow = [play(rs, game_class, seed, 120) for seed in (1, 2)]
    assert fast == slow


TOY = """\
meeple: 1
name: Toy
players: {min: 2, max: 2}
counters:
  game: {roll: 0}
  player: {points: 0}
zones:
  game: {deck: {visibility: hidden}, row: {}, pile: {visibility: hidden}}
  player: {hand: {visibility: owner}}
components:
  card:
    items:
      - {id: ace, name: Ace, value: 1, count: 2}
      - {id: king, name: King, value: 3}
      - {id: queen, name: Queen, value: 2}
procedures:
  deal:
    params: [p]
    do: |
      shuffle(deck)
      move(first(deck), p.hand)
  pick:
    params: [p]
    do: |
      shuffle(deck)
      choose p "Keep it?":
          option "Keep":
              move(first(deck), p.hand)
          option "Leave":
              pass
setup: |
  SETUP
flow: |
  FLOW
scoring:
  score: p.points
"""


def toy(tmp_path, setup, flow="pass", procedures=True):
    text = TOY if procedures else TOY[:TOY.index("procedures:")] + TOY[TOY.index("setup:"):]
    text = text.replace("SETUP", textwrap.indent(textwrap.dedent(setup).strip(), "  ").lstrip())
    text = text.replace("FLOW", textwrap.indent(textwrap.dedent(flow).strip(), "  ").lstrip())
    path = tmp_path / "toy.yaml"
    path.write_text(text)
    return load_ruleset(path)


# (setup, flow, how many times a step runs again from its start in a game: once a shuffle is drawn
# that is not a statement of the frame on top, and once per `random_pick`; None: at most once a game,
# when the option that shuffles is chosen)
CASES = {
    "a shuffle of the setup's own": ('move(components("card"), deck)\nshuffle(deck)\nmove(first(deck), row)',
                                     "pass", 0),
    "the setup's last statement": ('move(components("card"), deck)\nshuffle(deck)', "pass", 0),
    "two in a row": ('move(components("card"), deck)\nshuffle(deck)\nmove(list(deck), pile)\nshuffle(pile)',
                     "pass", 0),
    # The setup's loops and branches that hold a shuffle run as frames (checker/suspension.py), so that
    # the step goes on from each shuffle in them; before, this loop's game ran the setup twice more.
    "in an if of the setup": ('move(components("card"), deck)\nif nplayers == 2:\n    shuffle(deck)', "pass", 0),
    "in a loop of the setup": (('move(components("card"), deck)\nfor p in players:\n    shuffle(deck)\n    '
                               'move(first(deck), p.hand)'), "pass", 0),
    "in an if of an option, inline": ('move(components("card"), deck)',
                                      ('choose player(0) "Shuffle?":\n    option "Shuffle":\n'
                                       '        if nplayers == 2:\n            shuffle(deck)\n'
                                       '    option "Not":\n        pass'), None),
    "in a procedure run inline": ('move(components("card"), deck)\ndeal(player(0))', "pass", 1),
    "in a procedure that waits": ('move(components("card"), deck)', "for p in players:\n    pick(p)", 0),
    "in a loop whose body waits": ('move(components("card"), deck)',
                                   ('for p in players:\n    shuffle(deck)\n    choose p "Take the top card?":\n'
                                   '        option "Take":\n            move(first(deck), p.hand)\n'
                                   '        option "Pass":\n            pass'), 0),
    "then a random_pick": ('move(components("card"), deck)\nshuffle(deck)\nroll = random_pick([1, 2, 3])',
                           "pass", 1),
}


@pytest.mark.parametrize("game_class", [GeneratedGame, ReferenceGame], ids=["generated", "reference"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_shuffle_goes_on_in_place_only_from_a_statement_of_the_frame_on_top(case, game_class, tmp_path,
                                                                             monkeypatch):
    setup, flow, replays = CASES[case]
    rs = toy(tmp_path, setup, flow)
    runs = []  # a replay runs a step again with the outcomes it had drawn; a decision's step has none yet
    real = explicit.run_step
    monkeypatch.setattr(explicit, "run_step",
                        lambda game, step, outcomes, spent=0: runs.extend(outcomes[:1]) or real(game, step, outcomes, spent))
    replayed = 0
    for seed in range(6):
        runs.clear()
        fast = play(rs, game_class, seed, 60)
        assert fast[-1]["over"] and len(runs) == (replays if replays is not None else len(runs) and 1)
        replayed += len(runs)
        with monkeypatch.context() as m:
            replaying(m)
            assert play(rs, game_class, seed, 60) == fast
    assert replays is not None or replayed  # the option that shuffles inline (once a game) was chosen


def test_a_new_game_starts_as_a_copy_with_its_own_seed(tmp_path):
    # New games share the state their replays start from; a replay gives its state the game's seed.
    rs = toy(tmp_path, 'move(components("card"), deck)\nshuffle(deck)\nroll = random_pick([1, 2, 3])')
    a, b = rs.new_game(2, 5, chance="explicit"), rs.new_game(2, 6, chance="explicit")
    assert (a.state.seed, b.state.seed) == (5, 6) and a.state is not b.state
    assert a._chance.base is b._chance.base
    offered = a.chance_outcomes()
    for g in (a, b):
        while g.is_chance:  # the shuffle in place, then the random_pick by a replay
            g.apply_index(0)
    assert (a.state.seed, b.state.seed) == (5, 6) and (a.to_json()["seed"], b.to_json()["seed"]) == (5, 6)
    # ... and what the games did is no part of the next new game
    assert rs.new_game(2, 7, chance="explicit").chance_outcomes() == offered and len(offered) == 3


def test_a_chance_node_whose_state_has_run_anything_since_replays_its_step(tmp_path, monkeypatch):
    # The state shown at a chance node is only looked at; if anything ran in it since (its step count
    # moved), going on from it could differ from the game, so the step is replayed from where it began.
    rs = toy(tmp_path, 'move(components("card"), deck)\nshuffle(deck)\nmove(first(deck), row)')
    replays = []
    real = explicit.run_step
    monkeypatch.setattr(explicit, "run_step",
                        lambda game, step, outcomes, spent=0: replays.extend(outcomes[:1]) or real(game, step, outcomes, spent))
    g, h = rs.new_game(2, 1, chance="explicit"), rs.new_game(2, 1, chance="explicit")
    g.state.steps += 1
    for x in (g, h):
        while x.is_chance:
            x.apply_index(0)
    assert len(replays) == 1 and g.to_json() == h.to_json()


def test_kuhn_poker_deals_in_place():
    kuhn = meeple.load_ruleset("rulesets/reference/kuhn_poker.yaml")
    g = kuhn.new_game(2, 3, chance="explicit")
    node = g._chance
    assert node.at is not None and node.outcomes == []
    while g.is_chance:
        g.apply_index(0)
    assert not g.is_chance and g.deciders == [0]


def test_a_setup_that_draws_before_it_waits_resolves_decisions_in_place(tmp_path, monkeypatch):
    # Merchants shuffles its pile, deals, then has each player load a ship: every random event comes
    # before the first decision, so no decision needs a copy to replay from.
    assert not chancesites.draws_after_start(meeple.load_ruleset("merchants"))
    setup = ('move(components("card"), deck)\nshuffle(deck)\nchoose player(0) "Take the top card?":\n'
             '    option "Take":\n        move(first(deck), player(0).hand)\n    option "Pass":\n        pass')
    rs = toy(tmp_path, setup, procedures=False)
    assert not chancesites.draws_after_start(rs)
    late = toy(tmp_path, setup + "\nshuffle(deck)", procedures=False)
    assert chancesites.draws_after_start(late)
    for r in (rs, late):
        fast = [play(r, GeneratedGame, seed, 40) for seed in range(4)]
        with monkeypatch.context() as m:
            replaying(m)
            assert [play(r, GeneratedGame, seed, 40) for seed in range(4)] == fast


def test_a_before_flow_that_draws_after_the_setup_waits_is_replayed_as_any_step(tmp_path):
    # `before_flow` is no script of the ruleset: a game whose own does draw resolves its decisions in
    # case they draw (found in review: the shuffle's chance event escaped as a NeedChance). That game
    # alone: the ruleset's other games still resolve theirs in place (they used to copy from then on).
    from meeple.language.parser import parse_script, plain_origin

    rs = meeple.load_ruleset("merchants")
    assert not chancesites.draws_after_start(rs)
    g = rs.new_game(3, 1, chance="explicit", before_flow=parse_script("shuffle(pile)\n", plain_origin()))
    rng = random.Random(1)
    while not (g.is_chance and any(a["player"] >= 0 for a in g.state.actions)):  # a draw after a decision
        g.apply_index(rng.randrange(g.num_actions()))
    h = g.copy()
    assert g._late and h._late
    for x in (g, h):
        while not x.is_over:
            x.apply_index(rng.randrange(x.num_actions()))
    other = rs.new_game(3, 1, chance="explicit")
    other.apply_index(0)
    assert not chancesites.draws_after_start(rs) and not other._late and other._mark is None


def both_ways(monkeypatch, run):
    """`run()` with the shortcuts, then with every step replayed: the two results."""
    fast = run()
    with monkeypatch.context() as m:
        replaying(m)
        return fast, run()


@pytest.mark.parametrize("game_class", [GeneratedGame, ReferenceGame], ids=["generated", "reference"])
def test_a_step_that_fails_after_a_shuffle_in_place_fails_as_its_replay_does(game_class, tmp_path, monkeypatch):
    # Found in review: the failing step kept the shuffle in the state, and applying the outcome again
    # shuffled once more (or raised an IndexError) where a replay fails again the same way.
    rs = toy(tmp_path, 'move(components("card"), deck)\nshuffle(deck)\nmove(first(deck), row)\nn = 1 // count(pile)')

    def run():
        g = game_class.new(rs, 2, 1, chance="explicit")
        g.apply_index(2)  # the queen on top, then the king: the aces are alike, and the shuffle is drawn
        errors = []
        for _ in range(2):
            with pytest.raises(meeple.RuntimeRuleError) as e:
                g.apply_index(1)
            errors.append(str(e.value))
        return errors, g.to_json()
    fast, slow = both_ways(monkeypatch, run)
    assert fast == slow and "division by zero" in fast[0][0] and fast[0][0] == fast[0][1]


@pytest.mark.parametrize("game_class", [GeneratedGame, ReferenceGame], ids=["generated", "reference"])
def test_a_step_replayed_from_after_a_shuffle_in_place_gives_and_fails_as_from_its_start(game_class, tmp_path,
                                                                                    monkeypatch):
    # After the shuffle done in place, the `random_pick` replays the rest of the step only (REST): the
    # same state, log and error as the whole step run again, and the same again when the error repeats.
    rs = toy(tmp_path, 'move(components("card"), deck)\nshuffle(deck)\nmove(first(deck), row)\n'
                       'roll = random_pick([1, 2, 3])\nlog("Rolled {roll}")\nn = roll // (roll - 2)')

    def run():
        out = []
        for pick in (0, 1):  # a roll of 1 (the game starts) and of 2 (a division by zero)
            g = game_class.new(rs, 2, 1, chance="explicit")
            g.apply_index(2)
            g.apply_index(1)  # the shuffle is drawn: it is done in place, and the step stops at the pick
            assert g.is_chance and len(g.chance_outcomes()) == 3
            errors = []
            for _ in range(2 if pick else 1):
                try:
                    g.apply_index(pick)
                except meeple.RuntimeRuleError as e:
                    errors.append(str(e))
            out.append((errors, g.to_json(), g.log_for(0)))
        return out
    fast, slow = both_ways(monkeypatch, run)
    assert fast == slow
    assert fast[0][0] == [] and "Rolled 1" in str(fast[0][2])
    assert len(fast[1][0]) == 2 and "division by zero" in fast[1][0][0] and fast[1][0][0] == fast[1][0][1]


WAITS = ('choose p "Take the top card?":\n    option "Take":\n        move(first(deck), p.hand)\n'
         '    option "Pass":\n        pass')
ONE_SHUFFLE = {  # (setup, flow): the scripts' only random call, in the body of a loop
    # that waits for P2 alone: P1's shuffle and P2's are drawn in place in one step
    "twice in one step": ('move(components("card"), deck)\nfor p in players:\n    shuffle(deck)\n'
                          '    if p == player(1):\n' + textwrap.indent(WAITS, "        "), "pass"),
    # that waits for each player: one shuffle in place per step, the first in the start
    "once a step": ('move(components("card"), deck)',
                    "for p in players:\n    shuffle(deck)\n" + textwrap.indent(WAITS, "    ")),
}


@pytest.mark.parametrize("game_class", [GeneratedGame, ReferenceGame], ids=["generated", "reference"])
@pytest.mark.parametrize("case", sorted(ONE_SHUFFLE))
def test_a_lone_shuffle_done_in_place_again_draws_from_its_own_outcomes(case, game_class, tmp_path, monkeypatch):
    # With one random call in the scripts, a shuffle done in place keeps no copy to replay the rest of its
    # step from: each later shuffle of it must still count its outcomes from the step's replay's start.
    rs = toy(tmp_path, *ONE_SHUFFLE[case], procedures=False)
    assert not chancesites.several_sites(rs)
    fast, slow = both_ways(monkeypatch, lambda: [play(rs, game_class, seed, 40) for seed in range(6)])
    assert fast == slow


def test_what_evaluate_and_queries_do_at_a_chance_node_is_forgotten_as_a_replay_forgets_it(tmp_path, monkeypatch):
    # Found in review: an action evaluated at a chance node moved a card without counting a step, and a
    # score whose procedure sets a counter changed the state a query put the step count back on; the
    # step went on from that state, where its replay starts again from before it.
    text = (tmp_path / "toy.yaml")
    rs = toy(tmp_path, 'move(components("card"), deck)\nshuffle(deck)\nmove(first(deck), row)')
    tally = text.read_text().replace("score: p.points", "score: tally(p)").replace(
        "  game: {roll: 0}", "  game: {roll: 0, n: 0}").replace(
        "procedures:\n", "procedures:\n  tally:\n    params: [p]\n    do: |\n      n += 1\n      return p.points\n")
    (tmp_path / "tally.yaml").write_text(tally)
    scored = load_ruleset(tmp_path / "tally.yaml")

    def run():
        out = []
        for r, poke in ((rs, lambda g: g.evaluate("move(first(deck), pile)")), (scored, lambda g: g.scores)):
            g = r.new_game(2, 1, chance="explicit")
            g.apply_index(2)
            poke(g)
            while g.is_chance:
                g.apply_index(0)
            out.append(g.to_json())
        return out
    fast, slow = both_ways(monkeypatch, run)
    assert fast == slow and fast[1]["state"]["counters"]["n"] == 0



def test_the_setups_loops_that_shuffle_are_frames_and_wait_for_no_decision():
    # Speicherstadt shuffles each season of its deck in a loop of the setup: the loop (and the setup)
    # run as frames, so that explicit chance goes on from each shuffle; they still wait for no decision,
    # so the game's decisions resolve in place (no draw can follow one), as before they were frames.
    rs = load_ruleset("speicherstadt")
    framed = [type(n).__name__ for n in rs.nodes if id(n) in rs.shuffle_frames]
    assert sorted(framed) == ["Block", "For"]
    assert rs.shuffle_frames <= rs.suspends and id(rs.setup) in rs.shuffle_frames
    assert not chancesites.draws_after_start(rs)
    assert load_ruleset("merchants").shuffle_frames == set()  # its shuffles are statements of the setup's own


def test_a_new_game_with_explicit_chance_runs_its_setup_once(monkeypatch):
    rs = load_ruleset("speicherstadt")
    rs.new_game(4, 0, chance="explicit")  # the first start, which later games copy
    runs = []
    real = explicit.run_step
    monkeypatch.setattr(explicit, "run_step", lambda game, step, outcomes, spent=0: runs.append(1) or real(game, step, outcomes, spent))
    g = rs.new_game(4, 1, chance="explicit")
    rng = random.Random(1)
    while g.is_chance:  # the setup's five shuffles, card by card
        g.apply_index(rng.randrange(g.num_actions()))
    assert not runs and g.deciders == [0]
