# SPDX-License-Identifier: BSD-3-Clause
r"""The resampling engine: clone, fit on rows, score held out -- for every tuner and ensemble.

Every meta-estimator of skbn fits clones of learners on parts of the data: OTSL's bootstrap
resamples, StARS' subsamples, OCT's folds, Intersection-Validation's subsamples, the bootstrap
learner's resamples and permuted nulls, an ensemble's members, Auto-SLE's training problems,
PEF's clusters. They all describe that work as :class:`FitJob`\\ s and hand it to
:func:`run_fits`, which decides once for all of them:

* **data**: each data set is checked and encoded once; a job takes rows (repeats allowed)
  and columns of the encoded data, so every column keeps all its states and no resample
  re-reads strings. Pipelines get the raw rows instead;
* **seeding**: a job's ``seed`` goes to every ``random_state`` parameter of its clone (nested
  ones too); seeds are drawn by the caller before any work, in job order, so results are
  the same for every ``n_jobs`` and backend (loky, threads, Dask);
* **failed fits**: ``error_score="raise"`` re-raises the first failure; a number records it
  (``FitOutcome.error`` holds the traceback) and scores the job with it, with one warning
  that counts the failures; if every job fails the error is raised;
* **progress**: a tqdm bar when ``verbose > 0``;
* **parallelism**: jobs run through :func:`skbn.utils._parallel.parallel_map`.

:func:`summarise_splits` is the matching policy for the scores of candidates over splits:
means over the finite splits only, and a candidate with fewer than ``min_finite_fraction`` of
its splits finite is not ranked.
"""

from __future__ import annotations

import math
import time
import traceback
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from numbers import Real

import numpy as np
from sklearn.base import clone
from sklearn.exceptions import FitFailedWarning
from sklearn.pipeline import Pipeline

from skbn.data import CHECKED_DATA, DiscreteData, GaussianData, MixedData, check_data
from skbn.graph._convert import to_adjacency
from skbn.graph._pag import endpoint_matrix, is_marked
from skbn.utils._parallel import effective_n_jobs, parallel_map
from skbn.utils._random import spawn_seeds
from skbn.utils._warnings import stack_level

__all__ = [
    "check_before_work",
    "FitJob",
    "FitOutcome",
    "run_fits",
    "spawn_seeds",
    "seeded_clone",
    "summarise_splits",
    "final_learner",
]


def final_learner(estimator):
    """The structure learner itself, or the last step of a Pipeline ending in one."""
    return estimator.steps[-1][1] if isinstance(estimator, Pipeline) else estimator


def refuse_pag_learner(estimator) -> None:
    """Refuse a learner whose ``graph_`` is a PAG: the engine's users read DAGs and CPDAGs.

    Bootstraps count arcs, ensembles and searches score held-out likelihoods; a PAG has
    marks rather than arcs and no likelihood, so each would misread it.
    """
    learner = final_learner(estimator)
    if getattr(learner, "_learns_pag", False):
        raise ValueError(
            f"{type(learner).__name__} learns a PAG (hidden common causes allowed): its "
            "edges carry marks, not arcs, and it has no likelihood, so the ensembles, "
            "searches and arc bootstraps do not take it; skbn.ensemble."
            "bootstrap_edge_frequencies counts its edge types over resamples."
        )


def seeded_clone(estimator, seed: int | None):
    """A clone whose every ``random_state`` parameter, nested ones too, is ``seed``.

    None leaves the estimator's own ``random_state`` as it is.
    """
    est = clone(estimator)
    if seed is not None:
        names = [k for k in est.get_params(deep=True) if k.split("__")[-1] == "random_state"]
        if names:
            est.set_params(**dict.fromkeys(names, int(seed)))
    return est


@dataclass(frozen=True)
class FitJob:
    """One clone-and-fit: which learner, with what, on which part of which data.

    Attributes
    ----------
    estimator : learner or Pipeline
        Cloned before fitting; never fitted itself.
    params : dict
        ``set_params`` of the clone (nested names allowed).
    train : array of int or None
        Training rows (repeats allowed); None means all rows.
    test : array of int or None
        Rows to score the fitted clone on; None means no held-out score.
    columns : array of int or None
        Column positions to fit on; None means all columns.
    seed : int or None
        Goes to every ``random_state`` parameter of the clone (see :func:`seeded_clone`).
    permute : int or None
        Seed of an independent permutation of every column of the training rows (a null in
        which every dependence is broken).
    data : int
        Index of the data set, when :func:`run_fits` is given several.
    """

    estimator: object
    params: Mapping = field(default_factory=dict)
    train: np.ndarray | None = None
    test: np.ndarray | None = None
    columns: np.ndarray | None = None
    seed: int | None = None
    permute: int | None = None
    data: int = 0


