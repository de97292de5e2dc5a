# SPDX-License-Identifier: BSD-3-Clause
"""FCIT: BOSS's DAG made a PAG, then edges removed by targeted tests, a legal PAG at each step.

The steps, as Tetrad 7.6.8's ``Fcit`` takes them (Ramsey, Andrews and Spirtes 2025):

1. BOSS's best DAG, and its PAG (as if nothing were hidden); its unshielded colliders are
   noted as the *initial colliders*.
2. For each edge ``x - y``: a blocking set from recursive path blocking (once for each
   subset of the middle nodes of discriminating paths through the edge that are still
   open), less each subset of the common neighbours, is tested. When one separates
   ``x`` and ``y`` the edge is removed and the PAG rebuilt: circles, the knowledge, the
   initial colliders that are still unshielded, a collider at each common neighbour of a
   removed pair that is not in its separating set, then Zhang's rules, each discriminating
   path decided by a separating set of its ends (the recorded one, else one found by
   recursive blocking, else a subset of an end's adjacencies that holds the path). A
   removal whose PAG has no legal MAG (Zhang's construction is not ancestral or not
   maximal) is undone.
3. Optionally, each remaining edge is tested given every subset of either end's
   adjacencies, as FCI's adjacency search does, and the PAG rebuilt once more.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager

import numpy as np
from scipy import sparse

import skbn._kernels.ancestral as _ancestral
from skbn._kernels.fcit import discriminating_middles, initial_colliders, sepset_colliders
from skbn.graph._ancestral import _dag_endpoints, _pag_of_mag
from skbn.graph._array import pdag_to_dag_array
from skbn.graph._fci_rules import apply_rules
from skbn.graph._pag import ARROW, CIRCLE, TAIL
from skbn.learners._fcit_paths import (
    PagView,
    adjacency_csr,
    block_paths,
    discriminating_paths,
    subsets,
)

__all__ = ["FcitSearch", "initial_pag", "run_fcit"]


@contextmanager
def _recursion_room(depth: int):
    """Room for path walks as long as the graph (Python's default stops at 1,000 frames)."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, depth))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


class _Sepsets(dict):
    """The separating sets by pair, counting its changes (so arrays made of it are kept)."""

    version = 0

    def __setitem__(self, key, value) -> None:
        self.version += 1
        super().__setitem__(key, value)

    def __delitem__(self, key) -> None:
        self.version += 1
        super().__delitem__(key)


class FcitSearch:
    """The removal and re-orientation stages on one data set's bound test.

    The skeleton is kept as a dense adjacency and its CSR, changed one edge at a time, so
    that rebuilding the PAG after a removal costs time in the edges, not in ``p`` squared.

    Parameters
    ----------
    bound : BoundTest
        ``test_positions(x, y, cond)`` with a ``pvalue``.
    alpha : float
    depth : int
        Largest separating set tried by the removal stages; -1 for no bound.
    max_path_length : int
        Longest discriminating path of the rules; -1 for no bound.
    forbidden, required : ndarray of bool, shape (p, p)
        Background knowledge: ``forbidden[u, v]`` says ``u`` does not cause ``v``.
    M : ndarray of int8, shape (p, p)
        The starting PAG, whose skeleton the search then keeps.
    """

    def __init__(self, bound, alpha, depth, max_path_length, forbidden, required, M) -> None:
        self.bound = bound
        self.alpha = alpha
        self.depth = depth
        self.max_path_length = max_path_length
        self.forbidden = forbidden
        self.required = required
        self._knowledge = bool(forbidden.any() or required.any())
        self.sepsets: dict = _Sepsets()
        self._sep_arrays = (-1, None)  # (version, arrays) of the separating sets
        self._initial = None  # (list, array) of the initial colliders
        self._results: dict = {}
        self.n_tests = 0
        self.n_rejected = 0
        self.adjacent = M != 0
        self._set_skeleton(adjacency_csr(M))
        self._scratch = np.zeros_like(M)  # Zhang's MAG of the PAG, made for legal()
        self._paths_work = np.zeros((6, M.shape[0] + 1), dtype=np.int64)
        self._adjacency_found: dict = {}  # _adjacency_sepset's answers, by what they read

    # -- the skeleton ------------------------------------------------------------------
    def _set_skeleton(self, csr) -> None:
        self.csr = csr
        indptr = csr[0]
        self.rows = np.repeat(np.arange(indptr.shape[0] - 1, dtype=np.int64), np.diff(indptr))

    def _remove(self, M, x: int, y: int) -> None:
        """Take the edge ``x - y`` out of ``M`` and of the kept skeleton."""
        indptr, indices = self.csr
        at = [
            indptr[u] + int(np.searchsorted(indices[indptr[u] : indptr[u + 1]], v))
            for u, v in ((x, y), (y, x))
        ]
        shift = np.zeros(indptr.shape[0], dtype=np.int64)
        shift[x + 1] += 1
        shift[y + 1] += 1
        self._set_skeleton((indptr - np.cumsum(shift), np.delete(indices, at)))
        M[x, y] = M[y, x] = 0
        self.adjacent[x, y] = self.adjacent[y, x] = False
        self._scratch[x, y] = self._scratch[y, x] = 0

    # -- tests -------------------------------------------------------------------------
    def independent(self, x: int, y: int, cond, kept: dict | None = None) -> bool:
        """Whether the test accepts ``x _||_ y | cond``, each distinct test run once.

        The answers are remembered in ``kept`` when it is given (a search's own short-lived
        memory), otherwise for the whole fit. A key is one flat tuple (the pair, then the
        sorted set), under half the memory of a tuple holding a frozenset: at 10,000
        variables the adjacency stage runs tens of millions of tests.
        """
        key = (x, y, *sorted(cond)) if x < y else (y, x, *sorted(cond))
        found = self._results.get(key)
        if found is None and kept is not None:
            found = kept.get(key)
        if found is None:
            self.n_tests += 1
            array = np.array(key[2:], dtype=np.int64)
            found = bool(self.bound.test_positions(x, y, array).pvalue > self.alpha)
            (self._results if kept is None else kept)[key] = found
        return found

    def _within_depth(self, cond) -> bool:
        return self.depth == -1 or len(cond) <= self.depth

    def _adjacency_sepset(self, pag: PagView, x: int, y: int, containing: set):
        """The first set of adjacencies holding ``containing`` that separates the pair.

        Subsets of ``x``'s adjacencies, then of ``y``'s (Tetrad's
        ``findSepsetSubsetOfAdjxOrAdjy``). The answer depends only on the two adjacency
        lists and ``containing`` (the tests are remembered), so it is kept by those.
        """
        key = (x, y, tuple(pag.nbrs[x]), tuple(pag.nbrs[y]), frozenset(containing))
        if key not in self._adjacency_found:
            self._adjacency_found[key] = self._first_adjacency_sepset(pag, x, y, containing)
        found = self._adjacency_found[key]
        return None if found is None else set(found)

    def _first_adjacency_sepset(self, pag: PagView, x: int, y: int, containing: set):
        for end, other in ((x, y), (y, x)):
            pool = [v for v in pag.nbrs[end] if v != other]
            if not containing.issubset(pool):
                continue
            rest = [v for v in pool if v not in containing]
            for extra in subsets(rest):
                cond = containing.union(extra)
                if not self._within_depth(cond):
                    break
                if self.independent(x, y, cond):
                    return cond
        return None

    def _recursive_sepset(self, pag: PagView, x: int, y: int):
        """A separating set of the ends of a discriminating path, by recursive blocking.

        The middle nodes of the open discriminating paths between ``x`` and ``y`` are each
        either walked through or put in the set, in every combination, and each common
        neighbour may be left out (Tetrad's ``findDdpSepsetRecursive``).
        """
        n = discriminating_middles(pag.M, pag.indptr, pag.indices, x, y, -1, self._paths_work)
        middles = sorted(self._paths_work[5, :n].tolist())
        common = pag.common(x, y)
        for left_out in subsets(common):
            left_out = set(left_out)
            maybe = sorted(set(middles) | left_out)
            for not_followed in subsets(maybe):
                blocking = block_paths(pag, x, y, not_followed)
                blocking.update(v for v in middles if v not in not_followed)
                cond = blocking - left_out
                if self.independent(x, y, cond):
                    return cond
        return None

    # -- orientation -------------------------------------------------------------------
    def _collider(self, M, theta, alpha, beta, gamma, path):
        key = frozenset((theta, gamma))
        blocking = self.sepsets.get(key)
        if blocking is None:
            pag = PagView(M, self.csr)
            blocking = self._recursive_sepset(pag, theta, gamma)
            if blocking is None:
                blocking = self._adjacency_sepset(pag, theta, gamma, set(path))
            if blocking is None:
                return None  # nothing decides it (Tetrad stops with an error here)
            self.sepsets[key] = blocking
        if not blocking.issuperset(path):
            return None  # the set does not hold the path: it cannot decide the triple
        return beta not in blocking

    def orient(self, M: np.ndarray, initial: list) -> None:
        """Rebuild every mark of ``M`` (in place) from its skeleton."""
        adj, rows, cols = self.adjacent, self.rows, self.csr[1]
        M[rows, cols] = CIRCLE
        if self._knowledge:
            forbidden = self.forbidden[rows, cols] & ~self.forbidden[cols, rows]
            M[cols[forbidden], rows[forbidden]] = ARROW
            required = self.required[rows, cols]
            for u, v in zip(rows[required].tolist(), cols[required].tolist()):
                M[u, v], M[v, u] = ARROW, TAIL
        initial_colliders(M, adj, self._triples(initial), self.forbidden)
        sepset_colliders(M, adj, *self.csr, *self._sepset_arrays())
        apply_rules(
            M,
            lambda *args: self._collider(M, *args),
            max_path_length=self.max_path_length,
            adjacent=adj,
            csr=self.csr,
        )

    def _triples(self, initial: list) -> np.ndarray:
        """The initial colliders as an array (made once: the list never changes)."""
        if self._initial is None or self._initial[0] is not initial:
            self._initial = (initial, np.array(initial, dtype=np.int64).reshape(-1, 3))
        return self._initial[1]

    def _sepset_arrays(self) -> tuple:
        """The pairs, and their sets as CSR, for :func:`sepset_colliders`."""
        version, arrays = self._sep_arrays
        if version != self.sepsets.version:
            pairs = np.array([sorted(pair) for pair in self.sepsets], dtype=np.int64)
            sizes = [len(sepset) for sepset in self.sepsets.values()]
            ptr = np.zeros(len(sizes) + 1, dtype=np.int64)
            np.cumsum(sizes, out=ptr[1:])
            nodes = np.fromiter(
                (v for sepset in self.sepsets.values() for v in sepset), np.int64, ptr[-1]
            )
            arrays = (pairs.reshape(-1, 2), ptr, nodes)
            self._sep_arrays = (self.sepsets.version, arrays)
        return arrays

    def legal(self, M: np.ndarray) -> bool:
        """Whether Zhang's MAG of the PAG is ancestral and maximal."""
        mag, rows, cols = self._scratch, self.rows, self.csr[1]
        mag[rows, cols] = M[rows, cols]  # off the skeleton it is zero already
        _ancestral.pag_to_mag(mag, *self.csr, -1)
        return bool(
            _ancestral.is_ancestral(mag, *self.csr) and _ancestral.is_maximal(mag, *self.csr)
        )

    # -- the stages --------------------------------------------------------------------
    def _try_removing(self, M, initial, x, y, cond) -> bool:
        skeleton, cells = (self.csr, self.rows), (self.rows, self.csr[1])
        saved = M[cells]  # the marks of every edge: orient() changes no other cell
        key = frozenset((x, y))
        before = self.sepsets.get(key)
        self._remove(M, x, y)
        self.sepsets[key] = set(cond)
        self.orient(M, initial)
        if self.legal(M):
            return True
        self.n_rejected += 1
        self._set_skeleton(skeleton[0])
        self.adjacent[x, y] = self.adjacent[y, x] = True
        M[cells] = saved
        if before is None:
            del self.sepsets[key]
        else:
            self.sepsets[key] = before
        return False

    def remove_by_blocking(self, M: np.ndarray, initial: list) -> int:
        """Step 2; returns the number of edges removed."""
        pag = PagView(M, self.csr)
        by_edge: dict = {}
        for path in discriminating_paths(pag, check_ends=False):
            by_edge.setdefault(frozenset((path[0], path[3])), []).append(path)
        removed = 0
        for x, y in pag.edges():
            if self.required[x, y] or self.required[y, x]:
                continue  # a required arc stays
            middles = sorted(
                {v for _, _, v, end, _ in by_edge.get(frozenset((x, y)), ()) if M[end, v] == CIRCLE}
            )
            tried: set = set()
            if self._remove_edge(M, pag, initial, x, y, middles, tried):
                removed += 1
        return removed

    def _remove_edge(self, M, pag, initial, x, y, middles, tried) -> bool:
        for not_followed in subsets(middles):
            if not pag.adjacent(x, y):
                return True
            found = block_paths(pag, x, y, not_followed)
            for left_out in subsets(pag.common(x, y)):
                cond = frozenset(found.difference(left_out))
                if cond in tried:
                    continue
                tried.add(cond)
                if not self._within_depth(cond) or not self.independent(x, y, cond):
                    continue
                kept = self._try_removing(M, initial, x, y, cond)
                pag.refresh(self.csr)
                if not kept:
                    return False
                return True
        return not pag.adjacent(x, y)

    def remove_by_adjacencies(self, M: np.ndarray, initial: list) -> int:
        """Step 3; returns the number of edges removed."""
        pag = PagView(M, self.csr)
        removed = 0
        for x, y in pag.edges():
            if self.required[x, y] or self.required[y, x]:
                continue
            # this edge's tests are asked again only from its other end: remembered for the
            # edge alone, so that the stage's memory does not grow with its tens of millions
            # of tests at 10,000 variables (the fit's earlier answers are still used)
            kept: dict = {}
            for end, other in ((x, y), (y, x)):
                pool = [v for v in pag.nbrs[end] if v != other]
                cond = next(
                    (
                        set(c)
                        for c in subsets(pool)
                        if self._within_depth(c) and self.independent(x, y, c, kept)
                    ),
                    None,
                )
                if cond is not None:
                    self._remove(M, x, y)
                    self.sepsets[frozenset((x, y))] = cond
                    pag.nbrs[x].remove(y)
                    pag.nbrs[y].remove(x)
                    removed += 1
                    break
        self.orient(M, initial)
        return removed


def initial_pag(cpdag: np.ndarray) -> tuple[np.ndarray, list, bool]:
    """The PAG of a DAG in the search's class, its unshielded colliders, and the source.

    The third item says whether a DAG gave the PAG.
    Any DAG of the class gives the same PAG. A PDAG that knowledge left without a
    consistent extension gives its skeleton with circles and its own colliders instead,
    to be oriented by the tests' rules.
    """
    dag = pdag_to_dag_array(cpdag.astype(np.int8))
    if dag is not None:
        M = _pag_of_mag(_dag_endpoints(np.asarray(dag)))
        pag = PagView(M)
        into = pag.collider
    else:
        M = np.where(cpdag | cpdag.T, CIRCLE, 0).astype(np.int8)
        pag = PagView(M)
        directed = cpdag & ~cpdag.T

        def into(x, b, y):
            return bool(directed[x, b] and directed[y, b])

    initial = [
        (x, b, y)
        for b in range(M.shape[0])
        for i, x in enumerate(pag.nbrs[b])
        for y in pag.nbrs[b][i + 1 :]
        if into(x, b, y) and not pag.adjacent(x, y)
    ]
    return M, initial, dag is not None


def run_fcit(cpdag, bound, *, alpha, depth, max_path_length, forbidden, required, adjacency):
    """Steps 1-3 from the search's CPDAG; returns the PAG's matrix and the search object."""
    if sparse.issparse(cpdag):
        cpdag = cpdag.toarray()
    cpdag = np.asarray(cpdag).astype(bool)
    M, initial, from_dag = initial_pag(cpdag)
    search = FcitSearch(bound, alpha, depth, max_path_length, forbidden, required, M)
    with _recursion_room(4 * M.shape[0] + 1000):
        if forbidden.any() or required.any() or not from_dag:
            search.orient(M, initial)
        search.n_removed_blocking = search.remove_by_blocking(M, initial)
        search.n_removed_adjacency = search.remove_by_adjacencies(M, initial) if adjacency else 0
    return M, search
