"""`agents.value` and `meeple fit-value`: a ruleset's estimate of each seat's chances, learned from games.

The search bot scores a rollout it cuts short with the ruleset's `agents.value`, read as hundredths of a
logit (the seats' chances are the softmax of value / 100). `meeple fit-value` learns such a value from
the ruleset's `agents.features` by fitting a conditional logit model to positions of finished games.
"""

import json
import math
import random

import pytest
from click.testing import CliRunner
from meeple.cli.main import meeple as cli
from meeple.errors import RuntimeRuleError
from meeple.runtime.rules import load_ruleset
from meeple.tools.backends import Interrupted
from meeple.tools.policy import number, rewards
from meeple.tools.valuefit import Fit, fit_value, log_loss, newton, solve

# A race to 12: a step of 1 or 2 plus a random 0-2. `p.noise` is dealt afresh at every move and says
# nothing about who wins; `p.pos` says a lot.
DASH = """\
meeple: 1
name: Dash
players: {min: 2, max: 4}
counters:
  player: {pos: 0, noise: 0}
flow: |
  while true:
      for p in players:
          choose p "Move":
              option "Step {n}" for n in [1, 2]:
                  p.pos += n + random_pick([0, 1, 2])
                  p.noise = random_pick([0, 1, 2, 3])
          if p.pos >= 12:
              end_game
scoring:
  score: p.pos
agents:
  features:
    - p.pos
    - p.noise
"""


@pytest.fixture
def dash(tmp_path):
    path = tmp_path / "dash.yaml"
    path.write_text(DASH)
    return path


def test_newton_recovers_the_weights_of_positions_drawn_from_the_model():
    rng = random.Random(1)
    true = [0.8, -0.3]
    samples = []
    for _ in range(3000):
        pos = [[rng.randint(0, 5), rng.randint(0, 8)] for _ in range(3)]
        scores = [math.exp(true[0] * x[0] + true[1] * x[1]) for x in pos]
        r, acc, winner = rng.random() * sum(scores), 0.0, 2
        for i, s in enumerate(scores):
            acc += s
            if r < acc:
                winner = i
                break
        samples.append((pos, [1.0 if i == winner else 0.0 for i in range(3)]))
    w = newton(samples)
    assert w == pytest.approx(true, abs=0.08)
    # The fitted weights explain the games better than chance and than the truth's neighbours.
    assert log_loss(samples, w) < log_loss(samples, [0.0, 0.0])
    assert log_loss(samples, w) <= log_loss(samples, [0.9, -0.3])


def test_a_shared_win_is_split_and_a_constant_feature_gets_no_weight():
    # Two seats, always tied on the first feature and sharing the win: nothing to learn; the ridge keeps
    # the step defined although the second feature never varies.
    samples = [([[k, 1.0], [k, 1.0]], [0.5, 0.5]) for k in range(5)]
    assert newton(samples) == pytest.approx([0.0, 0.0], abs=1e-9)


def test_solve_is_gaussian_elimination():
    assert solve([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0]) == pytest.approx([0.8, 1.4])
    assert solve([[0.0, 1.0], [1.0, 0.0]], [2.0, 3.0]) == pytest.approx([3.0, 2.0])  # needs a pivot


def test_the_fit_values_what_decides_the_race_and_ignores_the_noise(dash):
    fit = fit_value(load_ruleset(str(dash)), 2, 100, "random", seed=0, every=1)
    pos, noise = fit.weights
    assert pos > 0.3
    assert abs(noise) < pos / 3
    assert fit.features == ["p.pos", "p.noise"]
    assert fit.loss < fit.loss_chance and fit.held_out < fit.loss_chance
    assert fit.favourite_won > 0.6
    assert fit.positions > 100 and fit.games == 100


def test_the_printed_value_is_what_the_search_bot_reads(tmp_path):
    # A value in hundredths of a logit: seats at 0 and 100 have chances 1 : e.
    fit = Fit(["p.pos", "p.noise"], [1.0, 0.0], 2, 2, 0.0, 0.0, 0.0, 0.0, 0.0)
    assert fit.expression() == "100 * p.pos"
    path = tmp_path / "valued.yaml"
    path.write_text(DASH + f"  value: {fit.expression()}\n")
    g = load_ruleset(str(path)).new_game(2, 0)
    g.state.counters["1.pos"] = 1  # the second seat one step ahead
    chances = rewards(g)
    assert chances == pytest.approx([1 / (1 + math.e), math.e / (1 + math.e)])


