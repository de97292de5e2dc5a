# SPDX-License-Identifier: BSD-3-Clause
"""Kernels of FGES's forward phase: Insert operators over a CPDAG held in arrays.

The CPDAG is a neighbour table: row ``v`` of ``nbr`` lists v's adjacencies (``deg[v]`` of
them, in no particular order) and the same row of ``knd`` says what each is to v
(:data:`PARENT`, :data:`CHILD` or :data:`UNDIRECTED`). The operators wait in a binary heap
held in arrays, ordered by (minus the score gain, a running count), so they come out in the
order a heap of tuples would give. What an operator was computed under (its
configuration: NA_yx, y's other neighbours and y's parents, each sorted) and its set T live
in an append-only integer pool; a hash table maps each pair (x, y) to the configuration
last computed for it.

Local scores come from a hash table keyed by (child, sorted parents). The kernel does not
score families itself: it works through a list of pairs twice, first registering every
family score the pairs need that the table lacks and pausing (:data:`NEED_SCORES`) so the
caller can fill them in, then computing the operators with every score known. So the
search gives the same operators whatever score the caller evaluates, in the same order.
When an array is too small for the next step the kernel pauses with :data:`GROW` before
changing anything; the caller enlarges it and calls again.

The order of work is fixed: candidate pairs variable by variable in increasing order,
partners in increasing order, subsets T in a fixed order with the first of equal gains
kept, and operators of equal gain in the order they were computed. It is the order the
earlier search held in Python sets followed (with its sets iterated in sorted order), and
gives the same graphs.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from skbn._kernels.gaussian import centred_loglik, gaussian_loglik
from skbn._kernels.sorting import insertion_sort

#: what ``nbr[v, k]`` is to ``v``
PARENT, CHILD, UNDIRECTED = 1, 2, 3

#: how a call ended
DONE, NEED_SCORES, GROW = 0, 1, 2

#: candidate pairs of a round
EFFECT, COVER, ALL = 0, 1, 2

# slots of the control array ``ctl``
(
    C_STAGE,
    C_WORK,
    C_START,
    C_STOP,
    C_X,
    C_Y,
    C_COUNTER,
    C_INSERTS,
    C_HEAP,
    C_FS_USED,
    C_FS_TOMB,
    C_POOL,
    C_ENTRIES,
    C_EPOOL,
    C_FILLED,
    C_NEED_POOL,
    C_NEED_HEAP,
    C_NEED_FS,
    C_GROW,
    C_MODE,
    C_LIMIT,
    C_STAMP,
    C_NEED_ENTRIES,
    C_NEED_EPOOL,
    C_RESUME_J,
    C_RESUME_TURN,
) = range(26)
#: length of the control array
N_CONTROL = 26
#: how the kernel scores families itself (``gauss.kind``): not at all (the caller fills them
#: in), from a covariance matrix, or from centred columns
NO_SCORES, DENSE_GAUSSIAN, CENTRED_GAUSSIAN = 0, 1, 2

# stages and work-list kinds
S_COLLECT, S_COMPUTE, S_POP = 1, 2, 3
W_INIT, W_PROCESS, W_SINGLE = 1, 2, 3
#: what to grow (``ctl[C_GROW]``)
G_GRAPH, G_SCORES, G_OPERATORS = 1, 2, 3
#: variables per chunk of the first pass over all pairs
INIT_CHUNK = 2048

_EMPTY, _TOMB = -1, -2

# The search's state travels as named tuples of arrays, built by ``ForwardSearch``
# (``skbn.learners._fges_forward``) before each call; scalars live in the control array.

#: The CPDAG as a neighbour table: v's neighbours ``nbr[v, :deg[v]]``, what each is to v
#: in ``knd`` (:data:`PARENT`, :data:`CHILD`, :data:`UNDIRECTED`).
Graph = namedtuple("Graph", ["nbr", "knd", "deg"])
#: Background knowledge: the arcs Insert may use, the arcs Meek's rules may not create.
Knowledge = namedtuple("Knowledge", ["arc_ok", "has_arc_ok", "forbidden", "has_forbidden"])
#: The score table: hash ``slots`` of entries (a family's child, the offset and length of
#: its parents in ``pool``, its score).
ScoreTable = namedtuple("ScoreTable", ["slots", "child", "offset", "length", "value", "pool"])
#: The operator heap: minus the gain, a running count, x, y, T's offset and length in the
#: operator pool, and the offset of the configuration it was computed under.
Heap = namedtuple("Heap", ["key", "count", "x", "y", "t_offset", "t_length", "cfg_offset"])
#: The operators: the integer pool of configurations and sets T, the pair table (x, y) ->
#: the configuration last computed for it, and the heap.
Operators = namedtuple("Operators", ["pool", "fs_keys", "fs_vals", "heap"])
#: Scratch of one Insert evaluation: its configuration, marks, the pool of T and its
#: subsets, NA | Pa and the pool of T.
Scratch = namedtuple("Scratch", ["cfg", "mark", "kept", "masks", "fam", "fam2"])
#: Work lists: the variables to process, candidate partners, a second mark array, a
#: queue, the rebuild's snapshots and its seeds.
Work = namedtuple("Work", ["process", "cand", "mark2", "queue", "snap_at", "seeds"])
#: The effect edges as compressed rows.
Effects = namedtuple("Effects", ["indptr", "indices"])
#: How the kernel scores families itself: ``kind`` (:data:`NO_SCORES`,
#: :data:`DENSE_GAUSSIAN`, :data:`CENTRED_GAUSSIAN`), the covariance matrix or the columns
#: and their means, the rows and the penalty per parameter.
Scoring = namedtuple("Scoring", ["kind", "cov", "X", "means", "n", "per_param"])
#: :data:`Scoring` with the scratch of the centred route (a block, its members, columns).
InlineScoring = namedtuple(
    "InlineScoring",
    ["kind", "cov", "X", "means", "n", "per_param", "block", "members", "columns"],
)
#: Everything a pass over a work list reads and writes.
Search = namedtuple("Search", ["graph", "know", "scores", "ops", "ctl", "scratch", "work", "gauss"])


# -- the neighbour table ------------------------------------------------------------------


@njit(cache=True)
def _kind(nbr, knd, deg, v, u):
    """What ``u`` is to ``v`` (0 when not adjacent)."""
    for k in range(deg[v]):
        if nbr[v, k] == u:
            return knd[v, k]
    return 0


@njit(cache=True)
def _set(nbr, knd, deg, v, u, kind):
    for k in range(deg[v]):
        if nbr[v, k] == u:
            knd[v, k] = kind
            return
    nbr[v, deg[v]] = u
    knd[v, deg[v]] = kind
    deg[v] += 1


@njit(cache=True)
def _drop(nbr, knd, deg, v, u):
    for k in range(deg[v]):
        if nbr[v, k] == u:
            last = deg[v] - 1
            nbr[v, k] = nbr[v, last]
            knd[v, k] = knd[v, last]
            deg[v] = last
            return


@njit(cache=True)
def add_arc(nbr, knd, deg, a, b):
    """Make ``a -> b`` (replacing any edge between them)."""
    _set(nbr, knd, deg, a, b, CHILD)
    _set(nbr, knd, deg, b, a, PARENT)


@njit(cache=True)
def add_undirected(nbr, knd, deg, a, b):
    """Make ``a - b`` (replacing any edge between them)."""
    _set(nbr, knd, deg, a, b, UNDIRECTED)
    _set(nbr, knd, deg, b, a, UNDIRECTED)


@njit(cache=True)
def _sort(values, m):
    """Sort ``values[:m]`` in place (neighbour lists are short)."""
    insertion_sort(values[:m])


@njit(cache=True)
def _gather(nbr, knd, deg, v, kind, out, at):
    """Write v's neighbours of ``kind`` (0: all), sorted, at ``out[at:]``; their number."""
    m = 0
    for k in range(deg[v]):
        if kind == 0 or knd[v, k] == kind:
            out[at + m] = nbr[v, k]
            m += 1
    _sort(out[at:], m)
    return m


