# SPDX-License-Identifier: BSD-3-Clause
"""Graph algorithms on adjacency arrays (``A[i, j] == 1`` means an arc ``i -> j``).

These are the internal workhorses behind :mod:`skbn.graph`; they take and return ``int8``
arrays and never touch networkx. A pair with both ``A[i, j]`` and ``A[j, i]`` set is an
undirected edge.

The functions a large search needs (``arcs_of``, ``directed_part``, ``undirected_part``,
``topological_sort_array``, ``dag_to_cpdag_array``, ``pdag_to_dag_array``, ``parents_csr``)
also take a scipy sparse matrix and then return one (CSR, ``int8``): their cost grows with
the number of arcs, so a graph over 100,000 variables never needs a ``p x p`` array.
"""

from __future__ import annotations

import heapq

import numpy as np
from scipy import sparse

__all__ = [
    "arcs_of",
    "adjacency_like",
    "name_order",
    "name_rank",
    "topological_sort_array",
    "dag_to_cpdag_array",
    "meek_orient_array",
    "pdag_to_dag_array",
    "v_structures_array",
    "extension_or_fallback",
    "pair_types",
    "parents_csr",
]


def name_order(names) -> np.ndarray:
    """Column positions sorted by name: the canonical order searches run in.

    Running a search on the columns in this order (and mapping the result back) makes every
    choice that falls to position -- ties between equal moves, the order candidates are
    visited, random draws of positions -- the same for every column order of the data.

    Examples
    --------
    >>> name_order(["c", "a", "b"]).tolist()
    [1, 2, 0]
    """
    return np.array(sorted(range(len(names)), key=lambda j: str(names[j])), dtype=np.int64)


def name_rank(names) -> np.ndarray:
    """Each column's place in :func:`name_order` (its inverse permutation).

    Examples
    --------
    >>> name_rank(["c", "a", "b"]).tolist()
    [2, 0, 1]
    """
    order = name_order(names)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank


def has_path(A: np.ndarray, source: int, target: int, skip: tuple[int, int] | None = None) -> bool:
    """Tell whether a directed path leads from ``source`` to ``target`` in A.

    The single arc ``skip`` (if given) is ignored. Depth-first search, O(p + |E|).
    """
    seen = np.zeros(A.shape[0], dtype=bool)
    seen[source] = True
    stack = [source]
    while stack:
        u = stack.pop()
        for w in np.flatnonzero(A[u]).tolist():
            if skip is not None and u == skip[0] and w == skip[1]:
                continue
            if w == target:
                return True
            if not seen[w]:
                seen[w] = True
                stack.append(w)
    return False


def arcs_of(A) -> tuple[np.ndarray, np.ndarray]:
    """The arcs of a dense or sparse adjacency matrix, as ``(rows, cols)`` in row-major order.

    Examples
    --------
    >>> [r.tolist() for r in arcs_of(np.array([[0, 1], [1, 0]]))]
    [[0, 1], [1, 0]]
    """
    if sparse.issparse(A):
        C = sparse.coo_array(A)
        keep = C.data != 0
        rows, cols = C.row[keep].astype(np.int64), C.col[keep].astype(np.int64)
        order = np.lexsort((cols, rows))
        return rows[order], cols[order]
    rows, cols = np.nonzero(A)
    return rows.astype(np.int64), cols.astype(np.int64)


def adjacency_like(template, p: int, rows, cols):
    """An ``int8`` adjacency matrix with the given arcs, sparse (CSR) if ``template`` is."""
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    if sparse.issparse(template):
        M = sparse.csr_array(
            (np.ones(len(rows), dtype=np.int8), (rows, cols)), shape=(p, p), dtype=np.int8
        )
        M.sum_duplicates()
        M.data[:] = 1
        return M
    A = np.zeros((p, p), dtype=np.int8)
    A[rows, cols] = 1
    return A


