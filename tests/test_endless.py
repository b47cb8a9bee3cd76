"""A game that does not end is reported (R010, at the decision it keeps offering), wherever it is played.

A designer who breaks a game's end condition learns it from an error, never from a command that hangs:
`simulate`, `bench` and the others stop a game at MAX_DECISIONS (test_simulate.py, test_bench.py). So do
the places that play games of their own inside one decision or before the first: a search bot's rollouts,
which no time budget can stop since the budget is checked between rollouts, and the random games the
OpenSpiel and PettingZoo adapters measure a ruleset by. (Found by fuzzing rulesets changed at random: a
Merchants whose end condition read the wrong zone made `meeple simulate --agents mcts:12` run forever,
where random bots got R010 in five seconds.)

The game here ends after 2,000 decisions, so that with the limit set to 50 a missing check fails the test
rather than hanging it.
"""

import pytest
from click.testing import CliRunner
from meeple.cli.main import meeple
from meeple.errors import RuntimeRuleError
from meeple.runtime.rules import load_ruleset
from meeple.tools import mcts, probe
from meeple.tools.agents import make_agent
from test_differential import GeneratedGame, ReferenceGame

LONG = """\
meeple: 1
name: Long
players: {min: 2, max: 2}
flow: |
  repeat 2000:
      choose player(0) "Again?":
          option "Again":
              pass
          option "Once more":
              pass
scoring:
  score: "0"
"""


@pytest.fixture
def long_game(tmp_path):
    path = tmp_path / "long.yaml"
    path.write_text(LONG)
    return path


def located_r010(e: RuntimeRuleError, which: str) -> None:
    p = e.problems[0]
    assert p.code == "R010" and f"within 50 decisions {which}" in p.message, p.message
    assert p.span is not None and str(p.span).endswith("long.yaml:6:7")


@pytest.mark.parametrize("spec", ["mcts:3", "mcts:0.05s", "mcts:3:guide=1:follow"])
def test_a_search_bots_rollout_that_does_not_end_is_reported_not_waited_for(long_game, monkeypatch, spec):
    monkeypatch.setattr(mcts, "MAX_DECISIONS", 50)
    game = load_ruleset(long_game).new_game(2, 1)
    with pytest.raises(RuntimeRuleError) as e:
        make_agent(spec, 1).choose(game, 0)
    located_r010(e.value, "in a rollout of a search bot's look-ahead")


def test_simulate_with_search_bots_says_so_and_exits_1(long_game, monkeypatch):
    monkeypatch.setattr(mcts, "MAX_DECISIONS", 50)
    r = CliRunner().invoke(meeple, ["simulate", str(long_game), "--games", "1", "--agents", "mcts:3", "--workers", "1"])
    assert r.exit_code == 1, r.output
    assert "R010" in r.output and "rollout of a search bot's look-ahead" in r.output and "Traceback" not in r.output


def test_the_adapters_measure_of_a_game_that_does_not_end_is_reported_not_waited_for(long_game, monkeypatch):
    monkeypatch.setattr(probe, "MAX_DECISIONS", 50)
    with pytest.raises(RuntimeRuleError) as e:
        probe.profile(load_ruleset(long_game), 2)
    located_r010(e.value, "in a random game measured for the adapters (players 2, seed 0)")


SHUFFLING = """\
meeple: 1
name: Shuffling
players: {min: 2, max: 2}
zones:
  game:
    deck: {visibility: hidden}
components:
  card:
    items:
      - {id: jack, name: J}
      - {id: queen, name: Q}
setup: move(components("card"), deck)
flow: |
  %s
  while true:
      shuffle(deck)
scoring:
  score: "0"
"""


@pytest.mark.parametrize("first", ["pass", 'choose player(0) "Go?":\n      option "Go":\n          pass'],
                         ids=["at the start", "after a decision"])
@pytest.mark.parametrize("game_class", [GeneratedGame, ReferenceGame], ids=["generated", "reference"])
def test_a_loop_of_random_events_without_a_decision_is_reported_under_explicit_chance_too(
        tmp_path, monkeypatch, first, game_class):
    """Bug (found reviewing the limits of `bench`): `meeple bench --chance explicit` on a flow that shuffles
    forever without a decision ran for days where the seeded game reports R001 in seconds. Each random
    event inside a loop of generated code runs the step again from its start (the last decision), so the
    n-th event costs n times the loop's body: the budget, counted per run, was reached only after about a
    million events, at a cost of their square. The runs now count against one budget, so the loop is
    reported after about the square root of the budget's events, at the loop, with a hint saying why; and
    a replay of the game from its log fails at the same event (the count does not depend on shortcuts)."""
    monkeypatch.setattr(game_class, "max_steps", 20_000)
    path = tmp_path / "shuffling.yaml"
    path.write_text(SHUFFLING % first)
    loop = path.read_text().splitlines().index("  while true:") + 1
    rs = load_ruleset(path)
    with pytest.raises(RuntimeRuleError) as seeded:
        game_class.new(rs, 2, 1).apply_index(0)  # seeded: the loop runs out of budget as it always did
    g = game_class.new(rs, 2, 1, chance="explicit")
    if not g.is_chance:
        g.apply_index(0)
    with pytest.raises(RuntimeRuleError) as explicit:
        for events in range(1, 1_000):  # without the count: about 10,000, and 20 times the time
            saved = g.to_json()
            g.apply_index(events % 2)
    p, q = explicit.value.problems[0], seeded.value.problems[0]
    # At the loop: its `while` or its `shuffle`, whichever statement the budget runs out at.
    assert p.code == q.code == "R001" and {p.span.line, q.span.line} <= {loop, loop + 1}
    assert "explicit chance" in (p.hint or "")
    replayed = game_class.from_json(rs, saved)  # from its seed and log, with no shortcut kept
    with pytest.raises(RuntimeRuleError, match="R001"):
        replayed.apply_index(events % 2)


@pytest.mark.parametrize("where", ["simulate", "bench", "rollout", "probe"])
def test_every_loop_stops_a_game_at_the_limit_with_its_next_decision_open(tmp_path, monkeypatch, where):
    """Found in review: `simulate` and `bench` checked the limit after a decision (`> limit`), the others
    before one (`>= limit`). So a game one decision longer than the limit ended, and was then reported as
    not ending, located nowhere (no decision was open). Now each loop reports a game that has had the
    limit's decisions and still offers one, at that decision; a game of exactly the limit is no error."""
    from meeple.tools import bench, simulate

    monkeypatch.setattr(bench, "MAX_DECISIONS", 50)
    monkeypatch.setattr(mcts, "MAX_DECISIONS", 50)
    monkeypatch.setattr(probe, "MAX_DECISIONS", 50)

    def run(decisions: int) -> None:
        path = tmp_path / f"long{decisions}.yaml"
        path.write_text(LONG.replace("repeat 2000", f"repeat {decisions}"))
        rs = load_ruleset(path)
        if where == "simulate":
            simulate.play_game(rs, 2, 1, max_decisions=50)
        elif where == "bench":
            bench.bench(rs, [2], games=1, seconds=1)
        elif where == "rollout":
            mcts.MctsAgent(1, iterations=1)._playout(rs.new_game(2, 1), mcts.random.Random(1))
        else:
            probe.profile(rs, 2)

    run(50)  # exactly the limit: it ends
    with pytest.raises(RuntimeRuleError) as e:
        run(51)
    p = e.value.problems[0]
    assert p.code == "R010" and "within 50 decisions" in p.message
    assert p.span is not None and str(p.span).endswith(".yaml:6:7")
