# SPDX-License-Identifier: BSD-3-Clause
"""Reading and writing graphs: GraphML, JSON (node-link), DOT and Tetrad's text format."""

from __future__ import annotations

import json
import os
from pathlib import Path

import networkx as nx
import numpy as np

from skbn.graph._convert import GRAPH_KINDS, as_adjacency, from_adjacency
from skbn.graph._pag import (
    ARROW,
    CIRCLE,
    MARK_KINDS,
    endpoint_matrix,
    from_endpoint_matrix,
    is_marked,
)
from skbn.graph._tetrad_text import parse_tetrad_text, to_tetrad_text

__all__ = ["graph_format", "read_graph", "write_graph", "to_dot"]

_FORMATS = {
    ".graphml": "graphml",
    ".json": "json",
    ".dot": "dot",
    ".gv": "dot",
    ".txt": "tetrad",
}


def graph_format(path: str | os.PathLike, format: str | None = None) -> str:
    """The graph format of ``path`` (its suffix, or ``format``), refused before any work.

    Parameters
    ----------
    path : str or path-like
        ``.graphml``, ``.json``, ``.dot`` or ``.gv``, ``.txt`` (Tetrad's text format).
    format : {"graphml", "json", "dot", "tetrad"}, optional
        Overrides the suffix.

    Returns
    -------
    str

    Examples
    --------
    >>> from skbn.graph import graph_format
    >>> graph_format("learned.graphml"), graph_format("learned.gv")
    ('graphml', 'dot')
    """
    path = Path(path)
    if format is not None:
        if format not in ("graphml", "json", "dot", "tetrad"):
            raise ValueError(
                f"format must be 'graphml', 'json', 'dot' or 'tetrad', got {format!r}."
            )
        return format
    try:
        return _FORMATS[path.suffix.lower()]
    except KeyError:
        raise ValueError(
            f"Cannot tell the graph format from the file name {path.name!r}; use a .graphml, "
            ".json, .dot or .txt (Tetrad's text) suffix, or pass format=."
        ) from None


def _normalise(graph) -> nx.DiGraph:
    if is_marked(graph):  # a PAG or MAG keeps its marks as the arcs' "mark" attribute
        M, nodes = endpoint_matrix(graph)
        return from_endpoint_matrix(M, nodes, kind=graph.graph["kind"])
    if isinstance(graph, nx.DiGraph):
        A, nodes = as_adjacency(graph)
        kind = graph.graph.get("kind")
        return from_adjacency(A, nodes, kind=kind if kind in GRAPH_KINDS else None)
    A, nodes = as_adjacency(graph)
    return from_adjacency(A, nodes)


def _dot_id(name) -> str:
    text = str(name).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def to_dot(graph) -> str:
    """DOT text of a DAG, CPDAG or PDAG; undirected edges are drawn once with ``dir=none``.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)

    Returns
    -------
    str

    Examples
    --------
    >>> import networkx as nx
    >>> print(to_dot(nx.DiGraph([("a", "b"), ("b", "c"), ("c", "b")])))
    digraph {
      "a";
      "b";
      "c";
      "a" -> "b";
      "b" -> "c" [dir=none];
    }
    """
    if is_marked(graph):
        return _marked_dot(graph)
    A, nodes = as_adjacency(graph)
    lines = ["digraph {"]
    lines += [f"  {_dot_id(n)};" for n in nodes]
    p = len(nodes)
    for i in range(p):
        for j in map(int, A[i].nonzero()[0]):
            if A[j, i]:
                if i < j:
                    lines.append(f"  {_dot_id(nodes[i])} -> {_dot_id(nodes[j])} [dir=none];")
            else:
                lines.append(f"  {_dot_id(nodes[i])} -> {_dot_id(nodes[j])};")
    lines.append("}")
    return "\n".join(lines)


def _marked_dot(graph) -> str:
    """DOT of a PAG or MAG: each edge once, its marks as Graphviz arrow shapes."""
    M, nodes = endpoint_matrix(graph)
    shape = {ARROW: "normal", CIRCLE: "odot"}
    lines = ["digraph {"]
    lines += [f"  {_dot_id(n)};" for n in nodes]
    for i, j in zip(*np.nonzero(np.triu(M))):
        head, tail = shape.get(int(M[i, j]), "none"), shape.get(int(M[j, i]), "none")
        lines.append(
            f"  {_dot_id(nodes[i])} -> {_dot_id(nodes[j])} "
            f"[dir=both, arrowhead={head}, arrowtail={tail}];"
        )
    lines.append("}")
    return "\n".join(lines)


def _refuse_name_clashes(g) -> None:
    """Refuse nodes that only differ by type (``1`` and ``"1"``): every file stores text."""
    seen: dict[str, object] = {}
    for node in g.nodes:
        other = seen.setdefault(str(node), node)
        if other is not node and other != node:
            raise ValueError(
                f"nodes {other!r} and {node!r} have the same name as text, so a file cannot "
                "tell them apart (they would be read back as one node); rename one of them."
            )


