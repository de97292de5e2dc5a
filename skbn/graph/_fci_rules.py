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

from collections.abc import Callable

import numpy as np

from skbn._kernels.pag_rules import rule1, rule2, rule3, rule4_next, rule8, rule9, rule10
from skbn.graph._pag import ARROW, TAIL

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


def _rule4(M, adjacent, csr, collider: ColliderOracle, max_length: int) -> bool:
    """R4: each open triple at the end of a discriminating path, as ``collider`` decides.

    The kernel finds the triples in order and the path of each; the decision, which may
    run tests, is the caller's, and the kernel resumes after it with the marks it set.
    """
    indptr, indices = csr
    p = M.shape[0]
    cursor = np.array([0, -1, -1], dtype=np.int64)
    work = np.zeros((4, p), dtype=np.int64)
    path = np.empty(p, dtype=np.int64)
    changed = False
    while True:
        theta, n = rule4_next(M, adjacent, indptr, indices, cursor, max_length, work, path)
        if theta < 0:
            return changed
        beta, gamma, alpha = int(cursor[0]), int(indices[cursor[1]]), int(indices[cursor[2]])
        cursor[2] += 1
        decided = collider(int(theta), alpha, beta, gamma, tuple(path[:n].tolist()))
        if decided is None:
            continue
        if decided:
            M[alpha, beta] = M[beta, alpha] = ARROW
            M[gamma, beta] = M[beta, gamma] = ARROW
        else:
            M[gamma, beta] = TAIL
            M[beta, gamma] = ARROW
        changed = True


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
    adjacent: np.ndarray | None = None,
    csr: tuple | None = None,
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
    adjacent, csr : ndarray of bool and (indptr, indices), optional
        ``M != 0`` and its CSR, where the caller keeps them (the rules change marks, not
        adjacencies).

    Returns
    -------
    ndarray
        ``M``.
    """
    if adjacent is None:
        adjacent = M != 0
    if csr is None:
        csr = _csr(adjacent)
    while True:
        changed = rule1(M, adjacent, *csr)
        changed |= rule2(M, adjacent, *csr)
        changed |= rule3(M, adjacent, *csr)
        changed |= _rule4(M, adjacent, csr, collider, max_path_length)
        if changed:
            continue
        if complete:
            changed = rule8(M, adjacent, *csr)
            changed |= rule9(M, adjacent, *csr)
            changed |= rule10(M, adjacent, *csr)
        if not changed:
            return M
