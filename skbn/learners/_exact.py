# SPDX-License-Identifier: BSD-3-Clause
"""Exact structure search: a globally optimal DAG by dynamic programming over subsets."""

from __future__ import annotations

import os
from numbers import Integral

import numpy as np

from skbn._kernels.exact import best_parent_scores, best_sinks
from skbn.base import BaseStructureLearner
from skbn.constraints import CONSTRAINT_PARAMETERS
from skbn.scores import Score
from skbn.utils._param_validation import Interval

__all__ = ["ExactSearch", "exact_search_memory"]


def exact_search_memory(n_variables: int) -> int:
    """Bytes the dynamic programme holds for ``n_variables`` variables.

    ``p * 2**(p-1)`` best-parent scores plus ``2**p`` subset scores and sinks.
    """
    p = int(n_variables)
    return p * (1 << max(p - 1, 0)) * 8 + (1 << p) * 9


def _physical_memory() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        return None


def _candidate_parent_sets(
    bound,
    child: int,
    p: int,
    max_indegree: int | None,
    allowed: np.ndarray | None = None,
    required: tuple[int, ...] = (),
):
    """Parent sets of ``child`` that can be optimal, with their local scores.

    Sets are grown level by level. A set is kept only if it beats every one of its subsets
    (a set that does not can be replaced by that subset in any DAG). When the score offers
    ``superset_bound``, a set whose bound cannot beat the best of its subsets is not
    extended (de Campos & Ji's pruning for penalised likelihoods).

    Background knowledge: only parents with ``allowed[u]`` are used, and every set holds the
    ``required`` parents (the sets are grown on top of them).
    """
    required = tuple(sorted(required))
    others = [
        j for j in range(p) if j != child and j not in required and (allowed is None or allowed[j])
    ]
    room = len(others) if max_indegree is None else max(0, max_indegree - len(required))
    limit = min(room, len(others))
    base_mask = sum(1 << j for j in required)

    def local(family):
        return bound.local_score(child, tuple(sorted(required + family)))

    empty = local(())
    best_within = {(): empty}  # best score among the subsets of each grown set
    masks, scores = [base_mask], [empty]
    frontier = [()]
    for size in range(1, limit + 1):
        grown = []
        for base in frontier:
            start = others.index(base[-1]) + 1 if base else 0
            for u in others[start:]:
                family = (*base, u)
                subsets = [family[:k] + family[k + 1 :] for k in range(size)]
                if any(s not in best_within for s in subsets):
                    continue  # a subset was not extended, so neither is this set
                within = max(best_within[s] for s in subsets)
                score = local(family)
                if score > within:
                    masks.append(base_mask | sum(1 << j for j in family))
                    scores.append(score)
                best = max(within, score)
                ceiling = bound.superset_bound(child, tuple(sorted(required + family)))
                if ceiling is None or ceiling > best:
                    best_within[family] = best
                    grown.append(family)
        frontier = grown
        if not frontier:
            break
    return np.array(masks, dtype=np.int64), np.array(scores, dtype=np.float64)


