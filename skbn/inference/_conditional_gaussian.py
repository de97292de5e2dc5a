# SPDX-License-Identifier: BSD-3-Clause
"""Exact posteriors of the discrete nodes of a conditional-Gaussian network.

Given a configuration of the discrete nodes, the continuous nodes of a conditional-Gaussian
network are jointly normal, so the density of the observed continuous values is a normal
density whose mean and covariance depend on that configuration. It depends on only some
discrete nodes, and it factorises: an unobserved continuous node that is no ancestor of an
observed one integrates to one (barren); the others are grouped into *components*, the
connected parts of the unobserved nodes (joined by their arcs and by sharing an observed
child), each with the observed nodes below it. A component's observed values have a joint
normal density given the discrete parents of its nodes, an observed node with no unobserved
parent a normal density given its own discrete parents. Each such density, a table over
those discrete parents (one per evidence row), joins the discrete part's CPTs and evidence
as one more factor of the discrete variable elimination (:mod:`skbn.inference._discrete`).
The answer is exact; its cost grows with the product of the arities of a component's
discrete parents, which is checked before anything is allocated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.stats

from skbn.inference._discrete import (
    _CELL_BYTES,
    _ancestral_set,
    _likelihoods,
    _targets,
    labelled_posterior,
    network_factors,
)
from skbn.inference._elimination import elimination_order, sum_out
from skbn.inference._mpe import _labelled, max_sum_product
from skbn.utils._memory import check_allocation

__all__ = ["MixturePosterior", "cg_evidence_probability", "cg_map", "cg_mpe", "cg_query"]

_LOG_2PI = float(np.log(2 * np.pi))


def _split_evidence(network, evidence):
    """Split the evidence into its discrete and continuous parts.

    Returns the discrete evidence (dict or frame), the values of each observed continuous
    node (NaN where unobserved), the number of rows and whether it is a batch.
    """
    batched = isinstance(evidence, pd.DataFrame)
    if evidence is None:
        evidence = {}
    if batched:
        n = len(evidence)
        names = [str(c) for c in evidence.columns]
        if len(set(names)) != len(names):
            raise ValueError("The evidence frame has repeated column names.")
        frame = evidence.set_axis(names, axis=1)
    elif isinstance(evidence, Mapping):
        n = 1
        single = {str(k): val for k, val in evidence.items()}
        names = list(single)
        frame = None
    else:
        raise TypeError(
            "evidence must be a dict {node: value}, a DataFrame of evidence rows (missing "
            f"cells unobserved) or None, got {type(evidence).__name__}."
        )
    states = network.discrete_part.states
    continuous = set(network.continuous)
    unknown = [v for v in names if v not in states and v not in continuous]
    if unknown:
        raise ValueError(f"The evidence names nodes the network does not have: {unknown[:8]}.")
    values = {}
    for v in names:
        if v not in continuous:
            continue
        column = frame[v] if batched else pd.Series([single[v]], dtype=object)
        try:
            numbers = pd.to_numeric(column, errors="raise").to_numpy(dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(
                f"The evidence on the continuous node {v!r} must be numbers (NaN or an empty "
                f"cell where unobserved); got {column.iloc[0]!r}."
            ) from None
        if np.isinf(numbers).any():
            raise ValueError(f"The evidence on {v!r} holds an infinite value.")
        values[v] = numbers
    if batched:
        discrete = frame[[v for v in names if v in states]]
    else:
        discrete = {v: val for v, val in single.items() if v in states}
    return discrete, values, n, batched


class _Components:
    """The factors that the observed continuous values of one pattern add."""

    def __init__(
        self, network, observed: list[str], target: str | None = None, every: bool = False
    ):
        self.network = network
        cont_parents = network._continuous_parents
        observed_set = set(observed)
        # unobserved continuous ancestors of an observed node (the others are barren), and
        # an unobserved continuous target with its unobserved ancestors; with every=True
        # (the most probable explanation maximises them all) every unobserved node
        relevant: set[str] = set()
        stack = [u for o in observed for u in cont_parents[o] if u not in observed_set]
        if target is not None and target not in observed_set:
            stack.append(target)
        if every:
            # a held node is at its value with probability one: no density to maximise
            stack.extend(
                v for v in network.continuous if v not in observed_set and v not in network.held
            )
        while stack:
            u = stack.pop()
            if u in relevant:
                continue
            relevant.add(u)
            stack.extend(w for w in cont_parents[u] if w not in observed_set)
        parent = {u: u for u in relevant}

        def find(u):
            while parent[u] != u:
                parent[u] = parent[parent[u]]
                u = parent[u]
            return u

        def union(a, b):
            parent[find(a)] = find(b)

        for u in relevant:
            for w in cont_parents[u]:
                if w in relevant:
                    union(u, w)
        hidden_parents = {o: [u for u in cont_parents[o] if u in relevant] for o in observed}
        for o in observed:
            for u in hidden_parents[o][1:]:
                union(hidden_parents[o][0], u)
        groups: dict[str, list[str]] = {}
        for u in relevant:
            groups.setdefault(find(u), []).append(u)
        for o in observed:
            if hidden_parents[o]:
                groups[find(hidden_parents[o][0])].append(o)
            else:
                groups[o] = [o]
        order = {v: k for k, v in enumerate(network.continuous)}
        self.components = [sorted(g, key=order.__getitem__) for g in groups.values()]
        self.observed = observed_set
        self.target = target

    def factors(self, values: dict, rows: np.ndarray, peaks: bool = False):
        """The components' tables, their log-scales per row, and where the peaks lie.

        Returns ``(scope, table)`` per component, the sum of the tables' log-scales per
        row, and (with ``peaks``) each component's unobserved members' conditional means.
        Each table, over the component's discrete parents, has shape ``(n_rows, *arities)``
        and is scaled so each row's largest entry is 1. It holds the density of the
        component's observed values, or with ``peaks=True`` (the most probable
        explanation) that density times the peak of its unobserved members' conditional
        normal; the means are then ``(scope, hidden members, (n_configs, n_rows, h))``.
        """
        arities = self.network.discrete_part.arities
        offset = np.zeros(len(rows))
        out, located = [], []
        for members in self.components:
            if not peaks and not any(v in self.observed for v in members):
                continue  # a target's component that observes nothing: a table of ones
            scope, log_density, hidden, cond_mean, cond_cov = self._condition(members, values, rows)
            if peaks and hidden:
                _, logdet = np.linalg.slogdet(cond_cov)
                log_density = log_density - 0.5 * (len(hidden) * _LOG_2PI + logdet)[None, :]
            if peaks:
                located.append((scope, hidden, cond_mean))
            top = log_density.max(axis=1)
            offset += top
            shape = [arities[d] for d in scope]
            out.append((tuple(scope), np.exp(log_density - top[:, None]).reshape(-1, *shape)))
        return out, offset, located

    def _scope(self, members: list[str]) -> list[str]:
        net = self.network
        return sorted(
            {d for v in members for d in net._discrete_parents[v]},
            key=net.discrete_part.nodes.index,
        )

    def _moments(self, members: list[str], values: dict, rows: np.ndarray):
        """Mean ``(n_configs, n_rows, m)`` and covariance ``(n_configs, m, m)`` of members.

        One per configuration of their discrete parents (C order).
        """
        net = self.network
        arities = net.discrete_part.arities
        position = {v: k for k, v in enumerate(members)}
        scope = self._scope(members)
        shape = tuple(arities[d] for d in scope)
        n_configs = int(np.prod(shape, dtype=np.int64))
        m, n = len(members), len(rows)
        check_allocation(
            8.0 * n_configs * (n * (m + 2) + 3 * m * m),
            f"The density of the observed continuous values of {members[:4]} over "
            f"{n_configs:,} configurations of {scope[:6]} and {n} evidence row(s)",
            "observe fewer continuous nodes at once, or leave out the evidence on the "
            "continuous nodes with many discrete ancestors",
        )
        grid = np.indices(shape).reshape(len(shape), n_configs) if shape else None
        B = np.zeros((n_configs, m, m))
        a = np.zeros((n_configs, n, m))
        noise = np.zeros((n_configs, m))
        for v in members:
            b0, beta, var = net._tables[v]
            disc = net._discrete_parents[v]
            if disc:
                codes = tuple(grid[scope.index(d)] for d in disc)
                config = np.ravel_multi_index(codes, b0.shape)
            else:
                config = np.zeros(n_configs, dtype=np.intp)
            flat_beta = beta.reshape(b0.size, beta.shape[-1])
            j = position[v]
            a[:, :, j] = b0.reshape(-1)[config][:, None]
            noise[:, j] = var.reshape(-1)[config]
            for k, u in enumerate(net._continuous_parents[v]):
                weight = flat_beta[config, k]
                if u in position:
                    B[:, j, position[u]] = weight
                else:  # an observed parent outside the component: its value is fixed
                    a[:, :, j] += weight[:, None] * values[u][rows][None, :]
        # members are in a topological order, so I - B is unit lower triangular
        M = np.linalg.inv(np.eye(m)[None] - B)
        mean = np.einsum("cij,cnj->cni", M, a)
        cov = np.einsum("cij,cj,ckj->cik", M, noise, M)
        return scope, mean, cov

    def _condition(self, members: list[str], values: dict, rows: np.ndarray):
        """A component's normal given its observed values, per parent configuration.

        Returns the scope (its discrete parents), the log-density of the observed values
        ``(n_rows, n_configs)`` (zeros when none is observed), the unobserved members, and
        their conditional means ``(n_configs, n_rows, h)`` and covariance
        ``(n_configs, h, h)``.
        """
        scope, mean, cov = self._moments(members, values, rows)
        seen = [j for j, v in enumerate(members) if v in self.observed]
        hidden = [j for j, v in enumerate(members) if v not in self.observed]
        log_density = np.zeros((mean.shape[0], len(rows)))
        cond_mean = mean[:, :, hidden]
        cond_cov = cov[:, hidden][:, :, hidden]
        if seen:
            cov_o = cov[:, seen][:, :, seen]
            x = np.stack([values[members[j]][rows] for j in seen], axis=1)  # (n, k)
            residual = x[None, :, :] - mean[:, :, seen]
            inverse = np.linalg.inv(cov_o)
            _, logdet = np.linalg.slogdet(cov_o)
            quad = np.einsum("cni,cij,cnj->cn", residual, inverse, residual)
            log_density = -0.5 * (len(seen) * _LOG_2PI + logdet[:, None] + quad)
            if hidden:
                gain = np.einsum("chs,cst->cht", cov[:, hidden][:, :, seen], inverse)
                cond_mean = cond_mean + np.einsum("cht,cnt->cnh", gain, residual)
                back = cov[:, seen][:, :, hidden]
                cond_cov = cond_cov - np.einsum("cht,ctk->chk", gain, back)
        return scope, log_density.T, [members[j] for j in hidden], cond_mean, cond_cov

    def target_moments(self, values: dict, rows: np.ndarray):
        """The target's mean ``(n_rows, n_configs)`` and variance ``(n_configs,)``.

        Given its component's observed values, per configuration of the component's
        discrete parents (returned first).
        """
        members = next(c for c in self.components if self.target in c)
        scope, _, hidden, cond_mean, cond_cov = self._condition(members, values, rows)
        t = hidden.index(self.target)
        return scope, cond_mean[:, :, t].T, np.maximum(cond_cov[:, t, t], 0.0)


def _patterns(values: dict, n: int):
    """The rows grouped by which continuous nodes they observe: (rows, observed nodes)."""
    names = list(values)
    seen = (
        np.column_stack([~np.isnan(values[v]) for v in names])
        if names
        else np.zeros((n, 0), dtype=bool)
    )
    patterns, which = np.unique(seen, axis=0, return_inverse=True)
    which = np.asarray(which).reshape(-1)
    for p, pattern in enumerate(patterns):
        yield np.flatnonzero(which == p), [v for v, flag in zip(names, pattern) if flag]


def _evidence(network, evidence, soft_evidence):
    """The continuous values, the discrete likelihood factors, the rows, and if a batch."""
    discrete, values, n, batched = _split_evidence(network, evidence)
    lam, _, _ = _likelihoods(network.discrete_part, discrete, soft_evidence)
    _held_evidence(network, values, lam, n, batched)
    return values, lam, n, batched


def _held_evidence(network, values: dict, lam: dict, n: int, batched: bool) -> None:
    """Take the evidence on held nodes out of ``values``.

    A held node has its value with probability one and is apart from the other nodes, so
    observing that value says nothing, and any other value is impossible: a single case
    is refused, a batch's rows get a likelihood of zero on a discrete root (their
    posteriors are then NaN, as for any impossible row).
    """
    wrong = np.zeros(n, dtype=bool)
    for v, x in network.held.items():
        if v not in values:
            continue
        seen = values.pop(v)
        off = ~np.isnan(seen) & (seen != x)
        if off.any() and not batched:
            raise ValueError(
                f"{v!r} is held at {x:g} by an intervention, so the evidence {v} = "
                f"{seen[0]:g} has probability 0; no posterior is defined."
            )
        wrong |= off
    if wrong.any():
        part = network.discrete_part
        root = next((u for u in part.nodes if not part.parents[u]), None)
        if root is None:
            raise ValueError(
                f"Rows {np.flatnonzero(wrong)[:8].tolist()} observe a held node at another "
                "value, and the network has no discrete node to mark them impossible by."
            )
        table = lam.get(root, np.ones((n, part.arities[root])))
        lam[root] = table * (~wrong)[:, None]


def _pattern_factors(part, nodes: list[str], lam: dict, rows, extra: list):
    """The CPTs of ``nodes``, the rows' discrete evidence and the continuous tables."""
    index, arities, factors = network_factors(part, nodes, {v: t[rows] for v, t in lam.items()})
    factors += [(tuple(index[d] for d in scope), table) for scope, table in extra]
    factors.append(((), np.ones(len(rows))))
    return index, arities, factors


