# SPDX-License-Identifier: BSD-3-Clause
"""The base of every structure learner: validation, feature names, graph and parameters.

A learner subclasses :class:`BaseStructureLearner` and implements ``_learn(data)``, returning
an adjacency array and its kind. The base class validates parameters and data, converts the
result to ``graph_`` (a networkx DiGraph over the feature names), fits the network's
parameters, and provides ``score_samples``/``score`` so that scikit-learn's model selection
tools can compare learners by held-out log-likelihood.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from skbn.ci_tests._registry import CI_TESTS
from skbn.constraints import CONSTRAINT_KINDS, EdgeConstraints
from skbn.data import (
    ROWS_PER_PARAMETER,
    FewRowsWarning,
    MissingValuesError,
    check_data,
)
from skbn.graph._array import name_order, pdag_to_dag_array
from skbn.graph._convert import from_adjacency
from skbn.graph._pag import from_endpoint_matrix
from skbn.network._parameters import CPT_PRIOR_ISS, CGParameters, DiscreteParameters, fit_parameters
from skbn.scores._registry import SCORES, families_handling_missing
from skbn.utils._features import record_features
from skbn.utils._param_validation import validate_params_of
from skbn.utils._registry import required_kind
from skbn.utils._warnings import stack_level

__all__ = ["BaseStructureLearner"]

#: How an error names a data kind to a user.
_KIND_WORDS = {"gaussian": "continuous"}


def _warn_if_few_rows(dag, data) -> None:
    """Warn when the largest Gaussian family has too few rows per parameter."""
    indegree = np.asarray(dag.sum(axis=0)).ravel()
    if indegree.size == 0:
        return
    node = int(np.argmax(indegree))
    k = int(indegree[node])
    if data.n_samples >= ROWS_PER_PARAMETER * (k + 2):
        return
    warnings.warn(
        f"The learned graph gives {data.names[node]!r} {k} parents from {data.n_samples} "
        f"rows, fewer than {ROWS_PER_PARAMETER} rows per parameter of its regression: with "
        "so few rows Gaussian likelihood scores keep rewarding parents, and the graph is "
        "likely over-dense. Use the default score (GaussianEBIC), a larger "
        "penalty_discount, max_indegree, or more rows.",
        FewRowsWarning,
        stacklevel=stack_level(),
    )


class BaseStructureLearner(BaseEstimator):
    """Base class of skbn's structure learners (not for direct use).

    Subclasses implement ``_learn(data, prepared) -> (adjacency, kind)`` (for ``kind="pag"``
    an endpoint matrix, see :mod:`skbn.graph`, and no parameters are fitted), where ``prepared``
    is what ``_prepare(data, constraints)`` returned after checking data-dependent parameters
    (by default the checked :class:`~skbn.constraints.EdgeConstraints`). Decisions shared by
    all learners are made once, here and in the services it calls: the data kind and the
    score or test a family name stands for (``_family_parameters``, through the registries
    of :mod:`skbn.scores` and :mod:`skbn.ci_tests`), the background knowledge
    (``_constraint_kinds``, through :mod:`skbn.constraints`), and what ``n_jobs`` means
    (:mod:`skbn.utils._parallel`). Score-based learners call their score parameter
    ``criterion``, because ``score`` is the method scikit-learn's model selection calls.

    Examples
    --------
    A learner that always returns the empty graph gets validation, ``graph_``, fitted
    parameters and held-out scoring from the base:

    >>> import numpy as np
    >>> from skbn.datasets import load_network
    >>> class Empty(BaseStructureLearner):
    ...     def _learn(self, data, prepared):
    ...         return np.zeros((data.n_features,) * 2, dtype=np.int8), "dag"
    >>> X = load_network("asia").sample(500, random_state=0)
    >>> est = Empty().fit(X)
    >>> est.graph_.number_of_edges(), est.network_.n_parameters
    (0, 8)
    """

    _parameter_constraints: dict = {}

    #: The parameters that take a score or CI test (or its family name), with their registry:
    #: together they decide which kind of data the learner needs.
    _family_parameters: tuple = ()

    #: Whether ``_prepare`` and ``_learn`` see the columns in name order
    #: (:func:`skbn.graph._array.name_order`): the fit template permutes the data and builds
    #: the constraints on that order, and maps the returned adjacency and the
    #: ``_positional_attributes`` back to the data's order. Every tie a search breaks by
    #: position and every random draw of positions is then the same for any column order.
    #: Learners whose ties go by name ranks without a permuted copy (PC-Stable, MMHC, FGES)
    #: leave it False, as do meta-estimators, whose inner learners permute for themselves.
    _runs_in_name_order: bool = False

    #: Whether ``graph_`` is a PAG (hidden common causes allowed; no parameters, no
    #: likelihood). Tools that need a DAG or CPDAG (bootstraps, ensembles, tuning on held-out
    #: likelihood) refuse such a learner by this flag.
    _learns_pag: bool = False

    #: Fitted (p, p) arrays that ``_learn`` sets in its columns' order and the fit template
    #: maps back to the data's order (with ``_runs_in_name_order``).
    _positional_attributes: tuple = ()

    #: Whether the search learns from data with missing values through its score's
    #: available-case form and its test's testwise deletion (see :meth:`_check_missing`).
    _handles_missing: bool = False

    #: The learners of :mod:`skbn.learners` whose ``_handles_missing`` is set, as their
    #: classes are defined: the error for missing values names them from their own flags.
    _takers_of_missing: list = []

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        public = not cls.__name__.startswith("_") and cls.__module__.startswith("skbn.learners")
        if public and cls._handles_missing:
            BaseStructureLearner._takers_of_missing.append(cls.__name__)

    #: The kinds of background knowledge the learner honours (see :mod:`skbn.constraints`);
    #: setting another kind is refused before any work.
    _constraint_kinds: frozenset = frozenset()
    #: Why a kind outside ``_constraint_kinds`` cannot be honoured, for the error message.
    _constraint_refusal: str = ""

    def _edge_constraints(self, names, discrete=None) -> EdgeConstraints:
        """Check the learner's background knowledge against the columns (the one service).

        ``discrete`` marks the discrete columns of mixed data: arcs from a continuous column
        into a discrete one are ruled out, as conditional-Gaussian networks require.
        """
        values = {param: getattr(self, param, None) for param in CONSTRAINT_KINDS.values()}
        refused = [
            param
            for kind, param in CONSTRAINT_KINDS.items()
            if values[param] is not None and kind not in self._constraint_kinds
        ]
        if refused:
            raise ValueError(
                f"{type(self).__name__} cannot honour {', '.join(refused)}. "
                f"{self._constraint_refusal}".rstrip()
            )
        return EdgeConstraints.from_parameters(names, discrete=discrete, **values)

    # -- data kind and families ---------------------------------------------------------------

    def _kind_specs(self) -> list:
        """``(registry, value)`` of every parameter that constrains the data kind."""
        registries = {"criterion": SCORES, "ci_test": CI_TESTS, "selection_score": SCORES}
        return [(registries[name], getattr(self, name)) for name in self._family_parameters]

    def _required_data_kind(self) -> str:
        """Return the kind of data the learner needs ("discrete", "gaussian") or "auto"."""
        return required_kind(*self._kind_specs())

    def _resolve_family(self, parameter: str, data, **params):
        """Return the score or test ``parameter`` stands for on ``data`` (via the registry)."""
        registry = {"criterion": SCORES, "ci_test": CI_TESTS, "selection_score": SCORES}[parameter]
        return registry.resolve(getattr(self, parameter), data.kind, **params)

    def _resolved_score(self, data):
        # learners with a ``penalty_discount`` parameter hand it to a score given by name (or
        # None); with a score object the registry refuses it, before any work
        discount = getattr(self, "penalty_discount", 1.0)
        params = {} if discount == 1.0 else {"penalty_discount": discount}
        return self._resolve_family("criterion", data, **params)

    def set_params(self, **params):
        """Set the parameters of this learner (nested ones as ``criterion__gamma``).

        Parameters
        ----------
        **params
            Parameter names and values, as in scikit-learn.

        Returns
        -------
        self
        """
        for key in params:
            name, _, nested = key.partition("__")
            if nested and name in self._family_parameters:
                value = params.get(name, getattr(self, name, None))
                if isinstance(value, str) or value is None:
                    raise ValueError(
                        f"{key} sets a parameter of {name}, but {name}={value!r} is a family "
                        f"name, not an object. Pass the object (e.g. {name}=EBIC() or "
                        f"GaussianEBIC() for 'ebic') to search its parameters."
                    )
        return super().set_params(**params)

    # -- fitting -----------------------------------------------------------------------------

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
        kind = self._required_data_kind()
        try:
            missing = "allow" if self._handles_missing else "error"
            data = check_data(X, kind=kind, missing=missing)
        except MissingValuesError as exc:
            takers = ", ".join(sorted(set(self._takers_of_missing)))
            raise MissingValuesError(
                f"{exc} {type(self).__name__} needs complete data; {takers} learn from "
                "missing values (available-case scores, testwise deletion), and StructuralEM, "
                "MultipleImputation and bootstraps of those learners take them too."
            ) from None
        except ValueError as exc:
            if kind == "auto":
                raise
            if not self._family_parameters:  # no score or test to swap: only the data can change
                found = str(exc).split(";")[0].split(". ")[0].rstrip(".")
                words = _KIND_WORDS.get(kind, kind)
                raise ValueError(
                    f"{type(self).__name__} models {words} data only: {found}. Cast numeric "
                    "columns with X.astype(float) (on the command line, --kind gaussian)."
                ) from None
            specs = ", ".join(
                f"{name}={getattr(self, name)!r}"
                for name in self._family_parameters
                if getattr(self, name, None) is not None
            )
            who = type(self).__name__ + (f" with {specs}" if specs else "")
            hints = [
                f" Pass {name}={r.family_of(v)!r} to use the {r.what} of that family for "
                "the data's kind."
                for name, (r, v) in zip(self._family_parameters, self._kind_specs())
                if not isinstance(v, str)
                and v is not None
                and len(r.kinds(r.family_of(v) or v)) > 1
            ]
            raise ValueError(f"{who} needs {kind} data: {exc}{''.join(hints)}") from None
        if data.has_missing:
            self._check_missing(data)
        A, graph_kind = self._prepare_and_learn(data)
        record_features(self, data.names)
        self.data_kind_ = data.kind
        # names, kinds and states: what score_samples and network_ encode new rows against
        self._schema = data.schema
        if graph_kind == "pag":
            # an endpoint matrix; a PAG holds no one DAG to fit parameters on
            self.graph_ = from_endpoint_matrix(A, data.names, kind="pag")
            self.parameters_ = None
            return self
        self.graph_ = from_adjacency(A, data.names, kind=graph_kind)
        dag = A if graph_kind == "dag" else pdag_to_dag_array(A)
        if dag is not None and data.kind == "gaussian":
            _warn_if_few_rows(dag, data)
        self.parameters_ = None if dag is None else fit_parameters(data, dag, self._cpt_iss())
        return self

    def _prepare_and_learn(self, data):
        """``_learn(data, _prepare(data, constraints))``, in name order if the learner asks.

        The adjacency comes back in the data's column order.
        """
        order = name_order(data.names) if self._runs_in_name_order else None
        if order is not None and np.array_equal(order, np.arange(len(order))):
            order = None  # already in name order: no copy
        # knowledge given as matrices is in the data's column order: checked there, then
        # permuted with the data
        constraints = self._edge_constraints(data.names, getattr(data, "discrete", None))
        work = data
        if order is not None:
            work, constraints = data.take(columns=order), constraints.take(order)
        self._fit_column_order = order
        try:
            A, graph_kind = self._learn(work, self._prepare(work, constraints))
        finally:
            del self._fit_column_order
        if order is None:
            return A, graph_kind
        back = np.argsort(order)
        for name in self._positional_attributes:
            setattr(self, name, getattr(self, name)[np.ix_(back, back)])
        return np.asarray(A)[np.ix_(back, back)], graph_kind

    def _data_positions(self) -> np.ndarray | None:
        """During ``_learn``: the data's column position of each column ``_learn`` sees.

        None when they are the same (no permutation).
        """
        return self._fit_column_order

    def _check_missing(self, data) -> None:
        """Refuse, before any work, a score with no available-case form on incomplete data.

        Only learners with ``_handles_missing`` get here: for the others ``check_data``
        refuses missing values itself.
        """
        incomplete = [n for n, ok in zip(data.names, data.observed.all(axis=0)) if not ok]
        shown = ", ".join(map(repr, incomplete[:8])) + (" ..." if len(incomplete) > 8 else "")
        for name in self._family_parameters:
            if name == "ci_test":
                continue  # every CI test runs with testwise deletion
            resolved = self._resolve_family(name, data)
            if not resolved.handles_missing:
                names = families_handling_missing(data.kind)
                choices = ", ".join(map(repr, names[:-1])) + f" or {names[-1]!r}"
                raise ValueError(
                    f"Columns {shown} contain missing values (NaN), and {name}="
                    f"{type(resolved).__name__}() has no available-case form. Use a penalised "
                    f"likelihood ({name}={choices}), which scores each family on the rows "
                    "where it is observed, or skbn.learners.StructuralEM."
                )

    def _cpt_iss(self) -> float:
        """Equivalent sample size of the prior of the fitted CPTs (0: maximum likelihood)."""
        return CPT_PRIOR_ISS

    def _prepare(self, data, constraints: EdgeConstraints):
        """Check what needs the data before any work; the return value goes to ``_learn``.

        ``constraints`` holds the checked background knowledge; learners that honour it pass
        it on (the default does).
        """
        return constraints

    def _learn(self, data, prepared):  # pragma: no cover - abstract
        raise NotImplementedError

    # -- density ----------------------------------------------------------------------------

    def _encode_like_fit(self, X):
        """X's rows in the fit-time encoding: codes, values, or (codes, values) if mixed."""
        rows = self._schema.encode(X, who=type(self).__name__)
        if rows.codes is None:
            return rows.values
        return rows.codes if rows.values is None else (rows.codes, rows.values)

    def score_samples(self, X) -> np.ndarray:
        """Log-likelihood of each row under the fitted network.

        Discrete parameters are CPTs smoothed with a Dirichlet prior of equivalent sample
        size 1 spread over each table, so unseen configurations keep a finite likelihood;
        Gaussian ones are least-squares regressions on the parents, the residual variance
        shrunk toward the column's variance by one pseudo-row. A CPDAG is evaluated
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
        if len(encoded[0] if isinstance(encoded, tuple) else encoded) == 0:
            raise ValueError("X has 0 rows; scoring needs at least one.")
        if isinstance(self.parameters_, DiscreteParameters):
            return self.parameters_.log_likelihood_rows(encoded, self._schema.arities())
        if isinstance(self.parameters_, CGParameters):
            codes, values = encoded
            return self.parameters_.log_likelihood_rows(codes, self._schema.arities(), values)
        return self.parameters_.log_likelihood_rows(encoded)

    @property
    def network_(self):
        """The fitted network: structure and parameters, with node and state labels.

        A :class:`~skbn.network.DiscreteBayesianNetwork` (CPTs smoothed as for
        :meth:`score_samples`: a Dirichlet prior of equivalent sample size 1 spread over each
        table) or a :class:`~skbn.network.LinearGaussianNetwork` (least-squares regressions,
        with intercepts, the variance shrunk as for :meth:`score_samples`) or, on mixed data,
        a :class:`~skbn.network.ConditionalGaussianNetwork` (those CPTs for the discrete
        nodes, a regression per configuration of the discrete parents for the continuous
        ones). Its ``log_likelihood`` equals :meth:`score_samples`. A CPDAG or PDAG is turned
        into a DAG by a consistent extension; every extension of a CPDAG gives the same
        likelihood. It can be sampled; discrete and linear-Gaussian networks can be written
        with :func:`skbn.io.write_network` (BIF, Hugin NET, GeNIe XDSL) or converted for
        pgmpy and pyAgrum (:mod:`skbn.io`). Another prior: :func:`skbn.parameters.fit_network`.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before ``fit``.
        ValueError
            When the learned PDAG has no consistent DAG extension.
        """
        check_is_fitted(self, "graph_")
        if self.parameters_ is None and self.graph_.graph.get("kind") == "pag":
            raise ValueError(
                "The learned graph is a PAG: it stands for a class of causal structures with "
                "hidden variables, not one DAG, so there is no network to fit parameters on. "
                "skbn.graph.pag_to_mag gives a MAG of the class."
            )
        if self.parameters_ is None:
            raise ValueError(
                "The learned PDAG has no consistent DAG extension, so there is no network "
                "to fit parameters on; skbn.graph.to_dag explains which edges conflict."
            )
        names = [str(v) for v in self.feature_names_in_]
        if isinstance(self.parameters_, CGParameters):
            return self.parameters_.to_network(names, self._schema.states, name=type(self).__name__)
        if isinstance(self.parameters_, DiscreteParameters):
            return self.parameters_.to_network(names, self._schema.states, name=type(self).__name__)
        return self.parameters_.to_network(names)

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
        try:
            kind = self._required_data_kind()
        except (ValueError, TypeError):
            kind = "auto"
        # scikit-learn's checks feed integer codes to categorical estimators and floats to the
        # others, so a learner set up for Gaussian data gets its Gaussian path checked
        tags.input_tags.categorical = kind != "gaussian"
        tags.input_tags.string = True
        # a learner that learns from missing values takes NaN as missing, and says so
        tags.input_tags.allow_nan = bool(self._handles_missing)
        tags.target_tags.required = False
        return tags
