# SPDX-License-Identifier: BSD-3-Clause
"""Approximate posteriors of a discrete network by likelihood weighting.

For networks whose elimination does not fit in memory: nodes are sampled forward in a
topological order, an observed node is set to its state instead and the sample's weight
multiplied by the probability of that state given the sampled parents (soft evidence
multiplies the likelihood of the sampled state). The weighted share of each state
estimates its posterior; the effective sample size ``(sum w)^2 / sum w^2`` says how many
unweighted samples the estimate is worth. Samples are drawn in chunks, so memory stays
bounded however many are asked for, and the same ``random_state`` gives the same answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from sklearn.utils import check_random_state

from skbn.inference._discrete import _likelihoods, _state_index, _targets
from skbn.network._discrete import DiscreteBayesianNetwork

__all__ = ["likelihood_weighting"]

#: Cells (nodes x samples) of one chunk of samples.
_CHUNK_CELLS = 2**24


def _cumulative(network) -> dict:
    """Each node's CPT rows (a row per parent configuration) and their cumulative sums."""
    out = {}
    for v in network.nodes:
        table = network.cpts[v]
        flat = table.reshape(-1, table.shape[-1])
        cum = np.cumsum(flat, axis=1)
        cum /= cum[:, -1:]  # exact 1 at the end: a zero-probability last state is never drawn
        out[v] = (flat, cum)
    return out


def _one_case(network, names, lam_row: dict, n_samples: int, rng, tables: dict):
    """Weighted state counts of each target and the sum of weights and of squared weights."""
    p = len(network.nodes)
    index = network._index
    hard = {}
    soft = {}
    for v, row in lam_row.items():
        if np.count_nonzero(row) == 1 and row.max() == 1.0:
            hard[v] = int(np.argmax(row))
        else:
            soft[v] = row
    counts = {v: np.zeros(network.arities[v]) for v in names}
    total = total_sq = 0.0
    log_top = None
    chunk = max(1024, _CHUNK_CELLS // max(p, 1))
    done = 0
    while done < n_samples:
        m = min(chunk, n_samples - done)
        done += m
        codes = np.zeros((p, m), dtype=np.int32)
        log_w = np.zeros(m)
        uniforms = rng.random_sample((p, m))
        for i in network._order.tolist():
            v = network.nodes[i]
            flat, cum = tables[v]
            table = network.cpts[v]
            pa = [index[u] for u in network.parents[v]]
            if pa:
                config = np.ravel_multi_index(tuple(codes[j] for j in pa), table.shape[:-1])
            else:
                config = np.zeros(m, dtype=np.intp)
            if v in hard:
                codes[i] = hard[v]
                with np.errstate(divide="ignore"):
                    log_w += np.log(flat[config, hard[v]])
                continue
            codes[i] = (uniforms[i][:, None] >= cum[config][:, :-1]).sum(axis=1)
            if v in soft:
                with np.errstate(divide="ignore"):
                    log_w += np.log(soft[v][codes[i]])
        # weights relative to the largest seen so far, so that no chunk underflows
        top = log_w.max()
        if not np.isfinite(top):
            continue
        if log_top is None or top > log_top:
            if log_top is not None:
                scale = np.exp(log_top - top)
                total, total_sq = total * scale, total_sq * scale**2
                for v in names:
                    counts[v] *= scale
            log_top = top
        w = np.exp(log_w - log_top)
        total += w.sum()
        total_sq += (w * w).sum()
        for v in names:
            counts[v] += np.bincount(codes[index[v]], weights=w, minlength=network.arities[v])
    return counts, total, total_sq


def labelled_estimates(network, targets, names, probs: dict, evidence, batched: bool):
    """Estimated posteriors ``probs[v]`` (shape ``(n_rows, r)``), labelled as ``query`` does.

    A Series per target for one evidence case, a DataFrame per target for a batch, one of
    them alone when ``targets`` is a single name.
    """
    results = {}
    for v in names:
        columns = _state_index(v, network.states[v])
        if batched:
            results[v] = pd.DataFrame(probs[v], index=evidence.index, columns=columns)
        else:
            results[v] = pd.Series(probs[v][0], index=columns, name="probability")
    return results[names[0]] if isinstance(targets, str) else results


def likelihood_weighting(
    network: DiscreteBayesianNetwork,
    targets: str | Sequence[str],
    evidence=None,
    *,
    soft_evidence: Mapping[str, Sequence[float]] | None = None,
    n_samples: int = 100_000,
    random_state=None,
):
    """Approximate posteriors of ``targets`` given ``evidence`` by likelihood weighting.

    For networks whose exact elimination does not fit in memory; where it does,
    :func:`skbn.inference.query` is exact and usually faster.

    Parameters
    ----------
    network : DiscreteBayesianNetwork
    targets : str or list of str
    evidence : dict, DataFrame or None, default=None
        As for :func:`skbn.inference.query`; a DataFrame is answered row by row.
    soft_evidence : dict of str to array-like, optional
        As for :func:`skbn.inference.query`.
    n_samples : int, default=100_000
        Weighted samples per evidence case. The error of a posterior ``q`` is about
        ``sqrt(q (1 - q) / ess)``.
    random_state : int, RandomState instance or None, default=None
        Seed of the samples; the same seed gives the same answer.

    Returns
    -------
    posteriors : Series, DataFrame or dict
        As :func:`skbn.inference.query` returns them (NaN rows where no sample had weight).
    effective_sample_size : float or ndarray of shape (n_rows,)
        ``(sum w)^2 / sum w^2`` per evidence case: about how many unweighted samples the
        estimates are worth (``n_samples`` without evidence, far fewer for unlikely
        evidence).

    References
    ----------
    R. Fung and K.-C. Chang, "Weighing and integrating evidence for stochastic simulation in
    Bayesian networks", UAI 1989.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from skbn.inference import likelihood_weighting, query
    >>> asia = load_network("asia")
    >>> approx, ess = likelihood_weighting(asia, "lung", {"smoke": "yes", "dysp": "yes"},
    ...                                    n_samples=200_000, random_state=0)
    >>> exact = query(asia, "lung", {"smoke": "yes", "dysp": "yes"})
    >>> bool(abs(approx["yes"] - exact["yes"]) < 0.01), ess < 200_000
    (True, True)
    """
    if not isinstance(network, DiscreteBayesianNetwork):
        raise TypeError(
            "likelihood_weighting samples DiscreteBayesianNetwork objects; got "
            f"{type(network).__name__}."
        )
    if not isinstance(n_samples, int | np.integer) or n_samples < 1:
        raise ValueError(f"n_samples must be a positive integer; got {n_samples!r}.")
    names = _targets(network, targets)
    lam, n, batched = _likelihoods(network, evidence, soft_evidence)
    rng = check_random_state(random_state)
    probs = {v: np.full((n, network.arities[v]), np.nan) for v in names}
    ess = np.zeros(n)
    tables = _cumulative(network)
    for row in range(n):
        lam_row = {v: t[row] for v, t in lam.items() if not np.all(t[row] == 1.0)}
        counts, total, total_sq = _one_case(network, names, lam_row, int(n_samples), rng, tables)
        if total > 0:
            ess[row] = total * total / total_sq
            for v in names:
                probs[v][row] = counts[v] / total
    if not batched and not ess[0] > 0:
        raise ValueError(
            "No sample had a positive weight: the evidence is impossible, or too unlikely for "
            f"{n_samples} samples."
        )
    out = labelled_estimates(network, targets, names, probs, evidence, batched)
    return out, (ess if batched else float(ess[0]))
