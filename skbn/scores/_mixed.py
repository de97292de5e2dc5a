# SPDX-License-Identifier: BSD-3-Clause
"""Conditional-Gaussian (CG) scores for data that mixes discrete and continuous columns.

The model is that of bnlearn's conditional-Gaussian networks (Lauritzen's CG distributions
restricted to DAGs): a discrete node has only discrete parents and a multinomial table per
parent configuration; a continuous node has, in every configuration of its discrete parents,
a linear regression on its continuous parents. A discrete node with a continuous parent is
outside the model: such a family scores ``-inf``, and learners rule those arcs out before
searching (:mod:`skbn.constraints`).
"""

from __future__ import annotations

import math

import numpy as np

from skbn._kernels.discrete import LOGLIK, family_score
from skbn._kernels.gaussian import VARIANCE_FLOOR
from skbn._kernels.mixed import strata_labels, stratified_gaussian_loglik
from skbn.data import MixedData
from skbn.scores._base import (
    BoundScore,
    Score,
    _AICPenalty,
    _BICPenalty,
    _EBICPenalty,
    _NoPenalty,
)

__all__ = ["CGLogLikelihood", "CGBIC", "CGAIC", "CGEBIC"]


class _BoundCG(BoundScore):
    """CG log-likelihood of a family minus ``per_param`` per free parameter."""

    def __init__(self, score, data: MixedData, per_param: float) -> None:
        super().__init__(score, data)
        self._per_param = float(per_param)
        self._discrete = data.discrete
        # residual variances are floored relative to the child's variance (as Gaussian ones)
        self._floors = VARIANCE_FLOOR * np.maximum(data.variances, 1e-300)

    def n_parameters(self, child: int, parents) -> int:
        """Free parameters of the family.

        A discrete child: ``(r - 1) * q`` with ``q`` the number of configurations of its
        (discrete) parents. A continuous child with ``k`` continuous parents: ``q * (k + 2)``
        (an intercept, ``k`` coefficients and a variance per configuration), as bnlearn
        counts them.
        """
        parents = np.asarray(parents, dtype=np.int64)
        disc = parents[self._discrete[parents]]
        q = math.prod(int(r) for r in self.data.arities[disc])
        if self._discrete[child]:
            return (int(self.data.arities[child]) - 1) * q
        return q * (len(parents) - len(disc) + 2)

    def loglik(self, child: int, parents: np.ndarray) -> float:
        """Maximised CG log-likelihood of the family (``-inf`` outside the model).

        ``-inf`` for a discrete child with a continuous parent, and for a continuous child
        with a configuration of its discrete parents seen in at most ``k + 1`` rows (too few
        for its regression on ``k`` continuous parents; bnlearn gives such a model density
        zero too). Configurations never seen contribute nothing.
        """
        parents = np.asarray(parents, dtype=np.int64)
        is_disc = self._discrete[parents]
        if self._discrete[child]:
            if not is_disc.all():
                return -np.inf
            return family_score(self.data.codes, self.data.arities, child, parents, LOGLIK, 0.0)
        labels, m = strata_labels(self.data.codes, self.data.arities, parents[is_disc])
        per_stratum, _ = stratified_gaussian_loglik(
            self.data.values, labels, m, child, parents[~is_disc], self._floors[child]
        )
        if np.isnan(per_stratum).any():
            return -np.inf
        return float(per_stratum.sum())

    def _local(self, child, parents):
        value = self.loglik(child, parents)
        if self._per_param and np.isfinite(value):
            value -= self._per_param * self.n_parameters(child, parents)
        return value


_MODEL = """The model is bnlearn's conditional-Gaussian network: discrete nodes have discrete
    parents only (a table per configuration); a continuous node has a linear regression on its
    continuous parents in every configuration of its discrete parents. A discrete node with a
    continuous parent scores ``-inf`` (learners never propose one), and so does a continuous
    node with a parent configuration seen in at most ``k + 1`` rows (``k`` continuous
    parents). Free parameters: ``(r - 1) q`` for a discrete node, ``q (k + 2)`` for a
    continuous one, ``q`` counting every configuration of the discrete parents.

    The score is score-equivalent among the DAGs that keep discrete nodes before continuous
    ones (the only DAGs it scores finitely): reversing a covered arc between two discrete or
    two continuous nodes leaves it unchanged. The likelihood is maximised (variances with
    divisor ``n_s``), where bnlearn's ``loglik-cg`` plugs in unbiased standard deviations, so
    the two differ by a known amount per configuration."""


class _PenalisedCG(Score):
    """A conditional-Gaussian log-likelihood minus a penalty per free parameter."""

    def _penalised_bound(self, data, per_param):
        return _BoundCG(self, data, per_param)


class CGLogLikelihood(_NoPenalty, _PenalisedCG):
    """Maximised conditional-Gaussian log-likelihood, no penalty.

    {model}

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> g = rng.integers(0, 2, 300)
    >>> X = pd.DataFrame({{"g": g.astype(str), "y": 2.0 * g + rng.normal(size=300)}})
    >>> bound = CGLogLikelihood().bind(X)
    >>> bound.local_score("y", ["g"]) > bound.local_score("y")
    True
    >>> bound.local_score("g", ["y"])  # a discrete child of a continuous parent
    -inf
    """

    data_kind = "mixed"


class CGBIC(_BICPenalty, _PenalisedCG):
    """BIC of a conditional-Gaussian network: ``LL - penalty_discount * log(n) / 2 * k``.

    ``k`` is the number of free parameters of the family (below). bnlearn calls it
    ``bic-cg``.

    {model}

    Parameters
    ----------
    penalty_discount : float, default=1.0
        Multiplier of the penalty.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> g = rng.integers(0, 2, 300)
    >>> X = pd.DataFrame({{"g": g.astype(str), "y": 2.0 * g + rng.normal(size=300)}})
    >>> bound = CGBIC().bind(X)
    >>> bound.local_score("y", ["g"]) > bound.local_score("y")
    True
    """

    data_kind = "mixed"


class CGAIC(_AICPenalty, _PenalisedCG):
    """AIC of a conditional-Gaussian network: ``LL - penalty_discount * k``.

    {model}

    Parameters
    ----------
    penalty_discount : float, default=1.0
        Penalty per free parameter.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> g = rng.integers(0, 2, 300)
    >>> X = pd.DataFrame({{"g": g.astype(str), "y": 2.0 * g + rng.normal(size=300)}})
    >>> CGAIC().bind(X).local_score("y", ["g"]) > CGAIC().bind(X).local_score("y")
    True
    """

    data_kind = "mixed"


class CGEBIC(_EBICPenalty, _PenalisedCG):
    """Extended BIC of a conditional-Gaussian network.

    ``LL - penalty_discount * log(n) / 2 * k - gamma * k * log(p)``.

    {model}

    Parameters
    ----------
    gamma : float, default=0.5
        Weight of the ``log(p)`` term.
    penalty_discount : float, default=1.0
        Multiplier of the BIC penalty.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> g = rng.integers(0, 2, 300)
    >>> X = pd.DataFrame({{"g": g.astype(str), "y": 2.0 * g + rng.normal(size=300)}})
    >>> CGEBIC().bind(X).local_score("y", ["g"]) > CGEBIC().bind(X).local_score("y")
    True
    """

    data_kind = "mixed"


for _cls in (CGLogLikelihood, CGBIC, CGAIC, CGEBIC):
    _cls.__doc__ = _cls.__doc__.format(model=_MODEL)
