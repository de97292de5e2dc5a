# SPDX-License-Identifier: BSD-3-Clause
"""PEF's partition without a dense distance matrix, for tens of thousands of variables.

The dense partition needs the ``(p, p)`` correlation matrix and the condensed distance matrix
that ``scipy.cluster.hierarchy.linkage`` copies; at p = 30,000 that is about 15 GB. This route
keeps only the pairs whose absolute correlation reaches a threshold (computed block by block
from standardised data) and runs the same algorithm on the distance ``1 - |r|`` where every
dropped pair counts as distance 1 (no correlation):

1. average linkage, exactly, on that sparse distance: the average distance between clusters A
   and B is ``1 - S_AB / (|A| |B|)`` with ``S_AB`` the sum of the kept ``|r|`` between them, so
   only cluster pairs joined by a kept pair are tracked (a heap, stale entries skipped); the
   components left when no kept pair remains are joined at distance 1, smallest first;
2. the cut with the most large clusters (ties to the fewest clusters, as the dense route);
3. small clusters merged into their closest cluster by average linkage, globally closest
   pair first (pairs at distance 1 by index, as the dense route).

With a threshold of 0 every pair is kept and the partition equals the dense one (tested).
"""

from __future__ import annotations

import bisect
import heapq
import math

import numpy as np
from scipy import stats

from skbn.data import thresholded_correlations

__all__ = [
    "correlation_threshold",
    "partition_from_pairs",
    "sparse_correlation_pairs",
    "sparse_partition",
    "standardise",
]


def standardise(values: np.ndarray) -> np.ndarray:
    """Centred columns scaled to unit mean square (constant columns all zero), Fortran order.

    ``Z[:, a] @ Z[:, b] / n`` is then the Pearson correlation of columns a and b.
    """
    Z = np.array(values, dtype=np.float64, order="F")
    Z -= Z.mean(axis=0)
    sd = np.sqrt(np.mean(Z * Z, axis=0))
    Z /= np.where(sd > 0, sd, 1.0)
    Z[:, sd == 0] = 0.0
    return Z


def correlation_threshold(n_samples: int, n_features: int) -> float:
    """The ``|r|`` at which a marginal correlation is significant at level ``1 / p``.

    Two-sided Fisher-z test; among independent variables about ``p / 2`` pairs pass by
    chance, so the kept graph stays sparse while true dependences of moderate size are kept.
    """
    z = stats.norm.isf(0.5 / max(n_features, 2))
    return math.tanh(z / math.sqrt(max(n_samples - 3, 1)))


def sparse_correlation_pairs(Z: np.ndarray, r_min: float, block: int = 1024):
    """Pairs ``i < j`` with ``|r_ij| >= r_min``, computed in tiles of ``block`` columns.

    Returns
    -------
    rows, cols : ndarray of int64
    weights : ndarray of float64
        The absolute correlations.
    """
    return thresholded_correlations(Z, r_min, block)


def _neighbour_sums(n_items, a, b, w):
    """Symmetric dict-of-dicts of summed weights between items (pairs a != b)."""
    nbr = [{} for _ in range(n_items)]
    for x, y, v in zip(a.tolist(), b.tolist(), w.tolist()):
        if x == y:
            continue
        nbr[x][y] = nbr[x].get(y, 0.0) + v
        nbr[y][x] = nbr[y].get(x, 0.0) + v
    return nbr


def _average_linkage_merges(p, rows, cols, weights):
    """Exact average linkage on ``1 - |r|``, dropped pairs at distance 1.

    Returns the merges ``(a, b)`` in order, with scipy's ids (merge m creates ``p + m``).
    """
    nbr = _neighbour_sums(p, rows, cols, weights)
    nbr += [None] * (p - 1)
    size = [1] * p + [0] * (p - 1)
    alive = bytearray([1]) * p + bytearray(p - 1)
    heap = [(1.0 - w, i, j) for i, j, w in zip(rows.tolist(), cols.tolist(), weights.tolist())]
    heapq.heapify(heap)
    merges = []
    new = p
    while heap:
        _, a, b = heapq.heappop(heap)
        if not (alive[a] and alive[b]):
            continue
        na, nb = nbr[a], nbr[b]
        if len(na) < len(nb):
            na, nb = nb, na
        for k, v in nb.items():
            na[k] = na.get(k, 0.0) + v
        na.pop(a, None)
        na.pop(b, None)
        sc = size[a] + size[b]
        for k, v in na.items():
            nk = nbr[k]
            nk.pop(a, None)
            nk.pop(b, None)
            nk[new] = v
            heapq.heappush(heap, (1.0 - v / (sc * size[k]), k, new))
        nbr[new], nbr[a], nbr[b] = na, None, None
        size[new] = sc
        alive[a] = alive[b] = 0
        alive[new] = 1
        merges.append((a, b))
        new += 1
    # components with no kept pair between them: distance 1, smallest first
    rest = [(size[c], c) for c in range(new) if alive[c]]
    heapq.heapify(rest)
    while len(rest) > 1:
        sa, a = heapq.heappop(rest)
        sb, b = heapq.heappop(rest)
        merges.append((a, b))
        heapq.heappush(rest, (sa + sb, new))
        new += 1
    return merges


