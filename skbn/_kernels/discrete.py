# SPDX-License-Identifier: BSD-3-Clause
"""Numba kernels for discrete family scores.

Data layout: ``codes`` is an ``(n, p)`` int16 array in Fortran order (one variable per
contiguous column), ``arities`` an ``(p,)`` int64 array. A family is a child ``y`` and a parent
set ``P`` given as an int64 array. The parent configuration of a row is the mixed-radix number
``sum_k code[P_k] * prod_{l>k} r[P_l]`` (the first parent varies slowest, as in
``numpy.ravel_multi_index``).

Counts are taken densely when the table ``q * r`` is small compared with ``n``, and by sorting
the row keys otherwise, so a family with millions of possible configurations costs
``O(n log n)`` and no memory beyond ``O(n)``.

Every function trusts its input: the estimator layer validates before calling.
"""

import math
from collections import namedtuple

import numpy as np
from numba import njit, prange

from skbn._kernels.bits import and_count, bits_pay, cell_bits
from skbn._kernels.sorting import argsort_int64, sort_int64

#: Kinds of family score, all computed from the same counts.
LOGLIK = 0  # maximised log-likelihood, sum N_jk log(N_jk / N_j)
BDEU = 1  # log BDeu marginal likelihood, parameter = equivalent sample size
K2 = 2  # log K2 marginal likelihood (all Dirichlet parameters 1)

#: Above this many cells, counting switches from a dense table to sorting.
_DENSE_LIMIT = 1 << 22
#: Row keys (configuration * cells + cell) stay below this, so they never overflow int64.
_KEY_LIMIT = 1 << 62

#: What every candidate of a toggle shares: the parents' configuration of each row and their
#: number, each row's (configuration, child state) key, the bit sets of those cells and the
#: cell of each, and the data's bit sets (rows holding each state of each column).
ToggleShares = namedtuple(
    "ToggleShares", ["base", "q", "key", "cells_bits", "cell_of", "bits", "offsets"]
)


@njit(cache=True)
def config_index(codes, parents, arities):
    """Mixed-radix parent configuration of every row.

    Returns
    -------
    index : int64 array of shape (n,)
    q : int
        Number of possible configurations (product of the parents' arities; 1 if none).
    """
    n = codes.shape[0]
    index = np.zeros(n, dtype=np.int64)
    q = 1
    for k in range(parents.shape[0]):
        j = parents[k]
        r = arities[j]
        q *= r
        for i in range(n):
            index[i] = index[i] * r + codes[i, j]
    return index, q


@njit(cache=True, nogil=True)
def _dense_ranks(index):
    """Renumber the values of ``index`` 0, 1, ... in increasing order; and how many there are."""
    n = index.shape[0]
    order = argsort_int64(index)
    out = np.empty(n, dtype=np.int64)
    m = 0
    for k in range(n):
        i = order[k]
        if k > 0 and index[i] != index[order[k - 1]]:
            m += 1
        out[i] = m
    return out, (m + 1 if n > 0 else 0)


@njit(cache=True, nogil=True)
def stratum_index(codes, cond, arities, cells):
    """Conditioning configuration of every row, in a range where ``q * cells`` fits int64.

    The mixed-radix index of the conditioning set (as in the family-score kernels), except
    that when the product of the arities would carry ``stratum * cells`` past 2**62 the
    configurations seen so far are renumbered densely (at most one per row) before the next
    variable is added. Strata are the same either way; only their numbering changes.

    Returns
    -------
    index : int64 array (n,)
    q : int
        Bound on the index (the product of the arities when no renumbering happened).
    q_total : float
        The product of the conditioning arities: the number of possible strata.
    """
    n = codes.shape[0]
    index = np.zeros(n, dtype=np.int64)
    q = 1
    q_total = 1.0
    room = _KEY_LIMIT // max(cells, 1)
    for k in range(cond.shape[0]):
        j = cond[k]
        r = arities[j]
        q_total *= r
        if q > room // r:
            index, q = _dense_ranks(index)
        q *= r
        for i in range(n):
            index[i] = index[i] * r + codes[i, j]
    return index, q, q_total


