"""Small, dependency-free statistics for simulation reports.

Enough to say whether a difference between two rule variants is real: Wilson intervals for win
rates, a two-proportion z test for win rates and Welch's t test for mean scores. The t distribution
is computed exactly through the regularised incomplete beta function (no scipy needed).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from statistics import NormalDist

Z95 = 1.959963984540054  # the two-sided 95% quantile of the standard normal


def mean(xs: Sequence[float]) -> float:
    return math.fsum(xs) / len(xs) if xs else float("nan")


def stdev(xs: Sequence[float]) -> float:
    """The sample standard deviation (n - 1); 0 for a single value, nan for none."""
    n = len(xs)
    if n == 0:
        return float("nan")
    if n == 1:
        return 0.0
    m = mean(xs)
    return math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (n - 1))


def softmax(xs: Sequence[float]) -> list[float]:
    """exp(x) / sum(exp(x)) for each x, shifted by the largest so that no exp overflows."""
    top = max(xs)
    e = [math.exp(x - top) for x in xs]
    total = sum(e)
    return [v / total for v in e]


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion. Unlike the textbook p ± z·se it stays inside
    [0, 1] and behaves at 0 and n successes. Fractional successes (shared wins) are fine."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # At 0 or n successes the bound is exactly 0 or 1; rounding would otherwise leave 0.9999999999.
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)


def normal_cdf(x: float) -> float:
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def two_proportion_z(x1: float, n1: int, x2: float, n2: int) -> tuple[float, float]:
    """(z, two-sided p) for H0: both proportions are equal, with the pooled standard error."""
    if n1 <= 0 or n2 <= 0:
        return (0.0, 1.0)
    p1, p2 = x1 / n1, x2 / n2
    pooled = (x1 + x2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:  # both 0% or both 100%: no evidence of any difference
        return (0.0, 1.0)
    z = (p1 - p2) / se
    return (z, normal_p(z))


def _betacf(a: float, b: float, x: float) -> float:
    # Continued fraction of the incomplete beta function (modified Lentz, Numerical Recipes 6.4).
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c if abs(1 + aa / c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c if abs(1 + aa / c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    ln = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(ln)
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def t_p(t: float, df: float) -> float:
    """Two-sided p-value of Student's t with df degrees of freedom."""
    if math.isinf(df) or df > 1e7:
        return normal_p(t)
    return betainc(df / 2, 0.5, df / (df + t * t))


def welch_t(m1: float, s1: float, n1: int, m2: float, s2: float, n2: int) -> tuple[float, float, float]:
    """(t, degrees of freedom, two-sided p) for H0: equal means, without assuming equal variances."""
    if n1 < 2 or n2 < 2:
        return (0.0, float("nan"), 1.0)
    v1, v2 = s1 * s1 / n1, s2 * s2 / n2
    if v1 + v2 == 0:
        return (0.0, float("inf"), 1.0 if m1 == m2 else 0.0)
    t = (m1 - m2) / math.sqrt(v1 + v2)
    df = (v1 + v2) ** 2 / ((v1 * v1 / (n1 - 1) if v1 else 0) + (v2 * v2 / (n2 - 1) if v2 else 0))
    return (t, df, t_p(t, df))


def welch_samples(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float, float]:
    return welch_t(mean(xs), stdev(xs), len(xs), mean(ys), stdev(ys), len(ys))


# ------------------------------------------------------------------ how large a difference the games could show
POWER = 0.8  # the usual chance asked of a test to show a real difference of the size it is planned for


def proportion_diff_se(x1: float, n1: int, x2: float, n2: int) -> float:
    """The standard error of the difference of two proportions, pooled as in `two_proportion_z`; a pooled
    0 or 1 (no win in either sample, or nothing else) is taken as half a game from it, for the spread
    of a rate is not 0 just because it was not seen."""
    if n1 <= 0 or n2 <= 0:
        return float("nan")
    half = 0.5 / (n1 + n2)
    pooled = min(max((x1 + x2) / (n1 + n2), half), 1 - half)
    return math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))


def mean_diff_se(xs: Sequence[float], ys: Sequence[float]) -> float:
    """The standard error of the difference of two means, unpooled as in Welch's test."""
    if len(xs) < 2 or len(ys) < 2:
        return float("nan")
    return math.sqrt(stdev(xs) ** 2 / len(xs) + stdev(ys) ** 2 / len(ys))


