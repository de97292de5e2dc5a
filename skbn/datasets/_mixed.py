# SPDX-License-Identifier: BSD-3-Clause
"""Conditional-Gaussian networks with known truth, made from discrete ones."""

from __future__ import annotations

from numbers import Real

import networkx as nx
import numpy as np
import pandas as pd
from sklearn.utils import check_random_state

from skbn.datasets._network import DiscreteBayesianNetwork

__all__ = ["ConditionalGaussianNetwork", "make_conditional_gaussian"]


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
    >>> from skbn.datasets import load_network
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


def make_conditional_gaussian(
    network: DiscreteBayesianNetwork,
    fraction_continuous: float = 0.3,
    random_state=None,
) -> ConditionalGaussianNetwork:
    """Make the last nodes of a discrete network (in a topological order) continuous.

    The recipe of skbn's mixed-data benchmark. The nodes in the last
    ``ceil(fraction_continuous * p)`` places of a topological order (ties broken by node
    order) become continuous; that set holds every descendant of its members, so no discrete
    node gets a continuous parent, as conditional-Gaussian networks require. The discrete
    nodes keep their CPTs. Each continuous node gets an effect per state of each discrete
    parent (normal, scaled by ``1 / sqrt(#discrete parents)``), a weight on each continuous
    parent (uniform magnitude in [0.5, 1], random sign, scaled by ``1 / sqrt(#continuous
    parents)``), and a noise standard deviation per state of its first discrete parent
    (``exp(U(-0.5, 0.5))``), 1 without one.

    Parameters
    ----------
    network : DiscreteBayesianNetwork
        E.g. ``load_network("alarm")``.
    fraction_continuous : float, default=0.3
        Share of the nodes made continuous, in [0, 1].
    random_state : int, RandomState instance or None, default=None
        Seed of the parameters.

    Returns
    -------
    ConditionalGaussianNetwork

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> cg = make_conditional_gaussian(load_network("asia"), 0.25, random_state=0)
    >>> cg.continuous
    ['xray', 'dysp']
    >>> X = cg.sample(5, random_state=0)
    >>> X.dtypes.map(str).tolist()
    ['category', 'category', 'category', 'category', 'category', 'category', 'float64', 'float64']
    """
    if not isinstance(fraction_continuous, Real) or not 0 <= fraction_continuous <= 1:
        raise ValueError(
            f"fraction_continuous must be a number in [0, 1], got {fraction_continuous!r}."
        )
    rng = check_random_state(random_state)
    graph = network.graph
    position = {v: k for k, v in enumerate(network.nodes)}
    order = list(nx.lexicographical_topological_sort(graph, key=lambda v: position[v]))
    k = int(np.ceil(fraction_continuous * len(order)))
    continuous = order[len(order) - k :] if k else []
    cont_set = set(continuous)
    discrete = [v for v in network.nodes if v not in cont_set]
    part = DiscreteBayesianNetwork(
        states={v: network.states[v] for v in discrete},
        parents={v: network.parents[v] for v in discrete},
        cpts={v: network.cpts[v] for v in discrete},
        name=network.name,
    )
    effects, weights, intercepts, sds = {}, {}, {}, {}
    for v in continuous:
        parents = list(graph.predecessors(v))
        disc = [u for u in parents if u not in cont_set]
        cont = [u for u in parents if u in cont_set]
        effects[v] = {
            u: rng.standard_normal(len(network.states[u])) / np.sqrt(len(disc)) for u in disc
        }
        weights[v] = {
            u: rng.choice([-1.0, 1.0]) * rng.uniform(0.5, 1.0) / np.sqrt(len(cont)) for u in cont
        }
        intercepts[v] = float(rng.standard_normal())
        if disc:
            sds[v] = (disc[0], np.exp(rng.uniform(-0.5, 0.5, len(network.states[disc[0]]))))
        else:
            sds[v] = None
    dag = nx.DiGraph()
    dag.add_nodes_from(network.nodes)
    dag.add_edges_from(graph.edges)
    dag.graph["kind"] = "dag"
    return ConditionalGaussianNetwork(part, dag, continuous, effects, weights, intercepts, sds)
