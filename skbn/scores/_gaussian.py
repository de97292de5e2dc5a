# SPDX-License-Identifier: BSD-3-Clause
"""Decomposable scores for Gaussian data, from the covariance matrix: BIC, EBIC, BGe."""

from __future__ import annotations

import math
from numbers import Real

import numpy as np

from skbn._kernels.gaussian import (
    addition_gaussian_loglik,
    centred_family_logliks,
    centred_loglik,
    family_logliks,
    gaussian_loglik,
    log_det_block,
    toggle_gaussian_loglik,
)
from skbn.data import GaussianData
from skbn.scores._base import (
    BoundScore,
    Score,
    _AICPenalty,
    _BICPenalty,
    _EBICPenalty,
    _NoPenalty,
)
from skbn.utils._param_validation import Interval

__all__ = ["GaussianLogLikelihood", "GaussianBIC", "GaussianAIC", "GaussianEBIC", "BGe"]


class _BoundGaussianLL(BoundScore):
    """Gaussian log-likelihood of a family minus ``per_param`` per free parameter.

    A family with k parents has k + 2 free parameters (intercept, coefficients, variance).
    With more columns than :data:`~skbn.data.DENSE_COVARIANCE_MAX` no ``(p, p)`` matrix is
    formed: each family's block of the covariance comes from its columns, centred as they
    are read (no centred copy of the data).
    """

    def __init__(self, score, data: GaussianData, per_param: float) -> None:
        super().__init__(score, data)
        self._dense = data.dense_covariance
        self._cov = np.ascontiguousarray(data.covariance) if self._dense else None
        self._per_param = float(per_param)

    def _loglik(self, child, parents):
        if self._dense:
            return gaussian_loglik(self._cov, self.n_samples, child, parents)
        k = len(parents) + 1
        return centred_loglik(
            self.data.columns,
            self.data.means,
            self.n_samples,
            child,
            np.asarray(parents, dtype=np.int64),
            np.empty((k, k)),
            np.empty(k, dtype=np.int64),
            np.empty((k, self.n_samples)),
        )

    def local_scores(self, children, offsets, lengths, pool) -> np.ndarray:
        """Local scores of many families at once, equal to :meth:`_local`'s one by one.

        Family ``i`` is ``children[i]`` with the parents ``pool[offsets[i] : offsets[i] +
        lengths[i]]`` (sorted). Used by searches that hold their families in arrays.
        """
        out = np.empty(children.shape[0])
        if self._dense:
            family_logliks(self._cov, self.n_samples, children, offsets, lengths, pool, out)
        else:
            data = self.data
            centred_family_logliks(
                data.columns, data.means, self.n_samples, children, offsets, lengths, pool, out
            )
        return out - self._per_param * (lengths + 2.0)

    def n_parameters(self, child: int, parents) -> int:
        """Free parameters of the family: intercept, coefficients and variance."""
        return len(parents) + 2

    def _local(self, child, parents):
        return self._loglik(child, parents) - self._per_param * (len(parents) + 2)

    def effect_pairs(self):
        """Pairs ``i < j`` whose single arc (either way) raises the score.

        One parent adds one parameter and ``-n/2 log(1 - r**2)`` to the log-likelihood, so
        the pairs are those with ``r**2 > 1 - exp(-2 per_param / n)``, found by a blocked
        correlation screen (no ``(p, p)`` matrix). None when the score has no penalty.

        Returns
        -------
        tuple of (ndarray, ndarray) or None
        """
        if self._per_param <= 0:
            return None
        r_min = math.sqrt(-math.expm1(-2.0 * self._per_param / self.n_samples))
        rows, cols, _ = self.data.correlated_pairs(r_min)
        return rows, cols

    def superset_bound(self, child, parents):
        # the log-likelihood grows with the parent set, up to that of all other variables
        if self._per_param <= 0 or not self._dense:
            return None
        full = getattr(self, "_full_ll", None)
        if full is None:
            full = self._full_ll = {}
        if child not in full:
            others = np.array([j for j in range(self.n_features) if j != child], dtype=np.int64)
            full[child] = gaussian_loglik(self._cov, self.n_samples, child, others)
        return full[child] - self._per_param * (len(parents) + 2)

    def family_score_args(self):
        """``(dense, values, n, per_param)`` for kernels that score families themselves.

        They give what :meth:`local_scores` gives: from the covariance matrix (``dense``
        True, ``values`` the matrix) or from the columns and their means (``values`` the
        pair ``(columns, means)``, the columns in Fortran order).
        """
        if self._dense:
            return True, self._cov, self.n_samples, self._per_param
        data = self.data
        return False, (data.columns, data.means), self.n_samples, self._per_param

    def gaussian_kernel_args(self):
        """``(cov, diag, n, per_param)`` for kernels that score families themselves.

        The local score is ``gaussian_loglik(cov, n, child, parents) - per_param * (k + 2)``
        for ``k`` parents. None when no dense covariance matrix is held.
        """
        if not self._dense:
            return None
        return self._cov, self._diagonal(), self.n_samples, self._per_param

    def _diagonal(self):
        diag = getattr(self, "_diag", None)
        if diag is None:
            diag = self._diag = np.ascontiguousarray(np.diag(self._cov))
        return diag

    def _additions(self, child, parents):
        if not self._dense:
            return super()._additions(child, parents)
        ll = addition_gaussian_loglik(self._cov, self._diagonal(), self.n_samples, child, parents)
        return ll - self._per_param * (len(parents) + 3.0)

    def _toggle(self, child, parents):
        if self._dense:
            ll = toggle_gaussian_loglik(self._cov, self.n_samples, child, parents)
        else:
            ll = np.array(
                [
                    self._loglik(child, parents)
                    if x == child
                    else self._loglik(child, np.setxor1d(parents, [x]).astype(np.int64))
                    for x in range(self.n_features)
                ]
            )
        k = np.full(self.n_features, len(parents) + 3.0)
        k[parents] = len(parents) + 1.0
        k[child] = len(parents) + 2.0
        return ll - self._per_param * k


