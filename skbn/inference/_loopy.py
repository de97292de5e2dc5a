# SPDX-License-Identifier: BSD-3-Clause
"""Approximate posteriors of a discrete network by loopy belief propagation.

Sum-product messages on the network's factor graph (one factor per CPT, its node and
parents; evidence as likelihood vectors on the variables), sent in parallel rounds until no
message changes by more than ``tol``. On a network without undirected cycles (a polytree)
the answer is exact once the messages have crossed it; on a loopy one it is Pearl's
approximation, usually close where the loops are long or their dependences weak, and it
may not converge: the result says whether it did. Each round costs one pass over the CPT
cells per node of each CPT, whatever the treewidth, so it answers where the junction tree
would not fit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from skbn._kernels.loopy import FactorGraph, loopy_messages
from skbn.inference._approximate import labelled_estimates
from skbn.inference._discrete import _likelihoods, _targets
from skbn.network._discrete import DiscreteBayesianNetwork

__all__ = ["loopy_belief_propagation"]


def _factor_graph(network):
    """The network's CPTs as the kernel's flat factor graph (see :mod:`skbn._kernels.loopy`)."""
    index = {v: k for k, v in enumerate(network.nodes)}
    arity = np.array([network.arities[v] for v in network.nodes], dtype=np.int64)
    scopes, scope_start, tables, table_start = [], [0], [], [0]
    for v in network.nodes:
        scopes += [index[u] for u in network.parents[v]] + [index[v]]
        scope_start.append(len(scopes))
        table = np.ascontiguousarray(network.cpts[v], dtype=np.float64).ravel()
        tables.append(table)
        table_start.append(table_start[-1] + table.size)
    scopes = np.array(scopes, dtype=np.int64)
    var_edges = np.argsort(scopes, kind="stable").astype(np.int64)
    var_start = np.zeros(len(arity) + 1, dtype=np.int64)
    np.cumsum(np.bincount(scopes, minlength=len(arity)), out=var_start[1:])
    return FactorGraph(
        np.concatenate(tables),
        np.array(table_start, dtype=np.int64),
        scopes,
        np.array(scope_start, dtype=np.int64),
        arity,
        var_edges,
        var_start,
    )


def loopy_belief_propagation(
    network: DiscreteBayesianNetwork,
    targets: str | Sequence[str],
    evidence=None,
    *,
    soft_evidence: Mapping[str, Sequence[float]] | None = None,
    max_iter: int = 100,
    tol: float = 1e-6,
    damping: float = 0.0,
):
    """Approximate posteriors of ``targets`` given ``evidence`` by loopy belief propagation.

    For networks whose exact elimination does not fit in memory; where it does,
    :func:`skbn.inference.query` is exact and usually faster. Deterministic: no sampling.

    Parameters
    ----------
    network : DiscreteBayesianNetwork
    targets : str or list of str
    evidence : dict, DataFrame or None, default=None
        As for :func:`skbn.inference.query`; a DataFrame is answered row by row.
    soft_evidence : dict of str to array-like, optional
        As for :func:`skbn.inference.query`.
    max_iter : int, default=100
        Most rounds of messages per evidence case.
    tol : float, default=1e-6
        Converged when no message (normalised) changes by more than this in a round.
    damping : float in [0, 1), default=0.0
        Each new message is ``damping * old + (1 - damping) * new``; damping helps messages
        that oscillate to settle.

    Returns
    -------
    posteriors : Series, DataFrame or dict
        As :func:`skbn.inference.query` returns them (NaN rows where the beliefs vanish:
        evidence that the messages find impossible).
    converged : bool or ndarray of shape (n_rows,)
        Whether the messages settled within ``max_iter`` rounds, per evidence case.

    References
    ----------
    Pearl, J., "Probabilistic Reasoning in Intelligent Systems", Morgan Kaufmann, 1988.

    Murphy, K. P., Weiss, Y. and Jordan, M. I., "Loopy belief propagation for approximate
    inference: an empirical study", UAI 1999.

    Examples
    --------
    ASIA has one loop; the approximation is close to the exact posterior.

    >>> from skbn.datasets import load_network
    >>> from skbn.inference import loopy_belief_propagation, query
    >>> asia = load_network("asia")
    >>> approx, converged = loopy_belief_propagation(asia, "lung", {"smoke": "yes", "dysp": "yes"})
    >>> exact = query(asia, "lung", {"smoke": "yes", "dysp": "yes"})
    >>> converged, bool(abs(approx["yes"] - exact["yes"]) < 0.02)
    (True, True)
    """
    if not isinstance(network, DiscreteBayesianNetwork):
        raise TypeError(
            "loopy_belief_propagation takes DiscreteBayesianNetwork objects; got "
            f"{type(network).__name__}."
        )
    if not isinstance(max_iter, int | np.integer) or max_iter < 1:
        raise ValueError(f"max_iter must be a positive integer; got {max_iter!r}.")
    if not (isinstance(tol, int | float) and tol > 0):
        raise ValueError(f"tol must be a positive number; got {tol!r}.")
    if not (isinstance(damping, int | float) and 0 <= damping < 1):
        raise ValueError(f"damping must be in [0, 1); got {damping!r}.")
    names = _targets(network, targets)
    lam, n, batched = _likelihoods(network, evidence, soft_evidence)
    graph = _factor_graph(network)
    arity = graph.arity
    nodes = list(network.nodes)
    position = {v: k for k, v in enumerate(nodes)}
    probs = {v: np.full((n, network.arities[v]), np.nan) for v in names}
    converged = np.zeros(n, dtype=bool)
    width = int(arity.max())
    for row in range(n):
        lam_row = np.zeros((len(nodes), width))
        for k, v in enumerate(nodes):
            lam_row[k, : arity[k]] = lam[v][row] if v in lam else 1.0
        beliefs, converged[row], _ = loopy_messages(
            graph, lam_row, int(max_iter), float(tol), float(damping)
        )
        for v in names:
            k = position[v]
            belief = beliefs[k, : arity[k]]
            total = belief.sum()
            if total > 0:
                probs[v][row] = belief / total
    if not batched and np.isnan(probs[names[0]][0]).all():
        raise ValueError("The beliefs vanish: the evidence is impossible under the network.")
    out = labelled_estimates(network, targets, names, probs, evidence, batched)
    return out, (converged if batched else bool(converged[0]))