@njit(cache=True)
def _dirichlet(kind, param, q, r):
    """Dirichlet parameters (per cell, per configuration) of the Bayesian family scores."""
    if kind == BDEU:
        return param / (q * r), param / q
    if kind == K2:
        return 1.0, float(r)
    return 0.0, 0.0


@njit(cache=True)
def _histogram(major, stride, minor, cells):
    """Dense counts of the cells ``major[i] * stride + minor[i]`` over all rows.

    Rows are counted into four interleaved tables that are summed at the end: consecutive
    rows often hit the same cell of a small table, and with one table every increment would
    wait for the previous one to be stored.

    Returns
    -------
    counts : int64 array (cells,)
    """
    n = major.shape[0]
    split = np.zeros(4 * cells, dtype=np.int32)
    m = n - n % 4
    for i in range(0, m, 4):
        split[major[i] * stride + minor[i]] += 1
        split[cells + major[i + 1] * stride + minor[i + 1]] += 1
        split[2 * cells + major[i + 2] * stride + minor[i + 2]] += 1
        split[3 * cells + major[i + 3] * stride + minor[i + 3]] += 1
    for i in range(m, n):
        split[major[i] * stride + minor[i]] += 1
    counts = np.empty(cells, dtype=np.int64)
    for c in range(cells):
        counts[c] = split[c] + split[cells + c] + split[2 * cells + c] + split[3 * cells + c]
    return counts


@njit(cache=True)
def _score_dense(index, q, child_codes, r, kind, param):
    counts = _histogram(index, r, child_codes, q * r)
    return _score_counts(counts, q, r, kind, param)


@njit(cache=True)
def _dense_fits(cells, n):
    return cells <= _DENSE_LIMIT and cells <= 4 * n + 1024


@njit(cache=True)
def _score_counts(counts, q, r, kind, param):
    """Family score from a dense ``(q * r)`` table of counts (configuration-major)."""
    total = 0.0
    a_jk, a_j = _dirichlet(kind, param, q, r)
    for j in range(q):
        n_j = 0
        for k in range(r):
            n_j += counts[j * r + k]
        if n_j == 0:
            continue
        if kind == LOGLIK:
            for k in range(r):
                c = counts[j * r + k]
                if c > 0:
                    total += c * math.log(c / n_j)
        else:
            total += math.lgamma(a_j) - math.lgamma(a_j + n_j)
            for k in range(r):
                c = counts[j * r + k]
                if c > 0:
                    total += math.lgamma(a_jk + c) - math.lgamma(a_jk)
    return total


@njit(cache=True)
def _score_sorted(index, q, child_codes, r, kind, param):
    n = index.shape[0]
    keys = np.empty(n, dtype=np.int64)
    for i in range(n):
        keys[i] = index[i] * r + child_codes[i]
    sort_int64(keys)
    a_jk, a_j = _dirichlet(kind, param, q, r)
    total = 0.0
    i = 0
    while i < n:
        config = keys[i] // r
        # cells of this configuration: runs of equal keys
        start = i
        cell_total = 0.0
        while i < n and keys[i] // r == config:
            cell_start = i
            while i < n and keys[i] == keys[cell_start]:
                i += 1
            c = i - cell_start
            if kind == LOGLIK:
                cell_total += c * math.log(c)
            else:
                cell_total += math.lgamma(a_jk + c) - math.lgamma(a_jk)
        n_j = i - start
        if kind == LOGLIK:
            total += cell_total - n_j * math.log(n_j)
        else:
            total += cell_total + math.lgamma(a_j) - math.lgamma(a_j + n_j)
    return total


@njit(cache=True)
def score_from_index(index, q, child_codes, r, kind, param):
    """Family score from precomputed parent configurations (see module docstring)."""
    if _dense_fits(q * r, index.shape[0]):
        return _score_dense(index, q, child_codes, r, kind, param)
    return _score_sorted(index, float(q), child_codes, r, kind, param)  # one signature


