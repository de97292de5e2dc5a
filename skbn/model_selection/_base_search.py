# SPDX-License-Identifier: BSD-3-Clause
"""The base of skbn's hyperparameter searches: scikit-learn's interface, skbn's engine.

A subclass says which candidates to try (``_run_search``, as in scikit-learn) and how rows
are split (its ``cv`` property). Fitting, seeding, failed fits, progress and the finite-split
policy are the resampling engine's (:mod:`skbn.model_selection._resampling`), so a search
behaves like every other meta-estimator of skbn; the attributes and ``cv_results_`` are those
of ``GridSearchCV``, plus ``n_finite_splits``.
"""

from __future__ import annotations

import time
import warnings
from numbers import Real

import numpy as np
from scipy.stats import rankdata
from sklearn.base import BaseEstimator, clone
from sklearn.model_selection import ParameterGrid
from sklearn.utils import get_tags

from skbn.model_selection._resampling import (
    FitJob,
    check_before_work,
    final_learner,
    run_fits,
    summarise_splits,
)
from skbn.model_selection._scorers import get_structure_scorer
from skbn.utils._parallel import N_JOBS_CONSTRAINT
from skbn.utils._param_validation import Interval, validate_params_of
from skbn.utils._search import BaseSearchCV, masked_param_columns
from skbn.utils._warnings import stack_level

__all__ = ["SEARCH_DOC", "StructureSearchCV", "StructureSelection"]

#: The parameters every score-based search shares, for the subclasses' docstrings.
SEARCH_DOC = """
    refit : bool, str or callable, default=True
        Refit the best configuration on all of ``X`` (with several scorers: the name of the
        one that picks it).
    n_jobs : int, default=None
        Parallel fits through joblib (so ``joblib.parallel_backend("dask")`` spreads them);
        -1 uses every core. Results do not depend on it.
    verbose : int, default=0
        Above 0, a progress bar over the fits.
    error_score : "raise" or float, default=nan
        Score of a fit that fails (a warning counts the failures); "raise" stops at the first.
    min_finite_fraction : float, default=0.5
        A configuration is ranked only if at least this share of its splits (and at least
        one) scored a finite value; splits score NaN when the fit failed or the learned PDAG
        has no DAG extension, and are left out of the mean. 0 ranks any configuration with
        one finite split, as the OTSL authors' code does (``colMeans(na.rm=TRUE)``).
    return_train_score : bool, default=False
        Also score each fit on its training rows (``split<i>_train_score``, ...)."""


def with_learner_input_tags(tags, estimator):
    """``tags`` with the input tags of the learner a meta-estimator passes its data to.

    The data goes to the learner as it is, so its tags hold for the meta-estimator too:
    categorical codes for a discrete learner, floats for a Gaussian one.
    """
    inner = get_tags(estimator)
    tags.input_tags.categorical = inner.input_tags.categorical
    tags.input_tags.string = inner.input_tags.string
    tags.target_tags.required = False
    return tags


class _RefittedStructure:
    """The refit of the chosen configuration, and the structure it learned.

    Shared by every search over structure learners: the score-based ones
    (:class:`StructureSearchCV`) and those that choose from the fits' structures (OCT,
    StARS).
    """

    def _refit_best(self, X) -> None:
        """Fit the chosen configuration on all of ``X`` as ``best_estimator_``."""
        self.best_estimator_ = clone(self.estimator).set_params(
            **clone(self.best_params_, safe=False)
        )
        start = time.perf_counter()
        self.best_estimator_.fit(X)
        self.refit_time_ = time.perf_counter() - start

    @property
    def graph_(self):
        """The learned structure of the refitted best estimator."""
        if not hasattr(self, "best_estimator_"):
            raise AttributeError("graph_ is available after fit with refit=True.")
        return final_learner(self.best_estimator_).graph_

    @property
    def network_(self):
        """The fitted network (structure and parameters) of the refitted best estimator."""
        if not hasattr(self, "best_estimator_"):
            raise AttributeError("network_ is available after fit with refit=True.")
        return final_learner(self.best_estimator_).network_


