# SPDX-License-Identifier: BSD-3-Clause
"""Conditional-Gaussian networks with known truth, made from discrete ones."""

from __future__ import annotations

from numbers import Real

import networkx as nx
import numpy as np
from sklearn.utils import check_random_state

from skbn.network._discrete import DiscreteBayesianNetwork
from skbn.network._mixed import ConditionalGaussianNetwork

__all__ = ["make_conditional_gaussian"]


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
    parents, intercepts, coefficients, variances = {}, {}, {}, {}
    for v in continuous:
        pa = list(graph.predecessors(v))
        disc = [u for u in pa if u not in cont_set]
        cont = [u for u in pa if u in cont_set]
        effects = {
            u: rng.standard_normal(len(network.states[u])) / np.sqrt(len(disc)) for u in disc
        }
        weights = {
            u: rng.choice([-1.0, 1.0]) * rng.uniform(0.5, 1.0) / np.sqrt(len(cont)) for u in cont
        }
        intercept = float(rng.standard_normal())
        # the network lists parents in node order; the shifts add up in that order
        disc = sorted(disc, key=position.__getitem__)
        cont = sorted(cont, key=position.__getitem__)
        shape = tuple(len(network.states[u]) for u in disc)
        b0 = np.full(shape, intercept)
        for k, u in enumerate(disc):
            b0 = b0 + effects[u].reshape((1,) * k + (-1,) + (1,) * (len(disc) - k - 1))
        sd = np.ones(shape)
        if disc:
            first = next(u for u in graph.predecessors(v) if u not in cont_set)
            per_state = np.exp(rng.uniform(-0.5, 0.5, len(network.states[first])))
            axis = disc.index(first)
            sd = sd * per_state.reshape((1,) * axis + (-1,) + (1,) * (len(disc) - axis - 1))
        parents[v] = disc + cont
        intercepts[v] = b0
        beta = np.array([weights[u] for u in cont], dtype=np.float64)
        coefficients[v] = np.broadcast_to(beta, shape + (len(cont),))
        variances[v] = sd**2
    return ConditionalGaussianNetwork(
        part, parents, intercepts, coefficients, variances, nodes=network.nodes
    )
