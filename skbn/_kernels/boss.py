# SPDX-License-Identifier: BSD-3-Clause
"""Kernels of the best-order score search (BOSS): grow-shrink tree look-ups and order moves.

The grow-shrink trees of all variables live in one pool of nodes. Node ``k`` belongs to the
variable ``owner[k]``; its path from the root is a parent set, scored ``grow[k]``. Once
expanded (``n_branch[k] >= 0``), its branches ``first[k] : first[k] + n_branch[k]`` list the
variables whose addition improves that score, best first (``branch_var``); the few branches a
walk has taken lead to a child node, found in the hash table ``children`` (row 0 the branch,
-1 where empty, row 1 its node): a table of the nodes made rather than a column beside every
branch, since most branches are never taken. ``shrink[k]`` is the score after the shrink
phase from that node (NaN until computed). The kernels never score a family, the Gaussian
fill aside: when a look-up needs a node that is not expanded or not shrunk yet, they report
it (``missing``) and the caller fills it in with the bound score, then resumes.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from skbn._kernels.gaussian import (
    addition_gaussian_loglik,
    addition_gaussian_loglik_one,
    gaussian_loglik,
)
from skbn._kernels.sorting import argsort_stable, sort_int64

#: Status of a sweep: finished, or stopped for missing nodes.
DONE = -1

# The state the kernels share travels as named tuples of arrays, built by their Python owner
# (``skbn.learners._boss._Forest``) and rebuilt whenever it enlarges an array.

#: What a walk reads: each variable's root node, each node's branches (``first``,
#: ``n_branch``, ``branch_var``), the table of the branches made nodes (``children``) and
#: each node's shrunk score (NaN until shrunk).
Trees = namedtuple("Trees", ["roots", "n_branch", "first", "branch_var", "children", "shrink"])
#: The rest of the node pool, written when a node is made, expanded or shrunk: its variable
#: (``owner``), the node above it (``up``) and the branch's variable and rank there
#: (``var``, ``rank``), its grow score, the expanded nodes in order, the parents each shrunk
#: node keeps (``kept_first``, ``kept_len`` into ``kept_pool``) and the used lengths
#: (``sizes``: nodes, branches, kept parents, expansions).
Pool = namedtuple(
    "Pool",
    [
        "owner",
        "up",
        "var",
        "rank",
        "grow",
        "expanded",
        "kept_first",
        "kept_len",
        "kept_pool",
        "sizes",
    ],
)
#: Required arcs as compressed rows: each variable's required parents and children.
Required = namedtuple("Required", ["parent_ptr", "parents", "child_ptr", "children"])
#: Look-ups a kernel could not answer, for its caller to fill in: row ``r`` is the variable
#: ``variables[r]`` within the prefix ``prefixes[r]``.
Requests = namedtuple("Requests", ["variables", "prefixes"])
#: A sweep's order (and each variable's position in it), its scratch (the prefix mask, the
#: scores of the insertion points, the marks of :func:`_walk_marking`), each variable's score
#: under the order (NaN when unknown) and the bit index of which trees hold which variable.
Moves = namedtuple(
    "Moves", ["order", "position", "in_prefix", "scores", "current", "touches", "marks"]
)
#: A Gaussian likelihood score as the fill kernel computes it: the covariance matrix, its
#: diagonal, the rows, the penalty per parameter, and the allowed arcs (0 x 0 for all).
GaussianFamily = namedtuple("GaussianFamily", ["cov", "diag", "n", "per_param", "allowed"])


@njit(cache=True)
def _slot(children, b):
    """The slot of branch ``b`` in the children table, or the empty slot it would take."""
    mask = children.shape[1] - 1
    h = ((b ^ (b >> 16)) * 0x45D9F3B) & mask  # b < 2**31: no overflow in 64 bits
    while children[0, h] != b and children[0, h] != -1:
        h = (h + 1) & mask
    return h


@njit(cache=True)
def _child(children, b):
    """The node branch ``b`` leads to; -1 while no walk has taken it."""
    return children[1, _slot(children, b)]


@njit(cache=True)
def rehash_children(old, new):
    """Move the entries of the children table ``old`` into the empty (all -1) ``new``."""
    for h in range(old.shape[1]):
        b = np.int64(old[0, h])
        if b >= 0:
            at = _slot(new, b)
            new[0, at] = b
            new[1, at] = old[1, h]


@njit(cache=True)
def _walk_to(v, trees, in_prefix):
    """Grow ``v``'s parent set greedily within the prefix, over the nodes made so far.

    Returns ``(node, b)``: the last node reached, and ``b = -1`` when it is final (no branch
    in the prefix), ``-2`` when it is not expanded yet, or else the branch taken from it
    whose node is not made yet (``_child(trees.children, b) < 0``).
    """
    node = trees.roots[v]
    n_branch, first, branch_var = trees.n_branch, trees.first, trees.branch_var
    while True:
        nb = n_branch[node]
        if nb < 0:
            return node, -2
        found = -1
        start = first[node]
        for k in range(start, start + nb):
            if in_prefix[branch_var[k]]:
                found = k
                break
        if found < 0:
            return node, -1
        nxt = _child(trees.children, found)
        if nxt < 0:
            return node, found
        node = nxt


@njit(cache=True)
def _walk(v, trees, in_prefix):
    """Grow ``v``'s parent set greedily within the prefix; the node reached, and if final.

    A walk that takes a branch not made a node yet returns ``-2 - b`` for branch ``b``
    (not final), as it returns a node not expanded yet: either way the look-up is missing.
    """
    node, b = _walk_to(v, trees, in_prefix)
    if b == -1:
        return node, True
    if b == -2:
        return node, False
    return -2 - b, False


@njit(cache=True)
def _walk_marking(v, trees, in_prefix, marks, stamp):
    """Walk as :func:`_walk` does, marking the variables that could change the walk.

    Every branch passed over on the way and every branch of the node reached gets
    ``marks[var] = stamp``: only one of them joining the prefix can change where it ends.
    """
    node = trees.roots[v]
    n_branch, first, branch_var = trees.n_branch, trees.first, trees.branch_var
    while True:
        nb = n_branch[node]
        if nb < 0:
            return node, False
        found = -1
        start = first[node]
        for k in range(start, start + nb):
            if in_prefix[branch_var[k]]:
                found = k
                break
            marks[branch_var[k]] = stamp
        if found < 0:
            return node, True
        nxt = _child(trees.children, found)
        if nxt < 0:
            return -2 - found, False
        node = nxt


@njit(cache=True)
def _next_stamp(marks):
    """A stamp not in ``marks[:-1]``; the last entry keeps the count."""
    marks[-1] += 1
    if marks[-1] >= 2**62:
        marks[:] = 0
        marks[-1] = 1
    return marks[-1]


@njit(cache=True)
def walk(v, trees, in_prefix):
    """Python's entry to :func:`_walk`."""
    return _walk(v, trees, in_prefix)


