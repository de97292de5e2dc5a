# SPDX-License-Identifier: BSD-3-Clause
"""Structure-learning problems with known truth: data plus the DAG that generated it."""

from __future__ import annotations

import math
from typing import Literal, NamedTuple

import networkx as nx
import numpy as np
import pandas as pd
from sklearn.utils import check_random_state

from skbn.datasets._bundled import load_network
from skbn.datasets._gaussian import make_linear_gaussian
from skbn.datasets._replicate import replicate_network
from skbn.network._discrete import DiscreteBayesianNetwork, _check_n_samples
from skbn.utils._random import spawn_seeds

__all__ = [
    "TRAINING_NETWORKS",
    "LatentProblem",
    "make_latent_problem",
    "make_problem",
    "make_training_problems",
]

#: The bnlearn networks behind the Auto-SLE paper's problems that ship with skbn (the
#: paper's tenth, "healthcare", is not in the repository).
TRAINING_NETWORKS = (
    "alarm",
    "asia",
    "cancer",
    "child",
    "earthquake",
    "hailfinder",
    "mildew",
    "pigs",
    "survey",
)


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
    seed_structure, seed_params, seed_sample = spawn_seeds(rng, 3)
    if isinstance(network, str):
        network = load_network(network)
    if kind == "discrete" and not isinstance(network, DiscreteBayesianNetwork):
        raise ValueError(
            "kind='discrete' needs a network with CPTs: a bundled network name or a "
            "DiscreteBayesianNetwork, not a bare graph."
        )
    if n_nodes is not None:
        # a Gaussian problem needs only the structure: replicating the graph draws the same
        # arcs as replicating the discrete network, without CPTs for every copy
        base = network if kind == "discrete" else _graph_of(network)
        network = replicate_network(base, n_nodes, random_state=seed_structure)
    if kind == "discrete":
        return network.sample(n_samples, random_state=seed_sample), network.graph
    dag = network.graph if isinstance(network, DiscreteBayesianNetwork) else network
    sem = make_linear_gaussian(dag, random_state=seed_params)
    X = sem.sample(n_samples, random_state=seed_sample, standardize=standardize)
    return X, sem.graph


def _graph_of(network):
    return network.graph if isinstance(network, DiscreteBayesianNetwork) else network


def _connected_chunk(graph: nx.DiGraph, size: int, rng) -> list:
    """``size`` nodes grown breadth-first through the skeleton from random start nodes."""
    nodes = list(graph.nodes)
    undirected = graph.to_undirected(as_view=True)
    chosen: dict = {}
    while len(chosen) < size:
        remaining = [v for v in nodes if v not in chosen]
        frontier = [remaining[rng.randint(len(remaining))]]
        chosen[frontier[0]] = None
        while frontier and len(chosen) < size:
            nxt = []
            for v in frontier:
                for w in sorted(undirected.neighbors(v), key=str):
                    if w not in chosen and len(chosen) < size:
                        chosen[w] = None
                        nxt.append(w)
            frontier = nxt
    return list(chosen)


