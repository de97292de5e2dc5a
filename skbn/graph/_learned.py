# SPDX-License-Identifier: BSD-3-Clause
"""A networkx DiGraph that shows itself: the type of every learner's ``graph_``.

:class:`LearnedGraph` is a ``networkx.DiGraph`` in every respect (``isinstance`` holds, every
networkx function takes it); it only adds a readable ``repr`` and, in a notebook, a drawing.
"""

from __future__ import annotations

import io

import networkx as nx

__all__ = ["LearnedGraph"]

#: Largest graph a notebook draws inline; above it, the text repr only.
MAX_DRAWN_NODES = 150


class LearnedGraph(nx.DiGraph):
    """A ``networkx.DiGraph`` whose ``repr`` counts its edges and that draws in a notebook.

    An undirected edge is a pair of opposite arcs, and ``graph["kind"]`` says ``"dag"``,
    ``"cpdag"`` or ``"pdag"``, as for every graph in skbn; a ``"pag"`` or ``"mag"`` holds
    both arcs of each edge with the ``mark`` at each head, and its repr counts edges by
    type. Jupyter shows it as a drawing
    (:func:`skbn.plotting.plot_graph`, as SVG) when it has at most ``MAX_DRAWN_NODES`` nodes.

    Parameters
    ----------
    *args
        As for ``networkx.DiGraph``: the incoming graph data.
    backend : str, optional
        The dispatch argument of networkx, passed on.
    **kwargs
        Graph attributes, such as ``kind``.

    Examples
    --------
    >>> from skbn.graph import from_adjacency
    >>> g = from_adjacency([[0, 1, 0], [0, 0, 1], [0, 1, 0]], ["a", "b", "c"], kind="pdag")
    >>> g
    <LearnedGraph pdag: 3 nodes, 2 edges (1 directed, 1 undirected)>
    >>> print(g)
    LearnedGraph pdag with 3 nodes and 2 edges (1 directed, 1 undirected)

    ``g.number_of_edges()`` is networkx's count of arcs, 3 here: an undirected edge is two.
    >>> import networkx as nx
    >>> isinstance(g, nx.DiGraph), sorted(g.successors("b"))
    (True, ['c'])
    """

    def _counts(self) -> tuple[int, int]:
        undirected = sum(1 for u, v in self.edges() if self.has_edge(v, u)) // 2
        return self.number_of_edges() - 2 * undirected, undirected

    def _marked_summary(self) -> str:
        """A PAG's or MAG's edges counted by type: ``3 edges (1 -->, 2 o->)``."""
        # the marks at the two ends, sorted, name the type: ("arrow", "tail") is "-->"
        names = {
            ("arrow", "tail"): "-->",
            ("arrow", "arrow"): "<->",
            ("arrow", "circle"): "o->",
            ("circle", "circle"): "o-o",
            ("tail", "tail"): "---",
            ("circle", "tail"): "--o",
        }
        types: dict[str, int] = {}
        seen = set()
        for u, v, mark in self.edges(data="mark"):
            if (v, u) in seen:
                continue
            seen.add((u, v))
            name = names.get(tuple(sorted((str(mark), str(self.edges[v, u].get("mark"))))), "?")
            types[name] = types.get(name, 0) + 1
        listed = ", ".join(f"{types[t]} {t}" for t in [*names.values(), "?"] if t in types)
        return f"{sum(types.values())} edges" + (f" ({listed})" if listed else "")

    def _summary(self) -> tuple[str, str, str]:
        """The kind, the node count and the edge counts, as repr and str word them."""
        if self.graph.get("kind") in ("pag", "mag"):
            return self.graph["kind"], f"{self.number_of_nodes()} nodes", self._marked_summary()
        directed, undirected = self._counts()
        edges = f"{directed + undirected} edges ({directed} directed, {undirected} undirected)"
        return self.graph.get("kind", "graph"), f"{self.number_of_nodes()} nodes", edges

    def __repr__(self) -> str:
        kind, nodes, edges = self._summary()
        return f"<LearnedGraph {kind}: {nodes}, {edges}>"

    def __str__(self) -> str:
        kind, nodes, edges = self._summary()
        return f"LearnedGraph {kind} with {nodes} and {edges}"

    def _repr_svg_(self) -> str | None:
        """The drawing, for Jupyter; None (the text repr) for a large or empty graph."""
        if not 0 < self.number_of_nodes() <= MAX_DRAWN_NODES:
            return None
        import matplotlib.pyplot as plt

        from skbn.plotting import plot_graph

        ax = plot_graph(self, title=repr(self)[1:-1])
        buffer = io.StringIO()
        ax.figure.savefig(buffer, format="svg", bbox_inches="tight")
        plt.close(ax.figure)
        return buffer.getvalue()
