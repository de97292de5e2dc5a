# SPDX-License-Identifier: BSD-3-Clause
"""Parameters of a fitted network: CPTs (discrete) or linear-Gaussian regressions.

They make a structure learner a density estimator: ``score_samples(X)`` is the log-likelihood
of each row, so ``GridSearchCV`` can compare structures by held-out likelihood.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
from scipy import sparse

from skbn._kernels.discrete import config_index, family_counts
from skbn._kernels.gaussian import VARIANCE_FLOOR
from skbn.data import DiscreteData, GaussianData, MixedData
from skbn.graph._array import parents_csr
from skbn.network._discrete import DiscreteBayesianNetwork
from skbn.network._gaussian import LinearGaussianNetwork
from skbn.network._mixed import ConditionalGaussianNetwork
from skbn.utils._memory import check_allocation

__all__ = ["CGParameters", "DiscreteParameters", "GaussianParameters", "fit_parameters"]

#: Equivalent sample size of the Dirichlet prior used to smooth CPTs (BDeu-style: spread
#: uniformly over the cells of each family), so an unseen configuration keeps a finite
#: likelihood; bnlearn's ``bn.fit(method="bayes", iss=1)`` does the same.
CPT_PRIOR_ISS = 1.0


@dataclass(frozen=True)
class DiscreteParameters:
    """Smoothed CPTs, one ``(q, r)`` table per node, over a DAG's parent sets."""

    parents: tuple[np.ndarray, ...]
    log_cpts: tuple[np.ndarray, ...]

    def log_likelihood_rows(self, codes: np.ndarray, arities: np.ndarray) -> np.ndarray:
        """Log-likelihood of each row of an encoded data matrix."""
        total = np.zeros(codes.shape[0])
        for j, (pa, table) in enumerate(zip(self.parents, self.log_cpts)):
            index, _ = config_index(codes, pa, arities)
            total += table[index, codes[:, j]]
        return total

    def to_network(self, names, states, name: str = "network") -> DiscreteBayesianNetwork:
        """The labelled network: CPTs of shape ``(r_pa1, ..., r_pak, r_v)``.

        The rows of a ``(q, r)`` table are mixed-radix parent configurations with the first
        parent most significant (:func:`~skbn._kernels.discrete.config_index`), which is
        C order over the parents' axes, so a reshape gives the network's layout.
        """
        arities = [len(s) for s in states]
        cpts = {}
        for j, (pa, table) in enumerate(zip(self.parents, self.log_cpts)):
            probs = np.exp(table)
            probs /= probs.sum(axis=1, keepdims=True)  # exact rows after exp(log(.))
            cpts[names[j]] = probs.reshape(tuple(arities[k] for k in pa) + (arities[j],))
        return DiscreteBayesianNetwork(
            states={v: s for v, s in zip(names, states)},
            parents={names[j]: [names[k] for k in pa] for j, pa in enumerate(self.parents)},
            cpts=cpts,
            name=name,
        )


@dataclass(frozen=True)
class GaussianParameters:
    """Per node: intercept, coefficients on its parents and residual variance."""

    parents: tuple[np.ndarray, ...]
    intercepts: np.ndarray
    coefficients: tuple[np.ndarray, ...]
    variances: np.ndarray

    def log_likelihood_rows(self, values: np.ndarray) -> np.ndarray:
        """Log-likelihood of each row of a float data matrix."""
        total = np.zeros(values.shape[0])
        for j, pa in enumerate(self.parents):
            mean = self.intercepts[j] + values[:, pa] @ self.coefficients[j]
            var = self.variances[j]
            total += -0.5 * (math.log(2 * math.pi * var) + (values[:, j] - mean) ** 2 / var)
        return total

    def to_network(self, names) -> LinearGaussianNetwork:
        """The linear-Gaussian network: weights, noise standard deviations and intercepts."""
        rows = np.concatenate([pa for pa in self.parents]).astype(np.int64)
        cols = np.repeat(np.arange(len(self.parents)), [len(pa) for pa in self.parents])
        data = np.concatenate([np.asarray(c, dtype=np.float64) for c in self.coefficients])
        p = len(self.parents)
        weights = sparse.csc_array((data, (rows, cols)), shape=(p, p))
        return LinearGaussianNetwork(
            weights, np.sqrt(self.variances), list(names), intercepts=self.intercepts
        )


@dataclass(frozen=True)
class _Regression:
    """Linear regressions of one continuous node in a conditional-Gaussian network.

    One per seen configuration of its discrete parents, and a pooled one (all rows, discrete
    parents ignored) for the others.
    """

    discrete_parents: np.ndarray
    continuous_parents: np.ndarray
    keys: np.ndarray  # sorted configuration indices with their own regression
    intercepts: np.ndarray  # (len(keys) + 1,): the last entry is the pooled regression's
    coefficients: np.ndarray  # (len(keys) + 1, k)
    variances: np.ndarray  # (len(keys) + 1,)


