# SPDX-License-Identifier: BSD-3-Clause
"""Interventions: ``do(X = x)`` by graph surgery, and total effects in linear-Gaussian SEMs."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from scipy import sparse
from scipy.sparse import linalg as sparse_linalg

from skbn.network._discrete import DiscreteBayesianNetwork
from skbn.network._gaussian import LinearGaussianNetwork
from skbn.network._mixed import ConditionalGaussianNetwork

__all__ = ["intervene", "total_effect"]


def _check_nodes(nodes, names, what: str) -> None:
    unknown = [str(v) for v in names if str(v) not in nodes]
    if unknown:
        raise ValueError(f"{what} names nodes the network does not have: {unknown[:8]}.")


def intervene(network, interventions: Mapping):
    """The network after ``do(node = value)`` for each intervention (graph surgery).

    Each intervened node loses its parents and is set to its value: a CPT that puts all
    its mass on the state (discrete), or the constant value with no noise (Gaussian). The
    rest of the network is unchanged, so ``P(Y | do(X = x), e)`` is a query of the result
    with evidence ``e``.

    Parameters
    ----------
    network : DiscreteBayesianNetwork, LinearGaussianNetwork or ConditionalGaussianNetwork
    interventions : dict
        ``{node: state}`` (discrete) or ``{node: number}`` (Gaussian). On a
        conditional-Gaussian network, states for discrete nodes and numbers for continuous
        ones: a continuous node held at a value becomes a held node of the result (no
        parents, no noise), its value added to its children's intercepts.

    Returns
    -------
    DiscreteBayesianNetwork, LinearGaussianNetwork or ConditionalGaussianNetwork
        A new network; ``network`` is not changed.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from skbn.inference import intervene, query
    >>> asia = load_network("asia")
    >>> # observing a positive x-ray raises P(lung cancer); forcing the x-ray does not
    >>> round(float(query(asia, "lung", {"xray": "yes"})["yes"]), 3)
    0.489
    >>> round(float(query(intervene(asia, {"xray": "yes"}), "lung")["yes"]), 3)
    0.055
    """
    if not isinstance(interventions, Mapping) or not interventions:
        raise ValueError("interventions must be a non-empty dict {node: value}.")
    names = {str(k): v for k, v in interventions.items()}
    if isinstance(network, DiscreteBayesianNetwork):
        _check_nodes(network.states, names, "interventions")
        cpts, parents = dict(network.cpts), dict(network.parents)
        for v, state in names.items():
            states = network.states[v]
            matches = [k for k, s in enumerate(states) if s == state or str(s) == str(state)]
            if not matches:
                raise ValueError(
                    f"do({v} = {state!r}): {state!r} is not a state of {v!r}; its states are "
                    f"{list(states)[:10]}."
                )
            table = np.zeros(len(states))
            table[matches[0]] = 1.0
            cpts[v], parents[v] = table, ()
        label = ", ".join(f"{v}={s}" for v, s in names.items())
        return DiscreteBayesianNetwork(
            network.states, parents, cpts, name=f"{network.name} | do({label})"
        )
    if isinstance(network, LinearGaussianNetwork):
        _check_nodes(network.nodes, names, "interventions")
        index = {v: k for k, v in enumerate(network.nodes)}
        W = sparse.lil_array(network.weights)
        sd = np.array(network.noise_std)
        b = np.array(network.intercepts)
        for v, value in names.items():
            j = index[v]
            W[:, [j]] = 0.0
            sd[j], b[j] = 0.0, _number(v, value)
        return LinearGaussianNetwork(sparse.csc_array(W), sd, network.nodes, intercepts=b)
    if isinstance(network, ConditionalGaussianNetwork):
        return _intervene_conditional_gaussian(network, names)
    raise TypeError(
        "intervene takes a DiscreteBayesianNetwork, LinearGaussianNetwork or "
        f"ConditionalGaussianNetwork; got {type(network).__name__}."
    )


def _number(v: str, value) -> float:
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"do({v} = {value!r}) needs a number on a continuous node.") from None
    if not np.isfinite(value):
        raise ValueError(f"do({v} = {value!r}) needs a finite number.")
    return value


def _intervene_conditional_gaussian(network, names: dict):
    """Graph surgery on a conditional-Gaussian network.

    A discrete node gets a CPT with all its mass on the state. A continuous node ``v`` held
    at ``x`` loses its parents and its noise, and each child's regressions take ``x`` into
    their intercepts (``intercept[d] + weight[d] * x``, ``v`` no longer a parent), so ``v``
    is left a held node of the result (``held``), apart from the rest of the network.
    """
    continuous = set(network.continuous)
    _check_nodes(continuous | set(network.discrete_part.states), names, "interventions")
    discrete = {v: s for v, s in names.items() if v not in continuous}
    values = {v: _number(v, x) for v, x in names.items() if v in continuous}
    part = intervene(network.discrete_part, discrete) if discrete else network.discrete_part
    held = {**network.held, **values}
    parents, intercepts, coefficients, variances = {}, {}, {}, {}
    for v in network.continuous:
        if v in held:
            continue
        r = network.regression(v)
        b0 = np.array(r["intercepts"], dtype=np.float64)
        beta = np.array(r["coefficients"], dtype=np.float64)
        kept = []
        for k, u in enumerate(r["continuous_parents"]):
            if u in values:
                b0 = b0 + beta[..., k] * values[u]
            else:
                kept.append(k)
        parents[v] = list(r["discrete_parents"]) + [r["continuous_parents"][k] for k in kept]
        intercepts[v] = b0
        coefficients[v] = beta[..., kept]
        variances[v] = r["variances"]
    label = ", ".join(f"{v}={s}" for v, s in names.items())
    return ConditionalGaussianNetwork(
        part,
        parents,
        intercepts,
        coefficients,
        variances,
        nodes=network.nodes,
        name=f"{network.name} | do({label})",
        held=held,
    )


def total_effect(network: LinearGaussianNetwork, treatment: str, target: str) -> float:
    """The total causal effect of ``treatment`` on ``target`` in a linear-Gaussian SEM.

    ``d E[target | do(treatment = x)] / dx``: the sum over directed paths of the products of
    their weights, the ``(treatment, target)`` entry of ``(I - W)^-1``; 0 when no directed
    path leads from one to the other.

    Parameters
    ----------
    network : LinearGaussianNetwork
    treatment, target : str
        Nodes of the network.

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> from skbn.network import LinearGaussianNetwork
    >>> # a -> b (2), b -> c (3), a -> c (1): the effect of a on c is 1 + 2 * 3
    >>> W = np.array([[0, 2, 1], [0, 0, 3], [0, 0, 0]], dtype=float)
    >>> total_effect(LinearGaussianNetwork(W, [1, 1, 1], ["a", "b", "c"]), "a", "c")
    7.0
    """
    if not isinstance(network, LinearGaussianNetwork):
        raise TypeError(
            f"total_effect takes a LinearGaussianNetwork; got {type(network).__name__}."
        )
    _check_nodes(network.nodes, [treatment, target], "total_effect")
    i, j = network.nodes.index(str(treatment)), network.nodes.index(str(target))
    p = len(network.nodes)
    # one sparse solve: (I - W) y = e_j gives column j of (I - W)^-1, whose entry i it is
    system = sparse.csc_array(sparse.eye_array(p) - network.weights)
    unit = np.zeros(p)
    unit[j] = 1.0
    column = sparse_linalg.spsolve(system, unit)
    return float(column[i])
