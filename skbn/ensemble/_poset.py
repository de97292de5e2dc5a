# SPDX-License-Identifier: BSD-3-Clause
"""Acyclic posets from bootstrap arc counts: the confidence heuristic and minimum agony."""

from __future__ import annotations

import numpy as np
from scipy import optimize, sparse

from skbn.graph._array import has_path

__all__ = ["confidence_poset", "agony_ranks", "agony_poset"]


def confidence_poset(counts: np.ndarray, rng) -> np.ndarray:
    """Drop, lowest count first, every observed arc that closes a directed cycle.

    Parameters
    ----------
    counts : ndarray of shape (p, p)
        ``counts[i, j]`` = number of bootstrap fits that contained ``i -> j``.
    rng : numpy RandomState
        Breaks ties between equal counts uniformly at random (as the authors' code does).

    Returns
    -------
    ndarray of bool, shape (p, p)
        The acyclic graph of the arcs kept (not transitively closed).
    """
    A = counts > 0
    rows, cols = np.nonzero(A)
    order = np.lexsort((rng.permutation(len(rows)), counts[rows, cols]))
    for k in order.tolist():
        i, j = int(rows[k]), int(cols[k])
        if A[i, j] and has_path(A, j, i):
            A[i, j] = False
    return A


def agony_ranks(counts: np.ndarray) -> np.ndarray:
    """Integer ranks minimising the agony of the weighted arcs (Tatti 2014), by an LP.

    Agony of a ranking r: ``sum over arcs u -> v of count(u, v) * max(0, r(u) - r(v) + 1)``.
    The LP (variables r_v and one slack per arc, HiGHS) has a totally unimodular constraint
    matrix, so its vertex solutions are integral. Optimal rankings are not unique; another
    solver may return another one of equal agony. Nodes without arcs get rank -1.

    Returns
    -------
    ndarray of int, shape (p,)
        Dense ranks 0..R of the nodes that have arcs.
    """
    p = counts.shape[0]
    rows, cols = np.nonzero(counts)
    ranks = np.full(p, -1, dtype=np.int64)
    if len(rows) == 0:
        return ranks
    nodes = np.unique(np.concatenate([rows, cols]))
    index = {v: k for k, v in enumerate(nodes.tolist())}
    m, e = len(nodes), len(rows)
    # variables: r (m), s (e); minimise sum w s subject to r_u - r_v - s <= -1
    c = np.concatenate([np.zeros(m), counts[rows, cols].astype(float)])
    data, ri, ci = [], [], []
    for k, (u, v) in enumerate(zip(rows.tolist(), cols.tolist())):
        ri += [k, k, k]
        ci += [index[u], index[v], m + k]
        data += [1.0, -1.0, -1.0]
    A_ub = sparse.csr_matrix((data, (ri, ci)), shape=(e, m + e))
    bounds = [(0, m)] * m + [(0, None)] * e
    res = optimize.linprog(c, A_ub=A_ub, b_ub=-np.ones(e), bounds=bounds, method="highs")
    if not res.success:  # pragma: no cover - the LP is always feasible and bounded
        raise RuntimeError(f"The agony LP failed: {res.message}")
    r = np.round(res.x[:m]).astype(np.int64)
    dense = np.unique(r, return_inverse=True)[1]
    ranks[nodes] = dense
    return ranks


def agony(counts: np.ndarray, ranks: np.ndarray) -> float:
    """Weighted agony of ``ranks`` for the arcs in ``counts``."""
    rows, cols = np.nonzero(counts)
    return float(np.sum(counts[rows, cols] * np.maximum(0, ranks[rows] - ranks[cols] + 1)))


def agony_poset(counts: np.ndarray, rng) -> np.ndarray:
    """Arcs that do not point down the minimum-agony hierarchy, then confidence pruning.

    An observed arc u -> v is kept when ``rank(u) <= rank(v)`` (equal ranks allow both
    directions); the confidence heuristic then removes what still closes a cycle.
    """
    ranks = agony_ranks(counts)
    allowed = (ranks[:, None] < ranks[None, :]) | (ranks[:, None] == ranks[None, :])
    allowed &= (ranks[:, None] >= 0) & (ranks[None, :] >= 0)
    np.fill_diagonal(allowed, False)
    return confidence_poset(np.where(allowed, counts, 0), rng)
