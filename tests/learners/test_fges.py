# SPDX-License-Identifier: BSD-3-Clause
import copy

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from skbn.datasets import load_network, make_erdos_renyi_dag, make_problem
from skbn.graph import dag_to_cpdag, is_cpdag, pdag_to_dag
from skbn.learners import FGES
from skbn.learners._cpdag_state import CPDAGState
from skbn.metrics import shd
from skbn.scores import BDeu, GaussianBIC


@pytest.mark.parametrize("name, n", [("asia", 20000), ("child", 20000), ("sachs", 100000)])
def test_recovers_the_true_cpdag_from_large_gaussian_samples(name, n):
    X, truth = make_problem(name, n_samples=n, random_state=0)
    est = FGES().fit(X)
    assert est.graph_.graph["kind"] == "cpdag" and is_cpdag(est.graph_)
    assert shd(truth, est.graph_) == 0


@pytest.mark.parametrize("name", ["cancer", "sachs", "child"])
def test_recovers_the_true_cpdag_from_large_discrete_samples(name):
    bn = load_network(name)
    X = bn.sample(100000, random_state=0)
    assert shd(bn.graph, FGES().fit(X).graph_) == 0
    assert shd(bn.graph, FGES(BDeu(iss=10)).fit(X).graph_) == 0


def test_deterministic_nodes_still_give_full_adjacency_recall():
    # in asia, "either" is a deterministic OR of tub and lung: faithfulness fails there, yet
    # every true adjacency is found
    bn = load_network("asia")
    est = FGES(BDeu(iss=10)).fit(bn.sample(50000, random_state=0))
    from skbn.metrics import adjacency_precision_recall_f1

    assert adjacency_precision_recall_f1(bn.graph, est.graph_).recall == 1.0


def test_regional_rebuild_matches_full_rebuild(monkeypatch):
    """Every CPDAG restoration during real FGES runs equals the whole-component one."""
    original = CPDAGState.rebuild
    calls = []

    def checked(self, seeds, *, region="downstream"):
        twin = copy.deepcopy(self)
        changed = original(self, seeds)
        twin_changed = original(twin, seeds, region="component")
        np.testing.assert_array_equal(self.to_array(), twin.to_array())
        assert changed == twin_changed
        calls.append(1)
        return changed

    monkeypatch.setattr(CPDAGState, "rebuild", checked)
    for seed in range(3):
        X, _ = make_problem(
            make_erdos_renyi_dag(25, 50, random_state=seed), n_samples=500, random_state=seed
        )
        FGES(faithfulness=False).fit(X)
    assert len(calls) > 100


def test_output_is_a_valid_cpdag_whose_extension_has_the_reported_score():
    X, _ = make_problem(make_erdos_renyi_dag(40, 80, random_state=1), n_samples=800, random_state=1)
    est = FGES("bic").fit(X)
    assert is_cpdag(est.graph_)
    dag = pdag_to_dag(est.graph_)
    assert GaussianBIC().score_graph(dag, X) == pytest.approx(est.score_)
    np.testing.assert_array_equal(
        nx.to_numpy_array(dag_to_cpdag(dag), dtype=int), nx.to_numpy_array(est.graph_, dtype=int)
    )


def test_no_single_insert_or_delete_of_an_edge_improves_the_dag_extension_much():
    """GES ends at a local optimum of the class space; check single edge additions/removals on
    a DAG member (a weaker, independent necessary condition)."""
    X, _ = make_problem("sachs", n_samples=3000, random_state=2)
    est = FGES("bic").fit(X)
    dag = pdag_to_dag(est.graph_)
    bound = GaussianBIC().bind(X)
    base = bound.score_graph(dag)
    for u, v in list(dag.edges()):
        g = dag.copy()
        g.remove_edge(u, v)
        assert bound.score_graph(g) <= base + 1e-6


def test_penalty_discount_gives_sparser_graphs():
    X, _ = make_problem(
        make_erdos_renyi_dag(50, 100, random_state=0), n_samples=500, random_state=0
    )
    dense = FGES().fit(X).graph_
    sparse = FGES(penalty_discount=8).fit(X).graph_
    assert sparse.number_of_edges() < dense.number_of_edges()


def test_max_degree_bounds_the_adjacencies():
    X, _ = make_problem(
        make_erdos_renyi_dag(30, 90, random_state=0), n_samples=1000, random_state=0
    )
    g = FGES(max_degree=3).fit(X).graph_.to_undirected()
    assert max(d for _, d in g.degree()) <= 3


def test_cancelling_paths_give_the_faithful_collider():
    # a -> b -> c and a -> c with cancelling weights make a and c independent: the distribution
    # is faithful to the collider a -> b <- c, which GES must return in both modes.
    rng = np.random.default_rng(0)
    n = 20000
    a = rng.normal(size=n)
    b = a + 0.6 * rng.normal(size=n)
    c = b - a + 0.6 * rng.normal(size=n)
    X = pd.DataFrame({"a": a, "b": b, "c": c})
    collider = nx.DiGraph([("a", "b"), ("c", "b")])
    for faithfulness in (True, False):
        assert shd(collider, FGES(faithfulness=faithfulness).fit(X).graph_) == 0


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_all_pairs_round_never_lowers_the_score(seed):
    # the extra round starts from the faithful rounds' result and applies improving operators
    X, _ = make_problem(
        make_erdos_renyi_dag(30, 60, random_state=seed), n_samples=300, random_state=seed
    )
    faithful = FGES().fit(X)
    exhaustive = FGES(faithfulness=False).fit(X)
    assert exhaustive.score_ >= faithful.score_ - 1e-6
    assert exhaustive.n_inserts_ >= faithful.n_inserts_


def test_adjacency_constraints():
    X, truth = make_problem("asia", n_samples=20000, random_state=0)
    g = FGES(forbidden_edges=[("lung", "either"), ("either", "lung")]).fit(X).graph_
    assert not g.has_edge("lung", "either") and not g.has_edge("either", "lung")
    allowed = [("smoke", "lung"), ("smoke", "bronc")]
    g = FGES(allowed_edges=allowed).fit(X).graph_
    assert {frozenset(e) for e in g.edges()} <= {frozenset(e) for e in allowed}


def test_penalty_discount_with_an_explicit_score_is_refused():
    X, _ = make_problem("asia", n_samples=200, random_state=0)
    with pytest.raises(ValueError, match="set it on the score object instead"):
        FGES(GaussianBIC(), penalty_discount=2).fit(X)


def test_deterministic_and_idempotent():
    X, _ = make_problem(make_erdos_renyi_dag(30, 60, random_state=3), n_samples=500, random_state=3)
    a = FGES().fit(X)
    b = FGES().fit(X)
    assert set(a.graph_.edges()) == set(b.graph_.edges())
    assert set(a.fit(X).graph_.edges()) == set(a.graph_.edges())
