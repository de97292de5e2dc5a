# SPDX-License-Identifier: BSD-3-Clause
"""Exact posteriors of a discrete network by variable elimination, many evidence rows at once.

Evidence enters as likelihood factors: an observed state is the indicator vector of that
state, soft evidence the given likelihoods, an unobserved cell a vector of ones. So every
row of a batch runs through one elimination order over the same factors (the row axis of
:mod:`skbn.inference._elimination`), and hard and soft evidence are one mechanism. Nodes
that are neither targets, observed, nor ancestors of either are barren and dropped first:
their tables sum to one.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from skbn.data._schema import encode_column, unseen_values_error
from skbn.inference._elimination import _ancestral_set, elimination_order, sum_out
from skbn.inference._junction import all_marginals, tree_cells
from skbn.inference._single import compiled_query
from skbn.network._discrete import DiscreteBayesianNetwork
from skbn.utils._memory import check_allocation, physical_memory

__all__ = ["discrete_evidence_probability", "discrete_query"]

#: Bytes of one cell of an intermediate factor while it is formed: the product, its scaled
#: copy and the broadcast operands.
_CELL_BYTES = 24
#: Bytes per cell of every cluster of a clique tree: the cluster's product and its belief are
#: held until the distribute pass has left it.
_TREE_CELL_BYTES = 16
#: The time of a clique-tree pass per cell over that of one elimination per cell of its
#: largest factor (the tree's cells against the eliminations' largest factors, summed):
#: 4.5e-8 s against 5.5e-9 s on MUNIN1's benchmark rows (15 rows, one core), where this
#: choice gave 1.20 s a row against 1.17 s for the better of the two on each row.
_TREE_COST_PER_CELL = 8


def _targets(network: DiscreteBayesianNetwork, targets) -> list[str]:
    names = [targets] if isinstance(targets, str) else list(targets)
    if not names:
        raise ValueError("targets is empty; name at least one node of the network.")
    unknown = [str(v) for v in names if str(v) not in network.states]
    if unknown:
        raise ValueError(
            f"targets names nodes the network does not have: {unknown[:8]}; its nodes are "
            f"{network.nodes[:10]}{'...' if len(network.nodes) > 10 else ''}."
        )
    names = [str(v) for v in names]
    if len(set(names)) != len(names):
        raise ValueError(f"targets names a node twice: {names}.")
    return names


def _state_code(network, node, value) -> int:
    """The code of one state label (one case's evidence: no pandas on this path)."""
    states = network.states[node]
    if value is None or (isinstance(value, float) and value != value):
        return -1
    for k, state in enumerate(states):
        if state == value:
            return k
    for k, state in enumerate(states):
        if str(state) == str(value):
            return k
    raise unseen_values_error(node, [str(value)], states, origin="evidence")


def _state_codes(network, node, values) -> np.ndarray:
    """Codes of the state labels ``values`` of ``node`` (-1 where a value is missing)."""
    if len(values) == 1 and not isinstance(values, pd.Series):
        return np.array([_state_code(network, node, values[0])])
    # labels read from a file are text: 1 is taken for "1" when no state is the number 1
    codes, _ = encode_column(
        node,
        pd.Series(values),
        network.states[node],
        missing="allow",
        origin="evidence",
        match_text=True,
    )
    return codes


def _likelihoods(network, evidence, soft_evidence) -> tuple[dict, int, bool]:
    """Likelihood vectors per observed node, shape ``(n_rows, r)``; the rows; batched or not."""
    batched = isinstance(evidence, pd.DataFrame)
    if evidence is None:
        evidence = {}
    if batched:
        n = len(evidence)
        columns = {str(c): evidence[c] for c in evidence.columns}
        if len(columns) != evidence.shape[1]:
            raise ValueError("The evidence frame has repeated column names.")
    elif isinstance(evidence, Mapping):
        n = 1
        columns = {str(k): [v] for k, v in evidence.items()}
    else:
        raise TypeError(
            "evidence must be a dict {node: state}, a DataFrame of evidence rows (missing "
            f"cells unobserved) or None, got {type(evidence).__name__}."
        )
    soft = {} if soft_evidence is None else dict(soft_evidence)
    unknown = [v for v in list(columns) + [str(k) for k in soft] if v not in network.states]
    if unknown:
        raise ValueError(f"The evidence names nodes the network does not have: {unknown[:8]}.")
    lam: dict[str, np.ndarray] = {}
    for node, values in columns.items():
        codes = _state_codes(network, node, values)
        if np.all(codes < 0):
            continue  # never observed: no information
        r = network.arities[node]
        table = np.ones((n, r))
        seen = codes >= 0
        table[seen] = 0.0
        table[np.flatnonzero(seen), codes[seen]] = 1.0
        lam[node] = table
    for node, likelihood in soft.items():
        node = str(node)
        r = network.arities[node]
        vector = np.asarray(likelihood, dtype=np.float64)
        if vector.shape not in ((r,), (n, r)):
            raise ValueError(
                f"Soft evidence on {node!r} needs {r} likelihoods (one per state), or an "
                f"({n}, {r}) array for a batch; got shape {vector.shape}."
            )
        if not np.all(np.isfinite(vector)) or np.any(vector < 0) or not np.any(vector > 0):
            raise ValueError(
                f"Soft evidence on {node!r} must be finite, non-negative likelihoods that are "
                "not all zero."
            )
        vector = np.broadcast_to(vector, (n, r))
        lam[node] = lam[node] * vector if node in lam else np.array(vector)
    return lam, n, batched


def network_factors(network, nodes: list[str], lam: dict, fixed: dict | None = None):
    """The CPTs of ``nodes`` and the likelihood factors ``lam`` as elimination factors.

    Returns the position of each node, their arities and the factors over positions. A node
    in ``fixed`` (``{node: state}``) is sliced out of every table that holds it, and its
    likelihood factor is left out.
    """
    index = {v: k for k, v in enumerate(nodes)}
    arities = [network.arities[v] for v in nodes]
    fixed = {} if fixed is None else {index[v]: state for v, state in fixed.items()}
    factors = []
    for v in nodes:
        scope = tuple(index[u] for u in network.parents[v]) + (index[v],)
        values = network.cpts[v][None, ...]
        if fixed and any(u in fixed for u in scope):
            values = values[(slice(None), *(fixed.get(u, slice(None)) for u in scope))]
            scope = tuple(u for u in scope if u not in fixed)
        factors.append((scope, values))
    factors += [((index[v],), t) for v, t in lam.items() if index[v] not in fixed]
    return index, arities, factors


@functools.lru_cache(maxsize=4096)
def _state_index(node: str, states: tuple) -> pd.Index:
    """The labelled index of a node's states (pandas indexes are immutable, so shared)."""
    return pd.Index(list(states), name=node)


#: Bytes an elimination over a batch of rows may hold at once; a larger batch is split, and
#: each part drops the nodes it does not observe (and the ancestors only they needed).
_BATCH_BYTES = 2**28


#: Elimination orders already found, per network: they depend on the network's structure,
#: the targets, the observed nodes and the ones fixed by one case's evidence, not on the
#: states observed, so repeated questions of one kind skip the min-fill search.
_ORDERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_MAX_ORDERS = 256


def _hard_states(lam: dict, n: int, keep=()) -> dict:
    """One case's hard evidence as ``{node: state}`` (none for a batch, or in ``keep``)."""
    fixed = {}
    if n == 1:
        for v, table in lam.items():
            row = table[0]
            if v not in keep and np.count_nonzero(row) == 1 and row.max() == 1.0:
                fixed[v] = int(np.argmax(row))
    return fixed


def _plan(network, keep: list[str], lam: dict, n: int):
    # one case's hard evidence on a non-target is a fixed state: slice it out of the tables
    # rather than eliminate it (fewer variables, smaller factors)
    fixed = _hard_states(lam, n, keep)
    key = (tuple(keep), tuple(sorted(lam)), tuple(sorted(fixed)))
    cache = _ORDERS.setdefault(network, {})
    if key in cache:
        relevant, order, cells = cache[key]
        index, arities, factors = network_factors(network, relevant, lam, fixed)
    else:
        relevant = _ancestral_set(network, list(keep) + list(lam))
        index, arities, factors = network_factors(network, relevant, lam, fixed)
        gone = [index[v] for v in relevant if v not in keep and v not in fixed]
        order, cells = elimination_order([s for s, _ in factors], gone, arities, "min-fill")
        if len(cache) >= _MAX_ORDERS:
            cache.clear()
        cache[key] = (relevant, order, cells)
    kept = tuple(index[v] for v in keep)
    cells = max(cells, int(np.prod([arities[k] for k in kept], dtype=np.int64)))
    return factors, order, kept, cells


def _halves(lam: dict, n: int):
    """The likelihood factors of each half of a batch, without the nodes it leaves unobserved."""
    half = n // 2
    for rows, size in ((slice(0, half), half), (slice(half, n), n - half)):
        part = {v: t[rows] for v, t in lam.items()}
        yield {v: t for v, t in part.items() if not np.all(t == 1.0)}, size


def _eliminate(network, keep: list[str], lam: dict, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``P(keep, e)`` per row, as (values, log_scale): values * exp(log_scale) per row."""
    factors, order, kept, cells = _plan(network, keep, lam, n)
    if n > 1 and float(_CELL_BYTES) * cells * n > _BATCH_BYTES:
        parts = [_eliminate(network, keep, part, size) for part, size in _halves(lam, n)]
        return (
            np.concatenate([parts[0][0], parts[1][0]]),
            np.concatenate([parts[0][1], parts[1][1]]),
        )
    check_allocation(
        float(_CELL_BYTES) * cells * n,
        f"Variable elimination for {keep[:4]} over {n} evidence row(s) (largest factor "
        f"{cells:,} cells a row)",
        "query fewer targets jointly, or pass fewer evidence rows at a time",
    )
    factors.append(((), np.ones(n)))  # every row, even where no factor depends on it
    values, log_scale = sum_out(factors, order, kept)
    return np.asarray(values), log_scale


def _tree_marginals(network, targets: list[str], lam: dict, n: int, per_target=None) -> dict | None:
    """Posteriors of each target by the clique tree, the batch split as elimination splits.

    None when the tree of a single row would exceed a GiB: each target is then eliminated on
    its own, which drops more barren nodes and holds one factor at a time. ``per_target``
    (the largest factors that eliminating each target alone would form, summed) lets a
    larger tree be used for one row when the cost model (:data:`_TREE_COST_PER_CELL`) rates
    it cheaper than those eliminations and a third of the machine's memory holds it.
    """
    relevant = _ancestral_set(network, list(targets) + list(lam))
    # one case's hard evidence is sliced out of the tables, as in elimination: the tree is
    # over the other nodes only (on MUNIN1 often a tenth of the cells or less), and an
    # observed target's posterior is its state
    fixed = _hard_states(lam, n)
    if len(fixed) == len(relevant):
        fixed = {}
    index, arities, factors = network_factors(network, relevant, lam, fixed)
    plan = tree_cells([s for s, _ in factors], arities)
    cells = plan[2]
    if n > 1 and float(_TREE_CELL_BYTES) * cells * n > _BATCH_BYTES:
        parts = [_tree_marginals(network, targets, part, size) for part, size in _halves(lam, n)]
        if any(part is None for part in parts):
            return None
        return {v: np.concatenate([parts[0][v], parts[1][v]]) for v in targets}
    if float(_TREE_CELL_BYTES) * cells > 4 * _BATCH_BYTES:
        # a tree this large for one row: eliminate per target instead, unless the cost
        # model rates the tree cheaper and it takes under a third of memory (its products
        # need about half as much again)
        memory = physical_memory()
        if (
            per_target is None
            or n != 1
            or memory is None
            or float(_TREE_CELL_BYTES) * cells > memory / 3
            or _TREE_COST_PER_CELL * cells > per_target()
        ):
            return None
    check_allocation(
        float(_TREE_CELL_BYTES) * cells * n,
        f"The clique tree of {len(relevant)} nodes over {n} evidence row(s) ({cells:,} cells "
        "a row in all)",
        "query fewer targets, or pass fewer evidence rows at a time",
    )
    marginals = all_marginals(factors, arities, n, plan)
    if fixed:
        # any free node's posterior says whether the evidence is possible (NaN if not)
        possible = np.isfinite(next(iter(marginals.values()))).all(axis=1)
        for v, state in fixed.items():
            column = np.full((n, arities[index[v]]), np.nan)
            column[possible] = 0.0
            column[possible, state] = 1.0
            marginals[index[v]] = column
    return {v: marginals[index[v]] for v in targets}


def discrete_query(
    network: DiscreteBayesianNetwork,
    targets,
    evidence=None,
    *,
    soft_evidence: Mapping[str, Sequence[float]] | None = None,
    joint: bool = False,
):
    """Posteriors of ``targets`` given evidence; see :func:`skbn.inference.query`."""
    names = _targets(network, targets)
    if soft_evidence is None and (joint or len(names) == 1):
        answer = _one_case(network, names, evidence)
        if answer is not None:
            return answer if joint or isinstance(targets, str) else {names[0]: answer}
    lam, n, batched = _likelihoods(network, evidence, soft_evidence)
    groups = [names] if joint else [[v] for v in names]

    # several single targets: one clique tree answers all of them in two passes
    def per_target() -> int:
        return sum(_plan(network, [v], lam, n)[3] for v in names)

    tree = _tree_marginals(network, names, lam, n, per_target) if len(groups) > 1 else None
    results = {}
    for keep in groups:
        if tree is not None:
            values = tree[keep[0]]
            impossible = ~np.isfinite(values).all(axis=1)
            values = np.where(impossible[:, None], 0.0, values)
            total = np.where(impossible, 0.0, 1.0)
        else:
            values, log_scale = _eliminate(network, keep, lam, n)
            values = np.array(values, dtype=np.float64).reshape(n, -1)
            total = values.sum(axis=1)
            impossible = ~(total > 0) | ~np.isfinite(log_scale)
        out = labelled_posterior(values, total, impossible, keep, network.states, evidence)
        results[keep[0] if len(keep) == 1 else tuple(keep)] = out
    if joint or (isinstance(targets, str)):
        return next(iter(results.values()))
    return results


def _one_case(network, names: list[str], evidence) -> pd.Series | None:
    """One case's posterior by its compiled contraction, or None (the general route)."""
    if evidence is None:
        evidence = {}
    elif not isinstance(evidence, Mapping):
        return None
    else:
        evidence = {str(k): v for k, v in evidence.items()}
        if any(k not in network.states for k in evidence):
            return None  # the general route names them
    found = compiled_query(network, names, evidence)
    if found is None:
        return None
    values, total = found
    return labelled_posterior(
        values[None, :], np.array([total]), np.zeros(1, dtype=bool), names, network.states, {}
    )


def labelled_posterior(values, total, impossible, keep: list[str], states, evidence):
    """``values / total`` per row as a labelled posterior.

    A Series over the states (one case) or a DataFrame of rows by states (a batch), NaN
    where the evidence is impossible, which a single case refuses.
    """
    batched = isinstance(evidence, pd.DataFrame)
    if impossible.any() and not batched:
        raise ValueError(
            "The evidence has probability 0 under the network, so no posterior is defined."
        )
    with np.errstate(invalid="ignore", divide="ignore"):
        probs = values / total[:, None]
    probs[impossible] = np.nan
    if len(keep) == 1:
        columns = _state_index(keep[0], states[keep[0]])
    else:
        columns = pd.MultiIndex.from_product([list(states[v]) for v in keep], names=keep)
    if batched:
        return pd.DataFrame(probs, index=evidence.index, columns=columns)
    return pd.Series(probs[0], index=columns, name="probability")


def discrete_evidence_probability(
    network: DiscreteBayesianNetwork,
    evidence,
    *,
    soft_evidence: Mapping[str, Sequence[float]] | None = None,
    log: bool = False,
):
    """``P(e)`` of each evidence row; see :func:`skbn.inference.evidence_probability`."""
    lam, n, batched = _likelihoods(network, evidence, soft_evidence)
    if not lam:
        out = np.zeros(n) if log else np.ones(n)
        return out if batched else float(out[0])
    values, log_scale = _eliminate(network, [], lam, n)
    values = np.asarray(values, dtype=np.float64).reshape(n)
    with np.errstate(divide="ignore"):
        logp = np.log(values) + log_scale
    logp = np.where(values > 0, logp, -np.inf)
    out = logp if log else np.exp(logp)
    return out if batched else float(out[0])
