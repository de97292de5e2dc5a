# SPDX-License-Identifier: BSD-3-Clause
"""Linear-Gaussian structural equation models on a DAG."""

from __future__ import annotations

import numpy as np
from scipy import sparse
from sklearn.utils import check_random_state

from skbn.graph._array import topological_sort_array
from skbn.network._gaussian import LinearGaussianNetwork, _arcs_of

__all__ = ["make_linear_gaussian"]


def _uniform_union(rng, intervals, size) -> np.ndarray:
    lows = np.array([lo for lo, _ in intervals], dtype=float)
    highs = np.array([hi for _, hi in intervals], dtype=float)
    lengths = highs - lows
    which = rng.choice(len(intervals), size=size, p=lengths / lengths.sum())
    return lows[which] + rng.random_sample(size) * lengths[which]


def _check_intervals(name: str, value) -> list[tuple[float, float]]:
    try:
        intervals = [(float(lo), float(hi)) for lo, hi in value]
    except (TypeError, ValueError):
        raise ValueError(
            f"{name} must be a sequence of (low, high) pairs, got {value!r}."
        ) from None
    if not intervals or any(not lo < hi for lo, hi in intervals):
        raise ValueError(f"{name} needs at least one interval with low < high, got {value!r}.")
    return intervals


def make_linear_gaussian(
    dag,
    weight_range=((-1.0, -0.5), (0.5, 1.0)),
    noise_std_range=(0.1, 1.0),
    random_state=None,
) -> LinearGaussianNetwork:
    """A linear-Gaussian SEM on ``dag`` with random weights and noise levels.

    Parameters
    ----------
    dag : networkx.DiGraph, array-like or scipy sparse matrix of shape (p, p)
        The structure; must be a DAG. Read as a list of arcs, so no ``p x p`` matrix is made
        for a networkx graph (100,000 nodes take well under a gigabyte).
    weight_range : sequence of (low, high), default=((-1, -0.5), (0.5, 1))
        Arc weights are uniform on the union of these intervals (the Auto-SLE recipe).
    noise_std_range : (low, high), default=(0.1, 1.0)
        Noise standard deviations are uniform on this interval. The Auto-SLE paper draws them
        from [0, 1]; the default floor 0.1 avoids nearly deterministic variables.
    random_state : int, RandomState instance or None, default=None

    Returns
    -------
    LinearGaussianNetwork

    Examples
    --------
    >>> import networkx as nx
    >>> sem = make_linear_gaussian(nx.DiGraph([("a", "b")]), random_state=0)
    >>> X = sem.sample(1000, random_state=0)
    >>> list(X.columns), X.shape
    (['a', 'b'], (1000, 2))
    """
    rows, cols, nodes = _arcs_of(dag)
    p = len(nodes)
    arcs = sparse.coo_array((np.ones(len(rows), np.int8), (rows, cols)), shape=(p, p))
    if topological_sort_array(arcs) is None or np.any(rows == cols):
        raise ValueError("dag must be a directed acyclic graph without undirected edges.")
    weights_iv = _check_intervals("weight_range", weight_range)
    (noise_iv,) = _check_intervals("noise_std_range", [noise_std_range])
    if noise_iv[0] < 0:
        raise ValueError("noise_std_range must be non-negative.")
    rng = check_random_state(random_state)
    # arcs in row-major order, as np.nonzero of a dense matrix gives them (same seed, same
    # weights as before this generator went sparse)
    key = np.lexsort((cols, rows))
    rows, cols = rows[key], cols[key]
    values = _uniform_union(rng, weights_iv, len(rows))
    W = sparse.csc_array((values, (rows, cols)), shape=(p, p))
    sd = noise_iv[0] + rng.random_sample(p) * (noise_iv[1] - noise_iv[0])
    return LinearGaussianNetwork(W, sd, nodes)
