# SPDX-License-Identifier: BSD-3-Clause
"""RCoT and RCIT against causal-learn's stored outputs, and their own properties."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from skbn.ci_tests import KCI, RCIT, FisherZ, RCoT, get_ci_test
from skbn.ci_tests._chi2_sums import weighted_chi2_tail
from skbn.ci_tests._random_features import (
    _standardise,
    fourier_features,
    median_width,
    rcot_statistic,
)
from skbn.datasets import make_additive_noise, make_erdos_renyi_dag
from skbn.learners import MMHC, PCStable
from tests.data.make_rcit_oracle import case_data

ORACLE = json.loads((Path(__file__).resolve().parents[1] / "data" / "rcit_oracle.json").read_text())
NULLS = {"lpd4": "lpb4", "hbe": "hbe", "gamma": "gamma"}


def test_oracle_covers_every_form_and_null():
    cases = ORACLE["cases"]
    assert len(cases) >= 120 and len(ORACLE["tails"]) >= 50
    assert {c["approx"] for c in cases} == set(NULLS)
    assert {c["k"] for c in cases} == {0, 1, 2} and {c["rcit"] for c in cases} == {False, True}


@pytest.mark.parametrize("tail", ORACLE["tails"], ids=lambda t: f"q{t['q']:.3g}")
def test_tails_equal_momentchi2(tail):
    for method in ("lpb4", "hbe", "gamma"):
        p, log_p = weighted_chi2_tail(tail["weights"], tail["q"], method)
        assert p == pytest.approx(tail[method], abs=1e-10)
        assert log_p == pytest.approx(math.log(p)) if p > 0 else log_p < -700


def _causal_learn_features(case):
    """The features causal-learn drew after ``np.random.seed(seed)``, in its order."""
    data = case_data(case["seed"], case["n"], case["kind"], case["k"])
    assert data.sum() == pytest.approx(case["data_sum"], rel=1e-12)  # same generator stream
    stream = np.random.RandomState(case["seed"])
    x, y, z = (_standardise(part) for part in (data[:, :1], data[:, 1:2], data[:, 2:]))
    if case["rcit"]:
        y = np.column_stack([y, z])

    def draw(points, count):
        weights = stream.normal(size=(count, points.shape[1])) / median_width(points)
        offsets = 2 * np.pi * stream.uniform(size=(count, 1))[:, 0]
        return fourier_features(points, weights, offsets)

    fz = draw(z, 100) if case["k"] else None
    return draw(x, 5), draw(y, 5), fz


@pytest.mark.parametrize("case", ORACLE["cases"], ids=lambda c: f"s{c['seed']}")
def test_statistic_and_pvalue_equal_causal_learn_on_the_same_features(case):
    fx, fy, fz = _causal_learn_features(case)
    statistic, pvalue, _ = rcot_statistic(fx, fy, fz, NULLS[case["approx"]])
    if case["k"] == 0:
        assert statistic == pytest.approx(case["statistic"], rel=1e-10)
        assert pvalue == pytest.approx(case["pvalue"], abs=1e-10)
    else:
        # the conditional statistic amplifies rounding by about 1e11 (the near-singular
        # covariance of the conditioning set's features, RCoT's docstring): largest
        # differences on these cases 0.5% in the statistic, 1.1e-3 in the p-value
        assert statistic == pytest.approx(case["statistic"], rel=1e-2)
        assert pvalue == pytest.approx(case["pvalue"], abs=2e-3)


def test_the_conditional_statistic_is_as_sensitive_to_rounding_as_stated():
    case = next(c for c in ORACLE["cases"] if c["k"] == 1 and c["n"] == 1000)
    fx, fy, fz = _causal_learn_features(case)
    base = rcot_statistic(fx, fy, fz)[0]
    nudged = rcot_statistic(fx, fy, fz * (1 + 1e-16 * np.sign(fz)))[0]
    assert 1e-9 < abs(nudged - base) / base < 1e-3


def _nonlinear(n, seed):
    rng = np.random.default_rng(seed)
    z = rng.normal(size=n)
    x = np.sin(2 * z) + 0.3 * rng.normal(size=n)
    y = z**2 + 0.3 * rng.normal(size=n)
    return np.column_stack([x, y, z])


@pytest.mark.parametrize("test_class", [RCoT, RCIT])
def test_sees_what_fisher_z_misses_and_the_independence_given_z(test_class):
    data = _nonlinear(500, 1)  # y = z^2 + e: uncorrelated with z in this sample
    assert FisherZ().bind(data).test(1, 2).pvalue > 0.5
    bound = test_class(random_state=1).bind(data)
    assert bound.test(1, 2).pvalue < 1e-6
    assert bound.log_pvalue(1, 2, np.zeros(0, np.int64)) < math.log(1e-6)
    assert bound.test(0, 1, [2]).pvalue > 0.05


@pytest.mark.slow
@pytest.mark.parametrize("test_class", [RCoT, RCIT])
def test_type_one_error_near_alpha(test_class):
    # 400 null cases (x and y nonlinear in z, independent given it): at alpha 0.05 the
    # rejections stay within the 99.9% binomial band around 20
    rejections = 0
    for seed in range(400):
        data = _nonlinear(300, 1000 + seed)
        rejections += test_class(random_state=seed).bind(data).test(0, 1, [2]).pvalue < 0.05
    assert 7 <= rejections <= 36


def test_seeded_and_independent_of_test_order():
    data = _nonlinear(500, 3)
    first = RCoT(random_state=5).bind(data)
    second = RCoT(random_state=5).bind(data)
    a = first.test(0, 1, [2]).pvalue
    second.test(1, 2)  # other tests first draw other features
    second.test(0, 2)
    assert second.test(0, 1, [2]).pvalue == a
    assert first.test(1, 0, [2]).pvalue == a  # symmetric
    assert RCoT(random_state=6).bind(data).test(0, 1, [2]).pvalue != a


def test_constant_column_gives_no_evidence():
    data = _nonlinear(300, 4)
    data[:, 1] = 2.0
    assert RCoT(random_state=0).bind(data).test(0, 1, [2]).pvalue == 1.0


def test_registered_and_taken_by_constraint_based_learners():
    assert isinstance(get_ci_test("rcot", "gaussian"), RCoT)
    assert isinstance(get_ci_test("rcit", "gaussian"), RCIT)
    dag = make_erdos_renyi_dag(6, 6, random_state=2)
    X = make_additive_noise(dag, mechanism="mixed", random_state=2).sample(600, random_state=2)
    for learner in (PCStable(ci_test=RCoT(random_state=0)), MMHC(ci_test="rcot")):
        graph = learner.fit(X).graph_
        assert set(graph.nodes) == set(X.columns)


def test_agrees_with_kci_where_the_evidence_is_clear():
    data = _nonlinear(800, 5)
    for cond in ([], [2]):
        kci = KCI().bind(data).test(0, 1, cond).pvalue
        rcot = RCoT(random_state=0).bind(data).test(0, 1, cond).pvalue
        assert (kci < 0.01) == (rcot < 0.01)


@pytest.mark.parametrize(
    "params, match",
    [
        ({"n_features": 0}, "n_features"),
        ({"null": "chi2"}, "null"),
        ({"n_features_xy": 0}, "n_features_xy"),
    ],
)
def test_bad_parameters_are_named(params, match):
    with pytest.raises(ValueError, match=match):
        RCoT(**params).bind(_nonlinear(50, 0))
