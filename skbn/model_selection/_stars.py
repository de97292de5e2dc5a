# SPDX-License-Identifier: BSD-3-Clause
"""StARS: stability approach to regularisation selection, for structure learners."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.utils import check_random_state

from skbn.model_selection._base_search import StructureSelection
from skbn.utils._features import record_features
from skbn.utils._parallel import N_JOBS_CONSTRAINT
from skbn.utils._param_validation import Interval

__all__ = ["StARSSearchCV"]


class StARSSearchCV(StructureSelection):
    """Baseline tuner: the least regularised configuration whose edges are stable.

    Each configuration is fitted on ``n_subsamples`` subsamples drawn without replacement.
    For every node pair, ``theta`` is the fraction of fits that join it and ``2 theta (1 -
    theta)`` its instability; a configuration's instability ``D`` is the mean over all pairs.
    Configurations are ordered from most to least regularised by their mean number of edges,
    ``D`` is made monotone along that order (running maximum), and the densest configuration
    with monotone instability at most ``beta`` is chosen (Liu, Roeder & Wasserman 2010).

    Parameters
    ----------
    estimator : estimator
        A structure learner or a Pipeline ending in one.
    param_grid : dict or list of dict
    beta : float, default=0.05
    n_subsamples : int, default=20
    subsample_size : int, default=None
        Rows per subsample; None uses ``min(n / 2, 10 sqrt(n))`` as Liu et al. suggest.
    refit : bool, default=True
    n_jobs : int, default=None
        Parallel fits (-1: every core); the result does not depend on it.
    random_state : int, RandomState instance or None, default=None
    verbose : int, default=0
        Above 0, a progress bar over the fits.

    Attributes
    ----------
    cv_results_ : dict
        ``params``, ``mean_n_edges``, ``instability``, ``monotone_instability``.
    best_index_, best_params_, best_estimator_
    graph_ : networkx.DiGraph
    network_ : network
        The refitted configuration's fitted network.

    References
    ----------
    H. Liu, K. Roeder and L. Wasserman, "Stability approach to regularization selection
    (StARS) for high dimensional graphical models", NeurIPS 2010.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from skbn.learners import PCStable
    >>> X = load_network("asia").sample(2000, random_state=0)
    >>> stars = StARSSearchCV(PCStable(), {"alpha": [0.001, 0.01, 0.05]}, n_subsamples=5,
    ...                       random_state=0).fit(X)
    >>> stars.best_params_["alpha"] in (0.001, 0.01, 0.05)
    True
    """

    _parameter_constraints = {
        "param_grid": [dict, list],
        "beta": [Interval(Real, 0, 0.5, closed="neither")],
        "n_subsamples": [Interval(Integral, 2, None, closed="left")],
        "subsample_size": [Interval(Integral, 2, None, closed="left"), None],
        "refit": ["boolean"],
        "n_jobs": N_JOBS_CONSTRAINT,
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        estimator,
        param_grid,
        *,
        beta: float = 0.05,
        n_subsamples: int = 20,
        subsample_size: int | None = None,
        refit: bool = True,
        n_jobs: int | None = None,
        random_state=None,
        verbose: int = 0,
    ) -> None:
        self.estimator = estimator
        self.param_grid = param_grid
        self.beta = beta
        self.n_subsamples = n_subsamples
        self.subsample_size = subsample_size
        self.refit = refit
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose

    def fit(self, X, y=None):
        """Run StARS on ``X``.

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
        n = len(X)
        names = (
            data.names
            if data is not None
            else (list(X.columns) if isinstance(X, pd.DataFrame) else range(np.shape(X)[1]))
        )
        record_features(self, names, frame=X)
        size = self.subsample_size or int(min(n / 2, 10 * np.sqrt(n)))
        if not 2 <= size < n:
            raise ValueError(f"subsample_size must be between 2 and n - 1 = {n - 1}, got {size}.")
        rng = check_random_state(self.random_state)
        subsamples = [
            np.sort(rng.choice(n, size=size, replace=False)) for _ in range(self.n_subsamples)
        ]
        jobs = [(c, s) for c in range(len(candidates)) for s in range(len(subsamples))]
        outcomes = self._fit_resamples(
            candidates, subsamples, X if data is None else data, "StARS fits", self.verbose
        )
        fits = [(o.adjacency | o.adjacency.T).astype(bool) for o in outcomes]
        p = fits[0].shape[0]
        upper = np.triu(np.ones((p, p), dtype=bool), 1)
        theta = np.zeros((len(candidates), p, p))
        for (c, _), A in zip(jobs, fits):
            theta[c] += A
        theta /= len(subsamples)
        edges = theta[:, upper].sum(axis=1)
        instability = (2 * theta * (1 - theta))[:, upper].mean(axis=1)
        order = np.argsort(edges, kind="stable")  # most regularised (fewest edges) first
        monotone = np.empty_like(instability)
        monotone[order] = np.maximum.accumulate(instability[order])
        stable = [k for k in order if monotone[k] <= self.beta]
        results = {
            "params": candidates,
            "mean_n_edges": edges,
            "instability": instability,
            "monotone_instability": monotone,
        }
        self._choose(X, candidates, stable[-1] if stable else order[0], results)
        return self