@njit(cache=True)
def family_score(codes, arities, child, parents, kind, param):
    """Score of one family.

    Parameters
    ----------
    codes : int16 array (n, p), Fortran order
    arities : int64 array (p,)
    child : int
    parents : int64 array (k,)
    kind : int
        LOGLIK, BDEU or K2.
    param : float
        Equivalent sample size for BDEU; ignored otherwise.

    Returns
    -------
    float
    """
    r = arities[child]
    index, q, q_total = stratum_index(codes, parents, arities, r)
    if q_total * r < _KEY_LIMIT:
        return score_from_index(index, q, codes[:, child], r, kind, param)
    # configurations renumbered (too many to index): count by sorting the rows' keys, with
    # the number of possible configurations, for the Bayesian scores' priors, as a float
    return _score_sorted(index, q_total, codes[:, child], r, kind, param)


@njit(cache=True, nogil=True)
def _toggle_setup(codes, arities, child, parents, kind, param, bits, offsets):
    """What every candidate of :func:`toggle_scores` shares: scores, base configurations, keys."""
    n, p = codes.shape
    scores = np.empty(p, dtype=np.float64)
    skip = np.zeros(p, dtype=np.bool_)
    skip[child] = True
    for k in range(parents.shape[0]):
        skip[parents[k]] = True
    base, q = config_index(codes, parents, arities)
    child_codes = codes[:, child]
    r = arities[child]
    scores[child] = score_from_index(base, q, child_codes, r, kind, param)
    # the cell of a row with x added: x's code is the slowest digit of the configuration,
    # so one key per row (parents' configuration and child state) serves every candidate
    qr = q * r
    key = np.empty(n, dtype=np.int64)
    words = bits.shape[1]
    cells_bits = np.zeros((0, words), dtype=np.uint64)
    cell_of = np.zeros(0, dtype=np.int64)
    if _dense_fits(qr, n):
        for i in range(n):
            key[i] = base[i] * r + child_codes[i]
        if bits_pay(2 * qr, words, n):
            cells_bits, cell_of = cell_bits(key, qr, words)
    return scores, skip, ToggleShares(base, q, key, cells_bits, cell_of, bits, offsets)


@njit(cache=True, nogil=True)
def _toggle_one(codes, arities, child, x, kind, param, shares):
    """Score of the family ``(child, parents + {x})`` from :func:`_toggle_setup`'s shares."""
    base, q, key, cells_bits, cell_of, bits, offsets = shares
    n = codes.shape[0]
    r = arities[child]
    qr = q * r
    words = bits.shape[1]
    used = cell_of.shape[0]
    rx = arities[x]
    cells = q * rx * r
    if used > 0 and bits_pay(used * rx, words, n):
        counts = np.zeros(cells, dtype=np.int64)
        for s in range(rx):
            row = bits[offsets[x] + s]
            for m in range(used):
                counts[s * qr + cell_of[m]] = and_count(cells_bits[m], row)
        return _score_counts(counts, q * rx, r, kind, param)
    if _dense_fits(cells, n):
        counts = _histogram(codes[:, x], qr, key, cells)
        return _score_counts(counts, q * rx, r, kind, param)
    extended = np.empty(n, dtype=np.int64)
    for i in range(n):
        extended[i] = base[i] * rx + codes[i, x]
    return _score_sorted(extended, float(q * rx), codes[:, child], r, kind, param)


@njit(cache=True, nogil=True)
def _toggle_removals(codes, arities, child, parents, kind, param, scores):
    """Scores of the families with one parent removed, into ``scores``."""
    if parents.shape[0] == 0:
        return
    reduced = np.empty(parents.shape[0] - 1, dtype=np.int64)
    for k in range(parents.shape[0]):
        m = 0
        for other in range(parents.shape[0]):
            if other != k:
                reduced[m] = parents[other]
                m += 1
        scores[parents[k]] = family_score(codes, arities, child, reduced, kind, param)


@njit(cache=True, nogil=True)
def toggle_scores_serial(codes, arities, child, parents, kind, param, bits, offsets):
    """:func:`toggle_scores` on the calling thread (no parallel region to compile or wake)."""
    scores, skip, shares = _toggle_setup(codes, arities, child, parents, kind, param, bits, offsets)
    for x in range(codes.shape[1]):
        if not skip[x]:
            scores[x] = _toggle_one(codes, arities, child, x, kind, param, shares)
    _toggle_removals(codes, arities, child, parents, kind, param, scores)
    return scores


