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

from skbn._kernels.pag_rules import rule1, rule2, rule3, rule8, rule9, rule10
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


def _csr(adjacent: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each node's neighbours, in increasing order, as ``indptr`` and ``indices``."""
    indptr = np.zeros(adjacent.shape[0] + 1, dtype=np.int64)
    np.cumsum(adjacent.sum(axis=1), out=indptr[1:])
    return indptr, np.nonzero(adjacent)[1].astype(np.int64)


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
    csr = _csr(adjacent)
    while True:
        changed = rule1(M, adjacent, *csr)
        changed |= rule2(M, adjacent, *csr)
        changed |= rule3(M, adjacent, *csr)
        changed |= _rule4(M, adjacent, nbrs, collider, max_path_length)
        if changed:
            continue
        if complete:
            changed = rule8(M, adjacent, *csr)
            changed |= rule9(M, adjacent, *csr)
            changed |= rule10(M, adjacent, *csr)
        if not changed:
            return M
