# SPDX-License-Identifier: BSD-3-Clause
"""The most probable explanation of a discrete network, by max-product elimination.

The factors are those of :mod:`skbn.inference._discrete` (the CPTs and a likelihood factor
per observed node and row); summing is replaced by maximising, and each elimination keeps
the maximising state of the eliminated node for every configuration of the rest, so a
traceback in the reverse order reads off the joint argmax of every row. Barren nodes are not
dropped: their most probable state given their parents is part of the explanation.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from skbn.inference._discrete import _CELL_BYTES, _likelihoods, network_factors
from skbn.inference._elimination import _product, _scaled, elimination_order
from skbn.network._discrete import DiscreteBayesianNetwork
from skbn.utils._memory import check_allocation

__all__ = ["most_probable_explanation"]


def most_probable_explanation(
    network: DiscreteBayesianNetwork, evidence=None, *, soft_evidence=None
):
    """The joint argmax of every node given the evidence; see :func:`skbn.inference.mpe`."""
    lam, n, batched = _likelihoods(network, evidence, soft_evidence)
    nodes = network.nodes
    _, arities, factors = network_factors(network, nodes, lam)
    order, cells = elimination_order(
        [s for s, _ in factors], range(len(nodes)), arities, "min-fill"
    )
    check_allocation(
        float(_CELL_BYTES) * cells * n,
        f"The most probable explanation over {n} evidence row(s) (largest factor {cells:,} "
        "cells a row)",
        "pass fewer evidence rows at a time",
    )
    log_scale = np.zeros(n)
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
    assignment = np.zeros((n, len(nodes)), dtype=np.int64)
    rows = np.arange(n)
    for v, rest, best in reversed(trace):
        assignment[:, v] = best[(rows, *(assignment[:, u] for u in rest))]
    final = np.ones(n)
    for _, values in factors:  # scalars per row
        final = final * np.broadcast_to(values, (n,))
    with np.errstate(divide="ignore"):
        log_p = np.where(final > 0, np.log(np.where(final > 0, final, 1.0)) + log_scale, -np.inf)
    impossible = ~np.isfinite(log_p)
    if impossible.any() and not batched:
        raise ValueError("The evidence has probability 0 under the network: no explanation.")
    frame = pd.DataFrame(
        {
            v: pd.Categorical.from_codes(
                np.where(impossible, -1, assignment[:, k]), categories=list(network.states[v])
            )
            for k, v in enumerate(nodes)
        },
        index=evidence.index if batched else None,
    )
    if batched:
        return frame, log_p
    return {v: frame[v].iloc[0] for v in nodes}, float(log_p[0])