@njit(cache=True)
def _adjacent_all(nbr, knd, deg, u, nodes, m):
    for a in range(m):
        if _kind(nbr, knd, deg, u, nodes[a]) == 0:
            return False
    return True


@njit(cache=True)
def _is_clique(nbr, knd, deg, nodes, m):
    for a in range(m):
        for b in range(a + 1, m):
            if _kind(nbr, knd, deg, nodes[a], nodes[b]) == 0:
                return False
    return True


# -- hash tables ----------------------------------------------------------------------------


@njit(cache=True)
def _mix(h):
    h = (h ^ (h >> np.uint64(33))) * np.uint64(0xFF51AFD7ED558CCD)
    h = (h ^ (h >> np.uint64(33))) * np.uint64(0xC4CEB9FE1A85EC53)
    return h ^ (h >> np.uint64(33))


@njit(cache=True)
def _family_hash(child, parents, m):
    h = _mix(np.uint64(child) + np.uint64(0x9E3779B97F4A7C15))
    for a in range(m):
        h = _mix(h ^ np.uint64(parents[a]) + np.uint64(a + 1))
    return h


@njit(cache=True)
def score_find(table, child, parents, m):
    """Slot of the family (child, parents[:m]) in ``table.slots``: its entry or an empty slot."""
    slots, e_child, e_off, e_len, e_pool = (
        table.slots,
        table.child,
        table.offset,
        table.length,
        table.pool,
    )
    mask = np.uint64(slots.shape[0] - 1)
    s = _family_hash(child, parents, m) & mask
    while True:
        e = slots[s]
        if e < 0:
            return np.int64(s)
        if e_child[e] == child and e_len[e] == m:
            off = e_off[e]
            same = True
            for a in range(m):
                if e_pool[off + a] != parents[a]:
                    same = False
                    break
            if same:
                return np.int64(s)
        s = (s + np.uint64(1)) & mask


@njit(cache=True)
def score_rehash(table, n_entries):
    """Enter entries ``0 .. n_entries - 1`` into the empty ``table.slots``."""
    for e in range(n_entries):
        off = table.offset[e]
        m = table.length[e]
        s = score_find(table, table.child[e], table.pool[off : off + m], m)
        table.slots[s] = e


@njit(cache=True)
def _pair_find(keys, key):
    """Slot holding ``key``, or -1."""
    mask = np.uint64(keys.shape[0] - 1)
    s = _mix(np.uint64(key)) & mask
    while True:
        k = keys[s]
        if k == key:
            return np.int64(s)
        if k == _EMPTY:
            return np.int64(-1)
        s = (s + np.uint64(1)) & mask


@njit(cache=True)
def _pair_put(keys, vals, key, val, ctl):
    """Map ``key`` to ``val`` (the table has room: checked before the pass)."""
    mask = np.uint64(keys.shape[0] - 1)
    s = _mix(np.uint64(key)) & mask
    free = np.int64(-1)
    while True:
        k = keys[s]
        if k == key:
            vals[s] = val
            return
        if k == _EMPTY:
            break
        if k == _TOMB and free < 0:
            free = np.int64(s)
        s = (s + np.uint64(1)) & mask
    if free >= 0:
        ctl[C_FS_TOMB] -= 1
        s = np.uint64(free)
    else:
        ctl[C_FS_USED] += 1
    keys[s] = key
    vals[s] = val