class _PenalisedGaussian(Score):
    """A Gaussian log-likelihood minus a penalty per free parameter."""

    def _penalised_bound(self, data, per_param):
        return _BoundGaussianLL(self, data, per_param)


class GaussianLogLikelihood(_NoPenalty, _PenalisedGaussian):
    """Maximised Gaussian log-likelihood (linear regression on the parents), no penalty.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> a = rng.normal(size=200)
    >>> bound = GaussianLogLikelihood().bind(np.column_stack([a, a + rng.normal(size=200)]))
    >>> bound.local_score("x1", ["x0"]) > bound.local_score("x1")
    True
    """

    data_kind = "gaussian"


class GaussianBIC(_BICPenalty, _PenalisedGaussian):
    """BIC of a linear-Gaussian network: ``LL - penalty_discount * log(n) / 2 * k``.

    ``k = |parents| + 2`` per family. Computed from the covariance matrix, so a local score
    costs O(k^3) whatever the number of rows.

    Parameters
    ----------
    penalty_discount : float, default=1.0
        Multiplier of the penalty, as Tetrad's SEM-BIC "penalty discount" (Tetrad reports
        twice this score; the ranking of graphs is the same).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> a = rng.normal(size=500)
    >>> X = np.column_stack([a, a + 0.5 * rng.normal(size=500)])
    >>> bound = GaussianBIC().bind(X)
    >>> bound.local_score("x1", ["x0"]) > bound.local_score("x1")
    True
    """

    data_kind = "gaussian"


class GaussianAIC(_AICPenalty, _PenalisedGaussian):
    """AIC of a linear-Gaussian network: ``LL - penalty_discount * k``, ``k = |parents| + 2``.

    Parameters
    ----------
    penalty_discount : float, default=1.0
        Penalty per free parameter.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> a = rng.normal(size=200)
    >>> bound = GaussianAIC().bind(np.column_stack([a, a + rng.normal(size=200)]))
    >>> bound.local_score("x1", ["x0"]) > bound.local_score("x1")
    True
    """

    data_kind = "gaussian"