@dataclass(frozen=True)
class CGParameters:
    """A conditional-Gaussian network's parameters.

    CPTs for the discrete nodes (over their discrete parents) and, for each continuous node,
    a regression on its continuous parents per configuration of its discrete parents.

    A configuration seen in at most ``k + 1`` rows at fit time (``k`` continuous parents), or
    never, is scored with the node's pooled regression on its continuous parents.
    """

    parents: tuple[np.ndarray, ...]
    discrete: np.ndarray
    log_cpts: tuple  # per node: (q, r) table for a discrete node, None otherwise
    regressions: tuple  # per node: _Regression for a continuous node, None otherwise

    def log_likelihood_rows(self, codes: np.ndarray, arities: np.ndarray, values) -> np.ndarray:
        """Log-likelihood of each row, given the codes and values of mixed data."""
        total = np.zeros(codes.shape[0])
        for j in range(len(self.parents)):
            total += self.family_log_likelihood_rows(j, codes, arities, values)
        return total

    def family_log_likelihood_rows(self, j: int, codes, arities, values) -> np.ndarray:
        """Log-density of node ``j`` given its parents, at each row."""
        if self.discrete[j]:
            index, _ = config_index(codes, self.parents[j], arities)
            return self.log_cpts[j][index, codes[:, j]]
        intercepts, coefficients, var = self.regression_rows(j, codes, arities)
        reg = self.regressions[j]
        mean = intercepts + np.einsum("ik,ik->i", values[:, reg.continuous_parents], coefficients)
        return -0.5 * (np.log(2 * math.pi * var) + (values[:, j] - mean) ** 2 / var)

    def to_network(self, names, states, name: str = "network") -> ConditionalGaussianNetwork:
        """The labelled conditional-Gaussian network.

        The discrete nodes' CPTs as for :meth:`DiscreteParameters.to_network`; each
        continuous node gets one regression per configuration of its discrete parents (C
        order over their axes), the pooled regression where a configuration had too few
        rows at fit time, as :meth:`log_likelihood_rows` scores it.
        """
        disc_nodes = np.flatnonzero(self.discrete)
        arities = [max(len(s), 1) for s in states]
        # the discrete part's parents are positions among its own nodes
        local = {int(j): k for k, j in enumerate(disc_nodes)}
        part = DiscreteParameters(
            tuple(
                np.array([local[int(u)] for u in self.parents[j]], dtype=np.int64)
                for j in disc_nodes
            ),
            tuple(self.log_cpts[j] for j in disc_nodes),
        )
        network = part.to_network(
            [names[j] for j in disc_nodes], [states[j] for j in disc_nodes], name=name
        )
        parents, intercepts, coefficients, variances = {}, {}, {}, {}
        for j in np.flatnonzero(~self.discrete).tolist():
            reg = self.regressions[j]
            shape = tuple(arities[u] for u in reg.discrete_parents)
            q = int(np.prod(shape, dtype=np.int64))
            row = np.full(q, len(reg.keys), dtype=np.int64)  # the pooled regression
            row[reg.keys] = np.arange(len(reg.keys))
            v = names[j]
            parents[v] = [names[u] for u in reg.discrete_parents] + [
                names[u] for u in reg.continuous_parents
            ]
            intercepts[v] = reg.intercepts[row].reshape(shape)
            coefficients[v] = reg.coefficients[row].reshape(shape + (len(reg.continuous_parents),))
            variances[v] = reg.variances[row].reshape(shape)
        return ConditionalGaussianNetwork(
            network, parents, intercepts, coefficients, variances, nodes=list(names), name=name
        )

    def regression_rows(self, j: int, codes, arities) -> tuple:
        """The regression of continuous node ``j`` that applies at each row.

        Returns the intercepts ``(n,)``, the coefficients on ``regressions[j]
        .continuous_parents`` ``(n, k)`` and the residual variances ``(n,)``, chosen by the
        row's configuration of the node's discrete parents.
        """
        reg = self.regressions[j]
        index, _ = config_index(codes, reg.discrete_parents, arities)
        pos = np.searchsorted(reg.keys, index)
        pos = np.minimum(pos, len(reg.keys))
        found = pos < len(reg.keys)
        found[found] = reg.keys[pos[found]] == index[found]
        row = np.where(found, pos, len(reg.keys))
        return reg.intercepts[row], reg.coefficients[row], reg.variances[row]