@dataclass
class FitOutcome:
    """What one job gave back.

    ``adjacency`` is the learned graph over the job's columns (``A[i, j] = 1`` for an arc,
    both halves for an undirected edge) and ``kind`` its kind; for a PAG or MAG (only with
    ``run_fits(..., accept_pag=True)``) ``marks`` is its endpoint matrix and ``adjacency``
    its skeleton; ``estimator`` the fitted clone
    when asked for; scores are floats, or dicts for several scorers; ``error`` the traceback
    of a failed fit (then the scores are the error score and the graph is None).
    """

    adjacency: np.ndarray | None = None
    kind: str | None = None
    marks: np.ndarray | None = None
    estimator: object | None = None
    test_score: object = None
    train_score: object = None
    n_test: int = 0
    fit_time: float = 0.0
    score_time: float = 0.0
    error: str | None = None


def _takes_checked_data(estimator) -> bool:
    from skbn.base import BaseStructureLearner

    return isinstance(estimator, BaseStructureLearner)


def check_before_work(estimator, candidates, X):
    """Refuse, before any fit, candidates and data that every fit would refuse.

    Each candidate's parameters are set on a clone and checked against the constraints of
    the learner and of its score or test objects (a negative penalty, an unknown name). For
    a skbn learner whose candidates all need the same kind of data, ``X`` is checked as a
    fit would check it (sparse, 3-D, missing values, wrong column kinds, ...).

    Parameters
    ----------
    estimator : estimator
    candidates : iterable of dict
        The parameter settings the search will fit.
    X : DataFrame, array-like or checked data

    Returns
    -------
    DiscreteData, GaussianData or None
        ``X`` as checked for the learner, or None when it could not be checked here.
    """
    from skbn.base import BaseStructureLearner
    from skbn.utils._param_validation import validate_params_of

    candidates = list(candidates)
    refuse_pag_learner(estimator)
    if not isinstance(estimator, BaseStructureLearner):
        return None  # a Pipeline's steps transform X first, and check their own parameters
    for params in candidates:
        est = clone(estimator).set_params(**params)  # an unknown name raises here
        objects = [est] + [
            getattr(est, name)
            for name in est._family_parameters
            if hasattr(getattr(est, name, None), "_parameter_constraints")
        ]
        try:
            for obj in objects:
                validate_params_of(obj)
        except ValueError as exc:
            raise ValueError(
                f"The candidate {params} is invalid, so no fit was run: {exc}"
            ) from None
    if isinstance(X, CHECKED_DATA):
        return X
    families = set(estimator._family_parameters)
    # a candidate that swaps the score or test itself may need another kind of data
    if not any(key in families for params in candidates for key in params):
        return check_data(X, kind=estimator._required_data_kind())
    return None


def _raw_rows(X, rows, columns):
    if hasattr(X, "iloc"):
        out = X if rows is None else X.iloc[np.asarray(rows)]
        return out if columns is None else out.iloc[:, np.asarray(columns)]
    arr = np.asarray(X)
    out = arr if rows is None else arr[np.asarray(rows)]
    return out if columns is None else out[:, np.asarray(columns)]


def permute_columns(X, seed: int):
    """Every column permuted independently (one RandomState, columns in order)."""
    rng = np.random.RandomState(seed)
    n = X.n_samples if isinstance(X, CHECKED_DATA) else len(X)
    if isinstance(X, DiscreteData):
        codes = np.column_stack([X.codes[rng.permutation(n), j] for j in range(X.n_features)])
        return DiscreteData(codes, X.arities, X.states, X.names)
    if isinstance(X, GaussianData):
        values = np.column_stack([X.values[rng.permutation(n), j] for j in range(X.n_features)])
        return GaussianData(values, X.names)
    if isinstance(X, MixedData):
        orders = [rng.permutation(n) for _ in range(X.n_features)]
        codes = np.column_stack([X.codes[o, j] for j, o in enumerate(orders)])
        values = np.column_stack([X.values[o, j] for j, o in enumerate(orders)])
        return MixedData(codes, X.arities, X.states, values, X.discrete, X.names)
    X = X.copy()
    for column in X.columns:
        X[column] = X[column].array.take(rng.permutation(n))  # keeps the dtype (categories)
    return X


