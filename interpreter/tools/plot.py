"""Pictures of a comparison (tools/compare.py): score distributions and seat win rates, one colour per
ruleset. Needs matplotlib (the `plot` extra); `meeple compare --plot` and the web designer page use it.
"""

from __future__ import annotations

from typing import IO, Any


def plot(res: dict[str, Any], path: str | IO[bytes]) -> None:
    """Score distributions (left) and per-seat win rates with 95% CIs (right), one colour per ruleset."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt

    sums = res["rulesets"]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 5))
    everything = [x for scores in res["score_samples"] for x in scores] or [0]
    lo, hi = min(everything), max(everything)
    # The same bins for every ruleset, else the outlines cannot be compared; whole points when few.
    bins = [lo + i for i in range(int(hi - lo) + 2)] if hi - lo <= 60 else 40
    for s, scores in zip(sums, res["score_samples"]):
        ax1.hist(scores, bins=bins, range=(lo, hi + 1), histtype="step", linewidth=1.6, label=s["ruleset"])
    ax1.set(title="Score distribution (all seats)", xlabel="final score", ylabel="players")
    ax1.legend(fontsize=8)
    n, width = res["players"], 0.8 / len(sums)
    for i, s in enumerate(sums):
        xs = [k + (i - (len(sums) - 1) / 2) * width for k in range(n)]
        rates = [seat["win_rate"] for seat in s["seats"]]
        err = [[r - seat["win_ci"][0] for r, seat in zip(rates, s["seats"])],
               [seat["win_ci"][1] - r for r, seat in zip(rates, s["seats"])]]
        ax2.bar(xs, rates, width, yerr=err, capsize=3, label=s["ruleset"])
    ax2.axhline(1 / n, color="grey", linestyle="--", linewidth=1, label="fair share")
    ax2.set_xticks(range(n), [f"P{k + 1}" for k in range(n)])
    ax2.set(title=f"Win rate by seat (95% CI), {res['games']} games", ylabel="win rate")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
