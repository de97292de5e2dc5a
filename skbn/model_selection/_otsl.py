# SPDX-License-Identifier: BSD-3-Clause
"""Out-of-sample tuning of structure learners (OTSL) and in-sample model selection."""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.model_selection import ParameterGrid, ParameterSampler

from skbn.model_selection._scorers import final_learner, get_structure_scorer
from skbn.model_selection._split import InSampleSplit, OutOfSampleBootstrap
from skbn.utils._param_validation import Interval
from skbn.utils._search import BaseSearchCV, NanMeanSearchMixin

__all__ = ["OTSLSearchCV", "OTSLRandomSearchCV", "InSampleSearchCV"]


class _StructureSearch(NanMeanSearchMixin, BaseSearchCV):
    """Common ground: structure-scorer names, NaN-tolerant means, the ``graph_`` shortcut."""

    return_train_score = False

    _parameter_constraints = {
        **BaseSearchCV._parameter_constraints,
        "scoring": [str, callable],
    }
    _parameter_constraints.pop("cv", None)
    _parameter_constraints.pop("return_train_score", None)

    def _get_scorers(self):
        return get_structure_scorer(self.scoring), "score"

    @property
    def graph_(self):
        """The learned structure of the refitted best estimator."""
        if not hasattr(self, "best_estimator_"):
            raise AttributeError("graph_ is available after fit with refit=True.")
        return final_learner(self.best_estimator_).graph_


def _common_init(self, estimator, scoring, refit, n_jobs, verbose, error_score, pre_dispatch):
    self.estimator = estimator
    self.scoring = scoring
    self.refit = refit
    self.n_jobs = n_jobs
    self.verbose = verbose
    self.error_score = error_score
    self.pre_dispatch = pre_dispatch


class OTSLSearchCV(_StructureSearch):
    """Out-of-sample Tuning for Structure Learning (Chobtham & Constantinou).

    Every configuration of ``param_grid`` is fitted on ``n_resamples`` bootstrap training
    sets (``OutOfSampleBootstrap``); its learned structure is scored on the matching
    out-of-bag test bootstrap with parameters re-estimated there (a structure scorer), and the
    configuration with the best mean score wins (ties: the first configuration). Built on
    scikit-learn's ``BaseSearchCV``: the attributes and ``refit``/``error_score``/``n_jobs``
    behaviour are those of ``GridSearchCV``.

    Parameters
    ----------
    estimator : estimator
        A structure learner or a Pipeline ending in one.
    param_grid : dict or list of dict
        As in ``GridSearchCV`` (nested names such as ``criterion__gamma`` work).
    scoring : {"ebic", "bdeu", "bic", "aic", "loglik"} or callable, default="ebic"
        ``"ebic"`` is the paper's Algorithm 2 (each configuration's own EBIC gamma, else 0),
        ``"bdeu"`` its Algorithm 3 (own iss, else 1). A callable is any structure scorer.
    n_resamples : int, default=10
    refit : bool, default=True
        Refit the best configuration on all of ``X``.
    n_jobs : int, default=None
        Parallel fits through joblib (so ``joblib.parallel_backend("dask")`` spreads them).
    random_state : int, RandomState instance or None, default=None
        Seeds the resampling; results do not depend on ``n_jobs``.
    verbose : int, default=0
    error_score : "raise" or float, default=nan
        Score of a fit that fails. Splits scoring NaN (failed fits, PDAGs with no DAG
        extension) are left out of a configuration's mean, as in the authors' code.
    pre_dispatch : int or str, default="2*n_jobs"

    Attributes
    ----------
    cv_results_ : dict
        As ``GridSearchCV``'s, plus ``n_finite_splits``.
    best_params_, best_score_, best_index_, best_estimator_, n_splits_, scorer_
    graph_ : networkx.DiGraph
        The structure learned by the refitted best configuration.

    References
    ----------
    K. Chobtham and A. C. Constantinou, "Tuning structure learning algorithms with
    out-of-sample and resampling strategies", Knowledge and Information Systems, 2024.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from skbn.learners import HillClimb
    >>> from skbn.scores import EBIC
    >>> X = load_network("asia").sample(1000, random_state=0)
    >>> search = OTSLSearchCV(HillClimb(EBIC()), {"criterion__gamma": [0, 0.5, 1]},
    ...                       n_resamples=3, random_state=0).fit(X)
    >>> sorted(search.best_params_)
    ['criterion__gamma']
    """

    _parameter_constraints = {
        **_StructureSearch._parameter_constraints,
        "param_grid": [dict, list],
        "n_resamples": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        estimator,
        param_grid,
        *,
        scoring="ebic",
        n_resamples: int = 10,
        refit: bool = True,
        n_jobs: int | None = None,
        random_state=None,
        verbose: int = 0,
        error_score=np.nan,
        pre_dispatch="2*n_jobs",
    ) -> None:
        _common_init(self, estimator, scoring, refit, n_jobs, verbose, error_score, pre_dispatch)
        self.param_grid = param_grid
        self.n_resamples = n_resamples
        self.random_state = random_state

    @property
    def cv(self):
        """The resampling scheme: ``OutOfSampleBootstrap(n_resamples, random_state)``."""
        return OutOfSampleBootstrap(self.n_resamples, random_state=self.random_state)

    def _run_search(self, evaluate_candidates):
        evaluate_candidates(ParameterGrid(self.param_grid))


