# SPDX-License-Identifier: BSD-3-Clause
"""PC-Stable's skeleton against causal-learn's ``pc(stable=True)`` (needs the bench extra)."""

import warnings

import numpy as np
import pytest

from skbn.ci_tests import ChiSquare, FisherZ, GSquare
from skbn.datasets import load_network, make_erdos_renyi_dag, make_problem
from skbn.graph import skeleton
from skbn.learners import PCStable

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    pc_module = pytest.importorskip(
        "causallearn.search.ConstraintBased.PC", reason="causal-learn is in the bench extra"
    )


def _theirs(values, names, alpha, test):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cg = pc_module.pc(values, alpha, indep_test=test, stable=True, show_progress=False)
    G = np.asarray(cg.G.graph)
    p = len(names)
    return {
        frozenset((names[i], names[j]))
        for i in range(p)
        for j in range(i + 1, p)
        if G[i, j] != 0 or G[j, i] != 0
    }


def _ours(graph):
    return {frozenset(e) for e in skeleton(graph).edges()}


@pytest.mark.filterwarnings("ignore")
def test_fisher_z_skeleton_equals_causal_learns():
    X, _ = make_problem(
        make_erdos_renyi_dag(30, 45, random_state=0), n_samples=1000, random_state=0
    )
    ours = _ours(PCStable(FisherZ(), alpha=0.05).fit(X).graph_)
    assert ours == _theirs(X.to_numpy(), list(X.columns), 0.05, "fisherz")


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("network", ["asia", "alarm"])
@pytest.mark.parametrize("test, theirs", [(ChiSquare(), "chisq"), (GSquare(), "gsq")])
def test_discrete_skeleton_equals_causal_learns(network, test, theirs):
    # causal-learn also drops empty rows and columns of each stratum from the degrees of
    # freedom, as our default adjust_df=True does
    X = load_network(network).sample(5000, random_state=0)
    codes = np.column_stack([X[c].cat.codes.to_numpy() for c in X.columns])
    ours = _ours(PCStable(test, alpha=0.05).fit(X).graph_)
    assert ours == _theirs(codes, list(X.columns), 0.05, theirs)
