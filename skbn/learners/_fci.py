# SPDX-License-Identifier: BSD-3-Clause
"""FCI: structure with hidden common causes, from conditional-independence tests."""

from __future__ import annotations

import itertools
from numbers import Integral

import numpy as np
from sklearn.utils.metaestimators import available_if

from skbn._kernels.pag_rules import unshielded_triples
from skbn._kernels.possible_dsep import (
    possible_dsep,
    possible_dsep_stage_fisher_z,
    tetrad_possible_dsep,
)
from skbn.base import BaseStructureLearner
from skbn.graph._fci_rules import apply_rules, orient_unshielded_colliders
from skbn.graph._fci_schedule import (
    recursive_ddp_sepset,
    tetrad_final_orientation,
)
from skbn.graph._pag import ARROW, CIRCLE, TAIL
from skbn.learners._pc import PCStable
from skbn.learners._sepsets import SeparatingSets
from skbn.utils._parallel import numba_threads
from skbn.utils._param_validation import Interval, StrOptions

__all__ = ["FCI"]


def _marks_with_knowledge(adj: np.ndarray, collider, forbidden, required) -> np.ndarray:
    """Circles on the skeleton, R0 by ``collider(a, b, c)``, then the background knowledge.

    ``collider`` is a callable, or the colliders ``(a, b, c)`` as three arrays. A forbidden
    arc ``u -> v`` (``u`` does not cause ``v``) puts an arrowhead at ``u``; a required arc
    ``u -> v`` makes ``u --> v``.
    """
    M = np.where(adj, CIRCLE, 0).astype(np.int8)
    if callable(collider):
        orient_unshielded_colliders(M, collider)
    else:  # R0 sets arrowheads only, so the triples' order does not matter
        a, b, c = collider
        M[a, b] = ARROW
        M[c, b] = ARROW
    for u, v in zip(*np.nonzero(adj & forbidden & ~forbidden.T)):
        M[v, u] = ARROW
    for u, v in zip(*np.nonzero(required & adj)):
        M[u, v], M[v, u] = ARROW, TAIL
    return M


def _tetrad_possible_dsep(M: np.ndarray, x: int, max_length: int = 3) -> list[int]:
    """Possible-D-Sep of ``x`` as Tetrad 7.6.8 computes it (``Paths.possibleDsep``).

    Breadth first over edges ``(a, b)`` from ``x``, up to ``max_length`` edges, continuing
    through ``b`` to ``c`` when ``b`` is a collider on ``a, b, c`` or ``a`` and ``c`` are
    adjacent. The neighbours of ``x`` belong; a later ``b`` belongs when some node seen next
    to it (other than ``x``) has a semi-directed path to ``x`` or to ``b``
    (:func:`skbn._kernels.possible_dsep.tetrad_possible_dsep`).
    """
    marks = np.ascontiguousarray(M, dtype=np.int8)
    return tetrad_possible_dsep(marks, int(x), int(max_length)).tolist()


def _possible_dsep_pairs(adj: np.ndarray) -> list[tuple[int, int]]:
    """The edges of the ``"tetrad"`` Possible-D-Sep stage, in the order they are tested."""
    return [(int(x), int(y)) for x, y in zip(*np.nonzero(np.triu(adj, 1)))]