def _joint(part, keep: list[str], lam: dict, rows, extra: list):
    """``P(keep, e)`` for the rows of one pattern: (values ``(n_rows, cells)``, log_scale)."""
    relevant = _ancestral_set(part, list(keep) + list(lam) + [d for s, _ in extra for d in s])
    index, arities, factors = _pattern_factors(part, relevant, lam, rows, extra)
    n_rows = len(rows)
    kept = tuple(index[v] for v in keep)
    gone = [index[v] for v in relevant if v not in keep]
    order, cells = elimination_order([s for s, _ in factors], gone, arities, "min-fill")
    check_allocation(
        float(_CELL_BYTES) * cells * n_rows,
        f"Variable elimination for {keep[:4]} over {n_rows} evidence row(s) (largest "
        f"factor {cells:,} cells a row)",
        "query fewer targets jointly, or pass fewer evidence rows at a time",
    )
    got, log_scale = sum_out(factors, order, kept)
    return np.asarray(got, dtype=np.float64).reshape(n_rows, -1), log_scale


def _eliminate(network, keep: list[str], evidence, soft_evidence):
    """``P(keep, e)`` per row, and whether the evidence is a batch.

    (values, log_scale) as the discrete elimination gives them, the continuous densities'
    scales included in ``log_scale``.
    """
    values, lam, n, batched = _evidence(network, evidence, soft_evidence)
    out_values, out_scale = None, np.zeros(n)
    for rows, observed in _patterns(values, n):
        extra, offset, _ = _Components(network, observed).factors(values, rows)
        got, log_scale = _joint(network.discrete_part, keep, lam, rows, extra)
        if out_values is None:
            out_values = np.zeros((n, got.shape[1]))
        out_values[rows] = got
        out_scale[rows] = log_scale + offset
    return out_values, out_scale, batched


