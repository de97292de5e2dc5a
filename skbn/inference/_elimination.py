# SPDX-License-Identifier: BSD-3-Clause
"""Variable elimination over discrete factors, many evidence rows at once.

A factor is ``(scope, values)``: ``scope`` a tuple of variables, ``values`` an array of
shape ``(n_rows or 1, *arities of scope)``, one table per row (a row's evidence already
applied, so the row axis broadcasts where a factor does not depend on it). Summing a
variable out multiplies the factors that hold it and sums its axis, in one ``einsum``; each
new factor is scaled per row by its largest entry (the logs of the scales are kept), so
long products do not underflow.
"""

from __future__ import annotations

import heapq
import math
import string

import numpy as np

__all__ = ["elimination_order", "min_fill_clusters", "sum_out"]

_LETTERS = string.ascii_letters


def _cells(scope, arities) -> int:
    return math.prod(int(arities[v]) for v in scope)


def elimination_order(
    scopes, eliminate, arities, heuristic: str = "min-size"
) -> tuple[list[int], int]:
    """A greedy order and the largest factor it forms.

    ``"min-size"`` sums out next the variable whose new factor is smallest; ``"min-fill"``
    the one whose elimination joins the fewest unconnected pairs of its neighbours in the
    interaction graph, ties broken by the new factor's size (weighted min-fill), which
    keeps the largest factor much smaller on networks with many loops (WATER, INSURANCE).

    Parameters
    ----------
    scopes : iterable of iterables of int
        The factors' variables.
    eliminate : iterable of int
        The variables to sum out.
    arities : sequence of int
        States of each variable.

    Returns
    -------
    order : list of int
    largest : int
        Cells of the largest factor, the given ones included, that summing out in ``order``
        holds at once (per row).

    Examples
    --------
    >>> from skbn.inference._elimination import elimination_order
    >>> # summing 1 out forms a factor over 0 and 2 (from 2 * 3 * 4 cells), then 2 one over
    >>> # 0 and 3 (from 2 * 4 * 5 = 40)
    >>> elimination_order([(0, 1), (1, 2), (2, 3)], [1, 2], [2, 3, 4, 5])
    ([1, 2], 40)
    """
    if heuristic == "min-fill":
        order, clusters = min_fill_clusters(scopes, eliminate, arities)
        given = max((_cells(s, arities) for s in scopes), default=1)
        return order, max([given] + [_cells(c, arities) for c in clusters])
    if heuristic != "min-size":
        raise ValueError(f"heuristic must be 'min-size' or 'min-fill', got {heuristic!r}.")
    scopes = [frozenset(s) for s in scopes]
    largest = max((_cells(s, arities) for s in scopes), default=1)
    remaining = sorted(set(eliminate))
    order: list[int] = []
    while remaining:
        merged = {v: frozenset().union(*(s for s in scopes if v in s)) for v in remaining}
        v = min(remaining, key=lambda u: (_cells(merged[u], arities), u))
        largest = max(largest, _cells(merged[v], arities))
        scopes = [s for s in scopes if v not in s] + [merged[v] - {v}]
        remaining.remove(v)
        order.append(v)
    return order, largest


def min_fill_clusters(scopes, eliminate, arities) -> tuple[list[int], list[tuple]]:
    """A weighted min-fill order and the cluster each step forms (its node and neighbours).

    Parameters
    ----------
    scopes : iterable of iterables of int
    eliminate : iterable of int
    arities : sequence of int

    Returns
    -------
    order : list of int
    clusters : list of tuple of int
        Sorted; ``clusters[k]`` is ``order[k]`` with its neighbours when it is eliminated.
    """
    scopes = [frozenset(s) for s in scopes]
    neighbours: dict[int, set[int]] = {}
    for scope in scopes:
        for v in scope:
            neighbours.setdefault(v, set()).update(scope - {v})
    remaining = set(eliminate)
    for v in remaining:
        neighbours.setdefault(v, set())

    def cost(v: int) -> tuple[int, int, int]:
        near = list(neighbours[v])
        fill = sum(1 for i, a in enumerate(near) for b in near[i + 1 :] if b not in neighbours[a])
        return fill, _cells(neighbours[v] | {v}, arities), v

    # the cheapest node by (fill, cells, node) from a heap of costs: eliminating v changes
    # the neighbour sets of v's neighbours, and each fill edge it adds between two of them
    # joins a pair of every common neighbour of the two, so only those costs are
    # recomputed; a heap entry whose cost is no longer current is skipped
    current = {v: cost(v) for v in remaining}
    heap = list(current.values())
    heapq.heapify(heap)
    order: list[int] = []
    clusters: list[tuple] = []
    while remaining:
        entry = heapq.heappop(heap)
        v = entry[2]
        if v not in remaining or current[v] != entry:
            continue
        near = neighbours.pop(v)
        clusters.append(tuple(sorted(near | {v})))
        listed = list(near)
        fill = [
            (a, b) for i, a in enumerate(listed) for b in listed[i + 1 :] if b not in neighbours[a]
        ]
        for a in near:
            neighbours[a].discard(v)
            neighbours[a].update(near - {a})
        remaining.remove(v)
        order.append(v)
        touched = set(near).union(*(neighbours[a] & neighbours[b] for a, b in fill))
        touched &= remaining
        for u in touched:
            again = cost(u)
            if again != current[u]:
                current[u] = again
                heapq.heappush(heap, again)
    return order, clusters


