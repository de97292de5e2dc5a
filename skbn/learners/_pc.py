# SPDX-License-Identifier: BSD-3-Clause
"""PC-Stable: order-independent constraint-based structure learning."""

from __future__ import annotations

import itertools
import warnings
from numbers import Integral, Real

import numpy as np
from scipy import special, stats

from skbn._kernels.ci import pc_level_fisher_z
from skbn.base import BaseStructureLearner
from skbn.ci_tests import CITest
from skbn.constraints import CONSTRAINT_PARAMETERS
from skbn.graph._array import (
    dag_to_cpdag_array,
    meek_orient_array,
    name_rank,
    pdag_to_dag_array,
    reaches,
)
from skbn.learners._sepsets import RemovalLog, SeparatingSets
from skbn.utils._parallel import N_JOBS_CONSTRAINT, effective_n_jobs, numba_threads, parallel_map
from skbn.utils._param_validation import Interval
from skbn.utils._warnings import stack_level

__all__ = ["PCStable"]


#: A level of PCStable whose CI tests could exceed this many, with unbounded conditioning
#: sets, gets a warning (dense data: the number grows as the subsets of each adjacency).
LARGE_LEVEL_TESTS = 10_000_000


def _separate_discrete(bound, alpha, x, y, pool, level, cache):
    """First conditioning set (lexicographic in ``pool``) that separates x and y, or None.

    ``cache`` maps (min(x, y), max(x, y), set) to the p-value: the same test comes up from
    both ends of an edge.
    """
    lo, hi = min(x, y), max(x, y)
    for cond in itertools.combinations(pool, level):
        key = (lo, hi, frozenset(cond))
        pvalue = cache.get(key)
        if pvalue is None:
            pvalue = bound.test_positions(x, y, np.array(cond, dtype=np.int64)).pvalue
            cache[key] = pvalue
        if pvalue > alpha:
            return cond
    return None


