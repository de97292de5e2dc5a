# SPDX-License-Identifier: BSD-3-Clause
"""KCI against causal-learn's stored outputs, and its own properties."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from skbn.ci_tests import KCI, get_ci_test
from tests.data.make_kci_oracle import case_data

ORACLE = json.loads((Path(__file__).resolve().parents[1] / "data" / "kci_oracle.json").read_text())[
    "cases"
]


def _run(case, **params):
    data = case_data(case["seed"], case["n"], case["kind"], case["k"])
    assert data.sum() == pytest.approx(case["data_sum"], rel=1e-12)  # same generator stream
    test = KCI(kernel_width=case["width"], **params).bind(data)
    return test.test(0, 1, list(range(2, 2 + case["k"])))


def test_oracle_has_the_promised_cases():
    assert len(ORACLE) >= 200
    assert {c["k"] for c in ORACLE} == {0, 1, 2, 3}


# every eighth case in the quick loop (-m "not slow"), all of them in CI
@pytest.mark.parametrize(
    "case",
    [pytest.param(c, marks=() if i % 8 == 0 else pytest.mark.slow) for i, c in enumerate(ORACLE)],
    ids=lambda c: f"s{c['seed']}",
)
def test_exact_route_equals_causal_learn(case):
    result = _run(case, low_rank_tol=0.0)
    assert result.statistic == pytest.approx(case["statistic"], rel=1e-6, abs=1e-9)
    assert abs(result.pvalue - case["pvalue"]) < 1e-6


@pytest.mark.parametrize("case", ORACLE[::7], ids=lambda c: f"s{c['seed']}")
def test_default_low_rank_route_is_close_to_exact(case):
    # on all 240 stored cases the largest difference is 3.8e-7 (docs/nonlinear.md)
    result = _run(case)
    assert abs(result.pvalue - case["pvalue"]) < 1e-6


def _nonlinear(n, seed=0):
    rng = np.random.default_rng(seed)
    z = rng.normal(size=n)
    x = np.sin(2 * z) + 0.3 * rng.normal(size=n)
    y = z**2 + 0.3 * rng.normal(size=n)
    return np.column_stack([x, y, z])


def test_sees_what_fisher_z_misses():
    rng = np.random.default_rng(0)
    half = rng.normal(size=250)
    z = np.concatenate([half, -half])  # a symmetric sample: corr(z, z^2) is exactly 0
    y = z**2 + 0.3 * rng.normal(size=500)
    x = np.sin(2 * z) + 0.3 * rng.normal(size=500)
    data = np.column_stack([x, y, z])
    kci = KCI().bind(data)
    fisher = get_ci_test("fisher_z", "gaussian").bind(data)
    # y = z^2 + noise is (nearly) uncorrelated with z but strongly dependent on it
    assert fisher.test(1, 2).pvalue > 0.05
    assert kci.test(1, 2).pvalue < 1e-6
    assert kci.test(0, 1, [2]).pvalue > 0.05


def test_symmetric_in_x_and_y():
    kci = KCI().bind(_nonlinear(300))
    a, b = kci.test(0, 1, [2]), kci.test(1, 0, [2])
    assert a.statistic == b.statistic and a.pvalue == b.pvalue


def test_cached_factors_do_not_change_results():
    data = _nonlinear(300)
    warm = KCI().bind(data)
    warm.test(0, 2)
    warm.test(1, 2)
    first = warm.test(0, 1, [2])
    cold = KCI().bind(data).test(0, 1, [2])
    assert first == cold


def test_log_pvalue_is_finite_where_pvalue_underflows():
    data = _nonlinear(2000)
    kci = KCI().bind(data)
    assert kci.test(1, 2).pvalue == 0.0 or kci.test(1, 2).pvalue < 1e-200
    log_p = kci.log_pvalue(1, 2, np.zeros(0, dtype=np.int64))
    assert np.isfinite(log_p) and log_p < -460


def test_spectral_null_is_seeded_and_agrees_with_gamma():
    data = _nonlinear(300, seed=3)
    one = KCI(null="spectral", random_state=0).bind(data).test(0, 1, [2])
    two = KCI(null="spectral", random_state=0).bind(data).test(0, 1, [2])
    gamma = KCI().bind(data).test(0, 1, [2])
    assert one == two
    assert abs(one.pvalue - gamma.pvalue) < 0.05
    marginal = KCI(null="spectral", random_state=0).bind(data).test(0, 2)
    assert marginal.pvalue < 0.01


@pytest.mark.slow
def test_type_one_error_near_alpha():
    rejections = 0
    for seed in range(60):
        rng = np.random.default_rng(100 + seed)
        z = rng.normal(size=200)
        data = np.column_stack(
            [np.tanh(z) + 0.5 * rng.normal(size=200), z**2 + 0.5 * rng.normal(size=200), z]
        )
        rejections += KCI().bind(data).test(0, 1, [2]).pvalue < 0.05
    assert rejections <= 9  # 5% of 60 is 3; 9 or more has probability < 0.3%


def test_constant_column_gives_no_evidence():
    rng = np.random.default_rng(0)
    data = np.column_stack([rng.normal(size=100), np.ones(100), rng.normal(size=100)])
    assert KCI().bind(data).test(0, 1).pvalue == 1.0


def test_registered_by_name():
    assert isinstance(get_ci_test("kci", "gaussian"), KCI)


@pytest.mark.parametrize(
    "params, match",
    [
        ({"kernel_width": -1.0}, "kernel_width"),
        ({"kernel_width": "silverman"}, "kernel_width"),
        ({"null": "permutation"}, "null"),
        ({"low_rank_tol": 2.0}, "low_rank_tol"),
    ],
)
def test_bad_parameters_are_named(params, match):
    with pytest.raises(ValueError, match=match):
        KCI(**params).bind(np.random.default_rng(0).normal(size=(50, 3)))
