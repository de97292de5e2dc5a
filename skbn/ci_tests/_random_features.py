# SPDX-License-Identifier: BSD-3-Clause
"""Random-feature conditional-independence tests: RCoT and RCIT (Strobl, Zhang & Visweswaran).

A Gaussian kernel's feature map is approximated by random Fourier features,
``sqrt(2) cos(w . u / sigma + b)`` with ``w`` standard normal and ``b`` uniform on
``[0, 2 pi)``, so that the kernel test's cross-covariance operator becomes a small matrix:
``n x 5`` features for each of ``x`` and ``y`` and ``n x 100`` for the conditioning set. A
test then costs ``O(n f^2)`` with ``f`` the number of features, where KCI costs
``O(n m^2)`` with ``m`` the rank of the kernel factors (``m`` grows with ``n``).
"""

from __future__ import annotations

import math
from numbers import Integral

import numpy as np
from scipy.spatial.distance import pdist

from skbn._kernels.kernel_ci import cosine_features
from skbn.ci_tests._base import BoundCITest, CIResult, CITest
from skbn.ci_tests._chi2_sums import weighted_chi2_tail
from skbn.utils._parallel import one_blas_thread
from skbn.utils._param_validation import Interval, StrOptions
from skbn.utils._random import draw_seed

__all__ = ["RCIT", "RCoT", "conditioning_projection", "rcot_statistic"]

#: Rows the median-distance width reads (the first ones, as the authors' code does).
_WIDTH_ROWS = 500
#: The ridge on the conditioning set's feature covariance (the authors' 1e-10).
_RIDGE = 1e-10
#: Roles of a feature block, part of its random stream's key.
_ROLE_X, _ROLE_Y, _ROLE_Z = 0, 1, 2
#: Below this many rows a test runs its matrix operations on one BLAS thread (as KCI does). On
#: 2 cores at n = 10,000 one thread made a first test about 1.15x faster but a test whose
#: features were already drawn (most tests of a fit) 1.4x slower (6.5 against 4.6 ms), so
#: from there BLAS runs as set; at n = 2,000 the two were level.
_ONE_BLAS_THREAD_ROWS = 5000
#: Feature blocks kept for the later tests of one fit, in bytes.
_CACHE_BYTES = 256 * 2**20


def _standardise(values: np.ndarray) -> np.ndarray:
    """Columns to mean 0 and sample standard deviation 1; constant columns to 0.

    In the arithmetic of the authors' and causal-learn's code (the mean and the standard
    deviation of the columns as given), not KCI's twin in ``_kernel`` (which centres first):
    the conditional statistic amplifies rounding differences (see :func:`rcot_statistic`),
    and with KCI's the stored causal-learn p-values move by up to 2.4e-3, not 1.1e-3.
    """
    sd = values.std(axis=0, ddof=1) if len(values) > 1 else np.zeros(values.shape[1])
    return np.where(sd > 0, (values - values.mean(axis=0)) / np.where(sd > 0, sd, 1.0), 0.0)


def median_width(points: np.ndarray) -> float:
    """The median distance between distinct points among the first 500 rows (1 if none).

    Parameters
    ----------
    points : ndarray of shape (n, d)

    Returns
    -------
    float
    """
    distances = pdist(points[:_WIDTH_ROWS])
    distances = distances[distances != 0]
    return float(np.median(distances)) if len(distances) else 1.0