def test_weights_give_the_value_their_written_out_expression_gives(tmp_path):
    """`agents.weights` (what fit-value prints) is `agents.value` written as one number per feature."""
    fit = Fit(["p.pos", "p.noise"], [0.37, -0.05], 2, 2, 0.0, 0.0, 0.0, 0.0, 0.0)
    written, weighted = tmp_path / "written.yaml", tmp_path / "weighted.yaml"
    written.write_text(DASH + f"  value: {fit.expression()}\n")
    weighted.write_text(DASH + f"  weights: {fit.hundredths}\n")
    games = [load_ruleset(str(f)).new_game(3, 7) for f in (written, weighted)]
    rng = random.Random(0)
    while not games[0].is_over:
        written_out, by_weights = ([number(g, g.rs.value, p, "v", "v") for p in range(3)] for g in games)
        assert written_out == by_weights
        i = rng.randrange(games[0].num_actions())
        for g in games:
            g.apply_index(i)
    assert rewards(games[0]) == rewards(games[1])


@pytest.mark.parametrize("extra,message,line", [
    ("  weights: [37]\n", "`agents.weights` has 1 numbers for 2 features", 21),
    ("  weights: [37, -5]\n  value: p.pos\n", "`agents.value` and `agents.weights` both give the value", 21),
    ("  weights: [37, 1.5]\n", "`agents.weights[1]` must be", 21),
])
def test_weights_that_do_not_fit_the_features_are_refused_where_they_are(tmp_path, extra, message, line):
    path = tmp_path / "bad.yaml"
    path.write_text(DASH + extra)
    res = CliRunner().invoke(cli, ["validate", str(path)])
    assert res.exit_code == 1 and "Traceback" not in res.output
    assert f"bad.yaml:{line}:" in res.output and message in res.output


@pytest.mark.parametrize("base,variant,expected", [
    ("  weights: [37, -5]\n", "agents: {value: 100 * p.pos}\n", "100 * p.pos"),  # the variant's value
    ("  value: 100 * p.pos\n", "agents: {weights: [37, -5]}\n", "37 * p.pos - 5 * p.noise"),  # its weights
])
def test_a_variant_gives_its_value_either_way_over_its_base(tmp_path, base, variant, expected):
    """A variant cannot `remove:` the base's `agents.value` or `agents.weights`: its own one replaces it."""
    (tmp_path / "dash.yaml").write_text(DASH + base)
    (tmp_path / "house.yaml").write_text(f"meeple: 1\nextends: dash.yaml\nname: House\n{variant}")
    (tmp_path / "mine.yaml").write_text(DASH + f"  value: {expected}\n")
    game, mine = (load_ruleset(str(tmp_path / f)).new_game(2, 3) for f in ("house.yaml", "mine.yaml"))
    game.state.counters["0.noise"] = mine.state.counters["0.noise"] = 2
    game.state.counters["1.pos"] = mine.state.counters["1.pos"] = 1
    assert [number(game, game.rs.value, p, "v", "v") for p in range(2)] == \
        [number(mine, mine.rs.value, p, "v", "v") for p in range(2)]


