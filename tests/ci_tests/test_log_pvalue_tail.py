# SPDX-License-Identifier: BSD-3-Clause
"""The log p-value of a chi-square statistic stays accurate where the p-value underflows."""

import numpy as np
import pytest
from scipy import special

from skbn.ci_tests._base import chi_square_log_pvalue


@pytest.mark.parametrize("statistic", [1441.48, 3395.38, 20000.0])
def test_one_degree_of_freedom_matches_the_normal_tail(statistic):
    # chi2(1) upper tail = 2 * Phi(-sqrt(x)); scipy's log_ndtr is accurate far in the tail
    expected = special.log_ndtr(-np.sqrt(statistic)) + np.log(2.0)
    assert chi_square_log_pvalue(statistic, 1.0) == pytest.approx(expected, rel=1e-12)


def test_two_degrees_of_freedom_are_an_exponential_tail():
    # chi2(2) upper tail = exp(-x / 2) exactly
    for statistic in [10.0, 700.0, 1500.0, 1e5]:
        assert chi_square_log_pvalue(statistic, 2.0) == pytest.approx(-statistic / 2, rel=1e-12)


def test_larger_statistics_are_strictly_smaller_where_p_underflows():
    values = [chi_square_log_pvalue(s, 40.0) for s in (1500.0, 2000.0, 5000.0, 50000.0)]
    assert all(np.isfinite(values)) and values == sorted(values, reverse=True)
    assert len(set(values)) == 4


def test_batched_log_pvalues_equal_one_test_at_a_time():
    from skbn.ci_tests import get_ci_test
    from skbn.data import check_data
    from skbn.datasets import load_network

    data = check_data(load_network("alarm").sample(3000, random_state=0))
    for name in ["mi", "g_sq", "chi_square"]:
        bound = get_ci_test(name).bind(data)
        xs = [0, 3, 7, 11, 20, 36]
        for cond in ([], [5], [5, 9, 14]):
            batch = bound.log_pvalues(xs, 2, cond)
            one = [bound.log_pvalue(x, 2, np.array(cond, dtype=np.int64)) for x in xs]
            np.testing.assert_array_equal(batch, one)
