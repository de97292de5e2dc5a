# SPDX-License-Identifier: BSD-3-Clause
"""The E-step of structural EM on mixed (conditional-Gaussian) and Gaussian data.

Each incomplete row is completed by likelihood weighting under the current
conditional-Gaussian network: particles draw the row's missing values forward in a
topological order (a discrete node from its CPT row, a continuous node from its regression
on its parents), each weighted by the density of the row's observed values given the values
drawn before them. A missing discrete value becomes the state with the most weight, a
missing continuous value the weighted mean: the counterpart for mixed data of the discrete
E-step (:mod:`skbn._kernels.em`).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import logsumexp

from skbn._kernels.discrete import config_index
from skbn.data import MixedData
from skbn.network._parameters import CGParameters

__all__ = ["as_mixed", "cg_estep"]

#: Particles drawn at once (rows times particles), bounding the E-step's memory.
_BLOCK = 50_000


def as_mixed(data) -> MixedData:
    """Gaussian data as mixed data without discrete columns (mixed data as it is)."""
    if data.kind == "mixed":
        return data
    if data.kind != "gaussian":
        raise TypeError(f"expected Gaussian or mixed data, got {type(data).__name__}")
    n, p = data.values.shape
    return MixedData(
        np.zeros((n, p), np.int16),
        np.ones(p, np.int64),
        ((),) * p,
        data.values,
        np.zeros(p, bool),
        data.names,
    )


def _moments(params: CGParameters, j: int, codes, values, arities):
    """Mean and variance of continuous node ``j`` given its parents, at each row."""
    reg = params.regressions[j]
    index, _ = config_index(codes, reg.discrete_parents, arities)
    pos = np.minimum(np.searchsorted(reg.keys, index), len(reg.keys))
    found = pos < len(reg.keys)
    found[found] = reg.keys[pos[found]] == index[found]
    row = np.where(found, pos, len(reg.keys))
    mean = reg.intercepts[row] + np.einsum(
        "ik,ik->i", values[:, reg.continuous_parents], reg.coefficients[row]
    )
    return mean, reg.variances[row]


def cg_estep(
    data: MixedData, params: CGParameters, order: np.ndarray, n_particles: int, rng
) -> tuple[np.ndarray, np.ndarray, float]:
    """Complete ``data`` under ``params``; returns codes, values and the observed log-likelihood.

    ``order`` is a topological order of the network. The log-likelihood is that of the
    observed values, estimated from the particles' weights on the incomplete rows and
    exactly on the complete ones.
    """
    observed = data.observed
    codes = np.array(data.codes, dtype=np.int16)
    values = np.array(data.values, dtype=np.float64)
    arities = data.arities
    complete = observed.all(axis=1)
    loglik = 0.0
    if complete.any():
        loglik += float(
            params.log_likelihood_rows(codes[complete], arities, values[complete]).sum()
        )
    rows = np.flatnonzero(~complete)
    K = n_particles
    step = max(1, _BLOCK // K)
    discrete = data.discrete
    for start in range(0, len(rows), step):
        block = rows[start : start + step]
        m = len(block)
        pc = np.repeat(codes[block], K, axis=0)
        pv = np.repeat(values[block], K, axis=0)
        seen = np.repeat(observed[block], K, axis=0)
        logw = np.zeros(m * K)
        for j in order:
            miss = ~seen[:, j]
            if discrete[j]:
                index, _ = config_index(pc, params.parents[j], arities)
                table = params.log_cpts[j]
                if miss.any():
                    cum = np.cumsum(np.exp(table[index[miss]]), axis=1)
                    u = rng.random_sample(int(miss.sum())) * cum[:, -1]
                    pc[miss, j] = np.minimum((u[:, None] > cum).sum(axis=1), table.shape[1] - 1)
                hit = ~miss
                logw[hit] += table[index[hit], pc[hit, j]]
            else:
                mean, var = _moments(params, j, pc, pv, arities)
                if miss.any():
                    draw = rng.standard_normal(int(miss.sum()))
                    pv[miss, j] = mean[miss] + np.sqrt(var[miss]) * draw
                hit = ~miss
                z = pv[hit, j] - mean[hit]
                logw[hit] += -0.5 * (np.log(2 * math.pi * var[hit]) + z * z / var[hit])
        logw = logw.reshape(m, K)
        norm = logsumexp(logw, axis=1, keepdims=True)
        loglik += float((norm[:, 0] - math.log(K)).sum())
        w = np.exp(logw - norm)
        for j in np.flatnonzero(~observed[block].all(axis=0)):
            gap = ~observed[block, j]
            if discrete[j]:
                draws = pc[:, j].reshape(m, K)
                votes = np.stack(
                    [(w * (draws == s)).sum(axis=1) for s in range(int(arities[j]))], axis=1
                )
                codes[block[gap], j] = np.argmax(votes[gap], axis=1)
            else:
                values[block[gap], j] = (w[gap] * pv[:, j].reshape(m, K)[gap]).sum(axis=1)
    return codes, values, loglik
