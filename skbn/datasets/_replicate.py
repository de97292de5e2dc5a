# SPDX-License-Identifier: BSD-3-Clause
"""Large block networks made of copies of a base network joined by random arcs."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
from sklearn.utils import check_random_state

from skbn.graph._array import topological_sort_array
from skbn.graph._convert import as_adjacency
from skbn.network._discrete import DiscreteBayesianNetwork
from skbn.utils._memory import check_allocation

__all__ = ["replicate_network"]


def _replicated_arcs(A: np.ndarray, n_copies: int, connect_fraction: float, rng):
    """Arcs of the copies of A, plus random cross-copy arcs along a random global order.

    Works on arc lists, not a dense matrix, so 30,000-node networks stay small in memory.
    """
    p = A.shape[0]
    total = p * n_copies
    rows, cols = np.nonzero(A)
    offsets = (np.arange(n_copies) * p)[:, None]
    arcs = list(zip((rows + offsets).ravel().tolist(), (cols + offsets).ravel().tolist()))
    n_extra = int(round(connect_fraction * len(arcs)))
    if n_copies < 2 or n_extra == 0:
        return arcs, []
    max_pairs = total * (total - 1) // 2 - n_copies * p * (p - 1) // 2
    if n_extra > max_pairs:
        raise ValueError("connect_fraction asks for more cross-copy arcs than there are pairs.")
    # A random linear extension of the copies: each copy keeps its own topological order,
    # interleaved at random with the others.
    order = topological_sort_array(A)
    keys = np.sort(rng.random_sample((n_copies, p)), axis=1)
    rank = np.empty(total, dtype=np.float64)
    for c in range(n_copies):
        rank[c * p + order] = keys[c]
    taken = {(min(u, v), max(u, v)) for u, v in arcs}
    extra = []
    while len(extra) < n_extra:
        u, v = (int(x) for x in rng.randint(total, size=2))
        if u // p == v // p or (min(u, v), max(u, v)) in taken:
            continue
        if rank[u] > rank[v]:
            u, v = v, u
        taken.add((min(u, v), max(u, v)))
        extra.append((u, v))
    return arcs, extra


def replicate_network(network, n_nodes: int, connect_fraction: float = 0.1, random_state=None):
    """Replicate a base network and join the copies by random arcs (Auto-SLE, PEF papers).

    ``ceil(n_nodes / p)`` copies of the ``p``-node base network are made (so the result has
    at least ``n_nodes`` nodes, a multiple of ``p``); node ``v`` of copy ``k`` is named
    ``f"{v}_{k}"`` (k from 1). Then ``round(connect_fraction * arcs)`` random arcs are added
    between nodes of different copies, each oriented along one random topological order of
    the whole network, so the result stays acyclic.

    Parameters
    ----------
    network : networkx.DiGraph, array-like of shape (p, p) or DiscreteBayesianNetwork
        The base network (a DAG).
    n_nodes : int
        The smallest acceptable number of nodes.
    connect_fraction : float, default=0.1
        Cross-copy arcs as a fraction of the arcs of the copies (10% in the Auto-SLE paper).
    random_state : int, RandomState instance or None, default=None

    Returns
    -------
    networkx.DiGraph or DiscreteBayesianNetwork
        Same kind as ``network``. For a discrete network each copy keeps the base CPTs; a
        node that gains a cross-copy parent gets, for every state of that parent, its base
        distribution mixed half-and-half with a random Dirichlet(1) distribution (our choice:
        the extra arc is a real dependence, while the base network's signal is kept).

    Examples
    --------
    >>> import networkx as nx
    >>> g = replicate_network(nx.DiGraph([("a", "b"), ("b", "c")]), 9, random_state=0)
    >>> g.number_of_nodes(), g.number_of_edges()
    (9, 7)
    """
    if isinstance(n_nodes, (bool, np.bool_)) or not isinstance(n_nodes, (int, np.integer)):
        raise TypeError(f"n_nodes must be an int, got {type(n_nodes).__name__}.")
    if not 0.0 <= connect_fraction:
        raise ValueError(f"connect_fraction must be non-negative, got {connect_fraction}.")
    rng = check_random_state(random_state)
    base = network.graph if isinstance(network, DiscreteBayesianNetwork) else network
    A, nodes = as_adjacency(base)
    if topological_sort_array(A) is None:
        raise ValueError("The base network must be a DAG.")
    p = len(nodes)
    if n_nodes < 1:
        raise ValueError(f"n_nodes must be at least 1, got {n_nodes}.")
    n_copies = max(1, math.ceil(n_nodes / p))
    # the names, arcs and tables of every copy: at least 200 bytes a node
    check_allocation(200.0 * n_copies * p, f"n_nodes={n_nodes}", "ask for fewer nodes")
    names = [f"{v}_{k}" for k in range(1, n_copies + 1) for v in nodes]
    if len(set(names)) != len(names):
        raise ValueError("Replicated node names collide; rename the base network's nodes.")
    arcs, extra = _replicated_arcs(A, n_copies, connect_fraction, rng)
    if not isinstance(network, DiscreteBayesianNetwork):
        g = nx.DiGraph(kind="dag")
        g.add_nodes_from(names)
        g.add_edges_from((names[u], names[v]) for u, v in arcs + extra)
        return g
    return _replicate_discrete(network, nodes, names, n_copies, extra, rng)


def _replicate_discrete(bn, nodes, names, n_copies, extra, rng) -> DiscreteBayesianNetwork:
    p = len(nodes)
    states, parents, cpts = {}, {}, {}
    for k in range(n_copies):
        for v in nodes:
            name = f"{v}_{k + 1}"
            states[name] = bn.states[v]
            parents[name] = [f"{u}_{k + 1}" for u in bn.parents[v]]
            cpts[name] = bn.cpts[v]
    for u, v in extra:
        child, parent = names[v], names[u]
        table = cpts[child]
        r_new = len(bn.states[nodes[u % p]])
        r = table.shape[-1]
        n_configs = table.size // r
        noise = rng.dirichlet(np.ones(r), size=(r_new, n_configs))
        base = np.broadcast_to(table.reshape(1, n_configs, r), noise.shape)
        mixed = 0.5 * base + 0.5 * noise  # (r_new, configs, r)
        mixed = np.moveaxis(mixed.reshape((r_new,) + table.shape), 0, -2)
        cpts[child] = mixed
        parents[child] = parents[child] + [parent]
    return DiscreteBayesianNetwork(states, parents, cpts, name=f"{bn.name}x{n_copies}")
