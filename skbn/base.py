# SPDX-License-Identifier: BSD-3-Clause
"""The base of every structure learner: validation, feature names, graph and parameters.

A learner subclasses :class:`BaseStructureLearner` and implements ``_learn(data)``, returning
an adjacency array and its kind. The base class validates parameters and data, converts the
result to ``graph_`` (a networkx DiGraph over the feature names), fits the network's
parameters, and provides ``score_samples``/``score`` so that scikit-learn's model selection
tools can compare learners by held-out log-likelihood.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from skbn._parameters import DiscreteParameters, fit_parameters
from skbn.data import DiscreteData, check_data
from skbn.graph._array import pdag_to_dag_array, topological_sort_array
from skbn.graph._convert import from_adjacency
from skbn.scores import BIC, GaussianBIC, Score
from skbn.utils._param_validation import validate_params_of

__all__ = ["BaseStructureLearner", "edge_constraint_matrix"]


def edge_constraint_matrix(edges, names, what: str) -> np.ndarray | None:
    """Boolean ``(p, p)`` matrix of the arcs named by ``edges``, or None if ``edges`` is None.

    ``edges`` may be an iterable of ``(u, v)`` pairs, a networkx DiGraph over (a subset of) the
    names, or a ``(p, p)`` array in column order.
    """
    if edges is None:
        return None
    p = len(names)
    index = {name: j for j, name in enumerate(names)}
    if isinstance(edges, np.ndarray):
        M = np.asarray(edges) != 0
        if M.shape != (p, p):
            raise ValueError(f"{what} as an array must have shape ({p}, {p}), got {M.shape}.")
        np.fill_diagonal(M, False)
        return M
    pairs = list(edges.edges()) if isinstance(edges, nx.Graph) else list(edges)
    M = np.zeros((p, p), dtype=bool)
    unknown = []
    for pair in pairs:
        try:
            u, v = pair
        except (TypeError, ValueError):
            raise ValueError(f"{what} must hold (parent, child) pairs, got {pair!r}.") from None
        if u not in index or v not in index:
            unknown.append((u, v))
            continue
        if u == v:
            raise ValueError(f"{what} contains the self-loop ({u!r}, {v!r}).")
        M[index[u], index[v]] = True
    if unknown:
        raise ValueError(
            f"{what} names variables that are not columns of X: {unknown[:5]}. "
            "Use the column names of the data (x0, x1, ... for arrays)."
        )
    return M


class BaseStructureLearner(BaseEstimator):
    """Base class of skbn's structure learners (not for direct use).

    Subclasses implement ``_learn(data, prepared) -> (adjacency, kind)`` (``prepared`` is what
    ``_prepare(data)`` returned after checking data-dependent parameters) and, for score-based
    methods,
    expose a ``criterion`` parameter (a :class:`~skbn.scores.Score`, or None for BIC on
    discrete data and GaussianBIC on continuous data). The parameter is not called ``score``
    because that name is the ``score(X)`` method scikit-learn's model selection calls.
    """

    _parameter_constraints: dict = {}

    # -- fitting -----------------------------------------------------------------------------

    def _kind_source(self):
        """Return the parameter object (score or CI test) that decides the data kind."""
        return getattr(self, "criterion", None)

    def _data_kind(self) -> str:
        source = self._kind_source()
        return getattr(source, "data_kind", "auto") if source is not None else "auto"

    def _resolved_score(self, data) -> Score:
        score = getattr(self, "criterion", None)
        if score is None:
            return BIC() if isinstance(data, DiscreteData) else GaussianBIC()
        return score

    def fit(self, X, y=None):
        """Learn the structure from ``X`` and fit the network's parameters.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Discrete (categorical/object/bool/integer columns) or continuous (float columns)
            data; column names become node names.
        y : None
            Ignored; present for scikit-learn compatibility.

        Returns
        -------
        self
        """
        validate_params_of(self)
        kind = self._data_kind()
        try:
            data = check_data(X, kind=kind)
        except ValueError as exc:
            if kind == "auto":
                raise
            source = self._kind_source()
            who = type(self).__name__ + ("" if source is None else f" with {source!r}")
            raise ValueError(f"{who} needs {kind} data: {exc}") from None
        prepared = self._prepare(data)
        A, graph_kind = self._learn(data, prepared)
        self.feature_names_in_ = np.asarray(data.names, dtype=object)
        self.data_kind_ = data.kind
        self.n_features_in_ = data.n_features
        self.graph_ = from_adjacency(A, data.names, kind=graph_kind)
        dag = A if graph_kind == "dag" else pdag_to_dag_array(A)
        self.parameters_ = None if dag is None else fit_parameters(data, dag)
        self._states = data.states if isinstance(data, DiscreteData) else None
        return self

    def _prepare(self, data):
        """Check what needs the data (e.g. constraint names) before any work.

        The return value is handed to ``_learn``.
        """
        return None

    def _learn(self, data, prepared):  # pragma: no cover - abstract
        raise NotImplementedError

    # -- density ----------------------------------------------------------------------------

    def _encode_like_fit(self, X):
        """Encode X with the fit-time columns and (for discrete data) state labels."""
        names = list(self.feature_names_in_)
        if isinstance(X, pd.DataFrame):
            columns = [str(c) for c in X.columns]
            if columns != names:
                raise ValueError(
                    "The feature names should match those that were passed during fit. "
                    f"Expected {names[:8]}{'...' if len(names) > 8 else ''}, "
                    f"got {columns[:8]}{'...' if len(columns) > 8 else ''}."
                )
            frame = X
        else:
            arr = np.asarray(X)
            if arr.ndim != 2:
                raise ValueError(
                    f"Expected 2-D data, got an array with {arr.ndim} dimension(s); reshape "
                    "a single row with X.reshape(1, -1)."
                )
            if arr.shape[1] != len(names):
                raise ValueError(
                    f"X has {arr.shape[1]} features, but {type(self).__name__} is expecting "
                    f"{len(names)} features as input."
                )
            frame = pd.DataFrame({n: arr[:, j] for j, n in enumerate(names)})
        if self._states is None:
            values = frame.to_numpy(dtype=np.float64) if len(frame) else np.zeros((0, len(names)))
            if not np.all(np.isfinite(values)):
                raise ValueError("X contains NaN or infinite values.")
            return values
        codes = np.empty((len(frame), len(names)), dtype=np.int32, order="F")
        for j, name in enumerate(names):
            column = frame.iloc[:, j]
            if column.isna().any():
                raise ValueError(f"Column {name!r} contains missing values (NaN/None).")
            found = pd.Index(list(self._states[j])).get_indexer(column.to_numpy(dtype=object))
            unseen = column[found < 0]
            if len(unseen):
                raise ValueError(
                    f"Column {name!r} has values not seen during fit: "
                    f"{sorted(map(str, set(unseen)))[:5]}; the fitted states are "
                    f"{list(map(str, self._states[j]))[:10]}."
                )
            codes[:, j] = found
        return codes

    def score_samples(self, X) -> np.ndarray:
        """Log-likelihood of each row under the fitted network.

        Discrete parameters are CPTs smoothed with a Dirichlet prior of equivalent sample
        size 1 spread over each table, so unseen configurations keep a finite likelihood;
        Gaussian ones are least-squares regressions on the parents. A CPDAG is evaluated
        through a consistent DAG extension (all extensions give the same likelihood).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Same columns as in ``fit``.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self, "graph_")
        if self.parameters_ is None:
            raise ValueError(
                "The learned PDAG has no consistent DAG extension, so it defines no "
                "distribution to score samples with."
            )
        encoded = self._encode_like_fit(X)
        if isinstance(self.parameters_, DiscreteParameters):
            arities = np.array([len(s) for s in self._states], dtype=np.int64)
            return self.parameters_.log_likelihood_rows(encoded, arities)
        return self.parameters_.log_likelihood_rows(encoded)

    def score(self, X, y=None) -> float:
        """Mean log-likelihood of the rows of ``X`` (higher is better).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
        y : None
            Ignored.

        Returns
        -------
        float
        """
        return float(np.mean(self.score_samples(X)))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        tags.target_tags.required = False
        return tags


def check_required_acyclic(required: np.ndarray | None, names) -> None:
    """Refuse required arcs that form a directed cycle."""
    if required is not None and topological_sort_array(required.astype(np.int8)) is None:
        raise ValueError("required_edges contain a directed cycle; no DAG can include them all.")
