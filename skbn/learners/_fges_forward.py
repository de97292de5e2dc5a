# SPDX-License-Identifier: BSD-3-Clause
"""FGES's forward phase on the arrays of :mod:`skbn._kernels.fges`.

:class:`ForwardSearch` owns the kernel's arrays (the CPDAG's neighbour table, the score
table, the operator heap and pool), loads the CPDAG from and stores it back into a
:class:`~skbn.learners._cpdag_state.CPDAGState` around each forward round, fills in the
family scores the kernel asks for, and enlarges an array when the kernel says it is full.
"""

from __future__ import annotations

import numpy as np

from skbn._kernels import fges as K
from skbn.data._limits import _readonly
from skbn.learners._cpdag_state import CPDAGState

__all__ = ["ForwardSearch", "fill_table", "row_length", "store_table"]

_MODES = {"effect edges": K.EFFECT, "cover noncolliders": K.COVER, "all pairs": K.ALL}


def _pow2(n: int) -> int:
    return 1 << max(int(n) - 1, 1).bit_length()


class ForwardSearch:
    """Forward rounds of one FGES run, with their score table kept between rounds.

    Parameters
    ----------
    bound : BoundScore
        Scores the families the kernel asks for, a batch at a time, through its
        ``local_scores``. A Gaussian likelihood score whose ``family_score_args()`` is not
        None is scored by the kernel itself, which then needs no pause per insertion (the
        same scores, bit for bit).
    effect : tuple of (ndarray, ndarray)
        The effect edges as compressed rows (``indptr`` int64, ``indices`` int32).
    arc_ok, forbidden : ndarray of shape (p, p) or None
        Background knowledge: arcs that Insert may use, arcs Meek's rules may not create.
    max_degree : int or None
    """

    #: least length of a row of the neighbour table
    min_row = 8

    def __init__(self, bound, effect, arc_ok, forbidden, max_degree) -> None:
        p = bound.n_features
        self.p = p
        self.bound = bound
        self.gauss = _kernel_scoring(bound)
        indptr, indices = effect
        self.effect = K.Effects(
            np.ascontiguousarray(indptr, np.int64),
            np.ascontiguousarray(indices, np.int32),
        )
        dummy = np.zeros((1, 1), dtype=bool)
        # writable copies: a read-only array is another type to numba (another compile)
        self.know = K.Knowledge(
            dummy if arc_ok is None else np.array(arc_ok, dtype=bool, order="C"),
            arc_ok is not None,
            dummy if forbidden is None else np.array(forbidden, dtype=bool, order="C"),
            forbidden is not None,
        )
        self.ctl = np.zeros(K.N_CONTROL, dtype=np.int64)
        self.ctl[K.C_LIMIT] = -1 if max_degree is None else int(max_degree)
        # the score table
        self.slots = np.full(1 << 16, -1, dtype=np.int64)
        self.entries = [
            np.empty(1 << 15, dtype=np.int32),  # child
            np.empty(1 << 15, dtype=np.int64),  # offset into the parents' pool
            np.empty(1 << 15, dtype=np.int32),  # number of parents
            np.empty(1 << 15, dtype=np.float64),  # score
        ]
        self.e_pool = np.empty(1 << 17, dtype=np.int32)
        # the operators
        self.pool = np.empty(1 << 16, dtype=np.int32)
        self.fs_keys = np.full(1 << 16, -1, dtype=np.int64)
        self.fs_vals = np.empty(1 << 16, dtype=np.int64)
        self.heap = self._heap_arrays(1 << 14)
        # per-variable scratch
        self.mark = np.zeros(p, dtype=np.int32)
        self.mark2 = np.zeros(p, dtype=np.int32)
        self.queue = np.empty(p, dtype=np.int32)
        self.snap_at = np.full(p, -1, dtype=np.int64)
        self.cand = np.empty(p, dtype=np.int32)
        self.cap = 0

    @staticmethod
    def _heap_arrays(size: int) -> K.Heap:
        return K.Heap(
            np.empty(size, dtype=np.float64),  # minus the gain
            np.empty(size, dtype=np.int64),  # running count
            np.empty(size, dtype=np.int32),  # x
            np.empty(size, dtype=np.int32),  # y
            np.empty(size, dtype=np.int64),  # T's offset in the pool
            np.empty(size, dtype=np.int32),  # |T|
            np.empty(size, dtype=np.int64),  # the configuration's offset in the pool
        )

    # -- the CPDAG ------------------------------------------------------------------------------

    def _size_graph(self, cap: int) -> None:
        self.cap = cap
        self.nbr = np.zeros((self.p, cap), dtype=np.int32)
        self.knd = np.zeros((self.p, cap), dtype=np.int8)
        self.deg = np.zeros(self.p, dtype=np.int32)
        self.process = np.empty(self.p + 2 * cap + 8, dtype=np.int32)
        self.seeds = np.empty(2 * cap + 8, dtype=np.int32)
        self.scratch = K.Scratch(
            np.empty(3 + 3 * cap, dtype=np.int32),  # a configuration, and scratch
            self.mark,
            np.empty(cap + 1, dtype=np.int32),  # the pool of T kept
            np.empty(16, dtype=np.int64),  # subsets of it
            np.empty(cap + 1, dtype=np.int32),  # NA | Pa
            np.empty(cap + 1, dtype=np.int32),  # the pool of T
        )

    def load(self, state: CPDAGState) -> None:
        """Take the CPDAG from ``state``."""
        self._size_graph(row_length(state, self.min_row))
        fill_table(state, self.nbr, self.knd, self.deg)

    def store(self, state: CPDAGState) -> None:
        """Write the CPDAG into ``state``."""
        store_table(state, self.nbr, self.knd, self.deg)

    # -- a round ----------------------------------------------------------------------------

    def run(self, mode: str) -> int:
        """One forward round over the loaded CPDAG; the number of insertions it made."""
        ctl = self.ctl
        inserts = int(ctl[K.C_INSERTS])
        ctl[K.C_MODE] = _MODES[mode]
        ctl[K.C_HEAP] = 0
        ctl[K.C_POOL] = 0
        self.fs_keys.fill(-1)
        ctl[K.C_FS_USED] = ctl[K.C_FS_TOMB] = 0
        ctl[K.C_WORK] = K.W_INIT
        ctl[K.C_START] = 0
        ctl[K.C_STOP] = min(self.p, K.INIT_CHUNK)
        ctl[K.C_STAGE] = K.S_COLLECT
        ctl[K.C_RESUME_J] = ctl[K.C_RESUME_TURN] = 0
        ctl[K.C_NEED_ENTRIES] = ctl[K.C_NEED_EPOOL] = 0
        while True:
            status = K.forward(self.effect, self._search())
            if status == K.DONE:
                return int(ctl[K.C_INSERTS]) - inserts
            if status == K.NEED_SCORES:
                self._fill(int(ctl[K.C_FILLED]), int(ctl[K.C_ENTRIES]))
            else:
                self._grow(int(ctl[K.C_GROW]))

    def _search(self) -> K.Search:
        """The kernel's state, as the arrays are now (an enlargement replaces some)."""
        return K.Search(
            graph=K.Graph(self.nbr, self.knd, self.deg),
            know=self.know,
            scores=K.ScoreTable(self.slots, *self.entries, self.e_pool),
            ops=K.Operators(self.pool, self.fs_keys, self.fs_vals, K.Heap(*self.heap)),
            ctl=self.ctl,
            scratch=self.scratch,
            work=K.Work(self.process, self.cand, self.mark2, self.queue, self.snap_at, self.seeds),
            gauss=self.gauss,
        )

    def _fill(self, start: int, stop: int) -> None:
        children, offsets, lengths, values = self.entries
        values[start:stop] = self.bound.local_scores(
            children[start:stop], offsets[start:stop], lengths[start:stop], self.e_pool
        )
        self.ctl[K.C_FILLED] = stop

    def _grow(self, what: int) -> None:
        ctl = self.ctl
        if what == K.G_GRAPH:
            nbr, knd, deg = self.nbr, self.knd, self.deg
            self._size_graph(2 * self.cap)
            self.nbr[:, : nbr.shape[1]] = nbr
            self.knd[:, : knd.shape[1]] = knd
            self.deg[:] = deg
        elif what == K.G_SCORES:
            # with the kernel scoring, it says how many entries its next step may add
            n = int(ctl[K.C_ENTRIES]) + int(ctl[K.C_NEED_ENTRIES])
            if n + 1 >= self.entries[0].shape[0]:
                self.entries = [_grown(a, 2 * a.shape[0]) for a in self.entries]
            e_need = int(ctl[K.C_EPOOL]) + int(ctl[K.C_NEED_EPOOL]) + 4 * self.cap + 64
            if e_need > self.e_pool.shape[0]:
                self.e_pool = _grown(self.e_pool, 2 * self.e_pool.shape[0] + e_need)
            if 2 * (n + 1) > self.slots.shape[0]:
                self.slots = np.full(2 * self.slots.shape[0], -1, dtype=np.int64)
                held = int(ctl[K.C_ENTRIES])  # the entries there are, not those to come
                K.score_rehash(K.ScoreTable(self.slots, *self.entries, self.e_pool), held)
        else:
            need_pool = int(ctl[K.C_NEED_POOL])
            if int(ctl[K.C_POOL]) + need_pool > self.pool.shape[0]:
                # a configuration shared by the pair table and an operator is copied
                # twice, so the live entries take at most twice the pool's length
                fresh = np.empty(2 * self.pool.shape[0], dtype=np.int32)
                live = K.compact_pool(
                    self.pool,
                    fresh,
                    self.fs_keys,
                    self.fs_vals,
                    K.Heap(*self.heap),
                    int(ctl[K.C_HEAP]),
                )
                size = max(self.pool.shape[0], 2 * (live + need_pool))
                self.pool = np.empty(size, dtype=np.int32)
                self.pool[:live] = fresh[:live]
                ctl[K.C_POOL] = live
            size = int(ctl[K.C_HEAP]) + int(ctl[K.C_NEED_HEAP])
            if size > self.heap.key.shape[0]:
                self.heap = K.Heap(*(_grown(a, 2 * size) for a in self.heap))
            used = int(ctl[K.C_FS_USED]) + int(ctl[K.C_NEED_FS])
            if 2 * (used + int(ctl[K.C_FS_TOMB])) > self.fs_keys.shape[0]:
                keys = np.full(max(self.fs_keys.shape[0], _pow2(4 * used)), -1, dtype=np.int64)
                vals = np.empty(keys.shape[0], dtype=np.int64)
                ctl[K.C_FS_USED] = K.pair_rehash(self.fs_keys, self.fs_vals, keys, vals)
                ctl[K.C_FS_TOMB] = 0
                self.fs_keys, self.fs_vals = keys, vals


