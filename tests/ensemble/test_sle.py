# SPDX-License-Identifier: BSD-3-Clause
import networkx as nx
import numpy as np
import pytest
from sklearn.base import clone

from skbn.datasets import make_problem
from skbn.ensemble import (
    PAPER_SLE,
    FallbackSelectedWarning,
    PEFLearner,
    StructureLearningEnsemble,
)
from skbn.graph import to_dag
from skbn.graph._array import extension_or_fallback, has_path, pdag_to_dag_array
from skbn.learners import FGES, HillClimb, PCStable
from skbn.scores import BIC, GaussianBIC
from skbn.utils.testing import fixed_graph_learner


@pytest.fixture(scope="module")
def asia():
    return make_problem("asia", n_samples=2000, random_state=1)


def _graph(edges, nodes, kind):
    g = nx.DiGraph(kind=kind)
    g.add_nodes_from(nodes)
    g.add_edges_from(edges)
    return g


def test_selection_scores_are_the_bic_of_each_members_output(asia):
    X, _ = asia
    members = [FGES(), FGES(penalty_discount=8.0), PCStable(alpha=0.01)]
    sle = StructureLearningEnsemble(members).fit(X)
    expected = [GaussianBIC().score_graph(to_dag(est.graph_), X) for est in sle.estimators_]
    np.testing.assert_allclose(sle.selection_scores_, expected, rtol=1e-10)
    assert sle.best_index_ == int(np.argmax(expected))
    assert sle.best_estimator_ is sle.estimators_[sle.best_index_]
    assert set(sle.graph_.edges) == set(sle.best_estimator_.graph_.edges)
    assert sle.graph_.graph["kind"] == sle.best_estimator_.graph_.graph["kind"]
    assert sle.extendable_.all()
    assert sle.fit_times_.shape == (3,)


def test_named_members_and_parallel_fit_give_the_same_choice(asia):
    X, _ = asia
    members = [("loose", FGES(penalty_discount=0.5)), ("strict", FGES(penalty_discount=20.0))]
    a = StructureLearningEnsemble(members).fit(X)
    b = StructureLearningEnsemble(members, n_jobs=2).fit(X)
    assert a.member_names_ == ["loose", "strict"]
    np.testing.assert_array_equal(a.selection_scores_, b.selection_scores_)
    assert set(a.graph_.edges) == set(b.graph_.edges)


def test_ties_go_to_the_first_member(asia):
    X, _ = asia
    sle = StructureLearningEnsemble([FGES(), FGES()]).fit(X)
    assert sle.selection_scores_[0] == sle.selection_scores_[1]
    assert sle.best_index_ == 0


def test_a_pdag_without_extension_is_not_chosen_over_an_extendable_output():
    rng = np.random.default_rng(0)
    n = 500
    a = rng.standard_normal(n)
    b = a + 0.3 * rng.standard_normal(n)
    c = b + 0.3 * rng.standard_normal(n)
    d = c + a + 0.3 * rng.standard_normal(n)
    import pandas as pd

    X = pd.DataFrame({"a": a, "b": b, "c": c, "d": d})
    nodes = list(X.columns)
    # the chordless undirected 4-cycle a-b-c-d-a has no consistent extension
    square = [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")]
    pdag = _graph(square + [(v, u) for u, v in square], nodes, "pdag")
    assert pdag_to_dag_array(nx.to_numpy_array(pdag, nodelist=nodes).astype(np.int8)) is None
    empty = _graph([], nodes, "dag")
    sle = StructureLearningEnsemble([fixed_graph_learner(pdag), fixed_graph_learner(empty)]).fit(X)
    assert list(sle.extendable_) == [False, True]
    # the fallback DAG of the square explains the data far better than the empty graph...
    assert sle.selection_scores_[0] > sle.selection_scores_[1]
    # ...but it is never silently chosen
    assert sle.best_index_ == 1
    with pytest.warns(FallbackSelectedWarning, match="fallback"):
        only = StructureLearningEnsemble([fixed_graph_learner(pdag)]).fit(X)
    assert only.best_index_ == 0


def test_fallback_keeps_arcs_and_orients_edges_acyclically():
    # a directed 3-cycle plus an undirected edge: no extension exists
    A = np.zeros((4, 4), dtype=np.int8)
    A[0, 1] = A[1, 2] = A[2, 0] = 1
    A[2, 3] = A[3, 2] = 1
    dag, extended = extension_or_fallback(A)
    assert not extended
    assert not any(has_path(dag, int(v), int(u)) for u, v in zip(*np.nonzero(dag)))
    assert dag[0, 1] and dag[1, 2] and not dag[2, 0]  # the arc closing the cycle is dropped
    assert dag[2, 3] + dag[3, 2] == 1
    dag, extended = extension_or_fallback(np.triu(np.ones((3, 3), dtype=np.int8), 1))
    assert extended


def test_from_paper_has_table_two_members():
    sle = StructureLearningEnsemble.from_paper(n_jobs=2)
    got = [(m.penalty_discount, m.max_degree, m.faithfulness) for m in sle.estimators]
    assert got == [(pd_, md, False) for pd_, md in PAPER_SLE]
    assert isinstance(sle.selection_score, GaussianBIC)
    assert sle.n_jobs == 2


def test_clone_keeps_members_and_discrete_data_use_bic():
    X, _ = make_problem("asia", n_samples=1000, kind="discrete", random_state=0)
    sle = StructureLearningEnsemble([HillClimb(), HillClimb(criterion=BIC(penalty_discount=3.0))])
    cloned = clone(sle)
    assert cloned.estimators[0] is not sle.estimators[0]
    cloned.fit(X)
    expected = [BIC().score_graph(est.graph_, X) for est in cloned.estimators_]
    np.testing.assert_allclose(cloned.selection_scores_, expected)


def test_p_sle_runs_the_ensemble_on_every_cluster():
    X, dag = make_problem("child", n_nodes=60, n_samples=1000, random_state=0)
    pef = PEFLearner(StructureLearningEnsemble([FGES(), FGES(penalty_discount=4.0)])).fit(X)
    assert nx.is_directed_acyclic_graph(pef.graph_)
    assert pef.graph_.number_of_nodes() == X.shape[1]


def test_bad_members_are_named():
    X, _ = make_problem("asia", n_samples=200, random_state=0)
    with pytest.raises(ValueError, match="non-empty list"):
        StructureLearningEnsemble([]).fit(X)
    with pytest.raises(TypeError, match=r"estimators\[1\].*no fit method"):
        StructureLearningEnsemble([FGES(), "pc"]).fit(X)
    with pytest.raises(ValueError, match="unique"):
        StructureLearningEnsemble([("a", FGES()), ("a", PCStable())]).fit(X)


def test_non_extendable_member_output_has_no_path_through_cycles():
    # sanity of the fallback on random PDAGs: always a DAG with the PDAG's skeleton
    rng = np.random.default_rng(3)
    for _ in range(50):
        A = (rng.random((7, 7)) < 0.3).astype(np.int8)
        np.fill_diagonal(A, 0)
        dag, _ = extension_or_fallback(A)
        assert nx.is_directed_acyclic_graph(nx.DiGraph(dag))
        assert np.all((dag | dag.T) <= (A | A.T))
