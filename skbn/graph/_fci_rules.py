# SPDX-License-Identifier: BSD-3-Clause
"""Zhang's orientation rules on an endpoint matrix: the last stage of FCI and of dag_to_pag.

``M[i, j]`` is the mark at ``j`` on the edge ``i - j`` (0 none, 1 circle, 2 arrow, 3 tail).
The skeleton never changes here; only circles become arrows or tails. The rules are those of
J. Zhang, "On the completeness of orientation rules for causal discovery in the presence of
latent confounders and selection bias", Artificial Intelligence 172 (2008): R1-R4, and R8-R10
for arrow-completeness and tail-completeness. R5-R7 concern selection bias only (without
selection variables the circle component of a PAG is chordal and their premises never hold),
and are not applied.

What a collider on a discriminating path is comes from the caller: FCI asks its separating
sets, :func:`~skbn.graph.mag_to_pag` asks the MAG.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

import numpy as np

from skbn.graph._pag import ARROW, CIRCLE, TAIL

__all__ = ["orient_unshielded_colliders", "apply_rules"]

#: ``collider(theta, alpha, beta, gamma, path)``: is ``beta`` a collider on
#: ``<alpha, beta, gamma>`` at the end of a discriminating path from ``theta``? ``path`` holds
#: the path's nodes strictly between ``theta`` and ``beta`` (``alpha`` last). True, False, or
#: None to leave the triple as it is (nothing can decide it).
ColliderOracle = Callable[[int, int, int, int, tuple], "bool | None"]


def _neighbours(M: np.ndarray) -> list[np.ndarray]:
    return [np.flatnonzero(row) for row in M]


def orient_unshielded_colliders(M: np.ndarray, collider: Callable[[int, int, int], bool]) -> None:
    """Rule R0: ``a *-> b <-* c`` for each unshielded triple that ``collider`` names.

    Parameters
    ----------
    M : ndarray of shape (p, p), int8
        Endpoint matrix, changed in place.
    collider : callable
        ``collider(a, b, c)`` for ``a < c`` non-adjacent, both adjacent to ``b``.
    """
    adjacent = M != 0
    for b, nb in enumerate(_neighbours(M)):
        for ia, a in enumerate(nb.tolist()):
            for c in nb[ia + 1 :].tolist():
                if not adjacent[a, c] and collider(a, b, c):
                    M[a, b] = ARROW
                    M[c, b] = ARROW


def _directed(M, u, v) -> bool:
    """``u -> v``."""
    return M[u, v] == ARROW and M[v, u] == TAIL


def _potentially_directed(M, u, v) -> bool:
    """The edge ``u - v`` could point from ``u`` to ``v``: no arrow at ``u``, no tail at ``v``."""
    return M[u, v] not in (0, TAIL) and M[v, u] != ARROW


def _rule1(M, adjacent, nbrs) -> bool:
    changed = False
    for b, nb in enumerate(nbrs):
        into = [a for a in nb.tolist() if M[a, b] == ARROW]
        if not into:
            continue
        for c in nb.tolist():
            if M[c, b] != CIRCLE:
                continue
            if any(a != c and not adjacent[a, c] for a in into):
                M[c, b] = TAIL
                M[b, c] = ARROW
                changed = True
    return changed


def _rule2(M, adjacent, nbrs) -> bool:
    changed = False
    for a, na in enumerate(nbrs):
        for c in na.tolist():
            if M[a, c] != CIRCLE:
                continue
            for b in np.intersect1d(na, nbrs[c], assume_unique=True).tolist():
                if (_directed(M, a, b) and M[b, c] == ARROW) or (
                    M[a, b] == ARROW and _directed(M, b, c)
                ):
                    M[a, c] = ARROW
                    changed = True
                    break
    return changed


def _rule3(M, adjacent, nbrs) -> bool:
    changed = False
    for b, nb in enumerate(nbrs):
        into = [a for a in nb.tolist() if M[a, b] == ARROW]
        if len(into) < 2:
            continue
        for d in nb.tolist():
            if M[d, b] != CIRCLE:
                continue
            cand = [a for a in into if a != d and adjacent[a, d] and M[a, d] == CIRCLE]
            if any(not adjacent[a, c] for i, a in enumerate(cand) for c in cand[i + 1 :]):
                M[d, b] = ARROW
                changed = True
    return changed


def _discriminating_start(M, adjacent, nbrs, alpha, beta, gamma, max_length) -> tuple[int, tuple]:
    """The first node of a discriminating path ``<theta, ..., alpha, beta, gamma>``.

    Returns ``(theta, path)``, ``path`` the nodes between ``theta`` and ``beta`` in path order,
    or ``(-1, ())``. Breadth first, so the path found is a shortest one.
    """
    # every node between theta and beta is a collider on the path and a parent of gamma
    seen = {alpha, beta, gamma}
    towards_beta = {alpha: -1}  # the next node on the path towards beta
    queue = deque([(alpha, 3)])  # (node, edges in the path from it to gamma)
    while queue:
        e, length = queue.popleft()
        for f in nbrs[e].tolist():
            if f in seen or M[f, e] != ARROW:  # e must be a collider: an arrow at e
                continue
            if max_length >= 0 and length + 1 > max_length:
                continue
            if not adjacent[f, gamma]:
                path = []
                while e >= 0:
                    path.append(e)
                    e = towards_beta[e]
                return f, tuple(path)
            # f extends the path when it is a collider on it (an arrow at f from e) and a
            # parent of gamma; it may be reached again from another e, so only a node put
            # on the queue is closed
            if _directed(M, f, gamma) and M[e, f] == ARROW:
                seen.add(f)
                towards_beta[f] = e
                queue.append((f, length + 1))
    return -1, ()


def _rule4(M, adjacent, nbrs, collider: ColliderOracle, max_length: int) -> bool:
    changed = False
    for beta, nb in enumerate(nbrs):
        for gamma in nb.tolist():
            if M[gamma, beta] != CIRCLE:
                continue
            for alpha in np.intersect1d(nb, nbrs[gamma], assume_unique=True).tolist():
                if M[gamma, beta] != CIRCLE:
                    break
                if M[beta, alpha] != ARROW or not _directed(M, alpha, gamma):
                    continue
                theta, path = _discriminating_start(
                    M, adjacent, nbrs, alpha, beta, gamma, max_length
                )
                if theta < 0:
                    continue
                decided = collider(theta, alpha, beta, gamma, path)
                if decided is None:
                    continue
                if decided:
                    M[alpha, beta] = M[beta, alpha] = ARROW
                    M[gamma, beta] = M[beta, gamma] = ARROW
                else:
                    M[gamma, beta] = TAIL
                    M[beta, gamma] = ARROW
                changed = True
    return changed


def _rule8(M, adjacent, nbrs) -> bool:
    changed = False
    for a, na in enumerate(nbrs):
        for c in na.tolist():
            if not (M[a, c] == ARROW and M[c, a] == CIRCLE):
                continue
            for b in np.intersect1d(na, nbrs[c], assume_unique=True).tolist():
                if _directed(M, b, c) and M[b, a] == TAIL and M[a, b] in (ARROW, CIRCLE):
                    M[c, a] = TAIL
                    changed = True
                    break
    return changed


def _uncovered_pd_path(M, adjacent, nbrs, prev: int, start: int, target: int, avoid) -> bool:
    """Whether an uncovered potentially directed path ``prev, start, ..., target`` exists.

    ``prev -> start`` is already known to be potentially directed; the path is simple and
    does not enter ``avoid``. Depth first over simple paths.
    """
    if start == target:
        return True
    stack = [(prev, start, iter(nbrs[start].tolist()))]
    on_path = {prev, start} | set(avoid)
    while stack:
        before, node, it = stack[-1]
        advanced = False
        for nxt in it:
            if nxt in on_path or adjacent[before, nxt]:
                continue
            if not _potentially_directed(M, node, nxt):
                continue
            if nxt == target:
                return True
            on_path.add(nxt)
            stack.append((node, nxt, iter(nbrs[nxt].tolist())))
            advanced = True
            break
        if not advanced:
            stack.pop()
            on_path.discard(node)
    return False


def _rule9(M, adjacent, nbrs) -> bool:
    changed = False
    for a, na in enumerate(nbrs):
        for c in na.tolist():
            if not (M[a, c] == ARROW and M[c, a] == CIRCLE):
                continue
            for b in na.tolist():
                if b == c or adjacent[b, c] or not _potentially_directed(M, a, b):
                    continue
                if _uncovered_pd_path(M, adjacent, nbrs, a, b, c, ()):
                    M[c, a] = TAIL
                    changed = True
                    break
    return changed


def _rule10(M, adjacent, nbrs) -> bool:
    changed = False
    for a, na in enumerate(nbrs):
        for c in na.tolist():
            if not (M[a, c] == ARROW and M[c, a] == CIRCLE):
                continue
            parents = [b for b in nbrs[c].tolist() if b != a and _directed(M, b, c)]
            if len(parents) < 2:
                continue
            firsts = []
            for b in parents:
                firsts.append(
                    {
                        mu
                        for mu in na.tolist()
                        if _potentially_directed(M, a, mu)
                        and _uncovered_pd_path(M, adjacent, nbrs, a, mu, b, ())
                    }
                )
            done = False
            for i in range(len(parents)):
                for j in range(i + 1, len(parents)):
                    if any(
                        mu != om and not adjacent[mu, om] for mu in firsts[i] for om in firsts[j]
                    ):
                        done = True
                        break
                if done:
                    break
            if done:
                M[c, a] = TAIL
                changed = True
    return changed


def apply_rules(
    M: np.ndarray,
    collider: ColliderOracle,
    *,
    complete: bool = True,
    max_path_length: int = -1,
) -> np.ndarray:
    """Apply R1-R4 (and R8-R10 when ``complete``) until none changes a mark.

    Parameters
    ----------
    M : ndarray of shape (p, p), int8
        Endpoint matrix after the colliders are oriented; changed in place and returned.
    collider : callable
        ``collider(theta, alpha, beta, gamma, path)`` decides R4 (see ``ColliderOracle``).
    complete : bool, default=True
        Also apply R8-R10 (Zhang's arrow- and tail-complete rules).
    max_path_length : int, default=-1
        Longest discriminating path R4 looks for, in edges; -1 for no bound.

    Returns
    -------
    ndarray
        ``M``.
    """
    adjacent = M != 0
    nbrs = _neighbours(M)
    while True:
        changed = _rule1(M, adjacent, nbrs)
        changed |= _rule2(M, adjacent, nbrs)
        changed |= _rule3(M, adjacent, nbrs)
        changed |= _rule4(M, adjacent, nbrs, collider, max_path_length)
        if changed:
            continue
        if complete:
            changed = _rule8(M, adjacent, nbrs)
            changed |= _rule9(M, adjacent, nbrs)
            changed |= _rule10(M, adjacent, nbrs)
        if not changed:
            return M
