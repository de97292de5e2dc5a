# SPDX-License-Identifier: BSD-3-Clause
"""The kernel-based conditional-independence test (KCI) on low-rank kernel factors."""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np
from scipy import linalg, special

from skbn._kernels.kernel_ci import (
    gaussian_kernel_factor,
    pairwise_distance_median,
    weighted_product_square_sum,
)
from skbn.ci_tests._base import BoundCITest, CIResult, CITest, _log_upper_gamma
from skbn.utils._parallel import one_blas_thread
from skbn.utils._param_validation import Interval, StrOptions
from skbn.utils._random import draw_seed

__all__ = ["KCI"]

#: Kernel regression on the conditioning set uses the ridge ``epsilon`` (the authors' 1e-3).
#: Eigenvalues of the residual kernels below ``_EIGEN_THRESHOLD`` times the largest are
#: dropped before the null is approximated, as in the authors' code.
_EIGEN_THRESHOLD = 1e-5
_EIGEN_THRESHOLD_UNCONDITIONAL = 1e-6
#: The factors kept for reuse by later tests of one fit, in bytes.
_CACHE_BYTES = 256 * 2**20
#: Below this many rows a test runs its matrix operations on one BLAS thread: on 2 cores one
#: thread was as fast or up to 4.3x faster at n = 500 and 2,000 (|S| of 0 to 2); at n = 10,000 two
#: threads were as fast with one conditioning variable and 1.7x faster with two.
_ONE_BLAS_THREAD_ROWS = 5000
#: Rows of the median-distance width rule: a random subset of this many, as the authors do.
_MEDIAN_ROWS = 1000


def _empirical_width(n: int, conditional: bool) -> float:
    """The authors' kernel width (on standardised data) for ``n`` rows."""
    if conditional:
        return 1.2 if n < 200 else (0.7 if n < 1200 else 0.4)
    return 0.8 if n < 200 else (0.5 if n < 1200 else 0.3)


