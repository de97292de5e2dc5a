# SPDX-License-Identifier: BSD-3-Clause
"""DirectLiNGAM: a causal order of linear non-Gaussian data, then adaptive-lasso weights."""

from __future__ import annotations

from numbers import Real

import numpy as np

from skbn._kernels.lingam import adaptive_lasso_weights, order_scores, regress_out
from skbn.base import BaseStructureLearner
from skbn.constraints import CONSTRAINT_PARAMETERS, Tiers
from skbn.utils._parallel import N_JOBS_CONSTRAINT, numba_threads
from skbn.utils._param_validation import Interval

__all__ = ["DirectLiNGAM"]


class DirectLiNGAM(BaseStructureLearner):
    """DirectLiNGAM: the full DAG of a linear model with non-Gaussian noise.

    On continuous data from a linear structural equation model whose noises are independent
    and non-Gaussian, the direction of every arc is identifiable (Shimizu et al. 2006), so
    the learner returns a DAG, not an equivalence class. The causal order is found one
    variable at a time (Shimizu et al. 2011): the next is the one whose pairwise likelihood
    ratios (Hyvarinen & Smith 2013, the maximum-entropy approximation of the differential
    entropy) say it causes the others, which are then replaced by their residuals on it. The
    arcs are then each variable's regression on those before it, pruned by the adaptive
    lasso with BIC (Zou 2006) and refitted by least squares on the original scale.

    A step compares every remaining pair once (``d_ji = -d_ij``) in a numba kernel, so the
    order costs ``O(p^3 n / 6)`` with the pairs spread over ``n_jobs`` threads, the
    exponentials and logarithms in SIMD arithmetic. The weights come from the moment matrix:
    the lasso's LARS path and its BIC are computed in a kernel that picks the predictors
    scikit-learn's ``LassoLarsIC`` picks, without a pass over the rows.

    Parameters
    ----------
    gamma : float, default=1.0
        The adaptive lasso's exponent: predictors are weighted by ``|OLS coefficient|^gamma``.
    allowed_edges, forbidden_edges : iterable of (u, v), DiGraph or array, default=None
        Arcs the result may (only) use / may not use: left out of the child's regression.
    required_edges : iterable of (u, v), DiGraph or array, default=None
        Arcs the result must hold: the parent comes before the child in the order, and stays
        in the child's final regression whatever the lasso keeps.
    tiers : list of lists of str, dict or Tiers, default=None
        Background-knowledge order: a variable of an earlier tier always comes before one of
        a later tier in the causal order (lingam's prior knowledge "no directed path from
        the later to the earlier").
    n_jobs : int, default=None
        Number of numba threads comparing the pairs; the result does not depend on it.

    Attributes
    ----------
    graph_ : networkx.DiGraph
        The DAG (``graph_.graph["kind"] == "dag"``).
    causal_order_ : list of str
        The variables in the order found, causes first.
    adjacency_matrix_ : ndarray of shape (n_features, n_features)
        ``adjacency_matrix_[i, j]`` is the coefficient of the arc ``i -> j`` (0 without one),
        on the data's scale. (lingam's ``adjacency_matrix_`` is its transpose.)
    parameters_ : object
        The linear-Gaussian parameters fitted on ``graph_``.

    See Also
    --------
    skbn.datasets.make_additive_noise : Linear data with non-Gaussian noise
        (``mechanism="linear", noise="uniform"``).

    Notes
    -----
    Under Gaussian noise the order is arbitrary (every direction fits equally); a learner of
    the equivalence class (BOSS, PC-Stable) is the right tool there. Ties between candidates
    go to the first column in name order (lingam: in the data's order).

    References
    ----------
    S. Shimizu, T. Inazumi, Y. Sogawa, A. Hyvarinen, Y. Kawahara, T. Washio, P. O. Hoyer
    and K. Bollen. DirectLiNGAM: a direct method for learning a linear non-Gaussian
    structural equation model. JMLR 12, 2011. A. Hyvarinen and S. M. Smith. Pairwise
    likelihood ratios for estimation of non-Gaussian structural equation models. JMLR 14,
    2013.

    Examples
    --------
    >>> import networkx as nx
    >>> from skbn.datasets import make_additive_noise
    >>> from skbn.learners import DirectLiNGAM
    >>> truth = nx.DiGraph([("a", "b"), ("b", "c"), ("a", "c")])
    >>> model = make_additive_noise(truth, mechanism="linear", noise="uniform", random_state=0)
    >>> est = DirectLiNGAM().fit(model.sample(2000, random_state=0))
    >>> est.causal_order_, sorted(est.graph_.edges)
    (['a', 'b', 'c'], [('a', 'b'), ('a', 'c'), ('b', 'c')])
    """

    _parameter_constraints: dict = {
        "gamma": [Interval(Real, 0, None, closed="neither")],
        **CONSTRAINT_PARAMETERS,
        "n_jobs": N_JOBS_CONSTRAINT,
    }
    _constraint_kinds = frozenset({"allowed", "forbidden", "required", "tiers"})
    # exact ties between candidates go to the first column: in name order, so the data's
    # column order cannot decide them
    _runs_in_name_order = True
    _positional_attributes = ("adjacency_matrix_",)

    def __init__(
        self,
        gamma: float = 1.0,
        allowed_edges=None,
        forbidden_edges=None,
        required_edges=None,
        tiers=None,
        n_jobs: int | None = None,
    ) -> None:
        self.gamma = gamma
        self.allowed_edges = allowed_edges
        self.forbidden_edges = forbidden_edges
        self.required_edges = required_edges
        self.tiers = tiers
        self.n_jobs = n_jobs

    def _required_data_kind(self) -> str:
        return "gaussian"

    def _precedence(self, names, constraints) -> np.ndarray:
        """``P[a, b]``: ``a`` must come before ``b`` (required arcs, tiers)."""
        precede = constraints.required.copy()
        if self.tiers is not None:
            tiers = Tiers.coerce(self.tiers)
            rank = np.array([-1 if tiers.tier_of(v) is None else tiers.tier_of(v) for v in names])
            tiered = rank >= 0
            precede |= (rank[:, None] < rank[None, :]) & tiered[:, None] & tiered[None, :]
        np.fill_diagonal(precede, False)
        return precede

    def _learn(self, data, constraints):
        X = np.asarray(data.values, dtype=np.float64)
        n, p = X.shape
        if n <= p:
            raise ValueError(
                f"DirectLiNGAM needs more rows than columns to choose each variable's parents "
                f"by BIC (the last in the order regresses on all {p - 1} others); got "
                f"{n} rows and {p} columns. Give it more rows or fewer columns."
            )
        precede = self._precedence(data.names, constraints)
        work = np.array(X.T, order="C")  # a copy: the kernel writes residuals into it
        remaining = np.arange(p)
        order = []
        with numba_threads(self.n_jobs):
            for _ in range(p):
                blocked = precede[np.ix_(remaining, remaining)].any(axis=0)
                candidates = ~blocked
                if not candidates.any():
                    raise ValueError(
                        "The tiers and required_edges admit no causal order (they form a "
                        "cycle); remove the conflicting knowledge."
                    )
                if candidates.sum() == 1:
                    local = int(np.flatnonzero(candidates)[0])
                else:
                    local = int(np.argmin(order_scores(work, candidates)))
                regress_out(work, local)
                order.append(int(remaining[local]))
                keep = np.arange(len(remaining)) != local
                work = np.ascontiguousarray(work[keep])
                remaining = remaining[keep]
        weights = self._weights(X, order, constraints)
        self.causal_order_ = [data.names[j] for j in order]
        self.adjacency_matrix_ = weights
        return (weights != 0).astype(np.int8), "dag"

    def _weights(self, X, order, constraints) -> np.ndarray:
        """Each variable's adaptive-lasso regression on those before it."""
        covariance = np.atleast_2d(np.cov(X, rowvar=False, bias=True))  # 2-d for one column
        return adaptive_lasso_weights(
            covariance,
            np.asarray(order, dtype=np.int64),
            np.ascontiguousarray(constraints.allowed, dtype=np.bool_),
            np.ascontiguousarray(constraints.required, dtype=np.bool_),
            float(self.gamma),
            X.shape[0],
        )
