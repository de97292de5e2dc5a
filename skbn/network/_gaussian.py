# SPDX-License-Identifier: BSD-3-Clause
"""Linear-Gaussian networks: a DAG with a linear regression per node."""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx
import numpy as np
import pandas as pd
from scipy import sparse
from sklearn.utils import check_random_state

from skbn.graph._array import arcs_of, topological_sort_array
from skbn.network._discrete import _check_n_samples

__all__ = ["LinearGaussianNetwork"]


def _arcs_of(dag, nodes=None) -> tuple[np.ndarray, np.ndarray, list]:
    """``(rows, cols, nodes)`` of a networkx DiGraph, a dense array or a sparse matrix."""
    if isinstance(dag, nx.Graph):
        names = list(dag.nodes) if nodes is None else list(nodes)
        index = {v: k for k, v in enumerate(names)}
        pairs = np.array([(index[u], index[v]) for u, v in dag.edges()], dtype=np.int64)
        pairs = pairs.reshape(-1, 2)
        return pairs[:, 0], pairs[:, 1], names
    M = sparse.coo_array(dag) if sparse.issparse(dag) else np.asarray(dag)
    if M.ndim != 2 or M.shape[0] != M.shape[1]:
        raise ValueError(f"Expected a square adjacency matrix, got shape {M.shape}.")
    rows, cols = arcs_of(M)
    names = [f"x{j}" for j in range(M.shape[0])] if nodes is None else list(nodes)
    if len(names) != M.shape[0]:
        raise ValueError(f"{len(names)} node names for a {M.shape[0]}-node graph.")
    return rows, cols, names


