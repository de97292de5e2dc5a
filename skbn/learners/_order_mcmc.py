# SPDX-License-Identifier: BSD-3-Clause
"""Order MCMC (Friedman & Koller), restricted to a PC skeleton as in Kuipers et al.'s hybrid."""

from __future__ import annotations

import itertools
from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_random_state

from skbn._kernels.order import run_order_chain
from skbn.base import BaseStructureLearner
from skbn.ci_tests import CITest
from skbn.constraints import CONSTRAINT_PARAMETERS
from skbn.graph._convert import to_adjacency
from skbn.learners._pc import PCStable
from skbn.scores import Score
from skbn.utils._param_validation import Interval, StrOptions
from skbn.utils._random import draw_seed

__all__ = ["OrderMCMC"]

#: Largest number of possible parents of one node when max_indegree is not set.
MAX_CANDIDATE_PARENTS = 16


def _respecting(order: np.ndarray, required: np.ndarray) -> np.ndarray:
    """The order closest to ``order`` in which every required parent comes before its child.

    Kahn's algorithm on the required arcs, taking the available node that comes first in
    ``order``; without required arcs ``order`` is returned as it is.
    """
    if not required.any():
        return order
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order))
    waiting = required.sum(axis=0)
    available = [int(v) for v in order if waiting[v] == 0]
    out = []
    while available:
        v = min(available, key=lambda u: position[u])
        available.remove(v)
        out.append(v)
        for child in np.flatnonzero(required[v]).tolist():
            waiting[child] -= 1
            if waiting[child] == 0:
                available.append(child)
    return np.array(out, dtype=np.int64)