#: What :func:`walk_making` returns for ``b`` when the node pool has no room for a node.
NO_ROOM = -3


@njit(cache=True)
def walk_making(v, in_prefix, trees, pool, branch_grow):
    """Walk as :func:`_walk_to` does, making each branch taken for the first time a node.

    A branch's node is scored ``branch_grow[b]`` (the Python route keeps the branches'
    scores). Returns ``(node, b)`` with ``b`` -1 (final) or -2 (not expanded yet), as
    :func:`_walk_to`, or :data:`NO_ROOM` when the pool must grow before the next node.
    """
    while True:
        node, b = _walk_to(v, trees, in_prefix)
        if b < 0:
            return node, b
        if pool.sizes[0] + 1 > pool.owner.shape[0]:
            return node, NO_ROOM
        make_node(node, b, branch_grow[b], trees, pool)


@njit(cache=True)
def _record(v, in_prefix, requests, count):
    if count < requests.variables.shape[0]:
        requests.variables[count] = v
        requests.prefixes[count, :] = in_prefix
    return count + 1


@njit(cache=True)
def _lookup(v, trees, in_prefix, requests, count):
    """Best score of ``v`` with parents from the prefix; NaN if unknown.

    An unknown look-up is recorded as row ``count`` of ``requests`` (the variable and its
    prefix), so the caller can finish it in one go.
    """
    node, final = _walk(v, trees, in_prefix)
    if final:
        value = trees.shrink[node]
        if value == value:
            return value, count
    return np.nan, _record(v, in_prefix, requests, count)