@njit(cache=True)
def pair_rehash(keys, vals, new_keys, new_vals):
    """Enter the live entries of ``keys``/``vals`` into the empty ``new_keys`` table."""
    mask = np.uint64(new_keys.shape[0] - 1)
    n = 0
    for s in range(keys.shape[0]):
        key = keys[s]
        if key >= 0:
            t = _mix(np.uint64(key)) & mask
            while new_keys[t] != _EMPTY:
                t = (t + np.uint64(1)) & mask
            new_keys[t] = key
            new_vals[t] = vals[s]
            n += 1
    return n


# -- the operator heap ------------------------------------------------------------------------


@njit(cache=True)
def _before(h_key, h_cnt, a, b):
    return h_key[a] < h_key[b] or (h_key[a] == h_key[b] and h_cnt[a] < h_cnt[b])


@njit(cache=True)
def _swap(heap, a, b):
    heap.key[a], heap.key[b] = heap.key[b], heap.key[a]
    heap.count[a], heap.count[b] = heap.count[b], heap.count[a]
    heap.x[a], heap.x[b] = heap.x[b], heap.x[a]
    heap.y[a], heap.y[b] = heap.y[b], heap.y[a]
    heap.t_offset[a], heap.t_offset[b] = heap.t_offset[b], heap.t_offset[a]
    heap.t_length[a], heap.t_length[b] = heap.t_length[b], heap.t_length[a]
    heap.cfg_offset[a], heap.cfg_offset[b] = heap.cfg_offset[b], heap.cfg_offset[a]


@njit(cache=True)
def _push(heap, ctl, key, x, y, t, tlen, cfg):
    """Add the operator Insert(x, y, T) of gain ``-key``, counted ``ctl[C_COUNTER]``."""
    i = ctl[C_HEAP]
    ctl[C_HEAP] += 1
    heap.key[i] = key
    heap.count[i] = ctl[C_COUNTER]
    heap.x[i] = x
    heap.y[i] = y
    heap.t_offset[i] = t
    heap.t_length[i] = tlen
    heap.cfg_offset[i] = cfg
    while i > 0:
        up = (i - 1) // 2
        if not _before(heap.key, heap.count, i, up):
            break
        _swap(heap, i, up)
        i = up


@njit(cache=True)
def _pop(heap, ctl):
    """Move the least entry to the end of the heap's arrays; its index."""
    h_key, h_cnt = heap.key, heap.count
    last = ctl[C_HEAP] - 1
    ctl[C_HEAP] = last
    _swap(heap, 0, last)
    i = 0
    while True:
        a = 2 * i + 1
        if a >= last:
            break
        if a + 1 < last and _before(h_key, h_cnt, a + 1, a):
            a += 1
        if not _before(h_key, h_cnt, a, i):
            break
        _swap(heap, i, a)
        i = a
    return last


@njit(cache=True)
def compact_pool(pool, new_pool, fs_keys, fs_vals, heap, n_heap):
    """Copy the live configurations and sets T into ``new_pool``; the new top."""
    h_t, h_tlen, h_cfg = heap.t_offset, heap.t_length, heap.cfg_offset
    top = 0
    for s in range(fs_keys.shape[0]):
        if fs_keys[s] >= 0:
            top = _copy_cfg(pool, new_pool, fs_vals, s, top)
    for i in range(n_heap):
        top = _copy_cfg(pool, new_pool, h_cfg, i, top)
        off = h_t[i]
        m = h_tlen[i]
        new_pool[top : top + m] = pool[off : off + m]
        h_t[i] = top
        top += m
    return top


@njit(cache=True)
def _copy_cfg(pool, new_pool, refs, i, top):
    off = refs[i]
    m = 3 + pool[off] + pool[off + 1] + pool[off + 2]
    new_pool[top : top + m] = pool[off : off + m]
    refs[i] = top
    return top + m


# -- scratch ------------------------------------------------------------------------------------


@njit(cache=True)
def _stamp(ctl, mark):
    """A fresh stamp for ``mark`` (cleared when the counter would wrap)."""
    ctl[C_STAMP] += 1
    if ctl[C_STAMP] >= 2**31 - 2:
        mark[:] = 0
        ctl[C_STAMP] = 1
    return np.int32(ctl[C_STAMP])


@njit(cache=True)
def _insert_config(nbr, knd, deg, x, y, cfg, mark, ctl):
    """Write Insert(x, y)'s configuration into ``cfg``: [#NA, #T0, #Pa, NA, T0, Pa]."""
    cap = nbr.shape[1]
    ne = cfg[3 + 2 * cap :]  # scratch beyond the configuration
    m = _gather(nbr, knd, deg, y, UNDIRECTED, ne, 0)
    n_na = 0
    n_t0 = 0
    if m > 0:
        s = _stamp(ctl, mark)
        for k in range(deg[x]):
            mark[nbr[x, k]] = s
        for a in range(m):  # NA first, in order
            if mark[ne[a]] == s:
                cfg[3 + n_na] = ne[a]
                n_na += 1
        for a in range(m):
            if mark[ne[a]] != s and ne[a] != x:
                cfg[3 + n_na + n_t0] = ne[a]
                n_t0 += 1
    n_pa = _gather(nbr, knd, deg, y, PARENT, cfg, 3 + n_na + n_t0)
    cfg[0], cfg[1], cfg[2] = n_na, n_t0, n_pa
    return 3 + n_na + n_t0 + n_pa


@njit(cache=True)
def _same_cfg(pool, off, cfg, m):
    if off < 0:
        return False
    if 3 + pool[off] + pool[off + 1] + pool[off + 2] != m:
        return False
    for a in range(m):
        if pool[off + a] != cfg[a]:
            return False
    return True


