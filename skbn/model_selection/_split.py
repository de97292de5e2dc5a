# SPDX-License-Identifier: BSD-3-Clause
"""Cross-validation splitters for structure learning.

Each is a scikit-learn ``BaseCrossValidator`` (so ``cv=`` in any scikit-learn search takes
it), with its own ``split``: OTSL's bootstraps draw rows with replacement, which the base
class's complement-of-the-test-rows splitting cannot express.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.model_selection import BaseCrossValidator
from sklearn.utils import check_random_state

from skbn.utils._param_validation import Interval, validate_params_of

__all__ = ["OutOfSampleBootstrap", "InSampleSplit", "SubsampleSplit"]


def _n_rows(X) -> int:
    n = getattr(X, "shape", (len(X),))[0]
    if n < 2:
        raise ValueError(f"Cannot split n_samples={n} row(s); at least 2 are needed.")
    return int(n)


class OutOfSampleBootstrap(BaseCrossValidator):
    """OTSL's resampling: bootstrap training rows, out-of-bag bootstrap test rows.

    For each of ``n_resamples`` rounds, the training set is ``N (K - 1) / K`` rows drawn with
    replacement from all ``N`` rows, and the test set ``N / K`` rows drawn with replacement from
    the rows never drawn for training (``K = 1 / test_fraction``, by default ``n_resamples``:
    10 resamples give 90%/10% as in the paper). Works as ``cv=`` in any scikit-learn search,
    with one difference from :class:`OTSLSearchCV`: a split that scores NaN (a learned PDAG
    with no DAG extension) makes scikit-learn's mean NaN, where OTSLSearchCV leaves it out of
    the mean (``min_finite_fraction``) and counts the finite splits in ``cv_results_``.
    ``OTSLSearchCV(min_finite_fraction=1)`` ranks as scikit-learn does: a configuration with
    any NaN split gets a NaN mean and comes last.

    Parameters
    ----------
    n_resamples : int, default=10
    test_fraction : float, default=None
        Size of the test bootstrap relative to N; None means ``1 / n_resamples``.
    random_state : int, RandomState instance or None, default=None
        With an int, every call to ``split`` gives the same resamples.

    References
    ----------
    K. Chobtham and A. C. Constantinou, "Tuning structure learning algorithms with
    out-of-sample and resampling strategies", Knowledge and Information Systems, 2024.

    Examples
    --------
    >>> import numpy as np
    >>> splitter = OutOfSampleBootstrap(n_resamples=3, random_state=0)
    >>> train, test = next(splitter.split(np.zeros((100, 2))))
    >>> len(train), len(test), bool(set(train) & set(test))
    (66, 33, False)
    """

    _parameter_constraints = {
        "n_resamples": [Interval(Integral, 1, None, closed="left")],
        "test_fraction": [Interval(Real, 0, 1, closed="neither"), None],
        "random_state": ["random_state"],
    }

    def __init__(
        self, n_resamples: int = 10, test_fraction: float | None = None, random_state=None
    ) -> None:
        self.n_resamples = n_resamples
        self.test_fraction = test_fraction
        self.random_state = random_state

    def get_params(self, deep: bool = True) -> dict:
        """Return the splitter's parameters (as scikit-learn's splitters do).

        Parameters
        ----------
        deep : bool, default=True
            Ignored (the parameters hold no estimators).

        Returns
        -------
        dict
        """
        return {
            "n_resamples": self.n_resamples,
            "test_fraction": self.test_fraction,
            "random_state": self.random_state,
        }

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        """Return the number of splits, ``n_resamples``.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            The data (only its number of rows is used).
        y : None
            Ignored.
        groups : None
            Ignored.

        Returns
        -------
        int
        """
        return self.n_resamples

    def split(self, X, y=None, groups=None):
        """Yield ``(train, test)`` row indices (with repeats) for each resample.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            The data (only its number of rows is used).
        y : None
            Ignored.
        groups : None
            Ignored.

        Yields
        ------
        train : ndarray of int
            Training rows, drawn with replacement.
        test : ndarray of int
            Test rows, drawn with replacement from the rows not drawn for training.
        """
        validate_params_of(self)
        n = _n_rows(X)
        if self.test_fraction is None:  # the paper: N (K - 1) / K and N / K rows
            k = self.n_resamples
            n_train, n_test = n * (k - 1) // k, n // k
        else:
            n_train = int(n * (1 - self.test_fraction) + 1e-9)
            n_test = int(n * self.test_fraction + 1e-9)
        n_train, n_test = max(1, n_train), max(1, n_test)
        rng = check_random_state(self.random_state)
        for _ in range(self.n_resamples):
            train = rng.randint(0, n, size=n_train)
            out_of_bag = np.setdiff1d(np.arange(n), train)
            if len(out_of_bag) == 0:
                raise ValueError(
                    "Every row was drawn for training, so no out-of-bag test rows remain; "
                    "use more rows or a larger test_fraction."
                )
            test = out_of_bag[rng.randint(0, len(out_of_bag), size=n_test)]
            yield train, test

    def __repr__(self) -> str:
        return (
            f"OutOfSampleBootstrap(n_resamples={self.n_resamples}, "
            f"test_fraction={self.test_fraction}, random_state={self.random_state})"
        )


class InSampleSplit(BaseCrossValidator):
    """One split whose training and test rows are all the rows (in-sample model selection).

    Examples
    --------
    >>> import numpy as np
    >>> [tuple(map(len, s)) for s in InSampleSplit().split(np.zeros((5, 2)))]
    [(5, 5)]
    """

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        """Return the number of splits, always 1.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            The data (only its number of rows is used).
        y : None
            Ignored.
        groups : None
            Ignored.

        Returns
        -------
        int
        """
        return 1

    def split(self, X, y=None, groups=None):
        """Yield the single split ``(all rows, all rows)``.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            The data (only its number of rows is used).
        y : None
            Ignored.
        groups : None
            Ignored.

        Yields
        ------
        train : ndarray of int
            Every row.
        test : ndarray of int
            Every row.
        """
        rows = np.arange(_n_rows(X))
        yield rows, rows

    def __repr__(self) -> str:
        return "InSampleSplit()"


class SubsampleSplit(BaseCrossValidator):
    """Subsamples without replacement: train on ``sample_size`` rows, test on the others.

    The splitter behind Intersection-Validation in scikit-learn searches; the InterVal scorer
    ignores the test rows (it compares the learned graph with the agreement graph).

    Parameters
    ----------
    sample_size : int
    n_subsamples : int, default=10
    random_state : int, RandomState instance or None, default=None

    Examples
    --------
    >>> import numpy as np
    >>> train, test = next(SubsampleSplit(30, 2, random_state=0).split(np.zeros((100, 1))))
    >>> len(train), len(set(train)), len(test)
    (30, 30, 70)
    """

    def __init__(self, sample_size: int, n_subsamples: int = 10, random_state=None) -> None:
        self.sample_size = sample_size
        self.n_subsamples = n_subsamples
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        """Return the number of splits, ``n_subsamples``.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            The data (only its number of rows is used).
        y : None
            Ignored.
        groups : None
            Ignored.

        Returns
        -------
        int
        """
        return self.n_subsamples

    def split(self, X, y=None, groups=None):
        """Yield ``(subsample, other rows)`` index pairs.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            The data (only its number of rows is used).
        y : None
            Ignored.
        groups : None
            Ignored.

        Yields
        ------
        train : ndarray of int
            A subsample of ``sample_size`` rows, sorted.
        test : ndarray of int
            The other rows.
        """
        n = len(X)
        if not isinstance(self.sample_size, Integral) or not 2 <= self.sample_size < n:
            raise ValueError(
                f"sample_size must be an int between 2 and {n - 1}, got {self.sample_size!r}."
            )
        rng = check_random_state(self.random_state)
        for _ in range(self.n_subsamples):
            rows = np.sort(rng.choice(n, size=self.sample_size, replace=False))
            yield rows, np.setdiff1d(np.arange(n), rows)

    def __repr__(self) -> str:
        return (
            f"SubsampleSplit(sample_size={self.sample_size}, "
            f"n_subsamples={self.n_subsamples}, random_state={self.random_state})"
        )
