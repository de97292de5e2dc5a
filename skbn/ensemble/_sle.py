# SPDX-License-Identifier: BSD-3-Clause
"""Structure-learning ensembles: run several configured learners, keep the best-scoring output."""

from __future__ import annotations

import warnings

import numpy as np

from skbn.base import BaseStructureLearner
from skbn.graph._array import extension_or_fallback
from skbn.graph._convert import to_adjacency
from skbn.learners import FGES
from skbn.model_selection._resampling import FitJob, run_fits
from skbn.scores import GaussianBIC, Score
from skbn.scores._registry import SCORES
from skbn.utils._parallel import N_JOBS_CONSTRAINT
from skbn.utils._warnings import stack_level

__all__ = ["PAPER_SLE", "FallbackSelectedWarning", "StructureLearningEnsemble"]

#: The ensemble Auto-SLE learned in Liu et al.'s paper (Table II): four FGES configurations
#: given as (penalty discount, maximum degree), none assuming faithfulness.
PAPER_SLE = ((5.87273, 185), (20.6045, 17), (2.53767, 91), (5.62460, 11))


class FallbackSelectedWarning(UserWarning):
    """No member produced a graph with a consistent DAG extension; a fallback DAG was chosen.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warnings.warn("no extension", FallbackSelectedWarning)
    >>> caught[0].category.__name__
    'FallbackSelectedWarning'
    """


def _member_list(estimators) -> list:
    """``[(name, estimator)]`` from a list of estimators or of (name, estimator) pairs."""
    if not isinstance(estimators, (list, tuple)) or len(estimators) == 0:
        raise ValueError(
            "estimators must be a non-empty list of learners or of (name, learner) pairs, "
            f"got {estimators!r}."
        )
    members = []
    for k, item in enumerate(estimators):
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
            name, est = item
        else:
            name, est = f"{type(item).__name__.lower()}-{k}", item
        if not hasattr(est, "fit"):
            raise TypeError(f"estimators[{k}] ({est!r}) is not a learner: it has no fit method.")
        members.append((name, est))
    names = [n for n, _ in members]
    if len(set(names)) != len(names):
        raise ValueError(f"estimator names must be unique, got {names}.")
    return members


def select_output(data, selection_score, adjacencies, member_names):
    """Score each member's output on ``data`` and pick the best (the ensemble's selection).

    A CPDAG or PDAG is scored through a consistent extension; only outputs that have one
    compete, unless none has (then the fallback DAGs compete, with a warning).

    Parameters
    ----------
    data : DiscreteData or GaussianData
    selection_score : str, Score or None
        None is ``"bic"`` (the paper's selection), not the learners' default score.
    adjacencies : list of ndarray
        Each member's output over ``data``'s columns.
    member_names : list of str
        For the warning.

    Returns
    -------
    scores : ndarray of float
    extendable : ndarray of bool
    best : int
    """
    spec = "bic" if selection_score is None else selection_score
    bound = SCORES.resolve(spec, data.kind)._bind(data)
    p = data.n_features
    scores = np.empty(len(adjacencies))
    extendable = np.zeros(len(adjacencies), dtype=bool)
    for k, A in enumerate(adjacencies):
        dag, extendable[k] = extension_or_fallback(A)
        scores[k] = sum(bound.local_score(j, np.flatnonzero(dag[:, j])) for j in range(p))
    pool = np.flatnonzero(extendable) if extendable.any() else np.arange(len(adjacencies))
    best = int(pool[np.argmax(scores[pool])])
    if not extendable.any():
        warnings.warn(
            "No member's output has a consistent DAG extension; the member whose fallback "
            f"DAG scores best ({member_names[best]!r}) was chosen.",
            FallbackSelectedWarning,
            stacklevel=stack_level(),
        )
    return scores, extendable, best


