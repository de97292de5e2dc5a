# SPDX-License-Identifier: BSD-3-Clause
"""Zhang's rules in Tetrad 7.6.8's schedule, for ``FCI(variant="tetrad")``.

On data the tests contradict, which rule reaches a circle first decides its mark, so two
correct implementations of the same rules can return different PAGs. This module applies
them in the order Tetrad's ``FciOrient`` does, so that a comparison with it is mark for
mark:

- R1 and R2 node by node: for each node ``b`` (column order) and each pair ``a < c`` of its
  neighbours, R1 on ``(a, b, c)`` and ``(c, b, a)``, then R2 on both;
- R3 node by node, at most one orientation per node and sweep; Tetrad does not require the
  outer nodes ``a`` and ``c`` to be non-adjacent;
- R4 only when that sweep changed a mark: every discriminating path listed first (found
  breadth first back from ``w`` along arrowheads, as Tetrad does), then each decided in
  turn; Tetrad takes only triples ``v o-> y``; repeated while one orients;
- once none of R1-R4 changes a mark, R8, R9 and R10 until none does, on each ``a o-> c``
  (``c`` in column order, then ``a``), the first that applies; R9's path search and R10's
  paths are Tetrad's (below).

Tetrad's R9 looks for its path by a shortest-path search over semi-directed edges that
checks "adjacent" and "uncovered" only through semi-directed edges, and its R10 takes any
semi-directed paths from the two neighbours; these are ported as they are, since they can
orient a tail that Zhang's R9 and R10 would leave. R5-R7 (selection bias) are not
applied. ``M[i, j]`` is the mark at ``j`` on the edge ``i - j``, as in
:mod:`skbn.graph._fci_rules`.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable

import numpy as np

from skbn.graph._array import has_path
from skbn.graph._pag import ARROW, CIRCLE, TAIL

__all__ = ["recursive_ddp_sepset", "tetrad_final_orientation"]

#: ``blocking(x, y, path, keep)``: a separating set of ``x`` and ``y`` holding ``path``, or
#: None; ``keep`` False asks without remembering the answer for the pair
Blocking = Callable[[int, int, tuple, bool], "set | None"]


def _arrow_allowed(M, x, y) -> bool:
    return M[x, y] != 0 and M[x, y] != TAIL


def _parent(M, u, v) -> bool:
    """``u --> v``."""
    return M[u, v] == ARROW and M[v, u] == TAIL


def _rule1(M, a, b, c) -> bool:
    if M[a, c] or M[a, b] != ARROW or M[c, b] != CIRCLE or not _arrow_allowed(M, b, c):
        return False
    M[c, b], M[b, c] = TAIL, ARROW
    return True


def _rule2(M, a, b, c) -> bool:
    if M[a, c] != CIRCLE or M[a, b] != ARROW or M[b, c] != ARROW:
        return False
    if M[b, a] == TAIL or M[c, b] == TAIL:
        M[a, c] = ARROW
        return True
    return False


def _rules12(M, nbrs) -> bool:
    changed = False
    for b, around in enumerate(nbrs):
        for a, c in itertools.combinations(around, 2):
            changed |= _rule1(M, a, b, c)
            changed |= _rule1(M, c, b, a)
            changed |= _rule2(M, a, b, c)
            changed |= _rule2(M, c, b, a)
    return changed


def _rule3(M, nbrs) -> bool:
    changed = False
    for b, around in enumerate(nbrs):
        for triple in itertools.combinations(around, 3):
            hit = False
            for a, d, c in itertools.permutations(triple):
                if M[a, b] != ARROW or M[c, b] != ARROW:
                    continue
                if not (M[a, d] and M[c, d]):
                    continue
                if M[d, b] != CIRCLE or M[a, d] != CIRCLE or M[c, d] != CIRCLE:
                    continue
                M[d, b] = ARROW
                changed = hit = True
                break
            if hit:
                break
    return changed


def _is_discriminating(M, x, w, v, y, path) -> bool:
    """Whether ``<x, ..., w, v, y>`` is a discriminating path for ``v``.

    ``path`` runs from ``w`` back towards ``x``; ``x`` must not be adjacent to ``y``, and
    every inner node must be a collider on the path and a parent of ``y``.
    """
    if len({x, w, v, y}) < 4 or M[x, y] or not M[v, y]:
        return False
    seq = [x, *reversed(path), v]
    for i in range(1, len(seq) - 1):
        n1, n2, n3 = seq[i - 1], seq[i], seq[i + 1]
        if M[n1, n2] != ARROW or M[n3, n2] != ARROW or not _parent(M, n2, y):
            return False
    return True


def _discriminating_paths(M, nbrs, max_length: int) -> list[tuple]:
    """Every ``(x, w, v, y, path)`` R4 could orient, in Tetrad's search order."""
    found = []
    for w, around_w in enumerate(nbrs):
        for y in around_w:
            if not _parent(M, w, y):
                continue
            for v in sorted(set(nbrs[y]) & set(around_w)):
                if M[y, v] != CIRCLE or M[v, y] != ARROW:
                    continue
                queue, seen, previous = deque([w]), {w, v}, {w: None, v: w}
                while queue:
                    t = queue.popleft()
                    for x in nbrs[t]:
                        if M[x, t] != ARROW or x in seen:
                            continue
                        previous[x] = t
                        path, d = [], t
                        while d is not None:
                            path.append(d)
                            d = previous[d]
                        path.reverse()  # from w towards x
                        if max_length >= 0 and len(path) + 2 > max_length:
                            continue  # too long, and not searched beyond
                        if _is_discriminating(M, x, w, v, y, path):
                            found.append((x, w, v, y, tuple(path)))
                        queue.append(x)
                        seen.add(x)
    return found