def _least_squares(X: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray, float]:
    """Intercept, coefficients and maximum-likelihood residual variance of y on X."""
    xm, ym = X.mean(axis=0), y.mean()
    Xc, yc = X - xm, y - ym
    beta = np.linalg.lstsq(Xc, yc, rcond=None)[0] if X.shape[1] else np.zeros(0)
    resid = yc - Xc @ beta
    return float(ym - xm @ beta), beta, float(resid @ resid / len(y))


def _shrunk(var: float, n: int, prior_var: float, iss: float) -> float:
    """Residual variance shrunk toward ``prior_var`` by ``iss`` pseudo-rows (0: maximum likelihood).

    The Gaussian counterpart of the CPTs' Dirichlet prior: ``(n var + iss prior) / (n + iss)``,
    the posterior mean of the variance with ``iss`` prior rows at the column's own variance.
    A family that its parents determine exactly on the training rows (a constant within a
    parent configuration, or ``e = 3 c + 1``) keeps a variance of about ``prior / n``, so a
    held-out row that deviates costs about ``n / 2`` nats per standard deviation squared
    instead of ``10^12``.
    """
    return (n * var + iss * prior_var) / (n + iss) if iss > 0 and n > 0 else var


def _fit_regressions(data: MixedData, j: int, pa: np.ndarray, iss: float = 0.0) -> _Regression:
    disc = pa[data.discrete[pa]]
    cont = pa[~data.discrete[pa]]
    k = len(cont)
    y = data.values[:, j]
    X = data.values[:, cont]
    index, _ = config_index(data.codes, disc, data.arities)
    keys, inverse, counts = np.unique(index, return_inverse=True, return_counts=True)
    prior = float(data.variances[j])
    floor = VARIANCE_FLOOR * max(prior, 1e-300)
    kept = np.flatnonzero(counts > k + 1)
    intercepts = np.empty(len(kept) + 1)
    coefficients = np.empty((len(kept) + 1, k))
    variances = np.empty(len(kept) + 1)
    for row, c in enumerate(kept):
        rows = inverse == c
        b0, beta, var = _least_squares(X[rows], y[rows])
        var = _shrunk(var, int(counts[c]), prior, iss)
        intercepts[row], coefficients[row], variances[row] = b0, beta, max(var, floor)
    b0, beta, var = _least_squares(X, y)
    var = _shrunk(var, len(y), prior, iss)
    intercepts[-1], coefficients[-1], variances[-1] = b0, beta, max(var, floor)
    return _Regression(disc, cont, keys[kept], intercepts, coefficients, variances)


def _cpt(codes, arities, j, pa, iss, per_cell=False):
    counts = family_counts(codes, arities, j, pa)
    q, r = counts.shape
    smoothed = counts + (iss if per_cell else iss / (q * r))
    totals = smoothed.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore"):
        # maximum likelihood: an unseen configuration has no data, so a uniform row
        probs = np.where(totals > 0, smoothed / np.where(totals > 0, totals, 1), 1 / r)
        return np.log(probs)


def fit_parameters(
    data: DiscreteData | GaussianData | MixedData,
    dag: np.ndarray,
    iss: float = CPT_PRIOR_ISS,
    per_cell: bool = False,
):
    """Estimate the parameters of the DAG ``dag`` (adjacency array) on ``data``.

    Discrete tables are posterior means under a Dirichlet prior of equivalent sample size
    ``iss`` spread uniformly over each family's ``q * r`` cells (BDeu's prior), or, with
    ``per_cell``, of ``iss`` pseudo-counts in every cell (Laplace's rule at 1, as
    scikit-learn's ``CategoricalNB(alpha)``); ``iss=0`` gives maximum likelihood, where a
    parent configuration never seen gets a uniform row.
    Continuous nodes get least-squares regressions on their parents (per configuration of
    their discrete parents in mixed data), with the residual variance shrunk toward the
    column's variance by ``iss`` pseudo-rows (:func:`_shrunk`; ``iss=0``: maximum likelihood).
    """
    p = dag.shape[0]
    indptr, indices = parents_csr(dag)
    parents = tuple(indices[indptr[j] : indptr[j + 1]] for j in range(p))
    if isinstance(data, MixedData):
        _check_cg_arcs(data, parents)
    if isinstance(data, (DiscreteData, MixedData)):
        _check_table_sizes(data, parents)
    if data.has_missing:
        return _fit_available_case(data, parents, iss, per_cell)
    if isinstance(data, DiscreteData):
        tables = [
            _cpt(data.codes, data.arities, j, pa, iss, per_cell) for j, pa in enumerate(parents)
        ]
        return DiscreteParameters(parents, tuple(tables))
    if isinstance(data, MixedData):
        tables = tuple(
            _cpt(data.codes, data.arities, j, pa, iss, per_cell) if data.discrete[j] else None
            for j, pa in enumerate(parents)
        )
        regressions = tuple(
            None if data.discrete[j] else _fit_regressions(data, j, pa, iss)
            for j, pa in enumerate(parents)
        )
        return CGParameters(parents, np.array(data.discrete), tables, regressions)
    fits = [
        _gaussian_family(data.means, data.covariance_block, j, pa, data.n_samples, iss)
        for j, pa in enumerate(parents)
    ]
    return _gaussian_parameters(parents, fits)


