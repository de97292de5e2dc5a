# SPDX-License-Identifier: BSD-3-Clause
"""Random DAGs with an exact number of arcs: Erdos-Renyi, scale-free and small-world."""

from __future__ import annotations

import networkx as nx
import numpy as np
from sklearn.utils import check_random_state

from skbn.graph._convert import from_adjacency

__all__ = ["make_erdos_renyi_dag", "make_scale_free_dag", "make_small_world_dag"]


def _check_sizes(n_nodes, n_edges, max_edges=None) -> tuple[int, int]:
    for name, value in (("n_nodes", n_nodes), ("n_edges", n_edges)):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"{name} must be an int, got {type(value).__name__}.")
    if n_nodes < 1:
        raise ValueError(f"n_nodes must be at least 1, got {n_nodes}.")
    limit = n_nodes * (n_nodes - 1) // 2 if max_edges is None else max_edges
    if not 0 <= n_edges <= limit:
        raise ValueError(
            f"n_edges must be between 0 and {limit} for {n_nodes} nodes, got {n_edges}."
        )
    return int(n_nodes), int(n_edges)


def _dag_from_pairs(p: int, lo: np.ndarray, hi: np.ndarray, rank_perm: np.ndarray) -> nx.DiGraph:
    """Orient each pair from the lower to the higher position of a random order."""
    A = np.zeros((p, p), dtype=np.int8)
    src = np.where(rank_perm[lo] < rank_perm[hi], lo, hi)
    dst = np.where(rank_perm[lo] < rank_perm[hi], hi, lo)
    A[src, dst] = 1
    return from_adjacency(A, kind="dag")


def _upper_pair(k: np.ndarray, p: int) -> tuple[np.ndarray, np.ndarray]:
    """Map linear indices of the strict upper triangle (row-major) to (i, j)."""
    k = k.astype(np.int64)
    b = 2 * p - 1
    i = np.floor((b - np.sqrt(b * b - 8.0 * k)) / 2).astype(np.int64)
    offset = lambda r: r * (2 * p - r - 1) // 2  # noqa: E731 - local closed form
    i = np.where(offset(i + 1) <= k, i + 1, i)
    i = np.where(offset(i) > k, i - 1, i)
    j = k - offset(i) + i + 1
    return i, j


def make_erdos_renyi_dag(n_nodes: int, n_edges: int, random_state=None) -> nx.DiGraph:
    """A DAG whose skeleton is uniform among graphs with ``n_edges`` edges.

    The edges are a uniform sample of node pairs, oriented along a uniformly random node
    order, so no node name hints at the causal order.

    Parameters
    ----------
    n_nodes : int
    n_edges : int
        Exact number of arcs, at most ``n_nodes * (n_nodes - 1) / 2``.
    random_state : int, RandomState instance or None, default=None

    Returns
    -------
    networkx.DiGraph
        Nodes ``x0, ..., x{n_nodes-1}``, ``graph["kind"] == "dag"``.

    Examples
    --------
    >>> g = make_erdos_renyi_dag(100, 200, random_state=0)
    >>> g.number_of_nodes(), g.number_of_edges()
    (100, 200)
    """
    p, m = _check_sizes(n_nodes, n_edges)
    rng = check_random_state(random_state)
    total = p * (p - 1) // 2
    if m > total // 2:
        chosen = rng.choice(total, size=m, replace=False)
    else:
        chosen = np.empty(0, dtype=np.int64)
        while len(chosen) < m:
            draw = rng.randint(0, total, size=2 * (m - len(chosen)) + 8, dtype=np.int64)
            merged = np.concatenate([chosen, draw])
            _, first = np.unique(merged, return_index=True)
            chosen = merged[np.sort(first)][:m]
    i, j = _upper_pair(np.asarray(chosen), p)
    return _dag_from_pairs(p, i, j, rng.permutation(p))


