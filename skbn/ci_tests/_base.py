# SPDX-License-Identifier: BSD-3-Clause
"""The CI-test interface: a parameter object that binds to data and tests (x, y | S)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import NamedTuple

import numpy as np
from scipy import special
from sklearn.base import BaseEstimator

from skbn.utils._binding import DataBound, check_data_for

__all__ = ["CITest", "BoundCITest", "CIResult"]


class CIResult(NamedTuple):
    """Outcome of one conditional-independence test.

    Parameters
    ----------
    statistic : float
        The test statistic.
    dof : float
        Its degrees of freedom.
    pvalue : float
        The p-value; small values are evidence of dependence.

    Examples
    --------
    >>> CIResult(3.2, 1.0, 0.07).pvalue
    0.07
    """

    statistic: float
    dof: float
    pvalue: float


def chi_square_result(statistic: float, dof: float) -> CIResult:
    """The result of a statistic compared with a chi-square distribution (p = 1 without dof)."""
    # chdtrc is scipy's chi-square survival function as a bare ufunc (no per-call
    # distribution-object overhead, which dominated PC's run time)
    pvalue = 1.0 if dof <= 0 else float(special.chdtrc(dof, statistic))
    return CIResult(statistic, dof, pvalue)


def chi_square_log_pvalue(statistic: float, dof: float) -> float:
    """The log of the chi-square p-value, accurate where the p-value underflows."""
    if dof <= 0:
        return 0.0
    pvalue = special.chdtrc(dof, statistic)
    if pvalue > 1e-300:
        return float(np.log(pvalue))
    return _log_upper_gamma(dof / 2.0, statistic / 2.0)


def _log_upper_gamma(a: float, z: float) -> float:
    """``log Q(a, z)``, the regularised upper incomplete gamma function, for ``z > a + 1``.

    ``Q(a, z) = z^a e^-z / Gamma(a) * F`` with ``F`` the continued fraction
    ``1 / (z + 1 - a - 1 (1 - a) / (z + 3 - a - 2 (2 - a) / (z + 5 - a - ...)))``, evaluated
    by the modified Lentz method; only the prefactor is taken in logs, so the result stays
    finite where ``Q`` itself (and scipy's ``chi2.logsf``) underflows to 0.
    """
    if z <= a + 1.0:  # the p-value cannot underflow here
        return float(np.log(special.gammaincc(a, z)))
    tiny = 1e-300
    b = z + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    f = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        step = d * c
        f *= step
        if abs(step - 1.0) < 1e-15:
            break
    return float(a * np.log(z) - z - special.gammaln(a) + np.log(f))


class CITest(BaseEstimator):
    """Base class of conditional-independence tests.

    A test is a small parameter object; ``bind(X)`` validates and encodes the data once and
    returns a :class:`BoundCITest` whose ``test(x, y, cond)`` returns a :class:`CIResult`.

    See Also
    --------
    get_ci_test : A test by family name, for a kind of data.

    Examples
    --------
    >>> from skbn.ci_tests import CITest, FisherZ
    >>> isinstance(FisherZ(), CITest), FisherZ().data_kind
    (True, 'gaussian')
    """

    #: "discrete" or "gaussian": the kind of data the test needs.
    data_kind: str = "discrete"
    _parameter_constraints: dict = {}

    #: Binds data with missing values; set by :mod:`._testwise` (testwise deletion), which
    #: builds on this module, so this module needs no import of it.
    _incomplete_binder = None

    #: Whether the test's kernels run on numba's threads (PC-Stable then sets their number
    #: from ``n_jobs``).
    threaded_kernels: bool = False

    def bind(self, X) -> BoundCITest:
        """Validate ``X`` for this test and return a bound tester.

        Parameters
        ----------
        X : DataFrame, array-like or checked data
            The data, of the kind the test needs.

        Returns
        -------
        BoundCITest
        """
        data = check_data_for(self, X)
        if data.has_missing:
            return self._incomplete_binder(self, data)
        return self._bind(data)

    def _bind(self, data) -> BoundCITest:  # pragma: no cover - abstract
        raise NotImplementedError


class BoundCITest(DataBound):
    """A CI test bound to one data set (made by :meth:`CITest.bind`).

    Parameters
    ----------
    test : CITest
        The test object it was bound from.
    data : DiscreteData or GaussianData
        The checked data.

    Examples
    --------
    >>> import numpy as np
    >>> from skbn.ci_tests import FisherZ
    >>> rng = np.random.default_rng(0)
    >>> a = rng.normal(size=500)
    >>> bound = FisherZ().bind(np.column_stack([a, a + rng.normal(size=500)]))
    >>> bound.test("x0", "x1").pvalue < 1e-6
    True
    """

    def __init__(self, test: CITest, data) -> None:
        super().__init__(data)
        self.ci_test = test

    def test(self, x, y, cond: Iterable = ()) -> CIResult:
        """Test ``x`` independent of ``y`` given ``cond``.

        Parameters
        ----------
        x, y : str or int
            Column names or positions.
        cond : iterable of str or int, default=()
            The conditioning set.

        Returns
        -------
        CIResult
        """
        xi, yi = self._resolve(x), self._resolve(y)
        ci = np.array(sorted({self._resolve(c) for c in cond}), dtype=np.int64)
        if xi == yi or xi in ci or yi in ci:
            raise ValueError("x, y and the conditioning set must be distinct variables.")
        return self._test(xi, yi, ci)

    def test_positions(self, x: int, y: int, cond: np.ndarray) -> CIResult:
        """:meth:`test` for positions already checked (distinct; ``cond`` an int64 array).

        Parameters
        ----------
        x, y : int
            Column positions.
        cond : ndarray of int64
            Column positions of the conditioning set.

        Returns
        -------
        CIResult
        """
        return self._test(int(x), int(y), cond)

    def log_pvalue(self, x: int, y: int, cond: np.ndarray) -> float:
        """Compute the natural log of the p-value, exact where the p-value underflows.

        Searches that rank associations (MMPC) need it: strong dependencies all have
        p-value 0.0 in floating point, but distinct log p-values.

        Parameters
        ----------
        x, y : int
            Column positions.
        cond : array-like of int
            Column positions of the conditioning set.

        Returns
        -------
        float
        """
        return self._log_pvalue(int(x), int(y), np.asarray(cond, dtype=np.int64))

    def log_pvalues(self, xs, y: int, cond) -> np.ndarray:
        """Compute :meth:`log_pvalue` of each ``x`` in ``xs`` against ``y`` given ``cond``.

        What a search that ranks every candidate against one variable asks (IAMB's forward
        phase); a test may answer all of them in one kernel call.

        Parameters
        ----------
        xs : array-like of int
            Column positions of the candidates.
        y : int
            Column position of the variable they are tested against.
        cond : array-like of int
            Column positions of the conditioning set, shared by every test.

        Returns
        -------
        ndarray of shape (len(xs),)
        """
        xs = np.asarray(xs, dtype=np.int64)
        cond = np.asarray(cond, dtype=np.int64)
        if len(xs) == 0:
            return np.zeros(0)
        return self._log_pvalues(xs, int(y), cond)

    def _log_pvalues(self, xs: np.ndarray, y: int, cond: np.ndarray) -> np.ndarray:
        return np.array([self._log_pvalue(int(x), y, cond) for x in xs])

    # -- what the learners ask of a bound test, besides p-values ------------------------------
    # Each has a default here; a test with a faster route or a table overrides it
    # (``tests/scores/test_contract.py`` checks the routes of every registered family).

    def correlation_matrix(self) -> np.ndarray | None:
        """The correlation matrix that PC-Stable's batched Fisher-z kernel reads, or None.

        Returns
        -------
        ndarray of shape (p, p) or None
            Given by Fisher's z on complete data; None (the default) for every other test,
            whose p-values PC-Stable asks one test at a time.
        """
        return None

    def rows_per_cell(self, x: int, y: int, cond) -> float:
        """Count the rows per cell of the test's contingency table (inf without one).

        The blanket learners stop growing a conditioning set once this falls below their
        bound (too few rows to test on).

        Parameters
        ----------
        x, y : int
            Column positions.
        cond : sequence of int
            Column positions of the conditioning set.

        Returns
        -------
        float
        """
        return math.inf

    def _test(self, x: int, y: int, cond: np.ndarray) -> CIResult:  # pragma: no cover
        raise NotImplementedError

    def _log_pvalue(self, x: int, y: int, cond: np.ndarray) -> float:  # pragma: no cover
        raise NotImplementedError
