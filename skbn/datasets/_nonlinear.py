# SPDX-License-Identifier: BSD-3-Clause
"""Additive-noise models on a DAG: nonlinear mechanisms and non-Gaussian noise."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pandas as pd
from scipy import sparse
from sklearn.utils import check_random_state

from skbn.datasets._gaussian import _check_intervals, _uniform_union
from skbn.graph._array import topological_sort_array
from skbn.network._gaussian import _arcs_of

__all__ = ["AdditiveNoiseModel", "make_additive_noise"]

MECHANISMS = ("linear", "sin", "square", "tanh", "gp")
NOISES = ("gaussian", "uniform", "laplace", "exponential", "mixture")
#: Random Fourier features standing for one Gaussian-process draw (RBF kernel, length 1).
_GP_FEATURES = 100


def _unit_noise(rng, kind: str, size) -> np.ndarray:
    """Noise of mean 0 and variance 1 of the named kind."""
    if kind == "gaussian":
        return rng.standard_normal(size)
    if kind == "uniform":
        return rng.uniform(-np.sqrt(3.0), np.sqrt(3.0), size)
    if kind == "laplace":
        return rng.laplace(0.0, 1.0 / np.sqrt(2.0), size)
    if kind == "exponential":
        return rng.exponential(1.0, size) - 1.0
    # an equal mixture of N(-0.9, 0.19) and N(0.9, 0.19): bimodal, variance 1
    signs = np.where(rng.random_sample(size) < 0.5, -1.0, 1.0)
    return 0.9 * signs + np.sqrt(0.19) * rng.standard_normal(size)


class AdditiveNoiseModel:
    """An additive-noise model: ``X_j = sum_{i in pa(j)} w_ij f_ij(X_i) + s_j e_j``.

    Each arc carries a weight and a mechanism; each node an independent noise of mean 0 and
    variance 1 scaled by ``s_j``. Made by :func:`make_additive_noise`, which documents the
    mechanisms and noises.

    Parameters
    ----------
    graph : networkx.DiGraph
        The true DAG (nodes in column order).
    arcs : list of (parent, child, weight, mechanism, gp_parameters)
        One entry per arc; ``gp_parameters`` is ``(frequencies, phases, amplitudes)`` for a
        ``"gp"`` mechanism and None otherwise.
    noise : str
        The noise kind.
    noise_std : ndarray of shape (p,)
        The noise scale of each node.
    standardize : bool
        Whether each variable is standardised (on the sample) as it is generated.

    Examples
    --------
    >>> import networkx as nx
    >>> model = make_additive_noise(nx.DiGraph([("a", "b")]), mechanism="sin", random_state=0)
    >>> model.sample(500, random_state=0).shape
    (500, 2)
    """

    def __init__(self, graph, arcs, noise, noise_std, standardize) -> None:
        self.graph = graph
        self.nodes = list(graph.nodes)
        self.arcs = arcs
        self.noise = noise
        self.noise_std = np.asarray(noise_std, dtype=float)
        self.standardize = standardize

    def __repr__(self) -> str:
        return (
            f"AdditiveNoiseModel({len(self.nodes)} nodes, {len(self.arcs)} arcs, "
            f"noise={self.noise!r})"
        )

    def sample(self, n_samples: int, random_state=None) -> pd.DataFrame:
        """Draw ``n_samples`` rows in topological order.

        Parameters
        ----------
        n_samples : int
        random_state : int, RandomState instance or None, default=None

        Returns
        -------
        DataFrame
            One float column per node, in node order.
        """
        if int(n_samples) < 1:
            raise ValueError(f"n_samples must be a positive integer, got {n_samples!r}.")
        rng = check_random_state(random_state)
        index = {v: k for k, v in enumerate(self.nodes)}
        incoming: dict[int, list] = {k: [] for k in range(len(self.nodes))}
        for parent, child, weight, mechanism, gp in self.arcs:
            incoming[index[child]].append((index[parent], weight, mechanism, gp))
        values = np.zeros((int(n_samples), len(self.nodes)))
        for j in nx.topological_sort(nx.relabel_nodes(self.graph, index)):
            total = self.noise_std[j] * _unit_noise(rng, self.noise, int(n_samples))
            for i, weight, mechanism, gp in incoming[j]:
                total += weight * _apply(mechanism, values[:, i], gp)
            if self.standardize:
                sd = total.std()
                total = (total - total.mean()) / (sd if sd > 0 else 1.0)
            values[:, j] = total
        return pd.DataFrame(values, columns=self.nodes)


def _apply(mechanism: str, x: np.ndarray, gp) -> np.ndarray:
    if mechanism == "linear":
        return x
    if mechanism == "sin":
        return np.sin(2.0 * x)
    if mechanism == "square":
        return x**2 - 1.0
    if mechanism == "tanh":
        return np.tanh(2.0 * x)
    frequencies, phases, amplitudes = gp
    return np.cos(np.outer(x, frequencies) + phases) @ amplitudes


def make_additive_noise(
    dag,
    mechanism="mixed",
    noise: str = "gaussian",
    weight_range=((-1.0, -0.5), (0.5, 1.0)),
    noise_std_range=(0.2, 0.6),
    standardize: bool = True,
    random_state=None,
) -> AdditiveNoiseModel:
    """An additive-noise model on ``dag``, with the true DAG: nonlinear or non-Gaussian data.

    Parameters
    ----------
    dag : networkx.DiGraph, array-like or scipy sparse matrix of shape (p, p)
        The structure; must be a DAG.
    mechanism : {"mixed", "linear", "sin", "square", "tanh", "gp"} or sequence, default="mixed"
        The function on each arc, of the (standardised) parent: ``"linear"`` ``x``,
        ``"sin"`` ``sin(2x)``, ``"square"`` ``x^2 - 1``, ``"tanh"`` ``tanh(2x)``, ``"gp"`` a
        draw from a Gaussian process with an RBF kernel of length scale 1 (by 100 random
        Fourier features). ``"mixed"`` draws one of the four nonlinear ones per arc; a
        sequence draws from those named.
    noise : {"gaussian", "uniform", "laplace", "exponential", "mixture"}, default="gaussian"
        The noise distribution, scaled to variance 1 before ``noise_std`` (``"mixture"``: an
        equal mixture of two Gaussians, bimodal). Non-Gaussian noise with ``"linear"`` gives
        the data that LiNGAM identifies.
    weight_range : sequence of (low, high), default=((-1, -0.5), (0.5, 1))
        Arc weights are uniform on the union of these intervals.
    noise_std_range : (low, high), default=(0.2, 0.6)
        Noise scales are uniform on this interval.
    standardize : bool, default=True
        Standardise each variable (on the sample) as it is generated, so that variances do
        not grow along the order: a learner cannot read the order off the scales.
    random_state : int, RandomState instance or None, default=None
        Seeds the weights, mechanisms and noise scales.

    Returns
    -------
    AdditiveNoiseModel

    Examples
    --------
    >>> from skbn.datasets import make_erdos_renyi_dag
    >>> dag = make_erdos_renyi_dag(10, 15, random_state=0)
    >>> model = make_additive_noise(dag, mechanism="linear", noise="uniform", random_state=0)
    >>> X = model.sample(1000, random_state=1)
    >>> X.shape, round(float(X["x0"].std()), 2)
    ((1000, 10), 1.0)
    """
    rows, cols, nodes = _arcs_of(dag)
    p = len(nodes)
    arcs_matrix = sparse.coo_array((np.ones(len(rows), np.int8), (rows, cols)), shape=(p, p))
    if topological_sort_array(arcs_matrix) is None or np.any(rows == cols):
        raise ValueError("dag must be a directed acyclic graph without undirected edges.")
    if isinstance(mechanism, str):
        choices = list(MECHANISMS[1:]) if mechanism == "mixed" else [mechanism]
    else:
        choices = list(mechanism)
    unknown = [m for m in choices if m not in MECHANISMS]
    if unknown or not choices:
        raise ValueError(
            f"mechanism must be 'mixed', one of {list(MECHANISMS)} or a sequence of them; "
            f"got {mechanism!r}."
        )
    if noise not in NOISES:
        raise ValueError(f"noise must be one of {list(NOISES)}, got {noise!r}.")
    weights_iv = _check_intervals("weight_range", weight_range)
    (noise_iv,) = _check_intervals("noise_std_range", [noise_std_range])
    if noise_iv[0] < 0:
        raise ValueError("noise_std_range must be non-negative.")
    rng = check_random_state(random_state)
    key = np.lexsort((cols, rows))
    rows, cols = rows[key], cols[key]
    weights = _uniform_union(rng, weights_iv, len(rows))
    picks = rng.randint(len(choices), size=len(rows))
    arcs = []
    for i, j, w, k in zip(rows, cols, weights, picks):
        kind = choices[k]
        gp = None
        if kind == "gp":
            gp = (
                rng.standard_normal(_GP_FEATURES),
                rng.uniform(0.0, 2.0 * np.pi, _GP_FEATURES),
                rng.standard_normal(_GP_FEATURES) * np.sqrt(2.0 / _GP_FEATURES),
            )
        arcs.append((nodes[i], nodes[j], float(w), kind, gp))
    sd = noise_iv[0] + rng.random_sample(p) * (noise_iv[1] - noise_iv[0])
    graph = nx.DiGraph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from((nodes[i], nodes[j]) for i, j in zip(rows, cols))
    return AdditiveNoiseModel(graph, arcs, noise, sd, standardize)