def _level_discrete(bound, alpha, pairs, pools, level, n_jobs, cache):
    def run(chunk):
        return [
            _separate_discrete(bound, alpha, x, y, pools[k], level, cache) for k, (x, y) in chunk
        ]

    indexed = list(enumerate(pairs))
    workers = effective_n_jobs(n_jobs)
    if workers == 1 or len(indexed) < 64:
        return run(indexed)
    size = max(1, len(indexed) // (8 * workers))
    chunks = [indexed[i : i + size] for i in range(0, len(indexed), size)]
    parts = parallel_map(run, chunks, n_jobs=n_jobs, prefer="threads")
    return [s for part in parts for s in part]


def orient_pc(
    adj: np.ndarray,
    sepsets: RemovalLog,
    rank: np.ndarray,
    required: np.ndarray,
    forbidden: np.ndarray,
) -> tuple[np.ndarray, int]:
    """Orient a skeleton: colliders from separating sets, background knowledge, Meek's rules.

    An edge that two v-structures would orient in opposite directions is left undirected
    (a conflict); the number of conflicts is returned with the PDAG. An arrow that would close
    a directed cycle with the arrows before it (in name order) is not applied, and Meek's
    rules leave undirected an edge whose orientation would close one: the PDAG has no
    directed cycle.
    """
    p = adj.shape[0]
    A = adj.astype(np.int8)
    arrows = set()
    for z in sorted(range(p), key=lambda v: rank[v]):
        nbrs = sorted(np.flatnonzero(adj[z]).tolist(), key=lambda v: rank[v])
        for i in range(len(nbrs)):
            for j in range(i + 1, len(nbrs)):
                x, y = nbrs[i], nbrs[j]
                if adj[x, y]:
                    continue
                if not sepsets.in_some_set(x, y, z):
                    arrows.add((x, z))
                    arrows.add((y, z))
    conflicts = {(a, b) for a, b in arrows if (b, a) in arrows}
    # arrows in name order of (head, tail); one that would close a directed cycle with those
    # already applied is left out (conflicting colliders), so the output has no cycle
    for a, b in sorted(arrows - conflicts, key=lambda arc: (rank[arc[1]], rank[arc[0]])):
        if not reaches((A == 1) & (A.T == 0), b, a):
            A[b, a] = 0
    # background knowledge: a required arc, or the only allowed direction of an edge
    for a, b in zip(*np.nonzero(adj & forbidden & ~forbidden.T)):
        A[a, b], A[b, a] = 0, 1
    for a, b in zip(*np.nonzero(required)):
        A[a, b], A[b, a] = 1, 0
    # Meek's rules in name order: after a conflict the result can depend on the order in
    # which edges are visited, and name order does not depend on the column order
    by_name = np.argsort(rank)
    M = meek_orient_array(
        A[np.ix_(by_name, by_name)], forbidden[np.ix_(by_name, by_name)], acyclic=True
    )
    out = np.empty_like(M)
    out[np.ix_(by_name, by_name)] = M
    return out, len(conflicts) // 2


class PCStable(BaseStructureLearner):
    """The PC-Stable algorithm: a skeleton from conditional-independence tests, then Meek.

    Edges are removed level by level: at level ``l`` every adjacent pair is tested given every
    set of ``l`` neighbours, and the adjacencies are frozen during the level, so the skeleton
    does not depend on the order of the variables (Colombo & Maathuis 2014). Conditioning sets
    are enumerated in the order of the variable *names*, so the separating sets do not depend
    on the column order either. An unshielded triple x - z - y becomes a collider when z is in
    none of the separating sets found for (x, y) (from either end, as causal-learn does); an
    edge that two colliders orient in opposite directions is left undirected; Meek's rules,
    applied in name order, then orient what follows. When colliders conflict, an arrowhead
    or a Meek orientation that would close a directed cycle is not made (colliders in name
    order of head, then tail), so the output never holds a directed cycle.

    Parameters
    ----------
    ci_test : str, CITest or None, default=None
        The test, by family name (``"chi_square"``, ``"g_sq"``, ``"mi_shrink"``,
        ``"fisher_z"``; see :func:`~skbn.ci_tests.get_ci_test_names`) or as an object. None
        means ``"g_sq"`` (:class:`~skbn.ci_tests.GSquare`) on discrete data and ``"fisher_z"``
        (:class:`~skbn.ci_tests.FisherZ`) on continuous data.
    alpha : float, default=0.05
        Significance level: x and y are judged independent given S when the p-value exceeds
        ``alpha``.
    max_cond_size : int, default=None
        Largest conditioning set tested (the "depth"); None for no limit.
    allowed_edges, forbidden_edges, required_edges : iterable of (u, v), DiGraph or array
        Background knowledge. A pair with neither arc allowed (or both forbidden) is never
        adjacent; a pair with one arc ruled out is oriented the other way, and Meek's rules
        never orient against it; a required arc is never removed and is oriented as given.
        With background knowledge the output is a PDAG.
    tiers : list of lists of str, dict or Tiers, default=None
        Background-knowledge order (:class:`~skbn.constraints.Tiers`): edges between tiers
        are oriented forward, and pairs within a tier whose arcs are forbidden are never
        adjacent.
    n_jobs : int, default=None
        Threads testing the pairs of a level (discrete tests) or numba threads (Fisher-z); the
        result is identical to the serial run.
    verbose : int, default=0
        Above 0, print the number of adjacencies left after each level.

    Attributes
    ----------
    graph_ : networkx.DiGraph
        ``graph_.graph["kind"]`` is "cpdag", or "pdag" when background knowledge or
        orientation conflicts leave a graph that is not a CPDAG.
    sepsets_ : Mapping
        ``frozenset({u, v}) -> list of tuple``: the separating sets found for each removed
        pair (one per end that found one in the level where the pair was removed); named
        when read, and equal to the dict it stands for.
    n_conflicts_ : int
        Edges left undirected because two colliders oriented them in opposite directions.
    n_tests_levels_ : list of int
        Number of pairs tested at each level.
    parameters_ : object or None
        Parameters of a consistent DAG extension (None if the PDAG has none).

    References
    ----------
    D. Colombo and M. H. Maathuis, "Order-independent constraint-based causal structure
    learning", JMLR 15, 2014. P. Spirtes, C. Glymour and R. Scheines, "Causation, Prediction,
    and Search", 2000.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from skbn.learners import PCStable
    >>> X = load_network("asia").sample(5000, random_state=0)
    >>> pc = PCStable(alpha=0.01).fit(X)
    >>> pc.graph_.graph["kind"] in ("cpdag", "pdag")
    True
    """

    _family_parameters = ("ci_test",)
    _handles_missing = True
    _constraint_kinds = frozenset({"allowed", "forbidden", "required", "tiers"})
    _parameter_constraints = {
        "ci_test": [CITest, str, None],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
        "max_cond_size": [Interval(Integral, 0, None, closed="left"), None],
        **CONSTRAINT_PARAMETERS,
        "n_jobs": N_JOBS_CONSTRAINT,
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        ci_test: CITest | str | None = None,
        *,
        alpha: float = 0.05,
        max_cond_size: int | None = None,
        allowed_edges=None,
        forbidden_edges=None,
        required_edges=None,
        tiers=None,
        n_jobs: int | None = None,
        verbose: int = 0,
    ) -> None:
        self.ci_test = ci_test
        self.alpha = alpha
        self.max_cond_size = max_cond_size
        self.allowed_edges = allowed_edges
        self.forbidden_edges = forbidden_edges
        self.required_edges = required_edges
        self.tiers = tiers
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _resolved_test(self, data) -> CITest:
        return self._resolve_family("ci_test", data)

    def _prepare(self, data, constraints):
        return constraints.forbidden, constraints.required

    def _skeleton(self, data, forbidden, required, start=None):
        """PC-Stable's levels of tests, from the complete graph or ``start``'s adjacencies.

        Returns ``(adj, sepsets, rank, levels)``.
        """
        bound = self._resolved_test(data).bind(data)
        rank = name_rank(data.names)
        adj = ~(forbidden & forbidden.T)
        if start is not None:
            adj &= start | required | required.T
        np.fill_diagonal(adj, False)
        keep = required | required.T
        sepsets = RemovalLog(len(rank))
        cache: dict = {}
        levels = []
        # the batched Fisher-z kernel reads the correlation matrix of complete data
        corr = bound.correlation_matrix()
        gaussian = corr is not None
        z_crit = float(stats.norm.isf(self.alpha / 2))
        level = 0
        warned = False
        by_name = np.argsort(rank, kind="stable")  # positions in name order
        while self.max_cond_size is None or level <= self.max_cond_size:
            # each node's neighbours in name order, padded with -1 (the level's frozen
            # adjacencies), and the ordered pairs (x, y) whose x has enough neighbours
            degrees = adj.sum(axis=1).astype(np.int64)
            width = max(1, int(degrees.max(initial=0)))
            in_name_order = adj[:, by_name]
            slots = np.argsort(~in_name_order, axis=1, kind="stable")[:, :width]
            table = np.where(np.arange(width) < degrees[:, None], by_name[slots], -1).astype(
                np.int64
            )
            xs, js = np.nonzero((table >= 0) & (degrees[:, None] - 1 >= level))
            ys = table[xs, js]
            fixed = keep[xs, ys]
            xs, ys = xs[~fixed], ys[~fixed]
            if len(xs) == 0:
                break
            if self.max_cond_size is None and not warned:
                # each pair tests up to C(|adj(x)| - 1, level) sets at this level
                worst = float(special.comb(degrees[xs] - 1, level).sum())
                if worst > LARGE_LEVEL_TESTS:
                    warned = True
                    warnings.warn(
                        f"PCStable's level {level} may run {worst:.3g} CI tests: the graph "
                        "is still dense (data whose columns all depend on each other), and "
                        "with max_cond_size=None every subset of each adjacency is tried. "
                        "Bound the conditioning sets with max_cond_size (e.g. 3), or use "
                        "BOSS or FGES, whose cost grows with the edges.",
                        UserWarning,
                        stacklevel=stack_level(),
                    )
            levels.append(len(xs))
            pair_array = np.column_stack([xs, ys]).astype(np.int64)
            if gaussian:
                removed, seps = pc_level_fisher_z(
                    corr,
                    bound.n_samples,
                    table,
                    degrees,
                    pair_array,
                    level,
                    z_crit,
                )
                hits = np.flatnonzero(removed)
                hx, hy, conds = xs[hits], ys[hits], seps[hits, :level]
            else:
                pairs = list(zip(xs.tolist(), ys.tolist()))
                rows = table.tolist()
                pools = [[v for v in rows[x][: degrees[x]] if v != y] for x, y in pairs]
                found = _level_discrete(bound, self.alpha, pairs, pools, level, self.n_jobs, cache)
                hits = np.array([i for i, cond in enumerate(found) if cond is not None], int)
                hx, hy = xs[hits], ys[hits]
                conds = np.array([found[i] for i in hits], dtype=np.int64).reshape(len(hits), level)
            _record_removals(sepsets, adj, rank, hx, hy, conds)
            if self.verbose:
                print(f"PCStable level {level}: {int(adj.sum() // 2)} adjacencies left")
            level += 1
        return adj, sepsets, rank, levels

    def _learn(self, data, prepared):
        forbidden, required = prepared
        gaussian = self._resolved_test(data).threaded_kernels
        with numba_threads(self.n_jobs if gaussian else None):
            adj, sepsets, rank, levels = self._skeleton(data, forbidden, required)
        A, conflicts = orient_pc(adj, sepsets, rank, required, forbidden)
        self.sepsets_ = SeparatingSets(sepsets, data.names)
        self.n_conflicts_ = conflicts
        self.n_tests_levels_ = levels
        dag = pdag_to_dag_array(A)
        kind = "pdag"
        if dag is not None and np.array_equal(dag_to_cpdag_array(dag), A):
            kind = "cpdag"
        return A, kind


def _record_removals(sepsets: RemovalLog, adj: np.ndarray, rank: np.ndarray, xs, ys, conds) -> None:
    """Apply one level's removals ``(xs[i], ys[i])`` separated by ``conds[i]``.

    A pair separated from both of its ends keeps both sets, the one found from the end that
    comes first by name first; each set is held in name order.
    """
    if len(xs) == 0:
        return
    order = np.lexsort((rank[ys], rank[xs]))
    xs, ys, conds = xs[order], ys[order], conds[order]
    if conds.shape[1] > 1:
        conds = np.take_along_axis(conds, np.argsort(rank[conds], axis=1, kind="stable"), 1)
    adj[xs, ys] = adj[ys, xs] = False
    sepsets.add_level(xs, ys, conds)