def large_cluster_counts(p: int, merges, min_size: int, created=None) -> np.ndarray:
    """``counts[c]``: clusters of ``min_size`` or more variables after the first c merges.

    ``merges`` are ``(a, b)`` pairs of cluster ids in the order they are done; merge ``c``
    (from 1) creates id ``created[c - 1]``, by default ``p + c - 1`` (scipy's numbering).
    """
    size = np.ones(2 * p - 1, dtype=np.int64)
    counts = np.zeros(len(merges) + 1, dtype=np.int64)
    large = 0
    for c, (a, b) in enumerate(merges, start=1):
        new = p + c - 1 if created is None else created[c - 1]
        large -= int(size[a] >= min_size) + int(size[b] >= min_size)
        size[new] = size[a] + size[b]
        large += int(size[new] >= min_size)
        counts[c] = large
    return counts


def _best_cut(p, merges, min_size):
    """Labels of the cut with the most clusters of ``min_size`` or more.

    Ties go to the cut with the fewest clusters; the merges are replayed, not re-clustered.
    """
    counts = large_cluster_counts(p, merges, min_size)
    best_large, best_m = -1, 0
    # the dense route scans 1, 2, ... clusters and keeps the first strict improvement: the
    # largest number of merges among those with the most large clusters
    for m in range(len(merges), 0, -1):
        if counts[m] > best_large:
            best_large, best_m = counts[m], m
    root = np.arange(2 * p - 1)
    for m in range(best_m):
        a, b = merges[m]
        root[a] = root[b] = p + m

    def find(x):
        while root[x] != x:
            root[x] = root[root[x]]
            x = root[x]
        return x

    return np.array([find(v) for v in range(p)], dtype=np.int64)


def _merge_small(members, label, rows, cols, weights, min_size):
    """Merge small clusters into their closest cluster, globally closest pair first."""
    K = len(members)
    cross = label[rows] != label[cols]
    nbr = _neighbour_sums(K, label[rows[cross]], label[cols[cross]], weights[cross])
    size = [len(m) for m in members]
    version = [0] * K
    alive = [True] * K
    alive_ids = list(range(K))  # sorted
    small_ids = [c for c in range(K) if size[c] < min_size]  # sorted

    def push(heap, a, b):
        a, b = min(a, b), max(a, b)
        if size[a] < min_size or size[b] < min_size:
            d = 1.0 - nbr[a][b] / (size[a] * size[b])
            heapq.heappush(heap, (d, a, b, version[a], version[b]))

    def drop(ids, c):
        k = bisect.bisect_left(ids, c)
        if k < len(ids) and ids[k] == c:
            del ids[k]

    heap = []
    for a in range(K):
        for b in nbr[a]:
            if a < b:
                push(heap, a, b)
    while len(alive_ids) > 1 and small_ids:
        best = None
        while heap:
            d, a, b, va, vb = heap[0]
            if alive[a] and alive[b] and version[a] == va and version[b] == vb:
                best = (d, a, b)
                break
            heapq.heappop(heap)
        # pairs with no kept correlation sit at distance 1; the first by index
        first = alive_ids[0]
        partner = alive_ids[1] if size[first] < min_size else small_ids[0]
        fallback = (1.0, first, partner)
        if best is None or fallback < best:
            best = fallback
        _, a, b = best
        members[a] = np.concatenate([members[a], members[b]])
        for k, v in nbr[b].items():
            if k == a:
                continue
            nbr[a][k] = nbr[a].get(k, 0.0) + v
            nbr[k].pop(b, None)
            nbr[k][a] = nbr[a][k]
        nbr[a].pop(b, None)
        nbr[b] = {}
        size[a] += size[b]
        version[a] += 1
        alive[b] = False
        drop(alive_ids, b)
        drop(small_ids, b)
        if size[a] >= min_size:
            drop(small_ids, a)
        for k in nbr[a]:
            push(heap, a, k)
    return [np.sort(members[c]) for c in range(K) if alive[c]]


def sparse_partition(
    Z: np.ndarray, min_cluster_fraction: float = 0.05, r_min: float | None = None
) -> list:
    """PEF's partition from standardised data ``Z`` on the sparse correlation graph.

    Parameters
    ----------
    Z : ndarray of shape (n_samples, n_features)
        From :func:`standardise`.
    min_cluster_fraction : float, default=0.05
    r_min : float, optional
        Pairs with a smaller ``|r|`` count as distance 1. None means
        :func:`correlation_threshold`.

    Returns
    -------
    list of ndarray
        Column indices per cluster, ordered by their smallest member.
    """
    n, p = Z.shape
    if r_min is None:
        r_min = correlation_threshold(n, p)
    rows, cols, weights = sparse_correlation_pairs(Z, r_min)
    return partition_from_pairs(p, rows, cols, weights, min_cluster_fraction)


def partition_from_pairs(
    p: int, rows: np.ndarray, cols: np.ndarray, weights: np.ndarray, min_cluster_fraction: float
) -> list:
    """:func:`sparse_partition` from pairs already found by :func:`sparse_correlation_pairs`."""
    if p == 1:
        return [np.arange(1)]
    min_size = max(2, math.ceil(min_cluster_fraction * p))
    merges = _average_linkage_merges(p, rows, cols, weights)
    roots = _best_cut(p, merges, min_size)
    _, label = np.unique(roots, return_inverse=True)
    # clusters ordered by their smallest member
    first = np.full(label.max() + 1, p, dtype=np.int64)
    np.minimum.at(first, label, np.arange(p))
    rank = np.empty_like(first)
    rank[np.argsort(first, kind="stable")] = np.arange(first.shape[0])
    label = rank[label]
    members = [np.flatnonzero(label == c) for c in range(first.shape[0])]
    return _merge_small(members, label, rows, cols, weights, min_size)