@njit(cache=True)
def _merge(a, na, b, nb, out):
    """Sorted union of sorted, disjoint ``a[:na]`` and ``b[:nb]`` into ``out``."""
    i = j = m = 0
    while i < na or j < nb:
        if j >= nb or (i < na and a[i] < b[j]):
            out[m] = a[i]
            i += 1
        else:
            out[m] = b[j]
            j += 1
        m += 1
    return m


@njit(cache=True)
def _with(a, m, x, out):
    """``a[:m]`` with ``x`` inserted in order, into ``out``."""
    j = 0
    placed = False
    for i in range(m):
        if not placed and x < a[i]:
            out[j] = x
            j += 1
            placed = True
        out[j] = a[i]
        j += 1
    if not placed:
        out[j] = x
        j += 1
    return j


@njit(cache=True)
def _clique_subsets(graph, na, n_na, pool, n_pool, kept, masks):
    """Subsets T of ``pool`` with NA | T a clique, as bit masks over ``kept``.

    They come in the order a depth-first search with an explicit stack lists them, the
    empty set first. ``kept`` receives the pool members adjacent to all of NA; returns
    (#kept, #subsets, masks).
    """
    nbr, knd, deg = graph
    q = 0
    for a in range(n_pool):
        if _adjacent_all(nbr, knd, deg, pool[a], na, n_na):
            kept[q] = pool[a]
            q += 1
    if q > 62:
        raise ValueError("FGES: more than 62 candidate neighbours for one Insert operator")
    adjm = np.zeros(q, dtype=np.int64)
    for a in range(q):
        for b in range(q):
            if a != b and _kind(nbr, knd, deg, kept[a], kept[b]) != 0:
                adjm[a] |= np.int64(1) << b
    n_out = 1
    masks[0] = 0
    stack_mask = np.empty(16, dtype=np.int64)
    stack_start = np.empty(16, dtype=np.int64)
    stack_mask[0] = 0
    stack_start[0] = 0
    top = 1
    while top > 0:
        top -= 1
        chosen = stack_mask[top]
        start = stack_start[top]
        for k in range(start, q):
            if chosen & ~adjm[k] == 0:
                new = chosen | (np.int64(1) << k)
                if n_out >= masks.shape[0]:
                    grown = np.empty(2 * masks.shape[0], dtype=np.int64)
                    grown[:n_out] = masks[:n_out]
                    masks = grown
                masks[n_out] = new
                n_out += 1
                if top >= stack_mask.shape[0]:
                    g1 = np.empty(2 * top, dtype=np.int64)
                    g2 = np.empty(2 * top, dtype=np.int64)
                    g1[:top] = stack_mask[:top]
                    g2[:top] = stack_start[:top]
                    stack_mask, stack_start = g1, g2
                stack_mask[top] = new
                stack_start[top] = k + 1
                top += 1
    return q, n_out, masks


# -- one Insert(x, y) evaluation -------------------------------------------------------------


@njit(cache=True)
def _add_entry(table, sl, y, nodes, m, ctl):
    """Enter the family (y, nodes[:m]) at the empty slot ``sl``; its entry."""
    e = ctl[C_ENTRIES]
    table.child[e] = y
    table.offset[e] = ctl[C_EPOOL]
    table.length[e] = m
    table.pool[ctl[C_EPOOL] : ctl[C_EPOOL] + m] = nodes[:m]
    ctl[C_EPOOL] += m
    table.slots[sl] = e
    ctl[C_ENTRIES] += 1
    return e


@njit(cache=True)
def _gaussian_entry(table, y, nodes, m, gauss, ctl):
    """Entry of the family (y, nodes[:m]), scored here and added when the table lacks it.

    The score is what the Gaussian bound's ``local_scores`` gives: the log-likelihood from
    the covariance matrix or the columns and their means, minus ``per_param`` per free parameter.
    """
    sl = score_find(table, y, nodes, m)
    if table.slots[sl] >= 0:
        return table.slots[sl]
    e = _add_entry(table, sl, y, nodes, m, ctl)
    ctl[C_FILLED] = ctl[C_ENTRIES]
    kind, cov, X, means, n, per_param, block, members, columns = gauss
    parents = nodes[:m].astype(np.int64)
    if kind == DENSE_GAUSSIAN:
        ll = gaussian_loglik(cov, n, np.int64(y), parents)
    else:
        ll = centred_loglik(X, means, n, np.int64(y), parents, block, members, columns)
    table.value[e] = ll - per_param * (np.float64(m) + 2.0)
    return e


