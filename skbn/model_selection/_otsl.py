# SPDX-License-Identifier: BSD-3-Clause
"""Out-of-sample tuning of structure learners (OTSL) and in-sample model selection."""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.model_selection import ParameterGrid, ParameterSampler

from skbn.model_selection._base_search import SEARCH_DOC, StructureSearchCV
from skbn.model_selection._split import InSampleSplit, OutOfSampleBootstrap
from skbn.utils._param_validation import Interval

__all__ = ["OTSLSearchCV", "OTSLRandomSearchCV", "InSampleSearchCV"]


class OTSLSearchCV(StructureSearchCV):
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
    scoring : str, callable, list or dict, default="auto"
        How a structure is scored on the held-out data. Every configuration gets the same
        score, so their means are comparable and a sparser configuration (a larger gamma or
        penalty) wins when it fits the held-out data better; this is the point of the
        paper's Algorithm 2, a score common to all configurations. The default, ``"auto"``,
        is AIC on discrete data and BIC (GaussianBIC) on continuous data, chosen by
        measurement (docs page "OTSL's default held-out score"): with discrete data the test
        bootstraps are small beside the conditional probability tables and held-out BIC
        picked the sparsest configuration of a gamma grid in nearly every run. ``"bic"`` and
        ``"aic"`` force one of them. ``"ebic"`` scores each configuration with its own EBIC
        gamma (0 for other scores) and ``"bdeu"`` with its own BDeu iss (1 otherwise, the
        paper's Algorithm 3): a configuration's own penalty lowers its held-out score, so
        over a grid of gamma ``"ebic"`` is biased towards gamma = 0 and rarely tunes it.
        :func:`~skbn.model_selection.make_normalised_ebic_scorer` is the authors' code's
        EBIC(norm). Also ``"loglik"``. A callable ``scorer(estimator, X_test)`` gets the
        held-out rows as a DataFrame, as in scikit-learn; a list of names or a dict of
        scorers evaluates several (then ``refit`` names the one that picks).
    n_resamples : int, default=10
    random_state : int, RandomState instance or None, default=None
        Seeds the resampling; results do not depend on ``n_jobs``.{search}

    Attributes
    ----------
    cv_results_ : dict
        As ``GridSearchCV``'s, plus ``n_finite_splits`` (finite splits per configuration).
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
        **StructureSearchCV._parameter_constraints,
        "param_grid": [dict, list],
        "n_resamples": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        estimator,
        param_grid,
        *,
        scoring="auto",
        n_resamples: int = 10,
        random_state=None,
        refit=True,
        n_jobs: int | None = None,
        verbose: int = 0,
        error_score=np.nan,
        min_finite_fraction: float = 0.5,
        return_train_score: bool = False,
    ) -> None:
        self._set_search_parameters(
            estimator, scoring, refit, n_jobs, verbose, error_score, min_finite_fraction
        )
        self.return_train_score = return_train_score
        self.param_grid = param_grid
        self.n_resamples = n_resamples
        self.random_state = random_state

    @property
    def cv(self):
        """The resampling scheme: ``OutOfSampleBootstrap(n_resamples, random_state)``."""
        return OutOfSampleBootstrap(self.n_resamples, random_state=self.random_state)

    def _run_search(self, evaluate_candidates):
        evaluate_candidates(ParameterGrid(self.param_grid))


OTSLSearchCV.__doc__ = OTSLSearchCV.__doc__.replace("{search}", SEARCH_DOC)