def detectable(se: float, tests: int = 1, alpha: float = 0.05, power: float = POWER) -> float:
    """The smallest real difference that a two-sided test would show with probability `power`, given
    the standard error `se` of the difference: (z[1 - alpha/2] + z[power]) * se, about 2.8 se at 5% and
    80%. With `tests` figures under Holm's correction, a lone real difference must pass alpha/tests, so
    that is the level used. NaN when se is 0 or unknown (no spread: nothing to say)."""
    if not se > 0:
        return float("nan")
    nd = NormalDist()
    return (nd.inv_cdf(1 - alpha / (2 * max(1, tests))) + nd.inv_cdf(power)) * se


def round_below(x: float) -> float:
    """The largest of 1, 2, 2.5, 5 times a power of ten that is at most x (x > 0)."""
    top = 10.0 ** math.floor(math.log10(x))
    return next(top * k for k in (5, 2.5, 2, 1) if top * k <= x * (1 + 1e-12))


def games_to_detect(games: int, detectable_now: float, target: float) -> int:
    """About how many games (per ruleset) make `target` the detectable difference, when `games` make it
    `detectable_now`: the standard error shrinks as 1/sqrt(games). Rounded up to two significant digits."""
    need = math.ceil(games * (detectable_now / target) ** 2)
    step = 10 ** max(0, len(str(need)) - 2)
    return -(-need // step) * step


def to_detect(games: int, detectable_now: float, most: float = math.inf) -> dict[str, float]:
    """A difference worth aiming at next, a round number about half the one `games` could show (at most
    `most`), and about how many games would show it (four times as many, or more for the rounding)."""
    target = min(round_below(detectable_now / 2), most)
    return {"diff": target, "games": games_to_detect(games, detectable_now, target)}


def significant(p: float, alpha: float = 0.05) -> bool:
    return p < alpha


def numbers(values: Iterable[object]) -> list[float]:
    """The numeric values (scores can be anything a ruleset computes; only numbers have statistics)."""
    return [float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]


def holm(ps: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values, in the order given: with many figures compared at once, a
    few would pass p < 0.05 by chance alone; rejecting where the adjusted p < alpha keeps the chance of
    any false alarm among them all below alpha. NaN (no data) stays NaN and is not counted."""
    idx = sorted((i for i, p in enumerate(ps) if not math.isnan(p)), key=lambda i: ps[i])
    m = len(idx)
    out = [float("nan")] * len(ps)
    running = 0.0
    for rank, i in enumerate(idx):
        running = max(running, min(1.0, (m - rank) * ps[i]))  # adjusted p-values never decrease
        out[i] = running
    return out


class Running:
    """Mean and sample standard deviation of a stream of numbers, in constant memory (Welford's method):
    summaries of many games keep no list of them."""

    __slots__ = ("m2", "n", "total")

    def __init__(self) -> None:
        self.n = 0
        self.total = 0.0  # the running mean
        self.m2 = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        delta = x - self.total
        self.total += delta / self.n
        self.m2 += delta * (x - self.total)

    @property
    def mean(self) -> float:
        return self.total if self.n else float("nan")

    @property
    def stdev(self) -> float:
        if self.n == 0:
            return float("nan")
        return math.sqrt(self.m2 / (self.n - 1)) if self.n > 1 else 0.0


def inconclusive(row: dict, unit: str, more: str = "-n {games}") -> str:
    """What a difference that is not significant leaves open, in words (`meeple compare` and the
    designer page): how large one these games would likely have shown, and about how many games a
    smaller one needs. `more` says how to ask for them (the command's option, the page's box)."""
    def size(x: float) -> str:
        if row["what"].endswith("rate"):
            points = f"{100 * x:.3g}"
            return f"{points} percentage point{'' if points == '1' else 's'}"
        return f"{x:.3g} {unit}" if row["what"] == "game length" else f"{x:.3g}"

    least, aim = row["detectable"], row["to_detect"]
    # A rate can move from the base's at most to 0 or to 1 (found by QA: "no difference of 87.5
    # percentage points" from a base of 25%, where 75 is the most there can be)
    room = max(row["base"], 1 - row["base"]) if isinstance(row.get("base"), (int, float)) else 1
    told = ("too few games to show a difference of any size in a rate" if row["what"].endswith("rate")
            and least >= room else f"no difference of {size(least)} or more")
    return f"inconclusive: {told}; to detect one of {size(aim['diff'])}, try about {more.format(games=aim['games'])}"