class OrderMCMC(BaseStructureLearner):
    """Order MCMC in the space of a PC skeleton ("hybrid MCMC"), with the MAP DAG as output.

    A Metropolis-Hastings chain over topological orders (swaps of two positions, adjacent
    half of the time). An order's score sums, over the variables, the log of the summed
    exponentiated local scores of every candidate parent set among its predecessors, so a
    state averages over all DAGs consistent with the order. Candidate parents are the
    variable's neighbours in a PC-Stable skeleton (``search_space="pc"``, as in Kuipers,
    Suter and Moffa's hybrid scheme) or all other variables (``None``).

    The output is the best-scoring DAG among those consistent with the orders the chain
    visited after burn-in (and the best orders met before). ``edge_probabilities_`` estimates
    each arc's posterior from one DAG drawn per kept state. The chain is seeded by
    ``random_state`` and runs in a numba kernel.

    Parameters
    ----------
    criterion : str, Score or None, default=None
        Decomposable score used as the log marginal likelihood (``"bdeu"`` or ``"bge"`` for a
        Bayesian reading), by family name or as an object; None means the default score
        (``EBIC(gamma="auto")`` on discrete data, ``GaussianEBIC(gamma=1)`` on continuous
        data).
    search_space : {"pc"} or None, default="pc"
    ci_test : str, CITest or None, default=None
        Test of the PC-Stable skeleton, by family name (``"chi_square"``, ``"fisher_z"``, ...)
        or as an object; None means ``"g_sq"`` on discrete and ``"fisher_z"`` on continuous
        data.
    alpha : float, default=0.05
        Significance level of the skeleton's tests.
    max_cond_size : int, default=None
        Largest conditioning set of the skeleton's tests (None: unlimited).
    max_indegree : int, default=None
        Largest parent set; None allows any subset of the candidate parents (at most
        ``MAX_CANDIDATE_PARENTS`` of them per variable).
    n_iter : int, default=10000
    burn_in : float or int, default=0.2
        Iterations discarded before sampling: a fraction of ``n_iter`` (float < 1) or a count.
    thin : int, default=10
        Keep every ``thin``-th state after burn-in.
    allowed_edges, forbidden_edges, required_edges : iterable of (u, v), DiGraph or array
        Background knowledge (:mod:`skbn.constraints`): candidate parent sets use only allowed
        arcs and always hold the required parents, so every sampled DAG honours it.
    tiers : list of lists of str, dict or Tiers, default=None
        Background-knowledge order: no arc from a later tier to an earlier one.
    random_state : int, RandomState instance or None, default=None
    verbose : int, default=0

    Attributes
    ----------
    graph_ : networkx.DiGraph
        The MAP DAG found (``kind="dag"``).
    score_ : float
        Its score.
    edge_probabilities_ : ndarray of shape (n_features, n_features)
        Posterior frequency of each arc ``i -> j`` among the sampled DAGs.
    order_ : list of str
        The best order met.
    trace_ : ndarray of shape (n_iter,)
        Order score at every iteration.
    acceptance_rate_ : float
    candidate_parents_ : dict
        The allowed parents of every variable.

    References
    ----------
    N. Friedman and D. Koller, "Being Bayesian about network structure", Machine Learning 50,
    2003. J. Kuipers, P. Suter and G. Moffa, "Efficient sampling and structure learning of
    Bayesian networks", JCGS 31(3), 2022.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> X = load_network("asia").sample(3000, random_state=0)
    >>> est = OrderMCMC(n_iter=2000, random_state=0).fit(X)
    >>> est.edge_probabilities_.shape
    (8, 8)
    """

    _family_parameters = ("criterion", "ci_test")
    _constraint_kinds = frozenset({"allowed", "forbidden", "required", "tiers"})
    _runs_in_name_order = True
    _positional_attributes = ("edge_probabilities_",)

    _parameter_constraints = {
        "criterion": [Score, str, None],
        "search_space": [StrOptions({"pc"}), None],
        "ci_test": [CITest, str, None],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
        "max_cond_size": [Interval(Integral, 0, None, closed="left"), None],
        "max_indegree": [Interval(Integral, 0, None, closed="left"), None],
        "n_iter": [Interval(Integral, 1, None, closed="left")],
        "burn_in": [
            Interval(Real, 0, 1, closed="left"),
            Interval(Integral, 0, None, closed="left"),
        ],
        "thin": [Interval(Integral, 1, None, closed="left")],
        **CONSTRAINT_PARAMETERS,
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        criterion: Score | str | None = None,
        *,
        search_space: str | None = "pc",
        ci_test: CITest | str | None = None,
        alpha: float = 0.05,
        max_cond_size: int | None = None,
        max_indegree: int | None = None,
        n_iter: int = 10_000,
        burn_in: float = 0.2,
        thin: int = 10,
        allowed_edges=None,
        forbidden_edges=None,
        required_edges=None,
        tiers=None,
        random_state=None,
        verbose: int = 0,
    ) -> None:
        self.criterion = criterion
        self.search_space = search_space
        self.ci_test = ci_test
        self.alpha = alpha
        self.max_cond_size = max_cond_size
        self.max_indegree = max_indegree
        self.n_iter = n_iter
        self.burn_in = burn_in
        self.thin = thin
        self.allowed_edges = allowed_edges
        self.forbidden_edges = forbidden_edges
        self.required_edges = required_edges
        self.tiers = tiers
        self.random_state = random_state
        self.verbose = verbose

    def _prepare(self, data, constraints):
        if self.max_indegree is not None and np.any(
            constraints.required.sum(axis=0) > self.max_indegree
        ):
            raise ValueError("required_edges give some node more parents than max_indegree.")
        if data.n_features > 63:
            raise ValueError(
                f"OrderMCMC handles at most 63 variables (parent sets are 64-bit masks); X "
                f"has {data.n_features}. Use PEFLearner(OrderMCMC(...)) for more."
            )
        return constraints

    def _candidate_parents(self, data) -> list[list[int]]:
        p = data.n_features
        if self.search_space is None:
            return [[u for u in range(p) if u != v] for v in range(p)]
        pc = PCStable(self.ci_test, alpha=self.alpha, max_cond_size=self.max_cond_size)
        pc = pc.fit(data.to_frame())
        A = to_adjacency(pc.graph_, list(data.names))
        S = (A | A.T) != 0
        return [np.flatnonzero(S[:, v]).tolist() for v in range(p)]

    def _learn(self, data, constraints):
        # the base runs the chain on the columns in name order (its random draws are
        # positions) and maps its results back, so they do not depend on the column order
        required_all = constraints.required
        allowed_all = constraints.allowed
        p = data.n_features
        bound = self._resolved_score(data).bind(data)
        allowed = self._candidate_parents(data)
        offsets, masks, scores = [0], [], []
        for v in range(p):
            required = np.flatnonzero(required_all[:, v]).tolist()
            cands = [u for u in allowed[v] if allowed_all[u, v] and u not in required]
            room = len(cands) + len(required)
            if self.max_indegree is None and room > MAX_CANDIDATE_PARENTS:
                raise ValueError(
                    f"Variable {data.names[v]!r} has {room} possible parents, more than "
                    f"{MAX_CANDIDATE_PARENTS}; set max_indegree to bound the parent sets."
                )
            limit = len(cands)
            if self.max_indegree is not None:
                limit = min(self.max_indegree - len(required), len(cands))
            for size in range(limit + 1):
                for extra in itertools.combinations(cands, size):
                    family = tuple(sorted(required + list(extra)))
                    masks.append(sum(1 << u for u in family))
                    scores.append(bound.local_score(v, family))
            offsets.append(len(masks))
        rng = check_random_state(self.random_state)
        start = _respecting(rng.permutation(p).astype(np.int64), required_all)
        seed = draw_seed(rng)
        burn = int(self.burn_in * self.n_iter) if isinstance(self.burn_in, float) else self.burn_in
        burn = min(burn, self.n_iter - 1)
        (
            trace,
            best_order,
            _,
            edge_counts,
            n_samples,
            best_dag,
            best_score,
            n_accepted,
        ) = run_order_chain(
            np.array(offsets, dtype=np.int64),
            np.array(masks, dtype=np.int64),
            np.array(scores, dtype=np.float64),
            start,
            self.n_iter,
            burn,
            self.thin,
            seed,
        )
        A = np.zeros((p, p), dtype=np.int8)
        for v in range(p):
            for u in range(p):
                if best_dag[v] >> u & 1:
                    A[u, v] = 1
        names = list(data.names)
        self.score_ = float(best_score)
        self.edge_probabilities_ = edge_counts / max(n_samples, 1)
        self.order_ = [names[v] for v in best_order]
        self.trace_ = trace
        self.acceptance_rate_ = n_accepted / self.n_iter
        positions = self._data_positions()
        back = range(p) if positions is None else np.argsort(positions).tolist()
        self.candidate_parents_ = {names[v]: [names[u] for u in allowed[v]] for v in back}
        return A, "dag"