def _combine(factors, out_scope) -> np.ndarray:
    letter = {}
    for scope, _ in factors:
        for v in scope:
            letter.setdefault(v, _LETTERS[len(letter)])
    for v in out_scope:
        letter.setdefault(v, _LETTERS[len(letter)])
    terms = ",".join("..." + "".join(letter[v] for v in scope) for scope, _ in factors)
    spec = f"{terms}->..." + "".join(letter[v] for v in out_scope)
    return np.einsum(spec, *(values for _, values in factors))


#: Most factors one ``einsum`` multiplies (numpy refuses more than 32 or 64 operands); a
#: longer product is taken a chunk at a time.
_MAX_OPERANDS = 16


def _scaled(values, n, log_scale) -> np.ndarray:
    """``values`` broadcast to ``n`` rows and divided by each row's largest entry.

    The logs of the divisors are added to ``log_scale`` (in place).
    """
    values = np.broadcast_to(values, (n, *values.shape[1:]))
    top = values.reshape(n, -1).max(axis=1, initial=0.0)
    with np.errstate(divide="ignore"):
        log_scale += np.log(top)
    return values / np.where(top > 0, top, 1.0).reshape((n,) + (1,) * (values.ndim - 1))


def _product(factors, out_scope, n, log_scale) -> np.ndarray:
    """The product of ``factors`` summed onto ``out_scope``, a chunk of factors at a time.

    Each chunk keeps the variables that later factors or ``out_scope`` hold and sums out
    the ones only it holds; its product is scaled per row (:func:`_scaled`).
    """
    factors = list(factors)
    while len(factors) > _MAX_OPERANDS:
        chunk, factors = factors[:_MAX_OPERANDS], factors[_MAX_OPERANDS:]
        needed = set(out_scope).union(*(set(s) for s, _ in factors))
        scope = tuple(sorted({u for s, _ in chunk for u in s} & needed))
        factors.append((scope, _scaled(_combine(chunk, scope), n, log_scale)))
    return _combine(factors, tuple(out_scope))


def sum_out(factors, order, keep) -> tuple[np.ndarray, np.ndarray]:
    """Sum the variables ``order`` out of the product of ``factors``, one after another.

    Parameters
    ----------
    factors : list of (tuple of int, ndarray)
        As the module describes; at least one of them has the full row axis.
    order : list of int
        The variables to sum out, in this order (:func:`elimination_order`).
    keep : tuple of int
        The variables left; every factor's scope lies in ``order`` and ``keep``.

    Returns
    -------
    values : ndarray of shape (n_rows, *arities of keep)
        The product summed over ``order``, divided by ``exp(log_scale)`` per row.
    log_scale : ndarray of shape (n_rows,)
        ``-inf`` where a row's product is zero everywhere.

    Examples
    --------
    >>> import numpy as np
    >>> from skbn.inference._elimination import sum_out
    >>> prior = ((0,), np.array([[0.3, 0.7]]))
    >>> child = ((0, 1), np.array([[[0.9, 0.1], [0.2, 0.8]]]))
    >>> values, log_scale = sum_out([prior, child], [0], (1,))
    >>> np.round(values * np.exp(log_scale)[:, None], 2)
    array([[0.41, 0.59]])
    """
    factors = list(factors)
    n = max(values.shape[0] for _, values in factors)
    log_scale = np.zeros(n)
    for v in order:
        group = [f for f in factors if v in f[0]]
        factors = [f for f in factors if v not in f[0]]
        scope = tuple(sorted({u for s, _ in group for u in s} - {v}))
        factors.append((scope, _scaled(_product(group, scope, n, log_scale), n, log_scale)))
    values = _product(factors, tuple(keep), n, log_scale)
    return np.broadcast_to(values, (n, *values.shape[1:])), log_scale


def _ancestral_set(network, nodes) -> list[str]:
    seen: set[str] = set()
    stack = list(nodes)
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        stack.extend(network.parents[v])
    return [v for v in network.nodes if v in seen]