@njit(cache=True)
def _holds(touches, v, w):
    """Whether ``v`` is a branch somewhere in ``w``'s tree (always, without an index)."""
    if touches.shape[0] == 0:
        return True
    return (touches[v, w >> 6] >> np.uint64(w & 63)) & np.uint64(1) != 0


@njit(cache=True)
def index_branches(touches, trees, pool, start, stop):
    """Mark the branches of the expansions ``start:stop`` in ``touches``.

    Bit ``w`` of row ``v`` is set when ``v`` is a branch of a node of ``w``'s tree;
    ``pool.expanded`` lists the expanded nodes in the order they were expanded.
    """
    first, n_branch = trees.first, trees.n_branch
    for e in range(start, stop):
        node = pool.expanded[e]
        w = pool.owner[node]
        bit = np.uint64(1) << np.uint64(w & 63)
        for b in range(first[node], first[node] + n_branch[node]):
            v = trees.branch_var[b]
            touches[v, w >> 6] |= bit


@njit(cache=True)
def _other_score(w, as_now, current, trees, in_prefix, requests, count):
    """Walk for ``w`` while another variable is tried elsewhere in the order.

    The caller walks only when ``current[w]`` (w's score under the order) cannot stand in.
    ``as_now``: the prefix is w's prefix in the order, so the walk's score becomes
    ``current[w]``.
    """
    s, count = _lookup(w, trees, in_prefix, requests, count)
    if as_now:
        current[w] = s
    return s, count


@njit(cache=True)
def node_path(node, up, var):
    """The variables added on the way from the root to ``node``, root side first."""
    depth = 0
    k = node
    while up[k] >= 0:
        depth += 1
        k = up[k]
    out = np.empty(depth, dtype=np.int64)
    k = node
    while up[k] >= 0:
        depth -= 1
        out[depth] = var[k]
        k = up[k]
    return out


@njit(cache=True)
def grow_candidates(node, scores, threshold, open_, trees, pool):
    """The additions that improve ``node``'s score past ``threshold``, best first.

    ``open_`` flags the variables that may be added (it is changed: the variables ranked
    above the branch taken at each ancestor are closed, since no prefix reaching ``node``
    holds them). Ties go to the lower index.
    """
    up, rank, first, branch_var = pool.up, pool.rank, trees.first, trees.branch_var
    k = node
    while up[k] >= 0:
        at = up[k]
        for b in range(first[at], first[at] + rank[k]):
            open_[branch_var[b]] = False
        k = at
    m = 0
    for x in range(scores.shape[0]):
        if open_[x] and scores[x] > threshold:
            m += 1
    cand = np.empty(m, dtype=np.int64)
    keys = np.empty(m)
    m = 0
    for x in range(scores.shape[0]):
        if open_[x] and scores[x] > threshold:
            cand[m] = x
            keys[m] = -scores[x]
            m += 1
    return cand[argsort_stable(keys)]


@njit(cache=True)
def _required_window(v, position, required):
    """Insertion points ``lo..hi`` that keep ``v`` after its required parents, before children."""
    lo = 0
    hi = position.shape[0]
    for a in range(required.parent_ptr[v], required.parent_ptr[v + 1]):
        lo = max(lo, position[required.parents[a]] + 1)
    for a in range(required.child_ptr[v], required.child_ptr[v + 1]):
        hi = min(hi, position[required.children[a]])
    return lo, hi