#: Bytes a discrete table's cell takes while it is fitted: its counts, the smoothed and
#: normalised copies and the logs kept.
_TABLE_CELL_BYTES = 32


def _check_table_sizes(data, parents) -> None:
    """Refuse, before counting, tables that would not fit in the machine's memory.

    A table holds a row per configuration of the parents and a column per state, dense, so
    two high-cardinality columns (30,000 states each) make one of 900 million cells.
    """
    discrete = getattr(data, "discrete", np.ones(data.n_features, dtype=bool))
    arities = data.arities
    cells = [
        float(np.prod(arities[pa].astype(float))) * float(arities[j]) if discrete[j] else 0.0
        for j, pa in enumerate(parents)
    ]
    largest = int(np.argmax(cells)) if cells else 0
    names = data.names
    check_allocation(
        _TABLE_CELL_BYTES * sum(cells),
        f"The parameter tables ({sum(cells):.3g} cells; the largest, of "
        f"{names[largest]!r} given {[names[k] for k in parents[largest]]}, "
        f"{cells[largest]:.3g} for {[int(arities[k]) for k in parents[largest]]} parent "
        f"states and {int(arities[largest])} of its own)",
        "drop or bin the high-cardinality columns (identifiers?)",
    )


def _check_cg_arcs(data: MixedData, parents) -> None:
    bad = [
        (data.names[int(u)], data.names[j])
        for j, pa in enumerate(parents)
        if data.discrete[j]
        for u in pa
        if not data.discrete[u]
    ]
    if bad:
        raise ValueError(
            f"Arcs {bad[:5]} go from a continuous into a discrete column, which a "
            "conditional-Gaussian network cannot hold."
        )


def _gaussian_family(means, block, j, pa, n=0, iss=0.0) -> tuple[float, np.ndarray, float]:
    """Intercept, coefficients and residual variance of column ``j`` on the columns ``pa``.

    The variance is shrunk toward column ``j``'s by ``iss`` pseudo-rows out of ``n``.
    """
    B = block(np.append(pa, j))
    syy = B[-1, -1]
    if len(pa):
        beta = np.linalg.lstsq(B[:-1, :-1], B[:-1, -1], rcond=None)[0]
        var = syy - B[-1, :-1] @ beta
    else:
        beta = np.zeros(0)
        var = syy
    var = _shrunk(var, n, syy, iss)
    return float(means[j] - means[pa] @ beta), beta, max(var, 1e-12 * max(syy, 1e-300), 1e-300)


def _gaussian_parameters(parents, fits) -> GaussianParameters:
    intercepts = np.array([f[0] for f in fits])
    variances = np.array([f[2] for f in fits])
    return GaussianParameters(parents, intercepts, tuple(f[1] for f in fits), variances)


def _fit_available_case(data, parents, iss, per_cell=False):
    """Each family's parameters from the rows that observe the node and all its parents.

    The maximum-likelihood (or Dirichlet posterior mean) estimates of the available-case
    scores: consistent when values are missing completely at random.
    """
    subsets = []
    for j, pa in enumerate(parents):
        family = np.append(j, pa).astype(np.int64)
        subsets.append(data.take(data.complete_rows(family), family))
    local = [np.arange(1, len(pa) + 1, dtype=np.int64) for pa in parents]
    if isinstance(data, DiscreteData):
        tables = [
            _cpt(sub.codes, sub.arities, 0, pa, iss, per_cell) for sub, pa in zip(subsets, local)
        ]
        return DiscreteParameters(parents, tuple(tables))
    if isinstance(data, GaussianData):
        fits = [
            _gaussian_family(sub.means, sub.covariance_block, 0, pa, sub.n_samples, iss)
            for sub, pa in zip(subsets, local)
        ]
        return _gaussian_parameters(parents, fits)
    tables, regressions = [], []
    for j, (sub, pa) in enumerate(zip(subsets, local)):
        if data.discrete[j]:
            tables.append(_cpt(sub.codes, sub.arities, 0, pa, iss, per_cell))
            regressions.append(None)
        else:
            fit = _fit_regressions(sub, 0, pa, iss)
            family = np.append(j, parents[j]).astype(np.int64)
            tables.append(None)
            regressions.append(
                replace(
                    fit,
                    discrete_parents=family[fit.discrete_parents],
                    continuous_parents=family[fit.continuous_parents],
                )
            )
    return CGParameters(parents, np.array(data.discrete), tuple(tables), tuple(regressions))