def fourier_features(points: np.ndarray, weights: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Standardised random Fourier features ``sqrt(2) cos(points @ weights.T + offsets)``.

    Parameters
    ----------
    points : ndarray of shape (n, d)
    weights : ndarray of shape (f, d)
        Already divided by the kernel width.
    offsets : ndarray of shape (f,)

    Returns
    -------
    ndarray of shape (n, f)
        Each feature centred and scaled to sample standard deviation 1 (0 if constant).
    """
    return cosine_features(
        np.ascontiguousarray(points, dtype=np.float64),
        np.ascontiguousarray(weights, dtype=np.float64),
        np.ascontiguousarray(offsets, dtype=np.float64),
    )


def conditioning_projection(fz: np.ndarray) -> np.ndarray:
    """``C_zz^-1``, the inverse covariance of the conditioning set's features ``fz``.

    The features of a few conditioning variables are nearly collinear, so ``C_zz`` is close
    to singular and the authors' ridge (1e-10) decides its smallest directions, which must
    stay: a truncated inverse (dropping them) leaves dependence on the conditioning set
    unexplained and rejects true independences. The inverse is formed as causal-learn
    forms it, from the inverse of the Cholesky factor.

    Parameters
    ----------
    fz : ndarray of shape (n, f)
        Standardised features (mean 0).

    Returns
    -------
    ndarray of shape (f, f)
    """
    covariance = fz.T @ fz / (fz.shape[0] - 1)
    covariance[np.diag_indices_from(covariance)] += _RIDGE
    inverse_lower = np.linalg.inv(np.linalg.cholesky(covariance))
    return inverse_lower.T @ inverse_lower


def rcot_statistic(
    fx, fy, fz=None, null: str = "lpb4", projection=None
) -> tuple[float, float, float]:
    """The RCoT statistic of standardised features, its p-value and log p-value.

    Without ``fz`` the unconditional statistic ``n ||C_xy||^2`` (RIT); with it the
    conditional cross-covariance ``C_xy - C_xz C_zz^-1 C_zy`` (the features of ``x`` and
    ``y`` regressed on those of the conditioning set). The null is a weighted sum of
    chi-square variables whose weights are the eigenvalues of the covariance of the
    (residual) feature products.

    Parameters
    ----------
    fx, fy : ndarray of shape (n, fx), (n, fy)
    fz : ndarray of shape (n, fz) or None
    null : {"lpb4", "hbe", "gamma"}
    projection : ndarray of shape (f, f), optional
        :func:`conditioning_projection` of ``fz``, when already computed.

    Returns
    -------
    statistic, pvalue, log_pvalue : float
    """
    n = fx.shape[0]
    if fz is None:
        cross = fx.T @ fy / (n - 1)
        res_x, res_y = fx, fy
    else:
        inverse = projection if projection is not None else conditioning_projection(fz)
        cxz = fx.T @ fz / (n - 1)
        czy = fz.T @ fy / (n - 1)
        # regression coefficients first: O(n f) a feature, not O(n f^2) for fz C_zz^-1
        beta_x, beta_y = inverse @ cxz.T, inverse @ czy
        res_x = fx - fz @ beta_x
        res_y = fy - fz @ beta_y
        cross = fx.T @ fy / (n - 1) - cxz @ beta_y
    statistic = float(n * np.sum(cross**2))
    products = (res_x[:, :, None] * res_y[:, None, :]).reshape(n, -1)
    weights = np.linalg.eigvalsh(products.T @ products / n)
    pvalue, log_p = weighted_chi2_tail(weights, statistic, null)
    return statistic, pvalue, log_p


class _BoundRandomFeatures(BoundCITest):
    def __init__(self, test, data) -> None:
        super().__init__(test, data)
        self.standardised = _standardise(np.asarray(data.values, dtype=np.float64))
        self._seed = draw_seed(test.random_state)
        self._features: dict = {}
        self._projections: dict = {}
        self._cached_bytes = 0

    def _block(self, columns: tuple, role: int, count: int) -> np.ndarray:
        """The features of a variable set; the same whatever other tests ran before.

        Each block draws from its own random stream, keyed by the fit's seed, its role and
        its columns, so a test's result does not depend on which tests came before it (or
        on how many workers ran them).
        """
        key = (role, columns)
        found = self._features.get(key)
        if found is not None:
            return found
        points = self.standardised[:, list(columns)]
        stream = np.random.SeedSequence(self._seed, spawn_key=(role, *columns))
        rng = np.random.Generator(np.random.PCG64(stream))
        weights = rng.standard_normal((count, len(columns))) / median_width(points)
        offsets = 2.0 * math.pi * rng.uniform(size=count)
        block = fourier_features(points, weights, offsets)
        if self._cached_bytes + block.nbytes <= _CACHE_BYTES:
            self._features[key] = block
            self._cached_bytes += block.nbytes
        return block

    def _evaluate(self, x: int, y: int, cond: np.ndarray):
        with one_blas_thread(self.n_samples < _ONE_BLAS_THREAD_ROWS):
            return self._evaluate_now(x, y, cond)

    def _evaluate_now(self, x: int, y: int, cond: np.ndarray):
        test = self.ci_test
        a, b = min(x, y), max(x, y)  # test(x, y) and test(y, x) agree
        cond_cols = tuple(int(c) for c in cond)
        fx = self._block((a,), _ROLE_X, test.n_features_xy)
        y_cols = (b, *cond_cols) if test._augments_y and cond_cols else (b,)
        fy = self._block(y_cols, _ROLE_Y, test.n_features_xy)
        if not (fx.any() and fy.any()):  # a constant variable: no evidence of dependence
            return 0.0, 1.0, 0.0
        if not cond_cols:
            return rcot_statistic(fx, fy, None, test.null)
        fz = self._block(cond_cols, _ROLE_Z, test.n_features)
        projection = self._projections.get(cond_cols)
        if projection is None:
            projection = conditioning_projection(fz)
            size = projection.nbytes
            if self._cached_bytes + size <= _CACHE_BYTES:
                self._projections[cond_cols] = projection
                self._cached_bytes += size
        return rcot_statistic(fx, fy, fz, test.null, projection)

    def _test(self, x, y, cond):
        statistic, pvalue, _ = self._evaluate(x, y, cond)
        return CIResult(statistic, math.nan, pvalue)

    def _log_pvalue(self, x, y, cond):
        return self._evaluate(x, y, cond)[2]


class RCoT(CITest):
    """The randomized conditional correlation test (Strobl, Zhang & Visweswaran 2019).

    A fast approximation of :class:`KCI`: random Fourier features stand for the Gaussian
    kernels of ``x``, ``y`` and the conditioning set ``S`` (kernel width the median distance
    between points, on standardised data), the features of ``x`` and ``y`` are regressed on
    those of ``S`` by least squares, and the statistic is ``n`` times the squared Frobenius
    norm of the residuals' cross-covariance. Under independence it is a weighted sum of
    chi-square variables, the weights the eigenvalues of the covariance of the residual
    feature products; its tail comes from the Lindsay-Pilla-Basak approximation by default.
    Without ``S`` it is the randomized independence test (RIT). A test costs
    ``O(n f^2)`` for ``f`` the features of ``S`` (100), whatever ``n``.

    Each variable set's features are drawn from a random stream keyed by ``random_state``,
    the set and its role, and kept for the later tests of one fit: a test's result does not
    depend on the tests before it, nor on ``n_jobs``. The smaller column index takes the
    role of ``x``, so that ``test(x, y)`` and ``test(y, x)`` agree.

    Parameters
    ----------
    n_features : int, default=100
        Random features of the conditioning set (the authors' 100).
    n_features_xy : int, default=5
        Random features of ``x`` and of ``y`` (the authors' 5).
    null : {"lpb4", "hbe", "gamma"}, default="lpb4"
        The approximation of the null distribution's tail: Lindsay-Pilla-Basak with four
        Gamma components (the authors' default), Hall-Buckley-Eagleson, or the
        Satterthwaite-Welch Gamma. Where the LPB moment equations have no solution (or the
        weights are fewer than four) HBE stands in, as in the authors' code.
    random_state : int, RandomState instance or None, default=None
        Seeds the random features.

    See Also
    --------
    RCIT : The same with the conditioning set's variables added to ``y``'s features.
    KCI : The kernel test these approximate.

    Notes
    -----
    With the same random features the unconditional statistic and p-value equal
    causal-learn's to rounding (checked in the test suite). The conditional statistic
    inverts the covariance of the conditioning set's features with the authors' ridge of
    1e-10, and those features, of a few variables, are nearly collinear: a relative change
    of 1e-16 in them moves the statistic by about 1e-5, so two implementations of the same
    arithmetic agree to about 1e-3 in p-value (the largest difference on the stored cases),
    not to the last digit. causal-learn 0.1.4.8 calls momentchi2's
    ``lpb4``, which fails under NumPy 2 (it calls ``np.math``), so its default quietly
    falls back to HBE there; skbn's LPB equals momentchi2's where that one runs.

    References
    ----------
    E. V. Strobl, K. Zhang and S. Visweswaran. Approximate kernel-based conditional
    independence tests for fast non-parametric causal discovery. Journal of Causal
    Inference 7(1), 2019.

    Examples
    --------
    >>> import numpy as np
    >>> from skbn.ci_tests import RCoT
    >>> rng = np.random.default_rng(0)
    >>> z = rng.normal(size=1000)
    >>> x = np.sin(2 * z) + 0.3 * rng.normal(size=1000)
    >>> y = z**2 + 0.3 * rng.normal(size=1000)
    >>> test = RCoT(random_state=0).bind(np.column_stack([x, y, z]))
    >>> bool(test.test(1, 2).pvalue < 0.01), bool(test.test(0, 1, [2]).pvalue > 0.05)
    (True, True)
    """

    data_kind = "gaussian"
    _augments_y = False
    _parameter_constraints: dict = {
        "n_features": [Interval(Integral, 1, None, closed="left")],
        "n_features_xy": [Interval(Integral, 1, None, closed="left")],
        "null": [StrOptions({"lpb4", "hbe", "gamma"})],
        "random_state": ["random_state"],
    }

    def __init__(
        self, n_features: int = 100, n_features_xy: int = 5, null: str = "lpb4", random_state=None
    ) -> None:
        self.n_features = n_features
        self.n_features_xy = n_features_xy
        self.null = null
        self.random_state = random_state

    def _bind(self, data):
        return _BoundRandomFeatures(self, data)


class RCIT(RCoT):
    """The randomized conditional independence test (Strobl, Zhang & Visweswaran 2019).

    :class:`RCoT` with the conditioning set's variables added to ``y`` before its random
    features are drawn (``y`` becomes ``(y, S)``), as the authors' RCIT tests
    ``x`` independent of ``(y, S)`` given ``S``. RCoT is the authors' recommendation for
    conditioning sets of more than a few variables; RCIT is kept for comparison.

    Parameters
    ----------
    n_features : int, default=100
        Random features of the conditioning set.
    n_features_xy : int, default=5
        Random features of ``x`` and of ``(y, S)``.
    null : {"lpb4", "hbe", "gamma"}, default="lpb4"
        The approximation of the null distribution's tail (as for :class:`RCoT`).
    random_state : int, RandomState instance or None, default=None
        Seeds the random features.

    See Also
    --------
    RCoT : The randomized conditional correlation test.

    Examples
    --------
    >>> import numpy as np
    >>> from skbn.ci_tests import RCIT
    >>> rng = np.random.default_rng(1)
    >>> z = rng.normal(size=1000)
    >>> x, y = z + 0.5 * rng.normal(size=1000), np.tanh(z) + 0.5 * rng.normal(size=1000)
    >>> test = RCIT(random_state=0).bind(np.column_stack([x, y, z]))
    >>> bool(test.test(0, 1).pvalue < 0.01), bool(test.test(0, 1, [2]).pvalue > 0.05)
    (True, True)
    """

    _augments_y = True