@njit(cache=True)
def better_mutation(v, moves, trees, required, requests, rel_tol):
    """Move ``v`` to the position of the order that scores best, if that beats its own.

    Returns ``(moved, n_missing)``; with ``n_missing > 0`` nothing was changed and the
    look-ups to finish are in the first ``n_missing`` rows of ``requests`` (as many as fit).

    ``moves.current[w]`` is w's score under the order as it stands (NaN when not known yet),
    and ``moves.touches`` (see :func:`index_branches`) says which trees hold ``v`` in a
    branch: a variable whose tree does not cannot have its walk changed by ``v`` joining or
    leaving its prefix, so its current score stands in for the look-up. Only ``v``'s own
    look-ups and those of the variables whose trees hold ``v`` are walked; the scores, and the
    look-ups reported missing, are those of walking every one.
    """
    order, position, in_prefix = moves.order, moves.position, moves.in_prefix
    scores, current, touches, marks = moves.scores, moves.current, moves.touches, moves.marks
    full = requests.variables.shape[0]
    p = order.shape[0]
    i = position[v]
    count = 0
    # forward: v inserted before order[j] has the prefix order[:j] minus v; the variables
    # before it keep prefixes without v
    acc = 0.0
    # v's own walk changes only when a variable it marked (a branch passed over on its
    # path, or one of the last node's branches) joins the prefix: until then its last
    # (known) score stands
    known = False
    s_v = np.nan
    stamp = 0
    for j in range(p):
        w = order[j]
        if not known:
            stamp = _next_stamp(marks)
            node, final = _walk_marking(v, trees, in_prefix, marks, stamp)
            s_v = trees.shrink[node] if final else np.nan
            known = final and s_v == s_v
            if not known:
                s_v = np.nan
                count = _record(v, in_prefix, requests, count)
        scores[j] = s_v + acc
        if count >= full:
            in_prefix[:] = False
            return False, count
        if w != v:
            # before v, w's prefix is its prefix in the order; after v, it lacks v (the
            # check stays in the loop: a call per variable would cost more than it saves)
            as_now = j < i
            s = current[w]
            if s != s or not (as_now or not _holds(touches, v, w)):
                s, count = _other_score(w, as_now, current, trees, in_prefix, requests, count)
            acc += s
            in_prefix[w] = True
            if known and marks[w] == stamp:
                known = False
            if count >= full:
                in_prefix[:] = False
                return False, count
    if not known:
        s_v, count = _lookup(v, trees, in_prefix, requests, count)
    scores[p] = s_v + acc
    # backward: the variables after the insertion point have v in their prefix
    in_prefix[v] = True
    acc = 0.0
    for j in range(p - 1, -1, -1):
        w = order[j]
        if w != v:
            in_prefix[w] = False
            # after v, w's prefix is its prefix in the order; before v, it gains v
            as_now = j > i
            s = current[w]
            if s != s or not (as_now or not _holds(touches, v, w)):
                s, count = _other_score(w, as_now, current, trees, in_prefix, requests, count)
            acc += s
            if count >= full:
                in_prefix[:] = False
                return False, count
        scores[j] += acc
    in_prefix[v] = False
    if count > 0:
        return False, count
    lo, hi = _required_window(v, position, required)
    tol = rel_tol * max(1.0, abs(scores[i]))
    best = hi
    for j in range(hi - 1, lo - 1, -1):
        if scores[j] > scores[best] + tol:
            best = j
    if not scores[best] > scores[i] + tol:
        return False, 0
    # remove v from position i and insert it before the old order[best]
    target = best - 1 if best > i else best
    # the variables v passes gain or lose v in their prefix: their current scores may change
    current[v] = np.nan
    for j in range(min(i, target), max(i, target) + 1):
        w = order[j]
        if _holds(touches, v, w):
            current[w] = np.nan
    if target > i:
        for j in range(i, target):
            order[j] = order[j + 1]
            position[order[j]] = j
    else:
        for j in range(i, target, -1):
            order[j] = order[j - 1]
            position[order[j]] = j
    order[target] = v
    position[v] = target
    return True, 0


