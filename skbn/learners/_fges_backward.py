# SPDX-License-Identifier: BSD-3-Clause
"""FGES's backward phase on the arrays of :mod:`skbn._kernels.fges_backward`.

:func:`run_backward` loads a :class:`~skbn.learners._cpdag_state.CPDAGState` into a
neighbour table, runs the whole backward phase in the kernel and writes the CPDAG back. It
applies to Gaussian likelihood scores the kernel computes itself and to searches without
background knowledge; :func:`kernel_applies` says when. Other searches run the Python
backward phase of :mod:`skbn.learners._fges`, which takes the same steps in the same order
(the tests compare the two).
"""

from __future__ import annotations

import numpy as np

from skbn._kernels import fges as K
from skbn._kernels import fges_backward as KB
from skbn.learners._cpdag_state import CPDAGState
from skbn.learners._fges_forward import fill_table, row_length, store_table

__all__ = ["kernel_applies", "run_backward"]


def kernel_applies(scoring: K.Scoring, knowledge: bool) -> bool:
    """Whether the kernel can run this backward phase: a kernel score and no knowledge."""
    return scoring.kind != K.NO_SCORES and not knowledge


def _initial_sizes(edges: int) -> tuple[int, int]:
    """Starting lengths of the pool and the heap (the kernel doubles them as needed)."""
    return max(1024, 4 * edges), max(64, edges)


def _empty_table() -> K.ScoreTable:
    return K.ScoreTable(
        np.full(2, -1, dtype=np.int64),
        np.empty(1, dtype=np.int32),
        np.empty(1, dtype=np.int64),
        np.empty(1, dtype=np.int32),
        np.empty(1, dtype=np.float64),
        np.empty(1, dtype=np.int32),
    )


def run_backward(state: CPDAGState, scoring: K.Scoring, forward=None) -> int:
    """Run the backward phase on ``state`` in place; the number of deletions.

    Parameters
    ----------
    state : CPDAGState
        A CPDAG without background knowledge.
    scoring : Scoring
        How the kernel scores families (``_kernel_scoring(bound)``; not ``NO_SCORES``).
    forward : ForwardSearch, optional
        The forward phase of the same search: the family scores in its table are read
        (not written).
    """
    p = state.p
    cap = row_length(state, 8)
    nbr = np.zeros((p, cap), dtype=np.int32)
    knd = np.zeros((p, cap), dtype=np.int8)
    deg = np.zeros(p, dtype=np.int32)
    fill_table(state, nbr, knd, deg)
    if forward is not None:
        table = K.ScoreTable(forward.slots, *forward.entries, forward.e_pool)
    else:
        table = _empty_table()
    dummy = np.zeros((1, 1), dtype=bool)
    work = K.Work(
        np.empty(p + 2 * cap + 8, dtype=np.int32),  # rebuild's changed nodes
        np.empty(1, dtype=np.int32),
        np.zeros(1, dtype=np.int32),
        np.empty(p, dtype=np.int32),  # rebuild's queue
        np.full(p, -1, dtype=np.int64),  # rebuild's snapshots
        np.empty(1, dtype=np.int32),
    )
    search = KB.Backward(
        K.Graph(nbr, knd, deg),
        K.Knowledge(dummy, False, dummy, False),
        table,
        np.zeros(K.N_CONTROL, dtype=np.int64),
        np.zeros(p, dtype=np.int32),
        work,
        scoring,
        np.empty(2 * cap + 8, dtype=np.int32),
    )
    edges = int(deg.sum())
    # the pairs (x, y) are arcs of the first CPDAG, so the pair table never fills
    size = 1 << max(4, (4 * edges + 16).bit_length())
    n_pool, n_heap = _initial_sizes(edges)
    st = KB.State(
        np.full(size, -1, dtype=np.int64),
        np.full(size, -1, dtype=np.int64),
        np.empty(n_pool, dtype=np.int32),
        np.empty(n_heap, dtype=np.float64),
        np.empty((n_heap, 6), dtype=np.int64),
        np.zeros(4, dtype=np.int64),
        np.empty(2 * cap + 4, dtype=np.int32),
        np.empty(3 * cap + 1, dtype=np.int32),
    )
    st = KB.backward(search, st)
    store_table(state, nbr, knd, deg)
    return int(st.bc[KB.B_DELETES])