def _reciprocated(p: int, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """For each arc, whether its reverse is an arc too (one sort, no ``p x p`` array)."""
    codes = np.sort(rows * p + cols)
    reverse = cols * p + rows
    at = np.searchsorted(codes, reverse)
    at[at == len(codes)] = 0
    return (codes[at] == reverse) if len(codes) else np.zeros(0, dtype=bool)


def directed_part(A):
    """The arcs of ``A`` that are not half of an undirected edge."""
    if sparse.issparse(A):
        rows, cols = arcs_of(A)
        keep = ~_reciprocated(A.shape[0], rows, cols)
        return adjacency_like(A, A.shape[0], rows[keep], cols[keep])
    return A & (1 - A.T)


def undirected_part(A):
    """The undirected edges of ``A``, both halves set."""
    if sparse.issparse(A):
        rows, cols = arcs_of(A)
        keep = _reciprocated(A.shape[0], rows, cols)
        return adjacency_like(A, A.shape[0], rows[keep], cols[keep])
    return A & A.T


def _children_csr(p: int, rows: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Children lists in compressed form (rows must be sorted, as ``arcs_of`` gives them)."""
    indptr = np.zeros(p + 1, dtype=np.int64)
    indptr[1:] = np.cumsum(np.bincount(rows, minlength=p))
    return indptr, cols


def topological_sort_array(A) -> np.ndarray | None:
    """Return a topological order of the directed graph ``A``, or None if it has a cycle.

    An undirected edge counts as a 2-cycle. Among the available nodes the smallest index comes
    first, so the order is deterministic. ``A`` may be dense or sparse; the cost grows with
    the number of arcs.
    """
    p = A.shape[0]
    rows, cols = arcs_of(A)
    indptr, children = _children_csr(p, rows, cols)
    indeg = np.bincount(cols, minlength=p).astype(np.int64)
    heap = np.flatnonzero(indeg == 0).tolist()
    heapq.heapify(heap)
    order = np.empty(p, dtype=np.int64)
    k = 0
    children = children.tolist()
    indptr = indptr.tolist()
    indeg = indeg.tolist()
    while heap:
        v = heapq.heappop(heap)
        order[k] = v
        k += 1
        for w in children[indptr[v] : indptr[v + 1]]:
            indeg[w] -= 1
            if indeg[w] == 0:
                heapq.heappush(heap, w)
    return order if k == p else None


_UNKNOWN, _COMPELLED, _REVERSIBLE = 0, 1, 2


def dag_to_cpdag_array(A):
    """CPDAG of the DAG ``A`` by Chickering's (1995) edge labelling.

    Each arc is labelled compelled or reversible in one pass over the arcs ordered by a
    topological order; compelled arcs stay directed and reversible ones become undirected.
    Cost O(|E| * max in-degree). ``A`` may be dense or sparse (the result is the same kind).
    """
    order = topological_sort_array(A)
    if order is None:
        raise ValueError("The graph has a directed cycle (or an undirected edge): not a DAG.")
    p = A.shape[0]
    pos = np.empty(p, dtype=np.int64)
    pos[order] = np.arange(p)
    indptr, indices = parents_csr(A)
    indices = indices.tolist()
    parents = [indices[indptr[y] : indptr[y + 1]] for y in range(p)]
    parent_sets = [set(pa) for pa in parents]
    label: dict[tuple[int, int], int] = {}
    for y in order.tolist():
        pa_y = parents[y]
        if not pa_y:
            continue
        for x in pa_y:
            label[(x, y)] = _UNKNOWN
        # The lowest unlabelled arc into y is the one from y's highest-ordered parent;
        # handling it labels every arc into y (Chickering 1995, procedure Label-Edges).
        x = max(pa_y, key=lambda v: pos[v])
        for w in parents[x]:
            if label[(w, x)] != _COMPELLED:
                continue
            if w not in parent_sets[y]:
                for z in pa_y:
                    label[(z, y)] = _COMPELLED
                break
            label[(w, y)] = _COMPELLED
        else:
            compelled = any(z != x and z not in parent_sets[x] for z in pa_y)
            new = _COMPELLED if compelled else _REVERSIBLE
            for z in pa_y:
                if label[(z, y)] == _UNKNOWN:
                    label[(z, y)] = new
    rows, cols = arcs_of(A)
    back = [(y, x) for (x, y), lab in label.items() if lab == _REVERSIBLE]
    if back:
        extra = np.array(back, dtype=np.int64)
        rows, cols = np.concatenate([rows, extra[:, 0]]), np.concatenate([cols, extra[:, 1]])
    return adjacency_like(A, p, rows, cols)


def _adjacent(A: np.ndarray) -> np.ndarray:
    return (A | A.T).astype(bool)


def meek_orient_array(
    A: np.ndarray, forbidden: np.ndarray | None = None, acyclic: bool = False
) -> np.ndarray:
    """Apply Meek's rules R1-R4 to the PDAG ``A`` until no undirected edge can be oriented.

    R1: a -> b - c, a, c non-adjacent          => b -> c
    R2: a -> c -> b, a - b                     => a -> b
    R3: a - c -> b, a - d -> b, a - b, c, d non-adjacent => a -> b
    R4: a - c -> d -> b, a - b, a adj d, c, b non-adjacent => a -> b

    With background knowledge, ``forbidden[a, b]`` keeps the rules from orienting ``a -> b``
    (as Tetrad's knowledge-aware Meek rules do). With ``acyclic=True`` an orientation that
    would close a directed cycle (possible only when the colliders conflict) is not made, and
    that edge stays undirected for good.
    """
    A = A.copy()
    frozen = np.zeros(A.shape, dtype=bool)
    changed = True
    while changed:
        changed = False
        U = undirected_part(A).astype(bool)
        D = directed_part(A).astype(bool)
        adj = _adjacent(A)
        rows, cols = np.nonzero(U)
        for a, b in zip(rows.tolist(), cols.tolist()):
            if not (A[a, b] and A[b, a]):
                continue  # already oriented in this pass
            if forbidden is not None and forbidden[a, b]:
                continue
            if frozen[a, b]:
                continue
            if _meek_rule(a, b, D, U, adj):
                if acyclic and reaches(D, b, a):
                    frozen[a, b] = frozen[b, a] = True
                    continue
                A[b, a] = 0
                D[a, b] = True
                U[a, b] = U[b, a] = False
                changed = True
    return A


def reaches(D: np.ndarray, source: int, target: int) -> bool:
    """Whether a directed path ``source -> ... -> target`` exists in ``D``."""
    seen = np.zeros(D.shape[0], dtype=bool)
    stack = [source]
    while stack:
        u = stack.pop()
        if u == target:
            return True
        for v in np.flatnonzero(D[u] & ~seen).tolist():
            seen[v] = True
            stack.append(v)
    return False


def _meek_rule(a: int, b: int, D: np.ndarray, U: np.ndarray, adj: np.ndarray) -> int:
    """The first of Meek's rules (1-4) that orients the undirected edge a - b as a -> b; 0."""
    # R1: some c -> a with c not adjacent to b.
    if np.any(D[:, a] & ~adj[:, b]):
        return 1
    # R2: a -> c -> b.
    if np.any(D[a] & D[:, b]):
        return 2
    # R3: two non-adjacent c, d with a - c -> b and a - d -> b.
    cands = np.flatnonzero(U[a] & D[:, b])
    if len(cands) >= 2:
        sub = adj[np.ix_(cands, cands)]
        np.fill_diagonal(sub, True)
        if not sub.all():
            return 3
    # R4: a - c -> d -> b, a adjacent to d, c not adjacent to b.
    for c in np.flatnonzero(U[a] & ~adj[:, b]).tolist():
        if np.any(D[c] & D[:, b] & adj[a]):
            return 4
    return 0


def pdag_to_dag_array(A):
    """A consistent DAG extension of the PDAG ``A`` (Dor & Tarsi 1992), or None if none exists.

    Repeatedly removes a node x that has no outgoing directed arc and whose undirected
    neighbours are adjacent to every other node adjacent to x, orienting x's undirected edges
    into x. The result keeps every directed arc of ``A`` and creates no new v-structure.
    A work list revisits only the neighbours of removed nodes, so the cost is
    O(sum of squared degrees) rather than O(p^2). ``A`` may be dense or sparse (the result is
    the same kind).
    """
    p = A.shape[0]
    out_dir = [set() for _ in range(p)]  # directed children
    in_dir = [set() for _ in range(p)]  # directed parents
    und = [set() for _ in range(p)]
    rows, cols = arcs_of(A)
    both = _reciprocated(p, rows, cols)
    for i, j, u in zip(rows.tolist(), cols.tolist(), both.tolist()):
        if u:
            und[i].add(j)
        else:
            out_dir[i].add(j)
            in_dir[j].add(i)
    adj = [out_dir[i] | in_dir[i] | und[i] for i in range(p)]
    new_rows, new_cols = rows[~both].tolist(), cols[~both].tolist()
    alive = np.ones(p, dtype=bool)
    stack = list(range(p - 1, -1, -1))
    queued = np.ones(p, dtype=bool)
    n_alive = p
    while stack:
        x = stack.pop()
        queued[x] = False
        if not alive[x] or out_dir[x]:
            continue
        ok = all(adj[y] - {x} >= adj[x] - {y} for y in und[x])
        if not ok:
            continue
        for y in und[x]:
            new_rows.append(y)
            new_cols.append(x)
        alive[x] = False
        n_alive -= 1
        for y in adj[x]:
            out_dir[y].discard(x)
            in_dir[y].discard(x)
            und[y].discard(x)
            adj[y].discard(x)
            if not queued[y]:
                queued[y] = True
                stack.append(y)
    return adjacency_like(A, p, new_rows, new_cols) if n_alive == 0 else None


def v_structures_array(A: np.ndarray) -> list[tuple[int, int, int]]:
    """Unshielded colliders ``(a, c, b)`` with ``a -> c <- b``, a < b, a and b non-adjacent.

    Only directed arcs form colliders; undirected edges do not.
    """
    D = directed_part(A).astype(bool)
    adj = _adjacent(A)
    out = []
    for c in range(A.shape[0]):
        pa = np.flatnonzero(D[:, c])
        if len(pa) < 2:
            continue
        for i in range(len(pa)):
            for j in range(i + 1, len(pa)):
                a, b = int(pa[i]), int(pa[j])
                if not adj[a, b]:
                    out.append((a, c, b))
    return out


def pair_types(A: np.ndarray) -> np.ndarray:
    """Type of every node pair: ``T[i, j] = A[i, j] + 2 * A[j, i]``.

    For ``i < j`` the value is 0 (no edge), 1 (``i -> j``), 2 (``j -> i``) or 3 (undirected);
    two graphs have the same pair type exactly when the pair looks the same in both.
    """
    A = A.astype(np.int8)
    return A + 2 * A.T


def parents_csr(A) -> tuple[np.ndarray, np.ndarray]:
    """Every node's parents as compressed lists, from one pass over the arcs.

    Node j's parents are ``indices[indptr[j]:indptr[j + 1]]``, in ascending order. Unlike a
    column scan per node, the cost grows with the number of arcs, not with ``p**2`` scans.
    ``A`` may be dense or sparse.

    Returns
    -------
    indptr : ndarray of int64, shape (p + 1,)
    indices : ndarray of int64
    """
    p = A.shape[0]
    rows, cols = arcs_of(A)
    order = np.argsort(cols, kind="stable")  # arcs come in ascending rows per column
    indptr = np.zeros(p + 1, dtype=np.int64)
    indptr[1:] = np.cumsum(np.bincount(cols, minlength=p))
    return indptr, rows[order].astype(np.int64)


def extension_or_fallback(A: np.ndarray) -> tuple[np.ndarray, bool]:
    """A DAG for the PDAG ``A``: a consistent extension if one exists, else a fallback.

    Returns ``(dag, extended)``. When ``A`` has no consistent extension (some PC outputs),
    the fallback keeps the directed arcs in row-major order, skipping any that would close a
    cycle, then orients every undirected edge along a topological order of those arcs (which
    can create no cycle). ``extended`` is False for the fallback, so callers can tell the two
    apart; the fallback's v-structures may differ from ``A``'s.
    """
    A = (np.asarray(A) != 0).astype(np.int8)
    dag = pdag_to_dag_array(A)
    if dag is not None:
        return dag.astype(np.int8), True
    D = directed_part(A)
    kept = np.zeros(A.shape, dtype=np.int8)
    for u, v in zip(*np.nonzero(D)):
        if not has_path(kept, int(v), int(u)):
            kept[u, v] = 1
    order = topological_sort_array(kept)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    for u, v in zip(*np.nonzero(np.triu(undirected_part(A)))):
        if rank[u] < rank[v]:
            kept[u, v] = 1
        else:
            kept[v, u] = 1
    return kept, False