@dataclass(frozen=True)
class MixturePosterior:
    """The posterior of a continuous node of a conditional-Gaussian network.

    A mixture of normals, one per configuration of the discrete parents of the node's
    component (the unobserved continuous nodes it is joined to, and the observed ones
    below them), weighted by that configuration's posterior probability.

    Parameters
    ----------
    weights, means, variances : ndarray of shape (n_components,)
        Each normal's posterior weight (they sum to one), mean and variance (0 for an
        observed node, whose posterior is its value).
    components : pandas.Index
        The configuration of each normal (a MultiIndex over the discrete parents, or one
        entry when there are none).

    Examples
    --------
    >>> post = MixturePosterior(np.array([0.25, 0.75]), np.array([0.0, 2.0]),
    ...                         np.array([1.0, 1.0]), pd.Index(["no", "yes"], name="s"))
    >>> post.mean, post.variance
    (1.5, 1.75)
    """

    weights: np.ndarray
    means: np.ndarray
    variances: np.ndarray
    components: pd.Index

    @property
    def mean(self) -> float:
        """The mixture's mean."""
        return float(self.weights @ self.means)

    @property
    def variance(self) -> float:
        """The mixture's variance (within and between its normals)."""
        second = self.weights @ (self.variances + self.means**2)
        return float(max(second - self.mean**2, 0.0))

    @property
    def std(self) -> float:
        """The mixture's standard deviation."""
        return float(np.sqrt(self.variance))

    def pdf(self, x) -> np.ndarray:
        """The posterior density at ``x`` (every variance must be positive).

        Parameters
        ----------
        x : float or array-like
            Values of the node.

        Returns
        -------
        ndarray
            The density at each value, of ``x``'s shape.
        """
        x = np.asarray(x, dtype=np.float64)[..., None]
        each = scipy.stats.norm.pdf(x, self.means, np.sqrt(self.variances))
        return (self.weights * each).sum(axis=-1)

    def cdf(self, x) -> np.ndarray:
        """The posterior probability of a value at most ``x``.

        Parameters
        ----------
        x : float or array-like
            Values of the node.

        Returns
        -------
        ndarray
            The probability at each value, of ``x``'s shape.
        """
        x = np.asarray(x, dtype=np.float64)[..., None]
        sd = np.sqrt(self.variances)
        spread = scipy.stats.norm.cdf(x, self.means, np.where(sd > 0, sd, 1.0))
        each = np.where(sd > 0, spread, (x >= self.means).astype(float))
        return (self.weights * each).sum(axis=-1)

    def __repr__(self) -> str:
        return (
            f"MixturePosterior(mean={self.mean:.6g}, std={self.std:.6g}, "
            f"n_components={len(self.weights)})"
        )

    def frame(self) -> pd.DataFrame:
        """The normals as a table: weight, mean and standard deviation per configuration.

        Returns
        -------
        DataFrame
            Indexed by ``components``.
        """
        return pd.DataFrame(
            {"weight": self.weights, "mean": self.means, "std": np.sqrt(self.variances)},
            index=self.components,
        )


