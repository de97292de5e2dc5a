# SPDX-License-Identifier: BSD-3-Clause
"""Every single-node posterior in two passes over a clique tree, many evidence rows at once.

The clique tree is read off an elimination order: eliminating ``v`` forms the cluster of
``v`` and its current neighbours, whose separator (the neighbours) is a cluster of a later
step, that of the first of them eliminated, which becomes its parent. Each factor goes to
the first cluster that holds its scope. A collect pass sends each cluster's product, summed
over its eliminated node, to its parent; a distribute pass (Hugin's: the parent's belief
summed onto the separator, divided by the message the child sent) returns them, after which
each cluster's belief is proportional, row by row, to the joint of its nodes and the
evidence. A node's posterior is its cluster's belief summed onto it and normalised.
"""

from __future__ import annotations

import numpy as np

from skbn.inference._elimination import _combine, _product, _scaled, min_fill_clusters

__all__ = ["all_marginals"]


def _sum_onto(values: np.ndarray, scope: tuple, out: tuple) -> np.ndarray:
    return _combine([(scope, values)], out)


def _expand(values: np.ndarray, scope: tuple, into: tuple) -> np.ndarray:
    """``values`` over ``scope`` with singleton axes for the rest of ``into``.

    Both are sorted tuples and ``scope`` lies in ``into``, so the axes are already in order.
    """
    shape = (values.shape[0],) + tuple(
        values.shape[1 + scope.index(v)] if v in scope else 1 for v in into
    )
    return values.reshape(shape)


def _rescaled(values: np.ndarray, n: int) -> np.ndarray:
    """``values`` divided by each row's largest entry (beliefs are proportional per row)."""
    return _scaled(values, n, np.zeros(n))


def tree_cells(scopes, arities) -> tuple[list[int], list[tuple], int]:
    """The elimination order, its clusters and all clusters' cells (per row)."""
    variables = sorted({v for s in scopes for v in s})
    order, clusters = min_fill_clusters(scopes, variables, arities)
    total = sum(int(np.prod([arities[u] for u in c], dtype=np.int64)) for c in clusters)
    return order, clusters, total


def all_marginals(factors, arities, n: int, plan=None) -> dict[int, np.ndarray]:
    """Normalised posterior of every variable, shape ``(n, r)``, NaN where ``P(e) = 0``.

    ``factors`` as in :mod:`skbn.inference._elimination` (scopes over ``range(len(arities))``).
    """
    scopes = [s for s, _ in factors]
    order, clusters, _ = plan if plan is not None else tree_cells(scopes, arities)
    step = {v: k for k, v in enumerate(order)}
    m = len(order)
    parent = [-1] * m
    for k, (v, cluster) in enumerate(zip(order, clusters)):
        separator = [u for u in cluster if u != v]
        if separator:
            parent[k] = min(step[u] for u in separator)
    assigned: list[list] = [[] for _ in range(m)]
    for scope, values in factors:
        if scope:
            assigned[min(step[u] for u in scope)].append((scope, values))
        else:
            assigned[0].append((scope, values))
    children: list[list[int]] = [[] for _ in range(m)]
    for k, p in enumerate(parent):
        if p >= 0:
            children[p].append(k)
    dummy = np.zeros(n)
    psi: list[np.ndarray | None] = [None] * m
    up: list[np.ndarray | None] = [None] * m
    inbox: list[list] = [[] for _ in range(m)]
    for k in range(m):  # collect: children come before their parent in the order
        cluster = clusters[k]
        parts = assigned[k] + inbox[k] + [((), np.ones(n))]
        psi[k] = _rescaled(_product(parts, cluster, n, dummy), n)
        if parent[k] >= 0:
            separator = tuple(u for u in cluster if u != order[k])
            up[k] = _rescaled(_sum_onto(psi[k], cluster, separator), n)
            inbox[parent[k]].append((separator, up[k]))
    belief: list[np.ndarray | None] = [None] * m
    out: dict[int, np.ndarray] = {}
    for k in reversed(range(m)):  # distribute: a parent comes after its children
        cluster = clusters[k]
        if belief[k] is None:
            belief[k] = psi[k]  # a root
        for c in children[k]:
            separator = tuple(u for u in clusters[c] if u != order[c])
            total = _sum_onto(belief[k], cluster, separator)
            with np.errstate(invalid="ignore", divide="ignore"):
                message = np.where(up[c] > 0, total / np.where(up[c] > 0, up[c], 1.0), 0.0)
            message = _rescaled(message, n)
            belief[c] = _rescaled(psi[c] * _expand(message, separator, clusters[c]), n)
        values = _sum_onto(belief[k], cluster, (order[k],))
        total = values.sum(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[order[k]] = np.where(total > 0, values / np.where(total > 0, total, 1.0), np.nan)
        psi[k] = belief[k] = up[k] = None  # done with this cluster
    return out
