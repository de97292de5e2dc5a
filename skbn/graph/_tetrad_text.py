# SPDX-License-Identifier: BSD-3-Clause
"""Tetrad's text graph format: what Tetrad saves as text, and what its graphs print.

::

    Graph Nodes:
    a;b;c

    Graph Edges:
    1. a o-> b
    2. c --> b

Each edge is ``u XYZ v``: ``X`` the mark at ``u`` (``<`` an arrowhead, ``-`` a tail, ``o``
a circle), ``Y`` a dash, ``Z`` the mark at ``v``. Tetrad may add edge properties after the
three fields and further sections (attributes, triples); they are read past. A node written
``(L)`` is latent.
"""

from __future__ import annotations

import re

import numpy as np

from skbn.graph._convert import as_adjacency, from_adjacency
from skbn.graph._cpdag import is_cpdag
from skbn.graph._pag import ARROW, CIRCLE, TAIL, endpoint_matrix, from_endpoint_matrix, is_marked

__all__ = ["parse_tetrad_text", "to_tetrad_text"]

_SECTIONS = ("Graph Nodes:", "Graph Edges:")
_LEFT = {"<": ARROW, "-": TAIL, "o": CIRCLE}
_RIGHT = {">": ARROW, "-": TAIL, "o": CIRCLE}
_BAD_NAME = re.compile(r"[\s;,]|^\(.*\)$|^\[.*\]$")


def _check_names(names) -> None:
    for name in names:
        text = str(name)
        if not text or _BAD_NAME.search(text):
            raise ValueError(
                f"The node name {text!r} cannot be written in Tetrad's text format (no spaces, "
                "';' or ',', and not wrapped in () or [], which Tetrad reads as latent or "
                "selection nodes); rename it, e.g. with networkx.relabel_nodes."
            )


def _endpoints(graph) -> tuple[np.ndarray, list]:
    """The endpoint matrix of any skbn graph: an arc's ends a tail and an arrowhead."""
    if is_marked(graph):
        return endpoint_matrix(graph)
    A, names = as_adjacency(graph)
    A = np.asarray(A) != 0
    M = np.where(A, ARROW, 0).astype(np.int8)
    M[(A & ~A.T).T] = TAIL  # the tail end of each arc
    M[A & A.T] = TAIL
    return M, list(names)


def to_tetrad_text(graph) -> str:
    """The text of a DAG, CPDAG, PDAG, MAG or PAG in Tetrad's format.

    Parameters
    ----------
    graph : networkx.DiGraph
        Arcs are ``u --> v``, undirected edges (both arcs of a CPDAG or PDAG) ``u --- v``,
        a PAG's or MAG's edges their marks.

    Returns
    -------
    str

    Examples
    --------
    >>> import networkx as nx
    >>> print(to_tetrad_text(nx.DiGraph([("a", "b"), ("c", "b")])), end="")
    Graph Nodes:
    a;b;c
    <BLANKLINE>
    Graph Edges:
    1. a --> b
    2. c --> b
    """
    M, names = _endpoints(graph)
    _check_names(names)
    left = {ARROW: "<", TAIL: "-", CIRCLE: "o"}
    right = {ARROW: ">", TAIL: "-", CIRCLE: "o"}
    lines = ["Graph Nodes:", ";".join(map(str, names)), "", "Graph Edges:"]
    rows, cols = np.nonzero(np.triu(M))
    for number, (i, j) in enumerate(zip(rows.tolist(), cols.tolist()), start=1):
        u, v = (j, i) if M[i, j] != ARROW and M[j, i] == ARROW else (i, j)  # arrowhead right
        lines.append(f"{number}. {names[u]} {left[int(M[v, u])]}-{right[int(M[u, v])]} {names[v]}")
    return "\n".join(lines) + "\n"


def parse_tetrad_text(text: str, *, kind: str | None = None):
    r"""The graph in Tetrad's text format.

    Parameters
    ----------
    text : str
        As Tetrad writes it (``GraphSaveLoadUtils.saveGraph``, or ``str`` of a Tetrad or
        causal-learn graph).
    kind : {"dag", "cpdag", "pdag", "pag", "mag"}, optional
        The graph's kind. By default a graph with a circle or a ``<->`` is a PAG; one with
        only ``-->`` and ``---`` a DAG when it has no ``---``, else a CPDAG when it is the
        CPDAG of some DAG, else a PDAG.

    Returns
    -------
    LearnedGraph
        Latent nodes (written ``(L)``) carry ``latent=True``.

    Examples
    --------
    >>> lines = ["Graph Nodes:", "a;b;c", "", "Graph Edges:", "1. a o-> b", "2. c <-> b"]
    >>> g = parse_tetrad_text("\n".join(lines))
    >>> g.graph["kind"], sorted(g.edges["c", "b"].items())
    ('pag', [('mark', 'arrow')])
    """
    lines = [line.strip() for line in text.splitlines()]
    if "Graph Nodes:" not in lines:
        raise ValueError(
            "Not Tetrad's text graph format: no 'Graph Nodes:' line (Tetrad writes "
            "'Graph Nodes:', the names separated by ';', then 'Graph Edges:')."
        )
    start = lines.index("Graph Nodes:") + 1
    names, latents = [], set()
    for line in lines[start:]:
        if not line or line in _SECTIONS:
            break
        for token in re.split(r"[,;]", line):
            token = token.strip()
            if not token:
                continue
            if token.startswith("(") and token.endswith(")"):
                token = token[1:-1]
                latents.add(token)
            elif token.startswith("[") and token.endswith("]"):
                token = token[1:-1]
            names.append(token)
    index = {name: i for i, name in enumerate(names)}
    M = np.zeros((len(names), len(names)), dtype=np.int8)
    if "Graph Edges:" in lines:
        for line in lines[lines.index("Graph Edges:") + 1 :]:
            if not line:
                break
            fields = re.sub(r"^\d+\.\s?", "", line).split(None, 3)
            if len(fields) < 3 or len(fields[1]) != 3 or fields[1][1] != "-":
                raise ValueError(f"Cannot read the edge line {line!r}; expected e.g. '1. a --> b'.")
            u, mark, v = fields[:3]
            for name in (u, v):
                if name not in index:
                    raise ValueError(f"The edge {line!r} names {name!r}, not in 'Graph Nodes:'.")
            if mark[0] not in _LEFT or mark[2] not in _RIGHT:
                raise ValueError(f"Cannot read the marks of {line!r}; Tetrad writes <, >, - or o.")
            M[index[v], index[u]] = _LEFT[mark[0]]
            M[index[u], index[v]] = _RIGHT[mark[2]]
    marked = bool((M == CIRCLE).any() or ((M == ARROW) & (M.T == ARROW)).any())
    if kind is None:
        kind = "pag" if marked else None
    if kind in ("pag", "mag"):
        g = from_endpoint_matrix(M, names, kind=kind)
    else:
        if marked:
            raise ValueError(
                f"The graph has circles or bidirected edges, so it cannot be a {kind}; read it "
                "as kind='pag' or 'mag'."
            )
        A = (((M == ARROW) & (M.T == TAIL)) | ((M == TAIL) & (M.T == TAIL))).astype(np.int8)
        if kind is None and (A & A.T).any():
            kind = "cpdag" if is_cpdag(A) else "pdag"
        g = from_adjacency(A, names, kind=kind)
    for name in latents:
        g.nodes[name]["latent"] = True
    return g