def _rule4(M, nbrs, blocking: Blocking, max_length: int, conflicts: list) -> bool:
    changed = False
    while True:
        paths = _discriminating_paths(M, nbrs, max_length)
        if not paths:
            return changed
        decided: dict = {}
        oriented = False
        for x, w, v, y, path in paths:
            if not _is_discriminating(M, x, w, v, y, path):
                continue
            if M[y, v] != CIRCLE:
                # decided by an earlier path of this sweep: record a path that disagrees
                # (asked without keeping its set, which Tetrad would not have searched)
                earlier = decided.get((w, v, y))
                if earlier is not None:
                    sepset = blocking(x, y, path, False)
                    usable = sepset is not None and set(path) <= sepset
                    if usable and (v not in sepset) != earlier:
                        conflicts.append((w, v, y))
                continue
            sepset = blocking(x, y, path, True)
            if sepset is None or not set(path) <= sepset:
                continue  # Tetrad throws (and orients nothing) without a set holding the path
            collider = v not in sepset
            if collider:
                if not (_arrow_allowed(M, w, v) and _arrow_allowed(M, y, v)):
                    continue
                M[w, v] = M[y, v] = ARROW
            else:
                M[y, v] = TAIL
            decided[(w, v, y)] = collider
            oriented = True
        changed |= oriented
        if not oriented:
            return changed


def _semi_directed_neighbours(M, u) -> list[int]:
    """The ``v`` an edge ``u - v`` with a tail or circle at ``u`` leads to."""
    return [v for v in np.flatnonzero(M[u]).tolist() if M[v, u] in (TAIL, CIRCLE)]


def _semi_directed(M) -> np.ndarray:
    """``S[u, v]``: the edge ``u - v`` has no arrowhead at ``u`` (a semi-directed step)."""
    return (M != 0) & (M.T != ARROW)


def _rule8(M, a, c, nbrs) -> bool:
    for b in nbrs[a]:
        if not M[b, c]:
            continue
        into_b = M[b, a] == TAIL and M[a, b] in (ARROW, CIRCLE)
        if into_b and M[c, b] == TAIL and M[b, c] == ARROW:
            M[c, a] = TAIL
            return True
    return False


def _rule9(M, a, c) -> bool:
    """Tetrad's R9 on ``a o-> c``.

    A shortest semi-directed path ``a, b, ..., c`` of three or more edges, ``b`` and each
    triple "uncovered" as its search sees them.
    """
    step = {u: _semi_directed_neighbours(M, u) for u in range(M.shape[0])}

    def near(u, v):  # Tetrad's adjacency test inside the search
        return v in step[u]

    distance, previous = {a: 0}, {a: None}
    queue, done = deque([a]), set()
    while queue:
        u = queue.popleft()
        if u in done:
            continue
        done.add(u)
        before = previous[u]
        for v in step[u]:
            if u == a and near(v, c):
                continue
            if (v == c and u == a) or (v == c and before == a):
                continue
            if before is not None and near(v, before):
                continue
            if distance[u] + 1 < distance.get(v, np.inf):
                distance[v], previous[v] = distance[u] + 1, u
                if v == c:
                    M[c, a] = TAIL
                    return True
                queue.append(v)
    return False


def _rule10(M, a, c, nbrs) -> bool:
    steps = None  # the semi-directed steps, made once when first needed
    into = [b for b in nbrs[c] if M[b, c] == ARROW and b != a]
    for i, beta in enumerate(into):
        for theta in into[i + 1 :]:
            if M[c, beta] != TAIL or M[c, theta] != TAIL:
                continue
            around = [u for u in nbrs[a] if u not in (beta, theta)]
            for k, nu in enumerate(around):
                for omega in around[k + 1 :]:
                    if M[nu, omega]:
                        continue
                    if steps is None:
                        steps = _semi_directed(M)
                    if has_path(steps, nu, beta) and has_path(steps, omega, theta):
                        M[c, a] = TAIL
                        return True
    return False


def _rules8to10(M, nbrs) -> bool:
    changed = False
    for c in range(M.shape[0]):
        for a in nbrs[c]:
            if M[a, c] != ARROW or M[c, a] != CIRCLE:
                continue
            changed |= _rule8(M, a, c, nbrs) or _rule9(M, a, c) or _rule10(M, a, c, nbrs)
    return changed