def _continuous_posterior(network, target: str, evidence, soft_evidence):
    """The mixture posterior of ``target`` per evidence row (a frame for a batch)."""
    values, lam, n, batched = _evidence(network, evidence, soft_evidence)
    part = network.discrete_part
    out = [None] * n
    for rows, observed in _patterns(values, n):
        if target in observed:
            for r in rows:
                out[r] = MixturePosterior(
                    np.ones(1), np.array([values[target][r]]), np.zeros(1), pd.Index([()])
                )
            continue
        components = _Components(network, observed, target)
        extra, _, _ = components.factors(values, rows)
        scope, means, variances = components.target_moments(values, rows)
        weights, log_scale = _joint(part, scope, lam, rows, extra)
        total = weights.sum(axis=1)
        impossible = ~(total > 0) | ~np.isfinite(log_scale)
        if impossible.any() and not batched:
            raise ValueError(
                "The evidence has probability 0 under the network, so no posterior is defined."
            )
        with np.errstate(invalid="ignore", divide="ignore"):
            weights = weights / total[:, None]
        if scope:
            index = pd.MultiIndex.from_product([list(part.states[d]) for d in scope], names=scope)
        else:
            index = pd.Index([()])
        for k, r in enumerate(rows):
            out[r] = MixturePosterior(weights[k], means[k], variances, index)
    if not batched:
        return out[0]
    return pd.DataFrame(
        {"mean": [m.mean for m in out], "std": [m.std for m in out], "mixture": out},
        index=evidence.index,
    )


