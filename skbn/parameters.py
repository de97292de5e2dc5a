# SPDX-License-Identifier: BSD-3-Clause
"""Parameters on a given structure: from a learned (or drawn) graph to a network.

:class:`ParameterLearner` is an estimator whose structure is fixed: ``fit(X)`` estimates the
network's parameters on the graph it was given, so it scores held-out data, sits in a
``Pipeline`` and exposes ``network_`` like every learner. :func:`fit_network` is the one-line
form. Discrete data give a :class:`~skbn.network.DiscreteBayesianNetwork` with state labels;
continuous data a :class:`~skbn.network.LinearGaussianNetwork` with intercepts.
"""

from __future__ import annotations

from numbers import Real

import networkx as nx
import numpy as np

from skbn.base import BaseStructureLearner
from skbn.graph._array import pdag_to_dag_array, topological_sort_array
from skbn.graph._convert import GRAPH_KINDS, as_adjacency
from skbn.utils._param_validation import Interval, StrOptions

__all__ = ["ParameterLearner", "fit_network"]


class ParameterLearner(BaseStructureLearner):
    """Fit a Bayesian network's parameters on a fixed structure.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        The structure: a DAG, or a CPDAG/PDAG (a learner's ``graph_``), which is turned into a
        DAG by a consistent extension (every extension of a CPDAG has the same likelihood). A
        DiGraph's nodes must be the data's columns (any order); an adjacency array follows
        the columns' order.
    method : {"bayes", "mle"}, default="bayes"
        Discrete data: ``"bayes"`` gives posterior-mean CPTs under a Dirichlet prior of
        equivalent sample size ``equivalent_sample_size`` spread uniformly over the cells of
        each table (BDeu's prior, as bnlearn's ``bn.fit(method="bayes")`` and pgmpy's
        ``BayesianEstimator(prior_type="BDeu")``), so no probability is zero; ``"mle"`` gives
        relative frequencies, and a parent configuration absent from the data gets a uniform
        row. Continuous data: least squares on the parents in both cases; ``"bayes"``
        shrinks the residual variance toward the column's variance by
        ``equivalent_sample_size`` pseudo-rows, ``(n s2 + iss var) / (n + iss)``, so a node its
        parents determine exactly on the training rows keeps a finite held-out likelihood.
    equivalent_sample_size : float, default=1.0
        Strength of the prior of ``method="bayes"``.

    Attributes
    ----------
    graph_ : networkx.DiGraph
        The structure, over the columns of ``X``.
    network_ : DiscreteBayesianNetwork or LinearGaussianNetwork
        The fitted network.
    parameters_ : object
        The parameters in skbn's internal layout (used by ``score_samples``).
    feature_names_in_ : ndarray of str
    n_features_in_ : int
    data_kind_ : str

    See Also
    --------
    fit_network : The same in one call, returning the network.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> asia = load_network("asia")
    >>> X = asia.sample(2000, random_state=0)
    >>> model = ParameterLearner(asia.graph).fit(X)
    >>> model.network_.cpts["either"].shape
    (2, 2, 2)
    >>> bool(model.score(X) < 0)
    True
    """

    _parameter_constraints = {
        "graph": [nx.DiGraph, "array-like"],
        "method": [StrOptions({"bayes", "mle"})],
        "equivalent_sample_size": [Interval(Real, 0, None, closed="neither")],
    }

    def __init__(self, graph, *, method: str = "bayes", equivalent_sample_size: float = 1.0):
        self.graph = graph
        self.method = method
        self.equivalent_sample_size = equivalent_sample_size

    def _cpt_iss(self) -> float:
        return 0.0 if self.method == "mle" else float(self.equivalent_sample_size)

    def _prepare(self, data, constraints):
        names = list(data.names)
        g = self.graph
        if isinstance(g, nx.Graph):
            nodes = [str(v) for v in g.nodes]
            missing = [v for v in names if v not in nodes]
            extra = [v for v in nodes if v not in names]
            if missing or extra:
                raise ValueError(
                    "The graph's nodes must be X's columns: "
                    + (f"columns without a node {missing[:8]}" if missing else "")
                    + ("; " if missing and extra else "")
                    + (f"nodes without a column {extra[:8]}" if extra else "")
                    + "."
                )
            relabelled = nx.relabel_nodes(g, {v: str(v) for v in g.nodes}, copy=True)
            A, _ = as_adjacency(relabelled, names)
            kind = g.graph.get("kind")
        else:
            A = np.asarray(g)
            if A.shape != (len(names), len(names)):
                raise ValueError(
                    f"graph is an adjacency array of shape {A.shape}; X has {len(names)} "
                    f"columns, so it must be ({len(names)}, {len(names)})."
                )
            A = (A != 0).astype(np.int8)
            kind = None
        loops = [names[j] for j in np.flatnonzero(np.diag(A))]
        if loops:
            raise ValueError(
                f"graph has self-loops at {loops[:8]}; a Bayesian network has none (an "
                "identity matrix is not an empty graph: use np.zeros((p, p)))."
            )
        undirected = bool(np.any((A != 0) & (A.T != 0)))
        if kind not in GRAPH_KINDS:
            kind = "pdag" if undirected else "dag"
        if kind == "dag" and undirected:
            i, j = next((i, j) for i, j in zip(*np.nonzero((A != 0) & (A.T != 0))) if i < j)
            raise ValueError(
                "graph is marked as a DAG (graph.graph['kind'] == 'dag') but has an undirected "
                f"edge {names[i]} -- {names[j]} (arcs both ways); orient it, or mark the graph "
                "'cpdag' or 'pdag' to fit a consistent extension."
            )
        if kind == "dag" and topological_sort_array(A) is None:
            raise ValueError(
                "graph is marked as a DAG (graph.graph['kind'] == 'dag') but has a directed "
                "cycle; a Bayesian network needs an acyclic graph."
            )
        if kind != "dag" and pdag_to_dag_array(A) is None:
            raise ValueError(
                f"graph is a {kind.upper()} without a consistent DAG extension (its directed "
                "arcs force a cycle or a new v-structure), so no network can be fitted on it."
            )
        return A, kind

    def _learn(self, data, prepared):
        return prepared

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.non_deterministic = False
        return tags