class _SepsetSearch:
    """Separating sets searched again on the current adjacencies (Tetrad's R0 and R4).

    The first subset, smallest first and in column order, of ``adj(x) - {y}``, then of
    ``adj(y) - {x}``, that holds ``containing`` and that the test accepts.
    """

    def __init__(self, bound, adj: np.ndarray, alpha: float):
        self.bound, self.adj, self.alpha = bound, adj, alpha
        self.pvalues: dict = {}
        self.colliders_cache: dict = {}
        self.blocking_cache: dict = {}

    def independent(self, x: int, y: int, cond) -> bool:
        key = (min(x, y), max(x, y), tuple(sorted(cond)))
        if key not in self.pvalues:
            cond = np.array(key[2], dtype=np.int64)
            self.pvalues[key] = self.bound.test_positions(x, y, cond).pvalue
        return self.pvalues[key] > self.alpha

    def find(self, x: int, y: int, containing=()) -> set | None:
        need = set(containing)
        for a, b in ((x, y), (y, x)):
            pool = [v for v in np.flatnonzero(self.adj[a]).tolist() if v != b]
            if not need <= set(pool):
                continue
            for size in range(len(need), len(pool) + 1):
                for cond in itertools.combinations(pool, size):
                    if need <= set(cond) and self.independent(x, y, cond):
                        return set(cond)
        return None

    def colliders(self) -> np.ndarray:
        """Circles on the skeleton, then R0 by separating sets searched again."""
        self.colliders_cache.clear()
        M = np.where(self.adj, CIRCLE, 0).astype(np.int8)

        def collider(a, b, c):
            if (a, c) not in self.colliders_cache:
                self.colliders_cache[(a, c)] = self.find(a, c)
            sepset = self.colliders_cache[(a, c)]
            return sepset is not None and b not in sepset

        orient_unshielded_colliders(M, collider)
        return M

    def blocking(self, x: int, y: int, path, keep: bool) -> set | None:
        """R4's set for FCI (Tetrad's greedy blocking).

        The first separating subset of an end's adjacencies holding the path; the first
        answer for a pair is kept.
        """
        pair = frozenset((x, y))
        if self.blocking_cache.get(pair) is not None:
            return self.blocking_cache[pair]
        sepset = self.find(x, y, path)
        if keep:
            self.blocking_cache[pair] = sepset
        return sepset

    def recursive_blocking(self, M: np.ndarray):
        """R4's set for RFCI on the marks ``M`` (changed in place by the rules).

        Tetrad's recursive blocking set, else the greedy one; the first answer for a pair is
        kept.
        """

        def blocking(x: int, y: int, path, keep: bool) -> set | None:
            pair = frozenset((x, y))
            if self.blocking_cache.get(pair) is not None:
                return self.blocking_cache[pair]
            sepset = recursive_ddp_sepset(M, x, y, self.independent)
            if sepset is None:
                sepset = self.find(x, y, path)
            if keep:
                self.blocking_cache[pair] = sepset
            return sepset

        return blocking


