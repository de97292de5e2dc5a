# SPDX-License-Identifier: BSD-3-Clause
"""Decomposable scores for discrete data: log-likelihood, BIC, AIC, EBIC, BDeu, K2, fNML."""

from __future__ import annotations

import math
from numbers import Real

import numpy as np

from skbn._kernels._threads import parallel_pays
from skbn._kernels.bits import state_bits
from skbn._kernels.discrete import (
    BDEU,
    LOGLIK,
    family_score,
    fnml_family_score,
    pairwise_scores,
    pairwise_scores_serial,
    penalise_toggle_scores,
    toggle_scores,
    toggle_scores_serial,
)
from skbn._kernels.discrete import K2 as K2_KIND
from skbn.data import DiscreteData
from skbn.scores._auto_gamma import choose_gamma
from skbn.scores._base import (
    BoundScore,
    Score,
    _AICPenalty,
    _BICPenalty,
    _NoPenalty,
)
from skbn.utils._param_validation import Interval, StrOptions

__all__ = ["LogLikelihood", "BIC", "AIC", "EBIC", "BDeu", "K2", "FNML"]

#: Largest memory the row bitsets of a data set may take (bytes); beyond it, row passes only.
_STATE_BITS_MAX_BYTES = 64 * 2**20


class _BoundDiscrete(BoundScore):
    """Discrete family scores: a kernel statistic plus a per-parameter penalty."""

    def __init__(self, score, data: DiscreteData, kind: int, param: float, per_param: float):
        super().__init__(score, data)
        self._kind = kind
        self._param = float(param)
        self._per_param = float(per_param)
        self._codes = data.codes
        self._arities = data.arities
        self._bits = None

    def _state_bits(self):
        """Row bitsets of every state (see :mod:`skbn._kernels.bits`), built on first use.

        Empty when they would take more than ``_STATE_BITS_MAX_BYTES``.
        """
        if self._bits is None:
            n, p = self._codes.shape
            size = int(self._arities.sum()) * ((n + 63) // 64) * 8
            if size <= _STATE_BITS_MAX_BYTES:
                self._bits = state_bits(self._codes, self._arities)
            else:
                self._bits = (np.zeros((0, 0), dtype=np.uint64), np.zeros(p + 1, dtype=np.int64))
        return self._bits

    def n_parameters(self, child: int, parents) -> int:
        """Free parameters of the family: ``(r_child - 1) * prod(r_parents)``."""
        # Python integers: a product of many arities overflows int64 silently
        q = math.prod(int(r) for r in self._arities[np.asarray(parents, dtype=np.int64)])
        return (int(self._arities[child]) - 1) * q

    def _local(self, child, parents):
        value = family_score(self._codes, self._arities, child, parents, self._kind, self._param)
        if self._per_param:
            value -= self._per_param * self.n_parameters(child, parents)
        return value

    def superset_bound(self, child, parents):
        # a discrete log-likelihood is at most 0 and a superset has at least as many
        # parameters, so the penalty of `parents` bounds every superset's score
        if self._kind != LOGLIK or self._per_param <= 0:
            return None
        return -self._per_param * self.n_parameters(child, parents)

    def pairwise_scores(self):
        # one count per unordered pair serves both directions
        kernel = pairwise_scores if parallel_pays(self._codes.size) else pairwise_scores_serial
        S = kernel(self._codes, self._arities, self._kind, self._param, *self._state_bits())
        if self._per_param:
            r = self._arities.astype(float)
            k = np.outer(r, r - 1)  # (r_y - 1) * r_x for y with the parent x
            np.fill_diagonal(k, r - 1)
            S = S - self._per_param * k
        return S

    def _toggle(self, child, parents):
        kernel = toggle_scores if parallel_pays(self._codes.size) else toggle_scores_serial
        scores = kernel(
            self._codes, self._arities, child, parents, self._kind, self._param, *self._state_bits()
        )
        return penalise_toggle_scores(scores, self._arities, child, parents, self._per_param)


class _PenalisedDiscrete(Score):
    """A discrete log-likelihood minus a penalty per free parameter."""

    def _penalised_bound(self, data, per_param):
        return _BoundDiscrete(self, data, LOGLIK, 0.0, per_param)


class LogLikelihood(_NoPenalty, _PenalisedDiscrete):
    """Maximised log-likelihood of discrete data (no penalty; always prefers more arcs).

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 1, 1]})
    >>> round(LogLikelihood().bind(X).local_score("b", ["a"]), 4)  # 2 log(1/2)
    -1.3863
    """


class BIC(_BICPenalty, _PenalisedDiscrete):
    """Bayesian information criterion for discrete data.

    ``LL - penalty_discount * log(n) / 2 * k`` with ``k`` the free parameters,
    ``(r - 1) * q`` per family.

    Parameters
    ----------
    penalty_discount : float, default=1.0
        Multiplier of the penalty (Tetrad's "penalty discount"); above 1 gives sparser graphs.

    See Also
    --------
    AIC : A penalty of ``penalty_discount`` per parameter (bnlearn's ``bic`` with ``k``).
    EBIC : Adds ``gamma * k * log(p)`` for high-dimensional problems.

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 1, 1]})
    >>> round(BIC().bind(X).local_score("b", ["a"]), 4)  # -1.3863 - log(4)/2 * 2
    -2.7726
    """


class AIC(_AICPenalty, _PenalisedDiscrete):
    """Akaike information criterion: ``LL - penalty_discount * k``.

    With ``penalty_discount=c`` this equals bnlearn's ``bic`` score with ``k=c``, the scale the
    OTSL experiments tune.

    Parameters
    ----------
    penalty_discount : float, default=1.0
        Penalty per free parameter.

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 1, 1]})
    >>> round(AIC().bind(X).local_score("b", ["a"]), 4)  # -1.3863 - 2 parameters
    -3.3863
    """


class EBIC(_PenalisedDiscrete):
    """Extended BIC: ``LL - base * k - gamma * k * log(p)`` (p = number of variables).

    Parameters
    ----------
    gamma : float or "auto", default=0.5
        Weight of the ``log(p)`` term; 0 gives back the base criterion. ``"auto"`` chooses it
        from the data when the score is bound: the smallest ``gamma`` (on a grid of 0.01)
        at which the pairs of columns whose one-edge gain passes the penalty are at most
        ``chance_share`` chance (the number expected if every pair were independent, from
        each pair's chi-square tail), or at most one chance pair is expected in all. Where
        BIC expects less than one chance pair, or few beside the real ones, this is 0 and
        the score is the base criterion exactly; among thousands of mostly unrelated
        columns it is near 1. It is the default discrete score (chosen by measurement:
        ``examples/benchmarks/wide_discrete.py``). The bound score's ``score.gamma`` is the
        value chosen.
    penalty_discount : float, default=1.0
        Multiplier of the base penalty. With ``gamma="auto"`` a discount below 1 is mostly
        made up by a larger ``gamma`` (the rule counts chance pairs under the whole
        penalty); to search penalties below BIC's, name ``BIC(penalty_discount=...)``.
    base : {"bic", "aic"}, default="bic"
        Base penalty per parameter: ``penalty_discount * log(n) / 2`` ("bic", the textbook
        EBIC) or ``penalty_discount`` ("aic"). OTSL's normalised EBIC is
        ``EBIC(gamma=(P - 1) / 20, base="aic")`` for a configuration with penalty ``P``.
    chance_share : float, default=0.05
        With ``gamma="auto"``: the largest share of the passing pairs that may be chance.

    References
    ----------
    J. Chen and Z. Chen, "Extended Bayesian information criteria for model selection with
    large model spaces", Biometrika 95(3), 2008.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> X = pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 1, 1]})
    >>> # -1.3863 - 2 parameters * (log(4) / 2 + 1 * log(2 variables))
    >>> round(EBIC(gamma=1).bind(X).local_score("b", ["a"]), 4)
    -4.1589

    With ``"auto"``, 300 unrelated fair coins over 200 rows get a large ``gamma``; the same
    number of rows of two related columns keep BIC's penalty:

    >>> rng = np.random.default_rng(0)
    >>> coins = pd.DataFrame(rng.integers(0, 2, (200, 300))).add_prefix("c")
    >>> EBIC(gamma="auto").bind(coins).score.gamma
    1.12
    >>> a = rng.integers(0, 2, 200)
    >>> pair = pd.DataFrame({"a": a, "b": a ^ (rng.random(200) < 0.2)})
    >>> EBIC(gamma="auto").bind(pair).score.gamma
    0.0
    """

    _parameter_constraints = {
        "gamma": [Interval(Real, 0, None, closed="left"), StrOptions({"auto"})],
        "penalty_discount": [Interval(Real, 0, None, closed="left")],
        "base": [StrOptions({"bic", "aic"})],
        "chance_share": [Interval(Real, 0, 1, closed="both")],
    }

    def __init__(
        self,
        gamma: float | str = 0.5,
        penalty_discount: float = 1.0,
        base: str = "bic",
        chance_share: float = 0.05,
    ):
        self.gamma = gamma
        self.penalty_discount = penalty_discount
        self.base = base
        self.chance_share = chance_share

    def _per_parameter(self, n_samples, n_features):
        unit = math.log(n_samples) / 2 if self.base == "bic" else 1.0
        # "auto" is resolved when the score is bound (_for_data); unresolved, its gamma is
        # the least it can be
        gamma = 0.0 if self.gamma == "auto" else self.gamma
        return self.penalty_discount * unit + gamma * math.log(max(n_features, 1))

    def _for_data(self, data) -> EBIC:
        """The score with ``gamma`` resolved on ``data`` (itself unless ``"auto"``)."""
        if not (isinstance(self.gamma, str) and self.gamma == "auto"):
            return self
        gamma = choose_gamma(data, self.base, self.penalty_discount, self.chance_share)
        return EBIC(gamma, self.penalty_discount, self.base, self.chance_share)

    def _bind(self, data):
        resolved = self._for_data(data)
        return super()._bind(data) if resolved is self else resolved._bind(data)

    def _bind_incomplete(self, data):
        resolved = self._for_data(data)
        return (
            super()._bind_incomplete(data) if resolved is self else resolved._bind_incomplete(data)
        )


class BDeu(Score):
    """Bayesian Dirichlet equivalent uniform score (log marginal likelihood).

    Dirichlet parameters ``iss / (q * r)`` per cell, so that Markov-equivalent DAGs score the
    same.

    Parameters
    ----------
    iss : float, default=1.0
        Imaginary (equivalent) sample size.

    References
    ----------
    D. Heckerman, D. Geiger and D. M. Chickering, "Learning Bayesian networks: the
    combination of knowledge and statistical data", Machine Learning 20, 1995.

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 1, 1]})
    >>> from math import lgamma
    >>> # cells of b given a: (1, 1) and (0, 2), Dirichlet 1/4 per cell and 1/2 per row
    >>> row = lambda counts: lgamma(0.5) - lgamma(0.5 + sum(counts)) + sum(
    ...     lgamma(0.25 + c) - lgamma(0.25) for c in counts)
    >>> bool(abs(BDeu(iss=1).bind(X).local_score("b", ["a"]) - row([1, 1]) - row([0, 2])) < 1e-9)
    True
    """

    _parameter_constraints = {"iss": [Interval(Real, 0, None, closed="neither")]}

    def __init__(self, iss: float = 1.0) -> None:
        self.iss = iss

    def _bind(self, data):
        return _BoundDiscrete(self, data, BDEU, float(self.iss), 0.0)


class K2(Score):
    """The K2 score (Cooper & Herskovits): Dirichlet parameters all 1. Not score-equivalent.

    References
    ----------
    G. F. Cooper and E. Herskovits, "A Bayesian method for the induction of probabilistic
    networks from data", Machine Learning 9, 1992.

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 1, 1]})
    >>> round(K2().bind(X).local_score("b", ["a"]), 4)  # -log(3!) + (-log(3!) + log(2!))
    -2.8904
    """

    def _bind(self, data):
        return _BoundDiscrete(self, data, K2_KIND, 0.0, 0.0)


class _BoundFNML(BoundScore):
    def __init__(self, score, data: DiscreteData):
        super().__init__(score, data)
        self._codes = data.codes
        self._arities = data.arities
        self._regrets: dict[int, np.ndarray] = {}

    def _local(self, child, parents):
        r = int(self._arities[child])
        table = self._regrets.get(r)
        if table is None:
            table = self._regrets[r] = np.full(self.n_samples + 1, np.nan)
        return fnml_family_score(self._codes, self._arities, child, parents, table)

    def _toggle(self, child, parents):
        current = set(parents.tolist())
        values = np.empty(self.n_features)
        for x in range(self.n_features):
            family = current if x == child else current ^ {x}
            values[x] = self._local(child, np.array(sorted(family), dtype=np.int64))
        return values


class FNML(Score):
    """Factorized normalized maximum likelihood (Silander, Roos, Kontkanen & Myllymaki 2008).

    For each configuration ``j`` of the parents, the maximised log-likelihood of the child's
    counts minus the log of the multinomial regret ``C(N_j, r)``, the normalising sum of the
    NML distribution over all data sets of that size. No hyperparameter; not score-equivalent.
    The regrets use the O(N_j) binomial sum for ``r = 2`` and Kontkanen & Myllymaki's
    linear-time recurrence in ``r`` for more states.

    References
    ----------
    T. Silander, T. Roos, P. Kontkanen and P. Myllymaki, "Factorized normalized maximum
    likelihood criterion for learning Bayesian network structures", PGM 2008.
    P. Kontkanen and P. Myllymaki, "A linear-time algorithm for computing the multinomial
    stochastic complexity", Information Processing Letters 103(6), 2007.

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 1, 1]})
    >>> # 4 log(1/2) - log C(4, 2), with C(4, 2) = 1 + 4 * 27/256 + 6/16 + 4 * 27/256 + 1
    >>> round(FNML().bind(X).local_score("a"), 4)
    -3.9416
    """

    data_kind = "discrete"

    def _bind(self, data):
        return _BoundFNML(self, data)