@njit(cache=True)
def _calc_insert(x, y, collect, search):
    """FGES's calc_insert(x, y); 0, or what must grow before it can run.

    With ``collect`` True, register the family scores it needs that the table lacks and
    add up what the computing pass will store; returns :data:`G_SCORES` when the score
    table is full (nothing else changed). Otherwise compute the operator: with every score
    known, or, when the kernel scores families itself (``gauss.kind``), scoring the missing
    ones as it goes; then it first checks there is room for all it may store and returns
    :data:`G_SCORES` or :data:`G_OPERATORS` (with the room needed in ``ctl``) before
    changing anything when there is not.
    """
    graph, ctl, gauss, table = search.graph, search.ctl, search.gauss, search.scores
    nbr, knd, deg = graph
    arc_ok, has_knowledge, _forbidden, _has_forbidden = search.know
    slots, e_child, e_val, e_pool = table.slots, table.child, table.value, table.pool
    pool, fs_keys, fs_vals, heap = search.ops
    cfg, mark, kept, masks, fam, fam2 = search.scratch
    inline = gauss.kind != NO_SCORES and not collect
    if x == y or _kind(nbr, knd, deg, y, x) != 0:
        return 0
    if has_knowledge and not arc_ok[x, y]:
        return 0
    limit = ctl[C_LIMIT]
    if limit >= 0 and (deg[x] >= limit or deg[y] >= limit):
        return 0
    m = _insert_config(nbr, knd, deg, x, y, cfg, mark, ctl)
    p = deg.shape[0]
    key = np.int64(x) * p + y
    s = _pair_find(fs_keys, key)
    if s >= 0 and _same_cfg(pool, fs_vals[s], cfg, m):
        return 0
    n_na, n_t0, n_pa = cfg[0], cfg[1], cfg[2]
    # what follows up to the stores only reads the graph
    na = cfg[3 : 3 + n_na]
    clique = n_na == 0 or _is_clique(nbr, knd, deg, na, n_na)
    q = 0
    n_sub = 0
    n_base = 0
    base = fam[: n_na + n_pa]
    if clique:
        t0 = cfg[3 + n_na : 3 + n_na + n_t0]
        pa = cfg[3 + n_na + n_t0 : 3 + n_na + n_t0 + n_pa]
        # the pool of T: y's other neighbours whose arc into y the knowledge allows
        tpool = fam2[:n_t0]
        n_pool = 0
        for a in range(n_t0):
            if not has_knowledge or arc_ok[t0[a], y]:
                tpool[n_pool] = t0[a]
                n_pool += 1
        n_base = _merge(na, n_na, pa, n_pa, base)
        # Insert's T ranges over these subsets, the empty one first (with no pool, only
        # it); a later T replaces the best only when strictly better, the first of equals
        # wins
        q, n_sub, masks = _clique_subsets(graph, na, n_na, tpool, n_pool, kept, masks)
    if inline:
        need_fam = 2 * n_sub
        if (
            ctl[C_POOL] + m + n_t0 > pool.shape[0]
            or ctl[C_HEAP] + 1 > heap.key.shape[0]
            or 2 * (ctl[C_FS_USED] + ctl[C_FS_TOMB] + 1) > fs_keys.shape[0]
        ):
            ctl[C_NEED_POOL] = m + n_t0
            ctl[C_NEED_HEAP] = 1
            ctl[C_NEED_FS] = 1
            return G_OPERATORS
        if (
            ctl[C_ENTRIES] + need_fam >= e_child.shape[0]
            or ctl[C_EPOOL] + need_fam * (n_base + q + 1) > e_pool.shape[0]
            or 2 * (ctl[C_ENTRIES] + need_fam + 1) > slots.shape[0]
        ):
            ctl[C_NEED_ENTRIES] = need_fam
            ctl[C_NEED_EPOOL] = need_fam * (n_base + q + 1)
            return G_SCORES
    off = np.int64(-1)
    if collect:
        ctl[C_NEED_POOL] += m + n_t0
        ctl[C_NEED_HEAP] += 1
        ctl[C_NEED_FS] += 1
    else:
        off = ctl[C_POOL]
        pool[off : off + m] = cfg[:m]
        ctl[C_POOL] += m
        _pair_put(fs_keys, fs_vals, key, off, ctl)
    if not clique:
        return 0
    scratch_cond = np.empty(n_base + q + 1, dtype=np.int32)
    scratch_t = np.empty(q + 1, dtype=np.int32)
    scratch_x = np.empty(n_base + q + 2, dtype=np.int32)
    best = 0.0
    best_mask = np.int64(-1)
    for u in range(n_sub):
        mask = masks[u]
        nt = 0
        for b in range(q):
            if mask >> b & 1:
                scratch_t[nt] = kept[b]
                nt += 1
        _sort(scratch_t, nt)
        n_cond = _merge(base, n_base, scratch_t, nt, scratch_cond)
        n_with = _with(scratch_cond, n_cond, x, scratch_x)
        if collect:
            for which in range(2):
                fam_nodes = scratch_cond if which == 0 else scratch_x
                fam_m = n_cond if which == 0 else n_with
                sl = score_find(table, y, fam_nodes, fam_m)
                if slots[sl] < 0:
                    e = ctl[C_ENTRIES]
                    if (
                        e >= e_child.shape[0]
                        or ctl[C_EPOOL] + fam_m > e_pool.shape[0]
                        or 2 * (e + 1) > slots.shape[0]
                    ):
                        return G_SCORES
                    _add_entry(table, sl, y, fam_nodes, fam_m, ctl)
            continue
        if inline:
            s_with = _gaussian_entry(table, y, scratch_x, n_with, gauss, ctl)
            s_cond = _gaussian_entry(table, y, scratch_cond, n_cond, gauss, ctl)
        else:
            s_with = slots[score_find(table, y, scratch_x, n_with)]
            s_cond = slots[score_find(table, y, scratch_cond, n_cond)]
        bump = e_val[s_with] - e_val[s_cond]
        if bump > best:
            best = bump
            best_mask = mask
    if collect or best_mask < 0:
        return 0
    # the operator, its T (sorted) and its configuration
    toff = ctl[C_POOL]
    nt = 0
    for b in range(q):
        if best_mask >> b & 1:
            pool[toff + nt] = kept[b]
            nt += 1
    _sort(pool[toff:], nt)
    ctl[C_POOL] += nt
    ctl[C_COUNTER] += 1
    _push(heap, ctl, -best, x, y, toff, nt, off)
    return 0