def make_training_problems(
    n_problems: int = 100,
    *,
    networks=TRAINING_NETWORKS,
    n_nodes: tuple[int, int] = (5, 1000),
    n_samples: int = 1000,
    random_state=None,
) -> list[tuple[pd.DataFrame, nx.DiGraph]]:
    """Training problems for Auto-SLE: linear-Gaussian data on pieces of replicated networks.

    Problem ``k`` uses ``networks[k % len(networks)]``. Its size is drawn log-uniformly from
    ``n_nodes``; the network is replicated (:func:`replicate_network`, 10% cross-copy arcs)
    until it is large enough, and a connected piece of that size is grown breadth-first from a
    random node, as a partition step would cut it. The piece's DAG gets a linear-Gaussian SEM
    (weights in [-1, -0.5] U [0.5, 1], noise sd in [0.1, 1]) and ``n_samples`` rows are drawn
    and standardised, following the paper's recipe (section IV-A1).

    Parameters
    ----------
    n_problems : int, default=100
    networks : sequence of str or networkx.DiGraph, default=TRAINING_NETWORKS
    n_nodes : (int, int), default=(5, 1000)
        Smallest and largest problem size.
    n_samples : int, default=1000
    random_state : int, RandomState instance or None, default=None

    Returns
    -------
    list of (DataFrame, networkx.DiGraph)

    Examples
    --------
    >>> problems = make_training_problems(3, n_nodes=(5, 30), n_samples=200, random_state=0)
    >>> [X.shape[1] == dag.number_of_nodes() for X, dag in problems]
    [True, True, True]
    """
    if isinstance(n_problems, bool) or not isinstance(n_problems, (int, np.integer)):
        raise TypeError(f"n_problems must be an int, got {type(n_problems).__name__}.")
    if n_problems < 1:
        raise ValueError(f"n_problems must be at least 1, got {n_problems}.")
    low, high = (int(v) for v in n_nodes)
    if not 2 <= low <= high:
        raise ValueError(f"n_nodes must be (low, high) with 2 <= low <= high, got {n_nodes}.")
    if len(networks) == 0:
        raise ValueError("networks must name at least one network.")
    _check_n_samples(n_samples)
    rng = check_random_state(random_state)
    bases = [load_network(b).graph if isinstance(b, str) else b for b in networks]
    problems = []
    for k in range(n_problems):
        base = bases[k % len(bases)]
        size = int(round(math.exp(rng.uniform(math.log(low), math.log(high)))))
        size = min(max(size, low), high)
        seed_rep, seed_sem, seed_sample = spawn_seeds(rng, 3)
        big = replicate_network(base, size, random_state=seed_rep)
        chunk = set(_connected_chunk(big, size, rng))
        # built node by node: a networkx subgraph view iterates a set, whose order varies
        piece = nx.DiGraph(kind="dag")
        piece.add_nodes_from(v for v in big.nodes if v in chunk)
        piece.add_edges_from((u, v) for u, v in big.edges if u in chunk and v in chunk)
        sem = make_linear_gaussian(piece, random_state=seed_sem)
        X = sem.sample(n_samples, random_state=seed_sample, standardize=True)
        problems.append((X, sem.graph))
    return problems


class LatentProblem(NamedTuple):
    """A problem with hidden variables: what :func:`make_latent_problem` returns.

    Parameters
    ----------
    X : DataFrame
        The measured columns only.
    dag : networkx.DiGraph
        The full DAG, latent variables included.
    latents : list
        The hidden variables (nodes of ``dag``, not columns of ``X``).
    pag : networkx.DiGraph
        The true PAG over the measured variables (:func:`skbn.graph.dag_to_pag`): what an
        FCI-family learner estimates.

    Examples
    --------
    >>> X, dag, latents, pag = make_latent_problem("asia", n_latent=1, random_state=0)
    >>> set(X.columns) | set(latents) == set(dag.nodes)
    True
    """

    X: pd.DataFrame
    dag: nx.DiGraph
    latents: list
    pag: nx.DiGraph


def _mixed_problem(network, n_nodes, n_samples, standardize, seed):
    """Rows of a bundled discrete network made conditional-Gaussian, and its DAG."""
    from skbn.datasets._bundled import load_network
    from skbn.datasets._mixed import make_conditional_gaussian
    from skbn.network import DiscreteBayesianNetwork

    if n_nodes is not None:
        raise ValueError("kind='mixed' takes a network as it is; n_nodes is not supported.")
    if isinstance(network, str):
        network = load_network(network)
    if not isinstance(network, DiscreteBayesianNetwork):
        raise TypeError(
            "kind='mixed' needs a bundled network's name or a DiscreteBayesianNetwork; got "
            f"{type(network).__name__}."
        )
    model = make_conditional_gaussian(network, 0.3, random_state=seed)
    X = model.sample(n_samples, random_state=seed)
    if standardize:
        continuous = list(model.continuous)
        X[continuous] = (X[continuous] - X[continuous].mean()) / X[continuous].std()
    return X, model.graph