def fit_network(graph, X, *, method: str = "bayes", equivalent_sample_size: float = 1.0):
    """Fit the parameters of ``graph`` on ``X`` and return the network.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        A DAG, or a CPDAG/PDAG such as a learner's ``graph_`` (extended to a DAG).
    X : DataFrame or array-like of shape (n_samples, p)
        Discrete, continuous or mixed data whose columns are the graph's nodes.
    method : {"bayes", "mle"}, default="bayes"
        See :class:`ParameterLearner`.
    equivalent_sample_size : float, default=1.0
        See :class:`ParameterLearner`.

    Returns
    -------
    DiscreteBayesianNetwork, LinearGaussianNetwork or ConditionalGaussianNetwork
        Write the first two with :func:`skbn.io.write_network`, or convert them with
        :func:`skbn.io.to_pgmpy` / :func:`skbn.io.to_pyagrum` for inference; a
        conditional-Gaussian network (mixed data) can be sampled and evaluated.

    Examples
    --------
    >>> from skbn import HillClimb
    >>> from skbn.datasets import load_network
    >>> X = load_network("cancer").sample(5000, random_state=0)
    >>> learned = HillClimb().fit(X).graph_
    >>> net = fit_network(learned, X, method="mle")
    >>> net.states["Smoker"], net.name
    (('True', 'False'), 'network')
    """
    learner = ParameterLearner(graph, method=method, equivalent_sample_size=equivalent_sample_size)
    network = learner.fit(X).network_
    if hasattr(network, "name"):
        # the graph's own name (a bundled network's graph has one), not the estimator's
        given = getattr(graph, "graph", {}).get("name") if hasattr(graph, "graph") else None
        network.name = str(given) if given else "network"
    return network
