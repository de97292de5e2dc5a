# SPDX-License-Identifier: BSD-3-Clause
"""Sum-product messages on a discrete network's factor graph (loopy belief propagation).

A factor per CPT, its scope the parents then the node, its table flat in C order (the last
scope variable fastest). An *edge* is a (factor, scope position) pair, numbered
``scope_start[f] + position``; ``to_var[e]`` and ``to_factor[e]`` are the messages along it,
padded to the largest arity. ``var_edges[var_start[u]:var_start[u + 1]]`` are node ``u``'s
edges.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

#: The factor graph, as the module docstring lays it out (all int64 but ``tables``).
FactorGraph = namedtuple(
    "FactorGraph",
    ["tables", "table_start", "scopes", "scope_start", "arity", "var_edges", "var_start"],
)


@njit(cache=True)
def _normalise(vector, r):
    total = 0.0
    for s in range(r):
        total += vector[s]
    if total > 0.0:
        for s in range(r):
            vector[s] /= total


@njit(cache=True)
def loopy_messages(graph, lam, max_iter, tol, damping):
    """Run parallel rounds of messages until none changes by more than ``tol``.

    ``graph`` is a :data:`FactorGraph`; ``lam`` the likelihood of each node's states,
    shape ``(p, max arity)``. Returns the beliefs (unnormalised, same shape), whether the
    messages converged and the rounds run.
    """
    tables = graph.tables
    table_start = graph.table_start
    scopes = graph.scopes
    scope_start = graph.scope_start
    arity = graph.arity
    var_edges = graph.var_edges
    var_start = graph.var_start
    p = arity.shape[0]
    width = lam.shape[1]
    n_edges = scopes.shape[0]
    n_factors = scope_start.shape[0] - 1
    to_var = np.zeros((n_edges, width))
    to_factor = np.zeros((n_edges, width))
    for e in range(n_edges):
        r = arity[scopes[e]]
        for s in range(r):
            to_var[e, s] = 1.0 / r
    most = 1
    for f in range(n_factors):
        most = max(most, scope_start[f + 1] - scope_start[f])
    new = np.zeros((most, width))
    state = np.zeros(most, dtype=np.int64)
    before = np.ones(most + 1)
    after = np.ones(most + 1)
    degree_most = 1
    for u in range(p):
        degree_most = max(degree_most, var_start[u + 1] - var_start[u])
    left = np.ones((degree_most + 1, width))
    right = np.ones((degree_most + 1, width))
    converged = False
    rounds = 0
    for it in range(max_iter):
        rounds = it + 1
        # variable -> factor: the likelihood times every other factor's message
        for u in range(p):
            r = arity[u]
            first = var_start[u]
            d = var_start[u + 1] - first
            for s in range(r):
                left[0, s] = lam[u, s]
                right[d, s] = 1.0
            for j in range(d):
                e = var_edges[first + j]
                for s in range(r):
                    left[j + 1, s] = left[j, s] * to_var[e, s]
            for j in range(d - 1, -1, -1):
                e = var_edges[first + j]
                for s in range(r):
                    right[j, s] = right[j + 1, s] * to_var[e, s]
            for j in range(d):
                e = var_edges[first + j]
                for s in range(r):
                    to_factor[e, s] = left[j, s] * right[j + 1, s]
                _normalise(to_factor[e], r)
        # factor -> variable: sum over the table of the other scope variables' messages
        change = 0.0
        for f in range(n_factors):
            lo = scope_start[f]
            k = scope_start[f + 1] - lo
            for j in range(k):
                state[j] = 0
                for s in range(width):
                    new[j, s] = 0.0
            for cell in range(table_start[f + 1] - table_start[f]):
                value = tables[table_start[f] + cell]
                if value != 0.0:
                    before[0] = 1.0
                    for j in range(k):
                        before[j + 1] = before[j] * to_factor[lo + j, state[j]]
                    after[k] = 1.0
                    for j in range(k - 1, -1, -1):
                        after[j] = after[j + 1] * to_factor[lo + j, state[j]]
                    for j in range(k):
                        new[j, state[j]] += value * before[j] * after[j + 1]
                # next cell: the last scope variable runs fastest
                j = k - 1
                while j >= 0:
                    state[j] += 1
                    if state[j] < arity[scopes[lo + j]]:
                        break
                    state[j] = 0
                    j -= 1
            for j in range(k):
                e = lo + j
                r = arity[scopes[e]]
                _normalise(new[j], r)
                if damping > 0.0:
                    for s in range(r):
                        new[j, s] = damping * to_var[e, s] + (1.0 - damping) * new[j, s]
                    _normalise(new[j], r)
                for s in range(r):
                    diff = abs(new[j, s] - to_var[e, s])
                    if diff > change:
                        change = diff
                    to_var[e, s] = new[j, s]
        if change < tol:
            converged = True
            break
    beliefs = np.zeros((p, width))
    for u in range(p):
        r = arity[u]
        for s in range(r):
            beliefs[u, s] = lam[u, s]
        for j in range(var_start[u], var_start[u + 1]):
            e = var_edges[j]
            for s in range(r):
                beliefs[u, s] *= to_var[e, s]
    return beliefs, converged, rounds
