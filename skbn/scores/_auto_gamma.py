# SPDX-License-Identifier: BSD-3-Clause
"""EBIC's ``gamma="auto"``: the smallest ``gamma`` whose accepted pairs are mostly not chance.

BIC accepts an edge between two independent columns with a probability that does not fall
with the number of columns: about 5% of the pairs of fair coins at 50 rows, 1% at 1,000 (the
tail of a chi-square beyond ``df * log(n)``). With thousands of columns that are mostly
unrelated, as in screening data, those chance pairs swamp the real ones: at 200 rows of
2,000 columns of which ALARM's 37 are related, FGES with BIC learned 3,814 false
adjacencies on average (``examples/benchmarks/wide_discrete.py``).

The rule counts, for every ``gamma`` on a grid, the pairs of columns whose one-edge gain
passes EBIC's penalty ``base + gamma * log(p)`` per parameter, and the number of pairs that
would pass if every pair were independent (each pair's chi-square tail with its ``df``). It
takes the smallest ``gamma`` at which the chance pairs are at most ``chance_share`` of the
pairs passing, or at most one pair in all: on data where BIC expects less than one chance
pair, or where the real pairs outnumber the chance ones twentyfold, ``gamma`` is 0 and the
score is BIC exactly.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.stats import chi2

from skbn._kernels.pair_gains import pair_gamma_bins
from skbn.graph._array import name_order

#: Width of the grid of ``gamma`` and its largest value (beyond it, no pair passes by chance
#: at any size skbn meets: the chance tail is below 1e-20 per pair).
GAMMA_STEP = 0.01
GAMMA_MAX = 4.0
#: Most pair x row cells counted; beyond, the pairs of an even subset of the columns (in the
#: order of their names) stand for all, and at least ``MIN_COLUMNS`` columns are taken.
PAIR_BUDGET = 2 * 10**8
MIN_COLUMNS = 200


def _columns(names, n_samples: int) -> np.ndarray:
    """The columns whose pairs are counted: all, or an even subset in name order."""
    p = len(names)
    if p * (p - 1) / 2 * max(n_samples, 1) <= PAIR_BUDGET:
        return np.arange(p, dtype=np.int64)
    m = min(p, max(MIN_COLUMNS, int(math.sqrt(2 * PAIR_BUDGET / max(n_samples, 1)))))
    by_name = name_order(names)
    picks = np.unique(np.linspace(0, p - 1, m).round().astype(np.int64))
    return np.sort(by_name[picks]).astype(np.int64)


def chance_and_passing(data, base: str, discount: float):
    """For each ``gamma`` of the grid: expected chance pairs and pairs passing, over all pairs.

    Returns
    -------
    gammas, chance, passing : ndarray
    """
    n, p = data.n_samples, data.n_features
    gammas = np.arange(0.0, GAMMA_MAX + GAMMA_STEP / 2, GAMMA_STEP)
    if p < 2 or n < 2:
        zeros = np.zeros_like(gammas)
        return gammas, zeros, zeros
    columns = _columns(data.names, n)
    log_p = math.log(p)
    bins = pair_gamma_bins(
        data.codes,
        data.arities,
        columns,
        base == "bic",
        float(discount),
        log_p,
        GAMMA_STEP,
        len(gammas),
    ).sum(axis=0)
    passing = np.cumsum(bins[::-1])[::-1].astype(float)
    # pairs by their degrees of freedom, among the counted columns
    r, counts = np.unique(data.arities[columns] - 1, return_counts=True)
    keep = r > 0
    r, counts = r[keep], counts[keep].astype(float)
    df = np.outer(r, r).ravel()
    pairs = np.outer(counts, counts)
    np.fill_diagonal(pairs, counts * (counts - 1) / 2)
    pairs = np.triu(pairs).ravel()
    unit = discount * math.log(n) / 2 if base == "bic" else float(discount)
    chance = np.zeros_like(gammas)
    for d, k in zip(df, pairs):
        if k > 0:
            chance += k * chi2.sf(2.0 * d * (unit + gammas * log_p), d)
    scale = p * (p - 1) / 2 / max(len(columns) * (len(columns) - 1) / 2, 1)
    return gammas, chance * scale, passing * scale


def choose_gamma(data, base: str, discount: float, chance_share: float) -> float:
    """The smallest ``gamma`` of the grid whose chance pairs are few (see the module)."""
    gammas, chance, passing = chance_and_passing(data, base, discount)
    ok = chance <= np.maximum(1.0, chance_share * passing)
    return float(gammas[np.argmax(ok)]) if ok.any() else GAMMA_MAX