def _descendants(M) -> list[set]:
    """Each node with the nodes it reaches along directed edges ``-->`` (itself included)."""
    p = M.shape[0]
    children = [[v for v in np.flatnonzero(M[u]).tolist() if _parent(M, u, v)] for u in range(p)]
    out = []
    for u in range(p):
        seen, stack = {u}, [u]
        while stack:
            for v in children[stack.pop()]:
                if v not in seen:
                    seen.add(v)
                    stack.append(v)
        out.append(seen)
    return out


_BLOCKED, _UNBLOCKABLE, _OPEN = 0, 1, 2


def _passes(M, nbrs, a, b, z, descendants) -> list[int]:
    """The ``c`` a path ``a, b`` may go on to given ``z``.

    That is, ``b`` is a non-collider outside ``z``, or a collider with a descendant in ``z``.
    """
    out = []
    for c in nbrs[b]:
        if c == a:
            continue
        collider = M[a, b] == ARROW and M[c, b] == ARROW
        if (not collider and b not in z) or (collider and descendants[b] & z):
            out.append(c)
    return out


def _block(M, nbrs, a, b, y, path, z, not_followed, descendants) -> int:
    """Tetrad's ``RecursiveBlocking.findPathToTarget``.

    Whether the paths from ``a, b`` to ``y`` can be blocked, adding non-colliders to ``z``
    as needed (``z`` and ``path`` change).
    """
    if b == y or b in path:
        return _UNBLOCKABLE
    if b in not_followed:
        return _BLOCKED
    path.add(b)
    if b in z:
        for c in _passes(M, nbrs, a, b, z, descendants):
            if c in not_followed:
                continue
            if _block(M, nbrs, b, c, y, path, z, not_followed, descendants) != _BLOCKED:
                return _UNBLOCKABLE  # Tetrad leaves b on the path here
        path.discard(b)
        return _BLOCKED
    for conditioned in (False, True):
        if conditioned:
            z.add(b)
        passes = [c for c in _passes(M, nbrs, a, b, z, descendants) if c not in not_followed]
        if all(
            _block(M, nbrs, b, c, y, path, z, not_followed, descendants) == _BLOCKED for c in passes
        ):
            path.discard(b)
            return _BLOCKED
    path.discard(b)
    return _UNBLOCKABLE


def _blocking_set(M, nbrs, x, y, not_followed) -> set:
    """Tetrad's ``RecursiveBlocking.blockPathsRecursively`` from ``x`` towards ``y``."""
    z: set = set()
    descendants = _descendants(M)
    path = {x}
    for b in nbrs[x]:
        if b != y:
            _block(M, nbrs, x, b, y, path, z, not_followed, descendants)
    return z


def recursive_ddp_sepset(M, x: int, y: int, independent) -> set | None:
    """Tetrad's recursive separating set of a discriminating path's ends ``x`` and ``y``.

    For each subset ``c`` of their common neighbours and each subset of the path middles
    ``v`` (of paths between ``x`` and ``y`` still to orient) with ``c``, a set blocking
    every other path is built; the middles not left out are added, ``c`` taken away, and
    the first such set the test ``independent(x, y, set)`` accepts is returned (None when
    none is).
    """
    nbrs = [np.flatnonzero(row).tolist() for row in M]
    middles = sorted(
        {
            v
            for a, _, v, b, _ in _discriminating_paths(M, nbrs, -1)
            if {a, b} == {x, y} and M[b, v] == CIRCLE
        }
    )
    common = [v for v in nbrs[x] if M[y, v]]
    for c_size in range(len(common) + 1):
        for chosen in itertools.combinations(common, c_size):
            pool = sorted(set(middles) | set(chosen))
            for size in range(len(pool) + 1):
                for left_out in itertools.combinations(pool, size):
                    blocking = _blocking_set(M, nbrs, x, y, set(left_out))
                    blocking |= set(middles) - set(left_out)
                    blocking -= set(chosen)
                    if independent(x, y, blocking):
                        return blocking
    return None


def tetrad_final_orientation(
    M: np.ndarray, blocking: Blocking, *, max_path_length: int = -1
) -> list[tuple]:
    """R1-R4 and R8-R10 on ``M`` (changed in place), in Tetrad 7.6.8's schedule.

    Parameters
    ----------
    M : ndarray of shape (p, p), int8
        Endpoint matrix after R0.
    blocking : callable
        ``blocking(x, y, path, keep)``: R4's separating set of the path's ends, one holding
        the path's inner nodes, or None when none is found (the triple then stays).
    max_path_length : int, default=-1
        Longest discriminating path, in edges; -1 for no bound.

    Returns
    -------
    list of tuple
        The triples ``(w, v, y)`` that two discriminating paths decided differently (the
        first one listed set the marks).
    """
    adjacent = M != 0
    nbrs = [np.flatnonzero(row).tolist() for row in adjacent]
    conflicts: list = []
    changed = True
    while changed:
        changed = _rules12(M, nbrs)
        changed |= _rule3(M, nbrs)
        if changed:
            _rule4(M, nbrs, blocking, max_path_length, conflicts)
    while _rules8to10(M, nbrs):
        pass
    return conflicts