def make_scale_free_dag(n_nodes: int, n_edges: int, random_state=None) -> nx.DiGraph:
    """A DAG grown by preferential attachment (Barabasi-Albert style), with ``n_edges`` arcs.

    Nodes arrive one at a time; each attaches to earlier nodes chosen with probability
    proportional to their degree plus one, and the arcs point from the earlier node to the
    newcomer, so hubs have many children. The number of arcs per newcomer is spread evenly so
    the total is exact. Node names are then shuffled.

    Parameters
    ----------
    n_nodes : int
    n_edges : int
    random_state : int, RandomState instance or None, default=None

    Returns
    -------
    networkx.DiGraph

    Examples
    --------
    >>> g = make_scale_free_dag(200, 400, random_state=0)
    >>> g.number_of_edges()
    400
    """
    p, m = _check_sizes(n_nodes, n_edges)
    rng = check_random_state(random_state)
    # Arcs per newcomer: as even as possible, with newcomer t taking at most t.
    per_node = np.zeros(p, dtype=np.int64)
    remaining = m
    for t in range(1, p):
        share = min(t, -(-remaining // (p - t)))
        per_node[t] = share
        remaining -= share
    degree = np.zeros(p, dtype=np.float64)
    lo, hi = [], []
    for t in range(1, p):
        k = int(per_node[t])
        if k == 0:
            continue
        weights = degree[:t] + 1.0
        targets = rng.choice(t, size=k, replace=False, p=weights / weights.sum())
        degree[targets] += 1
        degree[t] += k
        lo.append(targets)
        hi.append(np.full(k, t))
    lo_arr = np.concatenate(lo) if lo else np.empty(0, dtype=np.int64)
    hi_arr = np.concatenate(hi) if hi else np.empty(0, dtype=np.int64)
    perm = rng.permutation(p)  # node t is renamed perm[t]; arrival order stays the causal order
    rank = np.empty(p, dtype=np.int64)
    rank[perm] = np.arange(p)
    return _dag_from_pairs(p, perm[lo_arr], perm[hi_arr], rank)


def make_small_world_dag(
    n_nodes: int, n_edges: int, rewire_prob: float = 0.1, random_state=None
) -> nx.DiGraph:
    """A DAG on a Watts-Strogatz small-world skeleton with ``n_edges`` arcs.

    A ring lattice joins each node to its nearest successors on the ring (``n_edges`` in all),
    each edge's far end is rewired to a random non-neighbour with probability
    ``rewire_prob``, and edges are oriented along a random node order.

    Parameters
    ----------
    n_nodes : int
    n_edges : int
        At most ``n_nodes * (n_nodes - 1) / 2 - n_nodes`` so that rewiring has room.
    rewire_prob : float, default=0.1
    random_state : int, RandomState instance or None, default=None

    Returns
    -------
    networkx.DiGraph

    Examples
    --------
    >>> g = make_small_world_dag(50, 100, random_state=0)
    >>> g.number_of_edges()
    100
    """
    p, m = _check_sizes(n_nodes, n_edges, max(0, n_nodes * (n_nodes - 1) // 2 - n_nodes))
    if not 0.0 <= rewire_prob <= 1.0:
        raise ValueError(f"rewire_prob must be in [0, 1], got {rewire_prob}.")
    rng = check_random_state(random_state)
    edges = set()
    adj = [set() for _ in range(p)]
    dist = 1
    while len(edges) < m:
        for i in range(p):
            if len(edges) == m:
                break
            j = (i + dist) % p
            key = (min(i, j), max(i, j))
            if i != j and key not in edges:
                edges.add(key)
                adj[i].add(j)
                adj[j].add(i)
        dist += 1
    for i, j in sorted(edges):
        if rng.random_sample() >= rewire_prob:
            continue
        if len(adj[i]) >= p - 1:
            continue
        k = int(rng.randint(p))
        while k == i or k in adj[i]:
            k = int(rng.randint(p))
        edges.discard((i, j))
        adj[i].discard(j)
        adj[j].discard(i)
        edges.add((min(i, k), max(i, k)))
        adj[i].add(k)
        adj[k].add(i)
    pairs = np.array(sorted(edges), dtype=np.int64).reshape(-1, 2)
    return _dag_from_pairs(p, pairs[:, 0], pairs[:, 1], rng.permutation(p))
