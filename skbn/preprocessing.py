# SPDX-License-Identifier: BSD-3-Clause
"""Discretisation of continuous features.

:func:`bin_continuous` cuts every float column of a frame into quantile or equal-width bins
named ``b1`` (lowest) to ``bN``, as ``skbn learn --bins`` does, so that data of any kind
becomes discrete (BIF, NET and XDSL files hold discrete networks only).

:class:`MDLPDiscretizer` cuts each continuous column where the class changes most, by
Fayyad and Irani's entropy criterion with its minimum-description-length stopping rule: the
number of bins is chosen per column from the data, and a column that says nothing about the
class gets one bin. scikit-learn's :class:`~sklearn.preprocessing.KBinsDiscretizer` cuts
without looking at the class.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, column_or_1d, validate_data

__all__ = ["MDLPDiscretizer", "bin_continuous", "mdlp_cut_points"]


def bin_continuous(X, n_bins: int = 5, strategy: str = "quantile"):
    """``X`` with every float column cut into ``n_bins`` bins, states ``b1`` lowest to ``bN``.

    Quantile bins hold about equal counts (fewer bins where values repeat, as
    :func:`pandas.qcut` with ``duplicates="drop"``); uniform bins have equal widths
    (:func:`pandas.cut`). Missing values stay missing; columns that are not floats (integers,
    text, categories) are returned as they are. For a class-aware choice of cuts use
    :class:`MDLPDiscretizer`; for bins fitted on training rows and applied to new ones, use
    scikit-learn's :class:`~sklearn.preprocessing.KBinsDiscretizer` in a pipeline.

    Parameters
    ----------
    X : pandas.DataFrame
    n_bins : int, default=5
        At least 2.
    strategy : {"quantile", "uniform"}, default="quantile"

    Returns
    -------
    pandas.DataFrame
        A copy of ``X``; each float column is categorical with states ``b1`` to ``bK``,
        ``K <= n_bins``.

    Examples
    --------
    >>> import pandas as pd
    >>> from skbn.preprocessing import bin_continuous
    >>> X = pd.DataFrame({"dose": [0.1, 0.4, 2.0, 3.5, None], "sex": ["f", "m", "f", "m", "f"]})
    >>> bin_continuous(X, 2)["dose"].tolist()
    ['b1', 'b1', 'b2', 'b2', nan]
    """
    import pandas as pd

    if not isinstance(X, pd.DataFrame):
        raise TypeError(f"X must be a pandas DataFrame, got {type(X).__name__}.")
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < 2:
        raise ValueError(f"n_bins={n_bins!r}: cut into at least 2 bins (an integer).")
    if strategy not in ("quantile", "uniform"):
        raise ValueError(f"strategy={strategy!r}: choose 'quantile' or 'uniform'.")
    X = X.copy()
    for name in X.columns:
        column = X[name]
        if not pd.api.types.is_float_dtype(column):
            continue
        if strategy == "quantile":
            codes = pd.qcut(column, q=n_bins, labels=False, duplicates="drop")
        else:
            codes = pd.cut(column, bins=n_bins, labels=False)
        states = [f"b{k + 1}" for k in range(int(codes.max()) + 1 if codes.notna().any() else 1)]
        X[name] = pd.Categorical.from_codes(codes.fillna(-1).astype(int), categories=states)
    return X


def _entropy(counts: np.ndarray) -> np.ndarray:
    """Class entropy in bits of each row of ``counts`` (rows of class counts)."""
    totals = counts.sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = counts / totals
        terms = np.where(counts > 0, p * np.log2(np.where(counts > 0, p, 1.0)), 0.0)
    return -terms.sum(axis=-1)


def _xlog2x(x: np.ndarray) -> np.ndarray:
    """``x log2 x``, 0 at 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x > 0, x * np.log2(np.where(x > 0, x, 1.0)), 0.0)


def _class_rank(codes: np.ndarray) -> np.ndarray:
    """How many earlier rows hold each row's class (0 for its first)."""
    order = np.argsort(codes, kind="stable")
    ranked = codes[order]
    first = np.ones(len(codes), dtype=bool)
    first[1:] = ranked[1:] != ranked[:-1]
    starts = np.flatnonzero(first)
    rank = np.empty(len(codes), dtype=np.float64)
    rank[order] = np.arange(len(codes)) - np.repeat(starts, np.diff(np.append(starts, len(codes))))
    return rank


def _between(lo: float, hi: float) -> float:
    """Return a cut ``lo < c <= hi``: the midpoint, or ``hi`` where it rounds to ``lo``.

    Values equal to the cut fall in the upper bin (``searchsorted(side="right")``), so
    ``hi`` is the cut between two adjacent doubles; halving first keeps the midpoint of two
    values near the largest double finite.
    """
    mid = lo / 2.0 + hi / 2.0
    return float(mid) if lo < mid <= hi else float(hi)


