# SPDX-License-Identifier: BSD-3-Clause
"""Conditional-Gaussian networks: discrete nodes with CPTs, continuous nodes below them."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.utils import check_random_state

__all__ = ["ConditionalGaussianNetwork"]


class ConditionalGaussianNetwork:
    """A conditional-Gaussian network: discrete nodes with CPTs, continuous nodes below them.

    Made by :func:`make_conditional_gaussian`, not directly. A continuous node ``v`` is drawn as
    ``intercept + sum_d effect_d[state of d] + sum_c weight_c * c + sd[state] * noise`` over
    its discrete parents ``d`` and continuous parents ``c``, with ``noise`` standard normal
    and the noise standard deviation depending on the state of its first discrete parent
    (a different regression, variance included, per configuration).

    Parameters
    ----------
    discrete_part : DiscreteBayesianNetwork
        The discrete nodes with their CPTs.
    graph : networkx.DiGraph
        The true DAG (``graph.graph["kind"] == "dag"``).
    continuous : list of str
        The continuous nodes; every descendant of one is continuous.
    effects : dict
        ``effects[v][d]``: the shift of ``v``'s mean per state of its discrete parent ``d``.
    weights : dict
        ``weights[v][c]``: the coefficient of ``v``'s continuous parent ``c``.
    intercepts : dict
        ``intercepts[v]``: the intercept of ``v``.
    sds : dict
        ``sds[v]``: ``(d, per_state)``, the noise standard deviation of ``v`` per state of
        its first discrete parent ``d``, or None (standard deviation 1).

    Attributes
    ----------
    nodes : list of str

    Examples
    --------
    >>> from skbn.datasets import load_network, make_conditional_gaussian
    >>> cg = make_conditional_gaussian(load_network("asia"), 0.25, random_state=0)
    >>> cg
    ConditionalGaussianNetwork(n_nodes=8, n_continuous=2, n_arcs=8)
    >>> cg.sample(3, random_state=0)["dysp"].dtype
    dtype('float64')
    """

    def __init__(self, discrete_part, graph, continuous, effects, weights, intercepts, sds):
        self.discrete_part = discrete_part
        self.graph = graph
        self.nodes = list(graph.nodes)
        self.continuous = list(continuous)
        self._effects = effects
        self._weights = weights
        self._intercepts = intercepts
        self._sds = sds

    def sample(self, n_samples: int, random_state=None) -> pd.DataFrame:
        """Draw rows by forward sampling: categorical and float columns, in node order.

        Parameters
        ----------
        n_samples : int
        random_state : int, RandomState instance or None, default=None

        Returns
        -------
        DataFrame of shape (n_samples, n_nodes)
        """
        rng = check_random_state(random_state)
        frame = self.discrete_part.sample(n_samples, random_state=rng)
        codes = {v: frame[v].cat.codes.to_numpy() for v in frame.columns}
        values: dict[str, np.ndarray] = {}
        for v in self.continuous:
            mean = np.full(n_samples, self._intercepts[v])
            sd = np.ones(n_samples)
            disc = [u for u in self.graph.predecessors(v) if u in codes]
            for u in disc:
                mean += self._effects[v][u][codes[u]]
            if self._sds[v] is not None:
                first, per_state = self._sds[v]
                sd = per_state[codes[first]]
            for u in self.graph.predecessors(v):
                if u in values:
                    mean += self._weights[v][u] * values[u]
            values[v] = mean + sd * rng.standard_normal(n_samples)
        return pd.DataFrame({v: frame[v] if v in codes else values[v] for v in self.nodes})

    def __repr__(self) -> str:
        return (
            f"ConditionalGaussianNetwork(n_nodes={len(self.nodes)}, "
            f"n_continuous={len(self.continuous)}, n_arcs={self.graph.number_of_edges()})"
        )
