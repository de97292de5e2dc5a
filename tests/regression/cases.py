# SPDX-License-Identifier: BSD-3-Clause
"""Frozen outputs of every learner and meta-estimator on three small fixed problems.

Each case returns a JSON-able summary (edge lists, scores, tables). ``record.py`` writes them
to ``frozen.json`` from the code as it is; ``test_frozen_outputs.py`` checks that the code
still gives the same. A refactor must leave every case unchanged; a deliberate change of
behaviour re-records the file and says why in the commit message.
"""

from __future__ import annotations

import functools
import warnings

import networkx as nx
import numpy as np

from skbn.datasets import load_network, make_problem


def discrete_problem():
    """ASIA-sized discrete data: 8 variables, 1,500 rows."""
    return load_network("asia").sample(1500, random_state=3)


def gaussian_problem():
    """Linear-Gaussian data on the SACHS graph: 11 variables, 600 rows."""
    X, _ = make_problem("sachs", n_samples=600, random_state=4)
    return X


def replicated_problem():
    """Linear-Gaussian data on copies of CHILD: 60 variables, 500 rows."""
    X, _ = make_problem("child", n_nodes=60, n_samples=500, random_state=5)
    return X


def _edges(graph) -> list:
    return sorted([str(u), str(v)] for u, v in graph.edges())


def _graph(est) -> dict:
    return {"kind": est.graph_.graph["kind"], "edges": _edges(est.graph_)}


def _float(x) -> float | None:
    x = float(x)
    return None if not np.isfinite(x) else x


def _learner_cases():
    from skbn.ci_tests import ChiSquare, FisherZ
    from skbn.learners import (
        FGES,
        MMHC,
        ExactSearch,
        HillClimb,
        OrderMCMC,
        PCStable,
        TabuSearch,
    )
    from skbn.scores import BIC, EBIC, BDeu, GaussianBIC, GaussianEBIC

    return {
        "hc_default": lambda: HillClimb(),
        "hc_bdeu": lambda: HillClimb(BDeu(iss=5)),
        "hc_restarts": lambda: HillClimb(n_restarts=3, random_state=0),
        "hc_constrained": lambda: HillClimb(
            forbidden_edges=[("either", "dysp")], required_edges=[("asia", "tub")]
        ),
        "tabu_default": lambda: TabuSearch(),
        "tabu_ebic": lambda: TabuSearch(EBIC(gamma=1)),
        "fges_default": lambda: FGES(),
        "fges_pd2": lambda: FGES(penalty_discount=2),
        "pc_default": lambda: PCStable(),
        "pc_x2": lambda: PCStable(ChiSquare(), alpha=0.01),
        "pc_bk": lambda: PCStable(forbidden_edges=[("tub", "either")]),
        "mmhc_default": lambda: MMHC(),
        "exact_bic": lambda: ExactSearch(BIC(), max_indegree=2),
        "mcmc": lambda: OrderMCMC(n_iter=400, random_state=0),
        "g_hc_default": lambda: HillClimb(),
        "g_tabu": lambda: TabuSearch(GaussianEBIC(gamma=0.5)),
        "g_fges_default": lambda: FGES(),
        "g_pc_default": lambda: PCStable(FisherZ(), alpha=0.01),
        "g_mmhc_default": lambda: MMHC(),
        "g_exact": lambda: ExactSearch(GaussianBIC(), max_indegree=2),
    }


#: The learner cases, by name: each is recorded and compared on its own.
LEARNER_CASES = [
    "hc_default",
    "hc_bdeu",
    "hc_restarts",
    "hc_constrained",
    "tabu_default",
    "tabu_ebic",
    "fges_default",
    "fges_pd2",
    "pc_default",
    "pc_x2",
    "pc_bk",
    "mmhc_default",
    "exact_bic",
    "mcmc",
    "g_hc_default",
    "g_tabu",
    "g_fges_default",
    "g_pc_default",
    "g_mmhc_default",
    "g_exact",
]


@functools.lru_cache(maxsize=2)
def _problem(kind: str):
    return gaussian_problem() if kind == "g" else discrete_problem()