@njit(cache=True, parallel=True)
def toggle_scores(codes, arities, child, parents, kind, param, bits, offsets):
    """Scores of the families ``(child, parents xor {x})`` for every variable ``x``.

    Entry ``child`` holds the score of ``(child, parents)`` itself. This is the column of a
    hill-climbing delta table: one call rescoring every add and delete move into ``child``.
    Each added candidate costs one pass over the rows (its counts are taken directly from
    the parents' configuration and its own code), or, when its table is small, one AND and
    population count of bitsets per cell (``bits``, ``offsets`` from
    :func:`skbn._kernels.bits.state_bits`; an empty ``bits`` means row passes only). The
    counts, and so the scores, are the same either way. Candidates run on numba's threads,
    each writing only its own entry, so the result does not depend on the number of threads
    and equals :func:`toggle_scores_serial`'s.

    Returns
    -------
    scores : float64 array (p,)
    """
    scores, skip, shares = _toggle_setup(codes, arities, child, parents, kind, param, bits, offsets)
    # numba's parallel loops cannot read a tuple made outside them: its arrays go in one by
    # one, and each candidate's call packs them again
    base, q, key, cells_bits, cell_of, _, _ = shares
    for x in prange(codes.shape[1]):
        if not skip[x]:
            own = ToggleShares(base, q, key, cells_bits, cell_of, bits, offsets)
            scores[x] = _toggle_one(codes, arities, child, x, kind, param, own)
    _toggle_removals(codes, arities, child, parents, kind, param, scores)
    return scores


@njit(cache=True, nogil=True)
def penalise_toggle_scores(scores, arities, child, parents, per_param):
    """Subtract ``per_param`` times each family's free parameters from toggle scores.

    A family of ``child`` with parent configurations ``q`` has ``(r_child - 1) q`` free
    parameters (BIC, AIC, EBIC penalties). ``scores`` is modified and returned.
    """
    if per_param == 0.0:
        return scores
    p = arities.shape[0]
    q = 1.0
    is_parent = np.zeros(p, dtype=np.bool_)
    for k in range(parents.shape[0]):
        q *= arities[parents[k]]
        is_parent[parents[k]] = True
    rc = arities[child] - 1.0
    for x in range(p):
        if x == child:
            scores[x] -= per_param * rc * q
        elif is_parent[x]:
            scores[x] -= per_param * rc * q / arities[x]
        else:
            scores[x] -= per_param * rc * q * arities[x]
    return scores


@njit(cache=True, nogil=True)
def _pair_scores(codes, arities, a, b, kind, param, bits, offsets):
    """``(score of b given a, score of a given b)`` from one joint table of the pair."""
    n = codes.shape[0]
    words = bits.shape[1]
    ra = arities[a]
    rb = arities[b]
    if not _dense_fits(ra * rb, n):
        one = np.empty(1, dtype=np.int64)
        one[0] = a
        s_ab = family_score(codes, arities, b, one, kind, param)
        one[0] = b
        return s_ab, family_score(codes, arities, a, one, kind, param)
    if bits_pay(ra * rb, words, n):
        joint = np.empty(ra * rb, dtype=np.int64)
        for u in range(ra):
            for v in range(rb):
                joint[u * rb + v] = and_count(bits[offsets[a] + u], bits[offsets[b] + v])
    else:
        joint = _histogram(codes[:, a], rb, codes[:, b], ra * rb)
    s_ab = _score_counts(joint, ra, rb, kind, param)  # b given a: a-major table
    transposed = np.empty(ra * rb, dtype=np.int64)
    for u in range(ra):
        for v in range(rb):
            transposed[v * ra + u] = joint[u * rb + v]
    return s_ab, _score_counts(transposed, rb, ra, kind, param)


@njit(cache=True, nogil=True)
def _pairs(p):
    n_pairs = p * (p - 1) // 2
    first = np.empty(n_pairs, dtype=np.int64)
    second = np.empty(n_pairs, dtype=np.int64)
    k = 0
    for u in range(p):
        for v in range(u + 1, p):
            first[k] = u
            second[k] = v
            k += 1
    return first, second


