# SPDX-License-Identifier: BSD-3-Clause
"""Path searches on an evolving PAG for FCIT: recursive blocking and discriminating paths.

A PAG is an endpoint matrix ``M`` (``M[i, j]`` is the mark at ``j`` on the edge ``i - j``:
0 none, 1 circle, 2 arrow, 3 tail), read here through :class:`PagView`, which keeps the
adjacency lists the searches ask for. The blocking walk runs in
:mod:`skbn._kernels.blocking`.

*Recursive blocking* (Ramsey, Andrews and Spirtes 2025) builds a set ``Z`` that blocks every
path from ``x`` to ``y`` except the edge between them, walking the paths out of ``x``: a path
that reaches ``y`` open is blocked by conditioning on the node where it can be (a non-collider),
and a node is only added when leaving it out leaves some path open. The result is a candidate
separating set; FCIT tests it, with subsets of the common neighbours taken out.

A *discriminating path* for ``v`` is ``x *-> q1 <-> ... <-> w <-* v`` ... ``y`` in Zhang's
sense: every inner node from ``q1`` to ``w`` a collider on the path and a parent of ``y``, and
``v`` adjacent to ``y``. FCIT lists them two ways: as Zhang defines them (``x`` and ``y`` not
adjacent), and without that condition, for edges ``x - y`` whose removal would make a
discriminating path whose middle triple is still open.
"""

from __future__ import annotations

import itertools
from collections import deque

import numpy as np

from skbn._kernels.blocking import block_paths as _block_paths
from skbn.graph._pag import ARROW, CIRCLE, TAIL

__all__ = ["PagView", "block_paths", "discriminating_paths", "subsets"]


def subsets(items):
    """Every subset of ``items``, smallest first, lexicographic within a size."""
    items = list(items)
    for size in range(len(items) + 1):
        yield from itertools.combinations(items, size)


class _Rows:
    """The rows of a matrix as Python lists, each made on first read (``make(i)``)."""

    def __init__(self, n: int, make) -> None:
        self._rows: list = [None] * n
        self._make = make

    def __getitem__(self, i):
        row = self._rows[i]
        if row is None:
            row = self._rows[i] = self._make(i)
        return row

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self):
        return (self[i] for i in range(len(self._rows)))


