# SPDX-License-Identifier: BSD-3-Clause
"""Partial graphs: a graph known only on some node pairs (e.g. an agreement graph)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from skbn.graph._array import pair_types
from skbn.graph._convert import as_adjacency

__all__ = ["PartialGraph"]

_TYPE_NAMES = {0: "none", 1: "->", 2: "<-", 3: "-"}


@dataclass(frozen=True, eq=False)
class PartialGraph:
    """A graph whose type is known only on a subset of node pairs.

    Intersection-Validation's agreement graph is one: the pairs on which several learned
    CPDAGs agree, with the type they agree on.

    Parameters
    ----------
    nodes : sequence
        Node names.
    known : ndarray of shape (p, p), dtype bool
        Symmetric mask of the pairs whose type is known; the diagonal is ignored.
    types : ndarray of shape (p, p), dtype int8
        Pair types as returned by ``pair_types`` of an adjacency array: for ``i < j``,
        0 (no edge), 1 (``i -> j``), 2 (``j -> i``), 3 (undirected). Only entries where
        ``known`` is set are meaningful.

    Examples
    --------
    >>> import numpy as np
    >>> import networkx as nx
    >>> pg = PartialGraph.from_graph(nx.DiGraph([("a", "b"), ("c", "b")]))
    >>> pg.relative_size, pg.n_connected_pairs
    (1.0, 2)
    """

    nodes: Sequence
    known: np.ndarray
    types: np.ndarray

    def __post_init__(self) -> None:
        p = len(self.nodes)
        known = np.asarray(self.known, dtype=bool)
        types = np.asarray(self.types, dtype=np.int8)
        if known.shape != (p, p) or types.shape != (p, p):
            raise ValueError(f"known and types must have shape ({p}, {p}).")
        known = known | known.T
        np.fill_diagonal(known, False)
        object.__setattr__(self, "nodes", list(self.nodes))
        object.__setattr__(self, "known", known)
        object.__setattr__(self, "types", types)

    @classmethod
    def from_graph(cls, graph, known=None, nodes=None) -> PartialGraph:
        """Make the partial graph of ``graph`` restricted to the pairs in ``known``.

        Parameters
        ----------
        graph : networkx.DiGraph or array-like of shape (p, p)
            The graph whose pair types are taken.
        known : array-like of bool of shape (p, p), optional
            The pairs whose type is known; all of them by default.
        nodes : list, optional
            Node order for ``graph``.

        Returns
        -------
        PartialGraph
        """
        A, names = as_adjacency(graph, nodes)
        p = len(names)
        mask = np.ones((p, p), dtype=bool) if known is None else np.asarray(known, dtype=bool)
        return cls(names, mask, pair_types(A))

    @property
    def n_pairs(self) -> int:
        """Number of unordered node pairs whose type is known."""
        return int(np.triu(self.known, 1).sum())

    @property
    def relative_size(self) -> float:
        """Fraction of all unordered node pairs whose type is known."""
        p = len(self.nodes)
        total = p * (p - 1) // 2
        return self.n_pairs / total if total else 1.0

    @property
    def n_connected_pairs(self) -> int:
        """Number of known pairs that are edges (of any orientation)."""
        return int(np.triu(self.known & (self.types != 0), 1).sum())

    def pairs(self) -> list[tuple]:
        """List the known pairs as ``(u, v, type)`` with ``u`` before ``v``.

        Returns
        -------
        list of tuple
            ``type`` is ``"none"``, ``"->"``, ``"<-"`` or ``"-"``.
        """
        rows, cols = np.nonzero(np.triu(self.known, 1))
        return [
            (self.nodes[i], self.nodes[j], _TYPE_NAMES[int(self.types[i, j])])
            for i, j in zip(rows.tolist(), cols.tolist())
        ]

    def __repr__(self) -> str:
        return (
            f"PartialGraph(n_nodes={len(self.nodes)}, n_pairs={self.n_pairs}, "
            f"relative_size={self.relative_size:.3f}, n_connected_pairs={self.n_connected_pairs})"
        )