@njit(cache=True, nogil=True)
def pairwise_scores_serial(codes, arities, kind, param, bits, offsets):
    """:func:`pairwise_scores` on the calling thread."""
    p = codes.shape[1]
    S = np.empty((p, p), dtype=np.float64)
    empty = np.empty(0, dtype=np.int64)
    for y in range(p):
        S[y, y] = family_score(codes, arities, y, empty, kind, param)
    first, second = _pairs(p)
    for m in range(first.shape[0]):
        a = first[m]
        b = second[m]
        S[a, b], S[b, a] = _pair_scores(codes, arities, a, b, kind, param, bits, offsets)
    return S


@njit(cache=True, parallel=True)
def pairwise_scores(codes, arities, kind, param, bits, offsets):
    """``S[x, y]``: score of ``y`` with the single parent ``x``; ``S[y, y]``: with none.

    Every unordered pair's joint table is counted once and serves both directions, so the
    delta table of an empty graph costs ``p (p - 1) / 2`` passes over the rows instead of
    ``p (p - 1)`` (or bitset ANDs for small tables, as in :func:`toggle_scores`). Pairs run
    on numba's threads; the result does not depend on their number and equals
    :func:`pairwise_scores_serial`'s.
    """
    p = codes.shape[1]
    S = np.empty((p, p), dtype=np.float64)
    empty = np.empty(0, dtype=np.int64)
    for y in prange(p):
        S[y, y] = family_score(codes, arities, y, empty, kind, param)
    first, second = _pairs(p)
    for m in prange(first.shape[0]):
        a = first[m]
        b = second[m]
        s_ab, s_ba = _pair_scores(codes, arities, a, b, kind, param, bits, offsets)
        S[a, b] = s_ab
        S[b, a] = s_ba
    return S


@njit(cache=True)
def family_counts(codes, arities, child, parents):
    """Dense counts table of shape ``(q, r)`` (configurations by child states).

    Used for parameter estimation, where the table is needed explicitly.
    """
    index, q = config_index(codes, parents, arities)
    r = arities[child]
    counts = np.zeros((q, r), dtype=np.float64)
    for i in range(codes.shape[0]):
        counts[index[i], codes[i, child]] += 1.0
    return counts


@njit(cache=True)
def log_multinomial_regret(m, r):
    """``log C(m, r)``: the normalising sum of the multinomial NML distribution.

    ``C(m, 1) = 1``; ``C(m, 2)`` is the O(m) binomial sum; then Kontkanen & Myllymaki's
    recurrence ``C(m, k + 2) = C(m, k + 1) + m / k * C(m, k)``, all in log space.
    """
    if m == 0 or r == 1:
        return 0.0
    # log C(m, 2) = log sum_h binom(m, h) (h/m)^h ((m-h)/m)^(m-h)
    terms = np.empty(m + 1)
    lm = math.log(m)
    lgm = math.lgamma(m + 1.0)
    for h in range(m + 1):
        t = lgm - math.lgamma(h + 1.0) - math.lgamma(m - h + 1.0)
        if h > 0:
            t += h * (math.log(h) - lm)
        if h < m:
            t += (m - h) * (math.log(m - h) - lm)
        terms[h] = t
    top = terms.max()
    log_c2 = top + math.log(np.exp(terms - top).sum())
    if r == 2:
        return log_c2
    prev, cur = 0.0, log_c2  # log C(m, k), log C(m, k + 1) with k = 1
    for k in range(1, r - 1):
        other = math.log(m / k) + prev
        hi = max(cur, other)
        nxt = hi + math.log(math.exp(cur - hi) + math.exp(other - hi))
        prev, cur = cur, nxt
    return cur


@njit(cache=True)
def fnml_family_score(codes, arities, child, parents, log_regrets):
    """FNML local score: maximised log-likelihood minus ``log C(N_j, r)`` per configuration.

    ``log_regrets`` (length n + 1) caches ``log C(m, r_child)``; NaN entries are computed on
    first use and stored, so each count size costs its O(m) sum once per arity.
    """
    counts = family_counts(codes, arities, child, parents)
    q, r = counts.shape
    total = 0.0
    for j in range(q):
        nj = 0.0
        for k in range(r):
            nj += counts[j, k]
        if nj == 0.0:
            continue
        for k in range(r):
            c = counts[j, k]
            if c > 0.0:
                total += c * math.log(c / nj)
        m = int(nj)
        if np.isnan(log_regrets[m]):
            log_regrets[m] = log_multinomial_regret(m, r)
        total -= log_regrets[m]
    return total
