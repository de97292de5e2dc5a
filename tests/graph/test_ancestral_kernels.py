# SPDX-License-Identifier: BSD-3-Clause
"""The MAG checks and Zhang's MAG of a PAG, against their definitions on small graphs.

The kernels search from the edges only (a topological order, the ``<->`` components), so
they are checked here against a brute force that reads the definitions directly: every
cycle through networkx, every path between two nodes enumerated.
"""

import itertools

import networkx as nx
import numpy as np
import pytest

import skbn._kernels.ancestral as kernels
from skbn.graph import ARROW, CIRCLE, TAIL, dag_to_pag, endpoint_matrix
from skbn.graph._ancestral import _pag_to_mag
from skbn.graph._fci_rules import _csr


def _random_mixed_graph(rng, p):
    """Random ``-->`` along a random order and random ``<->``; now and then a circle.

    Half the graphs get a planted inducing path: ``c --> a <-> b <-> c <-> d`` with
    ``b --> d`` joins the non-adjacent ``a`` and ``d`` (inner nodes ancestors of the ends).
    """
    M = np.zeros((p, p), dtype=np.int8)
    order = rng.permutation(p)
    for i, j in itertools.combinations(range(p), 2):
        u, v = order[i], order[j]
        r = rng.random()
        if r < 0.25:
            M[u, v], M[v, u] = ARROW, TAIL
        elif r < 0.5:
            M[u, v] = M[v, u] = ARROW
        elif r < 0.52:
            M[u, v], M[v, u] = ARROW, CIRCLE
    if rng.random() < 0.5:
        a, b, c, d = rng.choice(p, 4, replace=False)
        for u, v in itertools.combinations((a, b, c, d), 2):
            M[u, v] = M[v, u] = 0
        M[c, a], M[a, c] = ARROW, TAIL
        M[a, b] = M[b, a] = M[b, c] = M[c, b] = M[c, d] = M[d, c] = ARROW
        M[b, d], M[d, b] = ARROW, TAIL
    return M


def _directed(M) -> nx.DiGraph:
    g = nx.DiGraph()
    g.add_nodes_from(range(M.shape[0]))
    g.add_edges_from((int(u), int(v)) for u, v in np.argwhere((M == ARROW) & (M.T == TAIL)))
    return g


def _ancestral_by_definition(M) -> bool:
    if np.any(M == CIRCLE) or np.any((M == TAIL) & (M.T == TAIL)):
        return False
    g = _directed(M)
    if not nx.is_directed_acyclic_graph(g):
        return False
    for a, b in np.argwhere((M == ARROW) & (M.T == ARROW)):
        if a in nx.ancestors(g, int(b)) or b in nx.ancestors(g, int(a)):
            return False
    return True


def _maximal_by_definition(M) -> bool:
    """No path between non-adjacent nodes whose inner nodes are colliders and ancestors."""
    g = _directed(M)
    skeleton = nx.Graph((int(u), int(v)) for u, v in np.argwhere(M != 0))
    skeleton.add_nodes_from(range(M.shape[0]))
    for x, y in itertools.combinations(range(M.shape[0]), 2):
        if M[x, y] != 0:
            continue
        ancestors = nx.ancestors(g, x) | nx.ancestors(g, y) | {x, y}
        for path in nx.all_simple_paths(skeleton, x, y):
            inner = range(1, len(path) - 1)
            if all(
                M[path[i - 1], path[i]] == ARROW
                and M[path[i + 1], path[i]] == ARROW
                and path[i] in ancestors
                for i in inner
            ):
                return False
    return True


def test_ancestral_and_maximal_checks_match_their_definitions():
    rng = np.random.default_rng(0)
    seen = {"ancestral": 0, "not ancestral": 0, "maximal": 0, "not maximal": 0}
    for _ in range(400):
        M = _random_mixed_graph(rng, int(rng.integers(4, 8)))
        csr = _csr(M != 0)
        ancestral = _ancestral_by_definition(M)
        assert kernels.is_ancestral(M, *csr) == ancestral
        seen["ancestral" if ancestral else "not ancestral"] += 1
        if ancestral:
            maximal = _maximal_by_definition(M)
            assert kernels.is_maximal(M, *csr) == maximal
            seen["maximal" if maximal else "not maximal"] += 1
    # each outcome occurs often enough for the comparison to mean something
    assert min(seen.values()) >= 20, seen


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 5, 9])  # seeds whose PAG has o-o edges
def test_zhangs_mag_of_a_true_pag_is_ancestral_and_maximal_from_any_start(seed):
    from skbn.datasets import make_erdos_renyi_dag

    dag = make_erdos_renyi_dag(11, 16, random_state=seed)
    latents = sorted(dag)[:3]
    P, _ = endpoint_matrix(dag_to_pag(dag, latents))
    circles = np.flatnonzero(((P == CIRCLE) & (P.T == CIRCLE)).any(axis=1))
    assert len(circles) > 0
    for first in [None, *circles.tolist()]:
        mag = _pag_to_mag(P, first)
        assert not np.any(mag == CIRCLE)
        assert np.array_equal(mag != 0, P != 0)  # the skeleton is kept
        assert np.all(mag[P == ARROW] == ARROW)  # and every arrowhead
        assert _ancestral_by_definition(mag) and _maximal_by_definition(mag)
        if first is not None:  # the search starts at first: its o-o edges leave it
            out = (P[first] == CIRCLE) & (P[:, first] == CIRCLE)
            assert np.all(mag[first, out] == ARROW) and np.all(mag[out, first] == TAIL)
