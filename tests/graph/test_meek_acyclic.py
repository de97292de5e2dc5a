# SPDX-License-Identifier: BSD-3-Clause
"""Meek's rules with ``acyclic=True`` never close a directed cycle."""

import numpy as np

from skbn.graph._array import meek_orient_array


def _cycle(A):
    D = (A == 1) & (A.T == 0)
    reach = D.copy()
    for k in range(len(A)):
        reach |= reach[:, [k]] & reach[[k], :]
    return bool(np.diag(reach).any())


def test_conflicting_colliders_leave_the_closing_edge_undirected():
    # a PDAG whose colliders conflict: Meek's R1 would orient d -> a and close a cycle
    A = np.zeros((5, 5), dtype=np.int8)
    a, b, c, d, e = range(5)
    A[a, b] = A[b, c] = A[c, d] = 1  # a -> b -> c -> d
    A[d, a] = A[a, d] = 1  # d - a
    A[e, d] = 1  # e -> d, e not adjacent to a: R1 orients d -> a, closing a cycle
    plain = meek_orient_array(A)
    guarded = meek_orient_array(A, acyclic=True)
    assert _cycle(plain)
    assert not _cycle(guarded)
    assert guarded[d, a] == guarded[a, d] == 1  # left undirected


def test_pc_orientation_of_conflicting_colliders_has_no_cycle():
    # a skeleton and separating sets (found by a random search) whose colliders conflict:
    # applied as they were, PC's orientation held a directed cycle
    from skbn.learners._pc import orient_pc
    from skbn.learners._sepsets import RemovalLog

    p = 6
    adj = np.zeros((p, p), dtype=np.int8)
    for a, b in [(0, 1), (0, 3), (0, 4), (0, 5), (1, 2), (1, 5), (3, 4), (3, 5), (4, 5)]:
        adj[a, b] = adj[b, a] = 1
    seps = {
        (0, 2): {4},
        (1, 3): {2, 4, 5},
        (1, 4): set(),
        (2, 3): {0, 1, 4},
        (2, 4): {0, 3},
        (2, 5): {3},
    }
    sepsets = RemovalLog(p)
    for k, v in seps.items():
        sepsets[frozenset(k)] = [tuple(sorted(v))]
    none = np.zeros((p, p), dtype=bool)
    A, conflicts = orient_pc(adj, sepsets, np.arange(p), none, none)
    assert not _cycle(A)
    assert ((A + A.T) > 0).sum() == (adj > 0).sum()  # the skeleton is kept
    assert ((A == 1) & (A.T == 0)).any()  # and some arrows remain
