"""interpreter.stats against textbook values."""

import math
import random

import pytest
from meeple.tools import stats


def test_mean_and_stdev():
    xs = [2, 4, 4, 4, 5, 5, 7, 9]
    assert stats.mean(xs) == 5
    assert stats.stdev(xs) == pytest.approx(2.13809, abs=1e-5)  # sample (n - 1) standard deviation
    assert stats.stdev([3]) == 0
    assert math.isnan(stats.mean([])) and math.isnan(stats.stdev([]))


@pytest.mark.parametrize("k, n, lo, hi", [
    (50, 100, 0.4038, 0.5962),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (1, 20, 0.0089, 0.2361),
])
def test_wilson_interval(k, n, lo, hi):
    got = stats.wilson(k, n)
    assert got == pytest.approx((lo, hi), abs=1e-4)
    assert 0 <= got[0] <= k / n <= got[1] <= 1


def test_wilson_without_games_is_uninformative():
    assert stats.wilson(0, 0) == (0.0, 1.0)


def test_two_proportion_z():
    z, p = stats.two_proportion_z(60, 100, 40, 100)
    assert z == pytest.approx(2.8284, abs=1e-4)
    assert p == pytest.approx(0.00468, abs=1e-5)
    assert stats.two_proportion_z(50, 100, 50, 100) == (0.0, 1.0)
    assert stats.two_proportion_z(0, 10, 0, 10) == (0.0, 1.0)  # no variance: no evidence


@pytest.mark.parametrize("t, df, p", [
    (2.228139, 10, 0.05),    # the classic table values
    (12.7062, 1, 0.05),
    (2.0, 30, 0.05462),
    (1.959964, math.inf, 0.05),
    (0.0, 5, 1.0),
])
def test_student_t_p_values(t, df, p):
    assert stats.t_p(t, df) == pytest.approx(p, abs=1e-4)
    assert stats.t_p(-t, df) == pytest.approx(p, abs=1e-4)


def test_incomplete_beta_matches_the_binomial_sum():
    # I_0.4(2, 3) = P(Binomial(4, 0.4) >= 2)
    assert stats.betainc(2, 3, 0.4) == pytest.approx(0.5248, abs=1e-10)
    assert stats.betainc(3, 2, 0.6) == pytest.approx(1 - 0.5248, abs=1e-10)


def test_welch_t():
    t, df, p = stats.welch_t(20.0, 2.0, 10, 22.0, 4.0, 12)
    assert t == pytest.approx(-1.5191, abs=1e-4)
    assert df == pytest.approx(16.748, abs=1e-3)
    assert 0.14 < p < 0.16
    assert stats.welch_t(5, 0, 10, 5, 0, 10)[2] == 1.0
    assert stats.welch_t(5, 0, 10, 6, 0, 10)[2] == 0.0
    assert stats.welch_t(5, 1, 1, 6, 1, 10)[2] == 1.0  # too few samples to tell
    same = [1, 2, 3, 4, 5]
    assert stats.welch_samples(same, same)[2] == pytest.approx(1.0)
    assert stats.significant(0.01) and not stats.significant(0.2)


def test_numbers_skips_non_numbers():
    assert stats.numbers([1, 2.5, None, "x", True]) == [1.0, 2.5]


def test_holm_adjusts_in_rank_order_and_never_decreases():
    # Sorted 0.01, 0.02, 0.04 over 3 tests: 3*0.01, max(2*0.02, .03), max(1*0.04, .04)
    assert stats.holm([0.04, 0.01, 0.02]) == pytest.approx([0.04, 0.03, 0.04])
    assert stats.holm([0.5, 0.9]) == [1.0, 1.0]  # capped at 1
    adj = stats.holm([float("nan"), 0.01])  # no data is not a test
    assert math.isnan(adj[0]) and adj[1] == pytest.approx(0.01)


def test_holm_keeps_false_alarms_rare_among_many_null_figures():
    """45 figures that truly did not change: uncorrected, most runs flag one; after Holm, few do."""
    rng = random.Random(7)
    raw = corrected = 0
    for _ in range(400):
        ps = [rng.random() for _ in range(45)]  # p-values of true null hypotheses are uniform
        raw += any(p < 0.05 for p in ps)
        corrected += any(p < 0.05 for p in stats.holm(ps))
    assert raw / 400 > 0.85 and corrected / 400 <= 0.08


def test_the_smallest_detectable_difference_is_2_8_standard_errors_for_one_test():
    assert stats.detectable(1.0) == pytest.approx(1.959964 + 0.841621, abs=1e-5)
    # Under Holm's correction over 50 figures, a lone real difference must pass 0.05 / 50.
    assert stats.detectable(1.0, 50) == pytest.approx(3.290527 + 0.841621, abs=1e-5)
    assert math.isnan(stats.detectable(0.0)) and math.isnan(stats.detectable(float("nan")))
    assert stats.proportion_diff_se(30, 100, 30, 100) == pytest.approx(math.sqrt(0.3 * 0.7 * 0.02))
    assert stats.proportion_diff_se(0, 10, 0, 10) > 0  # no win seen is not a rate known to be 0
    assert stats.mean_diff_se([1.0, 3.0], [2.0, 2.0, 2.0]) == pytest.approx(1.0)


def test_a_difference_of_the_detectable_size_is_found_about_80_percent_of_the_time():
    rng = random.Random(3)
    n, p = 200, 0.3
    least = stats.detectable(stats.proportion_diff_se(p * n, n, p * n, n))
    found = 0
    for _ in range(1000):
        a = sum(rng.random() < p for _ in range(n))
        b = sum(rng.random() < p + least for _ in range(n))
        found += stats.two_proportion_z(b, n, a, n)[1] < 0.05
    assert 0.75 <= found / 1000 <= 0.85


def test_how_many_games_a_smaller_difference_needs():
    assert [stats.round_below(x) for x in (0.156, 3.1, 0.02, 7.0, 1.0)] == [0.1, 2.5, 0.02, 5.0, 1.0]
    assert stats.games_to_detect(40, 0.3, 0.1) == 360  # the standard error shrinks as 1/sqrt(games)
    assert stats.games_to_detect(200, 1.0, 0.3) == 2300  # 2223, rounded up to two digits
    assert stats.to_detect(40, 0.3) == {"diff": 0.1, "games": 360}
    assert stats.to_detect(40, 0.9, most=0.1) == {"diff": 0.1, "games": 3300}  # 3240, at most 10 points


def test_one_percentage_point_is_singular():
    # Found by QA: "to detect one of 1 percentage points".
    from meeple.tools.stats import inconclusive

    row = {"what": "P2 win rate", "detectable": 0.0311, "to_detect": {"diff": 0.01, "games": 970}}
    assert inconclusive(row, "rounds").endswith("no difference of 3.11 percentage points or more; "
                                                "to detect one of 1 percentage point, try about -n 970")


def test_a_rate_cannot_be_said_to_hide_a_difference_larger_than_it_can_move():
    # Found by QA: "no difference of 87.5 percentage points or more" from a base rate of 25%, where the
    # most it can move is 75 points (to 100%): the games can show no difference of any size.
    from meeple.tools.stats import inconclusive

    row = {"what": "P2 win rate", "base": 0.25, "detectable": 0.875, "to_detect": {"diff": 0.1, "games": 500}}
    assert inconclusive(row, "rounds").startswith("inconclusive: too few games to show a difference of any size")
    row = {**row, "detectable": 0.5}
    assert "no difference of 50 percentage points or more" in inconclusive(row, "rounds")