@njit(cache=True)
def sweep(variables, start, moves, trees, required, requests, rel_tol):
    """Apply ``better_mutation`` to ``variables[start:]`` in turn.

    Returns ``(stopped_at, n_moved, n_missing)``: ``stopped_at`` is :data:`DONE` after the
    last variable, or the index of the variable whose move needs the look-ups in ``requests``.
    """
    moved_count = 0
    for t in range(start, variables.shape[0]):
        moved, count = better_mutation(variables[t], moves, trees, required, requests, rel_tol)
        if count > 0:
            return t, moved_count, count
        if moved:
            moved_count += 1
    return DONE, moved_count, 0


@njit(cache=True)
def order_nodes(order, in_prefix, trees, requests):
    """The node that gives each variable its parents under ``order``, and the order's score.

    Returns ``(nodes, total, n_missing)``; with ``n_missing > 0`` the result is incomplete and
    the look-ups to finish are in ``requests``.
    """
    # the whole order is one stretch after an empty prefix; nodes come back per variable
    found, scores, count = stretch_nodes(order, in_prefix, trees, requests)
    nodes = np.empty(order.shape[0], dtype=np.int64)
    nodes[order] = found
    total = 0.0 if count else scores.sum()
    return nodes, total, count


@njit(cache=True)
def stretch_nodes(stretch, in_prefix, trees, requests):
    """The nodes and scores of the variables of ``stretch``, each after those before it.

    ``in_prefix`` marks the variables in front of the stretch (restored on return). Returns
    ``(nodes, scores, n_missing)``, aligned with ``stretch``; with ``n_missing > 0`` some
    look-ups are unknown (NaN scores) and recorded in ``requests`` for the caller to finish.
    """
    m = stretch.shape[0]
    nodes = np.empty(m, dtype=np.int64)
    scores = np.empty(m)
    shrink = trees.shrink
    count = 0
    for k in range(m):
        v = stretch[k]
        node, final = _walk(v, trees, in_prefix)
        nodes[k] = node
        if not final or shrink[node] != shrink[node]:
            count = _record(v, in_prefix, requests, count)
            scores[k] = np.nan
        else:
            scores[k] = shrink[node]
        in_prefix[v] = True
    for k in range(m):
        in_prefix[stretch[k]] = False
    return nodes, scores, count


@njit(cache=True)
def make_node(at, b, score, trees, pool):
    """Make the node of branch ``b`` of node ``at``, scored ``score``; its index.

    Room for it is the caller's, in the node arrays and in ``trees.children`` (kept at most
    half full).
    """
    k = pool.sizes[0]
    pool.owner[k] = pool.owner[at]
    pool.up[k] = at
    pool.var[k] = trees.branch_var[b]
    pool.rank[k] = b - trees.first[at]
    pool.grow[k] = score
    trees.n_branch[k] = -1
    trees.first[k] = 0
    trees.shrink[k] = np.nan
    children = trees.children
    h = _slot(children, b)
    children[0, h] = b
    children[1, h] = k
    pool.sizes[0] += 1
    return k


@njit(cache=True)
def _family_parents(node, v, pool, required):
    """The parents ``node`` of ``v``'s tree stands for (required ones too), in increasing order."""
    added = node_path(node, pool.up, pool.var)
    lo, hi = required.parent_ptr[v], required.parent_ptr[v + 1]
    parents = np.empty(hi - lo + added.shape[0], dtype=np.int64)
    parents[: hi - lo] = required.parents[lo:hi]
    parents[hi - lo :] = added
    sort_int64(parents)
    return parents


