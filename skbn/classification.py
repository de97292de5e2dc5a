# SPDX-License-Identifier: BSD-3-Clause
"""A Bayesian-network classifier for scikit-learn pipelines.

:class:`BayesianNetworkClassifier` learns a network over the features and the class, fits
its parameters, and predicts from the class's Markov blanket: with every feature observed,
``P(c | x)`` is proportional to the class's own table times its children's, so only those
families are evaluated (a numba kernel over the rows for discrete networks).
"""

from __future__ import annotations

import itertools
from numbers import Real

import networkx as nx
import numpy as np
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from skbn._kernels._threads import parallel_pays
from skbn._kernels.classify import Families, class_log_joint, class_log_joint_serial
from skbn._kernels.discrete import config_index
from skbn._supervised import (
    STRUCTURES,
    blanket_of,
    check_kept_continuous,
    feature_frame,
    structure_dag,
    supervised_data,
)
from skbn.base import BaseStructureLearner
from skbn.graph._convert import from_adjacency
from skbn.inference._elimination import elimination_order, sum_out
from skbn.network._parameters import DiscreteParameters, fit_parameters
from skbn.utils._param_validation import HasMethods, Interval, StrOptions, validate_params_of
from skbn.utils._warnings import warn

__all__ = ["BayesianNetworkClassifier"]


#: The score of the ``"auto"`` structure's BOSS search and of ``"hill_climb"``'s. For
#: prediction a blanket a little denser than BIC's pays: on 12 tables, BOSS (seeds 0-4)
#: and HillClimb (``examples/benchmarks/results/classifier_defaults``), AIC's held-out
#: log loss was within 1% of the best score's on 21 of 24 rows and 0.9% above it on
#: average, BIC's 14.8% (breast_cancer 0.129 against 0.165; ccard 0.562 against 0.723,
#: above the class prior's 0.662). The selector keeps BIC: its blanket is read as the
#: target's, and BIC's is the closer to the true one.
AUTO_CRITERION = "aic"

#: Most joint configurations of a row's missing features that prediction sums over.
MAX_MISSING_CONFIGURATIONS = 100_000


