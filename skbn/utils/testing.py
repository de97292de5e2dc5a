# SPDX-License-Identifier: BSD-3-Clause
"""Testing helpers: discovery of the public learners and small test instances."""

from __future__ import annotations

import inspect

__all__ = [
    "all_learners",
    "d_separated",
    "d_separation_oracle",
    "fixed_graph_learner",
    "gaussian_learners",
]

#: Parameters that make a learner quick and deterministic in tests.
INIT_PARAMS: dict[str, dict] = {
    "HillClimb": {"random_state": 0},
    "TabuSearch": {"random_state": 0},
    "FGES": {},
    "BOSS": {"random_state": 0},
    "GRaSP": {"random_state": 0},
    "BOSSFCI": {"random_state": 0},
    "GRaSPFCI": {"random_state": 0},
    "FCIT": {"random_state": 0},
    "PCStable": {},
    "MMHC": {"random_state": 0},
    "OrderMCMC": {"n_iter": 300, "random_state": 0},
    "BootstrapPosetLearner": {"n_poset_resamples": 3, "n_test_resamples": 3, "random_state": 0},
    "PEFLearner": {"random_state": 0},
    "MultipleImputation": {"n_imputations": 3, "random_state": 0},
}


def _ensemble_params() -> dict:
    from skbn.learners import FGES, HillClimb

    return {"estimators": [HillClimb(random_state=0), FGES()]}


def _autosle_params() -> dict:
    import networkx as nx
    from optuna.distributions import FloatDistribution

    from skbn.datasets import make_training_problems
    from skbn.learners import FGES

    return {
        "search_space": {"fges": (FGES(), {"penalty_discount": FloatDistribution(1.0, 10.0)})},
        # true graphs as arrays: their repr (part of the test ids) is stable across processes
        "problems": [
            (X, nx.to_numpy_array(dag, nodelist=list(X.columns), dtype=int))
            for X, dag in make_training_problems(2, n_nodes=(5, 6), n_samples=100, random_state=0)
        ],
        "ensemble_size": 1,
        "n_trials": 2,
        "random_state": 0,
    }


#: Learners whose test parameters hold objects, built afresh for each call.
INIT_PARAM_FACTORIES = {
    "StructureLearningEnsemble": _ensemble_params,
    "AutoSLEEnsemble": _autosle_params,
}

#: Why the Gaussian configuration of a learner fails two of scikit-learn's checks: both feed
#: integer or object columns, which skbn reads as discrete variables and does not coerce.
GAUSSIAN_EXPECTED_FAILURES = {
    "check_estimators_dtypes": "integer columns are discrete variables in skbn; a learner set "
    "up for Gaussian data refuses them instead of coercing them to float",
    "check_dtype_object": "object columns are discrete variables in skbn; a learner set up for "
    "Gaussian data refuses them instead of coercing them to float",
}


def all_learners() -> list[tuple[type, dict]]:
    """List every public learner of the learners and ensemble modules, with test parameters."""
    import skbn.ensemble as ensemble
    import skbn.learners as learners
    from skbn.base import BaseStructureLearner

    found = []
    for module in (learners, ensemble):
        for name in module.__all__:
            cls = getattr(module, name)
            if inspect.isclass(cls) and issubclass(cls, BaseStructureLearner):
                factory = INIT_PARAM_FACTORIES.get(name)
                found.append((cls, factory() if factory else INIT_PARAMS.get(name, {})))
    return found


def gaussian_learners() -> list:
    """Every learner that can take Gaussian data, set up for it (quick test parameters).

    Their estimator tags then say the input is not categorical, so scikit-learn's checks feed
    them floats and the Gaussian code paths are checked too.
    """
    from skbn.ensemble import BootstrapPosetLearner, MultipleImputation, StructureLearningEnsemble
    from skbn.learners import (
        BOSS,
        BOSSFCI,
        FCI,
        FCIT,
        FGES,
        GFCI,
        HITONMB,
        HITONPC,
        IAMB,
        MMHC,
        RFCI,
        TAN,
        ChowLiu,
        ExactSearch,
        GRaSP,
        GRaSPFCI,
        GrowShrink,
        HillClimb,
        OrderMCMC,
        PCStable,
        TabuSearch,
    )
    from skbn.scores import GaussianBIC

    return [
        HillClimb(GaussianBIC(), random_state=0),
        TabuSearch("bic-g", random_state=0),
        FGES("bic-g"),
        BOSS("bic-g", random_state=0),
        GRaSP("bic-g", random_state=0),
        PCStable("fisher_z"),
        FCI("fisher_z"),
        RFCI("fisher_z"),
        BOSSFCI("bic-g", "fisher_z", random_state=0),
        GRaSPFCI("bic-g", "fisher_z", random_state=0),
        GFCI("bic-g", "fisher_z"),
        FCIT("bic-g", "fisher_z", random_state=0),
        MMHC("fisher_z", random_state=0),
        ExactSearch("bge"),
        OrderMCMC("bic-g", n_iter=300, random_state=0),
        ChowLiu(criterion="loglik-g"),
        GrowShrink("fisher_z"),
        IAMB("fisher_z"),
        HITONPC("fisher_z"),
        HITONMB("fisher_z"),
        IAMB("fisher_z", variant="fdr"),
        TAN(criterion="loglik-g"),
        StructureLearningEnsemble([HillClimb(random_state=0), FGES()], selection_score="bic-g"),
        BootstrapPosetLearner(
            HillClimb("bic-g"), n_poset_resamples=3, n_test_resamples=3, random_state=0
        ),
        MultipleImputation(HillClimb("bic-g"), n_imputations=3, random_state=0),
    ]


