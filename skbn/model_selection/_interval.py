# SPDX-License-Identifier: BSD-3-Clause
"""Intersection-Validation: comparing structure learners without ground truth.

The method of Viinikka, Eggeling & Koivisto (AISTATS 2018).

Every learner is fitted on all the data; the pairs of nodes on which all the learned CPDAGs
agree form the *agreement graph*, a partial stand-in for the truth. Each learner is then
fitted on subsamples, and its partial Hamming distance (PHD) to the agreement graph -- the
number of agreed pairs whose type it gets different -- draws a learning curve. The learner
whose curve is lowest is preferred, and the comparison is trusted only when the agreement
graph is large enough.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.model_selection import ParameterGrid
from sklearn.utils import check_random_state

from skbn.graph import PartialGraph
from skbn.graph._array import pair_types
from skbn.graph._convert import as_adjacency, from_adjacency
from skbn.metrics import partial_hamming_distance, shd
from skbn.metrics._structure import _align_to, _cpdag, _kind_of
from skbn.model_selection._base_search import SEARCH_DOC, StructureSearchCV
from skbn.model_selection._resampling import (
    FitJob,
    check_before_work,
    final_learner,
    run_fits,
)
from skbn.model_selection._split import SubsampleSplit
from skbn.utils._param_validation import Interval
from skbn.utils._warnings import stack_level

__all__ = [
    "InterValResult",
    "InterValScorer",
    "InterValSearchCV",
    "agreement_graph",
    "intersection_validate",
    "make_interval_scorer",
]


def _graph_of(estimator):
    return final_learner(estimator).graph_


def agreement_graph(graphs) -> PartialGraph:
    """Strict intersection of CPDAGs: the node pairs whose type is the same in every graph.

    Parameters
    ----------
    graphs : sequence of networkx.DiGraph or arrays
        Learned graphs over the same nodes. DAGs are replaced by their CPDAGs; CPDAGs and
        PDAGs (``graph["kind"]`` "cpdag" or "pdag", or any graph with an undirected edge)
        are used as given, as :func:`~skbn.metrics.partial_hamming_distance` reads them.

    Returns
    -------
    PartialGraph
        Known pairs are the agreed ones, with the agreed type.

    Examples
    --------
    >>> import networkx as nx
    >>> a = nx.DiGraph([("x", "y"), ("z", "y")])
    >>> b = nx.DiGraph([("x", "y")]); b.add_node("z")
    >>> agreement_graph([a, b]).pairs()
    [('x', 'z', 'none')]
    """
    graphs = list(graphs)
    if not graphs:
        raise ValueError("agreement_graph needs at least one graph.")
    first, nodes = as_adjacency(graphs[0])
    # each graph is read as its kind says, as partial_hamming_distance reads it: a PDAG
    # without undirected edges stays a PDAG, and a cyclic PDAG is compared as it is
    types = [pair_types(_cpdag(first, "first", _kind_of(graphs[0])))]
    for k, graph in enumerate(graphs[1:], start=2):
        which = f"graph {k}"
        types.append(pair_types(_cpdag(_align_to(nodes, graph, which), which, _kind_of(graph))))
    stacked = np.stack(types)
    known = np.all(stacked == stacked[0], axis=0)
    return PartialGraph(nodes, known, stacked[0])


class InterValScorer:
    """Scorer ``-PHD(graph_, reference)``: higher is better, 0 is full agreement.

    Parameters
    ----------
    reference : PartialGraph
        Usually an agreement graph (see :func:`make_interval_scorer`).

    Examples
    --------
    >>> import networkx as nx
    >>> from skbn.graph import PartialGraph
    >>> from skbn.utils.testing import fixed_graph_learner
    >>> truth = nx.DiGraph([("a", "b"), ("c", "b")])
    >>> scorer = InterValScorer(PartialGraph.from_graph(truth))
    >>> import pandas as pd
    >>> learner = fixed_graph_learner(nx.DiGraph([("a", "b"), ("b", "c")]))
    >>> X = pd.DataFrame({"a": [0, 1], "b": [1, 0], "c": [0, 1]})
    >>> # the truth is a collider (both arcs directed); the learned chain's CPDAG has both
    >>> # edges undirected, so the pairs (a, b) and (b, c) differ
    >>> scorer(learner.fit(X))
    -2.0
    """

    _takes_checked_data = True  # it reads only the estimator's graph_

    def __init__(self, reference: PartialGraph) -> None:
        if not isinstance(reference, PartialGraph):
            raise TypeError("reference must be a PartialGraph (see agreement_graph).")
        self.reference = reference

    def __call__(self, estimator, X=None, y=None) -> float:
        return -float(partial_hamming_distance(_graph_of(estimator), self.reference))

    def __repr__(self) -> str:
        return f"InterValScorer({self.reference!r})"


def _named(estimators) -> dict:
    if isinstance(estimators, Mapping):
        return dict(estimators)
    named = {}
    for k, est in enumerate(estimators):
        named[f"{type(est).__name__}_{k}"] = est
    return named


def make_interval_scorer(estimators, X) -> InterValScorer:
    """Fit every estimator on ``X`` and return the scorer of PHD to their agreement graph.

    Parameters
    ----------
    estimators : dict of name -> estimator, or list
        The learners whose agreement is the reference.
    X : DataFrame or array-like
        The data they are fitted on.

    Returns
    -------
    InterValScorer

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from skbn.learners import HillClimb
    >>> X = load_network("asia").sample(1000, random_state=0)
    >>> scorer = make_interval_scorer([HillClimb(), HillClimb("bdeu")], X)
    >>> scorer(HillClimb().fit(X)) <= 0
    True
    """
    return InterValScorer(agreement_graph(_full_fits(list(_named(estimators).values()), X)))


def _full_fits(estimators, X, n_jobs=None, verbose=0) -> list:
    """Fit every estimator on all rows (through the resampling engine); return the graphs."""
    outcomes = run_fits(
        [FitJob(est) for est in estimators],
        X,
        return_estimator=True,
        n_jobs=n_jobs,
        verbose=verbose,
        desc="fits on all rows",
    )
    return [final_learner(o.estimator).graph_ for o in outcomes]


@dataclass
class InterValResult:
    """Outcome of :func:`intersection_validate`.

    Parameters
    ----------
    agreement : PartialGraph
        The agreement graph of the learners' fits on all rows.
    results : DataFrame
        One row per estimator, sample size and subsample: ``phd`` (and ``shd`` when a true
        graph was given).
    min_connected_pairs : int, default=5
        The paper's threshold on connected agreed pairs.
    min_relative_size : float, default=0.8
        The paper's threshold on the share of all pairs that are agreed.

    Attributes
    ----------
    reliable : bool
        False when the agreement graph has fewer than ``min_connected_pairs`` connected pairs
        or covers less than ``min_relative_size`` of all pairs (the paper's thresholds).

    Examples
    --------
    >>> import pandas as pd
    >>> from skbn.graph import PartialGraph
    >>> import networkx as nx
    >>> agreement = PartialGraph.from_graph(nx.DiGraph([("a", "b")]))
    >>> table = pd.DataFrame({"estimator": ["hc", "hc"], "sample_size": [10, 10],
    ...                       "subsample": [0, 1], "phd": [0, 2]})
    >>> result = InterValResult(agreement, table, min_connected_pairs=1, min_relative_size=0.5)
    >>> result.reliable, float(result.summary["mean_phd"][0])
    (True, 1.0)
    """

    agreement: PartialGraph
    results: pd.DataFrame
    min_connected_pairs: int = 5
    min_relative_size: float = 0.8
    reliable: bool = field(init=False)

    def __post_init__(self) -> None:
        self.reliable = bool(
            self.agreement.n_connected_pairs >= self.min_connected_pairs
            and self.agreement.relative_size >= self.min_relative_size
        )

    @property
    def summary(self) -> pd.DataFrame:
        """Mean PHD and its standard error per estimator and sample size."""
        grouped = self.results.groupby(["estimator", "sample_size"], sort=False)["phd"]
        out = grouped.agg(["mean", "sem", "count"]).reset_index()
        return out.rename(columns={"mean": "mean_phd", "sem": "sem_phd", "count": "n"})

    @property
    def ranking(self) -> pd.DataFrame:
        """Rank of each estimator (1 = lowest mean PHD) at each sample size."""
        table = self.summary.pivot(index="sample_size", columns="estimator", values="mean_phd")
        return table.rank(axis=1, method="min").astype(int)

    def plot(self, ax=None):
        """Plot the PHD learning curves with standard-error bars (the paper's Figure 4).

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Where to draw; a new figure when None.

        Returns
        -------
        matplotlib.axes.Axes
        """
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(6, 4))
        for name, part in self.summary.groupby("estimator", sort=False):
            ax.errorbar(
                part["sample_size"],
                part["mean_phd"],
                yerr=part["sem_phd"],
                marker="o",
                capsize=3,
                label=str(name),
            )
        ax.set_xscale("log", base=2)
        ax.set_xlabel("sample size")
        ax.set_ylabel("PHD to the agreement graph")
        status = "" if self.reliable else " (unreliable agreement graph)"
        ax.set_title(
            f"Intersection-Validation: {self.agreement.n_pairs} agreed pairs, "
            f"{self.agreement.n_connected_pairs} connected{status}",
            fontsize=9,
        )
        ax.legend(fontsize=8, frameon=False)
        return ax


def intersection_validate(
    estimators,
    X,
    *,
    sample_sizes,
    n_subsamples: int = 10,
    random_state=None,
    n_jobs=None,
    verbose: int = 0,
    min_connected_pairs: int = 5,
    min_relative_size: float = 0.8,
    true_graph=None,
) -> InterValResult:
    """Compare structure learners by Intersection-Validation.

    Parameters
    ----------
    estimators : dict of name -> estimator, or list
    X : DataFrame or array-like
    sample_sizes : sequence of int
        Subsample sizes (each smaller than the number of rows).
    n_subsamples : int, default=10
        Subsamples per size, drawn without replacement and shared by all estimators.
    random_state : int, RandomState instance or None, default=None
    n_jobs : int, default=None
        Parallel fits through joblib; results do not depend on it.
    verbose : int, default=0
    min_connected_pairs, min_relative_size : default 5 and 0.8
        Below either the result is flagged unreliable and a warning is issued (the paper's
        thresholds).
    true_graph : networkx.DiGraph, optional
        For experiments with known truth: the results then also hold each fit's SHD to it
        (CPDAGs), to check how well PHD tracks SHD.

    Returns
    -------
    InterValResult

    References
    ----------
    J. Viinikka, R. Eggeling and M. Koivisto, "Intersection-Validation: A Method for
    Evaluating Structure Learning without Ground Truth", AISTATS 2018.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from skbn.learners import HillClimb
    >>> from skbn.scores import BIC, BDeu
    >>> X = load_network("alarm").sample(3000, random_state=0)
    >>> res = intersection_validate({"bic": HillClimb(BIC()), "bdeu": HillClimb(BDeu())}, X,
    ...                             sample_sizes=[300, 1200], n_subsamples=2, random_state=0)
    >>> res.reliable, sorted(res.summary["estimator"].unique())
    (True, ['bdeu', 'bic'])
    """
    named = _named(estimators)
    n = len(X)
    sizes = [int(s) for s in sample_sizes]
    if not sizes or any(not 2 <= s < n for s in sizes):
        raise ValueError(f"sample_sizes must be between 2 and {n - 1}, got {sample_sizes!r}.")
    agreement = agreement_graph(_full_fits(list(named.values()), X, n_jobs, verbose))
    rng = check_random_state(random_state)
    tasks = []
    for size in sizes:
        for r in range(n_subsamples):
            rows = np.sort(rng.choice(n, size=size, replace=False))
            for name in named:
                tasks.append((name, size, r, rows))
    outcomes = run_fits(
        [FitJob(named[name], train=rows) for name, _, _, rows in tasks],
        X,
        n_jobs=n_jobs,
        verbose=verbose,
        desc="fits on subsamples",
    )
    nodes = agreement.nodes
    rows_out = []
    for (name, size, r, _), outcome in zip(tasks, outcomes):
        graph = from_adjacency(outcome.adjacency, nodes, kind=outcome.kind)
        rows_out.append(
            dict(
                estimator=name,
                sample_size=size,
                subsample=r,
                phd=partial_hamming_distance(graph, agreement),
                shd=np.nan if true_graph is None else shd(true_graph, graph),
            )
        )
    frame = pd.DataFrame(rows_out)
    if true_graph is None:
        frame = frame.drop(columns="shd")
    result = InterValResult(agreement, frame, min_connected_pairs, min_relative_size)
    if not result.reliable:
        warnings.warn(
            f"The agreement graph has {agreement.n_connected_pairs} connected pairs and covers "
            f"{agreement.relative_size:.0%} of the pairs (thresholds {min_connected_pairs} and "
            f"{min_relative_size:.0%}): the comparison may not be trustworthy.",
            UserWarning,
            stacklevel=stack_level(),
        )
    return result


class InterValSearchCV(StructureSearchCV):
    """Tune a learner by Intersection-Validation: every configuration is one "algorithm".

    All configurations are fitted on the full data and their CPDAGs intersected into an
    agreement graph; each configuration is then fitted on ``n_subsamples`` subsamples of
    ``sample_size`` rows, scored by ``-PHD`` to the agreement graph, and the configuration
    with the lowest mean PHD wins (ties: the first). Attributes are those of GridSearchCV,
    plus ``agreement_`` and ``graph_``.

    This search is skbn's extension of the paper, which compares a few learners by their
    learning curves and does not tune hyperparameters: configurations of one learner tend
    to agree more with each other than different learners do, and the paper's evidence
    (see the Intersection-Validation experiment in the docs) is for ranking learners, with
    a correlation to the truth's ranking that rests largely on telling a clearly worse
    learner apart from the rest.

    Parameters
    ----------
    estimator : estimator
    param_grid : dict or list of dict
    sample_size : int
    n_subsamples : int, default=10
    random_state : int, RandomState instance or None, default=None{search}

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from skbn.learners import HillClimb
    >>> from skbn.scores import EBIC
    >>> X = load_network("asia").sample(1000, random_state=0)
    >>> search = InterValSearchCV(HillClimb(EBIC()), {"criterion__gamma": [0, 1]},
    ...                           sample_size=300, n_subsamples=2, random_state=0).fit(X)
    >>> search.agreement_.n_pairs > 0, sorted(search.best_params_)
    (True, ['criterion__gamma'])
    """

    _parameter_constraints = {
        **StructureSearchCV._parameter_constraints,
        "param_grid": [dict, list],
        "sample_size": [Interval(Integral, 2, None, closed="left")],
        "n_subsamples": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }
    _parameter_constraints.pop("scoring", None)

    def __init__(
        self,
        estimator,
        param_grid,
        *,
        sample_size: int,
        n_subsamples: int = 10,
        random_state=None,
        refit=True,
        n_jobs: int | None = None,
        verbose: int = 0,
        error_score=np.nan,
        min_finite_fraction: float = 0.5,
        return_train_score: bool = False,
    ) -> None:
        self._set_search_parameters(
            estimator, None, refit, n_jobs, verbose, error_score, min_finite_fraction
        )
        self.return_train_score = return_train_score
        self.param_grid = param_grid
        self.sample_size = sample_size
        self.n_subsamples = n_subsamples
        self.random_state = random_state

    @property
    def cv(self):
        """Subsamples of ``sample_size`` rows without replacement."""
        return SubsampleSplit(self.sample_size, self.n_subsamples, self.random_state)

    def _get_scorers(self):
        return self._interval_scorer, "score"

    def fit(self, X, y=None, **params):
        """Build the agreement graph of all configurations, then run the search.

        Parameters
        ----------
        X : DataFrame or array-like
            The data.
        y : None
            Ignored.
        **params
            Not supported (structure learners take no fit parameters).

        Returns
        -------
        self
        """
        candidates = list(ParameterGrid(self.param_grid))
        checked = check_before_work(self.estimator, candidates, X)  # before the fits below
        outcomes = run_fits(
            [FitJob(self.estimator, params=p) for p in candidates],
            X if checked is None else checked,
            return_estimator=True,
            n_jobs=self.n_jobs,
            verbose=self.verbose,
            desc="fits on all rows",
        )
        self.agreement_ = agreement_graph([final_learner(o.estimator).graph_ for o in outcomes])
        self._interval_scorer = InterValScorer(self.agreement_)
        return super().fit(X, y, **params)

    def _run_search(self, evaluate_candidates):
        evaluate_candidates(ParameterGrid(self.param_grid))


InterValSearchCV.__doc__ = InterValSearchCV.__doc__.replace("{search}", SEARCH_DOC)
