# SPDX-License-Identifier: BSD-3-Clause
"""The front-door criterion: an effect through mediators when the confounder is unmeasured.

A set ``Z`` satisfies Pearl's front-door criterion for the effect of ``x`` on ``y`` in a DAG
(Pearl 1995; *Causality*, Definition 3.3.3) when

1. ``Z`` intercepts every directed path from ``x`` to ``y``;
2. no back-door path from ``x`` to a node of ``Z`` is open (given nothing);
3. ``x`` blocks every back-door path from a node of ``Z`` to ``y``.

Then ``P(y | do(x)) = sum_z P(z | x) sum_x' P(y | x', z) P(x')``, which needs only ``x``,
``Z`` and ``y`` measured: the classic case is ``x <- u -> y`` with ``u`` hidden and the
effect carried by a measured mediator. A back-door path from ``v`` is one that starts with
an arc into ``v``, so conditions 2 and 3 are d-separations in the DAG without the arcs out
of ``x`` and out of the node of ``Z``. Both hold node by node, so any subset of the nodes
that pass them passes them too, and a front-door set exists exactly when those nodes
intercept every directed path; the smallest such subset is a minimum vertex cut.
"""

from __future__ import annotations

import networkx as nx

from skbn.causal._adjustment import _as_graph

__all__ = ["frontdoor_set", "is_frontdoor_set"]

_KINDS = ("minimal", "maximal")


def _as_dag(graph, what: str) -> nx.DiGraph:
    # the adjustment functions' reading of a graph, which refuses cycles and bad PDAGs
    G = _as_graph(graph, what)
    if G.kind != "dag":
        got = f"a {G.kind.upper()}"
        if G.kind in ("cpdag", "mpdag"):
            got = f"an undirected edge ({got})"
        raise ValueError(
            f"{what} needs a DAG (hidden variables as nodes of it); the graph has {got}. "
            "The front-door criterion on a CPDAG or PAG is not built."
        )
    return G.dag()


def _check(graph, treatment, outcome, what: str):
    dag = _as_dag(graph, what)
    for name, node in (("treatment", treatment), ("outcome", outcome)):
        if isinstance(node, list | tuple | set | frozenset):
            raise ValueError(f"{name} must be one node for {what}; got {node!r}.")
        if node not in dag:
            raise ValueError(f"{name}: {node!r} is not a node of the graph.")
    if treatment == outcome:
        raise ValueError("treatment and outcome are the same node.")
    return dag


def _without_arcs_out_of(dag: nx.DiGraph, v) -> nx.DiGraph:
    cut = dag.copy()
    cut.remove_edges_from(list(dag.out_edges(v)))
    return cut


def _passes(dag: nx.DiGraph, x, y, z) -> bool:
    """Conditions 2 and 3 for the one node ``z``."""
    no_back_door_from_x = nx.is_d_separator(_without_arcs_out_of(dag, x), {x}, {z}, set())
    return no_back_door_from_x and nx.is_d_separator(_without_arcs_out_of(dag, z), {z}, {y}, {x})


def _intercepts(dag: nx.DiGraph, x, y, Z: set) -> bool:
    """Condition 1: no directed path from ``x`` to ``y`` avoids ``Z``."""
    rest = dag.subgraph(set(dag) - set(Z))
    return not nx.has_path(rest, x, y)


