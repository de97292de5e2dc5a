# SPDX-License-Identifier: BSD-3-Clause
"""RFCI: FCI without the Possible-D-Sep stage, its skeleton checked on triples and paths.

Colombo, Maathuis, Kalisch and Richardson (2012) replace FCI's costly Possible-D-Sep stage
by tests that only the orientation needs:

1. PC-Stable's skeleton and one separating set per removed pair;
2. (their Algorithm 4.4) each unshielded triple ``i - j - k`` is kept only when ``i - j``
   and ``j - k`` both stay dependent given ``sepset(i, k)`` without ``j``; an edge found
   independent is removed with a minimal separating set (a subset of that set), and the
   triples its removal leaves unshielded join the queue. The kept triples with ``j`` outside
   the separating set are the colliders;
3. (their Algorithm 4.5) Zhang's rules, R4 checking the discriminating path first: each
   pair of successive nodes on it must stay dependent given every subset of the separating
   set of its ends (the pair left out). A pair found independent loses its edge, the new
   unshielded triples go through step 2, and the rules start again on the changed graph;
   a path that passes decides its collider by that separating set.

The result is an RFCI-PAG: a missing edge is a found independence, a tail an ancestor and
an arrowhead a non-ancestor in every MAG consistent with the tests; it may keep edges that
FCI's Possible-D-Sep stage would remove.
"""

from __future__ import annotations

import itertools
from collections import deque

import numpy as np

from skbn.graph._fci_rules import apply_rules
from skbn.graph._fci_schedule import tetrad_final_orientation
from skbn.graph._pag import ARROW
from skbn.learners._fci import FCI, _marks_with_knowledge, _SepsetSearch
from skbn.learners._pc import PCStable
from skbn.learners._sepsets import SeparatingSets
from skbn.utils._parallel import numba_threads

__all__ = ["RFCI"]


class _EdgesRemoved(Exception):
    """A discriminating path's check removed edges: the rules restart on the new graph."""

    def __init__(self, edges: list[tuple[int, int]]):
        super().__init__(edges)
        self.edges = edges


