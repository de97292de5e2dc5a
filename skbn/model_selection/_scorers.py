# SPDX-License-Identifier: BSD-3-Clause
"""Structure scorers: callables ``scorer(estimator, X, y=None) -> float``, higher is better.

A structure scorer scores the fitted estimator's ``graph_`` on held-out ``X`` with the
network's parameters re-estimated on that ``X`` (the OTSL protocol), so it measures the
structure, not the parameters fitted during training. CPDAG and PDAG outputs are first turned
into a DAG by a consistent extension; a PDAG without one scores NaN, which OTSLSearchCV leaves
out of the mean. Pipelines are scored on ``X`` transformed by all steps but the last.
"""

from __future__ import annotations

from sklearn.pipeline import Pipeline

from skbn.data import DiscreteData, check_data
from skbn.graph import NoExtensionError, to_dag
from skbn.metrics import f1_adjacency, f1_arrowhead, precision_recall_f1, shd
from skbn.scores import (
    AIC,
    BIC,
    EBIC,
    BDeu,
    GaussianAIC,
    GaussianBIC,
    GaussianEBIC,
    GaussianLogLikelihood,
    LogLikelihood,
    Score,
)

__all__ = [
    "aic_scorer",
    "bdeu_scorer",
    "bic_scorer",
    "ebic_scorer",
    "get_structure_scorer",
    "loglik_scorer",
    "make_normalised_ebic_scorer",
    "make_structure_scorer",
    "make_truth_scorer",
]


def final_learner(estimator):
    """The structure learner itself, or the last step of a Pipeline ending in one."""
    return estimator.steps[-1][1] if isinstance(estimator, Pipeline) else estimator


def _learner_and_data(estimator, X):
    """The structure learner inside ``estimator`` and ``X`` as that learner sees it."""
    if isinstance(estimator, Pipeline):
        return final_learner(estimator), estimator[:-1].transform(X)
    return estimator, X


def _fitted_graph(learner):
    graph = getattr(learner, "graph_", None)
    if graph is None:
        raise ValueError(
            f"{type(learner).__name__} has no graph_: structure scorers need a fitted "
            "structure learner (or a Pipeline ending in one)."
        )
    return graph


class _StructureScorer:
    """Scores ``graph_`` on held-out data with a score chosen per estimator and data."""

    def __init__(self, choose, name: str) -> None:
        self._choose = choose
        self._name = name

    def __call__(self, estimator, X, y=None) -> float:
        learner, Xt = _learner_and_data(estimator, X)
        graph = _fitted_graph(learner)
        data = check_data(Xt, kind=getattr(learner, "data_kind_", "auto"))
        score = self._choose(learner, data)
        try:
            dag = to_dag(graph)
        except NoExtensionError:
            return float("nan")
        return score.score_graph(dag, data)

    def __repr__(self) -> str:
        return self._name


def _criterion(learner):
    return getattr(learner, "criterion", None)


def _choose_ebic(learner, data):
    crit = _criterion(learner)
    gamma = crit.gamma if isinstance(crit, (EBIC, GaussianEBIC)) else 0.0
    return EBIC(gamma=gamma) if isinstance(data, DiscreteData) else GaussianEBIC(gamma=gamma)


def _choose_bdeu(learner, data):
    crit = _criterion(learner)
    return BDeu(iss=crit.iss if isinstance(crit, BDeu) else 1.0)


def _choose_bic(learner, data):
    return BIC() if isinstance(data, DiscreteData) else GaussianBIC()


def _choose_aic(learner, data):
    return AIC() if isinstance(data, DiscreteData) else GaussianAIC()


def _choose_loglik(learner, data):
    return LogLikelihood() if isinstance(data, DiscreteData) else GaussianLogLikelihood()


class _Fixed:
    def __init__(self, score: Score) -> None:
        self.score = score

    def __call__(self, learner, data):
        return self.score


#: The OTSL paper's Algorithm 2: EBIC with the configuration's own gamma when its score is
#: EBIC, else gamma = 0 (BIC); GaussianEBIC on continuous data.
ebic_scorer = _StructureScorer(_choose_ebic, "ebic_scorer")
#: The paper's Algorithm 3: BDeu with the configuration's own iss when its score is BDeu,
#: else iss = 1 (discrete data).
bdeu_scorer = _StructureScorer(_choose_bdeu, "bdeu_scorer")
#: BIC (GaussianBIC on continuous data) of the structure on held-out data.
bic_scorer = _StructureScorer(_choose_bic, "bic_scorer")
#: AIC (GaussianAIC on continuous data) of the structure on held-out data.
aic_scorer = _StructureScorer(_choose_aic, "aic_scorer")
#: Maximised log-likelihood of the structure on held-out data.
loglik_scorer = _StructureScorer(_choose_loglik, "loglik_scorer")