def learner_output(name: str) -> dict:
    """Graph and score of one learner case on its problem."""
    X = _problem("g" if name.startswith("g_") else "d")
    est = _learner_cases()[name]().fit(X)
    entry = _graph(est)
    if hasattr(est, "score_"):
        entry["score"] = _float(est.score_)
    entry["loglik"] = _float(est.score(X))
    return entry


def learner_outputs() -> dict:
    """Graph and score of each learner case on its problem."""
    return {name: learner_output(name) for name in LEARNER_CASES}


def search_outputs() -> dict:
    """cv_results_ and choices of the tuners."""
    from skbn.learners import FGES, HillClimb, PCStable
    from skbn.model_selection import (
        InSampleSearchCV,
        InterValSearchCV,
        OCTSearchCV,
        OTSLSearchCV,
        StARSSearchCV,
    )
    from skbn.scores import EBIC

    X = discrete_problem()
    Xg = gaussian_problem()
    out = {}
    otsl = OTSLSearchCV(
        HillClimb(EBIC()),
        {"criterion__gamma": [0, 0.5, 1]},
        scoring="bic",
        n_resamples=3,
        random_state=0,
    ).fit(X)
    out["otsl"] = {
        "mean": [_float(v) for v in otsl.cv_results_["mean_test_score"]],
        "splits": [[_float(v) for v in otsl.cv_results_[f"split{i}_test_score"]] for i in range(3)],
        "best": int(otsl.best_index_),
        "graph": _edges(otsl.graph_),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pc_otsl = OTSLSearchCV(
            PCStable(), {"alpha": [0.01, 0.05]}, scoring="bic", n_resamples=3, random_state=1
        ).fit(X)
    out["otsl_pc"] = {
        "mean": [_float(v) for v in pc_otsl.cv_results_["mean_test_score"]],
        "finite": [int(v) for v in pc_otsl.cv_results_["n_finite_splits"]],
        "best": int(pc_otsl.best_index_),
    }
    insample = InSampleSearchCV(FGES(), {"penalty_discount": [1, 2, 4]}).fit(Xg)
    out["insample"] = {
        "mean": [_float(v) for v in insample.cv_results_["mean_test_score"]],
        "best": int(insample.best_index_),
    }
    stars = StARSSearchCV(
        PCStable(), {"alpha": [0.001, 0.01, 0.05]}, n_subsamples=4, random_state=0
    ).fit(X)
    out["stars"] = {
        "instability": [_float(v) for v in stars.cv_results_["instability"]],
        "edges": [_float(v) for v in stars.cv_results_["mean_n_edges"]],
        "best": int(stars.best_index_),
    }
    oct_ = OCTSearchCV(
        PCStable(), {"alpha": [0.001, 0.05]}, cv=3, n_permutations=50, random_state=0
    ).fit(X)
    out["oct"] = {
        "mi": [_float(v) for v in oct_.cv_results_["mean_mutual_information"]],
        "pvalue": [_float(v) for v in oct_.cv_results_["pvalue"]],
        "best": int(oct_.best_index_),
    }
    iv = InterValSearchCV(
        HillClimb(EBIC()),
        {"criterion__gamma": [0, 1]},
        sample_size=500,
        n_subsamples=3,
        random_state=0,
    ).fit(X)
    out["interval_search"] = {
        "mean": [_float(v) for v in iv.cv_results_["mean_test_score"]],
        "best": int(iv.best_index_),
        "agreement": sorted(list(map(str, t)) for t in iv.agreement_.pairs()),
    }
    return out


def interval_outputs() -> dict:
    """intersection_validate on the discrete problem."""
    from skbn.learners import HillClimb, PCStable
    from skbn.model_selection import intersection_validate
    from skbn.scores import BDeu

    X = discrete_problem()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the agreement graph is small here
        res = intersection_validate(
            {"hc": HillClimb(), "hc_bdeu": HillClimb(BDeu()), "pc": PCStable()},
            X,
            sample_sizes=[200, 600],
            n_subsamples=3,
            random_state=0,
        )
    frame = res.results.sort_values(["estimator", "sample_size", "subsample"])
    return {
        "phd": [_float(v) for v in frame["phd"]],
        "agreement": sorted(list(map(str, t)) for t in res.agreement.pairs()),
    }


def ensemble_outputs() -> dict:
    """Bootstrap strengths and poset learner, SLE, Auto-SLE and PEF."""
    from optuna.distributions import FloatDistribution

    from skbn.datasets import make_training_problems
    from skbn.ensemble import (
        AutoSLEEnsemble,
        BootstrapPosetLearner,
        PEFLearner,
        StructureLearningEnsemble,
        bootstrap_edge_frequencies,
    )
    from skbn.learners import FGES, HillClimb, PCStable

    X = discrete_problem()
    Xg = gaussian_problem()
    out = {}
    freq = bootstrap_edge_frequencies(HillClimb(), X, n_resamples=8, random_state=0)
    table = freq.table.sort_values(["u", "v"])
    out["strengths"] = [
        [r.u, r.v, _float(r.strength), _float(r.direction)] for r in table.itertuples()
    ]
    for start in ("random_chain", "empty"):
        bp = BootstrapPosetLearner(
            n_poset_resamples=6, n_test_resamples=6, start=start, random_state=0
        ).fit(X)
        consensus = bp.consensus_.sort_values(["u", "v"])
        pvals = bp.edge_pvalues_.sort_values(["u", "v"])
        out[f"poset_{start}"] = {
            "consensus": [[r.u, r.v, int(r.count)] for r in consensus.itertuples()],
            "poset": _edges(bp.poset_),
            "pvalues": [
                [r.u, r.v, int(r.count), int(r.null_count), _float(r.p)] for r in pvals.itertuples()
            ],
            "graph": _edges(bp.graph_),
        }
    sle = StructureLearningEnsemble(
        [FGES(), FGES(penalty_discount=4.0), PCStable(), HillClimb()]
    ).fit(Xg)
    out["sle"] = {
        "scores": [_float(v) for v in sle.selection_scores_],
        "best": int(sle.best_index_),
        "graph": _edges(sle.graph_),
    }
    problems = make_training_problems(3, n_nodes=(5, 10), n_samples=200, random_state=0)
    space = {"fges": (FGES(), {"penalty_discount": FloatDistribution(1.0, 20.0, log=True)})}
    auto = AutoSLEEnsemble(
        space, ensemble_size=2, n_trials=4, problems=problems, random_state=0
    ).fit(Xg)
    out["autosle"] = {
        "members": [[n, _float(e.penalty_discount)] for n, e in auto.members_],
        "gains": [_float(g) for g in auto.gains_],
        "graph": _edges(auto.graph_),
    }
    Xr = replicated_problem()
    for route in ("dense", "sparse"):
        pef = PEFLearner(route=route, random_state=0).fit(Xr)
        out[f"pef_{route}"] = {
            "clusters": sorted(sorted(c) for c in pef.clusters_),
            "graph": _edges(pef.graph_),
            "cross": int(pef.n_cross_arcs_),
        }
    return out


GROUPS = {
    "learners": learner_outputs,
    "searches": search_outputs,
    "interval": interval_outputs,
    "ensembles": ensemble_outputs,
}


def compare(expected, actual, path="", rtol=1e-7, atol=1e-9) -> list[str]:
    """Differences between two JSON-able values (floats within tolerance), as messages."""
    diffs = []
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual)):
            if key not in actual or key not in expected:
                diffs.append(f"{path}/{key}: present on one side only")
                continue
            diffs += compare(expected[key], actual[key], f"{path}/{key}", rtol, atol)
    elif isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return [f"{path}: length {len(expected)} -> {len(actual)}"]
        for k, (a, b) in enumerate(zip(expected, actual)):
            diffs += compare(a, b, f"{path}[{k}]", rtol, atol)
    elif isinstance(expected, float) and isinstance(actual, (float, int)):
        if not np.isclose(expected, actual, rtol=rtol, atol=atol):
            diffs.append(f"{path}: {expected!r} -> {actual!r}")
    elif expected != actual:
        diffs.append(f"{path}: {expected!r} -> {actual!r}")
    return diffs


__all__ = ["GROUPS", "LEARNER_CASES", "compare", "learner_output", "nx"]
