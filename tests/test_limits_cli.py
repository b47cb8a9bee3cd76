"""The command line refuses absurd numbers as usage errors (exit 2) before doing any work, checks a plot's
path before playing, and `simulate` keeps no per-game record unless asked for one."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from meeple.cli.main import meeple
from meeple.runtime.rules import load_ruleset
from meeple.tools.simulate import simulate


@pytest.mark.parametrize("args", [
    ["bench", "speicherstadt", "--seconds", "nan"],
    ["bench", "speicherstadt", "--seconds", "inf"],
    ["bench", "speicherstadt", "--seconds", "-1"],
    ["bench", "speicherstadt", "--games", "100000000000000"],
    ["simulate", "speicherstadt", "--games", "100000000000000"],
    ["simulate", "speicherstadt", "--games", "0"],
    ["simulate", "speicherstadt", "--workers", "100000000"],
    ["compare", "speicherstadt", "variants/four_workers", "--games", "100000000000000"],
    ["compare", "speicherstadt", "variants/four_workers", "--workers", "-3"],
], ids=lambda a: " ".join(a[2:]) + " " + a[0])
def test_absurd_numbers_are_usage_errors(args):
    out = CliRunner().invoke(meeple, args)
    assert out.exit_code == 2, out.output
    assert "error:" in out.output and "Traceback" not in out.output


@pytest.mark.parametrize("plot", ["out.unknownext", "no_suffix", "{tmp}", "{tmp}/missing/plot.png"])
def test_compare_checks_the_plot_path_before_playing(tmp_path, plot):
    plot = plot.format(tmp=tmp_path)
    out = CliRunner().invoke(meeple, ["compare", "speicherstadt", "variants/four_workers", "--games", "1",
                                      "--plot", plot])
    assert out.exit_code == 2, out.output
    assert "--plot" in out.output and "games" not in out.output.split("--plot")[0]


def test_simulate_keeps_records_only_when_asked():
    rs = load_ruleset("merchants")
    kept = simulate(rs, 3, 12, seed=2, workers=1)
    lean = simulate(rs, 3, 12, seed=2, workers=1, keep_records=False)
    assert len(kept.records) == 12 and lean.records == []
    for a, b in zip(kept.seats, lean.seats):
        assert (a.wins, a.score_mean, a.score_stdev) == (b.wins, b.score_mean, b.score_stdev)
    assert (kept.length_mean, kept.decisions_mean) == (lean.length_mean, lean.decisions_mean)