_BY_NAME = {
    "ebic": ebic_scorer,
    "bdeu": bdeu_scorer,
    "bic": bic_scorer,
    "aic": aic_scorer,
    "loglik": loglik_scorer,
}


def make_structure_scorer(score: Score):
    """A structure scorer that always uses ``score`` (e.g. OTSL's normalised EBIC).

    Parameters
    ----------
    score : Score

    Returns
    -------
    callable
        ``scorer(estimator, X, y=None) -> float``.

    Examples
    --------
    >>> from skbn.scores import EBIC
    >>> scorer = make_structure_scorer(EBIC(gamma=0.25, base="aic"))
    """
    if not isinstance(score, Score):
        raise TypeError(f"score must be a skbn Score object, got {type(score).__name__}.")
    return _StructureScorer(_Fixed(score), f"make_structure_scorer({score!r})")


class _ChooseNormalisedEBIC:
    """EBIC with gamma = (P - 1) / n_penalties read from the configuration's penalty P."""

    def __init__(self, n_penalties: int) -> None:
        self.n_penalties = n_penalties

    def __call__(self, learner, data):
        crit = _criterion(learner)
        penalty = getattr(crit, "penalty_discount", None)
        if penalty is None:
            penalty = getattr(learner, "penalty_discount", 1.0)
        gamma = max(float(penalty) - 1.0, 0.0) / self.n_penalties
        if isinstance(data, DiscreteData):
            return EBIC(gamma=gamma, base="aic")
        return GaussianEBIC(gamma=gamma)


def make_normalised_ebic_scorer(n_penalties: int = 20):
    """OTSL's "EBIC(norm)" as the authors' code computes it (their v4.1 scripts).

    A configuration with penalty ``P`` (its score's ``penalty_discount``, or the learner's own
    ``penalty_discount`` as for FGES) is scored with ``gamma = (P - 1) / n_penalties`` on the
    AIC scale: ``LL - k - gamma * k * log(p)`` (discrete), or ``GaussianEBIC(gamma)`` on
    continuous data. The paper's grids use ``n_penalties=20`` for HC and FGES and 10 for MMHC.

    Parameters
    ----------
    n_penalties : int, default=20

    Returns
    -------
    callable
    """
    return _StructureScorer(
        _ChooseNormalisedEBIC(int(n_penalties)),
        f"make_normalised_ebic_scorer(n_penalties={n_penalties})",
    )


def get_structure_scorer(scoring):
    """Resolve "ebic", "bdeu", "bic", "aic", "loglik" or a callable to a scorer."""
    if callable(scoring):
        return scoring
    try:
        return _BY_NAME[scoring]
    except (KeyError, TypeError):
        raise ValueError(
            f"scoring must be one of {sorted(_BY_NAME)} or a callable, got {scoring!r}."
        ) from None


class _TruthScorer:
    _METRICS = {
        "f1": lambda t, g: precision_recall_f1(t, g).f1,
        "f1_adjacency": f1_adjacency,
        "f1_arrowhead": f1_arrowhead,
        "shd": lambda t, g: -float(shd(t, g)),
    }

    def __init__(self, true_graph, metric: str) -> None:
        if metric not in self._METRICS:
            raise ValueError(f"metric must be one of {sorted(self._METRICS)}, got {metric!r}.")
        self.true_graph = true_graph
        self.metric = metric

    def __call__(self, estimator, X=None, y=None) -> float:
        learner, _ = _learner_and_data(estimator, X) if X is not None else (estimator, None)
        return float(self._METRICS[self.metric](self.true_graph, _fitted_graph(learner)))

    def __repr__(self) -> str:
        return f"make_truth_scorer(metric={self.metric!r})"


def make_truth_scorer(true_graph, metric: str = "f1"):
    """A scorer comparing the fitted ``graph_`` with a known true graph (for experiments).

    Parameters
    ----------
    true_graph : networkx.DiGraph
    metric : {"f1", "f1_adjacency", "f1_arrowhead", "shd"}, default="f1"
        "shd" is negated so that higher is better, as scikit-learn expects.

    Returns
    -------
    callable
    """
    return _TruthScorer(true_graph, metric)