def make_latent_problem(
    network="alarm",
    n_latent: int | None = None,
    *,
    latents=None,
    n_nodes: int | None = None,
    n_samples: int = 1000,
    kind: Literal["gaussian", "discrete", "mixed"] = "gaussian",
    standardize: bool = True,
    random_state=None,
) -> LatentProblem:
    """Data from a known network with some variables hidden, and the truth to compare with.

    The data are drawn as :func:`make_problem` draws them, from the whole network; then the
    latent variables' columns are dropped. Unless named, the latents are drawn among the
    nodes with two or more children (hidden common causes, the case that misleads a DAG
    learner), or among all nodes when too few have two.

    Parameters
    ----------
    network : str, networkx.DiGraph or DiscreteBayesianNetwork, default="alarm"
        As for :func:`make_problem`.
    n_latent : int, optional
        How many variables to hide; by default 10% of the nodes (at least 1). Not with
        ``latents``.
    latents : iterable of node names, optional
        The variables to hide.
    n_nodes : int, optional
        Replicate the network to at least this many nodes first, as :func:`make_problem`.
    n_samples : int, default=1000
    kind : {"gaussian", "discrete", "mixed"}, default="gaussian"
        As for :func:`make_problem`; ``"mixed"`` makes the last 30% of a bundled network's
        nodes (in a topological order) continuous, by :func:`make_conditional_gaussian`
        (no ``n_nodes`` then).
    standardize : bool, default=True
        For Gaussian data, rescale every continuous column to mean 0 and sd 1.
    random_state : int, RandomState instance or None, default=None
        Seeds the problem and the choice of latents.

    Returns
    -------
    LatentProblem
        ``(X, dag, latents, pag)``: the measured data, the full DAG, the hidden variables and
        the true PAG over the measured ones.

    Examples
    --------
    >>> problem = make_latent_problem("asia", n_latent=1, n_samples=500, random_state=0)
    >>> problem.latents, problem.X.shape
    (['smoke'], (500, 7))
    >>> problem.pag.graph["kind"]
    'pag'
    """
    from skbn.graph import dag_to_pag

    rng = check_random_state(random_state)
    seed_problem, seed_latents = spawn_seeds(rng, 2)
    if latents is not None and n_latent is not None:
        raise ValueError("Give n_latent or latents, not both.")
    if kind == "mixed":
        X, dag = _mixed_problem(network, n_nodes, n_samples, standardize, seed_problem)
    else:
        X, dag = make_problem(
            network,
            n_nodes=n_nodes,
            n_samples=n_samples,
            kind=kind,
            standardize=standardize,
            random_state=seed_problem,
        )
    p = dag.number_of_nodes()
    if latents is not None:
        latents = [latents] if isinstance(latents, str) else list(latents)
        unknown = [v for v in latents if v not in dag]
        if unknown:
            raise ValueError(f"latents names {unknown[:8]}, not nodes of the network.")
        if len(set(latents)) > p - 2:
            raise ValueError(
                f"At least 2 variables must stay measured; {len(latents)} hidden of {p}."
            )
    else:
        if n_latent is None:
            n_latent = max(1, round(0.1 * p))
        if isinstance(n_latent, bool) or not isinstance(n_latent, (int, np.integer)):
            raise TypeError(f"n_latent must be an int, got {type(n_latent).__name__}.")
        if not 1 <= n_latent <= p - 2:
            raise ValueError(
                f"n_latent must be between 1 and {p - 2} (the network has {p} nodes), got "
                f"{n_latent}."
            )
        pool = [v for v in dag if dag.out_degree(v) >= 2]
        pool = pool if len(pool) >= n_latent else list(dag)
        picks = check_random_state(seed_latents).choice(len(pool), size=n_latent, replace=False)
        latents = [pool[i] for i in sorted(picks.tolist())]
    hidden = set(latents)
    latents = [v for v in dag if v in hidden]  # in the network's node order
    return LatentProblem(X.drop(columns=latents), dag, latents, dag_to_pag(dag, latents))