class StructureLearningEnsemble(BaseStructureLearner):
    """Run every member learner and keep the output with the best score (Liu et al.'s SLE).

    Each member is fitted on the whole of ``X`` (in parallel through joblib). Its output is
    scored with ``selection_score`` on ``X``: a DAG directly, a CPDAG or PDAG through a
    consistent DAG extension (all extensions of a CPDAG share the score of a score-equivalent
    criterion such as BIC). A PDAG that has no consistent extension cannot be scored as it
    is; it gets the score of a fallback DAG (its arcs, then its undirected edges oriented
    along their topological order) for the record, but it is chosen only when no member has
    an extendable output, and then with a :class:`FallbackSelectedWarning`. Ties go to the
    earlier member.

    Parameters
    ----------
    estimators : list of learners or of (name, learner) pairs
        The members. Unnamed members are called ``"<class>-<position>"``.
    selection_score : str, Score or None, default=None
        Picks the output: a family name (``"bic"``, ``"bdeu"``, ...) or a score object. None
        means ``"bic"``: :class:`~skbn.scores.GaussianBIC` on continuous data and
        :class:`~skbn.scores.BIC` on discrete data (the paper uses Gaussian BIC).
    n_jobs : int, default=None
        Members fitted in parallel. The result does not depend on it.
    verbose : int, default=0

    Attributes
    ----------
    estimators_ : list of learners
        The fitted members, in the order given.
    member_names_ : list of str
    selection_scores_ : ndarray of shape (n_members,)
        Each member's score on ``X`` (higher is better).
    extendable_ : ndarray of bool of shape (n_members,)
        Whether each member's output had a consistent DAG extension.
    best_index_ : int
    best_estimator_ : learner
        ``estimators_[best_index_]``.
    graph_ : networkx.DiGraph
        The chosen member's graph, of its own kind (a DAG or a CPDAG).
    fit_times_ : ndarray of shape (n_members,)
        Seconds each member took to fit.

    See Also
    --------
    AutoSLEEnsemble : Learns the members from training problems with known truth.
    PEFLearner : Accepts an ensemble as its ``estimator`` (P/SLE in the paper).

    References
    ----------
    Liu et al., "Auto-SLE: automatic learning of structure learning ensembles for large
    Bayesian networks" (arXiv 2506.22848), section III.

    Examples
    --------
    >>> from skbn.datasets import make_problem
    >>> from skbn.learners import FGES, PCStable
    >>> X, dag = make_problem("asia", n_samples=500, random_state=0)
    >>> sle = StructureLearningEnsemble([FGES(), FGES(penalty_discount=4.0), PCStable()])
    >>> sle = sle.fit(X)
    >>> sle.member_names_
    ['fges-0', 'fges-1', 'pcstable-2']
    >>> bool(sle.selection_scores_[sle.best_index_] == sle.selection_scores_.max())
    True
    """

    _family_parameters = ("selection_score",)
    _parameter_constraints = {
        "estimators": [list, tuple],
        "selection_score": [Score, str, None],
        "n_jobs": N_JOBS_CONSTRAINT,
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        estimators,
        *,
        selection_score: Score | str | None = None,
        n_jobs=None,
        verbose: int = 0,
    ) -> None:
        self.estimators = estimators
        self.selection_score = selection_score
        self.n_jobs = n_jobs
        self.verbose = verbose

    @classmethod
    def from_paper(cls, **kwargs) -> StructureLearningEnsemble:
        """The ensemble learned in the Auto-SLE paper (Table II), ready to use.

        Four FGES members with penalty discounts 5.87, 20.6, 2.54 and 5.62 and maximum degrees
        185, 17, 91 and 11, without the faithfulness assumption, selected by Gaussian BIC.
        Keyword arguments go to the constructor.

        Parameters
        ----------
        **kwargs
            Constructor parameters (``n_jobs``, ``verbose``, ``selection_score``).

        Returns
        -------
        StructureLearningEnsemble

        Examples
        --------
        >>> sle = StructureLearningEnsemble.from_paper()
        >>> [m.max_degree for m in sle.estimators]
        [185, 17, 91, 11]
        """
        members = [
            FGES("bic", penalty_discount=pd_, max_degree=md, faithfulness=False)
            for pd_, md in PAPER_SLE
        ]
        kwargs.setdefault("selection_score", GaussianBIC())
        return cls(members, **kwargs)

    def _prepare(self, data, constraints):
        return _member_list(self.estimators)

    def _learn(self, data, prepared):
        members = prepared
        outcomes = run_fits(
            [FitJob(est) for _, est in members],
            data,
            return_estimator=True,
            n_jobs=self.n_jobs,
            verbose=self.verbose,
            desc="ensemble members",
        )
        results = [(o.estimator, o.fit_time) for o in outcomes]
        names = list(data.names)
        adjacencies = [to_adjacency(fitted.graph_, names) for fitted, _ in results]
        scores, extendable, best = select_output(
            data, self.selection_score, adjacencies, [name for name, _ in members]
        )
        self.estimators_ = [fitted for fitted, _ in results]
        self.member_names_ = [name for name, _ in members]
        self.selection_scores_ = scores
        self.extendable_ = extendable
        self.best_index_ = best
        self.best_estimator_ = self.estimators_[best]
        self.fit_times_ = np.array([t for _, t in results])
        kind = self.best_estimator_.graph_.graph.get("kind", "pdag")
        return adjacencies[best].astype(np.int8), kind