def row_length(state: CPDAGState, least: int) -> int:
    """A neighbour-table row length for ``state``: room to double the largest degree."""
    degree = max((state.degree(v) for v in range(state.p)), default=0)
    return max(least, _pow2(2 * degree + 2))


def fill_table(state: CPDAGState, nbr: np.ndarray, knd: np.ndarray, deg: np.ndarray) -> None:
    """Write ``state``'s CPDAG into the (large enough) neighbour table."""
    kinds = (K.PARENT, K.CHILD, K.UNDIRECTED)
    for v in range(state.p):
        k = 0
        for kind, members in zip(kinds, (state.pa[v], state.ch[v], state.ne[v])):
            for u in members:
                nbr[v, k] = u
                knd[v, k] = kind
                k += 1
        deg[v] = k


def store_table(state: CPDAGState, nbr: np.ndarray, knd: np.ndarray, deg: np.ndarray) -> None:
    """Write the neighbour table's CPDAG into ``state``."""
    for v in range(state.p):
        d = deg[v]
        members, kinds = nbr[v, :d].tolist(), knd[v, :d].tolist()
        state.pa[v] = {u for u, k in zip(members, kinds) if k == K.PARENT}
        state.ch[v] = {u for u, k in zip(members, kinds) if k == K.CHILD}
        state.ne[v] = {u for u, k in zip(members, kinds) if k == K.UNDIRECTED}