@njit(cache=True)
def _candidates(y, mode, effects, graph, out, mark, mark2, ctl):
    """The candidate partners x of y for the round, sorted, in ``out``; their number."""
    nbr, knd, deg = graph
    if mode == EFFECT:
        a, b = effects.indptr[y], effects.indptr[y + 1]
        out[: b - a] = effects.indices[a:b]
        return b - a
    if mode == ALL:
        p = deg.shape[0]
        for v in range(p):
            out[v] = v
        return p
    # pairs two steps apart that are not the ends of a definite collider
    s_adj = _stamp(ctl, mark2)
    for k in range(deg[y]):
        mark2[nbr[y, k]] = s_adj
    s_found = _stamp(ctl, mark)
    m = 0
    for k in range(deg[y]):
        n = nbr[y, k]
        y_into_n = _kind(nbr, knd, deg, n, y) == PARENT
        for j in range(deg[n]):
            c = nbr[n, j]
            if c == y or mark2[c] == s_adj or mark[c] == s_found:
                continue
            if y_into_n and knd[n, j] == PARENT:
                continue
            mark[c] = s_found
            out[m] = c
            m += 1
    out[:m].sort()
    return m


@njit(cache=True)
def _work_pass(collect, mode, effects, search):
    """Run calc_insert over the current work list; 0, or what must grow first.

    A collecting pass that stops starts again from the beginning; a computing pass that
    stops for room resumes at the pair it stopped at (``ctl[C_START]``,
    ``ctl[C_RESUME_J]``, ``ctl[C_RESUME_TURN]``), which changed nothing. (One call site of
    :func:`_calc_insert` with one type of each argument, so numba compiles it once.)
    """
    ctl, graph, mark = search.ctl, search.graph, search.scratch.mark
    process, cand, mark2 = search.work.process, search.work.cand, search.work.mark2
    kind = ctl[C_WORK]
    if kind == W_SINGLE:
        first, last = np.int64(0), np.int64(1)
    else:
        first, last = ctl[C_START], ctl[C_STOP]
    j0, turn0 = ctl[C_RESUME_J], ctl[C_RESUME_TURN]
    for i in range(first, last):
        if kind == W_SINGLE:
            m = 1
            turns = 1
        else:
            v = np.int64(i if kind == W_INIT else process[i])
            m = _candidates(v, mode, effects, graph, cand, mark, mark2, ctl)
            turns = 1 if kind == W_INIT else 2
        for j in range(j0 if i == first else 0, m):
            for turn in range(turn0 if i == first and j == j0 else 0, turns):
                if kind == W_SINGLE:
                    a, b = ctl[C_X], ctl[C_Y]
                elif turn == 0:
                    a, b = np.int64(cand[j]), v
                else:
                    a, b = v, np.int64(cand[j])
                status = _calc_insert(a, b, collect, search)
                if status != 0:
                    if not collect:
                        if kind != W_SINGLE:
                            ctl[C_START] = i
                        ctl[C_RESUME_J] = j
                        ctl[C_RESUME_TURN] = turn
                    return status
    ctl[C_RESUME_J] = 0
    ctl[C_RESUME_TURN] = 0
    return 0


# -- restoring the CPDAG after an insertion -----------------------------------------------------


@njit(cache=True)
def _snapshot(v, graph, snap_at, snap_pool, snapped, n_snap):
    """Record v's parents and neighbours (once per rebuild); the new count of snapped."""
    if snap_at[v] >= 0:
        return snap_pool, n_snap
    nbr, knd, deg = graph
    need = 2 + deg[v]
    top = snap_pool[0]  # the pool's first slot holds its top
    if top + need > snap_pool.shape[0]:
        grown = np.empty(2 * (top + need), dtype=np.int32)
        grown[:top] = snap_pool[:top]
        snap_pool = grown
    snap_at[v] = top
    n_pa = _gather(nbr, knd, deg, v, PARENT, snap_pool, top + 2)
    n_ne = _gather(nbr, knd, deg, v, UNDIRECTED, snap_pool, top + 2 + n_pa)
    snap_pool[top] = n_pa
    snap_pool[top + 1] = n_ne
    snap_pool[0] = top + 2 + n_pa + n_ne
    snapped[n_snap] = v
    return snap_pool, n_snap + 1


@njit(cache=True)
def _meek_orients(nbr, knd, deg, a, b):
    """Whether Meek's rule R1, R2 or R3 orients the undirected edge a - b as a -> b."""
    for k in range(deg[a]):  # R1: c -> a - b, c and b non-adjacent
        if knd[a, k] == PARENT and _kind(nbr, knd, deg, b, nbr[a, k]) == 0:
            return True
    for k in range(deg[a]):  # R2: a -> c -> b
        if knd[a, k] == CHILD and _kind(nbr, knd, deg, b, nbr[a, k]) == PARENT:
            return True
    for k in range(deg[a]):  # R3: a - c -> b, a - d -> b, c and d non-adjacent
        if knd[a, k] != UNDIRECTED:
            continue
        c = nbr[a, k]
        if _kind(nbr, knd, deg, b, c) != PARENT:
            continue
        for j in range(k + 1, deg[a]):
            if knd[a, j] != UNDIRECTED:
                continue
            d = nbr[a, j]
            if _kind(nbr, knd, deg, b, d) == PARENT and _kind(nbr, knd, deg, c, d) == 0:
                return True
    return False


