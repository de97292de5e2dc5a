# SPDX-License-Identifier: BSD-3-Clause
"""Kernels of order MCMC: order scores from candidate parent sets, and the chain itself.

Node ``v``'s candidate parent sets are ``masks[offsets[v]:offsets[v + 1]]`` (bit masks over
the variables, so at most 63 variables) with local scores ``scores[...]``.
"""

# numba keeps its own legacy-API random state per thread; seeding it inside the kernel makes
# the chain reproducible, which a Generator passed from Python would not make faster.
# ruff: noqa: NPY002

from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(cache=True)
def node_order_score(masks, scores, start, stop, pred):
    """log-sum-exp of the scores of the sets within ``pred``, and the best such set's index."""
    top = -np.inf
    best = -1
    for k in range(start, stop):
        if masks[k] & ~pred == 0 and scores[k] > top:
            top = scores[k]
            best = k
    if best < 0:
        return -np.inf, -1
    total = 0.0
    for k in range(start, stop):
        if masks[k] & ~pred == 0:
            total += math.exp(scores[k] - top)
    return top + math.log(total), best


@njit(cache=True)
def _sample_set(masks, scores, start, stop, pred, log_total):
    u = np.random.random()
    acc = 0.0
    last = -1
    for k in range(start, stop):
        if masks[k] & ~pred == 0:
            acc += math.exp(scores[k] - log_total)
            last = k
            if u < acc:
                return k
    return last


@njit(cache=True)
def _predecessor_masks(order):
    p = order.shape[0]
    pred = np.empty(p, dtype=np.int64)
    seen = np.int64(0)
    for i in range(p):
        v = order[i]
        pred[v] = seen
        seen |= np.int64(1) << v
    return pred


@njit(cache=True)
def run_order_chain(offsets, masks, scores, order, n_iter, burn_in, thin, seed):
    """Metropolis-Hastings over orders, swapping two positions (adjacent half of the time).

    Returns ``(trace, best_order, best_order_score, edge_counts, n_samples, best_dag_parents,
    best_dag_score, n_accepted)``. After ``burn_in`` iterations, every ``thin``-th state
    contributes one DAG drawn from the order's posterior to ``edge_counts``; the best DAG
    consistent with each sampled or record-setting order is tracked as the MAP estimate.
    """
    np.random.seed(seed)
    p = order.shape[0]
    order = order.copy()
    pred = _predecessor_masks(order)
    node = np.empty(p)
    for v in range(p):
        node[v], _ = node_order_score(masks, scores, offsets[v], offsets[v + 1], pred[v])
    total = node.sum()
    trace = np.empty(n_iter)
    best_order = order.copy()
    best_order_score = total
    edge_counts = np.zeros((p, p))
    n_samples = 0
    best_dag = np.zeros(p, dtype=np.int64)
    best_dag_score = -np.inf
    n_accepted = 0
    new_node = node.copy()
    for it in range(n_iter):
        if p > 1:
            if np.random.random() < 0.5:
                i = np.random.randint(p - 1)
                j = i + 1
            else:
                i = np.random.randint(p)
                j = np.random.randint(p - 1)
                if j >= i:
                    j += 1
                if i > j:
                    i, j = j, i
            # positions i..j change predecessors
            order[i], order[j] = order[j], order[i]
            seen = np.int64(0)
            for k in range(i):
                seen |= np.int64(1) << order[k]
            new_total = total
            for k in range(i, j + 1):
                v = order[k]
                s, _ = node_order_score(masks, scores, offsets[v], offsets[v + 1], seen)
                new_total += s - node[v]
                new_node[v] = s
                seen |= np.int64(1) << v
            if math.log(np.random.random() + 1e-300) < new_total - total:
                for k in range(i, j + 1):
                    node[order[k]] = new_node[order[k]]
                total = new_total
                n_accepted += 1
                pred = _predecessor_masks(order)
            else:
                order[i], order[j] = order[j], order[i]
        trace[it] = total
        record = total > best_order_score
        if record:
            best_order_score = total
            best_order[:] = order
        sample = it >= burn_in and (it - burn_in) % thin == 0
        if sample or record:
            # the best DAG of this order
            dag_score = 0.0
            parents = np.zeros(p, dtype=np.int64)
            for v in range(p):
                _, k = node_order_score(masks, scores, offsets[v], offsets[v + 1], pred[v])
                parents[v] = masks[k]
                dag_score += scores[k]
            if dag_score > best_dag_score:
                best_dag_score = dag_score
                best_dag[:] = parents
        if sample:
            n_samples += 1
            for v in range(p):
                k = _sample_set(masks, scores, offsets[v], offsets[v + 1], pred[v], node[v])
                m = masks[k]
                for u in range(p):
                    if m >> u & 1:
                        edge_counts[u, v] += 1.0
    return (
        trace,
        best_order,
        best_order_score,
        edge_counts,
        n_samples,
        best_dag,
        best_dag_score,
        n_accepted,
    )
