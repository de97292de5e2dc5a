# SPDX-License-Identifier: BSD-3-Clause
"""The score interface: a parameter object that binds to data and scores families."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from numbers import Real

import networkx as nx
import numpy as np
from sklearn.base import BaseEstimator

from skbn.data import DiscreteData, GaussianData
from skbn.graph._array import parents_csr, pdag_to_dag_array
from skbn.graph._convert import as_adjacency
from skbn.utils._binding import DataBound, check_data_for
from skbn.utils._param_validation import Interval

__all__ = ["Score", "BoundScore"]


# The penalties of the penalised likelihoods, the same on every kind of data: a score class
# is one of these and the likelihood of its kind (which binds it), e.g.
# ``class GaussianBIC(_BICPenalty, _PenalisedGaussian)``.


class _NoPenalty:
    """No penalty: the maximised log-likelihood."""

    def _per_parameter(self, n_samples, n_features):
        return 0.0


class _BICPenalty:
    """``penalty_discount * log(n) / 2`` per free parameter."""

    _parameter_constraints = {"penalty_discount": [Interval(Real, 0, None, closed="left")]}

    def __init__(self, penalty_discount: float = 1.0) -> None:
        self.penalty_discount = penalty_discount

    def _per_parameter(self, n_samples, n_features):
        return self.penalty_discount * math.log(n_samples) / 2


class _AICPenalty:
    """``penalty_discount`` per free parameter."""

    _parameter_constraints = {"penalty_discount": [Interval(Real, 0, None, closed="left")]}

    def __init__(self, penalty_discount: float = 1.0) -> None:
        self.penalty_discount = penalty_discount

    def _per_parameter(self, n_samples, n_features):
        return float(self.penalty_discount)


class _EBICPenalty:
    """BIC's penalty plus ``gamma * log(p)`` per free parameter."""

    _parameter_constraints = {
        "gamma": [Interval(Real, 0, None, closed="left")],
        "penalty_discount": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(self, gamma: float = 0.5, penalty_discount: float = 1.0) -> None:
        self.gamma = gamma
        self.penalty_discount = penalty_discount

    def _per_parameter(self, n_samples, n_features):
        return self.penalty_discount * math.log(n_samples) / 2 + self.gamma * math.log(
            max(n_features, 1)
        )


class Score(BaseEstimator):
    """Base class of decomposable scores (higher is better).

    A score is a small parameter object: ``get_params``/``set_params``/``clone`` work, so
    nested parameters such as ``score__penalty_discount`` can be searched. ``bind(X)``
    validates and encodes the data once and returns a :class:`BoundScore` whose
    ``local_score(child, parents)`` is cached per family.

    See Also
    --------
    get_score : A score by family name, for a kind of data.

    Examples
    --------
    >>> from skbn.scores import BIC, Score
    >>> isinstance(BIC(), Score), BIC().data_kind
    (True, 'discrete')
    """

    #: "discrete" or "gaussian": the kind of data the score needs.
    data_kind: str = "discrete"
    _parameter_constraints: dict = {}

    def bind(self, X) -> BoundScore:
        """Validate ``X`` for this score and return a bound, caching scorer.

        Parameters
        ----------
        X : DataFrame, array-like or checked data
            The data, of the kind the score needs.

        Returns
        -------
        BoundScore
        """
        data = check_data_for(self, X)
        if data.has_missing:
            return self._bind_incomplete(data)
        return self._bind(data)

    @property
    def handles_missing(self) -> bool:
        """Whether the score has an available-case form for data with missing values.

        True for the penalised likelihoods (log-likelihood, AIC, BIC, EBIC on every kind of
        data): each family is scored on the rows where it is observed (see
        :class:`~skbn.scores.AvailableCaseScore`). Marginal likelihoods (BDeu, K2, BGe) and
        fNML have none.
        """
        return self._per_parameter(2, 1) is not None

    def _per_parameter(self, n_samples: int, n_features: int) -> float | None:
        """Penalty per free parameter of a penalised likelihood; None for other scores."""
        return None

    def _penalised_bound(self, data, per_param: float) -> BoundScore:  # pragma: no cover
        raise NotImplementedError

    def _bind(self, data) -> BoundScore:
        per = self._per_parameter(data.n_samples, data.n_features)
        if per is None:  # pragma: no cover - scores without a penalty override _bind
            raise NotImplementedError
        return self._penalised_bound(data, per)

    #: Binds data with missing values; set by :mod:`._available` (available-case scoring),
    #: which builds on this module, so this module needs no import of it.
    _incomplete_binder = None

    def _bind_incomplete(self, data) -> BoundScore:
        if not self.handles_missing:
            incomplete = [n for n, ok in zip(data.names, data.observed.all(axis=0)) if not ok]
            raise ValueError(
                f"{type(self).__name__} cannot score data with missing values (columns "
                f"{', '.join(map(repr, incomplete[:8]))}): it has no available-case form. "
                "Use a score that has one (its handles_missing is True: the penalised "
                "likelihoods), which scores each family on the rows where it is observed; or "
                "skbn.learners.StructuralEM; or impute first."
            )
        return self._incomplete_binder(self, data)

    def score_graph(self, graph, X) -> float:
        """Total score of ``graph`` on ``X`` (sum of its families' local scores).

        A CPDAG or PDAG is scored through a consistent DAG extension (Dor-Tarsi); for a
        score-equivalent score every extension gives the same value.

        Parameters
        ----------
        graph : networkx.DiGraph or array-like of shape (p, p)
            Nodes must be the columns of ``X`` (an array is taken in column order).
        X : DataFrame or array-like, or already checked data

        Returns
        -------
        float
        """
        return self.bind(X).score_graph(graph)


class BoundScore(DataBound):
    """A score bound to one data set, with a cache of local scores.

    Made by :meth:`Score.bind`, not directly.

    Parameters
    ----------
    score : Score
        The score object it was bound from.
    data : DiscreteData or GaussianData
        The checked data.

    Attributes
    ----------
    data : DiscreteData or GaussianData
    names : tuple of str
    n_samples, n_features : int

    Examples
    --------
    >>> import pandas as pd
    >>> from skbn.scores import BIC
    >>> bound = BIC().bind(pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 1, 1]}))
    >>> bound.local_score("b", ["a"]) == bound.local_score(1, [0])  # names or positions
    True
    """

    def __init__(self, score: Score, data: DiscreteData | GaussianData) -> None:
        super().__init__(data)
        self.score = score
        self._cache: dict[tuple[int, tuple[int, ...]], float] = {}

    def local_score(self, child, parents: Iterable = ()) -> float:
        """Score the family ``child <- parents``; cached.

        Parameters
        ----------
        child : str or int
            A column name or position.
        parents : iterable of str or int, default=()
            The parent set.

        Returns
        -------
        float
        """
        y = self._resolve(child)
        pa = tuple(sorted({self._resolve(u) for u in parents}))
        if y in pa:
            raise ValueError("A variable cannot be its own parent.")
        return self.family_score(y, pa)

    # -- what the learners ask of a bound score ----------------------------------------------
    # The search kernels reach a score only through the methods below. Each has a default
    # here, so a new score works everywhere by implementing ``_local``; a score with a faster
    # route overrides the method (``tests/scores/test_contract.py`` lists the routes each
    # registered family declares and checks that the learners take them).

    def family_score(self, child: int, parents: tuple) -> float:
        """``local_score`` for positions already checked; cached.

        Parameters
        ----------
        child : int
            Column position.
        parents : tuple of int
            Column positions, sorted and unique, without ``child``.

        Returns
        -------
        float
        """
        key = (child, parents)
        value = self._cache.get(key)
        if value is None:
            value = float(self._local(child, np.array(parents, dtype=np.int64)))
            self._cache[key] = value
        return value

    def family_score_uncached(self, child: int, parents: np.ndarray) -> float:
        """The score of one family, computed without this object's cache.

        For a search that keeps its own cache (FGES keys it per child, smaller than this
        object's).

        Parameters
        ----------
        child : int
        parents : ndarray of int64
            Sorted, unique positions.

        Returns
        -------
        float
        """
        return float(self._local(child, parents))

    def local_scores(self, children, offsets, lengths, pool) -> np.ndarray:
        """Score many families in one call (FGES's batches of new families).

        By default one family at a time; a score with a batched kernel overrides it.

        Parameters
        ----------
        children : ndarray of int
            The child of each family.
        offsets, lengths : ndarray of int
            Family ``e``'s parents are ``pool[offsets[e] : offsets[e] + lengths[e]]``.
        pool : ndarray of int
            Sorted parent positions of all the families.

        Returns
        -------
        ndarray of shape (len(children),)
        """
        out = np.empty(len(children))
        for e in range(len(children)):
            start = int(offsets[e])
            parents = np.asarray(pool[start : start + int(lengths[e])], dtype=np.int64)
            out[e] = self._local(int(children[e]), parents)
        return out

    def effect_pairs(self):
        """The pairs whose one-edge gain over the empty graph is positive, if screened here.

        Returns
        -------
        tuple of (ndarray, ndarray) or None
            ``(heads, tails)`` positions, or None (the default) when the score has no screen
            of its own and FGES computes the gains from :meth:`toggle_scores`.
        """
        return None

    def family_score_args(self):
        """What FGES's forward kernel needs to score Gaussian families itself, or None.

        Returns
        -------
        tuple or None
            ``(dense, values, n_samples, per_parameter)``: the covariance (``dense``) or the
            centred columns, for a Gaussian likelihood score; None (the default) for a score
            that the kernel asks for batches through :meth:`local_scores`.
        """
        return None

    def gaussian_kernel_args(self):
        """What BOSS's and GRaSP's tree kernels need to score Gaussian families, or None.

        Returns
        -------
        tuple or None
            The arrays of the Gaussian addition kernel; None (the default) when the trees
            score branches through :meth:`toggle_scores` and :meth:`family_score`.
        """
        return None

    def toggle_scores(self, child: int, parents: Sequence[int]) -> np.ndarray:
        """Score ``(child, parents xor {x})`` for every variable ``x`` in one kernel call.

        Parameters
        ----------
        child : int
            Column position of the child.
        parents : sequence of int
            Column positions of the current parents.

        Returns
        -------
        ndarray of shape (n_features,)
            Entry ``x`` is the score with ``x`` added to (or removed from) the parents; entry
            ``child`` is the family itself.
        """
        return self._toggle(int(child), np.array(sorted(parents), dtype=np.int64))

    def addition_scores(self, child: int, parents: Sequence[int]) -> np.ndarray:
        """Score ``(child, parents + {x})`` for every variable ``x`` outside the family.

        What growing a parent set needs; a score may compute it faster than
        :meth:`toggle_scores` (the Gaussian scores factorise the parents' block once).

        Parameters
        ----------
        child : int
            Column position of the child.
        parents : sequence of int
            Column positions of the current parents.

        Returns
        -------
        ndarray of shape (n_features,)
            Entry ``x`` is the score with ``x`` added; entries of the child and of the
            parents are ``-inf``.
        """
        return self._additions(int(child), np.array(sorted(parents), dtype=np.int64))

    def _additions(self, child: int, parents: np.ndarray) -> np.ndarray:
        out = np.array(self._toggle(child, parents), dtype=float)
        out[child] = -np.inf
        out[parents] = -np.inf
        return out

    def pairwise_scores(self) -> np.ndarray:
        """Score every variable with no parent and with each single parent.

        Returns
        -------
        ndarray of shape (n_features, n_features)
            ``S[x, y]``: score of ``y`` with the parent ``x``; ``S[y, y]``: with none. The
            columns are the toggle columns of the empty graph.
        """
        empty = np.zeros(0, dtype=np.int64)
        return np.column_stack([self._toggle(y, empty) for y in range(self.n_features)])

    def score_graph(self, graph) -> float:
        """Sum the local scores of a DAG (or of a consistent extension of a PDAG).

        Parameters
        ----------
        graph : networkx.DiGraph or array-like of shape (p, p)
            Over the data's columns.

        Returns
        -------
        float
        """
        if isinstance(graph, nx.Graph):
            missing = set(self.names) - set(graph.nodes)
            extra = set(graph.nodes) - set(self.names)
            if missing or extra:
                raise ValueError(
                    "The graph's nodes must be the data's columns"
                    + (f"; not in the graph: {sorted(map(str, missing))[:8]}" if missing else "")
                    + (f"; not in the data: {sorted(map(str, extra))[:8]}" if extra else "")
                    + "."
                )
        A, _ = as_adjacency(
            graph, list(self.names) if isinstance(graph, nx.Graph) else None, sparse=True
        )
        if A.shape[0] != self.n_features:
            raise ValueError(f"The graph has {A.shape[0]} nodes; the data has {self.n_features}.")
        D = pdag_to_dag_array(A)
        if D is None:
            raise ValueError("The graph has no consistent DAG extension, so it has no score.")
        indptr, indices = parents_csr(D)
        indices = indices.tolist()
        return float(
            sum(
                self.family_score(j, tuple(indices[indptr[j] : indptr[j + 1]]))
                for j in range(self.n_features)
            )
        )

    def superset_bound(self, child: int, parents: Sequence[int]) -> float | None:
        """Bound the local score of ``child`` with any superset of ``parents`` from above.

        Exact searches stop extending a parent set once this bound cannot beat the best of
        its subsets.

        Parameters
        ----------
        child : int
            Column position.
        parents : sequence of int
            Column positions.

        Returns
        -------
        float or None
            The bound, or None when the score offers none (the default).
        """
        return None

    # Subclasses implement _local on encoded indices (and may override _toggle).
    def _local(self, child: int, parents: np.ndarray) -> float:  # pragma: no cover
        raise NotImplementedError

    def _toggle(self, child: int, parents: np.ndarray) -> np.ndarray:
        # one cached family score per variable; scores with a kernel for this override it
        members = set(parents.tolist())
        out = np.empty(self.n_features)
        for x in range(self.n_features):
            out[x] = self.family_score(
                child, tuple(sorted(members if x == child else members ^ {x}))
            )
        return out