class StructureSelection(_RefittedStructure, BaseEstimator):
    """Base of the searches that choose from the structures fitted on resamples (OCT, StARS).

    Their choice is not a mean of per-split scores (OCT pools held-out predictions over the
    folds and runs a permutation test; StARS measures edge instability across subsamples),
    so they do not derive from scikit-learn's ``BaseSearchCV``. What every search shares is
    here: the candidates checked before any work, the features recorded, the fits run by the
    resampling engine, the refit and ``graph_``/``network_``. Subclasses have ``estimator``,
    ``param_grid``, ``refit`` and ``n_jobs``.
    """

    def __sklearn_tags__(self):
        return with_learner_input_tags(super().__sklearn_tags__(), self.estimator)

    def _start(self, X):
        """Validate, list the candidates and check ``X`` before any fit.

        Returns ``(candidates, data)``: ``data`` is ``X`` checked for the learner, or None
        when only a fit can check it (a Pipeline).
        """
        validate_params_of(self)
        candidates = list(ParameterGrid(self.param_grid))
        return candidates, check_before_work(self.estimator, candidates, X)

    def _fit_resamples(self, candidates, trains, source, desc: str, verbose: int = 0):
        """Fit every candidate on every training set; outcomes candidate-major."""
        jobs = [
            FitJob(self.estimator, params=params, train=train)
            for params in candidates
            for train in trains
        ]
        return run_fits(jobs, source, n_jobs=self.n_jobs, verbose=verbose, desc=desc)

    def _choose(self, X, candidates, index: int, results: dict) -> None:
        """Record the chosen configuration and refit it if asked."""
        self.best_index_ = int(index)
        self.best_params_ = candidates[self.best_index_]
        self.cv_results_ = results
        if self.refit:
            self._refit_best(X)


