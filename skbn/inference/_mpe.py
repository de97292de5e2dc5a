# SPDX-License-Identifier: BSD-3-Clause
"""The most probable explanation of a discrete network, by max-product elimination.

The factors are those of :mod:`skbn.inference._discrete` (the CPTs and a likelihood factor
per observed node and row); summing is replaced by maximising, and each elimination keeps
the maximising state of the eliminated node for every configuration of the rest, so a
traceback in the reverse order reads off the joint argmax of every row. Barren nodes are not
dropped: their most probable state given their parents is part of the explanation.
"""

from __future__ import annotations

import string

import numpy as np
import pandas as pd

from skbn.inference._discrete import _CELL_BYTES, _likelihoods
from skbn.inference._elimination import elimination_order
from skbn.network._discrete import DiscreteBayesianNetwork
from skbn.utils._memory import check_allocation

__all__ = ["most_probable_explanation"]

_LETTERS = string.ascii_letters


#: Most factors one ``einsum`` multiplies; a longer product is taken a chunk at a time.
_MAX_OPERANDS = 16


def _joint(factors, scope: tuple, n: int) -> np.ndarray:
    """The product of ``factors`` over ``scope`` (no variable summed), per row."""
    factors = list(factors)
    while len(factors) > _MAX_OPERANDS:
        chunk, factors = factors[:_MAX_OPERANDS], factors[_MAX_OPERANDS:]
        own = tuple(sorted({u for s, _ in chunk for u in s}))
        factors.append((own, _joint(chunk, own, n)))
    letter = {v: _LETTERS[k] for k, v in enumerate(scope)}
    terms = ",".join("..." + "".join(letter[v] for v in s) for s, _ in factors)
    spec = f"{terms}->..." + "".join(letter[v] for v in scope)
    out = np.einsum(spec, *(values for _, values in factors))
    return np.broadcast_to(out, (n, *out.shape[1:]))


def most_probable_explanation(
    network: DiscreteBayesianNetwork, evidence=None, *, soft_evidence=None
):
    """The joint argmax of every node given the evidence; see :func:`skbn.inference.mpe`."""
    lam, n, batched = _likelihoods(network, evidence, soft_evidence)
    nodes = network.nodes
    index = {v: k for k, v in enumerate(nodes)}
    arities = [network.arities[v] for v in nodes]
    factors = [
        (tuple(index[u] for u in network.parents[v]) + (index[v],), network.cpts[v][None, ...])
        for v in nodes
    ]
    factors += [((index[v],), table) for v, table in lam.items()]
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
        product = _joint(group, rest + (v,), n)
        best = product.argmax(axis=-1)
        top = product.max(axis=-1)
        peak = top.reshape(n, -1).max(axis=1, initial=0.0)
        with np.errstate(divide="ignore"):
            log_scale += np.log(peak)
        top = top / np.where(peak > 0, peak, 1.0).reshape((n,) + (1,) * (top.ndim - 1))
        trace.append((v, rest, best))
        factors.append((rest, top))
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