class OTSLRandomSearchCV(OTSLSearchCV):
    """OTSL over ``n_iter`` configurations sampled from ``param_distributions``.

    Parameters are those of :class:`OTSLSearchCV`, with ``param_distributions`` (lists or
    scipy distributions, as ``RandomizedSearchCV``) and ``n_iter`` instead of
    ``param_grid``; ``random_state`` seeds both the sampling and the resampling.
    """

    _parameter_constraints = {
        **_StructureSearch._parameter_constraints,
        "param_distributions": [dict, list],
        "n_iter": [Interval(Integral, 1, None, closed="left")],
        "n_resamples": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        estimator,
        param_distributions,
        *,
        n_iter: int = 10,
        scoring="ebic",
        n_resamples: int = 10,
        refit: bool = True,
        n_jobs: int | None = None,
        random_state=None,
        verbose: int = 0,
        error_score=np.nan,
        pre_dispatch="2*n_jobs",
    ) -> None:
        _common_init(self, estimator, scoring, refit, n_jobs, verbose, error_score, pre_dispatch)
        self.param_distributions = param_distributions
        self.n_iter = n_iter
        self.n_resamples = n_resamples
        self.random_state = random_state

    def _run_search(self, evaluate_candidates):
        evaluate_candidates(
            ParameterSampler(self.param_distributions, self.n_iter, random_state=self.random_state)
        )


class InSampleSearchCV(_StructureSearch):
    """Baseline tuner: pick the configuration whose structure scores best on the training data.

    Each configuration is fitted once on all of ``X`` and scored on the same rows (in-sample
    BIC or AIC model selection, the baselines of the OTSL paper's comparison).

    Parameters
    ----------
    estimator, param_grid, refit, n_jobs, verbose, error_score, pre_dispatch
        As :class:`OTSLSearchCV`.
    scoring : {"bic", "aic", "ebic", "bdeu", "loglik"} or callable, default="bic"

    References
    ----------
    G. Schwarz, "Estimating the dimension of a model", Annals of Statistics 6, 1978.
    H. Akaike, "A new look at the statistical model identification", IEEE TAC 19, 1974.
    """

    _parameter_constraints = {
        **_StructureSearch._parameter_constraints,
        "param_grid": [dict, list],
    }

    def __init__(
        self,
        estimator,
        param_grid,
        *,
        scoring="bic",
        refit: bool = True,
        n_jobs: int | None = None,
        verbose: int = 0,
        error_score=np.nan,
        pre_dispatch="2*n_jobs",
    ) -> None:
        _common_init(self, estimator, scoring, refit, n_jobs, verbose, error_score, pre_dispatch)
        self.param_grid = param_grid

    @property
    def cv(self):
        """A single split whose training and test rows are all the rows."""
        return InSampleSplit()

    def _run_search(self, evaluate_candidates):
        evaluate_candidates(ParameterGrid(self.param_grid))