def write_graph(graph, path: str | os.PathLike, format: str | None = None) -> None:
    """Write a graph to GraphML, JSON (networkx node-link), DOT or Tetrad's text format.

    ``graph.graph["kind"]`` is kept in GraphML and JSON. Undirected edges are stored as two
    opposite arcs in GraphML and JSON, and once with ``dir=none`` in DOT. A PAG or MAG keeps
    each arc's ``mark`` in GraphML and JSON; DOT draws each edge once with its marks as
    arrow shapes (``normal`` an arrowhead, ``odot`` a circle, ``none`` a tail). Tetrad's
    text format (``.txt``) lists each edge once with its marks, ``a --> b``, ``a --- b``,
    ``a o-> b``, as Tetrad saves a graph; it does not record the kind.

    Parameters
    ----------
    graph : networkx.DiGraph or array-like of shape (p, p)
    path : str or path-like
    format : {"graphml", "json", "dot", "tetrad"}, optional
        Inferred from the suffix (.graphml, .json, .dot/.gv, .txt) when omitted.

    Examples
    --------
    >>> import networkx as nx, tempfile, os
    >>> g = nx.DiGraph([("a", "b")], kind="dag")
    >>> path = os.path.join(tempfile.mkdtemp(), "g.json")
    >>> write_graph(g, path)
    >>> sorted(read_graph(path).edges())
    [('a', 'b')]
    """
    path = Path(path)
    fmt = graph_format(path, format)
    if isinstance(graph, nx.Graph):
        _refuse_name_clashes(graph)
    if fmt == "dot":
        path.write_text(to_dot(graph) + "\n", encoding="utf-8")
        return
    if fmt == "tetrad":
        path.write_text(to_tetrad_text(_normalise(graph)), encoding="utf-8")
        return
    g = _normalise(graph)
    g = nx.relabel_nodes(g, {n: str(n) for n in g.nodes}) if fmt == "graphml" else g
    if fmt == "graphml":
        nx.write_graphml(g, path)
    else:
        data = nx.node_link_data(g, edges="edges")
        path.write_text(json.dumps(data, indent=1, default=str), encoding="utf-8")


def read_graph(path: str | os.PathLike, format: str | None = None) -> nx.DiGraph:
    """Read a graph written by :func:`write_graph` (GraphML, JSON or Tetrad's text format).

    Parameters
    ----------
    path : str or path-like
    format : {"graphml", "json", "tetrad"}, optional
        Inferred from the suffix when omitted. DOT is write-only (reading it needs pydot).
        A Tetrad text file's kind is read from its marks: a circle or ``<->`` makes a PAG,
        otherwise a DAG, CPDAG or PDAG as its edges allow (see
        :func:`~skbn.graph.parse_tetrad_text`).

    Returns
    -------
    networkx.DiGraph
        With ``graph["kind"]`` set (inferred if the file does not say).

    Examples
    --------
    >>> import tempfile, pathlib, networkx as nx
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "g.json"
    >>> write_graph(nx.DiGraph([("a", "b")], kind="dag"), path)
    >>> g = read_graph(path)
    >>> list(g.edges), g.graph["kind"]
    ([('a', 'b')], 'dag')
    """
    path = Path(path)
    fmt = graph_format(path, format)
    if fmt == "dot":
        raise ValueError("Reading DOT is not supported; write GraphML or JSON to read back.")
    if not path.exists():
        raise FileNotFoundError(f"No such graph file: {str(path)!r}.")
    if fmt == "tetrad":
        return parse_tetrad_text(path.read_text(encoding="utf-8"))
    if fmt == "graphml":
        from xml.etree.ElementTree import ParseError

        try:
            g = nx.read_graphml(path)
        except (ParseError, nx.NetworkXError, ValueError, KeyError) as exc:
            raise ValueError(f"{str(path)!r} is not a readable GraphML graph: {exc}") from None
    else:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except UnicodeDecodeError as exc:
            raise ValueError(
                f"{str(path)!r} is not UTF-8 text (byte {exc.object[exc.start]:#04x} at "
                f"position {exc.start}); JSON graphs are UTF-8."
            ) from None
        except json.JSONDecodeError as exc:
            raise ValueError(f"{str(path)!r} is not a node-link JSON graph: {exc}") from None
        if not isinstance(data, dict) or "nodes" not in data:
            raise ValueError(
                f"{str(path)!r} is not a node-link JSON graph: expected an object with "
                f"'nodes' and 'edges' (as write_graph writes), got {type(data).__name__}."
            )
        try:
            g = nx.node_link_graph(data, directed=True, multigraph=False, edges="edges")
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"{str(path)!r} is not a node-link JSON graph: {exc}") from None
    kind = g.graph.get("kind")
    if kind in MARK_KINDS:
        M, nodes = endpoint_matrix(nx.DiGraph(g))
        return from_endpoint_matrix(M, nodes, kind=kind)
    A, nodes = as_adjacency(nx.DiGraph(g))
    return from_adjacency(A, nodes, kind=kind if kind in GRAPH_KINDS else None)