def _kernel_scoring(bound) -> K.Scoring:
    """The forward kernel's ``gauss`` argument: what it needs to score families itself.

    The arrays not in use are small stand-ins of the same types (read-only, a C-ordered
    covariance and Fortran-ordered columns), so numba compiles the kernel once for both.
    """
    spec = bound.family_score_args()
    cov = _readonly(np.zeros((2, 2)))
    X = _readonly(np.zeros((2, 2), order="F"))
    means = _readonly(np.zeros(2))
    if spec is None:
        return K.Scoring(K.NO_SCORES, cov, X, means, 0, 0.0)
    dense, values, n, per_param = spec
    if dense:
        cov = _readonly(np.ascontiguousarray(values, dtype=np.float64).view())
        kind = K.DENSE_GAUSSIAN
    else:
        columns, column_means = values
        X = _readonly(np.asfortranarray(columns, dtype=np.float64).view())
        means = _readonly(np.ascontiguousarray(column_means, dtype=np.float64).view())
        kind = K.CENTRED_GAUSSIAN
    return K.Scoring(kind, cov, X, means, int(n), float(per_param))


def _grown(a: np.ndarray, size: int) -> np.ndarray:
    out = np.empty(size, dtype=a.dtype)
    out[: a.shape[0]] = a
    return out