class ExactSearch(BaseStructureLearner):
    """A globally optimal DAG for a decomposable score (Silander & Myllymaki 2006).

    1. For every variable, the candidate parent sets and their local scores (up to
       ``max_indegree`` parents; sets beaten by one of their subsets are dropped, and for
       penalised likelihoods -- BIC, AIC, EBIC and their Gaussian versions -- sets whose
       penalty alone rules out every superset are not extended).
    2. For every variable and every subset of the others, the best candidate parent set
       within that subset.
    3. For every subset of the variables, the best network on it and its best sink; the
       optimal order is read back from the full set, and each variable takes its best parent
       set among its predecessors.

    Time and memory grow as ``p * 2**p``: about 25 variables fit in a few GB (see
    :func:`exact_search_memory`). Ties are broken towards lower-numbered sinks and the first
    candidate set found, so the result is deterministic.

    Parameters
    ----------
    criterion : str, Score or None, default=None
        Any decomposable score, by family name (``"bic"``, ``"bdeu"``, ...) or as an object;
        None means the default score: ``EBIC(gamma="auto")`` on discrete data (see
        :class:`~skbn.scores.EBIC`), ``GaussianEBIC(gamma=1)`` on continuous data.
    max_indegree : int, default=None
        Largest parent set; None means no limit.
    max_variables : int, default=25
        Refuse more variables than this (the error gives the memory needed).
    allowed_edges, forbidden_edges, required_edges : iterable of (u, v), DiGraph or array
        Background knowledge (:mod:`skbn.constraints`): the result is optimal among the DAGs
        that use only allowed arcs and contain every required one.
    tiers : list of lists of str, dict or Tiers, default=None
        Background-knowledge order: no arc from a later tier to an earlier one.
    verbose : int, default=0

    Attributes
    ----------
    graph_ : networkx.DiGraph
        The optimal DAG (``kind="dag"``).
    score_ : float
        Its score.
    order_ : list of str
        A topological order of it: the optimal order found by the dynamic programme.
    n_candidate_sets_ : dict
        Candidate parent sets kept per variable.

    References
    ----------
    T. Silander and P. Myllymaki, "A simple approach for finding the globally optimal
    Bayesian network structure", UAI 2006. C. P. de Campos and Q. Ji, "Efficient structure
    learning of Bayesian networks using constraints", JMLR 12, 2011.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> X = load_network("asia").sample(2000, random_state=0)
    >>> est = ExactSearch().fit(X)
    >>> from skbn.scores import BIC
    >>> bool(abs(BIC().score_graph(est.graph_, X) - est.score_) < 1e-6)
    True
    """

    _family_parameters = ("criterion",)
    _constraint_kinds = frozenset({"allowed", "forbidden", "required", "tiers"})
    _runs_in_name_order = True

    _parameter_constraints = {
        "criterion": [Score, str, None],
        "max_indegree": [Interval(Integral, 0, None, closed="left"), None],
        "max_variables": [Interval(Integral, 1, 40, closed="both")],
        **CONSTRAINT_PARAMETERS,
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        criterion: Score | str | None = None,
        *,
        max_indegree: int | None = None,
        max_variables: int = 25,
        allowed_edges=None,
        forbidden_edges=None,
        required_edges=None,
        tiers=None,
        verbose: int = 0,
    ) -> None:
        self.criterion = criterion
        self.max_indegree = max_indegree
        self.max_variables = max_variables
        self.allowed_edges = allowed_edges
        self.forbidden_edges = forbidden_edges
        self.required_edges = required_edges
        self.tiers = tiers
        self.verbose = verbose

    def _prepare(self, data, constraints):
        p = data.n_features
        if self.max_indegree is not None and np.any(
            constraints.required.sum(axis=0) > self.max_indegree
        ):
            raise ValueError("required_edges give some node more parents than max_indegree.")
        need = exact_search_memory(p)
        if p > self.max_variables:
            raise ValueError(
                f"ExactSearch on {p} variables would hold {need / 2**30:.1f} GiB for its "
                f"dynamic programme (time and memory double with each variable); the limit "
                f"is max_variables={self.max_variables}. Use fewer variables or a heuristic "
                "learner (HillClimb, FGES)."
            )
        available = _physical_memory()
        if available is not None and need > 0.8 * available:
            raise ValueError(
                f"ExactSearch on {p} variables needs {need / 2**30:.1f} GiB, more than 80% "
                f"of this machine's {available / 2**30:.1f} GiB."
            )
        return constraints

    def _learn(self, data, constraints):
        # the base runs this on the columns in name order (_runs_in_name_order): ties
        # between equal-scoring networks go to the lowest sink in that order, so the result
        # does not depend on the column order
        required = constraints.required
        allowed = None if constraints.is_empty else constraints.allowed
        p = data.n_features
        bound = self._resolved_score(data).bind(data)
        candidates = []
        bps = np.empty((p, 1 << max(p - 1, 0)))
        for v in range(p):
            masks, scores = _candidate_parent_sets(
                bound,
                v,
                p,
                self.max_indegree,
                None if allowed is None else allowed[:, v],
                tuple(np.flatnonzero(required[:, v]).tolist()),
            )
            candidates.append((masks, scores))
            best_parent_scores(p, v, masks, scores, bps[v])
            if self.verbose:
                print(f"[ExactSearch] {data.names[v]}: {len(masks)} candidate parent sets")
        totals, sinks = best_sinks(p, bps)
        order = []
        w = (1 << p) - 1
        while w:
            v = int(sinks[w])
            order.append(v)
            w ^= 1 << v
        order.reverse()
        A = np.zeros((p, p), dtype=np.int8)
        before = 0
        for v in order:
            masks, scores = candidates[v]
            fits = (masks & ~before) == 0
            k = int(np.flatnonzero(fits)[np.argmax(scores[fits])])
            for u in range(p):
                if masks[k] >> u & 1:
                    A[u, v] = 1
            before |= 1 << v
        self.score_ = float(totals[-1])
        self.order_ = [data.names[v] for v in order]
        self.n_candidate_sets_ = {data.names[v]: len(candidates[v][0]) for v in range(p)}
        return A, "dag"