def test_an_error_in_a_weighted_feature_points_at_the_feature(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text(DASH.replace("    - p.noise", "    - p.noise // (p.pos - p.pos)") + "  weights: [37, 5]\n")
    g = load_ruleset(str(path)).new_game(2, 0)
    with pytest.raises(RuntimeRuleError) as err:
        number(g, g.rs.value, 0, "v", "v")
    assert "broken.yaml:20:7" in str(err.value)  # the feature's `//`, not the weights


def test_an_expression_keeps_signs_and_brackets_sums():
    fit = Fit(["count(p.hand)", "p.a + p.b", "p.c"], [0.5, -0.257, 0.001], 2, 2, 0, 0, 0, 0, 0)
    assert fit.expression() == "50 * count(p.hand) - 26 * (p.a + p.b)"
    assert Fit(["p.c"], [0.001], 2, 2, 0, 0, 0, 0, 0).expression() == "0"


def test_fit_value_command_prints_yaml_and_json(dash):
    runner = CliRunner()
    res = runner.invoke(cli, ["fit-value", str(dash), "-p", "2", "-n", "20", "-j", "1", "--agents", "random"])
    assert res.exit_code == 0, res.output
    assert "p.pos" in res.output and "log-loss" in res.output
    lines = res.output.rstrip().splitlines()
    assert lines[-3] == "agents:" and lines[-2].startswith("  weights: [")
    assert lines[-1].startswith("  # the same value written out, for `value:` instead: ")
    res = runner.invoke(cli, ["fit-value", str(dash), "-p", "2", "-n", "20", "-j", "1", "--agents", "random",
                              "--format", "json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["games"] == 20 and out["features"] == ["p.pos", "p.noise"] and out["value"]


def test_fit_value_refuses_what_it_cannot_fit(dash, tmp_path):
    runner = CliRunner()
    res = runner.invoke(cli, ["fit-value", "tic_tac_toe", "-n", "4", "-j", "1"])
    assert res.exit_code == 2 and "agents.features" in res.output
    res = runner.invoke(cli, ["fit-value", str(dash), "-p", "2", "-n", "1"])
    assert res.exit_code == 2 and "at least 2 games" in res.output
    res = runner.invoke(cli, ["fit-value", str(dash), "-p", "2", "-n", "4", "--every", "0"])
    assert res.exit_code == 2 and "--every" in res.output
    bad = tmp_path / "bad.yaml"
    bad.write_text(DASH.replace("    - p.noise", '    - "\\"a word\\""'))
    res = runner.invoke(cli, ["fit-value", str(bad), "-p", "2", "-n", "4", "-j", "1"])
    assert res.exit_code == 1 and "must be a number" in res.output and "Traceback" not in res.output
    assert f"{bad}:20:8:" in res.output  # located: the feature in the ruleset


def test_ctrl_c_fits_the_games_finished_in_order(dash):
    def stop_after_six(n, seen=[]):  # noqa: B006 - a counter that lives for this one run
        seen.append(n)
        if sum(seen) >= 6:
            raise KeyboardInterrupt

    rs = load_ruleset(str(dash))
    with pytest.raises(Interrupted) as e:
        fit_value(rs, 2, 20, "random", seed=4, every=1, progress=stop_after_six)
    part = e.value.partial
    assert e.value.total == 20 and part.games == 6
    whole = fit_value(rs, 2, 6, "random", seed=4, every=1)
    assert part.to_json() == whole.to_json()


def test_the_value_and_features_read_the_same_in_generated_code_and_the_reference():
    # Both are compiled with the ruleset (codegen roots); the reference tree-walker is the oracle.
    from test_differential import GeneratedGame, ReferenceGame

    rs = load_ruleset("demoludy")
    gen, ref = GeneratedGame.new(rs, 4, 3), ReferenceGame.new(rs, 4, 3)
    rng = random.Random(3)
    for _ in range(80):
        assert rewards(gen) == rewards(ref)
        assert [[number(gen, f, s, "", "") for f in rs.features] for s in range(4)] == \
            [[number(ref, f, s, "", "") for f in rs.features] for s in range(4)]
        if gen.is_over:
            break
        seat = gen.deciders[0]
        i = rng.randrange(gen.num_actions(seat))
        gen.apply_index(i, seat)
        ref.apply_index(i, seat)


def test_sampling_too_sparse_for_the_games_says_so(dash):
    res = CliRunner().invoke(cli, ["fit-value", str(dash), "-p", "2", "-n", "2", "-j", "1", "--every", "100000"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "too sparse for that many games" in res.output and "smaller --every" in res.output
    assert "no decisions with a choice" not in res.output


def test_a_fit_worse_than_chance_on_held_out_games_is_not_offered_as_good(capsys):
    from meeple.cli.fitvalue import _text

    bad = Fit(["p.pos"], [0.5], 4, 40, 0.5, 0.5, 0.69, 0.9, 0.5)
    assert bad.worse_than_chance and bad.to_json()["worse_than_chance"] is True
    _text(bad, "Dash", 2, "random", 0)
    out = capsys.readouterr().out
    assert "no better than chance" in out and "do not paste them" in out and "# not worth using:" in out
    good = Fit(["p.pos"], [0.5], 4, 40, 0.5, 0.5, 0.69, 0.6, 0.7)
    _text(good, "Dash", 2, "random", 0)
    assert not good.worse_than_chance and "chance (log-loss" not in capsys.readouterr().out


def test_a_variant_with_other_features_can_be_fitted(tmp_path):
    """A variant trying other features failed to load ("agents.weights has 8 numbers for 2 features",
    located in the base) until the designer invented weights: fit-value, which makes them, could not run."""
    from click.testing import CliRunner
    from meeple.cli.main import meeple

    path = tmp_path / "other.yaml"
    path.write_text("meeple: 1\nextends: demoludy\nagents:\n  features:\n    - count(p.hand)\n    - count(deck)\n")
    r = CliRunner().invoke(meeple, ["fit-value", str(path), "-n", "3", "-j", "1", "--format", "json"])
    assert r.exit_code == 0, r.output
    assert len(json.loads(r.stdout)["weights"]) == 2  # one per new feature
