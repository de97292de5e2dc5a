# SPDX-License-Identifier: BSD-3-Clause
import networkx as nx
import pytest

from skbn.ci_tests import ChiSquare, FisherZ
from skbn.datasets import load_network, make_erdos_renyi_dag, make_problem
from skbn.graph import skeleton
from skbn.learners import MMHC
from skbn.metrics import f1_adjacency
from skbn.scores import BDeu, GaussianBIC
from skbn.utils.testing import d_separation_oracle


def _skeleton(graph):
    return {frozenset(e) for e in skeleton(graph).edges()}


# (An oracle rates every dependence alike, so MMPC cannot add the strongest first and its
# candidate sets grow large on alarm; with data it takes a fraction of a second there.)
@pytest.mark.parametrize("name", ["asia", "sachs", "child"])
def test_mmpc_with_an_oracle_finds_the_true_skeleton(name):
    bn = load_network(name)
    X = bn.sample(5000, random_state=0)
    est = MMHC(d_separation_oracle(bn.graph), alpha=0.5).fit(X)
    assert est.skeleton_ == _skeleton(bn.graph)
    assert _skeleton(est.graph_) <= est.skeleton_


def test_search_stays_inside_the_skeleton_and_is_reproducible():
    X = load_network("alarm").sample(5000, random_state=2)
    a = MMHC(ChiSquare(), BDeu(iss=5), random_state=0).fit(X)
    assert _skeleton(a.graph_) <= a.skeleton_
    assert nx.is_directed_acyclic_graph(a.graph_)
    b = MMHC(ChiSquare(), BDeu(iss=5), random_state=0, n_jobs=2).fit(X)
    assert set(a.graph_.edges()) == set(b.graph_.edges()) and a.skeleton_ == b.skeleton_
    assert a.n_tests_ > 0


def test_gaussian_mmhc_is_accurate():
    X, truth = make_problem(
        make_erdos_renyi_dag(40, 60, random_state=0), n_samples=2000, random_state=0
    )
    est = MMHC(FisherZ(), GaussianBIC()).fit(X)
    assert f1_adjacency(truth, est.graph_) > 0.9


def test_max_cond_size_zero_keeps_marginal_dependencies_only():
    bn = load_network("asia")
    X = bn.sample(3000, random_state=0)
    est = MMHC(d_separation_oracle(bn.graph), alpha=0.5, max_cond_size=0).fit(X)
    marginal = {
        frozenset((u, v))
        for u in bn.nodes
        for v in bn.nodes
        if u < v and not nx.is_d_separator(bn.graph, {u}, {v}, set())
    }
    assert est.skeleton_ == marginal


def test_test_and_score_of_different_kinds_are_refused():
    X = load_network("asia").sample(100, random_state=0)
    with pytest.raises(ValueError, match="different kinds of data"):
        MMHC(ChiSquare(), GaussianBIC()).fit(X)