@njit(cache=True)
def rebuild(seeds, n_seeds, graph, know, mark, ctl, work):
    """Turn the PDAG left by an operator back into a CPDAG; the changed nodes' count.

    As ``CPDAGState.rebuild`` (downstream region): the arcs into every node reachable from
    the seeds along arcs and undirected edges are undirected unless they form an
    unshielded collider (or the knowledge rules out their reverse), then Meek's rules
    R1-R3 run to closure. ``work.process`` receives the nodes whose parents or neighbours
    differ at the end; ``work.queue`` and ``work.snap_at`` are scratch.
    """
    queue, snap_at, changed = work.queue, work.snap_at, work.process
    nbr, knd, deg = graph
    _arc_ok, _has_knowledge, forbidden, has_forbidden = know
    s = _stamp(ctl, mark)
    m = 0
    for a in range(n_seeds):
        if mark[seeds[a]] != s:
            mark[seeds[a]] = s
            queue[m] = seeds[a]
            m += 1
    head = 0
    while head < m:
        v = queue[head]
        head += 1
        for k in range(deg[v]):
            if knd[v, k] != PARENT and mark[nbr[v, k]] != s:
                mark[nbr[v, k]] = s
                queue[m] = nbr[v, k]
                m += 1
    nodes = queue[:m].copy()
    nodes.sort()
    snap_pool = np.empty(1024, dtype=np.int32)
    snap_pool[0] = 1
    snapped = np.empty(max(m, 1) + 64, dtype=np.int64)
    n_snap = 0
    parents = np.empty(nbr.shape[1], dtype=np.int32)
    for c in nodes:
        n_pa = _gather(nbr, knd, deg, c, PARENT, parents, 0)
        keep = np.zeros(n_pa, dtype=np.bool_)
        for i in range(n_pa):
            for j in range(i + 1, n_pa):
                if _kind(nbr, knd, deg, parents[i], parents[j]) == 0:
                    keep[i] = True
                    keep[j] = True
        for i in range(n_pa):
            a = parents[i]
            if not keep[i] and not (has_forbidden and forbidden[c, a]):
                if n_snap + 2 > snapped.shape[0]:
                    grown = np.empty(2 * snapped.shape[0], dtype=np.int64)
                    grown[:n_snap] = snapped[:n_snap]
                    snapped = grown
                snap_pool, n_snap = _snapshot(a, graph, snap_at, snap_pool, snapped, n_snap)
                snap_pool, n_snap = _snapshot(c, graph, snap_at, snap_pool, snapped, n_snap)
                add_undirected(nbr, knd, deg, a, c)
    ne = np.empty(nbr.shape[1], dtype=np.int32)
    again = True
    while again:
        again = False
        for a in nodes:
            n_ne = _gather(nbr, knd, deg, a, UNDIRECTED, ne, 0)
            for i in range(n_ne):
                b = ne[i]
                for turn in range(2):
                    u, v = (a, b) if turn == 0 else (b, a)
                    if has_forbidden and forbidden[u, v]:
                        continue
                    if _kind(nbr, knd, deg, u, v) == UNDIRECTED and _meek_orients(
                        nbr, knd, deg, u, v
                    ):
                        if n_snap + 2 > snapped.shape[0]:
                            grown = np.empty(2 * snapped.shape[0], dtype=np.int64)
                            grown[:n_snap] = snapped[:n_snap]
                            snapped = grown
                        snap_pool, n_snap = _snapshot(u, graph, snap_at, snap_pool, snapped, n_snap)
                        snap_pool, n_snap = _snapshot(v, graph, snap_at, snap_pool, snapped, n_snap)
                        add_arc(nbr, knd, deg, u, v)
                        again = True
    # the nodes whose parents or neighbours differ from their snapshot
    n_changed = 0
    now = np.empty(2 + nbr.shape[1], dtype=np.int32)
    for i in range(n_snap):
        v = snapped[i]
        top = snap_at[v]
        n_pa = _gather(nbr, knd, deg, v, PARENT, now, 2)
        n_ne = _gather(nbr, knd, deg, v, UNDIRECTED, now, 2 + n_pa)
        differs = n_pa != snap_pool[top] or n_ne != snap_pool[top + 1]
        if not differs:
            for a in range(n_pa + n_ne):
                if now[2 + a] != snap_pool[top + 2 + a]:
                    differs = True
                    break
        if differs:
            changed[n_changed] = v
            n_changed += 1
        snap_at[v] = -1
    return n_changed


@njit(cache=True)
def operator_seeds(graph, x, y, nodes, seeds, mark, ctl):
    """Write x, y, ``nodes`` and the nodes adjacent to both x and y into ``seeds``.

    What ``rebuild`` needs after an operator on the edge x - y that also changes the edges
    to ``nodes`` (Insert's T, Delete's H); returns the number written.
    """
    seeds[0], seeds[1] = x, y
    n_seeds = 2
    for a in range(nodes.shape[0]):
        seeds[n_seeds] = nodes[a]
        n_seeds += 1
    return _append_common(graph, x, y, seeds, n_seeds, mark, ctl)


@njit(cache=True)
def _append_common(graph, x, y, out, m, mark, ctl):
    """Write the nodes adjacent to both x and y at ``out[m:]``; the new length."""
    nbr, knd, deg = graph
    s_x = _stamp(ctl, mark)
    for k in range(deg[x]):
        mark[nbr[x, k]] = s_x
    for k in range(deg[y]):
        if mark[nbr[y, k]] == s_x:
            out[m] = nbr[y, k]
            m += 1
    return m


@njit(cache=True)
def _semi_directed_blocked(graph, source, target, blockers, n_blockers, mark, work, ctl):
    """True if every semi-directed path from source to target meets a blocker."""
    nbr, knd, deg = graph
    mark2, queue = work.mark2, work.queue
    s_block = _stamp(ctl, mark2)
    for a in range(n_blockers):
        mark2[blockers[a]] = s_block
    s = _stamp(ctl, mark)
    mark[source] = s
    queue[0] = source
    m = 1
    head = 0
    while head < m:
        t = queue[head]
        head += 1
        if mark2[t] == s_block:
            continue
        if t == target:
            return False
        for k in range(deg[t]):
            if knd[t, k] != PARENT:
                u = nbr[t, k]
                if mark[u] != s:
                    mark[u] = s
                    queue[m] = u
                    m += 1
    return True


# -- the forward phase ------------------------------------------------------------------------