def d_separation_oracle(dag):
    """Return a CI test that answers from d-separation in ``dag`` instead of data.

    Its p-value is 1 when x and y are d-separated by the conditioning set and 0 otherwise, so
    with any ``alpha`` in (0, 1) a constraint-based learner sees the true independencies. The
    data passed to ``bind`` only supplies the column names (they must be the DAG's nodes).
    """
    from skbn.ci_tests._base import BoundCITest, CIResult, CITest

    class _Bound(BoundCITest):
        def _test(self, x, y, cond):
            names = self.names
            separated = d_separated(dag, names[x], names[y], {names[c] for c in cond})
            return CIResult(0.0, 1.0, 1.0 if separated else 0.0)

        def _log_pvalue(self, x, y, cond):
            return 0.0 if self._test(x, y, cond).pvalue == 1.0 else -float("inf")

    class DSeparationOracle(CITest):
        data_kind = "discrete"

        def _bind(self, data):
            return _Bound(self, data)

    return DSeparationOracle()


def d_separated(dag, x, y, given) -> bool:
    """Whether nodes ``x`` and ``y`` of ``dag`` are d-separated by the set ``given``.

    The same answer as ``networkx.is_d_separator(dag, {x}, {y}, given)`` for single nodes,
    by the reachable-nodes walk of Koller and Friedman (Algorithm 3.1): a trail can pass a
    collider only when the collider or one of its descendants is given, any other node only
    when it is not given. About ten times faster than networkx's general form on the small
    networks the oracle serves, whose learners ask tens of thousands of queries.

    Parameters
    ----------
    dag : networkx.DiGraph
    x, y : hashable
        Nodes of ``dag``, neither in ``given``.
    given : set
        The conditioning nodes.

    Returns
    -------
    bool

    Examples
    --------
    >>> import networkx as nx
    >>> collider = nx.DiGraph([("a", "c"), ("b", "c")])
    >>> d_separated(collider, "a", "b", set()), d_separated(collider, "a", "b", {"c"})
    (True, False)
    """
    pred, succ = dag._pred, dag._succ
    # the given nodes and their ancestors: where a collider lets a trail through
    opens = set(given)
    stack = list(given)
    while stack:
        for u in pred[stack.pop()]:
            if u not in opens:
                opens.add(u)
                stack.append(u)
    # (node, True) reached from a child (trail arriving upwards), (node, False) from a parent
    seen = set()
    stack = [(x, True)]
    while stack:
        node, up = stack.pop()
        if (node, up) in seen:
            continue
        seen.add((node, up))
        if node == y:
            return False
        if node not in given:  # a chain or a fork passes it, on to the children
            stack.extend((v, False) for v in succ[node])
            if up:
                stack.extend((u, True) for u in pred[node])
        if not up and node in opens:  # a collider with itself or a descendant given
            stack.extend((u, True) for u in pred[node])
    return True


def fixed_graph_learner(graph, **extra_params):
    """Return a stub learner whose ``fit`` always yields ``graph`` (for meta-estimator tests).

    ``graph`` is a networkx DiGraph over the data's columns (its ``kind`` is kept); any extra
    keyword becomes a searchable parameter that does nothing, e.g. ``level=3``.
    """
    import numpy as np

    from skbn.base import BaseStructureLearner
    from skbn.graph._convert import to_adjacency

    class FixedGraphLearner(BaseStructureLearner):
        def __init__(self, graph=None, level=0):
            self.graph = graph
            self.level = level

        def _learn(self, data, prepared):
            A = to_adjacency(self.graph, list(data.names))
            return A.astype(np.int8), self.graph.graph.get("kind", "dag")

    return FixedGraphLearner(graph, **extra_params)
