# SPDX-License-Identifier: BSD-3-Clause
"""Linear-Gaussian structural equation models on a DAG."""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx
import numpy as np
import pandas as pd
from sklearn.utils import check_random_state

from skbn.datasets._network import _check_n_samples
from skbn.graph._array import topological_sort_array
from skbn.graph._convert import as_adjacency, from_adjacency

__all__ = ["LinearGaussianNetwork", "make_linear_gaussian"]


class LinearGaussianNetwork:
    """A linear-Gaussian SEM: ``X_j = sum_i W[i, j] X_i + noise_std[j] * N(0, 1)``.

    Parameters
    ----------
    weights : ndarray of shape (p, p)
        ``weights[i, j]`` is the coefficient of the arc ``i -> j`` (0 where there is no arc);
        its non-zero pattern must be a DAG.
    noise_std : array-like of shape (p,)
        Standard deviations of the independent Gaussian noises (non-negative).
    nodes : sequence of str, optional
        Node names, default ``x0, ..., x{p-1}``.

    Attributes
    ----------
    graph : networkx.DiGraph
        The DAG of the non-zero weights.

    Examples
    --------
    >>> import numpy as np
    >>> sem = LinearGaussianNetwork(np.array([[0.0, 2.0], [0.0, 0.0]]), [1.0, 1.0], ["a", "b"])
    >>> sem.covariance
    array([[1., 2.],
           [2., 5.]])
    """

    def __init__(self, weights, noise_std, nodes: Sequence[str] | None = None) -> None:
        W = np.array(weights, dtype=np.float64)
        A, names = as_adjacency(W, nodes)
        sd = np.asarray(noise_std, dtype=np.float64)
        if sd.shape != (W.shape[0],) or np.any(sd < 0) or not np.all(np.isfinite(sd)):
            raise ValueError(f"noise_std must hold {W.shape[0]} finite non-negative numbers.")
        if not np.all(np.isfinite(W)):
            raise ValueError("weights must be finite.")
        order = topological_sort_array(A)
        if order is None:
            raise ValueError("The non-zero weights form a directed cycle; a SEM needs a DAG.")
        W.setflags(write=False)
        sd.setflags(write=False)
        self.weights = W
        self.noise_std = sd
        self.nodes = list(names)
        self._order = order

    @property
    def graph(self) -> nx.DiGraph:
        """The DAG of the model (a new object on each access)."""
        return from_adjacency(self.weights != 0, self.nodes, kind="dag")

    @property
    def covariance(self) -> np.ndarray:
        """The implied covariance ``(I - W)^-T diag(noise_std^2) (I - W)^-1``."""
        inv = np.linalg.inv(np.eye(len(self.nodes)) - self.weights)
        return inv.T @ np.diag(self.noise_std**2) @ inv

    def sample(
        self, n_samples: int, random_state=None, *, standardize: bool = False
    ) -> pd.DataFrame:
        """Draw rows from the SEM, visiting nodes in topological order.

        Parameters
        ----------
        n_samples : int
        random_state : int, RandomState instance or None, default=None
        standardize : bool, default=False
            Rescale every column of the sample to mean 0 and standard deviation 1 (as the
            Auto-SLE paper does, so that the variance does not reveal the causal order).

        Returns
        -------
        DataFrame of shape (n_samples, p), float64 columns named after the nodes.
        """
        n = _check_n_samples(n_samples)
        rng = check_random_state(random_state)
        p = len(self.nodes)
        X = np.empty((n, p), order="F")
        noise = rng.standard_normal((p, n))
        for j in self._order.tolist():
            pa = np.flatnonzero(self.weights[:, j])
            X[:, j] = noise[j] * self.noise_std[j]
            if len(pa):
                X[:, j] += X[:, pa] @ self.weights[pa, j]
        if standardize:
            sd = X.std(axis=0)
            X = (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
        return pd.DataFrame(X, columns=self.nodes)

    def __repr__(self) -> str:
        return (
            f"LinearGaussianNetwork(n_nodes={len(self.nodes)}, "
            f"n_arcs={int(np.count_nonzero(self.weights))})"
        )


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
    dag : networkx.DiGraph or array-like of shape (p, p)
        The structure; must be a DAG.
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
    A, nodes = as_adjacency(dag)
    if topological_sort_array(A) is None:
        raise ValueError("dag must be a directed acyclic graph without undirected edges.")
    weights_iv = _check_intervals("weight_range", weight_range)
    (noise_iv,) = _check_intervals("noise_std_range", [noise_std_range])
    if noise_iv[0] < 0:
        raise ValueError("noise_std_range must be non-negative.")
    rng = check_random_state(random_state)
    rows, cols = np.nonzero(A)
    W = np.zeros(A.shape)
    W[rows, cols] = _uniform_union(rng, weights_iv, len(rows))
    sd = noise_iv[0] + rng.random_sample(len(nodes)) * (noise_iv[1] - noise_iv[0])
    return LinearGaussianNetwork(W, sd, nodes)
