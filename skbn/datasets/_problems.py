# SPDX-License-Identifier: BSD-3-Clause
"""Structure-learning problems with known truth: data plus the DAG that generated it."""

from __future__ import annotations

from typing import Literal

import networkx as nx
import numpy as np
import pandas as pd
from sklearn.utils import check_random_state

from skbn.datasets._bundled import load_network
from skbn.datasets._gaussian import make_linear_gaussian
from skbn.datasets._network import DiscreteBayesianNetwork, _check_n_samples
from skbn.datasets._replicate import replicate_network

__all__ = ["make_problem"]


def make_problem(
    network="alarm",
    n_nodes: int | None = None,
    n_samples: int = 1000,
    kind: Literal["gaussian", "discrete"] = "gaussian",
    *,
    standardize: bool = True,
    random_state=None,
) -> tuple[pd.DataFrame, nx.DiGraph]:
    """Data sampled from a known network, and that network's DAG.

    Parameters
    ----------
    network : str, networkx.DiGraph or DiscreteBayesianNetwork, default="alarm"
        A bundled network name (see :func:`list_networks`), a DAG, or a discrete network.
    n_nodes : int, optional
        Replicate the network (:func:`replicate_network`, 10% cross-copy arcs) until it has at
        least this many nodes. By default the network is used as it is.
    n_samples : int, default=1000
    kind : {"gaussian", "discrete"}, default="gaussian"
        ``"gaussian"``: a linear-Gaussian SEM on the structure (:func:`make_linear_gaussian`,
        the Auto-SLE recipe). ``"discrete"``: the network's own CPTs (needs a bundled name or a
        DiscreteBayesianNetwork).
    standardize : bool, default=True
        For Gaussian data, rescale every column to mean 0 and sd 1 (as the Auto-SLE paper
        does). Ignored for discrete data.
    random_state : int, RandomState instance or None, default=None
        Seeds the replication, the SEM's parameters and the sample.

    Returns
    -------
    X : DataFrame of shape (n_samples, n_nodes)
        Float columns (Gaussian) or categorical columns (discrete), named after the nodes.
    true_dag : networkx.DiGraph

    Examples
    --------
    >>> X, dag = make_problem("asia", n_samples=500, random_state=0)
    >>> X.shape, dag.number_of_edges()
    ((500, 8), 8)
    >>> X, dag = make_problem("asia", n_nodes=20, kind="discrete", random_state=0)
    >>> X.shape
    (1000, 24)
    """
    if kind not in ("gaussian", "discrete"):
        raise ValueError(f"kind must be 'gaussian' or 'discrete', got {kind!r}.")
    _check_n_samples(n_samples)
    rng = check_random_state(random_state)
    seed_structure, seed_params, seed_sample = rng.randint(np.iinfo(np.int32).max, size=3)
    if isinstance(network, str):
        network = load_network(network)
    if kind == "discrete" and not isinstance(network, DiscreteBayesianNetwork):
        raise ValueError(
            "kind='discrete' needs a network with CPTs: a bundled network name or a "
            "DiscreteBayesianNetwork, not a bare graph."
        )
    if n_nodes is not None:
        network = replicate_network(network, n_nodes, random_state=seed_structure)
    if kind == "discrete":
        return network.sample(n_samples, random_state=seed_sample), network.graph
    dag = network.graph if isinstance(network, DiscreteBayesianNetwork) else network
    sem = make_linear_gaussian(dag, random_state=seed_params)
    X = sem.sample(n_samples, random_state=seed_sample, standardize=standardize)
    return X, sem.graph
