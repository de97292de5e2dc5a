# SPDX-License-Identifier: BSD-3-Clause
"""Exact posteriors of a linear-Gaussian network: the conditional of its joint normal."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.linalg

from skbn.network._gaussian import LinearGaussianNetwork
from skbn.utils._memory import check_allocation

__all__ = ["GaussianPosterior", "gaussian_query"]


@dataclass(frozen=True)
class GaussianPosterior:
    """The normal distribution of the targets given the evidence.

    Parameters
    ----------
    mean : Series or DataFrame
        The posterior means: a Series over the targets for one evidence row, a DataFrame
        (evidence rows by targets) for a batch.
    covariance : DataFrame or ndarray
        The posterior covariance: a targets-by-targets DataFrame for one evidence row, an
        array of shape ``(n_rows, k, k)`` for a batch (rows with the same observed nodes
        share it).

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from skbn.network import LinearGaussianNetwork
    >>> # x -> y with weight 2: y = 2 x + noise, noise sd 1, x standard normal
    >>> net = LinearGaussianNetwork(sp.csc_array([[0.0, 2.0], [0.0, 0.0]]), [1.0, 1.0], ["x", "y"])
    >>> post = net.query("x", {"y": 1.0})
    >>> float(round(post.mean["x"], 3)), float(round(post.std["x"], 3))
    (0.4, 0.447)
    """

    mean: pd.Series | pd.DataFrame
    covariance: pd.DataFrame | np.ndarray

    @property
    def std(self) -> pd.Series | pd.DataFrame:
        """The posterior standard deviation of each target."""
        cov = self.covariance
        if isinstance(cov, pd.DataFrame):
            return pd.Series(np.sqrt(np.diag(cov.to_numpy())), index=cov.index, name="std")
        sd = np.sqrt(np.einsum("nkk->nk", cov))
        return pd.DataFrame(sd, index=self.mean.index, columns=self.mean.columns)


def _moments(network: LinearGaussianNetwork) -> tuple[np.ndarray, np.ndarray]:
    p = len(network.nodes)
    check_allocation(
        16.0 * p * p,
        f"The joint covariance of {p} Gaussian nodes",
        "query a smaller network (exact Gaussian inference holds the p x p covariance)",
    )
    return network.means, network.covariance


def gaussian_query(network: LinearGaussianNetwork, targets, evidence=None) -> GaussianPosterior:
    """Posterior of ``targets`` given evidence; see :func:`skbn.inference.query`."""
    names = [targets] if isinstance(targets, str) else [str(v) for v in targets]
    index = {v: k for k, v in enumerate(network.nodes)}
    unknown = [v for v in names if v not in index]
    if not names or unknown or len(set(names)) != len(names):
        raise ValueError(
            "targets must name distinct nodes of the network; "
            f"{'unknown: ' + str(unknown[:8]) if unknown else 'got ' + str(names)}."
        )
    batched = isinstance(evidence, pd.DataFrame)
    if evidence is None:
        evidence = {}
    if batched:
        frame = evidence.set_axis([str(c) for c in evidence.columns], axis=1)
    elif isinstance(evidence, dict):
        frame = pd.DataFrame({str(k): [v] for k, v in evidence.items()})
        if frame.shape[1] == 0:
            frame = pd.DataFrame(index=[0])
    else:
        raise TypeError(
            "evidence must be a dict {node: value}, a DataFrame of evidence rows (missing "
            f"cells unobserved) or None, got {type(evidence).__name__}."
        )
    unknown = [v for v in frame.columns if v not in index]
    if unknown:
        raise ValueError(f"The evidence names nodes the network does not have: {unknown[:8]}.")
    try:
        values = frame.to_numpy(dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("Evidence on a Gaussian network must be numbers.") from None
    if np.isinf(values).any():
        raise ValueError("The evidence holds infinite values.")
    mu, sigma = _moments(network)
    t = np.array([index[v] for v in names])
    observed = ~np.isnan(values)
    cols = np.array([index[v] for v in frame.columns], dtype=np.int64)
    n, k = len(frame), len(names)
    means = np.empty((n, k))
    covs = np.empty((n, k, k))
    patterns, inverse = np.unique(observed, axis=0, return_inverse=True)
    for g, pattern in enumerate(patterns):
        rows = np.flatnonzero(inverse.ravel() == g)
        given = np.flatnonzero(pattern)
        constant = np.diag(sigma)[cols[given]] <= 0
        if constant.any():
            # a node set by do() (no variance): observing it adds nothing, unless it
            # contradicts the value it was set to
            fixed = cols[given[constant]]
            seen = values[np.ix_(rows, given[constant])]
            if not np.allclose(seen, mu[fixed], rtol=1e-12, atol=1e-12):
                raise ValueError(
                    f"The evidence on {[network.nodes[j] for j in fixed][:4]} differs from "
                    "the value the network holds them at (a node set by do() has no "
                    "variance); the evidence has probability 0."
                )
            given = given[~constant]
            pattern = np.zeros_like(pattern)
            pattern[given] = True
        e = cols[pattern]
        if len(e) == 0:
            means[rows] = mu[t]
            covs[rows] = sigma[np.ix_(t, t)]
            continue
        # Sigma_TE Sigma_EE^-1 by a Cholesky solve (Sigma_EE is positive definite)
        factor = scipy.linalg.cho_factor(sigma[np.ix_(e, e)])
        gain = scipy.linalg.cho_solve(factor, sigma[np.ix_(e, t)]).T
        shift = values[np.ix_(rows, np.flatnonzero(pattern))] - mu[e]
        means[rows] = mu[t] + shift @ gain.T
        covs[rows] = sigma[np.ix_(t, t)] - gain @ sigma[np.ix_(e, t)]
    if batched:
        return GaussianPosterior(pd.DataFrame(means, index=evidence.index, columns=names), covs)
    return GaussianPosterior(
        pd.Series(means[0], index=names, name="mean"),
        pd.DataFrame(covs[0], index=names, columns=names),
    )
