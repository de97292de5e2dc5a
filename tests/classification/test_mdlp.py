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


@pytest.mark.parametrize("lo", [1.0, 1.7e308, -1.7e308, 5e-324, 0.0])
def test_cut_between_adjacent_doubles_separates_them(lo):
    # the midpoint of two adjacent doubles rounds to the lower one, which once put both
    # classes in one bin; near the largest double it overflowed to inf
    hi = np.nextafter(lo, np.inf)
    x = np.array([lo] * 30 + [hi] * 30)
    y = np.repeat([0, 1], 30)
    cuts = mdlp_cut_points(x, y, 2)
    assert len(cuts) == 1 and lo < cuts[0] <= hi
    binner = MDLPDiscretizer().fit(x[:, None], y)
    assert binner.transform(x[:, None]).ravel().tolist() == [0.0] * 30 + [1.0] * 30


def test_split_found_far_apart_at_the_largest_doubles():
    x = np.array([1.7e308] * 30 + [1.79e308] * 30)
    cuts = mdlp_cut_points(x, np.repeat([0, 1], 30), 2)
    assert np.isfinite(cuts).all() and 1.7e308 < cuts[0] <= 1.79e308


@pytest.mark.slow
def test_many_classes_cut_without_a_rows_by_classes_table():
    # 40,000 classes (a one-hot table of the rows would be 10 GB): each class's values lie
    # apart from the others, so MDLP cuts between most of them
    rng = np.random.default_rng(0)
    y = rng.integers(0, 40_000, 30_000)
    x = y + 0.01 * rng.normal(size=y.size)
    cuts = mdlp_cut_points(x, y, 40_000)
    assert len(cuts) > 10_000
    assert np.all(np.diff(cuts) > 0)


def test_gain_matches_the_entropies_of_a_hand_counted_split():
    # class 0 at x <= 1.2, class 1 from 1.5 on: the pure split, halfway between 1.2 and 1.5,
    # has gain E(S) = 0.991 bits (32 zeros, 40 ones), above the MDL threshold of 72 rows,
    # and either side is pure, so it is the only cut
    x = np.array([0.0, 0.5, 1.0, 1.2, 1.5, 3.0, 3.5, 4.0, 4.5] * 8)
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1, 1] * 8)
    assert mdlp_cut_points(x, y, 2).tolist() == [1.35]
