# SPDX-License-Identifier: BSD-3-Clause
"""Comparing two PAGs (or MAGs): adjacencies, marks and a structural Hamming distance.

Marks are counted at edge ends, as Tetrad's arrowhead and tail statistics count them: an
arrowhead of the learned PAG is a true positive when the true PAG has the same two nodes
adjacent with an arrowhead at the same end, and a false positive otherwise (including when
the true PAG does not have the edge at all); a true arrowhead the learned PAG lacks, or puts
on an edge it does not have, is a false negative. Tails and circles are counted the same way.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from skbn.graph._pag import ARROW, CIRCLE, TAIL, endpoint_matrix, is_marked

__all__ = [
    "MARKS",
    "aligned_marks",
    "is_marked_pair",
    "mark_counts",
    "pair_differences",
    "refuse_other_nodes",
]

#: The marks a PAG's edge ends carry, by the names the metrics take.
MARKS = {"arrow": ARROW, "tail": TAIL, "circle": CIRCLE}


def is_marked_pair(truth, learned) -> bool:
    """Whether the comparison is between graphs with marks; refuses a PAG beside a DAG."""
    marked = is_marked(truth), is_marked(learned)
    if marked[0] != marked[1]:
        which = "true" if marked[0] else "learned"
        other = "learned" if marked[0] else "true"
        raise ValueError(
            f"The {which} graph is a {'PAG or MAG'} but the {other} graph is not; compare "
            "two PAGs. skbn.graph.dag_to_pag(dag, latents) gives the PAG of a true DAG, and "
            "the adjacency metrics compare any two skeletons."
        )
    return marked[0]


def refuse_other_nodes(nodes: list, graph: nx.Graph, which: str) -> None:
    """Refuse a networkx graph whose node set is not ``nodes``, naming the differences."""
    if len(graph) != len(nodes) or set(graph.nodes) != set(nodes):
        extra = sorted(map(str, set(graph.nodes) - set(nodes)))[:8]
        lacking = sorted(map(str, set(nodes) - set(graph.nodes)))[:8]
        raise ValueError(
            "The two graphs have different node sets"
            + (f"; only in the {which} graph: {extra}" if extra else "")
            + (f"; missing from the {which} graph: {lacking}" if lacking else "")
            + ". Compare graphs over the same variables."
        )


def aligned_marks(truth, learned) -> tuple[np.ndarray, np.ndarray, list]:
    """Endpoint matrices of two PAGs over the truth's node order."""
    T, nodes = endpoint_matrix(truth)
    if isinstance(learned, nx.Graph):
        refuse_other_nodes(nodes, learned, "learned")
    L, _ = endpoint_matrix(learned, nodes if isinstance(learned, nx.Graph) else None)
    if L.shape != T.shape:
        raise ValueError(
            f"The learned graph has {L.shape[0]} nodes but the truth has {len(nodes)}."
        )
    return T, L, nodes


def mark_counts(T: np.ndarray, L: np.ndarray, mark: str) -> tuple[int, int, int]:
    """``(shared, learned, true)`` counts of one mark at edge ends."""
    if mark not in MARKS:
        raise ValueError(f"mark must be one of {sorted(MARKS)}, got {mark!r}.")
    code = MARKS[mark]
    return int(((T == code) & (L == code)).sum()), int((L == code).sum()), int((T == code).sum())


def pair_differences(T: np.ndarray, L: np.ndarray) -> int:
    """Node pairs whose edge differs: present in one graph only, or with another mark."""
    differ = (T != L) | (T.T != L.T)
    return int(np.triu(differ, 1).sum())