def cg_query(
    network,
    targets,
    evidence=None,
    *,
    soft_evidence: Mapping[str, Sequence[float]] | None = None,
    joint: bool = False,
):
    """Posteriors of ``targets``; see :func:`skbn.inference.query`."""
    names = [targets] if isinstance(targets, str) else [str(v) for v in targets]
    continuous = [v for v in names if v in set(network.continuous)]
    if continuous and joint:
        raise ValueError(
            f"joint=True answers discrete targets; {continuous} are continuous (ask for each "
            "alone: its posterior is a mixture of normals)."
        )
    if len(set(names)) != len(names):
        raise ValueError(f"targets names a node twice: {names}.")
    results = {v: _continuous_posterior(network, v, evidence, soft_evidence) for v in continuous}
    names = [v for v in names if v not in results]
    if names:
        names = _targets(network.discrete_part, names)
    states = network.discrete_part.states
    groups = [names] if joint else [[v] for v in names]
    for keep in (g for g in groups if g):
        values, log_scale, _ = _eliminate(network, keep, evidence, soft_evidence)
        total = values.sum(axis=1)
        impossible = ~(total > 0) | ~np.isfinite(log_scale)
        out = labelled_posterior(values, total, impossible, keep, states, evidence)
        results[keep[0] if len(keep) == 1 else tuple(keep)] = out
    if joint or isinstance(targets, str):
        return next(iter(results.values()))
    return {str(v): results[str(v)] for v in targets}