@njit(cache=True)
def gaussian_fill(requests, count, trees, pool, family, required, rel_tol):
    """Finish look-ups as ``_Forest.fill`` does, for the Gaussian likelihood scores, in numba.

    The local score is ``gaussian_loglik - per_param * (k + 2)`` for ``k`` parents, as the
    bound Gaussian BIC/EBIC/AIC scores compute it, with parents in increasing order (so the
    values are those of the Python route); ``family`` is a :data:`GaussianFamily`.
    ``pool.sizes`` holds the used lengths of the node, branch and kept-parent pools and the
    number of expansions, and is updated. Returns the index of the first look-up not finished
    for lack of room (``count`` when all are done): the caller enlarges the pools and calls
    again from there.
    """
    cov, diag, n, per_param, allowed = family
    sizes, grow, kept_pool = pool.sizes, pool.grow, pool.kept_pool
    n_branch, first, shrink, branch_var = (
        trees.n_branch,
        trees.first,
        trees.shrink,
        trees.branch_var,
    )
    p = cov.shape[0]
    rows = min(count, requests.variables.shape[0])
    open_ = np.empty(p, dtype=np.bool_)
    for r in range(rows):
        v = requests.variables[r]
        prefix = requests.prefixes[r]
        while True:
            node, b = _walk_to(v, trees, prefix)
            if b >= 0:  # a branch taken for the first time: its node is made now
                if sizes[0] + 1 > pool.owner.shape[0]:
                    return r
                # scored again as node's expansion scored it (the trees keep no branch scores)
                parents = _family_parents(node, v, pool, required)
                score = addition_gaussian_loglik_one(cov, diag, n, v, parents, branch_var[b])
                score -= per_param * (parents.shape[0] + 3.0)
                make_node(node, b, score, trees, pool)
                continue
            if b == -2:
                if sizes[1] + p > branch_var.shape[0] or sizes[3] + 1 > pool.expanded.shape[0]:
                    return r
                parents = _family_parents(node, v, pool, required)
                k = parents.shape[0]
                if allowed.shape[0] == 0:
                    open_[:] = True
                else:
                    open_[:] = allowed[:, v]
                open_[v] = False
                for a in range(k):
                    open_[parents[a]] = False
                scores = addition_gaussian_loglik(cov, diag, n, v, parents)
                for x in range(p):
                    scores[x] -= per_param * (k + 3.0)
                base = grow[node]
                threshold = base + rel_tol * max(1.0, abs(base))
                cand = grow_candidates(node, scores, threshold, open_, trees, pool)
                m = cand.shape[0]
                b0 = sizes[1]
                for t in range(m):
                    branch_var[b0 + t] = cand[t]
                sizes[1] += m
                first[node] = b0
                n_branch[node] = m
                pool.expanded[sizes[3]] = node
                sizes[3] += 1
                continue
            if shrink[node] == shrink[node]:
                break
            if sizes[2] + p > kept_pool.shape[0]:
                return r
            current = _family_parents(node, v, pool, required)
            fixed = np.zeros(p, dtype=np.bool_)
            for a in range(required.parent_ptr[v], required.parent_ptr[v + 1]):
                fixed[required.parents[a]] = True
            k = current.shape[0]
            score = grow[node]
            reduced = np.empty(max(k - 1, 0), dtype=np.int64)
            while k > 0:
                best = -1
                best_score = score + rel_tol * max(1.0, abs(score))
                for a in range(k):
                    u = current[a]
                    if fixed[u]:
                        continue
                    m = 0
                    for b in range(k):
                        if b != a:
                            reduced[m] = current[b]
                            m += 1
                    s = gaussian_loglik(cov, n, v, reduced[:m]) - per_param * (m + 2.0)
                    if s > best_score:
                        best = a
                        best_score = s
                if best < 0:
                    break
                for b in range(best, k - 1):
                    current[b] = current[b + 1]
                k -= 1
                score = best_score
            shrink[node] = score
            pool.kept_first[node] = sizes[2]
            pool.kept_len[node] = k
            kept_pool[sizes[2] : sizes[2] + k] = current[:k]
            sizes[2] += k
            break
    return rows
