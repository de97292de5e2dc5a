# SPDX-License-Identifier: BSD-3-Clause
import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.model_selection import GridSearchCV

from skbn.datasets import load_network
from skbn.graph import PartialGraph, dag_to_cpdag, from_adjacency
from skbn.learners import HillClimb
from skbn.metrics import partial_hamming_distance
from skbn.model_selection import (
    InterValScorer,
    InterValSearchCV,
    OTSLSearchCV,
    SubsampleSplit,
    agreement_graph,
    intersection_validate,
    make_interval_scorer,
)
from skbn.scores import BIC, K2, BDeu
from skbn.utils.testing import fixed_graph_learner
from tests.conftest import random_dags


@pytest.fixture(scope="module")
def alarm():
    bn = load_network("alarm")
    return bn, bn.sample(4000, random_state=0)


def test_agreement_of_identical_graphs_is_the_full_graph(alarm):
    bn, _ = alarm
    agreement = agreement_graph([bn.graph, bn.graph.copy()])
    assert agreement.relative_size == 1.0
    assert agreement.n_connected_pairs == bn.graph.number_of_edges()


def _pair_type(G, u, v):
    """Type of the pair (u, v) read from the edges alone: none, ->, <- or -."""
    forward, backward = G.has_edge(u, v), G.has_edge(v, u)
    return {(False, False): "none", (True, False): "->", (False, True): "<-"}.get(
        (forward, backward), "-"
    )


def _brute_force_phd(G, partial):
    """Known pairs of ``partial`` whose type differs in ``G`` (a CPDAG or PDAG), one by one."""
    return sum(_pair_type(G, u, v) != agreed for u, v, agreed in partial.pairs())


@pytest.mark.parametrize("kind", ["pdag", "cpdag"])
def test_agreement_graph_reads_each_kind_as_the_phd_does(kind):
    # a PDAG or CPDAG without undirected edges must not be re-read as a DAG, and a cyclic
    # PDAG is compared as it is: the agreement of a graph with itself is at PHD 0 from it
    chain = nx.DiGraph([("a", "b"), ("b", "c")], kind=kind)
    assert partial_hamming_distance(chain, agreement_graph([chain, chain])) == 0
    assert _brute_force_phd(chain, agreement_graph([chain, chain])) == 0
    if kind == "pdag":
        cycle = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a")], kind="pdag")
        assert partial_hamming_distance(cycle, agreement_graph([cycle, cycle])) == 0
    # against a DAG read as its CPDAG (a - b - c), the PDAG's two arcs disagree
    dag = nx.DiGraph([("a", "b"), ("b", "c")], kind="dag")
    agreement = agreement_graph([dag, dag])
    assert partial_hamming_distance(chain, agreement) == 2 == _brute_force_phd(chain, agreement)


def test_agreement_excludes_exactly_the_reversed_pairs():
    # PDAGs (an undirected edge keeps them from being re-read as DAGs): a - b, c -> d, e -> f
    nodes = list("abcdef")
    base = nx.DiGraph([("a", "b"), ("b", "a"), ("c", "d"), ("e", "f")], kind="pdag")
    base.add_nodes_from(nodes)
    variant = nx.DiGraph([("a", "b"), ("b", "a"), ("d", "c"), ("e", "f")], kind="pdag")
    variant.add_nodes_from(nodes)
    agreement = agreement_graph([base, variant])
    unknown = {
        frozenset((agreement.nodes[i], agreement.nodes[j]))
        for i, j in zip(*np.nonzero(np.triu(~agreement.known, 1)))
    }
    assert unknown == {frozenset("cd")}


@given(
    random_dags(min_nodes=6, max_nodes=6),
    random_dags(min_nodes=6, max_nodes=6),
    random_dags(min_nodes=6, max_nodes=6),
    st.lists(st.booleans(), min_size=36, max_size=36),
)
def test_phd_is_a_metric_on_a_fixed_pair_set(A, B, C, bits):
    known = np.array(bits).reshape(6, 6)
    known = known | known.T

    def d(G, H):
        return partial_hamming_distance(G, PartialGraph.from_graph(dag_to_cpdag(H), known))

    for G in (A, B, C):
        assert d(G, G) == 0
    assert d(A, B) == d(B, A)
    assert d(A, C) <= d(A, B) + d(B, C)