def mdlp_cut_points(values: np.ndarray, classes: np.ndarray, n_classes: int) -> np.ndarray:
    """Fayyad-Irani cut points of one column (finite ``values``, class codes ``classes``).

    A segment of ``N`` rows is split at the boundary between distinct values that minimises
    the weighted class entropy of its two sides, if the information gain exceeds
    ``(log2(N - 1) + log2(3**k - 2) - k*E(S) + k1*E(S1) + k2*E(S2)) / N`` (``k`` the classes
    present in the segment, ``k1``, ``k2`` in each side, ``E`` the entropies); each side is
    then split the same way. A cut lies halfway between the two values it separates.

    Parameters
    ----------
    values : ndarray of shape (n,)
    classes : ndarray of int of shape (n,)
        Codes ``0 .. n_classes - 1``.
    n_classes : int

    Returns
    -------
    ndarray
        The cut points, increasing.

    Examples
    --------
    >>> import numpy as np
    >>> from skbn.preprocessing import mdlp_cut_points
    >>> x = np.arange(40.0)
    >>> y = (x >= 20).astype(int)
    >>> mdlp_cut_points(x, y, 2)
    array([19.5])
    """
    order = np.argsort(values, kind="stable")
    v = np.asarray(values, dtype=np.float64)[order]
    y = np.asarray(classes, dtype=np.int64)[order]
    cuts: list[float] = []
    stack = [(0, len(v))]
    while stack:
        lo, hi = stack.pop()
        n = hi - lo
        if n < 2:
            continue
        # a cut may follow row i (of the segment) only where the value changes
        boundaries = np.flatnonzero(v[lo : hi - 1] < v[lo + 1 : hi])
        if len(boundaries) == 0:
            continue
        segment = y[lo:hi]
        # m * E(side) = g(m) - sum_c g(m_c) with g(x) = x log2 x: each row moved to the left
        # side raises its class's count by one, so both sides' sums follow from running
        # counts, in memory linear in the rows whatever the number of classes
        before = _class_rank(segment)
        after = _class_rank(segment[::-1])[::-1]
        left_sum = np.cumsum(_xlog2x(before + 1.0) - _xlog2x(before))
        right_sum = np.cumsum((_xlog2x(after + 1.0) - _xlog2x(after))[::-1])[::-1]
        n_left = (boundaries + 1).astype(np.float64)
        weighted = (
            _xlog2x(n_left) - left_sum[boundaries] + _xlog2x(n - n_left) - right_sum[boundaries + 1]
        ) / n
        best = int(np.argmin(weighted))
        split = lo + int(boundaries[best]) + 1
        total = np.bincount(segment)
        left = np.bincount(y[lo:split], minlength=len(total))
        right = total - left
        whole = float(_entropy(total))
        e1, e2 = float(_entropy(left)), float(_entropy(right))
        gain = whole - ((split - lo) * e1 + (hi - split) * e2) / n
        k = np.count_nonzero(total)
        k1 = np.count_nonzero(left)
        k2 = np.count_nonzero(right)
        # log2(3**k - 2) without forming 3**k (past 646 classes it overflows)
        delta = k * np.log2(3.0) + np.log1p(-2.0 * 3.0**-k) / np.log(2.0)
        delta -= k * whole - k1 * e1 - k2 * e2
        if gain <= (np.log2(n - 1) + delta) / n:
            continue
        cuts.append(_between(v[split - 1], v[split]))
        stack.extend([(lo, split), (split, hi)])
    return np.array(sorted(cuts))


class MDLPDiscretizer(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    """Bin continuous features where the class changes (Fayyad-Irani MDLP).

    Each column is cut recursively at the value boundary that leaves the purest classes on
    both sides, while the split passes the minimum-description-length test
    (:func:`mdlp_cut_points`); the number of bins is thus chosen per column, and a column
    unrelated to the class is one bin. Missing values (NaN) are left out of the fit and stay
    missing in ``transform``.

    Attributes
    ----------
    cut_points_ : list of ndarray
        The increasing cut points of each column.
    n_bins_ : ndarray of int of shape (n_features,)
        Bins of each column (cut points plus one).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Set when ``X`` is a DataFrame with string column names.

    References
    ----------
    U. M. Fayyad and K. B. Irani, "Multi-interval discretization of continuous-valued
    attributes for classification learning", IJCAI 1993.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from skbn.preprocessing import MDLPDiscretizer
    >>> X, y = load_iris(return_X_y=True)
    >>> binner = MDLPDiscretizer().fit(X, y)
    >>> binner.n_bins_.tolist()
    [3, 3, 3, 3]
    >>> binner.transform(X[:2]).tolist()
    [[0.0, 2.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]]
    """

    def __init__(self) -> None:
        pass

    def fit(self, X, y):
        """Find each column's cut points against the class labels ``y``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Continuous features; NaN is missing.
        y : array-like of shape (n_samples,)
            Class labels.

        Returns
        -------
        self
        """
        X, y = validate_data(
            self, X, y, dtype=np.float64, ensure_all_finite="allow-nan", y_numeric=False
        )
        y = column_or_1d(y)
        check_classification_targets(y)
        classes, codes = np.unique(y, return_inverse=True)
        self.cut_points_ = []
        for j in range(X.shape[1]):
            observed = ~np.isnan(X[:, j])
            self.cut_points_.append(mdlp_cut_points(X[observed, j], codes[observed], len(classes)))
        self.n_bins_ = np.array([len(c) + 1 for c in self.cut_points_], dtype=np.int64)
        return self

    def transform(self, X):
        """Replace each value by its bin's code (``0 .. n_bins_ - 1``; NaN stays NaN).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of float of shape (n_samples, n_features)
        """
        check_is_fitted(self, "cut_points_")
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite="allow-nan", reset=False)
        out = np.empty_like(X)
        for j, cuts in enumerate(self.cut_points_):
            out[:, j] = np.searchsorted(cuts, X[:, j], side="right")
            out[np.isnan(X[:, j]), j] = np.nan
        return out

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.target_tags.required = True
        return tags
