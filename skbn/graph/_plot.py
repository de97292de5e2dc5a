# SPDX-License-Identifier: BSD-3-Clause
"""Drawing DAGs, CPDAGs and PDAGs with matplotlib, optionally against a true graph."""

from __future__ import annotations

import networkx as nx
import numpy as np

from skbn.graph._array import pdag_to_dag_array, topological_sort_array
from skbn.graph._convert import as_adjacency, from_adjacency

__all__ = ["plot_graph", "EDGE_COLORS"]

#: Colours of the edge categories drawn when a true graph is given.
EDGE_COLORS = {
    "correct": "#2b8a3e",
    "wrong orientation": "#e8590c",
    "false positive": "#c92a2a",
    "missing": "#868e96",
    "edge": "#343a40",
}


def _layered_positions(A: np.ndarray, nodes: list) -> dict:
    dag = A if topological_sort_array(A) is not None else pdag_to_dag_array(A)
    if dag is None:  # no consistent extension: fall back to a force-directed layout
        g = from_adjacency(A, nodes, kind="pdag")
        return nx.spring_layout(g.to_undirected(), seed=0)
    g = from_adjacency(dag, nodes, kind="dag")
    pos: dict = {}
    for depth, generation in enumerate(nx.topological_generations(g)):
        # Barycentre ordering: place each node under the mean position of its parents, which
        # removes most crossings in one downward sweep.
        def barycentre(node, generation=generation):
            xs = [pos[u][0] for u in g.predecessors(node)]
            return (sum(xs) / len(xs)) if xs else generation.index(node) - len(generation) / 2

        layer = sorted(generation, key=barycentre)
        for k, node in enumerate(layer):
            pos[node] = (k - (len(layer) - 1) / 2, -float(depth))
    return pos


def _edge_lists(A: np.ndarray, nodes: list, category: np.ndarray | None):
    """Split the edges of A into directed and undirected lists per category."""
    out: dict[tuple[str, bool], list] = {}
    rows, cols = np.nonzero(A)
    for i, j in zip(rows.tolist(), cols.tolist()):
        undirected = bool(A[j, i])
        if undirected and i > j:
            continue
        cat = "edge" if category is None else str(category[i, j])
        out.setdefault((cat, undirected), []).append((nodes[i], nodes[j]))
    return out


def plot_graph(
    graph,
    truth=None,
    ax=None,
    *,
    node_size: int = 600,
    font_size: int = 8,
    title: str | None = None,
):
    """Draw a DAG/CPDAG/PDAG in layers by topological generation.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
        The graph to draw; undirected edges are drawn without arrowheads.
    truth : networkx.DiGraph, optional
        The true graph on the same nodes. Edges are then coloured: correct, wrong orientation,
        false positive, and missing (dashed, in the true orientation), with a legend. When
        ``graph`` has undirected edges it is compared with the CPDAG of ``truth``. The layout
        follows ``truth`` so that plots of several learned graphs line up.
    ax : matplotlib Axes, optional
        Axes to draw on; a new figure is made if omitted.
    node_size, font_size : int
        Passed to networkx's drawing functions.
    title : str, optional
        Axes title.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import networkx as nx
    >>> truth = nx.DiGraph([("a", "b"), ("b", "c")])
    >>> ax = plot_graph(nx.DiGraph([("a", "b"), ("c", "b")]), truth=truth)
    >>> sorted(t.get_text() for t in ax.get_legend().get_texts())
    ['correct', 'wrong orientation']
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    from skbn.graph._array import dag_to_cpdag_array, pair_types

    A, nodes = as_adjacency(graph)
    category = None
    T = None
    if truth is not None:
        T, _ = as_adjacency(truth, nodes)
        if np.any(A & A.T) and topological_sort_array(T) is not None:
            T = dag_to_cpdag_array(T)
        same = pair_types(A) == pair_types(T)
        adj_a, adj_t = (A | A.T).astype(bool), (T | T.T).astype(bool)
        category = np.where(
            same, "correct", np.where(adj_t, "wrong orientation", "false positive")
        ).astype(object)
        category[~adj_a] = "missing"
    if ax is None:
        p = len(nodes)
        _, ax = plt.subplots(figsize=(min(4 + 0.35 * p, 30), min(3 + 0.25 * p, 22)))
    pos = _layered_positions(T if T is not None else A, nodes)
    g = from_adjacency(A, nodes)
    nx.draw_networkx_nodes(
        g, pos, ax=ax, node_size=node_size, node_color="#e7f5ff", edgecolors="#1c7ed6"
    )
    nx.draw_networkx_labels(g, pos, ax=ax, font_size=font_size)
    lists = _edge_lists(A, nodes, category)
    if T is not None:
        missing_adj = (T.astype(bool) & ~(A | A.T).astype(bool)).astype(np.int8)
        for (_, undirected), edges in _edge_lists(missing_adj, nodes, None).items():
            lists.setdefault(("missing", undirected), []).extend(edges)
    seen = []
    for (cat, undirected), edges in sorted(lists.items()):
        nx.draw_networkx_edges(
            g,
            pos,
            edgelist=edges,
            ax=ax,
            node_size=node_size,
            edge_color=EDGE_COLORS[cat],
            arrows=True,
            arrowstyle="-" if undirected else "-|>",
            arrowsize=12,
            style="dashed" if cat == "missing" else "solid",
            width=1.4,
        )
        if cat not in seen:
            seen.append(cat)
    if truth is not None and seen:
        handles = [
            Line2D([], [], color=EDGE_COLORS[c], linestyle="--" if c == "missing" else "-", label=c)
            for c in EDGE_COLORS
            if c in seen
        ]
        ax.legend(handles=handles, loc="best", fontsize=font_size, frameon=False)
    if title:
        ax.set_title(title)
    ax.set_axis_off()
    return ax