def test_intersection_validate_is_deterministic_and_ranks_sensibly(alarm):
    _, X = alarm
    learners = {
        "bic": HillClimb(BIC()),
        "bdeu": HillClimb(BDeu()),
        "bdeu50": HillClimb(BDeu(iss=50)),
    }
    a = intersection_validate(learners, X, sample_sizes=[400, 1600], n_subsamples=3, random_state=0)
    b = intersection_validate(
        learners, X, sample_sizes=[400, 1600], n_subsamples=3, random_state=0, n_jobs=2
    )
    assert a.results.equals(b.results)
    assert a.reliable and a.agreement.relative_size > 0.8
    assert set(a.ranking.columns) == set(learners)
    # an overfitting score is worse by PHD than BIC at every size
    summary = a.summary.set_index(["estimator", "sample_size"])["mean_phd"]
    assert all(summary[("bdeu50", s)] > summary[("bic", s)] for s in (400, 1600))
    ax = a.plot()
    assert len(ax.get_lines()) >= 3


def test_unreliable_agreement_warns(alarm):
    bn, X = alarm
    empty = nx.DiGraph()
    empty.add_nodes_from(bn.nodes)
    learners = [fixed_graph_learner(bn.graph), fixed_graph_learner(empty)]
    with pytest.warns(UserWarning, match="may not be trustworthy"):
        res = intersection_validate(learners, X, sample_sizes=[100], n_subsamples=1, random_state=0)
    assert not res.reliable and res.agreement.n_connected_pairs == 0


def test_subsample_split_and_scorer_in_sklearn_searches(alarm):
    _, X = alarm
    scorer = make_interval_scorer([HillClimb(BIC()), HillClimb(K2())], X)
    assert isinstance(scorer, InterValScorer)
    grid = GridSearchCV(
        HillClimb(BDeu()),
        {"criterion__iss": [1, 30]},
        scoring=scorer,
        cv=SubsampleSplit(500, 2, random_state=0),
    ).fit(X)
    assert grid.best_params_ == {"criterion__iss": 1}
    otsl = OTSLSearchCV(
        HillClimb(BDeu()),
        {"criterion__iss": [1, 30]},
        scoring=scorer,
        n_resamples=2,
        random_state=0,
    ).fit(X)
    assert otsl.best_params_ == {"criterion__iss": 1}
    # each split's score is minus the PHD, counted pair by pair, of that split's graph
    for i, (train, _) in enumerate(otsl.cv.split(X)):
        for k, iss in enumerate([1, 30]):
            graph = HillClimb(BDeu(iss=iss)).fit(X.iloc[train]).graph_
            expected = -_brute_force_phd(dag_to_cpdag(graph), scorer.reference)
            assert otsl.cv_results_[f"split{i}_test_score"][k] == expected
    with pytest.raises(ValueError, match="sample_size"):
        list(SubsampleSplit(5000, 2).split(X))


def test_interval_search_picks_the_lowest_mean_phd(alarm):
    _, X = alarm
    search = InterValSearchCV(
        HillClimb(BDeu()),
        {"criterion__iss": [1, 10, 100]},
        sample_size=600,
        n_subsamples=3,
        random_state=0,
    ).fit(X)
    means = search.cv_results_["mean_test_score"]
    assert search.best_index_ == int(np.argmax(means))
    assert isinstance(search.agreement_, PartialGraph)
    assert set(search.graph_.nodes) == set(X.columns)
    same = fixed_graph_learner(from_adjacency(np.zeros((37, 37)), list(X.columns)))
    tie = InterValSearchCV(
        same, {"level": [2, 1]}, sample_size=100, n_subsamples=2, random_state=0
    ).fit(X)
    assert tie.best_params_ == {"level": 2}