class OTSLRandomSearchCV(OTSLSearchCV):
    """OTSL over ``n_iter`` configurations sampled from ``param_distributions``.

    As :class:`OTSLSearchCV`, with candidates drawn as ``RandomizedSearchCV`` draws them.

    Parameters
    ----------
    estimator : estimator
        A structure learner or a Pipeline ending in one.
    param_distributions : dict or list of dict
        Lists or scipy distributions per parameter, as in ``RandomizedSearchCV``.
    n_iter : int, default=10
        Configurations sampled.
    scoring : str, callable, list or dict, default="auto"
        As :class:`OTSLSearchCV`.
    n_resamples : int, default=10
        Bootstrap resamples per configuration.
    random_state : int, RandomState instance or None, default=None
        Seeds both the sampling of configurations and the resampling.{search}

    Examples
    --------
    >>> from scipy.stats import uniform
    >>> from skbn.datasets import load_network
    >>> from skbn.learners import HillClimb
    >>> from skbn.scores import EBIC
    >>> X = load_network("asia").sample(1000, random_state=0)
    >>> search = OTSLRandomSearchCV(HillClimb(EBIC()), {"criterion__gamma": uniform(0, 1)},
    ...                             n_iter=2, n_resamples=2, random_state=0).fit(X)
    >>> len(search.cv_results_["params"])
    2
    """

    _parameter_constraints = {
        **StructureSearchCV._parameter_constraints,
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
        scoring="auto",
        n_resamples: int = 10,
        random_state=None,
        refit=True,
        n_jobs: int | None = None,
        verbose: int = 0,
        error_score=np.nan,
        min_finite_fraction: float = 0.5,
        return_train_score: bool = False,
    ) -> None:
        self._set_search_parameters(
            estimator, scoring, refit, n_jobs, verbose, error_score, min_finite_fraction
        )
        self.return_train_score = return_train_score
        self.param_distributions = param_distributions
        self.n_iter = n_iter
        self.n_resamples = n_resamples
        self.random_state = random_state

    def _run_search(self, evaluate_candidates):
        evaluate_candidates(
            ParameterSampler(self.param_distributions, self.n_iter, random_state=self.random_state)
        )


OTSLRandomSearchCV.__doc__ = OTSLRandomSearchCV.__doc__.replace("{search}", SEARCH_DOC)


class InSampleSearchCV(StructureSearchCV):
    """Baseline tuner: pick the configuration whose structure scores best on the training data.

    Each configuration is fitted once on all of ``X`` and scored on the same rows (in-sample
    BIC or AIC model selection, the baselines of the OTSL paper's comparison).

    Parameters
    ----------
    estimator : estimator
        A structure learner or a Pipeline ending in one.
    param_grid : dict or list of dict
        As in ``GridSearchCV``.
    scoring : str, callable, list or dict, default="bic"
        ``"bic"``, ``"aic"``, ``"ebic"``, ``"bdeu"``, ``"loglik"``, a structure scorer, or
        several of them.{search}

    References
    ----------
    G. Schwarz, "Estimating the dimension of a model", Annals of Statistics 6, 1978.
    H. Akaike, "A new look at the statistical model identification", IEEE TAC 19, 1974.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from skbn.learners import FGES
    >>> X = load_network("asia").sample(1000, random_state=0)
    >>> search = InSampleSearchCV(FGES(), {"penalty_discount": [1, 4]}).fit(X)
    >>> search.n_splits_, sorted(search.best_params_)
    (1, ['penalty_discount'])
    """

    _parameter_constraints = {
        **StructureSearchCV._parameter_constraints,
        "param_grid": [dict, list],
    }

    def __init__(
        self,
        estimator,
        param_grid,
        *,
        scoring="bic",
        refit=True,
        n_jobs: int | None = None,
        verbose: int = 0,
        error_score=np.nan,
        min_finite_fraction: float = 0.5,
        return_train_score: bool = False,
    ) -> None:
        self._set_search_parameters(
            estimator, scoring, refit, n_jobs, verbose, error_score, min_finite_fraction
        )
        self.return_train_score = return_train_score
        self.param_grid = param_grid

    @property
    def cv(self):
        """A single split whose training and test rows are all the rows."""
        return InSampleSplit()

    def _run_search(self, evaluate_candidates):
        evaluate_candidates(ParameterGrid(self.param_grid))


InSampleSearchCV.__doc__ = InSampleSearchCV.__doc__.replace("{search}", SEARCH_DOC)
