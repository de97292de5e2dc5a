# SPDX-License-Identifier: BSD-3-Clause
"""MDLPDiscretizer: Fayyad and Irani's cut points, against a loop-by-loop reference, hand
computations and scikit-learn's checks; the classifier's ``discretizer="mdlp"``."""

import math

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris
from sklearn.utils.estimator_checks import parametrize_with_checks

from skbn.classification import BayesianNetworkClassifier
from skbn.preprocessing import MDLPDiscretizer, mdlp_cut_points


def _entropy(labels):
    total = len(labels)
    counts = [labels.count(c) for c in set(labels)]
    return -sum(c / total * math.log2(c / total) for c in counts)


def _reference(values, labels):
    """The criterion written out with lists: every boundary tried, the MDL test, recursion."""
    pairs = sorted(zip(values, labels), key=lambda t: t[0])
    cuts = []

    def split(rows):
        n = len(rows)
        whole = [c for _, c in rows]
        best = None
        for i in range(1, n):
            if rows[i - 1][0] == rows[i][0]:
                continue
            left, right = whole[:i], whole[i:]
            e = (len(left) * _entropy(left) + len(right) * _entropy(right)) / n
            if best is None or e < best[0] - 1e-12:
                best = (e, i, left, right)
        if best is None:
            return
        e, i, left, right = best
        k, k1, k2 = len(set(whole)), len(set(left)), len(set(right))
        delta = math.log2(3**k - 2) - (
            k * _entropy(whole) - k1 * _entropy(left) - k2 * _entropy(right)
        )
        if _entropy(whole) - e <= (math.log2(n - 1) + delta) / n:
            return
        cuts.append((rows[i - 1][0] + rows[i][0]) / 2)
        split(rows[:i])
        split(rows[i:])

    split(pairs)
    return sorted(cuts)


def test_a_clean_threshold_is_found_by_hand():
    # N = 10, two pure halves: gain 1 bit; delta = log2(7) - 2 = 0.807; the bar is
    # (log2(9) + 0.807) / 10 = 0.398, so the cut at 4.5 is kept; pure halves split no further
    x = np.arange(10.0)
    y = (x >= 5).astype(int)
    np.testing.assert_array_equal(mdlp_cut_points(x, y, 2), [4.5])


def test_one_mislabelled_row_in_eight_is_not_worth_a_cut():
    # 8 rows, y = 0 0 0 1 0 1 1 1: the best cut is at 2.5 (3 pure rows | 1 0 1 1 1), weighted
    # entropy 5/8 * H(0.2) = 0.451, gain 0.549; delta = log2(7) - (2 - 0 - 2 * 0.722) =
    # 2.251; bar = (log2(7) + 2.251) / 8 = 0.632 > 0.549: rejected
    x = np.arange(8.0)
    y = np.array([0, 0, 0, 1, 0, 1, 1, 1])
    assert mdlp_cut_points(x, y, 2).size == 0


@pytest.mark.parametrize("seed", range(6))
def test_cut_points_equal_the_reference(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(30, 300))
    k = int(rng.integers(2, 5))
    x = np.round(rng.normal(size=n), 1)  # ties, as in real data
    # classes depend on x through thresholds, with noise
    y = np.clip(np.digitize(x + rng.normal(scale=0.4, size=n), [-0.5, 0.5, 1.2]), 0, k - 1)
    np.testing.assert_allclose(mdlp_cut_points(x, y, k), _reference(x.tolist(), y.tolist()))


def test_noise_gets_one_bin_and_missing_stays_missing():
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.normal(size=600), np.r_[np.zeros(300), np.ones(300)]])
    y = np.r_[np.zeros(300), np.ones(300)].astype(int)
    X[:5, 1] = np.nan
    binner = MDLPDiscretizer().fit(X, y)
    assert binner.n_bins_.tolist() == [1, 2]
    out = binner.transform(X)
    assert np.isnan(out[:5, 1]).all() and set(out[5:, 1]) == {0.0, 1.0}
    assert set(out[:, 0]) == {0.0}


def test_pandas_output_keeps_the_names():
    X, y = load_iris(return_X_y=True, as_frame=True)
    out = MDLPDiscretizer().set_output(transform="pandas").fit_transform(X, y)
    assert list(out.columns) == list(X.columns)


@parametrize_with_checks([MDLPDiscretizer()])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_classifier_mdlp_is_binning_first():
    # discretizer="mdlp" inside the classifier equals binning the columns beforehand
    X, y = load_iris(return_X_y=True, as_frame=True)
    inside = BayesianNetworkClassifier("tan", discretizer="mdlp").fit(X, y)
    codes = MDLPDiscretizer().fit(X, y).transform(X).astype(int)
    outside = BayesianNetworkClassifier("tan").fit(pd.DataFrame(codes, columns=X.columns), y)
    np.testing.assert_allclose(
        inside.predict_proba(X), outside.predict_proba(pd.DataFrame(codes, columns=X.columns))
    )
    assert isinstance(inside.discretizer_, MDLPDiscretizer)
