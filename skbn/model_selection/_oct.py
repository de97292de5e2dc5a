# SPDX-License-Identifier: BSD-3-Clause
"""OCT: out-of-sample causal tuning by Markov-blanket predictions (Biza et al.)."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import clone
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from sklearn.model_selection import KFold
from sklearn.utils import check_random_state

from skbn.data import check_data
from skbn.model_selection._base_search import StructureSelection
from skbn.utils._features import record_features
from skbn.utils._numeric import mutual_information_of_joints
from skbn.utils._parallel import N_JOBS_CONSTRAINT, parallel_map
from skbn.utils._param_validation import HasMethods, Interval
from skbn.utils._random import draw_seed

__all__ = ["OCTSearchCV", "markov_blankets", "prediction_mutual_information"]


def markov_blankets(A: np.ndarray) -> list[np.ndarray]:
    """List the Markov blanket of every node of a DAG, CPDAG or PDAG adjacency ``A``.

    Parents, children, undirected neighbours, and the other parents of the children.

    Parameters
    ----------
    A : array-like of shape (p, p)
        ``A[i, j] = 1`` for an arc ``i -> j`` (both halves for an undirected edge).

    Returns
    -------
    list of ndarray
        The blanket of each node, as positions.

    Examples
    --------
    >>> A = np.array([[0, 0, 1], [0, 0, 1], [0, 0, 0]])  # a -> c <- b
    >>> [mb.tolist() for mb in markov_blankets(A)]
    [[1, 2], [0, 2], [0, 1]]
    """
    A = np.asarray(A) != 0
    directed = A & ~A.T
    blankets = []
    for v in range(A.shape[0]):
        members = A[:, v] | A[v, :]
        for c in np.flatnonzero(directed[v]):
            members |= directed[:, c]
        members[v] = False
        blankets.append(np.flatnonzero(members))
    return blankets


def _mi_discrete_rows(y: np.ndarray, yhat: np.ndarray) -> np.ndarray:
    """Plug-in mutual information (nats) between ``y`` and each row of ``yhat``."""
    yhat = np.atleast_2d(yhat)
    r, k = int(y.max()) + 1, int(yhat.max()) + 1
    n = y.shape[0]
    rows = np.repeat(np.arange(yhat.shape[0]), n)
    joint = (
        np.bincount(
            rows * (r * k) + np.tile(y, yhat.shape[0]) * k + yhat.ravel(),
            minlength=yhat.shape[0] * r * k,
        ).reshape(yhat.shape[0], r, k)
        / n
    )
    return mutual_information_of_joints(joint)


def _mi_discrete_swapped(y: np.ndarray, a: np.ndarray, b: np.ndarray, swaps):
    """``_mi_discrete_rows`` of ``np.where(swaps, b, a)`` and of ``np.where(swaps, a, b)``.

    Neither set of swapped rows is built. A swapped row's joint table is the table of
    ``(y, a)`` plus, at every swapped position, the indicator of ``(y, b)`` minus that of
    ``(y, a)``; the reverse swap subtracts the same difference from the table of ``(y, b)``.
    One matrix product gives the differences for all rows at once. ``swaps`` is the float32
    0/1 matrix of shape ``(n_permutations, n)``; the counts are whole numbers below 2**24 in
    float32, so they are exact.
    """
    n = y.shape[0]
    r = int(y.max()) + 1
    k = int(max(a.max(), b.max())) + 1
    rows = np.arange(n)
    with_a = np.zeros((n, r * k), dtype=np.float32)
    with_b = np.zeros((n, r * k), dtype=np.float32)
    with_a[rows, y * k + a] = 1.0
    with_b[rows, y * k + b] = 1.0
    moved = swaps @ (with_b - with_a)

    def mi(counts):
        return mutual_information_of_joints(
            np.rint(counts).astype(np.float64).reshape(-1, r, k) / n
        )

    return mi(with_a.sum(axis=0) + moved), mi(with_b.sum(axis=0) - moved)


def _mi_gaussian_rows(y: np.ndarray, yhat: np.ndarray) -> np.ndarray:
    """Gaussian mutual information ``-log(1 - rho^2) / 2`` of ``y`` with each row of yhat."""
    yhat = np.atleast_2d(yhat)
    yc = y - y.mean()
    hc = yhat - yhat.mean(axis=1, keepdims=True)
    denom = np.sqrt((yc**2).sum() * (hc**2).sum(axis=1))
    rho = np.divide(hc @ yc, denom, out=np.zeros(yhat.shape[0]), where=denom > 0)
    return -0.5 * np.log1p(-np.minimum(rho**2, 1 - 1e-15))


def prediction_mutual_information(y, yhat, discrete: bool) -> float:
    """Compute OCT's predictive performance: mutual information of values and predictions.

    Plug-in estimate on codes for discrete variables; the Gaussian formula from the
    correlation for continuous ones. Constant predictions carry no information (0).

    Parameters
    ----------
    y : array-like of shape (n,)
        Observed values (codes for discrete variables).
    yhat : array-like of shape (n,)
        Predictions.
    discrete : bool
        Whether the variable is discrete.

    Returns
    -------
    float
        In nats.

    Examples
    --------
    >>> y = np.array([0, 1, 0, 1])
    >>> round(prediction_mutual_information(y, y, discrete=True), 4)  # log 2
    0.6931
    """
    y, yhat = np.asarray(y), np.asarray(yhat)
    rows = _mi_discrete_rows if discrete else _mi_gaussian_rows
    return float(rows(y, yhat[None, :])[0])


def _predict_node(predictor, values, train, test, node, blanket, discrete):
    y_train = values[train, node]
    if len(blanket) == 0:
        if discrete:
            counts = np.bincount(y_train.astype(np.int64))
            return np.full(len(test), int(np.argmax(counts)))
        return np.full(len(test), float(y_train.mean()))
    model = clone(predictor)
    X_train = values[np.ix_(train, blanket)]
    X_test = values[np.ix_(test, blanket)]
    if discrete:
        from sklearn.preprocessing import OneHotEncoder

        encoder = OneHotEncoder(handle_unknown="ignore").fit(X_train)
        X_train, X_test = encoder.transform(X_train), encoder.transform(X_test)
        if len(np.unique(y_train)) == 1:
            return np.full(len(test), int(y_train[0]))
    model.fit(X_train, y_train)
    return model.predict(X_test)


class OCTSearchCV(StructureSelection):
    """Out-of-sample Causal Tuning (Biza, Tsamardinos & Triantafillou), the OTSL baseline.

    For every configuration and each of ``cv`` folds, the learner is fitted on the training
    folds; each variable is then predicted on the held-out fold from its Markov blanket in
    the learned graph by a random forest (100 trees; classification for discrete data,
    regression for continuous). Predictions are pooled over folds and scored per variable by
    the mutual information between values and predictions (plug-in for discrete, Gaussian for
    continuous), averaged over variables.

    ``OCT`` picks the best average; with ``sparsity=True`` (``OCTs``, the authors' default),
    a permutation test (``n_permutations`` random swaps of the two configurations'
    predictions, level ``alpha``) finds the configurations not significantly worse than the
    best, and among those the one with the smallest mean Markov blanket wins.

    Parameters
    ----------
    estimator : structure learner
    param_grid : dict or list of dict
    cv : int, default=10
        Folds (shuffled with ``random_state``).
    predictor : estimator, default=None
        None means a random forest with 100 trees; otherwise a classifier (discrete data) or
        regressor (continuous data), cloned per variable and fold.
    sparsity : bool, default=True
    alpha : float, default=0.05
    n_permutations : int, default=1000
    refit : bool, default=True
    n_jobs : int, default=None
    random_state : int, RandomState instance or None, default=None

    Attributes
    ----------
    cv_results_ : dict
        ``params``, ``mean_mutual_information``, ``mean_blanket_size``, ``pvalue`` (against the
        best; 1 for the best), ``equivalent`` (not significantly worse).
    best_index_, best_params_, best_estimator_
    graph_ : networkx.DiGraph
    network_ : network
        The refitted configuration's fitted network.
    n_predictions_ : int
        Held-out predictions made: one per fold, variable and distinct blanket, shared
        by the configurations that give the variable that blanket in that fold; at most
        ``len(candidates) * cv * n_features_in_``.

    References
    ----------
    K. Biza, I. Tsamardinos and S. Triantafillou, "Tuning causal discovery algorithms",
    PGM 2020; "Out-of-sample tuning for causal discovery", IEEE TNNLS 2022.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from skbn.learners import PCStable
    >>> X = load_network("asia").sample(1000, random_state=0)
    >>> oct_ = OCTSearchCV(PCStable(), {"alpha": [0.001, 0.05]}, cv=3, n_permutations=100,
    ...                    random_state=0).fit(X)
    >>> oct_.best_params_["alpha"] in (0.001, 0.05)
    True
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit"])],
        "param_grid": [dict, list],
        "cv": [Interval(Integral, 2, None, closed="left")],
        "predictor": [HasMethods(["fit", "predict"]), None],
        "sparsity": ["boolean"],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
        "n_permutations": [Interval(Integral, 1, None, closed="left")],
        "refit": ["boolean"],
        "n_jobs": N_JOBS_CONSTRAINT,
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        estimator,
        param_grid,
        *,
        cv: int = 10,
        predictor=None,
        sparsity: bool = True,
        alpha: float = 0.05,
        n_permutations: int = 1000,
        refit: bool = True,
        n_jobs: int | None = None,
        random_state=None,
    ) -> None:
        self.estimator = estimator
        self.param_grid = param_grid
        self.cv = cv
        self.predictor = predictor
        self.sparsity = sparsity
        self.alpha = alpha
        self.n_permutations = n_permutations
        self.refit = refit
        self.n_jobs = n_jobs
        self.random_state = random_state

    def fit(self, X, y=None):
        """Tune ``estimator`` on ``X``.

        Parameters
        ----------
        X : DataFrame or array-like
        y : None
            Ignored.

        Returns
        -------
        self
        """
        candidates, data = self._start(X)
        if data is None:
            data = check_data(X)
        record_features(self, data.names, frame=X)
        discrete = data.kind == "discrete"
        values = data.codes if discrete else data.values
        n, p = data.n_samples, data.n_features
        if n < self.cv:
            raise ValueError(f"cv={self.cv} folds need at least {self.cv} rows; X has {n}.")
        rng = check_random_state(self.random_state)
        folds = list(KFold(self.cv, shuffle=True, random_state=draw_seed(rng)).split(values))
        forest_seed = draw_seed(rng)
        predictor = self.predictor
        if predictor is None:
            forest = RandomForestClassifier if discrete else RandomForestRegressor
            predictor = forest(n_estimators=100, random_state=forest_seed)
        jobs = [(c, f) for c in range(len(candidates)) for f in range(len(folds))]
        outcomes = self._fit_resamples(candidates, [train for train, _ in folds], data, "OCT fits")
        blankets = {job: markov_blankets(o.adjacency) for job, o in zip(jobs, outcomes)}
        # A variable's held-out predictions depend only on the fold, the variable and its
        # blanket, so each distinct triple is predicted once and shared by every
        # configuration that gives the variable that blanket (neighbouring penalties mostly
        # do); with a seeded predictor the result is the same as predicting per configuration.
        distinct: dict[tuple, int] = {}
        unique, slots = [], []
        for c, f in jobs:
            for v in range(p):
                blanket = blankets[c, f][v]
                key = (f, v, blanket.tobytes())
                if key not in distinct:
                    distinct[key] = len(unique)
                    unique.append((f, v, blanket))
                slots.append((c, f, v, distinct[key]))
        predictions = parallel_map(
            lambda u: _predict_node(
                predictor, values, folds[u[0]][0], folds[u[0]][1], u[1], u[2], discrete
            ),
            unique,
            n_jobs=self.n_jobs,
        )
        test_rows = np.concatenate([test for _, test in folds])
        pooled = np.empty((len(candidates), p, n), dtype=np.float64)
        starts = np.cumsum([0] + [len(test) for _, test in folds])
        for c, f, v, k in slots:
            pooled[c, v, starts[f] : starts[f + 1]] = predictions[k]
        truth = values[test_rows].astype(np.float64)
        mi_rows = _mi_discrete_rows if discrete else _mi_gaussian_rows

        def score(c, v, preds):
            y = truth[:, v]
            if discrete:
                return mi_rows(y.astype(np.int64), preds.astype(np.int64))
            return mi_rows(y, preds)

        mi = np.array(
            [[score(c, v, pooled[c, v])[0] for v in range(p)] for c in range(len(candidates))]
        )
        mean_mi = mi.mean(axis=1)
        blanket_size = np.array(
            [
                np.mean([np.mean([len(b) for b in blankets[c, f]]) for f in range(len(folds))])
                for c in range(len(candidates))
            ]
        )
        best = int(np.argmax(mean_mi))
        pvalues = np.ones(len(candidates))
        swaps = rng.random_sample((self.n_permutations, n)) < 0.5
        # discrete tables of the swapped predictions by one matrix product (exact in float32
        # below 2**24 rows); Gaussian scores and larger data build the swapped rows
        by_product = discrete and n < 2**24
        swap_matrix = swaps.astype(np.float32) if by_product else None
        codes_y = truth.astype(np.int64) if by_product else None
        for c in range(len(candidates)):
            if c == best:
                continue
            t_best = np.zeros(self.n_permutations)
            t_cur = np.zeros(self.n_permutations)
            for v in range(p):
                a, b = pooled[best, v], pooled[c, v]
                if by_product:
                    to_best, to_cur = _mi_discrete_swapped(
                        codes_y[:, v], a.astype(np.int64), b.astype(np.int64), swap_matrix
                    )
                    t_best += to_best
                    t_cur += to_cur
                    continue
                t_best += score(best, v, np.where(swaps, b, a))
                t_cur += score(c, v, np.where(swaps, a, b))
            observed = mean_mi[best] - mean_mi[c]
            pvalues[c] = np.mean((t_best - t_cur) / p >= observed - 1e-12)
        equivalent = pvalues > self.alpha
        chosen = best
        if self.sparsity:
            for c in range(len(candidates)):
                if equivalent[c] and blanket_size[c] < blanket_size[chosen]:
                    chosen = c
        self.n_predictions_ = len(unique)
        results = {
            "params": candidates,
            "mean_mutual_information": mean_mi,
            "mutual_information": mi,
            "mean_blanket_size": blanket_size,
            "pvalue": pvalues,
            "equivalent": equivalent,
        }
        self._choose(X, candidates, chosen, results)
        return self
