# SPDX-License-Identifier: BSD-3-Clause
"""Upper tails of positively weighted sums of chi-square(1) variables.

``Q = sum_i w_i chi2_1`` is the null distribution of kernel and random-feature test
statistics. Three moment-matching approximations of ``P(Q > q)``, as Bodenham & Adams
(2016) compare them:

* ``"gamma"`` (Satterthwaite-Welch): the Gamma distribution with the mean and variance of
  ``Q``;
* ``"hbe"`` (Hall-Buckley-Eagleson): a shifted and scaled chi-square with its first three
  cumulants;
* ``"lpb4"`` (Lindsay, Pilla & Basak 2000): a mixture of ``p = 4`` Gamma distributions of
  one shape whose first ``2p`` moments are those of ``Q``, the most accurate of the three
  in the tails. With fewer than ``p`` weights, or where its moment equations have no
  solution in floating point, HBE stands in.

Every function returns the natural log of the tail as well, finite where the tail
underflows, for searches that rank strong dependencies.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize, special

from skbn.ci_tests._base import _log_upper_gamma

__all__ = ["weighted_chi2_tail"]

#: The mixture's number of components (and half the number of matched moments).
LPB_COMPONENTS = 4


def _gamma_log_tail(q: float, shape: float, scale: float) -> float:
    """``log P(G > q)`` for ``G`` Gamma(shape, scale); finite where the tail underflows."""
    z = q / scale
    if z <= 0:
        return 0.0
    tail = special.gammaincc(shape, z)
    return math.log(tail) if tail > 1e-300 else _log_upper_gamma(shape, z)


def _sw(weights: np.ndarray, q: float) -> float:
    mean = weights.sum()
    variance = 2.0 * np.sum(weights**2)
    return _gamma_log_tail(q, mean**2 / variance, variance / mean)


def _hbe(weights: np.ndarray, q: float) -> float:
    k1 = weights.sum()
    k2 = 2.0 * np.sum(weights**2)
    k3 = 8.0 * np.sum(weights**3)
    nu = 8.0 * k2**3 / k3**2
    # Q is taken for a chi-square with nu degrees of freedom, standardised to its mean and
    # variance: (Q - k1) / sqrt(k2) = (X - nu) / sqrt(2 nu)
    x = math.sqrt(2.0 * nu / k2) * (q - k1) + nu
    return _gamma_log_tail(x, nu / 2.0, 2.0)


def _raw_moments(weights: np.ndarray, count: int) -> np.ndarray:
    """``E Q^1 .. E Q^count`` from the cumulants ``2^(r-1) (r-1)! sum w^r``."""
    cumulants = np.array(
        [2.0 ** (r - 1) * math.factorial(r - 1) * np.sum(weights**r) for r in range(1, count + 1)]
    )
    moments = np.zeros(count + 1)
    moments[0] = 1.0
    for n in range(1, count + 1):
        moments[n] = sum(
            math.comb(n - 1, k - 1) * cumulants[k - 1] * moments[n - k] for k in range(1, n + 1)
        )
    return moments


def _delta_matrix(shape_inv: float, moments: np.ndarray, size: int) -> np.ndarray:
    """The Hankel matrix of the moments each divided by ``prod_{k<i} (1 + k shape_inv)``.

    Row ``i``, column ``j``: ``m_{i+j} / prod_{k=1}^{i+j-1} (1 + k shape_inv)``; it is
    singular exactly when the moments are those of a ``size - 1``-point mixture of Gamma
    distributions with scale parameter ``shape_inv`` per unit of mean.
    """
    index = np.arange(2 * size - 1)
    divisor = np.cumprod(np.concatenate(([1.0], 1.0 + np.arange(2 * size - 2) * shape_inv)))
    scaled = moments[: 2 * size - 1] / divisor[index]
    return scaled[np.add.outer(np.arange(size), np.arange(size))]


def _lpb(weights: np.ndarray, q: float, p: int = LPB_COMPONENTS) -> float:
    moments = _raw_moments(weights, 2 * p)
    # the common shape's inverse: from the two-moment fit, then shrunk until the (p + 1)
    # point Hankel determinant vanishes, one order at a time
    bound = moments[2] / moments[1] ** 2 - 1.0
    for order in range(2, p + 1):
        bound = optimize.brentq(
            lambda s, m=order: np.linalg.det(_delta_matrix(s, moments, m + 1)), 0.0, bound
        )
    hankel = _delta_matrix(bound, moments, p + 1)
    # the mixture's means: the roots of the polynomial whose coefficients are the
    # determinants with the last column replaced by each unit vector
    coefficients = np.empty(p + 1)
    for i in range(p + 1):
        replaced = hankel.copy()
        replaced[:, p] = 0.0
        replaced[i, p] = 1.0
        coefficients[i] = np.linalg.det(replaced)
    means = np.real(np.roots(coefficients[::-1]))
    # the mixture's weights match the first p scaled moments (a Vandermonde system)
    vandermonde = np.vander(means, p, increasing=True).T
    mix = np.linalg.solve(vandermonde, hankel[:p, 0])
    if not np.all(np.isfinite(means)) or np.any(means <= 0) or np.any(mix <= 0):
        raise FloatingPointError("no Gamma mixture with positive weights matches the moments")
    shape = 1.0 / bound
    logs = [math.log(w) + _gamma_log_tail(q, shape, mu * bound) for w, mu in zip(mix, means)]
    return float(special.logsumexp(logs))


def weighted_chi2_tail(weights, q: float, method: str = "lpb4") -> tuple[float, float]:
    """``P(sum_i w_i chi2_1 > q)`` and its natural log.

    Parameters
    ----------
    weights : array-like of float
        The positive weights ``w_i`` (non-positive ones are dropped).
    q : float
        The statistic.
    method : {"lpb4", "hbe", "gamma"}, default="lpb4"
        The approximation (see the module's docstring).

    Returns
    -------
    pvalue, log_pvalue : float

    Examples
    --------
    >>> p, _ = weighted_chi2_tail([1.5, 1.5, 0.5, 0.5], 10.203)
    >>> round(p, 6)  # the 95% point of the sum (Johnson, Kotz & Balakrishnan, Table 18.6)
    0.049991
    """
    weights = np.asarray(weights, dtype=np.float64)
    weights = weights[weights > 0]
    if len(weights) == 0 or not q > 0:
        return 1.0, 0.0
    if method == "gamma":
        log_p = _sw(weights, q)
    elif method == "hbe" or len(weights) < LPB_COMPONENTS:
        log_p = _hbe(weights, q)
    else:
        try:
            log_p = _lpb(weights, q)
        except (ValueError, FloatingPointError, np.linalg.LinAlgError):
            log_p = _hbe(weights, q)
        if not np.isfinite(log_p) and log_p != -np.inf:
            log_p = _hbe(weights, q)
    log_p = min(log_p, 0.0)
    return math.exp(log_p), log_p