class _RFCIChecks:
    """The tests of RFCI's Algorithms 4.4 and 4.5 on one fit's adjacency and separating sets."""

    def __init__(self, bound, adj: np.ndarray, sepsets: dict, keep: np.ndarray, alpha: float):
        self.bound = bound
        self.adj = adj
        self.sep = sepsets  # frozenset({u, v}) -> tuple of positions, one set per pair
        self.keep = keep
        self.alpha = alpha
        self.cache: dict = {}
        self.n_tests = 0
        self.n_removed = 0

    def _independent(self, x: int, y: int, cond) -> bool:
        cond = tuple(sorted(cond))
        key = (min(x, y), max(x, y), cond)
        if key not in self.cache:
            self.n_tests += 1
            pvalue = self.bound.test_positions(x, y, np.array(cond, dtype=np.int64)).pvalue
            self.cache[key] = pvalue > self.alpha
        return self.cache[key]

    def _first_separating(self, x: int, y: int, pool) -> tuple | None:
        """The smallest subset of ``pool`` (lexicographic within a size) separating x, y."""
        pool = sorted(set(pool) - {x, y})
        for size in range(len(pool) + 1):
            for cond in itertools.combinations(pool, size):
                if self._independent(x, y, cond):
                    return cond
        return None

    def _remove(self, x: int, y: int, sep: tuple) -> None:
        self.adj[x, y] = self.adj[y, x] = False
        self.sep[frozenset((x, y))] = sep
        self.n_removed += 1

    def unshielded(self, triples) -> set:
        """Algorithm 4.4 on ``triples`` ``(i, j, k)``, ``i < k``: the colliders it keeps."""
        adj = self.adj
        queue = deque(sorted(triples))
        kept: list = []
        while queue:
            i, j, k = queue.popleft()
            if not (adj[i, j] and adj[j, k]) or adj[i, k]:
                continue  # an edge of the triple went, or the triple is shielded
            sep = self.sep.get(frozenset((i, k)))
            if sep is None:
                continue  # never tested: both arcs ruled out by knowledge
            base = [v for v in sep if v != j]
            removed = []
            for r in (i, k):
                if not self.keep[r, j] and self._independent(r, j, base):
                    removed.append(r)
            if not removed:
                kept.append((i, j, k))
                continue
            for r in removed:
                self._remove(r, j, self._first_separating(r, j, base))
            for r in removed:
                a, c = min(r, j), max(r, j)
                for m in np.flatnonzero(adj[a] & adj[c]).tolist():
                    queue.append((a, m, c))
        return {
            (i, j, k)
            for i, j, k in kept
            if adj[i, j] and adj[j, k] and not adj[i, k] and j not in self.sep[frozenset((i, k))]
        }

    def unshielded_by_centre(self) -> set:
        """Algorithm 4.4 in Tetrad's order: the colliders it keeps.

        The triples ``(i, j, k)`` centre by centre (``j``, then the pairs of its neighbours);
        a removed edge's new unshielded triples are queued node by node, as Tetrad's
        ``Rfci`` queues them.
        """
        adj, keep = self.adj, self.keep
        p = adj.shape[0]
        queue = deque(
            (i, j, k)
            for j in range(p)
            for i, k in itertools.combinations(np.flatnonzero(adj[j]).tolist(), 2)
            if not adj[i, k]
        )
        kept: list = []
        while queue:
            i, j, k = queue.popleft()
            if not (adj[i, j] and adj[j, k]) or adj[i, k]:
                continue
            sep = self.sep.get(frozenset((i, k)))
            if sep is None:
                continue
            base = [v for v in sep if v != j]
            first = not keep[i, j] and self._independent(i, j, base)
            second = not keep[j, k] and self._independent(j, k, base)
            if not (first or second):
                kept.append((i, j, k))
                continue
            if first:
                self._remove(i, j, self._first_separating(i, j, base))
            if second:
                self._remove(j, k, self._first_separating(j, k, base))
            for m in range(p):
                if first and adj[m, i] and adj[m, j]:
                    queue.append((i, m, j))
                if second and adj[m, j] and adj[m, k]:
                    queue.append((j, m, k))
        return {
            (min(i, k), j, max(i, k))
            for i, j, k in kept
            if adj[i, j] and adj[j, k] and not adj[i, k] and j not in self.sep[frozenset((i, k))]
        }

    def discriminating(self, theta, alpha, beta, gamma, path):
        """R4 after Algorithm 4.5's check of the path's successive pairs."""
        sep = self.sep.get(frozenset((theta, gamma)))
        if sep is None:
            return None
        nodes = [theta, *path, beta, gamma]
        removed = []
        for r, q in itertools.pairwise(nodes):
            if self.keep[r, q]:
                continue
            pool = [v for v in sep if v not in (r, q)]
            for size in range(len(pool) + 1):
                found = next(
                    (c for c in itertools.combinations(pool, size) if self._independent(r, q, c)),
                    None,
                )
                if found is not None:
                    removed.append((r, q, found))
                    break
        if removed:
            for r, q, found in removed:
                self._remove(r, q, found)
            raise _EdgesRemoved([(r, q) for r, q, _ in removed])
        return beta not in sep


def _orient_colliders(M: np.ndarray, colliders, required: np.ndarray) -> None:
    """``a *-> b <-* c`` for each triple, except where a required arc puts a tail at ``b``."""
    for a, b, c in colliders:
        for end in (a, c):
            if not required[b, end]:
                M[end, b] = ARROW