class GaussianEBIC(_EBICPenalty, _PenalisedGaussian):
    """Extended BIC for Gaussian data.

    ``LL - penalty_discount * log(n) / 2 * k - gamma * k * log(p)``, ``k = |parents| + 2``.

    Parameters
    ----------
    gamma : float, default=0.5
        Weight of the ``log(p)`` term.
    penalty_discount : float, default=1.0
        Multiplier of the BIC penalty.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> a = rng.normal(size=200)
    >>> bound = GaussianEBIC(gamma=1.0).bind(np.column_stack([a, a + rng.normal(size=200)]))
    >>> bound.local_score("x1", ["x0"]) > bound.local_score("x1")
    True
    """

    data_kind = "gaussian"


class _BoundBGe(BoundScore):
    def __init__(self, score, data: GaussianData, alpha_mu: float, alpha_w: float) -> None:
        super().__init__(score, data)
        n, p = data.n_samples, data.n_features
        self._am, self._aw = alpha_mu, alpha_w
        self._t = alpha_mu * (alpha_w - p - 1) / (alpha_mu + 1)
        # Posterior scale matrix R = T0 + scatter; the prior mean is the sample mean, so the
        # mean term vanishes.
        self._R = np.ascontiguousarray(self._t * np.eye(p) + n * data.covariance)

    def _log_marginal(self, members: np.ndarray) -> float:
        n, p = self.n_samples, self.n_features
        ell = len(members)
        if ell == 0:
            return 0.0
        aw, am, t = self._aw, self._am, self._t
        value = 0.5 * ell * math.log(am / (n + am)) - 0.5 * n * ell * math.log(math.pi)
        for j in range(1, ell + 1):
            value += math.lgamma((n + aw - p + ell - j + 1) / 2) - math.lgamma(
                (aw - p + ell - j + 1) / 2
            )
        value += 0.5 * (aw - p + ell) * ell * math.log(t)
        value -= 0.5 * (n + aw - p + ell) * log_det_block(self._R, members)
        return value

    def _local(self, child, parents):
        family = np.append(parents, child).astype(np.int64)
        return self._log_marginal(family) - self._log_marginal(parents)


class BGe(Score):
    """Bayesian Gaussian equivalent (BGe) score.

    The log marginal likelihood of a family under a normal-Wishart prior (Geiger &
    Heckerman), with the corrected constants of Kuipers, Moffa and Heckerman (2014).

    Parameters
    ----------
    alpha_mu : float, default=1.0
        Equivalent sample size of the prior on the mean (prior mean: the sample mean).
    alpha_w : float, optional
        Degrees of freedom of the Wishart prior; must exceed ``p + 1``. Default ``p + alpha_mu
        + 1``. The prior scale is ``t I`` with ``t = alpha_mu (alpha_w - p - 1) / (alpha_mu +
        1)``.

    References
    ----------
    D. Geiger and D. Heckerman, "Parameter priors for directed acyclic graphical models and
    the characterization of several probability distributions", Annals of Statistics 30, 2002.
    J. Kuipers, G. Moffa and D. Heckerman, "Addendum on the scoring of Gaussian directed
    acyclic graphical models", Annals of Statistics 42, 2014.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> a = rng.normal(size=200)
    >>> bound = BGe().bind(np.column_stack([a, a + rng.normal(size=200)]))
    >>> bound.local_score("x1", ["x0"]) > bound.local_score("x1")
    True
    """

    data_kind = "gaussian"
    _parameter_constraints = {
        "alpha_mu": [Interval(Real, 0, None, closed="neither")],
        "alpha_w": [Interval(Real, 0, None, closed="neither"), None],
    }

    def __init__(self, alpha_mu: float = 1.0, alpha_w: float | None = None) -> None:
        self.alpha_mu = alpha_mu
        self.alpha_w = alpha_w

    def _bind(self, data):
        p = data.n_features
        aw = p + self.alpha_mu + 1 if self.alpha_w is None else float(self.alpha_w)
        if aw <= p + 1:
            raise ValueError(f"BGe needs alpha_w > p + 1 = {p + 1}, got {aw}.")
        return _BoundBGe(self, data, float(self.alpha_mu), aw)