class StructureSearchCV(_RefittedStructure, BaseSearchCV):
    """Base class of skbn's structure-learner searches (not for direct use).

    Subclasses define ``cv`` (a splitter, as a property or parameter) and
    ``_run_search(evaluate_candidates)``.
    """

    _parameter_constraints = {
        **BaseSearchCV._parameter_constraints,
        "scoring": [str, callable, list, tuple, dict],
        "n_jobs": N_JOBS_CONSTRAINT,
        "min_finite_fraction": [Interval(Real, 0, 1, closed="both")],
    }
    _parameter_constraints.pop("cv", None)
    _parameter_constraints.pop("pre_dispatch", None)

    def _set_search_parameters(
        self, estimator, scoring, refit, n_jobs, verbose, error_score, min_finite_fraction
    ) -> None:
        """Store the parameters every subclass's ``__init__`` shares (SEARCH_DOC)."""
        self.estimator = estimator
        self.scoring = scoring
        self.refit = refit
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.error_score = error_score
        self.min_finite_fraction = min_finite_fraction

    def __sklearn_tags__(self):
        return with_learner_input_tags(super().__sklearn_tags__(), self.estimator)

    def score(self, X, y=None):
        """Score ``X`` with the refitted best estimator and the search's scorer.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            The columns seen during ``fit``.
        y : None
            Ignored.

        Returns
        -------
        float
        """
        n_features = getattr(self, "n_features_in_", None)
        width = X.shape[1] if getattr(X, "ndim", 2) == 2 else None
        if n_features is not None and width is not None and width != n_features:
            raise ValueError(
                f"X has {width} features, but {type(self).__name__} is expecting "
                f"{n_features} features as input."
            )
        return super().score(X, y)

    def _get_scorers(self):
        """The structure scorer(s) and the metric used to pick the best candidate."""
        if isinstance(self.scoring, dict):
            return {k: get_structure_scorer(v) for k, v in self.scoring.items()}, self.refit
        if isinstance(self.scoring, (list, tuple)):
            return {k: get_structure_scorer(k) for k in self.scoring}, self.refit
        return get_structure_scorer(self.scoring), "score"

    def fit(self, X, y=None, **params):
        """Fit every candidate on every split, pick the best, refit it on all of ``X``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
        y : None
            Ignored.
        **params
            Not supported (structure learners take no fit parameters).

        Returns
        -------
        self
        """
        self._validate_params()
        if params:
            raise TypeError(
                f"{type(self).__name__}.fit takes no fit parameters, got {sorted(params)}."
            )
        grid = getattr(self, "param_grid", None)
        checked = None
        if grid is not None:  # random searches draw their candidates as they go
            checked = check_before_work(self.estimator, ParameterGrid(grid), X)
        # the fits take the data as checked here (the engine would otherwise check it again)
        source = X if checked is None else checked
        scorers, refit_metric = self._get_scorers()
        multimetric = isinstance(scorers, dict)
        if multimetric:
            self._check_refit_for_multimetric(scorers)
        splits = list(self.cv.split(X))
        n_splits = len(splits)
        if self.verbose > 0:
            print(f"{type(self).__name__}: {n_splits} splits per candidate")
        all_params: list = []
        all_out: list = []
        results: dict = {}

        def evaluate_candidates(candidate_params):
            nonlocal results
            candidate_params = list(candidate_params)
            jobs = [
                FitJob(self.estimator, params=p, train=train, test=test)
                for p in candidate_params
                for train, test in splits
            ]
            if not jobs:
                raise ValueError("No fits were performed: no candidates or no splits.")
            outcomes = run_fits(
                jobs,
                source,
                scoring=scorers,
                train_score=self.return_train_score,
                error_score=self.error_score,
                n_jobs=self.n_jobs,
                verbose=self.verbose,
                desc=type(self).__name__,
            )
            all_params.extend(candidate_params)
            all_out.extend(outcomes)
            results = self._format_results(all_params, n_splits, all_out, scorers)
            return results

        self._run_search(evaluate_candidates)
        self.multimetric_ = multimetric
        self.cv_results_ = results
        self.n_splits_ = n_splits
        self.scorer_ = scorers
        if self.refit or not multimetric:
            self.best_index_ = int(self._select_best_index(self.refit, refit_metric, results))
            if not callable(self.refit):
                self.best_score_ = results[f"mean_test_{refit_metric}"][self.best_index_]
            self.best_params_ = results["params"][self.best_index_]
        if self.refit:
            self._refit_best(X)
            if hasattr(self.best_estimator_, "feature_names_in_"):
                self.feature_names_in_ = self.best_estimator_.feature_names_in_
        return self

    def _format_results(self, candidate_params, n_splits, outcomes, scorers):
        """``cv_results_`` in scikit-learn's format, means over the finite splits only."""
        n = len(candidate_params)

        def matrix(values):
            return np.asarray(values, dtype=float).reshape(n, n_splits)

        results: dict = {}
        for name in ("fit_time", "score_time"):
            times = matrix([getattr(o, name) for o in outcomes])
            results[f"mean_{name}"] = times.mean(axis=1)
            results[f"std_{name}"] = times.std(axis=1)
        results.update(masked_param_columns(candidate_params))
        results["params"] = candidate_params
        multimetric = isinstance(scorers, dict)
        metrics = list(scorers) if multimetric else ["score"]
        sets = ("test", "train") if self.return_train_score else ("test",)
        unranked = np.zeros(n, dtype=bool)
        for which in sets:
            for metric in metrics:

                def value(o, which=which, metric=metric):
                    got = o.test_score if which == "test" else o.train_score
                    return got[metric] if multimetric else got

                scores = matrix([value(o) for o in outcomes])
                for i in range(n_splits):
                    results[f"split{i}_{which}_{metric}"] = scores[:, i]
                summary = summarise_splits(scores, self.min_finite_fraction)
                results[f"mean_{which}_{metric}"] = summary.mean
                results[f"std_{which}_{metric}"] = summary.std
                if which == "test":
                    filled = np.where(np.isnan(summary.mean), -np.inf, summary.mean)
                    # ties share the best rank, so the first of them is picked (as the
                    # OTSL authors' code does with which.max); unranked candidates come last
                    results[f"rank_test_{metric}"] = rankdata(-filled, method="min").astype(
                        np.int32
                    )
                    key = f"n_finite_splits_{metric}" if multimetric else "n_finite_splits"
                    results[key] = summary.n_finite
                    unranked |= ~summary.ranked
        if unranked.any():
            need = max(1, int(np.ceil(self.min_finite_fraction * n_splits - 1e-12)))
            warnings.warn(
                f"{int(unranked.sum())} of {n} configuration(s) had fewer than {need} of their "
                f"{n_splits} splits finite (failed fits, or structures without a DAG "
                "extension) and rank last; see cv_results_['n_finite_splits'] and "
                "min_finite_fraction.",
                UserWarning,
                stacklevel=stack_level(),
            )
        return results