class BayesianNetworkClassifier(ClassifierMixin, BaseEstimator):
    """Classify with a Bayesian network learned over the features and the class.

    ``fit(X, y)`` adds the class to the features as one more discrete variable, learns a
    structure over all of them, and fits its parameters (tables smoothed by ``alpha``
    pseudo-counts per cell, regressions for continuous features kept continuous).
    ``predict_proba`` is exact: with every feature observed, the class's posterior depends
    only on its Markov blanket, the class's own table and its children's, evaluated for
    each class value.

    Parameters
    ----------
    structure : {"auto", "hill_climb", "naive_bayes", "tan"} or skbn learner, \
            default="auto"
        ``"auto"``: the structure :class:`~skbn.learners.BOSS` finds over features and
        class with the AIC score (``BOSS(criterion="aic")``; ``FGES()`` above 1,000
        columns, as :func:`~skbn.learners.default_learner`); the class predicts from the
        blanket it found, and features outside the blanket are ignored. AIC's blankets,
        a little denser than BIC's, predicted better on the benchmark's tables
        (``examples/benchmarks/results/classifier_defaults/``).
        ``"hill_climb"``: the same with :class:`~skbn.learners.HillClimb` (AIC too), the
        fastest search. ``"naive_bayes"``: the class is the only parent of each feature.
        ``"tan"``: a tree-augmented naive Bayes (:class:`~skbn.learners.TAN`), each feature
        with the class and at most one other feature as parents. A learner instance: its
        structure, used as for ``"auto"`` (a CPDAG or PDAG through a consistent DAG
        extension; a PDAG with none, as PC's conflicting colliders can give, keeps its
        directed arcs and orients its undirected edges along their topological order, names
        breaking ties, which may add v-structures).
    discretizer : transformer, "auto", "mdlp" or None, default="auto"
        How continuous (float) features enter: binned by this scikit-learn transformer
        (ordinal codes), fitted on the training rows (with the labels, for a supervised
        one); ``"auto"``: 5 quantile bins per column; ``"mdlp"``: Fayyad and Irani's
        supervised cuts (:class:`~skbn.preprocessing.MDLPDiscretizer`; lower log loss on
        two of the benchmark's four continuous data sets, higher on two, so not the
        default); ``None``: kept continuous, with a Gaussian regression per configuration
        of their discrete parents (a conditional-Gaussian network; the class stays a root
        of the continuous part).
    categorical_features : "auto" or array-like of str, int or bool, default="auto"
        Which number columns are categories. Text, categorical and boolean columns always
        are. ``"auto"``: a column of whole numbers (integer, or float because blank cells
        were read as NaN) with at most 5 distinct values is a category, and every other
        number column a measurement, binned by ``discretizer`` like a float column (ages,
        counts, doses; on six real tables this threshold had the lowest held-out log loss
        of those tried, ``examples/benchmarks/results/classifier_defaults/``). A list of
        column names
        or positions, or a boolean mask, as in scikit-learn's
        ``HistGradientBoostingClassifier``: those columns are categories and every other
        number column a measurement.
    handle_unknown : {"warn", "ignore", "error"}, default="warn"
        A category that ``fit`` did not see, at prediction: ``"warn"`` treats it as a
        missing value (marginalised) and warns, naming the column and the value;
        ``"ignore"`` does the same silently; ``"error"`` raises. Measurements fall in their
        bin, whatever their value.
    alpha : float, default=1.0
        Pseudo-count added to every cell of each table (Laplace's rule at 1, as
        scikit-learn's ``CategoricalNB(alpha=1)``); ``0`` gives maximum likelihood. For
        continuous features kept continuous, the pseudo-rows that shrink a residual
        variance toward the column's. Chosen on the benchmark's tables (11 data sets, four
        structures): its held-out log loss was on average 2.2% above the best of the
        settings tried (14.2% at most), against 3.1% for 2, 3.2% for 0.5, and 21.5% for
        BDeu's prior of 1 spread over each table, the former default.
    random_state : int, RandomState instance or None, default=None
        Seeds the ``"auto"`` structure's search (BOSS's starting orders).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels, sorted.
    graph_ : networkx.DiGraph
        The structure, over the feature names and the class (named ``"class"``, or with
        leading underscores if a feature has that name).
    markov_blanket_ : ndarray of str
        The features in the class's Markov blanket: the only ones prediction reads.
    parameters_ : object
        The fitted parameters (as a learner's ``parameters_``).
    discretizer_ : transformer or None
        The fitted discretiser of the continuous features, if any were binned.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Set when ``X`` is a DataFrame with string column names.

    See Also
    --------
    skbn.feature_selection.MarkovBlanketSelector : The blanket as a feature selector.
    skbn.learners.TAN : The tree-augmented naive Bayes structure.
    skbn.learners.ChowLiu : The Chow-Liu tree.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.model_selection import cross_val_score
    >>> from skbn.classification import BayesianNetworkClassifier
    >>> X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    >>> scores = cross_val_score(BayesianNetworkClassifier(), X, y, cv=3, scoring="roc_auc")
    >>> bool(scores.mean() > 0.95)
    True
    """

    _parameter_constraints = {
        "structure": [StrOptions(set(STRUCTURES)), HasMethods(["fit"])],
        "discretizer": [StrOptions({"auto", "mdlp"}), HasMethods(["fit", "transform"]), None],
        "categorical_features": [StrOptions({"auto"}), "array-like"],
        "handle_unknown": [StrOptions({"warn", "ignore", "error"})],
        "alpha": [Interval(Real, 0, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        structure="auto",
        discretizer="auto",
        categorical_features="auto",
        handle_unknown="warn",
        alpha=1.0,
        random_state=None,
    ):
        self.structure = structure
        self.discretizer = discretizer
        self.categorical_features = categorical_features
        self.handle_unknown = handle_unknown
        self.alpha = alpha
        self.random_state = random_state

    # -- fitting -----------------------------------------------------------------------------

    def fit(self, X, y):
        """Learn the structure and parameters from features ``X`` and labels ``y``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Discrete (categorical, object, bool, integer) and continuous (float) features;
            a missing value (NaN, None) is learned around (each family from the rows that
            observe it).
        y : array-like of shape (n_samples,)
            Class labels (strings, integers or booleans).

        Returns
        -------
        self
        """
        validate_params_of(self)
        if not isinstance(self.structure, (str, BaseStructureLearner)):
            raise ValueError(
                f"structure must be one of {', '.join(map(repr, STRUCTURES))} or an skbn "
                f"learner, got {type(self.structure).__name__}."
            )
        data, self._names, self.classes_, self._binning = supervised_data(
            self, X, y, self.discretizer, self.categorical_features
        )
        kinds = np.asarray(getattr(data, "discrete", np.ones(data.n_features, bool)))[:-1]
        if (
            isinstance(self.structure, str)
            and self.structure == "tan"
            and 0 < kinds.sum() < len(kinds)
        ):
            shown = [n for n, d in zip(data.names, kinds) if d][:8]
            raise ValueError(
                "structure='tan' needs all features discrete or all continuous, and with "
                f"discretizer=None these are categories: {shown} (a tree over both kinds "
                "may need a continuous parent of a discrete feature, which a "
                "conditional-Gaussian network cannot hold). Bin the numbers (the default "
                "discretizer), or read every number column as continuous with "
                "categorical_features=[]."
            )
        self.discretizer_ = self._binning.discretizer
        with np.errstate(divide="ignore"):
            frequencies = np.bincount(data.codes[:, -1], minlength=len(self.classes_))
            self._class_log_frequencies = np.log(frequencies / frequencies.sum())
        p = data.n_features
        target = p - 1
        dag = structure_dag(self.structure, data, target, self.random_state, AUTO_CRITERION)
        self.graph_ = from_adjacency(dag, data.names, kind="dag")
        self.parameters_ = fit_parameters(data, dag, self.alpha, per_cell=True)
        self._data_kind = data.kind
        # the features' names, kinds and states: what predict encodes new rows against
        self._schema = data.schema.take(slice(0, p - 1))
        self._arities = data.schema.arities()
        self.markov_blanket_ = np.array(
            [data.names[j] for j in blanket_of(dag, target)], dtype=object
        )
        self._families = np.array([target, *np.flatnonzero(dag[target])], dtype=np.int64)
        if isinstance(self.parameters_, DiscreteParameters):
            self._flat = self._flatten(self.parameters_)
        return self

    def _flatten(self, params: DiscreteParameters):
        """Flatten the class's families into the arrays :mod:`skbn._kernels.classify` reads."""
        parent_ptr, parents, strides, table_ptr, tables, r = [0], [], [], [0], [], []
        for j in self._families:
            pa = np.asarray(params.parents[j], dtype=np.int64)
            radix = self._arities[pa]
            # the first parent most significant, as config_index
            stride = np.ones(len(pa), dtype=np.int64)
            for m in range(len(pa) - 2, -1, -1):
                stride[m] = stride[m + 1] * radix[m + 1]
            parents.extend(pa.tolist())
            strides.extend(stride.tolist())
            parent_ptr.append(len(parents))
            table = np.ascontiguousarray(params.log_cpts[j], dtype=np.float64)
            tables.append(table.ravel())
            table_ptr.append(table_ptr[-1] + table.size)
            r.append(table.shape[1])
        as_int = lambda v: np.asarray(v, dtype=np.int64)  # noqa: E731
        return Families(
            as_int(self._families),
            as_int(parent_ptr),
            as_int(parents),
            as_int(strides),
            as_int(table_ptr),
            np.concatenate(tables) if tables else np.zeros(0),
            as_int(r),
        )

    # -- prediction --------------------------------------------------------------------------

    def _encode(self, X):
        """Codes (and values of continuous features) of X's rows; the class column zero.

        A discrete (or binned) feature that is missing, or holds a value not seen during fit,
        gets the code -1; a continuous one that is missing stays NaN: prediction
        marginalises both.
        """
        check_is_fitted(self, "graph_")
        frame = feature_frame(X)
        validate_data(self, X, reset=False, skip_check_array=True)
        if list(frame.columns) != self._names:
            frame.columns = self._names
        frame = self._binning.kinds(frame)
        check_kept_continuous(frame, self._binning)
        frame = self._binning.transform(frame)
        n, p = len(frame), len(self._names) + 1
        rows = self._schema.encode(frame, missing="allow", unknown="missing")
        codes = np.zeros((n, p), dtype=np.int64)
        if rows.codes is not None:
            codes[:, :-1] = rows.codes
        values = None
        if self._data_kind == "mixed":
            values = np.zeros((n, p))
            values[:, :-1] = rows.values
        unseen = rows.unseen
        if unseen and self.handle_unknown != "ignore":
            shown = "; ".join(f"{name!r}: {values_[:5]}" for name, values_ in unseen[:5])
            if self.handle_unknown == "error":
                raise ValueError(
                    f"Categories not seen during fit ({shown}). Set handle_unknown='warn' or "
                    "'ignore' to treat them as missing values (marginalised)."
                )
            warn(
                f"Categories not seen during fit are treated as missing values and "
                f"marginalised ({shown}). Set handle_unknown='ignore' to silence this, or "
                "'error' to refuse them.",
                UserWarning,
            )
        return codes, values

    def _family_rows(self, j: int, codes, values) -> np.ndarray:
        """Log-probability (or density) of node ``j`` given its parents, at each row."""
        if isinstance(self.parameters_, DiscreteParameters):
            index, _ = config_index(codes, self.parameters_.parents[j], self._arities)
            return self.parameters_.log_cpts[j][index, codes[:, j]]
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            return self.parameters_.family_log_likelihood_rows(j, codes, self._arities, values)

    def _complete_joint(self, codes, values) -> np.ndarray:
        """``log p(c, x)`` up to a row constant, for rows with every feature observed."""
        target, k = codes.shape[1] - 1, len(self.classes_)
        if isinstance(self.parameters_, DiscreteParameters):
            n_work = codes.shape[0] * len(self._families) * k
            kernel = class_log_joint if parallel_pays(n_work) else class_log_joint_serial
            return kernel(codes, target, k, self._flat)
        joint = np.zeros((codes.shape[0], k))
        for j in self._families:
            part = np.empty_like(joint)
            for c in range(k):
                codes[:, target] = c
                part[:, c] = self._family_rows(j, codes, values)
            # a value impossible under every class (a feature constant in the training rows,
            # seen at another value) says nothing about the class: left out
            part[~np.isfinite(part).any(axis=1)] = 0.0
            joint += np.nan_to_num(part, nan=-np.inf)
        return joint

    def _hidden_plan(self, missing: list[int]):
        """Return what summing out ``missing`` takes: ``(gone, integrated, families)``.

        A missing feature all of whose children are missing and summed out too (a barren
        node: every missing leaf, so every missing feature of naive Bayes) sums to one and
        drops out with its family. Of the rest, ``gone`` are the discrete features whose
        configurations are enumerated, ``integrated`` the continuous ones with their
        continuous descendants (integrated in closed form), and ``families`` the families
        that depend on the class or on ``gone``.
        """
        target = len(self._names)
        parents = self.parameters_.parents
        children = [[] for _ in parents]
        for j, pa in enumerate(parents):
            for u in np.asarray(pa).tolist():
                children[int(u)].append(j)
        barren: set[int] = set()
        changed = True
        while changed:
            changed = False
            for m in missing:
                if m not in barren and all(c in barren for c in children[m]):
                    barren.add(m)
                    changed = True
        discrete = np.append(self._schema.discrete, True)  # the class is discrete
        kept = [m for m in missing if m not in barren]
        gone = [m for m in kept if discrete[m]]
        integrated = self._integrated([m for m in kept if not discrete[m]])
        hidden = {target, *gone}
        families = [
            j
            for j, pa in enumerate(parents)
            if j not in integrated
            and j not in barren
            and (j in hidden or hidden.intersection(np.asarray(pa).tolist()))
        ]
        return gone, integrated, families

    def _sum_plan(self, pattern):
        """Return :meth:`_hidden_plan` of a pattern, with a discrete network's elimination order.

        Refused where the sum needs more than :data:`MAX_MISSING_CONFIGURATIONS` cells at
        once (a row).
        """
        gone, integrated, families = self._hidden_plan(np.flatnonzero(pattern).tolist())
        target = len(self._names)
        if isinstance(self.parameters_, DiscreteParameters):
            hidden = {target, *gone}
            scopes = [
                [v for v in (*np.asarray(self.parameters_.parents[j]).tolist(), j) if v in hidden]
                for j in families
            ]
            order, cells = elimination_order(scopes, gone, self._arities)
            what = "a table of"
        else:  # every configuration of the missing discrete features, one at a time
            order, cells = None, np.prod([int(self._arities[m]) for m in gone], dtype=float)
            what = "summing over their"
        if cells > MAX_MISSING_CONFIGURATIONS:
            shown = [self._names[m] for m in gone][:8]
            raise ValueError(
                f"Rows miss features {shown} together, and summing them out needs {what} "
                f"{cells:.0f} joint configurations, more than {MAX_MISSING_CONFIGURATIONS}; "
                "impute some of them first (e.g. sklearn.impute.SimpleImputer)."
            )
        return gone, integrated, families, order

    def _marginal_joint(self, codes, values, plan) -> np.ndarray:
        """``log p(c, x_observed)``, up to a row constant, of rows missing the same features.

        ``plan`` comes from :meth:`_sum_plan`.

        Exact: missing features with only missing descendants drop out (they sum to one);
        the families that hold the class or another missing discrete feature are summed
        over those features, by variable elimination in a discrete network and
        configuration by configuration in a conditional-Gaussian one (the other families do
        not depend on the class). Missing continuous features are integrated out in closed
        form: with their continuous descendants they form a linear-Gaussian system given
        the rest (:meth:`_gaussian_block`). As for complete rows, a family whose observed
        values are impossible under every class and value of the missing features (a zero
        of a maximum-likelihood table) says nothing about the class and is left out.
        """
        gone, integrated, families, order = plan
        if order is not None:
            return self._eliminated(codes, gone, families, order)
        joint = self._summed(codes, values, gone, integrated, families)
        impossible = ~np.isfinite(joint).any(axis=1)
        if impossible.any():
            rows = np.flatnonzero(impossible)
            sub_codes = codes[rows]
            sub_values = None if values is None else values[rows]
            alive = self._possible_families(sub_codes, sub_values, gone, families)
            joint[rows] = self._summed(sub_codes, sub_values, gone, integrated, families, alive)
        return joint

    def _eliminated(self, codes, gone, families, order) -> np.ndarray:
        """:meth:`_marginal_joint` of a discrete network, by variable elimination."""
        params, target = self.parameters_, codes.shape[1] - 1
        free = {target, *gone}
        factors = []
        for j in families:
            scope = (*np.asarray(params.parents[j]).tolist(), j)
            table = np.exp(params.log_cpts[j]).reshape(self._arities[list(scope)])
            seen = [a for a, v in enumerate(scope) if v not in free]
            kept = [a for a, v in enumerate(scope) if v in free]
            table = table.transpose(seen + kept)
            if seen:
                values = table[tuple(codes[:, scope[a]] for a in seen)]
                # impossible whatever the class and the missing features: left out
                dead = ~(values.reshape(len(values), -1) > 0).any(axis=1)
                values[dead] = 1.0
            else:
                values = table[None]
            factors.append((tuple(scope[a] for a in kept), values))
        values, log_scale = sum_out(factors, order, (target,))
        with np.errstate(divide="ignore"):
            return np.log(values) + log_scale[:, None]

    def _configurations(self, gone):
        return itertools.product(*(range(int(self._arities[m])) for m in gone))

    def _possible_families(self, codes, values, gone, families) -> np.ndarray:
        """``alive[f, i]``: family ``families[f]`` is possible at row ``i``.

        Possible for some class and configuration of the features ``gone``.
        """
        target, k = codes.shape[1] - 1, len(self.classes_)
        alive = np.zeros((len(families), codes.shape[0]), dtype=bool)
        for config in self._configurations(gone):
            codes[:, gone] = config
            for c in range(k):
                codes[:, target] = c
                for f, j in enumerate(families):
                    alive[f] |= np.isfinite(self._family_rows(j, codes, values))
        return alive

    def _summed(self, codes, values, gone, integrated, families, alive=None) -> np.ndarray:
        target, k = codes.shape[1] - 1, len(self.classes_)
        joint = np.full((codes.shape[0], k), -np.inf)
        for config in self._configurations(gone):
            codes[:, gone] = config
            for c in range(k):
                codes[:, target] = c
                total = np.zeros(codes.shape[0])
                for f, j in enumerate(families):
                    part = self._family_rows(j, codes, values)
                    total += part if alive is None else np.where(alive[f], part, 0.0)
                if integrated:
                    total = total + self._gaussian_block(integrated, codes, values)
                joint[:, c] = np.logaddexp(joint[:, c], total)
        return joint

    def _integrated(self, hidden: list[int]) -> list[int]:
        """Return the missing continuous features and their descendants, topologically."""
        if not hidden:
            return []
        # the fitted parameters hold the DAG (each node's parents)
        dag = nx.DiGraph((int(u), j) for j, pa in enumerate(self.parameters_.parents) for u in pa)
        dag.add_nodes_from(range(len(self.parameters_.parents)))
        block = set(hidden).union(*(nx.descendants(dag, v) for v in hidden))
        return [v for v in nx.topological_sort(dag) if v in block]

    def _gaussian_block(self, block: list[int], codes, values) -> np.ndarray:
        """Log-density of the observed members of ``block`` at each row, the rest integrated.

        ``block`` (missing continuous features and their descendants, topologically sorted)
        is ``x = B x + b + e`` given the row's discrete values and the observed continuous
        parents outside it: ``b`` the intercepts plus those parents' terms, ``e`` the
        residuals. So ``x ~ N((I - B)^-1 b, (I - B)^-1 D (I - B)^-T)``, whose marginal on the
        observed members is the density returned.
        """
        params, n, m = self.parameters_, codes.shape[0], len(block)
        where = {v: i for i, v in enumerate(block)}
        B, b, D = np.zeros((n, m, m)), np.zeros((n, m)), np.zeros((n, m))
        for i, v in enumerate(block):
            intercepts, coefficients, variances = params.regression_rows(v, codes, self._arities)
            b[:, i], D[:, i] = intercepts, variances
            for col, u in enumerate(params.regressions[v].continuous_parents):
                if u in where:
                    B[:, i, where[u]] = coefficients[:, col]
                else:
                    b[:, i] += coefficients[:, col] * values[:, u]
        seen = [i for i, v in enumerate(block) if not np.isnan(values[0, v])]
        if not seen:
            return np.zeros(n)
        A = np.linalg.inv(np.eye(m) - B)
        mean = np.einsum("nij,nj->ni", A, b)[:, seen]
        cov = np.einsum("nij,nj,nkj->nik", A, D, A)[:, seen][:, :, seen]
        residual = values[:, [block[i] for i in seen]] - mean
        _, logdet = np.linalg.slogdet(cov)
        quad = np.einsum("ni,ni->n", residual, np.linalg.solve(cov, residual[..., None])[..., 0])
        return -0.5 * (len(seen) * np.log(2 * np.pi) + logdet + quad)

    def predict_log_proba(self, X) -> np.ndarray:
        """Log-probability of each class for each row of ``X``.

        A missing value (NaN, None), or a category not seen during fit (see
        ``handle_unknown``), is marginalised exactly: the posterior is that of the observed
        features (a missing continuous feature is integrated out of its linear-Gaussian
        family and its descendants').

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            The features of ``fit``.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        codes, values = self._encode(X)
        absent = codes[:, :-1] < 0
        if values is not None:
            absent |= np.isnan(values[:, :-1])
        incomplete = absent.any(axis=1)
        joint = np.empty((codes.shape[0], len(self.classes_)))
        complete = ~incomplete
        if complete.all():  # the usual case: no copy of the rows
            joint[:] = self._complete_joint(codes, values)
        elif complete.any():
            joint[complete] = self._complete_joint(
                codes[complete], None if values is None else values[complete]
            )
        if incomplete.any():
            rows = np.flatnonzero(incomplete)
            patterns, group = np.unique(absent[rows], axis=0, return_inverse=True)
            plans = [self._sum_plan(pattern) for pattern in patterns]  # refusals first
            for g, plan in enumerate(plans):
                chosen = rows[group.ravel() == g]
                joint[chosen] = self._marginal_joint(
                    codes[chosen], None if values is None else values[chosen], plan
                )
        # observed values impossible together (each possible alone, so no family dropped out;
        # maximum-likelihood tables only): the class's training frequencies
        impossible = ~np.isfinite(joint).any(axis=1)
        joint[impossible] = self._class_log_frequencies
        return joint - logsumexp(joint, axis=1, keepdims=True)

    def predict_proba(self, X) -> np.ndarray:
        """Probability of each class (columns in the order of ``classes_``) for each row.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        return np.exp(self.predict_log_proba(X))

    def predict(self, X) -> np.ndarray:
        """Predict the most probable class of each row.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        log_proba = self.predict_log_proba(X)
        return self.classes_[np.argmax(log_proba, axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # a missing value is learned around (available-case scores, tables and
        # regressions) and marginalised at prediction
        tags.input_tags.allow_nan = True
        return tags