class LinearGaussianNetwork:
    """A linear-Gaussian SEM: ``X_j = b_j + sum_i W[i, j] X_i + noise_std[j] * N(0, 1)``.

    Parameters
    ----------
    weights : array-like or scipy sparse matrix of shape (p, p)
        ``weights[i, j]`` is the coefficient of the arc ``i -> j`` (0 where there is no arc);
        its non-zero pattern must be a DAG. Stored sparse, so memory grows with the arcs.
    noise_std : array-like of shape (p,)
        Standard deviations of the independent Gaussian noises (non-negative).
    nodes : sequence of str, optional
        Node names, default ``x0, ..., x{p-1}``.
    intercepts : array-like of shape (p,), optional
        The constants ``b_j``; zero by default. A network fitted on data
        (:func:`skbn.parameters.fit_network`) has the intercepts of its regressions.

    Attributes
    ----------
    weights : scipy.sparse.csc_array of shape (p, p)
        The coefficients (``weights.toarray()`` for a dense copy).
    graph : networkx.DiGraph
        The DAG of the non-zero weights.

    Examples
    --------
    >>> import numpy as np
    >>> sem = LinearGaussianNetwork(np.array([[0.0, 2.0], [0.0, 0.0]]), [1.0, 1.0], ["a", "b"])
    >>> sem.covariance
    array([[1., 2.],
           [2., 5.]])
    """

    def __init__(
        self, weights, noise_std, nodes: Sequence[str] | None = None, intercepts=None
    ) -> None:
        if sparse.issparse(weights):
            W = sparse.csc_array(weights, dtype=np.float64)
        else:
            dense = np.array(weights, dtype=np.float64)
            if dense.ndim != 2 or dense.shape[0] != dense.shape[1]:
                raise ValueError(f"weights must be a square matrix, got shape {dense.shape}.")
            W = sparse.csc_array(dense)
        W.eliminate_zeros()
        W.sort_indices()
        p = W.shape[0]
        if not np.all(np.isfinite(W.data)):
            raise ValueError("weights must be finite.")
        sd = np.asarray(noise_std, dtype=np.float64)
        if sd.shape != (p,) or np.any(sd < 0) or not np.all(np.isfinite(sd)):
            raise ValueError(f"noise_std must hold {p} finite non-negative numbers.")
        names = [f"x{j}" for j in range(p)] if nodes is None else list(nodes)
        if len(names) != p:
            raise ValueError(f"{len(names)} node names for a {p}-node model.")
        order = topological_sort_array(W)
        if order is None:
            raise ValueError("The non-zero weights form a directed cycle; a SEM needs a DAG.")
        if intercepts is None:
            b = np.zeros(p)
        else:
            b = np.array(intercepts, dtype=np.float64)
            if b.shape != (p,) or not np.all(np.isfinite(b)):
                raise ValueError(f"intercepts must hold {p} finite numbers.")
        sd.setflags(write=False)
        b.setflags(write=False)
        self.intercepts = b
        self.weights = W
        self.noise_std = sd
        self.nodes = names
        self._order = order

    @property
    def graph(self) -> nx.DiGraph:
        """The DAG of the model (a new object on each access)."""
        rows, cols = self.weights.nonzero()
        g = nx.DiGraph(kind="dag")
        g.add_nodes_from(self.nodes)
        g.add_edges_from(
            (self.nodes[u], self.nodes[v]) for u, v in zip(rows.tolist(), cols.tolist())
        )
        return g

    @property
    def means(self) -> np.ndarray:
        """The implied means ``(I - W)^-T b`` (zero without intercepts)."""
        if not np.any(self.intercepts):
            return np.zeros(len(self.nodes))
        W = self.weights
        mu = np.array(self.intercepts)
        for j in self._order.tolist():  # a node's parents come before it
            lo, hi = W.indptr[j], W.indptr[j + 1]
            mu[j] += mu[W.indices[lo:hi]] @ W.data[lo:hi]
        return mu

    @property
    def parents(self) -> dict:
        """The parents of each node, as a dict of tuples of names."""
        W = self.weights
        return {
            v: tuple(self.nodes[i] for i in W.indices[W.indptr[j] : W.indptr[j + 1]].tolist())
            for j, v in enumerate(self.nodes)
        }

    def log_likelihood(self, X) -> np.ndarray:
        """Log-density of each row of ``X`` under the model.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, p)
            Columns in node order (a DataFrame's columns must be the node names).

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        values = _rows_of(X, self.nodes)
        W = self.weights
        total = np.zeros(values.shape[0])
        for j in range(len(self.nodes)):
            lo, hi = W.indptr[j], W.indptr[j + 1]
            mean = self.intercepts[j] + values[:, W.indices[lo:hi]] @ W.data[lo:hi]
            var = self.noise_std[j] ** 2
            if var == 0:
                raise ValueError(f"Node {self.nodes[j]!r} has no noise; its density is degenerate.")
            total += -0.5 * (np.log(2 * np.pi * var) + (values[:, j] - mean) ** 2 / var)
        return total

    @property
    def covariance(self) -> np.ndarray:
        """The implied covariance ``(I - W)^-T diag(noise_std^2) (I - W)^-1`` (dense, p x p)."""
        inv = np.linalg.inv(np.eye(len(self.nodes)) - self.weights.toarray())
        return inv.T @ np.diag(self.noise_std**2) @ inv

    def sample(
        self, n_samples: int, random_state=None, *, standardize: bool = False
    ) -> pd.DataFrame:
        """Draw rows from the SEM, visiting nodes in topological order.

        Parameters
        ----------
        n_samples : int
        random_state : int, RandomState instance or None, default=None
        standardize : bool, default=False
            Rescale every column of the sample to mean 0 and standard deviation 1 (as the
            Auto-SLE paper does, so that the variance does not reveal the causal order).

        Returns
        -------
        DataFrame of shape (n_samples, p), float64 columns named after the nodes.
        """
        n = _check_n_samples(n_samples)
        rng = check_random_state(random_state)
        p = len(self.nodes)
        X = np.empty((n, p), order="F")
        # the noise of node j is the j-th block of n draws (one draw of shape (p, n) gives
        # the same numbers), written in place so no (p, n) matrix is held
        for j in range(p):
            X[:, j] = rng.standard_normal(n) * self.noise_std[j] + self.intercepts[j]
        W = self.weights
        for j in self._order.tolist():
            lo, hi = W.indptr[j], W.indptr[j + 1]
            if hi > lo:
                X[:, j] += X[:, W.indices[lo:hi]] @ W.data[lo:hi]
        if standardize:  # in place: at 100,000 columns every copy costs as much as X
            X -= X.mean(axis=0)
            sd = np.sqrt(np.einsum("ij,ij->j", X, X) / n)
            X /= np.where(sd > 0, sd, 1.0)
        return pd.DataFrame(X, columns=self.nodes, copy=False)

    def query(self, targets, evidence=None):
        """Posterior mean and covariance of ``targets``: :func:`skbn.inference.query`.

        Parameters
        ----------
        targets : str or list of str
        evidence : dict, DataFrame or None, default=None
            ``{node: value}``, or one evidence row per case (missing cells unobserved).

        Returns
        -------
        GaussianPosterior
        """
        from skbn.inference import query

        return query(self, targets, evidence)

    def do(self, interventions):
        """The network after ``do(node = value)``: :func:`skbn.inference.intervene`.

        Parameters
        ----------
        interventions : dict
            ``{node: number}``.

        Returns
        -------
        LinearGaussianNetwork
            The intervened network (this one is not changed).
        """
        from skbn.inference import intervene

        return intervene(self, interventions)

    def __repr__(self) -> str:
        return f"LinearGaussianNetwork(n_nodes={len(self.nodes)}, n_arcs={int(self.weights.nnz)})"


def _rows_of(X, nodes) -> np.ndarray:
    if isinstance(X, pd.DataFrame):
        columns = [str(c) for c in X.columns]
        if columns != list(nodes):
            raise ValueError(
                f"X's columns must be the network's nodes in order: expected {list(nodes)[:8]}, "
                f"got {columns[:8]}."
            )
    values = np.asarray(X, dtype=np.float64)
    if values.ndim != 2 or values.shape[1] != len(nodes):
        raise ValueError(f"X must have shape (n_samples, {len(nodes)}), got {values.shape}.")
    if not np.all(np.isfinite(values)):
        raise ValueError("X contains NaN or infinite values.")
    return values
