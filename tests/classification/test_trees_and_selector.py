# SPDX-License-Identifier: BSD-3-Clause
"""ChowLiu and TAN against a spanning tree computed independently and against bnlearn 4.9's
chow.liu and tree.bayes (a stored oracle), and the blanket selector."""

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import mutual_info_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from skbn.classification import BayesianNetworkClassifier
from skbn.datasets import load_network
from skbn.feature_selection import MarkovBlanketSelector
from skbn.graph import markov_blanket
from skbn.learners import TAN, ChowLiu, PCStable
from tests.data import load_oracle


@pytest.fixture(scope="module")
def asia():
    return load_network("asia").sample(3000, random_state=0)


def _skeleton(graph):
    return {frozenset(e) for e in graph.edges}


def test_chow_liu_is_the_maximum_mutual_information_tree(asia):
    # mutual information from scikit-learn, spanning tree from networkx
    names = list(asia.columns)
    g = nx.Graph()
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            g.add_edge(a, b, weight=mutual_info_score(asia[a], asia[b]))
    expected = {frozenset(e) for e in nx.maximum_spanning_tree(g).edges}
    tree = ChowLiu(root="asia").fit(asia)
    assert _skeleton(tree.graph_) == expected
    assert tree.graph_.in_degree("asia") == 0
    assert all(d <= 1 for _, d in tree.graph_.in_degree())
    w = tree.weights_[names.index("smoke"), names.index("lung")]
    assert w == pytest.approx(mutual_info_score(asia["smoke"], asia["lung"]), rel=1e-9)


def test_gaussian_chow_liu_weights_are_from_the_correlation():
    X = load_network("asia").sample(500, random_state=0).apply(lambda c: c.cat.codes)
    X = X.astype(float) + np.random.default_rng(0).normal(size=X.shape)
    tree = ChowLiu(criterion="loglik-g").fit(X)
    r = np.corrcoef(X.to_numpy(), rowvar=False)
    with np.errstate(divide="ignore"):
        expected = -0.5 * np.log(1 - r**2)
    np.fill_diagonal(expected, 0.0)
    np.testing.assert_allclose(tree.weights_, expected, rtol=1e-6, atol=1e-12)


def test_a_penalised_chow_liu_is_a_forest(asia):
    full = ChowLiu().fit(asia)
    forest = ChowLiu(criterion="bic").fit(asia)
    assert forest.graph_.number_of_edges() < full.graph_.number_of_edges() == 7
    assert _skeleton(forest.graph_) <= _skeleton(full.graph_)


def test_tan_is_a_tree_under_the_class(asia):
    tan = TAN(class_node="lung").fit(asia)
    g = tan.graph_
    others = [v for v in g if v != "lung"]
    assert all(g.has_edge("lung", v) for v in others)
    assert all(g.in_degree(v) <= 2 for v in others)
    assert nx.is_tree(g.subgraph(others).to_undirected())
    with pytest.raises(ValueError, match="class_node='nope' is not a column"):
        TAN(class_node="nope").fit(asia)


@pytest.mark.slow
# on the checks' random data the blanket may be empty, which scikit-learn warns about
@pytest.mark.filterwarnings("ignore:No features were selected")
@pytest.mark.filterwarnings("ignore:The Markov blanket learned")
@parametrize_with_checks([MarkovBlanketSelector(), MarkovBlanketSelector(discretizer=None)])
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:The Markov blanket learned")  # a target left alone
def test_selector_finds_most_true_blankets_on_alarm():
    # measured over all 37 targets at n = 10,000: mean F1 0.944 with the default learner
    # (BOSS), 0.874 with hill climbing; here every third target, to keep the test short
    network = load_network("alarm")
    X = network.sample(10000, random_state=0)
    f1 = {"auto": [], "hill_climb": []}
    for target in X.columns[::3]:
        truth = markov_blanket(network.graph, target)
        for learner, scores in f1.items():
            selector = MarkovBlanketSelector(learner, random_state=0)
            found = set(selector.fit(X.drop(columns=target), X[target]).markov_blanket_)
            scores.append(2 * len(found & truth) / (len(found) + len(truth)))
    assert np.mean(f1["auto"]) >= 0.9 and np.median(f1["auto"]) == 1.0
    assert np.mean(f1["auto"]) >= np.mean(f1["hill_climb"])