def adjacency_csr(M: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(indptr, indices)``: each node's neighbours in ``M``, in increasing order."""
    adjacent = M != 0
    indptr = np.zeros(M.shape[0] + 1, dtype=np.int64)
    np.cumsum(adjacent.sum(axis=1), out=indptr[1:])
    return indptr, np.nonzero(adjacent)[1].astype(np.int64)


class PagView:
    """Adjacency lists and marks of an endpoint matrix (as lists, and CSR for kernels).

    Neighbour lists are made from the adjacency's CSR when first read, so a search that
    looks at a few nodes of a large PAG pays for those only; ``csr`` is that CSR where the
    caller has it (the marks may change under the view, not the adjacency). Call
    :meth:`refresh` after an edge is removed.
    """

    def __init__(self, M: np.ndarray, csr: tuple | None = None) -> None:
        self.M = M
        self.refresh(csr)

    def refresh(self, csr: tuple | None = None) -> None:
        # the marks are read from the matrix itself (a search reads a few of a row's
        # entries: turning rows into lists cost more than it saved at 1,000 variables)
        self.marks = self.M
        self._csr = csr
        self.nbrs = _Rows(self.M.shape[0], self._neighbours)

    def _neighbours(self, i: int) -> list:
        indptr, indices = self.indptr, self.indices
        return indices[indptr[i] : indptr[i + 1]].tolist()

    @property
    def indptr(self) -> np.ndarray:
        if self._csr is None:
            self._csr = adjacency_csr(self.M)
        return self._csr[0]

    @property
    def indices(self) -> np.ndarray:
        if self._csr is None:
            self._csr = adjacency_csr(self.M)
        return self._csr[1]

    def adjacent(self, a: int, b: int) -> bool:
        return self.marks[a, b] != 0

    def collider(self, a: int, b: int, c: int) -> bool:
        """``a *-> b <-* c``."""
        return self.marks[a, b] == ARROW and self.marks[c, b] == ARROW

    def parent(self, a: int, b: int) -> bool:
        """``a --> b``."""
        return self.marks[a, b] == ARROW and self.marks[b, a] == TAIL

    def common(self, x: int, y: int) -> list:
        row = self.marks[y]
        return [v for v in self.nbrs[x] if row[v] != 0]

    def edges(self) -> list:
        return [(x, y) for x, row in enumerate(self.nbrs) for y in row if x < y]


def block_paths(pag: PagView, x: int, y: int, not_followed=(), max_length: int = -1) -> set:
    """A set meant to block every path from ``x`` to ``y`` but the edge ``x - y``.

    Paths into a node of ``not_followed`` are taken as blocked there (FCIT passes the
    middle nodes of discriminating paths whose collider status is still open).

    Examples
    --------
    >>> import numpy as np
    >>> from skbn.graph._pag import ARROW, TAIL
    >>> M = np.zeros((3, 3), dtype=np.int8)  # x --> m --> y
    >>> M[0, 1], M[1, 0], M[1, 2], M[2, 1] = ARROW, TAIL, ARROW, TAIL
    >>> block_paths(PagView(M), 0, 2)
    {1}
    """
    mask = np.zeros(pag.M.shape[0], dtype=np.bool_)
    mask[list(not_followed)] = True
    found = _block_paths(pag.M, pag.indptr, pag.indices, x, y, mask, max_length)
    return set(np.flatnonzero(found).tolist())


def _paths_from(pag, w, v, y, check, max_length, out) -> None:
    """The discriminating paths for ``v`` that end ``w <-* v ... y``.

    Breadth first from ``w``, backwards along arrowheads; each start ``x`` is reached once,
    by a shortest route.
    """
    previous = {w: None, v: w}
    seen = {w, v}
    queue = deque([w])
    marks, nbrs = pag.marks, pag.nbrs
    while queue:
        t = queue.popleft()
        for x in nbrs[t]:
            if x in seen or marks[x, t] != ARROW:
                continue
            previous[x] = t
            route = []
            d = previous[x]
            while d is not None:
                route.append(d)
                d = previous[d]
            # route: t, ..., w (the inner nodes from x's side to v's side)
            if max_length == -1 or len(route) <= max_length:
                found = _discriminating(pag, x, route, v, y, check)
                if found:
                    out.append((x, w, v, y, tuple(reversed(route))))
            seen.add(x)
            queue.append(x)


def _discriminating(pag, x, inner, v, y, check) -> bool:
    if len({x, inner[-1], v, y}) < 4:
        return False
    if check and pag.adjacent(x, y):
        return False
    if not pag.adjacent(v, y):
        return False
    chain = [x, *inner, v]
    marks = pag.marks
    for i in range(1, len(chain) - 1):
        n2 = chain[i]
        if not pag.collider(chain[i - 1], n2, chain[i + 1]):
            return False
        if check:
            if not pag.parent(n2, y):
                return False
        elif not pag.adjacent(y, n2) or marks[y, n2] == ARROW:
            return False
    return True


def discriminating_paths(
    pag: PagView, *, ends=None, check_ends: bool = True, max_length: int = -1
) -> list:
    """Discriminating paths whose middle triple ``w <-* v *-* y`` is still open.

    Parameters
    ----------
    pag : PagView
    ends : (int, int) or None
        Only the paths between these two nodes (either way round); None for all.
    check_ends : bool
        Zhang's condition that the path's ends are not adjacent (and that every inner node
        is a parent of ``y``). Without it, an edge ``x - y`` may join the ends and an inner
        node only needs an edge to ``y`` without an arrowhead at the inner node.
    max_length : int
        Most inner nodes before ``v``; -1 for no bound.

    Returns
    -------
    list of (x, w, v, y, inner)
        ``inner``: the collider nodes between ``x`` and ``v``, from ``w`` back to the
        node next to ``x``.
    """
    out: list = []
    marks, nbrs = pag.marks, pag.nbrs
    targets = range(len(nbrs)) if ends is None else ends
    for y in targets:
        for w in nbrs[y]:
            if check_ends:
                if not pag.parent(w, y):
                    continue
            elif marks[y, w] == ARROW:
                continue
            for v in pag.common(w, y):
                if marks[y, v] != CIRCLE or marks[v, y] != ARROW:
                    continue
                _paths_from(pag, w, v, y, check_ends, max_length, out)
    if ends is not None:
        a, b = ends
        out = [path for path in out if {path[0], path[3]} == {a, b}]
    return out