def cg_evidence_probability(
    network,
    evidence,
    *,
    soft_evidence: Mapping[str, Sequence[float]] | None = None,
    log: bool = False,
):
    """The probability (density, where continuous values are observed) of the evidence."""
    values, log_scale, batched = _eliminate(network, [], evidence, soft_evidence)
    total = values.reshape(len(values), -1).sum(axis=1)
    with np.errstate(divide="ignore"):
        logp = np.where(total > 0, np.log(np.where(total > 0, total, 1.0)) + log_scale, -np.inf)
    out = logp if log else np.exp(logp)
    return out if batched else float(out[0])


def cg_map(network, targets, evidence=None, *, soft_evidence=None):
    """The most probable joint state of discrete ``targets``: ``map_query``'s answer.

    See :func:`skbn.inference.map_query`.
    """
    names = [targets] if isinstance(targets, str) else [str(v) for v in targets]
    continuous = [v for v in names if v in set(network.continuous)]
    if continuous:
        raise ValueError(
            f"map_query on a conditional-Gaussian network answers discrete targets; "
            f"{continuous} are continuous (the mode of a mixture of normals is not built)."
        )
    names = _targets(network.discrete_part, names)
    values, lam, n, batched = _evidence(network, evidence, soft_evidence)
    part = network.discrete_part
    assignment = np.zeros((n, len(part.nodes)), dtype=np.int64)
    log_p = np.zeros(n)
    wanted = {part.nodes.index(v) for v in names}
    for rows, observed in _patterns(values, n):
        extra, offset, _ = _Components(network, observed).factors(values, rows)
        _, arities, factors = _pattern_factors(part, list(part.nodes), lam, rows, extra)
        got, logs = max_sum_product(factors, arities, wanted, len(rows))
        assignment[rows] = got
        log_p[rows] = logs + offset
    return _labelled(part, list(part.nodes), wanted, assignment, log_p, evidence, batched)


def cg_mpe(network, evidence=None, *, soft_evidence=None):
    """The most probable explanation of every node; see :func:`skbn.inference.mpe`.

    The joint maximum over the discrete states and the continuous values: for each
    component of unobserved continuous nodes, the peak of their conditional normal given the
    component's observed values is a table over its discrete parents, which joins the CPTs
    in max-product elimination; the continuous values are then the conditional means under
    the maximising discrete states.
    """
    values, lam, n, batched = _evidence(network, evidence, soft_evidence)
    part = network.discrete_part
    assignment = np.zeros((n, len(part.nodes)), dtype=np.int64)
    log_p = np.zeros(n)
    filled = {
        v: np.array(values[v]) if v in values else np.full(n, np.nan) for v in network.continuous
    }
    for v, x in network.held.items():
        filled[v] = np.full(n, x)
    everything = set(range(len(part.nodes)))
    for rows, observed in _patterns(values, n):
        components = _Components(network, observed, every=True)
        extra, offset, located = components.factors(values, rows, peaks=True)
        index, arities, factors = _pattern_factors(part, list(part.nodes), lam, rows, extra)
        got, logs = max_sum_product(factors, arities, everything, len(rows))
        assignment[rows] = got
        log_p[rows] = logs + offset
        for scope, hidden, cond_mean in located:
            if not hidden:
                continue
            shape = [part.arities[d] for d in scope]
            if scope:
                config = np.ravel_multi_index(tuple(got[:, index[d]] for d in scope), shape)
            else:
                config = np.zeros(len(rows), dtype=np.intp)
            picked = cond_mean[config, np.arange(len(rows)), :]
            for h, v in enumerate(hidden):
                filled[v][rows] = picked[:, h]
    impossible = ~np.isfinite(log_p)
    if impossible.any() and not batched:
        raise ValueError("The evidence has probability 0 under the network: no explanation.")
    columns = {}
    for v in network.nodes:
        if v in part.states:
            codes = np.where(impossible, -1, assignment[:, part.nodes.index(v)])
            columns[v] = pd.Categorical.from_codes(codes, categories=list(part.states[v]))
        else:
            columns[v] = np.where(impossible, np.nan, filled[v])
    frame = pd.DataFrame(columns, index=evidence.index if batched else None)
    if batched:
        return frame, log_p
    return {v: frame[v].iloc[0] for v in network.nodes}, float(log_p[0])