def test_selector_in_a_pipeline_with_pandas_output():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    selector = MarkovBlanketSelector().set_output(transform="pandas").fit(X, y)
    out = selector.transform(X)
    assert isinstance(out, pd.DataFrame)
    assert list(out.columns) == list(selector.get_feature_names_out())
    assert list(out.columns) == list(selector.markov_blanket_)
    model = make_pipeline(MarkovBlanketSelector(), StandardScaler(), LogisticRegression())
    assert model.fit(X, y).score(X, y) > 0.9


@pytest.mark.parametrize("case", load_oracle("bnlearn_tree_oracle"), ids=lambda c: c["network"])
def test_chow_liu_and_tan_equal_bnlearns(case):
    # bnlearn 4.9's chow.liu (skeleton) and tree.bayes (arcs) on the same sample, recorded
    # by tests/data/make_bnlearn_tree_oracle.py; the same mutual information, so the same tree
    X = load_network(case["network"]).sample(case["n"], random_state=case["seed"]).astype(str)
    assert _skeleton(ChowLiu().fit(X).graph_) == {frozenset(e) for e in case["chow_liu"]}
    for target, arcs in case["tan"].items():
        expected = {tuple(a) for a in arcs}
        # the same tree with skbn's root (the feature most informative of the class) ...
        tan = TAN(class_node=target).fit(X)
        assert _skeleton(tan.graph_) == {frozenset(a) for a in expected}, target
        # ... and the same arcs when it hangs from bnlearn's root, the first feature
        first = next(c for c in X.columns if c != target)
        assert set(TAN(class_node=target, root=first).fit(X).graph_.edges) == expected, target


class _FixedGraph:
    """A fitted learner's stand-in: its graph_ alone."""

    def __init__(self, graph):
        self.graph_ = graph


def _square_pdag(names):
    # the chordless undirected 4-cycle a - b - c - d - a, and e -> a: no orientation of the
    # cycle avoids a new v-structure or a directed cycle, so there is no consistent extension
    import networkx as nx

    g = nx.DiGraph(kind="pdag")
    for u, v in [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")]:
        g.add_edge(u, v)
        g.add_edge(v, u)
    g.add_edge("e", "a")
    g.add_nodes_from(names)
    return g


@pytest.mark.parametrize("names", [list("abcde"), list("edcba"), list("cadeb")])
def test_a_pdag_without_extension_gives_a_dag_keeping_its_arcs(names):
    from skbn._supervised import _graph_of, pdag_blanket_of
    from skbn.graph._array import pdag_to_dag_array, topological_sort_array

    graph = _square_pdag(names)
    A = nx.to_numpy_array(graph, nodelist=names, dtype=np.int8)
    assert pdag_to_dag_array(A) is None
    dag, pdag = _graph_of(_FixedGraph(graph), names)
    np.testing.assert_array_equal(pdag, A)
    assert topological_sort_array(dag) is not None  # acyclic
    assert ((dag + dag.T) == (A | A.T)).all()  # the same skeleton, each edge once
    i = {v: k for k, v in enumerate(names)}
    assert dag[i["e"], i["a"]] == 1  # the directed arc kept
    # the same DAG (by name) whatever the column order
    by_name = sorted((names[u], names[v]) for u, v in zip(*np.nonzero(dag)))
    # (the directed arcs' topological order, smallest name first: b, c, d, e, a)
    assert by_name == [("b", "a"), ("b", "c"), ("c", "d"), ("d", "a"), ("e", "a")]
    # the PDAG's blanket of b: its neighbours a, c and, a or c being a child, their parents
    assert sorted(names[k] for k in pdag_blanket_of(A, i["b"])) == ["a", "c", "e"]


def test_selector_and_classifier_take_a_pc_graph_without_extension():
    # both once raised "PCStable returned a PDAG with no consistent DAG extension" here
    from skbn._supervised import _graph_of, pdag_blanket_of, supervised_data

    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    # PC leaves the class unconnected here: the selector says so and keeps one feature
    with pytest.warns(UserWarning, match="learned for the target 'target' has 0 feature"):
        selector = MarkovBlanketSelector(PCStable()).fit(X, y)
    assert len(selector.selected_) == 1 and selector.transform(X).shape == (len(X), 1)
    data = supervised_data(MarkovBlanketSelector(), X, y, "auto")[0]
    _, pdag = _graph_of(PCStable().fit(data), data.names)
    assert pdag is not None  # the case at hand: no consistent extension
    expected = [data.names[k] for k in pdag_blanket_of(pdag, data.n_features - 1)]
    assert selector.markov_blanket_.tolist() == expected
    clf = BayesianNetworkClassifier(PCStable()).fit(X, y)
    proba = clf.predict_proba(X)
    assert np.isfinite(proba).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
