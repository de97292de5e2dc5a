# SPDX-License-Identifier: BSD-3-Clause
"""Expectation step of EM for discrete Bayesian networks, by likelihood weighting.

Tables are flat arrays of log-probabilities: node ``j``'s table starts at ``table_ptr[j]`` and
holds ``q_j`` rows of ``r_j`` entries, row ``c`` for the parent configuration
``c = sum_k x[pa_k] * prod_{l < k} r[pa_l]`` (the first parent varies fastest).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

#: A network as the E-step reads it: each node's number of states, a topological order,
#: the parents as compressed rows (``par_ptr``, ``par_idx``) and the flat log-tables with
#: each node's start (``table_ptr``).
FlatNetwork = namedtuple(
    "FlatNetwork", ["arities", "order", "par_ptr", "par_idx", "table_ptr", "log_tables"]
)


@njit(cache=True)
def _configuration(x, par_idx, start, stop, arities):
    c = 0
    stride = 1
    for t in range(start, stop):
        u = par_idx[t]
        c += x[u] * stride
        stride *= arities[u]
    return c


@njit(cache=True)
def _add_row_counts(x, weight, network, counts):
    arities, par_ptr, par_idx, table_ptr = (
        network.arities,
        network.par_ptr,
        network.par_idx,
        network.table_ptr,
    )
    for j in range(x.shape[0]):
        c = _configuration(x, par_idx, par_ptr[j], par_ptr[j + 1], arities)
        counts[table_ptr[j] + c * arities[j] + x[j]] += weight


@njit(cache=True)
def likelihood_weighting_estep(codes, network, n_particles, seed, counts):
    """Expected family counts, weighted-mode imputations and the observed-data log-likelihood.

    ``network`` is a :data:`FlatNetwork`.

    A complete row adds one count to each family. An incomplete row draws ``n_particles``
    particles: the nodes in topological ``order``, a missing node sampled from its table
    given the particle's parents, an observed node clamped and its probability multiplied
    into the particle's weight. Each particle adds its normalised weight to the families'
    counts (``counts`` is updated in place), and the row's missing values are imputed by the
    weighted mode of their particles. Row ``i`` uses the random stream seeded ``seed + i``,
    so the result does not depend on how rows are split.

    Returns
    -------
    imputed : ndarray of int16, shape (n, p)
        ``codes`` with every missing value replaced.
    loglik : float
        Estimated log-likelihood of the observed values: exact for complete rows, the log of
        the mean particle weight for incomplete ones.
    """
    arities, order, par_ptr, par_idx, table_ptr, log_tables = network
    n, p = codes.shape
    imputed = codes.copy()
    x = np.empty(p, dtype=np.int64)
    samples = np.empty((n_particles, p), dtype=np.int64)
    logw = np.empty(n_particles)
    r_max = 1
    for j in range(p):
        r_max = max(r_max, arities[j])
    votes = np.empty(r_max)
    loglik = 0.0
    for i in range(n):
        n_missing = 0
        for j in range(p):
            if codes[i, j] < 0:
                n_missing += 1
        if n_missing == 0:
            w = 0.0
            for j in range(p):
                x[j] = codes[i, j]
            for j in range(p):
                c = _configuration(x, par_idx, par_ptr[j], par_ptr[j + 1], arities)
                w += log_tables[table_ptr[j] + c * arities[j] + x[j]]
            loglik += w
            _add_row_counts(x, 1.0, network, counts)
            continue
        np.random.seed(seed + i)  # noqa: NPY002 - numba's njit has the legacy API only
        for s in range(n_particles):
            w = 0.0
            for t in range(p):
                j = order[t]
                c = _configuration(x, par_idx, par_ptr[j], par_ptr[j + 1], arities)
                base = table_ptr[j] + c * arities[j]
                if codes[i, j] >= 0:
                    x[j] = codes[i, j]
                    w += log_tables[base + x[j]]
                else:
                    u = np.random.random()  # noqa: NPY002
                    k = 0
                    acc = np.exp(log_tables[base])
                    while acc < u and k < arities[j] - 1:
                        k += 1
                        acc += np.exp(log_tables[base + k])
                    x[j] = k
            samples[s, :] = x
            logw[s] = w
        top = logw.max()
        total = 0.0
        for s in range(n_particles):
            logw[s] = np.exp(logw[s] - top)
            total += logw[s]
        loglik += top + np.log(total / n_particles)
        for s in range(n_particles):
            _add_row_counts(samples[s], logw[s] / total, network, counts)
        for j in range(p):
            if codes[i, j] >= 0:
                continue
            votes[:] = 0.0
            for s in range(n_particles):
                votes[samples[s, j]] += logw[s]
            best = 0
            for k in range(1, arities[j]):
                if votes[k] > votes[best]:
                    best = k
            imputed[i, j] = best
    return imputed, loglik