class _Data:
    """The data sets of one run, each checked once per data kind a learner asks for."""

    def __init__(self, datasets, allow_missing: bool = False) -> None:
        self.raw = datasets
        self.allow_missing = allow_missing
        self._checked: dict = {}

    def source(self, index: int, estimator):
        X = self.raw[index]
        if not _takes_checked_data(estimator):
            # Pipelines and other estimators get a DataFrame (encoded data decoded once)
            if isinstance(X, CHECKED_DATA):
                key = (index, "frame")
                if key not in self._checked:
                    self._checked[key] = X.to_frame()
                return self._checked[key]
            return X
        kind = estimator._required_data_kind()
        # when the caller allows them, learners that learn from missing values get them; for
        # the others (and for callers that score held-out rows) they are an error
        learns = getattr(final_learner(estimator), "_handles_missing", False)
        missing = "allow" if self.allow_missing and learns else "error"
        key = (index, kind, missing)
        if key not in self._checked:
            self._checked[key] = check_data(X, kind=kind, missing=missing)
        return self._checked[key]


def _without_caches(source, seen: dict):
    """``source`` without its cached properties (one copy per source object)."""
    if not isinstance(source, CHECKED_DATA):
        return source
    if id(source) not in seen:
        seen[id(source)] = source.take()
    return seen[id(source)]


def _part(source, rows, columns):
    if isinstance(source, CHECKED_DATA):
        return source.take(rows, columns)
    return _raw_rows(source, rows, columns)


def _score(scoring, estimator, X):
    if scoring is None:
        return float(estimator.score(X))
    frame = []  # X decoded once, for the scorers that are not skbn's

    def rows(scorer):
        if not isinstance(X, CHECKED_DATA) or getattr(scorer, "_takes_checked_data", False):
            return X
        if not frame:
            frame.append(X.to_frame())  # a callable of the user's gets a DataFrame
        return frame[0]

    if isinstance(scoring, Mapping):
        return {name: float(s(estimator, rows(s))) for name, s in scoring.items()}
    return float(scoring(estimator, rows(scoring)))


def _fit_one(job: FitJob, source, scoring, train_score, return_estimator, error_score):
    out = FitOutcome()
    start = time.perf_counter()
    try:
        est = seeded_clone(job.estimator, job.seed)
        if job.params:
            est.set_params(**clone(dict(job.params), safe=False))
        X_train = _part(source, job.train, job.columns)
        if job.permute is not None:
            X_train = permute_columns(X_train, job.permute)
        est.fit(X_train)
        out.fit_time = time.perf_counter() - start
        learner = final_learner(est)
        graph = getattr(learner, "graph_", None)
        if graph is not None and is_marked(graph):
            out.marks, _ = endpoint_matrix(graph, list(graph.nodes))
            out.adjacency = (out.marks != 0).astype(np.int8)
            out.kind = graph.graph["kind"]
        elif graph is not None:
            names = [str(n) for n in graph.nodes]
            out.adjacency = to_adjacency(graph, names).astype(np.int8)
            out.kind = graph.graph.get("kind")
        if job.test is not None:
            begin = time.perf_counter()
            X_test = _part(source, job.test, job.columns)
            out.test_score = _score(scoring, est, X_test)
            out.n_test = len(job.test)
            if train_score:
                out.train_score = _score(scoring, est, X_train)
            out.score_time = time.perf_counter() - begin
        if return_estimator:
            out.estimator = est
    except Exception:
        if error_score == "raise":
            raise
        out.error = traceback.format_exc()
        out.fit_time = time.perf_counter() - start
        if job.test is not None:
            names = list(scoring) if isinstance(scoring, Mapping) else None
            value = float(error_score)
            out.test_score = dict.fromkeys(names, value) if names else value
            out.train_score = out.test_score if train_score else None
            out.n_test = len(job.test)
    return out


