# SPDX-License-Identifier: BSD-3-Clause
"""Adjustment sets of a DAG: the adjustment criterion, and the sets it admits.

A set ``Z`` is an *adjustment set* for the effect of ``X`` on ``Y`` when
``P(y | do(x)) = sum_z P(y | x, z) P(z)``, so that regressing ``Y`` on ``X`` and ``Z`` (linear
data) or the adjustment formula (discrete data) estimates the causal effect. In a DAG that
holds exactly when (Shpitser, VanderWeele and Robins 2010; Perkovic et al. 2018):

1. no node of ``Z`` is *forbidden*: a treatment, or a descendant of a node (other than a
   treatment) on a proper causal path from ``X`` to ``Y``;
2. ``Z`` d-separates ``X`` from ``Y`` in the *proper back-door graph*, the DAG without the
   first edge of each proper causal path from ``X`` to ``Y``.

The d-separation and the minimal separator come from networkx (``is_d_separator``,
``find_minimal_d_separator``, van der Zander, Liskiewicz and Textor's algorithm).
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx
import numpy as np

from skbn.graph._convert import as_adjacency

__all__ = ["adjustment_set", "forbidden_nodes", "is_adjustment_set", "proper_causal_nodes"]

_KINDS = ("optimal", "minimal", "parents", "canonical")


def _as_dag(graph, what: str) -> nx.DiGraph:
    """The graph as a networkx DAG over its node names; a CPDAG or PAG is refused."""
    if isinstance(graph, nx.Graph) and graph.graph.get("kind") in ("pag", "mag"):
        raise ValueError(
            f"{what} needs a DAG; the graph is a {graph.graph['kind'].upper()} (adjustment "
            "sets of PAGs are not built)."
        )
    A, nodes = as_adjacency(graph)
    both = (A != 0) & (A.T != 0)
    if both.any():
        i, j = np.argwhere(both)[0]
        raise ValueError(
            f"{what} needs a DAG; the graph has undirected edges ({nodes[i]} - {nodes[j]} and "
            f"{int(both.sum() // 2) - 1} more). For a CPDAG, skbn.causal.ida gives the "
            "possible effects; orient it first (e.g. skbn.graph.pdag_to_dag) only if one DAG "
            "of the class is known to be right."
        )
    dag = nx.DiGraph()
    dag.add_nodes_from(nodes)
    dag.add_edges_from((nodes[i], nodes[j]) for i, j in zip(*np.nonzero(A)))
    if not nx.is_directed_acyclic_graph(dag):
        cycle = " -> ".join(str(u) for u, _ in nx.find_cycle(dag))
        raise ValueError(f"{what} needs a DAG; the graph has a directed cycle ({cycle}).")
    return dag


def _node_set(dag: nx.DiGraph, nodes, name: str) -> set:
    """``nodes`` (a name or an iterable of names) as a set, each checked against the graph."""
    if isinstance(nodes, str) or not isinstance(nodes, Iterable):
        nodes = [nodes]
    found = set(nodes)
    missing = sorted(map(str, found - set(dag)))
    if missing:
        raise ValueError(f"{name}: {missing} not in the graph's nodes.")
    return found


def _check(graph, treatment, outcome, what: str):
    dag = _as_dag(graph, what)
    X = _node_set(dag, treatment, "treatment")
    Y = _node_set(dag, outcome, "outcome")
    if not X or not Y:
        raise ValueError("treatment and outcome need at least one node each.")
    if X & Y:
        raise ValueError(f"treatment and outcome share {sorted(map(str, X & Y))}.")
    return dag, X, Y


def _proper_causal_nodes(dag: nx.DiGraph, X: set, Y: set) -> set:
    # descendants of X in the graph without arcs into X, that are ancestors of Y (or in Y)
    # in the graph without arcs out of X: every such node lies on a proper causal path
    no_into = dag.copy()
    no_into.remove_edges_from([(u, x) for x in X for u in dag.predecessors(x)])
    no_out = dag.copy()
    no_out.remove_edges_from([(x, v) for x in X for v in dag.successors(x)])
    below = set().union(*(nx.descendants(no_into, x) for x in X)) - X
    above = set(Y).union(*(nx.ancestors(no_out, y) for y in Y))
    return below & above


def _forbidden(dag: nx.DiGraph, X: set, Y: set, causal: set) -> set:
    return set(X).union(causal, *(nx.descendants(dag, w) for w in causal))


def _back_door_graph(dag: nx.DiGraph, X: set, causal: set) -> nx.DiGraph:
    pbd = dag.copy()
    pbd.remove_edges_from([(x, w) for x in X for w in dag.successors(x) if w in causal])
    return pbd


def proper_causal_nodes(graph, treatment, outcome) -> set:
    """The nodes other than the treatments on proper causal paths from them to the outcomes.

    A causal path is directed from a treatment to an outcome; it is proper when only its
    first node is a treatment.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        A DAG.
    treatment, outcome : str or iterable of str
        Disjoint sets of nodes (a single name is a set of one).

    Returns
    -------
    set

    Examples
    --------
    >>> import networkx as nx
    >>> dag = nx.DiGraph([("z", "x"), ("z", "y"), ("x", "m"), ("m", "y")])
    >>> sorted(proper_causal_nodes(dag, "x", "y"))
    ['m', 'y']
    """
    dag, X, Y = _check(graph, treatment, outcome, "proper_causal_nodes")
    return _proper_causal_nodes(dag, X, Y)


def forbidden_nodes(graph, treatment, outcome) -> set:
    """The nodes no adjustment set may hold (Perkovic et al.'s ``forb``).

    The treatments, and every descendant of a node on a proper causal path from them to the
    outcomes (that node included): conditioning on one would block part of the effect or
    open a path that carries none of it.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        A DAG.
    treatment, outcome : str or iterable of str

    Returns
    -------
    set

    Examples
    --------
    >>> import networkx as nx
    >>> dag = nx.DiGraph([("z", "x"), ("z", "y"), ("x", "m"), ("m", "y"), ("y", "w")])
    >>> sorted(forbidden_nodes(dag, "x", "y"))
    ['m', 'w', 'x', 'y']
    """
    dag, X, Y = _check(graph, treatment, outcome, "forbidden_nodes")
    return _forbidden(dag, X, Y, _proper_causal_nodes(dag, X, Y))


def is_adjustment_set(graph, treatment, outcome, adjustment) -> bool:
    """Whether ``adjustment`` is an adjustment set for the effect of treatment on outcome.

    The adjustment criterion on a DAG, which is complete: every set for which the
    adjustment formula gives the causal effect in every model of the DAG passes it.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        A DAG (a CPDAG or PAG is refused: see :func:`skbn.causal.ida`).
    treatment, outcome : str or iterable of str
        Disjoint sets of nodes.
    adjustment : iterable of str
        The candidate set, disjoint from both.

    Returns
    -------
    bool

    References
    ----------
    I. Shpitser, T. VanderWeele and J. M. Robins, "On the validity of covariate adjustment
    for estimating causal effects", UAI 2010. E. Perkovic, J. Textor, M. Kalisch and
    M. H. Maathuis, "Complete graphical characterization and construction of adjustment sets
    in Markov equivalence classes of ancestral graphs", JMLR 18, 2018.

    Examples
    --------
    A confounder ``z`` and a mediator ``m``:

    >>> import networkx as nx
    >>> dag = nx.DiGraph([("z", "x"), ("z", "y"), ("x", "m"), ("m", "y")])
    >>> is_adjustment_set(dag, "x", "y", ["z"])
    True
    >>> is_adjustment_set(dag, "x", "y", [])  # the back-door path x <- z -> y stays open
    False
    >>> is_adjustment_set(dag, "x", "y", ["z", "m"])  # m carries the effect
    False
    """
    dag, X, Y = _check(graph, treatment, outcome, "is_adjustment_set")
    Z = _node_set(dag, adjustment if adjustment is not None else (), "adjustment")
    if Z & (X | Y):
        raise ValueError(
            f"adjustment holds {sorted(map(str, Z & (X | Y)))}, a treatment or an outcome."
        )
    causal = _proper_causal_nodes(dag, X, Y)
    if Z & _forbidden(dag, X, Y, causal):
        return False
    return bool(nx.is_d_separator(_back_door_graph(dag, X, causal), X, Y, Z))


def adjustment_set(graph, treatment, outcome, kind: str = "optimal") -> list | None:
    """An adjustment set for the effect of ``treatment`` on ``outcome`` in a DAG.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        A DAG (a CPDAG or PAG is refused: see :func:`skbn.causal.ida`).
    treatment, outcome : str or iterable of str
        Disjoint sets of nodes.
    kind : {"optimal", "minimal", "parents", "canonical"}, default="optimal"
        Which set:

        - ``"optimal"``: Henckel, Perkovic and Maathuis's O-set, the parents of the proper
          causal nodes that are not forbidden. Among all adjustment sets it gives the
          regression estimator of a linear effect the smallest asymptotic variance. When no
          outcome is a descendant of a treatment (the effect is zero) the minimal set is
          returned instead.
        - ``"minimal"``: a set none of whose proper subsets is an adjustment set (van der
          Zander et al.'s minimal separator in the proper back-door graph).
        - ``"parents"``: the treatments' parents, the classic choice; None when they are
          not an adjustment set (an outcome among them, or several treatments).
        - ``"canonical"``: the ancestors of the treatments and outcomes that are not
          forbidden, an adjustment set whenever one exists.

    Returns
    -------
    list of str or None
        The set, sorted; None when no adjustment set (of that kind) exists.

    References
    ----------
    L. Henckel, E. Perkovic and M. H. Maathuis, "Graphical criteria for efficient total
    effect estimation via adjustment in causal linear models", JRSS B 84, 2022.
    B. van der Zander, M. Liskiewicz and J. Textor, "Separators and adjustment sets in
    causal graphs: complete criteria and an algorithmic framework", Artificial Intelligence
    270, 2019.

    Examples
    --------
    ``a`` confounds ``x`` and ``y``; ``b`` only causes ``y``:

    >>> import networkx as nx
    >>> dag = nx.DiGraph([("a", "x"), ("a", "y"), ("x", "y"), ("b", "y")])
    >>> adjustment_set(dag, "x", "y")  # b sharpens the estimate
    ['a', 'b']
    >>> adjustment_set(dag, "x", "y", kind="minimal")
    ['a']
    """
    if kind not in _KINDS:
        raise ValueError(f"kind must be one of {list(_KINDS)}; got {kind!r}.")
    dag, X, Y = _check(graph, treatment, outcome, "adjustment_set")
    causal = _proper_causal_nodes(dag, X, Y)
    forbidden = _forbidden(dag, X, Y, causal)
    pbd = _back_door_graph(dag, X, causal)
    allowed = set(dag) - forbidden - X - Y

    def valid(Z: set) -> bool:
        return not (Z & forbidden) and not (Z & Y) and nx.is_d_separator(pbd, X, Y, Z)

    if kind == "optimal" and causal:
        found = set().union(*(dag.predecessors(w) for w in causal)) - forbidden
        found = found if valid(found) else None
    elif kind in ("optimal", "minimal"):
        found = nx.find_minimal_d_separator(pbd, X, Y, restricted=allowed)
    elif kind == "parents":
        found = set().union(*(dag.predecessors(x) for x in X)) - X
        found = found if valid(found) else None
    else:
        found = set().union(*(nx.ancestors(dag, v) for v in X | Y)) & allowed
        found = found if valid(found) else None
    return None if found is None else sorted(found)