def is_frontdoor_set(graph, treatment, outcome, mediators) -> bool:
    """Whether ``mediators`` satisfies the front-door criterion for treatment on outcome.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        A DAG; unmeasured variables are nodes of it like the others (the criterion's use
        is an effect whose confounder is not in the data).
    treatment, outcome : str
        One node each.
    mediators : iterable of str
        The candidate set, without the treatment and the outcome.

    Returns
    -------
    bool
        True also when no directed path leads from the treatment to the outcome and the set
        is empty: the formula then gives ``P(outcome)``, the right answer for no effect.

    References
    ----------
    J. Pearl, "Causal diagrams for empirical research", Biometrika 82, 1995.

    Examples
    --------
    A hidden ``u`` confounds ``x`` and ``y``; the effect goes through ``m``:

    >>> import networkx as nx
    >>> dag = nx.DiGraph([("u", "x"), ("u", "y"), ("x", "m"), ("m", "y")])
    >>> is_frontdoor_set(dag, "x", "y", ["m"])
    True
    >>> is_frontdoor_set(dag, "x", "y", [])  # x -> m -> y is not intercepted
    False
    """
    dag = _check(graph, treatment, outcome, "is_frontdoor_set")
    Z = set([mediators] if isinstance(mediators, str) else (mediators or ()))
    missing = sorted(map(str, Z - set(dag)))
    if missing:
        raise ValueError(f"mediators: {missing} not in the graph's nodes.")
    if Z & {treatment, outcome}:
        raise ValueError("mediators hold the treatment or the outcome.")
    return _intercepts(dag, treatment, outcome, Z) and all(
        _passes(dag, treatment, outcome, z) for z in Z
    )


def frontdoor_set(graph, treatment, outcome, kind: str = "minimal", *, latents=()) -> list | None:
    """A set satisfying the front-door criterion, or None when there is none.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        A DAG, unmeasured variables included as nodes.
    treatment, outcome : str
        One node each.
    kind : {"minimal", "maximal"}, default="minimal"
        ``"minimal"``: a set of the fewest nodes (a minimum vertex cut of the directed
        paths among the nodes that pass conditions 2 and 3; of several, the one nearest the
        outcome). ``"maximal"``: every node on a directed path from the treatment to the
        outcome that passes them.
    latents : iterable of str, default=()
        Nodes that are not measured, so never mediators (they still shape the paths).

    Returns
    -------
    list of str or None
        The set, sorted; ``[]`` when no directed path leads from the treatment to the
        outcome.

    Examples
    --------
    >>> import networkx as nx
    >>> dag = nx.DiGraph([("u", "x"), ("u", "y"), ("x", "m1"), ("m1", "m2"), ("m2", "y")])
    >>> frontdoor_set(dag, "x", "y")
    ['m2']
    >>> frontdoor_set(dag, "x", "y", kind="maximal")
    ['m1', 'm2']
    >>> dag.add_edge("u", "m2")  # m2 now shares the hidden cause
    >>> frontdoor_set(dag, "x", "y")
    ['m1']
    """
    if kind not in _KINDS:
        raise ValueError(f"kind must be one of {list(_KINDS)}; got {kind!r}.")
    dag = _check(graph, treatment, outcome, "frontdoor_set")
    hidden = set([latents] if isinstance(latents, str) else latents)
    missing = sorted(map(str, hidden - set(dag)))
    if missing:
        raise ValueError(f"latents: {missing} not in the graph's nodes.")
    x, y = treatment, outcome
    if hidden & {x, y}:
        raise ValueError("latents hold the treatment or the outcome.")
    on_paths = (nx.descendants(dag, x) & nx.ancestors(dag, y)) - {x, y}
    allowed = {z for z in on_paths - hidden if _passes(dag, x, y, z)}
    if not _intercepts(dag, x, y, allowed):
        return None
    if kind == "maximal" or not on_paths:
        return sorted(allowed, key=str)
    # a minimum vertex cut: each node split into (v, "in") -> (v, "out"), of capacity 1
    # when it may be cut and without a bound otherwise
    flow = nx.DiGraph()
    for v in sorted(on_paths | {x, y}, key=str):
        flow.add_edge((v, "in"), (v, "out"), **({"capacity": 1} if v in allowed else {}))
    for u, v in dag.subgraph(on_paths | {x, y}).edges():
        flow.add_edge((u, "out"), (v, "in"))
    _, (near, _) = nx.minimum_cut(flow, (x, "out"), (y, "in"))
    cut = {v for v in allowed if (v, "in") in near and (v, "out") not in near}
    return sorted(cut, key=str)