def run_fits(
    jobs: Sequence[FitJob],
    X,
    *,
    scoring=None,
    train_score: bool = False,
    return_estimator: bool = False,
    error_score="raise",
    n_jobs: int | None = None,
    verbose: int = 0,
    desc: str = "fits",
    allow_missing: bool = False,
    accept_pag: bool = False,
) -> list[FitOutcome]:
    """Run every job; return their outcomes in job order.

    Parameters
    ----------
    jobs : sequence of FitJob
    X : DataFrame, array, checked data, or a list of these
        The data set(s); ``FitJob.data`` indexes a list.
    scoring : callable, dict of callables or None, default=None
        ``scorer(estimator, X_test) -> float`` for jobs with test rows; None uses the
        estimator's ``score``.
    train_score : bool, default=False
        Also score the training rows.
    return_estimator : bool, default=False
        Keep each fitted clone in its outcome.
    error_score : "raise" or float, default="raise"
        What a failed fit does (see the module docstring).
    n_jobs : int or None, default=None
    verbose : int, default=0
        Above 0, a progress bar.
    desc : str, default="fits"
        The progress bar's label.
    allow_missing : bool, default=False
        Let missing values through to the learners that learn from them (the bootstraps do;
        the searches, which score held-out rows, do not).
    accept_pag : bool, default=False
        Let PAG learners through (the bootstrap of edge types does); their outcomes carry
        ``marks``. Otherwise they are refused before any work.

    Returns
    -------
    list of FitOutcome
    """
    if error_score != "raise" and not isinstance(error_score, Real):
        raise ValueError(f"error_score must be 'raise' or a number, got {error_score!r}.")
    for job in jobs[:1]:
        if not accept_pag:
            refuse_pag_learner(job.estimator)
    datasets = X if isinstance(X, list) else [X]
    data = _Data(datasets, allow_missing)
    # check and encode each data set once, before any work and outside the workers
    tasks = [(job, data.source(job.data, job.estimator)) for job in jobs]
    if len(tasks) > 1 and effective_n_jobs(n_jobs) > 1:
        # a job reads its part through ``take``, never what this process cached on the
        # checked data (a (p, p) correlation matrix is 800 MB at p = 10,000), so workers get
        # the data without those caches instead of pickling them once per job
        lean: dict = {}
        tasks = [(job, _without_caches(source, lean)) for job, source in tasks]

    def run(task):
        job, source = task
        return _fit_one(job, source, scoring, train_score, return_estimator, error_score)

    bar = None
    if verbose > 0 and tasks:
        from tqdm.auto import tqdm

        # kept when done: a saved notebook shows the finished bar, not a stale "0%"
        bar = tqdm(total=len(tasks), desc=desc, leave=True)
    try:
        outcomes = parallel_map(run, tasks, n_jobs=n_jobs, progress=bar)
    finally:
        if bar is not None:
            bar.close()
    failed = [o for o in outcomes if o.error is not None]
    if failed and len(failed) == len(outcomes):
        raise ValueError(
            f"All {len(outcomes)} fits failed. The first error was:\n{failed[0].error}"
        )
    if failed:
        warnings.warn(
            f"{len(failed)} of {len(outcomes)} fits failed and were scored error_score="
            f"{error_score}. The first error was:\n{failed[0].error}",
            FitFailedWarning,
            stacklevel=stack_level(),
        )
    return outcomes


@dataclass
class SplitSummary:
    """Per candidate: mean and standard deviation over its finite splits, and their count."""

    mean: np.ndarray
    std: np.ndarray
    n_finite: np.ndarray
    ranked: np.ndarray


def summarise_splits(scores: np.ndarray, min_finite_fraction: float = 0.0) -> SplitSummary:
    """Means over finite splits; candidates short of finite splits are not ranked.

    ``scores`` has one row per candidate and one column per split. A split scores NaN when
    its fit failed (with a NaN ``error_score``) or its structure could not be scored (a PDAG
    with no DAG extension). A candidate with fewer than ``ceil(min_finite_fraction *
    n_splits)`` finite splits (and at least one) gets a NaN mean, which ranks last.

    Examples
    --------
    >>> s = summarise_splits(np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, 5.0]]), 0.5)
    >>> s.mean.tolist(), s.n_finite.tolist()
    ([2.0, nan], [2, 1])
    """
    scores = np.asarray(scores, dtype=float)
    finite = np.isfinite(scores)
    counts = finite.sum(axis=1)
    need = max(1, math.ceil(min_finite_fraction * scores.shape[1] - 1e-12))
    ranked = counts >= need
    with np.errstate(invalid="ignore", divide="ignore"):
        sums = np.where(finite, scores, 0.0).sum(axis=1)
        mean = np.where(ranked, sums / np.maximum(counts, 1), np.nan)
        dev = np.where(finite, scores - mean[:, None], 0.0)
        std = np.where(ranked, np.sqrt((dev**2).sum(axis=1) / np.maximum(counts, 1)), np.nan)
    return SplitSummary(mean, std, counts, ranked)
