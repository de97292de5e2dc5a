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
