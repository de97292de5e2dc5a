# SPDX-License-Identifier: BSD-3-Clause
"""The Possible-D-Sep kernel against the definition, on random endpoint matrices.

Possible-D-Sep(x, y) holds each node joined to ``x`` by a path that avoids ``y`` and whose
every inner node is a collider on it or sits in a triangle with its two neighbours on it;
FCI keeps the possible ancestors of ``x`` and ``y`` among them. The kernel searches over
(previous, current) pairs, which also follows walks that revisit a node: it may return more
nodes than the simple paths reach (a larger pool of conditioning candidates, which keeps
the stage sound), never fewer, and only possible ancestors.
"""

import numpy as np
import pytest

from skbn._kernels.possible_dsep import possible_dsep

ARROW, TAIL = 2, 3


def _by_paths(M, x, y, max_length):
    """Possible-D-Sep by enumerating simple paths (small graphs only)."""
    adjacent = M != 0
    found = set()

    def extend(path):
        if len(path) > 1:
            found.add(path[-1])
        if 0 <= max_length <= len(path) - 1:
            return
        for c in np.flatnonzero(adjacent[path[-1]]).tolist():
            if c in path or c == y:
                continue
            if len(path) >= 2:
                a, b = path[-2], path[-1]
                if not ((M[a, b] == ARROW and M[c, b] == ARROW) or adjacent[a, c]):
                    continue
            extend([*path, c])

    extend([x])
    return found


def _possible_ancestors(M, targets):
    """Nodes with a potentially directed path (no arrowhead back, no tail ahead) into
    ``targets``, the targets included."""
    found, stack = set(targets), list(targets)
    while stack:
        w = stack.pop()
        for u in np.flatnonzero(M[:, w]).tolist():
            if u not in found and M[u, w] != TAIL and M[w, u] != ARROW:
                found.add(u)
                stack.append(u)
    return found


def _table(adjacent):
    degree = adjacent.sum(axis=1).astype(np.int64)
    table = np.full((len(degree), max(1, int(degree.max()))), -1, dtype=np.int64)
    for v in range(len(degree)):
        table[v, : degree[v]] = np.flatnonzero(adjacent[v])
    return table, degree


@pytest.mark.parametrize("max_length", [-1, 2, 3])
def test_kernel_holds_every_path_node_and_only_possible_ancestors(max_length):
    rng = np.random.default_rng(max_length + 10)
    extra = 0
    for _ in range(300):
        p = int(rng.integers(4, 9))
        upper = np.triu(rng.random((p, p)) < rng.uniform(0.3, 0.7), 1)
        adjacent = upper | upper.T
        M = np.where(adjacent, rng.integers(1, 4, size=(p, p)), 0).astype(np.int8)
        table, degree = _table(adjacent)
        for x in range(p):
            for y in np.flatnonzero(adjacent[x]).tolist():
                got = set(possible_dsep(M, table, degree, x, y, max_length).tolist())
                ancestors = _possible_ancestors(M, [x, y])
                expected = _by_paths(M, x, y, max_length) & ancestors
                assert expected <= got
                assert got <= ancestors - {x, y}
                extra += len(got - expected)
    # walks add a node now and then, not wholesale
    assert extra < 100


def test_kernel_follows_the_neighbour_table_as_edges_go():
    # a triangle a o-o b o-o c o-o a and a o-o d: b and c are in Possible-D-Sep(a, d)
    M = np.zeros((4, 4), dtype=np.int8)
    for u, v in [(0, 1), (1, 2), (0, 2), (0, 3)]:
        M[u, v] = M[v, u] = 1
    table, degree = _table(M != 0)
    assert possible_dsep(M, table, degree, 0, 3, -1).tolist() == [1, 2]
    # the stage drops a - b from M and from both rows of the table: c is no longer in a
    # triangle on a - c - b (nor a collider), so b drops out
    M[0, 1] = M[1, 0] = 0
    table[0, :3] = [3, 2, -1]
    degree[0] = 2
    table[1, :2] = [2, -1]
    degree[1] = 1
    assert possible_dsep(M, table, degree, 0, 3, -1).tolist() == [2]
    # a *-> c <-* b makes c a collider on a, c, b, but c and b are then no possible
    # ancestors of a or d (an arrowhead at c on the only ways back): both are left out
    M[0, 2] = M[1, 2] = 2
    assert possible_dsep(M, table, degree, 0, 3, -1).tolist() == []