class FCI(PCStable):
    """FCI: a partial ancestral graph (PAG) when hidden common causes may exist.

    The skeleton of PC-Stable (order-independent levels of conditional-independence tests),
    its unshielded colliders, then the Possible-D-Sep stage: every remaining edge ``x - y`` is
    tested given subsets of the nodes that could d-separate ``x`` from ``y`` in the presence
    of latent variables, and removed when one separates them. The marks are then reset to
    circles, the colliders found again from all separating sets, and Zhang's rules R1-R4 and
    R8-R10 (complete for arrowheads and tails without selection bias) orient the rest; a
    discriminating path's collider is decided by the separating set of its ends.

    A circle marks what the data leave open. ``a --> b`` says that ``a`` is a cause of ``b``
    (an ancestor of it in every MAG of the class); ``a <-> b`` that neither causes the other,
    so a hidden common cause joins them; ``a o-> b`` that ``b`` does not cause ``a``.

    Parameters
    ----------
    ci_test : str, CITest or None, default=None
        The test, by family name or object, as for :class:`PCStable`: None is ``"g_sq"`` on
        discrete data and ``"fisher_z"`` on continuous data.
    alpha : float, default=0.05
        Significance level of every test.
    max_cond_size : int, default=None
        Largest conditioning set, in the skeleton and the Possible-D-Sep stage (Tetrad's
        "depth"); None for no limit.
    max_path_length : int, default=None
        Longest path, in edges, searched for Possible-D-Sep sets and for discriminating paths;
        None for no limit.
    possible_dsep : bool, default=True
        Run the Possible-D-Sep stage. Without it the skeleton is PC-Stable's (fast, but it
        may keep edges that only a set beyond the adjacencies separates).
    allowed_edges, forbidden_edges, required_edges : iterable of (u, v), DiGraph or array
        Background knowledge. A pair with both arcs ruled out is never adjacent; a forbidden
        arc ``u -> v`` (``u`` does not cause ``v``) puts an arrowhead at ``u``; a required
        arc ``u -> v`` is kept and oriented ``u --> v``.
    tiers : list of lists of str, dict or Tiers, default=None
        Background-knowledge order: a later tier does not cause an earlier one.
    variant : {"standard", "tetrad"}, default="standard"
        ``"standard"`` is the algorithm above. ``"tetrad"`` makes the choices of Tetrad
        7.6.8's ``Fci`` (stable, complete rules), so that its PAG can be compared with
        Tetrad's mark for mark:

        - colliders (R0, and R4's on discriminating paths) are decided by a separating set
          searched again among the final adjacencies, not by the skeleton's sets: the
          first subset of ``adj(a)``, then of ``adj(c)``, smallest first and in column
          order, that the test accepts (for R4, only subsets holding the path's inner
          nodes; the first answer for a pair is kept); none found means no collider, and
          R4 leaves the triple;
        - the Possible-D-Sep stage tests each edge once given the whole Possible-D-Sep set
          of each of its ends, by Tetrad's definition with paths of up to 3 edges (not
          ``max_path_length``), the edges taken in column order;
        - the rules run in Tetrad's schedule (see ``skbn.graph._fci_schedule``); R3
          without the non-adjacency of its outer nodes, R4 only on triples ``v o-> y``.

        Where the tests contradict each other the two variants can differ; where two
        discriminating paths of one triple disagree, which one Tetrad takes first depends
        on its hash order, so ``n_r4_conflicts_`` counts those triples. The re-searched
        sets are unbounded by ``max_cond_size`` (as in Tetrad), and background knowledge
        is not taken.
    n_jobs : int, default=None
        Threads of the skeleton's tests (as for :class:`PCStable`); the result is identical
        to the serial run.
    verbose : int, default=0
        Above 0, print the adjacencies left after each skeleton level and the stage.

    Attributes
    ----------
    graph_ : networkx.DiGraph
        The PAG: ``graph_.graph["kind"] == "pag"``, both arcs of every edge, each with the
        ``mark`` at its head (see :mod:`skbn.graph`).
    sepsets_ : Mapping
        ``frozenset({u, v}) -> list of tuple``: the separating sets of each removed pair
        (named when read; equal to the dict it stands for).
    n_removed_possible_dsep_ : int
        Edges the Possible-D-Sep stage removed.
    n_tests_levels_ : list of int
        Pairs tested at each skeleton level.
    n_r4_conflicts_ : int
        With ``variant="tetrad"``: triples that two discriminating paths decided
        differently (the first one listed set the marks); 0 otherwise.
    order_dependent_edges_ : list of tuple
        With ``variant="tetrad"``: the edges whose Possible-D-Sep test comes out
        differently on the graph before the stage and on the graph after it (their fate
        depended on the edges taken before them); empty otherwise.
    parameters_ : None
        A PAG holds no single DAG to put parameters on.

    References
    ----------
    P. Spirtes, C. Glymour and R. Scheines, "Causation, Prediction, and Search", 2nd ed.,
    MIT Press, 2000, chapter 6. J. Zhang, "On the completeness of orientation rules for
    causal discovery in the presence of latent confounders and selection bias", Artificial
    Intelligence 172, 2008. D. Colombo and M. H. Maathuis, "Order-independent
    constraint-based causal structure learning", JMLR 15, 2014.

    Examples
    --------
    A hidden cause ``L`` of ``b`` and ``c``: FCI on the measured four finds ``b <-> c``.

    >>> import networkx as nx
    >>> from skbn.datasets import make_linear_gaussian
    >>> from skbn.graph import dag_to_pag, marked_edges
    >>> from skbn.learners import FCI
    >>> dag = nx.DiGraph([("a", "b"), ("L", "b"), ("L", "c"), ("d", "c")])
    >>> X = make_linear_gaussian(dag, random_state=0).sample(2000, random_state=0)
    >>> fci = FCI(alpha=0.01).fit(X.drop(columns="L"))
    >>> marked_edges(fci.graph_)
    ['a o-> b', 'b <-> c', 'd o-> c']
    >>> marked_edges(fci.graph_) == marked_edges(dag_to_pag(dag, latents="L"))
    True
    """

    _runs_in_name_order = True
    _learns_pag = True
    _parameter_constraints = {
        **PCStable._parameter_constraints,
        "max_path_length": [Interval(Integral, 1, None, closed="left"), None],
        "possible_dsep": ["boolean"],
        "variant": [StrOptions({"standard", "tetrad"})],
    }

    def __init__(
        self,
        ci_test=None,
        *,
        alpha: float = 0.05,
        max_cond_size: int | None = None,
        max_path_length: int | None = None,
        possible_dsep: bool = True,
        allowed_edges=None,
        forbidden_edges=None,
        required_edges=None,
        tiers=None,
        variant: str = "standard",
        n_jobs: int | None = None,
        verbose: int = 0,
    ) -> None:
        super().__init__(
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
        self.possible_dsep = possible_dsep
        self.variant = variant

    # a PAG is a class of causal structures, not a distribution: no likelihood to score
    # rows with (scikit-learn's tools then see no score method)
    score_samples = available_if(lambda est: False)(BaseStructureLearner.score_samples)
    score = available_if(lambda est: False)(BaseStructureLearner.score)

    @property
    def network_(self):
        """Not available: a PAG holds no single DAG to put parameters on.

        Raises
        ------
        AttributeError
            Always; :func:`skbn.graph.pag_to_mag` gives a MAG of the class.
        """
        raise AttributeError(
            f"{type(self).__name__} learns a PAG, a class of causal structures with hidden "
            "variables, not one network; skbn.graph.pag_to_mag gives a MAG of the class."
        )

    # the columns arrive in name order (_runs_in_name_order): positions are the tie order

    def _colliders(self, adj: np.ndarray, sepsets: dict, forbidden, required) -> np.ndarray:
        """Circles on the skeleton, R0 from the separating sets, then the knowledge."""
        a, b, c = unshielded_triples(adj)
        keep = ~sepsets.in_some_set_many(a, c, b)
        return _marks_with_knowledge(adj, (a[keep], b[keep], c[keep]), forbidden, required)

    def _possible_dsep_stage(self, bound, adj, sepsets, M, required) -> int:
        max_length = -1 if self.max_path_length is None else self.max_path_length
        keep = required | required.T
        corr = bound.correlation_matrix()
        if corr is not None:  # Fisher-z on complete data: the whole stage in one kernel
            pairs, offsets, members = possible_dsep_stage_fisher_z(
                corr,
                bound.n_samples,
                M,
                adj,
                keep,
                max_length,
                -1 if self.max_cond_size is None else self.max_cond_size,
                self.alpha,
            )
            members = members.tolist()
            for i, (x, y) in enumerate(pairs.tolist()):
                cond = tuple(members[offsets[i] : offsets[i + 1]])
                sepsets.setdefault(frozenset((x, y)), []).append(cond)
            return len(pairs)
        removed = 0
        p = adj.shape[0]
        # neighbour table for the kernel, a removed edge swapped out of both rows
        degree = adj.sum(axis=1).astype(np.int64)
        table = np.full((p, max(1, int(degree.max(initial=0)))), -1, dtype=np.int64)
        for v in range(p):
            table[v, : degree[v]] = np.flatnonzero(adj[v])

        def drop(u, v):
            row = table[u, : degree[u]]
            k = int(np.flatnonzero(row == v)[0])
            row[k] = row[degree[u] - 1]
            degree[u] -= 1

        # pairs in name order (the columns are in name order); each pair's sets are drawn
        # from the graph as the earlier removals of this stage left it
        for x in range(p):
            for y in np.flatnonzero(adj[x]).tolist():
                if y < x or keep[x, y]:
                    continue
                for a, b in ((x, y), (y, x)):
                    pool = possible_dsep(M, table, degree, a, b, max_length)
                    cond = self._separating_subset(bound, x, y, pool, adj)
                    if cond is not None:
                        break
                if cond is not None:
                    adj[x, y] = adj[y, x] = False
                    M[x, y] = M[y, x] = 0
                    drop(x, y)
                    drop(y, x)
                    sepsets.setdefault(frozenset((x, y)), []).append(cond)
                    removed += 1
        return removed

    def _separating_subset(self, bound, x: int, y: int, pool, adj):
        """Return the first subset of ``pool`` that separates x and y, or None.

        Sizes increase, and within a size the order is lexicographic. Subsets of the
        adjacencies of x or of y were tested with the skeleton and are skipped.
        """
        pool, adj_x, adj_y = np.asarray(pool).tolist(), adj[x], adj[y]
        top = len(pool) if self.max_cond_size is None else min(len(pool), self.max_cond_size)
        for size in range(1, top + 1):
            for cond in itertools.combinations(pool, size):
                if all(adj_x[v] for v in cond) or all(adj_y[v] for v in cond):
                    continue
                pvalue = bound.test_positions(x, y, np.array(cond, dtype=np.int64)).pvalue
                if pvalue > self.alpha:
                    return tuple(cond)
        return None

    def _refuse_knowledge(self) -> None:
        if any(
            getattr(self, name) is not None
            for name in ("allowed_edges", "forbidden_edges", "required_edges", "tiers")
        ):
            raise ValueError(
                f"{type(self).__name__}(variant='tetrad') takes no background knowledge "
                "(allowed_edges, forbidden_edges, required_edges, tiers); use "
                "variant='standard' with knowledge."
            )

    def _learn_tetrad(self, data, adj, sepsets):
        """R0, Possible-D-Sep and the rules as Tetrad 7.6.8's ``Fci`` does them."""
        search = _SepsetSearch(self._resolved_test(data).bind(data), adj, self.alpha)
        M = search.colliders()
        removed = 0
        self.order_dependent_edges_ = []
        if self.possible_dsep:
            before = M.copy()
            pairs = _possible_dsep_pairs(adj)

            def separating(marks, x, y):
                for end in (x, y):
                    pool = [v for v in _tetrad_possible_dsep(marks, end) if v not in (x, y)]
                    if search.independent(x, y, pool):
                        return pool
                return None

            for x, y in pairs:
                pool = separating(M, x, y)
                if pool is not None:
                    adj[x, y] = adj[y, x] = False
                    M[x, y] = M[y, x] = 0
                    sepsets.setdefault(frozenset((x, y)), []).append(tuple(pool))
                    removed += 1
            # an edge whose fate differs on the graph before the stage and after it
            # depended on the edges taken before it
            names = data.names
            for x, y in pairs:
                after = M.copy()
                after[x, y], after[y, x] = before[x, y], before[y, x]
                if (separating(before, x, y) is None) != (separating(after, x, y) is None):
                    self.order_dependent_edges_.append((names[x], names[y]))
            if self.verbose:
                print(f"FCI possible-d-sep: {removed} edges removed")
            M = search.colliders()
        max_length = -1 if self.max_path_length is None else self.max_path_length
        conflicts = tetrad_final_orientation(M, search.blocking, max_path_length=max_length)
        self.n_r4_conflicts_ = len(set(conflicts))
        self.n_removed_possible_dsep_ = removed
        return M

    def _learn(self, data, prepared):
        forbidden, required = prepared
        tetrad = self.variant == "tetrad"
        if tetrad:
            self._refuse_knowledge()
        test = self._resolved_test(data)
        with numba_threads(self.n_jobs if test.threaded_kernels else None):
            adj, sepsets, _, levels = self._skeleton(data, forbidden, required)
        self.n_r4_conflicts_ = 0
        self.order_dependent_edges_ = []
        if tetrad:
            M = self._learn_tetrad(data, adj, sepsets)
            return self._finish(data, M, sepsets, levels)
        M = self._colliders(adj, sepsets, forbidden, required)
        self.n_removed_possible_dsep_ = 0
        if self.possible_dsep:
            bound = test.bind(data)
            self.n_removed_possible_dsep_ = self._possible_dsep_stage(
                bound, adj, sepsets, M, required
            )
            if self.verbose:
                print(f"FCI possible-d-sep: {self.n_removed_possible_dsep_} edges removed")
            M = self._colliders(adj, sepsets, forbidden, required)

        def collider(theta, alpha, beta, gamma, path):
            return not sepsets.in_some_set(theta, gamma, beta)

        max_length = -1 if self.max_path_length is None else self.max_path_length
        apply_rules(M, collider, max_path_length=max_length)
        return self._finish(data, M, sepsets, levels)

    def _finish(self, data, M, sepsets, levels):
        self.sepsets_ = SeparatingSets(sepsets, data.names)
        self.n_tests_levels_ = levels
        return M, "pag"