class RFCI(FCI):
    """RFCI: a PAG for hidden common causes, without FCI's Possible-D-Sep stage.

    FCI's Possible-D-Sep stage tests each edge given subsets of sets that grow with the
    graph, which dominates its time on large or dense graphs. RFCI (Really Fast Causal
    Inference) tests only what its orientations rest on: each unshielded triple's two
    edges given the separating set of its ends (an edge found independent is removed), and
    the successive pairs of each discriminating path before the path decides a collider.
    Zhang's complete rules orient the rest.

    The output is an *RFCI-PAG*: every missing edge is a found independence, every tail an
    ancestor and every arrowhead a non-ancestor of the MAGs the tests allow; where an edge
    joins two variables that only a set beyond both ends' adjacencies separates, RFCI keeps
    it and FCI removes it. On sparse graphs the two agree on most marks (the hidden-causes
    page measures it).

    Parameters
    ----------
    ci_test : str, CITest or None, default=None
        The test, by family name or object, as for :class:`PCStable`: None is ``"g_sq"`` on
        discrete data and ``"fisher_z"`` on continuous data.
    alpha : float, default=0.05
        Significance level of every test.
    max_cond_size : int, default=None
        Largest conditioning set of the skeleton (Tetrad's "depth"); None for no limit. The
        triple and path checks condition on subsets of separating sets, no larger.
    max_path_length : int, default=None
        Longest discriminating path, in edges; None for no limit.
    allowed_edges, forbidden_edges, required_edges : iterable of (u, v), DiGraph or array
        Background knowledge, as for :class:`FCI`; a required edge is never tested away.
    tiers : list of lists of str, dict or Tiers, default=None
        Background-knowledge order: a later tier does not cause an earlier one.
    variant : {"standard", "tetrad"}, default="standard"
        ``"tetrad"`` makes the choices of Tetrad 7.6.8's ``Rfci``, for comparisons mark for
        mark: step 2 takes the triples centre by centre (as Tetrad lists them, not sorted
        by their first node), no path check removes edges, and the rules run in Tetrad's
        schedule (as for ``FCI(variant="tetrad")``), R4 deciding each discriminating path
        by Tetrad's recursive blocking set of its ends (else the first separating set of
        an end's adjacencies that holds the path). Background knowledge is not taken.
    n_jobs : int, default=None
        Threads of the skeleton's tests; the result is identical to the serial run.
    verbose : int, default=0
        Above 0, print the skeleton's levels and the edges the checks removed.

    Attributes
    ----------
    graph_ : networkx.DiGraph
        The RFCI-PAG: ``graph_.graph["kind"] == "pag"``, both arcs of every edge, each with
        the ``mark`` at its head (see :mod:`skbn.graph`).
    sepsets_ : Mapping
        ``frozenset({u, v}) -> list of one tuple``: the separating set of each removed pair
        that RFCI used (minimal for the pairs its checks removed).
    n_removed_ : int
        Edges of the skeleton that the triple and path checks removed.
    n_tests_levels_ : list of int
        Pairs tested at each skeleton level.
    n_r4_conflicts_ : int
        With ``variant="tetrad"``: triples that two discriminating paths decided
        differently (the first one listed set the marks); 0 otherwise.
    order_dependent_edges_ : list of tuple
        With ``variant="tetrad"``: edges that step 2 removes, or colliders it finds, only
        with one of the two separating sets of a pair separated from both of its ends at
        one level (the first is used; Tetrad's threads pick either); empty otherwise.
    parameters_ : None
        A PAG holds no single DAG to put parameters on.

    See Also
    --------
    FCI : With the Possible-D-Sep stage: the PAG itself in the large-sample limit.
    BOSSFCI : A score search's graph corrected by tests.

    Notes
    -----
    Tetrad's ``Rfci`` runs step 2 as here but decides discriminating paths with its FCI's
    test-based R4 (a search for a blocking set), without Algorithm 4.5's check of the
    path; skbn follows the paper (``variant="tetrad"`` follows Tetrad). Each pair keeps one
    separating set: the first that the skeleton found (smallest, then lexicographic by
    name).

    References
    ----------
    D. Colombo, M. H. Maathuis, M. Kalisch and T. S. Richardson, "Learning
    high-dimensional directed acyclic graphs with latent and selection variables", Annals
    of Statistics 40(1), 2012.

    Examples
    --------
    >>> import networkx as nx
    >>> from skbn.datasets import make_linear_gaussian
    >>> from skbn.graph import marked_edges
    >>> from skbn.learners import RFCI
    >>> dag = nx.DiGraph([("a", "b"), ("L", "b"), ("L", "c"), ("d", "c")])
    >>> X = make_linear_gaussian(dag, random_state=0).sample(2000, random_state=0)
    >>> marked_edges(RFCI(alpha=0.01).fit(X.drop(columns="L")).graph_)
    ['a o-> b', 'b <-> c', 'd o-> c']
    """

    _parameter_constraints = {
        name: rule for name, rule in FCI._parameter_constraints.items() if name != "possible_dsep"
    }

    def __init__(
        self,
        ci_test=None,
        *,
        alpha: float = 0.05,
        max_cond_size: int | None = None,
        max_path_length: int | None = None,
        allowed_edges=None,
        forbidden_edges=None,
        required_edges=None,
        tiers=None,
        variant: str = "standard",
        n_jobs: int | None = None,
        verbose: int = 0,
    ) -> None:
        PCStable.__init__(
            self,
            ci_test,
            alpha=alpha,
            max_cond_size=max_cond_size,
            allowed_edges=allowed_edges,
            forbidden_edges=forbidden_edges,
            required_edges=required_edges,
            tiers=tiers,
            n_jobs=n_jobs,
            verbose=verbose,
        )
        self.max_path_length = max_path_length
        self.variant = variant

    def _learn(self, data, prepared):
        forbidden, required = prepared
        tetrad = self.variant == "tetrad"
        if tetrad:
            self._refuse_knowledge()
        test = self._resolved_test(data)
        with numba_threads(self.n_jobs if test.threaded_kernels else None):
            adj, sepsets, _, levels = self._skeleton(data, forbidden, required)
        # one separating set per pair: the first found (levels run smallest first)
        one = sepsets.one_each(0)
        checks = _RFCIChecks(test.bind(data), adj, one, required | required.T, self.alpha)
        p = adj.shape[0]
        triples = [
            (i, j, k)
            for j in range(p)
            for i, k in itertools.combinations(np.flatnonzero(adj[j]).tolist(), 2)
            if not adj[i, k]
        ]
        max_length = -1 if self.max_path_length is None else self.max_path_length
        self.n_r4_conflicts_ = 0
        self.order_dependent_edges_ = []
        if tetrad:
            # a pair separated from both ends at one level has two sets; Tetrad's threads
            # decide which it keeps, so step 2 also runs with the other one, to report
            # the edges and colliders that choice changes
            last = sepsets.one_each(-1)
            other = _RFCIChecks(checks.bound, adj.copy(), last, required | required.T, self.alpha)
            other.cache = checks.cache
            other_colliders = other.unshielded_by_centre()
            colliders = checks.unshielded_by_centre()
            changed = {frozenset(e) for e in zip(*np.nonzero(np.triu(adj ^ other.adj)))}
            for a, b, c in colliders ^ other_colliders:
                changed |= {frozenset((a, b)), frozenset((b, c))}
            names = data.names
            self.order_dependent_edges_ = sorted(
                tuple(sorted(names[v] for v in pair)) for pair in changed
            )
            M = _marks_with_knowledge(
                adj, lambda a, b, c: (a, b, c) in colliders, forbidden, required
            )
            search = _SepsetSearch(checks.bound, adj, self.alpha)
            conflicts = tetrad_final_orientation(
                M, search.recursive_blocking(M), max_path_length=max_length
            )
            self.n_r4_conflicts_ = len(set(conflicts))
            return self._finish_rfci(data, M, checks, levels)
        colliders = checks.unshielded(triples)
        M = _marks_with_knowledge(adj, lambda a, b, c: (a, b, c) in colliders, forbidden, required)
        while True:
            try:
                apply_rules(M, checks.discriminating, max_path_length=max_length)
                break
            except _EdgesRemoved as change:
                new = []
                for r, q in change.edges:
                    a, c = min(r, q), max(r, q)
                    M[a, c] = M[c, a] = 0
                    new += [(a, m, c) for m in np.flatnonzero(adj[a] & adj[c]).tolist()]
                colliders = checks.unshielded(new)
                M[~adj] = 0  # the triple checks may have removed more
                _orient_colliders(M, colliders, required)
        return self._finish_rfci(data, M, checks, levels)

    def _finish_rfci(self, data, M, checks, levels):
        if self.verbose:
            print(f"RFCI: {checks.n_removed} edges removed by the triple and path checks")
        self.n_removed_ = checks.n_removed
        self.sepsets_ = SeparatingSets(checks.sep, data.names, single=True)
        self.n_tests_levels_ = levels
        return M, "pag"