def _standardise(values: np.ndarray) -> np.ndarray:
    """Columns to mean 0 and standard deviation 1 (``ddof=1``); constant columns to 0."""
    centred = values - values.mean(axis=0)
    sd = centred.std(axis=0, ddof=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(sd > 0, centred / np.where(sd > 0, sd, 1.0), 0.0)
    return np.ascontiguousarray(out)


class _BoundKCI(BoundCITest):
    def __init__(self, test: KCI, data) -> None:
        super().__init__(test, data)
        self.standardised = _standardise(np.asarray(data.values, dtype=np.float64))
        self._factors: dict = {}
        self._regressions: dict = {}
        self._residuals: dict = {}
        self._cached_bytes = 0
        self._rng = np.random.default_rng(draw_seed(test.random_state))

    # -- factors ----------------------------------------------------------------------------
    def _points(self, columns: tuple, halved: tuple = ()) -> np.ndarray:
        points = self.standardised[:, list(columns) + list(halved)]
        if halved:
            points = points.copy()
            points[:, len(columns) :] *= 0.5
        return np.ascontiguousarray(points)

    def _theta(self, points: np.ndarray, n_cond: int) -> float:
        width = self.ci_test.kernel_width
        if isinstance(width, Real) and not isinstance(width, bool):
            return 1.0 / float(width) ** 2
        n = self.n_samples
        if width == "median":
            if n > _MEDIAN_ROWS:
                points = points[np.sort(self._rng.choice(n, _MEDIAN_ROWS, replace=False))]
            median = pairwise_distance_median(np.ascontiguousarray(points))
            return 1.0 / (2.0 * median**2) if median > 0 else 1.0
        if n_cond == 0:
            return points.shape[1] / _empirical_width(n, False) ** 2
        return 1.0 / (_empirical_width(n, True) ** 2 * n_cond)

    def _factor(self, columns: tuple, halved: tuple, n_cond: int) -> np.ndarray:
        """The centred factor ``G`` (n x m) of the kernel of ``columns`` (+ 0.5 ``halved``)."""
        key = (columns, halved, n_cond)
        factor = self._factors.get(key)
        if factor is None:
            points = self._points(columns, halved)
            theta = self._theta(points, n_cond)
            raw = gaussian_kernel_factor(
                points, theta, float(self.ci_test.low_rank_tol), self.n_samples
            )
            factor = np.ascontiguousarray(raw.T)
            factor -= factor.mean(axis=0)
            self._remember(self._factors, key, factor, factor.nbytes)
        return factor

    def _regression(self, cond: tuple):
        """The centred factor of the conditioning set's kernel and its ridge system."""
        entry = self._regressions.get(cond)
        if entry is None:
            factor = self._factor(cond, (), len(cond))
            gram = factor.T @ factor
            gram[np.diag_indices_from(gram)] += self.ci_test.epsilon
            entry = (factor, linalg.cho_factor(gram, lower=True))
            self._remember(self._regressions, cond, entry, factor.nbytes + gram.nbytes)
        return entry

    def _residual(self, variable: int, cond: tuple, first: bool):
        """``(F, V)``: a variable's kernel factor regressed on ``cond``, and its directions.

        The first variable's kernel also reads ``cond / 2``.
        """
        key = (variable, cond, first)
        entry = self._residuals.get(key)
        if entry is None:
            gz, ridge = self._regression(cond)
            factor = self._factor((variable,), cond if first else (), len(cond))
            residual = factor - gz @ linalg.cho_solve(ridge, gz.T @ factor)
            directions = _leading_directions(residual)
            entry = (residual, directions)
            self._remember(self._residuals, key, entry, residual.nbytes + directions.nbytes)
        return entry

    def _remember(self, cache: dict, key, value, nbytes: int) -> None:
        if self._cached_bytes + nbytes > _CACHE_BYTES:
            self._factors.clear()
            self._regressions.clear()
            self._residuals.clear()
            self._cached_bytes = 0
        if nbytes <= _CACHE_BYTES:
            cache[key] = value
            self._cached_bytes += nbytes

    # -- the test ---------------------------------------------------------------------------
    def _statistic_and_null(self, x: int, y: int, cond: np.ndarray):
        """``(statistic, null)``; ``null`` is ``(mean, variance, eigenvalues)`` lazily."""
        a, b = min(x, y), max(x, y)
        cond = tuple(int(c) for c in cond)
        n = self.n_samples
        if not cond:
            gx = self._factor((a,), (), 0)
            gy = self._factor((b,), (), 0)
            statistic = float(np.sum((gx.T @ gy) ** 2))
            gram_x, gram_y = gx.T @ gx, gy.T @ gy
            mean = float(np.trace(gram_x) * np.trace(gram_y) / n)
            variance = float(2.0 * np.sum(gram_x**2) * np.sum(gram_y**2) / n**2)

            def eigenvalues():
                lx = np.linalg.eigvalsh(gram_x)[::-1]
                ly = np.linalg.eigvalsh(gram_y)[::-1]
                top = n // 2 if n > 1000 else n
                products = np.outer(lx[:top], ly[:top]).ravel()
                keep = products > products.max() * _EIGEN_THRESHOLD_UNCONDITIONAL
                return products[keep] / n

            return statistic, mean, variance, eigenvalues
        (fx, vx), (fy, vy) = self._residual(a, cond, True), self._residual(b, cond, False)
        statistic = float(np.sum((fx.T @ fy) ** 2))
        mean = float(np.sum(np.einsum("ij,ij->i", vx, vx) * np.einsum("ij,ij->i", vy, vy)))
        variance = 2.0 * _hadamard_square_sum(vx, vy)

        def eigenvalues():
            if vx.shape[1] * vy.shape[1] <= n:
                products = _product_gram(vx, vy)
            else:
                products = (vx @ vx.T) * (vy @ vy.T)
            values = np.linalg.eigvalsh(products)[::-1]
            return values[values > values.max() * _EIGEN_THRESHOLD]

        return statistic, mean, variance, eigenvalues

    def _evaluate(self, x: int, y: int, cond: np.ndarray):
        with one_blas_thread(self.n_samples < _ONE_BLAS_THREAD_ROWS):
            return self._evaluate_now(x, y, cond)

    def _evaluate_now(self, x: int, y: int, cond: np.ndarray):
        statistic, mean, variance, eigenvalues = self._statistic_and_null(x, y, cond)
        if not (mean > 0 and variance > 0):  # a constant variable: no evidence of dependence
            return statistic, math.nan, 1.0, 0.0
        shape, scale = mean**2 / variance, variance / mean
        if self.ci_test.null == "gamma":
            pvalue = float(special.gammaincc(shape, statistic / scale))
            log_p = (
                math.log(pvalue) if pvalue > 1e-300 else _log_upper_gamma(shape, statistic / scale)
            )
            return statistic, shape, pvalue, log_p
        weights = eigenvalues()
        draws = self._rng.chisquare(1.0, size=(self.ci_test.n_null_samples, len(weights)))
        pvalue = float(np.mean(draws @ weights > statistic))
        return statistic, shape, pvalue, math.log(pvalue) if pvalue > 0 else -math.inf

    def _test(self, x, y, cond):
        statistic, shape, pvalue, _ = self._evaluate(x, y, cond)
        return CIResult(statistic, shape, pvalue)

    def _log_pvalue(self, x, y, cond):
        return self._evaluate(x, y, cond)[3]


def _leading_directions(factor: np.ndarray) -> np.ndarray:
    """``V`` with ``V V^T`` the part of ``F F^T`` above the eigenvalue threshold."""
    values, vectors = np.linalg.eigh(factor.T @ factor)
    keep = values > values.max() * _EIGEN_THRESHOLD
    return factor @ vectors[:, keep]


def _product_gram(vx: np.ndarray, vy: np.ndarray) -> np.ndarray:
    """``W^T W`` for ``W`` the row-wise Kronecker product of ``Vx`` and ``Vy``.

    It has the nonzero spectrum of ``(Vx Vx^T) * (Vy Vy^T)`` (elementwise), which is
    ``W W^T``.
    """
    w = (vx[:, :, None] * vy[:, None, :]).reshape(vx.shape[0], -1)
    return w.T @ w


def _hadamard_square_sum(vx: np.ndarray, vy: np.ndarray) -> float:
    """``sum((Vx Vx^T * Vy Vy^T) ** 2)``, the trace of the squared product matrix.

    By ``W^T W`` (``n (mx my)^2`` operations) or by blocks of rows of the two ``n x n``
    Gram matrices (``n^2 (mx + my)``), whichever costs less; neither ``n x n`` matrix is
    held whole.
    """
    n, mx = vx.shape
    my = vy.shape[1]
    if (mx * my) ** 2 <= n * (mx + my) * 2:
        return float(np.sum(_product_gram(vx, vy) ** 2))
    total = 0.0
    # blocks of at most 512 rows: the two blocks of Gram rows stay in cache, and the part
    # left of the diagonal is skipped (one block of all n rows ran 5x slower at n = 2,000)
    block = max(1, min(n, 512, 2**22 // max(n, 1)))
    for start in range(0, n, block):
        rows = slice(start, start + block)
        # the symmetric matrix by block rows: the diagonal block once, the part right of it
        # twice (it stands for the part below it too)
        gx = vx[rows] @ vx[start:].T
        gy = vy[rows] @ vy[start:].T
        total += weighted_product_square_sum(gx, gy, gx.shape[0])
    return total


class KCI(CITest):
    """The kernel-based conditional-independence test (Zhang, Peters, Janzing & Schoelkopf).

    Tests ``x`` independent of ``y`` given ``S`` on continuous data without assuming linear
    relations: with Gaussian kernels on standardised data, the statistic is the squared
    Frobenius inner product of the kernel matrices of ``(x, S / 2)`` and ``y`` after each is
    regressed on ``S`` by kernel ridge regression (``epsilon``), and its null distribution a
    weighted sum of chi-square variables, approximated by a Gamma distribution with the same
    mean and variance or simulated from the weights. Without ``S`` it is HSIC (Gretton et al.
    2007) with the same Gamma approximation. The smaller column index takes the role of
    ``x``, so that ``test(x, y)`` and ``test(y, x)`` agree.

    The kernel matrices are never formed: a pivoted Cholesky factorisation (``n x m``, stops
    once every residual diagonal is at most ``low_rank_tol``) stands for each, so a test
    costs ``O(n m^2)`` rather than ``O(n^3)``; factors of a variable set and the ridge system
    of a conditioning set are kept for the later tests of one fit. With
    ``low_rank_tol=0`` the factors run to numerical rank and the test is the exact one
    (causal-learn's ``kci`` to rounding).

    Parameters
    ----------
    kernel_width : {"empirical", "median"} or float, default="empirical"
        The Gaussian kernels' width on standardised data. ``"empirical"``: the authors' rule
        by sample size (HSIC: 0.8, 0.5, 0.3 below 200, 1,200 and beyond rows; conditional:
        1.2, 0.7, 0.4, the squared width scaled by ``|S|``). ``"median"``: ``sqrt(2)`` times
        the median distance between points (of at most 1,000 random rows). A float: that
        width (the kernels' standard deviation) for every kernel.
    null : {"gamma", "spectral"}, default="gamma"
        The null distribution: the Gamma approximation, or ``n_null_samples`` draws of the
        weighted chi-square sum (seeded from ``random_state``).
    n_null_samples : int, default=5000
        Draws of the simulated null (``null="spectral"``).
    epsilon : float, default=1e-3
        The ridge of the kernel regression on the conditioning set.
    low_rank_tol : float, default=1e-10
        The largest residual diagonal left by each kernel factor (the kernels' diagonal is
        1). 0 gives the exact test. The default keeps the p-value within about 1e-6 of the
        exact one (the guide page "Nonlinear and non-Gaussian data" shows the measurement).
    random_state : int, Generator or None, default=None
        Seeds the rows of the median rule and the simulated null.

    See Also
    --------
    FisherZ : The test of linear (partial-correlation) dependence.

    Notes
    -----
    The test needs continuous data (it reads discrete codes as numbers only if they are
    given as floats). A constant variable yields p-value 1.

    References
    ----------
    K. Zhang, J. Peters, D. Janzing and B. Schoelkopf. Kernel-based conditional independence
    test and application in causal discovery. UAI 2011.

    Examples
    --------
    >>> import numpy as np
    >>> from skbn.ci_tests import KCI
    >>> rng = np.random.default_rng(0)
    >>> z = rng.normal(size=400)
    >>> x = np.sin(2 * z) + 0.3 * rng.normal(size=400)
    >>> y = z**2 + 0.3 * rng.normal(size=400)
    >>> test = KCI().bind(np.column_stack([x, y, z]))
    >>> bool(test.test(0, 1).pvalue < 0.01), bool(test.test(0, 1, [2]).pvalue > 0.05)
    (True, True)
    """

    data_kind = "gaussian"
    _parameter_constraints: dict = {
        "kernel_width": [
            StrOptions({"empirical", "median"}),
            Interval(Real, 0, None, closed="neither"),
        ],
        "null": [StrOptions({"gamma", "spectral"})],
        "n_null_samples": [Interval(Integral, 1, None, closed="left")],
        "epsilon": [Interval(Real, 0, None, closed="neither")],
        "low_rank_tol": [Interval(Real, 0, 1, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        kernel_width="empirical",
        null: str = "gamma",
        n_null_samples: int = 5000,
        epsilon: float = 1e-3,
        low_rank_tol: float = 1e-10,
        random_state=None,
    ) -> None:
        self.kernel_width = kernel_width
        self.null = null
        self.n_null_samples = n_null_samples
        self.epsilon = epsilon
        self.low_rank_tol = low_rank_tol
        self.random_state = random_state

    def _bind(self, data):
        return _BoundKCI(self, data)
