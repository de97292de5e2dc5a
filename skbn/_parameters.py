# SPDX-License-Identifier: BSD-3-Clause
"""Parameters of a fitted network: CPTs (discrete) or linear-Gaussian regressions.

They make a structure learner a density estimator: ``score_samples(X)`` is the log-likelihood
of each row, so ``GridSearchCV`` can compare structures by held-out likelihood.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import sparse

from skbn._kernels.discrete import config_index, family_counts
from skbn.data import DiscreteData, GaussianData
from skbn.datasets._gaussian import LinearGaussianNetwork
from skbn.datasets._network import DiscreteBayesianNetwork
from skbn.graph._array import parents_csr

__all__ = ["DiscreteParameters", "GaussianParameters", "fit_parameters"]

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


def fit_parameters(data: DiscreteData | GaussianData, dag: np.ndarray, iss: float = CPT_PRIOR_ISS):
    """Estimate the parameters of the DAG ``dag`` (adjacency array) on ``data``.

    Discrete tables are posterior means under a Dirichlet prior of equivalent sample size
    ``iss`` spread uniformly over each family's ``q * r`` cells (BDeu's prior); ``iss=0``
    gives maximum likelihood, where a parent configuration never seen gets a uniform row.
    """
    p = dag.shape[0]
    indptr, indices = parents_csr(dag)
    parents = tuple(indices[indptr[j] : indptr[j + 1]] for j in range(p))
    if isinstance(data, DiscreteData):
        tables = []
        for j, pa in enumerate(parents):
            counts = family_counts(data.codes, data.arities, j, pa)
            q, r = counts.shape
            smoothed = counts + iss / (q * r)
            totals = smoothed.sum(axis=1, keepdims=True)
            with np.errstate(divide="ignore"):
                # maximum likelihood: an unseen configuration has no data, so a uniform row
                probs = np.where(totals > 0, smoothed / np.where(totals > 0, totals, 1), 1 / r)
                tables.append(np.log(probs))
        return DiscreteParameters(parents, tuple(tables))
    means = data.means
    block = data.covariance_block
    intercepts = np.empty(len(parents))
    variances = np.empty(len(parents))
    coefficients = []
    for j, pa in enumerate(parents):
        B = block(np.append(pa, j))
        syy = B[-1, -1]
        if len(pa):
            beta = np.linalg.lstsq(B[:-1, :-1], B[:-1, -1], rcond=None)[0]
            var = syy - B[-1, :-1] @ beta
        else:
            beta = np.zeros(0)
            var = syy
        coefficients.append(beta)
        intercepts[j] = means[j] - means[pa] @ beta
        variances[j] = max(var, 1e-12 * max(syy, 1e-300), 1e-300)
    return GaussianParameters(parents, intercepts, tuple(coefficients), variances)
