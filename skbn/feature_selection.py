# SPDX-License-Identifier: BSD-3-Clause
"""Feature selection by the target's Markov blanket.

In a Bayesian network the Markov blanket of a variable (its parents, its children and its
children's other parents) makes it independent of every other variable: given the blanket,
no further feature tells anything about the target. :class:`MarkovBlanketSelector` learns a
network over the features and the target and keeps the blanket's columns, for any
scikit-learn model downstream.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.validation import check_is_fitted

from skbn._supervised import (
    blanket_of,
    pdag_blanket_of,
    strongest_features,
    structure_graph,
    supervised_data,
)
from skbn.base import BaseStructureLearner
from skbn.graph._convert import from_adjacency
from skbn.utils._param_validation import HasMethods, Interval, StrOptions, validate_params_of
from skbn.utils._warnings import warn

__all__ = ["MarkovBlanketSelector"]


def _target_name(y) -> str:
    name = getattr(y, "name", None)
    return "the target" if name is None else f"the target {str(name)!r}"


class MarkovBlanketSelector(SelectorMixin, BaseEstimator):
    """Keep the features in the Markov blanket of a discrete target.

    ``fit(X, y)`` learns a network over the features and ``y`` (a discrete variable, as a
    class) and keeps the features in ``y``'s Markov blanket: its parents, its children and
    its children's other parents. Continuous features are binned for the structure search
    only; ``transform`` returns the original columns.

    Parameters
    ----------
    learner : "auto", "hill_climb" or skbn learner, default="auto"
        The structure learner: ``"auto"`` is :class:`~skbn.learners.BOSS` (``FGES()``
        above 1,000 columns, as :func:`~skbn.learners.default_learner`), whose blankets on
        ALARM had a mean F1 of 0.942 at n = 10,000 and 0.828 at n = 1,000 against the true
        ones, where
        ``"hill_climb"`` (:class:`~skbn.learners.HillClimb` with BIC, faster) had 0.874 and
        0.766 (``examples/benchmarks/results/classification``). A Markov-blanket learner
        (:class:`~skbn.learners.IAMB`, :class:`~skbn.learners.GrowShrink`,
        :class:`~skbn.learners.HITONMB`) learns the target's blanket alone, with tests.
        Any other skbn learner (e.g. ``PCStable()``) learns the whole network, and the
        blanket is read off it (a CPDAG through a consistent DAG extension).
    discretizer : transformer, "auto", "mdlp" or None, default="auto"
        How continuous (float) features enter the search: binned by this transformer;
        ``"auto"``: 5 quantile bins; ``"mdlp"``: supervised cuts
        (:class:`~skbn.preprocessing.MDLPDiscretizer`); ``None``: kept continuous
        (conditional-Gaussian scores).
    categorical_features : "auto" or array-like of str, int or bool, default="auto"
        Which number columns are categories, as for
        :class:`~skbn.classification.BayesianNetworkClassifier`: with ``"auto"`` a column
        of whole numbers with at most 5 distinct values is a category and every other
        number column a measurement (binned by ``discretizer``); a list of names or
        positions, or a mask: those are the categories.
    min_features : int, default=1
        The fewest features kept. When the blanket found is smaller (a target that the
        search left unconnected, as a small sample can give), the features most
        associated with the target (mutual information on the searched data) fill it up,
        with a warning naming the target, so that a model after the selector never
        receives zero columns. ``0`` keeps an empty blanket empty.
    random_state : int, RandomState instance or None, default=None
        Seeds the ``"auto"`` learner's search (BOSS's starting orders).

    Attributes
    ----------
    markov_blanket_ : ndarray of str
        The feature names in the learned blanket, in column order.
    selected_ : ndarray of str
        The selected feature names, in column order: the blanket, filled up to
        ``min_features`` where it was smaller.
    graph_ : networkx.DiGraph or None
        The learned structure over the features and the target (named ``"class"``, or with
        leading underscores if a feature has that name); None for a Markov-blanket learner,
        which learns no whole structure.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Set when ``X`` is a DataFrame with string column names.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from skbn.feature_selection import MarkovBlanketSelector
    >>> X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    >>> selector = MarkovBlanketSelector().fit(X, y)
    >>> len(selector.get_feature_names_out()) < X.shape[1]
    True
    >>> model = make_pipeline(MarkovBlanketSelector(), StandardScaler(), LogisticRegression())
    >>> bool(model.fit(X, y).score(X, y) > 0.9)
    True
    """

    _parameter_constraints = {
        "learner": [StrOptions({"auto", "hill_climb"}), HasMethods(["fit"])],
        "discretizer": [StrOptions({"auto", "mdlp"}), HasMethods(["fit", "transform"]), None],
        "categorical_features": [StrOptions({"auto"}), "array-like"],
        "min_features": [Interval(Integral, 0, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        learner="auto",
        discretizer="auto",
        categorical_features="auto",
        min_features=1,
        random_state=None,
    ):
        self.learner = learner
        self.discretizer = discretizer
        self.categorical_features = categorical_features
        self.min_features = min_features
        self.random_state = random_state

    def fit(self, X, y):
        """Learn the network and the target's blanket.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            The features; a missing value (NaN, None) is learned around (available-case
            scores).
        y : array-like of shape (n_samples,)
            The target, a discrete variable (labels).

        Returns
        -------
        self
        """
        validate_params_of(self)
        if not isinstance(self.learner, (str, BaseStructureLearner)):
            raise ValueError(
                f"learner must be 'auto', 'hill_climb' or an skbn learner, got "
                f"{type(self.learner).__name__}."
            )
        data, names, _, _ = supervised_data(self, X, y, self.discretizer, self.categorical_features)
        target = data.n_features - 1
        if hasattr(self.learner, "blanket_of"):
            # a Markov-blanket learner learns the target's blanket alone
            blanket = clone(self.learner).blanket_of(data, target)
            self.graph_ = None
        else:
            dag, pdag = structure_graph(self.learner, data, target, self.random_state)
            self.graph_ = from_adjacency(dag, data.names, kind="dag")
            # a PDAG without a consistent extension defines its blanket itself
            blanket = blanket_of(dag, target) if pdag is None else pdag_blanket_of(pdag, target)
        self.markov_blanket_ = np.array([names[j] for j in blanket], dtype=object)
        selected = list(blanket)
        wanted = min(self.min_features, len(names))
        if len(selected) < wanted:
            ranked = [j for j in strongest_features(data, target, len(names)) if j not in blanket]
            added = ranked[: wanted - len(selected)]
            selected = sorted(selected + added)
            warn(
                f"The Markov blanket learned for {_target_name(y)} has {len(blanket)} feature(s), "
                f"fewer than min_features={self.min_features}; kept the most associated "
                f"with it as well ({[names[j] for j in added][:10]}). A target left "
                "unconnected often means too few rows for the search.",
                UserWarning,
            )
        elif not selected:
            warn(
                f"The Markov blanket learned for {_target_name(y)} is empty, so no feature is "
                "selected (min_features=0).",
                UserWarning,
            )
        self._support = np.zeros(len(names), dtype=bool)
        self._support[selected] = True
        self.selected_ = np.array([names[j] for j in selected], dtype=object)
        return self

    def _get_support_mask(self):
        check_is_fitted(self, "markov_blanket_")
        return self._support

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # missing values are learned around (available-case scores) and passed through by
        # transform
        tags.input_tags.allow_nan = True
        tags.target_tags.required = True
        return tags