@njit(cache=True)
def forward(effects, search):
    """Run FGES's forward phase from the state in ``search`` until it ends or must pause.

    Returns :data:`DONE`, :data:`NEED_SCORES` (fill the table's entries from
    ``ctl[C_FILLED]`` to ``ctl[C_ENTRIES]``, then call again) or :data:`GROW` (enlarge what
    ``ctl[C_GROW]`` names, then call again). ``search.gauss`` is a :data:`Scoring`: with
    ``kind`` :data:`DENSE_GAUSSIAN` or :data:`CENTRED_GAUSSIAN` the kernel scores the
    families itself (Gaussian log-likelihood from ``cov``, or from the columns ``X`` centred
    by ``means`` as they are read, minus ``per_param`` per free parameter) in one pass over
    each work list, and never returns :data:`NEED_SCORES`.
    """
    graph, know, ctl, work, gauss = search.graph, search.know, search.ctl, search.work, search.gauss
    nbr, knd, deg = graph
    pool, fs_keys, fs_vals, heap = search.ops
    cfg, mark, kept, masks, fam, fam2 = search.scratch
    process, cand, mark2, queue, snap_at, seeds = work
    p = deg.shape[0]
    mode = ctl[C_MODE]
    size = nbr.shape[1] + 2  # a family has at most deg(y) + 1 members
    scoring = InlineScoring(
        gauss.kind,
        gauss.cov,
        gauss.X,
        gauss.means,
        gauss.n,
        gauss.per_param,
        np.empty((size, size)),
        np.empty(size, dtype=np.int64),
        np.empty((size, gauss.X.shape[0])),
    )
    inner = Search(graph, know, search.scores, search.ops, ctl, search.scratch, work, scoring)
    inline = gauss.kind != NO_SCORES
    while True:
        stage = ctl[C_STAGE]
        if stage == S_COLLECT or stage == S_COMPUTE:
            collect = stage == S_COLLECT and not inline
            if collect:
                ctl[C_NEED_POOL] = 0
                ctl[C_NEED_HEAP] = 0
                ctl[C_NEED_FS] = 0
            elif not inline and (
                ctl[C_POOL] + ctl[C_NEED_POOL] > pool.shape[0]
                or ctl[C_HEAP] + ctl[C_NEED_HEAP] > heap.key.shape[0]
                or 2 * (ctl[C_FS_USED] + ctl[C_FS_TOMB] + ctl[C_NEED_FS]) > fs_keys.shape[0]
            ):
                ctl[C_GROW] = G_OPERATORS
                return GROW
            status = _work_pass(collect, mode, effects, inner)
            if status != 0:  # a full table: nothing changed since the pass (re)started
                ctl[C_GROW] = status
                return GROW
            if collect:
                ctl[C_STAGE] = S_COMPUTE
                if ctl[C_ENTRIES] > ctl[C_FILLED]:
                    return NEED_SCORES
            elif ctl[C_WORK] == W_INIT and ctl[C_STOP] < p:
                ctl[C_START] = ctl[C_STOP]
                ctl[C_STOP] = min(p, ctl[C_STOP] + INIT_CHUNK)
                ctl[C_STAGE] = S_COLLECT
            else:
                ctl[C_STAGE] = S_POP
        else:
            if ctl[C_HEAP] == 0:
                return DONE
            x, y = heap.x[0], heap.y[0]
            cap = nbr.shape[1]
            if deg[x] + 1 >= cap or deg[y] + 1 >= cap:
                ctl[C_GROW] = G_GRAPH
                return GROW
            i = _pop(heap, ctl)
            toff, tlen, coff = heap.t_offset[i], heap.t_length[i], heap.cfg_offset[i]
            s = _pair_find(fs_keys, np.int64(x) * p + y)
            if s >= 0:
                fs_keys[s] = _TOMB
                ctl[C_FS_TOMB] += 1
                ctl[C_FS_USED] -= 1
            limit = ctl[C_LIMIT]
            if _kind(nbr, knd, deg, x, y) != 0 or (
                limit >= 0 and (deg[x] >= limit or deg[y] >= limit)
            ):
                continue
            m = _insert_config(nbr, knd, deg, x, y, cfg, mark, ctl)
            if not _same_cfg(pool, coff, cfg, m):
                # stale: rescore with the current neighbourhood
                ctl[C_WORK] = W_SINGLE
                ctl[C_X] = x
                ctl[C_Y] = y
                ctl[C_STAGE] = S_COLLECT
                continue
            n_na = cfg[0]
            blockers = np.empty(n_na + tlen, dtype=np.int32)
            blockers[:n_na] = cfg[3 : 3 + n_na]
            blockers[n_na:] = pool[toff : toff + tlen]
            if not _semi_directed_blocked(graph, y, x, blockers, n_na + tlen, mark, work, ctl):
                continue
            # the seeds: x, y, T and the nodes adjacent to both before the insertion
            n_seeds = operator_seeds(graph, x, y, pool[toff : toff + tlen], seeds, mark, ctl)
            add_arc(nbr, knd, deg, x, y)
            for a in range(tlen):
                add_arc(nbr, knd, deg, pool[toff + a], y)
            ctl[C_INSERTS] += 1
            n_changed = rebuild(seeds, n_seeds, graph, know, mark, ctl, work)
            # process: the changed nodes, x, y and the nodes now adjacent to both
            process[n_changed] = x
            process[n_changed + 1] = y
            m = _append_common(graph, x, y, process, n_changed + 2, mark, ctl)
            process[:m].sort()
            w = 0
            for a in range(m):
                if a == 0 or process[a] != process[a - 1]:
                    process[w] = process[a]
                    w += 1
            ctl[C_WORK] = W_PROCESS
            ctl[C_START] = 0
            ctl[C_STOP] = w
            ctl[C_STAGE] = S_COLLECT
