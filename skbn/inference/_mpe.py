# SPDX-License-Identifier: BSD-3-Clause
"""The most probable explanation (and MAP over a subset) of a discrete network.

The factors are those of :mod:`skbn.inference._discrete` (the CPTs and a likelihood factor
per observed node and row); summing is replaced by maximising, and each elimination keeps
the maximising state of the eliminated node for every configuration of the rest, so a
traceback in the reverse order reads off the joint argmax of every row. Barren nodes are not
dropped: their most probable state given their parents is part of the explanation.

MAP over a subset of the nodes (marginal MAP) sums the other nodes out first, then
maximises over the subset the same way: a constrained order, so the answer is exact (the
sum and the max do not commute, so no max may come before a sum).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from skbn.inference._discrete import _CELL_BYTES, _likelihoods, network_factors
from skbn.inference._elimination import _product, _scaled, elimination_order
from skbn.network._discrete import DiscreteBayesianNetwork
from skbn.utils._memory import check_allocation

__all__ = ["max_sum_product", "maximum_a_posteriori", "most_probable_explanation"]


def most_probable_explanation(
    network: DiscreteBayesianNetwork, evidence=None, *, soft_evidence=None
):
    """The joint argmax of every node given the evidence; see :func:`skbn.inference.mpe`."""
    return maximum_a_posteriori(network, network.nodes, evidence, soft_evidence=soft_evidence)


def _after(scopes, order) -> list:
    """The factors' scopes once the nodes of ``order`` are summed out."""
    scopes = [frozenset(s) for s in scopes]
    for v in order:
        merged = frozenset().union(*(s for s in scopes if v in s)) - {v}
        scopes = [s for s in scopes if v not in s] + [merged]
    return scopes


def maximum_a_posteriori(
    network: DiscreteBayesianNetwork, targets, evidence=None, *, soft_evidence=None
):
    """The joint argmax of ``targets`` given the evidence; see :func:`skbn.inference.map_query`."""
    lam, n, batched = _likelihoods(network, evidence, soft_evidence)
    nodes = network.nodes
    wanted = {nodes.index(t) for t in targets}
    _, arities, factors = network_factors(network, nodes, lam)
    assignment, log_p = max_sum_product(factors, arities, wanted, n)
    return _labelled(network, nodes, wanted, assignment, log_p, evidence, batched)


def max_sum_product(factors, arities, wanted: set, n: int):
    """Sum every variable outside ``wanted`` out of the factors' product, then maximise.

    Returns the maximising state of each variable per row (``(n, n_variables)``, only the
    ``wanted`` columns meaningful) and the log of the maximum per row.
    """
    scopes = [s for s, _ in factors]
    others = [k for k in range(len(arities)) if k not in wanted]
    summed, cells_sum = elimination_order(scopes, others, arities, "min-fill")
    order, cells = elimination_order(_after(scopes, summed), sorted(wanted), arities, "min-fill")
    check_allocation(
        float(_CELL_BYTES) * max(cells, cells_sum) * n,
        f"The most probable state of {len(wanted)} node(s) over {n} evidence row(s) (largest "
        f"factor {max(cells, cells_sum):,} cells a row)",
        "pass fewer evidence rows at a time",
    )
    log_scale = np.zeros(n)
    for v in summed:
        group = [f for f in factors if v in f[0]]
        factors = [f for f in factors if v not in f[0]]
        rest = tuple(sorted({u for s, _ in group for u in s} - {v}))
        factors.append((rest, _scaled(_product(group, rest, n, log_scale), n, log_scale)))
    trace = []
    for v in order:
        group = [f for f in factors if v in f[0]]
        factors = [f for f in factors if v not in f[0]]
        rest = tuple(sorted({u for s, _ in group for u in s} - {v}))
        product = np.broadcast_to(
            _product(group, rest + (v,), n, log_scale), (n, *[arities[u] for u in rest + (v,)])
        )
        trace.append((v, rest, product.argmax(axis=-1)))
        factors.append((rest, _scaled(product.max(axis=-1), n, log_scale)))
    assignment = np.zeros((n, len(arities)), dtype=np.int64)
    rows = np.arange(n)
    for v, rest, best in reversed(trace):
        assignment[:, v] = best[(rows, *(assignment[:, u] for u in rest))]
    final = np.ones(n)
    for _, values in factors:  # scalars per row
        final = final * np.broadcast_to(values, (n,))
    with np.errstate(divide="ignore"):
        log_p = np.where(final > 0, np.log(np.where(final > 0, final, 1.0)) + log_scale, -np.inf)
    return assignment, log_p


def _labelled(network, nodes, wanted, assignment, log_p, evidence, batched):
    """The argmax as state labels: a dict and a float, or a frame and an array (a batch)."""
    impossible = ~np.isfinite(log_p)
    if impossible.any() and not batched:
        raise ValueError("The evidence has probability 0 under the network: no explanation.")
    shown = [v for k, v in enumerate(nodes) if k in wanted]
    frame = pd.DataFrame(
        {
            v: pd.Categorical.from_codes(
                np.where(impossible, -1, assignment[:, nodes.index(v)]),
                categories=list(network.states[v]),
            )
            for v in shown
        },
        index=evidence.index if batched else None,
    )
    if batched:
        return frame, log_p
    return {v: frame[v].iloc[0] for v in shown}, float(log_p[0])
