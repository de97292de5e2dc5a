# SPDX-License-Identifier: BSD-3-Clause
"""The conditional-Gaussian likelihood-ratio test against independent computations."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from skbn.ci_tests import CGMutualInformation, get_ci_test


@pytest.fixture(scope="module")
def frame():
    rng = np.random.default_rng(3)
    n = 600
    g = rng.integers(0, 3, n)
    h = (rng.random(n) < 0.3 + 0.3 * (g == 1)).astype(int)
    x = rng.normal(size=n) + g
    y = 0.5 * x + 2.0 * h + rng.normal(size=n)
    z = 0.8 * y + rng.normal(size=n)
    return pd.DataFrame({"g": g.astype(str), "h": h.astype(str), "x": x, "y": y, "z": z})


def _gauss_ll(y, X):
    design = np.column_stack([np.ones(len(y)), X])
    beta, *_ = np.linalg.lstsq(design, y, rcond=None)
    resid = y - design @ beta
    return -0.5 * len(y) * (math.log(2 * math.pi * (resid @ resid) / len(y)) + 1)


def _joint_ll(C):
    """Maximised log-likelihood of a joint Gaussian sample (MLE covariance)."""
    n, k = C.shape
    if k == 0:
        return 0.0
    cov = np.atleast_2d(np.cov(C, rowvar=False, bias=True))
    return -0.5 * n * (np.linalg.slogdet(cov)[1] + k * math.log(2 * math.pi) + k)


@pytest.mark.slow
def test_two_continuous_variables_give_the_partial_correlation_statistic(frame):
    n = len(frame)
    result = CGMutualInformation().bind(frame).test("x", "z", ["y"])
    r = pd.DataFrame(np.linalg.inv(frame[["x", "z", "y"]].cov().to_numpy()))
    partial = -r.iloc[0, 1] / math.sqrt(r.iloc[0, 0] * r.iloc[1, 1])
    assert result.statistic == pytest.approx(-n * math.log(1 - partial**2), rel=1e-8)
    assert result.dof == 1
    assert result.pvalue == pytest.approx(stats.chi2.sf(result.statistic, 1))


def test_discrete_and_continuous_compare_a_regression_per_level(frame):
    result = CGMutualInformation().bind(frame).test("h", "z", ["g", "y"])
    expected = 0.0
    for level in frame["g"].unique():
        part = frame[frame["g"] == level]
        alt = sum(
            _gauss_ll(sub["z"].to_numpy(), sub[["y"]].to_numpy()) for _, sub in part.groupby("h")
        )
        expected += 2 * (alt - _gauss_ll(part["z"].to_numpy(), part[["y"]].to_numpy()))
    assert result.statistic == pytest.approx(expected, rel=1e-8)
    assert result.dof == 3 * (2 - 1) * (1 + 2)  # per level of g: (levels of h - 1)(k + 2)


def test_two_discrete_variables_without_continuous_conditioning_is_g_square(frame):
    table = pd.crosstab(frame["g"], frame["h"]).to_numpy()
    g2, pvalue, dof, _ = stats.chi2_contingency(table, correction=False, lambda_="log-likelihood")
    result = CGMutualInformation().bind(frame).test("g", "h")
    assert result.statistic == pytest.approx(g2, rel=1e-10)
    assert result.dof == dof
    assert result.pvalue == pytest.approx(pvalue, rel=1e-8)


def test_two_discrete_variables_given_continuous_ones_follow_the_chain_rule(frame):
    result = CGMutualInformation().bind(frame).test("g", "h", ["x", "y"])
    C = ["x", "y"]

    def joint(columns):
        n = len(frame)
        # multinomial part plus the Gaussian of C in every cell of the discrete columns
        if not columns:
            return _joint_ll(frame[C].to_numpy())
        total = 0.0
        for _, sub in frame.groupby(columns):
            total += len(sub) * math.log(len(sub) / n) + _joint_ll(sub[C].to_numpy())
        return total

    expected = 2 * (joint(["g", "h"]) + joint([]) - joint(["g"]) - joint(["h"]))
    assert result.statistic == pytest.approx(expected, rel=1e-8)
    k = 2
    assert result.dof == (3 - 1) * (2 - 1) * (1 + k * (k + 3) / 2)


@pytest.mark.parametrize("pair", [("a", "b"), ("a", "u"), ("u", "v")])
def test_p_values_are_calibrated_under_independence(pair):
    rng = np.random.default_rng(11)
    rejections = 0
    trials = 200
    for _ in range(trials):
        n = 300
        c = rng.integers(0, 2, n)
        w = rng.normal(size=n) + c
        X = pd.DataFrame(
            {
                # a, u depend on c and w only; so do b, v: independent given (c, w)
                "a": np.where(rng.random(n) < 0.3 + 0.4 * c, "p", "q"),
                "b": rng.integers(0, 3, n).astype(str),
                "u": 0.7 * w + rng.normal(size=n),
                "v": -0.5 * w + c + rng.normal(size=n),
                "c": c.astype(str),
                "w": w,
            }
        )
        result = CGMutualInformation().bind(X).test(*pair, ["c", "w"])
        rejections += result.pvalue < 0.05
    # 200 tests at level 0.05: 10 expected; a binomial 99.9% range is about 2 to 22
    assert 2 <= rejections <= 22


def test_a_stratum_without_enough_rows_drops_out():
    rng = np.random.default_rng(5)
    n = 200
    g = np.array(["a"] * (n - 2) + ["b"] * 2)
    X = pd.DataFrame({"g": g, "x": rng.normal(size=n), "y": rng.normal(size=n)})
    both = CGMutualInformation().bind(X).test("x", "y", ["g"])
    alone = CGMutualInformation().bind(X[X["g"] == "a"].drop(columns="g")).test("x", "y")
    assert both.statistic == pytest.approx(alone.statistic, rel=1e-10)
    assert both.dof == 1


def test_registry_names(frame):
    assert isinstance(get_ci_test("mi-cg", "mixed"), CGMutualInformation)
    assert isinstance(get_ci_test(None, "mixed"), CGMutualInformation)
    with pytest.raises(ValueError, match="not defined for mixed"):
        get_ci_test("fisher_z", "mixed")
