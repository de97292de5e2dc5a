# SPDX-License-Identifier: BSD-3-Clause
"""Zhang's R9 kernel against the rule read literally, edge by edge, on random PAG states."""

import numpy as np

from skbn._kernels.pag_rules import _potentially_directed, path_work, rule9, uncovered_pd_path
from skbn.graph import ARROW, CIRCLE, TAIL
from skbn.graph._fci_rules import _csr
from tests.marks import random_marks


def _rule9_literally(M, adjacent, indptr, indices):
    """Each ``a o-> c`` in turn, each ``b`` in turn, stopping at the first that gives a path."""
    work = path_work(M.shape[0])
    for a in range(M.shape[0]):
        for c in indices[indptr[a] : indptr[a + 1]]:
            if not (M[a, c] == ARROW and M[c, a] == CIRCLE):
                continue
            for b in indices[indptr[a] : indptr[a + 1]]:
                if b == c or adjacent[b, c] or not _potentially_directed(M, a, b):
                    continue
                if uncovered_pd_path(M, adjacent, indptr, indices, a, b, c, work):
                    M[c, a] = TAIL
                    break


def test_rule9_kernel_sets_the_tails_the_literal_rule_sets():
    rng = np.random.default_rng(0)
    changed = 0
    for _ in range(300):
        p = int(rng.integers(4, 14))
        M = random_marks(rng, p, 0.35, [0.45, 0.2, 0.35])
        adjacent = M != 0
        csr = _csr(adjacent)
        expected = M.copy()
        _rule9_literally(expected, adjacent, *csr)
        got = M.copy()
        assert rule9(got, adjacent, *csr) == (not np.array_equal(expected, M))
        assert np.array_equal(got, expected)
        changed += not np.array_equal(expected, M)
    assert changed >= 30  # the rule acted often enough for the comparison to mean something
